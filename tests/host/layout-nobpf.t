#!/usr/bin/env bash
# tests/host/layout-nobpf.t: the host rule, mechanically.  The translator
# (replayer/translate/), the recorder's dump (recorder/dump*) and diff
# (recorder/diff.c) and lib/ run on any machine and never issue bpf(); only
# the replay runtime (replayer/runtime/) and the fixtures do.  For each of
# those parts,
# from the host build's archives (build/host/libbpfrr-*.a, see Makefile.in):
#  - no undefined symbol that reaches the bpf syscall: syscall(2), or any
#    function libbpf exports other than its pure ones (BTF parsing and
#    building, names of enum values, error and print plumbing); the list
#    comes from libbpf itself, so new libbpf calls are caught too;
#  - no syscall instruction in the code (inline assembly);
#  - no __NR_bpf or SYS_bpf in the part's sources.
# And, so that the checks cannot pass by seeing nothing, the runtime's
# archive does reference syscall(2).  Reads files only (TAP).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}/host

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }

for p in lib recorder translate runtime; do
	[ -f "$build/libbpfrr-$p.a" ] || { echo "1..0 # SKIP $build/libbpfrr-$p.a is not built"; exit 0; }
done

# The parts that must not issue bpf(): NAME ARCHIVE MEMBER-GLOB SOURCE-GLOB...
parts=(
	"lib libbpfrr-lib.a * lib/*.c lib/*.h"
	"dump libbpfrr-recorder.a dump*.o recorder/dump*.c recorder/dump*.h"
	"diff libbpfrr-recorder.a diff.o recorder/diff.c recorder/diff.h"
	"translator libbpfrr-translate.a * replayer/translate/*.c replayer/translate/*.h"
)

# libbpf's exports that do not issue bpf(): everything else it exports is
# taken to, as most of it does (bpf_*, bpf_object__*, bpf_map__*, ...).
pure='^(btf__.*|libbpf_.*_str|libbpf_get_error|libbpf_set_print|libbpf_strerror|libbpf_(major|minor)_version|libbpf_version_string)$'
impure_btf='^btf__(load_into_kernel|load_from_kernel_by_id.*)$'
libbpf_dir=$(pkg-config --variable=libdir libbpf 2>/dev/null)
libbpf_so=$libbpf_dir/libbpf.so
forbidden=$(mktemp)
trap 'rm -f "$forbidden"' EXIT
{
	echo syscall
	if [ -f "$libbpf_so" ]; then
		nm -D --defined-only "$libbpf_so" | awk 'NF == 3 && $2 != "A" { sub(/@.*/, "", $3); print $3 }' |
			grep -Ev "$pure"
		nm -D --defined-only "$libbpf_so" | awk 'NF == 3 && $2 != "A" { sub(/@.*/, "", $3); print $3 }' |
			grep -E "$impure_btf"
	fi
} | sort -u >"$forbidden"
if [ "$(wc -l <"$forbidden")" -gt 100 ]; then
	ok "libbpf's exports read from $libbpf_so ($(($(wc -l <"$forbidden") - 1)) that may issue bpf())"
else
	not_ok "libbpf's exports read from $libbpf_so" "found $(wc -l <"$forbidden") names: is libbpf installed?"
fi

# forbidden_refs ARCHIVE MEMBER-GLOB: "ARCHIVE(member): symbol" for each
# undefined symbol of the members that is on the forbidden list
forbidden_refs() {
	undefined "$1" "$2" | awk -v a="${1##*/}" 'NR == FNR { bad[$1]; next }
		$2 in bad { printf "%s(%s): %s\n", a, $1, $2 }' "$forbidden" -
}

# undefined ARCHIVE MEMBER-GLOB: "member symbol" lines
undefined() {
	nm -A -u "$1" | awk -F: '{ split($NF, f, " "); print $(NF - 1), f[2] }' |
		while read -r member sym; do
			# shellcheck disable=SC2053
			[[ $member == $2 ]] && echo "$member $sym"
		done
}

# syscall_insns ARCHIVE MEMBER-GLOB: "member: instruction" lines
case $(uname -m) in
x86_64) insn='^(syscall|sysenter|int +[$]0x80)[[:space:]]*$' ;;
aarch64) insn='^svc[[:space:]]' ;;
*) insn= ;;
esac
syscall_insns() {
	[ -n "$insn" ] || return 0
	objdump -d --no-show-raw-insn "$1" | awk -F'\t' -v re="$insn" -v glob="$2" '
		/file format/ { member = $1; sub(/:.*/, "", member); next }
		NF >= 2 && $2 ~ re { print member ": " $1 " " $2 }' |
		while read -r member rest; do
			# shellcheck disable=SC2053
			[[ ${member%:} == $2 ]] && echo "$member $rest"
		done
}

for part in "${parts[@]}"; do
	read -r name archive glob sources <<<"$part"
	a=$build/$archive

	bad=$(forbidden_refs "$a" "$glob")
	if [ -z "$bad" ]; then
		ok "$name: no undefined symbol that issues bpf() ($archive${glob:+ $glob})"
	else
		mapfile -t lines <<<"$bad"
		not_ok "$name: references symbols that issue bpf()" "${lines[@]}"
	fi

	if [ -z "$insn" ]; then
		ok "$name: no syscall instruction # SKIP no instruction pattern for $(uname -m)"
	else
		bad=$(syscall_insns "$a" "$glob" | sed "s|^|$archive(|; s|: |): |")
		if [ -z "$bad" ]; then
			ok "$name: no syscall instruction"
		else
			mapfile -t lines <<<"$bad"
			not_ok "$name: has syscall instructions" "${lines[@]}"
		fi
	fi

	# shellcheck disable=SC2086
	bad=$(cd "$top" && grep -nwE '__NR_bpf|SYS_bpf' $sources 2>/dev/null)
	if [ -z "$bad" ]; then
		ok "$name: no __NR_bpf or SYS_bpf in $sources"
	else
		mapfile -t lines <<<"$bad"
		not_ok "$name: names the bpf syscall number" "${lines[@]}"
	fi
done

# the check sees what it is looking for: the runtime does issue bpf()
if forbidden_refs "$build/libbpfrr-runtime.a" '*' | grep -q ': syscall$'; then
	ok "runtime: references syscall (the check sees the calls it looks for)"
else
	not_ok "runtime: references syscall" "no undefined syscall found in libbpfrr-runtime.a: is nm -u read right?"
fi

echo "1..$n"
[ "$failed" -eq 0 ]

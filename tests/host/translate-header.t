#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/host/translate-header.t: `bpfrr translate --format header` on the
# committed guest traces (tests/data/traces), for stock and patched 6.12: the
# header is compiled, with tests/guest/header-loader.c as its user, by gcc and
# clang with -Wall -Wextra -Werror (for the trace's arch: the cross compiler
# for arm64 traces, clang --target), and with nothing of bpfrr's on the include
# path; two headers go into one program (one runtime, both APIs); its loader
# sizes are the ones `bpfrr replay --plan` prints for the same caps; bad
# usage exits 2. Compiles only: nothing runs, no bpf() (TAP).
# (tests/unit/test_translate_header.c checks the content against the plan in
# detail; tests/guest/translate-header.t runs the loaders.)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bpfrr=${BPFRR:-${BUILD:-$top/build}/host/bpfrr}
data=$top/tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$bpfrr" ] || { echo "1..0 # SKIP $bpfrr is not built"; exit 0; }

flags=(-std=gnu11 -O2 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -c)
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }

# compilers ARCH: "NAME COMMAND..." lines for the trace's arch
compilers() {
	case $1 in
	x86_64) echo "gcc gcc"; echo "clang clang-14" ;;
	arm64) echo "gcc aarch64-linux-gnu-gcc"
	       echo "clang clang-14 --target=aarch64-linux-gnu -isystem /usr/aarch64-linux-gnu/include" ;;
	esac
}

for trace in "$data"/traces/*.trace; do
	name=$(basename "$trace" .trace)
	arch=${name%%-*}
	for caps in stock-6.12 patched-6.12; do
		h=$tmp/$name.$caps.h
		"$bpfrr" translate --format header --assume-caps "$caps" --name loader -o "$h" "$trace" 2>"$tmp/err"
		rc=$?
		# what the header format cannot carry: a netlink attachment (iproute2's: the header's
		# runtime would not undo it on failure), a bpffs directory (xdp-loader's: libxdp's
		# pin directory, which the header's runtime does not make)
		refusal=
		case $name in
		*-iproute2-*) refusal='its netlink attachment:is a netlink attachment, which bpfrr replay detaches' ;;
		*-xdp-loader) refusal='the directory it would make:is the directory /sys/fs/bpf/xdp on a bpffs, which bpfrr replay makes' ;;
		esac
		if [ "$rc" != 0 ]; then
			if [ -n "$refusal" ]; then
				if [ "$rc" = 1 ] && grep -q "${refusal#*:}" "$tmp/err" && [ ! -e "$h" ]; then
					ok "$name $caps: refused, naming ${refusal%%:*}, no header written"
				else
					not_ok "$name $caps: not refused for ${refusal%%:*} (exit $rc)" "$(cat "$tmp/err")"
				fi
				continue
			fi
			not_ok "$name $caps: translate --format header failed" "$(cat "$tmp/err")"
			continue
		fi
		[ -z "$refusal" ] || { not_ok "$name $caps: a header was written despite ${refusal%%:*}"; continue; }
		ok "$name $caps: header written ($(wc -c <"$h") bytes)"
		while read -r cname cc; do
			# shellcheck disable=SC2086
			if $cc "${flags[@]}" -DHEADER="\"$h\"" -o "$tmp/o" "$top/tests/guest/header-loader.c" \
				>"$tmp/cc" 2>&1; then
				ok "$name $caps: compiles with $cname -Wall -Wextra -Werror ($(wc -c <"$tmp/o") bytes of object)"
			else
				not_ok "$name $caps: $cname refuses it" "$(head -n 20 "$tmp/cc")"
			fi
		done < <(compilers "$arch")

		# the loader sizes of the plan for the same caps
		"$bpfrr" replay --plan --assume-caps "$caps" "$trace" 2>&1 |
			sed -n 's/^segment [0-9]* loader: \([0-9]*\) insns, blob \([0-9]*\) bytes, user image \([0-9]*\) bytes, ctx \([0-9]*\) bytes.*/\1 \2 \3 \4/p' \
			>"$tmp/plan.sizes"
		sed -n 's/^ \* loader [0-9]*: .*), \([0-9]*\) insns, \([0-9]*\)-byte blob, \([0-9]*\)-byte user image, \([0-9]*\)-byte context$/\1 \2 \3 \4/p' \
			"$h" >"$tmp/header.sizes"
		if cmp -s "$tmp/plan.sizes" "$tmp/header.sizes"; then
			ok "$name $caps: $(wc -l <"$tmp/plan.sizes") loaders of the plan's sizes (insns blob user ctx: $(tr '\n' ' ' <"$tmp/plan.sizes"))"
		else
			not_ok "$name $caps: loader sizes differ from the plan's" "plan: $(tr '\n' ' ' <"$tmp/plan.sizes")" \
				"header: $(tr '\n' ' ' <"$tmp/header.sizes")"
		fi
	done
done

# two headers in one program: one runtime, two APIs
x=$data/traces/x86_64-fx_onemap.trace y=$data/traces/x86_64-fx_maps.trace
if "$bpfrr" translate --format header -o "$tmp/onemap.h" "$x" 2>"$tmp/err" &&
   "$bpfrr" translate --format header --assume-caps patched-6.12 --name maps_patched -o "$tmp/mp.h" "$y" 2>>"$tmp/err"; then
	cat >"$tmp/two.c" <<EOF
#include "$tmp/onemap.h"
#include "$tmp/mp.h"
int main(void)
{
	struct onemap a;
	struct maps_patched b;

	if (onemap__load(&a) || maps_patched__load(&b))
		return 1;
	onemap__destroy(&a);
	maps_patched__destroy(&b);
	return a.map_onemap + b.map_counts;
}
EOF
	if gcc "${flags[@]}" -o "$tmp/two.o" "$tmp/two.c" 2>"$tmp/cc"; then
		ok "two headers in one program (struct onemap from the file name, struct maps_patched from --name)"
	else
		not_ok "two headers in one program do not compile" "$(head -n 20 "$tmp/cc")"
	fi
else
	not_ok "two headers: translate failed" "$(cat "$tmp/err")"
fi

# bad usage
for args in "--format header --name 9lives" "--format header --assume-caps stock-5.4" \
	    "--assume-caps stock-6.12" "--format headers"; do
	# shellcheck disable=SC2086
	"$bpfrr" translate $args -o "$tmp/bad.h" "$x" >/dev/null 2>"$tmp/err"
	st=$?
	if [ $st -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
		ok "translate $args: exit 2: $(cat "$tmp/err")"
	else
		not_ok "translate $args: exit $st" "$(cat "$tmp/err")"
	fi
done

echo "1..$n"
[ $failed -eq 0 ]

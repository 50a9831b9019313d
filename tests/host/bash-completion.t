#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/host/bash-completion.t: cli/bpfrr.bash-completion, sourced in bash and
# asked as bash asks it (COMP_WORDS, COMP_CWORD): subcommands, options,
# option values (--format, --opens, --assume-caps, --cmd lists, --opt=value
# either way bash splits it), files, the command record runs. It cannot go
# stale: every option each subcommand's --help prints must be offered, and
# the --cmd names must be the ABI table's commands (lib/bpf_abi.h) and the
# syscalls `dump --cmd` names. `make install DESTDIR=...` puts it in place,
# `make uninstall` takes it away. No bpf() (TAP).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
bpfrr=${BPFRR:-$build/host/bpfrr}
script=${BPFRR_COMPLETION:-$top/cli/bpfrr.bash-completion}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$bpfrr" ] || { echo "1..0 # SKIP $bpfrr is not built"; exit 0; }

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }

# comp WORD...: the completions of the last word, one a line, sorted (a fresh bash each time)
comp() {
	bash -c 'source "$1" || exit 1; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
		_bpfrr
		printf "%s\n" "${COMPREPLY[@]}"' sh "$script" "$@" 2>"$tmp/comp.err" | sed '/^$/d' | sort -u
}
# expect DESC WANT WORD...: the completions are exactly WANT (words, any order)
expect() {
	desc=$1 want=$(printf '%s\n' $2 | sort -u)
	shift 2
	got=$(comp "$@")
	if [ "$got" = "$want" ] && [ ! -s "$tmp/comp.err" ]; then
		ok "$desc"
	else
		not_ok "$desc: got [$(echo $got)] want [$(echo $want)] $(cat "$tmp/comp.err")"
	fi
}
# offers DESC WORD... :: COMPLETION...: the completions include each COMPLETION
offers() {
	desc=$1
	shift
	words=()
	while [ "$1" != :: ]; do words+=("$1"); shift; done
	shift
	got=$(comp "${words[@]}")
	missing=
	for w in "$@"; do
		grep -qxF -- "$w" <<<"$got" || missing+=" $w"
	done
	if [ -z "$missing" ]; then ok "$desc"; else not_ok "$desc: missing$missing"; fi
}

bash -n "$script" && ok "the script parses" || not_ok "the script parses"
bash -c 'source "$1" && complete -p bpfrr' sh "$script" >"$tmp/out" 2>&1 &&
	grep -q -- '-F _bpfrr bpfrr' "$tmp/out" && ok "it registers _bpfrr for bpfrr" ||
	not_ok "it registers _bpfrr for bpfrr: $(cat "$tmp/out")"

# --- a few completions ------------------------------------------------------------------------
# the subcommands `bpfrr --help` lists
subs=$("$bpfrr" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p')
offers "every subcommand bpfrr --help lists ($(echo $subs)), --help, --version" bpfrr "" :: $subs --help --version
expect "subcommands starting with r" "record replay" bpfrr r
expect "dump --format values" "text json dot svg" bpfrr dump --format ""
expect "dump --format=d, split at the = (bash's default)" "dot" bpfrr dump --format = d
expect "dump --format=s, not split" "--format=svg" bpfrr dump --format=s
expect "record --opens values" "bpf all none" bpfrr record --opens ""
expect "translate --format values" "bundle header elf" bpfrr translate -o x.h --format ""
expect "translate --assume-caps values" "stock-6.12 patched-6.12" bpfrr translate --assume-caps ""
expect "replay --assume-caps values (none too)" "stock-6.12 patched-6.12 none" bpfrr replay --caps --assume-caps ""
expect "dump --cmd BPF_PROG_L" "BPF_PROG_LOAD" bpfrr dump --cmd BPF_PROG_L
expect "dump --cmd a list: the names after the last comma" "prog_load,map_create" bpfrr dump --cmd prog_load,map_c
expect "dump --cmd perf_: a syscall" "perf_event_open" bpfrr dump --cmd perf_
expect "a trace file" "$top/tests/data/traces/x86_64-opensnoop.trace" \
	bpfrr dump --json "$top/tests/data/traces/x86_64-o"
expect "diff: trace files" "$top/tests/data/traces/x86_64-opensnoop.trace" \
	bpfrr diff --json a.trace "$top/tests/data/traces/x86_64-o"
expect "dump: the *.trace files (not the README beside them)" "$top/tests/data/dot/x86_64-fx_tailcall.trace" \
	bpfrr dump "$top/tests/data/dot/"
expect "dump: any file when no *.trace matches" "$top/tests/data/dot/README.md" \
	bpfrr dump "$top/tests/data/dot/R"
expect "translate -o: a file" "$top/tests/data/traces/x86_64-opensnoop.trace" \
	bpfrr translate -o "$top/tests/data/traces/x86_64-o"
expect "an option's value is not mistaken for the file: dump --tid takes none" "" bpfrr dump --tid ""
offers "record: the command to run" bpfrr record -o t.trace tru :: true
offers "record --: the command to run" bpfrr record -- tru :: true
expect "record: the command's arguments are files" "$top/cli/bpfrr.bash-completion" \
	bpfrr record true "$top/cli/bpfrr.bash-"
offers "replay BUNDLE -- the command" bpfrr replay x.bundle -- tru :: true
offers "record -: its options and --" bpfrr record - :: --output --opens --

# --- every option --help prints is offered -------------------------------------------------------
# the options of a --help: the leading -x / --long words of the lines that start with one
help_opts() {
	"$bpfrr" "$1" --help | sed -n 's/^ *\(-.*\)/\1/p' | while read -r line; do
		for word in $line; do
			word=${word%,}
			case "$word" in
			--) break ;;
			-[a-zA-Z] | --[a-z]*) echo "$word" ;;
			*) break ;;
			esac
		done
	done | sed 's/=.*//' | sort -u
}
for sub in $subs; do
	case "$sub" in version | help) continue ;; esac
	want=$(help_opts "$sub")
	got=$(comp bpfrr "$sub" -)
	missing=
	for o in $want; do
		grep -qxF -- "$o" <<<"$got" || missing+=" $o"
	done
	if [ -z "$want" ]; then
		not_ok "$sub --help: no options found (the parse of --help is broken)"
	elif [ -z "$missing" ]; then
		ok "$sub: every option of --help is offered ($(echo $want | wc -w))"
	else
		not_ok "$sub: --help has options the completion lacks:$missing (cli/bpfrr.bash-completion)"
	fi
done

# --- the --cmd names are the ABI table's and the recorded syscalls' --------------------------------
sed -n 's/^[[:space:]]*X(\([A-Z0-9_]*\), [0-9]*).*/BPF_\1/p' "$top/lib/bpf_abi.h" | sort -u >"$tmp/abi"
comp bpfrr dump --cmd BPF_ >"$tmp/got"
if [ -s "$tmp/abi" ] && cmp -s "$tmp/abi" "$tmp/got"; then
	ok "--cmd BPF_: the $(wc -l <"$tmp/abi") commands of lib/bpf_abi.h"
else
	not_ok "--cmd BPF_ differs from lib/bpf_abi.h: $(diff "$tmp/abi" "$tmp/got" | grep '^[<>]' | tr '\n' ' ')"
fi
"$bpfrr" dump --cmd no_such_call x 2>&1 | sed -n 's/.*keeps (\(.*\))$/\1/p' | tr -d ' ' | tr ',' '\n' |
	sort -u >"$tmp/sys"
bash -c 'source "$1"; printf "%s\n" $_bpfrr_syscalls' sh "$script" | sort -u >"$tmp/got"
if [ -s "$tmp/sys" ] && cmp -s "$tmp/sys" "$tmp/got"; then
	ok "--cmd syscalls: the $(wc -l <"$tmp/sys") that dump --cmd names"
else
	not_ok "--cmd syscalls differ from dump's: $(diff "$tmp/sys" "$tmp/got" | grep '^[<>]' | tr '\n' ' ')"
fi

# --- make install / uninstall -----------------------------------------------------------------
if [ -f "$top/Makefile" ] && [ "$script" = "$top/cli/bpfrr.bash-completion" ]; then
	dest=$tmp/dest
	if make -s -C "$top" install DESTDIR="$dest" prefix=/usr >"$tmp/make" 2>&1 &&
		cmp -s "$script" "$dest/usr/share/bash-completion/completions/bpfrr"; then
		ok "make install DESTDIR=... prefix=/usr: \$(datadir)/bash-completion/completions/bpfrr"
	else
		not_ok "make install: $(tail -n3 "$tmp/make"; ls -R "$dest" 2>&1 | head -n5)"
	fi
	make -s -C "$top" uninstall DESTDIR="$dest" prefix=/usr >"$tmp/make" 2>&1
	if [ ! -e "$dest/usr/share/bash-completion/completions/bpfrr" ]; then
		ok "make uninstall removes it"
	else
		not_ok "make uninstall left it"
	fi
else
	n=$((n + 1))
	echo "ok $n - make install # SKIP no configured Makefile at $top"
fi

echo "1..$n"
[ "$failed" = 0 ]

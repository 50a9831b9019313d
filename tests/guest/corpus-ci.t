#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The CI subset of the corpus (issue 12 item 1): bench/guest/corpus.sh, the
# guest half of bench/corpus, on a fixed few loaders of bench/corpus.list:
# opensnoop (tracepoints; open(2) made by the trigger), runqlat (BTF-typed or
# raw tracepoints, scheduler events), biolatency (block I/O on a loop device),
# runqlen (a perf software event per CPU; needs FAIR_GROUP_SCHED in the
# kernel), ip-xdp (iproute2: a netlink attachment, ARP over a veth pair).
# Each row must be clean: loaded bare, recorded, its calls equal to strace's
# (or equal but for late map reads), translated, replayed with 0 mismatches,
# every program the replay attached ran, and on the patched kernels no call
# made from user space but the netlink request (ip-xdp: 1). About 30 s in a
# TCG guest (x86_64 patched: 31 s, 44 s with the boot).
. "$(dirname "$0")/fixtures-lib.sh"
root=${BPFRR_ROOT:-/opt/bpfrr}
corpus=$root/bench/guest/corpus.sh
list=$root/bench/corpus.list
subset="opensnoop runqlat biolatency runqlen ip-xdp"
[ -f "$corpus" ] && [ -f "$list" ] || { echo "no $corpus or $list in the image"; exit 1; }

sh "$corpus" "$PWD/out" "$list" $subset 2>corpus.err
rc=$?
[ "$rc" = 0 ] || fail "corpus.sh exited $rc: $(tail -n 3 corpus.err)"

patched=0
case "$(uname -r)" in *-bpfrr-patched* | *-bpfrr-debug*) patched=1 ;; esac
val() { sed -n "s/^$2 //p" "$1" | head -n 1; }
for n in $subset; do
	r=out/$n.res
	if [ "$(val "$r" done)" != 1 ]; then
		fail "$n: corpus.sh did not finish it"
		continue
	fi
	if [ "$(val "$r" bare)" != loaded ]; then
		fail "$n: does not load bare: $(val "$r" bare_why)"
		continue
	fi
	if [ "$(val "$r" record_rc)" != 0 ] && [ "$(val "$r" record_rc)" != 130 ]; then
		fail "$n: bpfrr record exited $(val "$r" record_rc): $(val "$r" record_why)"
		continue
	fi
	bad=
	case "$(val "$r" strace)" in
	equal | late) ;;
	*) bad="$bad; against strace: $(val "$r" strace) $(val "$r" strace_why)" ;;
	esac
	[ "$(val "$r" translate_rc)" = 0 ] || bad="$bad; bpfrr translate exited $(val "$r" translate_rc): $(val "$r" translate_why)"
	[ "$(val "$r" mismatches)" = 0 ] ||
		bad="$bad; replay --verify: '$(val "$r" mismatches)' mismatches, exit $(val "$r" replay_rc) $(val "$r" replay_why)"
	a=$(val "$r" attached) ran=$(val "$r" ran)
	[ -n "$a" ] && [ "$a" -gt 0 ] && [ "$ran" = "$a" ] ||
		bad="$bad; ran ${ran:-?} of ${a:-?} attached programs: not run: $(sed -n 's/^notran_name //p' "$r" | tr '\n' ' ')"
	want_user=0
	[ "$n" = ip-xdp ] && want_user=1
	[ "$patched" = 0 ] || [ "$(val "$r" user_calls)" = "$want_user" ] ||
		bad="$bad; $(val "$r" user_calls) calls from user space on the patched kernel, $want_user expected"
	if [ -n "$bad" ]; then
		fail "$n:${bad#;}"
	else
		pass "$n: loaded, recorded, strace $(val "$r" strace) ($(val "$r" calls) calls), $(val "$r" checks) checks 0 mismatches, ran $ran/$a, calls in kernel/user $(val "$r" kernel_calls)/$(val "$r" user_calls), $(val "$r" seconds) s"
	fi
done
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bench/guest/replay.sh: the guest half of bench/replay (busybox sh, run by
# qemu/run with the bench's directory as /share).
#
#   sh replay.sh DIR N [CAPS]
#
# DIR/cases holds one loader a line, "NAME|KIND|CMD" (KIND as in
# record-overhead.sh: "exit" or "ready"). For each: one untimed warm-up run,
# then `bpfrr record` (the trace: DIR/traces/NAME.trace), `bpfrr translate
# --explain` (DIR/NAME.explain, DIR/NAME.translate.err and .rc), one untimed
# `bpfrr replay --verify` (DIR/NAME.verify, .verify.rc), then N times, in turn,
# the original loader ("orig": timed with --ready, ready_us its first line,
# printed once loaded and attached; a fixture is not sent ^C but left to
# exit, total_us) and `bpfrr replay --hold BUNDLE` ("replay", its
# report in DIR/NAME.replay.REP; timed with --ready: ready_us is the time to
# its report's first line, printed once every object is loaded and attached,
# total_us to its exit after ^C, sent once the report's second line, its
# phase times, is out: the objects' teardown included). First of
# all, N runs of `bpfrr version` ("startup": what starting the static bpfrr
# binary costs in this guest). Last, with CAPS (stock or patched: the
# kernel), N runs in turn of fx_onemap's light skeleton ("lskel") and of the
# standalone loader `bpfrr translate --format header` made of the committed
# fx_onemap trace ("header": tests/guest/header/fx_onemap-CAPS), and the load
# and attach alone as each timed its own ("lskel_load", "header_load"). With CAPS
# patched, for each name in DIR/sign_cases whose trace was recorded: the
# bundle translated unsigned (planned at replay) and signed for this kernel
# (`--sign-key`, a throwaway key whose certificate goes into the session
# keyring: tests/guest/sign-lib.sh), one untimed `replay --verify` of the
# signed one (DIR/sign_NAME.verify), their sizes (DIR/sign_NAME.sizes), then N
# runs in turn of `bpfrr replay --hold` of each ("sign_NAME unsigned|signed",
# reports in DIR/sign_NAME.MODE.replay.REP). Appends
# "NAME MODE REP total_us=T ready_us=R sigint=I status=S rc=RC" to DIR/times.
dir=$1 n=$2 caps=${3:-} t_extra=
# signed runs name @s: a session keyring of this script's own (sign-lib.sh)
if [ "$caps" = patched ] && [ -s "$dir/sign_cases" ]; then
	. /opt/bpfrr/tests/guest/sign-lib.sh
	sign_session "$0" "$@"
fi
bench=/opt/bpfrr/bench/benchtime
bpfrr=/opt/bpfrr/bpfrr
work=${TMPDIR:-/tmp}/bench-replay.$$
mkdir -p "$work" "$dir/traces" || exit 1
: >"$dir/times"
cat /sys/devices/system/clocksource/clocksource0/current_clocksource >"$dir/clocksource" 2>/dev/null
uname -r >"$dir/guest-uname"

# timed NAME MODE REP KIND OUT CMD...: one run through benchtime (REP 0:
# untimed). sh has no local variables: these are t_*, apart from the loop's.
timed() {
	t_name=$1 t_mode=$2 t_rep=$3 t_ready= t_out=$5
	[ "$4" = ready ] && t_ready=--ready
	shift 5
	t_line=$("$bench" $t_ready $t_extra --limit 120 --out "$t_out" --err "$work/err" -- "$@")
	t_rc=$?
	[ "$t_rc" = 0 ] || cp "$work/err" "$dir/$t_name.$t_mode.err"
	[ "$t_rep" = 0 ] || echo "$t_name $t_mode $t_rep $t_line rc=$t_rc" >>"$dir/times"
	return $t_rc
}

timed startup bare 0 exit /dev/null "$bpfrr" version
rep=1
while [ "$rep" -le "$n" ]; do
	timed startup bare "$rep" exit /dev/null "$bpfrr" version
	rep=$((rep + 1))
done

while IFS='|' read -r name kind cmd; do
	[ -n "$name" ] || continue
	echo "replay: $name" >&2
	timed "$name" orig 0 "$kind" /dev/null $cmd
	if ! timed "$name" record 0 "$kind" /dev/null "$bpfrr" record -o "$dir/traces/$name.trace" -- $cmd; then
		echo 1 >"$dir/$name.record.rc"
		continue
	fi
	timeout -s KILL 120 "$bpfrr" translate --explain -o "$work/$name.bundle" "$dir/traces/$name.trace" \
		>"$dir/$name.explain" 2>"$dir/$name.translate.err"
	echo $? >"$dir/$name.translate.rc"
	[ -s "$work/$name.bundle" ] || continue
	timeout -s KILL 120 "$bpfrr" replay --verify "$work/$name.bundle" >"$dir/$name.verify" 2>&1
	echo $? >"$dir/$name.verify.rc"
	rep=1
	while [ "$rep" -le "$n" ]; do
		echo "replay: $name run $rep" >&2
		# a fixture: ready at its first line (it reports its objects once loaded and
		# attached), then left to run to its exit (no ^C: its teardown counts too)
		[ "$kind" = exit ] && t_extra="--int-after 1000000"
		timed "$name" orig "$rep" ready /dev/null $cmd
		t_extra=
		# ^C after the report's second line (its phase times), ready at the first
		t_extra="--int-after 2"
		timed "$name" replay "$rep" ready "$dir/$name.replay.$rep" "$bpfrr" replay --hold "$work/$name.bundle"
		t_extra=
		rep=$((rep + 1))
	done
	rm -f "$work/$name.bundle"
done <"$dir/cases"
header=/opt/bpfrr/tests/guest/header/fx_onemap-$caps
if [ -n "$caps" ] && [ -x "$header" ]; then
	echo "replay: header loader" >&2
	# output to /dev/null for both (/share is 9p: every write a round trip to the host)
	timed header_onemap lskel 0 exit /dev/null /opt/bpfrr/fixtures/fx_onemap_lskel
	timed header_onemap header 0 exit "$work/header.out" "$header"
	cp "$work/header.out" "$dir/header_onemap.out"
	# each also says how long its own load and attach took (load_us= on
	# stderr): the same comparison without the process's start and report
	export BPFRR_BENCH_LOAD_US=1
	rep=1
	while [ "$rep" -le "$n" ]; do
		for t_which in lskel header; do
			t_cmd=$header
			[ $t_which = lskel ] && t_cmd=/opt/bpfrr/fixtures/fx_onemap_lskel
			timed header_onemap $t_which "$rep" exit /dev/null "$t_cmd" || continue
			t_us=$(sed -n 's/^load_us=\([0-9]*\)$/\1/p' "$work/err")
			[ -n "$t_us" ] && echo "header_onemap ${t_which}_load $rep total_us=$t_us ready_us=0" \
				"sigint=0 status=exit=0 rc=0" >>"$dir/times"
		done
		rep=$((rep + 1))
	done
	unset BPFRR_BENCH_LOAD_US
fi
if [ "$caps" = patched ] && [ -s "$dir/sign_cases" ] && command -v keyctl >/dev/null &&
	sign_make_key "$work/key" && sign_add_key "$work/key" @s >/dev/null; then
	for name in $(cat "$dir/sign_cases"); do
		[ -s "$dir/traces/$name.trace" ] || continue
		echo "replay: $name signed" >&2
		u=$work/$name.unsigned.bundle s=$work/$name.signed.bundle
		"$bpfrr" translate -o "$u" "$dir/traces/$name.trace" 2>"$dir/sign_$name.err" &&
			sign_bundle "$dir/traces/$name.trace" "$s" "$work/key" ||
			{ cat "$s.err" >>"$dir/sign_$name.err"; continue; }
		timeout -s KILL 120 "$bpfrr" replay --verify "$s" >"$dir/sign_$name.verify" 2>&1
		echo $? >"$dir/sign_$name.verify.rc"
		echo "$(wc -c <"$u") $(wc -c <"$s")" >"$dir/sign_$name.sizes"
		rep=1
		while [ "$rep" -le "$n" ]; do
			for m in unsigned signed; do
				t_extra="--int-after 2"
				case $m in unsigned) b=$u ;; *) b=$s ;; esac
				timed "sign_$name" $m "$rep" ready "$dir/sign_$name.$m.replay.$rep" "$bpfrr" replay --hold "$b"
				t_extra=
			done
			rep=$((rep + 1))
		done
	done
fi
rm -rf "$work"
echo "replay: done" >&2

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bench/guest/scaling.sh: the guest half of bench/scaling (busybox sh, run by
# qemu/run with the bench's directory as /share).
#
#   sh scaling.sh DIR N COUNT...
#
# For each COUNT, an untimed warm-up run of fx_scale --count COUNT; then N
# rounds, each going through every COUNT in turn: the loader bare ("orig"),
# `bpfrr record` ("record": DIR/traces/COUNT.trace), `bpfrr translate`
# ("translate": the bundle; DIR/COUNT.explain from the last round), `bpfrr
# replay BUNDLE` ("replay": its report in DIR/COUNT.replay.ROUND) and `bpfrr
# replay --verify BUNDLE` ("verify": DIR/COUNT.verify.ROUND).  Appends
# "COUNT MODE ROUND total_us=T ready_us=R sigint=I status=S rc=RC" to
# DIR/times; a step that fails leaves its stderr in DIR/COUNT.MODE.err and
# the later steps of that COUNT in that round are skipped.  DIR/COUNT.sizes:
# "trace_bytes=T bundle_bytes=B".
dir=$1 n=$2
shift 2
bench=/opt/bpfrr/bench/benchtime
bpfrr=/opt/bpfrr/bpfrr
loader=/opt/bpfrr/fixtures/scale/fx_scale
work=${TMPDIR:-/tmp}/bench-scaling.$$
mkdir -p "$work" "$dir/traces" || exit 1
# 3N fds at once: fx_scale raises its own limit, bpfrr replay its soft limit up to
# the hard one; the hard limit (4096 by default) is raised here for every step, as
# root, so that N beyond 1300 measures the replay and not the limit
ulimit -n 65536 2>/dev/null || echo "scaling: cannot raise the fd limit: N above 1300 fails" >&2
ulimit -n >"$dir/nofile"
: >"$dir/times"
cat /sys/devices/system/clocksource/clocksource0/current_clocksource >"$dir/clocksource" 2>/dev/null
uname -r >"$dir/guest-uname"

# timed COUNT MODE ROUND OUT CMD...: one run through benchtime (ROUND 0: untimed)
timed() {
	t_count=$1 t_mode=$2 t_round=$3 t_out=$4
	shift 4
	t_line=$("$bench" --limit 600 --out "$t_out" --err "$work/err" -- "$@")
	t_rc=$?
	[ "$t_rc" = 0 ] || cp "$work/err" "$dir/$t_count.$t_mode.err"
	[ "$t_round" = 0 ] || echo "$t_count $t_mode $t_round $t_line rc=$t_rc" >>"$dir/times"
	return $t_rc
}

for c in "$@"; do
	timed "$c" orig 0 /dev/null "$loader" --count "$c"
done
round=1
while [ "$round" -le "$n" ]; do
	for c in "$@"; do
		echo "scaling: count $c round $round" >&2
		timed "$c" orig "$round" /dev/null "$loader" --count "$c"
		timed "$c" record "$round" /dev/null "$bpfrr" record -o "$dir/traces/$c.trace" -- \
			"$loader" --count "$c" || continue
		timed "$c" translate "$round" "$dir/$c.explain" "$bpfrr" translate --explain \
			-o "$work/$c.bundle" "$dir/traces/$c.trace" || continue
		echo "trace_bytes=$(wc -c <"$dir/traces/$c.trace") bundle_bytes=$(wc -c <"$work/$c.bundle")" \
			>"$dir/$c.sizes"
		timed "$c" replay "$round" "$dir/$c.replay.$round" "$bpfrr" replay "$work/$c.bundle" || continue
		timed "$c" verify "$round" "$dir/$c.verify.$round" "$bpfrr" replay --verify "$work/$c.bundle"
		rm -f "$work/$c.bundle"
	done
	round=$((round + 1))
done
rm -rf "$work"
echo "scaling: done" >&2

# SPDX-License-Identifier: GPL-2.0-only
# tests/portable/guest.sh: the guest half of tests/portable/matrix (busybox
# sh). The runner copies it into the share and boots a guest with
#
#   sh /share/guest.sh record TAG SECS LOADER...
#	record each LOADER on this kernel (TAG: ARCH-VARIANT) with
#	`bpfrr record`, each under a SECS timeout, into /share/traces/TAG/:
#	NAME.trace, NAME.rec.out and .err (the loader's and the recorder's
#	output), NAME.rec.status (the recorder's exit status); TAG.kernel
#	holds `uname -r`
#   sh /share/guest.sh replay TAG SECS FROM...
#	replay every bundle of /share/bundles/FROM/ (translated on the host
#	from FROM's traces) on this kernel, TAG, each with
#	`bpfrr replay --verify` under a SECS timeout while the replayed
#	programs are checked to run (tests/guest/translate-held.sh) and, for
#	fx_core, what its program read is checked against a process of this
#	kernel (tests/guest/portable-core-check); one line per bundle in
#	/share/results/FROM--TAG/NAME.result, its output in NAME.log:
#	  ok | mismatches N: FIELDS | load failed: LINE | not run: LINE |
#	  wrong values: LINE | timed out after SECS s
#   sh /share/guest.sh refuse TAG FILE...
#	bpfrr replay each FILE (a bundle or trace recorded on the other arch);
#	/share/refuse/TAG/NAME.{status,out,err}
#   sh /share/guest.sh held NAME MIN_RAN REPLAY_OUT WORK
#	(the command `bpfrr replay -- ...` runs while the objects are held)
#
# The loaders and how each is run (LOADER is a name of this list):
#   fx_*        the fixture loaders, plain run (load, attach, print, exit)
#   loadall     bpftool prog loadall of fixtures/fx_loadall.bpf.o, pinned
#               under /sys/fs/bpf/portable-loadall (the replay pins again)
#   opensnoop   opensnoop -d 1
#   execsnoop   timeout -s INT 3 execsnoop (10 s on the debug kernel: a SIGINT
#               before the tool has set its handler up kills it, status 130)
#   capable     timeout -s INT 3 capable (the same)
#   runqlat     runqlat 1 1
#   biolatency  biolatency 1 1

ROOT=${BPFRR_ROOT:-/opt/bpfrr}
BPFRR=$ROOT/bpfrr
FX=$ROOT/fixtures
HELD=$ROOT/tests/guest/translate-held.sh
CORE_CHECK=$ROOT/tests/guest/portable-core-check
LOADALL_PINS=/sys/fs/bpf/portable-loadall
PINS=/sys/fs/bpf/portable
# how long the tools stopped by SIGINT run: KASAN and lockdep make loading slow
case $(uname -r) in
*-debug*) STOP=10 ;;
*) STOP=3 ;;
esac

# loader_cmd NAME: the command line that runs it
loader_cmd() {
	case $1 in
	fx_*) echo "$FX/$1" ;;
	loadall) echo "bpftool prog loadall $FX/fx_loadall.bpf.o $LOADALL_PINS/progs pinmaps $LOADALL_PINS/maps" ;;
	opensnoop) echo "opensnoop -d 1" ;;
	execsnoop) echo "timeout -s INT $STOP execsnoop" ;;
	capable) echo "timeout -s INT $STOP capable" ;;
	runqlat) echo "runqlat 1 1" ;;
	biolatency) echo "biolatency 1 1" ;;
	*) return 1 ;;
	esac
}

# loader_min_ran NAME: how many of its linked programs must run
# (translate-held.sh's MIN_RAN): opensnoop's open(2) pair waits on x86_64 for
# a call no shell tool makes; loadall makes no link.
loader_min_ran() {
	case $1 in
	loadall) echo none ;;
	opensnoop) [ "$(uname -m)" = x86_64 ] && echo 2 || echo all ;;
	*) echo all ;;
	esac
}

# the bpffs directories a loader's recorded pins need (mkdir is not recorded)
make_pin_dirs() {
	[ "$1" = loadall ] && mkdir -p "$LOADALL_PINS/progs" "$LOADALL_PINS/maps"
	return 0
}

clear_pins() {
	rm -rf "$PINS" "$LOADALL_PINS" 2>/dev/null
	return 0
}

record() {
	tag=$1 secs=$2
	shift 2
	dir=/share/traces/$tag
	mkdir -p "$dir"
	uname -r >"$dir/$tag.kernel"
	for name in "$@"; do
		cmd=$(loader_cmd "$name") || { echo "unknown loader $name" >"$dir/$name.rec.err"; echo 2 >"$dir/$name.rec.status"; continue; }
		clear_pins
		make_pin_dirs "$name"
		start=$(date +%s)
		# shellcheck disable=SC2086 # the command line is split on purpose
		timeout -s KILL "$secs" "$BPFRR" record -o "$dir/$name.trace" -- $cmd \
			>"$dir/$name.rec.out" 2>"$dir/$name.rec.err" </dev/null
		rc=$?
		echo "$rc" >"$dir/$name.rec.status"
		echo "recorded $name on $tag: status $rc, $(($(date +%s) - start)) s"
	done
	clear_pins
}

# mismatch_fields REPLAY_OUT: the fields of the verify table's MISMATCH rows
mismatch_fields() {
	awk '$NF == "MISMATCH" { f = substr($0, 34, 14); gsub(/ /, "", f); n[f]++ }
	     END { s = ""; for (f in n) s = s (s == "" ? "" : ", ") f (n[f] > 1 ? " x" n[f] : ""); print s }' "$1"
}

replay_one() {
	bundle=$1 res=$2 secs=$3
	name=$(basename "$bundle" .bundle)
	work=/tmp/portable.$name
	rm -rf "$work"
	mkdir -p "$work"
	clear_pins
	make_pin_dirs "$name"
	pin=
	[ "$name" = fx_core ] && { mkdir -p "$PINS"; pin="--pin $PINS"; }
	# shellcheck disable=SC2086,SC2094 # $pin is split; the held check reads what replay wrote and flushed
	timeout -s KILL "$secs" "$BPFRR" replay --verify $pin "$bundle" -- \
		sh /share/guest.sh held "$name" "$(loader_min_ran "$name")" "$work/replay.out" "$work" \
		>"$work/replay.out" 2>"$work/replay.err" </dev/null
	rc=$?
	{
		echo "# bpfrr replay --verify $pin $bundle: status $rc"
		sed 's/^/    /' "$work/replay.out"
		sed 's/^/    stderr: /' "$work/replay.err"
	} >"$res/$name.log"
	mm=$(sed -n 's/^verify: [0-9]* checks, \([0-9]*\) mismatches.*/\1/p' "$work/replay.out")
	if [ "$rc" = 137 ]; then
		line="timed out after $secs s"
	elif [ -n "$mm" ] && [ "$mm" != 0 ]; then
		line="mismatches $mm: $(mismatch_fields "$work/replay.out")"
	elif [ ! -f "$work/held.status" ]; then
		first=$(grep -m1 . "$work/replay.err" | sed 's/^bpfrr replay: //')
		# and the kernel's verifier log's first line, where it printed one
		klog=$(sed -n "/^bpfrr replay: the kernel's log:/{n;p;q}" "$work/replay.err")
		line="load failed: ${first:-status $rc, no message}${klog:+ (kernel: $klog)}"
	elif [ -f "$work/core.status" ] && [ "$(cat "$work/core.status")" != 0 ]; then
		line="wrong values: $(sed 's/^fx_core values [a-z]*: //' "$work/core.out")"
	elif [ "$(cat "$work/held.status")" != 0 ]; then
		why=$(grep -m1 'held: FAIL\|did not run' "$work/replay.out" | sed 's/^held: //')
		line="not run: ${why:-translate-held.sh failed}"
	elif [ "$rc" != 0 ]; then
		line="failed: status $rc: $(grep -m1 . "$work/replay.err")"
	else
		line=ok
		[ -f "$work/core.out" ] && line="ok ($(sed 's/^fx_core values ok: //' "$work/core.out"))"
	fi
	echo "$line" >"$res/$name.result"
	echo "replayed $name: $line"
	clear_pins
	rm -rf "$work"
}

replay() {
	tag=$1 secs=$2
	shift 2
	uname -r >"/share/$tag.kernel"
	for from in "$@"; do
		res=/share/results/$from--$tag
		mkdir -p "$res"
		for b in /share/bundles/"$from"/*.bundle; do
			[ -f "$b" ] || continue
			echo "== $from -> $tag: $(basename "$b" .bundle)"
			replay_one "$b" "$res" "$secs"
		done
	done
}

# held NAME MIN_RAN REPLAY_OUT WORK: the objects are held; run the checks
held() {
	name=$1 min=$2 out=$3 work=$4
	sh "$HELD" "$name" "$out" "" "$min"
	echo $? >"$work/held.status"
	if [ "$name" = fx_core ]; then
		map=
		for m in "$PINS"/*bss*; do [ -e "$m" ] && { map=$m; break; }; done
		"$CORE_CHECK" "${map:-$PINS/fx_core_bss}" >"$work/core.out" 2>&1
		echo $? >"$work/core.status"
		echo "held: $(cat "$work/core.out")"
	fi
	[ "$(cat "$work/held.status")" = 0 ] && [ "$(cat "$work/core.status" 2>/dev/null || echo 0)" = 0 ]
}

refuse() {
	tag=$1
	shift
	dir=/share/refuse/$tag
	mkdir -p "$dir"
	for f in "$@"; do
		n=$(basename "$f")
		timeout -s KILL 60 "$BPFRR" replay "$f" >"$dir/$n.out" 2>"$dir/$n.err" </dev/null
		echo $? >"$dir/$n.status"
		echo "replayed $n (other arch): status $(cat "$dir/$n.status")"
		clear_pins
	done
}

cmd=$1
shift
case $cmd in
record | replay | held | refuse) "$cmd" "$@" ;;
*) echo "guest.sh: unknown command '$cmd'" >&2; exit 2 ;;
esac

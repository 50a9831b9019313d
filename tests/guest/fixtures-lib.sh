# SPDX-License-Identifier: GPL-2.0-only
# tests/guest/fixtures-lib.sh: helpers of the guest tests (sourced, busybox sh):
# fail/pass/finish, the fixture loaders, leak checks by id walk. The fixture
# loaders print "KIND key=value..." lines, one per BPF object they hold (see
# fixtures/common/fx_common.h).

FX=${BPFRR_ROOT:-/opt/bpfrr}/fixtures
failures=0

# fail MSG: record a failed check, keep going so one run reports them all.
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

pass() {
	echo "ok: $*"
}

# Leak checks by id walk (bpftool): take_max before, check_nothing_left NAME after.
# ids KIND: the ids of the kernel's programs / maps / links / BTF objects
ids() {
	bpftool "$1" show 2>/dev/null | sed -n 's/^\([0-9][0-9]*\): .*/\1/p'
}

# max_id KIND: the highest id of KIND, 0 if none
max_id() {
	ids "$1" | sort -n | tail -n 1 | grep . || echo 0
}

# newer_than KIND ID: how many objects of KIND have an id above ID
newer_than() {
	ids "$1" | awk -v max="$2" '$1 > max { n++ } END { print n + 0 }'
}

# take_max: remember the highest prog, map, link and BTF ids
take_max() {
	max_prog=$(max_id prog) max_map=$(max_id map) max_link=$(max_id link) max_btf=$(max_id btf)
}

# settle_left: $left is "PROGS MAPS LINKS BTF", how many objects of each are
# newer than take_max saw, once nothing more goes away. Maps leave the id table
# an RCU grace period after their program is freed: wait up to two seconds for
# "0 0 0 0". Returns 0 when nothing is left.
settle_left() {
	tries=0
	while :; do
		left="$(newer_than prog "$max_prog") $(newer_than map "$max_map") $(newer_than link "$max_link") $(newer_than btf "$max_btf")"
		[ "$left" = "0 0 0 0" ] && return 0
		tries=$((tries + 1))
		[ $tries -lt 20 ] || return 1
		sleep 0.1
	done
}

# check_nothing_left NAME: no prog, map, link or BTF newer than take_max saw.
check_nothing_left() {
	settle_left && pass "$1: no program, map, link or BTF left" ||
		fail "$1: objects left behind (progs maps links btf: $left)"
}

# finish: the test's exit status.
finish() {
	if [ "$failures" -ne 0 ]; then
		echo "$failures check(s) failed"
		exit 1
	fi
	exit 0
}

# Fixture loaders, and the objects each holds after loading: btf maps progs links.
FX_EXPECTED='
fx_maps 1 9 1 1
fx_globals 1 5 1 1
fx_tailcall 1 3 3 1
fx_core 1 2 1 1
fx_attach 1 2 3 3
fx_threads 4 8 4 4
fx_fork 1 2 1 1
fx_onemap 1 1 1 1
fx_onemap_lskel 0 1 1 1
fx_cgroup 1 1 2 1
fx_freplace 2 0 2 1
'

fx_loaders() {
	echo "$FX_EXPECTED" | awk 'NF == 5 { print $1 }'
}

# expected LOADER FIELD(2..5): one number of FX_EXPECTED.
expected() {
	echo "$FX_EXPECTED" | awk -v n="$1" -v f="$2" '$1 == n { print $f }'
}

# count_kind FILE KIND: lines describing objects of KIND.
count_kind() {
	grep -c "^$2 " "$1"
}

# ids_of FILE KIND: the id= values of KIND lines.
ids_of() {
	sed -n "s/^$2 .* id=\([0-9]*\).*/\1/p" "$1"
}

# check_report LOADER OUT: object lines as expected, each with a real id, and
# programs with a 16-hex-digit tag.
check_report() {
	loader=$1 out=$2 col=2
	for kind in btf map prog link; do
		want=$(expected "$loader" $col)
		got=$(count_kind "$out" $kind)
		[ "$got" = "$want" ] || fail "$loader printed $got '$kind' lines, expected $want"
		col=$((col + 1))
	done
	bad=$(grep -E '^(btf|map|prog|link) ' "$out" | grep -Ev ' id=[1-9][0-9]*( |$)')
	[ -z "$bad" ] || fail "$loader: object lines without an id: $bad"
	bad=$(grep '^prog ' "$out" | grep -Ev ' tag=[0-9a-f]{16} ')
	[ -z "$bad" ] || fail "$loader: program lines without a tag: $bad"
}

# object_exists KIND ID: is there a KIND (prog, map, link) with that id now?
object_exists() {
	bpftool "$1" show id "$2" >/dev/null 2>&1
}

# wait_gone KIND IDS...: true once none of the ids exists.  Maps are freed one
# RCU grace period after the programs using them, so allow a few seconds.
wait_gone() {
	kind=$1
	shift
	tries=0
	while [ $tries -lt 50 ]; do
		left=
		for id in "$@"; do
			object_exists "$kind" "$id" && left="$left $id"
		done
		[ -z "$left" ] && return 0
		sleep 0.1 2>/dev/null || sleep 1
		tries=$((tries + 1))
	done
	echo "still present: $kind$left"
	return 1
}

# all_exist KIND IDS...: every id exists now.
all_exist() {
	kind=$1
	shift
	for id in "$@"; do
		object_exists "$kind" "$id" || { echo "missing: $kind $id"; return 1; }
	done
	return 0
}

# run_loader OUT LOADER ARGS...: run it with stdout to OUT, stderr to OUT.err;
# returns its exit status.
run_loader() {
	out=$1
	shift
	"$FX/$@" >"$out" 2>"$out.err"
}

# show OUT: a loader's output, for the log.
show() {
	sed 's/^/    /' "$1"
	[ -s "$1.err" ] && sed 's/^/    stderr: /' "$1.err"
	return 0
}

require_fixtures() {
	for l in $(fx_loaders); do
		if [ ! -x "$FX/$l" ]; then
			echo "fixture loader $FX/$l is not in the image"
			exit 1
		fi
	done
	if [ ! -d /sys/fs/bpf ] || ! grep -q ' /sys/fs/bpf bpf ' /proc/mounts; then
		echo "bpffs is not mounted at /sys/fs/bpf"
		exit 1
	fi
	command -v bpftool >/dev/null || { echo "bpftool is not on PATH"; exit 1; }
}

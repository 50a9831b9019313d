# SPDX-License-Identifier: GPL-2.0-only
# tests/guest/translate-lib.sh: helpers of the translate-*.t guest tests
# (sourced, busybox sh): record a loader, let it exit, translate the trace,
# replay the bundle with --verify while tests/guest/translate-held.sh checks
# the replayed objects (tags as the original loader reported them, the
# programs run when their events happen), and say what ran where.

. "$(dirname "$0")/record-lib.sh"

HELD=$(cd "$(dirname "$0")" && pwd)/translate-held.sh

# translate_and_replay NAME OUT MIN_RAN CMD...: record CMD (its object lines
# in OUT), translate, replay, check (MIN_RAN: see translate-held.sh; "all",
# or "none" for a load without links). OUT may be empty (not a fixture
# loader). $tr_before_replay, if set, is eval'd between translation and replay.
# (record_cmd sets trace, out and rc: the variables here are tr_*)
translate_and_replay() {
	tr_name=$1 tr_out=$2 tr_min=$3
	shift 3
	record_cmd "$tr_name.trace" "$tr_name.rec.out" "$@"
	tr_rc=$?
	if [ "$tr_rc" != 0 ]; then
		fail "$tr_name: bpfrr record exited $tr_rc"
		show "$tr_name.rec.out"
		return 1
	fi
	[ -n "$tr_out" ] && cp "$tr_name.rec.out" "$tr_out"
	if ! "$BPFRR" translate --explain -o "$tr_name.bundle" "$tr_name.trace" >"$tr_name.explain" 2>"$tr_name.terr"; then
		fail "$tr_name: bpfrr translate failed: $(cat "$tr_name.terr")"
		return 1
	fi
	pass "$tr_name: translated: $(tail -n 1 "$tr_name.explain")"
	# what must go before the replay (the original's pins, say)
	[ -z "${tr_before_replay:-}" ] || eval "$tr_before_replay"
	replay_verified "$tr_name" sh "$HELD" "$tr_name" "$tr_name.replay" "$tr_out" "$tr_min" || return 1
	# on the patched kernel the loader program makes every call (issue 5), but
	# for $tr_patched_user calls (a light skeleton's syscall program run)
	user_steps_on_patched "$tr_name" "${tr_patched_user:-0}"
	sed -n 's/^held: /    /p' "$tr_name.replay"
	return 0
}

# translate_fixtures LOADER...: translate_and_replay each fixture loader (plain
# run: load, attach, print its objects, exit); every linked program must run.
translate_fixtures() {
	require_fixtures
	for l in "$@"; do
		translate_and_replay "$l" "$l.out" all "$FX/$l"
	done
}

# replay_verified NAME CMD...: bpfrr replay --verify NAME.bundle -- CMD... (run while
# the replay holds its objects), its report in NAME.replay; fails and returns 1 if the
# replay fails, fails if --verify finds a mismatch. (variables: rv_*)
replay_verified() {
	rv=$1
	shift
	"$BPFRR" replay --verify "$rv.bundle" -- "$@" >"$rv.replay" 2>"$rv.replay.err"
	rv_rc=$?
	if [ "$rv_rc" != 0 ]; then
		fail "$rv: bpfrr replay --verify exited $rv_rc"
		sed 's/^/    /' "$rv.replay" "$rv.replay.err"
		return 1
	fi
	grep -q '^verify: [0-9]* checks, 0 mismatches' "$rv.replay" || fail "$rv: the verify table has mismatches"
	pass "$rv: replayed and verified: $(sed -n 's/^replay: \([0-9]* calls: .*\) in user space.*/\1 in user space/p' "$rv.replay")"
}

# replay_held NAME: replay_verified NAME sh held.sh (the test's own checks); the test
# finishes if the replay fails, and on the patched kernels fails if any call stayed in
# user space. (variables: rh_*)
replay_held() {
	rh=$1
	replay_verified "$rh" sh held.sh || finish
	user_steps_on_patched "$rh" 0
}

# user_steps_on_patched NAME N: on the patched (and debug) kernels, NAME.replay's
# report says exactly N calls stayed in user space; nothing on stock.
user_steps_on_patched() {
	case "$(uname -r)" in
	*-bpfrr-patched* | *-bpfrr-debug*)
		if grep -q "^replay: [0-9]* calls: .*, $2 in user space" "$1.replay"; then
			[ "$2" = 0 ] && pass "$1: wholly in-kernel on the patched kernel" ||
				pass "$1: $2 call(s) in user space on the patched kernel, as expected"
		else
			fail "$1: user-space steps on the patched kernel: $(grep '^replay: ' "$1.replay")"
		fi
		;;
	esac
}

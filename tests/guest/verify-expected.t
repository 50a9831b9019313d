#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `bpfrr replay --verify-expected` on the recording's own build: for every
# program, the tag our own code expects for this kernel (lib/prog_tag.h over
# the instructions as replayed, their CO-RE records applied to this kernel's
# BTF by lib/core_reloc.h) must equal the recorded tag (the kernel computed
# it over what libbpf relocated) and the replayed one.  Where the translator
# hands CO-RE to the kernel (attr.core_relos, instructions restored to the
# compiler's), this checks our CO-RE calculator against libbpf's on real
# loaders: fx_core, runqlat, biolatency, opensnoop.  Each "CO-RE" line says
# how many programs' tags went through the calculator.
. "$(dirname "$0")/record-lib.sh"

# expect_tags NAME CMD...: record, translate, replay --verify-expected; every
# tag row: expected = recorded = replayed
expect_tags() {
	ex_name=$1
	shift
	record_cmd "$ex_name.trace" "$ex_name.rec.out" "$@"
	if [ "$rc" != 0 ]; then
		fail "$ex_name: bpfrr record exited $rc"
		show "$ex_name.rec.out"
		return 1
	fi
	if ! "$BPFRR" translate --explain -o "$ex_name.bundle" "$ex_name.trace" >"$ex_name.explain" 2>"$ex_name.terr"; then
		fail "$ex_name: bpfrr translate failed: $(cat "$ex_name.terr")"
		return 1
	fi
	"$BPFRR" replay --verify-expected "$ex_name.bundle" >"$ex_name.replay" 2>&1
	ex_rc=$?
	# slot object field recorded replayed verdict (expected for this kernel: TAG)
	counts=$(awk '$3 == "tag" {
		n++
		want = $NF; sub(/\)$/, "", want)
		if ($6 == "ok" && $4 == want && $5 == want && $(NF - 1) == "kernel:") good++
		else bad = bad " " $2 "(" $4 "/" $5 "/" want ")"
	} END { printf "%d %d%s", n, good, bad }' "$ex_name.replay")
	n=${counts%% *}
	rest=${counts#* }
	good=${rest%% *}
	if [ "$ex_rc" = 0 ] && [ "$n" -gt 0 ] && [ "$n" = "$good" ] &&
	   grep -q '^verify: the recording.s build, expected tags computed too' "$ex_name.replay"; then
		pass "$ex_name: $n program tags: expected = recorded = replayed"
	else
		fail "$ex_name: replay exited $ex_rc; $good of $n tags agree:${rest#"$good"}"
		sed 's/^/    /' "$ex_name.replay"
	fi
	# how many of those went through the CO-RE calculator (the translator's explanation)
	echo "# $ex_name: CO-RE: $(grep -c 'CO-RE: [0-9]* relocations from' "$ex_name.explain") programs' records re-done by the kernel and the calculator"
}

require_fixtures
expect_tags fx_core "$FX/fx_core"
for tool in runqlat biolatency opensnoop; do
	command -v $tool >/dev/null || fail "$tool is not in the image"
done
expect_tags runqlat runqlat 1 1
expect_tags biolatency biolatency 1 1
expect_tags opensnoop opensnoop -d 1
finish

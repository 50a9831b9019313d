#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `bpfrr replay --verify` compares what the loader wrote into its maps
# (issue 14 item 9): fx_globals (.rodata set by the loader and frozen, .data,
# .kconfig) and fx_tailcall (a prog array filled with the loader's programs,
# compared by program identity) replay with 0 mismatches and a "contents" row
# per map they wrote; the same fx_globals bundle with one bit of the .rodata
# constant `increment` changed where the loader's MAP_UPDATE_ELEM stores it
# (replay-ir poke; the bundle's CRCs recomputed) reports a mismatch naming
# the variable, and exits 1; the same change to `data_counter` in .data,
# which the program writes, is reported unchecked, exit 0.
. "$(dirname "$0")/record-lib.sh"
ir=$ROOT/tests/guest/replay-ir
require_fixtures

# record_translate NAME: record fixture NAME, translate it to NAME.bundle
record_translate() {
	record_cmd "$1.trace" "$1.rec.out" "$FX/$1" || { fail "$1: bpfrr record exited $rc"; show "$1.rec.out"; return 1; }
	"$BPFRR" translate -o "$1.bundle" "$1.trace" 2>"$1.terr" || { fail "$1: translate: $(cat "$1.terr")"; return 1; }
}

for l in fx_globals fx_tailcall; do
	record_translate $l || continue
	"$BPFRR" replay --verify $l.bundle >$l.replay 2>&1
	status=$?
	sed 's/^/    /' $l.replay
	rows=$(grep -c '^ *[0-9]* .* contents .* ok$' $l.replay)
	if [ $status -eq 0 ] && grep -q '^verify: [0-9]* checks, 0 mismatches' $l.replay && [ "$rows" -gt 0 ]; then
		pass "$l: 0 mismatches, $rows map contents compared"
	else
		fail "$l: replay --verify exited $status, $rows contents rows ok"
	fi
done
grep -q 'rodata  *contents  *1 entry, frozen  *same  *ok$' fx_globals.replay &&
	pass "fx_globals: the frozen .rodata compared" || fail "fx_globals: no ok contents row for .rodata"
grep -q 'jmp_table  *contents  *2 entries  *same  *ok$' fx_tailcall.replay &&
	pass "fx_tailcall: the prog array compared by program identity" || fail "fx_tailcall: no ok contents row for jmp_table"

# one bit of a .rodata constant changed in the bundle
if "$ir" poke fx_globals.bundle poked.bundle increment; then
	"$BPFRR" replay --verify poked.bundle >poked.replay 2>&1
	status=$?
	sed 's/^/    /' poked.replay
	if [ $status -eq 1 ] && grep -q '^verify: [0-9]* checks, 1 mismatches' poked.replay &&
	   grep -q 'rodata  *contents .*MISMATCH (at key \[0\], byte [0-9]*: increment+0)' poked.replay; then
		pass "a changed .rodata byte: 1 mismatch naming 'increment', exit 1"
	else
		fail "a changed .rodata byte: replay --verify exited $status without the mismatch"
	fi
	"$BPFRR" replay --verify --json poked.bundle >poked.json 2>/dev/null
	grep -q '"field":"contents","recorded":"[^"]*","replayed":"[^"]*","expected":null,"at":"key \[0\], byte [0-9]*: increment+0","verdict":"mismatch"' poked.json &&
		pass "--json: the mismatch row with its 'at'" || { fail "--json: no mismatch row"; cat poked.json; }
else
	fail "replay-ir poke fx_globals.bundle"
fi

# the same in .data, which the program writes: reported, but unchecked (no false mismatch)
if "$ir" poke fx_globals.bundle poked-data.bundle data_counter; then
	"$BPFRR" replay --verify poked-data.bundle >poked-data.replay 2>&1
	status=$?
	grep ' contents ' poked-data.replay | sed 's/^/    /'
	[ $status -eq 0 ] && grep -q '^verify: [0-9]* checks, 0 mismatches' poked-data.replay &&
	   grep -q 'data  *contents .*unchecked (at key \[0\], byte 0: data_counter+0; the programs can write this map)' poked-data.replay &&
		pass "a changed .data byte: unchecked (the program writes .data), exit 0" ||
		fail "a changed .data byte: replay --verify exited $status, no unchecked row"
else
	fail "replay-ir poke fx_globals.bundle data_counter"
fi
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The translator end to end on fixture loaders (see translate-lib.sh): each is
# recorded, translated after it exited, and replayed with `bpfrr replay
# --verify` (the replay's objects against the recorded identities: program
# tags, types, names, map sizes and flags, BTF sizes, link types and
# programs) while translate-held.sh checks that the original's program tags
# are loaded again and that the linked programs run.  Here: one map and a raw
# tracepoint; every map type with a perf buffer and map-in-map; global data.
# (The light skeleton of the one-map fixture, whose objects a syscall program
# makes inside the kernel, is translate-lskel.t's.)
. "$(dirname "$0")/translate-lib.sh"

translate_fixtures fx_onemap fx_maps fx_globals

# fx_maps again: with its feature probes kept, and only up to its program load
seq=$(sed -n 's/^ *\([0-9]*\)  BPF_PROG_LOAD  *kept: .*/\1/p' fx_maps.explain | head -n 1)
for opt in --keep-probes "--until $seq"; do
	if "$BPFRR" translate $opt -o variant.bundle fx_maps.trace >variant.terr 2>&1 &&
	   "$BPFRR" replay --verify variant.bundle >variant.replay 2>&1 &&
	   grep -q '^verify: [0-9]* checks, 0 mismatches' variant.replay; then
		pass "fx_maps translate $opt: $(sed -n 's/^replay: \([0-9]* calls\):.*/\1/p' variant.replay), verified"
	else
		fail "fx_maps translate $opt: replay failed"
		sed 's/^/    /' variant.terr variant.replay
	fi
done

finish

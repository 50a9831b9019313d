#!/bin/sh
# The translator end to end on fixture loaders (see translate-lib.sh): each is
# recorded, translated after it exited, and replayed with `bpfrr replay
# --verify` (the replay's objects against the recorded identities: program
# tags, types, names, map sizes and flags, BTF sizes, link types and
# programs) while translate-held.sh checks that the original's program tags
# are loaded again and that the linked programs run.  Here: one map and a raw
# tracepoint; every map type with a perf buffer and map-in-map; global data.
# And the light skeleton of the one-map fixture, whose objects a syscall
# program makes inside the kernel: the translator must refuse it, naming the
# call.
. "$(dirname "$0")/translate-lib.sh"

translate_fixtures fx_onemap fx_maps fx_globals

record_cmd lskel.trace lskel.out "$FX/fx_onemap_lskel"
"$BPFRR" translate -o lskel.bundle lskel.trace >lskel.terr 2>&1
rc=$?
if [ "$rc" = 1 ] && grep -q 'BPF_RAW_TRACEPOINT_OPEN cannot be translated: .* made outside the trace (perhaps by the syscall program run at seq' lskel.terr; then
	pass "fx_onemap_lskel: refused: $(head -n 1 lskel.terr)"
else
	fail "fx_onemap_lskel: translate exited $rc: $(cat lskel.terr)"
fi
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The translator end to end (see translate-fixtures-a.t) on a prog array
# filled by the loader (tail calls), kprobe + tracepoint + raw tracepoint
# attachments (perf_event_open with PMU types and tracepoint ids looked up by
# name at replay time), and CO-RE.
. "$(dirname "$0")/translate-lib.sh"

translate_fixtures fx_tailcall fx_attach fx_core

# CO-RE across builds (issue 11): the recorder captured the object fx_core
# embeds (its skeleton), and the translator handed the object's 7 CO-RE
# records to the kernel with the compiler's instructions; the replay above
# verified the recorded tag, so the kernel's CO-RE reproduced libbpf's.
if "$BPFRR" dump fx_core.trace | grep -q '^elf: .*/fx_core (embedded at 0x[0-9a-f]*): [0-9]* bytes'; then
	pass "fx_core: the recorder captured the object its skeleton embeds"
else
	fail "fx_core: no ELF record of the embedded object"
fi
if grep -q '; CO-RE: 7 relocations from .*/fx_core (embedded at 0x[0-9a-f]*) re-done by the target kernel$' \
	fx_core.explain; then
	pass "fx_core: its 7 CO-RE relocations are the target kernel's to do"
else
	fail "fx_core: the translation does not hand its CO-RE to the kernel"
	grep 'BPF_PROG_LOAD  *kept: ' fx_core.explain | sed 's/^/    /'
fi
finish

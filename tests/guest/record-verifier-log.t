#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Verifier logs in the audit (issue 16, item 5): fixtures/verifier/load_rejected
# loads two programs the verifier rejects, each with a log buffer, and makes a
# BPF_MAP_CREATE with BPF_COMMON_ATTRS (Linux 7.2: EINVAL here). Recorded, the
# log the kernel wrote is in the trace (read at exit, as long as log_true_size
# says), `bpfrr dump` prints it, `--summary` gives each failed load with the
# verifier's reason (text and JSON), `--json` has the log text, and the 5-argument
# call carries its struct bpf_common_attr.
. "$(dirname "$0")/record-lib.sh"

L=$FX/verifier/load_rejected
[ -x "$L" ] || { echo "$L is not in the image"; exit 1; }

record_cmd rej.trace rej.out "$L"
rc=$?
[ "$rc" = 0 ] || { fail "load_rejected under bpfrr record exited $rc"; show rej.out; }
grep -q '^load 1: Permission denied, log [1-9]' rej.out || fail "load 1 was not refused with a log: $(cat rej.out)"
grep -q '^load 2: Permission denied, log [1-9]' rej.out || fail "load 2 was not refused with a log: $(cat rej.out)"

# the logs are in the trace: an EXIT region of attr.log_buf per failed load
n=$(grep -c "^BPF_CALL .* cmd=BPF_PROG_LOAD .* ret=-13" rej.trace.txt)
[ "$n" -ge 2 ] || fail "$n failed BPF_PROG_LOADs in the trace, expected 2"

"$BPFRR" dump rej.trace >dump.txt 2>dump.err || fail "bpfrr dump: $(cat dump.err)"
grep -q "R1 invalid mem access 'scalar'" dump.txt || fail "dump shows no 'R1 invalid mem access' of load 1"
grep -q "invalid access to map value" dump.txt || fail "dump shows no 'invalid access to map value' of load 2"
grep -q "with BPF_COMMON_ATTRS" dump.txt || fail "dump does not show the 5-argument BPF_MAP_CREATE"
# its struct bpf_common_attr (4th argument, 24 bytes by the 5th) at entry and exit, decoded
[ "$(grep -c "inout: 24 bytes, common_attr" dump.txt)" = 2 ] ||
	fail "dump does not show the struct bpf_common_attr at entry and exit"
grep -A4 "entry inout: 24 bytes, common_attr" dump.txt | grep -q "log_size: 65536" ||
	fail "dump does not decode struct bpf_common_attr's log_size"

"$BPFRR" dump --summary rej.trace >sum.txt 2>sum.err || fail "bpfrr dump --summary: $(cat sum.err)"
grep -q "reason: R1 invalid mem access 'scalar'" sum.txt || { fail "--summary gives no reason for load 1"; show sum.txt; }
# the verifier says "invalid access to map value, value_size=8 off=8 size=8" and then, last,
# "R0 min value is outside of the allowed memory range" (6.12): the reason is the last line
reason2="reason: \(invalid access to map value\|R0 min value is outside of the allowed memory range\)"
grep -q "$reason2" sum.txt || { fail "--summary gives no reason for load 2"; show sum.txt; }

"$BPFRR" dump --summary --json rej.trace >sum.json 2>sum.err || fail "bpfrr dump --summary --json: $(cat sum.err)"
grep -q "\"reason\":\"R1 invalid mem access 'scalar'\"" sum.json || fail "--summary --json has no reason for load 1"
grep -q '"reason":"\(invalid access to map value\|R0 min value is outside of the allowed memory range\)' sum.json ||
	fail "--summary --json has no reason for load 2"

"$BPFRR" dump --json rej.trace >dump.json 2>dump.err || fail "bpfrr dump --json: $(cat dump.err)"
grep -q "R1 invalid mem access 'scalar'" dump.json || fail "--json has no log text of load 1"
grep -q '"common_attrs"' dump.json || fail "--json does not flag the 5-argument call"
grep -q '"path":"common_attr","phase":"entry","dir":"inout","content":"common_attr"' dump.json ||
	fail "--json has no common_attr buffer"

pass "two rejected loads with their verifier reasons, one 5-argument call"
finish

# SPDX-License-Identifier: GPL-2.0-only
# tests/guest/record-lib.sh: helpers of the record-*.t guest tests (sourced,
# busybox sh). Each test records a real loader with `bpfrr record` and checks
# the trace through record_tracecat, which prints one line per record.

# next to this file: the test's own directory, or the image's when a script
# elsewhere sources it (bench/guest/corpus.sh)
rl_dir=$(dirname "$0")
[ -f "$rl_dir/fixtures-lib.sh" ] || rl_dir=${BPFRR_ROOT:-/opt/bpfrr}/tests/guest
. "$rl_dir/fixtures-lib.sh"

ROOT=${BPFRR_ROOT:-/opt/bpfrr}
BPFRR=$ROOT/bpfrr
TRACECAT=$ROOT/tests/host/record_tracecat

# record_cmd TRACE OUT CMD...: bpfrr record CMD, stdout to OUT, stderr to
# OUT.err, the trace printed to TRACE.txt; returns the recorder's status.
record_cmd() {
	trace=$1 out=$2
	shift 2
	"$BPFRR" record -o "$trace" -- "$@" >"$out" 2>"$out.err"
	rc=$?
	if ! "$TRACECAT" "$trace" >"$trace.txt" 2>"$trace.err"; then
		fail "$trace does not read as a complete trace: $(cat "$trace.err")"
	fi
	return $rc
}

# check_identities LOADER OUT TRACE: every object the loader reports (from its
# own BPF_OBJ_GET_INFO_BY_FD) has an OBJECT record of the recorder with the
# same id, and programs the same tag.
check_identities() {
	loader=$1 out=$2 txt=$3.txt
	for kind in map prog btf link; do
		case $kind in
		map) k=1 ;; prog) k=2 ;; btf) k=3 ;; link) k=4 ;;
		esac
		for id in $(ids_of "$out" $kind); do
			grep -Eq "^OBJECT .* kind=$k flags=0 err=0 id=$id " "$txt" ||
				fail "$loader: $kind id $id has no OBJECT record in the trace"
		done
	done
	grep '^prog ' "$out" | sed -n 's/.* id=\([0-9]*\) tag=\([0-9a-f]*\).*/\1 \2/p' |
	while read -r id tag; do
		grep -Eq "^OBJECT .* kind=2 flags=0 err=0 id=$id type=[0-9]+ tag=$tag " "$txt" ||
			echo "$loader: prog id $id: no OBJECT record with tag $tag"
	done >"$txt.tags"
	[ -s "$txt.tags" ] && fail "$(cat "$txt.tags")"
	# every fd a successful bpf() call returned for an object got an identity
	bad=$(awk '
		/^FD op=new / && ($7 == "kind=1" || $7 == "kind=2" || $7 == "kind=3" || $7 == "kind=4") {
			want[substr($3, 5)] = 1 }
		/^OBJECT / && $7 == "err=0" { have[substr($2, 5)] = 1 }
		END { for (s in want) if (!(s in have)) printf "%s ", s }' "$txt")
	[ -z "$bad" ] || fail "$loader: object fds without an identity record, calls: $bad"
	return 0
}

# The comparison with strace (record-strace.t): both sides are reduced to one
# line per bpf()/perf_event_open call, in the order the calls returned:
#   CALL RESULT FIELD=VALUE...
# CALL is the bpf command (BPF_MAP_CREATE) or the syscall name; RESULT is "0",
# "fd" for any other non-negative value (fd numbers differ between runs) or
# the errno name; the fields are those strace decodes reliably, where the call
# has them (a field beyond the attr_size the call passed is absent on both
# sides). Flags are sorted, numbers in decimal, strings without quotes.
# perf_event_open: the perf_event_attr fields `strace -v` prints (bpfrr dump
# --json decodes the captured attr into the same C names), then its pid, cpu,
# group_fd and flags arguments as arg_pid=... (pid: -1, 0 or "task"; group_fd:
# -1 or "fd", as numbers differ between runs); the kprobe/uprobe PMU's config1
# is a pointer to the function name or path, compared as "ptr" (0 or not).
AGREE_FIELDS_AWK='
function sort_flags(v,    n, a, i, j, t, out) {
	n = split(v, a, "|")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	out = a[1]
	for (i = 2; i <= n; i++)
		out = out "|" a[i]
	return out
}
function result(ret, err) {
	if (err != "")
		return err
	return ret == 0 ? "0" : "fd"
}
function fields_of(call) {
	if (call == "BPF_MAP_CREATE")
		return "map_type key_size value_size max_entries map_flags map_name"
	if (call == "BPF_PROG_LOAD")
		return "prog_type insn_cnt prog_name expected_attach_type license"
	if (call == "BPF_BTF_LOAD")
		return "btf_size"
	if (call == "BPF_LINK_CREATE")
		return "attach_type"
	if (call == "perf_event_open")
		return "type size config sample_period sample_freq sample_type read_format " \
			"disabled inherit pinned exclusive exclude_user exclude_kernel exclude_hv " \
			"exclude_idle mmap comm freq inherit_stat enable_on_exec task watermark " \
			"precise_ip mmap_data sample_id_all exclude_host exclude_guest " \
			"exclude_callchain_kernel exclude_callchain_user mmap2 comm_exec use_clockid " \
			"context_switch write_backward namespaces ksymbol bpf_event aux_output cgroup " \
			"text_poke build_id wakeup_events wakeup_watermark bp_type bp_addr config1 " \
			"bp_len config2 branch_sample_type sample_regs_user sample_stack_user clockid " \
			"sample_regs_intr aux_watermark sample_max_stack aux_sample_size"
	return ""
}
# hex_to_dec("0x1f"): the decimal digits, exactly (awk numbers are doubles)
function hex_to_dec(h,    d, n, i, j, c, carry, out) {
	h = tolower(substr(h, 3))
	n = 1; d[1] = 0
	for (i = 1; i <= length(h); i++) {
		carry = index("0123456789abcdef", substr(h, i, 1)) - 1
		for (j = 1; j <= n; j++) {
			c = d[j] * 16 + carry
			d[j] = c % 10
			carry = int(c / 10)
		}
		while (carry) {
			d[++n] = carry % 10
			carry = int(carry / 10)
		}
	}
	out = ""
	for (j = n; j >= 1; j--)
		out = out d[j]
	return out
}
# perf_value(name, value, type): a perf_event_attr value in the common form
function perf_value(name, v, type,    nc, cn, ci) {
	sub(/ \/\*.*\*\/$/, "", v)
	if (v ~ /^0x[0-9a-fA-F]+$/)
		v = hex_to_dec(v)
	if (name == "size" && v ~ /^PERF_ATTR_SIZE_VER[0-9]$/)
		v = substr("64 72 80 96 104112120128136", 3 * substr(v, 19) + 1, 3) + 0
	if (name == "clockid" && v ~ /^CLOCK_/) {
		nc = split("CLOCK_REALTIME CLOCK_MONOTONIC CLOCK_PROCESS_CPUTIME_ID CLOCK_THREAD_CPUTIME_ID " \
			   "CLOCK_MONOTONIC_RAW CLOCK_REALTIME_COARSE CLOCK_MONOTONIC_COARSE CLOCK_BOOTTIME " \
			   "CLOCK_REALTIME_ALARM CLOCK_BOOTTIME_ALARM", cn, " ")
		for (ci = 1; ci <= nc; ci++)
			if (cn[ci] == v)
				v = ci - 1
	}
	# the kprobe/uprobe PMUs (dynamic types): config1 points to a name
	if (name == "config1" && type !~ /^PERF_TYPE_/ && type != 5)
		v = v == "0" ? "0" : "ptr"
	return sort_flags(v)
}
# perf_shown(name, got, type): whether strace prints that attr field, given
# the fields before it (got) and the type; bpfrr dump shows every field
function perf_shown(name, got, type) {
	if (name == "branch_sample_type")
		return got["sample_type"] ~ /PERF_SAMPLE_BRANCH_STACK/
	if (name == "sample_stack_user")
		return got["sample_type"] ~ /PERF_SAMPLE_STACK_USER/
	if (name == "clockid")
		return got["use_clockid"] == 1
	if (name == "bp_type")
		return type == "PERF_TYPE_BREAKPOINT"
	return 1
}
# perf_args(pid, cpu, group_fd, flags): the arguments after the attr
function perf_args(pid, cpu, gfd, flags) {
	if (pid + 0 > 0)
		pid = "task"
	if (gfd + 0 >= 0)
		gfd = "fd"
	return " arg_pid=" pid " arg_cpu=" cpu " arg_group_fd=" gfd " arg_flags=" sort_flags(flags)
}
'

# strace_calls FILE: the calls of `strace -f -e trace=bpf,perf_event_open -o FILE`.
strace_calls() {
	awk "$AGREE_FIELDS_AWK"'
	# a call another task interrupted: strace prints it in two pieces
	/ <unfinished \.\.\.>$/ {
		pending[$1] = $0
		sub(/ <unfinished \.\.\.>$/, "", pending[$1])
		next
	}
	/^[0-9]+ +<\.\.\. [a-z_]+ resumed>/ {
		rest = $0
		sub(/^[0-9]+ +<\.\.\. [a-z_]+ resumed>/, "", rest)
		$0 = pending[$1] rest
		delete pending[$1]
	}
	!/^[0-9]+ +(bpf|perf_event_open)\(/ { next }
	{
		line = $0
		sub(/^[0-9]+ +/, "", line)
		call = substr(line, 1, index(line, "(") - 1)
		if (call == "bpf") {
			call = substr(line, 5)
			sub(/,.*/, "", call)
		}
		if (!match(line, / = -?[0-9]+( E[A-Z0-9]+ \(.*\))?$/)) {
			print "unparsed strace line: " $0
			next
		}
		tail = substr(line, RSTART + 3)
		ret = tail; sub(/ .*/, "", ret)
		err = ""
		if (tail ~ / E[A-Z0-9]+ /) {
			err = tail; sub(/^[^ ]* /, "", err); sub(/ .*/, "", err)
		}
		out = call " " result(ret + 0, err)
		if (call == "perf_event_open") {
			# perf_event_open({FIELDS}, pid, cpu, group_fd, flags) = ...
			st = substr(line, index(line, "{") + 1)
			rest = substr(st, index(st, "}") + 1)
			st = substr(st, 1, index(st, "}") - 1)
			sub(/\) = .*/, "", rest)
			sub(/^, /, "", rest)
			split(rest, a, ", ")
			split(st, kv, ", ")
			split("", pv)
			for (k in kv) {
				e = index(kv[k], "=")
				if (e)
					pv[substr(kv[k], 1, e - 1)] = substr(kv[k], e + 1)
			}
			type = pv["type"]; sub(/ \/\*.*/, "", type)
			if (type ~ /^0x/)
				type = hex_to_dec(type)
			n = split(fields_of(call), want, " ")
			split("", got)
			for (i = 1; i <= n; i++) {
				if (!(want[i] in pv) || !perf_shown(want[i], got, type))
					continue
				got[want[i]] = perf_value(want[i], pv[want[i]], type)
				out = out " " want[i] "=" got[want[i]]
			}
			print out perf_args(a[1], a[2], a[3], a[4])
			next
		}
		n = split(fields_of(call), want, " ")
		for (i = 1; i <= n; i++) {
			if (!match(line, "[{ ]" want[i] "=[^,}]*"))
				continue
			v = substr(line, RSTART + 1, RLENGTH - 1)
			sub(/^[a-z_]+=/, "", v)
			gsub(/"/, "", v)
			# a value without a name: "0x2b /* BPF_??? */"
			if (v ~ /^(0x[0-9a-f]+|[0-9]+) \/\*/) {
				sub(/ .*/, "", v)
				if (v ~ /^0x/) {
					h = substr(v, 3); v = 0
					for (k = 1; k <= length(h); k++)
						v = v * 16 + index("0123456789abcdef", substr(h, k, 1)) - 1
				}
			}
			out = out " " want[i] "=" sort_flags(v)
		}
		print out
	}' "$1"
}

# dump_calls FILE: the same from `bpfrr dump --json` (docs/dump-json.md).
dump_calls() {
	awk "$AGREE_FIELDS_AWK"'
	function str(key,    v) {
		if (!match($0, "\"" key "\":(\"[^\"]*\"|null|-?[0-9]+)"))
			return ""
		v = substr($0, RSTART + length(key) + 3, RLENGTH - length(key) - 3)
		gsub(/"/, "", v)
		return v
	}
	{
		sc = str("syscall")
		if (sc != "bpf" && sc != "perf_event_open")
			next
		call = sc == "bpf" ? str("cmd") : sc
		if (call == "null")
			call = "cmd_" str("cmd_nr")
		ret = str("ret"); err = str("errno")
		if (ret == "null") {
			print call " never_returned"
			next
		}
		out = call " " result(ret + 0, err == "null" ? "" : err)
		if (call == "perf_event_open") {
			f = ""
			if ((a = index($0, "\"path\":\"perf_event_attr\"")) > 0 &&
			    (e = index(substr($0, a), "\"fields\":{")) > 0) {
				f = substr($0, a + e - 1 + 10)
				f = substr(f, 1, index(f, "}") - 1)
			}
			type = ""
			if (match(f, "\"type\":(\"[^\"]*\"|[0-9]+)")) {
				type = substr(f, RSTART + 7, RLENGTH - 7)
				gsub(/"/, "", type)
			}
			n = split(fields_of(call), want, " ")
			split("", got)
			for (i = 1; i <= n; i++) {
				if (!match(f, "(^|,)\"" want[i] "\":(\"[^\"]*\"|-?[0-9]+)") ||
				    !perf_shown(want[i], got, type))
					continue
				v = substr(f, RSTART, RLENGTH)
				sub(/^,/, "", v)
				v = substr(v, length(want[i]) + 4)
				gsub(/"/, "", v)
				got[want[i]] = perf_value(want[i], v, type)
				out = out " " want[i] "=" got[want[i]]
			}
			p = ""
			if ((a = index($0, "\"params\":{")) > 0) {
				p = substr($0, a + 10)
				p = substr(p, 1, index(p, "}") - 1)
			}
			split("pid cpu group_fd flags", pn, " ")
			for (i = 1; i <= 4; i++) {
				pval[i] = ""
				if (match(p, "\"" pn[i] "\":(\"[^\"]*\"|-?[0-9]+)")) {
					pval[i] = substr(p, RSTART + length(pn[i]) + 3, RLENGTH - length(pn[i]) - 3)
					gsub(/"/, "", pval[i])
				}
			}
			print out perf_args(pval[1], pval[2], pval[3], pval[4])
			next
		}
		# the attr object, before the keys that repeat its field names
		attr = ""
		if ((a = index($0, "\"attr\":{")) > 0) {
			attr = substr($0, a)
			if ((e = index(attr, ",\"attr_out\":")) > 0 || (e = index(attr, ",\"fds\":")) > 0)
				attr = substr(attr, 1, e)
		}
		n = split(fields_of(call), want, " ")
		for (i = 1; i <= n; i++) {
			if (want[i] == "license") {
				# the attr holds the pointer, the string is in its buffer
				if (!match($0, "\"path\":\"attr\\.license\"[^}]*\"text\":\"[^\"]*\""))
					continue
				v = substr($0, RSTART, RLENGTH)
				sub(/.*"text":"/, "", v)
				sub(/"$/, "", v)
			} else {
				if (!match(attr, "\"" want[i] "\":(\"[^\"]*\"|-?[0-9]+)"))
					continue
				v = substr(attr, RSTART + length(want[i]) + 3, RLENGTH - length(want[i]) - 3)
				gsub(/"/, "", v)
			}
			out = out " " want[i] "=" sort_flags(v)
		}
		print out
	}' "$1"
}

# without_late_reads CALLS: CALLS without the map reads made after the last
# attachment (perf_event_open, BPF_LINK_CREATE, BPF_RAW_TRACEPOINT_OPEN,
# BPF_PROG_ATTACH), whose number depends on what the programs saw.
without_late_reads() {
	awk '
	{ line[NR] = $0 }
	/^(perf_event_open|BPF_LINK_CREATE|BPF_RAW_TRACEPOINT_OPEN|BPF_PROG_ATTACH) / { last = NR }
	END {
		for (i = 1; i <= NR; i++)
			if (i <= last || line[i] !~ /^BPF_MAP_(GET_NEXT_KEY|LOOKUP_ELEM|DELETE_ELEM|LOOKUP_BATCH|LOOKUP_AND_DELETE_BATCH) /)
				print line[i]
	}' "$1"
}

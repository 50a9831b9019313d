# tests/guest/record-lib.sh: helpers of the record-*.t guest tests (sourced,
# busybox sh). Each test records a real loader with `bpfrr record` and checks
# the trace through record_tracecat, which prints one line per record.

. "$(dirname "$0")/fixtures-lib.sh"

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
	return ""
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

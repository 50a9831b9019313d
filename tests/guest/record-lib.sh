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

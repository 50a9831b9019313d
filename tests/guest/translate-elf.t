#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bpfrr translate --format elf end to end: loaders are recorded here, their
# traces translated into BPF objects, and the objects loaded and run by
# Debian's unmodified bpftool (bpftool prog load OUT PIN, bpftool prog run
# pinned PIN repeat 0: BPF_PROG_TEST_RUN of a syscall program takes no data,
# no ctx_out and no repeat, and this bpftool asks for ctx_out whenever it
# passes a ctx, so the loader keeps its context in its blob map). bpftool
# prints the loader's return value: 0, or the -errno of the failing call as
# an unsigned number; the loader's report (err, failed_seq) is read from
# the blob map.
#  - bpftool prog loadall of a fixture object (patched kernel: its OBJ_PIN
#    calls are made by the loader): the pins come back at the recorded paths,
#    with the recorded program tags and types and map definitions; a second
#    run fails with EEXIST on the first pin (the report names its seq) and
#    leaves no object behind;
#  - fx_onemap (a raw tracepoint): loads and runs (its objects die with
#    bpftool's fds: the return value and the fds in the report, read while
#    the loader is pinned, say they were made); translated with --pin, the
#    loader pins them: they outlive bpftool, the program has the original's
#    tag and runs;
#  - elf-perf-loader (a CPU-clock perf event stored in a perf event array,
#    opened by the bpf_perf_event_open kfunc the object declares as an
#    extern: libbpf resolves it);
#  - on the stock kernel each is refused at translate time with the call a
#    loader cannot make there, and the object planned for the patched kernel
#    fails to run (onemap: -EFAULT) or to load (no bpf_perf_event_open);
#  - elf-perf-loader array (an array map and an update): planned for the
#    kernel at hand, it runs on both.
. "$(dirname "$0")/record-lib.sh"

patched=false
case "$(uname -r)" in
*-bpfrr-patched* | *-bpfrr-debug*) patched=true ;;
esac
require_fixtures
command -v bpftool >/dev/null || fail "bpftool is not in the image"

# record NAME CMD...: record CMD into NAME.trace
record() {
	rec_name=$1
	shift
	record_cmd "$rec_name.trace" "$rec_name.rec.out" "$@"
	rec_rc=$?
	if [ "$rec_rc" != 0 ]; then
		fail "$rec_name: bpfrr record exited $rec_rc"
		show "$rec_name.rec.out"
		return 1
	fi
	return 0
}

# translate_elf NAME [ARGS...]: NAME.trace -> NAME.bpf.o (+ .ctx), the
# translator's line in NAME.tr, its errors in NAME.tr.err; its status.
translate_elf() {
	te_name=$1
	shift
	"$BPFRR" translate --format elf "$@" -o "$te_name.bpf.o" "$te_name.trace" >"$te_name.tr" 2>"$te_name.tr.err"
}

# report_of PIN NBYTES: the first NBYTES of the loader's blob map (its
# context: err, failed_seq, user_base, one fd per slot) as signed u32s
# (bpftool -j map lookup prints the value as "0x.." bytes)
report_of() {
	ro_map=$(bpftool prog show pinned "$1" | sed -n 's/.*map_ids \([0-9]*\).*/\1/p')
	[ -n "$ro_map" ] || return 1
	bpftool -j map lookup id "$ro_map" key 0 0 0 0 2>/dev/null |
		sed -n 's/.*"value":\["\([^]]*\)\].*/\1/p' | tr -d '"' | tr ',' '\n' | head -n "$2" |
		awk '{ b[NR] = (index("0123456789abcdef", substr($0, 3, 1)) - 1) * 16 +
			      index("0123456789abcdef", substr($0, 4, 1)) - 1 }
		     END { if (NR < 16) exit 1
			   for (i = 1; i + 3 <= NR; i += 4) {
				v = b[i] + 256 * (b[i + 1] + 256 * (b[i + 2] + 256 * b[i + 3]))
				if (b[i + 3] >= 128) v -= 4294967296
				printf "%s%d", (i > 1 ? " " : ""), v
			   }
			   printf "\n" }'
}

# elf_run NAME: bpftool loads NAME.bpf.o (pinned while it runs) and runs it;
# sets elf_ret to the printed return value, elf_report to "ERR FAILED_SEQ"
# of the loader's report and elf_fds to the fds of its slots.
elf_run() {
	er_pin=/sys/fs/bpf/elf_$1
	elf_ret= elf_report= elf_fds=
	rm -f "$er_pin"
	if ! bpftool prog load "$1.bpf.o" "$er_pin" >"$1.load" 2>&1; then
		fail "$1: bpftool prog load $1.bpf.o failed: $(tail -n 5 "$1.load")"
		return 1
	fi
	bpftool prog show pinned "$er_pin" >"$1.show" 2>&1
	grep -q ': syscall  name bpfrr_loader ' "$1.show" ||
		fail "$1: the loaded program is not a syscall program named bpfrr_loader: $(head -n 1 "$1.show")"
	if ! bpftool prog run pinned "$er_pin" repeat 0 >"$1.run" 2>&1; then
		fail "$1: bpftool prog run failed: $(cat "$1.run")"
		rm -f "$er_pin"
		return 1
	fi
	elf_ret=$(sed -n 's/^Return value: \([0-9]*\),.*/\1/p' "$1.run")
	[ -n "$elf_ret" ] || fail "$1: bpftool prog run printed no return value: $(cat "$1.run")"
	er_size=$(sed -n "s/.*its first \([0-9]*\) bytes the loader's report.*/\1/p" "$1.tr")
	if er_ctx=$(report_of "$er_pin" "$er_size"); then
		elf_report=$(echo "$er_ctx" | cut -d' ' -f1-2)
		elf_fds=$(echo "$er_ctx" | cut -d' ' -f5-)
	else
		fail "$1: no report in the blob map"
	fi
	rm -f "$er_pin"
	return 0
}

# ran_ok [NAME]: the run succeeded: return value 0, err 0, every slot an fd but
# the directory slots NAME.explain lists (a mkdir on a bpffs: no fd in the object)
ran_ok() {
	[ "$elf_ret" = 0 ] && [ "$elf_report" = "0 0" ] && [ -n "$elf_fds" ] || return 1
	ro_dirs=0
	[ -z "${1:-}" ] || ro_dirs=$(grep -c '^ *[0-9]*  mkdir[at]*  *path slot ' "$1.explain")
	for fd in $elf_fds; do
		[ "$fd" -ge 0 ] || [ "$ro_dirs" -gt 0 ] || return 1
		[ "$fd" -ge 0 ] || ro_dirs=$((ro_dirs - 1))
	done
	return 0
}

# ids KIND: every id of KIND (prog, map) the kernel has now
ids() { bpftool "$1" show 2>/dev/null | sed -n 's/^\([0-9]*\): .*/\1/p' | sort -n | tr '\n' ' '; }

# new_ids BEFORE AFTER: the ids in AFTER that BEFORE does not have
new_ids() {
	for id in $2; do
		case " $1 " in *" $id "*) ;; *) printf '%s ' "$id" ;; esac
	done
}

# describe_pins DIR: per pin, what the recording must agree on (ids aside)
describe_pins() {
	for p in $(find "$1" -mindepth 2 | sort); do
		case $p in
		*/progs/*) bpftool prog show pinned "$p" | head -n 1 | sed 's/^[0-9]*: /prog /; s/  loaded_at.*//' ;;
		*/maps/*) bpftool map show pinned "$p" | head -n 2 | tr '\n\t' '  ' | sed 's/^[0-9]*: /map /; s/  memlock.*//' ;;
		esac | sed "s|^|$p |"
	done
}

# --- bpftool prog loadall: the pins as a witness ----------------------------------------
pins=/sys/fs/bpf/translate-elf
mkdir -p "$pins"
rm -rf "${pins:?}"/*
if record loadall bpftool prog loadall "$FX/fx_loadall.bpf.o" "$pins/progs" pinmaps "$pins/maps"; then
	describe_pins "$pins" >loadall.pins
	[ -s loadall.pins ] || fail "loadall: bpftool pinned nothing"
	# the pins go (not the directories bpftool made: a loader program cannot make
	# them, so the elf object does not, see docs/translator.md)
	rm -f "$pins"/*/*
	if $patched; then
		if translate_elf loadall --explain; then
			pass "loadall: $(grep '^wrote ' loadall.tr | head -n 1)"
			grep -v '^wrote ' loadall.tr >loadall.explain
			before_progs=$(ids prog)
			if elf_run loadall; then
				if ran_ok loadall; then
					pass "loadall: bpftool prog run: return value 0, report err 0, fds $elf_fds"
				else
					fail "loadall: bpftool prog run: return value $elf_ret, report '$elf_report', fds '$elf_fds'"
				fi
				describe_pins "$pins" >loadall.repins
				if cmp -s loadall.pins loadall.repins; then
					pass "loadall: the loader pinned the $(wc -l <loadall.pins) programs and maps bpftool had pinned, same tags, types and definitions"
				else
					fail "loadall: pins differ (--- bpftool's, +++ the elf loader's):"
					diff loadall.pins loadall.repins | sed 's/^/    /'
				fi
				[ -n "$(new_ids "$before_progs" "$(ids prog)")" ] ||
					fail "loadall: no new program in the kernel after the loader ran"
				# again: the first pin exists, EEXIST (17) comes back, the loader closes
				# what it made (the objects, and bpftool's loader program and blob map
				# once unpinned, are freed: wait for them)
				mid_progs=$(ids prog) mid_maps=$(ids map)
				if elf_run loadall; then
					first_pin=$(awk '$2 == "BPF_OBJ_PIN" && $3 == "kept:" { print $1; exit }' loadall.explain)
					if [ "$elf_ret" = $((4294967296 - 17)) ] && [ "$elf_report" = "-17 $first_pin" ]; then
						pass "loadall: run again, the loader returns -EEXIST ($elf_ret), its report: err -17 at seq $first_pin, the first BPF_OBJ_PIN"
					else
						fail "loadall: run again: return value $elf_ret, report '$elf_report', not -EEXIST at seq $first_pin"
					fi
					left_progs=$(new_ids "$mid_progs" "$(ids prog)")
					left_maps=$(new_ids "$mid_maps" "$(ids map)")
					# shellcheck disable=SC2086
					if wait_gone prog $left_progs && wait_gone map $left_maps; then
						pass "loadall: and leaves no program or map behind"
					else
						fail "loadall: objects left by the failed run"
					fi
					describe_pins "$pins" >loadall.repins2
					cmp -s loadall.repins loadall.repins2 ||
						fail "loadall: the failed run changed the pins"
				fi
			fi
		else
			fail "loadall: bpfrr translate --format elf failed: $(cat loadall.tr.err)"
		fi
	else
		translate_elf loadall --assume-caps stock-6.12
		rc=$?
		if [ "$rc" = 1 ] && grep -Eq '^bpfrr translate: seq [0-9]+ [A-Za-z_()]+: .* \(stock-6\.12\); the elf format needs every call in the loader: try --assume-caps patched-6\.12$' loadall.tr.err; then
			pass "loadall: refused on stock 6.12: $(sed 's/^bpfrr translate: //' loadall.tr.err)"
		else
			fail "loadall: --assume-caps stock-6.12: exit $rc, $(cat loadall.tr.err)"
		fi
	fi
	rm -rf "${pins:?}"/*
fi

# --- fx_onemap: a raw tracepoint ---------------------------------------------------------
if record onemap "$FX/fx_onemap"; then
	if translate_elf onemap; then
		pass "onemap: $(cat onemap.tr)"
		if elf_run onemap; then
			if $patched; then
				if ran_ok; then
					pass "onemap: bpftool prog run: return value 0, report err 0, fds $elf_fds"
				else
					fail "onemap: bpftool prog run: return value $elf_ret, report '$elf_report', fds '$elf_fds'"
				fi
			elif [ "$elf_ret" != 0 ]; then
				# the raw tracepoint name is in the blob: a user pointer on stock 6.12
				pass "onemap: planned for patched-6.12, it fails on stock: return value $elf_ret"
			else
				fail "onemap: planned for patched-6.12, it ran on stock"
			fi
		fi
	else
		fail "onemap: bpfrr translate --format elf failed: $(cat onemap.tr.err)"
	fi
	# --pin: the loader pins what the recorded loader held; the objects outlive
	# bpftool, are the original's (its program tag) and work (the raw
	# tracepoint program runs)
	if $patched; then
		opins=/sys/fs/bpf/translate-elf-onemap
		mkdir -p "$opins"
		rm -f "$opins"/*
		cp onemap.trace onemap_pin.trace
		if translate_elf onemap_pin --pin "$opins" && elf_run onemap_pin && ran_ok; then
			pass "onemap --pin: $(cat onemap_pin.tr); return value 0, fds $elf_fds"
			pinned=$(cd "$opins" && ls | tr '\n' ' ')
			if [ "$pinned" = "link_count_syscalls map_onemap prog_count_syscalls " ]; then
				pass "onemap --pin: after bpftool exited, pinned: $pinned"
			else
				fail "onemap --pin: pinned '$pinned'"
			fi
			want_tag=$(sed -n 's/^prog .* tag=\([0-9a-f]*\).*/\1/p' onemap.rec.out)
			prog_id=$(bpftool prog show pinned "$opins/prog_count_syscalls" | sed -n 's/^\([0-9]*\): .* tag \([0-9a-f]*\).*/\1/p')
			got_tag=$(bpftool prog show pinned "$opins/prog_count_syscalls" | sed -n 's/^[0-9]*: .* tag \([0-9a-f]*\).*/\1/p')
			if [ -n "$want_tag" ] && [ "$got_tag" = "$want_tag" ]; then
				pass "onemap --pin: the pinned program has the original's tag $want_tag"
			else
				fail "onemap --pin: tag '$got_tag', the original's '$want_tag'"
			fi
			echo 1 >/proc/sys/kernel/bpf_stats_enabled
			tries=0 cnt=0
			while [ "$tries" -lt 20 ] && [ "${cnt:-0}" -eq 0 ]; do
				"$ROOT/tests/host/syscall_loop" 10
				cnt=$("$ROOT/tests/guest/translate-runcnt" "$prog_id" | awk '{ print $2 }')
				tries=$((tries + 1))
			done
			echo 0 >/proc/sys/kernel/bpf_stats_enabled
			if [ "${cnt:-0}" -gt 0 ]; then
				pass "onemap --pin: its raw tracepoint program ran $cnt times"
			else
				fail "onemap --pin: program id $prog_id did not run"
			fi
		else
			fail "onemap --pin: $(cat onemap_pin.tr.err onemap_pin.run 2>/dev/null) return value '$elf_ret', report '$elf_report'"
		fi
		rm -f "$opins"/*
	fi
	if ! $patched; then
		translate_elf onemap --assume-caps stock-6.12
		rc=$?
		if [ "$rc" = 1 ] && grep -Eq '^bpfrr translate: seq [0-9]+ BPF_RAW_TRACEPOINT_OPEN: the kernel reads attr.raw_tracepoint.name \([0-9]+ bytes\) at a user address \(stock-6\.12\)' onemap.tr.err; then
			pass "onemap: refused for stock 6.12: $(sed 's/^bpfrr translate: //' onemap.tr.err)"
		else
			fail "onemap: --assume-caps stock-6.12: exit $rc, $(cat onemap.tr.err)"
		fi
	fi
fi

# --- a perf event through the kfunc -------------------------------------------------------
# (tests/guest/elf-perf-loader.c: a perf event array holding a CPU-clock event)
if record perf "$ROOT/tests/guest/elf-perf-loader"; then
	if $patched; then
		if translate_elf perf; then
			pass "perf: $(cat perf.tr)"
			grep -q '(1 through the kfunc)' perf.tr ||
				fail "perf: the perf event is not opened through the kfunc"
			if elf_run perf; then
				if ran_ok; then
					pass "perf: bpftool prog run: return value 0, fds $elf_fds (libbpf resolved the bpf_perf_event_open extern; the event is in the map)"
				else
					fail "perf: bpftool prog run: return value $elf_ret, report '$elf_report', fds '$elf_fds'"
				fi
			fi
		else
			fail "perf: bpfrr translate --format elf failed: $(cat perf.tr.err)"
		fi
	else
		translate_elf perf --assume-caps stock-6.12
		rc=$?
		if [ "$rc" = 1 ] && grep -q '^bpfrr translate: seq [0-9]* perf_event_open: syscall programs cannot open perf events on this kernel (stock-6.12); the elf format needs every call in the loader: try --assume-caps patched-6.12$' perf.tr.err; then
			pass "perf: refused on stock 6.12: $(sed 's/^bpfrr translate: //' perf.tr.err)"
		else
			fail "perf: --assume-caps stock-6.12: exit $rc, $(cat perf.tr.err)"
		fi
		# planned for the patched kernel, libbpf finds no such kfunc here
		translate_elf perf
		rm -f /sys/fs/bpf/elf_perf
		if bpftool prog load perf.bpf.o /sys/fs/bpf/elf_perf >perf.load 2>&1; then
			fail "perf: bpftool loaded an object calling bpf_perf_event_open on stock 6.12"
			rm -f /sys/fs/bpf/elf_perf
		elif grep -q "extern (func ksym) 'bpf_perf_event_open': not found in kernel or module BTFs" perf.load; then
			pass "perf: planned for patched-6.12, bpftool refuses it on stock: libbpf finds no bpf_perf_event_open"
		else
			fail "perf: bpftool prog load failed otherwise: $(tail -n 3 perf.load)"
		fi
	fi
fi

# --- a load stock 6.12's syscall programs can make whole -------------------------------
if record array "$ROOT/tests/guest/elf-perf-loader" array; then
	if $patched; then set --; else set -- --assume-caps stock-6.12; fi
	if translate_elf array "$@"; then
		pass "array: $(cat array.tr)"
		if elf_run array; then
			if ran_ok; then
				pass "array: bpftool prog run: return value 0, report err 0, fds $elf_fds"
			else
				fail "array: bpftool prog run: return value $elf_ret, report '$elf_report', fds '$elf_fds'"
			fi
		fi
	else
		fail "array: bpfrr translate --format elf $*: $(cat array.tr.err)"
	fi
fi

finish

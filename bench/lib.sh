# SPDX-License-Identifier: GPL-2.0-only
# bench/lib.sh: helpers of the bench/ scripts (sourced by bash).
#
# Every benchmark measures its own baseline in the same run and prints ratios
# against it; nothing here holds a result. Guest runs go through qemu/run
# (TCG: absolute times are inflated, ratios measured in one guest run are
# what counts).

bench_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$bench_dir/.." && pwd)
build=$top/build

arch=x86_64
kernel=stock
reps=5
keep=
guest_timeout=900

die() { echo "${me:-bench}: $*" >&2; exit 1; }
bad_usage() { echo "${me:-bench}: $*" >&2; exit 2; }

# The header comment of the calling script, without the leading "# ".
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; }

# parse_args "$@": the options every benchmark takes (see their --help).
parse_args() {
	while [ $# -gt 0 ]; do
		case "$1" in
		--arch) [ $# -ge 2 ] || bad_usage "--arch needs a value"; arch=$2; shift 2 ;;
		--kernel) [ $# -ge 2 ] || bad_usage "--kernel needs a value"; kernel=$2; shift 2 ;;
		-n) [ $# -ge 2 ] || bad_usage "-n needs a value"; reps=$2; shift 2 ;;
		--keep) [ $# -ge 2 ] || bad_usage "--keep needs a directory"; keep=$2; shift 2 ;;
		--timeout) [ $# -ge 2 ] || bad_usage "--timeout needs a value"; guest_timeout=$2; shift 2 ;;
		-h|--help) usage; exit 0 ;;
		*) bad_usage "unknown argument '$1' (see --help)" ;;
		esac
	done
	case "$arch" in x86_64|arm64) ;; *) bad_usage "--arch: '$arch' is not x86_64 or arm64" ;; esac
	case "$kernel" in stock|patched|debug) ;; *) bad_usage "--kernel: '$kernel' is not stock, patched or debug" ;; esac
	[[ $reps =~ ^[1-9][0-9]*$ ]] || bad_usage "-n: '$reps' is not a positive number"
	[[ $guest_timeout =~ ^[1-9][0-9]*$ ]] || bad_usage "--timeout: '$guest_timeout' is not a number of seconds"
}

# built TARGET...: make the build targets (paths under the top of the tree)
# the benchmark uses, as `make bench` does; without a configured tree they
# must exist already.
built() {
	local t
	if [ -f "$top/Makefile" ]; then
		make -C "$top" --no-print-directory -s "$@" >"${TMPDIR:-/tmp}/bpfrr-bench-make.$$" 2>&1 || {
			tail -n 20 "${TMPDIR:-/tmp}/bpfrr-bench-make.$$" >&2
			rm -f "${TMPDIR:-/tmp}/bpfrr-bench-make.$$"
			die "make $* failed"
		}
		rm -f "${TMPDIR:-/tmp}/bpfrr-bench-make.$$"
	fi
	for t in "$@"; do
		case "$t" in build/*) [ -e "$top/$t" ] || die "$top/$t is missing (./configure && make bench)" ;; esac
	done
}

# make_workdir: $work, the directory shared with the guest (--keep DIR keeps it)
make_workdir() {
	if [ -n "$keep" ]; then
		mkdir -p "$keep" || die "cannot make $keep"
		work=$(cd "$keep" && pwd)
	else
		work=$(mktemp -d "${TMPDIR:-/tmp}/bpfrr-bench.XXXXXX")
		trap 'rm -rf "$work"' EXIT
	fi
}

# The x86_64 guest cannot calibrate its TSC under TCG (no PIT reference) and
# falls back to jiffies, 4 ms steps. TCG's guest TSC counts at the host's TSC
# rate, so the host's frequency given on the kernel command line makes `tsc`
# the guest's clocksource, with sub-microsecond steps. (A wrong frequency would
# scale every time alike and leave the ratios as they are.) BENCH_GUEST_CLOCK=
# jiffies keeps the kernel's choice. The arm64 guest has its architected timer.
guest_append() {
	local khz
	[ "$arch" = x86_64 ] && [ "${BENCH_GUEST_CLOCK:-tsc}" = tsc ] || return 0
	khz=$(awk -F: '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo 2>/dev/null)
	[ -n "$khz" ] && [ "$khz" -gt 0 ] && echo "tsc_early_khz=$khz tsc=reliable"
}

# run_guest CMD: CMD in a guest of $arch/$kernel with $work as /share; its
# output goes to $work/guest.log, shown if it fails.
run_guest() {
	local append status
	append=$(guest_append)
	BPFRR_KERNEL_APPEND="${BPFRR_KERNEL_APPEND:+$BPFRR_KERNEL_APPEND }$append" \
		"$top/qemu/run" --arch "$arch" --kernel "$kernel" --timeout "$guest_timeout" \
		--share "$work" -- "$1" >"$work/guest.log" 2>&1
	status=$?
	if [ "$status" != 0 ]; then
		tail -n 20 "$work/guest.log" >&2
		die "the $arch $kernel guest failed (qemu/run status $status)"
	fi
}

# medians TIMES: per "NAME MODE" of the times file, one line
#   NAME MODE TOTAL_MS READY_MS RUNS FAILED TOTAL_MIN TOTAL_MAX READY_MIN READY_MAX
# with the medians (and extremes) of the runs that counted (rc=0).
medians() {
	awk '
	function median(a, n,    i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
		if (n % 2)
			return a[(n + 1) / 2]
		return (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{
		key = $1 " " $2
		if (!(key in seen)) {
			seen[key] = 1
			order[++nkeys] = key
		}
		if ($NF != "rc=0") {
			failed[key]++
			next
		}
		t = $4; sub(/^total_us=/, "", t)
		r = $5; sub(/^ready_us=/, "", r)
		n[key]++
		tot[key, n[key]] = t + 0
		rdy[key, n[key]] = r + 0
	}
	END {
		for (k = 1; k <= nkeys; k++) {
			key = order[k]
			c = n[key] + 0
			mt = mr = lt = ht = lr = hr = -1
			if (c) {
				for (i = 1; i <= c; i++) {
					x[i] = tot[key, i]
					y[i] = rdy[key, i]
				}
				mt = median(x, c) / 1000
				mr = median(y, c) / 1000
				lt = x[1] / 1000; ht = x[c] / 1000
				lr = y[1] / 1000; hr = y[c] / 1000
			}
			printf "%s %.3f %.3f %d %d %.3f %.3f %.3f %.3f\n", key, mt, mr, c, failed[key] + 0,
				lt, ht, lr, hr
		}
	}' "$1"
}

# lookup MEDIANS NAME MODE FIELD: one field of a medians line (total, ready,
# runs, failed, total_min, total_max, ready_min, ready_max), or -1 if that
# name and mode never ran.
lookup() {
	awk -v n="$2" -v m="$3" -v f="$4" '
	BEGIN {
		split("total ready runs failed total_min total_max ready_min ready_max", names, " ")
		for (i = 1; i <= 8; i++)
			if (names[i] == f)
				col = i + 2
	}
	$1 == n && $2 == m { print $col; found = 1; exit }
	END { if (!found) print -1 }' "$1"
}

# spread MEDIANS NAME FIELD MODE...: the largest (max - min) / median over
# those modes of NAME, as "12%": how far apart the runs of one way were (a
# ratio between two ways means little when it is within this); "-" if none ran.
spread() {
	local med=$1 name=$2 field=$3 m worst=-1 v lo hi
	shift 3
	for m in "$@"; do
		v=$(lookup "$med" "$name" "$m" "$field")
		lo=$(lookup "$med" "$name" "$m" "${field}_min")
		hi=$(lookup "$med" "$name" "$m" "${field}_max")
		worst=$(awk -v v="$v" -v lo="$lo" -v hi="$hi" -v w="$worst" \
			'BEGIN { if (v > 0 && lo >= 0 && (hi - lo) / v > w) w = (hi - lo) / v; print w }')
	done
	awk -v w="$worst" 'BEGIN { if (w < 0) print "-"; else printf "%d%%\n", w * 100 + 0.5 }'
}

# ms VALUE: a time in ms for a table cell ("failed" when it never counted)
ms() { awk -v v="$1" 'BEGIN { if (v < 0) print "failed"; else if (v < 10) printf "%.2f\n", v; else printf "%.1f\n", v }'; }

# ratio A B: A/B as "1.23x" ("-" when either is missing)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a < 0 || b <= 0) print "-"; else printf "%.2fx\n", a / b }'; }

# first_line FILE: its first line, for a failure note
first_line() { [ -s "$1" ] && head -n 1 "$1" | cut -c1-240; }

# clock_note: which clock the guest timed with
clock_note() {
	local cs
	cs=$(cat "$work/clocksource" 2>/dev/null)
	case "$cs" in
	tsc) echo "clocksource tsc (host TSC frequency given, see bench/lib.sh)" ;;
	*jiffies*) echo "clocksource $cs: times move in 4 ms steps" ;;
	"") echo "clocksource unknown" ;;
	*) echo "clocksource $cs" ;;
	esac
}

# kernel_image: the guest kernel qemu/run boots (BPFRR_KERNEL_IMAGE, or the
# cached build kernel/build names)
kernel_image() {
	if [ -n "${BPFRR_KERNEL_IMAGE:-}" ]; then
		echo "$BPFRR_KERNEL_IMAGE"
	else
		"$top/kernel/build" --arch "$arch" --variant "$kernel" --print-path 2>/dev/null || echo "?"
	fi
}

# context_lines: when, what and where this run measured (printed before the
# tables; the guest scripts leave uname -r in $work/guest-uname)
context_lines() {
	local rev cpus model load
	rev=$(git -C "$top" describe --always --dirty 2>/dev/null || echo "?")
	cpus=$(nproc 2>/dev/null || echo "?")
	model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
	load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); tree: $rev"
	echo "host: $cpus CPUs (${model:-?}), load average at start $bench_load_at_start, at the end $load"
	echo "guest: $arch, $kernel kernel $(cat "$work/guest-uname" 2>/dev/null || echo "?") ($(kernel_image)),"
	echo "       QEMU TCG (no KVM), 1 vCPU, 1024 MB; $(clock_note)"
}
bench_load_at_start=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)

# rerun_line SCRIPT: how to run this benchmark again, from the top of the tree
rerun_line() {
	echo "rerun: ${BPFRR_KERNEL_IMAGE:+BPFRR_KERNEL_IMAGE=$BPFRR_KERNEL_IMAGE }bench/$1 --arch $arch --kernel $kernel -n $reps"
}

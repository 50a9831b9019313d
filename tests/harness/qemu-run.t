#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/harness/qemu-run.t: the contract of qemu/run, checked by booting real guests
# (TAP). On each arch: the command's exit status is the runner's, its stdout and
# stderr arrive separately and intact, /share is read-write. On x86_64 also: a
# megabyte of output arrives intact, a command line of several words keeps sh
# semantics, a hanging guest is killed after --timeout with an error, a kernel
# panic ends the run quickly with an error, and bad arguments are refused with
# status 125.
#
# The contract does not depend on our own tools, so the guests boot an image
# built from an empty build tree (cached like qemu/run's own images): a
# half-edited source tree that does not compile cannot fail these tests.
#
# Environment: QEMU_RUN_T_ARCHES (default "x86_64 arm64"), QEMU_RUN_T_KERNEL
# (default stock), BPFRR_CACHE_DIR.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
arches=${QEMU_RUN_T_ARCHES:-x86_64 arm64}
variant=${QEMU_RUN_T_KERNEL:-stock}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $1"
	shift
	local line
	for line in "$@"; do echo "# $line"; done
}
# check NAME CONDITION... : passes when the test command succeeds.
check() {
	local name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name" "failed: $*"; fi
}
# Shows a file as TAP comments (for diagnosing failures).
show() { sed 's/^/#   /' "$1"; }
now_tenths() { local t=${EPOCHREALTIME/./}; echo $((t / 100000)); }

cache=${BPFRR_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/bpfrr}
mkdir -p "$tmp/no-build/guest-x86_64" "$tmp/no-build/guest-arm64" "$cache/images"
# Prints the path of an image for $1 without any of our tools, building it if needed.
runner_image() {
	local key img
	key=$(BPFRR_BUILD_DIR=$tmp/no-build "$top/qemu/mkinitramfs" --arch "$1" --print-key) || return 1
	img=$cache/images/runner-test-$1-$key.cpio
	if [ ! -f "$img" ]; then
		BPFRR_BUILD_DIR=$tmp/no-build "$top/qemu/mkinitramfs" --arch "$1" -o "$img" >&2 || return 1
		ls -1t "$cache/images/runner-test-$1-"*.cpio* | tail -n +3 | xargs -r rm -f
	fi
	echo "$img"
}
declare -A image=()
for arch in $arches; do
	image[$arch]=$(runner_image "$arch") || { echo "Bail out! cannot build the $arch image"; exit 1; }
done
# qemu/run on the runner's image for arch $1.
run() {
	local a=$1
	shift
	BPFRR_INITRAMFS=${image[$a]} "$top/qemu/run" --arch "$a" "$@"
}

for arch in $arches; do
	# One boot: exit status, stdout/stderr separation, /share both ways.
	share=$tmp/share-$arch
	mkdir -p "$share"
	echo "from the host $arch" >"$share/in.txt"
	run "$arch" --kernel "$variant" --share "$share" --timeout 120 -- \
		'echo "to stdout"; echo "to stderr" >&2; cat in.txt >copy.txt; uname -m >uname.txt; exit 3' \
		>"$tmp/out" 2>"$tmp/err"
	status=$?
	if [ "$status" -eq 3 ]; then
		ok "$arch: a command exiting 3 makes qemu/run exit 3"
	else
		not_ok "$arch: a command exiting 3 makes qemu/run exit 3" "exit status $status; stderr:"
		show "$tmp/err"
	fi
	check "$arch: stdout carries only the command's stdout" \
		[ "$(cat "$tmp/out")" = "to stdout" ]
	check "$arch: stderr carries only the command's stderr" \
		[ "$(cat "$tmp/err")" = "to stderr" ]
	check "$arch: the guest reads /share and its writes appear on the host" \
		cmp -s "$share/in.txt" "$share/copy.txt"
	want=$arch
	[ "$arch" = arm64 ] && want=aarch64
	check "$arch: the command ran on a $want kernel" \
		[ "$(cat "$share/uname.txt" 2>/dev/null)" = "$want" ]
done

arch=${arches%% *}

# A megabyte of output, on both streams at once, arrives complete and in order.
run "$arch" --kernel "$variant" --timeout 120 -- \
	'seq 1 150000; seq 150000 -1 1 >&2' >"$tmp/out" 2>"$tmp/err"
status=$?
check "$arch: large stdout and stderr arrive intact (status $status)" \
	eval '[ "$status" -eq 0 ] && cmp -s "$tmp/out" <(seq 1 150000) && cmp -s "$tmp/err" <(seq 150000 -1 1)'

# Several words form one command line, as with ssh: sh parses them in the guest.
run "$arch" --kernel "$variant" --timeout 120 -- echo one '&&' echo two '|' tr a-z A-Z \
	>"$tmp/out" 2>"$tmp/err"
check "$arch: several words are one sh command line" \
	[ "$(cat "$tmp/out")" = "$(printf 'one\nTWO')" ]

# A guest that hangs is killed after --timeout with a one-line error and status 125.
start=$(now_tenths)
run "$arch" --kernel "$variant" --timeout 10 -- sleep 9999 >"$tmp/out" 2>"$tmp/err"
status=$?
elapsed=$(($(now_tenths) - start))
if [ "$status" -eq 125 ] && grep -q '^qemu/run: .*did not finish within 10 s' "$tmp/err" &&
	[ "$elapsed" -lt 400 ]; then
	ok "$arch: a hanging guest ends with an error after --timeout ($((elapsed / 10)) s)"
else
	not_ok "$arch: a hanging guest ends with an error after --timeout" \
		"status $status after $((elapsed / 10)) s; stderr:"
	show "$tmp/err"
fi

# A kernel panic (here: an initramfs without an init) ends the run at once.
mkdir -p "$tmp/empty"
(cd "$tmp/empty" && echo . | cpio -o -H newc --quiet) | gzip >"$tmp/empty.cpio.gz"
start=$(now_tenths)
BPFRR_INITRAMFS=$tmp/empty.cpio.gz "$top/qemu/run" --arch "$arch" --kernel "$variant" --timeout 120 -- true \
	>"$tmp/out" 2>"$tmp/err"
status=$?
elapsed=$(($(now_tenths) - start))
if [ "$status" -eq 125 ] && grep -q '^qemu/run: .*panicked: Kernel panic' "$tmp/err" &&
	[ "$elapsed" -lt 600 ]; then
	ok "$arch: a kernel panic ends the run with an error ($((elapsed / 10)) s)"
else
	not_ok "$arch: a kernel panic ends the run with an error" \
		"status $status after $((elapsed / 10)) s; stderr:"
	show "$tmp/err"
fi

# The runner's own errors are status 125 with a one-line message, and boot nothing.
for bad in "--arch mips --kernel stock -- true" \
	"--arch $arch --kernel stock" \
	"--arch $arch --kernel nope -- true" \
	"--arch $arch --kernel stock --share $tmp/does-not-exist -- true" \
	"--arch $arch --kernel stock --timeout soon -- true"; do
	# shellcheck disable=SC2086 # the words of $bad are separate arguments
	"$top/qemu/run" $bad >"$tmp/out" 2>"$tmp/err"
	status=$?
	if [ "$status" -eq 125 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q '^qemu/run: ' "$tmp/err"; then
		ok "qemu/run $bad: refused with status 125"
	else
		not_ok "qemu/run $bad: refused with status 125" "status $status; stderr:"
		show "$tmp/err"
	fi
done

# While kernel/build builds the kernel, or waits for another job that builds it
# (make -j2 check), what it says goes to a log, not to the command's stderr. A
# copy of qemu/run beside a stand-in kernel/build that talks on both streams
# and then provides the real image shows it.
fake=$tmp/fake-top
mkdir -p "$fake/qemu" "$fake/kernel" "$tmp/fake-kernel"
cp "$top/qemu/run" "$fake/qemu/run"
real_kernel=$("$top/kernel/build" --arch "$arch" --variant "$variant" --print-path)
cat >"$fake/kernel/build" <<FAKE
#!/bin/sh
case " \$* " in
*" --print-path "*) echo "$tmp/fake-kernel/image" ;;
*) echo "kernel/build: waiting for another build of this kernel" >&2
   echo "kernel/build: $arch $variant kernel is up to date"
   cp "$real_kernel" "$tmp/fake-kernel/image" ;;
esac
FAKE
chmod +x "$fake/kernel/build"
BPFRR_INITRAMFS=${image[$arch]} "$fake/qemu/run" --arch "$arch" --kernel "$variant" --timeout 120 -- \
	'echo "to stdout"; echo "to stderr" >&2' >"$tmp/out" 2>"$tmp/err"
status=$?
if [ "$status" -eq 0 ] && [ "$(cat "$tmp/out")" = "to stdout" ] && [ "$(cat "$tmp/err")" = "to stderr" ] &&
	[ -f "$tmp/fake-kernel/image" ]; then
	ok "$arch: kernel/build's messages while qemu/run builds the kernel stay off stdout and stderr"
else
	not_ok "$arch: kernel/build's messages while qemu/run builds the kernel stay off stdout and stderr" \
		"exit status $status; stdout:" "$(cat "$tmp/out")" "stderr:" "$(cat "$tmp/err")"
fi

echo "1..$n"
[ "$failed" -eq 0 ]

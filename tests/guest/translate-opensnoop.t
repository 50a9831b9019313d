#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The translator end to end on Debian's libbpf-tools opensnoop (-d 1: it
# traces for a second, then tears down and exits): recorded, translated,
# replayed with --verify while translate-held.sh opens files and checks
# opensnoop's replayed tracepoint programs run: on x86_64 its sys_enter_open
# and sys_exit_open programs wait for open(2), which no shell tool makes (libc
# opens with openat), so 2 of its 4 links must show runs there.
. "$(dirname "$0")/translate-lib.sh"
command -v opensnoop >/dev/null || { echo "opensnoop is not in the image"; exit 1; }

case $BPFRR_ARCH in
x86_64) min=2 ;;
*) min=all ;;
esac
translate_and_replay opensnoop "" "$min" opensnoop -d 1
grep -q 'perf_event_open .*looks up tracepoint syscalls/sys_enter_open' opensnoop.explain ||
	fail "opensnoop: the tracepoint ids are not looked up by name"
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The translator end to end (see translate-lib.sh) on the other third-party
# loaders of the recorder's corpus: Debian's libbpf-tools execsnoop (a
# tracepoint pair on execve, stopped by SIGINT after 3 s), runqlat and
# biolatency (one 1 s interval: BTF-typed tracepoints, or raw tracepoints
# where the kernel lacks what fentry-style attachment needs), and bpftool
# loading every program of a fixture object and pinning it. Each is
# recorded, translated after it exited, replayed with --verify, and its
# replayed programs are checked to run: execsnoop's on the execs
# translate-held.sh makes, runqlat's on scheduler wakeups and switches,
# biolatency's on the block I/O it makes on a loop device.
. "$(dirname "$0")/translate-lib.sh"

for tool in execsnoop runqlat biolatency; do
	command -v $tool >/dev/null || fail "$tool is not in the image"
done
translate_and_replay execsnoop "" all timeout -s INT 3 execsnoop
translate_and_replay runqlat "" all runqlat 1 1
translate_and_replay biolatency "" all biolatency 1 1

# bpftool prog loadall pins every program and map of the object: the replay
# must pin them again at the same paths, so the original's pins are removed
# between recording and replay, and the directories bpftool (libbpf) made for
# them too: the recorder follows mkdir on a bpffs, and the replay makes them
# again (issue 12 item 6). They are back (made by the replay) after it.
pins=/sys/fs/bpf/translate-tools
require_fixtures
mkdir -p "$pins"
tr_before_replay='find "$pins" -mindepth 1 | sort >loadall.pins; rm -rf "$pins"/*'
if translate_and_replay loadall "" none bpftool prog loadall "$FX/fx_loadall.bpf.o" "$pins/progs" pinmaps "$pins/maps"; then
	find "$pins" -mindepth 1 | sort >loadall.repins
	if [ -s loadall.pins ] && cmp -s loadall.pins loadall.repins; then
		pass "loadall: the replay made the $(find "$pins" -mindepth 1 -type d | wc -l) directories and pinned the $(find "$pins" -mindepth 2 | wc -l) programs and maps bpftool had"
	else
		fail "loadall: pins differ (--- bpftool's, +++ the replay's):"
		diff loadall.pins loadall.repins | sed 's/^/    /'
	fi
	for d in progs maps; do
		grep -q "^ *[0-9]*  mkdir[at]*  *path slot [0-9]*: a directory on a bpffs the replayer makes: $pins/$d (mode 0700)" loadall.explain ||
			fail "loadall: no mkdir of $pins/$d in --explain"
	done
	"$BPFRR" dump loadall.trace | grep -q "^#[0-9]* \[[0-9]*\] mkdir[at]*(.*) = 0" ||
		fail "loadall: bpfrr dump shows no successful mkdir"
fi
tr_before_replay=
rm -rf "$pins"
finish

// SPDX-License-Identifier: GPL-2.0-only
/*
 * synth_hostile plain|collide N FILE: write a trace of N map creations, each
 * with its fd event, identity record and close, plus N SYMBOL records, for
 * the linear-time test (tests/host/reader-linear.t).
 *
 * "plain" numbers the calls 1, 2, 3 ... and gives each symbol its own
 * value, as a recorder does.  "collide" spaces the seqs 2^47 apart, which
 * put every key in one slot of the multiplicative hash the readers' maps
 * used to have, and repeats one symbol value under N module names, which
 * made every lookup walk one chain of N.  Each map also gets a second
 * identity record, of an adopted fd: "plain" puts it under the map's own
 * seq, "collide" all of them under the first call's, which made a reader
 * that chained a seq's identities walk the chain for each new one.  Both
 * traces are valid and carry the same records, so a reader whose maps are
 * sound reads them in the same time.
 *
 * synth_hostile bigseq|halfimm|fdlie FILE: a one-map, one-program load that
 * no kernel and no recorder makes, for tests/host/stage-agree.t:
 *   bigseq   the map's call has seq 2^33, more than a loader's report names;
 *   halfimm  the program's last instruction is the first half of an ld_imm64
 *            (the kernel refuses that; the trace says it loaded);
 *   fdlie    the map's call returned fd 3, its fd event says fd 4.
 * Translate must refuse each where the replay would otherwise fail later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>

/* only some of the synthetic-trace helpers are used here */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "../data/synth_trace.h"

static uint64_t seq_of(bool collide, uint64_t i)
{
	return collide ? i << 47 : i;
}

/* A new trace at path with its HEADER and the loader's start: 0 or -errno. */
static int start_trace(struct synth *s, const char *path)
{
	static const char *const args[] = { "./synth_hostile" };
	struct bpfrr_trace_header h = {
		.arch = 62, .nr_cpus = 1, .page_size = 4096,
		.start_realtime_ns = 1767225600123456789ull, .start_monotonic_ns = SYNTH_T0,
		.recorder_pid = 99, .tracee_pid = 100, .arch_name = "x86_64",
		.kernel_release = "6.12.0-bpfrr", .kernel_version = "#1 SMP",
		.recorder_version = "bpfrr 0.1.0", .argc = 1, .argv = args,
	};
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	s->w = bpfrr_trace_create_fd(fd, &h);
	if (!s->w)
		return -errno;
	synth_task(s, BPFRR_TASK_START, 100, 100, 0, 0, 0);
	return 0;
}

/* The small loads: a map, a program using it, both left open (kept by the translator). */
static int small_trace(const char *mode, const char *path)
{
	struct synth s = { .now = SYNTH_T0 };
	struct bpfrr_trace_region regs[2];
	struct bpf_insn insns[8];
	union bpf_attr a;
	uint64_t map_seq, prog_seq;
	uint32_t nr_insns = 8;
	int ret = start_trace(&s, path);

	if (ret)
		return ret;
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = 4;
	a.value_size = 8;
	a.max_entries = 1;
	if (!strcmp(mode, "bigseq"))
		s.seq = 1ull << 33;
	map_seq = synth_bpf(&s, 100, BPF_MAP_CREATE, &a, 72, NULL, NULL, 0, 3);
	synth_fd(&s, map_seq, 100, BPFRR_FD_NEW, !strcmp(mode, "fdlie") ? 4 : 3, BPFRR_OBJ_MAP, map_seq);

	synth_insns(insns, 3);
	if (!strcmp(mode, "halfimm")) {
		/* r0 = 0; exit; then a lone first half of an ld_imm64 */
		memset(insns, 0, sizeof(insns));
		insns[0] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0 };
		insns[1] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
		insns[2] = (struct bpf_insn){ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = 1, .imm = 7 };
		nr_insns = 3;
	}
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insn_cnt = nr_insns;
	a.insns = 0x20000;
	a.license = 0x21000;
	regs[0] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_INSNS, "attr.insns", 0x20000,
			       insns, nr_insns * sizeof(insns[0]));
	regs[1] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_STRING, "attr.license",
			       0x21000, "GPL", 4);
	prog_seq = synth_bpf(&s, 100, BPF_PROG_LOAD, &a, 72, NULL, regs, 2, 5);
	synth_fd(&s, prog_seq, 100, BPFRR_FD_NEW, 5, BPFRR_OBJ_PROG, prog_seq);
	synth_task(&s, BPFRR_TASK_EXIT, 100, 100, 0, 0, 0);
	if (s.err) {
		bpfrr_trace_abandon(s.w);
		return s.err;
	}
	return bpfrr_trace_close(s.w, 0, 0);
}

int main(int argc, char **argv)
{
	struct synth s = { .now = SYNTH_T0 };
	bool collide;
	unsigned long n, i;
	char module[32];
	union bpf_attr a;

	if (argc == 3 && (!strcmp(argv[1], "bigseq") || !strcmp(argv[1], "halfimm") || !strcmp(argv[1], "fdlie"))) {
		int ret = small_trace(argv[1], argv[2]);

		if (ret)
			fprintf(stderr, "synth_hostile: %s\n", strerror(-ret));
		return ret ? 1 : 0;
	}
	if (argc != 4 || (strcmp(argv[1], "plain") && strcmp(argv[1], "collide"))) {
		fprintf(stderr, "usage: synth_hostile plain|collide N FILE\n"
			"       synth_hostile bigseq|halfimm|fdlie FILE\n");
		return 2;
	}
	collide = !strcmp(argv[1], "collide");
	n = strtoul(argv[2], NULL, 0);
	if (!n || n >= 1ul << 17) {
		fprintf(stderr, "synth_hostile: N must be 1 .. 131071\n");
		return 2;
	}
	if (start_trace(&s, argv[3])) {
		perror(argv[3]);
		return 1;
	}
	for (i = 1; i <= n && !s.err; i++) {
		uint64_t seq = seq_of(collide, i);
		struct bpfrr_rec_object o = {
			.seq = seq, .tid = 100, .fd = 3, .kind = BPFRR_OBJ_MAP, .id = (uint32_t)i,
			.type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 8, .max_entries = 1,
			.name = "m",
		};

		snprintf(module, sizeof(module), "mod%lu", i);
		synth_symbol(&s, seq, BPFRR_SYM_BTF_ID, collide ? 1 : i, 1, 1, 0, "f", collide ? module : "");
		memset(&a, 0, sizeof(a));
		a.map_type = BPF_MAP_TYPE_ARRAY;
		a.key_size = 4;
		a.value_size = 8;
		a.max_entries = 1;
		s.seq = seq - 1;
		synth_bpf(&s, 100, BPF_MAP_CREATE, &a, 72, NULL, NULL, 0, 3);
		synth_fd(&s, seq, 100, BPFRR_FD_NEW, 3, BPFRR_OBJ_MAP, seq);
		synth_object(&s, &o);
		/* an identity of an adopted fd: "collide" piles them all on the first call's seq */
		o.seq = collide ? seq_of(true, 1) : seq;
		o.fd = 1000 + (int32_t)i;
		synth_object(&s, &o);
		synth_fd(&s, 0, 100, BPFRR_FD_CLOSE, 3, BPFRR_OBJ_MAP, seq);
	}
	synth_task(&s, BPFRR_TASK_EXIT, 100, 100, 0, 0, 0);
	if (s.err) {
		bpfrr_trace_abandon(s.w);
		fprintf(stderr, "synth_hostile: %s\n", strerror(-s.err));
		return 1;
	}
	return bpfrr_trace_close(s.w, 0, 0) ? 1 : 0;
}

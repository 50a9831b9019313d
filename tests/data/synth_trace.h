/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * synth_trace.h - synthetic traces written with the trace writer, for the
 * dump golden tests and as fuzzing seeds.  Header-only (static functions)
 * so each test program includes what it needs.
 *
 * The traces are what the recorder would write for a small kprobe loader:
 * BTF, a hash map, a failed and a successful program load, a perf event,
 * a link, map updates from a thread and lookups from a forked child (whose
 * copied fd table keeps the map fd the parent closed), an info query, an
 * unknown command.  Every value is fixed, so the output is reproducible.
 * The attrs are laid out with the build machine's <linux/bpf.h> (only
 * fields that are the same in every kernel since 5.x are used).
 */
#ifndef BPFRR_SYNTH_TRACE_H
#define BPFRR_SYNTH_TRACE_H

#include <errno.h>
#include <linux/bpf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "bpf_abi.h"
#include "trace.h"

#define SYNTH_T0	1000000000ull	/* monotonic time of the first record */

/*
 * The format the synthetic traces are written in: 1 (1.1) unless a test sets
 * 2.  The dump goldens and the tests that edit bytes at 1.x offsets use 1.1;
 * tests/unit/test_dump.c checks that each trace dumps the same in 2.0.
 */
static unsigned int synth_major __attribute__((unused)) = 1;

struct synth {
	struct bpfrr_trace_writer *w;
	uint64_t seq;
	uint64_t now;
	int err;
};

static uint64_t synth_time(struct synth *s)
{
	s->now += 1000;
	return s->now;
}

static void synth_check(struct synth *s, int err)
{
	if (err && !s->err)
		s->err = err;
}

static uint64_t synth_blob(struct synth *s, const void *data, size_t len)
{
	uint64_t id = bpfrr_trace_put_blob(s->w, data, len);

	if (!id)
		synth_check(s, -errno);
	return id;
}

static void synth_task(struct synth *s, uint32_t event, uint32_t tid, uint32_t tgid, uint32_t other,
		       uint64_t clone_flags, int32_t status)
{
	static const char *const argv[] = { "./loader", "-v" };
	struct bpfrr_rec_task t = {
		.event = event, .tid = tid, .tgid = tgid, .other_tid = other,
		.clone_flags = clone_flags, .status = status, .time_ns = synth_time(s),
		.path = event == BPFRR_TASK_START ? "/usr/bin/loader" : "",
		.argc = event == BPFRR_TASK_START ? 2 : 0, .argv = argv,
	};

	synth_check(s, bpfrr_trace_write_task(s->w, &t));
}

static struct bpfrr_trace_region synth_region(struct synth *s, uint8_t phase, uint8_t dir, uint8_t content,
					      const char *path, uint64_t addr, const void *data, size_t len)
{
	struct bpfrr_trace_region r = {
		.phase = phase, .dir = dir, .content = content, .addr = addr, .len = len,
		.want_len = len, .path = path,
	};

	r.blob = synth_blob(s, data, len);
	return r;
}

/* A bpf() call: attr as given, regions, result; returns its seq. */
static uint64_t synth_bpf(struct synth *s, uint32_t tid, uint32_t cmd, const union bpf_attr *attr,
			  uint32_t attr_len, const union bpf_attr *attr_exit, const struct bpfrr_trace_region *regs,
			  uint32_t nr_regs, int64_t ret)
{
	struct bpfrr_rec_bpf_call c = {
		.seq = ++s->seq, .tid = tid, .cmd = cmd, .attr_addr = 0x7ffd1000, .attr_size = attr_len,
		.ret = ret, .attr_len = attr_len, .attr = attr,
		.attr_exit_len = attr_exit ? attr_len : 0, .attr_exit = attr_exit,
		.nr_regions = nr_regs, .regions = regs,
	};

	c.t_enter_ns = synth_time(s);
	c.t_exit_ns = c.t_enter_ns + 1234 * (cmd + 1);
	s->now = c.t_exit_ns;
	synth_check(s, bpfrr_trace_write_bpf_call(s->w, &c));
	return c.seq;
}

static void synth_fd(struct synth *s, uint64_t seq, uint32_t tid, uint32_t op, int fd, uint32_t kind,
		     uint64_t object)
{
	struct bpfrr_rec_fd_event e = {
		.seq = seq, .tid = tid, .op = op, .fd = fd, .newfd = -1, .kind = kind,
		.flags = op == BPFRR_FD_NEW ? BPFRR_FD_F_CLOEXEC : 0, .object = object,
	};

	synth_check(s, bpfrr_trace_write_fd_event(s->w, &e));
}

static void synth_object(struct synth *s, const struct bpfrr_rec_object *o)
{
	synth_check(s, bpfrr_trace_write_object(s->w, o));
}

/* The program: r1 = map ll; r2 = r10; r2 += -4; *(u32 *)(r10 -4) = 0; call 1; r0 = 0; exit */
static void synth_insns(struct bpf_insn insns[8], int map_fd)
{
	memset(insns, 0, 8 * sizeof(*insns));
	insns[0] = (struct bpf_insn){ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = 1,
				      .src_reg = BPF_PSEUDO_MAP_FD, .imm = map_fd };
	insns[2] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 2, .src_reg = 10 };
	insns[3] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = 2, .imm = -4 };
	insns[4] = (struct bpf_insn){ .code = BPF_ST | BPF_MEM | BPF_W, .dst_reg = 10, .off = -4 };
	insns[5] = (struct bpf_insn){ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_map_lookup_elem };
	insns[6] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0 };
	insns[7] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
}

/* Writes the synthetic kprobe trace; returns 0 or -errno. */
static int synth_kprobe_trace(int fd, bool with_end)
{
	static const char *const argv[] = { "./loader", "-v" };
	struct bpfrr_trace_header h = {
		.arch = 62, .nr_cpus = 2, .page_size = 4096,
		.start_realtime_ns = 1767225600123456789ull,	/* 2026-01-01T00:00:00.123456789Z */
		.start_monotonic_ns = SYNTH_T0, .recorder_pid = 99, .tracee_pid = 100,
		.arch_name = "x86_64", .kernel_release = "6.12.0-bpfrr",
		.kernel_version = "#1 SMP PREEMPT_DYNAMIC", .recorder_version = "bpfrr 0.1.0",
		.argc = 2, .argv = argv,
	};
	static const char verifier_log[] =
		"func#0 @0\n0: R1=ctx() R10=fp0\n0: (18) r1 = 0xffff888003c4a000\n"
		"2: (bf) r2 = r10\n3: (07) r2 += -4\n4: (85) call bpf_map_lookup_elem#1\n"
		"R2 !read_ok\nprocessed 5 insns (limit 1000000) max_states_per_insn 0\n";
	struct bpfrr_trace_region regs[4];
	union bpf_attr a, ax;
	struct bpf_insn insns[8];
	struct bpf_prog_info info;
	struct synth s = { .now = SYNTH_T0 };
	uint8_t perf_attr[128];
	const void *btf_data;
	uint32_t btf_size, key = 7;
	uint64_t value = 0x1122334455667788ull, zero = 0;
	uint64_t btf_seq, map_seq, prog_seq, perf_seq, link_seq;
	struct btf *btf;
	int id;

	s.w = bpfrr_trace_create_fd_version(fd, &h, synth_major);
	if (!s.w)
		return -errno;
	synth_task(&s, BPFRR_TASK_START, 100, 100, 0, 0, 0);

	/* #1 BTF: int, u64 typedef, struct counts */
	btf = btf__new_empty();
	if (!btf)
		return -ENOMEM;
	id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	btf__add_int(btf, "long long unsigned int", 8, 0);
	btf__add_typedef(btf, "__u64", id + 1);
	btf__add_struct(btf, "counts", 8);
	btf__add_field(btf, "n", id + 2, 0, 0);
	btf_data = btf__raw_data(btf, &btf_size);
	memset(&a, 0, sizeof(a));
	a.btf = 0x10000;
	a.btf_size = btf_size;
	regs[0] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_BTF, "attr.btf", 0x10000,
			       btf_data, btf_size);
	btf_seq = synth_bpf(&s, 100, BPF_BTF_LOAD, &a, 32, NULL, regs, 1, 3);
	btf__free(btf);
	synth_fd(&s, btf_seq, 100, BPFRR_FD_NEW, 3, BPFRR_OBJ_BTF, btf_seq);
	synth_object(&s, &(struct bpfrr_rec_object){ .seq = btf_seq, .tid = 100, .fd = 3, .kind = BPFRR_OBJ_BTF,
						     .id = 5, .btf_size = btf_size });

	/* #2 the map */
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_HASH;
	a.key_size = 4;
	a.value_size = 8;
	a.max_entries = 1024;
	a.map_flags = BPF_F_NO_PREALLOC;
	strcpy(a.map_name, "counts");
	a.btf_fd = 3;
	a.btf_key_type_id = 1;
	a.btf_value_type_id = 3;
	map_seq = synth_bpf(&s, 100, BPF_MAP_CREATE, &a, 72, NULL, NULL, 0, 4);
	synth_fd(&s, map_seq, 100, BPFRR_FD_NEW, 4, BPFRR_OBJ_MAP, map_seq);
	synth_object(&s, &(struct bpfrr_rec_object){ .seq = map_seq, .tid = 100, .fd = 4, .kind = BPFRR_OBJ_MAP,
						     .id = 17, .type = BPF_MAP_TYPE_HASH, .key_size = 4,
						     .value_size = 8, .max_entries = 1024,
						     .map_flags = BPF_F_NO_PREALLOC, .btf_id = 5, .name = "counts" });

	/* #3 a load the verifier rejects, #4 the one it accepts */
	synth_insns(insns, 4);
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_KPROBE;
	a.insn_cnt = 8;
	a.insns = 0x20000;
	a.license = 0x21000;
	a.log_level = 1;
	a.log_size = 4096;
	a.log_buf = 0x30000;
	strcpy(a.prog_name, "count_opens");
	regs[0] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_INSNS, "attr.insns", 0x20000,
			       insns, sizeof(insns));
	regs[1] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_STRING, "attr.license",
			       0x21000, "GPL", 4);
	regs[2] = synth_region(&s, BPFRR_PHASE_EXIT, BPFRR_DIR_OUT, BPFRR_CONTENT_LOG, "attr.log_buf", 0x30000,
			       verifier_log, sizeof(verifier_log));
	regs[2].len = 4096;
	regs[2].want_len = 4096;
	synth_bpf(&s, 100, BPF_PROG_LOAD, &a, 128, NULL, regs, 3, -EACCES);
	a.log_level = 0;
	a.log_size = 0;
	a.log_buf = 0;
	prog_seq = synth_bpf(&s, 100, BPF_PROG_LOAD, &a, 128, NULL, regs, 2, 5);
	synth_fd(&s, prog_seq, 100, BPFRR_FD_NEW, 5, BPFRR_OBJ_PROG, prog_seq);
	synth_object(&s, &(struct bpfrr_rec_object){ .seq = prog_seq, .tid = 100, .fd = 5,
						     .kind = BPFRR_OBJ_PROG, .id = 42, .type = BPF_PROG_TYPE_KPROBE,
						     .tag = { 0x8f, 0x3e, 0x1d, 0x2c, 0x5b, 0x4a, 0x79, 0x68 },
						     .name = "count_opens" });

	/* #5 perf_event_open for a kprobe */
	memset(perf_attr, 0, sizeof(perf_attr));
	perf_attr[0] = 6;	/* type: the kprobe PMU */
	perf_attr[4] = 128;	/* size */
	regs[0] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_BYTES, "perf_event_attr",
			       0x40000, perf_attr, sizeof(perf_attr));
	regs[1] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_STRING, "kprobe_func",
			       0x41000, "do_sys_openat2", 15);
	{
		struct bpfrr_rec_syscall sc = {
			.seq = ++s.seq, .tid = 100, .nr = 298,
			.args = { 0x40000, 0xffffffffffffffffull, 0, 0xffffffffffffffffull, 8, 0 },
			.ret = 6, .name = "perf_event_open", .nr_regions = 2, .regions = regs,
		};

		sc.t_enter_ns = synth_time(&s);
		sc.t_exit_ns = sc.t_enter_ns + 20000;
		s.now = sc.t_exit_ns;
		synth_check(&s, bpfrr_trace_write_syscall(s.w, &sc));
		perf_seq = sc.seq;
	}
	synth_fd(&s, perf_seq, 100, BPFRR_FD_NEW, 6, BPFRR_OBJ_PERF_EVENT, perf_seq);

	/* #6 the link */
	memset(&a, 0, sizeof(a));
	a.link_create.prog_fd = 5;
	a.link_create.target_fd = 6;
	a.link_create.attach_type = BPF_PERF_EVENT;
	link_seq = synth_bpf(&s, 100, BPF_LINK_CREATE, &a, 64, NULL, NULL, 0, 7);
	synth_fd(&s, link_seq, 100, BPFRR_FD_NEW, 7, BPFRR_OBJ_LINK, link_seq);
	synth_object(&s, &(struct bpfrr_rec_object){ .seq = link_seq, .tid = 100, .fd = 7, .kind = BPFRR_OBJ_LINK,
						     .id = 9, .type = BPF_LINK_TYPE_PERF_EVENT, .prog_id = 42,
						     .attach_type = BPF_PERF_EVENT });

	/* #7 a thread (shared fd table) stores a value */
	synth_task(&s, BPFRR_TASK_THREAD, 101, 100, 100, 0x3d0f00, 0);
	memset(&a, 0, sizeof(a));
	a.map_fd = 4;
	a.key = 0x50000;
	a.value = 0x50010;
	a.flags = BPF_NOEXIST;
	regs[0] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_KEY, "attr.key", 0x50000,
			       &key, sizeof(key));
	regs[1] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_VALUE, "attr.value", 0x50010,
			       &value, sizeof(value));
	synth_bpf(&s, 101, BPF_MAP_UPDATE_ELEM, &a, 32, NULL, regs, 2, 0);
	synth_task(&s, BPFRR_TASK_EXIT, 101, 100, 0, 0, 0);

	/* a child with a copy of the fd table; the parent then closes the map fd */
	synth_task(&s, BPFRR_TASK_FORK, 102, 102, 100, 17 /* SIGCHLD */, 0);
	synth_fd(&s, ++s.seq, 100, BPFRR_FD_CLOSE, 4, BPFRR_OBJ_MAP, map_seq);
	{
		/* as the recorder writes the close of a map fd: at its entry, not waited for */
		struct bpfrr_rec_syscall sc = {
			.seq = s.seq, .tid = 100, .nr = 3, .args = { 4 }, .ret = 0,
			.flags = BPFRR_CALL_NOT_WAITED, .name = "close",
		};

		sc.t_enter_ns = synth_time(&s);
		sc.t_exit_ns = sc.t_enter_ns;
		synth_check(&s, bpfrr_trace_write_syscall(s.w, &sc));
	}
	memset(&a, 0, sizeof(a));
	a.map_fd = 4;
	a.key = 0x60000;
	a.value = 0x60010;
	regs[0] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_KEY, "attr.key", 0x60000,
			       &key, sizeof(key));
	regs[1] = synth_region(&s, BPFRR_PHASE_EXIT, BPFRR_DIR_OUT, BPFRR_CONTENT_VALUE, "attr.value", 0x60010,
			       &value, sizeof(value));
	synth_bpf(&s, 102, BPF_MAP_LOOKUP_ELEM, &a, 32, NULL, regs, 2, 0);
	/* a key that is not there */
	regs[0] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_KEY, "attr.key", 0x60000,
			       &zero, 4);
	synth_bpf(&s, 102, BPF_MAP_LOOKUP_ELEM, &a, 32, NULL, regs, 1, -ENOENT);
	synth_task(&s, BPFRR_TASK_EXIT, 102, 102, 0, 0, 0);

	/* #11 the loader asks about its program */
	memset(&info, 0, sizeof(info));
	info.type = BPF_PROG_TYPE_KPROBE;
	info.id = 42;
	memcpy(info.tag, (uint8_t[8]){ 0x8f, 0x3e, 0x1d, 0x2c, 0x5b, 0x4a, 0x79, 0x68 }, 8);
	strcpy(info.name, "count_opens");
	info.nr_map_ids = 1;
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = 5;
	a.info.info_len = 64;
	a.info.info = 0x70000;
	ax = a;
	ax.info.info_len = 64;
	regs[0] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_INOUT, BPFRR_CONTENT_INFO, "attr.info.info",
			       0x70000, &(uint8_t[64]){ 0 }, 64);
	regs[1] = synth_region(&s, BPFRR_PHASE_EXIT, BPFRR_DIR_INOUT, BPFRR_CONTENT_INFO, "attr.info.info",
			       0x70000, &info, 64);
	synth_bpf(&s, 100, BPF_OBJ_GET_INFO_BY_FD, &a, 16, &ax, regs, 2, 0);

	/* #12 a command this bpfrr does not know */
	memset(&a, 0, sizeof(a));
	a.map_fd = 1;
	synth_bpf(&s, 100, 99, &a, 8, NULL, NULL, 0, -EINVAL);
	synth_check(&s, bpfrr_trace_notef(s.w, BPFRR_NOTE_WARNING, s.seq, 100, "bpf() command %d is not in the ABI table", 99));

	synth_fd(&s, 0, 100, BPFRR_FD_EXEC_CLOSE, 7, BPFRR_OBJ_LINK, link_seq);
	synth_task(&s, BPFRR_TASK_EXIT, 100, 100, 0, 0, 0);
	if (s.err) {
		bpfrr_trace_abandon(s.w);
		return s.err;
	}
	if (!with_end) {
		bpfrr_trace_abandon(s.w);
		return 0;
	}
	return bpfrr_trace_close(s.w, 0, 0);
}

/* --- a 1.1 trace: the recording kernel and what its numbers name ---------------------------- */

#define SYNTH_ATTACH_BTF_ID	51234u		/* func vfs_read */
#define SYNTH_KFUNC_BTF_ID	60001u		/* func bpf_rcu_read_lock */
#define SYNTH_KSYM_BTF_ID	300u		/* var bpf_prog_active */
#define SYNTH_MOD_BTF_ID	70123u		/* func nf_ct_helper in module nf_conntrack (also a vmlinux id) */
#define SYNTH_TP_ID		585u		/* syscalls/sys_enter_openat */
#define SYNTH_TP_UNNAMED	99999u		/* a tracepoint id nothing named */
#define SYNTH_PMU_KPROBE	8u		/* the kprobe PMU */
#define SYNTH_KADDR		0xffffffff81234560ull	/* do_sys_openat2+0x10 */
#define SYNTH_KADDR2		0xffffffffc0a01000ull	/* nf_conntrack_in+0x0 [nf_conntrack] */

/*
 * synth_symbols_last: synth_portable_trace() writes its SYMBOL records at the
 * end, after every call, as the recorder's background naming may (readers
 * must take symbols from the whole trace); else each before its call.
 */
static bool synth_symbols_last __attribute__((unused));
static struct bpfrr_rec_symbol synth_held_symbols[16];
static unsigned int synth_nr_held_symbols;

static void synth_symbol(struct synth *s, uint64_t seq, uint32_t kind, uint64_t value, uint32_t btf_kind,
			 uint32_t obj_id, uint64_t offset, const char *name, const char *module)
{
	struct bpfrr_rec_symbol sym = {
		.seq = seq, .kind = kind, .flags = name[0] ? 0 : BPFRR_SYM_F_UNNAMED, .value = value,
		.btf_kind = btf_kind, .btf_obj_id = obj_id, .offset = offset, .name = name, .module = module,
	};

	if (synth_symbols_last && synth_nr_held_symbols < 16) {
		synth_held_symbols[synth_nr_held_symbols++] = sym;	/* the strings are literals */
		return;
	}
	synth_check(s, bpfrr_trace_write_symbol(s->w, &sym));
}

/* The SYMBOL records synth_symbols_last held back. */
static void synth_write_held_symbols(struct synth *s)
{
	unsigned int i;

	for (i = 0; i < synth_nr_held_symbols; i++)
		synth_check(s, bpfrr_trace_write_symbol(s->w, &synth_held_symbols[i]));
	synth_nr_held_symbols = 0;
}

static uint64_t synth_perf_open(struct synth *s, uint32_t type, uint64_t config, uint64_t config1,
				uint64_t config2, int ret)
{
	struct bpfrr_trace_region reg;
	uint8_t perf_attr[128];
	struct bpfrr_rec_syscall sc = {
		.seq = ++s->seq, .tid = 100, .nr = 298,
		.args = { 0x40000, 0xffffffffffffffffull, 0, 0xffffffffffffffffull, 8, 0 },
		.ret = ret, .name = "perf_event_open", .nr_regions = 1, .regions = &reg,
	};

	memset(perf_attr, 0, sizeof(perf_attr));
	memcpy(perf_attr, &type, 4);
	perf_attr[4] = 128;	/* size */
	memcpy(perf_attr + 8, &config, 8);
	memcpy(perf_attr + 56, &config1, 8);
	memcpy(perf_attr + 64, &config2, 8);
	reg = synth_region(s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_BYTES, "perf_event_attr", 0x40000,
			   perf_attr, sizeof(perf_attr));
	sc.t_enter_ns = synth_time(s);
	sc.t_exit_ns = sc.t_enter_ns + 20000;
	s->now = sc.t_exit_ns;
	synth_check(s, bpfrr_trace_write_syscall(s->w, &sc));
	return sc.seq;
}

/*
 * Writes a format 1.1 trace as the recorder writes it on a kernel with BTF:
 * KERNEL after HEADER, and a SYMBOL record before each call for every
 * kernel-build-specific number it is the first to carry: an fentry program
 * (attach_btf_id, a kfunc call, a ksym), tracepoint and kprobe perf events
 * (one tracepoint id nothing named), a kprobe_multi link by addresses.
 * Returns 0 or -errno.
 */
static __attribute__((unused)) int synth_portable_trace(int fd)
{
	static const char *const argv[] = { "./loader" };
	static const uint8_t btf_sha[32] = {
		0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
		0x0f, 0x1e, 0x2d, 0x3c, 0x4b, 0x5a, 0x69, 0x78, 0x87, 0x96, 0xa5, 0xb4, 0xc3, 0xd2, 0xe1, 0xf0,
	};
	struct bpfrr_trace_header h = {
		.arch = 62, .nr_cpus = 2, .page_size = 4096,
		.start_realtime_ns = 1767225600123456789ull,	/* 2026-01-01T00:00:00.123456789Z */
		.start_monotonic_ns = SYNTH_T0, .recorder_pid = 99, .tracee_pid = 100,
		.arch_name = "x86_64", .kernel_release = "6.12.0-bpfrr",
		.kernel_version = "#1 SMP PREEMPT_DYNAMIC", .recorder_version = "bpfrr 0.1.0",
		.argc = 1, .argv = argv,
	};
	struct bpfrr_rec_kernel k = {
		.btf_size = 5912345, .release = "6.12.0-bpfrr", .version = "#1 SMP PREEMPT_DYNAMIC",
		.machine = "x86_64", .build_id = "3f1c0e9a5b7d2468ace013579bdf02468ace1357",
	};
	uint64_t addrs[2] = { SYNTH_KADDR, SYNTH_KADDR2 };
	struct bpfrr_trace_region regs[2];
	struct synth s = { .now = SYNTH_T0 };
	struct bpf_insn insns[5];
	union bpf_attr a;
	uint64_t seq;

	memcpy(k.btf_sha256, btf_sha, sizeof(btf_sha));
	s.w = bpfrr_trace_create_fd_version(fd, &h, synth_major);
	if (!s.w)
		return -errno;
	synth_check(&s, bpfrr_trace_write_kernel(s.w, &k));
	synth_task(&s, BPFRR_TASK_START, 100, 100, 0, 0, 0);

	/* #1 fentry/vfs_read: call bpf_rcu_read_lock (kfunc); r1 = bpf_prog_active (ksym) ll; r0 = 0; exit */
	memset(insns, 0, sizeof(insns));
	insns[0] = (struct bpf_insn){ .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_KFUNC_CALL,
				      .imm = SYNTH_KFUNC_BTF_ID };
	insns[1] = (struct bpf_insn){ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = 1,
				      .src_reg = BPF_PSEUDO_BTF_ID, .imm = SYNTH_KSYM_BTF_ID };
	insns[3] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0 };
	insns[4] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_TRACING;
	a.expected_attach_type = BPF_TRACE_FENTRY;
	a.attach_btf_id = SYNTH_ATTACH_BTF_ID;
	a.insn_cnt = 5;
	a.insns = 0x20000;
	a.license = 0x21000;
	strcpy(a.prog_name, "read_entry");
	regs[0] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_INSNS, "attr.insns", 0x20000,
			       insns, sizeof(insns));
	regs[1] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_STRING, "attr.license",
			       0x21000, "GPL", 4);
	seq = s.seq + 1;
	synth_symbol(&s, seq, BPFRR_SYM_BTF_ID, SYNTH_ATTACH_BTF_ID, BTF_KIND_FUNC, 1, 0, "vfs_read", "");
	synth_symbol(&s, seq, BPFRR_SYM_BTF_ID, SYNTH_KFUNC_BTF_ID, BTF_KIND_FUNC, 1, 0, "bpf_rcu_read_lock", "");
	synth_symbol(&s, seq, BPFRR_SYM_BTF_ID, SYNTH_KSYM_BTF_ID, BTF_KIND_VAR, 1, 0, "bpf_prog_active", "");
	seq = synth_bpf(&s, 100, BPF_PROG_LOAD, &a, 128, NULL, regs, 2, 3);
	synth_fd(&s, seq, 100, BPFRR_FD_NEW, 3, BPFRR_OBJ_PROG, seq);

	/* #2 a tracepoint, #3 one nothing named, #4 a kprobe by address */
	synth_symbol(&s, s.seq + 1, BPFRR_SYM_TP_ID, SYNTH_TP_ID, 0, 0, 0, "syscalls/sys_enter_openat", "");
	seq = synth_perf_open(&s, 2 /* PERF_TYPE_TRACEPOINT */, SYNTH_TP_ID, 0, 0, 4);
	synth_fd(&s, seq, 100, BPFRR_FD_NEW, 4, BPFRR_OBJ_PERF_EVENT, seq);
	synth_symbol(&s, s.seq + 1, BPFRR_SYM_TP_ID, SYNTH_TP_UNNAMED, 0, 0, 0, "", "");
	synth_perf_open(&s, 2, SYNTH_TP_UNNAMED, 0, 0, -ENOENT);
	synth_symbol(&s, s.seq + 1, BPFRR_SYM_PMU_TYPE, SYNTH_PMU_KPROBE, 0, 0, 0, "kprobe", "");
	synth_symbol(&s, s.seq + 1, BPFRR_SYM_KSYM_ADDR, SYNTH_KADDR, 0, 0, 0x10, "do_sys_openat2", "");
	seq = synth_perf_open(&s, SYNTH_PMU_KPROBE, 0, 0, SYNTH_KADDR, 5);
	synth_fd(&s, seq, 100, BPFRR_FD_NEW, 5, BPFRR_OBJ_PERF_EVENT, seq);

	/* #5 kprobe_multi by address: one named already, one in a module */
	memset(&a, 0, sizeof(a));
	a.link_create.prog_fd = 3;
	a.link_create.attach_type = BPF_TRACE_KPROBE_MULTI;
	a.link_create.kprobe_multi.cnt = 2;
	a.link_create.kprobe_multi.addrs = 0x80000;
	regs[0] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_U64_ARRAY,
			       "attr.link_create.kprobe_multi.addrs", 0x80000, addrs, sizeof(addrs));
	synth_symbol(&s, s.seq + 1, BPFRR_SYM_KSYM_ADDR, SYNTH_KADDR2, 0, 0, 0, "nf_conntrack_in", "nf_conntrack");
	seq = synth_bpf(&s, 100, BPF_LINK_CREATE, &a, 48, NULL, regs, 1, 6);
	synth_fd(&s, seq, 100, BPFRR_FD_NEW, 6, BPFRR_OBJ_LINK, seq);

	/* a module's id that is also a vmlinux id: the lookup tells them apart */
	synth_symbol(&s, s.seq, BPFRR_SYM_BTF_ID, SYNTH_MOD_BTF_ID, BTF_KIND_FUNC, 40, 0, "nf_ct_helper",
		     "nf_conntrack");
	synth_symbol(&s, s.seq, BPFRR_SYM_BTF_ID, SYNTH_MOD_BTF_ID, BTF_KIND_STRUCT, 1, 0, "task_struct", "");

	synth_write_held_symbols(&s);
	synth_task(&s, BPFRR_TASK_EXIT, 100, 100, 0, 0, 0);
	if (s.err) {
		bpfrr_trace_abandon(s.w);
		return s.err;
	}
	return bpfrr_trace_close(s.w, 0, 0);
}


/*
 * A light skeleton, made by hand as libbpf's gen_loader lays one out: the blob
 * in '__loader.map', a syscall program that loads BTF-less MAP_CREATE attrs
 * from it, the second with the first one's fd as inner_map_fd and max_entries
 * from the ctx when not 0, then calls a helper gen_loader never emits (the
 * decoding stops there); and a second syscall program whose blob map was never
 * given a value (not decoded).  tests/data/dump/lskel.*.
 */
#define SYNTH_LSKEL_BLOB	256
static __attribute__((unused)) int synth_lskel_trace(int fd)
{
	static const char *const argv[] = { "./lskel" };
	struct bpfrr_trace_header h = {
		.arch = 62, .nr_cpus = 1, .page_size = 4096,
		.start_realtime_ns = 1767225600123456789ull,	/* 2026-01-01T00:00:00.123456789Z */
		.start_monotonic_ns = SYNTH_T0, .recorder_pid = 99, .tracee_pid = 100,
		.arch_name = "x86_64", .kernel_release = "6.12.0-bpfrr",
		.kernel_version = "#1 SMP PREEMPT_DYNAMIC", .recorder_version = "bpfrr 0.1.0",
		.argc = 1, .argv = argv,
	};
	struct bpf_insn p[64];
	union bpf_attr a, inner;
	uint8_t blob[SYNTH_LSKEL_BLOB] = { 0 };
	struct bpfrr_trace_region regs[3];
	struct synth s = { .now = SYNTH_T0 };
	uint32_t key = 0;
	int32_t fds[1];
	uint64_t seq;
	int n = 0, i, back;

	s.w = bpfrr_trace_create_fd_version(fd, &h, synth_major);
	if (!s.w)
		return -errno;
	synth_task(&s, BPFRR_TASK_START, 100, 100, 0, 0, 0);

	/* the blob: two MAP_CREATE attrs (72 bytes) at 64 and 144 */
	memset(&inner, 0, sizeof(inner));
	inner.map_type = BPF_MAP_TYPE_ARRAY;
	inner.key_size = 4;
	inner.value_size = 8;
	inner.max_entries = 4;
	strcpy(inner.map_name, "inner");
	memcpy(blob + 64, &inner, 72);
	inner.map_type = BPF_MAP_TYPE_ARRAY_OF_MAPS;
	inner.value_size = 4;
	inner.max_entries = 2;
	strcpy(inner.map_name, "outer");
	memcpy(blob + 144, &inner, 72);

#define LI(c, d, sr, o, im) (p[n++] = (struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (sr), \
							 .off = (o), .imm = (im) })
#define LBLOB(r, off) (LI(BPF_LD | BPF_DW | BPF_IMM, r, BPF_PSEUDO_MAP_IDX_VALUE, 0, 0), LI(0, 0, 0, 0, off))
	LI(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0);		/* 0: r6 = r1 */
	LI(BPF_ALU64 | BPF_MOV | BPF_X, 1, 10, 0, 0);
	LI(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, -8);
	LI(BPF_ALU64 | BPF_MOV | BPF_K, 2, 0, 0, 8);
	LI(BPF_ALU64 | BPF_MOV | BPF_K, 3, 0, 0, 0);
	LI(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_probe_read_kernel);
	LI(BPF_JMP | BPF_JA, 0, 0, 2, 0);
	LI(BPF_ALU64 | BPF_MOV | BPF_X, 0, 7, 0, 0);		/* 7: cleanup */
	LI(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	for (i = 0; i < 2; i++) {
		int attr = i ? 144 : 64;

		if (i) {
			/* inner_map_fd from the stack, max_entries from the ctx when not 0 */
			LI(BPF_LDX | BPF_MEM | BPF_W, 0, 10, -8, 0);
			LBLOB(1, attr + (int)offsetof(union bpf_attr, inner_map_fd));
			LI(BPF_STX | BPF_MEM | BPF_W, 1, 0, 0, 0);
			LI(BPF_LDX | BPF_MEM | BPF_W, 0, 6, 28, 0);
			LI(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3, 0);
			LBLOB(1, attr + (int)offsetof(union bpf_attr, max_entries));
			LI(BPF_STX | BPF_MEM | BPF_W, 1, 0, 0, 0);
		}
		LI(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, BPF_MAP_CREATE);
		LBLOB(2, attr);
		LI(BPF_ALU64 | BPF_MOV | BPF_K, 3, 0, 0, 72);
		LI(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_sys_bpf);
		LI(BPF_ALU64 | BPF_MOV | BPF_X, 7, 0, 0, 0);
		back = 7 - (n + 1);
		LI(BPF_JMP | BPF_JSLT | BPF_K, 7, 0, back, 0);		/* error: to the cleanup */
		LI(BPF_STX | BPF_MEM | BPF_W, 10, 7, -8 + 4 * i, 0);
	}
	LI(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);	/* not gen_loader's */
	LI(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0);
	LI(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
#undef LBLOB
#undef LI

	/* #1 the loader map, #2 its blob */
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = 4;
	a.value_size = sizeof(blob);
	a.max_entries = 1;
	strcpy(a.map_name, "__loader.map");
	seq = synth_bpf(&s, 100, BPF_MAP_CREATE, &a, 72, NULL, NULL, 0, 3);
	synth_fd(&s, seq, 100, BPFRR_FD_NEW, 3, BPFRR_OBJ_MAP, seq);
	memset(&a, 0, sizeof(a));
	a.map_fd = 3;
	a.key = 0x20000;
	a.value = 0x30000;
	regs[0] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_KEY, "attr.key", 0x20000, &key, 4);
	regs[1] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_VALUE, "attr.value", 0x30000, blob,
			       sizeof(blob));
	synth_bpf(&s, 100, BPF_MAP_UPDATE_ELEM, &a, 32, NULL, regs, 2, 0);

	/* #3 the loader program */
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SYSCALL;
	a.insn_cnt = (uint32_t)n;
	a.insns = 0x40000;
	a.fd_array = 0x50000;
	a.prog_flags = BPF_F_SLEEPABLE;
	strcpy(a.prog_name, "__loader.prog");
	fds[0] = 3;
	regs[0] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_INSNS, "attr.insns", 0x40000, p,
			       (size_t)n * sizeof(p[0]));
	regs[1] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_FD_ARRAY, "attr.fd_array",
			       0x50000, fds, sizeof(fds));
	seq = synth_bpf(&s, 100, BPF_PROG_LOAD, &a, 144, NULL, regs, 2, 4);
	synth_fd(&s, seq, 100, BPFRR_FD_NEW, 4, BPFRR_OBJ_PROG, seq);

	/* #4 a map nothing stores a blob in, #5 the same program naming it */
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = 4;
	a.value_size = sizeof(blob);
	a.max_entries = 1;
	strcpy(a.map_name, "__loader.map");
	seq = synth_bpf(&s, 100, BPF_MAP_CREATE, &a, 72, NULL, NULL, 0, 5);
	synth_fd(&s, seq, 100, BPFRR_FD_NEW, 5, BPFRR_OBJ_MAP, seq);
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SYSCALL;
	a.insn_cnt = (uint32_t)n;
	a.insns = 0x40000;
	a.fd_array = 0x50000;
	fds[0] = 5;
	regs[0] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_INSNS, "attr.insns", 0x40000, p,
			       (size_t)n * sizeof(p[0]));
	regs[1] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_FD_ARRAY, "attr.fd_array",
			       0x50000, fds, sizeof(fds));
	seq = synth_bpf(&s, 100, BPF_PROG_LOAD, &a, 144, NULL, regs, 2, 6);
	synth_fd(&s, seq, 100, BPFRR_FD_NEW, 6, BPFRR_OBJ_PROG, seq);

	synth_task(&s, BPFRR_TASK_EXIT, 100, 100, 0, 0, 0);
	if (s.err) {
		bpfrr_trace_abandon(s.w);
		return s.err;
	}
	return bpfrr_trace_close(s.w, 0, 0);
}

/*
 * Later UAPI (issue 16): a 6.18 PROG_LOAD (168-byte attr: fd_array_cnt, a signature,
 * keyring_id) the verifier rejected with a log, a MAP_CREATE with non-zero bytes after
 * everything known, and a 7.2 BPF_MAP_CREATE | BPF_COMMON_ATTRS with its common log.
 */
static __attribute__((unused)) int synth_later_uapi_trace(int fd)
{
	static const char *const argv[] = { "./loader" };
	struct bpfrr_trace_header h = {
		.arch = 62, .nr_cpus = 2, .page_size = 4096,
		.start_realtime_ns = 1767225600123456789ull,
		.start_monotonic_ns = SYNTH_T0, .recorder_pid = 99, .tracee_pid = 100,
		.arch_name = "x86_64", .kernel_release = "6.18.0",
		.kernel_version = "#1 SMP PREEMPT_DYNAMIC", .recorder_version = "bpfrr 0.1.0",
		.argc = 1, .argv = argv,
	};
	static const char log[] = "func#0 @0\n0: R1=ctx() R10=fp0\n0: (b7) r1 = 0\n"
				  "1: (79) r0 = *(u64 *)(r1 +0)\nR1 invalid mem access 'scalar'\n"
				  "processed 2 insns (limit 1000000) max_states_per_insn 0 total_states 0\n";
	static const char common_log[] = "Invalid max_entries.\n";
	static const uint8_t sig[16] = { 0x30, 0x82, 0x01, 0x22 };
	static const int32_t fds[2] = { 5, 5 };
	uint8_t a[256] __attribute__((aligned(8))), common[24], common_out[24];
	struct bpfrr_trace_region regs[6];
	struct synth s = { .now = SYNTH_T0 };
	struct bpf_insn insns[3] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 1 },
		{ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = 0, .src_reg = 1 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct bpfrr_rec_bpf_call c;

	s.w = bpfrr_trace_create_fd_version(fd, &h, synth_major);
	if (!s.w)
		return -errno;
	synth_task(&s, BPFRR_TASK_START, 100, 100, 0, 0, 0);

	/* #1 PROG_LOAD, 6.18 layout, rejected */
	memset(a, 0, sizeof(a));
	memcpy(a + 0, &(uint32_t){ BPF_PROG_TYPE_SOCKET_FILTER }, 4);
	memcpy(a + 4, &(uint32_t){ 3 }, 4);
	memcpy(a + 8, &(uint64_t){ 0x20000 }, 8);
	memcpy(a + 16, &(uint64_t){ 0x21000 }, 8);
	memcpy(a + 24, &(uint32_t){ 1 }, 4);				/* log_level */
	memcpy(a + 28, &(uint32_t){ 4096 }, 4);				/* log_size */
	memcpy(a + 32, &(uint64_t){ 0x30000 }, 8);			/* log_buf */
	memcpy(a + 120, &(uint64_t){ 0x22000 }, 8);			/* fd_array */
	memcpy(a + 148, &(uint32_t){ 2 }, 4);				/* fd_array_cnt */
	memcpy(a + 152, &(uint64_t){ 0x23000 }, 8);			/* signature */
	memcpy(a + 160, &(uint32_t){ sizeof(sig) }, 4);
	memcpy(a + 164, &(int32_t){ -4 }, 4);				/* keyring_id */
	regs[0] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_INSNS, "attr.insns", 0x20000,
			       insns, sizeof(insns));
	regs[1] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_STRING, "attr.license",
			       0x21000, "GPL", 4);
	regs[2] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_FD_ARRAY, "attr.fd_array",
			       0x22000, fds, sizeof(fds));
	regs[3] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_SIGNATURE, "attr.signature",
			       0x23000, sig, sizeof(sig));
	regs[4] = synth_region(&s, BPFRR_PHASE_EXIT, BPFRR_DIR_OUT, BPFRR_CONTENT_LOG, "attr.log_buf", 0x30000,
			       log, sizeof(log));
	synth_bpf(&s, 100, BPF_PROG_LOAD, (const union bpf_attr *)a, 168, NULL, regs, 5, -EACCES);

	/* #2 MAP_CREATE with bytes 100..103 set: nothing bpfrr knows */
	memset(a, 0, sizeof(a));
	memcpy(a + 0, &(uint32_t){ BPF_MAP_TYPE_ARRAY }, 4);
	memcpy(a + 4, &(uint32_t){ 4 }, 4);
	memcpy(a + 8, &(uint32_t){ 8 }, 4);
	memcpy(a + 12, &(uint32_t){ 1 }, 4);
	a[100] = 0xab;
	a[103] = 0xcd;
	synth_bpf(&s, 100, BPF_MAP_CREATE, (const union bpf_attr *)a, 104, NULL, NULL, 0, -E2BIG);

	/* #3 BPF_MAP_CREATE | BPF_COMMON_ATTRS, rejected with a common log */
	memset(a, 0, sizeof(a));
	memcpy(a + 0, &(uint32_t){ BPF_MAP_TYPE_ARRAY }, 4);
	memcpy(a + 4, &(uint32_t){ 4 }, 4);
	memcpy(a + 8, &(uint32_t){ 8 }, 4);
	memset(common, 0, sizeof(common));
	memcpy(common, &(uint64_t){ 0x40000 }, 8);
	memcpy(common + 8, &(uint32_t){ 256 }, 4);
	memcpy(common + 12, &(uint32_t){ 1 }, 4);
	memcpy(common_out, common, sizeof(common));
	memcpy(common_out + 16, &(uint32_t){ sizeof(common_log) }, 4);
	regs[0] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_INOUT, BPFRR_CONTENT_COMMON_ATTR, "common_attr",
			       0x7ffd2000, common, sizeof(common));
	regs[1] = synth_region(&s, BPFRR_PHASE_EXIT, BPFRR_DIR_INOUT, BPFRR_CONTENT_COMMON_ATTR, "common_attr",
			       0x7ffd2000, common_out, sizeof(common_out));
	regs[2] = synth_region(&s, BPFRR_PHASE_EXIT, BPFRR_DIR_OUT, BPFRR_CONTENT_LOG, "common_attr.log_buf",
			       0x40000, common_log, sizeof(common_log));
	memset(&c, 0, sizeof(c));
	c.seq = ++s.seq;
	c.tid = 100;
	c.cmd = BPF_MAP_CREATE;
	c.attr_addr = 0x7ffd1000;
	c.attr_size = c.attr_len = 72;
	c.attr = a;
	c.flags = BPFRR_CALL_COMMON_ATTRS;
	c.ret = -EINVAL;
	c.nr_regions = 3;
	c.regions = regs;
	c.t_enter_ns = synth_time(&s);
	c.t_exit_ns = c.t_enter_ns + 2000;
	s.now = c.t_exit_ns;
	synth_check(&s, bpfrr_trace_write_bpf_call(s.w, &c));

	synth_task(&s, BPFRR_TASK_EXIT, 100, 100, 0, 0, 0);
	if (s.err) {
		bpfrr_trace_abandon(s.w);
		return s.err;
	}
	return bpfrr_trace_close(s.w, 0, 0);
}

/* The kprobe trace without its END record (a recorder that was killed). */
static __attribute__((unused)) int synth_kprobe_trace_cut(int fd)
{
	return synth_kprobe_trace(fd, false);
}

static __attribute__((unused)) int synth_kprobe_trace_whole(int fd)
{
	return synth_kprobe_trace(fd, true);
}

/*
 * The bytes one of the writers above (fn, given an fd it closes) makes, through
 * a memfd: malloc'd, *len of them; NULL if anything failed.
 */
static __attribute__((unused)) uint8_t *synth_bytes_of(int (*fn)(int fd), size_t *len)
{
	int fd = memfd_create("synth", 0), dupfd;
	uint8_t *buf = NULL;
	struct stat st;

	if (fd < 0)
		return NULL;
	dupfd = dup(fd);
	if (dupfd >= 0 && !fn(dupfd) && !fstat(fd, &st) && (buf = malloc(st.st_size ? st.st_size : 1))) {
		*len = (size_t)st.st_size;
		if (pread(fd, buf, *len, 0) != (ssize_t)*len) {
			free(buf);
			buf = NULL;
		}
	}
	close(fd);
	return buf;
}

#endif /* BPFRR_SYNTH_TRACE_H */

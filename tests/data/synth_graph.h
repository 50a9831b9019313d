/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * synth_graph.h - a synthetic trace with every relation `bpfrr dump
 * --format dot` draws that the committed guest traces lack: a program
 * array whose slots hold two programs (tail calls), an XDP link on an
 * ifindex and its pin, a cgroup opened and attached to with
 * BPF_PROG_ATTACH, an fentry program on a function the SYMBOL records
 * name and its link, a map adopted from elsewhere that a program binds,
 * an object opened from a pin, a failed call, and a probe (a BTF load
 * closed at once).  A pin path with a quote, a backslash and a byte that
 * is not ASCII checks the escaping.  Header-only, as synth_trace.h, whose
 * writer helpers it uses.
 */
#ifndef BPFRR_SYNTH_GRAPH_H
#define BPFRR_SYNTH_GRAPH_H

#include "synth_trace.h"

#define SYNTH_GRAPH_VFS_READ	51234u		/* func vfs_read */

/* An open of path that returned fd (its pathname at entry, the resolved path at exit). */
static uint64_t synth_open(struct synth *s, const char *path, int fd, uint32_t kind)
{
	struct bpfrr_trace_region regs[2];
	struct bpfrr_rec_syscall sc = {
		.seq = ++s->seq, .tid = 100, .nr = 257,
		.args = { (uint64_t)-100, 0x90000, 0x10000 /* O_DIRECTORY */, 0, 0, 0 },
		.ret = fd, .name = "openat", .nr_regions = 2, .regions = regs,
	};

	regs[0] = synth_region(s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_PATH, "pathname", 0x90000, path,
			       strlen(path) + 1);
	regs[1] = synth_region(s, BPFRR_PHASE_EXIT, BPFRR_DIR_OUT, BPFRR_CONTENT_PATH, "path", 0x90000, path,
			       strlen(path) + 1);
	sc.t_enter_ns = synth_time(s);
	sc.t_exit_ns = sc.t_enter_ns + 3000;
	s->now = sc.t_exit_ns;
	synth_check(s, bpfrr_trace_write_syscall(s->w, &sc));
	synth_fd(s, sc.seq, 100, BPFRR_FD_NEW, fd, kind, sc.seq);
	return sc.seq;
}

/* A program load of type, named name, whose insns reference map_fd (none if < 0); returns fd. */
static int synth_graph_prog(struct synth *s, uint32_t type, uint32_t attach_type, uint32_t btf_id,
			    const char *name, int map_fd, int fd)
{
	struct bpfrr_trace_region regs[2];
	struct bpf_insn insns[8];
	union bpf_attr a;
	uint64_t seq;

	synth_insns(insns, map_fd < 0 ? 0 : map_fd);
	if (map_fd < 0)
		insns[0] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 1 };
	memset(&a, 0, sizeof(a));
	a.prog_type = type;
	a.expected_attach_type = attach_type;
	a.attach_btf_id = btf_id;
	a.insn_cnt = 8;
	a.insns = 0x20000;
	a.license = 0x21000;
	strcpy(a.prog_name, name);
	regs[0] = synth_region(s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_INSNS, "attr.insns", 0x20000,
			       insns, sizeof(insns));
	regs[1] = synth_region(s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_STRING, "attr.license",
			       0x21000, "GPL", 4);
	if (btf_id)
		synth_symbol(s, s->seq + 1, BPFRR_SYM_BTF_ID, btf_id, BTF_KIND_FUNC, 1, 0, "vfs_read", "");
	seq = synth_bpf(s, 100, BPF_PROG_LOAD, &a, 128, NULL, regs, 2, fd);
	synth_fd(s, seq, 100, BPFRR_FD_NEW, fd, BPFRR_OBJ_PROG, seq);
	return fd;
}

/* A map update whose 4-byte key is key and 4-byte value is the fd value_fd. */
static void synth_graph_update(struct synth *s, int map_fd, uint32_t key, int32_t value_fd)
{
	struct bpfrr_trace_region regs[2];
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = map_fd;
	a.key = 0x50000;
	a.value = 0x50010;
	regs[0] = synth_region(s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_KEY, "attr.key", 0x50000,
			       &key, sizeof(key));
	regs[1] = synth_region(s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_VALUE, "attr.value", 0x50010,
			       &value_fd, sizeof(value_fd));
	synth_bpf(s, 100, BPF_MAP_UPDATE_ELEM, &a, 32, NULL, regs, 2, 0);
}

static void synth_graph_pin(struct synth *s, uint32_t cmd, const char *path, int bpf_fd, int ret)
{
	struct bpfrr_trace_region reg;
	union bpf_attr a;
	uint64_t seq;

	memset(&a, 0, sizeof(a));
	a.pathname = 0x60000;
	a.bpf_fd = cmd == BPF_OBJ_PIN ? bpf_fd : 0;
	reg = synth_region(s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_PATH, "attr.pathname", 0x60000, path,
			   strlen(path) + 1);
	seq = synth_bpf(s, 100, cmd, &a, 16, NULL, &reg, 1, ret);
	if (cmd == BPF_OBJ_GET) {
		synth_fd(s, seq, 100, BPFRR_FD_NEW, ret, BPFRR_OBJ_MAP, seq);
		synth_object(s, &(struct bpfrr_rec_object){ .seq = seq, .tid = 100, .fd = ret,
							    .kind = BPFRR_OBJ_MAP, .id = 77,
							    .type = BPF_MAP_TYPE_HASH, .key_size = 4,
							    .value_size = 8, .max_entries = 16, .name = "shared" });
	}
}

/* Writes the graph trace (format 1.1); returns 0 or -errno. */
static __attribute__((unused)) int synth_graph_trace(int fd)
{
	static const char *const argv[] = { "./xdp-loader", "eth0" };
	struct bpfrr_trace_header h = {
		.arch = 62, .nr_cpus = 2, .page_size = 4096,
		.start_realtime_ns = 1767225600123456789ull,
		.start_monotonic_ns = SYNTH_T0, .recorder_pid = 99, .tracee_pid = 100,
		.arch_name = "x86_64", .kernel_release = "6.12.0-bpfrr",
		.kernel_version = "#1 SMP PREEMPT_DYNAMIC", .recorder_version = "bpfrr 0.1.0",
		.argc = 2, .argv = argv,
	};
	struct bpfrr_rec_kernel k = {
		.btf_size = 5912345, .release = "6.12.0-bpfrr", .version = "#1 SMP PREEMPT_DYNAMIC",
		.machine = "x86_64", .build_id = "3f1c0e9a5b7d2468ace013579bdf02468ace1357",
	};
	struct bpfrr_trace_region reg;
	struct synth s = { .now = SYNTH_T0 };
	static const uint8_t btf_bytes[24] = { 0x9f, 0xeb, 1, 0, 24 };
	union bpf_attr a;
	uint64_t seq;

	s.w = bpfrr_trace_create_fd(fd, &h);
	if (!s.w)
		return -errno;
	synth_check(&s, bpfrr_trace_write_kernel(s.w, &k));
	synth_task(&s, BPFRR_TASK_START, 100, 100, 0, 0, 0);

	/* #1 the program array, #2 #3 the programs its slots will hold, #4 the one that tail-calls */
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_PROG_ARRAY;
	a.key_size = 4;
	a.value_size = 4;
	a.max_entries = 4;
	strcpy(a.map_name, "jmp_table");
	seq = synth_bpf(&s, 100, BPF_MAP_CREATE, &a, 72, NULL, NULL, 0, 3);
	synth_fd(&s, seq, 100, BPFRR_FD_NEW, 3, BPFRR_OBJ_MAP, seq);
	synth_graph_prog(&s, BPF_PROG_TYPE_XDP, BPF_XDP, 0, "xdp_pass", -1, 4);
	synth_graph_prog(&s, BPF_PROG_TYPE_XDP, BPF_XDP, 0, "xdp_drop", -1, 5);
	synth_graph_prog(&s, BPF_PROG_TYPE_XDP, BPF_XDP, 0, "xdp_main", 3, 6);
	/* #5 #6 the slots */
	synth_graph_update(&s, 3, 0, 4);
	synth_graph_update(&s, 3, 1, 5);

	/* #7 the XDP link on ifindex 2, #8 its pin (an awkward path) */
	memset(&a, 0, sizeof(a));
	a.link_create.prog_fd = 6;
	a.link_create.target_ifindex = 2;
	a.link_create.attach_type = BPF_XDP;
	seq = synth_bpf(&s, 100, BPF_LINK_CREATE, &a, 48, NULL, NULL, 0, 7);
	synth_fd(&s, seq, 100, BPFRR_FD_NEW, 7, BPFRR_OBJ_LINK, seq);
	synth_object(&s, &(struct bpfrr_rec_object){ .seq = seq, .tid = 100, .fd = 7, .kind = BPFRR_OBJ_LINK,
						     .id = 12, .type = BPF_LINK_TYPE_XDP, .attach_type = BPF_XDP,
						     .target = 2 });
	synth_graph_pin(&s, BPF_OBJ_PIN, "/sys/fs/bpf/xdp \"main\" \\link\xc3\xa9", 7, 0);

	/* #9 a cgroup, #10 a program, #11 attached to it without a link */
	synth_open(&s, "/sys/fs/cgroup/app", 8, BPFRR_OBJ_CGROUP);
	synth_graph_prog(&s, BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_EGRESS, 0, "egress", -1, 9);
	memset(&a, 0, sizeof(a));
	a.target_fd = 8;
	a.attach_bpf_fd = 9;
	a.attach_type = BPF_CGROUP_INET_EGRESS;
	synth_bpf(&s, 100, BPF_PROG_ATTACH, &a, 20, NULL, NULL, 0, 0);

	/* #12 fentry on vfs_read, #13 its link */
	synth_graph_prog(&s, BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, SYNTH_GRAPH_VFS_READ, "on_read", -1, 10);
	memset(&a, 0, sizeof(a));
	a.link_create.prog_fd = 10;
	a.link_create.attach_type = BPF_TRACE_FENTRY;
	seq = synth_bpf(&s, 100, BPF_LINK_CREATE, &a, 48, NULL, NULL, 0, 11);
	synth_fd(&s, seq, 100, BPFRR_FD_NEW, 11, BPFRR_OBJ_LINK, seq);

	/* a map the loader was handed (fd 20), #14 bound to the XDP program */
	synth_fd(&s, 0, 100, BPFRR_FD_ADOPT, 20, BPFRR_OBJ_MAP, 0);
	memset(&a, 0, sizeof(a));
	a.prog_bind_map.prog_fd = 6;
	a.prog_bind_map.map_fd = 20;
	synth_bpf(&s, 100, BPF_PROG_BIND_MAP, &a, 12, NULL, NULL, 0, 0);

	/* #15 a map from a pin */
	synth_graph_pin(&s, BPF_OBJ_GET, "/sys/fs/bpf/shared", 0, 12);

	/* #16 a map the kernel refuses */
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_HASH;
	a.key_size = 4;
	a.value_size = 8;
	a.max_entries = 0;
	strcpy(a.map_name, "bad");
	synth_bpf(&s, 100, BPF_MAP_CREATE, &a, 72, NULL, NULL, 0, -EINVAL);

	/* #17 a probe: BTF loaded, #18 closed at once */
	memset(&a, 0, sizeof(a));
	a.btf = 0x70000;
	a.btf_size = sizeof(btf_bytes);
	reg = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_BTF, "attr.btf", 0x70000, btf_bytes,
			   sizeof(btf_bytes));
	seq = synth_bpf(&s, 100, BPF_BTF_LOAD, &a, 32, NULL, &reg, 1, 13);
	synth_fd(&s, seq, 100, BPFRR_FD_NEW, 13, BPFRR_OBJ_BTF, seq);
	synth_fd(&s, ++s.seq, 100, BPFRR_FD_CLOSE, 13, BPFRR_OBJ_BTF, seq);

	synth_task(&s, BPFRR_TASK_EXIT, 100, 100, 0, 0, 0);
	if (s.err) {
		bpfrr_trace_abandon(s.w);
		return s.err;
	}
	return bpfrr_trace_close(s.w, 0, 0);
}

#endif /* BPFRR_SYNTH_GRAPH_H */

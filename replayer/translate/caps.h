/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * caps.h - what a kernel lets a BPF_PROG_TYPE_SYSCALL program do.
 *
 * Two facts decide whether a recorded call can be made by the loader
 * program on the running kernel:
 *  - does bpf_sys_bpf() accept the command (stock 6.12: nine commands);
 *  - for each pointer in the attr, how does the kernel read it when the
 *    attr comes from a syscall program: through a bpfptr_t that follows the
 *    attr into kernel memory (the pointer may address the loader's blob),
 *    or always as a user pointer (log_buf, raw_tracepoint.name on stock
 *    6.12: the buffer must be in the replayer's memory, which the loader
 *    can address because it runs in the replayer's process).
 * Getting the second one wrong in one direction only costs an -EFAULT
 * (a kernel address given for a user pointer); in the other it would make
 * the kernel dereference a user address as kernel memory.  So pointer
 * fields whose treatment is neither probed nor a property of the command
 * since its syscall-program support began are UNKNOWN, and calls using
 * them stay in user space.
 *
 * The caps come from probing the running kernel (runtime/probe.h, in the
 * guest only) or, for planning without a kernel, from a named assumption.
 */
#ifndef BPFRR_CAPS_H
#define BPFRR_CAPS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define BPFRR_CAPS_MAX_CMDS	64
#define BPFRR_CAPS_MAX_PTRS	64
#define BPFRR_CAPS_PATH_MAX	64

/* The patched kernel's own list (issue 5): "NUMBER NAME [POINTER...]" per
 * accepted command, POINTERs being the attr fields it reads from the
 * program's memory. */
#define BPFRR_CAPS_SYSFS	"/sys/kernel/bpf/syscall_prog_cmds"

enum bpfrr_ptr_sem {
	BPFRR_PTR_UNKNOWN = 0,	/* not known: the call must be made from user space */
	BPFRR_PTR_KERNEL = 1,	/* bpfptr_t: a syscall program passes kernel addresses */
	BPFRR_PTR_USER = 2,	/* always a user address, also from a syscall program */
};

struct bpfrr_caps_ptr {
	int cmd;
	char path[BPFRR_CAPS_PATH_MAX];	/* buffer path: "attr.log_buf" */
	uint8_t sem;			/* enum bpfrr_ptr_sem */
	int probe_ret;			/* what the probe saw (0 if not probed) */
	char basis[32];			/* "probed", "bpfptr_t", "kernel's list", "6.12 source" */
};

struct bpfrr_caps {
	char source[64];		/* "probed on 6.12.12", "assumed: stock-6.12" */
	uint64_t sys_bpf_cmds;		/* bit per command bpf_sys_bpf() accepts */
	int cmd_probe_ret[BPFRR_CAPS_MAX_CMDS];	/* the probe's answer per command (0 if assumed) */
	uint32_t nr_probed_cmds;
	uint32_t nr_ptrs;
	struct bpfrr_caps_ptr ptrs[BPFRR_CAPS_MAX_PTRS];
	/*
	 * Syscall programs can open perf events: the kernel's BTF has the
	 * kfunc of the series (kernel/README.md)
	 *   int bpf_perf_event_open(const struct perf_event_attr *attr,
	 *                           u32 attr__sz, int pid, int cpu, u64 flags);
	 * with the attr in the program's memory, pointers inside it (kprobe
	 * name, uprobe path) user addresses, no group.  Stock kernels lack it.
	 */
	bool perf_event_open;
	int32_t perf_event_open_btf_id;	/* its BTF type id in vmlinux */
	bool perf_event_open_unknown;	/* not looked up (probed without BPFRR_CAPS_PROBE_PERF) */
	char perf_event_open_basis[32];	/* "kernel's kfunc list", "BTF scan" ("" if assumed) */
	/* Where the running kernel's caps came from (runtime/probe.h; all zero when assumed) */
	uint8_t origin;			/* enum bpfrr_caps_origin */
	uint64_t probe_ns;		/* what finding them took */
	char cache[128];		/* the per-boot cache read or written ("" if none) */
	char cache_note[96];		/* why the cache was not used, or not written ("" if it was) */
};

enum bpfrr_caps_origin {
	BPFRR_CAPS_ASSUMED = 0,		/* a named assumption, no kernel */
	BPFRR_CAPS_FROM_LIST = 1,	/* the kernel's list (BPFRR_CAPS_SYSFS), no program run */
	BPFRR_CAPS_FROM_PROBE = 2,	/* probe programs run on this kernel */
	BPFRR_CAPS_FROM_CACHE = 3,	/* this boot's earlier probe, from the cache */
};

/* Names accepted by bpfrr_caps_assume(). */
#define BPFRR_CAPS_ASSUME_NAMES "stock-6.12, patched-6.12, none"

/*
 * What BPFRR_CAPS_SYSFS says on 6.12 with kernel/series applied (the guest
 * test kernel-caps-list.t checks it against the patched kernels).
 */
#define BPFRR_CAPS_SERIES_LIST \
	"0 BPF_MAP_CREATE excl_prog_hash\n" \
	"1 BPF_MAP_LOOKUP_ELEM key value\n" \
	"2 BPF_MAP_UPDATE_ELEM key value\n" \
	"3 BPF_MAP_DELETE_ELEM key\n" \
	"4 BPF_MAP_GET_NEXT_KEY key next_key\n" \
	"5 BPF_PROG_LOAD insns license fd_array func_info line_info core_relos signature\n" \
	"6 BPF_OBJ_PIN pathname\n" \
	"7 BPF_OBJ_GET pathname\n" \
	"8 BPF_PROG_ATTACH\n" \
	"9 BPF_PROG_DETACH\n" \
	"13 BPF_PROG_GET_FD_BY_ID\n" \
	"14 BPF_MAP_GET_FD_BY_ID\n" \
	"15 BPF_OBJ_GET_INFO_BY_FD info.info\n" \
	"17 BPF_RAW_TRACEPOINT_OPEN raw_tracepoint.name\n" \
	"18 BPF_BTF_LOAD btf\n" \
	"19 BPF_BTF_GET_FD_BY_ID\n" \
	"21 BPF_MAP_LOOKUP_AND_DELETE_ELEM key value\n" \
	"22 BPF_MAP_FREEZE\n" \
	"28 BPF_LINK_CREATE link_create.iter_info link_create.kprobe_multi.syms link_create.kprobe_multi.addrs " \
	"link_create.kprobe_multi.cookies link_create.uprobe_multi.path link_create.uprobe_multi.offsets " \
	"link_create.uprobe_multi.ref_ctr_offsets link_create.uprobe_multi.cookies\n" \
	"29 BPF_LINK_UPDATE\n" \
	"30 BPF_LINK_GET_FD_BY_ID\n" \
	"34 BPF_LINK_DETACH\n" \
	"35 BPF_PROG_BIND_MAP\n"

/*
 * Caps without a kernel: "stock-6.12" (what 6.12's source allows),
 * "patched-6.12" (the kernel's list above, the perf event kfunc; its BTF id
 * is a kernel's own, so such caps can plan but not run a replay) or "none"
 * (every call in user space).  -EINVAL for another name.
 */
int bpfrr_caps_assume(struct bpfrr_caps *caps, const char *name);

/*
 * Fills in the pointer treatment that follows from the accepted commands
 * alone (pointer fields those commands have read through bpfptr_t since
 * syscall programs could issue them).  Probed fields are added by the
 * caller with bpfrr_caps_set_ptr().
 */
void bpfrr_caps_init(struct bpfrr_caps *caps, uint64_t sys_bpf_cmds, const char *source);
int bpfrr_caps_set_ptr(struct bpfrr_caps *caps, int cmd, const char *path, enum bpfrr_ptr_sem sem,
		       int probe_ret, const char *basis);

static inline bool bpfrr_caps_cmd(const struct bpfrr_caps *caps, uint32_t cmd)
{
	return cmd < BPFRR_CAPS_MAX_CMDS && (caps->sys_bpf_cmds >> cmd & 1);
}

/* Treatment of the pointer at path ("attr.log_buf") of cmd; UNKNOWN if not known. */
enum bpfrr_ptr_sem bpfrr_caps_ptr(const struct bpfrr_caps *caps, uint32_t cmd, const char *path);

/* "from the kernel's list...", "probed...", "from this boot's cache...", "assumed" */
const char *bpfrr_caps_origin_desc(uint8_t origin);

/* Human-readable table of the caps. */
void bpfrr_caps_print(const struct bpfrr_caps *caps, FILE *out);

/*
 * Caps from the text of BPFRR_CAPS_SYSFS: the commands it lists, and as
 * kernel pointers the fields it names (any other pointer stays unknown
 * unless probed).  0, or -EINVAL with "line N: reason" in err.
 */
int bpfrr_caps_parse_list(struct bpfrr_caps *caps, const char *text, const char *source, char *err,
			  size_t err_size);

#endif /* BPFRR_CAPS_H */

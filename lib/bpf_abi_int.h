/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpf_abi_int.h - what the bpf_abi_*.c files share and nobody else needs:
 * the symbolic name tables and the 6.12 constants the walkers test.
 *
 * The constants are the 6.12 UAPI values, spelled out because the build
 * machine's <linux/bpf.h> may predate them (unit tests compare them with
 * the headers).
 */
#ifndef BPFRR_BPF_ABI_INT_H
#define BPFRR_BPF_ABI_INT_H

#include "bpf_abi.h"

/* enum bpf_map_type (the values the walkers care about) */
enum {
	ABI_MAP_TYPE_HASH = 1, ABI_MAP_TYPE_ARRAY = 2, ABI_MAP_TYPE_PROG_ARRAY = 3,
	ABI_MAP_TYPE_PERF_EVENT_ARRAY = 4, ABI_MAP_TYPE_PERCPU_HASH = 5,
	ABI_MAP_TYPE_PERCPU_ARRAY = 6, ABI_MAP_TYPE_CGROUP_ARRAY = 8, ABI_MAP_TYPE_LRU_HASH = 9,
	ABI_MAP_TYPE_LRU_PERCPU_HASH = 10, ABI_MAP_TYPE_ARRAY_OF_MAPS = 12,
	ABI_MAP_TYPE_HASH_OF_MAPS = 13, ABI_MAP_TYPE_DEVMAP = 14, ABI_MAP_TYPE_SOCKMAP = 15,
	ABI_MAP_TYPE_CPUMAP = 16, ABI_MAP_TYPE_XSKMAP = 17, ABI_MAP_TYPE_SOCKHASH = 18,
	ABI_MAP_TYPE_REUSEPORT_SOCKARRAY = 20, ABI_MAP_TYPE_PERCPU_CGROUP_STORAGE = 21,
	ABI_MAP_TYPE_DEVMAP_HASH = 25, ABI_MAP_TYPE_STRUCT_OPS = 26,
};

/* enum bpf_prog_type (the values variants depend on) */
enum {
	ABI_PROG_TYPE_KPROBE = 2, ABI_PROG_TYPE_SCHED_CLS = 3, ABI_PROG_TYPE_TRACEPOINT = 5,
	ABI_PROG_TYPE_PERF_EVENT = 7, ABI_PROG_TYPE_TRACING = 26, ABI_PROG_TYPE_EXT = 28,
	ABI_PROG_TYPE_LSM = 29, ABI_PROG_TYPE_SYSCALL = 31,
};

/* enum bpf_link_type */
enum {
	ABI_LINK_TYPE_RAW_TRACEPOINT = 1, ABI_LINK_TYPE_TRACING = 2, ABI_LINK_TYPE_CGROUP = 3,
	ABI_LINK_TYPE_ITER = 4, ABI_LINK_TYPE_NETNS = 5, ABI_LINK_TYPE_XDP = 6,
	ABI_LINK_TYPE_PERF_EVENT = 7, ABI_LINK_TYPE_KPROBE_MULTI = 8,
	ABI_LINK_TYPE_STRUCT_OPS = 9, ABI_LINK_TYPE_NETFILTER = 10, ABI_LINK_TYPE_TCX = 11,
	ABI_LINK_TYPE_UPROBE_MULTI = 12, ABI_LINK_TYPE_NETKIT = 13, ABI_LINK_TYPE_SOCKMAP = 14,
};

/* enum bpf_perf_event_type */
enum {
	ABI_PERF_EVENT_UPROBE = 1, ABI_PERF_EVENT_URETPROBE = 2, ABI_PERF_EVENT_KPROBE = 3,
	ABI_PERF_EVENT_KRETPROBE = 4, ABI_PERF_EVENT_TRACEPOINT = 5, ABI_PERF_EVENT_EVENT = 6,
};

/* flags */
#define ABI_F_REPLACE		(1u << 2)
#define ABI_F_ID		(1u << 5)
#define ABI_F_LINK		(1u << 13)
#define ABI_F_PATH_FD		(1u << 14)
#define ABI_F_VTYPE_BTF_OBJ_FD	(1u << 15)
#define ABI_F_TOKEN_FD		(1u << 16)

/* instruction encoding */
#define ABI_PSEUDO_MAP_FD	1
#define ABI_PSEUDO_MAP_VALUE	2
#define ABI_PSEUDO_BTF_ID	3
#define ABI_PSEUDO_FUNC		4
#define ABI_PSEUDO_MAP_IDX	5
#define ABI_PSEUDO_MAP_IDX_VALUE 6
#define ABI_PSEUDO_CALL		1
#define ABI_PSEUDO_KFUNC_CALL	2

/* Name tables (bpf_abi_names.c). */
extern const struct bpfrr_xlat bpfrr_xlat_cmd;
extern const struct bpfrr_xlat bpfrr_xlat_map_type;
extern const struct bpfrr_xlat bpfrr_xlat_prog_type;
extern const struct bpfrr_xlat bpfrr_xlat_attach_type;
extern const struct bpfrr_xlat bpfrr_xlat_link_type;
extern const struct bpfrr_xlat bpfrr_xlat_map_flags;
extern const struct bpfrr_xlat bpfrr_xlat_prog_flags;
extern const struct bpfrr_xlat bpfrr_xlat_elem_flags;
extern const struct bpfrr_xlat bpfrr_xlat_attach_flags;
extern const struct bpfrr_xlat bpfrr_xlat_xdp_flags;
extern const struct bpfrr_xlat bpfrr_xlat_file_flags;
extern const struct bpfrr_xlat bpfrr_xlat_open_flags;
extern const struct bpfrr_xlat bpfrr_xlat_query_flags;
extern const struct bpfrr_xlat bpfrr_xlat_test_run_flags;
extern const struct bpfrr_xlat bpfrr_xlat_token_flags;
extern const struct bpfrr_xlat bpfrr_xlat_log_level;
extern const struct bpfrr_xlat bpfrr_xlat_stats_type;
extern const struct bpfrr_xlat bpfrr_xlat_task_fd_type;
extern const struct bpfrr_xlat bpfrr_xlat_perf_event_type;
extern const struct bpfrr_xlat bpfrr_xlat_kprobe_multi_flags;
extern const struct bpfrr_xlat bpfrr_xlat_uprobe_multi_flags;
extern const struct bpfrr_xlat bpfrr_xlat_netfilter_flags;
extern const struct bpfrr_xlat bpfrr_xlat_nf_proto;
extern const struct bpfrr_xlat bpfrr_xlat_nf_hook;
extern const struct bpfrr_xlat bpfrr_xlat_link_update_flags;
extern const struct bpfrr_xlat bpfrr_xlat_cgroup_iter_order;

/* variant mask of union bpf_iter_link_info for an iterator target name (0: no fields) */
uint32_t bpfrr_abi_iter_variant(const char *target);

/* Every xlat, for tests and lookups by name; NULL-terminated. */
extern const struct bpfrr_xlat *const bpfrr_abi_all_xlats[];

#endif /* BPFRR_BPF_ABI_INT_H */

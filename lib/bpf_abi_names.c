// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf_abi_names.c - symbolic names of the Linux 6.12 bpf() UAPI: commands,
 * enums, flag bits and helper functions.
 *
 * Names are the UAPI's own spelling; their values are written out here
 * (not taken from <linux/bpf.h>, which on the build machine may be older).
 * tests/unit/test_bpf_abi.c compiles every name against the installed
 * header and, when a 6.12 tree is at hand, against its UAPI header.
 *
 * Short names ("hash", "kprobe", "cgroup_inet_ingress") come from libbpf's
 * libbpf_bpf_*_type_str() where libbpf knows the value; for values newer
 * than the libbpf we link against we use the same rule libbpf does: the
 * UAPI name without its prefix, in lower case.
 */
#include <stddef.h>
#include <bpf/libbpf.h>

#include "bpf_abi_int.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* --- commands --------------------------------------------------------------- */

static const char *const cmd_names[] = {
#define CMD_NAME(c, nr) [nr] = "BPF_" #c,
	BPFRR_CMD_LIST(CMD_NAME)
#undef CMD_NAME
};
_Static_assert(ARRAY_SIZE(cmd_names) == BPFRR_ABI_NR_CMDS, "one name per command");

const struct bpfrr_xlat bpfrr_xlat_cmd = {
	.type_name = "enum bpf_cmd", .dense = cmd_names, .nr_dense = ARRAY_SIZE(cmd_names),
	.header = "linux/bpf.h",
};

/* --- object types ------------------------------------------------------------ */

static const char *const map_type_names[] = {
	"BPF_MAP_TYPE_UNSPEC", "BPF_MAP_TYPE_HASH", "BPF_MAP_TYPE_ARRAY",
	"BPF_MAP_TYPE_PROG_ARRAY", "BPF_MAP_TYPE_PERF_EVENT_ARRAY", "BPF_MAP_TYPE_PERCPU_HASH",
	"BPF_MAP_TYPE_PERCPU_ARRAY", "BPF_MAP_TYPE_STACK_TRACE", "BPF_MAP_TYPE_CGROUP_ARRAY",
	"BPF_MAP_TYPE_LRU_HASH", "BPF_MAP_TYPE_LRU_PERCPU_HASH", "BPF_MAP_TYPE_LPM_TRIE",
	"BPF_MAP_TYPE_ARRAY_OF_MAPS", "BPF_MAP_TYPE_HASH_OF_MAPS", "BPF_MAP_TYPE_DEVMAP",
	"BPF_MAP_TYPE_SOCKMAP", "BPF_MAP_TYPE_CPUMAP", "BPF_MAP_TYPE_XSKMAP",
	"BPF_MAP_TYPE_SOCKHASH", "BPF_MAP_TYPE_CGROUP_STORAGE",
	"BPF_MAP_TYPE_REUSEPORT_SOCKARRAY", "BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE",
	"BPF_MAP_TYPE_QUEUE", "BPF_MAP_TYPE_STACK", "BPF_MAP_TYPE_SK_STORAGE",
	"BPF_MAP_TYPE_DEVMAP_HASH", "BPF_MAP_TYPE_STRUCT_OPS", "BPF_MAP_TYPE_RINGBUF",
	"BPF_MAP_TYPE_INODE_STORAGE", "BPF_MAP_TYPE_TASK_STORAGE", "BPF_MAP_TYPE_BLOOM_FILTER",
	"BPF_MAP_TYPE_USER_RINGBUF", "BPF_MAP_TYPE_CGRP_STORAGE", "BPF_MAP_TYPE_ARENA",
};

static const char *const prog_type_names[] = {
	"BPF_PROG_TYPE_UNSPEC", "BPF_PROG_TYPE_SOCKET_FILTER", "BPF_PROG_TYPE_KPROBE",
	"BPF_PROG_TYPE_SCHED_CLS", "BPF_PROG_TYPE_SCHED_ACT", "BPF_PROG_TYPE_TRACEPOINT",
	"BPF_PROG_TYPE_XDP", "BPF_PROG_TYPE_PERF_EVENT", "BPF_PROG_TYPE_CGROUP_SKB",
	"BPF_PROG_TYPE_CGROUP_SOCK", "BPF_PROG_TYPE_LWT_IN", "BPF_PROG_TYPE_LWT_OUT",
	"BPF_PROG_TYPE_LWT_XMIT", "BPF_PROG_TYPE_SOCK_OPS", "BPF_PROG_TYPE_SK_SKB",
	"BPF_PROG_TYPE_CGROUP_DEVICE", "BPF_PROG_TYPE_SK_MSG", "BPF_PROG_TYPE_RAW_TRACEPOINT",
	"BPF_PROG_TYPE_CGROUP_SOCK_ADDR", "BPF_PROG_TYPE_LWT_SEG6LOCAL",
	"BPF_PROG_TYPE_LIRC_MODE2", "BPF_PROG_TYPE_SK_REUSEPORT", "BPF_PROG_TYPE_FLOW_DISSECTOR",
	"BPF_PROG_TYPE_CGROUP_SYSCTL", "BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE",
	"BPF_PROG_TYPE_CGROUP_SOCKOPT", "BPF_PROG_TYPE_TRACING", "BPF_PROG_TYPE_STRUCT_OPS",
	"BPF_PROG_TYPE_EXT", "BPF_PROG_TYPE_LSM", "BPF_PROG_TYPE_SK_LOOKUP",
	"BPF_PROG_TYPE_SYSCALL", "BPF_PROG_TYPE_NETFILTER",
};

static const char *const attach_type_names[] = {
	"BPF_CGROUP_INET_INGRESS", "BPF_CGROUP_INET_EGRESS", "BPF_CGROUP_INET_SOCK_CREATE",
	"BPF_CGROUP_SOCK_OPS", "BPF_SK_SKB_STREAM_PARSER", "BPF_SK_SKB_STREAM_VERDICT",
	"BPF_CGROUP_DEVICE", "BPF_SK_MSG_VERDICT", "BPF_CGROUP_INET4_BIND",
	"BPF_CGROUP_INET6_BIND", "BPF_CGROUP_INET4_CONNECT", "BPF_CGROUP_INET6_CONNECT",
	"BPF_CGROUP_INET4_POST_BIND", "BPF_CGROUP_INET6_POST_BIND", "BPF_CGROUP_UDP4_SENDMSG",
	"BPF_CGROUP_UDP6_SENDMSG", "BPF_LIRC_MODE2", "BPF_FLOW_DISSECTOR", "BPF_CGROUP_SYSCTL",
	"BPF_CGROUP_UDP4_RECVMSG", "BPF_CGROUP_UDP6_RECVMSG", "BPF_CGROUP_GETSOCKOPT",
	"BPF_CGROUP_SETSOCKOPT", "BPF_TRACE_RAW_TP", "BPF_TRACE_FENTRY", "BPF_TRACE_FEXIT",
	"BPF_MODIFY_RETURN", "BPF_LSM_MAC", "BPF_TRACE_ITER", "BPF_CGROUP_INET4_GETPEERNAME",
	"BPF_CGROUP_INET6_GETPEERNAME", "BPF_CGROUP_INET4_GETSOCKNAME",
	"BPF_CGROUP_INET6_GETSOCKNAME", "BPF_XDP_DEVMAP", "BPF_CGROUP_INET_SOCK_RELEASE",
	"BPF_XDP_CPUMAP", "BPF_SK_LOOKUP", "BPF_XDP", "BPF_SK_SKB_VERDICT",
	"BPF_SK_REUSEPORT_SELECT", "BPF_SK_REUSEPORT_SELECT_OR_MIGRATE", "BPF_PERF_EVENT",
	"BPF_TRACE_KPROBE_MULTI", "BPF_LSM_CGROUP", "BPF_STRUCT_OPS", "BPF_NETFILTER",
	"BPF_TCX_INGRESS", "BPF_TCX_EGRESS", "BPF_TRACE_UPROBE_MULTI", "BPF_CGROUP_UNIX_CONNECT",
	"BPF_CGROUP_UNIX_SENDMSG", "BPF_CGROUP_UNIX_RECVMSG", "BPF_CGROUP_UNIX_GETPEERNAME",
	"BPF_CGROUP_UNIX_GETSOCKNAME", "BPF_NETKIT_PRIMARY", "BPF_NETKIT_PEER",
	"BPF_TRACE_KPROBE_SESSION",
};

static const char *const link_type_names[] = {
	"BPF_LINK_TYPE_UNSPEC", "BPF_LINK_TYPE_RAW_TRACEPOINT", "BPF_LINK_TYPE_TRACING",
	"BPF_LINK_TYPE_CGROUP", "BPF_LINK_TYPE_ITER", "BPF_LINK_TYPE_NETNS", "BPF_LINK_TYPE_XDP",
	"BPF_LINK_TYPE_PERF_EVENT", "BPF_LINK_TYPE_KPROBE_MULTI", "BPF_LINK_TYPE_STRUCT_OPS",
	"BPF_LINK_TYPE_NETFILTER", "BPF_LINK_TYPE_TCX", "BPF_LINK_TYPE_UPROBE_MULTI",
	"BPF_LINK_TYPE_NETKIT", "BPF_LINK_TYPE_SOCKMAP",
};

/*
 * Short names of values libbpf 1.1 does not know (it returns NULL for
 * them). Same rule as libbpf's: UAPI name minus prefix, lower case; a unit
 * test checks the rule holds for every entry.
 */
static const char *const map_type_short_new[] = {
	[33] = "arena",
};
static const char *const prog_type_short_new[] = {
	[32] = "netfilter",
};
static const char *const attach_type_short_new[] = {
	[44] = "struct_ops", "netfilter", "tcx_ingress", "tcx_egress", "trace_uprobe_multi",
	"cgroup_unix_connect", "cgroup_unix_sendmsg", "cgroup_unix_recvmsg",
	"cgroup_unix_getpeername", "cgroup_unix_getsockname", "netkit_primary", "netkit_peer",
	"trace_kprobe_session",
};
static const char *const link_type_short_new[] = {
	[10] = "netfilter", "tcx", "uprobe_multi", "netkit", "sockmap",
};
_Static_assert(ARRAY_SIZE(map_type_short_new) == ARRAY_SIZE(map_type_names), "map types");
_Static_assert(ARRAY_SIZE(prog_type_short_new) == ARRAY_SIZE(prog_type_names), "prog types");
_Static_assert(ARRAY_SIZE(attach_type_short_new) == ARRAY_SIZE(attach_type_names), "attach types");
_Static_assert(ARRAY_SIZE(link_type_short_new) == ARRAY_SIZE(link_type_names), "link types");

const char *bpfrr_abi_map_type_name(uint32_t v)
{
	const char *name = v < ARRAY_SIZE(map_type_names) ? libbpf_bpf_map_type_str(v) : NULL;

	if (!name && v < ARRAY_SIZE(map_type_short_new))
		name = map_type_short_new[v];
	return name;
}

const char *bpfrr_abi_prog_type_name(uint32_t v)
{
	const char *name = v < ARRAY_SIZE(prog_type_names) ? libbpf_bpf_prog_type_str(v) : NULL;

	if (!name && v < ARRAY_SIZE(prog_type_short_new))
		name = prog_type_short_new[v];
	return name;
}

const char *bpfrr_abi_attach_type_name(uint32_t v)
{
	const char *name = v < ARRAY_SIZE(attach_type_names) ? libbpf_bpf_attach_type_str(v) : NULL;

	if (!name && v < ARRAY_SIZE(attach_type_short_new))
		name = attach_type_short_new[v];
	return name;
}

const char *bpfrr_abi_link_type_name(uint32_t v)
{
	const char *name = v < ARRAY_SIZE(link_type_names) ? libbpf_bpf_link_type_str(v) : NULL;

	if (!name && v < ARRAY_SIZE(link_type_short_new))
		name = link_type_short_new[v];
	return name;
}

static const char *map_type_short(uint64_t v)
{
	return v > UINT32_MAX ? NULL : bpfrr_abi_map_type_name(v);
}

static const char *prog_type_short(uint64_t v)
{
	return v > UINT32_MAX ? NULL : bpfrr_abi_prog_type_name(v);
}

static const char *attach_type_short(uint64_t v)
{
	return v > UINT32_MAX ? NULL : bpfrr_abi_attach_type_name(v);
}

static const char *link_type_short(uint64_t v)
{
	return v > UINT32_MAX ? NULL : bpfrr_abi_link_type_name(v);
}

#define DENSE(arr) .dense = arr, .nr_dense = ARRAY_SIZE(arr)

const struct bpfrr_xlat bpfrr_xlat_map_type = {
	.type_name = "enum bpf_map_type", DENSE(map_type_names), .name_fn = map_type_short,
	.header = "linux/bpf.h",
};
const struct bpfrr_xlat bpfrr_xlat_prog_type = {
	.type_name = "enum bpf_prog_type", DENSE(prog_type_names), .name_fn = prog_type_short,
	.header = "linux/bpf.h",
};
const struct bpfrr_xlat bpfrr_xlat_attach_type = {
	.type_name = "enum bpf_attach_type", DENSE(attach_type_names), .name_fn = attach_type_short,
	.header = "linux/bpf.h",
};
const struct bpfrr_xlat bpfrr_xlat_link_type = {
	.type_name = "enum bpf_link_type", DENSE(link_type_names), .name_fn = link_type_short,
	.header = "linux/bpf.h",
};

/* --- other enums ------------------------------------------------------------- */

static const char *const stats_type_names[] = { "BPF_STATS_RUN_TIME" };
const struct bpfrr_xlat bpfrr_xlat_stats_type = {
	.type_name = "enum bpf_stats_type", DENSE(stats_type_names), .header = "linux/bpf.h",
};

static const char *const task_fd_type_names[] = {
	"BPF_FD_TYPE_RAW_TRACEPOINT", "BPF_FD_TYPE_TRACEPOINT", "BPF_FD_TYPE_KPROBE",
	"BPF_FD_TYPE_KRETPROBE", "BPF_FD_TYPE_UPROBE", "BPF_FD_TYPE_URETPROBE",
};
const struct bpfrr_xlat bpfrr_xlat_task_fd_type = {
	.type_name = "enum bpf_task_fd_type", DENSE(task_fd_type_names), .header = "linux/bpf.h",
};

static const char *const perf_event_type_names[] = {
	"BPF_PERF_EVENT_UNSPEC", "BPF_PERF_EVENT_UPROBE", "BPF_PERF_EVENT_URETPROBE",
	"BPF_PERF_EVENT_KPROBE", "BPF_PERF_EVENT_KRETPROBE", "BPF_PERF_EVENT_TRACEPOINT",
	"BPF_PERF_EVENT_EVENT",
};
const struct bpfrr_xlat bpfrr_xlat_perf_event_type = {
	.type_name = "enum bpf_perf_event_type", DENSE(perf_event_type_names),
	.header = "linux/bpf.h",
};

static const char *const cgroup_iter_order_names[] = {
	"BPF_CGROUP_ITER_ORDER_UNSPEC", "BPF_CGROUP_ITER_SELF_ONLY",
	"BPF_CGROUP_ITER_DESCENDANTS_PRE", "BPF_CGROUP_ITER_DESCENDANTS_POST",
	"BPF_CGROUP_ITER_ANCESTORS_UP",
};
const struct bpfrr_xlat bpfrr_xlat_cgroup_iter_order = {
	.type_name = "enum bpf_cgroup_iter_order", DENSE(cgroup_iter_order_names),
	.header = "linux/bpf.h",
};

/* linux/netfilter.h: NFPROTO_* and enum nf_inet_hooks */
static const struct bpfrr_xlat_entry nf_proto_entries[] = {
	{ 0, "NFPROTO_UNSPEC" }, { 1, "NFPROTO_INET" }, { 2, "NFPROTO_IPV4" },
	{ 3, "NFPROTO_ARP" }, { 5, "NFPROTO_NETDEV" }, { 7, "NFPROTO_BRIDGE" },
	{ 10, "NFPROTO_IPV6" }, { 0, NULL }
};
const struct bpfrr_xlat bpfrr_xlat_nf_proto = {
	.type_name = "NFPROTO_*", .entries = nf_proto_entries, .header = "linux/netfilter.h",
};

static const char *const nf_hook_names[] = {
	"NF_INET_PRE_ROUTING", "NF_INET_LOCAL_IN", "NF_INET_FORWARD", "NF_INET_LOCAL_OUT",
	"NF_INET_POST_ROUTING",
};
const struct bpfrr_xlat bpfrr_xlat_nf_hook = {
	.type_name = "enum nf_inet_hooks", DENSE(nf_hook_names), .header = "linux/netfilter.h",
};

/* --- flags ----------------------------------------------------------------------- */

static const struct bpfrr_xlat_entry map_flag_entries[] = {
	{ 1u << 0, "BPF_F_NO_PREALLOC" }, { 1u << 1, "BPF_F_NO_COMMON_LRU" },
	{ 1u << 2, "BPF_F_NUMA_NODE" }, { 1u << 3, "BPF_F_RDONLY" }, { 1u << 4, "BPF_F_WRONLY" },
	{ 1u << 5, "BPF_F_STACK_BUILD_ID" }, { 1u << 6, "BPF_F_ZERO_SEED" },
	{ 1u << 7, "BPF_F_RDONLY_PROG" }, { 1u << 8, "BPF_F_WRONLY_PROG" },
	{ 1u << 9, "BPF_F_CLONE" }, { 1u << 10, "BPF_F_MMAPABLE" },
	{ 1u << 11, "BPF_F_PRESERVE_ELEMS" }, { 1u << 12, "BPF_F_INNER_MAP" },
	{ 1u << 13, "BPF_F_LINK" }, { 1u << 14, "BPF_F_PATH_FD" },
	{ 1u << 15, "BPF_F_VTYPE_BTF_OBJ_FD" }, { 1u << 16, "BPF_F_TOKEN_FD" },
	{ 1u << 17, "BPF_F_SEGV_ON_FAULT" }, { 1u << 18, "BPF_F_NO_USER_CONV" },
	{ 0, NULL }
};
const struct bpfrr_xlat bpfrr_xlat_map_flags = {
	.type_name = "BPF_MAP_CREATE flags", .flags = true, .entries = map_flag_entries,
	.header = "linux/bpf.h",
};

static const struct bpfrr_xlat_entry prog_flag_entries[] = {
	{ 1u << 0, "BPF_F_STRICT_ALIGNMENT" }, { 1u << 1, "BPF_F_ANY_ALIGNMENT" },
	{ 1u << 2, "BPF_F_TEST_RND_HI32" }, { 1u << 3, "BPF_F_TEST_STATE_FREQ" },
	{ 1u << 4, "BPF_F_SLEEPABLE" }, { 1u << 5, "BPF_F_XDP_HAS_FRAGS" },
	{ 1u << 6, "BPF_F_XDP_DEV_BOUND_ONLY" }, { 1u << 7, "BPF_F_TEST_REG_INVARIANTS" },
	{ 1u << 16, "BPF_F_TOKEN_FD" },
	{ 0, NULL }
};
const struct bpfrr_xlat bpfrr_xlat_prog_flags = {
	.type_name = "BPF_PROG_LOAD flags", .flags = true, .entries = prog_flag_entries,
	.header = "linux/bpf.h",
};

/* BPF_ANY is 0: the zero name of the flags. NOEXIST/EXIST are exclusive values in
 * the low bits, which renders as a flag of its own all the same. */
static const struct bpfrr_xlat_entry elem_flag_entries[] = {
	{ 0, "BPF_ANY" }, { 1, "BPF_NOEXIST" }, { 2, "BPF_EXIST" }, { 4, "BPF_F_LOCK" },
	{ 0, NULL }
};
const struct bpfrr_xlat bpfrr_xlat_elem_flags = {
	.type_name = "BPF_MAP_*_ELEM flags", .flags = true, .entries = elem_flag_entries,
	.header = "linux/bpf.h",
};

static const struct bpfrr_xlat_entry attach_flag_entries[] = {
	{ 1u << 0, "BPF_F_ALLOW_OVERRIDE" }, { 1u << 1, "BPF_F_ALLOW_MULTI" },
	{ 1u << 2, "BPF_F_REPLACE" }, { 1u << 3, "BPF_F_BEFORE" }, { 1u << 4, "BPF_F_AFTER" },
	{ 1u << 5, "BPF_F_ID" }, { 1u << 6, "BPF_F_PREORDER" }, { 1u << 13, "BPF_F_LINK" },
	{ 0, NULL }
};
const struct bpfrr_xlat bpfrr_xlat_attach_flags = {
	.type_name = "attach flags", .flags = true, .entries = attach_flag_entries,
	.header = "linux/bpf.h",
};

/* linux/if_link.h: link_create.flags of an XDP link */
static const struct bpfrr_xlat_entry xdp_flag_entries[] = {
	{ 1u << 0, "XDP_FLAGS_UPDATE_IF_NOEXIST" }, { 1u << 1, "XDP_FLAGS_SKB_MODE" },
	{ 1u << 2, "XDP_FLAGS_DRV_MODE" }, { 1u << 3, "XDP_FLAGS_HW_MODE" },
	{ 1u << 4, "XDP_FLAGS_REPLACE" },
	{ 0, NULL }
};
const struct bpfrr_xlat bpfrr_xlat_xdp_flags = {
	.type_name = "XDP_FLAGS_*", .flags = true, .entries = xdp_flag_entries,
	.header = "linux/if_link.h",
};

static const struct bpfrr_xlat_entry file_flag_entries[] = {
	{ 1u << 3, "BPF_F_RDONLY" }, { 1u << 4, "BPF_F_WRONLY" }, { 1u << 14, "BPF_F_PATH_FD" },
	{ 0, NULL }
};
const struct bpfrr_xlat bpfrr_xlat_file_flags = {
	.type_name = "BPF_OBJ_* file_flags", .flags = true, .entries = file_flag_entries,
	.header = "linux/bpf.h",
};

static const struct bpfrr_xlat_entry open_flag_entries[] = {
	{ 1u << 3, "BPF_F_RDONLY" }, { 1u << 4, "BPF_F_WRONLY" }, { 1u << 16, "BPF_F_TOKEN_FD" },
	{ 0, NULL }
};
const struct bpfrr_xlat bpfrr_xlat_open_flags = {
	.type_name = "BPF_*_GET_FD_BY_ID open_flags", .flags = true, .entries = open_flag_entries,
	.header = "linux/bpf.h",
};

static const struct bpfrr_xlat_entry query_flag_entries[] = {
	{ 1u << 0, "BPF_F_QUERY_EFFECTIVE" },
	{ 0, NULL }
};
const struct bpfrr_xlat bpfrr_xlat_query_flags = {
	.type_name = "BPF_PROG_QUERY flags", .flags = true, .entries = query_flag_entries,
	.header = "linux/bpf.h",
};

static const struct bpfrr_xlat_entry test_run_flag_entries[] = {
	{ 1u << 0, "BPF_F_TEST_RUN_ON_CPU" }, { 1u << 1, "BPF_F_TEST_XDP_LIVE_FRAMES" },
	{ 1u << 2, "BPF_F_TEST_SKB_CHECKSUM_COMPLETE" },
	{ 0, NULL }
};
const struct bpfrr_xlat bpfrr_xlat_test_run_flags = {
	.type_name = "BPF_PROG_TEST_RUN flags", .flags = true, .entries = test_run_flag_entries,
	.header = "linux/bpf.h",
};

static const struct bpfrr_xlat_entry token_flag_entries[] = {
	{ 1u << 16, "BPF_F_TOKEN_FD" },
	{ 0, NULL }
};
const struct bpfrr_xlat bpfrr_xlat_token_flags = {
	.type_name = "BPF_F_TOKEN_FD", .flags = true, .entries = token_flag_entries,
	.header = "linux/bpf.h",
};

/* Verifier log levels are kernel-internal names (include/linux/bpf_verifier.h). */
static const struct bpfrr_xlat_entry log_level_entries[] = {
	{ 1, "BPF_LOG_LEVEL1" }, { 2, "BPF_LOG_LEVEL2" }, { 4, "BPF_LOG_STATS" },
	{ 8, "BPF_LOG_FIXED" },
	{ 0, NULL }
};
const struct bpfrr_xlat bpfrr_xlat_log_level = {
	.type_name = "log_level", .flags = true, .entries = log_level_entries,
};

static const struct bpfrr_xlat_entry kprobe_multi_flag_entries[] = {
	{ 1u << 0, "BPF_F_KPROBE_MULTI_RETURN" },
	{ 0, NULL }
};
const struct bpfrr_xlat bpfrr_xlat_kprobe_multi_flags = {
	.type_name = "kprobe_multi flags", .flags = true, .entries = kprobe_multi_flag_entries,
	.header = "linux/bpf.h",
};

static const struct bpfrr_xlat_entry uprobe_multi_flag_entries[] = {
	{ 1u << 0, "BPF_F_UPROBE_MULTI_RETURN" },
	{ 0, NULL }
};
const struct bpfrr_xlat bpfrr_xlat_uprobe_multi_flags = {
	.type_name = "uprobe_multi flags", .flags = true, .entries = uprobe_multi_flag_entries,
	.header = "linux/bpf.h",
};

static const struct bpfrr_xlat_entry netfilter_flag_entries[] = {
	{ 1u << 0, "BPF_F_NETFILTER_IP_DEFRAG" },
	{ 0, NULL }
};
const struct bpfrr_xlat bpfrr_xlat_netfilter_flags = {
	.type_name = "netfilter flags", .flags = true, .entries = netfilter_flag_entries,
	.header = "linux/bpf.h",
};

static const struct bpfrr_xlat_entry link_update_flag_entries[] = {
	{ 1u << 2, "BPF_F_REPLACE" },
	{ 0, NULL }
};
const struct bpfrr_xlat bpfrr_xlat_link_update_flags = {
	.type_name = "BPF_LINK_UPDATE flags", .flags = true, .entries = link_update_flag_entries,
	.header = "linux/bpf.h",
};

const struct bpfrr_xlat *const bpfrr_abi_all_xlats[] = {
	&bpfrr_xlat_cmd, &bpfrr_xlat_map_type, &bpfrr_xlat_prog_type, &bpfrr_xlat_attach_type,
	&bpfrr_xlat_link_type, &bpfrr_xlat_map_flags, &bpfrr_xlat_prog_flags,
	&bpfrr_xlat_elem_flags, &bpfrr_xlat_attach_flags, &bpfrr_xlat_xdp_flags,
	&bpfrr_xlat_file_flags, &bpfrr_xlat_open_flags, &bpfrr_xlat_query_flags,
	&bpfrr_xlat_test_run_flags, &bpfrr_xlat_token_flags, &bpfrr_xlat_log_level,
	&bpfrr_xlat_stats_type, &bpfrr_xlat_task_fd_type, &bpfrr_xlat_perf_event_type,
	&bpfrr_xlat_kprobe_multi_flags, &bpfrr_xlat_uprobe_multi_flags,
	&bpfrr_xlat_netfilter_flags, &bpfrr_xlat_nf_proto, &bpfrr_xlat_nf_hook,
	&bpfrr_xlat_link_update_flags, &bpfrr_xlat_cgroup_iter_order,
	NULL
};

/* --- helper functions ------------------------------------------------------------ */

/* BPF_FUNC_* ids of 6.12, in the order of its __BPF_FUNC_MAPPER list. */
static const char *const helper_names[] = {
	NULL,				/* 0: BPF_FUNC_unspec */
	"bpf_map_lookup_elem",
	"bpf_map_update_elem",
	"bpf_map_delete_elem",
	"bpf_probe_read",
	"bpf_ktime_get_ns",
	"bpf_trace_printk",
	"bpf_get_prandom_u32",
	"bpf_get_smp_processor_id",
	"bpf_skb_store_bytes",
	"bpf_l3_csum_replace",
	"bpf_l4_csum_replace",
	"bpf_tail_call",
	"bpf_clone_redirect",
	"bpf_get_current_pid_tgid",
	"bpf_get_current_uid_gid",
	"bpf_get_current_comm",
	"bpf_get_cgroup_classid",
	"bpf_skb_vlan_push",
	"bpf_skb_vlan_pop",
	"bpf_skb_get_tunnel_key",
	"bpf_skb_set_tunnel_key",
	"bpf_perf_event_read",
	"bpf_redirect",
	"bpf_get_route_realm",
	"bpf_perf_event_output",
	"bpf_skb_load_bytes",
	"bpf_get_stackid",
	"bpf_csum_diff",
	"bpf_skb_get_tunnel_opt",
	"bpf_skb_set_tunnel_opt",
	"bpf_skb_change_proto",
	"bpf_skb_change_type",
	"bpf_skb_under_cgroup",
	"bpf_get_hash_recalc",
	"bpf_get_current_task",
	"bpf_probe_write_user",
	"bpf_current_task_under_cgroup",
	"bpf_skb_change_tail",
	"bpf_skb_pull_data",
	"bpf_csum_update",
	"bpf_set_hash_invalid",
	"bpf_get_numa_node_id",
	"bpf_skb_change_head",
	"bpf_xdp_adjust_head",
	"bpf_probe_read_str",
	"bpf_get_socket_cookie",
	"bpf_get_socket_uid",
	"bpf_set_hash",
	"bpf_setsockopt",
	"bpf_skb_adjust_room",
	"bpf_redirect_map",
	"bpf_sk_redirect_map",
	"bpf_sock_map_update",
	"bpf_xdp_adjust_meta",
	"bpf_perf_event_read_value",
	"bpf_perf_prog_read_value",
	"bpf_getsockopt",
	"bpf_override_return",
	"bpf_sock_ops_cb_flags_set",
	"bpf_msg_redirect_map",
	"bpf_msg_apply_bytes",
	"bpf_msg_cork_bytes",
	"bpf_msg_pull_data",
	"bpf_bind",
	"bpf_xdp_adjust_tail",
	"bpf_skb_get_xfrm_state",
	"bpf_get_stack",
	"bpf_skb_load_bytes_relative",
	"bpf_fib_lookup",
	"bpf_sock_hash_update",
	"bpf_msg_redirect_hash",
	"bpf_sk_redirect_hash",
	"bpf_lwt_push_encap",
	"bpf_lwt_seg6_store_bytes",
	"bpf_lwt_seg6_adjust_srh",
	"bpf_lwt_seg6_action",
	"bpf_rc_repeat",
	"bpf_rc_keydown",
	"bpf_skb_cgroup_id",
	"bpf_get_current_cgroup_id",
	"bpf_get_local_storage",
	"bpf_sk_select_reuseport",
	"bpf_skb_ancestor_cgroup_id",
	"bpf_sk_lookup_tcp",
	"bpf_sk_lookup_udp",
	"bpf_sk_release",
	"bpf_map_push_elem",
	"bpf_map_pop_elem",
	"bpf_map_peek_elem",
	"bpf_msg_push_data",
	"bpf_msg_pop_data",
	"bpf_rc_pointer_rel",
	"bpf_spin_lock",
	"bpf_spin_unlock",
	"bpf_sk_fullsock",
	"bpf_tcp_sock",
	"bpf_skb_ecn_set_ce",
	"bpf_get_listener_sock",
	"bpf_skc_lookup_tcp",
	"bpf_tcp_check_syncookie",
	"bpf_sysctl_get_name",
	"bpf_sysctl_get_current_value",
	"bpf_sysctl_get_new_value",
	"bpf_sysctl_set_new_value",
	"bpf_strtol",
	"bpf_strtoul",
	"bpf_sk_storage_get",
	"bpf_sk_storage_delete",
	"bpf_send_signal",
	"bpf_tcp_gen_syncookie",
	"bpf_skb_output",
	"bpf_probe_read_user",
	"bpf_probe_read_kernel",
	"bpf_probe_read_user_str",
	"bpf_probe_read_kernel_str",
	"bpf_tcp_send_ack",
	"bpf_send_signal_thread",
	"bpf_jiffies64",
	"bpf_read_branch_records",
	"bpf_get_ns_current_pid_tgid",
	"bpf_xdp_output",
	"bpf_get_netns_cookie",
	"bpf_get_current_ancestor_cgroup_id",
	"bpf_sk_assign",
	"bpf_ktime_get_boot_ns",
	"bpf_seq_printf",
	"bpf_seq_write",
	"bpf_sk_cgroup_id",
	"bpf_sk_ancestor_cgroup_id",
	"bpf_ringbuf_output",
	"bpf_ringbuf_reserve",
	"bpf_ringbuf_submit",
	"bpf_ringbuf_discard",
	"bpf_ringbuf_query",
	"bpf_csum_level",
	"bpf_skc_to_tcp6_sock",
	"bpf_skc_to_tcp_sock",
	"bpf_skc_to_tcp_timewait_sock",
	"bpf_skc_to_tcp_request_sock",
	"bpf_skc_to_udp6_sock",
	"bpf_get_task_stack",
	"bpf_load_hdr_opt",
	"bpf_store_hdr_opt",
	"bpf_reserve_hdr_opt",
	"bpf_inode_storage_get",
	"bpf_inode_storage_delete",
	"bpf_d_path",
	"bpf_copy_from_user",
	"bpf_snprintf_btf",
	"bpf_seq_printf_btf",
	"bpf_skb_cgroup_classid",
	"bpf_redirect_neigh",
	"bpf_per_cpu_ptr",
	"bpf_this_cpu_ptr",
	"bpf_redirect_peer",
	"bpf_task_storage_get",
	"bpf_task_storage_delete",
	"bpf_get_current_task_btf",
	"bpf_bprm_opts_set",
	"bpf_ktime_get_coarse_ns",
	"bpf_ima_inode_hash",
	"bpf_sock_from_file",
	"bpf_check_mtu",
	"bpf_for_each_map_elem",
	"bpf_snprintf",
	"bpf_sys_bpf",
	"bpf_btf_find_by_name_kind",
	"bpf_sys_close",
	"bpf_timer_init",
	"bpf_timer_set_callback",
	"bpf_timer_start",
	"bpf_timer_cancel",
	"bpf_get_func_ip",
	"bpf_get_attach_cookie",
	"bpf_task_pt_regs",
	"bpf_get_branch_snapshot",
	"bpf_trace_vprintk",
	"bpf_skc_to_unix_sock",
	"bpf_kallsyms_lookup_name",
	"bpf_find_vma",
	"bpf_loop",
	"bpf_strncmp",
	"bpf_get_func_arg",
	"bpf_get_func_ret",
	"bpf_get_func_arg_cnt",
	"bpf_get_retval",
	"bpf_set_retval",
	"bpf_xdp_get_buff_len",
	"bpf_xdp_load_bytes",
	"bpf_xdp_store_bytes",
	"bpf_copy_from_user_task",
	"bpf_skb_set_tstamp",
	"bpf_ima_file_hash",
	"bpf_kptr_xchg",
	"bpf_map_lookup_percpu_elem",
	"bpf_skc_to_mptcp_sock",
	"bpf_dynptr_from_mem",
	"bpf_ringbuf_reserve_dynptr",
	"bpf_ringbuf_submit_dynptr",
	"bpf_ringbuf_discard_dynptr",
	"bpf_dynptr_read",
	"bpf_dynptr_write",
	"bpf_dynptr_data",
	"bpf_tcp_raw_gen_syncookie_ipv4",
	"bpf_tcp_raw_gen_syncookie_ipv6",
	"bpf_tcp_raw_check_syncookie_ipv4",
	"bpf_tcp_raw_check_syncookie_ipv6",
	"bpf_ktime_get_tai_ns",
	"bpf_user_ringbuf_drain",
	"bpf_cgrp_storage_get",
	"bpf_cgrp_storage_delete",
};
_Static_assert(ARRAY_SIZE(helper_names) == BPFRR_ABI_NR_HELPERS, "6.12 has helpers 0..211");

const char *bpfrr_abi_helper_name(int32_t func_id)
{
	if (func_id <= 0 || (uint32_t)func_id >= ARRAY_SIZE(helper_names))
		return NULL;
	return helper_names[func_id];
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf_abi_table.c - the Linux 6.12 bpf() UAPI as data.
 *
 * For each command, the fields of its part of union bpf_attr; for
 * BPF_OBJ_GET_INFO_BY_FD, the info structs. Offsets and sizes are those of
 * the 6.12 UAPI header, written out: tests/unit/test_bpf_abi.c checks each
 * against the installed <linux/bpf.h> (fields it has) and against a 6.12
 * UAPI header when one is at hand. Field names are the C member paths
 * ("link_create.kprobe_multi.syms"), which is what lets the test check them.
 *
 * Union members sharing bytes are separate fields with disjoint variant
 * bits; a command's variant function (below) tells which apply to a call.
 */
#include <stddef.h>
#include <string.h>

#include "bpf_abi_int.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* --- variant bits ---------------------------------------------------------------
 * attr variants (per call) */
#define V_TGT_CGROUP	(1u << 0)	/* target_fd is a cgroup fd */
#define V_TGT_MAP	(1u << 1)	/* target_fd is a sockmap/sockhash fd */
#define V_TGT_DEVICE	(1u << 2)	/* target_fd is a lirc device fd */
#define V_TGT_NETNS	(1u << 3)	/* target_fd is a netns fd */
#define V_TGT_IFINDEX	(1u << 4)	/* target_ifindex */
#define V_TGT_NONE	(1u << 5)	/* no target object: target_fd is a plain number */
#define V_TGT_PROG	(1u << 6)	/* target_fd is a BPF program (fentry on prog, freplace) */
#define V_TGT_PERF	(1u << 7)	/* target_fd is a perf event */
#define V_TGT_ANY	(1u << 8)	/* unknown attach type: some fd */
#define V_REL_PROG	(1u << 9)	/* relative_fd is a program */
#define V_REL_LINK	(1u << 10)	/* relative_fd is a link (BPF_F_LINK) */
#define V_REL_ID	(1u << 11)	/* relative_id (BPF_F_ID) */
#define V_LC_TRACING	(1u << 12)	/* link_create: target_btf_id / tracing.* */
#define V_LC_RAW_TP	(1u << 13)	/* link_create: tracing.cookie only */
#define V_LC_ITER	(1u << 14)
#define V_LC_PERF	(1u << 15)
#define V_LC_KMULTI	(1u << 16)
#define V_LC_UMULTI	(1u << 17)
#define V_LC_NETFILTER	(1u << 18)
#define V_LC_TCX	(1u << 19)
#define V_LC_NETKIT	(1u << 20)
#define V_LC_CGROUP	(1u << 21)
#define V_LC_XDP	(1u << 22)
#define V_LC_STRUCT_OPS	(1u << 23)	/* link_create.map_fd instead of prog_fd */
#define V_LC_PROG	(1u << 24)	/* link_create.prog_fd */
#define V_MAP		(1u << 25)	/* link_update of a struct_ops link: map fds */
#define V_PROG		(1u << 26)	/* link_update of another link: prog fds */
#define V_ATTACH_PROG	(1u << 27)	/* prog_load: attach_prog_fd */
#define V_ATTACH_BTF	(1u << 28)	/* prog_load: attach_btf_obj_fd */
#define V_SYSCALL_PROG	(1u << 29)	/* test_run of a BPF_PROG_TYPE_SYSCALL: ctx_in written back */
#define V_OTHER_PROG	(1u << 30)
#define V_LC_ATTACH_FLAGS (1u << 31)	/* link_create.flags are attach flags (not XDP flags) */

/* bpf_link_info variants (by its type, and perf_event.type) */
#define LI_RAW_TP	(1u << 0)
#define LI_TRACING	(1u << 1)
#define LI_CGROUP	(1u << 2)
#define LI_ITER		(1u << 3)
#define LI_NETNS	(1u << 4)
#define LI_XDP		(1u << 5)
#define LI_STRUCT_OPS	(1u << 6)
#define LI_NETFILTER	(1u << 7)
#define LI_KMULTI	(1u << 8)
#define LI_UMULTI	(1u << 9)
#define LI_PERF		(1u << 10)
#define LI_PERF_UPROBE	(1u << 11)
#define LI_PERF_KPROBE	(1u << 12)
#define LI_PERF_TP	(1u << 13)
#define LI_PERF_EVENT	(1u << 14)
#define LI_TCX		(1u << 15)
#define LI_NETKIT	(1u << 16)
#define LI_SOCKMAP	(1u << 17)

/* union bpf_iter_link_info variants (by the iterator target) */
#define IT_MAP		(1u << 0)
#define IT_CGROUP	(1u << 1)
#define IT_TASK		(1u << 2)

/* --- field constructors ------------------------------------------------------------ */

#define IN	BPFRR_DIR_IN
#define OUT	BPFRR_DIR_OUT
#define INOUT	BPFRR_DIR_INOUT

#define FLD(n, off, sz, k, d, ...) \
	{ .name = n, .offset = off, .size = sz, .kind = k, .dir = d, __VA_ARGS__ }
#define U32(n, off, d, ...)	FLD(n, off, 4, BPFRR_FIELD_UINT, d, __VA_ARGS__)
#define S32(n, off, d, ...)	FLD(n, off, 4, BPFRR_FIELD_INT, d, __VA_ARGS__)
#define U64(n, off, d, ...)	FLD(n, off, 8, BPFRR_FIELD_UINT, d, __VA_ARGS__)
#define ENUM32(n, off, d, x, ...) FLD(n, off, 4, BPFRR_FIELD_ENUM, d, .xlat = &(x), __VA_ARGS__)
#define FLAGS32(n, off, d, x, ...) FLD(n, off, 4, BPFRR_FIELD_FLAGS, d, .xlat = &(x), __VA_ARGS__)
#define FLAGS64(n, off, d, x, ...) FLD(n, off, 8, BPFRR_FIELD_FLAGS, d, .xlat = &(x), __VA_ARGS__)
#define FD(n, off, k, ...)	FLD(n, off, 4, BPFRR_FIELD_FD, IN, .fd_kind = k, __VA_ARGS__)
#define FDOPT(n, off, k, ...)	FD(n, off, k, .flags = BPFRR_FIELDF_FD_OPTIONAL, __VA_ARGS__)
#define NAME(n, off, d)		FLD(n, off, 16, BPFRR_FIELD_STR, d, .content = BPFRR_CONTENT_NAME)
#define PAD(n, off, sz, ...)	FLD(n, off, sz, BPFRR_FIELD_PAD, IN, __VA_ARGS__)
#define PTR(n, off, c, bd, ...) \
	FLD(n, off, 8, BPFRR_FIELD_PTR, IN, .content = BPFRR_CONTENT_##c, .buf_dir = bd, __VA_ARGS__)
/* a pointer inside an info struct: the kernel reads the pointer, writes the buffer */
#define IPTR(n, off, c, ...) \
	FLD(n, off, 8, BPFRR_FIELD_PTR, INOUT, .content = BPFRR_CONTENT_##c, .buf_dir = OUT, __VA_ARGS__)

/* length rules */
#define LEN_FIELD(f, mult)	.len_rule = BPFRR_LEN_FIELD, .len_field = f, .len_mult = mult
#define LEN_REC(f, rec)		.len_rule = BPFRR_LEN_FIELD_REC, .len_field = f, .rec_field = rec
#define LEN_CSTR		.len_rule = BPFRR_LEN_CSTR
#define LEN_KEY(m)		.len_rule = BPFRR_LEN_MAP_KEY, .map_field = m
#define LEN_VALUE(m)		.len_rule = BPFRR_LEN_MAP_VALUE, .map_field = m
#define LEN_KEYS(f, m)		.len_rule = BPFRR_LEN_MAP_KEYS, .len_field = f, .map_field = m
#define LEN_VALUES(f, m)	.len_rule = BPFRR_LEN_MAP_VALUES, .len_field = f, .map_field = m
#define LEN_TOKEN(m)		.len_rule = BPFRR_LEN_BATCH_TOKEN, .map_field = m
#define OUT_LEN(f)		.out_len_field = f
/* a field a kernel after 6.12 added (BPFRR_KVER) */
#define SINCE(maj, min)		.since = BPFRR_KVER(maj, min)

#define DESC(var, nm, sz, arr, ...) \
	static const struct bpfrr_struct_desc var = { \
		.name = nm, .size = sz, .fields = arr, .nr_fields = ARRAY_SIZE(arr), __VA_ARGS__ }

/* --- info structs (BPF_OBJ_GET_INFO_BY_FD) ------------------------------------------- */

/*
 * Counts in info structs are in/out: the caller sets the capacity of each
 * array, the kernel sets the count it has and copies min(capacity, count)
 * elements. Record sizes are set by the kernel.
 */
static const struct bpfrr_field prog_info_fields[] = {
	ENUM32("type", 0, OUT, bpfrr_xlat_prog_type),
	U32("id", 4, OUT, .content = BPFRR_CONTENT_OBJ_ID),
	FLD("tag", 8, 8, BPFRR_FIELD_BYTES, OUT, .content = BPFRR_CONTENT_TAG),
	U32("jited_prog_len", 16, INOUT),
	U32("xlated_prog_len", 20, INOUT),
	IPTR("jited_prog_insns", 24, JITED, LEN_FIELD("jited_prog_len", 1), OUT_LEN("jited_prog_len")),
	IPTR("xlated_prog_insns", 32, INSNS, LEN_FIELD("xlated_prog_len", 1),
	     OUT_LEN("xlated_prog_len")),
	U64("load_time", 40, OUT),
	U32("created_by_uid", 48, OUT),
	U32("nr_map_ids", 52, INOUT),
	IPTR("map_ids", 56, IDS, LEN_FIELD("nr_map_ids", 4), OUT_LEN("nr_map_ids")),
	NAME("name", 64, OUT),
	U32("ifindex", 80, OUT, .content = BPFRR_CONTENT_IFINDEX),
	/* gpl_compatible:1 and 31 bits of padding share the u32 at 84 */
	FLD("gpl_compatible", 84, 4, BPFRR_FIELD_UINT, OUT),
	U64("netns_dev", 88, OUT),
	U64("netns_ino", 96, OUT),
	U32("nr_jited_ksyms", 104, INOUT),
	U32("nr_jited_func_lens", 108, INOUT),
	IPTR("jited_ksyms", 112, U64_ARRAY, LEN_FIELD("nr_jited_ksyms", 8), OUT_LEN("nr_jited_ksyms")),
	IPTR("jited_func_lens", 120, U32_ARRAY, LEN_FIELD("nr_jited_func_lens", 4),
	     OUT_LEN("nr_jited_func_lens")),
	U32("btf_id", 128, OUT, .content = BPFRR_CONTENT_OBJ_ID),
	U32("func_info_rec_size", 132, INOUT),
	IPTR("func_info", 136, FUNC_INFO, LEN_REC("nr_func_info", "func_info_rec_size"),
	     OUT_LEN("nr_func_info")),
	U32("nr_func_info", 144, INOUT),
	U32("nr_line_info", 148, INOUT),
	IPTR("line_info", 152, LINE_INFO, LEN_REC("nr_line_info", "line_info_rec_size"),
	     OUT_LEN("nr_line_info")),
	IPTR("jited_line_info", 160, U64_ARRAY,
	     LEN_REC("nr_jited_line_info", "jited_line_info_rec_size"), OUT_LEN("nr_jited_line_info")),
	U32("nr_jited_line_info", 168, INOUT),
	U32("line_info_rec_size", 172, INOUT),
	U32("jited_line_info_rec_size", 176, INOUT),
	U32("nr_prog_tags", 180, INOUT),
	IPTR("prog_tags", 184, PROG_TAGS, LEN_FIELD("nr_prog_tags", 8), OUT_LEN("nr_prog_tags")),
	U64("run_time_ns", 192, OUT),
	U64("run_cnt", 200, OUT),
	U64("recursion_misses", 208, OUT),
	U32("verified_insns", 216, OUT),
	U32("attach_btf_obj_id", 220, OUT, .content = BPFRR_CONTENT_OBJ_ID),
	U32("attach_btf_id", 224, OUT, .content = BPFRR_CONTENT_BTF_ID),
	PAD(NULL, 228, 4),
};
const struct bpfrr_struct_desc bpfrr_abi_prog_info_desc = {
	.name = "bpf_prog_info", .size = 232, .fields = prog_info_fields,
	.nr_fields = ARRAY_SIZE(prog_info_fields),
};

static const struct bpfrr_field map_info_fields[] = {
	ENUM32("type", 0, OUT, bpfrr_xlat_map_type),
	U32("id", 4, OUT, .content = BPFRR_CONTENT_OBJ_ID),
	U32("key_size", 8, OUT),
	U32("value_size", 12, OUT),
	U32("max_entries", 16, OUT),
	FLAGS32("map_flags", 20, OUT, bpfrr_xlat_map_flags),
	NAME("name", 24, OUT),
	U32("ifindex", 40, OUT, .content = BPFRR_CONTENT_IFINDEX),
	U32("btf_vmlinux_value_type_id", 44, OUT, .content = BPFRR_CONTENT_BTF_ID),
	U64("netns_dev", 48, OUT),
	U64("netns_ino", 56, OUT),
	U32("btf_id", 64, OUT, .content = BPFRR_CONTENT_OBJ_ID),
	U32("btf_key_type_id", 68, OUT, .content = BPFRR_CONTENT_BTF_ID),
	U32("btf_value_type_id", 72, OUT, .content = BPFRR_CONTENT_BTF_ID),
	U32("btf_vmlinux_id", 76, OUT, .content = BPFRR_CONTENT_OBJ_ID),
	U64("map_extra", 80, OUT),
	/*
	 * 6.18, ea2e6467ac36 "bpf: Return hashes of maps in BPF_OBJ_GET_INFO_BY_FD": with
	 * hash set, the kernel computes the SHA-256 of the map's contents (map types with
	 * a map_get_hash, array maps; others EINVAL) and writes it there; hash_size must
	 * be 32, a hash_size without hash is EINVAL, and since a later fix (lore
	 * 20260205070755.695776-1-kpsingh) an unfrozen map is EPERM.  The caller sets
	 * both; the kernel copies them back unchanged.
	 */
	IPTR("hash", 88, SHA256, .len_rule = BPFRR_LEN_FIELD, .len_field = "hash_size", .len_mult = 1,
	     SINCE(6, 18)),
	U32("hash_size", 96, IN, SINCE(6, 18)),
	PAD(NULL, 100, 4, SINCE(6, 18)),
};
const struct bpfrr_struct_desc bpfrr_abi_map_info_desc = {
	.name = "bpf_map_info", .size = 88, .size_newest = 104, .fields = map_info_fields,
	.nr_fields = ARRAY_SIZE(map_info_fields),
};

/* The BTF name: the kernel sets name_len to strlen (no NUL) and writes the
 * NUL too, hence OUT_LEN_PLUS_NUL. */
static const struct bpfrr_field btf_info_fields[] = {
	IPTR("btf", 0, BTF, LEN_FIELD("btf_size", 1), OUT_LEN("btf_size")),
	U32("btf_size", 8, INOUT),
	U32("id", 12, OUT, .content = BPFRR_CONTENT_OBJ_ID),
	IPTR("name", 16, STRING, LEN_FIELD("name_len", 1), OUT_LEN("name_len"),
	     .flags = BPFRR_FIELDF_OUT_LEN_PLUS_NUL),
	U32("name_len", 24, INOUT),
	U32("kernel_btf", 28, OUT),
};
const struct bpfrr_struct_desc bpfrr_abi_btf_info_desc = {
	.name = "bpf_btf_info", .size = 32, .fields = btf_info_fields,
	.nr_fields = ARRAY_SIZE(btf_info_fields),
};

static const struct bpfrr_field link_info_fields[] = {
	ENUM32("type", 0, OUT, bpfrr_xlat_link_type),
	U32("id", 4, OUT, .content = BPFRR_CONTENT_OBJ_ID),
	U32("prog_id", 8, OUT, .content = BPFRR_CONTENT_OBJ_ID),
	IPTR("raw_tracepoint.tp_name", 16, STRING, LEN_FIELD("raw_tracepoint.tp_name_len", 1),
	     OUT_LEN("raw_tracepoint.tp_name_len"), .variants = LI_RAW_TP),
	U32("raw_tracepoint.tp_name_len", 24, INOUT, .variants = LI_RAW_TP),
	ENUM32("tracing.attach_type", 16, OUT, bpfrr_xlat_attach_type, .variants = LI_TRACING),
	U32("tracing.target_obj_id", 20, OUT, .content = BPFRR_CONTENT_OBJ_ID, .variants = LI_TRACING),
	U32("tracing.target_btf_id", 24, OUT, .content = BPFRR_CONTENT_BTF_ID, .variants = LI_TRACING),
	U64("cgroup.cgroup_id", 16, OUT, .variants = LI_CGROUP),
	ENUM32("cgroup.attach_type", 24, OUT, bpfrr_xlat_attach_type, .variants = LI_CGROUP),
	IPTR("iter.target_name", 16, STRING, LEN_FIELD("iter.target_name_len", 1),
	     OUT_LEN("iter.target_name_len"), .variants = LI_ITER),
	U32("iter.target_name_len", 24, INOUT, .variants = LI_ITER),
	U32("iter.map.map_id", 28, OUT, .content = BPFRR_CONTENT_OBJ_ID, .variants = LI_ITER),
	U64("iter.cgroup.cgroup_id", 32, OUT, .variants = LI_ITER),
	ENUM32("iter.cgroup.order", 40, OUT, bpfrr_xlat_cgroup_iter_order, .variants = LI_ITER),
	U32("iter.task.tid", 32, OUT, .variants = LI_ITER, .flags = BPFRR_FIELDF_ALIAS),
	U32("iter.task.pid", 36, OUT, .variants = LI_ITER, .flags = BPFRR_FIELDF_ALIAS),
	U32("netns.netns_ino", 16, OUT, .variants = LI_NETNS),
	ENUM32("netns.attach_type", 20, OUT, bpfrr_xlat_attach_type, .variants = LI_NETNS),
	U32("xdp.ifindex", 16, OUT, .content = BPFRR_CONTENT_IFINDEX, .variants = LI_XDP),
	U32("struct_ops.map_id", 16, OUT, .content = BPFRR_CONTENT_OBJ_ID, .variants = LI_STRUCT_OPS),
	ENUM32("netfilter.pf", 16, OUT, bpfrr_xlat_nf_proto, .variants = LI_NETFILTER),
	ENUM32("netfilter.hooknum", 20, OUT, bpfrr_xlat_nf_hook, .variants = LI_NETFILTER),
	S32("netfilter.priority", 24, OUT, .variants = LI_NETFILTER),
	FLAGS32("netfilter.flags", 28, OUT, bpfrr_xlat_netfilter_flags, .variants = LI_NETFILTER),
	IPTR("kprobe_multi.addrs", 16, U64_ARRAY, LEN_FIELD("kprobe_multi.count", 8),
	     OUT_LEN("kprobe_multi.count"), .variants = LI_KMULTI),
	U32("kprobe_multi.count", 24, INOUT, .variants = LI_KMULTI),
	FLAGS32("kprobe_multi.flags", 28, OUT, bpfrr_xlat_kprobe_multi_flags, .variants = LI_KMULTI),
	U64("kprobe_multi.missed", 32, OUT, .variants = LI_KMULTI),
	IPTR("kprobe_multi.cookies", 40, U64_ARRAY, LEN_FIELD("kprobe_multi.count", 8),
	     OUT_LEN("kprobe_multi.count"), .variants = LI_KMULTI),
	IPTR("uprobe_multi.path", 16, PATH, LEN_FIELD("uprobe_multi.path_size", 1),
	     OUT_LEN("uprobe_multi.path_size"), .variants = LI_UMULTI),
	IPTR("uprobe_multi.offsets", 24, U64_ARRAY, LEN_FIELD("uprobe_multi.count", 8),
	     OUT_LEN("uprobe_multi.count"), .variants = LI_UMULTI),
	IPTR("uprobe_multi.ref_ctr_offsets", 32, U64_ARRAY, LEN_FIELD("uprobe_multi.count", 8),
	     OUT_LEN("uprobe_multi.count"), .variants = LI_UMULTI),
	IPTR("uprobe_multi.cookies", 40, U64_ARRAY, LEN_FIELD("uprobe_multi.count", 8),
	     OUT_LEN("uprobe_multi.count"), .variants = LI_UMULTI),
	U32("uprobe_multi.path_size", 48, INOUT, .variants = LI_UMULTI),
	U32("uprobe_multi.count", 52, INOUT, .variants = LI_UMULTI),
	FLAGS32("uprobe_multi.flags", 56, OUT, bpfrr_xlat_uprobe_multi_flags, .variants = LI_UMULTI),
	U32("uprobe_multi.pid", 60, OUT, .variants = LI_UMULTI),
	ENUM32("perf_event.type", 16, OUT, bpfrr_xlat_perf_event_type, .variants = LI_PERF),
	FLD(NULL, 20, 4, BPFRR_FIELD_PAD, OUT, .variants = LI_PERF),
	IPTR("perf_event.uprobe.file_name", 24, PATH, LEN_FIELD("perf_event.uprobe.name_len", 1),
	     OUT_LEN("perf_event.uprobe.name_len"), .variants = LI_PERF_UPROBE),
	U32("perf_event.uprobe.name_len", 32, INOUT, .variants = LI_PERF_UPROBE),
	U32("perf_event.uprobe.offset", 36, OUT, .variants = LI_PERF_UPROBE),
	U64("perf_event.uprobe.cookie", 40, OUT, .variants = LI_PERF_UPROBE),
	IPTR("perf_event.kprobe.func_name", 24, STRING, LEN_FIELD("perf_event.kprobe.name_len", 1),
	     OUT_LEN("perf_event.kprobe.name_len"), .variants = LI_PERF_KPROBE),
	U32("perf_event.kprobe.name_len", 32, INOUT, .variants = LI_PERF_KPROBE),
	U32("perf_event.kprobe.offset", 36, OUT, .variants = LI_PERF_KPROBE),
	U64("perf_event.kprobe.addr", 40, OUT, .variants = LI_PERF_KPROBE),
	U64("perf_event.kprobe.missed", 48, OUT, .variants = LI_PERF_KPROBE),
	U64("perf_event.kprobe.cookie", 56, OUT, .variants = LI_PERF_KPROBE),
	IPTR("perf_event.tracepoint.tp_name", 24, STRING,
	     LEN_FIELD("perf_event.tracepoint.name_len", 1),
	     OUT_LEN("perf_event.tracepoint.name_len"), .variants = LI_PERF_TP),
	U32("perf_event.tracepoint.name_len", 32, INOUT, .variants = LI_PERF_TP),
	U64("perf_event.tracepoint.cookie", 40, OUT, .variants = LI_PERF_TP),
	U64("perf_event.event.config", 24, OUT, .variants = LI_PERF_EVENT),
	U32("perf_event.event.type", 32, OUT, .variants = LI_PERF_EVENT),
	U64("perf_event.event.cookie", 40, OUT, .variants = LI_PERF_EVENT),
	U32("tcx.ifindex", 16, OUT, .content = BPFRR_CONTENT_IFINDEX, .variants = LI_TCX),
	ENUM32("tcx.attach_type", 20, OUT, bpfrr_xlat_attach_type, .variants = LI_TCX),
	U32("netkit.ifindex", 16, OUT, .content = BPFRR_CONTENT_IFINDEX, .variants = LI_NETKIT),
	ENUM32("netkit.attach_type", 20, OUT, bpfrr_xlat_attach_type, .variants = LI_NETKIT),
	U32("sockmap.map_id", 16, OUT, .content = BPFRR_CONTENT_OBJ_ID, .variants = LI_SOCKMAP),
	ENUM32("sockmap.attach_type", 20, OUT, bpfrr_xlat_attach_type, .variants = LI_SOCKMAP),
};

static uint32_t link_info_variant(const void *data, size_t len)
{
	static const uint32_t by_type[] = {
		[ABI_LINK_TYPE_RAW_TRACEPOINT] = LI_RAW_TP, [ABI_LINK_TYPE_TRACING] = LI_TRACING,
		[ABI_LINK_TYPE_CGROUP] = LI_CGROUP, [ABI_LINK_TYPE_ITER] = LI_ITER,
		[ABI_LINK_TYPE_NETNS] = LI_NETNS, [ABI_LINK_TYPE_XDP] = LI_XDP,
		[ABI_LINK_TYPE_PERF_EVENT] = LI_PERF, [ABI_LINK_TYPE_KPROBE_MULTI] = LI_KMULTI,
		[ABI_LINK_TYPE_STRUCT_OPS] = LI_STRUCT_OPS, [ABI_LINK_TYPE_NETFILTER] = LI_NETFILTER,
		[ABI_LINK_TYPE_TCX] = LI_TCX, [ABI_LINK_TYPE_UPROBE_MULTI] = LI_UMULTI,
		[ABI_LINK_TYPE_NETKIT] = LI_NETKIT, [ABI_LINK_TYPE_SOCKMAP] = LI_SOCKMAP,
	};
	uint32_t type, perf_type, v;

	if (len < 4)
		return 0;
	memcpy(&type, data, 4);
	v = type < ARRAY_SIZE(by_type) ? by_type[type] : 0;
	if (v == LI_PERF && len >= 20) {
		memcpy(&perf_type, (const char *)data + 16, 4);
		switch (perf_type) {
		case ABI_PERF_EVENT_UPROBE:
		case ABI_PERF_EVENT_URETPROBE:
			v |= LI_PERF_UPROBE;
			break;
		case ABI_PERF_EVENT_KPROBE:
		case ABI_PERF_EVENT_KRETPROBE:
			v |= LI_PERF_KPROBE;
			break;
		case ABI_PERF_EVENT_TRACEPOINT:
			v |= LI_PERF_TP;
			break;
		case ABI_PERF_EVENT_EVENT:
			v |= LI_PERF_EVENT;
			break;
		}
	}
	return v;
}

const struct bpfrr_struct_desc bpfrr_abi_link_info_desc = {
	.name = "bpf_link_info", .size = 64, .fields = link_info_fields,
	.nr_fields = ARRAY_SIZE(link_info_fields), .variant = link_info_variant,
};

/* union bpf_iter_link_info: which member applies depends on the iterator
 * target the program was loaded for (see bpfrr_abi_env.iter_target). */
static const struct bpfrr_field iter_link_info_fields[] = {
	FD("map.map_fd", 0, BPFRR_OBJ_MAP, .variants = IT_MAP),
	ENUM32("cgroup.order", 0, IN, bpfrr_xlat_cgroup_iter_order, .variants = IT_CGROUP),
	FDOPT("cgroup.cgroup_fd", 4, BPFRR_OBJ_CGROUP, .variants = IT_CGROUP),
	U64("cgroup.cgroup_id", 8, IN, .variants = IT_CGROUP),
	U32("task.tid", 0, IN, .variants = IT_TASK),
	U32("task.pid", 4, IN, .variants = IT_TASK),
	FDOPT("task.pid_fd", 8, BPFRR_OBJ_PIDFD, .variants = IT_TASK),
};
const struct bpfrr_struct_desc bpfrr_abi_iter_link_info_desc = {
	.name = "bpf_iter_link_info", .size = 16, .fields = iter_link_info_fields,
	.nr_fields = ARRAY_SIZE(iter_link_info_fields),
};

uint32_t bpfrr_abi_iter_variant(const char *target)
{
	static const struct {
		const char *target;
		uint32_t variant;
	} targets[] = {
		{ "bpf_map_elem", IT_MAP }, { "bpf_sk_storage_map", IT_MAP }, { "sockmap", IT_MAP },
		{ "cgroup", IT_CGROUP }, { "task", IT_TASK }, { "task_file", IT_TASK },
		{ "task_vma", IT_TASK },
	};

	for (size_t i = 0; i < ARRAY_SIZE(targets); i++)
		if (!strcmp(target, targets[i].target))
			return targets[i].variant;
	return 0;
}

/* --- commands --------------------------------------------------------------------- */

static const struct bpfrr_field map_create_fields[] = {
	ENUM32("map_type", 0, IN, bpfrr_xlat_map_type),
	U32("key_size", 4, IN),
	U32("value_size", 8, IN),
	U32("max_entries", 12, IN),
	FLAGS32("map_flags", 16, IN, bpfrr_xlat_map_flags),
	FDOPT("inner_map_fd", 20, BPFRR_OBJ_MAP),
	S32("numa_node", 24, IN),
	NAME("map_name", 28, IN),
	U32("map_ifindex", 44, IN, .content = BPFRR_CONTENT_IFINDEX),
	FDOPT("btf_fd", 48, BPFRR_OBJ_BTF),
	U32("btf_key_type_id", 52, IN, .content = BPFRR_CONTENT_BTF_ID),
	U32("btf_value_type_id", 56, IN, .content = BPFRR_CONTENT_BTF_ID),
	U32("btf_vmlinux_value_type_id", 60, IN, .content = BPFRR_CONTENT_BTF_ID,
	    .flags = BPFRR_FIELDF_KERNEL_BTF | BPFRR_FIELDF_STRUCT_OPS_VALUE, .btf_obj_field = "value_type_btf_obj_fd"),
	U64("map_extra", 64, IN),
	FD("value_type_btf_obj_fd", 72, BPFRR_OBJ_BTF, .flags = BPFRR_FIELDF_NEEDS_FLAG,
	   .flag_field = "map_flags", .flag_mask = ABI_F_VTYPE_BTF_OBJ_FD),
	FD("map_token_fd", 76, BPFRR_OBJ_TOKEN, .flags = BPFRR_FIELDF_NEEDS_FLAG,
	   .flag_field = "map_flags", .flag_mask = ABI_F_TOKEN_FD),
	/*
	 * 6.18, baefdbdf6812 "bpf: Implement exclusive map creation": only the program whose
	 * SHA-256 this is may use the map (excl_prog_hash_size must be 32).
	 */
	PTR("excl_prog_hash", 80, SHA256, IN, LEN_FIELD("excl_prog_hash_size", 1), SINCE(6, 18)),
	U32("excl_prog_hash_size", 88, IN, SINCE(6, 18)),
};
DESC(map_create, "attr(BPF_MAP_CREATE)", 80, map_create_fields, .size_newest = 92);

static const struct bpfrr_field map_lookup_fields[] = {
	FD("map_fd", 0, BPFRR_OBJ_MAP),
	PAD(NULL, 4, 4),
	PTR("key", 8, KEY, IN, LEN_KEY("map_fd")),
	PTR("value", 16, VALUE, OUT, LEN_VALUE("map_fd")),
	FLAGS64("flags", 24, IN, bpfrr_xlat_elem_flags),
};
DESC(map_lookup, "attr(BPF_MAP_LOOKUP_ELEM)", 32, map_lookup_fields);

static const struct bpfrr_field map_update_fields[] = {
	FD("map_fd", 0, BPFRR_OBJ_MAP),
	PAD(NULL, 4, 4),
	PTR("key", 8, KEY, IN, LEN_KEY("map_fd")),
	PTR("value", 16, VALUE, IN, LEN_VALUE("map_fd"), .flags = BPFRR_FIELDF_ELEM_FDS),
	FLAGS64("flags", 24, IN, bpfrr_xlat_elem_flags),
};
DESC(map_update, "attr(BPF_MAP_UPDATE_ELEM)", 32, map_update_fields);

static const struct bpfrr_field map_delete_fields[] = {
	FD("map_fd", 0, BPFRR_OBJ_MAP),
	PAD(NULL, 4, 4),
	PTR("key", 8, KEY, IN, LEN_KEY("map_fd")),
};
DESC(map_delete, "attr(BPF_MAP_DELETE_ELEM)", 16, map_delete_fields);

/* key NULL asks for the first key */
static const struct bpfrr_field map_next_key_fields[] = {
	FD("map_fd", 0, BPFRR_OBJ_MAP),
	PAD(NULL, 4, 4),
	PTR("key", 8, KEY, IN, LEN_KEY("map_fd")),
	PTR("next_key", 16, KEY, OUT, LEN_KEY("map_fd")),
};
DESC(map_next_key, "attr(BPF_MAP_GET_NEXT_KEY)", 24, map_next_key_fields);

static const struct bpfrr_field map_freeze_fields[] = {
	FD("map_fd", 0, BPFRR_OBJ_MAP),
};
DESC(map_freeze, "attr(BPF_MAP_FREEZE)", 4, map_freeze_fields);

/*
 * Batch ops: count is the capacity in, the number of elements done out.
 * in_batch NULL starts from the beginning; out_batch receives where to go
 * on (hash maps: a bucket number, others: a key).
 */
static const struct bpfrr_field map_lookup_batch_fields[] = {
	PTR("batch.in_batch", 0, BATCH_TOKEN, IN, LEN_TOKEN("batch.map_fd")),
	PTR("batch.out_batch", 8, BATCH_TOKEN, OUT, LEN_TOKEN("batch.map_fd")),
	PTR("batch.keys", 16, KEYS, OUT, LEN_KEYS("batch.count", "batch.map_fd"),
	    OUT_LEN("batch.count")),
	PTR("batch.values", 24, VALUES, OUT, LEN_VALUES("batch.count", "batch.map_fd"),
	    OUT_LEN("batch.count")),
	U32("batch.count", 32, INOUT),
	FD("batch.map_fd", 36, BPFRR_OBJ_MAP),
	FLAGS64("batch.elem_flags", 40, IN, bpfrr_xlat_elem_flags),
	U64("batch.flags", 48, IN),
};
DESC(map_lookup_batch, "attr(BPF_MAP_LOOKUP_BATCH)", 56, map_lookup_batch_fields);

static const struct bpfrr_field map_update_batch_fields[] = {
	PTR("batch.keys", 16, KEYS, IN, LEN_KEYS("batch.count", "batch.map_fd")),
	PTR("batch.values", 24, VALUES, IN, LEN_VALUES("batch.count", "batch.map_fd"),
	    .flags = BPFRR_FIELDF_ELEM_FDS),
	U32("batch.count", 32, INOUT),
	FD("batch.map_fd", 36, BPFRR_OBJ_MAP),
	FLAGS64("batch.elem_flags", 40, IN, bpfrr_xlat_elem_flags),
	U64("batch.flags", 48, IN),
};
DESC(map_update_batch, "attr(BPF_MAP_UPDATE_BATCH)", 56, map_update_batch_fields);

static const struct bpfrr_field map_delete_batch_fields[] = {
	PTR("batch.keys", 16, KEYS, IN, LEN_KEYS("batch.count", "batch.map_fd")),
	U32("batch.count", 32, INOUT),
	FD("batch.map_fd", 36, BPFRR_OBJ_MAP),
	FLAGS64("batch.elem_flags", 40, IN, bpfrr_xlat_elem_flags),
	U64("batch.flags", 48, IN),
};
DESC(map_delete_batch, "attr(BPF_MAP_DELETE_BATCH)", 56, map_delete_batch_fields);

/*
 * fd_array is not counted in attr: its length is what the insns index
 * (BPF_PSEUDO_MAP_IDX[_VALUE] imm, kfunc call off) + 1.
 * log_buf: the kernel NUL-terminates it and reports the full length it
 * wanted in log_true_size (when attr is big enough to hold it).
 */
static const struct bpfrr_field prog_load_fields[] = {
	ENUM32("prog_type", 0, IN, bpfrr_xlat_prog_type),
	U32("insn_cnt", 4, IN),
	PTR("insns", 8, INSNS, IN, LEN_FIELD("insn_cnt", 8)),
	PTR("license", 16, STRING, IN, LEN_CSTR),
	FLAGS32("log_level", 24, IN, bpfrr_xlat_log_level),
	U32("log_size", 28, IN),
	PTR("log_buf", 32, LOG, OUT, LEN_FIELD("log_size", 1), OUT_LEN("log_true_size")),
	U32("kern_version", 40, IN),
	FLAGS32("prog_flags", 44, IN, bpfrr_xlat_prog_flags),
	NAME("prog_name", 48, IN),
	U32("prog_ifindex", 64, IN, .content = BPFRR_CONTENT_IFINDEX),
	ENUM32("expected_attach_type", 68, IN, bpfrr_xlat_attach_type),
	FDOPT("prog_btf_fd", 72, BPFRR_OBJ_BTF),
	U32("func_info_rec_size", 76, IN),
	PTR("func_info", 80, FUNC_INFO, IN, LEN_REC("func_info_cnt", "func_info_rec_size")),
	U32("func_info_cnt", 88, IN),
	U32("line_info_rec_size", 92, IN),
	PTR("line_info", 96, LINE_INFO, IN, LEN_REC("line_info_cnt", "line_info_rec_size")),
	U32("line_info_cnt", 104, IN),
	U32("attach_btf_id", 108, IN, .content = BPFRR_CONTENT_BTF_ID,
	    .flags = BPFRR_FIELDF_KERNEL_BTF, .btf_obj_field = "attach_btf_obj_fd"),
	FDOPT("attach_prog_fd", 112, BPFRR_OBJ_PROG, .variants = V_ATTACH_PROG),
	FDOPT("attach_btf_obj_fd", 112, BPFRR_OBJ_BTF, .variants = V_ATTACH_BTF),
	U32("core_relo_cnt", 116, IN),
	/* fd_array_cnt (6.14), when set, is the length */
	PTR("fd_array", 120, FD_ARRAY, IN, .len_rule = BPFRR_LEN_FD_ARRAY, .len_mult = 4,
	    .len_field = "fd_array_cnt"),
	PTR("core_relos", 128, CORE_RELOS, IN, LEN_REC("core_relo_cnt", "core_relo_rec_size")),
	U32("core_relo_rec_size", 136, IN),
	U32("log_true_size", 140, OUT),
	FD("prog_token_fd", 144, BPFRR_OBJ_TOKEN, .flags = BPFRR_FIELDF_NEEDS_FLAG,
	   .flag_field = "prog_flags", .flag_mask = ABI_F_TOKEN_FD),
	/* 6.14, 4d3ae294f900 "bpf: Add fd_array_cnt attribute for prog_load": fd_array's length */
	U32("fd_array_cnt", 148, IN, SINCE(6, 14)),
	/*
	 * 6.18, 349271568303 "bpf: Implement signature verification for BPF programs": a
	 * PKCS#7 signature of the insns, checked against the keys of keyring_id (a key
	 * serial, or a system keyring id) before the program loads.
	 */
	PTR("signature", 152, SIGNATURE, IN, LEN_FIELD("signature_size", 1), SINCE(6, 18)),
	U32("signature_size", 160, IN, SINCE(6, 18)),
	S32("keyring_id", 164, IN, SINCE(6, 18)),
};
DESC(prog_load, "attr(BPF_PROG_LOAD)", 148, prog_load_fields, .size_newest = 168);

static const struct bpfrr_field obj_pin_fields[] = {
	PTR("pathname", 0, PATH, IN, LEN_CSTR),
	FD("bpf_fd", 8, BPFRR_OBJ_ANY),
	FLAGS32("file_flags", 12, IN, bpfrr_xlat_file_flags),
	FD("path_fd", 16, BPFRR_OBJ_DIR, .flags = BPFRR_FIELDF_NEEDS_FLAG,
	   .flag_field = "file_flags", .flag_mask = ABI_F_PATH_FD),
};
DESC(obj_pin, "attr(BPF_OBJ_PIN)", 20, obj_pin_fields);

static const struct bpfrr_field obj_get_fields[] = {
	PTR("pathname", 0, PATH, IN, LEN_CSTR),
	U32("bpf_fd", 8, IN),	/* must be 0 */
	FLAGS32("file_flags", 12, IN, bpfrr_xlat_file_flags),
	FD("path_fd", 16, BPFRR_OBJ_DIR, .flags = BPFRR_FIELDF_NEEDS_FLAG,
	   .flag_field = "file_flags", .flag_mask = ABI_F_PATH_FD),
};
DESC(obj_get, "attr(BPF_OBJ_GET)", 20, obj_get_fields);

/* target_fd's object depends on attach_type; relative_fd's on attach_flags. */
#define TARGET_FIELDS(pfx, off) \
	FD(pfx "target_fd", off, BPFRR_OBJ_CGROUP, .variants = V_TGT_CGROUP), \
	FD(pfx "target_fd", off, BPFRR_OBJ_MAP, .variants = V_TGT_MAP), \
	FD(pfx "target_fd", off, BPFRR_OBJ_DEVICE, .variants = V_TGT_DEVICE), \
	FD(pfx "target_fd", off, BPFRR_OBJ_NETNS, .variants = V_TGT_NETNS), \
	FDOPT(pfx "target_fd", off, BPFRR_OBJ_PROG, .variants = V_TGT_PROG), \
	FD(pfx "target_fd", off, BPFRR_OBJ_PERF_EVENT, .variants = V_TGT_PERF), \
	FDOPT(pfx "target_fd", off, BPFRR_OBJ_ANY, .variants = V_TGT_ANY), \
	U32(pfx "target_fd", off, IN, .variants = V_TGT_NONE), \
	U32(pfx "target_ifindex", off, IN, .content = BPFRR_CONTENT_IFINDEX, .variants = V_TGT_IFINDEX)

#define RELATIVE_FIELDS(pfx, off) \
	FDOPT(pfx "relative_fd", off, BPFRR_OBJ_PROG, .variants = V_REL_PROG), \
	FDOPT(pfx "relative_fd", off, BPFRR_OBJ_LINK, .variants = V_REL_LINK), \
	U32(pfx "relative_id", off, IN, .content = BPFRR_CONTENT_OBJ_ID, .variants = V_REL_ID)

static const struct bpfrr_field prog_attach_fields[] = {
	TARGET_FIELDS("", 0),
	FD("attach_bpf_fd", 4, BPFRR_OBJ_PROG),
	ENUM32("attach_type", 8, IN, bpfrr_xlat_attach_type),
	FLAGS32("attach_flags", 12, IN, bpfrr_xlat_attach_flags),
	FD("replace_bpf_fd", 16, BPFRR_OBJ_PROG, .flags = BPFRR_FIELDF_NEEDS_FLAG,
	   .flag_field = "attach_flags", .flag_mask = ABI_F_REPLACE),
	RELATIVE_FIELDS("", 20),
	U64("expected_revision", 24, IN),
};
DESC(prog_attach, "attr(BPF_PROG_ATTACH)", 32, prog_attach_fields);

/* attach_bpf_fd is optional for cgroup detach (0: the only program) */
static const struct bpfrr_field prog_detach_fields[] = {
	TARGET_FIELDS("", 0),
	FDOPT("attach_bpf_fd", 4, BPFRR_OBJ_PROG),
	ENUM32("attach_type", 8, IN, bpfrr_xlat_attach_type),
	FLAGS32("attach_flags", 12, IN, bpfrr_xlat_attach_flags),
	U32("replace_bpf_fd", 16, IN),	/* must be 0 */
	RELATIVE_FIELDS("", 20),
	U64("expected_revision", 24, IN),
};
DESC(prog_detach, "attr(BPF_PROG_DETACH)", 32, prog_detach_fields);

/* data_size_out 0 means "no limit" (the kernel then writes it all). For a
 * BPF_PROG_TYPE_SYSCALL program the kernel copies ctx_in back to user space. */
static const struct bpfrr_field prog_test_run_fields[] = {
	FD("test.prog_fd", 0, BPFRR_OBJ_PROG),
	U32("test.retval", 4, OUT),
	U32("test.data_size_in", 8, IN),
	U32("test.data_size_out", 12, INOUT),
	PTR("test.data_in", 16, DATA, IN, LEN_FIELD("test.data_size_in", 1)),
	PTR("test.data_out", 24, DATA, OUT, LEN_FIELD("test.data_size_out", 1),
	    OUT_LEN("test.data_size_out"), .flags = BPFRR_FIELDF_ZERO_CAP_UNLIMITED),
	U32("test.repeat", 32, IN),
	U32("test.duration", 36, OUT),
	U32("test.ctx_size_in", 40, IN),
	U32("test.ctx_size_out", 44, INOUT),
	PTR("test.ctx_in", 48, CTX, IN, LEN_FIELD("test.ctx_size_in", 1), .variants = V_OTHER_PROG),
	PTR("test.ctx_in", 48, CTX, INOUT, LEN_FIELD("test.ctx_size_in", 1),
	    .variants = V_SYSCALL_PROG),
	PTR("test.ctx_out", 56, CTX, OUT, LEN_FIELD("test.ctx_size_out", 1),
	    OUT_LEN("test.ctx_size_out")),
	FLAGS32("test.flags", 64, IN, bpfrr_xlat_test_run_flags),
	U32("test.cpu", 68, IN),
	U32("test.batch_size", 72, IN),
};
DESC(prog_test_run, "attr(BPF_PROG_TEST_RUN)", 76, prog_test_run_fields);

static const struct bpfrr_field get_next_id_fields[] = {
	U32("start_id", 0, IN, .content = BPFRR_CONTENT_OBJ_ID),
	U32("next_id", 4, OUT, .content = BPFRR_CONTENT_OBJ_ID),
};
DESC(get_next_id, "attr(BPF_*_GET_NEXT_ID)", 8, get_next_id_fields);

static const struct bpfrr_field prog_get_fd_fields[] = {
	U32("prog_id", 0, IN, .content = BPFRR_CONTENT_OBJ_ID),
};
DESC(prog_get_fd, "attr(BPF_PROG_GET_FD_BY_ID)", 4, prog_get_fd_fields);

static const struct bpfrr_field map_get_fd_fields[] = {
	U32("map_id", 0, IN, .content = BPFRR_CONTENT_OBJ_ID),
	PAD(NULL, 4, 4),
	FLAGS32("open_flags", 8, IN, bpfrr_xlat_open_flags),
};
DESC(map_get_fd, "attr(BPF_MAP_GET_FD_BY_ID)", 12, map_get_fd_fields);

static const struct bpfrr_field btf_get_fd_fields[] = {
	U32("btf_id", 0, IN, .content = BPFRR_CONTENT_OBJ_ID),
};
DESC(btf_get_fd, "attr(BPF_BTF_GET_FD_BY_ID)", 4, btf_get_fd_fields);

static const struct bpfrr_field link_get_fd_fields[] = {
	U32("link_id", 0, IN, .content = BPFRR_CONTENT_OBJ_ID),
};
DESC(link_get_fd, "attr(BPF_LINK_GET_FD_BY_ID)", 4, link_get_fd_fields);

/* The kernel reads the info struct (its array pointers and capacities) and
 * writes it back, with info_len = the bytes it wrote. */
static const struct bpfrr_field obj_get_info_fields[] = {
	FD("info.bpf_fd", 0, BPFRR_OBJ_ANY),
	U32("info.info_len", 4, INOUT),
	PTR("info.info", 8, INFO, INOUT, .len_rule = BPFRR_LEN_INFO, .len_field = "info.info_len",
	    .map_field = "info.bpf_fd", OUT_LEN("info.info_len")),
};
DESC(obj_get_info, "attr(BPF_OBJ_GET_INFO_BY_FD)", 16, obj_get_info_fields);

/* prog_cnt in: capacity of prog_ids/prog_attach_flags; out: how many there are.
 * count (its alias) sizes link_ids/link_attach_flags the same way. */
static const struct bpfrr_field prog_query_fields[] = {
	TARGET_FIELDS("query.", 0),
	ENUM32("query.attach_type", 4, IN, bpfrr_xlat_attach_type),
	FLAGS32("query.query_flags", 8, IN, bpfrr_xlat_query_flags),
	FLAGS32("query.attach_flags", 12, OUT, bpfrr_xlat_attach_flags),
	PTR("query.prog_ids", 16, IDS, OUT, LEN_FIELD("query.prog_cnt", 4), OUT_LEN("query.prog_cnt")),
	U32("query.prog_cnt", 24, INOUT),
	FLD("query.count", 24, 4, BPFRR_FIELD_UINT, INOUT, .flags = BPFRR_FIELDF_ALIAS),
	PAD(NULL, 28, 4),
	PTR("query.prog_attach_flags", 32, U32_ARRAY, OUT, LEN_FIELD("query.prog_cnt", 4),
	    OUT_LEN("query.prog_cnt")),
	PTR("query.link_ids", 40, IDS, OUT, LEN_FIELD("query.count", 4), OUT_LEN("query.count")),
	PTR("query.link_attach_flags", 48, U32_ARRAY, OUT, LEN_FIELD("query.count", 4),
	    OUT_LEN("query.count")),
	U64("query.revision", 56, OUT),
};
DESC(prog_query, "attr(BPF_PROG_QUERY)", 64, prog_query_fields);

/* name NULL: the tracepoint comes from the program's attach_btf_id */
static const struct bpfrr_field raw_tp_open_fields[] = {
	PTR("raw_tracepoint.name", 0, STRING, IN, LEN_CSTR),
	FD("raw_tracepoint.prog_fd", 8, BPFRR_OBJ_PROG),
	PAD(NULL, 12, 4),
	U64("raw_tracepoint.cookie", 16, IN),
};
DESC(raw_tp_open, "attr(BPF_RAW_TRACEPOINT_OPEN)", 24, raw_tp_open_fields);

static const struct bpfrr_field btf_load_fields[] = {
	PTR("btf", 0, BTF, IN, LEN_FIELD("btf_size", 1)),
	PTR("btf_log_buf", 8, LOG, OUT, LEN_FIELD("btf_log_size", 1), OUT_LEN("btf_log_true_size")),
	U32("btf_size", 16, IN),
	U32("btf_log_size", 20, IN),
	FLAGS32("btf_log_level", 24, IN, bpfrr_xlat_log_level),
	U32("btf_log_true_size", 28, OUT),
	FLAGS32("btf_flags", 32, IN, bpfrr_xlat_token_flags),
	FD("btf_token_fd", 36, BPFRR_OBJ_TOKEN, .flags = BPFRR_FIELDF_NEEDS_FLAG,
	   .flag_field = "btf_flags", .flag_mask = ABI_F_TOKEN_FD),
};
DESC(btf_load, "attr(BPF_BTF_LOAD)", 40, btf_load_fields);

/* fd is a descriptor in the table of task pid, not necessarily the caller's.
 * buf receives the tracepoint name, kprobe symbol or uprobe file name. */
static const struct bpfrr_field task_fd_query_fields[] = {
	U32("task_fd_query.pid", 0, IN),
	FD("task_fd_query.fd", 4, BPFRR_OBJ_ANY, .flags = BPFRR_FIELDF_FOREIGN_FD),
	U32("task_fd_query.flags", 8, IN),
	U32("task_fd_query.buf_len", 12, INOUT),
	PTR("task_fd_query.buf", 16, STRING, OUT, LEN_FIELD("task_fd_query.buf_len", 1),
	    OUT_LEN("task_fd_query.buf_len"), .flags = BPFRR_FIELDF_OUT_LEN_PLUS_NUL),
	U32("task_fd_query.prog_id", 24, OUT, .content = BPFRR_CONTENT_OBJ_ID),
	ENUM32("task_fd_query.fd_type", 28, OUT, bpfrr_xlat_task_fd_type),
	U64("task_fd_query.probe_offset", 32, OUT),
	U64("task_fd_query.probe_addr", 40, OUT),
};
DESC(task_fd_query, "attr(BPF_TASK_FD_QUERY)", 48, task_fd_query_fields);

static const struct bpfrr_field link_create_fields[] = {
	FD("link_create.prog_fd", 0, BPFRR_OBJ_PROG, .variants = V_LC_PROG),
	FD("link_create.map_fd", 0, BPFRR_OBJ_MAP, .variants = V_LC_STRUCT_OPS),
	TARGET_FIELDS("link_create.", 4),
	ENUM32("link_create.attach_type", 8, IN, bpfrr_xlat_attach_type),
	FLAGS32("link_create.flags", 12, IN, bpfrr_xlat_attach_flags, .variants = V_LC_ATTACH_FLAGS),
	FLAGS32("link_create.flags", 12, IN, bpfrr_xlat_xdp_flags, .variants = V_LC_XDP),
	/* union */
	/* never the kernel's: 6.12 takes it only with target_fd, in that program's BTF */
	U32("link_create.target_btf_id", 16, IN, .content = BPFRR_CONTENT_BTF_ID,
	    .variants = V_LC_TRACING),
	PTR("link_create.iter_info", 16, ITER_INFO, IN, LEN_FIELD("link_create.iter_info_len", 1),
	    .nested = &bpfrr_abi_iter_link_info_desc, .variants = V_LC_ITER),
	U32("link_create.iter_info_len", 24, IN, .variants = V_LC_ITER),
	U64("link_create.perf_event.bpf_cookie", 16, IN, .variants = V_LC_PERF),
	FLAGS32("link_create.kprobe_multi.flags", 16, IN, bpfrr_xlat_kprobe_multi_flags,
		.variants = V_LC_KMULTI),
	U32("link_create.kprobe_multi.cnt", 20, IN, .variants = V_LC_KMULTI),
	PTR("link_create.kprobe_multi.syms", 24, PTR_ARRAY, IN,
	    LEN_FIELD("link_create.kprobe_multi.cnt", 8), .variants = V_LC_KMULTI),
	PTR("link_create.kprobe_multi.addrs", 32, U64_ARRAY, IN,
	    LEN_FIELD("link_create.kprobe_multi.cnt", 8), .variants = V_LC_KMULTI),
	PTR("link_create.kprobe_multi.cookies", 40, U64_ARRAY, IN,
	    LEN_FIELD("link_create.kprobe_multi.cnt", 8), .variants = V_LC_KMULTI),
	U64("link_create.tracing.cookie", 24, IN, .variants = V_LC_TRACING),
	U64("link_create.tracing.cookie", 24, IN, .variants = V_LC_RAW_TP),
	ENUM32("link_create.netfilter.pf", 16, IN, bpfrr_xlat_nf_proto, .variants = V_LC_NETFILTER),
	ENUM32("link_create.netfilter.hooknum", 20, IN, bpfrr_xlat_nf_hook,
	       .variants = V_LC_NETFILTER),
	S32("link_create.netfilter.priority", 24, IN, .variants = V_LC_NETFILTER),
	FLAGS32("link_create.netfilter.flags", 28, IN, bpfrr_xlat_netfilter_flags,
		.variants = V_LC_NETFILTER),
	FDOPT("link_create.tcx.relative_fd", 16, BPFRR_OBJ_PROG, .variants = V_LC_TCX | V_REL_PROG),
	FDOPT("link_create.tcx.relative_fd", 16, BPFRR_OBJ_LINK, .variants = V_LC_TCX | V_REL_LINK),
	U32("link_create.tcx.relative_id", 16, IN, .content = BPFRR_CONTENT_OBJ_ID,
	    .variants = V_LC_TCX | V_REL_ID),
	U64("link_create.tcx.expected_revision", 24, IN, .variants = V_LC_TCX),
	PTR("link_create.uprobe_multi.path", 16, PATH, IN, LEN_CSTR, .variants = V_LC_UMULTI),
	PTR("link_create.uprobe_multi.offsets", 24, U64_ARRAY, IN,
	    LEN_FIELD("link_create.uprobe_multi.cnt", 8), .variants = V_LC_UMULTI),
	PTR("link_create.uprobe_multi.ref_ctr_offsets", 32, U64_ARRAY, IN,
	    LEN_FIELD("link_create.uprobe_multi.cnt", 8), .variants = V_LC_UMULTI),
	PTR("link_create.uprobe_multi.cookies", 40, U64_ARRAY, IN,
	    LEN_FIELD("link_create.uprobe_multi.cnt", 8), .variants = V_LC_UMULTI),
	U32("link_create.uprobe_multi.cnt", 48, IN, .variants = V_LC_UMULTI),
	FLAGS32("link_create.uprobe_multi.flags", 52, IN, bpfrr_xlat_uprobe_multi_flags,
		.variants = V_LC_UMULTI),
	U32("link_create.uprobe_multi.pid", 56, IN, .variants = V_LC_UMULTI),
	FDOPT("link_create.netkit.relative_fd", 16, BPFRR_OBJ_PROG,
	      .variants = V_LC_NETKIT | V_REL_PROG),
	FDOPT("link_create.netkit.relative_fd", 16, BPFRR_OBJ_LINK,
	      .variants = V_LC_NETKIT | V_REL_LINK),
	U32("link_create.netkit.relative_id", 16, IN, .content = BPFRR_CONTENT_OBJ_ID,
	    .variants = V_LC_NETKIT | V_REL_ID),
	U64("link_create.netkit.expected_revision", 24, IN, .variants = V_LC_NETKIT),
	FDOPT("link_create.cgroup.relative_fd", 16, BPFRR_OBJ_PROG,
	      .variants = V_LC_CGROUP | V_REL_PROG),
	FDOPT("link_create.cgroup.relative_fd", 16, BPFRR_OBJ_LINK,
	      .variants = V_LC_CGROUP | V_REL_LINK),
	U32("link_create.cgroup.relative_id", 16, IN, .content = BPFRR_CONTENT_OBJ_ID,
	    .variants = V_LC_CGROUP | V_REL_ID),
	U64("link_create.cgroup.expected_revision", 24, IN, .variants = V_LC_CGROUP),
};
DESC(link_create, "attr(BPF_LINK_CREATE)", 60, link_create_fields);

static const struct bpfrr_field link_update_fields[] = {
	FD("link_update.link_fd", 0, BPFRR_OBJ_LINK),
	FD("link_update.new_prog_fd", 4, BPFRR_OBJ_PROG, .variants = V_PROG),
	FD("link_update.new_map_fd", 4, BPFRR_OBJ_MAP, .variants = V_MAP),
	FLAGS32("link_update.flags", 8, IN, bpfrr_xlat_link_update_flags),
	FD("link_update.old_prog_fd", 12, BPFRR_OBJ_PROG, .variants = V_PROG,
	   .flags = BPFRR_FIELDF_NEEDS_FLAG, .flag_field = "link_update.flags",
	   .flag_mask = ABI_F_REPLACE),
	FD("link_update.old_map_fd", 12, BPFRR_OBJ_MAP, .variants = V_MAP,
	   .flags = BPFRR_FIELDF_NEEDS_FLAG, .flag_field = "link_update.flags",
	   .flag_mask = ABI_F_REPLACE),
};
DESC(link_update, "attr(BPF_LINK_UPDATE)", 16, link_update_fields);

static const struct bpfrr_field link_detach_fields[] = {
	FD("link_detach.link_fd", 0, BPFRR_OBJ_LINK),
};
DESC(link_detach, "attr(BPF_LINK_DETACH)", 4, link_detach_fields);

static const struct bpfrr_field enable_stats_fields[] = {
	ENUM32("enable_stats.type", 0, IN, bpfrr_xlat_stats_type),
};
DESC(enable_stats, "attr(BPF_ENABLE_STATS)", 4, enable_stats_fields);

static const struct bpfrr_field iter_create_fields[] = {
	FD("iter_create.link_fd", 0, BPFRR_OBJ_LINK),
	U32("iter_create.flags", 4, IN),
};
DESC(iter_create, "attr(BPF_ITER_CREATE)", 8, iter_create_fields);

static const struct bpfrr_field prog_bind_map_fields[] = {
	FD("prog_bind_map.prog_fd", 0, BPFRR_OBJ_PROG),
	FD("prog_bind_map.map_fd", 4, BPFRR_OBJ_MAP),
	U32("prog_bind_map.flags", 8, IN),
};
DESC(prog_bind_map, "attr(BPF_PROG_BIND_MAP)", 12, prog_bind_map_fields);

static const struct bpfrr_field token_create_fields[] = {
	U32("token_create.flags", 0, IN),
	FD("token_create.bpffs_fd", 4, BPFRR_OBJ_DIR),
};
DESC(token_create, "attr(BPF_TOKEN_CREATE)", 8, token_create_fields);

/*
 * struct bpf_common_attr (7.2: bpf(cmd | BPF_COMMON_ATTRS, attr, size, common, common_size)),
 * taken by BPF_PROG_LOAD, BPF_BTF_LOAD and BPF_MAP_CREATE: a log for any of them (a
 * command with a log of its own in attr refuses both at once).  log_true_size is
 * written back, on success too.
 */
static const struct bpfrr_field common_attr_fields[] = {
	PTR("log_buf", 0, LOG, OUT, LEN_FIELD("log_size", 1), OUT_LEN("log_true_size"), SINCE(7, 2)),
	U32("log_size", 8, IN, SINCE(7, 2)),
	FLAGS32("log_level", 12, IN, bpfrr_xlat_log_level, SINCE(7, 2)),
	U32("log_true_size", 16, OUT, SINCE(7, 2)),
	PAD(NULL, 20, 4, SINCE(7, 2)),
};
const struct bpfrr_struct_desc bpfrr_abi_common_attr_desc = {
	.name = "bpf_common_attr", .size = 0, .size_newest = 24, .fields = common_attr_fields,
	.nr_fields = ARRAY_SIZE(common_attr_fields),
};

/* --- variants ----------------------------------------------------------------------- */

static uint32_t get_u32(const void *attr, size_t attr_size, size_t off)
{
	uint32_t v = 0;

	if (off + 4 <= attr_size)
		memcpy(&v, (const char *)attr + off, 4);
	return v;
}

/* prog type behind an fd, or -1 */
static int64_t fd_prog_type(const struct bpfrr_abi_env *env, uint32_t fd)
{
	enum bpfrr_obj_kind kind = BPFRR_OBJ_NONE;
	uint32_t type = 0;

	if (!env || !env->fd_info || env->fd_info(env->ctx, (int)fd, &kind, &type, NULL, NULL))
		return -1;
	return kind == BPFRR_OBJ_PROG ? (int64_t)type : -1;
}

/* How each attach type names its target, by command family. */
enum attach_class {
	AC_NONE, AC_CGROUP, AC_SOCKMAP, AC_LIRC, AC_FLOW_DISSECTOR, AC_SK_LOOKUP, AC_TCX,
	AC_NETKIT, AC_XDP, AC_TRACING, AC_RAW_TP, AC_ITER, AC_PERF_EVENT, AC_KMULTI, AC_UMULTI,
	AC_NETFILTER, AC_STRUCT_OPS, AC_LSM_CGROUP,
};

static const uint8_t attach_class[] = {
	AC_CGROUP, AC_CGROUP, AC_CGROUP, AC_CGROUP,		/* inet ingress/egress/sock_create, sock_ops */
	AC_SOCKMAP, AC_SOCKMAP,					/* sk_skb stream parser/verdict */
	AC_CGROUP, AC_SOCKMAP,					/* cgroup_device, sk_msg_verdict */
	AC_CGROUP, AC_CGROUP, AC_CGROUP, AC_CGROUP,		/* inet4/6 bind, connect */
	AC_CGROUP, AC_CGROUP, AC_CGROUP, AC_CGROUP,		/* post_bind, udp sendmsg */
	AC_LIRC, AC_FLOW_DISSECTOR, AC_CGROUP,			/* lirc_mode2, flow_dissector, sysctl */
	AC_CGROUP, AC_CGROUP, AC_CGROUP, AC_CGROUP,		/* udp recvmsg, get/setsockopt */
	AC_RAW_TP, AC_TRACING, AC_TRACING, AC_TRACING, AC_TRACING, /* raw_tp, fentry, fexit, fmod_ret, lsm */
	AC_ITER,						/* trace_iter */
	AC_CGROUP, AC_CGROUP, AC_CGROUP, AC_CGROUP,		/* getpeername, getsockname */
	AC_NONE, AC_CGROUP, AC_NONE, AC_SK_LOOKUP, AC_XDP,	/* xdp_devmap, sock_release, xdp_cpumap, sk_lookup, xdp */
	AC_SOCKMAP, AC_NONE, AC_NONE,				/* sk_skb_verdict, sk_reuseport */
	AC_PERF_EVENT, AC_KMULTI, AC_LSM_CGROUP, AC_STRUCT_OPS, AC_NETFILTER, /* 41..45 */
	AC_TCX, AC_TCX, AC_UMULTI,				/* 46..48 */
	AC_CGROUP, AC_CGROUP, AC_CGROUP, AC_CGROUP, AC_CGROUP,	/* unix connect ... getsockname */
	AC_NETKIT, AC_NETKIT, AC_KMULTI,			/* netkit primary/peer, kprobe_session */
};
_Static_assert(ARRAY_SIZE(attach_class) == 57, "one class per 6.12 attach type");

static int attach_class_of(uint32_t attach_type)
{
	return attach_type < ARRAY_SIZE(attach_class) ? attach_class[attach_type] : -1;
}

/* relative_fd / relative_id by BPF_F_ID / BPF_F_LINK */
static uint32_t relative_variant(uint32_t flags)
{
	if (flags & ABI_F_ID)
		return V_REL_ID;
	return flags & ABI_F_LINK ? V_REL_LINK : V_REL_PROG;
}

static uint32_t target_variant(int cls, int cmd)
{
	switch (cls) {
	case AC_CGROUP:
	case AC_LSM_CGROUP:
		return V_TGT_CGROUP;
	case AC_SOCKMAP:
		return V_TGT_MAP;
	case AC_LIRC:
		return V_TGT_DEVICE;
	case AC_FLOW_DISSECTOR:
		/* PROG_ATTACH/DETACH act on the caller's netns: target_fd must be 0 */
		return cmd == BPFRR_CMD_PROG_QUERY || cmd == BPFRR_CMD_LINK_CREATE ? V_TGT_NETNS : V_TGT_NONE;
	case AC_SK_LOOKUP:
		return V_TGT_NETNS;
	case AC_TCX:
	case AC_NETKIT:
	case AC_XDP:
		return V_TGT_IFINDEX;
	case AC_TRACING:
		return cmd == BPFRR_CMD_LINK_CREATE ? V_TGT_PROG : V_TGT_NONE;
	case AC_PERF_EVENT:
		return cmd == BPFRR_CMD_LINK_CREATE ? V_TGT_PERF : V_TGT_NONE;
	case -1:
		return V_TGT_ANY;
	default:
		return V_TGT_NONE;
	}
}

static uint32_t prog_attach_variant(const void *attr, size_t attr_size,
				    const struct bpfrr_abi_env *env)
{
	uint32_t attach_type = get_u32(attr, attr_size, 8);

	(void)env;
	return target_variant(attach_class_of(attach_type), BPFRR_CMD_PROG_ATTACH) |
	       relative_variant(get_u32(attr, attr_size, 12));
}

static uint32_t prog_query_variant(const void *attr, size_t attr_size,
				   const struct bpfrr_abi_env *env)
{
	(void)env;
	return target_variant(attach_class_of(get_u32(attr, attr_size, 4)), BPFRR_CMD_PROG_QUERY);
}

static uint32_t link_create_variant(const void *attr, size_t attr_size,
				    const struct bpfrr_abi_env *env)
{
	uint32_t attach_type = get_u32(attr, attr_size, 8);
	uint32_t rel = relative_variant(get_u32(attr, attr_size, 12));
	int cls = attach_class_of(attach_type);
	int64_t prog_type;

	if (cls == AC_STRUCT_OPS)
		return V_LC_STRUCT_OPS | V_TGT_NONE | V_LC_ATTACH_FLAGS;
	/* The kernel picks by program type first; only env can tell it. */
	prog_type = fd_prog_type(env, get_u32(attr, attr_size, 0));
	switch (prog_type) {
	case ABI_PROG_TYPE_EXT:
		return V_LC_PROG | V_TGT_PROG | V_LC_TRACING | V_LC_ATTACH_FLAGS;
	case ABI_PROG_TYPE_PERF_EVENT:
	case ABI_PROG_TYPE_TRACEPOINT:
		return V_LC_PROG | V_TGT_PERF | V_LC_PERF | V_LC_ATTACH_FLAGS;
	}
	switch (cls) {
	case AC_CGROUP:
	case AC_LSM_CGROUP:
		return V_LC_PROG | V_TGT_CGROUP | V_LC_CGROUP | rel | V_LC_ATTACH_FLAGS;
	case AC_SOCKMAP:
		return V_LC_PROG | V_TGT_MAP | V_LC_ATTACH_FLAGS;
	case AC_FLOW_DISSECTOR:
	case AC_SK_LOOKUP:
		return V_LC_PROG | V_TGT_NETNS | V_LC_ATTACH_FLAGS;
	case AC_TCX:
		return V_LC_PROG | V_TGT_IFINDEX | V_LC_TCX | rel | V_LC_ATTACH_FLAGS;
	case AC_NETKIT:
		return V_LC_PROG | V_TGT_IFINDEX | V_LC_NETKIT | rel | V_LC_ATTACH_FLAGS;
	case AC_XDP:
		return V_LC_PROG | V_TGT_IFINDEX | V_LC_XDP; /* flags: XDP_FLAGS_* */
	case AC_TRACING:
		return V_LC_PROG | V_TGT_PROG | V_LC_TRACING | V_LC_ATTACH_FLAGS;
	case AC_RAW_TP:
		return V_LC_PROG | V_TGT_NONE | V_LC_RAW_TP | V_LC_ATTACH_FLAGS;
	case AC_ITER:
		return V_LC_PROG | V_TGT_NONE | V_LC_ITER | V_LC_ATTACH_FLAGS;
	case AC_PERF_EVENT:
		return V_LC_PROG | V_TGT_PERF | V_LC_PERF | V_LC_ATTACH_FLAGS;
	case AC_KMULTI:
		return V_LC_PROG | V_TGT_NONE | V_LC_KMULTI | V_LC_ATTACH_FLAGS;
	case AC_UMULTI:
		return V_LC_PROG | V_TGT_NONE | V_LC_UMULTI | V_LC_ATTACH_FLAGS;
	case AC_NETFILTER:
		return V_LC_PROG | V_TGT_NONE | V_LC_NETFILTER | V_LC_ATTACH_FLAGS;
	case -1:
		return V_LC_PROG | V_TGT_ANY | V_LC_ATTACH_FLAGS;
	default:
		return V_LC_PROG | V_TGT_NONE | V_LC_ATTACH_FLAGS;
	}
}

static uint32_t link_update_variant(const void *attr, size_t attr_size,
				    const struct bpfrr_abi_env *env)
{
	enum bpfrr_obj_kind kind = BPFRR_OBJ_NONE;
	uint32_t link_type = 0;

	if (env && env->fd_info &&
	    !env->fd_info(env->ctx, (int)get_u32(attr, attr_size, 0), &kind, &link_type, NULL, NULL) &&
	    kind == BPFRR_OBJ_LINK && link_type == ABI_LINK_TYPE_STRUCT_OPS)
		return V_MAP;
	return V_PROG;
}

/*
 * attach_prog_fd and attach_btf_obj_fd share bytes: the kernel tries the fd
 * as a program first, then as BTF. Without env: freplace (EXT) attaches to
 * programs, everything else to (module) BTF.
 */
static uint32_t prog_load_variant(const void *attr, size_t attr_size,
				  const struct bpfrr_abi_env *env)
{
	uint32_t fd = get_u32(attr, attr_size, 112);
	enum bpfrr_obj_kind kind = BPFRR_OBJ_NONE;

	if (fd && env && env->fd_info && !env->fd_info(env->ctx, (int)fd, &kind, NULL, NULL, NULL))
		return kind == BPFRR_OBJ_PROG ? V_ATTACH_PROG : V_ATTACH_BTF;
	return get_u32(attr, attr_size, 0) == ABI_PROG_TYPE_EXT ? V_ATTACH_PROG : V_ATTACH_BTF;
}

static uint32_t test_run_variant(const void *attr, size_t attr_size,
				 const struct bpfrr_abi_env *env)
{
	return fd_prog_type(env, get_u32(attr, attr_size, 0)) == ABI_PROG_TYPE_SYSCALL ?
	       V_SYSCALL_PROG : V_OTHER_PROG;
}

/* --- the command table -------------------------------------------------------------- */

#define CMD(c, desc, ret, wb, ...) \
	[BPFRR_CMD_##c] = { .cmd = BPFRR_CMD_##c, .attr = &desc, .ret_kind = ret, \
		      .writes_attr = wb, __VA_ARGS__ }
/* the translator's class of a command (enum bpfrr_cmd_class) */
#define CLS(k)		.cls = BPFRR_CMD_CLASS_##k
#define FLAGS(f)	.flags = (f)
#define BUILDS		BPFRR_CMDF_BUILDS
#define BY_ID		BPFRR_CMDF_BY_ID
#define SHARED		BPFRR_CMDF_SHARED
#define USES_FDS	BPFRR_CMDF_USES_FDS
/* kernel/bpf/syscall.c bpf_sys_bpf() in 6.12 */
#define SYS_BPF		BPFRR_CMDF_SYS_BPF_612

/* A 2.1 trace says where (the SYMBOL of the map's value type); older ones do not. */
static const char refuse_struct_ops[] =
	"a struct_ops value whose program fds the trace does not place (a trace before format 2.1, "
	"or a module's struct_ops type): they sit where only the recording kernel's BTF says";

static const struct bpfrr_cmd_desc cmds[BPFRR_ABI_NR_CMDS] = {
	CMD(MAP_CREATE, map_create, BPFRR_OBJ_MAP, false, CLS(CREATE), FLAGS(BUILDS | USES_FDS | SYS_BPF),
	    .makes = { "map_type", "key_size", "value_size", "map_name", "btf_vmlinux_value_type_id" }),
	CMD(MAP_LOOKUP_ELEM, map_lookup, BPFRR_OBJ_NONE, false, CLS(READ), FLAGS(USES_FDS)),
	CMD(MAP_UPDATE_ELEM, map_update, BPFRR_OBJ_NONE, false, CLS(MUTATE), .acts_on = "map_fd", FLAGS(BUILDS | SYS_BPF),
	    .changes_fd = "map_fd",
	    .refuse = { .target_type = ABI_MAP_TYPE_STRUCT_OPS, .why = refuse_struct_ops, .unless_value_fds = true }),
	CMD(MAP_DELETE_ELEM, map_delete, BPFRR_OBJ_NONE, false, CLS(MUTATE), .acts_on = "map_fd", FLAGS(SYS_BPF), .changes_fd = "map_fd"),
	CMD(MAP_GET_NEXT_KEY, map_next_key, BPFRR_OBJ_NONE, false, CLS(READ), FLAGS(USES_FDS)),
	CMD(PROG_LOAD, prog_load, BPFRR_OBJ_PROG, true, .variant = prog_load_variant, CLS(CREATE),
	    FLAGS(BUILDS | USES_FDS | SYS_BPF), .makes = { .type = "prog_type", .name = "prog_name" },
	    .log = { "log_buf", "log_size", "log_level" }),
	CMD(OBJ_PIN, obj_pin, BPFRR_OBJ_NONE, false, CLS(GLOBAL), .acts_on = "bpf_fd", FLAGS(BUILDS | SHARED)),
	CMD(OBJ_GET, obj_get, BPFRR_OBJ_ANY, false, CLS(GET), FLAGS(SHARED)),
	CMD(PROG_ATTACH, prog_attach, BPFRR_OBJ_NONE, false, .variant = prog_attach_variant, CLS(GLOBAL), .acts_on = "attach_bpf_fd",
	    FLAGS(BUILDS | SHARED)),
	CMD(PROG_DETACH, prog_detach, BPFRR_OBJ_NONE, false, .variant = prog_attach_variant, CLS(GLOBAL), .acts_on = "attach_bpf_fd",
	    FLAGS(SHARED)),
	CMD(PROG_TEST_RUN, prog_test_run, BPFRR_OBJ_NONE, true, .variant = test_run_variant, CLS(TEST_RUN), .acts_on = "test.prog_fd",
	    .refuse = { .target_type = ABI_PROG_TYPE_SYSCALL,
			.why = "runs a BPF_PROG_TYPE_SYSCALL program: what it did inside the kernel "
			       "(objects it made, fds it installed) is not in the trace" },
	    /* refused unless the fds the program made are found in its context (a light skeleton) */
	    .products = { .target_type = ABI_PROG_TYPE_SYSCALL, .buf = "test.ctx_in" }),
	CMD(PROG_GET_NEXT_ID, get_next_id, BPFRR_OBJ_NONE, true, CLS(READ)),
	CMD(MAP_GET_NEXT_ID, get_next_id, BPFRR_OBJ_NONE, true, CLS(READ)),
	CMD(PROG_GET_FD_BY_ID, prog_get_fd, BPFRR_OBJ_PROG, false, CLS(GET), FLAGS(BY_ID)),
	CMD(MAP_GET_FD_BY_ID, map_get_fd, BPFRR_OBJ_MAP, false, CLS(GET), FLAGS(BY_ID | SYS_BPF)),
	CMD(OBJ_GET_INFO_BY_FD, obj_get_info, BPFRR_OBJ_NONE, true, CLS(READ), FLAGS(USES_FDS)),
	CMD(PROG_QUERY, prog_query, BPFRR_OBJ_NONE, true, .variant = prog_query_variant, CLS(READ)),
	CMD(RAW_TRACEPOINT_OPEN, raw_tp_open, BPFRR_OBJ_LINK, false, CLS(CREATE), FLAGS(BUILDS | USES_FDS | SYS_BPF)),
	CMD(BTF_LOAD, btf_load, BPFRR_OBJ_BTF, true, CLS(CREATE), FLAGS(BUILDS | USES_FDS | SYS_BPF),
	    .log = { "btf_log_buf", "btf_log_size", "btf_log_level" }),
	CMD(BTF_GET_FD_BY_ID, btf_get_fd, BPFRR_OBJ_BTF, false, CLS(GET), FLAGS(BY_ID)),
	CMD(TASK_FD_QUERY, task_fd_query, BPFRR_OBJ_NONE, true, CLS(READ)),
	CMD(MAP_LOOKUP_AND_DELETE_ELEM, map_lookup, BPFRR_OBJ_NONE, false, CLS(MUTATE), .acts_on = "map_fd",
	    .changes_fd = "map_fd"),
	CMD(MAP_FREEZE, map_freeze, BPFRR_OBJ_NONE, false, CLS(MUTATE), .acts_on = "map_fd", FLAGS(BUILDS | SYS_BPF), .changes_fd = "map_fd"),
	CMD(BTF_GET_NEXT_ID, get_next_id, BPFRR_OBJ_NONE, true, CLS(READ)),
	CMD(MAP_LOOKUP_BATCH, map_lookup_batch, BPFRR_OBJ_NONE, true, CLS(READ)),
	CMD(MAP_LOOKUP_AND_DELETE_BATCH, map_lookup_batch, BPFRR_OBJ_NONE, true, CLS(MUTATE), .acts_on = "batch.map_fd"),
	CMD(MAP_UPDATE_BATCH, map_update_batch, BPFRR_OBJ_NONE, true, CLS(MUTATE), .acts_on = "batch.map_fd", FLAGS(BUILDS),
	    .refuse = { .target_type = ABI_MAP_TYPE_STRUCT_OPS, .why = refuse_struct_ops }),
	CMD(MAP_DELETE_BATCH, map_delete_batch, BPFRR_OBJ_NONE, true, CLS(MUTATE), .acts_on = "batch.map_fd"),
	/* whether it is SHARED depends on its attr: see replayer/translate/pass_reloc.c */
	CMD(LINK_CREATE, link_create, BPFRR_OBJ_LINK, false, .variant = link_create_variant, CLS(CREATE),
	    FLAGS(BUILDS | SYS_BPF), .changes_fd = "link_create.target_fd",
	    .refuse = { .field = "link_create.iter_info",
			.why = "link_create.iter_info may hold an fd bpfrr cannot locate" }),
	CMD(LINK_UPDATE, link_update, BPFRR_OBJ_NONE, false, .variant = link_update_variant, CLS(MUTATE), .acts_on = "link_update.link_fd",
	    FLAGS(BUILDS)),
	CMD(LINK_GET_FD_BY_ID, link_get_fd, BPFRR_OBJ_LINK, false, CLS(GET), FLAGS(BY_ID)),
	CMD(LINK_GET_NEXT_ID, get_next_id, BPFRR_OBJ_NONE, true, CLS(READ)),
	CMD(ENABLE_STATS, enable_stats, BPFRR_OBJ_STATS, false, CLS(CREATE)),
	CMD(ITER_CREATE, iter_create, BPFRR_OBJ_ITER, false, CLS(CREATE)),
	CMD(LINK_DETACH, link_detach, BPFRR_OBJ_NONE, false, CLS(MUTATE), .acts_on = "link_detach.link_fd"),
	CMD(PROG_BIND_MAP, prog_bind_map, BPFRR_OBJ_NONE, false, CLS(MUTATE), .acts_on = "prog_bind_map.prog_fd", FLAGS(BUILDS),
	    .changes_fd = "prog_bind_map.prog_fd"),
	CMD(TOKEN_CREATE, token_create, BPFRR_OBJ_TOKEN, false, CLS(CREATE), FLAGS(BUILDS)),
};

const struct bpfrr_cmd_desc *bpfrr_abi_cmd(int cmd)
{
	if (cmd < 0 || cmd >= BPFRR_ABI_NR_CMDS)
		return NULL;
	return &cmds[cmd];
}

const struct bpfrr_struct_desc *bpfrr_abi_info_desc(enum bpfrr_obj_kind kind)
{
	switch (kind) {
	case BPFRR_OBJ_PROG:
		return &bpfrr_abi_prog_info_desc;
	case BPFRR_OBJ_MAP:
		return &bpfrr_abi_map_info_desc;
	case BPFRR_OBJ_BTF:
		return &bpfrr_abi_btf_info_desc;
	case BPFRR_OBJ_LINK:
		return &bpfrr_abi_link_info_desc;
	default:
		return NULL;
	}
}

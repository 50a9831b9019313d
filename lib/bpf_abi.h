/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpf_abi.h - one description of the Linux 6.12 bpf() UAPI.
 *
 * A table (lib/bpf_abi_table.c) describes, for every bpf() command, every
 * field of its part of union bpf_attr: offset, size, kind (integer, enum,
 * flags, fd, pointer, inline string), direction, the object kind behind an
 * fd, and for pointers what the buffer holds and how its length is found.
 * The same is done for the info structs BPF_OBJ_GET_INFO_BY_FD fills in
 * (bpf_prog_info, bpf_map_info, bpf_btf_info, bpf_link_info).
 *
 * Fields a later kernel added (fd_array_cnt, the program signature, exclusive
 * maps' hash, bpf_map_info.hash) are in it too, by the upstream layout, with
 * the release that added them in `since`; struct bpf_common_attr, the 4th
 * argument of bpf(cmd | BPF_COMMON_ATTRS, ...) (7.2), is described as well.
 *
 * The offsets are the 6.12 UAPI's, written explicitly: the build machine's
 * <linux/bpf.h> may be older, so nothing here depends on it. Field names
 * are the C member paths, so tests/unit/test_bpf_abi.c compiles a program
 * printing offsetof/sizeof of every field against the installed header
 * (fields it has) and against the 6.12 UAPI header of a kernel tree when
 * one is at hand (all fields; reported as SKIP without a tree), and checks
 * each command's attr size against the kernel's BPF_*_LAST_FIELD.
 *
 * The recorder, the dumper and the translator all use the walkers below;
 * none of them should know a field offset of its own.
 *
 * Known limits: fds inside BPF_MAP_TYPE_STRUCT_OPS values (program fds at
 * offsets only the kernel's BTF tells) need env->value_fds; fds inside
 * link_create.iter_info need env->iter_target.
 */
#ifndef BPFRR_BPF_ABI_H
#define BPFRR_BPF_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The bpf() commands, by their numbers in the kernel's enum bpf_cmd (6.12).
 * This is the only list of them: it makes enum bpfrr_cmd (BPFRR_CMD_MAP_CREATE,
 * ...) and the names ("BPF_MAP_CREATE", lib/bpf_abi_names.c); everything else
 * about a command is in its row of the table (struct bpfrr_cmd_desc).
 * tests/unit/test_bpf_abi.c checks every value against the UAPI header.
 */
#define BPFRR_CMD_LIST(X) \
	X(MAP_CREATE, 0) \
	X(MAP_LOOKUP_ELEM, 1) \
	X(MAP_UPDATE_ELEM, 2) \
	X(MAP_DELETE_ELEM, 3) \
	X(MAP_GET_NEXT_KEY, 4) \
	X(PROG_LOAD, 5) \
	X(OBJ_PIN, 6) \
	X(OBJ_GET, 7) \
	X(PROG_ATTACH, 8) \
	X(PROG_DETACH, 9) \
	X(PROG_TEST_RUN, 10) \
	X(PROG_GET_NEXT_ID, 11) \
	X(MAP_GET_NEXT_ID, 12) \
	X(PROG_GET_FD_BY_ID, 13) \
	X(MAP_GET_FD_BY_ID, 14) \
	X(OBJ_GET_INFO_BY_FD, 15) \
	X(PROG_QUERY, 16) \
	X(RAW_TRACEPOINT_OPEN, 17) \
	X(BTF_LOAD, 18) \
	X(BTF_GET_FD_BY_ID, 19) \
	X(TASK_FD_QUERY, 20) \
	X(MAP_LOOKUP_AND_DELETE_ELEM, 21) \
	X(MAP_FREEZE, 22) \
	X(BTF_GET_NEXT_ID, 23) \
	X(MAP_LOOKUP_BATCH, 24) \
	X(MAP_LOOKUP_AND_DELETE_BATCH, 25) \
	X(MAP_UPDATE_BATCH, 26) \
	X(MAP_DELETE_BATCH, 27) \
	X(LINK_CREATE, 28) \
	X(LINK_UPDATE, 29) \
	X(LINK_GET_FD_BY_ID, 30) \
	X(LINK_GET_NEXT_ID, 31) \
	X(ENABLE_STATS, 32) \
	X(ITER_CREATE, 33) \
	X(LINK_DETACH, 34) \
	X(PROG_BIND_MAP, 35) \
	X(TOKEN_CREATE, 36)

enum bpfrr_cmd {
#define BPFRR_CMD_ENUM(c, nr) BPFRR_CMD_##c = nr,
	BPFRR_CMD_LIST(BPFRR_CMD_ENUM)
#undef BPFRR_CMD_ENUM
	BPFRR_CMD__MAX,
};

/* Highest command number the table knows (BPF_TOKEN_CREATE in 6.12) + 1. */
#define BPFRR_ABI_NR_CMDS BPFRR_CMD__MAX

/* sizeof(union bpf_attr) in 6.12 (prog_token_fd ends at 148, aligned 8).
 * Larger attrs are legal if the tail is zero. */
#define BPFRR_ABI_ATTR_SIZE 152

/*
 * Kernel versions, as a field's `since` says them: (major << 8) | minor.
 * The table is 6.12's; fields a later kernel added are in it too, by the
 * upstream layout, each marked with the release that added it, so that the
 * recorder captures them, dump prints them and the translator refuses them
 * by name on a kernel that lacks them (bpfrr_abi_newer_fields()).
 */
#define BPFRR_KVER(major, minor)	(((major) << 8) | (minor))
#define BPFRR_ABI_BASE_KVER		BPFRR_KVER(6, 12)	/* what `since` 0 means */

/*
 * bpf(cmd | BPFRR_ABI_COMMON_ATTRS, attr, size, common_attr, common_size):
 * the 4th and 5th arguments carry a struct bpf_common_attr (a log buffer
 * for BPF_PROG_LOAD, BPF_BTF_LOAD, BPF_MAP_CREATE).  Upstream: "bpf: Extend
 * BPF syscall with common attributes support" (Leon Hwang, v14 series, lore
 * 20260512153157.28382-2), applied to bpf-next in May 2026 (libbpf's mirror:
 * commit 978fc80e, synced 2026-05-28), so in mainline from the 7.2 merge
 * window; 7.2 is that inference, not a tag this was checked against.
 */
#define BPFRR_ABI_COMMON_ATTRS		(1u << 16)
#define BPFRR_ABI_COMMON_ATTRS_KVER	BPFRR_KVER(7, 2)

/*
 * Length caps. A buffer whose length rule asks for more is yielded with
 * len = the cap and BPFRR_ABI_BUF_TRUNCATED set; want_len keeps the
 * requested length. The kernel itself refuses far less than these for most
 * buffers (e.g. BPF_COMPLEXITY_LIMIT_INSNS * 8 = 8 MiB of insns), so a
 * truncated buffer means a bogus attr or a call that fails anyway.
 */
#define BPFRR_ABI_BUF_MAX	(256u << 20)	/* any single buffer: 256 MiB */
#define BPFRR_ABI_STR_MAX	4096u		/* NUL-terminated strings (PATH_MAX) */
#define BPFRR_ABI_ARRAY_MAX	(1u << 20)	/* elements of nested pointer arrays (kprobe_multi.syms) */

enum bpfrr_phase {
	BPFRR_PHASE_ENTRY,	/* syscall entry: what the kernel will read */
	BPFRR_PHASE_EXIT,	/* syscall exit: what the kernel wrote */
};

enum bpfrr_dir {
	BPFRR_DIR_IN = 1,	/* the kernel reads it */
	BPFRR_DIR_OUT = 2,	/* the kernel writes it */
	BPFRR_DIR_INOUT = 3,	/* both */
};

/* Kind of object behind a file descriptor. */
enum bpfrr_obj_kind {
	BPFRR_OBJ_NONE,
	BPFRR_OBJ_MAP,
	BPFRR_OBJ_PROG,
	BPFRR_OBJ_BTF,
	BPFRR_OBJ_LINK,
	BPFRR_OBJ_CGROUP,	/* cgroup directory fd */
	BPFRR_OBJ_PERF_EVENT,	/* perf_event_open() fd */
	BPFRR_OBJ_NETNS,	/* /proc/PID/ns/net fd */
	BPFRR_OBJ_ANY,		/* fd of any kind (unknown, or several allowed) */
	BPFRR_OBJ_TOKEN,	/* BPF token (BPF_TOKEN_CREATE) */
	BPFRR_OBJ_SOCKET,	/* socket (sockmap/sockhash/xskmap values) */
	BPFRR_OBJ_DIR,		/* directory fd: bpffs root for tokens, path_fd of BPF_OBJ_* */
	BPFRR_OBJ_PIDFD,	/* pidfd (task iterator) */
	BPFRR_OBJ_DEVICE,	/* character device (lirc for BPF_LIRC_MODE2) */
	BPFRR_OBJ_ITER,		/* bpf iterator fd (BPF_ITER_CREATE result; read() it) */
	BPFRR_OBJ_STATS,	/* BPF_ENABLE_STATS fd: stats stay on while it is open */
	BPFRR_OBJ__MAX,
};

/* What a buffer (or an inline field) holds. */
enum bpfrr_abi_content {
	BPFRR_CONTENT_NONE,
	BPFRR_CONTENT_BYTES,		/* opaque bytes */
	BPFRR_CONTENT_STRING,		/* NUL-terminated text (license, tracepoint name, path) */
	BPFRR_CONTENT_PATH,		/* NUL-terminated file system path */
	BPFRR_CONTENT_LOG,		/* verifier / BTF log text written by the kernel */
	BPFRR_CONTENT_INSNS,		/* struct bpf_insn[] */
	BPFRR_CONTENT_JITED,		/* machine code */
	BPFRR_CONTENT_BTF,		/* raw BTF blob */
	BPFRR_CONTENT_FUNC_INFO,	/* struct bpf_func_info records (rec size from attr) */
	BPFRR_CONTENT_LINE_INFO,	/* struct bpf_line_info records */
	BPFRR_CONTENT_CORE_RELOS,	/* struct bpf_core_relo records */
	BPFRR_CONTENT_FD_ARRAY,		/* __s32 fds indexed by the insns */
	BPFRR_CONTENT_KEY,		/* one map key */
	BPFRR_CONTENT_VALUE,		/* one map value (per-CPU: nr_cpus slots of round_up(vs, 8)) */
	BPFRR_CONTENT_KEYS,		/* count map keys (batch ops) */
	BPFRR_CONTENT_VALUES,		/* count map values (batch ops) */
	BPFRR_CONTENT_BATCH_TOKEN,	/* in_batch/out_batch position */
	BPFRR_CONTENT_CTX,		/* BPF_PROG_TEST_RUN context */
	BPFRR_CONTENT_DATA,		/* BPF_PROG_TEST_RUN packet data */
	BPFRR_CONTENT_PROG_INFO,	/* struct bpf_prog_info */
	BPFRR_CONTENT_MAP_INFO,		/* struct bpf_map_info */
	BPFRR_CONTENT_BTF_INFO,		/* struct bpf_btf_info */
	BPFRR_CONTENT_LINK_INFO,	/* struct bpf_link_info */
	BPFRR_CONTENT_INFO,		/* info struct of an object of unknown kind */
	BPFRR_CONTENT_IDS,		/* __u32 object ids */
	BPFRR_CONTENT_U32_ARRAY,	/* __u32[] (attach flags, func lens, ...) */
	BPFRR_CONTENT_U64_ARRAY,	/* __u64[] (addresses, offsets, cookies) */
	BPFRR_CONTENT_PTR_ARRAY,	/* __u64 user pointers (kprobe_multi.syms) */
	BPFRR_CONTENT_PROG_TAGS,	/* __u8[BPF_TAG_SIZE] per subprogram */
	BPFRR_CONTENT_ITER_INFO,	/* union bpf_iter_link_info */
	BPFRR_CONTENT_NAME,		/* inline NUL-padded name (map_name, prog_name) */
	BPFRR_CONTENT_TAG,		/* inline 8-byte program tag */
	BPFRR_CONTENT_IFINDEX,		/* network interface index */
	BPFRR_CONTENT_BTF_ID,		/* BTF type id */
	BPFRR_CONTENT_OBJ_ID,		/* kernel object id (prog/map/btf/link id) */
	/* after 6.12 (append only: the values are in traces) */
	BPFRR_CONTENT_SIGNATURE,	/* PROG_LOAD signature (6.18) */
	BPFRR_CONTENT_SHA256,		/* a SHA-256: MAP_CREATE excl_prog_hash, bpf_map_info.hash (6.18) */
	BPFRR_CONTENT_COMMON_ATTR,	/* struct bpf_common_attr (4th bpf() argument, 7.2) */
	BPFRR_CONTENT_NETLINK,		/* netlink messages a loader sent (lib/netlink.h) */
	BPFRR_CONTENT__MAX,
};

/* Kind of a described field. */
enum bpfrr_field_kind {
	BPFRR_FIELD_UINT,	/* unsigned integer (count, size, id, ...) */
	BPFRR_FIELD_INT,	/* signed integer */
	BPFRR_FIELD_ENUM,	/* value named by field->xlat */
	BPFRR_FIELD_FLAGS,	/* bits named by field->xlat */
	BPFRR_FIELD_FD,		/* file descriptor; object kind in fd_kind */
	BPFRR_FIELD_PTR,	/* __aligned_u64 user pointer; buffer described by len_rule etc. */
	BPFRR_FIELD_STR,	/* inline NUL-padded char array */
	BPFRR_FIELD_BYTES,	/* inline byte array (tag, uuid) */
	BPFRR_FIELD_PAD,	/* unnamed padding / reserved: must be zero */
};

/* How the length of the buffer behind a pointer field is found. */
enum bpfrr_len_rule {
	BPFRR_LEN_NONE,		/* not a pointer */
	BPFRR_LEN_FIXED,	/* len_mult bytes */
	BPFRR_LEN_FIELD,	/* (field len_field) * len_mult bytes */
	BPFRR_LEN_FIELD_REC,	/* (field len_field) * (field rec_field) bytes */
	BPFRR_LEN_CSTR,		/* NUL-terminated, at most BPFRR_ABI_STR_MAX incl. the NUL */
	BPFRR_LEN_MAP_KEY,	/* key_size of the map behind field map_field */
	BPFRR_LEN_MAP_VALUE,	/* value size of that map (per-CPU aware) */
	BPFRR_LEN_MAP_KEYS,	/* (field len_field) * key_size */
	BPFRR_LEN_MAP_VALUES,	/* (field len_field) * value size (per-CPU aware) */
	BPFRR_LEN_BATCH_TOKEN,	/* 4 for hash maps, key_size for others */
	BPFRR_LEN_FD_ARRAY,	/* (highest fd_array index the insns use + 1) * 4 */
	BPFRR_LEN_INFO,		/* (field len_field) bytes; layout by the kind behind map_field */
};

/* Symbolic names of an enum or of flag bits. Terminated by name == NULL. */
struct bpfrr_xlat_entry {
	uint64_t val;
	const char *name;
};

struct bpfrr_xlat {
	const char *type_name;		/* "enum bpf_map_type", "BPF_F_* map flags" */
	bool flags;			/* bit flags (render "A|B|0x40") vs. enum */
	const struct bpfrr_xlat_entry *entries;	/* UAPI names of sparse values / flag bits, or NULL */
	/* optional short name ("hash", "kprobe": libbpf's *_str, ours for newer values), may be NULL */
	const char *(*name_fn)(uint64_t val);
	const char *const *dense;	/* UAPI names indexed by value 0..nr_dense-1 (NULL holes), or NULL */
	unsigned int nr_dense;
	const char *header;		/* UAPI header defining the names; NULL: kernel-internal names */
};

struct bpfrr_struct_desc;

/*
 * One field of a described struct. Sibling references (len_field,
 * rec_field, map_field, out_len_field) are field names within the same
 * struct; unit tests check they all resolve.
 */
struct bpfrr_field {
	const char *name;		/* UAPI name as written in C: "key_size", "link_create.kprobe_multi.syms" */
	uint16_t offset;		/* in the struct */
	uint16_t size;			/* bytes */
	uint8_t kind;			/* enum bpfrr_field_kind */
	uint8_t dir;			/* enum bpfrr_dir: what the kernel does with the field itself */
	uint8_t fd_kind;		/* enum bpfrr_obj_kind, for BPFRR_FIELD_FD */
	uint8_t content;		/* enum bpfrr_abi_content: of the buffer (PTR) or the value */
	uint8_t buf_dir;		/* enum bpfrr_dir of the buffer behind a PTR */
	uint8_t len_rule;		/* enum bpfrr_len_rule, for PTR */
	uint16_t flags;			/* BPFRR_FIELDF_* */
	uint32_t len_mult;		/* element size (FIELD, FIXED) */
	const char *len_field;		/* count/size field */
	const char *rec_field;		/* record size field (FIELD_REC) */
	const char *map_field;		/* map fd field (MAP_*, BATCH_TOKEN), object fd field (INFO) */
	const char *out_len_field;	/* field the kernel sets to what it wrote (OUT buffers) */
	const struct bpfrr_xlat *xlat;	/* ENUM / FLAGS names */
	uint32_t variants;		/* variant bits the field needs, all of them (0 = always): see bpfrr_abi_field_applies */
	const struct bpfrr_struct_desc *nested;	/* layout of the pointed-to struct, if any */
	/* BPFRR_FIELDF_NEEDS_FLAG: the field is an fd only when (flag_field & flag_mask) */
	const char *flag_field;
	uint64_t flag_mask;
	/* BPFRR_FIELDF_KERNEL_BTF: the fd field naming the module BTF the id is in (NULL: vmlinux only) */
	const char *btf_obj_field;
	/* the kernel release that added the field (BPFRR_KVER), 0: 6.12 has it */
	uint16_t since;
};

/* Field flags. */
#define BPFRR_FIELDF_ZERO_CAP_UNLIMITED	0x0001	/* capacity 0 means "no limit" (test.data_size_out) */
#define BPFRR_FIELDF_ELEM_FDS		0x0002	/* buffer holds map values that may hold fds */
#define BPFRR_FIELDF_ALIAS		0x0008	/* shares its bytes with another field of the same variant (query.count) */
#define BPFRR_FIELDF_NEEDS_FLAG		0x0010	/* fd only meaningful when a flag is set (token fds, path_fd) */
#define BPFRR_FIELDF_FD_OPTIONAL	0x0020	/* fd 0 means "none" (inner_map_fd, btf_fd, ...) */
#define BPFRR_FIELDF_FOREIGN_FD		0x0040	/* fd in another task's table (task_fd_query.fd): not walked */
#define BPFRR_FIELDF_OUT_LEN_PLUS_NUL	0x0080	/* out_len_field excludes the NUL the kernel also wrote */
#define BPFRR_FIELDF_KERNEL_BTF		0x0100	/* a BTF id of the kernel's BTF (vmlinux or btf_obj_field's
						 * module), not of the loader's: it differs between builds */
#define BPFRR_FIELDF_STRUCT_OPS_VALUE	0x0200	/* a struct_ops map's value type: the kernel reads program
						 * fds from its function pointer members (env->value_fds) */

struct bpfrr_struct_desc {
	const char *name;		/* "bpf_prog_info", "attr(BPF_PROG_LOAD)" */
	uint32_t size;			/* 6.12 size of the struct (or attr part) */
	/* size with the later fields the table knows (their `since`); 0: size */
	uint32_t size_newest;
	const struct bpfrr_field *fields;
	unsigned int nr_fields;
	/* variant mask of a struct's contents (bpf_link_info by its type), or NULL */
	uint32_t (*variant)(const void *data, size_t len);
};

struct bpfrr_abi_env;

/*
 * What a command is to the translator (replayer/translate/pass_select.c decides from
 * it what to replay). Every row of the table has one; test_bpf_abi fails
 * on a row without.
 */
enum bpfrr_cmd_class {
	BPFRR_CMD_CLASS_NONE,		/* not classified: a bug in the table */
	BPFRR_CMD_CLASS_CREATE,		/* returns a new object (map, prog, BTF, link, ...) */
	BPFRR_CMD_CLASS_MUTATE,		/* changes an object it names (map update, freeze, bind) */
	BPFRR_CMD_CLASS_GLOBAL,		/* an effect beyond its objects' fds (pin, cgroup attach) */
	BPFRR_CMD_CLASS_GET,		/* another fd for an existing object (by id or path) */
	BPFRR_CMD_CLASS_READ,		/* reads state only (lookups, info, id walks, queries) */
	BPFRR_CMD_CLASS_TEST_RUN,	/* runs a program (BPF_PROG_TEST_RUN) */
};

/* Command flags (struct bpfrr_cmd_desc.flags). */
#define BPFRR_CMDF_BUILDS	0x0001	/* a successful call builds state: it can be the default
					 * replay point (CREATE, MUTATE and GLOBAL classes only) */
#define BPFRR_CMDF_BY_ID	0x0002	/* gets an fd by kernel id, which differs from boot to boot */
#define BPFRR_CMDF_SHARED	0x0004	/* acts on state shared beyond its fds (bpffs paths, cgroup
					 * attachments): replayed in recorded order with the others */
#define BPFRR_CMDF_USES_FDS	0x0008	/* only uses the objects its attr fds name, changes none */
#define BPFRR_CMDF_SYS_BPF_612	0x0010	/* stock 6.12's bpf_sys_bpf() accepts it from a syscall program */

/* What the attr of a command that makes an object says of it: field names, NULL if none. */
struct bpfrr_cmd_makes {
	const char *type;		/* "map_type", "prog_type" */
	const char *key_size, *value_size;
	const char *name;		/* "map_name", "prog_name" */
	const char *value_type;		/* "btf_vmlinux_value_type_id": a struct_ops map's value type */
};

/* The log buffer a command fills in: its attr fields, or all NULL. */
struct bpfrr_cmd_log {
	const char *buf;		/* "log_buf" */
	const char *size;		/* "log_size" */
	const char *level;		/* "log_level" */
};

/*
 * When the translator refuses to replay a call of the command (why != NULL):
 * if field is set, when that attr field is not 0; else when the object the
 * call acts on (its map or program) has type target_type.
 */
struct bpfrr_cmd_refusal {
	const char *field;
	uint32_t target_type;
	const char *why;
	/* not refused when the trace says where the target map's value holds fds
	 * (a struct_ops map: env->value_fds) */
	bool unless_value_fds;
};

/* The most fd places of one map value the walker takes (BPFRR_SYM_VALUE_FDS_MAX). */
#define BPFRR_ABI_VALUE_FDS_MAX	64

/*
 * A run of a program of target_type may make objects inside the kernel and
 * write their fds into the in/out buffer buf (an attr pointer field): a
 * light skeleton's BPF_PROG_TYPE_SYSCALL loader writes the fds of the maps
 * and programs it made into its context, which BPF_PROG_RUN copies back.
 * The translator replays such a run and takes those fds from there.
 */
struct bpfrr_cmd_products {
	uint32_t target_type;
	const char *buf;
};

/* One bpf() command. */
struct bpfrr_cmd_desc {
	int cmd;				/* enum bpfrr_cmd */
	const struct bpfrr_struct_desc *attr;	/* its fields of union bpf_attr */
	uint8_t ret_kind;			/* enum bpfrr_obj_kind of a successful return (NONE: 0 / count) */
	bool writes_attr;			/* the kernel writes fields of attr back: re-read it at exit */
	/* variant mask of this call (link_create by attach_type, ...); NULL: every field applies.
	 * env (may be NULL) refines it: e.g. the prog type behind link_create.prog_fd. */
	uint32_t (*variant)(const void *attr, size_t attr_size, const struct bpfrr_abi_env *env);
	uint8_t cls;				/* enum bpfrr_cmd_class */
	uint16_t flags;				/* BPFRR_CMDF_* */
	/* the one attr fd whose object the call changes (the others it only uses), or NULL:
	 * then all of them are changed, or none with BPFRR_CMDF_USES_FDS */
	const char *changes_fd;
	/* MUTATE, GLOBAL and TEST_RUN rows: the attr fd naming the object the call acts on
	 * (its target, which a later replay point keeps alive); NULL for the other classes */
	const char *acts_on;
	struct bpfrr_cmd_makes makes;
	struct bpfrr_cmd_log log;
	struct bpfrr_cmd_refusal refuse;
	struct bpfrr_cmd_products products;	/* TEST_RUN: where a run writes the fds it made */
};

/* Table access. */
const struct bpfrr_cmd_desc *bpfrr_abi_cmd(int cmd);	/* NULL if unknown */
const char *bpfrr_abi_cmd_name(int cmd);		/* "BPF_MAP_CREATE", or NULL */
int bpfrr_abi_cmd_by_name(const char *name);		/* accepts "BPF_MAP_CREATE" or "map_create"; -1 if unknown */
/* what a successful return value is: BPFRR_OBJ_NONE for 0/count, or the kind of new fd */
enum bpfrr_obj_kind bpfrr_abi_cmd_ret_kind(int cmd, const void *attr, size_t attr_size);
/* the variant mask of this call (0 if the command has no variants) */
uint32_t bpfrr_abi_cmd_variant(int cmd, const void *attr, size_t attr_size);
/* the same, using env->fd_info to learn the kinds behind fds (env may be NULL) */
uint32_t bpfrr_abi_cmd_variant_env(int cmd, const void *attr, size_t attr_size,
				   const struct bpfrr_abi_env *env);
/* the field named name of cmd's attr (exact UAPI name), or NULL */
const struct bpfrr_field *bpfrr_abi_cmd_field(int cmd, const char *name);
/* is field f valid for a call with this variant mask */
bool bpfrr_abi_field_applies(const struct bpfrr_field *f, uint32_t variant);
/* read field f (1..8 bytes, little/native endian) from attr; 0 if beyond attr_size */
uint64_t bpfrr_abi_field_get(const struct bpfrr_field *f, const void *base, size_t size);
/*
 * Does the BTF id in attr field f of this call name a type of the running
 * kernel's BTF?  true if f is a KERNEL_BTF field whose id is not 0 and no
 * other object's BTF holds it (freplace's attach_prog_fd: the target
 * program's); *module_fd is then the fd of the module BTF it is in, or -1
 * for vmlinux.  env (may be NULL) tells the kinds behind fds, as for
 * bpfrr_abi_cmd_variant_env().
 */
bool bpfrr_abi_kernel_btf_id(int cmd, const struct bpfrr_field *f, const void *attr, size_t attr_size,
			     const struct bpfrr_abi_env *env, int *module_fd);

/*
 * An fd field the kernel reads only when a flag is set (replace_bpf_fd
 * with BPF_F_REPLACE, the token fds with BPF_F_TOKEN_FD): when that flag
 * is not set in this call, the flag's field (f->flag_mask names the flag),
 * whose absence means the bytes are no fd at all; NULL when f is an fd the
 * kernel takes, or no such field.
 */
const struct bpfrr_field *bpfrr_abi_fd_gate(int cmd, const struct bpfrr_field *f, const void *attr,
					    size_t attr_size, const struct bpfrr_abi_env *env);

/*
 * Is attach-type field f, of value value, "none" in this call?  Attach type
 * 0 is BPF_CGROUP_INET_INGRESS, which only a cgroup_skb program means; an
 * XDP, EXT or tracing program passes 0 for no attach type.  true when the
 * program (BPF_PROG_LOAD's prog_type; the program fd an attaching command
 * acts on, through env) is known and not cgroup_skb.
 */
bool bpfrr_abi_attach_type_none(int cmd, const struct bpfrr_field *f, uint64_t value, const void *attr,
				size_t attr_size, const struct bpfrr_abi_env *env);

/* What the attr of a call of cmd says of the object it makes (struct bpfrr_cmd_makes). */
#define BPFRR_ABI_OBJ_NAME_LEN 16	/* BPF_OBJ_NAME_LEN */
struct bpfrr_abi_made {
	bool has_type;			/* obj_type was read (map_type, prog_type) */
	bool has_sizes;			/* key_size and value_size were read */
	bool has_name;			/* the name field lies within the attr */
	uint32_t obj_type, key_size, value_size;
	char name[BPFRR_ABI_OBJ_NAME_LEN + 1];	/* NUL-terminated */
	uint32_t value_type;		/* makes.value_type: a kernel BTF id, 0 if none */
	bool value_type_module;		/* ... of a module's BTF (its btf_obj_field is set) */
};
/* fill *m (zeroed first) from attr; false if cmd's attr says nothing of what it makes */
bool bpfrr_abi_cmd_made(int cmd, const void *attr, size_t attr_len, struct bpfrr_abi_made *m);

/*
 * Later UAPI.  bpfrr_abi_newer_fields() calls cb (may be NULL) for each field
 * of cmd's attr that a kernel of version kver lacks (since > kver) and this
 * call sets (non-zero, within attr_size), then once, with f NULL, if bytes
 * after the newest layout the table knows are not zero: tail_off is the first
 * such byte, tail_end one past the last (the kernel would refuse them with
 * E2BIG unless it knows a field there).  Returns how many it found.
 */
typedef void (*bpfrr_abi_newer_cb)(void *arg, const struct bpfrr_field *f, const char *path,
				   size_t tail_off, size_t tail_end);
unsigned int bpfrr_abi_newer_fields(int cmd, const void *attr, size_t attr_size, unsigned int kver,
				    bpfrr_abi_newer_cb cb, void *arg);
/* "6.18" for BPFRR_KVER(6, 18) into buf */
const char *bpfrr_abi_kver_str(unsigned int kver, char *buf, size_t size);
/* the bytes of a struct the table knows: size_newest, or size */
static inline uint32_t bpfrr_abi_desc_known_size(const struct bpfrr_struct_desc *d)
{
	return d->size_newest > d->size ? d->size_newest : d->size;
}

/* Info struct layouts (BPF_OBJ_GET_INFO_BY_FD), by object kind; NULL for others. */
const struct bpfrr_struct_desc *bpfrr_abi_info_desc(enum bpfrr_obj_kind kind);
extern const struct bpfrr_struct_desc bpfrr_abi_prog_info_desc;
extern const struct bpfrr_struct_desc bpfrr_abi_map_info_desc;
extern const struct bpfrr_struct_desc bpfrr_abi_btf_info_desc;
extern const struct bpfrr_struct_desc bpfrr_abi_link_info_desc;
extern const struct bpfrr_struct_desc bpfrr_abi_iter_link_info_desc;

/* Names. All return NULL for an unknown value. */
const char *bpfrr_abi_obj_kind_name(enum bpfrr_obj_kind kind);		/* "map", "prog", ... */
const char *bpfrr_abi_content_name(enum bpfrr_abi_content content);	/* "insns", "btf", ... */
const char *bpfrr_abi_dir_name(enum bpfrr_dir dir);			/* "in", "out", "inout" */
/* libbpf's names where libbpf 1.1 has them ("hash", "kprobe", "cgroup_inet_ingress"),
 * ours in the same style for newer values */
const char *bpfrr_abi_prog_type_name(uint32_t prog_type);
const char *bpfrr_abi_map_type_name(uint32_t map_type);
const char *bpfrr_abi_attach_type_name(uint32_t attach_type);
const char *bpfrr_abi_link_type_name(uint32_t link_type);
/* UAPI name of val in xlat (enum value or single flag bit: "BPF_MAP_TYPE_HASH"), or NULL */
const char *bpfrr_abi_xlat_name(const struct bpfrr_xlat *xlat, uint64_t val);
/* value of a UAPI name in xlat; 0 on success, -1 if unknown */
int bpfrr_abi_xlat_value(const struct bpfrr_xlat *xlat, const char *name, uint64_t *val);
/* render val symbolically into buf: the short name for enums that have one
 * ("hash"), else the UAPI name; "A|B|0x100" for flags ("0" or the zero name for 0);
 * the number if nothing is known. Returns the strlen it wanted (snprintf-like). */
int bpfrr_abi_xlat_format(const struct bpfrr_xlat *xlat, uint64_t val, char *buf, size_t size);

/* Helper functions: "bpf_map_lookup_elem" for 1, ... (6.12: 1..211); NULL if unknown. */
const char *bpfrr_abi_helper_name(int32_t func_id);
#define BPFRR_ABI_NR_HELPERS 212

/* Maps. */
bool bpfrr_abi_map_is_percpu(uint32_t map_type);	/* values are per-CPU in syscalls */
/* bytes of one value as the syscall sees it: round_up(vs, 8) * nr_cpus for per-CPU maps */
uint64_t bpfrr_abi_map_value_len(uint32_t map_type, uint32_t value_size, unsigned int nr_cpus);
/* where fds live inside a map value being updated: kind of the fd object, and
 * the byte offset of the fd in the value; BPFRR_OBJ_NONE if values hold no fds */
enum bpfrr_obj_kind bpfrr_abi_map_value_fd(uint32_t map_type, uint32_t value_size, uint32_t *offset);

/*
 * Facts the walker cannot get from memory: supplied by the tracee's fd
 * table (recorder) or the trace's reconstructed fd table (dump/translate).
 */
struct bpfrr_abi_env {
	/* read len bytes of the tracee at addr (at the phase being walked); 0 or -errno */
	int (*read_mem)(void *ctx, uint64_t addr, void *buf, size_t len);
	/*
	 * Kind of object behind fd; for maps their type and key/value sizes, for
	 * programs their prog type in *obj_type, for links their link type.
	 * Any out pointer may be NULL. 0, or -ENOENT if unknown.
	 */
	int (*fd_info)(void *ctx, int fd, enum bpfrr_obj_kind *kind, uint32_t *obj_type,
		       uint32_t *key_size, uint32_t *value_size);
	/*
	 * EXIT walks only, optional: the attr as it was at entry, and a reader of
	 * memory as it was at entry (e.g. the recorded ENTRY buffers). The kernel
	 * writes back counts (prog_cnt, info.nr_map_ids, data_size_out, ...)
	 * that say how much it *needed*; it wrote min(entry capacity, that).
	 * Without them the exit values are taken as capacities, which may
	 * over-read the tracee's buffers.
	 */
	const void *entry_attr;
	size_t entry_attr_size;
	int (*read_entry_mem)(void *ctx, uint64_t addr, void *buf, size_t len);
	/*
	 * Optional: name of the iterator target a BPF_TRACE_ITER program was
	 * loaded for ("bpf_map_elem", "cgroup", "task", ...), to tell which
	 * member of union bpf_iter_link_info holds an fd. 0 or -ENOENT.
	 */
	int (*iter_target)(void *ctx, int prog_fd, char *name, size_t size);
	/*
	 * Optional: where the value of the struct_ops map behind map_fd holds
	 * program fds (byte offsets, at most max, into *offsets): their number,
	 * or -ENOENT if that is not known (the recording kernel's BTF tells it:
	 * lib/trace.h, BPFRR_SYM_F_VALUE_FDS).  Without it, or -ENOENT, the fds
	 * of a struct_ops value are not walked (the translator then refuses
	 * the update: struct bpfrr_cmd_refusal.unless_value_fds).
	 */
	int (*value_fds)(void *ctx, int map_fd, uint32_t *offsets, unsigned int max);
	unsigned int nr_cpus;	/* possible CPUs, for per-CPU map values */
	void *ctx;
};

/* Buffer flags. */
#define BPFRR_ABI_BUF_TRUNCATED	0x1	/* the length rule asked for more than the cap */
#define BPFRR_ABI_BUF_LEN_UNKNOWN 0x2	/* length not determinable (map unknown to fd_info): len 0 */
#define BPFRR_ABI_BUF_NO_NUL	0x4	/* CSTR: no NUL within the cap (or read failed midway) */

/* One buffer the call reads or writes. */
struct bpfrr_abi_buf {
	const char *path;		/* "attr.insns", "attr.info.info.map_ids", "attr.link_create.kprobe_multi.syms[3]";
					 * valid only during the callback */
	const struct bpfrr_field *field;	/* the pointer field naming the buffer */
	uint64_t addr, len;		/* tracee address and bytes (CSTR: incl. the NUL when found) */
	uint64_t want_len;		/* length the rule asked for, before capping */
	enum bpfrr_dir dir;		/* IN (at ENTRY), OUT (at EXIT) or INOUT */
	enum bpfrr_abi_content content;
	unsigned int flags;		/* BPFRR_ABI_BUF_* */
	uint32_t elem_size;		/* record size for arrays (insn 8, func_info rec size, key size ...), 0 if n/a */
	int depth;			/* 0: pointed to by attr; 1: by a struct pointed to by attr; ... */
};
typedef int (*bpfrr_abi_buf_cb)(void *arg, const struct bpfrr_abi_buf *buf);

/*
 * Yield every buffer the command reads at ENTRY (dir IN/INOUT) or writes at
 * EXIT (OUT/INOUT), including nested ones (bpf_prog_info's arrays: the info
 * struct is read through env->read_mem at EXIT, then its arrays are
 * yielded; kprobe_multi.syms strings are read at ENTRY). Null pointers and
 * zero lengths yield nothing. Lengths are capped (see BPFRR_ABI_*_MAX).
 * At EXIT, attr should be the attr as read at exit (see writes_attr).
 * Returns 0, the first non-zero cb result, or -errno (-EINVAL for an
 * unknown cmd; unreadable nested memory is skipped, not an error).
 */
int bpfrr_abi_walk(int cmd, const void *attr, size_t attr_size, enum bpfrr_phase phase,
		   const struct bpfrr_abi_env *env, bpfrr_abi_buf_cb cb, void *arg);

/*
 * struct bpf_common_attr, the 4th argument with BPFRR_ABI_COMMON_ATTRS: walk
 * its buffers (its log at EXIT) as bpfrr_abi_walk() does an attr's, paths
 * "common_attr.log_buf".  entry (may be NULL) is the struct as it was at
 * entry (log_size, the capacity), common the struct at the walked phase.
 */
extern const struct bpfrr_struct_desc bpfrr_abi_common_attr_desc;
int bpfrr_abi_walk_common(const void *common, size_t size, const void *entry, size_t entry_size,
			  enum bpfrr_phase phase, const struct bpfrr_abi_env *env, bpfrr_abi_buf_cb cb,
			  void *arg);

/* Where an fd the call passes in lives. */
enum bpfrr_fd_where {
	BPFRR_FD_IN_ATTR,	/* a field of attr, at attr_offset */
	BPFRR_FD_IN_BUF,	/* inside a buffer: buf_addr + buf_offset */
};

/* What refers to the fd. */
enum bpfrr_fd_ref_type {
	BPFRR_FDREF_FIELD,		/* an fd field (attr or nested struct) */
	BPFRR_FDREF_LD_IMM64,		/* insn.imm of ld_imm64 src_reg BPF_PSEUDO_MAP_FD / MAP_VALUE */
	BPFRR_FDREF_BTF_ID_MODULE,	/* 2nd insn's imm of ld_imm64 src_reg BPF_PSEUDO_BTF_ID: module BTF fd */
	BPFRR_FDREF_FD_ARRAY,		/* an fd_array slot the insns use */
	BPFRR_FDREF_MAP_VALUE,		/* fd inside a map value being stored (prog array, map-in-map, ...) */
};

struct bpfrr_abi_fd_ref {
	const char *path;		/* "attr.map_fd", "attr.insns[3].imm", "attr.fd_array[2]",
					 * "attr.value", "attr.values[5]"; valid only during the callback */
	int fd;
	enum bpfrr_obj_kind kind;	/* what the table says it must be (ANY if several) */
	enum bpfrr_fd_ref_type type;
	enum bpfrr_fd_where where;
	uint32_t attr_offset;		/* IN_ATTR: offset in attr */
	uint64_t buf_addr;		/* IN_BUF: tracee address of the containing buffer */
	uint64_t buf_offset;		/* IN_BUF: byte offset of the 4-byte fd in it */
	const char *buf_path;		/* IN_BUF: path of the containing buffer ("attr.insns") */
	int insn_idx;			/* LD_IMM64 / BTF_ID_MODULE / FD_ARRAY via insn: first insn index, else -1 */
	const struct bpfrr_field *field;	/* the fd field (FIELD), or the pointer field of the buffer */
};
typedef int (*bpfrr_abi_fd_cb)(void *arg, const struct bpfrr_abi_fd_ref *ref);

/*
 * Every fd the call passes in: attr fd fields that apply (fd 0 in an
 * optional fd field is "none" and is not yielded unless the field is
 * mandatory for the command), ld_imm64 map fds inside insns, module BTF
 * fds of typed ksyms, fd_array entries the insns use (BPF_PSEUDO_MAP_IDX,
 * _IDX_VALUE, kfunc calls with off = fd_array index), fds in map values
 * of prog-array / map-in-map / perf-event-array / cgroup-array / sockmap
 * / devmap / cpumap updates (single and batch), fds in iter_info.
 * Memory is read through env->read_mem (ENTRY); unreadable memory is
 * skipped (the kernel would fail the call with EFAULT). Returns 0, the
 * first non-zero cb result, or -errno (-EINVAL, -ENOMEM).
 */
int bpfrr_abi_walk_fds(int cmd, const void *attr, size_t attr_size, const struct bpfrr_abi_env *env,
		       bpfrr_abi_fd_cb cb, void *arg);

/*
 * Field-by-field decode of attr for the dumper: each field valid for this
 * cmd and variant, in offset order, with its value (0 for STR/BYTES) and a
 * symbolic rendering (enum/flag names, the string of a STR field, hex of
 * BYTES; NULL for plain numbers). Fields beyond attr_size are skipped.
 * path is "attr.<name>"; symbolic is valid only during the callback.
 */
typedef int (*bpfrr_abi_field_cb)(void *arg, const struct bpfrr_field *f, const char *path,
				  uint64_t value, const char *symbolic);
int bpfrr_abi_walk_fields(int cmd, const void *attr, size_t attr_size, bpfrr_abi_field_cb cb, void *arg);
/* the same with env (may be NULL) to pick variants that depend on the objects behind fds
 * (link_create of a freplace prog, link_update of a struct_ops link, attach_prog_fd vs
 * attach_btf_obj_fd) */
int bpfrr_abi_walk_fields_env(int cmd, const void *attr, size_t attr_size, const struct bpfrr_abi_env *env,
			      bpfrr_abi_field_cb cb, void *arg);

/* The same for a described struct in a buffer (e.g. a recorded bpf_prog_info):
 * fields beyond len are skipped; path is prefix + "." + name. */
int bpfrr_abi_walk_struct_fields(const struct bpfrr_struct_desc *desc, const void *data, size_t len,
				 const char *prefix, uint32_t variant, bpfrr_abi_field_cb cb, void *arg);

/*
 * Instructions: fd references inside a program, for walk_fds and the
 * translator. Calls cb for each ld_imm64 map fd, module BTF fd and fd_array
 * index use. Returns the highest fd_array index used + 1 (0 if none) in
 * *fd_array_cnt.
 */
enum bpfrr_insn_ref_type {
	BPFRR_INSN_MAP_FD,		/* ld_imm64 BPF_PSEUDO_MAP_FD: imm is a map fd */
	BPFRR_INSN_MAP_VALUE,		/* ld_imm64 BPF_PSEUDO_MAP_VALUE: imm map fd, 2nd imm value offset */
	BPFRR_INSN_MAP_IDX,		/* ld_imm64 BPF_PSEUDO_MAP_IDX: imm fd_array index */
	BPFRR_INSN_MAP_IDX_VALUE,	/* ld_imm64 BPF_PSEUDO_MAP_IDX_VALUE */
	BPFRR_INSN_BTF_ID_MODULE,	/* ld_imm64 BPF_PSEUDO_BTF_ID, 2nd imm: module BTF fd */
	BPFRR_INSN_KFUNC_FD_IDX,	/* call BPF_PSEUDO_KFUNC_CALL, off: fd_array index of module BTF */
};

struct bpfrr_insn_ref {
	enum bpfrr_insn_ref_type type;
	int insn_idx;			/* index of the (first) insn */
	uint32_t byte_offset;		/* of the 4-byte imm holding the fd/index, in the insns buffer */
	int32_t value;			/* the fd or the fd_array index */
};
typedef int (*bpfrr_insn_ref_cb)(void *arg, const struct bpfrr_insn_ref *ref);
int bpfrr_abi_insn_refs(const void *insns, size_t insn_cnt, bpfrr_insn_ref_cb cb, void *arg,
			uint32_t *fd_array_cnt);

#endif /* BPFRR_BPF_ABI_H */

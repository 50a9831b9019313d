/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ir.h - the translator's intermediate representation: the calls to replay.
 *
 * The front end (trace -> IR: fd lifetimes, what to replay, relocation)
 * produces it, the bundle file stores it, and the back end (plan, codegen,
 * replay) consumes it.  It says nothing about how a call will be made: a
 * call may run inside a BPF_PROG_TYPE_SYSCALL loader program on one kernel
 * and in user space on another; that is decided per kernel at replay time
 * (plan.h) from what the kernel accepts (caps.h).
 *
 * A call is the recorded attr bytes plus
 *  - buffers: bytes the attr (or another buffer) points to.  The pointer
 *    sits in the parent (the attr, or an earlier buffer of the same call)
 *    at ptr_offset; whatever the recorded pointer value was, replay writes
 *    the new address there.  Every non-null pointer the kernel follows must
 *    be described by a buffer: a recorded tracee address would otherwise be
 *    handed to the kernel.
 *  - fd relocations: the 4-byte fd at (attr | buffer | syscall argument,
 *    offset) is replaced at run time by the fd held in slot N.
 *  - a result: the new fd the call returns goes to slot K.
 *  - resolutions: values that are properties of the running kernel (a PMU
 *    type, a tracepoint id, a BTF type id, a kernel symbol's address) looked
 *    up by name at replay time and written into the attr or a buffer.
 *  - BUILD_BOUND: the call still carries a number of the recording kernel
 *    build that nothing names; it replays only on that build (ir->kernel).
 *
 * Slots are the objects of the replay: made by a call, or opened by the
 * replayer (a cgroup directory by path).  A slot carries the identity the
 * recording saw (prog tag, map sizes, ...) for `bpfrr replay --verify`.
 *
 * Calls are listed in recorded order; every slot is produced before it is
 * used in that order.  The IR owns all its memory.
 */
#ifndef BPFRR_IR_H
#define BPFRR_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bpfrr_cmd_log;

/* Upper bounds the IR enforces (also when reading a bundle). */
#define BPFRR_IR_MAX_ATTR	4096u		/* the kernel's own limit (PAGE_SIZE) */
#define BPFRR_IR_MAX_BUF	(256u << 20)	/* one buffer */
#define BPFRR_IR_MAX_CALLS	(1u << 20)
#define BPFRR_IR_MAX_SLOTS	8000u		/* the loader reaches them at 16-bit ctx offsets */
#define BPFRR_IR_MAX_NAME	256u

/* What a call is. */
enum bpfrr_ir_op {
	BPFRR_IR_BPF = 1,		/* bpf(cmd, attr, attr_size) */
	BPFRR_IR_PERF_EVENT_OPEN = 2,	/* perf_event_open(attr, args[0..3] = pid, cpu, group_fd, flags) */
	BPFRR_IR_IOCTL = 3,		/* ioctl(args[0] = fd, cmd = request, args[1] = arg) */
	BPFRR_IR_NETLINK = 4,		/* one rtnetlink request (attr: the message, cmd: its type) sent
					 * on a NETLINK_ROUTE socket of the replayer's, its ACK awaited */
};
#define BPFRR_IR_OP__LAST	BPFRR_IR_NETLINK

/* Call flags */
#define BPFRR_IR_CALL_GLOBAL	0x1	/* effect outside its slots (pin path, ifindex): keep order
					 * against every other GLOBAL call */
#define BPFRR_IR_CALL_BUILD_BOUND 0x2	/* carries a number of the recording kernel build that
					 * nothing names (bound_why): replays only on that build */

/* Where the fd to relocate lives. */
#define BPFRR_IR_IN_ATTR	(-1)	/* buf value: the call's attr */
#define BPFRR_IR_IN_ARG		(-2)	/* buf value: a syscall argument (offset = its index) */

/* What refers to the fd (for checks and explanations). */
enum bpfrr_ir_ref {
	BPFRR_IR_REF_FIELD = 1,		/* an fd field */
	BPFRR_IR_REF_LD_IMM64 = 2,	/* imm of ld_imm64 BPF_PSEUDO_MAP_FD / _MAP_VALUE */
	BPFRR_IR_REF_BTF_MODULE = 3,	/* 2nd imm of ld_imm64 BPF_PSEUDO_BTF_ID (module BTF fd) */
	BPFRR_IR_REF_FD_ARRAY = 4,	/* an fd_array entry */
	BPFRR_IR_REF_MAP_VALUE = 5,	/* an fd inside a map value (prog array, map in map, ...) */
	BPFRR_IR_REF_ARG = 6,		/* a syscall argument */
};

/* Buffer flags */
#define BPFRR_IR_BUF_LOG	0x1	/* a verifier/BTF log the kernel writes: shown on failure */

struct bpfrr_ir_buf {
	char *path;		/* the pointer's name: "attr.insns", "attr.link_create.kprobe_multi.syms[2]" */
	int32_t parent;		/* BPFRR_IR_IN_ATTR, or index of an earlier buffer of the call */
	uint32_t ptr_offset;	/* offset of the __u64 pointer in the parent */
	uint32_t len;		/* bytes */
	uint8_t dir;		/* enum bpfrr_dir: IN, OUT (no data: zeroed capacity), INOUT */
	uint8_t content;	/* enum bpfrr_abi_content */
	uint16_t flags;		/* BPFRR_IR_BUF_* */
	uint8_t *data;		/* len bytes; NULL for OUT */
};

struct bpfrr_ir_fdrel {
	int32_t buf;		/* BPFRR_IR_IN_ATTR, BPFRR_IR_IN_ARG, or a buffer index */
	uint32_t offset;	/* byte offset of the 4-byte fd; IN_ARG: argument index */
	uint32_t slot;
	uint32_t ref;		/* enum bpfrr_ir_ref */
};

/*
 * A product: an fd the call writes into one of its in/out buffers (not its
 * return value).  The BPF_PROG_TEST_RUN of a light skeleton's syscall
 * program makes maps and programs inside the kernel and writes their fds
 * into the context it copies back (gen_loader's map and prog descs): after
 * the call, the s32 at (buf, offset) is the fd of slot.  A value <= 0 there
 * means the program did not make it (gen_loader writes the fds only once
 * every call succeeded).
 */
struct bpfrr_ir_outfd {
	int32_t buf;		/* a buffer of the call, INOUT or OUT */
	uint32_t offset;	/* byte offset of the 4-byte fd in it */
	uint32_t slot;
};

/* A value of the running kernel, looked up by name at replay time. */
enum bpfrr_ir_resolve_kind {
	BPFRR_IR_RESOLVE_PMU_TYPE = 1,	/* /sys/bus/event_source/devices/NAME/type */
	BPFRR_IR_RESOLVE_TP_ID = 2,	/* tracefs events/CATEGORY/NAME/id */
	BPFRR_IR_RESOLVE_BTF_ID = 3,	/* kernel BTF type id of (name, btf_kind, module); size 4 */
	BPFRR_IR_RESOLVE_KSYM_ADDR = 4,	/* /proc/kallsyms address of name, + addend; size 8 */
	BPFRR_IR_RESOLVE_IFINDEX = 5,	/* the index of network device name (if_nametoindex); size 4 */
};
#define BPFRR_IR_RESOLVE__LAST	BPFRR_IR_RESOLVE_IFINDEX

struct bpfrr_ir_resolve {
	uint32_t kind;		/* enum bpfrr_ir_resolve_kind */
	uint32_t offset;	/* in the attr or the buffer */
	uint32_t size;		/* 4 or 8 */
	char *name;		/* "kprobe", "syscalls/sys_enter_openat", "vfs_read" */
	int32_t buf;		/* BPFRR_IR_IN_ATTR, or a buffer of the call (an insn imm of attr.insns,
				 * an entry of attr.link_create.kprobe_multi.addrs) */
	char *module;		/* BTF_ID, KSYM_ADDR: "" (or NULL) vmlinux; NULL for the others */
	uint32_t btf_kind;	/* BTF_ID: BTF_KIND_* of the type; else 0 */
	int64_t addend;		/* KSYM_ADDR: added to the symbol's address; else 0 */
};

struct bpfrr_ir_call {
	uint64_t seq;		/* the recorded call's seq */
	uint32_t op;		/* enum bpfrr_ir_op */
	uint32_t cmd;		/* BPF: command; IOCTL: request */
	uint32_t flags;		/* BPFRR_IR_CALL_* */
	int32_t result_slot;	/* slot of the fd it returns, or -1 */
	int64_t recorded_ret;	/* what it returned when recorded */
	int64_t args[4];	/* see enum bpfrr_ir_op */
	uint32_t attr_size;
	uint8_t *attr;
	uint32_t nr_bufs, nr_fdrels, nr_resolves, nr_outfds;
	struct bpfrr_ir_buf *bufs;
	struct bpfrr_ir_fdrel *fdrels;
	struct bpfrr_ir_resolve *resolves;
	struct bpfrr_ir_outfd *outfds;	/* its products (fds it writes into buffers) */
	char *bound_why;	/* BUILD_BOUND: the first reason ("attach_btf_id 19789: no SYMBOL record") */
};

/*
 * The identity the recording saw, checked by --verify.  Only the fields
 * named in 'have' are compared.
 */
#define BPFRR_ID_TYPE		0x0001	/* prog type, map type, link type */
#define BPFRR_ID_TAG		0x0002	/* prog tag */
#define BPFRR_ID_NAME		0x0004	/* prog/map name */
#define BPFRR_ID_KEY_SIZE	0x0008
#define BPFRR_ID_VALUE_SIZE	0x0010
#define BPFRR_ID_MAX_ENTRIES	0x0020
#define BPFRR_ID_MAP_FLAGS	0x0040
#define BPFRR_ID_BTF_SIZE	0x0080
#define BPFRR_ID_ATTACH_TYPE	0x0100	/* link attach type */
#define BPFRR_ID_TARGET_BTF_ID	0x0200	/* prog attach_btf_id / link target BTF type id */
#define BPFRR_ID_LINK_PROG	0x0400	/* the link's program is the one in slot link_prog_slot */

struct bpfrr_ir_ident {
	uint32_t have;		/* BPFRR_ID_* */
	uint32_t type;
	uint8_t tag[8];
	char name[16];		/* BPF_OBJ_NAME_LEN, NUL-terminated */
	uint32_t key_size, value_size, max_entries, map_flags;
	uint32_t btf_size;
	uint32_t attach_type;
	uint32_t target_btf_id;
	uint32_t link_prog_slot;
};

/*
 * What the loader wrote into a map, for `bpfrr replay --verify`: the entries
 * its replayed MAP_UPDATE_ELEM / MAP_UPDATE_BATCH calls leave, in recorded
 * order, with MAP_DELETE_ELEM / _BATCH applied (bpfrr_ir_model_contents()).
 * A value is its bytes, or, where the map holds fds (a prog array, a map of
 * maps), the slot whose object the fd named: compared by identity.  A copy
 * of the recorded bytes, kept apart from the calls': the reference the
 * replayed map is compared with, as a slot's recorded tag is a program's.
 */
#define BPFRR_IR_CONTENTS_FROZEN	0x1	/* a MAP_FREEZE: no syscall writes it afterwards */
#define BPFRR_IR_CONTENTS_PARTIAL	0x2	/* a write the model cannot follow (a queue's push, a
						 * LOOKUP_AND_DELETE): not compared */
#define BPFRR_IR_MAX_ENTRIES		(1u << 20)

struct bpfrr_ir_entry {
	uint32_t key_len, value_len;
	uint8_t *key;		/* key_len bytes (NULL when 0) */
	uint8_t *value;		/* value_len bytes; NULL when value_slot >= 0 */
	int32_t value_slot;	/* >= 0: the value is the fd of this slot's object; -1: bytes */
};

struct bpfrr_ir_contents {
	uint32_t flags;		/* BPFRR_IR_CONTENTS_* */
	uint32_t nr_entries, cap_entries;
	struct bpfrr_ir_entry *entries;
};

/* Where a slot's object comes from. */
enum bpfrr_ir_slot_source {
	BPFRR_IR_SLOT_CALL = 1,	/* a call's result */
	BPFRR_IR_SLOT_PATH = 2,	/* the replayer opens path with open_flags (cgroup dir, netns) */
	BPFRR_IR_SLOT_MKDIR = 3,	/* a directory on a bpffs the loader made: the replayer makes
				 * path (mkdir, mode in open_flags) if missing, then opens it */
};

/* Slot flags */
#define BPFRR_IR_SLOT_KEEP	0x1	/* alive when the recorded loader finished: kept, pinned */

/*
 * A number in a MKDIR slot's last path component that names something of
 * the recording's kernel: libxdp names its dispatcher's directory
 * dispatch-IFINDEX-PROGID. The replayer makes the directory under the recorded
 * name (the loader's pins go into it by that path), then, once every call is
 * made, renames it with the numbers of the replay's kernel (symbols, not
 * numbers).
 */
enum bpfrr_ir_path_sub_kind {
	BPFRR_IR_PATH_SUB_OBJ_ID = 1,	/* the kernel id of slot obj_slot's object */
	BPFRR_IR_PATH_SUB_IFINDEX = 2,	/* the index of network device dev */
};

#define BPFRR_IR_MAX_PATH_SUBS	8

struct bpfrr_ir_path_sub {
	uint32_t off, len;	/* the recorded digits: bytes [off, off + len) of the path */
	uint32_t kind;		/* enum bpfrr_ir_path_sub_kind */
	int32_t obj_slot;	/* OBJ_ID: a slot made by a call (prog, map, link, BTF); else -1 */
	char *dev;		/* IFINDEX: the device's name; else NULL */
};

struct bpfrr_ir_slot {
	uint32_t kind;		/* enum bpfrr_obj_kind */
	uint32_t source;	/* enum bpfrr_ir_slot_source */
	uint32_t flags;		/* BPFRR_IR_SLOT_* */
	int32_t producer;	/* CALL: index of the call that returns it (or writes it: an outfd) */
	char *name;		/* "map.counts", "prog.handle_exec": reports and pin names */
	char *path;		/* PATH, MKDIR */
	uint32_t open_flags;	/* PATH; MKDIR: the mode of the directory */
	struct bpfrr_ir_ident ident;
	struct bpfrr_ir_contents *contents;	/* maps the loader wrote: what it left; NULL otherwise */
	uint32_t nr_path_subs;			/* MKDIR: numbers in the name renamed after the calls */
	struct bpfrr_ir_path_sub *path_subs;
};

/* A recorded call the IR does not replay, and why (bpfrr translate --explain). */
struct bpfrr_ir_drop {
	uint64_t seq;
	char *what;		/* "BPF_OBJ_GET_INFO_BY_FD" */
	char *why;		/* "read-only query" */
};

/*
 * The kernel build the recording ran on (the trace's KERNEL record, 1.1).
 * Two builds are the same when their releases agree and their GNU build
 * ids, or without a build id on both, BTF sizes and SHA-256 agree
 * (lib/kernel_id.h).
 */
#define BPFRR_IR_KERNEL_BTF_UNHASHED	0x1	/* btf_sha256 not computed (zero): build_id names it */

struct bpfrr_ir_kernel {
	uint32_t known;			/* 0: a trace without KERNEL record (bpfrr 1.0 traces) */
	uint32_t btf_size;		/* bytes of its /sys/kernel/btf/vmlinux (0: none) */
	uint8_t btf_sha256[32];		/* their SHA-256 (zero without BTF) */
	char *release;			/* uname -r */
	char *machine;			/* uname -m */
	char *build_id;			/* GNU build id in hex; NULL: unknown (bundles before 1.4) */
	uint32_t flags;			/* BPFRR_IR_KERNEL_* */
};

/*
 * A signed bundle's loader (sign.h, docs/signing.md): generated and signed
 * at translate time for named caps and, when it has kernel-specific
 * values, one target kernel build; the replayer loads these bytes as they
 * are and the kernel checks the signature over insns || blob.
 */
struct bpfrr_ir_sig {
	char *caps;			/* the caps it was planned for: "patched-6.12" */
	char *build_id;			/* the target kernel's GNU build id (hex), or NULL: any build */
	char *release;			/* the target kernel's release (reports), or NULL */
	int32_t kfunc_btf_id;		/* bpf_perf_event_open's BTF id on the target (0: no call) */
	uint32_t nr_insns;
	uint8_t *insns;			/* nr_insns * 8 bytes, as loaded */
	uint32_t blob_size;
	uint8_t *blob;			/* the metadata map's one value */
	uint32_t sig_size;
	uint8_t *sig;			/* PKCS#7 (DER, detached, SHA-256) over insns || blob */
	uint8_t excl_prog_hash[32];	/* SHA-256 of insns: the blob map's excl_prog_hash */
	uint8_t payload_sha256[32];	/* SHA-256 of insns || blob when signed */
	uint8_t sig_sha256[32];		/* SHA-256 of sig when signed */
};

struct bpfrr_ir {
	uint32_t arch;			/* ELF machine of the recording (0: unknown) */
	char *kernel_release;		/* of the recording machine, may be NULL */
	struct bpfrr_ir_kernel kernel;	/* its build identity */
	char *source;			/* what it was made from (trace path), may be NULL */
	uint64_t nr_recorded;		/* calls in the recording (bpf + other syscalls) */
	uint32_t nr_calls, nr_slots, nr_drops;
	struct bpfrr_ir_call *calls;
	struct bpfrr_ir_slot *slots;
	struct bpfrr_ir_drop *drops;
	uint32_t cap_calls, cap_slots, cap_drops;
	struct bpfrr_ir_sig *sig;	/* a signed bundle's loader, or NULL */
};

struct bpfrr_ir *bpfrr_ir_new(void);
void bpfrr_ir_free(struct bpfrr_ir *ir);
/* A deep copy (passes that rewrite calls work on copies); NULL on ENOMEM. */
struct bpfrr_ir *bpfrr_ir_clone(const struct bpfrr_ir *ir);
void bpfrr_ir_sig_free(struct bpfrr_ir_sig *sig);
struct bpfrr_ir_sig *bpfrr_ir_sig_clone(const struct bpfrr_ir_sig *sig);

/*
 * Builders.  Each returns the index of what it added, or -errno (-EINVAL
 * for an argument out of range, -E2BIG beyond a BPFRR_IR_MAX_*, -ENOMEM).
 * Data is copied.
 */
int bpfrr_ir_add_slot(struct bpfrr_ir *ir, uint32_t kind, const char *name);
int bpfrr_ir_add_path_slot(struct bpfrr_ir *ir, uint32_t kind, const char *name, const char *path,
			   uint32_t open_flags);
/*
 * Digits [off, off + len) of MKDIR slot dir_slot's path name kind's number of
 * obj_slot (OBJ_ID) or dev (IFINDEX): see struct bpfrr_ir_path_sub.
 */
int bpfrr_ir_add_path_sub(struct bpfrr_ir *ir, uint32_t dir_slot, uint32_t off, uint32_t len, uint32_t kind,
			  int32_t obj_slot, const char *dev);
/*
 * The path of MKDIR slot s with each path sub's digits replaced by values[k]
 * (values in path_subs order), into out; -ENAMETOOLONG if it does not fit.
 */
int bpfrr_ir_path_subst(const struct bpfrr_ir_slot *s, const uint64_t *values, char *out, size_t size);

/* A directory on a bpffs the replayer makes with mode (kind BPFRR_OBJ_DIR). */
int bpfrr_ir_add_dir_slot(struct bpfrr_ir *ir, const char *name, const char *path, uint32_t mode);
int bpfrr_ir_add_call(struct bpfrr_ir *ir, uint64_t seq, uint32_t op, uint32_t cmd, const void *attr,
		      uint32_t attr_size);
/* data may be NULL (OUT buffers, or zero-filled IN) */
int bpfrr_ir_add_buf(struct bpfrr_ir *ir, uint32_t call, int32_t parent, uint32_t ptr_offset,
		     const char *path, const void *data, uint32_t len, uint32_t dir, uint32_t content);
int bpfrr_ir_add_fdrel(struct bpfrr_ir *ir, uint32_t call, int32_t buf, uint32_t offset, uint32_t slot,
		       uint32_t ref);
/* PMU_TYPE, TP_ID: a value in the attr */
int bpfrr_ir_add_resolve(struct bpfrr_ir *ir, uint32_t call, uint32_t kind, uint32_t offset,
			 uint32_t size, const char *name);
/*
 * BTF_ID (size 4), KSYM_ADDR (size 8): a symbol of the kernel (module NULL or
 * "" for vmlinux) whose id or address goes at (buf, offset); btf_kind for
 * BTF_ID, addend for KSYM_ADDR (0 otherwise).
 */
int bpfrr_ir_add_symbol_resolve(struct bpfrr_ir *ir, uint32_t call, uint32_t kind, int32_t buf,
				uint32_t offset, const char *name, const char *module, uint32_t btf_kind,
				int64_t addend);
/* Marks the call BUILD_BOUND; the first reason is kept.  0 or -errno. */
int bpfrr_ir_set_build_bound(struct bpfrr_ir *ir, uint32_t call, const char *why);
/* Copies the recording kernel's identity (release, machine may be NULL).  0 or -ENOMEM. */
int bpfrr_ir_set_kernel(struct bpfrr_ir *ir, const char *release, const char *machine, uint32_t btf_size,
			const uint8_t btf_sha256[32]);
/* Adds the build id (hex, NULL or "": unknown) and BPFRR_IR_KERNEL_* flags to it.  0 or -errno. */
int bpfrr_ir_set_kernel_build_id(struct bpfrr_ir *ir, const char *build_id, uint32_t flags);
/* The call returns the fd of slot (and becomes its producer). */
int bpfrr_ir_set_result(struct bpfrr_ir *ir, uint32_t call, uint32_t slot);
/* The call writes the fd of slot at (buf, offset) (and becomes its producer): a product. */
int bpfrr_ir_add_outfd(struct bpfrr_ir *ir, uint32_t call, int32_t buf, uint32_t offset, uint32_t slot);
/* Does call c make slot s (its result, or a product)? */
bool bpfrr_ir_call_makes_slot(const struct bpfrr_ir_call *c, uint32_t slot);
int bpfrr_ir_add_drop(struct bpfrr_ir *ir, uint64_t seq, const char *what, const char *why);

/*
 * Checks everything a consumer relies on: offsets and lengths in bounds,
 * buffer parents earlier in the same call, pointers not overlapping fds,
 * slots in range, each CALL slot produced by exactly one call and used only
 * after it, ld_imm64 relocations pointing at ld_imm64 instructions.
 * 0, or -EINVAL with a one-line reason ("call 3 (seq 17): ...") in err.
 */
int bpfrr_ir_validate(const struct bpfrr_ir *ir, char *err, size_t err_size);

/* Does any call carry a resolution of kind (0: of any kind)? */
bool bpfrr_ir_has_resolve(const struct bpfrr_ir *ir, uint32_t kind);
/*
 * Is the value at (buf, offset) of call c a resolution's?  Then *r is it
 * and *val the value there now: in the replayed copy of an IR (struct
 * bpfrr_replay's ir) the one the running kernel gave (--verify compares a
 * program's attach_btf_id with it on another build).
 */
bool bpfrr_ir_resolved_at(const struct bpfrr_ir_call *c, int32_t buf, uint32_t offset,
			  const struct bpfrr_ir_resolve **r, uint64_t *val);
/* The first BUILD_BOUND call's index, or -1. */
int bpfrr_ir_first_build_bound(const struct bpfrr_ir *ir);
/* "PMU type", "tracepoint id", "BTF id", "kernel address" */
const char *bpfrr_ir_resolve_kind_name(uint32_t kind);
/*
 * What a resolution names, for messages: "func vfs_read", "struct
 * task_struct [nf_conntrack]", "ksym tcp_v4_connect+0x10", "tracepoint
 * syscalls/sys_enter_openat", "PMU kprobe".
 */
const char *bpfrr_ir_resolve_desc(const struct bpfrr_ir_resolve *r, char *buf, size_t size);
/*
 * Where a resolution's value goes, for messages: "attach_btf_id",
 * "insns[3].imm", "link_create.kprobe_multi.addrs[1]", "config2".
 */
const char *bpfrr_ir_resolve_where(const struct bpfrr_ir_call *c, const struct bpfrr_ir_resolve *r, char *buf,
				   size_t size);
/* A BTF_KIND_* as bpftool spells it ("func", "struct", "var"), NULL for an unknown kind. */
const char *bpfrr_ir_btf_kind_name(uint32_t btf_kind);

/*
 * Fills the contents of every map slot a replayed call writes (MAP_UPDATE_*,
 * MAP_DELETE_*, MAP_FREEZE; replayer/translate/contents.c), from the calls'
 * recorded bytes.  Run by the front end once the IR is built.  0 or -errno.
 */
int bpfrr_ir_model_contents(struct bpfrr_ir *ir);
/* A deep copy of contents (NULL in, NULL out); *ok false on ENOMEM. */
struct bpfrr_ir_contents *bpfrr_ir_contents_clone(const struct bpfrr_ir_contents *c, bool *ok);
void bpfrr_ir_contents_free(struct bpfrr_ir_contents *c);
/* Does the IR open a perf event? */
bool bpfrr_ir_has_perf_event_open(const struct bpfrr_ir *ir);

/* Does call c read or write slot s (as a relocation or as its result)? */
bool bpfrr_ir_call_uses_slot(const struct bpfrr_ir_call *c, uint32_t slot);

/* "BPF_PROG_LOAD", "perf_event_open", "ioctl(PERF_EVENT_IOC_SET_BPF)" into buf */
const char *bpfrr_ir_call_name(const struct bpfrr_ir_call *c, char *buf, size_t size);
const char *bpfrr_ir_ref_name(uint32_t ref);

/*
 * The name slot i is pinned under by `bpfrr replay --pin` and `translate
 * --format elf --pin`: the slot name with characters other than letters,
 * digits, '-' and '_' as '_' (bpffs refuses dots: "map.counts" becomes
 * "map_counts"), or the object kind and i for a slot without a name.
 */
void bpfrr_slot_pin_name(const struct bpfrr_ir_slot *s, uint32_t i, char *buf, size_t size);

/* The log buffer fields of a call's command (PROG_LOAD, BTF_LOAD), or NULL. */
const struct bpfrr_cmd_log *bpfrr_ir_call_log(const struct bpfrr_ir_call *c);
/*
 * Gives the call its log buffer (size bytes, log_level 1 if it was 0), so
 * that a diagnostic rerun of a failed load fetches the kernel's log.
 * 0, or -EINVAL (the command has no log), -ENOSPC (attr too short), -errno.
 */
int bpfrr_ir_force_log(struct bpfrr_ir *ir, uint32_t call, uint32_t size);

#endif /* BPFRR_IR_H */

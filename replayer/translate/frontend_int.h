/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * frontend_int.h - what the translator's front-end passes share (see
 * frontend.h for the passes).  Internal to replayer/frontend*.c and
 * replayer/translate/pass_*.c, and to their unit tests, which run the passes one by
 * one on synthetic and recorded traces.
 *
 *   fe_load()            the trace in memory: calls, tasks, fd events,
 *                        identities, in file order (frontend.c)
 *   fe_pass_fdlife()     pass 1: the fd tables replayed over the records;
 *                        every fd of every call resolved to its object, every
 *                        object's creator and fd lifetime (pass_fdlife.c)
 *   fe_pass_select()     pass 2: the replay point, and the fate of every call
 *                        and object: kept, or dropped with a reason
 *                        (pass_select.c)
 *   fe_pass_reloc()      pass 3: the kept calls as IR: attrs, buffers, fd
 *                        relocations to slots, replay-time resolutions,
 *                        slots with identities; untranslatable calls
 *                        (pass_reloc.c)
 */
#ifndef BPFRR_FRONTEND_INT_H
#define BPFRR_FRONTEND_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bpf_abi.h"
#include "explain.h"
#include "fdmodel.h"
#include "frontend.h"
#include "ir.h"
#include "netlink.h"
#include "resolved.h"
#include "sys_abi.h"
#include "trace.h"
#include "u64map.h"

#define FE_PROG_TYPE_SYSCALL	31

/*
 * What a recorded call is, for deciding what to replay. A bpf() command's
 * class is its row's in the ABI table (enum bpfrr_cmd_class), another
 * syscall's its row's (or sub-row's) in lib/sys_abi.h; the classes after
 * TEST_RUN are only syscalls'.
 */
enum fe_class {
	FE_CLASS_CREATE = BPFRR_CMD_CLASS_CREATE,	/* returns a new object (map, prog, BTF, link,
							 * perf event, ...) */
	FE_CLASS_MUTATE = BPFRR_CMD_CLASS_MUTATE,	/* changes an object it names (map update, freeze,
							 * bind, ioctl) */
	FE_CLASS_GLOBAL = BPFRR_CMD_CLASS_GLOBAL,	/* an effect beyond its objects' fds (pin, cgroup
							 * attach) */
	FE_CLASS_GET = BPFRR_CMD_CLASS_GET,		/* another fd for an existing object (by id or path) */
	FE_CLASS_READ = BPFRR_CMD_CLASS_READ,		/* reads state only (lookups, info, id walks, queries) */
	FE_CLASS_TEST_RUN = BPFRR_CMD_CLASS_TEST_RUN,	/* runs a program (BPF_PROG_TEST_RUN) */
	FE_CLASS_FD = BPFRR_SYS_CLASS_FD,		/* fd bookkeeping: close, dup, fcntl */
	FE_CLASS_OPEN = BPFRR_SYS_CLASS_OPEN,		/* open of a file (cgroup dir, tracefs id, ...) */
	FE_CLASS_BPFFS = BPFRR_SYS_CLASS_BPFFS,		/* mkdir, rmdir, unlink on a bpffs */
	FE_CLASS_OTHER,		/* a syscall or command the translator does not know */
};

/* What became of a recorded call. */
enum fe_fate {
	FE_UNDECIDED = 0,
	FE_KEPT,		/* replayed: an IR call */
	FE_DROPPED,		/* not replayed, see why */
	FE_PATH,		/* an open whose fd becomes a slot the replayer opens by path */
	FE_MKDIR,		/* a directory on a bpffs the replayer makes (a slot, dir_slot) */
	FE_SKIPPED,		/* untranslatable, skipped (--skip-untranslatable) */
};

/* One buffer a call passes (from the ABI walker), as pass 3 needs it. */
struct fe_buf {
	char *path;			/* "attr.insns", "attr.link_create.kprobe_multi.syms[2]" */
	const struct bpfrr_field *field;	/* the pointer field (static ABI table) */
	uint64_t addr, len, want_len;
	uint8_t dir, content, phase;	/* enum bpfrr_dir, bpfrr_abi_content, bpfrr_phase */
	unsigned int flags;		/* BPFRR_ABI_BUF_* */
	int depth;
};

/* One fd a call passes, resolved to the object it named at that moment. */
struct fe_ref {
	char *path;			/* "attr.map_fd", "attr.insns[3].imm", "arg 0" */
	int fd;
	uint32_t ref;			/* enum bpfrr_ir_ref */
	uint32_t kind;			/* what the ABI says it must be */
	int32_t where;			/* BPFRR_IR_IN_ATTR, BPFRR_IR_IN_ARG, or FE_IN_BUF */
	char *buf_path;			/* FE_IN_BUF: the containing buffer's path */
	uint64_t offset;		/* in the attr / buffer; IN_ARG: the IR argument index */
	struct fe_obj *obj;		/* NULL: the fd named nothing the trace knows */
	bool raced;			/* the fd named an object made after the call began (reused by
					 * another thread while the call ran): obj is NULL */
};
#define FE_IN_BUF	0

struct fe_call;

/* An object of the recording (a struct bpfrr_fdm_obj of the resolved trace's fd model). */
struct fe_obj {
	struct bpfrr_fdm_obj base;	/* origin, kind, fd counts; must be first */
	const struct bpfrr_rt *rt;	/* the resolved trace it belongs to (its facts, its name) */
	struct fe_call *creator;	/* the call whose result it is, or NULL */
	const struct bpfrr_rec_object *ident;	/* the recorder's identity, or NULL */
	struct fe_obj *alias_of;	/* another fd of an object made earlier in the trace */
	/* pass 2 */
	bool live;			/* had an open fd at the replay point (itself or an alias) */
	bool kept;			/* replayed: some kept call makes it */
	char why_kept[96];
	/* pass 3 */
	int32_t slot;			/* IR slot, or -1 */
	uint64_t info_seq;		/* the first BPF_OBJ_GET_INFO_BY_FD on it (its id learned), 0: none */
	bool unavailable;		/* its maker was untranslatable (skipped) */
	/* an object made outside the trace, first seen by an ADOPT fd event */
	uint32_t adopt_tid;
	int32_t adopt_fd;
	uint64_t adopt_seq;		/* the call whose use of the fd adopted it */
	/* ... and found to be a product of a syscall program's run (fe_find_products) */
	struct fe_call *run;		/* the BPF_PROG_TEST_RUN that made it, or NULL */
	uint32_t run_offset;		/* where in its products buffer the run wrote its fd */
};

struct fe_call {
	uint64_t seq;
	uint32_t tid;
	bool is_bpf;
	uint32_t cmd;			/* bpf: the command */
	const char *sys_name;		/* syscall: "perf_event_open", ... (reader memory) */
	const struct bpfrr_sys_desc *sys;	/* syscall: its row in lib/sys_abi.h, NULL if none */
	uint32_t sys_nr;
	uint64_t args[6];		/* syscall arguments */
	int64_t ret;
	uint32_t flags;			/* BPFRR_CALL_* */
	uint32_t attr_size, attr_len, attr_exit_len;
	uint8_t *attr, *attr_exit;	/* copies */
	uint32_t nr_regions;
	struct bpfrr_trace_region *regions;	/* copy; paths point into the reader */
	uint64_t clock;			/* event index of its record */

	/* pass 1 */
	struct fe_ref *refs;
	uint32_t nr_refs, cap_refs;
	struct fe_buf *bufs;
	uint32_t nr_bufs, cap_bufs;
	const struct bpfrr_field **ptrs;	/* attr pointer fields that apply and are not 0 */
	uint32_t nr_ptrs, cap_ptrs;
	struct fe_obj *result;		/* the object it made */
	struct fe_obj *target;		/* MUTATE: the object it changes */
	bool resolve_failed;		/* the walker could not run (e.g. out of memory) */

	/* pass 2 */
	enum fe_class class;
	enum fe_fate fate;
	uint64_t noop_after;		/* a no-op given the call of this seq (0: not known to be) */
	const struct fe_call *fs_pair;	/* on a bpffs before the replay point: the rmdir / unlink that
					 * removes what this mkdir or BPF_OBJ_PIN made, or the mkdir /
					 * pin whose path this rmdir / unlink removes; NULL if none */
	char why[200];			/* DROPPED / SKIPPED: the reason; KEPT: optional */
	/* pass 3 */
	int32_t ir_call;
	int32_t dir_slot;		/* FE_MKDIR: the slot of the directory */
	/* pass 1: a syscall program's run: the objects it made (fe_obj.run is this call) */
	struct fe_obj **products;
	uint32_t nr_products, cap_products;
	const char *products_buf;	/* their buffer's path ("attr.test.ctx_in"), static */
	char *core_note;		/* PROG_LOAD: what pass_core did with its CO-RE, or NULL */
	/* pass 2: a netlink request: the effects of its messages, 1 << enum bpfrr_nl_effect, and
	 * the type of its message when it sends one (0: none, or several) */
	uint32_t nl_effects;
	uint16_t nl_type;
};

/* A recorded event in file order. */
struct fe_event {
	uint8_t type;			/* BPFRR_REC_TASK, _FD_EVENT, _BPF_CALL, _SYSCALL */
	uint32_t idx;			/* into tasks / fdevs / calls */
};

/* A file whose contents named a kernel value (tracefs id, PMU type). */
struct fe_value_file {
	uint32_t kind;			/* enum bpfrr_ir_resolve_kind */
	uint64_t value;
	char *name;			/* "syscalls/sys_enter_openat", "kprobe" */
	uint64_t seq;			/* the open that read it */
};

/* A BPF ELF object the recorder captured (an ELF record, 1.1). */
struct fe_core_obj;
struct fe_elf {
	struct bpfrr_rec_elf rec;	/* path points into the reader */
	struct fe_core_obj *obj;	/* parsed when pass 3 first needs it (pass_core.c) */
	bool tried;			/* parsing was tried (obj NULL: it failed) */
};

struct fe_trace {
	struct bpfrr_trace_reader *r;
	const struct bpfrr_trace_header *hdr;
	const char *name;		/* the trace's path, for messages */
	bool truncated;			/* no END record: what was read is used */
	char trunc_msg[256];

	struct fe_call *calls;		/* in file order */
	uint32_t nr_calls, cap_calls;
	struct bpfrr_rec_task *tasks;
	uint32_t nr_tasks, cap_tasks;
	struct bpfrr_rec_fd_event *fdevs;
	uint32_t nr_fdevs, cap_fdevs;
	struct fe_event *events;
	uint32_t nr_events, cap_events;
	struct bpfrr_rt *rt;		/* identities (by seq), then pass 1's fd model and creator facts */
	struct bpfrr_u64map by_seq;	/* seq -> index into calls */
	struct fe_elf *elfs;		/* captured BPF ELF objects, in file order */
	uint32_t nr_elfs, cap_elfs;

	/* pass 1 */
	struct bpfrr_fdmodel *fdm;	/* the resolved trace's (bpfrr_rt_fdm) */
	struct fe_value_file *values;
	uint32_t nr_values, cap_values;

	/* pass 2 */
	uint64_t cut_seq;		/* the replay point: state after this call (0: none) */
	uint64_t cut_clock;		/* its event index (last event belonging to it) */
	bool cut_default;		/* chosen as the last constructive call */

	/* pass 3 */
	bool untranslatable;		/* failed on a call it cannot translate (not on bad input) */
	struct fe_slot_names *names;	/* during pass 3: what slot names take (pass_reloc.c) */
};

/* frontend.c */
struct fe_trace *fe_load(struct bpfrr_trace_reader *r, char *err, size_t err_size);
void fe_free(struct fe_trace *t);
struct fe_call *fe_call_by_seq(const struct fe_trace *t, uint64_t seq);
/* c as lib/resolved.h sees it (pointers into c) */
void fe_rt_call(const struct fe_call *c, struct bpfrr_rt_call *rc);
/* "BPF_MAP_CREATE", "perf_event_open", "ioctl(PERF_EVENT_IOC_ENABLE)", "bpf(cmd 99)" */
const char *fe_call_name(const struct fe_call *c, char *buf, size_t size);
/* The ref of c at path ("attr.map_fd", "arg fd"), or NULL. */
const struct fe_ref *fe_ref_at(const struct fe_call *c, const char *path);
/* errno name, "EBADF" */
const char *fe_errno_name(int err);
/* a region of c at phase with exactly this path, or NULL */
/* mkdir, rmdir, unlink on a bpffs: the path the recorder resolved, NULL if none (pass_select.c) */
const char *fe_fs_path(const struct fe_trace *t, const struct fe_call *c);
const struct bpfrr_trace_region *fe_region(const struct fe_trace *t, const struct fe_call *c, int phase,
					   const char *path);
/*
 * A netlink request's messages (lib/netlink.h), at most max into msgs, and its
 * bytes; how many it holds, or -1 when they were not recorded whole.
 */
int fe_netlink(const struct fe_trace *t, const struct fe_call *c, struct bpfrr_nl_msg *msgs, unsigned int max,
	       const uint8_t **bytes, uint32_t *len);
#define FE_NL_MAX_MSGS	16	/* messages of one request the translator looks at */
/* tracee memory at a phase as far as c's regions captured it: where it is, or NULL */
const void *fe_mem(const struct fe_trace *t, const struct fe_call *c, int phase, uint64_t addr, uint64_t len);
/* the same, copied: 0 or -EFAULT */
int fe_read_mem(const struct fe_trace *t, const struct fe_call *c, int phase, uint64_t addr, void *buf,
		size_t len);
/* the object behind an object, following aliases */
struct fe_obj *fe_canon(struct fe_obj *o);
/* an object's type (prog / map / link type) as its identity or creating attr says, or 0 */
uint32_t fe_obj_type(const struct fe_obj *o);
/* "map 'counts' (seq 24)" */
const char *fe_obj_desc(const struct fe_obj *o, char *buf, size_t size);

/* struct perf_event_attr: the u64 of flag bits and its first bit */
#define FE_PERF_ATTR_FLAGS_OFF		40u
#define FE_PERF_ATTR_DISABLED		0x1u

/* the passes: 0, or -errno with a one-line reason in err */
int fe_pass_fdlife(struct fe_trace *t, char *err, size_t err_size);
int fe_pass_select(struct fe_trace *t, const struct bpfrr_frontend_opts *o, char *err, size_t err_size);
struct bpfrr_ir *fe_pass_reloc(struct fe_trace *t, const struct bpfrr_frontend_opts *o, char *err,
			       size_t err_size);

/* pass 2's classification of one call (also used by pass 3) */
enum fe_class fe_classify(const struct fe_trace *t, struct fe_call *c);

/* --explain: one line per recorded call, in seq order */
void fe_explain(const struct fe_trace *t, const struct bpfrr_ir *ir, const struct bpfrr_explain_out *o);

#endif /* BPFRR_FRONTEND_INT_H */

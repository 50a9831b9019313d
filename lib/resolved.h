/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * resolved.h - a trace resolved: what `bpfrr dump` and the translator's
 * first pass both need to make sense of a recorded call, written once.
 *
 *   - the facts of an object (struct bpfrr_obj_facts): what the attr of the
 *     call that made it says (type, key/value size, name: the ABI table's
 *     struct bpfrr_cmd_makes), with the recorder's identity of it laid over;
 *     the recorder keeps the same facts in its live fd table;
 *   - the walker adaptor (struct bpfrr_walk_env): the struct bpfrr_abi_env
 *     the ABI walkers want, built from a source of tracee memory and of the
 *     facts behind an fd; the recorder's source is the live tracee, a
 *     trace's is the call's captured regions and the fd model;
 *   - the resolved trace (struct bpfrr_rt): the recorder's identities keyed
 *     by the seq of the call that made the object (the one of the fd it
 *     returned: an adopted fd's identity carries the seq of its user), the recording kernel's
 *     build identity and what its numbers name (KERNEL, SYMBOL records), the creator facts of
 *     every object a bpf() call returned, one fd model (lib/fdmodel.h) fed
 *     with every TASK and FD_EVENT record and every call that returned an
 *     fd, and the memory a call's regions captured.
 *
 * The trace layer does not iterate the trace for its users: dump streams
 * the records (after bpfrr_rt_collect() has read the identities, which
 * follow the calls they belong to), the translator loads them into memory
 * first.  Both feed the model in file order and look at a call before its
 * result is applied (bpfrr_rt_call_result()), so fds resolve as the call saw
 * them.
 */
#ifndef BPFRR_RESOLVED_H
#define BPFRR_RESOLVED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf_abi.h"
#include "fdmodel.h"
#include "trace.h"
#include "u64map.h"

/* --- object facts ------------------------------------------------------------------- */

/* What is known of an object besides its kind. */
struct bpfrr_obj_facts {
	bool has_type;			/* type is known */
	bool has_sizes;			/* key_size and value_size are known (maps) */
	uint32_t type;			/* map type / prog type / link type */
	uint32_t key_size, value_size;	/* maps */
	char name[BPFRR_ABI_OBJ_NAME_LEN + 1];	/* map_name / prog_name of the creating attr, or "" */
	uint32_t value_type;		/* a struct_ops map's value type (a kernel BTF id), or 0 */
	bool value_type_module;		/* ... in a module's BTF */
};

/* The vmlinux BTF id of a struct_ops map's value type (facts.value_type), 0 if it has
 * none or the type is a module's (whose fd places no trace carries). */
uint32_t bpfrr_obj_facts_value_type(const struct bpfrr_obj_facts *f);
/* The creator facts: what the attr of a call of cmd says of the object it
 * makes (struct bpfrr_cmd_makes); all zero if it says nothing. */
void bpfrr_obj_facts_from_attr(struct bpfrr_obj_facts *f, int cmd, const void *attr, size_t attr_len);

/* Lay the recorder's identity of an object of kind over *f: its type, and a
 * map's sizes.  A failed identity query (or id NULL) adds nothing.  The name
 * stays the attr's: see bpfrr_rt_obj_name() for the one shown. */
void bpfrr_obj_facts_add_identity(struct bpfrr_obj_facts *f, uint32_t kind, const struct bpfrr_rec_object *id);

/*
 * What struct bpfrr_abi_env's fd_info answers for an object of kind with
 * facts f (out pointers may be NULL): 0, or -ENOENT when nothing useful is
 * known: the kind is ANY, or it is a map whose sizes are unknown and the
 * sizes are asked for (the walker then marks the lengths unknown rather than
 * taking them as 0).
 */
int bpfrr_obj_facts_fd_info(uint32_t kind, const struct bpfrr_obj_facts *f, enum bpfrr_obj_kind *kind_out,
			    uint32_t *obj_type, uint32_t *key_size, uint32_t *value_size);

/* --- the walker adaptor ---------------------------------------------------------------- */

/* Where a walk of one call finds what the walker asks for. */
struct bpfrr_walk_src {
	/* len bytes of the tracee at addr as they were at phase: 0 or -errno */
	int (*read)(void *ctx, enum bpfrr_phase phase, uint64_t addr, void *buf, size_t len);
	/* the kind and facts of the object fd names in the calling task: 0 or -ENOENT */
	int (*fd_facts)(void *ctx, int fd, uint32_t *kind, struct bpfrr_obj_facts *facts);
	/*
	 * Optional: where a value of the struct_ops type value_type (facts.value_type of
	 * a vmlinux BTF id) holds program fds, as struct bpfrr_abi_env's value_fds
	 * answers: their number, or -ENOENT
	 */
	int (*value_layout)(void *ctx, uint32_t value_type, uint32_t *offsets, unsigned int max);
	void *ctx;
};

struct bpfrr_walk_env {
	struct bpfrr_abi_env env;	/* what the walkers take: &we->env */
	struct bpfrr_walk_src src;
	enum bpfrr_phase phase;
};

/*
 * Set up *we to walk a call at phase: memory at that phase, fd facts from
 * src; at EXIT also the attr as it was at entry (entry_attr, may be NULL)
 * and memory as it was at entry.  Returns &we->env.
 */
const struct bpfrr_abi_env *bpfrr_walk_env_init(struct bpfrr_walk_env *we, const struct bpfrr_walk_src *src,
						enum bpfrr_phase phase, unsigned int nr_cpus,
						const void *entry_attr, size_t entry_attr_size);

/* --- the resolved trace ------------------------------------------------------------------ */

/* A recorded call as the layer needs it: pointers into the record, or into the caller's copies. */
struct bpfrr_rt_call {
	uint64_t seq;
	uint32_t tid;
	bool is_bpf;
	uint32_t cmd;			/* bpf() only */
	int64_t ret;
	uint32_t flags;			/* BPFRR_CALL_* */
	const void *attr, *attr_exit;	/* bpf() only */
	uint32_t attr_len, attr_exit_len;
	const struct bpfrr_trace_region *regions;
	uint32_t nr_regions;
};
void bpfrr_rt_call_bpf(struct bpfrr_rt_call *c, const struct bpfrr_rec_bpf_call *rec);
void bpfrr_rt_call_sys(struct bpfrr_rt_call *c, const struct bpfrr_rec_syscall *rec);

struct bpfrr_rt;

/* A resolved trace over reader r (which must outlive it: identity names and
 * blobs stay in the reader).  NULL on ENOMEM. */
struct bpfrr_rt *bpfrr_rt_new(struct bpfrr_trace_reader *r);
void bpfrr_rt_free(struct bpfrr_rt *rt);

/*
 * The recorder's identities of objects (OBJECT records), by the seq and fd
 * they carry.  A seq may carry several: the recorder also identifies an fd
 * it adopts (made outside the trace) with the seq of the call that used it.
 * A second record of the same (seq, fd) is not one a recorder writes: the
 * first is kept.  Identities are pointers into the layer: add them all
 * (bpfrr_rt_collect()) before looking any up.  0 or -ENOMEM.
 */
int bpfrr_rt_add_identity(struct bpfrr_rt *rt, const struct bpfrr_rec_object *o);
/*
 * Tell the layer what bpf() call c returned (bpfrr_rt_collect() and
 * bpfrr_rt_call_result() do): if it made an object, its identity is the
 * OBJECT record of its seq with the returned fd and kind; if not, it has
 * none (the OBJECT records of its seq are adopted fds').  0 or -ENOMEM.
 */
int bpfrr_rt_add_call(struct bpfrr_rt *rt, const struct bpfrr_rt_call *c);
/* The identity of the object call seq made, or NULL.  Of a call the layer was
 * not told about (bpfrr_rt_add_call()), the first OBJECT record of the seq. */
const struct bpfrr_rec_object *bpfrr_rt_identity(const struct bpfrr_rt *rt, uint64_t seq);
/* The identity the recorder wrote for fd at call seq (the made object or an
 * adopted fd's), or NULL. */
const struct bpfrr_rec_object *bpfrr_rt_identity_fd(const struct bpfrr_rt *rt, uint64_t seq, int fd);

/*
 * A first pass over the whole trace: every identity is added, and every
 * record is also given to cb (if not NULL; a non-zero return stops the
 * pass).  Then the reader is rewound.  Returns the reader's last status
 * (BPFRR_TRACE_EOF, _TRUNCATED, ...), BPFRR_TRACE_NOMEM, or cb's return.
 */
int bpfrr_rt_collect(struct bpfrr_rt *rt, int (*cb)(void *arg, const struct bpfrr_trace_record *rec),
		     void *arg);

/*
 * What the recording kernel's numbers name (1.1; a 1.0 trace has neither).
 * bpfrr_rt_collect() adds every KERNEL and SYMBOL record; a reader that
 * walks the trace itself adds them with these.  The first KERNEL record and
 * the first SYMBOL record of each (kind, value, module) are kept; their
 * strings stay in the reader.  0 or -ENOMEM.
 */
int bpfrr_rt_add_kernel(struct bpfrr_rt *rt, const struct bpfrr_rec_kernel *k);
int bpfrr_rt_add_symbol(struct bpfrr_rt *rt, const struct bpfrr_rec_symbol *s);
/*
 * Where a value of the struct_ops type value_type (a vmlinux BTF id of the
 * recording kernel) holds program fds, from its SYMBOL record (2.1): their
 * number, copied into offsets; -ENOENT if the trace does not say (or says
 * more than max).
 */
int bpfrr_rt_value_fds(const struct bpfrr_rt *rt, uint32_t value_type, uint32_t *offsets, unsigned int max);
/* The recording kernel's build identity, or NULL (a 1.0 trace). */
const struct bpfrr_rec_kernel *bpfrr_rt_kernel(const struct bpfrr_rt *rt);
/*
 * What value of kind (enum bpfrr_sym_kind) named on the recording kernel,
 * or NULL if the trace has no SYMBOL record of it.  module NULL: in any
 * module (vmlinux's first if there are several); "": vmlinux; else that
 * module.  An unnamed number (BPFRR_SYM_F_UNNAMED) is returned too.
 */
const struct bpfrr_rec_symbol *bpfrr_rt_symbol(const struct bpfrr_rt *rt, uint32_t kind, uint64_t value,
					       const char *module);

/*
 * Start the fd model: objects of obj_size bytes (struct bpfrr_fdm_obj first,
 * as bpfrr_fdm_new() wants), init called on each new one (may be NULL).
 * 0 or -ENOMEM.
 */
int bpfrr_rt_model(struct bpfrr_rt *rt, size_t obj_size, void (*init)(void *ctx, struct bpfrr_fdm_obj *obj),
		   void *ctx);
/* The model, for bpfrr_fdm_* (NULL before bpfrr_rt_model()). */
struct bpfrr_fdmodel *bpfrr_rt_fdm(const struct bpfrr_rt *rt);

/* Feed the model a record. 0 or -ENOMEM. */
int bpfrr_rt_task(struct bpfrr_rt *rt, const struct bpfrr_rec_task *t);
/*
 * -EBADMSG for a NEW fd event that contradicts the bpf() call it names (seen
 * before it): another fd than the call returned, another kind of object, or
 * a call that made nothing.  No recorder writes that; the readers refuse it.
 */
int bpfrr_rt_fd_event(struct bpfrr_rt *rt, const struct bpfrr_rec_fd_event *e);

/*
 * A call's result: if c is a bpf() call that returned a new fd (the command
 * returns one, the call returned, 0 <= ret <= INT32_MAX), its object
 * (origin c->seq) gets the creator facts of c's attr and fd ret of c's task
 * names it.  Returns that object; NULL if the call made none, or on ENOMEM
 * (*err set to -ENOMEM then; err may be NULL).
 */
struct bpfrr_fdm_obj *bpfrr_rt_call_result(struct bpfrr_rt *rt, const struct bpfrr_rt_call *c, int *err);

/* The creator facts of the object call seq made, or NULL (not a bpf() call that returned an fd). */
const struct bpfrr_obj_facts *bpfrr_rt_made(const struct bpfrr_rt *rt, uint64_t seq);
/* Everything known of o: its creator facts with its identity laid over. */
void bpfrr_rt_obj_facts(const struct bpfrr_rt *rt, const struct bpfrr_fdm_obj *o, struct bpfrr_obj_facts *f);
/* Its name: the identity's if it has one, else the creating attr's, else "". */
const char *bpfrr_rt_obj_name(const struct bpfrr_rt *rt, const struct bpfrr_fdm_obj *o);

/* Tracee memory at phase as far as the regions captured it: where it is in
 * the reader's blobs, or NULL. */
const void *bpfrr_rt_regions_mem(const struct bpfrr_trace_reader *r, const struct bpfrr_trace_region *regions,
				 uint32_t nr_regions, int phase, uint64_t addr, uint64_t len);
/* The same for call c, copied into buf: 0 or -EFAULT. */
int bpfrr_rt_read_mem(const struct bpfrr_rt *rt, const struct bpfrr_rt_call *c, int phase, uint64_t addr,
		      void *buf, size_t len);

/* The walker's view of a recorded call: its captured memory and the objects its fds name now. */
struct bpfrr_rt_walk {
	struct bpfrr_walk_env we;
	const struct bpfrr_rt *rt;
	const struct bpfrr_rt_call *c;
};
/* Set up *w to walk c (which must stay valid while the env is used) at phase; returns the env. */
const struct bpfrr_abi_env *bpfrr_rt_walk_env(struct bpfrr_rt_walk *w, const struct bpfrr_rt *rt,
					      const struct bpfrr_rt_call *c, enum bpfrr_phase phase);

#endif /* BPFRR_RESOLVED_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fdmodel.h - the fd tables of a recorded process tree, rebuilt from a
 * trace's TASK and FD_EVENT records (docs/trace-format.md), so that every
 * fd number a recorded call passes resolves to the object it named at that
 * moment.  Shared by `bpfrr dump` and the translator's front end.
 *
 * An object is what an fd refers to, identified by its origin: the seq of
 * the call that made it (every dup of it, and every copy a fork made,
 * refers to the same object).  Objects made outside the trace (adopted
 * fds, origin 0) are a new object at each adoption.
 *
 * Fd tables follow the recorder's rules: the first task starts with an
 * empty table, a thread or a CLONE_FILES child shares its creator's, any
 * other child gets a copy, exec makes the table private (its close-on-exec
 * fds are closed by FD_EVENTs that follow), exit drops the task's
 * reference.  A task never announced gets an empty table on first use.
 *
 * Callers keep their own data per object by embedding struct
 * bpfrr_fdm_obj as the first member of a larger struct whose size they
 * give to bpfrr_fdm_new(); the model allocates (zeroed) and frees them.
 */
#ifndef BPFRR_FDMODEL_H
#define BPFRR_FDMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace.h"

struct bpfrr_fdm_obj {
	uint64_t origin;	/* seq of the call that made it; 0: made outside the trace */
	uint32_t kind;		/* enum bpfrr_obj_kind; NONE/ANY are refined by later mentions */
	bool adopted;		/* first seen through an FD_EVENT adopt */
	uint32_t nr_fds;	/* fds referring to it now, over every live fd table */
	uint32_t max_fds;	/* the most it ever had (0: never had an fd) */
	uint64_t close_seq;	/* the call whose close/dup dropped nr_fds to 0 (0: none, or an exit) */
	uint32_t exit_tid;	/* a task whose exit/exec dropped nr_fds to 0, else 0 */
	uint64_t first_clock;	/* the caller's clock (bpfrr_fdm_set_clock) when it got its first fd */
	uint64_t gone_clock;	/* ... when nr_fds last dropped to 0 */
	struct bpfrr_fdm_obj *next_all;	/* every object, newest first */
};

struct bpfrr_fdmodel;

/*
 * obj_size: the caller's object struct (>= sizeof(struct bpfrr_fdm_obj)).
 * init, if not NULL, is called on every new object (its base fields set,
 * the rest zero) with ctx.  NULL on ENOMEM.
 */
struct bpfrr_fdmodel *bpfrr_fdm_new(size_t obj_size, void (*init)(void *ctx, struct bpfrr_fdm_obj *obj),
				    void *ctx);
void bpfrr_fdm_free(struct bpfrr_fdmodel *m);

/* Apply a record. 0, or -ENOMEM (after which the model may be incomplete). */
int bpfrr_fdm_task(struct bpfrr_fdmodel *m, const struct bpfrr_rec_task *t);
int bpfrr_fdm_fd_event(struct bpfrr_fdmodel *m, const struct bpfrr_rec_fd_event *e);

/* The object fd names in tid's table now, or NULL. */
struct bpfrr_fdm_obj *bpfrr_fdm_lookup(struct bpfrr_fdmodel *m, uint32_t tid, int fd);
/* The object made by call origin, or NULL; origin 0 is never found. */
struct bpfrr_fdm_obj *bpfrr_fdm_find(const struct bpfrr_fdmodel *m, uint64_t origin);
/* The object made by call origin, created on first mention (a NONE/ANY kind is
 * refined to kind); origin 0 always makes a new object.  NULL on ENOMEM. */
struct bpfrr_fdm_obj *bpfrr_fdm_object(struct bpfrr_fdmodel *m, uint64_t origin, uint32_t kind);
/* fd of tid now names obj (NULL: fd closed); seq is the call doing it. 0 or -ENOMEM. */
int bpfrr_fdm_assign(struct bpfrr_fdmodel *m, uint32_t tid, int fd, struct bpfrr_fdm_obj *obj, uint64_t seq);

/* Every open fd of every fd table (a shared table once), in no particular
 * order: cb(arg, tid of one task using the table, fd, object); a non-zero
 * return stops the walk and is returned. */
int bpfrr_fdm_for_each_fd(struct bpfrr_fdmodel *m,
			  int (*cb)(void *arg, uint32_t tid, int fd, struct bpfrr_fdm_obj *obj), void *arg);

/* Every object, newest first. */
struct bpfrr_fdm_obj *bpfrr_fdm_objects(const struct bpfrr_fdmodel *m);

/* A number the caller advances (e.g. the index of the record being applied),
 * stamped into first_clock and gone_clock; 0 at first. */
void bpfrr_fdm_set_clock(struct bpfrr_fdmodel *m, uint64_t clock);

/* Did an allocation fail at some point (the model may be incomplete)? */
bool bpfrr_fdm_oom(const struct bpfrr_fdmodel *m);

#endif /* BPFRR_FDMODEL_H */

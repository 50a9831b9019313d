/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plan.h - splitting the IR into loader runs and user-space steps for one
 * kernel.
 *
 * Each call is either made by a loader program (the kernel's syscall
 * programs can make it: codegen.h bpfrr_codegen_place) or by the replayer
 * in user space.  A call that uses an object (a program load naming a
 * map, a link naming its program) depends on the last call that made or
 * changed it (map updates before a freeze or a program load that reads
 * them); a call that changes an object depends on that one and on every
 * use since; GLOBAL calls keep their order.  Independent calls, uses of
 * one object among them, may be reordered.  The schedule is a topological order
 * that, among those, has the fewest kernel/user switches: it greedily
 * exhausts the calls ready on the current side before switching (for two
 * kinds of step, taking every ready step of the current kind never makes
 * a later switch necessary), tried with either side first, and otherwise
 * keeps the recorded order.  Maximal runs of in-kernel calls become one
 * loader run each (segments).
 */
#ifndef BPFRR_PLAN_H
#define BPFRR_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "caps.h"
#include "ir.h"

enum bpfrr_side {
	BPFRR_SIDE_USER = 0,
	BPFRR_SIDE_KERNEL = 1,
};

struct bpfrr_plan_seg {
	uint32_t side;		/* enum bpfrr_side */
	uint32_t first;		/* index into plan.order */
	uint32_t nr;
};

struct bpfrr_plan {
	uint32_t nr_calls;
	uint8_t *side;		/* per IR call */
	const char **why_user;	/* per IR call: why it stays in user space (NULL if in kernel) */
	uint32_t *order;	/* IR call indices in the order to make them */
	uint32_t nr_segs;
	struct bpfrr_plan_seg *segs;
	uint32_t nr_kernel, nr_user;
	uint32_t nr_reordered;	/* calls not in their recorded place */
};

/* Flags */
#define BPFRR_PLAN_KEEP_ORDER	0x1	/* no reordering: segments follow the recorded order */
/* Loader runs of more calls than this are split (jump offsets, verifier time). */
#define BPFRR_PLAN_MAX_SEG_CALLS 4096u

/*
 * Does call c make or change the object of slot (rather than only use it)?
 * The schedule keeps the recorded order of two calls that share a slot
 * when one of them changes it.
 */
bool bpfrr_plan_call_changes_slot(const struct bpfrr_ir_call *c, uint32_t slot);

/* 0, or -errno with a one-line reason in err. */
int bpfrr_plan_make(const struct bpfrr_ir *ir, const struct bpfrr_caps *caps, unsigned int flags,
		    struct bpfrr_plan *plan, char *err, size_t err_size);
void bpfrr_plan_free(struct bpfrr_plan *plan);
/* "segment 1: kernel, 5 calls: 0 1 2 3 4" lines plus the reasons for user steps */
void bpfrr_plan_print(const struct bpfrr_ir *ir, const struct bpfrr_plan *plan, FILE *out);

#endif /* BPFRR_PLAN_H */

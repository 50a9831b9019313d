/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plan.h - splitting the IR into loader runs and user-space steps for one
 * kernel.
 *
 * Each call is either made by a loader program (the kernel's syscall
 * programs can make it: codegen.h bpfrr_codegen_place) or by the replayer
 * in user space.  Calls depend on each other when they share a slot (one
 * makes or uses an object the other makes or uses: fds, map contents
 * before a freeze or a program load that reads them) or are both GLOBAL;
 * independent calls may be reordered.  The schedule is a topological order
 * that, among those, has the fewest kernel/user switches: it greedily
 * exhausts the calls ready on the current side before switching (for two
 * kinds of step, taking every ready step of the current kind never makes
 * a later switch necessary), tried with either side first, and otherwise
 * keeps the recorded order.  Maximal runs of in-kernel calls become one
 * loader run each (segments).
 */
#ifndef BPFRR_PLAN_H
#define BPFRR_PLAN_H

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

/* 0, or -errno with a one-line reason in err. */
int bpfrr_plan_make(const struct bpfrr_ir *ir, const struct bpfrr_caps *caps, unsigned int flags,
		    struct bpfrr_plan *plan, char *err, size_t err_size);
void bpfrr_plan_free(struct bpfrr_plan *plan);
/* "segment 1: kernel, 5 calls: 0 1 2 3 4" lines plus the reasons for user steps */
void bpfrr_plan_print(const struct bpfrr_ir *ir, const struct bpfrr_plan *plan, FILE *out);

#endif /* BPFRR_PLAN_H */

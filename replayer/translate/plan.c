// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan.c - which calls a loader makes, in what order, in how many runs
 * (see plan.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf_abi.h"
#include "codegen.h"
#include "errmsg.h"
#include "plan.h"

/* A min-heap of call indices: among ready calls, the earliest recorded goes first. */
struct heap {
	uint32_t *v;
	uint32_t n;
};

static void heap_push(struct heap *h, uint32_t x)
{
	uint32_t i = h->n++;

	while (i && h->v[(i - 1) / 2] > x) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = x;
}

static uint32_t heap_pop(struct heap *h)
{
	uint32_t top = h->v[0], x = h->v[--h->n], i = 0;

	for (;;) {
		uint32_t c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->v[c + 1] < h->v[c])
			c++;
		if (h->v[c] >= x)
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = x;
	return top;
}

struct deps {
	uint32_t *indeg;
	uint32_t *succ_start;	/* CSR: successors of i are succ[succ_start[i] .. succ_start[i+1]) */
	uint32_t *succ;
};

static void deps_free(struct deps *d)
{
	free(d->indeg);
	free(d->succ_start);
	free(d->succ);
	memset(d, 0, sizeof(*d));
}

/*
 * Does call c change the object of the slot fdrel r names, or only use it?
 * A use needs the object as its last change left it; a change must also
 * wait for the uses before it.  Two uses of one object (two programs
 * loaded with one map, a map bound to a program while another program
 * loads with it) do not depend on each other.  Anything not known to be a
 * use counts as a change.
 */
static bool fdrel_changes(const struct bpfrr_ir_call *c, const struct bpfrr_ir_fdrel *r)
{
	const struct bpfrr_cmd_desc *d;
	const struct bpfrr_field *f;

	/* how an fd reaches the call differs by operation, not by command */
	switch (c->op) {
	case BPFRR_IR_IOCTL:
		/* ioctl(fd, ...) changes the event; PERF_EVENT_IOC_SET_BPF's program is used */
		return r->buf != BPFRR_IR_IN_ARG || r->offset == 0;
	case BPFRR_IR_BPF:
		break;
	default:
		return true;	/* perf_event_open's group_fd: the group changes */
	}
	if (r->buf != BPFRR_IR_IN_ATTR)
		return false;	/* fd_array, ld_imm64, fds stored in map values: uses */
	/* the table says which attr fds a command changes (a link's target, a map it stores into) */
	d = bpfrr_abi_cmd((int)c->cmd);
	if (!d)
		return true;
	if (d->changes_fd)
		return !(f = bpfrr_abi_cmd_field((int)c->cmd, d->changes_fd)) || r->offset == f->offset;
	return !(d->flags & BPFRR_CMDF_USES_FDS);
}

bool bpfrr_plan_call_changes_slot(const struct bpfrr_ir_call *c, uint32_t slot)
{
	uint32_t k;

	if (bpfrr_ir_call_makes_slot(c, slot))
		return true;
	for (k = 0; k < c->nr_fdrels; k++)
		if (c->fdrels[k].slot == slot && fdrel_changes(c, &c->fdrels[k]))
			return true;
	return false;
}

struct edges {
	uint32_t *src, *dst;
	uint32_t nr, cap;
};

static int edge_add(struct edges *e, uint32_t src, uint32_t dst)
{
	if (src == UINT32_MAX || src == dst)
		return 0;
	if (e->nr && e->src[e->nr - 1] == src && e->dst[e->nr - 1] == dst)
		return 0;	/* cheap de-duplication of repeated slots */
	if (e->nr == e->cap) {
		uint32_t cap = e->cap ? 2 * e->cap : 64, *s, *d;

		s = realloc(e->src, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		e->src = s;
		d = realloc(e->dst, cap * sizeof(*d));
		if (!d)
			return -ENOMEM;
		e->dst = d;
		e->cap = cap;
	}
	e->src[e->nr] = src;
	e->dst[e->nr++] = dst;
	return 0;
}

/* Per slot: its last change and the uses since. */
struct slot_hist {
	uint32_t last_change;
	uint32_t *uses;
	uint32_t nr_uses, cap_uses;
};

static int slot_use(struct slot_hist *h, struct edges *e, uint32_t call)
{
	if (edge_add(e, h->last_change, call))
		return -ENOMEM;
	if (h->nr_uses && h->uses[h->nr_uses - 1] == call)
		return 0;
	if (h->nr_uses == h->cap_uses) {
		uint32_t cap = h->cap_uses ? 2 * h->cap_uses : 4, *u = realloc(h->uses, cap * sizeof(*u));

		if (!u)
			return -ENOMEM;
		h->uses = u;
		h->cap_uses = cap;
	}
	h->uses[h->nr_uses++] = call;
	return 0;
}

static int slot_change(struct slot_hist *h, struct edges *e, uint32_t call)
{
	uint32_t k;

	if (edge_add(e, h->last_change, call))
		return -ENOMEM;
	for (k = 0; k < h->nr_uses; k++)
		if (edge_add(e, h->uses[k], call))
			return -ENOMEM;
	h->nr_uses = 0;
	h->last_change = call;
	return 0;
}

/*
 * Edges: a use of a slot follows the slot's last change; a change follows
 * the last change and every use since; GLOBAL calls keep their order.
 * Making an object (the result slot) is its first change.
 */
static int deps_build(const struct bpfrr_ir *ir, struct deps *d)
{
	uint32_t n = ir->nr_calls, i, k, last_global = UINT32_MAX;
	struct slot_hist *hist;
	struct edges e = { 0 };
	int ret = -ENOMEM;

	memset(d, 0, sizeof(*d));
	hist = calloc(ir->nr_slots + 1, sizeof(*hist));
	d->indeg = calloc(n + 1, sizeof(*d->indeg));
	d->succ_start = calloc(n + 2, sizeof(*d->succ_start));
	if (!hist || !d->indeg || !d->succ_start)
		goto out;
	for (k = 0; k < ir->nr_slots; k++)
		hist[k].last_change = UINT32_MAX;
	for (i = 0; i < n; i++) {
		const struct bpfrr_ir_call *c = &ir->calls[i];

		for (k = 0; k < c->nr_fdrels; k++) {
			const struct bpfrr_ir_fdrel *r = &c->fdrels[k];

			if (fdrel_changes(c, r) ? slot_change(&hist[r->slot], &e, i) :
						  slot_use(&hist[r->slot], &e, i))
				goto out;
		}
		if (c->result_slot >= 0 && slot_change(&hist[c->result_slot], &e, i))
			goto out;
		/* a product is made by the call like a result */
		for (k = 0; k < c->nr_outfds; k++)
			if (slot_change(&hist[c->outfds[k].slot], &e, i))
				goto out;
		if (c->flags & BPFRR_IR_CALL_GLOBAL) {
			if (edge_add(&e, last_global, i))
				goto out;
			last_global = i;
		}
	}
	/* CSR by source */
	d->succ = malloc((e.nr ? e.nr : 1) * sizeof(*d->succ));
	if (!d->succ)
		goto out;
	for (k = 0; k < e.nr; k++)
		d->succ_start[e.src[k] + 1]++;
	for (i = 0; i < n; i++)
		d->succ_start[i + 1] += d->succ_start[i];
	for (k = 0; k < e.nr; k++) {
		/* succ_start[src] is advanced while filling, then restored below */
		d->succ[d->succ_start[e.src[k]]++] = e.dst[k];
		d->indeg[e.dst[k]]++;
	}
	for (i = n; i > 0; i--)
		d->succ_start[i] = d->succ_start[i - 1];
	d->succ_start[0] = 0;
	ret = 0;
out:
	if (hist)
		for (k = 0; k < ir->nr_slots; k++)
			free(hist[k].uses);
	free(hist);
	free(e.src);
	free(e.dst);
	if (ret)
		deps_free(d);
	return ret;
}

/* Greedy schedule starting on side 'first'; returns the number of segments or -ENOMEM/-ELOOP. */
static int schedule(const struct bpfrr_ir *ir, const struct deps *d, const uint8_t *side, uint32_t first,
		    uint32_t *order, uint32_t *seg_of)
{
	uint32_t n = ir->nr_calls, *indeg, done = 0, cur = first, nsegs = 0, i, k;
	struct heap ready[2] = { { NULL, 0 }, { NULL, 0 } };
	bool open = false;
	int ret = -ENOMEM;

	indeg = malloc((n + 1) * sizeof(*indeg));
	ready[0].v = malloc((n + 1) * sizeof(uint32_t));
	ready[1].v = malloc((n + 1) * sizeof(uint32_t));
	if (!indeg || !ready[0].v || !ready[1].v)
		goto out;
	memcpy(indeg, d->indeg, n * sizeof(*indeg));
	for (i = 0; i < n; i++)
		if (!indeg[i])
			heap_push(&ready[side[i]], i);
	while (done < n) {
		if (!ready[cur].n) {
			if (!ready[!cur].n) {
				ret = -ELOOP;	/* cannot happen: edges only go forward */
				goto out;
			}
			cur = !cur;
			open = false;
		}
		i = heap_pop(&ready[cur]);
		if (!open) {
			nsegs++;
			open = true;
		}
		seg_of[done] = nsegs - 1;
		order[done++] = i;
		for (k = d->succ_start[i]; k < d->succ_start[i + 1]; k++)
			if (!--indeg[d->succ[k]])
				heap_push(&ready[side[d->succ[k]]], d->succ[k]);
	}
	ret = nsegs;
out:
	free(indeg);
	free(ready[0].v);
	free(ready[1].v);
	return ret;
}

static uint32_t count_moved(const uint32_t *order, uint32_t n)
{
	uint32_t i, moved = 0;

	for (i = 0; i < n; i++)
		moved += order[i] != i;
	return moved;
}

int bpfrr_plan_make(const struct bpfrr_ir *ir, const struct bpfrr_caps *caps, unsigned int flags,
		    struct bpfrr_plan *plan, char *err, size_t err_size)
{
	uint32_t n = ir->nr_calls, i, *order2 = NULL, *seg_of = NULL, *seg_of2 = NULL;
	uint8_t *area = NULL;
	struct deps d = { 0 };
	int ret = -ENOMEM, nseg;

	memset(plan, 0, sizeof(*plan));
	if (err && err_size)
		err[0] = '\0';
	plan->nr_calls = n;
	plan->side = calloc(n + 1, 1);
	plan->why_user = calloc(n + 1, sizeof(*plan->why_user));
	plan->order = malloc((n + 1) * sizeof(*plan->order));
	seg_of = malloc((n + 1) * sizeof(*seg_of));
	if (!plan->side || !plan->why_user || !plan->order || !seg_of)
		goto fail;

	for (i = 0; i < n; i++) {
		const struct bpfrr_ir_call *c = &ir->calls[i];
		uint8_t *a = realloc(area, c->nr_bufs + 1);

		if (!a)
			goto fail;
		area = a;
		if (bpfrr_codegen_place(c, caps, area, &plan->why_user[i])) {
			plan->side[i] = BPFRR_SIDE_USER;
			plan->nr_user++;
		} else {
			plan->side[i] = BPFRR_SIDE_KERNEL;
			plan->why_user[i] = NULL;
			plan->nr_kernel++;
		}
	}

	if (flags & BPFRR_PLAN_KEEP_ORDER || n == 0) {
		nseg = 0;
		for (i = 0; i < n; i++) {
			plan->order[i] = i;
			if (!i || plan->side[i] != plan->side[i - 1])
				nseg++;
			seg_of[i] = nseg - 1;
		}
	} else {
		int nseg2;

		ret = deps_build(ir, &d);
		if (ret)
			goto fail;
		order2 = malloc(n * sizeof(*order2));
		seg_of2 = malloc(n * sizeof(*seg_of2));
		if (!order2 || !seg_of2) {
			ret = -ENOMEM;
			goto fail;
		}
		/* the recorded first call's side first, then the other; keep the better */
		nseg = schedule(ir, &d, plan->side, plan->side[0], plan->order, seg_of);
		nseg2 = schedule(ir, &d, plan->side, !plan->side[0], order2, seg_of2);
		if (nseg < 0 || nseg2 < 0) {
			ret = nseg < 0 ? nseg : nseg2;
			goto fail;
		}
		if (nseg2 < nseg || (nseg2 == nseg && count_moved(order2, n) < count_moved(plan->order, n))) {
			memcpy(plan->order, order2, n * sizeof(*order2));
			memcpy(seg_of, seg_of2, n * sizeof(*seg_of2));
			nseg = nseg2;
		}
	}
	plan->nr_reordered = count_moved(plan->order, n);

	/* segments, splitting kernel runs that are too long */
	plan->segs = calloc(n + 1, sizeof(*plan->segs));
	if (!plan->segs) {
		ret = -ENOMEM;
		goto fail;
	}
	for (i = 0; i < n; i++) {
		struct bpfrr_plan_seg *s = plan->nr_segs ? &plan->segs[plan->nr_segs - 1] : NULL;
		uint32_t sd = plan->side[plan->order[i]];

		if (!s || seg_of[i] != seg_of[i - 1] ||
		    (sd == BPFRR_SIDE_KERNEL && s->nr == BPFRR_PLAN_MAX_SEG_CALLS)) {
			s = &plan->segs[plan->nr_segs++];
			s->side = sd;
			s->first = i;
			s->nr = 0;
		}
		s->nr++;
	}
	ret = 0;
	goto out;
fail:
	bpfrr_plan_free(plan);
	bpfrr_errmsg(err, err_size, ret, "planning the replay: %s", strerror(-ret));
out:
	deps_free(&d);
	free(area);
	free(order2);
	free(seg_of);
	free(seg_of2);
	return ret;
}

void bpfrr_plan_free(struct bpfrr_plan *plan)
{
	free(plan->side);
	free(plan->why_user);
	free(plan->order);
	free(plan->segs);
	memset(plan, 0, sizeof(*plan));
}

void bpfrr_plan_print(const struct bpfrr_ir *ir, const struct bpfrr_plan *plan, FILE *out)
{
	uint32_t s, k;

	fprintf(out, "plan: %u calls, %u in kernel, %u in user space, %u segments, %u reordered\n",
		plan->nr_calls, plan->nr_kernel, plan->nr_user, plan->nr_segs, plan->nr_reordered);
	for (s = 0; s < plan->nr_segs; s++) {
		const struct bpfrr_plan_seg *seg = &plan->segs[s];

		fprintf(out, "  segment %u: %s, %u call%s\n", s,
			seg->side == BPFRR_SIDE_KERNEL ? "loader run" : "user space", seg->nr,
			seg->nr == 1 ? "" : "s");
		for (k = seg->first; k < seg->first + seg->nr; k++) {
			uint32_t ci = plan->order[k];
			const struct bpfrr_ir_call *c = &ir->calls[ci];
			char name[64];

			fprintf(out, "    call %u (seq %llu) %s", ci, (unsigned long long)c->seq,
				bpfrr_ir_call_name(c, name, sizeof(name)));
			if (plan->why_user[ci])
				fprintf(out, ": %s", plan->why_user[ci]);
			fputc('\n', out);
		}
	}
}

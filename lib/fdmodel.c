// SPDX-License-Identifier: GPL-2.0-only
/*
 * fdmodel.c - fd tables rebuilt from a trace (see fdmodel.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf_abi.h"
#include "fdmodel.h"
#include "u64map.h"

#define CLONE_FILES_FLAG	0x00000400ull	/* <linux/sched.h> CLONE_FILES */

struct fdtab {
	int refs;
	struct bpfrr_u64map fds;	/* fd -> struct bpfrr_fdm_obj * */
};

struct bpfrr_fdmodel {
	size_t obj_size;
	void (*init)(void *ctx, struct bpfrr_fdm_obj *obj);
	void *ctx;
	struct bpfrr_u64map objects;	/* origin -> struct bpfrr_fdm_obj * */
	struct bpfrr_u64map tasks;	/* tid -> struct fdtab * */
	struct bpfrr_fdm_obj *all;
	uint64_t clock;
	bool oom;
};

static struct bpfrr_fdm_obj *obj_of(uint64_t v)
{
	return (struct bpfrr_fdm_obj *)(uintptr_t)v;
}

static struct fdtab *tab_of(uint64_t v)
{
	return (struct fdtab *)(uintptr_t)v;
}

struct bpfrr_fdmodel *bpfrr_fdm_new(size_t obj_size, void (*init)(void *ctx, struct bpfrr_fdm_obj *obj),
				    void *ctx)
{
	struct bpfrr_fdmodel *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->obj_size = obj_size < sizeof(struct bpfrr_fdm_obj) ? sizeof(struct bpfrr_fdm_obj) : obj_size;
	m->init = init;
	m->ctx = ctx;
	return m;
}

static void obj_ref(struct bpfrr_fdmodel *m, struct bpfrr_fdm_obj *obj)
{
	if (!obj->max_fds)
		obj->first_clock = m->clock;
	obj->nr_fds++;
	if (obj->nr_fds > obj->max_fds)
		obj->max_fds = obj->nr_fds;
}

static void obj_unref(struct bpfrr_fdmodel *m, struct bpfrr_fdm_obj *obj, uint64_t seq, uint32_t exit_tid)
{
	if (obj->nr_fds && --obj->nr_fds == 0) {
		obj->gone_clock = m->clock;
		obj->close_seq = seq;
		obj->exit_tid = seq ? 0 : exit_tid;
	}
}

static struct fdtab *tab_new(struct bpfrr_fdmodel *m)
{
	struct fdtab *t = calloc(1, sizeof(*t));

	if (!t)
		m->oom = true;
	else
		t->refs = 1;
	return t;
}

/* Drop a reference; the last one closes every fd in the table (tid exited or exec'd). */
static void tab_put(struct bpfrr_fdmodel *m, struct fdtab *t, uint32_t tid)
{
	size_t i;

	if (!t || --t->refs > 0)
		return;
	for (i = 0; i < t->fds.cap; i++)
		if (t->fds.used[i])
			obj_unref(m, obj_of(t->fds.vals[i]), 0, tid);
	bpfrr_u64map_free(&t->fds);
	free(t);
}

static struct fdtab *tab_copy(struct bpfrr_fdmodel *m, const struct fdtab *src)
{
	struct fdtab *t = tab_new(m);
	size_t i;

	if (!t || !src)
		return t;
	if (bpfrr_u64map_copy(&t->fds, &src->fds)) {
		m->oom = true;
		free(t);
		return NULL;
	}
	for (i = 0; i < t->fds.cap; i++)
		if (t->fds.used[i])
			obj_ref(m, obj_of(t->fds.vals[i]));
	return t;
}

void bpfrr_fdm_free(struct bpfrr_fdmodel *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->tasks.cap; i++)
		if (m->tasks.used[i])
			tab_put(m, tab_of(m->tasks.vals[i]), (uint32_t)m->tasks.keys[i]);
	bpfrr_u64map_free(&m->tasks);
	bpfrr_u64map_free(&m->objects);
	while (m->all) {
		struct bpfrr_fdm_obj *next = m->all->next_all;

		free(m->all);
		m->all = next;
	}
	free(m);
}

/* The fd table of tid; a task never announced gets an empty one. */
static struct fdtab *task_tab(struct bpfrr_fdmodel *m, uint32_t tid)
{
	struct fdtab *t;
	uint64_t v;

	if (bpfrr_u64map_get(&m->tasks, tid, &v))
		return tab_of(v);
	t = tab_new(m);
	if (t && bpfrr_u64map_put(&m->tasks, tid, (uintptr_t)t)) {
		m->oom = true;
		tab_put(m, t, tid);
		return NULL;
	}
	return t;
}

/* tid now uses table t (NULL: none), dropping its reference to the old one. */
static void task_set_tab(struct bpfrr_fdmodel *m, uint32_t tid, struct fdtab *t)
{
	uint64_t v;

	if (bpfrr_u64map_get(&m->tasks, tid, &v)) {
		bpfrr_u64map_del(&m->tasks, tid);
		tab_put(m, tab_of(v), tid);
	}
	if (t && bpfrr_u64map_put(&m->tasks, tid, (uintptr_t)t)) {
		m->oom = true;
		tab_put(m, t, tid);
	}
}

struct bpfrr_fdm_obj *bpfrr_fdm_find(const struct bpfrr_fdmodel *m, uint64_t origin)
{
	uint64_t v;

	return origin && bpfrr_u64map_get(&m->objects, origin, &v) ? obj_of(v) : NULL;
}

struct bpfrr_fdm_obj *bpfrr_fdm_object(struct bpfrr_fdmodel *m, uint64_t origin, uint32_t kind)
{
	struct bpfrr_fdm_obj *obj = bpfrr_fdm_find(m, origin);

	if (obj) {
		if (obj->kind == BPFRR_OBJ_NONE || obj->kind == BPFRR_OBJ_ANY)
			obj->kind = kind;
		return obj;
	}
	obj = calloc(1, m->obj_size);
	if (!obj) {
		m->oom = true;
		return NULL;
	}
	obj->origin = origin;
	obj->kind = kind;
	if (origin && bpfrr_u64map_put(&m->objects, origin, (uintptr_t)obj)) {
		m->oom = true;
		free(obj);
		return NULL;
	}
	obj->next_all = m->all;
	m->all = obj;
	if (m->init)
		m->init(m->ctx, obj);
	return obj;
}

struct bpfrr_fdm_obj *bpfrr_fdm_lookup(struct bpfrr_fdmodel *m, uint32_t tid, int fd)
{
	struct fdtab *t = task_tab(m, tid);
	uint64_t v;

	return t && bpfrr_u64map_get(&t->fds, (uint32_t)fd, &v) ? obj_of(v) : NULL;
}

int bpfrr_fdm_assign(struct bpfrr_fdmodel *m, uint32_t tid, int fd, struct bpfrr_fdm_obj *obj, uint64_t seq)
{
	struct fdtab *t = task_tab(m, tid);
	struct bpfrr_fdm_obj *old;
	uint64_t v;

	if (!t)
		return -ENOMEM;
	old = bpfrr_u64map_get(&t->fds, (uint32_t)fd, &v) ? obj_of(v) : NULL;
	if (old == obj)
		return 0;
	if (obj && bpfrr_u64map_put(&t->fds, (uint32_t)fd, (uintptr_t)obj)) {
		m->oom = true;
		return -ENOMEM;
	}
	if (!obj)
		bpfrr_u64map_del(&t->fds, (uint32_t)fd);
	if (obj)
		obj_ref(m, obj);
	if (old)
		obj_unref(m, old, seq, tid);
	return 0;
}

int bpfrr_fdm_task(struct bpfrr_fdmodel *m, const struct bpfrr_rec_task *t)
{
	struct fdtab *tab;

	switch (t->event) {
	case BPFRR_TASK_START:
		task_set_tab(m, t->tid, tab_new(m));
		break;
	case BPFRR_TASK_THREAD:
	case BPFRR_TASK_FORK:
		tab = task_tab(m, t->other_tid);
		if (t->clone_flags & CLONE_FILES_FLAG) {
			if (tab)
				tab->refs++;
		} else {
			tab = tab_copy(m, tab);
		}
		task_set_tab(m, t->tid, tab);
		break;
	case BPFRR_TASK_EXEC:
		/* exec unshares the table; fds closed on exec arrive as FD_EVENTs */
		tab = tab_copy(m, task_tab(m, t->other_tid ? t->other_tid : t->tid));
		if (t->other_tid && t->other_tid != t->tid)
			task_set_tab(m, t->other_tid, NULL);
		task_set_tab(m, t->tid, tab);
		break;
	case BPFRR_TASK_EXIT:
		task_set_tab(m, t->tid, NULL);
		break;
	}
	return m->oom ? -ENOMEM : 0;
}

int bpfrr_fdm_fd_event(struct bpfrr_fdmodel *m, const struct bpfrr_rec_fd_event *e)
{
	struct bpfrr_fdm_obj *obj;

	switch (e->op) {
	case BPFRR_FD_NEW:
	case BPFRR_FD_ADOPT:
		obj = bpfrr_fdm_object(m, e->object, e->kind);
		if (!obj)
			return -ENOMEM;
		if (e->op == BPFRR_FD_ADOPT && !obj->max_fds)
			obj->adopted = true;
		return bpfrr_fdm_assign(m, e->tid, e->fd, obj, e->seq);
	case BPFRR_FD_DUP:
		obj = bpfrr_fdm_lookup(m, e->tid, e->fd);
		if (!obj)
			obj = bpfrr_fdm_object(m, e->object, e->kind);
		if (!obj)
			return -ENOMEM;
		return bpfrr_fdm_assign(m, e->tid, e->newfd, obj, e->seq);
	case BPFRR_FD_CLOSE:
	case BPFRR_FD_EXEC_CLOSE:
		return bpfrr_fdm_assign(m, e->tid, e->fd, NULL, e->seq);
	}
	return 0;
}

int bpfrr_fdm_for_each_fd(struct bpfrr_fdmodel *m,
			  int (*cb)(void *arg, uint32_t tid, int fd, struct bpfrr_fdm_obj *obj), void *arg)
{
	struct bpfrr_u64map seen = { 0 };
	size_t i, j;
	int ret = 0;

	for (i = 0; i < m->tasks.cap && !ret; i++) {
		struct fdtab *t;

		if (!m->tasks.used[i])
			continue;
		t = tab_of(m->tasks.vals[i]);
		if (!t || bpfrr_u64map_get(&seen, (uintptr_t)t, NULL))
			continue;
		if (bpfrr_u64map_put(&seen, (uintptr_t)t, 1)) {
			ret = -ENOMEM;
			break;
		}
		for (j = 0; j < t->fds.cap && !ret; j++)
			if (t->fds.used[j])
				ret = cb(arg, (uint32_t)m->tasks.keys[i], (int)(uint32_t)t->fds.keys[j],
					 obj_of(t->fds.vals[j]));
	}
	bpfrr_u64map_free(&seen);
	return ret;
}

struct bpfrr_fdm_obj *bpfrr_fdm_objects(const struct bpfrr_fdmodel *m)
{
	return m->all;
}

void bpfrr_fdm_set_clock(struct bpfrr_fdmodel *m, uint64_t clock)
{
	m->clock = clock;
}

bool bpfrr_fdm_oom(const struct bpfrr_fdmodel *m)
{
	return m->oom;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * record_fdtab.c - per-process fd tables of the tracees.
 *
 * A table mirrors one kernel files_struct: threads share it, fork() copies
 * it, exec() unshares it and drops the close-on-exec entries. Entries are
 * indexed by fd number; fd numbers are small (the kernel hands out the
 * lowest free one), so a flat array is the right shape.
 */
#include <stdlib.h>
#include <string.h>

#include "record.h"

/* The kernel's hard ceiling on fd numbers (sysctl fs.nr_open max). */
#define REC_FD_LIMIT (1 << 30)

struct rec_fdtab *rec_fdtab_new(void)
{
	struct rec_fdtab *t = calloc(1, sizeof(*t));

	if (t)
		t->refs = 1;
	return t;
}

struct rec_fdtab *rec_fdtab_copy(const struct rec_fdtab *t)
{
	struct rec_fdtab *n = rec_fdtab_new();
	int end = rec_fdtab_end(t);

	if (!n || !end)
		return n;
	n->fds = malloc(sizeof(*n->fds) * end);
	if (!n->fds) {
		free(n);
		return NULL;
	}
	memcpy(n->fds, t->fds, sizeof(*n->fds) * end);
	n->size = end;
	return n;
}

struct rec_fdtab *rec_fdtab_get(struct rec_fdtab *t)
{
	t->refs++;
	return t;
}

void rec_fdtab_put(struct rec_fdtab *t)
{
	if (!t || --t->refs > 0)
		return;
	free(t->fds);
	free(t);
}

struct rec_fd *rec_fdtab_lookup(struct rec_fdtab *t, int fd)
{
	if (fd < 0 || fd >= t->size || !t->fds[fd].open)
		return NULL;
	return &t->fds[fd];
}

struct rec_fd *rec_fdtab_set(struct rec_fdtab *t, int fd, const struct rec_fd *val)
{
	if (fd < 0 || fd >= REC_FD_LIMIT)
		return NULL;
	if (fd >= t->size) {
		int size = t->size ? t->size : 64;
		struct rec_fd *fds;

		while (size <= fd)
			size *= 2;
		fds = realloc(t->fds, sizeof(*fds) * size);
		if (!fds)
			return NULL;
		memset(fds + t->size, 0, sizeof(*fds) * (size - t->size));
		t->fds = fds;
		t->size = size;
	}
	t->fds[fd] = *val;
	t->fds[fd].open = true;
	return &t->fds[fd];
}

bool rec_fdtab_close(struct rec_fdtab *t, int fd, struct rec_fd *old)
{
	struct rec_fd *e = rec_fdtab_lookup(t, fd);

	if (!e)
		return false;
	if (old)
		*old = *e;
	memset(e, 0, sizeof(*e));
	return true;
}

int rec_fdtab_end(const struct rec_fdtab *t)
{
	int end = t->size;

	while (end > 0 && !t->fds[end - 1].open)
		end--;
	return end;
}

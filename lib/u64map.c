// SPDX-License-Identifier: GPL-2.0-only
/*
 * u64map.c - open addressing with linear probing (see u64map.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "u64map.h"

static size_t slot_of(const struct bpfrr_u64map *m, uint64_t key)
{
	/* Fibonacci hashing spreads sequential seqs and fds */
	return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (m->cap - 1);
}

bool bpfrr_u64map_get(const struct bpfrr_u64map *m, uint64_t key, uint64_t *val)
{
	size_t i;

	if (!m->cap)
		return false;
	for (i = slot_of(m, key); m->used[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key) {
			if (val)
				*val = m->vals[i];
			return true;
		}
	return false;
}

/* Insert into a map known to have room. */
static void put_fast(struct bpfrr_u64map *m, uint64_t key, uint64_t val)
{
	size_t i;

	for (i = slot_of(m, key); m->used[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return;
		}
	m->used[i] = 1;
	m->keys[i] = key;
	m->vals[i] = val;
	m->nr++;
}

static int grow(struct bpfrr_u64map *m)
{
	struct bpfrr_u64map bigger = { .cap = m->cap ? m->cap * 2 : 16 };
	size_t i;

	bigger.keys = calloc(bigger.cap, sizeof(uint64_t));
	bigger.vals = calloc(bigger.cap, sizeof(uint64_t));
	bigger.used = calloc(bigger.cap, 1);
	if (!bigger.keys || !bigger.vals || !bigger.used) {
		free(bigger.keys);
		free(bigger.vals);
		free(bigger.used);
		return -ENOMEM;
	}
	for (i = 0; i < m->cap; i++)
		if (m->used[i])
			put_fast(&bigger, m->keys[i], m->vals[i]);
	free(m->keys);
	free(m->vals);
	free(m->used);
	*m = bigger;
	return 0;
}

int bpfrr_u64map_put(struct bpfrr_u64map *m, uint64_t key, uint64_t val)
{
	if ((m->nr + 1) * 2 > m->cap && grow(m))
		return -ENOMEM;
	put_fast(m, key, val);
	return 0;
}

/* Linear probing deletion: shift later members of the cluster back. */
void bpfrr_u64map_del(struct bpfrr_u64map *m, uint64_t key)
{
	size_t i, j, home;

	if (!m->cap)
		return;
	for (i = slot_of(m, key); m->used[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			break;
	if (!m->used[i])
		return;
	m->used[i] = 0;
	m->nr--;
	for (j = (i + 1) & (m->cap - 1); m->used[j]; j = (j + 1) & (m->cap - 1)) {
		home = slot_of(m, m->keys[j]);
		/* move j into the hole at i unless its home lies cyclically in (i, j] */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			m->used[i] = 1;
			m->used[j] = 0;
			i = j;
		}
	}
}

int bpfrr_u64map_copy(struct bpfrr_u64map *dst, const struct bpfrr_u64map *src)
{
	memset(dst, 0, sizeof(*dst));
	if (!src->cap)
		return 0;
	dst->keys = malloc(src->cap * sizeof(uint64_t));
	dst->vals = malloc(src->cap * sizeof(uint64_t));
	dst->used = malloc(src->cap);
	if (!dst->keys || !dst->vals || !dst->used) {
		bpfrr_u64map_free(dst);
		return -ENOMEM;
	}
	memcpy(dst->keys, src->keys, src->cap * sizeof(uint64_t));
	memcpy(dst->vals, src->vals, src->cap * sizeof(uint64_t));
	memcpy(dst->used, src->used, src->cap);
	dst->cap = src->cap;
	dst->nr = src->nr;
	return 0;
}

void bpfrr_u64map_free(struct bpfrr_u64map *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	memset(m, 0, sizeof(*m));
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * u64map.h - a small open-addressing hash map from u64 keys to u64 values
 * (seqs, fds, tids to pointers or numbers), shared by the trace readers
 * (bpfrr dump, the translator's front end, the fd model).
 *
 * The keys come from files anybody can write, so the slot of a key is a
 * keyed hash (SipHash-1-3, a random key per map drawn when the map first
 * grows): nobody who writes a trace can choose keys that share a slot, and
 * every operation stays O(1) expected whatever the input.  Iteration order
 * therefore changes from run to run: nothing printed may depend on it.
 */
#ifndef BPFRR_U64MAP_H
#define BPFRR_U64MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Zero-initialised is an empty map. */
struct bpfrr_u64map {
	uint64_t *keys, *vals;
	uint8_t *used;
	size_t cap, nr;		/* cap: a power of two, or 0 */
	uint64_t k0, k1;	/* the hash key, drawn with the first table */
};

/* Is key there? Its value in *val (val may be NULL). */
bool bpfrr_u64map_get(const struct bpfrr_u64map *m, uint64_t key, uint64_t *val);
/* Insert or replace; 0 or -ENOMEM (the map is unchanged then). */
int bpfrr_u64map_put(struct bpfrr_u64map *m, uint64_t key, uint64_t val);
void bpfrr_u64map_del(struct bpfrr_u64map *m, uint64_t key);
/* dst becomes a copy of src (dst is overwritten, not freed); 0 or -ENOMEM (dst empty then). */
int bpfrr_u64map_copy(struct bpfrr_u64map *dst, const struct bpfrr_u64map *src);
void bpfrr_u64map_free(struct bpfrr_u64map *m);

/*
 * SipHash-1-3 of n bytes under this process's random key: for keys made of
 * strings or several fields (a symbol's kind, value and module) that then go
 * into a u64map.  Different inputs may still collide (2^-64 for inputs nobody
 * can aim, since the key is secret): a key finds candidates, the caller
 * compares what it keyed.
 */
uint64_t bpfrr_keyed_hash(const void *data, size_t n);

/* The key of a symbol (kind, value, module); module NULL and "" are the same. */
uint64_t bpfrr_u64map_symbol_key(uint32_t kind, uint64_t value, const char *module);

/* Iteration: for (i = 0; i < m->cap; i++) if (m->used[i]) ... m->keys[i], m->vals[i]. */

#endif /* BPFRR_U64MAP_H */

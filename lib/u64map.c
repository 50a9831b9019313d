// SPDX-License-Identifier: GPL-2.0-only
/*
 * u64map.c - open addressing with linear probing, slots by a keyed hash
 * (see u64map.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "u64map.h"

/* --- SipHash-1-3 (Aumasson and Bernstein's design, c = 1, d = 3 rounds) ----------------- */

static inline uint64_t rotl64(uint64_t x, unsigned int b)
{
	return (x << b) | (x >> (64 - b));
}

#define SIP_ROUND(v0, v1, v2, v3) do {						\
		v0 += v1; v1 = rotl64(v1, 13); v1 ^= v0; v0 = rotl64(v0, 32);	\
		v2 += v3; v3 = rotl64(v3, 16); v3 ^= v2;			\
		v0 += v3; v3 = rotl64(v3, 21); v3 ^= v0;			\
		v2 += v1; v1 = rotl64(v1, 17); v1 ^= v2; v2 = rotl64(v2, 32);	\
	} while (0)

static uint64_t load_le64(const uint8_t *p, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static uint64_t siphash13(uint64_t k0, uint64_t k1, const void *data, size_t n)
{
	uint64_t v0 = k0 ^ 0x736f6d6570736575ull, v1 = k1 ^ 0x646f72616e646f6dull;
	uint64_t v2 = k0 ^ 0x6c7967656e657261ull, v3 = k1 ^ 0x7465646279746573ull;
	const uint8_t *p = data;
	uint64_t m;
	size_t off;

	for (off = 0; off + 8 <= n; off += 8) {
		m = load_le64(p + off, 8);
		v3 ^= m;
		SIP_ROUND(v0, v1, v2, v3);
		v0 ^= m;
	}
	m = load_le64(p + off, n - off) | ((uint64_t)(n & 0xff) << 56);
	v3 ^= m;
	SIP_ROUND(v0, v1, v2, v3);
	v0 ^= m;
	v2 ^= 0xff;
	SIP_ROUND(v0, v1, v2, v3);
	SIP_ROUND(v0, v1, v2, v3);
	SIP_ROUND(v0, v1, v2, v3);
	return v0 ^ v1 ^ v2 ^ v3;
}

/*
 * The process's key, drawn once.  getrandom() does not block once the
 * kernel's pool is ready; before that (early boot of a guest) the fallback
 * still differs per process and per run, which is all a reader needs: the
 * writer of a trace must not know it.
 */
static void process_key(uint64_t key[2])
{
	static uint64_t k[2];
	static int ready;
	struct timespec ts;

	if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
		uint64_t fresh[2];

		if (getrandom(fresh, sizeof(fresh), GRND_NONBLOCK) != (ssize_t)sizeof(fresh)) {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			fresh[0] = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^ (uintptr_t)&ts;
			fresh[1] = (uint64_t)getpid() ^ (uintptr_t)&process_key ^ rotl64(fresh[0], 29);
		}
		/* two threads racing here both store a usable key; each map keeps the one it took */
		k[0] = fresh[0];
		k[1] = fresh[1];
		__atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
	}
	key[0] = k[0];
	key[1] = k[1];
}

uint64_t bpfrr_keyed_hash(const void *data, size_t n)
{
	uint64_t key[2];

	process_key(key);
	return siphash13(key[0], key[1], data, n);
}

uint64_t bpfrr_u64map_symbol_key(uint32_t kind, uint64_t value, const char *module)
{
	uint64_t module_hash = module && *module ? bpfrr_keyed_hash(module, strlen(module)) : 0;
	uint8_t buf[20];

	memcpy(buf, &kind, 4);
	memcpy(buf + 4, &value, 8);
	memcpy(buf + 12, &module_hash, 8);
	return bpfrr_keyed_hash(buf, sizeof(buf));
}

static size_t slot_of(const struct bpfrr_u64map *m, uint64_t key)
{
	return (size_t)siphash13(m->k0, m->k1, &key, sizeof(key)) & (m->cap - 1);
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
	struct bpfrr_u64map bigger = { .cap = m->cap ? m->cap * 2 : 16, .k0 = m->k0, .k1 = m->k1 };
	size_t i;

	if (!m->cap) {
		uint64_t key[2];

		process_key(key);
		/* each map its own key, so one map's layout says nothing of another's */
		bigger.k0 = key[0] ^ (uintptr_t)m;
		bigger.k1 = siphash13(key[0], key[1], &m, sizeof(m));
	}

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
	dst->k0 = src->k0;
	dst->k1 = src->k1;
	return 0;
}

void bpfrr_u64map_free(struct bpfrr_u64map *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	memset(m, 0, sizeof(*m));
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * blob_copy.c - literal bytes and copies of earlier blobs (blob_copy.h).
 *
 * The kept blobs are one buffer, `hist`; a slot table maps the hash of the
 * BPFRR_COPY_WINDOW bytes at every BPFRR_COPY_STEP-th position of each kept
 * blob to that position.  Splitting a new blob hashes the window at each of
 * its positions: a slot whose window compares equal is a copy, grown both
 * ways as far as the bytes agree, within the one blob it starts in, and
 * taken when it is long enough to pay for itself (copy_cost()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "blob_copy.h"
#include "grow.h"

#define SLOT_BITS_MIN	12
#define SLOT_BITS_MAX	20	/* 4 MiB of slots */

struct kept_blob {
	uint64_t id;
	size_t start, len;	/* in hist */
};

struct bpfrr_copy_index {
	uint8_t *hist;
	size_t hist_len, hist_cap;
	struct kept_blob *kept;
	size_t nr_kept;
	uint32_t kept_cap;
	uint32_t *slots;	/* hist offset + 1 of a window with this hash; 0: none */
	unsigned int slot_bits;
	struct bpfrr_copy_piece *pieces;
	uint32_t pieces_cap;
};

static inline uint64_t load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The window's slot (the table is lossy, so the hash need not be keyed). */
static inline size_t window_slot(const uint8_t *p, unsigned int bits)
{
	uint64_t h = load64(p) * 0x9e3779b97f4a7c15ull;

	h ^= h >> 31;
	h *= 0xff51afd7ed558ccdull;
	return (size_t)(h >> (64 - bits));
}

_Static_assert(BPFRR_COPY_WINDOW == 8, "window_slot() hashes 8 bytes");
_Static_assert(BPFRR_COPY_HISTORY_MAX < UINT32_MAX, "slots hold a hist offset + 1 in 32 bits");

struct bpfrr_copy_index *bpfrr_copy_index_new(void)
{
	return calloc(1, sizeof(struct bpfrr_copy_index));
}

void bpfrr_copy_index_free(struct bpfrr_copy_index *x)
{
	if (!x)
		return;
	free(x->hist);
	free(x->kept);
	free(x->slots);
	free(x->pieces);
	free(x);
}

static void index_blob(struct bpfrr_copy_index *x, const struct kept_blob *k)
{
	size_t p;

	for (p = 0; p + BPFRR_COPY_WINDOW <= k->len; p += BPFRR_COPY_STEP)
		x->slots[window_slot(x->hist + k->start + p, x->slot_bits)] = (uint32_t)(k->start + p + 1);
}

/* About one slot per indexed position, up to SLOT_BITS_MAX; 0 or -ENOMEM. */
static int size_slots(struct bpfrr_copy_index *x, size_t hist_len)
{
	unsigned int bits = x->slot_bits ? x->slot_bits : SLOT_BITS_MIN;
	uint32_t *slots;
	size_t i;

	while (bits < SLOT_BITS_MAX && ((size_t)1 << bits) < hist_len / BPFRR_COPY_STEP)
		bits++;
	if (x->slots && bits == x->slot_bits)
		return 0;
	/* grown in place: the smaller table's pages are used again (a rewrite
	 * of execsnoop's trace: 288 page faults, 321 with a new table each time) */
	slots = realloc(x->slots, ((size_t)1 << bits) * sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	memset(slots, 0, ((size_t)1 << bits) * sizeof(*slots));
	x->slots = slots;
	x->slot_bits = bits;
	for (i = 0; i < x->nr_kept; i++)	/* doubling: linear over all the adds */
		index_blob(x, &x->kept[i]);
	return 0;
}

int bpfrr_copy_index_add(struct bpfrr_copy_index *x, uint64_t id, const void *data, size_t len)
{
	struct kept_blob *k;
	int err;

	if (len < BPFRR_COPY_MIN_BLOB || len > BPFRR_COPY_HISTORY_MAX - x->hist_len)
		return 0;
	if (x->nr_kept && id <= x->kept[x->nr_kept - 1].id)
		return -EINVAL;
	if (x->hist_len + len > x->hist_cap) {
		size_t cap = x->hist_cap ? x->hist_cap : 64 << 10;
		uint8_t *hist;

		while (cap < x->hist_len + len)
			cap *= 2;
		if (cap > BPFRR_COPY_HISTORY_MAX)
			cap = BPFRR_COPY_HISTORY_MAX;
		hist = realloc(x->hist, cap);
		if (!hist)
			return -ENOMEM;
		x->hist = hist;
		x->hist_cap = cap;
	}
	err = bpfrr_grow((void **)&x->kept, &x->kept_cap, (uint32_t)x->nr_kept + 1, sizeof(*x->kept));
	if (!err)
		err = size_slots(x, x->hist_len + len);
	if (err)
		return err;
	k = &x->kept[x->nr_kept++];
	k->id = id;
	k->start = x->hist_len;
	k->len = len;
	memcpy(x->hist + k->start, data, len);
	x->hist_len += len;
	index_blob(x, k);
	return 0;
}

/* The kept blob holding hist offset `at`. */
static const struct kept_blob *blob_at(const struct bpfrr_copy_index *x, size_t at)
{
	size_t lo = 0, hi = x->nr_kept;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->kept[mid].start <= at)
			lo = mid;
		else
			hi = mid;
	}
	return &x->kept[lo];
}

static size_t varint_bytes(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/*
 * What a copy must be longer than to be taken: the bytes it takes in the
 * trace (its length, source offset, about a byte for the source blob and one
 * for the next literal's length) and COPY_GAIN_MIN more.  A short copy, taken
 * greedily, can cut into a longer one that starts a few bytes later.  With
 * 2, 4, 8, 12 or 20 in place of 2 + COPY_GAIN_MIN, 8 gave the smallest
 * traces for eight of nine loaders' recordings (bench/record-overhead's
 * traces written again with bench/trace_stats reencode; fx_threads' was
 * 0.4% smaller with 12).
 */
#define COPY_GAIN_MIN	6
static size_t copy_cost(size_t len, size_t src_off)
{
	return varint_bytes(len) + varint_bytes(src_off) + 2 + COPY_GAIN_MIN;
}

static struct bpfrr_copy_piece *add_piece(struct bpfrr_copy_index *x, size_t *nr)
{
	if (*nr >= UINT32_MAX ||
	    bpfrr_grow((void **)&x->pieces, &x->pieces_cap, (uint32_t)*nr + 1, sizeof(*x->pieces)))
		return NULL;
	return memset(&x->pieces[(*nr)++], 0, sizeof(x->pieces[0]));
}

long bpfrr_copy_index_split(struct bpfrr_copy_index *x, const void *data, size_t len,
			    const struct bpfrr_copy_piece **pieces, size_t *nr)
{
	const uint8_t *d = data;
	size_t i = 0, lit = 0, copied = 0;
	struct bpfrr_copy_piece *p;

	*nr = 0;
	*pieces = x->pieces;
	if (len < BPFRR_COPY_MIN_BLOB || !x->nr_kept)
		return 0;
	while (i + BPFRR_COPY_WINDOW <= len) {
		uint32_t slot = x->slots[window_slot(d + i, x->slot_bits)];
		const struct kept_blob *k;
		size_t at, m, start;

		if (!slot || memcmp(x->hist + slot - 1, d + i, BPFRR_COPY_WINDOW)) {
			i++;
			continue;
		}
		at = slot - 1;
		k = blob_at(x, at);
		/* grow back over the pending literal, then forward */
		start = i;
		while (start > lit && at > k->start && d[start - 1] == x->hist[at - 1]) {
			start--;
			at--;
		}
		m = i - start + BPFRR_COPY_WINDOW;
		while (start + m < len && at + m < k->start + k->len && d[start + m] == x->hist[at + m])
			m++;
		if (m <= copy_cost(m, at - k->start)) {
			i++;	/* cheaper as literal bytes */
			continue;
		}
		i = start;
		p = add_piece(x, nr);
		if (!p)
			return -ENOMEM;
		p->lit_off = lit;
		p->lit_len = i - lit;
		p->copy_len = m;
		p->src_id = k->id;
		p->src_off = at - k->start;
		copied += m;
		i += m;
		lit = i;
	}
	if (!copied)
		return 0;
	if (lit < len) {
		p = add_piece(x, nr);
		if (!p)
			return -ENOMEM;
		p->lit_off = lit;
		p->lit_len = len - lit;
	}
	*pieces = x->pieces;
	return (long)copied;
}

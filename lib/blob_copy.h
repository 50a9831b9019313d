/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blob_copy.h - find the bytes of a new blob that an earlier blob already
 * holds, for the trace writer's copy form (trace format 3.0, BLOB form 17).
 *
 * A loader's blobs repeat each other: the BPF ELF object the recorder keeps
 * holds the BTF, the instructions and the line info the loader then passes
 * to the kernel, mostly unchanged (docs/benchmarks.md: 39% to 72% of an
 * object's bytes).  The index keeps the blobs it is given and splits a new
 * one into literal bytes and copies of ranges of earlier blobs.
 *
 * Time is linear in the bytes given: each position of a new blob costs one
 * hash, one slot and at most one fixed-size comparison, and every byte a copy
 * covers is compared once.  The slot table is lossy (a slot keeps the newest
 * position of its hash), so contents chosen to collide only cost
 * compression, never time.  Memory: the kept blobs (up to
 * BPFRR_COPY_HISTORY_MAX bytes; later ones are not kept) and a slot table
 * of at most 4 MiB.
 */
#ifndef BPFRR_BLOB_COPY_H
#define BPFRR_BLOB_COPY_H

#include <stddef.h>
#include <stdint.h>

/* Bytes a window compares; any common run of WINDOW + STEP - 1 bytes is found
 * (16-byte windows found fewer copies in the bench traces, which are 12-byte
 * runs in line info, for one) */
#define BPFRR_COPY_WINDOW	8
#define BPFRR_COPY_STEP		4
/* Blobs shorter than this are neither kept nor split (a copy costs about 6 bytes) */
#define BPFRR_COPY_MIN_BLOB	64
#define BPFRR_COPY_HISTORY_MAX	(64u << 20)

struct bpfrr_copy_index;

/* A literal run of the new blob followed by a copy (copy_len 0: none). */
struct bpfrr_copy_piece {
	size_t lit_off, lit_len;	/* in the new blob */
	size_t copy_len;
	uint64_t src_id;		/* the earlier blob copied from */
	size_t src_off;			/* in that blob */
};

struct bpfrr_copy_index *bpfrr_copy_index_new(void);
void bpfrr_copy_index_free(struct bpfrr_copy_index *x);

/*
 * Keep blob `id` (ids increase from call to call) for later blobs to copy
 * from; blobs under BPFRR_COPY_MIN_BLOB bytes, or past the history's size,
 * are not kept.  0 or -ENOMEM (the index is unchanged then).
 */
int bpfrr_copy_index_add(struct bpfrr_copy_index *x, uint64_t id, const void *data, size_t len);

/*
 * Split data[0..len) into pieces: *pieces (an array the index owns, valid
 * until its next call) gets *nr of them, in order; their literals and copies
 * cover the blob exactly.  Returns the number of bytes the copies cover (0:
 * nothing to copy, e.g. a short blob), or -ENOMEM.
 */
long bpfrr_copy_index_split(struct bpfrr_copy_index *x, const void *data, size_t len,
			    const struct bpfrr_copy_piece **pieces, size_t *nr);

#endif /* BPFRR_BLOB_COPY_H */

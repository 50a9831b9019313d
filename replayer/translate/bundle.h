/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bundle.h - the bundle file: the translator's IR on disk, what
 * `bpfrr translate --format bundle` writes and `bpfrr replay` reads.
 *
 * The byte layout is docs/bundle-format.md.  It stores the IR rather than
 * a generated loader so that the replayer can plan and generate code for
 * the kernel it runs on (which commands syscall programs accept there).
 * Framing and conventions are the trace's (docs/trace-format.md, lib/frame.h): a
 * 16-byte prefix, CRC32C-framed little-endian records at multiples of 8.
 */
#ifndef BPFRR_BUNDLE_H
#define BPFRR_BUNDLE_H

#include <stdbool.h>
#include <stddef.h>

#include "ir.h"

#define BPFRR_BUNDLE_MAGIC		"BPFRRBN"	/* 8 bytes on disk with its NUL */
#define BPFRR_BUNDLE_VERSION_MAJOR	1
#define BPFRR_BUNDLE_VERSION_MINOR	6	/* 1.1: KERNEL, CALL_EXT; 1.2: CALL_PRODUCTS;
						 * 1.3: SLOT_CONTENTS; 1.4: KERNEL build_id;
						 * 1.5: SIGNED_LOADER; 1.6: SLOT path subs */
#define BPFRR_BUNDLE_MAX_PAYLOAD	(320u << 20)

enum bpfrr_bundle_rec {
	BPFRR_BUNDLE_HEADER = 1,
	BPFRR_BUNDLE_END = 2,
	BPFRR_BUNDLE_SLOT = 3,
	BPFRR_BUNDLE_CALL = 4,
	BPFRR_BUNDLE_DROP = 5,
	BPFRR_BUNDLE_KERNEL = 6,	/* 1.1: the recording kernel build */
	BPFRR_BUNDLE_CALL_EXT = 7,	/* 1.1: a call's BUILD_BOUND reason and symbol resolutions */
	BPFRR_BUNDLE_CALL_PRODUCTS = 8,	/* a call's products: fds it writes into its buffers */
	BPFRR_BUNDLE_SLOT_CONTENTS = 9,	/* 1.3: what the loader left in a map (--verify) */
	BPFRR_BUNDLE_SIGNED_LOADER = 10,	/* 1.5: the signed loader, its blob and signature */
};

/*
 * Serialize ir (which must validate) into a malloc'd buffer.  0, or -errno
 * with a message in err.
 */
int bpfrr_bundle_encode(const struct bpfrr_ir *ir, void **data, size_t *len, char *err, size_t err_size);
/* The same into a file (written to PATH.tmp, then renamed). */
int bpfrr_bundle_write(const struct bpfrr_ir *ir, const char *path, char *err, size_t err_size);

/*
 * Parse a bundle; the IR is validated before it is returned.  NULL on
 * failure with "NAME: offset N: reason" in err.
 */
struct bpfrr_ir *bpfrr_bundle_decode(const void *data, size_t len, const char *name, char *err,
				     size_t err_size);
struct bpfrr_ir *bpfrr_bundle_read(const char *path, char *err, size_t err_size);

/* Does the file start with the bundle magic? (to tell bundles from traces) */
bool bpfrr_bundle_sniff(const void *data, size_t len);

#endif /* BPFRR_BUNDLE_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * frame.h - the framing the trace and the bundle share, and the byte
 * buffer and bounds-checked cursor their encoders and decoders (and the ELF
 * writer) are built on.
 *
 * A framed file is a 16-byte prefix
 *     char magic[8] (with its NUL), u16 major, u16 minor, u32 reserved
 * followed by frames at multiples of 8:
 *     u32 type, u32 length, u32 crc, length payload bytes,
 *     zero padding to the next multiple of 8
 * all little-endian.  crc is CRC32C over the frame's first 8 bytes and the
 * payload; the first frame's CRC starts with the 16-byte prefix, so that
 * the version and reserved bytes are covered too.  docs/trace-format.md
 * ("framing") is the specification; what the records mean is each
 * format's own business.
 *
 * The reader never trusts its input: nothing is read before its length is
 * checked against the bytes that are there, and a frame that runs past the
 * end is reported as truncated (so every complete frame before it stays
 * usable), distinct from a frame that is wrong.
 */
#ifndef BPFRR_FRAME_H
#define BPFRR_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BPFRR_FRAME_PREFIX_SIZE	16	/* magic[8], u16 major, u16 minor, u32 reserved */
#define BPFRR_FRAME_MAGIC_SIZE	8
#define BPFRR_FRAME_HEADER_SIZE	12	/* u32 type, u32 length, u32 crc */
#define BPFRR_FRAME_ALIGN	8

/* CRC32C (Castagnoli, reflected 0x82F63B78): pass 0 to start, returns the
 * finished value; feed a previous result back in to continue. */
uint32_t bpfrr_crc32c(uint32_t crc, const void *data, size_t len);

/* Zero bytes that follow a frame of `total` bytes (header and payload). */
static inline size_t bpfrr_frame_pad(uint64_t total)
{
	return (size_t)((BPFRR_FRAME_ALIGN - total % BPFRR_FRAME_ALIGN) % BPFRR_FRAME_ALIGN);
}

/* --- little-endian fields -------------------------------------------------------- */

static inline void bpfrr_store_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint64_t bpfrr_load_le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* --- a growable byte buffer ------------------------------------------------------
 *
 * Appends never fail individually: the first allocation failure is kept in
 * err (sticky) and every later append is dropped, so an encoder checks once
 * at the end.  Capacity doubles, so appending n bytes costs O(n) amortised.
 * A zeroed struct is an empty buffer.
 */
struct bpfrr_buf {
	uint8_t *p;
	size_t len, cap;
	int err;		/* 0, or the first -errno */
};

/* Append n bytes of data, or n zero bytes if data is NULL. */
void bpfrr_buf_put(struct bpfrr_buf *b, const void *data, size_t n);
/* Append v as n little-endian bytes. */
void bpfrr_buf_put_le(struct bpfrr_buf *b, uint64_t v, int n);
/* Zero bytes until len is a multiple of align. */
void bpfrr_buf_align(struct bpfrr_buf *b, size_t align);
/* Empty the buffer (keeping its memory) and clear err. */
void bpfrr_buf_reset(struct bpfrr_buf *b);
void bpfrr_buf_free(struct bpfrr_buf *b);

static inline void bpfrr_buf_put_u8(struct bpfrr_buf *b, uint8_t v) { bpfrr_buf_put_le(b, v, 1); }
static inline void bpfrr_buf_put_u16(struct bpfrr_buf *b, uint16_t v) { bpfrr_buf_put_le(b, v, 2); }
static inline void bpfrr_buf_put_u32(struct bpfrr_buf *b, uint32_t v) { bpfrr_buf_put_le(b, v, 4); }
static inline void bpfrr_buf_put_u64(struct bpfrr_buf *b, uint64_t v) { bpfrr_buf_put_le(b, v, 8); }

/* --- variable-length numbers (trace format 2.x) -----------------------------------
 *
 * varint: unsigned LEB128, 7 bits a byte, least significant group first, the
 * high bit set on every byte but the last; at most 10 bytes, and in its
 * shortest form (no last byte 0x00 after the first), so every number has one
 * encoding.  zigzag: a signed number n as the varint of (n << 1) ^ (n >> 63),
 * so that small negative numbers stay short (-1 is 0x01, 1 is 0x02).
 */
#define BPFRR_VARINT_MAX	10

/* Encode v into p (at least BPFRR_VARINT_MAX bytes); returns the bytes used. */
size_t bpfrr_varint_encode(uint8_t *p, uint64_t v);
static inline uint64_t bpfrr_zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}
static inline int64_t bpfrr_unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}
void bpfrr_buf_put_varint(struct bpfrr_buf *b, uint64_t v);
static inline void bpfrr_buf_put_zigzag(struct bpfrr_buf *b, int64_t v) { bpfrr_buf_put_varint(b, bpfrr_zigzag(v)); }

/*
 * Decode a varint from p[0..len): the bytes used, 0 if the bytes end inside
 * it, or -1 if it is malformed (longer than 10 bytes, over 64 bits, or not
 * in its shortest form).
 */
int bpfrr_varint_decode(const uint8_t *p, size_t len, uint64_t *v);

/* --- writing frames ----------------------------------------------------------------- */

/* Append the 16-byte file prefix. */
void bpfrr_frame_put_prefix(struct bpfrr_buf *b, const char magic[8], uint16_t major, uint16_t minor);

/* Reserve a frame header; append the payload, then seal the frame at the
 * returned offset. */
size_t bpfrr_frame_begin(struct bpfrr_buf *b);

/*
 * Fill in the header of the frame begun at `start`: its payload is what was
 * appended since, followed by tail_len bytes at tail that the caller writes
 * after the buffer's bytes (the trace writer passes large blobs this way
 * instead of copying them).  crc_prefix is the 16-byte file prefix for the
 * first frame of a file, else NULL.  Appends nothing: returns the number of
 * zero bytes of padding that must follow the tail, or -EFBIG if the payload
 * is longer than max_payload, or the buffer's err.
 */
long bpfrr_frame_seal(struct bpfrr_buf *b, size_t start, uint32_t type, const uint8_t *crc_prefix,
		      const void *tail, size_t tail_len, uint32_t max_payload);

/* Seal a frame with no tail and append its padding: 0 or -errno as above. */
int bpfrr_frame_end(struct bpfrr_buf *b, size_t start, uint32_t type, const uint8_t *crc_prefix,
		    uint32_t max_payload);

/* --- compact frames (trace format 2.x) ----------------------------------------------
 *
 *     varint type, varint length, u32 crc, length payload bytes
 *
 * with no alignment and no padding; crc as above (CRC32C of the type and
 * length bytes, then the payload; the first frame's starts with the file
 * prefix).  The header is 6 to 14 bytes.
 */
#define BPFRR_CFRAME_HEADER_MAX	(5 + 5 + 4)

/*
 * Encode the header of a compact frame whose payload is head[0..head_len)
 * followed by tail[0..tail_len) into hdr (BPFRR_CFRAME_HEADER_MAX bytes),
 * CRC included; returns its size.  crc_prefix: as for bpfrr_frame_seal().
 */
size_t bpfrr_cframe_header(uint8_t *hdr, uint32_t type, const uint8_t *crc_prefix, const void *head,
			   size_t head_len, const void *tail, size_t tail_len);
/* The header size of a frame of this type and payload length. */
size_t bpfrr_cframe_header_size(uint32_t type, uint64_t length);

/* --- reading frames ------------------------------------------------------------------ */

/* What bpfrr_frame_read() found; the callers word their own messages. */
enum bpfrr_frame_status {
	BPFRR_FRAME_OK = 0,
	BPFRR_FRAME_NO_DATA,		/* truncated: no byte at the offset */
	BPFRR_FRAME_SHORT_HEADER,	/* truncated: fewer than 12 bytes left */
	BPFRR_FRAME_TOO_LONG,		/* corrupt: length over the format's maximum */
	BPFRR_FRAME_SHORT_PAYLOAD,	/* truncated: the payload runs past the end */
	BPFRR_FRAME_BAD_CRC,		/* corrupt: stored and computed CRC differ */
	BPFRR_FRAME_BAD_PADDING,	/* corrupt: a padding byte is not zero */
	BPFRR_FRAME_BAD_HEADER,		/* corrupt: a compact frame's type or length is malformed */
};

struct bpfrr_frame {
	size_t offset;		/* of the frame in the data */
	size_t left;		/* bytes from offset to the end of the data */
	/* set unless NO_DATA or SHORT_HEADER: */
	uint32_t type, length;
	uint32_t crc_stored, crc_computed;	/* computed only when checked */
	/* set for OK (and BAD_CRC, BAD_PADDING): */
	const uint8_t *payload;
	size_t next;		/* offset after the padding that is present */
	bool pad_cut;		/* the data ends inside the padding (a truncation after this frame) */
	size_t bad_pad;		/* BAD_PADDING: offset of the first non-zero padding byte */
};

/*
 * Frame the bytes at data[off], off <= size.  crc_prefix: as for writing
 * (data itself for the frame at offset 16).  The CRC is checked unless
 * check_crc is false.  Reads nothing outside data[off..size).
 */
enum bpfrr_frame_status bpfrr_frame_read(const uint8_t *data, size_t size, size_t off,
					  const uint8_t *crc_prefix, uint32_t max_payload, bool check_crc,
					  struct bpfrr_frame *f);

/*
 * The same for a compact frame (a SHORT_HEADER is a header cut anywhere
 * before its CRC's last byte; SHORT_PAYLOAD sets payload to where it starts;
 * pad_cut is always false, bad_pad unused).
 */
enum bpfrr_frame_status bpfrr_cframe_read(const uint8_t *data, size_t size, size_t off,
					   const uint8_t *crc_prefix, uint32_t max_payload, bool check_crc,
					   struct bpfrr_frame *f);

/* Do the first min(size, 8) bytes match magic?  (A file cut inside its magic
 * is told apart from one with another magic.) */
bool bpfrr_frame_magic_matches(const uint8_t *data, size_t size, const char magic[8]);
/* The version in a prefix of at least 16 bytes. */
void bpfrr_frame_prefix_version(const uint8_t *data, uint16_t *major, uint16_t *minor);

/*
 * Reads a framed file (a trace or a bundle) whole into *data (malloc'd, the
 * caller frees it; *len bytes) from a path: a regular file, a pipe, a FIFO or
 * a character device alike, read once (nothing is reopened, so a pipe's bytes
 * are not lost).  The first bytes are checked against the magics (each 8
 * bytes with its NUL; NULL ends the list) before anything else is read: as
 * soon as they cannot begin any of them, reading stops and *data holds what
 * was read, for the format's parser to call "bad magic", so /dev/zero or a
 * huge file of something else costs at most 8 bytes.  More than max_size
 * bytes is an error (EFBIG); so the memory is bounded whatever the input.
 * 0, or -errno with a one-line "PATH: reason" in err.
 */
int bpfrr_frame_read_file(const char *path, const char *const magics[], uint64_t max_size,
			  uint8_t **data, size_t *len, char *err, size_t err_size);

/* --- a bounds-checked cursor ----------------------------------------------------------
 *
 * Decodes one payload.  A read past the end takes nothing, marks the
 * cursor failed and calls on_short once (for the caller's message); every
 * later read of a failed cursor returns 0/NULL, so a decoder may read on
 * and check `failed` once.
 */
struct bpfrr_cursor {
	const uint8_t *p;
	size_t len, pos;
	size_t base;		/* offset of p[0] in the file, for messages */
	bool failed;
	/* called when a read of `want` bytes does not fit; `what` is the caller's field name */
	void (*on_short)(struct bpfrr_cursor *c, size_t want, const char *what);
	/* called when a varint is malformed (pos at its start); may be NULL */
	void (*on_bad)(struct bpfrr_cursor *c, const char *what, const char *why);
};

/* Are n more bytes there?  If not, fail the cursor (once). */
bool bpfrr_cursor_need(struct bpfrr_cursor *c, size_t n, const char *what);
/* n bytes, in place; NULL if they are not there. */
const uint8_t *bpfrr_cursor_bytes(struct bpfrr_cursor *c, size_t n, const char *what);
/* An n-byte little-endian number; 0 if it is not there. */
uint64_t bpfrr_cursor_le(struct bpfrr_cursor *c, int n, const char *what);

/* A varint (zigzag: a signed one); 0 if it is not there or malformed. */
uint64_t bpfrr_cursor_varint(struct bpfrr_cursor *c, const char *what);
static inline int64_t bpfrr_cursor_zigzag(struct bpfrr_cursor *c, const char *what)
{
	return bpfrr_unzigzag(bpfrr_cursor_varint(c, what));
}

static inline size_t bpfrr_cursor_left(const struct bpfrr_cursor *c)
{
	return c->len - c->pos;
}

#endif /* BPFRR_FRAME_H */

// SPDX-License-Identifier: GPL-2.0-only
/*
 * frame.c - CRC32C, the byte buffer, frame writing and reading, the cursor
 * (see frame.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errmsg.h"
#include "frame.h"

/* --- CRC32C -------------------------------------------------------------------- */

/* Slicing-by-8 tables for the reflected Castagnoli polynomial. */
static uint32_t crc32c_table[8][256];
static pthread_once_t crc32c_once = PTHREAD_ONCE_INIT;

static void crc32c_init_tables(void)
{
	uint32_t i, j, crc;

	for (i = 0; i < 256; i++) {
		crc = i;
		for (j = 0; j < 8; j++)
			crc = crc & 1 ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
		crc32c_table[0][i] = crc;
	}
	for (i = 0; i < 256; i++)
		for (j = 1; j < 8; j++)
			crc32c_table[j][i] = (crc32c_table[j - 1][i] >> 8) ^
					     crc32c_table[0][crc32c_table[j - 1][i] & 0xff];
}

uint32_t bpfrr_crc32c(uint32_t crc, const void *data, size_t len)
{
	const uint8_t *p = data;

	pthread_once(&crc32c_once, crc32c_init_tables);
	crc = ~crc;
	while (len >= 8) {
		uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
				     (uint32_t)p[3] << 24);
		uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 |
			      (uint32_t)p[7] << 24;

		crc = crc32c_table[7][lo & 0xff] ^ crc32c_table[6][(lo >> 8) & 0xff] ^
		      crc32c_table[5][(lo >> 16) & 0xff] ^ crc32c_table[4][lo >> 24] ^
		      crc32c_table[3][hi & 0xff] ^ crc32c_table[2][(hi >> 8) & 0xff] ^
		      crc32c_table[1][(hi >> 16) & 0xff] ^ crc32c_table[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = (crc >> 8) ^ crc32c_table[0][(crc ^ *p++) & 0xff];
	return ~crc;
}

/*
 * The CRC a frame carries, up to its payload: the file prefix for the first
 * frame, then the frame's type and length.  The caller continues it over the
 * payload.
 */
static uint32_t frame_crc_start(const uint8_t *crc_prefix, const uint8_t *frame)
{
	uint32_t crc = crc_prefix ? bpfrr_crc32c(0, crc_prefix, BPFRR_FRAME_PREFIX_SIZE) : 0;

	return bpfrr_crc32c(crc, frame, 8);
}

/* --- byte buffer ------------------------------------------------------------------ */

static bool buf_reserve(struct bpfrr_buf *b, size_t more)
{
	size_t cap;
	uint8_t *p;

	if (b->err)
		return false;
	if (more <= b->cap - b->len)
		return true;
	cap = b->cap ? b->cap : 4096;
	while (cap - b->len < more) {
		if (cap > SIZE_MAX / 2) {
			b->err = -ENOMEM;
			return false;
		}
		cap *= 2;
	}
	p = realloc(b->p, cap);
	if (!p) {
		b->err = -ENOMEM;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

void bpfrr_buf_put(struct bpfrr_buf *b, const void *data, size_t n)
{
	if (!buf_reserve(b, n))
		return;
	if (data)
		memcpy(b->p + b->len, data, n);
	else if (n)
		memset(b->p + b->len, 0, n);
	b->len += n;
}

void bpfrr_buf_put_le(struct bpfrr_buf *b, uint64_t v, int n)
{
	uint8_t le[8];

	bpfrr_store_le(le, v, n);
	bpfrr_buf_put(b, le, n);
}

void bpfrr_buf_align(struct bpfrr_buf *b, size_t align)
{
	bpfrr_buf_put(b, NULL, (align - b->len % align) % align);
}

void bpfrr_buf_reset(struct bpfrr_buf *b)
{
	b->len = 0;
	b->err = 0;
}

void bpfrr_buf_free(struct bpfrr_buf *b)
{
	free(b->p);
	*b = (struct bpfrr_buf){ 0 };
}

/* --- varints ------------------------------------------------------------------------- */

size_t bpfrr_varint_encode(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

void bpfrr_buf_put_varint(struct bpfrr_buf *b, uint64_t v)
{
	uint8_t enc[BPFRR_VARINT_MAX];

	bpfrr_buf_put(b, enc, bpfrr_varint_encode(enc, v));
}

int bpfrr_varint_decode(const uint8_t *p, size_t len, uint64_t *v)
{
	uint64_t val = 0;
	size_t i;

	*v = 0;
	for (i = 0; i < len; i++) {
		if (i == BPFRR_VARINT_MAX - 1 && p[i] > 1)
			return -1;	/* bits past the 64th */
		val |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if (!(p[i] & 0x80)) {
			if (i && !p[i])
				return -1;	/* not the shortest form */
			*v = val;
			return (int)i + 1;
		}
		if (i == BPFRR_VARINT_MAX - 1)
			return -1;
	}
	return 0;
}

/* --- writing frames ------------------------------------------------------------------ */

void bpfrr_frame_put_prefix(struct bpfrr_buf *b, const char magic[8], uint16_t major, uint16_t minor)
{
	bpfrr_buf_put(b, magic, 8);
	bpfrr_buf_put_u16(b, major);
	bpfrr_buf_put_u16(b, minor);
	bpfrr_buf_put_u32(b, 0);
}

size_t bpfrr_frame_begin(struct bpfrr_buf *b)
{
	size_t start = b->len;

	bpfrr_buf_put(b, NULL, BPFRR_FRAME_HEADER_SIZE);
	return start;
}

long bpfrr_frame_seal(struct bpfrr_buf *b, size_t start, uint32_t type, const uint8_t *crc_prefix,
		      const void *tail, size_t tail_len, uint32_t max_payload)
{
	size_t head_len;
	uint64_t length;
	uint8_t *f;
	uint32_t crc;

	if (b->err)
		return b->err;
	head_len = b->len - start - BPFRR_FRAME_HEADER_SIZE;
	length = (uint64_t)head_len + tail_len;
	if (length > max_payload)
		return -EFBIG;
	f = b->p + start;
	bpfrr_store_le(f, type, 4);
	bpfrr_store_le(f + 4, length, 4);
	crc = frame_crc_start(crc_prefix, f);
	crc = bpfrr_crc32c(crc, f + BPFRR_FRAME_HEADER_SIZE, head_len);
	if (tail_len)
		crc = bpfrr_crc32c(crc, tail, tail_len);
	bpfrr_store_le(f + 8, crc, 4);
	return (long)bpfrr_frame_pad(BPFRR_FRAME_HEADER_SIZE + length);
}

int bpfrr_frame_end(struct bpfrr_buf *b, size_t start, uint32_t type, const uint8_t *crc_prefix,
		    uint32_t max_payload)
{
	long pad = bpfrr_frame_seal(b, start, type, crc_prefix, NULL, 0, max_payload);

	if (pad < 0)
		return (int)pad;
	bpfrr_buf_put(b, NULL, (size_t)pad);
	return b->err;
}

size_t bpfrr_cframe_header_size(uint32_t type, uint64_t length)
{
	uint8_t enc[BPFRR_VARINT_MAX];

	return bpfrr_varint_encode(enc, type) + bpfrr_varint_encode(enc, length) + 4;
}

size_t bpfrr_cframe_header(uint8_t *hdr, uint32_t type, const uint8_t *crc_prefix, const void *head,
			   size_t head_len, const void *tail, size_t tail_len)
{
	size_t n = bpfrr_varint_encode(hdr, type);
	uint32_t crc;

	n += bpfrr_varint_encode(hdr + n, (uint64_t)head_len + tail_len);
	crc = crc_prefix ? bpfrr_crc32c(0, crc_prefix, BPFRR_FRAME_PREFIX_SIZE) : 0;
	crc = bpfrr_crc32c(crc, hdr, n);
	crc = bpfrr_crc32c(crc, head, head_len);
	if (tail_len)
		crc = bpfrr_crc32c(crc, tail, tail_len);
	bpfrr_store_le(hdr + n, crc, 4);
	return n + 4;
}

/* --- reading frames ------------------------------------------------------------------ */

enum bpfrr_frame_status bpfrr_frame_read(const uint8_t *data, size_t size, size_t off,
					  const uint8_t *crc_prefix, uint32_t max_payload, bool check_crc,
					  struct bpfrr_frame *f)
{
	const uint8_t *frame = data + off;
	size_t total, pad, i;

	memset(f, 0, sizeof(*f));
	f->offset = off;
	f->left = size - off;
	if (f->left == 0)
		return BPFRR_FRAME_NO_DATA;
	if (f->left < BPFRR_FRAME_HEADER_SIZE)
		return BPFRR_FRAME_SHORT_HEADER;
	f->type = (uint32_t)bpfrr_load_le(frame, 4);
	f->length = (uint32_t)bpfrr_load_le(frame + 4, 4);
	f->crc_stored = (uint32_t)bpfrr_load_le(frame + 8, 4);
	if (f->length > max_payload)
		return BPFRR_FRAME_TOO_LONG;
	if (f->length > f->left - BPFRR_FRAME_HEADER_SIZE)
		return BPFRR_FRAME_SHORT_PAYLOAD;
	f->payload = frame + BPFRR_FRAME_HEADER_SIZE;
	total = BPFRR_FRAME_HEADER_SIZE + (size_t)f->length;
	pad = bpfrr_frame_pad(total);
	f->pad_cut = pad > f->left - total;
	if (f->pad_cut)
		pad = f->left - total;	/* the payload is complete; only padding is cut off */
	f->next = off + total + pad;
	if (check_crc) {
		f->crc_computed = bpfrr_crc32c(frame_crc_start(crc_prefix, frame), f->payload, f->length);
		if (f->crc_computed != f->crc_stored)
			return BPFRR_FRAME_BAD_CRC;
	}
	for (i = 0; i < pad; i++) {
		if (frame[total + i]) {
			f->bad_pad = off + total + i;
			return BPFRR_FRAME_BAD_PADDING;
		}
	}
	return BPFRR_FRAME_OK;
}

enum bpfrr_frame_status bpfrr_cframe_read(const uint8_t *data, size_t size, size_t off,
					   const uint8_t *crc_prefix, uint32_t max_payload, bool check_crc,
					   struct bpfrr_frame *f)
{
	const uint8_t *frame = data + off;
	uint64_t type, length;
	size_t head;
	int n;

	memset(f, 0, sizeof(*f));
	f->offset = off;
	f->left = size - off;
	if (f->left == 0)
		return BPFRR_FRAME_NO_DATA;
	n = bpfrr_varint_decode(frame, f->left, &type);
	if (n == 0)
		return BPFRR_FRAME_SHORT_HEADER;
	if (n < 0 || type > UINT32_MAX)
		return BPFRR_FRAME_BAD_HEADER;
	head = (size_t)n;
	f->type = (uint32_t)type;
	n = bpfrr_varint_decode(frame + head, f->left - head, &length);
	if (n == 0)
		return BPFRR_FRAME_SHORT_HEADER;
	if (n < 0)
		return BPFRR_FRAME_BAD_HEADER;
	head += (size_t)n;
	if (length > max_payload) {
		f->length = length > UINT32_MAX ? UINT32_MAX : (uint32_t)length;
		return BPFRR_FRAME_TOO_LONG;
	}
	f->length = (uint32_t)length;
	if (f->left - head < 4)
		return BPFRR_FRAME_SHORT_HEADER;
	f->crc_stored = (uint32_t)bpfrr_load_le(frame + head, 4);
	head += 4;
	f->payload = frame + head;	/* where it starts, even when it is cut short */
	if (f->length > f->left - head)
		return BPFRR_FRAME_SHORT_PAYLOAD;
	f->next = off + head + f->length;
	if (check_crc) {
		uint32_t crc = crc_prefix ? bpfrr_crc32c(0, crc_prefix, BPFRR_FRAME_PREFIX_SIZE) : 0;

		crc = bpfrr_crc32c(crc, frame, head - 4);
		f->crc_computed = bpfrr_crc32c(crc, f->payload, f->length);
		if (f->crc_computed != f->crc_stored)
			return BPFRR_FRAME_BAD_CRC;
	}
	return BPFRR_FRAME_OK;
}

bool bpfrr_frame_magic_matches(const uint8_t *data, size_t size, const char magic[8])
{
	return !memcmp(data, magic, size < 8 ? size : 8);
}

void bpfrr_frame_prefix_version(const uint8_t *data, uint16_t *major, uint16_t *minor)
{
	*major = (uint16_t)bpfrr_load_le(data + 8, 2);
	*minor = (uint16_t)bpfrr_load_le(data + 10, 2);
}

static bool any_magic_begins(const uint8_t *data, size_t size, const char *const magics[])
{
	size_t i;

	for (i = 0; magics[i]; i++)
		if (bpfrr_frame_magic_matches(data, size, magics[i]))
			return true;
	return false;
}

/* read() until count bytes or the end; the bytes read, or -1 (errno set) */
static ssize_t read_full(int fd, uint8_t *buf, size_t count)
{
	size_t done = 0;

	while (done < count) {
		ssize_t n = read(fd, buf + done, count - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

int bpfrr_frame_read_file(const char *path, const char *const magics[], uint64_t max_size,
			  uint8_t **data, size_t *len, char *err, size_t err_size)
{
	size_t cap = 1 << 16, size = 0;
	uint8_t *buf = NULL;
	struct stat st;
	ssize_t n;
	int fd, ret;

	*data = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		ret = -errno;
		goto io_error;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
		goto io_error;
	}
	/* a regular file's size is known: one allocation (and the check comes first) */
	if (S_ISREG(st.st_mode)) {
		if ((uint64_t)st.st_size > max_size) {
			ret = -EFBIG;
			goto too_big;
		}
		cap = (size_t)st.st_size + 1;
	}
	/* the magic first, into a buffer of its own size: a foreign file costs 8 bytes */
	buf = malloc(BPFRR_FRAME_MAGIC_SIZE);
	if (!buf) {
		ret = -ENOMEM;
		goto io_error;
	}
	n = read_full(fd, buf, BPFRR_FRAME_MAGIC_SIZE);
	if (n < 0) {
		ret = -errno;
		goto io_error;
	}
	size = (size_t)n;
	if (size < BPFRR_FRAME_MAGIC_SIZE || !any_magic_begins(buf, size, magics))
		goto done;	/* short or foreign: the parser says which */
	if (cap > size) {
		uint8_t *p = realloc(buf, cap);

		if (!p) {
			ret = -ENOMEM;
			goto io_error;
		}
		buf = p;
	}
	for (;;) {
		if (size == cap) {
			uint8_t *p;

			if (cap > max_size) {
				ret = -EFBIG;
				goto too_big;
			}
			cap = cap * 2 > max_size + 1 ? (size_t)max_size + 1 : cap * 2;
			p = realloc(buf, cap);
			if (!p) {
				ret = -ENOMEM;
				goto io_error;
			}
			buf = p;
		}
		n = read(fd, buf + size, cap - size);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			goto io_error;
		}
		if (n == 0)
			break;
		size += (size_t)n;
		if (size > max_size) {
			ret = -EFBIG;
			goto too_big;
		}
	}
done:
	close(fd);
	*data = buf;
	*len = size;
	return 0;
too_big:
	snprintf(err, err_size, "%s: larger than %llu bytes, more than this bpfrr reads", path,
		 (unsigned long long)max_size);
	goto fail;
io_error:
	bpfrr_note_short(ret);
	snprintf(err, err_size, "%s: %s", path, strerror(-ret));
fail:
	if (fd >= 0)
		close(fd);
	free(buf);
	return ret;
}

/* --- cursor ----------------------------------------------------------------------------- */

uint64_t bpfrr_cursor_varint(struct bpfrr_cursor *c, const char *what)
{
	uint64_t v;
	int n;

	if (c->failed)
		return 0;
	n = bpfrr_varint_decode(c->p + c->pos, c->len - c->pos, &v);
	if (n == 0) {
		/* ends inside it: the bytes it would need at least */
		bpfrr_cursor_need(c, c->len - c->pos + 1, what);
		return 0;
	}
	if (n < 0) {
		if (c->on_bad)
			c->on_bad(c, what, "malformed number (over 64 bits or not in its shortest form)");
		c->failed = true;
		return 0;
	}
	c->pos += (size_t)n;
	return v;
}

bool bpfrr_cursor_need(struct bpfrr_cursor *c, size_t n, const char *what)
{
	if (c->failed)
		return false;
	if (n <= c->len - c->pos)
		return true;
	if (c->on_short)
		c->on_short(c, n, what);
	c->failed = true;
	return false;
}

const uint8_t *bpfrr_cursor_bytes(struct bpfrr_cursor *c, size_t n, const char *what)
{
	const uint8_t *p;

	if (!bpfrr_cursor_need(c, n, what))
		return NULL;
	p = c->p + c->pos;
	c->pos += n;
	return p;
}

uint64_t bpfrr_cursor_le(struct bpfrr_cursor *c, int n, const char *what)
{
	const uint8_t *p = bpfrr_cursor_bytes(c, (size_t)n, what);

	return p ? bpfrr_load_le(p, n) : 0;
}

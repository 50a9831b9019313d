// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.c - the trace file: streaming writer, validating reader.
 *
 * The layout is specified in docs/trace-format.md.  The writer encodes one
 * record at a time into a scratch buffer and hands it to write(2) at once
 * (or, when asked, gathers whole records in a buffer written out when it
 * fills or is flushed), so the file always ends with complete records (or,
 * after a SIGKILL in the middle of a write, with one partial record the
 * reader reports as a truncation).  The reader loads the file into memory and decodes it with a
 * bounds-checked cursor: no length is used before it is checked against
 * the bytes that are really there.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "blob_copy.h"
#include "bpf_abi.h"
#include "frame.h"
#include "sha256.h"
#include "trace.h"
#include "u64map.h"

#include <zlib.h>

/* The framing (prefix, frame header, CRC, padding) is frame.h's. */
#define PREFIX_SIZE	BPFRR_FRAME_PREFIX_SIZE
#define FRAME_SIZE	BPFRR_FRAME_HEADER_SIZE
#define RECORD_ALIGN	BPFRR_FRAME_ALIGN
#define BLOB_PREFIX	52	/* u64 id, u64 len, sha256[32], u32 flags: data lands 8-aligned */

/* Minimum encoded sizes, used to bound counts before allocating. */
#define STR_MIN		5	/* u32 n = 1, one NUL */
#define REGION_MIN	(1 + 1 + 1 + 1 + 2 + 2 + 4 + 8 + 8 + 8 + 8 + STR_MIN)

/*
 * The on-disk values are those of bpf_abi.h's enums; pin the ones the
 * format document lists so that a renumbering breaks the build, not old
 * traces.
 */
_Static_assert(BPFRR_PHASE_ENTRY == 0 && BPFRR_PHASE_EXIT == 1, "phase values are on disk");
_Static_assert(BPFRR_DIR_IN == 1 && BPFRR_DIR_OUT == 2 && BPFRR_DIR_INOUT == 3, "dir values are on disk");
_Static_assert(BPFRR_OBJ_MAP == 1 && BPFRR_OBJ_PROG == 2 && BPFRR_OBJ_BTF == 3 && BPFRR_OBJ_LINK == 4 &&
	       BPFRR_OBJ_CGROUP == 5 && BPFRR_OBJ_PERF_EVENT == 6 && BPFRR_OBJ_NETNS == 7 &&
	       BPFRR_OBJ_ANY == 8 && BPFRR_OBJ_TOKEN == 9 && BPFRR_OBJ_SOCKET == 10 &&
	       BPFRR_OBJ_DIR == 11 && BPFRR_OBJ_PIDFD == 12 && BPFRR_OBJ_DEVICE == 13 &&
	       BPFRR_OBJ_ITER == 14, "object kind values are on disk");
_Static_assert(BPFRR_REGION_TRUNCATED == BPFRR_ABI_BUF_TRUNCATED &&
	       BPFRR_REGION_LEN_UNKNOWN == BPFRR_ABI_BUF_LEN_UNKNOWN &&
	       BPFRR_REGION_NO_NUL == BPFRR_ABI_BUF_NO_NUL, "region flags pass ABI buffer flags through");

/* --- names ----------------------------------------------------------------------- */

const char *bpfrr_trace_rec_type_name(uint32_t type)
{
	static const char *const names[] = {
		[BPFRR_REC_HEADER] = "HEADER", [BPFRR_REC_END] = "END",
		[BPFRR_REC_BLOB] = "BLOB", [BPFRR_REC_TASK] = "TASK",
		[BPFRR_REC_BPF_CALL] = "BPF_CALL", [BPFRR_REC_SYSCALL] = "SYSCALL",
		[BPFRR_REC_FD_EVENT] = "FD_EVENT", [BPFRR_REC_OBJECT] = "OBJECT",
		[BPFRR_REC_NOTE] = "NOTE", [BPFRR_REC_KERNEL] = "KERNEL",
		[BPFRR_REC_SYMBOL] = "SYMBOL", [BPFRR_REC_ELF] = "ELF",
	};

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : NULL;
}

const char *bpfrr_trace_task_event_name(uint32_t event)
{
	static const char *const names[] = {
		[BPFRR_TASK_START] = "start", [BPFRR_TASK_THREAD] = "thread",
		[BPFRR_TASK_FORK] = "fork", [BPFRR_TASK_EXEC] = "exec",
		[BPFRR_TASK_EXIT] = "exit",
	};

	return event < sizeof(names) / sizeof(names[0]) ? names[event] : NULL;
}

const char *bpfrr_trace_fd_op_name(uint32_t op)
{
	static const char *const names[] = {
		[BPFRR_FD_NEW] = "new", [BPFRR_FD_DUP] = "dup", [BPFRR_FD_CLOSE] = "close",
		[BPFRR_FD_EXEC_CLOSE] = "exec-close", [BPFRR_FD_ADOPT] = "adopt",
	};

	return op < sizeof(names) / sizeof(names[0]) ? names[op] : NULL;
}

/* --- writer ---------------------------------------------------------------------- */

struct blob_slot {
	uint8_t sha256[BPFRR_SHA256_LEN];
	uint64_t len;
	uint64_t id;		/* 0: empty slot */
};

struct bpfrr_trace_writer {
	int fd;
	int err;		/* sticky -errno */
	uint64_t offset;	/* bytes written so far */
	uint8_t prefix[PREFIX_SIZE];	/* the file prefix (the HEADER's CRC covers it) */
	struct bpfrr_rec_end stats;
	struct blob_slot *slots;	/* open addressing, keyed by the SHA-256 */
	size_t nr_slots;		/* power of two */
	/* the one record being encoded: (1.x) its frame header, then its payload */
	struct bpfrr_buf rec;
	uint32_t rec_type;
	unsigned int major;	/* the format written: 1 to 4 */
	/* 2.x on */
	uint64_t start_ns;	/* the HEADER's start_monotonic_ns: times are relative to it */
	uint64_t nr_strs;	/* strings written inline so far: the reader's table */
	struct bpfrr_u64map interned;	/* keyed hash of a short string -> its index in strs */
	struct interned_str *strs;
	size_t nr_interned, interned_cap;
	uint8_t *scratch;	/* attr_exit XOR attr */
	size_t scratch_cap;
	/* 3.x: earlier blobs, for copies; the bytes copy-form (and 4.x deflate-form) blobs hold */
	struct bpfrr_copy_index *copies;
	uint64_t expanded_bytes;
	/* 4.x: the deflate form's compressor, made at the first blob it is tried on */
	z_stream *zs;
	uint8_t *zbuf;
	size_t zbuf_cap;
	/* bpfrr_trace_writer_buffer(): whole records not written yet */
	uint8_t *out;
	size_t out_len, out_cap;
	uint64_t out_writes;	/* times the buffer was written out */
};

/* A string the 2.x writer wrote inline, for later references to it. */
struct interned_str {
	char *s;
	uint64_t index;		/* 1 for the first string of the file */
};

/* Strings up to this length are interned by the 2.x writer (paths, names). */
#define INTERN_MAX	256
/* 2.x zero runs: a gap of more zero bytes than this ends a run */
#define SPARSE_GAP	2
/* 2.x BLOB forms: 0..15 raw after that many zero bytes, or the data as runs;
 * 3.x also literals and copies of earlier blobs */
#define BLOB_FORM_RUNS		16
#define BLOB_FORM_COPIES	17
#define BLOB_FORM_DEFLATE	18	/* 4.x */
#define BLOB_RUNS_EXPAND	16	/* runs hold at most 16 times their record's length */
/* copy-form and deflate-form blobs hold at most 16 times the file's bytes up to their record's end */
#define BLOB_COPIES_EXPAND	16
/*
 * 4.x: deflate is tried on a blob only when its shortest other form still
 * takes this many bytes (what is left then is mostly the bytes of an ELF
 * object no later call repeats, or the first of a loader's large buffers),
 * and at zlib's fastest level: the recorder deflates at the loader's stops.
 */
#define DEFLATE_MIN		256
#define DEFLATE_LEVEL		1
/* nor on blobs over 16 MiB (seconds under TCG); the output buffer is freed above 1 MiB */
#define DEFLATE_MAX		(16u << 20)
#define DEFLATE_KEEP		(1u << 20)

static void put_bytes(struct bpfrr_trace_writer *w, const void *data, size_t len)
{
	bpfrr_buf_put(&w->rec, data, len);
}

static void put_u8(struct bpfrr_trace_writer *w, uint8_t v) { bpfrr_buf_put_u8(&w->rec, v); }
static void put_u16(struct bpfrr_trace_writer *w, uint16_t v) { bpfrr_buf_put_u16(&w->rec, v); }
static void put_u32(struct bpfrr_trace_writer *w, uint32_t v) { bpfrr_buf_put_u32(&w->rec, v); }
static void put_u64(struct bpfrr_trace_writer *w, uint64_t v) { bpfrr_buf_put_u64(&w->rec, v); }

/* str: u32 n (bytes including the NUL), the bytes, the NUL. NULL is "". */
static void put_str(struct bpfrr_trace_writer *w, const char *s)
{
	size_t n = s ? strlen(s) + 1 : 1;

	put_u32(w, (uint32_t)n);
	put_bytes(w, s ? s : "", n);
}

static void put_strlist(struct bpfrr_trace_writer *w, uint32_t argc, const char *const *argv)
{
	uint32_t i;

	if (!argv)
		argc = 0;
	put_u32(w, argc);
	for (i = 0; i < argc; i++)
		put_str(w, argv[i]);
}

static void begin_record(struct bpfrr_trace_writer *w, uint32_t type)
{
	bpfrr_buf_reset(&w->rec);
	if (w->major == 1)
		bpfrr_frame_begin(&w->rec);	/* 2.x frames are made when written */
	w->rec_type = type;
}

/* write(2) every byte of iov, retrying short writes and EINTR. */
static int write_all(int fd, struct iovec *iov, int iovcnt)
{
	while (iovcnt) {
		ssize_t n = writev(fd, iov, iovcnt);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		while (iovcnt && (size_t)n >= iov->iov_len) {
			n -= iov->iov_len;
			iov++;
			iovcnt--;
		}
		if (iovcnt) {
			iov->iov_base = (uint8_t *)iov->iov_base + n;
			iov->iov_len -= n;
		}
	}
	return 0;
}

/* Write out the buffered records; a failure is sticky. */
static int flush_out(struct bpfrr_trace_writer *w)
{
	struct iovec iov = { w->out, w->out_len };
	int err;

	if (w->err || !w->out_len)
		return w->err;
	err = write_all(w->fd, &iov, 1);
	if (err)
		return w->err = err;
	w->out_len = 0;
	w->out_writes++;
	return 0;
}

/* One record's pieces: to the file at once, or into the buffer when there is one. */
static int put_out(struct bpfrr_trace_writer *w, struct iovec *iov, int cnt)
{
	size_t total = 0;
	int i, err;

	if (!w->out_cap)
		return write_all(w->fd, iov, cnt);
	for (i = 0; i < cnt; i++)
		total += iov[i].iov_len;
	if (total > w->out_cap - w->out_len && (err = flush_out(w)))
		return err;
	if (total > w->out_cap)	/* larger than the buffer: written as it is */
		return write_all(w->fd, iov, cnt);
	for (i = 0; i < cnt; i++) {
		memcpy(w->out + w->out_len, iov[i].iov_base, iov[i].iov_len);
		w->out_len += iov[i].iov_len;
	}
	return 0;
}

int bpfrr_trace_writer_buffer(struct bpfrr_trace_writer *w, size_t size)
{
	uint8_t *out;

	if (flush_out(w))
		return w->err;
	out = size ? realloc(w->out, size) : NULL;
	if (size && !out)
		return -ENOMEM;
	if (!size)
		free(w->out);
	w->out = out;
	w->out_cap = size;
	return 0;
}

int bpfrr_trace_flush(struct bpfrr_trace_writer *w)
{
	return flush_out(w);
}

size_t bpfrr_trace_pending(const struct bpfrr_trace_writer *w)
{
	return w->out_len;
}

uint64_t bpfrr_trace_buffer_writes(const struct bpfrr_trace_writer *w)
{
	return w->out_writes;
}

static const uint8_t zero_pad[RECORD_ALIGN];

/*
 * Frame the encoded record (plus tail bytes not copied into the scratch
 * buffer, for blob data) and write it with one writev().
 */
static int write_record(struct bpfrr_trace_writer *w, const void *tail, size_t tail_len)
{
	struct iovec iov[3];
	long pad;
	int cnt = 0, err;

	if (w->err)
		return w->err;
	pad = bpfrr_frame_seal(&w->rec, 0, w->rec_type, w->offset == PREFIX_SIZE ? w->prefix : NULL,
			       tail, tail_len, BPFRR_TRACE_MAX_PAYLOAD);
	if (pad < 0)
		return (int)pad;

	iov[cnt].iov_base = w->rec.p;
	iov[cnt++].iov_len = w->rec.len;
	if (tail_len) {
		iov[cnt].iov_base = (void *)tail;
		iov[cnt++].iov_len = tail_len;
	}
	if (pad) {
		iov[cnt].iov_base = (void *)zero_pad;
		iov[cnt++].iov_len = (size_t)pad;
	}
	err = put_out(w, iov, cnt);
	if (err) {
		w->err = err;
		return err;
	}
	w->offset += w->rec.len + tail_len + (size_t)pad;
	w->stats.nr_records++;
	return 0;
}

static void writer_free(struct bpfrr_trace_writer *w)
{
	size_t i;

	for (i = 0; i < w->nr_interned; i++)
		free(w->strs[i].s);
	free(w->strs);
	bpfrr_u64map_free(&w->interned);
	free(w->scratch);
	bpfrr_copy_index_free(w->copies);
	if (w->zs) {
		deflateEnd(w->zs);
		free(w->zs);
	}
	free(w->zbuf);
	free(w->slots);
	free(w->out);
	bpfrr_buf_free(&w->rec);
	free(w);
}

/* --- the 2.x encoding ------------------------------------------------------------
 *
 * Numbers are varints, signed ones zigzag; times are relative to the
 * HEADER's start_monotonic_ns; strings go into a table as they are first
 * written and are referred to by their index after that; attrs are stored
 * as runs of non-zero bytes (attr_exit as its difference from attr).  See
 * docs/trace-format.md.
 */
static void put_var(struct bpfrr_trace_writer *w, uint64_t v) { bpfrr_buf_put_varint(&w->rec, v); }
static void put_zz(struct bpfrr_trace_writer *w, int64_t v) { bpfrr_buf_put_zigzag(&w->rec, v); }

static void put_time(struct bpfrr_trace_writer *w, uint64_t t)
{
	put_zz(w, (int64_t)(t - w->start_ns));
}

/* str: varint index of a string written before, or 0 and the string inline
 * (varint n counting the NUL, n bytes), which becomes the next index. */
static void put_str2(struct bpfrr_trace_writer *w, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	bool intern = n < INTERN_MAX;
	uint64_t hash = 0, slot;
	struct interned_str *is;

	if (!s)
		s = "";
	if (intern) {
		hash = bpfrr_keyed_hash(s, n);
		if (bpfrr_u64map_get(&w->interned, hash, &slot)) {
			if (!strcmp(w->strs[slot].s, s)) {
				put_var(w, w->strs[slot].index);
				return;
			}
			intern = false;	/* another string under the same hash: inline, not interned */
		}
	}
	put_var(w, 0);
	put_var(w, n + 1);
	put_bytes(w, s, n + 1);
	w->nr_strs++;
	if (!intern)
		return;
	/* remembering it is an optimisation: without memory the string is only written again */
	if (w->nr_interned == w->interned_cap) {
		size_t cap = w->interned_cap ? 2 * w->interned_cap : 64;
		void *p = realloc(w->strs, cap * sizeof(*w->strs));

		if (!p)
			return;
		w->strs = p;
		w->interned_cap = cap;
	}
	is = &w->strs[w->nr_interned];
	is->s = strdup(s);
	is->index = w->nr_strs;
	if (!is->s)
		return;
	if (bpfrr_u64map_put(&w->interned, hash, w->nr_interned)) {
		free(is->s);
		return;
	}
	w->nr_interned++;
}

static void put_strlist2(struct bpfrr_trace_writer *w, uint32_t argc, const char *const *argv)
{
	uint32_t i;

	if (!argv)
		argc = 0;
	put_var(w, argc);
	for (i = 0; i < argc; i++)
		put_str2(w, argv[i]);
}

/* The next run of b[from..n): starts at a non-zero byte, ends at one, holds no
 * more than SPARSE_GAP zero bytes in a row.  false when only zeros are left. */
static bool next_run(const uint8_t *b, size_t n, size_t from, size_t *start, size_t *end)
{
	size_t i = from, last;

	while (i < n && !b[i])
		i++;
	if (i == n)
		return false;
	*start = i;
	last = i;
	for (i++; i < n && i - last <= SPARSE_GAP + 1; i++)
		if (b[i])
			last = i;
	*end = last + 1;
	return true;
}

/* runs: varint count, then per run varint skip (zero bytes before it), varint
 * len (>= 1), len bytes; the bytes no run covers are zero */
static void put_runs(struct bpfrr_trace_writer *w, const uint8_t *b, size_t n)
{
	size_t pos = 0, start, end;
	uint64_t count = 0;

	while (next_run(b, n, pos, &start, &end)) {
		count++;
		pos = end;
	}
	put_var(w, count);
	pos = 0;
	while (next_run(b, n, pos, &start, &end)) {
		put_var(w, start - pos);
		put_var(w, end - start);
		put_bytes(w, b + start, end - start);
		pos = end;
	}
}

static int check_regions(const struct bpfrr_trace_writer *w, uint32_t nr,
			 const struct bpfrr_trace_region *regions)
{
	uint32_t i;

	if (nr && !regions)
		return -EINVAL;
	for (i = 0; i < nr; i++)
		if (regions[i].blob > w->stats.nr_blobs)
			return -EINVAL;	/* a record may only name blobs already in the file */
	return 0;
}

static void put_regions2(struct bpfrr_trace_writer *w, uint32_t nr, const struct bpfrr_trace_region *regions)
{
	uint32_t i;

	put_var(w, nr);
	for (i = 0; i < nr; i++) {
		const struct bpfrr_trace_region *r = &regions[i];

		put_var(w, (uint64_t)r->dir << 1 | (r->phase & 1));
		put_var(w, r->content);
		put_var(w, r->flags);
		put_zz(w, r->err);
		put_var(w, r->addr);
		put_var(w, r->len);
		put_zz(w, (int64_t)(r->want_len - r->len));
		put_var(w, r->blob);
		put_str2(w, r->path);
	}
}

/* Write the encoded record as one compact frame, tail bytes after it. */
static int write_record2(struct bpfrr_trace_writer *w, const void *tail, size_t tail_len)
{
	uint8_t hdr[BPFRR_CFRAME_HEADER_MAX];
	struct iovec iov[3];
	int cnt = 0, err;

	if (w->err)
		return w->err;
	/* the strings of this record are counted already: a record lost here would
	 * leave the reader's table behind the writer's, so every failure is final */
	if (w->rec.err)
		return w->err = w->rec.err;
	if ((uint64_t)w->rec.len + tail_len > BPFRR_TRACE_MAX_PAYLOAD)
		return w->err = -EFBIG;
	iov[cnt].iov_base = hdr;
	iov[cnt++].iov_len = bpfrr_cframe_header(hdr, w->rec_type, w->offset == PREFIX_SIZE ? w->prefix : NULL,
						 w->rec.p, w->rec.len, tail, tail_len);
	iov[cnt].iov_base = w->rec.p;
	iov[cnt++].iov_len = w->rec.len;
	if (tail_len) {
		iov[cnt].iov_base = (void *)tail;
		iov[cnt++].iov_len = tail_len;
	}
	err = put_out(w, iov, cnt);
	if (err)
		return w->err = err;
	w->offset += iov[0].iov_len + w->rec.len + tail_len;
	w->stats.nr_records++;
	return 0;
}

static int write_header2(struct bpfrr_trace_writer *w, const struct bpfrr_trace_header *hdr)
{
	begin_record(w, BPFRR_REC_HEADER);
	w->start_ns = hdr->start_monotonic_ns;
	put_var(w, hdr->flags);
	put_var(w, hdr->arch);
	put_var(w, hdr->nr_cpus);
	put_var(w, hdr->page_size);
	put_var(w, hdr->start_realtime_ns);
	put_var(w, hdr->start_monotonic_ns);
	put_var(w, hdr->recorder_pid);
	put_var(w, hdr->tracee_pid);
	put_str2(w, hdr->arch_name);
	put_str2(w, hdr->kernel_release);
	put_str2(w, hdr->kernel_version);
	put_str2(w, hdr->recorder_version);
	put_strlist2(w, hdr->argc, hdr->argv);
	return write_record2(w, NULL, 0);
}

/* Bytes of v as a varint. */
static size_t var_size(uint64_t v)
{
	uint8_t enc[BPFRR_VARINT_MAX];

	return bpfrr_varint_encode(enc, v);
}

/* Bytes of the runs encoding of b[0..n) (put_runs() without the writing). */
static size_t runs_size(const uint8_t *b, size_t n)
{
	size_t pos = 0, start, end, size = 0, count = 0;

	while (next_run(b, n, pos, &start, &end)) {
		size += var_size(start - pos) + var_size(end - start) + end - start;
		count++;
		pos = end;
	}
	return size + var_size(count);
}

/* Payload bytes of form 17 for these pieces of blob `id` of len bytes. */
static size_t copies_size(uint64_t id, size_t len, const struct bpfrr_copy_piece *pieces, size_t nr)
{
	size_t size = 1 + var_size(len), i;

	for (i = 0; i < nr; i++) {
		const struct bpfrr_copy_piece *p = &pieces[i];

		size += var_size(p->lit_len) + p->lit_len;
		if (p->copy_len)
			size += var_size(p->copy_len) + var_size(id - p->src_id) + var_size(p->src_off);
	}
	return size;
}

static void put_copies(struct bpfrr_trace_writer *w, uint64_t id, const uint8_t *data, size_t len,
		       const struct bpfrr_copy_piece *pieces, size_t nr)
{
	size_t i;

	put_u8(w, BLOB_FORM_COPIES);
	put_var(w, len);
	for (i = 0; i < nr; i++) {
		const struct bpfrr_copy_piece *p = &pieces[i];

		put_var(w, p->lit_len);
		put_bytes(w, data + p->lit_off, p->lit_len);
		if (!p->copy_len)
			continue;
		put_var(w, p->copy_len);
		put_var(w, id - p->src_id);
		put_var(w, p->src_off);
	}
}

/*
 * Deflate data into w->zbuf (raw deflate, no zlib header: the record's CRC
 * protects it) if that takes fewer than room bytes; its length, or 0 if it
 * does not fit (deflate stops when the room is full: incompressible bytes
 * cost little) or did not work (out of memory: the blob goes in another form).
 */
static size_t deflate_blob(struct bpfrr_trace_writer *w, const uint8_t *data, size_t len, size_t room)
{
	size_t zlen = 0;

	if (!w->zs) {
		w->zs = calloc(1, sizeof(*w->zs));
		if (!w->zs)
			return 0;
		/* window and memory levels as zlib's defaults; raw: windowBits < 0 */
		if (deflateInit2(w->zs, DEFLATE_LEVEL, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
			free(w->zs);
			w->zs = NULL;
			return 0;
		}
	} else if (deflateReset(w->zs) != Z_OK) {
		return 0;
	}
	if (room > w->zbuf_cap) {
		uint8_t *p = realloc(w->zbuf, room);

		if (!p)
			return 0;
		w->zbuf = p;
		w->zbuf_cap = room;
	}
	w->zs->next_in = (Bytef *)data;
	w->zs->avail_in = (uInt)len;
	w->zs->next_out = w->zbuf;
	w->zs->avail_out = (uInt)room;
	if (deflate(w->zs, Z_FINISH) == Z_STREAM_END)
		zlen = (size_t)w->zs->total_out;
	return zlen;
}

/*
 * BLOB: u8 form, then
 *   form 0..15: that many zero bytes, the data, at a file offset that is a
 *     multiple of 8 (aligned in a reader that holds the file at an aligned
 *     address);
 *   form 16: varint len, the data as runs, when that is shorter and the data
 *     at most BLOB_RUNS_EXPAND times as long as the record (the reader's
 *     memory stays linear in the file's size);
 *   form 17 (3.x and later): varint len, then literals and copies of ranges
 *     of earlier blobs (put_copies());
 *   form 18 (4.x): varint len, then the data as a raw deflate stream, when
 *     the shortest other form still takes DEFLATE_MIN bytes or more;
 *   17 and 18 only while all blobs of either form so far hold at most
 *   BLOB_COPIES_EXPAND times the file's bytes.
 * The shortest form the bounds allow is written.
 */
static int put_blob2(struct bpfrr_trace_writer *w, const void *data, size_t len)
{
	uint64_t id = w->stats.nr_blobs + 1;
	const struct bpfrr_copy_piece *pieces = NULL;
	size_t pad, runs_rec, raw_rec, copies_rec = SIZE_MAX, deflate_rec = SIZE_MAX, zlen = 0, best, nr = 0;
	int err;

	runs_rec = 1 + var_size(len) + runs_size(data, len);
	if (len > BLOB_RUNS_EXPAND * runs_rec)
		runs_rec = SIZE_MAX;
	for (pad = 0; pad < 16; pad++) {
		uint64_t at = w->offset + bpfrr_cframe_header_size(BPFRR_REC_BLOB, 1 + pad + len) + 1 + pad;

		if (at % 8 == 0)
			break;
	}
	raw_rec = 1 + pad + len;
	if (w->copies) {
		/* out of memory (< 0): the blob goes in another form */
		long copied = bpfrr_copy_index_split(w->copies, data, len, &pieces, &nr);

		if (copied > 0) {
			size_t size = copies_size(id, len, pieces, nr);
			uint64_t end = w->offset + bpfrr_cframe_header_size(BPFRR_REC_BLOB, size) + size;

			if (w->expanded_bytes + len <= BLOB_COPIES_EXPAND * end)
				copies_rec = size;
		}
	}
	best = raw_rec < runs_rec ? raw_rec : runs_rec;
	best = copies_rec < best ? copies_rec : best;
	if (w->major >= 4 && best >= DEFLATE_MIN && len <= DEFLATE_MAX &&
	    (zlen = deflate_blob(w, data, len, best - 1 - var_size(len)))) {
		size_t size = 1 + var_size(len) + zlen;
		uint64_t end = w->offset + bpfrr_cframe_header_size(BPFRR_REC_BLOB, size) + size;

		if (w->expanded_bytes + len <= BLOB_COPIES_EXPAND * end)
			deflate_rec = size;
	}
	begin_record(w, BPFRR_REC_BLOB);
	if (deflate_rec < best) {
		put_u8(w, BLOB_FORM_DEFLATE);
		put_var(w, len);
		put_bytes(w, w->zbuf, zlen);
		err = write_record2(w, NULL, 0);
		if (!err)
			w->expanded_bytes += len;
	} else if (copies_rec < raw_rec && copies_rec < runs_rec) {
		put_copies(w, id, data, len, pieces, nr);
		err = write_record2(w, NULL, 0);
		if (!err)
			w->expanded_bytes += len;
	} else if (runs_rec < raw_rec) {
		put_u8(w, BLOB_FORM_RUNS);
		put_var(w, len);
		put_runs(w, data, len);
		err = write_record2(w, NULL, 0);
	} else {
		put_u8(w, (uint8_t)pad);
		put_bytes(w, NULL, pad);
		err = write_record2(w, data, len);
	}
	if (w->zbuf_cap > DEFLATE_KEEP) {
		/* the room made for one large blob is not kept for the rest of the trace */
		free(w->zbuf);
		w->zbuf = NULL;
		w->zbuf_cap = 0;
	}
	/* a blob not kept (out of memory) is only one later blobs cannot copy from */
	if (!err && w->copies)
		(void)bpfrr_copy_index_add(w->copies, id, data, len);
	return err;
}

static int write_task2(struct bpfrr_trace_writer *w, const struct bpfrr_rec_task *t)
{
	begin_record(w, BPFRR_REC_TASK);
	put_var(w, t->event);
	put_var(w, t->tid);
	put_var(w, t->tgid);
	put_var(w, t->other_tid);
	put_var(w, t->clone_flags);
	put_zz(w, t->status);
	put_time(w, t->time_ns);
	put_str2(w, t->path);
	put_strlist2(w, t->argc, t->argv);
	return write_record2(w, NULL, 0);
}

static int write_bpf_call2(struct bpfrr_trace_writer *w, const struct bpfrr_rec_bpf_call *c)
{
	const uint8_t *attr = c->attr, *exit = c->attr_exit;
	uint32_t i;
	int err;

	if (c->attr_len > c->attr_size || c->attr_exit_len > c->attr_size ||
	    c->attr_len > BPFRR_TRACE_ATTR_MAX || c->attr_exit_len > BPFRR_TRACE_ATTR_MAX)
		return -EINVAL;
	err = check_regions(w, c->nr_regions, c->regions);
	if (err)
		return err;
	if (c->attr_exit_len > w->scratch_cap) {
		void *p = realloc(w->scratch, c->attr_exit_len);

		if (!p)
			return -ENOMEM;
		w->scratch = p;
		w->scratch_cap = c->attr_exit_len;
	}
	for (i = 0; i < c->attr_exit_len; i++)
		w->scratch[i] = exit[i] ^ (i < c->attr_len ? attr[i] : 0);

	begin_record(w, BPFRR_REC_BPF_CALL);
	put_var(w, c->seq);
	put_var(w, c->tid);
	put_var(w, c->cmd);
	put_var(w, c->attr_addr);
	put_var(w, c->attr_size);
	put_var(w, c->flags);
	put_zz(w, c->ret);
	put_time(w, c->t_enter_ns);
	put_zz(w, (int64_t)(c->t_exit_ns - c->t_enter_ns));
	put_var(w, c->attr_len);
	put_runs(w, attr, c->attr_len);
	put_var(w, c->attr_exit_len);
	put_runs(w, w->scratch, c->attr_exit_len);
	put_regions2(w, c->nr_regions, c->regions);
	err = write_record2(w, NULL, 0);
	if (!err)
		w->stats.nr_bpf_calls++;
	return err;
}

static int write_syscall2(struct bpfrr_trace_writer *w, const struct bpfrr_rec_syscall *s)
{
	int i, err;

	err = check_regions(w, s->nr_regions, s->regions);
	if (err)
		return err;
	begin_record(w, BPFRR_REC_SYSCALL);
	put_var(w, s->seq);
	put_var(w, s->tid);
	put_var(w, s->nr);
	for (i = 0; i < 6; i++)
		put_zz(w, (int64_t)s->args[i]);
	put_zz(w, s->ret);
	put_var(w, s->flags);
	put_time(w, s->t_enter_ns);
	put_zz(w, (int64_t)(s->t_exit_ns - s->t_enter_ns));
	put_str2(w, s->name);
	put_regions2(w, s->nr_regions, s->regions);
	err = write_record2(w, NULL, 0);
	if (!err)
		w->stats.nr_syscalls++;
	return err;
}

static int write_fd_event2(struct bpfrr_trace_writer *w, const struct bpfrr_rec_fd_event *e)
{
	begin_record(w, BPFRR_REC_FD_EVENT);
	put_var(w, e->seq);
	put_var(w, e->tid);
	put_var(w, e->op);
	put_zz(w, e->fd);
	put_zz(w, e->newfd);
	put_var(w, e->kind);
	put_var(w, e->flags);
	put_var(w, e->object);
	return write_record2(w, NULL, 0);
}

/* OBJECT's optional fields, in their order on disk: a bit each in the mask */
enum {
	OBJ_ID, OBJ_TYPE, OBJ_KEY_SIZE, OBJ_VALUE_SIZE, OBJ_MAX_ENTRIES, OBJ_MAP_FLAGS, OBJ_BTF_ID,
	OBJ_BTF_SIZE, OBJ_PROG_ID, OBJ_ATTACH_TYPE, OBJ_TARGET_OBJ_ID, OBJ_TARGET_BTF_ID, OBJ_TARGET,
	OBJ_TAG, OBJ_INFO_BLOB, NR_OBJ_FIELDS
};

/* The object's optional numbers, by their bit (not OBJ_TAG). */
static void object_numbers(const struct bpfrr_rec_object *o, uint64_t v[NR_OBJ_FIELDS])
{
	v[OBJ_ID] = o->id;
	v[OBJ_TYPE] = o->type;
	v[OBJ_KEY_SIZE] = o->key_size;
	v[OBJ_VALUE_SIZE] = o->value_size;
	v[OBJ_MAX_ENTRIES] = o->max_entries;
	v[OBJ_MAP_FLAGS] = o->map_flags;
	v[OBJ_BTF_ID] = o->btf_id;
	v[OBJ_BTF_SIZE] = o->btf_size;
	v[OBJ_PROG_ID] = o->prog_id;
	v[OBJ_ATTACH_TYPE] = o->attach_type;
	v[OBJ_TARGET_OBJ_ID] = o->target_obj_id;
	v[OBJ_TARGET_BTF_ID] = o->target_btf_id;
	v[OBJ_TARGET] = o->target;
	v[OBJ_TAG] = 0;
	v[OBJ_INFO_BLOB] = o->info_blob;
}

static int write_object2(struct bpfrr_trace_writer *w, const struct bpfrr_rec_object *o)
{
	static const uint8_t no_tag[8];
	uint64_t v[NR_OBJ_FIELDS], mask = 0;
	int i;

	if (o->info_blob > w->stats.nr_blobs)
		return -EINVAL;
	object_numbers(o, v);
	for (i = 0; i < NR_OBJ_FIELDS; i++)
		if (i == OBJ_TAG ? memcmp(o->tag, no_tag, sizeof(no_tag)) != 0 : v[i] != 0)
			mask |= 1u << i;
	begin_record(w, BPFRR_REC_OBJECT);
	put_var(w, o->seq);
	put_var(w, o->tid);
	put_zz(w, o->fd);
	put_var(w, o->kind);
	put_var(w, o->flags);
	put_zz(w, o->err);
	put_var(w, mask);
	for (i = 0; i < NR_OBJ_FIELDS; i++) {
		if (!(mask & (1u << i)))
			continue;
		if (i == OBJ_TAG)
			put_bytes(w, o->tag, sizeof(o->tag));
		else
			put_var(w, v[i]);
	}
	put_str2(w, o->name);
	return write_record2(w, NULL, 0);
}

static int write_note2(struct bpfrr_trace_writer *w, const struct bpfrr_rec_note *n)
{
	begin_record(w, BPFRR_REC_NOTE);
	put_var(w, n->seq);
	put_var(w, n->tid);
	put_var(w, n->level);
	put_str2(w, n->text);
	return write_record2(w, NULL, 0);
}

static int write_kernel2(struct bpfrr_trace_writer *w, const struct bpfrr_rec_kernel *k)
{
	begin_record(w, BPFRR_REC_KERNEL);
	put_var(w, k->flags);
	put_var(w, k->btf_size);
	put_bytes(w, k->btf_sha256, sizeof(k->btf_sha256));
	put_str2(w, k->release);
	put_str2(w, k->version);
	put_str2(w, k->machine);
	put_str2(w, k->build_id);
	return write_record2(w, NULL, 0);
}

static int write_symbol2(struct bpfrr_trace_writer *w, const struct bpfrr_rec_symbol *s)
{
	begin_record(w, BPFRR_REC_SYMBOL);
	put_var(w, s->seq);
	put_var(w, s->kind);
	put_var(w, s->flags);
	put_zz(w, (int64_t)s->value);
	put_var(w, s->btf_kind);
	put_var(w, s->btf_obj_id);
	put_zz(w, (int64_t)s->offset);
	put_str2(w, s->name);
	put_str2(w, s->module);
	/* 2.1 */
	if (s->nr_value_fds > BPFRR_SYM_VALUE_FDS_MAX)
		return -EINVAL;
	put_var(w, s->nr_value_fds);
	for (uint32_t i = 0; i < s->nr_value_fds; i++)
		put_var(w, s->value_fds[i]);
	return write_record2(w, NULL, 0);
}

static int write_elf2(struct bpfrr_trace_writer *w, const struct bpfrr_rec_elf *e)
{
	if (!e->blob || e->blob > w->stats.nr_blobs)
		return -EINVAL;
	begin_record(w, BPFRR_REC_ELF);
	put_var(w, e->seq);
	put_var(w, e->tid);
	put_var(w, e->flags);
	put_var(w, e->offset);
	put_var(w, e->blob);
	put_str2(w, e->path);
	return write_record2(w, NULL, 0);
}

static int write_end2(struct bpfrr_trace_writer *w, int32_t exit_status, uint32_t end_flags, uint64_t now)
{
	begin_record(w, BPFRR_REC_END);
	put_zz(w, exit_status);
	put_var(w, end_flags);
	put_time(w, now);
	/* the END record itself is not counted */
	put_var(w, w->stats.nr_records);
	put_var(w, w->stats.nr_bpf_calls);
	put_var(w, w->stats.nr_syscalls);
	put_var(w, w->stats.nr_blobs);
	put_var(w, w->stats.blob_bytes);
	put_var(w, w->stats.dedup_hits);
	put_var(w, w->stats.dedup_bytes);
	return write_record2(w, NULL, 0);
}

/* The newest minor version of a major this code reads and writes; -1 for a major it does not know. */
static int newest_minor(unsigned int major)
{
	switch (major) {
	case 1:
		return BPFRR_TRACE_V1_MINOR;
	case 2:
		return BPFRR_TRACE_V2_MINOR;
	case 3:
		return BPFRR_TRACE_V3_MINOR;
	case BPFRR_TRACE_VERSION_MAJOR:
		return BPFRR_TRACE_VERSION_MINOR;
	}
	return -1;
}

struct bpfrr_trace_writer *bpfrr_trace_create_fd_version(int fd, const struct bpfrr_trace_header *hdr,
							 unsigned int major)
{
	struct bpfrr_trace_writer *w;
	struct iovec iov;
	int err;

	if (newest_minor(major) < 0) {
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	w->fd = fd;
	w->major = major;
	w->nr_slots = 1024;
	w->slots = calloc(w->nr_slots, sizeof(*w->slots));
	if (!w->slots) {
		err = -ENOMEM;
		goto fail;
	}
	if (major >= 3 && !(w->copies = bpfrr_copy_index_new())) {
		err = -ENOMEM;
		goto fail;
	}

	bpfrr_frame_put_prefix(&w->rec, BPFRR_TRACE_MAGIC, (uint16_t)major, (uint16_t)newest_minor(major));
	if (w->rec.err) {
		err = w->rec.err;
		goto fail;
	}
	memcpy(w->prefix, w->rec.p, PREFIX_SIZE);
	iov.iov_base = w->prefix;
	iov.iov_len = PREFIX_SIZE;
	err = write_all(fd, &iov, 1);
	if (err)
		goto fail;
	w->offset = PREFIX_SIZE;

	if (major >= 2) {
		err = write_header2(w, hdr);
		if (err)
			goto fail;
		return w;
	}
	begin_record(w, BPFRR_REC_HEADER);
	put_u32(w, hdr->flags);
	put_u32(w, hdr->arch);
	put_u32(w, hdr->nr_cpus);
	put_u32(w, hdr->page_size);
	put_u64(w, hdr->start_realtime_ns);
	put_u64(w, hdr->start_monotonic_ns);
	put_u32(w, hdr->recorder_pid);
	put_u32(w, hdr->tracee_pid);
	put_str(w, hdr->arch_name);
	put_str(w, hdr->kernel_release);
	put_str(w, hdr->kernel_version);
	put_str(w, hdr->recorder_version);
	put_strlist(w, hdr->argc, hdr->argv);
	err = write_record(w, NULL, 0);
	if (err)
		goto fail;
	return w;
fail:
	close(fd);
	writer_free(w);
	errno = -err;
	return NULL;
}

struct bpfrr_trace_writer *bpfrr_trace_create_fd(int fd, const struct bpfrr_trace_header *hdr)
{
	return bpfrr_trace_create_fd_version(fd, hdr, BPFRR_TRACE_VERSION_MAJOR);
}

struct bpfrr_trace_writer *bpfrr_trace_create_version(const char *path, const struct bpfrr_trace_header *hdr,
						      unsigned int major)
{
	int fd;

	if (newest_minor(major) < 0) {
		errno = EINVAL;
		return NULL;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return NULL;
	return bpfrr_trace_create_fd_version(fd, hdr, major);
}

struct bpfrr_trace_writer *bpfrr_trace_create(const char *path, const struct bpfrr_trace_header *hdr)
{
	return bpfrr_trace_create_version(path, hdr, BPFRR_TRACE_VERSION_MAJOR);
}

static size_t slot_index(const struct bpfrr_trace_writer *w, const uint8_t *sha)
{
	return (size_t)bpfrr_load_le(sha, 8) & (w->nr_slots - 1);
}

static int grow_slots(struct bpfrr_trace_writer *w)
{
	struct blob_slot *old = w->slots;
	size_t old_nr = w->nr_slots, i, j;

	w->slots = calloc(old_nr * 2, sizeof(*w->slots));
	if (!w->slots) {
		w->slots = old;
		return -ENOMEM;
	}
	w->nr_slots = old_nr * 2;
	for (i = 0; i < old_nr; i++) {
		if (!old[i].id)
			continue;
		for (j = slot_index(w, old[i].sha256); w->slots[j].id; j = (j + 1) & (w->nr_slots - 1))
			;
		w->slots[j] = old[i];
	}
	free(old);
	return 0;
}

uint64_t bpfrr_trace_put_blob(struct bpfrr_trace_writer *w, const void *data, size_t len)
{
	uint8_t sha[BPFRR_SHA256_LEN];
	struct blob_slot *slot;
	size_t i;
	int err;

	if (w->err) {
		errno = -w->err;
		return 0;
	}
	if (len > BPFRR_TRACE_MAX_PAYLOAD - BLOB_PREFIX) {
		errno = EFBIG;
		return 0;
	}
	bpfrr_sha256(data, len, sha);
	/* Same digest and same length: the same bytes, stored once. */
	for (i = slot_index(w, sha); w->slots[i].id; i = (i + 1) & (w->nr_slots - 1)) {
		slot = &w->slots[i];
		if (slot->len == len && !memcmp(slot->sha256, sha, sizeof(sha))) {
			w->stats.dedup_hits++;
			w->stats.dedup_bytes += len;
			return slot->id;
		}
	}
	/* keep the load under one half so probe chains stay short */
	if ((w->stats.nr_blobs + 1) * 2 > w->nr_slots) {
		err = grow_slots(w);
		if (err) {
			errno = -err;
			return 0;
		}
		for (i = slot_index(w, sha); w->slots[i].id; i = (i + 1) & (w->nr_slots - 1))
			;
	}

	if (w->major >= 2) {
		err = put_blob2(w, data, len);
	} else {
		begin_record(w, BPFRR_REC_BLOB);
		put_u64(w, w->stats.nr_blobs + 1);
		put_u64(w, len);
		put_bytes(w, sha, sizeof(sha));
		put_u32(w, 0);		/* flags */
		err = write_record(w, data, len);
	}
	if (err) {
		errno = -err;
		return 0;
	}
	slot = &w->slots[i];
	memcpy(slot->sha256, sha, sizeof(sha));
	slot->len = len;
	slot->id = ++w->stats.nr_blobs;
	w->stats.blob_bytes += len;
	return slot->id;
}

static int put_regions(struct bpfrr_trace_writer *w, uint32_t nr, const struct bpfrr_trace_region *regions)
{
	uint32_t i;

	if (nr && !regions)
		return -EINVAL;
	put_u32(w, nr);
	for (i = 0; i < nr; i++) {
		const struct bpfrr_trace_region *r = &regions[i];

		/* a record may only name blobs already in the file */
		if (r->blob > w->stats.nr_blobs)
			return -EINVAL;
		put_u8(w, r->phase);
		put_u8(w, r->dir);
		put_u8(w, r->content);
		put_u8(w, 0);
		put_u16(w, r->flags);
		put_u16(w, 0);
		put_u32(w, (uint32_t)r->err);
		put_u64(w, r->addr);
		put_u64(w, r->len);
		put_u64(w, r->want_len);
		put_u64(w, r->blob);
		put_str(w, r->path);
	}
	return 0;
}

int bpfrr_trace_write_task(struct bpfrr_trace_writer *w, const struct bpfrr_rec_task *t)
{
	if (w->major >= 2)
		return write_task2(w, t);
	begin_record(w, BPFRR_REC_TASK);
	put_u32(w, t->event);
	put_u32(w, t->tid);
	put_u32(w, t->tgid);
	put_u32(w, t->other_tid);
	put_u64(w, t->clone_flags);
	put_u32(w, (uint32_t)t->status);
	put_u32(w, 0);
	put_u64(w, t->time_ns);
	put_str(w, t->path);
	put_strlist(w, t->argc, t->argv);
	return write_record(w, NULL, 0);
}

int bpfrr_trace_write_bpf_call(struct bpfrr_trace_writer *w, const struct bpfrr_rec_bpf_call *c)
{
	int err;

	if ((c->attr_len && !c->attr) || (c->attr_exit_len && !c->attr_exit))
		return -EINVAL;
	if (w->major >= 2)
		return write_bpf_call2(w, c);
	begin_record(w, BPFRR_REC_BPF_CALL);
	put_u64(w, c->seq);
	put_u32(w, c->tid);
	put_u32(w, c->cmd);
	put_u64(w, c->attr_addr);
	put_u32(w, c->attr_size);
	put_u32(w, c->flags);
	put_u64(w, (uint64_t)c->ret);
	put_u64(w, c->t_enter_ns);
	put_u64(w, c->t_exit_ns);
	put_u32(w, c->attr_len);
	put_bytes(w, c->attr, c->attr_len);
	put_u32(w, c->attr_exit_len);
	put_bytes(w, c->attr_exit, c->attr_exit_len);
	err = put_regions(w, c->nr_regions, c->regions);
	if (err)
		return err;
	err = write_record(w, NULL, 0);
	if (!err)
		w->stats.nr_bpf_calls++;
	return err;
}

int bpfrr_trace_write_syscall(struct bpfrr_trace_writer *w, const struct bpfrr_rec_syscall *s)
{
	int i, err;

	if (w->major >= 2)
		return write_syscall2(w, s);
	begin_record(w, BPFRR_REC_SYSCALL);
	put_u64(w, s->seq);
	put_u32(w, s->tid);
	put_u32(w, s->nr);
	for (i = 0; i < 6; i++)
		put_u64(w, s->args[i]);
	put_u64(w, (uint64_t)s->ret);
	put_u32(w, s->flags);
	put_u32(w, 0);
	put_u64(w, s->t_enter_ns);
	put_u64(w, s->t_exit_ns);
	put_str(w, s->name);
	err = put_regions(w, s->nr_regions, s->regions);
	if (err)
		return err;
	err = write_record(w, NULL, 0);
	if (!err)
		w->stats.nr_syscalls++;
	return err;
}

int bpfrr_trace_write_fd_event(struct bpfrr_trace_writer *w, const struct bpfrr_rec_fd_event *e)
{
	if (w->major >= 2)
		return write_fd_event2(w, e);
	begin_record(w, BPFRR_REC_FD_EVENT);
	put_u64(w, e->seq);
	put_u32(w, e->tid);
	put_u32(w, e->op);
	put_u32(w, (uint32_t)e->fd);
	put_u32(w, (uint32_t)e->newfd);
	put_u32(w, e->kind);
	put_u32(w, e->flags);
	put_u64(w, e->object);
	return write_record(w, NULL, 0);
}

int bpfrr_trace_write_object(struct bpfrr_trace_writer *w, const struct bpfrr_rec_object *o)
{
	if (w->major >= 2)
		return write_object2(w, o);
	if (o->info_blob > w->stats.nr_blobs)
		return -EINVAL;
	begin_record(w, BPFRR_REC_OBJECT);
	put_u64(w, o->seq);
	put_u32(w, o->tid);
	put_u32(w, (uint32_t)o->fd);
	put_u32(w, o->kind);
	put_u32(w, o->flags);
	put_u32(w, (uint32_t)o->err);
	put_u32(w, o->id);
	put_u32(w, o->type);
	put_u32(w, o->key_size);
	put_u32(w, o->value_size);
	put_u32(w, o->max_entries);
	put_u32(w, o->map_flags);
	put_u32(w, o->btf_id);
	put_u32(w, o->btf_size);
	put_u32(w, o->prog_id);
	put_u32(w, o->attach_type);
	put_u32(w, o->target_obj_id);
	put_u32(w, o->target_btf_id);
	put_u32(w, 0);
	put_u64(w, o->target);
	put_bytes(w, o->tag, sizeof(o->tag));
	put_u64(w, o->info_blob);
	put_str(w, o->name);
	return write_record(w, NULL, 0);
}

int bpfrr_trace_write_note(struct bpfrr_trace_writer *w, const struct bpfrr_rec_note *n)
{
	if (w->major >= 2)
		return write_note2(w, n);
	begin_record(w, BPFRR_REC_NOTE);
	put_u64(w, n->seq);
	put_u32(w, n->tid);
	put_u32(w, n->level);
	put_str(w, n->text);
	return write_record(w, NULL, 0);
}

int bpfrr_trace_write_kernel(struct bpfrr_trace_writer *w, const struct bpfrr_rec_kernel *k)
{
	if (w->major >= 2)
		return write_kernel2(w, k);
	begin_record(w, BPFRR_REC_KERNEL);
	put_u32(w, k->flags);
	put_u32(w, k->btf_size);
	put_bytes(w, k->btf_sha256, sizeof(k->btf_sha256));
	put_str(w, k->release);
	put_str(w, k->version);
	put_str(w, k->machine);
	put_str(w, k->build_id);
	return write_record(w, NULL, 0);
}

int bpfrr_trace_write_symbol(struct bpfrr_trace_writer *w, const struct bpfrr_rec_symbol *s)
{
	if (w->major >= 2)
		return write_symbol2(w, s);
	begin_record(w, BPFRR_REC_SYMBOL);
	put_u64(w, s->seq);
	put_u32(w, s->kind);
	put_u32(w, s->flags & ~(uint32_t)BPFRR_SYM_F_VALUE_FDS);	/* 1.x has no place for the offsets */
	put_u64(w, s->value);
	put_u32(w, s->btf_kind);
	put_u32(w, s->btf_obj_id);
	put_u64(w, s->offset);
	put_str(w, s->name);
	put_str(w, s->module);
	return write_record(w, NULL, 0);
}

int bpfrr_trace_write_elf(struct bpfrr_trace_writer *w, const struct bpfrr_rec_elf *e)
{
	if (w->major >= 2)
		return write_elf2(w, e);
	if (!e->blob || e->blob > w->stats.nr_blobs)
		return -EINVAL;
	begin_record(w, BPFRR_REC_ELF);
	put_u64(w, e->seq);
	put_u32(w, e->tid);
	put_u32(w, e->flags);
	put_u64(w, e->offset);
	put_u64(w, e->blob);
	put_str(w, e->path);
	return write_record(w, NULL, 0);
}

int bpfrr_trace_write_record(struct bpfrr_trace_writer *w, const struct bpfrr_trace_record *rec)
{
	switch (rec->type) {
	case BPFRR_REC_BLOB:
		return bpfrr_trace_put_blob(w, rec->blob.data, rec->blob.len) == rec->blob.id ? 0 : -EINVAL;
	case BPFRR_REC_TASK: return bpfrr_trace_write_task(w, &rec->task);
	case BPFRR_REC_BPF_CALL: return bpfrr_trace_write_bpf_call(w, &rec->bpf_call);
	case BPFRR_REC_SYSCALL: return bpfrr_trace_write_syscall(w, &rec->syscall);
	case BPFRR_REC_FD_EVENT: return bpfrr_trace_write_fd_event(w, &rec->fd_event);
	case BPFRR_REC_OBJECT: return bpfrr_trace_write_object(w, &rec->object);
	case BPFRR_REC_NOTE: return bpfrr_trace_write_note(w, &rec->note);
	case BPFRR_REC_KERNEL: return bpfrr_trace_write_kernel(w, &rec->kernel);
	case BPFRR_REC_SYMBOL: return bpfrr_trace_write_symbol(w, &rec->symbol);
	case BPFRR_REC_ELF: return bpfrr_trace_write_elf(w, &rec->elf);
	case BPFRR_REC_END: return bpfrr_trace_close(w, rec->end.exit_status, rec->end.flags);
	default: return -EINVAL;
	}
}

int bpfrr_trace_notef(struct bpfrr_trace_writer *w, uint32_t level, uint64_t seq, uint32_t tid,
		      const char *fmt, ...)
{
	struct bpfrr_rec_note note = { .seq = seq, .tid = tid, .level = level };
	char *text;
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (err < 0)
		return -ENOMEM;
	note.text = text;
	err = bpfrr_trace_write_note(w, &note);
	free(text);
	return err;
}

void bpfrr_trace_writer_stats(const struct bpfrr_trace_writer *w, struct bpfrr_rec_end *stats)
{
	*stats = w->stats;
}

int bpfrr_trace_close(struct bpfrr_trace_writer *w, int32_t exit_status, uint32_t end_flags)
{
	struct timespec now;
	int err;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (w->major >= 2) {
		err = write_end2(w, exit_status, end_flags, (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec);
		goto written;
	}
	begin_record(w, BPFRR_REC_END);
	put_u32(w, (uint32_t)exit_status);
	put_u32(w, end_flags);
	put_u64(w, (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec);
	/* the END record itself is not counted */
	put_u64(w, w->stats.nr_records);
	put_u64(w, w->stats.nr_bpf_calls);
	put_u64(w, w->stats.nr_syscalls);
	put_u64(w, w->stats.nr_blobs);
	put_u64(w, w->stats.blob_bytes);
	put_u64(w, w->stats.dedup_hits);
	put_u64(w, w->stats.dedup_bytes);
	err = write_record(w, NULL, 0);
written:
	if (!err)
		err = flush_out(w);
	/* pipes and ttys cannot be synced; that is not a failure */
	if (!err && fsync(w->fd) && errno != EINVAL && errno != EROFS)
		err = -errno;
	if (close(w->fd) && !err)
		err = -errno;
	writer_free(w);
	return err;
}

void bpfrr_trace_abandon(struct bpfrr_trace_writer *w)
{
	flush_out(w);	/* what was recorded still reads, as a truncated trace */
	close(w->fd);
	writer_free(w);
}

int bpfrr_trace_copy(struct bpfrr_trace_reader *r, int fd, unsigned int major)
{
	struct bpfrr_trace_writer *w;
	struct bpfrr_trace_record rec;
	int err = 0;

	if (!bpfrr_trace_header(r)) {
		close(fd);
		return -ENODATA;
	}
	w = bpfrr_trace_create_fd_version(fd, bpfrr_trace_header(r), major);	/* closes fd on failure */
	if (!w)
		return -errno;
	bpfrr_trace_rewind(r);
	while (!err && bpfrr_trace_next(r, &rec) == BPFRR_TRACE_RECORD) {
		err = bpfrr_trace_write_record(w, &rec);
		if (rec.type == BPFRR_REC_END)
			return err;	/* the writer is closed */
	}
	bpfrr_trace_abandon(w);
	return err ? err : -ENODATA;
}

/* --- reader ---------------------------------------------------------------------- */

struct bpfrr_trace_reader {
	char *name;
	uint8_t *data;		/* the whole file; malloc'd, so 8-byte offsets are 8-aligned */
	size_t size;
	unsigned int flags;
	uint16_t major, minor;	/* version of the file */
	uint16_t own_minor;	/* the newest minor of that major this reader knows */

	bool have_header;
	struct bpfrr_trace_header hdr;
	const char **hdr_argv;

	size_t first;		/* offset of the first record after HEADER */
	size_t pos;		/* offset of the next record */
	int status;		/* sticky once not BPFRR_TRACE_RECORD */
	char *error;

	/* counts since the start, checked against END */
	uint64_t nr_records, nr_bpf_calls, nr_syscalls, nr_blobs_seen, blob_bytes;

	/* every blob ever read (kept across rewinds) */
	struct bpfrr_rec_blob *blobs;
	size_t nr_blobs, blobs_cap;

	/* per-record scratch */
	struct bpfrr_trace_region *regions;
	size_t regions_cap;
	const char **argv;
	size_t argv_cap;
	uint64_t *attr_copy, *attr_exit_copy;	/* u64 so the copies are 8-aligned */
	size_t attr_cap, attr_exit_cap;

	/* 2.x: the string table (pointers into data) and the time base */
	const char **strs;
	size_t nr_strs, strs_cap;
	size_t hdr_nr_strs;	/* the HEADER's strings: the table after a rewind */
	uint64_t start_ns;
	/* blobs stored as runs, copies or deflated, decoded (freed with the reader) */
	uint8_t **owned;
	size_t nr_owned, owned_cap;
	uint64_t expanded_bytes;	/* bytes of the copy-form (3.x) and deflate-form (4.x) blobs decoded */
	z_stream *zs;		/* 4.x: the deflate form's decompressor, made at its first blob */
};

/* Bounds-checked decoding of one payload. */
struct cursor {
	struct bpfrr_cursor cur;	/* first: on_short gets it back as a struct cursor */
	struct bpfrr_trace_reader *r;
	const char *rec_name;
};


static int set_error(struct bpfrr_trace_reader *r, int status, size_t offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int set_error(struct bpfrr_trace_reader *r, int status, size_t offset, const char *fmt, ...)
{
	char reason[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	free(r->error);
	if (asprintf(&r->error, "%s: offset %zu: %s", r->name, offset, reason) < 0)
		r->error = NULL;
	r->status = status;
	return status;
}

static bool cur_fail(struct cursor *c, const char *what, const char *why)
{
	if (!c->cur.failed)
		set_error(c->r, BPFRR_TRACE_CORRUPT, c->cur.base + c->cur.pos, "%s record: %s: %s",
			  c->rec_name, what, why);
	c->cur.failed = true;
	return false;
}

/* Out of memory while decoding: the reader stops with BPFRR_TRACE_NOMEM. */
static bool cur_nomem(struct cursor *c)
{
	set_error(c->r, BPFRR_TRACE_NOMEM, c->cur.base, "out of memory");
	c->cur.failed = true;
	return false;
}

/* The cursor ran out: the record ends inside a field. */
static void cursor_short(struct bpfrr_cursor *cur, size_t want, const char *what)
{
	(void)want;
	cur_fail((struct cursor *)cur, what, "record ends inside it");
}

#define get_u8(c, what) ((uint8_t)bpfrr_cursor_le(&(c)->cur, 1, what))
#define get_u16(c, what) ((uint16_t)bpfrr_cursor_le(&(c)->cur, 2, what))
#define get_u32(c, what) ((uint32_t)bpfrr_cursor_le(&(c)->cur, 4, what))
#define get_u64(c, what) bpfrr_cursor_le(&(c)->cur, 8, what)
#define get_bytes(c, n, what) ((const void *)bpfrr_cursor_bytes(&(c)->cur, n, what))
/* reserved fields: readers ignore their contents (see "versioning") */
#define skip(c, n, what) ((void)bpfrr_cursor_bytes(&(c)->cur, n, what))

/* A string: u32 n >= 1, n bytes ending in the only NUL.  Points into the file. */
static const char *get_str(struct cursor *c, const char *what)
{
	uint32_t n = get_u32(c, what);
	const char *s;

	if (c->cur.failed)
		return NULL;
	if (n == 0) {
		c->cur.pos -= 4;
		cur_fail(c, what, "string length 0 (must count its NUL)");
		return NULL;
	}
	s = get_bytes(c, n, what);
	if (!s)
		return NULL;
	if (s[n - 1] != '\0' || memchr(s, '\0', n - 1)) {
		c->cur.pos -= n;
		cur_fail(c, what, "string not terminated by its only NUL");
		return NULL;
	}
	return s;
}

/*
 * Grow a scratch array to hold at least n elements of size sz (doubling, so
 * arrays that only grow stay amortised O(1)).  Returns the new array, or NULL
 * with the reader's status set to NOMEM and the old array left alone.
 */
static void *grow(struct bpfrr_trace_reader *r, void *array, size_t *cap, size_t n, size_t sz)
{
	size_t want = *cap ? *cap : 8;
	void *p;

	if (n <= *cap)
		return array;
	while (want < n)
		want *= 2;
	p = want <= SIZE_MAX / sz ? realloc(array, want * sz) : NULL;
	if (!p) {
		set_error(r, BPFRR_TRACE_NOMEM, r->pos, "out of memory");
		return NULL;
	}
	*cap = want;
	return p;
}

/* u32 count, then count strings; the pointer array is reader scratch. */
static const char *const *get_strlist(struct cursor *c, uint32_t *countp, const char *what)
{
	struct bpfrr_trace_reader *r = c->r;
	uint32_t count = get_u32(c, what), i;
	const char **array;

	*countp = 0;
	if (c->cur.failed)
		return NULL;
	if (count > (c->cur.len - c->cur.pos) / STR_MIN) {
		c->cur.pos -= 4;
		cur_fail(c, what, "count larger than the record can hold");
		return NULL;
	}
	/* one more than needed so an empty list still gets a valid pointer */
	array = grow(r, r->argv, &r->argv_cap, (size_t)count + 1, sizeof(char *));
	if (!array) {
		c->cur.failed = true;
		return NULL;
	}
	r->argv = array;
	for (i = 0; i < count; i++) {
		array[i] = get_str(c, what);
		if (!array[i])
			return NULL;
	}
	array[count] = NULL;
	*countp = count;
	return array;
}

/* at: where the field starts in the payload (for the message) */
static bool check_blob_ref_at(struct cursor *c, uint64_t id, size_t at, const char *what)
{
	if (c->cur.failed)
		return false;
	if (id > c->r->nr_blobs) {
		c->cur.pos = at;
		cur_fail(c, what, "refers to a blob not stored before it");
		return false;
	}
	return true;
}

static bool check_blob_ref(struct cursor *c, uint64_t id, const char *what)
{
	return check_blob_ref_at(c, id, c->cur.pos - 8, what);
}

static const struct bpfrr_trace_region *get_regions(struct cursor *c, uint32_t *countp)
{
	struct bpfrr_trace_reader *r = c->r;
	uint32_t count = get_u32(c, "nr_regions"), i;
	struct bpfrr_trace_region *regions;

	*countp = 0;
	if (c->cur.failed)
		return NULL;
	if (count > (c->cur.len - c->cur.pos) / REGION_MIN) {
		c->cur.pos -= 4;
		cur_fail(c, "nr_regions", "count larger than the record can hold");
		return NULL;
	}
	regions = grow(r, r->regions, &r->regions_cap, (size_t)count + 1, sizeof(*regions));
	if (!regions) {
		c->cur.failed = true;
		return NULL;
	}
	r->regions = regions;
	for (i = 0; i < count; i++) {
		struct bpfrr_trace_region *reg = &r->regions[i];
		const struct bpfrr_rec_blob *blob;

		memset(reg, 0, sizeof(*reg));
		reg->phase = get_u8(c, "region.phase");
		reg->dir = get_u8(c, "region.dir");
		reg->content = get_u8(c, "region.content");
		skip(c, 1, "region.reserved");
		reg->flags = get_u16(c, "region.flags");
		skip(c, 2, "region.reserved");
		reg->err = (int32_t)get_u32(c, "region.err");
		reg->addr = get_u64(c, "region.addr");
		reg->len = get_u64(c, "region.len");
		reg->want_len = get_u64(c, "region.want_len");
		reg->blob = get_u64(c, "region.blob");
		if (!check_blob_ref(c, reg->blob, "region.blob"))
			return NULL;
		reg->path = get_str(c, "region.path");
		if (c->cur.failed)
			return NULL;
		if (reg->phase > 1)
			return cur_fail(c, reg->path, "phase is neither ENTRY (0) nor EXIT (1)"), NULL;
		blob = reg->blob ? &r->blobs[reg->blob - 1] : NULL;
		if (blob && blob->len > reg->len)
			return cur_fail(c, reg->path, "blob longer than the region"), NULL;
	}
	*countp = count;
	return r->regions;
}

/* Copy bytes to 8-aligned reader scratch (the ABI walkers read attr as structs). */
static uint64_t *get_aligned(struct cursor *c, uint32_t n, uint64_t *copy, size_t *cap, const char *what)
{
	const void *src = get_bytes(c, n, what);
	size_t words = ((size_t)n + 7) / 8 + 1;

	if (!src)
		return NULL;
	copy = grow(c->r, copy, cap, words, sizeof(uint64_t));
	if (!copy) {
		c->cur.failed = true;
		return NULL;
	}
	memset(copy, 0, words * 8);
	memcpy(copy, src, n);
	return copy;
}

static void decode_header(struct cursor *c, struct bpfrr_trace_header *h)
{
	struct bpfrr_trace_reader *r = c->r;
	const char *const *argv;

	h->flags = get_u32(c, "flags");
	h->arch = get_u32(c, "arch");
	h->nr_cpus = get_u32(c, "nr_cpus");
	h->page_size = get_u32(c, "page_size");
	h->start_realtime_ns = get_u64(c, "start_realtime_ns");
	h->start_monotonic_ns = get_u64(c, "start_monotonic_ns");
	h->recorder_pid = get_u32(c, "recorder_pid");
	h->tracee_pid = get_u32(c, "tracee_pid");
	h->arch_name = get_str(c, "arch_name");
	h->kernel_release = get_str(c, "kernel_release");
	h->kernel_version = get_str(c, "kernel_version");
	h->recorder_version = get_str(c, "recorder_version");
	argv = get_strlist(c, &h->argc, "argv");
	if (c->cur.failed)
		return;
	/* the header lives as long as the reader: keep its own argv array */
	r->hdr_argv = calloc((size_t)h->argc + 1, sizeof(char *));
	if (!r->hdr_argv) {
		cur_nomem(c);
		return;
	}
	memcpy(r->hdr_argv, argv, (size_t)h->argc * sizeof(char *));
	h->argv = r->hdr_argv;
}

static void decode_blob(struct cursor *c, struct bpfrr_rec_blob *b)
{
	struct bpfrr_trace_reader *r = c->r;
	uint8_t sha[BPFRR_SHA256_LEN];
	struct bpfrr_rec_blob *blobs;
	const void *sha_stored;

	b->id = get_u64(c, "id");
	b->len = get_u64(c, "len");
	sha_stored = get_bytes(c, sizeof(b->sha256), "sha256");
	skip(c, 4, "flags");
	if (c->cur.failed)
		return;
	memcpy(b->sha256, sha_stored, sizeof(b->sha256));
	if (b->len != c->cur.len - c->cur.pos) {
		c->cur.pos -= BLOB_PREFIX - 8;
		cur_fail(c, "len", "does not match the record's length");
		return;
	}
	b->data = c->cur.p + c->cur.pos;
	c->cur.pos += b->len;
	if (!(r->flags & BPFRR_TRACE_IGNORE_CHECKSUMS)) {
		bpfrr_sha256(b->data, b->len, sha);
		if (memcmp(sha, b->sha256, sizeof(sha))) {
			c->cur.pos = 16;
			cur_fail(c, "sha256", "does not match the data");
			return;
		}
	}
	if (b->id == 0) {
		c->cur.pos = 0;
		cur_fail(c, "id", "blob id 0 is invalid");
		return;
	}
	if (b->id <= r->nr_blobs) {
		/* seen before a rewind: must be the very same record */
		if (r->blobs[b->id - 1].data != b->data) {
			c->cur.pos = 0;
			cur_fail(c, "id", "blob id used twice");
		}
		return;
	}
	if (b->id != r->nr_blobs + 1) {
		c->cur.pos = 0;
		cur_fail(c, "id", "blob ids must count up from 1 without gaps");
		return;
	}
	blobs = grow(r, r->blobs, &r->blobs_cap, r->nr_blobs + 1, sizeof(*blobs));
	if (!blobs) {
		c->cur.failed = true;
		return;
	}
	r->blobs = blobs;
	r->blobs[r->nr_blobs++] = *b;
}

static void decode_task(struct cursor *c, struct bpfrr_rec_task *t)
{
	t->event = get_u32(c, "event");
	t->tid = get_u32(c, "tid");
	t->tgid = get_u32(c, "tgid");
	t->other_tid = get_u32(c, "other_tid");
	t->clone_flags = get_u64(c, "clone_flags");
	t->status = (int32_t)get_u32(c, "status");
	skip(c, 4, "reserved");
	t->time_ns = get_u64(c, "time_ns");
	t->path = get_str(c, "path");
	t->argv = get_strlist(c, &t->argc, "argv");
}

static void decode_bpf_call(struct cursor *c, struct bpfrr_rec_bpf_call *b)
{
	struct bpfrr_trace_reader *r = c->r;
	uint64_t *copy;

	b->seq = get_u64(c, "seq");
	b->tid = get_u32(c, "tid");
	b->cmd = get_u32(c, "cmd");
	b->attr_addr = get_u64(c, "attr_addr");
	b->attr_size = get_u32(c, "attr_size");
	b->flags = get_u32(c, "flags");
	b->ret = (int64_t)get_u64(c, "ret");
	b->t_enter_ns = get_u64(c, "t_enter_ns");
	b->t_exit_ns = get_u64(c, "t_exit_ns");
	b->attr_len = get_u32(c, "attr_len");
	if (!c->cur.failed && b->attr_len > b->attr_size) {
		c->cur.pos -= 4;
		cur_fail(c, "attr_len", "larger than attr_size");
		return;
	}
	copy = get_aligned(c, b->attr_len, r->attr_copy, &r->attr_cap, "attr");
	if (copy)
		r->attr_copy = copy;
	b->attr = copy;
	b->attr_exit_len = get_u32(c, "attr_exit_len");
	if (!c->cur.failed && b->attr_exit_len > b->attr_size) {
		c->cur.pos -= 4;
		cur_fail(c, "attr_exit_len", "larger than attr_size");
		return;
	}
	copy = get_aligned(c, b->attr_exit_len, r->attr_exit_copy, &r->attr_exit_cap, "attr_exit");
	if (copy)
		r->attr_exit_copy = copy;
	b->attr_exit = copy;
	b->regions = get_regions(c, &b->nr_regions);
}

static void decode_syscall(struct cursor *c, struct bpfrr_rec_syscall *s)
{
	int i;

	s->seq = get_u64(c, "seq");
	s->tid = get_u32(c, "tid");
	s->nr = get_u32(c, "nr");
	for (i = 0; i < 6; i++)
		s->args[i] = get_u64(c, "args");
	s->ret = (int64_t)get_u64(c, "ret");
	s->flags = get_u32(c, "flags");
	skip(c, 4, "reserved");
	s->t_enter_ns = get_u64(c, "t_enter_ns");
	s->t_exit_ns = get_u64(c, "t_exit_ns");
	s->name = get_str(c, "name");
	s->regions = get_regions(c, &s->nr_regions);
}

static void decode_fd_event(struct cursor *c, struct bpfrr_rec_fd_event *e)
{
	e->seq = get_u64(c, "seq");
	e->tid = get_u32(c, "tid");
	e->op = get_u32(c, "op");
	e->fd = (int32_t)get_u32(c, "fd");
	e->newfd = (int32_t)get_u32(c, "newfd");
	e->kind = get_u32(c, "kind");
	e->flags = get_u32(c, "flags");
	e->object = get_u64(c, "object");
}

static void decode_object(struct cursor *c, struct bpfrr_rec_object *o)
{
	const void *tag;

	o->seq = get_u64(c, "seq");
	o->tid = get_u32(c, "tid");
	o->fd = (int32_t)get_u32(c, "fd");
	o->kind = get_u32(c, "kind");
	o->flags = get_u32(c, "flags");
	o->err = (int32_t)get_u32(c, "err");
	o->id = get_u32(c, "id");
	o->type = get_u32(c, "type");
	o->key_size = get_u32(c, "key_size");
	o->value_size = get_u32(c, "value_size");
	o->max_entries = get_u32(c, "max_entries");
	o->map_flags = get_u32(c, "map_flags");
	o->btf_id = get_u32(c, "btf_id");
	o->btf_size = get_u32(c, "btf_size");
	o->prog_id = get_u32(c, "prog_id");
	o->attach_type = get_u32(c, "attach_type");
	o->target_obj_id = get_u32(c, "target_obj_id");
	o->target_btf_id = get_u32(c, "target_btf_id");
	skip(c, 4, "reserved");
	o->target = get_u64(c, "target");
	tag = get_bytes(c, sizeof(o->tag), "tag");
	if (tag)
		memcpy(o->tag, tag, sizeof(o->tag));
	o->info_blob = get_u64(c, "info_blob");
	check_blob_ref(c, o->info_blob, "info_blob");
	o->name = get_str(c, "name");
}

static void decode_note(struct cursor *c, struct bpfrr_rec_note *n)
{
	n->seq = get_u64(c, "seq");
	n->tid = get_u32(c, "tid");
	n->level = get_u32(c, "level");
	n->text = get_str(c, "text");
}

static void decode_kernel(struct cursor *c, struct bpfrr_rec_kernel *k)
{
	const void *sum;

	k->flags = get_u32(c, "flags");
	k->btf_size = get_u32(c, "btf_size");
	sum = get_bytes(c, sizeof(k->btf_sha256), "btf_sha256");
	if (sum)
		memcpy(k->btf_sha256, sum, sizeof(k->btf_sha256));
	k->release = get_str(c, "release");
	k->version = get_str(c, "version");
	k->machine = get_str(c, "machine");
	k->build_id = get_str(c, "build_id");
}

static void decode_symbol(struct cursor *c, struct bpfrr_rec_symbol *s)
{
	s->seq = get_u64(c, "seq");
	s->kind = get_u32(c, "kind");
	s->flags = get_u32(c, "flags");
	s->value = get_u64(c, "value");
	s->btf_kind = get_u32(c, "btf_kind");
	s->btf_obj_id = get_u32(c, "btf_obj_id");
	s->offset = get_u64(c, "offset");
	s->name = get_str(c, "name");
	s->module = get_str(c, "module");
	s->nr_value_fds = 0;	/* 2.1 only */
}

static void decode_elf(struct cursor *c, struct bpfrr_rec_elf *e)
{
	e->seq = get_u64(c, "seq");
	e->tid = get_u32(c, "tid");
	e->flags = get_u32(c, "flags");
	e->offset = get_u64(c, "offset");
	e->blob = get_u64(c, "blob");
	check_blob_ref(c, e->blob, "blob");
	if (!c->cur.failed && !e->blob)
		cur_fail(c, "blob", "an ELF record without its bytes");
	e->path = get_str(c, "path");
}

static void decode_end(struct cursor *c, struct bpfrr_rec_end *e)
{
	struct bpfrr_trace_reader *r = c->r;
	size_t at;

	e->exit_status = (int32_t)get_u32(c, "exit_status");
	e->flags = get_u32(c, "flags");
	e->time_ns = get_u64(c, "time_ns");
	at = c->cur.pos;
	e->nr_records = get_u64(c, "nr_records");
	e->nr_bpf_calls = get_u64(c, "nr_bpf_calls");
	e->nr_syscalls = get_u64(c, "nr_syscalls");
	e->nr_blobs = get_u64(c, "nr_blobs");
	e->blob_bytes = get_u64(c, "blob_bytes");
	e->dedup_hits = get_u64(c, "dedup_hits");
	e->dedup_bytes = get_u64(c, "dedup_bytes");
	if (c->cur.failed)
		return;
	/* point an error at the field that disagrees */
	if (e->nr_records != r->nr_records)
		c->cur.pos = at;
	else if (e->nr_bpf_calls != r->nr_bpf_calls)
		c->cur.pos = at + 8;
	else if (e->nr_syscalls != r->nr_syscalls)
		c->cur.pos = at + 16;
	else if (e->nr_blobs != r->nr_blobs_seen)
		c->cur.pos = at + 24;
	else if (e->blob_bytes != r->blob_bytes)
		c->cur.pos = at + 32;
	else
		return;
	cur_fail(c, "counts", "do not match the records in the file (a record lost or added?)");
}

/* --- the 2.x decoders ------------------------------------------------------------ */

/* A malformed varint (cursor at its start). */
static void cursor_bad(struct bpfrr_cursor *cur, const char *what, const char *why)
{
	cur_fail((struct cursor *)cur, what, why);
}

#define get_var(c, what) bpfrr_cursor_varint(&(c)->cur, what)
#define get_zz(c, what) bpfrr_cursor_zigzag(&(c)->cur, what)

static uint32_t get_var32(struct cursor *c, const char *what)
{
	size_t at = c->cur.pos;
	uint64_t v = get_var(c, what);

	if (!c->cur.failed && v > UINT32_MAX) {
		c->cur.pos = at;
		cur_fail(c, what, "number larger than 32 bits");
		return 0;
	}
	return (uint32_t)v;
}

static int32_t get_zz32(struct cursor *c, const char *what)
{
	size_t at = c->cur.pos;
	int64_t v = get_zz(c, what);

	if (!c->cur.failed && (v > INT32_MAX || v < INT32_MIN)) {
		c->cur.pos = at;
		cur_fail(c, what, "number larger than 32 bits");
		return 0;
	}
	return (int32_t)v;
}

/* A time: relative to the HEADER's start_monotonic_ns (modulo 2^64). */
static uint64_t get_time(struct cursor *c, const char *what)
{
	return c->r->start_ns + (uint64_t)get_zz(c, what);
}

/* A string: the index of one written before, or 0 and the string inline (it
 * joins the table).  Points into the file. */
static const char *get_str2(struct cursor *c, const char *what)
{
	struct bpfrr_trace_reader *r = c->r;
	size_t at = c->cur.pos;
	uint64_t ref = get_var(c, what), n;
	const char *s, **strs;

	if (c->cur.failed)
		return NULL;
	if (ref) {
		if (ref > r->nr_strs) {
			c->cur.pos = at;
			cur_fail(c, what, "refers to a string not written before it");
			return NULL;
		}
		return r->strs[ref - 1];
	}
	at = c->cur.pos;
	n = get_var(c, what);
	if (c->cur.failed)
		return NULL;
	if (n == 0) {
		c->cur.pos = at;
		cur_fail(c, what, "string length 0 (must count its NUL)");
		return NULL;
	}
	if (!bpfrr_cursor_need(&c->cur, n, what))
		return NULL;
	s = get_bytes(c, (size_t)n, what);
	if (s[n - 1] != '\0' || memchr(s, '\0', n - 1)) {
		c->cur.pos -= n;
		cur_fail(c, what, "string not terminated by its only NUL");
		return NULL;
	}
	strs = grow(r, r->strs, &r->strs_cap, r->nr_strs + 1, sizeof(*strs));
	if (!strs) {
		c->cur.failed = true;
		return NULL;
	}
	r->strs = strs;
	r->strs[r->nr_strs++] = s;
	return s;
}

/* varint count, then count strings; the pointer array is reader scratch. */
static const char *const *get_strlist2(struct cursor *c, uint32_t *countp, const char *what)
{
	struct bpfrr_trace_reader *r = c->r;
	size_t at = c->cur.pos;
	uint64_t count = get_var(c, what), i;
	const char **array;

	*countp = 0;
	if (c->cur.failed)
		return NULL;
	if (count > bpfrr_cursor_left(&c->cur)) {	/* a string takes a byte at least */
		c->cur.pos = at;
		cur_fail(c, what, "count larger than the record can hold");
		return NULL;
	}
	array = grow(r, r->argv, &r->argv_cap, (size_t)count + 1, sizeof(char *));
	if (!array) {
		c->cur.failed = true;
		return NULL;
	}
	r->argv = array;
	for (i = 0; i < count; i++) {
		array[i] = get_str2(c, what);
		if (!array[i])
			return NULL;
	}
	array[count] = NULL;
	*countp = (uint32_t)count;
	return array;
}

/*
 * Runs of bytes into dst[0..n), which the caller zeroed: varint count, then
 * per run varint skip, varint len (>= 1), len bytes, in order and within n.
 */
static bool get_runs(struct cursor *c, uint8_t *dst, size_t n, const char *what)
{
	size_t at = c->cur.pos, pos = 0;
	uint64_t count = get_var(c, what), i;

	if (c->cur.failed)
		return false;
	if (count > bpfrr_cursor_left(&c->cur) / 3) {	/* a run takes 3 bytes at least */
		c->cur.pos = at;
		return cur_fail(c, what, "count of runs larger than the record can hold");
	}
	for (i = 0; i < count; i++) {
		uint64_t skip, len;
		const uint8_t *bytes;

		at = c->cur.pos;
		skip = get_var(c, what);
		len = get_var(c, what);
		if (c->cur.failed)
			return false;
		if (len == 0 || skip > n - pos || len > n - pos - skip) {
			c->cur.pos = at;
			return cur_fail(c, what, len ? "run past the end of the bytes" : "empty run");
		}
		bytes = get_bytes(c, (size_t)len, what);
		if (!bytes)
			return false;
		memcpy(dst + pos + skip, bytes, (size_t)len);
		pos += (size_t)(skip + len);
	}
	return true;
}

/* n bytes as runs, into 8-aligned reader scratch *copy (the ABI walkers read attr as structs). */
static uint64_t *get_runs_aligned(struct cursor *c, uint32_t n, uint64_t **copy, size_t *cap, const char *what)
{
	size_t words = ((size_t)n + 7) / 8 + 1;
	uint64_t *p = grow(c->r, *copy, cap, words, sizeof(uint64_t));

	if (!p) {
		c->cur.failed = true;
		return NULL;
	}
	*copy = p;
	memset(p, 0, words * 8);
	return get_runs(c, (uint8_t *)p, n, what) ? p : NULL;
}

/* Smallest encoded region: every field one byte. */
#define REGION2_MIN	9

static const struct bpfrr_trace_region *get_regions2(struct cursor *c, uint32_t *countp)
{
	struct bpfrr_trace_reader *r = c->r;
	size_t at = c->cur.pos;
	uint64_t count = get_var(c, "nr_regions"), i;
	struct bpfrr_trace_region *regions;

	*countp = 0;
	if (c->cur.failed)
		return NULL;
	if (count > bpfrr_cursor_left(&c->cur) / REGION2_MIN) {
		c->cur.pos = at;
		cur_fail(c, "nr_regions", "count larger than the record can hold");
		return NULL;
	}
	regions = grow(r, r->regions, &r->regions_cap, (size_t)count + 1, sizeof(*regions));
	if (!regions) {
		c->cur.failed = true;
		return NULL;
	}
	r->regions = regions;
	for (i = 0; i < count; i++) {
		struct bpfrr_trace_region *reg = &r->regions[i];
		const struct bpfrr_rec_blob *blob;
		uint64_t phase_dir, content, flags;
		size_t field;

		memset(reg, 0, sizeof(*reg));
		field = c->cur.pos;
		phase_dir = get_var(c, "region.phase_dir");
		content = get_var(c, "region.content");
		flags = get_var(c, "region.flags");
		if (!c->cur.failed && (phase_dir >> 1 > UINT8_MAX || content > UINT8_MAX || flags > UINT16_MAX)) {
			c->cur.pos = field;
			cur_fail(c, "region", "dir, content or flags out of range");
		}
		reg->phase = (uint8_t)(phase_dir & 1);
		reg->dir = (uint8_t)(phase_dir >> 1);
		reg->content = (uint8_t)content;
		reg->flags = (uint16_t)flags;
		reg->err = get_zz32(c, "region.err");
		reg->addr = get_var(c, "region.addr");
		reg->len = get_var(c, "region.len");
		reg->want_len = reg->len + (uint64_t)get_zz(c, "region.want_len");
		field = c->cur.pos;
		reg->blob = get_var(c, "region.blob");
		if (!check_blob_ref_at(c, reg->blob, field, "region.blob"))
			return NULL;
		reg->path = get_str2(c, "region.path");
		if (c->cur.failed)
			return NULL;
		blob = reg->blob ? &r->blobs[reg->blob - 1] : NULL;
		if (blob && blob->len > reg->len)
			return cur_fail(c, reg->path, "blob longer than the region"), NULL;
	}
	*countp = (uint32_t)count;
	return r->regions;
}

static void decode_header2(struct cursor *c, struct bpfrr_trace_header *h)
{
	struct bpfrr_trace_reader *r = c->r;
	const char *const *argv;

	h->flags = get_var32(c, "flags");
	h->arch = get_var32(c, "arch");
	h->nr_cpus = get_var32(c, "nr_cpus");
	h->page_size = get_var32(c, "page_size");
	h->start_realtime_ns = get_var(c, "start_realtime_ns");
	h->start_monotonic_ns = get_var(c, "start_monotonic_ns");
	h->recorder_pid = get_var32(c, "recorder_pid");
	h->tracee_pid = get_var32(c, "tracee_pid");
	h->arch_name = get_str2(c, "arch_name");
	h->kernel_release = get_str2(c, "kernel_release");
	h->kernel_version = get_str2(c, "kernel_version");
	h->recorder_version = get_str2(c, "recorder_version");
	argv = get_strlist2(c, &h->argc, "argv");
	if (c->cur.failed)
		return;
	r->start_ns = h->start_monotonic_ns;
	r->hdr_argv = calloc((size_t)h->argc + 1, sizeof(char *));
	if (!r->hdr_argv) {
		cur_nomem(c);
		return;
	}
	memcpy(r->hdr_argv, argv, (size_t)h->argc * sizeof(char *));
	h->argv = r->hdr_argv;
}

/* A blob's decoded bytes, freed with the reader; NULL (error set) without memory. */
static uint8_t *owned_bytes(struct cursor *c, uint64_t len)
{
	struct bpfrr_trace_reader *r = c->r;
	uint8_t *data, **owned;

	owned = grow(r, r->owned, &r->owned_cap, r->nr_owned + 1, sizeof(*owned));
	if (!owned) {
		c->cur.failed = true;
		return NULL;
	}
	r->owned = owned;
	data = calloc(1, len ? (size_t)len : 1);
	if (!data) {
		cur_nomem(c);
		return NULL;
	}
	r->owned[r->nr_owned++] = data;
	return data;
}

/*
 * The start of a copy-form or deflate-form blob: its len, checked against
 * the bound both forms share, and len bytes of the reader's to make it in.
 * 1: seen before a rewind (*b is the blob decoded then, the record is
 * read); 0: go on; -1: failed (too_much is the reason when len is over).
 */
static int expanded_blob_start(struct cursor *c, struct bpfrr_rec_blob *b, const char *too_much,
			       uint64_t *len, uint8_t **data)
{
	struct bpfrr_trace_reader *r = c->r;

	*len = get_var(c, "len");
	if (c->cur.failed)
		return -1;
	if (b->id <= r->nr_blobs) {
		/* seen before a rewind: decoded then */
		*b = r->blobs[b->id - 1];
		c->cur.pos = c->cur.len;
		return 1;
	}
	if (*len > BPFRR_TRACE_MAX_PAYLOAD ||
	    r->expanded_bytes + *len > (uint64_t)BLOB_COPIES_EXPAND * (c->cur.base + c->cur.len)) {
		c->cur.pos = 1;
		cur_fail(c, "len", too_much);
		return -1;
	}
	*data = owned_bytes(c, *len);
	return *data ? 0 : -1;
}

/* The end of a copy-form or deflate-form blob: len bytes made in data. */
static bool expanded_blob_done(struct cursor *c, struct bpfrr_rec_blob *b, uint64_t len, uint8_t *data)
{
	c->r->expanded_bytes += len;
	b->len = len;
	b->data = data;
	return true;
}

/*
 * BLOB form 17 (3.x): varint len, then until len bytes are made: varint
 * lit_len and that many bytes; then, if bytes are missing still, varint
 * copy_len (>= 1), varint back, varint src_off: copy_len bytes of blob
 * id - back from src_off.  All copy-form blobs up to this record's end hold
 * at most BLOB_COPIES_EXPAND times the file's bytes to there, so memory and
 * time stay linear in the file's size.
 */
static bool decode_copies(struct cursor *c, struct bpfrr_rec_blob *b)
{
	struct bpfrr_trace_reader *r = c->r;
	uint64_t len, made = 0;
	size_t at, after;
	uint8_t *data = NULL;
	int start = expanded_blob_start(c, b, "copies hold more than the format allows for the file", &len, &data);

	if (start)
		return start > 0;
	for (;;) {
		uint64_t lit, copy, back, off;
		const struct bpfrr_rec_blob *src;
		const uint8_t *bytes;

		at = c->cur.pos;
		lit = get_var(c, "literal");
		if (c->cur.failed)
			return false;
		if (lit > len - made) {
			c->cur.pos = at;
			return cur_fail(c, "literal", "past the end of the blob");
		}
		bytes = get_bytes(c, (size_t)lit, "literal");
		if (!bytes)
			return false;
		memcpy(data + made, bytes, (size_t)lit);
		made += lit;
		if (made == len)
			break;
		at = c->cur.pos;
		copy = get_var(c, "copy");
		back = get_var(c, "copy");
		off = get_var(c, "copy");
		if (c->cur.failed)
			return false;
		after = c->cur.pos;
		c->cur.pos = at;	/* errors point at the copy */
		if (!copy || copy > len - made)
			return cur_fail(c, "copy", copy ? "past the end of the blob" : "empty copy");
		if (!back || back >= b->id)
			return cur_fail(c, "copy", "names no earlier blob");
		src = &r->blobs[b->id - back - 1];
		if (off > src->len || copy > src->len - off)
			return cur_fail(c, "copy", "past the end of the blob it copies");
		c->cur.pos = after;
		memcpy(data + made, src->data + off, (size_t)copy);
		made += copy;
		if (made == len)
			break;
	}
	return expanded_blob_done(c, b, len, data);
}

/*
 * BLOB form 18 (4.x): varint len, then the rest of the record is one raw
 * deflate stream of exactly len bytes.  The bound of the copy form counts
 * these bytes too: inflating does work linear in what it makes, and all of
 * it is at most BLOB_COPIES_EXPAND times the file's bytes to this record.
 */
static bool decode_deflate(struct cursor *c, struct bpfrr_rec_blob *b)
{
	struct bpfrr_trace_reader *r = c->r;
	uint64_t len;
	uint8_t *data = NULL;
	size_t at;
	int zret, start;

	start = expanded_blob_start(c, b, "deflated bytes hold more than the format allows for the file", &len, &data);
	if (start)
		return start > 0;
	at = c->cur.pos;
	if (!r->zs) {
		r->zs = calloc(1, sizeof(*r->zs));
		if (!r->zs || inflateInit2(r->zs, -15) != Z_OK) {
			free(r->zs);
			r->zs = NULL;
			return cur_nomem(c);
		}
	} else if (inflateReset(r->zs) != Z_OK) {
		return cur_fail(c, "data", "the decompressor could not be reset");
	}
	r->zs->next_in = (Bytef *)(c->cur.p + at);
	r->zs->avail_in = (uInt)(c->cur.len - at);
	r->zs->next_out = data;
	r->zs->avail_out = (uInt)len;
	zret = inflate(r->zs, Z_FINISH);
	if (zret == Z_MEM_ERROR)
		return cur_nomem(c);
	if (zret != Z_STREAM_END) {
		/* Z_BUF_ERROR: out of input (the record ended) or out of room (len made) */
		return cur_fail(c, "data", zret != Z_BUF_ERROR ? "not a valid deflate stream" :
				!r->zs->avail_in ? "deflate stream ends before its end block" :
				"deflate stream makes more bytes than len");
	}
	if (r->zs->avail_out)
		return cur_fail(c, "data", "deflate stream makes fewer bytes than len");
	if (r->zs->avail_in) {
		c->cur.pos = c->cur.len - r->zs->avail_in;
		return cur_fail(c, "data", "bytes after the end of the deflate stream");
	}
	c->cur.pos = c->cur.len;
	return expanded_blob_done(c, b, len, data);
}

/*
 * BLOB: u8 form; 0..15: that many zero bytes, then the data at a file offset
 * that is a multiple of 8; 16: varint len, the data as runs (copied out,
 * at most BLOB_RUNS_EXPAND times the record's length).
 */
static void decode_blob2(struct cursor *c, struct bpfrr_rec_blob *b)
{
	struct bpfrr_trace_reader *r = c->r;
	struct bpfrr_rec_blob *blobs;
	const uint8_t *pad;
	uint8_t form;
	size_t i;

	b->id = r->nr_blobs_seen + 1;
	form = get_u8(c, "form");
	if (c->cur.failed)
		return;
	if (form == BLOB_FORM_RUNS) {
		uint64_t len = get_var(c, "len");
		uint8_t *data;

		if (c->cur.failed)
			return;
		if (len > (uint64_t)BLOB_RUNS_EXPAND * c->cur.len) {
			c->cur.pos = 1;
			cur_fail(c, "len", "runs longer than the format allows for the record");
			return;
		}
		if (b->id <= r->nr_blobs) {
			/* seen before a rewind: decoded then */
			*b = r->blobs[b->id - 1];
			c->cur.pos = c->cur.len;
			return;
		}
		data = owned_bytes(c, len);
		if (!data)
			return;
		if (!get_runs(c, data, (size_t)len, "data"))
			return;
		b->len = len;
		b->data = data;
	} else if ((form == BLOB_FORM_COPIES && r->major >= 3) || (form == BLOB_FORM_DEFLATE && r->major >= 4)) {
		if (!(form == BLOB_FORM_COPIES ? decode_copies(c, b) : decode_deflate(c, b)))
			return;
		if (b->id <= r->nr_blobs)
			return;		/* seen before a rewind: decoded then */
	} else {
		pad = get_bytes(c, form, "pad");
		if (c->cur.failed)
			return;
		if (form >= 16) {
			c->cur.pos = 0;
			cur_fail(c, "form", r->major >= 4 ? "neither padding (0 to 15), runs (16), copies (17) nor deflate (18)" :
					    r->major >= 3 ? "neither padding (0 to 15), runs (16) nor copies (17)"
							  : "neither padding (0 to 15) nor runs (16)");
			return;
		}
		for (i = 0; i < form; i++) {
			if (pad[i]) {
				c->cur.pos = 1 + i;
				cur_fail(c, "pad", "non-zero padding");
				return;
			}
		}
		if ((c->cur.base + c->cur.pos) % 8) {
			cur_fail(c, "data", "not at a file offset that is a multiple of 8");
			return;
		}
		b->len = bpfrr_cursor_left(&c->cur);
		b->data = c->cur.p + c->cur.pos;
		c->cur.pos = c->cur.len;
	}
	/* the CRC protects the bytes; the digest is for the readers' users (dump) */
	bpfrr_sha256(b->data, b->len, b->sha256);
	if (b->id <= r->nr_blobs)
		return;		/* seen before a rewind: the same record */
	blobs = grow(r, r->blobs, &r->blobs_cap, r->nr_blobs + 1, sizeof(*blobs));
	if (!blobs) {
		c->cur.failed = true;
		return;
	}
	r->blobs = blobs;
	r->blobs[r->nr_blobs++] = *b;
}

static void decode_task2(struct cursor *c, struct bpfrr_rec_task *t)
{
	t->event = get_var32(c, "event");
	t->tid = get_var32(c, "tid");
	t->tgid = get_var32(c, "tgid");
	t->other_tid = get_var32(c, "other_tid");
	t->clone_flags = get_var(c, "clone_flags");
	t->status = get_zz32(c, "status");
	t->time_ns = get_time(c, "time_ns");
	t->path = get_str2(c, "path");
	t->argv = get_strlist2(c, &t->argc, "argv");
}

/* attr_len or attr_exit_len: at most attr_size and BPFRR_TRACE_ATTR_MAX */
static uint32_t get_attr_len(struct cursor *c, uint32_t attr_size, const char *what)
{
	size_t at = c->cur.pos;
	uint32_t n = get_var32(c, what);

	if (c->cur.failed)
		return 0;
	if (n > attr_size || n > BPFRR_TRACE_ATTR_MAX) {
		c->cur.pos = at;
		cur_fail(c, what, n > attr_size ? "larger than attr_size" : "larger than the format allows");
		return 0;
	}
	return n;
}

static void decode_bpf_call2(struct cursor *c, struct bpfrr_rec_bpf_call *b)
{
	struct bpfrr_trace_reader *r = c->r;
	uint8_t *exit;
	uint64_t *copy;
	uint32_t i;

	b->seq = get_var(c, "seq");
	b->tid = get_var32(c, "tid");
	b->cmd = get_var32(c, "cmd");
	b->attr_addr = get_var(c, "attr_addr");
	b->attr_size = get_var32(c, "attr_size");
	b->flags = get_var32(c, "flags");
	b->ret = get_zz(c, "ret");
	b->t_enter_ns = get_time(c, "t_enter_ns");
	b->t_exit_ns = b->t_enter_ns + (uint64_t)get_zz(c, "t_exit_ns");
	b->attr_len = get_attr_len(c, b->attr_size, "attr_len");
	if (c->cur.failed)
		return;
	copy = get_runs_aligned(c, b->attr_len, &r->attr_copy, &r->attr_cap, "attr");
	if (!copy)
		return;
	b->attr = copy;
	b->attr_exit_len = get_attr_len(c, b->attr_size, "attr_exit_len");
	if (c->cur.failed)
		return;
	copy = get_runs_aligned(c, b->attr_exit_len, &r->attr_exit_copy, &r->attr_exit_cap, "attr_exit");
	if (!copy)
		return;
	/* stored as its difference from attr */
	exit = (uint8_t *)copy;
	for (i = 0; i < b->attr_exit_len && i < b->attr_len; i++)
		exit[i] ^= ((const uint8_t *)b->attr)[i];
	b->attr_exit = copy;
	b->regions = get_regions2(c, &b->nr_regions);
}

static void decode_syscall2(struct cursor *c, struct bpfrr_rec_syscall *s)
{
	int i;

	s->seq = get_var(c, "seq");
	s->tid = get_var32(c, "tid");
	s->nr = get_var32(c, "nr");
	for (i = 0; i < 6; i++)
		s->args[i] = (uint64_t)get_zz(c, "args");
	s->ret = get_zz(c, "ret");
	s->flags = get_var32(c, "flags");
	s->t_enter_ns = get_time(c, "t_enter_ns");
	s->t_exit_ns = s->t_enter_ns + (uint64_t)get_zz(c, "t_exit_ns");
	s->name = get_str2(c, "name");
	s->regions = get_regions2(c, &s->nr_regions);
}

static void decode_fd_event2(struct cursor *c, struct bpfrr_rec_fd_event *e)
{
	e->seq = get_var(c, "seq");
	e->tid = get_var32(c, "tid");
	e->op = get_var32(c, "op");
	e->fd = get_zz32(c, "fd");
	e->newfd = get_zz32(c, "newfd");
	e->kind = get_var32(c, "kind");
	e->flags = get_var32(c, "flags");
	e->object = get_var(c, "object");
}

static void decode_object2(struct cursor *c, struct bpfrr_rec_object *o)
{
	static const char *const names[NR_OBJ_FIELDS] = {
		"id", "type", "key_size", "value_size", "max_entries", "map_flags", "btf_id", "btf_size",
		"prog_id", "attach_type", "target_obj_id", "target_btf_id", "target", "tag", "info_blob",
	};
	uint64_t v[NR_OBJ_FIELDS] = { 0 }, mask;
	size_t at;
	int i;

	o->seq = get_var(c, "seq");
	o->tid = get_var32(c, "tid");
	o->fd = get_zz32(c, "fd");
	o->kind = get_var32(c, "kind");
	o->flags = get_var32(c, "flags");
	o->err = get_zz32(c, "err");
	at = c->cur.pos;
	mask = get_var(c, "fields");
	if (c->cur.failed)
		return;
	if (mask >> NR_OBJ_FIELDS) {
		c->cur.pos = at;
		cur_fail(c, "fields", "names a field this format does not have");
		return;
	}
	for (i = 0; i < NR_OBJ_FIELDS; i++) {
		if (!(mask & (1u << i)))
			continue;
		at = c->cur.pos;
		if (i == OBJ_TAG) {
			const void *tag = get_bytes(c, sizeof(o->tag), "tag");

			if (tag)
				memcpy(o->tag, tag, sizeof(o->tag));
			continue;
		}
		v[i] = i == OBJ_TARGET || i == OBJ_INFO_BLOB ? get_var(c, names[i]) : get_var32(c, names[i]);
		if (i == OBJ_INFO_BLOB && !check_blob_ref_at(c, v[i], at, names[i]))
			return;
	}
	o->id = (uint32_t)v[OBJ_ID];
	o->type = (uint32_t)v[OBJ_TYPE];
	o->key_size = (uint32_t)v[OBJ_KEY_SIZE];
	o->value_size = (uint32_t)v[OBJ_VALUE_SIZE];
	o->max_entries = (uint32_t)v[OBJ_MAX_ENTRIES];
	o->map_flags = (uint32_t)v[OBJ_MAP_FLAGS];
	o->btf_id = (uint32_t)v[OBJ_BTF_ID];
	o->btf_size = (uint32_t)v[OBJ_BTF_SIZE];
	o->prog_id = (uint32_t)v[OBJ_PROG_ID];
	o->attach_type = (uint32_t)v[OBJ_ATTACH_TYPE];
	o->target_obj_id = (uint32_t)v[OBJ_TARGET_OBJ_ID];
	o->target_btf_id = (uint32_t)v[OBJ_TARGET_BTF_ID];
	o->target = v[OBJ_TARGET];
	o->info_blob = v[OBJ_INFO_BLOB];
	o->name = get_str2(c, "name");
}

static void decode_note2(struct cursor *c, struct bpfrr_rec_note *n)
{
	n->seq = get_var(c, "seq");
	n->tid = get_var32(c, "tid");
	n->level = get_var32(c, "level");
	n->text = get_str2(c, "text");
}

static void decode_kernel2(struct cursor *c, struct bpfrr_rec_kernel *k)
{
	const void *sum;

	k->flags = get_var32(c, "flags");
	k->btf_size = get_var32(c, "btf_size");
	sum = get_bytes(c, sizeof(k->btf_sha256), "btf_sha256");
	if (sum)
		memcpy(k->btf_sha256, sum, sizeof(k->btf_sha256));
	k->release = get_str2(c, "release");
	k->version = get_str2(c, "version");
	k->machine = get_str2(c, "machine");
	k->build_id = get_str2(c, "build_id");
}

static void decode_symbol2(struct cursor *c, struct bpfrr_rec_symbol *s)
{
	s->seq = get_var(c, "seq");
	s->kind = get_var32(c, "kind");
	s->flags = get_var32(c, "flags");
	s->value = (uint64_t)get_zz(c, "value");
	s->btf_kind = get_var32(c, "btf_kind");
	s->btf_obj_id = get_var32(c, "btf_obj_id");
	s->offset = (uint64_t)get_zz(c, "offset");
	s->name = get_str2(c, "name");
	s->module = get_str2(c, "module");
	s->nr_value_fds = 0;
	/* 2.1: a 2.0 record ends here */
	if (c->cur.failed || c->cur.pos == c->cur.len)
		return;
	s->nr_value_fds = get_var32(c, "nr_value_fds");
	if (s->nr_value_fds > BPFRR_SYM_VALUE_FDS_MAX) {
		cur_fail(c, "nr_value_fds", "more struct_ops function pointers than a reader takes");
		s->nr_value_fds = 0;
		return;
	}
	for (uint32_t i = 0; i < s->nr_value_fds && !c->cur.failed; i++)
		s->value_fds[i] = get_var32(c, "value_fds");
}

static void decode_elf2(struct cursor *c, struct bpfrr_rec_elf *e)
{
	size_t at;

	e->seq = get_var(c, "seq");
	e->tid = get_var32(c, "tid");
	e->flags = get_var32(c, "flags");
	e->offset = get_var(c, "offset");
	at = c->cur.pos;
	e->blob = get_var(c, "blob");
	if (!check_blob_ref_at(c, e->blob, at, "blob"))
		return;
	if (!e->blob) {
		c->cur.pos = at;
		cur_fail(c, "blob", "an ELF record without its bytes");
		return;
	}
	e->path = get_str2(c, "path");
}

static void decode_end2(struct cursor *c, struct bpfrr_rec_end *e)
{
	struct bpfrr_trace_reader *r = c->r;
	size_t at[5];

	e->exit_status = get_zz32(c, "exit_status");
	e->flags = get_var32(c, "flags");
	e->time_ns = get_time(c, "time_ns");
	at[0] = c->cur.pos;
	e->nr_records = get_var(c, "nr_records");
	at[1] = c->cur.pos;
	e->nr_bpf_calls = get_var(c, "nr_bpf_calls");
	at[2] = c->cur.pos;
	e->nr_syscalls = get_var(c, "nr_syscalls");
	at[3] = c->cur.pos;
	e->nr_blobs = get_var(c, "nr_blobs");
	at[4] = c->cur.pos;
	e->blob_bytes = get_var(c, "blob_bytes");
	e->dedup_hits = get_var(c, "dedup_hits");
	e->dedup_bytes = get_var(c, "dedup_bytes");
	if (c->cur.failed)
		return;
	if (e->nr_records != r->nr_records)
		c->cur.pos = at[0];
	else if (e->nr_bpf_calls != r->nr_bpf_calls)
		c->cur.pos = at[1];
	else if (e->nr_syscalls != r->nr_syscalls)
		c->cur.pos = at[2];
	else if (e->nr_blobs != r->nr_blobs_seen)
		c->cur.pos = at[3];
	else if (e->blob_bytes != r->blob_bytes)
		c->cur.pos = at[4];
	else
		return;
	cur_fail(c, "counts", "do not match the records in the file (a record lost or added?)");
}

/*
 * Frame the record at r->pos: returns BPFRR_TRACE_RECORD with *payload and
 * *length set, or sets and returns an error status.
 */
static int read_frame(struct bpfrr_trace_reader *r, uint32_t *type, const uint8_t **payload,
		      uint32_t *length, size_t *next, bool *pad_cut)
{
	size_t pos = r->pos;
	struct bpfrr_frame f;
	enum bpfrr_frame_status st;
	const char *tname;

	st = (r->major == 1 ? bpfrr_frame_read : bpfrr_cframe_read)(r->data, r->size, pos,
		pos == PREFIX_SIZE ? r->data : NULL, BPFRR_TRACE_MAX_PAYLOAD,
		!(r->flags & BPFRR_TRACE_IGNORE_CHECKSUMS), &f);
	if (st == BPFRR_FRAME_NO_DATA)
		return set_error(r, BPFRR_TRACE_TRUNCATED, pos, "truncated: no END record");
	if (st == BPFRR_FRAME_SHORT_HEADER && r->major == 1)
		return set_error(r, BPFRR_TRACE_TRUNCATED, pos,
				 "truncated: record frame incomplete (%zu of %d bytes)", f.left, FRAME_SIZE);
	if (st == BPFRR_FRAME_SHORT_HEADER)
		return set_error(r, BPFRR_TRACE_TRUNCATED, pos,
				 "truncated: record frame incomplete (%zu bytes)", f.left);
	if (st == BPFRR_FRAME_BAD_HEADER)
		return set_error(r, BPFRR_TRACE_CORRUPT, pos, "record frame: malformed type or length");
	*type = f.type;
	*length = f.length;
	tname = bpfrr_trace_rec_type_name(f.type);
	if (!tname)
		tname = "unknown";
	if (f.type == 0)
		return set_error(r, BPFRR_TRACE_CORRUPT, pos, "record type 0 is invalid");
	switch (st) {
	case BPFRR_FRAME_TOO_LONG:
		/* 1.x: point at the length field; 2.x: at the frame */
		return set_error(r, BPFRR_TRACE_CORRUPT, r->major == 1 ? pos + 4 : pos,
				 "record length %u exceeds the maximum %u", f.length, BPFRR_TRACE_MAX_PAYLOAD);
	case BPFRR_FRAME_SHORT_PAYLOAD:
		return set_error(r, BPFRR_TRACE_TRUNCATED, pos,
				 "truncated: %s record of %u bytes, only %zu present", tname, f.length,
				 r->major == 1 ? f.left - FRAME_SIZE : (size_t)(r->data + r->size - f.payload));
	case BPFRR_FRAME_BAD_CRC:
		return set_error(r, BPFRR_TRACE_CORRUPT, pos,
				 "%s record: checksum mismatch (stored 0x%08x, computed 0x%08x)",
				 tname, f.crc_stored, f.crc_computed);
	case BPFRR_FRAME_BAD_PADDING:
		return set_error(r, BPFRR_TRACE_CORRUPT, f.bad_pad, "non-zero padding after %s record", tname);
	default:
		break;
	}
	*payload = f.payload;
	*next = f.next;
	*pad_cut = f.pad_cut;
	return BPFRR_TRACE_RECORD;
}

/* Check what is left over after decoding: trailing bytes only from a newer minor version. */
static void check_consumed(struct cursor *c)
{
	if (c->cur.failed || c->cur.pos == c->cur.len)
		return;
	if (c->r->minor > c->r->own_minor)
		return;
	cur_fail(c, "payload", "unexpected bytes after the last field");
}

/* One 2.x record of a known type, or an unknown type passed on undecoded. */
static void decode2(struct cursor *c, struct bpfrr_trace_record *rec)
{
	switch (rec->type) {
	case BPFRR_REC_BLOB:
		decode_blob2(c, &rec->blob);
		break;
	case BPFRR_REC_TASK:
		decode_task2(c, &rec->task);
		break;
	case BPFRR_REC_BPF_CALL:
		decode_bpf_call2(c, &rec->bpf_call);
		break;
	case BPFRR_REC_SYSCALL:
		decode_syscall2(c, &rec->syscall);
		break;
	case BPFRR_REC_FD_EVENT:
		decode_fd_event2(c, &rec->fd_event);
		break;
	case BPFRR_REC_OBJECT:
		decode_object2(c, &rec->object);
		break;
	case BPFRR_REC_NOTE:
		decode_note2(c, &rec->note);
		break;
	case BPFRR_REC_END:
		decode_end2(c, &rec->end);
		break;
	case BPFRR_REC_KERNEL:
		decode_kernel2(c, &rec->kernel);
		break;
	case BPFRR_REC_SYMBOL:
		decode_symbol2(c, &rec->symbol);
		break;
	case BPFRR_REC_ELF:
		decode_elf2(c, &rec->elf);
		break;
	default:
		/* a record type of a newer minor version: passed on undecoded (it adds no string) */
		c->cur.pos = c->cur.len;
		break;
	}
}

int bpfrr_trace_next(struct bpfrr_trace_reader *r, struct bpfrr_trace_record *rec)
{
	struct cursor c = { .cur.on_short = cursor_short, .cur.on_bad = cursor_bad, .r = r };
	const uint8_t *payload;
	uint32_t type, length;
	bool pad_cut;
	size_t next;
	int status;

	if (r->status != BPFRR_TRACE_RECORD)
		return r->status;
	memset(rec, 0, sizeof(*rec));
	status = read_frame(r, &type, &payload, &length, &next, &pad_cut);
	if (status != BPFRR_TRACE_RECORD)
		return status;

	rec->type = type;
	rec->offset = r->pos;
	rec->length = length;
	rec->payload = payload;
	c.cur.p = payload;
	c.cur.len = length;
	c.cur.base = (size_t)(payload - r->data);
	c.rec_name = bpfrr_trace_rec_type_name(type);

	if (type == BPFRR_REC_HEADER)
		return set_error(r, BPFRR_TRACE_CORRUPT, r->pos, "second HEADER record");
	if (r->major >= 2)
		decode2(&c, rec);
	else switch (type) {
	case BPFRR_REC_BLOB:
		decode_blob(&c, &rec->blob);
		break;
	case BPFRR_REC_TASK:
		decode_task(&c, &rec->task);
		break;
	case BPFRR_REC_BPF_CALL:
		decode_bpf_call(&c, &rec->bpf_call);
		break;
	case BPFRR_REC_SYSCALL:
		decode_syscall(&c, &rec->syscall);
		break;
	case BPFRR_REC_FD_EVENT:
		decode_fd_event(&c, &rec->fd_event);
		break;
	case BPFRR_REC_OBJECT:
		decode_object(&c, &rec->object);
		break;
	case BPFRR_REC_NOTE:
		decode_note(&c, &rec->note);
		break;
	case BPFRR_REC_END:
		decode_end(&c, &rec->end);
		break;
	case BPFRR_REC_KERNEL:
		decode_kernel(&c, &rec->kernel);
		break;
	case BPFRR_REC_SYMBOL:
		decode_symbol(&c, &rec->symbol);
		break;
	case BPFRR_REC_ELF:
		decode_elf(&c, &rec->elf);
		break;
	default:
		/* a record type of a newer minor version: pass it on undecoded */
		c.cur.pos = c.cur.len;
		break;
	}
	check_consumed(&c);
	if (c.cur.failed)
		return r->status;

	r->nr_records++;
	if (type == BPFRR_REC_BPF_CALL)
		r->nr_bpf_calls++;
	else if (type == BPFRR_REC_SYSCALL)
		r->nr_syscalls++;
	else if (type == BPFRR_REC_BLOB) {
		r->nr_blobs_seen++;
		r->blob_bytes += rec->blob.len;
	}
	r->pos = next;
	if (pad_cut) {
		/* return this record now; report the cut on the next call */
		set_error(r, BPFRR_TRACE_TRUNCATED, next,
			  "truncated: file ends inside the padding of the %s record at offset %" PRIu64,
			  c.rec_name ? c.rec_name : "unknown", rec->offset);
	} else if (type == BPFRR_REC_END) {
		if (next != r->size) {
			/* return END now; report what follows it on the next call */
			set_error(r, BPFRR_TRACE_CORRUPT, next, "%zu bytes of data after the END record",
				  r->size - next);
		} else {
			r->status = BPFRR_TRACE_EOF;
		}
	}
	return BPFRR_TRACE_RECORD;
}

const char *bpfrr_trace_name(const struct bpfrr_trace_reader *r)
{
	return r->name;
}

const char *bpfrr_trace_error(const struct bpfrr_trace_reader *r)
{
	return r->error ? r->error : "out of memory";
}

void bpfrr_trace_rewind(struct bpfrr_trace_reader *r)
{
	if (!r->have_header)
		return;
	r->pos = r->first;
	r->status = BPFRR_TRACE_RECORD;
	free(r->error);
	r->error = NULL;
	r->nr_records = 1;
	r->nr_bpf_calls = r->nr_syscalls = r->nr_blobs_seen = r->blob_bytes = 0;
	r->nr_strs = r->hdr_nr_strs;	/* the records after HEADER add theirs again */
}

const struct bpfrr_rec_blob *bpfrr_trace_blob(const struct bpfrr_trace_reader *r, uint64_t id)
{
	if (id == 0 || id > r->nr_blobs)
		return NULL;
	return &r->blobs[id - 1];
}

const struct bpfrr_trace_header *bpfrr_trace_header(const struct bpfrr_trace_reader *r)
{
	return r->have_header ? &r->hdr : NULL;
}

void bpfrr_trace_reader_close(struct bpfrr_trace_reader *r)
{
	if (!r)
		return;
	free(r->name);
	free(r->data);
	free(r->error);
	free(r->hdr_argv);
	free(r->blobs);
	free(r->regions);
	free(r->argv);
	free(r->attr_copy);
	free(r->attr_exit_copy);
	free(r->strs);
	while (r->nr_owned)
		free(r->owned[--r->nr_owned]);
	free(r->owned);
	if (r->zs) {
		inflateEnd(r->zs);
		free(r->zs);
	}
	free(r);
}

/* Hand an error message to the caller of open and free the reader. */
static struct bpfrr_trace_reader *open_failed(struct bpfrr_trace_reader *r, char **err)
{
	if (err) {
		*err = r->error;
		r->error = NULL;
	}
	bpfrr_trace_reader_close(r);
	return NULL;
}

/*
 * Check the prefix and decode HEADER.  A file that ends inside them is a
 * truncated trace (a reader is returned, with no header); anything else
 * wrong fails the open.
 */
static struct bpfrr_trace_reader *open_parse(struct bpfrr_trace_reader *r, char **err)
{
	const uint8_t *d = r->data;
	struct cursor c = { .cur.on_short = cursor_short, .cur.on_bad = cursor_bad, .r = r, .rec_name = "HEADER" };
	uint16_t major;
	uint32_t type, length;
	const uint8_t *payload;
	size_t next;
	bool pad_cut;
	int status;

	r->status = BPFRR_TRACE_RECORD;
	if (r->size == 0) {
		set_error(r, BPFRR_TRACE_CORRUPT, 0, "empty file, not a bpfrr trace");
		return open_failed(r, err);
	}
	if (!bpfrr_frame_magic_matches(d, r->size, BPFRR_TRACE_MAGIC)) {
		set_error(r, BPFRR_TRACE_CORRUPT, 0, "bad magic: not a bpfrr trace");
		return open_failed(r, err);
	}
	if (r->size < PREFIX_SIZE) {
		set_error(r, BPFRR_TRACE_TRUNCATED, r->size,
			  "truncated: file ends inside the %d-byte file prefix", PREFIX_SIZE);
		return r;
	}
	bpfrr_frame_prefix_version(d, &major, &r->minor);
	if (newest_minor(major) < 0) {
		set_error(r, BPFRR_TRACE_CORRUPT, 8,
			  "unsupported trace format version %u.%u (this bpfrr reads 1.x, 2.x, 3.x and 4.x)",
			  major, r->minor);
		return open_failed(r, err);
	}
	r->major = major;
	r->own_minor = (uint16_t)newest_minor(major);
	r->hdr.version_major = major;
	r->hdr.version_minor = r->minor;

	r->pos = PREFIX_SIZE;
	status = read_frame(r, &type, &payload, &length, &next, &pad_cut);
	if (status == BPFRR_TRACE_TRUNCATED) {
		set_error(r, BPFRR_TRACE_TRUNCATED, r->pos, "truncated: file ends inside the HEADER record");
		return r;
	}
	if (status != BPFRR_TRACE_RECORD)
		return open_failed(r, err);
	if (type != BPFRR_REC_HEADER) {
		set_error(r, BPFRR_TRACE_CORRUPT, r->pos, "first record is %s (type %u), not HEADER",
			  bpfrr_trace_rec_type_name(type) ? bpfrr_trace_rec_type_name(type) : "unknown",
			  type);
		return open_failed(r, err);
	}
	c.cur.p = payload;
	c.cur.len = length;
	c.cur.base = (size_t)(payload - r->data);
	if (major >= 2)
		decode_header2(&c, &r->hdr);
	else
		decode_header(&c, &r->hdr);
	check_consumed(&c);
	if (c.cur.failed)
		return open_failed(r, err);
	r->have_header = true;
	r->hdr_nr_strs = r->nr_strs;
	r->nr_records = 1;
	r->first = r->pos = next;
	if (pad_cut)
		set_error(r, BPFRR_TRACE_TRUNCATED, next, "truncated: file ends inside the HEADER's padding");
	return r;
}

static struct bpfrr_trace_reader *reader_alloc(const char *name, unsigned int flags, char **err)
{
	struct bpfrr_trace_reader *r = calloc(1, sizeof(*r));

	if (r)
		r->name = strdup(name);
	if (!r || !r->name) {
		free(r);
		if (err)
			*err = strdup("out of memory");
		return NULL;
	}
	r->flags = flags;
	return r;
}

struct bpfrr_trace_reader *bpfrr_trace_open_owned(uint8_t *data, size_t len, const char *name,
						  unsigned int flags, char **err)
{
	struct bpfrr_trace_reader *r = reader_alloc(name, flags, err);

	if (!r) {
		free(data);
		return NULL;
	}
	r->data = data;
	r->size = len;
	return open_parse(r, err);
}

struct bpfrr_trace_reader *bpfrr_trace_open_mem(const void *data, size_t len, const char *name,
						unsigned int flags, char **err)
{
	uint8_t *copy = malloc(len ? len : 1);

	if (!copy) {
		if (err)
			*err = strdup("out of memory");
		return NULL;
	}
	if (len)
		memcpy(copy, data, len);
	return bpfrr_trace_open_owned(copy, len, name, flags, err);
}

struct bpfrr_trace_reader *bpfrr_trace_open(const char *path, unsigned int flags, char **err)
{
	static const char *const magics[] = { BPFRR_TRACE_MAGIC, NULL };
	uint8_t *data;
	char msg[512];
	size_t len;

	/* whole, once, and no further than the magic when it is not a trace's */
	if (bpfrr_frame_read_file(path, magics, BPFRR_TRACE_MAX_FILE, &data, &len, msg, sizeof(msg))) {
		if (err)
			*err = strdup(msg);
		return NULL;
	}
	return bpfrr_trace_open_owned(data, len, path, flags, err);
}

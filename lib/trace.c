// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.c - the trace file: streaming writer, validating reader.
 *
 * The layout is specified in docs/trace-format.md.  The writer encodes one
 * record at a time into a scratch buffer and hands it to write(2) at once,
 * so the file always ends with complete records (or, after a SIGKILL in
 * the middle of a write, with one partial record the reader reports as a
 * truncation).  The reader loads the file into memory and decodes it with a
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

#include "bpf_abi.h"
#include "frame.h"
#include "sha256.h"
#include "trace.h"

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
	/* the one record being encoded: its frame header, then its payload */
	struct bpfrr_buf rec;
	uint32_t rec_type;
};

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
	bpfrr_frame_begin(&w->rec);
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
	err = write_all(w->fd, iov, cnt);
	if (err) {
		w->err = err;
		return err;
	}
	w->offset += w->rec.len + tail_len + (size_t)pad;
	w->stats.nr_records++;
	return 0;
}

struct bpfrr_trace_writer *bpfrr_trace_create_fd(int fd, const struct bpfrr_trace_header *hdr)
{
	struct bpfrr_trace_writer *w;
	struct iovec iov;
	int err;

	w = calloc(1, sizeof(*w));
	if (!w) {
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	w->fd = fd;
	w->nr_slots = 1024;
	w->slots = calloc(w->nr_slots, sizeof(*w->slots));
	if (!w->slots) {
		err = -ENOMEM;
		goto fail;
	}

	bpfrr_frame_put_prefix(&w->rec, BPFRR_TRACE_MAGIC, BPFRR_TRACE_VERSION_MAJOR,
			       BPFRR_TRACE_VERSION_MINOR);
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
	free(w->slots);
	bpfrr_buf_free(&w->rec);
	free(w);
	errno = -err;
	return NULL;
}

struct bpfrr_trace_writer *bpfrr_trace_create(const char *path, const struct bpfrr_trace_header *hdr)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return NULL;
	return bpfrr_trace_create_fd(fd, hdr);
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

	begin_record(w, BPFRR_REC_BLOB);
	put_u64(w, w->stats.nr_blobs + 1);
	put_u64(w, len);
	put_bytes(w, sha, sizeof(sha));
	put_u32(w, 0);		/* flags */
	err = write_record(w, data, len);
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
	begin_record(w, BPFRR_REC_NOTE);
	put_u64(w, n->seq);
	put_u32(w, n->tid);
	put_u32(w, n->level);
	put_str(w, n->text);
	return write_record(w, NULL, 0);
}

int bpfrr_trace_write_kernel(struct bpfrr_trace_writer *w, const struct bpfrr_rec_kernel *k)
{
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
	begin_record(w, BPFRR_REC_SYMBOL);
	put_u64(w, s->seq);
	put_u32(w, s->kind);
	put_u32(w, s->flags);
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

static void writer_free(struct bpfrr_trace_writer *w)
{
	free(w->slots);
	bpfrr_buf_free(&w->rec);
	free(w);
}

int bpfrr_trace_close(struct bpfrr_trace_writer *w, int32_t exit_status, uint32_t end_flags)
{
	struct timespec now;
	int err;

	clock_gettime(CLOCK_MONOTONIC, &now);
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
	close(w->fd);
	writer_free(w);
}

/* --- reader ---------------------------------------------------------------------- */

struct bpfrr_trace_reader {
	char *name;
	uint8_t *data;		/* the whole file; malloc'd, so 8-byte offsets are 8-aligned */
	size_t size;
	unsigned int flags;
	uint16_t minor;		/* minor version of the file */

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

static bool check_blob_ref(struct cursor *c, uint64_t id, const char *what)
{
	if (c->cur.failed)
		return false;
	if (id > c->r->nr_blobs) {
		c->cur.pos -= 8;
		cur_fail(c, what, "refers to a blob not stored before it");
		return false;
	}
	return true;
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
		set_error(r, BPFRR_TRACE_NOMEM, c->cur.base, "out of memory");
		c->cur.failed = true;
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

	st = bpfrr_frame_read(r->data, r->size, pos, pos == PREFIX_SIZE ? r->data : NULL,
			      BPFRR_TRACE_MAX_PAYLOAD, !(r->flags & BPFRR_TRACE_IGNORE_CHECKSUMS), &f);
	if (st == BPFRR_FRAME_NO_DATA)
		return set_error(r, BPFRR_TRACE_TRUNCATED, pos, "truncated: no END record");
	if (st == BPFRR_FRAME_SHORT_HEADER)
		return set_error(r, BPFRR_TRACE_TRUNCATED, pos,
				 "truncated: record frame incomplete (%zu of %d bytes)", f.left, FRAME_SIZE);
	*type = f.type;
	*length = f.length;
	tname = bpfrr_trace_rec_type_name(f.type);
	if (!tname)
		tname = "unknown";
	if (f.type == 0)
		return set_error(r, BPFRR_TRACE_CORRUPT, pos, "record type 0 is invalid");
	switch (st) {
	case BPFRR_FRAME_TOO_LONG:
		return set_error(r, BPFRR_TRACE_CORRUPT, pos + 4,
				 "record length %u exceeds the maximum %u", f.length, BPFRR_TRACE_MAX_PAYLOAD);
	case BPFRR_FRAME_SHORT_PAYLOAD:
		return set_error(r, BPFRR_TRACE_TRUNCATED, pos,
				 "truncated: %s record of %u bytes, only %zu present",
				 tname, f.length, f.left - FRAME_SIZE);
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
	if (c->r->minor > BPFRR_TRACE_VERSION_MINOR)
		return;
	cur_fail(c, "payload", "unexpected bytes after the last field");
}

int bpfrr_trace_next(struct bpfrr_trace_reader *r, struct bpfrr_trace_record *rec)
{
	struct cursor c = { .cur.on_short = cursor_short, .r = r };
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
	c.cur.base = r->pos + FRAME_SIZE;
	c.rec_name = bpfrr_trace_rec_type_name(type);

	switch (type) {
	case BPFRR_REC_HEADER:
		return set_error(r, BPFRR_TRACE_CORRUPT, r->pos, "second HEADER record");
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
	struct cursor c = { .cur.on_short = cursor_short, .r = r, .rec_name = "HEADER" };
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
	if (major != BPFRR_TRACE_VERSION_MAJOR) {
		set_error(r, BPFRR_TRACE_CORRUPT, 8,
			  "unsupported trace format version %u.%u (this bpfrr reads %d.x)",
			  major, r->minor, BPFRR_TRACE_VERSION_MAJOR);
		return open_failed(r, err);
	}
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
	c.cur.base = r->pos + FRAME_SIZE;
	decode_header(&c, &r->hdr);
	check_consumed(&c);
	if (c.cur.failed)
		return open_failed(r, err);
	r->have_header = true;
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

// SPDX-License-Identifier: GPL-2.0-only
/*
 * bundle.c - the bundle file (see bundle.h and docs/bundle-format.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bpfrr.h"
#include "bundle.h"
#include "frame.h"
#include "kernel_id.h"
#include "outfile.h"
#include "trace.h"

/* The framing (prefix, frame header, CRC, padding) is frame.h's, as the trace's. */
#define PREFIX_SIZE	BPFRR_FRAME_PREFIX_SIZE
#define FRAME_SIZE	BPFRR_FRAME_HEADER_SIZE
#define MAX_FILE	(1ull << 32)

/* --- writing ------------------------------------------------------------- */

/* str: u32 n (with the NUL), bytes; n = 0 stands for "absent" */
static void put_str(struct bpfrr_buf *o, const char *s)
{
	if (!s) {
		bpfrr_buf_put_u32(o, 0);
		return;
	}
	bpfrr_buf_put_u32(o, strlen(s) + 1);
	bpfrr_buf_put(o, s, strlen(s) + 1);
}

/* Frames the payload built since bpfrr_frame_begin() returned start. */
static void frame(struct bpfrr_buf *o, size_t start, uint32_t type)
{
	/* the HEADER's CRC covers the file prefix, at the start of the buffer */
	int ret = bpfrr_frame_end(o, start, type, type == BPFRR_BUNDLE_HEADER ? o->p : NULL,
				  BPFRR_BUNDLE_MAX_PAYLOAD);

	if (ret == -EFBIG)
		o->err = -E2BIG;	/* what the bundle has always said of an oversized record */
}

static void put_ident(struct bpfrr_buf *o, const struct bpfrr_ir_ident *id)
{
	bpfrr_buf_put_u32(o, id->have);
	bpfrr_buf_put_u32(o, id->type);
	bpfrr_buf_put_u32(o, id->key_size);
	bpfrr_buf_put_u32(o, id->value_size);
	bpfrr_buf_put_u32(o, id->max_entries);
	bpfrr_buf_put_u32(o, id->map_flags);
	bpfrr_buf_put_u32(o, id->btf_size);
	bpfrr_buf_put_u32(o, id->attach_type);
	bpfrr_buf_put_u32(o, id->target_btf_id);
	bpfrr_buf_put_u32(o, id->link_prog_slot);
	bpfrr_buf_put(o, id->tag, 8);
	bpfrr_buf_put(o, id->name, 16);
}

/* SLOT_CONTENTS (1.3): a copy of the bytes, apart from the calls', the reference for --verify */
static void put_contents(struct bpfrr_buf *o, uint32_t index, const struct bpfrr_ir_contents *c)
{
	uint32_t i;

	bpfrr_buf_put_u32(o, index);
	bpfrr_buf_put_u32(o, c->flags);
	bpfrr_buf_put_u32(o, c->nr_entries);
	for (i = 0; i < c->nr_entries; i++) {
		const struct bpfrr_ir_entry *e = &c->entries[i];

		bpfrr_buf_put_u32(o, e->key_len);
		bpfrr_buf_put_u32(o, e->value_len);
		bpfrr_buf_put_u32(o, (uint32_t)e->value_slot);
		if (e->key_len)
			bpfrr_buf_put(o, e->key, e->key_len);
		if (e->value_slot < 0 && e->value_len)
			bpfrr_buf_put(o, e->value, e->value_len);
	}
}

static void put_call(struct bpfrr_buf *o, uint32_t index, const struct bpfrr_ir_call *c)
{
	uint32_t i;

	bpfrr_buf_put_u32(o, index);
	bpfrr_buf_put_u32(o, c->op);
	bpfrr_buf_put_u64(o, c->seq);
	bpfrr_buf_put_u32(o, c->cmd);
	bpfrr_buf_put_u32(o, c->flags);
	bpfrr_buf_put_u32(o, (uint32_t)c->result_slot);
	bpfrr_buf_put_u64(o, (uint64_t)c->recorded_ret);
	for (i = 0; i < 4; i++)
		bpfrr_buf_put_u64(o, (uint64_t)c->args[i]);
	bpfrr_buf_put_u32(o, c->attr_size);
	bpfrr_buf_put_u32(o, c->nr_bufs);
	bpfrr_buf_put_u32(o, c->nr_fdrels);
	bpfrr_buf_put_u32(o, c->nr_resolves);
	bpfrr_buf_put(o, c->attr, c->attr_size);
	for (i = 0; i < c->nr_bufs; i++) {
		const struct bpfrr_ir_buf *b = &c->bufs[i];

		bpfrr_buf_put_u32(o, (uint32_t)b->parent);
		bpfrr_buf_put_u32(o, b->ptr_offset);
		bpfrr_buf_put_u32(o, b->len);
		bpfrr_buf_put_u8(o, b->dir);
		bpfrr_buf_put_u8(o, b->content);
		bpfrr_buf_put_u16(o, b->flags);
		put_str(o, b->path);
		bpfrr_buf_put_u8(o, b->data != NULL);
		if (b->data)
			bpfrr_buf_put(o, b->data, b->len);
	}
	for (i = 0; i < c->nr_fdrels; i++) {
		bpfrr_buf_put_u32(o, (uint32_t)c->fdrels[i].buf);
		bpfrr_buf_put_u32(o, c->fdrels[i].offset);
		bpfrr_buf_put_u32(o, c->fdrels[i].slot);
		bpfrr_buf_put_u32(o, c->fdrels[i].ref);
	}
	for (i = 0; i < c->nr_resolves; i++) {
		bpfrr_buf_put_u32(o, c->resolves[i].kind);
		bpfrr_buf_put_u32(o, c->resolves[i].offset);
		bpfrr_buf_put_u32(o, c->resolves[i].size);
		put_str(o, c->resolves[i].name);
	}
}

/*
 * What 1.1 added to a call lives in a CALL_EXT record after its CALL, so
 * that a 1.0 reader (which skips unknown records) still parses the CALL; it
 * then refuses the new resolution kinds (its check knows only 1 and 2).
 */
static bool call_has_ext(const struct bpfrr_ir_call *c)
{
	uint32_t i;

	if (c->bound_why)
		return true;
	for (i = 0; i < c->nr_resolves; i++) {
		const struct bpfrr_ir_resolve *r = &c->resolves[i];

		if (r->buf != BPFRR_IR_IN_ATTR || r->module || r->btf_kind || r->addend)
			return true;
	}
	return false;
}

static void put_call_ext(struct bpfrr_buf *o, uint32_t index, const struct bpfrr_ir_call *c)
{
	uint32_t i;

	bpfrr_buf_put_u32(o, index);
	bpfrr_buf_put_u32(o, c->nr_resolves);
	put_str(o, c->bound_why);
	for (i = 0; i < c->nr_resolves; i++) {
		bpfrr_buf_put_u32(o, (uint32_t)c->resolves[i].buf);
		bpfrr_buf_put_u32(o, c->resolves[i].btf_kind);
		bpfrr_buf_put_u64(o, (uint64_t)c->resolves[i].addend);
		put_str(o, c->resolves[i].module);
	}
}

/*
 * A call's products (a syscall program's run writing fds into its context)
 * are a CALL_PRODUCTS record after its CALL (and CALL_EXT).  A reader that
 * does not know the record skips it; the slots it makes then have no maker
 * and the IR does not validate: such a bundle is refused, not half-replayed.
 */
static void put_call_products(struct bpfrr_buf *o, uint32_t index, const struct bpfrr_ir_call *c)
{
	uint32_t i;

	bpfrr_buf_put_u32(o, index);
	bpfrr_buf_put_u32(o, c->nr_outfds);
	for (i = 0; i < c->nr_outfds; i++) {
		bpfrr_buf_put_u32(o, (uint32_t)c->outfds[i].buf);
		bpfrr_buf_put_u32(o, c->outfds[i].offset);
		bpfrr_buf_put_u32(o, c->outfds[i].slot);
	}
}

int bpfrr_bundle_encode(const struct bpfrr_ir *ir, void **data, size_t *len, char *err, size_t err_size)
{
	struct bpfrr_buf o = { 0 };
	size_t start;
	uint32_t i;
	int ret;

	ret = bpfrr_ir_validate(ir, err, err_size);
	if (ret)
		return ret;
	bpfrr_frame_put_prefix(&o, BPFRR_BUNDLE_MAGIC, BPFRR_BUNDLE_VERSION_MAJOR, BPFRR_BUNDLE_VERSION_MINOR);

	start = bpfrr_frame_begin(&o);
	bpfrr_buf_put_u32(&o, ir->arch);
	bpfrr_buf_put_u32(&o, 0);			/* flags */
	bpfrr_buf_put_u64(&o, ir->nr_recorded);
	bpfrr_buf_put_u32(&o, ir->nr_slots);
	bpfrr_buf_put_u32(&o, ir->nr_calls);
	bpfrr_buf_put_u32(&o, ir->nr_drops);
	put_str(&o, ir->kernel_release);
	put_str(&o, ir->source);
	put_str(&o, "bpfrr " BPFRR_VERSION);
	frame(&o, start, BPFRR_BUNDLE_HEADER);

	if (ir->kernel.known) {
		start = bpfrr_frame_begin(&o);
		bpfrr_buf_put_u32(&o, ir->kernel.btf_size);
		bpfrr_buf_put(&o, ir->kernel.btf_sha256, 32);
		put_str(&o, ir->kernel.release);
		put_str(&o, ir->kernel.machine);
		put_str(&o, ir->kernel.build_id);	/* 1.4 */
		bpfrr_buf_put_u32(&o, ir->kernel.flags);
		frame(&o, start, BPFRR_BUNDLE_KERNEL);
	}
	for (i = 0; i < ir->nr_slots; i++) {
		const struct bpfrr_ir_slot *s = &ir->slots[i];

		start = bpfrr_frame_begin(&o);
		bpfrr_buf_put_u32(&o, i);
		bpfrr_buf_put_u32(&o, s->kind);
		bpfrr_buf_put_u32(&o, s->source);
		bpfrr_buf_put_u32(&o, s->flags);
		bpfrr_buf_put_u32(&o, (uint32_t)s->producer);
		bpfrr_buf_put_u32(&o, s->open_flags);
		put_ident(&o, &s->ident);
		put_str(&o, s->name);
		put_str(&o, s->path);
		if (s->nr_path_subs) {	/* 1.6: a directory's numbers to rename */
			uint32_t k;

			bpfrr_buf_put_u32(&o, s->nr_path_subs);
			for (k = 0; k < s->nr_path_subs; k++) {
				bpfrr_buf_put_u32(&o, s->path_subs[k].off);
				bpfrr_buf_put_u32(&o, s->path_subs[k].len);
				bpfrr_buf_put_u32(&o, s->path_subs[k].kind);
				bpfrr_buf_put_u32(&o, (uint32_t)s->path_subs[k].obj_slot);
				put_str(&o, s->path_subs[k].dev);
			}
		}
		frame(&o, start, BPFRR_BUNDLE_SLOT);
		if (s->contents) {
			start = bpfrr_frame_begin(&o);
			put_contents(&o, i, s->contents);
			frame(&o, start, BPFRR_BUNDLE_SLOT_CONTENTS);
		}
	}
	for (i = 0; i < ir->nr_calls; i++) {
		start = bpfrr_frame_begin(&o);
		put_call(&o, i, &ir->calls[i]);
		frame(&o, start, BPFRR_BUNDLE_CALL);
		if (call_has_ext(&ir->calls[i])) {
			start = bpfrr_frame_begin(&o);
			put_call_ext(&o, i, &ir->calls[i]);
			frame(&o, start, BPFRR_BUNDLE_CALL_EXT);
		}
		if (ir->calls[i].nr_outfds) {
			start = bpfrr_frame_begin(&o);
			put_call_products(&o, i, &ir->calls[i]);
			frame(&o, start, BPFRR_BUNDLE_CALL_PRODUCTS);
		}
	}
	for (i = 0; i < ir->nr_drops; i++) {
		start = bpfrr_frame_begin(&o);
		bpfrr_buf_put_u64(&o, ir->drops[i].seq);
		put_str(&o, ir->drops[i].what);
		put_str(&o, ir->drops[i].why);
		frame(&o, start, BPFRR_BUNDLE_DROP);
	}
	if (ir->sig) {
		const struct bpfrr_ir_sig *sg = ir->sig;

		start = bpfrr_frame_begin(&o);
		bpfrr_buf_put_u32(&o, 0);			/* flags */
		bpfrr_buf_put_u32(&o, (uint32_t)sg->kfunc_btf_id);
		put_str(&o, sg->caps);
		put_str(&o, sg->build_id);
		put_str(&o, sg->release);
		bpfrr_buf_put(&o, sg->excl_prog_hash, 32);
		bpfrr_buf_put(&o, sg->payload_sha256, 32);
		bpfrr_buf_put(&o, sg->sig_sha256, 32);
		bpfrr_buf_put_u32(&o, sg->nr_insns);
		bpfrr_buf_put_u32(&o, sg->blob_size);
		bpfrr_buf_put_u32(&o, sg->sig_size);
		bpfrr_buf_put_u32(&o, 0);
		bpfrr_buf_put(&o, sg->insns, (size_t)sg->nr_insns * 8);
		bpfrr_buf_put(&o, sg->blob, sg->blob_size);
		bpfrr_buf_put(&o, sg->sig, sg->sig_size);
		frame(&o, start, BPFRR_BUNDLE_SIGNED_LOADER);
	}
	start = bpfrr_frame_begin(&o);
	bpfrr_buf_put_u32(&o, ir->nr_slots);
	bpfrr_buf_put_u32(&o, ir->nr_calls);
	bpfrr_buf_put_u32(&o, ir->nr_drops);
	bpfrr_buf_put_u32(&o, 0);
	frame(&o, start, BPFRR_BUNDLE_END);

	if (o.err) {
		free(o.p);
		if (err && err_size)
			snprintf(err, err_size, "encoding the bundle: %s", strerror(-o.err));
		return o.err;
	}
	*data = o.p;
	*len = o.len;
	return 0;
}

/* All or nothing, "-" for stdout, symlinks followed (lib/outfile.h). */
int bpfrr_bundle_write(const struct bpfrr_ir *ir, const char *path, char *err, size_t err_size)
{
	size_t len;
	void *data;
	int ret;

	ret = bpfrr_bundle_encode(ir, &data, &len, err, err_size);
	if (ret)
		return ret;
	ret = bpfrr_outfile_write(path, data, len, err, err_size);
	free(data);
	return ret;
}

/* --- reading ------------------------------------------------------------- */

struct in {
	struct bpfrr_cursor cur;	/* first: on_short gets it back as a struct in */
	const char *name;
	char *err;
	size_t err_size;
};

static void in_fail(struct in *in, size_t file_off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void in_fail(struct in *in, size_t file_off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (in->cur.failed)
		return;
	in->cur.failed = true;
	if (!in->err || !in->err_size)
		return;
	n = snprintf(in->err, in->err_size, "%s: offset %zu: ", in->name, file_off);
	if (n < 0 || (size_t)n >= in->err_size)
		return;
	va_start(ap, fmt);
	vsnprintf(in->err + n, in->err_size - n, fmt, ap);
	va_end(ap);
}

static void in_short(struct bpfrr_cursor *cur, size_t want, const char *what)
{
	struct in *in = (struct in *)cur;

	(void)what;
	in_fail(in, cur->base + cur->pos, "record ends inside a field (%zu bytes wanted, %zu left)", want,
		cur->len - cur->pos);
}

static const uint8_t *get(struct in *in, size_t len)
{
	return bpfrr_cursor_bytes(&in->cur, len, NULL);
}

static uint8_t get_u8(struct in *in)
{
	return (uint8_t)bpfrr_cursor_le(&in->cur, 1, NULL);
}

static uint16_t get_u16(struct in *in)
{
	return (uint16_t)bpfrr_cursor_le(&in->cur, 2, NULL);
}

static uint32_t get_u32(struct in *in)
{
	return (uint32_t)bpfrr_cursor_le(&in->cur, 4, NULL);
}

static uint64_t get_u64(struct in *in)
{
	uint64_t lo = get_u32(in);

	return lo | (uint64_t)get_u32(in) << 32;
}

/* A malloc'd copy of a str field; NULL for absent (n = 0) or on error (in->cur.failed). */
static char *get_str(struct in *in, size_t max)
{
	size_t at = in->cur.base + in->cur.pos;
	uint32_t n = get_u32(in);
	const uint8_t *p;
	char *s;

	if (in->cur.failed || !n)
		return NULL;
	if (n > max) {
		in_fail(in, at, "string of %u bytes (at most %zu)", n, max);
		return NULL;
	}
	p = get(in, n);
	if (!p)
		return NULL;
	if (p[n - 1] || memchr(p, 0, n - 1)) {
		in_fail(in, at, "string not NUL-terminated or with an inner NUL");
		return NULL;
	}
	s = strdup((const char *)p);
	if (!s)
		in_fail(in, at, "out of memory");
	return s;
}

static void *get_copy(struct in *in, size_t len)
{
	size_t at = in->cur.base + in->cur.pos;
	const uint8_t *p = get(in, len);
	void *q;

	if (!p)
		return NULL;
	q = malloc(len ? len : 1);
	if (!q) {
		in_fail(in, at, "out of memory (%zu bytes)", len);
		return NULL;
	}
	memcpy(q, p, len);
	return q;
}

static void get_ident(struct in *in, struct bpfrr_ir_ident *id)
{
	const uint8_t *p;

	id->have = get_u32(in);
	id->type = get_u32(in);
	id->key_size = get_u32(in);
	id->value_size = get_u32(in);
	id->max_entries = get_u32(in);
	id->map_flags = get_u32(in);
	id->btf_size = get_u32(in);
	id->attach_type = get_u32(in);
	id->target_btf_id = get_u32(in);
	id->link_prog_slot = get_u32(in);
	p = get(in, 8);
	if (p)
		memcpy(id->tag, p, 8);
	p = get(in, 16);
	if (p) {
		memcpy(id->name, p, 16);
		id->name[15] = '\0';
	}
}

/* Counts are checked against what the payload can hold before allocating. */
static bool count_fits(struct in *in, uint32_t count, size_t min_each)
{
	if ((uint64_t)count * min_each > in->cur.len - in->cur.pos) {
		in_fail(in, in->cur.base + in->cur.pos, "count %u does not fit the record", count);
		return false;
	}
	return true;
}

/* A MKDIR slot's numbers to rename (1.6); bpfrr_ir_validate checks what they say. */
static void get_path_subs(struct in *in, struct bpfrr_ir_slot *s)
{
	uint32_t n = get_u32(in), k;

	if (in->cur.failed || !n)
		return;
	if (n > BPFRR_IR_MAX_PATH_SUBS) {
		in_fail(in, in->cur.base + in->cur.pos, "%u numbers to rename in a slot's path, at most %u", n,
			BPFRR_IR_MAX_PATH_SUBS);
		return;
	}
	if (!count_fits(in, n, 20))
		return;
	s->path_subs = calloc(n, sizeof(*s->path_subs));
	if (!s->path_subs) {
		in_fail(in, in->cur.base + in->cur.pos, "out of memory");
		return;
	}
	for (k = 0; k < n && !in->cur.failed; k++) {
		struct bpfrr_ir_path_sub *sub = &s->path_subs[k];

		sub->off = get_u32(in);
		sub->len = get_u32(in);
		sub->kind = get_u32(in);
		sub->obj_slot = (int32_t)get_u32(in);
		sub->dev = get_str(in, 16);
		s->nr_path_subs++;
	}
}

static void get_call(struct in *in, struct bpfrr_ir_call *c)
{
	uint32_t i;

	c->op = get_u32(in);
	c->seq = get_u64(in);
	c->cmd = get_u32(in);
	c->flags = get_u32(in);
	c->result_slot = (int32_t)get_u32(in);
	c->recorded_ret = (int64_t)get_u64(in);
	for (i = 0; i < 4; i++)
		c->args[i] = (int64_t)get_u64(in);
	c->attr_size = get_u32(in);
	c->nr_bufs = get_u32(in);
	c->nr_fdrels = get_u32(in);
	c->nr_resolves = get_u32(in);
	if (in->cur.failed)
		goto zero;
	if (c->attr_size > BPFRR_IR_MAX_ATTR) {
		in_fail(in, in->cur.base + in->cur.pos, "attr of %u bytes (at most %u)", c->attr_size,
			BPFRR_IR_MAX_ATTR);
		goto zero;
	}
	if (!count_fits(in, c->nr_bufs, 21) || !count_fits(in, c->nr_fdrels, 16) ||
	    !count_fits(in, c->nr_resolves, 16))
		goto zero;
	if (c->attr_size) {
		c->attr = get_copy(in, c->attr_size);
		if (!c->attr)
			goto zero;
	}
	c->bufs = calloc(c->nr_bufs + 1, sizeof(*c->bufs));
	c->fdrels = calloc(c->nr_fdrels + 1, sizeof(*c->fdrels));
	c->resolves = calloc(c->nr_resolves + 1, sizeof(*c->resolves));
	if (!c->bufs || !c->fdrels || !c->resolves) {
		in_fail(in, in->cur.base, "out of memory");
		goto zero;
	}
	for (i = 0; i < c->nr_bufs && !in->cur.failed; i++) {
		struct bpfrr_ir_buf *b = &c->bufs[i];

		b->parent = (int32_t)get_u32(in);
		b->ptr_offset = get_u32(in);
		b->len = get_u32(in);
		b->dir = get_u8(in);
		b->content = get_u8(in);
		b->flags = get_u16(in);
		b->path = get_str(in, BPFRR_IR_MAX_NAME);
		if (!in->cur.failed && !b->path)
			in_fail(in, in->cur.base + in->cur.pos, "buffer %u without a path", i);
		if (get_u8(in) && !in->cur.failed) {
			if (b->len > BPFRR_IR_MAX_BUF) {
				in_fail(in, in->cur.base + in->cur.pos, "buffer of %u bytes", b->len);
				break;
			}
			b->data = get_copy(in, b->len);
		}
	}
	for (i = 0; i < c->nr_fdrels && !in->cur.failed; i++) {
		c->fdrels[i].buf = (int32_t)get_u32(in);
		c->fdrels[i].offset = get_u32(in);
		c->fdrels[i].slot = get_u32(in);
		c->fdrels[i].ref = get_u32(in);
	}
	for (i = 0; i < c->nr_resolves && !in->cur.failed; i++) {
		c->resolves[i].buf = BPFRR_IR_IN_ATTR;	/* unless a CALL_EXT says otherwise */
		c->resolves[i].kind = get_u32(in);
		c->resolves[i].offset = get_u32(in);
		c->resolves[i].size = get_u32(in);
		c->resolves[i].name = get_str(in, BPFRR_IR_MAX_NAME);
		if (!in->cur.failed && !c->resolves[i].name)
			in_fail(in, in->cur.base + in->cur.pos, "resolution %u without a name", i);
	}
	return;
zero:
	/* nothing was allocated for these: bpfrr_ir_free must not walk them */
	c->nr_bufs = c->nr_fdrels = c->nr_resolves = 0;
}

static void get_contents(struct in *in, struct bpfrr_ir_slot *s)
{
	struct bpfrr_ir_contents *c;
	uint32_t flags = get_u32(in), nr = get_u32(in), i;

	if (in->cur.failed || !count_fits(in, nr, 12))
		return;
	if (nr > BPFRR_IR_MAX_ENTRIES) {
		in_fail(in, in->cur.base + in->cur.pos, "%u map entries (at most %u)", nr, BPFRR_IR_MAX_ENTRIES);
		return;
	}
	c = s->contents = calloc(1, sizeof(*c));
	if (c)
		c->entries = calloc(nr + 1, sizeof(*c->entries));
	if (!c || !c->entries) {
		in_fail(in, in->cur.base, "out of memory");
		return;
	}
	c->flags = flags;
	c->cap_entries = nr + 1;
	for (i = 0; i < nr && !in->cur.failed; i++) {
		struct bpfrr_ir_entry *e = &c->entries[c->nr_entries];

		e->key_len = get_u32(in);
		e->value_len = get_u32(in);
		e->value_slot = (int32_t)get_u32(in);
		if (in->cur.failed)
			break;
		if (e->key_len > BPFRR_IR_MAX_BUF || e->value_len > BPFRR_IR_MAX_BUF) {
			in_fail(in, in->cur.base + in->cur.pos, "map entry of %u + %u bytes", e->key_len,
				e->value_len);
			break;
		}
		c->nr_entries++;
		if (e->key_len)
			e->key = get_copy(in, e->key_len);
		if (e->value_slot < 0 && e->value_len)
			e->value = get_copy(in, e->value_len);
	}
}

static void get_call_products(struct in *in, struct bpfrr_ir_call *c)
{
	uint32_t nr = get_u32(in), i;

	if (in->cur.failed || !count_fits(in, nr, 12))
		return;
	c->outfds = calloc(nr + 1, sizeof(*c->outfds));
	if (!c->outfds) {
		in_fail(in, in->cur.base, "out of memory");
		return;
	}
	for (i = 0; i < nr && !in->cur.failed; i++) {
		c->outfds[i].buf = (int32_t)get_u32(in);
		c->outfds[i].offset = get_u32(in);
		c->outfds[i].slot = get_u32(in);
	}
	c->nr_outfds = nr;
}

static void get_call_ext(struct in *in, size_t rec_off, struct bpfrr_ir_call *c)
{
	uint32_t nr = get_u32(in), i;

	if (!in->cur.failed && nr != c->nr_resolves) {
		in_fail(in, rec_off, "CALL_EXT with %u resolutions for a call of %u", nr, c->nr_resolves);
		return;
	}
	c->bound_why = get_str(in, BPFRR_IR_MAX_NAME);
	for (i = 0; i < nr && !in->cur.failed; i++) {
		struct bpfrr_ir_resolve *r = &c->resolves[i];

		r->buf = (int32_t)get_u32(in);
		r->btf_kind = get_u32(in);
		r->addend = (int64_t)get_u64(in);
		r->module = get_str(in, BPFRR_IR_MAX_NAME);
	}
}

static bool frame_at(struct in *file, size_t off, uint32_t *type, struct in *payload)
{
	struct bpfrr_frame f;

	switch (bpfrr_frame_read(file->cur.p, file->cur.len, off, off == PREFIX_SIZE ? file->cur.p : NULL,
				 BPFRR_BUNDLE_MAX_PAYLOAD, true, &f)) {
	case BPFRR_FRAME_OK:
		break;
	case BPFRR_FRAME_NO_DATA:
	case BPFRR_FRAME_SHORT_HEADER:
		in_fail(file, off, "truncated record frame");
		return false;
	case BPFRR_FRAME_TOO_LONG:
	case BPFRR_FRAME_SHORT_PAYLOAD:
	case BPFRR_FRAME_BAD_HEADER:	/* compact (trace 2.x) frames only */
		in_fail(file, off, "record length %u beyond the file or the limit", f.length);
		return false;
	case BPFRR_FRAME_BAD_CRC:
		in_fail(file, off, "CRC mismatch (0x%08x, expected 0x%08x)", f.crc_computed, f.crc_stored);
		return false;
	case BPFRR_FRAME_BAD_PADDING:
		in_fail(file, f.bad_pad, "non-zero padding");
		return false;
	}
	*type = f.type;
	*payload = *file;
	payload->cur.p = f.payload;
	payload->cur.len = f.length;
	payload->cur.pos = 0;
	payload->cur.base = off + FRAME_SIZE;
	return true;
}

bool bpfrr_bundle_sniff(const void *data, size_t len)
{
	return len >= 8 && bpfrr_frame_magic_matches(data, len, BPFRR_BUNDLE_MAGIC);
}

static void *memdup(const void *p, size_t len)
{
	void *d = malloc(len ? len : 1);

	if (d)
		memcpy(d, p, len);
	return d;
}

/* The loader a signed bundle loads as it is (struct bpfrr_ir_sig). */
static void get_signed_loader(struct in *in, size_t rec_off, struct bpfrr_ir *ir)
{
	struct bpfrr_ir_sig *sg = calloc(1, sizeof(*sg));
	const uint8_t *p;
	uint32_t flags;

	if (!sg) {
		in_fail(in, rec_off, "out of memory");
		return;
	}
	ir->sig = sg;
	flags = get_u32(in);
	sg->kfunc_btf_id = (int32_t)get_u32(in);
	sg->caps = get_str(in, 64);
	sg->build_id = get_str(in, BPFRR_BUILD_ID_HEX);
	sg->release = get_str(in, 4096);
	if ((p = get(in, 32)))
		memcpy(sg->excl_prog_hash, p, 32);
	if ((p = get(in, 32)))
		memcpy(sg->payload_sha256, p, 32);
	if ((p = get(in, 32)))
		memcpy(sg->sig_sha256, p, 32);
	sg->nr_insns = get_u32(in);
	sg->blob_size = get_u32(in);
	sg->sig_size = get_u32(in);
	get_u32(in);
	if (in->cur.failed)
		return;
	if (flags || !sg->caps || !sg->nr_insns || sg->nr_insns > (1u << 20) || !sg->blob_size ||
	    sg->blob_size > BPFRR_BUNDLE_MAX_PAYLOAD || !sg->sig_size || sg->sig_size > (1u << 16)) {
		in_fail(in, rec_off, "SIGNED_LOADER: flags %#x, %u insns, blob %u bytes, signature %u bytes: "
			"out of range", flags, sg->nr_insns, sg->blob_size, sg->sig_size);
		return;
	}
	if ((p = get(in, (size_t)sg->nr_insns * 8)))
		sg->insns = memdup(p, (size_t)sg->nr_insns * 8);
	if ((p = get(in, sg->blob_size)))
		sg->blob = memdup(p, sg->blob_size);
	if ((p = get(in, sg->sig_size)))
		sg->sig = memdup(p, sg->sig_size);
	if (!in->cur.failed && (!sg->insns || !sg->blob || !sg->sig))
		in_fail(in, rec_off, "out of memory");
}

struct bpfrr_ir *bpfrr_bundle_decode(const void *data, size_t len, const char *name, char *err,
				     size_t err_size)
{
	struct in file = {
		.cur = { .p = data, .len = len, .on_short = in_short },
		.name = name, .err = err, .err_size = err_size,
	};
	uint32_t want_slots = 0, want_calls = 0, want_drops = 0;
	const uint8_t *p;
	int64_t last_ext = -1;
	uint16_t major, minor;
	struct bpfrr_ir *ir = bpfrr_ir_new();
	bool have_header = false, have_end = false;
	size_t off = PREFIX_SIZE;

	if (err && err_size)
		err[0] = '\0';
	if (!ir) {
		in_fail(&file, 0, "out of memory");
		return NULL;
	}
	if (len < PREFIX_SIZE || !bpfrr_bundle_sniff(data, len)) {
		in_fail(&file, 0, "not a bpfrr bundle (magic \"%s\" expected)", BPFRR_BUNDLE_MAGIC);
		goto fail;
	}
	bpfrr_frame_prefix_version(file.cur.p, &major, &minor);
	if (major != BPFRR_BUNDLE_VERSION_MAJOR) {
		in_fail(&file, 8, "bundle format version %u, this bpfrr reads %u", major,
			BPFRR_BUNDLE_VERSION_MAJOR);
		goto fail;
	}
	while (off < len && !have_end) {
		struct in rec;
		uint32_t type, index;
		size_t rec_off = off;

		if (!frame_at(&file, off, &type, &rec))
			goto fail;
		/* all of the padding, even where the file is cut inside it (reported after END) */
		off += FRAME_SIZE + rec.cur.len;
		off += bpfrr_frame_pad(off);
		if (!have_header && type != BPFRR_BUNDLE_HEADER) {
			in_fail(&file, rec_off, "first record is type %u, not HEADER", type);
			goto fail;
		}
		switch (type) {
		case BPFRR_BUNDLE_HEADER:
			if (have_header) {
				in_fail(&file, rec_off, "second HEADER");
				goto fail;
			}
			have_header = true;
			ir->arch = get_u32(&rec);
			get_u32(&rec);		/* flags */
			ir->nr_recorded = get_u64(&rec);
			want_slots = get_u32(&rec);
			want_calls = get_u32(&rec);
			want_drops = get_u32(&rec);
			ir->kernel_release = get_str(&rec, 4096);
			ir->source = get_str(&rec, 4096);
			free(get_str(&rec, 4096));	/* producer */
			if (!rec.cur.failed && (want_slots > BPFRR_IR_MAX_SLOTS || want_calls > BPFRR_IR_MAX_CALLS ||
					 want_drops > BPFRR_IR_MAX_CALLS))
				in_fail(&rec, rec_off, "%u slots, %u calls, %u drops: beyond the limits",
					want_slots, want_calls, want_drops);
			if (!rec.cur.failed) {
				ir->slots = calloc(want_slots + 1, sizeof(*ir->slots));
				ir->calls = calloc(want_calls + 1, sizeof(*ir->calls));
				ir->drops = calloc(want_drops + 1, sizeof(*ir->drops));
				ir->cap_slots = want_slots + 1;
				ir->cap_calls = want_calls + 1;
				ir->cap_drops = want_drops + 1;
				if (!ir->slots || !ir->calls || !ir->drops)
					in_fail(&rec, rec_off, "out of memory");
			}
			break;
		case BPFRR_BUNDLE_SLOT: {
			struct bpfrr_ir_slot *s;

			index = get_u32(&rec);
			if (!rec.cur.failed && (index != ir->nr_slots || index >= want_slots)) {
				in_fail(&rec, rec_off, "SLOT %u out of order or beyond the %u announced", index,
					want_slots);
				break;
			}
			if (rec.cur.failed)
				break;
			s = &ir->slots[ir->nr_slots++];
			s->kind = get_u32(&rec);
			s->source = get_u32(&rec);
			s->flags = get_u32(&rec);
			s->producer = (int32_t)get_u32(&rec);
			s->open_flags = get_u32(&rec);
			get_ident(&rec, &s->ident);
			s->name = get_str(&rec, BPFRR_IR_MAX_NAME);
			s->path = get_str(&rec, 4096);
			if (!rec.cur.failed && bpfrr_cursor_left(&rec.cur))
				get_path_subs(&rec, s);	/* 1.6 */
			break;
		}
		case BPFRR_BUNDLE_SLOT_CONTENTS:
			index = get_u32(&rec);
			/* right after its SLOT, once */
			if (!rec.cur.failed && (index + 1 != ir->nr_slots || ir->slots[index].contents)) {
				in_fail(&rec, rec_off, "SLOT_CONTENTS for slot %u not right after its SLOT", index);
				break;
			}
			if (!rec.cur.failed)
				get_contents(&rec, &ir->slots[index]);
			break;
		case BPFRR_BUNDLE_CALL:
			index = get_u32(&rec);
			if (!rec.cur.failed && (index != ir->nr_calls || index >= want_calls)) {
				in_fail(&rec, rec_off, "CALL %u out of order or beyond the %u announced", index,
					want_calls);
				break;
			}
			if (rec.cur.failed)
				break;
			get_call(&rec, &ir->calls[ir->nr_calls++]);
			break;
		case BPFRR_BUNDLE_KERNEL:
			if (ir->kernel.known) {
				in_fail(&rec, rec_off, "second KERNEL");
				break;
			}
			ir->kernel.known = 1;
			ir->kernel.btf_size = get_u32(&rec);
			if ((p = get(&rec, 32)))
				memcpy(ir->kernel.btf_sha256, p, 32);
			ir->kernel.release = get_str(&rec, 4096);
			ir->kernel.machine = get_str(&rec, 4096);
			if (rec.cur.failed || !bpfrr_cursor_left(&rec.cur))
				break;		/* before 1.4: no build id */
			ir->kernel.build_id = get_str(&rec, BPFRR_BUILD_ID_HEX);
			ir->kernel.flags = get_u32(&rec);
			if (!rec.cur.failed && (ir->kernel.flags & ~BPFRR_IR_KERNEL_BTF_UNHASHED))
				in_fail(&rec, rec_off, "KERNEL flags %#x unknown", ir->kernel.flags);
			break;
		case BPFRR_BUNDLE_CALL_EXT:
			index = get_u32(&rec);
			/* right after its CALL, once */
			if (!rec.cur.failed && (index + 1 != ir->nr_calls || (int64_t)index == last_ext)) {
				in_fail(&rec, rec_off, "CALL_EXT for call %u not right after its CALL", index);
				break;
			}
			last_ext = index;
			if (!rec.cur.failed)
				get_call_ext(&rec, rec_off, &ir->calls[index]);
			break;
		case BPFRR_BUNDLE_CALL_PRODUCTS:
			index = get_u32(&rec);
			/* right after its CALL (or its CALL_EXT), once */
			if (!rec.cur.failed && (index + 1 != ir->nr_calls || ir->calls[index].outfds)) {
				in_fail(&rec, rec_off, "CALL_PRODUCTS for call %u not right after its CALL", index);
				break;
			}
			if (!rec.cur.failed)
				get_call_products(&rec, &ir->calls[index]);
			break;
		case BPFRR_BUNDLE_DROP: {
			struct bpfrr_ir_drop *d;

			if (ir->nr_drops >= want_drops) {
				in_fail(&rec, rec_off, "DROP beyond the %u announced", want_drops);
				break;
			}
			d = &ir->drops[ir->nr_drops++];
			d->seq = get_u64(&rec);
			d->what = get_str(&rec, BPFRR_IR_MAX_NAME);
			d->why = get_str(&rec, BPFRR_IR_MAX_NAME);
			if (!rec.cur.failed && (!d->what || !d->why))
				in_fail(&rec, rec_off, "DROP without text");
			break;
		}
		case BPFRR_BUNDLE_SIGNED_LOADER:
			if (ir->sig) {
				in_fail(&rec, rec_off, "second SIGNED_LOADER");
				break;
			}
			get_signed_loader(&rec, rec_off, ir);
			break;
		case BPFRR_BUNDLE_END:
			have_end = true;
			if (get_u32(&rec) != ir->nr_slots || get_u32(&rec) != ir->nr_calls ||
			    get_u32(&rec) != ir->nr_drops || ir->nr_slots != want_slots ||
			    ir->nr_calls != want_calls || ir->nr_drops != want_drops)
				in_fail(&rec, rec_off, "END counts do not match the records (%u slots, %u calls, "
					"%u drops)", ir->nr_slots, ir->nr_calls, ir->nr_drops);
			break;
		default:
			/* records of a newer minor version: skipped */
			break;
		}
		if (rec.cur.failed) {
			file.cur.failed = true;
			goto fail;
		}
	}
	if (!have_end) {
		in_fail(&file, off, "bundle ends without an END record (truncated)");
		goto fail;
	}
	if (off != len) {
		if (off < len)
			in_fail(&file, off, "%zu bytes after the END record", len - off);
		else
			in_fail(&file, len, "file ends inside the END record's padding");
		goto fail;
	}
	if (bpfrr_ir_validate(ir, err, err_size)) {
		if (err && err_size) {
			char *why = strdup(err);

			snprintf(err, err_size, "%s: invalid IR: %s", name, why ? why : "?");
			free(why);
		}
		goto fail;
	}
	return ir;
fail:
	bpfrr_ir_free(ir);
	return NULL;
}

struct bpfrr_ir *bpfrr_bundle_read(const char *path, char *err, size_t err_size)
{
	static const char *const magics[] = { BPFRR_BUNDLE_MAGIC, NULL };
	struct bpfrr_ir *ir;
	uint8_t *data;
	size_t len;

	/* a pipe or FIFO too; no further than the magic when it is not a bundle's */
	if (bpfrr_frame_read_file(path, magics, MAX_FILE, &data, &len, err, err_size))
		return NULL;
	ir = bpfrr_bundle_decode(data, len, path, err, err_size);
	free(data);
	return ir;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * record_bpf.c - capturing one bpf() call of the tracee.
 *
 * At the entry stop: the attr bytes as passed, every fd the call names
 * (fds the recorder never saw being made are adopted first, so the trace
 * can say what they are), and every buffer the kernel is about to read, as
 * bpfrr_abi_walk() describes them. At the exit stop: attr again if the
 * kernel writes it back, every buffer the kernel wrote (walked with the
 * exit attr, and with the entry attr and buffers for the capacities), the
 * return value; a new fd goes into the table, linked to this call, and the
 * recorder asks the kernel for the object's identity.
 *
 * A call with BPF_COMMON_ATTRS in its command (7.2) passes a struct
 * bpf_common_attr as 4th argument, its size as 5th: the struct is a region
 * "common_attr" at entry and again at exit (the kernel writes log_true_size
 * back), with addr and want_len the two arguments, and the log the kernel
 * wrote into its log_buf is "common_attr.log_buf" at exit.
 *
 * No offset of union bpf_attr is known here: lib/bpf_abi.c knows them all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "record_symbols.h"

/* The kernel refuses attrs larger than a page (E2BIG). */
#define ATTR_MAX 4096

struct walk_ctx {
	struct rec_session *s;
	struct rec_task *t;
	struct rec_call *c;
	enum bpfrr_phase phase;
};

/*
 * The walker's view of the call (lib/resolved.h's adaptor): the tracee's
 * memory now, except memory as it was at entry during the exit walk (the
 * ENTRY regions the recorder kept); fds through the task's table.
 */
static int src_read(void *ctx, enum bpfrr_phase phase, uint64_t addr, void *buf, size_t len)
{
	struct walk_ctx *w = ctx;
	size_t i;

	if (phase == w->phase)
		return rec_mem_read(w->t->tid, addr, buf, len);
	for (i = 0; i < w->c->nr_regions; i++) {
		const struct rec_region *r = &w->c->regions[i];

		if (r->r.phase != BPFRR_PHASE_ENTRY || !r->data)
			continue;
		if (addr >= r->r.addr && addr - r->r.addr <= r->r.len && len <= r->r.len - (addr - r->r.addr)) {
			memcpy(buf, (const uint8_t *)r->data + (addr - r->r.addr), len);
			return 0;
		}
	}
	return -ENOENT;
}

static int src_fd_facts(void *ctx, int fd, uint32_t *kind, struct bpfrr_obj_facts *facts)
{
	struct walk_ctx *w = ctx;
	struct rec_fd *e = rec_fdtab_lookup(w->t->fdtab, fd);

	if (!e)
		return -ENOENT;
	*kind = e->kind;
	*facts = e->facts;
	return 0;
}

static int src_value_layout(void *ctx, uint32_t value_type, uint32_t *offsets, unsigned int max)
{
	struct walk_ctx *w = ctx;

	return w->s->symtab ? rec_symtab_value_fds(w->s->symtab, value_type, "", offsets, max) : -ENOENT;
}

static const struct bpfrr_abi_env *init_env(struct bpfrr_walk_env *we, struct walk_ctx *w)
{
	const struct bpfrr_walk_src src = { .read = src_read, .fd_facts = src_fd_facts,
					    .value_layout = src_value_layout, .ctx = w };

	return bpfrr_walk_env_init(we, &src, w->phase, w->s->nr_cpus, w->c->attr, w->c->attr_len);
}

static int on_fd(void *arg, const struct bpfrr_abi_fd_ref *ref)
{
	struct walk_ctx *w = arg;

	if (ref->fd >= 0)
		rec_fd_resolve(w->s, w->t, ref->fd, w->c->seq);
	return 0;
}

static int on_buf(void *arg, const struct bpfrr_abi_buf *buf)
{
	struct walk_ctx *w = arg;
	struct bpfrr_trace_region reg = {
		.phase = w->phase,
		.dir = buf->dir,
		.content = buf->content,
		.flags = buf->flags & (BPFRR_REGION_TRUNCATED | BPFRR_REGION_LEN_UNKNOWN | BPFRR_REGION_NO_NUL),
		.addr = buf->addr,
		.len = buf->len,
		.want_len = buf->want_len > buf->len ? buf->want_len : buf->len,
		.path = buf->path,
	};

	if (buf->flags & BPFRR_ABI_BUF_LEN_UNKNOWN)
		return rec_call_add_bytes(w->s, w->c, &reg, NULL, 0, false) == -ENOMEM ? -ENOMEM : 0;
	/* keep ENTRY bytes: the EXIT walk reads capacities and nested pointers from them */
	rec_call_capture(w->s, w->t, w->c, &reg, w->phase == BPFRR_PHASE_ENTRY);
	return 0;
}

/*
 * The common attrs at this phase: a region named "common_attr" whose addr and
 * want_len are the 4th and 5th arguments (so a trace holds them), the bytes
 * (up to a page, as the kernel's own limit) kept for the log's walk.
 */
static uint8_t *capture_common(struct rec_session *s, struct rec_task *t, struct rec_call *c,
			       enum bpfrr_phase phase)
{
	uint64_t want = (uint32_t)c->args[4];
	struct bpfrr_trace_region reg = {
		.phase = phase,
		.dir = BPFRR_DIR_INOUT,
		.content = BPFRR_CONTENT_COMMON_ATTR,
		.addr = c->args[3],
		.len = want > ATTR_MAX ? ATTR_MAX : want,
		.want_len = want,
		.flags = want > ATTR_MAX ? BPFRR_REGION_TRUNCATED : 0,
		.path = "common_attr",
	};
	uint8_t *bytes = NULL;

	c->common_len = (uint32_t)reg.len;
	if (reg.len && reg.addr && (bytes = calloc(1, reg.len)) &&
	    rec_mem_read(t->tid, reg.addr, bytes, reg.len)) {
		free(bytes);
		bytes = NULL;
	}
	if (bytes)
		rec_call_add_bytes(s, c, &reg, bytes, reg.len, false);
	else
		rec_call_capture(s, t, c, &reg, false);	/* an unreadable region, with its errno */
	return bytes;
}

bool rec_bpf_enter(struct rec_session *s, struct rec_task *t, struct rec_call *c)
{
	struct walk_ctx w = { s, t, c, BPFRR_PHASE_ENTRY };
	const struct bpfrr_abi_env *env;
	struct bpfrr_walk_env we;
	uint64_t addr = c->args[1];
	int err;

	c->seq = ++s->next_seq;
	c->cmd = (int)c->args[0];
	if (c->cmd & BPFRR_ABI_COMMON_ATTRS) {
		c->common = true;
		c->cmd &= ~(int)BPFRR_ABI_COMMON_ATTRS;
		c->common_entry = capture_common(s, t, c, BPFRR_PHASE_ENTRY);
	}
	c->attr_size = (uint32_t)c->args[2];
	c->attr_len = c->attr_size > ATTR_MAX ? ATTR_MAX : c->attr_size;
	c->attr = calloc(1, c->attr_len ? c->attr_len : 1);
	if (!c->attr) {
		c->attr_len = 0;
		c->attr_unreadable = true;
	} else if (c->attr_len && rec_mem_read(t->tid, addr, c->attr, c->attr_len)) {
		/* the kernel will answer EFAULT; record the call all the same */
		c->attr_len = 0;
		c->attr_unreadable = true;
	}
	if (c->attr_unreadable || !bpfrr_abi_cmd(c->cmd))
		return true;

	env = init_env(&we, &w);
	err = bpfrr_abi_walk_fds(c->cmd, c->attr, c->attr_len, env, on_fd, &w);
	if (err && err != -EFAULT)
		rec_note(s, BPFRR_NOTE_WARNING, c->seq, t->tid, "walking the fds of the call failed: %s",
			 strerror(err < 0 ? -err : err));
	err = bpfrr_abi_walk(c->cmd, c->attr, c->attr_len, BPFRR_PHASE_ENTRY, env, on_buf, &w);
	if (err)
		rec_note(s, BPFRR_NOTE_WARNING, c->seq, t->tid,
			 "capturing the entry buffers of the call failed: %s", strerror(err < 0 ? -err : err));
	return true;
}

/* What the call's new fd refers to, from its attr (before any identity query). */
static void new_fd_entry(struct rec_task *t, struct rec_call *c, struct rec_fd *val)
{
	char *link;

	memset(val, 0, sizeof(*val));
	val->kind = bpfrr_abi_cmd_ret_kind(c->cmd, c->attr, c->attr_len);
	val->origin = REC_FD_FROM_BPF;
	val->cloexec = true;	/* every fd bpf() returns is O_CLOEXEC */
	val->obj_seq = c->seq;
	if (val->kind == BPFRR_OBJ_ANY || val->kind == BPFRR_OBJ_NONE) {
		/* BPF_OBJ_GET: whatever the pin was */
		link = rec_proc_fd_path(t->tid, (int)c->ret);
		val->kind = rec_kind_from_link(link, t->tid, (int)c->ret);
		free(link);
	}
	/* what the creating attr says (MAP_CREATE: type, sizes, name; PROG_LOAD: type, name) */
	bpfrr_obj_facts_from_attr(&val->facts, c->cmd, c->attr, c->attr_len);
}

void rec_bpf_exit(struct rec_session *s, struct rec_task *t, struct rec_call *c)
{
	const struct bpfrr_cmd_desc *desc = bpfrr_abi_cmd(c->cmd);
	struct walk_ctx w = { s, t, c, BPFRR_PHASE_EXIT };
	struct bpfrr_rec_bpf_call rec;
	struct bpfrr_trace_region *regions = NULL;
	struct bpfrr_walk_env we;
	struct rec_fd val, *e;
	bool new_fd;
	size_t i;
	int err;

	if (c->exited && desc && !c->attr_unreadable) {
		if (desc->writes_attr && c->attr_len) {
			c->attr_exit = malloc(c->attr_len);
			if (c->attr_exit && rec_mem_read(t->tid, c->args[1], c->attr_exit, c->attr_len)) {
				free(c->attr_exit);
				c->attr_exit = NULL;
			}
		}
		err = bpfrr_abi_walk(c->cmd, c->attr_exit ? c->attr_exit : c->attr, c->attr_len,
				     BPFRR_PHASE_EXIT, init_env(&we, &w), on_buf, &w);
		if (err)
			rec_note(s, BPFRR_NOTE_WARNING, c->seq, t->tid,
				 "capturing the exit buffers of the call failed: %s",
				 strerror(err < 0 ? -err : err));
	}
	if (c->exited && c->common) {
		/* the log the kernel wrote, as much as log_true_size says (within log_size) */
		c->common_exit = capture_common(s, t, c, BPFRR_PHASE_EXIT);
		if (c->common_exit)
			bpfrr_abi_walk_common(c->common_exit, c->common_len, c->common_entry,
					      c->common_entry ? c->common_len : 0, BPFRR_PHASE_EXIT,
					      init_env(&we, &w), on_buf, &w);
	}

	{
		uint64_t t0 = rec_now_ns();

		rec_symbols_bpf(s, t, c, init_env(&we, &w));
		s->times.symbols += rec_now_ns() - t0;
	}
	memset(&rec, 0, sizeof(rec));
	rec.seq = c->seq;
	rec.tid = t->tid;
	rec.cmd = (uint32_t)c->cmd;
	rec.attr_addr = c->args[1];
	rec.attr_size = c->attr_size;
	rec.flags = (c->exited ? 0 : BPFRR_CALL_NO_EXIT) | (c->common ? BPFRR_CALL_COMMON_ATTRS : 0) |
		    (c->attr_unreadable ? BPFRR_CALL_ATTR_UNREADABLE : 0) |
		    (!c->attr_unreadable && c->attr_len < c->attr_size ? BPFRR_CALL_ATTR_TRUNCATED : 0);
	rec.ret = c->exited ? c->ret : 0;
	rec.t_enter_ns = c->t_enter_ns;
	rec.t_exit_ns = c->exited ? c->t_exit_ns : 0;
	rec.attr_len = c->attr_len;
	rec.attr = c->attr;
	rec.attr_exit_len = c->attr_exit ? c->attr_len : 0;
	rec.attr_exit = c->attr_exit;
	if (c->nr_regions) {
		regions = calloc(c->nr_regions, sizeof(*regions));
		if (!regions) {
			rec_write_failed(s, -ENOMEM);
			return;
		}
		for (i = 0; i < c->nr_regions; i++)
			regions[i] = c->regions[i].r;
	}
	rec.nr_regions = c->nr_regions;
	rec.regions = regions;
	err = bpfrr_trace_write_bpf_call(s->w, &rec);
	free(regions);
	if (err)
		rec_write_failed(s, err);
	s->bpf_calls++;
	if (s->opt->verbose) {
		const char *name = bpfrr_abi_cmd_name(c->cmd);
		char cmd[32];

		if (!name) {
			snprintf(cmd, sizeof(cmd), "cmd %d", c->cmd);
			name = cmd;
		}
		if (c->exited)
			fprintf(stderr, "bpfrr record: #%llu task %d bpf(%s) = %lld (%llu us)\n",
				(unsigned long long)c->seq, (int)t->tid, name, (long long)c->ret,
				(unsigned long long)(c->t_exit_ns - c->t_enter_ns) / 1000);
		else
			fprintf(stderr, "bpfrr record: #%llu task %d bpf(%s) did not return\n",
				(unsigned long long)c->seq, (int)t->tid, name);
	}

	new_fd = c->exited && c->ret >= 0 && desc && desc->ret_kind != BPFRR_OBJ_NONE;
	if (!new_fd)
		return;
	new_fd_entry(t, c, &val);
	e = rec_fdtab_set(t->fdtab, (int)c->ret, &val);
	if (!e)
		return;
	rec_emit_fd(s, t, c->seq, BPFRR_FD_NEW, (int)c->ret, -1, e);
	if (e->kind == BPFRR_OBJ_MAP || e->kind == BPFRR_OBJ_PROG || e->kind == BPFRR_OBJ_BTF ||
	    e->kind == BPFRR_OBJ_LINK)
		rec_identity_query(s, t, c->seq, (int)c->ret, e);
}

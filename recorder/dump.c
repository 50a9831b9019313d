// SPDX-License-Identifier: GPL-2.0-only
/*
 * dump.c - bpfrr dump: the audit of a trace.
 *
 * Every call in file order with every attr field by name (through the one
 * ABI table, lib/bpf_abi.h), the buffers the call read and wrote, the fds
 * it used resolved to the objects they referred to at that moment, the
 * result, and the identity the recorder took of created objects.  Text for
 * people, JSON Lines (docs/dump-json.md) for jq, a summary, or a graph.
 *
 * This file is the walk: two passes over the trace, the first collects what
 * is recorded after the call it belongs to (the recorder's OBJECT
 * identities, NOTEs); the second replays TASK and FD_EVENT records to know
 * every fd table at every call, counts, filters, and hands each record to
 * the printer chosen once for the run (dump_print.h).  Identities, the fd
 * model, creator facts and the walker's view of a call are lib/resolved.h's,
 * shared with the translator.
 */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf_abi.h"
#include "bpfrr.h"
#include "dump.h"
#include "dump_print.h"
#include "fdmodel.h"
#include "loader_decode.h"
#include "resolved.h"
#include "sha256.h"
#include "trace.h"
#include "u64map.h"

/* --- objects and fd tables (lib/resolved.h, lib/fdmodel.h) ---------------------------- */

/* Something an fd referred to: the fd model's object and what dump shows of it. */
struct object {
	struct bpfrr_fdm_obj base;	/* origin, kind; must be first */
	const char *made_by;	/* "BPF_MAP_CREATE", "perf_event_open", ... (static or trace memory) */
	const struct bpfrr_rec_object *ident;	/* the recorder's identity, or NULL */
};

struct dump {
	struct bpfrr_trace_reader *r;
	const struct bpfrr_dump_opts *o;
	const struct bpfrr_trace_header *hdr;
	FILE *err;
	struct dump_out out;	/* the printer of the run and where it writes */

	struct bpfrr_rt *rt;		/* identities, objects and every task's fd table */
	struct bpfrr_u64map notes;	/* seq -> index+1 of the first note in notes_list */
	struct bpfrr_rec_note *notes_list;
	size_t nr_notes, cap_notes;

	/* the call being printed */
	const struct bpfrr_rec_bpf_call *call;
	const struct bpfrr_rec_syscall *sys;
	struct bpfrr_rt_call cur;	/* the same, as the resolved trace sees it */
	uint32_t tid;
	bool *region_done;
	size_t region_done_cap;

	/* summary */
	struct dump_counter cmd_counts[BPFRR_ABI_NR_CMDS + 1];	/* last: unknown commands */
	struct dump_counter *sys_counts;
	size_t nr_sys_counts, cap_sys_counts;
	uint64_t created[BPFRR_OBJ__MAX + 1];
	uint64_t nr_bpf, nr_sys, nr_failed, nr_tasks, nr_notes_total;
	struct dump_failure *failures;
	size_t nr_failures, cap_failures;
	bool have_end;
	struct bpfrr_rec_end end;

	/* the values array maps got at key 0: a light skeleton's blob is one */
	struct map_value {
		uint64_t map_seq, update_seq;
		const void *data;	/* in the reader's blobs */
		uint64_t len;
	} *map_values;
	size_t nr_map_values, cap_map_values;
	bool oom;
	uint64_t contradiction_seq;	/* the first fd event that contradicts its call, or 0 */
};

/* A new object of the model: attach the recorder's identity of it. */
static void init_object(void *ctx, struct bpfrr_fdm_obj *base)
{
	struct object *obj = (struct object *)base;
	struct dump *d = ctx;

	if (base->origin)
		obj->ident = bpfrr_rt_identity(d->rt, base->origin);
}

/* The object made by call origin (created on first mention). */
static struct object *object_of(struct dump *d, uint64_t origin, uint32_t kind)
{
	struct object *obj = (struct object *)bpfrr_fdm_object(bpfrr_rt_fdm(d->rt), origin, kind);

	if (!obj)
		d->oom = true;
	return obj;
}

static struct object *fd_object(struct dump *d, uint32_t tid, int fd)
{
	return (struct object *)bpfrr_fdm_lookup(bpfrr_rt_fdm(d->rt), tid, fd);
}

static void apply_task(struct dump *d, const struct bpfrr_rec_task *t)
{
	if (t->event == BPFRR_TASK_START || t->event == BPFRR_TASK_THREAD || t->event == BPFRR_TASK_FORK)
		d->nr_tasks++;
	if (bpfrr_rt_task(d->rt, t))
		d->oom = true;
}

static void apply_fd_event(struct dump *d, const struct bpfrr_rec_fd_event *e)
{
	struct object *obj;

	int ret = bpfrr_rt_fd_event(d->rt, e);

	if (ret == -EBADMSG) {
		/* shown as recorded, and the trace called what it is at the end (exit 2) */
		if (!d->contradiction_seq)
			d->contradiction_seq = e->seq;
		ret = bpfrr_fdm_fd_event(bpfrr_rt_fdm(d->rt), e);
	}
	if (ret) {
		d->oom = true;
		return;
	}
	obj = e->op == BPFRR_FD_ADOPT ? fd_object(d, e->tid, e->fd) : NULL;
	if (obj && !obj->made_by)
		obj->made_by = "adopted";
}

/* Tracee memory at a phase, as far as the regions of the call being printed captured it. */
static int read_phase(struct dump *d, int phase, uint64_t addr, void *buf, size_t len)
{
	return bpfrr_rt_read_mem(d->rt, &d->cur, phase, addr, buf, len);
}

/* --- what the printers see of the model (dump_print.h) --------------------------------- */

bool dump_fd_object(const struct dump_out *o, int fd, struct dump_obj *view)
{
	struct dump *d = o->walk;
	const struct object *obj;
	const struct bpfrr_rec_object *id;

	if (o->inner)
		return dump_inner_fd_object(o->inner, fd, view);
	obj = fd_object(d, d->tid, fd);
	if (!obj)
		return false;
	id = obj->ident;
	view->inner = 0;
	view->kind = obj->base.kind;
	view->origin = obj->base.origin;
	view->name = bpfrr_rt_obj_name(d->rt, &obj->base);
	view->made_by = obj->made_by;
	view->has_id = id && !(id->flags & BPFRR_OBJECT_F_QUERY_FAILED);
	view->id = view->has_id ? id->id : 0;
	view->handle = obj;
	return true;
}

uint64_t dump_obj_closed_by(const struct dump_out *o, uint64_t origin)
{
	const struct bpfrr_fdm_obj *obj = bpfrr_fdm_find(bpfrr_rt_fdm(o->walk->rt), origin);

	return obj ? obj->close_seq : 0;
}

const struct bpfrr_rec_kernel *dump_kernel(const struct dump_out *o)
{
	return bpfrr_rt_kernel(o->walk->rt);
}

const struct bpfrr_rec_symbol *dump_symbol(const struct dump_out *o, uint32_t kind, uint64_t value,
					   const char *module)
{
	return bpfrr_rt_symbol(o->walk->rt, kind, value, module);
}

int dump_read_entry(const struct dump_out *o, uint64_t addr, void *buf, size_t len)
{
	if (o->inner)
		return dump_inner_read(o->inner, addr, buf, len);
	return read_phase(o->walk, BPFRR_PHASE_ENTRY, addr, buf, len);
}

/* *pos: 0 before the first, else 1 + the index in notes_list to look at next */
const char *dump_next_note(const struct dump_out *o, uint64_t seq, size_t *pos)
{
	const struct dump *d = o->walk;
	uint64_t first;
	size_t i;

	if (!*pos) {
		if (!seq || !bpfrr_u64map_get(&d->notes, seq, &first))
			return NULL;
		*pos = (size_t)first;
	}
	for (i = *pos - 1; i < d->nr_notes; i++) {
		if (d->notes_list[i].seq == seq) {
			*pos = i + 2;
			return d->notes_list[i].text;
		}
	}
	*pos = d->nr_notes + 1;
	return NULL;
}

/* --- calls ------------------------------------------------------------------------------- */

static bool filter_tid(const struct dump *d, uint32_t tid)
{
	return !d->o->has_tid || d->o->tid == tid;
}

static bool filter_bpf(const struct dump *d, const struct bpfrr_rec_bpf_call *c)
{
	int i;

	if (!filter_tid(d, c->tid))
		return false;
	if (!d->o->nr_cmds && !d->o->nr_syscalls)
		return true;
	for (i = 0; i < d->o->nr_cmds; i++)
		if ((uint32_t)d->o->cmds[i] == c->cmd)
			return true;
	return false;
}

static bool filter_sys(const struct dump *d, const struct bpfrr_rec_syscall *s)
{
	int i;

	if (!filter_tid(d, s->tid))
		return false;
	if (!d->o->nr_cmds && !d->o->nr_syscalls)
		return true;
	for (i = 0; i < d->o->nr_syscalls; i++)
		if (!strcmp(d->o->syscalls[i], s->name))
			return true;
	return false;
}

/* the command's name, NULL for one this version does not know */
static const char *cmd_name(uint32_t cmd)
{
	return dump_cmd_name(cmd);
}

static bool ensure_region_done(struct dump *d, uint32_t nr)
{
	if (nr > d->region_done_cap) {
		bool *p = realloc(d->region_done, nr * sizeof(bool));

		if (!p) {
			d->oom = true;
			return false;
		}
		d->region_done = p;
		d->region_done_cap = nr;
	}
	if (nr)
		memset(d->region_done, 0, nr * sizeof(bool));
	return true;
}

static void note_failure(struct dump *d, uint64_t seq, uint32_t tid, const char *what, uint32_t cmd,
			 int64_t ret, uint32_t flags)
{
	struct dump_failure *f;

	if (d->nr_failures == d->cap_failures) {
		size_t cap = d->cap_failures ? d->cap_failures * 2 : 16;

		f = realloc(d->failures, cap * sizeof(*f));
		if (!f) {
			d->oom = true;
			return;
		}
		d->failures = f;
		d->cap_failures = cap;
	}
	f = &d->failures[d->nr_failures++];
	f->seq = seq;
	f->tid = tid;
	f->what = what;
	f->cmd = cmd;
	f->err = flags & BPFRR_CALL_NO_EXIT ? 0 : bpfrr_trace_ret_errno(ret);
	f->reason = NULL;
}

/* A failed bpf() call's reason: the last meaningful line of a log it had the kernel write. */
static void note_failure_reason(struct dump *d, const struct bpfrr_rec_bpf_call *c)
{
	struct dump_failure *f = d->nr_failures ? &d->failures[d->nr_failures - 1] : NULL;
	char line[512];
	uint32_t i;

	if (!f || f->seq != c->seq)
		return;
	for (i = 0; i < c->nr_regions; i++) {
		const struct bpfrr_trace_region *r = &c->regions[i];
		const struct bpfrr_rec_blob *b;

		if (r->phase != BPFRR_PHASE_EXIT || r->content != BPFRR_CONTENT_LOG || !r->blob ||
		    !(b = bpfrr_trace_blob(d->r, r->blob)) ||
		    !dump_log_reason(b->data, b->len, line, sizeof(line)))
			continue;
		free(f->reason);
		f->reason = strdup(line);
		if (!f->reason)
			d->oom = true;
	}
}

static void count_cmd(struct dump *d, uint32_t cmd, bool failed)
{
	struct dump_counter *c = &d->cmd_counts[cmd < (uint32_t)BPFRR_ABI_NR_CMDS ? cmd : BPFRR_ABI_NR_CMDS];

	c->calls++;
	c->failed += failed;
}

/* What a successful call made: register the object so later fds resolve. */
static void note_created(struct dump *d, const struct bpfrr_rec_bpf_call *c, uint32_t kind)
{
	struct object *obj;
	int err;

	d->created[kind < BPFRR_OBJ__MAX ? kind : BPFRR_OBJ__MAX]++;
	obj = (struct object *)bpfrr_rt_call_result(d->rt, &d->cur, &err);
	if (err)
		d->oom = true;
	if (obj)
		obj->made_by = cmd_name(c->cmd);
}

/* --- light skeletons: the loader program and its blob (lib/loader_decode.h) ------------- */

/* The bytes the call passed in the buffer at path, or NULL. */
static const void *entry_buffer(struct dump *d, const struct bpfrr_rec_bpf_call *c, const char *path, uint64_t *len)
{
	uint32_t i;

	for (i = 0; i < c->nr_regions; i++) {
		const struct bpfrr_trace_region *reg = &c->regions[i];
		const struct bpfrr_rec_blob *b;

		if (reg->phase != BPFRR_PHASE_ENTRY || strcmp(reg->path, path) || !reg->blob)
			continue;
		b = bpfrr_trace_blob(d->r, reg->blob);
		if (!b)
			return NULL;
		*len = b->len;
		return b->data;
	}
	return NULL;
}

/* Is attr field name of cmd the UAPI value uapi? */
static bool attr_is(const struct bpfrr_rec_bpf_call *c, const char *name, const char *uapi)
{
	const struct bpfrr_field *f = bpfrr_abi_cmd_field((int)c->cmd, name);
	uint64_t want;

	return f && f->xlat && f->offset + f->size <= c->attr_len && !bpfrr_abi_xlat_value(f->xlat, uapi, &want) &&
	       bpfrr_abi_field_get(f, c->attr, c->attr_len) == want;
}

/* A successful BPF_MAP_UPDATE_ELEM of key 0 of an array map: the value, which may be a blob. */
static void note_map_value(struct dump *d, const struct bpfrr_rec_bpf_call *c)
{
	const struct bpfrr_field *f = bpfrr_abi_cmd_field(BPFRR_CMD_MAP_UPDATE_ELEM, "map_fd");
	const struct bpfrr_obj_facts *facts;
	const struct map_value *mv = NULL;
	const struct object *obj;
	const void *key, *value;
	uint64_t key_len, value_len;
	uint32_t zero = 0;
	size_t i;

	if (c->cmd != BPFRR_CMD_MAP_UPDATE_ELEM || c->ret != 0 || (c->flags & BPFRR_CALL_NO_EXIT) || !f ||
	    f->offset + f->size > c->attr_len)
		return;
	obj = fd_object(d, c->tid, (int32_t)bpfrr_abi_field_get(f, c->attr, c->attr_len));
	if (!obj || obj->base.kind != BPFRR_OBJ_MAP || !obj->base.origin)
		return;
	facts = bpfrr_rt_made(d->rt, obj->base.origin);
	key = entry_buffer(d, c, "attr.key", &key_len);
	value = entry_buffer(d, c, "attr.value", &value_len);
	if (!facts || !facts->has_type || !key || key_len != 4 || memcmp(key, &zero, 4) || !value)
		return;
	{
		const struct bpfrr_field *tf = bpfrr_abi_cmd_field(BPFRR_CMD_MAP_CREATE, "map_type");
		uint64_t array;

		if (!tf || bpfrr_abi_xlat_value(tf->xlat, "BPF_MAP_TYPE_ARRAY", &array) || facts->type != array)
			return;
	}
	for (i = 0; i < d->nr_map_values; i++)
		if (d->map_values[i].map_seq == obj->base.origin)
			mv = &d->map_values[i];
	if (!mv) {
		if (d->nr_map_values == d->cap_map_values) {
			size_t cap = d->cap_map_values ? d->cap_map_values * 2 : 4;
			struct map_value *p = realloc(d->map_values, cap * sizeof(*p));

			if (!p) {
				d->oom = true;
				return;
			}
			d->map_values = p;
			d->cap_map_values = cap;
		}
		mv = &d->map_values[d->nr_map_values++];
	}
	*(struct map_value *)mv = (struct map_value){ obj->base.origin, c->seq, value, value_len };
}

/* The map values a program's instructions load the address of: all of one map, or not a blob. */
struct blob_ref {
	bool any, mixed, by_idx;
	int32_t ref;
};

static int collect_blob_ref(void *arg, const struct bpfrr_insn_ref *r)
{
	struct blob_ref *br = arg;
	bool by_idx;

	if (r->type == BPFRR_INSN_MAP_VALUE || r->type == BPFRR_INSN_MAP_IDX_VALUE) {
		by_idx = r->type == BPFRR_INSN_MAP_IDX_VALUE;
		if (br->any && (br->by_idx != by_idx || br->ref != r->value))
			br->mixed = true;
		br->any = true;
		br->by_idx = by_idx;
		br->ref = r->value;
	} else {
		br->mixed = true;	/* gen_loader's program names no other map, BTF or kfunc */
	}
	return 0;
}

/*
 * A BPF_PROG_LOAD of a syscall program that starts as gen_loader's do: decode it with
 * the blob its instructions name (the value that map got at key 0).  Sets dc->loader,
 * or dc->loader_why; leaves both NULL for any other program.
 */
static void decode_loader(struct dump *d, const struct bpfrr_rec_bpf_call *c, struct dump_call *dc)
{
	struct blob_ref br = { 0 };
	const struct map_value *mv = NULL;
	const struct object *obj;
	struct bpfrr_lskel *ld;
	const void *insns;
	uint64_t len;
	int32_t fd;
	size_t i;

	if (c->cmd != BPFRR_CMD_PROG_LOAD || !attr_is(c, "prog_type", "BPF_PROG_TYPE_SYSCALL"))
		return;
	insns = entry_buffer(d, c, "attr.insns", &len);
	if (!insns || !bpfrr_lskel_looks_generated(insns, len / BPFRR_INSN_SIZE))
		return;
	bpfrr_abi_insn_refs(insns, len / BPFRR_INSN_SIZE, collect_blob_ref, &br, NULL);
	if (!br.any || br.mixed) {
		dc->loader_why = br.any ? "its instructions refer to more than the one map of a blob"
					: "its instructions refer to no map value";
		return;
	}
	fd = br.ref;
	if (br.by_idx) {
		const struct bpfrr_field *f = bpfrr_abi_cmd_field(BPFRR_CMD_PROG_LOAD, "fd_array");
		uint64_t fd_array = f ? bpfrr_abi_field_get(f, c->attr, c->attr_len) : 0;

		if (!fd_array || br.ref < 0 ||
		    read_phase(d, BPFRR_PHASE_ENTRY, fd_array + 4ull * (uint32_t)br.ref, &fd, 4)) {
			dc->loader_why = "the fd_array slot of its blob map was not recorded";
			return;
		}
	}
	obj = fd_object(d, c->tid, fd);
	for (i = 0; obj && i < d->nr_map_values; i++)
		if (d->map_values[i].map_seq == obj->base.origin)
			mv = &d->map_values[i];
	if (!mv) {
		dc->loader_why = "no value of the map it refers to was recorded before (the blob is unknown)";
		return;
	}
	if (bpfrr_lskel_decode(insns, len / BPFRR_INSN_SIZE, mv->data, mv->len, br.by_idx, br.ref, &ld)) {
		d->oom = true;
		return;
	}
	dc->loader = ld;
	dc->loader_map_seq = mv->map_seq;
	dc->loader_update_seq = mv->update_seq;
	dc->loader_blob_len = (uint32_t)mv->len;
}

static void dump_bpf_call(struct dump *d, const struct bpfrr_rec_bpf_call *c)
{
	bool shown = filter_bpf(d, c), failed = bpfrr_trace_ret_errno(c->ret) != 0;
	enum bpfrr_obj_kind kind = BPFRR_OBJ_NONE;
	struct dump_call dc = {
		.bpf = c, .regions = c->regions, .nr_regions = c->nr_regions, .failed = failed,
		.made_kind = BPFRR_OBJ_NONE,
	};
	struct bpfrr_rt_walk walk;	/* dc.env's context: lives as long as dc */
	bool made;

	d->call = c;
	d->sys = NULL;
	bpfrr_rt_call_bpf(&d->cur, c);
	d->tid = c->tid;
	d->nr_bpf++;
	d->nr_failed += failed || (c->flags & BPFRR_CALL_NO_EXIT);
	count_cmd(d, c->cmd, failed || (c->flags & BPFRR_CALL_NO_EXIT));
	if ((failed || (c->flags & BPFRR_CALL_NO_EXIT)) && filter_bpf(d, c)) {
		note_failure(d, c->seq, c->tid, cmd_name(c->cmd), c->cmd, c->ret, c->flags);
		note_failure_reason(d, c);
	}
	dc.env = *bpfrr_rt_walk_env(&walk, d->rt, &d->cur, BPFRR_PHASE_ENTRY);
	if (c->cmd < (uint32_t)BPFRR_ABI_NR_CMDS)
		kind = bpfrr_abi_cmd_ret_kind((int)c->cmd, c->attr, c->attr_len);
	made = kind != BPFRR_OBJ_NONE && !failed && !(c->flags & BPFRR_CALL_NO_EXIT);

	if (shown && d->out.p->bpf_call && ensure_region_done(d, c->nr_regions)) {
		if (made) {
			dc.made_kind = kind;
			dc.ident = bpfrr_rt_identity(d->rt, c->seq);
		}
		dc.region_done = d->region_done;
		decode_loader(d, c, &dc);
		d->out.p->bpf_call(&d->out, &dc);
		bpfrr_lskel_free((struct bpfrr_lskel *)dc.loader);
	}
	note_map_value(d, c);
	d->call = NULL;
	if (made)
		note_created(d, c, kind);
	memset(&d->cur, 0, sizeof(d->cur));
}

static void count_syscall(struct dump *d, const char *name, bool failed)
{
	size_t i;

	for (i = 0; i < d->nr_sys_counts; i++)
		if (!strcmp(d->sys_counts[i].name, name))
			break;
	if (i == d->nr_sys_counts) {
		if (i == d->cap_sys_counts) {
			size_t cap = i ? i * 2 : 8;
			struct dump_counter *p = realloc(d->sys_counts, cap * sizeof(*p));

			if (!p) {
				d->oom = true;
				return;
			}
			d->sys_counts = p;
			d->cap_sys_counts = cap;
		}
		d->sys_counts[i].name = name;
		d->sys_counts[i].calls = d->sys_counts[i].failed = 0;
		d->nr_sys_counts++;
	}
	d->sys_counts[i].calls++;
	d->sys_counts[i].failed += failed;
}

static void dump_syscall(struct dump *d, const struct bpfrr_rec_syscall *s)
{
	bool failed = bpfrr_trace_ret_errno(s->ret) != 0 || (s->flags & BPFRR_CALL_NO_EXIT);
	struct dump_call dc = {
		.sys = s, .regions = s->regions, .nr_regions = s->nr_regions,
		.failed = bpfrr_trace_ret_errno(s->ret) != 0, .made_kind = BPFRR_OBJ_NONE,
	};

	d->call = NULL;
	d->sys = s;
	bpfrr_rt_call_sys(&d->cur, s);
	d->tid = s->tid;
	d->nr_sys++;
	count_syscall(d, s->name, failed);
	if (failed && filter_sys(d, s))
		note_failure(d, s->seq, s->tid, s->name, 0, s->ret, s->flags);
	/* the object an fd-returning syscall makes is named after it */
	if (!failed) {
		struct object *obj = object_of(d, s->seq, BPFRR_OBJ_NONE);

		if (obj)
			obj->made_by = s->name;
	}
	if (filter_sys(d, s) && d->out.p->syscall && ensure_region_done(d, s->nr_regions)) {
		dc.region_done = d->region_done;
		d->out.p->syscall(&d->out, &dc);
	}
	d->sys = NULL;
	memset(&d->cur, 0, sizeof(d->cur));
}

/* --- other records --------------------------------------------------------------------- */

static void dump_task(struct dump *d, const struct bpfrr_rec_task *t)
{
	apply_task(d, t);
	if (d->out.p->task && filter_tid(d, t->tid))
		d->out.p->task(&d->out, t);
}

static void dump_note(struct dump *d, const struct bpfrr_rec_note *n)
{
	d->nr_notes_total++;
	if (d->out.p->note && (!n->tid || filter_tid(d, n->tid)))
		d->out.p->note(&d->out, n);
}

static void dump_elf(struct dump *d, const struct bpfrr_rec_elf *e)
{
	if (d->out.p->elf && (!e->tid || filter_tid(d, e->tid)))
		d->out.p->elf(&d->out, e, bpfrr_trace_blob(d->r, e->blob));
}

/* -v: records that are not calls */
static void dump_other_record(struct dump *d, const struct bpfrr_trace_record *rec)
{
	if (!d->o->verbose || !d->out.p->record)
		return;
	switch (rec->type) {
	case BPFRR_REC_FD_EVENT:
		if (!filter_tid(d, rec->fd_event.tid))
			return;
		break;
	case BPFRR_REC_OBJECT:
		if (!filter_tid(d, rec->object.tid))
			return;
		break;
	case BPFRR_REC_END:
	case BPFRR_REC_TASK:
	case BPFRR_REC_BPF_CALL:
	case BPFRR_REC_SYSCALL:
	case BPFRR_REC_NOTE:
	case BPFRR_REC_ELF:
		return;
	default:
		break;	/* blobs, and records this version does not know */
	}
	d->out.p->record(&d->out, rec);
}

static void print_summary(struct dump *d, const char *name)
{
	struct dump_summary s = {
		.cmd_counts = d->cmd_counts,
		.sys_counts = d->sys_counts,
		.nr_sys_counts = d->nr_sys_counts,
		.created = d->created,
		.nr_bpf = d->nr_bpf,
		.nr_sys = d->nr_sys,
		.nr_failed = d->nr_failed,
		.nr_tasks = d->nr_tasks,
		.failures = d->failures,
		.nr_failures = d->nr_failures,
		.end = d->have_end ? &d->end : NULL,
	};

	d->out.p->summary(&d->out, name, &s);
}

/* What the run produces, chosen once from the options. */
static const struct dump_printer *printer_for(const struct bpfrr_dump_opts *o)
{
	if (o->summary)
		return o->json ? &dump_summary_json_printer : &dump_summary_text_printer;
	if (o->dot)
		return &dump_dot_printer;
	return o->json ? &dump_jsonl_printer : &dump_text_printer;
}

/* --- the passes ---------------------------------------------------------------------------- */

/* Pass 1 (with the identities, bpfrr_rt_collect()): notes, which follow the calls they belong to. */
static int collect_note(void *arg, const struct bpfrr_trace_record *rec)
{
	struct dump *d = arg;

	if (rec->type != BPFRR_REC_NOTE || !rec->note.seq)
		return 0;
	if (d->nr_notes == d->cap_notes) {
		size_t cap = d->cap_notes ? d->cap_notes * 2 : 16;
		struct bpfrr_rec_note *p = realloc(d->notes_list, cap * sizeof(*p));

		if (!p)
			return BPFRR_TRACE_NOMEM;
		d->notes_list = p;
		d->cap_notes = cap;
	}
	d->notes_list[d->nr_notes++] = rec->note;
	if (!bpfrr_u64map_get(&d->notes, rec->note.seq, NULL) &&
	    bpfrr_u64map_put(&d->notes, rec->note.seq, d->nr_notes))
		return BPFRR_TRACE_NOMEM;
	return 0;
}

static void dump_free(struct dump *d)
{
	bpfrr_rt_free(d->rt);
	bpfrr_u64map_free(&d->notes);
	free(d->notes_list);
	free(d->sys_counts);
	for (size_t i = 0; i < d->nr_failures; i++)
		free(d->failures[i].reason);
	free(d->failures);
	free(d->region_done);
	free(d->map_values);
}

int bpfrr_dump_trace(struct bpfrr_trace_reader *r, const struct bpfrr_dump_opts *opts, FILE *out, FILE *err)
{
	struct dump d = { .r = r, .o = opts, .err = err };
	const struct dump_printer *p = printer_for(opts);
	struct bpfrr_trace_record rec;
	const char *name;
	int status, ret;

	d.hdr = bpfrr_trace_header(r);
	d.out = (struct dump_out){ .f = out, .opts = opts, .hdr = d.hdr, .r = r, .p = p, .walk = &d };
	if (p->begin)
		p->begin(&d.out);
	for (int i = 0; i < BPFRR_ABI_NR_CMDS; i++)
		d.cmd_counts[i].name = cmd_name(i);

	name = bpfrr_trace_name(r);
	d.rt = bpfrr_rt_new(r);
	if (!d.rt || bpfrr_rt_model(d.rt, sizeof(struct object), init_object, &d)) {
		if (p->finish)
			p->finish(&d.out);
		dump_free(&d);
		fprintf(err, "bpfrr dump: out of memory\n");
		return BPFRR_EXIT_FAILURE;
	}
	bpfrr_rt_collect(d.rt, collect_note, &d);

	if (p->header)
		p->header(&d.out, name);
	while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD && !d.oom && !d.out.oom) {
		switch (rec.type) {
		case BPFRR_REC_TASK:
			dump_task(&d, &rec.task);
			break;
		case BPFRR_REC_BPF_CALL:
			dump_bpf_call(&d, &rec.bpf_call);
			break;
		case BPFRR_REC_SYSCALL:
			dump_syscall(&d, &rec.syscall);
			break;
		case BPFRR_REC_FD_EVENT:
			apply_fd_event(&d, &rec.fd_event);
			break;
		case BPFRR_REC_NOTE:
			dump_note(&d, &rec.note);
			break;
		case BPFRR_REC_ELF:
			dump_elf(&d, &rec.elf);
			break;
		case BPFRR_REC_END:
			d.have_end = true;
			d.end = rec.end;
			if (p->end)
				p->end(&d.out, &rec.end);
			break;
		}
		dump_other_record(&d, &rec);
	}
	if (d.oom || d.out.oom)
		status = BPFRR_TRACE_NOMEM;
	if (p->summary && status != BPFRR_TRACE_CORRUPT && status != BPFRR_TRACE_NOMEM)
		print_summary(&d, name);
	fflush(out);
	switch (status) {
	case BPFRR_TRACE_EOF:
		ret = BPFRR_EXIT_OK;
		break;
	case BPFRR_TRACE_TRUNCATED:
		fprintf(err, "bpfrr dump: warning: %s\n", bpfrr_trace_error(r));
		ret = BPFRR_EXIT_TRUNCATED;
		break;
	case BPFRR_TRACE_NOMEM:
		fprintf(err, "bpfrr dump: out of memory\n");
		ret = BPFRR_EXIT_FAILURE;
		break;
	default:
		fprintf(err, "bpfrr dump: %s\n", bpfrr_trace_error(r));
		ret = BPFRR_EXIT_USAGE;
		break;
	}
	if (d.contradiction_seq && ret != BPFRR_EXIT_FAILURE) {
		fprintf(err, "bpfrr dump: %s: the fd event of seq %" PRIu64 " contradicts what that call "
			"returned: not a trace a recorder writes\n", name, d.contradiction_seq);
		ret = BPFRR_EXIT_USAGE;
	}
	if (p->finish)
		p->finish(&d.out);
	dump_free(&d);
	return ret;
}

/* --- command line ----------------------------------------------------------------------- */

static void usage(FILE *f)
{
	fputs("usage: bpfrr dump [OPTIONS] FILE\n"
	      "\n"
	      "Print every call of a trace recorded by 'bpfrr record': the task, the bpf()\n"
	      "command, every attr field by name, the buffers the call read and wrote\n"
	      "(instructions disassembled with map and BTF references resolved, BTF\n"
	      "summarised, strings shown, large buffers by size and SHA-256), the fds it\n"
	      "used and the objects they referred to, the result, the verifier log of a\n"
	      "failed load, the duration, and the identity of each object created; and\n"
	      "the other system calls the load depended on (perf_event_open with its\n"
	      "perf_event_attr field by field, perf ioctls, closes and dups of tracked fds,\n"
	      "opens), with their parameters by name. Under the BPF_PROG_LOAD of a light\n"
	      "skeleton's loader program, the bpf() calls that program will make, decoded\n"
	      "from its instructions and its blob (docs/light-skeletons.md).\n"
	      "\n"
	      "options:\n"
	      "  --format FORMAT     text (the default), json (JSON Lines: one object per call,\n"
	      "                      see docs/dump-json.md), dot (a Graphviz graph of the\n"
	      "                      objects, what they attach to and how they refer to each\n"
	      "                      other) or svg (that graph drawn by Graphviz's dot -Tsvg)\n"
	      "  --json              the same as --format json\n"
	      "  --summary           counts per command, objects created, failures, other syscalls\n"
	      "  --cmd NAME[,NAME]   only these calls: bpf() commands (BPF_PROG_LOAD or prog_load)\n"
	      "                      or other recorded syscalls by name (perf_event_open, ioctl,\n"
	      "                      close, openat, ...)\n"
	      "  --tid N             only calls of task N\n"
	      "  --no-insns          do not disassemble instructions\n"
	      "  -v, --verbose       also blobs, fd events, identities, kernel and symbol records;\n"
	      "                      whole logs and lists; a light skeleton's inner attrs as bytes;\n"
	      "                      in a graph, also the objects made and closed again without\n"
	      "                      relating them to anything (probes)\n"
	      "  -h, --help          this help\n"
	      "\n"
	      "exit status: 0 for a complete trace, 3 for a truncated one (no END record:\n"
	      "every complete record is printed, then a warning), 2 for a corrupt trace or\n"
	      "a usage error.\n", f);
}

static int parse_cmds(struct bpfrr_dump_opts *o, char *list)
{
	char *save = NULL, *name;

	for (name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		int cmd = bpfrr_abi_cmd_by_name(name);

		if (o->nr_cmds + o->nr_syscalls >= DUMP_MAX_FILTERS) {
			fprintf(stderr, "bpfrr dump: --cmd: more than %d names\n", DUMP_MAX_FILTERS);
			return -1;
		}
		if (cmd >= 0) {
			o->cmds[o->nr_cmds++] = cmd;
		} else if (!strncasecmp(name, "BPF_", 4)) {
			fprintf(stderr, "bpfrr dump: --cmd: unknown bpf() command '%s'\n", name);
			return -1;
		} else if (dump_sys_nr_args(name) < 6) {
			o->syscalls[o->nr_syscalls++] = name;
		} else {
			fprintf(stderr, "bpfrr dump: --cmd: '%s' is neither a bpf() command nor a syscall "
				"bpfrr record keeps (%s)\n", name, dump_sys_names());
			return -1;
		}
	}
	return 0;
}

/* Is prog an executable file in one of PATH's directories? */
static bool in_path(const char *prog)
{
	const char *path = getenv("PATH"), *p, *end;
	char file[4096];

	for (p = path && *path ? path : "/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		if (snprintf(file, sizeof(file), "%.*s/%s", (int)(end - p), end > p ? p : ".", prog) <
		    (int)sizeof(file) && !access(file, X_OK))
			return true;
	}
	return false;
}

/* --format svg: the graph through Graphviz's `dot -Tsvg`, which writes to our stdout. */
static int dump_svg(struct bpfrr_trace_reader *r, const struct bpfrr_dump_opts *o)
{
	int fds[2], status, ret;
	FILE *to_dot;
	pid_t pid;

	if (!in_path("dot")) {
		fprintf(stderr, "bpfrr dump: --format svg needs Graphviz's dot in PATH (Debian package graphviz)\n");
		return BPFRR_EXIT_USAGE;
	}
	if (pipe2(fds, O_CLOEXEC)) {
		fprintf(stderr, "bpfrr dump: pipe: %s\n", strerror(errno));
		return BPFRR_EXIT_FAILURE;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "bpfrr dump: fork: %s\n", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return BPFRR_EXIT_FAILURE;
	}
	if (!pid) {
		if (dup2(fds[0], STDIN_FILENO) < 0)
			_exit(126);
		execlp("dot", "dot", "-Tsvg", (char *)NULL);
		fprintf(stderr, "bpfrr dump: dot: %s\n", strerror(errno));
		_exit(127);
	}
	close(fds[0]);
	/* if dot stops reading, its exit status says why; the write error alone is not news */
	signal(SIGPIPE, SIG_IGN);
	to_dot = fdopen(fds[1], "w");
	if (!to_dot) {
		close(fds[1]);
		ret = BPFRR_EXIT_FAILURE;
	} else {
		ret = bpfrr_dump_trace(r, o, to_dot, stderr);
		fclose(to_dot);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "bpfrr dump: dot -Tsvg failed (%s %d)\n",
			WIFSIGNALED(status) ? "signal" : "exit status",
			WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		return BPFRR_EXIT_FAILURE;
	}
	return ret;
}

int bpfrr_dump_main(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "summary", no_argument, NULL, 's' },
		{ "cmd", required_argument, NULL, 'c' },
		{ "tid", required_argument, NULL, 't' },
		{ "no-insns", no_argument, NULL, 'n' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bpfrr_dump_opts o = { 0 };
	struct bpfrr_trace_reader *r;
	char *err = NULL, *end;
	const char *format = "text";
	unsigned long tid;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "vh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "json") && strcmp(optarg, "dot") &&
			    strcmp(optarg, "svg")) {
				fprintf(stderr, "bpfrr dump: --format: '%s' is not text, json, dot or svg\n", optarg);
				return BPFRR_EXIT_USAGE;
			}
			format = optarg;
			break;
		case 'j':
			format = "json";
			break;
		case 's':
			o.summary = true;
			break;
		case 'c':
			if (parse_cmds(&o, optarg))
				return BPFRR_EXIT_USAGE;
			break;
		case 't':
			errno = 0;
			tid = strtoul(optarg, &end, 10);
			if (errno || !*optarg || *end || tid > UINT32_MAX) {
				fprintf(stderr, "bpfrr dump: --tid: '%s' is not a task id\n", optarg);
				return BPFRR_EXIT_USAGE;
			}
			o.has_tid = true;
			o.tid = (uint32_t)tid;
			break;
		case 'n':
			o.no_insns = true;
			break;
		case 'v':
			o.verbose = true;
			break;
		case 'h':
			usage(stdout);
			return BPFRR_EXIT_OK;
		default:
			usage(stderr);
			return BPFRR_EXIT_USAGE;
		}
	}
	o.json = !strcmp(format, "json");
	o.dot = !strcmp(format, "dot") || !strcmp(format, "svg");
	if (o.dot && o.summary) {
		fprintf(stderr, "bpfrr dump: --summary prints counts, not a graph (--format text or json)\n");
		return BPFRR_EXIT_USAGE;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "bpfrr dump: %s\n", optind == argc ? "no trace file given" : "one trace file only");
		usage(stderr);
		return BPFRR_EXIT_USAGE;
	}
	r = bpfrr_trace_open(argv[optind], 0, &err);
	if (!r) {
		fprintf(stderr, "bpfrr dump: %s\n", err ? err : "out of memory");
		free(err);
		return BPFRR_EXIT_USAGE;
	}
	if (!strcmp(format, "svg"))
		ret = dump_svg(r, &o);
	else
		ret = bpfrr_dump_trace(r, &o, stdout, stderr);
	bpfrr_trace_reader_close(r);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "bpfrr dump: writing the output: %s\n", strerror(errno));
		return BPFRR_EXIT_FAILURE;
	}
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * frontend.c - trace -> IR (see frontend.h): loading the trace into
 * memory, helpers the passes share, the driver that runs the passes, and
 * --explain.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "frontend.h"
#include "frontend_int.h"
#include "pass_core.h"


static void *memdup(const void *p, size_t len)
{
	void *q = malloc(len ? len : 1);

	if (q && len)
		memcpy(q, p, len);
	return q;
}

static int add_event(struct fe_trace *t, uint8_t type, uint32_t idx)
{
	if (bpfrr_grow((void **)&t->events, &t->cap_events, t->nr_events + 1, sizeof(*t->events)))
		return -ENOMEM;
	t->events[t->nr_events++] = (struct fe_event){ type, idx };
	return 0;
}

static int load_call(struct fe_trace *t, const struct bpfrr_trace_record *rec)
{
	struct fe_call *c;
	uint32_t nr_regions;
	const struct bpfrr_trace_region *regions;

	if (bpfrr_grow((void **)&t->calls, &t->cap_calls, t->nr_calls + 1, sizeof(*t->calls)))
		return -ENOMEM;
	c = &t->calls[t->nr_calls];
	memset(c, 0, sizeof(*c));
	c->ir_call = -1;
	c->clock = t->nr_events;
	if (rec->type == BPFRR_REC_BPF_CALL) {
		const struct bpfrr_rec_bpf_call *b = &rec->bpf_call;

		c->is_bpf = true;
		c->seq = b->seq;
		c->tid = b->tid;
		c->cmd = b->cmd;
		c->ret = b->ret;
		c->flags = b->flags;
		c->attr_size = b->attr_size;
		c->attr_len = b->attr_len;
		c->attr = memdup(b->attr, b->attr_len);
		c->attr_exit_len = b->attr_exit_len;
		if (b->attr_exit_len)
			c->attr_exit = memdup(b->attr_exit, b->attr_exit_len);
		if (!c->attr || (b->attr_exit_len && !c->attr_exit))
			goto nomem;
		nr_regions = b->nr_regions;
		regions = b->regions;
	} else {
		const struct bpfrr_rec_syscall *s = &rec->syscall;

		c->seq = s->seq;
		c->tid = s->tid;
		c->sys_name = s->name;
		c->sys = bpfrr_sys_by_name(s->name);
		if (c->sys && (c->sys->flags & BPFRR_SYSF_BPF_CALL))
			c->sys = NULL;	/* bpf() is a BPF_CALL record, never a SYSCALL one */
		c->sys_nr = s->nr;
		memcpy(c->args, s->args, sizeof(c->args));
		c->ret = s->ret;
		c->flags = s->flags;
		nr_regions = s->nr_regions;
		regions = s->regions;
	}
	if (nr_regions) {
		c->regions = memdup(regions, nr_regions * sizeof(*regions));
		if (!c->regions)
			goto nomem;
		c->nr_regions = nr_regions;
	}
	if (bpfrr_u64map_put(&t->by_seq, c->seq, t->nr_calls))
		goto nomem;
	t->nr_calls++;
	return add_event(t, rec->type, t->nr_calls - 1);
nomem:
	free(c->attr);
	free(c->attr_exit);
	free(c->regions);
	return -ENOMEM;
}

struct fe_trace *fe_load(struct bpfrr_trace_reader *r, char *err, size_t err_size)
{
	struct fe_trace *t = calloc(1, sizeof(*t));
	struct bpfrr_trace_record rec;
	int status, ret = 0;

	if (!t) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	t->r = r;
	t->hdr = bpfrr_trace_header(r);
	t->name = bpfrr_trace_name(r);
	t->rt = bpfrr_rt_new(r);
	if (!t->rt)
		ret = -ENOMEM;
	while (!ret && (status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD) {
		switch (rec.type) {
		case BPFRR_REC_BPF_CALL:
		case BPFRR_REC_SYSCALL:
			ret = load_call(t, &rec);
			break;
		case BPFRR_REC_TASK:
			if ((ret = bpfrr_grow((void **)&t->tasks, &t->cap_tasks, t->nr_tasks + 1, sizeof(*t->tasks))))
				break;
			t->tasks[t->nr_tasks] = rec.task;
			/* path and argv point into the reader's record: not needed */
			t->tasks[t->nr_tasks].path = "";
			t->tasks[t->nr_tasks].argc = 0;
			t->tasks[t->nr_tasks].argv = NULL;
			ret = add_event(t, BPFRR_REC_TASK, t->nr_tasks++);
			break;
		case BPFRR_REC_FD_EVENT:
			if ((ret = bpfrr_grow((void **)&t->fdevs, &t->cap_fdevs, t->nr_fdevs + 1, sizeof(*t->fdevs))))
				break;
			t->fdevs[t->nr_fdevs] = rec.fd_event;
			ret = add_event(t, BPFRR_REC_FD_EVENT, t->nr_fdevs++);
			break;
		case BPFRR_REC_OBJECT:
			ret = bpfrr_rt_add_identity(t->rt, &rec.object);
			break;
		case BPFRR_REC_ELF:
			if ((ret = bpfrr_grow((void **)&t->elfs, &t->cap_elfs, t->nr_elfs + 1, sizeof(*t->elfs))))
				break;
			t->elfs[t->nr_elfs++] = (struct fe_elf){ .rec = rec.elf };
			break;
		case BPFRR_REC_KERNEL:
			ret = bpfrr_rt_add_kernel(t->rt, &rec.kernel);
			break;
		case BPFRR_REC_SYMBOL:
			ret = bpfrr_rt_add_symbol(t->rt, &rec.symbol);
			break;
		default:
			break;
		}
	}
	if (ret) {
		snprintf(err, err_size, "%s: out of memory", t->name);
		fe_free(t);
		return NULL;
	}
	switch (status) {
	case BPFRR_TRACE_EOF:
		break;
	case BPFRR_TRACE_TRUNCATED:
		if (!t->hdr) {
			snprintf(err, err_size, "%s", bpfrr_trace_error(r));
			fe_free(t);
			return NULL;
		}
		t->truncated = true;
		snprintf(t->trunc_msg, sizeof(t->trunc_msg), "%s", bpfrr_trace_error(r));
		break;
	default:
		snprintf(err, err_size, "%s", bpfrr_trace_error(r));
		fe_free(t);
		return NULL;
	}
	return t;
}

void fe_free(struct fe_trace *t)
{
	uint32_t i, j;

	if (!t)
		return;
	for (i = 0; i < t->nr_calls; i++) {
		struct fe_call *c = &t->calls[i];

		free(c->attr);
		free(c->attr_exit);
		free(c->regions);
		for (j = 0; j < c->nr_refs; j++) {
			free(c->refs[j].path);
			free(c->refs[j].buf_path);
		}
		free(c->refs);
		free(c->products);
		for (j = 0; j < c->nr_bufs; j++)
			free(c->bufs[j].path);
		free(c->bufs);
		free(c->ptrs);
		free(c->core_note);
	}
	free(t->calls);
	fe_core_free(t);
	free(t->tasks);
	free(t->fdevs);
	free(t->events);
	bpfrr_u64map_free(&t->by_seq);
	bpfrr_rt_free(t->rt);	/* and its fd model, t->fdm */
	for (i = 0; i < t->nr_values; i++)
		free(t->values[i].name);
	free(t->values);
	free(t);
}

struct fe_call *fe_call_by_seq(const struct fe_trace *t, uint64_t seq)
{
	uint64_t idx;

	return bpfrr_u64map_get(&t->by_seq, seq, &idx) ? &t->calls[idx] : NULL;
}

void fe_rt_call(const struct fe_call *c, struct bpfrr_rt_call *rc)
{
	memset(rc, 0, sizeof(*rc));
	rc->seq = c->seq;
	rc->tid = c->tid;
	rc->is_bpf = c->is_bpf;
	rc->cmd = c->cmd;
	rc->ret = c->ret;
	rc->flags = c->flags;
	rc->attr = c->attr;
	rc->attr_len = c->attr_len;
	rc->attr_exit = c->attr_exit;
	rc->attr_exit_len = c->attr_exit_len;
	rc->regions = c->regions;
	rc->nr_regions = c->nr_regions;
}

const struct fe_ref *fe_ref_at(const struct fe_call *c, const char *path)
{
	uint32_t i;

	for (i = 0; i < c->nr_refs; i++)
		if (!strcmp(c->refs[i].path, path))
			return &c->refs[i];
	return NULL;
}

const char *fe_call_name(const struct fe_call *c, char *buf, size_t size)
{
	const char *name;

	if (c->is_bpf) {
		name = bpfrr_abi_cmd_name((int)c->cmd);
		if (name)
			snprintf(buf, size, "%s", name);
		else
			snprintf(buf, size, "bpf(cmd %u)", c->cmd);
	} else if (c->sys && c->sys->sub_arg >= 0 &&
		   c->sys->params[c->sys->sub_arg].kind == BPFRR_SYS_ARG_REQUEST) {
		/* an ioctl is named with its request */
		const struct bpfrr_sys_sub *sub = bpfrr_sys_sub(c->sys, c->args);

		if (sub)
			snprintf(buf, size, "%s(%s)", c->sys_name, sub->name);
		else
			snprintf(buf, size, "%s(0x%x)", c->sys_name, (uint32_t)c->args[c->sys->sub_arg]);
	} else if (c->nl_type) {
		/* a netlink request is named with its message's type (once pass 2 decoded it) */
		name = bpfrr_nl_type_name(c->nl_type);
		if (name)
			snprintf(buf, size, "%s(%s)", c->sys_name, name);
		else
			snprintf(buf, size, "%s(type %u)", c->sys_name, c->nl_type);
	} else {
		snprintf(buf, size, "%s", c->sys_name);
	}
	return buf;
}

const char *fe_errno_name(int err)
{
	static const struct { int err; const char *name; } names[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { ESRCH, "ESRCH" }, { EINTR, "EINTR" },
		{ EIO, "EIO" }, { E2BIG, "E2BIG" }, { EBADF, "EBADF" }, { EAGAIN, "EAGAIN" },
		{ ENOMEM, "ENOMEM" }, { EACCES, "EACCES" }, { EFAULT, "EFAULT" }, { EBUSY, "EBUSY" },
		{ EEXIST, "EEXIST" }, { ENODEV, "ENODEV" }, { ENOTDIR, "ENOTDIR" }, { EINVAL, "EINVAL" },
		{ ENOSPC, "ENOSPC" }, { ERANGE, "ERANGE" }, { ENOSYS, "ENOSYS" }, { ENOTSUP, "EOPNOTSUPP" },
		{ 524, "ENOTSUPP" }, { ELOOP, "ELOOP" }, { ENXIO, "ENXIO" }, { EOVERFLOW, "EOVERFLOW" },
		{ 512, "ERESTARTSYS" }, { 513, "ERESTARTNOINTR" }, { 514, "ERESTARTNOHAND" },
		{ 516, "ERESTART_RESTARTBLOCK" },
	};
	static char other[16];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].err == err)
			return names[i].name;
	snprintf(other, sizeof(other), "errno %d", err);
	return other;
}

const struct bpfrr_trace_region *fe_region(const struct fe_trace *t, const struct fe_call *c, int phase,
					   const char *path)
{
	uint32_t i;

	(void)t;
	for (i = 0; i < c->nr_regions; i++)
		if (c->regions[i].phase == phase && !strcmp(c->regions[i].path, path))
			return &c->regions[i];
	return NULL;
}

int fe_netlink(const struct fe_trace *t, const struct fe_call *c, struct bpfrr_nl_msg *msgs, unsigned int max,
	       const uint8_t **bytes, uint32_t *len)
{
	const struct bpfrr_trace_region *reg;
	const struct bpfrr_rec_blob *b;

	if (c->is_bpf || !c->sys || c->sys->cls != BPFRR_SYS_CLASS_NETLINK)
		return -1;
	reg = fe_region(t, c, c->sys->cap[0].phase, c->sys->cap[0].path);
	if (!reg || !reg->blob ||
	    reg->flags & (BPFRR_REGION_UNREADABLE | BPFRR_REGION_TRUNCATED | BPFRR_REGION_SHORT))
		return -1;
	b = bpfrr_trace_blob(t->r, reg->blob);
	if (!b || b->len != reg->len || b->len > UINT32_MAX)
		return -1;
	if (bytes)
		*bytes = b->data;
	if (len)
		*len = (uint32_t)b->len;
	return bpfrr_nl_decode(b->data, b->len, msgs, max);
}

const void *fe_mem(const struct fe_trace *t, const struct fe_call *c, int phase, uint64_t addr, uint64_t len)
{
	return bpfrr_rt_regions_mem(t->r, c->regions, c->nr_regions, phase, addr, len);
}

int fe_read_mem(const struct fe_trace *t, const struct fe_call *c, int phase, uint64_t addr, void *buf,
		size_t len)
{
	const void *p = fe_mem(t, c, phase, addr, len);

	if (!p)
		return -EFAULT;
	memcpy(buf, p, len);
	return 0;
}

struct fe_obj *fe_canon(struct fe_obj *o)
{
	int hops = 0;

	while (o && o->alias_of && hops++ < 64)
		o = o->alias_of;
	return o;
}

uint32_t fe_obj_type(const struct fe_obj *o)
{
	struct bpfrr_obj_facts f;

	if (!o)
		return 0;
	bpfrr_rt_obj_facts(o->rt, &o->base, &f);
	return f.type;
}

const char *fe_obj_desc(const struct fe_obj *o, char *buf, size_t size)
{
	const char *kind = bpfrr_abi_obj_kind_name((enum bpfrr_obj_kind)o->base.kind);
	const char *name = bpfrr_rt_obj_name(o->rt, &o->base);

	if (!kind)
		kind = "object";
	if (!o->base.origin && o->run)
		snprintf(buf, size, "%s '%s' (made by the syscall program run at seq %" PRIu64 ")", kind,
			 o->ident && o->ident->name ? o->ident->name : "", o->run->seq);
	else if (!o->base.origin)
		snprintf(buf, size, "%s made outside the trace", kind);
	else if (name[0])
		snprintf(buf, size, "%s '%s' (seq %" PRIu64 ")", kind, name, o->base.origin);
	else
		snprintf(buf, size, "%s (seq %" PRIu64 ")", kind, o->base.origin);
	return buf;
}

/* --- the driver -------------------------------------------------------------------------- */

struct bpfrr_ir *bpfrr_frontend_translate_reader(struct bpfrr_trace_reader *r,
						 const struct bpfrr_frontend_opts *opts,
						 struct bpfrr_frontend_result *res, char *err, size_t err_size)
{
	static const struct bpfrr_frontend_opts defaults;
	struct bpfrr_ir *ir = NULL;
	struct fe_trace *t;
	uint32_t i;

	if (!opts)
		opts = &defaults;
	if (res)
		memset(res, 0, sizeof(*res));
	if (!bpfrr_trace_header(r)) {
		struct bpfrr_trace_record rec;

		/* cut inside its prefix or HEADER: truncated (exit 3, as dump says), with nothing in it */
		bpfrr_trace_next(r, &rec);
		snprintf(err, err_size, "%s; nothing to translate", bpfrr_trace_error(r));
		if (res) {
			res->truncated = true;
			snprintf(res->truncated_msg, sizeof(res->truncated_msg), "%s", bpfrr_trace_error(r));
		}
		return NULL;
	}
	t = fe_load(r, err, err_size);
	if (!t)
		return NULL;
	if (fe_pass_fdlife(t, err, err_size) || fe_pass_select(t, opts, err, err_size))
		goto out;
	ir = fe_pass_reloc(t, opts, err, err_size);
	if (!ir) {
		if (res)
			res->untranslatable = t->untranslatable;
		goto out;
	}
	if (opts->explain_out) {
		fe_explain(t, ir, opts->explain_out);
	} else if (opts->explain) {
		struct bpfrr_explain_out plain = { .ops = &bpfrr_explain_plain, .f = opts->explain };

		fe_explain(t, ir, &plain);
	}
	if (res) {
		res->truncated = t->truncated;
		snprintf(res->truncated_msg, sizeof(res->truncated_msg), "%s", t->trunc_msg);
		res->cut_seq = t->cut_seq;
		for (i = 0; i < t->nr_calls; i++) {
			switch (t->calls[i].fate) {
			case FE_KEPT: res->nr_kept++; break;
			case FE_SKIPPED: res->nr_skipped++; break;
			default: res->nr_dropped++; break;
			}
		}
	}
out:
	fe_free(t);
	return ir;
}

struct bpfrr_ir *bpfrr_frontend_translate(const char *trace_path, const struct bpfrr_frontend_opts *opts,
					  struct bpfrr_frontend_result *res, char *err, size_t err_size)
{
	struct bpfrr_trace_reader *r;
	struct bpfrr_ir *ir;
	char *open_err = NULL;

	r = bpfrr_trace_open(trace_path, 0, &open_err);
	if (!r) {
		snprintf(err, err_size, "%s", open_err ? open_err : "cannot open the trace");
		free(open_err);
		return NULL;
	}
	ir = bpfrr_frontend_translate_reader(r, opts, res, err, err_size);
	if (ir && !ir->source)
		ir->source = strdup(trace_path);
	bpfrr_trace_reader_close(r);
	return ir;
}

/* --- --explain ---------------------------------------------------------------------------- */

static int cmp_call_seq(const void *a, const void *b)
{
	const struct fe_call *x = *(const struct fe_call *const *)a, *y = *(const struct fe_call *const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void fe_explain(const struct fe_trace *t, const struct bpfrr_ir *ir, const struct bpfrr_explain_out *o)
{
	const struct fe_call **order = calloc(t->nr_calls + 1, sizeof(*order));
	struct bpfrr_explain_totals tot = { .recorded = t->nr_calls, .slots = ir->nr_slots };
	struct bpfrr_explain_point pt = { .cut_seq = t->cut_seq, .cut_default = t->cut_default };
	char name[64], cut_name[64];
	uint32_t i;

	if (!order) {
		o->ops->incomplete(o, "out of memory");
		return;
	}
	for (i = 0; i < t->nr_calls; i++)
		order[i] = &t->calls[i];
	qsort(order, t->nr_calls, sizeof(*order), cmp_call_seq);
	if (t->cut_seq) {
		const struct fe_call *cut = fe_call_by_seq(t, t->cut_seq);

		pt.cut_name = cut ? fe_call_name(cut, cut_name, sizeof(cut_name)) : "?";
	}
	o->ops->point(o, &pt);
	for (i = 0; i < t->nr_calls; i++) {
		const struct fe_call *c = order[i];
		struct bpfrr_explain_call ec = {
			.seq = c->seq,
			.name = fe_call_name(c, name, sizeof(name)),
			.why = c->why,
			.ir_call = c->ir_call,
			.changes_slot = -1,
			.path_slot = -1,
		};

		switch (c->fate) {
		case FE_KEPT:
			tot.kept++;
			ec.fate = BPFRR_EXPLAIN_KEPT;
			if (c->ir_call < 0 || (uint32_t)c->ir_call >= ir->nr_calls) {
				ec.ir_call = -1;
				break;
			}
			ec.ic = &ir->calls[c->ir_call];
			ec.core = c->core_note;
			if (ec.ic->result_slot >= 0)
				ec.result_why = ir->slots[ec.ic->result_slot].flags & BPFRR_IR_SLOT_KEEP ?
						"alive at the replay point" :
						c->result && c->result->why_kept[0] ? c->result->why_kept : "kept";
			else if (c->target)
				ec.changes_slot = c->target->slot;
			break;
		case FE_PATH:
		case FE_MKDIR:
			tot.dropped++;
			ec.fate = BPFRR_EXPLAIN_PATH;
			ec.path_slot = c->fate == FE_MKDIR ? c->dir_slot : c->result ? c->result->slot : -1;
			break;
		case FE_SKIPPED:
			tot.skipped++;
			ec.fate = BPFRR_EXPLAIN_SKIPPED;
			break;
		default:
			tot.dropped++;
			ec.fate = BPFRR_EXPLAIN_DROPPED;
			break;
		}
		o->ops->call(o, ir, &ec);
	}
	for (i = 0; i < ir->nr_slots; i++)
		tot.alive += !!(ir->slots[i].flags & BPFRR_IR_SLOT_KEEP);
	o->ops->totals(o, &tot);
	free(order);
}

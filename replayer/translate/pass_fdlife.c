// SPDX-License-Identifier: GPL-2.0-only
/*
 * pass_fdlife.c - the front end's pass 1: fd lifetimes.
 *
 * Replays the trace's TASK and FD_EVENT records in file order through the
 * resolved trace's fd model (lib/resolved.h, lib/fdmodel.h) and, at each
 * call's record, resolves every fd the call passes to the object it named
 * at that moment: the ABI walker (bpfrr_abi_walk_fds) finds the fds of a
 * bpf() call wherever they are (attr fields, fd_array, ld_imm64, module
 * BTF, map values), through the resolved trace's view of the call (its
 * recorded memory, and the facts of the objects behind fds: map types and
 * sizes decide where fds sit in values); the fds other syscalls pass are
 * those their rows in lib/sys_abi.h name.  The buffers each call
 * passes are taken from the walker too, for pass 3.
 *
 * Objects get their maker (the call whose seq is their origin), the
 * recorder's identity, and the model's clock stamps (first fd, last close),
 * which pass 2 compares with the replay point.  A *_GET_FD_BY_ID or
 * OBJ_GET that returned an object the trace made earlier (same kind and
 * kernel id) makes an alias of it, not a new object.  Files whose contents
 * name kernel numbers (tracefs event ids, PMU types) are indexed by value
 * for pass 3's replay-time resolutions.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "frontend_int.h"

struct fdlife {
	struct fe_trace *t;
	struct fe_call *c;		/* the call being resolved */
	struct bpfrr_rt_call rc;	/* the same, as lib/resolved.h sees it */
	struct bpfrr_u64map by_id;	/* kind << 32 | kernel id -> the first fe_obj with it */
	int err;
};


/* A bpf() call that gets another fd of an existing object (by id or path). */
static bool is_get_call(const struct fe_call *c)
{
	const struct bpfrr_cmd_desc *d = c->is_bpf ? bpfrr_abi_cmd((int)c->cmd) : NULL;

	return d && d->cls == BPFRR_CMD_CLASS_GET;
}

/* A new object of the model: its maker, identity, and alias. */
static void init_obj(void *ctx, struct bpfrr_fdm_obj *base)
{
	struct fe_obj *o = (struct fe_obj *)base;
	struct fdlife *fl = ctx;
	uint64_t v;

	o->slot = -1;
	o->rt = fl->t->rt;
	if (!base->origin)
		return;
	o->creator = fe_call_by_seq(fl->t, base->origin);
	if (o->creator && !o->creator->result)
		o->creator->result = o;
	o->ident = bpfrr_rt_identity(fl->t->rt, base->origin);
	if (!o->ident || o->ident->flags & BPFRR_OBJECT_F_QUERY_FAILED || !o->ident->id)
		return;
	/* the kernel id of an object made earlier in the trace: the same object */
	v = (uint64_t)o->ident->kind << 32 | o->ident->id;
	if (o->creator && is_get_call(o->creator)) {
		uint64_t prev;

		if (bpfrr_u64map_get(&fl->by_id, v, &prev)) {
			o->alias_of = fe_canon((struct fe_obj *)(uintptr_t)prev);
			return;
		}
	}
	if (!bpfrr_u64map_get(&fl->by_id, v, NULL) && bpfrr_u64map_put(&fl->by_id, v, (uintptr_t)o))
		fl->err = -ENOMEM;
}

static int add_ref(struct fdlife *fl, const char *path, int fd, uint32_t ref, uint32_t kind, int32_t where,
		   const char *buf_path, uint64_t offset)
{
	struct fe_call *c = fl->c;
	struct fe_ref *r;

	if (bpfrr_grow((void **)&c->refs, &c->cap_refs, c->nr_refs + 1, sizeof(*c->refs)))
		return -ENOMEM;
	r = &c->refs[c->nr_refs];
	memset(r, 0, sizeof(*r));
	r->path = strdup(path);
	r->buf_path = buf_path ? strdup(buf_path) : NULL;
	if (!r->path || (buf_path && !r->buf_path)) {
		free(r->path);
		free(r->buf_path);
		return -ENOMEM;
	}
	r->fd = fd;
	r->ref = ref;
	r->kind = kind;
	r->where = where;
	r->offset = offset;
	r->obj = (struct fe_obj *)bpfrr_fdm_lookup(fl->t->fdm, c->tid, fd);
	/*
	 * Resolved at the call's record, i.e. when it returned: an object made by
	 * a later call means another thread closed and reused the number meanwhile.
	 */
	if (r->obj && r->obj->base.origin > c->seq) {
		r->obj = NULL;
		r->raced = true;
	}
	c->nr_refs++;
	return 0;
}

static int fd_cb(void *arg, const struct bpfrr_abi_fd_ref *ref)
{
	static const uint32_t ir_ref[] = {
		[BPFRR_FDREF_FIELD] = BPFRR_IR_REF_FIELD,
		[BPFRR_FDREF_LD_IMM64] = BPFRR_IR_REF_LD_IMM64,
		[BPFRR_FDREF_BTF_ID_MODULE] = BPFRR_IR_REF_BTF_MODULE,
		[BPFRR_FDREF_FD_ARRAY] = BPFRR_IR_REF_FD_ARRAY,
		[BPFRR_FDREF_MAP_VALUE] = BPFRR_IR_REF_MAP_VALUE,
	};
	struct fdlife *fl = arg;

	if ((unsigned int)ref->type >= sizeof(ir_ref) / sizeof(ir_ref[0]))
		return 0;
	if (ref->where == BPFRR_FD_IN_ATTR)
		return add_ref(fl, ref->path, ref->fd, ir_ref[ref->type], ref->kind, BPFRR_IR_IN_ATTR, NULL,
			       ref->attr_offset);
	return add_ref(fl, ref->path, ref->fd, ir_ref[ref->type], ref->kind, FE_IN_BUF, ref->buf_path,
		       ref->buf_offset);
}

struct buf_walk {
	struct fdlife *fl;
	int phase;
};

static int buf_cb(void *arg, const struct bpfrr_abi_buf *b)
{
	struct buf_walk *bw = arg;
	struct fe_call *c = bw->fl->c;
	struct fe_buf *fb;
	uint32_t i;

	/* an in/out buffer seen at entry is not added again at exit */
	if (bw->phase == BPFRR_PHASE_EXIT)
		for (i = 0; i < c->nr_bufs; i++)
			if (!strcmp(c->bufs[i].path, b->path))
				return 0;
	if (bpfrr_grow((void **)&c->bufs, &c->cap_bufs, c->nr_bufs + 1, sizeof(*c->bufs)))
		return -ENOMEM;
	fb = &c->bufs[c->nr_bufs];
	memset(fb, 0, sizeof(*fb));
	fb->path = strdup(b->path);
	if (!fb->path)
		return -ENOMEM;
	fb->field = b->field;
	fb->addr = b->addr;
	fb->len = b->len;
	fb->want_len = b->want_len;
	fb->dir = (uint8_t)b->dir;
	fb->content = (uint8_t)b->content;
	fb->flags = b->flags;
	fb->depth = b->depth;
	fb->phase = (uint8_t)bw->phase;
	c->nr_bufs++;
	return 0;
}

static int ptr_field_cb(void *arg, const struct bpfrr_field *f, const char *path, uint64_t value,
			const char *symbolic)
{
	struct fe_call *c = ((struct fdlife *)arg)->c;

	(void)path;
	(void)symbolic;
	if (f->kind != BPFRR_FIELD_PTR || !value)
		return 0;
	if (bpfrr_grow((void **)&c->ptrs, &c->cap_ptrs, c->nr_ptrs + 1, sizeof(*c->ptrs)))
		return -ENOMEM;
	c->ptrs[c->nr_ptrs++] = f;
	return 0;
}

static int resolve_bpf_call(struct fdlife *fl, struct fe_call *c)
{
	const struct bpfrr_abi_env *env;
	struct bpfrr_rt_walk walk;
	struct buf_walk bw = { fl, BPFRR_PHASE_ENTRY };
	int ret;

	if (!bpfrr_abi_cmd((int)c->cmd) || !c->attr_len)
		return 0;
	env = bpfrr_rt_walk_env(&walk, fl->t->rt, &fl->rc, BPFRR_PHASE_ENTRY);
	ret = bpfrr_abi_walk_fds((int)c->cmd, c->attr, c->attr_len, env, fd_cb, fl);
	if (ret == -ENOMEM)
		return ret;
	if (!ret)
		ret = bpfrr_abi_walk((int)c->cmd, c->attr, c->attr_len, BPFRR_PHASE_ENTRY, env, buf_cb, &bw);
	if (!ret)
		ret = bpfrr_abi_walk_fields_env((int)c->cmd, c->attr, c->attr_len, env, ptr_field_cb, fl);
	if (ret == -ENOMEM)
		return ret;
	if (!ret && !(c->flags & BPFRR_CALL_NO_EXIT) && c->ret >= 0) {
		const uint8_t *exit_attr = c->attr_exit_len ? c->attr_exit : c->attr;
		uint32_t exit_len = c->attr_exit_len ? c->attr_exit_len : c->attr_len;

		env = bpfrr_rt_walk_env(&walk, fl->t->rt, &fl->rc, BPFRR_PHASE_EXIT);
		bw.phase = BPFRR_PHASE_EXIT;
		ret = bpfrr_abi_walk((int)c->cmd, exit_attr, exit_len, BPFRR_PHASE_EXIT, env, buf_cb, &bw);
		if (ret == -ENOMEM)
			return ret;
	}
	if (ret)
		c->resolve_failed = true;

	/* a new fd: the object (with what the attr says of it) exists from here on, even before its FD_EVENT */
	bpfrr_rt_call_result(fl->t->rt, &fl->rc, &ret);
	return ret ? ret : fl->err;
}

/*
 * The fds a syscall references, as its row in lib/sys_abi.h says: its REF
 * parameters (OPTIONAL ones only when not -1) and the fd argument its
 * sub-row names (PERF_EVENT_IOC_SET_BPF's program), each as the IR
 * argument it becomes.
 */
static int resolve_syscall(struct fdlife *fl, struct fe_call *c)
{
	const struct bpfrr_sys_desc *d = c->sys;
	const struct bpfrr_sys_sub *sub = bpfrr_sys_sub(d, c->args);
	char path[64];
	unsigned int i;
	int ret;

	/* a netlink request: the program fds its messages carry, at their offsets in the request */
	if (d && d->cls == BPFRR_SYS_CLASS_NETLINK) {
		struct bpfrr_nl_msg msgs[FE_NL_MAX_MSGS];
		int n = fe_netlink(fl->t, c, msgs, FE_NL_MAX_MSGS, NULL, NULL), k;

		for (k = 0; k < n && k < FE_NL_MAX_MSGS; k++) {
			for (i = 0; i < msgs[k].nr_fds; i++) {
				if (msgs[k].fds[i].fd < 0)
					continue;
				snprintf(path, sizeof(path), "msg[%d].%s", k, msgs[k].fds[i].attr);
				ret = add_ref(fl, path, msgs[k].fds[i].fd, BPFRR_IR_REF_FIELD, BPFRR_OBJ_PROG,
					      BPFRR_IR_IN_ATTR, NULL, msgs[k].fds[i].off);
				if (ret)
					return ret;
			}
		}
	}
	for (i = 0; d && i < d->nr_args; i++) {
		const struct bpfrr_sys_param *p = &d->params[i];

		if (!(p->flags & BPFRR_SYSP_REF) || ((p->flags & BPFRR_SYSP_OPTIONAL) && (int32_t)c->args[i] < 0))
			continue;
		snprintf(path, sizeof(path), "arg %s", p->name);
		ret = add_ref(fl, path, (int32_t)c->args[i], BPFRR_IR_REF_ARG, p->obj, BPFRR_IR_IN_ARG, NULL,
			      (uint64_t)p->ir);
		if (ret)
			return ret;
	}
	if (sub && sub->arg_kind == BPFRR_SYS_ARG_FD && (int32_t)c->args[d->sub_arg + 1] >= 0) {
		snprintf(path, sizeof(path), "arg %s", sub->arg_ref);
		return add_ref(fl, path, (int32_t)c->args[d->sub_arg + 1], BPFRR_IR_REF_ARG, sub->arg_obj,
			       BPFRR_IR_IN_ARG, NULL, (uint64_t)d->params[d->sub_arg + 1].ir);
	}
	return 0;
}

/* "/sys/kernel/tracing/events/CAT/NAME/id" -> "CAT/NAME"; "/sys/bus/event_source/devices/NAME/type" -> "NAME" */
static int value_file(const char *path, uint32_t *kind, char *name, size_t size)
{
	static const char *const tracefs[] = { "/sys/kernel/tracing/events/", "/sys/kernel/debug/tracing/events/" };
	static const char pmu[] = "/sys/bus/event_source/devices/";
	size_t i, n, len = strlen(path);

	for (i = 0; i < sizeof(tracefs) / sizeof(tracefs[0]); i++) {
		n = strlen(tracefs[i]);
		if (len > n + 3 && !strncmp(path, tracefs[i], n) && !strcmp(path + len - 3, "/id")) {
			const char *rest = path + n;
			size_t rlen = len - n - 3;
			const char *slash = memchr(rest, '/', rlen);

			/* exactly CATEGORY/NAME */
			if (!slash || slash == rest || slash == rest + rlen - 1 ||
			    memchr(slash + 1, '/', rlen - (size_t)(slash + 1 - rest)) || rlen >= size)
				return -1;
			memcpy(name, rest, rlen);
			name[rlen] = '\0';
			*kind = BPFRR_IR_RESOLVE_TP_ID;
			return 0;
		}
	}
	n = sizeof(pmu) - 1;
	if (len > n + 5 && !strncmp(path, pmu, n) && !strcmp(path + len - 5, "/type")) {
		size_t rlen = len - n - 5;

		if (!rlen || memchr(path + n, '/', rlen) || rlen >= size)
			return -1;
		memcpy(name, path + n, rlen);
		name[rlen] = '\0';
		*kind = BPFRR_IR_RESOLVE_PMU_TYPE;
		return 0;
	}
	return -1;
}

/* An open whose content the recorder captured and that names a kernel number. */
static int index_value_file(struct fe_trace *t, const struct fe_call *c)
{
	static const char *const paths[] = { "path", "pathname" };	/* resolved, as passed */
	const struct bpfrr_trace_region *content = fe_region(t, c, BPFRR_PHASE_EXIT, "content");
	const struct bpfrr_rec_blob *pb, *cb;
	char name[256], text[32], *end;
	struct fe_value_file *v;
	uint32_t kind, i;
	uint64_t value;
	bool named = false;

	cb = content && content->blob ? bpfrr_trace_blob(t->r, content->blob) : NULL;
	if (!cb || !cb->len || cb->len >= sizeof(text))
		return 0;
	/* sysfs resolves /sys/bus/event_source/devices/NAME to /sys/devices/NAME: try both */
	for (i = 0; i < 2 && !named; i++) {
		const struct bpfrr_trace_region *reg = fe_region(t, c, i ? BPFRR_PHASE_ENTRY : BPFRR_PHASE_EXIT,
								 paths[i]);

		pb = reg && reg->blob ? bpfrr_trace_blob(t->r, reg->blob) : NULL;
		if (!pb || !pb->len || ((const char *)pb->data)[pb->len - 1] || memchr(pb->data, '\0', pb->len - 1))
			continue;
		named = !value_file(pb->data, &kind, name, sizeof(name));
	}
	if (!named)
		return 0;
	memcpy(text, cb->data, cb->len);
	text[cb->len] = '\0';
	errno = 0;
	value = strtoull(text, &end, 10);
	if (errno || end == text || (*end && strcmp(end, "\n")))
		return 0;
	if (bpfrr_grow((void **)&t->values, &t->cap_values, t->nr_values + 1, sizeof(*t->values)))
		return -ENOMEM;
	v = &t->values[t->nr_values];
	v->kind = kind;
	v->value = value;
	v->seq = c->seq;
	v->name = strdup(name);
	if (!v->name)
		return -ENOMEM;
	t->nr_values++;
	return 0;
}

/* An fd of an object made outside the trace, seen for the first time: where and by which call. */
static void note_adoption(struct fe_trace *t, const struct bpfrr_rec_fd_event *e)
{
	struct fe_obj *o;

	if (e->op != BPFRR_FD_ADOPT || !e->seq)
		return;
	o = (struct fe_obj *)bpfrr_fdm_lookup(t->fdm, e->tid, e->fd);
	if (!o || o->base.origin || !o->base.adopted || o->adopt_seq)
		return;
	o->adopt_tid = e->tid;
	o->adopt_fd = e->fd;
	o->adopt_seq = e->seq;
}

/*
 * Is c a successful run of a program whose row says it may make objects and
 * write their fds into a buffer (a light skeleton's syscall program)?  Then
 * that buffer, else NULL.
 */
static const struct fe_buf *products_buf(const struct fe_call *c, const char **path)
{
	const struct bpfrr_cmd_desc *d = c->is_bpf ? bpfrr_abi_cmd((int)c->cmd) : NULL;
	const struct fe_ref *r;
	char p[80];
	uint32_t i;

	if (!d || !d->products.buf || !d->acts_on || (c->flags & BPFRR_CALL_NO_EXIT) ||
	    bpfrr_trace_ret_errno(c->ret))
		return NULL;
	snprintf(p, sizeof(p), "attr.%s", d->acts_on);
	r = fe_ref_at(c, p);
	if (!r || fe_obj_type(fe_canon(r->obj)) != d->products.target_type)
		return NULL;
	snprintf(p, sizeof(p), "attr.%s", d->products.buf);
	for (i = 0; i < c->nr_bufs; i++) {
		if (!strcmp(c->bufs[i].path, p) && c->bufs[i].dir == BPFRR_DIR_INOUT) {
			*path = d->products.buf;
			return &c->bufs[i];
		}
	}
	return NULL;
}

/*
 * The objects a syscall program made: a light skeleton's loader program
 * (libbpf's gen_loader) makes maps and programs inside the kernel and
 * writes their fds into its context, which BPF_PROG_RUN copies back to the
 * caller; the recorder first sees those fds when the loader uses them
 * (ADOPT fd events).  An adopted fd is a product of the last successful
 * run of such a program in the same task before the adoption when the
 * context as the run returned it holds that fd number at a 4-byte aligned
 * offset where it did not before the run.  The run is then its maker (it is
 * alive from the run on), located at that offset, and the identity is the
 * recorder's OBJECT record of the adopted fd.
 */
struct products_run {
	struct fe_call *c;
	const struct fe_buf *fb;
	const char *path;
};

static int find_products(struct fe_trace *t)
{
	struct products_run *runs = NULL;
	uint32_t i, off, nr_runs = 0, cap_runs = 0;
	struct bpfrr_fdm_obj *b;
	int ret = 0;

	/* the runs that may have made objects, found once (there are few; calls are many) */
	for (i = 0; i < t->nr_calls; i++) {
		const struct fe_buf *fb;
		const char *path;

		if (!(fb = products_buf(&t->calls[i], &path)))
			continue;
		if (bpfrr_grow((void **)&runs, &cap_runs, nr_runs + 1, sizeof(*runs))) {
			free(runs);
			return -ENOMEM;
		}
		runs[nr_runs++] = (struct products_run){ &t->calls[i], fb, path };
	}
	for (b = bpfrr_fdm_objects(t->fdm); b && nr_runs; b = b->next_all) {
		struct fe_obj *o = (struct fe_obj *)b;
		struct fe_call *run = NULL;
		const struct fe_buf *fb = NULL;
		const char *path = NULL;
		const uint8_t *in, *out;

		if (!o->adopt_seq || o->alias_of)
			continue;
		for (i = 0; i < nr_runs; i++) {
			struct fe_call *c = runs[i].c;

			if (c->seq >= o->adopt_seq || c->tid != o->adopt_tid || (run && c->seq < run->seq))
				continue;
			run = c;
			fb = runs[i].fb;
			path = runs[i].path;
		}
		if (!run || fb->len < 4)
			continue;
		in = fe_mem(t, run, BPFRR_PHASE_ENTRY, fb->addr, fb->len);
		out = fe_mem(t, run, BPFRR_PHASE_EXIT, fb->addr, fb->len);
		if (!in || !out)
			continue;
		for (off = 0; off + 4 <= fb->len; off += 4) {
			int32_t before, after;
			bool taken = false;

			memcpy(&before, in + off, 4);
			memcpy(&after, out + off, 4);
			if (after != o->adopt_fd || before == after)
				continue;
			for (i = 0; i < run->nr_products; i++)
				taken |= run->products[i]->run_offset == off;
			if (!taken)
				break;
		}
		if (off + 4 > fb->len)
			continue;
		if (bpfrr_grow((void **)&run->products, &run->cap_products, run->nr_products + 1,
			       sizeof(*run->products))) {
			ret = -ENOMEM;
			break;
		}
		run->products[run->nr_products++] = o;
		run->products_buf = path;
		o->run = run;
		o->run_offset = off;
		/* the recorder's identity of the adopted fd (lib/resolved.h: by seq and fd) */
		o->ident = bpfrr_rt_identity_fd(t->rt, o->adopt_seq, o->adopt_fd);
		if (o->ident && o->ident->kind != o->base.kind)
			o->ident = NULL;
		/* it exists from the run on, not only from the call that first used it */
		if (o->base.first_clock > run->clock)
			o->base.first_clock = run->clock;
	}
	free(runs);
	return ret;
}

int fe_pass_fdlife(struct fe_trace *t, char *err, size_t err_size)
{
	struct fdlife fl = { .t = t };
	uint32_t i;
	int ret = 0;

	if (bpfrr_rt_model(t->rt, sizeof(struct fe_obj), init_obj, &fl))
		goto nomem;
	t->fdm = bpfrr_rt_fdm(t->rt);
	for (i = 0; i < t->nr_events && !ret; i++) {
		const struct fe_event *ev = &t->events[i];
		struct fe_call *c;

		bpfrr_fdm_set_clock(t->fdm, i);
		switch (ev->type) {
		case BPFRR_REC_TASK:
			ret = bpfrr_rt_task(t->rt, &t->tasks[ev->idx]);
			break;
		case BPFRR_REC_FD_EVENT:
			ret = bpfrr_rt_fd_event(t->rt, &t->fdevs[ev->idx]);
			if (ret == -EBADMSG) {
				const struct bpfrr_rec_fd_event *e = &t->fdevs[ev->idx];

				snprintf(err, err_size, "%s: the fd event of seq %" PRIu64 " (new fd %d) contradicts "
					 "what that call returned: not a trace a recorder writes", t->name, e->seq,
					 e->fd);
				bpfrr_u64map_free(&fl.by_id);
				return -EBADMSG;
			}
			if (!ret)
				note_adoption(t, &t->fdevs[ev->idx]);
			break;
		case BPFRR_REC_BPF_CALL:
		case BPFRR_REC_SYSCALL:
			c = &t->calls[ev->idx];
			fl.c = c;
			fe_rt_call(c, &fl.rc);
			ret = c->is_bpf ? resolve_bpf_call(&fl, c) : resolve_syscall(&fl, c);
			if (!ret && !c->is_bpf && c->ret >= 0)
				ret = index_value_file(t, c);
			break;
		}
		if (!ret)
			ret = fl.err;
	}
	bpfrr_u64map_free(&fl.by_id);
	if (!ret)
		ret = find_products(t);
	if (ret || bpfrr_fdm_oom(t->fdm))
		goto nomem;
	return 0;
nomem:
	snprintf(err, err_size, "%s: out of memory resolving fds", t->name);
	return -ENOMEM;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * resolved.c - a trace resolved (see resolved.h): object facts, the walker
 * adaptor, identities by seq, the fd model and captured memory.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "resolved.h"

/* --- object facts ------------------------------------------------------------------- */

void bpfrr_obj_facts_from_attr(struct bpfrr_obj_facts *f, int cmd, const void *attr, size_t attr_len)
{
	struct bpfrr_abi_made m;

	memset(f, 0, sizeof(*f));
	if (!bpfrr_abi_cmd_made(cmd, attr, attr_len, &m))
		return;
	f->has_type = m.has_type;
	f->type = m.obj_type;
	f->has_sizes = m.has_sizes;
	f->key_size = m.key_size;
	f->value_size = m.value_size;
	memcpy(f->name, m.name, sizeof(f->name));
	f->value_type = m.value_type;
	f->value_type_module = m.value_type_module;
}

uint32_t bpfrr_obj_facts_value_type(const struct bpfrr_obj_facts *f)
{
	return f->value_type_module ? 0 : f->value_type;
}

void bpfrr_obj_facts_add_identity(struct bpfrr_obj_facts *f, uint32_t kind, const struct bpfrr_rec_object *id)
{
	if (!id || (id->flags & BPFRR_OBJECT_F_QUERY_FAILED))
		return;
	f->has_type = true;
	f->type = id->type;
	if (kind == BPFRR_OBJ_MAP) {
		f->has_sizes = true;
		f->key_size = id->key_size;
		f->value_size = id->value_size;
	}
}

int bpfrr_obj_facts_fd_info(uint32_t kind, const struct bpfrr_obj_facts *f, enum bpfrr_obj_kind *kind_out,
			    uint32_t *obj_type, uint32_t *key_size, uint32_t *value_size)
{
	if (kind == BPFRR_OBJ_ANY)
		return -ENOENT;
	if (kind_out)
		*kind_out = (enum bpfrr_obj_kind)kind;
	if (obj_type)
		*obj_type = f->type;
	if (key_size)
		*key_size = f->key_size;
	if (value_size)
		*value_size = f->value_size;
	/* a map whose sizes nobody could learn (no creating attr, no identity) */
	if (kind == BPFRR_OBJ_MAP && !f->has_sizes && (key_size || value_size))
		return -ENOENT;
	return 0;
}

/* --- the walker adaptor ---------------------------------------------------------------- */

static int we_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct bpfrr_walk_env *we = ctx;

	return we->src.read(we->src.ctx, we->phase, addr, buf, len);
}

static int we_read_entry(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct bpfrr_walk_env *we = ctx;

	return we->src.read(we->src.ctx, BPFRR_PHASE_ENTRY, addr, buf, len);
}

static int we_fd_info(void *ctx, int fd, enum bpfrr_obj_kind *kind, uint32_t *obj_type, uint32_t *key_size,
		      uint32_t *value_size)
{
	struct bpfrr_walk_env *we = ctx;
	struct bpfrr_obj_facts f;
	uint32_t k;

	memset(&f, 0, sizeof(f));
	if (we->src.fd_facts(we->src.ctx, fd, &k, &f))
		return -ENOENT;
	return bpfrr_obj_facts_fd_info(k, &f, kind, obj_type, key_size, value_size);
}

static int we_value_fds(void *ctx, int fd, uint32_t *offsets, unsigned int max)
{
	struct bpfrr_walk_env *we = ctx;
	struct bpfrr_obj_facts f;
	uint32_t k;

	memset(&f, 0, sizeof(f));
	if (!we->src.value_layout || we->src.fd_facts(we->src.ctx, fd, &k, &f) || k != BPFRR_OBJ_MAP ||
	    !bpfrr_obj_facts_value_type(&f))
		return -ENOENT;
	return we->src.value_layout(we->src.ctx, bpfrr_obj_facts_value_type(&f), offsets, max);
}

const struct bpfrr_abi_env *bpfrr_walk_env_init(struct bpfrr_walk_env *we, const struct bpfrr_walk_src *src,
						enum bpfrr_phase phase, unsigned int nr_cpus,
						const void *entry_attr, size_t entry_attr_size)
{
	memset(we, 0, sizeof(*we));
	we->src = *src;
	we->phase = phase;
	we->env.read_mem = we_read;
	we->env.fd_info = we_fd_info;
	we->env.value_fds = we_value_fds;
	we->env.nr_cpus = nr_cpus;
	we->env.ctx = we;
	if (phase == BPFRR_PHASE_EXIT) {
		we->env.entry_attr = entry_attr;
		we->env.entry_attr_size = entry_attr_size;
		we->env.read_entry_mem = we_read_entry;
	}
	return &we->env;
}

/* --- the resolved trace ------------------------------------------------------------------ */

struct bpfrr_rt {
	struct bpfrr_trace_reader *r;
	unsigned int nr_cpus;		/* the header's, 1 if it says none */
	struct bpfrr_u64map idents;	/* seq -> index of its first OBJECT record in ids */
	struct bpfrr_u64map ident_by_fd;	/* ident_key(seq, fd) -> newest index into ids */
	struct rt_ident *ids;		/* the first OBJECT record of each (seq, fd), in file order */
	uint32_t nr_ids, cap_ids;
	struct bpfrr_u64map rets;	/* seq of a bpf() call that returned an fd -> rt_ret_key() */
	struct bpfrr_u64map made_by_seq;	/* seq -> index into made */
	struct bpfrr_obj_facts *made;
	uint32_t nr_made, cap_made;
	struct bpfrr_fdmodel *fdm;
	bool has_kernel;
	struct bpfrr_rec_kernel kernel;	/* strings in the reader */
	struct bpfrr_u64map sym_by_key;	/* symbol_key(kind, value, module) -> newest index into syms */
	struct bpfrr_u64map sym_any;	/* symbol_key(kind, value, NULL) -> the first recorded of any module */
	struct rt_symbol *syms;
	uint32_t nr_syms, cap_syms;
};

/*
 * An OBJECT record.  A seq can have several, one per fd: the recorder
 * identifies an fd it adopts (one the trace did not make) with the seq of
 * the call that used it, and that call may make an object of its own (a
 * BPF_RAW_TRACEPOINT_OPEN on an adopted program fd).  They are found by
 * (seq, fd), so a trace that piles records on one seq costs what its
 * records cost, not their square.
 */
struct rt_ident {
	struct bpfrr_rec_object obj;	/* name points into the reader */
	uint32_t next;			/* index + 1 of an earlier one of the same ident_key(), 0: none */
};

static uint64_t ident_key(uint64_t seq, int32_t fd)
{
	uint8_t buf[12];

	memcpy(buf, &seq, 8);
	memcpy(buf + 8, &fd, 4);
	return bpfrr_keyed_hash(buf, sizeof(buf));
}

static const struct bpfrr_rec_object *ident_at(const struct bpfrr_rt *rt, uint64_t seq, int32_t fd)
{
	uint64_t idx;
	uint32_t i;

	if (!bpfrr_u64map_get(&rt->ident_by_fd, ident_key(seq, fd), &idx))
		return NULL;
	for (i = (uint32_t)idx + 1; i; i = rt->ids[i - 1].next)
		if (rt->ids[i - 1].obj.seq == seq && rt->ids[i - 1].obj.fd == fd)
			return &rt->ids[i - 1].obj;
	return NULL;
}

/* What a call returned: its fd and the kind of object it makes. */
static uint64_t rt_ret_key(int fd, uint32_t kind)
{
	return (uint64_t)(uint32_t)fd << 32 | kind;
}

/* A SYMBOL record, chained to the next one of the same (kind, value, module) key. */
struct rt_symbol {
	struct bpfrr_rec_symbol sym;	/* strings in the reader */
	uint32_t next;			/* index + 1 of the next one in the chain, 0: none */
};

void bpfrr_rt_call_bpf(struct bpfrr_rt_call *c, const struct bpfrr_rec_bpf_call *rec)
{
	memset(c, 0, sizeof(*c));
	c->seq = rec->seq;
	c->tid = rec->tid;
	c->is_bpf = true;
	c->cmd = rec->cmd;
	c->ret = rec->ret;
	c->flags = rec->flags;
	c->attr = rec->attr;
	c->attr_len = rec->attr_len;
	c->attr_exit = rec->attr_exit;
	c->attr_exit_len = rec->attr_exit_len;
	c->regions = rec->regions;
	c->nr_regions = rec->nr_regions;
}

void bpfrr_rt_call_sys(struct bpfrr_rt_call *c, const struct bpfrr_rec_syscall *rec)
{
	memset(c, 0, sizeof(*c));
	c->seq = rec->seq;
	c->tid = rec->tid;
	c->ret = rec->ret;
	c->flags = rec->flags;
	c->regions = rec->regions;
	c->nr_regions = rec->nr_regions;
}

struct bpfrr_rt *bpfrr_rt_new(struct bpfrr_trace_reader *r)
{
	struct bpfrr_rt *rt = calloc(1, sizeof(*rt));
	const struct bpfrr_trace_header *hdr = bpfrr_trace_header(r);

	if (!rt)
		return NULL;
	rt->r = r;
	rt->nr_cpus = hdr && hdr->nr_cpus ? hdr->nr_cpus : 1;
	return rt;
}

void bpfrr_rt_free(struct bpfrr_rt *rt)
{
	if (!rt)
		return;
	bpfrr_u64map_free(&rt->idents);
	bpfrr_u64map_free(&rt->ident_by_fd);
	free(rt->ids);
	bpfrr_u64map_free(&rt->rets);
	bpfrr_u64map_free(&rt->made_by_seq);
	free(rt->made);
	bpfrr_fdm_free(rt->fdm);
	bpfrr_u64map_free(&rt->sym_by_key);
	bpfrr_u64map_free(&rt->sym_any);
	free(rt->syms);
	free(rt);
}

int bpfrr_rt_add_identity(struct bpfrr_rt *rt, const struct bpfrr_rec_object *o)
{
	uint64_t key = ident_key(o->seq, o->fd), newest;

	/* one identity per (seq, fd), the first, as the recorder writes them */
	if (ident_at(rt, o->seq, o->fd))
		return 0;
	if (bpfrr_grow((void **)&rt->ids, &rt->cap_ids, rt->nr_ids + 1, sizeof(*rt->ids)))
		return -ENOMEM;
	rt->ids[rt->nr_ids].obj = *o;	/* its name points into the reader: valid until it is closed */
	rt->ids[rt->nr_ids].next = bpfrr_u64map_get(&rt->ident_by_fd, key, &newest) ? (uint32_t)newest + 1 : 0;
	if (bpfrr_u64map_put(&rt->ident_by_fd, key, rt->nr_ids) ||
	    (!bpfrr_u64map_get(&rt->idents, o->seq, NULL) && bpfrr_u64map_put(&rt->idents, o->seq, rt->nr_ids)))
		return -ENOMEM;
	rt->nr_ids++;
	return 0;
}

int bpfrr_rt_add_call(struct bpfrr_rt *rt, const struct bpfrr_rt_call *c)
{
	enum bpfrr_obj_kind kind;

	if (!c->is_bpf)
		return 0;
	/* a call that made nothing is noted too: the identities of its seq are adopted fds' */
	kind = BPFRR_OBJ_NONE;
	if (!(c->flags & BPFRR_CALL_NO_EXIT) && c->ret >= 0 && c->ret <= INT32_MAX &&
	    c->cmd < (uint32_t)BPFRR_ABI_NR_CMDS)
		kind = bpfrr_abi_cmd_ret_kind((int)c->cmd, c->attr, c->attr_len);
	return bpfrr_u64map_put(&rt->rets, c->seq, rt_ret_key(kind == BPFRR_OBJ_NONE ? -1 : (int)c->ret, kind)) ?
		       -ENOMEM : 0;
}

const struct bpfrr_rec_object *bpfrr_rt_identity(const struct bpfrr_rt *rt, uint64_t seq)
{
	const struct bpfrr_rec_object *o;
	uint64_t first, ret;

	if (!bpfrr_u64map_get(&rt->idents, seq, &first))
		return NULL;
	/* a call seen: the identity of what it returned, never of an fd it adopted */
	if (bpfrr_u64map_get(&rt->rets, seq, &ret)) {
		if ((uint32_t)ret == BPFRR_OBJ_NONE)
			return NULL;
		o = ident_at(rt, seq, (int32_t)(ret >> 32));
		return o && ((uint32_t)ret == BPFRR_OBJ_ANY || o->kind == (uint32_t)ret) ? o : NULL;
	}
	return &rt->ids[first].obj;
}

const struct bpfrr_rec_object *bpfrr_rt_identity_fd(const struct bpfrr_rt *rt, uint64_t seq, int fd)
{
	return ident_at(rt, seq, fd);
}

int bpfrr_rt_collect(struct bpfrr_rt *rt, int (*cb)(void *arg, const struct bpfrr_trace_record *rec),
		     void *arg)
{
	struct bpfrr_trace_record rec;
	int status, ret;

	while ((status = bpfrr_trace_next(rt->r, &rec)) == BPFRR_TRACE_RECORD) {
		struct bpfrr_rt_call c;

		if (rec.type == BPFRR_REC_OBJECT && bpfrr_rt_add_identity(rt, &rec.object)) {
			status = BPFRR_TRACE_NOMEM;
			break;
		}
		if (rec.type == BPFRR_REC_BPF_CALL) {
			bpfrr_rt_call_bpf(&c, &rec.bpf_call);
			if (bpfrr_rt_add_call(rt, &c)) {
				status = BPFRR_TRACE_NOMEM;
				break;
			}
		}
		if ((rec.type == BPFRR_REC_KERNEL && bpfrr_rt_add_kernel(rt, &rec.kernel)) ||
		    (rec.type == BPFRR_REC_SYMBOL && bpfrr_rt_add_symbol(rt, &rec.symbol))) {
			status = BPFRR_TRACE_NOMEM;
			break;
		}
		if (cb && (ret = cb(arg, &rec))) {
			status = ret;
			break;
		}
	}
	bpfrr_trace_rewind(rt->r);
	return status;
}

int bpfrr_rt_add_kernel(struct bpfrr_rt *rt, const struct bpfrr_rec_kernel *k)
{
	if (!rt->has_kernel) {
		rt->kernel = *k;
		rt->has_kernel = true;
	}
	return 0;
}

const struct bpfrr_rec_kernel *bpfrr_rt_kernel(const struct bpfrr_rt *rt)
{
	return rt->has_kernel ? &rt->kernel : NULL;
}

static bool sym_module_is(const struct bpfrr_rec_symbol *s, const char *module)
{
	return !strcmp(s->module ? s->module : "", module);
}

/*
 * Both lookups are one probe and a chain that only keyed-hash collisions
 * lengthen, so a trace that repeats one (kind, value) under many modules
 * costs what its records cost, not their square.
 */
static const struct bpfrr_rec_symbol *sym_exact(const struct bpfrr_rt *rt, uint32_t kind, uint64_t value,
						const char *module)
{
	uint64_t idx;
	uint32_t i;

	if (!bpfrr_u64map_get(&rt->sym_by_key, bpfrr_u64map_symbol_key(kind, value, module), &idx))
		return NULL;
	for (i = (uint32_t)idx + 1; i; i = rt->syms[i - 1].next) {
		const struct bpfrr_rec_symbol *s = &rt->syms[i - 1].sym;

		if (s->kind == kind && s->value == value && sym_module_is(s, module))
			return s;
	}
	return NULL;
}

int bpfrr_rt_add_symbol(struct bpfrr_rt *rt, const struct bpfrr_rec_symbol *s)
{
	const char *module = s->module ? s->module : "";
	uint64_t key = bpfrr_u64map_symbol_key(s->kind, s->value, module);
	uint64_t any = bpfrr_u64map_symbol_key(s->kind, s->value, NULL), first;
	struct rt_symbol *e;

	if (sym_exact(rt, s->kind, s->value, module))
		return 0;
	if (bpfrr_grow((void **)&rt->syms, &rt->cap_syms, rt->nr_syms + 1, sizeof(*rt->syms)))
		return -ENOMEM;
	e = &rt->syms[rt->nr_syms];
	e->sym = *s;
	e->next = bpfrr_u64map_get(&rt->sym_by_key, key, &first) ? (uint32_t)first + 1 : 0;
	if (bpfrr_u64map_put(&rt->sym_by_key, key, rt->nr_syms))
		return -ENOMEM;
	/* the first of any module answers a lookup without one when vmlinux has none */
	if (!bpfrr_u64map_get(&rt->sym_any, any, NULL) && bpfrr_u64map_put(&rt->sym_any, any, rt->nr_syms))
		return -ENOMEM;
	rt->nr_syms++;
	return 0;
}

const struct bpfrr_rec_symbol *bpfrr_rt_symbol(const struct bpfrr_rt *rt, uint32_t kind, uint64_t value,
					       const char *module)
{
	const struct bpfrr_rec_symbol *s;
	uint64_t idx;

	if (module)
		return sym_exact(rt, kind, value, module);
	/* any module: vmlinux's, else the first recorded */
	s = sym_exact(rt, kind, value, "");
	if (s)
		return s;
	if (!bpfrr_u64map_get(&rt->sym_any, bpfrr_u64map_symbol_key(kind, value, NULL), &idx))
		return NULL;
	s = &rt->syms[idx].sym;
	return s->kind == kind && s->value == value ? s : NULL;
}

int bpfrr_rt_model(struct bpfrr_rt *rt, size_t obj_size, void (*init)(void *ctx, struct bpfrr_fdm_obj *obj),
		   void *ctx)
{
	bpfrr_fdm_free(rt->fdm);
	rt->fdm = bpfrr_fdm_new(obj_size, init, ctx);
	return rt->fdm ? 0 : -ENOMEM;
}

struct bpfrr_fdmodel *bpfrr_rt_fdm(const struct bpfrr_rt *rt)
{
	return rt->fdm;
}

int bpfrr_rt_task(struct bpfrr_rt *rt, const struct bpfrr_rec_task *t)
{
	return bpfrr_fdm_task(rt->fdm, t);
}

int bpfrr_rt_fd_event(struct bpfrr_rt *rt, const struct bpfrr_rec_fd_event *e)
{
	uint64_t ret;

	/* a new fd of a bpf() call is the fd that call returned, of the kind it makes */
	if (e->op == BPFRR_FD_NEW && e->seq && bpfrr_u64map_get(&rt->rets, e->seq, &ret) &&
	    ((uint32_t)ret == BPFRR_OBJ_NONE || (int32_t)(ret >> 32) != e->fd ||
	     ((uint32_t)ret != BPFRR_OBJ_ANY && e->kind != (uint32_t)ret)))
		return -EBADMSG;
	return bpfrr_fdm_fd_event(rt->fdm, e);
}

struct bpfrr_fdm_obj *bpfrr_rt_call_result(struct bpfrr_rt *rt, const struct bpfrr_rt_call *c, int *err)
{
	enum bpfrr_obj_kind kind;
	struct bpfrr_fdm_obj *o;
	uint64_t idx;

	if (err)
		*err = 0;
	if (bpfrr_rt_add_call(rt, c))
		goto nomem;
	if (!c->is_bpf || (c->flags & BPFRR_CALL_NO_EXIT) || c->ret < 0 || c->ret > INT32_MAX)
		return NULL;
	kind = bpfrr_abi_cmd_ret_kind((int)c->cmd, c->attr, c->attr_len);
	if (kind == BPFRR_OBJ_NONE)
		return NULL;
	if (!bpfrr_u64map_get(&rt->made_by_seq, c->seq, &idx)) {
		if (bpfrr_grow((void **)&rt->made, &rt->cap_made, rt->nr_made + 1, sizeof(*rt->made)) ||
		    bpfrr_u64map_put(&rt->made_by_seq, c->seq, rt->nr_made))
			goto nomem;
		idx = rt->nr_made++;
	}
	bpfrr_obj_facts_from_attr(&rt->made[idx], (int)c->cmd, c->attr, c->attr_len);
	/* the object exists from here on, even before its FD_EVENT */
	o = bpfrr_fdm_object(rt->fdm, c->seq, kind);
	if (!o || bpfrr_fdm_assign(rt->fdm, c->tid, (int)c->ret, o, c->seq))
		goto nomem;
	return o;
nomem:
	if (err)
		*err = -ENOMEM;
	return NULL;
}

const struct bpfrr_obj_facts *bpfrr_rt_made(const struct bpfrr_rt *rt, uint64_t seq)
{
	uint64_t idx;

	return seq && bpfrr_u64map_get(&rt->made_by_seq, seq, &idx) ? &rt->made[idx] : NULL;
}

void bpfrr_rt_obj_facts(const struct bpfrr_rt *rt, const struct bpfrr_fdm_obj *o, struct bpfrr_obj_facts *f)
{
	const struct bpfrr_obj_facts *made = bpfrr_rt_made(rt, o->origin);

	if (made)
		*f = *made;
	else
		memset(f, 0, sizeof(*f));
	if (o->origin)
		bpfrr_obj_facts_add_identity(f, o->kind, bpfrr_rt_identity(rt, o->origin));
}

const char *bpfrr_rt_obj_name(const struct bpfrr_rt *rt, const struct bpfrr_fdm_obj *o)
{
	const struct bpfrr_rec_object *id = o->origin ? bpfrr_rt_identity(rt, o->origin) : NULL;
	const struct bpfrr_obj_facts *made;

	if (id && id->name && id->name[0])
		return id->name;
	made = bpfrr_rt_made(rt, o->origin);
	return made ? made->name : "";
}

const void *bpfrr_rt_regions_mem(const struct bpfrr_trace_reader *r, const struct bpfrr_trace_region *regions,
				 uint32_t nr_regions, int phase, uint64_t addr, uint64_t len)
{
	uint32_t i;

	for (i = 0; i < nr_regions; i++) {
		const struct bpfrr_trace_region *reg = &regions[i];
		const struct bpfrr_rec_blob *b;

		if (reg->phase != phase || !reg->blob || addr < reg->addr)
			continue;
		b = bpfrr_trace_blob(r, reg->blob);
		if (!b || addr - reg->addr > b->len || len > b->len - (addr - reg->addr))
			continue;
		return (const uint8_t *)b->data + (addr - reg->addr);
	}
	return NULL;
}

int bpfrr_rt_read_mem(const struct bpfrr_rt *rt, const struct bpfrr_rt_call *c, int phase, uint64_t addr,
		      void *buf, size_t len)
{
	const void *p = bpfrr_rt_regions_mem(rt->r, c->regions, c->nr_regions, phase, addr, len);

	if (!p)
		return -EFAULT;
	memcpy(buf, p, len);
	return 0;
}

static int rt_walk_read(void *ctx, enum bpfrr_phase phase, uint64_t addr, void *buf, size_t len)
{
	const struct bpfrr_rt_walk *w = ctx;

	return bpfrr_rt_read_mem(w->rt, w->c, phase, addr, buf, len);
}

static int rt_walk_fd_facts(void *ctx, int fd, uint32_t *kind, struct bpfrr_obj_facts *facts)
{
	const struct bpfrr_rt_walk *w = ctx;
	const struct bpfrr_fdm_obj *o = w->rt->fdm ? bpfrr_fdm_lookup(w->rt->fdm, w->c->tid, fd) : NULL;

	if (!o)
		return -ENOENT;
	*kind = o->kind;
	bpfrr_rt_obj_facts(w->rt, o, facts);
	return 0;
}

int bpfrr_rt_value_fds(const struct bpfrr_rt *rt, uint32_t value_type, uint32_t *offsets, unsigned int max)
{
	const struct bpfrr_rec_symbol *s = bpfrr_rt_symbol(rt, BPFRR_SYM_BTF_ID, value_type, "");

	if (!s || !(s->flags & BPFRR_SYM_F_VALUE_FDS) || s->nr_value_fds > max)
		return -ENOENT;
	memcpy(offsets, s->value_fds, s->nr_value_fds * sizeof(*offsets));
	return (int)s->nr_value_fds;
}

static int rt_walk_value_layout(void *ctx, uint32_t value_type, uint32_t *offsets, unsigned int max)
{
	const struct bpfrr_rt_walk *w = ctx;

	return bpfrr_rt_value_fds(w->rt, value_type, offsets, max);
}

const struct bpfrr_abi_env *bpfrr_rt_walk_env(struct bpfrr_rt_walk *w, const struct bpfrr_rt *rt,
					      const struct bpfrr_rt_call *c, enum bpfrr_phase phase)
{
	const struct bpfrr_walk_src src = { rt_walk_read, rt_walk_fd_facts, rt_walk_value_layout, w };

	w->rt = rt;
	w->c = c;
	return bpfrr_walk_env_init(&w->we, &src, phase, rt->nr_cpus, c->attr, c->attr_len);
}

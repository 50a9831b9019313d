// SPDX-License-Identifier: GPL-2.0-only
/*
 * ir.c - building, copying and checking the translator's IR, and what the
 * translator and the runtime both need to know of it: the names slots are
 * pinned under, a call's log buffer (see ir.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "bpf_abi.h"
#include "ir.h"
#include "netlink.h"
#include "sys_abi.h"

/* ld_imm64 as the kernel's UAPI spells it (BPF_LD | BPF_IMM | BPF_DW) */
#define IR_LD_IMM64		0x18
#define IR_PSEUDO_MAP_FD	1
#define IR_PSEUDO_MAP_VALUE	2
#define IR_PSEUDO_BTF_ID	3
/* a kfunc call: BPF_JMP | BPF_CALL with src_reg BPF_PSEUDO_KFUNC_CALL */
#define IR_CALL			0x85
#define IR_PSEUDO_KFUNC_CALL	2


static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static void *memdup_or_null(const void *p, size_t len)
{
	void *q;

	if (!p)
		return NULL;
	q = malloc(len ? len : 1);
	if (q)
		memcpy(q, p, len);
	return q;
}

struct bpfrr_ir *bpfrr_ir_new(void)
{
	return calloc(1, sizeof(struct bpfrr_ir));
}

static void free_call(struct bpfrr_ir_call *c)
{
	uint32_t i;

	for (i = 0; i < c->nr_bufs; i++) {
		free(c->bufs[i].path);
		free(c->bufs[i].data);
	}
	for (i = 0; i < c->nr_resolves; i++) {
		free(c->resolves[i].name);
		free(c->resolves[i].module);
	}
	free(c->bound_why);
	free(c->bufs);
	free(c->fdrels);
	free(c->resolves);
	free(c->outfds);
	free(c->attr);
}

static void free_path_subs(struct bpfrr_ir_slot *s)
{
	uint32_t k;

	for (k = 0; k < s->nr_path_subs; k++)
		free(s->path_subs[k].dev);
	free(s->path_subs);
	s->path_subs = NULL;
	s->nr_path_subs = 0;
}

static int clone_path_subs(struct bpfrr_ir_slot *to, const struct bpfrr_ir_slot *from)
{
	uint32_t k;

	to->path_subs = NULL;
	to->nr_path_subs = 0;
	if (!from->nr_path_subs)
		return 0;
	to->path_subs = calloc(from->nr_path_subs, sizeof(*to->path_subs));
	if (!to->path_subs)
		return -ENOMEM;
	for (k = 0; k < from->nr_path_subs; k++) {
		to->path_subs[k] = from->path_subs[k];
		to->path_subs[k].dev = dup_or_null(from->path_subs[k].dev);
		to->nr_path_subs++;
		if (from->path_subs[k].dev && !to->path_subs[k].dev)
			return -ENOMEM;
	}
	return 0;
}

void bpfrr_ir_free(struct bpfrr_ir *ir)
{
	uint32_t i;

	if (!ir)
		return;
	for (i = 0; i < ir->nr_calls; i++)
		free_call(&ir->calls[i]);
	for (i = 0; i < ir->nr_slots; i++) {
		free(ir->slots[i].name);
		free(ir->slots[i].path);
		bpfrr_ir_contents_free(ir->slots[i].contents);
		free_path_subs(&ir->slots[i]);
	}
	for (i = 0; i < ir->nr_drops; i++) {
		free(ir->drops[i].what);
		free(ir->drops[i].why);
	}
	free(ir->calls);
	free(ir->slots);
	free(ir->drops);
	free(ir->kernel_release);
	free(ir->kernel.release);
	free(ir->kernel.machine);
	free(ir->kernel.build_id);
	free(ir->source);
	bpfrr_ir_sig_free(ir->sig);
	free(ir);
}

void bpfrr_ir_sig_free(struct bpfrr_ir_sig *sig)
{
	if (!sig)
		return;
	free(sig->caps);
	free(sig->build_id);
	free(sig->release);
	free(sig->insns);
	free(sig->blob);
	free(sig->sig);
	free(sig);
}

struct bpfrr_ir_sig *bpfrr_ir_sig_clone(const struct bpfrr_ir_sig *sig)
{
	struct bpfrr_ir_sig *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	*c = *sig;
	c->caps = dup_or_null(sig->caps);
	c->build_id = dup_or_null(sig->build_id);
	c->release = dup_or_null(sig->release);
	c->insns = memdup_or_null(sig->insns, (size_t)sig->nr_insns * 8);
	c->blob = memdup_or_null(sig->blob, sig->blob_size);
	c->sig = memdup_or_null(sig->sig, sig->sig_size);
	if ((sig->caps && !c->caps) || (sig->build_id && !c->build_id) || (sig->release && !c->release) ||
	    (sig->insns && !c->insns) || (sig->blob && !c->blob) || (sig->sig && !c->sig)) {
		bpfrr_ir_sig_free(c);
		return NULL;
	}
	return c;
}

static int clone_call(struct bpfrr_ir_call *dst, const struct bpfrr_ir_call *src)
{
	uint32_t i;

	*dst = *src;
	dst->attr = NULL;
	dst->bufs = NULL;
	dst->fdrels = NULL;
	dst->resolves = NULL;
	dst->outfds = NULL;
	dst->bound_why = NULL;
	dst->nr_bufs = dst->nr_fdrels = dst->nr_resolves = dst->nr_outfds = 0;

	dst->attr = memdup_or_null(src->attr, src->attr_size);
	if (src->attr && !dst->attr)
		return -ENOMEM;
	if (src->nr_bufs) {
		dst->bufs = calloc(src->nr_bufs, sizeof(*dst->bufs));
		if (!dst->bufs)
			return -ENOMEM;
		for (i = 0; i < src->nr_bufs; i++) {
			dst->bufs[i] = src->bufs[i];
			dst->bufs[i].path = dup_or_null(src->bufs[i].path);
			dst->bufs[i].data = memdup_or_null(src->bufs[i].data, src->bufs[i].len);
			dst->nr_bufs++;
			if ((src->bufs[i].path && !dst->bufs[i].path) ||
			    (src->bufs[i].data && !dst->bufs[i].data))
				return -ENOMEM;
		}
	}
	if (src->nr_fdrels) {
		dst->fdrels = memdup_or_null(src->fdrels, src->nr_fdrels * sizeof(*src->fdrels));
		if (!dst->fdrels)
			return -ENOMEM;
		dst->nr_fdrels = src->nr_fdrels;
	}
	if (src->nr_outfds) {
		dst->outfds = memdup_or_null(src->outfds, src->nr_outfds * sizeof(*src->outfds));
		if (!dst->outfds)
			return -ENOMEM;
		dst->nr_outfds = src->nr_outfds;
	}
	if (src->nr_resolves) {
		dst->resolves = calloc(src->nr_resolves, sizeof(*dst->resolves));
		if (!dst->resolves)
			return -ENOMEM;
		for (i = 0; i < src->nr_resolves; i++) {
			dst->resolves[i] = src->resolves[i];
			dst->resolves[i].name = dup_or_null(src->resolves[i].name);
			dst->resolves[i].module = dup_or_null(src->resolves[i].module);
			dst->nr_resolves++;
			if ((src->resolves[i].name && !dst->resolves[i].name) ||
			    (src->resolves[i].module && !dst->resolves[i].module))
				return -ENOMEM;
		}
	}
	dst->bound_why = dup_or_null(src->bound_why);
	if (src->bound_why && !dst->bound_why)
		return -ENOMEM;
	return 0;
}

struct bpfrr_ir *bpfrr_ir_clone(const struct bpfrr_ir *ir)
{
	struct bpfrr_ir *c = bpfrr_ir_new();
	uint32_t i;

	if (!c)
		return NULL;
	c->arch = ir->arch;
	c->nr_recorded = ir->nr_recorded;
	c->kernel_release = dup_or_null(ir->kernel_release);
	c->source = dup_or_null(ir->source);
	c->kernel = ir->kernel;
	c->kernel.release = dup_or_null(ir->kernel.release);
	c->kernel.machine = dup_or_null(ir->kernel.machine);
	c->kernel.build_id = dup_or_null(ir->kernel.build_id);
	if ((ir->kernel_release && !c->kernel_release) || (ir->source && !c->source) ||
	    (ir->kernel.release && !c->kernel.release) || (ir->kernel.machine && !c->kernel.machine) ||
	    (ir->kernel.build_id && !c->kernel.build_id))
		goto fail;
	if (ir->sig) {
		c->sig = bpfrr_ir_sig_clone(ir->sig);
		if (!c->sig)
			goto fail;
	}
	if (bpfrr_grow((void **)&c->calls, &c->cap_calls, ir->nr_calls, sizeof(*c->calls)) ||
	    bpfrr_grow((void **)&c->slots, &c->cap_slots, ir->nr_slots, sizeof(*c->slots)) ||
	    bpfrr_grow((void **)&c->drops, &c->cap_drops, ir->nr_drops, sizeof(*c->drops)))
		goto fail;
	for (i = 0; i < ir->nr_calls; i++) {
		c->nr_calls++;
		if (clone_call(&c->calls[i], &ir->calls[i]))
			goto fail;
	}
	for (i = 0; i < ir->nr_slots; i++) {
		bool ok;

		c->slots[i] = ir->slots[i];
		c->slots[i].name = dup_or_null(ir->slots[i].name);
		c->slots[i].path = dup_or_null(ir->slots[i].path);
		c->slots[i].contents = bpfrr_ir_contents_clone(ir->slots[i].contents, &ok);
		c->nr_slots++;
		if (clone_path_subs(&c->slots[i], &ir->slots[i]))
			ok = false;
		if ((ir->slots[i].name && !c->slots[i].name) || (ir->slots[i].path && !c->slots[i].path) || !ok)
			goto fail;
	}
	for (i = 0; i < ir->nr_drops; i++) {
		c->drops[i] = ir->drops[i];
		c->drops[i].what = dup_or_null(ir->drops[i].what);
		c->drops[i].why = dup_or_null(ir->drops[i].why);
		c->nr_drops++;
		if ((ir->drops[i].what && !c->drops[i].what) || (ir->drops[i].why && !c->drops[i].why))
			goto fail;
	}
	return c;
fail:
	bpfrr_ir_free(c);
	return NULL;
}

static bool name_ok(const char *name)
{
	return !name || strlen(name) < BPFRR_IR_MAX_NAME;
}

static int add_slot(struct bpfrr_ir *ir, uint32_t kind, uint32_t source, const char *name,
		    const char *path, uint32_t open_flags)
{
	struct bpfrr_ir_slot *s;

	if (kind == BPFRR_OBJ_NONE || kind >= BPFRR_OBJ__MAX || !name_ok(name))
		return -EINVAL;
	if (ir->nr_slots >= BPFRR_IR_MAX_SLOTS)
		return -E2BIG;
	if (bpfrr_grow((void **)&ir->slots, &ir->cap_slots, ir->nr_slots + 1, sizeof(*ir->slots)))
		return -ENOMEM;
	s = &ir->slots[ir->nr_slots];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->source = source;
	s->producer = -1;
	s->open_flags = open_flags;
	s->name = dup_or_null(name);
	s->path = dup_or_null(path);
	if ((name && !s->name) || (path && !s->path)) {
		free(s->name);
		free(s->path);
		return -ENOMEM;
	}
	return ir->nr_slots++;
}

int bpfrr_ir_add_slot(struct bpfrr_ir *ir, uint32_t kind, const char *name)
{
	return add_slot(ir, kind, BPFRR_IR_SLOT_CALL, name, NULL, 0);
}

int bpfrr_ir_add_path_slot(struct bpfrr_ir *ir, uint32_t kind, const char *name, const char *path,
			   uint32_t open_flags)
{
	if (!path || !*path || strlen(path) >= 4096)
		return -EINVAL;
	return add_slot(ir, kind, BPFRR_IR_SLOT_PATH, name, path, open_flags);
}

int bpfrr_ir_add_path_sub(struct bpfrr_ir *ir, uint32_t dir_slot, uint32_t off, uint32_t len, uint32_t kind,
			  int32_t obj_slot, const char *dev)
{
	struct bpfrr_ir_slot *s = dir_slot < ir->nr_slots ? &ir->slots[dir_slot] : NULL;
	struct bpfrr_ir_path_sub *subs, *sub;

	if (!s || s->source != BPFRR_IR_SLOT_MKDIR || s->nr_path_subs >= BPFRR_IR_MAX_PATH_SUBS)
		return -EINVAL;
	subs = realloc(s->path_subs, (s->nr_path_subs + 1) * sizeof(*subs));
	if (!subs)
		return -ENOMEM;
	s->path_subs = subs;
	sub = &subs[s->nr_path_subs];
	*sub = (struct bpfrr_ir_path_sub){ .off = off, .len = len, .kind = kind, .obj_slot = obj_slot };
	if (dev && !(sub->dev = strdup(dev)))
		return -ENOMEM;
	s->nr_path_subs++;
	return 0;
}

int bpfrr_ir_path_subst(const struct bpfrr_ir_slot *s, const uint64_t *values, char *out, size_t size)
{
	size_t at = 0, from = 0, plen = s->path ? strlen(s->path) : 0;
	uint32_t k;
	int n;

	for (k = 0; k <= s->nr_path_subs; k++) {
		size_t upto = k < s->nr_path_subs ? s->path_subs[k].off : plen;

		if (upto < from || upto > plen || upto - from >= size - at)
			return -ENAMETOOLONG;
		memcpy(out + at, s->path + from, upto - from);
		at += upto - from;
		out[at] = '\0';
		if (k == s->nr_path_subs)
			break;
		n = snprintf(out + at, size - at, "%" PRIu64, values[k]);
		if (n < 0 || (size_t)n >= size - at)
			return -ENAMETOOLONG;
		at += (size_t)n;
		from = upto + s->path_subs[k].len;
	}
	return 0;
}

int bpfrr_ir_add_dir_slot(struct bpfrr_ir *ir, const char *name, const char *path, uint32_t mode)
{
	if (!path || path[0] != '/' || strlen(path) >= 4096 || mode & ~07777u)
		return -EINVAL;
	return add_slot(ir, BPFRR_OBJ_DIR, BPFRR_IR_SLOT_MKDIR, name, path, mode);
}

int bpfrr_ir_add_call(struct bpfrr_ir *ir, uint64_t seq, uint32_t op, uint32_t cmd, const void *attr,
		      uint32_t attr_size)
{
	struct bpfrr_ir_call *c;

	if (op < BPFRR_IR_BPF || op > BPFRR_IR_OP__LAST || attr_size > BPFRR_IR_MAX_ATTR ||
	    (attr_size && !attr))
		return -EINVAL;
	if (ir->nr_calls >= BPFRR_IR_MAX_CALLS)
		return -E2BIG;
	if (bpfrr_grow((void **)&ir->calls, &ir->cap_calls, ir->nr_calls + 1, sizeof(*ir->calls)))
		return -ENOMEM;
	c = &ir->calls[ir->nr_calls];
	memset(c, 0, sizeof(*c));
	c->seq = seq;
	c->op = op;
	c->cmd = cmd;
	c->result_slot = -1;
	c->attr_size = attr_size;
	if (attr_size) {
		c->attr = malloc(attr_size);
		if (!c->attr)
			return -ENOMEM;
		memcpy(c->attr, attr, attr_size);
	}
	return ir->nr_calls++;
}

int bpfrr_ir_add_buf(struct bpfrr_ir *ir, uint32_t call, int32_t parent, uint32_t ptr_offset,
		     const char *path, const void *data, uint32_t len, uint32_t dir, uint32_t content)
{
	struct bpfrr_ir_call *c;
	struct bpfrr_ir_buf *b;
	uint32_t cap;

	if (call >= ir->nr_calls || !path || !name_ok(path) || dir < 1 || dir > 3)
		return -EINVAL;
	c = &ir->calls[call];
	if (parent < BPFRR_IR_IN_ATTR || (parent >= 0 && (uint32_t)parent >= c->nr_bufs))
		return -EINVAL;
	if (len > BPFRR_IR_MAX_BUF)
		return -E2BIG;
	cap = c->nr_bufs;
	if (bpfrr_grow((void **)&c->bufs, &cap, c->nr_bufs + 1, sizeof(*c->bufs)))
		return -ENOMEM;
	b = &c->bufs[c->nr_bufs];
	memset(b, 0, sizeof(*b));
	b->parent = parent;
	b->ptr_offset = ptr_offset;
	b->len = len;
	b->dir = dir;
	b->content = content;
	if (content == BPFRR_CONTENT_LOG)
		b->flags |= BPFRR_IR_BUF_LOG;
	b->path = strdup(path);
	if (!b->path)
		return -ENOMEM;
	if (dir != BPFRR_DIR_OUT) {
		b->data = calloc(1, len ? len : 1);
		if (!b->data) {
			free(b->path);
			return -ENOMEM;
		}
		if (data)
			memcpy(b->data, data, len);
	}
	return c->nr_bufs++;
}

int bpfrr_ir_add_fdrel(struct bpfrr_ir *ir, uint32_t call, int32_t buf, uint32_t offset, uint32_t slot,
		       uint32_t ref)
{
	struct bpfrr_ir_call *c;
	uint32_t cap;

	if (call >= ir->nr_calls || slot >= ir->nr_slots || ref < BPFRR_IR_REF_FIELD ||
	    ref > BPFRR_IR_REF_ARG)
		return -EINVAL;
	c = &ir->calls[call];
	if (buf < BPFRR_IR_IN_ARG || (buf >= 0 && (uint32_t)buf >= c->nr_bufs))
		return -EINVAL;
	cap = c->nr_fdrels;
	if (bpfrr_grow((void **)&c->fdrels, &cap, c->nr_fdrels + 1, sizeof(*c->fdrels)))
		return -ENOMEM;
	c->fdrels[c->nr_fdrels] = (struct bpfrr_ir_fdrel){ buf, offset, slot, ref };
	return c->nr_fdrels++;
}

int bpfrr_ir_add_resolve(struct bpfrr_ir *ir, uint32_t call, uint32_t kind, uint32_t offset,
			 uint32_t size, const char *name)
{
	struct bpfrr_ir_call *c;
	uint32_t cap;

	/* the by-name kinds: a file's content (PMU type, tracepoint id) or a device's index */
	if (call >= ir->nr_calls ||
	    (kind != BPFRR_IR_RESOLVE_PMU_TYPE && kind != BPFRR_IR_RESOLVE_TP_ID && kind != BPFRR_IR_RESOLVE_IFINDEX) ||
	    (size != 4 && size != 8) || (kind == BPFRR_IR_RESOLVE_IFINDEX && size != 4) || !name || !*name ||
	    !name_ok(name))
		return -EINVAL;
	c = &ir->calls[call];
	cap = c->nr_resolves;
	if (bpfrr_grow((void **)&c->resolves, &cap, c->nr_resolves + 1, sizeof(*c->resolves)))
		return -ENOMEM;
	c->resolves[c->nr_resolves] = (struct bpfrr_ir_resolve){
		.kind = kind, .offset = offset, .size = size, .name = strdup(name), .buf = BPFRR_IR_IN_ATTR,
	};
	if (!c->resolves[c->nr_resolves].name)
		return -ENOMEM;
	return c->nr_resolves++;
}

int bpfrr_ir_add_symbol_resolve(struct bpfrr_ir *ir, uint32_t call, uint32_t kind, int32_t buf,
				uint32_t offset, const char *name, const char *module, uint32_t btf_kind,
				int64_t addend)
{
	struct bpfrr_ir_resolve *r;
	struct bpfrr_ir_call *c;
	uint32_t cap;

	if (call >= ir->nr_calls || (kind != BPFRR_IR_RESOLVE_BTF_ID && kind != BPFRR_IR_RESOLVE_KSYM_ADDR) ||
	    !name || !*name || !name_ok(name) || !name_ok(module) ||
	    (kind == BPFRR_IR_RESOLVE_BTF_ID && (!btf_kind || addend)) ||
	    (kind == BPFRR_IR_RESOLVE_KSYM_ADDR && btf_kind))
		return -EINVAL;
	c = &ir->calls[call];
	if (buf < BPFRR_IR_IN_ATTR || (buf >= 0 && (uint32_t)buf >= c->nr_bufs))
		return -EINVAL;
	cap = c->nr_resolves;
	if (bpfrr_grow((void **)&c->resolves, &cap, c->nr_resolves + 1, sizeof(*c->resolves)))
		return -ENOMEM;
	r = &c->resolves[c->nr_resolves];
	*r = (struct bpfrr_ir_resolve){
		.kind = kind, .offset = offset, .size = kind == BPFRR_IR_RESOLVE_BTF_ID ? 4 : 8,
		.name = strdup(name), .buf = buf, .module = strdup(module ? module : ""),
		.btf_kind = btf_kind, .addend = addend,
	};
	if (!r->name || !r->module) {
		free(r->name);
		free(r->module);
		return -ENOMEM;
	}
	return c->nr_resolves++;
}

int bpfrr_ir_set_build_bound(struct bpfrr_ir *ir, uint32_t call, const char *why)
{
	struct bpfrr_ir_call *c;

	if (call >= ir->nr_calls || !why || !*why || !name_ok(why))
		return -EINVAL;
	c = &ir->calls[call];
	c->flags |= BPFRR_IR_CALL_BUILD_BOUND;
	if (c->bound_why)
		return 0;
	c->bound_why = strdup(why);
	return c->bound_why ? 0 : -ENOMEM;
}

int bpfrr_ir_set_kernel(struct bpfrr_ir *ir, const char *release, const char *machine, uint32_t btf_size,
			const uint8_t btf_sha256[32])
{
	char *r = dup_or_null(release), *m = dup_or_null(machine);

	if ((release && !r) || (machine && !m)) {
		free(r);
		free(m);
		return -ENOMEM;
	}
	free(ir->kernel.release);
	free(ir->kernel.machine);
	ir->kernel.known = 1;
	ir->kernel.btf_size = btf_size;
	memcpy(ir->kernel.btf_sha256, btf_sha256, 32);
	ir->kernel.release = r;
	ir->kernel.machine = m;
	return 0;
}

int bpfrr_ir_set_kernel_build_id(struct bpfrr_ir *ir, const char *build_id, uint32_t flags)
{
	char *b = build_id && build_id[0] ? strdup(build_id) : NULL;

	if (!ir->kernel.known || (flags & ~BPFRR_IR_KERNEL_BTF_UNHASHED))
		return -EINVAL;
	if (build_id && build_id[0] && !b)
		return -ENOMEM;
	free(ir->kernel.build_id);
	ir->kernel.build_id = b;
	ir->kernel.flags = flags;
	return 0;
}

int bpfrr_ir_set_result(struct bpfrr_ir *ir, uint32_t call, uint32_t slot)
{
	if (call >= ir->nr_calls || slot >= ir->nr_slots ||
	    ir->slots[slot].source != BPFRR_IR_SLOT_CALL || ir->slots[slot].producer >= 0)
		return -EINVAL;
	ir->calls[call].result_slot = slot;
	ir->slots[slot].producer = call;
	return 0;
}

int bpfrr_ir_add_outfd(struct bpfrr_ir *ir, uint32_t call, int32_t buf, uint32_t offset, uint32_t slot)
{
	struct bpfrr_ir_call *c;
	uint32_t cap;

	if (call >= ir->nr_calls || slot >= ir->nr_slots || ir->slots[slot].source != BPFRR_IR_SLOT_CALL ||
	    ir->slots[slot].producer >= 0)
		return -EINVAL;
	c = &ir->calls[call];
	if (buf < 0 || (uint32_t)buf >= c->nr_bufs || (uint64_t)offset + 4 > c->bufs[buf].len)
		return -EINVAL;
	cap = c->nr_outfds;
	if (bpfrr_grow((void **)&c->outfds, &cap, c->nr_outfds + 1, sizeof(*c->outfds)))
		return -ENOMEM;
	c->outfds[c->nr_outfds] = (struct bpfrr_ir_outfd){ buf, offset, slot };
	ir->slots[slot].producer = (int32_t)call;
	return (int)c->nr_outfds++;
}

bool bpfrr_ir_call_makes_slot(const struct bpfrr_ir_call *c, uint32_t slot)
{
	uint32_t i;

	if (c->result_slot >= 0 && (uint32_t)c->result_slot == slot)
		return true;
	for (i = 0; i < c->nr_outfds; i++)
		if (c->outfds[i].slot == slot)
			return true;
	return false;
}

int bpfrr_ir_add_drop(struct bpfrr_ir *ir, uint64_t seq, const char *what, const char *why)
{
	struct bpfrr_ir_drop *d;

	if (!what || !why || !name_ok(what) || !name_ok(why))
		return -EINVAL;
	if (ir->nr_drops >= BPFRR_IR_MAX_CALLS)
		return -E2BIG;
	if (bpfrr_grow((void **)&ir->drops, &ir->cap_drops, ir->nr_drops + 1, sizeof(*ir->drops)))
		return -ENOMEM;
	d = &ir->drops[ir->nr_drops];
	d->seq = seq;
	d->what = strdup(what);
	d->why = strdup(why);
	if (!d->what || !d->why) {
		free(d->what);
		free(d->why);
		return -ENOMEM;
	}
	return ir->nr_drops++;
}

bool bpfrr_ir_has_resolve(const struct bpfrr_ir *ir, uint32_t kind)
{
	uint32_t i, j;

	for (i = 0; i < ir->nr_calls; i++)
		for (j = 0; j < ir->calls[i].nr_resolves; j++)
			if (!kind || ir->calls[i].resolves[j].kind == kind)
				return true;
	return false;
}

bool bpfrr_ir_resolved_at(const struct bpfrr_ir_call *c, int32_t buf, uint32_t offset,
			  const struct bpfrr_ir_resolve **r, uint64_t *val)
{
	uint32_t i;

	for (i = 0; i < c->nr_resolves; i++) {
		const struct bpfrr_ir_resolve *rs = &c->resolves[i];
		const uint8_t *base;
		uint32_t v32;

		if (rs->buf != buf || rs->offset != offset)
			continue;
		base = buf >= 0 ? ((uint32_t)buf < c->nr_bufs ? c->bufs[buf].data : NULL) : c->attr;
		if (!base)
			return false;
		if (rs->size == 4) {
			memcpy(&v32, base + offset, 4);
			*val = v32;
		} else {
			memcpy(val, base + offset, 8);
		}
		if (r)
			*r = rs;
		return true;
	}
	return false;
}

int bpfrr_ir_first_build_bound(const struct bpfrr_ir *ir)
{
	uint32_t i;

	for (i = 0; i < ir->nr_calls; i++)
		if (ir->calls[i].flags & BPFRR_IR_CALL_BUILD_BOUND)
			return (int)i;
	return -1;
}

const char *bpfrr_ir_resolve_kind_name(uint32_t kind)
{
	switch (kind) {
	case BPFRR_IR_RESOLVE_PMU_TYPE: return "PMU type";
	case BPFRR_IR_RESOLVE_TP_ID: return "tracepoint id";
	case BPFRR_IR_RESOLVE_BTF_ID: return "BTF id";
	case BPFRR_IR_RESOLVE_KSYM_ADDR: return "kernel address";
	case BPFRR_IR_RESOLVE_IFINDEX: return "ifindex";
	}
	return "value";
}

const char *bpfrr_ir_btf_kind_name(uint32_t btf_kind)
{
	/* the kernel's BTF_KIND_* numbers (include/uapi/linux/btf.h) */
	static const char *const names[] = {
		"unknown", "int", "ptr", "array", "struct", "union", "enum", "fwd", "typedef", "volatile",
		"const", "restrict", "func", "func_proto", "var", "datasec", "float", "decl_tag",
		"type_tag", "enum64",
	};

	return btf_kind < sizeof(names) / sizeof(names[0]) ? names[btf_kind] : NULL;
}

const char *bpfrr_ir_resolve_desc(const struct bpfrr_ir_resolve *r, char *buf, size_t size)
{
	const char *mod = r->module && *r->module ? r->module : NULL;
	const char *kind;

	switch (r->kind) {
	case BPFRR_IR_RESOLVE_PMU_TYPE:
		snprintf(buf, size, "PMU %s", r->name);
		break;
	case BPFRR_IR_RESOLVE_TP_ID:
		snprintf(buf, size, "tracepoint %s", r->name);
		break;
	case BPFRR_IR_RESOLVE_IFINDEX:
		snprintf(buf, size, "dev %s", r->name);
		break;
	case BPFRR_IR_RESOLVE_BTF_ID:
		kind = bpfrr_ir_btf_kind_name(r->btf_kind);
		if (kind)
			snprintf(buf, size, "%s %s%s%s%s", kind, r->name, mod ? " [" : "", mod ? mod : "",
				 mod ? "]" : "");
		else
			snprintf(buf, size, "kind %u %s%s%s%s", r->btf_kind, r->name, mod ? " [" : "",
				 mod ? mod : "", mod ? "]" : "");
		break;
	case BPFRR_IR_RESOLVE_KSYM_ADDR:
		if (r->addend)
			snprintf(buf, size, "ksym %s%s0x%llx%s%s%s", r->name, r->addend < 0 ? "-" : "+",
				 (unsigned long long)(r->addend < 0 ? -(uint64_t)r->addend : (uint64_t)r->addend),
				 mod ? " [" : "", mod ? mod : "", mod ? "]" : "");
		else
			snprintf(buf, size, "ksym %s%s%s%s", r->name, mod ? " [" : "", mod ? mod : "",
				 mod ? "]" : "");
		break;
	default:
		snprintf(buf, size, "%s", r->name ? r->name : "?");
	}
	return buf;
}

const char *bpfrr_ir_resolve_where(const struct bpfrr_ir_call *c, const struct bpfrr_ir_resolve *r, char *buf,
				   size_t size)
{
	static const struct { uint32_t offset; const char *name; } perf_fields[] = {
		{ 0, "type" }, { 8, "config" }, { 56, "config1" }, { 64, "config2" },
	};
	const struct bpfrr_cmd_desc *d;
	const char *field = NULL;
	uint32_t i;

	if (r->buf >= 0 && (uint32_t)r->buf < c->nr_bufs) {
		const struct bpfrr_ir_buf *b = &c->bufs[r->buf];
		const char *path = b->path;

		if (!strncmp(path, "attr.", 5))
			path += 5;
		if (b->content == BPFRR_CONTENT_INSNS)
			snprintf(buf, size, "%s[%u].imm", path, r->offset / 8);
		else
			snprintf(buf, size, "%s[%u]", path, r->offset / (r->size ? r->size : 1));
		return buf;
	}
	if (c->op == BPFRR_IR_NETLINK && r->kind == BPFRR_IR_RESOLVE_IFINDEX) {
		snprintf(buf, size, "ifindex");
		return buf;
	}
	if (c->op == BPFRR_IR_PERF_EVENT_OPEN) {
		for (i = 0; i < sizeof(perf_fields) / sizeof(perf_fields[0]); i++)
			if (perf_fields[i].offset == r->offset)
				field = perf_fields[i].name;
	} else if (c->op == BPFRR_IR_BPF && (d = bpfrr_abi_cmd((int)c->cmd)) && d->attr) {
		/* a BTF id field first: a union may give the bytes other names */
		for (i = 0; i < d->attr->nr_fields && !field; i++)
			if (d->attr->fields[i].offset == r->offset &&
			    d->attr->fields[i].content == BPFRR_CONTENT_BTF_ID)
				field = d->attr->fields[i].name;
		for (i = 0; i < d->attr->nr_fields && !field; i++)
			if (d->attr->fields[i].offset == r->offset)
				field = d->attr->fields[i].name;
	}
	if (field)
		snprintf(buf, size, "%s", field);
	else
		snprintf(buf, size, "attr+%u", r->offset);
	return buf;
}

bool bpfrr_ir_has_perf_event_open(const struct bpfrr_ir *ir)
{
	uint32_t i;

	for (i = 0; i < ir->nr_calls; i++)
		if (ir->calls[i].op == BPFRR_IR_PERF_EVENT_OPEN)
			return true;
	return false;
}

bool bpfrr_ir_call_uses_slot(const struct bpfrr_ir_call *c, uint32_t slot)
{
	uint32_t i;

	if (bpfrr_ir_call_makes_slot(c, slot))
		return true;
	for (i = 0; i < c->nr_fdrels; i++)
		if (c->fdrels[i].slot == slot)
			return true;
	return false;
}

const char *bpfrr_ir_call_name(const struct bpfrr_ir_call *c, char *buf, size_t size)
{
	const char *name;

	switch (c->op) {
	case BPFRR_IR_BPF:
		name = bpfrr_abi_cmd_name(c->cmd);
		if (name)
			snprintf(buf, size, "%s", name);
		else
			snprintf(buf, size, "bpf(cmd %u)", c->cmd);
		break;
	case BPFRR_IR_PERF_EVENT_OPEN:
		snprintf(buf, size, "perf_event_open");
		break;
	case BPFRR_IR_IOCTL:
		name = bpfrr_perf_ioc_name(c->cmd);
		if (name)
			snprintf(buf, size, "ioctl(%s)", name);
		else
			snprintf(buf, size, "ioctl(0x%x)", c->cmd);
		break;
	case BPFRR_IR_NETLINK:
		name = bpfrr_nl_type_name((uint16_t)c->cmd);
		if (name)
			snprintf(buf, size, "netlink(%s)", name);
		else
			snprintf(buf, size, "netlink(type %u)", c->cmd);
		break;
	default:
		snprintf(buf, size, "op %u", c->op);
	}
	return buf;
}

const char *bpfrr_ir_ref_name(uint32_t ref)
{
	switch (ref) {
	case BPFRR_IR_REF_FIELD: return "field";
	case BPFRR_IR_REF_LD_IMM64: return "ld_imm64";
	case BPFRR_IR_REF_BTF_MODULE: return "btf_module";
	case BPFRR_IR_REF_FD_ARRAY: return "fd_array";
	case BPFRR_IR_REF_MAP_VALUE: return "map_value";
	case BPFRR_IR_REF_ARG: return "arg";
	}
	return NULL;
}

/* --- validation ------------------------------------------------------------ */

struct verr {
	char *buf;
	size_t size;
};

static int fail(struct verr *v, const struct bpfrr_ir *ir, int call, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail(struct verr *v, const struct bpfrr_ir *ir, int call, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (v->buf && v->size) {
		if (call >= 0)
			n = snprintf(v->buf, v->size, "call %d (seq %llu): ", call,
				     (unsigned long long)ir->calls[call].seq);
		if (n < 0 || (size_t)n >= v->size)
			n = 0;
		va_start(ap, fmt);
		vsnprintf(v->buf + n, v->size - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Size of the parent a buffer pointer or an fd lives in. */
static int64_t parent_len(const struct bpfrr_ir_call *c, int32_t parent)
{
	if (parent == BPFRR_IR_IN_ATTR)
		return c->attr_size;
	if (parent == BPFRR_IR_IN_ARG)
		return 4;
	return c->bufs[parent].len;
}

static bool ranges_overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

/*
 * A resolution sits inside the attr or an input buffer, not where a buffer
 * pointer or an fd is written; a BTF id inside the instructions is the imm
 * of an ld_imm64 BPF_PSEUDO_BTF_ID or of a kfunc call.
 */
static int check_resolve(struct verr *v, const struct bpfrr_ir *ir, uint32_t ci, uint32_t i)
{
	const struct bpfrr_ir_call *c = &ir->calls[ci];
	const struct bpfrr_ir_resolve *r = &c->resolves[i];
	const struct bpfrr_ir_buf *b;
	const uint8_t *insn;
	uint32_t j;

	if (r->kind < BPFRR_IR_RESOLVE_PMU_TYPE || r->kind > BPFRR_IR_RESOLVE__LAST || !r->name || !*r->name)
		return fail(v, ir, ci, "resolution %u: kind %u or no name", i, r->kind);
	if ((r->kind == BPFRR_IR_RESOLVE_BTF_ID && (r->size != 4 || !r->btf_kind)) ||
	    (r->kind == BPFRR_IR_RESOLVE_KSYM_ADDR && r->size != 8) || (r->size != 4 && r->size != 8))
		return fail(v, ir, ci, "resolution %u: %s of %u bytes", i, bpfrr_ir_resolve_kind_name(r->kind),
			    r->size);
	if ((r->kind == BPFRR_IR_RESOLVE_PMU_TYPE || r->kind == BPFRR_IR_RESOLVE_TP_ID) &&
	    r->buf != BPFRR_IR_IN_ATTR)
		return fail(v, ir, ci, "resolution %u: a %s outside the attr", i,
			    bpfrr_ir_resolve_kind_name(r->kind));
	if (r->buf < BPFRR_IR_IN_ATTR || (r->buf >= 0 && (uint32_t)r->buf >= c->nr_bufs))
		return fail(v, ir, ci, "resolution %u: no buffer %d", i, r->buf);
	if ((uint64_t)r->offset + r->size > (uint64_t)parent_len(c, r->buf))
		return fail(v, ir, ci, "resolution %u: offset %u outside %s", i, r->offset,
			    r->buf < 0 ? "the attr" : c->bufs[r->buf].path);
	for (j = 0; j < c->nr_bufs; j++)
		if (c->bufs[j].parent == r->buf && ranges_overlap(c->bufs[j].ptr_offset, 8, r->offset, r->size))
			return fail(v, ir, ci, "resolution %u overlaps pointer %s", i, c->bufs[j].path);
	for (j = 0; j < c->nr_fdrels; j++)
		if (c->fdrels[j].buf == r->buf && ranges_overlap(c->fdrels[j].offset, 4, r->offset, r->size))
			return fail(v, ir, ci, "resolution %u overlaps fd relocation %u", i, j);
	if (r->buf < 0)
		return 0;
	b = &c->bufs[r->buf];
	if (b->dir == BPFRR_DIR_OUT || !b->data)
		return fail(v, ir, ci, "resolution %u: inside output buffer %s", i, b->path);
	if (b->content != BPFRR_CONTENT_INSNS)
		return r->offset % r->size ? fail(v, ir, ci, "resolution %u: misaligned in %s", i, b->path) : 0;
	/* in the instructions: only a BTF id, in the imm (bytes 4..7) of an instruction */
	if (r->kind != BPFRR_IR_RESOLVE_BTF_ID || r->offset % 8 != 4)
		return fail(v, ir, ci, "resolution %u: a %s not at an instruction's imm", i,
			    bpfrr_ir_resolve_kind_name(r->kind));
	insn = b->data + r->offset - 4;
	if (insn[0] == IR_LD_IMM64 && (insn[1] >> 4) == IR_PSEUDO_BTF_ID && r->offset + 12 <= b->len)
		return 0;
	if (insn[0] == IR_CALL && (insn[1] >> 4) == IR_PSEUDO_KFUNC_CALL)
		return 0;
	return fail(v, ir, ci, "resolution %u: instruction %u is neither an ld_imm64 of a BTF id nor a kfunc "
		    "call", i, (r->offset - 4) / 8);
}

static int check_call(struct verr *v, const struct bpfrr_ir *ir, uint32_t ci, const uint32_t *made_at)
{
	const struct bpfrr_ir_call *c = &ir->calls[ci];
	uint32_t i, j;

	if (c->op < BPFRR_IR_BPF || c->op > BPFRR_IR_OP__LAST)
		return fail(v, ir, ci, "unknown op %u", c->op);
	/* a netlink request is one whole message, which returns no fd */
	if (c->op == BPFRR_IR_NETLINK) {
		uint32_t len;

		if (c->attr_size < 16 || (memcpy(&len, c->attr, 4), len != c->attr_size))
			return fail(v, ir, ci, "a netlink request of %u bytes that is not one message", c->attr_size);
		if (c->result_slot >= 0 || c->nr_bufs || c->nr_outfds)
			return fail(v, ir, ci, "a netlink request returns no fd and points to nothing");
		for (i = 0; i < c->nr_fdrels; i++)
			if (c->fdrels[i].buf != BPFRR_IR_IN_ATTR || c->fdrels[i].offset > c->attr_size - 4)
				return fail(v, ir, ci, "fd %u of a netlink request outside its message", i);
	}
	if (c->attr_size > BPFRR_IR_MAX_ATTR || (c->attr_size && !c->attr))
		return fail(v, ir, ci, "attr of %u bytes", c->attr_size);
	if (c->op != BPFRR_IR_IOCTL && !c->attr_size)
		return fail(v, ir, ci, "no attr");
	for (i = 0; i < c->nr_bufs; i++) {
		const struct bpfrr_ir_buf *b = &c->bufs[i];

		if (b->parent < BPFRR_IR_IN_ATTR || (b->parent >= 0 && (uint32_t)b->parent >= i))
			return fail(v, ir, ci, "%s: parent %d is not the attr or an earlier buffer",
				    b->path, b->parent);
		if ((uint64_t)b->ptr_offset + 8 > (uint64_t)parent_len(c, b->parent) || b->ptr_offset % 8)
			return fail(v, ir, ci, "%s: pointer at offset %u outside its parent or misaligned",
				    b->path, b->ptr_offset);
		if (b->len > BPFRR_IR_MAX_BUF || b->dir < 1 || b->dir > 3)
			return fail(v, ir, ci, "%s: bad length %u or direction %u", b->path, b->len, b->dir);
		if (b->dir != BPFRR_DIR_OUT && !b->data)
			return fail(v, ir, ci, "%s: input buffer without data", b->path);
		for (j = 0; j < i; j++)
			if (c->bufs[j].parent == b->parent && c->bufs[j].ptr_offset == b->ptr_offset)
				return fail(v, ir, ci, "%s and %s: two buffers for one pointer",
					    c->bufs[j].path, b->path);
	}
	for (i = 0; i < c->nr_fdrels; i++) {
		const struct bpfrr_ir_fdrel *r = &c->fdrels[i];

		if (r->slot >= ir->nr_slots)
			return fail(v, ir, ci, "fd relocation %u: slot %u of %u", i, r->slot, ir->nr_slots);
		if (made_at[r->slot] > ci)
			return fail(v, ir, ci, "fd relocation %u: slot %u (%s) is used before it is made",
				    i, r->slot, ir->slots[r->slot].name ? ir->slots[r->slot].name : "?");
		if (r->buf < BPFRR_IR_IN_ARG || (r->buf >= 0 && (uint32_t)r->buf >= c->nr_bufs))
			return fail(v, ir, ci, "fd relocation %u: no buffer %d", i, r->buf);
		if (r->buf == BPFRR_IR_IN_ARG) {
			if (r->offset >= 4 || c->op == BPFRR_IR_BPF)
				return fail(v, ir, ci, "fd relocation %u: argument %u", i, r->offset);
			continue;
		}
		if ((uint64_t)r->offset + 4 > (uint64_t)parent_len(c, r->buf) || r->offset % 4)
			return fail(v, ir, ci, "fd relocation %u: offset %u outside %s or misaligned", i,
				    r->offset, r->buf < 0 ? "the attr" : c->bufs[r->buf].path);
		if (r->buf >= 0 && c->bufs[r->buf].dir == BPFRR_DIR_OUT)
			return fail(v, ir, ci, "fd relocation %u: inside output buffer %s", i,
				    c->bufs[r->buf].path);
		/* an fd must not sit where a buffer pointer will be written */
		for (j = 0; j < c->nr_bufs; j++)
			if (c->bufs[j].parent == r->buf &&
			    ranges_overlap(c->bufs[j].ptr_offset, 8, r->offset, 4))
				return fail(v, ir, ci, "fd relocation %u overlaps pointer %s", i,
					    c->bufs[j].path);
		if (r->ref == BPFRR_IR_REF_LD_IMM64 || r->ref == BPFRR_IR_REF_BTF_MODULE) {
			const uint8_t *insn;
			uint32_t at = r->ref == BPFRR_IR_REF_LD_IMM64 ? r->offset - 4 : r->offset - 12;

			if (r->buf < 0 || c->bufs[r->buf].content != BPFRR_CONTENT_INSNS ||
			    r->offset < 12 * (r->ref == BPFRR_IR_REF_BTF_MODULE) + 4 ||
			    (uint64_t)at + 16 > c->bufs[r->buf].len || at % 8)
				return fail(v, ir, ci, "fd relocation %u: %s not at an instruction's imm", i,
					    bpfrr_ir_ref_name(r->ref));
			insn = c->bufs[r->buf].data + at;
			if (insn[0] != IR_LD_IMM64 ||
			    (r->ref == BPFRR_IR_REF_LD_IMM64 && (insn[1] >> 4) != IR_PSEUDO_MAP_FD &&
			     (insn[1] >> 4) != IR_PSEUDO_MAP_VALUE) ||
			    (r->ref == BPFRR_IR_REF_BTF_MODULE && (insn[1] >> 4) != IR_PSEUDO_BTF_ID))
				return fail(v, ir, ci, "fd relocation %u: instruction %u is not an ld_imm64 "
					    "with a map/BTF fd", i, at / 8);
		}
	}
	for (i = 0; i < c->nr_resolves; i++) {
		int ret = check_resolve(v, ir, ci, i);

		if (ret)
			return ret;
	}
	if ((c->flags & BPFRR_IR_CALL_BUILD_BOUND) && (!c->bound_why || !*c->bound_why))
		return fail(v, ir, ci, "build-bound without a reason");
	if (c->result_slot >= 0) {
		const struct bpfrr_ir_slot *s;

		if ((uint32_t)c->result_slot >= ir->nr_slots)
			return fail(v, ir, ci, "result slot %d of %u", c->result_slot, ir->nr_slots);
		s = &ir->slots[c->result_slot];
		if (s->source != BPFRR_IR_SLOT_CALL || s->producer != (int32_t)ci)
			return fail(v, ir, ci, "result slot %d does not name this call as its maker",
				    c->result_slot);
		if (c->op == BPFRR_IR_IOCTL)
			return fail(v, ir, ci, "ioctl returns no fd");
	}
	for (i = 0; i < c->nr_outfds; i++) {
		const struct bpfrr_ir_outfd *o = &c->outfds[i];
		const struct bpfrr_ir_slot *s;

		if (o->slot >= ir->nr_slots)
			return fail(v, ir, ci, "product %u: slot %u of %u", i, o->slot, ir->nr_slots);
		s = &ir->slots[o->slot];
		if (s->source != BPFRR_IR_SLOT_CALL || s->producer != (int32_t)ci ||
		    (c->result_slot >= 0 && (uint32_t)c->result_slot == o->slot))
			return fail(v, ir, ci, "product %u: slot %u does not name this call as its maker", i,
				    o->slot);
		for (j = 0; j < i; j++)
			if (c->outfds[j].slot == o->slot || (c->outfds[j].buf == o->buf &&
							     ranges_overlap(c->outfds[j].offset, 4, o->offset, 4)))
				return fail(v, ir, ci, "products %u and %u: one slot or one place", j, i);
		if (o->buf < 0 || (uint32_t)o->buf >= c->nr_bufs)
			return fail(v, ir, ci, "product %u: no buffer %d", i, o->buf);
		if (c->bufs[o->buf].dir == BPFRR_DIR_IN || (uint64_t)o->offset + 4 > c->bufs[o->buf].len ||
		    o->offset % 4)
			return fail(v, ir, ci, "product %u: offset %u outside %s, misaligned, or in an input-only "
				    "buffer", i, o->offset, c->bufs[o->buf].path);
		for (j = 0; j < c->nr_bufs; j++)
			if (c->bufs[j].parent == o->buf && ranges_overlap(c->bufs[j].ptr_offset, 8, o->offset, 4))
				return fail(v, ir, ci, "product %u overlaps pointer %s", i, c->bufs[j].path);
		if (c->op != BPFRR_IR_BPF)
			return fail(v, ir, ci, "product %u: only a bpf() call writes fds into its buffers", i);
	}
	return 0;
}

/* A map's contents: on a map, entries in bounds, fd values naming a slot. */
static int check_contents(struct verr *v, const struct bpfrr_ir *ir, uint32_t si)
{
	const struct bpfrr_ir_contents *c = ir->slots[si].contents;
	uint32_t i;

	if (!c)
		return 0;
	if (ir->slots[si].kind != BPFRR_OBJ_MAP)
		return fail(v, ir, -1, "slot %u: contents of a %s", si, bpfrr_abi_obj_kind_name(ir->slots[si].kind));
	if (c->nr_entries > BPFRR_IR_MAX_ENTRIES)
		return fail(v, ir, -1, "slot %u: %u entries", si, c->nr_entries);
	for (i = 0; i < c->nr_entries; i++) {
		const struct bpfrr_ir_entry *e = &c->entries[i];

		if (e->key_len > BPFRR_IR_MAX_BUF || e->value_len > BPFRR_IR_MAX_BUF ||
		    (e->key_len && !e->key))
			return fail(v, ir, -1, "slot %u: entry %u: key of %u bytes, value of %u", si, i, e->key_len,
				    e->value_len);
		if (e->value_slot < 0) {
			if (e->value_len && !e->value)
				return fail(v, ir, -1, "slot %u: entry %u without its value", si, i);
			continue;
		}
		if ((uint32_t)e->value_slot >= ir->nr_slots || e->value)
			return fail(v, ir, -1, "slot %u: entry %u: value slot %d of %u", si, i, e->value_slot,
				    ir->nr_slots);
	}
	return 0;
}

/*
 * A MKDIR slot's numbers to rename: digits of its last path component, in
 * order, apart; each names a slot a call makes (a prog, map, link or BTF
 * object) or a device by a name an interface can have.
 */
static int validate_path_subs(struct verr *v, const struct bpfrr_ir *ir, uint32_t i)
{
	const struct bpfrr_ir_slot *s = &ir->slots[i];
	size_t plen = strlen(s->path), name_at = (size_t)(strrchr(s->path, '/') - s->path) + 1, from = name_at;
	uint32_t k, j;

	if (s->nr_path_subs > BPFRR_IR_MAX_PATH_SUBS || (s->nr_path_subs && !s->path_subs))
		return fail(v, ir, -1, "slot %u: %u numbers to rename, at most %u", i, s->nr_path_subs,
			    BPFRR_IR_MAX_PATH_SUBS);
	for (k = 0; k < s->nr_path_subs; k++) {
		const struct bpfrr_ir_path_sub *sub = &s->path_subs[k];
		const struct bpfrr_ir_slot *o;

		if (sub->off < from || !sub->len || sub->len > 20 || sub->off > plen || sub->len > plen - sub->off)
			return fail(v, ir, -1, "slot %u: number %u to rename is outside the directory's name, or "
				    "overlaps another", i, k);
		for (j = 0; j < sub->len; j++)
			if (s->path[sub->off + j] < '0' || s->path[sub->off + j] > '9')
				return fail(v, ir, -1, "slot %u: number %u to rename is not digits", i, k);
		from = sub->off + sub->len;
		switch (sub->kind) {
		case BPFRR_IR_PATH_SUB_OBJ_ID:
			o = sub->obj_slot >= 0 && (uint32_t)sub->obj_slot < ir->nr_slots ?
			    &ir->slots[sub->obj_slot] : NULL;
			if (!o || o->source != BPFRR_IR_SLOT_CALL || sub->dev ||
			    (o->kind != BPFRR_OBJ_PROG && o->kind != BPFRR_OBJ_MAP && o->kind != BPFRR_OBJ_LINK &&
			     o->kind != BPFRR_OBJ_BTF))
				return fail(v, ir, -1, "slot %u: number %u names the id of slot %d, which is no "
					    "prog, map, link or BTF object a call makes", i, k, sub->obj_slot);
			break;
		case BPFRR_IR_PATH_SUB_IFINDEX:
			if (sub->obj_slot != -1 || !sub->dev || !*sub->dev || strlen(sub->dev) >= 16 ||
			    strchr(sub->dev, '/'))
				return fail(v, ir, -1, "slot %u: number %u names the index of no device", i, k);
			break;
		default:
			return fail(v, ir, -1, "slot %u: number %u to rename has kind %u", i, k, sub->kind);
		}
	}
	return 0;
}

int bpfrr_ir_validate(const struct bpfrr_ir *ir, char *err, size_t err_size)
{
	struct verr v = { err, err_size };
	uint32_t *made_at, i;
	int ret = 0;

	if (err && err_size)
		err[0] = '\0';
	if (ir->nr_calls > BPFRR_IR_MAX_CALLS || ir->nr_slots > BPFRR_IR_MAX_SLOTS)
		return fail(&v, ir, -1, "too many calls (%u) or slots (%u)", ir->nr_calls, ir->nr_slots);
	made_at = malloc((ir->nr_slots ? ir->nr_slots : 1) * sizeof(*made_at));
	if (!made_at)
		return -ENOMEM;
	for (i = 0; i < ir->nr_slots; i++) {
		const struct bpfrr_ir_slot *s = &ir->slots[i];

		made_at[i] = UINT32_MAX;
		if (s->kind == BPFRR_OBJ_NONE || s->kind >= BPFRR_OBJ__MAX) {
			ret = fail(&v, ir, -1, "slot %u: object kind %u", i, s->kind);
			goto out;
		}
		if (s->source == BPFRR_IR_SLOT_PATH) {
			if (!s->path || !*s->path || s->producer != -1) {
				ret = fail(&v, ir, -1, "slot %u: opened by path but has no path", i);
				goto out;
			}
			made_at[i] = 0;	/* opened by the replayer before any call */
			continue;
		}
		if (s->source == BPFRR_IR_SLOT_MKDIR) {
			if (!s->path || s->path[0] != '/' || s->producer != -1 || s->kind != BPFRR_OBJ_DIR ||
			    s->open_flags & ~07777u) {
				ret = fail(&v, ir, -1, "slot %u: a directory to make without an absolute path, "
					   "or with mode 0%o", i, s->open_flags);
				goto out;
			}
			ret = validate_path_subs(&v, ir, i);
			if (ret)
				goto out;
			made_at[i] = 0;	/* made and opened by the replayer before any call */
			continue;
		}
		if (s->nr_path_subs) {
			ret = fail(&v, ir, -1, "slot %u: numbers to rename in a slot that is no directory to make", i);
			goto out;
		}
		if (s->source != BPFRR_IR_SLOT_CALL) {
			ret = fail(&v, ir, -1, "slot %u: source %u", i, s->source);
			goto out;
		}
		if (s->producer < 0 || (uint32_t)s->producer >= ir->nr_calls ||
		    !bpfrr_ir_call_makes_slot(&ir->calls[s->producer], i)) {
			ret = fail(&v, ir, -1, "slot %u (%s): no call makes it", i, s->name ? s->name : "?");
			goto out;
		}
		made_at[i] = s->producer + 1;	/* usable by the calls after its maker */
		if ((s->ident.have & BPFRR_ID_LINK_PROG) && s->ident.link_prog_slot >= ir->nr_slots) {
			ret = fail(&v, ir, -1, "slot %u: link program slot %u", i, s->ident.link_prog_slot);
			goto out;
		}
	}
	for (i = 0; i < ir->nr_slots; i++) {
		ret = check_contents(&v, ir, i);
		if (ret)
			goto out;
	}
	for (i = 0; i < ir->nr_calls; i++) {
		ret = check_call(&v, ir, i, made_at);
		if (ret)
			goto out;
	}
out:
	free(made_at);
	return ret;
}

/* --- names ----------------------------------------------------------------- */

void bpfrr_slot_pin_name(const struct bpfrr_ir_slot *s, uint32_t i, char *buf, size_t size)
{
	size_t k;

	if (s->name && *s->name)
		snprintf(buf, size, "%s", s->name);
	else
		snprintf(buf, size, "%s%u", bpfrr_abi_obj_kind_name(s->kind), i);
	/* bpffs refuses names with a dot (reserved for its own files) */
	for (k = 0; buf[k]; k++)
		if (!((buf[k] >= 'a' && buf[k] <= 'z') || (buf[k] >= 'A' && buf[k] <= 'Z') ||
		      (buf[k] >= '0' && buf[k] <= '9') || buf[k] == '_' || buf[k] == '-'))
			buf[k] = '_';
}

/* --- log buffers ------------------------------------------------------------ */

const struct bpfrr_cmd_log *bpfrr_ir_call_log(const struct bpfrr_ir_call *c)
{
	const struct bpfrr_cmd_desc *d = c->op == BPFRR_IR_BPF ? bpfrr_abi_cmd((int)c->cmd) : NULL;

	return d && d->log.buf ? &d->log : NULL;
}

int bpfrr_ir_force_log(struct bpfrr_ir *ir, uint32_t call, uint32_t size)
{
	struct bpfrr_ir_call *c = &ir->calls[call];
	const struct bpfrr_cmd_log *log = bpfrr_ir_call_log(c);
	const struct bpfrr_field *buf_f, *level_f, *size_f;
	char path[64];
	uint32_t level, i;
	int ret;

	if (!log)
		return -EINVAL;
	buf_f = bpfrr_abi_cmd_field(c->cmd, log->buf);
	level_f = bpfrr_abi_cmd_field(c->cmd, log->level);
	size_f = bpfrr_abi_cmd_field(c->cmd, log->size);
	snprintf(path, sizeof(path), "attr.%s", log->buf);
	if (!buf_f || !level_f || !size_f || (uint32_t)buf_f->offset + 8 > c->attr_size ||
	    (uint32_t)level_f->offset + 4 > c->attr_size || (uint32_t)size_f->offset + 4 > c->attr_size)
		return -ENOSPC;
	memcpy(&level, c->attr + level_f->offset, 4);
	if (!level) {
		level = 1;
		memcpy(c->attr + level_f->offset, &level, 4);
	}
	memcpy(c->attr + size_f->offset, &size, 4);
	for (i = 0; i < c->nr_bufs; i++) {
		if (c->bufs[i].parent == BPFRR_IR_IN_ATTR && c->bufs[i].ptr_offset == buf_f->offset) {
			free(c->bufs[i].data);
			c->bufs[i].data = NULL;
			c->bufs[i].dir = BPFRR_DIR_OUT;
			c->bufs[i].len = size;
			c->bufs[i].flags |= BPFRR_IR_BUF_LOG;
			return 0;
		}
	}
	ret = bpfrr_ir_add_buf(ir, call, BPFRR_IR_IN_ATTR, buf_f->offset, path, NULL, size, BPFRR_DIR_OUT,
			       BPFRR_CONTENT_LOG);
	return ret < 0 ? ret : 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * dump_loader.c - bpfrr dump: a light skeleton's loader program, its inner
 * calls shown the way the outer ones are.
 *
 * lib/loader_decode.h decodes the program and its blob; here each inner
 * bpf() command becomes a call the printers already know how to lay out
 * (struct dump_call): its attr as the blob holds it when the program issues
 * it, its buffers (the blob's bytes the attr points to) as regions with
 * their blobs.  While one is printed, dump_out.inner says so: the renderers
 * then read memory from its buffers, and fds are the placeholders the
 * decoder put for the fds earlier inner calls return (dump_fd_object()).
 * Which fields the program patches at run time, and from what, the printers
 * ask dump_inner_field().
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bpf_abi.h"
#include "dump_print.h"
#include "loader_decode.h"
#include "sha256.h"

int dump_inner_init(struct dump_out *o, const struct dump_call *outer, uint32_t k, struct dump_inner *in)
{
	const struct bpfrr_ld_call *c = &outer->loader->calls[k];
	uint32_t i;

	memset(in, 0, sizeof(*in));
	in->ld = outer->loader;
	in->k = k;
	in->call.seq = outer->bpf ? outer->bpf->seq : 0;
	in->call.tid = outer->bpf ? outer->bpf->tid : 0;
	in->call.cmd = c->cmd;
	in->call.attr_addr = BPFRR_LD_BLOB_ADDR + c->attr_off;
	in->call.attr_size = c->attr_size;
	in->call.attr_len = c->attr_size;
	in->call.attr = c->attr;
	in->call.nr_regions = c->nr_bufs;
	if (c->nr_bufs) {
		in->regions = calloc(c->nr_bufs, sizeof(*in->regions));
		in->blobs = calloc(c->nr_bufs, sizeof(*in->blobs));
		in->region_done = calloc(c->nr_bufs, sizeof(*in->region_done));
		if (!in->regions || !in->blobs || !in->region_done) {
			dump_inner_fini(o, in);
			o->oom = true;
			return -1;
		}
	}
	for (i = 0; i < c->nr_bufs; i++) {
		const struct bpfrr_ld_buf *b = &c->bufs[i];

		in->blobs[i].id = i + 1;
		in->blobs[i].len = b->len;
		/* instructions and fd arrays show whose fds they get (the placeholders resolve to
		 * "inner #k"); any other buffer its bytes as the blob holds them */
		in->blobs[i].data = b->content == BPFRR_CONTENT_INSNS || b->content == BPFRR_CONTENT_FD_ARRAY ?
				    b->bytes : b->blob_bytes;
		bpfrr_sha256(in->blobs[i].data, b->len, in->blobs[i].sha256);
		in->regions[i] = (struct bpfrr_trace_region){
			.phase = BPFRR_PHASE_ENTRY, .dir = b->dir, .content = b->content,
			.addr = BPFRR_LD_BLOB_ADDR + b->blob_off, .len = b->len, .want_len = b->want_len,
			.blob = i + 1, .path = b->path,
			.flags = b->want_len > b->len ? BPFRR_REGION_TRUNCATED : 0,
		};
	}
	in->call.regions = in->regions;
	in->dc = (struct dump_call){
		.bpf = &in->call, .regions = in->regions, .nr_regions = c->nr_bufs, .made_kind = BPFRR_OBJ_NONE,
		.region_done = in->region_done, .inner = in,
	};
	in->dc.env = *dump_inner_env(o, in);
	o->inner = in;
	return 0;
}

void dump_inner_fini(struct dump_out *o, struct dump_inner *in)
{
	if (o->inner == in)
		o->inner = NULL;
	free(in->regions);
	free(in->blobs);
	free(in->region_done);
	memset(in, 0, sizeof(*in));
}

/* --- memory and fds of the inner call being printed ---------------------------------------- */

int dump_inner_read(const struct dump_inner *in, uint64_t addr, void *buf, size_t len)
{
	const struct bpfrr_ld_call *c = &in->ld->calls[in->k];
	uint32_t i;

	if (addr >= in->call.attr_addr && len <= c->attr_size && addr - in->call.attr_addr <= c->attr_size - len) {
		memcpy(buf, c->attr + (addr - in->call.attr_addr), len);
		return 0;
	}
	for (i = 0; i < c->nr_bufs; i++) {
		const struct bpfrr_trace_region *r = &in->regions[i];

		if (addr >= r->addr && len <= r->len && addr - r->addr <= r->len - len) {
			memcpy(buf, c->bufs[i].bytes + (addr - r->addr), len);
			return 0;
		}
	}
	return -1;
}

static int inner_env_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	return dump_inner_read(ctx, addr, buf, len) ? -14 /* EFAULT */ : 0;
}

static int inner_env_fd_info(void *ctx, int fd, enum bpfrr_obj_kind *kind, uint32_t *obj_type,
			     uint32_t *key_size, uint32_t *value_size)
{
	const struct dump_inner *in = ctx;
	const struct bpfrr_ld_call *c;
	struct bpfrr_abi_made made;
	enum bpfrr_obj_kind k;
	uint32_t call;
	bool upper;

	if (!bpfrr_lskel_fake_fd(fd, &call, &upper) || call >= in->ld->nr_calls)
		return -2;
	c = &in->ld->calls[call];
	if (upper) {
		if (kind)
			*kind = BPFRR_OBJ_BTF;
		return 0;
	}
	if (!c->is_sys_bpf || !c->attr_blob)
		return -2;
	k = bpfrr_abi_cmd_ret_kind((int)c->cmd, c->attr, c->attr_size);
	if (k == BPFRR_OBJ_NONE)
		return -2;
	bpfrr_abi_cmd_made((int)c->cmd, c->attr, c->attr_size, &made);
	if (kind)
		*kind = k;
	if (obj_type)
		*obj_type = made.obj_type;
	if (key_size)
		*key_size = made.key_size;
	if (value_size)
		*value_size = made.value_size;
	return 0;
}

const struct bpfrr_abi_env *dump_inner_env(struct dump_out *o, struct dump_inner *in)
{
	(void)o;
	in->env = (struct bpfrr_abi_env){
		.read_mem = inner_env_read, .fd_info = inner_env_fd_info, .nr_cpus = 1, .ctx = in,
	};
	return &in->env;
}

bool dump_inner_fd_object(const struct dump_inner *in, int fd, struct dump_obj *view)
{
	const struct bpfrr_ld_call *c;
	struct bpfrr_abi_made made;
	uint32_t call;
	bool upper;

	if (!bpfrr_lskel_fake_fd(fd, &call, &upper) || call >= in->ld->nr_calls)
		return false;
	c = &in->ld->calls[call];
	memset(view, 0, sizeof(*view));
	view->inner = call + 1;
	view->name = "";
	if (upper) {
		view->kind = BPFRR_OBJ_BTF;
		view->made_by = bpfrr_lskel_helper_name(c->helper);
		return true;
	}
	view->kind = bpfrr_abi_cmd_ret_kind((int)c->cmd, c->attr, c->attr_size);
	view->made_by = bpfrr_abi_cmd_name((int)c->cmd);
	if (bpfrr_abi_cmd_made((int)c->cmd, c->attr, c->attr_size, &made) && made.has_name &&
	    bpfrr_abi_cmd((int)c->cmd)->makes.name) {
		/* the name lives in the call's attr, which outlives the view */
		const struct bpfrr_field *f = bpfrr_abi_cmd_field((int)c->cmd, bpfrr_abi_cmd((int)c->cmd)->makes.name);

		if (f && f->offset + f->size <= c->attr_size && c->attr[f->offset + f->size - 1] == '\0')
			view->name = (const char *)c->attr + f->offset;
	}
	return true;
}

const struct bpfrr_ld_buf *dump_inner_buf(const struct dump_call *c, const struct bpfrr_trace_region *reg)
{
	const struct dump_inner *in = c->inner;

	if (!in || !in->regions || reg < in->regions || reg >= in->regions + in->call.nr_regions)
		return NULL;
	return &in->ld->calls[in->k].bufs[reg - in->regions];
}

/* --- fields patched at run time --------------------------------------------------------------- */

const struct bpfrr_ld_patch *dump_inner_patch(const struct dump_call *c, const struct bpfrr_field *f)
{
	const struct bpfrr_ld_call *lc;
	uint32_t i;

	if (!c->inner)
		return NULL;
	lc = &c->inner->ld->calls[c->inner->k];
	for (i = 0; i < lc->nr_patches; i++) {
		const struct bpfrr_ld_patch *p = &lc->patches[i];

		if (p->off < (uint32_t)f->offset + f->size && (uint32_t)f->offset < p->off + p->len)
			return p;
	}
	return NULL;
}

bool dump_inner_field(const struct dump_call *c, const struct bpfrr_field *f, char *buf, size_t size)
{
	const struct bpfrr_ld_patch *p = dump_inner_patch(c, f);
	const struct bpfrr_ld_call *lc;
	struct bpfrr_ld_val v;
	char what[256];
	uint64_t before;

	if (!p)
		return false;
	lc = &c->inner->ld->calls[c->inner->k];
	v = p->val;
	v.flags &= ~BPFRR_LDV_F_COND;
	bpfrr_lskel_val_text(c->inner->ld, &v, what, sizeof(what));
	if (p->val.flags & BPFRR_LDV_F_COND) {
		/* one arm stores it: the blob's value stays on the other */
		before = bpfrr_abi_field_get(f, lc->attr_blob, lc->attr_size);
		snprintf(buf, size, "%" PRIu64 " in the blob, or at run time %s%s (branch at insn %u)", before,
			 v.kind == BPFRR_LDV_CTX_FIELD ? "from " : "", what, p->val.cond_insn);
	} else if (v.kind == BPFRR_LDV_BLOB) {
		snprintf(buf, size, "%s", what);
	} else {
		snprintf(buf, size, "<%s%s>", v.kind == BPFRR_LDV_CTX_FIELD ? "from " : "", what);
	}
	if (p->off != f->offset || p->len != f->size) {
		size_t n = strlen(buf);

		snprintf(buf + n, size - n, " (bytes %u..%u of the field)", p->off > f->offset ? p->off - f->offset : 0,
			 (p->off + p->len < (uint32_t)f->offset + f->size ? p->off + p->len : (uint32_t)f->offset +
			  f->size) - f->offset - 1);
	}
	return true;
}

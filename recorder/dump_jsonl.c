// SPDX-License-Identifier: GPL-2.0-only
/*
 * dump_jsonl.c - bpfrr dump's JSON Lines printer (--json): one object per
 * call, in the schema docs/dump-json.md keeps stable.  Tasks, fd events,
 * blobs and notes that belong to no call are not lines of their own; the
 * recorder's identity of what a call made is the call's "object", its notes
 * the call's "notes".
 */
#include <inttypes.h>
#include <string.h>

#include <bpf/btf.h>

#include "bpf_abi.h"
#include "bpf_disasm.h"
#include "dump_print.h"
#include "loader_decode.h"
#include "netlink.h"
#include "trace.h"

/* {"kind", "origin", "name", "id"} of the object fd referred to, or null */
static void json_fd_object(struct dump_out *o, const char *key, int fd)
{
	struct json_out *j = &o->j;
	struct dump_obj obj;

	if (!dump_fd_object(o, fd, &obj)) {
		json_null(j, key);
		return;
	}
	json_obj_begin(j, key);
	json_str(j, "kind", dump_kind_name(obj.kind));
	if (obj.inner) {	/* what an inner call of a loader program returns */
		json_u64(j, "inner", obj.inner);
		json_str(j, "made_by", obj.made_by);
		json_str(j, "name", obj.name);
		json_obj_end(j);
		return;
	}
	if (obj.origin)
		json_u64(j, "origin", obj.origin);
	else
		json_null(j, "origin");
	json_str(j, "name", obj.name);
	if (obj.has_id)
		json_u64(j, "id", obj.id);
	else
		json_null(j, "id");
	json_obj_end(j);
}

static void json_result(struct json_out *j, int64_t ret, uint32_t flags, uint64_t t_enter, uint64_t t_exit)
{
	int e = bpfrr_trace_ret_errno(ret);

	if (flags & BPFRR_CALL_NO_EXIT) {
		json_null(j, "ret");
		json_null(j, "errno");
		json_u64(j, "t_enter_ns", t_enter);
		json_null(j, "duration_ns");
		return;
	}
	json_i64(j, "ret", e ? -1 : ret);
	if (e)
		json_str(j, "errno", dump_errno_name(e));
	else
		json_null(j, "errno");
	json_u64(j, "t_enter_ns", t_enter);
	if (flags & BPFRR_CALL_NOT_WAITED)
		json_null(j, "duration_ns");	/* the recorder did not stop at its exit */
	else
		json_u64(j, "duration_ns", t_exit >= t_enter ? t_exit - t_enter : 0);
}

/* an enum as its UAPI name, or its number when the name is unknown */
static void json_enum(struct json_out *j, const char *key, const char *name, uint64_t value)
{
	if (name)
		json_str(j, key, name);
	else
		json_u64(j, key, value);
}

/* "object": the recorder's identity of what the call made */
static void json_identity(struct json_out *j, const struct bpfrr_rec_object *id, uint32_t kind, int64_t fd)
{
	json_obj_begin(j, "object");
	json_str(j, "kind", dump_kind_name(kind));
	json_i64(j, "fd", fd);
	if (!id || (id->flags & BPFRR_OBJECT_F_QUERY_FAILED)) {
		json_null(j, "id");
		if (id)
			json_str(j, "error", dump_errno_name(id->err));
		json_obj_end(j);
		return;
	}
	json_u64(j, "id", id->id);
	json_str(j, "name", id->name);
	switch (id->kind) {
	case BPFRR_OBJ_PROG:
		json_hex(j, "tag", id->tag, sizeof(id->tag));
		json_enum(j, "type", dump_uapi_name(BPFRR_CMD_PROG_LOAD, "prog_type", id->type), id->type);
		json_enum(j, "attach_type",
			  dump_uapi_name(BPFRR_CMD_PROG_LOAD, "expected_attach_type", id->attach_type),
			  id->attach_type);
		json_u64(j, "btf_id", id->btf_id);
		json_u64(j, "attach_btf_obj_id", id->target_obj_id);
		json_u64(j, "attach_btf_id", id->target_btf_id);
		break;
	case BPFRR_OBJ_MAP:
		json_enum(j, "type", dump_uapi_name(BPFRR_CMD_MAP_CREATE, "map_type", id->type), id->type);
		json_u64(j, "key_size", id->key_size);
		json_u64(j, "value_size", id->value_size);
		json_u64(j, "max_entries", id->max_entries);
		json_u64(j, "map_flags", id->map_flags);
		json_u64(j, "btf_id", id->btf_id);
		break;
	case BPFRR_OBJ_BTF:
		json_u64(j, "btf_size", id->btf_size);
		break;
	case BPFRR_OBJ_LINK:
		json_enum(j, "type", dump_link_type_uapi(id->type), id->type);
		json_u64(j, "prog_id", id->prog_id);
		json_enum(j, "attach_type",
			  dump_uapi_name(BPFRR_CMD_PROG_LOAD, "expected_attach_type", id->attach_type),
			  id->attach_type);
		json_u64(j, "target_obj_id", id->target_obj_id);
		json_u64(j, "target_btf_id", id->target_btf_id);
		json_u64(j, "target", id->target);
		break;
	}
	json_obj_end(j);
}

/* "notes": what the recorder noted about call seq (none: no key) */
static void json_notes(struct dump_out *o, uint64_t seq)
{
	size_t pos = 0;
	const char *text = dump_next_note(o, seq, &pos);

	if (!text)
		return;
	json_arr_begin(&o->j, "notes");
	for (; text; text = dump_next_note(o, seq, &pos))
		json_str(&o->j, NULL, text);
	json_arr_end(&o->j);
}

/* --- buffers ---------------------------------------------------------------------------- */

static void json_ld_val(struct json_out *j, const char *key, const struct bpfrr_lskel *ld,
			const struct bpfrr_ld_val *v);

/* "patched": the bytes of a loader program's inner-call buffer it sets at run time */
static void json_inner_buf_patches(struct dump_out *o, const struct dump_call *c,
				   const struct bpfrr_trace_region *reg)
{
	const struct bpfrr_ld_buf *b = dump_inner_buf(c, reg);
	uint32_t i;

	json_arr_begin(&o->j, "patched");
	for (i = 0; b && i < b->nr_patches; i++) {
		json_obj_begin(&o->j, NULL);
		json_u64(&o->j, "off", b->patches[i].off);
		json_u64(&o->j, "len", b->patches[i].len);
		json_ld_val(&o->j, "value", c->inner->ld, &b->patches[i].val);
		json_obj_end(&o->j);
	}
	json_arr_end(&o->j);
}

static void json_region(struct dump_out *o, const struct dump_call *c, const struct bpfrr_trace_region *reg)
{
	const struct bpfrr_rec_blob *b = dump_region_blob(o, reg);
	const char *content = bpfrr_abi_content_name(reg->content);
	struct json_out *j = &o->j;

	json_obj_begin(j, NULL);
	json_str(j, "path", reg->path);
	json_str(j, "phase", dump_phase_name(reg->phase));
	json_str(j, "dir", dump_dir_name(reg->dir));
	json_str(j, "content", content ? content : "unknown");
	json_u64(j, "addr", reg->addr);
	json_u64(j, "len", reg->len);
	json_u64(j, "want_len", reg->want_len);
	json_u64(j, "captured", b ? b->len : 0);
	if (b)
		json_hex(j, "sha256", b->sha256, sizeof(b->sha256));
	else
		json_null(j, "sha256");
	json_arr_begin(j, "flags");
	if (reg->flags & BPFRR_REGION_TRUNCATED)
		json_str(j, NULL, "truncated");
	if (reg->flags & BPFRR_REGION_LEN_UNKNOWN)
		json_str(j, NULL, "len_unknown");
	if (reg->flags & BPFRR_REGION_NO_NUL)
		json_str(j, NULL, "no_nul");
	if (reg->flags & BPFRR_REGION_UNREADABLE)
		json_str(j, NULL, "unreadable");
	if (reg->flags & BPFRR_REGION_SHORT)
		json_str(j, NULL, "short");
	json_arr_end(j);
	if (reg->err)
		json_str(j, "error", dump_errno_name(reg->err));
	if (b)
		dump_render_content(o, c, reg, b, "");
	if (c->inner)
		json_inner_buf_patches(o, c, reg);
	json_obj_end(j);
}

static void json_regions(struct dump_out *o, const struct dump_call *c)
{
	uint32_t i;

	json_arr_begin(&o->j, "buffers");
	for (i = 0; i < c->nr_regions; i++)
		json_region(o, c, &c->regions[i]);
	json_arr_end(&o->j);
}

/* --- fields ------------------------------------------------------------------------------ */

struct json_fields {
	struct dump_out *o;
	const struct dump_call *c;	/* the call, when its attr is walked */
	struct json_tree *tree;
	size_t prefix_len;	/* strlen of the path prefix to strip */
	struct dump_fields_seen seen;	/* entry values, to show what the kernel changed at exit */
	bool exit_pass;
};

/* JSON value of a field: numbers as numbers, enum names and flags as strings. */
static void json_field_value(struct json_tree *t, const char *name, const struct bpfrr_field *f,
			     uint64_t value, const char *symbolic)
{
	switch (f->kind) {
	case BPFRR_FIELD_ENUM: {
		const char *uapi = bpfrr_abi_xlat_name(f->xlat, value);

		if (uapi)
			json_tree_str(t, name, uapi);
		else
			json_tree_u64(t, name, value);
		return;
	}
	case BPFRR_FIELD_FLAGS: {
		char buf[512];

		if (f->xlat) {
			bpfrr_abi_xlat_format(f->xlat, value, buf, sizeof(buf));
			json_tree_str(t, name, buf);
		} else {
			json_tree_u64(t, name, value);
		}
		return;
	}
	case BPFRR_FIELD_INT:
	case BPFRR_FIELD_FD: {
		int64_t v = (int64_t)value;

		/* sign-extend from the field's width */
		if (f->size < 8 && f->size > 0 && (value >> (f->size * 8 - 1)) & 1)
			v = (int64_t)(value | ~((1ull << (f->size * 8)) - 1));
		json_tree_i64(t, name, v);
		return;
	}
	case BPFRR_FIELD_STR:
	case BPFRR_FIELD_BYTES:
		json_tree_str(t, name, symbolic ? symbolic : "");
		return;
	default:
		json_tree_u64(t, name, value);
		return;
	}
}

/* One field of a nested struct (an info struct the kernel wrote). */
static int json_struct_field(void *arg, const struct bpfrr_field *f, const char *path, uint64_t value,
			     const char *symbolic)
{
	struct json_fields *jf = arg;
	const char *name = strlen(path) > jf->prefix_len ? path + jf->prefix_len : path;

	if (f->kind != BPFRR_FIELD_PAD)
		json_field_value(jf->tree, name, f, value, symbolic);
	return 0;
}

/* One attr field, at entry or (when the kernel changed it) at exit. */
static int json_attr_field(void *arg, const struct bpfrr_field *f, const char *path, uint64_t value,
			   const char *symbolic)
{
	struct json_fields *jf = arg;
	const char *name = !strncmp(path, "attr.", 5) ? path + 5 : path;

	if (f->kind == BPFRR_FIELD_PAD && !value)
		return 0;
	if (jf->c && jf->c->inner && dump_inner_patch(jf->c, f))
		return 0;	/* patched at run time: in "patched" */
	if (!jf->exit_pass) {
		if (!dump_fields_seen_add(&jf->seen, f, value, symbolic))
			jf->o->oom = true;
	} else if (!dump_field_changed(&jf->seen, f, value, symbolic)) {
		return 0;
	}
	json_field_value(jf->tree, name, f, value, symbolic);
	return 0;
}

/* The attr at entry or at exit as the object key. */
static void json_attr(struct json_fields *jf, const struct dump_call *dc, const void *attr, size_t len,
		      const char *key)
{
	jf->tree = json_tree_new();
	if (!jf->tree) {
		jf->o->oom = true;
		return;
	}
	bpfrr_abi_walk_fields_env((int)dc->bpf->cmd, attr, len, &dc->env, json_attr_field, jf);
	json_tree_emit(jf->tree, &jf->o->j, key);
	json_tree_free(jf->tree);
	jf->tree = NULL;
}

/* "fds": every fd the call passes in, resolved */
static int json_fd_ref(void *arg, const struct bpfrr_abi_fd_ref *ref)
{
	struct dump_out *o = arg;

	json_obj_begin(&o->j, NULL);
	json_str(&o->j, "path", ref->path);
	json_i64(&o->j, "fd", ref->fd);
	json_fd_object(o, "object", ref->fd);
	json_obj_end(&o->j);
	return 0;
}

/* --- what the kernel's numbers named ------------------------------------------------------ */

void dump_kernel_json(struct json_out *j, const char *key, const struct bpfrr_rec_kernel *k)
{
	json_obj_begin(j, key);
	json_str(j, "release", k->release);
	json_str(j, "version", k->version);
	json_str(j, "machine", k->machine);
	if (k->flags & BPFRR_KERNEL_F_NO_BTF) {
		json_null(j, "btf_size");
		json_null(j, "btf_sha256");
	} else {
		json_u64(j, "btf_size", k->btf_size);
		if (k->flags & BPFRR_KERNEL_F_BTF_UNHASHED)
			json_null(j, "btf_sha256");
		else
			json_hex(j, "btf_sha256", k->btf_sha256, sizeof(k->btf_sha256));
	}
	json_str(j, "build_id", k->build_id[0] ? k->build_id : NULL);
	json_obj_end(j);
}

struct json_symbols {
	struct dump_out *o;
	bool any;
};

static void json_symbol(void *arg, const char *path, const struct bpfrr_rec_symbol *s)
{
	struct json_symbols *js = arg;
	struct json_out *j = &js->o->j;

	if (!js->any)
		json_arr_begin(j, "symbols");
	js->any = true;
	json_obj_begin(j, NULL);
	json_str(j, "path", path);
	json_str(j, "kind", dump_symbol_kind_name(s->kind));
	json_u64(j, "value", s->value);
	json_str(j, "name", (s->flags & BPFRR_SYM_F_UNNAMED) || !s->name[0] ? NULL : s->name);
	if (s->kind == BPFRR_SYM_BTF_ID) {
		json_str(j, "btf_kind", dump_btf_kind_name_of(s->btf_kind));
		json_u64(j, "btf_obj_id", s->btf_obj_id);
	}
	if (s->kind == BPFRR_SYM_BTF_ID || s->kind == BPFRR_SYM_KSYM_ADDR)
		json_str(j, "module", s->module);
	if (s->kind == BPFRR_SYM_KSYM_ADDR)
		json_u64(j, "offset", s->offset);
	if (s->flags & BPFRR_SYM_F_VALUE_FDS) {
		/* a struct_ops value type: where its value holds program fds */
		json_arr_begin(j, "value_fds");
		for (uint32_t i = 0; i < s->nr_value_fds; i++)
			json_u64(j, NULL, s->value_fds[i]);
		json_arr_end(j);
	}
	json_obj_end(j);
}

/* "symbols": what the call's kernel-build-specific numbers named; absent if none is recorded */
static void json_symbols(struct dump_out *o, const struct dump_call *dc)
{
	struct json_symbols js = { .o = o };

	dump_call_symbols(o, dc, json_symbol, &js);
	if (js.any)
		json_arr_end(&o->j);
}

/* --- records ------------------------------------------------------------------------------ */

static void json_begin(struct dump_out *o)
{
	json_start(&o->j, o->f);
}

/* --- a light skeleton's loader program (lib/loader_decode.h, dump_loader.c) ------------------ */

/* A value of the loader program: its kind, what it names, and the text people read. */
static void json_ld_val(struct json_out *j, const char *key, const struct bpfrr_lskel *ld,
			const struct bpfrr_ld_val *v)
{
	char text[320];

	json_obj_begin(j, key);
	json_str(j, "kind", bpfrr_lskel_val_kind_name(v->kind));
	switch (v->kind) {
	case BPFRR_LDV_CONST:
		json_u64(j, "value", (uint64_t)v->v);
		break;
	case BPFRR_LDV_BLOB:
		json_i64(j, "blob_off", v->v);
		break;
	case BPFRR_LDV_CTX:
	case BPFRR_LDV_STACK:
		json_i64(j, "off", v->v);
		break;
	case BPFRR_LDV_CTX_FIELD:
		json_i64(j, "ctx_off", v->v);
		json_u64(j, "size", v->size);
		break;
	case BPFRR_LDV_RESULT:
	case BPFRR_LDV_RESULT_OUT:
	case BPFRR_LDV_COPY:
		json_u64(j, "inner", v->call + 1);
		json_u64(j, "shift", v->shift);
		if (v->flags & BPFRR_LDV_F_EITHER)
			json_u64(j, "inner_other", v->call2 + 1);	/* the other arm's copy */
		break;
	}
	if (v->flags & BPFRR_LDV_F_COND)
		json_u64(j, "cond_insn", v->cond_insn);
	else
		json_null(j, "cond_insn");
	json_str(j, "text", bpfrr_lskel_val_text(ld, v, text, sizeof(text)));
	json_obj_end(j);
}

/* "patched": the attr fields the program sets at run time, with what it sets them to */
struct json_patched {
	struct dump_out *o;
	const struct dump_call *c;
};

static int json_patched_field(void *arg, const struct bpfrr_field *f, const char *path, uint64_t value,
			      const char *symbolic)
{
	struct json_patched *jp = arg;
	const struct bpfrr_ld_patch *p = dump_inner_patch(jp->c, f);
	struct json_out *j = &jp->o->j;

	(void)value;
	(void)symbolic;
	if (!p)
		return 0;
	json_obj_begin(j, NULL);
	json_str(j, "field", !strncmp(path, "attr.", 5) ? path + 5 : path);
	json_u64(j, "blob_value", bpfrr_abi_field_get(f, jp->c->inner->ld->calls[jp->c->inner->k].attr_blob,
						      jp->c->bpf->attr_len));
	json_u64(j, "off", p->off);
	json_u64(j, "len", p->len);
	json_ld_val(j, "value", jp->c->inner->ld, &p->val);
	json_obj_end(j);
	return 0;
}

static void json_inner_sys_bpf(struct dump_out *o, const struct dump_call *outer, uint32_t k)
{
	struct dump_inner in;
	struct json_fields jf = { .o = o };
	struct json_patched jp = { .o = o };
	struct json_out *j = &o->j;

	if (dump_inner_init(o, outer, k, &in))
		return;
	jf.c = jp.c = &in.dc;
	if (bpfrr_abi_cmd((int)in.call.cmd)) {
		json_attr(&jf, &in.dc, in.call.attr, in.call.attr_len, "attr");
		json_arr_begin(j, "patched");
		bpfrr_abi_walk_fields_env((int)in.call.cmd, in.call.attr, in.call.attr_len, &in.dc.env,
					  json_patched_field, &jp);
		json_arr_end(j);
	} else {
		json_hex(j, "attr_hex", in.call.attr, in.call.attr_len);
	}
	json_regions(o, &in.dc);
	dump_fields_seen_free(&jf.seen);
	dump_inner_fini(o, &in);
}

/* "loader": what a light skeleton's loader program will do (docs/dump-json.md) */
static void json_loader(struct dump_out *o, const struct dump_call *dc)
{
	const struct bpfrr_lskel *ld = dc->loader;
	struct json_out *j = &o->j;
	uint32_t k, i;

	json_obj_begin(j, "loader");
	if (!ld) {
		json_str(j, "error", dc->loader_why);
		json_obj_end(j);
		return;
	}
	json_u64(j, "blob_map_seq", dc->loader_map_seq);
	json_u64(j, "blob_update_seq", dc->loader_update_seq);
	json_u64(j, "blob_len", dc->loader_blob_len);
	json_u64(j, "nr_calls", ld->nr_calls);
	json_u64(j, "nr_bpf_calls", ld->nr_sys_bpf);
	json_arr_begin(j, "calls");
	for (k = 0; k < ld->nr_calls; k++) {
		const struct bpfrr_ld_call *c = &ld->calls[k];

		json_obj_begin(j, NULL);
		json_u64(j, "inner", k + 1);
		json_u64(j, "insn", c->insn);
		json_str(j, "helper", bpfrr_lskel_helper_name(c->helper));
		if (c->flags & BPFRR_LDV_F_COND)
			json_u64(j, "cond_insn", c->cond_insn);
		else
			json_null(j, "cond_insn");
		json_arr_begin(j, "args");
		for (i = 0; i < bpfrr_lskel_helper_nargs(c->helper); i++)
			json_ld_val(j, NULL, ld, &c->args[i]);
		json_arr_end(j);
		json_str(j, "name", c->name);
		if (c->is_sys_bpf && c->attr) {
			json_str(j, "cmd", dump_cmd_name(c->cmd));
			json_u64(j, "cmd_nr", c->cmd);
			json_u64(j, "attr_blob_off", c->attr_off);
			json_u64(j, "attr_size", c->attr_size);
			json_inner_sys_bpf(o, dc, k);
		}
		json_obj_end(j);
	}
	json_arr_end(j);
	json_arr_begin(j, "ctx_out");
	for (i = 0; i < ld->nr_ctx_outs; i++) {
		json_obj_begin(j, NULL);
		json_u64(j, "insn", ld->ctx_outs[i].insn);
		json_u64(j, "ctx_off", ld->ctx_outs[i].ctx_off);
		json_u64(j, "size", ld->ctx_outs[i].size);
		json_ld_val(j, "value", ld, &ld->ctx_outs[i].val);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_bool(j, "complete", ld->complete);
	if (ld->complete) {
		json_ld_val(j, "exit", ld, &ld->exit_val);
		json_null(j, "stopped");
	} else {
		json_null(j, "exit");
		json_obj_begin(j, "stopped");
		json_i64(j, "insn", ld->stop_insn);
		json_str(j, "why", ld->stop_why);
		json_obj_end(j);
	}
	json_obj_end(j);
}

struct json_tail {
	struct json_out *j;
	const uint8_t *attr;
};

/* Non-zero attr bytes after the newest layout bpfrr knows: reported, never dropped. */
static void json_attr_tail(void *arg, const struct bpfrr_field *fld, const char *path, size_t off, size_t end)
{
	struct json_tail *t = arg;

	(void)path;
	if (fld)
		return;
	json_obj_begin(t->j, NULL);
	json_u64(t->j, "offset", off);
	json_hex(t->j, "hex", t->attr + off, end - off);
	json_obj_end(t->j);
}

static void json_bpf_call(struct dump_out *o, const struct dump_call *dc)
{
	const struct bpfrr_rec_bpf_call *c = dc->bpf;
	struct json_fields jf = { .o = o, .c = dc };
	struct json_out *j = &o->j;
	struct json_tail tail = { j, c->attr };

	json_obj_begin(j, NULL);
	json_u64(j, "seq", c->seq);
	json_u64(j, "tid", c->tid);
	json_str(j, "syscall", "bpf");
	json_str(j, "cmd", dump_cmd_name(c->cmd));
	json_u64(j, "cmd_nr", c->cmd);
	json_u64(j, "attr_size", c->attr_size);
	json_result(j, c->ret, c->flags, c->t_enter_ns, c->t_exit_ns);
	json_attr(&jf, dc, c->attr, c->attr_len, "attr");
	if (c->attr_exit_len) {
		jf.exit_pass = true;
		json_attr(&jf, dc, c->attr_exit, c->attr_exit_len, "attr_out");
	}
	/* only when there is one: the key is absent from the JSON of every other call */
	if (bpfrr_abi_newer_fields((int)c->cmd, c->attr, c->attr_len, 0xffff, NULL, NULL)) {
		json_arr_begin(j, "attr_unknown_tail");
		bpfrr_abi_newer_fields((int)c->cmd, c->attr, c->attr_len, 0xffff, json_attr_tail, &tail);
		json_arr_end(j);
	}
	json_arr_begin(j, "fds");
	bpfrr_abi_walk_fds((int)c->cmd, c->attr, c->attr_len, &dc->env, json_fd_ref, o);
	json_arr_end(j);
	json_regions(o, dc);
	json_symbols(o, dc);
	if (dc->made_kind != BPFRR_OBJ_NONE)
		json_identity(j, dc->ident, dc->made_kind, c->ret);
	else
		json_null(j, "object");
	json_arr_begin(j, "flags");
	if (c->flags & BPFRR_CALL_NO_EXIT)
		json_str(j, NULL, "no_exit");
	if (c->flags & BPFRR_CALL_ATTR_UNREADABLE)
		json_str(j, NULL, "attr_unreadable");
	if (c->flags & BPFRR_CALL_ATTR_TRUNCATED)
		json_str(j, NULL, "attr_truncated");
	if (c->flags & BPFRR_CALL_COMMON_ATTRS)
		json_str(j, NULL, "common_attrs");
	json_arr_end(j);
	json_notes(o, c->seq);
	if (dc->loader || dc->loader_why)
		json_loader(o, dc);
	json_obj_end(j);
	json_newline(j);
	dump_fields_seen_free(&jf.seen);
}

static void json_syscall(struct dump_out *o, const struct dump_call *dc)
{
	const struct bpfrr_rec_syscall *s = dc->sys;
	struct json_out *j = &o->j;
	uint32_t i;

	json_obj_begin(j, NULL);
	json_u64(j, "seq", s->seq);
	json_u64(j, "tid", s->tid);
	json_str(j, "syscall", s->name);
	json_u64(j, "nr", s->nr);
	json_result(j, s->ret, s->flags, s->t_enter_ns, s->t_exit_ns);
	json_arr_begin(j, "args");
	for (i = 0; i < dump_sys_nr_args(s->name); i++)
		json_u64(j, NULL, s->args[i]);
	json_arr_end(j);
	dump_sys_args_json(j, s->name, o->hdr ? o->hdr->arch : 0, s->args);
	json_regions(o, dc);
	json_symbols(o, dc);
	json_arr_begin(j, "flags");
	if (s->flags & BPFRR_CALL_NO_EXIT)
		json_str(j, NULL, "no_exit");
	if (s->flags & BPFRR_CALL_NOT_WAITED)
		json_str(j, NULL, "not_waited");
	json_arr_end(j);
	json_notes(o, s->seq);
	json_obj_end(j);
	json_newline(j);
}

/* --- content -------------------------------------------------------------------------------- */

static void json_string(struct dump_out *o, const char *s, size_t len, const char *indent)
{
	(void)indent;
	json_strn(&o->j, "text", s, len);
}

/* The excerpt of the log, or all of it with -v. */
static void json_log(struct dump_out *o, const struct dump_call *c, const char *text, size_t start, size_t end,
		     const char *indent)
{
	(void)c;
	(void)indent;
	json_strn(&o->j, "text", text + start, end - start);
	json_bool(&o->j, "excerpt", start > 0);
}

/* "insn_cnt", and "insns": {"idx", "text"} per instruction (not with --no-insns) */
static void json_insns(struct dump_out *o, const struct bpfrr_disasm_opts *opts, const void *insns, size_t len,
		       const char *indent)
{
	size_t cnt = len / BPFRR_INSN_SIZE, i;
	char line[512];

	(void)indent;
	json_u64(&o->j, "insn_cnt", cnt);
	if (o->opts->no_insns)
		return;
	json_arr_begin(&o->j, "insns");
	for (i = 0; i < cnt;) {
		int used = bpfrr_disasm_insn(insns, cnt, i, opts, line, sizeof(line));

		json_obj_begin(&o->j, NULL);
		json_u64(&o->j, "idx", i);
		json_str(&o->j, "text", line);
		json_obj_end(&o->j);
		i += used > 0 ? (size_t)used : 1;
	}
	json_arr_end(&o->j);
}

/* "btf": the type counts and every named type */
static void json_btf(struct dump_out *o, const struct btf *btf, const char *indent)
{
	struct json_out *j = &o->j;
	uint32_t types, named, i;

	(void)indent;
	if (!btf) {
		json_str(j, "btf_error", "not parseable as BTF");
		return;
	}
	dump_btf_counts(btf, &types, &named);
	json_obj_begin(j, "btf");
	json_u64(j, "types", types);
	json_u64(j, "named", named);
	json_arr_begin(j, "named_types");
	for (i = 1; i <= types; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);
		const char *name = btf__name_by_offset(btf, t->name_off);

		if (!t->name_off || !name)
			continue;
		json_obj_begin(j, NULL);
		json_u64(j, "id", i);
		json_str(j, "kind", dump_btf_kind_name(t));
		json_str(j, "name", name);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void json_numbers(struct dump_out *o, const void *data, size_t len, int width, const char *indent)
{
	size_t n = len / width, i;

	(void)indent;
	json_arr_begin(&o->j, "values");
	for (i = 0; i < n; i++) {
		uint64_t v = 0;

		memcpy(&v, (const uint8_t *)data + i * width, width);
		json_u64(&o->j, NULL, v);
	}
	json_arr_end(&o->j);
}

static void json_fd_array(struct dump_out *o, const void *fds, size_t n, const char *indent)
{
	size_t i;

	(void)indent;
	json_arr_begin(&o->j, "fds");
	for (i = 0; i < n; i++) {
		int32_t fd;

		memcpy(&fd, (const uint8_t *)fds + 4 * i, 4);
		json_obj_begin(&o->j, NULL);
		if (o->inner && dump_inner_fd_object(o->inner, fd, &(struct dump_obj){ 0 }))
			json_null(&o->j, "fd");	/* known at run time only */
		else
			json_i64(&o->j, "fd", fd);
		json_fd_object(o, "object", fd);
		json_obj_end(&o->j);
	}
	json_arr_end(&o->j);
}

/* "fields" of an info struct the kernel wrote */
static void json_info(struct dump_out *o, const struct bpfrr_struct_desc *desc, const void *data, size_t len,
		      const char *indent)
{
	struct json_fields jf = { .o = o, .tree = json_tree_new(), .prefix_len = strlen("info") + 1 };

	(void)indent;
	if (!jf.tree) {
		o->oom = true;
		return;
	}
	bpfrr_abi_walk_struct_fields(desc, data, len, "info", 0, json_struct_field, &jf);
	json_tree_emit(jf.tree, &o->j, "fields");
	json_tree_free(jf.tree);
}

static void json_perf_attr(struct dump_out *o, const void *data, size_t len, const char *indent)
{
	(void)indent;
	dump_perf_attr_json(&o->j, data, len);
}

static void json_bytes(struct dump_out *o, const void *data, size_t len, const char *indent)
{
	(void)indent;
	json_hex(&o->j, "hex", data, len);
}

#define DUMP_NL_MSGS	64	/* netlink messages of one send decoded */

/*
 * "netlink": one object per message: its header, what it does (effect), its
 * device (ifindex, and the name the recorder gave it), IFLA_XDP, the tc object
 * and its bpf classifier, each fd with the object it referred to.
 */
static void json_netlink(struct dump_out *o, const struct dump_call *c, const void *data, size_t len,
			 const char *indent)
{
	struct bpfrr_nl_msg msgs[DUMP_NL_MSGS];
	int n = bpfrr_nl_decode(data, len, msgs, DUMP_NL_MSGS), i;
	struct json_out *j = &o->j;
	char buf[96];

	(void)indent;
	if (n < 0) {
		json_null(j, "netlink");
		return;
	}
	json_arr_begin(j, "netlink");
	for (i = 0; i < n && i < DUMP_NL_MSGS; i++) {
		const struct bpfrr_nl_msg *m = &msgs[i];

		json_obj_begin(j, NULL);
		json_u64(j, "type", m->type);
		json_str(j, "type_name", bpfrr_nl_type_name(m->type));
		bpfrr_nl_flags_string(m->type, m->flags, buf, sizeof(buf));
		json_u64(j, "flags", m->flags);
		json_str(j, "flags_names", buf);
		json_u64(j, "seq", m->seq);
		json_str(j, "effect", bpfrr_nl_effect_name(m->effect));
		json_bool(j, "truncated", m->truncated);
		if (m->has_ifindex) {
			json_i64(j, "ifindex", m->ifindex);
			json_str(j, "ifname", dump_call_ifname(o, c, m->ifindex));
		}
		if (m->has_xdp) {
			json_obj_begin(j, "xdp");
			json_i64(j, "fd", m->xdp_fd);
			if (m->xdp_fd >= 0)
				json_fd_object(o, "object", m->xdp_fd);
			if (m->has_xdp_flags)
				json_u64(j, "flags", m->xdp_flags);
			else
				json_null(j, "flags");
			json_str(j, "mode", bpfrr_nl_xdp_mode(m->xdp_flags));
			json_obj_end(j);
		}
		if (m->type >= BPFRR_RTM_NEWQDISC && m->type <= BPFRR_RTM_GETTFILTER + 1 && m->has_ifindex) {
			json_obj_begin(j, "tc");
			json_str(j, "kind", m->tc_kind);
			json_u64(j, "parent", m->tc_parent);
			bpfrr_nl_tc_parent_string(m->tc_parent, buf, sizeof(buf));
			json_str(j, "parent_name", buf);
			json_u64(j, "handle", m->tc_handle);
			json_u64(j, "prio", bpfrr_nl_tc_prio(m->tc_info));
			json_u64(j, "protocol", bpfrr_nl_tc_proto(m->tc_info));
			if (m->has_bpf) {
				json_obj_begin(j, "bpf");
				json_i64(j, "fd", m->bpf_fd);
				if (m->bpf_fd >= 0)
					json_fd_object(o, "object", m->bpf_fd);
				json_str(j, "name", m->bpf_name);
				json_u64(j, "flags", m->bpf_flags);
				json_bool(j, "direct_action", m->bpf_flags & BPFRR_TCA_BPF_FLAG_ACT_DIRECT);
				json_u64(j, "gen_flags", m->bpf_flags_gen);
				json_u64(j, "classid", m->bpf_classid);
				json_obj_end(j);
			}
			json_obj_end(j);
		}
		json_obj_end(j);
	}
	json_arr_end(j);
	if (n > DUMP_NL_MSGS)
		json_u64(j, "netlink_more", (uint64_t)(n - DUMP_NL_MSGS));
}

/* a captured BPF ELF object: a line of its own, "record": "elf" */
static void json_elf(struct dump_out *o, const struct bpfrr_rec_elf *e, const struct bpfrr_rec_blob *b)
{
	struct json_out *j = &o->j;

	json_obj_begin(j, NULL);
	json_str(j, "record", "elf");
	json_u64(j, "seq", e->seq);
	json_u64(j, "tid", e->tid);
	json_str(j, "path", e->path);
	json_bool(j, "embedded", e->flags & BPFRR_ELF_F_EMBEDDED);
	json_u64(j, "offset", e->offset);
	json_u64(j, "blob", e->blob);
	if (b) {
		json_u64(j, "size", b->len);
		json_hex(j, "sha256", b->sha256, sizeof(b->sha256));
	} else {
		json_null(j, "size");
		json_null(j, "sha256");
	}
	json_obj_end(j);
	json_newline(j);
}

const struct dump_printer dump_jsonl_printer = {
	.begin = json_begin,
	.bpf_call = json_bpf_call,
	.syscall = json_syscall,
	.elf = json_elf,
	.string = json_string,
	.log = json_log,
	.insns = json_insns,
	.btf = json_btf,
	.numbers = json_numbers,
	.fd_array = json_fd_array,
	.info = json_info,
	.perf_attr = json_perf_attr,
	.netlink = json_netlink,
	.bytes = json_bytes,
};

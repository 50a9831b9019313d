// SPDX-License-Identifier: GPL-2.0-only
/*
 * diff.c - bpfrr diff (see diff.h): two traces read into items, matched by
 * name and role, compared field by field, printed as text or one JSON
 * document (docs/diff-json.md).
 *
 * What is left out of the comparison because it differs by nature: fd
 * numbers (an fd is shown as the name of the object it refers to), user
 * pointers, kernel object ids, seqs, tids, times.  A number of the kernel's
 * own (a BTF id of vmlinux, a tracepoint id, a PMU type) is compared by the
 * name the trace's SYMBOL records give it when both traces have one, so the
 * same loader on two kernel builds compares equal where it means the same.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "bpf_abi.h"
#include "bpf_disasm.h"
#include "btf_parse.h"
#include "bpfrr.h"
#include "diff.h"
#include "dump.h"
#include "dump_print.h"
#include "fdmodel.h"
#include "grow.h"
#include "json.h"
#include "kernel_id.h"
#include "resolved.h"
#include "sha256.h"
#include "trace.h"
#include "u64map.h"

/* --- small growable lists ---------------------------------------------------------------- */

/* A named value; sym, when set, is what the value means independently of the kernel build. */
struct kv {
	char *name, *val, *sym;
	const struct bpfrr_field *fd_field;	/* attr fields: the fd field it is, else NULL */
};

struct kvlist {
	struct kv *v;
	uint32_t n, cap;
};

struct lines {
	char **v;
	uint32_t n, cap;
};

static bool diff_oom;

static char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");

	if (!p)
		diff_oom = true;
	return p;
}

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n < 0) {
		diff_oom = true;
		return NULL;
	}
	return p;
}

/*
 * Close an open_memstream() stream: its text, or NULL (noted as out of
 * memory) when a write could not grow the buffer or the close could not
 * size it (glibc then leaves *buf NULL and fclose() returns 0).
 */
static char *ms_close(FILE *f, char **buf)
{
	bool bad = ferror(f);

	if (fclose(f) || !*buf)
		bad = true;
	if (bad) {
		free(*buf);
		*buf = NULL;
		diff_oom = true;
	}
	return *buf;
}

static void lines_add(struct lines *l, char *s)
{
	if (!s || bpfrr_grow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v))) {
		diff_oom = true;
		free(s);
		return;
	}
	l->v[l->n++] = s;
}

static void lines_free(struct lines *l)
{
	for (uint32_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/* Set name to val (the last write wins, its place stays the first one's). */
static void kv_set(struct kvlist *l, const char *name, char *val, char *sym)
{
	if (!val) {
		/* its text could not be made: out of memory, and no field without a value */
		diff_oom = true;
		free(sym);
		return;
	}
	for (uint32_t i = 0; i < l->n; i++) {
		if (!strcmp(l->v[i].name, name)) {
			free(l->v[i].val);
			free(l->v[i].sym);
			l->v[i].val = val;
			l->v[i].sym = sym;
			return;
		}
	}
	if (bpfrr_grow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v)) ||
	    !(l->v[l->n].name = xstrdup(name))) {
		/* a field without its name is left out: the run ends "out of memory" */
		diff_oom = true;
		free(val);
		free(sym);
		return;
	}
	l->v[l->n].val = val;
	l->v[l->n].sym = sym;
	l->v[l->n].fd_field = NULL;
	l->n++;
}

static const struct kv *kv_get(const struct kvlist *l, const char *name)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name))
			return &l->v[i];
	return NULL;
}

static void kv_free(struct kvlist *l)
{
	for (uint32_t i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].val);
		free(l->v[i].sym);
	}
	free(l->v);
}

/* --- one trace as items ------------------------------------------------------------------- */

/* An object a call made, or a call that made none. */
struct item {
	char *key;			/* what it is matched by, and its header */
	uint64_t seq;
	bool is_btf_unnamed;		/* a BTF object no user has named yet */
	struct kvlist fields;		/* attr fields and the strings/buffers the call passed */
	struct lines insns;		/* PROG_LOAD: the disassembly */
	struct kvlist values;		/* maps: what the loader wrote, by key or variable */
	const void *btf_data;		/* BTF_LOAD: the blob (in the reader) */
	uint32_t btf_len;
	struct btf *btf;		/* parsed on first use */
	int64_t map_btf;		/* maps: the item of their BTF, -1 */
	uint32_t map_value_type_id;	/* maps: btf_value_type_id */
	uint32_t map_key_size;
	int64_t match;			/* the item of the other side, -1 */
};

struct side {
	const char *path;
	struct bpfrr_trace_reader *r;
	struct bpfrr_rt *rt;
	int status;			/* BPFRR_TRACE_EOF, _TRUNCATED, _CORRUPT */
	struct item *items;
	uint32_t n, cap;
	uint32_t nr_btf;
	struct bpfrr_u64map by_origin;	/* seq of the call that made an object -> item */
	struct bpfrr_u64map adopted;	/* struct bpfrr_fdm_obj * of an adopted fd -> its identity */
	bool names;			/* name kernel numbers by the SYMBOL records (both traces have them) */
	/* the call being read */
	const struct bpfrr_rt_call *c;
};

static struct item *new_item(struct side *s, uint64_t seq, char *key)
{
	struct item *it;

	if (!key || bpfrr_grow((void **)&s->items, &s->cap, s->n + 1, sizeof(*s->items))) {
		diff_oom = true;
		free(key);
		return NULL;
	}
	it = &s->items[s->n++];
	memset(it, 0, sizeof(*it));
	it->key = key;
	it->seq = seq;
	it->map_btf = -1;
	it->match = -1;
	return it;
}

static void free_side(struct side *s)
{
	for (uint32_t i = 0; i < s->n; i++) {
		struct item *it = &s->items[i];

		free(it->key);
		kv_free(&it->fields);
		lines_free(&it->insns);
		kv_free(&it->values);
		btf__free(it->btf);
	}
	free(s->items);
	bpfrr_u64map_free(&s->by_origin);
	bpfrr_u64map_free(&s->adopted);
	bpfrr_rt_free(s->rt);
	if (s->r)
		bpfrr_trace_reader_close(s->r);
}

static struct item *item_of_origin(const struct side *s, uint64_t origin)
{
	uint64_t idx;

	return origin && bpfrr_u64map_get(&s->by_origin, origin, &idx) ? &s->items[idx] : NULL;
}

/* Names come from the tracee: keep what is printed printable. */
static void printable(char *p)
{
	for (; p && *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			*p = '?';
}

/* What fd of the call being read refers to, by name: the key of the item that made it. */
static char *fd_label(struct side *s, int fd)
{
	const struct bpfrr_fdm_obj *o = bpfrr_fdm_lookup(bpfrr_rt_fdm(s->rt), s->c->tid, fd);
	const struct item *it;
	uint64_t v;

	if (!o)
		return xasprintf("unknown fd");
	it = item_of_origin(s, o->origin);
	if (it)
		return xstrdup(it->key);
	if (bpfrr_u64map_get(&s->adopted, (uintptr_t)o, &v)) {
		const struct bpfrr_rec_object *id = (const struct bpfrr_rec_object *)(uintptr_t)v;
		char *l = xasprintf("%s '%s' (made outside the trace)", bpfrr_abi_obj_kind_name(id->kind),
				    id->name ? id->name : "");

		printable(l);
		return l;
	}
	return xasprintf("%s (made outside the trace)",
			 bpfrr_abi_obj_kind_name(o->kind) ? bpfrr_abi_obj_kind_name(o->kind) : "object");
}

static const struct bpfrr_rec_blob *region_blob(const struct side *s, const struct bpfrr_trace_region *reg)
{
	return reg->blob ? bpfrr_trace_blob(s->r, reg->blob) : NULL;
}

static const struct bpfrr_trace_region *entry_region(const struct bpfrr_rt_call *c, const char *path)
{
	for (uint32_t i = 0; i < c->nr_regions; i++)
		if (c->regions[i].phase == BPFRR_PHASE_ENTRY && !strcmp(c->regions[i].path, path))
			return &c->regions[i];
	return NULL;
}

/* A kernel-build-specific number as its SYMBOL names it, or NULL. */
static char *symbol_name(const struct side *s, uint32_t kind, uint64_t value)
{
	const struct bpfrr_rec_symbol *sym = s->names ? bpfrr_rt_symbol(s->rt, kind, value, NULL) : NULL;

	if (!sym || (sym->flags & BPFRR_SYM_F_UNNAMED))
		return NULL;
	if (kind == BPFRR_SYM_KSYM_ADDR)
		return xasprintf("%s+0x%" PRIx64 "%s%s%s", sym->name, sym->offset,
				 sym->module && sym->module[0] ? " [" : "", sym->module ? sym->module : "",
				 sym->module && sym->module[0] ? "]" : "");
	return xasprintf("%s%s%s%s", sym->name, sym->module && sym->module[0] ? " [" : "",
			 sym->module ? sym->module : "", sym->module && sym->module[0] ? "]" : "");
}

static char *hex_of(const void *data, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	const uint8_t *p = data;
	char *h = malloc(len * 2 + 1);

	if (!h) {
		diff_oom = true;
		return NULL;
	}
	for (size_t i = 0; i < len; i++) {
		h[2 * i] = digits[p[i] >> 4];
		h[2 * i + 1] = digits[p[i] & 15];
	}
	h[len * 2] = 0;
	return h;
}

static char *digest_of(const void *data, size_t len)
{
	uint8_t d[32];
	char *h, *r;

	bpfrr_sha256(data, len, d);
	h = hex_of(d, 8);
	r = xasprintf("%zu bytes, sha256 %s", len, h ? h : "?");
	free(h);
	return r;
}

/* --- attr fields ------------------------------------------------------------------------------ */

struct field_walk {
	struct side *s;
	struct item *it;
	int cmd;
	const void *attr;
	uint32_t attr_len;
	const struct bpfrr_abi_env *env;
};

static int field_cb(void *arg, const struct bpfrr_field *f, const char *path, uint64_t value,
		    const char *symbolic)
{
	struct field_walk *fw = arg;
	char *val = NULL, *sym = NULL;
	int module_fd;

	switch (f->kind) {
	case BPFRR_FIELD_PAD:
	case BPFRR_FIELD_PTR:
		return 0;	/* addresses; what they point to is compared by content */
	case BPFRR_FIELD_FD:
		if (!value && (f->flags & BPFRR_FIELDF_FD_OPTIONAL))
			val = xstrdup("none");
		else if (bpfrr_abi_fd_gate(fw->cmd, f, fw->attr, fw->attr_len, fw->env))
			val = xstrdup("none");	/* its flag is not set: the kernel reads no fd there */
		else
			val = fd_label(fw->s, (int)(int32_t)value);
		break;
	default:
		if (f->content == BPFRR_CONTENT_OBJ_ID)
			return 0;	/* kernel ids differ from boot to boot */
		if (symbolic)
			val = xstrdup(symbolic);
		else if (f->kind == BPFRR_FIELD_INT)
			val = xasprintf("%" PRId64, (int64_t)value);
		else
			val = xasprintf("%" PRIu64, value);
		if ((f->flags & BPFRR_FIELDF_KERNEL_BTF) && value &&
		    bpfrr_abi_kernel_btf_id(fw->cmd, f, fw->attr, fw->attr_len, fw->env, &module_fd))
			sym = symbol_name(fw->s, BPFRR_SYM_BTF_ID, value);
		break;
	}
	printable(val);
	kv_set(&fw->it->fields, path, val, sym);
	if (f->kind == BPFRR_FIELD_FD && fw->it->fields.n && !strcmp(fw->it->fields.v[fw->it->fields.n - 1].name, path))
		fw->it->fields.v[fw->it->fields.n - 1].fd_field = f;
	return 0;
}

/* --- instructions ---------------------------------------------------------------------------- */

struct insn_ctx {
	struct side *s;
	const struct bpfrr_rt_call *c;
};

static int fd_array_slot(const struct insn_ctx *ic, uint32_t idx, int32_t *fd)
{
	const struct bpfrr_field *f = bpfrr_abi_cmd_field(BPFRR_CMD_PROG_LOAD, "fd_array");
	uint64_t addr;

	if (!f || ic->c->cmd != BPFRR_CMD_PROG_LOAD)
		return -1;
	addr = bpfrr_abi_field_get(f, ic->c->attr, ic->c->attr_len);
	if (!addr || bpfrr_rt_read_mem(ic->s->rt, ic->c, BPFRR_PHASE_ENTRY, addr + 4ull * idx, fd, 4))
		return -1;
	return 0;
}

/* The disassembler's hook: maps by name, kernel BTF ids by the name the trace gives them. */
static int render_ref(void *ctx, const struct bpfrr_disasm_ref *ref, char *buf, size_t size)
{
	const struct insn_ctx *ic = ctx;
	char *label = NULL, *sym;
	int32_t fd = ref->fd;
	int n;

	switch (ref->type) {
	case BPFRR_DREF_MAP_IDX:
	case BPFRR_DREF_MAP_IDX_VALUE:
		if (fd_array_slot(ic, (uint32_t)ref->fd, &fd))
			return snprintf(buf, size, "map[fd_array[%d]?]", ref->fd);
		/* fall through */
	case BPFRR_DREF_MAP_FD:
	case BPFRR_DREF_MAP_VALUE:
		label = fd_label(ic->s, fd);
		if (ref->type == BPFRR_DREF_MAP_VALUE || ref->type == BPFRR_DREF_MAP_IDX_VALUE)
			n = snprintf(buf, size, "map[%s]+%u", label ? label : "?", ref->value_off);
		else
			n = snprintf(buf, size, "map[%s]", label ? label : "?");
		free(label);
		return n;
	case BPFRR_DREF_BTF_ID:
	case BPFRR_DREF_KFUNC:
		sym = symbol_name(ic->s, BPFRR_SYM_BTF_ID, ref->btf_id);
		if (!sym)
			return 0;
		n = snprintf(buf, size, "%s[%s]", ref->type == BPFRR_DREF_KFUNC ? "kfunc" : "ksym", sym);
		free(sym);
		return n;
	default:
		return 0;
	}
}

static void add_insns(struct side *s, struct item *it, const struct bpfrr_rt_call *c, const void *data,
		      size_t len)
{
	struct insn_ctx ic = { .s = s, .c = c };
	struct bpfrr_disasm_opts opts = { .render_ref = render_ref, .ctx = &ic };
	size_t cnt = len / BPFRR_INSN_SIZE, i = 0;
	char buf[512];

	while (i < cnt) {
		int step = bpfrr_disasm_insn(data, cnt, i, &opts, buf, sizeof(buf));

		lines_add(&it->insns, xstrdup(buf));
		i += step > 0 ? (size_t)step : 1;
	}
}

/* --- map contents ----------------------------------------------------------------------------- */

static struct btf *item_btf(struct item *b)
{
	if (!b->btf && b->btf_data)
		b->btf = bpfrr_btf_parse(b->btf_data, b->btf_len);
	return b->btf;
}

static char *number_of(const uint8_t *p, uint32_t size)
{
	uint64_t v = 0;

	if (size != 1 && size != 2 && size != 4 && size != 8)
		return hex_of(p, size);
	for (uint32_t i = 0; i < size; i++)
		v |= (uint64_t)p[i] << (8 * i);	/* the traces' arches are little-endian */
	return xasprintf("%" PRIu64 " (0x%" PRIx64 ")", v, v);
}

/* A value written into map m: by variable when its BTF value type is a DATASEC, else by key. */
static void add_map_value(struct side *s, struct item *m, const uint8_t *key, uint32_t key_len, const uint8_t *val,
			  uint32_t val_len)
{
	struct btf *btf = m->map_btf >= 0 ? item_btf(&s->items[m->map_btf]) : NULL;
	const struct btf_type *t = btf && m->map_value_type_id ? btf__type_by_id(btf, m->map_value_type_id) : NULL;
	char *k;

	if (t && btf_is_datasec(t)) {
		const struct btf_var_secinfo *vs = btf_var_secinfos(t);

		for (uint16_t i = 0; i < btf_vlen(t); i++) {
			const struct btf_type *var = btf__type_by_id(btf, vs[i].type);
			const char *name = var ? btf__name_by_offset(btf, var->name_off) : NULL;

			if (!name || vs[i].offset + (uint64_t)vs[i].size > val_len)
				continue;
			kv_set(&m->values, name, number_of(val + vs[i].offset, vs[i].size), NULL);
		}
		return;
	}
	if (key_len == 4) {
		k = xasprintf("[%u]", (unsigned)(key[0] | key[1] << 8 | key[2] << 16 | (uint32_t)key[3] << 24));
	} else {
		char *h = hex_of(key, key_len);

		k = xasprintf("[%s]", h ? h : "?");
		free(h);
	}
	if (k)
		kv_set(&m->values, k, val_len <= 64 ? hex_of(val, val_len) : digest_of(val, val_len), NULL);
	free(k);
}

static void map_update(struct side *s, const struct bpfrr_rt_call *c)
{
	const struct bpfrr_field *f = bpfrr_abi_cmd_field(BPFRR_CMD_MAP_UPDATE_ELEM, "map_fd");
	const struct bpfrr_trace_region *rk = entry_region(c, "attr.key"), *rv = entry_region(c, "attr.value");
	const struct bpfrr_rec_blob *bk = rk ? region_blob(s, rk) : NULL, *bv = rv ? region_blob(s, rv) : NULL;
	const struct bpfrr_fdm_obj *o;
	struct item *m;

	if (!f)
		return;
	o = bpfrr_fdm_lookup(bpfrr_rt_fdm(s->rt), c->tid, (int)(int32_t)bpfrr_abi_field_get(f, c->attr, c->attr_len));
	m = o ? item_of_origin(s, o->origin) : NULL;
	if (m && bk && bv)
		add_map_value(s, m, bk->data, (uint32_t)bk->len, bv->data, (uint32_t)bv->len);
}

/* --- one call --------------------------------------------------------------------------------- */

static const char *result_of(int64_t ret, uint32_t flags)
{
	int e = bpfrr_trace_ret_errno(ret);

	if (flags & BPFRR_CALL_NO_EXIT)
		return "did not return";
	return e ? dump_errno_name(e) : "ok";
}

/* The key of a call that made no object: its command and the objects it acts on. */
static char *call_key(struct side *s, const struct bpfrr_rt_call *c, const char *name, const struct item *it)
{
	size_t len = 0;
	char *k = NULL;
	FILE *f = open_memstream(&k, &len);
	bool first = true;

	if (!f) {
		diff_oom = true;
		return NULL;
	}
	fprintf(f, "%s(", name);
	for (uint32_t i = 0; i < it->fields.n; i++) {
		if (it->fields.v[i].fd_field) {
			fprintf(f, "%s%s", first ? "" : ", ", it->fields.v[i].val);
			first = false;
		}
	}
	for (uint32_t i = 0; i < c->nr_regions; i++) {
		const struct bpfrr_trace_region *reg = &c->regions[i];
		const struct bpfrr_rec_blob *b;

		if (reg->phase != BPFRR_PHASE_ENTRY ||
		    (reg->content != BPFRR_CONTENT_STRING && reg->content != BPFRR_CONTENT_PATH))
			continue;
		b = region_blob(s, reg);
		if (b && b->len)
			fprintf(f, "%s\"%.*s\"", first ? "" : ", ", (int)strnlen(b->data, b->len), (const char *)b->data);
		first = false;
	}
	fputc(')', f);
	ms_close(f, &k);
	printable(k);
	return k;
}

static char *object_key(struct side *s, const struct bpfrr_rt_call *c, const struct item *it)
{
	struct bpfrr_abi_made m;
	const struct kv *abi;
	char *k;

	switch (c->cmd) {
	case BPFRR_CMD_MAP_CREATE:
		bpfrr_abi_cmd_made((int)c->cmd, c->attr, c->attr_len, &m);
		k = xasprintf("map %s '%s'", bpfrr_abi_map_type_name(m.obj_type) ?: "?", m.name);
		break;
	case BPFRR_CMD_PROG_LOAD:
		bpfrr_abi_cmd_made((int)c->cmd, c->attr, c->attr_len, &m);
		abi = kv_get(&it->fields, "attr.attach_btf_id");
		if (abi && strcmp(abi->val, "0"))
			k = xasprintf("prog %s '%s' -> %s", bpfrr_abi_prog_type_name(m.obj_type) ?: "?", m.name,
				      abi->sym ? abi->sym : abi->val);
		else
			k = xasprintf("prog %s '%s'", bpfrr_abi_prog_type_name(m.obj_type) ?: "?", m.name);
		break;
	case BPFRR_CMD_BTF_LOAD:
		k = xasprintf("btf #%u", ++s->nr_btf);
		break;
	default:
		return call_key(s, c, bpfrr_abi_cmd_name((int)c->cmd), it);
	}
	printable(k);
	return k;
}

/* A BTF object is named by its first user: "btf of map array 'counts'". */
static void name_btf_users(struct side *s, const struct bpfrr_rt_call *c, struct item *user)
{
	for (uint32_t i = 0; i < user->fields.n; i++) {
		const struct bpfrr_field *fld = user->fields.v[i].fd_field;
		const struct bpfrr_fdm_obj *o;
		struct item *b;

		if (!fld || fld->fd_kind != BPFRR_OBJ_BTF)
			continue;
		o = bpfrr_fdm_lookup(bpfrr_rt_fdm(s->rt), c->tid,
				     (int)(int32_t)bpfrr_abi_field_get(fld, c->attr, c->attr_len));
		b = o ? item_of_origin(s, o->origin) : NULL;
		if (!b)
			continue;
		if (b->is_btf_unnamed) {
			char *k = xasprintf("btf of %s", user->key);

			if (k) {
				free(b->key);
				b->key = k;
				b->is_btf_unnamed = false;
			}
		}
		/* the field shows the BTF by its own name, which may have just been given */
		free(user->fields.v[i].val);
		user->fields.v[i].val = xstrdup(b->key);
		if (c->cmd == BPFRR_CMD_MAP_CREATE && !strcmp(fld->name, "btf_fd"))
			user->map_btf = b - s->items;
	}
}

static void read_bpf_call(struct side *s, const struct bpfrr_rt_call *c)
{
	enum bpfrr_obj_kind kind = BPFRR_OBJ_NONE;
	struct bpfrr_rt_walk w;
	struct field_walk fw;
	struct item *it;
	bool ok = !(c->flags & BPFRR_CALL_NO_EXIT) && !bpfrr_trace_ret_errno(c->ret);

	if (!bpfrr_abi_cmd((int)c->cmd)) {
		it = new_item(s, c->seq, xasprintf("bpf(%u)", c->cmd));
		if (it)
			kv_set(&it->fields, "result", xstrdup(result_of(c->ret, c->flags)), NULL);
		return;
	}
	if (c->cmd == BPFRR_CMD_MAP_UPDATE_ELEM && ok) {
		map_update(s, c);
		return;
	}
	if (ok)
		kind = bpfrr_abi_cmd_ret_kind((int)c->cmd, c->attr, c->attr_len);
	it = new_item(s, c->seq, xstrdup(""));
	if (!it)
		return;
	fw = (struct field_walk){ s, it, (int)c->cmd, c->attr, c->attr_len,
				  bpfrr_rt_walk_env(&w, s->rt, c, BPFRR_PHASE_ENTRY) };
	bpfrr_abi_walk_fields_env((int)c->cmd, c->attr, c->attr_len, fw.env, field_cb, &fw);
	kv_set(&it->fields, "result", xstrdup(result_of(c->ret, c->flags)), NULL);

	/* what the call's buffers held at entry */
	for (uint32_t i = 0; i < c->nr_regions; i++) {
		const struct bpfrr_trace_region *reg = &c->regions[i];
		const struct bpfrr_rec_blob *b = region_blob(s, reg);

		if (reg->phase != BPFRR_PHASE_ENTRY || !(reg->dir & BPFRR_DIR_IN))
			continue;
		if (!b) {
			kv_set(&it->fields, reg->path, xstrdup("not captured"), NULL);
			continue;
		}
		switch (reg->content) {
		case BPFRR_CONTENT_INSNS:
			add_insns(s, it, c, b->data, b->len);
			break;
		case BPFRR_CONTENT_BTF:
			it->btf_data = b->data;
			it->btf_len = (uint32_t)b->len;
			break;
		case BPFRR_CONTENT_STRING:
		case BPFRR_CONTENT_PATH: {
			char *v = xasprintf("\"%.*s\"", (int)strnlen(b->data, b->len), (const char *)b->data);

			printable(v);
			kv_set(&it->fields, reg->path, v, NULL);
			break;
		}
		case BPFRR_CONTENT_FD_ARRAY: {
			size_t len = 0;
			char *v = NULL;
			FILE *f = open_memstream(&v, &len);

			if (!f) {
				diff_oom = true;
				break;
			}
			for (size_t j = 0; j + 4 <= b->len; j += 4) {
				int32_t fd;
				char *l;

				memcpy(&fd, (const uint8_t *)b->data + j, 4);
				l = fd_label(s, fd);
				fprintf(f, "%s[%zu] %s", j ? ", " : "", j / 4, l ? l : "?");
				free(l);
			}
			kv_set(&it->fields, reg->path, ms_close(f, &v), NULL);
			break;
		}
		case BPFRR_CONTENT_KEY:
		case BPFRR_CONTENT_VALUE:
			kv_set(&it->fields, reg->path, b->len <= 64 ? hex_of(b->data, b->len) : digest_of(b->data, b->len),
			       NULL);
			break;
		case BPFRR_CONTENT_PROG_INFO:
		case BPFRR_CONTENT_MAP_INFO:
		case BPFRR_CONTENT_BTF_INFO:
		case BPFRR_CONTENT_LINK_INFO:
		case BPFRR_CONTENT_INFO:
		case BPFRR_CONTENT_LOG:
			break;	/* what the kernel fills in */
		default:
			kv_set(&it->fields, reg->path, digest_of(b->data, b->len), NULL);
			break;
		}
	}
	free(it->key);
	/* a link by what it attaches: its program and target */
	it->key = kind == BPFRR_OBJ_LINK ? call_key(s, c, "link", it) : object_key(s, c, it);
	if (c->cmd == BPFRR_CMD_BTF_LOAD && kind != BPFRR_OBJ_NONE)
		it->is_btf_unnamed = true;
	if (c->cmd == BPFRR_CMD_MAP_CREATE) {
		const struct kv *v = kv_get(&it->fields, "attr.btf_value_type_id");

		it->map_value_type_id = v ? (uint32_t)strtoul(v->val, NULL, 0) : 0;
	}
	name_btf_users(s, c, it);
	if (kind != BPFRR_OBJ_NONE && bpfrr_u64map_put(&s->by_origin, c->seq, it - s->items))
		diff_oom = true;
}

/*
 * The perf_event_attr field by field, as dump prints it: the PMU type and the
 * tracepoint id are the kernel's numbers, compared by the names tname and
 * cname where the traces have them; a dynamic PMU's config1 and config2 are
 * pointers (kprobe and uprobe names) or addresses: left out, the strings are
 * compared instead.
 */
static void add_perf_attr(struct item *it, const void *data, size_t len, uint32_t type, const char *tname,
			  const char *cname)
{
	char *text = NULL, *line, *next;
	size_t tlen = 0;
	FILE *f = open_memstream(&text, &tlen);

	if (!f) {
		diff_oom = true;
		return;
	}
	dump_perf_attr_text(f, data, len, "", NULL);
	if (!ms_close(f, &text))
		return;
	for (line = text; line && *line; line = next) {
		char *colon, *name, *sym = NULL;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		colon = strstr(line, ": ");
		if (!colon)
			continue;
		*colon = 0;
		if (type >= 6 && (!strcmp(line, "config1") || !strcmp(line, "config2")))
			continue;
		if (!strcmp(line, "type") && tname)
			sym = xstrdup(tname);
		if (!strcmp(line, "config") && cname)
			sym = xstrdup(cname);
		name = xasprintf("perf_event_attr.%s", line);
		if (name)
			kv_set(&it->fields, name, xstrdup(colon + 2), sym);
		else
			free(sym);
		free(name);
	}
	free(text);
}

/* perf_event_open: an object named by what it opens (the PMU and config, by name when the trace has them). */
static void read_perf_event_open(struct side *s, const struct bpfrr_rec_syscall *rec)
{
	const struct bpfrr_trace_region *reg = NULL;
	const struct bpfrr_rec_blob *b;
	uint32_t type = 0;
	uint64_t config = 0;
	char *tname, *cname;
	struct item *it;

	for (uint32_t i = 0; i < rec->nr_regions; i++)
		if (rec->regions[i].phase == BPFRR_PHASE_ENTRY && !strcmp(rec->regions[i].path, "perf_event_attr"))
			reg = &rec->regions[i];
	b = reg ? region_blob(s, reg) : NULL;
	if (b && b->len >= 16) {
		memcpy(&type, b->data, 4);
		memcpy(&config, (const uint8_t *)b->data + 8, 8);
	}
	tname = type >= 6 ? symbol_name(s, BPFRR_SYM_PMU_TYPE, type) : NULL;
	cname = type == 2 ? symbol_name(s, BPFRR_SYM_TP_ID, config) : NULL;	/* PERF_TYPE_TRACEPOINT */
	if (type == 2)	/* PERF_TYPE_TRACEPOINT */
		it = new_item(s, rec->seq, cname ? xasprintf("perf_event tracepoint %s", cname) :
					   xasprintf("perf_event tracepoint %" PRIu64, config));
	else if (tname)
		it = new_item(s, rec->seq, xasprintf("perf_event %s 0x%" PRIx64, tname, config));
	else
		it = new_item(s, rec->seq, xasprintf("perf_event type %u config 0x%" PRIx64, type, config));
	if (it) {
		printable(it->key);
		if (b)
			add_perf_attr(it, b->data, b->len, type, tname, cname);
		else
			kv_set(&it->fields, "perf_event_attr", xstrdup("not captured"), NULL);
		/* what its pointers held (a kprobe's function, a uprobe's path) */
		for (uint32_t i = 0; i < rec->nr_regions; i++) {
			const struct bpfrr_trace_region *r = &rec->regions[i];
			const struct bpfrr_rec_blob *rb = region_blob(s, r);

			if (r->phase == BPFRR_PHASE_ENTRY && rb &&
			    (r->content == BPFRR_CONTENT_STRING || r->content == BPFRR_CONTENT_PATH)) {
				char *v = xasprintf("\"%.*s\"", (int)strnlen(rb->data, rb->len), (const char *)rb->data);

				printable(v);
				kv_set(&it->fields, r->path, v, NULL);
			}
		}
		kv_set(&it->fields, "result", xstrdup(result_of(rec->ret, rec->flags)), NULL);
		if (rec->ret >= 0 && !(rec->flags & BPFRR_CALL_NO_EXIT) &&
		    bpfrr_u64map_put(&s->by_origin, rec->seq, it - s->items))
			diff_oom = true;
	}
	free(tname);
	free(cname);
}

/*
 * Open a trace and read what is recorded after the calls it belongs to
 * (identities, symbols). 0, or the exit status: 2 for an unreadable or
 * corrupt trace, 1 for out of memory (a failure, as in every subcommand).
 */
static int open_side(struct side *s, const char *path, FILE *err)
{
	char *e = NULL;

	s->path = path;
	s->r = bpfrr_trace_open(path, 0, &e);
	if (!s->r) {
		fprintf(err, "bpfrr diff: %s\n", e ? e : path);
		free(e);
		/* (the reader's own allocation failures: cli/oom.c makes them 1) */
		return BPFRR_EXIT_USAGE;
	}
	s->rt = bpfrr_rt_new(s->r);
	if (!s->rt || bpfrr_rt_model(s->rt, sizeof(struct bpfrr_fdm_obj), NULL, NULL) ||
	    bpfrr_rt_collect(s->rt, NULL, NULL) == BPFRR_TRACE_NOMEM) {
		fprintf(err, "bpfrr diff: %s: out of memory\n", path);
		return BPFRR_EXIT_FAILURE;
	}
	return 0;
}

/* Read the trace into items. 0, or the exit status (as open_side()). */
static int read_side(struct side *s, FILE *err)
{
	const char *path = s->path;
	struct bpfrr_trace_record rec;
	struct bpfrr_rt_call c;
	int st, ret;

	while ((st = bpfrr_trace_next(s->r, &rec)) == BPFRR_TRACE_RECORD) {
		switch (rec.type) {
		case BPFRR_REC_TASK:
			if (bpfrr_rt_task(s->rt, &rec.task))
				goto nomem;
			break;
		case BPFRR_REC_FD_EVENT:
			ret = bpfrr_rt_fd_event(s->rt, &rec.fd_event);
			if (ret == -EBADMSG) {
				fprintf(err, "bpfrr diff: %s: the fd event of seq %" PRIu64 " contradicts what that "
					"call returned: not a trace a recorder writes\n", path, rec.fd_event.seq);
				return BPFRR_EXIT_USAGE;
			}
			if (ret)
				goto nomem;
			if (rec.fd_event.op == BPFRR_FD_ADOPT) {
				const struct bpfrr_fdm_obj *o = bpfrr_fdm_lookup(bpfrr_rt_fdm(s->rt), rec.fd_event.tid,
										 rec.fd_event.fd);
				const struct bpfrr_rec_object *id =
					bpfrr_rt_identity_fd(s->rt, rec.fd_event.seq, rec.fd_event.fd);

				if (o && id && !(id->flags & BPFRR_OBJECT_F_QUERY_FAILED) &&
				    bpfrr_u64map_put(&s->adopted, (uintptr_t)o, (uintptr_t)id))
					goto nomem;
			}
			break;
		case BPFRR_REC_BPF_CALL:
			bpfrr_rt_call_bpf(&c, &rec.bpf_call);
			s->c = &c;
			read_bpf_call(s, &c);
			s->c = NULL;
			if (!bpfrr_rt_call_result(s->rt, &c, NULL) && bpfrr_fdm_oom(bpfrr_rt_fdm(s->rt)))
				goto nomem;
			break;
		case BPFRR_REC_SYSCALL:
			if (!strcmp(rec.syscall.name, "perf_event_open"))
				read_perf_event_open(s, &rec.syscall);
			break;
		default:
			break;
		}
		if (diff_oom)
			goto nomem;
	}
	s->status = st;
	if (st == BPFRR_TRACE_CORRUPT) {
		fprintf(err, "bpfrr diff: %s: corrupt trace\n", path);
		return BPFRR_EXIT_USAGE;
	}
	if (st == BPFRR_TRACE_NOMEM)
		goto nomem;
	return 0;
nomem:
	fprintf(err, "bpfrr diff: %s: out of memory\n", path);
	return BPFRR_EXIT_FAILURE;
}

/* --- comparing ---------------------------------------------------------------------------------- */

/* Match A's items to B's: the same key, the nth of a key in A with the nth in B (the order they were made). */
static void match_items(struct side *a, struct side *b)
{
	for (uint32_t i = 0; i < a->n; i++) {
		for (uint32_t j = 0; j < b->n; j++) {
			if (b->items[j].match >= 0 || strcmp(a->items[i].key, b->items[j].key))
				continue;
			a->items[i].match = j;
			b->items[j].match = i;
			break;
		}
	}
}

static bool kv_same(const struct kv *x, const struct kv *y)
{
	if (!x || !y)
		return false;
	if (x->sym && y->sym)
		return !strcmp(x->sym, y->sym);
	return !strcmp(x->val, y->val);
}

static const char *kv_show(const struct kv *x, char *buf, size_t size)
{
	if (!x)
		return NULL;
	if (x->sym)
		snprintf(buf, size, "%s (%s)", x->val, x->sym);
	else
		snprintf(buf, size, "%s", x->val);
	return buf;
}

/* One difference of a kvlist: name, the value in A and in B (NULL: absent). */
typedef void (*kv_diff_fn)(void *arg, const char *name, const struct kv *x, const struct kv *y);

static unsigned int kvlist_diff(const struct kvlist *x, const struct kvlist *y, kv_diff_fn fn, void *arg)
{
	unsigned int n = 0;

	for (uint32_t i = 0; i < x->n; i++) {
		const struct kv *o = kv_get(y, x->v[i].name);

		if (!kv_same(&x->v[i], o)) {
			n++;
			if (fn)
				fn(arg, x->v[i].name, &x->v[i], o);
		}
	}
	for (uint32_t i = 0; i < y->n; i++) {
		if (!kv_get(x, y->v[i].name)) {
			n++;
			if (fn)
				fn(arg, y->v[i].name, NULL, &y->v[i]);
		}
	}
	return n;
}

/* The unified diff of two line lists, 3 lines of context: " x", "-x", "+x", "@@ -a,b +c,d @@". */
#define DIFF_CONTEXT 3
#define DIFF_MAX_CELLS (32u << 20)

static void lines_diff(const struct lines *x, const struct lines *y, struct lines *out)
{
	uint32_t n = x->n, m = y->n, i, j, k, nops = 0;
	uint32_t *t;
	char *ops;	/* ' ', '-', '+' per step */
	uint32_t *xi, *yi;

	if ((uint64_t)(n + 1) * (m + 1) > DIFF_MAX_CELLS) {
		lines_add(out, xasprintf("@@ -1,%u +1,%u @@ (too long to align: all lines)", n, m));
		for (i = 0; i < n; i++)
			lines_add(out, xasprintf("-%s", x->v[i]));
		for (i = 0; i < m; i++)
			lines_add(out, xasprintf("+%s", y->v[i]));
		return;
	}
	t = calloc((size_t)(n + 1) * (m + 1), sizeof(*t));
	ops = malloc(n + m + 1);
	xi = malloc(sizeof(*xi) * (n + m + 1));
	yi = malloc(sizeof(*yi) * (n + m + 1));
	if (!t || !ops || !xi || !yi) {
		diff_oom = true;
		goto out;
	}
#define T(a, b) t[(size_t)(a) * (m + 1) + (b)]
	/* T(i, j): the longest common subsequence of x[i..] and y[j..] */
	for (i = n + 1; i-- > 0;)
		for (j = m + 1; j-- > 0;) {
			if (i == n || j == m)
				T(i, j) = 0;
			else if (!strcmp(x->v[i], y->v[j]))
				T(i, j) = T(i + 1, j + 1) + 1;
			else
				T(i, j) = T(i + 1, j) >= T(i, j + 1) ? T(i + 1, j) : T(i, j + 1);
		}
	for (i = 0, j = 0; i < n || j < m;) {
		xi[nops] = i;
		yi[nops] = j;
		if (i < n && j < m && !strcmp(x->v[i], y->v[j])) {
			ops[nops++] = ' ';
			i++, j++;
		} else if (i < n && (j == m || T(i + 1, j) >= T(i, j + 1))) {
			ops[nops++] = '-';	/* what A had first, as diff -u prints it */
			i++;
		} else {
			ops[nops++] = '+';
			j++;
		}
	}
#undef T
	/* hunks: runs of changes with their context, merged when the context overlaps */
	for (k = 0; k < nops;) {
		uint32_t start, end, a0, b0, na = 0, nb = 0;

		if (ops[k] == ' ') {
			k++;
			continue;
		}
		start = k > DIFF_CONTEXT ? k - DIFF_CONTEXT : 0;
		end = k;
		for (;;) {
			while (end < nops && ops[end] != ' ')
				end++;
			/* another change within 2 * context: same hunk */
			uint32_t next = end;

			while (next < nops && ops[next] == ' ' && next - end < 2 * DIFF_CONTEXT)
				next++;
			if (next < nops && ops[next] != ' ') {
				end = next;
				continue;
			}
			break;
		}
		end = end + DIFF_CONTEXT < nops ? end + DIFF_CONTEXT : nops;
		a0 = xi[start];
		b0 = yi[start];
		for (uint32_t q = start; q < end; q++) {
			na += ops[q] != '+';
			nb += ops[q] != '-';
		}
		lines_add(out, xasprintf("@@ -%u,%u +%u,%u @@", a0 + 1, na, b0 + 1, nb));
		for (uint32_t q = start; q < end; q++)
			lines_add(out, xasprintf("%c%s", ops[q], ops[q] == '+' ? y->v[yi[q]] : x->v[xi[q]]));
		k = end;
	}
out:
	free(t);
	free(ops);
	free(xi);
	free(yi);
}

/* --- BTF by type name ---------------------------------------------------------------------------- */

static const char *btf_kind_str(const struct btf_type *t)
{
	static const char *const names[] = {
		"void", "int", "ptr", "array", "struct", "union", "enum", "fwd", "typedef", "volatile",
		"const", "restrict", "func", "func_proto", "var", "datasec", "float", "decl_tag",
		"type_tag", "enum64",
	};
	unsigned int k = btf_kind(t);

	return k < sizeof(names) / sizeof(names[0]) ? names[k] : "unknown";
}

/* Text into buf, cut short if it is long: it is only shown. */
static void bput(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void bput(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
}

/* A type referred to, by name: "struct task_struct *", "u32[4]", "int". */
static void btf_ref_str(const struct btf *btf, uint32_t id, char *buf, size_t size, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	char inner[256];
	const char *name;

	if (!id || !t) {
		bput(buf, size, "void");
		return;
	}
	name = btf__name_by_offset(btf, t->name_off);
	if (name && name[0] && !btf_is_ptr(t) && !btf_is_array(t)) {
		if (btf_is_struct(t) || btf_is_union(t) || btf_is_enum(t) || btf_is_fwd(t) || btf_is_enum64(t))
			bput(buf, size, "%s %s", btf_kind_str(t), name);
		else
			bput(buf, size, "%s", name);
		return;
	}
	if (depth > 6) {
		bput(buf, size, "...");
		return;
	}
	if (btf_is_ptr(t) || btf_is_mod(t) || btf_is_typedef(t)) {
		btf_ref_str(btf, t->type, inner, sizeof(inner), depth + 1);
		if (btf_is_ptr(t))
			bput(buf, size, "%s *", inner);
		else
			bput(buf, size, "%s %s", btf_kind_str(t), inner);
		return;
	}
	if (btf_is_array(t)) {
		btf_ref_str(btf, btf_array(t)->type, inner, sizeof(inner), depth + 1);
		bput(buf, size, "%s[%u]", inner, btf_array(t)->nelems);
		return;
	}
	bput(buf, size, "anon %s (%u bytes)", btf_kind_str(t), (btf_is_struct(t) || btf_is_union(t)) ? t->size : 0);
}

/* The named types of a BTF, "KIND NAME" -> what they are made of. */
static void btf_types(struct btf *btf, struct kvlist *out)
{
	uint32_t nr = btf ? btf__type_cnt(btf) : 0;

	for (uint32_t id = 1; id < nr; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name = btf__name_by_offset(btf, t->name_off);
		char ref[256], *key, *desc = NULL;
		size_t len = 0;
		FILE *f;

		if (!name || !name[0])
			continue;
		key = xasprintf("%s %s", btf_kind_str(t), name);
		f = open_memstream(&desc, &len);
		if (!key || !f) {
			free(key);
			if (f)
				fclose(f);
			diff_oom = true;
			return;
		}
		if (btf_is_struct(t) || btf_is_union(t)) {
			const struct btf_member *mb = btf_members(t);

			fprintf(f, "%u bytes {", t->size);
			for (uint16_t i = 0; i < btf_vlen(t); i++) {
				btf_ref_str(btf, mb[i].type, ref, sizeof(ref), 0);
				fprintf(f, " %s %s @%u;", ref, btf__name_by_offset(btf, mb[i].name_off) ?: "",
					btf_member_bit_offset(t, i));
			}
			fprintf(f, " }");
		} else if (btf_is_enum(t)) {
			const struct btf_enum *e = btf_enum(t);

			fprintf(f, "%u bytes {", t->size);
			for (uint16_t i = 0; i < btf_vlen(t); i++)
				fprintf(f, " %s = %d;", btf__name_by_offset(btf, e[i].name_off) ?: "", e[i].val);
			fprintf(f, " }");
		} else if (btf_is_func_proto(t) || btf_is_func(t)) {
			const struct btf_type *p = btf_is_func(t) ? btf__type_by_id(btf, t->type) : t;

			if (p && btf_is_func_proto(p)) {
				const struct btf_param *pa = btf_params(p);

				btf_ref_str(btf, p->type, ref, sizeof(ref), 0);
				fprintf(f, "%s (", ref);
				for (uint16_t i = 0; i < btf_vlen(p); i++) {
					btf_ref_str(btf, pa[i].type, ref, sizeof(ref), 0);
					fprintf(f, "%s%s %s", i ? ", " : "", ref, btf__name_by_offset(btf, pa[i].name_off) ?: "");
				}
				fprintf(f, ")");
			}
		} else if (btf_is_datasec(t)) {
			const struct btf_var_secinfo *vs = btf_var_secinfos(t);

			fprintf(f, "%u bytes {", t->size);
			for (uint16_t i = 0; i < btf_vlen(t); i++) {
				const struct btf_type *v = btf__type_by_id(btf, vs[i].type);

				fprintf(f, " %s @%u+%u;", v ? btf__name_by_offset(btf, v->name_off) ?: "" : "?", vs[i].offset,
					vs[i].size);
			}
			fprintf(f, " }");
		} else if (btf_is_int(t) || btf_is_float(t)) {
			fprintf(f, "%u bytes", t->size);
		} else {
			btf_ref_str(btf, t->type, ref, sizeof(ref), 0);
			fprintf(f, "%s", ref);
		}
		ms_close(f, &desc);
		/* several types of one kind and name (kernel BTF has some): keep them apart */
		if (kv_get(out, key)) {
			char *k2 = xasprintf("%s #%u", key, id);

			free(key);
			key = k2;
		}
		if (key)
			kv_set(out, key, desc, NULL);
		else
			free(desc);
		free(key);
	}
}

/* --- output ------------------------------------------------------------------------------------- */

struct report {
	const struct bpfrr_diff_opts *opts;
	FILE *f;
	struct json_out j;
	unsigned int same, changed, only_a, only_b;
};

struct kv_print {
	struct report *rp;
	const char *indent;
};

static void print_kv_diff(void *arg, const char *name, const struct kv *x, const struct kv *y)
{
	struct kv_print *kp = arg;
	char bx[1024], by[1024];

	if (kp->rp->opts->json) {
		json_obj_begin(&kp->rp->j, NULL);
		json_str(&kp->rp->j, "name", name);
		json_str(&kp->rp->j, "a", x ? x->val : NULL);
		json_str(&kp->rp->j, "b", y ? y->val : NULL);
		if ((x && x->sym) || (y && y->sym)) {
			json_str(&kp->rp->j, "a_name", x ? x->sym : NULL);
			json_str(&kp->rp->j, "b_name", y ? y->sym : NULL);
		}
		json_obj_end(&kp->rp->j);
		return;
	}
	fprintf(kp->rp->f, "%s%s:\n", kp->indent, name);
	if (x)
		fprintf(kp->rp->f, "%s  - %s\n", kp->indent, kv_show(x, bx, sizeof(bx)));
	if (y)
		fprintf(kp->rp->f, "%s  + %s\n", kp->indent, kv_show(y, by, sizeof(by)));
}

static void print_btf_diff(struct report *rp, struct kvlist *ta, struct kvlist *tb)
{
	static const char *const what[3] = { "removed", "added", "changed" };

	for (int w = 0; w < 3; w++) {
		unsigned int n = 0;

		for (uint32_t i = 0; i < (w == 1 ? tb->n : ta->n); i++) {
			const struct kv *x = w == 1 ? kv_get(ta, tb->v[i].name) : &ta->v[i];
			const struct kv *y = w == 1 ? &tb->v[i] : kv_get(tb, ta->v[i].name);
			const char *name = w == 1 ? tb->v[i].name : ta->v[i].name;

			if ((w == 0 && y) || (w == 1 && x) || (w == 2 && (!x || !y || !strcmp(x->val, y->val))))
				continue;
			if (rp->opts->json) {
				if (!n++)
					json_arr_begin(&rp->j, what[w]);
				json_str(&rp->j, NULL, name);
				continue;
			}
			if (!n++)
				fprintf(rp->f, "    btf types %s:\n", what[w]);
			if (w == 2)
				fprintf(rp->f, "      %s\n        - %s\n        + %s\n", name, x->val, y->val);
			else
				fprintf(rp->f, "      %c %s\n", w ? '+' : '-', name);
		}
		if (rp->opts->json && n)
			json_arr_end(&rp->j);
	}
}

/* Compare a matched pair; print it if it differs (or always, with -v / JSON). */
static void compare_pair(struct report *rp, struct item *x, struct item *y)
{
	struct kvlist ta = { 0 }, tb = { 0 };
	struct lines ld = { 0 };
	unsigned int nf, nv, nb = 0;
	bool btf_differs = false, insns_differ;
	struct kv_print kp = { rp, "    " };

	nf = kvlist_diff(&x->fields, &y->fields, NULL, NULL);
	nv = kvlist_diff(&x->values, &y->values, NULL, NULL);
	insns_differ = x->insns.n != y->insns.n;
	for (uint32_t i = 0; !insns_differ && i < x->insns.n; i++)
		insns_differ = strcmp(x->insns.v[i], y->insns.v[i]);
	if (x->btf_data || y->btf_data) {
		if (x->btf_len != y->btf_len || !x->btf_data || !y->btf_data ||
		    memcmp(x->btf_data, y->btf_data, x->btf_len)) {
			btf_types(item_btf(x), &ta);
			btf_types(item_btf(y), &tb);
			nb = kvlist_diff(&ta, &tb, NULL, NULL);
			btf_differs = nb || !item_btf(x) || !item_btf(y);
		}
	}
	if (!nf && !nv && !insns_differ && !btf_differs) {
		rp->same++;
		if (rp->opts->json) {
			json_obj_begin(&rp->j, NULL);
			json_str(&rp->j, "status", "same");
			json_str(&rp->j, "key", x->key);
			json_u64(&rp->j, "seq_a", x->seq);
			json_u64(&rp->j, "seq_b", y->seq);
			json_obj_end(&rp->j);
		} else if (rp->opts->verbose) {
			fprintf(rp->f, "= %s (#%" PRIu64 " / #%" PRIu64 ")\n", x->key, x->seq, y->seq);
		}
		goto out;
	}
	rp->changed++;
	if (insns_differ)
		lines_diff(&x->insns, &y->insns, &ld);
	if (rp->opts->json) {
		json_obj_begin(&rp->j, NULL);
		json_str(&rp->j, "status", "changed");
		json_str(&rp->j, "key", x->key);
		json_u64(&rp->j, "seq_a", x->seq);
		json_u64(&rp->j, "seq_b", y->seq);
		json_arr_begin(&rp->j, "fields");
		kvlist_diff(&x->fields, &y->fields, print_kv_diff, &kp);
		json_arr_end(&rp->j);
		json_arr_begin(&rp->j, "insns");
		for (uint32_t i = 0; i < ld.n; i++)
			json_str(&rp->j, NULL, ld.v[i]);
		json_arr_end(&rp->j);
		json_arr_begin(&rp->j, "values");
		kvlist_diff(&x->values, &y->values, print_kv_diff, &kp);
		json_arr_end(&rp->j);
		json_obj_begin(&rp->j, "btf");
		if (btf_differs)
			print_btf_diff(rp, &ta, &tb);
		json_obj_end(&rp->j);
		json_obj_end(&rp->j);
		goto out;
	}
	fprintf(rp->f, "~ %s (#%" PRIu64 " / #%" PRIu64 ")\n", x->key, x->seq, y->seq);
	if (nf) {
		fprintf(rp->f, "  fields:\n");
		kvlist_diff(&x->fields, &y->fields, print_kv_diff, &kp);
	}
	if (ld.n) {
		fprintf(rp->f, "  insns:\n");
		for (uint32_t i = 0; i < ld.n; i++)
			fprintf(rp->f, "    %s\n", ld.v[i]);
	}
	if (nv) {
		fprintf(rp->f, "  values:\n");
		kvlist_diff(&x->values, &y->values, print_kv_diff, &kp);
	}
	if (btf_differs) {
		fprintf(rp->f, "  btf:\n");
		if (!item_btf(x) || !item_btf(y))
			fprintf(rp->f, "    %s does not parse\n", !item_btf(x) ? "A's" : "B's");
		print_btf_diff(rp, &ta, &tb);
	}
out:
	kv_free(&ta);
	kv_free(&tb);
	lines_free(&ld);
}

static void print_only(struct report *rp, const struct item *it, bool in_a)
{
	if (in_a)
		rp->only_a++;
	else
		rp->only_b++;
	if (rp->opts->json) {
		json_obj_begin(&rp->j, NULL);
		json_str(&rp->j, "status", in_a ? "only_a" : "only_b");
		json_str(&rp->j, "key", it->key);
		json_u64(&rp->j, in_a ? "seq_a" : "seq_b", it->seq);
		json_obj_end(&rp->j);
		return;
	}
	fprintf(rp->f, "%c only in %s: %s (#%" PRIu64 ")\n", in_a ? '-' : '+', in_a ? "A" : "B", it->key, it->seq);
}

static void side_json(struct report *rp, const char *key, const struct side *s)
{
	const struct bpfrr_rec_kernel *k = bpfrr_rt_kernel(s->rt);

	json_obj_begin(&rp->j, key);
	json_str(&rp->j, "path", s->path);
	json_bool(&rp->j, "complete", s->status == BPFRR_TRACE_EOF);
	json_str(&rp->j, "kernel", k ? k->release : NULL);
	json_u64(&rp->j, "items", s->n);
	json_obj_end(&rp->j);
}

int bpfrr_diff_files(const char *pa, const char *pb, const struct bpfrr_diff_opts *opts, FILE *out, FILE *err)
{
	struct side a = { 0 }, b = { 0 };
	struct report rp = { .opts = opts, .f = out };
	bool same;
	int rc;

	diff_oom = false;
	if ((rc = open_side(&a, pa, err)) || (rc = open_side(&b, pb, err)))
		goto out;
	/* kernel numbers by name only when both traces can name them (format 1.1) */
	a.names = b.names = bpfrr_rt_kernel(a.rt) && bpfrr_rt_kernel(b.rt);
	if ((rc = read_side(&a, err)) || (rc = read_side(&b, err)))
		goto out;
	match_items(&a, &b);
	if (opts->json) {
		json_start(&rp.j, out);
		json_obj_begin(&rp.j, NULL);
		side_json(&rp, "a", &a);
		side_json(&rp, "b", &b);
		json_arr_begin(&rp.j, "items");
	} else {
		const struct bpfrr_rec_kernel *ka = bpfrr_rt_kernel(a.rt), *kb = bpfrr_rt_kernel(b.rt);

		fprintf(out, "--- A %s%s%s%s\n", pa, ka ? " (kernel " : "", ka ? ka->release : "", ka ? ")" : "");
		fprintf(out, "+++ B %s%s%s%s\n", pb, kb ? " (kernel " : "", kb ? kb->release : "", kb ? ")" : "");
		if (ka && kb) {
			struct bpfrr_kernel_ident ia = bpfrr_kernel_ident_of_rec(ka), ib = bpfrr_kernel_ident_of_rec(kb);

			/* undecided (one has only a build id, the other only a BTF hash): say so too */
			if (bpfrr_kernel_build_match(&ia, &ib) != BPFRR_BUILD_SAME)
				fprintf(out, "(two kernel builds: their numbers are compared by the names the traces "
					"give them)\n");
		}
	}
	/* A's items in their order, each of B's own before the first match that follows it in B */
	{
		uint32_t j = 0;

		for (uint32_t i = 0; i < a.n; i++) {
			uint32_t m = (uint32_t)a.items[i].match;

			if (a.items[i].match < 0) {
				print_only(&rp, &a.items[i], true);
				continue;
			}
			for (; j < m; j++)
				if (b.items[j].match < 0)
					print_only(&rp, &b.items[j], false);
			compare_pair(&rp, &a.items[i], &b.items[m]);
			if (m + 1 > j)
				j = m + 1;
		}
		for (; j < b.n; j++)
			if (b.items[j].match < 0)
				print_only(&rp, &b.items[j], false);
	}
	same = !rp.changed && !rp.only_a && !rp.only_b;
	if (opts->json) {
		json_arr_end(&rp.j);
		json_bool(&rp.j, "same", same);
		json_obj_begin(&rp.j, "counts");
		json_u64(&rp.j, "same", rp.same);
		json_u64(&rp.j, "changed", rp.changed);
		json_u64(&rp.j, "only_a", rp.only_a);
		json_u64(&rp.j, "only_b", rp.only_b);
		json_obj_end(&rp.j);
		json_obj_end(&rp.j);
		json_newline(&rp.j);
	} else if (same) {
		fprintf(out, "same: %u objects and calls match\n", rp.same);
	} else {
		fprintf(out, "different: %u changed, %u only in A, %u only in B, %u the same\n", rp.changed, rp.only_a,
			rp.only_b, rp.same);
	}
	rc = same ? BPFRR_EXIT_OK : BPFRR_EXIT_FAILURE;
	if (a.status == BPFRR_TRACE_TRUNCATED || b.status == BPFRR_TRACE_TRUNCATED) {
		fprintf(err, "bpfrr diff: %s: truncated trace (no END record): compared as far as it goes\n",
			a.status == BPFRR_TRACE_TRUNCATED ? pa : pb);
		rc = BPFRR_EXIT_TRUNCATED;
	}
	if (diff_oom) {
		/* a failure (1), as in every subcommand: the input is not bad */
		fprintf(err, "bpfrr diff: out of memory\n");
		rc = BPFRR_EXIT_FAILURE;
	}
out:
	free_side(&a);
	free_side(&b);
	return rc;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bpfrr diff [--json] [-v] A.trace B.trace\n"
		"\n"
		"What changed between the loads two traces recorded (two versions of a\n"
		"loader, the same loader with other arguments or on another kernel, a\n"
		"recording and a replay's trace).  Objects are matched by name and role,\n"
		"not by fd or seq: maps by type and name, programs by type and name (and\n"
		"attach target), BTF by the object that uses it, links and perf events by\n"
		"what they attach, other calls by command and the objects they act on, in\n"
		"the order they were made.  Per matched object: the attr fields that\n"
		"differ, the disassembly as a unified diff (maps by name), the values the\n"
		"loader wrote into maps (by variable for .rodata/.data/.bss), the BTF types\n"
		"by name.  Fds, pointers, ids, seqs and times are not compared; numbers of\n"
		"the kernel's own are compared by the names the traces give them.\n"
		"\n"
		"options:\n"
		"  --json          one JSON document (see docs/diff-json.md)\n"
		"  -v, --verbose   also list the objects and calls that are the same\n"
		"  -h, --help      this help\n"
		"\n"
		"exit status: 0 the same, 1 different, 2 a usage error or an unreadable or\n"
		"corrupt trace, 3 a truncated trace (compared as far as it goes).\n");
}

int bpfrr_diff_main(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bpfrr_diff_opts opts = { 0 };
	int c;

	while ((c = getopt_long(argc, argv, "vh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			opts.json = true;
			break;
		case 'v':
			opts.verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return BPFRR_EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		usage(stderr);
		return BPFRR_EXIT_USAGE;
	}
	return bpfrr_diff_files(argv[optind], argv[optind + 1], &opts, stdout, stderr);
}

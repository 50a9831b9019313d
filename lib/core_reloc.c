// SPDX-License-Identifier: GPL-2.0-only
/*
 * core_reloc.c - what the kernel's CO-RE relocation makes of a program on
 * a given kernel BTF, computed on our side (core_reloc.h says which
 * semantics).  Written against the documented behaviour of
 * tools/lib/bpf/relo_core.c (shared by libbpf and the kernel); only
 * libbpf's pure BTF accessors are used.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <linux/bpf.h>

#include "core_reloc.h"

#define SPEC_MAX_LEN	64		/* accessors in one access string (the kernel's limit) */
/*
 * How deep the kernel follows function prototypes and members when it
 * compares types (kernel/bpf/btf.c; libbpf allows 32): the kernel is the one
 * that relocates at replay, so its limits are the ones that count.
 */
#define KERNEL_COMPAT_DEPTH	2
#define KERNEL_MATCH_DEPTH	2
#define POISON_IMM	195896080	/* 0xbad2310: "bad relo", an invalid helper id */

static const char *const kind_names[] = {
	[BPF_CORE_FIELD_BYTE_OFFSET] = "FIELD_BYTE_OFFSET",
	[BPF_CORE_FIELD_BYTE_SIZE] = "FIELD_BYTE_SIZE",
	[BPF_CORE_FIELD_EXISTS] = "FIELD_EXISTS",
	[BPF_CORE_FIELD_SIGNED] = "FIELD_SIGNED",
	[BPF_CORE_FIELD_LSHIFT_U64] = "FIELD_LSHIFT_U64",
	[BPF_CORE_FIELD_RSHIFT_U64] = "FIELD_RSHIFT_U64",
	[BPF_CORE_TYPE_ID_LOCAL] = "TYPE_ID_LOCAL",
	[BPF_CORE_TYPE_ID_TARGET] = "TYPE_ID_TARGET",
	[BPF_CORE_TYPE_EXISTS] = "TYPE_EXISTS",
	[BPF_CORE_TYPE_SIZE] = "TYPE_SIZE",
	[BPF_CORE_ENUMVAL_EXISTS] = "ENUMVAL_EXISTS",
	[BPF_CORE_ENUMVAL_VALUE] = "ENUMVAL_VALUE",
	[BPF_CORE_TYPE_MATCHES] = "TYPE_MATCHES",
};

const char *bpfrr_core_kind_name(uint32_t kind)
{
	return kind < sizeof(kind_names) / sizeof(kind_names[0]) ? kind_names[kind] : NULL;
}

bool bpfrr_core_kind_supported(uint32_t kind)
{
	return kind <= BPF_CORE_TYPE_MATCHES;
}

static bool is_field_kind(uint32_t kind)
{
	return kind <= BPF_CORE_FIELD_RSHIFT_U64;
}

static bool is_type_kind(uint32_t kind)
{
	return (kind >= BPF_CORE_TYPE_ID_LOCAL && kind <= BPF_CORE_TYPE_SIZE) || kind == BPF_CORE_TYPE_MATCHES;
}

static bool is_enumval_kind(uint32_t kind)
{
	return kind == BPF_CORE_ENUMVAL_EXISTS || kind == BPF_CORE_ENUMVAL_VALUE;
}

static int refuse(char *msg, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int refuse(char *msg, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (msg && size) {
		va_start(ap, fmt);
		vsnprintf(msg, size, fmt, ap);
		va_end(ap);
	}
	return BPFRR_CORE_REFUSED;
}

/* The type id names once typedefs, const/volatile/restrict and type tags are looked through. */
static const struct btf_type *skip_mods(const struct btf *btf, uint32_t id, uint32_t *out_id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	int depth = 0;

	while (t && depth++ < 64) {
		switch (btf_kind(t)) {
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			id = t->type;
			t = btf__type_by_id(btf, id);
			continue;
		}
		break;
	}
	if (out_id)
		*out_id = id;
	return t;
}

static const char *name_of(const struct btf *btf, uint32_t off)
{
	return btf__name_by_offset(btf, off);
}

static bool empty(const char *s)
{
	return !s || !*s;
}

/*
 * Length of a name without its flavor: "task_struct___old" -> 11.  The
 * flavor begins at the last "___" that has a non-underscore on each side.
 */
static size_t essential_len(const char *name)
{
	size_t n = strlen(name), i;

	if (n < 5)
		return n;
	for (i = n - 5 + 1; i-- > 0;) {
		const char *s = name + i;

		if (s[0] != '_' && s[1] == '_' && s[2] == '_' && s[3] == '_' && s[4] != '_')
			return i + 1;
	}
	return n;
}

static bool same_essential(const char *a, const char *b)
{
	size_t la = essential_len(a), lb = essential_len(b);

	return la == lb && !strncmp(a, b, la);
}

static bool kinds_compat(const struct btf_type *a, const struct btf_type *b)
{
	return btf_kind(a) == btf_kind(b) || (btf_is_any_enum(a) && btf_is_any_enum(b));
}

/* --- access specs ------------------------------------------------------------------------ */

struct accessor {
	uint32_t type_id;	/* the struct/union (named member) or the element type (array index) */
	uint32_t idx;		/* member index or array index */
	const char *name;	/* member or enumerator name; NULL for an array index */
};

struct spec {
	const struct btf *btf;
	uint32_t root_id;
	uint32_t kind;
	struct accessor acc[SPEC_MAX_LEN];	/* the named members and array indices */
	int len;
	uint32_t raw[SPEC_MAX_LEN];		/* every step, anonymous members included */
	int raw_len;
	uint32_t bit_offset;			/* of the accessed field from the root */
};

/* A zero-length array as the last member of a struct: any index is fine. */
static bool flexible_array(const struct btf *btf, const struct accessor *outer, const struct btf_array *a)
{
	const struct btf_type *t;

	if (!outer->name || a->nelems > 0)
		return false;
	t = btf__type_by_id(btf, outer->type_id);
	return t && outer->idx == (uint32_t)btf_vlen(t) - 1;
}

/* Parses the record's access string over the local BTF.  0 or -EINVAL/-E2BIG. */
static int parse_spec(const struct btf *btf, const struct bpfrr_core_relo *relo, struct spec *spec, char *msg,
		      size_t msg_size)
{
	const char *str = name_of(btf, relo->access_str_off);
	const struct btf_type *t;
	uint32_t id;
	int64_t sz;
	int i;

	memset(spec, 0, sizeof(*spec));
	spec->btf = btf;
	spec->root_id = relo->type_id;
	spec->kind = relo->kind;
	if (empty(str) || *str == ':')
		return refuse(msg, msg_size, "access string at %u is empty", relo->access_str_off);
	if (is_type_kind(relo->kind)) {
		if (strcmp(str, "0"))
			return refuse(msg, msg_size, "type relocation with access string \"%s\"", str);
		return 0;
	}
	while (*str) {
		char *end;
		unsigned long v;

		if (*str == ':')
			str++;
		if (*str < '0' || *str > '9')
			return refuse(msg, msg_size, "bad access string");
		v = strtoul(str, &end, 10);
		if (v > INT_MAX)
			return refuse(msg, msg_size, "bad access string");
		if (spec->raw_len == SPEC_MAX_LEN)
			return refuse(msg, msg_size, "access string too long");
		spec->raw[spec->raw_len++] = v;
		str = end;
	}
	t = skip_mods(btf, relo->type_id, &id);
	if (!t)
		return refuse(msg, msg_size, "bad local type id %u", relo->type_id);
	spec->acc[0].type_id = id;
	spec->acc[0].idx = spec->raw[0];
	spec->len = 1;

	if (is_enumval_kind(relo->kind)) {
		uint32_t name_off;

		if (!btf_is_any_enum(t) || spec->raw_len > 1 || spec->raw[0] >= btf_vlen(t))
			return refuse(msg, msg_size, "enum value relocation on a non-enum or a bad index");
		name_off = btf_is_enum(t) ? btf_enum(t)[spec->raw[0]].name_off :
					    btf_enum64(t)[spec->raw[0]].name_off;
		spec->acc[0].name = name_of(btf, name_off);
		return 0;
	}
	if (!is_field_kind(relo->kind))
		return BPFRR_CORE_UNSUPPORTED;

	sz = btf__resolve_size(btf, id);
	if (sz < 0)
		return refuse(msg, msg_size, "local type %u has no size", id);
	spec->bit_offset = spec->raw[0] * sz * 8;

	for (i = 1; i < spec->raw_len; i++) {
		uint32_t idx = spec->raw[i];

		t = skip_mods(btf, id, &id);
		if (!t)
			return refuse(msg, msg_size, "bad local type id %u", id);
		if (btf_is_composite(t)) {
			const struct btf_member *m;

			if (idx >= btf_vlen(t))
				return refuse(msg, msg_size, "member %u beyond the %u of type %u", idx,
					      btf_vlen(t), id);
			spec->bit_offset += btf_member_bit_offset(t, idx);
			m = btf_members(t) + idx;
			if (m->name_off) {
				const char *name = name_of(btf, m->name_off);

				if (empty(name))
					return refuse(msg, msg_size, "member %u of type %u has a bad name", idx, id);
				spec->acc[spec->len].type_id = id;
				spec->acc[spec->len].idx = idx;
				spec->acc[spec->len].name = name;
				spec->len++;
			}
			id = m->type;
		} else if (btf_is_array(t)) {
			const struct btf_array *a = btf_array(t);

			if (!skip_mods(btf, a->type, &id))
				return refuse(msg, msg_size, "bad array element type");
			if (!flexible_array(btf, &spec->acc[spec->len - 1], a) && idx >= a->nelems)
				return refuse(msg, msg_size, "index %u beyond an array of %u", idx, a->nelems);
			spec->acc[spec->len].type_id = id;
			spec->acc[spec->len].idx = idx;
			spec->acc[spec->len].name = NULL;
			spec->len++;
			sz = btf__resolve_size(btf, id);
			if (sz < 0)
				return refuse(msg, msg_size, "array element type %u has no size", id);
			spec->bit_offset += idx * sz * 8;
		} else {
			return refuse(msg, msg_size, "access step %d reaches type %u, neither composite nor array",
				      i, id);
		}
	}
	return 0;
}

/* --- matching a spec on a candidate -------------------------------------------------------- */

/* Can a local field of type lid be read as a target field of type tid?  1, 0 or -EINVAL. */
static int fields_compat(const struct btf *lb, uint32_t lid, const struct btf *tb, uint32_t tid)
{
	int depth;

	for (depth = 0; depth < 32; depth++) {
		const struct btf_type *lt = skip_mods(lb, lid, &lid);
		const struct btf_type *tt = skip_mods(tb, tid, &tid);

		if (!lt || !tt)
			return -EINVAL;
		if (btf_is_composite(lt) && btf_is_composite(tt))
			return 1;
		if (!kinds_compat(lt, tt))
			return 0;
		switch (btf_kind(lt)) {
		case BTF_KIND_PTR:
		case BTF_KIND_FLOAT:
			return 1;
		case BTF_KIND_FWD:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64: {
			const char *ln = name_of(lb, lt->name_off), *tn = name_of(tb, tt->name_off);

			/* an anonymous one matches anything, named ones by essential name */
			return empty(ln) || empty(tn) || same_essential(ln, tn);
		}
		case BTF_KIND_INT:
			/* old-style bitfield integers are refused, any other integers agree */
			return btf_int_offset(lt) == 0 && btf_int_offset(tt) == 0;
		case BTF_KIND_ARRAY:
			lid = btf_array(lt)->type;
			tid = btf_array(tt)->type;
			continue;
		default:
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * Finds the member a named local accessor names in target type tid, looking
 * through anonymous members; appends the steps to tspec.  1 found (and
 * *next_id is the member's type), 0 not found or incompatible, <0 error.
 */
static int match_member(const struct btf *lb, const struct accessor *lacc, const struct btf *tb, uint32_t tid,
			struct spec *tspec, uint32_t *next_id)
{
	const struct btf_type *lt, *tt = skip_mods(tb, tid, &tid);
	const struct btf_member *lm, *m;
	const char *lname;
	int i, n, found;

	if (!tt)
		return -EINVAL;
	if (!btf_is_composite(tt))
		return 0;
	lt = btf__type_by_id(lb, lacc->type_id);
	lm = btf_members(lt) + lacc->idx;
	lname = name_of(lb, lm->name_off);

	n = btf_vlen(tt);
	m = btf_members(tt);
	for (i = 0; i < n; i++, m++) {
		uint32_t bit_off = btf_member_bit_offset(tt, i);
		const char *tname = name_of(tb, m->name_off);

		if (tspec->raw_len == SPEC_MAX_LEN)
			return -E2BIG;
		/* tentatively step into member i */
		tspec->bit_offset += bit_off;
		tspec->raw[tspec->raw_len++] = i;
		if (empty(tname)) {
			found = match_member(lb, lacc, tb, m->type, tspec, next_id);
			if (found)
				return found;
		} else if (!strcmp(lname, tname)) {
			struct accessor *tacc = &tspec->acc[tspec->len++];

			tacc->type_id = tid;
			tacc->idx = i;
			tacc->name = tname;
			*next_id = m->type;
			found = fields_compat(lb, lm->type, tb, m->type);
			if (!found)
				tspec->len--;
			return found;
		}
		tspec->bit_offset -= bit_off;
		tspec->raw_len--;
	}
	return 0;
}

/* Are local type lid and target type tid compatible for a type relocation?  1, 0, -EINVAL. */
static int types_compat(const struct btf *lb, uint32_t lid, const struct btf *tb, uint32_t tid, int level)
{
	const struct btf_type *lt = btf__type_by_id(lb, lid), *tt = btf__type_by_id(tb, tid);
	int depth;

	if (!lt || !tt)
		return -EINVAL;
	if (!kinds_compat(lt, tt))
		return 0;
	for (depth = 0; depth < 32; depth++) {
		lt = skip_mods(lb, lid, &lid);
		tt = skip_mods(tb, tid, &tid);
		if (!lt || !tt)
			return -EINVAL;
		if (!kinds_compat(lt, tt))
			return 0;
		switch (btf_kind(lt)) {
		case BTF_KIND_UNKN:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
		case BTF_KIND_FWD:
			return 1;
		case BTF_KIND_INT:
			return btf_int_offset(lt) == 0 && btf_int_offset(tt) == 0;
		case BTF_KIND_PTR:
			lid = lt->type;
			tid = tt->type;
			continue;
		case BTF_KIND_ARRAY:
			lid = btf_array(lt)->type;
			tid = btf_array(tt)->type;
			continue;
		case BTF_KIND_FUNC_PROTO: {
			const struct btf_param *lp = btf_params(lt), *tp = btf_params(tt);
			int i, n = btf_vlen(lt), ret;

			if (n != btf_vlen(tt))
				return 0;
			for (i = 0; i < n; i++) {
				uint32_t a, b;

				if (level <= 0)
					return -EINVAL;
				skip_mods(lb, lp[i].type, &a);
				skip_mods(tb, tp[i].type, &b);
				ret = types_compat(lb, a, tb, b, level - 1);
				if (ret <= 0)
					return ret;
			}
			skip_mods(lb, lt->type, &lid);
			skip_mods(tb, tt->type, &tid);
			continue;
		}
		default:
			return 0;
		}
	}
	return -EINVAL;
}

/* Names agree for TYPE_MATCHES: an anonymous target matches an anonymous local only. */
static bool names_match(const struct btf *lb, uint32_t loff, const struct btf *tb, uint32_t toff)
{
	const char *ln = name_of(lb, loff), *tn = name_of(tb, toff);

	if (empty(tn))
		return empty(ln);
	return ln && same_essential(ln, tn);
}

/* Every local enumerator has a namesake in the target, and the sizes agree. */
static int enums_match(const struct btf *lb, const struct btf_type *lt, const struct btf *tb,
		       const struct btf_type *tt)
{
	int i, j, ln = btf_vlen(lt), tn = btf_vlen(tt);

	if (lt->size != tt->size || ln > tn)
		return 0;
	for (i = 0; i < ln; i++) {
		uint32_t loff = btf_is_enum(lt) ? btf_enum(lt)[i].name_off : btf_enum64(lt)[i].name_off;

		for (j = 0; j < tn; j++) {
			uint32_t toff = btf_is_enum(tt) ? btf_enum(tt)[j].name_off : btf_enum64(tt)[j].name_off;

			if (names_match(lb, loff, tb, toff))
				break;
		}
		if (j == tn)
			return 0;
	}
	return 1;
}

static int types_match(const struct btf *lb, uint32_t lid, const struct btf *tb, uint32_t tid, bool behind_ptr,
		       int level);

/* Every local member has a namesake in the target whose type matches. */
static int composites_match(const struct btf *lb, const struct btf_type *lt, const struct btf *tb,
			    const struct btf_type *tt, bool behind_ptr, int level)
{
	const struct btf_member *lm = btf_members(lt);
	int i, j, ln = btf_vlen(lt), tn = btf_vlen(tt), ret;

	if (ln > tn)
		return 0;
	for (i = 0; i < ln; i++, lm++) {
		const struct btf_member *tm = btf_members(tt);

		for (j = 0; j < tn; j++, tm++) {
			if (!names_match(lb, lm->name_off, tb, tm->name_off))
				continue;
			ret = types_match(lb, lm->type, tb, tm->type, behind_ptr, level - 1);
			if (ret < 0)
				return ret;
			if (ret > 0)
				break;
		}
		if (j == tn)
			return 0;
	}
	return 1;
}

/*
 * TYPE_MATCHES: stricter than compatibility (names, sizes, signedness,
 * array lengths, members by name), looser behind a pointer (a struct
 * matches a forward declaration of the same kind).  1, 0 or -EINVAL.
 */
static int types_match(const struct btf *lb, uint32_t lid, const struct btf *tb, uint32_t tid, bool behind_ptr,
		       int level)
{
	const struct btf_type *lt, *tt;
	int depth, lk, tk;

	if (level <= 0)
		return -EINVAL;
	for (depth = 0; depth < 32; depth++) {
		lt = skip_mods(lb, lid, &lid);
		tt = skip_mods(tb, tid, &tid);
		if (!lt || !tt)
			return -EINVAL;
		if (!names_match(lb, lt->name_off, tb, tt->name_off))
			return 0;
		lk = btf_kind(lt);
		tk = btf_kind(tt);
		switch (lk) {
		case BTF_KIND_UNKN:
			return lk == tk;
		case BTF_KIND_FWD:
			if (behind_ptr && lk != tk)
				/* kflag: a forward declaration of a union */
				return (tk == BTF_KIND_STRUCT && !btf_kflag(lt)) ||
				       (tk == BTF_KIND_UNION && btf_kflag(lt));
			return lk == tk && btf_kflag(lt) == btf_kflag(tt);
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			return btf_is_any_enum(tt) && enums_match(lb, lt, tb, tt);
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			if (behind_ptr) {
				if (lk == tk)
					return 1;
				return tk == BTF_KIND_FWD && (lk == BTF_KIND_UNION) == btf_kflag(tt);
			}
			return lk == tk && composites_match(lb, lt, tb, tt, behind_ptr, level);
		case BTF_KIND_INT:
			return lk == tk && lt->size == tt->size &&
			       (btf_int_encoding(lt) & BTF_INT_SIGNED) == (btf_int_encoding(tt) & BTF_INT_SIGNED);
		case BTF_KIND_PTR:
			if (lk != tk)
				return 0;
			behind_ptr = true;
			lid = lt->type;
			tid = tt->type;
			continue;
		case BTF_KIND_ARRAY:
			if (lk != tk || btf_array(lt)->nelems != btf_array(tt)->nelems)
				return 0;
			lid = btf_array(lt)->type;
			tid = btf_array(tt)->type;
			continue;
		case BTF_KIND_FUNC_PROTO: {
			const struct btf_param *lp = btf_params(lt), *tp = btf_params(tt);
			int i, n = btf_vlen(lt), ret;

			if (lk != tk || n != btf_vlen(tt))
				return 0;
			for (i = 0; i < n; i++) {
				ret = types_match(lb, lp[i].type, tb, tp[i].type, behind_ptr, level - 1);
				if (ret <= 0)
					return ret;
			}
			lid = lt->type;
			tid = tt->type;
			continue;
		}
		default:
			return 0;
		}
	}
	return -EINVAL;
}

/* Does the local spec apply to candidate tid?  Fills tspec.  1, 0, or <0. */
static int spec_match(const struct spec *ls, const struct btf *tb, uint32_t tid, struct spec *ts)
{
	const struct btf_type *tt;
	int i;

	memset(ts, 0, sizeof(*ts));
	ts->btf = tb;
	ts->root_id = tid;
	ts->kind = ls->kind;

	if (ls->kind == BPF_CORE_TYPE_MATCHES)
		return types_match(ls->btf, ls->root_id, tb, tid, false, KERNEL_MATCH_DEPTH);
	if (is_type_kind(ls->kind))
		return types_compat(ls->btf, ls->root_id, tb, tid, KERNEL_COMPAT_DEPTH);

	if (is_enumval_kind(ls->kind)) {
		int n;

		tt = skip_mods(tb, tid, &tid);
		if (!tt || !btf_is_any_enum(tt))
			return 0;
		n = btf_vlen(tt);
		for (i = 0; i < n; i++) {
			uint32_t name_off = btf_is_enum(tt) ? btf_enum(tt)[i].name_off : btf_enum64(tt)[i].name_off;
			const char *tname = name_of(tb, name_off);

			if (tname && same_essential(ls->acc[0].name, tname)) {
				ts->acc[0].type_id = tid;
				ts->acc[0].idx = i;
				ts->acc[0].name = tname;
				ts->len = 1;
				ts->raw[ts->raw_len++] = i;
				return 1;
			}
		}
		return 0;
	}

	for (i = 0; i < ls->len; i++) {
		const struct accessor *la = &ls->acc[i];

		tt = skip_mods(tb, tid, &tid);
		if (!tt)
			return -EINVAL;
		if (la->name) {
			int matched = match_member(ls->btf, la, tb, tid, ts, &tid);

			if (matched <= 0)
				return matched;
		} else {
			int64_t sz;

			/* the root is already the element; deeper, step into the array */
			if (i > 0) {
				const struct btf_array *a;

				if (!btf_is_array(tt))
					return 0;
				a = btf_array(tt);
				if (!flexible_array(tb, &ts->acc[ts->len - 1], a) && la->idx >= a->nelems)
					return 0;
				if (!skip_mods(tb, a->type, &tid))
					return -EINVAL;
			}
			if (ts->raw_len == SPEC_MAX_LEN)
				return -E2BIG;
			ts->acc[ts->len].type_id = tid;
			ts->acc[ts->len].idx = la->idx;
			ts->acc[ts->len].name = NULL;
			ts->len++;
			ts->raw[ts->raw_len++] = la->idx;
			sz = btf__resolve_size(tb, tid);
			if (sz < 0)
				return (int)sz;
			ts->bit_offset += la->idx * sz * 8;
		}
	}
	return 1;
}

/* --- values -------------------------------------------------------------------------------- */

/* A field relocation's value on one side (spec NULL: the field was not found). */
static int field_value(uint32_t kind, const struct spec *spec, uint64_t *val, uint32_t *field_sz,
		       uint32_t *field_type, bool *validate, char *msg, size_t msg_size)
{
	const struct accessor *acc;
	const struct btf_type *t, *mt;
	const struct btf_member *m;
	uint32_t byte_off, byte_sz, bit_off, bit_sz, mt_id;
	bool bitfield;
	int64_t sz;

	*field_sz = 0;
	if (kind == BPF_CORE_FIELD_EXISTS) {
		*val = spec ? 1 : 0;
		return 0;
	}
	if (!spec)
		return -EUCLEAN;	/* poison */

	acc = &spec->acc[spec->len - 1];
	t = btf__type_by_id(spec->btf, acc->type_id);
	if (!acc->name) {
		/* the access ends at an array element */
		sz = btf__resolve_size(spec->btf, acc->type_id);
		if (sz < 0)
			return refuse(msg, msg_size, "array element type %u has no size", acc->type_id);
		if (kind == BPF_CORE_FIELD_BYTE_OFFSET) {
			*val = spec->bit_offset / 8;
			*field_sz = sz;
			*field_type = acc->type_id;
		} else if (kind == BPF_CORE_FIELD_BYTE_SIZE) {
			*val = sz;
		} else {
			return refuse(msg, msg_size, "relocation kind %u on an array element", kind);
		}
		if (validate)
			*validate = true;
		return 0;
	}

	m = btf_members(t) + acc->idx;
	mt = skip_mods(spec->btf, m->type, &mt_id);
	if (!mt)
		return refuse(msg, msg_size, "bad member type %u", m->type);
	bit_off = spec->bit_offset;
	bit_sz = btf_member_bitfield_size(t, acc->idx);
	bitfield = bit_sz > 0;
	if (bitfield) {
		/* the smallest aligned load of at least the member's type size that covers the bits */
		byte_sz = mt->size;
		if (!byte_sz)
			return refuse(msg, msg_size, "bitfield of a sizeless type");
		byte_off = bit_off / 8 / byte_sz * byte_sz;
		while (bit_off + bit_sz - byte_off * 8 > byte_sz * 8) {
			if (byte_sz >= 8)
				return refuse(msg, msg_size, "bitfield cannot be read with a 64-bit load");
			byte_sz *= 2;
			byte_off = bit_off / 8 / byte_sz * byte_sz;
		}
	} else {
		sz = btf__resolve_size(spec->btf, mt_id);
		if (sz < 0)
			return refuse(msg, msg_size, "field type %u has no size", mt_id);
		byte_sz = sz;
		byte_off = spec->bit_offset / 8;
		bit_sz = byte_sz * 8;
	}
	/* the compiler's bitfield offsets and sizes may legitimately differ from ours */
	if (validate)
		*validate = !bitfield;

	switch (kind) {
	case BPF_CORE_FIELD_BYTE_OFFSET:
		*val = byte_off;
		if (!bitfield) {
			*field_sz = byte_sz;
			*field_type = mt_id;
		}
		break;
	case BPF_CORE_FIELD_BYTE_SIZE:
		*val = byte_sz;
		break;
	case BPF_CORE_FIELD_SIGNED:
		*val = (btf_is_any_enum(mt) && btf_kflag(mt)) ||
		       (btf_is_int(mt) && (btf_int_encoding(mt) & BTF_INT_SIGNED));
		if (validate)
			*validate = true;
		break;
	case BPF_CORE_FIELD_LSHIFT_U64:
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		*val = 64 - (bit_off + bit_sz - byte_off * 8);
#else
		*val = (8 - byte_sz) * 8 + (bit_off - byte_off * 8);
#endif
		break;
	case BPF_CORE_FIELD_RSHIFT_U64:
		*val = 64 - bit_sz;
		if (validate)
			*validate = true;
		break;
	default:
		return BPFRR_CORE_UNSUPPORTED;
	}
	return 0;
}

static int type_value(uint32_t kind, const struct spec *spec, uint64_t *val, bool *validate)
{
	int64_t sz;

	if (validate)
		*validate = true;
	if (!spec) {
		*val = 0;
		return 0;
	}
	switch (kind) {
	case BPF_CORE_TYPE_ID_TARGET:
		*val = spec->root_id;
		/* ids change when objects are linked: not checked */
		if (validate)
			*validate = false;
		return 0;
	case BPF_CORE_TYPE_EXISTS:
	case BPF_CORE_TYPE_MATCHES:
		*val = 1;
		return 0;
	case BPF_CORE_TYPE_SIZE:
		sz = btf__resolve_size(spec->btf, spec->root_id);
		if (sz < 0)
			return BPFRR_CORE_REFUSED;
		*val = sz;
		return 0;
	default:
		return BPFRR_CORE_UNSUPPORTED;
	}
}

static int enumval_value(uint32_t kind, const struct spec *spec, uint64_t *val)
{
	const struct btf_type *t;

	switch (kind) {
	case BPF_CORE_ENUMVAL_EXISTS:
		*val = spec ? 1 : 0;
		return 0;
	case BPF_CORE_ENUMVAL_VALUE:
		if (!spec)
			return -EUCLEAN;
		t = btf__type_by_id(spec->btf, spec->acc[0].type_id);
		if (btf_is_enum(t))
			*val = (uint64_t)(int64_t)btf_enum(t)[spec->acc[0].idx].val;	/* sign-extended */
		else
			*val = btf_enum64_value(btf_enum64(t) + spec->acc[0].idx);
		return 0;
	default:
		return BPFRR_CORE_UNSUPPORTED;
	}
}

/* The local and target values of a record; tspec NULL when nothing matched. */
static int calc_values(const struct bpfrr_core_relo *relo, const struct spec *ls, const struct spec *ts,
		       struct bpfrr_core_res *res, char *msg, size_t msg_size)
{
	uint32_t orig_type = 0, new_type = 0;
	int err;

	res->orig_val = res->new_val = 0;
	res->orig_sz = res->new_sz = 0;
	res->poison = false;
	res->validate = true;
	res->fail_memsz_adjust = false;

	if (is_field_kind(relo->kind)) {
		err = field_value(relo->kind, ls, &res->orig_val, &res->orig_sz, &orig_type, &res->validate, msg,
				  msg_size);
		if (!err)
			err = field_value(relo->kind, ts, &res->new_val, &res->new_sz, &new_type, NULL, msg,
					  msg_size);
		if (!err && res->orig_sz != res->new_sz) {
			const struct btf_type *ot = btf__type_by_id(ls->btf, orig_type);
			const struct btf_type *nt = btf__type_by_id(ts->btf, new_type);

			/*
			 * A load may change size only where zero extension keeps the
			 * value: pointers (32-bit kernels) and unsigned integers.
			 */
			if (!(ot && nt && btf_is_ptr(ot) && btf_is_ptr(nt)) &&
			    !(ot && nt && btf_is_int(ot) && btf_is_int(nt) &&
			      btf_int_encoding(ot) != BTF_INT_SIGNED && btf_int_encoding(nt) != BTF_INT_SIGNED))
				res->fail_memsz_adjust = true;
		}
	} else if (is_type_kind(relo->kind)) {
		err = type_value(relo->kind, ls, &res->orig_val, &res->validate);
		if (!err)
			err = type_value(relo->kind, ts, &res->new_val, NULL);
	} else if (is_enumval_kind(relo->kind)) {
		err = enumval_value(relo->kind, ls, &res->orig_val);
		if (!err)
			err = enumval_value(relo->kind, ts, &res->new_val);
	} else {
		err = BPFRR_CORE_UNSUPPORTED;
	}
	if (err == -EUCLEAN) {
		res->poison = true;
		err = 0;
	}
	return err;
}

int bpfrr_core_calc(const struct btf *local, const struct btf *target, const struct bpfrr_core_relo *relo,
		    struct bpfrr_core_res *res, char *msg, size_t msg_size)
{
	struct spec *specs;	/* local, candidate, chosen target: large, so not on the stack */
	const struct btf_type *lt;
	const char *lname;
	struct bpfrr_core_res cand;
	uint32_t nr_types, id;
	int err = 0;

	memset(res, 0, sizeof(*res));
	if (msg && msg_size)
		msg[0] = 0;
	if (!bpfrr_core_kind_supported(relo->kind))
		return BPFRR_CORE_UNSUPPORTED;
	lt = btf__type_by_id(local, relo->type_id);
	if (!lt)
		return refuse(msg, msg_size, "bad local type id %u", relo->type_id);
	specs = calloc(3, sizeof(*specs));
	if (!specs)
		return -ENOMEM;
	err = parse_spec(local, relo, &specs[0], msg, msg_size);
	if (err)
		goto out;

	if (relo->kind == BPF_CORE_TYPE_ID_LOCAL) {
		/* the local id stays whatever the target: no candidate search */
		res->orig_val = res->new_val = specs[0].root_id;
		res->validate = false;
		goto out;
	}
	lname = name_of(local, lt->name_off);
	if (empty(lname)) {
		err = refuse(msg, msg_size, "relocation on anonymous local type %u", relo->type_id);
		goto out;
	}

	/* candidates: same BTF kind, same name without the flavor */
	nr_types = btf__type_cnt(target);
	for (id = 1; id < nr_types; id++) {
		const struct btf_type *t = btf__type_by_id(target, id);
		const char *tname;
		int m;

		if (!t || btf_kind(t) != btf_kind(lt))
			continue;
		tname = name_of(target, t->name_off);
		if (empty(tname) || !same_essential(lname, tname))
			continue;
		res->nr_cands++;
		m = spec_match(&specs[0], target, id, &specs[1]);
		if (m < 0) {
			err = refuse(msg, msg_size, "matching candidate [%u] %s failed (%d)", id, tname, m);
			goto out;
		}
		if (!m)
			continue;
		err = calc_values(relo, &specs[0], &specs[1], &cand, msg, msg_size);
		if (err)
			goto out;
		if (!res->nr_matched) {
			uint32_t nc = res->nr_cands;

			*res = cand;
			res->nr_cands = nc;
			specs[2] = specs[1];
		} else if (specs[1].bit_offset != specs[2].bit_offset) {
			err = refuse(msg, msg_size, "field offset ambiguity between candidates: %u != %u",
				     specs[1].bit_offset, specs[2].bit_offset);
			goto out;
		} else if (cand.poison != res->poison || cand.new_val != res->new_val) {
			err = refuse(msg, msg_size, "candidates disagree: %llu != %llu",
				     (unsigned long long)cand.new_val, (unsigned long long)res->new_val);
			goto out;
		}
		res->nr_matched++;
	}
	if (!res->nr_matched) {
		uint32_t nc = res->nr_cands;

		err = calc_values(relo, &specs[0], NULL, res, msg, msg_size);
		res->nr_cands = nc;
	}
out:
	free(specs);
	return err;
}

/* --- patching ---------------------------------------------------------------------------- */

static void poison(struct bpf_insn *insn, uint32_t nr_left)
{
	int n = insn[0].code == (BPF_LD | BPF_IMM | BPF_DW) && nr_left >= 2 ? 2 : 1, i;

	for (i = 0; i < n; i++) {
		insn[i].code = BPF_JMP | BPF_CALL;
		insn[i].dst_reg = 0;
		insn[i].src_reg = 0;
		insn[i].off = 0;
		insn[i].imm = POISON_IMM;
	}
}

static int size_bytes(uint8_t code)
{
	switch (BPF_SIZE(code)) {
	case BPF_B: return 1;
	case BPF_H: return 2;
	case BPF_W: return 4;
	case BPF_DW: return 8;
	}
	return -1;
}

static int size_code(uint32_t bytes)
{
	switch (bytes) {
	case 1: return BPF_B;
	case 2: return BPF_H;
	case 4: return BPF_W;
	case 8: return BPF_DW;
	}
	return -1;
}

int bpfrr_core_patch(void *insn_p, uint32_t nr_left, const struct bpfrr_core_relo *relo,
		     const struct bpfrr_core_res *res, char *msg, size_t msg_size)
{
	struct bpf_insn *insn = insn_p;
	uint32_t idx = relo->insn_off / 8;

	switch (BPF_CLASS(insn->code)) {
	case BPF_ALU:
	case BPF_ALU64:
		if (BPF_SRC(insn->code) != BPF_K)
			break;
		if (res->poison) {
			poison(insn, nr_left);
			return 0;
		}
		if (res->validate && (uint64_t)(int64_t)insn->imm != res->orig_val)
			return refuse(msg, msg_size, "insn %u imm %d is not the expected %llu", idx, insn->imm,
				      (unsigned long long)res->orig_val);
		insn->imm = (int32_t)res->new_val;
		return 0;
	case BPF_LDX:
	case BPF_ST:
	case BPF_STX: {
		int sz;

		if (res->poison) {
			poison(insn, nr_left);
			return 0;
		}
		if (res->validate && (uint64_t)(int64_t)insn->off != res->orig_val)
			return refuse(msg, msg_size, "insn %u off %d is not the expected %llu", idx, insn->off,
				      (unsigned long long)res->orig_val);
		if (res->new_val > SHRT_MAX)
			return refuse(msg, msg_size, "insn %u offset %llu does not fit", idx,
				      (unsigned long long)res->new_val);
		if (res->fail_memsz_adjust) {
			poison(insn, nr_left);
			return 0;
		}
		insn->off = (int16_t)res->new_val;
		if (res->new_sz == res->orig_sz)
			return 0;
		if (size_bytes(insn->code) != (int)res->orig_sz)
			return refuse(msg, msg_size, "insn %u accesses %d bytes, the field has %u", idx,
				      size_bytes(insn->code), res->orig_sz);
		sz = size_code(res->new_sz);
		if (sz < 0)
			return refuse(msg, msg_size, "insn %u: no load of %u bytes", idx, res->new_sz);
		insn->code = BPF_MODE(insn->code) | sz | BPF_CLASS(insn->code);
		return 0;
	}
	case BPF_LD: {
		uint64_t imm;

		if (insn[0].code != (BPF_LD | BPF_IMM | BPF_DW) || nr_left < 2 || insn[0].src_reg ||
		    insn[0].off || insn[1].code || insn[1].dst_reg || insn[1].src_reg || insn[1].off)
			return refuse(msg, msg_size, "insn %u is not a plain ld_imm64", idx);
		if (res->poison) {
			poison(insn, nr_left);
			return 0;
		}
		imm = (uint32_t)insn[0].imm | (uint64_t)(uint32_t)insn[1].imm << 32;
		if (res->validate && imm != res->orig_val)
			return refuse(msg, msg_size, "insn %u imm64 %llu is not the expected %llu", idx,
				      (unsigned long long)imm, (unsigned long long)res->orig_val);
		insn[0].imm = (int32_t)(uint32_t)res->new_val;
		insn[1].imm = (int32_t)(uint32_t)(res->new_val >> 32);
		return 0;
	}
	}
	return refuse(msg, msg_size, "insn %u (code 0x%x) cannot be relocated", idx, insn->code);
}

int bpfrr_core_relocate(const struct btf *local, const struct btf *target, const void *relos,
			uint32_t nr_relos, uint32_t rec_size, void *insns, uint32_t nr_insns,
			struct bpfrr_core_report *rep)
{
	struct bpf_insn *in = insns;
	uint32_t i;
	int err;

	memset(rep, 0, sizeof(*rep));
	rep->nr_relos = nr_relos;
	if (nr_relos && (rec_size < sizeof(struct bpfrr_core_relo) || rec_size % 4)) {
		snprintf(rep->msg, sizeof(rep->msg), "core_relo_rec_size %u", rec_size);
		return BPFRR_CORE_REFUSED;
	}
	/* an unsupported kind anywhere: say so before computing anything */
	for (i = 0; i < nr_relos; i++) {
		struct bpfrr_core_relo r;

		memcpy(&r, (const uint8_t *)relos + (size_t)i * rec_size, sizeof(r));
		if (!bpfrr_core_kind_supported(r.kind)) {
			const char *name = bpfrr_core_kind_name(r.kind);

			rep->bad_relo = i;
			rep->bad_kind = r.kind;
			if (name)
				snprintf(rep->msg, sizeof(rep->msg), "CO-RE kind %s", name);
			else
				snprintf(rep->msg, sizeof(rep->msg), "CO-RE kind %u", r.kind);
			return BPFRR_CORE_UNSUPPORTED;
		}
	}
	for (i = 0; i < nr_relos; i++) {
		struct bpfrr_core_relo r;
		struct bpfrr_core_res res;
		struct bpf_insn before[2];
		uint32_t at;
		char why[200];

		memcpy(&r, (const uint8_t *)relos + (size_t)i * rec_size, sizeof(r));
		rep->bad_relo = i;
		rep->bad_kind = r.kind;
		at = r.insn_off / 8;
		if (r.insn_off % 8 || at >= nr_insns) {
			snprintf(rep->msg, sizeof(rep->msg), "relo %u: insn_off %u outside the %u insns", i,
				 r.insn_off, nr_insns);
			return BPFRR_CORE_REFUSED;
		}
		err = bpfrr_core_calc(local, target, &r, &res, why, sizeof(why));
		if (!err) {
			memcpy(before, &in[at], (at + 1 < nr_insns ? 2 : 1) * sizeof(*in));
			err = bpfrr_core_patch(&in[at], nr_insns - at, &r, &res, why, sizeof(why));
		}
		if (err) {
			if (err == -ENOMEM)
				snprintf(why, sizeof(why), "out of memory");
			snprintf(rep->msg, sizeof(rep->msg), "relo %u (%s at insn %u): %s", i,
				 bpfrr_core_kind_name(r.kind), at, why);
			return err;
		}
		if (res.poison || (res.fail_memsz_adjust && BPF_CLASS(in[at].code) == BPF_JMP))
			rep->nr_poisoned++;
		if (memcmp(before, &in[at], (at + 1 < nr_insns ? 2 : 1) * sizeof(*in)))
			rep->nr_changed++;
	}
	rep->bad_relo = rep->bad_kind = 0;
	return 0;
}

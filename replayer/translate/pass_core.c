// SPDX-License-Identifier: GPL-2.0-only
/*
 * pass_core.c - CO-RE across builds (see pass_core.h).
 *
 * The instructions a trace recorded hold libbpf's CO-RE results for the
 * recording kernel: field offsets, sizes, existence answers and type ids of
 * its BTF, and poisoned calls where a relocation failed there.  Replayed
 * as they are, they read the wrong fields on a kernel whose structs differ.
 *
 * BPF_PROG_LOAD takes CO-RE records itself (core_relos, 6.12 applies them
 * in check_btf_info() before anything else looks at the instructions, also
 * from a syscall program through bpfptr_t): the kernel relocates against
 * its own BTF at load.  So for each kept PROG_LOAD whose BTF is the .BTF of
 * a captured object, this pass
 *   - maps the object's functions to the loaded program: the load's
 *     func_info (instruction index, FUNC type id) against the object's
 *     .BTF.ext func_info (section, byte offset, FUNC type id); the main
 *     program and each subprogram libbpf appended get their start;
 *   - puts back, for every .BTF.ext core_relo record of those functions,
 *     the instruction the compiler emitted (the kernel checks the value it
 *     finds against the local spec before patching, exactly as libbpf does
 *     on the object's bytes), 16 bytes for an ld_imm64;
 *   - emits the records with the loaded byte offsets as attr.core_relos.
 * The object's type ids and string offsets are the loaded BTF's: the BTF
 * the program names is the object's .BTF (fe_core_btf_matches()).
 *
 * Every restored place is checked first: the loaded instruction must be
 * the object's with only what CO-RE changes changed (imm, off, an LDX/ST/STX
 * size), or libbpf's poison.  A load whose object was not captured or does
 * not fit, and whose BTF shows CO-RE was used, replays as recorded and is
 * marked build-bound.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "btf_parse.h"
#include "bytes.h"
#include "errmsg.h"
#include "frontend_int.h"
#include "grow.h"
#include "pass_core.h"

#ifndef EM_BPF
#define EM_BPF 247
#endif

#define BTF_MAGIC_LE		0xeB9F
#define BTF_HDR_MIN		24u	/* magic, version, flags, hdr_len, type_off/len, str_off/len */
#define BTF_EXT_HDR_MIN		24u	/* up to line_info_len */
#define BTF_EXT_HDR_CORE	32u	/* with core_relo_off/len */
#define FUNC_INFO_MIN		8u
#define LINE_INFO_MIN		16u
#define CORE_RELO_MIN		16u

#define INSN_LD_IMM64		0x18	/* BPF_LD | BPF_IMM | BPF_DW */
#define INSN_CALL		0x85	/* BPF_JMP | BPF_CALL */
#define CORE_POISON_IMM		195896080	/* libbpf's 0xbad2310 */

static int bad(char *err, size_t err_size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(char *err, size_t err_size, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = bpfrr_verrmsg(err, err_size, -EINVAL, fmt, ap);
	va_end(ap);
	return ret;
}

/* [off, off + len) inside size, without overflow */
static bool in_bounds(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

/* --- raw BTF ------------------------------------------------------------------------------- */

struct btf_view {
	const uint8_t *types, *strs;
	uint32_t type_len, str_len;
};

static bool btf_view(const void *data, size_t len, struct btf_view *v)
{
	const uint8_t *p = data;
	uint32_t hdr_len, type_off, type_len, str_off, str_len;

	if (len < BTF_HDR_MIN || bpfrr_get_u16(p) != BTF_MAGIC_LE || p[2] != 1)
		return false;
	hdr_len = bpfrr_get_u32(p + 4);
	type_off = bpfrr_get_u32(p + 8);
	type_len = bpfrr_get_u32(p + 12);
	str_off = bpfrr_get_u32(p + 16);
	str_len = bpfrr_get_u32(p + 20);
	if (hdr_len < BTF_HDR_MIN || hdr_len > len || !in_bounds(type_off, type_len, len - hdr_len) ||
	    !in_bounds(str_off, str_len, len - hdr_len) || !str_len || p[hdr_len + str_off + str_len - 1])
		return false;
	v->types = p + hdr_len + type_off;
	v->type_len = type_len;
	v->strs = p + hdr_len + str_off;
	v->str_len = str_len;
	return true;
}

/* the NUL-terminated string at off of the view's string section, or NULL */
static const char *btf_str(const struct btf_view *v, uint32_t off)
{
	return off < v->str_len ? (const char *)v->strs + off : NULL;	/* the section ends in NUL */
}

/* libbpf's count of the types in raw BTF, or 0 if it does not parse */
static uint32_t btf_type_count(const void *data, size_t len)
{
	struct btf *btf = bpfrr_btf_parse(data, len);
	uint32_t n;

	if (!btf)
		return 0;
	n = btf__type_cnt(btf);
	btf__free(btf);
	return n;
}

bool fe_core_btf_matches(const struct fe_core_obj *o, const void *loaded, size_t len)
{
	struct btf_view a, b;
	uint32_t na;

	if (!o->btf || !btf_view(o->btf, o->btf_len, &a) || !btf_view(loaded, len, &b))
		return false;
	if (a.str_len != b.str_len || memcmp(a.strs, b.strs, a.str_len))
		return false;
	na = btf_type_count(o->btf, o->btf_len);
	return na && na == btf_type_count(loaded, len);
}

static bool is_access_string(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if ((*s < '0' || *s > '9') && *s != ':')
			return false;
	return true;
}

bool fe_core_btf_has_access_strings(const void *btf, size_t len)
{
	struct btf_view v;
	uint32_t off = 1;	/* 0 is the empty string */

	if (!btf_view(btf, len, &v))
		return false;
	while (off < v.str_len) {
		const char *s = (const char *)v.strs + off;

		if (is_access_string(s))
			return true;
		off += (uint32_t)strlen(s) + 1;
	}
	return false;
}

/* --- the ELF object -------------------------------------------------------------------------- */

struct elf_view {
	const uint8_t *data;
	size_t len;
	const Elf64_Shdr *sh;		/* unaligned copy-free access: read with memcpy */
	uint16_t shnum;
	const char *shstr;
	uint64_t shstr_len;
};

static void shdr(const struct elf_view *e, uint32_t i, Elf64_Shdr *s)
{
	memcpy(s, (const uint8_t *)e->sh + (size_t)i * sizeof(*s), sizeof(*s));
}

/* the bytes of section i (PROGBITS in the file), or NULL */
static const uint8_t *sec_bytes(const struct elf_view *e, uint32_t i, uint64_t *size)
{
	Elf64_Shdr s;

	shdr(e, i, &s);
	if (s.sh_type == SHT_NOBITS || !in_bounds(s.sh_offset, s.sh_size, e->len))
		return NULL;
	*size = s.sh_size;
	return e->data + s.sh_offset;
}

static const char *sec_name(const struct elf_view *e, uint32_t i)
{
	Elf64_Shdr s;

	shdr(e, i, &s);
	if (s.sh_name >= e->shstr_len || !memchr(e->shstr + s.sh_name, '\0', e->shstr_len - s.sh_name))
		return NULL;
	return e->shstr + s.sh_name;
}

/* index of the section named name, or -1 */
static int find_sec(const struct elf_view *e, const char *name)
{
	uint32_t i;

	for (i = 1; i < e->shnum; i++) {
		const char *n = sec_name(e, i);

		if (n && !strcmp(n, name))
			return (int)i;
	}
	return -1;
}

static int elf_open(const void *data, size_t len, struct elf_view *e, char *err, size_t err_size)
{
	Elf64_Ehdr eh;
	Elf64_Shdr strsh;
	uint64_t size;

	memset(e, 0, sizeof(*e));
	if (len < sizeof(eh))
		return bad(err, err_size, "%zu bytes: too short for an ELF header", len);
	memcpy(&eh, data, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG))
		return bad(err, err_size, "not an ELF file");
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return bad(err, err_size, "not a little-endian ELF64 object");
	if (eh.e_machine != EM_BPF)
		return bad(err, err_size, "e_machine %u is not EM_BPF", eh.e_machine);
	if (eh.e_shentsize != sizeof(Elf64_Shdr) || !eh.e_shnum ||
	    !in_bounds(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr), len))
		return bad(err, err_size, "section headers out of the file");
	if (eh.e_shstrndx == SHN_UNDEF || eh.e_shstrndx >= eh.e_shnum)
		return bad(err, err_size, "no section name table");
	e->data = data;
	e->len = len;
	e->sh = (const Elf64_Shdr *)(e->data + eh.e_shoff);
	e->shnum = eh.e_shnum;
	shdr(e, eh.e_shstrndx, &strsh);
	e->shstr = (const char *)sec_bytes(e, eh.e_shstrndx, &size);
	if (!e->shstr || strsh.sh_type != SHT_STRTAB)
		return bad(err, err_size, "section name table out of the file");
	e->shstr_len = size;
	return 0;
}

/* --- .BTF.ext ---------------------------------------------------------------------------- */

/* One info subsection (func_info, line_info, core_relo): u32 rec_size, then per section
 * { u32 sec_name_off, u32 num_info, num_info records }. */
struct ext_walk {
	const uint8_t *p, *end;
	uint32_t rec_size;
};

static int ext_begin(const uint8_t *base, uint32_t hdr_end_len, uint32_t off, uint32_t len, uint32_t min_rec,
		     const char *what, struct ext_walk *w, char *err, size_t err_size)
{
	memset(w, 0, sizeof(*w));
	if (!len)
		return 0;
	if (!in_bounds(off, len, hdr_end_len) || len < 4)
		return bad(err, err_size, ".BTF.ext %s out of bounds", what);
	w->p = base + off;
	w->end = w->p + len;
	w->rec_size = bpfrr_get_u32(w->p);
	w->p += 4;
	if (w->rec_size < min_rec || w->rec_size % 4 || w->rec_size > 256)
		return bad(err, err_size, ".BTF.ext %s record size %u", what, w->rec_size);
	return 0;
}

/* next section of the subsection: 1 with its records, 0 at the end, -EINVAL */
static int ext_next(struct ext_walk *w, uint32_t *name_off, uint32_t *num, const uint8_t **recs, const char *what,
		    char *err, size_t err_size)
{
	uint64_t bytes;

	if (!w->p || w->p == w->end)
		return 0;
	if (w->end - w->p < 8)
		return bad(err, err_size, ".BTF.ext %s: a section header cut short", what);
	*name_off = bpfrr_get_u32(w->p);
	*num = bpfrr_get_u32(w->p + 4);
	bytes = (uint64_t)*num * w->rec_size;
	if (bytes > (uint64_t)(w->end - w->p - 8))
		return bad(err, err_size, ".BTF.ext %s: %u records beyond its end", what, *num);
	*recs = w->p + 8;
	w->p += 8 + bytes;
	return 1;
}

/* index into o->secs of the program section named name (added if new), or -errno */
static int prog_sec(struct fe_core_obj *o, uint32_t *cap, const struct elf_view *e, const char *name, char *err,
		    size_t err_size)
{
	uint64_t size;
	const uint8_t *bytes;
	int idx;
	uint32_t i;

	for (i = 0; i < o->nr_secs; i++)
		if (!strcmp(o->secs[i].name, name))
			return (int)i;
	idx = find_sec(e, name);
	if (idx < 0)
		return bad(err, err_size, ".BTF.ext names section '%.64s', which the object lacks", name);
	bytes = sec_bytes(e, (uint32_t)idx, &size);
	if (!bytes || size % 8 || size > UINT32_MAX)
		return bad(err, err_size, "section '%.64s' is not instructions in the file", name);
	if (bpfrr_grow((void **)&o->secs, cap, o->nr_secs + 1, sizeof(*o->secs)))
		return -ENOMEM;
	o->secs[o->nr_secs] = (struct fe_core_sec){ name, bytes, (uint32_t)size };
	return (int)o->nr_secs++;
}

static int cmp_func(const void *a, const void *b)
{
	const struct fe_core_func *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int parse_ext(struct fe_core_obj *o, const struct elf_view *e, const uint8_t *ext, uint64_t ext_len,
		     char *err, size_t err_size)
{
	struct btf_view bv;
	struct ext_walk w;
	uint32_t hdr_len, rest, cap_secs = 0, cap_funcs = 0, cap_relos = 0, name_off, num, i;
	const uint8_t *recs, *base;
	const char *name;
	int ret, sec;

	if (!btf_view(o->btf, o->btf_len, &bv))
		return bad(err, err_size, ".BTF is not valid BTF");
	if (ext_len < BTF_EXT_HDR_MIN || bpfrr_get_u16(ext) != BTF_MAGIC_LE || ext[2] != 1)
		return bad(err, err_size, ".BTF.ext has no valid header");
	hdr_len = bpfrr_get_u32(ext + 4);
	if (hdr_len < BTF_EXT_HDR_MIN || hdr_len > ext_len)
		return bad(err, err_size, ".BTF.ext header length %u", hdr_len);
	base = ext + hdr_len;
	rest = (uint32_t)(ext_len - hdr_len);

	/* func_info */
	if ((ret = ext_begin(base, rest, bpfrr_get_u32(ext + 8), bpfrr_get_u32(ext + 12), FUNC_INFO_MIN, "func_info", &w, err,
			     err_size)))
		return ret;
	while ((ret = ext_next(&w, &name_off, &num, &recs, "func_info", err, err_size)) == 1) {
		if (!(name = btf_str(&bv, name_off)))
			return bad(err, err_size, ".BTF.ext func_info: section name offset %u", name_off);
		if ((sec = prog_sec(o, &cap_secs, e, name, err, err_size)) < 0)
			return sec;
		for (i = 0; i < num; i++, recs += w.rec_size) {
			uint32_t off = bpfrr_get_u32(recs);

			if (off % 8 || off >= o->secs[sec].size)
				return bad(err, err_size, ".BTF.ext func_info: offset %u in '%.64s' (%u bytes)", off,
					   name, o->secs[sec].size);
			if (bpfrr_grow((void **)&o->funcs, &cap_funcs, o->nr_funcs + 1, sizeof(*o->funcs)))
				return -ENOMEM;
			o->funcs[o->nr_funcs++] = (struct fe_core_func){ (uint32_t)sec, off, 0, bpfrr_get_u32(recs + 4) };
		}
	}
	if (ret)
		return ret;

	/* line_info: only checked */
	if ((ret = ext_begin(base, rest, bpfrr_get_u32(ext + 16), bpfrr_get_u32(ext + 20), LINE_INFO_MIN, "line_info", &w, err,
			     err_size)))
		return ret;
	while ((ret = ext_next(&w, &name_off, &num, &recs, "line_info", err, err_size)) == 1)
		if (!btf_str(&bv, name_off))
			return bad(err, err_size, ".BTF.ext line_info: section name offset %u", name_off);
	if (ret)
		return ret;

	/* core_relo, in headers long enough to have it */
	if (hdr_len >= BTF_EXT_HDR_CORE) {
		if ((ret = ext_begin(base, rest, bpfrr_get_u32(ext + 24), bpfrr_get_u32(ext + 28), CORE_RELO_MIN, "core_relo", &w, err,
				     err_size)))
			return ret;
		while ((ret = ext_next(&w, &name_off, &num, &recs, "core_relo", err, err_size)) == 1) {
			if (!(name = btf_str(&bv, name_off)))
				return bad(err, err_size, ".BTF.ext core_relo: section name offset %u", name_off);
			if ((sec = prog_sec(o, &cap_secs, e, name, err, err_size)) < 0)
				return sec;
			for (i = 0; i < num; i++, recs += w.rec_size) {
				struct fe_core_relo r = { (uint32_t)sec, bpfrr_get_u32(recs), bpfrr_get_u32(recs + 4), bpfrr_get_u32(recs + 8),
							  bpfrr_get_u32(recs + 12) };
				uint32_t need = 8;

				if (r.insn_off % 8 || r.insn_off >= o->secs[sec].size)
					return bad(err, err_size, ".BTF.ext core_relo: offset %u in '%.64s' (%u bytes)",
						   r.insn_off, name, o->secs[sec].size);
				if (o->secs[sec].insns[r.insn_off] == INSN_LD_IMM64)
					need = 16;
				if (o->secs[sec].size - r.insn_off < need)
					return bad(err, err_size, ".BTF.ext core_relo: ld_imm64 at the end of '%.64s'",
						   name);
				if (!btf_str(&bv, r.access_str_off))
					return bad(err, err_size, ".BTF.ext core_relo: access string offset %u",
						   r.access_str_off);
				if (bpfrr_grow((void **)&o->relos, &cap_relos, o->nr_relos + 1, sizeof(*o->relos)))
					return -ENOMEM;
				o->relos[o->nr_relos++] = r;
			}
		}
		if (ret)
			return ret;
	}

	/* each function ends where the next of its section starts */
	qsort(o->funcs, o->nr_funcs, sizeof(*o->funcs), cmp_func);
	for (i = 0; i < o->nr_funcs; i++) {
		struct fe_core_func *f = &o->funcs[i];

		if (i + 1 < o->nr_funcs && o->funcs[i + 1].sec == f->sec) {
			if (o->funcs[i + 1].off == f->off)
				return bad(err, err_size, ".BTF.ext func_info: two functions at %u of '%.64s'", f->off,
					   o->secs[f->sec].name);
			f->end = o->funcs[i + 1].off;
		} else {
			f->end = o->secs[f->sec].size;
		}
	}
	return 0;
}

int fe_core_parse(const void *data, size_t len, struct fe_core_obj *o, char *err, size_t err_size)
{
	struct elf_view e;
	const uint8_t *ext;
	uint64_t size, ext_len;
	int idx, ret;

	memset(o, 0, sizeof(*o));
	if ((ret = elf_open(data, len, &e, err, err_size)))
		return ret;
	idx = find_sec(&e, ".BTF");
	if (idx < 0)
		return bad(err, err_size, "no .BTF section");
	o->btf = sec_bytes(&e, (uint32_t)idx, &size);
	if (!o->btf || size > UINT32_MAX)
		return bad(err, err_size, ".BTF out of the file");
	o->btf_len = (uint32_t)size;
	idx = find_sec(&e, ".BTF.ext");
	if (idx < 0)
		return 0;
	ext = sec_bytes(&e, (uint32_t)idx, &ext_len);
	if (!ext)
		ret = bad(err, err_size, ".BTF.ext out of the file");
	else
		ret = parse_ext(o, &e, ext, ext_len, err, err_size);
	if (ret)
		fe_core_obj_free(o);
	return ret;
}

void fe_core_obj_free(struct fe_core_obj *o)
{
	free(o->secs);
	free(o->funcs);
	free(o->relos);
	memset(o, 0, sizeof(*o));
}

void fe_core_free(struct fe_trace *t)
{
	uint32_t i;

	for (i = 0; i < t->nr_elfs; i++) {
		if (t->elfs[i].obj)
			fe_core_obj_free(t->elfs[i].obj);
		free(t->elfs[i].obj);
	}
	free(t->elfs);
	t->elfs = NULL;
	t->nr_elfs = 0;
}

/* --- the pass ----------------------------------------------------------------------------------- */

/* the parsed object of captured ELF i, or NULL (not parsable) */
static struct fe_core_obj *elf_obj(struct fe_trace *t, uint32_t i, int *nomem)
{
	struct fe_elf *el = &t->elfs[i];
	const struct bpfrr_rec_blob *b;
	char why[160];
	int ret;

	if (el->tried)
		return el->obj;
	el->tried = true;
	b = bpfrr_trace_blob(t->r, el->rec.blob);
	if (!b || !b->data)
		return NULL;
	el->obj = calloc(1, sizeof(*el->obj));
	if (!el->obj) {
		*nomem = 1;
		return NULL;
	}
	ret = fe_core_parse(b->data, b->len, el->obj, why, sizeof(why));
	if (ret) {
		*nomem = ret == -ENOMEM;
		free(el->obj);
		el->obj = NULL;
	}
	return el->obj;
}

/* The BTF bytes the BTF_LOAD that made the program's BTF passed, or NULL. */
static const void *prog_btf(const struct fe_trace *t, const struct fe_call *c, uint32_t *len)
{
	const struct fe_ref *r = fe_ref_at(c, "attr.prog_btf_fd");
	const struct bpfrr_field *fb = bpfrr_abi_cmd_field(BPFRR_CMD_BTF_LOAD, "btf");
	const struct bpfrr_field *fs = bpfrr_abi_cmd_field(BPFRR_CMD_BTF_LOAD, "btf_size");
	struct fe_obj *o = r ? fe_canon(r->obj) : NULL;
	const struct fe_call *mk = o ? o->creator : NULL;
	uint64_t addr, size;

	if (!mk || !mk->is_bpf || mk->cmd != BPFRR_CMD_BTF_LOAD || !fb || !fs)
		return NULL;
	addr = bpfrr_abi_field_get(fb, mk->attr, mk->attr_len);
	size = bpfrr_abi_field_get(fs, mk->attr, mk->attr_len);
	if (!addr || !size || size > BPFRR_IR_MAX_BUF)
		return NULL;
	*len = (uint32_t)size;
	return fe_mem(t, mk, BPFRR_PHASE_ENTRY, addr, size);
}

static uint32_t attr_u32(const struct bpfrr_ir_call *ic, const char *name, const struct bpfrr_field **f)
{
	*f = bpfrr_abi_cmd_field(BPFRR_CMD_PROG_LOAD, name);
	return *f ? (uint32_t)bpfrr_abi_field_get(*f, ic->attr, ic->attr_size) : 0;
}

/* The IR buffer of call ic at path, or NULL. */
static struct bpfrr_ir_buf *ir_buf(struct bpfrr_ir_call *ic, const char *path)
{
	uint32_t i;

	for (i = 0; i < ic->nr_bufs; i++)
		if (ic->bufs[i].path && !strcmp(ic->bufs[i].path, path))
			return &ic->bufs[i];
	return NULL;
}

/*
 * Is `loaded` what CO-RE could have made of the compiler's `orig`?  CO-RE
 * changes imm, off, the size of a memory access, or poisons the
 * instruction (an ld_imm64 both halves); never the registers or the
 * operation.
 */
static bool core_changed_only(const uint8_t *loaded, const uint8_t *orig, bool ldimm)
{
	uint8_t cls = orig[0] & 0x07;

	if (loaded[0] == INSN_CALL && !loaded[1] && (int32_t)bpfrr_get_u32(loaded + 4) == CORE_POISON_IMM)
		return !ldimm || (loaded[8] == INSN_CALL && (int32_t)bpfrr_get_u32(loaded + 12) == CORE_POISON_IMM);
	if (loaded[1] != orig[1])	/* dst_reg, src_reg */
		return false;
	if (ldimm)
		return loaded[0] == INSN_LD_IMM64 && loaded[8] == orig[8] && loaded[9] == orig[9];
	if (loaded[0] == orig[0])
		return true;
	/* BPF_LDX/ST/STX with mode MEM: the size may change */
	return (cls == 0x01 || cls == 0x02 || cls == 0x03) && (orig[0] & 0xe0) == 0x60 &&
	       (loaded[0] & ~0x18) == (orig[0] & ~0x18);
}

struct core_apply {
	const struct fe_core_obj *o;
	const uint8_t *func_info;	/* the load's func_info records */
	uint32_t nr_funcs, func_rec;
	uint8_t *insns;			/* the call's instructions (IR buffer: restored in place) */
	uint32_t nr_insns;
	uint8_t *relos;			/* out: bpf_core_relo records */
	uint32_t nr_relos, cap_relos;
	char why[160];
};

/* loaded instruction index where func k of the load ends */
static uint32_t loaded_func_end(const struct core_apply *a, uint32_t k)
{
	uint32_t start = bpfrr_get_u32(a->func_info + (size_t)k * a->func_rec), end = a->nr_insns, j;

	for (j = 0; j < a->nr_funcs; j++) {
		uint32_t s = bpfrr_get_u32(a->func_info + (size_t)j * a->func_rec);

		if (s > start && s < end)
			end = s;
	}
	return end;
}

/*
 * Maps, checks and restores; 0 with the records in a->relos, -EINVAL with
 * a->why (nothing restored: the checks run first), -ENOMEM.
 */
static int core_apply(struct core_apply *a, bool restore)
{
	const struct fe_core_obj *o = a->o;
	uint32_t k, i, f;

	for (k = 0; k < a->nr_funcs; k++) {
		const uint8_t *fi = a->func_info + (size_t)k * a->func_rec;
		uint32_t start = bpfrr_get_u32(fi), type_id = bpfrr_get_u32(fi + 4), end;
		const struct fe_core_func *fn = NULL;

		for (f = 0; f < o->nr_funcs && !fn; f++)
			if (o->funcs[f].type_id == type_id)
				fn = &o->funcs[f];
		if (!fn)
			continue;	/* not the object's (no CO-RE records of it either) */
		end = loaded_func_end(a, k);
		if (start >= end || (uint64_t)(end - start) * 8 != fn->end - fn->off) {
			snprintf(a->why, sizeof(a->why), "function [%u] has %u instructions loaded, %u in '%.40s'",
				 type_id, end > start ? end - start : 0, (fn->end - fn->off) / 8,
				 o->secs[fn->sec].name);
			return -EINVAL;
		}
		for (i = 0; i < o->nr_relos; i++) {
			const struct fe_core_relo *r = &o->relos[i];
			const uint8_t *orig;
			uint32_t at, len;
			uint8_t rec[FE_CORE_RELO_SIZE];

			if (r->sec != fn->sec || r->insn_off < fn->off || r->insn_off >= fn->end)
				continue;
			orig = o->secs[r->sec].insns + r->insn_off;
			len = orig[0] == INSN_LD_IMM64 ? 16 : 8;
			at = start * 8 + (r->insn_off - fn->off);
			if (r->insn_off + len > fn->end) {
				snprintf(a->why, sizeof(a->why), "an ld_imm64 across the end of function [%u]", type_id);
				return -EINVAL;
			}
			if (!restore) {
				if (!core_changed_only(a->insns + at, orig, len == 16)) {
					snprintf(a->why, sizeof(a->why),
						 "loaded instruction %u is not the object's instruction at %u of '%.40s'",
						 at / 8, r->insn_off / 8, o->secs[r->sec].name);
					return -EINVAL;
				}
				continue;
			}
			memcpy(a->insns + at, orig, len);
			memcpy(rec, &at, 4);
			memcpy(rec + 4, &r->type_id, 4);
			memcpy(rec + 8, &r->access_str_off, 4);
			memcpy(rec + 12, &r->kind, 4);
			if (bpfrr_grow((void **)&a->relos, &a->cap_relos, (a->nr_relos + 1) * FE_CORE_RELO_SIZE, 1))
				return -ENOMEM;
			memcpy(a->relos + (size_t)a->nr_relos * FE_CORE_RELO_SIZE, rec, FE_CORE_RELO_SIZE);
			a->nr_relos++;
		}
	}
	return 0;
}

/* "/opt/x/fx_core.bpf.o" or "/opt/x/fx_core (embedded at 0x2040)" */
static void elf_desc(const struct fe_elf *el, char *buf, size_t size)
{
	if (el->rec.flags & BPFRR_ELF_F_EMBEDDED)
		snprintf(buf, size, "%.150s (embedded at 0x%" PRIx64 ")", el->rec.path, el->rec.offset);
	else
		snprintf(buf, size, "%.150s", el->rec.path);
}

static int note(struct fe_call *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int note(struct fe_call *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	free(c->core_note);
	c->core_note = NULL;
	va_start(ap, fmt);
	n = vasprintf(&c->core_note, fmt, ap);
	va_end(ap);
	if (n < 0) {
		c->core_note = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* The load stays as recorded: it runs right only on the recording build. */
static int build_bound(struct bpfrr_ir *ir, uint32_t call, struct fe_call *c, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int build_bound(struct bpfrr_ir *ir, uint32_t call, struct fe_call *c, const char *fmt, ...)
{
	char why[BPFRR_IR_MAX_NAME];	/* the IR keeps reasons shorter than that */
	va_list ap;
	int ret;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	ret = bpfrr_ir_set_build_bound(ir, call, why);
	if (ret)
		return ret;
	return note(c, "%s", why);
}

/* Makes the attr at least end bytes long (zero-filled: the kernel takes a longer attr whose tail is 0). */
static int grow_attr(struct bpfrr_ir_call *ic, uint32_t end)
{
	uint8_t *a;

	if (end <= ic->attr_size)
		return 0;
	if (end > BPFRR_IR_MAX_ATTR || !(a = realloc(ic->attr, end)))
		return -ENOMEM;
	memset(a + ic->attr_size, 0, end - ic->attr_size);
	ic->attr = a;
	ic->attr_size = end;
	return 0;
}

int fe_pass_core(struct fe_trace *t, struct fe_call *c, struct bpfrr_ir *ir, uint32_t call)
{
	struct bpfrr_ir_call *ic = &ir->calls[call];
	const struct bpfrr_field *f_cnt, *f_rec, *f_ptr, *f_fcnt, *f_frec;
	const struct bpfrr_ir_buf *fib;
	struct bpfrr_ir_buf *ib;
	struct core_apply a = { 0 };
	const struct fe_elf *found = NULL;
	const char *prog;
	char desc[200], mismatch[200] = "";
	const void *btf;
	uint32_t btf_len = 0, i;
	int nomem = 0, ret;

	if (!c->is_bpf || c->cmd != BPFRR_CMD_PROG_LOAD || !t->hdr ||
	    (t->hdr->version_major == 1 && t->hdr->version_minor < 1))
		return 0;	/* a 1.0 trace has no objects: replayed as recorded, as before */
	prog = ic->result_slot >= 0 && ir->slots[ic->result_slot].name ? ir->slots[ic->result_slot].name :
	       "the program";
	if (attr_u32(ic, "core_relo_cnt", &f_cnt) || ir_buf(ic, "attr.core_relos"))
		return note(c, "CO-RE: relocated by the kernel at load (its core_relos as recorded)");
	btf = prog_btf(t, c, &btf_len);
	if (!btf)
		return 0;	/* no BTF, no CO-RE records the kernel could take */

	for (i = 0; i < t->nr_elfs && !found; i++) {
		struct fe_core_obj *o = elf_obj(t, i, &nomem);

		if (nomem)
			return -ENOMEM;
		if (o && fe_core_btf_matches(o, btf, btf_len))
			found = &t->elfs[i];
	}
	if (!found) {
		if (!fe_core_btf_has_access_strings(btf, btf_len))
			return 0;	/* no sign of CO-RE: nothing build-specific here */
		return build_bound(ir, call, c, "CO-RE: the BPF object of %s was not captured; its field offsets "
				   "are the recording kernel's", prog);
	}
	elf_desc(found, desc, sizeof(desc));
	a.o = found->obj;
	if (!a.o->nr_relos)
		return 0;	/* the object uses no CO-RE */

	fib = ir_buf(ic, "attr.func_info");
	ib = ir_buf(ic, "attr.insns");
	a.nr_funcs = attr_u32(ic, "func_info_cnt", &f_fcnt);
	a.func_rec = attr_u32(ic, "func_info_rec_size", &f_frec);
	if (!ib || !ib->data || ib->len % 8) {
		snprintf(mismatch, sizeof(mismatch), "its instructions were not recorded");
	} else if (!fib || !fib->data || a.func_rec < 8 || (uint64_t)a.nr_funcs * a.func_rec > fib->len) {
		snprintf(mismatch, sizeof(mismatch), "the load has no func_info to place the object's functions");
	} else {
		a.func_info = fib->data;
		a.insns = ib->data;
		a.nr_insns = ib->len / 8;
		ret = core_apply(&a, false);
		if (!ret)
			ret = core_apply(&a, true);
		if (ret == -ENOMEM) {
			free(a.relos);
			return ret;
		}
		if (ret)
			snprintf(mismatch, sizeof(mismatch), "%s", a.why);
	}
	if (mismatch[0]) {
		free(a.relos);
		return build_bound(ir, call, c, "CO-RE: the captured object %s does not fit %s (%s); its field "
				   "offsets are the recording kernel's", desc, prog, mismatch);
	}
	if (!a.nr_relos) {
		free(a.relos);
		return 0;	/* none of its CO-RE records is in this program */
	}

	f_rec = bpfrr_abi_cmd_field(BPFRR_CMD_PROG_LOAD, "core_relo_rec_size");
	f_ptr = bpfrr_abi_cmd_field(BPFRR_CMD_PROG_LOAD, "core_relos");
	if (!f_cnt || !f_rec || !f_ptr || f_ptr->size != 8) {
		free(a.relos);
		return -ENOMEM;	/* cannot happen: the ABI table has them */
	}
	if ((ret = grow_attr(ic, f_cnt->offset + 4u)) || (ret = grow_attr(ic, f_rec->offset + 4u)) ||
	    (ret = grow_attr(ic, f_ptr->offset + 8u))) {
		free(a.relos);
		return ret;
	}
	memcpy(ic->attr + f_cnt->offset, &a.nr_relos, 4);
	memcpy(ic->attr + f_rec->offset, &(uint32_t){ FE_CORE_RELO_SIZE }, 4);
	memset(ic->attr + f_ptr->offset, 0, 8);	/* the replayer writes the buffer's address */
	ret = bpfrr_ir_add_buf(ir, call, BPFRR_IR_IN_ATTR, f_ptr->offset, "attr.core_relos", a.relos,
			       a.nr_relos * FE_CORE_RELO_SIZE, BPFRR_DIR_IN, BPFRR_CONTENT_CORE_RELOS);
	free(a.relos);
	if (ret < 0)
		return ret;
	return note(c, "CO-RE: %u relocation%s from %s re-done by the target kernel", a.nr_relos,
		    a.nr_relos == 1 ? "" : "s", desc);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * out_elf.c - `bpfrr translate --format elf` (see out_elf.h).
 *
 * The object is written by hand (it has eight fixed sections); the layout
 * follows what clang emits for a C program with one SEC("syscall")
 * function, one initialised global array and an extern __ksym kfunc, which
 * is what libbpf (1.1 and later) knows how to load.
 */
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/perf_event.h>

#include "bpf_abi.h"
#include "caps.h"
#include "codegen.h"
#include "errmsg.h"
#include "frame.h"
#include "out_elf.h"
#include "outfile.h"
#include "plan.h"

#ifndef EM_BPF
#define EM_BPF 247
#endif
#ifndef R_BPF_64_64
#define R_BPF_64_64 1		/* ld_imm64 against a symbol */
#endif
#ifndef R_BPF_64_32
#define R_BPF_64_32 10		/* call against a symbol */
#endif

#define BTF_EXT_MAGIC	0xeB9F

/* --- string tables (in frame.h's byte buffers; numbers little-endian, as the object) --- */

/* A string table: returns the offset of s (added once; "" is offset 0). */
static uint32_t str_add(struct bpfrr_buf *t, const char *s)
{
	size_t n = strlen(s) + 1, off;

	if (!t->len)
		bpfrr_buf_put(t, "", 1);
	if (!*s)
		return 0;
	for (off = 1; off + n <= t->len; off++)
		if (!memcmp(t->p + off, s, n) && t->p[off - 1] == '\0')
			return off;
	off = t->len;
	bpfrr_buf_put(t, s, n);
	return off;
}

/* --- BTF --------------------------------------------------------------------------- */

struct btf_out {
	struct bpfrr_buf types, strs;
	uint32_t nr;		/* types so far (ids start at 1) */
};

static uint32_t btf_type(struct btf_out *bo, const char *name, uint32_t kind, uint32_t vlen,
			 uint32_t size_or_type)
{
	struct btf_type t = {
		.name_off = name ? str_add(&bo->strs, name) : 0,
		.info = kind << 24 | vlen,
		.size = size_or_type,
	};

	bpfrr_buf_put(&bo->types, &t, sizeof(t));
	return ++bo->nr;
}

static uint32_t btf_int(struct btf_out *bo, const char *name, uint32_t size, uint32_t encoding)
{
	uint32_t id = btf_type(bo, name, BTF_KIND_INT, 0, size);

	bpfrr_buf_put_u32(&bo->types, encoding << 24 | size * 8);
	return id;
}

static void btf_member(struct btf_out *bo, const char *name, uint32_t type)
{
	struct btf_param p = { .name_off = name ? str_add(&bo->strs, name) : 0, .type = type };

	bpfrr_buf_put(&bo->types, &p, sizeof(p));
}

static void btf_secinfo(struct btf_out *bo, uint32_t type, uint32_t offset, uint32_t size)
{
	struct btf_var_secinfo v = { .type = type, .offset = offset, .size = size };

	bpfrr_buf_put(&bo->types, &v, sizeof(v));
}

struct btf_ids {
	uint32_t prog_func;	/* the loader's FUNC */
};

/*
 * The object's BTF.  libbpf needs it for the kfunc extern (an extern FUNC
 * in a ".ksyms" DATASEC, its FUNC_PROTO compatible with the kernel's:
 * int bpf_perf_event_open(const struct perf_event_attr *, u32, int, int, u64))
 * and gives the blob map the DATASEC as its value type.
 */
static void build_btf(struct btf_out *bo, const char *prog_name, uint32_t blob_size, bool kfunc,
		      struct btf_ids *ids)
{
	uint32_t t_int, t_u8, t_arr, t_var, t_ptr, t_proto;

	str_add(&bo->strs, "");
	t_int = btf_int(bo, "int", 4, BTF_INT_SIGNED);
	t_u8 = btf_int(bo, "unsigned char", 1, 0);
	t_arr = btf_type(bo, NULL, BTF_KIND_ARRAY, 0, 0);
	{
		struct btf_array a = { .type = t_u8, .index_type = t_int, .nelems = blob_size };

		bpfrr_buf_put(&bo->types, &a, sizeof(a));
	}
	t_var = btf_type(bo, BPFRR_ELF_BLOB_SYM, BTF_KIND_VAR, 0, t_arr);
	bpfrr_buf_put_u32(&bo->types, BTF_VAR_GLOBAL_ALLOCATED);
	btf_type(bo, BPFRR_ELF_BLOB_SEC, BTF_KIND_DATASEC, 1, blob_size);
	btf_secinfo(bo, t_var, 0, blob_size);

	/* int NAME(void *ctx) */
	t_ptr = btf_type(bo, NULL, BTF_KIND_PTR, 0, 0);
	t_proto = btf_type(bo, NULL, BTF_KIND_FUNC_PROTO, 1, t_int);
	btf_member(bo, "ctx", t_ptr);
	ids->prog_func = btf_type(bo, prog_name, BTF_KIND_FUNC, BTF_FUNC_GLOBAL, t_proto);

	if (kfunc) {
		uint32_t t_attr, t_const, t_attr_ptr, t_u32, t_u64, t_kproto, t_kfunc;

		t_attr = btf_type(bo, "perf_event_attr", BTF_KIND_STRUCT, 0, sizeof(struct perf_event_attr));
		t_const = btf_type(bo, NULL, BTF_KIND_CONST, 0, t_attr);
		t_attr_ptr = btf_type(bo, NULL, BTF_KIND_PTR, 0, t_const);
		t_u32 = btf_int(bo, "unsigned int", 4, 0);
		t_u64 = btf_int(bo, "unsigned long long", 8, 0);
		t_kproto = btf_type(bo, NULL, BTF_KIND_FUNC_PROTO, 5, t_int);
		btf_member(bo, "attr", t_attr_ptr);
		btf_member(bo, "attr__sz", t_u32);
		btf_member(bo, "pid", t_int);
		btf_member(bo, "cpu", t_int);
		btf_member(bo, "flags", t_u64);
		t_kfunc = btf_type(bo, BPFRR_ELF_KFUNC, BTF_KIND_FUNC, BTF_FUNC_EXTERN, t_kproto);
		btf_type(bo, ".ksyms", BTF_KIND_DATASEC, 1, 0);
		btf_secinfo(bo, t_kfunc, 0, 0);
	}
}

static void put_btf(struct bpfrr_buf *out, const struct btf_out *bo)
{
	struct btf_header h = {
		.magic = BTF_MAGIC,
		.version = BTF_VERSION,
		.hdr_len = sizeof(h),
		.type_off = 0,
		.type_len = bo->types.len,
		.str_off = bo->types.len,
		.str_len = bo->strs.len,
	};

	bpfrr_buf_put(out, &h, sizeof(h));
	bpfrr_buf_put(out, bo->types.p, bo->types.len);
	bpfrr_buf_put(out, bo->strs.p, bo->strs.len);
}

/* .BTF.ext: one func_info record for the loader, no line info, no CO-RE relocations. */
static void put_btf_ext(struct bpfrr_buf *out, struct btf_out *bo, uint32_t prog_func)
{
	struct {
		uint16_t magic;
		uint8_t version, flags;
		uint32_t hdr_len;
		uint32_t func_info_off, func_info_len;
		uint32_t line_info_off, line_info_len;
		uint32_t core_relo_off, core_relo_len;
	} h = { .magic = BTF_EXT_MAGIC, .version = 1, .hdr_len = sizeof(h) };
	uint32_t sec_name = str_add(&bo->strs, BPFRR_ELF_PROG_SEC);

	/* record size; section header (name, count); the record (insn byte offset, FUNC id) */
	h.func_info_len = 4 + 8 + 8;
	h.line_info_off = h.core_relo_off = h.func_info_len;
	bpfrr_buf_put(out, &h, sizeof(h));
	bpfrr_buf_put_u32(out, 8);
	bpfrr_buf_put_u32(out, sec_name);
	bpfrr_buf_put_u32(out, 1);
	bpfrr_buf_put_u32(out, 0);
	bpfrr_buf_put_u32(out, prog_func);
}

/* --- the plan: one loader run, everything in it --------------------------------- */

/*
 * The first reason, in recorded order, the IR cannot become one loader
 * program that needs nothing from user space.
 */
static int check_plan(const struct bpfrr_ir *ir, const struct bpfrr_plan *plan, const char *caps_name,
		      char *err, size_t err_size)
{
	uint32_t i;

	for (i = 0; i < ir->nr_slots; i++) {
		const struct bpfrr_ir_slot *s = &ir->slots[i];

		/*
		 * A directory the recorded loader made on a bpffs (MKDIR) is no fd
		 * any call uses: a loader program cannot make it, so it must exist
		 * when the object runs (a pin into it fails with ENOENT otherwise,
		 * the report naming its seq), as docs/translator.md says.
		 */
		if (s->source == BPFRR_IR_SLOT_MKDIR && s->nr_path_subs)
			return bpfrr_errmsg(err, err_size, -EOPNOTSUPP,
					"slot %u is the directory %s, whose name carries numbers of the "
					"recording's kernel that bpfrr replay renames after the calls; "
					"the elf format cannot carry that", i, s->path ? s->path : "?");
		if (s->source == BPFRR_IR_SLOT_PATH)
			return bpfrr_errmsg(err, err_size, -EOPNOTSUPP,
					"slot %u (%s) is %s, which the replayer opens at replay time; "
					"a loader program cannot open it, so the elf format cannot carry it",
					i, s->name ? s->name : "?", s->path ? s->path : "a path");
	}
	for (i = 0; i < ir->nr_calls; i++) {
		const struct bpfrr_ir_call *c = &ir->calls[i];
		char name[64];

		bpfrr_ir_call_name(c, name, sizeof(name));
		if (c->nr_resolves) {
			const struct bpfrr_ir_resolve *rs = &c->resolves[0];
			char where[BPFRR_IR_MAX_NAME + 16], desc[BPFRR_IR_MAX_NAME + 64];

			/* a BTF id or kernel address: there is no runner to look it up at load time */
			if (rs->kind == BPFRR_IR_RESOLVE_BTF_ID || rs->kind == BPFRR_IR_RESOLVE_KSYM_ADDR)
				return bpfrr_errmsg(err, err_size, -EOPNOTSUPP,
						"seq %llu %s: %s holds the %s of %s, which bpfrr looks up on "
						"the replaying kernel; a libbpf tool loading an object does not, "
						"so the elf format cannot carry it",
						(unsigned long long)c->seq, name,
						bpfrr_ir_resolve_where(c, rs, where, sizeof(where)),
						bpfrr_ir_resolve_kind_name(rs->kind),
						bpfrr_ir_resolve_desc(rs, desc, sizeof(desc)));
			return bpfrr_errmsg(err, err_size, -EOPNOTSUPP,
					"seq %llu %s: its attr holds the %s of %s, which bpfrr looks up on "
					"the replaying kernel; a libbpf tool loading an object does not, so "
					"the elf format cannot carry it",
					(unsigned long long)c->seq, name, bpfrr_ir_resolve_kind_name(rs->kind), rs->name);
		}
		if (plan->side[i] != BPFRR_SIDE_KERNEL) {
			/* the patched kernel lifts command refusals, but runs no syscall program from another */
			bool stock = (!strcmp(caps_name, "stock-6.12") || !strcmp(caps_name, "none")) &&
				     !ir->calls[i].nr_outfds;

			return bpfrr_errmsg(err, err_size, -EOPNOTSUPP,
					"seq %llu %s: %s (%s); the elf format needs every call in the "
					"loader%s", (unsigned long long)c->seq, name,
					plan->why_user[i] ? plan->why_user[i] : "a user-space step",
					caps_name, stock ? ": try --assume-caps patched-6.12" : "");
		}
	}
	if (plan->nr_segs != 1)
		return bpfrr_errmsg(err, err_size, -EOPNOTSUPP,
				"%u calls make %u loader runs (at most %u calls each); an object holds one",
				ir->nr_calls, plan->nr_segs, BPFRR_PLAN_MAX_SEG_CALLS);
	return 0;
}

/* A buffer the loader leaves in the user image: the first, as a reason. */
static int check_user_image(const struct bpfrr_ir *ir, const struct bpfrr_loader *l, const char *caps_name,
			    char *err, size_t err_size)
{
	uint32_t i, j;

	if (!l->user_size)
		return 0;
	for (i = 0; i < l->nr_calls; i++) {
		const struct bpfrr_ir_call *c = &ir->calls[l->calls[i].call];
		char name[64];

		for (j = 0; j < c->nr_bufs; j++) {
			if (l->calls[i].buf_area[j] != BPFRR_AREA_USER)
				continue;
			return bpfrr_errmsg(err, err_size, -EOPNOTSUPP,
					"seq %llu %s: the kernel reads %s (%u bytes) at a user address "
					"(%s); a loader run by a libbpf tool has no user memory to put it "
					"in, so the elf format cannot carry it",
					(unsigned long long)c->seq, bpfrr_ir_call_name(c, name, sizeof(name)),
					c->bufs[j].path, c->bufs[j].len, caps_name);
		}
	}
	return bpfrr_errmsg(err, err_size, -EOPNOTSUPP, "the loader needs a %u-byte user image", l->user_size);
}

/* --- --pin: BPF_OBJ_PIN calls appended for the objects alive at the replay point --- */

/*
 * What `bpfrr replay --pin DIR` does after a replay, as calls of the loader:
 * each KEEP map, program and link pinned as DIR/NAME (bpfrr_slot_pin_name()),
 * in slot order, after every recorded call.  They get seqs after the
 * recording's last call, so a failing one is named in the loader's report.
 */
static int add_pins(struct bpfrr_ir *ir, const char *dir, uint32_t *nr_pins, char *err, size_t err_size)
{
	uint32_t i, nr_slots = ir->nr_slots;
	uint64_t seq = ir->nr_recorded;
	int ret;

	for (i = 0; i < ir->nr_calls; i++)
		if (ir->calls[i].seq > seq)
			seq = ir->calls[i].seq;
	*nr_pins = 0;
	for (i = 0; i < nr_slots; i++) {
		const struct bpfrr_ir_slot *s = &ir->slots[i];
		union bpf_attr attr;
		char name[128], path[4096];
		uint32_t attr_size = offsetof(union bpf_attr, file_flags) + sizeof(attr.file_flags);
		int c;

		if (!(s->flags & BPFRR_IR_SLOT_KEEP) || s->source != BPFRR_IR_SLOT_CALL ||
		    (s->kind != BPFRR_OBJ_MAP && s->kind != BPFRR_OBJ_PROG && s->kind != BPFRR_OBJ_LINK))
			continue;
		bpfrr_slot_pin_name(s, i, name, sizeof(name));
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
			return bpfrr_errmsg(err, err_size, -ENAMETOOLONG, "--pin %s: the path of slot %u is too long",
					dir, i);
		memset(&attr, 0, sizeof(attr));
		attr.bpf_fd = -1;
		c = bpfrr_ir_add_call(ir, ++seq, BPFRR_IR_BPF, BPF_OBJ_PIN, &attr, attr_size);
		if (c < 0)
			return bpfrr_errmsg(err, err_size, c, "--pin: adding the call for slot %u: %s", i, strerror(-c));
		ir->calls[c].flags |= BPFRR_IR_CALL_GLOBAL;
		ret = bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, pathname),
				       "attr.pathname", path, strlen(path) + 1, BPFRR_DIR_IN, BPFRR_CONTENT_PATH);
		if (ret >= 0)
			ret = bpfrr_ir_add_fdrel(ir, c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, bpf_fd), i,
						 BPFRR_IR_REF_FIELD);
		if (ret < 0)
			return bpfrr_errmsg(err, err_size, ret, "--pin: building the call for slot %u: %s", i,
					strerror(-ret));
		(*nr_pins)++;
	}
	return 0;
}

/* --- the object ------------------------------------------------------------------ */

enum {
	SEC_NULL, SEC_STRTAB, SEC_PROG, SEC_REL, SEC_BLOB, SEC_LICENSE, SEC_BTF, SEC_BTF_EXT, SEC_SYMTAB,
	NR_SECS
};

enum { SYM_NULL, SYM_PROG, SYM_BLOB, SYM_LICENSE, SYM_KFUNC };

struct section {
	const char *name;
	uint32_t type, flags, link, info, align, entsize;
	struct bpfrr_buf data;
};

static bool valid_prog_name(const char *s)
{
	size_t i;

	if (!s[0] || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (i = 0; s[i]; i++)
		if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

static void put_sym(struct bpfrr_buf *symtab, struct bpfrr_buf *strtab, const char *name, unsigned char bind,
		    unsigned char type, uint16_t shndx, uint64_t size)
{
	Elf64_Sym s = {
		.st_name = name ? str_add(strtab, name) : 0,
		.st_info = ELF64_ST_INFO(bind, type),
		.st_other = STV_DEFAULT,
		.st_shndx = shndx,
		.st_value = 0,
		.st_size = size,
	};

	bpfrr_buf_put(symtab, &s, sizeof(s));
}

static void put_rel(struct bpfrr_buf *rel, uint32_t insn, uint32_t sym, uint32_t type)
{
	Elf64_Rel r = { .r_offset = (uint64_t)insn * sizeof(struct bpf_insn), .r_info = ELF64_R_INFO(sym, type) };

	bpfrr_buf_put(rel, &r, sizeof(r));
}

/*
 * The loader as codegen made it reaches the blob through fd_array[0]
 * (ld_imm64 BPF_PSEUDO_MAP_IDX_VALUE) and calls the kfunc by a BTF id
 * (BPF_PSEUDO_KFUNC_CALL).  In the object both become what clang emits,
 * plain instructions with relocations for libbpf to resolve.
 */
static int relocate_insns(struct bpf_insn *insns, uint32_t nr, struct bpfrr_buf *rel, uint32_t *nr_kfunc,
			  char *err, size_t err_size)
{
	uint32_t i, nr_blob = 0;

	*nr_kfunc = 0;
	for (i = 0; i < nr; i++) {
		struct bpf_insn *in = &insns[i];

		if (in->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			if (i + 1 >= nr)
				return bpfrr_errmsg(err, err_size, -EPROTO, "insn %u: a truncated ld_imm64", i);
			if (in->src_reg == BPF_PSEUDO_MAP_IDX_VALUE) {
				if (in->imm != 0 || in[1].imm != 0)
					return bpfrr_errmsg(err, err_size, -EPROTO,
							"insn %u: a map reference other than the blob at 0", i);
				in->src_reg = 0;
				put_rel(rel, i, SYM_BLOB, R_BPF_64_64);
				nr_blob++;
			} else if (in->src_reg) {
				return bpfrr_errmsg(err, err_size, -EPROTO,
						"insn %u: ld_imm64 with src_reg %u, which the object cannot express",
						i, in->src_reg);
			}
			i++;
		} else if (in->code == (BPF_JMP | BPF_CALL) && in->src_reg == BPF_PSEUDO_KFUNC_CALL) {
			in->src_reg = BPF_PSEUDO_CALL;
			in->imm = -1;
			in->off = 0;
			put_rel(rel, i, SYM_KFUNC, R_BPF_64_32);
			(*nr_kfunc)++;
		}
	}
	if (nr_blob != 1)
		return bpfrr_errmsg(err, err_size, -EPROTO, "the loader references its blob %u times, not once",
				nr_blob);
	return 0;
}

static int layout(struct section *secs, struct bpfrr_elf_image *img, char *err, size_t err_size)
{
	Elf64_Ehdr eh = { 0 };
	struct bpfrr_buf out = { 0 };
	Elf64_Shdr sh[NR_SECS];
	uint32_t i;

	memset(sh, 0, sizeof(sh));
	bpfrr_buf_put(&out, NULL, sizeof(eh));
	for (i = 1; i < NR_SECS; i++) {
		struct section *s = &secs[i];

		bpfrr_buf_align(&out, s->align);
		sh[i].sh_name = str_add(&secs[SEC_STRTAB].data, s->name);
		sh[i].sh_type = s->type;
		sh[i].sh_flags = s->flags;
		sh[i].sh_offset = out.len;
		sh[i].sh_size = s->data.len;
		sh[i].sh_link = s->link;
		sh[i].sh_info = s->info;
		sh[i].sh_addralign = s->align;
		sh[i].sh_entsize = s->entsize;
		/* the string table is written first but named last: its size comes at the end */
		if (i != SEC_STRTAB)
			bpfrr_buf_put(&out, s->data.p, s->data.len);
	}
	/* .strtab now holds every name: place it at the end */
	bpfrr_buf_align(&out, 1);
	sh[SEC_STRTAB].sh_offset = out.len;
	sh[SEC_STRTAB].sh_size = secs[SEC_STRTAB].data.len;
	bpfrr_buf_put(&out, secs[SEC_STRTAB].data.p, secs[SEC_STRTAB].data.len);
	bpfrr_buf_align(&out, 8);
	eh.e_shoff = out.len;
	bpfrr_buf_put(&out, sh, sizeof(sh));
	if (out.err || secs[SEC_STRTAB].data.err) {
		free(out.p);
		return bpfrr_errmsg(err, err_size, -ENOMEM, "out of memory");
	}

	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;	/* x86_64 and arm64: the loader runs in the target's byte order */
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_ident[EI_OSABI] = ELFOSABI_NONE;
	eh.e_type = ET_REL;
	eh.e_machine = EM_BPF;
	eh.e_version = EV_CURRENT;
	eh.e_ehsize = sizeof(eh);
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = NR_SECS;
	eh.e_shstrndx = SEC_STRTAB;
	memcpy(out.p, &eh, sizeof(eh));
	img->obj = out.p;
	img->obj_size = out.len;
	return 0;
}

int bpfrr_elf_build(const struct bpfrr_ir *ir_in, const struct bpfrr_elf_opts *o, struct bpfrr_elf_image *img,
		    char *err, size_t err_size)
{
	const char *pin_dir = o ? o->pin_dir : NULL;
	struct bpfrr_ir *ir_pins = NULL;
	const struct bpfrr_ir *ir = ir_in;
	const char *caps_name = o && o->caps ? o->caps : BPFRR_ELF_DEFAULT_CAPS;
	const char *prog_name = o && o->name ? o->name : BPFRR_ELF_DEFAULT_NAME;
	static const char license[] = "GPL";
	struct section secs[NR_SECS];
	struct btf_out bo = { 0 };
	struct bpfrr_plan plan = { 0 };
	struct bpfrr_loader l = { 0 };
	struct bpfrr_caps caps;
	struct btf_ids ids;
	uint32_t i, nr_kfunc = 0;
	int ret;

	memset(img, 0, sizeof(*img));
	memset(secs, 0, sizeof(secs));
	if (!valid_prog_name(prog_name))
		return bpfrr_errmsg(err, err_size, -EINVAL,
				"program name '%s': not a C identifier",
				prog_name);
	if (bpfrr_caps_assume(&caps, caps_name))
		return bpfrr_errmsg(err, err_size, -EINVAL, "--assume-caps '%s': one of %s", caps_name,
				BPFRR_CAPS_ASSUME_NAMES);
	snprintf(img->caps, sizeof(img->caps), "%s", caps_name);
	ret = bpfrr_ir_validate(ir, err, err_size);
	if (ret)
		return ret;
	if (!ir->nr_calls)
		return bpfrr_errmsg(err, err_size, -EOPNOTSUPP, "no call to replay: the loader would do nothing");
	if (pin_dir) {
		size_t n = strlen(pin_dir);

		if (pin_dir[0] != '/')
			return bpfrr_errmsg(err, err_size, -EINVAL,
					"--pin '%s': an absolute path expected (the runner's working directory "
					"is not known)", pin_dir);
		if (!bpfrr_caps_cmd(&caps, BPF_OBJ_PIN))
			return bpfrr_errmsg(err, err_size, -EOPNOTSUPP,
					"--pin: syscall programs cannot pin on this kernel (%s: BPF_OBJ_PIN not "
					"accepted by bpf_sys_bpf())", caps_name);
		ir_pins = bpfrr_ir_clone(ir);
		if (!ir_pins)
			return bpfrr_errmsg(err, err_size, -ENOMEM, "out of memory");
		while (n > 1 && pin_dir[n - 1] == '/')
			n--;
		{
			char dir[4096];

			snprintf(dir, sizeof(dir), "%.*s", (int)n, pin_dir);
			ret = add_pins(ir_pins, dir, &img->nr_pins, err, err_size);
		}
		if (!ret)
			ret = bpfrr_ir_validate(ir_pins, err, err_size);
		if (ret) {
			bpfrr_ir_free(ir_pins);
			return ret;
		}
		ir = ir_pins;
	}

	ret = bpfrr_plan_make(ir, &caps, 0, &plan, err, err_size);
	if (ret) {
		bpfrr_ir_free(ir_pins);
		return ret;
	}
	ret = check_plan(ir, &plan, caps_name, err, err_size);
	if (ret)
		goto out;
	/* the image check first: it names the call, codegen's refusal would not */
	ret = bpfrr_codegen(ir, &plan.order[plan.segs[0].first], plan.segs[0].nr, &caps, 0, &l, err,
			    err_size);
	if (ret)
		goto out;
	ret = check_user_image(ir, &l, caps_name, err, err_size);
	if (ret)
		goto out;
	bpfrr_loader_free(&l);
	ret = bpfrr_codegen(ir, &plan.order[plan.segs[0].first], plan.segs[0].nr, &caps, BPFRR_CG_CTX_IN_BLOB,
			    &l, err, err_size);
	if (ret)
		goto out;

	secs[SEC_STRTAB] = (struct section){ .name = ".strtab", .type = SHT_STRTAB, .align = 1 };
	secs[SEC_PROG] = (struct section){ .name = BPFRR_ELF_PROG_SEC, .type = SHT_PROGBITS,
					   .flags = SHF_ALLOC | SHF_EXECINSTR, .align = 8 };
	secs[SEC_REL] = (struct section){ .name = ".rel" BPFRR_ELF_PROG_SEC, .type = SHT_REL, .link = SEC_SYMTAB,
					  .info = SEC_PROG, .align = 8, .entsize = sizeof(Elf64_Rel) };
	secs[SEC_BLOB] = (struct section){ .name = BPFRR_ELF_BLOB_SEC, .type = SHT_PROGBITS,
					   .flags = SHF_ALLOC | SHF_WRITE, .align = 8 };
	secs[SEC_LICENSE] = (struct section){ .name = "license", .type = SHT_PROGBITS,
					      .flags = SHF_ALLOC | SHF_WRITE, .align = 1 };
	secs[SEC_BTF] = (struct section){ .name = ".BTF", .type = SHT_PROGBITS, .align = 4 };
	secs[SEC_BTF_EXT] = (struct section){ .name = ".BTF.ext", .type = SHT_PROGBITS, .align = 4 };
	secs[SEC_SYMTAB] = (struct section){ .name = ".symtab", .type = SHT_SYMTAB, .link = SEC_STRTAB,
					     .info = SYM_PROG, .align = 8, .entsize = sizeof(Elf64_Sym) };
	str_add(&secs[SEC_STRTAB].data, "");

	ret = relocate_insns(l.insns, l.nr_insns, &secs[SEC_REL].data, &nr_kfunc, err, err_size);
	if (ret)
		goto out;
	bpfrr_buf_put(&secs[SEC_PROG].data, l.insns, (size_t)l.nr_insns * sizeof(*l.insns));
	bpfrr_buf_put(&secs[SEC_BLOB].data, l.blob, l.blob_size);
	bpfrr_buf_put(&secs[SEC_LICENSE].data, license, sizeof(license));

	/* symbols: the null one, then (all global) the program, the blob, the license, the kfunc */
	put_sym(&secs[SEC_SYMTAB].data, &secs[SEC_STRTAB].data, NULL, STB_LOCAL, STT_NOTYPE, SHN_UNDEF, 0);
	put_sym(&secs[SEC_SYMTAB].data, &secs[SEC_STRTAB].data, prog_name, STB_GLOBAL, STT_FUNC, SEC_PROG,
		secs[SEC_PROG].data.len);
	put_sym(&secs[SEC_SYMTAB].data, &secs[SEC_STRTAB].data, BPFRR_ELF_BLOB_SYM, STB_GLOBAL, STT_OBJECT,
		SEC_BLOB, l.blob_size);
	put_sym(&secs[SEC_SYMTAB].data, &secs[SEC_STRTAB].data, "LICENSE", STB_GLOBAL, STT_OBJECT, SEC_LICENSE,
		sizeof(license));
	if (nr_kfunc)
		put_sym(&secs[SEC_SYMTAB].data, &secs[SEC_STRTAB].data, BPFRR_ELF_KFUNC, STB_GLOBAL, STT_NOTYPE,
			SHN_UNDEF, 0);

	build_btf(&bo, prog_name, l.blob_size, nr_kfunc > 0, &ids);
	put_btf_ext(&secs[SEC_BTF_EXT].data, &bo, ids.prog_func);	/* adds a string: before put_btf */
	put_btf(&secs[SEC_BTF].data, &bo);

	for (i = 0; i < NR_SECS; i++)
		if (secs[i].data.err)
			ret = -ENOMEM;
	if (bo.types.err || bo.strs.err || ret) {
		ret = bpfrr_errmsg(err, err_size, -ENOMEM, "out of memory");
		goto out;
	}
	ret = layout(secs, img, err, err_size);
	if (ret)
		goto out;

	img->ctx_size = l.ctx_size;
	img->nr_calls = l.nr_calls;
	img->nr_insns = l.nr_insns;
	img->blob_size = l.blob_size;
	img->nr_kfunc_calls = nr_kfunc;
out:
	for (i = 0; i < NR_SECS; i++)
		free(secs[i].data.p);
	free(bo.types.p);
	free(bo.strs.p);
	bpfrr_loader_free(&l);
	bpfrr_plan_free(&plan);
	bpfrr_ir_free(ir_pins);
	if (ret)
		bpfrr_elf_image_free(img);
	return ret;
}

void bpfrr_elf_image_free(struct bpfrr_elf_image *img)
{
	free(img->obj);
	img->obj = NULL;
	img->obj_size = 0;
}

int bpfrr_elf_write(const struct bpfrr_ir *ir, const char *path, const struct bpfrr_elf_opts *o, char *err,
		    size_t err_size)
{
	struct bpfrr_elf_image img;
	int ret;

	ret = bpfrr_elf_build(ir, o, &img, err, err_size);
	if (ret)
		return ret;
	ret = bpfrr_outfile_write(path, img.obj, img.obj_size, err, err_size);
	if (!ret)
		fprintf(strcmp(path, "-") ? stdout : stderr, "wrote %s: one %s loader of %u insns making %u calls (%u through the kfunc%s%.0u%s), "
		       "%u-byte blob (its first %u bytes the loader's report), planned for %s\n",
		       path, BPFRR_ELF_PROG_SEC, img.nr_insns, img.nr_calls, img.nr_kfunc_calls,
		       o && o->pin_dir ? ", " : "", o && o->pin_dir ? img.nr_pins : 0,
		       o && o->pin_dir ? " pins" : "", img.blob_size, img.ctx_size, img.caps);
	bpfrr_elf_image_free(&img);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_translate_elf.c - `bpfrr translate --format elf` (replayer/translate/out_elf.c):
 * the object read back with libelf (sections, symbols, relocations, the
 * loader and blob against what codegen makes), its BTF and BTF.ext with
 * libbpf's parsers, the whole object opened by libbpf (as `bpftool prog
 * load` would, short of loading: a seccomp filter traps any bpf() call and
 * the test checks there was none), the context, and every refusal.
 */
#include <check.h>
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>
#include <linux/btf.h>

#include "caps.h"
#include "codegen.h"
#include "out_elf.h"
#include "plan.h"
#include "../guest/replay-sample.h"

/* --- reading the object back ------------------------------------------------------ */

struct obj {
	Elf *elf;
	size_t shstrndx;
};

static void obj_open(struct obj *o, const struct bpfrr_elf_image *img)
{
	ck_assert_uint_ne(elf_version(EV_CURRENT), EV_NONE);
	o->elf = elf_memory((char *)img->obj, img->obj_size);
	ck_assert_ptr_nonnull(o->elf);
	ck_assert_int_eq(elf_kind(o->elf), ELF_K_ELF);
	ck_assert_int_eq(elf_getshdrstrndx(o->elf, &o->shstrndx), 0);
}

static Elf_Scn *obj_sec(struct obj *o, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(o->elf, scn))) {
		ck_assert_ptr_nonnull(gelf_getshdr(scn, sh));
		if (!strcmp(elf_strptr(o->elf, o->shstrndx, sh->sh_name), name))
			return scn;
	}
	return NULL;
}

static Elf_Data *obj_data(struct obj *o, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = obj_sec(o, name, sh);
	Elf_Data *d;

	ck_assert_msg(scn != NULL, "no section %s", name);
	d = elf_getdata(scn, NULL);
	ck_assert_ptr_nonnull(d);
	return d;
}

static const char *sym_name(struct obj *o, uint32_t idx, GElf_Sym *sym)
{
	GElf_Shdr sh;
	Elf_Scn *scn = obj_sec(o, ".symtab", &sh);

	ck_assert_ptr_nonnull(scn);
	ck_assert_ptr_nonnull(gelf_getsym(elf_getdata(scn, NULL), idx, sym));
	return elf_strptr(o->elf, sh.sh_link, sym->st_name);
}

static struct bpfrr_caps caps_of(const char *name)
{
	struct bpfrr_caps caps;

	ck_assert_int_eq(bpfrr_caps_assume(&caps, name), 0);
	return caps;
}

/* The loader codegen makes for the whole IR as one run, its context in the blob (what the object must hold). */
static void loader_of(const struct bpfrr_ir *ir, const char *caps_name, struct bpfrr_loader *l)
{
	struct bpfrr_caps caps = caps_of(caps_name);
	struct bpfrr_plan plan;
	char err[256];

	ck_assert_int_eq(bpfrr_plan_make(ir, &caps, 0, &plan, err, sizeof(err)), 0);
	ck_assert_uint_eq(plan.nr_segs, 1);
	ck_assert_int_eq(bpfrr_codegen(ir, plan.order, plan.segs[0].nr, &caps, BPFRR_CG_CTX_IN_BLOB, l, err,
				       sizeof(err)), 0);
	bpfrr_plan_free(&plan);
}

/* --- no bpf() while libbpf opens the object ---------------------------------------- */

static volatile sig_atomic_t bpf_attempts;

static void on_sigsys(int sig)
{
	(void)sig;
	bpf_attempts++;
}

/* bpf() raises SIGSYS (counted) instead of reaching the kernel, for the rest of this test process. */
static void forbid_bpf(void)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);

	ck_assert_ptr_nonnull(ctx);
	signal(SIGSYS, on_sigsys);
	ck_assert_int_eq(seccomp_rule_add(ctx, SCMP_ACT_TRAP, SCMP_SYS(bpf), 0), 0);
	ck_assert_int_eq(seccomp_load(ctx), 0);
	seccomp_release(ctx);
}

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN)
		return vfprintf(stderr, fmt, ap);
	return 0;
}

/* libbpf's view: one syscall program, one global-data map holding the blob. */
static void libbpf_opens(const struct bpfrr_elf_image *img, const char *prog_name)
{
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_map *map;
	const void *init;
	size_t init_size;

	forbid_bpf();
	libbpf_set_print(quiet);
	obj = bpf_object__open_mem(img->obj, img->obj_size, NULL);
	ck_assert_msg(libbpf_get_error(obj) == 0, "libbpf refused the object: %ld", libbpf_get_error(obj));
	prog = bpf_object__next_program(obj, NULL);
	ck_assert_ptr_nonnull(prog);
	ck_assert_ptr_null(bpf_object__next_program(obj, prog));
	ck_assert_str_eq(bpf_program__name(prog), prog_name);
	ck_assert_str_eq(bpf_program__section_name(prog), "syscall");
	ck_assert_int_eq(bpf_program__type(prog), BPF_PROG_TYPE_SYSCALL);
	ck_assert_uint_eq(bpf_program__insn_cnt(prog), img->nr_insns);
	map = bpf_object__next_map(obj, NULL);
	ck_assert_ptr_nonnull(map);
	ck_assert_ptr_null(bpf_object__next_map(obj, map));
	ck_assert_str_eq(bpf_map__name(map), ".data.blob");
	ck_assert_int_eq(bpf_map__type(map), BPF_MAP_TYPE_ARRAY);
	ck_assert_uint_eq(bpf_map__value_size(map), img->blob_size);
	ck_assert_uint_eq(bpf_map__max_entries(map), 1);
	init = bpf_map__initial_value(map, &init_size);
	ck_assert_ptr_nonnull(init);
	ck_assert_uint_eq(init_size, img->blob_size);
	bpf_object__close(obj);
	ck_assert_int_eq(bpf_attempts, 0);
}

/* --- tests ----------------------------------------------------------------------- */

/*
 * The sample load on the patched kernel: the sections, symbols and the one
 * relocation as designed; the loader and blob exactly codegen's apart from
 * the blob's ld_imm64, which becomes a plain one with a relocation.
 */
START_TEST(sample_object)
{
	struct bpfrr_ir *ir = sample_ir(0);
	static const char *const names[] = { "", ".strtab", "syscall", ".relsyscall", ".data.blob", "license",
					     ".BTF", ".BTF.ext", ".symtab" };
	struct bpfrr_elf_image img;
	struct bpfrr_loader l;
	struct obj o;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	GElf_Sym sym;
	GElf_Rel rel;
	Elf_Data *d;
	const struct bpf_insn *insns;
	char err[256];
	size_t nsec;
	uint32_t i;

	ck_assert_ptr_nonnull(ir);
	ck_assert_int_eq(bpfrr_elf_build(ir, NULL, &img, err, sizeof(err)), 0);
	ck_assert_str_eq(img.caps, "patched-6.12");
	loader_of(ir, "patched-6.12", &l);
	obj_open(&o, &img);
	ck_assert_ptr_nonnull(gelf_getehdr(o.elf, &eh));
	ck_assert_int_eq(eh.e_type, ET_REL);
	ck_assert_int_eq(eh.e_machine, EM_BPF);
	ck_assert_int_eq(eh.e_ident[EI_CLASS], ELFCLASS64);
	ck_assert_int_eq(eh.e_ident[EI_DATA], ELFDATA2LSB);
	ck_assert_int_eq(elf_getshdrnum(o.elf, &nsec), 0);
	ck_assert_uint_eq(nsec, sizeof(names) / sizeof(names[0]));
	for (i = 1; i < nsec; i++) {
		ck_assert_ptr_nonnull(gelf_getshdr(elf_getscn(o.elf, i), &sh));
		ck_assert_str_eq(elf_strptr(o.elf, o.shstrndx, sh.sh_name), names[i]);
	}

	/* the loader: codegen's, with the blob's ld_imm64 made plain */
	d = obj_data(&o, "syscall", &sh);
	ck_assert_uint_eq(sh.sh_flags, SHF_ALLOC | SHF_EXECINSTR);
	ck_assert_uint_eq(d->d_size, l.nr_insns * sizeof(struct bpf_insn));
	insns = d->d_buf;
	ck_assert_int_eq(l.insns[0].code, BPF_LD | BPF_IMM | BPF_DW);
	ck_assert_int_eq(l.insns[0].src_reg, BPF_PSEUDO_MAP_IDX_VALUE);
	ck_assert_int_eq(insns[0].code, BPF_LD | BPF_IMM | BPF_DW);
	ck_assert_int_eq(insns[0].src_reg, 0);
	ck_assert_int_eq(insns[0].imm, 0);
	ck_assert_int_eq(insns[1].imm, 0);
	ck_assert_int_eq(insns[0].dst_reg, BPF_REG_7);	/* the loader's blob register */
	ck_assert(!memcmp(insns + 2, l.insns + 2, (l.nr_insns - 2) * sizeof(*insns)));
	/* the context is blob+0 (r6 = r7), reset before the first call; r1 (a NULL ctx) is never read */
	ck_assert_int_eq(insns[2].code, BPF_ALU64 | BPF_MOV | BPF_X);
	ck_assert_int_eq(insns[2].dst_reg, BPF_REG_6);
	ck_assert_int_eq(insns[2].src_reg, BPF_REG_7);
	ck_assert_int_eq(insns[3].code, BPF_ST | BPF_MEM | BPF_DW);	/* err, failed_seq = 0 */
	ck_assert_int_eq(insns[3].off, 0);
	for (i = 0; i < 3; i++) {	/* slots 0..2 made: -1 */
		ck_assert_int_eq(insns[4 + i].code, BPF_ST | BPF_MEM | BPF_W);
		ck_assert_int_eq(insns[4 + i].dst_reg, BPF_REG_6);
		ck_assert_int_eq(insns[4 + i].off, BPFRR_LOADER_CTX_SLOTS + 4 * i);
		ck_assert_int_eq(insns[4 + i].imm, -1);
	}
	for (i = 0; i < l.nr_insns; i++) {	/* the first mention of r1 sets it */
		if (insns[i].src_reg != BPF_REG_1 && insns[i].dst_reg != BPF_REG_1)
			continue;
		ck_assert_int_eq(insns[i].dst_reg, BPF_REG_1);
		ck_assert(insns[i].code == (BPF_ALU64 | BPF_MOV | BPF_X) ||
			  insns[i].code == (BPF_ALU64 | BPF_MOV | BPF_K) || BPF_CLASS(insns[i].code) == BPF_LDX);
		break;
	}
	ck_assert_uint_lt(i, l.nr_insns);
	ck_assert_uint_eq(img.nr_insns, l.nr_insns);
	ck_assert_uint_eq(img.nr_calls, 4);
	ck_assert_uint_eq(img.nr_kfunc_calls, 0);

	/* the blob, as codegen laid it out */
	d = obj_data(&o, ".data.blob", &sh);
	ck_assert_uint_eq(sh.sh_flags, SHF_ALLOC | SHF_WRITE);
	ck_assert_uint_eq(d->d_size, l.blob_size);
	ck_assert(!memcmp(d->d_buf, l.blob, l.blob_size));
	ck_assert_uint_eq(img.blob_size, l.blob_size);

	d = obj_data(&o, "license", &sh);
	ck_assert_str_eq(d->d_buf, "GPL");

	/* one relocation: insn 1 against bpfrr_blob, a global object in .data.blob */
	d = obj_data(&o, ".relsyscall", &sh);
	ck_assert_uint_eq(sh.sh_type, SHT_REL);
	ck_assert_uint_eq(sh.sh_info, elf_ndxscn(obj_sec(&o, "syscall", &sh)));
	ck_assert_uint_eq(d->d_size, sizeof(Elf64_Rel));
	ck_assert_ptr_nonnull(gelf_getrel(d, 0, &rel));
	ck_assert_uint_eq(rel.r_offset, 0);
	ck_assert_uint_eq(GELF_R_TYPE(rel.r_info), 1 /* R_BPF_64_64 */);
	ck_assert_str_eq(sym_name(&o, GELF_R_SYM(rel.r_info), &sym), "bpfrr_blob");
	ck_assert_int_eq(GELF_ST_BIND(sym.st_info), STB_GLOBAL);
	ck_assert_int_eq(GELF_ST_TYPE(sym.st_info), STT_OBJECT);
	ck_assert_uint_eq(sym.st_shndx, elf_ndxscn(obj_sec(&o, ".data.blob", &sh)));
	ck_assert_uint_eq(sym.st_size, l.blob_size);

	/* the program's symbol */
	ck_assert_str_eq(sym_name(&o, 1, &sym), "bpfrr_loader");
	ck_assert_int_eq(GELF_ST_TYPE(sym.st_info), STT_FUNC);
	ck_assert_int_eq(GELF_ST_BIND(sym.st_info), STB_GLOBAL);
	ck_assert_uint_eq(sym.st_size, l.nr_insns * sizeof(struct bpf_insn));

	/* the context at blob+0: header zero, every slot -1 */
	ck_assert_uint_eq(img.ctx_size, BPFRR_LOADER_CTX_SIZE(ir->nr_slots));
	ck_assert_uint_eq(l.ctx_size, img.ctx_size);
	d = obj_data(&o, ".data.blob", &sh);
	for (i = 0; i < img.ctx_size; i++)
		ck_assert_uint_eq(((uint8_t *)d->d_buf)[i], i < BPFRR_LOADER_CTX_SLOTS ? 0 : 0xff);

	elf_end(o.elf);
	bpfrr_loader_free(&l);
	bpfrr_elf_image_free(&img);
	bpfrr_ir_free(ir);
}
END_TEST

/* .BTF and .BTF.ext through libbpf's own parsers. */
START_TEST(sample_btf)
{
	struct bpfrr_ir *ir = sample_ir(0);
	struct bpfrr_elf_image img;
	struct btf_ext *ext;
	const struct btf_type *t;
	const struct btf_var_secinfo *vs;
	struct btf *btf;
	struct obj o;
	GElf_Shdr sh;
	Elf_Data *d;
	char err[256];
	int id;

	ck_assert_int_eq(bpfrr_elf_build(ir, &(struct bpfrr_elf_opts){ .name = "my_loader" }, &img, err,
					 sizeof(err)), 0);
	obj_open(&o, &img);
	d = obj_data(&o, ".BTF", &sh);
	btf = btf__new(d->d_buf, d->d_size);
	ck_assert_int_eq(libbpf_get_error(btf), 0);
	id = btf__find_by_name_kind(btf, ".data.blob", BTF_KIND_DATASEC);
	ck_assert_int_gt(id, 0);
	t = btf__type_by_id(btf, id);
	ck_assert_uint_eq(t->size, img.blob_size);
	ck_assert_uint_eq(btf_vlen(t), 1);
	vs = btf_var_secinfos(t);
	ck_assert_uint_eq(vs->offset, 0);
	ck_assert_uint_eq(vs->size, img.blob_size);
	t = btf__type_by_id(btf, vs->type);
	ck_assert(btf_is_var(t));
	ck_assert_str_eq(btf__name_by_offset(btf, t->name_off), "bpfrr_blob");
	ck_assert_int_eq(btf__resolve_size(btf, t->type), img.blob_size);
	id = btf__find_by_name_kind(btf, "my_loader", BTF_KIND_FUNC);
	ck_assert_int_gt(id, 0);
	ck_assert_int_lt(btf__find_by_name_kind(btf, "bpf_perf_event_open", BTF_KIND_FUNC), 0);
	d = obj_data(&o, ".BTF.ext", &sh);
	ext = btf_ext__new(d->d_buf, d->d_size);
	ck_assert_int_eq(libbpf_get_error(ext), 0);
	btf_ext__free(ext);
	btf__free(btf);
	elf_end(o.elf);
	bpfrr_elf_image_free(&img);
	bpfrr_ir_free(ir);
}
END_TEST

START_TEST(sample_libbpf_opens)
{
	struct bpfrr_ir *ir = sample_ir(SAMPLE_RAW_TP);
	struct bpfrr_elf_image img;
	char err[256];

	/* the raw tracepoint name sits in the blob on the patched kernel */
	ck_assert_int_eq(bpfrr_elf_build(ir, NULL, &img, err, sizeof(err)), 0);
	ck_assert_uint_eq(img.nr_calls, 6);
	libbpf_opens(&img, "bpfrr_loader");
	bpfrr_elf_image_free(&img);
	bpfrr_ir_free(ir);
}
END_TEST

/* An IR whose one call opens a software event (no pointer in its attr). */
static struct bpfrr_ir *perf_ir(void)
{
	struct bpfrr_ir *ir = bpfrr_ir_new();
	uint8_t attr[128] = { 0 };
	int c, s;

	attr[0] = 1;	/* PERF_TYPE_SOFTWARE */
	s = bpfrr_ir_add_slot(ir, BPFRR_OBJ_PERF_EVENT, "perf_event.cpu-clock");
	c = bpfrr_ir_add_call(ir, 7, BPFRR_IR_PERF_EVENT_OPEN, 0, attr, sizeof(attr));
	ck_assert_int_eq(c, 0);
	ck_assert_int_eq(s, 0);
	ir->calls[c].args[0] = -1;
	ir->calls[c].args[1] = 0;
	ir->calls[c].args[2] = -1;
	ir->calls[c].args[3] = 8;	/* PERF_FLAG_FD_CLOEXEC */
	ck_assert_int_eq(bpfrr_ir_set_result(ir, c, s), 0);
	return ir;
}

/*
 * perf_event_open through the kfunc: the call becomes clang's extern call
 * (src_reg BPF_PSEUDO_CALL, imm -1) with R_BPF_64_32 against an undefined
 * global bpf_perf_event_open, declared in BTF as an extern FUNC in .ksyms;
 * libbpf collects it as an extern.
 */
START_TEST(kfunc_extern)
{
	struct bpfrr_ir *ir = perf_ir();
	struct bpfrr_elf_image img;
	const struct bpf_insn *insns;
	const struct btf_type *t;
	struct btf *btf;
	struct obj o;
	GElf_Shdr sh;
	GElf_Sym sym;
	GElf_Rel rel;
	Elf_Data *d;
	uint32_t i, kfunc_rels = 0;
	char err[256];
	int id;

	ck_assert_int_eq(bpfrr_elf_build(ir, NULL, &img, err, sizeof(err)), 0);
	ck_assert_uint_eq(img.nr_kfunc_calls, 1);
	obj_open(&o, &img);
	insns = obj_data(&o, "syscall", &sh)->d_buf;
	d = obj_data(&o, ".relsyscall", &sh);
	ck_assert_uint_eq(d->d_size, 2 * sizeof(Elf64_Rel));
	for (i = 0; i < 2; i++) {
		const struct bpf_insn *in;

		ck_assert_ptr_nonnull(gelf_getrel(d, i, &rel));
		if (GELF_R_TYPE(rel.r_info) != 10 /* R_BPF_64_32 */)
			continue;
		kfunc_rels++;
		in = &insns[rel.r_offset / 8];
		ck_assert_int_eq(in->code, BPF_JMP | BPF_CALL);
		ck_assert_int_eq(in->src_reg, BPF_PSEUDO_CALL);
		ck_assert_int_eq(in->imm, -1);
		ck_assert_str_eq(sym_name(&o, GELF_R_SYM(rel.r_info), &sym), "bpf_perf_event_open");
		ck_assert_int_eq(sym.st_shndx, SHN_UNDEF);
		ck_assert_int_eq(GELF_ST_BIND(sym.st_info), STB_GLOBAL);
		ck_assert_int_eq(GELF_ST_TYPE(sym.st_info), STT_NOTYPE);
	}
	ck_assert_uint_eq(kfunc_rels, 1);
	d = obj_data(&o, ".BTF", &sh);
	btf = btf__new(d->d_buf, d->d_size);
	ck_assert_int_eq(libbpf_get_error(btf), 0);
	id = btf__find_by_name_kind(btf, "bpf_perf_event_open", BTF_KIND_FUNC);
	ck_assert_int_gt(id, 0);
	t = btf__type_by_id(btf, id);
	ck_assert_int_eq(btf_vlen(t), BTF_FUNC_EXTERN); 	/* a FUNC's vlen is its linkage */
	t = btf__type_by_id(btf, t->type);
	ck_assert(btf_is_func_proto(t));
	ck_assert_uint_eq(btf_vlen(t), 5);
	id = btf__find_by_name_kind(btf, ".ksyms", BTF_KIND_DATASEC);
	ck_assert_int_gt(id, 0);
	btf__free(btf);
	elf_end(o.elf);
	libbpf_opens(&img, "bpfrr_loader");
	bpfrr_elf_image_free(&img);
	bpfrr_ir_free(ir);
}
END_TEST

/* What the format cannot carry is refused with the first call that needs it and why. */
START_TEST(refusals)
{
	struct bpfrr_elf_image img;
	struct bpfrr_ir *ir;
	char err[512];
	int c;

	/* stock 6.12: the raw tracepoint name is a user pointer */
	ir = sample_ir(SAMPLE_RAW_TP);
	ck_assert_int_eq(bpfrr_elf_build(ir, &(struct bpfrr_elf_opts){ .caps = "stock-6.12" }, &img, err,
					 sizeof(err)), -EOPNOTSUPP);
	ck_assert_str_eq(err, "seq 15 BPF_RAW_TRACEPOINT_OPEN: the kernel reads attr.raw_tracepoint.name "
			 "(10 bytes) at a user address (stock-6.12); a loader run by a libbpf tool has no user "
			 "memory to put it in, so the elf format cannot carry it");
	ck_assert_ptr_null(img.obj);
	/* no caps at all: the first call is a user-space step */
	ck_assert_int_eq(bpfrr_elf_build(ir, &(struct bpfrr_elf_opts){ .caps = "none" }, &img, err, sizeof(err)),
			 -EOPNOTSUPP);
	ck_assert_str_eq(err, "seq 3 BPF_BTF_LOAD: command not accepted by bpf_sys_bpf() on this kernel "
			 "(none); the elf format needs every call in the loader: try --assume-caps patched-6.12");
	ck_assert_int_eq(bpfrr_elf_build(ir, &(struct bpfrr_elf_opts){ .caps = "bogus" }, &img, err, sizeof(err)),
			 -EINVAL);
	ck_assert_int_eq(bpfrr_elf_build(ir, &(struct bpfrr_elf_opts){ .name = "9lives" }, &img, err, sizeof(err)),
			 -EINVAL);
	ck_assert_str_eq(err, "program name '9lives': not a C identifier");
	ck_assert_int_eq(bpfrr_elf_build(ir, &(struct bpfrr_elf_opts){ .name = "a-b" }, &img, err, sizeof(err)),
			 -EINVAL);
	/* a log buffer is a user pointer on the patched kernel too */
	ck_assert_int_eq(bpfrr_ir_force_log(ir, 2, 4096), 0);
	ck_assert_int_eq(bpfrr_elf_build(ir, NULL, &img, err, sizeof(err)), -EOPNOTSUPP);
	ck_assert_str_eq(err, "seq 8 BPF_PROG_LOAD: the kernel reads attr.log_buf (4096 bytes) at a user "
			 "address (patched-6.12); a loader run by a libbpf tool has no user memory to put it in, "
			 "so the elf format cannot carry it");
	bpfrr_ir_free(ir);

	/* perf events on stock 6.12 */
	ir = perf_ir();
	ck_assert_int_eq(bpfrr_elf_build(ir, &(struct bpfrr_elf_opts){ .caps = "stock-6.12" }, &img, err,
					 sizeof(err)), -EOPNOTSUPP);
	ck_assert_str_eq(err, "seq 7 perf_event_open: syscall programs cannot open perf events on this kernel "
			 "(stock-6.12); the elf format needs every call in the loader: try --assume-caps "
			 "patched-6.12");
	/* a tracepoint id looked up at replay time */
	ck_assert_int_eq(bpfrr_ir_add_resolve(ir, 0, BPFRR_IR_RESOLVE_TP_ID, 8, 8, "syscalls/sys_enter_openat"), 0);
	ck_assert_int_eq(bpfrr_elf_build(ir, NULL, &img, err, sizeof(err)), -EOPNOTSUPP);
	ck_assert_str_eq(err, "seq 7 perf_event_open: its attr holds the tracepoint id of syscalls/sys_enter_openat, "
			 "which bpfrr looks up on the replaying kernel; a libbpf tool loading an object does not, "
			 "so the elf format cannot carry it");
	bpfrr_ir_free(ir);

	/* a BTF id looked up at replay time: named with where it goes */
	ir = sample_ir(0);
	for (c = 0; ir->calls[c].cmd != BPF_PROG_LOAD; c++)
		;
	ck_assert_uint_ge(ir->calls[c].attr_size, offsetof(union bpf_attr, attach_btf_id) + 4);
	ck_assert_int_eq(bpfrr_ir_add_symbol_resolve(ir, c, BPFRR_IR_RESOLVE_BTF_ID, BPFRR_IR_IN_ATTR,
						     offsetof(union bpf_attr, attach_btf_id), "vfs_read", "",
						     BTF_KIND_FUNC, 0), 0);
	ck_assert_int_eq(bpfrr_elf_build(ir, NULL, &img, err, sizeof(err)), -EOPNOTSUPP);
	ck_assert_msg(!strcmp(err + strcspn(err, ":"), ": attach_btf_id holds the BTF id of func vfs_read, which "
			      "bpfrr looks up on the replaying kernel; a libbpf tool loading an object does not, so the "
			      "elf format cannot carry it"), "%s", err);
	bpfrr_ir_free(ir);

	/* a slot the replayer opens by path */
	ir = sample_ir(0);
	c = bpfrr_ir_add_path_slot(ir, BPFRR_OBJ_CGROUP, "cgroup./sys/fs/cgroup", "/sys/fs/cgroup", 0);
	ck_assert_int_ge(c, 0);
	ck_assert_int_eq(bpfrr_elf_build(ir, NULL, &img, err, sizeof(err)), -EOPNOTSUPP);
	ck_assert_str_eq(err, "slot 3 (cgroup./sys/fs/cgroup) is /sys/fs/cgroup, which the replayer opens at "
			 "replay time; a loader program cannot open it, so the elf format cannot carry it");
	bpfrr_ir_free(ir);

	/* a directory the loader made on a bpffs: no call uses it, the object leaves it out */
	ir = sample_ir(0);
	ck_assert_int_ge(bpfrr_ir_add_dir_slot(ir, "dir.1", "/sys/fs/bpf/d", 0700), 0);
	ck_assert_int_eq(bpfrr_elf_build(ir, NULL, &img, err, sizeof(err)), 0);
	bpfrr_elf_image_free(&img);
	bpfrr_ir_free(ir);

	/* nothing to replay */
	ir = bpfrr_ir_new();
	ck_assert_int_eq(bpfrr_elf_build(ir, NULL, &img, err, sizeof(err)), -EOPNOTSUPP);
	ck_assert_str_eq(err, "no call to replay: the loader would do nothing");
	bpfrr_ir_free(ir);
}
END_TEST

/* Does the blob hold this string (NUL included)? */
static bool blob_has(const struct bpfrr_elf_image *img, const char *str)
{
	struct obj o;
	GElf_Shdr sh;
	Elf_Data *d;
	size_t n = strlen(str) + 1, i;
	bool found = false;

	obj_open(&o, img);
	d = obj_data(&o, ".data.blob", &sh);
	for (i = 0; i + n <= d->d_size && !found; i++)
		found = !memcmp((char *)d->d_buf + i, str, n);
	elf_end(o.elf);
	return found;
}

/*
 * --pin: a BPF_OBJ_PIN per kept map, program and link (the BTF is not kept
 * in the sample, and is not pinnable), its path in the blob, after the
 * recorded calls; only where syscall programs can pin; absolute paths only.
 */
START_TEST(pins)
{
	struct bpfrr_ir *ir = sample_ir(SAMPLE_RAW_TP);
	struct bpfrr_elf_opts eo = { .pin_dir = "/sys/fs/bpf/t/" };
	struct bpfrr_elf_image img, plain;
	char err[256];

	ir->slots[SAMPLE_SLOT_TP_LINK].flags |= BPFRR_IR_SLOT_KEEP;
	ck_assert_int_eq(bpfrr_elf_build(ir, NULL, &plain, err, sizeof(err)), 0);
	ck_assert_int_eq(bpfrr_elf_build(ir, &eo, &img, err, sizeof(err)), 0);
	ck_assert_uint_eq(img.nr_pins, 3);
	ck_assert_uint_eq(img.nr_calls, plain.nr_calls + 3);
	ck_assert_uint_gt(img.nr_insns, plain.nr_insns);
	ck_assert(blob_has(&img, "/sys/fs/bpf/t/map_counts"));
	ck_assert(blob_has(&img, "/sys/fs/bpf/t/prog_count"));
	ck_assert(blob_has(&img, "/sys/fs/bpf/t/link_sys_enter"));
	ck_assert(!blob_has(&plain, "/sys/fs/bpf/t/map_counts"));
	ck_assert_uint_eq(ir->nr_calls, 6);	/* the caller's IR is left alone */
	libbpf_opens(&img, "bpfrr_loader");
	bpfrr_elf_image_free(&img);
	bpfrr_elf_image_free(&plain);

	eo.caps = "stock-6.12";
	ck_assert_int_eq(bpfrr_elf_build(ir, &eo, &img, err, sizeof(err)), -EOPNOTSUPP);
	ck_assert_str_eq(err, "--pin: syscall programs cannot pin on this kernel (stock-6.12: BPF_OBJ_PIN not "
			 "accepted by bpf_sys_bpf())");
	eo.caps = NULL;
	eo.pin_dir = "pins";
	ck_assert_int_eq(bpfrr_elf_build(ir, &eo, &img, err, sizeof(err)), -EINVAL);
	bpfrr_ir_free(ir);
}
END_TEST

/* bpfrr_elf_write: the object, byte for byte what build made. */
START_TEST(write_files)
{
	struct bpfrr_ir *ir = sample_ir(0);
	struct bpfrr_elf_image img;
	char dir[] = "/tmp/bpfrr-elf-XXXXXX", path[64], err[256];
	uint8_t buf[65536];
	size_t n;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/s.bpf.o", dir);
	ck_assert_int_eq(bpfrr_elf_build(ir, NULL, &img, err, sizeof(err)), 0);
	ck_assert_int_eq(bpfrr_elf_write(ir, path, NULL, err, sizeof(err)), 0);
	f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	ck_assert_uint_eq(n, img.obj_size);
	ck_assert(!memcmp(buf, img.obj, n));
	unlink(path);
	snprintf(path, sizeof(path), "%s/no/such/dir.bpf.o", dir);
	ck_assert_int_eq(bpfrr_elf_write(ir, path, NULL, err, sizeof(err)), -ENOENT);
	ck_assert(strstr(err, "no/such/dir.bpf.o: No such file or directory"));
	rmdir(dir);
	bpfrr_elf_image_free(&img);
	bpfrr_ir_free(ir);
}
END_TEST

static Suite *elf_suite(void)
{
	Suite *s = suite_create("translate_elf");
	TCase *tc = tcase_create("elf");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, sample_object);
	tcase_add_test(tc, sample_btf);
	tcase_add_test(tc, sample_libbpf_opens);
	tcase_add_test(tc, kfunc_extern);
	tcase_add_test(tc, refusals);
	tcase_add_test(tc, pins);
	tcase_add_test(tc, write_files);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(elf_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}

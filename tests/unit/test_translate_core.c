// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the translator's CO-RE step (replayer/translate/pass_core.c):
 * the ELF / .BTF.ext reader on a real object (tests/data/objects/fx_core.bpf.o,
 * fixtures/fx_core.bpf.c as clang 14 built it) and on corrupt copies of it,
 * the match of a loaded BTF against the object's .BTF, and the pass on
 * synthetic traces: a load libbpf relocated (the compiler's instructions come
 * back and the object's records become attr.core_relos at their loaded
 * offsets), a load whose object was not captured or does not fit (build-bound).
 */
#include <check.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "frontend_int.h"
#include "pass_core.h"
/* only the building blocks are used here, not the whole traces */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "../data/synth_trace.h"
#pragma GCC diagnostic pop

#define TID 100

static char data_dir[4096];
static uint8_t *obj_bytes;
static size_t obj_len;

static void load_object(void)
{
	char here[4096], path[4200];
	struct stat st;
	int fd;

	snprintf(here, sizeof(here), "%s", __FILE__);
	snprintf(data_dir, sizeof(data_dir), "%s/../data", dirname(here));
	snprintf(path, sizeof(path), "%s/objects/fx_core.bpf.o", data_dir);
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "%s: cannot read\n", path);
		exit(1);
	}
	obj_len = (size_t)st.st_size;
	obj_bytes = malloc(obj_len);
	if (!obj_bytes || pread(fd, obj_bytes, obj_len, 0) != (ssize_t)obj_len)
		exit(1);
	close(fd);
}

/* the FUNC type id of on_getpid in the object's .BTF */
static uint32_t func_type_id(const struct fe_core_obj *o)
{
	struct btf *btf = btf__new(o->btf, o->btf_len);
	int id;

	ck_assert_ptr_nonnull(btf);
	id = btf__find_by_name_kind(btf, "on_getpid", BTF_KIND_FUNC);
	btf__free(btf);
	ck_assert_int_gt(id, 0);
	return (uint32_t)id;
}

START_TEST(parses_the_fixture)
{
	struct fe_core_obj o;
	char err[200] = "";
	uint32_t i;

	ck_assert_int_eq(fe_core_parse(obj_bytes, obj_len, &o, err, sizeof(err)), 0);
	ck_assert_uint_eq(o.nr_funcs, 1);
	ck_assert_uint_eq(o.nr_secs, 1);
	ck_assert_str_eq(o.secs[0].name, "tp/syscalls/sys_enter_getpid");
	ck_assert_uint_eq(o.secs[0].size, 62 * 8);
	ck_assert_uint_eq(o.funcs[0].off, 0);
	ck_assert_uint_eq(o.funcs[0].end, 62 * 8);
	ck_assert_uint_eq(o.funcs[0].type_id, func_type_id(&o));
	/* pid, tgid (also the parent's: the same offset), real_parent, comm, comm's size,
	 * __state exists, state exists */
	ck_assert_uint_eq(o.nr_relos, 7);
	for (i = 0; i < o.nr_relos; i++) {
		ck_assert_uint_eq(o.relos[i].insn_off % 8, 0);
		ck_assert_uint_lt(o.relos[i].insn_off, o.secs[0].size);
	}
	/* its first: r1 = 0 (pid's offset in the local struct) at instruction 8 */
	ck_assert_uint_eq(o.relos[0].insn_off, 8 * 8);
	ck_assert_uint_eq(o.relos[0].kind, 0);	/* BPF_CORE_FIELD_BYTE_OFFSET */
	ck_assert(fe_core_btf_matches(&o, o.btf, o.btf_len));
	ck_assert(fe_core_btf_has_access_strings(o.btf, o.btf_len));
	fe_core_obj_free(&o);
}
END_TEST

/* libbpf's fix-ups of DATASEC sizes keep the match; another string or another type breaks it */
START_TEST(btf_match)
{
	struct fe_core_obj o;
	struct btf *btf;
	const void *raw;
	uint32_t raw_len, n, i;
	uint8_t *copy;
	char err[200];
	bool changed = false;

	ck_assert_int_eq(fe_core_parse(obj_bytes, obj_len, &o, err, sizeof(err)), 0);
	btf = btf__new(o.btf, o.btf_len);
	ck_assert_ptr_nonnull(btf);
	n = btf__type_cnt(btf);
	for (i = 1; i < n; i++) {
		struct btf_type *t = (struct btf_type *)btf__type_by_id(btf, i);

		if (btf_is_datasec(t)) {
			t->size = 0x1234;	/* what libbpf does to .bss, .rodata, ... */
			changed = true;
		}
	}
	ck_assert(changed);
	raw = btf__raw_data(btf, &raw_len);
	ck_assert_ptr_nonnull(raw);
	ck_assert(fe_core_btf_matches(&o, raw, raw_len));
	ck_assert_int_gt(btf__add_int(btf, "bpfrr_extra", 4, 0), 0);
	raw = btf__raw_data(btf, &raw_len);
	ck_assert(!fe_core_btf_matches(&o, raw, raw_len));
	btf__free(btf);

	copy = malloc(o.btf_len);
	memcpy(copy, o.btf, o.btf_len);
	copy[o.btf_len - 2] ^= 0x20;	/* a letter of the last string */
	ck_assert(!fe_core_btf_matches(&o, copy, o.btf_len));
	ck_assert(!fe_core_btf_matches(&o, copy, 10));
	free(copy);
	fe_core_obj_free(&o);
}
END_TEST

/* BTF without CO-RE access strings */
START_TEST(access_strings)
{
	struct btf *btf = btf__new_empty();
	const void *raw;
	uint32_t len;

	ck_assert_ptr_nonnull(btf);
	ck_assert_int_gt(btf__add_int(btf, "int", 4, BTF_INT_SIGNED), 0);
	raw = btf__raw_data(btf, &len);
	ck_assert(!fe_core_btf_has_access_strings(raw, len));
	ck_assert_int_gt(btf__add_int(btf, "0:1:2", 4, 0), 0);
	raw = btf__raw_data(btf, &len);
	ck_assert(fe_core_btf_has_access_strings(raw, len));
	ck_assert(!fe_core_btf_has_access_strings(raw, 7));
	btf__free(btf);
}
END_TEST

/* every cut of the object, and every single byte flipped: no crash, no read outside (ASan) */
START_TEST(corrupt_objects)
{
	struct fe_core_obj o;
	uint8_t *copy = malloc(obj_len);
	char err[200];
	size_t i;
	int ret;

	for (i = 0; i < obj_len; i++) {
		uint8_t *cut = malloc(i ? i : 1);

		memcpy(cut, obj_bytes, i);
		ret = fe_core_parse(cut, i, &o, err, sizeof(err));
		if (!ret)
			fe_core_obj_free(&o);
		else
			ck_assert_int_eq(ret, -EINVAL);
		free(cut);
	}
	for (i = 0; i < obj_len; i++) {
		memcpy(copy, obj_bytes, obj_len);
		copy[i] ^= 0xff;
		ret = fe_core_parse(copy, obj_len, &o, err, sizeof(err));
		if (!ret)
			fe_core_obj_free(&o);
		else
			ck_assert_int_eq(ret, -EINVAL);
	}
	/* named failures */
	memcpy(copy, obj_bytes, obj_len);
	copy[18] = 62;	/* e_machine EM_X86_64 */
	ck_assert_int_eq(fe_core_parse(copy, obj_len, &o, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "e_machine 62 is not EM_BPF");
	ck_assert_int_eq(fe_core_parse(obj_bytes, 40, &o, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "40 bytes: too short for an ELF header");
	free(copy);
}
END_TEST

/* --- the pass on synthetic traces ---------------------------------------------------------- */

struct scen {
	struct synth s;
	int memfd;
	uint8_t *bytes;		/* the trace, which the reader reads in place */
};

static void scen_begin(struct scen *sc)
{
	static const char *const argv[] = { "./loader" };
	struct bpfrr_trace_header h = {
		.arch = 62, .nr_cpus = 2, .page_size = 4096, .start_monotonic_ns = SYNTH_T0,
		.recorder_pid = 99, .tracee_pid = TID, .arch_name = "x86_64", .kernel_release = "6.12.0-test",
		.kernel_version = "#1", .recorder_version = "bpfrr 0.1.0", .argc = 1, .argv = argv,
	};

	memset(sc, 0, sizeof(*sc));
	sc->s.now = SYNTH_T0;
	sc->memfd = memfd_create("scen", 0);
	ck_assert_int_ge(sc->memfd, 0);
	sc->s.w = bpfrr_trace_create_fd(dup(sc->memfd), &h);
	ck_assert_ptr_nonnull(sc->s.w);
	synth_task(&sc->s, BPFRR_TASK_START, TID, TID, 0, 0, 0);
}

static struct bpfrr_ir *scen_translate(struct scen *sc, struct fe_trace **tp, char *err, size_t err_size)
{
	struct bpfrr_frontend_opts opts = { 0 };
	struct bpfrr_trace_reader *r;
	struct fe_trace *t;
	struct stat st;
	struct bpfrr_ir *ir;
	uint8_t *buf;

	ck_assert_int_eq(sc->s.err, 0);
	ck_assert_int_eq(bpfrr_trace_close(sc->s.w, 0, 0), 0);
	ck_assert_int_eq(fstat(sc->memfd, &st), 0);
	buf = malloc((size_t)st.st_size);
	ck_assert_int_eq(pread(sc->memfd, buf, (size_t)st.st_size, 0), st.st_size);
	close(sc->memfd);
	sc->bytes = buf;
	r = bpfrr_trace_open_mem(buf, (size_t)st.st_size, "core.trace", 0, NULL);
	ck_assert_ptr_nonnull(r);
	t = fe_load(r, err, err_size);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(fe_pass_fdlife(t, err, err_size), 0);
	ck_assert_int_eq(fe_pass_select(t, &opts, err, err_size), 0);
	ir = fe_pass_reloc(t, &opts, err, err_size);
	*tp = t;
	return ir;
}

static void scen_free(struct scen *sc, struct fe_trace *t)
{
	struct bpfrr_trace_reader *r = t->r;

	fe_free(t);
	bpfrr_trace_reader_close(r);
	free(sc->bytes);
}

#define PROG_FD		5
#define BTF_FD		4
#define PAD_INSNS	3	/* a main program before the object's function: the subprogram case */

/*
 * BTF_LOAD of btf (the object's, or changed), PROG_LOAD of insns with
 * func_info { (0, 0: not the object's), (PAD_INSNS, on_getpid) }, an ELF
 * record of the object if with_elf; then a link keeps the program alive.
 */
static void core_trace(struct scen *sc, const void *btf, uint32_t btf_len, const uint8_t *insns, uint32_t nr,
		       uint32_t func_id, bool with_elf)
{
	struct bpfrr_trace_region regs[2];
	uint32_t func_info[4] = { 0, 0, PAD_INSNS, func_id };
	union bpf_attr a;
	uint64_t seq;

	if (with_elf) {
		struct bpfrr_rec_elf e = {
			.tid = TID, .flags = BPFRR_ELF_F_EMBEDDED, .offset = 0x2040, .path = "/usr/bin/loader",
		};

		e.blob = synth_blob(&sc->s, obj_bytes, obj_len);
		synth_check(&sc->s, bpfrr_trace_write_elf(sc->s.w, &e));
	}
	memset(&a, 0, sizeof(a));
	a.btf = 0x10000;
	a.btf_size = btf_len;
	regs[0] = synth_region(&sc->s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_BTF, "attr.btf", 0x10000, btf,
			       btf_len);
	seq = synth_bpf(&sc->s, TID, BPF_BTF_LOAD, &a, 32, NULL, regs, 1, BTF_FD);
	synth_fd(&sc->s, seq, TID, BPFRR_FD_NEW, BTF_FD, BPFRR_OBJ_BTF, seq);

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_TRACEPOINT;
	a.insn_cnt = nr;
	a.insns = 0x20000;
	a.license = 0;
	a.prog_btf_fd = BTF_FD;
	a.func_info_rec_size = 8;
	a.func_info = 0x30000;
	a.func_info_cnt = 2;
	snprintf(a.prog_name, sizeof(a.prog_name), "on_getpid");
	regs[0] = synth_region(&sc->s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_INSNS, "attr.insns", 0x20000,
			       insns, nr * 8);
	regs[1] = synth_region(&sc->s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_FUNC_INFO, "attr.func_info",
			       0x30000, func_info, sizeof(func_info));
	/* libbpf 1.1's attr size: up to fd_array, without core_relos */
	seq = synth_bpf(&sc->s, TID, BPF_PROG_LOAD, &a, 128, NULL, regs, 2, PROG_FD);
	synth_fd(&sc->s, seq, TID, BPFRR_FD_NEW, PROG_FD, BPFRR_OBJ_PROG, seq);
}

/* The object's function as libbpf relocated it for some kernel: every CO-RE place changed. */
static uint8_t *relocated_insns(const struct fe_core_obj *o, uint32_t *nr)
{
	uint32_t n = PAD_INSNS + o->secs[0].size / 8, i;
	uint8_t *insns = calloc(n, 8);

	for (i = 0; i < PAD_INSNS; i++)
		insns[i * 8] = 0xb7;	/* r0 = 0 */
	memcpy(insns + PAD_INSNS * 8, o->secs[0].insns, o->secs[0].size);
	for (i = 0; i < o->nr_relos; i++) {
		uint8_t *p = insns + PAD_INSNS * 8 + o->relos[i].insn_off;

		if (i == 1) {	/* a failed relocation: libbpf's poison */
			memset(p, 0, 8);
			p[0] = 0x85;
			memcpy(p + 4, &(int32_t){ 195896080 }, 4);
		} else {
			p[4] += 0x40;	/* another offset */
		}
	}
	*nr = n;
	return insns;
}

static const struct bpfrr_ir_buf *buf_at(const struct bpfrr_ir_call *c, const char *path)
{
	uint32_t i;

	for (i = 0; i < c->nr_bufs; i++)
		if (!strcmp(c->bufs[i].path, path))
			return &c->bufs[i];
	return NULL;
}

static const struct bpfrr_ir_call *prog_load(const struct bpfrr_ir *ir)
{
	uint32_t i;

	for (i = 0; i < ir->nr_calls; i++)
		if (ir->calls[i].cmd == BPF_PROG_LOAD)
			return &ir->calls[i];
	ck_abort_msg("no PROG_LOAD in the IR");
	return NULL;
}

START_TEST(pass_restores_and_hands_over)
{
	struct fe_core_obj o;
	struct fe_trace *t;
	struct bpfrr_ir *ir;
	const struct bpfrr_ir_call *c;
	const struct bpfrr_ir_buf *b;
	struct scen sc;
	uint8_t *insns;
	uint32_t nr, i, v;
	char err[300] = "";

	ck_assert_int_eq(fe_core_parse(obj_bytes, obj_len, &o, err, sizeof(err)), 0);
	insns = relocated_insns(&o, &nr);
	scen_begin(&sc);
	core_trace(&sc, o.btf, o.btf_len, insns, nr, func_type_id(&o), true);
	ir = scen_translate(&sc, &t, err, sizeof(err));
	ck_assert_msg(ir, "%s", err);
	c = prog_load(ir);
	ck_assert(!(c->flags & BPFRR_IR_CALL_BUILD_BOUND));
	b = buf_at(c, "attr.insns");
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(b->len, nr * 8);
	ck_assert_mem_eq(b->data, insns, PAD_INSNS * 8);
	ck_assert_mem_eq(b->data + PAD_INSNS * 8, o.secs[0].insns, o.secs[0].size);	/* the compiler's */
	b = buf_at(c, "attr.core_relos");
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(b->content, BPFRR_CONTENT_CORE_RELOS);
	ck_assert_uint_eq(b->len, o.nr_relos * 16);
	ck_assert_uint_ge(c->attr_size, offsetof(union bpf_attr, core_relo_rec_size) + 4);
	memcpy(&v, c->attr + offsetof(union bpf_attr, core_relo_cnt), 4);
	ck_assert_uint_eq(v, o.nr_relos);
	memcpy(&v, c->attr + offsetof(union bpf_attr, core_relo_rec_size), 4);
	ck_assert_uint_eq(v, 16);
	for (i = 0; i < o.nr_relos; i++) {
		uint32_t rec[4];

		memcpy(rec, b->data + i * 16, 16);
		ck_assert_uint_eq(rec[0], PAD_INSNS * 8 + o.relos[i].insn_off);	/* loaded byte offset */
		ck_assert_uint_eq(rec[1], o.relos[i].type_id);
		ck_assert_uint_eq(rec[2], o.relos[i].access_str_off);
		ck_assert_uint_eq(rec[3], o.relos[i].kind);
	}
	ck_assert_ptr_nonnull(fe_call_by_seq(t, 2)->core_note);
	ck_assert_msg(strstr(fe_call_by_seq(t, 2)->core_note, "relocations from /usr/bin/loader (embedded at 0x2040) "
				"re-done by the target kernel"), "%s", fe_call_by_seq(t, 2)->core_note);
	bpfrr_ir_free(ir);
	scen_free(&sc, t);
	free(insns);
	fe_core_obj_free(&o);
}
END_TEST

START_TEST(pass_without_the_object_is_build_bound)
{
	struct fe_core_obj o;
	struct fe_trace *t;
	struct bpfrr_ir *ir;
	const struct bpfrr_ir_call *c;
	struct scen sc;
	uint8_t *insns;
	uint32_t nr;
	char err[300] = "";

	ck_assert_int_eq(fe_core_parse(obj_bytes, obj_len, &o, err, sizeof(err)), 0);
	insns = relocated_insns(&o, &nr);
	scen_begin(&sc);
	core_trace(&sc, o.btf, o.btf_len, insns, nr, func_type_id(&o), false);
	ir = scen_translate(&sc, &t, err, sizeof(err));
	ck_assert_msg(ir, "%s", err);
	c = prog_load(ir);
	ck_assert(c->flags & BPFRR_IR_CALL_BUILD_BOUND);
	ck_assert_ptr_null(buf_at(c, "attr.core_relos"));
	ck_assert_mem_eq(buf_at(c, "attr.insns")->data, insns, nr * 8);	/* as recorded */
	ck_assert_str_eq(c->bound_why, "CO-RE: the BPF object of prog.on_getpid was not captured; its field "
			 "offsets are the recording kernel's");
	bpfrr_ir_free(ir);
	scen_free(&sc, t);

	/* the object is there, but the load is not its function: a register differs */
	insns[(PAD_INSNS + 8) * 8 + 1] ^= 0x02;
	scen_begin(&sc);
	core_trace(&sc, o.btf, o.btf_len, insns, nr, func_type_id(&o), true);
	ir = scen_translate(&sc, &t, err, sizeof(err));
	ck_assert_msg(ir, "%s", err);
	c = prog_load(ir);
	ck_assert(c->flags & BPFRR_IR_CALL_BUILD_BOUND);
	ck_assert_ptr_null(buf_at(c, "attr.core_relos"));
	ck_assert_mem_eq(buf_at(c, "attr.insns")->data, insns, nr * 8);	/* nothing restored */
	ck_assert_msg(strstr(c->bound_why, "does not fit prog.on_getpid (loaded instruction 11 is not the "
			     "object's instruction at 8"), "%s", c->bound_why);
	bpfrr_ir_free(ir);
	scen_free(&sc, t);

	/* one instruction too few: the function's length differs */
	scen_begin(&sc);
	core_trace(&sc, o.btf, o.btf_len, insns, nr - 1, func_type_id(&o), true);
	ir = scen_translate(&sc, &t, err, sizeof(err));
	ck_assert_msg(ir, "%s", err);
	ck_assert(prog_load(ir)->flags & BPFRR_IR_CALL_BUILD_BOUND);
	bpfrr_ir_free(ir);
	scen_free(&sc, t);
	free(insns);
	fe_core_obj_free(&o);
}
END_TEST

static Suite *core_suite(void)
{
	Suite *s = suite_create("translate_core");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, parses_the_fixture);
	tcase_add_test(tc, btf_match);
	tcase_add_test(tc, access_strings);
	tcase_add_test(tc, corrupt_objects);
	tcase_add_test(tc, pass_restores_and_hands_over);
	tcase_add_test(tc, pass_without_the_object_is_build_bound);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(core_suite());
	int failed;

	load_object();
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

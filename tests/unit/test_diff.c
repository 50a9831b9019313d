// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfrr diff on two synthetic loads (tests/data/synth_trace.h's writer) that
 * differ in what a reviewer wants named: one instruction (a unified diff of
 * the disassembly, the map by name), one .rodata variable (by its name in
 * the BTF DATASEC), one struct of the BTF (by type name), one attr field, a
 * map only in B; and what must not count: fd numbers (B's objects have other
 * fds) and kernel ids.  Host only, no bpf().
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpfrr.h"
#include "../../recorder/diff.h"
#pragma GCC diagnostic ignored "-Wunused-function"	/* the writer's other traces */
#include "../data/synth_trace.h"
#include "trace.h"

/* BPF_MAP_CREATE's map_token_fd (6.9), past what the build's <linux/bpf.h> may know */
#define MAP_TOKEN_FD_OFFSET	76

struct variant {
	int fd0;		/* B's fds start elsewhere: fds are not compared */
	bool wide_struct;	/* struct config gets a second member */
	uint32_t pid;		/* the .rodata variable targ_pid */
	int32_t imm;		/* insn 6's r0 = imm */
	uint32_t max_entries;	/* of map 'counts' */
	bool extra_map;
	bool token_junk;	/* map 'counts': map_token_fd holds a live fd, BPF_F_TOKEN_FD unset */
};

/* BTF: int; struct config { int a; [int b;] }; var targ_pid: int; var cfg: struct config; DATASEC .rodata */
static void *make_btf(const struct variant *v, uint32_t *size, uint32_t *datasec_id)
{
	struct btf *btf = btf__new_empty();
	const void *raw;
	void *copy;
	int i_int, s, v1, v2;

	ck_assert_ptr_nonnull(btf);
	i_int = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	s = btf__add_struct(btf, "config", v->wide_struct ? 8 : 4);
	btf__add_field(btf, "a", i_int, 0, 0);
	if (v->wide_struct)
		btf__add_field(btf, "b", i_int, 32, 0);
	v1 = btf__add_var(btf, "targ_pid", BTF_VAR_GLOBAL_ALLOCATED, i_int);
	v2 = btf__add_var(btf, "cfg", BTF_VAR_GLOBAL_ALLOCATED, s);
	*datasec_id = btf__add_datasec(btf, ".rodata", 12);
	btf__add_datasec_var_info(btf, v1, 0, 4);
	btf__add_datasec_var_info(btf, v2, 4, 8);
	raw = btf__raw_data(btf, size);
	copy = malloc(*size);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, raw, *size);
	btf__free(btf);
	return copy;
}

static void write_load(const char *path, const struct variant *v)
{
	struct bpfrr_trace_header h = {
		.arch = 62, .nr_cpus = 1, .page_size = 4096, .start_monotonic_ns = SYNTH_T0,
		.recorder_pid = 99, .tracee_pid = 100, .arch_name = "x86_64", .kernel_release = "6.12.0-bpfrr",
		.kernel_version = "#1", .recorder_version = "bpfrr 0.1.0",
	};
	struct synth s = { .now = SYNTH_T0 };
	struct bpfrr_trace_region regs[2];
	struct bpf_insn insns[8];
	uint8_t rodata[12] = { 0 };
	uint32_t btf_size, datasec, key = 0;
	uint64_t seq;
	union bpf_attr a;
	void *btf;
	int fd = v->fd0;

	s.w = bpfrr_trace_create(path, &h);
	ck_assert_ptr_nonnull(s.w);
	synth_task(&s, BPFRR_TASK_START, 100, 100, 0, 0, 0);

	btf = make_btf(v, &btf_size, &datasec);
	memset(&a, 0, sizeof(a));
	a.btf = 0x10000;
	a.btf_size = btf_size;
	regs[0] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_BTF, "attr.btf", 0x10000, btf,
			       btf_size);
	seq = synth_bpf(&s, 100, BPF_BTF_LOAD, &a, 32, NULL, regs, 1, fd);
	synth_fd(&s, seq, 100, BPFRR_FD_NEW, fd, BPFRR_OBJ_BTF, seq);
	free(btf);

	/* .rodata, then what the loader wrote into it */
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = 4;
	a.value_size = 12;
	a.max_entries = 1;
	a.map_flags = BPF_F_RDONLY_PROG;
	strcpy(a.map_name, "synth.rodata");
	a.btf_fd = fd;
	a.btf_value_type_id = datasec;
	seq = synth_bpf(&s, 100, BPF_MAP_CREATE, &a, 72, NULL, NULL, 0, fd + 1);
	synth_fd(&s, seq, 100, BPFRR_FD_NEW, fd + 1, BPFRR_OBJ_MAP, seq);
	memcpy(rodata, &v->pid, 4);
	rodata[4] = 7;	/* cfg.a */
	memset(&a, 0, sizeof(a));
	a.map_fd = fd + 1;
	a.key = 0x11000;
	a.value = 0x12000;
	regs[0] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_KEY, "attr.key", 0x11000, &key, 4);
	regs[1] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_VALUE, "attr.value", 0x12000,
			       rodata, sizeof(rodata));
	synth_bpf(&s, 100, BPF_MAP_UPDATE_ELEM, &a, 32, NULL, regs, 2, 0);

	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_HASH;
	a.key_size = 4;
	a.value_size = 8;
	a.max_entries = v->max_entries;
	strcpy(a.map_name, "counts");
	if (v->token_junk) {
		int32_t junk = fd;	/* the BTF's fd, in bytes the kernel reads as no fd */

		memcpy((char *)&a + MAP_TOKEN_FD_OFFSET, &junk, sizeof(junk));
	}
	seq = synth_bpf(&s, 100, BPF_MAP_CREATE, &a, 80, NULL, NULL, 0, fd + 2);
	synth_fd(&s, seq, 100, BPFRR_FD_NEW, fd + 2, BPFRR_OBJ_MAP, seq);
	if (v->extra_map) {
		strcpy(a.map_name, "extra");
		seq = synth_bpf(&s, 100, BPF_MAP_CREATE, &a, 72, NULL, NULL, 0, fd + 9);
		synth_fd(&s, seq, 100, BPFRR_FD_NEW, fd + 9, BPFRR_OBJ_MAP, seq);
	}

	synth_insns(insns, fd + 2);
	insns[6].imm = v->imm;
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_KPROBE;
	a.insn_cnt = 8;
	a.insns = 0x20000;
	a.license = 0x21000;
	strcpy(a.prog_name, "count_opens");
	regs[0] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_INSNS, "attr.insns", 0x20000,
			       insns, sizeof(insns));
	regs[1] = synth_region(&s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_STRING, "attr.license", 0x21000,
			       "GPL", 4);
	seq = synth_bpf(&s, 100, BPF_PROG_LOAD, &a, 128, NULL, regs, 2, fd + 3);
	synth_fd(&s, seq, 100, BPFRR_FD_NEW, fd + 3, BPFRR_OBJ_PROG, seq);
	synth_object(&s, &(struct bpfrr_rec_object){ .seq = seq, .tid = 100, .fd = fd + 3, .kind = BPFRR_OBJ_PROG,
						     .id = (uint32_t)(40 + fd), .type = BPF_PROG_TYPE_KPROBE,
						     .name = "count_opens" });
	ck_assert_int_eq(s.err, 0);
	ck_assert_int_eq(bpfrr_trace_close(s.w, 0, 0), 0);
}

static const struct variant base = { .fd0 = 3, .pid = 1, .imm = 0, .max_entries = 64 };

/* bpfrr diff of variants x and y: its exit status, and its output in *out (to free) */
static int diff_of(const struct variant *x, const struct variant *y, bool json, char **out)
{
	char pa[] = "/tmp/bpfrr-diff-a-XXXXXX", pb[] = "/tmp/bpfrr-diff-b-XXXXXX";
	struct bpfrr_diff_opts o = { .json = json };
	size_t len = 0;
	FILE *f, *err;
	int rc;

	close(mkstemp(pa));
	close(mkstemp(pb));
	write_load(pa, x);
	write_load(pb, y);
	f = open_memstream(out, &len);
	err = fopen("/dev/null", "w");
	ck_assert_ptr_nonnull(f);
	rc = bpfrr_diff_files(pa, pb, &o, f, err);
	fclose(f);
	fclose(err);
	unlink(pa);
	unlink(pb);
	return rc;
}

/* Other fds and kernel ids, the same load: "same". */
START_TEST(fds_and_ids_do_not_count)
{
	struct variant y = base;
	char *out;

	y.fd0 = 11;
	ck_assert_int_eq(diff_of(&base, &y, false, &out), BPFRR_EXIT_OK);
	ck_assert_msg(strstr(out, "\nsame: 4 objects and calls match\n"), "%s", out);
	free(out);
}
END_TEST

/*
 * A gated fd field whose flag is not set holds no fd the kernel reads: its
 * bytes are not compared as an object (map_token_fd without BPF_F_TOKEN_FD).
 */
START_TEST(gated_fd_is_no_object)
{
	struct variant y = base;
	char *out;

	y.token_junk = true;
	ck_assert_int_eq(diff_of(&base, &y, false, &out), BPFRR_EXIT_OK);
	ck_assert_msg(strstr(out, "\nsame: 4 objects and calls match\n"), "%s", out);
	free(out);
}
END_TEST

START_TEST(what_changed_is_named)
{
	struct variant y = { .fd0 = 20, .wide_struct = true, .pid = 4242, .imm = 1, .max_entries = 128,
			     .extra_map = true };
	char *out;

	ck_assert_int_eq(diff_of(&base, &y, false, &out), 1);
	/* the instruction, in a unified diff, with the map by name */
	ck_assert_msg(strstr(out, "~ prog kprobe 'count_opens' (#5 / #6)\n  insns:\n    @@ -3,5 +3,5 @@\n"
				  "     r2 += -4\n"),
		      "%s", out);
	ck_assert_msg(strstr(out, "    -r0 = 0\n    +r0 = 1\n"), "%s", out);
	ck_assert_msg(strstr(out, "     r1 = map[map hash 'counts'] ll\n") == NULL, "%s", out);	/* context is 3 lines */
	/* the .rodata variable by name; cfg did not change */
	ck_assert_msg(strstr(out, "~ map array 'synth.rodata' (#2 / #2)\n  values:\n    targ_pid:\n"
				  "      - 1 (0x1)\n      + 4242 (0x1092)\n"),
		      "%s", out);
	ck_assert_msg(!strstr(out, "cfg:"), "%s", out);
	/* the BTF by type name */
	ck_assert_msg(strstr(out, "~ btf of map array 'synth.rodata' (#1 / #1)\n"), "%s", out);
	ck_assert_msg(strstr(out, "\n  btf:\n    btf types changed:\n"
				  "      struct config\n        - 4 bytes { int a @0; }\n"
				  "        + 8 bytes { int a @0; int b @32; }\n"),
		      "%s", out);
	/* an attr field, and an object only in B */
	ck_assert_msg(strstr(out, "~ map hash 'counts' (#4 / #4)\n  fields:\n    attr.max_entries:\n"
				  "      - 64\n      + 128\n"),
		      "%s", out);
	ck_assert_msg(strstr(out, "+ only in B: map hash 'extra' (#5)\n"), "%s", out);
	ck_assert_msg(strstr(out, "different: 4 changed, 0 only in A, 1 only in B, 0 the same\n"), "%s", out);
	free(out);

	ck_assert_int_eq(diff_of(&base, &y, true, &out), 1);
	ck_assert_msg(strstr(out, "\"values\":[{\"name\":\"targ_pid\",\"a\":\"1 (0x1)\",\"b\":\"4242 (0x1092)\"}]"),
		      "%s", out);
	ck_assert_msg(strstr(out, "\"insns\":[\"@@ -3,5 +3,5 @@\""), "%s", out);
	ck_assert_msg(strstr(out, "\"btf\":{\"changed\":[\"struct config\"]}"), "%s", out);
	ck_assert_msg(strstr(out, "{\"status\":\"only_b\",\"key\":\"map hash 'extra'\",\"seq_b\":5}"), "%s", out);
	ck_assert_msg(strstr(out, "\"same\":false,\"counts\":{\"same\":0,\"changed\":4,\"only_a\":0,\"only_b\":1}}\n"),
		      "%s", out);
	free(out);
}
END_TEST

static Suite *diff_suite(void)
{
	Suite *s = suite_create("diff");
	TCase *tc = tcase_create("diff");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, fds_and_ids_do_not_count);
	tcase_add_test(tc, what_changed_is_named);
	tcase_add_test(tc, gated_fd_is_no_object);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(diff_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

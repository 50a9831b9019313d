// SPDX-License-Identifier: GPL-2.0-only
/*
 * The replayer's view of the running kernel (replayer/runtime/kernel_build.h):
 * its build identity against an IR's, BTF ids and kallsyms addresses by name.
 * On the host's own kernel: file reads only (/sys/kernel/btf/vmlinux,
 * /proc/kallsyms), no bpf().  Where the host lacks a file the comparison is
 * skipped and says so.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "header_runtime.h"
#include "ir.h"
#include "kernel_build.h"

static struct bpfrr_ir_resolve btf_res(const char *name, uint32_t btf_kind)
{
	return (struct bpfrr_ir_resolve){ .kind = BPFRR_IR_RESOLVE_BTF_ID, .size = 4, .name = (char *)name,
					  .buf = BPFRR_IR_IN_ATTR, .module = "", .btf_kind = btf_kind };
}

START_TEST(same_build)
{
	struct bpfrr_kernel_build b;
	struct bpfrr_ir *ir = bpfrr_ir_new();
	struct utsname u;

	ck_assert_int_eq(bpfrr_kernel_build_running(&b), 0);
	ck_assert_int_eq(uname(&u), 0);
	ck_assert_str_eq(b.release, u.release);
	/* a bundle that does not know its build is never "the same" */
	ck_assert(!bpfrr_rt_same_build(ir));
	ck_assert_int_eq(bpfrr_ir_set_kernel(ir, b.release, b.machine, b.btf_size, b.btf_sha256), 0);
	ck_assert(bpfrr_rt_same_build(ir));
	ir->kernel.btf_sha256[31] ^= 1;
	ck_assert(!bpfrr_rt_same_build(ir));
	ir->kernel.btf_sha256[31] ^= 1;
	ir->kernel.btf_size++;
	ck_assert(!bpfrr_rt_same_build(ir));
	ir->kernel.btf_size--;
	ck_assert_int_eq(bpfrr_ir_set_kernel(ir, "6.12.0-elsewhere", b.machine, b.btf_size, b.btf_sha256), 0);
	ck_assert(!bpfrr_rt_same_build(ir));

	/* named by its build id only (the BTF not hashed), as the recorder writes it now */
	ck_assert_int_eq(bpfrr_ir_set_kernel(ir, b.release, b.machine, b.btf_size, (uint8_t[32]){ 0 }), 0);
	ck_assert_int_eq(bpfrr_ir_set_kernel_build_id(ir, b.build_id, BPFRR_IR_KERNEL_BTF_UNHASHED), 0);
	if (b.build_id[0]) {
		ck_assert(bpfrr_rt_same_build(ir));
		ir->kernel.build_id[0] ^= 1;
		ck_assert(!bpfrr_rt_same_build(ir));
	} else {
		/* this host has no /sys/kernel/notes build id: undecided, so not the same */
		ck_assert(!bpfrr_rt_same_build(ir));
		fprintf(stderr, "same_build: no build id on this host, build id comparison skipped\n");
	}
	bpfrr_ir_free(ir);
}
END_TEST

/*
 * The running kernel's BTF is hashed only when the build ids cannot decide
 * (kernel_build.h): a bundle named by its build id costs no hash, one
 * named by release and hash (no build id) has the running BTF hashed.
 * Each check test runs in its own process: the identity starts unread.
 */
START_TEST(hash_only_when_needed)
{
	const struct bpfrr_kernel_build *cur;
	struct bpfrr_kernel_build b;
	struct bpfrr_ir *ir = bpfrr_ir_new();

	ck_assert_int_eq(bpfrr_kernel_build_running(&b), 0);
	ck_assert(b.btf_hashed);
	ck_assert_int_eq(bpfrr_kernel_build_current(&cur), 0);
	ck_assert(!cur->btf_hashed);
	ck_assert_str_eq(cur->release, b.release);
	ck_assert_str_eq(cur->build_id, b.build_id);
	ck_assert_uint_eq(cur->btf_size, b.btf_size);	/* by stat(2): the bytes the hash read */
	if (b.build_id[0]) {
		ck_assert_int_eq(bpfrr_ir_set_kernel(ir, b.release, b.machine, b.btf_size, (uint8_t[32]){ 0 }), 0);
		ck_assert_int_eq(bpfrr_ir_set_kernel_build_id(ir, b.build_id, BPFRR_IR_KERNEL_BTF_UNHASHED), 0);
		ck_assert(bpfrr_rt_same_build(ir));
		ck_assert(!cur->btf_hashed);
	}
	bpfrr_ir_free(ir);
	ir = bpfrr_ir_new();
	ck_assert_int_eq(bpfrr_ir_set_kernel(ir, b.release, b.machine, b.btf_size, b.btf_sha256), 0);
	ck_assert(bpfrr_rt_same_build(ir));
	ck_assert(cur->btf_hashed);	/* a bundle without build id: only the hashes decide */
	bpfrr_ir_free(ir);
}
END_TEST

/* lib/kernel_id.h: the build ids decide when both sides have one, else the BTF hashes */
START_TEST(build_match)
{
	static const uint8_t sha_a[32] = { 1 }, sha_b[32] = { 2 };
	struct bpfrr_kernel_ident a = { "6.12.0", "aa11", 100, sha_a }, b = a;

	ck_assert_int_eq(bpfrr_kernel_build_match(&a, &b), BPFRR_BUILD_SAME);
	b.release = "6.12.1";
	ck_assert_int_eq(bpfrr_kernel_build_match(&a, &b), BPFRR_BUILD_OTHER);
	b.release = a.release;
	b.btf_sha256 = sha_b;			/* same build id: the hash is not asked */
	ck_assert_int_eq(bpfrr_kernel_build_match(&a, &b), BPFRR_BUILD_SAME);
	b.build_id = "aa12";
	b.btf_sha256 = sha_a;
	ck_assert_int_eq(bpfrr_kernel_build_match(&a, &b), BPFRR_BUILD_OTHER);
	b.build_id = "";			/* one without: the hashes */
	ck_assert_int_eq(bpfrr_kernel_build_match(&a, &b), BPFRR_BUILD_SAME);
	b.btf_size = 101;
	ck_assert_int_eq(bpfrr_kernel_build_match(&a, &b), BPFRR_BUILD_OTHER);
	b.btf_size = 100;
	a.btf_sha256 = NULL;			/* a build id only against a hash only */
	ck_assert_int_eq(bpfrr_kernel_build_match(&a, &b), BPFRR_BUILD_UNDECIDED);
	b.release = NULL;
	ck_assert_int_eq(bpfrr_kernel_build_match(&a, &b), BPFRR_BUILD_OTHER);
}
END_TEST

START_TEST(arch_names)
{
	const char *name = NULL;
	uint32_t arch = bpfrr_kernel_machine_arch(&name);

	ck_assert_ptr_nonnull(name);
	if (!strcmp(name, "x86_64"))
		ck_assert_uint_eq(arch, 62);
	ck_assert_str_eq(bpfrr_arch_name(62), "x86_64");
	ck_assert_str_eq(bpfrr_arch_name(183), "aarch64");
	ck_assert_ptr_null(bpfrr_arch_name(3));
}
END_TEST

START_TEST(btf_ids_by_name)
{
	struct btf *btf = btf__parse_raw(BPFRR_VMLINUX_BTF);
	struct bpfrr_symbols *s = bpfrr_symbols_new();
	struct bpfrr_ir_resolve r;
	uint32_t id, n, checked = 0;
	char why[128];
	uint64_t v;

	ck_assert_ptr_nonnull(s);
	if (!btf) {
		printf("btf_ids_by_name: no readable %s on this host: not compared\n", BPFRR_VMLINUX_BTF);
		bpfrr_symbols_free(s);
		return;
	}
	/* some types of the kinds the front end emits: the id libbpf finds for the same name */
	n = btf__type_cnt(btf);
	for (id = 1; id < n; id += 211) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name = btf__name_by_offset(btf, t->name_off);

		if (!name || !name[0] || (btf_kind(t) != BTF_KIND_FUNC && btf_kind(t) != BTF_KIND_VAR &&
					  btf_kind(t) != BTF_KIND_STRUCT && btf_kind(t) != BTF_KIND_TYPEDEF))
			continue;
		r = btf_res(name, btf_kind(t));
		ck_assert_int_eq(bpfrr_symbols_resolve(s, &r, &v, why, sizeof(why)), 0);
		ck_assert_uint_eq(v, (uint64_t)btf__find_by_name_kind(btf, name, btf_kind(t)));
		checked++;
	}
	ck_assert_uint_gt(checked, 10);
	/* a name the kernel lacks, a name of another kind */
	r = btf_res("bpfrr_no_such_function", BTF_KIND_FUNC);
	ck_assert_int_eq(bpfrr_symbols_resolve(s, &r, &v, why, sizeof(why)), -ENOENT);
	ck_assert_str_eq(why, "is not in this kernel's BTF");
	r = btf_res("task_struct", BTF_KIND_FUNC);
	ck_assert_int_eq(bpfrr_symbols_resolve(s, &r, &v, why, sizeof(why)), -ENOENT);
	r = btf_res("task_struct", BTF_KIND_STRUCT);
	ck_assert_int_eq(bpfrr_symbols_resolve(s, &r, &v, why, sizeof(why)), 0);
	/* a module's id is not looked up */
	r.module = "nf_conntrack";
	ck_assert_int_eq(bpfrr_symbols_resolve(s, &r, &v, why, sizeof(why)), -EOPNOTSUPP);
	ck_assert_str_eq(why, "is in module nf_conntrack, whose BTF bpfrr does not replay");
	bpfrr_symbols_free(s);
	btf__free(btf);
}
END_TEST

/* The first address of name in /proc/kallsyms (vmlinux), by a plain scan; 0 if none. */
static uint64_t kallsyms_first(const char *name)
{
	FILE *f = fopen(BPFRR_KALLSYMS, "re");
	char line[512], sym[256], type;
	unsigned long long a;
	uint64_t found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) == 3 && !strcmp(sym, name) && !strchr(line, '['))
			found = a;
	fclose(f);
	return found;
}

START_TEST(kernel_addresses_by_name)
{
	struct bpfrr_symbols *s = bpfrr_symbols_new();
	struct bpfrr_ir_resolve r = { .kind = BPFRR_IR_RESOLVE_KSYM_ADDR, .size = 8, .name = "_stext",
				      .buf = BPFRR_IR_IN_ATTR, .module = "", .addend = 0x10 };
	uint64_t v = 0, want = kallsyms_first("_stext"), rt = 0;
	char why[160];
	int ret;

	ck_assert_ptr_nonnull(s);
	ret = bpfrr_symbols_resolve(s, &r, &v, why, sizeof(why));
	if (!want) {
		printf("kernel_addresses_by_name: %s hides addresses on this host (%s): not compared\n",
		       BPFRR_KALLSYMS, ret ? why : "resolved anyway");
		ck_assert_int_ne(ret, 0);
		bpfrr_symbols_free(s);
		return;
	}
	ck_assert_msg(!ret, "%s", why);
	ck_assert_uint_eq(v, want + 0x10);
	/* the header runtime's line-by-line scan agrees */
	ck_assert_int_eq(bpfrr_rt_kallsyms_addr("_stext", "", &rt), 0);
	ck_assert_uint_eq(rt, want);
	r.name = "bpfrr_no_such_symbol";
	ck_assert_int_eq(bpfrr_symbols_resolve(s, &r, &v, why, sizeof(why)), -ENOENT);
	ck_assert_str_eq(why, "is not in /proc/kallsyms");
	ck_assert_int_eq(bpfrr_rt_kallsyms_addr("bpfrr_no_such_symbol", "", &rt), -ENOENT);
	/* in vmlinux, not in a module of that name */
	r.name = "_stext";
	r.module = "bpfrr_no_such_module";
	ck_assert_int_eq(bpfrr_symbols_resolve(s, &r, &v, why, sizeof(why)), -ENOENT);
	bpfrr_symbols_free(s);
}
END_TEST

static Suite *symbols_suite(void)
{
	Suite *s = suite_create("replay_symbols");
	TCase *tc = tcase_create("symbols");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, same_build);
	tcase_add_test(tc, hash_only_when_needed);
	tcase_add_test(tc, build_match);
	tcase_add_test(tc, arch_names);
	tcase_add_test(tc, btf_ids_by_name);
	tcase_add_test(tc, kernel_addresses_by_name);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(symbols_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

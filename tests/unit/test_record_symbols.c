// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorder's symbol table (recorder/record_symbols.h): the KERNEL
 * identity and what BTF ids, tracepoint ids, PMU types and kernel
 * addresses name, read from a fake /sys and /proc built in a temp dir: a
 * vmlinux BTF and a module's split BTF written raw with libbpf, a tracefs
 * events tree, PMU type files, a kallsyms file and a notes file.  Host
 * only, no bpf().
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/btf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "../../recorder/record_symbols.h"
#include "sha256.h"

static char root[256];

static void write_file(const char *rel, const void *data, size_t len)
{
	char path[512], dir[512], *slash;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	/* mkdir -p of the parent */
	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = dir + strlen(root) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		mkdir(dir, 0755);
		*slash = '/';
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	close(fd);
}

static void write_str(const char *rel, const char *s)
{
	write_file(rel, s, strlen(s));
}

/* ids of the fake vmlinux and module BTF */
static int id_int, id_task, id_vfs_read_proto, id_vfs_read, id_var, id_anon;
static int id_mod_func;
static int id_ops_value, id_ops;	/* a struct_ops value type and its ops struct */
static uint8_t vmlinux_sha[32];
static uint32_t vmlinux_size;

static void make_btf(void)
{
	struct btf *btf = btf__new_empty(), *mod;
	const void *raw;
	uint32_t size;

	ck_assert_ptr_nonnull(btf);
	id_int = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	id_task = btf__add_struct(btf, "task_struct", 4);
	btf__add_field(btf, "pid", id_int, 0, 0);
	id_vfs_read_proto = btf__add_func_proto(btf, id_int);
	id_vfs_read = btf__add_func(btf, "vfs_read", BTF_FUNC_GLOBAL, id_vfs_read_proto);
	id_var = btf__add_var(btf, "bpf_prog_active", BTF_VAR_GLOBAL_ALLOCATED, id_int);
	id_anon = btf__add_struct(btf, NULL, 4);	/* an anonymous struct: no name to give */
	btf__add_field(btf, "x", id_int, 0, 0);
	ck_assert_int_gt(id_anon, 0);
	{
		/* struct fx_ops { int (*init)(void); int flags; fn_t release; int name;
		 *                 int (*const cb)(void); };  (fn_t: a typedef of a function pointer)
		 * struct bpf_struct_ops_fx_ops { struct bpf_struct_ops_common_value common;
		 *                                struct fx_ops data;  (at 64, cacheline-aligned) }; */
		int fptr = btf__add_ptr(btf, id_vfs_read_proto);
		int fn_t = btf__add_typedef(btf, "fn_t", fptr);
		int cfptr = btf__add_const(btf, fptr);
		int common = btf__add_struct(btf, "bpf_struct_ops_common_value", 8);

		btf__add_field(btf, "refcnt", id_int, 0, 0);
		btf__add_field(btf, "state", id_int, 32, 0);
		id_ops = btf__add_struct(btf, "fx_ops", 40);
		btf__add_field(btf, "init", fptr, 0, 0);
		btf__add_field(btf, "flags", id_int, 64, 0);
		btf__add_field(btf, "release", fn_t, 128, 0);
		btf__add_field(btf, "name", id_int, 192, 0);
		btf__add_field(btf, "cb", cfptr, 256, 0);
		id_ops_value = btf__add_struct(btf, "bpf_struct_ops_fx_ops", 104);
		btf__add_field(btf, "common", common, 0, 0);
		btf__add_field(btf, "data", id_ops, 64 * 8, 0);
		ck_assert_int_gt(id_ops_value, 0);
	}
	raw = btf__raw_data(btf, &size);
	ck_assert_ptr_nonnull(raw);
	write_file("btf/vmlinux", raw, size);
	bpfrr_sha256(raw, size, vmlinux_sha);
	vmlinux_size = size;

	mod = btf__new_empty_split(btf);
	ck_assert_ptr_nonnull(mod);
	id_mod_func = btf__add_func(mod, "nf_ct_helper", BTF_FUNC_GLOBAL, id_vfs_read_proto);
	ck_assert_int_gt(id_mod_func, id_ops_value);
	raw = btf__raw_data(mod, &size);
	write_file("btf/nf_conntrack", raw, size);
	btf__free(mod);
	btf__free(btf);
}

/* two ELF notes: an unrelated one, then the GNU build id */
static const uint8_t build_id_notes[] = {
	4, 0, 0, 0, 4, 0, 0, 0, 6, 0, 0, 0, 'X', 'e', 'n', 0, 1, 2, 3, 4,
	4, 0, 0, 0, 8, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0,
	0xde, 0xad, 0xbe, 0xef, 0x01, 0x23, 0x45, 0x67,
};

static void make_tree(void)
{
	snprintf(root, sizeof(root), "/tmp/bpfrr-symtab-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	make_btf();
	write_file("notes", build_id_notes, sizeof(build_id_notes));
	write_str("tracing/events/syscalls/sys_enter_openat/id", "585\n");
	write_str("tracing/events/syscalls/sys_exit_openat/id", "584\n");
	write_str("tracing/events/sched/sched_switch/id", "317\n");
	write_str("tracing/events/sched/enable", "0\n");
	write_str("pmus/kprobe/type", "8\n");
	write_str("pmus/uprobe/type", "9\n");
	write_str("pmus/tracepoint/type", "2\n");
	write_str("kallsyms",
		  "0000000000000000 A fixed_percpu_data\n"
		  "ffffffff81000000 T _stext\n"
		  "ffffffff81234550 T do_sys_openat2\n"
		  "ffffffff81234550 t __pfx_alias\n"
		  "ffffffff81234600 T do_sys_open\n"
		  "ffffffffc0a01000 t nf_conntrack_in\t[nf_conntrack]\n"
		  "ffffffffc0a00000 t nf_ct_init\t[nf_conntrack]\n");
}

static void rm_tree(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

static struct rec_symtab *new_symtab_hashing(bool hash_btf)
{
	char btf[300], notes[300], tracefs[300], pmus[300], kallsyms[300];
	struct rec_symtab_roots roots = { btf, notes, tracefs, pmus, kallsyms, hash_btf };
	struct rec_symtab *st;

	snprintf(btf, sizeof(btf), "%s/btf", root);
	snprintf(notes, sizeof(notes), "%s/notes", root);
	snprintf(tracefs, sizeof(tracefs), "%s/tracing", root);
	snprintf(pmus, sizeof(pmus), "%s/pmus", root);
	snprintf(kallsyms, sizeof(kallsyms), "%s/kallsyms", root);
	st = rec_symtab_new(&roots);
	ck_assert_ptr_nonnull(st);
	return st;
}

static struct rec_symtab *new_symtab(void)
{
	return new_symtab_hashing(false);
}

START_TEST(kernel_identity)
{
	struct rec_symtab *st;
	struct bpfrr_rec_kernel k;

	make_tree();
	st = new_symtab();
	rec_symtab_kernel(st, &k);
	/* a build id names the build: the BTF is sized, not hashed */
	ck_assert_uint_eq(k.flags, BPFRR_KERNEL_F_BTF_UNHASHED);
	ck_assert_uint_eq(k.btf_size, vmlinux_size);
	ck_assert_mem_eq(k.btf_sha256, (uint8_t[32]){ 0 }, 32);
	ck_assert_str_eq(k.build_id, "deadbeef01234567");
	ck_assert(k.release[0] && k.machine[0]);
	rec_symtab_free(st);

	/* asked to hash all the same */
	st = new_symtab_hashing(true);
	rec_symtab_kernel(st, &k);
	ck_assert_uint_eq(k.flags, 0);
	ck_assert_uint_eq(k.btf_size, vmlinux_size);
	ck_assert_mem_eq(k.btf_sha256, vmlinux_sha, 32);
	ck_assert_str_eq(k.build_id, "deadbeef01234567");
	rec_symtab_free(st);

	/* no build id note: the BTF is hashed */
	write_str("notes", "");
	st = new_symtab();
	rec_symtab_kernel(st, &k);
	ck_assert_uint_eq(k.flags, 0);
	ck_assert_uint_eq(k.btf_size, vmlinux_size);
	ck_assert_mem_eq(k.btf_sha256, vmlinux_sha, 32);
	ck_assert_str_eq(k.build_id, "");
	rec_symtab_free(st);

	/* no vmlinux BTF, no build id note */
	unlink(strcat(strcpy((char[300]){ 0 }, root), "/btf/vmlinux"));
	st = new_symtab();
	rec_symtab_kernel(st, &k);
	ck_assert_uint_eq(k.flags, BPFRR_KERNEL_F_NO_BTF);
	ck_assert_uint_eq(k.btf_size, 0);
	ck_assert_str_eq(k.build_id, "");
	rec_symtab_free(st);

	/* no vmlinux BTF, a build id */
	write_file("notes", build_id_notes, sizeof(build_id_notes));
	st = new_symtab();
	rec_symtab_kernel(st, &k);
	ck_assert_uint_eq(k.flags, BPFRR_KERNEL_F_NO_BTF);
	ck_assert_uint_eq(k.btf_size, 0);
	ck_assert_str_eq(k.build_id, "deadbeef01234567");
	rec_symtab_free(st);
	rm_tree();
}
END_TEST

START_TEST(btf_ids)
{
	struct bpfrr_rec_symbol s;
	struct rec_symtab *st;

	make_tree();
	st = new_symtab();
	rec_symtab_name(st, BPFRR_SYM_BTF_ID, (uint64_t)id_vfs_read, "", 0, &s);
	ck_assert_str_eq(s.name, "vfs_read");
	ck_assert_uint_eq(s.btf_kind, BTF_KIND_FUNC);
	ck_assert_str_eq(s.module, "");
	ck_assert_uint_eq(s.flags, 0);
	ck_assert_uint_eq(s.btf_obj_id, 0);	/* vmlinux's id not learned yet */
	rec_symtab_name(st, BPFRR_SYM_BTF_ID, (uint64_t)id_var, "", 0, &s);
	ck_assert_str_eq(s.name, "bpf_prog_active");
	ck_assert_uint_eq(s.btf_kind, BTF_KIND_VAR);
	rec_symtab_name(st, BPFRR_SYM_BTF_ID, (uint64_t)id_task, "", 0, &s);
	ck_assert_str_eq(s.name, "task_struct");
	ck_assert_uint_eq(s.btf_kind, BTF_KIND_STRUCT);

	/* once the identity query met vmlinux's BTF object, its id goes with the names */
	ck_assert_int_eq(rec_symtab_btf_object(st, 1, "vmlinux"), 0);
	ck_assert_int_eq(rec_symtab_btf_object(st, 40, "nf_conntrack"), 0);
	ck_assert_str_eq(rec_symtab_btf_object_name(st, 40), "nf_conntrack");
	ck_assert_ptr_null(rec_symtab_btf_object_name(st, 41));
	rec_symtab_name(st, BPFRR_SYM_BTF_ID, (uint64_t)id_vfs_read, "", 0, &s);
	ck_assert_uint_eq(s.btf_obj_id, 1);

	/* a module's id, in its split BTF */
	rec_symtab_name(st, BPFRR_SYM_BTF_ID, (uint64_t)id_mod_func, "nf_conntrack", 40, &s);
	ck_assert_str_eq(s.name, "nf_ct_helper");
	ck_assert_str_eq(s.module, "nf_conntrack");
	ck_assert_uint_eq(s.btf_obj_id, 40);
	ck_assert_uint_eq(s.btf_kind, BTF_KIND_FUNC);

	/* nothing named: an anonymous type, an id beyond the BTF, a module id asked of vmlinux,
	 * a module without BTF, a module the recorder could not learn */
	rec_symtab_name(st, BPFRR_SYM_BTF_ID, (uint64_t)id_anon, "", 0, &s);
	ck_assert_uint_eq(s.flags, BPFRR_SYM_F_UNNAMED);
	ck_assert_str_eq(s.name, "");
	ck_assert_uint_eq(s.btf_kind, BTF_KIND_STRUCT);
	rec_symtab_name(st, BPFRR_SYM_BTF_ID, 99999, "", 0, &s);
	ck_assert_uint_eq(s.flags, BPFRR_SYM_F_UNNAMED);
	rec_symtab_name(st, BPFRR_SYM_BTF_ID, (uint64_t)id_mod_func, "", 0, &s);
	ck_assert_uint_eq(s.flags, BPFRR_SYM_F_UNNAMED);
	rec_symtab_name(st, BPFRR_SYM_BTF_ID, (uint64_t)id_mod_func, "nosuchmod", 0, &s);
	ck_assert_uint_eq(s.flags, BPFRR_SYM_F_UNNAMED);
	ck_assert_str_eq(s.module, "nosuchmod");
	rec_symtab_name(st, BPFRR_SYM_BTF_ID, (uint64_t)id_mod_func, "../btf/vmlinux", 0, &s);
	ck_assert_uint_eq(s.flags, BPFRR_SYM_F_UNNAMED);
	rec_symtab_name(st, BPFRR_SYM_BTF_ID, (uint64_t)id_mod_func, NULL, 0, &s);
	ck_assert_uint_eq(s.flags, BPFRR_SYM_F_UNNAMED);
	ck_assert_str_eq(s.module, "?");
	rec_symtab_free(st);
	rm_tree();
}
END_TEST

/* where a struct_ops value holds program fds: its data's function pointers, through
 * typedefs and modifiers, as the kernel's bpf_struct_ops_map_update_elem() takes them */
START_TEST(struct_ops_value_fds)
{
	struct rec_symtab *st;
	uint32_t offs[BPFRR_SYM_VALUE_FDS_MAX];

	make_tree();
	st = new_symtab();
	ck_assert_int_eq(rec_symtab_value_fds(st, (uint64_t)id_ops_value, "", offs, BPFRR_SYM_VALUE_FDS_MAX), 3);
	ck_assert_uint_eq(offs[0], 64);		/* init */
	ck_assert_uint_eq(offs[1], 64 + 16);	/* release (fn_t) */
	ck_assert_uint_eq(offs[2], 64 + 32);	/* cb (const pointer) */
	/* more than the caller takes: not a partial answer */
	ck_assert_int_eq(rec_symtab_value_fds(st, (uint64_t)id_ops_value, "", offs, 2), -ENOENT);
	/* not a struct_ops value type: the ops struct itself, a struct without data, an int */
	ck_assert_int_eq(rec_symtab_value_fds(st, (uint64_t)id_ops, "", offs, BPFRR_SYM_VALUE_FDS_MAX), -ENOENT);
	ck_assert_int_eq(rec_symtab_value_fds(st, (uint64_t)id_task, "", offs, BPFRR_SYM_VALUE_FDS_MAX), -ENOENT);
	ck_assert_int_eq(rec_symtab_value_fds(st, (uint64_t)id_int, "", offs, BPFRR_SYM_VALUE_FDS_MAX), -ENOENT);
	ck_assert_int_eq(rec_symtab_value_fds(st, 99999, "", offs, BPFRR_SYM_VALUE_FDS_MAX), -ENOENT);
	/* a module the recorder could not learn */
	ck_assert_int_eq(rec_symtab_value_fds(st, (uint64_t)id_ops_value, NULL, offs, BPFRR_SYM_VALUE_FDS_MAX),
			 -ENOENT);
	rec_symtab_free(st);
	rm_tree();
}
END_TEST

START_TEST(tracepoints_and_pmus)
{
	struct bpfrr_rec_symbol s;
	struct rec_symtab *st;

	make_tree();
	st = new_symtab();
	rec_symtab_name(st, BPFRR_SYM_TP_ID, 585, NULL, 0, &s);
	ck_assert_str_eq(s.name, "syscalls/sys_enter_openat");
	ck_assert_uint_eq(s.flags, 0);
	ck_assert_str_eq(s.module, "");
	rec_symtab_name(st, BPFRR_SYM_TP_ID, 317, NULL, 0, &s);
	ck_assert_str_eq(s.name, "sched/sched_switch");
	rec_symtab_name(st, BPFRR_SYM_TP_ID, 0, NULL, 0, &s);	/* "enable" is no event */
	ck_assert_uint_eq(s.flags, BPFRR_SYM_F_UNNAMED);
	rec_symtab_name(st, BPFRR_SYM_TP_ID, 586, NULL, 0, &s);
	ck_assert_uint_eq(s.flags, BPFRR_SYM_F_UNNAMED);
	ck_assert_str_eq(s.name, "");
	rec_symtab_name(st, BPFRR_SYM_PMU_TYPE, 8, NULL, 0, &s);
	ck_assert_str_eq(s.name, "kprobe");
	rec_symtab_name(st, BPFRR_SYM_PMU_TYPE, 9, NULL, 0, &s);
	ck_assert_str_eq(s.name, "uprobe");
	rec_symtab_name(st, BPFRR_SYM_PMU_TYPE, 10, NULL, 0, &s);
	ck_assert_uint_eq(s.flags, BPFRR_SYM_F_UNNAMED);
	rec_symtab_free(st);
	rm_tree();
}
END_TEST

START_TEST(kallsyms)
{
	struct bpfrr_rec_symbol s;
	struct rec_symtab *st;

	make_tree();
	st = new_symtab();
	rec_symtab_name(st, BPFRR_SYM_KSYM_ADDR, 0xffffffff81234560ull, NULL, 0, &s);
	ck_assert_str_eq(s.name, "do_sys_openat2");	/* listed first of the two at its address */
	ck_assert_uint_eq(s.offset, 0x10);
	ck_assert_str_eq(s.module, "");
	ck_assert_uint_eq(s.flags, 0);
	rec_symtab_name(st, BPFRR_SYM_KSYM_ADDR, 0xffffffff81234600ull, NULL, 0, &s);
	ck_assert_str_eq(s.name, "do_sys_open");
	ck_assert_uint_eq(s.offset, 0);
	rec_symtab_name(st, BPFRR_SYM_KSYM_ADDR, 0xffffffffc0a01004ull, NULL, 0, &s);
	ck_assert_str_eq(s.name, "nf_conntrack_in");
	ck_assert_str_eq(s.module, "nf_conntrack");
	ck_assert_uint_eq(s.offset, 4);
	rec_symtab_name(st, BPFRR_SYM_KSYM_ADDR, 0xffffffffc0a00fffull, NULL, 0, &s);
	ck_assert_str_eq(s.name, "nf_ct_init");	/* modules are listed out of address order */
	/* below every symbol (the absolute one at 0 does not count) */
	rec_symtab_name(st, BPFRR_SYM_KSYM_ADDR, 0x1000, NULL, 0, &s);
	ck_assert_uint_eq(s.flags, BPFRR_SYM_F_UNNAMED);
	ck_assert_str_eq(s.name, "");
	rec_symtab_free(st);

	/* kptr_restrict: every address 0 */
	write_str("kallsyms", "0000000000000000 T _stext\n0000000000000000 T do_sys_openat2\n");
	st = new_symtab();
	rec_symtab_name(st, BPFRR_SYM_KSYM_ADDR, 0xffffffff81234560ull, NULL, 0, &s);
	ck_assert_uint_eq(s.flags, BPFRR_SYM_F_UNNAMED);
	rec_symtab_free(st);
	rm_tree();
}
END_TEST

START_TEST(first_time)
{
	struct rec_symtab *st = rec_symtab_new(NULL);
	uint64_t v;

	ck_assert_ptr_nonnull(st);
	for (v = 0; v < 3000; v++) {
		ck_assert_int_eq(rec_symtab_first(st, BPFRR_SYM_BTF_ID, v, ""), 1);
		ck_assert_int_eq(rec_symtab_first(st, BPFRR_SYM_BTF_ID, v, "mod"), 1);
		ck_assert_int_eq(rec_symtab_first(st, BPFRR_SYM_BTF_ID, v, NULL), 1);
		ck_assert_int_eq(rec_symtab_first(st, BPFRR_SYM_TP_ID, v, ""), 1);
	}
	for (v = 0; v < 3000; v++) {
		ck_assert_int_eq(rec_symtab_first(st, BPFRR_SYM_BTF_ID, v, ""), 0);
		ck_assert_int_eq(rec_symtab_first(st, BPFRR_SYM_BTF_ID, v, "mod"), 0);
		ck_assert_int_eq(rec_symtab_first(st, BPFRR_SYM_BTF_ID, v, "?"), 0);
		ck_assert_int_eq(rec_symtab_first(st, BPFRR_SYM_TP_ID, v, ""), 0);
	}
	ck_assert_int_eq(rec_symtab_first(st, BPFRR_SYM_PMU_TYPE, 8, ""), 1);
	rec_symtab_free(st);
}
END_TEST

static Suite *symtab_suite(void)
{
	Suite *s = suite_create("record_symbols");
	TCase *tc = tcase_create("symtab");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, kernel_identity);
	tcase_add_test(tc, btf_ids);
	tcase_add_test(tc, struct_ops_value_fds);
	tcase_add_test(tc, tracepoints_and_pmus);
	tcase_add_test(tc, kallsyms);
	tcase_add_test(tc, first_time);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(symtab_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorder's fd tables (fork copies, threads share, set/close/grow),
 * the /proc helpers, the kinds read from /proc fd links, and reading the
 * memory of a stopped child (process_vm_readv and /proc/PID/mem).
 * Host only, no bpf().
 */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../recorder/record.h"

START_TEST(test_set_lookup_close)
{
	struct rec_fdtab *t = rec_fdtab_new();
	struct rec_fd val = { .kind = BPFRR_OBJ_MAP, .cloexec = true, .obj_seq = 7 }, old;

	ck_assert_ptr_nonnull(t);
	ck_assert_ptr_null(rec_fdtab_lookup(t, 3));
	ck_assert_ptr_nonnull(rec_fdtab_set(t, 3, &val));
	ck_assert_int_eq(rec_fdtab_lookup(t, 3)->kind, BPFRR_OBJ_MAP);
	ck_assert_int_eq(rec_fdtab_lookup(t, 3)->obj_seq, 7);
	ck_assert(rec_fdtab_lookup(t, 3)->open);
	ck_assert_int_eq(rec_fdtab_end(t), 4);
	ck_assert(rec_fdtab_close(t, 3, &old));
	ck_assert_int_eq(old.obj_seq, 7);
	ck_assert(!rec_fdtab_close(t, 3, NULL));
	ck_assert_ptr_null(rec_fdtab_lookup(t, 3));
	ck_assert_int_eq(rec_fdtab_end(t), 0);
	/* bad numbers are refused, not crashed on */
	ck_assert_ptr_null(rec_fdtab_set(t, -1, &val));
	ck_assert_ptr_null(rec_fdtab_lookup(t, -5));
	ck_assert_ptr_null(rec_fdtab_lookup(t, 1 << 30));
	rec_fdtab_put(t);
}
END_TEST

START_TEST(test_grow)
{
	struct rec_fdtab *t = rec_fdtab_new();
	struct rec_fd val = { .kind = BPFRR_OBJ_PROG };
	int fd;

	for (fd = 0; fd < 5000; fd += 7) {
		val.obj_seq = fd;
		ck_assert_ptr_nonnull(rec_fdtab_set(t, fd, &val));
	}
	for (fd = 0; fd < 5000; fd++) {
		if (fd % 7)
			ck_assert_ptr_null(rec_fdtab_lookup(t, fd));
		else
			ck_assert_int_eq(rec_fdtab_lookup(t, fd)->obj_seq, fd);
	}
	ck_assert_int_eq(rec_fdtab_end(t), 4999 - 4999 % 7 + 1);
	rec_fdtab_put(t);
}
END_TEST

START_TEST(test_copy_and_share)
{
	struct rec_fdtab *parent = rec_fdtab_new(), *child, *thread;
	struct rec_fd val = { .kind = BPFRR_OBJ_BTF, .obj_seq = 1 };

	rec_fdtab_set(parent, 4, &val);
	child = rec_fdtab_copy(parent);		/* fork */
	thread = rec_fdtab_get(parent);		/* CLONE_FILES */
	ck_assert_ptr_eq(thread, parent);
	ck_assert_int_eq(parent->refs, 2);
	ck_assert_int_eq(rec_fdtab_lookup(child, 4)->obj_seq, 1);

	/* the child's close is its own; the thread's is the parent's */
	rec_fdtab_close(child, 4, NULL);
	ck_assert_ptr_nonnull(rec_fdtab_lookup(parent, 4));
	rec_fdtab_close(thread, 4, NULL);
	ck_assert_ptr_null(rec_fdtab_lookup(parent, 4));

	rec_fdtab_put(thread);
	ck_assert_int_eq(parent->refs, 1);
	rec_fdtab_put(parent);
	rec_fdtab_put(child);
	/* copying an empty table works too */
	parent = rec_fdtab_new();
	child = rec_fdtab_copy(parent);
	ck_assert_ptr_nonnull(child);
	ck_assert_int_eq(rec_fdtab_end(child), 0);
	rec_fdtab_put(parent);
	rec_fdtab_put(child);
}
END_TEST

START_TEST(test_kind_from_link)
{
	ck_assert_int_eq(rec_kind_from_link("anon_inode:bpf-map", -1, -1), BPFRR_OBJ_MAP);
	ck_assert_int_eq(rec_kind_from_link("anon_inode:bpf-prog", -1, -1), BPFRR_OBJ_PROG);
	ck_assert_int_eq(rec_kind_from_link("anon_inode:bpf_link", -1, -1), BPFRR_OBJ_LINK);
	ck_assert_int_eq(rec_kind_from_link("anon_inode:bpf-link", -1, -1), BPFRR_OBJ_LINK);
	ck_assert_int_eq(rec_kind_from_link("anon_inode:btf", -1, -1), BPFRR_OBJ_BTF);
	ck_assert_int_eq(rec_kind_from_link("anon_inode:[perf_event]", -1, -1), BPFRR_OBJ_PERF_EVENT);
	ck_assert_int_eq(rec_kind_from_link("socket:[1234]", -1, -1), BPFRR_OBJ_SOCKET);
	ck_assert_int_eq(rec_kind_from_link("net:[4026531840]", -1, -1), BPFRR_OBJ_NETNS);
	ck_assert_int_eq(rec_kind_from_link("/sys/fs/bpf/bpf-token", -1, -1), BPFRR_OBJ_TOKEN);
	ck_assert_int_eq(rec_kind_from_link("/dev/null", -1, -1), BPFRR_OBJ_ANY);
	ck_assert_int_eq(rec_kind_from_link(NULL, -1, -1), BPFRR_OBJ_ANY);
	/* a real fd of ours: /proc/self/fd/0 is not a cgroup */
	ck_assert_int_eq(rec_kind_from_link("/", getpid(), 0), BPFRR_OBJ_ANY);
}
END_TEST

START_TEST(test_proc_helpers)
{
	char **argv = rec_proc_cmdline(getpid());
	char *exe = rec_proc_exe(getpid());
	char *cwd = rec_proc_fd_path(getpid(), -100 /* AT_FDCWD */);
	char buf[4096];

	ck_assert_ptr_nonnull(argv);
	ck_assert_ptr_nonnull(argv[0]);
	ck_assert_ptr_nonnull(strstr(argv[0], "test_record_fdtab"));
	rec_free_argv(argv);
	ck_assert_ptr_nonnull(exe);
	ck_assert_ptr_nonnull(strstr(exe, "test_record_fdtab"));
	free(exe);
	ck_assert_ptr_nonnull(cwd);
	ck_assert_str_eq(cwd, getcwd(buf, sizeof(buf)));
	free(cwd);
	ck_assert_int_eq(rec_proc_tgid(getpid()), getpid());
	ck_assert_int_lt(rec_proc_tgid(-1), 0);
	ck_assert_ptr_null(rec_proc_cmdline(-1));
	ck_assert_uint_ge(rec_nr_possible_cpus(), 1);
}
END_TEST

static char child_secret[8192] = "the child's string";

START_TEST(test_mem_read)
{
	char buf[sizeof(child_secret)], *s;
	size_t len = 0;
	int status;
	pid_t pid;

	/* a string that crosses a page boundary, and a long buffer */
	memset(child_secret, 'x', sizeof(child_secret));
	memcpy(child_secret, "the child's string", 19);
	child_secret[sizeof(child_secret) - 1] = 0;
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		memcpy(child_secret, "changed in the child", 21);
		raise(SIGSTOP);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, WUNTRACED), pid);
	ck_assert(WIFSTOPPED(status));

	/* both ways: process_vm_readv, and /proc/PID/mem as in the guests */
	rec_mem_use_proc_only(_i == 1);
	memset(buf, 0, sizeof(buf));
	ck_assert_int_eq(rec_mem_read(pid, (uintptr_t)child_secret, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "changed in the child");
	ck_assert_int_eq(buf[100], 'x');
	s = rec_mem_read_str(pid, (uintptr_t)child_secret, 4096, &len);
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s, "changed in the child");
	ck_assert_int_eq(len, 20);
	free(s);
	s = rec_mem_read_str(pid, (uintptr_t)child_secret + 100, sizeof(child_secret), &len);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(len, sizeof(child_secret) - 101);
	free(s);
	/* no NUL within the limit */
	ck_assert_ptr_null(rec_mem_read_str(pid, (uintptr_t)child_secret + 100, 64, &len));
	ck_assert_int_eq(errno, ENAMETOOLONG);
	/* nothing mapped at address 8 */
	ck_assert_int_lt(rec_mem_read(pid, 8, buf, 16), 0);
	ck_assert_ptr_null(rec_mem_read_str(pid, 8, 64, &len));
	ck_assert_int_eq(rec_mem_read(pid, 8, buf, 0), 0);

	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	rec_mem_forget(pid);
	rec_mem_use_proc_only(false);
}
END_TEST

static Suite *fdtab_suite(void)
{
	Suite *s = suite_create("record_fdtab");
	TCase *tc = tcase_create("fdtab");

	tcase_add_test(tc, test_set_lookup_close);
	tcase_add_test(tc, test_grow);
	tcase_add_test(tc, test_copy_and_share);
	tcase_add_test(tc, test_kind_from_link);
	tcase_add_test(tc, test_proc_helpers);
	tcase_add_loop_test(tc, test_mem_read, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(fdtab_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

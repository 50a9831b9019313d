// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorder's seccomp filter, checked by its effect: a process that
 * installs it without a tracer gets ENOSYS from every call the filter
 * would stop (SCMP_ACT_TRACE with no tracer attached), while every other
 * call runs normally. bpf() itself is never called: this runs on the host.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <stdbool.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "../../recorder/record.h"

#if defined(__x86_64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

/* Run fn in a child with the filter installed; its exit status. */
static int with_filter(enum rec_opens opens, int (*fn)(void))
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int err = rec_filter_install(opens);

		if (err) {
			fprintf(stderr, "installing the filter: %s\n", strerror(-err));
			_exit(100);
		}
		_exit(fn());
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* each check: 0 if as expected, else its own number */
static int stopped(long ret, int n)
{
	return ret == -1 && errno == ENOSYS ? 0 : n;
}

static int untraced_calls_run(void)
{
	int fd;

	if (syscall(SYS_getppid) != getppid() || getppid() <= 0)
		return 1;
	if (fcntl(0, F_GETFD) < 0 && errno != EBADF)
		return 2;
	fd = open("/dev/null", O_RDONLY);	/* runs: --opens=none */
	if (fd < 0)
		return 3;
	return 0;
}

static int fd_calls_stop(void)
{
	int r;

	if ((r = stopped(close(-1), 10)))
		return r;
	if ((r = stopped(dup(0), 11)))
		return r;
	if ((r = stopped(dup3(0, 50, 0), 12)))
		return r;
	if ((r = stopped(fcntl(0, F_DUPFD, 10), 13)))
		return r;
	if ((r = stopped(fcntl(0, F_DUPFD_CLOEXEC, 10), 14)))
		return r;
	if ((r = stopped(fcntl(0, F_SETFD, FD_CLOEXEC), 15)))
		return r;
	if ((r = stopped(syscall(SYS_close_range, 1000, 1001, 0), 16)))
		return r;
	if ((r = stopped(syscall(SYS_pidfd_getfd, -1, 0, 0), 17)))
		return r;
	if ((r = stopped(syscall(SYS_perf_event_open, NULL, 0, -1, -1, 0), 18)))
		return r;
	/* fcntl commands other than duplication and F_SETFD run */
	if (fcntl(0, F_GETFL) == -1 && errno == ENOSYS)
		return 19;
	return 0;
}

static int perf_ioctls_stop(void)
{
	struct termios tio;
	int r;

	if ((r = stopped(ioctl(0, PERF_EVENT_IOC_ENABLE, 0), 20)))
		return r;
	if ((r = stopped(ioctl(0, PERF_EVENT_IOC_SET_BPF, 3), 21)))
		return r;
	if ((r = stopped(ioctl(0, PERF_EVENT_IOC_ID, NULL), 22)))
		return r;
	/* other ioctls run: ENOTTY or success, never ENOSYS */
	if (ioctl(0, TCGETS, &tio) == -1 && errno == ENOSYS)
		return 23;
	return 0;
}

static int opens_stop(void)
{
	int r;

	if ((r = stopped(open("/dev/null", O_RDONLY), 30)))
		return r;
	if ((r = stopped(openat(AT_FDCWD, "/dev/null", O_RDONLY), 31)))
		return r;
	return 0;
}

#if defined(__x86_64__)
/* getpid through the i386 ABI (int $0x80) */
static long i386_getpid(void)
{
	long ret;

	__asm__ volatile("int $0x80" : "=a"(ret) : "a"(20L) : "memory");
	return ret;
}

/*
 * Whether this kernel has the i386 ABI at all: one built without
 * CONFIG_IA32_EMULATION kills int $0x80 with SIGSEGV before any filter sees it.
 */
static bool have_i386_abi(void)
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);	/* not ASan's handler */
		_exit(i386_getpid() == getpid() ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}
#endif

static bool i386_abi;

static int foreign_abi_stops(void)
{
#if defined(__x86_64__)
	long ret;

	/* getpid through the i386 ABI: the "bad arch" action traces it */
	if (i386_abi && i386_getpid() != -ENOSYS)
		return 40;
	/* the x32 ABI (syscall numbers with bit 30) takes the same path */
	ret = syscall(0x40000000 | SYS_getpid);
	if (ret != -1 || errno != ENOSYS)
		return 41;
#endif
	return 0;
}

START_TEST(test_untraced_calls_run)
{
	ck_assert_int_eq(with_filter(REC_OPENS_NONE, untraced_calls_run), 0);
}
END_TEST

START_TEST(test_fd_calls_stop)
{
	ck_assert_int_eq(with_filter(REC_OPENS_NONE, fd_calls_stop), 0);
}
END_TEST

START_TEST(test_perf_ioctls_stop)
{
	ck_assert_int_eq(with_filter(REC_OPENS_NONE, perf_ioctls_stop), 0);
}
END_TEST

START_TEST(test_opens_stop_unless_none)
{
	ck_assert_int_eq(with_filter(REC_OPENS_BPF, opens_stop), 0);
	ck_assert_int_eq(with_filter(REC_OPENS_ALL, opens_stop), 0);
	/* with --opens=none the very same opens run */
	ck_assert_int_eq(with_filter(REC_OPENS_NONE, untraced_calls_run), 0);
}
END_TEST

START_TEST(test_foreign_abi_stops)
{
#if defined(__x86_64__)
	i386_abi = have_i386_abi();
	if (!i386_abi)
		fprintf(stderr, "# this kernel has no i386 ABI: only x32 numbers checked\n");
#endif
	ck_assert_int_eq(with_filter(REC_OPENS_NONE, foreign_abi_stops), 0);
}
END_TEST

START_TEST(test_print_filter)
{
	char path[] = "/tmp/test_record_filter.XXXXXX", buf[16384];
	int fd = mkstemp(path);
	ssize_t n;

	ck_assert_int_ge(fd, 0);
	unlink(path);
	ck_assert_int_eq(rec_filter_print(REC_OPENS_BPF, fd), 0);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	close(fd);
	ck_assert_int_gt(n, 0);
	buf[n] = 0;
	ck_assert_ptr_nonnull(strstr(buf, "\"bpf\""));
	ck_assert_ptr_nonnull(strstr(buf, "\"openat\""));
	ck_assert_ptr_nonnull(strstr(buf, "\"perf_event_open\""));
	ck_assert_ptr_nonnull(strstr(buf, "action ALLOW"));
}
END_TEST

/*
 * Every row of the table of followed calls (lib/sys_abi.h) stops, and every
 * sub-row it stops for (fcntl commands, perf ioctls), whatever the other
 * arguments: a new row is checked here without a line of its own. The
 * arguments are -1 (bad fds, bad addresses), so a call the filter let
 * through would fail harmlessly; bpf() itself is never called.
 */
static int every_row_stops(void)
{
	unsigned int id, i;
	int n = 50;

	for (id = BPFRR_SYS_NONE + 1; id < BPFRR_SYS__MAX; id++) {
		const struct bpfrr_sys_desc *d = bpfrr_sys((enum bpfrr_sys)id);
		long a[6] = { -1, -1, -1, -1, -1, -1 };
		int nr = bpfrr_sys_native_nr(d);

		if (nr < 0 || (d->flags & BPFRR_SYSF_BPF_CALL))
			continue;
		n++;
		if (d->sub_arg < 0) {
			if (stopped(syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]), n))
				return n;
			continue;
		}
		for (i = 0; i < d->nr_subs; i++) {
			if (!(d->subs[i].flags & BPFRR_SYSF_STOPS))
				continue;
			/* the upper 32 bits do not count, as for the kernel */
			a[d->sub_arg] = (long)(0xffffffff00000000ull | d->subs[i].value);
			if (stopped(syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]), n))
				return n;
		}
	}
	return 0;
}

START_TEST(test_every_row_stops)
{
	ck_assert_int_eq(with_filter(REC_OPENS_BPF, every_row_stops), 0);
}
END_TEST

/*
 * The cost of the filter for the calls it lets through: the exported
 * classic BPF run by a small interpreter of the instructions libseccomp
 * emits, counting the instructions executed.  Every call the tracee makes
 * runs the filter; the recorder's per-call overhead on unlisted calls is
 * this path (a binary tree on the number since issue 15: 18 instructions
 * for getppid on x86_64 before, 12 after; the bound fails the linear layout).
 */
struct filter_prog {
	struct sock_filter insns[1024];
	unsigned int len;
};

static void export_filter(struct filter_prog *p)
{
	char path[] = "/tmp/test_record_filter.XXXXXX";
	int fd = mkstemp(path);
	ssize_t n;

	ck_assert_int_ge(fd, 0);
	unlink(path);
	ck_assert_int_eq(rec_filter_export(REC_OPENS_BPF, fd), 0);
	n = pread(fd, p->insns, sizeof(p->insns), 0);
	close(fd);
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(n % sizeof(struct sock_filter), 0);
	p->len = (unsigned int)(n / sizeof(struct sock_filter));
}

/* The action for the call (nr, args) of the native arch; *steps the instructions run; -1 if unknown code. */
static long run_filter(const struct filter_prog *p, int nr, const uint64_t args[6], unsigned int *steps)
{
	struct seccomp_data d = { .nr = nr, .arch = NATIVE_AUDIT_ARCH };
	uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = { 0 };
	unsigned int pc = 0;

	memcpy(d.args, args, sizeof(d.args));
	*steps = 0;
	while (pc < p->len) {
		const struct sock_filter *f = &p->insns[pc++];
		bool jump;

		(*steps)++;
		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (f->k + 4 > sizeof(d) || f->k % 4)
				return -1;
			memcpy(&a, (const char *)&d + f->k, 4);
			continue;
		case BPF_LD | BPF_MEM:
			a = mem[f->k % BPF_MEMWORDS];
			continue;
		case BPF_ST:
			mem[f->k % BPF_MEMWORDS] = a;
			continue;
		case BPF_ALU | BPF_AND | BPF_K:
			a &= f->k;
			continue;
		case BPF_MISC | BPF_TAX:
			x = a;
			continue;
		case BPF_MISC | BPF_TXA:
			a = x;
			continue;
		case BPF_RET | BPF_K:
			return f->k;
		case BPF_JMP | BPF_JA:
			pc += f->k;
			continue;
		case BPF_JMP | BPF_JEQ | BPF_K: jump = a == f->k; break;
		case BPF_JMP | BPF_JGT | BPF_K: jump = a > f->k; break;
		case BPF_JMP | BPF_JGE | BPF_K: jump = a >= f->k; break;
		case BPF_JMP | BPF_JSET | BPF_K: jump = a & f->k; break;
		default:
			return -1;
		}
		pc += jump ? f->jt : f->jf;
	}
	return -1;
}

START_TEST(test_filter_path_length)
{
	static const int unlisted[] = { SYS_getppid, SYS_read, SYS_write, SYS_mmap, SYS_futex,
					SYS_clock_gettime, SYS_getpid, SYS_exit_group };
	static struct filter_prog p;
	uint64_t args[6] = { 0 };
	unsigned int i, steps, worst = 0;
	long act;

	export_filter(&p);
	for (i = 0; i < sizeof(unlisted) / sizeof(unlisted[0]); i++) {
		act = run_filter(&p, unlisted[i], args, &steps);
		ck_assert_msg(act == (long)SECCOMP_RET_ALLOW, "syscall %d: action %#lx", unlisted[i], act);
		worst = steps > worst ? steps : worst;
	}
	act = run_filter(&p, SYS_getppid, args, &steps);
	fprintf(stderr, "filter: %u instructions, getppid runs %u, the worst of %zu unlisted calls %u\n", p.len,
		steps, sizeof(unlisted) / sizeof(unlisted[0]), worst);
	ck_assert_uint_le(worst, 12);
	/* and the listed calls still stop, with their row as data */
	act = run_filter(&p, SYS_bpf, args, &steps);
	ck_assert_int_eq(act, (long)(SECCOMP_RET_TRACE | BPFRR_SYS_BPF));
	act = run_filter(&p, SYS_close, args, &steps);
	ck_assert_int_eq(act & SECCOMP_RET_ACTION_FULL, (long)SECCOMP_RET_TRACE);
	args[1] = F_DUPFD_CLOEXEC;
	act = run_filter(&p, SYS_fcntl, args, &steps);
	ck_assert_int_eq(act & SECCOMP_RET_ACTION_FULL, (long)SECCOMP_RET_TRACE);
	args[1] = F_GETFL;
	act = run_filter(&p, SYS_fcntl, args, &steps);
	ck_assert_int_eq(act, (long)SECCOMP_RET_ALLOW);
}
END_TEST

static Suite *filter_suite(void)
{
	Suite *s = suite_create("record_filter");
	TCase *tc = tcase_create("filter");

	tcase_add_test(tc, test_untraced_calls_run);
	tcase_add_test(tc, test_fd_calls_stop);
	tcase_add_test(tc, test_perf_ioctls_stop);
	tcase_add_test(tc, test_opens_stop_unless_none);
	tcase_add_test(tc, test_foreign_abi_stops);
	tcase_add_test(tc, test_print_filter);
	tcase_add_test(tc, test_every_row_stops);
	tcase_add_test(tc, test_filter_path_length);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(filter_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

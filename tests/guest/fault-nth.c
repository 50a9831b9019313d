// SPDX-License-Identifier: GPL-2.0-only
/*
 * fault-nth REPORT N CMD [ARG...]: run CMD with the kernel's fail-nth fault
 * injection (Documentation/fault-injection/fault-injection.rst) armed on it
 * from its first instruction: the Nth allocation check that the enabled
 * capabilities (failslab, fail_page_alloc) make in CMD's thread fails.
 *
 * Arming it in a shell before exec would spend the count on execve() itself,
 * so CMD is started under ptrace: it stops after its execve(), N goes into
 * /proc/PID/task/PID/fail-nth, and it runs on.  At its exit (PTRACE_EVENT_EXIT,
 * while /proc still has it) the count left says whether the fault was
 * injected; REPORT gets one line: "injected", or "not-injected USED" where
 * USED is how many checks CMD's thread made (N minus what was left), so that
 * a run with a large N measures how many points a sweep has to cover.
 *
 * Exits with CMD's status, 128 + the signal if a signal ended it, 127 if it
 * could not be run, 125 on a failure of our own.  Signals CMD gets are passed
 * on to it.  Guest only (tests/guest/replay-faults.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

static const char me[] = "fault-nth";

static int fail_nth_path(char *buf, size_t size, pid_t pid)
{
	return snprintf(buf, size, "/proc/%d/task/%d/fail-nth", (int)pid, (int)pid) >= (int)size ? -1 : 0;
}

static int write_fail_nth(pid_t pid, unsigned long n)
{
	char path[64], text[32];
	int fd, len, ok;

	if (fail_nth_path(path, sizeof(path), pid))
		return -1;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	len = snprintf(text, sizeof(text), "%lu", n);
	ok = write(fd, text, len) == len;
	close(fd);
	return ok ? 0 : -1;
}

static int read_fail_nth(pid_t pid, unsigned long *n)
{
	char path[64];
	FILE *f;
	int ok;

	if (fail_nth_path(path, sizeof(path), pid))
		return -1;
	f = fopen(path, "re");
	if (!f)
		return -1;
	ok = fscanf(f, "%lu", n) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	unsigned long n, left = 0;
	int status, have_left = 0;
	FILE *report;
	char *end;
	pid_t pid;

	if (argc < 4) {
		fprintf(stderr, "usage: %s REPORT N CMD [ARG...]\n", me);
		return 125;
	}
	errno = 0;
	n = strtoul(argv[2], &end, 10);
	if (errno || *end || !n || n > 0xffffffffUL) {
		fprintf(stderr, "%s: N '%s' is not a number from 1 to 2^32-1\n", me, argv[2]);
		return 125;
	}
	report = fopen(argv[1], "we");
	if (!report) {
		fprintf(stderr, "%s: %s: %s\n", me, argv[1], strerror(errno));
		return 125;
	}

	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "%s: fork: %s\n", me, strerror(errno));
		return 125;
	}
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(125);
		execvp(argv[3], argv + 3);
		fprintf(stderr, "%s: %s: %s\n", me, argv[3], strerror(errno));
		_exit(127);
	}

	/* The stop after a successful execve(): arm it there. */
	if (waitpid(pid, &status, 0) != pid) {
		fprintf(stderr, "%s: waitpid: %s\n", me, strerror(errno));
		return 125;
	}
	if (!WIFSTOPPED(status)) {
		fprintf(report, "not-started\n");
		fclose(report);
		return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	}
	if (write_fail_nth(pid, n) ||
	    ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)(PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL)) ||
	    ptrace(PTRACE_CONT, pid, NULL, NULL)) {
		fprintf(stderr, "%s: arming pid %d: %s\n", me, (int)pid, strerror(errno));
		kill(pid, SIGKILL);
		return 125;
	}

	for (;;) {
		int sig = 0;

		if (waitpid(pid, &status, 0) != pid) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "%s: waitpid: %s\n", me, strerror(errno));
			return 125;
		}
		if (WIFEXITED(status) || WIFSIGNALED(status))
			break;
		if (!WIFSTOPPED(status))
			continue;
		if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_EXIT << 8)))
			have_left = !read_fail_nth(pid, &left);
		else
			sig = WSTOPSIG(status);
		ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig);
	}

	if (!have_left)
		fprintf(report, "unknown\n");
	else if (!left)
		fprintf(report, "injected\n");
	else
		fprintf(report, "not-injected %lu\n", n - left);
	if (fclose(report))
		fprintf(stderr, "%s: %s: %s\n", me, argv[1], strerror(errno));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

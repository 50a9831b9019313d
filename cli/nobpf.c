// SPDX-License-Identifier: GPL-2.0-only
/*
 * nobpf: run a command with the bpf() syscall forbidden.
 *
 * bpfrr never issues bpf() against the build machine's kernel.  Host-side
 * tools that only read files (bpftool gen skeleton, ...) run under this
 * wrapper so that a tool which unexpectedly probes the kernel is caught
 * instead of quietly loading something: by default the offending process is
 * killed with SIGSYS and nobpf reports it; with --errno the call fails with
 * ENOSYS instead, for tools that probe and cope with a refusal.
 *
 *   nobpf [--errno] -- CMD [ARGS...]
 *
 * Exit status: CMD's own; 125 if nobpf itself failed; 126 if CMD was
 * stopped for calling bpf().
 */
#include <errno.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOBPF_EXIT_SELF 125
#define NOBPF_EXIT_CAUGHT 126

static int forbid_bpf(int use_errno)
{
	scmp_filter_ctx ctx;
	int err;

	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return -ENOMEM;
	err = seccomp_rule_add(ctx, use_errno ? SCMP_ACT_ERRNO(ENOSYS) : SCMP_ACT_KILL_PROCESS,
			       seccomp_syscall_resolve_name("bpf"), 0);
	if (!err)
		err = seccomp_load(ctx);
	seccomp_release(ctx);
	return err;
}

int main(int argc, char **argv)
{
	int use_errno = 0, argi = 1, status, err;
	pid_t pid;

	for (; argi < argc && argv[argi][0] == '-'; argi++) {
		if (!strcmp(argv[argi], "--")) {
			argi++;
			break;
		} else if (!strcmp(argv[argi], "--errno")) {
			use_errno = 1;
		} else if (!strcmp(argv[argi], "-h") || !strcmp(argv[argi], "--help")) {
			printf("usage: nobpf [--errno] -- CMD [ARGS...]\n"
			       "Run CMD with bpf() forbidden: a caller is killed with SIGSYS\n"
			       "(exit 126), or with --errno the call fails with ENOSYS.\n");
			return 0;
		} else {
			fprintf(stderr, "nobpf: unknown option '%s'\n", argv[argi]);
			return NOBPF_EXIT_SELF;
		}
	}
	if (argi >= argc) {
		fprintf(stderr, "nobpf: no command given (usage: nobpf [--errno] -- CMD [ARGS...])\n");
		return NOBPF_EXIT_SELF;
	}

	pid = fork();
	if (pid < 0) {
		perror("nobpf: fork");
		return NOBPF_EXIT_SELF;
	}
	if (pid == 0) {
		err = forbid_bpf(use_errno);
		if (err) {
			fprintf(stderr, "nobpf: installing the seccomp filter failed: %s\n",
				strerror(-err));
			_exit(NOBPF_EXIT_SELF);
		}
		execvp(argv[argi], argv + argi);
		fprintf(stderr, "nobpf: cannot run '%s': %s\n", argv[argi], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("nobpf: waitpid");
			return NOBPF_EXIT_SELF;
		}
	}
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS) {
		fprintf(stderr, "nobpf: '%s' called bpf() on the build machine and was stopped\n",
			argv[argi]);
		return NOBPF_EXIT_CAUGHT;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

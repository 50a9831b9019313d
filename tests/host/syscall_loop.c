// SPDX-License-Identifier: GPL-2.0-only
/*
 * syscall_loop N [--open PATH] [--mknod PATH] [--signal0]: make N cheap system calls that
 * bpfrr's recorder does not stop on (getppid), for the recorder overhead
 * benchmark and tests. The options are bench/guest/corpus.sh's triggers for
 * calls no shell command makes: --open opens PATH once with the legacy
 * open(2) where the arch has it (x86_64; arm64 has only openat; libc opens
 * with openat), for sys_enter_open; --mknod makes PATH a regular file with
 * mknod(2) and removes it (vfs_create, security_inode_create: an open with
 * O_CREAT calls the filesystem's create without them); --signal0 sends signal 0 to itself with
 * tkill(2) and tgkill(2) (busybox's kill uses kill(2)), for sys_enter_tkill
 * and sys_enter_tgkill.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr, "usage: syscall_loop N [--open PATH] [--mknod PATH] [--signal0]\n");
	return 2;
}

int main(int argc, char **argv)
{
	long i, n = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;
	const char *open_path = NULL, *mknod_path = NULL;
	int signal0 = 0;

	if (n < 0)
		return usage();
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--open") && i + 1 < argc)
			open_path = argv[++i];
		else if (!strcmp(argv[i], "--mknod") && i + 1 < argc)
			mknod_path = argv[++i];
		else if (!strcmp(argv[i], "--signal0"))
			signal0 = 1;
		else
			return usage();
	}
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	if (open_path) {
#ifdef SYS_open
		long fd = syscall(SYS_open, open_path, O_RDONLY);
#else
		long fd = syscall(SYS_openat, AT_FDCWD, open_path, O_RDONLY);
#endif
		if (fd < 0) {
			perror(open_path);
			return 1;
		}
		close((int)fd);
	}
	if (mknod_path) {
		if (mknod(mknod_path, S_IFREG | 0600, 0) || unlink(mknod_path)) {
			perror(mknod_path);
			return 1;
		}
	}
	if (signal0) {
		long tid = syscall(SYS_gettid);

		if (syscall(SYS_tkill, tid, 0) || syscall(SYS_tgkill, (long)getpid(), tid, 0)) {
			perror("syscall_loop: tkill/tgkill");
			return 1;
		}
	}
	return 0;
}

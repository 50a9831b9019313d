// SPDX-License-Identifier: GPL-2.0-only
/*
 * syscall_loop N [--open PATH]: make N cheap system calls that bpfrr's
 * recorder does not stop on (getppid), for the recorder overhead benchmark
 * and tests. With --open, also open PATH once with the legacy open(2) where
 * the arch has it (x86_64; arm64 has only openat): the corpus's trigger for
 * tools that trace sys_enter_open (opensnoop), which no shell command makes
 * (libc opens with openat).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long i, n = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;

	if (n < 0 || (argc > 2 && (argc != 4 || strcmp(argv[2], "--open")))) {
		fprintf(stderr, "usage: syscall_loop N [--open PATH]\n");
		return 2;
	}
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	if (argc == 4) {
#ifdef SYS_open
		long fd = syscall(SYS_open, argv[3], O_RDONLY);
#else
		long fd = syscall(SYS_openat, AT_FDCWD, argv[3], O_RDONLY);
#endif
		if (fd < 0) {
			perror(argv[3]);
			return 1;
		}
		close((int)fd);
	}
	return 0;
}

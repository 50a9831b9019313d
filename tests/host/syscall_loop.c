// SPDX-License-Identifier: GPL-2.0-only
/*
 * syscall_loop N: make N cheap system calls that bpfrr's recorder does not
 * stop on (getppid), for the recorder overhead benchmark and tests.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long i, n = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;

	if (n < 0) {
		fprintf(stderr, "syscall_loop: bad count '%s'\n", argv[1]);
		return 2;
	}
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}

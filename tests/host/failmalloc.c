// SPDX-License-Identifier: GPL-2.0-only
/*
 * failmalloc.so: an LD_PRELOAD library that makes one allocation fail, for
 * tests/host/oom-exit.t.
 *
 *   BPFRR_FAILMALLOC=N          the Nth allocation (1-based: malloc, calloc,
 *                               realloc, memalign, aligned_alloc, and what libc
 *                               allocates through them: strdup, asprintf,
 *                               stdio buffers) returns NULL with ENOMEM; every
 *                               other one succeeds. 0 or unset: none fails.
 *   BPFRR_FAILMALLOC_COUNT=FILE at exit, the number of allocations made is
 *                               written to FILE (to size a sweep over N).
 *
 *   BPFRR_FAILREAD=N            the Nth read(2) our code makes (not stdio's:
 *                               libc calls its own) returns -1 with ENOMEM, as
 *                               the kernel's does when it cannot allocate for it.
 *
 * One failure, not all from N on: that is what a program meets when one big
 * request is refused, and each N reaches a different error path. The real
 * allocator is glibc's, by its __libc_* names (dlsym would allocate); the real
 * read() is its __read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t align, size_t size);

void *malloc(size_t size);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t size);
void *memalign(size_t align, size_t size);
void *aligned_alloc(size_t align, size_t size);

static atomic_ulong nr_allocs;
static unsigned long fail_at;	/* 0: never */
static int configured;

static void configure(void)
{
	const char *v = getenv("BPFRR_FAILMALLOC");

	fail_at = v ? strtoul(v, NULL, 10) : 0;
	configured = 1;
}

/* true when this allocation is the one to fail */
static int fail_this(void)
{
	unsigned long n = atomic_fetch_add(&nr_allocs, 1) + 1;

	if (!configured)
		configure();
	if (fail_at && n == fail_at) {
		errno = ENOMEM;
		return 1;
	}
	return 0;
}

void *malloc(size_t size)
{
	return fail_this() ? NULL : __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	return fail_this() ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	/* realloc(p, 0) frees: not an allocation that can fail */
	if (p && !size)
		return __libc_realloc(p, size);
	return fail_this() ? NULL : __libc_realloc(p, size);
}

void *memalign(size_t align, size_t size)
{
	return fail_this() ? NULL : __libc_memalign(align, size);
}

void *aligned_alloc(size_t align, size_t size)
{
	return fail_this() ? NULL : __libc_memalign(align, size);
}

extern ssize_t __read(int fd, void *buf, size_t count);
ssize_t read(int fd, void *buf, size_t count);

static atomic_ulong nr_reads;

ssize_t read(int fd, void *buf, size_t count)
{
	const char *v = getenv("BPFRR_FAILREAD");
	unsigned long n = atomic_fetch_add(&nr_reads, 1) + 1;

	if (v && strtoul(v, NULL, 10) == n) {
		errno = ENOMEM;
		return -1;
	}
	return __read(fd, buf, count);
}

__attribute__((destructor)) static void report_count(void)
{
	const char *path = getenv("BPFRR_FAILMALLOC_COUNT");
	char buf[32];
	int fd, len;

	if (!path)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	len = snprintf(buf, sizeof(buf), "%lu\n", (unsigned long)atomic_load(&nr_allocs));
	if (write(fd, buf, (size_t)len) != len)
		len = 0;
	close(fd);
}

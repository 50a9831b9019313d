// SPDX-License-Identifier: GPL-2.0-only
/*
 * oom.c - did any allocation of this run fail?
 *
 * The exit-code table (docs/bpfrr.1) makes out of memory a failure (1), never
 * bad input (2): an input is not bad because this machine could not hold it.
 * Deep in a reader or a pass an allocation failure and a malformed input take
 * the same error path, and their messages only say which.  So the bpfrr binary
 * is linked with -Wl,--wrap for each allocating libc function our code calls
 * (Makefile.in, OOM_WRAP): every call from our objects comes here first, a
 * failure is noted, and main() turns a 2 or 3 into 1 when one was
 * (tests/host/oom-exit.t makes each allocation fail in turn).
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oom.h"

static _Atomic bool oom_seen;	/* set from any thread (the recorder names symbols in one) */

bool bpfrr_oom_seen(void)
{
	return oom_seen;
}

/* the function a wrapper wraps (the linker's name for it) */
void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__real_aligned_alloc(size_t align, size_t size);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
int __real_vasprintf(char **out, const char *fmt, va_list ap);
FILE *__real_fopen(const char *path, const char *mode);
FILE *__real_fdopen(int fd, const char *mode);
FILE *__real_open_memstream(char **buf, size_t *size);
DIR *__real_opendir(const char *path);

void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
void *__wrap_aligned_alloc(size_t align, size_t size);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);
int __wrap_vasprintf(char **out, const char *fmt, va_list ap);
int __wrap_asprintf(char **out, const char *fmt, ...);
FILE *__wrap_fopen(const char *path, const char *mode);
FILE *__wrap_fdopen(int fd, const char *mode);
FILE *__wrap_open_memstream(char **buf, size_t *size);
DIR *__wrap_opendir(const char *path);

/* p is an allocation's result: NULL for a non-empty request is out of memory */
static void *noted(void *p, bool requested)
{
	if (!p && requested)
		oom_seen = true;
	return p;
}

/* f is the result of a call that also fails for other reasons: ENOMEM says which */
static void *noted_errno(void *f)
{
	if (!f && errno == ENOMEM)
		oom_seen = true;
	return f;
}

void *__wrap_malloc(size_t size)
{
	return noted(__real_malloc(size), true);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return noted(__real_calloc(n, size), true);
}

void *__wrap_realloc(void *p, size_t size)
{
	/* realloc(p, 0) frees and may return NULL */
	return noted(__real_realloc(p, size), size || !p);
}

void *__wrap_aligned_alloc(size_t align, size_t size)
{
	return noted(__real_aligned_alloc(align, size), true);
}

char *__wrap_strdup(const char *s)
{
	return noted(__real_strdup(s), true);
}

char *__wrap_strndup(const char *s, size_t n)
{
	return noted(__real_strndup(s, n), true);
}

int __wrap_vasprintf(char **out, const char *fmt, va_list ap)
{
	int n = __real_vasprintf(out, fmt, ap);

	if (n < 0 && errno == ENOMEM)
		oom_seen = true;
	return n;
}

int __wrap_asprintf(char **out, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = __wrap_vasprintf(out, fmt, ap);
	va_end(ap);
	return n;
}

FILE *__wrap_fopen(const char *path, const char *mode)
{
	return noted_errno(__real_fopen(path, mode));
}

FILE *__wrap_fdopen(int fd, const char *mode)
{
	return noted_errno(__real_fdopen(fd, mode));
}

FILE *__wrap_open_memstream(char **buf, size_t *size)
{
	return noted_errno(__real_open_memstream(buf, size));
}

DIR *__wrap_opendir(const char *path)
{
	return noted_errno(__real_opendir(path));
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * errmsg.h - the one way a bpfrr function that fails says why: a message
 * into the caller's buffer (err, err_size; either may be NULL/0) and a
 * -errno for the caller to return, as
 *
 *	return bpfrr_errmsg(err, err_size, -EINVAL, "slot %u: ...", i);
 */
#ifndef BPFRR_ERRMSG_H
#define BPFRR_ERRMSG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

int bpfrr_errmsg(char *err, size_t err_size, int ret, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int bpfrr_verrmsg(char *err, size_t err_size, int ret, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/*
 * The exit-code table (docs/bpfrr.1) makes running short on this machine a
 * failure (1), never bad input (2): an input is not bad because the kernel
 * could not allocate while it was read.  A reader that gets such an errno
 * from a system call notes it here (bpfrr_errno_short() says which errnos:
 * ENOMEM, ENOBUFS, EMFILE, ENFILE), and the bpfrr binary's main() turns a 2
 * or 3 into 1 when one was noted, as it does for a failed allocation
 * (cli/oom.c).
 */
bool bpfrr_errno_short(int err);
void bpfrr_note_short(int err);
bool bpfrr_short_seen(void);

#endif /* BPFRR_ERRMSG_H */

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
#include <stddef.h>

int bpfrr_errmsg(char *err, size_t err_size, int ret, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int bpfrr_verrmsg(char *err, size_t err_size, int ret, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

#endif /* BPFRR_ERRMSG_H */

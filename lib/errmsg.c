// SPDX-License-Identifier: GPL-2.0-only
/* errmsg.c - a failure's message into the caller's buffer (errmsg.h). */
#include <errno.h>
#include <stdio.h>

#include "errmsg.h"

int bpfrr_verrmsg(char *err, size_t err_size, int ret, const char *fmt, va_list ap)
{
	if (err && err_size)
		vsnprintf(err, err_size, fmt, ap);
	return ret;
}

int bpfrr_errmsg(char *err, size_t err_size, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ret = bpfrr_verrmsg(err, err_size, ret, fmt, ap);
	va_end(ap);
	return ret;
}

static bool short_seen;

bool bpfrr_errno_short(int err)
{
	if (err < 0)
		err = -err;
	return err == ENOMEM || err == ENOBUFS || err == EMFILE || err == ENFILE;
}

void bpfrr_note_short(int err)
{
	if (bpfrr_errno_short(err))
		short_seen = true;
}

bool bpfrr_short_seen(void)
{
	return short_seen;
}

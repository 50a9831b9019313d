// SPDX-License-Identifier: GPL-2.0-only
/*
 * out_header.c - `bpfrr translate --format header` (see out_header.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "out_header.h"

int bpfrr_header_fwrite(const struct bpfrr_ir *ir, FILE *out, const struct bpfrr_header_opts *o,
			char *err, size_t err_size)
{
	(void)ir;
	(void)out;
	(void)o;
	snprintf(err, err_size, "--format header is not implemented yet");
	return -EOPNOTSUPP;
}

int bpfrr_header_write(const struct bpfrr_ir *ir, const char *path, const struct bpfrr_header_opts *o,
		       char *err, size_t err_size)
{
	(void)path;
	return bpfrr_header_fwrite(ir, stdout, o, err, err_size);
}

void bpfrr_header_ident(const char *name, char *buf, size_t size)
{
	snprintf(buf, size, "%s", name);
}

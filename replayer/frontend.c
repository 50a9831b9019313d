// SPDX-License-Identifier: GPL-2.0-only
/*
 * frontend.c - trace -> IR (see frontend.h).  Not built yet.
 */
#include <stdio.h>

#include "frontend.h"

struct bpfrr_ir *bpfrr_frontend_translate(const char *trace_path, const struct bpfrr_frontend_opts *opts,
					  char *err, size_t err_size)
{
	(void)opts;
	snprintf(err, err_size,
		 "%s: translating traces is not implemented yet (the front-end passes: fd lifetimes, "
		 "what to replay, relocation); the back end replays hand-built IR bundles", trace_path);
	return NULL;
}

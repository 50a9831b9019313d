// SPDX-License-Identifier: GPL-2.0-only
/*
 * header-user.c - a user of a header `bpfrr translate --format header --name
 * loader` wrote (-DHEADER='"file.h"') through its documented API only
 * (out_header.h: struct loader, loader__load, loader__destroy), for
 * tests/fuzz/compile-headers: every header must compile so, also one without
 * slots (which has no loader__slots table for tests/guest/header-loader.c).
 * Compiled, never run.
 */
#include HEADER

int main(void)
{
	struct loader obj;
	int err = loader__load(&obj);

	if (!err)
		loader__destroy(&obj);
	return err ? 1 : 0;
}

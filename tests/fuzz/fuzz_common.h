/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_common.h - what the translator-side fuzz targets (fuzz_translate.c,
 * fuzz_bundle_reader.c) check of an IR, whichever way it was made: for each
 * caps a kernel can be assumed to have, the plan and every kernel segment's
 * loader are made (no crash, no error the planner did not explain), and the
 * IR survives the bundle: encoded, decoded and encoded again it is the same
 * bytes, and it plans the same (the printed plans are equal).  A failure
 * of any of these is an abort(), which libFuzzer reports with the input.
 */
#ifndef BPFRR_FUZZ_COMMON_H
#define BPFRR_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bundle.h"
#include "caps.h"
#include "codegen.h"
#include "ir.h"
#include "plan.h"

static const char *const fuzz_caps_names[] = { "none", "stock-6.12", "patched-6.12" };

/* The plan of ir under the named caps, printed (malloc'd), or NULL if it cannot be planned. */
static char *fuzz_plan_text(const struct bpfrr_ir *ir, const char *caps_name, bool codegen)
{
	struct bpfrr_caps caps;
	struct bpfrr_plan plan;
	char err[512], *text = NULL;
	size_t len = 0;
	uint32_t s;
	FILE *f;

	if (bpfrr_caps_assume(&caps, caps_name))
		abort();
	err[0] = '\0';
	if (bpfrr_plan_make(ir, &caps, 0, &plan, err, sizeof(err))) {
		if (!err[0])
			abort();	/* a refusal always says why */
		return NULL;
	}
	f = open_memstream(&text, &len);
	if (!f)
		abort();
	bpfrr_plan_print(ir, &plan, f);
	for (s = 0; codegen && s < plan.nr_segs; s++) {
		const struct bpfrr_plan_seg *seg = &plan.segs[s];
		struct bpfrr_loader l;

		if (seg->side != BPFRR_SIDE_KERNEL)
			continue;
		err[0] = '\0';
		if (bpfrr_codegen(ir, plan.order + seg->first, seg->nr, &caps, 0, &l, err, sizeof(err))) {
			if (!err[0])
				abort();
			continue;
		}
		bpfrr_loader_free(&l);
	}
	fclose(f);
	bpfrr_plan_free(&plan);
	return text;
}

static void fuzz_check_ir(const struct bpfrr_ir *ir)
{
	void *enc1 = NULL, *enc2 = NULL;
	size_t len1, len2, i;
	struct bpfrr_ir *back;
	char err[512];

	if (bpfrr_bundle_encode(ir, &enc1, &len1, err, sizeof(err)))
		return;	/* an IR the bundle cannot carry says so; nothing more to compare */
	back = bpfrr_bundle_decode(enc1, len1, "fuzz.bundle", err, sizeof(err));
	if (!back)
		abort();	/* what we wrote, we must read */
	if (bpfrr_bundle_encode(back, &enc2, &len2, err, sizeof(err)) || len1 != len2 || memcmp(enc1, enc2, len1))
		abort();
	for (i = 0; i < sizeof(fuzz_caps_names) / sizeof(fuzz_caps_names[0]); i++) {
		char *a = fuzz_plan_text(ir, fuzz_caps_names[i], true);
		char *b = fuzz_plan_text(back, fuzz_caps_names[i], false);

		if (!a != !b || (a && strcmp(a, b)))
			abort();	/* the bundle plans what the translator planned */
		free(a);
		free(b);
	}
	bpfrr_ir_free(back);
	free(enc1);
	free(enc2);
}

#endif /* BPFRR_FUZZ_COMMON_H */

// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: arbitrary bytes read as a bundle (what `bpfrr replay`
 * meets in a file someone hands it).  The decoder must refuse with a reason
 * or give an IR; every IR it gives gets what fuzz_common.h checks (plans
 * and loaders for each assumed caps, the round trip through the encoder).
 *
 * `make fuzz` builds it as build/fuzz/fuzz_bundle_reader and seeds it with
 * bundles translated from the committed traces; see docs/fuzzing.md.
 */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bpfrr_ir *ir;
	char err[512];

	err[0] = '\0';
	ir = bpfrr_bundle_decode(data, size, "fuzz.bundle", err, sizeof(err));
	if (!ir) {
		if (!err[0])
			abort();
		return 0;
	}
	fuzz_check_ir(ir);
	bpfrr_ir_free(ir);
	return 0;
}

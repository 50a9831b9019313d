/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * frontend.h - the translator's front end: a trace -> the IR (ir.h).
 *
 * Its passes, each to be testable on committed traces:
 *  1. fd lifetimes: every fd of every recorded call resolved to the object
 *     it named at that moment (FD_EVENT records, dup/close/exec);
 *  2. what to replay: the state when the loader had finished loading and
 *     attaching (or --until N); failed calls, read-only calls and objects
 *     made and closed with nothing live depending on them (probes) are
 *     dropped, each with its reason (--explain);
 *  3. relocation: every fd the kept calls pass becomes a slot reference
 *     (attr fields, fd_array, ld_imm64, module BTF fds, map values), every
 *     pointer a buffer, every kernel-specific value a resolution.
 *
 * Not built yet: bpfrr_frontend_translate() says so.  The back end (plan,
 * codegen, bundle, replay) works on IRs built by hand until then.
 */
#ifndef BPFRR_FRONTEND_H
#define BPFRR_FRONTEND_H

#include <stddef.h>
#include <stdint.h>

#include "ir.h"

struct bpfrr_frontend_opts {
	uint64_t until_seq;	/* replay the state after this call; 0: after the last load/attach */
	int keep_probes;	/* keep objects the loader made and closed (feature probes) */
};

/* NULL with a one-line reason in err on failure. */
struct bpfrr_ir *bpfrr_frontend_translate(const char *trace_path, const struct bpfrr_frontend_opts *opts,
					  char *err, size_t err_size);

#endif /* BPFRR_FRONTEND_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * frontend.h - the translator's front end: a trace -> the IR (ir.h).
 *
 * Its passes, each in its own file and tested on its own (frontend_int.h):
 *  1. fd lifetimes (pass_fdlife.c): the trace's TASK and FD_EVENT records
 *     replayed through the fd model (lib/fdmodel.h), so that every fd of
 *     every recorded call resolves to the object it named at that moment
 *     (the seq of the call that made it), and every object has a maker and
 *     an fd lifetime;
 *  2. what to replay (pass_select.c): the replay point is the state after
 *     the loader's last successful call that built something (made an
 *     object, attached, stored into a map, froze, pinned, bound), before any
 *     teardown, or after call --until N.  Kept: the objects with an open fd
 *     at that point, what they depend on, and every earlier successful call
 *     that made or changed a kept object.  Dropped, each with its reason:
 *     failed calls, read-only calls (lookups, info queries, id walks,
 *     GET_NEXT_KEY), fd bookkeeping (close, dup), calls after the point,
 *     and objects made and closed with nothing kept depending on them
 *     (the loader's feature probes; --keep-probes keeps them);
 *  3. relocation (pass_reloc.c): every kept call becomes an IR call: its
 *     attr, a buffer for every pointer, an fd relocation to a slot for
 *     every fd (attr fields, fd_array entries, ld_imm64 map references,
 *     module BTF fds, fds inside map values, ioctl and perf_event_open
 *     arguments), replay-time resolutions for kernel-specific numbers
 *     (tracepoint ids, dynamic PMU types: looked up by name), and a slot
 *     with the recorded identity for every object it makes.  A call that
 *     cannot be replayed faithfully is an error naming the call and the
 *     reason, or with skip_untranslatable is skipped (and so is everything
 *     that depends on it).
 */
#ifndef BPFRR_FRONTEND_H
#define BPFRR_FRONTEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ir.h"
#include "trace.h"

struct bpfrr_explain_out;

struct bpfrr_frontend_opts {
	uint64_t until_seq;	/* replay the state after this call; 0: after the last building call */
	int keep_probes;	/* keep objects the loader made and closed (feature probes) */
	int skip_untranslatable;	/* skip calls that cannot be replayed (see warn) instead of failing */
	FILE *explain;		/* if set: one line per recorded call, what became of it and why */
	const struct bpfrr_explain_out *explain_out;	/* if set, instead: the same to a printer
							 * (explain.h: text or JSON) */
	FILE *warn;		/* if set: one line per skipped untranslatable call */
};

struct bpfrr_frontend_result {
	bool truncated;		/* the trace has no END record (what it has was translated) */
	char truncated_msg[256];
	uint64_t cut_seq;	/* the replay point: the state after this call (0: nothing to replay) */
	uint32_t nr_kept, nr_dropped, nr_skipped;	/* recorded calls */
	bool untranslatable;	/* on failure: a call cannot be translated (else: bad input, ENOMEM) */
};

/* NULL with a one-line reason in err on failure.  res may be NULL. */
struct bpfrr_ir *bpfrr_frontend_translate(const char *trace_path, const struct bpfrr_frontend_opts *opts,
					  struct bpfrr_frontend_result *res, char *err, size_t err_size);
/* The same on an open reader (read from its current position to the end). */
struct bpfrr_ir *bpfrr_frontend_translate_reader(struct bpfrr_trace_reader *r,
						 const struct bpfrr_frontend_opts *opts,
						 struct bpfrr_frontend_result *res, char *err, size_t err_size);

#endif /* BPFRR_FRONTEND_H */

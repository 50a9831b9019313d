/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * replay_out.h - what `bpfrr replay` prints on stdout (--caps, --plan, the
 * replay's report, --verify, --pin), as text or as one JSON object
 * (docs/replay-json.md).
 *
 * replay_main picks the printer once per run, as bpftool picks its
 * json/plain pair: bpfrr_replay_plain writes the text the replayer always
 * printed (caps.c, plan.c, codegen.c and verify.c keep their printers),
 * bpfrr_replay_json the members of one object, opened by begin and closed
 * by end.  Errors go to stderr as text in both cases; the JSON printer also
 * puts them in the object, so that a program reading stdout sees them.
 */
#ifndef BPFRR_REPLAY_OUT_H
#define BPFRR_REPLAY_OUT_H

#include <stdint.h>
#include <stdio.h>

#include "caps.h"
#include "codegen.h"
#include "ir.h"
#include "json.h"
#include "plan.h"
#include "replay.h"

/* Version of the JSON document; a key renamed, removed or changed in meaning raises it. */
#define BPFRR_REPLAY_JSON_VERSION 1

struct bpfrr_replay_out;

/* Called in this order: begin, then what the run prints, then end. */
struct bpfrr_replay_out_ops {
	void (*begin)(struct bpfrr_replay_out *o);
	void (*caps)(struct bpfrr_replay_out *o, const struct bpfrr_caps *caps);
	void (*plan)(struct bpfrr_replay_out *o, const struct bpfrr_ir *ir, const struct bpfrr_plan *plan);
	/* the loader of kernel segment seg of the plan, after the plan */
	void (*loader)(struct bpfrr_replay_out *o, const struct bpfrr_ir *ir, uint32_t seg,
		       const struct bpfrr_loader *l);
	/* the replay's figures; on failure (ok false) also what failed */
	void (*replay)(struct bpfrr_replay_out *o, const struct bpfrr_ir *ir, const struct bpfrr_replay *r,
		       bool ok);
	void (*verify_begin)(struct bpfrr_replay_out *o);
	void (*verify_row)(struct bpfrr_replay_out *o, const struct bpfrr_verify_row *row);
	void (*verify_end)(struct bpfrr_replay_out *o, const struct bpfrr_verify_totals *tot,
			   uint64_t took_ns);
	void (*pinned)(struct bpfrr_replay_out *o, const char *dir);
	/* a failure outside the replay itself (already on stderr) */
	void (*error)(struct bpfrr_replay_out *o, const char *what);
	void (*end)(struct bpfrr_replay_out *o);
	/* after end: what --hold says while it holds (JSON: on stderr, stdout is done) */
	void (*notice)(struct bpfrr_replay_out *o, const char *text);
};

struct bpfrr_replay_out {
	const struct bpfrr_replay_out_ops *ops;
	FILE *f;		/* plain: the text goes here */
	struct json_out *j;	/* JSON: the writer, started on the output */
	bool in_loaders;	/* JSON: the "loaders" array is open */
};

extern const struct bpfrr_replay_out_ops bpfrr_replay_plain;
extern const struct bpfrr_replay_out_ops bpfrr_replay_json;

#endif /* BPFRR_REPLAY_OUT_H */

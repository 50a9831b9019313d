/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * explain.h - `bpfrr translate --explain`: what became of each recorded
 * call and why, as text or as JSON (docs/replay-json.md).
 *
 * The front end walks the calls once (fe_explain) and hands each fact to
 * a printer; translate_main picks the printer once per run, as bpftool
 * picks its json/plain pair: bpfrr_explain_plain writes the text lines
 * onto out->f, bpfrr_explain_json writes members of the one JSON object
 * it opens on out->j.  The walk decides what is said, a printer only how.
 */
#ifndef BPFRR_EXPLAIN_H
#define BPFRR_EXPLAIN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ir.h"
#include "json.h"

/* Version of the JSON document; a key renamed, removed or changed in meaning raises it. */
#define BPFRR_EXPLAIN_JSON_VERSION 1

enum bpfrr_explain_fate {
	BPFRR_EXPLAIN_KEPT,	/* replayed: an IR call */
	BPFRR_EXPLAIN_DROPPED,	/* not replayed, see why */
	BPFRR_EXPLAIN_PATH,	/* an open whose fd becomes a slot the replayer opens by path */
	BPFRR_EXPLAIN_SKIPPED,	/* untranslatable, skipped (--skip-untranslatable) */
};

/* The replay point: the state after call cut_seq (0: none, nothing built). */
struct bpfrr_explain_point {
	uint64_t cut_seq;
	const char *cut_name;	/* the call there, "?" if it is not in the trace */
	bool cut_default;	/* the last call that built something, not --until */
};

/* One recorded call. */
struct bpfrr_explain_call {
	uint64_t seq;
	const char *name;	/* "BPF_PROG_LOAD", "ioctl(PERF_EVENT_IOC_SET_BPF)", "close" */
	enum bpfrr_explain_fate fate;
	const char *why;	/* not kept: the reason */
	/* kept: */
	int ir_call;		/* its IR call, -1 if it has none */
	const struct bpfrr_ir_call *ic;	/* that call (NULL if none): fd slots, look-ups, result slot */
	const char *result_why;	/* it makes a slot that is not alive at the replay point: why kept */
	int changes_slot;	/* it makes none and changes this slot, else -1 */
	const char *core;	/* a program load: what became of its CO-RE (pass_core.c), or NULL */
	/* path: */
	int path_slot;		/* the slot opened by path, -1 if none */
};

struct bpfrr_explain_totals {
	uint32_t recorded, kept, dropped, skipped;
	uint32_t slots, alive;	/* IR slots, those alive at the replay point */
};

/* What translate wrote (--explain's last line). */
struct bpfrr_explain_output {
	const char *path, *format;
	uint32_t calls, slots, drops;	/* IR calls and slots, recorded calls dropped or skipped */
	bool any_skipped;
};

struct bpfrr_explain_out;

struct bpfrr_explain_ops {
	void (*begin)(const struct bpfrr_explain_out *o, const char *trace);
	void (*point)(const struct bpfrr_explain_out *o, const struct bpfrr_explain_point *p);
	void (*call)(const struct bpfrr_explain_out *o, const struct bpfrr_ir *ir,
		     const struct bpfrr_explain_call *c);
	void (*totals)(const struct bpfrr_explain_out *o, const struct bpfrr_explain_totals *t);
	/* the walk itself failed (out of memory): the calls are not listed */
	void (*incomplete)(const struct bpfrr_explain_out *o, const char *why);
	/* translating failed (the reason is on stderr in any case) */
	void (*error)(const struct bpfrr_explain_out *o, const char *why, bool untranslatable);
	void (*wrote)(const struct bpfrr_explain_out *o, const struct bpfrr_explain_output *w);
	void (*end)(const struct bpfrr_explain_out *o);
};

struct bpfrr_explain_out {
	const struct bpfrr_explain_ops *ops;
	FILE *f;		/* plain: the text goes here */
	struct json_out *j;	/* JSON: the writer, started on the output */
};

extern const struct bpfrr_explain_ops bpfrr_explain_plain;
extern const struct bpfrr_explain_ops bpfrr_explain_json;

static inline const char *bpfrr_explain_fate_name(enum bpfrr_explain_fate fate)
{
	switch (fate) {
	case BPFRR_EXPLAIN_KEPT: return "kept";
	case BPFRR_EXPLAIN_DROPPED: return "dropped";
	case BPFRR_EXPLAIN_PATH: return "path";
	case BPFRR_EXPLAIN_SKIPPED: return "skipped";
	}
	return "?";
}

#endif /* BPFRR_EXPLAIN_H */

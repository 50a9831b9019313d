// SPDX-License-Identifier: GPL-2.0-only
/*
 * explain.c - the two printers of `bpfrr translate --explain` (see
 * explain.h): text lines, and one JSON object (docs/replay-json.md).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "explain.h"

/* --- text ---------------------------------------------------------------------------------- */

static void plain_begin(const struct bpfrr_explain_out *o, const char *trace)
{
	(void)o;
	(void)trace;
}

static void plain_point(const struct bpfrr_explain_out *o, const struct bpfrr_explain_point *p)
{
	if (p->cut_seq)
		fprintf(o->f, "replay point: after seq %" PRIu64 " %s (%s)\n", p->cut_seq, p->cut_name,
			p->cut_default ? "the last call that built something" : "--until");
	else
		fprintf(o->f, "replay point: none (no successful call built anything)\n");
}

static void plain_call(const struct bpfrr_explain_out *o, const struct bpfrr_ir *ir,
		       const struct bpfrr_explain_call *c)
{
	const struct bpfrr_ir_call *ic = c->ic;
	char desc[BPFRR_IR_MAX_NAME + 64], where[BPFRR_IR_MAX_NAME + 16];
	FILE *out = o->f;
	uint32_t j, n;

	fprintf(out, "%6" PRIu64 "  %-30s ", c->seq, c->name);
	switch (c->fate) {
	case BPFRR_EXPLAIN_KEPT:
		if (!ic) {
			fprintf(out, "kept\n");
			break;
		}
		fprintf(out, "kept: call %d", c->ir_call);
		if (ic->nr_fdrels) {
			fprintf(out, ", fds -> slot");
			for (j = 0; j < ic->nr_fdrels; j++)
				fprintf(out, "%s%u", j ? "," : " ", ic->fdrels[j].slot);
		}
		/* a tracepoint or PMU by its file's name; a BTF id or kernel address by its symbol */
		for (j = 0, n = 0; j < ic->nr_resolves; j++) {
			const struct bpfrr_ir_resolve *r = &ic->resolves[j];

			if (r->kind != BPFRR_IR_RESOLVE_TP_ID && r->kind != BPFRR_IR_RESOLVE_PMU_TYPE)
				continue;
			fprintf(out, "%s %s", n++ ? "" : ", looks up", bpfrr_ir_resolve_desc(r, desc, sizeof(desc)));
		}
		for (j = 0, n = 0; j < ic->nr_resolves; j++) {
			const struct bpfrr_ir_resolve *r = &ic->resolves[j];

			if (r->kind == BPFRR_IR_RESOLVE_TP_ID || r->kind == BPFRR_IR_RESOLVE_PMU_TYPE)
				continue;
			fprintf(out, "%s %s <- %s", n++ ? "," : ", resolves",
				bpfrr_ir_resolve_where(ic, r, where, sizeof(where)),
				bpfrr_ir_resolve_desc(r, desc, sizeof(desc)));
		}
		if (ic->result_slot >= 0) {
			const struct bpfrr_ir_slot *s = &ir->slots[ic->result_slot];

			fprintf(out, ", makes slot %d %s (%s)", ic->result_slot, s->name ? s->name : "",
				c->result_why);
		} else if (c->changes_slot >= 0) {
			fprintf(out, ", changes slot %d", c->changes_slot);
		}
		/* a syscall program's run: what its program makes, read back from where it writes the fds */
		for (j = 0; j < ic->nr_outfds; j++) {
			const struct bpfrr_ir_outfd *p = &ic->outfds[j];
			const struct bpfrr_ir_slot *s = &ir->slots[p->slot];

			fprintf(out, "%s slot %u %s (fd at %s+%u)", j ? "," : "; its program makes", p->slot,
				s->name ? s->name : "", ic->bufs[p->buf].path, p->offset);
		}
		if (ic->nr_outfds)
			fprintf(out, " (a user-space step: no kernel lets a syscall program run another)");
		if (c->core)
			fprintf(out, "; %s", c->core);
		/* the CO-RE note may already be the reason the call is bound */
		if ((ic->flags & BPFRR_IR_CALL_BUILD_BOUND) && !(c->core && strstr(c->core, ic->bound_why)))
			fprintf(out, ", build-bound: %s", ic->bound_why);
		fputc('\n', out);
		break;
	case BPFRR_EXPLAIN_PATH:
		fprintf(out, "path slot %d: %s\n", c->path_slot, c->why);
		break;
	case BPFRR_EXPLAIN_SKIPPED:
		fprintf(out, "SKIPPED: %s\n", c->why);
		break;
	case BPFRR_EXPLAIN_DROPPED:
		fprintf(out, "dropped: %s\n", c->why);
		break;
	}
}

static void plain_totals(const struct bpfrr_explain_out *o, const struct bpfrr_explain_totals *t)
{
	fprintf(o->f, "%u recorded calls: %u kept, %u dropped, %u skipped; %u slots, %u alive at the replay point\n",
		t->recorded, t->kept, t->dropped, t->skipped, t->slots, t->alive);
}

static void plain_incomplete(const struct bpfrr_explain_out *o, const char *why)
{
	fprintf(o->f, "explain: %s\n", why);
}

/* the reason is on stderr already */
static void plain_error(const struct bpfrr_explain_out *o, const char *why, bool untranslatable)
{
	(void)o;
	(void)why;
	(void)untranslatable;
}

static void plain_wrote(const struct bpfrr_explain_out *o, const struct bpfrr_explain_output *w)
{
	fprintf(o->f, "wrote %s: %u calls, %u slots, %u recorded calls dropped%s\n", w->path, w->calls, w->slots,
		w->drops, w->any_skipped ? " or skipped" : "");
}

static void plain_end(const struct bpfrr_explain_out *o)
{
	(void)o;
}

const struct bpfrr_explain_ops bpfrr_explain_plain = {
	.begin = plain_begin,
	.point = plain_point,
	.call = plain_call,
	.totals = plain_totals,
	.incomplete = plain_incomplete,
	.error = plain_error,
	.wrote = plain_wrote,
	.end = plain_end,
};

/* --- JSON: one object, its members in the order the walk reports them --------------------- */

static void js_begin(const struct bpfrr_explain_out *o, const char *trace)
{
	json_obj_begin(o->j, NULL);
	json_u64(o->j, "version", BPFRR_EXPLAIN_JSON_VERSION);
	json_str(o->j, "trace", trace);
}

/* the point comes first, the totals last: the calls between them are one array */
static void js_point(const struct bpfrr_explain_out *o, const struct bpfrr_explain_point *p)
{
	struct json_out *j = o->j;

	if (p->cut_seq) {
		json_obj_begin(j, "replay_point");
		json_u64(j, "seq", p->cut_seq);
		json_str(j, "call", p->cut_name);
		json_str(j, "chosen_by", p->cut_default ? "last_build" : "until");
		json_obj_end(j);
	} else {
		json_null(j, "replay_point");
	}
	json_arr_begin(j, "calls");
}

static const char *lookup_kind(uint32_t kind)
{
	switch (kind) {
	case BPFRR_IR_RESOLVE_TP_ID: return "tracepoint";
	case BPFRR_IR_RESOLVE_PMU_TYPE: return "pmu";
	case BPFRR_IR_RESOLVE_BTF_ID: return "btf_id";
	case BPFRR_IR_RESOLVE_KSYM_ADDR: return "ksym";
	case BPFRR_IR_RESOLVE_IFINDEX: return "ifindex";
	}
	return "?";
}

static void js_call(const struct bpfrr_explain_out *o, const struct bpfrr_ir *ir,
		      const struct bpfrr_explain_call *c)
{
	const struct bpfrr_ir_call *ic = c->ic;
	struct json_out *j = o->j;
	uint32_t k;

	json_obj_begin(j, NULL);
	json_u64(j, "seq", c->seq);
	json_str(j, "call", c->name);
	json_str(j, "fate", bpfrr_explain_fate_name(c->fate));
	json_str(j, "why", c->fate == BPFRR_EXPLAIN_KEPT ? NULL : c->why);
	if (c->fate == BPFRR_EXPLAIN_PATH)
		json_i64(j, "slot", c->path_slot);
	if (c->fate == BPFRR_EXPLAIN_KEPT && ic) {
		json_i64(j, "ir_call", c->ir_call);
		json_arr_begin(j, "fd_slots");
		for (k = 0; k < ic->nr_fdrels; k++)
			json_u64(j, NULL, ic->fdrels[k].slot);
		json_arr_end(j);
		json_arr_begin(j, "lookups");
		for (k = 0; k < ic->nr_resolves; k++) {
			const struct bpfrr_ir_resolve *r = &ic->resolves[k];
			char where[BPFRR_IR_MAX_NAME + 16];

			json_obj_begin(j, NULL);
			json_str(j, "kind", lookup_kind(r->kind));
			json_str(j, "name", r->name);
			if (r->kind == BPFRR_IR_RESOLVE_BTF_ID || r->kind == BPFRR_IR_RESOLVE_KSYM_ADDR) {
				json_str(j, "where", bpfrr_ir_resolve_where(ic, r, where, sizeof(where)));
				json_str(j, "module", r->module ? r->module : "");
				if (r->kind == BPFRR_IR_RESOLVE_BTF_ID)
					json_str(j, "btf_kind", bpfrr_ir_btf_kind_name(r->btf_kind));
				else
					json_i64(j, "addend", r->addend);
			}
			json_obj_end(j);
		}
		json_arr_end(j);
		if (ic->flags & BPFRR_IR_CALL_BUILD_BOUND)
			json_str(j, "build_bound", ic->bound_why);
		if (ic->result_slot >= 0) {
			const struct bpfrr_ir_slot *s = &ir->slots[ic->result_slot];

			json_obj_begin(j, "makes");
			json_i64(j, "slot", ic->result_slot);
			json_str(j, "name", s->name);
			json_bool(j, "alive", s->flags & BPFRR_IR_SLOT_KEEP);
			json_str(j, "why", c->result_why);
			json_obj_end(j);
		} else {
			json_null(j, "makes");
		}
		if (c->changes_slot >= 0 && ic->result_slot < 0)
			json_i64(j, "changes_slot", c->changes_slot);
		else
			json_null(j, "changes_slot");
		/* a syscall program's run: the objects its program makes and where it writes their fds */
		json_arr_begin(j, "products");
		for (k = 0; k < ic->nr_outfds; k++) {
			const struct bpfrr_ir_outfd *p = &ic->outfds[k];
			const struct bpfrr_ir_slot *s = &ir->slots[p->slot];

			json_obj_begin(j, NULL);
			json_u64(j, "slot", p->slot);
			json_str(j, "name", s->name);
			json_bool(j, "alive", s->flags & BPFRR_IR_SLOT_KEEP);
			json_str(j, "buffer", ic->bufs[p->buf].path);
			json_u64(j, "offset", p->offset);
			json_obj_end(j);
		}
		json_arr_end(j);
		if (c->core)
			json_str(j, "core", c->core);
	}
	json_obj_end(j);
}

static void js_totals(const struct bpfrr_explain_out *o, const struct bpfrr_explain_totals *t)
{
	struct json_out *j = o->j;

	json_arr_end(j);
	json_obj_begin(j, "totals");
	json_u64(j, "recorded", t->recorded);
	json_u64(j, "kept", t->kept);
	json_u64(j, "dropped", t->dropped);
	json_u64(j, "skipped", t->skipped);
	json_u64(j, "slots", t->slots);
	json_u64(j, "alive", t->alive);
	json_obj_end(j);
}

static void js_incomplete(const struct bpfrr_explain_out *o, const char *why)
{
	json_str(o->j, "explain_error", why);
}

static void js_error(const struct bpfrr_explain_out *o, const char *why, bool untranslatable)
{
	json_str(o->j, "error", why);
	json_bool(o->j, "untranslatable", untranslatable);
}

static void js_wrote(const struct bpfrr_explain_out *o, const struct bpfrr_explain_output *w)
{
	struct json_out *j = o->j;

	json_obj_begin(j, "output");
	json_str(j, "path", w->path);
	json_str(j, "format", w->format);
	json_u64(j, "calls", w->calls);
	json_u64(j, "slots", w->slots);
	json_u64(j, "dropped", w->drops);
	json_obj_end(j);
}

static void js_end(const struct bpfrr_explain_out *o)
{
	json_obj_end(o->j);
	json_newline(o->j);
}

const struct bpfrr_explain_ops bpfrr_explain_json = {
	.begin = js_begin,
	.point = js_point,
	.call = js_call,
	.totals = js_totals,
	.incomplete = js_incomplete,
	.error = js_error,
	.wrote = js_wrote,
	.end = js_end,
};

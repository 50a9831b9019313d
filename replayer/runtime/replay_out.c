// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay_out.c - the two printers of `bpfrr replay` (see replay_out.h):
 * the text it always printed, and one JSON object (docs/replay-json.md).
 */
#include <stdio.h>
#include <string.h>

#include "bpf_abi.h"
#include "bpf_disasm.h"
#include "replay_out.h"
#include "sign.h"

static double ms(uint64_t ns)
{
	return ns / 1e6;
}

/* --- text ---------------------------------------------------------------------------------- */

static void plain_nothing(struct bpfrr_replay_out *o)
{
	(void)o;
}

static void plain_caps(struct bpfrr_replay_out *o, const struct bpfrr_caps *caps)
{
	bpfrr_caps_print(caps, o->f);
}

static void plain_plan(struct bpfrr_replay_out *o, const struct bpfrr_ir *ir, const struct bpfrr_plan *plan)
{
	bpfrr_plan_print(ir, plan, o->f);
}

static void plain_loader(struct bpfrr_replay_out *o, const struct bpfrr_ir *ir, uint32_t seg,
			 const struct bpfrr_loader *l)
{
	fprintf(o->f, "segment %u ", seg);
	bpfrr_loader_print(ir, l, o->f);
}

static void plain_replay(struct bpfrr_replay_out *o, const struct bpfrr_ir *ir, const struct bpfrr_replay *r,
			 bool ok)
{
	(void)ok;	/* what failed is on stderr */
	fprintf(o->f, "replay: %u calls: %u in kernel (%u loader run%s, %u insns, %u-byte blob, %u-byte user "
		"image), %u in user space; %u of %llu recorded calls dropped by the translator\n",
		ir->nr_calls, r->nr_kernel_calls, r->nr_loader_runs, r->nr_loader_runs == 1 ? "" : "s",
		r->loader_insns, r->loader_blob, r->loader_user, r->nr_user_calls, ir->nr_drops,
		(unsigned long long)ir->nr_recorded);
	fprintf(o->f, "replay: times (ms): probe %.3f, plan %.3f, codegen %.3f, load %.3f", ms(r->t_probe),
		ms(r->t_plan), ms(r->t_codegen), ms(r->t_load));
	if (r->insns_processed)
		fprintf(o->f, " (verifier %.3f: %llu insns processed)", ms(r->t_verify),
			(unsigned long long)r->insns_processed);
	fprintf(o->f, ", run %.3f, user %.3f, total %.3f\n", ms(r->t_run), ms(r->t_user), ms(r->t_total));
	for (uint32_t i = 0; r->nr_renamed && r->ir && i < r->ir->nr_slots && i < ir->nr_slots; i++)
		if (r->ir->slots[i].nr_path_subs && strcmp(r->ir->slots[i].path, ir->slots[i].path))
			fprintf(o->f, "replay: made %s as %s: its name's numbers are this kernel's\n", ir->slots[i].path,
				r->ir->slots[i].path);
	if (r->is_signed) {
		const struct bpfrr_ir_sig *sg = ir->sig;
		struct bpfrr_sign_covers cv;

		bpfrr_sign_covers(ir, &cv);
		fprintf(o->f, "replay: signed loader: verdict %s; the signature covers %u loader insns and 1 metadata "
			"map (%u bytes), the %u calls made inside: %u maps, %u programs, %u BTF, %u links, %u perf "
			"events, %u pins, %u map updates/freezes/binds, %u other\n",
			r->sig_verdict[0] ? r->sig_verdict : "none (not loaded)", sg->nr_insns, sg->blob_size, cv.calls,
			cv.maps, cv.progs, cv.btfs, cv.links, cv.perf_events, cv.pins, cv.updates, cv.other);
		if (cv.runner_dirs)
			fprintf(o->f, "replay: signed loader: outside the signature, %u director%s bpfrr made on a bpffs "
				"before the load (no BPF object; the pins into them are signed)\n", cv.runner_dirs,
				cv.runner_dirs == 1 ? "y" : "ies");
		fprintf(o->f, "replay: signed for %s%s%s%s; stored loader %s; metadata map %.3f ms, signed load "
			"%.3f ms\n", sg->caps, sg->build_id ? ", kernel build " : ", any kernel build",
			sg->build_id ? sg->build_id : "", "", r->sig_check, ms(r->t_sig_map), ms(r->t_sig_load));
	}
}

static void plain_verify_begin(struct bpfrr_replay_out *o)
{
	bpfrr_verify_print_head(o->f);
}

static void plain_verify_row(struct bpfrr_replay_out *o, const struct bpfrr_verify_row *row)
{
	bpfrr_verify_print_row(o->f, row);
}

static void plain_verify_end(struct bpfrr_replay_out *o, const struct bpfrr_verify_totals *tot, uint64_t took_ns)
{
	bpfrr_verify_print_totals(o->f, tot);
	fprintf(o->f, "replay: verify took %.3f ms\n", ms(took_ns));
}

static void plain_pinned(struct bpfrr_replay_out *o, const char *dir)
{
	fprintf(o->f, "replay: pinned under %s\n", dir);
}

/* the reason is on stderr already */
static void plain_error(struct bpfrr_replay_out *o, const char *what)
{
	(void)o;
	(void)what;
}

static void plain_notice(struct bpfrr_replay_out *o, const char *text)
{
	fprintf(o->f, "replay: %s\n", text);
	fflush(o->f);
}

const struct bpfrr_replay_out_ops bpfrr_replay_plain = {
	.begin = plain_nothing,
	.caps = plain_caps,
	.plan = plain_plan,
	.loader = plain_loader,
	.replay = plain_replay,
	.verify_begin = plain_verify_begin,
	.verify_row = plain_verify_row,
	.verify_end = plain_verify_end,
	.pinned = plain_pinned,
	.error = plain_error,
	.end = plain_nothing,
	.notice = plain_notice,
};

/* --- JSON: one object ---------------------------------------------------------------------- */

static const char *cmd_name(int cmd, char *buf, size_t size)
{
	const char *name = bpfrr_abi_cmd_name(cmd);

	if (name)
		return name;
	snprintf(buf, size, "bpf(cmd %d)", cmd);
	return buf;
}

static const char *side_name(uint32_t side)
{
	return side == BPFRR_SIDE_KERNEL ? "kernel" : "user";
}

/* the loaders follow the plan as one array; anything after them closes it */
static void js_loaders_done(struct bpfrr_replay_out *o)
{
	if (o->in_loaders)
		json_arr_end(o->j);
	o->in_loaders = false;
}

static void js_begin(struct bpfrr_replay_out *o)
{
	json_obj_begin(o->j, NULL);
	json_u64(o->j, "version", BPFRR_REPLAY_JSON_VERSION);
}

static void js_caps(struct bpfrr_replay_out *o, const struct bpfrr_caps *caps)
{
	static const char *const sem_names[] = {
		[BPFRR_PTR_UNKNOWN] = "unknown", [BPFRR_PTR_KERNEL] = "kernel", [BPFRR_PTR_USER] = "user",
	};
	struct json_out *j = o->j;
	char buf[32];
	uint32_t cmd, i;

	js_loaders_done(o);
	json_obj_begin(j, "caps");
	json_str(j, "source", caps->source);
	json_arr_begin(j, "sys_bpf_cmds");
	for (cmd = 0; cmd < BPFRR_CAPS_MAX_CMDS; cmd++)
		if (bpfrr_caps_cmd(caps, cmd))
			json_str(j, NULL, cmd_name((int)cmd, buf, sizeof(buf)));
	json_arr_end(j);
	json_arr_begin(j, "pointers");
	for (i = 0; i < caps->nr_ptrs; i++) {
		const struct bpfrr_caps_ptr *p = &caps->ptrs[i];

		json_obj_begin(j, NULL);
		json_str(j, "cmd", cmd_name(p->cmd, buf, sizeof(buf)));
		json_str(j, "path", p->path);
		json_str(j, "treatment", p->sem < sizeof(sem_names) / sizeof(sem_names[0]) ? sem_names[p->sem] :
					 "unknown");
		json_str(j, "basis", p->basis);
		json_errno(j, "probe_errno", -p->probe_ret);
		json_obj_end(j);
	}
	json_arr_end(j);
	/* the four cases of bpfrr_caps_print, in its order */
	json_obj_begin(j, "perf_event_open");
	if (caps->perf_event_open && caps->perf_event_open_btf_id > 0) {
		json_bool(j, "available", true);
		json_i64(j, "btf_id", caps->perf_event_open_btf_id);
	} else if (caps->perf_event_open_unknown) {
		json_null(j, "available");
		json_null(j, "btf_id");
	} else {
		json_bool(j, "available", caps->perf_event_open);
		json_null(j, "btf_id");
	}
	if (caps->perf_event_open_basis[0])
		json_str(j, "basis", caps->perf_event_open_basis);
	else
		json_null(j, "basis");
	json_obj_end(j);
	/* where they came from: assumed caps have no origin */
	if (caps->origin != BPFRR_CAPS_ASSUMED) {
		static const char *const origins[] = {
			[BPFRR_CAPS_FROM_LIST] = "list", [BPFRR_CAPS_FROM_PROBE] = "probe",
			[BPFRR_CAPS_FROM_CACHE] = "cache",
		};

		json_obj_begin(j, "found");
		json_str(j, "by", caps->origin < sizeof(origins) / sizeof(origins[0]) ? origins[caps->origin] : "?");
		json_u64(j, "ns", caps->probe_ns);
		if (caps->cache[0])
			json_str(j, "cache", caps->cache);
		else
			json_null(j, "cache");
		if (caps->cache_note[0])
			json_str(j, "cache_note", caps->cache_note);
		else
			json_null(j, "cache_note");
		json_obj_end(j);
	}
	json_obj_end(j);
}

static void js_plan(struct bpfrr_replay_out *o, const struct bpfrr_ir *ir, const struct bpfrr_plan *plan)
{
	struct json_out *j = o->j;
	uint32_t s, k;

	js_loaders_done(o);
	json_obj_begin(j, "plan");
	json_u64(j, "calls", plan->nr_calls);
	json_u64(j, "in_kernel", plan->nr_kernel);
	json_u64(j, "in_user", plan->nr_user);
	json_u64(j, "reordered", plan->nr_reordered);
	json_arr_begin(j, "segments");
	for (s = 0; s < plan->nr_segs; s++) {
		const struct bpfrr_plan_seg *seg = &plan->segs[s];

		json_obj_begin(j, NULL);
		json_u64(j, "segment", s);
		json_str(j, "side", side_name(seg->side));
		json_arr_begin(j, "calls");
		for (k = seg->first; k < seg->first + seg->nr; k++) {
			uint32_t ci = plan->order[k];
			const struct bpfrr_ir_call *c = &ir->calls[ci];
			char name[64];

			json_obj_begin(j, NULL);
			json_u64(j, "call", ci);
			json_u64(j, "seq", c->seq);
			json_str(j, "name", bpfrr_ir_call_name(c, name, sizeof(name)));
			json_str(j, "side", side_name(plan->side[ci]));
			json_str(j, "why_user", plan->why_user[ci]);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void js_loader(struct bpfrr_replay_out *o, const struct bpfrr_ir *ir, uint32_t seg,
		      const struct bpfrr_loader *l)
{
	struct json_out *j = o->j;
	uint32_t i, k;

	if (!o->in_loaders) {
		json_arr_begin(j, "loaders");
		o->in_loaders = true;
	}
	json_obj_begin(j, NULL);
	json_u64(j, "segment", seg);
	json_u64(j, "insn_cnt", l->nr_insns);
	json_u64(j, "blob_bytes", l->blob_size);
	json_u64(j, "user_image_bytes", l->user_size);
	json_u64(j, "ctx_bytes", l->ctx_size);
	json_u64(j, "slots", ir->nr_slots);
	json_u64(j, "pointer_fixups", l->nr_ptr_fixups);
	json_u64(j, "fd_patches", l->nr_fd_patches);
	json_u64(j, "fds_made", l->nr_created);
	json_bool(j, "wide_jumps", l->wide_jumps);
	json_bool(j, "ctx_in_blob", l->ctx_in_blob);
	json_arr_begin(j, "calls");
	for (i = 0; i < l->nr_calls; i++) {
		const struct bpfrr_loader_call *lc = &l->calls[i];
		const struct bpfrr_ir_call *c = &ir->calls[lc->call];
		char name[64];

		json_obj_begin(j, NULL);
		json_u64(j, "call", lc->call);
		json_u64(j, "seq", c->seq);
		json_str(j, "name", bpfrr_ir_call_name(c, name, sizeof(name)));
		json_u64(j, "attr_offset", lc->attr_off);
		json_u64(j, "attr_size", c->attr_size);
		if (c->result_slot >= 0)
			json_i64(j, "result_slot", c->result_slot);
		else
			json_null(j, "result_slot");
		json_arr_begin(j, "buffers");
		for (k = 0; k < c->nr_bufs; k++) {
			json_obj_begin(j, NULL);
			json_str(j, "path", c->bufs[k].path);
			json_str(j, "area", lc->buf_area[k] == BPFRR_AREA_BLOB ? "blob" : "user");
			json_u64(j, "offset", lc->buf_off[k]);
			json_u64(j, "len", c->bufs[k].len);
			json_str(j, "dir", bpfrr_abi_dir_name(c->bufs[k].dir));
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_arr_begin(j, "insns");
	for (i = 0; i < l->nr_insns; i += k) {
		char text[160];

		k = bpfrr_disasm_insn(l->insns, l->nr_insns, i, NULL, text, sizeof(text));
		if (k < 1)
			k = 1;
		json_obj_begin(j, NULL);
		json_u64(j, "idx", i);
		json_str(j, "text", text);
		json_str(j, "note", l->notes ? l->notes[i] : NULL);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void js_replay(struct bpfrr_replay_out *o, const struct bpfrr_ir *ir, const struct bpfrr_replay *r,
		      bool ok)
{
	struct json_out *j = o->j;

	js_loaders_done(o);
	json_obj_begin(j, "replay");
	json_bool(j, "ok", ok);
	json_u64(j, "calls", ir->nr_calls);
	json_u64(j, "kernel_calls", r->nr_kernel_calls);
	json_u64(j, "user_calls", r->nr_user_calls);
	json_u64(j, "loader_runs", r->nr_loader_runs);
	json_u64(j, "loader_insns", r->loader_insns);
	json_u64(j, "loader_blob_bytes", r->loader_blob);
	json_u64(j, "loader_user_image_bytes", r->loader_user);
	json_u64(j, "loader_insns_processed", r->insns_processed);
	json_u64(j, "recorded", ir->nr_recorded);
	json_u64(j, "dropped", ir->nr_drops);
	json_u64(j, "renamed_dirs", r->nr_renamed);
	json_obj_begin(j, "times_ns");
	json_u64(j, "probe", r->t_probe);
	json_u64(j, "plan", r->t_plan);
	json_u64(j, "codegen", r->t_codegen);
	json_u64(j, "load", r->t_load);
	json_u64(j, "verifier", r->t_verify);
	json_u64(j, "run", r->t_run);
	json_u64(j, "user", r->t_user);
	json_u64(j, "total", r->t_total);
	json_obj_end(j);
	if (r->is_signed) {
		struct bpfrr_sign_covers cv;

		bpfrr_sign_covers(ir, &cv);
		json_obj_begin(j, "signed");
		json_str(j, "verdict", r->sig_verdict[0] ? r->sig_verdict : NULL);
		json_str(j, "caps", ir->sig->caps);
		json_str(j, "build_id", ir->sig->build_id);
		json_str(j, "stored_loader", r->sig_check);
		json_u64(j, "insns", ir->sig->nr_insns);
		json_u64(j, "metadata_maps", 1);
		json_u64(j, "metadata_bytes", ir->sig->blob_size);
		json_u64(j, "signature_bytes", ir->sig->sig_size);
		json_obj_begin(j, "covers");
		json_u64(j, "calls", cv.calls);
		json_u64(j, "maps", cv.maps);
		json_u64(j, "progs", cv.progs);
		json_u64(j, "btfs", cv.btfs);
		json_u64(j, "links", cv.links);
		json_u64(j, "perf_events", cv.perf_events);
		json_u64(j, "pins", cv.pins);
		json_u64(j, "updates", cv.updates);
		json_u64(j, "other", cv.other);
		json_obj_end(j);
		json_u64(j, "runner_dirs", cv.runner_dirs);
		json_u64(j, "metadata_map_ns", r->t_sig_map);
		json_u64(j, "signed_load_ns", r->t_sig_load);
		json_obj_end(j);
	}
	if (ok) {
		json_null(j, "error");
	} else {
		json_str(j, "error", r->error);
		json_errno(j, "errno", -r->err);
		if (r->failed_call >= 0 && (uint32_t)r->failed_call < ir->nr_calls) {
			json_i64(j, "failed_call", r->failed_call);
			json_u64(j, "failed_seq", ir->calls[r->failed_call].seq);
		} else {
			json_null(j, "failed_call");
			json_null(j, "failed_seq");
		}
		json_str(j, "log", r->log);
	}
	json_obj_end(j);
}

static void js_verify_begin(struct bpfrr_replay_out *o)
{
	js_loaders_done(o);
	json_obj_begin(o->j, "verify");
	json_arr_begin(o->j, "rows");
}

static void js_verify_row(struct bpfrr_replay_out *o, const struct bpfrr_verify_row *row)
{
	struct json_out *j = o->j;

	json_obj_begin(j, NULL);
	json_u64(j, "slot", row->slot);
	json_str(j, "kind", row->kind);
	json_str(j, "object", row->object);
	if (row->query_err) {
		json_null(j, "field");
		json_str(j, "verdict", "error");
		json_errno(j, "errno", -row->query_err);
	} else {
		json_str(j, "field", row->field);
		json_str(j, "recorded", row->recorded);
		json_str(j, "replayed", row->replayed);
		if (row->expected)
			json_str(j, "expected", row->expected);
		else
			json_null(j, "expected");
		if (row->at)
			json_str(j, "at", row->at);
		else
			json_null(j, "at");
		json_str(j, "verdict", row->verdict > 0 ? "ok" : row->verdict == 0 ? "mismatch" : "unchecked");
	}
	json_obj_end(j);
}

static void js_verify_end(struct bpfrr_replay_out *o, const struct bpfrr_verify_totals *tot, uint64_t took_ns)
{
	struct json_out *j = o->j;

	json_arr_end(j);
	json_u64(j, "checks", tot->checks);
	json_u64(j, "mismatches", tot->mismatches);
	json_u64(j, "unchecked", tot->unchecked);
	json_str(j, "build", tot->build == BPFRR_VERIFY_OTHER_BUILD ? "other" :
			     tot->build == BPFRR_VERIFY_NO_IDENTITY ? "unknown" : "same");
	if (tot->build == BPFRR_VERIFY_OTHER_BUILD)
		json_str(j, "build_note", tot->build_note);
	else
		json_null(j, "build_note");
	json_bool(j, "expected_forced", tot->expect_forced);
	json_u64(j, "took_ns", took_ns);
	json_obj_end(j);
}

static void js_pinned(struct bpfrr_replay_out *o, const char *dir)
{
	js_loaders_done(o);
	json_str(o->j, "pinned", dir);
}

static void js_error(struct bpfrr_replay_out *o, const char *what)
{
	js_loaders_done(o);
	json_str(o->j, "error", what);
}

static void js_end(struct bpfrr_replay_out *o)
{
	js_loaders_done(o);
	json_obj_end(o->j);
	json_newline(o->j);
	fflush(o->j->f);
}

/* stdout holds the one object: what --hold says goes to stderr */
static void js_notice(struct bpfrr_replay_out *o, const char *text)
{
	(void)o;
	fprintf(stderr, "replay: %s\n", text);
}

const struct bpfrr_replay_out_ops bpfrr_replay_json = {
	.begin = js_begin,
	.caps = js_caps,
	.plan = js_plan,
	.loader = js_loader,
	.replay = js_replay,
	.verify_begin = js_verify_begin,
	.verify_row = js_verify_row,
	.verify_end = js_verify_end,
	.pinned = js_pinned,
	.error = js_error,
	.end = js_end,
	.notice = js_notice,
};

// SPDX-License-Identifier: GPL-2.0-only
/*
 * dump_summary.c - bpfrr dump --summary: counts instead of calls (per bpf()
 * command, objects created by kind, the failed calls, the other syscalls,
 * how the traced command ended), as text or as one JSON object
 * (docs/dump-json.md).  The walk (dump.c) counts; these print.
 */
#include <inttypes.h>
#include <string.h>

#include "bpf_abi.h"
#include "dump_print.h"
#include "trace.h"

static void summary_text(struct dump_out *o, const char *trace_name, const struct dump_summary *s)
{
	FILE *f = o->f;
	size_t i;

	(void)trace_name;
	dump_text_kernel(f, dump_kernel(o), "");
	fprintf(f, "bpf() calls: %" PRIu64 " (%" PRIu64 " failed), other syscalls: %" PRIu64 ", tasks: %" PRIu64 "\n",
		s->nr_bpf, s->nr_failed, s->nr_sys, s->nr_tasks);
	fputs("commands:\n", f);
	for (i = 0; i <= BPFRR_ABI_NR_CMDS; i++) {
		const struct dump_counter *c = &s->cmd_counts[i];

		if (!c->calls)
			continue;
		fprintf(f, "  %-32s %6" PRIu64, dump_cmd_name(i) ? dump_cmd_name(i) : "(unknown)", c->calls);
		if (c->failed)
			fprintf(f, "  (%" PRIu64 " failed)", c->failed);
		fputc('\n', f);
	}
	fputs("objects created:\n", f);
	for (i = 0; i <= BPFRR_OBJ__MAX; i++)
		if (s->created[i])
			fprintf(f, "  %-32s %6" PRIu64 "\n", dump_kind_name(i), s->created[i]);
	if (s->nr_failures)
		fputs("failures:\n", f);
	for (i = 0; i < s->nr_failures; i++) {
		const struct dump_failure *fl = &s->failures[i];

		fprintf(f, "  #%" PRIu64 " [%u] ", fl->seq, fl->tid);
		if (fl->what)
			dump_text_escape(f, fl->what, strlen(fl->what));
		else
			fprintf(f, "bpf_cmd_%u", fl->cmd);
		fprintf(f, ": %s\n", fl->err ? dump_errno_name(fl->err) : "did not return");
		if (fl->reason) {
			fputs("      reason: ", f);
			dump_text_escape(f, fl->reason, strlen(fl->reason));
			fputc('\n', f);
		}
	}
	fputs("other syscalls the load depended on:\n", f);
	for (i = 0; i < s->nr_sys_counts; i++) {
		const struct dump_counter *c = &s->sys_counts[i];
		size_t len = strlen(c->name);

		fputs("  ", f);
		dump_text_escape(f, c->name, len);
		fprintf(f, "%*s %6" PRIu64, (int)(32 - (len < 32 ? len : 32)), "", c->calls);
		if (c->failed)
			fprintf(f, "  (%" PRIu64 " failed)", c->failed);
		fputc('\n', f);
	}
	if (s->end) {
		fputs("traced command ", f);
		dump_text_wait_status(f, s->end->exit_status);
		fprintf(f, "; %" PRIu64 " blobs, %" PRIu64 " bytes stored, %" PRIu64 " bytes deduplicated\n",
			s->end->nr_blobs, s->end->blob_bytes, s->end->dedup_bytes);
	}
}

static void summary_json_begin(struct dump_out *o)
{
	json_start(&o->j, o->f);
}

static void summary_json(struct dump_out *o, const char *trace_name, const struct dump_summary *s)
{
	struct json_out *j = &o->j;
	size_t i;

	json_obj_begin(j, NULL);
	json_str(j, "trace", trace_name);
	if (o->hdr) {
		json_str(j, "arch", o->hdr->arch_name);
		json_str(j, "kernel_release", o->hdr->kernel_release);
		json_arr_begin(j, "command");
		for (i = 0; i < o->hdr->argc; i++)
			json_str(j, NULL, o->hdr->argv[i]);
		json_arr_end(j);
	}
	if (dump_kernel(o))
		dump_kernel_json(j, "kernel", dump_kernel(o));
	json_u64(j, "bpf_calls", s->nr_bpf);
	json_u64(j, "other_syscalls", s->nr_sys);
	json_u64(j, "failed", s->nr_failed);
	json_u64(j, "tasks", s->nr_tasks);
	json_obj_begin(j, "commands");
	for (i = 0; i <= BPFRR_ABI_NR_CMDS; i++) {
		const struct dump_counter *c = &s->cmd_counts[i];

		if (!c->calls)
			continue;
		json_obj_begin(j, dump_cmd_name(i) ? dump_cmd_name(i) : "unknown");
		json_u64(j, "calls", c->calls);
		json_u64(j, "failed", c->failed);
		json_obj_end(j);
	}
	json_obj_end(j);
	json_obj_begin(j, "created");
	for (i = 0; i <= BPFRR_OBJ__MAX; i++)
		if (s->created[i])
			json_u64(j, dump_kind_name(i), s->created[i]);
	json_obj_end(j);
	json_arr_begin(j, "failures");
	for (i = 0; i < s->nr_failures; i++) {
		const struct dump_failure *fl = &s->failures[i];

		json_obj_begin(j, NULL);
		json_u64(j, "seq", fl->seq);
		json_u64(j, "tid", fl->tid);
		if (fl->what)
			json_str(j, "call", fl->what);
		else
			json_u64(j, "cmd_nr", fl->cmd);
		if (fl->err)
			json_str(j, "errno", dump_errno_name(fl->err));
		else
			json_null(j, "errno");
		if (fl->reason)
			json_str(j, "reason", fl->reason);
		else
			json_null(j, "reason");
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_begin(j, "syscalls");
	for (i = 0; i < s->nr_sys_counts; i++) {
		json_obj_begin(j, s->sys_counts[i].name);
		json_u64(j, "calls", s->sys_counts[i].calls);
		json_u64(j, "failed", s->sys_counts[i].failed);
		json_obj_end(j);
	}
	json_obj_end(j);
	if (s->end) {
		json_i64(j, "exit_status", s->end->exit_status);
		json_u64(j, "blobs", s->end->nr_blobs);
		json_u64(j, "blob_bytes", s->end->blob_bytes);
		json_u64(j, "dedup_bytes", s->end->dedup_bytes);
	} else {
		json_null(j, "exit_status");
	}
	json_bool(j, "complete", s->end != NULL);
	json_obj_end(j);
	json_newline(j);
}

const struct dump_printer dump_summary_text_printer = {
	.summary = summary_text,
};

const struct dump_printer dump_summary_json_printer = {
	.begin = summary_json_begin,
	.summary = summary_json,
};

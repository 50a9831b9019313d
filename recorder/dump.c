// SPDX-License-Identifier: GPL-2.0-only
/*
 * dump.c - bpfrr dump: the audit of a trace.
 *
 * Every call in file order with every attr field by name (through the one
 * ABI table, lib/bpf_abi.h), the buffers the call read and wrote, the fds
 * it used resolved to the objects they referred to at that moment, the
 * result, and the identity the recorder took of created objects.  Text for
 * people, JSON Lines (docs/dump-json.md) for jq, or a summary.
 *
 * Two passes over the trace: the first collects what is recorded after the
 * call it belongs to (the recorder's OBJECT identities, NOTEs); the second
 * prints, replaying TASK and FD_EVENT records to know every fd table at
 * every call.  Identities, the fd model, creator facts and the walker's view
 * of a call are lib/resolved.h's, shared with the translator.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpf_abi.h"
#include "bpf_disasm.h"
#include "bpfrr.h"
#include "dump.h"
#include "fdmodel.h"
#include "resolved.h"
#include "sha256.h"
#include "trace.h"
#include "u64map.h"

#define SMALL_BUF		64	/* buffers up to this size are shown whole */
#define LOG_EXCERPT_LINES	20	/* verifier log lines shown for a failed call */
#define TEXT_MAX_NAMES		16	/* BTF names listed in text without -v */
#define ARRAY_SHOWN		64	/* elements of id/number arrays shown without -v */

/* --- objects and fd tables (lib/resolved.h, lib/fdmodel.h) ---------------------------- */

/* Something an fd referred to: the fd model's object and what dump shows of it. */
struct object {
	struct bpfrr_fdm_obj base;	/* origin, kind; must be first */
	const char *made_by;	/* "BPF_MAP_CREATE", "perf_event_open", ... (static or trace memory) */
	const struct bpfrr_rec_object *ident;	/* the recorder's identity, or NULL */
};

/* Per-command and per-syscall counters of the summary. */
struct counter {
	const char *name;	/* points into the trace or static names */
	uint64_t calls, failed;
};

/* A failed call, for the summary. */
struct failure {
	uint64_t seq;
	uint32_t tid;
	const char *what;	/* command or syscall name (static or trace memory); NULL: unknown cmd */
	uint32_t cmd;		/* the bpf() command when what is NULL */
	int err;		/* errno; 0: did not return */
};

struct dump {
	struct bpfrr_trace_reader *r;
	const struct bpfrr_dump_opts *o;
	const struct bpfrr_trace_header *hdr;
	FILE *out, *err;
	struct json_out j;

	struct bpfrr_rt *rt;		/* identities, objects and every task's fd table */
	struct bpfrr_u64map notes;	/* seq -> index+1 of the first note in notes_list */
	struct bpfrr_rec_note *notes_list;
	size_t nr_notes, cap_notes;

	/* the call being printed */
	const struct bpfrr_rec_bpf_call *call;
	const struct bpfrr_rec_syscall *sys;
	struct bpfrr_rt_call cur;	/* the same, as the resolved trace sees it */
	uint32_t tid;
	bool *region_done;
	size_t region_done_cap;

	/* summary */
	struct counter cmd_counts[BPFRR_ABI_NR_CMDS + 1];	/* last: unknown commands */
	struct counter *sys_counts;
	size_t nr_sys_counts, cap_sys_counts;
	uint64_t created[BPFRR_OBJ__MAX + 1];
	uint64_t nr_bpf, nr_sys, nr_failed, nr_tasks, nr_notes_total;
	struct failure *failures;
	size_t nr_failures, cap_failures;
	bool have_end;
	struct bpfrr_rec_end end;
	bool oom;
};

/* A new object of the model: attach the recorder's identity of it. */
static void init_object(void *ctx, struct bpfrr_fdm_obj *base)
{
	struct object *obj = (struct object *)base;
	struct dump *d = ctx;

	if (base->origin)
		obj->ident = bpfrr_rt_identity(d->rt, base->origin);
}

/* The object made by call origin (created on first mention). */
static struct object *object_of(struct dump *d, uint64_t origin, uint32_t kind)
{
	struct object *obj = (struct object *)bpfrr_fdm_object(bpfrr_rt_fdm(d->rt), origin, kind);

	if (!obj)
		d->oom = true;
	return obj;
}

static struct object *fd_object(struct dump *d, uint32_t tid, int fd)
{
	return (struct object *)bpfrr_fdm_lookup(bpfrr_rt_fdm(d->rt), tid, fd);
}

static void apply_task(struct dump *d, const struct bpfrr_rec_task *t)
{
	if (t->event == BPFRR_TASK_START || t->event == BPFRR_TASK_THREAD || t->event == BPFRR_TASK_FORK)
		d->nr_tasks++;
	if (bpfrr_rt_task(d->rt, t))
		d->oom = true;
}

static void apply_fd_event(struct dump *d, const struct bpfrr_rec_fd_event *e)
{
	struct object *obj;

	if (bpfrr_rt_fd_event(d->rt, e)) {
		d->oom = true;
		return;
	}
	obj = e->op == BPFRR_FD_ADOPT ? fd_object(d, e->tid, e->fd) : NULL;
	if (obj && !obj->made_by)
		obj->made_by = "adopted";
}

/* Tracee memory at a phase, as far as the regions of the call being printed captured it. */
static int read_phase(struct dump *d, int phase, uint64_t addr, void *buf, size_t len)
{
	return bpfrr_rt_read_mem(d->rt, &d->cur, phase, addr, buf, len);
}

/* --- text helpers --------------------------------------------------------------------- */

/* s[0..len) with C escapes for anything not printable ASCII */
static void text_escape(FILE *f, const void *data, size_t len)
{
	const unsigned char *s = data;
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

static void text_quoted(FILE *f, const void *data, size_t len)
{
	fputc('"', f);
	text_escape(f, data, len);
	fputc('"', f);
}

/* An argv word: bare if harmless, else quoted. */
static void text_word(FILE *f, const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!(s[i] == '-' || s[i] == '_' || s[i] == '.' || s[i] == '/' || s[i] == '=' ||
		      s[i] == ',' || s[i] == ':' || (s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
			break;
	if (s[0] && !s[i])
		fputs(s, f);
	else
		text_quoted(f, s, strlen(s));
}

/* "INDENTlabel:\n" for a label that comes from the trace */
static void text_label(FILE *f, const char *indent, const char *label)
{
	fputs(indent, f);
	text_escape(f, label, strlen(label));
	fputs(":\n", f);
}

static void hex(FILE *f, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < len; i++)
		fprintf(f, "%02x", p[i]);
}

static const char *errno_name(int e)
{
	const char *name = strerrorname_np(e);

	return name ? name : "E?";
}

static void print_duration(FILE *f, uint64_t enter, uint64_t exit)
{
	uint64_t ns = exit >= enter ? exit - enter : 0;

	fprintf(f, "<%" PRIu64 ".%03" PRIu64 " us>", ns / 1000, ns % 1000);
}

static const char *kind_name(uint32_t kind)
{
	const char *name = kind < BPFRR_OBJ__MAX ? bpfrr_abi_obj_kind_name(kind) : NULL;

	return name ? name : "object";
}

/* "map 'counts' (#3 BPF_MAP_CREATE, id 17)" */
static void text_object(struct dump *d, const struct object *obj)
{
	FILE *f = d->out;
	const struct bpfrr_rec_object *id = obj->ident;
	const char *name = bpfrr_rt_obj_name(d->rt, &obj->base);

	fputs(kind_name(obj->base.kind), f);
	if (name[0]) {
		fputs(" '", f);
		text_escape(f, name, strlen(name));
		fputc('\'', f);
	}
	fputs(" (", f);
	if (obj->base.origin)
		fprintf(f, "#%" PRIu64 "%s%s", obj->base.origin, obj->made_by ? " " : "",
			obj->made_by ? obj->made_by : "");
	else
		fputs("made outside the trace", f);
	if (id && !(id->flags & BPFRR_OBJECT_F_QUERY_FAILED) && id->id)
		fprintf(f, ", id %u", id->id);
	fputc(')', f);
}

static void text_fd(struct dump *d, int fd)
{
	struct object *obj = fd_object(d, d->tid, fd);

	fprintf(d->out, "fd %d -> ", fd);
	if (obj)
		text_object(d, obj);
	else
		fputs("unknown fd", d->out);
}

static void json_object_ref(struct dump *d, const char *key, const struct object *obj)
{
	struct json_out *j = &d->j;
	const struct bpfrr_rec_object *id;
	const char *name;

	if (!obj) {
		json_null(j, key);
		return;
	}
	id = obj->ident;
	name = bpfrr_rt_obj_name(d->rt, &obj->base);
	json_obj_begin(j, key);
	json_str(j, "kind", kind_name(obj->base.kind));
	if (obj->base.origin)
		json_u64(j, "origin", obj->base.origin);
	else
		json_null(j, "origin");
	json_str(j, "name", name);
	if (id && !(id->flags & BPFRR_OBJECT_F_QUERY_FAILED))
		json_u64(j, "id", id->id);
	else
		json_null(j, "id");
	json_obj_end(j);
}

/* --- content renderers -------------------------------------------------------------- */

static const char *btf_kind_names[] = {
	"unknown", "int", "ptr", "array", "struct", "union", "enum", "fwd", "typedef",
	"volatile", "const", "restrict", "func", "func_proto", "var", "datasec", "float",
	"decl_tag", "type_tag", "enum64",
};

static int quiet_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* BTF: type count and named types. */
static void render_btf(struct dump *d, const void *data, size_t len, const char *indent)
{
	struct btf *btf;
	uint32_t n, i, named = 0, shown = 0;
	bool json = d->o->json;

	libbpf_set_print(quiet_libbpf);
	btf = btf__new(data, (uint32_t)len);
	if (!btf || libbpf_get_error(btf)) {
		if (json)
			json_str(&d->j, "btf_error", "not parseable as BTF");
		else
			fprintf(d->out, "%sBTF: not parseable\n", indent);
		return;
	}
	n = btf__type_cnt(btf);
	for (i = 1; i < n; i++)
		named += btf__type_by_id(btf, i)->name_off != 0;
	if (json) {
		json_obj_begin(&d->j, "btf");
		json_u64(&d->j, "types", n - 1);
		json_u64(&d->j, "named", named);
		json_arr_begin(&d->j, "named_types");
	} else {
		fprintf(d->out, "%sBTF: %u types, %u named", indent, n - 1, named);
	}
	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);
		const char *name = btf__name_by_offset(btf, t->name_off);
		unsigned int kind = btf_kind(t);
		const char *kname = kind < sizeof(btf_kind_names) / sizeof(btf_kind_names[0]) ?
				    btf_kind_names[kind] : "unknown";

		if (!t->name_off || !name)
			continue;
		if (json) {
			json_obj_begin(&d->j, NULL);
			json_u64(&d->j, "id", i);
			json_str(&d->j, "kind", kname);
			json_str(&d->j, "name", name);
			json_obj_end(&d->j);
			continue;
		}
		if (shown == TEXT_MAX_NAMES && !d->o->verbose)
			break;
		fprintf(d->out, "%s%s ", shown ? ", " : ": ", kname);
		text_escape(d->out, name, strlen(name));
		shown++;
	}
	if (json) {
		json_arr_end(&d->j);
		json_obj_end(&d->j);
	} else {
		if (shown < named)
			fprintf(d->out, ", ... (%u more)", named - shown);
		fputc('\n', d->out);
	}
	btf__free(btf);
}

/* The fd_array of the call being dumped, entry idx; -1 if not recorded. */
static int fd_array_entry(struct dump *d, uint32_t idx, int32_t *fd)
{
	const struct bpfrr_field *f;
	uint64_t addr;

	if (!d->call || d->call->cmd != BPFRR_CMD_PROG_LOAD)
		return -1;
	f = bpfrr_abi_cmd_field(BPFRR_CMD_PROG_LOAD, "fd_array");
	if (!f)
		return -1;
	addr = bpfrr_abi_field_get(f, d->call->attr, d->call->attr_len);
	if (!addr || read_phase(d, BPFRR_PHASE_ENTRY, addr + 4ull * idx, fd, 4))
		return -1;
	return 0;
}

/* "'counts' #3 id 17" for an object, "fd:5?" for an fd naming nothing known */
static void short_object(struct dump *d, int32_t fd, char *buf, size_t size)
{
	const struct object *obj = fd_object(d, d->tid, fd);
	const struct bpfrr_rec_object *id;
	const char *name;
	char idbuf[24] = "";

	if (!obj) {
		snprintf(buf, size, "fd:%d?", fd);
		return;
	}
	id = obj->ident;
	name = bpfrr_rt_obj_name(d->rt, &obj->base);
	if (id && !(id->flags & BPFRR_OBJECT_F_QUERY_FAILED))
		snprintf(idbuf, sizeof(idbuf), " id %u", id->id);
	if (obj->base.origin)
		snprintf(buf, size, "%s%s%s#%" PRIu64 "%s", name[0] ? "'" : "", name, name[0] ? "' " : "",
			 obj->base.origin, idbuf);
	else
		snprintf(buf, size, "%s%s%sfd:%d%s", name[0] ? "'" : "", name, name[0] ? "' " : "", fd, idbuf);
	/* names come from the tracee: keep the line printable */
	for (char *p = buf; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			*p = '?';
}

/* Disassembler hook: map and BTF references resolved to the objects they name. */
static int render_insn_ref(void *ctx, const struct bpfrr_disasm_ref *ref, char *buf, size_t size)
{
	struct dump *d = ctx;
	char obj[160];
	int32_t fd;

	switch (ref->type) {
	case BPFRR_DREF_MAP_FD:
		short_object(d, ref->fd, obj, sizeof(obj));
		return snprintf(buf, size, "map[%s]", obj);
	case BPFRR_DREF_MAP_VALUE:
		short_object(d, ref->fd, obj, sizeof(obj));
		return snprintf(buf, size, "map[%s]+%u", obj, ref->value_off);
	case BPFRR_DREF_MAP_IDX:
	case BPFRR_DREF_MAP_IDX_VALUE:
		if (fd_array_entry(d, (uint32_t)ref->fd, &fd))
			snprintf(obj, sizeof(obj), "fd_array[%d]?", ref->fd);
		else
			short_object(d, fd, obj, sizeof(obj));
		if (ref->type == BPFRR_DREF_MAP_IDX)
			return snprintf(buf, size, "map[%s]", obj);
		return snprintf(buf, size, "map[%s]+%u", obj, ref->value_off);
	case BPFRR_DREF_BTF_ID:
		if (!ref->fd)
			return 0;
		short_object(d, ref->fd, obj, sizeof(obj));
		return snprintf(buf, size, "btf_id[%u in %s]", ref->btf_id, obj);
	case BPFRR_DREF_KFUNC:
		if (!ref->fd)
			return 0;
		if (fd_array_entry(d, (uint32_t)ref->fd, &fd))
			snprintf(obj, sizeof(obj), "fd_array[%d]?", ref->fd);
		else
			short_object(d, fd, obj, sizeof(obj));
		return snprintf(buf, size, "kfunc[btf_id %u in %s]", ref->btf_id, obj);
	default:
		return 0;
	}
}

/* Instructions, one per line (text) or as an array of strings (JSON). */
static void render_insns(struct dump *d, const void *data, size_t len, const char *indent)
{
	struct bpfrr_disasm_opts opts = { .render_ref = render_insn_ref, .ctx = d };
	size_t cnt = len / BPFRR_INSN_SIZE, i;
	char line[512];

	if (d->o->json)
		json_u64(&d->j, "insn_cnt", cnt);
	else
		fprintf(d->out, "%s%zu insns%s\n", indent, cnt, len % 8 ? " (and a partial one)" : "");
	if (d->o->no_insns)
		return;
	if (!d->o->json) {
		bpfrr_disasm_fprint(d->out, data, cnt, &opts, indent);
		return;
	}
	json_arr_begin(&d->j, "insns");
	for (i = 0; i < cnt;) {
		int used = bpfrr_disasm_insn(data, cnt, i, &opts, line, sizeof(line));

		json_obj_begin(&d->j, NULL);
		json_u64(&d->j, "idx", i);
		json_str(&d->j, "text", line);
		json_obj_end(&d->j);
		i += used > 0 ? (size_t)used : 1;
	}
	json_arr_end(&d->j);
}

/* The last LOG_EXCERPT_LINES lines of a log (all with -v). */
static void render_log(struct dump *d, const char *text, size_t len, bool failed, const char *indent)
{
	size_t start = 0, lines = 0, i, end;

	/* the kernel NUL-terminates; stop there */
	end = strnlen(text, len);
	for (i = end; i > 0; i--) {
		if (text[i - 1] == '\n' && i != end) {
			if (++lines == LOG_EXCERPT_LINES && !d->o->verbose) {
				start = i;
				break;
			}
		}
	}
	if (d->o->json) {
		json_strn(&d->j, "text", text + start, end - start);
		json_bool(&d->j, "excerpt", start > 0);
		return;
	}
	if (!failed && !d->o->verbose) {
		fprintf(d->out, "%slog: %zu bytes of text\n", indent, end);
		return;
	}
	if (start)
		fprintf(d->out, "%slog (last %d lines):\n", indent, LOG_EXCERPT_LINES);
	else
		fprintf(d->out, "%slog:\n", indent);
	while (start < end) {
		const char *nl = memchr(text + start, '\n', end - start);
		size_t n = nl ? (size_t)(nl - (text + start)) : end - start;

		fprintf(d->out, "%s| ", indent);
		text_escape(d->out, text + start, n);
		fputc('\n', d->out);
		start += n + 1;
	}
}

static int print_struct_field(void *arg, const struct bpfrr_field *f, const char *path,
			      uint64_t value, const char *symbolic);

struct field_ctx {
	struct dump *d;
	const char *indent;
	struct json_tree *tree;
	size_t prefix_len;	/* strlen of the path prefix to strip */
	/* entry values, to show what the kernel changed at exit */
	struct {
		const struct bpfrr_field *f;
		uint64_t value;
		char *symbolic;
	} *entry;
	size_t nr_entry, cap_entry;
	bool exit_pass;
};

/* Array buffers: ids, u32/u64 arrays. */
static void render_numbers(struct dump *d, const void *data, size_t len, int width, const char *indent)
{
	size_t n = len / width, i, shown = d->o->verbose ? n : (n < ARRAY_SHOWN ? n : ARRAY_SHOWN);

	if (d->o->json) {
		json_arr_begin(&d->j, "values");
		for (i = 0; i < n; i++) {
			uint64_t v = 0;

			memcpy(&v, (const uint8_t *)data + i * width, width);
			json_u64(&d->j, NULL, v);
		}
		json_arr_end(&d->j);
		return;
	}
	fprintf(d->out, "%s[", indent);
	for (i = 0; i < shown; i++) {
		uint64_t v = 0;

		memcpy(&v, (const uint8_t *)data + i * width, width);
		fprintf(d->out, width == 8 ? "%s0x%" PRIx64 : "%s%" PRIu64, i ? ", " : "", v);
	}
	if (shown < n)
		fprintf(d->out, ", ... (%zu more)", n - shown);
	fputs("]\n", d->out);
}

static void render_fd_array(struct dump *d, const void *data, size_t len, const char *indent)
{
	size_t n = len / 4, i;

	if (d->o->json) {
		json_arr_begin(&d->j, "fds");
		for (i = 0; i < n; i++) {
			int32_t fd;

			memcpy(&fd, (const uint8_t *)data + 4 * i, 4);
			json_obj_begin(&d->j, NULL);
			json_i64(&d->j, "fd", fd);
			json_object_ref(d, "object", fd_object(d, d->tid, fd));
			json_obj_end(&d->j);
		}
		json_arr_end(&d->j);
		return;
	}
	for (i = 0; i < n; i++) {
		int32_t fd;

		memcpy(&fd, (const uint8_t *)data + 4 * i, 4);
		fprintf(d->out, "%s[%zu] ", indent, i);
		text_fd(d, fd);
		fputc('\n', d->out);
	}
}

static bool call_failed(const struct dump *d)
{
	if (d->call)
		return bpfrr_trace_ret_errno(d->call->ret) != 0;
	return d->sys && bpfrr_trace_ret_errno(d->sys->ret) != 0;
}

/* BPF_OBJ_GET_INFO_BY_FD: the info layout for the kind of object queried. */
static const struct bpfrr_struct_desc *info_desc_of_call(struct dump *d)
{
	const struct bpfrr_field *f;
	const struct object *obj;

	if (!d->call || d->call->cmd != BPFRR_CMD_OBJ_GET_INFO_BY_FD)
		return NULL;
	f = bpfrr_abi_cmd_field(BPFRR_CMD_OBJ_GET_INFO_BY_FD, "info.bpf_fd");
	if (!f || f->offset + f->size > d->call->attr_len)
		return NULL;
	obj = fd_object(d, d->tid, (int32_t)bpfrr_abi_field_get(f, d->call->attr, d->call->attr_len));
	return obj ? bpfrr_abi_info_desc(obj->base.kind) : NULL;
}

/* What a region's bytes hold, rendered by content. */
static void render_content(struct dump *d, const struct bpfrr_trace_region *reg, const struct bpfrr_rec_blob *b,
			   const char *indent)
{
	const struct bpfrr_struct_desc *desc = NULL;
	bool json = d->o->json;

	switch (reg->content) {
	case BPFRR_CONTENT_STRING:
	case BPFRR_CONTENT_PATH:
	case BPFRR_CONTENT_NAME: {
		size_t n = strnlen(b->data, b->len);

		if (json)
			json_strn(&d->j, "text", b->data, n);
		else {
			fputs(indent, d->out);
			text_quoted(d->out, b->data, n);
			fputc('\n', d->out);
		}
		return;
	}
	case BPFRR_CONTENT_LOG:
		render_log(d, b->data, b->len, call_failed(d), indent);
		return;
	case BPFRR_CONTENT_INSNS:
		render_insns(d, b->data, b->len, indent);
		return;
	case BPFRR_CONTENT_BTF:
		render_btf(d, b->data, b->len, indent);
		return;
	case BPFRR_CONTENT_FD_ARRAY:
		render_fd_array(d, b->data, b->len, indent);
		return;
	case BPFRR_CONTENT_IDS:
	case BPFRR_CONTENT_U32_ARRAY:
		render_numbers(d, b->data, b->len, 4, indent);
		return;
	case BPFRR_CONTENT_U64_ARRAY:
	case BPFRR_CONTENT_PTR_ARRAY:
		render_numbers(d, b->data, b->len, 8, indent);
		return;
	case BPFRR_CONTENT_PROG_INFO:
		desc = &bpfrr_abi_prog_info_desc;
		break;
	case BPFRR_CONTENT_MAP_INFO:
		desc = &bpfrr_abi_map_info_desc;
		break;
	case BPFRR_CONTENT_BTF_INFO:
		desc = &bpfrr_abi_btf_info_desc;
		break;
	case BPFRR_CONTENT_LINK_INFO:
		desc = &bpfrr_abi_link_info_desc;
		break;
	case BPFRR_CONTENT_INFO:
		/* an info struct: its layout is that of the object behind info.bpf_fd */
		desc = info_desc_of_call(d);
		break;
	default:
		break;
	}
	if (desc) {
		struct field_ctx fc = { .d = d, .indent = indent };

		if (json) {
			fc.tree = json_tree_new();
			fc.prefix_len = strlen("info") + 1;
		} else {
			fc.prefix_len = strlen("info") + 1;
		}
		bpfrr_abi_walk_struct_fields(desc, b->data, b->len, "info", 0, print_struct_field, &fc);
		if (fc.tree) {
			json_tree_emit(fc.tree, &d->j, "fields");
			json_tree_free(fc.tree);
		}
		return;
	}
	/* the perf_event_attr of perf_event_open, PERF_EVENT_IOC_MODIFY_ATTRIBUTES */
	if (d->sys && reg->content == BPFRR_CONTENT_BYTES && !strcmp(reg->path, "perf_event_attr")) {
		dump_perf_attr(json ? NULL : d->out, json ? &d->j : NULL, b->data, b->len, indent);
		return;
	}
	/* keys, values, records, bytes: whole when small, else size and hash */
	if (b->len <= SMALL_BUF) {
		if (json)
			json_hex(&d->j, "hex", b->data, b->len);
		else if (b->len) {
			fputs(indent, d->out);
			hex(d->out, b->data, b->len);
			fputc('\n', d->out);
		}
	}
}

static const char *phase_name(uint8_t phase)
{
	return phase == BPFRR_PHASE_EXIT ? "exit" : "entry";
}

static const char *dir_name(uint8_t dir)
{
	const char *name = bpfrr_abi_dir_name(dir);

	return name ? name : "?";
}

/* One captured buffer: where, how much, its hash, then its content. */
static void render_region(struct dump *d, const struct bpfrr_trace_region *reg, const char *indent)
{
	const struct bpfrr_rec_blob *b = reg->blob ? bpfrr_trace_blob(d->r, reg->blob) : NULL;
	const char *content = bpfrr_abi_content_name(reg->content);
	char sub[64];

	if (d->o->json) {
		struct json_out *j = &d->j;

		json_obj_begin(j, NULL);
		json_str(j, "path", reg->path);
		json_str(j, "phase", phase_name(reg->phase));
		json_str(j, "dir", dir_name(reg->dir));
		json_str(j, "content", content ? content : "unknown");
		json_u64(j, "addr", reg->addr);
		json_u64(j, "len", reg->len);
		json_u64(j, "want_len", reg->want_len);
		json_u64(j, "captured", b ? b->len : 0);
		if (b)
			json_hex(j, "sha256", b->sha256, sizeof(b->sha256));
		else
			json_null(j, "sha256");
		json_arr_begin(j, "flags");
		if (reg->flags & BPFRR_REGION_TRUNCATED)
			json_str(j, NULL, "truncated");
		if (reg->flags & BPFRR_REGION_LEN_UNKNOWN)
			json_str(j, NULL, "len_unknown");
		if (reg->flags & BPFRR_REGION_NO_NUL)
			json_str(j, NULL, "no_nul");
		if (reg->flags & BPFRR_REGION_UNREADABLE)
			json_str(j, NULL, "unreadable");
		if (reg->flags & BPFRR_REGION_SHORT)
			json_str(j, NULL, "short");
		json_arr_end(j);
		if (reg->err)
			json_str(j, "error", errno_name(reg->err));
		if (b)
			render_content(d, reg, b, "");
		json_obj_end(j);
		return;
	}

	fprintf(d->out, "%s%s %s: %" PRIu64 " bytes", indent, phase_name(reg->phase), dir_name(reg->dir),
		b ? b->len : 0);
	if (b && b->len != reg->len)
		fprintf(d->out, " of %" PRIu64, reg->len);
	if (reg->flags & BPFRR_REGION_TRUNCATED)
		fprintf(d->out, " (capped, %" PRIu64 " wanted)", reg->want_len);
	if (reg->flags & BPFRR_REGION_LEN_UNKNOWN)
		fputs(" (length unknown)", d->out);
	if (reg->flags & BPFRR_REGION_NO_NUL)
		fputs(" (no NUL)", d->out);
	if (reg->flags & BPFRR_REGION_UNREADABLE)
		fputs(" (unreadable)", d->out);
	if (reg->flags & BPFRR_REGION_SHORT)
		fputs(" (short read)", d->out);
	if (reg->err)
		fprintf(d->out, " %s", errno_name(reg->err));
	if (content && reg->content != BPFRR_CONTENT_NONE)
		fprintf(d->out, ", %s", content);
	if (b && b->len > SMALL_BUF) {
		fputs(", sha256 ", d->out);
		hex(d->out, b->sha256, 8);
	}
	fputc('\n', d->out);
	if (b) {
		snprintf(sub, sizeof(sub), "%s  ", indent);
		render_content(d, reg, b, sub);
	}
}

/* Every region of the call whose path is path (both phases), once. */
static void render_regions_at(struct dump *d, const char *path, const char *indent)
{
	const struct bpfrr_trace_region *regs = d->cur.regions;
	uint32_t i;

	for (i = 0; i < d->cur.nr_regions; i++) {
		if (d->region_done[i] || strcmp(regs[i].path, path))
			continue;
		d->region_done[i] = true;
		render_region(d, &regs[i], indent);
	}
}

/* --- attr fields ------------------------------------------------------------------------ */

static void field_entry_save(struct field_ctx *fc, const struct bpfrr_field *f, uint64_t value,
			     const char *symbolic)
{
	if (fc->nr_entry == fc->cap_entry) {
		size_t cap = fc->cap_entry ? fc->cap_entry * 2 : 32;
		void *p = realloc(fc->entry, cap * sizeof(*fc->entry));

		if (!p) {
			fc->d->oom = true;
			return;
		}
		fc->entry = p;
		fc->cap_entry = cap;
	}
	fc->entry[fc->nr_entry].f = f;
	fc->entry[fc->nr_entry].value = value;
	fc->entry[fc->nr_entry].symbolic = symbolic ? strdup(symbolic) : NULL;
	fc->nr_entry++;
}

/* Did the kernel change this field? (true for fields not seen at entry) */
static bool field_changed(const struct field_ctx *fc, const struct bpfrr_field *f, uint64_t value,
			  const char *symbolic)
{
	size_t i;

	for (i = 0; i < fc->nr_entry; i++) {
		if (fc->entry[i].f != f)
			continue;
		if (fc->entry[i].value != value)
			return true;
		if (!symbolic != !fc->entry[i].symbolic)
			return true;
		return symbolic && strcmp(symbolic, fc->entry[i].symbolic);
	}
	return true;
}

/* JSON value of a field: numbers as numbers, enum names and flags as strings. */
static void json_field_value(struct json_tree *t, const char *name, const struct bpfrr_field *f,
			     uint64_t value, const char *symbolic)
{
	switch (f->kind) {
	case BPFRR_FIELD_ENUM: {
		const char *uapi = bpfrr_abi_xlat_name(f->xlat, value);

		if (uapi)
			json_tree_str(t, name, uapi);
		else
			json_tree_u64(t, name, value);
		return;
	}
	case BPFRR_FIELD_FLAGS: {
		char buf[512];

		if (f->xlat) {
			bpfrr_abi_xlat_format(f->xlat, value, buf, sizeof(buf));
			json_tree_str(t, name, buf);
		} else {
			json_tree_u64(t, name, value);
		}
		return;
	}
	case BPFRR_FIELD_INT:
	case BPFRR_FIELD_FD: {
		int64_t v = (int64_t)value;

		/* sign-extend from the field's width */
		if (f->size < 8 && f->size > 0 && (value >> (f->size * 8 - 1)) & 1)
			v = (int64_t)(value | ~((1ull << (f->size * 8)) - 1));
		json_tree_i64(t, name, v);
		return;
	}
	case BPFRR_FIELD_STR:
	case BPFRR_FIELD_BYTES:
		json_tree_str(t, name, symbolic ? symbolic : "");
		return;
	default:
		json_tree_u64(t, name, value);
		return;
	}
}

static void text_field_value(struct dump *d, const struct bpfrr_field *f, uint64_t value, const char *symbolic)
{
	FILE *out = d->out;

	switch (f->kind) {
	case BPFRR_FIELD_ENUM:
	case BPFRR_FIELD_FLAGS:
		if (symbolic && strcmp(symbolic, "0"))
			fprintf(out, "%s (%#" PRIx64 ")", symbolic, value);
		else
			fprintf(out, "%" PRIu64, value);
		return;
	case BPFRR_FIELD_INT:
		fprintf(out, "%" PRId64, f->size == 4 ? (int64_t)(int32_t)value : (int64_t)value);
		return;
	case BPFRR_FIELD_FD:
		if (!value && (f->flags & BPFRR_FIELDF_FD_OPTIONAL))
			fputs("0", out);
		else
			text_fd(d, (int32_t)value);
		return;
	case BPFRR_FIELD_PTR:
		fprintf(out, "%#" PRIx64, value);
		return;
	case BPFRR_FIELD_STR:
		text_quoted(out, symbolic ? symbolic : "", symbolic ? strlen(symbolic) : 0);
		return;
	case BPFRR_FIELD_BYTES:
		fputs(symbolic ? symbolic : "", out);
		return;
	default:
		fprintf(out, "%" PRIu64, value);
		return;
	}
}

/* One field of a nested struct (an info struct the kernel wrote). */
static int print_struct_field(void *arg, const struct bpfrr_field *f, const char *path,
			      uint64_t value, const char *symbolic)
{
	struct field_ctx *fc = arg;
	const char *name = strlen(path) > fc->prefix_len ? path + fc->prefix_len : path;

	if (f->kind == BPFRR_FIELD_PAD)
		return 0;
	if (fc->tree) {
		json_field_value(fc->tree, name, f, value, symbolic);
		return 0;
	}
	fprintf(fc->d->out, "%s%s: ", fc->indent, name);
	if (f->kind == BPFRR_FIELD_FD)
		fprintf(fc->d->out, "%" PRId64, (int64_t)(int32_t)value);
	else
		text_field_value(fc->d, f, value, symbolic);
	fputc('\n', fc->d->out);
	return 0;
}

/* One attr field: its value, and the buffers it points to. */
static int print_attr_field(void *arg, const struct bpfrr_field *f, const char *path,
			    uint64_t value, const char *symbolic)
{
	struct field_ctx *fc = arg;
	struct dump *d = fc->d;
	const char *name = !strncmp(path, "attr.", 5) ? path + 5 : path;

	if (f->kind == BPFRR_FIELD_PAD && !value)
		return 0;
	if (!fc->exit_pass)
		field_entry_save(fc, f, value, symbolic);
	else if (!field_changed(fc, f, value, symbolic))
		return 0;

	if (fc->tree) {
		json_field_value(fc->tree, name, f, value, symbolic);
		return 0;
	}
	fprintf(d->out, "%s%s%s: ", fc->indent, fc->exit_pass ? "=> " : "", name);
	text_field_value(d, f, value, symbolic);
	if (f->kind == BPFRR_FIELD_PAD)
		fputs(" (reserved, not zero)", d->out);
	fputc('\n', d->out);
	if (f->kind == BPFRR_FIELD_PTR && !fc->exit_pass && value)
		render_regions_at(d, path, "      ");
	return 0;
}

static void field_ctx_free(struct field_ctx *fc)
{
	size_t i;

	for (i = 0; i < fc->nr_entry; i++)
		free(fc->entry[i].symbolic);
	free(fc->entry);
}

/* --- calls ------------------------------------------------------------------------------- */

static bool filter_tid(const struct dump *d, uint32_t tid)
{
	return !d->o->has_tid || d->o->tid == tid;
}

static bool filter_bpf(const struct dump *d, const struct bpfrr_rec_bpf_call *c)
{
	int i;

	if (!filter_tid(d, c->tid))
		return false;
	if (!d->o->nr_cmds && !d->o->nr_syscalls)
		return true;
	for (i = 0; i < d->o->nr_cmds; i++)
		if ((uint32_t)d->o->cmds[i] == c->cmd)
			return true;
	return false;
}

static bool filter_sys(const struct dump *d, const struct bpfrr_rec_syscall *s)
{
	int i;

	if (!filter_tid(d, s->tid))
		return false;
	if (!d->o->nr_cmds && !d->o->nr_syscalls)
		return true;
	for (i = 0; i < d->o->nr_syscalls; i++)
		if (!strcmp(d->o->syscalls[i], s->name))
			return true;
	return false;
}

static const char *cmd_name(uint32_t cmd)
{
	const char *name = cmd < (uint32_t)BPFRR_ABI_NR_CMDS ? bpfrr_abi_cmd_name((int)cmd) : NULL;

	return name;
}

static void text_cmd(FILE *f, uint32_t cmd)
{
	const char *name = cmd_name(cmd);

	if (name)
		fputs(name, f);
	else
		fprintf(f, "bpf_cmd_%u", cmd);
}

static void text_result(struct dump *d, int64_t ret, uint32_t flags)
{
	int e = bpfrr_trace_ret_errno(ret);

	if (flags & BPFRR_CALL_NO_EXIT)
		fputs(" = ? (did not return)", d->out);
	else if (e)
		fprintf(d->out, " = -1 %s", errno_name(e));
	else
		fprintf(d->out, " = %" PRId64, ret);
}

static void json_result(struct dump *d, int64_t ret, uint32_t flags, uint64_t t_enter, uint64_t t_exit)
{
	int e = bpfrr_trace_ret_errno(ret);

	if (flags & BPFRR_CALL_NO_EXIT) {
		json_null(&d->j, "ret");
		json_null(&d->j, "errno");
		json_u64(&d->j, "t_enter_ns", t_enter);
		json_null(&d->j, "duration_ns");
		return;
	}
	json_i64(&d->j, "ret", e ? -1 : ret);
	if (e)
		json_str(&d->j, "errno", errno_name(e));
	else
		json_null(&d->j, "errno");
	json_u64(&d->j, "t_enter_ns", t_enter);
	json_u64(&d->j, "duration_ns", t_exit >= t_enter ? t_exit - t_enter : 0);
}

static void text_identity(struct dump *d, const struct bpfrr_rec_object *id, uint32_t kind)
{
	FILE *f = d->out;

	fprintf(f, " (%s", kind_name(kind));
	if (!id) {
		fputs(", no identity recorded)", f);
		return;
	}
	if (id->flags & BPFRR_OBJECT_F_QUERY_FAILED) {
		fprintf(f, ", identity query failed: %s)", errno_name(id->err));
		return;
	}
	fprintf(f, " id %u", id->id);
	if (id->kind == BPFRR_OBJ_PROG) {
		fputs(" tag ", f);
		hex(f, id->tag, sizeof(id->tag));
	}
	if (id->name[0]) {
		fputs(" '", f);
		text_escape(f, id->name, strlen(id->name));
		fputc('\'', f);
	}
	fputc(')', f);
}

/* The UAPI name of value in the enum of field name of cmd's attr ("BPF_MAP_TYPE_HASH"). */
static const char *uapi_name(int cmd, const char *field, uint64_t value)
{
	const struct bpfrr_field *f = bpfrr_abi_cmd_field(cmd, field);

	return f && f->xlat ? bpfrr_abi_xlat_name(f->xlat, value) : NULL;
}

static const char *link_type_uapi(uint32_t type)
{
	const struct bpfrr_struct_desc *desc = &bpfrr_abi_link_info_desc;
	unsigned int i;

	for (i = 0; i < desc->nr_fields; i++)
		if (!strcmp(desc->fields[i].name, "type") && desc->fields[i].xlat)
			return bpfrr_abi_xlat_name(desc->fields[i].xlat, type);
	return NULL;
}

/* an enum as its UAPI name, or its number when the name is unknown */
static void json_enum(struct json_out *j, const char *key, const char *name, uint64_t value)
{
	if (name)
		json_str(j, key, name);
	else
		json_u64(j, key, value);
}

static void json_identity(struct dump *d, const struct bpfrr_rec_object *id, uint32_t kind, int64_t fd)
{
	struct json_out *j = &d->j;

	json_obj_begin(j, "object");
	json_str(j, "kind", kind_name(kind));
	json_i64(j, "fd", fd);
	if (!id || (id->flags & BPFRR_OBJECT_F_QUERY_FAILED)) {
		json_null(j, "id");
		if (id)
			json_str(j, "error", errno_name(id->err));
		json_obj_end(j);
		return;
	}
	json_u64(j, "id", id->id);
	json_str(j, "name", id->name);
	switch (id->kind) {
	case BPFRR_OBJ_PROG:
		json_hex(j, "tag", id->tag, sizeof(id->tag));
		json_enum(j, "type", uapi_name(BPFRR_CMD_PROG_LOAD, "prog_type", id->type), id->type);
		json_enum(j, "attach_type", uapi_name(BPFRR_CMD_PROG_LOAD, "expected_attach_type", id->attach_type),
			  id->attach_type);
		json_u64(j, "btf_id", id->btf_id);
		json_u64(j, "attach_btf_obj_id", id->target_obj_id);
		json_u64(j, "attach_btf_id", id->target_btf_id);
		break;
	case BPFRR_OBJ_MAP:
		json_enum(j, "type", uapi_name(BPFRR_CMD_MAP_CREATE, "map_type", id->type), id->type);
		json_u64(j, "key_size", id->key_size);
		json_u64(j, "value_size", id->value_size);
		json_u64(j, "max_entries", id->max_entries);
		json_u64(j, "map_flags", id->map_flags);
		json_u64(j, "btf_id", id->btf_id);
		break;
	case BPFRR_OBJ_BTF:
		json_u64(j, "btf_size", id->btf_size);
		break;
	case BPFRR_OBJ_LINK:
		json_enum(j, "type", link_type_uapi(id->type), id->type);
		json_u64(j, "prog_id", id->prog_id);
		json_enum(j, "attach_type", uapi_name(BPFRR_CMD_PROG_LOAD, "expected_attach_type", id->attach_type),
			  id->attach_type);
		json_u64(j, "target_obj_id", id->target_obj_id);
		json_u64(j, "target_btf_id", id->target_btf_id);
		json_u64(j, "target", id->target);
		break;
	}
	json_obj_end(j);
}

/* fds the call passes in, resolved (JSON "fds"; text: only those inside buffers). */
struct fds_ctx {
	struct dump *d;
	bool any;
};

static int print_fd_ref(void *arg, const struct bpfrr_abi_fd_ref *ref)
{
	struct fds_ctx *fc = arg;
	struct dump *d = fc->d;
	struct object *obj = fd_object(d, d->tid, ref->fd);

	if (d->o->json) {
		json_obj_begin(&d->j, NULL);
		json_str(&d->j, "path", ref->path);
		json_i64(&d->j, "fd", ref->fd);
		json_object_ref(d, "object", obj);
		json_obj_end(&d->j);
		return 0;
	}
	/* attr fields and insns are shown where they are; the rest here */
	if (ref->type == BPFRR_FDREF_FIELD && ref->where == BPFRR_FD_IN_ATTR)
		return 0;
	if (ref->type == BPFRR_FDREF_LD_IMM64 || ref->type == BPFRR_FDREF_BTF_ID_MODULE ||
	    ref->type == BPFRR_FDREF_FD_ARRAY)
		return 0;
	if (!fc->any)
		fputs("    fds in buffers:\n", d->out);
	fc->any = true;
	fprintf(d->out, "      %s: ", ref->path);
	text_fd(d, ref->fd);
	fputc('\n', d->out);
	return 0;
}

static void note_list_for(struct dump *d, uint64_t seq, size_t *first)
{
	uint64_t v;

	*first = seq && bpfrr_u64map_get(&d->notes, seq, &v) ? (size_t)v : 0;
}

static void json_notes(struct dump *d, uint64_t seq)
{
	size_t i, first;

	note_list_for(d, seq, &first);
	if (!first)
		return;
	json_arr_begin(&d->j, "notes");
	for (i = first - 1; i < d->nr_notes; i++)
		if (d->notes_list[i].seq == seq)
			json_str(&d->j, NULL, d->notes_list[i].text);
	json_arr_end(&d->j);
}

static bool ensure_region_done(struct dump *d, uint32_t nr)
{
	if (nr > d->region_done_cap) {
		bool *p = realloc(d->region_done, nr * sizeof(bool));

		if (!p) {
			d->oom = true;
			return false;
		}
		d->region_done = p;
		d->region_done_cap = nr;
	}
	if (nr)
		memset(d->region_done, 0, nr * sizeof(bool));
	return true;
}

static void note_failure(struct dump *d, uint64_t seq, uint32_t tid, const char *what, uint32_t cmd,
			 int64_t ret, uint32_t flags)
{
	struct failure *f;

	if (d->nr_failures == d->cap_failures) {
		size_t cap = d->cap_failures ? d->cap_failures * 2 : 16;

		f = realloc(d->failures, cap * sizeof(*f));
		if (!f) {
			d->oom = true;
			return;
		}
		d->failures = f;
		d->cap_failures = cap;
	}
	f = &d->failures[d->nr_failures++];
	f->seq = seq;
	f->tid = tid;
	f->what = what;
	f->cmd = cmd;
	f->err = flags & BPFRR_CALL_NO_EXIT ? 0 : bpfrr_trace_ret_errno(ret);
}

static void count_cmd(struct dump *d, uint32_t cmd, bool failed)
{
	struct counter *c = &d->cmd_counts[cmd < (uint32_t)BPFRR_ABI_NR_CMDS ? cmd : BPFRR_ABI_NR_CMDS];

	c->calls++;
	c->failed += failed;
}

/* What a successful call made: register the object so later fds resolve. */
static void note_created(struct dump *d, const struct bpfrr_rec_bpf_call *c, uint32_t kind)
{
	struct object *obj;
	int err;

	d->created[kind < BPFRR_OBJ__MAX ? kind : BPFRR_OBJ__MAX]++;
	obj = (struct object *)bpfrr_rt_call_result(d->rt, &d->cur, &err);
	if (err)
		d->oom = true;
	if (obj)
		obj->made_by = cmd_name(c->cmd);
}

static void dump_bpf_call(struct dump *d, const struct bpfrr_rec_bpf_call *c)
{
	bool shown = filter_bpf(d, c), failed = bpfrr_trace_ret_errno(c->ret) != 0;
	enum bpfrr_obj_kind kind = BPFRR_OBJ_NONE;
	struct field_ctx fc = { .d = d, .indent = "    " };
	const struct bpfrr_abi_env *env;
	struct bpfrr_rt_walk walk;
	const struct bpfrr_rec_object *id;
	struct fds_ctx fds = { .d = d };
	uint32_t i;

	d->call = c;
	d->sys = NULL;
	bpfrr_rt_call_bpf(&d->cur, c);
	d->tid = c->tid;
	d->nr_bpf++;
	d->nr_failed += failed || (c->flags & BPFRR_CALL_NO_EXIT);
	count_cmd(d, c->cmd, failed || (c->flags & BPFRR_CALL_NO_EXIT));
	if ((failed || (c->flags & BPFRR_CALL_NO_EXIT)) && filter_bpf(d, c))
		note_failure(d, c->seq, c->tid, cmd_name(c->cmd), c->cmd, c->ret, c->flags);
	env = bpfrr_rt_walk_env(&walk, d->rt, &d->cur, BPFRR_PHASE_ENTRY);
	if (c->cmd < (uint32_t)BPFRR_ABI_NR_CMDS)
		kind = bpfrr_abi_cmd_ret_kind((int)c->cmd, c->attr, c->attr_len);
	id = kind != BPFRR_OBJ_NONE ? bpfrr_rt_identity(d->rt, c->seq) : NULL;

	if (!shown || d->o->summary || !ensure_region_done(d, c->nr_regions))
		goto created;

	if (d->o->json) {
		struct json_out *j = &d->j;

		json_obj_begin(j, NULL);
		json_u64(j, "seq", c->seq);
		json_u64(j, "tid", c->tid);
		json_str(j, "syscall", "bpf");
		json_str(j, "cmd", cmd_name(c->cmd));
		json_u64(j, "cmd_nr", c->cmd);
		json_u64(j, "attr_size", c->attr_size);
		json_result(d, c->ret, c->flags, c->t_enter_ns, c->t_exit_ns);
		fc.tree = json_tree_new();
		if (fc.tree)
			bpfrr_abi_walk_fields_env((int)c->cmd, c->attr, c->attr_len, env, print_attr_field, &fc);
		if (fc.tree) {
			json_tree_emit(fc.tree, j, "attr");
			json_tree_free(fc.tree);
		}
		if (c->attr_exit_len) {
			fc.tree = json_tree_new();
			fc.exit_pass = true;
			if (fc.tree)
				bpfrr_abi_walk_fields_env((int)c->cmd, c->attr_exit, c->attr_exit_len, env,
							  print_attr_field, &fc);
			if (fc.tree) {
				json_tree_emit(fc.tree, j, "attr_out");
				json_tree_free(fc.tree);
			}
		}
		json_arr_begin(j, "fds");
		bpfrr_abi_walk_fds((int)c->cmd, c->attr, c->attr_len, env, print_fd_ref, &fds);
		json_arr_end(j);
		json_arr_begin(j, "buffers");
		for (i = 0; i < c->nr_regions; i++)
			render_region(d, &c->regions[i], "");
		json_arr_end(j);
		if (kind != BPFRR_OBJ_NONE && !failed && !(c->flags & BPFRR_CALL_NO_EXIT))
			json_identity(d, id, kind, c->ret);
		else
			json_null(j, "object");
		json_arr_begin(j, "flags");
		if (c->flags & BPFRR_CALL_NO_EXIT)
			json_str(j, NULL, "no_exit");
		if (c->flags & BPFRR_CALL_ATTR_UNREADABLE)
			json_str(j, NULL, "attr_unreadable");
		if (c->flags & BPFRR_CALL_ATTR_TRUNCATED)
			json_str(j, NULL, "attr_truncated");
		json_arr_end(j);
		json_notes(d, c->seq);
		json_obj_end(j);
		json_newline(j);
		goto created;
	}

	fprintf(d->out, "#%" PRIu64 " [%u] ", c->seq, c->tid);
	text_cmd(d->out, c->cmd);
	text_result(d, c->ret, c->flags);
	if (kind != BPFRR_OBJ_NONE && !failed && !(c->flags & BPFRR_CALL_NO_EXIT))
		text_identity(d, id, kind);
	if (!(c->flags & BPFRR_CALL_NO_EXIT)) {
		fputc(' ', d->out);
		print_duration(d->out, c->t_enter_ns, c->t_exit_ns);
	}
	fputc('\n', d->out);
	fprintf(d->out, "  attr: %u bytes at %#" PRIx64, c->attr_size, c->attr_addr);
	if (c->flags & BPFRR_CALL_ATTR_UNREADABLE)
		fputs(", unreadable", d->out);
	else if (c->attr_len != c->attr_size)
		fprintf(d->out, ", %u captured", c->attr_len);
	fputc('\n', d->out);
	if (c->cmd >= (uint32_t)BPFRR_ABI_NR_CMDS || !bpfrr_abi_cmd((int)c->cmd)) {
		fputs("    unknown command; attr bytes: ", d->out);
		hex(d->out, c->attr, c->attr_len);
		fputc('\n', d->out);
	} else {
		bpfrr_abi_walk_fields_env((int)c->cmd, c->attr, c->attr_len, env, print_attr_field, &fc);
		if (c->attr_exit_len) {
			fc.exit_pass = true;
			bpfrr_abi_walk_fields_env((int)c->cmd, c->attr_exit, c->attr_exit_len, env,
						  print_attr_field, &fc);
		}
		bpfrr_abi_walk_fds((int)c->cmd, c->attr, c->attr_len, env, print_fd_ref, &fds);
	}
	/* buffers not pointed to by attr itself (nested, or written at exit) */
	for (i = 0; i < c->nr_regions; i++) {
		if (d->region_done[i])
			continue;
		text_label(d->out, "    ", c->regions[i].path);
		d->region_done[i] = true;
		render_region(d, &c->regions[i], "      ");
	}
created:
	field_ctx_free(&fc);
	d->call = NULL;
	if (kind != BPFRR_OBJ_NONE && !failed && !(c->flags & BPFRR_CALL_NO_EXIT))
		note_created(d, c, kind);
	memset(&d->cur, 0, sizeof(d->cur));
}

static void count_syscall(struct dump *d, const char *name, bool failed)
{
	size_t i;

	for (i = 0; i < d->nr_sys_counts; i++)
		if (!strcmp(d->sys_counts[i].name, name))
			break;
	if (i == d->nr_sys_counts) {
		if (i == d->cap_sys_counts) {
			size_t cap = i ? i * 2 : 8;
			struct counter *p = realloc(d->sys_counts, cap * sizeof(*p));

			if (!p) {
				d->oom = true;
				return;
			}
			d->sys_counts = p;
			d->cap_sys_counts = cap;
		}
		d->sys_counts[i].name = name;
		d->sys_counts[i].calls = d->sys_counts[i].failed = 0;
		d->nr_sys_counts++;
	}
	d->sys_counts[i].calls++;
	d->sys_counts[i].failed += failed;
}

static void dump_syscall(struct dump *d, const struct bpfrr_rec_syscall *s)
{
	bool failed = bpfrr_trace_ret_errno(s->ret) != 0 || (s->flags & BPFRR_CALL_NO_EXIT);
	uint32_t i;

	d->call = NULL;
	d->sys = s;
	bpfrr_rt_call_sys(&d->cur, s);
	d->tid = s->tid;
	d->nr_sys++;
	count_syscall(d, s->name, failed);
	if (failed && filter_sys(d, s))
		note_failure(d, s->seq, s->tid, s->name, 0, s->ret, s->flags);
	/* the object an fd-returning syscall makes is named after it */
	if (!failed) {
		struct object *obj = object_of(d, s->seq, BPFRR_OBJ_NONE);

		if (obj)
			obj->made_by = s->name;
	}
	if (!filter_sys(d, s) || d->o->summary || !ensure_region_done(d, s->nr_regions))
		goto out;
	if (d->o->json) {
		struct json_out *j = &d->j;

		json_obj_begin(j, NULL);
		json_u64(j, "seq", s->seq);
		json_u64(j, "tid", s->tid);
		json_str(j, "syscall", s->name);
		json_u64(j, "nr", s->nr);
		json_result(d, s->ret, s->flags, s->t_enter_ns, s->t_exit_ns);
		json_arr_begin(j, "args");
		for (i = 0; i < dump_sys_nr_args(s->name); i++)
			json_u64(j, NULL, s->args[i]);
		json_arr_end(j);
		dump_sys_args(NULL, j, s->name, d->hdr ? d->hdr->arch : 0, s->args);
		json_arr_begin(j, "buffers");
		for (i = 0; i < s->nr_regions; i++)
			render_region(d, &s->regions[i], "");
		json_arr_end(j);
		json_arr_begin(j, "flags");
		if (s->flags & BPFRR_CALL_NO_EXIT)
			json_str(j, NULL, "no_exit");
		json_arr_end(j);
		json_notes(d, s->seq);
		json_obj_end(j);
		json_newline(j);
		goto out;
	}
	fprintf(d->out, "#%" PRIu64 " [%u] ", s->seq, s->tid);
	text_escape(d->out, s->name, strlen(s->name));
	fputc('(', d->out);
	dump_sys_args(d->out, NULL, s->name, d->hdr ? d->hdr->arch : 0, s->args);
	fputc(')', d->out);
	text_result(d, s->ret, s->flags);
	if (!(s->flags & BPFRR_CALL_NO_EXIT)) {
		fputc(' ', d->out);
		print_duration(d->out, s->t_enter_ns, s->t_exit_ns);
	}
	fputc('\n', d->out);
	for (i = 0; i < s->nr_regions; i++) {
		text_label(d->out, "    ", s->regions[i].path);
		render_region(d, &s->regions[i], "      ");
	}
out:
	d->sys = NULL;
	memset(&d->cur, 0, sizeof(d->cur));
}

/* --- other records --------------------------------------------------------------------- */

static void print_wait_status(FILE *f, int32_t status)
{
	if (WIFEXITED(status))
		fprintf(f, "exited with %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status)) {
		const char *sig = sigabbrev_np(WTERMSIG(status));

		if (sig)
			fprintf(f, "killed by SIG%s", sig);
		else
			fprintf(f, "killed by signal %d", WTERMSIG(status));
	} else
		fprintf(f, "wait status %#x", (unsigned int)status);
}

static void dump_task(struct dump *d, const struct bpfrr_rec_task *t)
{
	const char *event = bpfrr_trace_task_event_name(t->event);
	uint32_t i;

	apply_task(d, t);
	if (d->o->json || d->o->summary || !filter_tid(d, t->tid))
		return;
	fprintf(d->out, "task %u: ", t->tid);
	if (event)
		fputs(event, d->out);
	else
		fprintf(d->out, "event %u", t->event);
	switch (t->event) {
	case BPFRR_TASK_THREAD:
	case BPFRR_TASK_FORK:
		fprintf(d->out, " of %u (tgid %u)", t->other_tid, t->tgid);
		break;
	case BPFRR_TASK_START:
	case BPFRR_TASK_EXEC:
		fputc(' ', d->out);
		text_word(d->out, t->path);
		if (t->argc) {
			fputs(" [", d->out);
			for (i = 0; i < t->argc; i++) {
				if (i)
					fputc(' ', d->out);
				text_word(d->out, t->argv[i]);
			}
			fputc(']', d->out);
		}
		if (t->event == BPFRR_TASK_EXEC && t->other_tid != t->tid)
			fprintf(d->out, " (by thread %u)", t->other_tid);
		break;
	case BPFRR_TASK_EXIT:
		fputs(" (", d->out);
		print_wait_status(d->out, t->status);
		fputc(')', d->out);
		break;
	}
	fputc('\n', d->out);
}

static void dump_note(struct dump *d, const struct bpfrr_rec_note *n)
{
	static const char *const levels[] = { "note", "info", "warning", "error" };

	d->nr_notes_total++;
	if (d->o->json || d->o->summary || (n->tid && !filter_tid(d, n->tid)))
		return;
	fprintf(d->out, "%s", n->level < 4 ? levels[n->level] : levels[0]);
	if (n->seq)
		fprintf(d->out, " (#%" PRIu64 ")", n->seq);
	fputs(": ", d->out);
	text_escape(d->out, n->text, strlen(n->text));
	fputc('\n', d->out);
}

/* -v: records that are not calls */
static void dump_verbose_record(struct dump *d, const struct bpfrr_trace_record *rec)
{
	FILE *f = d->out;

	if (!d->o->verbose || d->o->json || d->o->summary)
		return;
	switch (rec->type) {
	case BPFRR_REC_BLOB:
		fprintf(f, "blob %" PRIu64 ": %" PRIu64 " bytes, sha256 ", rec->blob.id, rec->blob.len);
		hex(f, rec->blob.sha256, sizeof(rec->blob.sha256));
		fputc('\n', f);
		break;
	case BPFRR_REC_FD_EVENT: {
		const char *op = bpfrr_trace_fd_op_name(rec->fd_event.op);

		if (!filter_tid(d, rec->fd_event.tid))
			break;
		fprintf(f, "fd [%u] %s fd %d", rec->fd_event.tid, op ? op : "?", rec->fd_event.fd);
		if (rec->fd_event.op == BPFRR_FD_DUP)
			fprintf(f, " -> %d", rec->fd_event.newfd);
		fprintf(f, ": %s #%" PRIu64, kind_name(rec->fd_event.kind), rec->fd_event.object);
		if (rec->fd_event.seq)
			fprintf(f, " (by #%" PRIu64 ")", rec->fd_event.seq);
		if (rec->fd_event.flags & BPFRR_FD_F_CLOEXEC)
			fputs(" cloexec", f);
		fputc('\n', f);
		break;
	}
	case BPFRR_REC_OBJECT:
		if (!filter_tid(d, rec->object.tid))
			break;
		fprintf(f, "identity of #%" PRIu64 " (fd %d):", rec->object.seq, rec->object.fd);
		text_identity(d, &rec->object, rec->object.kind);
		fputc('\n', f);
		break;
	case BPFRR_REC_END:
	case BPFRR_REC_TASK:
	case BPFRR_REC_BPF_CALL:
	case BPFRR_REC_SYSCALL:
	case BPFRR_REC_NOTE:
		break;
	default:
		fprintf(f, "record type %u (%u bytes), not known to this version: skipped\n", rec->type,
			rec->length);
		break;
	}
}

static void print_header(struct dump *d, const char *name)
{
	const struct bpfrr_trace_header *h = d->hdr;
	FILE *f = d->out;
	char when[64] = "?";
	time_t secs;
	struct tm tm;
	uint32_t i;

	if (!h)
		return;
	secs = (time_t)(h->start_realtime_ns / 1000000000u);
	if (gmtime_r(&secs, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	fprintf(f, "# bpfrr trace ");
	text_word(f, name);
	fprintf(f, ", format %u.%u, recorded by ", h->version_major, h->version_minor);
	text_escape(f, h->recorder_version, strlen(h->recorder_version));
	fprintf(f, "\n# machine: ");
	text_escape(f, h->arch_name, strlen(h->arch_name));
	fprintf(f, " (e_machine %u), kernel ", h->arch);
	text_escape(f, h->kernel_release, strlen(h->kernel_release));
	fputc(' ', f);
	text_escape(f, h->kernel_version, strlen(h->kernel_version));
	fprintf(f, ", %u CPUs, page size %u\n", h->nr_cpus, h->page_size);
	fprintf(f, "# started %s.%09" PRIu64 "Z, recorder pid %u, tracee pid %u\n", when,
		h->start_realtime_ns % 1000000000u, h->recorder_pid, h->tracee_pid);
	fputs("# command:", f);
	for (i = 0; i < h->argc; i++) {
		fputc(' ', f);
		text_word(f, h->argv[i]);
	}
	fputc('\n', f);
}

/* --- summary ------------------------------------------------------------------------------ */

static void print_summary(struct dump *d, const char *name)
{
	FILE *f = d->out;
	size_t i;

	if (d->o->json) {
		struct json_out *j = &d->j;

		json_obj_begin(j, NULL);
		json_str(j, "trace", name);
		if (d->hdr) {
			json_str(j, "arch", d->hdr->arch_name);
			json_str(j, "kernel_release", d->hdr->kernel_release);
			json_arr_begin(j, "command");
			for (i = 0; i < d->hdr->argc; i++)
				json_str(j, NULL, d->hdr->argv[i]);
			json_arr_end(j);
		}
		json_u64(j, "bpf_calls", d->nr_bpf);
		json_u64(j, "other_syscalls", d->nr_sys);
		json_u64(j, "failed", d->nr_failed);
		json_u64(j, "tasks", d->nr_tasks);
		json_obj_begin(j, "commands");
		for (i = 0; i <= BPFRR_ABI_NR_CMDS; i++) {
			const struct counter *c = &d->cmd_counts[i];

			if (!c->calls)
				continue;
			json_obj_begin(j, i < BPFRR_ABI_NR_CMDS && cmd_name(i) ? cmd_name(i) : "unknown");
			json_u64(j, "calls", c->calls);
			json_u64(j, "failed", c->failed);
			json_obj_end(j);
		}
		json_obj_end(j);
		json_obj_begin(j, "created");
		for (i = 0; i <= BPFRR_OBJ__MAX; i++)
			if (d->created[i])
				json_u64(j, kind_name(i), d->created[i]);
		json_obj_end(j);
		json_arr_begin(j, "failures");
		for (i = 0; i < d->nr_failures; i++) {
			const struct failure *fl = &d->failures[i];

			json_obj_begin(j, NULL);
			json_u64(j, "seq", fl->seq);
			json_u64(j, "tid", fl->tid);
			if (fl->what)
				json_str(j, "call", fl->what);
			else
				json_u64(j, "cmd_nr", fl->cmd);
			if (fl->err)
				json_str(j, "errno", errno_name(fl->err));
			else
				json_null(j, "errno");
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_begin(j, "syscalls");
		for (i = 0; i < d->nr_sys_counts; i++) {
			json_obj_begin(j, d->sys_counts[i].name);
			json_u64(j, "calls", d->sys_counts[i].calls);
			json_u64(j, "failed", d->sys_counts[i].failed);
			json_obj_end(j);
		}
		json_obj_end(j);
		if (d->have_end) {
			json_i64(j, "exit_status", d->end.exit_status);
			json_u64(j, "blobs", d->end.nr_blobs);
			json_u64(j, "blob_bytes", d->end.blob_bytes);
			json_u64(j, "dedup_bytes", d->end.dedup_bytes);
		} else {
			json_null(j, "exit_status");
		}
		json_bool(j, "complete", d->have_end);
		json_obj_end(j);
		json_newline(j);
		return;
	}
	fprintf(f, "bpf() calls: %" PRIu64 " (%" PRIu64 " failed), other syscalls: %" PRIu64 ", tasks: %" PRIu64 "\n",
		d->nr_bpf, d->nr_failed, d->nr_sys, d->nr_tasks);
	fputs("commands:\n", f);
	for (i = 0; i <= BPFRR_ABI_NR_CMDS; i++) {
		const struct counter *c = &d->cmd_counts[i];

		if (!c->calls)
			continue;
		fprintf(f, "  %-32s %6" PRIu64, i < BPFRR_ABI_NR_CMDS && cmd_name(i) ? cmd_name(i) : "(unknown)",
			c->calls);
		if (c->failed)
			fprintf(f, "  (%" PRIu64 " failed)", c->failed);
		fputc('\n', f);
	}
	fputs("objects created:\n", f);
	for (i = 0; i <= BPFRR_OBJ__MAX; i++)
		if (d->created[i])
			fprintf(f, "  %-32s %6" PRIu64 "\n", kind_name(i), d->created[i]);
	if (d->nr_failures)
		fputs("failures:\n", f);
	for (i = 0; i < d->nr_failures; i++) {
		const struct failure *fl = &d->failures[i];

		fprintf(f, "  #%" PRIu64 " [%u] ", fl->seq, fl->tid);
		if (fl->what)
			text_escape(f, fl->what, strlen(fl->what));
		else
			fprintf(f, "bpf_cmd_%u", fl->cmd);
		fprintf(f, ": %s\n", fl->err ? errno_name(fl->err) : "did not return");
	}
	fputs("other syscalls the load depended on:\n", f);
	for (i = 0; i < d->nr_sys_counts; i++) {
		fputs("  ", f);
		text_escape(f, d->sys_counts[i].name, strlen(d->sys_counts[i].name));
		fprintf(f, "%*s %6" PRIu64, (int)(32 - (strlen(d->sys_counts[i].name) < 32 ?
							strlen(d->sys_counts[i].name) : 32)), "",
			d->sys_counts[i].calls);
		if (d->sys_counts[i].failed)
			fprintf(f, "  (%" PRIu64 " failed)", d->sys_counts[i].failed);
		fputc('\n', f);
	}
	if (d->have_end) {
		fputs("traced command ", f);
		print_wait_status(f, d->end.exit_status);
		fprintf(f, "; %" PRIu64 " blobs, %" PRIu64 " bytes stored, %" PRIu64 " bytes deduplicated\n",
			d->end.nr_blobs, d->end.blob_bytes, d->end.dedup_bytes);
	}
}

/* --- the passes ---------------------------------------------------------------------------- */

/* Pass 1 (with the identities, bpfrr_rt_collect()): notes, which follow the calls they belong to. */
static int collect_note(void *arg, const struct bpfrr_trace_record *rec)
{
	struct dump *d = arg;

	if (rec->type != BPFRR_REC_NOTE || !rec->note.seq)
		return 0;
	if (d->nr_notes == d->cap_notes) {
		size_t cap = d->cap_notes ? d->cap_notes * 2 : 16;
		struct bpfrr_rec_note *p = realloc(d->notes_list, cap * sizeof(*p));

		if (!p)
			return BPFRR_TRACE_NOMEM;
		d->notes_list = p;
		d->cap_notes = cap;
	}
	d->notes_list[d->nr_notes++] = rec->note;
	if (!bpfrr_u64map_get(&d->notes, rec->note.seq, NULL) &&
	    bpfrr_u64map_put(&d->notes, rec->note.seq, d->nr_notes))
		return BPFRR_TRACE_NOMEM;
	return 0;
}

static void dump_free(struct dump *d)
{
	bpfrr_rt_free(d->rt);
	bpfrr_u64map_free(&d->notes);
	free(d->notes_list);
	free(d->sys_counts);
	free(d->failures);
	free(d->region_done);
}

int bpfrr_dump_trace(struct bpfrr_trace_reader *r, const struct bpfrr_dump_opts *opts, FILE *out, FILE *err)
{
	struct dump d = { .r = r, .o = opts, .out = out, .err = err };
	struct bpfrr_trace_record rec;
	const char *name;
	int status, ret;

	d.hdr = bpfrr_trace_header(r);
	json_start(&d.j, out);
	for (int i = 0; i < BPFRR_ABI_NR_CMDS; i++)
		d.cmd_counts[i].name = cmd_name(i);

	name = bpfrr_trace_name(r);
	d.rt = bpfrr_rt_new(r);
	if (!d.rt || bpfrr_rt_model(d.rt, sizeof(struct object), init_object, &d)) {
		dump_free(&d);
		fprintf(err, "bpfrr dump: out of memory\n");
		return BPFRR_EXIT_FAILURE;
	}
	bpfrr_rt_collect(d.rt, collect_note, &d);

	if (!opts->json && !opts->summary)
		print_header(&d, name);
	while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD && !d.oom) {
		switch (rec.type) {
		case BPFRR_REC_TASK:
			dump_task(&d, &rec.task);
			break;
		case BPFRR_REC_BPF_CALL:
			dump_bpf_call(&d, &rec.bpf_call);
			break;
		case BPFRR_REC_SYSCALL:
			dump_syscall(&d, &rec.syscall);
			break;
		case BPFRR_REC_FD_EVENT:
			apply_fd_event(&d, &rec.fd_event);
			break;
		case BPFRR_REC_NOTE:
			dump_note(&d, &rec.note);
			break;
		case BPFRR_REC_END:
			d.have_end = true;
			d.end = rec.end;
			if (!opts->json && !opts->summary) {
				fputs("end: traced command ", out);
				print_wait_status(out, rec.end.exit_status);
				if (rec.end.flags & BPFRR_END_F_DETACHED)
					fputs(" (recorder detached before the end)", out);
				fputc('\n', out);
			}
			break;
		}
		dump_verbose_record(&d, &rec);
	}
	if (d.oom)
		status = BPFRR_TRACE_NOMEM;
	if (opts->summary && status != BPFRR_TRACE_CORRUPT && status != BPFRR_TRACE_NOMEM)
		print_summary(&d, name);
	fflush(out);
	switch (status) {
	case BPFRR_TRACE_EOF:
		ret = BPFRR_EXIT_OK;
		break;
	case BPFRR_TRACE_TRUNCATED:
		fprintf(err, "bpfrr dump: warning: %s\n", bpfrr_trace_error(r));
		ret = BPFRR_EXIT_TRUNCATED;
		break;
	case BPFRR_TRACE_NOMEM:
		fprintf(err, "bpfrr dump: out of memory\n");
		ret = BPFRR_EXIT_FAILURE;
		break;
	default:
		fprintf(err, "bpfrr dump: %s\n", bpfrr_trace_error(r));
		ret = BPFRR_EXIT_USAGE;
		break;
	}
	dump_free(&d);
	return ret;
}

/* --- command line ----------------------------------------------------------------------- */

static void usage(FILE *f)
{
	fputs("usage: bpfrr dump [OPTIONS] FILE\n"
	      "\n"
	      "Print every call of a trace recorded by 'bpfrr record': the task, the bpf()\n"
	      "command, every attr field by name, the buffers the call read and wrote\n"
	      "(instructions disassembled with map and BTF references resolved, BTF\n"
	      "summarised, strings shown, large buffers by size and SHA-256), the fds it\n"
	      "used and the objects they referred to, the result, the verifier log of a\n"
	      "failed load, the duration, and the identity of each object created; and\n"
	      "the other system calls the load depended on (perf_event_open with its\n"
	      "perf_event_attr field by field, perf ioctls, closes and dups of tracked fds,\n"
	      "opens), with their parameters by name.\n"
	      "\n"
	      "options:\n"
	      "  --json              JSON Lines: one object per call (see docs/dump-json.md)\n"
	      "  --summary           counts per command, objects created, failures, other syscalls\n"
	      "  --cmd NAME[,NAME]   only these calls: bpf() commands (BPF_PROG_LOAD or prog_load)\n"
	      "                      or other recorded syscalls by name (perf_event_open, ioctl,\n"
	      "                      close, openat, ...)\n"
	      "  --tid N             only calls of task N\n"
	      "  --no-insns          do not disassemble instructions\n"
	      "  -v, --verbose       also blobs, fd events and identities; whole logs and lists\n"
	      "  -h, --help          this help\n"
	      "\n"
	      "exit status: 0 for a complete trace, 3 for a truncated one (no END record:\n"
	      "every complete record is printed, then a warning), 2 for a corrupt trace or\n"
	      "a usage error.\n", f);
}

static int parse_cmds(struct bpfrr_dump_opts *o, char *list)
{
	char *save = NULL, *name;

	for (name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		int cmd = bpfrr_abi_cmd_by_name(name);

		if (o->nr_cmds + o->nr_syscalls >= DUMP_MAX_FILTERS) {
			fprintf(stderr, "bpfrr dump: --cmd: more than %d names\n", DUMP_MAX_FILTERS);
			return -1;
		}
		if (cmd >= 0) {
			o->cmds[o->nr_cmds++] = cmd;
		} else if (!strncasecmp(name, "BPF_", 4)) {
			fprintf(stderr, "bpfrr dump: --cmd: unknown bpf() command '%s'\n", name);
			return -1;
		} else if (dump_sys_nr_args(name) < 6) {
			o->syscalls[o->nr_syscalls++] = name;
		} else {
			fprintf(stderr, "bpfrr dump: --cmd: '%s' is neither a bpf() command nor a syscall "
				"bpfrr record keeps (%s)\n", name, dump_sys_names());
			return -1;
		}
	}
	return 0;
}

int bpfrr_dump_main(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "summary", no_argument, NULL, 's' },
		{ "cmd", required_argument, NULL, 'c' },
		{ "tid", required_argument, NULL, 't' },
		{ "no-insns", no_argument, NULL, 'n' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bpfrr_dump_opts o = { 0 };
	struct bpfrr_trace_reader *r;
	char *err = NULL, *end;
	unsigned long tid;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "vh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			o.json = true;
			break;
		case 's':
			o.summary = true;
			break;
		case 'c':
			if (parse_cmds(&o, optarg))
				return BPFRR_EXIT_USAGE;
			break;
		case 't':
			errno = 0;
			tid = strtoul(optarg, &end, 10);
			if (errno || !*optarg || *end || tid > UINT32_MAX) {
				fprintf(stderr, "bpfrr dump: --tid: '%s' is not a task id\n", optarg);
				return BPFRR_EXIT_USAGE;
			}
			o.has_tid = true;
			o.tid = (uint32_t)tid;
			break;
		case 'n':
			o.no_insns = true;
			break;
		case 'v':
			o.verbose = true;
			break;
		case 'h':
			usage(stdout);
			return BPFRR_EXIT_OK;
		default:
			usage(stderr);
			return BPFRR_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "bpfrr dump: %s\n", optind == argc ? "no trace file given" : "one trace file only");
		usage(stderr);
		return BPFRR_EXIT_USAGE;
	}
	r = bpfrr_trace_open(argv[optind], 0, &err);
	if (!r) {
		fprintf(stderr, "bpfrr dump: %s\n", err ? err : "out of memory");
		free(err);
		return BPFRR_EXIT_USAGE;
	}
	ret = bpfrr_dump_trace(r, &o, stdout, stderr);
	bpfrr_trace_reader_close(r);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "bpfrr dump: writing the output: %s\n", strerror(errno));
		return BPFRR_EXIT_FAILURE;
	}
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * dump_text.c - bpfrr dump's text printer: the audit for people.
 *
 * A header, then every record in file order: a call is a line (number, task,
 * command, result, identity of what it made, duration), its attr fields by
 * name with the buffers each points to right under it, what the kernel
 * changed at exit ("=> "), fds passed inside buffers, then the buffers no
 * field points to; tasks, notes and the end as lines of their own; with -v
 * also blobs, fd events and identities.  May change; programs read JSON.
 */
#include <inttypes.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include <bpf/btf.h>

#include "bpf_abi.h"
#include "bpf_disasm.h"
#include "dump_print.h"
#include "loader_decode.h"
#include "netlink.h"
#include "trace.h"

/* --- text pieces ------------------------------------------------------------------------ */

void dump_text_escape(FILE *f, const void *data, size_t len)
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

void dump_text_quoted(FILE *f, const void *data, size_t len)
{
	fputc('"', f);
	dump_text_escape(f, data, len);
	fputc('"', f);
}

void dump_text_word(FILE *f, const char *s)
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
		dump_text_quoted(f, s, strlen(s));
}

void dump_text_hex(FILE *f, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < len; i++)
		fprintf(f, "%02x", p[i]);
}

void dump_text_wait_status(FILE *f, int32_t status)
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

/* "INDENTlabel:\n" for a label that comes from the trace */
static void text_label(FILE *f, const char *indent, const char *label)
{
	fputs(indent, f);
	dump_text_escape(f, label, strlen(label));
	fputs(":\n", f);
}

static void text_duration(FILE *f, uint64_t enter, uint64_t exit)
{
	uint64_t ns = exit >= enter ? exit - enter : 0;

	fprintf(f, "<%" PRIu64 ".%03" PRIu64 " us>", ns / 1000, ns % 1000);
}

/* "map 'counts' (#3 BPF_MAP_CREATE, id 17)" */
static void text_object(FILE *f, const struct dump_obj *obj)
{
	fputs(dump_kind_name(obj->kind), f);
	if (obj->name[0]) {
		fputs(" '", f);
		dump_text_escape(f, obj->name, strlen(obj->name));
		fputc('\'', f);
	}
	fputs(" (", f);
	if (obj->inner)
		fprintf(f, "returned by inner #%u%s%s", obj->inner, obj->made_by ? " " : "",
			obj->made_by ? obj->made_by : "");
	else if (obj->origin)
		fprintf(f, "#%" PRIu64 "%s%s", obj->origin, obj->made_by ? " " : "",
			obj->made_by ? obj->made_by : "");
	else
		fputs("made outside the trace", f);
	if (obj->has_id && obj->id)
		fprintf(f, ", id %u", obj->id);
	fputc(')', f);
}

/* "fd 5 -> map 'counts' (...)" */
static void text_fd(struct dump_out *o, int fd)
{
	struct dump_obj obj;

	if (dump_fd_object(o, fd, &obj) && obj.inner) {
		/* the number is known only at run time */
		fputs("fd -> ", o->f);
		text_object(o->f, &obj);
		return;
	}
	fprintf(o->f, "fd %d -> ", fd);
	if (dump_fd_object(o, fd, &obj))
		text_object(o->f, &obj);
	else
		fputs("unknown fd", o->f);
}

static void text_cmd(FILE *f, uint32_t cmd)
{
	const char *name = dump_cmd_name(cmd);

	if (name)
		fputs(name, f);
	else
		fprintf(f, "bpf_cmd_%u", cmd);
}

static void text_result(FILE *f, int64_t ret, uint32_t flags)
{
	int e = bpfrr_trace_ret_errno(ret);

	if (flags & BPFRR_CALL_NO_EXIT)
		fputs(" = ? (did not return)", f);
	else if (e)
		fprintf(f, " = -1 %s", dump_errno_name(e));
	else
		fprintf(f, " = %" PRId64, ret);
}

/* " (map id 17 'counts')": the recorder's identity of an object */
static void text_identity(FILE *f, const struct bpfrr_rec_object *id, uint32_t kind)
{
	fprintf(f, " (%s", dump_kind_name(kind));
	if (!id) {
		fputs(", no identity recorded)", f);
		return;
	}
	if (id->flags & BPFRR_OBJECT_F_QUERY_FAILED) {
		fprintf(f, ", identity query failed: %s)", dump_errno_name(id->err));
		return;
	}
	fprintf(f, " id %u", id->id);
	if (id->kind == BPFRR_OBJ_PROG) {
		fputs(" tag ", f);
		dump_text_hex(f, id->tag, sizeof(id->tag));
	}
	if (id->name[0]) {
		fputs(" '", f);
		dump_text_escape(f, id->name, strlen(id->name));
		fputc('\'', f);
	}
	fputc(')', f);
}

/* --- buffers --------------------------------------------------------------------------- */

static void text_ld_val(FILE *f, const struct bpfrr_lskel *ld, const struct bpfrr_ld_val *v);

/* A buffer of a loader program's inner call: the bytes the program sets at run time. */
static void text_inner_buf_patches(struct dump_out *o, const struct dump_call *c,
				   const struct bpfrr_trace_region *reg, const char *indent)
{
	const struct bpfrr_ld_buf *b = dump_inner_buf(c, reg);
	uint32_t i;

	for (i = 0; b && i < b->nr_patches; i++) {
		fprintf(o->f, "%s  at run time: bytes %u..%u <- ", indent, b->patches[i].off,
			b->patches[i].off + b->patches[i].len - 1);
		text_ld_val(o->f, c->inner->ld, &b->patches[i].val);
		fputc('\n', o->f);
	}
}

/* One captured buffer: where, how much, its hash, then its content. */
static void text_region(struct dump_out *o, const struct dump_call *c, const struct bpfrr_trace_region *reg,
			const char *indent)
{
	const struct bpfrr_rec_blob *b = dump_region_blob(o, reg);
	const char *content = bpfrr_abi_content_name(reg->content);
	FILE *f = o->f;
	char sub[64];

	fprintf(f, "%s%s %s: %" PRIu64 " bytes", indent, dump_phase_name(reg->phase), dump_dir_name(reg->dir),
		b ? b->len : 0);
	if (b && b->len != reg->len)
		fprintf(f, " of %" PRIu64, reg->len);
	if (reg->flags & BPFRR_REGION_TRUNCATED)
		fprintf(f, " (capped, %" PRIu64 " wanted)", reg->want_len);
	if (reg->flags & BPFRR_REGION_LEN_UNKNOWN)
		fputs(" (length unknown)", f);
	if (reg->flags & BPFRR_REGION_NO_NUL)
		fputs(" (no NUL)", f);
	if (reg->flags & BPFRR_REGION_UNREADABLE)
		fputs(" (unreadable)", f);
	if (reg->flags & BPFRR_REGION_SHORT)
		fputs(" (short read)", f);
	if (reg->err)
		fprintf(f, " %s", dump_errno_name(reg->err));
	if (content && reg->content != BPFRR_CONTENT_NONE)
		fprintf(f, ", %s", content);
	if (b && b->len > DUMP_SMALL_BUF) {
		fputs(", sha256 ", f);
		dump_text_hex(f, b->sha256, 8);
	}
	fputc('\n', f);
	if (b) {
		snprintf(sub, sizeof(sub), "%s  ", indent);
		dump_render_content(o, c, reg, b, sub);
	}
	if (c->inner)
		text_inner_buf_patches(o, c, reg, indent);
}

/* Every region of the call whose path is path (both phases), once. */
static void text_regions_at(struct dump_out *o, const struct dump_call *c, const char *path, const char *indent)
{
	uint32_t i;

	for (i = 0; i < c->nr_regions; i++) {
		if (c->region_done[i] || strcmp(c->regions[i].path, path))
			continue;
		c->region_done[i] = true;
		text_region(o, c, &c->regions[i], indent);
	}
}

/* --- fields ------------------------------------------------------------------------------ */

struct text_fields {
	struct dump_out *o;
	const struct dump_call *c;
	const char *indent;
	const char *buf_indent;	/* of the buffers under a pointer field */
	size_t prefix_len;	/* strlen of the path prefix to strip */
	struct dump_fields_seen seen;	/* entry values, to show what the kernel changed at exit */
	bool exit_pass;
};

static void text_field_value(struct dump_out *o, const struct bpfrr_field *f, uint64_t value,
			     const char *symbolic)
{
	FILE *out = o->f;

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
			text_fd(o, (int32_t)value);
		return;
	case BPFRR_FIELD_PTR:
		fprintf(out, "%#" PRIx64, value);
		return;
	case BPFRR_FIELD_STR:
		dump_text_quoted(out, symbolic ? symbolic : "", symbolic ? strlen(symbolic) : 0);
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
static int text_struct_field(void *arg, const struct bpfrr_field *f, const char *path, uint64_t value,
			     const char *symbolic)
{
	struct text_fields *tf = arg;
	const char *name = strlen(path) > tf->prefix_len ? path + tf->prefix_len : path;
	FILE *out = tf->o->f;

	if (f->kind == BPFRR_FIELD_PAD)
		return 0;
	fprintf(out, "%s%s: ", tf->indent, name);
	if (f->kind == BPFRR_FIELD_FD)
		fprintf(out, "%" PRId64, (int64_t)(int32_t)value);
	else
		text_field_value(tf->o, f, value, symbolic);
	fputc('\n', out);
	return 0;
}

/* One attr field: its value, and the buffers it points to. */
static int text_attr_field(void *arg, const struct bpfrr_field *f, const char *path, uint64_t value,
			   const char *symbolic)
{
	struct text_fields *tf = arg;
	const char *name = !strncmp(path, "attr.", 5) ? path + 5 : path;
	const struct bpfrr_rec_symbol *sym;
	const struct bpfrr_field *gate;
	FILE *out = tf->o->f;

	if (f->kind == BPFRR_FIELD_PAD && !value)
		return 0;
	if (!tf->exit_pass) {
		if (!dump_fields_seen_add(&tf->seen, f, value, symbolic))
			tf->o->oom = true;
	} else if (!dump_field_changed(&tf->seen, f, value, symbolic)) {
		return 0;
	}
	fprintf(out, "%s%s%s: ", tf->indent, tf->exit_pass ? "=> " : "", name);
	if (tf->c && tf->c->inner) {
		char patched[512];

		/* an inner call of a loader program: what the program patches in at run time */
		if (dump_inner_field(tf->c, f, patched, sizeof(patched))) {
			fprintf(out, "%s\n", patched);
			if (f->kind == BPFRR_FIELD_PTR)
				text_regions_at(tf->o, tf->c, path, tf->buf_indent);
			return 0;
		}
	}
	if (tf->c && tf->c->bpf && (gate = bpfrr_abi_fd_gate((int)tf->c->bpf->cmd, f, tf->c->bpf->attr,
							      tf->c->bpf->attr_len, &tf->c->env))) {
		char flag[128];

		/* the kernel does not read it: no fd to name */
		if (!gate->xlat || bpfrr_abi_xlat_format(gate->xlat, f->flag_mask, flag, sizeof(flag)) < 0)
			snprintf(flag, sizeof(flag), "%#" PRIx64, f->flag_mask);
		fprintf(out, "%" PRId64 " (not an fd: no %s in %s)", (int64_t)(int32_t)value, flag,
			!strncmp(gate->name, "attr.", 5) ? gate->name + 5 : gate->name);
	} else if (tf->c && tf->c->bpf && bpfrr_abi_attach_type_none((int)tf->c->bpf->cmd, f, value, tf->c->bpf->attr,
								       tf->c->bpf->attr_len, &tf->c->env)) {
		/* 0 is cgroup_inet_ingress only to a cgroup_skb program */
		fputs("0", out);
	} else {
		text_field_value(tf->o, f, value, symbolic);
	}
	if (f->kind == BPFRR_FIELD_PAD)
		fputs(" (reserved, not zero)", out);
	if (!tf->exit_pass && tf->c && (sym = dump_attr_symbol(tf->o, tf->c, f))) {
		char text[256];

		dump_symbol_text(sym, text, sizeof(text));
		fprintf(out, " (%s)", text);
	}
	fputc('\n', out);
	if (f->kind == BPFRR_FIELD_PTR && !tf->exit_pass && value)
		text_regions_at(tf->o, tf->c, path, tf->buf_indent);
	return 0;
}

/* fds the call passes inside buffers (attr fields and insns show theirs where they are) */
struct text_fds {
	struct dump_out *o;
	bool any;
};

static int text_fd_ref(void *arg, const struct bpfrr_abi_fd_ref *ref)
{
	struct text_fds *tf = arg;

	if (ref->type == BPFRR_FDREF_FIELD && ref->where == BPFRR_FD_IN_ATTR)
		return 0;
	if (ref->type == BPFRR_FDREF_LD_IMM64 || ref->type == BPFRR_FDREF_BTF_ID_MODULE ||
	    ref->type == BPFRR_FDREF_FD_ARRAY)
		return 0;
	if (!tf->any)
		fputs("    fds in buffers:\n", tf->o->f);
	tf->any = true;
	fprintf(tf->o->f, "      %s: ", ref->path);
	text_fd(tf->o, ref->fd);
	fputc('\n', tf->o->f);
	return 0;
}

/* --- records ------------------------------------------------------------------------------ */

void dump_text_kernel(FILE *f, const struct bpfrr_rec_kernel *k, const char *prefix)
{
	if (!k)
		return;
	fprintf(f, "%skernel build: ", prefix);
	dump_text_escape(f, k->release, strlen(k->release));
	fputc(' ', f);
	dump_text_escape(f, k->version, strlen(k->version));
	fputc(' ', f);
	dump_text_escape(f, k->machine, strlen(k->machine));
	if (k->flags & BPFRR_KERNEL_F_NO_BTF) {
		fputs(", no vmlinux BTF", f);
	} else {
		fprintf(f, ", vmlinux BTF %u bytes", k->btf_size);
		if (!(k->flags & BPFRR_KERNEL_F_BTF_UNHASHED)) {
			fputs(" sha256 ", f);
			dump_text_hex(f, k->btf_sha256, sizeof(k->btf_sha256));
		}
	}
	fputs(", build id ", f);
	if (k->build_id[0])
		dump_text_escape(f, k->build_id, strlen(k->build_id));
	else
		fputs("unknown", f);
	fputc('\n', f);
}

static void text_header(struct dump_out *o, const char *name)
{
	const struct bpfrr_trace_header *h = o->hdr;
	FILE *f = o->f;
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
	dump_text_word(f, name);
	fprintf(f, ", format %u.%u, recorded by ", h->version_major, h->version_minor);
	dump_text_escape(f, h->recorder_version, strlen(h->recorder_version));
	fprintf(f, "\n# machine: ");
	dump_text_escape(f, h->arch_name, strlen(h->arch_name));
	fprintf(f, " (e_machine %u), kernel ", h->arch);
	dump_text_escape(f, h->kernel_release, strlen(h->kernel_release));
	fputc(' ', f);
	dump_text_escape(f, h->kernel_version, strlen(h->kernel_version));
	fprintf(f, ", %u CPUs, page size %u\n", h->nr_cpus, h->page_size);
	fprintf(f, "# started %s.%09" PRIu64 "Z, recorder pid %u, tracee pid %u\n", when,
		h->start_realtime_ns % 1000000000u, h->recorder_pid, h->tracee_pid);
	fputs("# command:", f);
	for (i = 0; i < h->argc; i++) {
		fputc(' ', f);
		dump_text_word(f, h->argv[i]);
	}
	fputc('\n', f);
	dump_text_kernel(f, dump_kernel(o), "# ");
}

/* --- a light skeleton's loader program (lib/loader_decode.h, dump_loader.c) ------------------ */

/* An inner bpf() command: its attr fields and buffers as for an outer call, deeper. */
static void text_inner_sys_bpf(struct dump_out *o, const struct dump_call *outer, uint32_t k)
{
	struct dump_inner in;
	struct text_fields tf = { .o = o, .indent = "        ", .buf_indent = "          " };
	const struct bpfrr_rec_bpf_call *c;
	FILE *f = o->f;
	uint32_t i;

	if (dump_inner_init(o, outer, k, &in))
		return;
	c = &in.call;
	tf.c = &in.dc;
	if (!bpfrr_abi_cmd((int)c->cmd)) {
		fputs("        unknown command; attr bytes: ", f);
		dump_text_hex(f, c->attr, c->attr_len);
		fputc('\n', f);
	} else {
		bpfrr_abi_walk_fields_env((int)c->cmd, c->attr, c->attr_len, &in.dc.env, text_attr_field, &tf);
	}
	for (i = 0; i < c->nr_regions; i++) {
		if (in.region_done[i])
			continue;
		text_label(f, "        ", c->regions[i].path);
		in.region_done[i] = true;
		text_region(o, &in.dc, &c->regions[i], "          ");
	}
	dump_fields_seen_free(&tf.seen);
	dump_inner_fini(o, &in);
}

static void text_ld_val(FILE *f, const struct bpfrr_lskel *ld, const struct bpfrr_ld_val *v)
{
	char buf[320];

	fputs(bpfrr_lskel_val_text(ld, v, buf, sizeof(buf)), f);
}

/* What a loader program will do: each helper call, bpf() commands with their attrs. */
static void text_loader(struct dump_out *o, const struct dump_call *dc)
{
	const struct bpfrr_lskel *ld = dc->loader;
	FILE *f = o->f;
	uint32_t k, i;

	if (!ld) {
		fprintf(f, "  loader program: not decoded: %s\n", dc->loader_why);
		return;
	}
	fprintf(f, "  loader program: %u inner calls, %u of them bpf() commands; blob: the value of map #%"
		PRIu64 " (#%" PRIu64 " BPF_MAP_UPDATE_ELEM), %u bytes\n", ld->nr_calls, ld->nr_sys_bpf,
		dc->loader_map_seq, dc->loader_update_seq, dc->loader_blob_len);
	for (k = 0; k < ld->nr_calls; k++) {
		const struct bpfrr_ld_call *c = &ld->calls[k];
		const char *cmd = c->is_sys_bpf ? dump_cmd_name(c->cmd) : NULL;

		fprintf(f, "    inner #%u (insn %u) ", k + 1, c->insn);
		if (c->is_sys_bpf && c->attr) {
			if (cmd)
				fputs(cmd, f);
			else
				fprintf(f, "bpf_cmd_%u", c->cmd);
			fprintf(f, ", attr: %u bytes at blob+%u", c->attr_size, c->attr_off);
		} else {
			fprintf(f, "%s(", bpfrr_lskel_helper_name(c->helper));
			if (c->name && bpfrr_lskel_helper_nargs(c->helper) == 2) {
				dump_text_quoted(f, c->name, strlen(c->name));	/* a format */
			} else if (c->name) {
				dump_text_quoted(f, c->name, strlen(c->name));
				for (i = 2; i < bpfrr_lskel_helper_nargs(c->helper); i++) {
					fputs(", ", f);
					text_ld_val(f, ld, &c->args[i]);
				}
			} else {
				for (i = 0; i < bpfrr_lskel_helper_nargs(c->helper); i++) {
					if (i)
						fputs(", ", f);
					text_ld_val(f, ld, &c->args[i]);
				}
			}
			fputc(')', f);
		}
		if (c->flags & BPFRR_LDV_F_COND)
			fprintf(f, ", when the branch at insn %u goes that way", c->cond_insn);
		fputc('\n', f);
		if (c->is_sys_bpf && c->attr)
			text_inner_sys_bpf(o, dc, k);
		if (c->is_sys_bpf && c->attr && o->opts->verbose) {
			/* -v: the attr's bytes as the blob holds them, and every byte range patched */
			fprintf(f, "        attr bytes at blob+%u: ", c->attr_off);
			dump_text_hex(f, c->attr_blob, c->attr_size);
			fputc('\n', f);
			for (i = 0; i < c->nr_patches; i++) {
				fprintf(f, "        attr bytes %u..%u <- ", c->patches[i].off,
					c->patches[i].off + c->patches[i].len - 1);
				text_ld_val(f, ld, &c->patches[i].val);
				fputc('\n', f);
			}
		}
	}
	for (i = 0; i < ld->nr_ctx_outs; i++) {
		const struct bpfrr_ld_ctx_out *co = &ld->ctx_outs[i];
		const char *name = bpfrr_lskel_ctx_field(co->ctx_off);

		fprintf(f, "    ctx+%u%s%s%s <- ", co->ctx_off, name ? " (" : "", name ? name : "", name ? ")" : "");
		text_ld_val(f, ld, &co->val);
		fprintf(f, " (insn %u)\n", co->insn);
	}
	if (ld->complete) {
		fputs("    exit: r0 = ", f);
		text_ld_val(f, ld, &ld->exit_val);
		fputc('\n', f);
	} else {
		fprintf(f, "    decoding stopped at insn %" PRId64 ": %s\n", ld->stop_insn, ld->stop_why);
	}
}

/* Non-zero attr bytes after the newest layout bpfrr knows: shown, never dropped. */
struct attr_tail {
	FILE *f;
	const uint8_t *attr;
};

static void text_attr_tail(void *arg, const struct bpfrr_field *fld, const char *path, size_t off, size_t end)
{
	struct attr_tail *t = arg;

	(void)path;
	if (fld)
		return;
	fprintf(t->f, "    unknown non-zero attr bytes %zu..%zu (after what bpfrr knows of this command): ",
		off, end - 1);
	dump_text_hex(t->f, t->attr + off, end - off);
	fputc('\n', t->f);
}

static void text_bpf_call(struct dump_out *o, const struct dump_call *dc)
{
	const struct bpfrr_rec_bpf_call *c = dc->bpf;
	struct text_fields tf = { .o = o, .c = dc, .indent = "    ", .buf_indent = "      " };
	struct text_fds fds = { .o = o };
	FILE *f = o->f;
	uint32_t i;

	fprintf(f, "#%" PRIu64 " [%u] ", c->seq, c->tid);
	text_cmd(f, c->cmd);
	text_result(f, c->ret, c->flags);
	if (dc->made_kind != BPFRR_OBJ_NONE)
		text_identity(f, dc->ident, dc->made_kind);
	if (!(c->flags & BPFRR_CALL_NO_EXIT)) {
		fputc(' ', f);
		text_duration(f, c->t_enter_ns, c->t_exit_ns);
	}
	fputc('\n', f);
	fprintf(f, "  attr: %u bytes at %#" PRIx64, c->attr_size, c->attr_addr);
	if (c->flags & BPFRR_CALL_ATTR_UNREADABLE)
		fputs(", unreadable", f);
	else if (c->attr_len != c->attr_size)
		fprintf(f, ", %u captured", c->attr_len);
	fputc('\n', f);
	if (c->flags & BPFRR_CALL_COMMON_ATTRS)
		fputs("  with BPF_COMMON_ATTRS (Linux 7.2): struct bpf_common_attr in region common_attr\n", f);
	if (!(c->flags & BPFRR_CALL_ATTR_UNREADABLE)) {
		struct attr_tail tail = { f, c->attr };

		bpfrr_abi_newer_fields((int)c->cmd, c->attr, c->attr_len, 0xffff, text_attr_tail, &tail);
	}
	if (c->cmd >= (uint32_t)BPFRR_ABI_NR_CMDS || !bpfrr_abi_cmd((int)c->cmd)) {
		fputs("    unknown command; attr bytes: ", f);
		dump_text_hex(f, c->attr, c->attr_len);
		fputc('\n', f);
	} else {
		bpfrr_abi_walk_fields_env((int)c->cmd, c->attr, c->attr_len, &dc->env, text_attr_field, &tf);
		if (c->attr_exit_len) {
			tf.exit_pass = true;
			bpfrr_abi_walk_fields_env((int)c->cmd, c->attr_exit, c->attr_exit_len, &dc->env,
						  text_attr_field, &tf);
		}
		bpfrr_abi_walk_fds((int)c->cmd, c->attr, c->attr_len, &dc->env, text_fd_ref, &fds);
	}
	/* buffers not pointed to by attr itself (nested, or written at exit) */
	for (i = 0; i < c->nr_regions; i++) {
		if (dc->region_done[i])
			continue;
		text_label(f, "    ", c->regions[i].path);
		dc->region_done[i] = true;
		text_region(o, dc, &c->regions[i], "      ");
	}
	dump_fields_seen_free(&tf.seen);
	if (dc->loader || dc->loader_why)
		text_loader(o, dc);
}

static void text_syscall(struct dump_out *o, const struct dump_call *dc)
{
	const struct bpfrr_rec_syscall *s = dc->sys;
	FILE *f = o->f;
	uint32_t i;

	fprintf(f, "#%" PRIu64 " [%u] ", s->seq, s->tid);
	dump_text_escape(f, s->name, strlen(s->name));
	fputc('(', f);
	dump_sys_args_text(f, s->name, o->hdr ? o->hdr->arch : 0, s->args);
	fputc(')', f);
	text_result(f, s->ret, s->flags);
	if (s->flags & BPFRR_CALL_NOT_WAITED) {
		fputs(" (not waited for)", f);
	} else if (!(s->flags & BPFRR_CALL_NO_EXIT)) {
		fputc(' ', f);
		text_duration(f, s->t_enter_ns, s->t_exit_ns);
	}
	fputc('\n', f);
	for (i = 0; i < s->nr_regions; i++) {
		text_label(f, "    ", s->regions[i].path);
		text_region(o, dc, &s->regions[i], "      ");
	}
}

static void text_task(struct dump_out *o, const struct bpfrr_rec_task *t)
{
	const char *event = bpfrr_trace_task_event_name(t->event);
	FILE *f = o->f;
	uint32_t i;

	fprintf(f, "task %u: ", t->tid);
	if (event)
		fputs(event, f);
	else
		fprintf(f, "event %u", t->event);
	switch (t->event) {
	case BPFRR_TASK_THREAD:
	case BPFRR_TASK_FORK:
		fprintf(f, " of %u (tgid %u)", t->other_tid, t->tgid);
		break;
	case BPFRR_TASK_START:
	case BPFRR_TASK_EXEC:
		fputc(' ', f);
		dump_text_word(f, t->path);
		if (t->argc) {
			fputs(" [", f);
			for (i = 0; i < t->argc; i++) {
				if (i)
					fputc(' ', f);
				dump_text_word(f, t->argv[i]);
			}
			fputc(']', f);
		}
		if (t->event == BPFRR_TASK_EXEC && t->other_tid != t->tid)
			fprintf(f, " (by thread %u)", t->other_tid);
		break;
	case BPFRR_TASK_EXIT:
		fputs(" (", f);
		dump_text_wait_status(f, t->status);
		fputc(')', f);
		break;
	}
	fputc('\n', f);
}

static void text_note(struct dump_out *o, const struct bpfrr_rec_note *n)
{
	static const char *const levels[] = { "note", "info", "warning", "error" };

	fprintf(o->f, "%s", n->level < 4 ? levels[n->level] : levels[0]);
	if (n->seq)
		fprintf(o->f, " (#%" PRIu64 ")", n->seq);
	fputs(": ", o->f);
	dump_text_escape(o->f, n->text, strlen(n->text));
	fputc('\n', o->f);
}

static void text_end(struct dump_out *o, const struct bpfrr_rec_end *e)
{
	fputs("end: traced command ", o->f);
	dump_text_wait_status(o->f, e->exit_status);
	if (e->flags & BPFRR_END_F_DETACHED)
		fputs(" (recorder detached before the end)", o->f);
	fputc('\n', o->f);
}

/* elf: /opt/x/fx_core (embedded at 0x3040): 4616 bytes, sha256 1a2b3c4d5e6f7a8b (task 12) */
static void text_elf(struct dump_out *o, const struct bpfrr_rec_elf *e, const struct bpfrr_rec_blob *b)
{
	FILE *f = o->f;

	fputs("elf: ", f);
	dump_text_word(f, e->path);
	if (e->flags & BPFRR_ELF_F_EMBEDDED)
		fprintf(f, " (embedded at 0x%" PRIx64 ")", e->offset);
	if (b) {
		fprintf(f, ": %" PRIu64 " bytes, sha256 ", b->len);
		dump_text_hex(f, b->sha256, 8);
	}
	fprintf(f, " (task %u", e->tid);
	if (e->seq)
		fprintf(f, ", #%" PRIu64, e->seq);
	fputs(")\n", f);
}

/* -v: records that are not calls */
static void text_record(struct dump_out *o, const struct bpfrr_trace_record *rec)
{
	FILE *f = o->f;

	switch (rec->type) {
	case BPFRR_REC_BLOB:
		fprintf(f, "blob %" PRIu64 ": %" PRIu64 " bytes, sha256 ", rec->blob.id, rec->blob.len);
		dump_text_hex(f, rec->blob.sha256, sizeof(rec->blob.sha256));
		fputc('\n', f);
		break;
	case BPFRR_REC_FD_EVENT: {
		const char *op = bpfrr_trace_fd_op_name(rec->fd_event.op);

		fprintf(f, "fd [%u] %s fd %d", rec->fd_event.tid, op ? op : "?", rec->fd_event.fd);
		if (rec->fd_event.op == BPFRR_FD_DUP)
			fprintf(f, " -> %d", rec->fd_event.newfd);
		fprintf(f, ": %s #%" PRIu64, dump_kind_name(rec->fd_event.kind), rec->fd_event.object);
		if (rec->fd_event.seq)
			fprintf(f, " (by #%" PRIu64 ")", rec->fd_event.seq);
		if (rec->fd_event.flags & BPFRR_FD_F_CLOEXEC)
			fputs(" cloexec", f);
		fputc('\n', f);
		break;
	}
	case BPFRR_REC_OBJECT:
		fprintf(f, "identity of #%" PRIu64 " (fd %d):", rec->object.seq, rec->object.fd);
		text_identity(f, &rec->object, rec->object.kind);
		fputc('\n', f);
		break;
	case BPFRR_REC_KERNEL:
		dump_text_kernel(f, &rec->kernel, "");
		break;
	case BPFRR_REC_SYMBOL: {
		char sym[256];

		dump_symbol_text(&rec->symbol, sym, sizeof(sym));
		fprintf(f, "symbol of #%" PRIu64 ": %s %" PRIu64 " (%#" PRIx64 ") = %s", rec->symbol.seq,
			dump_symbol_kind_name(rec->symbol.kind), rec->symbol.value, rec->symbol.value, sym);
		if (rec->symbol.kind == BPFRR_SYM_BTF_ID)
			fprintf(f, ", btf obj id %u", rec->symbol.btf_obj_id);
		fputc('\n', f);
		break;
	}
	default:
		fprintf(f, "record type %u (%u bytes), not known to this version: skipped\n", rec->type,
			rec->length);
		break;
	}
}

/* --- content -------------------------------------------------------------------------------- */

static void text_string(struct dump_out *o, const char *s, size_t len, const char *indent)
{
	fputs(indent, o->f);
	dump_text_quoted(o->f, s, len);
	fputc('\n', o->f);
}

/* A failed call's log (the excerpt, or all of it with -v); else only its size. */
static void text_log(struct dump_out *o, const struct dump_call *c, const char *text, size_t start, size_t end,
		     const char *indent)
{
	if (!c->failed && !o->opts->verbose) {
		fprintf(o->f, "%slog: %zu bytes of text\n", indent, end);
		return;
	}
	if (start)
		fprintf(o->f, "%slog (last %d lines):\n", indent, DUMP_LOG_EXCERPT_LINES);
	else
		fprintf(o->f, "%slog:\n", indent);
	while (start < end) {
		const char *nl = memchr(text + start, '\n', end - start);
		size_t n = nl ? (size_t)(nl - (text + start)) : end - start;

		fprintf(o->f, "%s| ", indent);
		dump_text_escape(o->f, text + start, n);
		fputc('\n', o->f);
		start += n + 1;
	}
}

/* Instructions, one per line. */
static void text_insns(struct dump_out *o, const struct bpfrr_disasm_opts *opts, const void *insns, size_t len,
		       const char *indent)
{
	size_t cnt = len / BPFRR_INSN_SIZE;

	fprintf(o->f, "%s%zu insns%s\n", indent, cnt, len % 8 ? " (and a partial one)" : "");
	if (!o->opts->no_insns)
		bpfrr_disasm_fprint(o->f, insns, cnt, opts, indent);
}

/* BTF: type count and the first named types (all with -v). */
static void text_btf(struct dump_out *o, const struct btf *btf, const char *indent)
{
	uint32_t types, named, shown = 0, i;

	if (!btf) {
		fprintf(o->f, "%sBTF: not parseable\n", indent);
		return;
	}
	dump_btf_counts(btf, &types, &named);
	fprintf(o->f, "%sBTF: %u types, %u named", indent, types, named);
	for (i = 1; i <= types; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);
		const char *name = btf__name_by_offset(btf, t->name_off);

		if (!t->name_off || !name)
			continue;
		if (shown == DUMP_TEXT_MAX_NAMES && !o->opts->verbose)
			break;
		fprintf(o->f, "%s%s ", shown ? ", " : ": ", dump_btf_kind_name(t));
		dump_text_escape(o->f, name, strlen(name));
		shown++;
	}
	if (shown < named)
		fprintf(o->f, ", ... (%u more)", named - shown);
	fputc('\n', o->f);
}

/* ids, u32/u64 arrays: the first DUMP_ARRAY_SHOWN (all with -v) */
static void text_numbers(struct dump_out *o, const void *data, size_t len, int width, const char *indent)
{
	size_t n = len / width, i, shown = o->opts->verbose ? n : (n < DUMP_ARRAY_SHOWN ? n : DUMP_ARRAY_SHOWN);

	fprintf(o->f, "%s[", indent);
	for (i = 0; i < shown; i++) {
		uint64_t v = 0;

		memcpy(&v, (const uint8_t *)data + i * width, width);
		fprintf(o->f, width == 8 ? "%s0x%" PRIx64 : "%s%" PRIu64, i ? ", " : "", v);
	}
	if (shown < n)
		fprintf(o->f, ", ... (%zu more)", n - shown);
	fputs("]\n", o->f);
}

static void text_fd_array(struct dump_out *o, const void *fds, size_t n, const char *indent)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int32_t fd;

		memcpy(&fd, (const uint8_t *)fds + 4 * i, 4);
		fprintf(o->f, "%s[%zu] ", indent, i);
		text_fd(o, fd);
		fputc('\n', o->f);
	}
}

/* An info struct the kernel wrote: a line per field. */
static void text_info(struct dump_out *o, const struct bpfrr_struct_desc *desc, const void *data, size_t len,
		      const char *indent)
{
	struct text_fields tf = { .o = o, .indent = indent, .prefix_len = strlen("info") + 1 };

	bpfrr_abi_walk_struct_fields(desc, data, len, "info", 0, text_struct_field, &tf);
}

static void text_perf_attr(struct dump_out *o, const void *data, size_t len, const char *indent)
{
	struct dump_perf_symbols ps;

	dump_perf_attr_symbols(o, data, len, &ps);
	dump_perf_attr_text(o->f, data, len, indent, &ps);
}

/* kprobe_multi addresses: each with the symbol it was on the recording kernel */
static void text_kernel_addrs(struct dump_out *o, const void *data, size_t len, const char *indent)
{
	size_t n = len / 8, i, shown = o->opts->verbose ? n : (n < DUMP_ARRAY_SHOWN ? n : DUMP_ARRAY_SHOWN);
	char sym[256];

	for (i = 0; i < shown; i++) {
		const struct bpfrr_rec_symbol *s;
		uint64_t v;

		memcpy(&v, (const uint8_t *)data + i * 8, 8);
		fprintf(o->f, "%s[%zu] %#" PRIx64, indent, i, v);
		s = dump_symbol(o, BPFRR_SYM_KSYM_ADDR, v, NULL);
		if (s) {
			dump_symbol_text(s, sym, sizeof(sym));
			fprintf(o->f, " (%s)", sym);
		}
		fputc('\n', o->f);
	}
	if (shown < n)
		fprintf(o->f, "%s... (%zu more)\n", indent, n - shown);
}

/* a small buffer in hex */
static void text_bytes(struct dump_out *o, const void *data, size_t len, const char *indent)
{
	if (!len)
		return;
	fputs(indent, o->f);
	dump_text_hex(o->f, data, len);
	fputc('\n', o->f);
}

#define DUMP_NL_MSGS	32	/* netlink messages of one send shown */

/* "fd 5 -> prog 'xdp_pass' (...)", or "fd -1 (none)" */
static void text_nl_fd(struct dump_out *o, int32_t fd)
{
	if (fd < 0)
		fprintf(o->f, "fd %d (none)", fd);
	else
		text_fd(o, fd);
}

/*
 * One line per message (type, flags, device, what it does), and a line for
 * what it says about BPF: IFLA_XDP, or the tc object and its bpf classifier.
 */
static void text_netlink(struct dump_out *o, const struct dump_call *c, const void *data, size_t len,
			 const char *indent)
{
	struct bpfrr_nl_msg msgs[DUMP_NL_MSGS];
	int n = bpfrr_nl_decode(data, len, msgs, DUMP_NL_MSGS), i;
	FILE *f = o->f;

	if (n < 0) {
		fprintf(f, "%sno netlink message header\n", indent);
		if (len <= DUMP_SMALL_BUF)
			text_bytes(o, data, len, indent);
		return;
	}
	for (i = 0; i < n && i < DUMP_NL_MSGS; i++) {
		const struct bpfrr_nl_msg *m = &msgs[i];
		const char *type = bpfrr_nl_type_name(m->type), *dev;
		char flags[96], parent[32];

		bpfrr_nl_flags_string(m->type, m->flags, flags, sizeof(flags));
		if (type)
			fprintf(f, "%s%s", indent, type);
		else
			fprintf(f, "%stype %u", indent, m->type);
		fprintf(f, " [%s] seq %u", flags, m->seq);
		if (m->has_ifindex) {
			fprintf(f, ", ifindex %d", m->ifindex);
			dev = dump_call_ifname(o, c, m->ifindex);
			if (dev)
				fprintf(f, " (%s)", dev);
		}
		fprintf(f, ": %s%s\n", bpfrr_nl_effect_name(m->effect), m->truncated ? " (cut short)" : "");
		if (m->has_xdp) {
			fprintf(f, "%s  IFLA_XDP: ", indent);
			text_nl_fd(o, m->xdp_fd);
			if (m->has_xdp_flags)
				fprintf(f, ", flags 0x%x%s%s", m->xdp_flags, *bpfrr_nl_xdp_mode(m->xdp_flags) ? " mode " : "",
					bpfrr_nl_xdp_mode(m->xdp_flags));
			fputc('\n', f);
		}
		if (m->tc_kind[0] || (m->type >= BPFRR_RTM_NEWQDISC && m->type <= BPFRR_RTM_GETTFILTER + 1 &&
				      m->has_ifindex)) {
			bpfrr_nl_tc_parent_string(m->tc_parent, parent, sizeof(parent));
			fprintf(f, "%s  tc: kind \"%s\", parent %s, handle %x:%x, prio %u, protocol 0x%04x\n", indent,
				m->tc_kind, parent, m->tc_handle >> 16, m->tc_handle & 0xffff, bpfrr_nl_tc_prio(m->tc_info),
				bpfrr_nl_tc_proto(m->tc_info));
		}
		if (m->has_bpf) {
			fprintf(f, "%s  TCA_OPTIONS (bpf): ", indent);
			text_nl_fd(o, m->bpf_fd);
			if (m->bpf_name[0]) {
				fputs(", name ", f);
				dump_text_quoted(f, m->bpf_name, strlen(m->bpf_name));
			}
			fprintf(f, ", flags 0x%x%s", m->bpf_flags,
				m->bpf_flags & BPFRR_TCA_BPF_FLAG_ACT_DIRECT ? " direct-action" : "");
			if (m->bpf_flags_gen)
				fprintf(f, ", gen flags 0x%x", m->bpf_flags_gen);
			if (m->bpf_classid)
				fprintf(f, ", classid %x:%x", m->bpf_classid >> 16, m->bpf_classid & 0xffff);
			fputc('\n', f);
		}
	}
	if (n > DUMP_NL_MSGS)
		fprintf(f, "%s... %d more messages\n", indent, n - DUMP_NL_MSGS);
}


const struct dump_printer dump_text_printer = {
	.header = text_header,
	.bpf_call = text_bpf_call,
	.syscall = text_syscall,
	.task = text_task,
	.note = text_note,
	.end = text_end,
	.elf = text_elf,
	.record = text_record,
	.string = text_string,
	.log = text_log,
	.insns = text_insns,
	.btf = text_btf,
	.numbers = text_numbers,
	.fd_array = text_fd_array,
	.info = text_info,
	.perf_attr = text_perf_attr,
	.netlink = text_netlink,
	.kernel_addrs = text_kernel_addrs,
	.bytes = text_bytes,
};

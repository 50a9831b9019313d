// SPDX-License-Identifier: GPL-2.0-only
/*
 * out_header.c - `bpfrr translate --format header` (see out_header.h).
 *
 * The header is the plan and the generated loaders for one assumed kernel,
 * written as C data for the runtime (header_runtime.h, copied in from the
 * text embedded at build time), plus the user-facing struct and functions.
 * Instructions are written one per line with their disassembly and the
 * code generator's notes, so the header can be read like the listing of
 * `bpfrr replay --plan`.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bpf_abi.h"
#include "bpf_disasm.h"
#include "caps.h"
#include "codegen.h"
#include "header_runtime.h"
#include "out_header.h"
#include "sign.h"
#include "outfile.h"
#include "plan.h"

/* The runtime's text (build/gen/header_runtime.inc, made from header_runtime.h). */
static const char runtime_text[] =
#include "header_runtime.inc"
;

/* The runtime mirrors the IR's and the code generator's numbers. */
_Static_assert(BPFRR_RT_OP_BPF == BPFRR_IR_BPF && BPFRR_RT_OP_PERF_EVENT_OPEN == BPFRR_IR_PERF_EVENT_OPEN &&
	       BPFRR_RT_OP_IOCTL == BPFRR_IR_IOCTL && BPFRR_RT_OP_NETLINK == BPFRR_IR_NETLINK, "ops");
_Static_assert(BPFRR_RT_IN_ATTR == BPFRR_IR_IN_ATTR && BPFRR_RT_IN_ARG == BPFRR_IR_IN_ARG, "fd places");
_Static_assert(BPFRR_RT_RESOLVE_PMU_TYPE == BPFRR_IR_RESOLVE_PMU_TYPE &&
	       BPFRR_RT_RESOLVE_TP_ID == BPFRR_IR_RESOLVE_TP_ID && BPFRR_RT_RESOLVE_BTF_ID == BPFRR_IR_RESOLVE_BTF_ID &&
	       BPFRR_RT_RESOLVE_KSYM_ADDR == BPFRR_IR_RESOLVE_KSYM_ADDR &&
	       BPFRR_RT_RESOLVE_IFINDEX == BPFRR_IR_RESOLVE_IFINDEX, "resolutions");
_Static_assert(BPFRR_RT_BUF_LOG == BPFRR_IR_BUF_LOG, "buffer flags");
_Static_assert(BPFRR_RT_ID_TYPE == BPFRR_ID_TYPE && BPFRR_RT_ID_TAG == BPFRR_ID_TAG &&
	       BPFRR_RT_ID_NAME == BPFRR_ID_NAME && BPFRR_RT_ID_KEY_SIZE == BPFRR_ID_KEY_SIZE &&
	       BPFRR_RT_ID_VALUE_SIZE == BPFRR_ID_VALUE_SIZE && BPFRR_RT_ID_MAX_ENTRIES == BPFRR_ID_MAX_ENTRIES &&
	       BPFRR_RT_ID_MAP_FLAGS == BPFRR_ID_MAP_FLAGS && BPFRR_RT_ID_BTF_SIZE == BPFRR_ID_BTF_SIZE &&
	       BPFRR_RT_ID_ATTACH_TYPE == BPFRR_ID_ATTACH_TYPE &&
	       BPFRR_RT_ID_TARGET_BTF_ID == BPFRR_ID_TARGET_BTF_ID && BPFRR_RT_ID_LINK_PROG == BPFRR_ID_LINK_PROG,
	       "identity fields");
_Static_assert(BPFRR_RT_CTX_SLOTS == BPFRR_LOADER_CTX_SLOTS &&
	       sizeof(struct bpfrr_rt_ctx) == sizeof(struct bpfrr_loader_ctx) &&
	       offsetof(struct bpfrr_rt_ctx, err) == offsetof(struct bpfrr_loader_ctx, err) &&
	       offsetof(struct bpfrr_rt_ctx, failed_seq) == offsetof(struct bpfrr_loader_ctx, failed_seq) &&
	       offsetof(struct bpfrr_rt_ctx, user_base) == offsetof(struct bpfrr_loader_ctx, user_base),
	       "loader context");

#define EM_X86_64_	62
#define EM_AARCH64_	183

struct hw {
	const struct bpfrr_ir *ir;
	FILE *out;
	const char *name;		/* the C identifier */
	const char *caps_name;		/* stock-6.12, patched-6.12, none */
	struct bpfrr_caps caps;
	struct bpfrr_plan plan;
	struct bpfrr_loader *loaders;	/* per plan segment (kernel ones only) */
	char **fields;			/* per slot: its member of struct NAME */
	const struct bpfrr_ir_sig *sig;	/* signed (--sign-key): the one loader's signature, else NULL */
	char *err;
	size_t err_size;
};

static int hw_fail(struct hw *w, int ret, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int hw_fail(struct hw *w, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->err, w->err_size, fmt, ap);
	va_end(ap);
	return ret;
}

void bpfrr_header_ident(const char *name, char *buf, size_t size)
{
	size_t n = 0;
	const char *p;

	if (!size)
		return;
	for (p = name; *p && n + 1 < size; p++) {
		char ch = isalnum((unsigned char)*p) ? *p : '_';

		/* one '_' for a run of separators */
		if (ch == '_' && n && buf[n - 1] == '_' && !(*p == '_'))
			continue;
		buf[n++] = ch;
	}
	buf[n] = '\0';
	if (!n || isdigit((unsigned char)buf[0])) {
		char tmp[BPFRR_IR_MAX_NAME + 8];

		snprintf(tmp, sizeof(tmp), "_%s", buf);
		snprintf(buf, size, "%s", tmp);
	}
}

/*
 * Text inside a comment: no comment terminator, and printable ASCII only (a
 * recorded name or kernel release is anybody's bytes; the header is ASCII,
 * as put_string() keeps its literals).
 */
static void put_comment_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (s[0] == '*' && s[1] == '/') {
			fputs("* /", out);
			s++;
		} else if ((unsigned char)*s < 0x20) {
			fputc(' ', out);
		} else if ((unsigned char)*s >= 0x7f) {
			fputc('?', out);
		} else {
			fputc(*s, out);
		}
	}
}

static void put_string(FILE *out, const char *s)
{
	if (!s) {
		fputs("NULL", out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f || ch == '?')
			fprintf(out, "\\%03o", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

static void put_bytes(FILE *out, const char *type_name, const char *var, const uint8_t *p, uint32_t n)
{
	uint32_t i;

	fprintf(out, "static const %s %s[%u] = {", type_name, var, n);
	for (i = 0; i < n; i++)
		fprintf(out, "%s0x%02x,", i % 16 ? " " : "\n\t", p[i]);
	fprintf(out, "\n};\n");
}

static void put_u32s(FILE *out, const char *var, const uint32_t *v, uint32_t n)
{
	uint32_t i;

	fprintf(out, "static const uint32_t %s[%u] = {", var, n);
	for (i = 0; i < n; i++)
		fprintf(out, "%s%u,", i % 12 ? " " : "\n\t", v[i]);
	fprintf(out, "\n};\n");
}

static const char *rt_resolve_kind(uint32_t kind)
{
	switch (kind) {
	case BPFRR_IR_RESOLVE_PMU_TYPE: return "BPFRR_RT_RESOLVE_PMU_TYPE";
	case BPFRR_IR_RESOLVE_TP_ID: return "BPFRR_RT_RESOLVE_TP_ID";
	case BPFRR_IR_RESOLVE_BTF_ID: return "BPFRR_RT_RESOLVE_BTF_ID";
	case BPFRR_IR_RESOLVE_KSYM_ADDR: return "BPFRR_RT_RESOLVE_KSYM_ADDR";
	case BPFRR_IR_RESOLVE_IFINDEX: return "BPFRR_RT_RESOLVE_IFINDEX";
	}
	return "0";
}

/*
 * The resolutions of call c.  A user call's (lc NULL) are where the IR has
 * them, in its attr or a buffer; a loader's in the blob (the attr at
 * attr_off, a buffer where the loader placed it) or the user image.
 */
static void put_resolves(struct hw *w, const struct bpfrr_ir_call *c, const struct bpfrr_loader_call *lc)
{
	uint32_t i;

	for (i = 0; i < c->nr_resolves; i++) {
		const struct bpfrr_ir_resolve *rs = &c->resolves[i];
		uint32_t offset = rs->offset;
		int32_t buf = rs->buf;

		if (lc && rs->buf < 0) {
			offset += lc->attr_off;
		} else if (lc) {
			offset += lc->buf_off[rs->buf];
			buf = lc->buf_area[rs->buf] == BPFRR_AREA_USER ? BPFRR_RT_IN_USER : BPFRR_RT_IN_ATTR;
		}
		fprintf(w->out, "\t{ .seq = %llu, .kind = %s, .offset = %u, .size = %u, .name = ",
			(unsigned long long)c->seq, rt_resolve_kind(rs->kind), offset, rs->size);
		put_string(w->out, rs->name);
		fprintf(w->out, ", .buf = %d", buf);
		if (rs->btf_kind)
			fprintf(w->out, ", .btf_kind = %u", rs->btf_kind);
		if (rs->addend)
			fprintf(w->out, ", .addend = %lld", (long long)rs->addend);
		if (rs->module && *rs->module) {
			fprintf(w->out, ", .module = ");
			put_string(w->out, rs->module);
		}
		fprintf(w->out, " },\n");
	}
}

/* --- a loader --------------------------------------------------------------------------- */

static uint32_t count_kfunc_calls(const struct bpfrr_loader *l, uint32_t *idx)
{
	uint32_t i, n = 0;

	for (i = 0; i < l->nr_insns; i++) {
		const struct bpf_insn *in = &l->insns[i];

		if (in->code == (BPF_JMP | BPF_CALL) && in->src_reg == BPF_PSEUDO_KFUNC_CALL) {
			if (idx)
				idx[n] = i;
			n++;
		}
	}
	return n;
}

static int put_loader(struct hw *w, uint32_t k, const struct bpfrr_loader *l)
{
	const struct bpfrr_ir *ir = w->ir;
	FILE *out = w->out;
	uint32_t i, j, n, nr_perf = 0, nr_res = 0, *kf = NULL;
	char var[BPFRR_IR_MAX_NAME + 64];

	for (i = 0; i < l->nr_calls; i++) {
		const struct bpfrr_ir_call *c = &ir->calls[l->calls[i].call];

		nr_perf += c->op == BPFRR_IR_PERF_EVENT_OPEN;
		nr_res += c->nr_resolves;
	}
	n = count_kfunc_calls(l, NULL);
	if (w->sig) {
		/* signed: the target's ids are in the insns already, nothing is patched */
		if (l->nr_insns != w->sig->nr_insns || memcmp(l->insns, w->sig->insns, (size_t)l->nr_insns * 8) ||
		    l->blob_size != w->sig->blob_size || memcmp(l->blob, w->sig->blob, l->blob_size) || nr_res)
			return hw_fail(w, -EPROTO, "loader %u is not the loader that was signed", k);
		n = 0;
	} else if (n != nr_perf)
		return hw_fail(w, -EPROTO, "loader %u: %u kfunc calls for %u perf_event_open calls", k, n,
			       nr_perf);

	fprintf(out, "\n/*\n * loader %u: %u calls (seq", k, l->nr_calls);
	for (i = 0; i < l->nr_calls; i++)
		fprintf(out, " %llu", (unsigned long long)ir->calls[l->calls[i].call].seq);
	fprintf(out, "), %u insns, %u-byte blob, %u-byte user image, %u-byte context\n */\n", l->nr_insns,
		l->blob_size, l->user_size, l->ctx_size);

	fprintf(out, "static const struct bpf_insn %s__l%u_insns[%u] = {\n", w->name, k, l->nr_insns);
	for (i = 0; i < l->nr_insns; i += j) {
		char text[160];
		uint32_t m;

		j = (uint32_t)bpfrr_disasm_insn(l->insns, l->nr_insns, i, NULL, text, sizeof(text));
		if (j < 1)
			j = 1;
		if (l->notes && l->notes[i]) {
			fputs("\t/* ", out);
			put_comment_text(out, l->notes[i]);
			fputs(" */\n", out);
		}
		for (m = i; m < i + j && m < l->nr_insns; m++) {
			const struct bpf_insn *in = &l->insns[m];

			fprintf(out, "\t{ 0x%02x, %u, %u, %d, %d },", in->code, in->dst_reg, in->src_reg, in->off,
				in->imm);
			if (m == i) {
				fprintf(out, "\t/* %5u: ", i);
				put_comment_text(out, text);
				fputs(" */", out);
			}
			fputc('\n', out);
		}
	}
	fprintf(out, "};\n");
	snprintf(var, sizeof(var), "%s__l%u_blob", w->name, k);
	put_bytes(out, "uint8_t", var, l->blob, l->blob_size);
	if (l->user_size) {
		snprintf(var, sizeof(var), "%s__l%u_user", w->name, k);
		put_bytes(out, "uint8_t", var, l->user, l->user_size);
	}
	if (l->nr_user_relocs) {
		snprintf(var, sizeof(var), "%s__l%u_user_relocs", w->name, k);
		put_u32s(out, var, l->user_relocs, l->nr_user_relocs);
	}
	if (n) {
		kf = calloc(n, sizeof(*kf));
		if (!kf)
			return hw_fail(w, -ENOMEM, "out of memory");
		count_kfunc_calls(l, kf);
		snprintf(var, sizeof(var), "%s__l%u_kfunc_calls", w->name, k);
		put_u32s(out, var, kf, n);
		free(kf);
	}
	if (nr_res) {
		fprintf(out, "static const struct bpfrr_rt_resolve %s__l%u_resolves[%u] = {\n", w->name, k, nr_res);
		for (i = 0; i < l->nr_calls; i++)
			put_resolves(w, &ir->calls[l->calls[i].call], &l->calls[i]);
		fprintf(out, "};\n");
	}
	if (l->nr_created) {
		snprintf(var, sizeof(var), "%s__l%u_created", w->name, k);
		put_u32s(out, var, l->created, l->nr_created);
	}
	if (w->sig) {
		fprintf(out, "/* PKCS#7 signature over insns || blob (docs/signing.md) */\n");
		snprintf(var, sizeof(var), "%s__l%u_signature", w->name, k);
		put_bytes(out, "uint8_t", var, w->sig->sig, w->sig->sig_size);
		fprintf(out, "/* SHA-256 of the insns: the blob map is exclusive to this program */\n");
		snprintf(var, sizeof(var), "%s__l%u_excl_prog_hash", w->name, k);
		put_bytes(out, "uint8_t", var, w->sig->excl_prog_hash, 32);
	}

	fprintf(out, "static const struct bpfrr_rt_loader %s__l%u = {\n", w->name, k);
	fprintf(out, "\t.insns = %s__l%u_insns,\n\t.nr_insns = %u,\n", w->name, k, l->nr_insns);
	fprintf(out, "\t.blob = %s__l%u_blob,\n\t.blob_size = %u,\n", w->name, k, l->blob_size);
	if (l->user_size)
		fprintf(out, "\t.user = %s__l%u_user,\n\t.user_size = %u,\n", w->name, k, l->user_size);
	if (l->nr_user_relocs)
		fprintf(out, "\t.user_relocs = %s__l%u_user_relocs,\n\t.nr_user_relocs = %u,\n", w->name, k,
			l->nr_user_relocs);
	if (n)
		fprintf(out, "\t.kfunc_calls = %s__l%u_kfunc_calls,\n\t.nr_kfunc_calls = %u,\n", w->name, k, n);
	if (nr_res)
		fprintf(out, "\t.resolves = %s__l%u_resolves,\n\t.nr_resolves = %u,\n", w->name, k, nr_res);
	if (l->nr_created)
		fprintf(out, "\t.created = %s__l%u_created,\n\t.nr_created = %u,\n", w->name, k, l->nr_created);
	if (w->sig)
		fprintf(out, "\t.signature = %s__l%u_signature,\n\t.signature_size = %u,\n"
			"\t.excl_prog_hash = %s__l%u_excl_prog_hash,\n", w->name, k, w->sig->sig_size, w->name, k);
	fprintf(out, "\t.ctx_size = %u,\n\t.first_seq = %llu,\n};\n", l->ctx_size,
		(unsigned long long)ir->calls[l->calls[0].call].seq);
	return 0;
}

/* --- a user-space call ---------------------------------------------------------------- */

static void put_user_call(struct hw *w, uint32_t ci)
{
	const struct bpfrr_ir_call *c = &w->ir->calls[ci];
	FILE *out = w->out;
	char var[BPFRR_IR_MAX_NAME + 64], name[64];
	uint32_t i;

	fprintf(out, "\n/* call %u: seq %llu %s, from user space: %s */\n", ci, (unsigned long long)c->seq,
		bpfrr_ir_call_name(c, name, sizeof(name)),
		w->plan.why_user[ci] ? w->plan.why_user[ci] : "planned so");
	if (c->attr_size) {
		snprintf(var, sizeof(var), "%s__c%u_attr", w->name, ci);
		put_bytes(out, "uint8_t", var, c->attr, c->attr_size);
	}
	for (i = 0; i < c->nr_bufs; i++) {
		if (!c->bufs[i].data || !c->bufs[i].len)
			continue;
		fprintf(out, "/* %s */\n", c->bufs[i].path);
		snprintf(var, sizeof(var), "%s__c%u_b%u", w->name, ci, i);
		put_bytes(out, "uint8_t", var, c->bufs[i].data, c->bufs[i].len);
	}
	if (c->nr_bufs) {
		fprintf(out, "static const struct bpfrr_rt_buf %s__c%u_bufs[%u] = {\n", w->name, ci, c->nr_bufs);
		for (i = 0; i < c->nr_bufs; i++) {
			const struct bpfrr_ir_buf *b = &c->bufs[i];

			fprintf(out, "\t{ %d, %u, %u, %u, ", b->parent, b->ptr_offset, b->len, b->flags);
			if (b->data && b->len)
				fprintf(out, "%s__c%u_b%u },", w->name, ci, i);
			else
				fprintf(out, "NULL },");
			fputs("\t/* ", out);
			put_comment_text(out, b->path);
			fputs(" */\n", out);
		}
		fprintf(out, "};\n");
	}
	if (c->nr_fdrels) {
		fprintf(out, "static const struct bpfrr_rt_fdrel %s__c%u_fdrels[%u] = {\n", w->name, ci,
			c->nr_fdrels);
		for (i = 0; i < c->nr_fdrels; i++)
			fprintf(out, "\t{ %d, %u, %u },\t/* %s of %s */\n", c->fdrels[i].buf, c->fdrels[i].offset,
				c->fdrels[i].slot, bpfrr_ir_ref_name(c->fdrels[i].ref),
				w->fields[c->fdrels[i].slot]);
		fprintf(out, "};\n");
	}
	if (c->nr_resolves) {
		fprintf(out, "static const struct bpfrr_rt_resolve %s__c%u_resolves[%u] = {\n", w->name, ci,
			c->nr_resolves);
		put_resolves(w, c, NULL);
		fprintf(out, "};\n");
	}
	if (c->nr_outfds) {
		fprintf(out, "static const struct bpfrr_rt_outfd %s__c%u_outfds[%u] = {\n", w->name, ci,
			c->nr_outfds);
		for (i = 0; i < c->nr_outfds; i++)
			fprintf(out, "\t{ %d, %u, %u },\t/* product: %s */\n", c->outfds[i].buf, c->outfds[i].offset,
				c->outfds[i].slot, w->fields[c->outfds[i].slot]);
		fprintf(out, "};\n");
	}
	fprintf(out, "static const struct bpfrr_rt_call %s__c%u = {\n", w->name, ci);
	fprintf(out, "\t.seq = %llu,\n\t.op = %u,\n\t.cmd = %u,\n\t.result_slot = %d,\n",
		(unsigned long long)c->seq, c->op, c->cmd, c->result_slot);
	fprintf(out, "\t.args = { %lld, %lld, %lld, %lld },\n", (long long)c->args[0], (long long)c->args[1],
		(long long)c->args[2], (long long)c->args[3]);
	fprintf(out, "\t.attr_size = %u,\n", c->attr_size);
	if (c->attr_size)
		fprintf(out, "\t.attr = %s__c%u_attr,\n", w->name, ci);
	if (c->nr_bufs)
		fprintf(out, "\t.bufs = %s__c%u_bufs,\n\t.nr_bufs = %u,\n", w->name, ci, c->nr_bufs);
	if (c->nr_fdrels)
		fprintf(out, "\t.fdrels = %s__c%u_fdrels,\n\t.nr_fdrels = %u,\n", w->name, ci, c->nr_fdrels);
	if (c->nr_resolves)
		fprintf(out, "\t.resolves = %s__c%u_resolves,\n\t.nr_resolves = %u,\n", w->name, ci,
			c->nr_resolves);
	if (c->nr_outfds)
		fprintf(out, "\t.outfds = %s__c%u_outfds,\n\t.nr_outfds = %u,\n", w->name, ci, c->nr_outfds);
	fprintf(out, "};\n");
}

/* --- slots and the API ---------------------------------------------------------------------- */

static int make_fields(struct hw *w)
{
	const struct bpfrr_ir *ir = w->ir;
	uint32_t i, j;

	w->fields = calloc(ir->nr_slots + 1, sizeof(*w->fields));
	if (!w->fields)
		return hw_fail(w, -ENOMEM, "out of memory");
	for (i = 0; i < ir->nr_slots; i++) {
		char buf[BPFRR_IR_MAX_NAME + 32];
		bool taken;

		bpfrr_header_ident(ir->slots[i].name ? ir->slots[i].name : "slot", buf, BPFRR_IR_MAX_NAME);
		taken = !strcmp(buf, "failed_seq");
		for (j = 0; j < i && !taken; j++)
			taken = !strcmp(w->fields[j], buf);
		if (taken) {
			size_t n = strlen(buf);

			snprintf(buf + n, sizeof(buf) - n, "_%u", i);
		}
		w->fields[i] = strdup(buf);
		if (!w->fields[i])
			return hw_fail(w, -ENOMEM, "out of memory");
	}
	return 0;
}

static void put_ident(FILE *out, const struct bpfrr_ir_ident *id)
{
	uint32_t i;

	fprintf(out, "\t\t.ident = { 0x%x, %u, {", id->have, id->type);
	for (i = 0; i < 8; i++)
		fprintf(out, "%s0x%02x", i ? ", " : " ", id->tag[i]);
	fprintf(out, " }, ");
	put_string(out, id->name);
	fprintf(out, ", %u, %u, %u, %u, %u, %u, %u, %u },\n", id->key_size, id->value_size, id->max_entries,
		id->map_flags, id->btf_size, id->attach_type, id->target_btf_id, id->link_prog_slot);
}

static void put_slots(struct hw *w)
{
	const struct bpfrr_ir *ir = w->ir;
	FILE *out = w->out;
	uint32_t i;

	if (!ir->nr_slots)
		return;
	fprintf(out, "\nstatic const struct bpfrr_rt_slot %s__slots[%u] = {\n", w->name, ir->nr_slots);
	for (i = 0; i < ir->nr_slots; i++) {
		const struct bpfrr_ir_slot *s = &ir->slots[i];

		fprintf(out, "\t{\n\t\t.name = ");
		put_string(out, s->name);
		fprintf(out, ",\n\t\t.kind = \"%s\",\n", bpfrr_abi_obj_kind_name(s->kind));
		if (s->source == BPFRR_IR_SLOT_PATH) {
			fprintf(out, "\t\t.path = ");
			put_string(out, s->path);
			fprintf(out, ",\n\t\t.open_flags = 0x%x,\n", s->open_flags);
		}
		fprintf(out, "\t\t.keep = %d,\n", !!(s->flags & BPFRR_IR_SLOT_KEEP));
		put_ident(out, &s->ident);
		fprintf(out, "\t},\n");
	}
	fprintf(out, "};\n");
}

/*
 * What the loaders need of a kernel that lists what its syscall programs
 * may do (header_runtime.h, bpfrr_rt_check_kernel): every bpf command they
 * issue, and for every pointer in an attr whether it points into the blob
 * (pointers inside buffers are not the list's business).
 * Returns how many entries it wrote (or would write, with out NULL).
 */
static uint32_t put_needs(struct hw *w, FILE *out)
{
	const struct bpfrr_ir *ir = w->ir;
	uint32_t i, k = 0, n = 0, j, b;
	char (*seen)[BPFRR_IR_MAX_NAME + 16] = NULL;
	uint32_t nr_seen = 0, cap = 0;

	for (i = 0; i < w->plan.nr_segs; i++) {
		const struct bpfrr_loader *l;

		if (w->plan.segs[i].side != BPFRR_SIDE_KERNEL)
			continue;
		l = &w->loaders[k++];
		for (j = 0; j < l->nr_calls; j++) {
			const struct bpfrr_ir_call *c = &ir->calls[l->calls[j].call];

			if (c->op != BPFRR_IR_BPF)
				continue;
			for (b = 0; b <= c->nr_bufs; b++) {
				const char *path = b < c->nr_bufs ? c->bufs[b].path : NULL;
				uint32_t in_blob = b < c->nr_bufs && l->calls[j].buf_area[b] == BPFRR_AREA_BLOB;
				char key[BPFRR_IR_MAX_NAME + 16];
				uint32_t m;

				/* the list names the attr's own pointers */
				if (path && c->bufs[b].parent != BPFRR_IR_IN_ATTR)
					continue;
				if (path && !strncmp(path, "attr.", 5))
					path += 5;
				snprintf(key, sizeof(key), "%u %s", c->cmd, path ? path : "");
				for (m = 0; m < nr_seen && strcmp(seen[m], key); m++)
					;
				if (m < nr_seen)
					continue;
				if (nr_seen == cap) {
					void *p = realloc(seen, (cap ? cap * 2 : 16) * sizeof(*seen));

					if (!p)
						break;
					seen = p;
					cap = cap ? cap * 2 : 16;
				}
				snprintf(seen[nr_seen++], sizeof(seen[0]), "%s", key);
				if (out) {
					fprintf(out, "\t{ %u, ", c->cmd);
					put_string(out, path);
					fprintf(out, ", %u },", path ? in_blob : 0);
					if (path)
						fprintf(out, "\t/* %s %s */", bpfrr_abi_cmd_name(c->cmd) ?
							bpfrr_abi_cmd_name(c->cmd) : "?", in_blob ? "in the blob" :
							"in user memory");
					else
						fprintf(out, "\t/* %s accepted */", bpfrr_abi_cmd_name(c->cmd) ?
							bpfrr_abi_cmd_name(c->cmd) : "?");
					fputc('\n', out);
				}
				n++;
			}
		}
	}
	free(seen);
	return n;
}

static void put_api(struct hw *w)
{
	const struct bpfrr_ir *ir = w->ir;
	FILE *out = w->out;
	const char *n = w->name;
	uint32_t i, k, nr_steps = 0, nr_needs;

	/* steps in plan order: a loader per kernel segment, a call per user-space call */
	for (i = 0; i < w->plan.nr_segs; i++)
		nr_steps += w->plan.segs[i].side == BPFRR_SIDE_KERNEL ? 1 : w->plan.segs[i].nr;
	if (nr_steps) {
		fprintf(out, "\nstatic const struct bpfrr_rt_step %s__steps[%u] = {\n", n, nr_steps);
		for (i = 0, k = 0; i < w->plan.nr_segs; i++) {
			const struct bpfrr_plan_seg *seg = &w->plan.segs[i];
			uint32_t j;

			if (seg->side == BPFRR_SIDE_KERNEL) {
				fprintf(out, "\t{ &%s__l%u, NULL },\n", n, k++);
				continue;
			}
			for (j = seg->first; j < seg->first + seg->nr; j++)
				fprintf(out, "\t{ NULL, &%s__c%u },\n", n, w->plan.order[j]);
		}
		fprintf(out, "};\n");
	}
	nr_needs = put_needs(w, NULL);
	if (nr_needs) {
		fprintf(out, "\n/* What the loaders need of a kernel with %s */\n", BPFRR_RT_CMDS_LIST);
		fprintf(out, "static const struct bpfrr_rt_need %s__needs[%u] = {\n", n, nr_needs);
		put_needs(w, out);
		fprintf(out, "};\n");
	}
	fprintf(out, "\nstatic const struct bpfrr_rt_image %s__image = {\n", n);
	fprintf(out, "\t.kernel = %s,\n", w->plan.nr_kernel == 0 ? "BPFRR_RT_KERNEL_ANY" :
		!strcmp(w->caps_name, "patched-6.12") ? "BPFRR_RT_KERNEL_PATCHED" : "BPFRR_RT_KERNEL_STOCK");
	if (nr_needs)
		fprintf(out, "\t.nr_needs = %u,\n\t.needs = %s__needs,\n", nr_needs, n);
	if (ir->nr_slots)
		fprintf(out, "\t.nr_slots = %u,\n\t.slots = %s__slots,\n", ir->nr_slots, n);
	if (nr_steps)
		fprintf(out, "\t.nr_steps = %u,\n\t.steps = %s__steps,\n", nr_steps, n);
	if (w->sig && w->sig->build_id)
		fprintf(out, "\t.build_id = \"%s\",\n", w->sig->build_id);
	fprintf(out, "};\n");

	fprintf(out, "\n/* The objects of the replay: an fd each (-1 when not loaded). */\nstruct %s {\n", n);
	for (i = 0; i < ir->nr_slots; i++) {
		fprintf(out, "\tint %s;\t/* slot %u: ", w->fields[i], i);
		put_comment_text(out, ir->slots[i].name ? ir->slots[i].name : "");
		fprintf(out, " (%s%s) */\n", bpfrr_abi_obj_kind_name(ir->slots[i].kind),
			ir->slots[i].flags & BPFRR_IR_SLOT_KEEP ? ", alive when the loader finished" : "");
	}
	fprintf(out, "\t/* after a failed load: the recorded seq of the failing call, 0 if none */\n"
		"\tlong long failed_seq;\n};\n");

	fprintf(out, "\n/* Where struct %s holds each slot's fd. */\n", n);
	if (ir->nr_slots) {
		fprintf(out, "static const size_t %s__fd_offsets[%u] = {\n", n, ir->nr_slots);
		for (i = 0; i < ir->nr_slots; i++)
			fprintf(out, "\toffsetof(struct %s, %s),\n", n, w->fields[i]);
		fprintf(out, "};\n");
	}
	fprintf(out, "#define %s__NR_SLOTS %uu\n", n, ir->nr_slots);

	fprintf(out,
		"\n"
		"/*\n"
		" * Rebuilds the recorded state: 0 with every fd in obj, or -errno with\n"
		" * nothing left open (every fd -1) and obj->failed_seq naming the failing\n"
		" * recorded call.  With log (log_size bytes), the kernel's log of a refused\n"
		" * loader program or failed call with a log buffer is copied there.\n"
		" */\n"
		"static inline int %s__load_log(struct %s *obj, char *log, unsigned int log_size)\n"
		"{\n", n, n);
	if (ir->nr_slots)
		fprintf(out,
			"\tint fds[%u];\n"
			"\tuint64_t failed_seq;\n"
			"\tuint32_t i;\n"
			"\tint ret = bpfrr_rt_load(&%s__image, fds, &failed_seq, log, log_size);\n"
			"\n"
			"\tfor (i = 0; i < %u; i++)\n"
			"\t\tmemcpy((char *)obj + %s__fd_offsets[i], &fds[i], sizeof(int));\n",
			ir->nr_slots, n, ir->nr_slots, n);
	else
		fprintf(out,
			"\tuint64_t failed_seq;\n"
			"\tint ret = bpfrr_rt_load(&%s__image, NULL, &failed_seq, log, log_size);\n"
			"\n", n);
	fprintf(out,
		"\tobj->failed_seq = (long long)failed_seq;\n"
		"\treturn ret;\n"
		"}\n"
		"\n"
		"static inline int %s__load(struct %s *obj)\n"
		"{\n"
		"\treturn %s__load_log(obj, NULL, 0);\n"
		"}\n"
		"\n"
		"/* Closes every fd of obj (the objects live on where pinned or attached elsewhere). */\n"
		"static inline void %s__destroy(struct %s *obj)\n"
		"{\n", n, n, n, n, n);
	if (ir->nr_slots)
		fprintf(out,
			"\tuint32_t i;\n"
			"\n"
			"\tfor (i = 0; i < %u; i++) {\n"
			"\t\tint *fd = (int *)((char *)obj + %s__fd_offsets[i]);\n"
			"\n"
			"\t\tif (*fd >= 0)\n"
			"\t\t\tclose(*fd);\n"
			"\t\t*fd = -1;\n"
			"\t}\n", ir->nr_slots, n);
	else
		fprintf(out, "\t(void)obj;\n");
	fprintf(out, "}\n");
}

/* --- the header ------------------------------------------------------------------------------ */

static void put_top(struct hw *w, const struct bpfrr_header_opts *o)
{
	const struct bpfrr_ir *ir = w->ir;
	FILE *out = w->out;
	uint32_t i, k, insns = 0, blob = 0, user = 0;

	for (i = 0, k = 0; i < w->plan.nr_segs; i++) {
		if (w->plan.segs[i].side != BPFRR_SIDE_KERNEL)
			continue;
		insns += w->loaders[k].nr_insns;
		blob += w->loaders[k].blob_size;
		user += w->loaders[k].user_size;
		k++;
	}
	fprintf(out, "/* SPDX-License-Identifier: GPL-2.0-only */\n/*\n * %s: ", w->name);
	fprintf(out, "generated by bpfrr translate --format header from\n *   ");
	put_comment_text(out, o->source ? o->source : ir->source ? ir->source : "(unnamed)");
	fprintf(out, "\n * (recorded on ");
	put_comment_text(out, ir->kernel_release ? ir->kernel_release : "an unknown kernel");
	fprintf(out, ").  Do not edit.\n *\n");
	fprintf(out, " * Planned for %s kernels: %u calls, %u in loader programs (%u loader runs,\n"
		" * %u insns, %u blob bytes, %u user-image bytes), %u from user space.\n *\n", w->caps_name,
		ir->nr_calls,
		w->plan.nr_kernel, k, insns, blob, user, w->plan.nr_user);
	fprintf(out,
		" * Usage (needs only libc and the kernel's UAPI headers; compile with\n"
		" * -std=gnu11 or _GNU_SOURCE defined, for syscall(2)):\n"
		" *\n"
		" *\tstruct %s obj;\n"
		" *\tint err = %s__load(&obj);\n"
		" *\n"
		" * rebuilds the objects the recorded loader had made (programs, maps, BTF,\n"
		" * links, perf events) and leaves their fds in obj; %s__destroy(&obj)\n"
		" * closes them.  Kernel numbers (tracepoint ids, PMU types%s) are looked up\n"
		" * by name at load time; vmlinux BTF ids inside the recorded programs and\n"
		" * attrs are as recorded, so load it on the kernel build it was recorded on.\n"
		" */\n", w->name, w->name, w->name,
		w->caps.perf_event_open ? ", the bpf_perf_event_open() kfunc's BTF id" : "");
	if (w->sig)
		fprintf(out, "/*\n * SIGNED (docs/signing.md): the loader is loaded with its PKCS#7 signature over\n"
			" * insns || blob, its blob in an exclusive frozen map; the kernel checks it against\n"
			" * the keyring named by $%s (@s, @u, builtin, secondary, platform or a key\n"
			" * serial; default @s).  Every kernel number was fixed at sign time%s%s;\n"
			" * nothing is looked up at load time.  Any edit of the arrays below voids it.\n */\n",
			BPFRR_RT_KEYRING_ENV, w->sig->build_id ? " for kernel build\n * " : "",
			w->sig->build_id ? w->sig->build_id : "");
	fprintf(out, "#ifndef BPFRR_HEADER_%s_H\n#define BPFRR_HEADER_%s_H\n\n", w->name, w->name);
	if (ir->arch == EM_X86_64_)
		fprintf(out, "#if !defined(__x86_64__)\n#error \"%s was recorded on x86_64\"\n#endif\n\n", w->name);
	else if (ir->arch == EM_AARCH64_)
		fprintf(out, "#if !defined(__aarch64__)\n#error \"%s was recorded on arm64\"\n#endif\n\n", w->name);
	fprintf(out, "#include <stddef.h>\n\n/* ---- the runtime (bpfrr replayer/runtime/header_runtime.h) ---- */\n");
	fputs(runtime_text, out);
	fprintf(out, "/* ---- end of the runtime ---- */\n");
}

int bpfrr_header_fwrite(const struct bpfrr_ir *ir, FILE *out, const struct bpfrr_header_opts *o,
			char *err, size_t err_size)
{
	struct hw w = { .ir = ir, .out = out, .name = o->name, .err = err, .err_size = err_size };
	struct bpfrr_ir *signed_ir;
	uint32_t i, k, nr_loaders = 0;
	char ident[BPFRR_IR_MAX_NAME];
	int ret;

	if (err && err_size)
		err[0] = '\0';
	if (!o->name || !o->name[0])
		return hw_fail(&w, -EINVAL, "the header needs a name");
	bpfrr_header_ident(o->name, ident, sizeof(ident));
	if (strcmp(ident, o->name))
		return hw_fail(&w, -EINVAL, "--name '%s' is not a C identifier (say %s)", o->name, ident);
	ret = bpfrr_ir_validate(ir, err, err_size);
	if (ret)
		return ret;
	/* the header's runtime opens path slots, but makes no directories */
	for (i = 0; i < ir->nr_slots; i++)
		if (ir->slots[i].source == BPFRR_IR_SLOT_MKDIR)
			return hw_fail(&w, -EOPNOTSUPP, "slot %u (%s) is the directory %s on a bpffs, which "
				       "bpfrr replay makes; the header format cannot carry it", i,
				       ir->slots[i].name ? ir->slots[i].name : "?", ir->slots[i].path);
	/* a netlink attachment outlives the fds: a failed replay must detach it, which bpfrr replay does */
	for (i = 0; i < ir->nr_calls; i++)
		if (ir->calls[i].op == BPFRR_IR_NETLINK)
			return hw_fail(&w, -EOPNOTSUPP, "seq %llu is a netlink attachment, which bpfrr replay detaches "
				       "again when a later call fails; the header format cannot carry that",
				       (unsigned long long)ir->calls[i].seq);
	if (o->sign) {
		struct bpfrr_header_opts o2 = *o;

		/* the signed IR: its values fixed for the target kernel, its one loader signed */
		signed_ir = bpfrr_ir_clone(ir);
		if (!signed_ir)
			return hw_fail(&w, -ENOMEM, "out of memory");
		ret = bpfrr_sign_ir(signed_ir, o->sign, err, err_size);
		if (!ret) {
			o2.sign = NULL;
			o2.signed_ir = signed_ir;
			ret = bpfrr_header_fwrite(signed_ir, out, &o2, err, err_size);
		}
		bpfrr_ir_free(signed_ir);
		return ret;
	}
	w.sig = o->signed_ir ? o->signed_ir->sig : NULL;
	w.caps_name = o->caps ? o->caps : "stock-6.12";
	ret = bpfrr_caps_assume(&w.caps, w.caps_name);
	if (ret)
		return hw_fail(&w, ret, "caps '%s': one of %s", o->caps, BPFRR_CAPS_ASSUME_NAMES);
	if (w.sig)
		w.caps.perf_event_open_btf_id = w.sig->kfunc_btf_id;
	ret = bpfrr_plan_make(ir, &w.caps, 0, &w.plan, err, err_size);
	if (ret)
		return ret;
	for (i = 0; i < w.plan.nr_segs; i++)
		nr_loaders += w.plan.segs[i].side == BPFRR_SIDE_KERNEL;
	w.loaders = calloc(nr_loaders + 1, sizeof(*w.loaders));
	if (!w.loaders) {
		ret = hw_fail(&w, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0, k = 0; i < w.plan.nr_segs; i++) {
		const struct bpfrr_plan_seg *seg = &w.plan.segs[i];
		char cg_err[256];

		if (seg->side != BPFRR_SIDE_KERNEL)
			continue;
		ret = bpfrr_codegen(ir, &w.plan.order[seg->first], seg->nr, &w.caps, BPFRR_CG_NOTES,
				    &w.loaders[k], cg_err, sizeof(cg_err));
		if (ret) {
			hw_fail(&w, ret, "generating loader %u: %s", k, cg_err);
			goto out;
		}
		k++;
	}
	ret = make_fields(&w);
	if (ret)
		goto out;

	put_top(&w, o);
	for (i = 0, k = 0; i < w.plan.nr_segs; i++) {
		const struct bpfrr_plan_seg *seg = &w.plan.segs[i];
		uint32_t j;

		if (seg->side == BPFRR_SIDE_KERNEL) {
			ret = put_loader(&w, k, &w.loaders[k]);
			if (ret)
				goto out;
			k++;
			continue;
		}
		for (j = seg->first; j < seg->first + seg->nr; j++)
			put_user_call(&w, w.plan.order[j]);
	}
	put_slots(&w);
	put_api(&w);
	fprintf(out, "\n#endif /* BPFRR_HEADER_%s_H */\n", w.name);
	if (ferror(out))
		ret = hw_fail(&w, -EIO, "write error");
out:
	for (i = 0; i < nr_loaders && w.loaders; i++)
		bpfrr_loader_free(&w.loaders[i]);
	free(w.loaders);
	for (i = 0; w.fields && i < ir->nr_slots; i++)
		free(w.fields[i]);
	free(w.fields);
	bpfrr_plan_free(&w.plan);
	return ret;
}

int bpfrr_header_write(const struct bpfrr_ir *ir, const char *path, const struct bpfrr_header_opts *o,
		       char *err, size_t err_size)
{
	struct bpfrr_header_opts o2 = *o;
	char name[BPFRR_IR_MAX_NAME];
	struct bpfrr_outfile out;
	int ret;

	if (!o2.name) {
		const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
		size_t n = strcspn(base, ".");
		char stem[BPFRR_IR_MAX_NAME];

		if (!strcmp(path, "-") || !n) {
			snprintf(stem, sizeof(stem), "bpfrr_loader");
		} else {
			if (n >= sizeof(stem))
				n = sizeof(stem) - 1;
			memcpy(stem, base, n);
			stem[n] = '\0';
		}
		bpfrr_header_ident(stem, name, sizeof(name));
		o2.name = name;
	}
	ret = bpfrr_outfile_open(&out, path, err, err_size);
	if (ret)
		return ret;
	ret = bpfrr_header_fwrite(ir, out.f, &o2, err, err_size);
	if (ret) {
		char msg[512];

		/* no half header left behind: the old file (if any) stays */
		bpfrr_outfile_abort(&out);
		snprintf(msg, sizeof(msg), "%s: %s", path, err);
		snprintf(err, err_size, "%s", msg);
		return ret;
	}
	return bpfrr_outfile_commit(&out, err, err_size);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * codegen.c - IR calls -> syscall loader program + blob + user image
 * (see codegen.h for the design).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf_abi.h"
#include "bpf_disasm.h"
#include "codegen.h"
#include "emit.h"

#define BLOB_MAX	(1u << 29)	/* the verifier's BPF_MAX_VAR_OFF: map value offsets below it */
#define USER_MAX	(1u << 30)

static uint32_t align8(uint32_t x)
{
	return (x + 7) & ~7u;
}

/* "attr.a.b[12].c" -> "attr.a.b[].c": caps name array elements collectively */
static void path_pattern(const char *path, char *out, size_t size)
{
	size_t o = 0;

	for (; *path && o + 1 < size; path++) {
		out[o++] = *path;
		if (*path == '[')
			while (path[1] >= '0' && path[1] <= '9')
				path++;
	}
	out[o] = '\0';
}

int bpfrr_codegen_place(const struct bpfrr_ir_call *c, const struct bpfrr_caps *caps, uint8_t *area,
			const char **why)
{
	uint32_t i;

	if (c->op == BPFRR_IR_PERF_EVENT_OPEN) {
		if (!caps->perf_event_open) {
			*why = "syscall programs cannot open perf events on this kernel";
			return -EOPNOTSUPP;
		}
		if (c->args[2] != -1) {
			*why = "an event in a group, which bpf_perf_event_open() cannot open";
			return -EOPNOTSUPP;
		}
		if (c->args[3] < 0 || c->args[3] > INT32_MAX) {
			*why = "perf_event_open flags beyond 32 bits";
			return -EOPNOTSUPP;
		}
		/*
		 * The series refuses uprobe events to syscall programs: failing to
		 * open one waits for an RCU tasks trace grace period, which the
		 * program's own read-side section would hold up (kernel/README.md).
		 */
		for (i = 0; i < c->nr_resolves; i++) {
			if (c->resolves[i].kind == BPFRR_IR_RESOLVE_PMU_TYPE &&
			    !strcmp(c->resolves[i].name, "uprobe")) {
				*why = "a uprobe event, which bpf_perf_event_open() refuses";
				return -EOPNOTSUPP;
			}
		}
		/* the kfunc reads pointers inside the attr (kprobe name, uprobe path) as user addresses */
		for (i = 0; i < c->nr_bufs; i++)
			area[i] = BPFRR_AREA_USER;
		for (i = 0; i < c->nr_fdrels; i++) {
			if (c->fdrels[i].buf != BPFRR_IR_IN_ARG || c->fdrels[i].offset != 0) {
				*why = "an fd the loader cannot pass to bpf_perf_event_open()";
				return -EOPNOTSUPP;
			}
		}
		return 0;
	}
	if (c->op == BPFRR_IR_NETLINK) {
		*why = "a netlink request: syscall programs cannot send on a socket";
		return -EOPNOTSUPP;
	}
	if (c->op != BPFRR_IR_BPF) {
		*why = "syscall programs cannot make this syscall";
		return -EOPNOTSUPP;
	}
	if (!bpfrr_caps_cmd(caps, c->cmd)) {
		*why = "command not accepted by bpf_sys_bpf() on this kernel";
		return -EOPNOTSUPP;
	}
	/* a product is read back from the call's buffer after it returns: only user space does */
	if (c->nr_outfds) {
		*why = "it writes the fds it makes into a buffer, which a loader does not read back";
		return -EOPNOTSUPP;
	}
	for (i = 0; i < c->nr_bufs; i++) {
		const struct bpfrr_ir_buf *b = &c->bufs[i];
		char pattern[BPFRR_IR_MAX_NAME];

		if (b->parent >= 0 && area[b->parent] == BPFRR_AREA_USER) {
			/* the kernel reads pointers found in user memory as user pointers */
			area[i] = BPFRR_AREA_USER;
			continue;
		}
		path_pattern(b->path, pattern, sizeof(pattern));
		switch (bpfrr_caps_ptr(caps, c->cmd, pattern)) {
		case BPFRR_PTR_KERNEL:
			area[i] = BPFRR_AREA_BLOB;
			break;
		case BPFRR_PTR_USER:
			area[i] = BPFRR_AREA_USER;
			break;
		default:
			*why = "how the kernel reads one of its pointers from a syscall program is unknown";
			return -EOPNOTSUPP;
		}
	}
	for (i = 0; i < c->nr_fdrels; i++) {
		if (c->fdrels[i].buf >= 0 && area[c->fdrels[i].buf] == BPFRR_AREA_USER) {
			*why = "an fd inside a buffer in user memory, which the loader cannot write";
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

struct cg {
	const struct bpfrr_ir *ir;
	struct bpfrr_loader *l;
	struct bpfrr_emit e;
	uint32_t fail_label;
	int32_t perf_kfunc_btf_id;
	bool notes;
	char *err;
	size_t err_size;
};

static int cg_fail(struct cg *g, int ret, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int cg_fail(struct cg *g, int ret, const char *fmt, ...)
{
	va_list ap;

	if (g->err && g->err_size) {
		va_start(ap, fmt);
		vsnprintf(g->err, g->err_size, fmt, ap);
		va_end(ap);
	}
	return ret;
}

static const char *slot_name(const struct bpfrr_ir *ir, uint32_t slot)
{
	const char *n = ir->slots[slot].name;

	return n ? n : bpfrr_abi_obj_kind_name(ir->slots[slot].kind);
}

/*
 * Memory access at base + off where off may not fit the 16-bit offset field:
 * beyond it, the address is formed in the scratch register.
 */
static void emit_store(struct cg *g, uint8_t size, uint8_t base, uint32_t off, uint8_t src, uint8_t scratch)
{
	if (off <= INT16_MAX) {
		emit(&g->e, insn_stx(size, base, src, off));
		return;
	}
	emit(&g->e, insn_mov_reg(scratch, base));
	emit(&g->e, insn_add_imm(scratch, off));
	emit(&g->e, insn_stx(size, scratch, src, 0));
}

/*
 * Context offsets: the verifier refuses accesses through a ctx pointer that
 * was moved, so every slot must be in reach of the 16-bit offset field
 * (BPFRR_IR_MAX_SLOTS sees to it).
 */
static int16_t slot_ctx_off(uint32_t slot)
{
	return BPFRR_LOADER_CTX_SLOTS + 4 * slot;
}

/* Position (area, offset) of the parent a pointer or an fd sits in. */
static void parent_pos(const struct bpfrr_loader_call *lc, int32_t parent, uint8_t *area, uint32_t *off)
{
	if (parent == BPFRR_IR_IN_ATTR) {
		*area = BPFRR_AREA_BLOB;
		*off = lc->attr_off;
	} else {
		*area = lc->buf_area[parent];
		*off = lc->buf_off[parent];
	}
}

/* Lay out one call's attr and buffers; the image bytes are written later. */
static int layout_call(struct cg *g, const struct bpfrr_ir_call *c, struct bpfrr_loader_call *lc,
		       const struct bpfrr_caps *caps, uint64_t *blob_size, uint64_t *user_size)
{
	const char *why = NULL;
	uint32_t i;

	lc->buf_area = calloc(c->nr_bufs ? c->nr_bufs : 1, 1);
	lc->buf_off = calloc(c->nr_bufs ? c->nr_bufs : 1, sizeof(uint32_t));
	if (!lc->buf_area || !lc->buf_off)
		return cg_fail(g, -ENOMEM, "out of memory");
	if (bpfrr_codegen_place(c, caps, lc->buf_area, &why)) {
		char name[64];

		return cg_fail(g, -EOPNOTSUPP, "seq %llu (%s) cannot be made by a loader: %s",
			       (unsigned long long)c->seq, bpfrr_ir_call_name(c, name, sizeof(name)), why);
	}
	lc->attr_off = *blob_size;
	*blob_size += align8(c->attr_size);
	for (i = 0; i < c->nr_bufs; i++) {
		uint64_t *size = lc->buf_area[i] == BPFRR_AREA_BLOB ? blob_size : user_size;

		lc->buf_off[i] = *size;
		*size += align8(c->bufs[i].len);
	}
	if (*blob_size > BLOB_MAX || *user_size > USER_MAX)
		return cg_fail(g, -E2BIG, "seq %llu: loader data beyond %u bytes",
			       (unsigned long long)c->seq, *blob_size > BLOB_MAX ? BLOB_MAX : USER_MAX);
	return 0;
}

static int add_user_reloc(struct cg *g, uint32_t off)
{
	struct bpfrr_loader *l = g->l;
	uint32_t *p = realloc(l->user_relocs, (l->nr_user_relocs + 1) * sizeof(*p));

	if (!p)
		return cg_fail(g, -ENOMEM, "out of memory");
	l->user_relocs = p;
	p[l->nr_user_relocs++] = off;
	return 0;
}

/* Copy a call's attr and buffers into the images; set user-image pointers. */
static int fill_call(struct cg *g, const struct bpfrr_ir_call *c, const struct bpfrr_loader_call *lc)
{
	struct bpfrr_loader *l = g->l;
	uint32_t i;

	memcpy(l->blob + lc->attr_off, c->attr, c->attr_size);
	for (i = 0; i < c->nr_bufs; i++) {
		const struct bpfrr_ir_buf *b = &c->bufs[i];
		uint8_t *img = lc->buf_area[i] == BPFRR_AREA_BLOB ? l->blob : l->user;
		uint8_t parea;
		uint32_t poff;
		uint64_t v;

		if (b->data && b->len)	/* an empty buffer may have no image at all (img NULL) */
			memcpy(img + lc->buf_off[i], b->data, b->len);
		/* the pointer field: zero until the loader writes it (blob parent),
		 * or an image offset the replayer rebases (user parent) */
		parent_pos(lc, b->parent, &parea, &poff);
		poff += b->ptr_offset;
		v = 0;
		if (parea == BPFRR_AREA_USER) {
			v = lc->buf_off[i];
			if (add_user_reloc(g, poff))
				return -ENOMEM;
		}
		memcpy((parea == BPFRR_AREA_BLOB ? l->blob : l->user) + poff, &v, 8);
	}
	/* fd fields hold -1 until patched: a missed patch cannot name a stray fd */
	for (i = 0; i < c->nr_fdrels; i++) {
		const struct bpfrr_ir_fdrel *r = &c->fdrels[i];
		int32_t none = -1;
		uint8_t parea;
		uint32_t poff;

		parent_pos(lc, r->buf, &parea, &poff);
		memcpy(l->blob + poff + r->offset, &none, 4);
	}
	return 0;
}

/* Note on the next instruction; the first note of a call names the call. */
static void call_note(struct cg *g, bool *headed, const struct bpfrr_ir_call *c, uint32_t ci,
		      const char *name, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void call_note(struct cg *g, bool *headed, const struct bpfrr_ir_call *c, uint32_t ci,
		      const char *name, const char *fmt, ...)
{
	char text[192];
	va_list ap;

	if (!g->notes)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (*headed) {
		emit_note(&g->e, "%s", text);
		return;
	}
	*headed = true;
	emit_note(&g->e, "call %u (seq %llu) %s: %s", ci, (unsigned long long)c->seq, name, text);
}

/*
 * bpf_perf_event_open(attr, attr__sz, pid, cpu, flags), the series' kfunc
 * (caps.h): the attr in the blob, the sizes and numbers as recorded; a pid
 * that is an fd (a cgroup, PERF_FLAG_PID_CGROUP) comes from its slot.
 */
static void emit_perf_event_open(struct cg *g, const struct bpfrr_ir_call *c, uint32_t ci,
				 const struct bpfrr_loader_call *lc, const char *name, bool *headed)
{
	const struct bpfrr_ir_fdrel *pid_fd = NULL;
	uint32_t i;

	for (i = 0; i < c->nr_fdrels; i++)
		if (c->fdrels[i].buf == BPFRR_IR_IN_ARG && c->fdrels[i].offset == 0)
			pid_fd = &c->fdrels[i];
	call_note(g, headed, c, ci, name, "bpf_perf_event_open(blob+%u, %u, %s%lld, %lld, %lld)",
		  lc->attr_off, c->attr_size, pid_fd ? "fd of slot " : "",
		  pid_fd ? (long long)pid_fd->slot : (long long)c->args[0], (long long)c->args[1],
		  (long long)c->args[3]);
	emit(&g->e, insn_mov_reg(BPF_REG_1, REG_BLOB));
	if (lc->attr_off)
		emit(&g->e, insn_add_imm(BPF_REG_1, lc->attr_off));
	emit(&g->e, insn_mov_imm(BPF_REG_2, c->attr_size));
	if (pid_fd) {
		emit(&g->e, insn_ldx(BPF_W, BPF_REG_3, REG_CTX, slot_ctx_off(pid_fd->slot)));
		g->l->nr_fd_patches++;
	} else {
		emit(&g->e, insn_mov_imm(BPF_REG_3, (int32_t)c->args[0]));
	}
	emit(&g->e, insn_mov_imm(BPF_REG_4, (int32_t)c->args[1]));
	emit(&g->e, insn_mov_imm(BPF_REG_5, (int32_t)c->args[3]));
	emit(&g->e, insn_mov32_imm(REG_SEQ, (int32_t)(uint32_t)c->seq));
	emit(&g->e, insn_raw(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, g->perf_kfunc_btf_id));
	/*
	 * The kfunc returns an int, so only r0's lower half is defined (the
	 * verifier marks it a 32-bit subregister): x86_64 and arm64 return
	 * -ENOMEM as 0x00000000fffffff4, which the 64-bit test after the call
	 * takes for an fd, and the error only shows as EBADF at the
	 * BPF_LINK_CREATE that uses it.  Sign-extend it as a compiler would.
	 */
	emit(&g->e, insn_raw(BPF_ALU64 | BPF_LSH | BPF_K, BPF_REG_0, 0, 0, 32));
	emit(&g->e, insn_raw(BPF_ALU64 | BPF_ARSH | BPF_K, BPF_REG_0, 0, 0, 32));
}

static void emit_call(struct cg *g, const struct bpfrr_ir_call *c, uint32_t ci,
		      const struct bpfrr_loader_call *lc)
{
	const struct bpfrr_ir *ir = g->ir;
	int32_t loaded_slot = -1;
	bool headed = false;
	char name[64];
	uint32_t i;

	bpfrr_ir_call_name(c, name, sizeof(name));
	for (i = 0; i < c->nr_bufs; i++) {
		const struct bpfrr_ir_buf *b = &c->bufs[i];
		uint8_t parea;
		uint32_t poff;

		parent_pos(lc, b->parent, &parea, &poff);
		if (parea != BPFRR_AREA_BLOB)
			continue;	/* set in the user image by the replayer */
		call_note(g, &headed, c, ci, name, "%s = %s+%u", b->path,
			  lc->buf_area[i] == BPFRR_AREA_BLOB ? "blob" : "user", lc->buf_off[i]);
		if (lc->buf_area[i] == BPFRR_AREA_BLOB)
			emit(&g->e, insn_mov_reg(BPF_REG_1, REG_BLOB));
		else
			emit(&g->e, insn_ldx(BPF_DW, BPF_REG_1, REG_CTX,
					     offsetof(struct bpfrr_loader_ctx, user_base)));
		if (lc->buf_off[i])
			emit(&g->e, insn_add_imm(BPF_REG_1, lc->buf_off[i]));
		emit_store(g, BPF_DW, REG_BLOB, poff + b->ptr_offset, BPF_REG_1, BPF_REG_2);
		g->l->nr_ptr_fixups++;
	}
	for (i = 0; i < c->nr_fdrels; i++) {
		const struct bpfrr_ir_fdrel *r = &c->fdrels[i];
		uint8_t parea;
		uint32_t poff;

		if (r->buf == BPFRR_IR_IN_ARG)
			continue;	/* an argument: loaded into its register at the call */
		parent_pos(lc, r->buf, &parea, &poff);
		call_note(g, &headed, c, ci, name, "%s+%u = fd of slot %u (%s) [%s]",
			  r->buf < 0 ? "attr" : c->bufs[r->buf].path, r->offset, r->slot,
			  slot_name(ir, r->slot), bpfrr_ir_ref_name(r->ref));
		/* consecutive uses of one slot (a map referenced by many ld_imm64) load it once */
		if (loaded_slot != (int32_t)r->slot) {
			emit(&g->e, insn_ldx(BPF_W, BPF_REG_1, REG_CTX, slot_ctx_off(r->slot)));
			loaded_slot = r->slot;
		}
		emit_store(g, BPF_W, REG_BLOB, poff + r->offset, BPF_REG_1, BPF_REG_2);
		g->l->nr_fd_patches++;
	}
	if (c->op == BPFRR_IR_PERF_EVENT_OPEN) {
		emit_perf_event_open(g, c, ci, lc, name, &headed);
	} else {
		call_note(g, &headed, c, ci, name, "sys_bpf(%u, blob+%u, %u)", c->cmd, lc->attr_off,
			  c->attr_size);
		emit(&g->e, insn_mov_imm(BPF_REG_1, c->cmd));
		emit(&g->e, insn_mov_reg(BPF_REG_2, REG_BLOB));
		if (lc->attr_off)
			emit(&g->e, insn_add_imm(BPF_REG_2, lc->attr_off));
		emit(&g->e, insn_mov_imm(BPF_REG_3, c->attr_size));
		emit(&g->e, insn_mov32_imm(REG_SEQ, (int32_t)(uint32_t)c->seq));
		emit(&g->e, insn_call(BPF_FUNC_sys_bpf));
	}
	if (g->l->wide_jumps) {
		emit(&g->e, insn_raw(BPF_JMP | BPF_JSGE | BPF_K, BPF_REG_0, 0, 1, 0));
		emit_goto(&g->e, g->fail_label, true);
	} else {
		emit_jmp_imm(&g->e, BPF_JMP, BPF_JSLT, BPF_REG_0, 0, g->fail_label);
	}
	if (c->result_slot >= 0) {
		call_note(g, &headed, c, ci, name, "slot %d (%s) = the new fd", c->result_slot,
			  slot_name(ir, c->result_slot));
		emit(&g->e, insn_stx(BPF_W, REG_CTX, BPF_REG_0, slot_ctx_off(c->result_slot)));
	}
}

static void emit_cleanup(struct cg *g)
{
	const struct bpfrr_loader *l = g->l;
	uint32_t i;

	if (g->notes)
		emit_note(&g->e, "success");
	emit(&g->e, insn_mov_imm(BPF_REG_0, 0));
	emit(&g->e, insn_exit());

	emit_bind(&g->e, g->fail_label);
	if (g->notes)
		emit_note(&g->e, "failure: report errno and seq, close what this loader made");
	emit(&g->e, insn_mov_reg(REG_ERR, BPF_REG_0));
	emit(&g->e, insn_stx(BPF_W, REG_CTX, REG_ERR, offsetof(struct bpfrr_loader_ctx, err)));
	emit(&g->e, insn_stx(BPF_W, REG_CTX, REG_SEQ, offsetof(struct bpfrr_loader_ctx, failed_seq)));
	for (i = l->nr_created; i-- > 0;) {
		if (g->notes)
			emit_note(&g->e, "close slot %u (%s) if made", l->created[i],
				  slot_name(g->ir, l->created[i]));
		emit(&g->e, insn_ldx(BPF_W, BPF_REG_1, REG_CTX, slot_ctx_off(l->created[i])));
		emit(&g->e, insn_raw(BPF_JMP32 | BPF_JSLT | BPF_K, BPF_REG_1, 0, 1, 0));
		emit(&g->e, insn_call(BPF_FUNC_sys_close));
	}
	emit(&g->e, insn_mov_reg(BPF_REG_0, REG_ERR));
	emit(&g->e, insn_exit());
}

static int generate(struct cg *g, const uint32_t *calls, uint32_t nr)
{
	uint32_t i;
	int ret;

	emit_init(&g->e, g->notes);
	g->fail_label = emit_label(&g->e);
	if (g->l->ctx_in_blob) {
		if (g->notes)
			emit_note(&g->e, "r7 = blob (value of the map in fd_array[0])");
		emit_ld_imm64(&g->e, REG_BLOB, BPF_PSEUDO_MAP_IDX_VALUE, 0, 0);
		if (g->notes)
			emit_note(&g->e, "r6 = ctx: blob+0; a fresh report, the slots it makes -1");
		emit(&g->e, insn_mov_reg(REG_CTX, REG_BLOB));
		emit(&g->e, insn_st(BPF_DW, REG_CTX, 0, 0));
		for (i = 0; i < g->l->nr_created; i++)
			emit(&g->e, insn_st(BPF_W, REG_CTX, slot_ctx_off(g->l->created[i]), -1));
	} else {
		if (g->notes)
			emit_note(&g->e, "r6 = ctx");
		emit(&g->e, insn_mov_reg(REG_CTX, BPF_REG_1));
		if (g->notes)
			emit_note(&g->e, "r7 = blob (value of the map in fd_array[0])");
		emit_ld_imm64(&g->e, REG_BLOB, BPF_PSEUDO_MAP_IDX_VALUE, 0, 0);
	}
	for (i = 0; i < nr; i++)
		emit_call(g, &g->ir->calls[calls[i]], calls[i], &g->l->calls[i]);
	emit_cleanup(g);
	ret = emit_finish(&g->e);
	if (ret)
		emit_release(&g->e);
	return ret;
}

int bpfrr_codegen(const struct bpfrr_ir *ir, const uint32_t *calls, uint32_t nr,
		  const struct bpfrr_caps *caps, unsigned int flags, struct bpfrr_loader *out,
		  char *err, size_t err_size)
{
	struct cg g = { .ir = ir, .l = out, .notes = flags & BPFRR_CG_NOTES, .err = err,
			.err_size = err_size, .perf_kfunc_btf_id = caps->perf_event_open_btf_id };
	uint64_t blob_size = 0, user_size = 0;
	uint32_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	if (err && err_size)
		err[0] = '\0';
	if (!nr)
		return cg_fail(&g, -EINVAL, "a loader needs at least one call");
	out->ctx_size = BPFRR_LOADER_CTX_SIZE(ir->nr_slots);
	out->ctx_in_blob = flags & BPFRR_CG_CTX_IN_BLOB;
	if (out->ctx_in_blob)
		blob_size = align8(out->ctx_size);
	out->calls = calloc(nr, sizeof(*out->calls));
	out->created = calloc(nr, sizeof(*out->created));
	if (!out->calls || !out->created) {
		ret = cg_fail(&g, -ENOMEM, "out of memory");
		goto fail;
	}
	for (i = 0; i < nr; i++) {
		const struct bpfrr_ir_call *c;

		if (calls[i] >= ir->nr_calls) {
			ret = cg_fail(&g, -EINVAL, "call index %u of %u", calls[i], ir->nr_calls);
			goto fail;
		}
		c = &ir->calls[calls[i]];
		if (c->seq > UINT32_MAX) {
			ret = cg_fail(&g, -ERANGE, "seq %llu does not fit the loader's report",
				      (unsigned long long)c->seq);
			goto fail;
		}
		out->calls[i].call = calls[i];
		out->nr_calls++;
		ret = layout_call(&g, c, &out->calls[i], caps, &blob_size, &user_size);
		if (ret)
			goto fail;
		if (c->result_slot >= 0)
			out->created[out->nr_created++] = c->result_slot;
	}
	if (out->ctx_in_blob && user_size) {
		ret = cg_fail(&g, -EOPNOTSUPP, "a %llu-byte user image, which a loader with its context "
			      "in the blob cannot address", (unsigned long long)user_size);
		goto fail;
	}
	out->blob_size = blob_size ? blob_size : 8;
	out->user_size = user_size;
	out->blob = calloc(1, out->blob_size);
	out->user = user_size ? calloc(1, user_size) : NULL;
	if (!out->blob || (user_size && !out->user)) {
		ret = cg_fail(&g, -ENOMEM, "out of memory");
		goto fail;
	}
	if (out->ctx_in_blob)
		memset(out->blob + BPFRR_LOADER_CTX_SLOTS, 0xff, out->ctx_size - BPFRR_LOADER_CTX_SLOTS);
	for (i = 0; i < nr; i++) {
		ret = fill_call(&g, &ir->calls[calls[i]], &out->calls[i]);
		if (ret)
			goto fail;
	}

	out->wide_jumps = flags & BPFRR_CG_WIDE_JUMPS;
	ret = generate(&g, calls, nr);
	if (ret == -ERANGE && !out->wide_jumps) {
		/* the cleanup is out of reach of a 16-bit jump: use gotol */
		out->wide_jumps = true;
		out->nr_ptr_fixups = out->nr_fd_patches = 0;
		ret = generate(&g, calls, nr);
	}
	if (ret) {
		ret = cg_fail(&g, ret, "generating the loader: %s", strerror(-ret));
		goto fail;
	}
	out->insns = g.e.insns;
	out->nr_insns = g.e.nr;
	out->notes = g.e.notes;
	g.e.insns = NULL;
	g.e.notes = NULL;
	g.e.nr = 0;
	emit_release(&g.e);
	return 0;
fail:
	bpfrr_loader_free(out);
	return ret;
}

void bpfrr_loader_free(struct bpfrr_loader *l)
{
	uint32_t i;

	if (!l)
		return;
	if (l->notes)
		for (i = 0; i < l->nr_insns; i++)
			free(l->notes[i]);
	for (i = 0; i < l->nr_calls; i++) {
		free(l->calls[i].buf_area);
		free(l->calls[i].buf_off);
	}
	free(l->notes);
	free(l->insns);
	free(l->blob);
	free(l->user);
	free(l->user_relocs);
	free(l->calls);
	free(l->created);
	memset(l, 0, sizeof(*l));
}

void bpfrr_loader_print(const struct bpfrr_ir *ir, const struct bpfrr_loader *l, FILE *out)
{
	uint32_t i, j;

	fprintf(out, "loader: %u insns, blob %u bytes, user image %u bytes, ctx %u bytes (%u slots)\n",
		l->nr_insns, l->blob_size, l->user_size, l->ctx_size, ir->nr_slots);
	fprintf(out, "  %u pointer fixups, %u fd patches, %u fds made%s%s\n", l->nr_ptr_fixups,
		l->nr_fd_patches, l->nr_created, l->wide_jumps ? ", wide jumps" : "",
		l->ctx_in_blob ? ", ctx at blob+0" : "");
	for (i = 0; i < l->nr_calls; i++) {
		const struct bpfrr_loader_call *lc = &l->calls[i];
		const struct bpfrr_ir_call *c = &ir->calls[lc->call];
		char name[64];

		fprintf(out, "  call %u (seq %llu) %s: attr blob+%u (%u bytes)", lc->call,
			(unsigned long long)c->seq, bpfrr_ir_call_name(c, name, sizeof(name)), lc->attr_off,
			c->attr_size);
		if (c->result_slot >= 0)
			fprintf(out, " -> slot %d", c->result_slot);
		fputc('\n', out);
		for (j = 0; j < c->nr_bufs; j++)
			fprintf(out, "    %-32s %s+%u (%u bytes, %s)\n", c->bufs[j].path,
				lc->buf_area[j] == BPFRR_AREA_BLOB ? "blob" : "user", lc->buf_off[j],
				c->bufs[j].len, bpfrr_abi_dir_name(c->bufs[j].dir) ?
				bpfrr_abi_dir_name(c->bufs[j].dir) : "?");
	}
	for (i = 0; i < l->nr_insns; i += j) {
		char text[160];

		j = bpfrr_disasm_insn(l->insns, l->nr_insns, i, NULL, text, sizeof(text));
		if (j < 1)
			j = 1;
		if (l->notes && l->notes[i])
			fprintf(out, "%5u: %-34s ; %s\n", i, text, l->notes[i]);
		else
			fprintf(out, "%5u: %s\n", i, text);
	}
}

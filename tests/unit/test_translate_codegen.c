// SPDX-License-Identifier: GPL-2.0-only
/*
 * Translator back end: the IR checks and the loader code generator.
 * A golden listing of the loader for the sample IR (tests/guest/
 * replay-sample.h), the blob and user-image layout, where every fd patch
 * and pointer fixup lands, placement per kernel capabilities, wide jumps,
 * far blob offsets.  Host only, no bpf().
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "caps.h"
#include "codegen.h"
#include "emit.h"
#include "ir.h"
#include "../guest/replay-sample.h"

static const char golden_sample[] =
"loader: 75 insns, blob 504 bytes, user image 0 bytes, ctx 28 bytes (3 slots)\n"
"  6 pointer fixups, 4 fd patches, 3 fds made\n"
"  call 0 (seq 3) BPF_BTF_LOAD: attr blob+0 (28 bytes) -> slot 0\n"
"    attr.btf                         blob+32 (115 bytes, in)\n"
"  call 1 (seq 5) BPF_MAP_CREATE: attr blob+152 (72 bytes) -> slot 1\n"
"  call 2 (seq 8) BPF_PROG_LOAD: attr blob+224 (128 bytes) -> slot 2\n"
"    attr.insns                       blob+352 (88 bytes, in)\n"
"    attr.license                     blob+440 (4 bytes, in)\n"
"    attr.func_info                   blob+448 (8 bytes, in)\n"
"  call 3 (seq 9) BPF_MAP_UPDATE_ELEM: attr blob+456 (32 bytes)\n"
"    attr.key                         blob+488 (4 bytes, in)\n"
"    attr.value                       blob+496 (8 bytes, in)\n"
"    0: r6 = r1                            ; r6 = ctx\n"
"    1: r7 = map[idx:0][0]+0 ll            ; r7 = blob (value of the map in fd_array[0])\n"
"    3: r1 = r7                            ; call 0 (seq 3) BPF_BTF_LOAD: attr.btf = blob+32\n"
"    4: r1 += 32\n"
"    5: *(u64 *)(r7 +0) = r1\n"
"    6: r1 = 18                            ; sys_bpf(18, blob+0, 28)\n"
"    7: r2 = r7\n"
"    8: r3 = 28\n"
"    9: w8 = 3\n"
"   10: call bpf_sys_bpf#166\n"
"   11: if r0 s< 0x0 goto pc+49\n"
"   12: *(u32 *)(r6 +16) = r0              ; slot 0 (btf) = the new fd\n"
"   13: r1 = *(u32 *)(r6 +16)              ; call 1 (seq 5) BPF_MAP_CREATE: attr+48 = fd of slot 0 (btf) [field]\n"
"   14: *(u32 *)(r7 +200) = r1\n"
"   15: r1 = 0                             ; sys_bpf(0, blob+152, 72)\n"
"   16: r2 = r7\n"
"   17: r2 += 152\n"
"   18: r3 = 72\n"
"   19: w8 = 5\n"
"   20: call bpf_sys_bpf#166\n"
"   21: if r0 s< 0x0 goto pc+39\n"
"   22: *(u32 *)(r6 +20) = r0              ; slot 1 (map.counts) = the new fd\n"
"   23: r1 = r7                            ; call 2 (seq 8) BPF_PROG_LOAD: attr.insns = blob+352\n"
"   24: r1 += 352\n"
"   25: *(u64 *)(r7 +232) = r1\n"
"   26: r1 = r7                            ; attr.license = blob+440\n"
"   27: r1 += 440\n"
"   28: *(u64 *)(r7 +240) = r1\n"
"   29: r1 = r7                            ; attr.func_info = blob+448\n"
"   30: r1 += 448\n"
"   31: *(u64 *)(r7 +304) = r1\n"
"   32: r1 = *(u32 *)(r6 +20)              ; attr.insns+28 = fd of slot 1 (map.counts) [ld_imm64]\n"
"   33: *(u32 *)(r7 +380) = r1\n"
"   34: r1 = *(u32 *)(r6 +16)              ; attr+72 = fd of slot 0 (btf) [field]\n"
"   35: *(u32 *)(r7 +296) = r1\n"
"   36: r1 = 5                             ; sys_bpf(5, blob+224, 128)\n"
"   37: r2 = r7\n"
"   38: r2 += 224\n"
"   39: r3 = 128\n"
"   40: w8 = 8\n"
"   41: call bpf_sys_bpf#166\n"
"   42: if r0 s< 0x0 goto pc+18\n"
"   43: *(u32 *)(r6 +24) = r0              ; slot 2 (prog.count) = the new fd\n"
"   44: r1 = r7                            ; call 3 (seq 9) BPF_MAP_UPDATE_ELEM: attr.key = blob+488\n"
"   45: r1 += 488\n"
"   46: *(u64 *)(r7 +464) = r1\n"
"   47: r1 = r7                            ; attr.value = blob+496\n"
"   48: r1 += 496\n"
"   49: *(u64 *)(r7 +472) = r1\n"
"   50: r1 = *(u32 *)(r6 +20)              ; attr+0 = fd of slot 1 (map.counts) [field]\n"
"   51: *(u32 *)(r7 +456) = r1\n"
"   52: r1 = 2                             ; sys_bpf(2, blob+456, 32)\n"
"   53: r2 = r7\n"
"   54: r2 += 456\n"
"   55: r3 = 32\n"
"   56: w8 = 9\n"
"   57: call bpf_sys_bpf#166\n"
"   58: if r0 s< 0x0 goto pc+2\n"
"   59: r0 = 0                             ; success\n"
"   60: exit\n"
"   61: r9 = r0                            ; failure: report errno and seq, close what this loader made\n"
"   62: *(u32 *)(r6 +0) = r9\n"
"   63: *(u32 *)(r6 +4) = r8\n"
"   64: r1 = *(u32 *)(r6 +24)              ; close slot 2 (prog.count) if made\n"
"   65: if w1 s< 0x0 goto pc+1\n"
"   66: call bpf_sys_close#168\n"
"   67: r1 = *(u32 *)(r6 +20)              ; close slot 1 (map.counts) if made\n"
"   68: if w1 s< 0x0 goto pc+1\n"
"   69: call bpf_sys_close#168\n"
"   70: r1 = *(u32 *)(r6 +16)              ; close slot 0 (btf) if made\n"
"   71: if w1 s< 0x0 goto pc+1\n"
"   72: call bpf_sys_close#168\n"
"   73: r0 = r9\n"
"   74: exit\n";

/* --- helpers ------------------------------------------------------------------- */

static struct bpfrr_caps stock(void)
{
	struct bpfrr_caps caps;

	ck_assert_int_eq(bpfrr_caps_assume(&caps, "stock-6.12"), 0);
	return caps;
}

static uint32_t all_calls[64];

static const uint32_t *calls_0_to(uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		all_calls[i] = i;
	return all_calls;
}

static char *listing(const struct bpfrr_ir *ir, const struct bpfrr_loader *l)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	bpfrr_loader_print(ir, l, f);
	fclose(f);
	return text;
}

/* index of the store "*(size *)(r7 + off) = rX" (any src), or -1 */
static int find_blob_store(const struct bpfrr_loader *l, uint8_t size, uint32_t off)
{
	uint32_t i;

	for (i = 0; i < l->nr_insns; i++) {
		const struct bpf_insn *in = &l->insns[i];

		if (in->code == (BPF_STX | BPF_MEM | size) && in->dst_reg == REG_BLOB && in->off == (int16_t)off)
			return i;
	}
	return -1;
}

/* --- IR checks ------------------------------------------------------------------ */

START_TEST(sample_validates)
{
	struct bpfrr_ir *ir = sample_ir(SAMPLE_FAIL_LAST);
	char err[256];

	ck_assert_ptr_nonnull(ir);
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), 0);
	ck_assert_uint_eq(ir->nr_calls, 5);
	ck_assert_int_eq(ir->slots[SAMPLE_SLOT_PROG].producer, 2);
	bpfrr_ir_free(ir);
}
END_TEST

START_TEST(validate_rejects)
{
	struct bpfrr_ir *ir;
	char err[256];

	/* an fd used by a call before the call that makes it */
	ir = sample_ir(0);
	ir->calls[1].fdrels[0].slot = SAMPLE_SLOT_PROG;
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "call 1 (seq 5): fd relocation 0: slot 2 (prog.count) is used before"));
	bpfrr_ir_free(ir);

	/* an ld_imm64 relocation that is not on an ld_imm64 */
	ir = sample_ir(0);
	ir->calls[2].fdrels[0].offset = 4;
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "instruction 0 is not an ld_imm64"));
	bpfrr_ir_free(ir);

	/* a pointer beyond the attr */
	ir = sample_ir(0);
	ir->calls[0].bufs[0].ptr_offset = 24;
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "attr.btf: pointer at offset 24 outside its parent"));
	bpfrr_ir_free(ir);

	/* an fd on top of a pointer */
	ir = sample_ir(0);
	ir->calls[3].fdrels[0].offset = 8;
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "overlaps pointer attr.key"));
	bpfrr_ir_free(ir);

	/* a result slot that names another maker */
	ir = sample_ir(0);
	ir->calls[3].result_slot = SAMPLE_SLOT_MAP;
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "does not name this call as its maker"));
	bpfrr_ir_free(ir);

	/* builders refuse out-of-range arguments */
	ir = sample_ir(0);
	ck_assert_int_eq(bpfrr_ir_add_fdrel(ir, 0, 5, 0, 0, BPFRR_IR_REF_FIELD), -EINVAL);
	ck_assert_int_eq(bpfrr_ir_add_buf(ir, 0, 3, 0, "x", NULL, 1, BPFRR_DIR_IN, 0), -EINVAL);
	ck_assert_int_eq(bpfrr_ir_set_result(ir, 3, SAMPLE_SLOT_MAP), -EINVAL);
	ck_assert_int_eq(bpfrr_ir_add_call(ir, 1, BPFRR_IR_BPF, 0, "x", BPFRR_IR_MAX_ATTR + 1), -EINVAL);
	bpfrr_ir_free(ir);
}
END_TEST

START_TEST(clone_is_deep)
{
	struct bpfrr_ir *ir = sample_ir(SAMPLE_FAIL_LAST), *c = bpfrr_ir_clone(ir);
	char err[256];

	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(c->nr_calls, ir->nr_calls);
	ck_assert_ptr_ne(c->calls[2].bufs[0].data, ir->calls[2].bufs[0].data);
	ck_assert_mem_eq(c->calls[2].bufs[0].data, ir->calls[2].bufs[0].data, ir->calls[2].bufs[0].len);
	ck_assert_str_eq(c->slots[1].name, "map.counts");
	ck_assert_str_eq(c->drops[1].why, "read-only query");
	bpfrr_ir_free(ir);
	ck_assert_int_eq(bpfrr_ir_validate(c, err, sizeof(err)), 0);
	bpfrr_ir_free(c);
}
END_TEST

/* --- code generation ---------------------------------------------------------- */

START_TEST(golden_listing)
{
	struct bpfrr_ir *ir = sample_ir(0);
	struct bpfrr_caps caps = stock();
	struct bpfrr_loader l;
	char err[256], *text;

	ck_assert_int_eq(bpfrr_codegen(ir, calls_0_to(4), 4, &caps, BPFRR_CG_NOTES, &l, err, sizeof(err)), 0);
	text = listing(ir, &l);
	if (strcmp(text, golden_sample))
		fprintf(stderr, "generated listing:\n%s", text);
	ck_assert_str_eq(text, golden_sample);
	free(text);
	bpfrr_loader_free(&l);
	bpfrr_ir_free(ir);
}
END_TEST

START_TEST(notes_do_not_change_code)
{
	struct bpfrr_ir *ir = sample_ir(SAMPLE_FAIL_LAST);
	struct bpfrr_caps caps = stock();
	struct bpfrr_loader a, b;
	char err[256];

	ck_assert_int_eq(bpfrr_codegen(ir, calls_0_to(5), 5, &caps, BPFRR_CG_NOTES, &a, err, sizeof(err)), 0);
	ck_assert_int_eq(bpfrr_codegen(ir, calls_0_to(5), 5, &caps, 0, &b, err, sizeof(err)), 0);
	ck_assert_ptr_null(b.notes);
	ck_assert_uint_eq(a.nr_insns, b.nr_insns);
	ck_assert_mem_eq(a.insns, b.insns, a.nr_insns * sizeof(*a.insns));
	ck_assert_uint_eq(a.blob_size, b.blob_size);
	ck_assert_mem_eq(a.blob, b.blob, a.blob_size);
	bpfrr_loader_free(&a);
	bpfrr_loader_free(&b);
	bpfrr_ir_free(ir);
}
END_TEST

/*
 * The blob holds each attr with pointer fields zeroed (the loader writes
 * them) and fd fields -1 (the loader writes them), the buffers' bytes where
 * the layout says, and the instructions as recorded except the ld_imm64 imm.
 * Every fd patch and pointer fixup stores at the right blob offset.
 */
START_TEST(blob_layout_and_relocations)
{
	struct bpfrr_ir *ir = sample_ir(0);
	struct bpfrr_caps caps = stock();
	struct bpfrr_loader l;
	char err[256];
	uint32_t i, j;

	ck_assert_int_eq(bpfrr_codegen(ir, calls_0_to(4), 4, &caps, 0, &l, err, sizeof(err)), 0);
	ck_assert_uint_eq(l.nr_calls, 4);
	ck_assert_uint_eq(l.ctx_size, BPFRR_LOADER_CTX_SLOTS + 3 * 4);
	ck_assert_uint_eq(l.nr_created, 3);
	ck_assert_uint_eq(l.user_size, 0);
	for (i = 0; i < l.nr_calls; i++) {
		const struct bpfrr_loader_call *lc = &l.calls[i];
		const struct bpfrr_ir_call *c = &ir->calls[lc->call];
		uint8_t attr[256];

		ck_assert_uint_eq(lc->attr_off % 8, 0);
		/* the attr as recorded, with its pointers zero and its fds -1 */
		memcpy(attr, c->attr, c->attr_size);
		for (j = 0; j < c->nr_bufs; j++) {
			uint8_t *want = malloc(c->bufs[j].len);
			uint32_t k;

			ck_assert_int_eq(lc->buf_area[j], BPFRR_AREA_BLOB);
			ck_assert_uint_eq(lc->buf_off[j] % 8, 0);
			/* the bytes as recorded, fds inside them -1 */
			memcpy(want, c->bufs[j].data, c->bufs[j].len);
			for (k = 0; k < c->nr_fdrels; k++)
				if (c->fdrels[k].buf == (int32_t)j)
					memset(want + c->fdrels[k].offset, 0xff, 4);
			ck_assert_mem_eq(l.blob + lc->buf_off[j], want, c->bufs[j].len);
			free(want);
			memset(attr + c->bufs[j].ptr_offset, 0, 8);
			/* the fixup: *(u64 *)(r7 + attr + ptr) = r1 after r1 = r7 + buf */
			ck_assert_int_ge(find_blob_store(&l, BPF_DW, lc->attr_off + c->bufs[j].ptr_offset), 2);
			ck_assert_int_eq(l.insns[find_blob_store(&l, BPF_DW, lc->attr_off + c->bufs[j].ptr_offset)
						 - 1].imm, (int32_t)lc->buf_off[j]);
		}
		for (j = 0; j < c->nr_fdrels; j++) {
			const struct bpfrr_ir_fdrel *r = &c->fdrels[j];
			uint32_t at = (r->buf < 0 ? lc->attr_off : lc->buf_off[r->buf]) + r->offset;
			int k = find_blob_store(&l, BPF_W, at);

			ck_assert_int_eq(bpfrr_get_u32(l.blob + at), 0xffffffffu);
			if (r->buf < 0)
				memset(attr + r->offset, 0xff, 4);
			/* the value stored comes from the slot's ctx entry */
			ck_assert_int_ge(k, 1);
			ck_assert_uint_eq(l.insns[k - 1].code, BPF_LDX | BPF_MEM | BPF_W);
			ck_assert_int_eq(l.insns[k - 1].src_reg, REG_CTX);
			ck_assert_int_eq(l.insns[k - 1].off, (int)(BPFRR_LOADER_CTX_SLOTS + 4 * r->slot));
		}
		ck_assert_mem_eq(l.blob + lc->attr_off, attr, c->attr_size);
	}
	/* the program text in the blob differs from the recorded one only in the map imm */
	{
		const struct bpfrr_ir_buf *insns = &ir->calls[2].bufs[0];
		uint8_t *copy = l.blob + l.calls[2].buf_off[0];
		uint32_t imm = ir->calls[2].fdrels[0].offset;

		ck_assert_mem_eq(copy, insns->data, imm);
		ck_assert_mem_eq(copy + imm + 4, insns->data + imm + 4, insns->len - imm - 4);
		ck_assert_uint_eq(copy[imm - 4], BPF_LD | BPF_IMM | BPF_DW);
		ck_assert_uint_eq(copy[imm - 3] >> 4, BPF_PSEUDO_MAP_FD);
	}
	/* every call's result lands in its slot */
	for (i = 0; i < 3; i++) {
		int found = 0;

		for (j = 0; j < l.nr_insns; j++)
			found += l.insns[j].code == (BPF_STX | BPF_MEM | BPF_W) && l.insns[j].dst_reg == REG_CTX &&
				 l.insns[j].src_reg == BPF_REG_0 &&
				 l.insns[j].off == (int16_t)(BPFRR_LOADER_CTX_SLOTS + 4 * i);
		ck_assert_int_eq(found, 1);
	}
	bpfrr_loader_free(&l);
	bpfrr_ir_free(ir);
}
END_TEST

/* A recorded log buffer: a user address on stock 6.12, in the blob on a kernel that follows it. */
START_TEST(log_buffer_placement)
{
	struct bpfrr_ir *ir = sample_ir(0);
	struct bpfrr_caps caps = stock();
	struct bpfrr_loader l;
	const struct bpfrr_loader_call *lc;
	char err[256], *text;
	int k;

	ck_assert_int_eq(bpfrr_ir_add_buf(ir, 2, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, log_buf),
					  "attr.log_buf", NULL, 4096, BPFRR_DIR_OUT, BPFRR_CONTENT_LOG), 3);
	ck_assert(ir->calls[2].bufs[3].flags & BPFRR_IR_BUF_LOG);
	ck_assert_int_eq(bpfrr_codegen(ir, calls_0_to(4), 4, &caps, BPFRR_CG_NOTES, &l, err, sizeof(err)), 0);
	lc = &l.calls[2];
	ck_assert_int_eq(lc->buf_area[3], BPFRR_AREA_USER);
	ck_assert_uint_eq(lc->buf_off[3], 0);
	ck_assert_uint_eq(l.user_size, 4096);
	ck_assert_uint_eq(l.nr_user_relocs, 0);
	/* r1 = ctx->user_base; (no add: offset 0); *(u64 *)(r7 + attr + log_buf) = r1 */
	k = find_blob_store(&l, BPF_DW, lc->attr_off + offsetof(union bpf_attr, log_buf));
	ck_assert_int_ge(k, 1);
	ck_assert_uint_eq(l.insns[k - 1].code, BPF_LDX | BPF_MEM | BPF_DW);
	ck_assert_int_eq(l.insns[k - 1].src_reg, REG_CTX);
	ck_assert_int_eq(l.insns[k - 1].off, offsetof(struct bpfrr_loader_ctx, user_base));
	text = listing(ir, &l);
	ck_assert_ptr_nonnull(strstr(text, "attr.log_buf                     user+0 (4096 bytes, out)"));
	ck_assert_ptr_nonnull(strstr(text, "; attr.log_buf = user+0"));
	free(text);
	bpfrr_loader_free(&l);

	/* a kernel whose log_buf is a bpfptr_t: the log goes into the blob */
	bpfrr_caps_set_ptr(&caps, BPF_PROG_LOAD, "attr.log_buf", BPFRR_PTR_KERNEL, 0, "test");
	ck_assert_int_eq(bpfrr_codegen(ir, calls_0_to(4), 4, &caps, 0, &l, err, sizeof(err)), 0);
	ck_assert_int_eq(l.calls[2].buf_area[3], BPFRR_AREA_BLOB);
	ck_assert_uint_eq(l.user_size, 0);
	ck_assert_uint_ge(l.blob_size, 504 + 4096);
	bpfrr_loader_free(&l);

	/* unknown treatment: the loader cannot make the call */
	bpfrr_caps_set_ptr(&caps, BPF_PROG_LOAD, "attr.log_buf", BPFRR_PTR_UNKNOWN, 0, "test");
	ck_assert_int_eq(bpfrr_codegen(ir, calls_0_to(4), 4, &caps, 0, &l, err, sizeof(err)), -EOPNOTSUPP);
	ck_assert_ptr_nonnull(strstr(err, "seq 8 (BPF_PROG_LOAD) cannot be made by a loader: how the kernel "
				       "reads one of its pointers"));
	bpfrr_ir_free(ir);
}
END_TEST

/* Nested buffers under a user buffer: pointers set in the user image, rebased by the replayer. */
START_TEST(nested_user_buffers)
{
	struct bpfrr_ir *ir = bpfrr_ir_new();
	struct bpfrr_caps caps = stock();
	struct bpfrr_loader l;
	uint8_t attr[64] = { 0 }, syms[16] = { 0 };
	char err[256];
	int c;

	c = bpfrr_ir_add_call(ir, 1, BPFRR_IR_BPF, BPF_RAW_TRACEPOINT_OPEN, attr, 16);
	ck_assert_int_eq(c, 0);
	ck_assert_int_eq(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, 0, "attr.raw_tracepoint.name", syms, 16,
					  BPFRR_DIR_IN, BPFRR_CONTENT_PTR_ARRAY), 0);
	ck_assert_int_eq(bpfrr_ir_add_buf(ir, c, 0, 8, "attr.raw_tracepoint.name[1]", "sys_enter", 10,
					  BPFRR_DIR_IN, BPFRR_CONTENT_STRING), 1);
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), 0);
	ck_assert_int_eq(bpfrr_codegen(ir, calls_0_to(1), 1, &caps, 0, &l, err, sizeof(err)), 0);
	ck_assert_int_eq(l.calls[0].buf_area[0], BPFRR_AREA_USER);
	ck_assert_int_eq(l.calls[0].buf_area[1], BPFRR_AREA_USER);
	ck_assert_uint_eq(l.user_size, 32);
	ck_assert_uint_eq(l.nr_user_relocs, 1);
	ck_assert_uint_eq(l.user_relocs[0], 8);
	ck_assert_uint_eq(bpfrr_get_u64(l.user + 8), 16);		/* offset of the string in the image */
	ck_assert_str_eq((char *)l.user + 16, "sys_enter");
	ck_assert_uint_eq(bpfrr_get_u64(l.user), 0);
	ck_assert_uint_eq(l.nr_ptr_fixups, 1);			/* only the attr's pointer */
	bpfrr_loader_free(&l);
	bpfrr_ir_free(ir);
}
END_TEST

START_TEST(placement_refusals)
{
	struct bpfrr_caps caps = stock(), none;
	struct bpfrr_ir *ir = sample_ir(0);
	uint8_t area[8];
	const char *why;
	int c;

	ck_assert_int_eq(bpfrr_caps_assume(&none, "none"), 0);
	ck_assert_int_eq(bpfrr_caps_assume(&none, "bogus"), -EINVAL);
	ck_assert_int_eq(bpfrr_codegen_place(&ir->calls[2], &caps, area, &why), 0);
	ck_assert_int_eq(bpfrr_codegen_place(&ir->calls[2], &none, area, &why), -EOPNOTSUPP);
	ck_assert_str_eq(why, "command not accepted by bpf_sys_bpf() on this kernel");
	c = bpfrr_ir_add_call(ir, 20, BPFRR_IR_PERF_EVENT_OPEN, 0, area, 8);
	ck_assert_int_eq(bpfrr_codegen_place(&ir->calls[c], &caps, area, &why), -EOPNOTSUPP);
	ck_assert_str_eq(why, "syscall programs cannot open perf events on this kernel");
	c = bpfrr_ir_add_call(ir, 21, BPFRR_IR_BPF, BPF_PROG_BIND_MAP, area, 8);
	ck_assert_int_eq(bpfrr_codegen_place(&ir->calls[c], &caps, area, &why), -EOPNOTSUPP);
	bpfrr_ir_free(ir);
}
END_TEST

/*
 * perf_event_open on a kernel with the series' kfunc: the attr in the blob,
 * a kprobe name inside it in the user image (the kfunc reads it as a user
 * address), a kfunc call with the BTF id the probe found and the recorded
 * pid, cpu and flags, its int result sign-extended before the error test; a
 * grouped event stays in user space.
 */
START_TEST(perf_event_open_kfunc)
{
	struct bpfrr_caps caps;
	struct bpfrr_ir *ir = bpfrr_ir_new();
	struct bpfrr_loader l;
	uint8_t attr[128] = { 0 }, area[4];
	uint32_t i, kfunc_at = 0, nr_kfuncs = 0;
	const char *why;
	char err[256];
	int c, s;

	ck_assert_int_eq(bpfrr_caps_assume(&caps, "patched-6.12"), 0);
	caps.perf_event_open_btf_id = 4242;
	s = bpfrr_ir_add_slot(ir, BPFRR_OBJ_PERF_EVENT, "perf_event.kprobe");
	c = bpfrr_ir_add_call(ir, 7, BPFRR_IR_PERF_EVENT_OPEN, 0, attr, sizeof(attr));
	ck_assert_int_eq(c, 0);
	ir->calls[c].args[0] = -1;
	ir->calls[c].args[1] = 0;
	ir->calls[c].args[2] = -1;
	ir->calls[c].args[3] = 8;	/* PERF_FLAG_FD_CLOEXEC */
	ck_assert_int_eq(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, 56, "perf_event_attr.config1", "do_sys_open",
					  12, BPFRR_DIR_IN, BPFRR_CONTENT_STRING), 0);
	ck_assert_int_eq(bpfrr_ir_set_result(ir, c, s), 0);
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), 0);
	ck_assert_int_eq(bpfrr_codegen(ir, calls_0_to(1), 1, &caps, 0, &l, err, sizeof(err)), 0);
	ck_assert_int_eq(l.calls[0].buf_area[0], BPFRR_AREA_USER);
	ck_assert_str_eq((char *)l.user, "do_sys_open");
	for (i = 0; i < l.nr_insns; i++) {
		if (l.insns[i].code == (BPF_JMP | BPF_CALL) && l.insns[i].src_reg == BPF_PSEUDO_KFUNC_CALL) {
			kfunc_at = i;
			nr_kfuncs++;
			ck_assert_int_eq(l.insns[i].imm, 4242);
			ck_assert_int_eq(l.insns[i].off, 0);
		}
		ck_assert(!(l.insns[i].code == (BPF_JMP | BPF_CALL) && l.insns[i].src_reg == 0 &&
			    l.insns[i].imm == BPF_FUNC_sys_bpf));
	}
	ck_assert_uint_eq(nr_kfuncs, 1);
	/* r2 = attr size, r3 = pid, r4 = cpu, r5 = flags before the call (w8 = seq in between) */
	ck_assert_int_eq(l.insns[kfunc_at - 5].dst_reg, BPF_REG_2);
	ck_assert_int_eq(l.insns[kfunc_at - 5].imm, 128);
	ck_assert_int_eq(l.insns[kfunc_at - 4].dst_reg, BPF_REG_3);
	ck_assert_int_eq(l.insns[kfunc_at - 4].imm, -1);
	ck_assert_int_eq(l.insns[kfunc_at - 3].dst_reg, BPF_REG_4);
	ck_assert_int_eq(l.insns[kfunc_at - 3].imm, 0);
	ck_assert_int_eq(l.insns[kfunc_at - 2].dst_reg, BPF_REG_5);
	ck_assert_int_eq(l.insns[kfunc_at - 2].imm, 8);
	/*
	 * the kfunc returns an int: r0 is sign-extended before the 64-bit error
	 * test, or an error with the upper half zero passes for an fd
	 */
	ck_assert_uint_lt(kfunc_at + 3, l.nr_insns);
	ck_assert_int_eq(l.insns[kfunc_at + 1].code, BPF_ALU64 | BPF_LSH | BPF_K);
	ck_assert_int_eq(l.insns[kfunc_at + 1].dst_reg, BPF_REG_0);
	ck_assert_int_eq(l.insns[kfunc_at + 1].imm, 32);
	ck_assert_int_eq(l.insns[kfunc_at + 2].code, BPF_ALU64 | BPF_ARSH | BPF_K);
	ck_assert_int_eq(l.insns[kfunc_at + 2].dst_reg, BPF_REG_0);
	ck_assert_int_eq(l.insns[kfunc_at + 2].imm, 32);
	ck_assert_int_eq(l.insns[kfunc_at + 3].code, BPF_JMP | BPF_JSLT | BPF_K);
	ck_assert_int_eq(l.insns[kfunc_at + 3].dst_reg, BPF_REG_0);
	bpfrr_loader_free(&l);

	ir->calls[c].args[2] = 3;	/* in a group */
	ck_assert_int_eq(bpfrr_codegen_place(&ir->calls[c], &caps, area, &why), -EOPNOTSUPP);
	ck_assert_str_eq(why, "an event in a group, which bpf_perf_event_open() cannot open");
	caps.perf_event_open = false;
	ir->calls[c].args[2] = -1;
	ck_assert_int_eq(bpfrr_codegen_place(&ir->calls[c], &caps, area, &why), -EOPNOTSUPP);
	ck_assert_str_eq(why, "syscall programs cannot open perf events on this kernel");

	/* a kprobe PMU event goes to the kfunc, a uprobe PMU one stays in user space */
	caps.perf_event_open = true;
	ck_assert_int_eq(bpfrr_ir_add_resolve(ir, c, BPFRR_IR_RESOLVE_PMU_TYPE, 0, 4, "kprobe"), 0);
	ck_assert_int_eq(bpfrr_codegen_place(&ir->calls[c], &caps, area, &why), 0);
	ck_assert_int_eq(area[0], BPFRR_AREA_USER);
	free(ir->calls[c].resolves[0].name);
	ir->calls[c].resolves[0].name = strdup("uprobe");
	ck_assert_int_eq(bpfrr_codegen_place(&ir->calls[c], &caps, area, &why), -EOPNOTSUPP);
	ck_assert_str_eq(why, "a uprobe event, which bpf_perf_event_open() refuses");
	bpfrr_ir_free(ir);
}
END_TEST

/* Forced gotol: every error check is "if r0 s>= 0 goto +1; gotol cleanup" and lands on it. */
START_TEST(wide_jumps)
{
	struct bpfrr_ir *ir = sample_ir(0);
	struct bpfrr_caps caps = stock();
	struct bpfrr_loader l;
	uint32_t i, gotols = 0, cleanup = 0;
	char err[256];

	ck_assert_int_eq(bpfrr_codegen(ir, calls_0_to(4), 4, &caps, BPFRR_CG_WIDE_JUMPS, &l, err, sizeof(err)),
			 0);
	ck_assert(l.wide_jumps);
	for (i = 0; i < l.nr_insns; i++)
		if (l.insns[i].code == (BPF_ALU64 | BPF_MOV | BPF_X) && l.insns[i].dst_reg == REG_ERR)
			cleanup = i;
	ck_assert_uint_gt(cleanup, 0);
	for (i = 0; i < l.nr_insns; i++) {
		ck_assert_uint_ne(l.insns[i].code, BPF_JMP | BPF_JSLT | BPF_K);
		if (l.insns[i].code != (BPF_JMP32 | BPF_JA))
			continue;
		gotols++;
		ck_assert_uint_eq(l.insns[i - 1].code, BPF_JMP | BPF_JSGE | BPF_K);
		ck_assert_int_eq(l.insns[i - 1].off, 1);
		ck_assert_uint_eq(i + 1 + l.insns[i].imm, cleanup);
	}
	ck_assert_uint_eq(gotols, 4);
	bpfrr_loader_free(&l);
	bpfrr_ir_free(ir);
}
END_TEST

/* Blob offsets beyond the 16-bit store offset go through r2. */
START_TEST(far_blob_offsets)
{
	struct bpfrr_ir *ir = sample_ir(0);
	struct bpfrr_caps caps = stock();
	struct bpfrr_loader l;
	uint8_t *big = calloc(1, 40000);
	char err[256];
	uint32_t i, key = 1;
	int c, found = 0;
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	c = bpfrr_ir_add_call(ir, 30, BPFRR_IR_BPF, BPF_MAP_UPDATE_ELEM, &a, SAMPLE_ATTR_END(flags));
	ck_assert_int_eq(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, value), "attr.value",
					  big, 40000, BPFRR_DIR_IN, BPFRR_CONTENT_VALUE), 0);
	ck_assert_int_eq(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, key), "attr.key",
					  &key, 4, BPFRR_DIR_IN, BPFRR_CONTENT_KEY), 1);
	ck_assert_int_eq(bpfrr_ir_add_fdrel(ir, c, BPFRR_IR_IN_ATTR, 0, SAMPLE_SLOT_MAP, BPFRR_IR_REF_FIELD), 0);
	/* a second call after the big buffer: its attr is beyond 32 KiB */
	c = bpfrr_ir_add_call(ir, 31, BPFRR_IR_BPF, BPF_MAP_FREEZE, &a, 4);
	ck_assert_int_eq(bpfrr_ir_add_fdrel(ir, c, BPFRR_IR_IN_ATTR, 0, SAMPLE_SLOT_MAP, BPFRR_IR_REF_FIELD), 0);
	ck_assert_int_eq(bpfrr_codegen(ir, calls_0_to(6), 6, &caps, 0, &l, err, sizeof(err)), 0);
	ck_assert_uint_gt(l.calls[5].attr_off, 32767);
	/* r2 = r7; r2 += attr_off; *(u32 *)(r2 +0) = r1 */
	for (i = 2; i < l.nr_insns; i++)
		if (l.insns[i].code == (BPF_STX | BPF_MEM | BPF_W) && l.insns[i].dst_reg == BPF_REG_2 &&
		    l.insns[i].off == 0 && l.insns[i - 1].imm == (int32_t)l.calls[5].attr_off &&
		    l.insns[i - 2].src_reg == REG_BLOB)
			found++;
	ck_assert_int_eq(found, 1);
	ck_assert_int_eq(find_blob_store(&l, BPF_W, l.calls[5].attr_off), -1);
	bpfrr_loader_free(&l);
	bpfrr_ir_free(ir);
	free(big);
}
END_TEST

START_TEST(emitter_labels)
{
	struct bpfrr_emit e;
	uint32_t lbl;

	emit_init(&e, false);
	lbl = emit_label(&e);
	emit_jmp_imm(&e, BPF_JMP, BPF_JEQ, BPF_REG_0, 0, lbl);
	emit(&e, insn_exit());
	ck_assert_int_eq(emit_finish(&e), -ERANGE);	/* unbound */
	emit_bind(&e, lbl);
	emit(&e, insn_exit());
	ck_assert_int_eq(emit_finish(&e), 0);
	ck_assert_int_eq(e.insns[0].off, 1);
	emit_release(&e);

	/* a 16-bit offset that does not fit */
	emit_init(&e, false);
	lbl = emit_label(&e);
	emit_jmp_imm(&e, BPF_JMP, BPF_JEQ, BPF_REG_0, 0, lbl);
	while (e.nr < 40000)
		emit(&e, insn_mov_imm(BPF_REG_0, 0));
	emit_bind(&e, lbl);
	emit(&e, insn_exit());
	ck_assert_int_eq(emit_finish(&e), -ERANGE);
	emit_release(&e);
}
END_TEST

/* A loader too long for 16-bit jumps switches to gotol by itself. */
START_TEST(auto_wide_jumps)
{
	struct bpfrr_ir *ir = sample_ir(0);
	struct bpfrr_caps caps = stock();
	struct bpfrr_loader l;
	uint32_t *calls, i, n = 4000;
	union bpf_attr a;
	char err[256];

	calls = calloc(n + 4, sizeof(*calls));
	memset(&a, 0, sizeof(a));
	for (i = 0; i < n; i++) {
		int c = bpfrr_ir_add_call(ir, 100 + i, BPFRR_IR_BPF, BPF_MAP_FREEZE, &a, 4);

		ck_assert_int_ge(c, 0);
		bpfrr_ir_add_fdrel(ir, c, BPFRR_IR_IN_ATTR, 0, SAMPLE_SLOT_MAP, BPFRR_IR_REF_FIELD);
	}
	for (i = 0; i < n + 4; i++)
		calls[i] = i;
	ck_assert_int_eq(bpfrr_codegen(ir, calls, n + 4, &caps, 0, &l, err, sizeof(err)), 0);
	ck_assert(l.wide_jumps);
	ck_assert_uint_gt(l.nr_insns, 32768);
	bpfrr_loader_free(&l);
	free(calls);
	bpfrr_ir_free(ir);
}
END_TEST

static Suite *codegen_suite(void)
{
	Suite *s = suite_create("translate_codegen");
	TCase *tc = tcase_create("codegen");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, sample_validates);
	tcase_add_test(tc, validate_rejects);
	tcase_add_test(tc, clone_is_deep);
	tcase_add_test(tc, golden_listing);
	tcase_add_test(tc, perf_event_open_kfunc);
	tcase_add_test(tc, notes_do_not_change_code);
	tcase_add_test(tc, blob_layout_and_relocations);
	tcase_add_test(tc, log_buffer_placement);
	tcase_add_test(tc, nested_user_buffers);
	tcase_add_test(tc, placement_refusals);
	tcase_add_test(tc, wide_jumps);
	tcase_add_test(tc, far_blob_offsets);
	tcase_add_test(tc, emitter_labels);
	tcase_add_test(tc, auto_wide_jumps);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(codegen_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/loader_decode: a light skeleton's loader program decoded statically,
 * on synthetic programs laid out as gen_loader lays them out (prologue,
 * cleanup block, attrs in the blob, stores of run-time values into it),
 * and on random instructions and cut blobs (no crash, bounded work).
 * Attr field offsets come from the ABI table, as everywhere.
 */
#include <check.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/bpf.h>

#include "bpf_abi.h"
#include "loader_decode.h"

#define I(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })
#define MOV64_REG(d, s)		I(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV64_IMM(d, v)		I(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, v)
#define ADD64_IMM(d, v)		I(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, v)
#define RSH64_IMM(d, v)		I(BPF_ALU64 | BPF_RSH | BPF_K, d, 0, 0, v)
#define CALL(f)			I(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define JA(o)			I(BPF_JMP | BPF_JA, 0, 0, o, 0)
#define JMP_IMM(op, d, v, o)	I(BPF_JMP | (op) | BPF_K, d, 0, o, v)
#define LDX(sz, d, s, o)	I(BPF_LDX | BPF_MEM | (sz), d, s, o, 0)
#define STX(sz, d, s, o)	I(BPF_STX | BPF_MEM | (sz), d, s, o, 0)
#define ST(sz, d, o, v)		I(BPF_ST | BPF_MEM | (sz), d, 0, o, v)
#define EXIT()			I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* r = blob + off (fd_array index 0), as gen_loader loads every blob address */
#define BLOB(p, r, off)		(p)[n++] = I(BPF_LD | BPF_DW | BPF_IMM, r, BPF_PSEUDO_MAP_IDX_VALUE, 0, 0), \
				(p)[n++] = I(0, 0, 0, 0, off)

#define BLOB_LEN 512
#define MAX_INSNS 256

/* The field's offset in cmd's attr, from the ABI table. */
static unsigned int off_of(int cmd, const char *field)
{
	const struct bpfrr_field *f = bpfrr_abi_cmd_field(cmd, field);

	ck_assert_msg(f, "no field %s", field);
	return f->offset;
}

/* gen_loader's prologue: ctx to r6, 8 bytes of stack cleared, a goto over a 2-insn cleanup block. */
static size_t prologue(struct bpf_insn *p)
{
	size_t n = 0;

	p[n++] = MOV64_REG(BPF_REG_6, BPF_REG_1);
	p[n++] = MOV64_REG(BPF_REG_1, BPF_REG_10);
	p[n++] = ADD64_IMM(BPF_REG_1, -8);
	p[n++] = MOV64_IMM(BPF_REG_2, 8);
	p[n++] = MOV64_IMM(BPF_REG_3, 0);
	p[n++] = CALL(BPF_FUNC_probe_read_kernel);
	p[n++] = JA(2);
	p[n++] = MOV64_REG(BPF_REG_0, BPF_REG_7);	/* cleanup: 7, 8 */
	p[n++] = EXIT();
	return n;
}

/* bpf_sys_bpf(cmd, blob + attr, size); r7 = r0; if r7 < 0 goto cleanup */
static size_t sys_bpf(struct bpf_insn *p, size_t n, int cmd, int attr, int size)
{
	p[n++] = MOV64_IMM(BPF_REG_1, cmd);
	BLOB(p, BPF_REG_2, attr);
	p[n++] = MOV64_IMM(BPF_REG_3, size);
	p[n++] = CALL(BPF_FUNC_sys_bpf);
	p[n++] = MOV64_REG(BPF_REG_7, BPF_REG_0);
	p[n] = JMP_IMM(BPF_JSLT, BPF_REG_7, 0, (int)(7 - (n + 1)));	/* back to the cleanup block */
	return n + 1;
}

static struct bpfrr_lskel *decode(const struct bpf_insn *p, size_t n, const void *blob, size_t len)
{
	struct bpfrr_lskel *ld;

	ck_assert_int_eq(bpfrr_lskel_decode(p, n, blob, len, true, 0, &ld), 0);
	ck_assert_ptr_nonnull(ld);
	return ld;
}

static uint32_t get32(const uint8_t *p, unsigned int off)
{
	uint32_t v;

	memcpy(&v, p + off, 4);
	return v;
}

/* Constants through registers and a store, into the attr of a MAP_CREATE. */
START_TEST(test_constants)
{
	struct bpf_insn p[MAX_INSNS];
	uint8_t blob[BLOB_LEN] = { 0 };
	unsigned int attr = 64, vs = off_of(BPFRR_CMD_MAP_CREATE, "value_size");
	struct bpfrr_lskel *ld;
	size_t n = prologue(p);

	blob[attr + off_of(BPFRR_CMD_MAP_CREATE, "map_type")] = BPF_MAP_TYPE_ARRAY;
	p[n++] = MOV64_IMM(BPF_REG_1, 5);
	p[n++] = MOV64_REG(BPF_REG_2, BPF_REG_1);
	p[n++] = ADD64_IMM(BPF_REG_2, 3);
	BLOB(p, BPF_REG_3, attr + vs);
	p[n++] = STX(BPF_W, BPF_REG_3, BPF_REG_2, 0);
	n = sys_bpf(p, n, BPF_MAP_CREATE, attr, 72);
	p[n++] = MOV64_IMM(BPF_REG_0, 0);
	p[n++] = EXIT();

	ck_assert(bpfrr_lskel_looks_generated(p, n));
	ld = decode(p, n, blob, sizeof(blob));
	ck_assert_msg(ld->complete, "stopped at %lld: %s", (long long)ld->stop_insn, ld->stop_why);
	ck_assert_uint_eq(ld->stack_zeroed, 8);
	ck_assert_uint_eq(ld->nr_calls, 2);
	ck_assert_uint_eq(ld->nr_sys_bpf, 1);
	ck_assert(ld->calls[1].is_sys_bpf);
	ck_assert_uint_eq(ld->calls[1].cmd, BPF_MAP_CREATE);
	ck_assert_uint_eq(ld->calls[1].attr_off, attr);
	ck_assert_uint_eq(get32(ld->calls[1].attr, vs), 8);	/* the constant stored */
	ck_assert_uint_eq(ld->calls[1].nr_patches, 0);
	ck_assert_int_eq(ld->exit_val.kind, BPFRR_LDV_CONST);
	bpfrr_lskel_free(ld);
}
END_TEST

/*
 * A MAP_UPDATE_ELEM whose attr is in the blob: map_fd is the fd the MAP_CREATE
 * before returned (kept in the blob's fd slot), key and value pointers are blob
 * addresses the program stores, flags come from the ctx; its value buffer is
 * as long as that map's values.
 */
START_TEST(test_call_attr_in_blob)
{
	struct bpf_insn p[MAX_INSNS];
	uint8_t blob[BLOB_LEN] = { 0 };
	unsigned int create = 64, update = 160, key = 256, value = 264;
	unsigned int map_fd = off_of(BPFRR_CMD_MAP_UPDATE_ELEM, "map_fd");
	unsigned int key_ptr = off_of(BPFRR_CMD_MAP_UPDATE_ELEM, "key");
	unsigned int value_ptr = off_of(BPFRR_CMD_MAP_UPDATE_ELEM, "value");
	unsigned int flags = off_of(BPFRR_CMD_MAP_UPDATE_ELEM, "flags");
	const struct bpfrr_ld_call *c;
	struct bpfrr_lskel *ld;
	size_t n = prologue(p);
	char text[256];
	uint32_t i;
	bool seen_key = false, seen_value = false;

	blob[create + off_of(BPFRR_CMD_MAP_CREATE, "map_type")] = BPF_MAP_TYPE_ARRAY;
	blob[create + off_of(BPFRR_CMD_MAP_CREATE, "key_size")] = 4;
	blob[create + off_of(BPFRR_CMD_MAP_CREATE, "value_size")] = 16;
	blob[create + off_of(BPFRR_CMD_MAP_CREATE, "max_entries")] = 1;
	memset(blob + value, 0xab, 16);
	n = sys_bpf(p, n, BPF_MAP_CREATE, create, 72);
	BLOB(p, BPF_REG_1, 0);					/* fd slot */
	p[n++] = STX(BPF_W, BPF_REG_1, BPF_REG_7, 0);
	BLOB(p, BPF_REG_2, 0);					/* move_blob2blob */
	p[n++] = LDX(BPF_W, BPF_REG_0, BPF_REG_2, 0);
	BLOB(p, BPF_REG_1, update + map_fd);
	p[n++] = STX(BPF_W, BPF_REG_1, BPF_REG_0, 0);
	BLOB(p, BPF_REG_0, key);				/* emit_rel_store */
	BLOB(p, BPF_REG_1, update + key_ptr);
	p[n++] = STX(BPF_DW, BPF_REG_1, BPF_REG_0, 0);
	BLOB(p, BPF_REG_0, value);
	BLOB(p, BPF_REG_1, update + value_ptr);
	p[n++] = STX(BPF_DW, BPF_REG_1, BPF_REG_0, 0);
	p[n++] = LDX(BPF_W, BPF_REG_0, BPF_REG_6, 4);		/* move_ctx2blob */
	BLOB(p, BPF_REG_1, update + flags);
	p[n++] = STX(BPF_W, BPF_REG_1, BPF_REG_0, 0);
	n = sys_bpf(p, n, BPF_MAP_UPDATE_ELEM, update, 32);
	p[n++] = LDX(BPF_W, BPF_REG_0, BPF_REG_10, -8);		/* move_stack2ctx */
	p[n++] = STX(BPF_W, BPF_REG_6, BPF_REG_0, 24);
	p[n++] = MOV64_IMM(BPF_REG_0, 0);
	p[n++] = EXIT();

	ld = decode(p, n, blob, sizeof(blob));
	ck_assert_msg(ld->complete, "stopped at %lld: %s", (long long)ld->stop_insn, ld->stop_why);
	ck_assert_uint_eq(ld->nr_sys_bpf, 2);
	c = &ld->calls[2];
	ck_assert_uint_eq(c->cmd, BPF_MAP_UPDATE_ELEM);
	ck_assert_uint_eq(c->nr_patches, 4);
	ck_assert_uint_eq(c->patches[0].off, map_fd);
	ck_assert_int_eq(c->patches[0].val.kind, BPFRR_LDV_RESULT);
	ck_assert_uint_eq(c->patches[0].val.call, 1);
	ck_assert_str_eq(bpfrr_lskel_val_text(ld, &c->patches[0].val, text, sizeof(text)),
			 "fd of inner #2 BPF_MAP_CREATE");
	ck_assert_uint_eq(c->patches[1].off, key_ptr);
	ck_assert_int_eq(c->patches[1].val.kind, BPFRR_LDV_BLOB);
	ck_assert_int_eq(c->patches[1].val.v, key);
	ck_assert_int_eq(c->patches[3].val.kind, BPFRR_LDV_CTX_FIELD);
	ck_assert_int_eq(c->patches[3].val.v, 4);
	ck_assert_str_eq(bpfrr_lskel_val_text(ld, &c->patches[3].val, text, sizeof(text)), "ctx+4 (ctx.flags)");
	/* the walkers' copy holds placeholders: the fd of call 1, blob addresses */
	ck_assert_uint_eq(get32(c->attr, map_fd), BPFRR_LD_FD_BASE + 1);
	for (i = 0; i < c->nr_bufs; i++) {
		if (!strcmp(c->bufs[i].path, "attr.key")) {
			seen_key = true;
			ck_assert_uint_eq(c->bufs[i].blob_off, key);
			ck_assert_uint_eq(c->bufs[i].len, 4);
		} else if (!strcmp(c->bufs[i].path, "attr.value")) {
			seen_value = true;
			ck_assert_uint_eq(c->bufs[i].blob_off, value);
			ck_assert_uint_eq(c->bufs[i].len, 16);	/* value_size of inner #2's map */
			ck_assert_uint_eq(c->bufs[i].bytes[15], 0xab);
		}
	}
	ck_assert(seen_key && seen_value);
	ck_assert_uint_eq(ld->nr_ctx_outs, 1);
	ck_assert_uint_eq(ld->ctx_outs[0].ctx_off, 24);
	ck_assert_int_eq(ld->ctx_outs[0].val.kind, BPFRR_LDV_CONST);	/* the cleared stack */
	bpfrr_lskel_free(ld);
}
END_TEST

/*
 * Branches: a ctx value stored only when not 0 (move_ctx2blob's check), an if/else
 * on a ctx flag (copy_from_user or probe_read_kernel), then a loop: decoding stops
 * there with the calls before it kept.
 */
START_TEST(test_unknown_branch)
{
	struct bpf_insn p[MAX_INSNS];
	uint8_t blob[BLOB_LEN] = { 0 };
	unsigned int create = 64, me = off_of(BPFRR_CMD_MAP_CREATE, "max_entries");
	const struct bpfrr_ld_call *c;
	struct bpfrr_lskel *ld;
	size_t n = prologue(p), branch, jset, loop;

	blob[create + off_of(BPFRR_CMD_MAP_CREATE, "map_type")] = BPF_MAP_TYPE_ARRAY;
	blob[create + me] = 7;
	p[n++] = LDX(BPF_W, BPF_REG_0, BPF_REG_6, 28);
	branch = n;
	p[n++] = JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 3);
	BLOB(p, BPF_REG_1, create + me);
	p[n++] = STX(BPF_W, BPF_REG_1, BPF_REG_0, 0);
	/* if (ctx->flags & 1) probe_read_kernel else copy_from_user, into blob+300 */
	BLOB(p, BPF_REG_1, 300);
	p[n++] = MOV64_IMM(BPF_REG_2, 8);
	p[n++] = LDX(BPF_DW, BPF_REG_3, BPF_REG_6, 32);
	p[n++] = LDX(BPF_W, BPF_REG_0, BPF_REG_6, 4);
	jset = n;
	p[n++] = JMP_IMM(BPF_JSET, BPF_REG_0, 1, 2);
	p[n++] = CALL(BPF_FUNC_copy_from_user);
	p[n++] = JA(1);
	p[n++] = CALL(BPF_FUNC_probe_read_kernel);
	n = sys_bpf(p, n, BPF_MAP_CREATE, create, 72);
	loop = n;
	p[n++] = JMP_IMM(BPF_JNE, BPF_REG_7, 0, -1);	/* a loop: not gen_loader's */
	n = sys_bpf(p, n, BPF_MAP_CREATE, create, 72);
	p[n++] = EXIT();

	ld = decode(p, n, blob, sizeof(blob));
	ck_assert(!ld->complete);
	ck_assert_int_eq(ld->stop_insn, (int64_t)loop);
	ck_assert_msg(strstr(ld->stop_why, "loop"), "why: %s", ld->stop_why);
	ck_assert_uint_eq(ld->nr_calls, 4);	/* prologue, copy_from_user, probe_read_kernel, sys_bpf */
	ck_assert(ld->calls[1].flags & BPFRR_LDV_F_COND);
	ck_assert_uint_eq(ld->calls[1].cond_insn, jset);
	ck_assert(ld->calls[2].flags & BPFRR_LDV_F_COND);
	c = &ld->calls[3];
	ck_assert(!(c->flags & BPFRR_LDV_F_COND));
	ck_assert_uint_eq(c->nr_patches, 1);
	ck_assert_uint_eq(c->patches[0].off, me);
	ck_assert_int_eq(c->patches[0].val.kind, BPFRR_LDV_CTX_FIELD);
	ck_assert(c->patches[0].val.flags & BPFRR_LDV_F_COND);
	ck_assert_uint_eq(c->patches[0].val.cond_insn, branch);
	ck_assert_uint_eq(get32(c->attr_blob, me), 7);	/* the blob's value, for the other arm */
	bpfrr_lskel_free(ld);
}
END_TEST

/* What gen_loader never emits stops the decoding, at that instruction, with why. */
START_TEST(test_stops)
{
	static const struct {
		struct bpf_insn insn;
		const char *why;
	} cases[] = {
		{ CALL(BPF_FUNC_map_lookup_elem), "helper gen_loader does not emit" },
		{ STX(BPF_W, BPF_REG_7, BPF_REG_0, 0), "pointer the decoder does not follow" },
		{ I(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 1), "subprogram" },
		{ JA(-1), "loop" },
		{ I(BPF_LD | BPF_ABS | BPF_W, 0, 0, 0, 0), "legacy" },
		{ LDX(BPF_W, BPF_REG_10, BPF_REG_1, 0), "r10" },
	};
	uint8_t blob[BLOB_LEN] = { 0 };
	unsigned int k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct bpf_insn p[MAX_INSNS];
		struct bpfrr_lskel *ld;
		size_t n = prologue(p), at = n;

		p[n++] = cases[k].insn;
		p[n++] = MOV64_IMM(BPF_REG_0, 0);
		p[n++] = EXIT();
		ld = decode(p, n, blob, sizeof(blob));
		ck_assert(!ld->complete);
		ck_assert_int_eq(ld->stop_insn, (int64_t)at);
		ck_assert_msg(strstr(ld->stop_why, cases[k].why), "case %u: %s", k, ld->stop_why);
		bpfrr_lskel_free(ld);
	}
	/* no exit at all: runs past the end */
	{
		struct bpf_insn p[MAX_INSNS];
		struct bpfrr_lskel *ld;
		size_t n = prologue(p);

		p[n++] = MOV64_IMM(BPF_REG_0, 0);
		ld = decode(p, n, blob, sizeof(blob));
		ck_assert(!ld->complete);
		ck_assert_int_eq(ld->stop_insn, (int64_t)n);
		bpfrr_lskel_free(ld);
	}
}
END_TEST

/* Ten BPF_BTF_LOADs of all of an 8 MiB blob: the copies kept are bounded, the decoding says so. */
START_TEST(test_bounded_copies)
{
	size_t len = 8u << 20, n, k;
	unsigned int btf = off_of(BPFRR_CMD_BTF_LOAD, "btf"), size = off_of(BPFRR_CMD_BTF_LOAD, "btf_size");
	struct bpf_insn p[MAX_INSNS];
	uint8_t *blob = calloc(1, len);
	struct bpfrr_lskel *ld;
	uint32_t btf_size = (uint32_t)len - 64;

	ck_assert_ptr_nonnull(blob);
	memcpy(blob + size, &btf_size, 4);
	n = prologue(p);
	BLOB(p, BPF_REG_0, 64);
	BLOB(p, BPF_REG_1, btf);
	p[n++] = STX(BPF_DW, BPF_REG_1, BPF_REG_0, 0);
	for (k = 0; k < 10; k++)
		n = sys_bpf(p, n, BPF_BTF_LOAD, 0, 28);
	p[n++] = EXIT();
	ld = decode(p, n, blob, len);
	ck_assert(!ld->complete);
	ck_assert_msg(strstr(ld->stop_why, "add up to more than"), "why: %s", ld->stop_why);
	ck_assert_uint_ge(ld->nr_sys_bpf, 4);
	ck_assert_uint_lt(ld->nr_sys_bpf, 10);
	ck_assert_uint_eq(ld->calls[1].bufs[0].len, btf_size);
	bpfrr_lskel_free(ld);
	free(blob);
}
END_TEST

/* --- real gen_loader output: tests/data/lskel/NAME.{insns,blob}, made by tests/data/lskel/extract --- */

static void *read_data(const char *name, const char *ext, size_t *len)
{
	char here[4096], path[4200];
	FILE *f;
	void *buf;
	long n;

	snprintf(here, sizeof(here), "%s", __FILE__);
	snprintf(path, sizeof(path), "%s/../data/lskel/%s.%s", dirname(here), name, ext);
	f = fopen(path, "rb");
	ck_assert_msg(f, "cannot open %s", path);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	buf = malloc(n ? (size_t)n : 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* the light skeletons of the fixtures, and what their programs must be decoded to */
static const struct {
	const char *name;
	unsigned int btf_load, map_create, map_update, map_freeze, prog_load;
} real[] = {
	{ "fx_globals", 1, 5, 5, 2, 1 },	/* .bss, .data, .data.extra, .rodata, a map: initial values */
	{ "fx_maps", 1, 10, 2, 0, 1 },		/* map-in-map: inner map fds as values */
	{ "fx_core", 1, 2, 2, 1, 1 },		/* CO-RE relocations passed to the kernel */
	{ "fx_attach", 1, 2, 2, 1, 3 },
	{ "fx_tailcall", 1, 3, 1, 1, 3 },
};

START_TEST(test_real)
{
	unsigned int counts[BPFRR_CMD__MAX] = { 0 };
	size_t ni, nb;
	void *insns = read_data(real[_i].name, "insns", &ni), *blob = read_data(real[_i].name, "blob", &nb);
	struct bpfrr_lskel *ld;
	uint32_t k, i;

	ck_assert(bpfrr_lskel_looks_generated(insns, ni / 8));
	ld = decode(insns, ni / 8, blob, nb);
	ck_assert_msg(ld->complete, "%s: stopped at %lld: %s", real[_i].name, (long long)ld->stop_insn, ld->stop_why);
	ck_assert_uint_le(ld->insns_visited, ni / 8);
	for (k = 0; k < ld->nr_calls; k++) {
		const struct bpfrr_ld_call *c = &ld->calls[k];

		if (!c->is_sys_bpf)
			continue;
		ck_assert_uint_lt(c->cmd, BPFRR_CMD__MAX);
		counts[c->cmd]++;
		/* every fd an inner call uses is one an earlier inner call returned */
		for (i = 0; i < c->nr_patches; i++)
			if (c->patches[i].val.kind == BPFRR_LDV_RESULT)
				ck_assert_uint_lt(c->patches[i].val.call, k);
		if (c->cmd == BPFRR_CMD_PROG_LOAD) {
			bool has_insns = false;

			for (i = 0; i < c->nr_bufs; i++)
				has_insns |= !strcmp(c->bufs[i].path, "attr.insns") && c->bufs[i].len > 0;
			ck_assert_msg(has_insns, "%s: inner #%u PROG_LOAD without its insns", real[_i].name, k + 1);
		}
	}
	ck_assert_uint_eq(counts[BPFRR_CMD_BTF_LOAD], real[_i].btf_load);
	ck_assert_uint_eq(counts[BPFRR_CMD_MAP_CREATE], real[_i].map_create);
	ck_assert_uint_eq(counts[BPFRR_CMD_MAP_UPDATE_ELEM], real[_i].map_update);
	ck_assert_uint_eq(counts[BPFRR_CMD_MAP_FREEZE], real[_i].map_freeze);
	ck_assert_uint_eq(counts[BPFRR_CMD_PROG_LOAD], real[_i].prog_load);
	/* the program hands every map and program fd back in its ctx */
	ck_assert_uint_eq(ld->nr_ctx_outs, counts[BPFRR_CMD_PROG_LOAD] + counts[BPFRR_CMD_MAP_CREATE] -
			  (strcmp(real[_i].name, "fx_maps") ? 0 : 1));	/* fx_maps' inner map is closed */
	bpfrr_lskel_free(ld);
	free(insns);
	free(blob);
}
END_TEST

/* Random instructions after the prologue, random and cut blobs: no crash, bounded work. */
START_TEST(test_robust)
{
	struct bpf_insn p[MAX_INSNS], good[MAX_INSNS];
	uint8_t blob[BLOB_LEN];
	unsigned int seed = 12345, round, len;
	size_t n, gn, i;
	time_t start = time(NULL);

	/* a program whose calls all read the blob, cut at every length */
	memset(blob, 0, sizeof(blob));
	blob[64] = BPF_MAP_TYPE_ARRAY;
	gn = prologue(good);
	gn = sys_bpf(good, gn, BPF_MAP_CREATE, 64, 72);
	gn = sys_bpf(good, gn, BPF_PROG_LOAD, 300, 148);
	good[gn++] = EXIT();
	for (len = 0; len <= sizeof(blob); len++) {
		struct bpfrr_lskel *ld = decode(good, gn, blob, len);

		ck_assert(ld->complete == (len >= 448));
		ck_assert_uint_le(ld->insns_visited, gn);
		bpfrr_lskel_free(ld);
	}
	for (round = 0; round < 3000; round++) {
		struct bpfrr_lskel *ld;

		n = prologue(p);
		for (i = n; i < MAX_INSNS; i++) {
			uint32_t r1 = (uint32_t)rand_r(&seed), r2 = (uint32_t)rand_r(&seed);

			memcpy(&p[i], &r1, 4);
			memcpy((uint8_t *)&p[i] + 4, &r2, 4);
			/* bias towards what the decoder follows: small offsets, known helpers */
			if (r1 & 0x100000)
				p[i].off = (int16_t)(p[i].off % 16);
			if ((r1 & 0x7) == BPF_JMP && (r2 & 3) == 0)
				p[i] = CALL((int)(r2 % 200));
		}
		for (i = 0; i < sizeof(blob); i++)
			blob[i] = (uint8_t)rand_r(&seed);
		ld = decode(p, MAX_INSNS - (round % 64), blob, round % 2 ? sizeof(blob) : round % sizeof(blob));
		ck_assert_uint_le(ld->insns_visited, MAX_INSNS);
		ck_assert(ld->complete || ld->stop_why[0]);
		bpfrr_lskel_free(ld);
	}
	ck_assert_msg(time(NULL) - start < 60, "took %ld s", (long)(time(NULL) - start));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("loader_decode");
	TCase *tc = tcase_create("decode");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_constants);
	tcase_add_test(tc, test_call_attr_in_blob);
	tcase_add_test(tc, test_unknown_branch);
	tcase_add_test(tc, test_stops);
	tcase_add_test(tc, test_bounded_copies);
	tcase_add_loop_test(tc, test_real, 0, (int)(sizeof(real) / sizeof(real[0])));
	tcase_add_test(tc, test_robust);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

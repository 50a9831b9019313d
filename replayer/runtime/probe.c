// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe.c - asking the running kernel what its syscall programs can do
 * (see probe.h, caps.h).  Two small syscall programs:
 *
 * 1. Commands.  For every command, bpf_sys_bpf(cmd, blob, 4097).  The
 *    helper refuses commands it does not accept with -EINVAL before
 *    anything else; an accepted command goes to __sys_bpf(), which
 *    refuses any attr larger than a page with -E2BIG before reading it
 *    (bpf_check_uarg_tail_zero()).  So -EINVAL means "not accepted" and
 *    anything else "accepted", and no command does anything.
 *
 * 2. Pointers that the kernel may read as user pointers even from a
 *    syscall program, each given a kernel address (inside the blob):
 *      PROG_LOAD log_buf        a 2-insn socket filter with log_level 1
 *      BTF_LOAD btf_log_buf     a 1-type BTF with log_level 1
 *      RAW_TRACEPOINT_OPEN name a no-op raw_tp program, a name no
 *                               tracepoint has
 *    -EFAULT means the kernel took the address as a user pointer (and
 *    refused it, as access_ok() fails for kernel addresses), success or
 *    the expected -ENOENT that it read it as a kernel pointer.  A kernel
 *    address is the safe thing to hand a pointer of unknown treatment;
 *    a user address would not be.  Objects the probe makes are closed by
 *    the probe itself.
 *
 * 3. Perf events: the series' bpf_perf_event_open() kfunc, looked up by
 *    name in the kernel's BTF, on kernels that have the series' list.
 *
 * Field offsets come from the ABI table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "bpf_abi.h"
#include "caps.h"
#include "emit.h"
#include "header_runtime.h"
#include "probe.h"
#include "run.h"

#define PROBE_SIZE	4097u	/* > PAGE_SIZE: __sys_bpf() says -E2BIG without reading */

#define PROG_TYPE_SOCKET_FILTER	1
#define PROG_TYPE_RAW_TRACEPOINT 17

static int probe_cmds(struct bpfrr_caps *caps, uint64_t *accepted, char *err, size_t err_size)
{
	int32_t ctx[BPFRR_ABI_NR_CMDS];
	struct bpfrr_run_result res;
	struct bpfrr_emit e;
	uint8_t *blob;
	uint32_t cmd;
	int ret;

	blob = calloc(1, 4104);
	if (!blob)
		return -ENOMEM;
	emit_init(&e, false);
	emit(&e, insn_mov_reg(REG_CTX, BPF_REG_1));
	emit_ld_imm64(&e, REG_BLOB, BPF_PSEUDO_MAP_IDX_VALUE, 0, 0);
	for (cmd = 0; cmd < BPFRR_ABI_NR_CMDS; cmd++) {
		emit(&e, insn_mov_imm(BPF_REG_1, cmd));
		emit(&e, insn_mov_reg(BPF_REG_2, REG_BLOB));
		emit(&e, insn_mov_imm(BPF_REG_3, PROBE_SIZE));
		emit(&e, insn_call(BPF_FUNC_sys_bpf));
		emit(&e, insn_stx(BPF_W, REG_CTX, BPF_REG_0, 4 * cmd));
	}
	emit(&e, insn_mov_imm(BPF_REG_0, 0));
	emit(&e, insn_exit());
	ret = emit_finish(&e);
	if (ret) {
		snprintf(err, err_size, "building the command probe: %s", strerror(-ret));
		goto out;
	}
	memset(ctx, 0, sizeof(ctx));
	ret = bpfrr_run_syscall_prog(e.insns, e.nr, "bpfrr_probe_cmd", blob, 4104, ctx, sizeof(ctx), NULL,
				     &res, err, err_size);
	free(res.verifier_log);
	if (ret)
		goto out;
	*accepted = 0;
	for (cmd = 0; cmd < BPFRR_ABI_NR_CMDS; cmd++) {
		caps->cmd_probe_ret[cmd] = ctx[cmd];
		if (ctx[cmd] != -EINVAL)
			*accepted |= 1ull << cmd;
	}
	caps->nr_probed_cmds = BPFRR_ABI_NR_CMDS;
out:
	emit_release(&e);
	free(blob);
	return ret;
}

/* Offset of a field of cmd's attr in the ABI table; -1 if the table lacks it. */
static int field_off(int cmd, const char *name)
{
	const struct bpfrr_field *f = bpfrr_abi_cmd_field(cmd, name);

	return f ? f->offset : -1;
}

struct blob_builder {
	uint8_t *p;
	uint32_t len;
};

static uint32_t blob_put(struct blob_builder *b, const void *data, uint32_t len)
{
	uint32_t at = b->len;

	if (data)
		memcpy(b->p + at, data, len);
	b->len += (len + 7) & ~7u;
	return at;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* *(u64 *)(blob + at) = blob + target */
static void emit_blob_ptr(struct bpfrr_emit *e, uint32_t at, uint32_t target)
{
	emit(e, insn_mov_reg(BPF_REG_1, REG_BLOB));
	emit(e, insn_add_imm(BPF_REG_1, target));
	emit(e, insn_stx(BPF_DW, REG_BLOB, BPF_REG_1, at));
}

/* r0 = sys_bpf(cmd, blob + attr, size); ctx[slot] = r0; close r0 if it is an fd (unless keep) */
static void emit_probe_call(struct bpfrr_emit *e, int cmd, uint32_t attr, uint32_t size, uint32_t slot,
			    bool keep)
{
	emit(e, insn_mov_imm(BPF_REG_1, cmd));
	emit(e, insn_mov_reg(BPF_REG_2, REG_BLOB));
	emit(e, insn_add_imm(BPF_REG_2, attr));
	emit(e, insn_mov_imm(BPF_REG_3, size));
	emit(e, insn_call(BPF_FUNC_sys_bpf));
	emit(e, insn_stx(BPF_W, REG_CTX, BPF_REG_0, 4 * slot));
	if (keep)
		return;
	emit(e, insn_raw(BPF_JMP | BPF_JSLT | BPF_K, BPF_REG_0, 0, 2, 0));
	emit(e, insn_mov_reg(BPF_REG_1, BPF_REG_0));
	emit(e, insn_call(BPF_FUNC_sys_close));
}

enum { P_LOG_PROG, P_LOG_BTF, P_RAWTP_PROG, P_RAWTP_NAME, P_NR };

static int probe_ptrs(const struct bpfrr_caps *accepted, int32_t *out, char *err, size_t err_size)
{
	static const uint8_t insns[16] = { 0xb7, 0, 0, 0, 0, 0, 0, 0, 0x95, 0, 0, 0, 0, 0, 0, 0 };
	static const char tp_name[] = "bpfrr_probe_no_such_tracepoint";
	/* BTF: header, one INT "int" (4 bytes, signed, 32 bits), strings */
	static const uint32_t btf[] = {
		0x0001eb9f, 24, 0, 16, 16, 5,		/* magic 0xeb9f, version 1, hdr_len 24, types 0+16, strs 16+5 */
		1, 0x01000000, 4, 0x01000020,		/* name_off 1, KIND_INT, size 4, BTF_INT_SIGNED | 32 bits */
		0x746e6900, 0,				/* "\0int\0" */
	};
	const uint32_t attr_size = BPFRR_ABI_ATTR_SIZE;
	const struct bpfrr_cmd_log *pl_log = &bpfrr_abi_cmd(BPFRR_CMD_PROG_LOAD)->log;
	const struct bpfrr_cmd_log *bl_log = &bpfrr_abi_cmd(BPFRR_CMD_BTF_LOAD)->log;
	int pl_type = field_off(BPFRR_CMD_PROG_LOAD, "prog_type");
	int pl_cnt = field_off(BPFRR_CMD_PROG_LOAD, "insn_cnt");
	int pl_insns = field_off(BPFRR_CMD_PROG_LOAD, "insns");
	int pl_lic = field_off(BPFRR_CMD_PROG_LOAD, "license");
	int pl_level = field_off(BPFRR_CMD_PROG_LOAD, pl_log->level);
	int pl_size = field_off(BPFRR_CMD_PROG_LOAD, pl_log->size);
	int pl_buf = field_off(BPFRR_CMD_PROG_LOAD, pl_log->buf);
	int bl_btf = field_off(BPFRR_CMD_BTF_LOAD, "btf"), bl_size = field_off(BPFRR_CMD_BTF_LOAD, "btf_size");
	int bl_buf = field_off(BPFRR_CMD_BTF_LOAD, bl_log->buf);
	int bl_lsize = field_off(BPFRR_CMD_BTF_LOAD, bl_log->size);
	int bl_level = field_off(BPFRR_CMD_BTF_LOAD, bl_log->level);
	int rt_name = field_off(BPFRR_CMD_RAW_TRACEPOINT_OPEN, "raw_tracepoint.name");
	int rt_prog = field_off(BPFRR_CMD_RAW_TRACEPOINT_OPEN, "raw_tracepoint.prog_fd");
	uint32_t a_insns, a_lic, a_log, a_btf, a_name, a_pl, a_bl, a_rp, a_rt;
	struct blob_builder b = { 0 };
	struct bpfrr_run_result res;
	struct bpfrr_emit e;
	uint32_t slot;
	int ret;

	if (pl_type < 0 || pl_cnt < 0 || pl_insns < 0 || pl_lic < 0 || pl_level < 0 || pl_size < 0 ||
	    pl_buf < 0 || bl_btf < 0 || bl_size < 0 || bl_buf < 0 || bl_lsize < 0 || bl_level < 0 ||
	    rt_name < 0 || rt_prog < 0) {
		snprintf(err, err_size, "the ABI table lacks a field the pointer probe needs");
		return -ENOENT;
	}
	b.p = calloc(1, 4 * attr_size + 4096 + 256);
	if (!b.p)
		return -ENOMEM;
	a_insns = blob_put(&b, insns, sizeof(insns));
	a_lic = blob_put(&b, "GPL", 4);
	a_btf = blob_put(&b, btf, sizeof(btf));
	a_name = blob_put(&b, tp_name, sizeof(tp_name));
	a_log = blob_put(&b, NULL, 4096);
	a_pl = blob_put(&b, NULL, attr_size);
	put32(b.p + a_pl + pl_type, PROG_TYPE_SOCKET_FILTER);
	put32(b.p + a_pl + pl_cnt, 2);
	put32(b.p + a_pl + pl_level, 1);
	put32(b.p + a_pl + pl_size, 4096);
	a_bl = blob_put(&b, NULL, attr_size);
	put32(b.p + a_bl + bl_size, sizeof(btf) - 3);	/* 24 + 16 + 5 */
	put32(b.p + a_bl + bl_level, 1);
	put32(b.p + a_bl + bl_lsize, 4096);
	a_rp = blob_put(&b, NULL, attr_size);
	put32(b.p + a_rp + pl_type, PROG_TYPE_RAW_TRACEPOINT);
	put32(b.p + a_rp + pl_cnt, 2);
	a_rt = blob_put(&b, NULL, attr_size);

	emit_init(&e, false);
	emit(&e, insn_mov_reg(REG_CTX, BPF_REG_1));
	emit_ld_imm64(&e, REG_BLOB, BPF_PSEUDO_MAP_IDX_VALUE, 0, 0);
	for (slot = 0; slot < P_NR; slot++)
		emit(&e, insn_st(BPF_W, REG_CTX, 4 * slot, 1));	/* 1: not probed */
	if (bpfrr_caps_cmd(accepted, BPFRR_CMD_PROG_LOAD)) {
		emit_blob_ptr(&e, a_pl + pl_insns, a_insns);
		emit_blob_ptr(&e, a_pl + pl_lic, a_lic);
		emit_blob_ptr(&e, a_pl + pl_buf, a_log);
		emit_probe_call(&e, BPFRR_CMD_PROG_LOAD, a_pl, attr_size, P_LOG_PROG, false);
	}
	if (bpfrr_caps_cmd(accepted, BPFRR_CMD_BTF_LOAD)) {
		emit_blob_ptr(&e, a_bl + bl_btf, a_btf);
		emit_blob_ptr(&e, a_bl + bl_buf, a_log);
		emit_probe_call(&e, BPFRR_CMD_BTF_LOAD, a_bl, attr_size, P_LOG_BTF, false);
	}
	if (bpfrr_caps_cmd(accepted, BPFRR_CMD_PROG_LOAD) && bpfrr_caps_cmd(accepted, BPFRR_CMD_RAW_TRACEPOINT_OPEN)) {
		uint32_t skip = emit_label(&e);

		emit_blob_ptr(&e, a_rp + pl_insns, a_insns);
		emit_blob_ptr(&e, a_rp + pl_lic, a_lic);
		emit_probe_call(&e, BPFRR_CMD_PROG_LOAD, a_rp, attr_size, P_RAWTP_PROG, true);
		emit_jmp_imm(&e, BPF_JMP, BPF_JSLT, BPF_REG_0, 0, skip);
		emit(&e, insn_mov_reg(REG_ERR, BPF_REG_0));
		emit(&e, insn_stx(BPF_W, REG_BLOB, REG_ERR, a_rt + rt_prog));
		emit_blob_ptr(&e, a_rt + rt_name, a_name);
		emit_probe_call(&e, BPFRR_CMD_RAW_TRACEPOINT_OPEN, a_rt, attr_size, P_RAWTP_NAME, false);
		emit(&e, insn_mov_reg(BPF_REG_1, REG_ERR));
		emit(&e, insn_call(BPF_FUNC_sys_close));
		emit_bind(&e, skip);
	}
	emit(&e, insn_mov_imm(BPF_REG_0, 0));
	emit(&e, insn_exit());
	ret = emit_finish(&e);
	if (ret) {
		snprintf(err, err_size, "building the pointer probe: %s", strerror(-ret));
		goto out;
	}
	ret = bpfrr_run_syscall_prog(e.insns, e.nr, "bpfrr_probe_ptr", b.p, b.len, out, 4 * P_NR, NULL,
				     &res, err, err_size);
	if (ret && res.verifier_log)
		fprintf(stderr, "%s\n", res.verifier_log);
	free(res.verifier_log);
out:
	emit_release(&e);
	free(b.p);
	return ret;
}

/*
 * The series' perf event kfunc, by its name in the kernel's BTF (how
 * loaders find any kfunc), with the raw BTF scan the generated headers use
 * (header_runtime.h).  Reading the BTF file issues no bpf() call.  A kernel
 * without BTF or without the kfunc leaves caps as they are.
 */
static void probe_perf_kfunc(struct bpfrr_caps *caps)
{
	int32_t id = bpfrr_rt_kfunc_btf_id(BPFRR_RT_PERF_KFUNC);

	if (id > 0) {
		caps->perf_event_open = true;
		caps->perf_event_open_btf_id = id;
	}
}

/* What a pointer probe's answer says. */
static enum bpfrr_ptr_sem classify(int32_t ret, int32_t kernel_errno)
{
	if (ret >= 0 || (kernel_errno && ret == -kernel_errno))
		return BPFRR_PTR_KERNEL;
	if (ret == -EFAULT)
		return BPFRR_PTR_USER;
	return BPFRR_PTR_UNKNOWN;
}

/* The kernel's own list, if it has one: malloc'd text, or NULL (errno set). */
static char *read_list(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = fopen(BPFRR_CAPS_SYSFS, "re");
	int saved;

	if (!f)
		return NULL;
	if (getdelim(&text, &len, '\0', f) < 0) {
		saved = ferror(f) ? errno : 0;
		free(text);
		text = saved ? NULL : strdup("");
		errno = saved;
	}
	fclose(f);
	return text;
}

/* Set a pointer's treatment from a probe answer, unless the kernel's list already said. */
static void set_probed(struct bpfrr_caps *caps, int cmd, const char *path, int32_t answer,
		       int32_t kernel_errno)
{
	if (answer == 1 || bpfrr_caps_ptr(caps, cmd, path) != BPFRR_PTR_UNKNOWN)
		return;
	bpfrr_caps_set_ptr(caps, cmd, path, classify(answer, kernel_errno), answer < 0 ? answer : 0,
			   "probed");
}

int bpfrr_caps_probe(struct bpfrr_caps *caps, unsigned int flags, char *err, size_t err_size)
{
	int32_t answers[P_NR] = { 1, 1, 1, 1 };
	struct utsname u;
	char source[64], *list;
	bool has_list;
	int ret;

	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "?");
	list = read_list();
	has_list = list != NULL;
	if (list) {
		char why[128];

		snprintf(source, sizeof(source), "kernel's list on %.40s", u.release);
		ret = bpfrr_caps_parse_list(caps, list, source, why, sizeof(why));
		free(list);
		if (ret) {
			snprintf(err, err_size, "%s: %s", BPFRR_CAPS_SYSFS, why);
			return ret;
		}
	} else {
		struct bpfrr_caps probed;
		uint64_t accepted = 0;

		memset(&probed, 0, sizeof(probed));
		ret = probe_cmds(&probed, &accepted, err, err_size);
		if (ret)
			return ret;
		snprintf(source, sizeof(source), "probed on %.40s", u.release);
		bpfrr_caps_init(caps, accepted, source);
		memcpy(caps->cmd_probe_ret, probed.cmd_probe_ret, sizeof(caps->cmd_probe_ret));
		caps->nr_probed_cmds = probed.nr_probed_cmds;
	}

	ret = probe_ptrs(caps, answers, err, err_size);
	if (ret)
		return ret;
	set_probed(caps, BPFRR_CMD_PROG_LOAD, "attr.log_buf", answers[P_LOG_PROG], 0);
	set_probed(caps, BPFRR_CMD_BTF_LOAD, "attr.btf_log_buf", answers[P_LOG_BTF], 0);
	if (answers[P_RAWTP_NAME] != 1)
		set_probed(caps, BPFRR_CMD_RAW_TRACEPOINT_OPEN, "attr.raw_tracepoint.name", answers[P_RAWTP_NAME],
			   ENOENT);
	/*
	 * The kfunc comes with the series that also adds the kernel's list
	 * (kernel/series: 0002 before 0007); a kernel without the list is
	 * spared the BTF scan, which costs tens of ms under emulation.
	 */
	if (!(flags & BPFRR_CAPS_PROBE_PERF))
		caps->perf_event_open_unknown = true;
	else if (has_list)
		probe_perf_kfunc(caps);
	return 0;
}

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
 * 3. Perf events: the series' bpf_perf_event_open() kfunc, on kernels that
 *    have the series' list: its BTF id from the kernel's list of kfuncs, or
 *    (a patched kernel older than that list) by name in the kernel's BTF.
 *
 * The programs run only on kernels without the list, once per boot: their
 * answer is cached (bpfrr_caps_cache_path()).  A kernel with the list is
 * only read: the list names the pointers it follows into the program's
 * memory, and its contract makes every other one a user address, which is
 * all the pointer probe could learn.
 *
 * Field offsets come from the ABI table.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bpf_abi.h"
#include "caps.h"
#include "emit.h"
#include "header_runtime.h"
#include "outfile.h"
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

/* What a pointer probe's answer says. */
static enum bpfrr_ptr_sem classify(int32_t ret, int32_t kernel_errno)
{
	if (ret >= 0 || (kernel_errno && ret == -kernel_errno))
		return BPFRR_PTR_KERNEL;
	if (ret == -EFAULT)
		return BPFRR_PTR_USER;
	return BPFRR_PTR_UNKNOWN;
}

/*
 * A small text file whole (sysfs, procfs, the cache): malloc'd and
 * NUL-terminated, or NULL with errno set (EFBIG beyond max bytes, EINVAL
 * with a NUL inside).
 */
static char *read_text(const char *path, size_t max, int open_flags, struct stat *st)
{
	size_t len = 0;
	ssize_t got = 0;
	char *text;
	int fd, saved;

	fd = open(path, O_RDONLY | O_CLOEXEC | open_flags);
	if (fd < 0)
		return NULL;
	if (st && fstat(fd, st)) {
		saved = errno;
		close(fd);
		errno = saved;
		return NULL;
	}
	text = malloc(max + 1);
	if (!text) {
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	while (len < max + 1) {
		got = read(fd, text + len, max + 1 - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += (size_t)got;
		/* a regular file read short is at its end: one read, not two (the cache) */
		if (st && S_ISREG(st->st_mode) && len <= max && (off_t)len >= st->st_size)
			break;
	}
	saved = got < 0 ? errno : len > max ? EFBIG : 0;
	close(fd);
	if (!saved && memchr(text, '\0', len))
		saved = EINVAL;
	if (saved) {
		free(text);
		errno = saved;
		return NULL;
	}
	text[len] = '\0';
	return text;
}

/* Set a pointer's treatment from a probe answer. */
static void set_probed(struct bpfrr_caps *caps, int cmd, const char *path, int32_t answer,
		       int32_t kernel_errno)
{
	if (answer == 1 || bpfrr_caps_ptr(caps, cmd, path) != BPFRR_PTR_UNKNOWN)
		return;
	bpfrr_caps_set_ptr(caps, cmd, path, classify(answer, kernel_errno), answer < 0 ? answer : 0,
			   "probed");
}

/* The probe programs of a kernel without the list: commands, then pointers. */
static int run_probe_programs(struct bpfrr_caps *caps, char *err, size_t err_size)
{
	int32_t answers[P_NR] = { 1, 1, 1, 1 };
	struct bpfrr_caps probed;
	uint64_t accepted = 0;
	int ret;

	memset(&probed, 0, sizeof(probed));
	ret = probe_cmds(&probed, &accepted, err, err_size);
	if (ret)
		return ret;
	bpfrr_caps_init(caps, accepted, "probed");
	memcpy(caps->cmd_probe_ret, probed.cmd_probe_ret, sizeof(caps->cmd_probe_ret));
	caps->nr_probed_cmds = probed.nr_probed_cmds;
	ret = probe_ptrs(caps, answers, err, err_size);
	if (ret)
		return ret;
	set_probed(caps, BPFRR_CMD_PROG_LOAD, "attr.log_buf", answers[P_LOG_PROG], 0);
	set_probed(caps, BPFRR_CMD_BTF_LOAD, "attr.btf_log_buf", answers[P_LOG_BTF], 0);
	if (answers[P_RAWTP_NAME] != 1)
		set_probed(caps, BPFRR_CMD_RAW_TRACEPOINT_OPEN, "attr.raw_tracepoint.name", answers[P_RAWTP_NAME],
			   ENOENT);
	return 0;
}

/*
 * The pointers the pointer probe would ask about, on a kernel with the
 * list: a command it accepts without naming the pointer reads it as a user
 * address (the list's contract, Documentation/ABI/testing/sysfs-kernel-bpf
 * in kernel/patches/0002).  What the probe would have answered, without
 * running it.
 */
static void list_user_ptrs(struct bpfrr_caps *caps)
{
	static const struct {
		int cmd;
		const char *path;
	} probed[] = {
		{ BPFRR_CMD_PROG_LOAD, "attr.log_buf" },
		{ BPFRR_CMD_BTF_LOAD, "attr.btf_log_buf" },
		{ BPFRR_CMD_RAW_TRACEPOINT_OPEN, "attr.raw_tracepoint.name" },
	};
	size_t i;

	for (i = 0; i < sizeof(probed) / sizeof(probed[0]); i++)
		if (bpfrr_caps_cmd(caps, probed[i].cmd) &&
		    bpfrr_caps_ptr(caps, probed[i].cmd, probed[i].path) == BPFRR_PTR_UNKNOWN)
			bpfrr_caps_set_ptr(caps, probed[i].cmd, probed[i].path, BPFRR_PTR_USER, 0,
					   "not in kernel's list");
}

/* --- the per-boot cache of a probe ------------------------------------------- */

#define CACHE_MAGIC	"bpfrr-caps-cache 1"
#define CACHE_MAX	65536

const char *bpfrr_caps_cache_path(char *buf, size_t size)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	int n;

	if (geteuid() == 0)
		n = snprintf(buf, size, "/run/bpfrr/caps");
	else if (xdg && xdg[0] == '/')
		n = snprintf(buf, size, "%s/bpfrr/caps", xdg);
	else
		return NULL;
	return n > 0 && (size_t)n < size ? buf : NULL;
}

/* Owned by root or by us, writable by no one else: what we may believe. */
static bool trusted(const struct stat *st)
{
	return (st->st_uid == 0 || st->st_uid == geteuid()) && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

/* The cache file's directory is ours alone (made if missing and create); false with why. */
static bool cache_dir_ok(const char *cache, bool create, char *why, size_t why_size)
{
	char dir[sizeof(((struct bpfrr_caps *)0)->cache)];
	struct stat st;
	char *slash;

	snprintf(dir, sizeof(dir), "%s", cache);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir) {
		snprintf(why, why_size, "no directory of its own");
		return false;
	}
	*slash = '\0';
	if (create && mkdir(dir, 0755) && errno != EEXIST) {
		snprintf(why, why_size, "mkdir %.50s: %s", dir, strerror(errno));
		return false;
	}
	if (lstat(dir, &st)) {
		if (errno == ENOENT)
			why[0] = '\0';	/* no cache yet: nothing to say */
		else
			snprintf(why, why_size, "%.50s: %s", dir, strerror(errno));
		return false;
	}
	if (!S_ISDIR(st.st_mode) || !trusted(&st)) {
		snprintf(why, why_size, "%.40s: not root's alone or ours", dir);
		return false;
	}
	return true;
}

/* The kernel's GNU build id from its notes (hex), or "" if it has none. */
static void kernel_build_id(const char *notes_path, char *hex, size_t size)
{
	uint8_t notes[4096];
	ssize_t len;
	size_t off = 0;
	int fd;

	hex[0] = '\0';
	fd = open(notes_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	len = read(fd, notes, sizeof(notes));
	close(fd);
	while (len > 0 && off + 12 <= (size_t)len) {
		uint32_t namesz, descsz, type;
		size_t name_at = off + 12, desc_at, next, i;

		memcpy(&namesz, notes + off, 4);
		memcpy(&descsz, notes + off + 4, 4);
		memcpy(&type, notes + off + 8, 4);
		if (namesz > 64 || descsz > 256)
			return;
		desc_at = name_at + ((namesz + 3) & ~3u);
		next = desc_at + ((descsz + 3) & ~3u);
		if (next > (size_t)len)
			return;
		if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 && !memcmp(notes + name_at, "GNU", 4) &&
		    descsz && descsz * 2 < size) {
			for (i = 0; i < descsz; i++)
				snprintf(hex + 2 * i, 3, "%02x", notes[desc_at + i]);
			return;
		}
		off = next;
	}
}

/*
 * What a cache must have been written for: this bpfrr (its version and
 * ABI table), this boot, this kernel build.  0 and the key's lines, or -1
 * without a boot id (then nothing is cached).
 */
static int cache_key(const struct bpfrr_probe_env *env, const struct utsname *u, char *key, size_t size)
{
	char build[160], *boot;
	size_t n;

	boot = read_text(env->boot_id, 64, 0, NULL);
	if (!boot)
		return -1;
	n = strcspn(boot, "\n");
	boot[n] = '\0';
	if (n < 16 || strspn(boot, "0123456789abcdef-") != n) {
		free(boot);
		return -1;
	}
	kernel_build_id(env->notes, build, sizeof(build));
	if (!build[0]) {
		/* no build id note: the build's name and its version string */
		snprintf(build, sizeof(build), "uname %.64s %.80s", u->release, u->version);
	}
	snprintf(key, size, "bpfrr %s abi %d\nboot %s\nkernel %s\n", BPFRR_VERSION, BPFRR_ABI_NR_CMDS, boot,
		 build);
	free(boot);
	return 0;
}

/* The cache's text for caps under key. */
static char *cache_format(const struct bpfrr_caps *caps, const char *key, size_t *len)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	uint32_t i;

	if (!f)
		return NULL;
	fprintf(f, "%s\n%ssource %s\ncmds %llx\nprobed %u", CACHE_MAGIC, key, caps->source,
		(unsigned long long)caps->sys_bpf_cmds, caps->nr_probed_cmds);
	for (i = 0; i < caps->nr_probed_cmds && i < BPFRR_CAPS_MAX_CMDS; i++)
		fprintf(f, " %d", caps->cmd_probe_ret[i]);
	fprintf(f, "\n");
	for (i = 0; i < caps->nr_ptrs; i++)
		fprintf(f, "ptr %d %u %d %s %s\n", caps->ptrs[i].cmd, caps->ptrs[i].sem, caps->ptrs[i].probe_ret,
			caps->ptrs[i].path, caps->ptrs[i].basis);
	fprintf(f, "end\n");
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	*len = size;
	return text;
}

/* Caps from a cache's text, if it is whole and written under key; false with why. */
static bool cache_parse(struct bpfrr_caps *caps, const char *text, const char *key, char *why, size_t why_size)
{
	size_t magic_len = strlen(CACHE_MAGIC), key_len = strlen(key);
	const char *p = text, *end;
	unsigned long long cmds;
	unsigned int nr, i;
	int n;

	memset(caps, 0, sizeof(*caps));
	if (strncmp(p, CACHE_MAGIC, magic_len) || p[magic_len] != '\n') {
		snprintf(why, why_size, "not a cache of this version");
		return false;
	}
	p += magic_len + 1;
	if (strncmp(p, key, key_len)) {
		snprintf(why, why_size, "written for another boot, kernel or bpfrr");
		return false;
	}
	p += key_len;
	end = strchr(p, '\n');
	if (strncmp(p, "source ", 7) || !end || (size_t)(end - p - 7) >= sizeof(caps->source))
		goto bad;
	memcpy(caps->source, p + 7, (size_t)(end - p - 7));
	p = end + 1;
	if (sscanf(p, "cmds %llx\nprobed %u%n", &cmds, &nr, &n) != 2 || nr > BPFRR_CAPS_MAX_CMDS)
		goto bad;
	caps->sys_bpf_cmds = cmds;
	caps->nr_probed_cmds = nr;
	p += n;
	for (i = 0; i < nr; i++) {
		if (sscanf(p, " %d%n", &caps->cmd_probe_ret[i], &n) != 1)
			goto bad;
		p += n;
	}
	if (*p++ != '\n')
		goto bad;
	while (!strncmp(p, "ptr ", 4)) {
		char path[BPFRR_CAPS_PATH_MAX], basis[32];
		int cmd, probe_ret;
		unsigned int sem;

		end = strchr(p, '\n');
		if (!end || end - p > 200)
			goto bad;
		if (sscanf(p, "ptr %d %u %d %63s %31[^\n]%n", &cmd, &sem, &probe_ret, path, basis, &n) != 5 ||
		    p + n != end || cmd < 0 || cmd >= BPFRR_CAPS_MAX_CMDS || sem > BPFRR_PTR_USER ||
		    bpfrr_caps_set_ptr(caps, cmd, path, sem, probe_ret, basis))
			goto bad;
		p = end + 1;
	}
	if (strcmp(p, "end\n"))
		goto bad;
	return true;
bad:
	snprintf(why, why_size, "not a whole cache");
	return false;
}

/* This boot's cached caps, if trustworthy; false with why (nothing, or why it was ignored). */
static bool cache_load(struct bpfrr_caps *caps, const char *cache, const char *key, char *why, size_t why_size)
{
	struct stat st;
	char *text;
	bool ok;

	if (!cache_dir_ok(cache, false, why, why_size))
		return false;
	text = read_text(cache, CACHE_MAX, O_NOFOLLOW | O_NONBLOCK, &st);
	if (!text) {
		if (errno == ENOENT)
			why[0] = '\0';	/* none yet: nothing to say */
		else
			snprintf(why, why_size, "%s", strerror(errno));
		return false;
	}
	if (!S_ISREG(st.st_mode) || !trusted(&st)) {
		snprintf(why, why_size, "not a regular file, root's alone or ours");
		free(text);
		return false;
	}
	ok = cache_parse(caps, text, key, why, why_size);
	free(text);
	return ok;
}

/* Keep caps for the rest of this boot; false with why. */
static bool cache_store(const struct bpfrr_caps *caps, const char *cache, const char *key, char *why,
			size_t why_size)
{
	struct bpfrr_outfile o;
	struct stat st;
	size_t len = 0;
	char *text;
	int ret;

	if (!cache_dir_ok(cache, true, why, why_size))
		return false;
	/* one we would not believe goes: a replaced file would keep its mode */
	if (!lstat(cache, &st) && (!S_ISREG(st.st_mode) || !trusted(&st)) && unlink(cache)) {
		snprintf(why, why_size, "removing the untrusted %.40s: %s", cache, strerror(errno));
		return false;
	}
	text = cache_format(caps, key, &len);
	if (!text) {
		snprintf(why, why_size, "out of memory");
		return false;
	}
	ret = bpfrr_outfile_open(&o, cache, why, why_size);
	if (!ret && o.tmp && fchmod(fileno(o.f), 0644)) {
		snprintf(why, why_size, "%.50s: %s", cache, strerror(errno));
		bpfrr_outfile_abort(&o);
		ret = -1;
	}
	if (!ret) {
		fwrite(text, 1, len, o.f);
		ret = bpfrr_outfile_commit(&o, why, why_size);
	}
	free(text);
	return !ret;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Caps of a kernel with the list: no program runs. */
static int caps_from_list(struct bpfrr_caps *caps, char *list, unsigned int flags,
			  const struct bpfrr_probe_env *env, const char *release, char *err, size_t err_size)
{
	char source[64], why[128];
	int32_t id = 0;
	int ret;

	snprintf(source, sizeof(source), "kernel's list on %.40s", release);
	ret = bpfrr_caps_parse_list(caps, list, source, why, sizeof(why));
	if (ret) {
		snprintf(err, err_size, "%s: %s", env->cmds_list, why);
		return ret;
	}
	list_user_ptrs(caps);
	caps->origin = BPFRR_CAPS_FROM_LIST;
	if (!(flags & BPFRR_CAPS_PROBE_PERF)) {
		caps->perf_event_open_unknown = true;
		return 0;
	}
	/*
	 * The kfunc comes with the series that also adds the list (kernel/
	 * series: 0002 before 0009); its own list of kfuncs came later, so a
	 * patched kernel without that one is scanned as before.
	 */
	ret = bpfrr_rt_kfunc_list_lookup(env->kfuncs_list, BPFRR_RT_PERF_KFUNC, &id);
	if (ret == 1) {
		snprintf(caps->perf_event_open_basis, sizeof(caps->perf_event_open_basis), "kernel's kfunc list");
	} else if (ret == -ENOENT) {
		id = bpfrr_rt_kfunc_btf_id_at(env->kfuncs_list, env->vmlinux_btf, BPFRR_RT_PERF_KFUNC);
		snprintf(caps->perf_event_open_basis, sizeof(caps->perf_event_open_basis), "kernel's BTF");
	} else if (ret < 0) {
		snprintf(err, err_size, "%s: %s", env->kfuncs_list,
			 ret == -EINVAL ? "not '<btf_id> <name>' lines" : strerror(-ret));
		return ret;
	}
	if (id > 0) {
		caps->perf_event_open = true;
		caps->perf_event_open_btf_id = id;
	} else {
		caps->perf_event_open_basis[0] = '\0';
	}
	return 0;
}

/* Caps of a kernel without the list: this boot's cache, or the probe programs (then cached). */
static int caps_from_probe(struct bpfrr_caps *caps, unsigned int flags, const struct bpfrr_probe_env *env,
			   const struct utsname *u, char *err, size_t err_size)
{
	char key[512], why[sizeof(caps->cache_note)] = "";
	bool keyed = env->cache && !cache_key(env, u, key, sizeof(key));
	int ret;

	if (keyed && cache_load(caps, env->cache, key, why, sizeof(why))) {
		caps->origin = BPFRR_CAPS_FROM_CACHE;
	} else {
		ret = (env->run_probes ? env->run_probes : run_probe_programs)(caps, err, err_size);
		if (ret)
			return ret;
		snprintf(caps->source, sizeof(caps->source), "probed on %.40s", u->release);
		caps->origin = BPFRR_CAPS_FROM_PROBE;
		if (why[0])
			snprintf(caps->cache_note, sizeof(caps->cache_note), "ignored (%.70s)", why);
		else if (env->cache && !keyed)
			snprintf(caps->cache_note, sizeof(caps->cache_note), "none: no boot id in %.60s", env->boot_id);
		why[0] = '\0';
		if (keyed && !cache_store(caps, env->cache, key, why, sizeof(why)) && !caps->cache_note[0])
			snprintf(caps->cache_note, sizeof(caps->cache_note), "not written (%.70s)", why);
	}
	if (keyed)
		snprintf(caps->cache, sizeof(caps->cache), "%s", env->cache);
	/* no list, no kfunc: the series brings both */
	caps->perf_event_open = false;
	caps->perf_event_open_btf_id = 0;
	caps->perf_event_open_unknown = !(flags & BPFRR_CAPS_PROBE_PERF);
	return 0;
}

int bpfrr_caps_probe_env(struct bpfrr_caps *caps, unsigned int flags, const struct bpfrr_probe_env *env,
			 char *err, size_t err_size)
{
	uint64_t t0 = now_ns();
	struct utsname u;
	char *list;
	int ret;

	memset(caps, 0, sizeof(*caps));
	if (uname(&u)) {
		snprintf(u.release, sizeof(u.release), "?");
		snprintf(u.version, sizeof(u.version), "?");
	}
	list = read_text(env->cmds_list, CACHE_MAX, 0, NULL);
	if (!list && errno != ENOENT) {
		ret = -errno;
		snprintf(err, err_size, "%s: %s", env->cmds_list, strerror(-ret));
		return ret;
	}
	if (list)
		ret = caps_from_list(caps, list, flags, env, u.release, err, err_size);
	else
		ret = caps_from_probe(caps, flags, env, &u, err, err_size);
	free(list);
	caps->probe_ns = now_ns() - t0;
	return ret;
}

int bpfrr_caps_probe(struct bpfrr_caps *caps, unsigned int flags, char *err, size_t err_size)
{
	char cache[sizeof(caps->cache)];
	const struct bpfrr_probe_env env = {
		.cmds_list = BPFRR_CAPS_SYSFS,
		.kfuncs_list = BPFRR_RT_KFUNCS_LIST,
		.vmlinux_btf = BPFRR_RT_VMLINUX_BTF,
		.boot_id = BPFRR_BOOT_ID,
		.notes = BPFRR_KERNEL_NOTES,
		.cache = bpfrr_caps_cache_path(cache, sizeof(cache)),
	};

	return bpfrr_caps_probe_env(caps, flags, &env, err, err_size);
}

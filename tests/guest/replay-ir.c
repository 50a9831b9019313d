// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay-ir: drives the replayer library in a bpfrr guest with the
 * hand-built sample IR (replay-sample.h: BTF, a BTF-typed hash map, a
 * socket filter using the map, a map update).  Guest only: it issues bpf().
 *
 *   replay-ir check          every check below; one "ok"/"FAIL" line each
 *   replay-ir bundle DIR     write DIR/sample.bundle (identities from an
 *                            original load made here), DIR/fail.bundle and
 *                            DIR/badprog.bundle, for the CLI tests
 *   replay-ir poke BUNDLE OUT VAR
 *                            BUNDLE with one bit of the .rodata/.data
 *                            variable VAR changed where a map update stores
 *                            it, as OUT (verify-contents.t); no bpf()
 *
 * The checks:
 *  - the probe finds at least stock 6.12's nine bpf_sys_bpf commands;
 *  - an "original" load (every call in user space, as the recorded loader
 *    made them) gives the program tag the replays must reproduce;
 *  - the in-kernel replay makes all four calls in one loader run, the
 *    objects verify (types, sizes, names, BTF size, prog tag), the map
 *    holds the value the update stored, and the replayed program works:
 *    BPF_PROG_RUN bumps the element it looks up through its relocated
 *    ld_imm64;
 *  - a replay whose last call fails reports that call (seq, errno) and
 *    leaves no program, map, BTF or link behind (none with an id above
 *    the highest before the replay), in kernel and in user space;
 *  - a program the verifier refuses is reported with the verifier's log,
 *    again leaving nothing behind;
 *  - a raw tracepoint link made by the loader, its tracepoint name in the
 *    replayer's memory where the kernel wants a user pointer;
 *  - symbols by name: a BTF id this kernel has is written into the replayed
 *    attr (the one libbpf finds); one it lacks, a call bound to another
 *    kernel build and a bundle of another architecture are each refused in
 *    one line before anything is made; the same build replays.
 *
 * Exit status 0 when every check passed, 1 otherwise.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bundle.h"
#include "caps.h"
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/btf.h>

#include "exec.h"
#include "kernel_build.h"
#include "probe.h"
#include "replay.h"
#include "replay-sample.h"

static int failures;

static void check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", ok ? "ok" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!ok)
		failures++;
}

/* The highest id of each kind of object: objects made later have higher ids. */
struct ids {
	uint32_t prog, map, btf, link;
};

/* Walks the ids of one kind; returns the highest and counts those above 'above'. */
static uint32_t walk_ids(int cmd, uint32_t above, uint32_t *nr_above)
{
	union bpf_attr attr;
	uint32_t id = 0;

	*nr_above = 0;
	for (;;) {
		memset(&attr, 0, sizeof(attr));
		attr.start_id = id;
		if (bpfrr_sys_bpf(cmd, &attr, sizeof(attr)))
			return id;
		id = attr.next_id;
		*nr_above += id > above;
	}
}

static struct ids highest_ids(void)
{
	struct ids h;
	uint32_t n;

	h.prog = walk_ids(BPF_PROG_GET_NEXT_ID, 0, &n);
	h.map = walk_ids(BPF_MAP_GET_NEXT_ID, 0, &n);
	h.btf = walk_ids(BPF_BTF_GET_NEXT_ID, 0, &n);
	h.link = walk_ids(BPF_LINK_GET_NEXT_ID, 0, &n);
	return h;
}

/*
 * No object made since 'before' is left: no program, map, BTF or link with
 * a higher id.  Freeing a program drops its map references from an RCU
 * callback, so maps (the loader's blob map among them) may leave the id
 * table a moment after their last fd is closed: wait up to two seconds.
 */
static void check_nothing_left(const struct ids *before, const char *what)
{
	uint32_t progs = 0, maps = 0, btfs = 0, links = 0;
	int i;

	for (i = 0; i < 200; i++) {
		walk_ids(BPF_PROG_GET_NEXT_ID, before->prog, &progs);
		walk_ids(BPF_MAP_GET_NEXT_ID, before->map, &maps);
		walk_ids(BPF_BTF_GET_NEXT_ID, before->btf, &btfs);
		walk_ids(BPF_LINK_GET_NEXT_ID, before->link, &links);
		if (!progs && !maps && !btfs && !links)
			break;
		usleep(10000);
	}
	check(!progs && !maps && !btfs && !links,
	      "%s: %u progs, %u maps, %u BTF, %u links newer than before", what, progs, maps, btfs, links);
}

static int get_prog_info(int fd, struct bpf_prog_info *info)
{
	union bpf_attr attr;

	memset(info, 0, sizeof(*info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info_len = sizeof(*info);
	attr.info.info = (uintptr_t)info;
	return bpfrr_sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr));
}

static int lookup(int map_fd, uint32_t key, uint64_t *value)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	attr.key = (uintptr_t)&key;
	attr.value = (uintptr_t)value;
	return bpfrr_sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr, sizeof(attr));
}

static int run_filter(int prog_fd)
{
	uint8_t packet[64] = { 0 };
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog_fd;
	attr.test.data_in = (uintptr_t)packet;
	attr.test.data_size_in = sizeof(packet);
	attr.test.repeat = 1;
	return bpfrr_sys_bpf(BPF_PROG_TEST_RUN, &attr, sizeof(attr));
}

/*
 * The "recording": make the sample's calls from user space, as the original
 * loader did, and keep what the kernel says about the program as its
 * recorded identity.
 */
static int original_load(struct bpfrr_ir *ir)
{
	struct bpfrr_replay_opts o = { 0 };
	struct bpfrr_caps none;
	struct bpf_prog_info info;
	struct bpfrr_replay r;
	int ret;

	bpfrr_caps_assume(&none, "none");
	o.caps = &none;
	ret = bpfrr_replay_run(&r, ir, &o);
	check(ret == 0, "original load (all calls from user space): %s", ret ? r.error : "done");
	if (ret) {
		bpfrr_replay_close(&r);
		return ret;
	}
	ret = get_prog_info(r.fds[SAMPLE_SLOT_PROG], &info);
	check(ret == 0, "program info of the original load");
	if (!ret) {
		struct bpfrr_ir_ident *id = &ir->slots[SAMPLE_SLOT_PROG].ident;

		memcpy(id->tag, info.tag, 8);
		id->have |= BPFRR_ID_TAG;
	}
	bpfrr_replay_close(&r);
	return ret;
}

static struct bpfrr_ir *recorded_sample(unsigned int flags)
{
	struct bpfrr_ir *ir = sample_ir(flags);

	if (!ir) {
		check(0, "building the sample IR");
		return NULL;
	}
	if (!(flags & SAMPLE_BAD_PROG)) {
		struct bpfrr_ir *plain = sample_ir(0);

		if (original_load(plain)) {
			bpfrr_ir_free(plain);
			bpfrr_ir_free(ir);
			return NULL;
		}
		ir->slots[SAMPLE_SLOT_PROG].ident = plain->slots[SAMPLE_SLOT_PROG].ident;
		bpfrr_ir_free(plain);
	}
	return ir;
}

static void check_probe(struct bpfrr_caps *caps)
{
	static const int stock_cmds[] = { BPF_MAP_CREATE, BPF_MAP_UPDATE_ELEM, BPF_MAP_DELETE_ELEM,
					  BPF_MAP_FREEZE, BPF_MAP_GET_FD_BY_ID, BPF_PROG_LOAD, BPF_BTF_LOAD,
					  BPF_LINK_CREATE, BPF_RAW_TRACEPOINT_OPEN };
	char err[256];
	size_t i;
	int ret, missing = 0;

	ret = bpfrr_caps_probe(caps, BPFRR_CAPS_PROBE_PERF, err, sizeof(err));
	check(ret == 0, "probing the kernel's syscall programs%s%s", ret ? ": " : "", ret ? err : "");
	if (ret)
		return;
	bpfrr_caps_print(caps, stdout);
	for (i = 0; i < sizeof(stock_cmds) / sizeof(stock_cmds[0]); i++)
		missing += !bpfrr_caps_cmd(caps, stock_cmds[i]);
	check(!missing, "the nine commands of stock 6.12's bpf_sys_bpf are accepted (%d missing)", missing);
	check(!bpfrr_caps_cmd(caps, BPF_PROG_TEST_RUN), "BPF_PROG_TEST_RUN is refused (%d)",
	      caps->cmd_probe_ret[BPF_PROG_TEST_RUN]);
	check(bpfrr_caps_ptr(caps, BPF_PROG_LOAD, "attr.log_buf") != BPFRR_PTR_UNKNOWN &&
	      bpfrr_caps_ptr(caps, BPF_BTF_LOAD, "attr.btf_log_buf") != BPFRR_PTR_UNKNOWN &&
	      bpfrr_caps_ptr(caps, BPF_RAW_TRACEPOINT_OPEN, "attr.raw_tracepoint.name") != BPFRR_PTR_UNKNOWN,
	      "the pointer probes classified log_buf, btf_log_buf and raw_tracepoint.name");
}

static void check_success(const struct bpfrr_caps *caps, int in_kernel)
{
	struct bpfrr_replay_opts o = { .caps = caps };
	const char *how = in_kernel ? "in-kernel replay" : "user-space replay";
	struct bpfrr_caps none;
	struct bpfrr_ir *ir = recorded_sample(0);
	struct ids before = highest_ids();
	struct bpfrr_replay r;
	uint64_t value = 0;
	int ret;

	if (!ir)
		return;
	if (!in_kernel) {
		bpfrr_caps_assume(&none, "none");
		o.caps = &none;
	}
	ret = bpfrr_replay_run(&r, ir, &o);
	check(ret == 0, "%s of the sample: %s", how, ret ? r.error : "done");
	if (ret) {
		if (r.log)
			printf("%s\n", r.log);
		goto out;
	}
	if (in_kernel)
		check(r.nr_loader_runs == 1 && r.nr_kernel_calls == 4 && r.nr_user_calls == 0,
		      "%s: %u loader run(s), %u calls in kernel, %u in user space (%u insns, %u-byte blob)",
		      how, r.nr_loader_runs, r.nr_kernel_calls, r.nr_user_calls, r.loader_insns, r.loader_blob);
	else
		check(r.nr_loader_runs == 0 && r.nr_user_calls == 4, "%s: %u calls in user space", how,
		      r.nr_user_calls);
	check(bpfrr_replay_verify(&r, stdout) == 0, "%s: objects match the recorded identities", how);
	ret = lookup(r.fds[SAMPLE_SLOT_MAP], SAMPLE_KEY, &value);
	check(ret == 0 && value == SAMPLE_VALUE, "%s: counts[%u] = %llu after the replayed update", how,
	      SAMPLE_KEY, (unsigned long long)value);
	check(run_filter(r.fds[SAMPLE_SLOT_PROG]) == 0, "%s: BPF_PROG_RUN of the replayed program", how);
	ret = lookup(r.fds[SAMPLE_SLOT_MAP], SAMPLE_KEY, &value);
	check(ret == 0 && value == SAMPLE_VALUE + 1,
	      "%s: the program bumped counts[%u] to %llu through its relocated map reference", how,
	      SAMPLE_KEY, (unsigned long long)value);
	printf("# %s times (ms): probe %.3f, codegen %.3f, load %.3f, run %.3f, user %.3f, total %.3f\n", how,
	       r.t_probe / 1e6, r.t_codegen / 1e6, r.t_load / 1e6, r.t_run / 1e6, r.t_user / 1e6,
	       r.t_total / 1e6);
out:
	bpfrr_replay_close(&r);
	bpfrr_ir_free(ir);
	check_nothing_left(&before, "after closing the replayed objects, none is left");
}

static void check_failure(const struct bpfrr_caps *caps, int in_kernel)
{
	struct bpfrr_replay_opts o = { .caps = caps };
	const char *how = in_kernel ? "in kernel" : "in user space";
	struct bpfrr_ir *ir = recorded_sample(SAMPLE_FAIL_LAST);
	struct ids before = highest_ids();
	struct bpfrr_caps none;
	struct bpfrr_replay r;
	int ret;

	if (!ir)
		return;
	if (!in_kernel) {
		bpfrr_caps_assume(&none, "none");
		o.caps = &none;
	}
	ret = bpfrr_replay_run(&r, ir, &o);
	check(ret == -ENOENT && r.failed_call == 4 && r.err == -ENOENT,
	      "failing last call %s: ret %d, call %d: %s", how, ret, r.failed_call, r.error);
	check(strstr(r.error, "seq 12 BPF_MAP_UPDATE_ELEM") != NULL, "the error names seq 12: %s", r.error);
	bpfrr_replay_close(&r);
	bpfrr_ir_free(ir);
	check_nothing_left(&before, "after the failed replay, nothing is left behind");
}

static void check_bad_prog(const struct bpfrr_caps *caps)
{
	struct bpfrr_replay_opts o = { .caps = caps };
	struct bpfrr_ir *ir = recorded_sample(SAMPLE_BAD_PROG);
	struct ids before = highest_ids();
	struct bpfrr_replay r;
	int ret;

	if (!ir)
		return;
	ret = bpfrr_replay_run(&r, ir, &o);
	check(ret == -EACCES && r.failed_call == 2, "a program the verifier refuses: ret %d, call %d: %s", ret,
	      r.failed_call, r.error);
	check(r.log && strstr(r.log, "R6 !read_ok"), "the verifier's log is shown: %.200s",
	      r.log ? r.log : "(none)");
	bpfrr_replay_close(&r);
	bpfrr_ir_free(ir);
	check_nothing_left(&before, "after the refused program, nothing is left behind");
}

/*
 * A raw tracepoint attached from the loader: on stock 6.12 the tracepoint
 * name is read as a user pointer even from a syscall program, so the loader
 * points it into the replayer's memory (the user image).
 */
static void check_raw_tp(const struct bpfrr_caps *caps)
{
	struct bpfrr_replay_opts o = { .caps = caps };
	struct bpfrr_ir *ir = recorded_sample(SAMPLE_RAW_TP);
	struct ids before = highest_ids();
	struct bpfrr_replay r;
	int ret, user = bpfrr_caps_ptr(caps, BPF_RAW_TRACEPOINT_OPEN, "attr.raw_tracepoint.name") ==
			BPFRR_PTR_USER;

	if (!ir)
		return;
	ret = bpfrr_replay_run(&r, ir, &o);
	check(ret == 0, "in-kernel replay with a raw tracepoint link: %s", ret ? r.error : "done");
	if (!ret) {
		check(r.nr_loader_runs == 1 && r.nr_kernel_calls == 6 && r.nr_user_calls == 0,
		      "all 6 calls in 1 loader run (%u runs, %u in kernel, %u in user space)", r.nr_loader_runs,
		      r.nr_kernel_calls, r.nr_user_calls);
		check(!user || r.loader_user >= 10, "the tracepoint name went to the user image (%u bytes): %s",
		      r.loader_user, user ? "a user pointer on this kernel" : "a kernel pointer on this kernel");
		check(bpfrr_replay_verify(&r, stdout) == 0, "the link is a raw tracepoint link of the replayed "
		      "program");
	}
	bpfrr_replay_close(&r);
	bpfrr_ir_free(ir);
	check_nothing_left(&before, "after closing the link, none is left");
}

/* The sample with a BTF id by name in its PROG_LOAD's kern_version (which a socket filter's load ignores). */
static struct bpfrr_ir *sample_with_symbol(const char *name, int *call)
{
	struct bpfrr_ir *ir = recorded_sample(0);
	uint32_t c;

	if (!ir)
		return NULL;
	for (c = 0; c < ir->nr_calls && ir->calls[c].cmd != BPF_PROG_LOAD; c++)
		;
	if (c == ir->nr_calls || bpfrr_ir_add_symbol_resolve(ir, c, BPFRR_IR_RESOLVE_BTF_ID, BPFRR_IR_IN_ATTR,
								offsetof(union bpf_attr, kern_version), name, "",
								BTF_KIND_FUNC, 0) < 0) {
		check(0, "adding a BTF id resolution to the sample");
		bpfrr_ir_free(ir);
		return NULL;
	}
	*call = (int)c;
	return ir;
}

static void check_symbols(const struct bpfrr_caps *caps)
{
	struct bpfrr_replay_opts o = { .caps = caps };
	struct btf *btf = btf__parse_raw(BPFRR_VMLINUX_BTF);
	struct ids before = highest_ids();
	struct bpfrr_kernel_build b;
	struct bpfrr_replay r;
	struct bpfrr_ir *ir;
	uint32_t got = 0;
	int c = 0, ret, want;

	if (!btf) {
		check(0, "reading %s", BPFRR_VMLINUX_BTF);
		return;
	}
	want = btf__find_by_name_kind(btf, "vfs_read", BTF_KIND_FUNC);
	btf__free(btf);
	/* a symbol this kernel has: its id is in the replayed attr */
	ir = sample_with_symbol("vfs_read", &c);
	if (!ir)
		return;
	ret = bpfrr_replay_run(&r, ir, &o);
	check(ret == 0, "a BTF id by name: %s", ret ? r.error : "replayed");
	if (!ret)
		memcpy(&got, r.ir->calls[c].attr + offsetof(union bpf_attr, kern_version), 4);
	check(!ret && want > 0 && got == (uint32_t)want, "the replayed attr holds vfs_read's id %d (%u)", want, got);
	bpfrr_replay_close(&r);
	bpfrr_ir_free(ir);

	/* one it lacks */
	ir = sample_with_symbol("bpfrr_no_such_function", &c);
	if (!ir)
		return;
	ret = bpfrr_replay_run(&r, ir, &o);
	check(ret == -ENOENT && r.refused && !strcmp(r.error, "seq 8 BPF_PROG_LOAD: kern_version: func "
						       "bpfrr_no_such_function is not in this kernel's BTF"),
	      "a symbol the kernel lacks is refused: %d: %s", ret, r.error);
	bpfrr_replay_close(&r);

	/*
	 * On the build it was recorded on, a BTF id stays the recorded number,
	 * not looked up (replay.c, resolve_values): the same name is replayed,
	 * and the marker in its place shows it was not.
	 */
	if (bpfrr_kernel_build_running(&b) ||
	    bpfrr_ir_set_kernel(ir, b.release, b.machine, b.btf_size, b.btf_sha256)) {
		check(0, "the running build, set on the sample");
		bpfrr_ir_free(ir);
		return;
	}
	got = 0x5eed;
	memcpy(ir->calls[c].attr + offsetof(union bpf_attr, kern_version), &got, 4);
	got = 0;
	ret = bpfrr_replay_run(&r, ir, &o);
	if (!ret)
		memcpy(&got, r.ir->calls[c].attr + offsetof(union bpf_attr, kern_version), 4);
	check(ret == 0 && got == 0x5eed, "on its own build a BTF id stays as recorded, not looked up: %s, %#x",
	      ret ? r.error : "replayed", got);
	bpfrr_replay_close(&r);

	/* bound to another build; then to this one */
	bpfrr_ir_free(ir);
	ir = recorded_sample(0);
	if (!ir || bpfrr_kernel_build_running(&b)) {
		check(0, "the sample, the running build");
		bpfrr_ir_free(ir);
		return;
	}
	for (c = 0; ir->calls[c].cmd != BPF_PROG_LOAD; c++)
		;
	b.btf_sha256[0] ^= 0xff;
	if (bpfrr_ir_set_kernel(ir, b.release, b.machine, b.btf_size, b.btf_sha256) ||
	    bpfrr_ir_set_build_bound(ir, c, "attach_btf_id 1234: no SYMBOL record names it")) {
		check(0, "marking the sample build-bound");
		bpfrr_ir_free(ir);
		return;
	}
	ret = bpfrr_replay_run(&r, ir, &o);
	check(ret == -ENOEXEC && r.refused && strstr(r.error, "seq 8 BPF_PROG_LOAD is bound to the kernel build it "
							     "was recorded on (attach_btf_id 1234: no SYMBOL "
							     "record names it): recorded on "),
	      "a build-bound call on another build is refused: %d: %s", ret, r.error);
	bpfrr_replay_close(&r);
	b.btf_sha256[0] ^= 0xff;
	bpfrr_ir_set_kernel(ir, b.release, b.machine, b.btf_size, b.btf_sha256);
	ret = bpfrr_replay_run(&r, ir, &o);
	check(ret == 0 && bpfrr_rt_same_build(ir), "a build-bound call on its own build replays: %s",
	      ret ? r.error : "replayed");
	bpfrr_replay_close(&r);

	/* another architecture */
	ir->arch = ir->arch == 62 ? 183 : 62;
	ret = bpfrr_replay_run(&r, ir, &o);
	check(ret == -ENOEXEC && r.refused && strstr(r.error, "bundle recorded on ") &&
	      strstr(r.error, ", this machine is "), "a bundle of another arch is refused: %s", r.error);
	bpfrr_replay_close(&r);
	bpfrr_ir_free(ir);
	check_nothing_left(&before, "after the symbol checks, nothing is left behind");
}

static int write_bundles(const char *dir)
{
	static const struct {
		const char *name;
		unsigned int flags;
	} bundles[] = { { "sample", 0 }, { "fail", SAMPLE_FAIL_LAST }, { "badprog", SAMPLE_BAD_PROG } };
	char path[4096], err[512];
	size_t i;

	for (i = 0; i < sizeof(bundles) / sizeof(bundles[0]); i++) {
		struct bpfrr_ir *ir = recorded_sample(bundles[i].flags);

		if (!ir)
			return 1;
		snprintf(path, sizeof(path), "%s/%s.bundle", dir, bundles[i].name);
		if (bpfrr_bundle_write(ir, path, err, sizeof(err))) {
			fprintf(stderr, "replay-ir: %s\n", err);
			bpfrr_ir_free(ir);
			return 1;
		}
		bpfrr_ir_free(ir);
	}
	return failures ? 1 : 0;
}

/* The BTF buffer of the BTF_LOAD that made slot, or -1. */
static int btf_buf_of_slot(const struct bpfrr_ir *ir, uint32_t slot, const struct bpfrr_ir_call **bc)
{
	uint32_t i;

	if (slot >= ir->nr_slots || ir->slots[slot].producer < 0)
		return -1;
	*bc = &ir->calls[ir->slots[slot].producer];
	for (i = 0; i < (*bc)->nr_bufs; i++)
		if ((*bc)->bufs[i].path && !strcmp((*bc)->bufs[i].path, "attr.btf") && (*bc)->bufs[i].data)
			return (int)i;
	return -1;
}

/*
 * poke: flip the low bit of the first byte of the DATASEC variable var in the
 * value a MAP_UPDATE_ELEM of the bundle stores (a .rodata constant), and write
 * the bundle again (its CRCs recomputed).  The map's contents, the reference
 * --verify compares with, are left as recorded: the replay must report it.
 */
static int poke(const char *in, const char *out, const char *var)
{
	const struct bpfrr_field *fd_f = bpfrr_abi_cmd_field(BPFRR_CMD_MAP_UPDATE_ELEM, "map_fd");
	const struct bpfrr_field *bf = bpfrr_abi_cmd_field(BPFRR_CMD_MAP_CREATE, "btf_fd");
	const struct bpfrr_field *vt = bpfrr_abi_cmd_field(BPFRR_CMD_MAP_CREATE, "btf_value_type_id");
	char err[512];
	struct bpfrr_ir *ir = bpfrr_bundle_read(in, err, sizeof(err));
	uint32_t i, j, k;

	if (!ir) {
		fprintf(stderr, "replay-ir: %s\n", err);
		return 1;
	}
	for (i = 0; i < ir->nr_calls; i++) {
		struct bpfrr_ir_call *c = &ir->calls[i];

		if (c->op != BPFRR_IR_BPF || c->cmd != BPFRR_CMD_MAP_UPDATE_ELEM)
			continue;
		for (j = 0; j < c->nr_fdrels; j++) {
			const struct bpfrr_ir_call *mc, *bc;
			const struct bpfrr_ir_slot *ms;
			const struct btf_var_secinfo *vs;
			const struct btf_type *t;
			struct bpfrr_ir_buf *val = NULL;
			struct btf *btf;
			int b;

			if (c->fdrels[j].buf != BPFRR_IR_IN_ATTR || c->fdrels[j].offset != fd_f->offset)
				continue;
			ms = &ir->slots[c->fdrels[j].slot];
			mc = ms->producer >= 0 ? &ir->calls[ms->producer] : NULL;
			if (!mc || mc->cmd != BPFRR_CMD_MAP_CREATE)
				continue;
			for (k = 0; k < mc->nr_fdrels; k++)
				if (mc->fdrels[k].buf == BPFRR_IR_IN_ATTR && mc->fdrels[k].offset == bf->offset)
					break;
			b = k < mc->nr_fdrels ? btf_buf_of_slot(ir, mc->fdrels[k].slot, &bc) : -1;
			btf = b >= 0 ? btf__new(bc->bufs[b].data, bc->bufs[b].len) : NULL;
			t = btf ? btf__type_by_id(btf, (uint32_t)bpfrr_abi_field_get(vt, mc->attr, mc->attr_size)) : NULL;
			for (k = 0; k < c->nr_bufs; k++)
				if (!strcmp(c->bufs[k].path, "attr.value"))
					val = &c->bufs[k];
			for (k = 0; t && val && btf_is_datasec(t) && k < btf_vlen(t); k++) {
				const struct btf_type *v;

				vs = btf_var_secinfos(t) + k;
				v = btf__type_by_id(btf, vs->type);
				if (!v || strcmp(btf__name_by_offset(btf, v->name_off), var) || vs->offset >= val->len)
					continue;
				val->data[vs->offset] ^= 1;
				printf("poked %s (byte %u of %s, seq %llu)\n", var, vs->offset,
				       ms->name ? ms->name : "?", (unsigned long long)c->seq);
				btf__free(btf);
				if (bpfrr_bundle_write(ir, out, err, sizeof(err))) {
					fprintf(stderr, "replay-ir: %s\n", err);
					bpfrr_ir_free(ir);
					return 1;
				}
				bpfrr_ir_free(ir);
				return 0;
			}
			btf__free(btf);
		}
	}
	fprintf(stderr, "replay-ir: no map update stores a variable %s\n", var);
	bpfrr_ir_free(ir);
	return 1;
}

int main(int argc, char **argv)
{
	struct bpfrr_caps caps;

	if (argc == 3 && !strcmp(argv[1], "bundle"))
		return write_bundles(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "poke"))
		return poke(argv[2], argv[3], argv[4]);
	if (argc != 2 || strcmp(argv[1], "check")) {
		fprintf(stderr, "usage: replay-ir check | replay-ir bundle DIR | replay-ir poke BUNDLE OUT VAR\n");
		return 2;
	}
	check_probe(&caps);
	if (failures)
		return 1;
	check_success(&caps, 1);
	check_success(&caps, 0);
	check_failure(&caps, 1);
	check_failure(&caps, 0);
	check_bad_prog(&caps);
	check_raw_tp(&caps);
	check_symbols(&caps);
	printf("%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}

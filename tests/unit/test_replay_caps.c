// SPDX-License-Identifier: GPL-2.0-only
/*
 * How `bpfrr replay` finds the running kernel's caps (replayer/runtime/
 * probe.h) without loading a program where it need not: the kernel's list
 * and its list of kfuncs (fake files here), the BTF scan of a patched kernel
 * older than the kfunc list, and on a kernel without the list this boot's
 * cache of a probe: written after a probe, believed on the next run, ignored
 * when stale (another boot id or build id), foreign (group- or
 * other-writable, its directory too) or not whole.  The probe programs are
 * replaced by a fake that counts its runs: nothing here issues bpf().
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bpf_abi.h"
#include "caps.h"
#include "header_runtime.h"
#include "probe.h"

static char dir[64];
static char p_cmds[128], p_kfuncs[128], p_btf[128], p_boot[128], p_notes[128], p_cache_dir[128], p_cache[160];
static int probe_runs;

static void put_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

static void put_text(const char *path, const char *text)
{
	put_file(path, text, strlen(text));
}

/* The fake probe: what stock 6.12 answers. */
static int fake_probe(struct bpfrr_caps *caps, char *err, size_t err_size)
{
	(void)err;
	(void)err_size;
	probe_runs++;
	ck_assert_int_eq(bpfrr_caps_assume(caps, "stock-6.12"), 0);
	caps->cmd_probe_ret[0] = -E2BIG;
	caps->nr_probed_cmds = 1;
	return 0;
}

static struct bpfrr_probe_env env(void)
{
	return (struct bpfrr_probe_env){
		.cmds_list = p_cmds, .kfuncs_list = p_kfuncs, .vmlinux_btf = p_btf, .boot_id = p_boot,
		.notes = p_notes, .cache = p_cache, .run_probes = fake_probe,
	};
}

static int probe(struct bpfrr_caps *caps, unsigned int flags)
{
	struct bpfrr_probe_env e = env();
	char err[256] = "";
	int ret = bpfrr_caps_probe_env(caps, flags, &e, err, sizeof(err));

	if (ret)
		fprintf(stderr, "# probe: %s\n", err);
	return ret;
}

/* An ELF note section with a GNU build id of 20 bytes of b. */
static void put_notes(uint8_t b)
{
	uint8_t notes[12 + 4 + 20];
	uint32_t hdr[3] = { 4, 20, 3 };

	memcpy(notes, hdr, sizeof(hdr));
	memcpy(notes + 12, "GNU", 4);
	memset(notes + 16, b, 20);
	put_file(p_notes, notes, sizeof(notes));
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/bpfrr-test-caps.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(p_cmds, sizeof(p_cmds), "%s/syscall_prog_cmds", dir);
	snprintf(p_kfuncs, sizeof(p_kfuncs), "%s/syscall_prog_kfuncs", dir);
	snprintf(p_btf, sizeof(p_btf), "%s/vmlinux", dir);
	snprintf(p_boot, sizeof(p_boot), "%s/boot_id", dir);
	snprintf(p_notes, sizeof(p_notes), "%s/notes", dir);
	snprintf(p_cache_dir, sizeof(p_cache_dir), "%s/run", dir);
	snprintf(p_cache, sizeof(p_cache), "%s/caps", p_cache_dir);
	put_text(p_boot, "0b7b8c3e-5a3c-4c55-9d3c-2f1e6f0a9b11\n");
	put_notes(0xab);
	probe_runs = 0;
}

static void teardown(void)
{
	const char *files[] = { p_cmds, p_kfuncs, p_btf, p_boot, p_notes, p_cache };
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		unlink(files[i]);
	rmdir(p_cache_dir);
	rmdir(dir);
}

/*
 * Raw BTF with types 1 FUNC_PROTO (void, no args) and 2 FUNC name
 * (its strings: "\0" name "\0"), as /sys/kernel/btf/vmlinux has them.
 */
static void put_btf(const char *name)
{
	uint8_t buf[256];
	struct btf_header h = { .magic = BTF_MAGIC, .version = 1, .hdr_len = sizeof(h) };
	struct btf_type t[2] = {
		{ .name_off = 0, .info = BTF_KIND_FUNC_PROTO << 24, .type = 0 },
		{ .name_off = 1, .info = BTF_KIND_FUNC << 24, .type = 1 },
	};
	size_t nlen = strlen(name) + 1;

	h.type_len = sizeof(t);
	h.str_off = sizeof(t);
	h.str_len = 1 + nlen;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), t, sizeof(t));
	buf[sizeof(h) + sizeof(t)] = '\0';
	memcpy(buf + sizeof(h) + sizeof(t) + 1, name, nlen);
	put_file(p_btf, buf, sizeof(h) + sizeof(t) + 1 + nlen);
}

START_TEST(list_and_kfunc_list)
{
	struct bpfrr_caps caps;

	put_text(p_cmds, BPFRR_CAPS_SERIES_LIST);
	put_text(p_kfuncs, "41230 bpf_some_other_kfunc\n41234 bpf_perf_event_open\n");
	ck_assert_int_eq(probe(&caps, BPFRR_CAPS_PROBE_PERF), 0);
	ck_assert_int_eq(probe_runs, 0);
	ck_assert_int_eq(caps.origin, BPFRR_CAPS_FROM_LIST);
	ck_assert(caps.perf_event_open);
	ck_assert_int_eq(caps.perf_event_open_btf_id, 41234);
	ck_assert_str_eq(caps.perf_event_open_basis, "kernel's kfunc list");
	/* what the pointer probe would have learnt, from the list's contract */
	ck_assert_int_eq(bpfrr_caps_ptr(&caps, BPFRR_CMD_PROG_LOAD, "attr.log_buf"), BPFRR_PTR_USER);
	ck_assert_int_eq(bpfrr_caps_ptr(&caps, BPFRR_CMD_BTF_LOAD, "attr.btf_log_buf"), BPFRR_PTR_USER);
	ck_assert_int_eq(bpfrr_caps_ptr(&caps, BPFRR_CMD_RAW_TRACEPOINT_OPEN, "attr.raw_tracepoint.name"),
			 BPFRR_PTR_KERNEL);
	ck_assert_str_eq(caps.cache, "");
	/* no cache is written for a kernel that has the list */
	ck_assert_int_ne(access(p_cache, F_OK), 0);
	/* without perf events to open, the kfunc is not looked up */
	ck_assert_int_eq(probe(&caps, 0), 0);
	ck_assert(caps.perf_event_open_unknown);
	/* the header runtime's lookup reads the same file */
	ck_assert_int_eq(bpfrr_rt_kfunc_btf_id_at(p_kfuncs, p_btf, BPFRR_RT_PERF_KFUNC), 41234);
	ck_assert_int_eq(bpfrr_rt_kfunc_btf_id_at(p_kfuncs, p_btf, "bpf_no_such_kfunc"), -ENOENT);
}
END_TEST

START_TEST(list_without_kfunc_list)
{
	struct bpfrr_caps caps;

	/* a patched kernel older than the kfunc list: its BTF is scanned */
	put_text(p_cmds, BPFRR_CAPS_SERIES_LIST);
	put_btf("bpf_perf_event_open");
	ck_assert_int_eq(probe(&caps, BPFRR_CAPS_PROBE_PERF), 0);
	ck_assert(caps.perf_event_open);
	ck_assert_int_eq(caps.perf_event_open_btf_id, 2);
	ck_assert_str_eq(caps.perf_event_open_basis, "kernel's BTF");
	ck_assert_int_eq(bpfrr_rt_kfunc_btf_id_at(p_kfuncs, p_btf, BPFRR_RT_PERF_KFUNC), 2);
	/* a kfunc list that lacks it is believed: no scan */
	put_text(p_kfuncs, "41230 bpf_some_other_kfunc\n");
	ck_assert_int_eq(probe(&caps, BPFRR_CAPS_PROBE_PERF), 0);
	ck_assert(!caps.perf_event_open);
	ck_assert_int_eq(bpfrr_rt_kfunc_btf_id_at(p_kfuncs, p_btf, BPFRR_RT_PERF_KFUNC), -ENOENT);
}
END_TEST

START_TEST(bad_kfunc_lists)
{
	static const char *const bad[] = {
		"41234 bpf_perf_event_open",		/* no newline */
		"x41234 bpf_perf_event_open\n",
		"41234  bpf_perf_event_open\n",
		"0 bpf_perf_event_open\n",
		"4294967297 bpf_perf_event_open\n",
		"41234\n",
		"41234 \n",
	};
	struct bpfrr_caps caps;
	int32_t id;
	size_t i;

	put_text(p_cmds, BPFRR_CAPS_SERIES_LIST);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put_text(p_kfuncs, bad[i]);
		ck_assert_msg(bpfrr_rt_kfunc_list_lookup(p_kfuncs, BPFRR_RT_PERF_KFUNC, &id) == -EINVAL, "%s", bad[i]);
		ck_assert_int_eq(probe(&caps, BPFRR_CAPS_PROBE_PERF), -EINVAL);
	}
	put_text(p_kfuncs, "");
	ck_assert_int_eq(bpfrr_rt_kfunc_list_lookup(p_kfuncs, BPFRR_RT_PERF_KFUNC, &id), 0);
	/* fields a later kernel adds after the name are not ours: ignored */
	put_text(p_kfuncs, "41230 bpf_perf_event_open_x 7\n41234 bpf_perf_event_open flags=1 more\n");
	ck_assert_int_eq(bpfrr_rt_kfunc_list_lookup(p_kfuncs, BPFRR_RT_PERF_KFUNC, &id), 1);
	ck_assert_int_eq(id, 41234);
}
END_TEST

static void assert_same_caps(const struct bpfrr_caps *a, const struct bpfrr_caps *b)
{
	uint32_t i;

	ck_assert_str_eq(a->source, b->source);
	ck_assert_uint_eq(a->sys_bpf_cmds, b->sys_bpf_cmds);
	ck_assert_uint_eq(a->nr_probed_cmds, b->nr_probed_cmds);
	ck_assert_int_eq(a->cmd_probe_ret[0], b->cmd_probe_ret[0]);
	ck_assert_uint_eq(a->nr_ptrs, b->nr_ptrs);
	for (i = 0; i < a->nr_ptrs; i++) {
		ck_assert_int_eq(a->ptrs[i].cmd, b->ptrs[i].cmd);
		ck_assert_str_eq(a->ptrs[i].path, b->ptrs[i].path);
		ck_assert_int_eq(a->ptrs[i].sem, b->ptrs[i].sem);
		ck_assert_str_eq(a->ptrs[i].basis, b->ptrs[i].basis);
	}
}

START_TEST(cache_hit_after_probe)
{
	struct bpfrr_caps first, second;
	struct stat st;

	/* no list: probed once, then from the cache */
	ck_assert_int_eq(probe(&first, BPFRR_CAPS_PROBE_PERF), 0);
	ck_assert_int_eq(probe_runs, 1);
	ck_assert_int_eq(first.origin, BPFRR_CAPS_FROM_PROBE);
	ck_assert_str_eq(first.cache, p_cache);
	ck_assert_msg(!first.cache_note[0], "%s", first.cache_note);
	ck_assert(!first.perf_event_open);
	ck_assert_int_eq(stat(p_cache, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0644);
	ck_assert_int_eq(probe(&second, BPFRR_CAPS_PROBE_PERF), 0);
	ck_assert_int_eq(probe_runs, 1);
	ck_assert_int_eq(second.origin, BPFRR_CAPS_FROM_CACHE);
	assert_same_caps(&first, &second);
	ck_assert(!second.perf_event_open && !second.perf_event_open_unknown);
	ck_assert_int_eq(probe(&second, 0), 0);
	ck_assert(second.perf_event_open_unknown);
	ck_assert_int_eq(probe_runs, 1);
}
END_TEST

/* One probe to write the cache, then the change tamper() makes: the next run must probe again. */
static void check_ignored(void (*tamper)(void), const char *note)
{
	struct bpfrr_caps caps;

	ck_assert_int_eq(probe(&caps, 0), 0);
	tamper();
	probe_runs = 0;
	ck_assert_int_eq(probe(&caps, 0), 0);
	ck_assert_int_eq(probe_runs, 1);
	ck_assert_int_eq(caps.origin, BPFRR_CAPS_FROM_PROBE);
	ck_assert_msg(strstr(caps.cache_note, note), "note '%s', not '%s'", caps.cache_note, note);
}

static void new_boot(void) { put_text(p_boot, "0b7b8c3e-5a3c-4c55-9d3c-2f1e6f0a9b12\n"); }
static void new_build(void) { put_notes(0xcd); }
static void other_writable(void) { ck_assert_int_eq(chmod(p_cache, 0666), 0); }
static void group_writable_dir(void) { ck_assert_int_eq(chmod(p_cache_dir, 0775), 0); }
static void cut(void)
{
	struct stat st;

	ck_assert_int_eq(stat(p_cache, &st), 0);
	ck_assert_int_eq(truncate(p_cache, st.st_size - 5), 0);	/* "end\n" and a byte */
}
static void other_version(void)
{
	put_text(p_cache, "bpfrr-caps-cache 0\n");
	ck_assert_int_eq(chmod(p_cache, 0644), 0);
}
static void symlinked(void)
{
	ck_assert_int_eq(rename(p_cache, p_btf), 0);	/* any other file */
	ck_assert_int_eq(symlink(p_btf, p_cache), 0);
}

START_TEST(stale_cache_ignored)
{
	check_ignored(new_boot, "another boot");
}
END_TEST

START_TEST(other_build_ignored)
{
	check_ignored(new_build, "another boot, kernel");
}
END_TEST

START_TEST(writable_cache_ignored)
{
	struct stat st;

	check_ignored(other_writable, "not a regular file, root's alone or ours");
	/* and replaced by one that can be believed */
	ck_assert_int_eq(stat(p_cache, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0644);
}
END_TEST

START_TEST(writable_dir_ignored)
{
	check_ignored(group_writable_dir, "not root's alone or ours");
}
END_TEST

START_TEST(cut_cache_ignored)
{
	check_ignored(cut, "not a whole cache");
}
END_TEST

START_TEST(old_version_ignored)
{
	check_ignored(other_version, "not a cache of this version");
}
END_TEST

START_TEST(symlink_ignored)
{
	struct stat st;

	check_ignored(symlinked, "symbolic links");	/* O_NOFOLLOW: ELOOP */
	ck_assert_int_eq(lstat(p_cache, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
}
END_TEST

START_TEST(no_boot_id_no_cache)
{
	struct bpfrr_caps caps;

	unlink(p_boot);
	ck_assert_int_eq(probe(&caps, 0), 0);
	ck_assert_int_eq(probe(&caps, 0), 0);
	ck_assert_int_eq(probe_runs, 2);
	ck_assert_int_ne(access(p_cache, F_OK), 0);
	ck_assert(strstr(caps.cache_note, "no boot id"));
}
END_TEST

static Suite *caps_suite(void)
{
	Suite *s = suite_create("replay_caps");
	TCase *tc = tcase_create("caps");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, list_and_kfunc_list);
	tcase_add_test(tc, list_without_kfunc_list);
	tcase_add_test(tc, bad_kfunc_lists);
	tcase_add_test(tc, cache_hit_after_probe);
	tcase_add_test(tc, stale_cache_ignored);
	tcase_add_test(tc, other_build_ignored);
	tcase_add_test(tc, writable_cache_ignored);
	tcase_add_test(tc, writable_dir_ignored);
	tcase_add_test(tc, cut_cache_ignored);
	tcase_add_test(tc, old_version_ignored);
	tcase_add_test(tc, symlink_ignored);
	tcase_add_test(tc, no_boot_id_no_cache);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(caps_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

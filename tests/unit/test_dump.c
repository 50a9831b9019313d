// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfrr dump golden tests: synthetic traces written with the trace writer
 * (tests/data/synth_trace.h) dumped as text, JSON and summaries, compared
 * byte for byte with tests/data/dump/NAME.{out,err}; committed traces
 * recorded in the guest (tests/data/traces/NAME.trace, when present) the
 * same way.  BPFRR_UPDATE_GOLDEN=1 rewrites the expected files instead
 * (review the diff before committing it).  Host only, no bpf().
 */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "bpfrr.h"
#include "../../recorder/dump.h"
#include "../../recorder/dump_print.h"
#include "../data/synth_trace.h"
#include "trace.h"

static char data_dir[4096];

/* tests/data next to this source file (the Makefile compiles it by absolute path). */
static void find_data_dir(void)
{
	char here[4096];

	snprintf(here, sizeof(here), "%s", __FILE__);
	snprintf(data_dir, sizeof(data_dir), "%s/../data", dirname(here));
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (*len + 4096 > cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap + 1);
			ck_assert_ptr_nonnull(buf);
		}
		n = fread(buf + *len, 1, cap - *len, f);
		if (!n)
			break;
		*len += n;
	}
	fclose(f);
	buf[*len] = '\0';
	return buf;
}

static void write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_msg(f, "cannot write %s", path);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	fclose(f);
}

/* The synthetic trace's bytes. */
static uint8_t *synth_bytes(bool with_end, size_t *len)
{
	uint8_t *buf = synth_bytes_of(with_end ? synth_kprobe_trace_whole : synth_kprobe_trace_cut, len);

	ck_assert_ptr_nonnull(buf);
	return buf;
}

/* The synthetic 1.1 trace with KERNEL and SYMBOL records. */
static uint8_t *portable_bytes(size_t *len)
{
	uint8_t *buf = synth_bytes_of(synth_portable_trace, len);

	ck_assert_ptr_nonnull(buf);
	return buf;
}

/* The synthetic light skeleton (synth_lskel_trace). */
static uint8_t *lskel_bytes(size_t *len)
{
	uint8_t *buf = synth_bytes_of(synth_lskel_trace, len);

	ck_assert_ptr_nonnull(buf);
	return buf;
}

/* First line where two texts differ, for a readable failure. */
static void first_difference(const char *a, const char *b, char *msg, size_t size)
{
	int line = 1;
	const char *la = a, *lb = b;

	while (*a && *a == *b) {
		if (*a == '\n') {
			line++;
			la = a + 1;
			lb = b + 1;
		}
		a++;
		b++;
	}
	snprintf(msg, size, "line %d:\n  got:  %.*s\n  want: %.*s", line, (int)strcspn(la, "\n"), la,
		 (int)strcspn(lb, "\n"), lb);
}

static void compare_golden(const char *name, const char *suffix, const char *got, size_t got_len)
{
	char path[4200], msg[1200];
	size_t want_len;
	char *want;

	snprintf(path, sizeof(path), "%s/dump/%s.%s", data_dir, name, suffix);
	if (getenv("BPFRR_UPDATE_GOLDEN")) {
		write_file(path, got, got_len);
		return;
	}
	want = read_file(path, &want_len);
	ck_assert_msg(want, "missing golden file %s", path);
	if (want_len != got_len || memcmp(want, got, got_len)) {
		first_difference(got, want, msg, sizeof(msg));
		ck_abort_msg("%s differs from the dump output at %s", path, msg);
	}
	free(want);
}

/* Dump bytes with opts; compare stdout, stderr and the exit status. */
static void golden(const char *name, const uint8_t *trace, size_t len, const char *trace_name,
		   const struct bpfrr_dump_opts *opts, int want_status)
{
	char *out_text = NULL, *err_text = NULL;
	size_t out_len = 0, err_len = 0;
	struct bpfrr_trace_reader *r;
	FILE *out, *err;
	char *open_err = NULL;
	int status;

	r = bpfrr_trace_open_mem(trace, len, trace_name, 0, &open_err);
	ck_assert_msg(r, "%s", open_err);
	out = open_memstream(&out_text, &out_len);
	err = open_memstream(&err_text, &err_len);
	ck_assert_ptr_nonnull(out);
	ck_assert_ptr_nonnull(err);
	status = bpfrr_dump_trace(r, opts, out, err);
	fclose(out);
	fclose(err);
	bpfrr_trace_reader_close(r);
	ck_assert_msg(status == want_status, "%s: exit status %d, want %d (stderr: %s)", name, status,
		      want_status, err_text);
	compare_golden(name, "out", out_text, out_len);
	compare_golden(name, "err", err_text, err_len);
	free(out_text);
	free(err_text);
}

START_TEST(text_output)
{
	struct bpfrr_dump_opts o = { 0 };
	size_t len;
	uint8_t *t = synth_bytes(true, &len);

	golden("kprobe.text", t, len, "kprobe.trace", &o, 0);
	o.verbose = true;
	golden("kprobe.verbose", t, len, "kprobe.trace", &o, 0);
	free(t);
}
END_TEST

START_TEST(json_output)
{
	struct bpfrr_dump_opts o = { .json = true };
	size_t len;
	uint8_t *t = synth_bytes(true, &len);

	golden("kprobe.json", t, len, "kprobe.trace", &o, 0);
	free(t);
}
END_TEST

START_TEST(summary_output)
{
	struct bpfrr_dump_opts o = { .summary = true };
	size_t len;
	uint8_t *t = synth_bytes(true, &len);

	golden("kprobe.summary", t, len, "kprobe.trace", &o, 0);
	o.json = true;
	golden("kprobe.summary-json", t, len, "kprobe.trace", &o, 0);
	free(t);
}
END_TEST

/*
 * A 1.1 trace: the recording kernel in the header and the summaries, the
 * names beside attach_btf_id, the kfunc and ksym insns, the tracepoint
 * config, the PMU type and kprobe address, the kprobe_multi addresses; an
 * unnamed tracepoint id shown as such; JSON's "symbols" and "kernel".
 */
/* The portable trace's goldens: text (and verbose text, if asked), JSON, summaries. */
static void portable_goldens(const uint8_t *t, size_t len, bool verbose)
{
	struct bpfrr_dump_opts o = { 0 };

	golden("portable.text", t, len, "portable.trace", &o, 0);
	if (verbose) {
		o.verbose = true;
		golden("portable.verbose", t, len, "portable.trace", &o, 0);
	}
	memset(&o, 0, sizeof(o));
	o.json = true;
	golden("portable.json", t, len, "portable.trace", &o, 0);
	memset(&o, 0, sizeof(o));
	o.summary = true;
	golden("portable.summary", t, len, "portable.trace", &o, 0);
	o.json = true;
	golden("portable.summary-json", t, len, "portable.trace", &o, 0);
}

START_TEST(portable_output)
{
	size_t len;
	uint8_t *t = portable_bytes(&len);

	portable_goldens(t, len, true);
	free(t);
}
END_TEST

/*
 * The same trace with its SYMBOL records after every call (the recorder names
 * in the background and writes them later): the names are shown all the same,
 * so the text, JSON and summaries are those of portable_output.
 */
START_TEST(portable_symbols_last)
{
	size_t len;
	uint8_t *t;

	synth_symbols_last = true;
	t = portable_bytes(&len);
	synth_symbols_last = false;
	/* verbose text prints the SYMBOL records where they are: not compared */
	portable_goldens(t, len, false);
	free(t);
}
END_TEST

/* A light skeleton's loader program decoded under its BPF_PROG_LOAD: inner calls, run-time
 * fields, where the decoding stops; a second one whose blob is unknown is not decoded. */
START_TEST(lskel)
{
	struct bpfrr_dump_opts o = { 0 };
	size_t len;
	uint8_t *t = lskel_bytes(&len);

	golden("lskel.text", t, len, "lskel.trace", &o, 0);
	o.json = true;
	golden("lskel.json", t, len, "lskel.trace", &o, 0);
	o.json = false;
	o.verbose = true;
	o.no_insns = true;
	golden("lskel.verbose", t, len, "lskel.trace", &o, 0);
	free(t);
}
END_TEST

/* Fields after 6.12, a verifier's reason, unknown attr bytes, BPF_COMMON_ATTRS (issue 16). */
START_TEST(later_uapi_output)
{
	struct bpfrr_dump_opts o = { 0 };
	size_t len;
	uint8_t *t = synth_bytes_of(synth_later_uapi_trace, &len);

	ck_assert_ptr_nonnull(t);
	golden("later-uapi.text", t, len, "later-uapi.trace", &o, 0);
	o.json = true;
	golden("later-uapi.json", t, len, "later-uapi.trace", &o, 0);
	memset(&o, 0, sizeof(o));
	o.summary = true;
	golden("later-uapi.summary", t, len, "later-uapi.trace", &o, 0);
	o.json = true;
	golden("later-uapi.summary-json", t, len, "later-uapi.trace", &o, 0);
	free(t);
}
END_TEST

/* The reason of a log: its last line that is not one of the verifier's statistics. */
START_TEST(log_reason)
{
	static const struct {
		const char *log, *reason;
	} cases[] = {
		{ "0: (b7) r1 = 0\nR1 invalid mem access 'scalar'\nprocessed 2 insns (limit 1000000) "
		  "max_states_per_insn 0 total_states 0 peak_states 0 mark_read 0\n",
		  "R1 invalid mem access 'scalar'" },
		/* level 2 adds the time and stack depth after it; no final newline */
		{ "back-edge from insn 3 to 1\nprocessed 4 insns\nverification time 12 usec\n"
		  "stack depth 0\n", "back-edge from insn 3 to 1" },
		{ "magic: 0xeb9f\nversion: 1\n[2] FUNC main type_id=9 Invalid type_id\n\n\n",
		  "[2] FUNC main type_id=9 Invalid type_id" },
		{ "Invalid max_entries.", "Invalid max_entries." },
		{ "processed 0 insns\n", "" },
		{ "", "" },
	};
	char buf[128];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = dump_log_reason(cases[i].log, strlen(cases[i].log) + 1, buf, sizeof(buf));

		ck_assert_msg(!strcmp(buf, cases[i].reason), "case %zu: '%s'", i, buf);
		ck_assert_uint_eq(n, strlen(cases[i].reason));
	}
	/* a log without its NUL (cut at log_size) and a small buffer */
	ck_assert_uint_eq(dump_log_reason("abc\ndefgh", 9, buf, 4), 3);
	ck_assert_str_eq(buf, "def");
}
END_TEST

START_TEST(filters)
{
	struct bpfrr_dump_opts o = { .no_insns = true, .nr_cmds = 1, .cmds = { 5 } };
	size_t len;
	uint8_t *t = synth_bytes(true, &len);

	golden("kprobe.prog-load-no-insns", t, len, "kprobe.trace", &o, 0);
	memset(&o, 0, sizeof(o));
	o.has_tid = true;
	o.tid = 102;
	o.json = true;
	golden("kprobe.tid-102-json", t, len, "kprobe.trace", &o, 0);
	memset(&o, 0, sizeof(o));
	o.nr_syscalls = 1;
	o.syscalls[0] = "perf_event_open";
	golden("kprobe.perf-event-open", t, len, "kprobe.trace", &o, 0);
	free(t);
}
END_TEST

/*
 * dump_sys.c describes the perf_event_attr flag bits by bit number; each
 * must be where the installed header's bitfield puts it, and the JSON must
 * show exactly that field set (and the text name it).
 */
#define PERF_BIT(field) { #field, { .field = 1 } }

START_TEST(perf_attr_bits)
{
	static const struct {
		const char *name;
		struct perf_event_attr attr;
	} cases[] = {
		PERF_BIT(disabled), PERF_BIT(inherit), PERF_BIT(pinned), PERF_BIT(exclusive),
		PERF_BIT(exclude_user), PERF_BIT(exclude_kernel), PERF_BIT(exclude_hv),
		PERF_BIT(exclude_idle), PERF_BIT(mmap), PERF_BIT(comm), PERF_BIT(freq),
		PERF_BIT(inherit_stat), PERF_BIT(enable_on_exec), PERF_BIT(task), PERF_BIT(watermark),
		PERF_BIT(precise_ip), PERF_BIT(mmap_data), PERF_BIT(sample_id_all),
		PERF_BIT(exclude_host), PERF_BIT(exclude_guest), PERF_BIT(exclude_callchain_kernel),
		PERF_BIT(exclude_callchain_user), PERF_BIT(mmap2), PERF_BIT(comm_exec),
		PERF_BIT(use_clockid), PERF_BIT(context_switch), PERF_BIT(write_backward),
		PERF_BIT(namespaces), PERF_BIT(ksymbol), PERF_BIT(bpf_event), PERF_BIT(aux_output),
		PERF_BIT(cgroup), PERF_BIT(text_poke), PERF_BIT(build_id), PERF_BIT(inherit_thread),
		PERF_BIT(remove_on_exec), PERF_BIT(sigtrap),
	};
	size_t i, k;

	ck_assert_int_eq(sizeof(cases) / sizeof(cases[0]), DUMP_PERF_ATTR_NR_BITS);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct perf_event_attr a = cases[i].attr;
		char *text = NULL, want[96];
		size_t text_len = 0;
		struct json_out j;
		uint64_t word;
		FILE *f;

		memcpy(&word, (const char *)&a + 40, sizeof(word));
		for (k = 0; k < DUMP_PERF_ATTR_NR_BITS; k++)
			if (!strcmp(dump_perf_attr_bits[k].name, cases[i].name))
				break;
		ck_assert_msg(k < DUMP_PERF_ATTR_NR_BITS, "%s: not in dump_perf_attr_bits", cases[i].name);
		ck_assert_msg(word == 1ull << dump_perf_attr_bits[k].bit, "%s: header bit %#llx, table bit %u",
			      cases[i].name, (unsigned long long)word, dump_perf_attr_bits[k].bit);

		a.size = sizeof(a);
		f = open_memstream(&text, &text_len);
		ck_assert_ptr_nonnull(f);
		json_start(&j, f);
		dump_perf_attr_json(&j, &a, sizeof(a));
		fclose(f);
		snprintf(want, sizeof(want), "\"%s\":1", cases[i].name);
		ck_assert_msg(strstr(text, want), "%s: JSON %s", cases[i].name, text);
		ck_assert_msg(!strstr(strstr(text, want) + strlen(want), "\":1,") && !strstr(text, "\":1}"),
			      "%s: another bit set in %s", cases[i].name, text);
		free(text);

		text = NULL;
		f = open_memstream(&text, &text_len);
		ck_assert_ptr_nonnull(f);
		dump_perf_attr_text(f, &a, sizeof(a), "", NULL);
		fclose(f);
		snprintf(want, sizeof(want), "bits: %s%s (%#llx)\n", cases[i].name,
			 !strcmp(cases[i].name, "precise_ip") ? "=1" : "", (unsigned long long)word);
		ck_assert_msg(strstr(text, want), "%s: text %s", cases[i].name, text);
		free(text);
	}
}
END_TEST

/* dump_sys_args_text and _json: names, decoded values, arch-dependent O_* bits. */
static char *sys_args(const char *name, uint32_t e_machine, const uint64_t args[6], bool json)
{
	char *text = NULL;
	size_t len = 0;
	struct json_out j;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	if (json) {
		json_start(&j, f);
		dump_sys_args_json(&j, name, e_machine, args);
	} else {
		dump_sys_args_text(f, name, e_machine, args);
	}
	fclose(f);
	return text;
}

START_TEST(sys_params)
{
	static const struct {
		const char *name;
		uint32_t e_machine;
		uint64_t args[6];
		const char *text, *json;
	} cases[] = {
		{ "close", 62, { 3, 0x7ffd, 0x74, 1, 2, 3 }, "fd=3", "\"params\":{\"fd\":3}" },
		{ "openat", 62, { (uint32_t)-100, 0x1000, 0200000 | 02000000, 0 },
		  "dfd=AT_FDCWD, filename=0x1000, flags=O_RDONLY|O_CLOEXEC|O_DIRECTORY, mode=0",
		  "\"params\":{\"dfd\":\"AT_FDCWD\",\"filename\":4096,\"flags\":\"O_RDONLY|O_CLOEXEC|O_DIRECTORY\",\"mode\":\"0\"}" },
		/* aarch64: 040000 is O_DIRECTORY, 0200000 O_DIRECT */
		{ "openat", 183, { 5, 0x1000, 040000 | 2, 0644 },
		  "dfd=5, filename=0x1000, flags=O_RDWR|O_DIRECTORY, mode=0644", NULL },
		{ "openat", 183, { 5, 0x1000, 0200000, 0 }, "dfd=5, filename=0x1000, flags=O_RDONLY|O_DIRECT, mode=0",
		  NULL },
		{ "fcntl", 62, { 4, 1030, 3 }, "fd=4, cmd=F_DUPFD_CLOEXEC, arg=3", NULL },
		{ "fcntl", 62, { 4, 2, 1 }, "fd=4, cmd=F_SETFD, arg=FD_CLOEXEC", NULL },
		{ "dup3", 62, { 4, 9, 02000000 }, "oldfd=4, newfd=9, flags=O_CLOEXEC", NULL },
		{ "close_range", 62, { 3, ~0u, 4 }, "fd=3, max_fd=4294967295, flags=CLOSE_RANGE_CLOEXEC", NULL },
		{ "perf_event_open", 62, { 0x2000, (uint32_t)-1, 0, (uint32_t)-1, 8 | 0x100 },
		  "attr=0x2000, pid=-1, cpu=0, group_fd=-1, flags=PERF_FLAG_FD_CLOEXEC|0x100",
		  "\"params\":{\"attr\":8192,\"pid\":-1,\"cpu\":0,\"group_fd\":-1,\"flags\":\"PERF_FLAG_FD_CLOEXEC|0x100\"}" },
		{ "ioctl", 62, { 11, 0x40042408, 12 }, "fd=11, cmd=PERF_EVENT_IOC_SET_BPF, arg=12", NULL },
		{ "ioctl", 62, { 11, 0xdead, 0x3000 }, "fd=11, cmd=0xdead, arg=0x3000", NULL },
		/* a syscall the table does not describe: six raw values, no params */
		{ "mystery", 62, { 1, 2, 3, 4, 5, 6 }, "0x1, 0x2, 0x3, 0x4, 0x5, 0x6", "" },
	};
	size_t i;

	ck_assert_int_eq(dump_sys_nr_args("close"), 1);
	ck_assert_int_eq(dump_sys_nr_args("perf_event_open"), 5);
	ck_assert_int_eq(dump_sys_nr_args("mystery"), 6);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = sys_args(cases[i].name, cases[i].e_machine, cases[i].args, false);

		ck_assert_msg(!strcmp(got, cases[i].text), "%s: text '%s', want '%s'", cases[i].name, got,
			      cases[i].text);
		free(got);
		if (!cases[i].json)
			continue;
		got = sys_args(cases[i].name, cases[i].e_machine, cases[i].args, true);
		ck_assert_msg(!strcmp(got, cases[i].json), "%s: JSON '%s', want '%s'", cases[i].name, got,
			      cases[i].json);
		free(got);
	}
}
END_TEST

START_TEST(truncated_and_corrupt)
{
	struct bpfrr_dump_opts o = { 0 };
	size_t len;
	uint8_t *t = synth_bytes(false, &len);

	/* every record, then the warning, exit 3 */
	golden("kprobe.truncated", t, len, "kprobe.trace", &o, BPFRR_EXIT_TRUNCATED);
	/* cut in the middle of the failed load's record */
	golden("kprobe.cut", t, 2000, "kprobe.trace", &o, BPFRR_EXIT_TRUNCATED);
	free(t);

	t = synth_bytes(true, &len);
	t[2600] ^= 0x40;
	golden("kprobe.corrupt", t, len, "kprobe.trace", &o, BPFRR_EXIT_USAGE);
	free(t);
}
END_TEST

/*
 * Traces recorded in the guest and committed (tests/data/traces/NAME.trace):
 * each must dump (text and JSON) exactly as tests/data/dump/NAME.{text,json}.
 */
static void dump_recorded(const char *subdir)
{
	char dir[4200];
	struct dirent *de;
	int n = 0;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/%s", data_dir, subdir);
	dp = opendir(dir);
	if (!dp)
		return;	/* none committed yet */
	while ((de = readdir(dp))) {
		size_t nlen = strlen(de->d_name), len;
		struct bpfrr_dump_opts o = { 0 };
		char path[8400], name[300];
		uint8_t *t;

		if (nlen < 7 || strcmp(de->d_name + nlen - 6, ".trace"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		t = (uint8_t *)read_file(path, &len);
		ck_assert_ptr_nonnull(t);
		snprintf(name, sizeof(name), "%.*s.text", (int)(nlen - 6), de->d_name);
		golden(name, t, len, de->d_name, &o, 0);
		o.json = true;
		snprintf(name, sizeof(name), "%.*s.json", (int)(nlen - 6), de->d_name);
		golden(name, t, len, de->d_name, &o, 0);
		free(t);
		n++;
	}
	closedir(dp);
	fprintf(stderr, "# %d recorded traces of %s dumped\n", n, subdir);
}


/* Dump bytes with opts: stdout (malloc'd) and the exit status. */
static char *dump_text(const uint8_t *trace, size_t len, const struct bpfrr_dump_opts *opts, int *status)
{
	char *out_text = NULL, *err_text = NULL, *open_err = NULL;
	size_t out_len = 0, err_len = 0;
	struct bpfrr_trace_reader *r;
	FILE *out, *err;

	r = bpfrr_trace_open_mem(trace, len, "synth.trace", 0, &open_err);
	ck_assert_msg(r, "%s", open_err);
	out = open_memstream(&out_text, &out_len);
	err = open_memstream(&err_text, &err_len);
	ck_assert_ptr_nonnull(out);
	ck_assert_ptr_nonnull(err);
	*status = bpfrr_dump_trace(r, opts, out, err);
	fclose(out);
	fclose(err);
	bpfrr_trace_reader_close(r);
	free(err_text);
	return out_text;
}

/* The version the trace writer writes, "3.0" (one digit each). */
#define STR_(x) #x
#define STR(x) STR_(x)
#define WRITTEN_VERSION STR(BPFRR_TRACE_VERSION_MAJOR) "." STR(BPFRR_TRACE_VERSION_MINOR)

/*
 * Trace formats 2.0 and 3.0 hold the same records in fewer bytes: every
 * synthetic trace, written in 1.1 and in the writer's version, dumps the same
 * in every printer (but for the format named in the first line), and the
 * newer file is smaller.
 */
START_TEST(same_dump_in_both_formats)
{
	static int (*const writers[])(int fd) = {
		synth_kprobe_trace_whole, synth_kprobe_trace_cut, synth_portable_trace, synth_lskel_trace,
		synth_later_uapi_trace,
	};
	const struct bpfrr_dump_opts opts[] = {
		{ .verbose = true }, { .json = true }, { .summary = true }, { .summary = true, .json = true },
	};

	for (size_t k = 0; k < sizeof(writers) / sizeof(writers[0]); k++) {
		uint8_t *t1, *t2;
		size_t len1, len2;

		synth_major = 1;
		t1 = synth_bytes_of(writers[k], &len1);
		synth_major = BPFRR_TRACE_VERSION_MAJOR;
		t2 = synth_bytes_of(writers[k], &len2);
		synth_major = 1;
		ck_assert_ptr_nonnull(t1);
		ck_assert_ptr_nonnull(t2);
		ck_assert_msg(len2 < len1, "trace %zu: " WRITTEN_VERSION " %zu bytes, 1.1 %zu", k, len2, len1);
		for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
			int st1, st2;
			char *a = dump_text(t1, len1, &opts[i], &st1), *b = dump_text(t2, len2, &opts[i], &st2);
			char *v = strstr(a, ", format 1.1, ");
			char msg[1200];

			if (v)
				memcpy(v + strlen(", format "), WRITTEN_VERSION, 3);
			ck_assert_int_eq(st1, st2);
			if (strcmp(a, b)) {
				first_difference(b, a, msg, sizeof(msg));
				ck_abort_msg("trace %zu, printer %zu: " WRITTEN_VERSION " dumps differently from 1.1 at %s",
					     k, i, msg);
			}
			free(a);
			free(b);
		}
		free(t1);
		free(t2);
	}
}
END_TEST

/* The records of trace bytes written again in format major.x (END gets the time of the rewrite). */
static uint8_t *reencode(const uint8_t *t, size_t len, unsigned int major, size_t *out_len)
{
	struct bpfrr_trace_reader *r = bpfrr_trace_open_mem(t, len, "in.trace", 0, NULL);
	int fd = memfd_create("again", 0);
	struct stat st;
	uint8_t *buf;

	ck_assert_ptr_nonnull(r);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(bpfrr_trace_copy(r, dup(fd), major), 0);	/* through its END */
	bpfrr_trace_reader_close(r);
	ck_assert_int_eq(fstat(fd, &st), 0);
	*out_len = (size_t)st.st_size;
	buf = malloc(*out_len);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(pread(fd, buf, *out_len, 0), (ssize_t)*out_len);
	close(fd);
	return buf;
}

/* The major format version of a trace in memory. */
static unsigned int trace_major(const uint8_t *t, size_t len)
{
	char *err = NULL;
	struct bpfrr_trace_reader *r = bpfrr_trace_open_mem(t, len, "trace", 0, &err);
	unsigned int major;

	ck_assert_msg(r, "%s", err);
	major = bpfrr_trace_header(r)->version_major;
	bpfrr_trace_reader_close(r);
	return major;
}

/*
 * The recorded traces (1.0 to 2.2, as committed) written again in the
 * writer's version hold the same: `dump -v` and `--json` print the same; the
 * 1.x ones in under half the bytes, and never more than in 2.2 (3.0's blobs
 * may copy earlier ones) nor in 3.0 (4.0's may be deflated).
 */
START_TEST(recorded_traces_in_the_written_format)
{
	const struct bpfrr_dump_opts opts[] = { { .verbose = true }, { .json = true } };
	char dir[4200];
	struct dirent *de;
	int n = 0;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/traces", data_dir);
	dp = opendir(dir);
	ck_assert_ptr_nonnull(dp);
	while ((de = readdir(dp))) {
		size_t nlen = strlen(de->d_name), len, len2;
		char path[8400], msg[1200];
		uint8_t *t, *t2;
		size_t len_v2, len_v3;

		if (nlen < 7 || strcmp(de->d_name + nlen - 6, ".trace"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		t = (uint8_t *)read_file(path, &len);
		ck_assert_ptr_nonnull(t);
		t2 = reencode(t, len, BPFRR_TRACE_VERSION_MAJOR, &len2);
		free(reencode(t, len, 2, &len_v2));
		free(reencode(t, len, 3, &len_v3));
		/* those recorded in 2.x already have less to gain, but must dump the same */
		if (trace_major(t, len) < 2)
			ck_assert_msg(len2 * 2 < len, "%s: %zu bytes in " WRITTEN_VERSION ", %zu before",
				      de->d_name, len2, len);
		ck_assert_msg(len2 <= len_v2, "%s: %zu bytes in " WRITTEN_VERSION ", %zu in 2.2", de->d_name, len2,
			      len_v2);
		ck_assert_msg(len2 <= len_v3, "%s: %zu bytes in " WRITTEN_VERSION ", %zu in 3.0", de->d_name, len2,
			      len_v3);
		for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
			int st1, st2;
			char *a = dump_text(t, len, &opts[i], &st1), *b = dump_text(t2, len2, &opts[i], &st2);
			char *v = strstr(a, ", format ");

			/* 1.x, or 2.0 of an older recorder, written again in the writer's version */
			if (v)
				memcpy(v + strlen(", format "), WRITTEN_VERSION, 3);
			ck_assert_int_eq(st1, st2);
			if (strcmp(a, b)) {
				first_difference(b, a, msg, sizeof(msg));
				ck_abort_msg("%s in " WRITTEN_VERSION ", printer %zu: dumps differently at %s",
					     de->d_name, i, msg);
			}
			free(a);
			free(b);
		}
		free(t);
		free(t2);
		n++;
	}
	closedir(dp);
	ck_assert_int_gt(n, 0);
}
END_TEST

START_TEST(recorded_traces)
{
	dump_recorded("traces");
	/* light skeletons recorded for their loader programs only (not translated: the
	 * translator's tests read tests/data/traces): fixtures/fx_lskel.c */
	dump_recorded("lskel");
}
END_TEST

/* Every JSON line the dumper writes parses as one JSON object (own tiny checker). */
static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *json_value(const char *p, int depth);

static const char *json_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p && *p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
						return NULL;
				p += 4;
			} else if (!strchr("\"\\/bfnrt", *p) || !*p) {
				return NULL;
			}
		}
		p++;
	}
	return *p == '"' ? p + 1 : NULL;
}

static const char *json_value(const char *p, int depth)
{
	p = skip_ws(p);
	if (depth > 64)
		return NULL;
	if (*p == '{' || *p == '[') {
		char close = *p == '{' ? '}' : ']';
		bool obj = *p == '{';

		p = skip_ws(p + 1);
		if (*p == close)
			return p + 1;
		for (;;) {
			if (obj) {
				p = json_string(skip_ws(p));
				if (!p)
					return NULL;
				p = skip_ws(p);
				if (*p++ != ':')
					return NULL;
			}
			p = json_value(p, depth + 1);
			if (!p)
				return NULL;
			p = skip_ws(p);
			if (*p == close)
				return p + 1;
			if (*p++ != ',')
				return NULL;
		}
	}
	if (*p == '"')
		return json_string(p);
	if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	if (*p == '-')
		p++;
	if (*p < '0' || *p > '9')
		return NULL;
	while (*p >= '0' && *p <= '9')
		p++;
	return p;
}

START_TEST(json_is_valid_and_escaped)
{
	static const char nasty[] = "q\"b\\s\n\t\x01\x7f \xc3\xa9 \xff\xfe \xed\xa0\x80 \xf4\x90\x80\x80 end";
	struct bpfrr_dump_opts o = { .json = true };
	char *text = NULL, *line, *save = NULL;
	struct bpfrr_trace_reader *r;
	size_t len, text_len = 0;
	uint8_t *t;
	FILE *out;
	int lines = 0;

	/* the escaper on its own */
	out = open_memstream(&text, &text_len);
	json_escape(out, nasty, sizeof(nasty) - 1);
	fclose(out);
	ck_assert_str_eq(text, "q\\\"b\\\\s\\n\\t\\u0001\\u007f \xc3\xa9 \\u00ff\\u00fe \\u00ed\\u00a0\\u0080 "
			       "\\u00f4\\u0090\\u0080\\u0080 end");
	free(text);
	text = NULL;

	t = synth_bytes(true, &len);
	r = bpfrr_trace_open_mem(t, len, "kprobe.trace", 0, NULL);
	ck_assert_ptr_nonnull(r);
	out = open_memstream(&text, &text_len);
	ck_assert_int_eq(bpfrr_dump_trace(r, &o, out, stderr), 0);
	fclose(out);
	bpfrr_trace_reader_close(r);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *end = json_value(line, 0);

		ck_assert_msg(end && *skip_ws(end) == '\0', "line %d is not one JSON value: %s", lines + 1, line);
		ck_assert_msg(line[0] == '{', "line %d is not an object", lines + 1);
		lines++;
	}
	/* 10 bpf() calls, 1 perf_event_open and 1 close; no line for records that are not calls */
	ck_assert_int_eq(lines, 12);
	free(text);
	free(t);
}
END_TEST

/*
 * The printers the walk chooses from: one that prints calls must lay out
 * every content dump_render.c decodes (it calls the hooks unconditionally);
 * a summary prints no calls; JSON starts its writer and has no lines for
 * the header, tasks, notes, the end or -v records (docs/dump-json.md).
 */
START_TEST(printers)
{
	const struct dump_printer *calls[] = { &dump_text_printer, &dump_jsonl_printer };
	const struct dump_printer *summaries[] = { &dump_summary_text_printer, &dump_summary_json_printer };
	const struct dump_printer *jsons[] = { &dump_jsonl_printer, &dump_summary_json_printer };
	size_t i;

	for (i = 0; i < 2; i++) {
		const struct dump_printer *p = calls[i];

		ck_assert_msg(p->bpf_call && p->syscall, "printer %zu: no call hooks", i);
		ck_assert_msg(p->string && p->log && p->insns && p->btf && p->numbers && p->fd_array &&
			      p->info && p->perf_attr && p->bytes, "printer %zu: a content hook is missing", i);
		ck_assert_msg(!p->summary, "printer %zu prints calls and a summary", i);
	}
	for (i = 0; i < 2; i++) {
		const struct dump_printer *p = summaries[i];

		ck_assert_msg(p->summary, "summary printer %zu: no summary", i);
		ck_assert_msg(!p->header && !p->bpf_call && !p->syscall && !p->task && !p->note && !p->end &&
			      !p->record, "summary printer %zu prints records", i);
	}
	for (i = 0; i < 2; i++) {
		const struct dump_printer *p = jsons[i];

		ck_assert_msg(p->begin, "JSON printer %zu does not start its writer", i);
		ck_assert_msg(!p->header && !p->task && !p->note && !p->end && !p->record,
			      "JSON printer %zu has lines for records that are not calls", i);
	}
	ck_assert_msg(dump_text_printer.header && dump_text_printer.task && dump_text_printer.note &&
		      dump_text_printer.end && dump_text_printer.record, "text printer: a record hook is missing");
}
END_TEST

static Suite *dump_suite(void)
{
	Suite *s = suite_create("dump");
	TCase *tc = tcase_create("dump");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, text_output);
	tcase_add_test(tc, portable_output);
	tcase_add_test(tc, portable_symbols_last);
	tcase_add_test(tc, later_uapi_output);
	tcase_add_test(tc, log_reason);
	tcase_add_test(tc, json_output);
	tcase_add_test(tc, summary_output);
	tcase_add_test(tc, filters);
	tcase_add_test(tc, lskel);
	tcase_add_test(tc, truncated_and_corrupt);
	tcase_add_test(tc, json_is_valid_and_escaped);
	tcase_add_test(tc, recorded_traces);
	tcase_add_test(tc, same_dump_in_both_formats);
	tcase_add_test(tc, recorded_traces_in_the_written_format);
	tcase_add_test(tc, perf_attr_bits);
	tcase_add_test(tc, sys_params);
	tcase_add_test(tc, printers);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(dump_suite());
	int failed;

	find_data_dir();
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

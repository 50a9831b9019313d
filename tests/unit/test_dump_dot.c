// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfrr dump --format dot: the graph of synthetic traces (the kprobe and
 * portable traces of tests/data/synth_trace.h, and tests/data/synth_graph.h
 * with the relations the recorded traces lack: tail calls, pins, a cgroup
 * attach, an fentry target, an adopted map) and of two recorded ones,
 * compared byte for byte with tests/data/dump/NAME.dot.{out,err}.
 * BPFRR_UPDATE_GOLDEN=1 rewrites them (review the diff).  Whether Graphviz
 * draws them without a warning is tests/host/dump-dot.t's.  Host only, no
 * bpf().
 */
#include <check.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bpfrr.h"
#include "../../recorder/dump.h"
#include "../../recorder/dump_print.h"
#include "../data/synth_graph.h"
#include "trace.h"

static char data_dir[4096];

static void find_data_dir(void)
{
	char here[4096];

	snprintf(here, sizeof(here), "%s", __FILE__);
	snprintf(data_dir, sizeof(data_dir), "%s/../data", dirname(here));
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	*len = 0;
	if (!f)
		return NULL;
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_ge(n, 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	*len = fread(buf, 1, (size_t)n, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* A synthetic trace's bytes (synth_trace.h's writers). */
static uint8_t *synth_bytes(int (*fn)(int fd), size_t *len)
{
	uint8_t *buf = synth_bytes_of(fn, len);

	ck_assert_ptr_nonnull(buf);
	return buf;
}

/* The dump of trace with opts: stdout (malloc'ed), stderr into *err (malloc'ed), the status. */
static char *dump(const uint8_t *trace, size_t len, const char *name, const struct bpfrr_dump_opts *opts,
		  char **err_text, int *status)
{
	char *out_text = NULL, *open_err = NULL;
	size_t out_len = 0, err_len = 0;
	struct bpfrr_trace_reader *r;
	FILE *out, *err;

	r = bpfrr_trace_open_mem(trace, len, name, 0, &open_err);
	ck_assert_msg(r, "%s", open_err);
	out = open_memstream(&out_text, &out_len);
	err = open_memstream(err_text, &err_len);
	ck_assert_ptr_nonnull(out);
	ck_assert_ptr_nonnull(err);
	*status = bpfrr_dump_trace(r, opts, out, err);
	fclose(out);
	fclose(err);
	bpfrr_trace_reader_close(r);
	return out_text;
}

static void compare_golden(const char *name, const char *suffix, const char *got)
{
	char path[4200];
	size_t want_len;
	char *want;

	snprintf(path, sizeof(path), "%s/dump/%s.%s", data_dir, name, suffix);
	if (getenv("BPFRR_UPDATE_GOLDEN")) {
		FILE *f = fopen(path, "wb");

		ck_assert_msg(f, "cannot write %s", path);
		fputs(got, f);
		fclose(f);
		return;
	}
	want = read_file(path, &want_len);
	ck_assert_msg(want, "missing golden file %s", path);
	if (strcmp(want, got)) {
		const char *a = got, *b = want, *la = got;
		int line = 1;

		for (; *a && *a == *b; a++, b++)
			if (*a == '\n') {
				line++;
				la = a + 1;
			}
		ck_abort_msg("%s differs from the dump at line %d: got %.*s", path, line, (int)strcspn(la, "\n"),
			     la);
	}
	free(want);
}

static void golden(const char *name, const uint8_t *trace, size_t len, const char *trace_name, bool verbose)
{
	struct bpfrr_dump_opts o = { .dot = true, .verbose = verbose };
	char *out, *err;
	int status;

	out = dump(trace, len, trace_name, &o, &err, &status);
	ck_assert_msg(status == 0, "%s: exit status %d (stderr: %s)", name, status, err);
	compare_golden(name, "out", out);
	compare_golden(name, "err", err);
	free(out);
	free(err);
}

START_TEST(synthetic_graphs)
{
	size_t len;
	uint8_t *t;

	t = synth_bytes(synth_graph_trace, &len);
	golden("graph.dot", t, len, "graph.trace", false);
	golden("graph.dot-verbose", t, len, "graph.trace", true);
	free(t);
	t = synth_bytes(synth_kprobe_trace_whole, &len);
	golden("kprobe.dot", t, len, "kprobe.trace", false);
	free(t);
	t = synth_bytes(synth_portable_trace, &len);
	golden("portable.dot", t, len, "portable.trace", false);
	free(t);
}
END_TEST

/* Two recorded traces: libbpf's opensnoop (tracepoints, a perf event array) and fx_maps (map-in-map). */
START_TEST(recorded_graphs)
{
	static const char *const names[] = { "x86_64-opensnoop", "x86_64-fx_maps" };
	char path[4300], trace[64], golden_name[64];
	size_t i, len;
	char *t;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/traces/%s.trace", data_dir, names[i]);
		t = read_file(path, &len);
		ck_assert_msg(t, "cannot read %s", path);
		snprintf(trace, sizeof(trace), "%s.trace", names[i]);
		snprintf(golden_name, sizeof(golden_name), "%s.dot", names[i]);
		golden(golden_name, (const uint8_t *)t, len, trace, false);
		free(t);
	}
}
END_TEST

/* Each line of text that contains all of the words (NULL-terminated); how many. */
static int lines_with(const char *text, const char *const *words)
{
	int n = 0;

	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");
		bool all = true;

		for (const char *const *w = words; *w && all; w++) {
			const char *hit = memmem(line, len, *w, strlen(*w));

			all = hit != NULL;
		}
		n += all;
		line += len + (line[len] == '\n');
	}
	return n;
}

/*
 * The relations of the graph trace, each as the edge that says it; a
 * probe folded, and drawn with -v; the pin path escaped; the truncated
 * trace (no END) still drawn, with its warning.
 */
START_TEST(graph_relations)
{
	struct bpfrr_dump_opts o = { .dot = true };
	char *out, *err;
	size_t len;
	uint8_t *t;
	int status;

	t = synth_bytes(synth_graph_trace, &len);
	out = dump(t, len, "graph.trace", &o, &err, &status);
	ck_assert_int_eq(status, 0);
	ck_assert_str_eq(err, "");
	/* tail calls: program array -> both programs, by slot */
	ck_assert_int_eq(lines_with(out, (const char *[]){ "map1 -> prog2 ", "\"tail call [0]\"", NULL }), 1);
	ck_assert_int_eq(lines_with(out, (const char *[]){ "map1 -> prog3 ", "\"tail call [1]\"", NULL }), 1);
	/* the program that tail-calls uses the array */
	ck_assert_int_eq(lines_with(out, (const char *[]){ "prog4 -> map1 ", "\"uses\"", NULL }), 1);
	/* the XDP link attaches it, on ifindex 2; its pin, escaped */
	ck_assert_int_eq(lines_with(out, (const char *[]){ "link7 -> prog4 ", "\"attaches\"", NULL }), 1);
	ck_assert_int_eq(lines_with(out, (const char *[]){ "link7 -> target_", "\"xdp\"", NULL }), 1);
	ck_assert_int_eq(lines_with(out, (const char *[]){ "\"netdev ifindex 2\"", NULL }), 1);
	ck_assert_int_eq(lines_with(out, (const char *[]){ "pin_", " -> link7 ", "\"pin\"", NULL }), 1);
	ck_assert_int_eq(lines_with(out, (const char *[]){ "\"pin /sys/fs/bpf/xdp \\\"main\\\" \\\\link??\"",
							   NULL }), 1);
	/* the cgroup the program is attached to, by its path */
	ck_assert_int_eq(lines_with(out, (const char *[]){ "fd9 [", "cgroup /sys/fs/cgroup/app", NULL }), 1);
	ck_assert_int_eq(lines_with(out, (const char *[]){ "prog10 -> fd9 ", "attach cgroup_inet_egress", NULL }),
			 1);
	/* fentry: the link -> the function the SYMBOL record names */
	ck_assert_int_eq(lines_with(out, (const char *[]){ "\"trace_fentry func vfs_read\"", NULL }), 1);
	ck_assert_int_eq(lines_with(out, (const char *[]){ "link13 -> target_", "\"trace_fentry\"", NULL }), 1);
	/* the adopted map, marked, bound to the XDP program */
	ck_assert_int_eq(lines_with(out, (const char *[]){ "map_x", "peripheries=2", "adopted fd", NULL }), 1);
	ck_assert_int_eq(lines_with(out, (const char *[]){ "prog4 -> map_x", "\"bound\"", NULL }), 1);
	/* the map opened from a pin, marked */
	ck_assert_int_eq(lines_with(out, (const char *[]){ "map15 [", "peripheries=2", "map shared\\nfrom a pin", NULL }), 1);
	ck_assert_int_eq(lines_with(out, (const char *[]){ "pin_", " -> map15 ", "\"opened\"", NULL }), 1);
	/* the failure in its note, the probe folded */
	ck_assert_int_eq(lines_with(out, (const char *[]){ "failed [", "#16 BPF_MAP_CREATE: EINVAL", NULL }), 1);
	ck_assert_int_eq(lines_with(out, (const char *[]){ "folded [", "btf: #17", NULL }), 1);
	ck_assert_int_eq(lines_with(out, (const char *[]){ "btf17 [", NULL }), 0);
	free(out);
	free(err);

	o.verbose = true;
	out = dump(t, len, "graph.trace", &o, &err, &status);
	ck_assert_int_eq(lines_with(out, (const char *[]){ "btf17 [", NULL }), 1);
	ck_assert_int_eq(lines_with(out, (const char *[]){ "folded [", NULL }), 0);
	free(out);
	free(err);
	free(t);

	/* without END: the graph of what is there, a warning, status 3 */
	t = synth_bytes(synth_kprobe_trace_cut, &len);
	o.verbose = false;
	out = dump(t, len, "kprobe.trace", &o, &err, &status);
	ck_assert_int_eq(status, BPFRR_EXIT_TRUNCATED);
	ck_assert_ptr_nonnull(strstr(out, "(truncated: no END record)"));
	ck_assert_ptr_nonnull(strstr(out, "link6 -> prog4 "));
	ck_assert_ptr_nonnull(strstr(err, "warning"));
	free(out);
	free(err);
	free(t);
}
END_TEST

static Suite *dump_dot_suite(void)
{
	Suite *s = suite_create("dump_dot");
	TCase *tc = tcase_create("dump_dot");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, synthetic_graphs);
	tcase_add_test(tc, recorded_graphs);
	tcase_add_test(tc, graph_relations);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(dump_dot_suite());
	int failed;

	find_data_dir();
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

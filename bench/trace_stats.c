// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_stats: the figures the benchmarks read from a trace (host only).
 *
 *   trace_stats sizes TRACE
 *   trace_stats durations TRACE [SEQ...]
 *   trace_stats reencode TRACE OUT [MAJOR]
 *   trace_stats blobs TRACE
 *
 * sizes prints one line of key=value words:
 *
 *   file         bytes of the trace file
 *   attr         attr bytes captured (at entry, and again at exit when the
 *                command writes attr back), summed over the bpf() calls
 *   buffers      bytes of every buffer captured, one count per reference
 *                (what the recorder read from the tracee: bpf() buffers and
 *                the memory other recorded syscalls point to)
 *   captured     attr + buffers
 *   stored       bytes of BLOB data in the file (identical buffers once)
 *   identity     BLOB bytes only the recorder's OBJECT records refer to
 *                (bpf_*_info structs it asked for, not captured memory)
 *   elf          BLOB bytes only ELF records refer to (the BPF objects the
 *                recorder read from the loader's files, 1.1 on)
 *   blob_rec, call_rec, other_rec
 *                file bytes of BLOB records, BPF_CALL/SYSCALL records (attr
 *                inline, region descriptions) and all other records (header,
 *                tasks, fd events, objects, notes, end), framing included
 *                (a record's bytes run from its offset to the next record's;
 *                the HEADER and the file prefix are not counted)
 *   bpf_calls, syscalls, blobs
 *
 * durations prints "calls=N duration_us=D busy_us=B missing=M": D is the sum
 * of the recorded durations (syscall entry to exit, as the recorder saw them)
 * of the calls whose seq is listed (every bpf() call when none is), B the
 * time at least one of them was in progress (the union of their intervals:
 * less than D when calls of several threads overlapped), N the calls summed,
 * M the listed seqs not in the trace or that never returned.
 *
 * blobs prints a line per blob: its id, length, the bytes its record takes
 * in the file (framing included), its form (2.x and later: 0-15 raw, 16
 * runs, 17 copies, 18 deflate) and what refers to it first (a region's path, "elf" or
 * "object"), then totals per form: where a trace's blob bytes go.
 *
 * reencode writes TRACE's records again, in the format this bpfrr writes (or
 * in MAJOR.x: 1 to 4), to OUT (the END record gets the time of the
 * rewrite): the same recording in another format, to compare sizes.
 *
 * Exit status 0; 2 for a bad command line or a trace that does not read to
 * its END record (the error is printed).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace.h"

#define ME "trace_stats"

struct sizes {
	uint64_t attr, buffers, stored, identity, elf;
	uint64_t blob_rec, call_rec, other_rec;
	uint64_t bpf_calls, syscalls, blobs;
};

/* What each blob id is referred to by. */
struct blob_use {
	uint64_t len;
	bool by_region, by_object, by_elf;
};

static void die_usage(void)
{
	fprintf(stderr, "usage: " ME " sizes TRACE | " ME " durations TRACE [SEQ...] | " ME " blobs TRACE | "
		ME " reencode TRACE OUT [MAJOR]\n");
	exit(2);
}

static struct bpfrr_trace_reader *open_trace(const char *path)
{
	struct bpfrr_trace_reader *r;
	char *err = NULL;

	r = bpfrr_trace_open(path, 0, &err);
	if (!r) {
		fprintf(stderr, ME ": %s\n", err);
		free(err);
		exit(2);
	}
	if (!bpfrr_trace_header(r)) {
		fprintf(stderr, ME ": %s: truncated inside its header\n", path);
		exit(2);
	}
	return r;
}

/* Room for one more element in *arr of *cap (doubling), or exit 2. */
static void *grow_or_die(void *arr, uint64_t nr, uint64_t *cap, size_t elem)
{
	if (nr < *cap)
		return arr;
	*cap = *cap ? 2 * *cap : 64;
	arr = realloc(arr, *cap * elem);
	if (!arr) {
		fprintf(stderr, ME ": out of memory\n");
		exit(2);
	}
	return arr;
}

/* The trace's size in bytes (the end of its last record), or exit 2. */
static uint64_t file_size(const char *path)
{
	struct stat st;

	if (stat(path, &st)) {
		fprintf(stderr, ME ": %s: %s\n", path, strerror(errno));
		exit(2);
	}
	return (uint64_t)st.st_size;
}

/* A status other than a clean END is an error here: sizes of half a trace mislead. */
static void check_end(struct bpfrr_trace_reader *r, int st)
{
	if (st == BPFRR_TRACE_EOF)
		return;
	fprintf(stderr, ME ": %s\n", bpfrr_trace_error(r));
	exit(2);
}

static uint64_t regions_bytes(const struct bpfrr_trace_region *g, uint32_t n,
			      struct blob_use *use, uint64_t nr_use)
{
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (!g[i].blob || g[i].blob > nr_use)
			continue;
		sum += use[g[i].blob - 1].len;
		use[g[i].blob - 1].by_region = true;
	}
	return sum;
}

static int cmd_reencode(const char *path, const char *out, unsigned int major)
{
	struct bpfrr_trace_reader *r = open_trace(path);
	struct bpfrr_trace_record rec;
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), err;

	if (fd < 0) {
		fprintf(stderr, ME ": %s: %s\n", out, strerror(errno));
		return 2;
	}
	err = bpfrr_trace_copy(r, fd, major);
	if (err == -ENODATA)
		check_end(r, bpfrr_trace_next(r, &rec));	/* the reader's error, exit 2 */
	if (err) {
		fprintf(stderr, ME ": %s: %s\n", out, strerror(-err));
		return 2;
	}
	bpfrr_trace_reader_close(r);
	return 0;
}

static int cmd_sizes(const char *path)
{
	struct bpfrr_trace_reader *r = open_trace(path);
	struct blob_use *use = NULL;
	uint64_t nr_use = 0, cap_use = 0, i;
	struct bpfrr_trace_record rec;
	struct sizes s = { 0 };
	uint64_t *counter = NULL, counted_from = 0, size = file_size(path);
	int status;

	while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD) {
		/* a record's bytes (framing, padding) run to the next one: counted then */
		if (counter)
			*counter += rec.offset - counted_from;
		counted_from = rec.offset;
		counter = &s.other_rec;

		switch (rec.type) {
		case BPFRR_REC_BLOB:
			counter = &s.blob_rec;
			s.stored += rec.blob.len;
			s.blobs++;
			/* ids are 1, 2, 3, ... in file order (the reader checks) */
			use = grow_or_die(use, nr_use, &cap_use, sizeof(*use));
			use[nr_use++] = (struct blob_use){ .len = rec.blob.len };
			break;
		case BPFRR_REC_BPF_CALL:
			counter = &s.call_rec;
			s.bpf_calls++;
			s.attr += rec.bpf_call.attr_len + rec.bpf_call.attr_exit_len;
			s.buffers += regions_bytes(rec.bpf_call.regions, rec.bpf_call.nr_regions,
						   use, nr_use);
			break;
		case BPFRR_REC_SYSCALL:
			counter = &s.call_rec;
			s.syscalls++;
			s.buffers += regions_bytes(rec.syscall.regions, rec.syscall.nr_regions,
						   use, nr_use);
			break;
		case BPFRR_REC_OBJECT:
			if (rec.object.info_blob && rec.object.info_blob <= nr_use)
				use[rec.object.info_blob - 1].by_object = true;
			break;
		case BPFRR_REC_ELF:
			if (rec.elf.blob && rec.elf.blob <= nr_use)
				use[rec.elf.blob - 1].by_elf = true;
			break;
		default:
			break;
		}
	}
	check_end(r, status);
	if (counter)
		*counter += size - counted_from;
	for (i = 0; i < nr_use; i++) {
		if (use[i].by_object && !use[i].by_region)
			s.identity += use[i].len;
		if (use[i].by_elf && !use[i].by_region)
			s.elf += use[i].len;
	}
	printf("file=%lld attr=%llu buffers=%llu captured=%llu stored=%llu identity=%llu "
	       "blob_rec=%llu call_rec=%llu other_rec=%llu bpf_calls=%llu syscalls=%llu blobs=%llu elf=%llu\n",
	       (long long)size, (unsigned long long)s.attr, (unsigned long long)s.buffers,
	       (unsigned long long)(s.attr + s.buffers), (unsigned long long)s.stored,
	       (unsigned long long)s.identity, (unsigned long long)s.blob_rec,
	       (unsigned long long)s.call_rec, (unsigned long long)s.other_rec,
	       (unsigned long long)s.bpf_calls, (unsigned long long)s.syscalls,
	       (unsigned long long)s.blobs, (unsigned long long)s.elf);
	free(use);
	bpfrr_trace_reader_close(r);
	return 0;
}

struct interval {
	uint64_t start, end;
};

static int cmp_interval(const void *a, const void *b)
{
	const struct interval *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The length of the union of the intervals (sorts them). */
static uint64_t union_ns(struct interval *iv, size_t n)
{
	uint64_t busy = 0, start = 0, end = 0;
	size_t i;

	qsort(iv, n, sizeof(*iv), cmp_interval);
	for (i = 0; i < n; i++) {
		if (i == 0 || iv[i].start > end) {
			busy += end - start;
			start = iv[i].start;
			end = iv[i].end;
		} else if (iv[i].end > end) {
			end = iv[i].end;
		}
	}
	return busy + (end - start);
}

static int cmd_durations(const char *path, int nr_seqs, char **seq_args)
{
	struct interval *iv = NULL;
	uint64_t nr_iv = 0, cap_iv = 0;
	struct bpfrr_trace_reader *r;
	uint64_t *seqs = calloc(nr_seqs ? nr_seqs : 1, sizeof(*seqs));
	bool *found = calloc(nr_seqs ? nr_seqs : 1, sizeof(*found));
	uint64_t sum_ns = 0, calls = 0, missing = 0;
	struct bpfrr_trace_record rec;
	int i, status;

	if (!seqs || !found) {
		fprintf(stderr, ME ": out of memory\n");
		return 2;
	}
	for (i = 0; i < nr_seqs; i++) {
		char *end;

		errno = 0;
		seqs[i] = strtoull(seq_args[i], &end, 10);
		if (errno || *end || !seqs[i] || seq_args[i][0] == '-') {
			fprintf(stderr, ME ": durations: '%s' is not a call number\n", seq_args[i]);
			free(seqs);
			free(found);
			return 2;
		}
	}
	r = open_trace(path);
	while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD) {
		uint64_t seq, t_enter, t_exit;
		uint32_t flags;
		bool want = false;

		if (rec.type == BPFRR_REC_BPF_CALL) {
			seq = rec.bpf_call.seq;
			flags = rec.bpf_call.flags;
			t_enter = rec.bpf_call.t_enter_ns;
			t_exit = rec.bpf_call.t_exit_ns;
			want = !nr_seqs;
		} else if (rec.type == BPFRR_REC_SYSCALL) {
			seq = rec.syscall.seq;
			flags = rec.syscall.flags;
			t_enter = rec.syscall.t_enter_ns;
			t_exit = rec.syscall.t_exit_ns;
		} else {
			continue;
		}
		for (i = 0; i < nr_seqs; i++) {
			if (seqs[i] == seq && !found[i]) {
				found[i] = true;
				want = true;
			}
		}
		if (!want)
			continue;
		if (flags & BPFRR_CALL_NO_EXIT || t_exit < t_enter) {
			missing++;
			continue;
		}
		sum_ns += t_exit - t_enter;
		calls++;
		iv = grow_or_die(iv, nr_iv, &cap_iv, sizeof(*iv));
		iv[nr_iv++] = (struct interval){ t_enter, t_exit };
	}
	check_end(r, status);
	for (i = 0; i < nr_seqs; i++)
		missing += !found[i];
	printf("calls=%llu duration_us=%llu busy_us=%llu missing=%llu\n", (unsigned long long)calls,
	       (unsigned long long)(sum_ns / 1000), (unsigned long long)(union_ns(iv, nr_iv) / 1000),
	       (unsigned long long)missing);
	free(iv);
	free(seqs);
	free(found);
	bpfrr_trace_reader_close(r);
	return 0;
}

struct blob_line {
	uint64_t len, rec_bytes;
	int form;		/* -1: a 1.x file */
	const char *use;	/* first reference; points into the reader */
};

static int cmd_blobs(const char *path)
{
	struct bpfrr_trace_reader *r = open_trace(path);
	uint64_t nr = 0, cap = 0, i, prev_off = 0, form_rec[4] = { 0 }, form_len[4] = { 0 }, form_nr[4] = { 0 };
	struct blob_line *b = NULL, *open_rec = NULL;
	struct bpfrr_trace_record rec;
	uint64_t size = file_size(path);
	int status;

	while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD) {
		const struct bpfrr_trace_region *g = NULL;
		uint32_t ng = 0, k;

		if (open_rec)
			open_rec->rec_bytes = rec.offset - prev_off;
		open_rec = NULL;
		prev_off = rec.offset;
		switch (rec.type) {
		case BPFRR_REC_BLOB:
			b = grow_or_die(b, nr, &cap, sizeof(*b));
			b[nr] = (struct blob_line){ .len = rec.blob.len, .use = "-",
				.form = bpfrr_trace_header(r)->version_major >= 2 ? ((const uint8_t *)rec.payload)[0] : -1 };
			open_rec = &b[nr++];
			break;
		case BPFRR_REC_BPF_CALL:
			g = rec.bpf_call.regions;
			ng = rec.bpf_call.nr_regions;
			break;
		case BPFRR_REC_SYSCALL:
			g = rec.syscall.regions;
			ng = rec.syscall.nr_regions;
			break;
		case BPFRR_REC_OBJECT:
			if (rec.object.info_blob && rec.object.info_blob <= nr && !strcmp(b[rec.object.info_blob - 1].use, "-"))
				b[rec.object.info_blob - 1].use = "object";
			break;
		case BPFRR_REC_ELF:
			if (rec.elf.blob && rec.elf.blob <= nr && !strcmp(b[rec.elf.blob - 1].use, "-"))
				b[rec.elf.blob - 1].use = "elf";
			break;
		default:
			break;
		}
		for (k = 0; k < ng; k++)
			if (g[k].blob && g[k].blob <= nr && !strcmp(b[g[k].blob - 1].use, "-"))
				b[g[k].blob - 1].use = g[k].path && *g[k].path ? g[k].path : "region";
	}
	check_end(r, status);
	if (open_rec)
		open_rec->rec_bytes = size - prev_off;
	printf("id len rec_bytes form use\n");
	for (i = 0; i < nr; i++) {
		int f = b[i].form < 16 ? 0 : b[i].form - 15;

		printf("%llu %llu %llu %d %s\n", (unsigned long long)(i + 1), (unsigned long long)b[i].len,
		       (unsigned long long)b[i].rec_bytes, b[i].form, b[i].use);
		if (f > 3)
			continue;
		form_nr[f]++;
		form_len[f] += b[i].len;
		form_rec[f] += b[i].rec_bytes;
	}
	for (i = 0; i < 4; i++)
		printf("total %s: %llu blobs, %llu bytes in %llu\n",
		       i == 0 ? "raw" : i == 1 ? "runs" : i == 2 ? "copies" : "deflate",
		       (unsigned long long)form_nr[i], (unsigned long long)form_len[i],
		       (unsigned long long)form_rec[i]);
	free(b);
	bpfrr_trace_reader_close(r);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		die_usage();
	if (!strcmp(argv[1], "sizes") && argc == 3)
		return cmd_sizes(argv[2]);
	if (!strcmp(argv[1], "blobs") && argc == 3)
		return cmd_blobs(argv[2]);
	if (!strcmp(argv[1], "reencode") && (argc == 4 || argc == 5)) {
		char *end;
		unsigned long major = argc == 5 ? strtoul(argv[4], &end, 10) : BPFRR_TRACE_VERSION_MAJOR;

		if (argc == 5 && (*end || end == argv[4]))
			die_usage();
		return cmd_reencode(argv[2], argv[3], (unsigned int)major);
	}
	if (!strcmp(argv[1], "durations"))
		return cmd_durations(argv[2], argc - 3, argv + 3);
	die_usage();
	return 2;
}

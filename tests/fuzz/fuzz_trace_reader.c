// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: arbitrary bytes read as a trace, every record decoded
 * and touched, then `bpfrr dump` run over it as text (-v), JSON, a JSON
 * summary and a graph (dot, -v).  Each input is tried twice: as is (what a
 * user's file meets), and with checksums ignored, so mutations get past
 * the CRCs and reach the record decoders, the ABI walkers and the dumper's
 * renderers.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Ilib \
 *	tests/fuzz/fuzz_trace_reader.c (every lib .c) recorder/dump*.c -lbpf -lelf -lz
 *
 * or `make fuzz` (builds build/fuzz/fuzz_trace_reader, seeds it with the
 * synthetic traces of tests/data/synth_trace.h and runs it for
 * FUZZ_SECONDS).
 *
 * A trace that reads whole is also written again in the current format
 * (4.0: blobs may be stored as copies of earlier ones, or deflated) and read back: every
 * blob must come back byte for byte.
 *
 * With FUZZ_WRITE_SEEDS=DIR in the environment, the first run writes the
 * synthetic traces into DIR, in trace formats 1.1, 2.2, 3.0 and 4.0, and exits
 * (seeding a corpus).
 */
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../recorder/dump.h"
#include "../data/synth_trace.h"
#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static FILE *devnull;

/* Read every field the decoder hands out, so ASan sees any bad pointer. */
static size_t touch_regions(struct bpfrr_trace_reader *r, const struct bpfrr_trace_region *regs, uint32_t nr)
{
	size_t sum = 0;
	uint32_t i;

	for (i = 0; i < nr; i++) {
		const struct bpfrr_rec_blob *b = bpfrr_trace_blob(r, regs[i].blob);

		sum += strlen(regs[i].path) + regs[i].len;
		if (b && b->len)
			sum += ((const uint8_t *)b->data)[b->len - 1];
	}
	return sum;
}

static size_t touch(struct bpfrr_trace_reader *r, const struct bpfrr_trace_record *rec)
{
	size_t sum = 0;
	uint32_t i;

	switch (rec->type) {
	case BPFRR_REC_BLOB:
		if (rec->blob.len)
			sum += ((const uint8_t *)rec->blob.data)[rec->blob.len - 1];
		break;
	case BPFRR_REC_TASK:
		sum += strlen(rec->task.path);
		for (i = 0; i < rec->task.argc; i++)
			sum += strlen(rec->task.argv[i]);
		break;
	case BPFRR_REC_BPF_CALL:
		if (rec->bpf_call.attr_len)
			sum += ((const uint8_t *)rec->bpf_call.attr)[rec->bpf_call.attr_len - 1];
		if (rec->bpf_call.attr_exit_len)
			sum += ((const uint8_t *)rec->bpf_call.attr_exit)[rec->bpf_call.attr_exit_len - 1];
		sum += touch_regions(r, rec->bpf_call.regions, rec->bpf_call.nr_regions);
		break;
	case BPFRR_REC_SYSCALL:
		sum += strlen(rec->syscall.name);
		sum += touch_regions(r, rec->syscall.regions, rec->syscall.nr_regions);
		break;
	case BPFRR_REC_OBJECT:
		sum += strlen(rec->object.name);
		break;
	case BPFRR_REC_NOTE:
		sum += strlen(rec->note.text);
		break;
	default:
		if (rec->length)
			sum += ((const uint8_t *)rec->payload)[rec->length - 1];
		break;
	}
	return sum;
}

/*
 * r read whole: its records written again in the current format, and every
 * blob of the result equal to the one of r with its id.  A record the
 * writer refuses (a crafted file can hold what the recorder never writes,
 * e.g. two equal blobs) ends the check, not the run.
 */
static void round_trip(struct bpfrr_trace_reader *r)
{
	int fd = memfd_create("round-trip", 0);
	struct bpfrr_trace_reader *r2;
	struct bpfrr_trace_record rec;
	struct stat st;
	uint8_t *bytes;

	if (fd < 0)
		return;
	if (bpfrr_trace_copy(r, dup(fd), BPFRR_TRACE_VERSION_MAJOR) || fstat(fd, &st) || !st.st_size) {
		close(fd);
		return;
	}
	bytes = malloc((size_t)st.st_size);
	if (!bytes || pread(fd, bytes, (size_t)st.st_size, 0) != st.st_size)
		abort();
	close(fd);
	r2 = bpfrr_trace_open_mem(bytes, (size_t)st.st_size, "again.trace", 0, NULL);
	if (!r2)
		abort();
	while (bpfrr_trace_next(r2, &rec) == BPFRR_TRACE_RECORD) {
		const struct bpfrr_rec_blob *b = rec.type == BPFRR_REC_BLOB ? bpfrr_trace_blob(r, rec.blob.id) : NULL;

		if (rec.type == BPFRR_REC_BLOB &&
		    (!b || b->len != rec.blob.len || (b->len && memcmp(b->data, rec.blob.data, b->len))))
			abort();
	}
	if (bpfrr_trace_next(r2, &rec) != BPFRR_TRACE_EOF)
		abort();	/* what the writer wrote reads whole */
	bpfrr_trace_reader_close(r2);
	free(bytes);
}

static void run(const uint8_t *data, size_t size, unsigned int flags)
{
	static const struct bpfrr_dump_opts opts[] = {
		{ .verbose = true },
		{ .json = true },
		{ .summary = true, .json = true },
		{ .dot = true, .verbose = true },
	};
	struct bpfrr_trace_reader *r;
	struct bpfrr_trace_record rec;
	char *err = NULL;
	volatile size_t sum = 0;
	size_t i;

	r = bpfrr_trace_open_mem(data, size, "fuzz.trace", flags, &err);
	if (!r) {
		/* a failed open always explains itself */
		if (!err || !strstr(err, "fuzz.trace"))
			abort();
		free(err);
		return;
	}
	if (bpfrr_trace_header(r))
		sum += strlen(bpfrr_trace_header(r)->kernel_release);
	while (bpfrr_trace_next(r, &rec) == BPFRR_TRACE_RECORD)
		sum += touch(r, &rec);
	if (!strstr(bpfrr_trace_error(r), "fuzz.trace") && bpfrr_trace_next(r, &rec) != BPFRR_TRACE_EOF)
		abort();
	if (!flags && bpfrr_trace_next(r, &rec) == BPFRR_TRACE_EOF)
		round_trip(r);
	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		int status;

		bpfrr_trace_rewind(r);
		status = bpfrr_dump_trace(r, &opts[i], devnull, devnull);
		if (status != 0 && status != 1 && status != 2 && status != BPFRR_EXIT_TRUNCATED)
			abort();
	}
	bpfrr_trace_reader_close(r);
	(void)sum;
}

static void write_seed(const char *dir, const char *name, unsigned int major, int (*fn)(int fd))
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/synth-%s%s.trace", dir, name,
		 major == 4 ? "-v4" : major == 3 ? "-v3" : major == 2 ? "-v2" : "");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	synth_major = major;
	if (fd < 0 || fn(fd)) {
		fprintf(stderr, "cannot write %s\n", path);
		exit(1);
	}
}

/*
 * Blobs that repeat each other (3.0's copy form, BLOB form 17): one of 600
 * bytes, then three that copy parts of it and of each other.
 */
static int copies_trace(int fd)
{
	struct bpfrr_trace_header h = { .arch = 62, .nr_cpus = 1, .page_size = 4096, .arch_name = "x86_64" };
	struct bpfrr_trace_writer *w = bpfrr_trace_create_fd_version(fd, &h, 3);
	uint8_t a[600], b[700];
	uint32_t x = 1;

	if (!w)
		return -1;
	for (size_t i = 0; i < sizeof(a); i++) {
		x = x * 1103515245 + 12345;
		a[i] = (uint8_t)(x >> 16);
	}
	memcpy(b, a + 50, 500);
	memset(b + 500, 0x5a, 200);
	bpfrr_trace_put_blob(w, a, sizeof(a));
	bpfrr_trace_put_blob(w, b, sizeof(b));
	b[10] ^= 1;
	bpfrr_trace_put_blob(w, b, sizeof(b));
	bpfrr_trace_put_blob(w, b + 1, 300);
	return bpfrr_trace_close(w, 0, 0);
}

/*
 * Blobs that deflate (4.0's BLOB form 18): text-like bytes no earlier blob
 * holds, one that copies part of the first, one of a few repeated bytes.
 */
static int deflate_trace(int fd)
{
	static const char *const words[] = { "map ", "prog ", "btf ", "link ", "insn ", "func ", ".text " };
	struct bpfrr_trace_header h = { .arch = 62, .nr_cpus = 1, .page_size = 4096, .arch_name = "x86_64" };
	struct bpfrr_trace_writer *w = bpfrr_trace_create_fd_version(fd, &h, 4);
	uint8_t a[2000], b[900];
	uint32_t x = 7;
	size_t at = 0;

	if (!w)
		return -1;
	while (at < sizeof(a)) {
		const char *word;
		size_t k;

		x = x * 1103515245 + 12345;
		word = words[(x >> 16) % 7];
		k = strlen(word) < sizeof(a) - at ? strlen(word) : sizeof(a) - at;
		memcpy(a + at, word, k);
		at += k;
	}
	memcpy(b, a + 100, 600);
	memset(b + 600, 0x33, 300);
	bpfrr_trace_put_blob(w, a, sizeof(a));
	bpfrr_trace_put_blob(w, b, sizeof(b));
	memset(a, 0x7e, 1000);
	bpfrr_trace_put_blob(w, a, sizeof(a));
	return bpfrr_trace_close(w, 0, 0);
}

/* The synthetic traces in trace formats 1.1, 2.2, 3.0 and 4.0 (what the recorder writes). */
static void write_seeds(const char *dir)
{
	unsigned int major;

	write_seed(dir, "copies", 3, copies_trace);
	write_seed(dir, "deflate", 4, deflate_trace);
	for (major = 1; major <= BPFRR_TRACE_VERSION_MAJOR; major++) {
		write_seed(dir, "kprobe", major, synth_kprobe_trace_whole);
		write_seed(dir, "kprobe-truncated", major, synth_kprobe_trace_cut);
		/* a light skeleton: the loader program decoder behind dump */
		write_seed(dir, "lskel", major, synth_lskel_trace);
		/* symbols, the kernel record, ELF objects */
		write_seed(dir, "portable", major, synth_portable_trace);
		write_seed(dir, "later-uapi", major, synth_later_uapi_trace);
	}
	exit(0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (getenv("FUZZ_WRITE_SEEDS"))
		write_seeds(getenv("FUZZ_WRITE_SEEDS"));
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	run(data, size, 0);
	run(data, size, BPFRR_TRACE_IGNORE_CHECKSUMS);
	return 0;
}

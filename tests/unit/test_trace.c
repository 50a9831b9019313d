// SPDX-License-Identifier: GPL-2.0-only
/*
 * Trace writer/reader tests: round trips of every record type, blob
 * dedup, truncation at every byte offset, corruption of every byte,
 * versioning rules.  The tests that do not depend on the byte layout run
 * in every format (loop tests: _i is the major version written); those
 * that edit bytes at known offsets use 1.1, and the 2.x encoding has its
 * own below.  Host only, no bpf().
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blob_copy.h"
#include "sha256.h"
#include "trace.h"

/* --- helpers ------------------------------------------------------------------ */

static const char *const sample_argv[] = { "loader", "--flag", "", "arg with spaces" };

static struct bpfrr_trace_header sample_header(void)
{
	struct bpfrr_trace_header h = {
		.arch = 62,
		.nr_cpus = 4,
		.page_size = 4096,
		.start_realtime_ns = 1700000000123456789ull,
		.start_monotonic_ns = 5000000000ull,
		.recorder_pid = 100,
		.tracee_pid = 101,
		.arch_name = "x86_64",
		.kernel_release = "6.12.0-test",
		.kernel_version = "#1 SMP PREEMPT_DYNAMIC",
		.recorder_version = "bpfrr test",
		.argc = 4,
		.argv = sample_argv,
	};
	return h;
}

/* The format new_writer() writes: each test sets it (a loop test from _i). */
static unsigned int writer_major = 1;

static struct bpfrr_trace_writer *new_writer(int *fd)
{
	struct bpfrr_trace_header h = sample_header();
	struct bpfrr_trace_writer *w;

	*fd = memfd_create("trace", 0);
	ck_assert_int_ge(*fd, 0);
	/* the writer owns (and closes) its own fd; we keep a second one to read */
	w = bpfrr_trace_create_fd_version(dup(*fd), &h, writer_major);
	ck_assert_ptr_nonnull(w);
	return w;
}

/* Bytes of a record's frame before its payload. */
static size_t frame_header_size(const struct bpfrr_trace_record *rec)
{
	return writer_major == 1 ? 12 : bpfrr_cframe_header_size(rec->type, rec->length);
}

/* The bytes written to fd so far. */
static uint8_t *file_bytes(int fd, size_t *len)
{
	struct stat st;
	uint8_t *buf;

	ck_assert_int_eq(fstat(fd, &st), 0);
	*len = (size_t)st.st_size;
	buf = malloc(*len + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(pread(fd, buf, *len, 0), (ssize_t)*len);
	return buf;
}

static struct bpfrr_trace_reader *open_bytes(const uint8_t *buf, size_t len, unsigned int flags)
{
	char *err = NULL;
	struct bpfrr_trace_reader *r = bpfrr_trace_open_mem(buf, len, "t.trace", flags, &err);

	ck_assert_msg(r, "open failed: %s", err ? err : "?");
	return r;
}

static char *open_error(const uint8_t *buf, size_t len)
{
	char *err = NULL;
	struct bpfrr_trace_reader *r = bpfrr_trace_open_mem(buf, len, "t.trace", 0, &err);

	ck_assert_msg(!r, "open of a bad file succeeded");
	ck_assert_ptr_nonnull(err);
	return err;
}

static const uint8_t insns[] = {
	0xb7, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* r0 = 0 */
	0x95, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* exit */
};
static const char license[] = "GPL";

/* Counts of what write_sample() wrote. */
#define SAMPLE_RECORDS 14	/* HEADER .. END included */

/*
 * One of every record type.  Blob ids: 1 insns, 2 license, 3 log,
 * 4 info; the second put of insns is deduplicated.
 */
static void write_sample(struct bpfrr_trace_writer *w)
{
	static const char *const exec_argv[] = { "/bin/child", "x" };
	uint8_t attr[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	uint8_t attr_exit[16] = { 0xff };
	struct bpfrr_trace_region regions[3];
	uint64_t b_insns, b_lic, b_log, b_info;
	uint8_t info[40] = { 0x42 };

	ck_assert_int_eq(bpfrr_trace_write_task(w, &(struct bpfrr_rec_task){
		.event = BPFRR_TASK_START, .tid = 101, .tgid = 101, .time_ns = 5000000001ull,
		.path = "/bin/loader", .argc = 2, .argv = exec_argv }), 0);
	ck_assert_int_eq(bpfrr_trace_write_task(w, &(struct bpfrr_rec_task){
		.event = BPFRR_TASK_FORK, .tid = 102, .tgid = 102, .other_tid = 101,
		.clone_flags = 0x11, .time_ns = 5000000002ull }), 0);

	b_insns = bpfrr_trace_put_blob(w, insns, sizeof(insns));
	b_lic = bpfrr_trace_put_blob(w, license, sizeof(license));
	ck_assert_uint_eq(b_insns, 1);
	ck_assert_uint_eq(b_lic, 2);
	ck_assert_uint_eq(bpfrr_trace_put_blob(w, insns, sizeof(insns)), 1);	/* dedup */
	b_log = bpfrr_trace_put_blob(w, "log line\n", 10);
	ck_assert_uint_eq(b_log, 3);

	regions[0] = (struct bpfrr_trace_region){ .phase = 0, .dir = 1, .content = 5, .addr = 0x1000,
		.len = sizeof(insns), .want_len = sizeof(insns), .blob = b_insns, .path = "attr.insns" };
	regions[1] = (struct bpfrr_trace_region){ .phase = 0, .dir = 1, .content = 2, .addr = 0x2000,
		.len = sizeof(license), .want_len = sizeof(license), .blob = b_lic, .path = "attr.license" };
	regions[2] = (struct bpfrr_trace_region){ .phase = 1, .dir = 2, .content = 4,
		.flags = BPFRR_REGION_TRUNCATED | BPFRR_REGION_SHORT, .err = EFAULT, .addr = 0x3000,
		.len = 64, .want_len = 1 << 20, .blob = b_log, .path = "attr.log_buf" };
	ck_assert_int_eq(bpfrr_trace_write_bpf_call(w, &(struct bpfrr_rec_bpf_call){
		.seq = 1, .tid = 101, .cmd = 5, .attr_addr = 0x7ffc0000, .attr_size = 144,
		.flags = BPFRR_CALL_ATTR_TRUNCATED, .ret = 3, .t_enter_ns = 5000001000ull,
		.t_exit_ns = 5000002000ull, .attr_len = sizeof(attr), .attr = attr,
		.attr_exit_len = sizeof(attr_exit), .attr_exit = attr_exit,
		.nr_regions = 3, .regions = regions }), 0);
	ck_assert_int_eq(bpfrr_trace_write_fd_event(w, &(struct bpfrr_rec_fd_event){
		.seq = 1, .tid = 101, .op = BPFRR_FD_NEW, .fd = 3, .newfd = -1, .kind = 2,
		.flags = BPFRR_FD_F_CLOEXEC, .object = 1 }), 0);
	b_info = bpfrr_trace_put_blob(w, info, sizeof(info));
	ck_assert_uint_eq(b_info, 4);
	ck_assert_int_eq(bpfrr_trace_write_object(w, &(struct bpfrr_rec_object){
		.seq = 1, .tid = 101, .fd = 3, .kind = 2, .id = 77, .type = 2,
		.attach_type = 9, .target_obj_id = 1, .target_btf_id = 1234, .target = 0x123456789ull,
		.tag = { 1, 2, 3, 4, 5, 6, 7, 8 }, .name = "my_prog", .info_blob = b_info }), 0);
	regions[0] = (struct bpfrr_trace_region){ .phase = 0, .dir = 1, .addr = 0x4000, .len = 8,
		.want_len = 8, .flags = BPFRR_REGION_UNREADABLE, .err = EFAULT, .path = "perf_event_attr" };
	ck_assert_int_eq(bpfrr_trace_write_syscall(w, &(struct bpfrr_rec_syscall){
		.seq = 2, .tid = 102, .nr = 298, .args = { 1, 2, 3, 4, 5, 0xffffffffffffffffull },
		.ret = -22, .t_enter_ns = 1, .t_exit_ns = 2, .name = "perf_event_open",
		.nr_regions = 1, .regions = regions }), 0);
	ck_assert_int_eq(bpfrr_trace_notef(w, BPFRR_NOTE_WARNING, 2, 102, "lost %d bytes", 8), 0);
	ck_assert_int_eq(bpfrr_trace_write_task(w, &(struct bpfrr_rec_task){
		.event = BPFRR_TASK_EXIT, .tid = 102, .tgid = 102, .status = 0x0900 }), 0);
}

/* Every record of a trace (END included); returns the final status. */
static int read_all(struct bpfrr_trace_reader *r, uint32_t *types, int max, int *count)
{
	struct bpfrr_trace_record rec;
	int status;

	*count = 0;
	while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD) {
		if (*count < max)
			types[*count] = rec.type;
		(*count)++;
	}
	return status;
}

static uint8_t *sample_file(size_t *len, bool with_end)
{
	struct bpfrr_trace_writer *w;
	uint8_t *buf;
	int fd;

	w = new_writer(&fd);
	write_sample(w);
	if (with_end)
		ck_assert_int_eq(bpfrr_trace_close(w, 0x100, 0), 0);
	else
		bpfrr_trace_abandon(w);
	buf = file_bytes(fd, len);
	close(fd);
	return buf;
}

/* --- tests --------------------------------------------------------------------- */

START_TEST(crc32c_and_sha256_known_values)
{
	uint8_t sha[32];
	static const uint8_t sha_abc[32] = {
		0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
		0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad,
	};

	/* the standard check value of CRC-32C */
	ck_assert_uint_eq(bpfrr_crc32c(0, "123456789", 9), 0xE3069283u);
	ck_assert_uint_eq(bpfrr_crc32c(0, "", 0), 0);
	/* continuing a CRC equals computing it in one go */
	ck_assert_uint_eq(bpfrr_crc32c(bpfrr_crc32c(0, "1234", 4), "56789", 5), 0xE3069283u);
	/* 32 bytes of zeros (RFC 3720 B.4) */
	ck_assert_uint_eq(bpfrr_crc32c(0, (uint8_t[32]){ 0 }, 32), 0x8A9136AAu);
	bpfrr_sha256("abc", 3, sha);
	ck_assert_mem_eq(sha, sha_abc, 32);
}
END_TEST

START_TEST(round_trip_every_record_type)
{
	static const uint32_t want_types[] = {
		BPFRR_REC_TASK, BPFRR_REC_TASK, BPFRR_REC_BLOB, BPFRR_REC_BLOB, BPFRR_REC_BLOB,
		BPFRR_REC_BPF_CALL, BPFRR_REC_FD_EVENT, BPFRR_REC_BLOB, BPFRR_REC_OBJECT,
		BPFRR_REC_SYSCALL, BPFRR_REC_NOTE, BPFRR_REC_TASK, BPFRR_REC_END,
	};
	const struct bpfrr_trace_header *h;
	const struct bpfrr_rec_blob *blob;
	struct bpfrr_trace_reader *r;
	struct bpfrr_trace_record rec;
	uint8_t *buf;
	size_t len;
	int i;

	writer_major = (unsigned int)_i;
	buf = sample_file(&len, true);
	r = open_bytes(buf, len, 0);
	h = bpfrr_trace_header(r);
	ck_assert_ptr_nonnull(h);
	ck_assert_uint_eq(h->version_major, writer_major);
	ck_assert_uint_eq(h->version_minor, writer_major == 1 ? BPFRR_TRACE_V1_MINOR :
					    writer_major == 2 ? BPFRR_TRACE_V2_MINOR :
					    writer_major == 3 ? BPFRR_TRACE_V3_MINOR : BPFRR_TRACE_VERSION_MINOR);
	ck_assert_uint_eq(h->arch, 62);
	ck_assert_uint_eq(h->nr_cpus, 4);
	ck_assert_uint_eq(h->page_size, 4096);
	ck_assert_uint_eq(h->start_realtime_ns, 1700000000123456789ull);
	ck_assert_uint_eq(h->start_monotonic_ns, 5000000000ull);
	ck_assert_uint_eq(h->recorder_pid, 100);
	ck_assert_uint_eq(h->tracee_pid, 101);
	ck_assert_str_eq(h->arch_name, "x86_64");
	ck_assert_str_eq(h->kernel_release, "6.12.0-test");
	ck_assert_str_eq(h->kernel_version, "#1 SMP PREEMPT_DYNAMIC");
	ck_assert_str_eq(h->recorder_version, "bpfrr test");
	ck_assert_uint_eq(h->argc, 4);
	for (i = 0; i < 4; i++)
		ck_assert_str_eq(h->argv[i], sample_argv[i]);
	ck_assert_ptr_null(h->argv[4]);

	for (i = 0; i < SAMPLE_RECORDS - 2; i++) {
		ck_assert_int_eq(bpfrr_trace_next(r, &rec), BPFRR_TRACE_RECORD);
		ck_assert_uint_eq(rec.type, want_types[i]);
		if (writer_major == 1)
			ck_assert_uint_eq(rec.offset % 8, 0);	/* 2.x records are not aligned, */
		if (rec.type == BPFRR_REC_BLOB)
			ck_assert_uint_eq((uintptr_t)rec.blob.data % 8, 0);	/* blob data is */
		switch (rec.type) {
		case BPFRR_REC_TASK:
			if (rec.task.event == BPFRR_TASK_START) {
				ck_assert_uint_eq(rec.task.tid, 101);
				ck_assert_uint_eq(rec.task.time_ns, 5000000001ull);
				ck_assert_str_eq(rec.task.path, "/bin/loader");
				ck_assert_uint_eq(rec.task.argc, 2);
				ck_assert_str_eq(rec.task.argv[0], "/bin/child");
				ck_assert_str_eq(rec.task.argv[1], "x");
			} else if (rec.task.event == BPFRR_TASK_FORK) {
				ck_assert_uint_eq(rec.task.tid, 102);
				ck_assert_uint_eq(rec.task.other_tid, 101);
				ck_assert_uint_eq(rec.task.clone_flags, 0x11);
				ck_assert_str_eq(rec.task.path, "");
				ck_assert_uint_eq(rec.task.argc, 0);
			} else {
				ck_assert_uint_eq(rec.task.event, BPFRR_TASK_EXIT);
				ck_assert_int_eq(rec.task.status, 0x0900);
			}
			break;
		case BPFRR_REC_BLOB:
			ck_assert_uint_eq((uintptr_t)rec.blob.data % 8, 0);
			if (rec.blob.id == 1) {
				ck_assert_uint_eq(rec.blob.len, sizeof(insns));
				ck_assert_mem_eq(rec.blob.data, insns, sizeof(insns));
			}
			break;
		case BPFRR_REC_BPF_CALL: {
			const struct bpfrr_rec_bpf_call *c = &rec.bpf_call;

			ck_assert_uint_eq(c->seq, 1);
			ck_assert_uint_eq(c->tid, 101);
			ck_assert_uint_eq(c->cmd, 5);
			ck_assert_uint_eq(c->attr_addr, 0x7ffc0000);
			ck_assert_uint_eq(c->attr_size, 144);
			ck_assert_uint_eq(c->flags, BPFRR_CALL_ATTR_TRUNCATED);
			ck_assert_int_eq(c->ret, 3);
			ck_assert_uint_eq(c->t_enter_ns, 5000001000ull);
			ck_assert_uint_eq(c->t_exit_ns, 5000002000ull);
			ck_assert_uint_eq(c->attr_len, 16);
			ck_assert_uint_eq((uintptr_t)c->attr % 8, 0);
			ck_assert_uint_eq(((const uint8_t *)c->attr)[15], 16);
			ck_assert_uint_eq(c->attr_exit_len, 16);
			ck_assert_uint_eq(((const uint8_t *)c->attr_exit)[0], 0xff);
			ck_assert_uint_eq(c->nr_regions, 3);
			ck_assert_str_eq(c->regions[0].path, "attr.insns");
			ck_assert_uint_eq(c->regions[0].blob, 1);
			ck_assert_uint_eq(c->regions[0].content, 5);
			ck_assert_str_eq(c->regions[1].path, "attr.license");
			ck_assert_uint_eq(c->regions[1].blob, 2);
			ck_assert_uint_eq(c->regions[2].phase, 1);
			ck_assert_uint_eq(c->regions[2].dir, 2);
			ck_assert_uint_eq(c->regions[2].flags, BPFRR_REGION_TRUNCATED | BPFRR_REGION_SHORT);
			ck_assert_int_eq(c->regions[2].err, EFAULT);
			ck_assert_uint_eq(c->regions[2].addr, 0x3000);
			ck_assert_uint_eq(c->regions[2].len, 64);
			ck_assert_uint_eq(c->regions[2].want_len, 1 << 20);
			blob = bpfrr_trace_blob(r, c->regions[1].blob);
			ck_assert_ptr_nonnull(blob);
			ck_assert_str_eq(blob->data, "GPL");
			break;
		}
		case BPFRR_REC_FD_EVENT:
			ck_assert_uint_eq(rec.fd_event.seq, 1);
			ck_assert_uint_eq(rec.fd_event.op, BPFRR_FD_NEW);
			ck_assert_int_eq(rec.fd_event.fd, 3);
			ck_assert_int_eq(rec.fd_event.newfd, -1);
			ck_assert_uint_eq(rec.fd_event.kind, 2);
			ck_assert_uint_eq(rec.fd_event.flags, BPFRR_FD_F_CLOEXEC);
			ck_assert_uint_eq(rec.fd_event.object, 1);
			break;
		case BPFRR_REC_OBJECT:
			ck_assert_uint_eq(rec.object.id, 77);
			ck_assert_int_eq(rec.object.fd, 3);
			ck_assert_uint_eq(rec.object.attach_type, 9);
			ck_assert_uint_eq(rec.object.target_btf_id, 1234);
			ck_assert_uint_eq(rec.object.target, 0x123456789ull);
			ck_assert_mem_eq(rec.object.tag, ((uint8_t[8]){ 1, 2, 3, 4, 5, 6, 7, 8 }), 8);
			ck_assert_str_eq(rec.object.name, "my_prog");
			ck_assert_uint_eq(rec.object.info_blob, 4);
			ck_assert_uint_eq(bpfrr_trace_blob(r, 4)->len, 40);
			break;
		case BPFRR_REC_SYSCALL:
			ck_assert_uint_eq(rec.syscall.seq, 2);
			ck_assert_uint_eq(rec.syscall.nr, 298);
			ck_assert_uint_eq(rec.syscall.args[5], 0xffffffffffffffffull);
			ck_assert_int_eq(rec.syscall.ret, -22);
			ck_assert_int_eq(bpfrr_trace_ret_errno(rec.syscall.ret), EINVAL);
			ck_assert_str_eq(rec.syscall.name, "perf_event_open");
			ck_assert_uint_eq(rec.syscall.nr_regions, 1);
			ck_assert_uint_eq(rec.syscall.regions[0].blob, 0);
			ck_assert_uint_eq(rec.syscall.regions[0].flags, BPFRR_REGION_UNREADABLE);
			break;
		case BPFRR_REC_NOTE:
			ck_assert_uint_eq(rec.note.level, BPFRR_NOTE_WARNING);
			ck_assert_uint_eq(rec.note.tid, 102);
			ck_assert_str_eq(rec.note.text, "lost 8 bytes");
			break;
		}
	}
	ck_assert_int_eq(bpfrr_trace_next(r, &rec), BPFRR_TRACE_RECORD);
	ck_assert_uint_eq(rec.type, BPFRR_REC_END);
	ck_assert_int_eq(rec.end.exit_status, 0x100);
	ck_assert_uint_eq(rec.end.nr_records, SAMPLE_RECORDS - 1);
	ck_assert_uint_eq(rec.end.nr_bpf_calls, 1);
	ck_assert_uint_eq(rec.end.nr_syscalls, 1);
	ck_assert_uint_eq(rec.end.nr_blobs, 4);
	ck_assert_uint_eq(rec.end.blob_bytes, sizeof(insns) + sizeof(license) + 10 + 40);
	ck_assert_uint_eq(rec.end.dedup_hits, 1);
	ck_assert_uint_eq(rec.end.dedup_bytes, sizeof(insns));
	ck_assert_int_eq(bpfrr_trace_next(r, &rec), BPFRR_TRACE_EOF);
	ck_assert_int_eq(bpfrr_trace_next(r, &rec), BPFRR_TRACE_EOF);

	/* a second pass sees the same records and still validates END */
	bpfrr_trace_rewind(r);
	ck_assert_int_eq(read_all(r, (uint32_t[16]){ 0 }, 16, &i), BPFRR_TRACE_EOF);
	ck_assert_int_eq(i, SAMPLE_RECORDS - 1);
	bpfrr_trace_reader_close(r);
	free(buf);
}
END_TEST

/* The 1.1 records: the kernel build, what its numbers name, a BPF object. */
START_TEST(round_trip_portable_records)
{
	static const uint8_t elf[16] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
	struct bpfrr_trace_writer *w;
	struct bpfrr_trace_reader *r;
	struct bpfrr_trace_record rec;
	uint64_t b_elf;
	size_t len, cut;
	uint8_t *buf;
	int fd, n;

	writer_major = (unsigned int)_i;
	w = new_writer(&fd);
	ck_assert_int_eq(bpfrr_trace_write_kernel(w, &(struct bpfrr_rec_kernel){
		.btf_size = 6000000, .btf_sha256 = { 0xab, [31] = 0xcd }, .release = "6.12.0-test",
		.version = "#1 SMP", .machine = "x86_64", .build_id = "00ff" }), 0);
	ck_assert_int_eq(bpfrr_trace_write_symbol(w, &(struct bpfrr_rec_symbol){
		.seq = 7, .kind = BPFRR_SYM_BTF_ID, .value = 51234, .btf_kind = 12, .btf_obj_id = 1,
		.name = "vfs_read", .module = "" }), 0);
	ck_assert_int_eq(bpfrr_trace_write_symbol(w, &(struct bpfrr_rec_symbol){
		.seq = 8, .kind = BPFRR_SYM_KSYM_ADDR, .value = 0xffffffff81000010ull, .offset = 0x10,
		.name = "do_sys_open", .module = "" }), 0);
	/* 2.1: a struct_ops value type with the places of its program fds (1.x has none) */
	ck_assert_int_eq(bpfrr_trace_write_symbol(w, &(struct bpfrr_rec_symbol){
		.seq = 9, .kind = BPFRR_SYM_BTF_ID, .flags = BPFRR_SYM_F_VALUE_FDS, .value = 60001, .btf_kind = 4,
		.name = "bpf_struct_ops_tcp_congestion_ops", .module = "", .nr_value_fds = 3,
		.value_fds = { 64, 72, 200 } }), 0);
	if (writer_major >= 2)
		ck_assert_int_eq(bpfrr_trace_write_symbol(w, &(struct bpfrr_rec_symbol){
			.kind = BPFRR_SYM_BTF_ID, .name = "x", .module = "",
			.nr_value_fds = BPFRR_SYM_VALUE_FDS_MAX + 1 }), -EINVAL);
	/* an ELF record needs bytes stored before it */
	ck_assert_int_eq(bpfrr_trace_write_elf(w, &(struct bpfrr_rec_elf){ .blob = 1, .path = "x" }),
			 -EINVAL);
	b_elf = bpfrr_trace_put_blob(w, elf, sizeof(elf));
	ck_assert_int_eq(bpfrr_trace_write_elf(w, &(struct bpfrr_rec_elf){
		.seq = 3, .tid = 101, .flags = BPFRR_ELF_F_EMBEDDED, .offset = 4096, .blob = b_elf,
		.path = "/usr/sbin/opensnoop" }), 0);
	ck_assert_int_eq(bpfrr_trace_close(w, 0, 0), 0);
	buf = file_bytes(fd, &len);
	close(fd);

	r = open_bytes(buf, len, 0);
	ck_assert_int_eq(bpfrr_trace_next(r, &rec), BPFRR_TRACE_RECORD);
	ck_assert_uint_eq(rec.type, BPFRR_REC_KERNEL);
	ck_assert_str_eq(bpfrr_trace_rec_type_name(rec.type), "KERNEL");
	ck_assert_uint_eq(rec.kernel.btf_size, 6000000);
	ck_assert_uint_eq(rec.kernel.btf_sha256[0], 0xab);
	ck_assert_uint_eq(rec.kernel.btf_sha256[31], 0xcd);
	ck_assert_str_eq(rec.kernel.release, "6.12.0-test");
	ck_assert_str_eq(rec.kernel.machine, "x86_64");
	ck_assert_str_eq(rec.kernel.build_id, "00ff");
	ck_assert_int_eq(bpfrr_trace_next(r, &rec), BPFRR_TRACE_RECORD);
	ck_assert_uint_eq(rec.type, BPFRR_REC_SYMBOL);
	ck_assert_uint_eq(rec.symbol.seq, 7);
	ck_assert_uint_eq(rec.symbol.kind, BPFRR_SYM_BTF_ID);
	ck_assert_uint_eq(rec.symbol.value, 51234);
	ck_assert_uint_eq(rec.symbol.btf_kind, 12);
	ck_assert_uint_eq(rec.symbol.btf_obj_id, 1);
	ck_assert_str_eq(rec.symbol.name, "vfs_read");
	ck_assert_str_eq(rec.symbol.module, "");
	ck_assert_int_eq(bpfrr_trace_next(r, &rec), BPFRR_TRACE_RECORD);
	ck_assert_uint_eq(rec.symbol.kind, BPFRR_SYM_KSYM_ADDR);
	ck_assert_uint_eq(rec.symbol.value, 0xffffffff81000010ull);
	ck_assert_uint_eq(rec.symbol.offset, 0x10);
	ck_assert_str_eq(rec.symbol.name, "do_sys_open");
	ck_assert_uint_eq(rec.symbol.nr_value_fds, 0);
	ck_assert_int_eq(bpfrr_trace_next(r, &rec), BPFRR_TRACE_RECORD);
	ck_assert_str_eq(rec.symbol.name, "bpf_struct_ops_tcp_congestion_ops");
	ck_assert_uint_eq(rec.symbol.flags, writer_major >= 2 ? BPFRR_SYM_F_VALUE_FDS : 0);
	if (writer_major >= 2) {
		ck_assert_uint_eq(rec.symbol.nr_value_fds, 3);
		ck_assert_uint_eq(rec.symbol.value_fds[0], 64);
		ck_assert_uint_eq(rec.symbol.value_fds[1], 72);
		ck_assert_uint_eq(rec.symbol.value_fds[2], 200);
	} else {
		ck_assert_uint_eq(rec.symbol.nr_value_fds, 0);
	}
	ck_assert_int_eq(bpfrr_trace_next(r, &rec), BPFRR_TRACE_RECORD);
	ck_assert_uint_eq(rec.type, BPFRR_REC_BLOB);
	ck_assert_int_eq(bpfrr_trace_next(r, &rec), BPFRR_TRACE_RECORD);
	ck_assert_uint_eq(rec.type, BPFRR_REC_ELF);
	ck_assert_uint_eq(rec.elf.seq, 3);
	ck_assert_uint_eq(rec.elf.tid, 101);
	ck_assert_uint_eq(rec.elf.flags, BPFRR_ELF_F_EMBEDDED);
	ck_assert_uint_eq(rec.elf.offset, 4096);
	ck_assert_str_eq(rec.elf.path, "/usr/sbin/opensnoop");
	ck_assert_mem_eq(bpfrr_trace_blob(r, rec.elf.blob)->data, elf, sizeof(elf));
	ck_assert_int_eq(bpfrr_trace_next(r, &rec), BPFRR_TRACE_RECORD);
	ck_assert_uint_eq(rec.type, BPFRR_REC_END);
	ck_assert_int_eq(bpfrr_trace_next(r, &rec), BPFRR_TRACE_EOF);
	bpfrr_trace_reader_close(r);

	/* cut anywhere, the complete records before the cut are still read */
	for (cut = 1; cut < len; cut++) {
		r = open_bytes(buf, cut, 0);
		n = 0;
		while (bpfrr_trace_next(r, &rec) == BPFRR_TRACE_RECORD)
			n++;
		ck_assert_int_le(n, 7);
		bpfrr_trace_reader_close(r);
	}
	free(buf);
}
END_TEST

START_TEST(round_trip_through_a_path)
{
	char path[] = "/tmp/bpfrr-test-XXXXXX";
	struct bpfrr_trace_header h = sample_header();
	struct bpfrr_trace_writer *w;
	struct bpfrr_trace_reader *r;
	uint32_t types[16];
	char *err = NULL;
	int fd, n;

	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	w = bpfrr_trace_create(path, &h);
	ck_assert_ptr_nonnull(w);
	write_sample(w);
	ck_assert_int_eq(bpfrr_trace_close(w, 0, 0), 0);
	r = bpfrr_trace_open(path, 0, &err);
	ck_assert_msg(r, "%s", err);
	ck_assert_int_eq(read_all(r, types, 16, &n), BPFRR_TRACE_EOF);
	ck_assert_int_eq(n, SAMPLE_RECORDS - 1);
	bpfrr_trace_reader_close(r);
	unlink(path);

	r = bpfrr_trace_open(path, 0, &err);
	ck_assert_ptr_null(r);
	ck_assert_ptr_nonnull(strstr(err, ": No such file or directory"));
	free(err);
}
END_TEST

START_TEST(dedup_stores_identical_blobs_once)
{
	struct bpfrr_trace_writer *w;
	struct bpfrr_trace_reader *r;
	struct bpfrr_trace_record rec;
	struct bpfrr_rec_end stats;
	uint8_t big[100000], *buf;
	int fd, blob_records = 0;
	uint64_t a, b, c, d, e;
	size_t len;

	writer_major = (unsigned int)_i;
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(i * 7);
	w = new_writer(&fd);
	a = bpfrr_trace_put_blob(w, big, sizeof(big));
	b = bpfrr_trace_put_blob(w, big, sizeof(big));
	c = bpfrr_trace_put_blob(w, big, sizeof(big) - 1);	/* a prefix is a different blob */
	d = bpfrr_trace_put_blob(w, "", 0);
	e = bpfrr_trace_put_blob(w, NULL, 0);
	ck_assert_uint_eq(a, 1);
	ck_assert_uint_eq(b, 1);
	ck_assert_uint_eq(c, 2);
	ck_assert_uint_eq(d, 3);
	ck_assert_uint_eq(e, 3);
	/* many distinct blobs grow the table; all stay findable */
	for (uint32_t i = 0; i < 3000; i++)
		ck_assert_uint_eq(bpfrr_trace_put_blob(w, &i, sizeof(i)), 4 + i);
	for (uint32_t i = 0; i < 3000; i++)
		ck_assert_uint_eq(bpfrr_trace_put_blob(w, &i, sizeof(i)), 4 + i);
	bpfrr_trace_writer_stats(w, &stats);
	ck_assert_uint_eq(stats.nr_blobs, 3003);
	ck_assert_uint_eq(stats.dedup_hits, 3002);
	ck_assert_uint_eq(stats.blob_bytes, 2 * sizeof(big) - 1 + 3000 * 4);
	ck_assert_int_eq(bpfrr_trace_close(w, 0, 0), 0);

	buf = file_bytes(fd, &len);
	close(fd);
	/* the 100000 bytes are in the file once, not twice */
	ck_assert_uint_lt(len, 2 * sizeof(big) + 3003 * 72 + 4096);
	r = open_bytes(buf, len, 0);
	while (bpfrr_trace_next(r, &rec) == BPFRR_TRACE_RECORD)
		blob_records += rec.type == BPFRR_REC_BLOB;
	ck_assert_uint_eq(blob_records, 3003);
	ck_assert_mem_eq(bpfrr_trace_blob(r, 1)->data, big, sizeof(big));
	ck_assert_uint_eq(bpfrr_trace_blob(r, 3)->len, 0);
	ck_assert_ptr_null(bpfrr_trace_blob(r, 0));
	ck_assert_ptr_null(bpfrr_trace_blob(r, 3004));
	bpfrr_trace_reader_close(r);
	free(buf);
}
END_TEST

START_TEST(writer_refuses_dangling_blob_references)
{
	struct bpfrr_trace_region region = { .blob = 1, .path = "attr.insns" };
	struct bpfrr_trace_writer *w;
	int fd;

	writer_major = (unsigned int)_i;
	w = new_writer(&fd);
	ck_assert_int_eq(bpfrr_trace_write_bpf_call(w, &(struct bpfrr_rec_bpf_call){
		.seq = 1, .nr_regions = 1, .regions = &region }), -EINVAL);
	ck_assert_int_eq(bpfrr_trace_write_object(w, &(struct bpfrr_rec_object){
		.seq = 1, .info_blob = 9 }), -EINVAL);
	ck_assert_int_eq(bpfrr_trace_write_bpf_call(w, &(struct bpfrr_rec_bpf_call){
		.seq = 1, .attr_len = 4 }), -EINVAL);
	/* the refused records left nothing behind: the trace is valid */
	ck_assert_int_eq(bpfrr_trace_close(w, 0, 0), 0);
	close(fd);
}
END_TEST

START_TEST(writer_errors_are_sticky)
{
	struct bpfrr_trace_header h = sample_header();
	struct bpfrr_trace_writer *w;
	int fd = open("/dev/full", O_WRONLY);

	ck_assert_int_ge(fd, 0);
	errno = 0;
	w = bpfrr_trace_create_fd(fd, &h);
	ck_assert_ptr_null(w);
	ck_assert_int_eq(errno, ENOSPC);
}
END_TEST

/*
 * Each record reaches the file when it is written: a reader opened on
 * the file while the writer is still open sees them all, as truncated.
 */
START_TEST(records_are_streamed_as_written)
{
	struct bpfrr_trace_writer *w;
	struct bpfrr_trace_reader *r;
	uint32_t types[16];
	uint8_t *buf;
	char want[100];
	size_t len;
	int fd, n;

	writer_major = (unsigned int)_i;
	w = new_writer(&fd);
	write_sample(w);
	buf = file_bytes(fd, &len);
	r = open_bytes(buf, len, 0);
	ck_assert_int_eq(read_all(r, types, 16, &n), BPFRR_TRACE_TRUNCATED);
	ck_assert_int_eq(n, SAMPLE_RECORDS - 2);
	ck_assert_uint_eq(types[n - 1], BPFRR_REC_TASK);
	snprintf(want, sizeof(want), "t.trace: offset %zu: truncated: no END record", len);
	ck_assert_str_eq(bpfrr_trace_error(r), want);
	ck_assert_uint_eq(len, writer_major == 1 ? 1480 : len);
	bpfrr_trace_reader_close(r);
	free(buf);
	bpfrr_trace_abandon(w);
	close(fd);
}
END_TEST

/*
 * A buffered writer (the recorder's): nothing past the HEADER reaches the
 * file until the buffer is flushed or fills; a flush leaves whole records
 * (the file reads as truncated there), and the closed file is byte for byte
 * the unbuffered writer's. A buffer smaller than a record still works.
 */
START_TEST(buffered_writer_writes_whole_records_when_flushed)
{
	struct bpfrr_trace_writer *w;
	struct bpfrr_trace_reader *r;
	size_t len0, len, flushed, want_len, sizes[] = { 65536, 40 };
	uint64_t writes;
	uint8_t *buf, *want;
	uint32_t types[16];
	int fd, n;
	unsigned int i;

	writer_major = (unsigned int)_i;
	want = sample_file(&want_len, true);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		w = new_writer(&fd);
		free(file_bytes(fd, &len0));
		ck_assert_int_eq(bpfrr_trace_writer_buffer(w, sizes[i]), 0);
		write_sample(w);
		buf = file_bytes(fd, &len);
		free(buf);
		if (sizes[i] == 65536) {
			ck_assert_uint_eq(len, len0);	/* all of it still in the buffer */
			ck_assert_uint_gt(bpfrr_trace_pending(w), 0);
			ck_assert_uint_eq(bpfrr_trace_buffer_writes(w), 0);
		} else {
			/* 40 bytes: records that do not fit went out as they are, and
			 * (2.x's smaller ones) the writer wrote its full buffer by itself,
			 * and says so */
			ck_assert_uint_gt(len, len0);
			if (writer_major >= 2)
				ck_assert_uint_gt(bpfrr_trace_buffer_writes(w), 0);
		}
		/* a flush is counted when it writes something */
		writes = bpfrr_trace_buffer_writes(w) + (bpfrr_trace_pending(w) > 0);
		ck_assert_int_eq(bpfrr_trace_flush(w), 0);
		ck_assert_uint_eq(bpfrr_trace_pending(w), 0);
		ck_assert_uint_eq(bpfrr_trace_buffer_writes(w), writes);
		ck_assert_int_eq(bpfrr_trace_flush(w), 0);
		ck_assert_uint_eq(bpfrr_trace_buffer_writes(w), writes);
		buf = file_bytes(fd, &flushed);
		r = open_bytes(buf, flushed, 0);
		ck_assert_int_eq(read_all(r, types, 16, &n), BPFRR_TRACE_TRUNCATED);
		ck_assert_int_eq(n, SAMPLE_RECORDS - 2);
		bpfrr_trace_reader_close(r);
		free(buf);
		ck_assert_int_eq(bpfrr_trace_close(w, 0x100, 0), 0);
		buf = file_bytes(fd, &len);
		/* the same bytes as unbuffered up to the END record, whose time differs */
		ck_assert_uint_gt(len, flushed);
		ck_assert_uint_gt(want_len, flushed);
		ck_assert_int_eq(memcmp(buf, want, flushed), 0);
		r = open_bytes(buf, len, 0);
		ck_assert_int_eq(read_all(r, types, 16, &n), BPFRR_TRACE_EOF);
		bpfrr_trace_reader_close(r);
		free(buf);
		close(fd);
	}
	free(want);
}
END_TEST

/*
 * Every prefix of a trace: all records that end inside the prefix are
 * returned, then truncation is reported; nothing crashes (ASan build).
 */
START_TEST(truncation_at_every_offset)
{
	struct bpfrr_trace_reader *r;
	struct bpfrr_trace_record rec;
	uint64_t ends[32], first_offset = 0;
	int nr_ends = 0, status;
	uint8_t *buf;
	size_t len, cut;

	writer_major = (unsigned int)_i;
	buf = sample_file(&len, true);
	r = open_bytes(buf, len, 0);
	while (bpfrr_trace_next(r, &rec) == BPFRR_TRACE_RECORD) {
		if (!nr_ends)
			first_offset = rec.offset;
		/* complete once its payload is there (1.x: padding or not) */
		ends[nr_ends++] = rec.offset + frame_header_size(&rec) + rec.length;
	}
	bpfrr_trace_reader_close(r);
	ck_assert_int_eq(nr_ends, SAMPLE_RECORDS - 1);

	for (cut = 0; cut < len; cut++) {
		char *err = NULL;
		int got = 0, want = 0;

		r = bpfrr_trace_open_mem(buf, cut, "t.trace", 0, &err);
		if (cut == 0) {
			ck_assert_ptr_null(r);
			ck_assert_str_eq(err, "t.trace: offset 0: empty file, not a bpfrr trace");
			free(err);
			continue;
		}
		ck_assert_msg(r, "prefix %zu: %s", cut, err);
		while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD)
			got++;
		for (int i = 0; i < nr_ends; i++)
			want += ends[i] <= cut;
		ck_assert_msg(status == BPFRR_TRACE_TRUNCATED, "prefix %zu: status %d (%s)", cut, status,
			      bpfrr_trace_error(r));
		ck_assert_msg(got == want, "prefix %zu: %d records, want %d", cut, got, want);
		ck_assert_ptr_nonnull(strstr(bpfrr_trace_error(r), ": truncated"));
		if (cut < 16)
			ck_assert_ptr_null(bpfrr_trace_header(r));
		if (cut >= first_offset)
			ck_assert_ptr_nonnull(bpfrr_trace_header(r));
		bpfrr_trace_reader_close(r);
	}
	free(buf);
}
END_TEST

/*
 * Flipping any single byte makes the trace invalid (every byte is covered
 * by the magic, the version, a CRC or the zero-padding rule), and the
 * reader reports it instead of crashing.
 */
START_TEST(corruption_of_every_byte_is_detected)
{
	uint8_t *buf, *bad;
	size_t len, at;

	writer_major = (unsigned int)_i;
	buf = sample_file(&len, true);
	bad = malloc(len);
	for (at = 0; at < len; at++) {
		struct bpfrr_trace_reader *r;
		struct bpfrr_trace_record rec;
		char *err = NULL;
		int status;

		memcpy(bad, buf, len);
		bad[at] ^= 0x10;
		r = bpfrr_trace_open_mem(bad, len, "t.trace", 0, &err);
		if (!r) {
			ck_assert_ptr_nonnull(err);
			free(err);
			continue;
		}
		while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD)
			;
		ck_assert_msg(status == BPFRR_TRACE_CORRUPT || status == BPFRR_TRACE_TRUNCATED,
			      "flip at %zu: status %d", at, status);
		bpfrr_trace_reader_close(r);
	}
	free(bad);
	free(buf);
}
END_TEST

START_TEST(crc_mismatch_names_the_offset)
{
	struct bpfrr_trace_reader *r;
	struct bpfrr_trace_record rec;
	uint64_t call_offset = 0;
	uint8_t *buf;
	size_t len;
	size_t payload_at = 0;
	char want[200];

	writer_major = (unsigned int)_i;
	buf = sample_file(&len, true);
	r = open_bytes(buf, len, 0);
	while (bpfrr_trace_next(r, &rec) == BPFRR_TRACE_RECORD) {
		if (rec.type == BPFRR_REC_BPF_CALL) {
			call_offset = rec.offset;
			payload_at = call_offset + frame_header_size(&rec);
		}
	}
	bpfrr_trace_reader_close(r);
	ck_assert_uint_ne(call_offset, 0);

	/* inside the BPF_CALL payload (2.x: in attr_addr; its bytes all have the high bit set) */
	buf[payload_at + (writer_major == 1 ? 20 : 4)] ^= 1;
	r = open_bytes(buf, len, 0);
	while (bpfrr_trace_next(r, &rec) == BPFRR_TRACE_RECORD)
		ck_assert_uint_lt(rec.offset, call_offset);
	snprintf(want, sizeof(want), "t.trace: offset %" PRIu64 ": BPF_CALL record: checksum mismatch",
		 call_offset);
	ck_assert_msg(!strncmp(bpfrr_trace_error(r), want, strlen(want)), "%s", bpfrr_trace_error(r));
	bpfrr_trace_reader_close(r);

	/* with checksums ignored the flipped byte decodes */
	r = open_bytes(buf, len, BPFRR_TRACE_IGNORE_CHECKSUMS);
	while (bpfrr_trace_next(r, &rec) == BPFRR_TRACE_RECORD)
		;
	ck_assert_int_eq(bpfrr_trace_next(r, &rec), BPFRR_TRACE_EOF);
	bpfrr_trace_reader_close(r);
	free(buf);
}
END_TEST

START_TEST(bad_magic_and_versions)
{
	uint8_t *buf;
	size_t len;
	char *err;

	buf = sample_file(&len, true);

	buf[0] = 'X';
	err = open_error(buf, len);
	ck_assert_str_eq(err, "t.trace: offset 0: bad magic: not a bpfrr trace");
	free(err);
	buf[0] = 'B';

	err = open_error((const uint8_t *)"ELF\x7f", 4);
	ck_assert_str_eq(err, "t.trace: offset 0: bad magic: not a bpfrr trace");
	free(err);

	buf[8] = 5;	/* major 5 (4.x is read since trace format 4.0) */
	buf[10] = 0;
	err = open_error(buf, len);
	ck_assert_str_eq(err, "t.trace: offset 8: unsupported trace format version 5.0 "
			      "(this bpfrr reads 1.x, 2.x, 3.x and 4.x)");
	free(err);
	buf[8] = 0;
	err = open_error(buf, len);
	ck_assert_str_eq(err, "t.trace: offset 8: unsupported trace format version 0.0 "
			      "(this bpfrr reads 1.x, 2.x, 3.x and 4.x)");
	free(err);
	free(buf);
}
END_TEST

/* Append a framed record (with a correct CRC) to buf at *len. */
static void append_record(uint8_t *buf, size_t *len, uint32_t type, const void *payload, uint32_t plen)
{
	uint8_t *f = buf + *len;
	uint32_t crc;

	memcpy(f, &type, 4);
	memcpy(f + 4, &plen, 4);
	memcpy(f + 12, payload, plen);
	crc = bpfrr_crc32c(bpfrr_crc32c(0, f, 8), payload, plen);
	memcpy(f + 8, &crc, 4);
	*len += 12 + plen;
	while (*len % 8)
		buf[(*len)++] = 0;
}

/* After editing the file prefix: the HEADER's CRC covers it. */
static void fix_header_crc(uint8_t *buf)
{
	uint32_t len, crc;

	memcpy(&len, buf + 16 + 4, 4);
	crc = bpfrr_crc32c(bpfrr_crc32c(bpfrr_crc32c(0, buf, 16), buf + 16, 8), buf + 28, len);
	memcpy(buf + 16 + 8, &crc, 4);
}

/* The sample trace without END, with room to append. */
static uint8_t *open_ended_sample(size_t *len)
{
	uint8_t *buf = sample_file(len, false), *big;

	big = calloc(1, *len + 4096);
	memcpy(big, buf, *len);
	free(buf);
	return big;
}

START_TEST(newer_minor_versions_are_read)
{
	struct bpfrr_trace_reader *r;
	struct bpfrr_trace_record rec, last;
	uint8_t payload[48] = { 0 };	/* FD_EVENT is 40 bytes: 8 too many */
	uint8_t *buf;
	size_t len;
	int n = 0, status;

	/* an unknown record type is passed on undecoded */
	buf = open_ended_sample(&len);
	append_record(buf, &len, 1000, "future", 6);
	r = open_bytes(buf, len, 0);
	while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD) {
		last = rec;
		n++;
	}
	ck_assert_int_eq(status, BPFRR_TRACE_TRUNCATED);
	ck_assert_int_eq(n, SAMPLE_RECORDS - 1);
	ck_assert_uint_eq(last.type, 1000);
	ck_assert_uint_eq(last.length, 6);
	ck_assert_mem_eq(last.payload, "future", 6);
	bpfrr_trace_reader_close(r);

	/* fields appended to a known record: an error in this minor version, ignored in a newer one */
	memcpy(payload + 12, "\x05\x00\x00\x00", 4);	/* FD_EVENT op at 12 */
	append_record(buf, &len, BPFRR_REC_FD_EVENT, payload, sizeof(payload));
	r = open_bytes(buf, len, 0);
	while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD)
		;
	ck_assert_int_eq(status, BPFRR_TRACE_CORRUPT);
	ck_assert_ptr_nonnull(strstr(bpfrr_trace_error(r),
				     "FD_EVENT record: payload: unexpected bytes after the last field"));
	bpfrr_trace_reader_close(r);
	buf[10] = BPFRR_TRACE_V1_MINOR + 1;
	fix_header_crc(buf);
	r = open_bytes(buf, len, 0);
	while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD)
		;
	ck_assert_int_eq(status, BPFRR_TRACE_TRUNCATED);
	bpfrr_trace_reader_close(r);
	free(buf);
}
END_TEST

START_TEST(structural_errors)
{
	struct bpfrr_trace_reader *r;
	struct bpfrr_trace_record rec;
	uint8_t payload[256] = { 0 };
	uint8_t *buf;
	size_t len, base;
	int status;
	char want[160];

	/* a second HEADER */
	buf = open_ended_sample(&base);
	len = base;
	append_record(buf, &len, BPFRR_REC_HEADER, payload, 8);
	r = open_bytes(buf, len, 0);
	while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD)
		;
	ck_assert_int_eq(status, BPFRR_TRACE_CORRUPT);
	snprintf(want, sizeof(want), "t.trace: offset %zu: second HEADER record", base);
	ck_assert_str_eq(bpfrr_trace_error(r), want);
	bpfrr_trace_reader_close(r);

	/* a region naming a blob that does not exist yet */
	len = base;
	{
		struct bpfrr_trace_region reg = { .path = "attr.insns" };
		struct bpfrr_trace_writer *w;
		uint8_t *one;
		size_t one_len;
		int fd;

		/* take a genuine BPF_CALL record and point its region at blob 99 */
		w = new_writer(&fd);
		reg.blob = bpfrr_trace_put_blob(w, "x", 1);
		reg.len = 1;
		ck_assert_int_eq(bpfrr_trace_write_bpf_call(w, &(struct bpfrr_rec_bpf_call){
			.seq = 9, .nr_regions = 1, .regions = &reg }), 0);
		bpfrr_trace_abandon(w);
		one = file_bytes(fd, &one_len);
		close(fd);
		/* the call is the last record: frame at one_len - padded size */
		r = open_bytes(one, one_len, 0);
		uint64_t off = 0;
		uint32_t plen = 0;

		while (bpfrr_trace_next(r, &rec) == BPFRR_TRACE_RECORD)
			if (rec.type == BPFRR_REC_BPF_CALL) {
				off = rec.offset;
				plen = rec.length;
			}
		bpfrr_trace_reader_close(r);
		memcpy(payload, one + off + 12, plen);
		/* region.blob sits 8+4+4+8+4+4+8+8+8+4+4+4 (fixed) + 1+1+1+1+2+2+4+8+8+8 into the payload */
		ck_assert_uint_eq(payload[68 + 36], 1);
		payload[68 + 36] = 99;
		append_record(buf, &len, BPFRR_REC_BPF_CALL, payload, plen);
		r = open_bytes(buf, len, 0);
		while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD)
			;
		ck_assert_int_eq(status, BPFRR_TRACE_CORRUPT);
		snprintf(want, sizeof(want),
			 "t.trace: offset %zu: BPF_CALL record: region.blob: refers to a blob not stored before it",
			 base + 12 + 68 + 36);
		ck_assert_str_eq(bpfrr_trace_error(r), want);
		bpfrr_trace_reader_close(r);
		free(one);
	}

	/* a string without its NUL: a NOTE whose text length claims 3 of "abc" */
	len = base;
	memset(payload, 0, sizeof(payload));
	memcpy(payload + 16, "\x03\x00\x00\x00" "abc", 7);
	append_record(buf, &len, BPFRR_REC_NOTE, payload, 23);
	r = open_bytes(buf, len, 0);
	while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD)
		;
	ck_assert_int_eq(status, BPFRR_TRACE_CORRUPT);
	snprintf(want, sizeof(want),
		 "t.trace: offset %zu: NOTE record: text: string not terminated by its only NUL", base + 12 + 20);
	ck_assert_str_eq(bpfrr_trace_error(r), want);
	bpfrr_trace_reader_close(r);

	/* a string length running past the record */
	len = base;
	memcpy(payload + 16, "\xff\xff\xff\x7f", 4);
	append_record(buf, &len, BPFRR_REC_NOTE, payload, 23);
	r = open_bytes(buf, len, 0);
	while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD)
		;
	ck_assert_int_eq(status, BPFRR_TRACE_CORRUPT);
	snprintf(want, sizeof(want), "t.trace: offset %zu: NOTE record: text: record ends inside it",
		 base + 12 + 20);
	ck_assert_str_eq(bpfrr_trace_error(r), want);
	bpfrr_trace_reader_close(r);

	/* a record length beyond the maximum */
	len = base;
	append_record(buf, &len, BPFRR_REC_NOTE, payload, 23);
	memcpy(buf + base + 4, "\xff\xff\xff\xff", 4);
	r = open_bytes(buf, len, 0);
	while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD)
		;
	ck_assert_int_eq(status, BPFRR_TRACE_CORRUPT);
	snprintf(want, sizeof(want), "t.trace: offset %zu: record length 4294967295 exceeds the maximum %u",
		 base + 4, BPFRR_TRACE_MAX_PAYLOAD);
	ck_assert_str_eq(bpfrr_trace_error(r), want);
	bpfrr_trace_reader_close(r);

	/* a BLOB with id 0 (found by the fuzzer: it once indexed blobs[-1]) */
	len = base;
	memset(payload, 0, sizeof(payload));
	bpfrr_sha256("", 0, payload + 16);
	append_record(buf, &len, BPFRR_REC_BLOB, payload, 52);
	r = open_bytes(buf, len, 0);
	while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD)
		;
	ck_assert_int_eq(status, BPFRR_TRACE_CORRUPT);
	snprintf(want, sizeof(want), "t.trace: offset %zu: BLOB record: id: blob id 0 is invalid", base + 12);
	ck_assert_str_eq(bpfrr_trace_error(r), want);
	bpfrr_trace_reader_close(r);
	memset(payload, 0, sizeof(payload));

	/* record type 0 */
	len = base;
	append_record(buf, &len, 0, payload, 4);
	r = open_bytes(buf, len, 0);
	while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD)
		;
	ck_assert_int_eq(status, BPFRR_TRACE_CORRUPT);
	snprintf(want, sizeof(want), "t.trace: offset %zu: record type 0 is invalid", base);
	ck_assert_str_eq(bpfrr_trace_error(r), want);
	bpfrr_trace_reader_close(r);

	/* non-zero padding */
	len = base;
	append_record(buf, &len, BPFRR_REC_NOTE, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x01\0\0\0", 21);
	buf[len - 1] = 7;
	r = open_bytes(buf, len, 0);
	while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD)
		;
	ck_assert_int_eq(status, BPFRR_TRACE_CORRUPT);
	snprintf(want, sizeof(want), "t.trace: offset %zu: non-zero padding after NOTE record", len - 1);
	ck_assert_str_eq(bpfrr_trace_error(r), want);
	bpfrr_trace_reader_close(r);
	free(buf);
}
END_TEST

START_TEST(end_record_is_checked)
{
	struct bpfrr_trace_reader *r;
	struct bpfrr_trace_record rec;
	uint64_t note_off = 0, note_size = 0;
	uint8_t *buf, *cut;
	size_t len;
	int status, n = 0;

	buf = sample_file(&len, true);

	/* data after END */
	cut = malloc(len + 8);
	memcpy(cut, buf, len);
	memset(cut + len, 0, 8);
	r = open_bytes(cut, len + 8, 0);
	while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD)
		n++;
	ck_assert_int_eq(n, SAMPLE_RECORDS - 1);
	ck_assert_int_eq(status, BPFRR_TRACE_CORRUPT);
	ck_assert_str_eq(bpfrr_trace_error(r) + strlen("t.trace: offset "), "1568: 8 bytes of data after the END record");
	bpfrr_trace_reader_close(r);

	/* a record removed from the middle: END's counts disagree */
	r = open_bytes(buf, len, 0);
	while (bpfrr_trace_next(r, &rec) == BPFRR_TRACE_RECORD)
		if (rec.type == BPFRR_REC_NOTE) {
			note_off = rec.offset;
			note_size = (12 + rec.length + 7) / 8 * 8;
		}
	bpfrr_trace_reader_close(r);
	memcpy(cut, buf, note_off);
	memcpy(cut + note_off, buf + note_off + note_size, len - note_off - note_size);
	r = open_bytes(cut, len - note_size, 0);
	while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD)
		ck_assert_uint_ne(rec.type, BPFRR_REC_END);
	ck_assert_int_eq(status, BPFRR_TRACE_CORRUPT);
	ck_assert_ptr_nonnull(strstr(bpfrr_trace_error(r), "END record: counts: do not match"));
	bpfrr_trace_reader_close(r);
	free(cut);
	free(buf);
}
END_TEST

/* --- the 2.x encoding ------------------------------------------------------------ */

/* A record of a 2.x file: type, where its frame and its payload start, its length. */
struct raw_rec {
	uint32_t type;
	size_t at, payload, len;
};

/* The records of a 2.x file from offset 16 on (no checks but the varints). */
static int raw_records(const uint8_t *buf, size_t len, struct raw_rec *out, int max)
{
	size_t off = 16;
	int n = 0;

	while (off < len && n < max) {
		uint64_t type, plen;
		int a = bpfrr_varint_decode(buf + off, len - off, &type), b;

		ck_assert_int_gt(a, 0);
		b = bpfrr_varint_decode(buf + off + a, len - off - a, &plen);
		ck_assert_int_gt(b, 0);
		out[n] = (struct raw_rec){ .type = (uint32_t)type, .at = off, .payload = off + a + b + 4,
					   .len = (size_t)plen };
		off = out[n++].payload + plen;
	}
	return n;
}

/* Rewrite the CRC of the 2.x record r (after editing it in place). */
static void fix_crc2(uint8_t *buf, const struct raw_rec *r)
{
	uint32_t crc = r->at == 16 ? bpfrr_crc32c(0, buf, 16) : 0;

	crc = bpfrr_crc32c(crc, buf + r->at, r->payload - 4 - r->at);
	crc = bpfrr_crc32c(crc, buf + r->payload, r->len);
	memcpy(buf + r->payload - 4, &crc, 4);
}

/* Append a 2.x record with a correct CRC. */
static void append_record2(uint8_t *buf, size_t *len, uint32_t type, const void *payload, uint32_t plen)
{
	uint8_t hdr[BPFRR_CFRAME_HEADER_MAX];
	size_t n = bpfrr_cframe_header(hdr, type, NULL, payload, plen, NULL, 0);

	memcpy(buf + *len, hdr, n);
	memcpy(buf + *len + n, payload, plen);
	*len += n + plen;
}

static uint8_t *sample_file2(size_t *len, bool with_end)
{
	writer_major = 2;
	return sample_file(len, with_end);
}

/*
 * The same records take far fewer bytes (varints, strings by reference,
 * attr as runs of non-zero bytes and attr_exit as its difference, no
 * padding) and read back exactly.  The figures pin the encoding.
 */
START_TEST(v2_is_smaller_and_exact)
{
	uint8_t attr[144] = { [0] = 1, [4] = 2, [100] = 0x7f }, attr_exit[144];
	struct bpfrr_trace_region reg = { .phase = 0, .dir = 1, .content = 5, .addr = 0x7ffc1000,
					  .len = 16, .want_len = 16, .path = "attr.insns" };
	struct bpfrr_trace_reader *r;
	struct bpfrr_trace_record rec;
	struct bpfrr_trace_writer *w;
	size_t len1, len2, len;
	uint8_t *buf;
	int fd;

	memcpy(attr_exit, attr, sizeof(attr));
	attr_exit[140] = 0x33;	/* what the kernel wrote back */
	free(sample_file(&len1, true));
	free(sample_file2(&len2, true));
	ck_assert_uint_eq(len1, 1568);
	ck_assert_msg(len2 * 2 < len1, "2.x sample: %zu bytes, 1.1: %zu", len2, len1);

	writer_major = 2;
	w = new_writer(&fd);
	reg.blob = bpfrr_trace_put_blob(w, insns, sizeof(insns));
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(bpfrr_trace_write_bpf_call(w, &(struct bpfrr_rec_bpf_call){
			.seq = (uint64_t)i + 1, .tid = 101, .cmd = 5, .attr_addr = 0x7ffc0000, .attr_size = 144,
			.ret = 3, .t_enter_ns = 5000001000ull, .t_exit_ns = 5000002000ull,
			.attr_len = sizeof(attr), .attr = attr, .attr_exit_len = sizeof(attr_exit),
			.attr_exit = attr_exit, .nr_regions = 1, .regions = &reg }), 0);
	ck_assert_int_eq(bpfrr_trace_close(w, 0, 0), 0);
	buf = file_bytes(fd, &len);
	close(fd);
	r = open_bytes(buf, len, 0);
	for (int i = 0; i < 3; i++) {
		do
			ck_assert_int_eq(bpfrr_trace_next(r, &rec), BPFRR_TRACE_RECORD);
		while (rec.type != BPFRR_REC_BPF_CALL);
		ck_assert_uint_eq(rec.bpf_call.attr_len, sizeof(attr));
		ck_assert_mem_eq(rec.bpf_call.attr, attr, sizeof(attr));
		ck_assert_uint_eq(rec.bpf_call.attr_exit_len, sizeof(attr_exit));
		ck_assert_mem_eq(rec.bpf_call.attr_exit, attr_exit, sizeof(attr_exit));
		ck_assert_str_eq(rec.bpf_call.regions[0].path, "attr.insns");
		ck_assert_uint_eq(rec.bpf_call.t_exit_ns, 5000002000ull);
		/* 144 + 144 bytes of attr in 19; the first names its path inline, the others by reference */
		ck_assert_uint_eq(rec.length, i ? 49 : 61);
	}
	bpfrr_trace_reader_close(r);
	free(buf);
}
END_TEST

/* A flipped bit of any record's CRC is caught, and named at that record. */
START_TEST(v2_crc_flip_is_caught)
{
	struct raw_rec recs[32];
	uint8_t *buf;
	size_t len;
	int n;

	buf = sample_file2(&len, true);
	n = raw_records(buf, len, recs, 32);
	ck_assert_int_eq(n, SAMPLE_RECORDS);
	for (int i = 0; i < n; i++) {
		struct bpfrr_trace_reader *r;
		struct bpfrr_trace_record rec;
		char *err = NULL, want[64];

		buf[recs[i].payload - 2] ^= 0x40;	/* a bit of the stored CRC */
		r = bpfrr_trace_open_mem(buf, len, "t.trace", 0, &err);
		if (i == 0) {
			ck_assert_ptr_null(r);
			ck_assert_msg(strstr(err, "t.trace: offset 16: HEADER record: checksum mismatch"), "%s", err);
			free(err);
		} else {
			while (bpfrr_trace_next(r, &rec) == BPFRR_TRACE_RECORD)
				ck_assert_uint_lt(rec.offset, recs[i].at);
			snprintf(want, sizeof(want), "t.trace: offset %zu: ", recs[i].at);
			ck_assert_msg(!strncmp(bpfrr_trace_error(r), want, strlen(want)) &&
				      strstr(bpfrr_trace_error(r), "checksum mismatch"), "%s", bpfrr_trace_error(r));
			bpfrr_trace_reader_close(r);
		}
		buf[recs[i].payload - 2] ^= 0x40;
	}
	free(buf);
}
END_TEST

/* Hostile 2.x payloads (with correct CRCs) are refused with a reason. */
START_TEST(v2_structural_errors)
{
	static const struct {
		uint32_t type;
		const char *payload;
		uint32_t len;
		const char *want;
	} cases[] = {
		/* FD_EVENT: seq 1, then a tid of 11 bytes, one not in its shortest form, one over 32 bits */
		{ BPFRR_REC_FD_EVENT, "\x01\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", 12,
		  "FD_EVENT record: tid: malformed number" },
		{ BPFRR_REC_FD_EVENT, "\x01\x80\x00", 3, "FD_EVENT record: tid: malformed number" },
		{ BPFRR_REC_FD_EVENT, "\x01\x80\x80\x80\x80\x10\x01\x02\x02\x01\x02\x00\x01", 13,
		  "FD_EVENT record: tid: number larger than 32 bits" },
		/* NOTE: seq, tid, level, then a string by a reference nothing made, and bad inline ones */
		{ BPFRR_REC_NOTE, "\x00\x00\x01\x7f", 4, "NOTE record: text: refers to a string not written before it" },
		{ BPFRR_REC_NOTE, "\x00\x00\x01\x00\x03" "abc", 8, "NOTE record: text: string not terminated" },
		{ BPFRR_REC_NOTE, "\x00\x00\x01\x00\x00", 5, "NOTE record: text: string length 0" },
		/* BLOB: 17 bytes of padding; runs more than 16 times the record; past the end; empty */
		{ BPFRR_REC_BLOB, "\x11", 1, "BLOB record: pad: record ends inside it" },
		{ BPFRR_REC_BLOB, "\x10\x80\x02\x00", 4, "BLOB record: len: runs longer than the format allows" },
		{ BPFRR_REC_BLOB, "\x10\x04\x01\x03\x02\x01\x02", 7, "BLOB record: data: run past the end" },
		{ BPFRR_REC_BLOB, "\x10\x04\x01\x00\x00\x00\x00", 7, "BLOB record: data: empty run" },
		/* BPF_CALL: seq tid cmd attr_addr, attr_size 0, flags, ret, times, attr_len 9 */
		{ BPFRR_REC_BPF_CALL, "\x01\x01\x05\x00\x00\x00\x00\x00\x00\x09", 10,
		  "BPF_CALL record: attr_len: larger than attr_size" },
		/* OBJECT: seq tid fd kind flags err, then a field bit this format has not */
		{ BPFRR_REC_OBJECT, "\x01\x01\x06\x02\x00\x00\x80\x80\x02", 9,
		  "OBJECT record: fields: names a field this format does not have" },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct bpfrr_trace_reader *r;
		struct bpfrr_trace_record rec;
		size_t len;
		uint8_t *buf;

		writer_major = 2;
		buf = open_ended_sample(&len);
		append_record2(buf, &len, cases[k].type, cases[k].payload, cases[k].len);
		r = open_bytes(buf, len, 0);
		while (bpfrr_trace_next(r, &rec) == BPFRR_TRACE_RECORD)
			;
		ck_assert_msg(strstr(bpfrr_trace_error(r), cases[k].want), "case %zu: %s", k, bpfrr_trace_error(r));
		bpfrr_trace_reader_close(r);
		free(buf);
	}
}
END_TEST

/* Versioning in 2.x: unknown record types are skipped, trailing bytes only from a newer minor. */
START_TEST(v2_newer_minor_versions_are_read)
{
	struct bpfrr_trace_reader *r;
	struct bpfrr_trace_record rec, last;
	struct raw_rec hdr;
	uint8_t *buf;
	size_t len;
	int n = 0, status;

	writer_major = 2;
	buf = open_ended_sample(&len);
	append_record2(buf, &len, 1000, "future", 6);
	r = open_bytes(buf, len, 0);
	while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD) {
		last = rec;
		n++;
	}
	ck_assert_int_eq(status, BPFRR_TRACE_TRUNCATED);
	ck_assert_int_eq(n, SAMPLE_RECORDS - 1);
	ck_assert_uint_eq(last.type, 1000);
	ck_assert_mem_eq(last.payload, "future", 6);
	bpfrr_trace_reader_close(r);

	/* an FD_EVENT with one byte more than 2.0 has */
	append_record2(buf, &len, BPFRR_REC_FD_EVENT, "\x01\x01\x01\x06\x01\x02\x00\x01\x09", 9);
	r = open_bytes(buf, len, 0);
	while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD)
		;
	ck_assert_int_eq(status, BPFRR_TRACE_CORRUPT);
	ck_assert_ptr_nonnull(strstr(bpfrr_trace_error(r),
				     "FD_EVENT record: payload: unexpected bytes after the last field"));
	bpfrr_trace_reader_close(r);
	buf[10] = BPFRR_TRACE_V2_MINOR + 1;
	ck_assert_int_eq(raw_records(buf, len, &hdr, 1), 1);
	fix_crc2(buf, &hdr);
	r = open_bytes(buf, len, 0);
	while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD)
		;
	ck_assert_int_eq(status, BPFRR_TRACE_TRUNCATED);
	ck_assert_uint_eq(bpfrr_trace_header(r)->version_minor, BPFRR_TRACE_V2_MINOR + 1);
	bpfrr_trace_reader_close(r);
	free(buf);
}
END_TEST

/* A rewind reads the same again: the string table and a blob stored as runs come back the same. */
START_TEST(v2_rewind_reads_the_same)
{
	uint8_t zeros_and_one[4096] = { [2000] = 1 }, sparse[256] = { 0 };
	struct bpfrr_trace_reader *r;
	struct bpfrr_trace_record rec;
	struct bpfrr_trace_writer *w;
	const char *names[2][8];
	const void *blob_data = NULL;
	size_t len, len2;
	uint8_t *buf;
	int fd;

	for (int i = 0; i < 16; i++)
		sparse[i * 16] = (uint8_t)(i + 1);
	writer_major = 2;
	w = new_writer(&fd);
	write_sample(w);
	/* stored as runs: 52 bytes for 256 */
	ck_assert_uint_eq(bpfrr_trace_put_blob(w, sparse, sizeof(sparse)), 5);
	ck_assert_int_eq(bpfrr_trace_close(w, 0, 0), 0);
	buf = file_bytes(fd, &len);
	close(fd);
	ck_assert_uint_lt(len, 700);
	/* runs would be more than 16 times shorter than the data: stored as it is */
	w = new_writer(&fd);
	ck_assert_uint_eq(bpfrr_trace_put_blob(w, zeros_and_one, sizeof(zeros_and_one)), 1);
	ck_assert_int_eq(bpfrr_trace_close(w, 0, 0), 0);
	free(file_bytes(fd, &len2));
	close(fd);
	ck_assert_uint_gt(len2, sizeof(zeros_and_one));
	r = open_bytes(buf, len, 0);
	for (int pass = 0; pass < 2; pass++) {
		int k = 0;

		while (bpfrr_trace_next(r, &rec) == BPFRR_TRACE_RECORD) {
			if (rec.type == BPFRR_REC_BPF_CALL || rec.type == BPFRR_REC_SYSCALL)
				names[pass][k++] = rec.type == BPFRR_REC_BPF_CALL ? rec.bpf_call.regions[1].path :
						   rec.syscall.name;
			if (rec.type == BPFRR_REC_BLOB && rec.blob.id == 5) {
				ck_assert_uint_eq(rec.blob.len, sizeof(sparse));
				ck_assert_mem_eq(rec.blob.data, sparse, sizeof(sparse));
				ck_assert_uint_eq((uintptr_t)rec.blob.data % 8, 0);
				if (pass)
					ck_assert_ptr_eq(rec.blob.data, blob_data);
				blob_data = rec.blob.data;
			}
		}
		ck_assert_int_eq(bpfrr_trace_next(r, &rec), BPFRR_TRACE_EOF);
		ck_assert_int_eq(k, 2);
		ck_assert_str_eq(names[pass][0], "attr.license");
		ck_assert_str_eq(names[pass][1], "perf_event_open");
		bpfrr_trace_rewind(r);
	}
	ck_assert_ptr_eq(names[0][0], names[1][0]);
	bpfrr_trace_reader_close(r);
	free(buf);
}
END_TEST

/* xorshift64: test data that no runs encoding shortens */
static void fill_random(uint8_t *p, size_t n, uint64_t seed)
{
	for (size_t i = 0; i < n; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		p[i] = (uint8_t)seed;
	}
}

/*
 * The copy index splits a blob into literals and copies that cover it
 * exactly, each copy equal to the bytes it names; a blob sharing nothing,
 * or a short one, is not split.
 */
START_TEST(copy_index_splits_exactly)
{
	static uint8_t a[3000], b[2000], c[5000];
	struct bpfrr_copy_index *x = bpfrr_copy_index_new();
	const struct bpfrr_copy_piece *p;
	const uint8_t *src[3] = { NULL, a, b };
	size_t nr, at = 0, copied = 0;
	long n;

	ck_assert_ptr_nonnull(x);
	fill_random(a, sizeof(a), 1);
	fill_random(b, sizeof(b), 2);
	ck_assert_int_eq(bpfrr_copy_index_split(x, a, sizeof(a), &p, &nr), 0);	/* nothing kept yet */
	ck_assert_int_eq(bpfrr_copy_index_add(x, 1, a, sizeof(a)), 0);
	ck_assert_int_eq(bpfrr_copy_index_split(x, b, sizeof(b), &p, &nr), 0);	/* nothing shared */
	ck_assert_int_eq(bpfrr_copy_index_add(x, 2, b, sizeof(b)), 0);
	ck_assert_int_eq(bpfrr_copy_index_add(x, 2, b, sizeof(b)), -EINVAL);	/* ids increase */
	ck_assert_int_eq(bpfrr_copy_index_split(x, a, 40, &p, &nr), 0);	/* too short to split */
	/* c: 7 new bytes, a[100..1100) with a byte changed at 500, 40 new, b[0..2000), a's last 100 */
	fill_random(c, sizeof(c), 3);
	memcpy(c + 7, a + 100, 1000);
	c[7 + 400] ^= 0xff;
	memcpy(c + 1047, b, 2000);
	memcpy(c + 3047, a + 2900, 100);
	n = bpfrr_copy_index_split(x, c, 3147, &p, &nr);
	ck_assert_int_eq(n, 999 + 2000 + 100);
	for (size_t i = 0; i < nr; i++) {
		ck_assert_uint_eq(p[i].lit_off, at);
		at += p[i].lit_len;
		if (!p[i].copy_len)
			continue;
		ck_assert_uint_ge(p[i].src_id, 1);
		ck_assert_uint_le(p[i].src_id, 2);
		ck_assert_uint_le(p[i].src_off + p[i].copy_len, p[i].src_id == 1 ? sizeof(a) : sizeof(b));
		ck_assert_mem_eq(c + at, src[p[i].src_id] + p[i].src_off, p[i].copy_len);
		at += p[i].copy_len;
		copied += p[i].copy_len;
	}
	ck_assert_uint_eq(at, 3147);
	ck_assert_uint_eq(copied, (size_t)n);
	/* 7 new bytes and a copy, the changed byte and a copy, 40 new and b, a's end */
	ck_assert_uint_eq(nr, 4);
	bpfrr_copy_index_free(x);
}
END_TEST

/*
 * The sample's records, then blobs[0..n) (ids 5 on), then END, written in
 * format major.x: the file's bytes, their length in *len.
 */
static uint8_t *sample_with_blobs(unsigned int major, const void *const *blobs, const size_t *lens, size_t n,
				  size_t *len)
{
	struct bpfrr_trace_writer *w;
	uint8_t *buf;
	int fd;

	writer_major = major;
	w = new_writer(&fd);
	write_sample(w);
	for (size_t i = 0; i < n; i++)
		ck_assert_uint_eq(bpfrr_trace_put_blob(w, blobs[i], lens[i]), 5 + i);
	ck_assert_int_eq(bpfrr_trace_close(w, 0, 0), 0);
	buf = file_bytes(fd, len);
	close(fd);
	return buf;
}

/*
 * Format 3.0: a blob that repeats earlier ones is stored as literals and
 * copies (form 17), far shorter than in 2.2, and reads back exactly, also
 * after a rewind; 2.2 has no copies.
 */
START_TEST(v3_blobs_copy_earlier_blobs)
{
	static uint8_t a[4096], b[4000];
	size_t len[2];
	uint8_t *buf[2];

	const void *const blobs[] = { a, b };
	const size_t lens[] = { sizeof(a), sizeof(b) };

	fill_random(a, sizeof(a), 7);
	fill_random(b, sizeof(b), 8);
	memcpy(b + 100, a + 200, 3000);	/* b: 1000 bytes of its own, 3000 of a's */
	b[1500] ^= 1;
	for (int v = 0; v < 2; v++)
		buf[v] = sample_with_blobs(v ? 3 : 2, blobs, lens, 2, &len[v]);
	ck_assert_msg(len[1] + 2900 < len[0], "3.0: %zu bytes, 2.2: %zu", len[1], len[0]);
	for (int v = 0; v < 2; v++) {
		struct bpfrr_trace_reader *r = open_bytes(buf[v], len[v], 0);
		struct bpfrr_trace_record rec;
		const void *first = NULL;

		for (int pass = 0; pass < 2; pass++) {
			while (bpfrr_trace_next(r, &rec) == BPFRR_TRACE_RECORD) {
				if (rec.type != BPFRR_REC_BLOB || rec.blob.id != 6)
					continue;
				ck_assert_uint_eq(((const uint8_t *)rec.payload)[0], v ? 17 : (unsigned int)((const uint8_t *)rec.payload)[0] % 16);
				ck_assert_uint_eq(rec.blob.len, sizeof(b));
				ck_assert_mem_eq(rec.blob.data, b, sizeof(b));
				if (pass)
					ck_assert_ptr_eq(rec.blob.data, first);
				first = rec.blob.data;
			}
			ck_assert_int_eq(bpfrr_trace_next(r, &rec), BPFRR_TRACE_EOF);
			bpfrr_trace_rewind(r);
		}
		ck_assert_ptr_nonnull(first);
		bpfrr_trace_reader_close(r);
		free(buf[v]);
	}
}
END_TEST

/*
 * Copies cost a few bytes for any number of bytes: the writer stops using
 * them when all copy-form blobs would hold more than 16 times the file, so a
 * reader's memory stays linear; every blob still reads back.
 */
START_TEST(v3_writer_keeps_copies_within_the_bound)
{
	static uint8_t big[1 << 16];
	struct bpfrr_trace_writer *w;
	struct bpfrr_trace_reader *r;
	struct bpfrr_trace_record rec;
	int fd, copies = 0, blobs = 0;
	uint8_t *buf;
	size_t len;

	fill_random(big, sizeof(big), 9);
	writer_major = 3;
	w = new_writer(&fd);
	for (int i = 0; i < 64; i++) {
		big[i] ^= 0x5a;		/* a different blob each time, nearly all a copy */
		ck_assert_uint_eq(bpfrr_trace_put_blob(w, big, sizeof(big)), (uint64_t)i + 1);
	}
	ck_assert_int_eq(bpfrr_trace_close(w, 0, 0), 0);
	buf = file_bytes(fd, &len);
	close(fd);
	r = open_bytes(buf, len, 0);
	while (bpfrr_trace_next(r, &rec) == BPFRR_TRACE_RECORD) {
		if (rec.type != BPFRR_REC_BLOB)
			continue;
		blobs++;
		copies += ((const uint8_t *)rec.payload)[0] == 17;
		ck_assert_uint_eq(rec.blob.len, sizeof(big));
	}
	ck_assert_int_eq(bpfrr_trace_next(r, &rec), BPFRR_TRACE_EOF);
	ck_assert_int_eq(blobs, 64);
	/* the first is raw; then 16 file sizes of copies, a raw one, ... */
	ck_assert_int_gt(copies, 32);
	ck_assert_int_lt(copies, 63);
	ck_assert_uint_le((uint64_t)copies * sizeof(big), 16 * (uint64_t)len);
	bpfrr_trace_reader_close(r);
	free(buf);
}
END_TEST

#define ZEROS20 "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"

/*
 * A blob record appended to the sample (whose blob 4, its info, is 40
 * bytes): it reads as blob 5, made of want_blob's want_len bytes (want
 * NULL), or the reader stops with a reason containing want.
 */
struct blob_case {
	unsigned int major;
	const char *payload;
	uint32_t len;
	const char *want;	/* NULL: valid */
	const char *want_blob;
	uint32_t want_len;
};

static void check_blob_cases(const struct blob_case *cases, size_t nr)
{
	for (size_t k = 0; k < nr; k++) {
		struct bpfrr_trace_reader *r;
		struct bpfrr_trace_record rec;
		const struct bpfrr_rec_blob *b;
		int status;
		size_t len;
		uint8_t *buf;

		writer_major = cases[k].major;
		buf = open_ended_sample(&len);
		append_record2(buf, &len, BPFRR_REC_BLOB, cases[k].payload, cases[k].len);
		r = open_bytes(buf, len, 0);
		while ((status = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD)
			;
		if (cases[k].want) {
			ck_assert_int_eq(status, BPFRR_TRACE_CORRUPT);
			ck_assert_msg(strstr(bpfrr_trace_error(r), cases[k].want), "case %zu: %s", k,
				      bpfrr_trace_error(r));
		} else {
			ck_assert_int_eq(status, BPFRR_TRACE_TRUNCATED);	/* no END */
			b = bpfrr_trace_blob(r, 5);
			ck_assert_ptr_nonnull(b);
			ck_assert_uint_eq(b->len, cases[k].want_len);
			ck_assert_mem_eq(b->data, cases[k].want_blob, b->len);
		}
		bpfrr_trace_reader_close(r);
		free(buf);
	}
}

/* Form 17's checks. */
START_TEST(v3_copy_errors)
{
	static const struct blob_case cases[] = {
		{ 3, "\x11\x05\x00\x05\x01\x00", 6, NULL, "\x42\0\0\0\0", 5 },
		{ 3, "\x11\x07\x02xy\x05\x02\x04", 8, NULL, "xyline\n", 7 },	/* "xy", then "line\n" of blob 3 */
		/* 2.x has no form 17; nor 3.0 a form 18 (zeros: what a padding would be) */
		{ 2, "\x11" ZEROS20, 21, "BLOB record: form: neither padding (0 to 15) nor runs (16)" },
		{ 3, "\x12" ZEROS20, 21, "BLOB record: form: neither padding (0 to 15), runs (16) nor copies (17)" },
		{ 3, "\x11\x05\x00\x00\x01\x00", 6, "BLOB record: copy: empty copy" },
		{ 3, "\x11\x05\x00\x06\x01\x00", 6, "BLOB record: copy: past the end of the blob" },
		{ 3, "\x11\x05\x00\x05\x00\x00", 6, "BLOB record: copy: names no earlier blob" },
		{ 3, "\x11\x05\x00\x05\x05\x00", 6, "BLOB record: copy: names no earlier blob" },
		{ 3, "\x11\x05\x00\x05\x01\x24", 6, "BLOB record: copy: past the end of the blob it copies" },
		{ 3, "\x11\x05\x00\x05\x03\x00", 6, "BLOB record: copy: past the end of the blob it copies" },
		{ 3, "\x11\x02\x03xyz", 6, "BLOB record: literal: past the end of the blob" },
		{ 3, "\x11\x05\x01x", 4, "BLOB record: copy: record ends inside it" },
		{ 3, "\x11\x01\x01x\x00", 5, "BLOB record: payload: unexpected bytes after the last field" },
		{ 3, "\x11\x80\x80\x01\x00\x80\x80\x01\x01\x00", 10,
		  "BLOB record: len: copies hold more than the format allows for the file" },
	};

	check_blob_cases(cases, sizeof(cases) / sizeof(cases[0]));
}
END_TEST

/* n bytes of text-like data: words from a small vocabulary, in a seeded order */
static void fill_words(uint8_t *p, size_t n, unsigned int seed)
{
	static const char *const words[] = { "map ", "prog ", "btf ", "link ", "insn ", "line_info ",
					     "func ", "struct ", "sec ", "kprobe/", "tracepoint/", "license " };
	size_t at = 0;

	srand(seed);
	while (at < n) {
		const char *w = words[rand() % 12];
		size_t k = strlen(w) < n - at ? strlen(w) : n - at;

		memcpy(p + at, w, k);
		at += k;
	}
}

/*
 * Format 4.0: a blob no earlier blob repeats but that compresses (an ELF
 * object's strings and symbols) is stored deflated (form 18), far shorter
 * than in 3.0, and reads back exactly, also after a rewind; a later blob
 * that repeats it is still a copy; a short one is never deflated.
 */
START_TEST(v4_blobs_deflate)
{
	static uint8_t a[6000], b[3000], small[200];
	size_t len[2];
	uint8_t *buf[2];

	static const void *const want[3] = { a, b, small };
	static const size_t want_len[3] = { sizeof(a), sizeof(b), sizeof(small) };

	fill_words(a, sizeof(a), 11);
	memcpy(b, a + 1000, sizeof(b));
	b[10] ^= 1;
	fill_words(small, sizeof(small), 12);
	for (int v = 0; v < 2; v++)
		buf[v] = sample_with_blobs(v ? 4 : 3, want, want_len, 3, &len[v]);
	ck_assert_msg(len[1] + 3000 < len[0], "4.0: %zu bytes, 3.0: %zu", len[1], len[0]);
	for (int v = 0; v < 2; v++) {
		struct bpfrr_trace_reader *r = open_bytes(buf[v], len[v], 0);
		struct bpfrr_trace_record rec;
		const void *first = NULL;

		for (int pass = 0; pass < 2; pass++) {
			int seen = 0;

			while (bpfrr_trace_next(r, &rec) == BPFRR_TRACE_RECORD) {
				unsigned int form;
				int k;

				if (rec.type != BPFRR_REC_BLOB || rec.blob.id < 5)
					continue;
				k = (int)rec.blob.id - 5;
				form = ((const uint8_t *)rec.payload)[0];
				/* a: deflated in 4.0, raw in 3.0; b: a copy of a; small: never deflated */
				if (k == 0)
					ck_assert_uint_eq(form, v ? 18u : form % 16);
				else if (k == 1)
					ck_assert_uint_eq(form, 17);
				else
					ck_assert_uint_lt(form, 18);
				ck_assert_uint_eq(rec.blob.len, want_len[k]);
				ck_assert_mem_eq(rec.blob.data, want[k], want_len[k]);
				if (k == 0) {
					if (pass)
						ck_assert_ptr_eq(rec.blob.data, first);
					first = rec.blob.data;
				}
				seen++;
			}
			ck_assert_int_eq(seen, 3);
			ck_assert_int_eq(bpfrr_trace_next(r, &rec), BPFRR_TRACE_EOF);
			bpfrr_trace_rewind(r);
		}
		bpfrr_trace_reader_close(r);
		free(buf[v]);
	}
}
END_TEST

/*
 * Deflate makes up to about a thousand bytes of one: the writer stores a
 * blob another way when all deflate- and copy-form blobs would hold more
 * than 16 times the file, so a reader's memory and time stay linear.
 */
START_TEST(v4_writer_keeps_deflate_within_the_bound)
{
	static uint8_t blob[8192];
	struct bpfrr_trace_writer *w;
	struct bpfrr_trace_reader *r;
	struct bpfrr_trace_record rec;
	int fd, deflated = 0, other = 0;
	uint64_t expanded = 0;
	uint8_t *buf;
	size_t len;

	writer_major = 4;
	w = new_writer(&fd);
	for (int i = 0; i < 64; i++) {
		/* 8 KiB of 64 random bytes over and over: deflates 50 to 1, copies nothing */
		fill_random(blob, 64, 100 + (unsigned int)i);
		for (size_t at = 64; at < sizeof(blob); at += 64)
			memcpy(blob + at, blob, 64);
		ck_assert_uint_eq(bpfrr_trace_put_blob(w, blob, sizeof(blob)), (uint64_t)i + 1);
	}
	ck_assert_int_eq(bpfrr_trace_close(w, 0, 0), 0);
	buf = file_bytes(fd, &len);
	close(fd);
	r = open_bytes(buf, len, 0);
	while (bpfrr_trace_next(r, &rec) == BPFRR_TRACE_RECORD) {
		unsigned int form;

		if (rec.type != BPFRR_REC_BLOB)
			continue;
		form = ((const uint8_t *)rec.payload)[0];
		if (form == 17 || form == 18)
			expanded += rec.blob.len;
		deflated += form == 18;
		other += form != 18;
		ck_assert_uint_eq(rec.blob.len, sizeof(blob));
		ck_assert_mem_eq((const uint8_t *)rec.blob.data + 64, rec.blob.data, sizeof(blob) - 64);
	}
	ck_assert_int_eq(bpfrr_trace_next(r, &rec), BPFRR_TRACE_EOF);
	ck_assert_int_eq(deflated + other, 64);
	ck_assert_int_gt(deflated, 0);
	ck_assert_int_gt(other, 0);
	ck_assert_uint_le(expanded, 16 * (uint64_t)len);
	bpfrr_trace_reader_close(r);
	free(buf);
}
END_TEST

/* "hello" as one stored final deflate block, and pieces of it */
#define STORED_HELLO "\x01\x05\x00\xfa\xffhello"

/* Form 18's checks. */
START_TEST(v4_deflate_errors)
{
	static const struct blob_case cases[] = {
		{ 4, "\x12\x05" STORED_HELLO, 12, NULL, "hello", 5 },
		{ 4, "\x12\x00\x03\x00", 4, NULL, "", 0 },	/* an empty blob: one empty fixed-Huffman block */
		{ 4, "\x12\x00" STORED_HELLO, 12, "BLOB record: data: deflate stream makes more bytes than len" },
		{ 4, "\x12\x04" STORED_HELLO, 12, "BLOB record: data: deflate stream makes more bytes than len" },
		{ 4, "\x12\x06" STORED_HELLO, 12, "BLOB record: data: deflate stream makes fewer bytes than len" },
		{ 4, "\x12\x05" STORED_HELLO "\x00", 13, "BLOB record: data: bytes after the end of the deflate stream" },
		{ 4, "\x12\x05\x01\x05\x00\xfa\xffhel", 10,
		  "BLOB record: data: deflate stream ends before its end block" },
		/* not the final block: the stream goes on past the record */
		{ 4, "\x12\x05\x00\x05\x00\xfa\xffhello", 12,
		  "BLOB record: data: deflate stream ends before its end block" },
		{ 4, "\x12\x05\x07hello", 8, "BLOB record: data: not a valid deflate stream" },
		{ 4, "\x12\x05\x01\x05\x00\xfb\xffhello", 12, "BLOB record: data: not a valid deflate stream" },
		{ 4, "\x12\x80\x80\x01\x03\x00", 6,
		  "BLOB record: len: deflated bytes hold more than the format allows for the file" },
		/* 3.x has no form 18; nor 4.0 a form 19 */
		{ 3, "\x12" ZEROS20, 21, "BLOB record: form: neither padding (0 to 15), runs (16) nor copies (17)" },
		{ 4, "\x13" ZEROS20, 21,
		  "BLOB record: form: neither padding (0 to 15), runs (16), copies (17) nor deflate (18)" },
	};

	check_blob_cases(cases, sizeof(cases) / sizeof(cases[0]));
}
END_TEST

/*
 * bpfrr_trace_copy(): a whole trace comes out whole in another format, one
 * cut short says so (-ENODATA) and leaves what it copied reading as
 * truncated, and a format this bpfrr does not write is -EINVAL.
 */
START_TEST(copy_rewrites_a_trace_in_another_format)
{
	struct bpfrr_trace_reader *r, *r2;
	uint8_t *in, *out;
	uint32_t types[16];
	size_t len, out_len;
	int fd, n;

	writer_major = 1;
	in = sample_file(&len, true);
	for (unsigned int major = 1; major <= BPFRR_TRACE_VERSION_MAJOR; major++) {
		r = open_bytes(in, len, 0);
		fd = memfd_create("copy", 0);
		ck_assert_int_eq(bpfrr_trace_copy(r, dup(fd), major), 0);
		out = file_bytes(fd, &out_len);
		close(fd);
		r2 = open_bytes(out, out_len, 0);
		ck_assert_uint_eq(bpfrr_trace_header(r2)->version_major, major);
		ck_assert_int_eq(read_all(r2, types, 16, &n), BPFRR_TRACE_EOF);
		ck_assert_int_eq(n, SAMPLE_RECORDS - 1);
		bpfrr_trace_reader_close(r2);
		bpfrr_trace_reader_close(r);
		free(out);
	}
	r = open_bytes(in, len, 0);
	ck_assert_int_eq(bpfrr_trace_copy(r, memfd_create("copy", 0), BPFRR_TRACE_VERSION_MAJOR + 1), -EINVAL);
	bpfrr_trace_reader_close(r);
	free(in);

	in = sample_file(&len, false);	/* no END */
	r = open_bytes(in, len, 0);
	fd = memfd_create("copy", 0);
	ck_assert_int_eq(bpfrr_trace_copy(r, dup(fd), BPFRR_TRACE_VERSION_MAJOR), -ENODATA);
	out = file_bytes(fd, &out_len);
	close(fd);
	r2 = open_bytes(out, out_len, 0);
	ck_assert_int_eq(read_all(r2, types, 16, &n), BPFRR_TRACE_TRUNCATED);
	ck_assert_int_eq(n, SAMPLE_RECORDS - 2);
	bpfrr_trace_reader_close(r2);
	bpfrr_trace_reader_close(r);
	free(out);
	free(in);
}
END_TEST

static void setup(void)
{
	writer_major = 1;
}

static Suite *trace_suite(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("trace");

	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, crc32c_and_sha256_known_values);
	/* loop tests: _i is the major version written, 1 to 4 */
	tcase_add_loop_test(tc, round_trip_every_record_type, 1, 5);
	tcase_add_loop_test(tc, round_trip_portable_records, 1, 5);
	tcase_add_test(tc, round_trip_through_a_path);
	tcase_add_loop_test(tc, dedup_stores_identical_blobs_once, 1, 5);
	tcase_add_loop_test(tc, writer_refuses_dangling_blob_references, 1, 5);
	tcase_add_test(tc, writer_errors_are_sticky);
	tcase_add_loop_test(tc, buffered_writer_writes_whole_records_when_flushed, 1, 5);
	tcase_add_loop_test(tc, records_are_streamed_as_written, 1, 5);
	tcase_add_loop_test(tc, truncation_at_every_offset, 1, 5);
	tcase_add_loop_test(tc, corruption_of_every_byte_is_detected, 1, 5);
	tcase_add_loop_test(tc, crc_mismatch_names_the_offset, 1, 5);
	tcase_add_test(tc, bad_magic_and_versions);
	tcase_add_test(tc, newer_minor_versions_are_read);
	tcase_add_test(tc, structural_errors);
	tcase_add_test(tc, end_record_is_checked);
	tcase_add_test(tc, v2_is_smaller_and_exact);
	tcase_add_test(tc, v2_crc_flip_is_caught);
	tcase_add_test(tc, v2_structural_errors);
	tcase_add_test(tc, v2_newer_minor_versions_are_read);
	tcase_add_test(tc, v2_rewind_reads_the_same);
	tcase_add_test(tc, copy_rewrites_a_trace_in_another_format);
	tcase_add_test(tc, copy_index_splits_exactly);
	tcase_add_test(tc, v3_blobs_copy_earlier_blobs);
	tcase_add_test(tc, v3_writer_keeps_copies_within_the_bound);
	tcase_add_test(tc, v3_copy_errors);
	tcase_add_test(tc, v4_blobs_deflate);
	tcase_add_test(tc, v4_writer_keeps_deflate_within_the_bound);
	tcase_add_test(tc, v4_deflate_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(trace_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

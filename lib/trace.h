/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace.h - the bpfrr trace file: a streaming writer and a reader that
 * never trusts its input.
 *
 * The byte layout is specified in docs/trace-format.md; this header is the
 * C view of it.  In short: a 16-byte file prefix (magic "BPFRRTR\0",
 * version), a HEADER record, then framed records, ending with an END record.
 * Version 1.x frames are
 *     u32 type, u32 payload length, u32 crc32c(type, length, payload), payload,
 *     zero padding to the next multiple of 8
 * with fixed-size little-endian fields; version 2.0 (what the writer
 * writes) has the same records and fields in compact frames
 *     varint type, varint length, u32 crc32c, payload
 * with varints, a string table and attrs as runs of non-zero bytes.  The
 * HEADER's CRC also covers the file prefix.  The framing is frame.h's (the
 * 1.x one is shared with the bundle).  A file without END is a truncated
 * trace: its complete records are still read.
 *
 * The same structs are used to write records and to read them back.  When
 * reading, every pointer in a record points into memory owned by the reader:
 * strings and blob data stay valid until bpfrr_trace_reader_close(); the
 * arrays (regions, argv) and the attr copies of a record are valid until the
 * next bpfrr_trace_next() call.
 *
 * Object kinds, phases, directions and content kinds in records are the
 * numeric values of enum bpfrr_obj_kind, bpfrr_phase, bpfrr_dir and
 * bpfrr_abi_content from bpf_abi.h (those enums are append-only; the values
 * are also listed in docs/trace-format.md).
 */
#ifndef BPFRR_TRACE_H
#define BPFRR_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "frame.h"	/* the framing, and bpfrr_crc32c() */

#define BPFRR_TRACE_MAGIC		"BPFRRTR"	/* 8 bytes on disk with its NUL */
#define BPFRR_TRACE_MAX_FILE		(1ull << 36)	/* the largest trace the readers take: 64 GiB */
/* The version the writer writes (docs/trace-format.md, "versioning"). */
#define BPFRR_TRACE_VERSION_MAJOR	4
#define BPFRR_TRACE_VERSION_MINOR	0
/* The newest 3.x, 2.x and 1.x: read, and written by bpfrr_trace_create_fd_version() */
#define BPFRR_TRACE_V3_MINOR		0
#define BPFRR_TRACE_V2_MINOR		2
#define BPFRR_TRACE_V1_MINOR		1

/* 2.x: no attr is longer than this (the recorder captures at most 4096 bytes) */
#define BPFRR_TRACE_ATTR_MAX		65536u

/* No record payload is larger than this; readers reject bigger lengths. */
#define BPFRR_TRACE_MAX_PAYLOAD		(320u << 20)	/* > BPFRR_ABI_BUF_MAX + framing */

/*
 * Exit status of readers (bpfrr dump, translate) for a trace that is valid
 * but has no END record (the recorder was killed): everything was processed,
 * a warning went to stderr.  Corrupt input exits 2 (BPFRR_EXIT_USAGE).
 */
#define BPFRR_EXIT_TRUNCATED		3

enum bpfrr_rec_type {
	BPFRR_REC_HEADER = 1,	/* first record; read by bpfrr_trace_open() */
	BPFRR_REC_END = 2,	/* last record of a complete trace */
	BPFRR_REC_BLOB = 3,	/* bytes referenced by id; identical bytes stored once */
	BPFRR_REC_TASK = 4,	/* a task appeared, exec'd or exited */
	BPFRR_REC_BPF_CALL = 5,	/* one bpf() call of the tracee */
	BPFRR_REC_SYSCALL = 6,	/* another syscall the load depends on */
	BPFRR_REC_FD_EVENT = 7,	/* an fd came to refer to an object, or stopped to */
	BPFRR_REC_OBJECT = 8,	/* the recorder's own identity query of a created object */
	BPFRR_REC_NOTE = 9,	/* a message from the recorder (lost memory, detach, ...) */
	/* 1.1 */
	BPFRR_REC_KERNEL = 10,	/* the recording kernel's build identity */
	BPFRR_REC_SYMBOL = 11,	/* what a kernel-build-specific number names */
	BPFRR_REC_ELF = 12,	/* a BPF ELF object the loader used (its CO-RE records) */
};

/* --- record contents -------------------------------------------------------- */

struct bpfrr_trace_header {
	uint32_t flags;			/* none defined yet: 0 */
	uint32_t arch;			/* ELF e_machine of the tracee: EM_X86_64 (62), EM_AARCH64 (183) */
	uint32_t nr_cpus;		/* possible CPUs of the recording machine (per-CPU map values) */
	uint32_t page_size;
	uint64_t start_realtime_ns;	/* CLOCK_REALTIME at start */
	uint64_t start_monotonic_ns;	/* CLOCK_MONOTONIC at the same moment (record times use it) */
	uint32_t recorder_pid;
	uint32_t tracee_pid;		/* the first tracee */
	const char *arch_name;		/* "x86_64", "aarch64" (uname -m) */
	const char *kernel_release;	/* uname -r */
	const char *kernel_version;	/* uname -v */
	const char *recorder_version;	/* "bpfrr 0.1.0" */
	uint32_t argc;			/* the recorded command line */
	const char *const *argv;
	/* filled in by the reader only: */
	uint16_t version_major, version_minor;
};

enum bpfrr_task_event {
	BPFRR_TASK_START = 1,	/* the first tracee (tid = tgid = tracee_pid) */
	BPFRR_TASK_THREAD = 2,	/* a new thread (clone with CLONE_THREAD) */
	BPFRR_TASK_FORK = 3,	/* a new process (fork, vfork, clone without CLONE_THREAD) */
	BPFRR_TASK_EXEC = 4,	/* successful execve/execveat */
	BPFRR_TASK_EXIT = 5,	/* the task is gone */
};

struct bpfrr_rec_task {
	uint32_t event;		/* enum bpfrr_task_event */
	uint32_t tid;		/* the task (EXEC: its tid after exec, = tgid) */
	uint32_t tgid;
	uint32_t other_tid;	/* THREAD/FORK: the creating task; EXEC: tid before exec; else 0 */
	uint64_t clone_flags;	/* THREAD/FORK: flags of the clone (CLONE_FILES: fd table shared) */
	int32_t status;		/* EXIT: wait status (WIFEXITED/WIFSIGNALED); else 0 */
	uint64_t time_ns;	/* CLOCK_MONOTONIC */
	const char *path;	/* START/EXEC: executable path; else "" */
	uint32_t argc;		/* START/EXEC: argv (possibly only argv[0]); else 0 */
	const char *const *argv;
};

/* Blob ids count 1, 2, 3, ... in file order; 0 means "no blob". */
struct bpfrr_rec_blob {
	uint64_t id;
	uint64_t len;
	uint8_t sha256[32];
	const void *data;	/* 8-byte aligned when read */
};

/* Region flags. The low ones are bpf_abi.h's BPFRR_ABI_BUF_* bits, passed through. */
#define BPFRR_REGION_TRUNCATED		0x0001	/* length capped (want_len > len) */
#define BPFRR_REGION_LEN_UNKNOWN	0x0002	/* length not determinable */
#define BPFRR_REGION_NO_NUL		0x0004	/* string without NUL within the cap */
#define BPFRR_REGION_UNREADABLE		0x4000	/* reading the tracee failed: no blob, err set */
#define BPFRR_REGION_SHORT		0x8000	/* read stopped early: blob shorter than len, err set */

/* One buffer a call read (at ENTRY) or wrote (at EXIT), as captured. */
struct bpfrr_trace_region {
	uint8_t phase;		/* enum bpfrr_phase */
	uint8_t dir;		/* enum bpfrr_dir */
	uint8_t content;	/* enum bpfrr_abi_content */
	uint16_t flags;		/* BPFRR_REGION_* */
	int32_t err;		/* errno of a failed read, else 0 */
	uint64_t addr;		/* tracee address */
	uint64_t len;		/* bytes the region covers (after capping) */
	uint64_t want_len;	/* bytes the length rule asked for (>= len) */
	uint64_t blob;		/* blob id of the captured bytes, 0 if none */
	const char *path;	/* "attr.insns", "attr.info.info.map_ids", "perf_event_attr", ... */
};

/* bpf_call / syscall flags */
#define BPFRR_CALL_NO_EXIT		0x0001	/* never returned (task died mid-call): ret, t_exit invalid */
#define BPFRR_CALL_ATTR_UNREADABLE	0x0002	/* attr could not be read at entry (attr_len = 0) */
#define BPFRR_CALL_ATTR_TRUNCATED	0x0004	/* attr_len < attr_size (capped) */
/* bpf() with BPF_COMMON_ATTRS (7.2): cmd is the first argument without that bit; the
 * 4th and 5th arguments are the addr and want_len of the "common_attr" regions */
#define BPFRR_CALL_COMMON_ATTRS		0x0008
/* SYSCALL (2.2): the recorder did not stop at the call's exit; ret is the one result
 * the call can have (close of an fd of a kernel object: 0), t_exit_ns = t_enter_ns */
#define BPFRR_CALL_NOT_WAITED		0x0010

struct bpfrr_rec_bpf_call {
	uint64_t seq;		/* call number: shared by BPF_CALL and SYSCALL, from 1, in entry order */
	uint32_t tid;
	uint32_t cmd;		/* first bpf() argument */
	uint64_t attr_addr;	/* second argument */
	uint32_t attr_size;	/* third argument */
	uint32_t flags;		/* BPFRR_CALL_* */
	int64_t ret;		/* raw return: >= 0 result, -4095..-1 is -errno */
	uint64_t t_enter_ns;	/* CLOCK_MONOTONIC */
	uint64_t t_exit_ns;
	uint32_t attr_len;	/* attr bytes captured at entry */
	const void *attr;	/* 8-byte aligned when read */
	uint32_t attr_exit_len;	/* attr bytes re-read at exit (0: not re-read) */
	const void *attr_exit;
	uint32_t nr_regions;
	const struct bpfrr_trace_region *regions;
};

struct bpfrr_rec_syscall {
	uint64_t seq;
	uint32_t tid;
	uint32_t nr;		/* syscall number of the tracee's arch */
	uint64_t args[6];
	int64_t ret;		/* raw return, as in bpf_call */
	uint32_t flags;		/* BPFRR_CALL_NO_EXIT, BPFRR_CALL_NOT_WAITED */
	uint64_t t_enter_ns;
	uint64_t t_exit_ns;
	const char *name;	/* "perf_event_open", "openat", "ioctl", ... */
	uint32_t nr_regions;	/* perf_event_attr, pathname, ... */
	const struct bpfrr_trace_region *regions;
};

enum bpfrr_fd_op {
	BPFRR_FD_NEW = 1,	/* fd now refers to a new object made by call seq */
	BPFRR_FD_DUP = 2,	/* newfd now refers to fd's object (dup*, fcntl F_DUPFD*) */
	BPFRR_FD_CLOSE = 3,	/* fd closed (close, close_range, or replaced by dup2/dup3) */
	BPFRR_FD_EXEC_CLOSE = 4,	/* fd closed by exec (close-on-exec) */
	BPFRR_FD_ADOPT = 5,	/* fd (of an object made elsewhere) seen for the first time */
};

#define BPFRR_FD_F_CLOEXEC	0x1	/* the (new) fd has close-on-exec set */

struct bpfrr_rec_fd_event {
	uint64_t seq;		/* call that caused the event (0: none, e.g. ADOPT) */
	uint32_t tid;		/* task whose fd table changed */
	uint32_t op;		/* enum bpfrr_fd_op */
	int32_t fd;
	int32_t newfd;		/* DUP: the new fd; else -1 */
	uint32_t kind;		/* enum bpfrr_obj_kind of the object */
	uint32_t flags;		/* BPFRR_FD_F_* */
	uint64_t object;	/* seq of the call that made the object (its origin); 0: unknown */
};

#define BPFRR_OBJECT_F_QUERY_FAILED	0x1	/* the identity query failed: err set, ids 0 */

/*
 * The recorder's own identity of an object a call created (or got an fd
 * for: OBJ_GET, *_GET_FD_BY_ID).  Not a call of the tracee.  Fields that do
 * not apply to the kind are 0.
 */
struct bpfrr_rec_object {
	uint64_t seq;		/* the call that returned the fd */
	uint32_t tid;
	int32_t fd;		/* in the tracee, right after that call */
	uint32_t kind;		/* enum bpfrr_obj_kind */
	uint32_t flags;		/* BPFRR_OBJECT_F_* */
	int32_t err;		/* errno of a failed query */
	uint32_t id;		/* kernel id */
	uint32_t type;		/* prog type / map type / link type */
	uint32_t key_size, value_size, max_entries, map_flags;	/* maps */
	uint32_t btf_id;	/* BTF object the prog/map uses; BTF: its own id is in id */
	uint32_t btf_size;	/* BTF objects */
	uint32_t prog_id;	/* links: the linked program */
	uint32_t attach_type;	/* progs: expected attach type; links: attach type */
	uint32_t target_obj_id;	/* progs: attach_btf_obj_id; links: target object id */
	uint32_t target_btf_id;	/* progs: attach_btf_id; links: target BTF type id */
	uint64_t target;	/* links: cgroup id, ifindex, netns inode, ... */
	uint8_t tag[8];		/* progs */
	const char *name;	/* object name as the kernel reports it */
	uint64_t info_blob;	/* the raw bpf_*_info struct as returned, or 0 */
};

enum bpfrr_note_level {
	BPFRR_NOTE_INFO = 1,
	BPFRR_NOTE_WARNING = 2,
	BPFRR_NOTE_ERROR = 3,
};

struct bpfrr_rec_note {
	uint64_t seq;		/* related call, or 0 */
	uint32_t tid;		/* related task, or 0 */
	uint32_t level;		/* enum bpfrr_note_level */
	const char *text;
};

#define BPFRR_KERNEL_F_NO_BTF	0x1	/* the kernel has no /sys/kernel/btf/vmlinux */
#define BPFRR_KERNEL_F_BTF_UNHASHED 0x2	/* btf_sha256 not computed (zero): the build id names the build */

/*
 * The kernel build the trace was recorded on (1.1).  Two traces with the
 * same release but another build id (or, without build ids, another BTF
 * checksum) come from different builds: their BTF ids, CO-RE results and
 * struct layouts may differ (lib/kernel_id.h: the rule).
 */
struct bpfrr_rec_kernel {
	uint32_t flags;			/* BPFRR_KERNEL_F_* */
	uint32_t btf_size;		/* bytes of /sys/kernel/btf/vmlinux */
	uint8_t btf_sha256[32];		/* its SHA-256 (zero without BTF or BTF_UNHASHED) */
	const char *release;		/* uname -r */
	const char *version;		/* uname -v */
	const char *machine;		/* uname -m */
	const char *build_id;		/* vmlinux GNU build id in hex (/sys/kernel/notes), "" if unknown */
};

/* What a number of the recording kernel names (1.1).  Values are on disk. */
enum bpfrr_sym_kind {
	BPFRR_SYM_BTF_ID = 1,		/* a BTF type id: name, btf_kind, module ("" vmlinux) */
	BPFRR_SYM_TP_ID = 2,		/* a tracepoint id: name "category/name" */
	BPFRR_SYM_PMU_TYPE = 3,		/* a perf PMU type: name of /sys/bus/event_source/devices/NAME */
	BPFRR_SYM_KSYM_ADDR = 4,	/* a kernel address: symbol name + offset, module ("" vmlinux) */
};

#define BPFRR_SYM_F_UNNAMED	0x1	/* the recorder found nothing the number names: name "" */
#define BPFRR_SYM_F_VALUE_FDS	0x2	/* 2.1: a struct_ops value type: value_fds say where its fds go */

/* The most function pointers of one struct_ops type the trace describes
 * (tcp_congestion_ops has 16, sched_ext_ops about 30). */
#define BPFRR_SYM_VALUE_FDS_MAX	64

/*
 * One record per distinct (kind, value, module) a recorded call carries,
 * written before the first call that carries it.
 */
struct bpfrr_rec_symbol {
	uint64_t seq;		/* the first call that carries the number */
	uint32_t kind;		/* enum bpfrr_sym_kind */
	uint32_t flags;		/* BPFRR_SYM_F_* */
	uint64_t value;		/* the number as the recording kernel had it */
	uint32_t btf_kind;	/* BTF_ID: BTF_KIND_* of the type; else 0 */
	uint32_t btf_obj_id;	/* BTF_ID: id of the BTF object (vmlinux or module) it is in; else 0 */
	uint64_t offset;	/* KSYM_ADDR: value - the symbol's address; else 0 */
	const char *name;	/* type, tracepoint, PMU or symbol name */
	const char *module;	/* BTF_ID, KSYM_ADDR: module, "" for vmlinux */
	/*
	 * 2.1, BTF_ID of a struct_ops value type (a map's btf_vmlinux_value_type_id,
	 * "bpf_struct_ops_tcp_congestion_ops"): the byte offsets in such a value of the
	 * function pointer members of its `data`, where a MAP_UPDATE_ELEM puts program
	 * fds (as the kernel's bpf_struct_ops_map_update_elem() reads them).  Known only
	 * with BPFRR_SYM_F_VALUE_FDS; else 0 of them.
	 */
	uint32_t nr_value_fds;
	uint32_t value_fds[BPFRR_SYM_VALUE_FDS_MAX];
};

#define BPFRR_ELF_F_EMBEDDED	0x1	/* found inside another file (a loader binary) at 'offset' */

/*
 * A BPF ELF object (e_machine EM_BPF) the loader opened or carries in its
 * executable (1.1): its .BTF.ext CO-RE records let a translator relocate
 * the programs for another kernel build.
 */
struct bpfrr_rec_elf {
	uint64_t seq;		/* the call it was found at (an open, an exec, a BTF_LOAD), or 0 */
	uint32_t tid;
	uint32_t flags;		/* BPFRR_ELF_F_* */
	uint64_t offset;	/* where it starts in the file it was read from */
	uint64_t blob;		/* its bytes */
	const char *path;	/* the file it was read from */
};

#define BPFRR_END_F_DETACHED	0x1	/* the recorder stopped observing before the tracee ended */

/* Counts are of the records before END; readers check them. */
struct bpfrr_rec_end {
	int32_t exit_status;	/* wait status of the traced command */
	uint32_t flags;		/* BPFRR_END_F_* */
	uint64_t time_ns;	/* CLOCK_MONOTONIC */
	uint64_t nr_records;	/* HEADER included */
	uint64_t nr_bpf_calls;
	uint64_t nr_syscalls;
	uint64_t nr_blobs;
	uint64_t blob_bytes;	/* bytes stored in BLOB records */
	uint64_t dedup_hits;	/* put_blob calls answered by an existing blob (informative) */
	uint64_t dedup_bytes;	/* bytes those calls did not store (informative) */
};

struct bpfrr_trace_record {
	uint32_t type;		/* enum bpfrr_rec_type, or an unknown type of a newer minor version */
	uint64_t offset;	/* file offset of the record's frame */
	uint32_t length;	/* payload length */
	const void *payload;
	union {
		struct bpfrr_rec_blob blob;
		struct bpfrr_rec_task task;
		struct bpfrr_rec_bpf_call bpf_call;
		struct bpfrr_rec_syscall syscall;
		struct bpfrr_rec_fd_event fd_event;
		struct bpfrr_rec_object object;
		struct bpfrr_rec_note note;
		struct bpfrr_rec_end end;
		struct bpfrr_rec_kernel kernel;
		struct bpfrr_rec_symbol symbol;
		struct bpfrr_rec_elf elf;
	};
};

/* --- writer --------------------------------------------------------------------
 *
 * Every record is written with write(2) as soon as it is produced; nothing is
 * held back, so a recorder killed with SIGKILL leaves all earlier records
 * readable.  A writer writes format 3.0 unless made with
 * bpfrr_trace_create_fd_version(fd, hdr, 1 or 2), which writes 1.1 or 2.2
 * (the tests of the older readers use it; all encode the same records; 3.0
 * is 2.2 where a blob may copy ranges of earlier blobs).  Not thread-safe.
 * Functions return 0 or -errno; after an I/O error every later call fails
 * with the same error (from 2.0 on also after a record that could not be
 * encoded: its strings were counted in the reader's table already).
 */
struct bpfrr_trace_writer;

/* Creates (truncates) path, mode 0644, and writes the prefix and HEADER.
 * NULL with errno set on failure. */
struct bpfrr_trace_writer *bpfrr_trace_create(const char *path, const struct bpfrr_trace_header *hdr);
/* The same on an open fd (which bpfrr_trace_close() closes). */
struct bpfrr_trace_writer *bpfrr_trace_create_fd(int fd, const struct bpfrr_trace_header *hdr);
/* The same in format major.x (1, 2 or 3); EINVAL for another major. */
struct bpfrr_trace_writer *bpfrr_trace_create_fd_version(int fd, const struct bpfrr_trace_header *hdr,
							 unsigned int major);
struct bpfrr_trace_writer *bpfrr_trace_create_version(const char *path, const struct bpfrr_trace_header *hdr,
						      unsigned int major);

/* Stores len bytes (unless identical bytes were stored already) and returns
 * the blob id to put into records; 0 with errno set on failure.  len 0 is a
 * valid, empty blob. */
uint64_t bpfrr_trace_put_blob(struct bpfrr_trace_writer *w, const void *data, size_t len);

int bpfrr_trace_write_task(struct bpfrr_trace_writer *w, const struct bpfrr_rec_task *t);
int bpfrr_trace_write_bpf_call(struct bpfrr_trace_writer *w, const struct bpfrr_rec_bpf_call *c);
int bpfrr_trace_write_syscall(struct bpfrr_trace_writer *w, const struct bpfrr_rec_syscall *s);
int bpfrr_trace_write_fd_event(struct bpfrr_trace_writer *w, const struct bpfrr_rec_fd_event *e);
int bpfrr_trace_write_object(struct bpfrr_trace_writer *w, const struct bpfrr_rec_object *o);
int bpfrr_trace_write_note(struct bpfrr_trace_writer *w, const struct bpfrr_rec_note *n);
int bpfrr_trace_write_kernel(struct bpfrr_trace_writer *w, const struct bpfrr_rec_kernel *k);
int bpfrr_trace_write_symbol(struct bpfrr_trace_writer *w, const struct bpfrr_rec_symbol *s);
int bpfrr_trace_write_elf(struct bpfrr_trace_writer *w, const struct bpfrr_rec_elf *e);
/*
 * Writes one record as a reader returned it (rewriting a trace in another
 * format): a BLOB must get the id it had (-EINVAL otherwise: a trace holds no
 * two equal blobs), END closes the writer as bpfrr_trace_close() does (do not
 * use @w after it), a record type this writer does not know is -EINVAL.
 */
int bpfrr_trace_write_record(struct bpfrr_trace_writer *w, const struct bpfrr_trace_record *rec);
struct bpfrr_trace_reader;
/*
 * r's records from its start written again, in format major.x, to fd (which
 * this closes): the same recording in another format (END gets the time of
 * the rewrite).  0 when every record through END was written; -errno when
 * the writer failed (-EINVAL: a record it refuses, see above); -ENODATA
 * when r stopped before its END (bpfrr_trace_error() says why).  Short of 0,
 * fd holds what was written, which reads as a truncated trace.
 */
int bpfrr_trace_copy(struct bpfrr_trace_reader *r, int fd, unsigned int major);
/* printf-style NOTE */
int bpfrr_trace_notef(struct bpfrr_trace_writer *w, uint32_t level, uint64_t seq, uint32_t tid,
		      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* What has been written so far (the counts END will carry). */
void bpfrr_trace_writer_stats(const struct bpfrr_trace_writer *w, struct bpfrr_rec_end *stats);

/*
 * By default each record is handed to write(2) as it is made, so the file
 * always ends with whole records. After bpfrr_trace_writer_buffer(w, size)
 * (0 or -ENOMEM) records are gathered in a buffer of size bytes instead and
 * written, whole records at a time, when it fills, by bpfrr_trace_flush() (0
 * or the sticky -errno) and at close or abandon: the writer's user decides
 * how far behind the file may be (the recorder: 20 ms of idleness, 64 KiB).
 * A write error then surfaces at the flush, and every later call returns it.
 */
int bpfrr_trace_writer_buffer(struct bpfrr_trace_writer *w, size_t size);
int bpfrr_trace_flush(struct bpfrr_trace_writer *w);
/* Bytes gathered and not yet written. */
size_t bpfrr_trace_pending(const struct bpfrr_trace_writer *w);
/* How many times the buffer was written out so far (by a flush, or when full):
 * a user that times how long records wait sees the writer's own writes. */
uint64_t bpfrr_trace_buffer_writes(const struct bpfrr_trace_writer *w);

/* Writes END (counts filled in by the writer), fsyncs, closes, frees. */
int bpfrr_trace_close(struct bpfrr_trace_writer *w, int32_t exit_status, uint32_t end_flags);
/* Writes what is buffered, closes and frees without writing END: the file reads as truncated. */
void bpfrr_trace_abandon(struct bpfrr_trace_writer *w);

/* --- reader -------------------------------------------------------------------- */

struct bpfrr_trace_reader;

/* Open flags */
#define BPFRR_TRACE_IGNORE_CHECKSUMS	0x1	/* don't check CRCs/SHA-256 (fuzzing the decoder) */

/*
 * Reads the file and checks its prefix and HEADER record.  On failure returns
 * NULL and sets *err to a malloc'd one-line message "FILE: offset N: reason"
 * (or "FILE: reason" for I/O errors); the caller frees it.  A file that ends
 * inside the prefix or the HEADER is a truncated trace, not a failure: the
 * reader is returned, bpfrr_trace_header() is NULL and bpfrr_trace_next()
 * reports BPFRR_TRACE_TRUNCATED.
 */
struct bpfrr_trace_reader *bpfrr_trace_open(const char *path, unsigned int flags, char **err);
/* The same on bytes in memory (copied); name is used in messages. */
struct bpfrr_trace_reader *bpfrr_trace_open_mem(const void *data, size_t len, const char *name,
						unsigned int flags, char **err);
/* The same on a malloc'd buffer the reader takes (and frees, failing or not): no copy. */
struct bpfrr_trace_reader *bpfrr_trace_open_owned(uint8_t *data, size_t len, const char *name,
						  unsigned int flags, char **err);
void bpfrr_trace_reader_close(struct bpfrr_trace_reader *r);

/* NULL only if the file ends inside the HEADER (see bpfrr_trace_open()). */
const struct bpfrr_trace_header *bpfrr_trace_header(const struct bpfrr_trace_reader *r);

enum bpfrr_trace_status {
	BPFRR_TRACE_RECORD = 1,		/* *rec holds the next record (END included) */
	BPFRR_TRACE_EOF = 0,		/* the END record was returned and nothing follows it */
	BPFRR_TRACE_TRUNCATED = -1,	/* data ends before END: every complete record was returned */
	BPFRR_TRACE_CORRUPT = -2,	/* invalid bytes at some offset; records before it were returned */
	BPFRR_TRACE_NOMEM = -3,
};

/*
 * The next record, in file order.  Unknown record types (from a newer minor
 * version) are returned with only type/offset/length/payload set.  Once a
 * non-RECORD status is returned, every later call returns it again.
 */
int bpfrr_trace_next(struct bpfrr_trace_reader *r, struct bpfrr_trace_record *rec);

/* The name the reader was opened with (the path, or open_mem's name). */
const char *bpfrr_trace_name(const struct bpfrr_trace_reader *r);

/* The message of the last TRUNCATED/CORRUPT/NOMEM status: "FILE: offset N: reason". */
const char *bpfrr_trace_error(const struct bpfrr_trace_reader *r);

/* Start again after the HEADER (blobs stay known). */
void bpfrr_trace_rewind(struct bpfrr_trace_reader *r);

/* A blob already read (ids up to the last BLOB record returned); NULL if unknown. */
const struct bpfrr_rec_blob *bpfrr_trace_blob(const struct bpfrr_trace_reader *r, uint64_t id);

/* --- helpers -------------------------------------------------------------------- */

/* -errno of a raw return value, or 0 if it is not an error. */
static inline int bpfrr_trace_ret_errno(int64_t ret)
{
	return ret < 0 && ret >= -4095 ? (int)-ret : 0;
}

const char *bpfrr_trace_rec_type_name(uint32_t type);	/* "BPF_CALL", or NULL */
const char *bpfrr_trace_task_event_name(uint32_t event);	/* "fork", or NULL */
const char *bpfrr_trace_fd_op_name(uint32_t op);	/* "dup", or NULL */

#endif /* BPFRR_TRACE_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record.h - internals of `bpfrr record`, shared by recorder/record*.c.
 *
 * The recorder runs the command under ptrace with a seccomp filter that
 * stops the tracee only for the system calls of the table in
 * lib/sys_abi.h (listed in docs/recorder.md).
 * Its parts:
 *   record.c           command line, spawning the tracee, exit status
 *   record_loop.c      the waitpid loop: tasks, ptrace events, signals
 *   record_filter.c    the seccomp filter, from the table of followed calls
 *   record_fdtab.c     per-process fd tables (what each fd number refers to)
 *   record_mem.c       reading tracee memory, /proc helpers
 *   record_bpf.c       bpf() calls: attr, buffers at entry and exit
 *   record_sys.c       the other stopped calls, by their rows' semantics
 *   record_identity.c  the recorder's own BPF_OBJ_GET_INFO_BY_FD queries
 *   record_symbols.c   KERNEL and SYMBOL records: what the kernel's numbers name
 *   record_elf.c       the BPF ELF objects the loader opens or embeds (CO-RE records)
 */
#ifndef BPFRR_RECORD_H
#define BPFRR_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bpf_abi.h"
#include "resolved.h"
#include "sys_abi.h"
#include "trace.h"

/* The subcommand (cli/bpfrr.c dispatches to it with argv[0] = "record"). */
int bpfrr_record_main(int argc, char **argv);

/* Exit statuses of bpfrr record itself (otherwise: the tracee's status). */
#define REC_EXIT_SELF		125	/* the recorder failed, or refused the tracee */
#define REC_EXIT_NOEXEC		126	/* CMD found but could not be executed */
#define REC_EXIT_NOTFOUND	127	/* CMD not found */

/*
 * What a seccomp stop is for: the SECCOMP_RET_DATA of the filter rule that
 * stopped the tracee (PTRACE_GETEVENTMSG) is the call's row in the table
 * of followed calls, enum bpfrr_sys (lib/sys_abi.h), or this for a call
 * through a non-native syscall ABI. The filter decides, so the loop never
 * has to guess from a syscall number of the wrong ABI.
 */
#define REC_SYS_BADARCH 0xbad

/* Which opens are recorded (--opens). */
enum rec_opens {
	REC_OPENS_NONE,		/* opens never stop the tracee */
	REC_OPENS_BPF,		/* stop on every open, record those of BPF-relevant paths */
	REC_OPENS_ALL,		/* record every open */
};

struct rec_options {
	const char *output;		/* trace file */
	enum rec_opens opens;
	bool identity;			/* query object identities (pidfd_getfd + OBJ_GET_INFO_BY_FD) */
	bool verbose;			/* one line per recorded call on stderr */
	bool wait_closes;		/* stop at the exit of closes that cannot fail too */
	bool name_inline;		/* name the kernel's numbers at the call, not in a thread */
	unsigned int trace_major;	/* the trace format written: 3, or 2 (no blob copies) */
	char **argv;			/* the command */
};

/* --- seccomp filter (record_filter.c) --------------------------------------- */

/* Build and load the filter into the calling process. 0 or -errno. */
int rec_filter_install(enum rec_opens opens);
/* Write the filter as a readable list of rules (for --print-filter). */
int rec_filter_print(enum rec_opens opens, int fd);
/* The same filter as classic BPF (struct sock_filter[]), written to fd: 0 or -errno. */
int rec_filter_export(enum rec_opens opens, int fd);

/* --- fd tables (record_fdtab.c) ---------------------------------------------- */

/*
 * What the recorder knows about an open fd. An object (map, prog, ...) is
 * identified in the trace by obj_seq: the seq of the record that made it
 * known (the bpf() call that created it, the perf_event_open or open call,
 * or the FD_EVENT that discovered it). Every fd referring to the object,
 * through dup() or fork(), carries the same obj_seq.
 */
struct rec_fd {
	bool open;
	bool cloexec;
	uint8_t kind;			/* enum bpfrr_obj_kind */
	uint8_t origin;			/* enum rec_fd_origin */
	struct bpfrr_obj_facts facts;	/* type, sizes: the creating attr's, then the identity's */
	uint32_t kernel_id;		/* identity from the recorder's query, 0 if none */
	uint64_t obj_seq;		/* see above */
	uint64_t fd_seq;		/* seq of the FD_EVENT that opened this fd number */
};

enum rec_fd_origin {
	REC_FD_FROM_BPF,		/* returned by bpf() */
	REC_FD_FROM_SYSCALL,		/* another call whose row makes one (perf_event_open()) */
	REC_FD_FROM_OPEN,		/* open/openat/openat2 we recorded */
	REC_FD_FROM_DISCOVERED,		/* not seen being created: found in /proc when used */
	REC_FD_FROM_PIDFD_GETFD,	/* the tracee took it from another process */
};

/* One files_struct: shared by threads (and CLONE_FILES children). */
struct rec_fdtab {
	int refs;
	int size;			/* entries allocated */
	struct rec_fd *fds;
};

struct rec_fdtab *rec_fdtab_new(void);
struct rec_fdtab *rec_fdtab_copy(const struct rec_fdtab *t);	/* fork() */
struct rec_fdtab *rec_fdtab_get(struct rec_fdtab *t);		/* another sharer */
void rec_fdtab_put(struct rec_fdtab *t);
/* the entry of fd if it is open, else NULL */
struct rec_fd *rec_fdtab_lookup(struct rec_fdtab *t, int fd);
/* install fd (replacing whatever was there); NULL on a bad fd or no memory */
struct rec_fd *rec_fdtab_set(struct rec_fdtab *t, int fd, const struct rec_fd *val);
/* close fd; returns whether it was open (and copies it to *old if non-NULL) */
bool rec_fdtab_close(struct rec_fdtab *t, int fd, struct rec_fd *old);
/* highest open fd + 1 */
int rec_fdtab_end(const struct rec_fdtab *t);

/* --- tracee memory and /proc (record_mem.c) ---------------------------------- */

/* Read len bytes of task tid at addr: process_vm_readv, falling back to
 * /proc/TID/mem. 0, or -errno (-EFAULT for a partial read). */
int rec_mem_read(pid_t tid, uint64_t addr, void *buf, size_t len);
/* Tests: read only through /proc/TID/mem, as on kernels without process_vm_readv. */
void rec_mem_use_proc_only(bool on);
/* Forget cached state of task tid (it exec'd or ended). */
void rec_mem_forget(pid_t tid);
/* Read a NUL-terminated string of at most max bytes (incl. NUL) into a new
 * buffer; *len gets strlen. NULL (errno set) if unreadable or no NUL. */
char *rec_mem_read_str(pid_t tid, uint64_t addr, size_t max, size_t *len);
/* readlink of /proc/PID/fd/FD (or cwd if fd == AT_FDCWD), malloc'ed, or NULL */
char *rec_proc_fd_path(pid_t pid, int fd);
/* readlink of /proc/PID/exe, malloc'ed, or NULL */
char *rec_proc_exe(pid_t pid);
/* Tgid of tid from /proc/TID/status, or -errno. */
pid_t rec_proc_tgid(pid_t tid);
/* NUL-separated command line of pid as a malloc'ed argv (NULL-terminated), or NULL */
char **rec_proc_cmdline(pid_t pid);
/* The whole of a file with no size to stat (sysfs, procfs), with a NUL after
 * the last byte (not counted in *len_out, which may be NULL); NULL on failure. */
char *rec_read_whole(const char *path, size_t *len_out);
void rec_free_argv(char **argv);
/* Number of possible CPUs (/sys/devices/system/cpu/possible), >= 1. */
unsigned int rec_nr_possible_cpus(void);
/* Kind of fd of process pid from its /proc link target ("anon_inode:bpf-map",
 * a cgroup directory ...); BPFRR_OBJ_ANY if nothing more specific. */
enum bpfrr_obj_kind rec_kind_from_link(const char *link, pid_t pid, int fd);

/* --- the recording session (record_loop.c) ----------------------------------- */

struct rec_session;
struct rec_task;

/* A pending call: captured at entry, completed at exit. */
struct rec_region {
	struct bpfrr_trace_region r;	/* as written; r.path is malloc'ed */
	void *data;			/* ENTRY bytes kept until exit (read_entry_mem) */
};

struct rec_call {
	uint64_t seq;			/* call number, assigned at entry */
	enum bpfrr_sys sys;		/* its row (lib/sys_abi.h) */
	const struct bpfrr_sys_desc *desc;
	long nr;
	uint64_t args[6];
	uint64_t t_enter_ns, t_exit_ns;
	bool exited;			/* saw the syscall exit */
	bool not_waited;		/* exited and ret known without an exit stop */
	int64_t ret;			/* raw return (>= 0, or -errno) */

	/* bpf() */
	int cmd;
	uint32_t attr_size;		/* as passed */
	uint32_t attr_len;		/* bytes captured */
	uint8_t *attr;
	uint8_t *attr_exit;		/* re-read at exit when the kernel writes attr */
	bool attr_unreadable;
	/* bpf(cmd | BPF_COMMON_ATTRS, attr, size, common, common_size) (7.2): cmd is without
	 * the flag; the struct as read at entry and at exit (NULL if unreadable) */
	bool common;
	uint32_t common_len;
	uint8_t *common_entry, *common_exit;

	struct rec_region *regions;
	size_t nr_regions, cap_regions;

	/* opens and other calls */
	char *str;			/* path / filter string */
	bool record_exit;		/* an open worth recording at exit */
};

struct rec_task {
	pid_t tid, tgid;
	struct rec_fdtab *fdtab;
	bool seen_first_stop;		/* the automatic PTRACE_EVENT_STOP of a new task */
	bool awaiting_parent;		/* stopped, waiting for its parent's clone event */
	bool group_stopped;		/* in a group-stop we answered with PTRACE_LISTEN */
	struct rec_call *call;		/* the call between its entry and exit stops */
	bool exe_unscanned;		/* its image not yet scanned for embedded BPF objects */
	char *exe_path;			/* that image's path, read for its exec record (or NULL) */
	bool last_entry_bpf;		/* its last seccomp stop was a bpf() call (--summary's times) */
	struct rec_task *hnext;
};

/*
 * Where the recorder's wall time went, in ns (--summary prints it): from
 * its start to the loop (start-up: the trace's first records, the fork of
 * the child), handling stops up to the ptrace() that resumes the tracee:
 * bpf() entries and exits, other calls' entries and exits, task events
 * (clone, exec, exit, signals); the rest of the loop is wait (the tracees
 * running, the filter built in the child, its exec, the kernel switching);
 * end: the trace closed.  identity, symbols and scan are parts of the
 * handlers' time: the identity queries, the SYMBOL names, the scans of
 * executables.
 */
struct rec_times {
	uint64_t start, loop, wait, bpf_entry, bpf_exit, sys_entry, sys_exit, events, end;
	uint64_t identity, symbols, scan;
	uint64_t symbols_bg;		/* naming in the background thread (record_symbols.c) */
};

struct rec_session {
	const struct rec_options *opt;
	struct bpfrr_trace_writer *w;
	int write_err;			/* first writer error, 0 if none */
	uint64_t next_seq;		/* call numbers: BPF_CALL and SYSCALL */
	pid_t leader;			/* the process we started */
	int leader_status;		/* its wait status, once it ended */
	bool leader_done;
	bool refused;			/* a non-native tracee was killed */
	uint64_t pending_since;		/* when records were first gathered unwritten (0: none) */
	uint64_t pending_writes;	/* the writer's buffer writes then (it writes when full) */
	bool killed_all;		/* after a write error: every tracee was killed */
	unsigned int nr_cpus;
	uint32_t kprobe_type, uprobe_type;	/* dynamic PMU types, or -1 */
	struct rec_symtab *symtab;	/* what the kernel's numbers name (record_symbols.c), or NULL */
	struct rec_namer *namer;	/* names them in the background (record_symbols.c), or NULL */
	unsigned int nr_tasks;
	struct rec_task *tasks[256];	/* hash on tid */
	uint64_t stops, bpf_calls, other_calls;
	struct rec_elf_state *elf;	/* files looked at for BPF ELF objects (record_elf.c) */
	struct rec_times times;		/* where the recorder's own time went (--summary) */
};

/* Run the loop until every tracee is gone. 0 or -1 on a recorder failure. */
int rec_loop_run(struct rec_session *s);
struct rec_task *rec_task_find(struct rec_session *s, pid_t tid);
uint64_t rec_now_ns(void);

/* call lifetime */
struct rec_call *rec_call_new(enum bpfrr_sys sys);
void rec_call_free(struct rec_call *c);
/* Capture len bytes of the tracee at addr as a region of c (a blob in the
 * trace); keep a copy in memory if keep. Failures are recorded in the region. */
int rec_call_capture(struct rec_session *s, struct rec_task *t, struct rec_call *c,
		     const struct bpfrr_trace_region *tmpl, bool keep);
/* Add a region whose bytes the recorder already has (data may be NULL). */
int rec_call_add_bytes(struct rec_session *s, struct rec_call *c, const struct bpfrr_trace_region *tmpl,
		       const void *data, size_t len, bool keep);
/* Write c as a SYSCALL record. */
int rec_emit_syscall(struct rec_session *s, struct rec_task *t, struct rec_call *c);
/* Write an FD_EVENT. */
int rec_emit_fd(struct rec_session *s, struct rec_task *t, uint64_t seq, enum bpfrr_fd_op op, int fd,
		int newfd, const struct rec_fd *e);
/* Write a NOTE record. */
void rec_note(struct rec_session *s, uint32_t level, uint64_t seq, pid_t tid, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* A writer failure ends the recording (the tracee is killed: it must not
 * run on unobserved). */
void rec_write_failed(struct rec_session *s, int err);

/* --- per-call handlers (record_bpf.c, record_sys.c) --------------------------- */

/*
 * Entry handlers return whether the exit of the call must be seen
 * (PTRACE_SYSCALL) or the tracee can run on (PTRACE_CONT).
 */
bool rec_bpf_enter(struct rec_session *s, struct rec_task *t, struct rec_call *c);
void rec_bpf_exit(struct rec_session *s, struct rec_task *t, struct rec_call *c);
bool rec_sys_enter(struct rec_session *s, struct rec_task *t, struct rec_call *c);
void rec_sys_exit(struct rec_session *s, struct rec_task *t, struct rec_call *c);
/* A task vanished between the entry and the exit of c. */
void rec_call_abandon(struct rec_session *s, struct rec_task *t, struct rec_call *c, const char *why);

/* The fd's table entry, discovering it from /proc if the recorder never
 * saw it being made (emits an FD_EVENT "discovered"). NULL if not open. */
struct rec_fd *rec_fd_resolve(struct rec_session *s, struct rec_task *t, int fd, uint64_t seq);
/* Exec: close every close-on-exec fd (FD_EVENTs), unsharing the table. */
void rec_fd_exec(struct rec_session *s, struct rec_task *t);

/* --- identity (record_identity.c) -------------------------------------------- */

/*
 * Query the kernel identity of the object behind the tracee's fd, which
 * call seq returned (or first used), and write an OBJECT record; fills
 * kind, type, map sizes and kernel id into e. 0 or -errno (a failed query
 * is recorded as such).
 */
int rec_identity_query(struct rec_session *s, struct rec_task *t, uint64_t seq, int fd, struct rec_fd *e);

/* A duplicate of the fd of task group tgid in the recorder (pidfd_getfd), or -errno; the caller closes it. */
int rec_pidfd_dup(pid_t tgid, int fd);

/*
 * vmlinux's BTF as the kernel hands it over through bpf() (the object named
 * "vmlinux": id known_id if not 0, else the first kernel BTF of that name),
 * parsed: the same bytes as /sys/kernel/btf/vmlinux in one copy instead of
 * the page per read(2) that sysfs gives.  NULL when bpf() cannot (then the
 * file is read).
 */
struct btf;
struct btf *rec_vmlinux_btf_copy(uint32_t known_id);

/* --- symbols (record_symbols.c) ---------------------------------------------- */

struct rec_symtab;
struct rec_namer;

/* Right after HEADER: the KERNEL record; sets up s->symtab. */
void rec_symbols_start(struct rec_session *s);
/* The end: waits for the background naming, writes what it named, frees it all. */
void rec_symbols_end(struct rec_session *s);
/* Writes the SYMBOL records the background thread has named since the last call (the loop
 * calls it after each stop; cheap when there are none). */
void rec_symbols_drain(struct rec_session *s);
/* A SYMBOL record for each kernel-build-specific number a call is the first to carry
 * (bpf(): attr BTF ids, kfunc/ksym insns, kprobe_multi addresses, with env the call's
 * walker env; other calls: perf_event_open's attr): named in the background and written
 * after the call's record, a struct_ops value type's at once. */
void rec_symbols_bpf(struct rec_session *s, struct rec_task *t, struct rec_call *c,
		     const struct bpfrr_abi_env *env);
void rec_symbols_sys(struct rec_session *s, struct rec_task *t, struct rec_call *c);
/* The identity query met a kernel BTF object (vmlinux or a module's): its id and name. */
void rec_symbols_btf_object(struct rec_session *s, uint32_t id, const char *name);

/* --- BPF ELF objects (record_elf.c) ------------------------------------------ */

/* An open of path (absolute, as the tracee sees it): a BPF ELF object is captured (ELF record). */
void rec_elf_open(struct rec_session *s, struct rec_task *t, const char *path);
/* The task exec'd: the BPF ELF objects its executable embeds are captured (skeletons). */
void rec_elf_exe(struct rec_session *s, struct rec_task *t);
void rec_elf_free(struct rec_session *s);
/* Bytes of the EM_BPF relocatable ELF64 object at data (headers, section headers, every
 * section in the file), or 0 if data does not start one that fits in len. */
size_t rec_elf_extent(const void *data, size_t len);

#endif /* BPFRR_RECORD_H */

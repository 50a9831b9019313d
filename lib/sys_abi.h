/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sys_abi.h - one description of the system calls the recorder follows,
 * as data: bpf() itself and the calls a BPF load depends on (fd lifetimes,
 * perf events, opens).
 *
 * One row per call (lib/sys_abi_table.c, struct bpfrr_sys_desc) says
 * everything the stages ask of it, in the spirit of the bpf() command
 * table (bpf_abi.h) and of rr's syscalls.py: its numbers on each
 * architecture the recorder runs on, when the seccomp filter stops it, what
 * it does to the fd table, which of its arguments point to memory worth
 * capturing and how much, how `bpfrr dump` prints each argument, and what
 * the translator's front end makes of it.  Calls multiplexed by an
 * argument (fcntl's cmd, ioctl's request) have a sub-table of their
 * commands (struct bpfrr_sys_sub): the perf event ioctls are one, and the
 * only list of their numbers and names.
 *
 * The recorder's filter and capture (recorder/record_filter.c,
 * record_sys.c), bpfrr dump (recorder/dump_sys.c) and the front end
 * (replayer/translate/frontend.c, pass_*.c) read the rows; none of them keeps a list
 * of calls, numbers or requests of its own.  A call whose semantics no row
 * field expresses (the perf_event_attr, whose size is inside it; the
 * relevance test of an open) has a decoder named by its capture rule or fd
 * operation.
 *
 * The recorder follows native system calls only (a call through ia32, x32
 * or AArch32 is refused), so the rows have numbers for x86_64 and aarch64
 * only.  tests/unit/test_sys_abi.c checks the build machine's column
 * against <sys/syscall.h>, the perf ioctl and fcntl values against the
 * UAPI headers, and that every row has its semantics filled in; the
 * aarch64 column is checked when the arm64 tools are compiled.
 */
#ifndef BPFRR_SYS_ABI_H
#define BPFRR_SYS_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf_abi.h"

/*
 * The calls, in the table's order (which is also the order of the filter's
 * rules and of `bpfrr dump`'s list).  The value is the seccomp filter's
 * SECCOMP_RET_DATA for the call: the recorder learns the row from the
 * stop, never by guessing from a number of the wrong ABI.  Internal to a
 * recording: traces name a call by its name and its number.
 */
enum bpfrr_sys {
	BPFRR_SYS_NONE,
	BPFRR_SYS_BPF,
	BPFRR_SYS_CLOSE,
	BPFRR_SYS_CLOSE_RANGE,
	BPFRR_SYS_DUP,
	BPFRR_SYS_DUP2,
	BPFRR_SYS_DUP3,
	BPFRR_SYS_FCNTL,
	BPFRR_SYS_PERF_EVENT_OPEN,
	BPFRR_SYS_IOCTL,
	BPFRR_SYS_OPEN,
	BPFRR_SYS_OPENAT,
	BPFRR_SYS_OPENAT2,
	BPFRR_SYS_PIDFD_GETFD,
	BPFRR_SYS_MKDIR,
	BPFRR_SYS_MKDIRAT,
	BPFRR_SYS_RMDIR,
	BPFRR_SYS_UNLINK,
	BPFRR_SYS_UNLINKAT,
	BPFRR_SYS_SOCKET,
	BPFRR_SYS_SENDTO,
	BPFRR_SYS_SENDMSG,
	BPFRR_SYS__MAX,
};

/*
 * The perf event ioctl requests (<linux/perf_event.h>, the same numbers on
 * x86_64 and aarch64), written out so that no reader depends on the build
 * machine's header; the test checks them against it.  Requests are
 * compared on their low 32 bits, as the kernel's unsigned int cmd is.
 */
enum bpfrr_perf_ioc {
	BPFRR_PERF_IOC_ENABLE = 0x2400u,
	BPFRR_PERF_IOC_DISABLE = 0x2401u,
	BPFRR_PERF_IOC_REFRESH = 0x2402u,
	BPFRR_PERF_IOC_RESET = 0x2403u,
	BPFRR_PERF_IOC_PERIOD = 0x40082404u,
	BPFRR_PERF_IOC_SET_OUTPUT = 0x2405u,
	BPFRR_PERF_IOC_SET_FILTER = 0x40082406u,
	BPFRR_PERF_IOC_ID = 0x80082407u,
	BPFRR_PERF_IOC_SET_BPF = 0x40042408u,
	BPFRR_PERF_IOC_PAUSE_OUTPUT = 0x40042409u,
	BPFRR_PERF_IOC_QUERY_BPF = 0xc008240au,
	BPFRR_PERF_IOC_MODIFY_ATTRIBUTES = 0x4008240bu,
};

/* fcntl commands the rows name (asm-generic values, the same on both architectures) */
enum bpfrr_fcntl_cmd {
	BPFRR_F_DUPFD = 0,
	BPFRR_F_GETFD = 1,
	BPFRR_F_SETFD = 2,
	BPFRR_F_GETFL = 3,
	BPFRR_F_SETFL = 4,
	BPFRR_F_DUPFD_CLOEXEC = 1030,
};

/* How an argument is printed by `bpfrr dump` (and what it is). */
enum bpfrr_sys_arg_kind {
	BPFRR_SYS_ARG_NONE,		/* no such argument */
	BPFRR_SYS_ARG_FD,		/* an fd: signed decimal */
	BPFRR_SYS_ARG_DIRFD,		/* an fd or AT_FDCWD */
	BPFRR_SYS_ARG_INT,		/* signed int, decimal */
	BPFRR_SYS_ARG_UINT,		/* unsigned int, decimal */
	BPFRR_SYS_ARG_ULONG,		/* unsigned long, decimal */
	BPFRR_SYS_ARG_PTR,		/* an address, hex */
	BPFRR_SYS_ARG_HEX,		/* anything else: hex */
	BPFRR_SYS_ARG_MODE,		/* octal */
	BPFRR_SYS_ARG_PERF_FLAGS,	/* PERF_FLAG_* */
	BPFRR_SYS_ARG_OPEN_FLAGS,	/* O_* (four bits differ between the architectures) */
	BPFRR_SYS_ARG_FD_FLAGS,		/* FD_CLOEXEC */
	BPFRR_SYS_ARG_O_CLOEXEC,	/* 0 or O_CLOEXEC */
	BPFRR_SYS_ARG_CLOSE_RANGE_FLAGS,
	BPFRR_SYS_ARG_CMD,		/* selects a sub-row (fcntl cmd): its name, else decimal */
	BPFRR_SYS_ARG_REQUEST,		/* selects a sub-row (ioctl request): its name, else hex */
	BPFRR_SYS_ARG__MAX,
};

/* Argument flags (struct bpfrr_sys_param.flags). */
#define BPFRR_SYSP_REF		0x1	/* an fd whose object matters: the recorder resolves
					 * (adopts) it at entry, the front end relocates it */
#define BPFRR_SYSP_OPTIONAL	0x2	/* a REF fd that may be -1 ("none"): only >= 0 counts */

struct bpfrr_sys_param {
	const char *name;	/* the kernel's parameter name: "fd", "group_fd" */
	uint8_t kind;		/* enum bpfrr_sys_arg_kind */
	uint8_t obj;		/* REF fds: enum bpfrr_obj_kind it must be */
	uint8_t flags;		/* BPFRR_SYSP_* */
	int8_t ir;		/* the IR argument it becomes when the call is replayed, -1: none */
};

/* What a call does to the fd table. */
enum bpfrr_sys_fd_op {
	BPFRR_SYS_FD_NONE,		/* nothing (bpf(): the bpf ABI table says) */
	BPFRR_SYS_FD_CLOSE,		/* closes fd_arg (at entry) */
	BPFRR_SYS_FD_CLOSE_RANGE,	/* closes or marks a range: decoder */
	BPFRR_SYS_FD_DUP,		/* the return value refers to fd_arg's object; replaces newfd_arg */
	BPFRR_SYS_FD_SETFD,		/* sets fd_arg's close-on-exec flag from FD_CLOEXEC in arg 2 */
	BPFRR_SYS_FD_NEW,		/* the return value is a new object of new_kind (opens: its
					 * path is recorded, kind from /proc) */
	BPFRR_SYS_FD_GET,		/* the return value is an fd of an object made elsewhere */
	BPFRR_SYS_FD_USES,		/* acts on the object of fd_arg, which must be of the
					 * param's kind; not followed on other fds */
	BPFRR_SYS_FD_BY_SUB,		/* the sub-row says (fcntl) */
	BPFRR_SYS_FD_FS,		/* no fd: makes or removes the directory entry at its path
					 * (mkdir, unlink); recorded when that is on a bpffs */
};

/* Where the close-on-exec flag of a new fd comes from. */
enum bpfrr_sys_cloexec {
	BPFRR_SYS_CLOEXEC_NEVER,
	BPFRR_SYS_CLOEXEC_ALWAYS,
	BPFRR_SYS_CLOEXEC_ARG,		/* cloexec_arg & cloexec_mask */
	BPFRR_SYS_CLOEXEC_OFLAGS,	/* O_CLOEXEC in the open flags (struct bpfrr_sys_desc.oflags) */
};

/* How much memory a capture takes. */
enum bpfrr_sys_len {
	BPFRR_SYS_LEN_NONE,		/* no capture */
	BPFRR_SYS_LEN_FIXED,		/* len bytes */
	BPFRR_SYS_LEN_STRING,		/* a NUL-terminated string of at most len bytes */
	BPFRR_SYS_LEN_ARG,		/* the size argument len_arg says, capped at len */
	BPFRR_SYS_LEN_PERF_ATTR,	/* decoder: a perf_event_attr (its own size field, capped
					 * at len) and, for kprobe/uprobe PMUs, config1's string */
	BPFRR_SYS_LEN_PERF_QUERY,	/* decoder: struct perf_event_query_bpf and its ids */
	BPFRR_SYS_LEN_MSG_IOV,		/* decoder: the bytes a struct msghdr's iovecs point to, in
					 * order, gathered into one region (sendmsg), capped at len */
};

/*
 * Memory an argument points to, captured as a region of the SYSCALL
 * record (nothing if the address is 0; at exit, nothing if the call
 * failed).
 */
struct bpfrr_sys_capture {
	const char *path;	/* the region's path: "perf_event_attr", "filter"; NULL: none */
	uint8_t arg;		/* the argument holding the address */
	uint8_t phase;		/* enum bpfrr_phase */
	uint8_t dir;		/* enum bpfrr_dir */
	uint8_t content;	/* enum bpfrr_abi_content */
	uint8_t len_rule;	/* enum bpfrr_sys_len */
	uint8_t len_arg;	/* LEN_ARG: the argument with the size */
	uint32_t len;		/* FIXED: the size; STRING, ARG, PERF_ATTR: the cap */
};

#define BPFRR_SYS_MAX_CAPTURES 2

/* How the translator replays a kept call. */
enum bpfrr_sys_replay {
	BPFRR_SYS_REPLAY_NONE,		/* it refuses: "a system call the translator does not replay" */
	BPFRR_SYS_REPLAY_PERF_EVENT_OPEN, /* BPFRR_IR_PERF_EVENT_OPEN (decoder: the attr's PMU, names) */
	BPFRR_SYS_REPLAY_IOCTL,		/* BPFRR_IR_IOCTL, for sub-rows with BPFRR_SYSF_REPLAYS */
	BPFRR_SYS_REPLAY_PATH,		/* an open: the replayer opens the recorded path */
	BPFRR_SYS_REPLAY_MKDIR,		/* a directory on a bpffs: the replayer makes it */
};

/* Row and sub-row flags. */
#define BPFRR_SYSF_STOPS	0x01	/* sub-row: the filter stops the call for this value */
#define BPFRR_SYSF_OPENS	0x02	/* an open: stops unless --opens=none */
#define BPFRR_SYSF_BPF_CALL	0x04	/* recorded as a BPF_CALL record (bpf ABI table), not SYSCALL */
#define BPFRR_SYSF_BUILDS	0x08	/* a successful call builds state: it can be the default
					 * replay point (CREATE and MUTATE classes only) */
#define BPFRR_SYSF_REPLAYS	0x10	/* sub-row: the IR carries it (its argument is no pointer) */
#define BPFRR_SYSF_TRACKED	0x20	/* followed only on an fd the recorder tracks (made by a
					 * call it recorded): a send on a socket it saw made */

/* The front end's classes beyond the bpf() command classes (enum bpfrr_cmd_class). */
#define BPFRR_SYS_CLASS_FD	(BPFRR_CMD_CLASS_TEST_RUN + 1)	/* fd bookkeeping: close, dup, fcntl */
#define BPFRR_SYS_CLASS_OPEN	(BPFRR_CMD_CLASS_TEST_RUN + 2)	/* open of a file (cgroup dir, tracefs id) */
#define BPFRR_SYS_CLASS_BPFFS	(BPFRR_CMD_CLASS_TEST_RUN + 3)	/* mkdir, rmdir, unlink on a bpffs */
#define BPFRR_SYS_CLASS_NETLINK	(BPFRR_CMD_CLASS_TEST_RUN + 4)	/* a netlink request: what its messages
								 * do says (lib/netlink.h) */

/* One command of a multiplexed call: an fcntl cmd, an ioctl request. */
struct bpfrr_sys_sub {
	uint32_t value;			/* compared on the low 32 bits */
	const char *name;		/* "F_DUPFD_CLOEXEC", "PERF_EVENT_IOC_SET_BPF" */
	uint8_t arg_kind;		/* the argument after the selector: how dump prints it */
	uint8_t arg_obj;		/* arg_kind FD: the object kind it must be */
	const char *arg_ref;		/* arg_kind FD: the front end's name of it ("prog_fd") */
	uint8_t flags;			/* BPFRR_SYSF_STOPS, BUILDS, REPLAYS */
	uint8_t cls;			/* front-end class; 0: the row's */
	uint8_t fd_op;			/* row fd_op BY_SUB: enum bpfrr_sys_fd_op */
	uint8_t cloexec;		/* fd_op DUP: enum bpfrr_sys_cloexec (NEVER, ALWAYS) */
	struct bpfrr_sys_capture cap[BPFRR_SYS_MAX_CAPTURES];
};

struct bpfrr_sys_desc {
	const char *name;		/* "close": the SYSCALL record's name */
	int16_t nr_x86_64;		/* its number, -1: the architecture has no such call */
	int16_t nr_aarch64;
	uint8_t nr_args;
	struct bpfrr_sys_param params[6];
	uint8_t flags;			/* BPFRR_SYSF_OPENS, BPF_CALL, BUILDS */
	uint8_t cls;			/* front-end class: enum bpfrr_cmd_class or BPFRR_SYS_CLASS_* */
	uint8_t replay;			/* enum bpfrr_sys_replay */
	/* the fd table */
	uint8_t fd_op;			/* enum bpfrr_sys_fd_op */
	int8_t fd_arg;			/* CLOSE, DUP, SETFD, USES: the fd it acts on */
	int8_t newfd_arg;		/* DUP: the fd it replaces (dup2, dup3), else -1 */
	uint8_t new_kind;		/* NEW: enum bpfrr_obj_kind of the object (ANY: from /proc) */
	uint8_t cloexec;		/* NEW, GET, DUP: enum bpfrr_sys_cloexec */
	int8_t cloexec_arg;
	uint32_t cloexec_mask;
	/* opens, and the FD_FS calls */
	int8_t dirfd_arg;		/* the directory a relative path is resolved in; -1: the cwd */
	int8_t oflags_arg;		/* the open flags, -1: none */
	int8_t mode_arg;		/* mkdir: the mode, -1: none */
	bool oflags_in_struct;		/* oflags_arg points to a struct whose first u64 they are,
					 * of the size in the next argument (openat2's open_how) */
	/* memory its arguments point to */
	struct bpfrr_sys_capture cap[BPFRR_SYS_MAX_CAPTURES];
	/* a multiplexed call: the argument that selects a sub-row, and the sub-rows */
	int8_t sub_arg;			/* -1: none */
	uint8_t nr_subs;
	const struct bpfrr_sys_sub *subs;
	/* a second argument the call must match to be recorded (socket's protocol); -1: none */
	int8_t match_arg;
	uint32_t match_value;
};

/* The row of a call (NULL for NONE or out of range). */
const struct bpfrr_sys_desc *bpfrr_sys(enum bpfrr_sys sys);
/* The row of the call named name ("close"), NULL if the table has none. */
const struct bpfrr_sys_desc *bpfrr_sys_by_name(const char *name);
/* Its enum value. */
enum bpfrr_sys bpfrr_sys_id(const struct bpfrr_sys_desc *d);
/* "close", or NULL */
const char *bpfrr_sys_name(enum bpfrr_sys sys);
/* Its number on an architecture (ELF e_machine: 62 x86_64, 183 aarch64), -1 if none. */
int bpfrr_sys_nr(const struct bpfrr_sys_desc *d, uint32_t e_machine);
/* Its number on the architecture this is compiled for, -1 if none. */
int bpfrr_sys_native_nr(const struct bpfrr_sys_desc *d);
/* The sub-row the call's arguments select, NULL if none (or not a multiplexed call). */
const struct bpfrr_sys_sub *bpfrr_sys_sub(const struct bpfrr_sys_desc *d, const uint64_t args[6]);
/* The sub-row of value in d's sub-table, NULL if none. */
const struct bpfrr_sys_sub *bpfrr_sys_sub_of(const struct bpfrr_sys_desc *d, uint64_t value);
/* "PERF_EVENT_IOC_ENABLE" for a perf ioctl request, or NULL */
const char *bpfrr_perf_ioc_name(uint32_t req);

/* What a recorded call is, for the front end: the sub-row's class if it has one, else the row's. */
unsigned int bpfrr_sys_class(const struct bpfrr_sys_desc *d, const uint64_t args[6]);
/* Whether a successful call builds state (BPFRR_SYSF_BUILDS of its sub-row, else its row). */
bool bpfrr_sys_builds(const struct bpfrr_sys_desc *d, const uint64_t args[6]);
/* The fd operation of the call (BY_SUB resolved; NONE for an unknown sub-command). */
enum bpfrr_sys_fd_op bpfrr_sys_fd_op(const struct bpfrr_sys_desc *d, const uint64_t args[6]);

/* Names of the enums above, for tests and messages; NULL if unknown. */
const char *bpfrr_sys_fd_op_name(enum bpfrr_sys_fd_op op);

#endif /* BPFRR_SYS_ABI_H */

// SPDX-License-Identifier: GPL-2.0-only
/*
 * sys_abi_table.c - the system calls the recorder follows, as data (see
 * sys_abi.h for what a row says and who reads it).
 *
 * Numbers are the kernel's (arch/x86/entry/syscalls/syscall_64.tbl and
 * include/uapi/asm-generic/unistd.h), written out; the x86_64 column is
 * checked by tests/unit/test_sys_abi.c on the build machine, the aarch64
 * column by the static assertions below whenever the arm64 tools are
 * compiled.  aarch64 has no open() and no dup2(): libc uses openat() and
 * dup3() there.
 */
#include <string.h>
#include <sys/syscall.h>

#include "sys_abi.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* a parameter: name, how it prints; REF fds: the kind they must be; the IR argument */
#define ARG(n, k)		{ .name = n, .kind = BPFRR_SYS_ARG_##k, .ir = -1 }
#define IR_ARG(n, k, i)		{ .name = n, .kind = BPFRR_SYS_ARG_##k, .ir = i }
/* the socket a send acts on: not a REF (a replay sends on a socket of its own) */
#define SOCK(n)			{ .name = n, .kind = BPFRR_SYS_ARG_FD, .obj = BPFRR_OBJ_SOCKET, .ir = -1 }
#define REF(n, o, fl, i)	{ .name = n, .kind = BPFRR_SYS_ARG_FD, .obj = BPFRR_OBJ_##o, \
				  .flags = BPFRR_SYSP_REF | (fl), .ir = i }

/* a capture: region path, argument, phase, direction, content, length rule, size or cap */
#define CAP(p, a, ph, d, c, rule, l) \
	{ .path = p, .arg = a, .phase = BPFRR_PHASE_##ph, .dir = BPFRR_DIR_##d, \
	  .content = BPFRR_CONTENT_##c, .len_rule = BPFRR_SYS_LEN_##rule, .len = l }

/*
 * An aarch64 number: checked against the compiler's <sys/syscall.h> when
 * the arm64 tools are built (the unit tests run on x86_64 only).
 */
#ifdef __aarch64__
#define A64(nr, name)	((nr) + 0 * (int)sizeof(char[(nr) == __NR_##name ? 1 : -1]))
#else
#define A64(nr, name)	(nr)
#endif

#define PATH_CAP	4096	/* PATH_MAX */
#define PERF_ATTR_CAP	4096	/* the kernel refuses a perf_event_attr larger than a page */
#define OPEN_HOW_SIZE	24	/* sizeof(struct open_how) */
#define FILTER_CAP	(1u << 16)
#define NETLINK_CAP	(1u << 16)	/* a netlink request: iproute2's are a few hundred bytes */
#define AF_NETLINK_NR	16
#define NETLINK_ROUTE_NR 0

#define PERF_FLAG_FD_CLOEXEC_BIT	(1u << 3)
#define O_CLOEXEC_BIT			02000000u

/* --- fcntl: the commands the filter stops, and the others dump names --------------- */

static const struct bpfrr_sys_sub fcntl_cmds[] = {
	{ BPFRR_F_DUPFD, "F_DUPFD", BPFRR_SYS_ARG_INT, .flags = BPFRR_SYSF_STOPS,
	  .fd_op = BPFRR_SYS_FD_DUP, .cloexec = BPFRR_SYS_CLOEXEC_NEVER },
	{ BPFRR_F_DUPFD_CLOEXEC, "F_DUPFD_CLOEXEC", BPFRR_SYS_ARG_INT, .flags = BPFRR_SYSF_STOPS,
	  .fd_op = BPFRR_SYS_FD_DUP, .cloexec = BPFRR_SYS_CLOEXEC_ALWAYS },
	{ BPFRR_F_SETFD, "F_SETFD", BPFRR_SYS_ARG_FD_FLAGS, .flags = BPFRR_SYSF_STOPS,
	  .fd_op = BPFRR_SYS_FD_SETFD },
	{ BPFRR_F_GETFD, "F_GETFD", BPFRR_SYS_ARG_HEX },
	{ BPFRR_F_GETFL, "F_GETFL", BPFRR_SYS_ARG_HEX },
	{ BPFRR_F_SETFL, "F_SETFL", BPFRR_SYS_ARG_HEX },
};

/* --- the perf event ioctls: the only list of them ----------------------------------- */

#define PERF_IOC(req, kind, fl, ...) \
	{ BPFRR_PERF_IOC_##req, "PERF_EVENT_IOC_" #req, BPFRR_SYS_ARG_##kind, \
	  .flags = BPFRR_SYSF_STOPS | (fl), __VA_ARGS__ }
#define B BPFRR_SYSF_BUILDS
#define R BPFRR_SYSF_REPLAYS

static const struct bpfrr_sys_sub perf_ioctls[] = {
	/* the argument is a number (PERF_IOC_FLAG_GROUP, REFRESH's count) */
	PERF_IOC(ENABLE, INT, B | R),
	PERF_IOC(DISABLE, INT, R),
	PERF_IOC(REFRESH, INT, B | R),
	PERF_IOC(RESET, INT, R),
	PERF_IOC(PERIOD, PTR, B, .cap = { CAP("period", 2, ENTRY, IN, BYTES, FIXED, 8) }),
	PERF_IOC(SET_OUTPUT, FD, B | R, .arg_obj = BPFRR_OBJ_PERF_EVENT, .arg_ref = "output_fd"),
	PERF_IOC(SET_FILTER, PTR, B, .cap = { CAP("filter", 2, ENTRY, IN, STRING, STRING, FILTER_CAP) }),
	PERF_IOC(ID, PTR, 0, .cls = BPFRR_CMD_CLASS_READ,
		 .cap = { CAP("id", 2, EXIT, OUT, BYTES, FIXED, 8) }),
	PERF_IOC(SET_BPF, FD, B | R, .arg_obj = BPFRR_OBJ_PROG, .arg_ref = "prog_fd"),
	/* its argument is a number too, which dump shows in hex */
	PERF_IOC(PAUSE_OUTPUT, PTR, B | R),
	PERF_IOC(QUERY_BPF, PTR, 0, .cls = BPFRR_CMD_CLASS_READ,
		 .cap = { CAP("query.ids_len", 2, ENTRY, INOUT, BYTES, FIXED, 4),
			  CAP("query", 2, EXIT, OUT, BYTES, PERF_QUERY, 0) }),
	PERF_IOC(MODIFY_ATTRIBUTES, PTR, B,
		 .cap = { CAP("perf_event_attr", 2, ENTRY, IN, BYTES, PERF_ATTR, PERF_ATTR_CAP) }),
};

#undef B
#undef R

/* --- socket: the families the filter stops (the row's match_arg narrows to NETLINK_ROUTE) --- */

static const struct bpfrr_sys_sub socket_families[] = {
	{ AF_NETLINK_NR, "AF_NETLINK", BPFRR_SYS_ARG_HEX, .flags = BPFRR_SYSF_STOPS, .fd_op = BPFRR_SYS_FD_NEW },
};

/* --- the calls ------------------------------------------------------------------------- */

/*
 * A row starts from the defaults (no fd argument, no sub-table, ...) and
 * says only what differs: designated initializers overriding the defaults
 * are the point here, not a mistake.
 */
#pragma GCC diagnostic ignored "-Woverride-init"
#define SYS(id, x86_64, aarch64, ...) \
	[BPFRR_SYS_##id] = { .nr_x86_64 = x86_64, .nr_aarch64 = aarch64, .fd_arg = -1, .newfd_arg = -1, \
			     .cloexec_arg = -1, .dirfd_arg = -1, .oflags_arg = -1, .mode_arg = -1, .sub_arg = -1, \
			     .match_arg = -1, __VA_ARGS__ }
#define NAME(n, nr)	.name = n, .nr_args = nr
#define PARAMS(...)	.params = { __VA_ARGS__ }
#define FD_OP(op)	.fd_op = BPFRR_SYS_FD_##op
#define CLS(c)		.cls = c
#define SUBS(arg, tbl)	.sub_arg = arg, .subs = tbl, .nr_subs = ARRAY_SIZE(tbl)

static const struct bpfrr_sys_desc sys_table[BPFRR_SYS__MAX] = {
	SYS(BPF, 321, A64(280, bpf), NAME("bpf", 3),
	    PARAMS(ARG("cmd", INT), ARG("uattr", PTR), ARG("size", UINT)),
	    .flags = BPFRR_SYSF_BPF_CALL),
	SYS(CLOSE, 3, A64(57, close), NAME("close", 1),
	    PARAMS(ARG("fd", FD)),
	    CLS(BPFRR_SYS_CLASS_FD), FD_OP(CLOSE), .fd_arg = 0),
	SYS(CLOSE_RANGE, 436, A64(436, close_range), NAME("close_range", 3),
	    PARAMS(ARG("fd", UINT), ARG("max_fd", UINT), ARG("flags", CLOSE_RANGE_FLAGS)),
	    CLS(BPFRR_SYS_CLASS_FD), FD_OP(CLOSE_RANGE)),
	SYS(DUP, 32, A64(23, dup), NAME("dup", 1),
	    PARAMS(ARG("fildes", FD)),
	    CLS(BPFRR_SYS_CLASS_FD), FD_OP(DUP), .fd_arg = 0, .cloexec = BPFRR_SYS_CLOEXEC_NEVER),
	SYS(DUP2, 33, -1, NAME("dup2", 2),
	    PARAMS(ARG("oldfd", FD), ARG("newfd", FD)),
	    CLS(BPFRR_SYS_CLASS_FD), FD_OP(DUP), .fd_arg = 0, .newfd_arg = 1,
	    .cloexec = BPFRR_SYS_CLOEXEC_NEVER),
	SYS(DUP3, 292, A64(24, dup3), NAME("dup3", 3),
	    PARAMS(ARG("oldfd", FD), ARG("newfd", FD), ARG("flags", O_CLOEXEC)),
	    CLS(BPFRR_SYS_CLASS_FD), FD_OP(DUP), .fd_arg = 0, .newfd_arg = 1,
	    .cloexec = BPFRR_SYS_CLOEXEC_ARG, .cloexec_arg = 2, .cloexec_mask = O_CLOEXEC_BIT),
	SYS(FCNTL, 72, A64(25, fcntl), NAME("fcntl", 3),
	    PARAMS(ARG("fd", FD), ARG("cmd", CMD), ARG("arg", HEX)),
	    CLS(BPFRR_SYS_CLASS_FD), FD_OP(BY_SUB), .fd_arg = 0, SUBS(1, fcntl_cmds)),
	SYS(PERF_EVENT_OPEN, 298, A64(241, perf_event_open), NAME("perf_event_open", 5),
	    PARAMS(ARG("attr", PTR), IR_ARG("pid", INT, 0), IR_ARG("cpu", INT, 1),
		   REF("group_fd", PERF_EVENT, BPFRR_SYSP_OPTIONAL, 2), IR_ARG("flags", PERF_FLAGS, 3)),
	    CLS(BPFRR_CMD_CLASS_CREATE), .flags = BPFRR_SYSF_BUILDS,
	    .replay = BPFRR_SYS_REPLAY_PERF_EVENT_OPEN,
	    FD_OP(NEW), .new_kind = BPFRR_OBJ_PERF_EVENT,
	    .cloexec = BPFRR_SYS_CLOEXEC_ARG, .cloexec_arg = 4, .cloexec_mask = PERF_FLAG_FD_CLOEXEC_BIT,
	    .cap = { CAP("perf_event_attr", 0, ENTRY, IN, BYTES, PERF_ATTR, PERF_ATTR_CAP) }),
	/* only the perf event requests stop, and only calls on perf event fds are recorded */
	SYS(IOCTL, 16, A64(29, ioctl), NAME("ioctl", 3),
	    PARAMS(REF("fd", PERF_EVENT, 0, 0), ARG("cmd", REQUEST), IR_ARG("arg", PTR, 1)),
	    CLS(BPFRR_CMD_CLASS_MUTATE), .flags = BPFRR_SYSF_BUILDS, .replay = BPFRR_SYS_REPLAY_IOCTL,
	    FD_OP(USES), .fd_arg = 0, SUBS(1, perf_ioctls)),
	SYS(OPEN, 2, -1, NAME("open", 3),
	    PARAMS(ARG("filename", PTR), ARG("flags", OPEN_FLAGS), ARG("mode", MODE)),
	    CLS(BPFRR_SYS_CLASS_OPEN), .flags = BPFRR_SYSF_OPENS, .replay = BPFRR_SYS_REPLAY_PATH,
	    FD_OP(NEW), .new_kind = BPFRR_OBJ_ANY, .cloexec = BPFRR_SYS_CLOEXEC_OFLAGS, .oflags_arg = 1,
	    .cap = { CAP("pathname", 0, ENTRY, IN, PATH, STRING, PATH_CAP) }),
	SYS(OPENAT, 257, A64(56, openat), NAME("openat", 4),
	    PARAMS(ARG("dfd", DIRFD), ARG("filename", PTR), ARG("flags", OPEN_FLAGS), ARG("mode", MODE)),
	    CLS(BPFRR_SYS_CLASS_OPEN), .flags = BPFRR_SYSF_OPENS, .replay = BPFRR_SYS_REPLAY_PATH,
	    FD_OP(NEW), .new_kind = BPFRR_OBJ_ANY, .cloexec = BPFRR_SYS_CLOEXEC_OFLAGS, .dirfd_arg = 0,
	    .oflags_arg = 2,
	    .cap = { CAP("pathname", 1, ENTRY, IN, PATH, STRING, PATH_CAP) }),
	SYS(OPENAT2, 437, A64(437, openat2), NAME("openat2", 4),
	    PARAMS(ARG("dfd", DIRFD), ARG("filename", PTR), ARG("how", PTR), ARG("usize", ULONG)),
	    CLS(BPFRR_SYS_CLASS_OPEN), .flags = BPFRR_SYSF_OPENS, .replay = BPFRR_SYS_REPLAY_PATH,
	    FD_OP(NEW), .new_kind = BPFRR_OBJ_ANY, .cloexec = BPFRR_SYS_CLOEXEC_OFLAGS, .dirfd_arg = 0,
	    .oflags_arg = 2, .oflags_in_struct = true,
	    .cap = { CAP("pathname", 1, ENTRY, IN, PATH, STRING, PATH_CAP),
		     { .path = "how", .arg = 2, .phase = BPFRR_PHASE_ENTRY, .dir = BPFRR_DIR_IN,
		       .content = BPFRR_CONTENT_BYTES, .len_rule = BPFRR_SYS_LEN_ARG, .len_arg = 3,
		       .len = OPEN_HOW_SIZE } }),
	/* the fd it gets is of an object made elsewhere: adopted */
	SYS(PIDFD_GETFD, 438, A64(438, pidfd_getfd), NAME("pidfd_getfd", 3),
	    PARAMS(ARG("pidfd", FD), ARG("fd", FD), ARG("flags", UINT)),
	    CLS(BPFRR_CMD_CLASS_GET), FD_OP(GET), .new_kind = BPFRR_OBJ_ANY,
	    .cloexec = BPFRR_SYS_CLOEXEC_ALWAYS),
	/*
	 * Directories and names on a bpffs (bpftool prog loadall makes the
	 * directory it pins into): recorded only when the path is on one (the
	 * recorder asks statfs() of its directory); aarch64 has only the *at calls.
	 */
	SYS(MKDIR, 83, -1, NAME("mkdir", 2),
	    PARAMS(ARG("pathname", PTR), ARG("mode", MODE)),
	    CLS(BPFRR_SYS_CLASS_BPFFS), FD_OP(FS), .replay = BPFRR_SYS_REPLAY_MKDIR, .mode_arg = 1,
	    .cap = { CAP("pathname", 0, ENTRY, IN, PATH, STRING, PATH_CAP) }),
	SYS(MKDIRAT, 258, A64(34, mkdirat), NAME("mkdirat", 3),
	    PARAMS(ARG("dfd", DIRFD), ARG("pathname", PTR), ARG("mode", MODE)),
	    CLS(BPFRR_SYS_CLASS_BPFFS), FD_OP(FS), .replay = BPFRR_SYS_REPLAY_MKDIR, .dirfd_arg = 0,
	    .mode_arg = 2, .cap = { CAP("pathname", 1, ENTRY, IN, PATH, STRING, PATH_CAP) }),
	SYS(RMDIR, 84, -1, NAME("rmdir", 1),
	    PARAMS(ARG("pathname", PTR)),
	    CLS(BPFRR_SYS_CLASS_BPFFS), FD_OP(FS),
	    .cap = { CAP("pathname", 0, ENTRY, IN, PATH, STRING, PATH_CAP) }),
	SYS(UNLINK, 87, -1, NAME("unlink", 1),
	    PARAMS(ARG("pathname", PTR)),
	    CLS(BPFRR_SYS_CLASS_BPFFS), FD_OP(FS),
	    .cap = { CAP("pathname", 0, ENTRY, IN, PATH, STRING, PATH_CAP) }),
	/* flags: AT_REMOVEDIR (0x200) makes it an rmdir */
	SYS(UNLINKAT, 263, A64(35, unlinkat), NAME("unlinkat", 3),
	    PARAMS(ARG("dfd", DIRFD), ARG("pathname", PTR), ARG("flag", HEX)),
	    CLS(BPFRR_SYS_CLASS_BPFFS), FD_OP(FS), .dirfd_arg = 0,
	    .cap = { CAP("pathname", 1, ENTRY, IN, PATH, STRING, PATH_CAP) }),
	/*
	 * Netlink attachment (iproute2's `ip link ... xdp`, `tc filter ... bpf`, libbpf's
	 * bpf_xdp_attach): a NETLINK_ROUTE socket is followed from its socket() on (fd
	 * bookkeeping: the replayer opens its own), and what is sent on it is captured
	 * whole; lib/netlink.h says what each message does, which program fd it carries
	 * (resolved at entry) and which device (named at entry: "ifname.IFINDEX").
	 */
	SYS(SOCKET, 41, A64(198, socket), NAME("socket", 3),
	    PARAMS(ARG("family", CMD), ARG("type", HEX), ARG("protocol", INT)),
	    CLS(BPFRR_SYS_CLASS_FD), FD_OP(BY_SUB), .new_kind = BPFRR_OBJ_SOCKET,
	    .cloexec = BPFRR_SYS_CLOEXEC_ARG, .cloexec_arg = 1, .cloexec_mask = O_CLOEXEC_BIT,
	    SUBS(0, socket_families), .match_arg = 2, .match_value = NETLINK_ROUTE_NR),
	SYS(SENDTO, 44, A64(206, sendto), NAME("sendto", 6),
	    PARAMS(SOCK("fd"), ARG("buff", PTR), ARG("len", ULONG), ARG("flags", HEX), ARG("addr", PTR),
		   ARG("addr_len", INT)),
	    CLS(BPFRR_SYS_CLASS_NETLINK), .flags = BPFRR_SYSF_TRACKED, FD_OP(USES), .fd_arg = 0,
	    .cap = { { .path = "msg", .arg = 1, .phase = BPFRR_PHASE_ENTRY, .dir = BPFRR_DIR_IN,
		       .content = BPFRR_CONTENT_NETLINK, .len_rule = BPFRR_SYS_LEN_ARG, .len_arg = 2,
		       .len = NETLINK_CAP } }),
	SYS(SENDMSG, 46, A64(211, sendmsg), NAME("sendmsg", 3),
	    PARAMS(SOCK("fd"), ARG("msg", PTR), ARG("flags", HEX)),
	    CLS(BPFRR_SYS_CLASS_NETLINK), .flags = BPFRR_SYSF_TRACKED, FD_OP(USES), .fd_arg = 0,
	    .cap = { CAP("msg", 1, ENTRY, IN, NETLINK, MSG_IOV, NETLINK_CAP) }),
};

/* --- access ------------------------------------------------------------------------------ */

const struct bpfrr_sys_desc *bpfrr_sys(enum bpfrr_sys sys)
{
	if ((unsigned int)sys >= BPFRR_SYS__MAX || !sys_table[sys].name)
		return NULL;
	return &sys_table[sys];
}

const struct bpfrr_sys_desc *bpfrr_sys_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < BPFRR_SYS__MAX; i++)
		if (sys_table[i].name && !strcmp(sys_table[i].name, name))
			return &sys_table[i];
	return NULL;
}

enum bpfrr_sys bpfrr_sys_id(const struct bpfrr_sys_desc *d)
{
	return d ? (enum bpfrr_sys)(d - sys_table) : BPFRR_SYS_NONE;
}

const char *bpfrr_sys_name(enum bpfrr_sys sys)
{
	const struct bpfrr_sys_desc *d = bpfrr_sys(sys);

	return d ? d->name : NULL;
}

int bpfrr_sys_nr(const struct bpfrr_sys_desc *d, uint32_t e_machine)
{
	switch (e_machine) {
	case 62:	/* EM_X86_64 */
		return d->nr_x86_64;
	case 183:	/* EM_AARCH64 */
		return d->nr_aarch64;
	}
	return -1;
}

int bpfrr_sys_native_nr(const struct bpfrr_sys_desc *d)
{
#if defined(__x86_64__)
	return d->nr_x86_64;
#elif defined(__aarch64__)
	return d->nr_aarch64;
#else
	(void)d;
	return -1;
#endif
}

const struct bpfrr_sys_sub *bpfrr_sys_sub_of(const struct bpfrr_sys_desc *d, uint64_t value)
{
	unsigned int i;

	for (i = 0; d && i < d->nr_subs; i++)
		if (d->subs[i].value == (uint32_t)value)
			return &d->subs[i];
	return NULL;
}

const struct bpfrr_sys_sub *bpfrr_sys_sub(const struct bpfrr_sys_desc *d, const uint64_t args[6])
{
	if (!d || d->sub_arg < 0)
		return NULL;
	return bpfrr_sys_sub_of(d, args[d->sub_arg]);
}

const char *bpfrr_perf_ioc_name(uint32_t req)
{
	const struct bpfrr_sys_sub *s = bpfrr_sys_sub_of(&sys_table[BPFRR_SYS_IOCTL], req);

	return s ? s->name : NULL;
}

unsigned int bpfrr_sys_class(const struct bpfrr_sys_desc *d, const uint64_t args[6])
{
	const struct bpfrr_sys_sub *s = bpfrr_sys_sub(d, args);

	return s && s->cls ? s->cls : d->cls;
}

bool bpfrr_sys_builds(const struct bpfrr_sys_desc *d, const uint64_t args[6])
{
	const struct bpfrr_sys_sub *s = bpfrr_sys_sub(d, args);

	return (s ? s->flags : d->flags) & BPFRR_SYSF_BUILDS;
}

enum bpfrr_sys_fd_op bpfrr_sys_fd_op(const struct bpfrr_sys_desc *d, const uint64_t args[6])
{
	const struct bpfrr_sys_sub *s;

	if (d->fd_op != BPFRR_SYS_FD_BY_SUB)
		return (enum bpfrr_sys_fd_op)d->fd_op;
	s = bpfrr_sys_sub(d, args);
	return s ? (enum bpfrr_sys_fd_op)s->fd_op : BPFRR_SYS_FD_NONE;
}

const char *bpfrr_sys_fd_op_name(enum bpfrr_sys_fd_op op)
{
	static const char *const names[] = {
		[BPFRR_SYS_FD_NONE] = "none", [BPFRR_SYS_FD_CLOSE] = "close",
		[BPFRR_SYS_FD_CLOSE_RANGE] = "close_range", [BPFRR_SYS_FD_DUP] = "dup",
		[BPFRR_SYS_FD_SETFD] = "setfd", [BPFRR_SYS_FD_NEW] = "new", [BPFRR_SYS_FD_GET] = "get",
		[BPFRR_SYS_FD_USES] = "uses", [BPFRR_SYS_FD_BY_SUB] = "by_sub", [BPFRR_SYS_FD_FS] = "fs",
	};

	return (unsigned int)op < ARRAY_SIZE(names) ? names[op] : NULL;
}

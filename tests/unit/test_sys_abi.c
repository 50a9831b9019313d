// SPDX-License-Identifier: GPL-2.0-only
/*
 * The table of the system calls the recorder follows (lib/sys_abi.h),
 * checked against the build machine's headers: every row's number for this
 * architecture against <sys/syscall.h>, the perf ioctl requests against
 * <linux/perf_event.h>, the fcntl commands against <fcntl.h>; and checked
 * for itself: every row and sub-row has its semantics filled in, and the
 * fields that name arguments name ones the call has.
 */
#include <check.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "sys_abi.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* --- against the headers ---------------------------------------------------------- */

/* __NR_name of this architecture, -1 where it has no such call */
#define NR(id, name) { BPFRR_SYS_##id, #name, __NR_##name }
#define NO_NR(id, name) { BPFRR_SYS_##id, #name, -1 }

static const struct {
	enum bpfrr_sys sys;
	const char *name;
	int nr;
} host_nrs[] = {
	NR(BPF, bpf),
	NR(CLOSE, close),
	NR(CLOSE_RANGE, close_range),
	NR(DUP, dup),
#ifdef __NR_dup2
	NR(DUP2, dup2),
#else
	NO_NR(DUP2, dup2),
#endif
	NR(DUP3, dup3),
	NR(FCNTL, fcntl),
	NR(PERF_EVENT_OPEN, perf_event_open),
	NR(IOCTL, ioctl),
#ifdef __NR_open
	NR(OPEN, open),
#else
	NO_NR(OPEN, open),
#endif
	NR(OPENAT, openat),
	NR(OPENAT2, openat2),
	NR(PIDFD_GETFD, pidfd_getfd),
#ifdef __NR_mkdir
	NR(MKDIR, mkdir),
#else
	NO_NR(MKDIR, mkdir),
#endif
	NR(MKDIRAT, mkdirat),
#ifdef __NR_rmdir
	NR(RMDIR, rmdir),
#else
	NO_NR(RMDIR, rmdir),
#endif
#ifdef __NR_unlink
	NR(UNLINK, unlink),
#else
	NO_NR(UNLINK, unlink),
#endif
	NR(UNLINKAT, unlinkat),
	NR(SOCKET, socket),
	NR(SENDTO, sendto),
	NR(SENDMSG, sendmsg),
};

START_TEST(test_host_numbers)
{
	size_t i;

	ck_assert_msg(ARRAY_SIZE(host_nrs) == BPFRR_SYS__MAX - 1, "%zu calls here, %d rows: a row without its line",
		      ARRAY_SIZE(host_nrs), BPFRR_SYS__MAX - 1);
	for (i = 0; i < ARRAY_SIZE(host_nrs); i++) {
		const struct bpfrr_sys_desc *d = bpfrr_sys(host_nrs[i].sys);

		ck_assert_msg(d, "no row for %s", host_nrs[i].name);
		ck_assert_str_eq(d->name, host_nrs[i].name);
		ck_assert_msg(bpfrr_sys_native_nr(d) == host_nrs[i].nr, "%s: the table says %d, <sys/syscall.h> %d",
			      d->name, bpfrr_sys_native_nr(d), host_nrs[i].nr);
	}
}
END_TEST

#define IOC(name) { name, #name }

static const struct {
	unsigned long req;
	const char *name;
} perf_ioctls[] = {
	IOC(PERF_EVENT_IOC_ENABLE), IOC(PERF_EVENT_IOC_DISABLE), IOC(PERF_EVENT_IOC_REFRESH),
	IOC(PERF_EVENT_IOC_RESET), IOC(PERF_EVENT_IOC_PERIOD), IOC(PERF_EVENT_IOC_SET_OUTPUT),
	IOC(PERF_EVENT_IOC_SET_FILTER), IOC(PERF_EVENT_IOC_ID), IOC(PERF_EVENT_IOC_SET_BPF),
	IOC(PERF_EVENT_IOC_PAUSE_OUTPUT), IOC(PERF_EVENT_IOC_QUERY_BPF),
	IOC(PERF_EVENT_IOC_MODIFY_ATTRIBUTES),
};

/* the enum's values too: the readers that name a request use them */
static const uint32_t perf_ioc_enum[] = {
	BPFRR_PERF_IOC_ENABLE, BPFRR_PERF_IOC_DISABLE, BPFRR_PERF_IOC_REFRESH, BPFRR_PERF_IOC_RESET,
	BPFRR_PERF_IOC_PERIOD, BPFRR_PERF_IOC_SET_OUTPUT, BPFRR_PERF_IOC_SET_FILTER, BPFRR_PERF_IOC_ID,
	BPFRR_PERF_IOC_SET_BPF, BPFRR_PERF_IOC_PAUSE_OUTPUT, BPFRR_PERF_IOC_QUERY_BPF,
	BPFRR_PERF_IOC_MODIFY_ATTRIBUTES,
};

START_TEST(test_perf_ioctls)
{
	const struct bpfrr_sys_desc *d = bpfrr_sys(BPFRR_SYS_IOCTL);
	size_t i;

	ck_assert_uint_eq(d->nr_subs, ARRAY_SIZE(perf_ioctls));
	for (i = 0; i < ARRAY_SIZE(perf_ioctls); i++) {
		const struct bpfrr_sys_sub *s = bpfrr_sys_sub_of(d, perf_ioctls[i].req);

		ck_assert_msg(s, "%s (%#lx) has no sub-row", perf_ioctls[i].name, perf_ioctls[i].req);
		ck_assert_str_eq(s->name, perf_ioctls[i].name);
		ck_assert_msg(perf_ioc_enum[i] == (uint32_t)perf_ioctls[i].req, "%s: enum %#x, header %#lx",
			      perf_ioctls[i].name, perf_ioc_enum[i], perf_ioctls[i].req);
		ck_assert_str_eq(bpfrr_perf_ioc_name((uint32_t)perf_ioctls[i].req), perf_ioctls[i].name);
	}
	ck_assert_ptr_null(bpfrr_perf_ioc_name(0x5401));	/* TCGETS */
}
END_TEST

START_TEST(test_fcntl_cmds)
{
	static const struct {
		int cmd;
		const char *name;
	} cmds[] = {
		{ F_DUPFD, "F_DUPFD" }, { F_GETFD, "F_GETFD" }, { F_SETFD, "F_SETFD" },
		{ F_GETFL, "F_GETFL" }, { F_SETFL, "F_SETFL" }, { F_DUPFD_CLOEXEC, "F_DUPFD_CLOEXEC" },
	};
	const struct bpfrr_sys_desc *d = bpfrr_sys(BPFRR_SYS_FCNTL);
	size_t i;

	ck_assert_uint_eq(d->nr_subs, ARRAY_SIZE(cmds));
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		const struct bpfrr_sys_sub *s = bpfrr_sys_sub_of(d, (uint64_t)cmds[i].cmd);

		ck_assert_msg(s && !strcmp(s->name, cmds[i].name), "%s (%d)", cmds[i].name, cmds[i].cmd);
	}
	ck_assert_uint_eq(BPFRR_F_DUPFD_CLOEXEC, F_DUPFD_CLOEXEC);
	ck_assert_uint_eq(BPFRR_F_SETFD, F_SETFD);
}
END_TEST

/* --- the table's own consistency -------------------------------------------------- */

static void check_capture(const char *who, const struct bpfrr_sys_capture *c, unsigned int nr_args)
{
	if (!c->path) {
		ck_assert_msg(c->len_rule == BPFRR_SYS_LEN_NONE, "%s: a capture without a path", who);
		return;
	}
	ck_assert_msg(c->len_rule != BPFRR_SYS_LEN_NONE, "%s %s: no length rule", who, c->path);
	ck_assert_msg(c->arg < nr_args, "%s %s: argument %u of %u", who, c->path, c->arg, nr_args);
	ck_assert_msg(c->dir >= BPFRR_DIR_IN && c->dir <= BPFRR_DIR_INOUT, "%s %s: no direction", who, c->path);
	ck_assert_msg(c->content != BPFRR_CONTENT_NONE, "%s %s: no content", who, c->path);
	ck_assert_msg(c->phase == BPFRR_PHASE_ENTRY || c->phase == BPFRR_PHASE_EXIT, "%s %s: phase", who, c->path);
	if (c->len_rule == BPFRR_SYS_LEN_FIXED || c->len_rule == BPFRR_SYS_LEN_STRING ||
	    c->len_rule == BPFRR_SYS_LEN_ARG || c->len_rule == BPFRR_SYS_LEN_PERF_ATTR ||
	    c->len_rule == BPFRR_SYS_LEN_MSG_IOV)
		ck_assert_msg(c->len > 0, "%s %s: no size or cap", who, c->path);
	if (c->len_rule == BPFRR_SYS_LEN_ARG)
		ck_assert_msg(c->len_arg < nr_args && c->len_arg != c->arg, "%s %s: size argument", who, c->path);
}

static bool builds_ok(unsigned int cls, unsigned int flags)
{
	return !(flags & BPFRR_SYSF_BUILDS) || cls == BPFRR_CMD_CLASS_CREATE || cls == BPFRR_CMD_CLASS_MUTATE;
}

static void check_sub(const struct bpfrr_sys_desc *d, const struct bpfrr_sys_sub *s)
{
	char who[96];
	unsigned int i;

	snprintf(who, sizeof(who), "%s %s", d->name, s->name ? s->name : "(unnamed)");
	ck_assert_msg(s->name, "%s: a sub-row without a name", who);
	ck_assert_msg(s->arg_kind != BPFRR_SYS_ARG_NONE && s->arg_kind < BPFRR_SYS_ARG__MAX,
		      "%s: how its argument prints", who);
	if (s->arg_kind == BPFRR_SYS_ARG_FD)
		ck_assert_msg(s->arg_obj != BPFRR_OBJ_NONE && s->arg_ref && d->sub_arg + 1 < d->nr_args &&
			      d->params[d->sub_arg + 1].ir >= 0, "%s: an fd argument's kind, name and IR argument", who);
	if (d->fd_op == BPFRR_SYS_FD_BY_SUB && (s->flags & BPFRR_SYSF_STOPS))
		ck_assert_msg(s->fd_op != BPFRR_SYS_FD_NONE, "%s: stops, but does nothing to fds", who);
	if (s->fd_op == BPFRR_SYS_FD_DUP)
		ck_assert_msg(s->cloexec == BPFRR_SYS_CLOEXEC_NEVER || s->cloexec == BPFRR_SYS_CLOEXEC_ALWAYS,
			      "%s: close-on-exec", who);
	ck_assert_msg(builds_ok(s->cls ? s->cls : d->cls, s->flags), "%s: BUILDS outside CREATE/MUTATE", who);
	if (s->flags & BPFRR_SYSF_REPLAYS)
		ck_assert_msg(d->replay == BPFRR_SYS_REPLAY_IOCTL, "%s: REPLAYS on a call replayed otherwise", who);
	for (i = 0; i < BPFRR_SYS_MAX_CAPTURES; i++)
		check_capture(who, &s->cap[i], d->nr_args);
	ck_assert_ptr_eq(bpfrr_sys_sub_of(d, s->value), s);	/* values are unique */
}

START_TEST(test_rows_filled)
{
	unsigned int id, i, j;

	for (id = BPFRR_SYS_NONE + 1; id < BPFRR_SYS__MAX; id++) {
		const struct bpfrr_sys_desc *d = bpfrr_sys((enum bpfrr_sys)id);
		int8_t irs[6] = { 0 };
		bool all_new;

		ck_assert_msg(d && d->name, "call %u has no row", id);
		ck_assert_ptr_eq(bpfrr_sys_by_name(d->name), d);	/* names are unique */
		ck_assert_uint_eq(bpfrr_sys_id(d), id);
		ck_assert_msg(d->nr_args >= 1 && d->nr_args <= 6, "%s: %u arguments", d->name, d->nr_args);
		ck_assert_msg(d->nr_x86_64 > 0 || d->nr_aarch64 > 0, "%s: no number", d->name);
		for (i = 0; i < 6; i++) {
			const struct bpfrr_sys_param *p = &d->params[i];

			if (i >= d->nr_args) {
				ck_assert_msg(!p->name && p->kind == BPFRR_SYS_ARG_NONE, "%s: argument %u of %u",
					      d->name, i, d->nr_args);
				continue;
			}
			ck_assert_msg(p->name && p->kind != BPFRR_SYS_ARG_NONE && p->kind < BPFRR_SYS_ARG__MAX,
				      "%s: argument %u has no name or kind", d->name, i);
			if (p->flags & BPFRR_SYSP_REF)	/* the front end relocates it as an IR argument */
				ck_assert_msg(p->kind == BPFRR_SYS_ARG_FD && p->obj != BPFRR_OBJ_NONE && p->ir >= 0,
					      "%s %s: a reference to what, as which IR argument", d->name, p->name);
			if (p->ir >= 0) {
				ck_assert_msg(p->ir < 6 && !irs[p->ir], "%s %s: IR argument %d", d->name, p->name,
					      p->ir);
				irs[p->ir] = 1;
			}
			ck_assert_msg((p->kind == BPFRR_SYS_ARG_CMD || p->kind == BPFRR_SYS_ARG_REQUEST) ==
				      (d->sub_arg == (int)i), "%s %s: the selector of the sub-rows", d->name, p->name);
		}
		for (i = 0; i < BPFRR_SYS_MAX_CAPTURES; i++)
			check_capture(d->name, &d->cap[i], d->nr_args);
		ck_assert_msg((d->sub_arg >= 0) == (d->nr_subs > 0 && d->subs), "%s: sub-rows", d->name);
		for (j = 0; j < d->nr_subs; j++)
			check_sub(d, &d->subs[j]);
		if (d->flags & BPFRR_SYSF_BPF_CALL)
			continue;	/* bpf(): the bpf() ABI table says the rest */

		/* the semantics every other call needs */
		ck_assert_msg(d->cls != BPFRR_CMD_CLASS_NONE, "%s: no class", d->name);
		ck_assert_msg(builds_ok(d->cls, d->flags), "%s: BUILDS outside CREATE/MUTATE", d->name);
		ck_assert_msg(d->fd_op != BPFRR_SYS_FD_NONE && bpfrr_sys_fd_op_name(d->fd_op),
			      "%s: what it does to fds", d->name);
		/* sub-rows that all make a new fd (socket's families): no fd argument, the kind made */
		all_new = d->fd_op == BPFRR_SYS_FD_BY_SUB;
		for (j = 0; all_new && j < d->nr_subs; j++)
			all_new = d->subs[j].fd_op == BPFRR_SYS_FD_NEW;
		if (all_new)
			ck_assert_msg(d->new_kind != BPFRR_OBJ_NONE && d->fd_arg < 0 &&
				      (d->cloexec != BPFRR_SYS_CLOEXEC_ARG || (d->cloexec_arg >= 0 && d->cloexec_mask)),
				      "%s: the kind of what it makes, its close-on-exec", d->name);
		switch (all_new ? BPFRR_SYS_FD_NONE : d->fd_op) {
		case BPFRR_SYS_FD_CLOSE:
		case BPFRR_SYS_FD_SETFD:
		case BPFRR_SYS_FD_USES:
		case BPFRR_SYS_FD_BY_SUB:
			ck_assert_msg(d->fd_arg >= 0 && d->fd_arg < d->nr_args &&
				      d->params[d->fd_arg].kind == BPFRR_SYS_ARG_FD, "%s: its fd argument", d->name);
			break;
		case BPFRR_SYS_FD_DUP:
			ck_assert_msg(d->fd_arg >= 0 && d->fd_arg < d->nr_args, "%s: its fd argument", d->name);
			ck_assert_msg(d->newfd_arg < d->nr_args, "%s: its new fd argument", d->name);
			/* fall through */
		case BPFRR_SYS_FD_NEW:
		case BPFRR_SYS_FD_GET:
			ck_assert_msg(d->fd_op == BPFRR_SYS_FD_DUP || d->new_kind != BPFRR_OBJ_NONE,
				      "%s: the kind of what it makes", d->name);
			if (d->cloexec == BPFRR_SYS_CLOEXEC_ARG)
				ck_assert_msg(d->cloexec_arg >= 0 && d->cloexec_arg < d->nr_args && d->cloexec_mask,
					      "%s: where close-on-exec comes from", d->name);
			if (d->cloexec == BPFRR_SYS_CLOEXEC_OFLAGS)
				ck_assert_msg(d->oflags_arg >= 0 && d->oflags_arg < d->nr_args,
					      "%s: its open flags", d->name);
			break;
		default:
			break;
		}
		/* a call on a tracked fd only (a send on a netlink socket) names its kind, the others a REF */
		if (d->fd_op == BPFRR_SYS_FD_USES)
			ck_assert_msg((d->flags & BPFRR_SYSF_TRACKED) ? d->params[d->fd_arg].obj != BPFRR_OBJ_NONE :
				      (d->params[d->fd_arg].flags & BPFRR_SYSP_REF) != 0, "%s: the fd it uses", d->name);
		ck_assert_msg(!(d->flags & BPFRR_SYSF_TRACKED) || d->fd_op == BPFRR_SYS_FD_USES,
			      "%s: TRACKED on a call that uses no fd", d->name);
		ck_assert_msg(d->match_arg < 0 || (d->match_arg < d->nr_args && d->match_arg != d->sub_arg),
			      "%s: its match argument", d->name);
		/* netlink requests: what the messages carry decides (lib/netlink.h) */
		if (d->cls == BPFRR_SYS_CLASS_NETLINK)
			ck_assert_msg(d->cap[0].path && d->cap[0].content == BPFRR_CONTENT_NETLINK &&
				      d->cap[0].phase == BPFRR_PHASE_ENTRY && (d->flags & BPFRR_SYSF_TRACKED),
				      "%s: a netlink request captures its messages at entry", d->name);
		if (d->flags & BPFRR_SYSF_OPENS)
			ck_assert_msg(d->fd_op == BPFRR_SYS_FD_NEW && d->cap[0].path &&
				      d->cap[0].len_rule == BPFRR_SYS_LEN_STRING &&
				      d->cap[0].content == BPFRR_CONTENT_PATH && d->replay == BPFRR_SYS_REPLAY_PATH &&
				      d->cls == BPFRR_SYS_CLASS_OPEN, "%s: an open reads its path first", d->name);
		if (d->replay == BPFRR_SYS_REPLAY_IOCTL)
			ck_assert_msg(d->sub_arg >= 0 && d->fd_op == BPFRR_SYS_FD_USES, "%s: replayed as ioctl",
				      d->name);
		/* mkdir, rmdir, unlink: the recorder reads the path first to see whether it is on a bpffs */
		if (d->fd_op == BPFRR_SYS_FD_FS)
			ck_assert_msg(d->cap[0].path && d->cap[0].len_rule == BPFRR_SYS_LEN_STRING &&
				      d->cap[0].content == BPFRR_CONTENT_PATH && d->cls == BPFRR_SYS_CLASS_BPFFS &&
				      (d->replay == BPFRR_SYS_REPLAY_MKDIR) == (d->mode_arg >= 0),
				      "%s: a call on a path of a bpffs", d->name);
	}
	ck_assert_ptr_null(bpfrr_sys(BPFRR_SYS_NONE));
	ck_assert_ptr_null(bpfrr_sys(BPFRR_SYS__MAX));
	ck_assert_ptr_null(bpfrr_sys_by_name("getppid"));
}
END_TEST

START_TEST(test_lookups)
{
	const struct bpfrr_sys_desc *ioctl = bpfrr_sys_by_name("ioctl"), *fcntl = bpfrr_sys_by_name("fcntl");
	uint64_t set_bpf[6] = { 3, BPFRR_PERF_IOC_SET_BPF | 0xffffffff00000000ull, 4 };
	uint64_t id[6] = { 3, BPFRR_PERF_IOC_ID };
	uint64_t disable[6] = { 3, BPFRR_PERF_IOC_DISABLE };
	uint64_t other[6] = { 3, 0x5401 };
	uint64_t setfd[6] = { 3, F_SETFD, FD_CLOEXEC };
	uint64_t getfl[6] = { 3, F_GETFL };

	ck_assert_int_eq(bpfrr_sys_nr(bpfrr_sys(BPFRR_SYS_BPF), 62), 321);
	ck_assert_int_eq(bpfrr_sys_nr(bpfrr_sys(BPFRR_SYS_BPF), 183), 280);
	ck_assert_int_eq(bpfrr_sys_nr(bpfrr_sys(BPFRR_SYS_OPEN), 183), -1);
	ck_assert_int_eq(bpfrr_sys_nr(bpfrr_sys(BPFRR_SYS_OPEN), 3), -1);
	/* requests compare on their low 32 bits */
	ck_assert_str_eq(bpfrr_sys_sub(ioctl, set_bpf)->name, "PERF_EVENT_IOC_SET_BPF");
	ck_assert_uint_eq(bpfrr_sys_class(ioctl, set_bpf), BPFRR_CMD_CLASS_MUTATE);
	ck_assert_uint_eq(bpfrr_sys_class(ioctl, id), BPFRR_CMD_CLASS_READ);
	ck_assert_uint_eq(bpfrr_sys_class(ioctl, other), BPFRR_CMD_CLASS_MUTATE);
	ck_assert(bpfrr_sys_builds(ioctl, set_bpf));
	ck_assert(!bpfrr_sys_builds(ioctl, disable));
	ck_assert(!bpfrr_sys_builds(ioctl, id));
	ck_assert(bpfrr_sys_builds(ioctl, other));	/* an unknown request changes the event */
	ck_assert_int_eq(bpfrr_sys_fd_op(fcntl, setfd), BPFRR_SYS_FD_SETFD);
	ck_assert_int_eq(bpfrr_sys_fd_op(fcntl, getfl), BPFRR_SYS_FD_NONE);
	ck_assert_int_eq(bpfrr_sys_fd_op(ioctl, other), BPFRR_SYS_FD_USES);
	ck_assert_uint_eq(bpfrr_sys_class(bpfrr_sys_by_name("openat"), other), BPFRR_SYS_CLASS_OPEN);
}
END_TEST

static Suite *sys_abi_suite(void)
{
	Suite *s = suite_create("sys_abi");
	TCase *tc = tcase_create("table");

	tcase_add_test(tc, test_host_numbers);
	tcase_add_test(tc, test_perf_ioctls);
	tcase_add_test(tc, test_fcntl_cmds);
	tcase_add_test(tc, test_rows_filled);
	tcase_add_test(tc, test_lookups);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(sys_abi_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

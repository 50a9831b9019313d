// SPDX-License-Identifier: GPL-2.0-only
/*
 * record_filter.c - the seccomp filter that decides which system calls stop
 * the tracee.
 *
 * Every rule is SCMP_ACT_TRACE(what), where what (enum rec_sys) tells the
 * recorder at the PTRACE_EVENT_SECCOMP stop which handler the call needs.
 * Everything else is allowed without a stop, which is what keeps the
 * recorder's overhead on ordinary system calls at zero. A call through a
 * non-native ABI (ia32 int 0x80 on x86_64, x32, AArch32) matches no rule of
 * the native architecture and takes the "bad arch" action: a trace stop
 * with REC_SYS_BADARCH, on which the recorder refuses the tracee.
 *
 * The list is documented in docs/recorder.md; keep the two in step.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <seccomp.h>
#include <sys/syscall.h>

#include "record.h"

/* ioctl requests of perf event fds that change or query a BPF attachment */
static const unsigned long perf_ioctls[] = {
	PERF_EVENT_IOC_ENABLE,
	PERF_EVENT_IOC_DISABLE,
	PERF_EVENT_IOC_REFRESH,
	PERF_EVENT_IOC_RESET,
	PERF_EVENT_IOC_PERIOD,
	PERF_EVENT_IOC_SET_OUTPUT,
	PERF_EVENT_IOC_SET_FILTER,
	PERF_EVENT_IOC_ID,
	PERF_EVENT_IOC_SET_BPF,
	PERF_EVENT_IOC_PAUSE_OUTPUT,
	PERF_EVENT_IOC_QUERY_BPF,
	PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
};

static const char *const sys_names[REC_SYS__MAX] = {
	[REC_SYS_NONE] = "none",
	[REC_SYS_BPF] = "bpf",
	[REC_SYS_CLOSE] = "close",
	[REC_SYS_CLOSE_RANGE] = "close_range",
	[REC_SYS_DUP] = "dup",
	[REC_SYS_DUP2] = "dup2",
	[REC_SYS_DUP3] = "dup3",
	[REC_SYS_FCNTL_DUPFD] = "fcntl",
	[REC_SYS_FCNTL_SETFD] = "fcntl",
	[REC_SYS_PERF_EVENT_OPEN] = "perf_event_open",
	[REC_SYS_PERF_IOCTL] = "ioctl",
	[REC_SYS_OPEN] = "open",
	[REC_SYS_OPENAT] = "openat",
	[REC_SYS_OPENAT2] = "openat2",
	[REC_SYS_PIDFD_GETFD] = "pidfd_getfd",
};

const char *rec_sys_name(enum rec_sys sys)
{
	if (sys == REC_SYS_BADARCH)
		return "(non-native ABI)";
	if ((unsigned int)sys >= REC_SYS__MAX)
		return "?";
	return sys_names[sys];
}

#define MASK32 0xffffffffULL

static int add_rules(scmp_filter_ctx ctx, enum rec_opens opens)
{
	size_t i;
	int err = 0;

#define TRACE(what, nr, ...) \
	do { \
		if (!err) \
			err = seccomp_rule_add(ctx, SCMP_ACT_TRACE(what), nr, __VA_ARGS__); \
	} while (0)

	TRACE(REC_SYS_BPF, SCMP_SYS(bpf), 0);
	TRACE(REC_SYS_CLOSE, SCMP_SYS(close), 0);
	TRACE(REC_SYS_CLOSE_RANGE, SCMP_SYS(close_range), 0);
	TRACE(REC_SYS_DUP, SCMP_SYS(dup), 0);
#ifdef __NR_dup2
	TRACE(REC_SYS_DUP2, SCMP_SYS(dup2), 0);
#endif
	TRACE(REC_SYS_DUP3, SCMP_SYS(dup3), 0);
	TRACE(REC_SYS_FCNTL_DUPFD, SCMP_SYS(fcntl), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, MASK32, F_DUPFD));
	TRACE(REC_SYS_FCNTL_DUPFD, SCMP_SYS(fcntl), 1,
	      SCMP_A1(SCMP_CMP_MASKED_EQ, MASK32, F_DUPFD_CLOEXEC));
	TRACE(REC_SYS_FCNTL_SETFD, SCMP_SYS(fcntl), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, MASK32, F_SETFD));
	TRACE(REC_SYS_PERF_EVENT_OPEN, SCMP_SYS(perf_event_open), 0);
	for (i = 0; i < sizeof(perf_ioctls) / sizeof(perf_ioctls[0]); i++)
		TRACE(REC_SYS_PERF_IOCTL, SCMP_SYS(ioctl), 1,
		      SCMP_A1(SCMP_CMP_MASKED_EQ, MASK32, perf_ioctls[i] & MASK32));
	TRACE(REC_SYS_PIDFD_GETFD, SCMP_SYS(pidfd_getfd), 0);
	if (opens != REC_OPENS_NONE) {
#ifdef __NR_open
		TRACE(REC_SYS_OPEN, SCMP_SYS(open), 0);
#endif
		TRACE(REC_SYS_OPENAT, SCMP_SYS(openat), 0);
		TRACE(REC_SYS_OPENAT2, SCMP_SYS(openat2), 0);
	}
#undef TRACE
	return err;
}

static scmp_filter_ctx build(enum rec_opens opens, int *err)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);

	if (!ctx) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_TRACE(REC_SYS_BADARCH));
	if (!*err)
		*err = add_rules(ctx, opens);
	if (*err) {
		seccomp_release(ctx);
		return NULL;
	}
	return ctx;
}

int rec_filter_install(enum rec_opens opens)
{
	scmp_filter_ctx ctx;
	int err;

	ctx = build(opens, &err);
	if (!ctx)
		return err;
	/*
	 * Without no_new_privs a filter needs CAP_SYS_ADMIN; loaders usually
	 * run as root, and then we leave no_new_privs off so that the command
	 * behaves exactly as it would unrecorded. Otherwise set it and retry.
	 */
	err = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	if (!err)
		err = seccomp_load(ctx);
	if (err == -EACCES || err == -EPERM) {
		err = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 1);
		if (!err)
			err = seccomp_load(ctx);
	}
	seccomp_release(ctx);
	return err;
}

int rec_filter_print(enum rec_opens opens, int fd)
{
	scmp_filter_ctx ctx;
	int err;

	ctx = build(opens, &err);
	if (!ctx)
		return err;
	err = seccomp_export_pfc(ctx, fd);
	seccomp_release(ctx);
	return err;
}

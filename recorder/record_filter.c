// SPDX-License-Identifier: GPL-2.0-only
/*
 * record_filter.c - the seccomp filter that decides which system calls stop
 * the tracee.
 *
 * Every rule is SCMP_ACT_TRACE(what), where what (enum bpfrr_sys) tells the
 * recorder at the PTRACE_EVENT_SECCOMP stop which row of the table of
 * followed calls (lib/sys_abi.h) the call is.
 * Everything else is allowed without a stop, which is what keeps the
 * recorder's overhead on ordinary system calls at zero. A call through a
 * non-native ABI (ia32 int 0x80 on x86_64, x32, AArch32) matches no rule of
 * the native architecture and takes the "bad arch" action: a trace stop
 * with REC_SYS_BADARCH, on which the recorder refuses the tracee.
 *
 * The list is documented in docs/recorder.md; keep the two in step.
 */
#include <errno.h>
#include <seccomp.h>

#include "record.h"

#define MASK32 0xffffffffULL

/*
 * The rules come from the table of followed calls (lib/sys_abi.h): one per
 * row, or one per sub-row the filter stops for (fcntl commands, perf ioctl
 * requests: compared on the low 32 bits, as the kernel's unsigned int cmd
 * is), in table order; opens only when --opens is not none. A row without
 * a number on this architecture (open and dup2 on aarch64) has no rule.
 */
static int add_rules(scmp_filter_ctx ctx, enum rec_opens opens)
{
	unsigned int id, i;
	int err = 0;

	for (id = BPFRR_SYS_NONE + 1; id < BPFRR_SYS__MAX && !err; id++) {
		const struct bpfrr_sys_desc *d = bpfrr_sys((enum bpfrr_sys)id);
		int nr = bpfrr_sys_native_nr(d);

		if (nr < 0 || ((d->flags & BPFRR_SYSF_OPENS) && opens == REC_OPENS_NONE))
			continue;
		if (d->sub_arg < 0) {
			err = seccomp_rule_add(ctx, SCMP_ACT_TRACE(id), nr, 0);
			continue;
		}
		for (i = 0; i < d->nr_subs && !err; i++)
			if (d->subs[i].flags & BPFRR_SYSF_STOPS)
				err = seccomp_rule_add(ctx, SCMP_ACT_TRACE(id), nr, 1,
						       SCMP_CMP((unsigned int)d->sub_arg, SCMP_CMP_MASKED_EQ, MASK32,
								d->subs[i].value));
	}
	return err;
}

/*
 * Every call the tracee makes runs the filter, and almost every call is one
 * the filter lets through: what that costs is the path to ALLOW.  In the
 * default (linear) layout a call the filter does not list is compared with
 * each listed number in turn: getppid() runs 18 instructions on x86_64; as
 * a binary tree on the syscall number (libseccomp's optimisation level 2)
 * 12 (test_record_filter runs the exported filter and counts them).
 */
#define FILTER_TREE 2

static scmp_filter_ctx build(enum rec_opens opens, int *err)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);

	if (!ctx) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_TRACE(REC_SYS_BADARCH));
	if (!*err)
		*err = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, FILTER_TREE);
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

int rec_filter_export(enum rec_opens opens, int fd)
{
	scmp_filter_ctx ctx;
	int err;

	ctx = build(opens, &err);
	if (!ctx)
		return err;
	err = seccomp_export_bpf(ctx, fd);
	seccomp_release(ctx);
	return err;
}

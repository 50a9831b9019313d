// SPDX-License-Identifier: GPL-2.0-only
/*
 * record_loop.c - the ptrace loop of `bpfrr record`.
 *
 * One waitpid(__WALL) loop serves every task of the traced command. The
 * tracees run freely except where the seccomp filter stops them
 * (PTRACE_EVENT_SECCOMP at a syscall entry); if a handler needs the result
 * of that call, the task is resumed with PTRACE_SYSCALL, which makes the
 * next stop the exit of the same call, and with PTRACE_CONT otherwise.
 * Tasks appear through PTRACE_EVENT_CLONE/FORK/VFORK, change image at
 * PTRACE_EVENT_EXEC and end at PTRACE_EVENT_EXIT and their final wait
 * status. Signals are re-injected; group-stops are answered with
 * PTRACE_LISTEN so that job control works as without the recorder.
 *
 * Syscall details come from PTRACE_GET_SYSCALL_INFO (Linux >= 5.3), which
 * is the same on every architecture and names the ABI (audit arch) of the
 * call. Registers are read (PTRACE_GETREGSET NT_PRSTATUS) only for clone
 * flags and to tell a 32-bit image from a native one after exec.
 */
#include <elf.h>
#include <errno.h>
#include <linux/audit.h>
#include <linux/sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record.h"

#if defined(__x86_64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_X86_64
#define NATIVE_ABI_NAME "x86_64"
#elif defined(__aarch64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_AARCH64
#define NATIVE_ABI_NAME "aarch64"
#else
#error "bpfrr record supports x86_64 and aarch64"
#endif

uint64_t rec_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* --- tasks ------------------------------------------------------------------- */

#define NR_BUCKETS (sizeof(((struct rec_session *)0)->tasks) / sizeof(struct rec_task *))

struct rec_task *rec_task_find(struct rec_session *s, pid_t tid)
{
	struct rec_task *t;

	for (t = s->tasks[(unsigned int)tid % NR_BUCKETS]; t; t = t->hnext)
		if (t->tid == tid)
			return t;
	return NULL;
}

static struct rec_task *task_add(struct rec_session *s, pid_t tid)
{
	struct rec_task *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->tid = tid;
	t->tgid = tid;
	t->hnext = s->tasks[(unsigned int)tid % NR_BUCKETS];
	s->tasks[(unsigned int)tid % NR_BUCKETS] = t;
	s->nr_tasks++;
	return t;
}

static void task_del(struct rec_session *s, struct rec_task *t)
{
	struct rec_task **p;

	for (p = &s->tasks[(unsigned int)t->tid % NR_BUCKETS]; *p; p = &(*p)->hnext) {
		if (*p == t) {
			*p = t->hnext;
			break;
		}
	}
	s->nr_tasks--;
	rec_mem_forget(t->tid);
	rec_call_free(t->call);
	rec_fdtab_put(t->fdtab);
	free(t->exe_path);
	free(t);
}

/* --- calls -------------------------------------------------------------------- */

struct rec_call *rec_call_new(enum bpfrr_sys sys)
{
	struct rec_call *c = calloc(1, sizeof(*c));

	if (c) {
		c->sys = sys;
		c->desc = bpfrr_sys(sys);
	}
	return c;
}

void rec_call_free(struct rec_call *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nr_regions; i++) {
		free((char *)c->regions[i].r.path);
		free(c->regions[i].data);
	}
	free(c->regions);
	free(c->attr);
	free(c->attr_exit);
	free(c->common_entry);
	free(c->common_exit);
	free(c->str);
	free(c);
}

static struct rec_region *add_region(struct rec_call *c, const struct bpfrr_trace_region *tmpl)
{
	struct rec_region *r;

	if (c->nr_regions == c->cap_regions) {
		size_t cap = c->cap_regions ? c->cap_regions * 2 : 8;
		struct rec_region *n = realloc(c->regions, cap * sizeof(*n));

		if (!n)
			return NULL;
		c->regions = n;
		c->cap_regions = cap;
	}
	r = &c->regions[c->nr_regions];
	memset(r, 0, sizeof(*r));
	r->r = *tmpl;
	r->r.path = strdup(tmpl->path ? tmpl->path : "");
	if (!r->r.path)
		return NULL;
	c->nr_regions++;
	return r;
}

void rec_write_failed(struct rec_session *s, int err)
{
	if (s->write_err)
		return;
	s->write_err = err ? err : -EIO;
	fprintf(stderr, "bpfrr record: writing the trace %s failed: %s; stopping the command\n",
		s->opt->output, strerror(-s->write_err));
}

int rec_call_add_bytes(struct rec_session *s, struct rec_call *c, const struct bpfrr_trace_region *tmpl,
		       const void *data, size_t len, bool keep)
{
	struct rec_region *r = add_region(c, tmpl);

	if (!r)
		return -ENOMEM;
	if (!data)
		return 0;
	r->r.blob = bpfrr_trace_put_blob(s->w, data, len);
	if (!r->r.blob) {
		rec_write_failed(s, -errno);
		return -errno;
	}
	if (keep && len) {
		r->data = malloc(len);
		if (r->data)
			memcpy(r->data, data, len);
	}
	return 0;
}

int rec_call_capture(struct rec_session *s, struct rec_task *t, struct rec_call *c,
		     const struct bpfrr_trace_region *tmpl, bool keep)
{
	struct bpfrr_trace_region reg = *tmpl;
	void *buf = NULL;
	int err = 0;

	if (reg.len) {
		buf = malloc(reg.len);
		err = buf ? rec_mem_read(t->tid, reg.addr, buf, reg.len) : -ENOMEM;
	}
	if (err) {
		reg.flags |= BPFRR_REGION_UNREADABLE;
		reg.err = -err;
		free(buf);
		return rec_call_add_bytes(s, c, &reg, NULL, 0, false);
	}
	err = rec_call_add_bytes(s, c, &reg, buf ? buf : "", reg.len, keep);
	free(buf);
	return err;
}

static void fill_regions(const struct rec_call *c, struct bpfrr_trace_region **out)
{
	struct bpfrr_trace_region *r = NULL;
	size_t i;

	if (c->nr_regions) {
		r = calloc(c->nr_regions, sizeof(*r));
		for (i = 0; r && i < c->nr_regions; i++)
			r[i] = c->regions[i].r;
	}
	*out = r;
}

int rec_emit_syscall(struct rec_session *s, struct rec_task *t, struct rec_call *c)
{
	struct bpfrr_rec_syscall rec = {
		.seq = c->seq,
		.tid = t->tid,
		.nr = (uint32_t)c->nr,
		.ret = c->exited ? c->ret : 0,
		.flags = !c->exited ? BPFRR_CALL_NO_EXIT : c->not_waited ? BPFRR_CALL_NOT_WAITED : 0,
		.t_enter_ns = c->t_enter_ns,
		.t_exit_ns = c->exited ? c->t_exit_ns : 0,
		.name = bpfrr_sys_name(c->sys),
	};
	struct bpfrr_trace_region *regions;
	int err;

	memcpy(rec.args, c->args, sizeof(rec.args));
	fill_regions(c, &regions);
	if (c->nr_regions && !regions)
		return -ENOMEM;
	rec.nr_regions = c->nr_regions;
	rec.regions = regions;
	err = bpfrr_trace_write_syscall(s->w, &rec);
	free(regions);
	if (err)
		rec_write_failed(s, err);
	s->other_calls++;
	return err;
}

int rec_emit_fd(struct rec_session *s, struct rec_task *t, uint64_t seq, enum bpfrr_fd_op op, int fd,
		int newfd, const struct rec_fd *e)
{
	struct bpfrr_rec_fd_event ev = {
		.seq = seq,
		.tid = t->tid,
		.op = op,
		.fd = fd,
		.newfd = newfd,
		.kind = e ? e->kind : BPFRR_OBJ_ANY,
		.flags = e && e->cloexec && (op == BPFRR_FD_NEW || op == BPFRR_FD_DUP || op == BPFRR_FD_ADOPT) ?
			 BPFRR_FD_F_CLOEXEC : 0,
		.object = e ? e->obj_seq : 0,
	};
	int err = bpfrr_trace_write_fd_event(s->w, &ev);

	if (err)
		rec_write_failed(s, err);
	return err;
}

void rec_note(struct rec_session *s, uint32_t level, uint64_t seq, pid_t tid, const char *fmt, ...)
{
	char *text;
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (err < 0)
		return;
	err = bpfrr_trace_notef(s->w, level, seq, (uint32_t)tid, "%s", text);
	free(text);
	if (err)
		rec_write_failed(s, err);
}

/* Write a call that never returned: the task died (or was killed) inside it. */
void rec_call_abandon(struct rec_session *s, struct rec_task *t, struct rec_call *c, const char *why)
{
	c->exited = false;
	if (c->sys == BPFRR_SYS_BPF)
		rec_bpf_exit(s, t, c);
	else if (c->seq)
		rec_emit_syscall(s, t, c);
	if (c->seq)
		rec_note(s, BPFRR_NOTE_WARNING, c->seq, t->tid, "%s call did not return: %s",
			 bpfrr_sys_name(c->sys), why);
}

/* --- task records -------------------------------------------------------------- */

static void emit_task(struct rec_session *s, uint32_t event, struct rec_task *t, pid_t other,
		      uint64_t clone_flags, int status)
{
	struct bpfrr_rec_task rec = {
		.event = event,
		.tid = t->tid,
		.tgid = t->tgid,
		.other_tid = other,
		.clone_flags = clone_flags,
		.status = status,
		.time_ns = rec_now_ns(),
		.path = "",
	};
	char **argv = NULL, *exe = NULL;
	int err;

	if (event == BPFRR_TASK_START) {
		rec.path = s->opt->argv[0];
		while (s->opt->argv[rec.argc])
			rec.argc++;
		rec.argv = (const char *const *)s->opt->argv;
	} else if (event == BPFRR_TASK_EXEC) {
		exe = rec_proc_exe(t->tid);
		argv = rec_proc_cmdline(t->tid);
		rec.path = exe ? exe : "";
		if (argv) {
			while (argv[rec.argc])
				rec.argc++;
			rec.argv = (const char *const *)argv;
		}
	}
	err = bpfrr_trace_write_task(s->w, &rec);
	if (err)
		rec_write_failed(s, err);
	rec_free_argv(argv);
	if (event == BPFRR_TASK_EXEC) {
		/* the scan of the new image for skeletons names it again */
		free(t->exe_path);
		t->exe_path = exe;
	} else {
		free(exe);
	}
}

/* --- registers ------------------------------------------------------------------ */

/* NT_PRSTATUS of tid; the size the kernel filled tells a compat task apart. */
static int get_regs(pid_t tid, struct user_regs_struct *regs, size_t *size)
{
	struct iovec iov = { regs, sizeof(*regs) };

	if (ptrace(PTRACE_GETREGSET, tid, (void *)NT_PRSTATUS, &iov) < 0)
		return -errno;
	*size = iov.iov_len;
	return 0;
}

/*
 * The clone flags of the call a task is stopped in (at a clone/fork/vfork
 * event stop). 0 if they cannot be read; the caller then infers them.
 */
static uint64_t clone_flags_of(pid_t tid)
{
	struct user_regs_struct regs;
	uint64_t nr, arg0, flags;
	size_t size = 0;

	if (get_regs(tid, &regs, &size) || size != sizeof(regs))
		return 0;
#if defined(__x86_64__)
	nr = regs.orig_rax;
	arg0 = regs.rdi;
	if (nr == __NR_fork)
		return SIGCHLD;
	if (nr == __NR_vfork)
		return CLONE_VM | CLONE_VFORK | SIGCHLD;
#else
	nr = regs.regs[8];
	arg0 = regs.regs[0];	/* x0 is overwritten only when the call returns */
#endif
	if (nr == __NR_clone)
		return arg0;
	if (nr == __NR_clone3) {
		/* struct clone_args starts with __aligned_u64 flags */
		if (rec_mem_read(tid, arg0, &flags, sizeof(flags)))
			return 0;
		return flags;
	}
	return 0;
}

/* --- refusing foreign ABIs ------------------------------------------------------ */

static const char *audit_arch_name(uint32_t arch)
{
	switch (arch) {
	case AUDIT_ARCH_I386:
		return "i386 (32-bit x86)";
	case AUDIT_ARCH_X86_64:
		return "x86_64";
	case AUDIT_ARCH_AARCH64:
		return "aarch64";
	case AUDIT_ARCH_ARM:
		return "arm (AArch32)";
	default:
		return "an unknown ABI";
	}
}

static void kill_all(struct rec_session *s)
{
	unsigned int i;
	struct rec_task *t;

	for (i = 0; i < NR_BUCKETS; i++)
		for (t = s->tasks[i]; t; t = t->hnext)
			kill(t->tid, SIGKILL);
}

static void refuse(struct rec_session *s, struct rec_task *t, const char *what)
{
	if (!s->refused) {
		fprintf(stderr, "bpfrr record: task %d %s; only native %s tracees can be recorded, "
			"killing the command\n", (int)t->tid, what, NATIVE_ABI_NAME);
		rec_note(s, BPFRR_NOTE_ERROR, 0, t->tid, "refused: task %d %s", (int)t->tid, what);
	}
	s->refused = true;
	kill_all(s);
}

/* --- resuming -------------------------------------------------------------------- */

/*
 * When the last stop was answered: on one CPU the resumed tracee may run at
 * once, before the handler returns, and that time is the tracee's, not the
 * handler's (--summary's times stop here).
 */
static uint64_t resumed_ns;

static void resume(struct rec_task *t, int sig)
{
	long req = t->call ? PTRACE_SYSCALL : PTRACE_CONT;

	resumed_ns = rec_now_ns();
	if (ptrace(req, t->tid, 0, (void *)(long)sig) < 0 && errno != ESRCH)
		fprintf(stderr, "bpfrr record: resuming task %d: %s\n", (int)t->tid, strerror(errno));
}

static bool is_stop_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

/* --- waiting ------------------------------------------------------------------------ */

static sigset_t sigchld;

/*
 * The next stop or end of a tracee, as waitpid(-1, status, __WALL). The
 * trace's records are gathered in the writer's buffer (64 KiB, set up by
 * bpfrr record) rather than written one write(2) each, five to ten per
 * bpf() call, and written out at the latest REC_FLUSH_MS after the first
 * of them was gathered: at a stop that comes later than that, or, when no
 * tracee stops in time, before the recorder blocks (sigtimedwait for the
 * SIGCHLD of a stop). So a loader that has loaded has all of its load in
 * the file within REC_FLUSH_MS whether it then waits or keeps making calls
 * the filter stops (opensnoop's own opens), and a busy loader costs a write
 * per REC_FLUSH_MS or per 64 KiB. A recorder killed by SIGKILL loses what
 * was gathered since (its tracees die with it: PTRACE_O_EXITKILL).
 */
#define REC_FLUSH_MS	20

static void flush(struct rec_session *s)
{
	int err = bpfrr_trace_flush(s->w);

	if (err)
		rec_write_failed(s, err);
	s->pending_since = 0;
}

static pid_t wait_next(struct rec_session *s, int *status)
{
	const uint64_t max_age = REC_FLUSH_MS * 1000000ull;
	pid_t tid;

	while (bpfrr_trace_pending(s->w)) {
		uint64_t now = rec_now_ns(), age;
		struct timespec left;

		/* the first records seen waiting, or the writer wrote its full buffer
		 * since (what waits now was gathered after that) */
		if (!s->pending_since || s->pending_writes != bpfrr_trace_buffer_writes(s->w)) {
			s->pending_since = now;
			s->pending_writes = bpfrr_trace_buffer_writes(s->w);
		}
		age = now - s->pending_since;
		if (age >= max_age) {
			flush(s);
			break;
		}
		tid = waitpid(-1, status, __WALL | WNOHANG);
		if (tid != 0)
			return tid;	/* a stop or an end, or -1 (ECHILD when none is left) */
		left.tv_sec = 0;
		left.tv_nsec = (long)(max_age - age);
		if (sigtimedwait(&sigchld, NULL, &left) < 0 && errno == EAGAIN) {
			flush(s);
			break;
		}
		/* a SIGCHLD (perhaps of a stop already taken), or EINTR: look again */
	}
	return waitpid(-1, status, __WALL);
}

/* --- event handlers -------------------------------------------------------------- */

/*
 * The image's embedded objects (skeletons), looked for at its first bpf(),
 * open (opened files are looked at for objects too) or other call the
 * recorder keeps, rather than at its exec: a process that makes none (true;
 * a program whose only stops are closes of fds nobody tracks) never reads
 * its executable, 2 MB for busybox.  The ELF records still come before the
 * first bpf() call's record.
 */
static void scan_exe(struct rec_session *s, struct rec_task *t)
{
	uint64_t t0;

	if (!t->exe_unscanned)
		return;
	t->exe_unscanned = false;
	t0 = rec_now_ns();
	rec_elf_exe(s, t);
	s->times.scan += rec_now_ns() - t0;
	free(t->exe_path);	/* when the scan stopped early (an image seen before) */
	t->exe_path = NULL;
}

static void on_seccomp(struct rec_session *s, struct rec_task *t)
{
	struct __ptrace_syscall_info info;
	struct rec_call *c;
	bool want_exit;
	int i;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, t->tid, (void *)sizeof(info), &info) < 0) {
		if (errno != ESRCH)
			fprintf(stderr, "bpfrr record: PTRACE_GET_SYSCALL_INFO of task %d: %s\n",
				(int)t->tid, strerror(errno));
		return;
	}
	if (info.op != PTRACE_SYSCALL_INFO_SECCOMP) {
		resume(t, 0);
		return;
	}
	if (info.seccomp.ret_data == REC_SYS_BADARCH || info.arch != NATIVE_AUDIT_ARCH) {
		char what[96];

		snprintf(what, sizeof(what), "made a system call through the %s ABI",
			 audit_arch_name(info.arch));
		refuse(s, t, what);
		return;
	}
	s->stops++;
	if (t->call) {
		/* cannot happen: every waited-on call ends in an exit stop */
		rec_call_abandon(s, t, t->call, "a new call began before its exit stop");
		rec_call_free(t->call);
		t->call = NULL;
	}
	c = rec_call_new((enum bpfrr_sys)info.seccomp.ret_data);
	if (!c) {
		fprintf(stderr, "bpfrr record: out of memory\n");
		rec_write_failed(s, -ENOMEM);
		return;
	}
	c->nr = (long)info.seccomp.nr;
	for (i = 0; i < 6; i++)
		c->args[i] = info.seccomp.args[i];
	c->t_enter_ns = rec_now_ns();
	t->last_entry_bpf = c->sys == BPFRR_SYS_BPF;
	if (c->sys == BPFRR_SYS_BPF) {
		scan_exe(s, t);
		want_exit = rec_bpf_enter(s, t, c);
	} else {
		want_exit = rec_sys_enter(s, t, c);
		if (want_exit || (c->desc && (c->desc->flags & BPFRR_SYSF_OPENS)))
			scan_exe(s, t);
	}
	if (want_exit)
		t->call = c;
	else
		rec_call_free(c);
	resume(t, 0);
}

static void on_syscall_exit(struct rec_session *s, struct rec_task *t)
{
	struct __ptrace_syscall_info info;
	struct rec_call *c = t->call;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, t->tid, (void *)sizeof(info), &info) < 0) {
		if (errno != ESRCH)
			fprintf(stderr, "bpfrr record: PTRACE_GET_SYSCALL_INFO of task %d: %s\n",
				(int)t->tid, strerror(errno));
		return;
	}
	t->call = NULL;
	s->stops++;
	if (c && info.op == PTRACE_SYSCALL_INFO_EXIT) {
		c->t_exit_ns = rec_now_ns();
		c->ret = info.exit.rval;
		c->exited = true;
		if (c->sys == BPFRR_SYS_BPF)
			rec_bpf_exit(s, t, c);
		else
			rec_sys_exit(s, t, c);
	} else if (c) {
		rec_call_abandon(s, t, c, "no syscall-exit stop");
	}
	rec_call_free(c);
	resume(t, 0);
}

/* A new task (tid) made by parent t: set it up and let it run. */
static void adopt_child(struct rec_session *s, struct rec_task *parent, struct rec_task *child,
			int event, uint64_t flags)
{
	uint32_t task_event;

	if (flags & CLONE_THREAD) {
		child->tgid = parent->tgid;
		task_event = BPFRR_TASK_THREAD;
	} else {
		child->tgid = child->tid;
		task_event = BPFRR_TASK_FORK;
	}
	(void)event;
	child->exe_unscanned = parent->exe_unscanned;	/* the same image */
	child->fdtab = (flags & CLONE_FILES) ? rec_fdtab_get(parent->fdtab) : rec_fdtab_copy(parent->fdtab);
	if (!child->fdtab) {
		fprintf(stderr, "bpfrr record: out of memory\n");
		rec_write_failed(s, -ENOMEM);
		child->fdtab = rec_fdtab_new();
	}
	emit_task(s, task_event, child, parent->tid, flags, 0);
}

static void on_clone(struct rec_session *s, struct rec_task *t, int event)
{
	unsigned long msg = 0;
	struct rec_task *child;
	uint64_t flags;
	pid_t tid;

	if (ptrace(PTRACE_GETEVENTMSG, t->tid, 0, &msg) < 0) {
		resume(t, 0);
		return;
	}
	tid = (pid_t)msg;
	flags = clone_flags_of(t->tid);
	if (!flags) {
		/* registers unreadable: infer from what the kernel reported */
		pid_t tgid = rec_proc_tgid(tid);

		if (tgid == t->tgid)
			flags = CLONE_THREAD | CLONE_SIGHAND | CLONE_VM | CLONE_FILES | CLONE_FS;
		else if (event == PTRACE_EVENT_VFORK)
			flags = CLONE_VM | CLONE_VFORK | SIGCHLD;
		else
			flags = SIGCHLD;
	}
	child = rec_task_find(s, tid);
	if (child && child->awaiting_parent) {
		/* its first stop came before this event: it waited for us */
		adopt_child(s, t, child, event, flags);
		child->awaiting_parent = false;
		resume(child, 0);
	} else if (!child) {
		child = task_add(s, tid);
		if (!child) {
			fprintf(stderr, "bpfrr record: out of memory\n");
			rec_write_failed(s, -ENOMEM);
		} else {
			adopt_child(s, t, child, event, flags);
		}
	}
	resume(t, 0);
}

static void on_exec(struct rec_session *s, struct rec_task *t)
{
	struct user_regs_struct regs;
	unsigned long msg = 0;
	size_t size = 0;
	pid_t former;

	if (ptrace(PTRACE_GETEVENTMSG, t->tid, 0, &msg) < 0)
		msg = t->tid;
	former = (pid_t)msg;
	/* a new address space: cached /proc/TID/mem fds refer to the old one */
	rec_mem_forget(t->tid);
	rec_mem_forget(former);
	if (former != t->tid) {
		/*
		 * A non-leader thread exec'd: it now has the leader's tid (t),
		 * and the old leader is gone without an exit report.
		 */
		struct rec_task *ft = rec_task_find(s, former);

		if (t->call) {
			rec_call_abandon(s, t, t->call, "the thread group exec'd");
			rec_call_free(t->call);
			t->call = NULL;
		}
		if (ft) {
			if (!t->fdtab) {
				t->fdtab = ft->fdtab;
				ft->fdtab = NULL;
			}
			task_del(s, ft);
		}
	}
	if (!get_regs(t->tid, &regs, &size) && size != sizeof(regs)) {
		char what[96];

		snprintf(what, sizeof(what), "exec'd a 32-bit image (a %zu-byte register set)", size);
		refuse(s, t, what);
		return;
	}
	/* the task record first: it makes the table private, then the closes apply to it */
	emit_task(s, BPFRR_TASK_EXEC, t, former, 0, 0);
	t->exe_unscanned = true;	/* skeletons: scanned at its first stop, on_seccomp() */
	rec_fd_exec(s, t);
	resume(t, 0);
}

static void on_exit_event(struct rec_session *s, struct rec_task *t)
{
	unsigned long status = 0;

	if (t->call) {
		char why[64];

		/* the message of PTRACE_EVENT_EXIT is the wait status to be */
		if (!ptrace(PTRACE_GETEVENTMSG, t->tid, 0, &status) && WIFSIGNALED((int)status))
			snprintf(why, sizeof(why), "the task was killed by signal %d", WTERMSIG((int)status));
		else
			snprintf(why, sizeof(why), "the task exited");
		rec_call_abandon(s, t, t->call, why);
		rec_call_free(t->call);
		t->call = NULL;
	}
	resume(t, 0);
}

static void on_gone(struct rec_session *s, pid_t tid, int status)
{
	struct rec_task *t = rec_task_find(s, tid);

	if (tid == s->leader) {
		s->leader_status = status;
		s->leader_done = true;
	}
	if (!t)
		return;
	if (t->call) {
		char why[64];

		if (WIFSIGNALED(status))
			snprintf(why, sizeof(why), "the task was killed by signal %d", WTERMSIG(status));
		else
			snprintf(why, sizeof(why), "the task exited");
		rec_call_abandon(s, t, t->call, why);
		rec_call_free(t->call);
		t->call = NULL;
	}
	emit_task(s, BPFRR_TASK_EXIT, t, 0, 0, status);
	task_del(s, t);
}

static void on_stop(struct rec_session *s, pid_t tid, int status)
{
	int sig = WSTOPSIG(status), event = (unsigned int)status >> 16;
	struct rec_task *t = rec_task_find(s, tid);

	if (!t) {
		/*
		 * A new task reporting before its parent's clone event: keep it
		 * stopped until that event says what it is.
		 */
		t = task_add(s, tid);
		if (!t) {
			ptrace(PTRACE_CONT, tid, 0, 0);
			return;
		}
		t->awaiting_parent = true;
		t->seen_first_stop = true;
		return;
	}
	if (sig == (SIGTRAP | 0x80)) {
		uint64_t *acc = t->call && t->call->sys == BPFRR_SYS_BPF ? &s->times.bpf_exit : &s->times.sys_exit;
		uint64_t t0 = rec_now_ns();

		resumed_ns = 0;
		on_syscall_exit(s, t);
		*acc += (resumed_ns > t0 ? resumed_ns : rec_now_ns()) - t0;
		return;
	}
	switch (event) {
	case PTRACE_EVENT_SECCOMP: {
		uint64_t t0 = rec_now_ns();

		resumed_ns = 0;
		on_seccomp(s, t);
		/* the call the stop was for: still pending (an exit stop to come) or just freed */
		*(t->last_entry_bpf ? &s->times.bpf_entry : &s->times.sys_entry) +=
			(resumed_ns > t0 ? resumed_ns : rec_now_ns()) - t0;
		return;
	}
	case PTRACE_EVENT_CLONE:
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
		on_clone(s, t, event);
		return;
	case PTRACE_EVENT_EXEC:
		on_exec(s, t);
		return;
	case PTRACE_EVENT_EXIT:
		on_exit_event(s, t);
		return;
	case PTRACE_EVENT_STOP:
		t->seen_first_stop = true;
		if (t->awaiting_parent)
			return;
		if (is_stop_signal(sig)) {
			/* group-stop: stay stopped, but keep reporting (SIGCONT) */
			t->group_stopped = true;
			if (ptrace(PTRACE_LISTEN, tid, 0, 0) < 0 && errno != ESRCH)
				fprintf(stderr, "bpfrr record: PTRACE_LISTEN %d: %s\n", (int)tid,
					strerror(errno));
			return;
		}
		t->group_stopped = false;
		resume(t, 0);
		return;
	case 0:
		/* signal-delivery-stop: pass the signal on */
		resume(t, sig);
		return;
	default:
		resume(t, 0);
		return;
	}
}

int rec_loop_run(struct rec_session *s)
{
	struct rec_task *leader;

	leader = task_add(s, s->leader);
	if (!leader)
		return -1;
	leader->fdtab = rec_fdtab_new();
	leader->seen_first_stop = true;	/* PTRACE_SEIZE'd: no initial stop */
	if (!leader->fdtab)
		return -1;
	emit_task(s, BPFRR_TASK_START, leader, 0, 0, 0);

	/* SIGCHLD stays pending for wait_next()'s sigtimedwait (no thread takes it) */
	{
		struct sigaction old;

		if (!sigaction(SIGCHLD, NULL, &old) && old.sa_handler == SIG_IGN)
			signal(SIGCHLD, SIG_DFL);	/* ignored, it would never be pending */
		sigemptyset(&sigchld);
		sigaddset(&sigchld, SIGCHLD);
		pthread_sigmask(SIG_BLOCK, &sigchld, NULL);
	}
	s->times.loop = rec_now_ns();
	for (;;) {
		uint64_t t1;
		int status;
		pid_t tid = wait_next(s, &status);

		t1 = rec_now_ns();

		if (tid < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ECHILD)
				break;
			fprintf(stderr, "bpfrr record: waitpid: %s\n", strerror(errno));
			return -1;
		}
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			on_gone(s, tid, status);
			s->times.events += rec_now_ns() - t1;
		} else if (WIFSTOPPED(status)) {
			uint64_t in_calls = s->times.bpf_entry + s->times.bpf_exit + s->times.sys_entry +
					    s->times.sys_exit;

			resumed_ns = 0;
			on_stop(s, tid, status);
			/* what the call handlers did not count: clone, exec, exit, signal stops */
			s->times.events += (resumed_ns > t1 ? resumed_ns : rec_now_ns()) - t1 -
					   (s->times.bpf_entry + s->times.bpf_exit + s->times.sys_entry +
					    s->times.sys_exit - in_calls);
		}
		/* what the background thread named since: written now, between the loader's stops */
		rec_symbols_drain(s);
		if (s->write_err && !s->killed_all) {
			/* the trace cannot be written: the command must not run unobserved */
			kill_all(s);
			s->killed_all = true;
		}
	}
	/* the rest of the loop: waiting for stops, the tracees running between them */
	s->times.wait = rec_now_ns() - s->times.loop - s->times.bpf_entry - s->times.bpf_exit - s->times.sys_entry -
			s->times.sys_exit - s->times.events;
	return 0;
}

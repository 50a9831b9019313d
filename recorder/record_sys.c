// SPDX-License-Identifier: GPL-2.0-only
/*
 * record_sys.c - the stopped system calls other than bpf(): fd lifetimes,
 * perf events and opens.
 *
 * The fd table is updated so that it always says what a number refers to
 * when the tracee next passes it to bpf(). Calls that touch an fd the
 * recorder tracks (one made by bpf(), perf_event_open(), a recorded open,
 * or adopted when first used) are written as SYSCALL records with their
 * FD_EVENTs; calls on fds nobody cares about (the loader closing an ELF
 * file, say) leave no record and cost only their seccomp stop.
 *
 * Closing happens at the entry stop: by the time any thread could be
 * handed the same number again, the table already says it is free. New
 * fds are installed at the exit stop, when the number is known.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/close_range.h>
#include <linux/openat2.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record.h"

/* Largest perf_event_attr we capture (the kernel refuses > PAGE_SIZE). */
#define PERF_ATTR_MAX 4096

static uint64_t next_seq(struct rec_session *s)
{
	return ++s->next_seq;
}

static bool fdinfo_cloexec(pid_t tid, int fd)
{
	char path[64], line[128];
	bool cloexec = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", (int)tid, fd);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "flags:", 6)) {
			cloexec = strtoul(line + 6, NULL, 8) & O_CLOEXEC;
			break;
		}
	}
	fclose(f);
	return cloexec;
}

static bool kind_is_bpf_object(unsigned int kind)
{
	return kind == BPFRR_OBJ_MAP || kind == BPFRR_OBJ_PROG || kind == BPFRR_OBJ_BTF ||
	       kind == BPFRR_OBJ_LINK;
}

/* Take over an fd the recorder has not seen being made. */
static struct rec_fd *adopt(struct rec_session *s, struct rec_task *t, int fd, uint64_t seq)
{
	struct rec_fd val = { .origin = REC_FD_FROM_DISCOVERED };
	struct rec_fd *e;
	char *link;

	link = rec_proc_fd_path(t->tid, fd);
	if (!link)
		return NULL;
	val.kind = rec_kind_from_link(link, t->tid, fd);
	val.cloexec = fdinfo_cloexec(t->tid, fd);
	free(link);
	e = rec_fdtab_set(t->fdtab, fd, &val);
	if (!e)
		return NULL;
	rec_emit_fd(s, t, seq, BPFRR_FD_ADOPT, fd, -1, e);
	if (kind_is_bpf_object(e->kind))
		rec_identity_query(s, t, seq, fd, e);
	return e;
}

struct rec_fd *rec_fd_resolve(struct rec_session *s, struct rec_task *t, int fd, uint64_t seq)
{
	struct rec_fd *e = rec_fdtab_lookup(t->fdtab, fd);

	return e ? e : adopt(s, t, fd, seq);
}

void rec_fd_exec(struct rec_session *s, struct rec_task *t)
{
	int fd, end;

	if (!t->fdtab)
		t->fdtab = rec_fdtab_new();
	if (t->fdtab && t->fdtab->refs > 1) {
		/* exec unshares a table other processes still use (CLONE_FILES) */
		struct rec_fdtab *copy = rec_fdtab_copy(t->fdtab);

		if (copy) {
			rec_fdtab_put(t->fdtab);
			t->fdtab = copy;
		}
	}
	if (!t->fdtab)
		return;
	end = rec_fdtab_end(t->fdtab);
	for (fd = 0; fd < end; fd++) {
		struct rec_fd old;

		if (!t->fdtab->fds[fd].open || !t->fdtab->fds[fd].cloexec)
			continue;
		rec_fdtab_close(t->fdtab, fd, &old);
		rec_emit_fd(s, t, 0, BPFRR_FD_EXEC_CLOSE, fd, -1, &old);
	}
}

/* Close fd in the table at a call's entry; whether the call is worth recording. */
static bool close_tracked(struct rec_session *s, struct rec_task *t, struct rec_call *c, int fd)
{
	struct rec_fd old;

	if (!rec_fdtab_lookup(t->fdtab, fd))
		return false;
	if (!c->seq)
		c->seq = next_seq(s);
	rec_fdtab_close(t->fdtab, fd, &old);
	rec_emit_fd(s, t, c->seq, BPFRR_FD_CLOSE, fd, -1, &old);
	return true;
}

static bool enter_close_range(struct rec_session *s, struct rec_task *t, struct rec_call *c)
{
	unsigned int first = (unsigned int)c->args[0], last = (unsigned int)c->args[1];
	unsigned int flags = (unsigned int)c->args[2], fd;
	bool any = false;
	int end;

	if (flags & ~(CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC) || first > last)
		return false;	/* EINVAL: nothing happens */
	if ((flags & CLOSE_RANGE_UNSHARE) && t->fdtab->refs > 1) {
		struct rec_fdtab *copy = rec_fdtab_copy(t->fdtab);

		if (copy) {
			rec_fdtab_put(t->fdtab);
			t->fdtab = copy;
		}
	}
	end = rec_fdtab_end(t->fdtab);
	for (fd = first; fd < (unsigned int)end && fd <= last; fd++) {
		struct rec_fd *e = rec_fdtab_lookup(t->fdtab, (int)fd);

		if (!e)
			continue;
		if (flags & CLOSE_RANGE_CLOEXEC) {
			/* only marks them: exec will close them (EXEC_CLOSE events) */
			e->cloexec = true;
			any = true;
		} else {
			any |= close_tracked(s, t, c, (int)fd);
		}
	}
	if (any && !c->seq)
		c->seq = next_seq(s);
	return any;
}

/* --- perf events -------------------------------------------------------------------- */

static void capture_perf_attr(struct rec_session *s, struct rec_task *t, struct rec_call *c,
			      uint64_t addr, const char *path)
{
	struct bpfrr_trace_region reg = {
		.phase = BPFRR_PHASE_ENTRY,
		.dir = BPFRR_DIR_IN,
		.content = BPFRR_CONTENT_BYTES,
		.addr = addr,
		.path = path,
	};
	uint32_t head[2], size;
	uint64_t config1;

	if (!addr)
		return;
	if (rec_mem_read(t->tid, addr, head, sizeof(head))) {
		reg.flags = BPFRR_REGION_UNREADABLE;
		reg.err = EFAULT;
		reg.len = reg.want_len = sizeof(head);
		rec_call_add_bytes(s, c, &reg, NULL, 0, false);
		return;
	}
	size = head[1] ? head[1] : PERF_ATTR_SIZE_VER0;
	reg.want_len = size;
	if (size > PERF_ATTR_MAX) {
		size = PERF_ATTR_MAX;
		reg.flags |= BPFRR_REGION_TRUNCATED;
	}
	reg.len = size;
	rec_call_capture(s, t, c, &reg, false);

	/* kprobe/uprobe PMUs: config1 points to the function name / binary path */
	if (size < 64 || (head[0] != s->kprobe_type && head[0] != s->uprobe_type) ||
	    rec_mem_read(t->tid, addr + 56, &config1, sizeof(config1)) || !config1)
		return;
	{
		struct bpfrr_trace_region sreg = {
			.phase = BPFRR_PHASE_ENTRY,
			.dir = BPFRR_DIR_IN,
			.content = head[0] == s->uprobe_type ? BPFRR_CONTENT_PATH : BPFRR_CONTENT_STRING,
			.addr = config1,
		};
		char name[128];
		size_t len = 0;
		char *str = rec_mem_read_str(t->tid, config1, PATH_MAX, &len);

		snprintf(name, sizeof(name), "%s.config1", path);
		sreg.path = name;
		if (!str) {
			sreg.flags = BPFRR_REGION_UNREADABLE | BPFRR_REGION_NO_NUL;
			sreg.err = errno;
			rec_call_add_bytes(s, c, &sreg, NULL, 0, false);
			return;
		}
		sreg.len = sreg.want_len = len + 1;
		rec_call_add_bytes(s, c, &sreg, str, len + 1, false);
		free(str);
	}
}

static bool enter_perf_ioctl(struct rec_session *s, struct rec_task *t, struct rec_call *c)
{
	int fd = (int)c->args[0];
	unsigned int req = (unsigned int)c->args[1];
	uint64_t arg = c->args[2];
	struct rec_fd *e;

	e = rec_fdtab_lookup(t->fdtab, fd);
	if (!e) {
		char *link = rec_proc_fd_path(t->tid, fd);
		enum bpfrr_obj_kind kind = link ? rec_kind_from_link(link, t->tid, fd) : BPFRR_OBJ_NONE;

		free(link);
		/* '$' is perf's ioctl type, but make sure: nothing else is recorded */
		if (kind != BPFRR_OBJ_PERF_EVENT)
			return false;
	} else if (e->kind != BPFRR_OBJ_PERF_EVENT) {
		return false;
	}
	c->seq = next_seq(s);
	if (!rec_fd_resolve(s, t, fd, c->seq))
		return false;
	if (req == (unsigned int)PERF_EVENT_IOC_SET_FILTER && arg) {
		struct bpfrr_trace_region reg = {
			.phase = BPFRR_PHASE_ENTRY, .dir = BPFRR_DIR_IN,
			.content = BPFRR_CONTENT_STRING, .addr = arg, .path = "filter",
		};
		size_t len = 0;
		char *str = rec_mem_read_str(t->tid, arg, 1 << 16, &len);

		if (str) {
			reg.len = reg.want_len = len + 1;
			rec_call_add_bytes(s, c, &reg, str, len + 1, false);
			free(str);
		} else {
			reg.flags = BPFRR_REGION_UNREADABLE | BPFRR_REGION_NO_NUL;
			reg.err = errno;
			rec_call_add_bytes(s, c, &reg, NULL, 0, false);
		}
	} else if (req == (unsigned int)PERF_EVENT_IOC_PERIOD && arg) {
		struct bpfrr_trace_region reg = {
			.phase = BPFRR_PHASE_ENTRY, .dir = BPFRR_DIR_IN, .content = BPFRR_CONTENT_BYTES,
			.addr = arg, .len = 8, .want_len = 8, .path = "period",
		};

		rec_call_capture(s, t, c, &reg, false);
	} else if (req == (unsigned int)PERF_EVENT_IOC_MODIFY_ATTRIBUTES) {
		capture_perf_attr(s, t, c, arg, "perf_event_attr");
	} else if (req == (unsigned int)PERF_EVENT_IOC_QUERY_BPF && arg) {
		struct bpfrr_trace_region reg = {
			.phase = BPFRR_PHASE_ENTRY, .dir = BPFRR_DIR_INOUT, .content = BPFRR_CONTENT_BYTES,
			.addr = arg, .len = 4, .want_len = 4, .path = "query.ids_len",
		};

		rec_call_capture(s, t, c, &reg, false);
	} else if (req == (unsigned int)PERF_EVENT_IOC_SET_BPF ||
		   req == (unsigned int)PERF_EVENT_IOC_SET_OUTPUT) {
		/* the argument is an fd: make sure the trace knows what it is */
		if ((int)arg >= 0)
			rec_fd_resolve(s, t, (int)arg, c->seq);
	}
	return true;
}

static void exit_perf_ioctl(struct rec_session *s, struct rec_task *t, struct rec_call *c)
{
	unsigned int req = (unsigned int)c->args[1];
	uint64_t arg = c->args[2];

	if (c->ret < 0 || !arg)
		return;
	if (req == (unsigned int)PERF_EVENT_IOC_ID) {
		struct bpfrr_trace_region reg = {
			.phase = BPFRR_PHASE_EXIT, .dir = BPFRR_DIR_OUT, .content = BPFRR_CONTENT_BYTES,
			.addr = arg, .len = 8, .want_len = 8, .path = "id",
		};

		rec_call_capture(s, t, c, &reg, false);
	} else if (req == (unsigned int)PERF_EVENT_IOC_QUERY_BPF) {
		struct perf_event_query_bpf q;
		struct bpfrr_trace_region reg = {
			.phase = BPFRR_PHASE_EXIT, .dir = BPFRR_DIR_OUT, .content = BPFRR_CONTENT_BYTES,
			.addr = arg, .path = "query",
		};

		if (rec_mem_read(t->tid, arg, &q, sizeof(q)))
			return;
		reg.want_len = sizeof(q) + 4ull * q.prog_cnt;
		reg.len = sizeof(q) + 4ull * (q.prog_cnt < q.ids_len ? q.prog_cnt : q.ids_len);
		rec_call_capture(s, t, c, &reg, false);
	}
}

/* --- opens ---------------------------------------------------------------------------- */

/*
 * Paths whose fds or contents a BPF load may depend on: cgroup directories
 * (attach targets), tracefs (tracepoint ids, kprobe_events), bpffs (pins),
 * the PMU types of kprobe/uprobe perf events, kernel BTF, network
 * namespaces, kallsyms (ksym addresses) and the CPU masks libbpf sizes
 * per-CPU values with.
 */
static const char *const relevant_prefixes[] = {
	"/sys/fs/cgroup",
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
	"/sys/fs/bpf",
	"/sys/bus/event_source",
	"/sys/kernel/btf",
	"/sys/devices/system/cpu/possible",
	"/sys/devices/system/cpu/online",
	"/proc/kallsyms",
	"/sys/kernel/debug/kprobes",
};

static bool has_prefix(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	return !strncmp(path, prefix, n) && (path[n] == 0 || path[n] == '/');
}

static bool path_is_relevant(const char *path)
{
	size_t i;

	for (i = 0; i < sizeof(relevant_prefixes) / sizeof(relevant_prefixes[0]); i++)
		if (has_prefix(path, relevant_prefixes[i]))
			return true;
	/* /proc/self/ns/net, /proc/PID/ns/..., /proc/thread-self/ns/... */
	if (!strncmp(path, "/proc/", 6)) {
		const char *p = strchr(path + 6, '/');

		if (p && !strncmp(p, "/ns/", 4))
			return true;
	}
	/* /run/netns/NAME (ip netns) */
	return has_prefix(path, "/run/netns") || has_prefix(path, "/var/run/netns");
}

/*
 * Is path (an fd's resolved link) the "type" file of a PMU?  Loaders open
 * /sys/bus/event_source/devices/NAME/type, a symlink into /sys/devices
 * (/sys/devices/kprobe/type, /sys/devices/platform/.../type), so the fd
 * names the target: it is a PMU's when the bus entry of its directory's
 * name leads to that directory.
 */
static bool is_pmu_type_file(const char *path)
{
	char dir[PATH_MAX], bus[PATH_MAX], *real;
	const char *name;
	size_t n = strlen(path);
	bool same;

	if (!has_prefix(path, "/sys/devices") || n < 5 || strcmp(path + n - 5, "/type") || n - 5 >= sizeof(dir))
		return false;
	memcpy(dir, path, n - 5);
	dir[n - 5] = '\0';
	name = strrchr(dir, '/') + 1;
	if (snprintf(bus, sizeof(bus), "/sys/bus/event_source/devices/%s", name) >= (int)sizeof(bus))
		return false;
	real = realpath(bus, NULL);
	if (!real)
		return false;
	same = !strcmp(real, dir);
	free(real);
	return same;
}

/* Files small enough and free of side effects to be read by the recorder. */
static bool content_worth_reading(const char *path)
{
	size_t n = strlen(path);

	if ((has_prefix(path, "/sys/kernel/tracing") || has_prefix(path, "/sys/kernel/debug/tracing")) &&
	    strstr(path, "/events/") && n > 3 && !strcmp(path + n - 3, "/id"))
		return true;
	if (has_prefix(path, "/sys/bus/event_source") &&
	    ((n > 5 && !strcmp(path + n - 5, "/type")) || strstr(path, "/format/")))
		return true;
	if (is_pmu_type_file(path))
		return true;
	return has_prefix(path, "/sys/devices/system/cpu/possible") ||
	       has_prefix(path, "/sys/devices/system/cpu/online");
}

/* path resolved against dirfd of tid, malloc'ed */
static char *resolve_path(pid_t tid, int dirfd, const char *path)
{
	char *base, *abs;

	if (path[0] == '/')
		return strdup(path);
	base = rec_proc_fd_path(tid, dirfd);
	if (!base)
		return strdup(path);
	if (asprintf(&abs, "%s/%s", base, path) < 0)
		abs = NULL;
	free(base);
	return abs;
}

static bool enter_open(struct rec_session *s, struct rec_task *t, struct rec_call *c)
{
	int dirfd = c->sys == REC_SYS_OPEN ? AT_FDCWD : (int)c->args[0];
	uint64_t addr = c->sys == REC_SYS_OPEN ? c->args[0] : c->args[1];
	struct bpfrr_trace_region reg = {
		.phase = BPFRR_PHASE_ENTRY,
		.dir = BPFRR_DIR_IN,
		.content = BPFRR_CONTENT_PATH,
		.addr = addr,
		.path = "pathname",
	};
	size_t len = 0;
	char *path, *abs;
	bool relevant;

	path = rec_mem_read_str(t->tid, addr, PATH_MAX, &len);
	if (!path)
		return false;	/* the kernel will fail it with EFAULT / ENAMETOOLONG */
	abs = resolve_path(t->tid, dirfd, path);
	relevant = s->opt->opens == REC_OPENS_ALL || (abs && path_is_relevant(abs));
	if (!relevant) {
		free(path);
		free(abs);
		return false;
	}
	c->seq = next_seq(s);
	reg.len = reg.want_len = len + 1;
	rec_call_add_bytes(s, c, &reg, path, len + 1, false);
	if (c->sys == REC_SYS_OPENAT2 && c->args[2]) {
		struct bpfrr_trace_region how = {
			.phase = BPFRR_PHASE_ENTRY, .dir = BPFRR_DIR_IN, .content = BPFRR_CONTENT_BYTES,
			.addr = c->args[2], .path = "how",
		};

		how.want_len = c->args[3];
		how.len = how.want_len > sizeof(struct open_how) ? sizeof(struct open_how) : how.want_len;
		if (how.len < how.want_len)
			how.flags |= BPFRR_REGION_TRUNCATED;
		rec_call_capture(s, t, c, &how, false);
	}
	free(path);
	c->str = abs;
	return true;
}

static uint64_t open_flags(struct rec_task *t, const struct rec_call *c)
{
	struct open_how how;

	switch (c->sys) {
	case REC_SYS_OPEN:
		return c->args[1];
	case REC_SYS_OPENAT:
		return c->args[2];
	default:
		if (c->args[3] >= 8 && !rec_mem_read(t->tid, c->args[2], &how, 8))
			return how.flags;
		return 0;
	}
}

static void add_file_content(struct rec_session *s, struct rec_call *c, const char *path)
{
	struct bpfrr_trace_region reg = {
		.phase = BPFRR_PHASE_EXIT,
		.dir = BPFRR_DIR_OUT,
		.content = BPFRR_CONTENT_STRING,
		.path = "content",
	};
	char buf[4096];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return;
	reg.len = reg.want_len = (uint64_t)n;
	rec_call_add_bytes(s, c, &reg, buf, (size_t)n, false);
}

static void exit_new_fd(struct rec_session *s, struct rec_task *t, struct rec_call *c)
{
	struct rec_fd val = { .obj_seq = c->seq };
	int fd = (int)c->ret;
	struct rec_fd *e;
	char *link;

	if (c->ret < 0)
		return;
	link = rec_proc_fd_path(t->tid, fd);
	switch (c->sys) {
	case REC_SYS_PERF_EVENT_OPEN:
		val.kind = BPFRR_OBJ_PERF_EVENT;
		val.origin = REC_FD_FROM_PERF;
		val.cloexec = c->args[4] & PERF_FLAG_FD_CLOEXEC;
		break;
	case REC_SYS_PIDFD_GETFD:
		val.kind = rec_kind_from_link(link, t->tid, fd);
		val.origin = REC_FD_FROM_PIDFD_GETFD;
		val.cloexec = true;	/* pidfd_getfd() always sets O_CLOEXEC */
		val.obj_seq = 0;	/* made elsewhere */
		break;
	default:
		val.kind = rec_kind_from_link(link, t->tid, fd);
		val.origin = REC_FD_FROM_OPEN;
		val.cloexec = open_flags(t, c) & O_CLOEXEC;
		if (link) {
			struct bpfrr_trace_region reg = {
				.phase = BPFRR_PHASE_EXIT, .dir = BPFRR_DIR_OUT,
				.content = BPFRR_CONTENT_PATH, .path = "path",
			};

			reg.len = reg.want_len = strlen(link) + 1;
			rec_call_add_bytes(s, c, &reg, link, strlen(link) + 1, false);
			if (content_worth_reading(link))
				add_file_content(s, c, link);
		}
		break;
	}
	free(link);
	rec_emit_syscall(s, t, c);
	e = rec_fdtab_set(t->fdtab, fd, &val);
	if (!e)
		return;
	if (c->sys == REC_SYS_PIDFD_GETFD) {
		rec_emit_fd(s, t, c->seq, BPFRR_FD_ADOPT, fd, -1, e);
		if (kind_is_bpf_object(e->kind))
			rec_identity_query(s, t, c->seq, fd, e);
	} else {
		rec_emit_fd(s, t, c->seq, BPFRR_FD_NEW, fd, -1, e);
	}
}

/* --- dup ------------------------------------------------------------------------------- */

static void exit_dup(struct rec_session *s, struct rec_task *t, struct rec_call *c)
{
	int oldfd = (int)c->args[0], newfd = (int)c->ret;
	struct rec_fd *old = rec_fdtab_lookup(t->fdtab, oldfd), val;
	bool cloexec = false;

	rec_emit_syscall(s, t, c);
	if (c->ret < 0)
		return;
	switch (c->sys) {
	case REC_SYS_DUP3:
		cloexec = c->args[2] & O_CLOEXEC;
		break;
	case REC_SYS_FCNTL_DUPFD:
		cloexec = (int)c->args[1] == F_DUPFD_CLOEXEC;
		break;
	default:
		break;
	}
	if (newfd == oldfd)
		return;		/* dup2(fd, fd): nothing changes */
	if (rec_fdtab_lookup(t->fdtab, newfd)) {
		struct rec_fd gone;

		rec_fdtab_close(t->fdtab, newfd, &gone);
		rec_emit_fd(s, t, c->seq, BPFRR_FD_CLOSE, newfd, -1, &gone);
		old = rec_fdtab_lookup(t->fdtab, oldfd);
	}
	if (!old)
		return;
	val = *old;
	val.cloexec = cloexec;
	if (rec_fdtab_set(t->fdtab, newfd, &val)) {
		struct rec_fd *n = rec_fdtab_lookup(t->fdtab, newfd);

		rec_emit_fd(s, t, c->seq, BPFRR_FD_DUP, oldfd, newfd, n);
	}
}

/* --- dispatch -------------------------------------------------------------------------- */

bool rec_sys_enter(struct rec_session *s, struct rec_task *t, struct rec_call *c)
{
	int fd = (int)c->args[0];
	struct rec_fd *e;

	switch (c->sys) {
	case REC_SYS_CLOSE:
		return close_tracked(s, t, c, fd);
	case REC_SYS_CLOSE_RANGE:
		return enter_close_range(s, t, c);
	case REC_SYS_DUP:
	case REC_SYS_FCNTL_DUPFD:
		if (!rec_fdtab_lookup(t->fdtab, fd))
			return false;
		c->seq = next_seq(s);
		return true;
	case REC_SYS_DUP2:
	case REC_SYS_DUP3:
		if (!rec_fdtab_lookup(t->fdtab, fd) && !rec_fdtab_lookup(t->fdtab, (int)c->args[1]))
			return false;
		c->seq = next_seq(s);
		return true;
	case REC_SYS_FCNTL_SETFD:
		e = rec_fdtab_lookup(t->fdtab, fd);
		if (e)
			e->cloexec = c->args[2] & FD_CLOEXEC;
		return false;
	case REC_SYS_PERF_EVENT_OPEN:
		c->seq = next_seq(s);
		capture_perf_attr(s, t, c, c->args[0], "perf_event_attr");
		if ((int)c->args[3] >= 0)	/* group_fd */
			rec_fd_resolve(s, t, (int)c->args[3], c->seq);
		return true;
	case REC_SYS_PERF_IOCTL:
		return enter_perf_ioctl(s, t, c);
	case REC_SYS_OPEN:
	case REC_SYS_OPENAT:
	case REC_SYS_OPENAT2:
		return enter_open(s, t, c);
	case REC_SYS_PIDFD_GETFD:
		c->seq = next_seq(s);
		return true;
	default:
		return false;
	}
}

void rec_sys_exit(struct rec_session *s, struct rec_task *t, struct rec_call *c)
{
	switch (c->sys) {
	case REC_SYS_DUP:
	case REC_SYS_DUP2:
	case REC_SYS_DUP3:
	case REC_SYS_FCNTL_DUPFD:
		exit_dup(s, t, c);
		return;
	case REC_SYS_PERF_IOCTL:
		exit_perf_ioctl(s, t, c);
		rec_emit_syscall(s, t, c);
		return;
	case REC_SYS_PERF_EVENT_OPEN:
	case REC_SYS_OPEN:
	case REC_SYS_OPENAT:
	case REC_SYS_OPENAT2:
	case REC_SYS_PIDFD_GETFD:
		if (c->ret < 0)
			rec_emit_syscall(s, t, c);
		else
			exit_new_fd(s, t, c);
		return;
	default:
		rec_emit_syscall(s, t, c);
		return;
	}
}

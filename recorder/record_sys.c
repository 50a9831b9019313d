// SPDX-License-Identifier: GPL-2.0-only
/*
 * record_sys.c - the stopped system calls other than bpf(): fd lifetimes,
 * perf events and opens, as their rows in the table of followed calls
 * (lib/sys_abi.h) describe them: what a call does to the fd table (its
 * fd_op), which fds it references, and what memory to capture. The code
 * here is one handler per fd operation and per capture rule, plus the
 * decoders a row names (perf_event_attr, perf_event_query_bpf, the
 * relevance of an open, close_range).
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
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/statfs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "netlink.h"
#include "record.h"
#include "record_symbols.h"

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

/*
 * Whether close() of an fd of this kind returns 0 whatever happens: the file is
 * one the kernel made for an object of its own (anon inode, socket, pidfd,
 * nsfs), which has no ->flush to fail, and the fd is open (the table says so),
 * so there is no EBADF either. Directories and devices may live on a file
 * system whose flush can fail; fds of unknown kind too.
 */
static bool close_cannot_fail(enum bpfrr_obj_kind kind)
{
	switch (kind) {
	case BPFRR_OBJ_MAP:
	case BPFRR_OBJ_PROG:
	case BPFRR_OBJ_BTF:
	case BPFRR_OBJ_LINK:
	case BPFRR_OBJ_PERF_EVENT:
	case BPFRR_OBJ_NETNS:
	case BPFRR_OBJ_TOKEN:
	case BPFRR_OBJ_SOCKET:
	case BPFRR_OBJ_PIDFD:
	case BPFRR_OBJ_ITER:
	case BPFRR_OBJ_STATS:
		return true;
	default:
		return false;
	}
}

/*
 * Close fd in the table at a call's entry; whether the call needs its exit
 * stop. A close that cannot fail is written here, with its result 0 and
 * BPFRR_CALL_NOT_WAITED, and the task goes on without a second stop: closes
 * are a third to a half of a libbpf tool's kept calls.
 */
static bool close_tracked(struct rec_session *s, struct rec_task *t, struct rec_call *c, int fd)
{
	struct rec_fd old;

	if (!rec_fdtab_lookup(t->fdtab, fd))
		return false;
	if (!c->seq)
		c->seq = next_seq(s);
	rec_fdtab_close(t->fdtab, fd, &old);
	rec_emit_fd(s, t, c->seq, BPFRR_FD_CLOSE, fd, -1, &old);
	if (s->opt->wait_closes || !close_cannot_fail(old.kind))
		return true;
	c->exited = true;
	c->not_waited = true;
	c->ret = 0;
	c->t_exit_ns = c->t_enter_ns;
	rec_emit_syscall(s, t, c);
	return false;
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

/* --- captures: the memory a row's arguments point to ------------------------------------- */

/* Decoder of BPFRR_SYS_LEN_PERF_ATTR: the attr by its own size field, capped at cap. */
static void capture_perf_attr(struct rec_session *s, struct rec_task *t, struct rec_call *c,
			      const struct bpfrr_sys_capture *cap, uint64_t addr)
{
	struct bpfrr_trace_region reg = {
		.phase = cap->phase,
		.dir = cap->dir,
		.content = cap->content,
		.addr = addr,
		.path = cap->path,
	};
	uint32_t head[2], size;
	uint64_t config1;

	if (rec_mem_read(t->tid, addr, head, sizeof(head))) {
		reg.flags = BPFRR_REGION_UNREADABLE;
		reg.err = EFAULT;
		reg.len = reg.want_len = sizeof(head);
		rec_call_add_bytes(s, c, &reg, NULL, 0, false);
		return;
	}
	size = head[1] ? head[1] : PERF_ATTR_SIZE_VER0;
	reg.want_len = size;
	if (size > cap->len) {
		size = cap->len;
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

		snprintf(name, sizeof(name), "%s.config1", cap->path);
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

/* Decoder of BPFRR_SYS_LEN_PERF_QUERY: the query struct and the ids the kernel wrote. */
static void capture_perf_query(struct rec_session *s, struct rec_task *t, struct rec_call *c,
			       const struct bpfrr_sys_capture *cap, uint64_t addr)
{
	struct perf_event_query_bpf q;
	struct bpfrr_trace_region reg = {
		.phase = cap->phase, .dir = cap->dir, .content = cap->content, .addr = addr, .path = cap->path,
	};

	if (rec_mem_read(t->tid, addr, &q, sizeof(q)))
		return;
	reg.want_len = sizeof(q) + 4ull * q.prog_cnt;
	reg.len = sizeof(q) + 4ull * (q.prog_cnt < q.ids_len ? q.prog_cnt : q.ids_len);
	rec_call_capture(s, t, c, &reg, false);
}

/* --- netlink requests: the messages, the program fds in them, the devices they name ------------ */

#define NL_MAX_MSGS	64	/* messages of one send looked at for fds and devices */
#define UIO_MAXIOV_NR	1024	/* the kernel refuses more iovecs */

static bool same_netns(pid_t tid)
{
	char path[64], theirs[64] = "", ours[64] = "";
	ssize_t n, m;

	snprintf(path, sizeof(path), "/proc/%d/ns/net", (int)tid);
	n = readlink(path, theirs, sizeof(theirs) - 1);
	m = readlink("/proc/self/ns/net", ours, sizeof(ours) - 1);
	return n > 0 && m > 0 && n == m && !memcmp(theirs, ours, (size_t)n);
}

/*
 * The name of interface ifindex where the tracee's socket sock lives: asked
 * on a duplicate of that socket (SIOCGIFNAME answers in the socket's network
 * namespace), else in the recorder's own if it is the tracee's.
 */
static bool ifname_of(struct rec_task *t, int sock, int ifindex, char name[IF_NAMESIZE])
{
	struct ifreq ifr;
	int dup = rec_pidfd_dup(t->tgid, sock);

	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_ifindex = ifindex;
	if (dup >= 0) {
		int ret = ioctl(dup, SIOCGIFNAME, &ifr);

		close(dup);
		if (!ret) {
			memcpy(name, ifr.ifr_name, IF_NAMESIZE);
			name[IF_NAMESIZE - 1] = '\0';
			return true;
		}
	}
	return same_netns(t->tid) && if_indextoname((unsigned int)ifindex, name);
}

static bool has_region(const struct rec_call *c, const char *path)
{
	size_t i;

	for (i = 0; i < c->nr_regions; i++)
		if (!strcmp(c->regions[i].r.path, path))
			return true;
	return false;
}

/*
 * What the recorder adds to a netlink request it captured: every program fd a
 * message carries is resolved (adopted if need be) at entry, so the trace
 * says which program it was; every device a message that changes something
 * names by ifindex gets its name, "ifname.IFINDEX" (a replay looks the index
 * up by that name: indexes differ from one boot, or namespace, to the next).
 */
static void netlink_seen(struct rec_session *s, struct rec_task *t, struct rec_call *c, const uint8_t *buf,
			 size_t len)
{
	struct bpfrr_nl_msg msgs[NL_MAX_MSGS];
	int n = bpfrr_nl_decode(buf, len, msgs, NL_MAX_MSGS), i;
	int sock = (int)c->args[c->desc->fd_arg];
	unsigned int j;

	if (n > NL_MAX_MSGS)
		n = NL_MAX_MSGS;
	for (i = 0; i < n; i++) {
		const struct bpfrr_nl_msg *m = &msgs[i];
		struct bpfrr_trace_region reg = {
			.phase = BPFRR_PHASE_EXIT, .dir = BPFRR_DIR_OUT, .content = BPFRR_CONTENT_STRING,
		};
		char path[32], name[IF_NAMESIZE];

		for (j = 0; j < m->nr_fds; j++)
			if (m->fds[j].fd >= 0)
				rec_fd_resolve(s, t, m->fds[j].fd, c->seq);
		if (!m->has_ifindex || m->ifindex <= 0 || m->effect == BPFRR_NL_READ)
			continue;
		snprintf(path, sizeof(path), "ifname.%d", m->ifindex);
		if (has_region(c, path) || !ifname_of(t, sock, m->ifindex, name))
			continue;
		reg.path = path;
		reg.len = reg.want_len = strlen(name) + 1;
		rec_call_add_bytes(s, c, &reg, name, strlen(name) + 1, false);
	}
}

/* The bytes of a netlink request: a region of the call, then what the recorder adds to it. */
static void capture_netlink(struct rec_session *s, struct rec_task *t, struct rec_call *c,
			    struct bpfrr_trace_region *reg, const uint8_t *buf)
{
	rec_call_add_bytes(s, c, reg, buf, reg->len, false);
	if (buf)
		netlink_seen(s, t, c, buf, reg->len);
}

/*
 * Decoder of BPFRR_SYS_LEN_MSG_IOV: the bytes a struct msghdr's iovecs point
 * to, gathered in order into one region (a datagram is their concatenation),
 * capped at cap->len.  Its address is the first iovec's base.
 */
static void capture_msg_iov(struct rec_session *s, struct rec_task *t, struct rec_call *c,
			    const struct bpfrr_sys_capture *cap, uint64_t addr)
{
	struct bpfrr_trace_region reg = {
		.phase = cap->phase, .dir = cap->dir, .content = cap->content, .path = cap->path,
	};
	uint64_t hdr[7], iov[2], want = 0, i, nr;	/* struct msghdr: name, namelen, iov, iovlen, ... */
	uint8_t *buf = NULL;
	size_t got = 0;
	int err = 0;

	if (rec_mem_read(t->tid, addr, hdr, sizeof(hdr))) {
		err = EFAULT;
		goto unreadable;
	}
	nr = hdr[3] > UIO_MAXIOV_NR ? UIO_MAXIOV_NR : hdr[3];
	buf = malloc(cap->len);
	if (!buf) {
		err = ENOMEM;
		goto unreadable;
	}
	for (i = 0; i < nr; i++) {
		if (rec_mem_read(t->tid, hdr[2] + 16 * i, iov, sizeof(iov))) {
			err = EFAULT;
			goto unreadable;
		}
		if (!i)
			reg.addr = iov[0];
		want += iov[1];
		if (got < cap->len && iov[1]) {
			size_t n = iov[1] > cap->len - got ? cap->len - got : (size_t)iov[1];

			if (rec_mem_read(t->tid, iov[0], buf + got, n)) {
				err = EFAULT;
				goto unreadable;
			}
			got += n;
		}
	}
	reg.want_len = want;
	reg.len = got;
	if (got < want)
		reg.flags |= BPFRR_REGION_TRUNCATED;
	if (cap->content == BPFRR_CONTENT_NETLINK)
		capture_netlink(s, t, c, &reg, buf);
	else
		rec_call_add_bytes(s, c, &reg, buf, got, false);
	free(buf);
	return;
unreadable:
	free(buf);
	reg.flags = BPFRR_REGION_UNREADABLE;
	reg.err = err;
	reg.len = reg.want_len = 0;
	rec_call_add_bytes(s, c, &reg, NULL, 0, false);
}

static void capture_one(struct rec_session *s, struct rec_task *t, struct rec_call *c,
			const struct bpfrr_sys_capture *cap)
{
	uint64_t addr = c->args[cap->arg];
	struct bpfrr_trace_region reg = {
		.phase = cap->phase, .dir = cap->dir, .content = cap->content, .addr = addr, .path = cap->path,
	};
	size_t len = 0;
	char *str;

	if (!addr)
		return;
	switch (cap->len_rule) {
	case BPFRR_SYS_LEN_FIXED:
		reg.len = reg.want_len = cap->len;
		rec_call_capture(s, t, c, &reg, false);
		return;
	case BPFRR_SYS_LEN_ARG:
		reg.want_len = c->args[cap->len_arg];
		reg.len = reg.want_len > cap->len ? cap->len : reg.want_len;
		if (reg.len < reg.want_len)
			reg.flags |= BPFRR_REGION_TRUNCATED;
		if (cap->content == BPFRR_CONTENT_NETLINK) {
			uint8_t *buf = malloc(reg.len ? reg.len : 1);

			if (buf && !rec_mem_read(t->tid, addr, buf, reg.len)) {
				capture_netlink(s, t, c, &reg, buf);
				free(buf);
				return;
			}
			free(buf);
		}
		rec_call_capture(s, t, c, &reg, false);
		return;
	case BPFRR_SYS_LEN_STRING:
		str = rec_mem_read_str(t->tid, addr, cap->len, &len);
		if (str) {
			reg.len = reg.want_len = len + 1;
			rec_call_add_bytes(s, c, &reg, str, len + 1, false);
			free(str);
		} else {
			reg.flags = BPFRR_REGION_UNREADABLE | BPFRR_REGION_NO_NUL;
			reg.err = errno;
			rec_call_add_bytes(s, c, &reg, NULL, 0, false);
		}
		return;
	case BPFRR_SYS_LEN_PERF_ATTR:
		capture_perf_attr(s, t, c, cap, addr);
		return;
	case BPFRR_SYS_LEN_PERF_QUERY:
		capture_perf_query(s, t, c, cap, addr);
		return;
	case BPFRR_SYS_LEN_MSG_IOV:
		capture_msg_iov(s, t, c, cap, addr);
		return;
	}
}

/*
 * The captures of the call's row and of the sub-row its arguments select,
 * at phase, from the index-th on (an open's path, read by its decoder, is
 * its row's first). At exit only for a call that succeeded.
 */
static void capture(struct rec_session *s, struct rec_task *t, struct rec_call *c, int phase,
		    unsigned int first)
{
	const struct bpfrr_sys_sub *sub = bpfrr_sys_sub(c->desc, c->args);
	unsigned int i;

	if (phase == BPFRR_PHASE_EXIT && c->ret < 0)
		return;
	for (i = first; i < BPFRR_SYS_MAX_CAPTURES; i++)
		if (c->desc->cap[i].path && c->desc->cap[i].phase == phase)
			capture_one(s, t, c, &c->desc->cap[i]);
	for (i = 0; sub && i < BPFRR_SYS_MAX_CAPTURES; i++)
		if (sub->cap[i].path && sub->cap[i].phase == phase)
			capture_one(s, t, c, &sub->cap[i]);
}

/*
 * Make sure the trace knows what the fds the call references are (adopting
 * them if need be): REF parameters other than the fd the call acts on,
 * OPTIONAL ones only when not -1, and an fd argument a sub-row names.
 */
static void resolve_refs(struct rec_session *s, struct rec_task *t, struct rec_call *c)
{
	const struct bpfrr_sys_desc *d = c->desc;
	const struct bpfrr_sys_sub *sub = bpfrr_sys_sub(d, c->args);
	unsigned int i;

	for (i = 0; i < d->nr_args; i++) {
		const struct bpfrr_sys_param *p = &d->params[i];

		if (!(p->flags & BPFRR_SYSP_REF) || (int)i == d->fd_arg ||
		    ((p->flags & BPFRR_SYSP_OPTIONAL) && (int)c->args[i] < 0))
			continue;
		rec_fd_resolve(s, t, (int)c->args[i], c->seq);
	}
	if (sub && sub->arg_kind == BPFRR_SYS_ARG_FD && (int)c->args[d->sub_arg + 1] >= 0)
		rec_fd_resolve(s, t, (int)c->args[d->sub_arg + 1], c->seq);
}

/* A call that acts on an object of one kind (perf ioctls): followed on fds of that kind only. */
static bool enter_uses(struct rec_session *s, struct rec_task *t, struct rec_call *c)
{
	const struct bpfrr_sys_desc *d = c->desc;
	int fd = (int)c->args[d->fd_arg];
	unsigned int kind = d->params[d->fd_arg].obj;
	struct rec_fd *e;

	e = rec_fdtab_lookup(t->fdtab, fd);
	if (!e && (d->flags & BPFRR_SYSF_TRACKED))
		return false;	/* a send on a socket the recorder did not see made (not NETLINK_ROUTE) */
	if (!e) {
		char *link = rec_proc_fd_path(t->tid, fd);
		enum bpfrr_obj_kind k = link ? rec_kind_from_link(link, t->tid, fd) : BPFRR_OBJ_NONE;

		free(link);
		/* '$' is perf's ioctl type, but make sure: nothing else is recorded */
		if (k != kind)
			return false;
	} else if (e->kind != kind) {
		return false;
	}
	c->seq = next_seq(s);
	if (!rec_fd_resolve(s, t, fd, c->seq))
		return false;
	capture(s, t, c, BPFRR_PHASE_ENTRY, 0);
	resolve_refs(s, t, c);
	return true;
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

/*
 * An open (BPFRR_SYSF_OPENS): its path, the row's first capture, decides
 * whether it is recorded at all.
 */
static bool enter_open(struct rec_session *s, struct rec_task *t, struct rec_call *c)
{
	const struct bpfrr_sys_desc *d = c->desc;
	const struct bpfrr_sys_capture *pathcap = &d->cap[0];
	int dirfd = d->dirfd_arg < 0 ? AT_FDCWD : (int)c->args[d->dirfd_arg];
	uint64_t addr = c->args[pathcap->arg];
	struct bpfrr_trace_region reg = {
		.phase = pathcap->phase,
		.dir = pathcap->dir,
		.content = pathcap->content,
		.addr = addr,
		.path = pathcap->path,
	};
	size_t len = 0;
	char *path, *abs;
	bool relevant;

	path = rec_mem_read_str(t->tid, addr, pathcap->len, &len);
	if (!path)
		return false;	/* the kernel will fail it with EFAULT / ENAMETOOLONG */
	abs = resolve_path(t->tid, dirfd, path);
	rec_elf_open(s, t, abs);	/* a BPF object: its CO-RE records, whether the open is recorded or not */
	relevant = s->opt->opens == REC_OPENS_ALL || (abs && path_is_relevant(abs));
	if (!relevant) {
		free(path);
		free(abs);
		return false;
	}
	c->seq = next_seq(s);
	reg.len = reg.want_len = len + 1;
	rec_call_add_bytes(s, c, &reg, path, len + 1, false);
	capture(s, t, c, BPFRR_PHASE_ENTRY, 1);
	free(path);
	c->str = abs;
	return true;
}

/* --- mkdir, rmdir, unlink on a bpffs ----------------------------------------------------- */

#define BPF_FS_MAGIC_NR	0xcafe4a11	/* <linux/magic.h> BPF_FS_MAGIC */

/* Is the directory an absolute path names an entry of on a bpffs? */
static bool entry_on_bpffs(const char *abs)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(abs, '/');
	struct statfs st;
	size_t n;

	if (!slash)
		return false;
	n = slash == abs ? 1 : (size_t)(slash - abs);
	if (n >= sizeof(dir))
		return false;
	memcpy(dir, abs, n);
	dir[n] = '\0';
	return !statfs(dir, &st) && (unsigned long)st.f_type == BPF_FS_MAGIC_NR;
}

/*
 * A call that makes or removes a directory entry (BPFRR_SYS_FD_FS): recorded
 * when the entry's directory is on a bpffs, a state loaders build (the
 * directory bpftool prog loadall pins into); its path resolved against the
 * task's dirfd or cwd goes into the record at exit ("path"), as an open's.
 */
static bool enter_fs(struct rec_session *s, struct rec_task *t, struct rec_call *c)
{
	const struct bpfrr_sys_desc *d = c->desc;
	int dirfd = d->dirfd_arg < 0 ? AT_FDCWD : (int)c->args[d->dirfd_arg];
	size_t len = 0;
	char *path, *abs;

	path = rec_mem_read_str(t->tid, c->args[d->cap[0].arg], d->cap[0].len, &len);
	if (!path)
		return false;	/* the kernel will fail it with EFAULT / ENAMETOOLONG */
	abs = resolve_path(t->tid, dirfd, path);
	free(path);
	if (!abs || abs[0] != '/' || !entry_on_bpffs(abs)) {
		free(abs);
		return false;
	}
	c->seq = next_seq(s);
	capture(s, t, c, BPFRR_PHASE_ENTRY, 0);
	c->str = abs;
	return true;
}

static void exit_fs(struct rec_session *s, struct rec_task *t, struct rec_call *c)
{
	struct bpfrr_trace_region reg = {
		.phase = BPFRR_PHASE_EXIT, .dir = BPFRR_DIR_OUT, .content = BPFRR_CONTENT_PATH, .path = "path",
	};

	capture(s, t, c, BPFRR_PHASE_EXIT, 0);
	if (c->str) {
		reg.len = reg.want_len = strlen(c->str) + 1;
		rec_call_add_bytes(s, c, &reg, c->str, strlen(c->str) + 1, false);
	}
	rec_emit_syscall(s, t, c);
}

/* The open flags of an open, as its row says where they are. */
static uint64_t open_flags(struct rec_task *t, const struct rec_call *c)
{
	const struct bpfrr_sys_desc *d = c->desc;
	struct open_how how;

	if (d->oflags_arg < 0)
		return 0;
	if (!d->oflags_in_struct)
		return c->args[d->oflags_arg];
	if (c->args[d->oflags_arg + 1] >= 8 && !rec_mem_read(t->tid, c->args[d->oflags_arg], &how, 8))
		return how.flags;
	return 0;
}

/* The close-on-exec flag of the fd a call made, by its row's rule. */
static bool new_fd_cloexec(struct rec_task *t, const struct rec_call *c, unsigned int rule)
{
	const struct bpfrr_sys_desc *d = c->desc;

	switch (rule) {
	case BPFRR_SYS_CLOEXEC_ALWAYS:
		return true;
	case BPFRR_SYS_CLOEXEC_ARG:
		return c->args[d->cloexec_arg] & d->cloexec_mask;
	case BPFRR_SYS_CLOEXEC_OFLAGS:
		return open_flags(t, c) & O_CLOEXEC;
	default:
		return false;
	}
}

/*
 * A tracefs events/CATEGORY/NAME/id file and the number it holds: the
 * symbol table learns the name of that tracepoint id (record_symbols.h), so
 * that the perf_event_open() that uses it does not scan tracefs.
 */
static void tracepoint_seen(struct rec_session *s, const char *path, const char *text, size_t len)
{
	const char *ev = strstr(path, "/events/"), *slash;
	char num[32], name[256], *end;
	size_t n = strlen(path);
	uint64_t id;

	if (!s->symtab || !ev || n < 3 || strcmp(path + n - 3, "/id") || !len || len >= sizeof(num))
		return;
	ev += strlen("/events/");
	slash = strchr(ev, '/');
	/* exactly CATEGORY/NAME/id */
	if (!slash || slash == ev || (size_t)(path + n - 3 - ev) >= sizeof(name) || strchr(slash + 1, '/') != path + n - 3 ||
	    slash + 1 == path + n - 3)
		return;
	memcpy(num, text, len);
	num[len] = '\0';
	errno = 0;
	id = strtoull(num, &end, 10);
	if (errno || end == num || (*end && *end != '\n'))
		return;
	memcpy(name, ev, (size_t)(path + n - 3 - ev));
	name[path + n - 3 - ev] = '\0';
	rec_symtab_tp_seen(s->symtab, id, name);
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
	tracepoint_seen(s, path, buf, (size_t)n);
}

/* A call that made an fd (FD_NEW, FD_GET) returned it. */
static void exit_new_fd(struct rec_session *s, struct rec_task *t, struct rec_call *c)
{
	const struct bpfrr_sys_desc *d = c->desc;
	bool got = d->fd_op == BPFRR_SYS_FD_GET;
	struct rec_fd val = { .obj_seq = got ? 0 : c->seq };	/* GET: made elsewhere */
	int fd = (int)c->ret;
	struct rec_fd *e;
	char *link;

	link = rec_proc_fd_path(t->tid, fd);
	val.kind = d->new_kind == BPFRR_OBJ_ANY ? rec_kind_from_link(link, t->tid, fd) : d->new_kind;
	val.origin = got ? REC_FD_FROM_PIDFD_GETFD :
		     d->flags & BPFRR_SYSF_OPENS ? REC_FD_FROM_OPEN : REC_FD_FROM_SYSCALL;
	val.cloexec = new_fd_cloexec(t, c, d->cloexec);
	if ((d->flags & BPFRR_SYSF_OPENS) && link) {
		struct bpfrr_trace_region reg = {
			.phase = BPFRR_PHASE_EXIT, .dir = BPFRR_DIR_OUT,
			.content = BPFRR_CONTENT_PATH, .path = "path",
		};

		reg.len = reg.want_len = strlen(link) + 1;
		rec_call_add_bytes(s, c, &reg, link, strlen(link) + 1, false);
		if (content_worth_reading(link))
			add_file_content(s, c, link);
	}
	free(link);
	rec_emit_syscall(s, t, c);
	e = rec_fdtab_set(t->fdtab, fd, &val);
	if (!e)
		return;
	if (got) {
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
	const struct bpfrr_sys_desc *d = c->desc;
	const struct bpfrr_sys_sub *sub = bpfrr_sys_sub(d, c->args);
	int oldfd = (int)c->args[d->fd_arg], newfd = (int)c->ret;
	struct rec_fd *old = rec_fdtab_lookup(t->fdtab, oldfd), val;
	bool cloexec;

	rec_emit_syscall(s, t, c);
	if (c->ret < 0)
		return;
	/* a dup of a sub-row (fcntl F_DUPFD*) has its rule there */
	cloexec = new_fd_cloexec(t, c, d->fd_op == BPFRR_SYS_FD_BY_SUB && sub ? sub->cloexec : d->cloexec);
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

/* --- dispatch: by what the call's row says it does to the fd table ----------------------- */

bool rec_sys_enter(struct rec_session *s, struct rec_task *t, struct rec_call *c)
{
	const struct bpfrr_sys_desc *d = c->desc;
	struct rec_fd *e;

	if (!d)
		return false;
	/* the filter stopped it for its selector; a second argument narrows (socket's protocol) */
	if (d->match_arg >= 0 && (uint32_t)c->args[d->match_arg] != d->match_value)
		return false;
	switch (bpfrr_sys_fd_op(d, c->args)) {
	case BPFRR_SYS_FD_CLOSE:
		return close_tracked(s, t, c, (int)c->args[d->fd_arg]);
	case BPFRR_SYS_FD_CLOSE_RANGE:
		return enter_close_range(s, t, c);
	case BPFRR_SYS_FD_DUP:
		/* followed when it copies a tracked fd, or replaces one */
		if (!rec_fdtab_lookup(t->fdtab, (int)c->args[d->fd_arg]) &&
		    (d->newfd_arg < 0 || !rec_fdtab_lookup(t->fdtab, (int)c->args[d->newfd_arg])))
			return false;
		c->seq = next_seq(s);
		return true;
	case BPFRR_SYS_FD_SETFD:
		e = rec_fdtab_lookup(t->fdtab, (int)c->args[d->fd_arg]);
		if (e)
			e->cloexec = c->args[2] & FD_CLOEXEC;
		return false;
	case BPFRR_SYS_FD_NEW:
		if (d->flags & BPFRR_SYSF_OPENS)
			return enter_open(s, t, c);
		/* fall through */
	case BPFRR_SYS_FD_GET:
		c->seq = next_seq(s);
		capture(s, t, c, BPFRR_PHASE_ENTRY, 0);
		resolve_refs(s, t, c);
		return true;
	case BPFRR_SYS_FD_USES:
		return enter_uses(s, t, c);
	case BPFRR_SYS_FD_FS:
		return enter_fs(s, t, c);
	default:
		return false;
	}
}

void rec_sys_exit(struct rec_session *s, struct rec_task *t, struct rec_call *c)
{
	rec_symbols_sys(s, t, c);
	switch (bpfrr_sys_fd_op(c->desc, c->args)) {
	case BPFRR_SYS_FD_DUP:
		exit_dup(s, t, c);
		return;
	case BPFRR_SYS_FD_NEW:
	case BPFRR_SYS_FD_GET:
		capture(s, t, c, BPFRR_PHASE_EXIT, 0);
		if (c->ret < 0)
			rec_emit_syscall(s, t, c);
		else
			exit_new_fd(s, t, c);
		return;
	case BPFRR_SYS_FD_FS:
		exit_fs(s, t, c);
		return;
	default:
		capture(s, t, c, BPFRR_PHASE_EXIT, 0);
		rec_emit_syscall(s, t, c);
		return;
	}
}

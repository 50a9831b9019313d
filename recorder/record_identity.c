// SPDX-License-Identifier: GPL-2.0-only
/*
 * record_identity.c - the recorder's own question to the kernel: what is
 * the object behind the fd the tracee just got?
 *
 * pidfd_open(tgid) + pidfd_getfd(fd) give the recorder a duplicate of the
 * tracee's fd; BPF_OBJ_GET_INFO_BY_FD on it returns the kernel's id (and
 * for programs the tag, for maps the type and sizes, ...). The duplicate is
 * closed again right away, so the object's lifetime is the tracee's alone.
 * The answers become OBJECT records, which are not calls of the tracee:
 * they are the ground truth a replay is checked against.
 *
 * This is the one place where the recorder itself calls bpf(), and it only
 * happens after the tracee obtained a BPF object fd, so a kernel that the
 * tracee does not use bpf() on never sees one.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "record.h"

/* Room for newer (larger) info structs than the build machine's headers know. */
#define INFO_MAX 512

/* 6.12 link types whose target the OBJECT record names (enum bpf_link_type). */
enum {
	LINK_RAW_TRACEPOINT = 1, LINK_TRACING = 2, LINK_CGROUP = 3, LINK_ITER = 4, LINK_NETNS = 5,
	LINK_XDP = 6, LINK_STRUCT_OPS = 9, LINK_TCX = 11, LINK_NETKIT = 13,
};

static int obj_get_info(int fd, void *info, uint32_t *len)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info_len = *len;
	attr.info.info = (uint64_t)(uintptr_t)info;
	if (syscall(__NR_bpf, BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)) < 0)
		return -errno;
	*len = attr.info.info_len;
	return 0;
}

/*
 * One pidfd kept for the last task group asked about: a loader makes its
 * objects one after another in one process, so the pidfd_open() and close()
 * of every query were two syscalls per object for nothing.  A pidfd names
 * its process, not its number: once that process is gone pidfd_getfd()
 * fails with ESRCH, and the pid is opened afresh (its number may now be
 * another traced process's).
 */
static struct {
	pid_t tgid;
	int pidfd;
} pidfd_cache = { 0, -1 };

static int pidfd_of(pid_t tgid, bool fresh)
{
	if (pidfd_cache.pidfd >= 0 && (fresh || pidfd_cache.tgid != tgid)) {
		close(pidfd_cache.pidfd);
		pidfd_cache.pidfd = -1;
	}
	if (pidfd_cache.pidfd < 0) {
		int pidfd = (int)syscall(SYS_pidfd_open, tgid, 0);

		if (pidfd < 0)
			return -errno;
		pidfd_cache.tgid = tgid;
		pidfd_cache.pidfd = pidfd;
	}
	return pidfd_cache.pidfd;
}

int rec_pidfd_dup(pid_t tgid, int fd)
{
	int pidfd, dup, attempt;

	for (attempt = 0; attempt < 2; attempt++) {
		pidfd = pidfd_of(tgid, attempt > 0);
		if (pidfd < 0)
			return pidfd;
		dup = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
		if (dup >= 0)
			return dup;
		if (errno != ESRCH)
			break;
	}
	return -errno;
}

struct rec_obj_query {
	int fd;				/* the recorder's duplicate */
	struct bpfrr_rec_object *o;
	union {
		struct bpf_prog_info prog;
		struct bpf_map_info map;
		struct bpf_btf_info btf;
		struct bpf_link_info link;
		uint8_t raw[INFO_MAX];
	} info;
	uint32_t info_len;
	char name[256];
};

static int query(struct rec_obj_query *q)
{
	struct bpfrr_rec_object *o = q->o;
	int err;

	memset(&q->info, 0, sizeof(q->info));
	q->info_len = sizeof(q->info);
	switch (o->kind) {
	case BPFRR_OBJ_BTF:
		q->info.btf.name = (uint64_t)(uintptr_t)q->name;
		q->info.btf.name_len = sizeof(q->name);
		break;
	case BPFRR_OBJ_LINK:
		/* raw_tracepoint.tp_name and iter.target_name share the layout */
		q->info.link.raw_tracepoint.tp_name = (uint64_t)(uintptr_t)q->name;
		q->info.link.raw_tracepoint.tp_name_len = sizeof(q->name);
		break;
	default:
		break;
	}
	err = obj_get_info(q->fd, &q->info, &q->info_len);
	if (err == -EINVAL && o->kind == BPFRR_OBJ_LINK) {
		/* link types without a name buffer reject a non-zero one */
		memset(&q->info, 0, sizeof(q->info));
		q->info_len = sizeof(q->info);
		err = obj_get_info(q->fd, &q->info, &q->info_len);
	}
	if (err)
		return err;

	switch (o->kind) {
	case BPFRR_OBJ_PROG: {
		struct bpf_prog_info *p = &q->info.prog;

		o->id = p->id;
		o->type = p->type;
		memcpy(o->tag, p->tag, sizeof(o->tag));
		o->btf_id = p->btf_id;
		o->target_obj_id = p->attach_btf_obj_id;
		o->target_btf_id = p->attach_btf_id;
		memcpy(q->name, p->name, sizeof(p->name));
		q->name[sizeof(p->name)] = 0;
		break;
	}
	case BPFRR_OBJ_MAP: {
		struct bpf_map_info *m = &q->info.map;

		o->id = m->id;
		o->type = m->type;
		o->key_size = m->key_size;
		o->value_size = m->value_size;
		o->max_entries = m->max_entries;
		o->map_flags = m->map_flags;
		o->btf_id = m->btf_id;
		memcpy(q->name, m->name, sizeof(m->name));
		q->name[sizeof(m->name)] = 0;
		break;
	}
	case BPFRR_OBJ_BTF:
		o->id = q->info.btf.id;
		o->btf_size = q->info.btf.btf_size;
		q->name[sizeof(q->name) - 1] = 0;
		break;
	case BPFRR_OBJ_LINK: {
		struct bpf_link_info *l = &q->info.link;

		o->id = l->id;
		o->type = l->type;
		o->prog_id = l->prog_id;
		switch (l->type) {
		case LINK_TRACING:
			o->attach_type = l->tracing.attach_type;
			o->target_obj_id = l->tracing.target_obj_id;
			o->target_btf_id = l->tracing.target_btf_id;
			break;
		case LINK_CGROUP:
			o->attach_type = l->cgroup.attach_type;
			o->target = l->cgroup.cgroup_id;
			break;
		case LINK_NETNS:
			o->attach_type = l->netns.attach_type;
			o->target = l->netns.netns_ino;
			break;
		case LINK_XDP:
			o->target = l->xdp.ifindex;
			break;
		case LINK_TCX:
		case LINK_NETKIT:
			/* struct { __u32 ifindex; __u32 attach_type; } in 6.12 */
			o->target = l->xdp.ifindex;
			o->attach_type = l->netns.attach_type;
			break;
		case LINK_STRUCT_OPS:
			/* struct { __u32 map_id; } */
			o->target_obj_id = l->xdp.ifindex;
			break;
		case LINK_ITER:
			o->target_obj_id = l->iter.map.map_id;
			break;
		default:
			break;
		}
		if (l->type != LINK_RAW_TRACEPOINT && l->type != LINK_ITER)
			q->name[0] = 0;
		q->name[sizeof(q->name) - 1] = 0;
		break;
	}
	default:
		return -EINVAL;
	}
	return 0;
}

static int identity_query(struct rec_session *s, struct rec_task *t, uint64_t seq, int fd, struct rec_fd *e);

int rec_identity_query(struct rec_session *s, struct rec_task *t, uint64_t seq, int fd, struct rec_fd *e)
{
	uint64_t t0 = rec_now_ns();
	int err = identity_query(s, t, seq, fd, e);

	s->times.identity += rec_now_ns() - t0;
	return err;
}

static int identity_query(struct rec_session *s, struct rec_task *t, uint64_t seq, int fd, struct rec_fd *e)
{
	struct bpfrr_rec_object o = {
		.seq = seq,
		.tid = t->tid,
		.fd = fd,
		.kind = e->kind,
		.name = "",
	};
	struct rec_obj_query *q;
	enum bpfrr_obj_kind kind;
	int err;

	if (!s->opt->identity)
		return 0;
	q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	q->o = &o;
	q->fd = rec_pidfd_dup(t->tgid, fd);
	if (q->fd < 0) {
		err = q->fd;
		goto out;
	}
	/*
	 * Make sure the duplicate is what the table says before asking bpf() about
	 * it: another task sharing the table may have closed the fd and had the
	 * number given to something else since. A leader whose table no other
	 * task shares is stopped, and nothing but its own calls changes that
	 * table: the check (a readlink of /proc/self/fd/N, 20 to 80 us under TCG,
	 * once per object) is left out for it.
	 */
	if (t->fdtab && t->fdtab->refs == 1 && t->tid == t->tgid) {
		kind = e->kind;
	} else {
		static pid_t self;	/* the recorder; getpid() is a syscall each time */
		char link[64], target[128];
		ssize_t n;

		snprintf(link, sizeof(link), "/proc/self/fd/%d", q->fd);
		n = readlink(link, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = 0;
		if (!self)
			self = getpid();
		kind = rec_kind_from_link(target, self, q->fd);
	}
	if (kind != e->kind) {
		err = -EBADF;
		goto out;
	}
	err = query(q);
	if (!err) {
		o.name = q->name;
		o.info_blob = bpfrr_trace_put_blob(s->w, &q->info, q->info_len);
		if (!o.info_blob)
			rec_write_failed(s, -errno);
		e->kernel_id = o.id;
		bpfrr_obj_facts_add_identity(&e->facts, e->kind, &o);
		if (e->kind == BPFRR_OBJ_BTF && q->info.btf.kernel_btf)
			rec_symbols_btf_object(s, o.id, q->name);
	}
out:
	if (q->fd >= 0)
		close(q->fd);
	free(q);
	if (err) {
		o.flags |= BPFRR_OBJECT_F_QUERY_FAILED;
		o.err = -err;
	}
	{
		int werr = bpfrr_trace_write_object(s->w, &o);

		if (werr)
			rec_write_failed(s, werr);
	}
	return err;
}

/* --- vmlinux BTF through bpf() ------------------------------------------------------- */

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	int ret = (int)syscall(__NR_bpf, cmd, attr, sizeof(*attr));

	return ret < 0 ? -errno : ret;
}

/* fd of BTF object id if it is the kernel's "vmlinux" (its size in *size), else -errno */
static int vmlinux_fd(uint32_t id, uint32_t *size)
{
	struct bpf_btf_info info;
	union bpf_attr attr;
	char name[16];
	uint32_t len = sizeof(info);
	int fd, err;

	memset(&attr, 0, sizeof(attr));
	attr.btf_id = id;
	fd = sys_bpf(BPF_BTF_GET_FD_BY_ID, &attr);
	if (fd < 0)
		return fd;
	memset(&info, 0, sizeof(info));
	memset(name, 0, sizeof(name));
	info.name = (uint64_t)(uintptr_t)name;
	info.name_len = sizeof(name);
	err = obj_get_info(fd, &info, &len);
	if (!err && (!info.kernel_btf || strcmp(name, "vmlinux") || !info.btf_size))
		err = -ENOENT;
	if (err) {
		close(fd);
		return err;
	}
	*size = info.btf_size;
	return fd;
}

struct btf *rec_vmlinux_btf_copy(uint32_t known_id)
{
	struct bpf_btf_info info;
	union bpf_attr attr;
	struct btf *btf = NULL;
	uint32_t id = known_id, size = 0, len = sizeof(info), tries;
	void *data;
	int fd = -ENOENT;

	if (id) {
		fd = vmlinux_fd(id, &size);
	} else {
		/* vmlinux's BTF is registered at boot, before any module's: the first ids */
		for (tries = 0; tries < 8 && fd < 0; tries++) {
			memset(&attr, 0, sizeof(attr));
			attr.start_id = id;
			if (sys_bpf(BPF_BTF_GET_NEXT_ID, &attr) < 0)
				return NULL;
			id = attr.next_id;
			fd = vmlinux_fd(id, &size);
		}
	}
	if (fd < 0)
		return NULL;
	data = malloc(size);
	if (data) {
		memset(&info, 0, sizeof(info));
		info.btf = (uint64_t)(uintptr_t)data;
		info.btf_size = size;
		if (!obj_get_info(fd, &info, &len) && info.btf_size == size)
			btf = btf__new(data, size);	/* copies; NULL on error (libbpf 1.x) */
		free(data);
	}
	close(fd);
	return btf;
}

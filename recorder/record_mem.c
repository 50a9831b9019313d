// SPDX-License-Identifier: GPL-2.0-only
/*
 * record_mem.c - reading a stopped tracee's memory and /proc facts about it.
 *
 * process_vm_readv() is the fast path; kernels built without
 * CONFIG_CROSS_MEMORY_ATTACH (the tiny guest kernels) answer ENOSYS, so
 * /proc/TID/mem is the fallback. Either works because the tracee is
 * ptrace-stopped and we are its tracer.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <sys/uio.h>
#include <unistd.h>

#include "record.h"

static bool vm_readv_missing;

void rec_mem_use_proc_only(bool on)
{
	vm_readv_missing = on;
}

/*
 * Open /proc/TID/mem files, kept across reads: the fallback path costs one
 * pread per buffer instead of open+pread+close. An fd is tied to the address
 * space it was opened on, so the loop forgets a task's fd when it execs or
 * ends (rec_mem_forget), and a failed read retries once on a fresh fd.
 */
#define MEM_FDS 8
static struct {
	pid_t tid;
	int fd;
} mem_fds[MEM_FDS];
static unsigned int mem_fd_next;

void rec_mem_forget(pid_t tid)
{
	unsigned int i;

	for (i = 0; i < MEM_FDS; i++) {
		if (mem_fds[i].tid == tid && mem_fds[i].fd > 0) {
			close(mem_fds[i].fd);
			mem_fds[i].tid = 0;
			mem_fds[i].fd = 0;
		}
	}
}

static int mem_fd(pid_t tid)
{
	unsigned int i;
	char path[64];
	int fd;

	for (i = 0; i < MEM_FDS; i++)
		if (mem_fds[i].tid == tid && mem_fds[i].fd > 0)
			return mem_fds[i].fd;
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	i = mem_fd_next++ % MEM_FDS;
	if (mem_fds[i].fd > 0)
		close(mem_fds[i].fd);
	mem_fds[i].tid = tid;
	mem_fds[i].fd = fd;
	return fd;
}

static int pread_all(int fd, uint64_t addr, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done, (off_t)(addr + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 && errno != EIO ? -errno : -EFAULT;
		done += n;
	}
	return 0;
}

static int read_proc_mem(pid_t tid, uint64_t addr, void *buf, size_t len)
{
	int fd = mem_fd(tid), err;

	if (fd < 0)
		return fd;
	err = pread_all(fd, addr, buf, len);
	if (!err)
		return 0;
	/* maybe an fd of an address space the task no longer has: once more */
	rec_mem_forget(tid);
	fd = mem_fd(tid);
	if (fd < 0)
		return fd;
	return pread_all(fd, addr, buf, len);
}

int rec_mem_read(pid_t tid, uint64_t addr, void *buf, size_t len)
{
	size_t done = 0;

	if (!len)
		return 0;
	if (addr + len < addr)
		return -EFAULT;
	while (!vm_readv_missing && done < len) {
		struct iovec local = { (char *)buf + done, len - done };
		struct iovec remote = { (void *)(uintptr_t)(addr + done), len - done };
		ssize_t n = process_vm_readv(tid, &local, 1, &remote, 1, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ENOSYS) {
			vm_readv_missing = true;
			break;
		}
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EFAULT;
		done += n;
	}
	if (done == len)
		return 0;
	return read_proc_mem(tid, addr + done, (char *)buf + done, len - done);
}

char *rec_mem_read_str(pid_t tid, uint64_t addr, size_t max, size_t *len)
{
	size_t cap = 256, got = 0;
	char *s = NULL;

	/*
	 * Read in growing chunks that never cross a page boundary needlessly: a
	 * string near the end of a mapping must not fail because we asked for
	 * bytes past it.
	 */
	while (got < max) {
		size_t chunk = 4096 - ((addr + got) & 4095);
		char *n, *nul;

		if (chunk > max - got)
			chunk = max - got;
		if (got + chunk > cap || !s) {
			while (cap < got + chunk)
				cap *= 2;
			n = realloc(s, cap);
			if (!n) {
				free(s);
				return NULL;
			}
			s = n;
		}
		if (rec_mem_read(tid, addr + got, s + got, chunk)) {
			free(s);
			errno = EFAULT;
			return NULL;
		}
		nul = memchr(s + got, 0, chunk);
		if (nul) {
			if (len)
				*len = nul - s;
			return s;
		}
		got += chunk;
	}
	free(s);
	errno = ENAMETOOLONG;
	return NULL;
}

char *rec_proc_fd_path(pid_t pid, int fd)
{
	char link[64], target[PATH_MAX + 1];
	ssize_t n;

	if (fd == AT_FDCWD)
		snprintf(link, sizeof(link), "/proc/%d/cwd", (int)pid);
	else
		snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)pid, fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return NULL;
	target[n] = 0;
	return strdup(target);
}

char *rec_proc_exe(pid_t pid)
{
	char link[64], target[PATH_MAX + 1];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return NULL;
	target[n] = 0;
	return strdup(target);
}

pid_t rec_proc_tgid(pid_t tid)
{
	char path[64], line[256];
	pid_t tgid = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Tgid:", 5)) {
			tgid = (pid_t)strtol(line + 5, NULL, 10);
			break;
		}
	}
	fclose(f);
	return tgid;
}

void rec_free_argv(char **argv)
{
	if (!argv)
		return;
	free(argv[0]);
	free(argv);
}

/* The whole of a small file (sysfs, procfs: no size to stat), NUL-terminated; NULL on failure. */
char *rec_read_whole(const char *path, size_t *len_out)
{
	size_t len = 0, cap = 0;
	char *buf = NULL, *nbuf;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	for (;;) {
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 65536;
			nbuf = realloc(buf, cap + 1);
			if (!nbuf)
				goto fail;
			buf = nbuf;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	if (len_out)
		*len_out = len;
	return buf;
fail:
	close(fd);
	free(buf);
	return NULL;
}

char **rec_proc_cmdline(pid_t pid)
{
	char path[64], *buf, **argv;
	size_t len = 0, argc = 0, i, j;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	buf = rec_read_whole(path, &len);
	if (!buf)
		return NULL;
	if (!len || buf[len - 1])
		buf[len++] = 0;
	for (i = 0; i < len; i++)
		argc += !buf[i];
	argv = calloc(argc + 1, sizeof(*argv));
	if (!argv)
		goto fail;
	for (i = 0, j = 0; i < len && j < argc; j++) {
		argv[j] = buf + i;
		i += strlen(buf + i) + 1;
	}
	if (!argv[0])
		argv[0] = buf;
	return argv;
fail:
	free(buf);
	return NULL;
}

unsigned int rec_nr_possible_cpus(void)
{
	char buf[256];
	unsigned int nr = 0;
	char *p;
	ssize_t n;
	int fd;

	fd = open("/sys/devices/system/cpu/possible", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto fallback;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		goto fallback;
	buf[n] = 0;
	/* "0-3,5,7-8" */
	for (p = buf; *p && *p != '\n';) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;

		if (end == p)
			goto fallback;
		if (*end == '-') {
			p = end + 1;
			b = strtoul(p, &end, 10);
			if (end == p || b < a)
				goto fallback;
		}
		nr += b - a + 1;
		p = end;
		if (*p == ',')
			p++;
	}
	if (nr)
		return nr;
fallback:
	n = sysconf(_SC_NPROCESSORS_CONF);
	return n > 0 ? (unsigned int)n : 1;
}

enum bpfrr_obj_kind rec_kind_from_link(const char *link, pid_t pid, int fd)
{
	static const struct {
		const char *link;
		enum bpfrr_obj_kind kind;
	} anon[] = {
		{ "anon_inode:bpf-map", BPFRR_OBJ_MAP },
		{ "anon_inode:bpf-prog", BPFRR_OBJ_PROG },
		{ "anon_inode:bpf_link", BPFRR_OBJ_LINK },
		{ "anon_inode:bpf-link", BPFRR_OBJ_LINK },
		{ "anon_inode:btf", BPFRR_OBJ_BTF },
		{ "anon_inode:bpf-token", BPFRR_OBJ_TOKEN },
		{ "anon_inode:bpf_iter", BPFRR_OBJ_ITER },
		{ "anon_inode:[perf_event]", BPFRR_OBJ_PERF_EVENT },
		{ "anon_inode:[pidfd]", BPFRR_OBJ_PIDFD },
	};
	size_t i;

	if (!link)
		return BPFRR_OBJ_ANY;
	for (i = 0; i < sizeof(anon) / sizeof(anon[0]); i++)
		if (!strcmp(link, anon[i].link))
			return anon[i].kind;
	/* a token is a pseudo file on the bpffs instance it was made from */
	if (strlen(link) >= 9 && !strcmp(link + strlen(link) - 9, "bpf-token"))
		return BPFRR_OBJ_TOKEN;
	if (!strncmp(link, "socket:", 7))
		return BPFRR_OBJ_SOCKET;
	if (!strncmp(link, "net:[", 5))
		return BPFRR_OBJ_NETNS;
	if (!strncmp(link, "pidfd:", 6))
		return BPFRR_OBJ_PIDFD;
	/*
	 * A path: a cgroup directory if it lives on a cgroup file system.
	 * statfs() through the /proc link looks at the file without opening it
	 * (opening a fifo or a tty could block or have side effects).
	 */
	if (link[0] == '/' && pid > 0 && fd >= 0) {
		char proc[64];
		struct statfs sfs;

		snprintf(proc, sizeof(proc), "/proc/%d/fd/%d", (int)pid, fd);
		if (!statfs(proc, &sfs) &&
		    (sfs.f_type == CGROUP2_SUPER_MAGIC || sfs.f_type == CGROUP_SUPER_MAGIC))
			return BPFRR_OBJ_CGROUP;
	}
	return BPFRR_OBJ_ANY;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * portable-core-check MAP_PIN [COMM]: check what a replayed fx_core program
 * read through CO-RE on this kernel.  Names itself COMM (default "fx_core",
 * the name the recorded loader had, which the program filters on), calls
 * getpid() once, reads the program's .bss (the map pinned at MAP_PIN, e.g. by
 * `bpfrr replay --pin DIR`) and compares pid, tgid, parent tgid and comm with
 * this process's own, and the field-exists/field-size answers with 6.12's.
 * A field read at the recording kernel's offset on a kernel whose task_struct
 * differs gives other values.  Prints one line, "fx_core values ok: ..." or
 * "fx_core values wrong: ..."; exit 0 when right, 1 when wrong, 2 when the
 * map cannot be read.  Guest only (it calls bpf()).
 */
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../fixtures/fx_core.h"

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

int main(int argc, char **argv)
{
	const char *comm = argc > 2 ? argv[2] : "fx_core";
	struct fx_core_result res;
	char now[FX_CORE_COMM_LEN] = "";
	union bpf_attr attr;
	__u32 key = 0;
	int fd, tid, pid, ppid;

	if (argc < 2 || argc > 3 || strlen(comm) >= FX_CORE_COMM_LEN) {
		fprintf(stderr, "usage: portable-core-check MAP_PIN [COMM]\n");
		return 2;
	}
	if (prctl(PR_SET_NAME, comm) || prctl(PR_GET_NAME, now)) {
		printf("fx_core values unknown: prctl: %s\n", strerror(errno));
		return 2;
	}
	tid = (int)syscall(SYS_gettid);
	pid = (int)syscall(SYS_getpid);		/* the event the program records */
	ppid = (int)syscall(SYS_getppid);

	memset(&attr, 0, sizeof(attr));
	attr.pathname = (__u64)(unsigned long)argv[1];
	fd = (int)sys_bpf(BPF_OBJ_GET, &attr);
	if (fd < 0) {
		printf("fx_core values unknown: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	memset(&res, 0, sizeof(res));
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (__u64)(unsigned long)&key;
	attr.value = (__u64)(unsigned long)&res;
	if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr)) {
		printf("fx_core values unknown: reading %s: %s\n", argv[1], strerror(errno));
		close(fd);
		return 2;
	}
	close(fd);

	if (res.runs == 0) {
		printf("fx_core values wrong: the program did not record the getpid() of '%s'\n", now);
		return 1;
	}
	if (res.pid != tid || res.tgid != pid || res.parent_tgid != ppid ||
	    strncmp(res.comm, now, sizeof(now)) || res.comm_size != FX_CORE_COMM_LEN ||
	    res.has_state != 1 || res.has_old_state != 0) {
		printf("fx_core values wrong: read pid=%d tgid=%d parent_tgid=%d comm='%.16s' "
		       "comm_size=%u has___state=%u has_state=%u, expected %d %d %d '%s' %d 1 0\n",
		       res.pid, res.tgid, res.parent_tgid, res.comm, res.comm_size, res.has_state,
		       res.has_old_state, tid, pid, ppid, now, FX_CORE_COMM_LEN);
		return 1;
	}
	printf("fx_core values ok: pid=%d tgid=%d parent_tgid=%d comm=%s\n", res.pid, res.tgid,
	       res.parent_tgid, now);
	return 0;
}

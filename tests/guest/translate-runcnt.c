// SPDX-License-Identifier: GPL-2.0-only
/*
 * translate-runcnt ID...: print "ID RUN_CNT" for each program id, from
 * BPF_OBJ_GET_INFO_BY_FD.  bpftool shows run_cnt only when run_time_ns is
 * not 0, which a guest's coarse clock leaves 0 for short programs.  Guest
 * only (it calls bpf()).
 */
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

int main(int argc, char **argv)
{
	int i, status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: translate-runcnt ID...\n");
		return 2;
	}
	for (i = 1; i < argc; i++) {
		struct bpf_prog_info info;
		union bpf_attr attr;
		char *end;
		unsigned long id = strtoul(argv[i], &end, 10);
		int fd;

		if (*end || end == argv[i] || !id || id > 0xffffffffUL) {
			fprintf(stderr, "translate-runcnt: '%s' is not a program id\n", argv[i]);
			return 2;
		}
		memset(&attr, 0, sizeof(attr));
		attr.prog_id = (__u32)id;
		fd = (int)sys_bpf(BPF_PROG_GET_FD_BY_ID, &attr);
		if (fd < 0) {
			fprintf(stderr, "translate-runcnt: program id %lu: %s\n", id, strerror(errno));
			status = 1;
			continue;
		}
		memset(&info, 0, sizeof(info));
		memset(&attr, 0, sizeof(attr));
		attr.info.bpf_fd = fd;
		attr.info.info_len = sizeof(info);
		attr.info.info = (__u64)(unsigned long)&info;
		if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr)) {
			fprintf(stderr, "translate-runcnt: program id %lu: %s\n", id, strerror(errno));
			status = 1;
		} else {
			printf("%lu %llu\n", id, (unsigned long long)info.run_cnt);
		}
		close(fd);
	}
	return status;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * elf-perf-loader [array]: the smallest load with a perf event and no tracepoint,
 * for translate-elf.t (no libbpf-tool in the image opens a perf event the
 * elf format can carry: tracepoint ids are looked up by name at replay
 * time, kprobe names are user pointers, runqlen's CO-RE fails on the guest
 * kernels).  It makes a one-entry BPF_MAP_TYPE_PERF_EVENT_ARRAY, opens a
 * CPU-clock software event on CPU 0 for every task, and stores the event
 * in the map, printing the map id; then exits.  Translated for the patched
 * kernel, the event is opened by the loader through the bpf_perf_event_open
 * kfunc.  With "array" it makes a one-entry array of u64 and stores 42 in
 * it instead: a load every kernel's syscall programs can make (stock 6.12
 * too).  Guest only (it calls bpf()).
 */
#include <errno.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

int main(int argc, char **argv)
{
	struct perf_event_attr pea;
	struct bpf_map_info info;
	union bpf_attr attr;
	int array = argc == 2 && !strcmp(argv[1], "array");
	int map_fd, pfd;
	__u64 value = 42;
	__u32 key = 0;

	if (argc > 1 && !array) {
		fprintf(stderr, "usage: elf-perf-loader [array]\n");
		return 2;
	}
	memset(&attr, 0, sizeof(attr));
	attr.map_type = array ? BPF_MAP_TYPE_ARRAY : BPF_MAP_TYPE_PERF_EVENT_ARRAY;
	attr.key_size = 4;
	attr.value_size = array ? 8 : 4;
	attr.max_entries = 1;
	strcpy(attr.map_name, array ? "elf_array" : "elf_perf");
	map_fd = sys_bpf(BPF_MAP_CREATE, &attr);
	if (map_fd < 0) {
		fprintf(stderr, "elf-perf-loader: BPF_MAP_CREATE: %s\n", strerror(errno));
		return 1;
	}
	memset(&pea, 0, sizeof(pea));
	pea.size = sizeof(pea);
	pea.type = PERF_TYPE_SOFTWARE;
	pea.config = PERF_COUNT_SW_CPU_CLOCK;
	pea.sample_period = 1000000;
	pfd = array ? -1 : syscall(__NR_perf_event_open, &pea, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (!array && pfd < 0) {
		fprintf(stderr, "elf-perf-loader: perf_event_open: %s\n", strerror(errno));
		return 1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	attr.key = (unsigned long)&key;
	attr.value = array ? (unsigned long)&value : (unsigned long)&pfd;
	if (sys_bpf(BPF_MAP_UPDATE_ELEM, &attr)) {
		fprintf(stderr, "elf-perf-loader: BPF_MAP_UPDATE_ELEM: %s\n", strerror(errno));
		return 1;
	}
	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = map_fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (unsigned long)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr)) {
		fprintf(stderr, "elf-perf-loader: BPF_OBJ_GET_INFO_BY_FD: %s\n", strerror(errno));
		return 1;
	}
	printf("map id=%u name=%s\n", info.id, info.name);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * record-slowcall READY_FILE MODE: a loader that stays long enough in one
 * state for record-interrupt.t to interrupt it there.  Guest only (it calls
 * bpf()).
 *
 * It loads a two-instruction socket filter (BPF_PROG_LOAD), then writes
 * "PID MODE" to READY_FILE (renamed into place, so a reader never sees half
 * of it), and then, by MODE:
 *   incall   BPF_PROG_TEST_RUN of the program with repeat = 2^31: minutes
 *            inside one bpf() call (the kernel's loop ends early only for a
 *            pending signal, -EINTR);
 *   between  pause(): between bpf() calls, until a signal.
 * SIGINT and SIGTERM are caught: the handler sets a flag, and the loader then
 * makes one more bpf() call (BPF_OBJ_GET_INFO_BY_FD of its program, as a
 * libbpf-tool reads its maps on the way out), prints "cleaned up" and exits 0.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static int load_prog(void)
{
	/* r0 = 0; exit */
	static const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (uint64_t)(uintptr_t)insns;
	attr.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	attr.license = (uint64_t)(uintptr_t)"GPL";
	strcpy(attr.prog_name, "slowcall");
	return (int)sys_bpf(BPF_PROG_LOAD, &attr);
}

static int say_ready(const char *path, const char *mode)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	fprintf(f, "%d %s\n", (int)getpid(), mode);
	if (fclose(f))
		return -1;
	return rename(tmp, path);
}

int main(int argc, char **argv)
{
	unsigned char pkt[64] = { 0 };
	struct bpf_prog_info info;
	struct sigaction sa;
	union bpf_attr attr;
	int prog_fd;
	long ret;

	if (argc != 3 || (strcmp(argv[2], "incall") && strcmp(argv[2], "between"))) {
		fprintf(stderr, "usage: record-slowcall READY_FILE incall|between\n");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	prog_fd = load_prog();
	if (prog_fd < 0) {
		fprintf(stderr, "record-slowcall: BPF_PROG_LOAD: %s\n", strerror(errno));
		return 1;
	}
	if (say_ready(argv[1], argv[2])) {
		fprintf(stderr, "record-slowcall: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (!strcmp(argv[2], "incall")) {
		memset(&attr, 0, sizeof(attr));
		attr.test.prog_fd = (uint32_t)prog_fd;
		attr.test.data_in = (uint64_t)(uintptr_t)pkt;
		attr.test.data_size_in = sizeof(pkt);
		attr.test.repeat = 1u << 31;
		ret = sys_bpf(BPF_PROG_TEST_RUN, &attr);
		printf("test run: %ld (%s)\n", ret, ret < 0 ? strerror(errno) : "done");
	} else {
		while (!stop_requested)
			pause();
	}
	if (!stop_requested)
		return 0;
	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)prog_fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uint64_t)(uintptr_t)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr) < 0) {
		fprintf(stderr, "record-slowcall: BPF_OBJ_GET_INFO_BY_FD: %s\n", strerror(errno));
		return 1;
	}
	printf("cleaned up: prog id %u\n", info.id);
	return 0;
}

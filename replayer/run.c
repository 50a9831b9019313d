// SPDX-License-Identifier: GPL-2.0-only
/*
 * run.c - load and run a syscall program with its blob (see run.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "exec.h"
#include "run.h"

#define VERIFIER_LOG_SIZE	(16u << 20)

uint64_t bpfrr_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int load_prog(const struct bpf_insn *insns, uint32_t nr_insns, const char *name, int blob_fd,
		     char *log, uint32_t log_size)
{
	static const char license[] = "GPL";
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SYSCALL;
	attr.prog_flags = BPF_F_SLEEPABLE;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = nr_insns;
	attr.license = (uintptr_t)license;
	attr.fd_array = (uintptr_t)&blob_fd;
	snprintf(attr.prog_name, sizeof(attr.prog_name), "%s", name);
	if (log) {
		attr.log_level = 1;
		attr.log_buf = (uintptr_t)log;
		attr.log_size = log_size;
	}
	return bpfrr_sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
}

int bpfrr_run_syscall_prog(const struct bpf_insn *insns, uint32_t nr_insns, const char *name,
			   const void *blob, uint32_t blob_size, void *ctx, uint32_t ctx_size,
			   void *blob_out, struct bpfrr_run_result *res, char *err, size_t err_size)
{
	int map_fd = -1, prog_fd = -1, ret;
	union bpf_attr attr;
	uint32_t key = 0;
	uint64_t t0 = bpfrr_now_ns();

	memset(res, 0, sizeof(*res));
	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = blob_size;
	attr.max_entries = 1;
	snprintf(attr.map_name, sizeof(attr.map_name), "bpfrr_blob");
	map_fd = bpfrr_sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
	if (map_fd < 0) {
		ret = map_fd;
		snprintf(err, err_size, "creating the %u-byte blob map: %s", blob_size, strerror(-ret));
		goto out;
	}
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	attr.key = (uintptr_t)&key;
	attr.value = (uintptr_t)blob;
	ret = bpfrr_sys_bpf(BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr));
	if (ret < 0) {
		snprintf(err, err_size, "storing the blob: %s", strerror(-ret));
		goto out;
	}
	prog_fd = load_prog(insns, nr_insns, name, map_fd, NULL, 0);
	if (prog_fd < 0) {
		char *log = malloc(VERIFIER_LOG_SIZE);

		ret = prog_fd;
		if (log) {
			log[0] = '\0';
			prog_fd = load_prog(insns, nr_insns, name, map_fd, log, VERIFIER_LOG_SIZE);
			res->verifier_log = log;
		}
		snprintf(err, err_size, "the kernel refused the %u-insn %s program: %s", nr_insns, name,
			 strerror(-ret));
		goto out;
	}
	res->t_load_ns = bpfrr_now_ns() - t0;

	t0 = bpfrr_now_ns();
	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog_fd;
	attr.test.ctx_in = (uintptr_t)ctx;
	attr.test.ctx_size_in = ctx_size;
	ret = bpfrr_sys_bpf(BPF_PROG_TEST_RUN, &attr, sizeof(attr));
	res->t_run_ns = bpfrr_now_ns() - t0;
	if (ret < 0) {
		snprintf(err, err_size, "running the %s program: %s", name, strerror(-ret));
		goto out;
	}
	res->retval = attr.test.retval;
	if (blob_out) {
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = map_fd;
		attr.key = (uintptr_t)&key;
		attr.value = (uintptr_t)blob_out;
		ret = bpfrr_sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr, sizeof(attr));
		if (ret < 0) {
			snprintf(err, err_size, "reading the blob back: %s", strerror(-ret));
			goto out;
		}
	}
	ret = 0;
out:
	if (prog_fd >= 0)
		close(prog_fd);
	if (map_fd >= 0)
		close(map_fd);
	return ret;
}

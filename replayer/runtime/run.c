// SPDX-License-Identifier: GPL-2.0-only
/*
 * run.c - load and run a syscall program with its blob (see run.h), with
 * the runtime of the generated headers (header_runtime.h): a replay and a
 * standalone loader make their blob maps and load and run their loaders
 * with the same code.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "exec.h"
#include "header_runtime.h"
#include "run.h"

#define VERIFIER_LOG_SIZE	(16u << 20)

uint64_t bpfrr_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * The loader loaded with the verifier's statistics (BPF_LOG_STATS: three
 * short lines in the log, no per-instruction log, nothing the verifier does
 * differently): how much of the load phase is verification, and how many
 * instructions it walked.  A refusal is the caller's to explain: it loads
 * again with the verifier's log (once, not a third time here).
 */
#define STATS_LOG_LEVEL	4	/* BPF_LOG_STATS */
#define STATS_LOG_SIZE	512

static int prog_load_stats(const struct bpf_insn *insns, uint32_t nr_insns, const char *name, int map_fd,
			   struct bpfrr_run_result *res)
{
	char log[STATS_LOG_SIZE], *p;
	unsigned long long v;
	union bpf_attr attr;
	int fd;

	bpfrr_rt_loader_attr(&attr, insns, nr_insns, name, &map_fd, log, sizeof(log));
	attr.log_level = STATS_LOG_LEVEL;
	fd = bpfrr_rt_sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
	if (fd < 0)
		return fd;
	log[sizeof(log) - 1] = '\0';
	p = strstr(log, "verification time ");
	if (p && sscanf(p, "verification time %llu usec", &v) == 1)
		res->verify_ns = v * 1000;
	p = strstr(log, "processed ");
	if (p && sscanf(p, "processed %llu insns", &v) == 1 && v <= UINT32_MAX)
		res->insns_processed = (uint32_t)v;
	return fd;
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
	map_fd = bpfrr_rt_blob_map(blob, blob_size);
	if (map_fd < 0) {
		ret = map_fd;
		snprintf(err, err_size, "creating and filling the %u-byte blob map: %s", blob_size, strerror(-ret));
		goto out;
	}
	prog_fd = prog_load_stats(insns, nr_insns, name, map_fd, res);
	if (prog_fd < 0) {
		char *log = malloc(VERIFIER_LOG_SIZE);

		ret = prog_fd;
		if (log) {
			log[0] = '\0';
			prog_fd = bpfrr_rt_prog_load(insns, nr_insns, name, map_fd, log, VERIFIER_LOG_SIZE);
			res->verifier_log = log;
		}
		if (prog_fd < 0 || (ret != -EINVAL && ret != -ENOSPC)) {
			snprintf(err, err_size, "the kernel refused the %u-insn %s program: %s", nr_insns, name,
				 strerror(-ret));
			goto out;
		}
		/* it refused the statistics only (their log level or size): loaded without them */
		free(res->verifier_log);
		res->verifier_log = NULL;
	}
	res->t_load_ns = bpfrr_now_ns() - t0;

	t0 = bpfrr_now_ns();
	ret = bpfrr_rt_prog_run(prog_fd, ctx, ctx_size, &res->retval);
	res->t_run_ns = bpfrr_now_ns() - t0;
	if (ret < 0) {
		snprintf(err, err_size, "running the %s program: %s", name, strerror(-ret));
		goto out;
	}
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

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run.h - loading and running a generated syscall program (loader or
 * probe) in the running kernel.  Guest only: this issues bpf().
 */
#ifndef BPFRR_RUN_H
#define BPFRR_RUN_H

#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>

struct bpfrr_run_result {
	uint32_t retval;	/* the program's return value */
	uint64_t t_load_ns;	/* blob map + BPF_PROG_LOAD (verification) */
	uint64_t t_run_ns;	/* BPF_PROG_RUN */
	/* the verifier's own statistics of the load (log level BPF_LOG_STATS); 0 if it gave none */
	uint64_t verify_ns;		/* "verification time" */
	uint32_t insns_processed;	/* "processed N insns" */
	char *verifier_log;	/* malloc'd, when the kernel refused the program */
};

/*
 * Creates a 1-entry array map holding blob, loads insns as a sleepable
 * BPF_PROG_TYPE_SYSCALL program with fd_array = { blob map }, runs it once
 * with ctx (copied back into ctx), and closes both.  If blob_out is not
 * NULL the map's value after the run is copied there (blob_size bytes).
 * 0, or -errno with a reason in err (res->verifier_log set if the
 * verifier refused the program).
 */
int bpfrr_run_syscall_prog(const struct bpf_insn *insns, uint32_t nr_insns, const char *name,
			   const void *blob, uint32_t blob_size, void *ctx, uint32_t ctx_size,
			   void *blob_out, struct bpfrr_run_result *res, char *err, size_t err_size);

/* CLOCK_MONOTONIC in ns */
uint64_t bpfrr_now_ns(void);

#endif /* BPFRR_RUN_H */

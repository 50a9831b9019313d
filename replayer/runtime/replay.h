/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * replay.h - running an IR in the running kernel: the library behind
 * `bpfrr replay` (and guest tests).  Guest only: this issues bpf().
 *
 * bpfrr_replay_run() probes the kernel (unless caps are given), resolves
 * replay-time values (PMU types, tracepoint ids), plans (plan.h), opens
 * the slots named by path, and then makes the calls segment by segment:
 * a loader run (codegen.h, run.h) per kernel segment, bpfrr_exec_user()
 * per user-space call.  On success the fds of every slot are in r->fds.
 * On any failure every fd made so far is closed (the loader closes its
 * own, the replayer the rest), r->failed_call/err/error say what failed,
 * and for a failed BPF_PROG_LOAD/BTF_LOAD the calls up to it are made
 * again with a log buffer to fetch the kernel's log (r->log), after which
 * everything is closed again.
 */
#ifndef BPFRR_REPLAY_H
#define BPFRR_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "caps.h"
#include "ir.h"
#include "plan.h"

#define BPFRR_REPLAY_KEEP_ORDER		0x1	/* plan without reordering */
#define BPFRR_REPLAY_NO_LOG_RERUN	0x2	/* no diagnostic rerun on a failed load */

/* Size of the log buffer of a diagnostic rerun. */
#define BPFRR_REPLAY_LOG_SIZE		(1u << 20)

struct bpfrr_replay_opts {
	const struct bpfrr_caps *caps;	/* NULL: probe the running kernel */
	unsigned int flags;		/* BPFRR_REPLAY_* */
	FILE *verbose;			/* plan, loader listings, steps; NULL for none */
	int32_t keyring_id;		/* a signed bundle's: BPFRR_RT_KEYRING_* or a key serial
					 * (header_runtime.h); 0 (builtin) when zeroed */
};

struct bpfrr_replay {
	struct bpfrr_ir *ir;		/* the replayed IR, replay-time values resolved */
	struct bpfrr_caps caps;
	struct bpfrr_plan plan;
	int *fds;			/* per slot: its fd, or -1 */
	uint8_t *made_dirs;		/* per slot: 1 if this replay made its directory (MKDIR) */
	uint8_t *pin_was_free;		/* per call: a BPF_OBJ_PIN whose path did not exist before */
	uint32_t nr_renamed;		/* directories renamed with this kernel's numbers */
	uint32_t *nl_done;		/* netlink requests that took effect (IR call indexes, in order):
					 * a failure sends what undoes each, the last first */
	uint32_t nr_nl_done;
	struct bpfrr_symbols *syms;	/* the running kernel's BTF and kallsyms, read on first need
					 * (resolutions, then --verify) */
	/* outcome of a failure */
	int failed_call;		/* IR call index, or -1 (failure outside a call) */
	int err;			/* -errno */
	char error[512];		/* one line */
	bool refused;			/* refused before anything was made (another arch or build, a
					 * symbol this kernel lacks): error is the whole story */
	char *log;			/* the kernel's log for the failed call, or NULL */
	/* a signed bundle (ir->sig): the kernel's verdict, read back from the program's fdinfo */
	bool is_signed;
	char sig_verdict[64];		/* "verified", "unsigned", "unknown"; "" before the load */
	char sig_check[192];		/* the reader's check of the stored loader (bpfrr_sign_check) */
	uint64_t t_sig_map, t_sig_load;	/* ns: metadata map made, written, frozen; the signed load */
	/* figures */
	uint32_t nr_loader_runs, nr_kernel_calls, nr_user_calls;
	uint32_t loader_insns, loader_blob, loader_user;	/* summed over runs */
	uint64_t t_probe, t_plan, t_codegen, t_load, t_run, t_user, t_total;	/* ns */
	/* of t_load, the verifier's own count (its statistics; 0: none given, a signed load) */
	uint64_t t_verify, insns_processed;
};

/* 0 on success; -errno on failure (nothing left open; see r->error). */
int bpfrr_replay_run(struct bpfrr_replay *r, const struct bpfrr_ir *ir, const struct bpfrr_replay_opts *o);
/* Closes every fd still held and frees. */
void bpfrr_replay_close(struct bpfrr_replay *r);

/*
 * Compares the objects with the identities recorded in the IR and prints a
 * table to out.  Returns the number of mismatches, or -errno.
 */
int bpfrr_replay_verify(const struct bpfrr_replay *r, FILE *out);

/*
 * One check of bpfrr_replay_verify: a field of a slot's object, recorded
 * against replayed.  On another kernel build than the recording's, a value
 * that legitimately differs there (a program's tag: its instructions are
 * CO-RE-relocated and carry BTF ids of the running kernel; an attach BTF
 * id) is checked against the value expected for the running kernel, which
 * the row carries beside the recorded one.
 */
struct bpfrr_verify_row {
	uint32_t slot;
	const char *kind;		/* "map", "prog", "btf", "link", ... */
	const char *object;		/* the slot's name, or its kind */
	const char *field;		/* "type", "tag", "name", "key_size", ... */
	const char *recorded, *replayed;	/* the values as the table shows them */
	const char *expected;		/* expected for the running kernel ("unknown (why)" when it could
					 * not be computed: the row is unchecked), or NULL: the replayed
					 * value is compared with the recorded one */
	const char *at;			/* map contents: where the first difference is ("key [0], byte 8:
					 * increment+0"; why it is unchecked), or NULL */
	int verdict;			/* 1 equal, 0 mismatch, -1 not checkable */
	int query_err;			/* -errno: the object could not be queried (no field; a mismatch) */
};

/* Which kernel build the replay runs on, against the recording's (ir->kernel). */
enum bpfrr_verify_build {
	BPFRR_VERIFY_SAME_BUILD = 0,	/* the recording's build: recorded values are the reference */
	BPFRR_VERIFY_NO_IDENTITY = 1,	/* the trace has no KERNEL record: taken as the same build */
	BPFRR_VERIFY_OTHER_BUILD = 2,	/* another build: expected values for this kernel */
};

struct bpfrr_verify_totals {
	uint32_t checks, mismatches, unchecked;
	uint32_t build;			/* enum bpfrr_verify_build */
	bool expect_forced;		/* BPFRR_VERIFY_EXPECT on the same build */
	char build_note[192];		/* OTHER_BUILD: "recorded on R (M), running R2: BTF differs" */
};

/*
 * Compute the expected values even on the recording's build (a check of the
 * CO-RE calculator: there the expected tag must equal both the recorded tag
 * and the kernel's).
 */
#define BPFRR_VERIFY_EXPECT	0x1

typedef void bpfrr_verify_row_fn(void *ctx, const struct bpfrr_verify_row *row);

/*
 * The checks of bpfrr_replay_verify, each handed to fn, the counts in tot:
 * for a printer of its own (replay_out.h).  Returns the number of mismatches.
 */
int bpfrr_replay_verify_rows(const struct bpfrr_replay *r, unsigned int flags, bpfrr_verify_row_fn *fn,
			     void *ctx, struct bpfrr_verify_totals *tot);
/* bpfrr_replay_verify's table, piece by piece */
void bpfrr_verify_print_head(FILE *out);
void bpfrr_verify_print_row(FILE *out, const struct bpfrr_verify_row *row);
void bpfrr_verify_print_totals(FILE *out, const struct bpfrr_verify_totals *tot);

/*
 * Pins every KEEP slot that is a map, program or link as DIR/NAME (the slot
 * name with characters other than letters, digits, '-' and '_' as '_':
 * bpffs refuses dots, "map.counts" becomes "map_counts").  All or nothing: 0, or
 * -errno (what was pinned is unpinned) with a reason in err.
 */
int bpfrr_replay_pin(const struct bpfrr_replay *r, const char *dir, char *err, size_t err_size);

#endif /* BPFRR_REPLAY_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * diff.h - bpfrr diff: what changed between the loads of two traces.
 *
 * Both traces are read through the resolved-trace layer (lib/resolved.h)
 * and turned into items: each object a call made (maps, programs, BTF,
 * links, perf events, pins) and each other bpf() call, named by what it is
 * rather than by fd or seq ("prog kprobe 'handle_exec'", "btf of map array
 * 'counts'", "BPF_LINK_CREATE(prog ..., perf_event ...)").  Items are
 * matched by name in the order they were made; per matched pair the attr
 * fields, the disassembly, the values the loader wrote into a map and the
 * BTF types are compared.  Nothing here calls bpf().
 */
#ifndef BPFRR_DIFF_H
#define BPFRR_DIFF_H

#include <stdbool.h>
#include <stdio.h>

struct bpfrr_diff_opts {
	bool json;	/* one JSON document (docs/diff-json.md) */
	bool verbose;	/* text: also the items that are the same */
};

/*
 * Compare the traces at paths a and b; the report goes to out, errors and
 * warnings to err.  Returns the exit status: 0 same, 1 different,
 * 2 unreadable or corrupt input, 3 a truncated trace (compared as far as it
 * goes).
 */
int bpfrr_diff_files(const char *a, const char *b, const struct bpfrr_diff_opts *opts, FILE *out, FILE *err);

int bpfrr_diff_main(int argc, char **argv);

#endif /* BPFRR_DIFF_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dump.h - bpfrr dump, the audit: what recorder/dump*.c share, and the
 * in-process entry point the tests and the fuzzer use.
 */
#ifndef BPFRR_DUMP_H
#define BPFRR_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "json.h"
#include "trace.h"

#define DUMP_MAX_FILTERS 64

struct bpfrr_dump_opts {
	bool json;		/* JSON Lines, one object per call (docs/dump-json.md) */
	bool summary;		/* counts instead of calls */
	bool dot;		/* a Graphviz graph of the objects and their relations (dump_dot.c) */
	bool no_insns;		/* no disassembly */
	bool verbose;		/* every record, whole logs, every name */
	bool has_tid;
	uint32_t tid;		/* only calls of this task */
	/* only these calls: bpf() commands by number, other syscalls by name */
	int nr_cmds;
	int cmds[DUMP_MAX_FILTERS];
	int nr_syscalls;
	const char *syscalls[DUMP_MAX_FILTERS];
};

/*
 * Dump an opened trace to out; errors and the truncation warning go to err.
 * Returns the exit status: 0, BPFRR_EXIT_TRUNCATED (3) for a trace without
 * END, 2 for a corrupt one.
 */
int bpfrr_dump_trace(struct bpfrr_trace_reader *r, const struct bpfrr_dump_opts *opts, FILE *out, FILE *err);

int bpfrr_dump_main(int argc, char **argv);

/* --- syscalls other than bpf() (dump_sys.c) ---------------------------------------- */

/* The flag bits of struct perf_event_attr (precise_ip is two bits wide). */
struct dump_perf_attr_bit {
	const char *name;
	unsigned int bit, width;
};
#define DUMP_PERF_ATTR_NR_BITS 37
extern const struct dump_perf_attr_bit dump_perf_attr_bits[DUMP_PERF_ATTR_NR_BITS];

struct dump_perf_symbols;

/* The fields of the perf_event_attr in data[0..len): as text lines with indent (with the
 * names of ps beside type, config and config2; ps may be NULL), */
void dump_perf_attr_text(FILE *f, const void *data, size_t len, const char *indent,
			 const struct dump_perf_symbols *ps);
/* or as the JSON object "fields". */
void dump_perf_attr_json(struct json_out *j, const void *data, size_t len);

/* How many arguments the named syscall takes (6 for one the table does not know). */
unsigned int dump_sys_nr_args(const char *name);

/* The syscalls the table describes, "close, close_range, ...", for messages. */
const char *dump_sys_names(void);

/*
 * The parameters of the named syscall, named and decoded: "fd=3, cmd=F_SETFD"
 * on text (the six raw values in hex for a syscall the table does not know),
 * or the JSON object "params" (nothing for an unknown one).  e_machine (the
 * trace header's arch) selects the O_* bits that differ.
 */
void dump_sys_args_text(FILE *f, const char *name, uint32_t e_machine, const uint64_t args[6]);
void dump_sys_args_json(struct json_out *j, const char *name, uint32_t e_machine, const uint64_t args[6]);

#endif /* BPFRR_DUMP_H */

// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfrr: record/replay for BPF loaders.  This file only dispatches to the
 * subcommands; each lives with its own code (recorder/, replayer/).
 */
#include <stdio.h>
#include <string.h>

#include "bpfrr.h"
#include "errmsg.h"
#include "oom.h"
#include "outfile.h"
#include "../recorder/diff.h"
#include "../recorder/dump.h"
#include "../recorder/record.h"
#include "../replayer/replayer.h"

struct subcommand {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *summary;
};

static const struct subcommand subcommands[] = {
	{ "record", bpfrr_record_main, "run a loader under the recorder, write a trace" },
	{ "dump", bpfrr_dump_main, "print a trace's bpf() calls field by field (the audit)" },
	{ "diff", bpfrr_diff_main, "what changed between the loads of two traces" },
	{ "translate", bpfrr_translate_main, "compile a trace into a syscall loader program" },
	{ "replay", bpfrr_replay_main, "run a translated trace and verify the kernel state" },
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: bpfrr COMMAND [OPTIONS] [ARGS...]\n\ncommands:\n");
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(out, "  %-10s %s\n", subcommands[i].name, subcommands[i].summary);
	fprintf(out, "  %-10s %s\n", "version", "print the version");
	fprintf(out, "  %-10s %s\n", "help", "print this help");
	fprintf(out, "\n'bpfrr COMMAND --help' describes a command; see also bpfrr(1).\n");
}

/*
 * Every command's last word: what it printed must have arrived.  stdout on
 * /dev/full or a closed pipe turns a success (or a truncated trace's 3)
 * into a failure with a message, never a silent 0.
 */
static int finish(int status)
{
	char err[256];

	if (bpfrr_stdout_check(err, sizeof(err)) && (status == BPFRR_EXIT_OK || status == BPFRR_EXIT_TRUNCATED)) {
		fprintf(stderr, "bpfrr: %s\n", err);
		return BPFRR_EXIT_FAILURE;
	}
	return status;
}

/*
 * Out of memory is a failure (1), never bad input (2) or a truncated trace
 * (3): where a reader or a pass cannot tell the two apart, the failed
 * allocation it met was noted (cli/oom.c), and so was a system call that ran
 * short reading an input (lib/errmsg.h: the kernel's ENOMEM in read()). The
 * recorder's status is the recorded command's (its own failures are 125): it
 * keeps its own.
 */
static int oom_status(int (*sub)(int, char **), int status)
{
	if (sub != bpfrr_record_main && (bpfrr_oom_seen() || bpfrr_short_seen()) &&
	    (status == BPFRR_EXIT_USAGE || status == BPFRR_EXIT_TRUNCATED))
		return BPFRR_EXIT_FAILURE;
	return status;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return BPFRR_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return finish(0);
	}
	if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version")) {
		printf("bpfrr %s\n", BPFRR_VERSION);
		return finish(0);
	}
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++) {
		if (!strcmp(argv[1], subcommands[i].name))
			return finish(oom_status(subcommands[i].main, subcommands[i].main(argc - 1, argv + 1)));
	}
	fprintf(stderr, "bpfrr: unknown command '%s' (see 'bpfrr --help')\n", argv[1]);
	return BPFRR_EXIT_USAGE;
}

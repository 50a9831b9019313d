/* SPDX-License-Identifier: GPL-2.0-only */
/* Conventions every bpfrr subcommand shares. */
#ifndef BPFRR_H
#define BPFRR_H

#ifndef BPFRR_VERSION
#define BPFRR_VERSION "unknown"
#endif

/*
 * Exit codes.  `bpfrr record` exits with the traced command's own status
 * instead; these are for bpfrr's own outcomes.
 */
enum bpfrr_exit {
	BPFRR_EXIT_OK = 0,
	BPFRR_EXIT_FAILURE = 1,	/* the operation failed (e.g. a replay mismatch) */
	BPFRR_EXIT_USAGE = 2,	/* bad command line, or an unreadable/corrupt input */
};

#endif /* BPFRR_H */

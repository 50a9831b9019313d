/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * outfile.h - how every output file of bpfrr is written (bundles, headers,
 * ELF objects): all or nothing.
 *
 * - "-" is standard output.
 * - A path that names something other than a regular file (a device, a
 *   FIFO, a terminal; through symlinks too, e.g. /dev/stdout) is written in
 *   place: there is nothing to replace atomically, and replacing a device
 *   node with a file would be wrong.
 * - Anything else is written to a temporary file beside the final target
 *   (symlinks followed, so a symlink stays a symlink and its target gets
 *   the new contents), then renamed over it.  On any error the temporary
 *   file is removed and an existing file is left exactly as it was.  A
 *   replaced file keeps its permission bits; a new one gets 0666 & ~umask.
 */
#ifndef BPFRR_OUTFILE_H
#define BPFRR_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct bpfrr_outfile {
	FILE *f;		/* write here between open and commit */
	char *target;		/* the file finally written (symlinks resolved) */
	char *tmp;		/* the temporary file, or NULL when written in place */
	const char *path;	/* as given, for messages */
	bool is_stdout;
};

/* 0, or -errno with "PATH: reason" in err. */
int bpfrr_outfile_open(struct bpfrr_outfile *o, const char *path, char *err, size_t err_size);
/*
 * Flush, check every write went through (a full disk, /dev/full), close, and
 * rename into place.  0, or -errno with "PATH: reason" in err (nothing
 * replaced then).  Frees o either way.
 */
int bpfrr_outfile_commit(struct bpfrr_outfile *o, char *err, size_t err_size);
/* Give up: remove the temporary file, leave the target as it was. */
void bpfrr_outfile_abort(struct bpfrr_outfile *o);

/* open, write len bytes, commit. */
int bpfrr_outfile_write(const char *path, const void *data, size_t len, char *err, size_t err_size);

/*
 * Flush stdout and report whether everything written to it arrived: the
 * last word of a command that printed its result there (`--explain`,
 * `--plan`, `--caps`), so that stdout on /dev/full or a closed pipe is a
 * failure, not a silent success.  0, or -errno with a message in err.
 */
int bpfrr_stdout_check(char *err, size_t err_size);

#endif /* BPFRR_OUTFILE_H */

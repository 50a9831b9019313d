// SPDX-License-Identifier: GPL-2.0-only
/*
 * outfile.c - all-or-nothing output files (see outfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

static int fail(char *err, size_t err_size, int e, const char *path, const char *what)
{
	if (err && err_size)
		snprintf(err, err_size, "%s: %s%s%s", path, what ? what : "", what ? ": " : "", strerror(e));
	return -e;
}

/*
 * The file a path finally names, through every symlink, whether or not it
 * exists yet (a dangling symlink names the file it will create).  malloc'd;
 * NULL with errno set (ELOOP after 40 links, as the kernel counts).
 */
static char *resolve_target(const char *path)
{
	char *cur = strdup(path);
	int hops;

	for (hops = 0; cur && hops < 40; hops++) {
		char link[PATH_MAX], *next, *slash;
		struct stat st;
		ssize_t n;

		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;	/* not there yet, or not a link: this is it */
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0) {
			free(cur);
			return NULL;
		}
		link[n] = '\0';
		slash = strrchr(cur, '/');
		if (link[0] == '/' || !slash) {
			next = strdup(link);
		} else if (asprintf(&next, "%.*s/%s", (int)(slash - cur), cur, link) < 0) {
			next = NULL;
		}
		free(cur);
		cur = next;
	}
	if (cur) {
		free(cur);
		errno = ELOOP;
	}
	return NULL;
}

int bpfrr_outfile_open(struct bpfrr_outfile *o, const char *path, char *err, size_t err_size)
{
	mode_t mode = 0666, mask;
	struct stat st;
	int fd, e;

	memset(o, 0, sizeof(*o));
	o->path = path;
	if (!strcmp(path, "-")) {
		o->f = stdout;
		o->is_stdout = true;
		return 0;
	}
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode))
			return fail(err, err_size, EISDIR, path, NULL);
		/* a device, FIFO or terminal: in place */
		o->f = fopen(path, "we");
		return o->f ? 0 : fail(err, err_size, errno, path, NULL);
	}
	o->target = resolve_target(path);
	if (!o->target)
		return fail(err, err_size, errno, path, NULL);
	if (asprintf(&o->tmp, "%s.bpfrr-XXXXXX", o->target) < 0) {
		o->tmp = NULL;
		e = ENOMEM;
		goto failed;
	}
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		free(o->tmp);
		o->tmp = NULL;
		goto failed;
	}
	/* the mode a plain creat() would give, or the replaced file's */
	if (!stat(o->target, &st)) {
		mode = st.st_mode & 07777;
	} else {
		mask = umask(0);
		umask(mask);
		mode &= ~mask;
	}
	if (fchmod(fd, mode) || !(o->f = fdopen(fd, "w"))) {
		e = errno;
		close(fd);
		goto failed;
	}
	return 0;
failed:
	bpfrr_outfile_abort(o);
	return fail(err, err_size, e, path, NULL);
}

static void outfile_free(struct bpfrr_outfile *o)
{
	free(o->target);
	free(o->tmp);
	o->target = o->tmp = NULL;
	o->f = NULL;
}

void bpfrr_outfile_abort(struct bpfrr_outfile *o)
{
	if (o->f && !o->is_stdout)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	outfile_free(o);
}

int bpfrr_outfile_commit(struct bpfrr_outfile *o, char *err, size_t err_size)
{
	int e = 0;

	if (o->is_stdout) {
		int ret = bpfrr_stdout_check(err, err_size);

		outfile_free(o);
		return ret;
	}
	if (fflush(o->f) || ferror(o->f))
		e = errno ? errno : EIO;
	if (!e && o->tmp && fsync(fileno(o->f)))
		e = errno;
	if (fclose(o->f) && !e)
		e = errno;
	o->f = NULL;
	if (!e && o->tmp && rename(o->tmp, o->target))
		e = errno;
	if (e) {
		bpfrr_outfile_abort(o);
		return fail(err, err_size, e, o->path, "writing");
	}
	outfile_free(o);
	return 0;
}

int bpfrr_outfile_write(const char *path, const void *data, size_t len, char *err, size_t err_size)
{
	struct bpfrr_outfile o;
	int ret;

	ret = bpfrr_outfile_open(&o, path, err, err_size);
	if (ret)
		return ret;
	if (len && fwrite(data, 1, len, o.f) != len) {
		int e = errno ? errno : EIO;

		bpfrr_outfile_abort(&o);
		return fail(err, err_size, e, path, "writing");
	}
	return bpfrr_outfile_commit(&o, err, err_size);
}

int bpfrr_stdout_check(char *err, size_t err_size)
{
	int e = 0;

	errno = 0;
	if (fflush(stdout) || ferror(stdout))
		e = errno ? errno : EIO;
	if (e && err && err_size)
		snprintf(err, err_size, "standard output: %s", strerror(e));
	return -e;
}

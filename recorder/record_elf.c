// SPDX-License-Identifier: GPL-2.0-only
/*
 * record_elf.c - the BPF ELF objects a loader used (ELF records, trace
 * format 1.1), so that the translator has their .BTF.ext CO-RE records
 * (replayer/translate/pass_core.c).
 *
 * Two places a loader takes an object from:
 *  - a file it opens (bpf_object__open_file(), bpftool prog load): every
 *    open the recorder stops on is looked at; a regular file that starts
 *    with an ELF64 header of e_machine EM_BPF (247) is captured, read by
 *    the recorder through /proc/TID/root, at the open's entry (the loader
 *    reads those same bytes right after);
 *  - its executable (libbpf skeletons, `bpftool gen skeleton`, embed the
 *    .bpf.o bytes): after each exec, at the image's first bpf(), open or
 *    other call the recorder keeps (record_loop.c, scan_exe(); never for
 *    a process that makes none), /proc/TID/exe (but its code sections) is
 *    scanned for "\x7fELF"
 *    followed by a valid EM_BPF relocatable ELF64 header, and the object's
 *    extent (its section headers and every section it has in the file) is
 *    captured with BPFRR_ELF_F_EMBEDDED and its offset.
 * Each file is looked at once per trace (by device, inode, size and
 * modification time), files beyond REC_ELF_MAX_FILE are not read, and the
 * trace's blob deduplication stores identical objects once.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "record.h"

#ifndef EM_BPF
#define EM_BPF 247
#endif

#define REC_ELF_MAX_FILE	(64u << 20)	/* bigger files are neither read nor scanned */

struct rec_elf_file {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
};

struct rec_elf_state {
	struct rec_elf_file *seen;
	uint32_t nr_seen, cap_seen;
};

/* Has this file been looked at before?  (It is from now on.) */
static bool seen_before(struct rec_session *s, const struct stat *st)
{
	struct rec_elf_state *e = s->elf;
	uint32_t i;

	if (!e && !(e = s->elf = calloc(1, sizeof(*e))))
		return true;	/* no memory: look at nothing */
	for (i = 0; i < e->nr_seen; i++) {
		const struct rec_elf_file *f = &e->seen[i];

		if (f->dev == st->st_dev && f->ino == st->st_ino && f->size == st->st_size &&
		    f->mtime.tv_sec == st->st_mtim.tv_sec && f->mtime.tv_nsec == st->st_mtim.tv_nsec)
			return true;
	}
	if (!bpfrr_grow((void **)&e->seen, &e->cap_seen, e->nr_seen + 1, sizeof(*e->seen)))
		e->seen[e->nr_seen++] = (struct rec_elf_file){ st->st_dev, st->st_ino, st->st_size, st->st_mtim };
	return false;
}

void rec_elf_free(struct rec_session *s)
{
	if (s->elf)
		free(s->elf->seen);
	free(s->elf);
	s->elf = NULL;
}

/*
 * The ELF64 header at data into *eh, if it has a table of section headers
 * that lies within data[0, len); false otherwise (then *eh says nothing).
 */
static bool elf64_with_shdrs(const uint8_t *data, size_t len, Elf64_Ehdr *eh)
{
	if (len < sizeof(*eh))
		return false;
	memcpy(eh, data, sizeof(*eh));
	return !memcmp(eh->e_ident, ELFMAG, SELFMAG) && eh->e_ident[EI_CLASS] == ELFCLASS64 &&
	       eh->e_shentsize == sizeof(Elf64_Shdr) && eh->e_shnum && eh->e_shoff <= len &&
	       (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) <= len - eh->e_shoff;
}

/* Section header i of an image elf64_with_shdrs() accepted. */
static Elf64_Shdr elf64_shdr(const uint8_t *data, const Elf64_Ehdr *eh, size_t i)
{
	Elf64_Shdr sh;

	memcpy(&sh, data + eh->e_shoff + i * sizeof(sh), sizeof(sh));
	return sh;
}

/* Whether section sh's bytes (in the file) lie within data[0, len). */
static bool section_in(const Elf64_Shdr *sh, size_t len)
{
	return sh->sh_offset <= len && sh->sh_size <= len - sh->sh_offset;
}

size_t rec_elf_extent(const void *data, size_t len)
{
	const uint8_t *p = data;
	Elf64_Ehdr eh;
	uint64_t end, i;

	if (!elf64_with_shdrs(p, len, &eh) || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_ident[EI_VERSION] != EV_CURRENT || eh.e_machine != EM_BPF || eh.e_type != ET_REL ||
	    eh.e_ehsize != sizeof(eh) || eh.e_shstrndx >= eh.e_shnum || eh.e_shoff < sizeof(eh))
		return 0;
	end = eh.e_shoff + (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr);
	for (i = 1; i < eh.e_shnum; i++) {
		Elf64_Shdr sh = elf64_shdr(p, &eh, i);

		if (sh.sh_type == SHT_NOBITS || sh.sh_type == SHT_NULL)
			continue;
		if (!section_in(&sh, len))
			return 0;	/* not an object that fits in what follows */
		if (sh.sh_offset + sh.sh_size > end)
			end = sh.sh_offset + sh.sh_size;
	}
	return (size_t)end;
}

/* The whole of a regular file of at most REC_ELF_MAX_FILE bytes, malloc'ed; NULL if not. */
static uint8_t *read_file(int fd, const struct stat *st, size_t *len)
{
	uint8_t *buf;
	size_t got = 0;

	if (!S_ISREG(st->st_mode) || st->st_size <= 0 || (uint64_t)st->st_size > REC_ELF_MAX_FILE)
		return NULL;
	buf = malloc((size_t)st->st_size);
	if (!buf)
		return NULL;
	while (got < (size_t)st->st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st->st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (got != (size_t)st->st_size) {
		free(buf);
		return NULL;
	}
	*len = got;
	return buf;
}

static void write_elf(struct rec_session *s, struct rec_task *t, uint64_t seq, uint32_t flags, const char *path,
		      const uint8_t *data, size_t offset, size_t len)
{
	struct bpfrr_rec_elf rec = {
		.seq = seq, .tid = (uint32_t)t->tid, .flags = flags, .offset = offset, .path = path,
	};
	int err;

	rec.blob = bpfrr_trace_put_blob(s->w, data + offset, len);
	if (!rec.blob) {
		rec_write_failed(s, -errno);
		return;
	}
	if ((err = bpfrr_trace_write_elf(s->w, &rec)))
		rec_write_failed(s, err);
}

void rec_elf_open(struct rec_session *s, struct rec_task *t, const char *path)
{
	Elf64_Ehdr eh;
	struct stat st;
	char *where;
	uint8_t *data;
	size_t len, size;
	int fd;

	if (!path || path[0] != '/' || !strncmp(path, "/proc/", 6) || !strncmp(path, "/sys/", 5) ||
	    !strncmp(path, "/dev/", 5))
		return;
	if (asprintf(&where, "/proc/%d/root%s", (int)t->tid, path) < 0)
		return;
	/* only regular files are opened: opening a device or a FIFO may do something */
	fd = stat(where, &st) || !S_ISREG(st.st_mode) ? -1 :
	     open(where, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	free(where);
	if (fd < 0)
		return;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size < sizeof(eh) ||
	    pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_machine != EM_BPF || seen_before(s, &st)) {
		close(fd);
		return;
	}
	data = read_file(fd, &st, &len);
	close(fd);
	if (!data)
		return;
	size = rec_elf_extent(data, len);
	if (size)
		write_elf(s, t, 0, 0, path, data, 0, len);	/* the file as the loader reads it */
	else
		rec_note(s, BPFRR_NOTE_WARNING, 0, t->tid, "%s: an EM_BPF ELF file that is not a valid object",
			 path);
	free(data);
}

/* Find and record the objects in data[from, to). */
static void scan_range(struct rec_session *s, struct rec_task *t, const char *path, const uint8_t *data,
		       size_t len, size_t from, size_t to)
{
	static const char magic[4] = { 0x7f, 'E', 'L', 'F' };
	size_t off = from, size;

	while (off < to && off + sizeof(Elf64_Ehdr) <= len) {
		const uint8_t *hit = memmem(data + off, to - off, magic, sizeof(magic));

		if (!hit)
			break;
		off = (size_t)(hit - data);
		if ((size = rec_elf_extent(hit, len - off))) {
			write_elf(s, t, 0, BPFRR_ELF_F_EMBEDDED, path, data, off, size);
			off += size;
			continue;
		}
		off++;
	}
}

/*
 * Everything but the image's code: a skeleton's `static const char data[]`
 * is in .rodata, Go's and Rust's embedded bytes in their data sections, a
 * payload objcopy added in a section of its own or appended after the
 * image; a compiler puts none of these among instructions. Sections of
 * SHF_EXECINSTR are skipped: fx_onemap's 1.37 MB are 0.90 MB of .text.
 * False if the section headers are missing or do not describe the file in
 * its order (a stripped or odd image, then searched whole).
 */
static bool scan_but_code(struct rec_session *s, struct rec_task *t, const char *path, const uint8_t *data,
			  size_t len)
{
	Elf64_Ehdr eh;
	size_t i, from;
	int pass;

	if (!elf64_with_shdrs(data, len, &eh))
		return false;
	/* pass 0 checks that the code sections are in the file and in its order, pass 1 searches */
	for (pass = 0; pass < 2; pass++) {
		from = 1;	/* the image's own header is not a BPF object */
		for (i = 0; i < eh.e_shnum; i++) {
			Elf64_Shdr sh = elf64_shdr(data, &eh, i);

			if (!(sh.sh_flags & SHF_EXECINSTR) || sh.sh_type == SHT_NOBITS || !sh.sh_size)
				continue;
			if (!section_in(&sh, len) || sh.sh_offset < from)
				return false;
			if (pass)
				scan_range(s, t, path, data, len, from, sh.sh_offset);
			from = sh.sh_offset + sh.sh_size;
		}
		if (pass)
			scan_range(s, t, path, data, len, from, len);
	}
	return true;
}

/*
 * The executable mapped, not read: a static loader is 1 to 2 MB (fx_onemap
 * 1.4 MB, most of it code), and reading it into fresh heap memory took 8 to
 * 20 ms of every recording under TCG (--summary's "executable scans"): the
 * copy, and a page fault on every page of the new buffer.  The mapping
 * shares the page cache's pages, faulted in 16 at a time.  The objects are
 * found by memmem() for the ELF magic, not by memchr() for its first byte
 * (0x7f is common in code: 2419 times in fx_onemap).
 */
void rec_elf_exe(struct rec_session *s, struct rec_task *t)
{
	char where[64], *path;
	struct stat st;
	uint8_t *data;
	size_t len;
	bool mapped = false;
	int fd;

	snprintf(where, sizeof(where), "/proc/%d/exe", (int)t->tid);
	fd = open(where, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) || seen_before(s, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > REC_ELF_MAX_FILE) {
		close(fd);
		return;
	}
	len = (size_t)st.st_size;
	data = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (data != MAP_FAILED)
		mapped = true;
	else if (!(data = read_file(fd, &st, &len))) {
		close(fd);
		return;
	}
	close(fd);
	/* its path as the exec record read it (a child that has not exec'd: read now) */
	path = t->exe_path ? t->exe_path : rec_proc_exe(t->tid);
	t->exe_path = NULL;
	/* the whole image but its own header when its sections cannot say where code is */
	if (!scan_but_code(s, t, path ? path : where, data, len))
		scan_range(s, t, path ? path : where, data, len, 1, len);
	free(path);
	if (mapped)
		munmap(data, len);
	else
		free(data);
}

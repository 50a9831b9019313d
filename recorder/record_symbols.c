// SPDX-License-Identifier: GPL-2.0-only
/*
 * record_symbols.c - what the recording kernel's numbers name (issue 11).
 *
 * A trace replayed on another build of the kernel cannot use the numbers
 * this build gave the loader: BTF type ids, tracepoint ids, dynamic PMU
 * types and kernel addresses all differ.  So the recorder writes, right
 * after HEADER, one KERNEL record (the build's identity), and one SYMBOL
 * record for every such number a call is the first to carry: what it
 * names here (a BTF type's name and kind, a tracepoint's "category/name",
 * a PMU's name, a symbol and offset).  The naming is done in a thread of
 * its own, off the loader's path ("naming in the background" below).
 *
 * The numbers a call carries come from the ABI table (the attr's
 * KERNEL_BTF ids, lib/bpf_abi.h), the instructions (kfunc calls and ksym
 * loads, found by lib/bpf_disasm.h), kprobe_multi addresses and the
 * perf_event_attr of perf_event_open().  The names come from files, each
 * read once on first need (record_symbols.h); nothing here calls bpf()
 * (vmlinux's BTF may come through it: record_identity.c).
 * A module BTF fd is known by the name the recorder's identity query got
 * for it (record_identity.c hands every kernel BTF object over).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "bpf_disasm.h"
#include "grow.h"
#include "kernel_id.h"
#include "record.h"
#include "record_symbols.h"
#include "sha256.h"
#include "u64map.h"

#define UNKNOWN_MODULE		"?"	/* a module BTF the recorder could not name (see record_symbols.h) */

struct st_module {
	char *name;
	struct btf *btf;		/* split on vmlinux's; NULL if it could not be read */
};

struct st_ksym {
	uint64_t addr;
	const char *name;		/* into ksym_text */
	const char *module;		/* into ksym_text, "" for vmlinux */
	uint32_t line;			/* order in the file: the first of equal addresses wins */
};

/* A (kind, value, module) already written; chained by hash. */
struct st_seen {
	uint32_t kind;
	uint64_t value;
	char *module;
	uint32_t next;			/* index + 1 of the next in the chain, 0: none */
};

struct rec_symtab {
	char *root_btf, *root_notes, *root_tracefs, *root_pmus, *root_kallsyms;
	bool hash_btf;
	bool system_btf;		/* root_btf is the system's: vmlinux may come through bpf() */

	struct utsname uts;
	char build_id[BPFRR_BUILD_ID_HEX];

	bool vmlinux_tried;
	struct btf *vmlinux;
	struct st_module *mods;
	uint32_t nr_mods, cap_mods;

	struct bpfrr_u64map btf_objs;	/* BTF object id -> its name (malloc'ed char *) */
	uint32_t vmlinux_obj_id;	/* 0 until the recorder identified vmlinux's BTF */

	bool tp_loaded;
	struct bpfrr_u64map tps;	/* tracepoint id -> "category/name" (malloc'ed) */
	bool pmu_loaded;
	struct bpfrr_u64map pmus;	/* PMU type -> name (malloc'ed) */

	bool ksym_loaded;
	char *ksym_text;
	struct st_ksym *ksyms;
	uint32_t nr_ksyms, cap_ksyms;

	struct bpfrr_u64map seen_by_hash;	/* hash -> first index into seen */
	struct st_seen *seen;
	uint32_t nr_seen, cap_seen;
};

static char *dup_or(const char *s, const char *dflt)
{
	return strdup(s ? s : dflt);
}

struct rec_symtab *rec_symtab_new(const struct rec_symtab_roots *roots)
{
	static const struct rec_symtab_roots none;
	struct rec_symtab *st = calloc(1, sizeof(*st));

	if (!roots)
		roots = &none;
	if (!st)
		return NULL;
	st->root_btf = dup_or(roots->btf, "/sys/kernel/btf");
	st->root_notes = dup_or(roots->notes, "/sys/kernel/notes");
	st->root_tracefs = roots->tracefs ? strdup(roots->tracefs) : NULL;	/* NULL: both places */
	st->root_pmus = dup_or(roots->pmus, "/sys/bus/event_source/devices");
	st->root_kallsyms = dup_or(roots->kallsyms, "/proc/kallsyms");
	st->hash_btf = roots->hash_btf;
	st->system_btf = !roots->btf;
	if (!st->root_btf || !st->root_notes || (roots->tracefs && !st->root_tracefs) || !st->root_pmus ||
	    !st->root_kallsyms) {
		rec_symtab_free(st);
		return NULL;
	}
	return st;
}

static void free_map_strings(struct bpfrr_u64map *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		if (m->used[i])
			free((void *)(uintptr_t)m->vals[i]);
	bpfrr_u64map_free(m);
}

void rec_symtab_free(struct rec_symtab *st)
{
	uint32_t i;

	if (!st)
		return;
	for (i = 0; i < st->nr_mods; i++) {
		free(st->mods[i].name);
		btf__free(st->mods[i].btf);
	}
	free(st->mods);
	btf__free(st->vmlinux);
	free_map_strings(&st->btf_objs);
	free_map_strings(&st->tps);
	free_map_strings(&st->pmus);
	free(st->ksym_text);
	free(st->ksyms);
	for (i = 0; i < st->nr_seen; i++)
		free(st->seen[i].module);
	free(st->seen);
	bpfrr_u64map_free(&st->seen_by_hash);
	free(st->root_btf);
	free(st->root_notes);
	free(st->root_tracefs);
	free(st->root_pmus);
	free(st->root_kallsyms);
	free(st);
}

/* --- the build identity -------------------------------------------------------------- */

/* The GNU build id note of /sys/kernel/notes (a run of ELF notes), in hex; "" if none. */
static void find_build_id(struct rec_symtab *st)
{
	size_t len = 0;
	char *notes = rec_read_whole(st->root_notes, &len);

	bpfrr_build_id_from_notes(notes, notes ? len : 0, st->build_id, sizeof(st->build_id));
	free(notes);
}

/*
 * With a build id, the build is named at no cost: the BTF is only stat()ed
 * for its size (sysfs gives a binary attribute its size), not hashed.
 * Hashing it, a few MB, was most of a recording's start-up (about 85 ms of
 * `bpfrr record true`'s 107 ms under TCG); only a kernel without a build id
 * pays for it now.
 */
void rec_symtab_kernel(struct rec_symtab *st, struct bpfrr_rec_kernel *k)
{
	char path[4096];
	struct stat sb;
	uint64_t size;

	memset(k, 0, sizeof(*k));
	if (uname(&st->uts))
		memset(&st->uts, 0, sizeof(st->uts));
	k->release = st->uts.release;
	k->version = st->uts.version;
	k->machine = st->uts.machine;
	find_build_id(st);
	k->build_id = st->build_id;

	snprintf(path, sizeof(path), "%s/vmlinux", st->root_btf);
	if (st->build_id[0] && !st->hash_btf) {
		if (stat(path, &sb)) {
			k->flags |= BPFRR_KERNEL_F_NO_BTF;
			return;
		}
		k->btf_size = (uint32_t)sb.st_size;
		k->flags |= BPFRR_KERNEL_F_BTF_UNHASHED;
		return;
	}
	if (bpfrr_sha256_file(path, &size, k->btf_sha256)) {
		memset(k->btf_sha256, 0, sizeof(k->btf_sha256));
		k->flags |= BPFRR_KERNEL_F_NO_BTF;
		return;
	}
	k->btf_size = (uint32_t)size;
}

/* --- BTF ------------------------------------------------------------------------------ */

int rec_symtab_btf_object(struct rec_symtab *st, uint32_t id, const char *name)
{
	char *copy;

	if (!id || !name || !name[0] || rec_symtab_btf_object_name(st, id))
		return 0;
	copy = strdup(name);
	if (!copy || bpfrr_u64map_put(&st->btf_objs, id, (uintptr_t)copy)) {
		free(copy);
		return -ENOMEM;
	}
	if (!strcmp(name, "vmlinux"))
		st->vmlinux_obj_id = id;
	return 0;
}

uint32_t rec_symtab_vmlinux_obj_id(const struct rec_symtab *st)
{
	return st->vmlinux_obj_id;
}

const char *rec_symtab_btf_object_name(const struct rec_symtab *st, uint32_t id)
{
	uint64_t v;

	return bpfrr_u64map_get(&st->btf_objs, id, &v) ? (const char *)(uintptr_t)v : NULL;
}

/*
 * vmlinux BTF, parsed on the first id that needs it (NULL: none).  The
 * system's comes from the kernel in one copy (record_identity.c): sysfs
 * hands /sys/kernel/btf/vmlinux out a page per read(2), some 1400 reads
 * for the 5.5 MB of the patched guest kernel, tens of ms under TCG for
 * every recording of a load with a BTF id (runqlat, biolatency).  The file
 * is the fallback, and the only source under test roots.
 */
static struct btf *vmlinux_btf(struct rec_symtab *st)
{
	char path[4096];

	if (!st->vmlinux_tried) {
		st->vmlinux_tried = true;
		if (st->system_btf)
			st->vmlinux = rec_vmlinux_btf_copy(st->vmlinux_obj_id);
		if (!st->vmlinux) {
			snprintf(path, sizeof(path), "%s/vmlinux", st->root_btf);
			st->vmlinux = btf__parse(path, NULL);	/* NULL on failure (libbpf 1.x) */
		}
	}
	return st->vmlinux;
}

/* module's BTF, split on vmlinux's, parsed once (NULL: none) */
static struct btf *module_btf(struct rec_symtab *st, const char *module)
{
	struct st_module *m;
	char path[4096];
	uint32_t i;

	for (i = 0; i < st->nr_mods; i++)
		if (!strcmp(st->mods[i].name, module))
			return st->mods[i].btf;
	if (bpfrr_grow((void **)&st->mods, &st->cap_mods, st->nr_mods + 1, sizeof(*st->mods)))
		return NULL;
	m = &st->mods[st->nr_mods];
	m->name = strdup(module);
	if (!m->name)
		return NULL;
	m->btf = NULL;
	st->nr_mods++;
	/* a module name is one path component */
	if (!strchr(module, '/') && strcmp(module, ".") && strcmp(module, "..") && vmlinux_btf(st)) {
		snprintf(path, sizeof(path), "%s/%s", st->root_btf, module);
		m->btf = btf__parse_split(path, st->vmlinux);
	}
	return m->btf;
}

static void name_btf_id(struct rec_symtab *st, uint64_t value, const char *module, uint32_t obj_id,
			struct bpfrr_rec_symbol *sym)
{
	const struct btf_type *t = NULL;
	struct btf *btf;

	sym->module = module ? module : UNKNOWN_MODULE;
	sym->btf_obj_id = obj_id ? obj_id : module && !module[0] ? st->vmlinux_obj_id : 0;
	if (!module)
		return;
	btf = module[0] ? module_btf(st, module) : vmlinux_btf(st);
	if (btf && value && value <= UINT32_MAX)
		t = btf__type_by_id(btf, (uint32_t)value);
	if (!t)
		return;
	sym->btf_kind = btf_kind(t);
	sym->name = btf__name_by_offset(btf, t->name_off);
	if (!sym->name)
		sym->name = "";
}

/* id with its typedefs and modifiers (const, volatile, restrict, type tags) skipped */
static const struct btf_type *skip_mods(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	unsigned int depth = 0;

	while (t && (btf_is_mod(t) || btf_is_typedef(t)) && depth++ < 32)
		t = btf__type_by_id(btf, t->type);
	return t;
}

int rec_symtab_value_fds(struct rec_symtab *st, uint64_t value_type, const char *module, uint32_t *offsets,
			 unsigned int max)
{
	struct btf *btf = !module ? NULL : module[0] ? module_btf(st, module) : vmlinux_btf(st);
	const struct btf_type *value, *data = NULL, *ptr;
	const struct btf_member *m;
	uint32_t data_off = 0;
	unsigned int i, n = 0;

	if (!btf || !value_type || value_type > UINT32_MAX ||
	    !(value = btf__type_by_id(btf, (uint32_t)value_type)) || !btf_is_struct(value))
		return -ENOENT;
	/* struct bpf_struct_ops_NAME { struct bpf_struct_ops_common_value common; struct NAME data; } */
	m = btf_members(value);
	for (i = 0; i < btf_vlen(value); i++, m++) {
		const char *name = btf__name_by_offset(btf, m->name_off);

		if (name && !strcmp(name, "data")) {
			data = skip_mods(btf, m->type);
			data_off = btf_member_bit_offset(value, i) / 8;
			break;
		}
	}
	if (!data || !btf_is_struct(data))
		return -ENOENT;
	m = btf_members(data);
	for (i = 0; i < btf_vlen(data); i++, m++) {
		ptr = skip_mods(btf, m->type);
		if (!ptr || !btf_is_ptr(ptr) || !(ptr = skip_mods(btf, ptr->type)) || !btf_is_func_proto(ptr))
			continue;
		if (n == max)
			return -ENOENT;
		offsets[n++] = data_off + btf_member_bit_offset(data, i) / 8;
	}
	return (int)n;
}

/* --- tracepoints and PMUs ---------------------------------------------------------------- */

/* A small decimal number file under dirfd: 0 or -1. */
static int read_number_at(int dirfd, const char *path, uint64_t *val)
{
	char buf[32], *end;
	ssize_t n;
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	errno = 0;
	*val = strtoull(buf, &end, 10);
	return errno || end == buf ? -1 : 0;
}

/* Every events/CATEGORY/NAME/id under root: 0, or -1 if root has no events. */
static int scan_tracefs(struct rec_symtab *st, const char *root)
{
	char path[4096];
	struct dirent *cat, *ev;
	DIR *events, *catdir;
	int evfd, catfd;

	snprintf(path, sizeof(path), "%s/events", root);
	events = opendir(path);
	if (!events)
		return -1;
	evfd = dirfd(events);
	while ((cat = readdir(events))) {
		if (cat->d_name[0] == '.' || (cat->d_type != DT_DIR && cat->d_type != DT_UNKNOWN))
			continue;
		catfd = openat(evfd, cat->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (catfd < 0)
			continue;
		catdir = fdopendir(catfd);
		if (!catdir) {
			close(catfd);
			continue;
		}
		while ((ev = readdir(catdir))) {
			char idpath[512], *name;
			uint64_t id;

			if (ev->d_name[0] == '.' || (ev->d_type != DT_DIR && ev->d_type != DT_UNKNOWN))
				continue;
			snprintf(idpath, sizeof(idpath), "%s/id", ev->d_name);
			if (read_number_at(catfd, idpath, &id) || bpfrr_u64map_get(&st->tps, id, NULL))
				continue;
			if (asprintf(&name, "%s/%s", cat->d_name, ev->d_name) < 0)
				continue;
			if (bpfrr_u64map_put(&st->tps, id, (uintptr_t)name))
				free(name);
		}
		closedir(catdir);
	}
	closedir(events);
	return st->tps.nr ? 0 : -1;
}

int rec_symtab_tp_seen(struct rec_symtab *st, uint64_t id, const char *name)
{
	char *copy;

	if (bpfrr_u64map_get(&st->tps, id, NULL))
		return 0;
	copy = strdup(name);
	if (!copy || bpfrr_u64map_put(&st->tps, id, (uintptr_t)copy)) {
		free(copy);
		return -ENOMEM;
	}
	return 0;
}

const char *rec_symtab_tp_name(const struct rec_symtab *st, uint64_t id)
{
	uint64_t v;

	return bpfrr_u64map_get(&st->tps, id, &v) ? (const char *)(uintptr_t)v : NULL;
}

static void load_tracepoints(struct rec_symtab *st)
{
	if (st->tp_loaded)
		return;
	st->tp_loaded = true;
	if (st->root_tracefs) {
		scan_tracefs(st, st->root_tracefs);
		return;
	}
	if (scan_tracefs(st, "/sys/kernel/tracing"))
		scan_tracefs(st, "/sys/kernel/debug/tracing");
}

static void load_pmus(struct rec_symtab *st)
{
	struct dirent *de;
	DIR *d;

	if (st->pmu_loaded)
		return;
	st->pmu_loaded = true;
	d = opendir(st->root_pmus);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[512], *name;
		uint64_t type;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/type", de->d_name);
		if (read_number_at(dirfd(d), path, &type) || bpfrr_u64map_get(&st->pmus, type, NULL))
			continue;
		name = strdup(de->d_name);
		if (!name || bpfrr_u64map_put(&st->pmus, type, (uintptr_t)name))
			free(name);
	}
	closedir(d);
}

/* --- kallsyms ----------------------------------------------------------------------------- */

static int ksym_cmp(const void *a, const void *b)
{
	const struct st_ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/*
 * "ffffffff81234560 T do_sys_openat2" and "ffffffffc0a01000 t nf_conntrack_in\t[nf_conntrack]",
 * parsed in place.  Absolute and undefined symbols name no code; all
 * addresses 0 (kptr_restrict) leave the table empty.
 */
static void load_kallsyms(struct rec_symtab *st)
{
	char *p, *line, *end;
	uint32_t nr = 0;

	if (st->ksym_loaded)
		return;
	st->ksym_loaded = true;
	st->ksym_text = rec_read_whole(st->root_kallsyms, NULL);
	if (!st->ksym_text)
		return;
	for (line = st->ksym_text; *line; line = end) {
		struct st_ksym k = { .module = "" };
		char type, *name, *mod;

		end = strchr(line, '\n');
		if (end)
			*end++ = '\0';
		else
			end = line + strlen(line);
		k.addr = strtoull(line, &p, 16);
		if (p == line || *p != ' ' || !p[1] || p[2] != ' ')
			continue;
		type = p[1];
		name = p + 3;
		mod = strchr(name, '\t');
		if (mod) {
			*mod++ = '\0';
			if (*mod == '[') {
				char *close = strchr(++mod, ']');

				if (close)
					*close = '\0';
			}
			k.module = mod;
		}
		if (!k.addr || type == 'a' || type == 'A' || type == 'U' || !*name)
			continue;
		k.name = name;
		k.line = nr++;
		if (bpfrr_grow((void **)&st->ksyms, &st->cap_ksyms, st->nr_ksyms + 1, sizeof(*st->ksyms)))
			break;
		st->ksyms[st->nr_ksyms++] = k;
	}
	if (st->nr_ksyms)
		qsort(st->ksyms, st->nr_ksyms, sizeof(*st->ksyms), ksym_cmp);
}

/* The nearest symbol at or below addr (the first listed of those at its address), or NULL. */
static const struct st_ksym *ksym_at(struct rec_symtab *st, uint64_t addr)
{
	uint32_t lo = 0, hi;

	load_kallsyms(st);
	hi = st->nr_ksyms;
	if (!hi || st->ksyms[0].addr > addr)
		return NULL;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (st->ksyms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	while (lo && st->ksyms[lo - 1].addr == st->ksyms[lo].addr)
		lo--;
	return &st->ksyms[lo];
}

/* --- naming --------------------------------------------------------------------------------- */

void rec_symtab_name(struct rec_symtab *st, uint32_t kind, uint64_t value, const char *module,
		     uint32_t btf_obj_id, struct bpfrr_rec_symbol *sym)
{
	const struct st_ksym *k;
	uint64_t v;

	memset(sym, 0, sizeof(*sym));
	sym->kind = kind;
	sym->value = value;
	sym->name = "";
	sym->module = "";
	switch (kind) {
	case BPFRR_SYM_BTF_ID:
		name_btf_id(st, value, module, btf_obj_id, sym);
		break;
	case BPFRR_SYM_TP_ID:
		/* an id file the loader read names it; else every id file of tracefs */
		if (!bpfrr_u64map_get(&st->tps, value, NULL))
			load_tracepoints(st);
		if (bpfrr_u64map_get(&st->tps, value, &v))
			sym->name = (const char *)(uintptr_t)v;
		break;
	case BPFRR_SYM_PMU_TYPE:
		load_pmus(st);
		if (bpfrr_u64map_get(&st->pmus, value, &v))
			sym->name = (const char *)(uintptr_t)v;
		break;
	case BPFRR_SYM_KSYM_ADDR:
		k = ksym_at(st, value);
		if (k) {
			sym->name = k->name;
			sym->module = k->module;
			sym->offset = value - k->addr;
		}
		break;
	}
	if (!sym->name[0])
		sym->flags |= BPFRR_SYM_F_UNNAMED;
}

int rec_symtab_first(struct rec_symtab *st, uint32_t kind, uint64_t value, const char *module)
{
	uint64_t h, idx;
	struct st_seen *e;
	uint32_t i, first = 0;

	if (!module)
		module = UNKNOWN_MODULE;
	h = bpfrr_u64map_symbol_key(kind, value, module);
	if (bpfrr_u64map_get(&st->seen_by_hash, h, &idx)) {
		first = (uint32_t)idx + 1;
		for (i = first; i; i = st->seen[i - 1].next)
			if (st->seen[i - 1].kind == kind && st->seen[i - 1].value == value &&
			    !strcmp(st->seen[i - 1].module, module))
				return 0;
	}
	if (bpfrr_grow((void **)&st->seen, &st->cap_seen, st->nr_seen + 1, sizeof(*st->seen)))
		return -ENOMEM;
	e = &st->seen[st->nr_seen];
	e->module = strdup(module);
	if (!e->module || bpfrr_u64map_put(&st->seen_by_hash, h, st->nr_seen)) {
		free(e->module);
		return -ENOMEM;
	}
	e->kind = kind;
	e->value = value;
	e->next = first;
	st->nr_seen++;
	return 1;
}

/* --- naming in the background ------------------------------------------------------------ */

/*
 * Naming a number can cost tens of ms under TCG: vmlinux's BTF is a 5.5 MB
 * copy and parse (40 to 50 ms of a recording of runqlat, whose first line
 * waited for it), kallsyms and a scan of tracefs or the PMUs a few more.
 * The loader used to wait for it at the stop of the call that carried the
 * number.  Now a thread of the session's own does it, at SCHED_IDLE: on
 * one CPU it runs when the loader and the recorder both wait (a tool
 * sleeping after its attachments), else beside them on another CPU, and
 * at the latest at the end, when the main thread waits for it.
 *
 * The thread has a symbol table of its own (st): the session's stays the
 * main thread's, for the first-seen set, the BTF objects the identity
 * queries met, the tracepoint ids the loader read, and struct_ops value
 * types, whose fd places the walker needs at the call (so those are named
 * at once).  What the main thread knows goes along with each request.
 * The trace writer stays the main thread's too: it writes what was named
 * after each stop (rec_symbols_drain) and at the end.  So a SYMBOL record
 * follows the call that first carried its number; readers take symbols
 * from the whole trace (docs/trace-format.md).  The thread starts on the
 * first request: a recording without numbers has none.
 */
struct sym_req {
	uint32_t kind;
	uint64_t value;
	char *module;			/* NULL: a module the recorder could not learn */
	uint32_t btf_obj_id;
	char *tp_name;			/* a tracepoint id the loader read: its name, else NULL */
	uint64_t seq;
	struct bpfrr_rec_symbol sym;	/* once named: strings in the namer's table */
};

struct rec_namer {
	pthread_t thread;
	bool started;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stop;			/* under lock: name what is queued, then end */
	struct rec_symtab *st;		/* the thread's */
	struct sym_req *reqs;		/* under lock; [0, named) named, of which [0, written) written */
	uint32_t nr, cap;
	_Atomic uint32_t named;
	uint32_t written;		/* the main thread's */
	_Atomic uint64_t busy_ns;	/* the thread's CPU time naming */
};

/* The calling thread's CPU time: the namer's wall time at SCHED_IDLE is mostly others running. */
static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void free_req(struct sym_req *r)
{
	free(r->module);
	free(r->tp_name);
}

static void *namer_main(void *arg)
{
	struct rec_namer *n = arg;
	struct sched_param idle = { 0 };

	/* failing that, it runs at the loader's priority: slower for the loader, the same trace */
	pthread_setschedparam(pthread_self(), SCHED_IDLE, &idle);
	pthread_mutex_lock(&n->lock);
	for (;;) {
		struct sym_req r;
		uint32_t i = atomic_load(&n->named);
		uint64_t t0;

		if (i == n->nr) {
			if (n->stop)
				break;
			pthread_cond_wait(&n->wake, &n->lock);
			continue;
		}
		r = n->reqs[i];		/* a copy: main may move the array while this one names */
		pthread_mutex_unlock(&n->lock);

		t0 = thread_cpu_ns();
		if (r.tp_name)
			rec_symtab_tp_seen(n->st, r.value, r.tp_name);
		if (r.kind == BPFRR_SYM_BTF_ID && r.module && !r.module[0] && r.btf_obj_id)
			rec_symtab_btf_object(n->st, r.btf_obj_id, "vmlinux");
		rec_symtab_name(n->st, r.kind, r.value, r.module, r.btf_obj_id, &r.sym);
		r.sym.seq = r.seq;
		atomic_fetch_add(&n->busy_ns, thread_cpu_ns() - t0);

		pthread_mutex_lock(&n->lock);
		n->reqs[i].sym = r.sym;
		atomic_store(&n->named, i + 1);
	}
	pthread_mutex_unlock(&n->lock);
	return NULL;
}

/* The thread, started on first need with every signal blocked (the session's handlers are the main thread's). */
static struct rec_namer *namer_get(struct rec_session *s)
{
	struct rec_namer *n = s->namer;
	sigset_t all, old;

	if (n)
		return n->started ? n : NULL;
	/* naming on the main thread, as before: for strace without -f, and for measuring the difference */
	if (s->opt->name_inline)
		return NULL;
	n = s->namer = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	pthread_mutex_init(&n->lock, NULL);
	pthread_cond_init(&n->wake, NULL);
	n->st = rec_symtab_new(NULL);
	if (!n->st)
		return NULL;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	n->started = !pthread_create(&n->thread, NULL, namer_main, n);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return n->started ? n : NULL;
}

static void write_symbol(struct rec_session *s, const struct bpfrr_rec_symbol *sym)
{
	int err = bpfrr_trace_write_symbol(s->w, sym);

	if (err)
		rec_write_failed(s, err);
}

void rec_symbols_drain(struct rec_session *s)
{
	struct rec_namer *n = s->namer;

	if (!n || n->written == atomic_load(&n->named))
		return;
	pthread_mutex_lock(&n->lock);
	for (; n->written < atomic_load(&n->named); n->written++)
		write_symbol(s, &n->reqs[n->written].sym);
	pthread_mutex_unlock(&n->lock);
}

/* Waits for the thread to name everything queued, writes it, frees the namer. */
static void namer_end(struct rec_session *s)
{
	struct rec_namer *n = s->namer;
	uint32_t i;

	if (!n)
		return;
	if (n->started) {
		pthread_mutex_lock(&n->lock);
		n->stop = true;
		pthread_cond_signal(&n->wake);
		pthread_mutex_unlock(&n->lock);
		pthread_join(n->thread, NULL);
		rec_symbols_drain(s);
	}
	s->times.symbols_bg = atomic_load(&n->busy_ns);
	for (i = 0; i < n->nr; i++)
		free_req(&n->reqs[i]);
	free(n->reqs);
	rec_symtab_free(n->st);
	pthread_cond_destroy(&n->wake);
	pthread_mutex_destroy(&n->lock);
	free(n);
	s->namer = NULL;
}

/* Queues (kind, value, module) for the thread; 0, or -errno if it cannot or should not (then the caller names it). */
static int namer_queue(struct rec_session *s, const struct rec_call *c, uint32_t kind, uint64_t value,
		       const char *module, uint32_t btf_obj_id)
{
	struct rec_namer *n = namer_get(s);
	struct sym_req r = { kind, value, NULL, btf_obj_id, NULL, c->seq, { 0 } };
	const char *tp = kind == BPFRR_SYM_TP_ID ? rec_symtab_tp_name(s->symtab, value) : NULL;
	int err = 0;

	if (!n)
		return -ENOMEM;
	if ((module && !(r.module = strdup(module))) || (tp && !(r.tp_name = strdup(tp)))) {
		free_req(&r);
		return -ENOMEM;
	}
	/* vmlinux's object id as the session knows it now, as naming it here would have */
	if (kind == BPFRR_SYM_BTF_ID && !btf_obj_id && module && !module[0])
		r.btf_obj_id = rec_symtab_vmlinux_obj_id(s->symtab);
	pthread_mutex_lock(&n->lock);
	if (bpfrr_grow((void **)&n->reqs, &n->cap, n->nr + 1, sizeof(*n->reqs)))
		err = -ENOMEM;
	else
		n->reqs[n->nr++] = r;
	pthread_cond_signal(&n->wake);
	pthread_mutex_unlock(&n->lock);
	if (err)
		free_req(&r);
	return err;
}

/* --- the recording session ---------------------------------------------------------------- */

void rec_symbols_start(struct rec_session *s)
{
	struct bpfrr_rec_kernel k;
	int err;

	s->symtab = rec_symtab_new(NULL);
	if (!s->symtab)
		return;
	rec_symtab_kernel(s->symtab, &k);
	err = bpfrr_trace_write_kernel(s->w, &k);
	if (err)
		rec_write_failed(s, err);
}

void rec_symbols_end(struct rec_session *s)
{
	namer_end(s);
	rec_symtab_free(s->symtab);
	s->symtab = NULL;
}

void rec_symbols_btf_object(struct rec_session *s, uint32_t id, const char *name)
{
	if (s->symtab)
		rec_symtab_btf_object(s->symtab, id, name);
}

/*
 * One SYMBOL record for (kind, value, module) if no earlier call carried it:
 * queued for the background thread; a struct_ops value type, whose fd places
 * go with it, named at once (the walker of this call needed its BTF already).
 */
static void emit_sym(struct rec_session *s, const struct rec_call *c, uint32_t kind, uint64_t value,
		     const char *module, uint32_t btf_obj_id, bool struct_ops)
{
	struct bpfrr_rec_symbol sym;
	int err = rec_symtab_first(s->symtab, kind, value, module);

	if (err <= 0) {
		if (err)
			rec_write_failed(s, err);
		return;
	}
	if (!struct_ops && !namer_queue(s, c, kind, value, module, btf_obj_id))
		return;
	rec_symtab_name(s->symtab, kind, value, module, btf_obj_id, &sym);
	if (struct_ops) {
		int n = rec_symtab_value_fds(s->symtab, value, module, sym.value_fds, BPFRR_SYM_VALUE_FDS_MAX);

		if (n >= 0) {
			sym.flags |= BPFRR_SYM_F_VALUE_FDS;
			sym.nr_value_fds = (uint32_t)n;
		}
	}
	sym.seq = c->seq;
	write_symbol(s, &sym);
}

static void emit(struct rec_session *s, const struct rec_call *c, uint32_t kind, uint64_t value,
		 const char *module, uint32_t btf_obj_id)
{
	emit_sym(s, c, kind, value, module, btf_obj_id, false);
}

/*
 * The module of the BTF object behind the tracee's fd: its name from the
 * identity query ("" for vmlinux), NULL if the recorder does not know it.
 */
static const char *btf_fd_module(struct rec_session *s, struct rec_task *t, int fd, uint32_t *obj_id)
{
	struct rec_fd *e = rec_fdtab_lookup(t->fdtab, fd);
	const char *name;

	*obj_id = 0;
	if (!e || e->kind != BPFRR_OBJ_BTF || !e->kernel_id)
		return NULL;
	*obj_id = e->kernel_id;
	name = rec_symtab_btf_object_name(s->symtab, e->kernel_id);
	return name && !strcmp(name, "vmlinux") ? "" : name;
}

struct insn_refs {
	struct rec_session *s;
	struct rec_task *t;
	const struct rec_call *c;
	uint64_t fd_array;
};

/* The disassembler's hook, used to find the refs: a kfunc call or a ksym load names a kernel BTF id. */
static int on_insn_ref(void *ctx, const struct bpfrr_disasm_ref *ref, char *buf, size_t size)
{
	struct insn_refs *ir = ctx;
	const char *module = "";
	uint32_t obj_id = 0;
	int32_t fd = -1;

	(void)buf;
	(void)size;
	if (ref->type != BPFRR_DREF_BTF_ID && ref->type != BPFRR_DREF_KFUNC)
		return 0;
	if (ref->type == BPFRR_DREF_BTF_ID && ref->fd)
		fd = ref->fd;			/* the module BTF fd itself */
	else if (ref->type == BPFRR_DREF_KFUNC && ref->fd &&
		 (!ir->fd_array || rec_mem_read(ir->t->tid, ir->fd_array + 4ull * (uint32_t)ref->fd, &fd, 4)))
		fd = -2;			/* an fd_array slot the recorder cannot read */
	if (fd != -1)
		module = fd >= 0 ? btf_fd_module(ir->s, ir->t, fd, &obj_id) : NULL;
	emit(ir->s, ir->c, BPFRR_SYM_BTF_ID, ref->btf_id, module, obj_id);
	return 0;
}

static const struct rec_region *entry_region(const struct rec_call *c, uint8_t content, const char *path)
{
	size_t i;

	for (i = 0; i < c->nr_regions; i++) {
		const struct rec_region *r = &c->regions[i];

		if (r->r.phase == BPFRR_PHASE_ENTRY && r->r.content == content && r->data &&
		    (!path || (r->r.path && !strcmp(r->r.path, path))))
			return r;
	}
	return NULL;
}

static void name_insns(struct rec_session *s, struct rec_task *t, struct rec_call *c)
{
	const struct rec_region *insns = entry_region(c, BPFRR_CONTENT_INSNS, NULL);
	const struct bpfrr_field *fa = bpfrr_abi_cmd_field(c->cmd, "fd_array");
	struct insn_refs ir = { s, t, c, fa ? bpfrr_abi_field_get(fa, c->attr, c->attr_len) : 0 };
	const struct bpfrr_disasm_opts opts = { on_insn_ref, &ir };
	size_t cnt, i;
	char line[256];

	if (!insns)
		return;
	cnt = insns->r.len / BPFRR_INSN_SIZE;
	for (i = 0; i < cnt;)
		i += (size_t)bpfrr_disasm_insn(insns->data, cnt, i, &opts, line, sizeof(line));
}

/* kprobe_multi by addresses (not by symbol names): each a kernel address */
static void name_kprobe_multi(struct rec_session *s, struct rec_task *t, struct rec_call *c, uint32_t variant)
{
	const struct bpfrr_field *addrs = bpfrr_abi_cmd_field(c->cmd, "link_create.kprobe_multi.addrs");
	const struct bpfrr_field *syms = bpfrr_abi_cmd_field(c->cmd, "link_create.kprobe_multi.syms");
	const struct bpfrr_field *cnt_f = bpfrr_abi_cmd_field(c->cmd, "link_create.kprobe_multi.cnt");
	const struct rec_region *r;
	uint64_t addr, cnt, i;

	if (!addrs || !syms || !cnt_f || !bpfrr_abi_field_applies(addrs, variant) ||
	    !bpfrr_abi_field_get(addrs, c->attr, c->attr_len) || bpfrr_abi_field_get(syms, c->attr, c->attr_len))
		return;
	cnt = bpfrr_abi_field_get(cnt_f, c->attr, c->attr_len);
	r = entry_region(c, BPFRR_CONTENT_U64_ARRAY, "attr.link_create.kprobe_multi.addrs");
	for (i = 0; i < cnt && i < BPFRR_ABI_ARRAY_MAX; i++) {
		if (r && (i + 1) * 8 <= r->r.len)
			memcpy(&addr, (const uint8_t *)r->data + i * 8, 8);
		else if (rec_mem_read(t->tid, bpfrr_abi_field_get(addrs, c->attr, c->attr_len) + i * 8, &addr, 8))
			break;
		emit(s, c, BPFRR_SYM_KSYM_ADDR, addr, "", 0);
	}
}

void rec_symbols_bpf(struct rec_session *s, struct rec_task *t, struct rec_call *c,
		     const struct bpfrr_abi_env *env)
{
	const struct bpfrr_cmd_desc *d = bpfrr_abi_cmd(c->cmd);
	unsigned int i;

	if (!s->symtab || !d || c->attr_unreadable || !c->attr_len)
		return;
	for (i = 0; i < d->attr->nr_fields; i++) {
		const struct bpfrr_field *f = &d->attr->fields[i];
		const char *module = "";
		uint32_t obj_id = 0;
		int module_fd;

		if (!bpfrr_abi_kernel_btf_id(c->cmd, f, c->attr, c->attr_len, env, &module_fd))
			continue;
		if (module_fd >= 0)
			module = btf_fd_module(s, t, module_fd, &obj_id);
		emit_sym(s, c, BPFRR_SYM_BTF_ID, bpfrr_abi_field_get(f, c->attr, c->attr_len), module, obj_id,
			 /* the kernel takes this id only for a BPF_MAP_TYPE_STRUCT_OPS map */
			 f->flags & BPFRR_FIELDF_STRUCT_OPS_VALUE);
	}
	if (c->cmd == BPFRR_CMD_PROG_LOAD)
		name_insns(s, t, c);
	if (c->cmd == BPFRR_CMD_LINK_CREATE)
		name_kprobe_multi(s, t, c, bpfrr_abi_cmd_variant_env(c->cmd, c->attr, c->attr_len, env));
}

void rec_symbols_sys(struct rec_session *s, struct rec_task *t, struct rec_call *c)
{
	struct perf_event_attr pa;
	uint32_t size;

	if (!s->symtab || c->sys != BPFRR_SYS_PERF_EVENT_OPEN)
		return;
	memset(&pa, 0, sizeof(pa));
	if (rec_mem_read(t->tid, c->args[0], &pa, offsetof(struct perf_event_attr, config1)))
		return;
	size = pa.size ? pa.size : PERF_ATTR_SIZE_VER0;
	if (size > offsetof(struct perf_event_attr, config2) + sizeof(pa.config2))
		size = offsetof(struct perf_event_attr, config2) + sizeof(pa.config2);
	if (size > offsetof(struct perf_event_attr, config1) &&
	    rec_mem_read(t->tid, c->args[0], &pa, size))
		return;
	if (pa.type == PERF_TYPE_TRACEPOINT)
		emit(s, c, BPFRR_SYM_TP_ID, pa.config, "", 0);
	if (pa.type < PERF_TYPE_MAX)
		return;
	emit(s, c, BPFRR_SYM_PMU_TYPE, pa.type, "", 0);
	/* the kprobe PMU without a function name: config2 is the probed address */
	if (pa.type == s->kprobe_type && !pa.config1 && pa.config2)
		emit(s, c, BPFRR_SYM_KSYM_ADDR, pa.config2, "", 0);
}

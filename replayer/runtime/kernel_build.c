// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel_build.c - the running kernel's build identity and symbols (see
 * kernel_build.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "header_runtime.h"
#include "kernel_build.h"
#include "sha256.h"

/* Release, machine, build id and BTF size; the BTF's SHA-256 only when hash is true. */
static int read_running(struct bpfrr_kernel_build *b, bool hash)
{
	struct utsname u;
	struct stat st;
	uint64_t size;
	int ret;

	memset(b, 0, sizeof(*b));
	if (uname(&u))
		return -errno;
	snprintf(b->release, sizeof(b->release), "%s", u.release);
	snprintf(b->machine, sizeof(b->machine), "%s", u.machine);
	bpfrr_build_id_read(BPFRR_KERNEL_NOTES, b->build_id, sizeof(b->build_id));	/* "" if none */
	if (!hash) {
		/* sysfs gives the attribute its size: the BTF's bytes, as the recorder's stat */
		if (stat(BPFRR_VMLINUX_BTF, &st))
			return errno == ENOENT ? 0 : -errno;
		b->btf_size = (uint32_t)st.st_size;
		return 0;
	}
	b->btf_hashed = true;
	ret = bpfrr_sha256_file(BPFRR_VMLINUX_BTF, &size, b->btf_sha256);
	if (ret == -ENOENT) {
		/* a kernel without BTF: size 0, checksum zero, as the recorder says */
		memset(b->btf_sha256, 0, sizeof(b->btf_sha256));
		return 0;
	}
	if (ret)
		return ret;
	b->btf_size = (uint32_t)size;
	return 0;
}

int bpfrr_kernel_build_running(struct bpfrr_kernel_build *b)
{
	return read_running(b, true);
}

static struct bpfrr_kernel_build running;
static int running_state;	/* 0 not read, 1 read, -errno unreadable */

int bpfrr_kernel_build_current(const struct bpfrr_kernel_build **b)
{
	if (!running_state) {
		running_state = read_running(&running, false);
		if (!running_state)
			running_state = 1;
	}
	*b = running_state > 0 ? &running : NULL;
	return running_state > 0 ? 0 : running_state;
}

/* The running kernel's BTF hashed into the shared identity, once: 0 or -errno. */
static int hash_running(void)
{
	struct bpfrr_kernel_build hashed;
	int ret;

	if (running.btf_hashed)
		return 0;
	ret = read_running(&hashed, true);
	if (ret)
		return ret;
	running = hashed;
	return 0;
}

bool bpfrr_rt_same_build(const struct bpfrr_ir *ir)
{
	const struct bpfrr_kernel_build *cur;
	struct bpfrr_kernel_ident recorded, run;
	enum bpfrr_build_match m;

	if (!ir->kernel.known || bpfrr_kernel_build_current(&cur))
		return false;
	recorded = (struct bpfrr_kernel_ident){
		.release = ir->kernel.release, .build_id = ir->kernel.build_id, .btf_size = ir->kernel.btf_size,
		.btf_sha256 = ir->kernel.flags & BPFRR_IR_KERNEL_BTF_UNHASHED ? NULL : ir->kernel.btf_sha256,
	};
	run = (struct bpfrr_kernel_ident){
		.release = running.release, .build_id = running.build_id, .btf_size = running.btf_size,
		.btf_sha256 = running.btf_hashed ? running.btf_sha256 : NULL,
	};
	m = bpfrr_kernel_build_match(&recorded, &run);
	if (m == BPFRR_BUILD_UNDECIDED && recorded.btf_sha256 && !running.btf_hashed && !hash_running()) {
		run.btf_size = running.btf_size;
		run.btf_sha256 = running.btf_sha256;
		m = bpfrr_kernel_build_match(&recorded, &run);
	}
	/* undecided: a recording named by its build id only, on a kernel without one */
	return m == BPFRR_BUILD_SAME;
}

const char *bpfrr_kernel_build_desc(const char *release, const char *build_id, uint32_t btf_size,
				    const uint8_t *sha, char *buf, size_t size)
{
	if (build_id && build_id[0])
		snprintf(buf, size, "%s (build id %.16s..., BTF %" PRIu32 " bytes)", release ? release : "?",
			 build_id, btf_size);
	else if (sha)
		snprintf(buf, size, "%s (BTF %" PRIu32 " bytes, sha256 %02x%02x%02x%02x%02x%02x%02x%02x...)",
			 release ? release : "?", btf_size, sha[0], sha[1], sha[2], sha[3], sha[4], sha[5], sha[6],
			 sha[7]);
	else
		snprintf(buf, size, "%s (BTF %" PRIu32 " bytes)", release ? release : "?", btf_size);
	return buf;
}

const char *bpfrr_arch_name(uint32_t e_machine)
{
	switch (e_machine) {
	case 62: return "x86_64";
	case 183: return "aarch64";
	}
	return NULL;
}

uint32_t bpfrr_kernel_machine_arch(const char **name)
{
	static struct utsname u;
	static bool have;

	if (!have && uname(&u))
		return 0;
	have = true;
	if (name)
		*name = u.machine;
	if (!strcmp(u.machine, "x86_64"))
		return 62;
	if (!strcmp(u.machine, "aarch64") || !strcmp(u.machine, "arm64"))
		return 183;
	return 0;
}

/* --- symbols ----------------------------------------------------------------------------- */

struct ksym {
	const char *name;
	const char *module;	/* "" for vmlinux */
	uint64_t addr;
	size_t line;		/* its place in the file: of equal names, the first wins */
};

struct bpfrr_symbols {
	struct btf *vmlinux;
	int btf_err;		/* 0 not tried yet, 1 parsed, -errno */
	char *kallsyms;		/* the file, its lines cut in place */
	struct ksym *syms;	/* sorted by name, then module */
	size_t nr_syms;
	int ksym_err;		/* 0 not tried yet, 1 read, -errno */
	bool ksym_hidden;	/* every address read 0 (kptr_restrict) */
};

struct bpfrr_symbols *bpfrr_symbols_new(void)
{
	return calloc(1, sizeof(struct bpfrr_symbols));
}

void bpfrr_symbols_free(struct bpfrr_symbols *s)
{
	if (!s)
		return;
	btf__free(s->vmlinux);
	free(s->syms);
	free(s->kallsyms);
	free(s);
}

struct btf *bpfrr_symbols_vmlinux(struct bpfrr_symbols *s, int *err)
{
	if (!s->btf_err) {
		s->vmlinux = btf__parse_raw(BPFRR_VMLINUX_BTF);
		s->btf_err = s->vmlinux ? 1 : -errno;
		if (!s->btf_err)
			s->btf_err = -EINVAL;
	}
	*err = s->btf_err < 0 ? s->btf_err : 0;
	return s->vmlinux;
}

static int cmp_name(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->module, y->module);
}

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;
	int c = cmp_name(a, b);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* every line of /proc/kallsyms, sorted by name (header_runtime.h cuts each) */
static int read_kallsyms(struct bpfrr_symbols *s)
{
	size_t len = 0, cap = 0;
	char *line, *next;
	uint8_t *data = NULL;
	bool any_addr = false;
	int ret;

	ret = bpfrr_rt_read_file(BPFRR_KALLSYMS, &data, &len);
	if (ret)
		return ret;
	s->kallsyms = realloc(data, len + 1);
	if (!s->kallsyms) {
		free(data);
		return -ENOMEM;
	}
	s->kallsyms[len] = '\0';
	for (line = s->kallsyms; line && *line; line = next) {
		char *name, *mod;
		uint64_t addr;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (bpfrr_rt_kallsyms_line(line, &addr, &name, &mod))
			continue;
		if (s->nr_syms == cap) {
			struct ksym *n = realloc(s->syms, (cap ? cap * 2 : 65536) * sizeof(*n));

			if (!n)
				return -ENOMEM;
			s->syms = n;
			cap = cap ? cap * 2 : 65536;
		}
		s->syms[s->nr_syms] = (struct ksym){ name, mod, addr, s->nr_syms };
		s->nr_syms++;
		any_addr |= addr != 0;
	}
	s->ksym_hidden = s->nr_syms && !any_addr;
	qsort(s->syms, s->nr_syms, sizeof(*s->syms), cmp_ksym);
	return 0;
}

static const struct ksym *find_ksym(const struct bpfrr_symbols *s, const char *name, const char *module)
{
	struct ksym key = { name, module, 0, 0 };
	const struct ksym *k = bsearch(&key, s->syms, s->nr_syms, sizeof(*s->syms), cmp_name);

	/* names repeat (static functions of several files): the first of them in the file */
	while (k && k > s->syms && !cmp_name(k - 1, &key))
		k--;
	return k;
}

int bpfrr_symbols_resolve(struct bpfrr_symbols *s, const struct bpfrr_ir_resolve *r, uint64_t *val, char *why,
			  size_t why_size)
{
	const char *module = r->module ? r->module : "";
	int ret;

	if (r->kind == BPFRR_IR_RESOLVE_BTF_ID) {
		int32_t id;

		if (*module) {
			/* the translator emits vmlinux ids only: a module's id needs its BTF fd too */
			snprintf(why, why_size, "is in module %s, whose BTF bpfrr does not replay", module);
			return -EOPNOTSUPP;
		}
		if (!bpfrr_symbols_vmlinux(s, &ret)) {
			snprintf(why, why_size, "cannot be looked up: %s: %s", BPFRR_VMLINUX_BTF, strerror(-ret));
			return ret;
		}
		id = btf__find_by_name_kind(s->vmlinux, r->name, r->btf_kind);
		if (id <= 0) {
			snprintf(why, why_size, "is not in this kernel's BTF");
			return -ENOENT;
		}
		*val = (uint64_t)id;
		return 0;
	}
	if (r->kind == BPFRR_IR_RESOLVE_KSYM_ADDR) {
		const struct ksym *k;

		if (!s->ksym_err) {
			ret = read_kallsyms(s);
			s->ksym_err = ret ? ret : 1;
		}
		if (s->ksym_err < 0) {
			snprintf(why, why_size, "cannot be looked up: %s: %s", BPFRR_KALLSYMS, strerror(-s->ksym_err));
			return s->ksym_err;
		}
		if (s->ksym_hidden) {
			snprintf(why, why_size, "cannot be looked up: %s shows no addresses (kptr_restrict; run as "
				 "root)", BPFRR_KALLSYMS);
			return -EPERM;
		}
		k = find_ksym(s, r->name, module);
		if (!k) {
			snprintf(why, why_size, "is not in %s", BPFRR_KALLSYMS);
			return -ENOENT;
		}
		*val = k->addr + (uint64_t)r->addend;
		return 0;
	}
	snprintf(why, why_size, "is not a symbol");
	return -EINVAL;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf() ABI table tests. Host only, no bpf(): everything is data.
 *
 * Layout: every described field's offset and size, and every symbolic
 * name's value, is checked by compiling a generated program against
 *  - the installed <linux/bpf.h> (the build machine's, possibly older than
 *    6.12: fields and names it lacks are counted, not failed), and
 *  - a 6.12 UAPI header, when a kernel tree is at hand (BPFRR_LINUX_SRC, or
 *    the extracted tree under $BPFRR_CACHE_DIR/src/linux-*): there every
 *    field and name must exist and match, and each command's attr size must
 *    end where the kernel's BPF_*_LAST_FIELD ends. Without a tree that test
 *    reports SKIP.
 * The generated programs need a C compiler ($CC, default cc).
 *
 * Walkers: hand-built attrs over fake tracee memory and a fake fd table.
 */
#include <check.h>
#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "bpf_abi.h"
#include "bpf_abi_int.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* --- the table's own consistency ------------------------------------------------ */

/* every described struct, with its C type */
struct described {
	const struct bpfrr_struct_desc *desc;
	const char *c_type;
};

static size_t all_described(struct described *out, size_t max)
{
	size_t n = 0;

	for (int cmd = 0; cmd < BPFRR_ABI_NR_CMDS; cmd++) {
		const struct bpfrr_struct_desc *d = bpfrr_abi_cmd(cmd)->attr;
		bool seen = false;

		for (size_t i = 0; i < n; i++)
			seen |= out[i].desc == d;
		if (!seen && n < max)
			out[n++] = (struct described){ d, "union bpf_attr" };
	}
	if (n + 5 <= max) {
		out[n++] = (struct described){ &bpfrr_abi_prog_info_desc, "struct bpf_prog_info" };
		out[n++] = (struct described){ &bpfrr_abi_map_info_desc, "struct bpf_map_info" };
		out[n++] = (struct described){ &bpfrr_abi_btf_info_desc, "struct bpf_btf_info" };
		out[n++] = (struct described){ &bpfrr_abi_link_info_desc, "struct bpf_link_info" };
		out[n++] = (struct described){ &bpfrr_abi_iter_link_info_desc, "union bpf_iter_link_info" };
	}
	return n;
}

/* a sibling reference must name a field whose variants the referrer implies */
static bool sibling_ok(const struct bpfrr_struct_desc *d, const struct bpfrr_field *f, const char *name)
{
	for (unsigned int i = 0; i < d->nr_fields; i++) {
		const struct bpfrr_field *s = &d->fields[i];

		if (s->name && !strcmp(s->name, name) && (s->variants & ~f->variants) == 0 &&
		    s->kind != BPFRR_FIELD_PTR && s->kind != BPFRR_FIELD_STR)
			return true;
	}
	return false;
}

/* A KERNEL_BTF id's module: a BTF fd field (in some variants: its bytes may name another object) */
static bool btf_obj_field_ok(const struct bpfrr_struct_desc *d, const char *name)
{
	for (unsigned int i = 0; i < d->nr_fields; i++) {
		const struct bpfrr_field *s = &d->fields[i];

		if (s->name && !strcmp(s->name, name) && s->kind == BPFRR_FIELD_FD && s->fd_kind == BPFRR_OBJ_BTF)
			return true;
	}
	return false;
}

START_TEST(test_table_consistent)
{
	struct described ds[64];
	size_t n = all_described(ds, ARRAY_SIZE(ds));
	unsigned int fields = 0;

	ck_assert_uint_ge(n, 30);
	for (size_t k = 0; k < n; k++) {
		const struct bpfrr_struct_desc *d = ds[k].desc;

		ck_assert_ptr_nonnull(d->name);
		ck_assert_uint_gt(d->nr_fields, 0);
		for (unsigned int i = 0; i < d->nr_fields; i++) {
			const struct bpfrr_field *f = &d->fields[i];
			const char *nm = f->name ? f->name : "(pad)";

			fields++;
			/* a later kernel's field may end after the 6.12 size, never after the newest */
			ck_assert_msg(f->offset + f->size <= (f->since ? bpfrr_abi_desc_known_size(d) : d->size),
				      "%s.%s ends at %u > size %u", d->name, nm, f->offset + f->size,
				      f->since ? bpfrr_abi_desc_known_size(d) : d->size);
			ck_assert_msg(!f->since || f->since > BPFRR_ABI_BASE_KVER, "%s.%s: since 6.12 or before",
				      d->name, nm);
			ck_assert_msg(f->dir >= BPFRR_DIR_IN && f->dir <= BPFRR_DIR_INOUT, "%s.%s dir", d->name, nm);
			ck_assert_msg(f->name || f->kind == BPFRR_FIELD_PAD, "%s: unnamed field", d->name);
			if (f->kind == BPFRR_FIELD_PTR) {
				ck_assert_msg(f->size == 8, "%s.%s pointer size", d->name, nm);
				ck_assert_msg(f->len_rule != BPFRR_LEN_NONE, "%s.%s has no length rule", d->name, nm);
				ck_assert_msg(f->buf_dir >= BPFRR_DIR_IN && f->buf_dir <= BPFRR_DIR_INOUT,
					      "%s.%s buf_dir", d->name, nm);
				ck_assert_msg(f->content != BPFRR_CONTENT_NONE, "%s.%s content", d->name, nm);
			} else {
				ck_assert_msg(f->len_rule == BPFRR_LEN_NONE, "%s.%s: length rule on a non-pointer",
					      d->name, nm);
			}
			if (f->kind == BPFRR_FIELD_FD)
				ck_assert_msg(f->fd_kind != BPFRR_OBJ_NONE, "%s.%s: fd of no kind", d->name, nm);
			if (f->kind == BPFRR_FIELD_ENUM || f->kind == BPFRR_FIELD_FLAGS)
				ck_assert_msg(f->xlat != NULL, "%s.%s: no names", d->name, nm);
			if (f->flags & BPFRR_FIELDF_NEEDS_FLAG)
				ck_assert_msg(f->flag_field && sibling_ok(d, f, f->flag_field) && f->flag_mask,
					      "%s.%s: flag_field", d->name, nm);
			if (f->len_field)
				ck_assert_msg(sibling_ok(d, f, f->len_field), "%s.%s: len_field %s", d->name, nm,
					      f->len_field);
			if (f->rec_field)
				ck_assert_msg(sibling_ok(d, f, f->rec_field), "%s.%s: rec_field %s", d->name, nm,
					      f->rec_field);
			if (f->map_field)
				ck_assert_msg(sibling_ok(d, f, f->map_field), "%s.%s: map_field %s", d->name, nm,
					      f->map_field);
			if (f->out_len_field)
				ck_assert_msg(sibling_ok(d, f, f->out_len_field), "%s.%s: out_len_field %s",
					      d->name, nm, f->out_len_field);
			if (f->btf_obj_field)
				ck_assert_msg((f->flags & BPFRR_FIELDF_KERNEL_BTF) &&
					      btf_obj_field_ok(d, f->btf_obj_field), "%s.%s: btf_obj_field %s",
					      d->name, nm, f->btf_obj_field);
			if (f->flags & BPFRR_FIELDF_KERNEL_BTF)
				ck_assert_msg(f->content == BPFRR_CONTENT_BTF_ID && f->dir == BPFRR_DIR_IN,
					      "%s.%s: KERNEL_BTF on a field that is no BTF id passed in", d->name, nm);
			switch (f->len_rule) {
			case BPFRR_LEN_FIELD:
			case BPFRR_LEN_FIELD_REC:
			case BPFRR_LEN_MAP_KEYS:
			case BPFRR_LEN_MAP_VALUES:
			case BPFRR_LEN_INFO:
				ck_assert_msg(f->len_field != NULL, "%s.%s needs len_field", d->name, nm);
				break;
			}
			if (f->len_rule == BPFRR_LEN_FIELD_REC)
				ck_assert_ptr_nonnull(f->rec_field);
			if (f->len_rule >= BPFRR_LEN_MAP_KEY && f->len_rule <= BPFRR_LEN_BATCH_TOKEN)
				ck_assert_msg(f->map_field != NULL, "%s.%s needs map_field", d->name, nm);
		}
	}
	printf("# %u fields in %zu described structs\n", fields, n);
}
END_TEST

/*
 * Fields sharing bytes must never both apply to one call. Try every attach
 * type (and some beyond), flag combination and program type the variant
 * functions look at.
 */
struct fake_fd {
	int fd;
	enum bpfrr_obj_kind kind;
	uint32_t type, key_size, value_size;
};

struct fake {
	struct {
		const void *p;
		size_t len;
		const void *entry;	/* the same bytes as they were at entry, or NULL */
	} mem[32];
	int nr_mem;
	struct fake_fd fds[32];
	int nr_fds;
	const char *iter_target;
	int reads;
};

static int fake_read_at(struct fake *fk, uint64_t addr, void *buf, size_t len, bool entry)
{
	fk->reads++;
	for (int i = 0; i < fk->nr_mem; i++) {
		uint64_t start = (uintptr_t)fk->mem[i].p;

		if (addr >= start && addr - start <= fk->mem[i].len && len <= fk->mem[i].len - (addr - start)) {
			const void *src = entry && fk->mem[i].entry ? fk->mem[i].entry : fk->mem[i].p;

			memcpy(buf, (const char *)src + (addr - start), len);
			return 0;
		}
	}
	return -EFAULT;
}

static int fake_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	return fake_read_at(ctx, addr, buf, len, false);
}

static int fake_read_entry(void *ctx, uint64_t addr, void *buf, size_t len)
{
	return fake_read_at(ctx, addr, buf, len, true);
}

static int fake_fd_info(void *ctx, int fd, enum bpfrr_obj_kind *kind, uint32_t *type, uint32_t *ks,
			uint32_t *vs)
{
	struct fake *fk = ctx;

	for (int i = 0; i < fk->nr_fds; i++) {
		if (fk->fds[i].fd != fd)
			continue;
		if (kind)
			*kind = fk->fds[i].kind;
		if (type)
			*type = fk->fds[i].type;
		if (ks)
			*ks = fk->fds[i].key_size;
		if (vs)
			*vs = fk->fds[i].value_size;
		return 0;
	}
	return -ENOENT;
}

static int fake_iter_target(void *ctx, int prog_fd, char *name, size_t size)
{
	struct fake *fk = ctx;

	(void)prog_fd;
	if (!fk->iter_target)
		return -ENOENT;
	snprintf(name, size, "%s", fk->iter_target);
	return 0;
}

static void fake_mem(struct fake *fk, const void *p, size_t len)
{
	ck_assert_int_lt(fk->nr_mem, (int)ARRAY_SIZE(fk->mem));
	fk->mem[fk->nr_mem].p = p;
	fk->mem[fk->nr_mem].len = len;
	fk->mem[fk->nr_mem].entry = NULL;
	fk->nr_mem++;
}

static void fake_mem2(struct fake *fk, const void *p, const void *entry, size_t len)
{
	fake_mem(fk, p, len);
	fk->mem[fk->nr_mem - 1].entry = entry;
}

static void fake_fd(struct fake *fk, int fd, enum bpfrr_obj_kind kind, uint32_t type, uint32_t ks,
		    uint32_t vs)
{
	ck_assert_int_lt(fk->nr_fds, (int)ARRAY_SIZE(fk->fds));
	fk->fds[fk->nr_fds++] = (struct fake_fd){ fd, kind, type, ks, vs };
}

static struct bpfrr_abi_env fake_env(struct fake *fk)
{
	return (struct bpfrr_abi_env){
		.read_mem = fake_read, .fd_info = fake_fd_info, .iter_target = fake_iter_target,
		.nr_cpus = 3, .ctx = fk,
	};
}

static bool overlap(const struct bpfrr_field *a, const struct bpfrr_field *b)
{
	return a->offset < b->offset + b->size && b->offset < a->offset + a->size;
}

static void check_no_overlap(int cmd, uint32_t variant, const char *what)
{
	const struct bpfrr_struct_desc *d = bpfrr_abi_cmd(cmd)->attr;

	for (unsigned int i = 0; i < d->nr_fields; i++) {
		const struct bpfrr_field *a = &d->fields[i];

		if (a->kind == BPFRR_FIELD_PAD || !bpfrr_abi_field_applies(a, variant))
			continue;
		for (unsigned int j = i + 1; j < d->nr_fields; j++) {
			const struct bpfrr_field *b = &d->fields[j];

			if (b->kind == BPFRR_FIELD_PAD || !bpfrr_abi_field_applies(b, variant) ||
			    (a->flags | b->flags) & BPFRR_FIELDF_ALIAS)
				continue;
			ck_assert_msg(!overlap(a, b), "%s (%s, variant %#x): %s and %s share bytes",
				      bpfrr_abi_cmd_name(cmd), what, variant, a->name, b->name);
		}
	}
}

START_TEST(test_variants_disjoint)
{
	static const uint32_t flag_sets[] = { 0, 1u << 5 /* F_ID */, 1u << 13 /* F_LINK */,
					      1u << 2 /* F_REPLACE */, 1u << 16 };
	static const uint32_t prog_types[] = { 0, 2, 3, 5, 7, 26, 28, 29, 31 };
	unsigned int checked = 0;

	for (int cmd = 0; cmd < BPFRR_ABI_NR_CMDS; cmd++) {
		uint32_t masks[512];
		unsigned int nr_masks = 0;

		if (!bpfrr_abi_cmd(cmd)->variant) {
			check_no_overlap(cmd, 0, "no variants");
			continue;
		}
		for (uint32_t at = 0; at < 64; at++) {
			for (size_t fl = 0; fl < ARRAY_SIZE(flag_sets); fl++) {
				for (size_t pt = 0; pt < ARRAY_SIZE(prog_types); pt++) {
					struct fake fk = { 0 };
					struct bpfrr_abi_env env = fake_env(&fk);
					uint32_t attr[38] = { 0 };
					uint32_t v;

					fake_fd(&fk, 7, BPFRR_OBJ_PROG, prog_types[pt], 0, 0);
					fake_fd(&fk, 8, pt & 1 ? BPFRR_OBJ_LINK : BPFRR_OBJ_BTF, 9, 0, 0);
					/* the words variant functions look at */
					attr[0] = 7;
					attr[1] = at;
					attr[2] = at;
					attr[3] = flag_sets[fl];
					attr[28] = 8;
					for (int with_env = 0; with_env < 2; with_env++) {
						bool known = false;

						v = with_env ? bpfrr_abi_cmd_variant_env(cmd, attr, sizeof(attr), &env)
							     : bpfrr_abi_cmd_variant(cmd, attr, sizeof(attr));
						for (unsigned int m = 0; m < nr_masks; m++)
							known |= masks[m] == v;
						if (known)
							continue;
						ck_assert_uint_lt(nr_masks, ARRAY_SIZE(masks));
						masks[nr_masks++] = v;
						check_no_overlap(cmd, v, with_env ? "with env" : "without env");
					}
					checked++;
				}
			}
		}
	}
	ck_assert_uint_gt(checked, 1000);
}
END_TEST

/* --- generated layout/name programs -------------------------------------------- */

struct gen_line {
	char text[256];
	bool missing;
	long v1, v2;
	bool got;
};

/*
 * Write a program whose main() prints "IDX V1 V2" per line, compile it
 * against incdir (NULL: system headers), dropping lines the compiler
 * rejects (fields/names the header lacks), run it and collect values.
 * Returns 0, or -1 with *why set.
 */
static int run_generated(const char *incdir, const char *includes, struct gen_line *lines, size_t n,
			 const char **why)
{
	char dir[] = "/tmp/bpfrr-abi-XXXXXX";
	char src[128], bin[128], err[128], out[128], cmd[1024];
	const char *cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
	int rc = -1;

	*why = NULL;
	if (!mkdtemp(dir)) {
		*why = "mkdtemp failed";
		return -1;
	}
	snprintf(src, sizeof(src), "%s/gen.c", dir);
	snprintf(bin, sizeof(bin), "%s/gen", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	for (int attempt = 0; attempt < 12; attempt++) {
		FILE *f = fopen(src, "w");
		int first_line, status;
		bool progress = false;
		char buf[1024];

		ck_assert_ptr_nonnull(f);
		fprintf(f, "#include <stdio.h>\n#include <stddef.h>\n%s\n"
			"#define P(i, T, m) printf(\"%%d %%ld %%ld\\n\", i, (long)offsetof(T, m), (long)sizeof(((T *)0)->m))\n"
			"#define Z(i, T) printf(\"%%d %%ld 0\\n\", i, (long)sizeof(T))\n"
			"#define V(i, N) printf(\"%%d %%lld 0\\n\", i, (long long)(N))\n"
			"int main(void)\n{\n", includes);
		first_line = 8 + 1;
		for (const char *p = includes; *p; p++)
			first_line += *p == '\n';
		for (size_t i = 0; i < n; i++)
			fprintf(f, "%s\n", lines[i].missing ? "" : lines[i].text);
		fprintf(f, "\treturn 0;\n}\n");
		fclose(f);
		snprintf(cmd, sizeof(cmd), "%s -w %s%s -o %s %s 2>%s", cc, incdir ? "-I" : "",
			 incdir ? incdir : "", bin, src, err);
		status = system(cmd);
		if (status == 0)
			break;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
			*why = "no C compiler";
			goto out;
		}
		f = fopen(err, "r");
		ck_assert_ptr_nonnull(f);
		while (fgets(buf, sizeof(buf), f)) {
			char *p = strstr(buf, "gen.c:");
			long line;

			if (!p || !strstr(buf, "error"))
				continue;
			line = strtol(p + 6, NULL, 10);
			if (line >= first_line && line < first_line + (long)n &&
			    !lines[line - first_line].missing) {
				lines[line - first_line].missing = true;
				progress = true;
			}
		}
		fclose(f);
		if (!progress) {
			*why = "generated program does not compile";
			goto out;
		}
	}
	snprintf(cmd, sizeof(cmd), "%s >%s", bin, out);
	if (system(cmd) != 0) {
		*why = "generated program failed";
		goto out;
	}
	{
		FILE *f = fopen(out, "r");
		int idx;
		long long a, b;

		ck_assert_ptr_nonnull(f);
		while (fscanf(f, "%d %lld %lld", &idx, &a, &b) == 3)
			if (idx >= 0 && (size_t)idx < n) {
				lines[idx].v1 = (long)a;
				lines[idx].v2 = (long)b;
				lines[idx].got = true;
			}
		fclose(f);
	}
	rc = 0;
out:
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return rc;
}

/* the field a layout line describes */
struct layout_ref {
	const struct bpfrr_struct_desc *desc;
	const struct bpfrr_field *f;	/* NULL: the line is sizeof(c_type) */
	const char *c_type;
};

#define MAX_LINES 1200

static size_t build_layout(struct gen_line *lines, struct layout_ref *refs)
{
	struct described ds[64];
	size_t nd = all_described(ds, ARRAY_SIZE(ds)), n = 0;

	for (size_t k = 0; k < nd; k++) {
		const struct bpfrr_struct_desc *d = ds[k].desc;

		for (unsigned int i = 0; i < d->nr_fields; i++) {
			const struct bpfrr_field *f = &d->fields[i];

			/* padding has no name; a bit-field has no offsetof; a later kernel's field is
			 * in neither header (test_newer_layout checks those against upstream's) */
			if (!f->name || f->kind == BPFRR_FIELD_PAD || !strcmp(f->name, "gpl_compatible") ||
			    f->since)
				continue;
			ck_assert_uint_lt(n, MAX_LINES);
			snprintf(lines[n].text, sizeof(lines[n].text),
				 "\tprintf(\"%zu %%ld %%ld\\n\", (long)offsetof(%s, %s), (long)sizeof(((%s *)0)->%s));",
				 n, ds[k].c_type, f->name, ds[k].c_type, f->name);
			refs[n++] = (struct layout_ref){ d, f, ds[k].c_type };
		}
		if (strcmp(ds[k].c_type, "union bpf_attr")) {
			snprintf(lines[n].text, sizeof(lines[n].text), "\tZ(%zu, %s);", n, ds[k].c_type);
			refs[n++] = (struct layout_ref){ d, NULL, ds[k].c_type };
		}
	}
	snprintf(lines[n].text, sizeof(lines[n].text), "\tZ(%zu, union bpf_attr);", n);
	refs[n++] = (struct layout_ref){ NULL, NULL, "union bpf_attr" };
	return n;
}

/*
 * Compare; require_all: every line must have compiled. A header older than
 * 6.12 may have smaller structs, never different offsets.
 */
static void check_layout(const char *incdir, bool require_all, const char *label)
{
	static struct gen_line lines[MAX_LINES];
	static struct layout_ref refs[MAX_LINES];
	size_t n = build_layout(lines, refs);
	unsigned int checked = 0, missing = 0;
	const char *why;

	for (size_t i = 0; i < n; i++)
		lines[i].missing = lines[i].got = false;
	ck_assert_msg(run_generated(incdir, "#include <linux/bpf.h>", lines, n, &why) == 0,
		      "%s: %s", label, why);
	for (size_t i = 0; i < n; i++) {
		const struct layout_ref *r = &refs[i];

		if (lines[i].missing) {
			ck_assert_msg(!require_all, "%s: %s has no %s", label, r->c_type,
				      r->f ? r->f->name : "size");
			missing++;
			continue;
		}
		ck_assert_msg(lines[i].got, "%s: no output for line %zu", label, i);
		checked++;
		if (!r->f) {
			uint32_t want = r->desc ? r->desc->size : BPFRR_ABI_ATTR_SIZE;

			if (require_all)
				ck_assert_msg(lines[i].v1 == want, "%s: sizeof(%s) = %ld, table says %u", label,
					      r->c_type, lines[i].v1, want);
			else
				ck_assert_msg(lines[i].v1 <= want, "%s: sizeof(%s) = %ld > table's %u", label,
					      r->c_type, lines[i].v1, want);
			continue;
		}
		ck_assert_msg(lines[i].v1 == r->f->offset, "%s: %s %s at %ld, table says %u", label,
			      r->c_type, r->f->name, lines[i].v1, r->f->offset);
		ck_assert_msg(lines[i].v2 == r->f->size, "%s: %s %s is %ld bytes, table says %u", label,
			      r->c_type, r->f->name, lines[i].v2, r->f->size);
	}
	printf("# %s: %u offsets/sizes match, %u not in this header\n", label, checked, missing);
	/* not vacuous: even a 6.1 header has most of them */
	ck_assert_uint_gt(checked, 250);
}

/* every UAPI name of every xlat, and every helper */
struct name_ref {
	const char *name;
	uint64_t val;
	const char *header;
};

static size_t build_names(struct gen_line *lines, struct name_ref *refs)
{
	size_t n = 0;

	for (size_t k = 0; bpfrr_abi_all_xlats[k]; k++) {
		const struct bpfrr_xlat *x = bpfrr_abi_all_xlats[k];

		if (!x->header)
			continue;	/* kernel-internal names: nothing to compile against */
		for (unsigned int i = 0; x->dense && i < x->nr_dense; i++) {
			if (!x->dense[i])
				continue;
			refs[n] = (struct name_ref){ x->dense[i], i, x->header };
			snprintf(lines[n].text, sizeof(lines[n].text), "\tV(%zu, %s);", n, x->dense[i]);
			n++;
		}
		for (const struct bpfrr_xlat_entry *e = x->entries; e && e->name; e++) {
			refs[n] = (struct name_ref){ e->name, e->val, x->header };
			snprintf(lines[n].text, sizeof(lines[n].text), "\tV(%zu, %s);", n, e->name);
			n++;
		}
	}
	/* every row of the command table: its number is the kernel's for its name, and the public
	 * enum's for the same name (bpf_abi.h is always at hand: a missing name there fails) */
	for (int cmd = 0; cmd < BPFRR_ABI_NR_CMDS; cmd++) {
		const char *name = bpfrr_abi_cmd_name(cmd);

		ck_assert_msg(name && !strncmp(name, "BPF_", 4), "command %d: name %s", cmd, name);
		refs[n] = (struct name_ref){ name, (uint64_t)bpfrr_abi_cmd(cmd)->cmd, "linux/bpf.h" };
		snprintf(lines[n].text, sizeof(lines[n].text), "\tV(%zu, %s);", n, name);
		n++;
		refs[n] = (struct name_ref){ name, (uint64_t)bpfrr_abi_cmd(cmd)->cmd, "bpf_abi.h" };
		snprintf(lines[n].text, sizeof(lines[n].text), "\tV(%zu, BPFRR_CMD_%s);", n, name + 4);
		n++;
	}
	for (int32_t id = 1; id < BPFRR_ABI_NR_HELPERS; id++) {
		const char *name = bpfrr_abi_helper_name(id);

		ck_assert_ptr_nonnull(name);
		ck_assert_msg(!strncmp(name, "bpf_", 4), "helper %d: %s", id, name);
		refs[n] = (struct name_ref){ name, (uint64_t)id, "linux/bpf.h" };
		snprintf(lines[n].text, sizeof(lines[n].text), "\tV(%zu, BPF_FUNC_%s);", n, name + 4);
		n++;
	}
	ck_assert_uint_lt(n, MAX_LINES);
	return n;
}

static void check_names(const char *incdir, bool require_bpf_h, const char *label)
{
	static struct gen_line lines[MAX_LINES];
	static struct name_ref refs[MAX_LINES];
	size_t n = build_names(lines, refs);
	unsigned int checked = 0, missing = 0;
	char includes[4200], here[4096];
	const char *why;

	/* our own header next to this source file (the Makefile compiles it by absolute path) */
	snprintf(here, sizeof(here), "%s", __FILE__);
	snprintf(includes, sizeof(includes),
		 "#include <linux/bpf.h>\n#include <linux/if_link.h>\n#include <linux/netfilter.h>\n"
		 "#include \"%s/../../lib/bpf_abi.h\"", dirname(here));
	for (size_t i = 0; i < n; i++)
		lines[i].missing = lines[i].got = false;
	ck_assert_msg(run_generated(incdir, includes, lines, n, &why) == 0, "%s: %s", label, why);
	for (size_t i = 0; i < n; i++) {
		if (lines[i].missing) {
			ck_assert_msg(strcmp(refs[i].header, "bpf_abi.h"), "%s: bpf_abi.h has no BPFRR_CMD_%s",
				      label, refs[i].name + 4);
			ck_assert_msg(!require_bpf_h || strcmp(refs[i].header, "linux/bpf.h"),
				      "%s: %s not defined", label, refs[i].name);
			missing++;
			continue;
		}
		checked++;
		ck_assert_msg((uint64_t)lines[i].v1 == refs[i].val, "%s: %s = %ld, table says %" PRIu64,
			      label, refs[i].name, lines[i].v1, refs[i].val);
	}
	printf("# %s: %u names match, %u not in these headers\n", label, checked, missing);
	ck_assert_uint_gt(checked, 300);
}

START_TEST(test_layout_installed)
{
	check_layout(NULL, false, "installed <linux/bpf.h>");
}
END_TEST

START_TEST(test_names_installed)
{
	check_names(NULL, false, "installed headers");
}
END_TEST

/* --- against a 6.12 tree -------------------------------------------------------- */

static char linux_tree[4096];

/*
 * kernel/build keeps its source as a git repository whose tag `pristine`
 * is Debian's tarball, and checks the series out on top for a patched
 * build: the working tree then has the series' UAPI (BPF_PROG_LOAD's
 * signature fields, ...), not 6.12's.  The files compared here come from
 * `pristine` when there is one, whatever the build left checked out.
 */
static char pristine_dir[64];

static void pristine_tree(void)
{
	char *dir = pristine_dir;
	char cmd[8400];

	if (dir[0]) {
		snprintf(linux_tree, sizeof(linux_tree), "%s", dir);
		return;
	}
	snprintf(cmd, sizeof(cmd), "git -C '%s' rev-parse -q --verify 'pristine^{commit}' >/dev/null 2>&1",
		 linux_tree);
	if (system(cmd) != 0)
		return;
	snprintf(dir, sizeof(pristine_dir), "/tmp/bpfrr-pristine-XXXXXX");
	if (!mkdtemp(dir)) {
		dir[0] = '\0';
		return;
	}
	snprintf(cmd, sizeof(cmd), "git -C '%s' archive pristine include/uapi/linux/bpf.h "
		 "include/uapi/linux/bpf_common.h kernel/bpf/syscall.c | tar -x -C %s", linux_tree, dir);
	if (system(cmd) != 0) {
		fprintf(stderr, "# git archive of %s's pristine tag failed: comparing its working tree\n", linux_tree);
		return;
	}
	snprintf(linux_tree, sizeof(linux_tree), "%s", dir);
}

static bool find_linux_tree(void)
{
	const char *env = getenv("BPFRR_LINUX_SRC");
	char pattern[4096];
	glob_t g;
	bool found = false;

	if (env && *env) {
		snprintf(linux_tree, sizeof(linux_tree), "%s", env);
		return true;
	}
	if (getenv("BPFRR_CACHE_DIR") && *getenv("BPFRR_CACHE_DIR"))
		snprintf(pattern, sizeof(pattern), "%s/src/linux-*/include/uapi/linux/bpf.h",
			 getenv("BPFRR_CACHE_DIR"));
	else if (getenv("XDG_CACHE_HOME") && *getenv("XDG_CACHE_HOME"))
		snprintf(pattern, sizeof(pattern), "%s/bpfrr/src/linux-*/include/uapi/linux/bpf.h",
			 getenv("XDG_CACHE_HOME"));
	else
		snprintf(pattern, sizeof(pattern), "%s/.cache/bpfrr/src/linux-*/include/uapi/linux/bpf.h",
			 getenv("HOME") ? getenv("HOME") : "");
	if (glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc > 0) {
		char *end;

		snprintf(linux_tree, sizeof(linux_tree), "%s", g.gl_pathv[0]);
		end = strstr(linux_tree, "/include/uapi/linux/bpf.h");
		if (end) {
			*end = '\0';
			found = true;
		}
	}
	globfree(&g);
	if (found)
		pristine_tree();
	return found;
}

/*
 * An include dir with the tree's linux/bpf.h (and bpf_common.h) and
 * nothing else: raw UAPI headers need headers_install for the rest, while
 * bpf.h itself only needs linux/types.h, which the system provides.
 */
static void tree_include_dir(char *dir, size_t size)
{
	char path[4096 + 64], link[4096 + 64];
	static const char *const files[] = { "bpf.h", "bpf_common.h" };

	snprintf(dir, size, "/tmp/bpfrr-uapi-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/linux", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s/include/uapi/linux/%s", linux_tree, files[i]);
		snprintf(link, sizeof(link), "%s/linux/%s", dir, files[i]);
		ck_assert_msg(symlink(path, link) == 0, "symlink %s", path);
	}
}

static void remove_dir(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}

/* the table's attr part of each command ends where 6.12's CHECK_ATTR starts */
static void check_last_fields(void)
{
	static const struct {
		const char *kernel;	/* BPF_<kernel>_LAST_FIELD */
		int cmds[5];
	} map[] = {
		{ "MAP_CREATE", { BPFRR_CMD_MAP_CREATE, -1 } },
		{ "MAP_LOOKUP_ELEM", { BPFRR_CMD_MAP_LOOKUP_ELEM, -1 } },
		{ "MAP_UPDATE_ELEM", { BPFRR_CMD_MAP_UPDATE_ELEM, -1 } },
		{ "MAP_DELETE_ELEM", { BPFRR_CMD_MAP_DELETE_ELEM, -1 } },
		{ "MAP_GET_NEXT_KEY", { BPFRR_CMD_MAP_GET_NEXT_KEY, -1 } },
		{ "MAP_LOOKUP_AND_DELETE_ELEM", { BPFRR_CMD_MAP_LOOKUP_AND_DELETE_ELEM, -1 } },
		{ "MAP_FREEZE", { BPFRR_CMD_MAP_FREEZE, -1 } },
		{ "PROG_LOAD", { BPFRR_CMD_PROG_LOAD, -1 } },
		{ "OBJ", { BPFRR_CMD_OBJ_PIN, BPFRR_CMD_OBJ_GET, -1 } },
		{ "RAW_TRACEPOINT_OPEN", { BPFRR_CMD_RAW_TRACEPOINT_OPEN, -1 } },
		{ "PROG_ATTACH", { BPFRR_CMD_PROG_ATTACH, -1 } },
		{ "PROG_DETACH", { BPFRR_CMD_PROG_DETACH, -1 } },
		{ "PROG_QUERY", { BPFRR_CMD_PROG_QUERY, -1 } },
		{ "PROG_TEST_RUN", { BPFRR_CMD_PROG_TEST_RUN, -1 } },
		{ "OBJ_GET_NEXT_ID", { BPFRR_CMD_PROG_GET_NEXT_ID, BPFRR_CMD_MAP_GET_NEXT_ID, BPFRR_CMD_BTF_GET_NEXT_ID,
				       BPFRR_CMD_LINK_GET_NEXT_ID, -1 } },
		{ "PROG_GET_FD_BY_ID", { BPFRR_CMD_PROG_GET_FD_BY_ID, -1 } },
		{ "MAP_GET_FD_BY_ID", { BPFRR_CMD_MAP_GET_FD_BY_ID, -1 } },
		{ "OBJ_GET_INFO_BY_FD", { BPFRR_CMD_OBJ_GET_INFO_BY_FD, -1 } },
		{ "BTF_LOAD", { BPFRR_CMD_BTF_LOAD, -1 } },
		{ "BTF_GET_FD_BY_ID", { BPFRR_CMD_BTF_GET_FD_BY_ID, -1 } },
		{ "TASK_FD_QUERY", { BPFRR_CMD_TASK_FD_QUERY, -1 } },
		{ "MAP_BATCH", { BPFRR_CMD_MAP_LOOKUP_BATCH, BPFRR_CMD_MAP_LOOKUP_AND_DELETE_BATCH,
				 BPFRR_CMD_MAP_UPDATE_BATCH, BPFRR_CMD_MAP_DELETE_BATCH, -1 } },
		{ "LINK_CREATE", { BPFRR_CMD_LINK_CREATE, -1 } },
		{ "LINK_UPDATE", { BPFRR_CMD_LINK_UPDATE, -1 } },
		{ "LINK_DETACH", { BPFRR_CMD_LINK_DETACH, -1 } },
		{ "LINK_GET_FD_BY_ID", { BPFRR_CMD_LINK_GET_FD_BY_ID, -1 } },
		{ "ENABLE_STATS", { BPFRR_CMD_ENABLE_STATS, -1 } },
		{ "ITER_CREATE", { BPFRR_CMD_ITER_CREATE, -1 } },
		{ "PROG_BIND_MAP", { BPFRR_CMD_PROG_BIND_MAP, -1 } },
		{ "TOKEN_CREATE", { BPFRR_CMD_TOKEN_CREATE, -1 } },
	};
	char path[4200], line[512];
	bool covered[BPFRR_ABI_NR_CMDS] = { false };
	unsigned int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/kernel/bpf/syscall.c", linux_tree);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot read %s", path);
	while (fgets(line, sizeof(line), f)) {
		char kname[128], last[128];
		char *end = strstr(line, "_LAST_FIELD ");

		/* "#define BPF_<kname>_LAST_FIELD <last>" */
		if (strncmp(line, "#define BPF_", 12) || !end || end - (line + 12) >= (long)sizeof(kname) ||
		    sscanf(end + 12, "%127s", last) != 1)
			continue;
		memcpy(kname, line + 12, (size_t)(end - (line + 12)));
		kname[end - (line + 12)] = '\0';
		for (size_t i = 0; i < ARRAY_SIZE(map); i++) {
			if (strcmp(map[i].kernel, kname))
				continue;
			found++;
			for (int k = 0; map[i].cmds[k] >= 0; k++) {
				int cmd = map[i].cmds[k];
				const struct bpfrr_field *lf = bpfrr_abi_cmd_field(cmd, last);

				ck_assert_msg(lf != NULL, "%s: no field %s", bpfrr_abi_cmd_name(cmd), last);
				ck_assert_msg(lf->offset + lf->size == bpfrr_abi_cmd(cmd)->attr->size,
					      "%s: 6.12 attr ends after %s at %u, table says %u",
					      bpfrr_abi_cmd_name(cmd), last, lf->offset + lf->size,
					      bpfrr_abi_cmd(cmd)->attr->size);
				covered[cmd] = true;
			}
		}
	}
	fclose(f);
	ck_assert_uint_eq(found, ARRAY_SIZE(map));
	for (int cmd = 0; cmd < BPFRR_ABI_NR_CMDS; cmd++)
		ck_assert_msg(covered[cmd], "%s: no LAST_FIELD checked", bpfrr_abi_cmd_name(cmd));
	printf("# 6.12 syscall.c: %u LAST_FIELD definitions match every command's attr size\n", found);
}

static void count_tree_cmds(void)
{
	char path[4200], line[512];
	FILE *f;
	bool in_enum = false;
	int nr = 0;

	snprintf(path, sizeof(path), "%s/include/uapi/linux/bpf.h", linux_tree);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		char name[128];

		if (!strncmp(line, "enum bpf_cmd {", 14)) {
			in_enum = true;
			continue;
		}
		if (in_enum && line[0] == '}')
			break;
		if (in_enum && sscanf(line, " BPF_%127[A-Z_0-9],", name) == 1 && !strchr(line, '=') &&
		    strcmp(name, "__MAX_BPF_CMD"))
			nr++;
	}
	fclose(f);
	ck_assert_int_eq(nr, BPFRR_ABI_NR_CMDS);
}

static void test_6_12_fn(int i)
{
	char dir[64];

	(void)i;
	if (!find_linux_tree()) {
		printf("# SKIP: no 6.12 kernel tree: layout and names checked against the installed headers only\n");
		return;
	}
	printf("# 6.12 tree: %s\n", linux_tree);
	count_tree_cmds();
	tree_include_dir(dir, sizeof(dir));
	check_layout(dir, true, "6.12 <linux/bpf.h>");
	check_names(dir, true, "6.12 headers");
	remove_dir(dir);
	check_last_fields();
}

/* --- names ---------------------------------------------------------------------- */

START_TEST(test_cmd_names)
{
	for (int cmd = 0; cmd < BPFRR_ABI_NR_CMDS; cmd++) {
		const char *name = bpfrr_abi_cmd_name(cmd);

		ck_assert_ptr_nonnull(name);
		ck_assert_int_eq(bpfrr_abi_cmd(cmd)->cmd, cmd);
		ck_assert_str_eq(name, bpfrr_xlat_cmd.dense[cmd]);
		ck_assert_int_eq(bpfrr_abi_cmd_by_name(name), cmd);
		ck_assert_int_eq(bpfrr_abi_cmd_by_name(name + 4), cmd);
	}
	ck_assert_str_eq(bpfrr_abi_cmd_name(BPF_PROG_LOAD), "BPF_PROG_LOAD");
	ck_assert_str_eq(bpfrr_abi_cmd_name(36), "BPF_TOKEN_CREATE");
	ck_assert_ptr_null(bpfrr_abi_cmd_name(37));
	ck_assert_ptr_null(bpfrr_abi_cmd_name(-1));
	ck_assert_ptr_null(bpfrr_abi_cmd(1000));
	ck_assert_int_eq(bpfrr_abi_cmd_by_name("map_lookup_elem"), BPF_MAP_LOOKUP_ELEM);
	ck_assert_int_eq(bpfrr_abi_cmd_by_name("BPF_NOPE"), -1);
	ck_assert_int_eq(bpfrr_abi_cmd_ret_kind(BPF_PROG_LOAD, NULL, 0), BPFRR_OBJ_PROG);
	ck_assert_int_eq(bpfrr_abi_cmd_ret_kind(BPF_MAP_CREATE, NULL, 0), BPFRR_OBJ_MAP);
	ck_assert_int_eq(bpfrr_abi_cmd_ret_kind(BPF_RAW_TRACEPOINT_OPEN, NULL, 0), BPFRR_OBJ_LINK);
	ck_assert_int_eq(bpfrr_abi_cmd_ret_kind(BPF_MAP_UPDATE_ELEM, NULL, 0), BPFRR_OBJ_NONE);
	ck_assert_int_eq(bpfrr_abi_cmd_ret_kind(36, NULL, 0), BPFRR_OBJ_TOKEN);
}
END_TEST

/*
 * What the translator asks of a command is in its row: a command added to
 * the table without a class would be replayed as an unknown one.
 */
START_TEST(test_cmd_classes)
{
	for (int cmd = 0; cmd < BPFRR_ABI_NR_CMDS; cmd++) {
		const struct bpfrr_cmd_desc *d = bpfrr_abi_cmd(cmd);
		const char *fields[] = { d->changes_fd, d->acts_on, d->makes.type, d->makes.key_size, d->makes.value_size,
					 d->makes.name, d->log.buf, d->log.size, d->log.level, d->refuse.field };
		const struct bpfrr_field *f;

		ck_assert_msg(d->cls > BPFRR_CMD_CLASS_NONE && d->cls <= BPFRR_CMD_CLASS_TEST_RUN,
			      "%s has no class for the translator (.cls)", bpfrr_abi_cmd_name(cmd));
		ck_assert_msg(!(d->flags & BPFRR_CMDF_BUILDS) || d->cls == BPFRR_CMD_CLASS_CREATE ||
			      d->cls == BPFRR_CMD_CLASS_MUTATE || d->cls == BPFRR_CMD_CLASS_GLOBAL,
			      "%s: BUILDS on a command that neither creates nor changes", bpfrr_abi_cmd_name(cmd));
		ck_assert_msg(!(d->flags & BPFRR_CMDF_BY_ID) || d->cls == BPFRR_CMD_CLASS_GET,
			      "%s: a by-id lookup that is not a GET", bpfrr_abi_cmd_name(cmd));
		ck_assert_msg(!d->acts_on == !(d->cls == BPFRR_CMD_CLASS_MUTATE || d->cls == BPFRR_CMD_CLASS_GLOBAL ||
						d->cls == BPFRR_CMD_CLASS_TEST_RUN),
			      "%s: acts_on goes with the MUTATE, GLOBAL and TEST_RUN classes", bpfrr_abi_cmd_name(cmd));
		if (d->acts_on)
			ck_assert_msg(bpfrr_abi_cmd_field(cmd, d->acts_on) &&
				      bpfrr_abi_cmd_field(cmd, d->acts_on)->kind == BPFRR_FIELD_FD,
				      "%s: acts_on %s is not an fd field", bpfrr_abi_cmd_name(cmd), d->acts_on);
		ck_assert_msg(!(d->changes_fd && (d->flags & BPFRR_CMDF_USES_FDS)),
			      "%s: changes_fd and USES_FDS contradict", bpfrr_abi_cmd_name(cmd));
		for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
			ck_assert_msg(!fields[i] || bpfrr_abi_cmd_field(cmd, fields[i]),
				      "%s: no attr field %s", bpfrr_abi_cmd_name(cmd), fields[i]);
		if (d->changes_fd)
			ck_assert_int_eq(bpfrr_abi_cmd_field(cmd, d->changes_fd)->kind, BPFRR_FIELD_FD);
		ck_assert_msg(!d->log.buf == !d->log.size && !d->log.buf == !d->log.level,
			      "%s: partial log fields", bpfrr_abi_cmd_name(cmd));
		if (d->log.buf) {
			f = bpfrr_abi_cmd_field(cmd, d->log.buf);
			ck_assert_msg(f->kind == BPFRR_FIELD_PTR && f->content == BPFRR_CONTENT_LOG,
				      "%s: %s is not a log buffer", bpfrr_abi_cmd_name(cmd), d->log.buf);
		}
		ck_assert_msg(!(d->makes.key_size || d->makes.value_size) ||
			      (d->makes.key_size && d->makes.value_size && d->makes.type),
			      "%s: map sizes without type", bpfrr_abi_cmd_name(cmd));
		ck_assert_msg(!d->refuse.why == !(d->refuse.field || d->refuse.target_type),
			      "%s: a refusal needs both a condition and a reason", bpfrr_abi_cmd_name(cmd));
	}
	/* spot checks of the data the translator's passes used to hold */
	ck_assert_int_eq(bpfrr_abi_cmd(BPFRR_CMD_MAP_CREATE)->cls, BPFRR_CMD_CLASS_CREATE);
	ck_assert_int_eq(bpfrr_abi_cmd(BPFRR_CMD_OBJ_GET)->cls, BPFRR_CMD_CLASS_GET);
	ck_assert_int_eq(bpfrr_abi_cmd(BPFRR_CMD_PROG_TEST_RUN)->cls, BPFRR_CMD_CLASS_TEST_RUN);
	ck_assert(!(bpfrr_abi_cmd(BPFRR_CMD_PROG_DETACH)->flags & BPFRR_CMDF_BUILDS));
	ck_assert_uint_eq(bpfrr_abi_cmd_field(BPFRR_CMD_LINK_CREATE,
					      bpfrr_abi_cmd(BPFRR_CMD_LINK_CREATE)->changes_fd)->offset, 4);
}
END_TEST

START_TEST(test_cmd_made)
{
	union bpf_attr attr;
	struct bpfrr_abi_made m;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_HASH;
	attr.key_size = 4;
	attr.value_size = 8;
	memcpy(attr.map_name, "0123456789abcdef", 16);	/* not NUL-terminated */
	ck_assert(bpfrr_abi_cmd_made(BPFRR_CMD_MAP_CREATE, &attr, sizeof(attr), &m));
	ck_assert(m.has_type && m.has_sizes && m.has_name);
	ck_assert_uint_eq(m.obj_type, BPF_MAP_TYPE_HASH);
	ck_assert_uint_eq(m.key_size, 4);
	ck_assert_uint_eq(m.value_size, 8);
	ck_assert_str_eq(m.name, "0123456789abcdef");
	/* an attr too short for the name: no name, the sizes it has */
	ck_assert(bpfrr_abi_cmd_made(BPFRR_CMD_MAP_CREATE, &attr, 8, &m));
	ck_assert(m.has_sizes && !m.has_name);
	ck_assert_uint_eq(m.value_size, 0);

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_KPROBE;
	memcpy(attr.prog_name, "probe", 6);
	ck_assert(bpfrr_abi_cmd_made(BPFRR_CMD_PROG_LOAD, &attr, sizeof(attr), &m));
	ck_assert(m.has_type && !m.has_sizes && m.has_name);
	ck_assert_uint_eq(m.obj_type, BPF_PROG_TYPE_KPROBE);
	ck_assert_str_eq(m.name, "probe");
	ck_assert(!bpfrr_abi_cmd_made(BPFRR_CMD_LINK_CREATE, &attr, sizeof(attr), &m));
	ck_assert(!bpfrr_abi_cmd_made(1000, &attr, sizeof(attr), &m));
}
END_TEST

/* libbpf's names where it has them; ours follow its rule (UAPI name minus
 * prefix, lower case) for the values it does not know. */
static void check_short_names(const struct bpfrr_xlat *x, const char *(*ours)(uint32_t),
			      const char *(*libbpf)(uint32_t), const char *prefix)
{
	unsigned int from_libbpf = 0, own = 0;

	for (unsigned int v = 0; v < x->nr_dense; v++) {
		const char *name = ours(v), *lb = libbpf(v), *uapi = x->dense[v];
		char want[128];
		size_t i;

		ck_assert_msg(name != NULL, "%s %u has no short name", x->type_name, v);
		if (lb) {
			ck_assert_str_eq(name, lb);
			from_libbpf++;
			continue;
		}
		own++;
		ck_assert(!strncmp(uapi, prefix, strlen(prefix)));
		for (i = 0; uapi[strlen(prefix) + i] && i + 1 < sizeof(want); i++)
			want[i] = (char)tolower((unsigned char)uapi[strlen(prefix) + i]);
		want[i] = '\0';
		ck_assert_str_eq(name, want);
	}
	ck_assert_ptr_null(ours(x->nr_dense));
	printf("# %s: %u names from libbpf, %u of ours\n", x->type_name, from_libbpf, own);
	ck_assert_uint_gt(from_libbpf, 0);
}

static const char *lb_map(uint32_t v) { return libbpf_bpf_map_type_str((enum bpf_map_type)v); }
static const char *lb_prog(uint32_t v) { return libbpf_bpf_prog_type_str((enum bpf_prog_type)v); }
static const char *lb_attach(uint32_t v) { return libbpf_bpf_attach_type_str((enum bpf_attach_type)v); }
static const char *lb_link(uint32_t v) { return libbpf_bpf_link_type_str((enum bpf_link_type)v); }

START_TEST(test_short_names)
{
	check_short_names(&bpfrr_xlat_map_type, bpfrr_abi_map_type_name, lb_map, "BPF_MAP_TYPE_");
	check_short_names(&bpfrr_xlat_prog_type, bpfrr_abi_prog_type_name, lb_prog, "BPF_PROG_TYPE_");
	check_short_names(&bpfrr_xlat_attach_type, bpfrr_abi_attach_type_name, lb_attach, "BPF_");
	check_short_names(&bpfrr_xlat_link_type, bpfrr_abi_link_type_name, lb_link, "BPF_LINK_TYPE_");
	ck_assert_str_eq(bpfrr_abi_map_type_name(33), "arena");
	ck_assert_str_eq(bpfrr_abi_attach_type_name(46), "tcx_ingress");
}
END_TEST

START_TEST(test_xlat_format)
{
	char buf[128];

	bpfrr_abi_xlat_format(&bpfrr_xlat_map_type, 1, buf, sizeof(buf));
	ck_assert_str_eq(buf, "hash");
	bpfrr_abi_xlat_format(&bpfrr_xlat_map_type, 99, buf, sizeof(buf));
	ck_assert_str_eq(buf, "99");
	bpfrr_abi_xlat_format(&bpfrr_xlat_map_flags, (1u << 0) | (1u << 2) | (1u << 30), buf, sizeof(buf));
	ck_assert_str_eq(buf, "BPF_F_NO_PREALLOC|BPF_F_NUMA_NODE|0x40000000");
	bpfrr_abi_xlat_format(&bpfrr_xlat_map_flags, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0");
	bpfrr_abi_xlat_format(&bpfrr_xlat_elem_flags, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "BPF_ANY");
	bpfrr_abi_xlat_format(&bpfrr_xlat_elem_flags, 4 | 1, buf, sizeof(buf));
	ck_assert_str_eq(buf, "BPF_NOEXIST|BPF_F_LOCK");
	bpfrr_abi_xlat_format(&bpfrr_xlat_stats_type, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "BPF_STATS_RUN_TIME");
	/* snprintf-like: reports the length it wanted, truncates safely */
	ck_assert_int_eq(bpfrr_abi_xlat_format(&bpfrr_xlat_map_flags, 3, buf, 5),
			 (int)strlen("BPF_F_NO_PREALLOC|BPF_F_NO_COMMON_LRU"));
	ck_assert_str_eq(buf, "BPF_");
	ck_assert_str_eq(bpfrr_abi_xlat_name(&bpfrr_xlat_prog_type, 2), "BPF_PROG_TYPE_KPROBE");
	{
		uint64_t v;

		ck_assert_int_eq(bpfrr_abi_xlat_value(&bpfrr_xlat_attach_type, "BPF_TCX_EGRESS", &v), 0);
		ck_assert_uint_eq(v, 47);
		ck_assert_int_eq(bpfrr_abi_xlat_value(&bpfrr_xlat_map_flags, "BPF_F_MMAPABLE", &v), 0);
		ck_assert_uint_eq(v, 1u << 10);
		ck_assert_int_eq(bpfrr_abi_xlat_value(&bpfrr_xlat_map_flags, "nope", &v), -1);
	}
	for (int k = 0; k < BPFRR_OBJ__MAX; k++)
		ck_assert_ptr_nonnull(bpfrr_abi_obj_kind_name((enum bpfrr_obj_kind)k));
	for (int k = 0; k < BPFRR_CONTENT__MAX; k++)
		ck_assert_ptr_nonnull(bpfrr_abi_content_name((enum bpfrr_abi_content)k));
	ck_assert_str_eq(bpfrr_abi_helper_name(1), "bpf_map_lookup_elem");
	ck_assert_str_eq(bpfrr_abi_helper_name(211), "bpf_cgrp_storage_delete");
	ck_assert_ptr_null(bpfrr_abi_helper_name(0));
	ck_assert_ptr_null(bpfrr_abi_helper_name(212));
	ck_assert_ptr_null(bpfrr_abi_helper_name(-5));
}
END_TEST

/* --- walkers -------------------------------------------------------------------- */

struct seen_buf {
	char path[128];
	uint64_t addr, len, want;
	enum bpfrr_dir dir;
	enum bpfrr_abi_content content;
	unsigned int flags;
	uint32_t elem_size;
	int depth;
};

struct seen {
	struct seen_buf b[64];
	int n;
};

static int collect_buf(void *arg, const struct bpfrr_abi_buf *b)
{
	struct seen *s = arg;

	ck_assert_int_lt(s->n, (int)ARRAY_SIZE(s->b));
	snprintf(s->b[s->n].path, sizeof(s->b[s->n].path), "%s", b->path);
	s->b[s->n].addr = b->addr;
	s->b[s->n].len = b->len;
	s->b[s->n].want = b->want_len;
	s->b[s->n].dir = b->dir;
	s->b[s->n].content = b->content;
	s->b[s->n].flags = b->flags;
	s->b[s->n].elem_size = b->elem_size;
	s->b[s->n].depth = b->depth;
	s->n++;
	return 0;
}

static const struct seen_buf *find_buf(const struct seen *s, const char *path)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->b[i].path, path))
			return &s->b[i];
	ck_abort_msg("no buffer %s (of %d)", path, s->n);
	return NULL;
}

static bool has_buf(const struct seen *s, const char *path)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->b[i].path, path))
			return true;
	return false;
}

struct seen_fd {
	char path[128];
	int fd;
	enum bpfrr_obj_kind kind;
	enum bpfrr_fd_ref_type type;
	enum bpfrr_fd_where where;
	uint32_t attr_offset;
	uint64_t buf_addr, buf_offset;
	int insn_idx;
};

struct seen_fds {
	struct seen_fd f[64];
	int n;
};

static int collect_fd(void *arg, const struct bpfrr_abi_fd_ref *r)
{
	struct seen_fds *s = arg;

	ck_assert_int_lt(s->n, (int)ARRAY_SIZE(s->f));
	snprintf(s->f[s->n].path, sizeof(s->f[s->n].path), "%s", r->path);
	s->f[s->n].fd = r->fd;
	s->f[s->n].kind = r->kind;
	s->f[s->n].type = r->type;
	s->f[s->n].where = r->where;
	s->f[s->n].attr_offset = r->attr_offset;
	s->f[s->n].buf_addr = r->buf_addr;
	s->f[s->n].buf_offset = r->buf_offset;
	s->f[s->n].insn_idx = r->insn_idx;
	s->n++;
	return 0;
}

static const struct seen_fd *find_fd(const struct seen_fds *s, const char *path)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->f[i].path, path))
			return &s->f[i];
	ck_abort_msg("no fd at %s (of %d)", path, s->n);
	return NULL;
}

static struct bpf_insn ins(uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	struct bpf_insn i = { .code = code, .dst_reg = dst, .src_reg = src, .off = off, .imm = imm };

	return i;
}

#define PTR_U64(p) ((uint64_t)(uintptr_t)(p))

/* Fields newer than the build machine's <linux/bpf.h> (6.1), by 6.12 offset. */
static void put_u32(void *base, size_t off, uint32_t v)
{
	memcpy((char *)base + off, &v, 4);
}

static void put_u64(void *base, size_t off, uint64_t v)
{
	memcpy((char *)base + off, &v, 8);
}

#define ATTR_LOG_TRUE_SIZE	140
#define ATTR_MAP_TOKEN_FD	76
#define F_BEFORE		(1u << 3)
#define F_ID			(1u << 5)
#define LINK_INFO_PERF_TYPE	16
#define LINK_INFO_PERF_TP_NAME	24
#define LINK_INFO_PERF_TP_LEN	32
#define PERF_EVENT_TRACEPOINT	5

START_TEST(test_prog_load)
{
	struct bpf_insn insns[16];
	int32_t fd_array[4] = { -1, 40 /* module btf */, 41 /* map */, -1 };
	struct bpf_func_info finfo[2] = { { 0, 5 }, { 9, 6 } };
	static const char license[] = "GPL";
	char log[100] = "";
	char log_entry[100] = "";
	union bpf_attr attr, exit_attr;
	struct fake fk = { 0 };
	struct bpfrr_abi_env env = fake_env(&fk);
	struct seen s = { 0 };
	struct seen_fds fds = { 0 };
	const struct seen_fd *f;
	int n = 0;

	insns[n++] = ins(0xb7, 0, 0, 0, 0);				/* r0 = 0 */
	insns[n++] = ins(0xb7, 1, 0, 0, 1);
	insns[n++] = ins(0xb7, 2, 0, 0, 2);
	insns[n++] = ins(0x18, 1, BPF_PSEUDO_MAP_FD, 0, 5);		/* 3: map fd 5 */
	insns[n++] = ins(0, 0, 0, 0, 0);
	insns[n++] = ins(0x18, 1, BPF_PSEUDO_MAP_IDX, 0, 2);		/* 5: fd_array[2] */
	insns[n++] = ins(0, 0, 0, 0, 0);
	insns[n++] = ins(0x18, 2, BPF_PSEUDO_MAP_VALUE, 0, 6);		/* 7: map fd 6 + 16 */
	insns[n++] = ins(0, 0, 0, 0, 16);
	insns[n++] = ins(0x18, 3, BPF_PSEUDO_BTF_ID, 0, 1234);		/* 9: ksym in module fd 30 */
	insns[n++] = ins(0, 0, 0, 0, 30);
	insns[n++] = ins(0x85, 0, BPF_PSEUDO_KFUNC_CALL, 1, 777);	/* 11: kfunc, fd_array[1] */
	insns[n++] = ins(0x18, 4, BPF_PSEUDO_MAP_IDX_VALUE, 0, 2);	/* 12: fd_array[2] again */
	insns[n++] = ins(0, 0, 0, 0, 0);
	insns[n++] = ins(0x85, 0, 0, 0, 1);				/* call helper */
	insns[n++] = ins(0x95, 0, 0, 0, 0);				/* exit */

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_KPROBE;
	attr.insn_cnt = n;
	attr.insns = PTR_U64(insns);
	attr.license = PTR_U64(license);
	attr.log_level = 1;
	attr.log_size = sizeof(log);
	attr.log_buf = PTR_U64(log);
	attr.prog_btf_fd = 9;
	attr.func_info_rec_size = sizeof(finfo[0]);
	attr.func_info = PTR_U64(finfo);
	attr.func_info_cnt = 2;
	attr.fd_array = PTR_U64(fd_array);
	fake_mem(&fk, insns, sizeof(insns));
	fake_mem(&fk, license, sizeof(license));
	fake_mem(&fk, finfo, sizeof(finfo));
	fake_mem(&fk, fd_array, sizeof(fd_array));
	fake_mem2(&fk, log, log_entry, sizeof(log));

	ck_assert_int_eq(bpfrr_abi_walk(BPF_PROG_LOAD, &attr, sizeof(attr), BPFRR_PHASE_ENTRY, &env,
					collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 4);
	ck_assert_uint_eq(find_buf(&s, "attr.insns")->len, n * 8u);
	ck_assert_uint_eq(find_buf(&s, "attr.insns")->elem_size, 8);
	ck_assert_int_eq(find_buf(&s, "attr.insns")->content, BPFRR_CONTENT_INSNS);
	ck_assert_uint_eq(find_buf(&s, "attr.license")->len, 4);
	ck_assert_uint_eq(find_buf(&s, "attr.func_info")->len, sizeof(finfo));
	ck_assert_uint_eq(find_buf(&s, "attr.func_info")->elem_size, sizeof(finfo[0]));
	/* fd_array: highest index the insns use is 2 */
	ck_assert_uint_eq(find_buf(&s, "attr.fd_array")->len, 3 * 4);
	ck_assert_int_eq(find_buf(&s, "attr.fd_array")->dir, BPFRR_DIR_IN);
	ck_assert(!has_buf(&s, "attr.log_buf"));

	ck_assert_int_eq(bpfrr_abi_walk_fds(BPF_PROG_LOAD, &attr, sizeof(attr), &env, collect_fd, &fds), 0);
	ck_assert_int_eq(fds.n, 6);
	f = find_fd(&fds, "attr.prog_btf_fd");
	ck_assert_int_eq(f->fd, 9);
	ck_assert_int_eq(f->kind, BPFRR_OBJ_BTF);
	ck_assert_int_eq(f->where, BPFRR_FD_IN_ATTR);
	ck_assert_uint_eq(f->attr_offset, 72);
	f = find_fd(&fds, "attr.insns[3].imm");
	ck_assert_int_eq(f->fd, 5);
	ck_assert_int_eq(f->kind, BPFRR_OBJ_MAP);
	ck_assert_int_eq(f->type, BPFRR_FDREF_LD_IMM64);
	ck_assert_int_eq(f->where, BPFRR_FD_IN_BUF);
	ck_assert_uint_eq(f->buf_addr, PTR_U64(insns));
	ck_assert_uint_eq(f->buf_offset, 3 * 8 + 4);
	ck_assert_int_eq(f->insn_idx, 3);
	f = find_fd(&fds, "attr.insns[7].imm");
	ck_assert_int_eq(f->fd, 6);
	f = find_fd(&fds, "attr.insns[10].imm");
	ck_assert_int_eq(f->fd, 30);
	ck_assert_int_eq(f->kind, BPFRR_OBJ_BTF);
	ck_assert_int_eq(f->type, BPFRR_FDREF_BTF_ID_MODULE);
	ck_assert_uint_eq(f->buf_offset, 10 * 8 + 4);
	ck_assert_int_eq(f->insn_idx, 9);
	f = find_fd(&fds, "attr.fd_array[2]");
	ck_assert_int_eq(f->fd, 41);
	ck_assert_int_eq(f->kind, BPFRR_OBJ_MAP);
	ck_assert_int_eq(f->type, BPFRR_FDREF_FD_ARRAY);
	ck_assert_uint_eq(f->buf_offset, 8);
	ck_assert_int_eq(f->insn_idx, 5);
	f = find_fd(&fds, "attr.fd_array[1]");
	ck_assert_int_eq(f->fd, 40);
	ck_assert_int_eq(f->kind, BPFRR_OBJ_BTF);
	ck_assert_int_eq(f->insn_idx, 11);

	/* exit: the kernel wrote 37 bytes of log */
	exit_attr = attr;
	put_u32(&exit_attr, ATTR_LOG_TRUE_SIZE, 37);
	strcpy(log, "0: R1=ctx() R10=fp0\n...");
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk(BPF_PROG_LOAD, &exit_attr, sizeof(exit_attr), BPFRR_PHASE_EXIT,
					&env, collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 1);
	ck_assert_uint_eq(find_buf(&s, "attr.log_buf")->len, 37);
	ck_assert_int_eq(find_buf(&s, "attr.log_buf")->content, BPFRR_CONTENT_LOG);
	ck_assert_int_eq(find_buf(&s, "attr.log_buf")->dir, BPFRR_DIR_OUT);
	/* an attr too small for log_true_size (libbpf 1.1 passes 128 bytes): up to the NUL */
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk(BPF_PROG_LOAD, &exit_attr, 128, BPFRR_PHASE_EXIT, &env,
					collect_buf, &s), 0);
	ck_assert_uint_eq(find_buf(&s, "attr.log_buf")->len, strlen(log) + 1);

	/* log_true_size bigger than the buffer: what fits */
	put_u32(&exit_attr, ATTR_LOG_TRUE_SIZE, 5000);
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk(BPF_PROG_LOAD, &exit_attr, sizeof(exit_attr), BPFRR_PHASE_EXIT,
					&env, collect_buf, &s), 0);
	ck_assert_uint_eq(find_buf(&s, "attr.log_buf")->len, sizeof(log));
}
END_TEST

START_TEST(test_prog_load_bogus)
{
	struct bpf_insn insns[2] = { ins(0xb7, 0, 0, 0, 0), ins(0x95, 0, 0, 0, 0) };
	char unterminated[8] = { 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H' };
	union bpf_attr attr;
	struct fake fk = { 0 };
	struct bpfrr_abi_env env = fake_env(&fk);
	struct seen s = { 0 };
	const struct seen_buf *b;

	memset(&attr, 0, sizeof(attr));
	attr.insn_cnt = 0xffffffffu;
	attr.insns = PTR_U64(insns);
	attr.license = PTR_U64(unterminated);
	attr.func_info_rec_size = 0x10000;
	attr.func_info_cnt = 0x10000;
	attr.func_info = 0x1000;
	fake_mem(&fk, insns, sizeof(insns));
	fake_mem(&fk, unterminated, sizeof(unterminated));
	ck_assert_int_eq(bpfrr_abi_walk(BPF_PROG_LOAD, &attr, sizeof(attr), BPFRR_PHASE_ENTRY, &env,
					collect_buf, &s), 0);
	b = find_buf(&s, "attr.insns");
	ck_assert_uint_eq(b->len, BPFRR_ABI_BUF_MAX);
	ck_assert_uint_eq(b->want, 0xffffffffull * 8);
	ck_assert(b->flags & BPFRR_ABI_BUF_TRUNCATED);
	b = find_buf(&s, "attr.func_info");
	ck_assert_uint_eq(b->len, BPFRR_ABI_BUF_MAX);
	ck_assert_uint_eq(b->want, 1ull << 32);
	ck_assert(b->flags & BPFRR_ABI_BUF_TRUNCATED);
	/* the string runs into unreadable memory: what could be read, flagged */
	b = find_buf(&s, "attr.license");
	ck_assert_uint_eq(b->len, sizeof(unterminated));
	ck_assert(b->flags & BPFRR_ABI_BUF_NO_NUL);
	/* fd_array absent: nothing to size */
	ck_assert(!has_buf(&s, "attr.fd_array"));

	/* an attr shorter than the fields: they are not there */
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk(BPF_PROG_LOAD, &attr, 12, BPFRR_PHASE_ENTRY, &env,
					collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 0);
	ck_assert_int_eq(bpfrr_abi_walk(99, &attr, sizeof(attr), BPFRR_PHASE_ENTRY, &env,
					collect_buf, &s), -EINVAL);
}
END_TEST

START_TEST(test_map_elem)
{
	unsigned char key[6] = { 1, 2, 3, 4, 5, 6 };
	unsigned char value[64] = { 0 };
	int32_t prog_fd = 23;
	union bpf_attr attr;
	struct fake fk = { 0 };
	struct bpfrr_abi_env env = fake_env(&fk);
	struct seen s = { 0 };
	struct seen_fds fds = { 0 };

	fake_fd(&fk, 4, BPFRR_OBJ_MAP, BPF_MAP_TYPE_PERCPU_HASH, 6, 12);
	fake_fd(&fk, 5, BPFRR_OBJ_MAP, BPF_MAP_TYPE_PROG_ARRAY, 4, 4);
	fake_mem(&fk, key, sizeof(key));
	fake_mem(&fk, value, sizeof(value));
	fake_mem(&fk, &prog_fd, sizeof(prog_fd));

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = 4;
	attr.key = PTR_U64(key);
	attr.value = PTR_U64(value);
	ck_assert_int_eq(bpfrr_abi_walk(BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr), BPFRR_PHASE_ENTRY, &env,
					collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 2);
	ck_assert_uint_eq(find_buf(&s, "attr.key")->len, 6);
	/* per-CPU: round_up(12, 8) * 3 CPUs */
	ck_assert_uint_eq(find_buf(&s, "attr.value")->len, 48);
	ck_assert_int_eq(find_buf(&s, "attr.value")->content, BPFRR_CONTENT_VALUE);

	/* lookup: key in at entry, value out at exit */
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk(BPF_MAP_LOOKUP_ELEM, &attr, sizeof(attr), BPFRR_PHASE_ENTRY, &env,
					collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 1);
	ck_assert_str_eq(s.b[0].path, "attr.key");
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk(BPF_MAP_LOOKUP_ELEM, &attr, sizeof(attr), BPFRR_PHASE_EXIT, &env,
					collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 1);
	ck_assert_str_eq(s.b[0].path, "attr.value");
	ck_assert_uint_eq(s.b[0].len, 48);

	/* unknown map: length unknown, flagged, not guessed */
	attr.map_fd = 77;
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk(BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr), BPFRR_PHASE_ENTRY, &env,
					collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 2);
	ck_assert_uint_eq(s.b[0].len, 0);
	ck_assert(s.b[0].flags & BPFRR_ABI_BUF_LEN_UNKNOWN);

	/* per-CPU without nr_cpus: unknown too */
	attr.map_fd = 4;
	env.nr_cpus = 0;
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk(BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr), BPFRR_PHASE_ENTRY, &env,
					collect_buf, &s), 0);
	ck_assert(find_buf(&s, "attr.value")->flags & BPFRR_ABI_BUF_LEN_UNKNOWN);
	env.nr_cpus = 3;

	/* prog array update: the value is a program fd */
	attr.map_fd = 5;
	attr.value = PTR_U64(&prog_fd);
	ck_assert_int_eq(bpfrr_abi_walk_fds(BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr), &env, collect_fd,
					    &fds), 0);
	ck_assert_int_eq(fds.n, 2);
	ck_assert_int_eq(find_fd(&fds, "attr.map_fd")->kind, BPFRR_OBJ_MAP);
	ck_assert_int_eq(find_fd(&fds, "attr.map_fd")->fd, 5);
	ck_assert_int_eq(find_fd(&fds, "attr.value")->fd, 23);
	ck_assert_int_eq(find_fd(&fds, "attr.value")->kind, BPFRR_OBJ_PROG);
	ck_assert_int_eq(find_fd(&fds, "attr.value")->type, BPFRR_FDREF_MAP_VALUE);

	/* delete: no value, no flags in 6.12 */
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk(BPF_MAP_DELETE_ELEM, &attr, sizeof(attr), BPFRR_PHASE_ENTRY, &env,
					collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 1);
	ck_assert_str_eq(s.b[0].path, "attr.key");
}
END_TEST

START_TEST(test_map_batch)
{
	int32_t inner[3] = { 11, 12, 13 };
	uint32_t keys[3] = { 0, 1, 2 };
	uint32_t token = 0;
	uint64_t vals[8];
	union bpf_attr attr, exit_attr;
	struct fake fk = { 0 };
	struct bpfrr_abi_env env = fake_env(&fk);
	struct seen s = { 0 };
	struct seen_fds fds = { 0 };

	fake_fd(&fk, 4, BPFRR_OBJ_MAP, BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4);
	fake_fd(&fk, 6, BPFRR_OBJ_MAP, BPF_MAP_TYPE_LRU_PERCPU_HASH, 4, 8);
	fake_mem(&fk, inner, sizeof(inner));
	fake_mem(&fk, keys, sizeof(keys));
	fake_mem(&fk, vals, sizeof(vals));
	fake_mem(&fk, &token, sizeof(token));

	memset(&attr, 0, sizeof(attr));
	attr.batch.map_fd = 4;
	attr.batch.keys = PTR_U64(keys);
	attr.batch.values = PTR_U64(inner);
	attr.batch.count = 3;
	ck_assert_int_eq(bpfrr_abi_walk(BPF_MAP_UPDATE_BATCH, &attr, sizeof(attr), BPFRR_PHASE_ENTRY, &env,
					collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 2);
	ck_assert_uint_eq(find_buf(&s, "attr.batch.keys")->len, 12);
	ck_assert_uint_eq(find_buf(&s, "attr.batch.values")->len, 12);
	ck_assert_int_eq(bpfrr_abi_walk_fds(BPF_MAP_UPDATE_BATCH, &attr, sizeof(attr), &env, collect_fd,
					    &fds), 0);
	ck_assert_int_eq(fds.n, 4);
	ck_assert_int_eq(find_fd(&fds, "attr.batch.values[0]")->fd, 11);
	ck_assert_int_eq(find_fd(&fds, "attr.batch.values[2]")->fd, 13);
	ck_assert_uint_eq(find_fd(&fds, "attr.batch.values[2]")->buf_offset, 8);
	ck_assert_int_eq(find_fd(&fds, "attr.batch.values[1]")->kind, BPFRR_OBJ_MAP);

	/* lookup batch on a per-CPU hash: capacity 4, the kernel filled 2 */
	memset(&attr, 0, sizeof(attr));
	attr.batch.map_fd = 6;
	attr.batch.in_batch = PTR_U64(&token);
	attr.batch.out_batch = PTR_U64(&token);
	attr.batch.keys = PTR_U64(keys);
	attr.batch.values = PTR_U64(vals);
	attr.batch.count = 4;
	exit_attr = attr;
	exit_attr.batch.count = 2;
	env.entry_attr = &attr;
	env.entry_attr_size = sizeof(attr);
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk(BPF_MAP_LOOKUP_BATCH, &exit_attr, sizeof(exit_attr),
					BPFRR_PHASE_EXIT, &env, collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 3);
	ck_assert_uint_eq(find_buf(&s, "attr.batch.out_batch")->len, 4);
	ck_assert_uint_eq(find_buf(&s, "attr.batch.keys")->len, 2 * 4);
	ck_assert_uint_eq(find_buf(&s, "attr.batch.values")->len, 2 * 8 * 3);
	ck_assert_uint_eq(find_buf(&s, "attr.batch.values")->elem_size, 24);
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk(BPF_MAP_LOOKUP_BATCH, &attr, sizeof(attr), BPFRR_PHASE_ENTRY,
					&env, collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 1);
	ck_assert_uint_eq(find_buf(&s, "attr.batch.in_batch")->len, 4);
}
END_TEST

START_TEST(test_obj_get_info_prog)
{
	struct bpf_prog_info entry_info, info;
	uint32_t map_ids[4];
	struct bpf_insn xlated[8];
	uint64_t ksyms[2];
	unsigned char tags[2][8];
	struct bpf_func_info finfo[4];
	union bpf_attr attr, exit_attr;
	struct fake fk = { 0 };
	struct bpfrr_abi_env env = fake_env(&fk);
	struct seen s = { 0 };
	const struct seen_buf *b;

	memset(&entry_info, 0, sizeof(entry_info));
	entry_info.nr_map_ids = 4;
	entry_info.map_ids = PTR_U64(map_ids);
	entry_info.xlated_prog_len = sizeof(xlated);
	entry_info.xlated_prog_insns = PTR_U64(xlated);
	entry_info.nr_jited_ksyms = 2;
	entry_info.jited_ksyms = PTR_U64(ksyms);
	entry_info.nr_prog_tags = 2;
	entry_info.prog_tags = PTR_U64(tags);
	entry_info.nr_func_info = 4;
	entry_info.func_info = PTR_U64(finfo);
	/* what the kernel left: 2 maps, 128 bytes of xlated insns wanted, 1 ksym, 1 func */
	info = entry_info;
	info.type = BPF_PROG_TYPE_KPROBE;
	info.nr_map_ids = 2;
	info.xlated_prog_len = 128;
	info.nr_jited_ksyms = 1;
	info.nr_prog_tags = 1;
	info.nr_func_info = 1;
	info.func_info_rec_size = sizeof(struct bpf_func_info);
	fake_mem2(&fk, &info, &entry_info, sizeof(info));
	fake_fd(&fk, 7, BPFRR_OBJ_PROG, BPF_PROG_TYPE_KPROBE, 0, 0);

	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = 7;
	attr.info.info_len = sizeof(info);
	attr.info.info = PTR_U64(&info);
	exit_attr = attr;
	exit_attr.info.info_len = 232;

	/* entry: the kernel reads the struct */
	ck_assert_int_eq(bpfrr_abi_walk(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr), BPFRR_PHASE_ENTRY,
					&env, collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 1);
	ck_assert_str_eq(s.b[0].path, "attr.info.info");
	ck_assert_uint_eq(s.b[0].len, sizeof(info));
	ck_assert_int_eq(s.b[0].content, BPFRR_CONTENT_PROG_INFO);
	ck_assert_int_eq(s.b[0].dir, BPFRR_DIR_INOUT);

	env.entry_attr = &attr;
	env.entry_attr_size = sizeof(attr);
	env.read_entry_mem = fake_read_entry;
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk(BPF_OBJ_GET_INFO_BY_FD, &exit_attr, sizeof(exit_attr),
					BPFRR_PHASE_EXIT, &env, collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 6);
	b = find_buf(&s, "attr.info.info");
	ck_assert_uint_eq(b->len, 232);
	ck_assert_int_eq(b->depth, 0);
	b = find_buf(&s, "attr.info.info.map_ids");
	ck_assert_uint_eq(b->len, 2 * 4);
	ck_assert_int_eq(b->content, BPFRR_CONTENT_IDS);
	ck_assert_int_eq(b->depth, 1);
	ck_assert_int_eq(b->dir, BPFRR_DIR_OUT);
	/* wanted 128, room for 64 */
	ck_assert_uint_eq(find_buf(&s, "attr.info.info.xlated_prog_insns")->len, sizeof(xlated));
	ck_assert_uint_eq(find_buf(&s, "attr.info.info.jited_ksyms")->len, 8);
	ck_assert_uint_eq(find_buf(&s, "attr.info.info.prog_tags")->len, 8);
	ck_assert_uint_eq(find_buf(&s, "attr.info.info.func_info")->len, sizeof(struct bpf_func_info));

	/* without the entry copy, the exit counts are taken as they are */
	env.read_entry_mem = NULL;
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk(BPF_OBJ_GET_INFO_BY_FD, &exit_attr, sizeof(exit_attr),
					BPFRR_PHASE_EXIT, &env, collect_buf, &s), 0);
	ck_assert_uint_eq(find_buf(&s, "attr.info.info.xlated_prog_insns")->len, 128);

	/* a map's info has no arrays */
	fake_fd(&fk, 8, BPFRR_OBJ_MAP, 1, 4, 4);
	exit_attr.info.bpf_fd = 8;
	exit_attr.info.info_len = 88;
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk(BPF_OBJ_GET_INFO_BY_FD, &exit_attr, sizeof(exit_attr),
					BPFRR_PHASE_EXIT, &env, collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 1);
	ck_assert_int_eq(s.b[0].content, BPFRR_CONTENT_MAP_INFO);
	ck_assert_uint_eq(s.b[0].len, 88);
}
END_TEST

START_TEST(test_obj_get_info_link)
{
	struct bpf_link_info info;
	char name[64] = "sys_enter_openat";
	union bpf_attr attr;
	struct fake fk = { 0 };
	struct bpfrr_abi_env env = fake_env(&fk);
	struct seen s = { 0 };

	memset(&info, 0, sizeof(info));
	info.type = BPF_LINK_TYPE_PERF_EVENT;
	put_u32(&info, LINK_INFO_PERF_TYPE, PERF_EVENT_TRACEPOINT);
	put_u64(&info, LINK_INFO_PERF_TP_NAME, PTR_U64(name));
	put_u32(&info, LINK_INFO_PERF_TP_LEN, strlen(name) + 1);
	fake_mem(&fk, &info, sizeof(info));
	fake_mem(&fk, name, sizeof(name));
	fake_fd(&fk, 3, BPFRR_OBJ_LINK, BPF_LINK_TYPE_PERF_EVENT, 0, 0);
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = 3;
	attr.info.info_len = sizeof(info);
	attr.info.info = PTR_U64(&info);
	ck_assert_int_eq(bpfrr_abi_walk(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr), BPFRR_PHASE_EXIT,
					&env, collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 2);
	ck_assert_int_eq(find_buf(&s, "attr.info.info")->content, BPFRR_CONTENT_LINK_INFO);
	ck_assert_uint_eq(find_buf(&s, "attr.info.info.perf_event.tracepoint.tp_name")->len,
			  strlen(name) + 1);
}
END_TEST

START_TEST(test_prog_query)
{
	uint32_t ids[4], flags[4];
	union bpf_attr attr, exit_attr;
	struct fake fk = { 0 };
	struct bpfrr_abi_env env = fake_env(&fk);
	struct seen s = { 0 };
	struct seen_fds fds = { 0 };

	memset(&attr, 0, sizeof(attr));
	attr.query.target_fd = 3;
	attr.query.attach_type = BPF_CGROUP_INET_INGRESS;
	attr.query.prog_ids = PTR_U64(ids);
	attr.query.prog_attach_flags = PTR_U64(flags);
	attr.query.prog_cnt = 4;
	exit_attr = attr;
	exit_attr.query.prog_cnt = 10;	/* ten attached, room for four */
	env.entry_attr = &attr;
	env.entry_attr_size = sizeof(attr);
	ck_assert_int_eq(bpfrr_abi_walk(BPF_PROG_QUERY, &exit_attr, sizeof(exit_attr), BPFRR_PHASE_EXIT,
					&env, collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 2);
	ck_assert_uint_eq(find_buf(&s, "attr.query.prog_ids")->len, 16);
	ck_assert_uint_eq(find_buf(&s, "attr.query.prog_attach_flags")->len, 16);
	exit_attr.query.prog_cnt = 1;
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk(BPF_PROG_QUERY, &exit_attr, sizeof(exit_attr), BPFRR_PHASE_EXIT,
					&env, collect_buf, &s), 0);
	ck_assert_uint_eq(find_buf(&s, "attr.query.prog_ids")->len, 4);
	/* the target is a cgroup here, a netns for flow dissector, an ifindex for tcx */
	ck_assert_int_eq(bpfrr_abi_walk_fds(BPF_PROG_QUERY, &attr, sizeof(attr), &env, collect_fd, &fds), 0);
	ck_assert_int_eq(fds.n, 1);
	ck_assert_int_eq(fds.f[0].kind, BPFRR_OBJ_CGROUP);
	ck_assert_str_eq(fds.f[0].path, "attr.query.target_fd");
	attr.query.attach_type = BPF_FLOW_DISSECTOR;
	fds.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk_fds(BPF_PROG_QUERY, &attr, sizeof(attr), &env, collect_fd, &fds), 0);
	ck_assert_int_eq(fds.f[0].kind, BPFRR_OBJ_NETNS);
	attr.query.attach_type = 46;	/* BPF_TCX_INGRESS */
	fds.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk_fds(BPF_PROG_QUERY, &attr, sizeof(attr), &env, collect_fd, &fds), 0);
	ck_assert_int_eq(fds.n, 0);
}
END_TEST

START_TEST(test_test_run)
{
	unsigned char in[32] = { 0 }, out[256] = { 0 }, ctx[16] = { 0 };
	union bpf_attr attr, exit_attr;
	struct fake fk = { 0 };
	struct bpfrr_abi_env env = fake_env(&fk);
	struct seen s = { 0 };

	fake_mem(&fk, in, sizeof(in));
	fake_mem(&fk, out, sizeof(out));
	fake_mem(&fk, ctx, sizeof(ctx));
	fake_fd(&fk, 3, BPFRR_OBJ_PROG, BPF_PROG_TYPE_SYSCALL, 0, 0);
	fake_fd(&fk, 4, BPFRR_OBJ_PROG, BPF_PROG_TYPE_XDP, 0, 0);
	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = 4;
	attr.test.data_in = PTR_U64(in);
	attr.test.data_size_in = sizeof(in);
	attr.test.data_out = PTR_U64(out);
	attr.test.data_size_out = 0;	/* no limit */
	attr.test.ctx_in = PTR_U64(ctx);
	attr.test.ctx_size_in = sizeof(ctx);
	exit_attr = attr;
	exit_attr.test.data_size_out = 100;
	env.entry_attr = &attr;
	env.entry_attr_size = sizeof(attr);
	ck_assert_int_eq(bpfrr_abi_walk(BPF_PROG_TEST_RUN, &exit_attr, sizeof(exit_attr), BPFRR_PHASE_EXIT,
					&env, collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 1);
	ck_assert_uint_eq(find_buf(&s, "attr.test.data_out")->len, 100);
	/* a syscall program's ctx is written back */
	attr.test.prog_fd = exit_attr.test.prog_fd = 3;
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk(BPF_PROG_TEST_RUN, &exit_attr, sizeof(exit_attr), BPFRR_PHASE_EXIT,
					&env, collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 2);
	ck_assert_uint_eq(find_buf(&s, "attr.test.ctx_in")->len, sizeof(ctx));
	ck_assert_int_eq(find_buf(&s, "attr.test.ctx_in")->dir, BPFRR_DIR_INOUT);
}
END_TEST

START_TEST(test_link_create)
{
	static const char sym0[] = "do_sys_openat2", sym1[] = "vfs_read";
	uint64_t syms[2] = { PTR_U64(sym0), PTR_U64(sym1) };
	uint64_t cookies[2] = { 1, 2 };
	union bpf_iter_link_info linfo;
	union bpf_attr attr;
	struct fake fk = { 0 };
	struct bpfrr_abi_env env = fake_env(&fk);
	struct seen s = { 0 };
	struct seen_fds fds = { 0 };

	fake_mem(&fk, sym0, sizeof(sym0));
	fake_mem(&fk, sym1, sizeof(sym1));
	fake_mem(&fk, syms, sizeof(syms));
	fake_mem(&fk, cookies, sizeof(cookies));
	fake_mem(&fk, &linfo, sizeof(linfo));
	fake_fd(&fk, 3, BPFRR_OBJ_PROG, BPF_PROG_TYPE_KPROBE, 0, 0);
	fake_fd(&fk, 4, BPFRR_OBJ_PROG, BPF_PROG_TYPE_EXT, 0, 0);
	fake_fd(&fk, 5, BPFRR_OBJ_PROG, BPF_PROG_TYPE_TRACING, 0, 0);

	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = 3;
	attr.link_create.attach_type = BPF_TRACE_KPROBE_MULTI;
	attr.link_create.kprobe_multi.cnt = 2;
	attr.link_create.kprobe_multi.syms = PTR_U64(syms);
	attr.link_create.kprobe_multi.cookies = PTR_U64(cookies);
	ck_assert_int_eq(bpfrr_abi_walk(BPF_LINK_CREATE, &attr, sizeof(attr), BPFRR_PHASE_ENTRY, &env,
					collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 4);
	ck_assert_uint_eq(find_buf(&s, "attr.link_create.kprobe_multi.syms")->len, 16);
	ck_assert_uint_eq(find_buf(&s, "attr.link_create.kprobe_multi.syms[0]")->len, sizeof(sym0));
	ck_assert_uint_eq(find_buf(&s, "attr.link_create.kprobe_multi.syms[1]")->len, sizeof(sym1));
	ck_assert_int_eq(find_buf(&s, "attr.link_create.kprobe_multi.syms[1]")->depth, 1);
	ck_assert_uint_eq(find_buf(&s, "attr.link_create.kprobe_multi.cookies")->len, 16);
	ck_assert_int_eq(bpfrr_abi_walk_fds(BPF_LINK_CREATE, &attr, sizeof(attr), &env, collect_fd, &fds), 0);
	ck_assert_int_eq(fds.n, 1);
	ck_assert_str_eq(fds.f[0].path, "attr.link_create.prog_fd");

	/* freplace: only env knows the prog is an EXT, whose target_fd is a program */
	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = 4;
	attr.link_create.target_fd = 5;
	attr.link_create.target_btf_id = 77;
	fds.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk_fds(BPF_LINK_CREATE, &attr, sizeof(attr), &env, collect_fd, &fds), 0);
	ck_assert_int_eq(fds.n, 2);
	ck_assert_int_eq(find_fd(&fds, "attr.link_create.target_fd")->kind, BPFRR_OBJ_PROG);
	/* ... while attach type 0 alone says cgroup */
	fds.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk_fds(BPF_LINK_CREATE, &attr, sizeof(attr), NULL, collect_fd, &fds), 0);
	ck_assert_int_eq(find_fd(&fds, "attr.link_create.target_fd")->kind, BPFRR_OBJ_CGROUP);

	/* a map element iterator: the map fd inside iter_info */
	memset(&attr, 0, sizeof(attr));
	memset(&linfo, 0, sizeof(linfo));
	linfo.map.map_fd = 9;
	attr.link_create.prog_fd = 5;
	attr.link_create.attach_type = BPF_TRACE_ITER;
	attr.link_create.iter_info = PTR_U64(&linfo);
	attr.link_create.iter_info_len = sizeof(linfo);
	fk.iter_target = "bpf_map_elem";
	fds.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk_fds(BPF_LINK_CREATE, &attr, sizeof(attr), &env, collect_fd, &fds), 0);
	ck_assert_int_eq(fds.n, 2);
	ck_assert_int_eq(find_fd(&fds, "attr.link_create.iter_info.map.map_fd")->fd, 9);
	ck_assert_int_eq(find_fd(&fds, "attr.link_create.iter_info.map.map_fd")->kind, BPFRR_OBJ_MAP);
	ck_assert_uint_eq(find_fd(&fds, "attr.link_create.iter_info.map.map_fd")->buf_addr, PTR_U64(&linfo));
	/* a task iterator with a pidfd */
	memset(&linfo, 0, sizeof(linfo));
	linfo.task.pid_fd = 12;
	fk.iter_target = "task";
	fds.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk_fds(BPF_LINK_CREATE, &attr, sizeof(attr), &env, collect_fd, &fds), 0);
	ck_assert_int_eq(find_fd(&fds, "attr.link_create.iter_info.task.pid_fd")->kind, BPFRR_OBJ_PIDFD);
	/* unknown target: the buffer, but no guessing at fds in it */
	fk.iter_target = NULL;
	fds.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk_fds(BPF_LINK_CREATE, &attr, sizeof(attr), &env, collect_fd, &fds), 0);
	ck_assert_int_eq(fds.n, 1);
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk(BPF_LINK_CREATE, &attr, sizeof(attr), BPFRR_PHASE_ENTRY, &env,
					collect_buf, &s), 0);
	ck_assert_uint_eq(find_buf(&s, "attr.link_create.iter_info")->len, sizeof(linfo));
}
END_TEST

struct seen_field {
	char path[96];
	uint64_t value;
	char sym[128];
	bool has_sym;
};

struct seen_fields {
	struct seen_field f[64];
	int n;
};

static int collect_field(void *arg, const struct bpfrr_field *f, const char *path, uint64_t value,
			 const char *symbolic)
{
	struct seen_fields *s = arg;

	(void)f;
	ck_assert_int_lt(s->n, (int)ARRAY_SIZE(s->f));
	snprintf(s->f[s->n].path, sizeof(s->f[s->n].path), "%s", path);
	s->f[s->n].value = value;
	s->f[s->n].has_sym = symbolic != NULL;
	snprintf(s->f[s->n].sym, sizeof(s->f[s->n].sym), "%s", symbolic ? symbolic : "");
	s->n++;
	return 0;
}

static const struct seen_field *find_field(const struct seen_fields *s, const char *path)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->f[i].path, path))
			return &s->f[i];
	return NULL;
}

START_TEST(test_walk_fields)
{
	union bpf_attr attr;
	struct seen_fields s = { 0 };

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_HASH;
	attr.key_size = 4;
	attr.value_size = 8;
	attr.max_entries = 1024;
	attr.map_flags = BPF_F_NO_PREALLOC | BPF_F_MMAPABLE;
	strcpy(attr.map_name, "counts\"x");
	attr.numa_node = -1;
	ck_assert_int_eq(bpfrr_abi_walk_fields(BPF_MAP_CREATE, &attr, sizeof(attr), collect_field, &s), 0);
	/* 16 fields of 6.12, and 6.18's excl_prog_hash and its size if this header's attr holds them */
	ck_assert_int_eq(s.n, sizeof(attr) >= 92 ? 18 : 16);
	ck_assert_str_eq(s.f[0].path, "attr.map_type");
	ck_assert_str_eq(s.f[0].sym, "hash");
	ck_assert_str_eq(find_field(&s, "attr.map_flags")->sym, "BPF_F_NO_PREALLOC|BPF_F_MMAPABLE");
	ck_assert_str_eq(find_field(&s, "attr.map_name")->sym, "counts\\x22x");
	ck_assert_uint_eq(find_field(&s, "attr.max_entries")->value, 1024);
	ck_assert(!find_field(&s, "attr.max_entries")->has_sym);
	ck_assert_int_eq((int64_t)find_field(&s, "attr.numa_node")->value, -1);

	/* a short attr: only the fields it holds */
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk_fields(BPF_MAP_CREATE, &attr, 48, collect_field, &s), 0);
	ck_assert_int_eq(s.n, 9);

	/* link_create for tcx: target_ifindex, tcx.relative_fd/_id by flags */
	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = 3;
	attr.link_create.target_ifindex = 2;
	attr.link_create.attach_type = 46;	/* BPF_TCX_INGRESS */
	attr.link_create.flags = F_BEFORE | F_ID;
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk_fields(BPF_LINK_CREATE, &attr, sizeof(attr), collect_field, &s), 0);
	ck_assert_ptr_nonnull(find_field(&s, "attr.link_create.target_ifindex"));
	ck_assert_ptr_null(find_field(&s, "attr.link_create.target_fd"));
	ck_assert_ptr_nonnull(find_field(&s, "attr.link_create.tcx.relative_id"));
	ck_assert_ptr_null(find_field(&s, "attr.link_create.tcx.relative_fd"));
	ck_assert_ptr_null(find_field(&s, "attr.link_create.kprobe_multi.cnt"));
	ck_assert_str_eq(find_field(&s, "attr.link_create.attach_type")->sym, "tcx_ingress");
	ck_assert_str_eq(find_field(&s, "attr.link_create.flags")->sym, "BPF_F_BEFORE|BPF_F_ID");
	/* XDP links take XDP_FLAGS_* */
	attr.link_create.attach_type = BPF_XDP;
	attr.link_create.flags = 2;
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk_fields(BPF_LINK_CREATE, &attr, sizeof(attr), collect_field, &s), 0);
	ck_assert_str_eq(find_field(&s, "attr.link_create.flags")->sym, "XDP_FLAGS_SKB_MODE");

	/* prog load: tag-like and flag fields */
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_TRACING;
	attr.expected_attach_type = BPF_TRACE_FENTRY;
	attr.prog_flags = BPF_F_SLEEPABLE;
	attr.log_level = 1 | 4;
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk_fields(BPF_PROG_LOAD, &attr, sizeof(attr), collect_field, &s), 0);
	ck_assert_str_eq(find_field(&s, "attr.prog_type")->sym, "tracing");
	ck_assert_str_eq(find_field(&s, "attr.expected_attach_type")->sym, "trace_fentry");
	ck_assert_str_eq(find_field(&s, "attr.prog_flags")->sym, "BPF_F_SLEEPABLE");
	ck_assert_str_eq(find_field(&s, "attr.log_level")->sym, "BPF_LOG_LEVEL1|BPF_LOG_STATS");
	ck_assert_ptr_nonnull(find_field(&s, "attr.attach_btf_obj_fd"));
	ck_assert_ptr_null(find_field(&s, "attr.attach_prog_fd"));
}
END_TEST

START_TEST(test_info_struct_fields)
{
	struct bpf_prog_info info;
	struct seen_fields s = { 0 };

	memset(&info, 0, sizeof(info));
	info.type = BPF_PROG_TYPE_XDP;
	info.id = 42;
	memcpy(info.tag, "\x01\x23\x45\x67\x89\xab\xcd\xef", 8);
	strcpy(info.name, "xdp_pass");
	ck_assert_int_eq(bpfrr_abi_walk_struct_fields(&bpfrr_abi_prog_info_desc, &info, sizeof(info),
						      "info", 0, collect_field, &s), 0);
	ck_assert_str_eq(find_field(&s, "info.type")->sym, "xdp");
	ck_assert_uint_eq(find_field(&s, "info.id")->value, 42);
	ck_assert_str_eq(find_field(&s, "info.tag")->sym, "0123456789abcdef");
	ck_assert_str_eq(find_field(&s, "info.name")->sym, "xdp_pass");
	ck_assert_ptr_eq(bpfrr_abi_info_desc(BPFRR_OBJ_PROG), &bpfrr_abi_prog_info_desc);
	ck_assert_ptr_null(bpfrr_abi_info_desc(BPFRR_OBJ_CGROUP));
}
END_TEST

START_TEST(test_misc_fds)
{
	union bpf_attr attr;
	struct seen_fds fds = { 0 };

	/* optional fds: 0 is none; token/path fds only with their flags */
	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY_OF_MAPS;
	attr.inner_map_fd = 6;
	put_u32(&attr, ATTR_MAP_TOKEN_FD, 8);
	ck_assert_int_eq(bpfrr_abi_walk_fds(BPF_MAP_CREATE, &attr, sizeof(attr), NULL, collect_fd, &fds), 0);
	ck_assert_int_eq(fds.n, 1);
	ck_assert_str_eq(fds.f[0].path, "attr.inner_map_fd");
	attr.map_flags = 1u << 16;	/* BPF_F_TOKEN_FD */
	fds.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk_fds(BPF_MAP_CREATE, &attr, sizeof(attr), NULL, collect_fd, &fds), 0);
	ck_assert_int_eq(fds.n, 2);
	ck_assert_int_eq(find_fd(&fds, "attr.map_token_fd")->kind, BPFRR_OBJ_TOKEN);
	ck_assert_uint_eq(find_fd(&fds, "attr.map_token_fd")->attr_offset, 76);

	/* task_fd_query's fd is another task's: not walked */
	memset(&attr, 0, sizeof(attr));
	attr.task_fd_query.pid = 100;
	attr.task_fd_query.fd = 5;
	fds.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk_fds(BPF_TASK_FD_QUERY, &attr, sizeof(attr), NULL, collect_fd, &fds), 0);
	ck_assert_int_eq(fds.n, 0);

	/* sockmap attach: the target is the map */
	memset(&attr, 0, sizeof(attr));
	attr.target_fd = 4;
	attr.attach_bpf_fd = 5;
	attr.attach_type = BPF_SK_MSG_VERDICT;
	fds.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk_fds(BPF_PROG_ATTACH, &attr, sizeof(attr), NULL, collect_fd, &fds), 0);
	ck_assert_int_eq(fds.n, 2);
	ck_assert_int_eq(find_fd(&fds, "attr.target_fd")->kind, BPFRR_OBJ_MAP);
	ck_assert_int_eq(find_fd(&fds, "attr.attach_bpf_fd")->kind, BPFRR_OBJ_PROG);

	/* mandatory fds are yielded even when 0 */
	memset(&attr, 0, sizeof(attr));
	fds.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk_fds(BPF_MAP_FREEZE, &attr, sizeof(attr), NULL, collect_fd, &fds), 0);
	ck_assert_int_eq(fds.n, 1);
	ck_assert_int_eq(fds.f[0].fd, 0);
}
END_TEST

static int count_ref(void *arg, const struct bpfrr_insn_ref *ref)
{
	(void)ref;
	(*(int *)arg)++;
	return 0;
}

/* ld_imm64 split across the walker's read chunks (4096 insns) */
START_TEST(test_insns_chunks)
{
	size_t cnt = 4096 * 2 + 10;
	struct bpf_insn *insns = calloc(cnt, sizeof(*insns));
	union bpf_attr attr;
	struct fake fk = { 0 };
	struct bpfrr_abi_env env = fake_env(&fk);
	struct seen_fds fds = { 0 };
	int nrefs = 0;
	uint32_t fa;

	ck_assert_ptr_nonnull(insns);
	for (size_t i = 0; i < cnt; i++)
		insns[i] = ins(0xb7, 0, 0, 0, 0);
	insns[4095] = ins(0x18, 1, BPF_PSEUDO_MAP_FD, 0, 17);	/* spans the boundary */
	insns[4096] = ins(0, 0, 0, 0, 0);
	insns[8000] = ins(0x18, 1, BPF_PSEUDO_BTF_ID, 0, 5);
	insns[8001] = ins(0, 0, 0, 0, 19);
	fake_mem(&fk, insns, cnt * sizeof(*insns));
	memset(&attr, 0, sizeof(attr));
	attr.insn_cnt = cnt;
	attr.insns = PTR_U64(insns);
	ck_assert_int_eq(bpfrr_abi_walk_fds(BPF_PROG_LOAD, &attr, sizeof(attr), &env, collect_fd, &fds), 0);
	ck_assert_int_eq(fds.n, 2);
	ck_assert_int_eq(find_fd(&fds, "attr.insns[4095].imm")->fd, 17);
	ck_assert_int_eq(find_fd(&fds, "attr.insns[8001].imm")->fd, 19);
	ck_assert_int_eq(bpfrr_abi_insn_refs(insns, cnt, count_ref, &nrefs, &fa), 0);
	ck_assert_int_eq(nrefs, 2);
	ck_assert_uint_eq(fa, 0);
	free(insns);
}
END_TEST

/* Garbage attrs: walkers never crash, never yield more than the caps. */
static int check_buf_capped(void *arg, const struct bpfrr_abi_buf *b)
{
	(*(int *)arg)++;
	ck_assert_uint_le(b->len, BPFRR_ABI_BUF_MAX);
	ck_assert(b->len <= b->want_len || (b->flags & BPFRR_ABI_BUF_NO_NUL));
	ck_assert(b->len == b->want_len || (b->flags & BPFRR_ABI_BUF_TRUNCATED));
	return 0;
}

static int count_fd(void *arg, const struct bpfrr_abi_fd_ref *r)
{
	(void)r;
	(*(int *)arg)++;
	return 0;
}

static int count_field(void *arg, const struct bpfrr_field *f, const char *path, uint64_t v, const char *sym)
{
	(void)f;
	(void)v;
	(void)sym;
	ck_assert(!strncmp(path, "attr.", 5));
	(*(int *)arg)++;
	return 0;
}

START_TEST(test_random_attrs)
{
	unsigned char mem[4096];
	struct fake fk = { 0 };
	struct bpfrr_abi_env env = fake_env(&fk);
	unsigned int seed = 12345;
	int bufs = 0, fds = 0, fields = 0;

	for (size_t i = 0; i < sizeof(mem); i++)
		mem[i] = (unsigned char)rand_r(&seed);
	fake_mem(&fk, mem, sizeof(mem));
	fake_fd(&fk, 1, BPFRR_OBJ_MAP, BPF_MAP_TYPE_PERCPU_HASH, 4000, 4000);
	fake_fd(&fk, 2, BPFRR_OBJ_PROG, BPF_PROG_TYPE_SYSCALL, 0, 0);
	fake_fd(&fk, 3, BPFRR_OBJ_LINK, BPF_LINK_TYPE_PERF_EVENT, 0, 0);
	fake_fd(&fk, 4, BPFRR_OBJ_MAP, BPF_MAP_TYPE_PROG_ARRAY, 4, 4);
	for (int round = 0; round < 300; round++) {
		for (int cmd = 0; cmd < BPFRR_ABI_NR_CMDS; cmd++) {
			uint32_t attr[BPFRR_ABI_ATTR_SIZE / 4];

			for (size_t k = 0; k < ARRAY_SIZE(attr); k++) {
				uint32_t r = (uint32_t)rand_r(&seed);

				/* mostly small numbers, some pointers into mem, some garbage */
				switch (r % 4) {
				case 0:
					attr[k] = r % 5;
					break;
				case 1:
					attr[k] = (uint32_t)(uintptr_t)(mem + r % sizeof(mem));
					if (k + 1 < ARRAY_SIZE(attr))
						attr[++k] = (uint32_t)((uint64_t)(uintptr_t)mem >> 32);
					break;
				case 2:
					attr[k] = r % 64;
					break;
				default:
					attr[k] = r;
				}
			}
			env.read_entry_mem = round & 1 ? fake_read_entry : NULL;
			env.entry_attr = round & 2 ? attr : NULL;
			env.entry_attr_size = sizeof(attr);
			ck_assert_int_eq(bpfrr_abi_walk(cmd, attr, sizeof(attr), BPFRR_PHASE_ENTRY, &env,
							check_buf_capped, &bufs), 0);
			ck_assert_int_eq(bpfrr_abi_walk(cmd, attr, sizeof(attr), BPFRR_PHASE_EXIT, &env,
							check_buf_capped, &bufs), 0);
			ck_assert_int_eq(bpfrr_abi_walk_fds(cmd, attr, sizeof(attr), &env, count_fd, &fds), 0);
			ck_assert_int_eq(bpfrr_abi_walk_fields_env(cmd, attr, sizeof(attr), &env, count_field,
								   &fields), 0);
			/* and with nothing known at all */
			ck_assert_int_eq(bpfrr_abi_walk(cmd, attr, sizeof(attr), BPFRR_PHASE_EXIT, NULL,
							check_buf_capped, &bufs), 0);
			ck_assert_int_eq(bpfrr_abi_walk_fds(cmd, attr, sizeof(attr), NULL, count_fd, &fds), 0);
		}
	}
	printf("# random attrs: %d buffers, %d fds, %d fields walked\n", bufs, fds, fields);
	ck_assert_int_gt(bufs, 1000);
	ck_assert_int_gt(fds, 1000);
}
END_TEST

/* A callback's non-zero result stops the walk and is returned. */
static int stop_at_first(void *arg, const struct bpfrr_abi_buf *b)
{
	(void)b;
	(*(int *)arg)++;
	return 42;
}

/*
 * Which BTF ids of an attr name the kernel's BTF (the recorder names them,
 * dump shows the names): attach_btf_id in vmlinux or the module BTF of
 * attach_btf_obj_fd, but not freplace's (the target program's BTF);
 * btf_vmlinux_value_type_id in vmlinux or value_type_btf_obj_fd's module
 * (with BPF_F_VTYPE_BTF_OBJ_FD); the loader's own key/value type ids never.
 */
/* fd_info for test_fd_gate: fd 7 is a cgroup_skb program, any other an XDP one */
static int gate_fd_info(void *ctx, int fd, enum bpfrr_obj_kind *kind, uint32_t *obj_type, uint32_t *key_size,
			uint32_t *value_size)
{
	(void)ctx;
	(void)key_size;
	(void)value_size;
	*kind = BPFRR_OBJ_PROG;
	*obj_type = fd == 7 ? BPF_PROG_TYPE_CGROUP_SKB : BPF_PROG_TYPE_XDP;
	return 0;
}

/*
 * What dump shows for bytes the kernel does not read as an fd (replace_bpf_fd
 * without BPF_F_REPLACE) and for attach type 0, which is
 * BPF_CGROUP_INET_INGRESS only to a cgroup_skb program.
 */
START_TEST(test_fd_gate)
{
	const struct bpfrr_field *replace = bpfrr_abi_cmd_field(BPF_PROG_ATTACH, "replace_bpf_fd");
	const struct bpfrr_field *eat = bpfrr_abi_cmd_field(BPF_PROG_LOAD, "expected_attach_type");
	const struct bpfrr_field *lat = bpfrr_abi_cmd_field(BPF_LINK_CREATE, "link_create.attach_type");
	const struct bpfrr_field *gate;
	struct bpfrr_abi_env env = { .fd_info = gate_fd_info };
	union bpf_attr a;

	ck_assert_ptr_nonnull(replace);
	ck_assert_ptr_nonnull(eat);
	ck_assert_ptr_nonnull(lat);
	memset(&a, 0, sizeof(a));
	a.attach_type = BPF_CGROUP_INET_EGRESS;
	a.attach_flags = BPF_F_ALLOW_MULTI;
	gate = bpfrr_abi_fd_gate(BPF_PROG_ATTACH, replace, &a, sizeof(a), NULL);
	ck_assert_ptr_nonnull(gate);
	ck_assert_str_eq(gate->name, "attach_flags");
	a.attach_flags |= BPF_F_REPLACE;
	ck_assert_ptr_null(bpfrr_abi_fd_gate(BPF_PROG_ATTACH, replace, &a, sizeof(a), NULL));
	/* an fd field with no flag to gate it */
	ck_assert_ptr_null(bpfrr_abi_fd_gate(BPF_PROG_ATTACH, bpfrr_abi_cmd_field(BPF_PROG_ATTACH, "target_fd"),
					     &a, sizeof(a), NULL));

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_XDP;
	ck_assert(bpfrr_abi_attach_type_none(BPF_PROG_LOAD, eat, 0, &a, sizeof(a), NULL));
	a.prog_type = BPF_PROG_TYPE_CGROUP_SKB;
	ck_assert(!bpfrr_abi_attach_type_none(BPF_PROG_LOAD, eat, 0, &a, sizeof(a), NULL));
	a.prog_type = BPF_PROG_TYPE_XDP;
	ck_assert(!bpfrr_abi_attach_type_none(BPF_PROG_LOAD, eat, BPF_XDP, &a, sizeof(a), NULL));

	memset(&a, 0, sizeof(a));
	a.link_create.prog_fd = 6;
	ck_assert(bpfrr_abi_attach_type_none(BPF_LINK_CREATE, lat, 0, &a, sizeof(a), &env));
	/* no way to tell the program's type: keep the name */
	ck_assert(!bpfrr_abi_attach_type_none(BPF_LINK_CREATE, lat, 0, &a, sizeof(a), NULL));
	a.link_create.prog_fd = 7;
	ck_assert(!bpfrr_abi_attach_type_none(BPF_LINK_CREATE, lat, 0, &a, sizeof(a), &env));
}
END_TEST

START_TEST(test_kernel_btf_id)
{
	const struct bpfrr_field *f;
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_TRACING;
	f = bpfrr_abi_cmd_field(BPF_PROG_LOAD, "attach_btf_id");
	ck_assert_ptr_nonnull(f);
	ck_assert(!bpfrr_abi_kernel_btf_id(BPF_PROG_LOAD, f, &a, sizeof(a), NULL, &fd));	/* id 0 */
	a.attach_btf_id = 51234;
	ck_assert(bpfrr_abi_kernel_btf_id(BPF_PROG_LOAD, f, &a, sizeof(a), NULL, &fd));
	ck_assert_int_eq(fd, -1);
	a.attach_btf_obj_fd = 7;
	ck_assert(bpfrr_abi_kernel_btf_id(BPF_PROG_LOAD, f, &a, sizeof(a), NULL, &fd));
	ck_assert_int_eq(fd, 7);
	a.prog_type = BPF_PROG_TYPE_EXT;	/* attach_prog_fd: the target program's BTF */
	ck_assert(!bpfrr_abi_kernel_btf_id(BPF_PROG_LOAD, f, &a, sizeof(a), NULL, &fd));
	/* an attr too short to hold the id */
	ck_assert(!bpfrr_abi_kernel_btf_id(BPF_PROG_LOAD, f, &a, 100, NULL, &fd));

	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_STRUCT_OPS;
	a.btf_fd = 3;
	a.btf_key_type_id = 1;
	a.btf_value_type_id = 2;
	a.btf_vmlinux_value_type_id = 900;
	memcpy((char *)&a + 72, &(uint32_t){ 9 }, 4);	/* value_type_btf_obj_fd (6.9+) */
	f = bpfrr_abi_cmd_field(BPF_MAP_CREATE, "btf_value_type_id");
	ck_assert(!bpfrr_abi_kernel_btf_id(BPF_MAP_CREATE, f, &a, sizeof(a), NULL, &fd));
	f = bpfrr_abi_cmd_field(BPF_MAP_CREATE, "btf_vmlinux_value_type_id");
	ck_assert(bpfrr_abi_kernel_btf_id(BPF_MAP_CREATE, f, &a, sizeof(a), NULL, &fd));
	ck_assert_int_eq(fd, -1);	/* without BPF_F_VTYPE_BTF_OBJ_FD the fd field is not read */
	a.map_flags = 1U << 15;		/* BPF_F_VTYPE_BTF_OBJ_FD */
	ck_assert(bpfrr_abi_kernel_btf_id(BPF_MAP_CREATE, f, &a, sizeof(a), NULL, &fd));
	ck_assert_int_eq(fd, 9);

	memset(&a, 0, sizeof(a));
	a.link_create.attach_type = BPF_TRACE_FENTRY;
	a.link_create.target_fd = 4;
	a.link_create.target_btf_id = 12;
	f = bpfrr_abi_cmd_field(BPF_LINK_CREATE, "link_create.target_btf_id");
	ck_assert_ptr_nonnull(f);
	ck_assert(!bpfrr_abi_kernel_btf_id(BPF_LINK_CREATE, f, &a, sizeof(a), NULL, &fd));
}
END_TEST

/* --- later UAPI (fields after 6.12, as strace's tests do: synthetic attrs) ----------- */

/*
 * The upstream layouts, written out from include/uapi/linux/bpf.h of bpf-next as
 * libbpf's mirror has it (libbpf commit f7081a6b, bpf-next 9a3a07d06e7d): no header
 * here has them, so this is the check that the table's rows say the same.
 */
static const struct {
	const struct bpfrr_struct_desc *(*desc)(void);
	int cmd;
	const char *name;
	uint16_t offset, size, since;
} upstream[] = {
	{ NULL, BPFRR_CMD_PROG_LOAD, "fd_array_cnt", 148, 4, BPFRR_KVER(6, 14) },
	{ NULL, BPFRR_CMD_PROG_LOAD, "signature", 152, 8, BPFRR_KVER(6, 18) },
	{ NULL, BPFRR_CMD_PROG_LOAD, "signature_size", 160, 4, BPFRR_KVER(6, 18) },
	{ NULL, BPFRR_CMD_PROG_LOAD, "keyring_id", 164, 4, BPFRR_KVER(6, 18) },
	{ NULL, BPFRR_CMD_MAP_CREATE, "excl_prog_hash", 80, 8, BPFRR_KVER(6, 18) },
	{ NULL, BPFRR_CMD_MAP_CREATE, "excl_prog_hash_size", 88, 4, BPFRR_KVER(6, 18) },
	/* token fds: 6.9, so 6.12 has them (since 0) */
	{ NULL, BPFRR_CMD_PROG_LOAD, "prog_token_fd", 144, 4, 0 },
	{ NULL, BPFRR_CMD_MAP_CREATE, "map_token_fd", 76, 4, 0 },
	{ NULL, BPFRR_CMD_BTF_LOAD, "btf_token_fd", 36, 4, 0 },
	{ NULL, BPFRR_CMD_TOKEN_CREATE, "token_create.bpffs_fd", 4, 4, 0 },
};

static const struct bpfrr_field *struct_field(const struct bpfrr_struct_desc *d, const char *name)
{
	for (unsigned int i = 0; i < d->nr_fields; i++)
		if (d->fields[i].name && !strcmp(d->fields[i].name, name))
			return &d->fields[i];
	return NULL;
}

START_TEST(test_newer_layout)
{
	const struct bpfrr_field *f;

	for (size_t i = 0; i < ARRAY_SIZE(upstream); i++) {
		f = bpfrr_abi_cmd_field(upstream[i].cmd, upstream[i].name);
		ck_assert_msg(f != NULL, "no %s", upstream[i].name);
		ck_assert_uint_eq(f->offset, upstream[i].offset);
		ck_assert_uint_eq(f->size, upstream[i].size);
		ck_assert_uint_eq(f->since, upstream[i].since);
	}
	/* the attr parts end where upstream's LAST_FIELD does */
	ck_assert_uint_eq(bpfrr_abi_desc_known_size(bpfrr_abi_cmd(BPFRR_CMD_PROG_LOAD)->attr), 168);
	ck_assert_uint_eq(bpfrr_abi_desc_known_size(bpfrr_abi_cmd(BPFRR_CMD_MAP_CREATE)->attr), 92);
	/* struct bpf_map_info: hash at 88, hash_size at 96, 104 bytes */
	f = struct_field(&bpfrr_abi_map_info_desc, "hash");
	ck_assert(f && f->offset == 88 && f->size == 8 && f->since == BPFRR_KVER(6, 18));
	ck_assert_int_eq(f->buf_dir, BPFRR_DIR_OUT);
	f = struct_field(&bpfrr_abi_map_info_desc, "hash_size");
	ck_assert(f && f->offset == 96 && f->size == 4);
	ck_assert_uint_eq(bpfrr_abi_desc_known_size(&bpfrr_abi_map_info_desc), 104);
	ck_assert_uint_eq(bpfrr_abi_map_info_desc.size, 88);
	/* struct bpf_common_attr { __aligned_u64 log_buf; __u32 log_size, log_level, log_true_size; } */
	ck_assert(struct_field(&bpfrr_abi_common_attr_desc, "log_buf")->offset == 0);
	ck_assert(struct_field(&bpfrr_abi_common_attr_desc, "log_size")->offset == 8);
	ck_assert(struct_field(&bpfrr_abi_common_attr_desc, "log_level")->offset == 12);
	ck_assert(struct_field(&bpfrr_abi_common_attr_desc, "log_true_size")->offset == 16);
	ck_assert_uint_eq(bpfrr_abi_desc_known_size(&bpfrr_abi_common_attr_desc), 24);
	ck_assert_uint_eq(BPFRR_ABI_COMMON_ATTRS, 1u << 16);
}
END_TEST

struct newer_seen {
	char what[8][96];
	int n;
};

static void newer_cb(void *arg, const struct bpfrr_field *f, const char *path, size_t off, size_t end)
{
	struct newer_seen *s = arg;

	ck_assert_int_lt(s->n, 8);
	if (f)
		snprintf(s->what[s->n++], sizeof(s->what[0]), "%s %#x", path, f->since);
	else
		snprintf(s->what[s->n++], sizeof(s->what[0]), "tail %zu..%zu", off, end);
}

START_TEST(test_newer_fields)
{
	static uint8_t sig[72];
	uint8_t a[4096];
	struct newer_seen s = { 0 };

	memset(a, 0, sizeof(a));
	put_u32(a, 0, 1);		/* prog_type: socket filter */
	put_u32(a, 148, 2);		/* fd_array_cnt */
	put_u64(a, 152, PTR_U64(sig));	/* signature */
	put_u32(a, 160, sizeof(sig));
	put_u32(a, 164, (uint32_t)-1);	/* keyring_id */
	/* every field 6.12 lacks, by name and release */
	ck_assert_uint_eq(bpfrr_abi_newer_fields(BPFRR_CMD_PROG_LOAD, a, 168, BPFRR_ABI_BASE_KVER, newer_cb, &s), 4);
	ck_assert_str_eq(s.what[0], "attr.fd_array_cnt 0x60e");
	ck_assert_str_eq(s.what[1], "attr.signature 0x612");
	ck_assert_str_eq(s.what[3], "attr.keyring_id 0x612");
	/* 6.14 has fd_array_cnt, not the signature */
	s.n = 0;
	ck_assert_uint_eq(bpfrr_abi_newer_fields(BPFRR_CMD_PROG_LOAD, a, 168, BPFRR_KVER(6, 14), newer_cb, &s), 3);
	ck_assert_uint_eq(bpfrr_abi_newer_fields(BPFRR_CMD_PROG_LOAD, a, 168, BPFRR_KVER(6, 18), NULL, NULL), 0);
	/* short sizes: a field the attr does not reach is absent, never read */
	ck_assert_uint_eq(bpfrr_abi_newer_fields(BPFRR_CMD_PROG_LOAD, a, 152, BPFRR_ABI_BASE_KVER, NULL, NULL), 1);
	ck_assert_uint_eq(bpfrr_abi_newer_fields(BPFRR_CMD_PROG_LOAD, a, 148, BPFRR_ABI_BASE_KVER, NULL, NULL), 0);
	ck_assert_uint_eq(bpfrr_abi_newer_fields(BPFRR_CMD_PROG_LOAD, a, 163, BPFRR_ABI_BASE_KVER, NULL, NULL), 2);
	/* zero fields are no use of them: a 6.18 libbpf's 168-byte attr of zeros is fine on 6.12 */
	memset(a + 148, 0, 20);
	ck_assert_uint_eq(bpfrr_abi_newer_fields(BPFRR_CMD_PROG_LOAD, a, 168, BPFRR_ABI_BASE_KVER, NULL, NULL), 0);
	/* non-zero bytes after everything known: reported with their extent, not dropped */
	a[200] = 1;
	a[203] = 7;
	s.n = 0;
	ck_assert_uint_eq(bpfrr_abi_newer_fields(BPFRR_CMD_PROG_LOAD, a, 256, 0xffff, newer_cb, &s), 1);
	ck_assert_str_eq(s.what[0], "tail 200..204");
	/* a tail in the padding of a known layout (MAP_CREATE ends at 92, attrs are 96) */
	memset(a, 0, sizeof(a));
	a[94] = 1;
	s.n = 0;
	ck_assert_uint_eq(bpfrr_abi_newer_fields(BPFRR_CMD_MAP_CREATE, a, 96, 0xffff, newer_cb, &s), 1);
	ck_assert_str_eq(s.what[0], "tail 94..95");
	put_u32(a, 88, 32);
	s.n = 0;
	ck_assert_uint_eq(bpfrr_abi_newer_fields(BPFRR_CMD_MAP_CREATE, a, 96, BPFRR_ABI_BASE_KVER, newer_cb, &s), 2);
	ck_assert_str_eq(s.what[0], "attr.excl_prog_hash_size 0x612");
}
END_TEST

/* The walker on the later fields: their buffers, fd_array by fd_array_cnt, decoding. */
START_TEST(test_newer_walk)
{
	static uint8_t sig[40], hash[32], out_hash[32];
	static int32_t fd_array[3] = { 7, 8, 9 };
	static const char license[] = "GPL";
	struct bpf_insn insns[2] = { ins(0xb7, 0, 0, 0, 0), ins(0x95, 0, 0, 0, 0) };
	uint8_t a[168], info[104], info_entry[104];
	struct fake fk = { 0 };
	struct bpfrr_abi_env env = fake_env(&fk);
	struct seen s = { 0 };
	struct seen_fds fds = { 0 };
	struct seen_fields sf = { 0 };

	memset(a, 0, sizeof(a));
	put_u32(a, 0, 1);
	put_u32(a, 4, 2);
	put_u64(a, 8, PTR_U64(insns));
	put_u64(a, 16, PTR_U64(license));
	put_u64(a, 120, PTR_U64(fd_array));
	put_u32(a, 148, 3);
	put_u64(a, 152, PTR_U64(sig));
	put_u32(a, 160, sizeof(sig));
	put_u32(a, 164, 0x7fffffff);
	fake_mem(&fk, insns, sizeof(insns));
	fake_mem(&fk, license, sizeof(license));
	fake_mem(&fk, fd_array, sizeof(fd_array));
	fake_mem(&fk, sig, sizeof(sig));
	ck_assert_int_eq(bpfrr_abi_walk(BPFRR_CMD_PROG_LOAD, a, sizeof(a), BPFRR_PHASE_ENTRY, &env,
					collect_buf, &s), 0);
	/* the insns use no slot: fd_array_cnt alone sizes it */
	ck_assert_uint_eq(find_buf(&s, "attr.fd_array")->len, 12);
	ck_assert_uint_eq(find_buf(&s, "attr.signature")->len, sizeof(sig));
	ck_assert_int_eq(find_buf(&s, "attr.signature")->content, BPFRR_CONTENT_SIGNATURE);
	/* every slot is an fd the program binds */
	ck_assert_int_eq(bpfrr_abi_walk_fds(BPFRR_CMD_PROG_LOAD, a, sizeof(a), &env, collect_fd, &fds), 0);
	ck_assert_int_eq(find_fd(&fds, "attr.fd_array[2]")->fd, 9);
	ck_assert_int_eq(find_fd(&fds, "attr.fd_array[0]")->kind, BPFRR_OBJ_ANY);
	/* decoded by name */
	ck_assert_int_eq(bpfrr_abi_walk_fields(BPFRR_CMD_PROG_LOAD, a, sizeof(a), collect_field, &sf), 0);
	ck_assert_uint_eq(find_field(&sf, "attr.fd_array_cnt")->value, 3);
	ck_assert_uint_eq(find_field(&sf, "attr.signature_size")->value, sizeof(sig));
	ck_assert_uint_eq(find_field(&sf, "attr.keyring_id")->value, 0x7fffffff);
	/* a short attr (a 6.12 libbpf's 148 bytes): none of them, nothing read past it */
	s.n = 0;
	sf.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk(BPFRR_CMD_PROG_LOAD, a, 148, BPFRR_PHASE_ENTRY, &env, collect_buf, &s), 0);
	ck_assert(!has_buf(&s, "attr.signature"));
	ck_assert(!has_buf(&s, "attr.fd_array"));	/* no insn uses a slot */
	ck_assert_int_eq(bpfrr_abi_walk_fields(BPFRR_CMD_PROG_LOAD, a, 148, collect_field, &sf), 0);
	ck_assert_ptr_null(find_field(&sf, "attr.fd_array_cnt"));

	/* MAP_CREATE with an exclusive program's hash */
	memset(a, 0, sizeof(a));
	put_u32(a, 0, 2);
	put_u64(a, 80, PTR_U64(hash));
	put_u32(a, 88, sizeof(hash));
	fake_mem(&fk, hash, sizeof(hash));
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk(BPFRR_CMD_MAP_CREATE, a, 96, BPFRR_PHASE_ENTRY, &env, collect_buf, &s), 0);
	ck_assert_uint_eq(find_buf(&s, "attr.excl_prog_hash")->len, 32);
	ck_assert_int_eq(find_buf(&s, "attr.excl_prog_hash")->content, BPFRR_CONTENT_SHA256);

	/* OBJ_GET_INFO_BY_FD of a map asking for its hash: the hash is written at exit */
	memset(info, 0, sizeof(info));
	put_u64(info, 88, PTR_U64(out_hash));
	put_u32(info, 96, sizeof(out_hash));
	memcpy(info_entry, info, sizeof(info));
	fake_mem2(&fk, info, info_entry, sizeof(info));
	fake_mem(&fk, out_hash, sizeof(out_hash));
	fake_fd(&fk, 4, BPFRR_OBJ_MAP, 2, 4, 8);
	memset(a, 0, sizeof(a));
	put_u32(a, 0, 4);
	put_u32(a, 4, sizeof(info));
	put_u64(a, 8, PTR_U64(info));
	env.read_entry_mem = fake_read_entry;
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk(BPFRR_CMD_OBJ_GET_INFO_BY_FD, a, 16, BPFRR_PHASE_EXIT, &env, collect_buf, &s), 0);
	ck_assert_uint_eq(find_buf(&s, "attr.info.info.hash")->len, 32);
	ck_assert_int_eq(find_buf(&s, "attr.info.info.hash")->dir, BPFRR_DIR_OUT);
	/* an info_len of 6.12's 88 bytes asks for no hash */
	put_u32(a, 4, 88);
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk(BPFRR_CMD_OBJ_GET_INFO_BY_FD, a, 16, BPFRR_PHASE_EXIT, &env, collect_buf, &s), 0);
	ck_assert(!has_buf(&s, "attr.info.info.hash"));
}
END_TEST

/* struct bpf_common_attr's log: log_size bytes of capacity, log_true_size written */
START_TEST(test_common_attr_walk)
{
	static char log[64] = "func#0 @0\nR1 invalid mem access 'scalar'\n";
	uint8_t common[24], entry[24];
	struct fake fk = { 0 };
	struct bpfrr_abi_env env = fake_env(&fk);
	struct seen s = { 0 };

	memset(common, 0, sizeof(common));
	put_u64(common, 0, PTR_U64(log));
	put_u32(common, 8, sizeof(log));
	put_u32(common, 12, 1);
	memcpy(entry, common, sizeof(entry));
	put_u32(common, 16, 42);	/* log_true_size, as the kernel leaves it */
	fake_mem(&fk, log, sizeof(log));
	ck_assert_int_eq(bpfrr_abi_walk_common(common, sizeof(common), NULL, 0, BPFRR_PHASE_ENTRY, &env,
					       collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 0);	/* nothing the kernel reads */
	ck_assert_int_eq(bpfrr_abi_walk_common(common, sizeof(common), entry, sizeof(entry), BPFRR_PHASE_EXIT,
					       &env, collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 1);
	ck_assert_str_eq(s.b[0].path, "common_attr.log_buf");
	ck_assert_uint_eq(s.b[0].len, 42);
	ck_assert_int_eq(s.b[0].content, BPFRR_CONTENT_LOG);
	/* a common_attr of 8 bytes has a log_buf and no size: nothing */
	s.n = 0;
	ck_assert_int_eq(bpfrr_abi_walk_common(common, 8, entry, 8, BPFRR_PHASE_EXIT, &env, collect_buf, &s), 0);
	ck_assert_int_eq(s.n, 0);
}
END_TEST

START_TEST(test_cb_stops)
{
	struct bpf_insn insns[2] = { ins(0xb7, 0, 0, 0, 0), ins(0x95, 0, 0, 0, 0) };
	static const char license[] = "GPL";
	union bpf_attr attr;
	struct fake fk = { 0 };
	struct bpfrr_abi_env env = fake_env(&fk);
	int calls = 0;

	fake_mem(&fk, insns, sizeof(insns));
	fake_mem(&fk, license, sizeof(license));
	memset(&attr, 0, sizeof(attr));
	attr.insn_cnt = 2;
	attr.insns = PTR_U64(insns);
	attr.license = PTR_U64(license);
	ck_assert_int_eq(bpfrr_abi_walk(BPF_PROG_LOAD, &attr, sizeof(attr), BPFRR_PHASE_ENTRY, &env,
					stop_at_first, &calls), 42);
	ck_assert_int_eq(calls, 1);
}
END_TEST

static Suite *abi_suite(void)
{
	Suite *s = suite_create("bpf_abi");
	TCase *tc = tcase_create("table");
	TCase *hdr = tcase_create("headers");
	TCase *walk = tcase_create("walkers");
	/* the 6.12 comparison is a test only when a tree is at hand; else a visible SKIP */
	static TTest t612 = { "test_layout_names_6_12", NULL, __FILE__, __LINE__ };

	tcase_add_test(tc, test_table_consistent);
	tcase_add_test(tc, test_variants_disjoint);
	tcase_add_test(tc, test_cmd_names);
	tcase_add_test(tc, test_cmd_classes);
	tcase_add_test(tc, test_cmd_made);
	tcase_add_test(tc, test_short_names);
	tcase_add_test(tc, test_xlat_format);
	suite_add_tcase(s, tc);

	tcase_set_timeout(hdr, 120);
	tcase_set_timeout(walk, 60);
	tcase_add_test(hdr, test_layout_installed);
	tcase_add_test(hdr, test_names_installed);
	t612.fn = test_6_12_fn;
	if (!find_linux_tree())
		t612.name = "test_layout_names_6_12 # SKIP no 6.12 kernel tree (set BPFRR_LINUX_SRC)";
	_tcase_add_test(hdr, &t612, 0, 0, 0, 1);
	suite_add_tcase(s, hdr);

	tcase_add_test(walk, test_prog_load);
	tcase_add_test(walk, test_prog_load_bogus);
	tcase_add_test(walk, test_map_elem);
	tcase_add_test(walk, test_map_batch);
	tcase_add_test(walk, test_obj_get_info_prog);
	tcase_add_test(walk, test_obj_get_info_link);
	tcase_add_test(walk, test_prog_query);
	tcase_add_test(walk, test_test_run);
	tcase_add_test(walk, test_link_create);
	tcase_add_test(walk, test_walk_fields);
	tcase_add_test(walk, test_info_struct_fields);
	tcase_add_test(walk, test_misc_fds);
	tcase_add_test(walk, test_insns_chunks);
	tcase_add_test(walk, test_random_attrs);
	tcase_add_test(walk, test_cb_stops);
	tcase_add_test(walk, test_kernel_btf_id);
	tcase_add_test(walk, test_fd_gate);
	tcase_add_test(walk, test_newer_layout);
	tcase_add_test(walk, test_newer_fields);
	tcase_add_test(walk, test_newer_walk);
	tcase_add_test(walk, test_common_attr_walk);
	suite_add_tcase(s, walk);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(abi_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	if (pristine_dir[0])
		remove_dir(pristine_dir);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

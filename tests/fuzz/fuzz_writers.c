// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the header and ELF writers of `bpfrr translate`.
 * Arbitrary bytes are read as a trace (as is, and with checksums ignored)
 * and translated with the default options; every IR that comes out is
 * written, for each assumed caps, as
 *
 *   - a header (--name loader), in memory, checked for what a compiler
 *     needs of it: printable ASCII only; every comment, string and
 *     character literal closed (no newline inside a literal); braces,
 *     brackets and parentheses balanced outside them; the include guard
 *     first and its #endif last; the API (struct loader, loader__load,
 *     loader__destroy) there; struct loader's fields distinct C identifiers
 *     that are not keywords.  Compiling each one would make the campaign
 *     thousands of times slower: with FUZZ_WRITERS_HEADERS=DIR each distinct
 *     header is also written to DIR, and `make fuzz-writers-compile` runs the
 *     corpus once so and compiles every header written (docs/fuzzing.md);
 *   - an ELF object, built in memory and read with libelf, against what
 *     out_elf.h documents: ELF64 relocatable, EM_BPF, little endian; the
 *     sections syscall (the loader: executable, 8-byte instructions,
 *     nr_insns of them), .relsyscall (SHT_REL for syscall, each entry a
 *     valid symbol at an instruction inside it), .data.blob (blob_size
 *     bytes), license ("GPL"), .BTF, .BTF.ext, .symtab and .strtab, each
 *     inside the file; the symbols: the loader a global FUNC at 0 of
 *     syscall, bpfrr_blob an OBJECT of .data.blob, bpf_perf_event_open an
 *     undefined global when the loader calls the kfunc; and .BTF parsed
 *     by libbpf's BTF parser (no bpf()) naming the loader's FUNC, the VAR
 *     bpfrr_blob and the DATASEC .data.blob.
 *
 * An IR the writer refuses must say why.  A failed check is an abort().
 */
#include <bpf/btf.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "out_elf.h"
#include "out_header.h"
#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define NAME "loader"

static const char *const fuzz_caps_names[] = { "none", "stock-6.12", "patched-6.12" };

static const char *headers_dir;	/* FUZZ_WRITERS_HEADERS */

/* --- the header ------------------------------------------------------------------- */

static bool is_ident(const char *s, size_t n)
{
	static const char *const keywords[] = {
		"auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
		"enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
		"restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch",
		"typedef", "union", "unsigned", "void", "volatile", "while", "asm", "typeof",
	};
	size_t i;

	if (!n || n > 255 || !(s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
		return false;
	for (i = 1; i < n; i++)
		if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9')))
			return false;
	for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (strlen(keywords[i]) == n && !memcmp(keywords[i], s, n))
			return false;
	return true;
}

/* Comments and literals closed, brackets balanced outside them: what any C lexer needs. */
static void check_lexically(const char *h, size_t len)
{
	int depth[3] = { 0 };	/* {} [] () */
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)h[i];

		if (!((ch >= 0x20 && ch < 0x7f) || ch == '\n' || ch == '\t'))
			abort();	/* only printable ASCII: recorded names are escaped */
	}
	for (i = 0; i < len; i++) {
		char ch = h[i];

		if (ch == '/' && i + 1 < len && h[i + 1] == '*') {
			const char *end = strstr(h + i + 2, "*/");

			if (!end)
				abort();	/* an unclosed comment */
			i = (size_t)(end - h) + 1;
		} else if (ch == '/' && i + 1 < len && h[i + 1] == '/') {
			while (i < len && h[i] != '\n')
				i++;
		} else if (ch == '"' || ch == '\'') {
			for (i++; i < len && h[i] != ch; i++) {
				if (h[i] == '\n')
					abort();	/* a newline inside a literal */
				if (h[i] == '\\')
					i++;
			}
			if (i >= len)
				abort();	/* an unclosed literal */
		} else if (ch == '{' || ch == '[' || ch == '(') {
			depth[ch == '{' ? 0 : ch == '[' ? 1 : 2]++;
		} else if (ch == '}' || ch == ']' || ch == ')') {
			if (--depth[ch == '}' ? 0 : ch == ']' ? 1 : 2] < 0)
				abort();	/* closed before it was opened */
		}
	}
	if (depth[0] || depth[1] || depth[2])
		abort();
}

/* struct loader { int FIELD; ...; long long failed_seq; }: distinct identifiers. */
static void check_struct(const char *h)
{
	const char *p = strstr(h, "\nstruct " NAME " {\n"), *end;
	const char *fields[4096];
	size_t nr = 0, i;

	if (!p)
		abort();
	p += strlen("\nstruct " NAME " {\n");
	end = strstr(p, "\tlong long failed_seq;\n};\n");
	if (!end)
		abort();
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *id, *semi;

		if (!nl)
			abort();
		if (!strncmp(p, "\tint ", 5)) {
			id = p + 5;
			semi = memchr(id, ';', (size_t)(nl - id));
			if (!semi || !is_ident(id, (size_t)(semi - id)) ||
			    ((size_t)(semi - id) == strlen("failed_seq") && !memcmp(id, "failed_seq", 10)))
				abort();
			for (i = 0; i < nr; i++)
				if (!strncmp(fields[i], id, (size_t)(semi - id) + 1))
					abort();	/* two fields of one name */
			if (nr < sizeof(fields) / sizeof(fields[0]))
				fields[nr++] = id;
		} else if (strncmp(p, "\t/*", 3)) {
			abort();	/* a member that is not an fd or a comment */
		}
		p = nl + 1;
	}
}

static void keep_header(const char *h, size_t len)
{
	uint64_t hash = 1469598103934665603ull;	/* FNV-1a: one file per distinct header */
	char path[4096];
	size_t i;
	FILE *f;

	for (i = 0; i < len; i++)
		hash = (hash ^ (unsigned char)h[i]) * 1099511628211ull;
	snprintf(path, sizeof(path), "%s/%016llx.h", headers_dir, (unsigned long long)hash);
	f = fopen(path, "wx");
	if (!f)
		return;	/* there already */
	if (fwrite(h, 1, len, f) != len)
		abort();
	if (fclose(f))
		abort();
}

static void check_header(const struct bpfrr_ir *ir, const char *caps)
{
	struct bpfrr_header_opts ho = { .name = NAME, .caps = caps };
	static const char guard[] = "#ifndef BPFRR_HEADER_" NAME "_H\n#define BPFRR_HEADER_" NAME "_H\n";
	static const char tail[] = "\n#endif /* BPFRR_HEADER_" NAME "_H */\n";
	char err[512], *h = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	f = open_memstream(&h, &len);
	if (!f)
		abort();
	err[0] = '\0';
	ret = bpfrr_header_fwrite(ir, f, &ho, err, sizeof(err));
	if (fclose(f))
		abort();
	if (ret) {
		if (!err[0])
			abort();	/* a refusal says why */
		free(h);
		return;
	}
	if (strncmp(h, "/* SPDX-License-Identifier", 26) || !strstr(h, guard) ||
	    len < sizeof(tail) - 1 || strcmp(h + len - (sizeof(tail) - 1), tail))
		abort();
	/* the guard opens before any code: only the leading comment precedes it */
	if (strstr(h, "*/\n") > strstr(h, guard))
		abort();
	if (!strstr(h, "static inline int " NAME "__load(struct " NAME " *obj)") ||
	    !strstr(h, "static inline void " NAME "__destroy(struct " NAME " *obj)"))
		abort();
	check_lexically(h, len);
	check_struct(h);
	if (headers_dir)
		keep_header(h, len);
	free(h);
}

/* --- the ELF object ------------------------------------------------------------------- */

struct elf_seen {
	size_t syscall, relsyscall, blob, license, btf, btf_ext, symtab, strtab;
	GElf_Shdr sh_syscall, sh_blob;
	Elf_Data *btf_data;
};

static Elf_Scn *section(Elf *e, size_t idx, GElf_Shdr *sh)
{
	Elf_Scn *scn = elf_getscn(e, idx);

	if (!scn || !gelf_getshdr(scn, sh))
		abort();
	return scn;
}

static void check_symbols(Elf *e, const struct elf_seen *s, const struct bpfrr_elf_image *img)
{
	bool loader = false, blob = false, kfunc = false;
	GElf_Shdr sh;
	Elf_Scn *scn = section(e, s->symtab, &sh);
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, n;

	if (!d || !sh.sh_entsize || sh.sh_link != s->strtab)
		abort();
	n = sh.sh_size / sh.sh_entsize;
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(d, (int)i, &sym) || !(name = elf_strptr(e, sh.sh_link, sym.st_name)))
			abort();
		if (sym.st_shndx != SHN_UNDEF && sym.st_shndx != SHN_ABS && sym.st_shndx >= SHN_LORESERVE)
			abort();
		if (!strcmp(name, BPFRR_ELF_DEFAULT_NAME)) {
			if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || GELF_ST_BIND(sym.st_info) != STB_GLOBAL ||
			    sym.st_shndx != s->syscall || sym.st_value != 0 ||
			    sym.st_size != (uint64_t)img->nr_insns * 8)
				abort();
			loader = true;
		} else if (!strcmp(name, BPFRR_ELF_BLOB_SYM)) {
			if (GELF_ST_TYPE(sym.st_info) != STT_OBJECT || sym.st_shndx != s->blob ||
			    sym.st_value + sym.st_size > s->sh_blob.sh_size)
				abort();
			blob = true;
		} else if (!strcmp(name, BPFRR_ELF_KFUNC)) {
			if (sym.st_shndx != SHN_UNDEF || GELF_ST_BIND(sym.st_info) != STB_GLOBAL)
				abort();
			kfunc = true;
		}
	}
	if (!loader || !blob || kfunc != (img->nr_kfunc_calls > 0))
		abort();
}

static void check_relocs(Elf *e, const struct elf_seen *s)
{
	GElf_Shdr sh, symsh;
	Elf_Scn *scn = section(e, s->relsyscall, &sh);
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, n, nr_syms;

	section(e, s->symtab, &symsh);
	nr_syms = symsh.sh_entsize ? symsh.sh_size / symsh.sh_entsize : 0;
	if (sh.sh_type != SHT_REL || sh.sh_info != s->syscall || sh.sh_link != s->symtab || !sh.sh_entsize)
		abort();
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; d && i < n; i++) {
		GElf_Rel rel;

		if (!gelf_getrel(d, (int)i, &rel))
			abort();
		if (rel.r_offset % 8 || rel.r_offset + 8 > s->sh_syscall.sh_size ||
		    !GELF_R_SYM(rel.r_info) || GELF_R_SYM(rel.r_info) >= nr_syms)
			abort();
	}
}

static void check_btf(const struct elf_seen *s)
{
	struct btf *btf = btf__new(s->btf_data->d_buf, s->btf_data->d_size);

	if (!btf)
		abort();	/* our own BTF must parse */
	if (btf__find_by_name_kind(btf, BPFRR_ELF_DEFAULT_NAME, BTF_KIND_FUNC) <= 0 ||
	    btf__find_by_name_kind(btf, BPFRR_ELF_BLOB_SYM, BTF_KIND_VAR) <= 0 ||
	    btf__find_by_name_kind(btf, BPFRR_ELF_BLOB_SEC, BTF_KIND_DATASEC) <= 0)
		abort();
	btf__free(btf);
}

static void check_elf(const struct bpfrr_ir *ir, const char *caps)
{
	struct bpfrr_elf_opts o = { .caps = caps };
	struct elf_seen s = { 0 };
	struct bpfrr_elf_image img;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	char err[512];
	size_t shstrndx;
	Elf *e;

	err[0] = '\0';
	if (bpfrr_elf_build(ir, &o, &img, err, sizeof(err))) {
		if (!err[0])
			abort();	/* a refusal says why */
		return;
	}
	e = elf_memory((char *)img.obj, img.obj_size);
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh) || elf_getshdrstrndx(e, &shstrndx))
		abort();
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_type != ET_REL ||
	    eh.e_machine != EM_BPF)
		abort();
	while ((scn = elf_nextscn(e, scn))) {
		size_t idx = elf_ndxscn(scn);
		const char *name;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(e, shstrndx, sh.sh_name)))
			abort();
		if (sh.sh_type != SHT_NOBITS && sh.sh_offset + sh.sh_size > img.obj_size)
			abort();	/* a section outside the file */
		if (!strcmp(name, BPFRR_ELF_PROG_SEC)) {
			if (sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR) ||
			    sh.sh_size != (uint64_t)img.nr_insns * 8 || !img.nr_insns)
				abort();
			s.syscall = idx;
			s.sh_syscall = sh;
		} else if (!strcmp(name, ".rel" BPFRR_ELF_PROG_SEC)) {
			s.relsyscall = idx;
		} else if (!strcmp(name, BPFRR_ELF_BLOB_SEC)) {
			if (sh.sh_type != SHT_PROGBITS || sh.sh_size != img.blob_size || img.ctx_size > img.blob_size)
				abort();
			s.blob = idx;
			s.sh_blob = sh;
		} else if (!strcmp(name, "license")) {
			Elf_Data *d = elf_getdata(scn, NULL);

			if (!d || d->d_size < 4 || memcmp(d->d_buf, "GPL", 4))
				abort();
			s.license = idx;
		} else if (!strcmp(name, ".BTF")) {
			s.btf = idx;
			s.btf_data = elf_getdata(scn, NULL);
		} else if (!strcmp(name, ".BTF.ext")) {
			s.btf_ext = idx;
		} else if (!strcmp(name, ".symtab")) {
			s.symtab = idx;
		} else if (!strcmp(name, ".strtab")) {
			s.strtab = idx;
		}
	}
	if (!s.syscall || !s.relsyscall || !s.blob || !s.license || !s.btf || !s.btf_ext || !s.symtab ||
	    !s.strtab || !s.btf_data)
		abort();
	check_symbols(e, &s, &img);
	check_relocs(e, &s);
	check_btf(&s);
	elf_end(e);
	bpfrr_elf_image_free(&img);
}

/* --- the input ---------------------------------------------------------------------- */

static void run(const uint8_t *data, size_t size, unsigned int flags)
{
	struct bpfrr_frontend_opts opts = { 0 };
	struct bpfrr_frontend_result res;
	struct bpfrr_trace_reader *r;
	char *open_err = NULL, err[512];
	struct bpfrr_ir *ir;
	size_t c;

	r = bpfrr_trace_open_mem(data, size, "fuzz.trace", flags, &open_err);
	if (!r) {
		free(open_err);
		return;
	}
	err[0] = '\0';
	ir = bpfrr_frontend_translate_reader(r, &opts, &res, err, sizeof(err));
	bpfrr_trace_reader_close(r);
	if (!ir) {
		if (!err[0])
			abort();
		return;
	}
	for (c = 0; c < sizeof(fuzz_caps_names) / sizeof(fuzz_caps_names[0]); c++) {
		check_header(ir, fuzz_caps_names[c]);
		check_elf(ir, fuzz_caps_names[c]);
	}
	bpfrr_ir_free(ir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	headers_dir = getenv("FUZZ_WRITERS_HEADERS");
	if (elf_version(EV_CURRENT) == EV_NONE)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	run(data, size, 0);
	run(data, size, BPFRR_TRACE_IGNORE_CHECKSUMS);
	return 0;
}

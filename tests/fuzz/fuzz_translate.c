// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: arbitrary bytes read as a trace and translated (the
 * front end's passes with the default options and with
 * --skip-untranslatable --keep-probes), then, for every IR that comes out,
 * what fuzz_common.h checks (plans and loaders for each assumed caps, the
 * bundle round trip planning the same), the header written for each caps,
 * and the ELF object built and read back with libelf (every section header,
 * the symbol table's entries).  Each input is tried as is and with
 * checksums ignored, so mutations reach the passes.
 *
 * `make fuzz` builds it as build/fuzz/fuzz_translate and seeds it with the
 * committed traces (tests/data/traces/, every .trace); see docs/fuzzing.md.
 */
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "fuzz_common.h"
#include "out_elf.h"
#include "out_header.h"
#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static FILE *devnull;

static void check_elf(const struct bpfrr_ir *ir, const char *caps)
{
	struct bpfrr_elf_opts o = { .caps = caps };
	struct bpfrr_elf_image img;
	Elf_Scn *scn = NULL;
	char err[512];
	size_t shstrndx;
	Elf *e;

	err[0] = '\0';
	if (bpfrr_elf_build(ir, &o, &img, err, sizeof(err))) {
		if (!err[0])
			abort();
		return;
	}
	e = elf_memory((char *)img.obj, img.obj_size);
	if (!e || elf_kind(e) != ELF_K_ELF || elf_getshdrstrndx(e, &shstrndx))
		abort();
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || !elf_strptr(e, shstrndx, sh.sh_name))
			abort();
		if (sh.sh_type == SHT_SYMTAB) {
			Elf_Data *d = elf_getdata(scn, NULL);
			size_t i, n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
			GElf_Sym sym;

			for (i = 0; d && i < n; i++)
				if (!gelf_getsym(d, (int)i, &sym) || !elf_strptr(e, sh.sh_link, sym.st_name))
					abort();
		}
	}
	elf_end(e);
	bpfrr_elf_image_free(&img);
}

static void run(const uint8_t *data, size_t size, unsigned int flags)
{
	static const struct bpfrr_frontend_opts opts[] = {
		{ 0 },
		{ .skip_untranslatable = 1, .keep_probes = 1 },
	};
	struct bpfrr_frontend_result res;
	struct bpfrr_trace_reader *r;
	char *open_err = NULL, err[512];
	size_t i, c;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		struct bpfrr_ir *ir;

		r = bpfrr_trace_open_mem(data, size, "fuzz.trace", flags, &open_err);
		if (!r) {
			free(open_err);
			return;
		}
		err[0] = '\0';
		ir = bpfrr_frontend_translate_reader(r, &opts[i], &res, err, sizeof(err));
		bpfrr_trace_reader_close(r);
		if (!ir) {
			if (!err[0])
				abort();	/* a refusal says why */
			continue;
		}
		fuzz_check_ir(ir);
		for (c = 0; c < sizeof(fuzz_caps_names) / sizeof(fuzz_caps_names[0]); c++) {
			struct bpfrr_header_opts ho = { .name = "fuzz", .caps = fuzz_caps_names[c] };

			err[0] = '\0';
			if (bpfrr_header_fwrite(ir, devnull, &ho, err, sizeof(err)) && !err[0])
				abort();
			check_elf(ir, fuzz_caps_names[c]);
		}
		bpfrr_ir_free(ir);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	if (!devnull || elf_version(EV_CURRENT) == EV_NONE)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	run(data, size, 0);
	run(data, size, BPFRR_TRACE_IGNORE_CHECKSUMS);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * translate_main.c - `bpfrr translate`: trace -> bundle (front end:
 * frontend.h, back end: bundle.h; planning and code generation happen at
 * replay time for the kernel at hand, see `bpfrr replay --plan`).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfrr.h"
#include "bundle.h"
#include "frontend.h"
#include "replayer.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: bpfrr translate [OPTIONS] TRACE\n"
		"\n"
		"Compiles a recorded load into a bundle that `bpfrr replay` runs.\n"
		"\n"
		"  -o, --output FILE     where to write (default: TRACE.bundle)\n"
		"      --format bundle   the output format (header and elf: not built yet)\n"
		"      --until N         replay the state after recorded call N\n"
		"      --keep-probes     keep objects the loader made and closed\n"
		"  -h, --help\n");
}

int bpfrr_translate_main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "until", required_argument, NULL, 'u' },
		{ "keep-probes", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bpfrr_frontend_opts fo = { 0 };
	const char *output = NULL, *format = "bundle";
	char err[512], *def_out = NULL, *end;
	struct bpfrr_ir *ir;
	int opt, ret;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:h", options, NULL)) != -1) {
		switch (opt) {
		case 'o': output = optarg; break;
		case 'f': format = optarg; break;
		case 'u':
			fo.until_seq = strtoull(optarg, &end, 10);
			if (*end || end == optarg || !fo.until_seq) {
				fprintf(stderr, "bpfrr translate: --until '%s': not a call number\n", optarg);
				return BPFRR_EXIT_USAGE;
			}
			break;
		case 'k': fo.keep_probes = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return BPFRR_EXIT_USAGE;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "bpfrr translate: one TRACE expected (see --help)\n");
		return BPFRR_EXIT_USAGE;
	}
	if (strcmp(format, "bundle")) {
		if (!strcmp(format, "header") || !strcmp(format, "elf"))
			fprintf(stderr, "bpfrr translate: --format %s is not implemented yet\n", format);
		else
			fprintf(stderr, "bpfrr translate: --format '%s': bundle, header or elf\n", format);
		return BPFRR_EXIT_USAGE;
	}
	ir = bpfrr_frontend_translate(argv[optind], &fo, err, sizeof(err));
	if (!ir) {
		fprintf(stderr, "bpfrr translate: %s\n", err);
		return BPFRR_EXIT_FAILURE;
	}
	if (!output) {
		if (asprintf(&def_out, "%s.bundle", argv[optind]) < 0) {
			bpfrr_ir_free(ir);
			return BPFRR_EXIT_FAILURE;
		}
		output = def_out;
	}
	ret = bpfrr_bundle_write(ir, output, err, sizeof(err));
	if (ret)
		fprintf(stderr, "bpfrr translate: %s\n", err);
	free(def_out);
	bpfrr_ir_free(ir);
	return ret ? BPFRR_EXIT_FAILURE : 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * translate_main.c - `bpfrr translate`: trace -> bundle (front end:
 * frontend.h, back end: bundle.h; planning and code generation happen at
 * replay time for the kernel at hand, see `bpfrr replay --plan`).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bpfrr.h"
#include "bundle.h"
#include "frontend.h"
#include "replayer.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: bpfrr translate [OPTIONS] TRACE\n"
		"\n"
		"Compiles a recorded load into a bundle that `bpfrr replay` runs: the calls that\n"
		"rebuild the kernel state the loader had built (by default: after its last call\n"
		"that made, attached or stored something, before its teardown), with every fd\n"
		"relocated to a slot and kernel-specific numbers looked up by name at replay time.\n"
		"\n"
		"  -o, --output FILE        where to write (default: TRACE.bundle)\n"
		"      --format bundle      the output format (header and elf: not built yet)\n"
		"      --until N            replay the state after recorded call N (its seq)\n"
		"      --keep-probes        keep objects the loader made and closed (feature probes)\n"
		"      --explain            print, per recorded call, what became of it and why\n"
		"      --skip-untranslatable  leave out calls that cannot be replayed (listed on\n"
		"                           stderr) instead of failing\n"
		"  -h, --help\n"
		"\n"
		"Exit status: 0 success, 1 a call cannot be translated, 2 bad usage or input,\n"
		"3 a truncated trace (what it holds was translated).\n");
}

int bpfrr_translate_main(int argc, char **argv)
{
	enum { OPT_FORMAT = 256, OPT_UNTIL, OPT_KEEP_PROBES, OPT_EXPLAIN, OPT_SKIP };
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "until", required_argument, NULL, OPT_UNTIL },
		{ "keep-probes", no_argument, NULL, OPT_KEEP_PROBES },
		{ "explain", no_argument, NULL, OPT_EXPLAIN },
		{ "skip-untranslatable", no_argument, NULL, OPT_SKIP },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bpfrr_frontend_opts fo = { .warn = stderr };
	struct bpfrr_frontend_result res;
	const char *output = NULL, *format = "bundle";
	char err[512], *def_out = NULL, *end;
	struct bpfrr_trace_reader *r;
	struct bpfrr_ir *ir;
	int opt, ret;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:h", options, NULL)) != -1) {
		switch (opt) {
		case 'o': output = optarg; break;
		case OPT_FORMAT: format = optarg; break;
		case OPT_UNTIL:
			fo.until_seq = strtoull(optarg, &end, 10);
			if (*end || end == optarg || !fo.until_seq || optarg[0] == '-') {
				fprintf(stderr, "bpfrr translate: --until '%s': not a call number\n", optarg);
				return BPFRR_EXIT_USAGE;
			}
			break;
		case OPT_KEEP_PROBES: fo.keep_probes = 1; break;
		case OPT_EXPLAIN: fo.explain = stdout; break;
		case OPT_SKIP: fo.skip_untranslatable = 1; break;
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

	/* an unreadable or corrupt trace is bad input (2); a call that cannot be translated, a failure (1) */
	{
		char *open_err = NULL;

		r = bpfrr_trace_open(argv[optind], 0, &open_err);
		if (!r) {
			fprintf(stderr, "bpfrr translate: %s\n", open_err ? open_err : argv[optind]);
			free(open_err);
			return BPFRR_EXIT_USAGE;
		}
	}
	ir = bpfrr_frontend_translate_reader(r, &fo, &res, err, sizeof(err));
	bpfrr_trace_reader_close(r);
	if (!ir) {
		fprintf(stderr, "bpfrr translate: %s\n", err);
		if (res.untranslatable)
			fprintf(stderr, "bpfrr translate: (--skip-untranslatable leaves such calls out, "
				"--explain says what became of each call)\n");
		return res.untranslatable ? BPFRR_EXIT_FAILURE : BPFRR_EXIT_USAGE;
	}
	if (!output) {
		if (asprintf(&def_out, "%s.bundle", argv[optind]) < 0) {
			bpfrr_ir_free(ir);
			return BPFRR_EXIT_FAILURE;
		}
		output = def_out;
	}
	if (!res.cut_seq)
		fprintf(stderr, "bpfrr translate: warning: %s: no successful call built anything; "
			"the bundle replays nothing\n", argv[optind]);
	else if (!ir->nr_calls)
		fprintf(stderr, "bpfrr translate: warning: %s: every call was dropped or skipped; "
			"the bundle replays nothing\n", argv[optind]);
	ret = bpfrr_bundle_write(ir, output, err, sizeof(err));
	if (ret)
		fprintf(stderr, "bpfrr translate: %s\n", err);
	else if (fo.explain)
		printf("wrote %s: %u calls, %u slots, %u recorded calls dropped%s\n", output, ir->nr_calls,
		       ir->nr_slots, ir->nr_drops, res.nr_skipped ? " or skipped" : "");
	free(def_out);
	bpfrr_ir_free(ir);
	if (ret)
		return BPFRR_EXIT_FAILURE;
	if (res.truncated) {
		fprintf(stderr, "bpfrr translate: warning: %s\n", res.truncated_msg);
		return BPFRR_EXIT_TRUNCATED;
	}
	return 0;
}

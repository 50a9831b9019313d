// SPDX-License-Identifier: GPL-2.0-only
/*
 * translate_main.c - `bpfrr translate`: trace -> IR (front end: frontend.h)
 * -> one output format: a bundle (bundle.h; planning and code generation
 * happen at replay time for the kernel at hand, see `bpfrr replay --plan`)
 * or a C header with the loaders generated for assumed caps (out_header.h).
 * Each format is one row of out_formats[].
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
#include "caps.h"
#include "explain.h"
#include "frontend.h"
#include "out_elf.h"
#include "out_header.h"
#include "replayer.h"
#include "sign.h"

/* What a format writer gets besides the IR. */
struct out_opts {
	const char *trace;	/* the trace's path */
	const char *caps;	/* --assume-caps: the kernel planned for (formats that plan) */
	const char *name;	/* --name: the C identifier (header) */
	const char *pin;	/* --pin: where the loader pins the objects (elf) */
	struct bpfrr_sign_opts sign;	/* --sign-key, --sign-cert, --target-kernel (key NULL: unsigned) */
};

struct out_format {
	const char *name;	/* --format NAME */
	const char *suffix;	/* the default output is TRACE + suffix */
	int (*write)(const struct bpfrr_ir *ir, const char *path, const struct out_opts *o, char *err,
		     size_t err_size);
};

static int write_bundle(const struct bpfrr_ir *ir, const char *path, const struct out_opts *o, char *err,
			size_t err_size)
{
	struct bpfrr_ir *signed_ir;
	int ret;

	if (!o->sign.key)
		return bpfrr_bundle_write(ir, path, err, err_size);
	/* the signed IR has its replay-time values fixed for the target kernel */
	signed_ir = bpfrr_ir_clone(ir);
	if (!signed_ir) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	ret = bpfrr_sign_ir(signed_ir, &o->sign, err, err_size);
	if (!ret)
		ret = bpfrr_bundle_write(signed_ir, path, err, err_size);
	bpfrr_ir_free(signed_ir);
	return ret;
}

static int write_header(const struct bpfrr_ir *ir, const char *path, const struct out_opts *o, char *err,
			size_t err_size)
{
	struct bpfrr_header_opts ho = { .name = o->name, .caps = o->caps, .source = o->trace,
					.sign = o->sign.key ? &o->sign : NULL };

	return bpfrr_header_write(ir, path, &ho, err, err_size);
}

static int write_elf(const struct bpfrr_ir *ir, const char *path, const struct out_opts *o, char *err,
		     size_t err_size)
{
	struct bpfrr_elf_opts eo = { .caps = o->caps, .name = o->name, .pin_dir = o->pin };

	return bpfrr_elf_write(ir, path, &eo, err, err_size);
}

static const struct out_format out_formats[] = {
	{ "bundle", ".bundle", write_bundle },
	{ "header", ".h", write_header },
	{ "elf", ".bpf.o", write_elf },
};
#define NR_OUT_FORMATS (sizeof(out_formats) / sizeof(out_formats[0]))

static const struct out_format *find_format(const char *name)
{
	size_t i;

	for (i = 0; i < NR_OUT_FORMATS; i++)
		if (!strcmp(out_formats[i].name, name))
			return &out_formats[i];
	return NULL;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: bpfrr translate [OPTIONS] TRACE\n"
		"\n"
		"Compiles a recorded load into the calls that rebuild the kernel state the loader\n"
		"had built (by default: after its last call that made, attached or stored\n"
		"something, before its teardown), with every fd relocated to a slot and\n"
		"kernel-specific numbers looked up by name at run time, and writes them as:\n"
		"  bundle   a file `bpfrr replay` runs, planned for the kernel it runs on\n"
		"  header   a C header with the loader programs generated for --assume-caps and\n"
		"           a small runtime: NAME__load() rebuilds the state with no bpfrr at\n"
		"           run time and exposes every object's fd by name (see bpfrr(1))\n"
		"  elf      a BPF object with one syscall loader and its blob as global data, for\n"
		"           libbpf tools: bpftool prog load OUT PIN; bpftool prog run pinned PIN\n"
		"           repeat 0 (every call must run in the loader on --assume-caps)\n"
		"\n"
		"  -o, --output FILE        where to write (default: TRACE.bundle, TRACE.h, TRACE.bpf.o)\n"
		"      --format FORMAT      bundle (default), header or elf\n"
		"      --assume-caps CAPS   header, elf: the kernel to generate for: stock-6.12 (header's\n"
		"                           default) or patched-6.12 (kernel/series: every call\n"
		"                           in-kernel; elf's default)\n"
		"      --name NAME          header: the C identifier of its struct and functions\n"
		"                           (default: from the output's file name); elf: the\n"
		"                           program's (default: bpfrr_loader)\n"
		"      --pin DIR            elf: the loader also pins the maps, programs and links\n"
		"                           alive at the end as DIR/NAME (an absolute bpffs path)\n"
		"      --until N            replay the state after recorded call N (its seq)\n"
		"      --keep-probes        keep objects the loader made and closed (feature probes)\n"
		"      --explain            print, per recorded call, what became of it and why\n"
		"      --json               with --explain: one JSON object instead of text\n"
		"                           (docs/replay-json.md)\n"
		"      --skip-untranslatable  leave out calls that cannot be replayed (listed on\n"
		"                           stderr) instead of failing\n"
		"      --sign-key KEY.pem   bundle, header: sign the loader (PKCS#7, SHA-256, by the\n"
		"                           openssl command) for --assume-caps patched-6.12: one\n"
		"                           loader makes every call, the kernel checks the signature\n"
		"                           over its insns and blob at load time (docs/signing.md)\n"
		"      --sign-cert CERT.pem the certificate of --sign-key (its key goes into the\n"
		"                           target's keyring)\n"
		"      --target-kernel ROOT with --sign-key: fix the kernel-specific values (tracepoint\n"
		"                           ids, BTF ids, the kfunc's id) from the kernel whose /sys\n"
		"                           is under ROOT (/ in the target itself); the replay refuses\n"
		"                           another build\n"
		"  -h, --help\n"
		"\n"
		"Exit status: 0 success, 1 a call cannot be translated, 2 bad usage or input,\n"
		"3 a truncated trace (what it holds was translated).\n");
}

int bpfrr_translate_main(int argc, char **argv)
{
	enum { OPT_FORMAT = 256, OPT_UNTIL, OPT_KEEP_PROBES, OPT_EXPLAIN, OPT_SKIP, OPT_CAPS, OPT_NAME, OPT_PIN,
	       OPT_JSON, OPT_SIGN_KEY, OPT_SIGN_CERT, OPT_TARGET };
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "until", required_argument, NULL, OPT_UNTIL },
		{ "keep-probes", no_argument, NULL, OPT_KEEP_PROBES },
		{ "explain", no_argument, NULL, OPT_EXPLAIN },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "skip-untranslatable", no_argument, NULL, OPT_SKIP },
		{ "assume-caps", required_argument, NULL, OPT_CAPS },
		{ "name", required_argument, NULL, OPT_NAME },
		{ "pin", required_argument, NULL, OPT_PIN },
		{ "sign-key", required_argument, NULL, OPT_SIGN_KEY },
		{ "sign-cert", required_argument, NULL, OPT_SIGN_CERT },
		{ "target-kernel", required_argument, NULL, OPT_TARGET },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bpfrr_frontend_opts fo = { .warn = stderr };
	struct bpfrr_frontend_result res;
	const struct out_format *format = &out_formats[0];
	struct out_opts oo = { .caps = NULL };
	const char *output = NULL;
	char err[512], *def_out = NULL, *end;
	struct bpfrr_trace_reader *r;
	struct bpfrr_ir *ir;
	/* --explain's printer, text or JSON: chosen once, here */
	struct bpfrr_explain_out explain_out = { .ops = &bpfrr_explain_plain, .f = stdout };
	const struct bpfrr_explain_out *xo = NULL;
	struct json_out json;
	bool explain = false, want_json = false;
	int opt, ret;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:h", options, NULL)) != -1) {
		switch (opt) {
		case 'o': output = optarg; break;
		case OPT_FORMAT:
			format = find_format(optarg);
			if (!format) {
				size_t i;

				fprintf(stderr, "bpfrr translate: --format '%s': one of", optarg);
				for (i = 0; i < NR_OUT_FORMATS; i++)
					fprintf(stderr, " %s", out_formats[i].name);
				fprintf(stderr, "\n");
				return BPFRR_EXIT_USAGE;
			}
			break;
		case OPT_CAPS: oo.caps = optarg; break;
		case OPT_NAME: oo.name = optarg; break;
		case OPT_PIN: oo.pin = optarg; break;
		case OPT_SIGN_KEY: oo.sign.key = optarg; break;
		case OPT_SIGN_CERT: oo.sign.cert = optarg; break;
		case OPT_TARGET: oo.sign.target_root = optarg; break;
		case OPT_UNTIL:
			fo.until_seq = strtoull(optarg, &end, 10);
			if (*end || end == optarg || !fo.until_seq || optarg[0] == '-') {
				fprintf(stderr, "bpfrr translate: --until '%s': not a call number\n", optarg);
				return BPFRR_EXIT_USAGE;
			}
			break;
		case OPT_KEEP_PROBES: fo.keep_probes = 1; break;
		case OPT_EXPLAIN: explain = true; break;
		case OPT_JSON: want_json = true; break;
		case OPT_SKIP: fo.skip_untranslatable = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return BPFRR_EXIT_USAGE;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "bpfrr translate: one TRACE expected (see --help)\n");
		return BPFRR_EXIT_USAGE;
	}
	if (want_json && !explain) {
		fprintf(stderr, "bpfrr translate: --json: only with --explain (it is what is printed)\n");
		return BPFRR_EXIT_USAGE;
	}
	if (explain && output && !strcmp(output, "-")) {
		fprintf(stderr, "bpfrr translate: --explain and -o - both write to standard output: "
			"choose one\n");
		return BPFRR_EXIT_USAGE;
	}
	if (oo.pin && strcmp(format->name, "elf")) {
		fprintf(stderr, "bpfrr translate: --pin: only for --format elf (bpfrr replay --pin pins a "
			"replay's objects)\n");
		return BPFRR_EXIT_USAGE;
	}
	if (oo.pin && oo.pin[0] != '/') {
		fprintf(stderr, "bpfrr translate: --pin '%s': an absolute path expected\n", oo.pin);
		return BPFRR_EXIT_USAGE;
	}
	if (!oo.sign.key != !oo.sign.cert || (oo.sign.target_root && !oo.sign.key)) {
		fprintf(stderr, "bpfrr translate: --sign-key and --sign-cert go together (--target-kernel with "
			"them)\n");
		return BPFRR_EXIT_USAGE;
	}
	if (oo.sign.key && !strcmp(format->name, "elf")) {
		fprintf(stderr, "bpfrr translate: --sign-key: bundle and header only (an ELF's loader is "
			"loaded by libbpf, which passes no signature)\n");
		return BPFRR_EXIT_USAGE;
	}
	if (oo.sign.key && !oo.caps) {
		fprintf(stderr, "bpfrr translate: --sign-key: the loader is generated and signed now: name the "
			"kernel with --assume-caps patched-6.12\n");
		return BPFRR_EXIT_USAGE;
	}
	if (oo.caps && !strcmp(format->name, "bundle") && !oo.sign.key) {
		fprintf(stderr, "bpfrr translate: --assume-caps: a bundle is planned when it is replayed "
			"(unless signed: --sign-key)\n");
		return BPFRR_EXIT_USAGE;
	}
	if (oo.caps) {
		struct bpfrr_caps caps;

		if (bpfrr_caps_assume(&caps, oo.caps)) {
			fprintf(stderr, "bpfrr translate: --assume-caps '%s': one of %s\n", oo.caps,
				BPFRR_CAPS_ASSUME_NAMES);
			return BPFRR_EXIT_USAGE;
		}
	}
	if (oo.name) {
		char ident[256];

		bpfrr_header_ident(oo.name, ident, sizeof(ident));
		if (strcmp(ident, oo.name)) {
			fprintf(stderr, "bpfrr translate: --name '%s': not a C identifier (say %s)\n", oo.name, ident);
			return BPFRR_EXIT_USAGE;
		}
	}
	oo.trace = argv[optind];
	oo.sign.caps = oo.caps;
	if (explain) {
		if (want_json) {
			json_start(&json, stdout);
			explain_out = (struct bpfrr_explain_out){ .ops = &bpfrr_explain_json, .j = &json };
		}
		xo = fo.explain_out = &explain_out;
		xo->ops->begin(xo, oo.trace);
	}

	/* an unreadable or corrupt trace is bad input (2); a call that cannot be translated, a failure (1) */
	{
		char *open_err = NULL;

		r = bpfrr_trace_open(argv[optind], 0, &open_err);
		if (!r) {
			fprintf(stderr, "bpfrr translate: %s\n", open_err ? open_err : argv[optind]);
			if (xo) {
				xo->ops->error(xo, open_err ? open_err : argv[optind], false);
				xo->ops->end(xo);
			}
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
		if (xo) {
			xo->ops->error(xo, err, res.untranslatable);
			xo->ops->end(xo);
		}
		if (res.truncated)
			return BPFRR_EXIT_TRUNCATED;
		return res.untranslatable ? BPFRR_EXIT_FAILURE : BPFRR_EXIT_USAGE;
	}
	if (!output) {
		if (asprintf(&def_out, "%s%s", argv[optind], format->suffix) < 0) {
			if (xo) {
				xo->ops->error(xo, "out of memory", false);
				xo->ops->end(xo);
			}
			bpfrr_ir_free(ir);
			return BPFRR_EXIT_FAILURE;
		}
		output = def_out;
	}
	if (!res.cut_seq)
		fprintf(stderr, "bpfrr translate: warning: %s: no successful call built anything; "
			"the %s replays nothing\n", argv[optind], format->name);
	else if (!ir->nr_calls)
		fprintf(stderr, "bpfrr translate: warning: %s: every call was dropped or skipped; "
			"the %s replays nothing\n", argv[optind], format->name);
	ret = format->write(ir, output, &oo, err, sizeof(err));
	if (ret)
		fprintf(stderr, "bpfrr translate: %s\n", err);
	if (xo) {
		struct bpfrr_explain_output w = {
			.path = output, .format = format->name, .calls = ir->nr_calls, .slots = ir->nr_slots,
			.drops = ir->nr_drops, .any_skipped = res.nr_skipped,
		};

		if (ret)
			xo->ops->error(xo, err, false);
		else
			xo->ops->wrote(xo, &w);
		xo->ops->end(xo);
	}
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

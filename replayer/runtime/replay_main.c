// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay_main.c - `bpfrr replay`: run a bundle in the running kernel,
 * keep the objects (pin / hold / while a command runs), verify them.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpfrr.h"
#include "bundle.h"
#include "codegen.h"
#include "frontend.h"
#include "header_runtime.h"
#include "kernel_build.h"
#include "probe.h"
#include "replay.h"
#include "replay_out.h"
#include "replayer.h"
#include "run.h"
#include "sign.h"
#include "trace.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: bpfrr replay [OPTIONS] BUNDLE|TRACE [-- CMD [ARGS...]]\n"
		"       bpfrr replay --caps [--assume-caps NAME] [--json]\n"
		"\n"
		"Replays a translated load (bpfrr translate) in the running kernel: calls that the\n"
		"kernel's syscall programs can make run inside loader programs, the others in user\n"
		"space. Objects live while bpfrr runs, unless pinned.\n"
		"\n"
		"  --pin DIR            pin the kept maps, programs and links under DIR (on a bpffs;\n"
		"                       made if only its parent exists; checked before the load)\n"
		"  --hold               keep the objects until SIGINT or SIGTERM\n"
		"  -- CMD [ARGS...]     keep the objects while CMD runs; exit with its status\n"
		"  --verify             compare the objects with the recorded identities; exit 1 on\n"
		"                       a mismatch. On another kernel build than the recording's,\n"
		"                       tags and attach BTF ids are compared with those expected\n"
		"                       for this kernel (CO-RE recomputed for its BTF)\n"
		"  --verify-expected    --verify, computing the expected tags on the recording's\n"
		"                       build too: each must equal the recorded and the replayed one\n"
		"  --keep-order         make the calls in recorded order (no regrouping)\n"
		"  --plan               print the plan and the generated loaders, then stop\n"
		"  --assume-caps NAME   with --plan or --caps: a named kernel (%s)\n"
		"                       instead of probing this one (no bpf() at all)\n"
		"  --caps               print what this kernel's syscall programs can do, then stop\n"
		"  --keyring KEYRING    a signed bundle: the keyring the kernel checks its signature\n"
		"                       against: @s (default), @u, builtin, secondary, platform or a\n"
		"                       key serial (docs/signing.md)\n"
		"  -v, --verbose        print the kernel's capabilities, the plan, the loaders, steps\n"
		"                       (on stderr with --json)\n"
		"  --json               print one JSON object instead of text: the caps, the plan and\n"
		"                       loaders, the replay's figures, the verification\n"
		"                       (docs/replay-json.md)\n"
		"  -h, --help\n"
		"\n"
		"Exit status: 0 success, 1 replay failure or verification mismatch, 2 bad usage or\n"
		"input; with a CMD, CMD's status once the replay succeeded.\n",
		BPFRR_CAPS_ASSUME_NAMES);
}

/* An error: on stderr, and to the output (JSON carries it too). */
static void fail(struct bpfrr_replay_out *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct bpfrr_replay_out *out, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "bpfrr replay: %s\n", msg);
	out->ops->error(out, msg);
}

/* Caps named by --assume-caps, or probed from this kernel; 0 or an exit status. */
static int get_caps(struct bpfrr_replay_out *out, struct bpfrr_caps *caps, const char *assume,
		    unsigned int probe_flags)
{
	char err[512];

	if (assume) {
		if (!bpfrr_caps_assume(caps, assume))
			return 0;
		fail(out, "--assume-caps '%s': unknown (%s)", assume, BPFRR_CAPS_ASSUME_NAMES);
		return BPFRR_EXIT_USAGE;
	}
	if (!bpfrr_caps_probe(caps, probe_flags, err, sizeof(err)))
		return 0;
	fail(out, "probing the kernel: %s", err);
	return BPFRR_EXIT_FAILURE;
}

/*
 * The input is read once, whatever it is (a file, a pipe, a FIFO): a trace
 * is translated here with the defaults of `bpfrr translate`, anything else
 * must be a bundle.  *truncated: a trace without its END (what it holds
 * replays; the exit status says 3).
 */
static int read_input(struct bpfrr_replay_out *out, const char *path, struct bpfrr_ir **ir, bool *truncated)
{
	static const char *const magics[] = { BPFRR_TRACE_MAGIC, BPFRR_BUNDLE_MAGIC, NULL };
	char err[512];
	uint8_t *data;
	size_t len;
	int ret = 0;

	*truncated = false;
	if (bpfrr_frame_read_file(path, magics, BPFRR_TRACE_MAX_FILE, &data, &len, err, sizeof(err))) {
		fail(out, "%s", err);
		return BPFRR_EXIT_USAGE;
	}
	if (len && bpfrr_frame_magic_matches(data, len, BPFRR_TRACE_MAGIC)) {
		struct bpfrr_frontend_opts fo = { .warn = stderr };
		struct bpfrr_frontend_result res;
		struct bpfrr_trace_reader *r;
		char *open_err = NULL;

		r = bpfrr_trace_open_owned(data, len, path, 0, &open_err);
		data = NULL;	/* the reader's now */
		if (!r) {
			fail(out, "%s", open_err ? open_err : "out of memory");
			free(open_err);
			return BPFRR_EXIT_USAGE;
		}
		*ir = bpfrr_frontend_translate_reader(r, &fo, &res, err, sizeof(err));
		bpfrr_trace_reader_close(r);
		if (*ir && !(*ir)->source)
			(*ir)->source = strdup(path);
		if (!*ir) {
			fail(out, "%s", err);
			ret = res.truncated ? BPFRR_EXIT_TRUNCATED :
			      res.untranslatable ? BPFRR_EXIT_FAILURE : BPFRR_EXIT_USAGE;
		} else if (res.truncated) {
			fprintf(stderr, "bpfrr replay: warning: %s\n", res.truncated_msg);
			*truncated = true;
		}
	} else if (!len || !bpfrr_frame_magic_matches(data, len, BPFRR_BUNDLE_MAGIC)) {
		fail(out, "%s: %s, not a bpfrr trace or bundle", path, len ? "bad magic" : "empty file");
		ret = BPFRR_EXIT_USAGE;
	} else if (len < BPFRR_FRAME_MAGIC_SIZE) {
		fail(out, "%s: truncated: file ends inside the bundle's magic", path);
		ret = BPFRR_EXIT_TRUNCATED;
	} else {
		*ir = bpfrr_bundle_decode(data, len, path, err, sizeof(err));
		if (!*ir) {
			fail(out, "%s", err);
			ret = BPFRR_EXIT_USAGE;
		}
	}
	free(data);
	return ret;
}

/*
 * A load replays only on the arch it was recorded on: its programs read
 * that arch's registers (pt_regs), syscall numbers and syscall function
 * names.  0, or the exit status after refusing it.
 */
static int check_arch(struct bpfrr_replay_out *out, const char *path, const struct bpfrr_ir *ir)
{
	const char *running = NULL, *recorded = bpfrr_arch_name(ir->arch);
	uint32_t arch = bpfrr_kernel_machine_arch(&running);

	if (!ir->arch || !arch || ir->arch == arch)
		return 0;
	fail(out, "%s was recorded on %s, this is %s: a load replays only on the arch it was recorded on",
	     path, recorded ? recorded : "another arch", bpfrr_arch_name(arch));
	return BPFRR_EXIT_USAGE;
}

/* --plan: what would run where, and the loaders, for the given caps. */
static int print_plan(struct bpfrr_replay_out *out, const struct bpfrr_ir *ir, const struct bpfrr_caps *caps,
		      unsigned int plan_flags)
{
	struct bpfrr_plan plan;
	char err[512];
	uint32_t s;
	int ret;

	out->ops->caps(out, caps);
	ret = bpfrr_plan_make(ir, caps, plan_flags, &plan, err, sizeof(err));
	if (ret) {
		fail(out, "%s", err);
		return BPFRR_EXIT_FAILURE;
	}
	out->ops->plan(out, ir, &plan);
	for (s = 0; s < plan.nr_segs; s++) {
		struct bpfrr_loader l;

		if (plan.segs[s].side != BPFRR_SIDE_KERNEL)
			continue;
		ret = bpfrr_codegen(ir, &plan.order[plan.segs[s].first], plan.segs[s].nr, caps,
				    BPFRR_CG_NOTES, &l, err, sizeof(err));
		if (ret) {
			fail(out, "segment %u: %s", s, err);
			bpfrr_plan_free(&plan);
			return BPFRR_EXIT_FAILURE;
		}
		out->ops->loader(out, ir, s, &l);
		bpfrr_loader_free(&l);
	}
	bpfrr_plan_free(&plan);
	return 0;
}

static void verify_row(void *ctx, const struct bpfrr_verify_row *row)
{
	struct bpfrr_replay_out *out = ctx;

	out->ops->verify_row(out, row);
}

/* --verify: the table, and whether every check held */
static int verify(struct bpfrr_replay_out *out, const struct bpfrr_replay *r, unsigned int flags)
{
	struct bpfrr_verify_totals tot;
	uint64_t t0 = bpfrr_now_ns();
	int bad;

	out->ops->verify_begin(out);
	bad = bpfrr_replay_verify_rows(r, flags, verify_row, out, &tot);
	out->ops->verify_end(out, &tot, bpfrr_now_ns() - t0);
	return bad;
}

static int hold(struct bpfrr_replay_out *out)
{
	sigset_t set;
	char text[128];
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	out->ops->notice(out, "holding the objects; SIGINT or SIGTERM releases them");
	if (sigwait(&set, &sig))
		return BPFRR_EXIT_FAILURE;
	snprintf(text, sizeof(text), "%s: releasing", strsignal(sig));
	out->ops->notice(out, text);
	return 0;
}

static int run_command(char **argv)
{
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "bpfrr replay: fork: %s\n", strerror(errno));
		return BPFRR_EXIT_FAILURE;
	}
	if (!pid) {
		execvp(argv[0], argv);
		fprintf(stderr, "bpfrr replay: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return BPFRR_EXIT_FAILURE;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

#ifndef BPF_FS_MAGIC
#define BPF_FS_MAGIC 0xcafe4a11
#endif

static bool on_bpffs_dir(const char *path)
{
	struct statfs sfs;
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode) && !statfs(path, &sfs) &&
	       (unsigned long)sfs.f_type == (unsigned long)BPF_FS_MAGIC;
}

/*
 * --pin DIR is checked before anything loads: an existing directory on a
 * bpf filesystem, or a new one whose parent is (made now, as a user
 * expects, and removed again if the replay fails).  0, or the exit status
 * of a refusal (2: the replay never started).
 */
static int prepare_pin_dir(struct bpfrr_replay_out *out, const char *dir, bool *made)
{
	char *copy, *parent;
	int ret = 0;

	*made = false;
	if (on_bpffs_dir(dir))
		return 0;
	if (!access(dir, F_OK)) {
		fail(out, "--pin %s: not a directory on a bpf filesystem", dir);
		return BPFRR_EXIT_USAGE;
	}
	copy = strdup(dir);	/* dirname() may write to it */
	if (!copy) {
		fail(out, "--pin %s: out of memory", dir);
		return BPFRR_EXIT_FAILURE;
	}
	parent = dirname(copy);
	if (!on_bpffs_dir(parent)) {
		fail(out, "--pin %s: %s is not a directory on a bpf filesystem (mount -t bpf bpf DIR)", dir, parent);
		ret = BPFRR_EXIT_USAGE;
	} else if (mkdir(dir, 0700)) {
		fail(out, "--pin %s: %s", dir, strerror(errno));
		ret = BPFRR_EXIT_FAILURE;
	} else {
		*made = true;
	}
	free(copy);
	return ret;
}

int bpfrr_replay_main(int argc, char **argv)
{
	enum { OPT_PIN = 256, OPT_HOLD, OPT_VERIFY, OPT_VERIFY_EXPECTED, OPT_KEEP_ORDER, OPT_PLAN, OPT_ASSUME, OPT_CAPS, OPT_JSON,
	       OPT_KEYRING };
	static const struct option options[] = {
		{ "pin", required_argument, NULL, OPT_PIN },
		{ "hold", no_argument, NULL, OPT_HOLD },
		{ "verify", no_argument, NULL, OPT_VERIFY },
		{ "verify-expected", no_argument, NULL, OPT_VERIFY_EXPECTED },
		{ "keep-order", no_argument, NULL, OPT_KEEP_ORDER },
		{ "plan", no_argument, NULL, OPT_PLAN },
		{ "assume-caps", required_argument, NULL, OPT_ASSUME },
		{ "caps", no_argument, NULL, OPT_CAPS },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "keyring", required_argument, NULL, OPT_KEYRING },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *pin_dir = NULL, *assume = NULL, *keyring = NULL;
	unsigned int verify_flags = 0;
	bool do_hold = false, do_verify = false, do_plan = false, do_caps = false, want_json = false;
	bool truncated = false, pin_made = false;
	/* what goes to stdout, text or JSON: chosen once, here */
	struct bpfrr_replay_out out = { .ops = &bpfrr_replay_plain, .f = stdout };
	struct json_out json;
	struct bpfrr_replay_opts o = { 0 };
	struct bpfrr_caps caps;
	struct bpfrr_replay r;
	struct bpfrr_ir *ir = NULL;
	char **cmd = NULL, err[512];
	int opt, ret, status = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+vh", options, NULL)) != -1) {
		switch (opt) {
		case OPT_PIN: pin_dir = optarg; break;
		case OPT_HOLD: do_hold = true; break;
		case OPT_VERIFY: do_verify = true; break;
		case OPT_VERIFY_EXPECTED: do_verify = true; verify_flags |= BPFRR_VERIFY_EXPECT; break;
		case OPT_KEEP_ORDER: o.flags |= BPFRR_REPLAY_KEEP_ORDER; break;
		case OPT_PLAN: do_plan = true; break;
		case OPT_ASSUME: assume = optarg; break;
		case OPT_CAPS: do_caps = true; break;
		case OPT_JSON: want_json = true; break;
		case OPT_KEYRING: keyring = optarg; break;
		case 'v': o.verbose = stdout; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return BPFRR_EXIT_USAGE;
		}
	}
	o.keyring_id = BPFRR_RT_KEYRING_SESSION;
	if (keyring && bpfrr_rt_keyring_parse(keyring, &o.keyring_id)) {
		fprintf(stderr, "bpfrr replay: --keyring '%s': @s, @u, builtin, secondary, platform or a key serial\n",
			keyring);
		return BPFRR_EXIT_USAGE;
	}
	if (want_json) {
		json_start(&json, stdout);
		out = (struct bpfrr_replay_out){ .ops = &bpfrr_replay_json, .j = &json };
		if (o.verbose)
			o.verbose = stderr;	/* stdout holds the one object */
	}
	if (do_caps) {
		if (optind < argc || do_plan || do_hold || pin_dir || do_verify) {
			fprintf(stderr, "bpfrr replay: --caps takes no bundle and no other option than --assume-caps "
				"and --json\n");
			return BPFRR_EXIT_USAGE;
		}
		out.ops->begin(&out);
		ret = get_caps(&out, &caps, assume, BPFRR_CAPS_PROBE_PERF);
		if (!ret)
			out.ops->caps(&out, &caps);
		out.ops->end(&out);
		return ret;
	}
	if (optind >= argc) {
		fprintf(stderr, "bpfrr replay: no bundle given (see --help)\n");
		return BPFRR_EXIT_USAGE;
	}
	if (optind + 1 < argc) {
		/* getopt stops at "--" after the bundle; anything else is an error */
		if (strcmp(argv[optind + 1], "--") || optind + 2 >= argc) {
			fprintf(stderr, "bpfrr replay: unexpected '%s' (a command goes after '--')\n",
				argv[optind + 1]);
			return BPFRR_EXIT_USAGE;
		}
		cmd = &argv[optind + 2];
	}
	if (do_hold && cmd) {
		fprintf(stderr, "bpfrr replay: --hold and a command exclude each other\n");
		return BPFRR_EXIT_USAGE;
	}
	if (assume && !do_plan) {
		fprintf(stderr, "bpfrr replay: --assume-caps only goes with --plan or --caps: a real replay probes\n");
		return BPFRR_EXIT_USAGE;
	}
	if (do_plan && (do_hold || cmd || pin_dir || do_verify)) {
		fprintf(stderr, "bpfrr replay: --plan replays nothing: no --pin, --hold, --verify or command\n");
		return BPFRR_EXIT_USAGE;
	}
	out.ops->begin(&out);
	ret = read_input(&out, argv[optind], &ir, &truncated);
	/* --plan runs nothing: a host may plan another arch's load */
	if (!ret && !do_plan)
		ret = check_arch(&out, argv[optind], ir);
	if (!ret && ir->sig && (assume || o.flags & BPFRR_REPLAY_KEEP_ORDER)) {
		fail(&out, "%s is signed: its loader was planned and signed for %s at translate time; a re-plan "
		     "(%s) would load a program the signature does not cover", argv[optind], ir->sig->caps,
		     assume ? "--assume-caps" : "--keep-order");
		ret = BPFRR_EXIT_USAGE;
	}
	if (!ret && !ir->sig && keyring) {
		fail(&out, "--keyring: %s is not signed", argv[optind]);
		ret = BPFRR_EXIT_USAGE;
	}
	if (ret) {
		out.ops->end(&out);
		bpfrr_ir_free(ir);
		return ret;
	}

	if (do_plan && ir->sig) {
		/* the plan it was signed with, and what a reader can check without the key */
		char what[192];

		bpfrr_sign_check(ir, what, sizeof(what));
		if (!want_json)
			printf("signed: loader planned and signed for %s%s%s; %u insns, %u-byte metadata map, "
			       "%u-byte signature; stored loader %s\n", ir->sig->caps,
			       ir->sig->build_id ? ", kernel build " : ", any kernel build",
			       ir->sig->build_id ? ir->sig->build_id : "", ir->sig->nr_insns, ir->sig->blob_size,
			       ir->sig->sig_size, what);
		ret = bpfrr_sign_caps(ir->sig, &caps) ? BPFRR_EXIT_USAGE : 0;
		if (!ret)
			ret = print_plan(&out, ir, &caps, 0);
		out.ops->end(&out);
		bpfrr_ir_free(ir);
		return ret;
	}
	if (do_plan) {
		ret = get_caps(&out, &caps, assume, bpfrr_ir_has_perf_event_open(ir) ? BPFRR_CAPS_PROBE_PERF : 0);
		if (!ret)
			ret = print_plan(&out, ir, &caps, o.flags & BPFRR_REPLAY_KEEP_ORDER ? BPFRR_PLAN_KEEP_ORDER : 0);
		out.ops->end(&out);
		bpfrr_ir_free(ir);
		return !ret && truncated ? BPFRR_EXIT_TRUNCATED : ret;
	}

	if (pin_dir) {
		ret = prepare_pin_dir(&out, pin_dir, &pin_made);
		if (ret) {
			out.ops->end(&out);
			bpfrr_ir_free(ir);
			return ret;
		}
	}
	ret = bpfrr_replay_run(&r, ir, &o);
	if (ret) {
		if (pin_made)
			rmdir(pin_dir);
		fprintf(stderr, "bpfrr replay: %s\n", r.error);
		if (r.log)
			fprintf(stderr, "bpfrr replay: the kernel's log:\n%s\n", r.log);
		/* a refusal (another arch or build, a missing symbol) made nothing: one line says it */
		if (!r.refused)
			fprintf(stderr, "bpfrr replay: nothing was left behind\n");
		out.ops->replay(&out, ir, &r, false);
		out.ops->end(&out);
		bpfrr_replay_close(&r);
		bpfrr_ir_free(ir);
		return BPFRR_EXIT_FAILURE;
	}
	out.ops->replay(&out, ir, &r, true);
	if (do_verify && verify(&out, &r, verify_flags))
		status = BPFRR_EXIT_FAILURE;
	if (!status && pin_dir) {
		if (bpfrr_replay_pin(&r, pin_dir, err, sizeof(err))) {
			fail(&out, "%s", err);
			status = BPFRR_EXIT_FAILURE;
		} else {
			out.ops->pinned(&out, pin_dir);
		}
	}
	if (status && pin_made)
		rmdir(pin_dir);	/* nothing pinned in it (a failed pin unpins what it pinned) */
	out.ops->end(&out);
	fflush(stdout);
	if (!status && do_hold)
		status = hold(&out);
	else if (!status && cmd)
		status = run_command(cmd);
	bpfrr_replay_close(&r);
	bpfrr_ir_free(ir);
	/* a truncated trace's prefix replayed: 3 says the load may be incomplete */
	return !status && truncated && !cmd ? BPFRR_EXIT_TRUNCATED : status;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * record.c - `bpfrr record [-o FILE] [options] -- CMD [ARGS...]`
 *
 * Starts CMD under ptrace with the recorder's seccomp filter, records its
 * bpf() calls and the fd lifetimes around them into a trace file (see
 * docs/recorder.md and docs/trace-format.md), and exits with CMD's own
 * status: its exit code, or 128 + the signal that killed it.
 *
 * Start-up order matters: the child waits on a pipe until the recorder has
 * PTRACE_SEIZE'd it, and only then installs the filter and execs. A filter
 * whose SCMP_ACT_TRACE rules met no tracer would fail those calls with
 * ENOSYS instead of stopping.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bpfrr.h"
#include "record.h"

#define DEFAULT_OUTPUT "bpfrr.trace"

#if defined(__x86_64__)
#define NATIVE_EM EM_X86_64
#else
#define NATIVE_EM EM_AARCH64
#endif

static const char usage_text[] =
	"usage: bpfrr record [-o FILE] [OPTIONS] [--] CMD [ARGS...]\n"
	"\n"
	"Run CMD under ptrace and record every bpf() call it makes (attr, every\n"
	"buffer the kernel reads at entry and writes at exit, result, timing),\n"
	"the fd lifetimes around them, the perf_event_open()/ioctl() and opens a\n"
	"BPF load depends on, and the kernel identity (id, tag) of each object\n"
	"created. CMD's stdin/stdout/stderr, signals and exit status pass through.\n"
	"\n"
	"options:\n"
	"  -o, --output FILE   trace file to write (default: " DEFAULT_OUTPUT ")\n"
	"      --opens MODE    which open()/openat()/openat2() calls are recorded:\n"
	"                        bpf   paths a BPF load depends on: cgroup, tracefs,\n"
	"                              bpffs, kernel BTF, PMU types ... (default)\n"
	"                        all   every open (each one stops the tracee twice)\n"
	"                        none  opens never stop the tracee; fds they made are\n"
	"                              identified from /proc when bpf() uses them\n"
	"      --no-identity   do not query the kernel id/tag of created objects\n"
	"  -v, --verbose       print one line per bpf() call on stderr\n"
	"  -s, --summary       print what was recorded, and where the recorder's time went,\n"
	"                      on stderr at the end\n"
	"      --print-filter  print the seccomp filter (libseccomp pseudo code), exit\n"
	"  -h, --help          this text\n"
	"\n"
	"exit status: CMD's exit code, or 128+N if a signal N killed it;\n"
	"  125 if the recorder failed or refused CMD (a 32-bit or foreign-ABI\n"
	"  process), 126 if CMD could not be executed, 127 if it was not found.\n"
	"See docs/recorder.md for exactly which system calls stop the tracee.\n";

/* The process the signal handlers forward to (0 before it exists). */
static volatile pid_t forward_pid;

static void forward_signal(int sig, siginfo_t *info, void *uctx)
{
	(void)uctx;
	/*
	 * A signal from the terminal (si_code > 0, SI_KERNEL) already reached
	 * the whole foreground process group, CMD included. One sent to the
	 * recorder alone (kill, timeout) is meant for the recorded command.
	 */
	if (info->si_code <= 0 && forward_pid > 0 && info->si_pid != forward_pid)
		kill(forward_pid, sig);
}

static void install_forwarding(void)
{
	static const int sigs[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = forward_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;

		/* a signal ignored by whoever started us stays ignored */
		if (!sigaction(sigs[i], NULL, &old) && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

static int parse_opens(const char *arg, enum rec_opens *opens)
{
	if (!strcmp(arg, "bpf"))
		*opens = REC_OPENS_BPF;
	else if (!strcmp(arg, "all"))
		*opens = REC_OPENS_ALL;
	else if (!strcmp(arg, "none"))
		*opens = REC_OPENS_NONE;
	else
		return -1;
	return 0;
}

/* The child: wait for the tracer, install the filter, exec. Never returns. */
static void run_child(const struct rec_options *opt, int go_fd)
{
	char c;
	ssize_t n;
	int err;

	do
		n = read(go_fd, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(REC_EXIT_SELF);	/* the recorder gave up before we started */
	close(go_fd);
	/* if the recorder dies before it could trace us, do not run unobserved */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	err = rec_filter_install(opt->opens);
	if (err) {
		fprintf(stderr, "bpfrr record: installing the seccomp filter failed: %s\n", strerror(-err));
		_exit(REC_EXIT_SELF);
	}
	execvp(opt->argv[0], opt->argv);
	err = errno;
	fprintf(stderr, "bpfrr record: %s: %s\n", opt->argv[0], strerror(err));
	_exit(err == ENOENT ? REC_EXIT_NOTFOUND : REC_EXIT_NOEXEC);
}

static uint32_t pmu_type(const char *name)
{
	char path[128], buf[32];
	FILE *f;
	uint32_t type = (uint32_t)-1;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", name);
	f = fopen(path, "re");
	if (!f)
		return type;
	if (fgets(buf, sizeof(buf), f))
		type = (uint32_t)strtoul(buf, NULL, 10);
	fclose(f);
	return type;
}

static struct bpfrr_trace_writer *open_trace(const struct rec_options *opt, pid_t child, unsigned int nr_cpus)
{
	struct bpfrr_trace_header hdr;
	struct utsname uts;
	struct timespec rt, mono;
	uint32_t argc = 0;

	memset(&hdr, 0, sizeof(hdr));
	if (uname(&uts))
		memset(&uts, 0, sizeof(uts));
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	while (opt->argv[argc])
		argc++;
	hdr.arch = NATIVE_EM;
	hdr.nr_cpus = nr_cpus;
	hdr.page_size = (uint32_t)sysconf(_SC_PAGESIZE);
	hdr.start_realtime_ns = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
	hdr.start_monotonic_ns = (uint64_t)mono.tv_sec * 1000000000u + (uint64_t)mono.tv_nsec;
	hdr.recorder_pid = (uint32_t)getpid();
	hdr.tracee_pid = (uint32_t)child;
	hdr.arch_name = uts.machine;
	hdr.kernel_release = uts.release;
	hdr.kernel_version = uts.version;
	hdr.recorder_version = "bpfrr " BPFRR_VERSION;
	hdr.argc = argc;
	hdr.argv = (const char *const *)opt->argv;
	return bpfrr_trace_create_version(opt->output, &hdr, opt->trace_major);
}

/*
 * The process tracing pid, from TracerPid in /proc/PID/status: 0 when none
 * (or unknown), and its command name in comm.
 */
static pid_t tracer_of(pid_t pid, char *comm, size_t comm_size)
{
	char path[64], line[256];
	pid_t tracer = 0;
	FILE *f;

	snprintf(comm, comm_size, "?");
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "TracerPid:", 10)) {
			tracer = (pid_t)strtol(line + 10, NULL, 10);
			break;
		}
	}
	fclose(f);
	if (tracer <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tracer);
	f = fopen(path, "re");
	if (f) {
		if (fgets(comm, (int)comm_size, f))
			comm[strcspn(comm, "\n")] = 0;
		fclose(f);
	}
	return tracer;
}

/*
 * PTRACE_SEIZE of our own child failed. The usual reason: something traces
 * us with fork-following (strace -f, gdb, an outer bpfrr record), so the
 * child already has a tracer and a task can have only one. Say so in one line.
 */
static void seize_failed(pid_t child, int err)
{
	char comm[64];
	pid_t tracer = err == EPERM ? tracer_of(child, comm, sizeof(comm)) : 0;

	if (tracer > 0 && tracer != getpid())
		fprintf(stderr, "bpfrr record: the command is already traced by process %d (%s): "
			"bpfrr record cannot run under a tracer that follows forks (strace -f, gdb, "
			"another bpfrr record)\n", (int)tracer, comm);
	else
		fprintf(stderr, "bpfrr record: PTRACE_SEIZE: %s\n", strerror(err));
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static int exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return REC_EXIT_SELF;
}

int bpfrr_record_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "opens", required_argument, NULL, 'O' },
		{ "no-identity", no_argument, NULL, 'I' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "summary", no_argument, NULL, 's' },
		{ "print-filter", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rec_options opt = {
		.output = DEFAULT_OUTPUT,
		.opens = REC_OPENS_BPF,
		.identity = true,
		/* the recorder's changes turned off, as bench/record-ab's baselines:
		 * every close stopped at its exit too (before trace format 2.2), and the
		 * kernel's numbers named at the call, on this thread (also for strace
		 * without -f); trace format 2.2, without blob copies (also for a
		 * reader of an older bpfrr) */
		.wait_closes = getenv("BPFRR_RECORD_WAIT_CLOSES") != NULL,
		.name_inline = getenv("BPFRR_RECORD_NAME_INLINE") != NULL,
		.trace_major = getenv("BPFRR_RECORD_TRACE_V2") ? 2 : getenv("BPFRR_RECORD_TRACE_V3") ? 3 :
			       BPFRR_TRACE_VERSION_MAJOR,
	};
	struct rec_session s;
	bool print_filter = false, summary = false;
	int go[2], ch, err, ret;
	pid_t child;

	/* '+': stop at the first non-option, which is CMD */
	optind = 1;
	while ((ch = getopt_long(argc, argv, "+o:vsh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'o':
			opt.output = optarg;
			break;
		case 'O':
			if (parse_opens(optarg, &opt.opens)) {
				fprintf(stderr, "bpfrr record: --opens: unknown mode '%s' (bpf, all or none)\n",
					optarg);
				return BPFRR_EXIT_USAGE;
			}
			break;
		case 'I':
			opt.identity = false;
			break;
		case 'v':
			opt.verbose = true;
			break;
		case 's':
			summary = true;
			break;
		case 'F':
			print_filter = true;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			fprintf(stderr, "bpfrr record: see 'bpfrr record --help'\n");
			return BPFRR_EXIT_USAGE;
		}
	}
	if (print_filter) {
		err = rec_filter_print(opt.opens, STDOUT_FILENO);
		if (err)
			fprintf(stderr, "bpfrr record: building the filter failed: %s\n", strerror(-err));
		return err ? REC_EXIT_SELF : 0;
	}
	if (optind >= argc) {
		fprintf(stderr, "bpfrr record: no command given (usage: bpfrr record [-o FILE] -- CMD [ARGS...])\n");
		return BPFRR_EXIT_USAGE;
	}
	opt.argv = argv + optind;

	memset(&s, 0, sizeof(s));
	s.times.start = rec_now_ns();
	s.opt = &opt;
	s.nr_cpus = rec_nr_possible_cpus();
	s.kprobe_type = pmu_type("kprobe");
	s.uprobe_type = pmu_type("uprobe");

	if (pipe2(go, O_CLOEXEC)) {
		fprintf(stderr, "bpfrr record: pipe: %s\n", strerror(errno));
		return REC_EXIT_SELF;
	}
	fflush(NULL);
	child = fork();
	if (child < 0) {
		fprintf(stderr, "bpfrr record: fork: %s\n", strerror(errno));
		return REC_EXIT_SELF;
	}
	if (child == 0) {
		close(go[1]);
		run_child(&opt, go[0]);
	}
	close(go[0]);

	s.leader = child;
	s.w = open_trace(&opt, child, s.nr_cpus);
	if (!s.w) {
		fprintf(stderr, "bpfrr record: %s: %s\n", opt.output, strerror(errno));
		goto fail_child;
	}
	/* records gathered and written in bursts (record_loop.c, wait_next()); unbuffered if no memory */
	bpfrr_trace_writer_buffer(s.w, 64 * 1024);
	rec_symbols_start(&s);
	if (ptrace(PTRACE_SEIZE, child, 0,
		   (void *)(long)(PTRACE_O_TRACESECCOMP | PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK |
				  PTRACE_O_TRACEVFORK | PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT |
				  PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL))) {
		seize_failed(child, errno);
		bpfrr_trace_abandon(s.w);
		goto fail_child;
	}
	forward_pid = child;
	install_forwarding();
	if (write(go[1], "g", 1) != 1) {
		fprintf(stderr, "bpfrr record: starting the command: %s\n", strerror(errno));
		bpfrr_trace_abandon(s.w);
		goto fail_child;
	}
	close(go[1]);

	err = rec_loop_run(&s);
	s.times.end = rec_now_ns();
	forward_pid = 0;
	rec_symbols_end(&s);
	rec_elf_free(&s);
	if (err || s.write_err) {
		bpfrr_trace_abandon(s.w);
		return REC_EXIT_SELF;
	}
	ret = bpfrr_trace_close(s.w, s.leader_done ? s.leader_status : 0, 0);
	if (ret) {
		fprintf(stderr, "bpfrr record: %s: %s\n", opt.output, strerror(-ret));
		return REC_EXIT_SELF;
	}
	if (summary) {
		const struct rec_times *tm = &s.times;

		fprintf(stderr, "bpfrr record: %s: %llu bpf() calls, %llu other calls, %llu stops\n",
			opt.output, (unsigned long long)s.bpf_calls, (unsigned long long)s.other_calls,
			(unsigned long long)s.stops);
		fprintf(stderr, "bpfrr record: times (ms): start-up %.2f, waiting %.2f, bpf() entries %.2f, exits "
			"%.2f, other calls %.2f, %.2f, task events %.2f, end %.2f; of those identity queries %.2f, "
			"symbols %.2f, executable scans %.2f; symbols named in the background %.2f\n",
			ms(tm->loop - tm->start), ms(tm->wait), ms(tm->bpf_entry), ms(tm->bpf_exit), ms(tm->sys_entry),
			ms(tm->sys_exit), ms(tm->events), ms(rec_now_ns() - tm->end), ms(tm->identity), ms(tm->symbols),
			ms(tm->scan), ms(tm->symbols_bg));
	}
	if (s.refused)
		return REC_EXIT_SELF;
	return s.leader_done ? exit_code(s.leader_status) : REC_EXIT_SELF;

fail_child:
	rec_symbols_end(&s);
	close(go[1]);	/* the child reads EOF and exits without running CMD */
	waitpid(child, NULL, 0);
	return REC_EXIT_SELF;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * benchtime: run a command once and print how long it took, for the
 * benchmarks of bench/ (host and guest; busybox has no sub-second clock).
 *
 *   benchtime [--ready [--int-after N]] [--limit SECS] [--out FILE] [--err FILE] -- CMD [ARGS...]
 *
 * Prints one line on stdout:
 *
 *   total_us=T ready_us=R sigint=I status=S
 *
 * T is CLOCK_MONOTONIC microseconds from just before fork() to the
 * command's exit (waitpid).  S is "exit=N", "signal=N" or "timeout".
 *
 * --ready is for tools that load, attach, print a line and then run until
 * SIGINT (Debian's opensnoop, runqlat, ...): the command's stdout is a
 * pseudo-terminal, so stdio line-buffers it and its first line arrives when
 * it is printed; R is the time to the end of that first line (the tool has
 * loaded and attached), at which point SIGINT goes to the command's process
 * group, as a terminal's ^C would, again every 100 ms until it has exited
 * (I counts them), and T is the time to its exit.  Without --ready R and I
 * are 0 and the command runs to its end.  --int-after N holds the first
 * SIGINT back until the end of the command's N-th line (R stays the first):
 * `bpfrr replay --hold` prints its report's two lines once loaded, and a
 * ^C after the first would lose the second (its phase times).
 *
 * The command runs in a process group of its own, stdin from /dev/null,
 * stdout to --out FILE (default /dev/null; with --ready what the terminal
 * showed), stderr to --err FILE (default /dev/null).  After --limit SECS
 * (default 300) the group is killed with SIGKILL and S is "timeout"
 * (first the command's state and kernel stack go to our stderr).
 *
 * Exit status: 0 if the run counts (the command exited 0; with --ready: it
 * printed its line and then ended by exit 0, 130 or SIGINT), 1 if not (the line
 * is printed anyway), 2 for a bad command line or a failure of our own.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ME "benchtime"
#define RESEND_INT_US 100000

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Only there so that SIGCHLD interrupts ppoll(). */
static void note_sigchld(int sig)
{
	(void)sig;
}

/* Copies /proc/PID/NAME to stderr, indented (best effort: a diagnosis). */
static void show_proc_file(pid_t pid, const char *name)
{
	char path[64], buf[4096];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	f = fopen(path, "r");
	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	fprintf(stderr, "  %s:%s%s%s", name, strchr(buf, '\n') ? "\n" : " ", buf,
		n && buf[n - 1] == '\n' ? "" : "\n");
}

/*
 * A command past its limit: say where it is stuck before it is killed (its
 * state, wait channel, kernel stack), so a hang can be told from slowness.
 */
static void report_stuck(pid_t pid, long limit_s)
{
	fprintf(stderr, ME ": pid %d still running after %ld s, killing it\n", (int)pid, limit_s);
	show_proc_file(pid, "stat");
	show_proc_file(pid, "wchan");
	show_proc_file(pid, "syscall");
	show_proc_file(pid, "stack");
}

static void usage(void)
{
	fprintf(stderr, "usage: " ME " [--ready [--int-after N]] [--limit SECS] [--out FILE] [--err FILE] -- CMD "
		"[ARGS...]\n");
	exit(2);
}

/* Opens path for the child's fd target_fd; on failure the child reports and exits 127. */
static void child_redirect(const char *path, int flags, int target_fd)
{
	int fd = open(path, flags, 0644);

	if (fd < 0) {
		fprintf(stderr, ME ": %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	if (fd != target_fd) {
		dup2(fd, target_fd);
		close(fd);
	}
}

/* A pseudo-terminal master; *slave_name gets the slave's path. */
static int open_pty(char **slave_name)
{
	int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	char *name;

	if (master < 0 || grantpt(master) || unlockpt(master) || !(name = ptsname(master))) {
		fprintf(stderr, ME ": cannot make a pseudo-terminal: %s\n", strerror(errno));
		exit(2);
	}
	*slave_name = strdup(name);
	if (!*slave_name) {
		fprintf(stderr, ME ": out of memory\n");
		exit(2);
	}
	return master;
}

int main(int argc, char **argv)
{
	const char *out_path = "/dev/null", *err_path = "/dev/null";
	bool ready_mode = false, ready_seen = false, timed_out = false;
	long long t0, t_ready = 0, t_last_int = 0, t_end, deadline;
	int nr_int = 0, lines = 0, int_after = 1;
	char *slave_name = NULL, *end;
	int master = -1, out_fd = -1, status = 0;
	struct sigaction on_chld = { .sa_handler = note_sigchld };
	sigset_t chld, orig_mask;
	long limit_s = 300;
	pid_t pid;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "--ready")) {
			ready_mode = true;
		} else if (!strcmp(argv[i], "--int-after") && i + 1 < argc) {
			int_after = (int)strtol(argv[++i], &end, 10);
			if (*end || int_after < 1) {
				fprintf(stderr, ME ": --int-after: '%s' is not a positive number of lines\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--limit") && i + 1 < argc) {
			errno = 0;
			limit_s = strtol(argv[++i], &end, 10);
			if (errno || *end || limit_s <= 0) {
				fprintf(stderr, ME ": --limit: '%s' is not a positive number of seconds\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
			out_path = argv[++i];
		} else if (!strcmp(argv[i], "--err") && i + 1 < argc) {
			err_path = argv[++i];
		} else {
			usage();
		}
	}
	if (i >= argc)
		usage();

	if (ready_mode) {
		master = open_pty(&slave_name);
		out_fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (out_fd < 0) {
			fprintf(stderr, ME ": %s: %s\n", out_path, strerror(errno));
			return 2;
		}
	}

	/*
	 * SIGCHLD stays blocked except inside ppoll(), so a child that exits
	 * between waitpid() and ppoll() still interrupts the wait at once.
	 */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &orig_mask);
	sigaction(SIGCHLD, &on_chld, NULL);

	t0 = now_us();
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, ME ": fork: %s\n", strerror(errno));
		return 2;
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &orig_mask, NULL);
		setpgid(0, 0);
		child_redirect("/dev/null", O_RDONLY, 0);
		if (ready_mode)
			child_redirect(slave_name, O_WRONLY | O_NOCTTY, 1);
		else
			child_redirect(out_path, O_WRONLY | O_CREAT | O_TRUNC, 1);
		child_redirect(err_path, O_WRONLY | O_CREAT | O_TRUNC, 2);
		execvp(argv[i], &argv[i]);
		fprintf(stderr, ME ": %s: %s\n", argv[i], strerror(errno));
		_exit(127);
	}
	/* both sides set the group, so a kill(-pid) right after fork finds it */
	setpgid(pid, pid);
	deadline = t0 + (long long)limit_s * 1000000;

	for (;;) {
		struct pollfd p = { .fd = master, .events = POLLIN };
		pid_t w = waitpid(pid, &status, WNOHANG);
		long long left = deadline - now_us();
		struct timespec ts;
		char buf[4096];
		ssize_t n;

		if (w == pid)
			break;
		if (w < 0) {
			fprintf(stderr, ME ": waitpid: %s\n", strerror(errno));
			return 2;
		}
		if (left <= 0) {
			report_stuck(pid, limit_s);
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			timed_out = true;
			break;
		}
		/*
		 * A tool can miss the first SIGINT: runqlat installs its handler
		 * only after printing its line, biolatency sleeps for days when
		 * the signal came just before its sleep() (both race with a real
		 * ^C too).  Like an impatient user, send it again every 100 ms.
		 */
		if (nr_int) {
			if (now_us() - t_last_int >= RESEND_INT_US) {
				kill(-pid, SIGINT);
				t_last_int = now_us();
				nr_int++;
			}
			if (left > RESEND_INT_US)
				left = RESEND_INT_US;
		}
		ts.tv_sec = left / 1000000;
		ts.tv_nsec = left % 1000000 * 1000;
		/* with no pty to watch this is a sigsuspend() with a timeout */
		if (ppoll(&p, master >= 0 ? 1 : 0, &ts, &orig_mask) <= 0 || !p.revents)
			continue;
		n = read(master, buf, sizeof(buf));
		if (n <= 0) {
			/* EIO: every holder of the slave closed it */
			close(master);
			master = -1;
			continue;
		}
		for (i = 0; i < n && !nr_int; i++) {
			if (buf[i] != '\n')
				continue;
			if (!ready_seen) {
				t_ready = now_us();
				ready_seen = true;
			}
			if (++lines >= int_after) {
				t_last_int = now_us();
				kill(-pid, SIGINT);
				nr_int = 1;
			}
		}
		if (write(out_fd, buf, n) != n) {
			fprintf(stderr, ME ": %s: %s\n", out_path, strerror(errno));
			return 2;
		}
	}
	t_end = now_us();

	printf("total_us=%lld ready_us=%lld sigint=%d status=", t_end - t0,
	       ready_seen ? t_ready - t0 : 0, nr_int);
	if (timed_out)
		printf("timeout\n");
	else if (WIFSIGNALED(status))
		printf("signal=%d\n", WTERMSIG(status));
	else
		printf("exit=%d\n", WEXITSTATUS(status));
	if (timed_out)
		return 1;
	/* 130: a tracer (bpfrr record) reporting its tracee's death by SIGINT */
	if (ready_mode)
		return ready_seen && ((WIFEXITED(status) && (WEXITSTATUS(status) == 0 ||
							     WEXITSTATUS(status) == 128 + SIGINT)) ||
				      (WIFSIGNALED(status) && WTERMSIG(status) == SIGINT)) ? 0 : 1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

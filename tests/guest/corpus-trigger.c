// SPDX-License-Identifier: GPL-2.0-only
/*
 * corpus-trigger MODE ...: the triggers of bench/guest/corpus.sh that no
 * busybox command makes (guest only: it allocates most of the guest's memory,
 * and perf_event_open's a software event).
 *
 *   corpus-trigger readline [LINE...]
 *       runs `bash --norc --noprofile -i` on a pseudo-terminal it opened
 *       (bash uses readline only on a terminal; busybox has no script(1)),
 *       types each LINE and `exit`, and reads bash's output from the master
 *       side non-blocking (n_tty_read's mutex_trylock) until bash exits.
 *       bashreadline's uprobe on readline() runs once per line.
 *   corpus-trigger reclaim DEV
 *       direct reclaim (drsnoop): reads DEV (a large sparse loop device:
 *       its page cache is clean and reclaimable, its tmpfs backing costs
 *       nothing; DEV is kept open, as its last close drops that cache)
 *       until about 48 MB are free, then, as SCHED_FIFO so that
 *       kswapd cannot free pages ahead of it on a one-CPU guest, touches
 *       anonymous memory 16 MB at a time until 32 MB of page cache were
 *       reclaimed: with free pages below the watermarks, the page allocator
 *       reclaims on this task's behalf. Prints the sizes (the guest
 *       kernels have no vm event counters to count direct reclaims).
 *   corpus-trigger locks FILE
 *       the lock kinds klockstat times that the other triggers do not take:
 *       perf_event_open on this task (down_read_interruptible of the
 *       task's exec_update_lock), an O_DIRECT write with RWF_NOWAIT that
 *       extends FILE (ext4 takes the inode's i_rwsem with
 *       down_write_trylock), a non-blocking read of a pty master
 *       (mutex_trylock). FILE is removed.
 *   corpus-trigger oom MB
 *       oomkill: raises its own oom_score_adj to 1000 and touches MB MB of
 *       anonymous memory; run in a memory cgroup whose memory.max is below
 *       MB, the kernel's OOM killer (oom_kill_process) kills it. Exits 0 if
 *       it was not killed (the memory was there).
 *   corpus-trigger tcploss CA OBJ
 *       a TCP loss and its undo for the congestion control CA (fx_ca's
 *       ssthresh and undo_cwnd; lo loses nothing and the guests have no
 *       netem). In a network namespace of its own (lo up, tcp_early_retrans
 *       0: no tail loss probes, see do_tcploss), attaches OBJ
 *       (fixtures/fx_lossy.bpf.o: drops the pure ACKs of the connection to
 *       port 7690 until the sender sends its first segment again) to lo's
 *       egress with tc, connects to itself on 127.0.0.1:7690 with CA on both
 *       sockets (TCP_CONGESTION), sends two segments and waits until they are
 *       acked (at most 8 s; the retransmission timer fires after about
 *       200 ms, its retransmission's DSACK passes and the sender finds the
 *       timeout spurious). The qdisc goes, and the namespace with it. Prints
 *       how long that took and the namespace's TcpExt counts
 *       (/proc/net/netstat: timeouts, loss probes, loss undos, spurious
 *       RTOs); exits 0 if the data was acked, the timer fired and the loss
 *       was undone. CA's ssthresh runs twice (the sender's timeout; the
 *       receiver's CWR, as the qdisc drops its ACKs), undo_cwnd once.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif

#define MB (1024L * 1024L)

static int usage(void)
{
	fprintf(stderr, "usage: corpus-trigger readline [LINE...] | reclaim DEV | locks FILE | oom MB | tcploss CA OBJ\n");
	return 2;
}

/* meminfo_kb("MemFree"): that /proc/meminfo line's kB, -1 if absent */
static long meminfo_kb(const char *key)
{
	char line[256];
	size_t len = strlen(key);
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) && line[len] == ':') {
			kb = strtol(line + len + 1, NULL, 10);
			break;
		}
	fclose(f);
	return kb;
}

/* touch: map bytes of anonymous memory and write to each page; 0 or -1 */
static int touch(long bytes)
{
	long page = sysconf(_SC_PAGESIZE), off;
	char *p = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("corpus-trigger: mmap");
		return -1;
	}
	for (off = 0; off < bytes; off += page)
		p[off] = 1;
	munmap(p, (size_t)bytes);
	return 0;
}

/* file_kb: the page cache on the LRU lists (what reclaim frees first), in kB */
static long file_kb(void)
{
	return meminfo_kb("Active(file)") + meminfo_kb("Inactive(file)");
}

static int do_reclaim(const char *dev)
{
	static char buf[1 << 20];
	long page = sysconf(_SC_PAGESIZE), free_kb = meminfo_kb("MemFree"), avail_kb, want, done = 0, off;
	long file_before, step = 16 * MB;
	struct sched_param sp = { .sched_priority = 1 };
	ssize_t n;
	char *p;
	int fd = open(dev, O_RDONLY);

	if (fd < 0 || free_kb < 0) {
		perror(dev);
		return 1;
	}
	/* page cache until about 48 MB are free */
	want = free_kb * 1024L - 48 * MB;
	while (done < want && (n = read(fd, buf, sizeof(buf))) > 0)
		done += n;
	/* DEV stays open: the last close of a block device drops its page cache */
	avail_kb = meminfo_kb("MemAvailable");
	file_before = file_kb();
	/* at most what reclaim can give back, less a margin (no OOM) */
	want = avail_kb * 1024L - 64 * MB;
	if (want <= 0) {
		close(fd);
		fprintf(stderr, "corpus-trigger: reclaim: no room (MemAvailable %ld kB)\n", avail_kb);
		return 1;
	}
	p = mmap(NULL, (size_t)want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("corpus-trigger: mmap");
		close(fd);
		return 1;
	}
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		perror("corpus-trigger: SCHED_FIFO");
	/* 16 MB at a time until reclaim took 32 MB of the page cache */
	off = 0;
	while (off < want && file_kb() > file_before - 32 * 1024) {
		long end = off + step < want ? off + step : want;

		for (; off < end; off += page)
			p[off] = 1;
	}
	printf("reclaim: %ld MB cached, %ld MB touched, page cache %ld -> %ld MB\n", done / MB, off / MB,
	       file_before / 1024, file_kb() / 1024);
	munmap(p, (size_t)want);
	close(fd);
	return 0;
}

static int do_locks(const char *path)
{
	struct perf_event_attr attr;
	struct iovec iov;
	void *block;
	int fd, master;
	char c;

	/* perf_event_open on a task takes its exec_update_lock with down_read_interruptible */
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.disabled = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		perror("corpus-trigger: perf_event_open");
	else
		close(fd);

	/* an O_DIRECT RWF_NOWAIT write past the end: ext4 trylocks the inode (down_write_trylock) */
	if (posix_memalign(&block, 4096, 4096))
		return 1;
	memset(block, 'x', 4096);
	iov.iov_base = block;
	iov.iov_len = 4096;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT, 0600);
	if (fd < 0)
		perror(path);
	else {
		if (pwritev2(fd, &iov, 1, 0, RWF_NOWAIT) < 0 && errno != EAGAIN)
			perror("corpus-trigger: pwritev2(RWF_NOWAIT)");
		close(fd);
		unlink(path);
	}
	free(block);

	/* a non-blocking read of a tty: n_tty_read trylocks its read mutex */
	master = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (master < 0)
		perror("corpus-trigger: posix_openpt");
	else {
		if (grantpt(master) || unlockpt(master))
			perror("corpus-trigger: unlockpt");
		if (read(master, &c, 1) < 0 && errno != EAGAIN && errno != EIO)
			perror("corpus-trigger: read of the pty");
		close(master);
	}
	return 0;
}

static int do_readline(int argc, char **argv)
{
	int master, slave, status, i;
	const char *name;
	char buf[4096];
	pid_t pid;
	time_t deadline = time(NULL) + 10;

	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) || unlockpt(master) || !(name = ptsname(master))) {
		perror("corpus-trigger: pty");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("corpus-trigger: fork");
		return 1;
	}
	if (pid == 0) {
		/* bash's controlling terminal: a new session, the slave opened first */
		setsid();
		slave = open(name, O_RDWR);
		if (slave < 0)
			_exit(127);
		ioctl(slave, TIOCSCTTY, 0);
		dup2(slave, 0);
		dup2(slave, 1);
		dup2(slave, 2);
		if (slave > 2)
			close(slave);
		close(master);
		execl("/bin/bash", "bash", "--norc", "--noprofile", "-i", (char *)NULL);
		_exit(127);
	}
	/* typed ahead: the line discipline keeps the lines until readline reads them */
	for (i = 0; i < argc; i++)
		if (write(master, argv[i], strlen(argv[i])) < 0 || write(master, "\n", 1) < 0)
			break;
	if (write(master, "exit\n", 5) < 0)
		perror("corpus-trigger: write to the pty");
	fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
	/* drain bash's output (it would block on a full pty) until it exits or 10 s went by */
	for (;;) {
		struct pollfd pfd = { .fd = master, .events = POLLIN };
		ssize_t n;

		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		if (time(NULL) > deadline) {
			fprintf(stderr, "corpus-trigger: bash did not exit; killed\n");
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			break;
		}
		poll(&pfd, 1, 200);
		while ((n = read(master, buf, sizeof(buf))) > 0)
			;
	}
	close(master);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

static int do_oom(long mb)
{
	FILE *f = fopen("/proc/self/oom_score_adj", "w");

	/* the task the OOM killer picks, not the replay that holds the programs */
	if (!f || fputs("1000\n", f) == EOF || fclose(f)) {
		perror("corpus-trigger: oom_score_adj");
		return 1;
	}
	return touch(mb * MB) ? 1 : 0;
}

/* the port fixtures/fx_lossy.bpf.c drops the ACKs of (FX_LOSSY_PORT there) */
#define LOSSY_PORT 7690

/* run_tc: runs /usr/sbin/tc with ARGS (NULL-terminated, without "tc"); its exit status, -1 */
static int run_tc(const char *const *args)
{
	const char *argv[16] = { "tc" };
	int status, i;
	pid_t pid;

	for (i = 0; i < 14 && args[i]; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execv("/usr/sbin/tc", (char *const *)argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* tcpext: the TcpExt counters of /proc/net/netstat named in NAMES, into VALUES (-1 if absent) */
static void tcpext(const char *const *names, long *values, int n)
{
	static char head[8192], vals[8192];
	FILE *f = fopen("/proc/net/netstat", "r");
	int i;

	for (i = 0; i < n; i++)
		values[i] = -1;
	if (!f)
		return;
	while (fgets(head, sizeof(head), f) && fgets(vals, sizeof(vals), f)) {
		char *hs, *vs, *h, *v;

		if (strncmp(head, "TcpExt:", 7))
			continue;
		h = strtok_r(head + 7, " \n", &hs);
		v = strtok_r(vals + 7, " \n", &vs);
		for (; h && v; h = strtok_r(NULL, " \n", &hs), v = strtok_r(NULL, " \n", &vs))
			for (i = 0; i < n; i++)
				if (!strcmp(h, names[i]))
					values[i] = strtol(v, NULL, 10);
	}
	fclose(f);
}

/* write_all, read_all: LEN bytes, or -1 */
static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int read_all(int fd, char *buf, size_t len)
{
	while (len) {
		ssize_t n = read(fd, buf, len);

		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000L + (t.tv_nsec - t0->tv_nsec) / 1000000L;
}

/*
 * lossy_connection: the connection whose ACKs fx_lossy drops: two segments (each written after
 * the receiver read the one before, so that they are two skbs: a tail loss probe, were there one,
 * would resend the last, the timer resends the first), then waits until nothing is unacked
 * (SIOCOUTQ). 0 if acked.
 */
static int lossy_connection(const char *ca, long *acked_ms, struct tcp_info *info)
{
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons(LOSSY_PORT) };
	struct timeval rcvtimeo = { .tv_sec = 5 };
	struct timespec t0;
	socklen_t len = sizeof(*info);
	char seg[100], got[sizeof(seg)];
	int one = 1, lfd, cfd = -1, sfd = -1, unacked = -1, rc = -1, i;

	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    setsockopt(lfd, IPPROTO_TCP, TCP_CONGESTION, ca, (socklen_t)strlen(ca)) ||
	    bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) || listen(lfd, 1)) {
		perror("corpus-trigger: tcploss: listener");
		goto out;
	}
	cfd = socket(AF_INET, SOCK_STREAM, 0);
	if (cfd < 0 || setsockopt(cfd, IPPROTO_TCP, TCP_CONGESTION, ca, (socklen_t)strlen(ca)) ||
	    setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) ||
	    connect(cfd, (struct sockaddr *)&addr, sizeof(addr))) {
		perror("corpus-trigger: tcploss: connect");
		goto out;
	}
	sfd = accept(lfd, NULL, NULL);
	if (sfd < 0 || setsockopt(sfd, SOL_SOCKET, SO_RCVTIMEO, &rcvtimeo, sizeof(rcvtimeo))) {
		perror("corpus-trigger: tcploss: accept");
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < 2; i++) {
		memset(seg, 'a' + i, sizeof(seg));
		if (write_all(cfd, seg, sizeof(seg)) || read_all(sfd, got, sizeof(got))) {
			perror("corpus-trigger: tcploss: segment");
			goto out;
		}
	}
	while (ms_since(&t0) < 8000) {
		if (ioctl(cfd, SIOCOUTQ, &unacked)) {
			perror("corpus-trigger: tcploss: SIOCOUTQ");
			goto out;
		}
		if (unacked == 0)
			break;
		usleep(5000);
	}
	*acked_ms = ms_since(&t0);
	if (getsockopt(cfd, IPPROTO_TCP, TCP_INFO, info, &len))
		memset(info, 0, sizeof(*info));
	rc = unacked == 0 ? 0 : -1;
	if (rc)
		fprintf(stderr, "corpus-trigger: tcploss: %d bytes still unacked after %ld ms\n", unacked, *acked_ms);
out:
	if (sfd >= 0)
		close(sfd);
	if (cfd >= 0)
		close(cfd);
	if (lfd >= 0)
		close(lfd);
	return rc;
}

/* lo_up: lo of this (new) network namespace up; 0 or -1 */
static int lo_up(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM, 0), rc = -1;

	if (fd < 0)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (!ioctl(fd, SIOCGIFFLAGS, &ifr)) {
		ifr.ifr_flags |= IFF_UP;
		rc = ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	close(fd);
	return rc;
}

/* write_file: VALUE into PATH (a sysctl); 0 or -1 */
static int write_file(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY), rc;

	if (fd < 0)
		return -1;
	rc = write(fd, value, strlen(value)) == (ssize_t)strlen(value) ? 0 : -1;
	close(fd);
	return rc;
}

static int do_tcploss(const char *ca, const char *obj)
{
	static const char *const names[] = { "TCPTimeouts", "TCPLossProbes", "TCPLossUndo", "TCPSpuriousRTOs" };
	enum { N = sizeof(names) / sizeof(names[0]) };
	static const char *const add_qdisc[] = { "qdisc", "add", "dev", "lo", "clsact", NULL };
	static const char *const del_qdisc[] = { "qdisc", "del", "dev", "lo", "clsact", NULL };
	const char *const add_filter[] = { "filter", "add", "dev", "lo", "egress", "bpf", "da", "obj", obj,
					   "sec", "tc", NULL };
	long before[N], after[N], acked_ms = -1;
	struct tcp_info info;
	int rc, i;

	/*
	 * A network namespace of our own: its lo, qdisc and filter are nobody else's and go with
	 * it, and its tcp_early_retrans can be 0: no tail loss probe. A probe is a retransmission
	 * too; the undo after a timeout needs a DSACK for every retransmission still in flight at
	 * the timeout (tcp_init_undo counts a probe's), and the probe's DSACK must be dropped, or it
	 * would ack everything before the timer fires.
	 */
	if (unshare(CLONE_NEWNET) || lo_up() || write_file("/proc/sys/net/ipv4/tcp_early_retrans", "0")) {
		perror("corpus-trigger: tcploss: a network namespace with lo up and no loss probes");
		return 1;
	}
	if (run_tc(add_qdisc) || run_tc(add_filter)) {
		fprintf(stderr, "corpus-trigger: tcploss: tc filter add dev lo egress bpf da obj %s failed\n", obj);
		return 1;
	}
	tcpext(names, before, N);
	rc = lossy_connection(ca, &acked_ms, &info);
	tcpext(names, after, N);
	if (run_tc(del_qdisc))
		fprintf(stderr, "corpus-trigger: tcploss: removing the clsact qdisc failed\n");
	if (rc)
		return 1;
	printf("tcploss: %s: acked after %ld ms, %u retransmitted, cwnd %u ssthresh %u;", ca, acked_ms,
	       info.tcpi_total_retrans, info.tcpi_snd_cwnd, info.tcpi_snd_ssthresh);
	for (i = 0; i < N; i++)
		printf(" %s +%ld", names[i], after[i] - before[i]);
	printf("\n");
	/* the timer fired (the loss: ssthresh) and the loss was undone (undo_cwnd) */
	return after[0] > before[0] && after[2] > before[2] ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "readline"))
		return do_readline(argc - 2, argv + 2);
	if (!strcmp(argv[1], "reclaim") && argc == 3)
		return do_reclaim(argv[2]);
	if (!strcmp(argv[1], "locks") && argc == 3)
		return do_locks(argv[2]);
	if (!strcmp(argv[1], "oom") && argc == 3 && atol(argv[2]) > 0)
		return do_oom(atol(argv[2]));
	if (!strcmp(argv[1], "tcploss") && argc == 4)
		return do_tcploss(argv[2], argv[3]);
	return usage();
}

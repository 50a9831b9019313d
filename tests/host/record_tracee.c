// SPDX-License-Identifier: GPL-2.0-only
/*
 * record_tracee MODE [ARG]: small behaviours for the recorder's host tests.
 * None of them calls bpf(): these run on the build machine.
 *
 *   exit N         exit with status N
 *   kill SIG       kill itself with signal SIG
 *   fds            open /dev/null twice (O_CLOEXEC and not), dup, dup2, dup3,
 *                  fcntl(F_DUPFD_CLOEXEC), close them, close_range the rest
 *   fork           open /dev/null, fork; the child dups and closes it and
 *                  exits 3; the parent closes its copy, exits with the child's status
 *   thread         a thread dups /dev/null and closes it; main joins, exits 0
 *   exec           open /dev/null without and with O_CLOEXEC, then exec
 *                  "record_tracee exec-child", which checks which survived
 *   exec-child     exit 0 if fd 3 is open and fd 4 is not
 *   thread-exec    a second thread execs "record_tracee exit 5"
 *   sysfs          open /sys/devices/system/cpu/possible (a path the
 *                  recorder records by default) and close it
 *   signal         catch SIGUSR1 sent to itself, exit 9 from the handler
 *   stop           fork a child that stops itself (SIGSTOP); the parent
 *                  waits until it is stopped, continues it, exits 0 if the
 *                  child then exits 4
 *   ia32           a system call through the 32-bit ABI (int $0x80, x86_64)
 *   fifo PATH      open the FIFO PATH for reading (blocks until a writer comes)
 *   netlink        a NETLINK_GENERIC socket and a send on it (not followed), then a
 *                  NETLINK_ROUTE socket: RTM_GETLINK of ifindex 1 by sendmsg, its
 *                  header and body in two iovecs; the answer read
 *   netlink-xdp-off  RTM_NEWLINK of ifindex 1 (lo) with IFLA_XDP fd -1, skb mode: `ip
 *                  link set dev lo xdpgeneric off`, by sendto (only in a network
 *                  namespace of its own: tests/host/record-netlink.t runs it under
 *                  unshare -n)
 *   spin           loop forever (to be killed)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

static const char *self;

static int open_null(int flags)
{
	int fd = open("/dev/null", O_RDONLY | flags);

	if (fd < 0) {
		perror("record_tracee: /dev/null");
		exit(100);
	}
	return fd;
}

static int mode_fds(void)
{
	int a = open_null(0), b = open_null(O_CLOEXEC), c, d;

	c = dup(a);
	if (dup2(a, 20) != 20 || dup3(b, 21, O_CLOEXEC) != 21)
		return 101;
	d = fcntl(a, F_DUPFD_CLOEXEC, 30);
	if (c < 0 || d < 30)
		return 102;
	close(c);
	close(d);
	if (syscall(SYS_close_range, 20, 21, 0))
		return 103;
	close(a);
	close(b);
	return 0;
}

static int mode_fork(void)
{
	int fd = open_null(0), status;
	pid_t pid = fork();

	if (pid < 0)
		return 104;
	if (pid == 0) {
		int n = dup(fd);

		close(n);
		close(fd);
		_exit(3);
	}
	close(fd);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 105;
	return WEXITSTATUS(status);
}

static void *thread_dup(void *arg)
{
	int fd = *(int *)arg, n = dup(fd);

	close(n);
	return NULL;
}

static int mode_thread(void)
{
	int fd = open_null(0);
	pthread_t th;

	if (pthread_create(&th, NULL, thread_dup, &fd) || pthread_join(th, NULL))
		return 106;
	close(fd);
	return 0;
}

static int mode_exec(void)
{
	int keep = open_null(0), drop = open_null(O_CLOEXEC);

	if (keep != 3 || drop != 4) {
		fprintf(stderr, "record_tracee: expected fds 3 and 4, got %d and %d\n", keep, drop);
		return 107;
	}
	execl(self, self, "exec-child", (char *)NULL);
	perror("record_tracee: exec");
	return 108;
}

static int mode_exec_child(void)
{
	return fcntl(3, F_GETFD) >= 0 && fcntl(4, F_GETFD) < 0 ? 0 : 109;
}

static void *thread_exec(void *arg)
{
	(void)arg;
	execl(self, self, "exit", "5", (char *)NULL);
	_exit(110);
}

static int mode_thread_exec(void)
{
	pthread_t th;

	if (pthread_create(&th, NULL, thread_exec, NULL))
		return 111;
	for (;;)
		pause();
}

static volatile sig_atomic_t got_usr1;

static void on_usr1(int sig)
{
	(void)sig;
	got_usr1 = 1;
	_exit(9);
}

static int mode_signal(void)
{
	signal(SIGUSR1, on_usr1);
	kill(getpid(), SIGUSR1);
	return 112;
}

static int mode_stop(void)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return 113;
	if (pid == 0) {
		raise(SIGSTOP);
		_exit(4);
	}
	if (waitpid(pid, &status, WUNTRACED) != pid || !WIFSTOPPED(status))
		return 114;
	kill(pid, SIGCONT);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 115;
	return WEXITSTATUS(status) == 4 ? 0 : 116;
}

static int mode_ia32(void)
{
#if defined(__x86_64__)
	long ret;

	/* getpid through the i386 ABI (its number 20) */
	__asm__ volatile("int $0x80" : "=a"(ret) : "a"(20L) : "memory");
	printf("ia32 getpid returned %ld\n", ret);
	return 0;
#else
	return 117;
#endif
}

/* the kernel's answer to a request on sock: 0 when it acknowledged it (or answered), else 1 */
static int netlink_answer(int sock)
{
	char buf[8192];
	ssize_t n = recv(sock, buf, sizeof(buf), 0);

	return n > 0 ? 0 : 1;
}

static int mode_netlink(void)
{
	struct {
		struct nlmsghdr h;
		struct ifinfomsg ifi;
	} req = {
		.h = { .nlmsg_len = sizeof(req), .nlmsg_type = RTM_GETLINK, .nlmsg_flags = NLM_F_REQUEST,
		       .nlmsg_seq = 7 },
		.ifi = { .ifi_family = AF_UNSPEC, .ifi_index = 1 },
	};
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct iovec iov[2] = { { &req.h, sizeof(req.h) }, { &req.ifi, sizeof(req.ifi) } };
	struct msghdr msg = { .msg_name = &kernel, .msg_namelen = sizeof(kernel), .msg_iov = iov, .msg_iovlen = 2 };
	int gen = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC), route;

	/* a send on another netlink family: the recorder follows NETLINK_ROUTE only */
	if (gen >= 0) {
		sendto(gen, &req, sizeof(req), 0, (struct sockaddr *)&kernel, sizeof(kernel));
		close(gen);
	}
	route = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (route < 0 || sendmsg(route, &msg, 0) != (ssize_t)sizeof(req))
		return 121;
	return netlink_answer(route) ? 122 : 0;
}

static int mode_netlink_xdp_off(void)
{
	struct {
		struct nlmsghdr h;
		struct ifinfomsg ifi;
		struct rtattr xdp;
		struct rtattr fd_attr;
		int32_t fd;
		struct rtattr flags_attr;
		uint32_t flags;
	} req = {
		.h = { .nlmsg_len = sizeof(req), .nlmsg_type = RTM_NEWLINK, .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK,
		       .nlmsg_seq = 8 },
		.ifi = { .ifi_family = AF_UNSPEC, .ifi_index = 1 },
		.xdp = { .rta_len = sizeof(struct rtattr) + 2 * (sizeof(struct rtattr) + 4),
			 .rta_type = IFLA_XDP | NLA_F_NESTED },
		.fd_attr = { .rta_len = sizeof(struct rtattr) + 4, .rta_type = IFLA_XDP_FD },
		.fd = -1,
		.flags_attr = { .rta_len = sizeof(struct rtattr) + 4, .rta_type = IFLA_XDP_FLAGS },
		.flags = XDP_FLAGS_SKB_MODE,
	};
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	int route = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (route < 0 || sendto(route, &req, sizeof(req), 0, (struct sockaddr *)&kernel, sizeof(kernel)) !=
			 (ssize_t)sizeof(req))
		return 121;
	return netlink_answer(route) ? 122 : 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	self = argv[0];
	if (!strcmp(mode, "exit") && argc > 2)
		return atoi(argv[2]);
	if (!strcmp(mode, "kill") && argc > 2) {
		kill(getpid(), atoi(argv[2]));
		return 118;
	}
	if (!strcmp(mode, "fds"))
		return mode_fds();
	if (!strcmp(mode, "fork"))
		return mode_fork();
	if (!strcmp(mode, "thread"))
		return mode_thread();
	if (!strcmp(mode, "exec"))
		return mode_exec();
	if (!strcmp(mode, "exec-child"))
		return mode_exec_child();
	if (!strcmp(mode, "thread-exec"))
		return mode_thread_exec();
	if (!strcmp(mode, "sysfs")) {
		int fd = open("/sys/devices/system/cpu/possible", O_RDONLY | O_CLOEXEC);

		if (fd < 0)
			return 119;
		close(fd);
		return 0;
	}
	if (!strcmp(mode, "signal"))
		return mode_signal();
	if (!strcmp(mode, "stop"))
		return mode_stop();
	if (!strcmp(mode, "ia32"))
		return mode_ia32();
	if (!strcmp(mode, "fifo") && argc > 2)
		return open(argv[2], O_RDONLY) < 0 ? 120 : 0;
	if (!strcmp(mode, "netlink"))
		return mode_netlink();
	if (!strcmp(mode, "netlink-xdp-off"))
		return mode_netlink_xdp_off();
	if (!strcmp(mode, "spin"))
		for (;;)
			;
	fprintf(stderr, "usage: record_tracee MODE [ARG] (see the source)\n");
	return 2;
}

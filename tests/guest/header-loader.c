// SPDX-License-Identifier: GPL-2.0-only
/*
 * header-loader.c - a standalone loader built from a header that `bpfrr
 * translate --format header --name loader` wrote (-DHEADER='"file.h"'):
 * no bpfrr, no libbpf at run time.  The guest test translate-header.t runs
 * one per committed trace.
 *
 *   header-loader [--hold READY_FILE]
 *
 * Loads, then compares every object with the identity the recording saw
 * (the header's loader__slots[].ident: program type, tag and name, map
 * type, sizes, flags and name, BTF size, link type and program) in a table
 * of the layout of `bpfrr replay --verify`, ending with
 * "verify: N checks, M mismatches".  With --hold it then creates
 * READY_FILE and holds the objects until SIGINT or SIGTERM.  With
 * BPFRR_BENCH_LOAD_US in the environment, the time the load (and attach)
 * took goes to stderr as "load_us=T", as fixtures/fx_onemap_lskel prints its
 * own (bench/replay compares the two).
 * Exit status: 0 all equal, 1 the load failed ("load failed: ..."),
 * 2 a mismatch, 3 bad usage.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include HEADER

static struct {
	uint32_t checks, mismatches;
} table;

static void row(uint32_t slot, const char *obj, const char *field, const char *want, const char *got, int ok)
{
	table.checks++;
	table.mismatches += !ok;
	printf("  %4u  %-24.24s %-14s %-20s %-20s %s\n", slot, obj, field, want, got, ok ? "ok" : "MISMATCH");
}

static void row_u(uint32_t slot, const char *obj, const char *field, uint64_t want, uint64_t got)
{
	char a[32], b[32];

	snprintf(a, sizeof(a), "%llu", (unsigned long long)want);
	snprintf(b, sizeof(b), "%llu", (unsigned long long)got);
	row(slot, obj, field, a, b, want == got);
}

static int get_info(int fd, void *info, uint32_t len)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	memset(info, 0, len);
	attr.info.bpf_fd = fd;
	attr.info.info_len = len;
	attr.info.info = (uintptr_t)info;
	return bpfrr_rt_sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr));
}

static int slot_fd(struct loader *obj, uint32_t i)
{
	int fd;

	memcpy(&fd, (char *)obj + loader__fd_offsets[i], sizeof(fd));
	return fd;
}

static void hex8(const uint8_t *tag, char *buf)
{
	int i;

	for (i = 0; i < 8; i++)
		sprintf(buf + 2 * i, "%02x", tag[i]);
}

static void verify_slot(struct loader *obj, uint32_t i)
{
	const struct bpfrr_rt_slot *s = &loader__slots[i];
	const struct bpfrr_rt_ident *id = &s->ident;
	int fd = slot_fd(obj, i), ret = 0;
	char a[64], b[64];

	if (fd < 0) {
		row(i, s->name, "fd", "an fd", "none", 0);
		return;
	}
	if (!strcmp(s->kind, "prog")) {
		struct bpf_prog_info info;

		ret = get_info(fd, &info, sizeof(info));
		if (ret)
			goto no_info;
		if (id->have & BPFRR_RT_ID_TYPE)
			row_u(i, s->name, "type", id->type, info.type);
		if (id->have & BPFRR_RT_ID_TAG) {
			hex8(id->tag, a);
			hex8(info.tag, b);
			row(i, s->name, "tag", a, b, !memcmp(id->tag, info.tag, 8));
		}
		if (id->have & BPFRR_RT_ID_NAME)
			row(i, s->name, "name", id->name, info.name, !strncmp(id->name, info.name, 16));
		snprintf(b, sizeof(b), "%u", info.id);
		row(i, s->name, "id", "-", b, 1);
	} else if (!strcmp(s->kind, "map")) {
		struct bpf_map_info info;

		ret = get_info(fd, &info, sizeof(info));
		if (ret)
			goto no_info;
		if (id->have & BPFRR_RT_ID_TYPE)
			row_u(i, s->name, "type", id->type, info.type);
		if (id->have & BPFRR_RT_ID_KEY_SIZE)
			row_u(i, s->name, "key_size", id->key_size, info.key_size);
		if (id->have & BPFRR_RT_ID_VALUE_SIZE)
			row_u(i, s->name, "value_size", id->value_size, info.value_size);
		if (id->have & BPFRR_RT_ID_MAX_ENTRIES)
			row_u(i, s->name, "max_entries", id->max_entries, info.max_entries);
		if (id->have & BPFRR_RT_ID_MAP_FLAGS)
			row_u(i, s->name, "map_flags", id->map_flags, info.map_flags);
		if (id->have & BPFRR_RT_ID_NAME)
			row(i, s->name, "name", id->name, info.name, !strncmp(id->name, info.name, 16));
	} else if (!strcmp(s->kind, "btf")) {
		struct bpf_btf_info info;

		ret = get_info(fd, &info, sizeof(info));
		if (ret)
			goto no_info;
		if (id->have & BPFRR_RT_ID_BTF_SIZE)
			row_u(i, s->name, "btf_size", id->btf_size, info.btf_size);
	} else if (!strcmp(s->kind, "link")) {
		struct bpf_link_info info;

		ret = get_info(fd, &info, sizeof(info));
		if (ret)
			goto no_info;
		if (id->have & BPFRR_RT_ID_TYPE)
			row_u(i, s->name, "type", id->type, info.type);
		if (id->have & BPFRR_RT_ID_LINK_PROG && id->link_prog_slot < loader__NR_SLOTS) {
			struct bpf_prog_info pinfo;
			uint32_t want = 0;

			if (!get_info(slot_fd(obj, id->link_prog_slot), &pinfo, sizeof(pinfo)))
				want = pinfo.id;
			/* "prog slot N: id M" - "id M": the layout translate-held.sh reads */
			snprintf(a, sizeof(a), "slot %u: id %u", id->link_prog_slot, want);
			snprintf(b, sizeof(b), "id %u", info.prog_id);
			row(i, s->name, "prog", a, b, want && want == info.prog_id);
		}
	} else {
		snprintf(b, sizeof(b), "fd %d", fd);
		row(i, s->name, "fd", "an fd", b, 1);
	}
	return;
no_info:
	snprintf(b, sizeof(b), "%s", strerror(-ret));
	row(i, s->name, "info", "BPF_OBJ_GET_INFO_BY_FD", b, 0);
}

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	static char log[1 << 20];
	const char *ready = NULL;
	struct loader obj;
	struct timespec t0, t1;
	struct sigaction sa;
	sigset_t mask, old;
	uint32_t i;
	int ret;

	if (argc == 3 && !strcmp(argv[1], "--hold")) {
		ready = argv[2];
	} else if (argc != 1) {
		fprintf(stderr, "usage: %s [--hold READY_FILE]\n", argv[0]);
		return 3;
	}
	/* the signals are blocked until we wait for them */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigprocmask(SIG_BLOCK, &mask, &old);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = loader__load_log(&obj, log, sizeof(log));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (ret) {
		printf("load failed: %s (%d) at recorded seq %lld\n", strerror(-ret), ret, obj.failed_seq);
		if (log[0])
			printf("log:\n%s\n", log);
		for (i = 0; i < loader__NR_SLOTS; i++)
			if (slot_fd(&obj, i) != -1)
				printf("slot %u holds fd %d after the failure\n", i, slot_fd(&obj, i));
		return 1;
	}
	if (getenv("BPFRR_BENCH_LOAD_US"))
		fprintf(stderr, "load_us=%lld\n",
			(t1.tv_sec - t0.tv_sec) * 1000000LL + (t1.tv_nsec - t0.tv_nsec) / 1000);
	printf("loaded: %u objects, %u steps\n", loader__NR_SLOTS, loader__image.nr_steps);
	for (i = 0; i < loader__NR_SLOTS; i++)
		verify_slot(&obj, i);
	printf("verify: %u checks, %u mismatches\n", table.checks, table.mismatches);
	fflush(stdout);
	if (ready) {
		FILE *f = fopen(ready, "w");

		if (!f) {
			perror(ready);
			loader__destroy(&obj);
			return 3;
		}
		fclose(f);
		while (!stop)
			sigsuspend(&old);
	}
	loader__destroy(&obj);
	return table.mismatches ? 2 : 0;
}

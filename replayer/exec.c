// SPDX-License-Identifier: GPL-2.0-only
/*
 * exec.c - user-space steps of a replay (see exec.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "exec.h"

int bpfrr_sys_bpf(int cmd, void *attr, unsigned int size)
{
	long ret = syscall(__NR_bpf, cmd, attr, size);

	return ret < 0 ? -errno : (int)ret;
}

/* A copy of a log the kernel wrote (NUL-terminated within len, or cut). */
static char *copy_log(const uint8_t *p, uint32_t len)
{
	size_t n = strnlen((const char *)p, len);
	char *s = malloc(n + 1);

	if (s) {
		memcpy(s, p, n);
		s[n] = '\0';
	}
	return s;
}

int64_t bpfrr_exec_user(const struct bpfrr_ir_call *c, int *fds, char **log)
{
	uint8_t *attr, **mem;
	int64_t args[4], ret;
	uint32_t i;

	if (log)
		*log = NULL;
	/* 8 bytes of slack: an attr shorter than a field it has never reads it */
	attr = calloc(1, c->attr_size + 8);
	mem = calloc(c->nr_bufs + 1, sizeof(*mem));
	if (!attr || !mem) {
		ret = -ENOMEM;
		goto out;
	}
	if (c->attr_size)
		memcpy(attr, c->attr, c->attr_size);
	memcpy(args, c->args, sizeof(args));
	for (i = 0; i < c->nr_bufs; i++) {
		const struct bpfrr_ir_buf *b = &c->bufs[i];
		uint8_t *parent = b->parent < 0 ? attr : mem[b->parent];
		uint64_t addr;

		mem[i] = calloc(1, b->len + 1);
		if (!mem[i]) {
			ret = -ENOMEM;
			goto out;
		}
		if (b->data)
			memcpy(mem[i], b->data, b->len);
		addr = (uintptr_t)mem[i];
		memcpy(parent + b->ptr_offset, &addr, 8);
	}
	for (i = 0; i < c->nr_fdrels; i++) {
		const struct bpfrr_ir_fdrel *r = &c->fdrels[i];
		int32_t fd = fds[r->slot];

		if (r->buf == BPFRR_IR_IN_ARG)
			args[r->offset] = fd;
		else
			memcpy((r->buf < 0 ? attr : mem[r->buf]) + r->offset, &fd, 4);
	}

	switch (c->op) {
	case BPFRR_IR_BPF:
		ret = syscall(__NR_bpf, c->cmd, attr, c->attr_size);
		break;
	case BPFRR_IR_PERF_EVENT_OPEN:
		ret = syscall(__NR_perf_event_open, attr, (int)args[0], (int)args[1], (int)args[2],
			      (unsigned long)args[3]);
		break;
	case BPFRR_IR_IOCTL:
		ret = ioctl((int)args[0], (unsigned long)c->cmd, (unsigned long)args[1]);
		break;
	default:
		errno = EINVAL;
		ret = -1;
	}
	if (ret < 0) {
		ret = -errno;
		for (i = 0; log && i < c->nr_bufs; i++)
			if (c->bufs[i].flags & BPFRR_IR_BUF_LOG && !*log && mem[i][0])
				*log = copy_log(mem[i], c->bufs[i].len);
		goto out;
	}
	if (c->result_slot >= 0)
		fds[c->result_slot] = (int)ret;
out:
	for (i = 0; mem && i < c->nr_bufs; i++)
		free(mem[i]);
	free(mem);
	free(attr);
	return ret;
}

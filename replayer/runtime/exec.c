// SPDX-License-Identifier: GPL-2.0-only
/*
 * exec.c - user-space steps of a replay (see exec.h): the IR call handed to
 * the runtime the headers of `bpfrr translate --format header` carry
 * (header_runtime.h), so a replay and a standalone loader make user-space
 * calls with the same code.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "header_runtime.h"

_Static_assert(BPFRR_RT_OP_BPF == BPFRR_IR_BPF && BPFRR_RT_OP_PERF_EVENT_OPEN == BPFRR_IR_PERF_EVENT_OPEN &&
	       BPFRR_RT_OP_IOCTL == BPFRR_IR_IOCTL && BPFRR_RT_OP_NETLINK == BPFRR_IR_NETLINK, "ops");
_Static_assert(BPFRR_RT_IN_ATTR == BPFRR_IR_IN_ATTR && BPFRR_RT_IN_ARG == BPFRR_IR_IN_ARG, "fd places");
_Static_assert(BPFRR_RT_BUF_LOG == BPFRR_IR_BUF_LOG, "buffer flags");
_Static_assert(BPFRR_RT_PROG_TEST_RUN == BPF_PROG_TEST_RUN, "the command whose products carry a retval");

int bpfrr_sys_bpf(int cmd, void *attr, unsigned int size)
{
	return bpfrr_rt_sys_bpf(cmd, attr, size);
}

int bpfrr_obj_info(int fd, void *info, uint32_t len)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)fd;
	attr.info.info_len = len;
	attr.info.info = (uintptr_t)info;
	return bpfrr_sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr));
}

int64_t bpfrr_exec_user(const struct bpfrr_ir_call *c, int *fds, char **log)
{
	struct bpfrr_rt_call rc = {
		.seq = c->seq, .op = c->op, .cmd = c->cmd, .result_slot = c->result_slot,
		.attr_size = c->attr_size, .attr = c->attr, .nr_bufs = c->nr_bufs, .nr_fdrels = c->nr_fdrels,
	};
	struct bpfrr_rt_buf *bufs = calloc(c->nr_bufs + 1, sizeof(*bufs));
	struct bpfrr_rt_fdrel *fdrels = calloc(c->nr_fdrels + 1, sizeof(*fdrels));
	struct bpfrr_rt_outfd *outfds = calloc(c->nr_outfds + 1, sizeof(*outfds));
	int64_t ret;
	uint32_t i;

	if (log)
		*log = NULL;
	if (!bufs || !fdrels || !outfds) {
		ret = -ENOMEM;
		goto out;
	}
	/* the replayer has applied the IR's resolutions to the attr already */
	memcpy(rc.args, c->args, sizeof(rc.args));
	for (i = 0; i < c->nr_bufs; i++) {
		bufs[i].parent = c->bufs[i].parent;
		bufs[i].ptr_offset = c->bufs[i].ptr_offset;
		bufs[i].len = c->bufs[i].len;
		bufs[i].flags = c->bufs[i].flags;
		bufs[i].data = c->bufs[i].data;
	}
	for (i = 0; i < c->nr_fdrels; i++) {
		fdrels[i].buf = c->fdrels[i].buf;
		fdrels[i].offset = c->fdrels[i].offset;
		fdrels[i].slot = c->fdrels[i].slot;
	}
	for (i = 0; i < c->nr_outfds; i++) {
		outfds[i].buf = c->outfds[i].buf;
		outfds[i].offset = c->outfds[i].offset;
		outfds[i].slot = c->outfds[i].slot;
	}
	rc.bufs = bufs;
	rc.fdrels = fdrels;
	rc.outfds = outfds;
	rc.nr_outfds = c->nr_outfds;
	ret = bpfrr_rt_exec_call(&rc, fds, log);
out:
	free(bufs);
	free(fdrels);
	free(outfds);
	return ret;
}

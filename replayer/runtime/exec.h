/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * exec.h - making one IR call from user space (a replay's user-space step).
 *
 * The attr and buffers are rebuilt in the replayer's memory with its own
 * addresses in the pointer fields and the current fds of the slots in the
 * fd fields, and the syscall is made as recorded: bpf(cmd, attr,
 * attr_size), perf_event_open(attr, pid, cpu, group_fd, flags) or
 * ioctl(fd, request, arg).
 */
#ifndef BPFRR_EXEC_H
#define BPFRR_EXEC_H

#include <stdint.h>

#include "ir.h"

/*
 * fds[slot] holds the current fd of every slot (-1 if none).  On success
 * returns the call's result (>= 0; a new fd is stored in fds[result_slot]);
 * on failure -errno.  If the call has a log buffer and fails, *log receives
 * a malloc'd copy of what the kernel wrote there (log may be NULL).
 */
int64_t bpfrr_exec_user(const struct bpfrr_ir_call *c, int *fds, char **log);

/* bpf(2) for the replayer's own calls (blob map, loader, info queries). */
int bpfrr_sys_bpf(int cmd, void *attr, unsigned int size);

/* BPF_OBJ_GET_INFO_BY_FD of fd into info (len bytes), as bpfrr_sys_bpf returns it. */
int bpfrr_obj_info(int fd, void *info, uint32_t len);

#endif /* BPFRR_EXEC_H */

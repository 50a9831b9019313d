/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * probe.h - filling caps (caps.h) by asking the running kernel: part of the
 * replay runtime, as it issues bpf().  The translator only assumes caps.
 */
#ifndef BPFRR_PROBE_H
#define BPFRR_PROBE_H

#include <stddef.h>

#include "caps.h"

/*
 * What the running kernel's syscall programs can do (probe.c): the
 * kernel's own list (BPFRR_CAPS_SYSFS) if it has one, else a probe
 * program for the commands; then a probe program for the pointers that may
 * be user pointers (log_buf, btf_log_buf, raw_tracepoint.name) and that
 * the list does not name; with BPFRR_CAPS_PROBE_PERF the perf event kfunc
 * in the kernel's BTF.  Never call this outside a BPF-capable guest.
 * 0, or -errno with a message in err.
 */
int bpfrr_caps_probe(struct bpfrr_caps *caps, unsigned int flags, char *err, size_t err_size);

/*
 * Flags of bpfrr_caps_probe: also look the perf event kfunc up (a scan of
 * the kernel's whole BTF, tens of ms under emulation: only worth it when
 * there are perf events to open).
 */
#define BPFRR_CAPS_PROBE_PERF	0x1

#endif /* BPFRR_PROBE_H */

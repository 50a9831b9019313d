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
 * What the running kernel's syscall programs can do (probe.c), in the
 * cheapest way the kernel allows (issue 15: a probe within 2 ms):
 *  - a kernel with the series' list (BPFRR_CAPS_SYSFS) says everything in
 *    it: the commands, the pointers it reads from the program's memory, and
 *    by the list's contract every other pointer is a user address; with
 *    BPFRR_CAPS_PROBE_PERF the perf event kfunc's BTF id comes from its
 *    list of kfuncs (BPFRR_RT_KFUNCS_LIST), or, on a patched kernel older
 *    than that list, from a scan of its BTF.  No program is loaded.
 *  - any other kernel: this boot's cache of an earlier probe, if there is a
 *    trustworthy one (bpfrr_caps_cache_path()), else two probe programs (the
 *    commands; the pointers that may be user pointers: log_buf,
 *    btf_log_buf, raw_tracepoint.name), whose answer is then cached.
 * caps->origin, ->probe_ns, ->cache and ->cache_note say which and how long.
 * Never call this outside a BPF-capable guest.  0, or -errno with a message
 * in err.
 */
int bpfrr_caps_probe(struct bpfrr_caps *caps, unsigned int flags, char *err, size_t err_size);

/*
 * The files the probe reads and writes, and its probe programs: the
 * running kernel's (bpfrr_caps_probe()) or a unit test's (fake files, a
 * fake probe: no bpf()).
 */
struct bpfrr_probe_env {
	const char *cmds_list;		/* BPFRR_CAPS_SYSFS */
	const char *kfuncs_list;	/* BPFRR_RT_KFUNCS_LIST */
	const char *vmlinux_btf;	/* BPFRR_RT_VMLINUX_BTF: the scan without a kfunc list */
	const char *boot_id;		/* BPFRR_BOOT_ID */
	const char *notes;		/* BPFRR_KERNEL_NOTES: the kernel's build id */
	const char *cache;		/* the cache file; NULL: no cache */
	/* the probe programs: commands and pointers into caps (NULL: the real ones) */
	int (*run_probes)(struct bpfrr_caps *caps, char *err, size_t err_size);
};

#define BPFRR_BOOT_ID		"/proc/sys/kernel/random/boot_id"
#define BPFRR_KERNEL_NOTES	"/sys/kernel/notes"

int bpfrr_caps_probe_env(struct bpfrr_caps *caps, unsigned int flags, const struct bpfrr_probe_env *env,
			 char *err, size_t err_size);

/*
 * Where this process keeps its per-boot cache: /run/bpfrr/caps as root,
 * else $XDG_RUNTIME_DIR/bpfrr/caps; NULL when neither applies.  The file
 * is trusted only if it and its directory are owned by root or by this
 * user and writable by no one else; it is keyed by the boot id, the
 * kernel's build id and bpfrr's version, so a stale or foreign cache is
 * ignored (and replaced), never believed.
 */
const char *bpfrr_caps_cache_path(char *buf, size_t size);

/*
 * Flags of bpfrr_caps_probe: also look the perf event kfunc up (a scan of
 * the kernel's whole BTF, tens of ms under emulation: only worth it when
 * there are perf events to open).
 */
#define BPFRR_CAPS_PROBE_PERF	0x1

#endif /* BPFRR_PROBE_H */

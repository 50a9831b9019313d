/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * header_runtime.h - the runtime of the headers `bpfrr translate --format
 * header` writes (out_header.c copies this file into each of them), and the
 * replayer's own code for making a recorded call from user space and for
 * loading and running a loader program (exec.c, run.c and replay.c use it).
 *
 * It needs nothing but libc and the UAPI headers: plain syscall(2), no
 * libbpf, no bpfrr.  Compile with _GNU_SOURCE or _DEFAULT_SOURCE (gnu11)
 * for syscall().  Everything is static inline, so a program may include
 * several generated headers (the guard keeps one copy).
 *
 * A generated header describes a replay as data:
 *  - slots: the objects of the replay, each an fd at run time (-1 until
 *    made); a slot with a path is opened by the runtime (a cgroup
 *    directory);
 *  - steps, in the order the translator planned them, each either
 *     a loader run: a BPF_PROG_TYPE_SYSCALL program (instructions), its
 *       blob (the attrs and the buffers the kernel reads through bpfptr_t,
 *       stored as the one value of a 1-entry array map that the program
 *       reaches as fd_array[0]), its user image (buffers the kernel reads
 *       at user addresses; pointers inside it rebased to where it is
 *       copied), and its context: struct bpfrr_rt_ctx then one s32 fd per
 *       slot, copied in and back out by BPF_PROG_RUN (codegen.h);
 *     or a user-space call: bpf(), perf_event_open() or ioctl() with the
 *       attr and buffers rebuilt in this process's memory and the slots'
 *       fds patched in (exec.h);
 *  - resolutions: numbers of the running kernel looked up by name before a
 *    step runs (a tracepoint id in tracefs, a PMU type in sysfs, a BTF type
 *    id in /sys/kernel/btf/vmlinux, a symbol's address in /proc/kallsyms),
 *    written into the attr or a buffer (user calls), the blob or the user
 *    image (loaders);
 *  - kfunc calls: instructions calling the patched kernel's
 *    bpf_perf_event_open(), whose BTF id is the kernel's own: read from the
 *    kernel's list of kfuncs (/sys/kernel/bpf/syscall_prog_kfuncs), or on a
 *    patched kernel older than that list found by name in
 *    /sys/kernel/btf/vmlinux, and written into their imm.
 * bpfrr_rt_load() runs the steps; on any failure it closes every fd made so
 * far (a loader closes its own) and reports the recorded seq of the
 * failing call.
 */
#ifndef BPFRR_HEADER_RUNTIME_H
#define BPFRR_HEADER_RUNTIME_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/netlink.h>

/* What a call is (the values of ir.h's enum bpfrr_ir_op). */
#define BPFRR_RT_OP_BPF			1	/* bpf(cmd, attr, attr_size) */
#define BPFRR_RT_OP_PERF_EVENT_OPEN	2	/* perf_event_open(attr, args[0..3]) */
#define BPFRR_RT_OP_IOCTL		3	/* ioctl(args[0], cmd, args[1]) */
#define BPFRR_RT_OP_NETLINK		4	/* the rtnetlink request attr, sent and acknowledged */
#define BPFRR_RT_PROG_TEST_RUN		10	/* BPF_PROG_TEST_RUN: a run's products, its retval */

/* Where an fd to patch lives (ir.h's BPFRR_IR_IN_*). */
#define BPFRR_RT_IN_ATTR		(-1)
#define BPFRR_RT_IN_ARG			(-2)	/* a syscall argument: offset = its index */

/* What a resolution looks up (ir.h's enum bpfrr_ir_resolve_kind). */
#define BPFRR_RT_RESOLVE_PMU_TYPE	1	/* /sys/bus/event_source/devices/NAME/type */
#define BPFRR_RT_RESOLVE_TP_ID		2	/* tracefs events/NAME/id */
#define BPFRR_RT_RESOLVE_BTF_ID		3	/* vmlinux BTF id of (NAME, btf_kind) */
#define BPFRR_RT_RESOLVE_KSYM_ADDR	4	/* /proc/kallsyms address of NAME [module], + addend */
#define BPFRR_RT_RESOLVE_IFINDEX	5	/* the index of network device NAME */

/* Where a resolution's value goes besides the attr/blob (BPFRR_RT_IN_ATTR) or a buffer of a call */
#define BPFRR_RT_IN_USER		(-3)	/* a loader's user image */

/* Buffer flags (ir.h's BPFRR_IR_BUF_*) */
#define BPFRR_RT_BUF_LOG		0x1	/* a log the kernel writes: copied out on failure */

#define BPFRR_RT_VMLINUX_BTF		"/sys/kernel/btf/vmlinux"
#define BPFRR_RT_KALLSYMS		"/proc/kallsyms"
#define BPFRR_RT_PERF_KFUNC		"bpf_perf_event_open"
/* The series' list of the kfuncs its syscall programs may call: "<btf_id> <name>\n" per kfunc */
#define BPFRR_RT_KFUNCS_LIST		"/sys/kernel/bpf/syscall_prog_kfuncs"

struct bpfrr_rt_resolve {
	uint64_t seq;		/* the recorded call it belongs to (for errors) */
	uint32_t kind;		/* BPFRR_RT_RESOLVE_* */
	uint32_t offset;	/* in the attr or buffer (user call), the blob or user image (loader) */
	uint32_t size;		/* 4 or 8 */
	const char *name;	/* "syscalls/sys_enter_openat", "kprobe", "vfs_read" */
	int32_t buf;		/* BPFRR_RT_IN_ATTR (attr, blob), a buffer index (user call), BPFRR_RT_IN_USER */
	uint32_t btf_kind;	/* BTF_ID: BTF_KIND_* */
	int64_t addend;		/* KSYM_ADDR: added to the address */
	const char *module;	/* KSYM_ADDR: "" vmlinux, or the module */
};

struct bpfrr_rt_buf {
	int32_t parent;		/* BPFRR_RT_IN_ATTR, or an earlier buffer of the call */
	uint32_t ptr_offset;	/* of the u64 pointer in the parent */
	uint32_t len;
	uint32_t flags;		/* BPFRR_RT_BUF_* */
	const uint8_t *data;	/* len bytes; NULL: zero-filled (output) */
};

struct bpfrr_rt_fdrel {
	int32_t buf;		/* BPFRR_RT_IN_ATTR, BPFRR_RT_IN_ARG or a buffer index */
	uint32_t offset;	/* of the 4-byte fd; IN_ARG: the argument's index */
	uint32_t slot;
};

/* A product: the fd the call wrote at (buf, offset) is slot's (a syscall program's run). */
struct bpfrr_rt_outfd {
	int32_t buf;
	uint32_t offset;
	uint32_t slot;
};

struct bpfrr_rt_call {
	uint64_t seq;		/* the recorded call's seq */
	uint32_t op;		/* BPFRR_RT_OP_* */
	uint32_t cmd;		/* bpf command or ioctl request */
	int32_t result_slot;	/* the slot of the fd it returns, or -1 */
	int64_t args[4];
	uint32_t attr_size;
	const uint8_t *attr;
	uint32_t nr_bufs, nr_fdrels, nr_resolves;
	const struct bpfrr_rt_buf *bufs;
	const struct bpfrr_rt_fdrel *fdrels;
	const struct bpfrr_rt_resolve *resolves;	/* offsets in the attr */
	uint32_t nr_outfds;
	const struct bpfrr_rt_outfd *outfds;
};

/* The loader's context (codegen.h struct bpfrr_loader_ctx); slots follow. */
struct bpfrr_rt_ctx {
	int32_t err;		/* out: 0, or -errno of the failing call */
	uint32_t failed_seq;	/* out: recorded seq (low 32 bits) of the failing call */
	uint64_t user_base;	/* in: address of the copy of the user image */
};
#define BPFRR_RT_CTX_SLOTS		16u

struct bpfrr_rt_loader {
	const struct bpf_insn *insns;
	uint32_t nr_insns;
	const uint8_t *blob;
	uint32_t blob_size;
	const uint8_t *user;		/* NULL if user_size is 0 */
	uint32_t user_size;
	const uint32_t *user_relocs;	/* u64s in the user image holding an offset into it */
	uint32_t nr_user_relocs;
	const uint32_t *kfunc_calls;	/* insns calling BPFRR_RT_PERF_KFUNC */
	uint32_t nr_kfunc_calls;
	const struct bpfrr_rt_resolve *resolves;	/* offsets in the blob */
	uint32_t nr_resolves;
	const uint32_t *created;	/* slots the loader makes */
	uint32_t nr_created;
	uint32_t ctx_size;		/* BPFRR_RT_CTX_SLOTS + 4 * nr_slots */
	uint64_t first_seq;		/* its first call (errors before any call ran) */
	/* a signed loader (docs/signing.md): loaded as it is, with its signature */
	const uint8_t *signature;	/* PKCS#7 over insns || blob, or NULL: unsigned */
	uint32_t signature_size;
	const uint8_t *excl_prog_hash;	/* SHA-256 of insns: the blob map is exclusive to it */
};

/* One step: exactly one of loader and call is set. */
struct bpfrr_rt_step {
	const struct bpfrr_rt_loader *loader;
	const struct bpfrr_rt_call *call;
};

/*
 * The identity the recording saw (ir.h's struct bpfrr_ir_ident): not used
 * to load, there for checks (`bpfrr replay --verify` compares the same).
 * Only the fields named in have (BPFRR_RT_ID_*) were recorded.
 */
#define BPFRR_RT_ID_TYPE		0x0001	/* prog, map or link type */
#define BPFRR_RT_ID_TAG			0x0002
#define BPFRR_RT_ID_NAME		0x0004
#define BPFRR_RT_ID_KEY_SIZE		0x0008
#define BPFRR_RT_ID_VALUE_SIZE		0x0010
#define BPFRR_RT_ID_MAX_ENTRIES		0x0020
#define BPFRR_RT_ID_MAP_FLAGS		0x0040
#define BPFRR_RT_ID_BTF_SIZE		0x0080
#define BPFRR_RT_ID_ATTACH_TYPE		0x0100
#define BPFRR_RT_ID_TARGET_BTF_ID	0x0200
#define BPFRR_RT_ID_LINK_PROG		0x0400

struct bpfrr_rt_ident {
	uint32_t have;		/* BPFRR_RT_ID_* */
	uint32_t type;
	uint8_t tag[8];
	char name[16];
	uint32_t key_size, value_size, max_entries, map_flags;
	uint32_t btf_size;
	uint32_t attach_type;
	uint32_t target_btf_id;
	uint32_t link_prog_slot;
};

struct bpfrr_rt_slot {
	const char *name;	/* "map.counts" */
	const char *kind;	/* "map", "prog", "btf", "link", "perf_event", ... */
	const char *path;	/* opened by the runtime, or NULL (made by a call) */
	uint32_t open_flags;
	int keep;		/* alive when the recorded loader finished */
	struct bpfrr_rt_ident ident;
};

/*
 * The kernel a header was generated for.  Which commands a loader may
 * issue, and whether each pointer in their attrs must be a kernel address
 * (in the blob) or a user address, depend on it; guessing wrong could make
 * the kernel read a user address as kernel memory.  So before anything
 * runs the runtime checks the kernel against what the loaders need:
 *  - a kernel without BPFRR_RT_CMDS_LIST is taken to be stock 6.12, which
 *    only a header generated for stock 6.12 (or with no loader) suits;
 *  - a kernel with the list (kernel/series: "NUMBER NAME [POINTER...]"
 *    per command syscall programs may issue, naming the attr pointers read
 *    from the program's memory) must list every command a loader issues,
 *    name every pointer a loader puts in the blob and none it puts in user
 *    memory.
 * Otherwise the load fails with -EOPNOTSUPP.
 */
#define BPFRR_RT_KERNEL_STOCK		1	/* generated for stock 6.12 */
#define BPFRR_RT_KERNEL_PATCHED		2	/* generated for the kernel/series list */
#define BPFRR_RT_KERNEL_ANY		3	/* no loader: every call from user space */
#define BPFRR_RT_CMDS_LIST		"/sys/kernel/bpf/syscall_prog_cmds"

/* What a loader needs of a kernel with the list: a command, or a pointer's treatment. */
struct bpfrr_rt_need {
	uint32_t cmd;		/* bpf command */
	const char *ptr;	/* NULL: the command; else the pointer ("insns", "raw_tracepoint.name") */
	uint32_t in_blob;	/* the loader passes a kernel address (1) or a user address (0) */
};

struct bpfrr_rt_image {
	uint32_t kernel;		/* BPFRR_RT_KERNEL_* */
	uint32_t nr_needs;
	const struct bpfrr_rt_need *needs;
	uint32_t nr_slots;
	const struct bpfrr_rt_slot *slots;
	uint32_t nr_steps;
	const struct bpfrr_rt_step *steps;
	const char *build_id;		/* signed for this kernel build only (GNU build id, hex), or NULL */
};

/* bpf(2): the new fd or 0 on success, -errno on failure. */
static inline int bpfrr_rt_sys_bpf(int cmd, void *attr, unsigned int size)
{
	long ret = syscall(__NR_bpf, cmd, attr, size);

	return ret < 0 ? -errno : (int)ret;
}

/* --- replay-time values ----------------------------------------------------- */

static inline int bpfrr_rt_read_number(const char *path, uint64_t *val)
{
	char buf[64], *end;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EINVAL;
	buf[n] = '\0';
	errno = 0;
	*val = strtoull(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return -EINVAL;
	return 0;
}

/*
 * The value a resolution names, on the running kernel; where says which
 * file was read (or tried last).  0 or -errno.
 */
static inline int bpfrr_rt_resolve_value(uint32_t kind, const char *name, uint64_t *val, char *where,
					 size_t size)
{
	static const char *const tracefs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	size_t i;
	int ret = -ENOENT;

	if (strstr(name, "..") || name[0] == '/')
		return -EINVAL;
	if (kind == BPFRR_RT_RESOLVE_IFINDEX) {
		unsigned int idx;

		snprintf(where, size, "network device %s", name);
		idx = if_nametoindex(name);
		if (!idx)
			return errno == ENXIO || !errno ? -ENODEV : -errno;
		*val = idx;
		return 0;
	}
	if (kind == BPFRR_RT_RESOLVE_PMU_TYPE) {
		snprintf(where, size, "/sys/bus/event_source/devices/%s/type", name);
		return bpfrr_rt_read_number(where, val);
	}
	if (kind != BPFRR_RT_RESOLVE_TP_ID)
		return -EINVAL;
	for (i = 0; i < sizeof(tracefs) / sizeof(tracefs[0]); i++) {
		snprintf(where, size, "%s/events/%s/id", tracefs[i], name);
		ret = bpfrr_rt_read_number(where, val);
		if (ret != -ENOENT)
			break;
	}
	return ret;
}

static inline int32_t bpfrr_rt_btf_find(const uint8_t *data, size_t len, const char *name, uint32_t kind);
static inline int bpfrr_rt_read_file(const char *path, uint8_t **data, size_t *len);

/*
 * One /proc/kallsyms line, cut in place: "ffffffff81234560 T do_sys_openat2"
 * or "ffffffffc0a01000 t nf_conntrack_in\t[nf_conntrack]" (a trailing newline
 * allowed).  0 with its address, name and module ("" vmlinux), or -1 for a
 * line of another shape.
 */
static inline int bpfrr_rt_kallsyms_line(char *line, uint64_t *addr, char **name, char **module)
{
	char *end, *mod;

	*addr = strtoull(line, &end, 16);
	if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
		return -1;
	*name = end + 3;
	(*name)[strcspn(*name, "\n")] = '\0';
	mod = strchr(*name, '\t');
	if (mod) {
		*mod++ = '\0';
		if (*mod == '[')
			mod++;
		mod[strcspn(mod, "]")] = '\0';
	}
	*module = mod ? mod : (char *)"";
	return 0;
}

/*
 * The address of name in module ("" vmlinux) from /proc/kallsyms, read
 * line by line; the first of several.  0, -ENOENT, -EPERM (addresses
 * hidden: kptr_restrict), or -errno.
 */
static inline int bpfrr_rt_kallsyms_addr(const char *name, const char *module, uint64_t *addr)
{
	FILE *f = fopen(BPFRR_RT_KALLSYMS, "re");
	char line[512];
	int ret = -ENOENT;
	int any = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *sym, *mod;
		uint64_t a;

		if (bpfrr_rt_kallsyms_line(line, &a, &sym, &mod))
			continue;
		any |= a != 0;
		if (strcmp(sym, name) || strcmp(mod, module))
			continue;
		*addr = a;
		ret = 0;
		break;
	}
	fclose(f);
	if (!ret && !*addr && !any)
		ret = -EPERM;
	return ret;
}

/*
 * The value of any resolution; the vmlinux BTF is read once per process
 * (kept for the next ones).  0 or -errno; where names what was looked up.
 */
static inline int bpfrr_rt_resolve(const struct bpfrr_rt_resolve *rs, uint64_t *val, char *where, size_t size)
{
	static uint8_t *btf;
	static size_t btf_len;
	int32_t id;
	int ret;

	if (rs->kind == BPFRR_RT_RESOLVE_PMU_TYPE || rs->kind == BPFRR_RT_RESOLVE_TP_ID ||
	    rs->kind == BPFRR_RT_RESOLVE_IFINDEX)
		return bpfrr_rt_resolve_value(rs->kind, rs->name, val, where, size);
	if (rs->kind == BPFRR_RT_RESOLVE_KSYM_ADDR) {
		snprintf(where, size, "%s in %s", rs->name, BPFRR_RT_KALLSYMS);
		ret = bpfrr_rt_kallsyms_addr(rs->name, rs->module ? rs->module : "", val);
		if (!ret)
			*val += (uint64_t)rs->addend;
		return ret;
	}
	if (rs->kind != BPFRR_RT_RESOLVE_BTF_ID)
		return -EINVAL;
	snprintf(where, size, "%s in %s", rs->name, BPFRR_RT_VMLINUX_BTF);
	if (!btf && (ret = bpfrr_rt_read_file(BPFRR_RT_VMLINUX_BTF, &btf, &btf_len)))
		return ret;
	id = bpfrr_rt_btf_find(btf, btf_len, rs->name, rs->btf_kind);
	if (id < 0)
		return id;
	*val = (uint64_t)id;
	return 0;
}

/* Writes rs's value at its offset of base (len bytes).  0 or -errno. */
static inline int bpfrr_rt_apply_resolve(uint8_t *base, uint32_t len, const struct bpfrr_rt_resolve *rs)
{
	char where[320];
	uint64_t v = 0;
	int ret;

	if (!base || (rs->size != 4 && rs->size != 8) || rs->offset > len || len - rs->offset < rs->size)
		return -EINVAL;
	ret = bpfrr_rt_resolve(rs, &v, where, sizeof(where));
	if (ret)
		return ret;
	if (rs->size == 4) {
		uint32_t v32 = (uint32_t)v;

		memcpy(base + rs->offset, &v32, 4);
	} else {
		memcpy(base + rs->offset, &v, 8);
	}
	return 0;
}

/*
 * Writes each resolution's value into base (len bytes), or into user
 * (user_len bytes) for BPFRR_RT_IN_USER; on failure *failed_seq names its
 * call.
 */
static inline int bpfrr_rt_apply_resolves(uint8_t *base, uint32_t len, uint8_t *user, uint32_t user_len,
					  const struct bpfrr_rt_resolve *rs, uint32_t nr, uint64_t *failed_seq)
{
	uint32_t i;
	int ret;

	for (i = 0; i < nr; i++) {
		if (rs[i].buf == BPFRR_RT_IN_USER)
			ret = bpfrr_rt_apply_resolve(user, user_len, &rs[i]);
		else if (rs[i].buf == BPFRR_RT_IN_ATTR)
			ret = bpfrr_rt_apply_resolve(base, len, &rs[i]);
		else
			ret = -EINVAL;
		if (ret) {
			*failed_seq = rs[i].seq;
			return ret;
		}
	}
	return 0;
}

/* --- the kernel's BTF --------------------------------------------------------- */

/* Bytes that follow struct btf_type for a kind, or -1 for a kind not known. */
static inline long bpfrr_rt_btf_extra(uint32_t kind, uint32_t vlen)
{
	switch (kind) {
	case BTF_KIND_INT: return 4;
	case BTF_KIND_ARRAY: return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: return (long)vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM: return (long)vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO: return (long)vlen * sizeof(struct btf_param);
	case BTF_KIND_VAR: return sizeof(struct btf_var);
	case BTF_KIND_DATASEC: return (long)vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_DECL_TAG: return sizeof(struct btf_decl_tag);
	case BTF_KIND_ENUM64: return (long)vlen * sizeof(struct btf_enum64);
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG: return 0;
	default: return -1;
	}
}

/*
 * The type id of the type of kind (BTF_KIND_*) named name in raw BTF (data,
 * len: the format of /sys/kernel/btf/vmlinux, in this machine's byte
 * order), or -ENOENT, or -EINVAL for data that is not such BTF.
 */
static inline int32_t bpfrr_rt_btf_find(const uint8_t *data, size_t len, const char *name, uint32_t kind)
{
	size_t name_len = strlen(name), off, types_end, strs;
	struct btf_header h;
	uint64_t end;
	int32_t id;

	if (len < sizeof(h))
		return -EINVAL;
	memcpy(&h, data, sizeof(h));
	if (h.magic != BTF_MAGIC || h.hdr_len < sizeof(h) || h.hdr_len > len)
		return -EINVAL;
	end = (uint64_t)h.hdr_len + h.type_off + h.type_len;
	if (end > len || (uint64_t)h.hdr_len + h.str_off + h.str_len > len)
		return -EINVAL;
	off = h.hdr_len + h.type_off;
	types_end = (size_t)end;
	strs = h.hdr_len + h.str_off;
	for (id = 1; off < types_end; id++) {
		struct btf_type t;
		long extra;

		if (types_end - off < sizeof(t))
			return -EINVAL;
		memcpy(&t, data + off, sizeof(t));
		off += sizeof(t);
		if (BTF_INFO_KIND(t.info) == kind && t.name_off < h.str_len &&
		    h.str_len - t.name_off > name_len && !memcmp(data + strs + t.name_off, name, name_len) &&
		    data[strs + t.name_off + name_len] == '\0')
			return id;
		extra = bpfrr_rt_btf_extra(BTF_INFO_KIND(t.info), BTF_INFO_VLEN(t.info));
		if (extra < 0 || (size_t)extra > types_end - off)
			return -EINVAL;
		off += (size_t)extra;
	}
	return -ENOENT;
}

/* The same for a BTF_KIND_FUNC. */
static inline int32_t bpfrr_rt_btf_find_func(const uint8_t *data, size_t len, const char *name)
{
	return bpfrr_rt_btf_find(data, len, name, BTF_KIND_FUNC);
}

/*
 * The whole file in a malloc'd buffer; 0 or -errno.  The buffer starts
 * small and doubles: most files read here are sysfs lists of a few hundred
 * bytes (the kernel's kind, its build id), read once per load, where a
 * first buffer of 1 MiB cost an mmap, an mremap and an munmap each time;
 * the large ones (vmlinux BTF, kallsyms) grow by mremap.
 */
static inline int bpfrr_rt_read_file(const char *path, uint8_t **data, size_t *len)
{
	size_t cap = 16u << 10, n = 0;
	uint8_t *p = malloc(cap), *q;
	ssize_t got;
	int fd, ret = 0;

	if (!p)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(p);
		return -errno;
	}
	for (;;) {
		if (n == cap) {
			q = cap > SIZE_MAX / 2 ? NULL : realloc(p, cap * 2);
			if (!q) {
				ret = -ENOMEM;
				break;
			}
			p = q;
			cap *= 2;
		}
		got = read(fd, p + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ret = -errno;
			break;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	close(fd);
	if (ret) {
		free(p);
		return ret;
	}
	*data = p;
	*len = n;
	return 0;
}

/*
 * Does the string section of the BTF file at path hold name?  Only the
 * header and the strings are read: on a kernel without the kfunc (stock)
 * this answers without reading and walking the types, which costs tens of
 * milliseconds under emulation.  1 yes, 0 no, -errno if it cannot tell.
 */
static inline int bpfrr_rt_btf_has_string(const char *path, const char *name)
{
	size_t name_len = strlen(name), got = 0;
	struct btf_header h;
	uint8_t *strs;
	ssize_t n;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) || h.magic != BTF_MAGIC ||
	    h.hdr_len < sizeof(h) || !h.str_len) {
		close(fd);
		return -EINVAL;
	}
	strs = malloc((size_t)h.str_len + 1);
	if (!strs) {
		close(fd);
		return -ENOMEM;
	}
	while (got < h.str_len) {
		n = pread(fd, strs + got, h.str_len - got, (off_t)h.hdr_len + h.str_off + got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (got < h.str_len) {
		free(strs);
		return -EIO;
	}
	strs[h.str_len] = '\0';
	ret = 0;
	/* strings are NUL-separated and the section starts with the empty string */
	for (size_t off = 1; off + name_len < (size_t)h.str_len + 1 && !ret; off += strlen((char *)strs + off) + 1)
		ret = !memcmp(strs + off, name, name_len + 1);
	free(strs);
	return ret;
}

/*
 * The kfunc name in the kernel's list of kfuncs at path (the format of
 * BPFRR_RT_KFUNCS_LIST: "<btf_id> <name>\n" per kfunc, the id decimal, in
 * vmlinux BTF; fields a later kernel adds after the name are ignored, as
 * its ABI text asks): 1 and *id when listed, 0 when the list lacks it,
 * -ENOENT without a list (a kernel without the series, or one older than
 * the list), -EINVAL for a list not of that form, another -errno if it
 * cannot be read.
 * Reading a page of text instead of the whole BTF is the point: the probe
 * must stay within a few ms (issue 15).
 */
static inline int bpfrr_rt_kfunc_list_lookup(const char *path, const char *name, int32_t *id)
{
	char text[16384], *line, *end;
	size_t n = 0, name_len = strlen(name);
	ssize_t got;
	int fd, found = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (n < sizeof(text) - 1) {
		got = read(fd, text + n, sizeof(text) - 1 - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			got = -errno;
			close(fd);
			return (int)got;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	close(fd);
	if (n == sizeof(text) - 1)
		return -EFBIG;
	text[n] = '\0';
	if (strlen(text) != n)
		return -EINVAL;
	for (line = text; *line; line = end + 1) {
		unsigned long v = 0;
		char *p = line, *end_name;

		end = strchr(line, '\n');
		if (!end)
			return -EINVAL;	/* every line ends with a newline */
		if (*p < '0' || *p > '9')
			return -EINVAL;
		while (*p >= '0' && *p <= '9' && v <= INT32_MAX)
			v = v * 10 + (unsigned long)(*p++ - '0');
		if (*p != ' ' || !v || v > INT32_MAX || p + 1 == end || p[1] == ' ')
			return -EINVAL;
		p++;
		/* the name ends at the first space: later fields are not ours */
		end_name = memchr(p, ' ', (size_t)(end - p));
		if (!end_name)
			end_name = end;
		if ((size_t)(end_name - p) == name_len && !memcmp(p, name, name_len) && !found) {
			*id = (int32_t)v;
			found = 1;
		}
	}
	return found;
}

/*
 * The BTF id of the kfunc name in the running kernel's vmlinux BTF, or
 * -errno: from the kernel's list of kfuncs (kfuncs_list) when it has one,
 * else by a scan of the BTF file (btf_path).
 */
static inline int32_t bpfrr_rt_kfunc_btf_id_at(const char *kfuncs_list, const char *btf_path, const char *name)
{
	uint8_t *data = NULL;
	size_t len = 0;
	int32_t id = 0, ret = bpfrr_rt_kfunc_list_lookup(kfuncs_list, name, &id);

	if (ret == 1)
		return id;
	if (ret != -ENOENT)
		return ret ? ret : -ENOENT;	/* the list says the kernel lacks it, or is bad */
	ret = bpfrr_rt_btf_has_string(btf_path, name);
	if (ret <= 0)
		return ret ? ret : -ENOENT;
	ret = bpfrr_rt_read_file(btf_path, &data, &len);
	if (ret)
		return ret;
	ret = bpfrr_rt_btf_find_func(data, len, name);
	free(data);
	return ret;
}

/* The same on the running kernel. */
static inline int32_t bpfrr_rt_kfunc_btf_id(const char *name)
{
	return bpfrr_rt_kfunc_btf_id_at(BPFRR_RT_KFUNCS_LIST, BPFRR_RT_VMLINUX_BTF, name);
}

/* --- a call from user space ------------------------------------------------------ */

/* A copy of a log the kernel wrote (NUL-terminated within len, or cut). */
static inline char *bpfrr_rt_copy_log(const uint8_t *p, uint32_t len)
{
	size_t n = strnlen((const char *)p, len);
	char *s = malloc(n + 1);

	if (s) {
		memcpy(s, p, n);
		s[n] = '\0';
	}
	return s;
}

/*
 * Makes call c with the attr and buffers rebuilt in this process's memory
 * (this process's addresses in the pointer fields, the resolutions
 * applied, fds[slot] in the fd fields).  The result (>= 0; a new fd is
 * stored in fds[result_slot], the fds it wrote into its buffers in their
 * product slots), or -errno (-ENOENT: a product was not made).  If the call fails and has a log
 * buffer the kernel wrote into, *log gets a malloc'd copy (log may be NULL).
 */
/*
 * One rtnetlink exchange: req (len bytes, a whole message) sent with its
 * header's flags set to flags, a sequence number of its own and port 0, on a
 * NETLINK_ROUTE socket of its own; each message of the answer that carries
 * that number, other than the end (NLMSG_ERROR, NLMSG_DONE), goes to fn (if
 * given).  The error of the acknowledgement (NLMSG_ERROR), or 0 at the end
 * of a dump (NLMSG_DONE); -errno when the exchange itself fails, -EPROTO when
 * the answer ends without either.
 */
typedef void bpfrr_rt_nl_fn(void *arg, const uint8_t *msg, uint32_t len);
static inline int bpfrr_rt_netlink_talk(uint8_t *req, uint32_t len, uint16_t flags, bpfrr_rt_nl_fn *fn, void *arg)
{
	static uint32_t seq = 0x62707272;	/* "bprr" */
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	union {
		struct nlmsghdr h;
		uint8_t bytes[32768];	/* a dump's messages come a page or more at a time */
	} answer;
	struct nlmsghdr h;
	int sock, ret = -EPROTO;
	ssize_t n;

	if (len < sizeof(h))
		return -EINVAL;
	memcpy(&h, req, sizeof(h));
	h.nlmsg_flags = flags;
	h.nlmsg_seq = ++seq;
	h.nlmsg_pid = 0;
	memcpy(req, &h, sizeof(h));
	sock = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (sock < 0)
		return -errno;
	if (sendto(sock, req, len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) != (ssize_t)len) {
		ret = -errno;
		goto out;
	}
	for (;;) {
		uint32_t off = 0;

		n = recv(sock, answer.bytes, sizeof(answer.bytes), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			ret = -errno;
		if (n <= 0)
			goto out;
		while (off + sizeof(struct nlmsghdr) <= (size_t)n) {
			struct nlmsghdr r;
			int32_t err;

			memcpy(&r, answer.bytes + off, sizeof(r));
			if (r.nlmsg_len < sizeof(r) || r.nlmsg_len > (size_t)n - off)
				break;
			if (r.nlmsg_seq == h.nlmsg_seq) {
				if (r.nlmsg_type == NLMSG_ERROR && r.nlmsg_len >= sizeof(r) + 4) {
					memcpy(&err, answer.bytes + off + sizeof(r), 4);
					ret = err;
					goto out;
				}
				if (r.nlmsg_type == NLMSG_DONE) {
					ret = 0;
					goto out;
				}
				if (fn)
					fn(arg, answer.bytes + off, r.nlmsg_len);
			}
			off += NLMSG_ALIGN(r.nlmsg_len);
		}
	}
out:
	close(sock);
	return ret;
}

/* Where bpfrr_rt_netlink_echo() keeps the kernel's echo of what a request made. */
struct bpfrr_rt_nl_echo {
	uint16_t type;		/* the request's: the echo has the same */
	uint8_t *buf;
	uint32_t size, *len;
};

static inline void bpfrr_rt_nl_keep_echo(void *arg, const uint8_t *msg, uint32_t len)
{
	struct bpfrr_rt_nl_echo *e = arg;
	uint16_t type;

	memcpy(&type, msg + 4, sizeof(type));	/* nlmsghdr: len at 0, type at 4 */
	if (type == e->type && len <= e->size && !*e->len) {
		memcpy(e->buf, msg, len);
		*e->len = len;
	}
}

/*
 * One rtnetlink request (a whole message, fds and ifindex already in place)
 * with NLM_F_ACK (bpfrr_rt_netlink_talk()): the kernel handles it inside
 * sendmsg and queues the acknowledgement, whose error is the request's.  0
 * when it succeeded, 1 when it made a clsact or ingress qdisc that was there
 * already (RTM_NEWQDISC refused with EEXIST: the hook an attachment needs
 * exists, and is not this replay's to remove), -errno.  With echo
 * (echo_size bytes), NLM_F_ECHO asks the kernel for what it made (a filter
 * with the priority and handle it chose), copied there, its length in
 * *echo_len (0: none came).
 */
#define BPFRR_RT_RTM_NEWQDISC	36
static inline int bpfrr_rt_netlink_echo(uint8_t *msg, uint32_t len, uint8_t *echo, uint32_t echo_size,
					uint32_t *echo_len)
{
	struct bpfrr_rt_nl_echo e = { .buf = echo, .size = echo_size, .len = echo_len };
	struct nlmsghdr h;
	int ret;

	if (echo_len)
		*echo_len = 0;
	if (len < sizeof(h))
		return -EINVAL;
	memcpy(&h, msg, sizeof(h));
	e.type = h.nlmsg_type;
	ret = bpfrr_rt_netlink_talk(msg, len, h.nlmsg_flags | NLM_F_REQUEST | NLM_F_ACK | (echo ? NLM_F_ECHO : 0),
				    echo && echo_len ? bpfrr_rt_nl_keep_echo : NULL, &e);
	if (ret == -EEXIST && h.nlmsg_type == BPFRR_RT_RTM_NEWQDISC)
		ret = 1;
	return ret;
}

static inline int bpfrr_rt_netlink(uint8_t *msg, uint32_t len)
{
	return bpfrr_rt_netlink_echo(msg, len, NULL, 0, NULL);
}

static inline int64_t bpfrr_rt_exec_call(const struct bpfrr_rt_call *c, int *fds, char **log)
{
	uint8_t *attr, **mem;
	int64_t args[4], ret;
	uint32_t i;

	if (log)
		*log = NULL;
	/* 8 bytes of slack: an attr shorter than a field it has never reads it */
	attr = calloc(1, (size_t)c->attr_size + 8);
	mem = calloc((size_t)c->nr_bufs + 1, sizeof(*mem));
	if (!attr || !mem) {
		ret = -ENOMEM;
		goto out;
	}
	if (c->attr_size)
		memcpy(attr, c->attr, c->attr_size);
	memcpy(args, c->args, sizeof(args));
	for (i = 0; i < c->nr_bufs; i++) {
		const struct bpfrr_rt_buf *b = &c->bufs[i];
		uint8_t *parent = b->parent < 0 ? attr : mem[b->parent];
		uint64_t addr;

		mem[i] = calloc(1, (size_t)b->len + 1);
		if (!mem[i]) {
			ret = -ENOMEM;
			goto out;
		}
		if (b->data)
			memcpy(mem[i], b->data, b->len);
		addr = (uintptr_t)mem[i];
		memcpy(parent + b->ptr_offset, &addr, 8);
	}
	/* in the attr or in a buffer (an instruction's imm, a kprobe_multi address) */
	for (i = 0; i < c->nr_resolves; i++) {
		const struct bpfrr_rt_resolve *rs = &c->resolves[i];

		if (rs->buf == BPFRR_RT_IN_ATTR)
			ret = bpfrr_rt_apply_resolve(attr, c->attr_size, rs);
		else if (rs->buf >= 0 && (uint32_t)rs->buf < c->nr_bufs)
			ret = bpfrr_rt_apply_resolve(mem[rs->buf], c->bufs[rs->buf].len, rs);
		else
			ret = -EINVAL;
		if (ret)
			goto out;
	}
	for (i = 0; i < c->nr_fdrels; i++) {
		const struct bpfrr_rt_fdrel *r = &c->fdrels[i];
		int32_t fd = fds[r->slot];

		if (r->buf == BPFRR_RT_IN_ARG)
			args[r->offset] = fd;
		else
			memcpy((r->buf < 0 ? attr : mem[r->buf]) + r->offset, &fd, 4);
	}

	switch (c->op) {
	case BPFRR_RT_OP_BPF:
		ret = syscall(__NR_bpf, c->cmd, attr, c->attr_size);
		break;
	case BPFRR_RT_OP_PERF_EVENT_OPEN:
		ret = syscall(__NR_perf_event_open, attr, (int)args[0], (int)args[1], (int)args[2],
			      (unsigned long)args[3]);
		break;
	case BPFRR_RT_OP_IOCTL:
		ret = ioctl((int)args[0], (unsigned long)c->cmd, (unsigned long)args[1]);
		break;
	case BPFRR_RT_OP_NETLINK:
		ret = bpfrr_rt_netlink(attr, c->attr_size);
		if (ret < 0) {
			errno = (int)-ret;
			ret = -1;
		}
		break;
	default:
		errno = EINVAL;
		ret = -1;
	}
	if (ret < 0) {
		ret = -errno;
		for (i = 0; log && i < c->nr_bufs; i++)
			if (c->bufs[i].flags & BPFRR_RT_BUF_LOG && !*log && mem[i][0])
				*log = bpfrr_rt_copy_log(mem[i], c->bufs[i].len);
		goto out;
	}
	if (c->result_slot >= 0)
		fds[c->result_slot] = (int)ret;
	/*
	 * The products: fds the call wrote into a buffer (a light skeleton's
	 * syscall program writes the fds it made into its context).  Each one
	 * made goes to its slot, so that a failure closes it with the rest;
	 * one not made (<= 0: gen_loader writes them only once every call
	 * succeeded) fails the call: with the program's own error when it
	 * returned one (BPF_PROG_TEST_RUN's test.retval, gen_loader's -errno),
	 * else with -ENOENT.
	 */
	for (i = 0; i < c->nr_outfds; i++) {
		const struct bpfrr_rt_outfd *o = &c->outfds[i];
		int32_t fd, retval = 0;

		memcpy(&fd, mem[o->buf] + o->offset, 4);
		if (fd > 0) {
			fds[o->slot] = fd;
			continue;
		}
		if (c->op == BPFRR_RT_OP_BPF && c->cmd == BPFRR_RT_PROG_TEST_RUN && c->attr_size >= 8)
			memcpy(&retval, attr + 4, 4);	/* test.retval */
		ret = retval < 0 && retval >= -4095 ? retval : -ENOENT;
	}
out:
	for (i = 0; mem && i < c->nr_bufs; i++)
		free(mem[i]);
	free(mem);
	free(attr);
	return ret;
}

/* --- a loader run ------------------------------------------------------------------- */

/* The BPF_MAP_CREATE attr of a loader's blob map: a 1-entry array of blob_size bytes. */
static inline void bpfrr_rt_blob_map_attr(union bpf_attr *attr, uint32_t blob_size)
{
	memset(attr, 0, sizeof(*attr));
	attr->map_type = BPF_MAP_TYPE_ARRAY;
	attr->key_size = 4;
	attr->value_size = blob_size;
	attr->max_entries = 1;
	memcpy(attr->map_name, "bpfrr_blob", sizeof("bpfrr_blob"));
}

/*
 * Writes blob as the one value of map_fd (and freezes the map if asked);
 * map_fd, or -errno with map_fd closed.
 */
static inline int bpfrr_rt_blob_fill(int map_fd, const void *blob, int freeze)
{
	union bpf_attr attr;
	uint32_t key = 0;
	int ret;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	attr.key = (uintptr_t)&key;
	attr.value = (uintptr_t)blob;
	ret = bpfrr_rt_sys_bpf(BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr));
	if (!ret && freeze) {
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = map_fd;
		ret = bpfrr_rt_sys_bpf(BPF_MAP_FREEZE, &attr, sizeof(attr));
	}
	if (ret < 0) {
		close(map_fd);
		return ret;
	}
	return map_fd;
}

/* A 1-entry array map holding blob; its fd or -errno. */
static inline int bpfrr_rt_blob_map(const void *blob, uint32_t blob_size)
{
	union bpf_attr attr;
	int map_fd;

	bpfrr_rt_blob_map_attr(&attr, blob_size);
	map_fd = bpfrr_rt_sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
	if (map_fd < 0)
		return map_fd;
	return bpfrr_rt_blob_fill(map_fd, blob, 0);
}

/*
 * The BPF_PROG_LOAD attr of a loader: insns as a sleepable
 * BPF_PROG_TYPE_SYSCALL program with fd_array = { *blob_fd } (which must
 * outlive the call); with log, the verifier's log goes there.
 */
static inline void bpfrr_rt_loader_attr(union bpf_attr *attr, const struct bpf_insn *insns, uint32_t nr_insns,
					const char *name, const int *blob_fd, char *log, uint32_t log_size)
{
	static const char license[] = "GPL";

	memset(attr, 0, sizeof(*attr));
	attr->prog_type = BPF_PROG_TYPE_SYSCALL;
	attr->prog_flags = BPF_F_SLEEPABLE;
	attr->insns = (uintptr_t)insns;
	attr->insn_cnt = nr_insns;
	attr->license = (uintptr_t)license;
	attr->fd_array = (uintptr_t)blob_fd;
	strncpy(attr->prog_name, name, sizeof(attr->prog_name) - 1);
	if (log && log_size) {
		log[0] = '\0';
		attr->log_level = 1;
		attr->log_buf = (uintptr_t)log;
		attr->log_size = log_size;
	}
}

/*
 * Loads insns as a sleepable BPF_PROG_TYPE_SYSCALL program with fd_array =
 * { blob_fd }; its fd or -errno.  With log, the verifier's log goes there.
 */
static inline int bpfrr_rt_prog_load(const struct bpf_insn *insns, uint32_t nr_insns, const char *name,
				     int blob_fd, char *log, uint32_t log_size)
{
	union bpf_attr attr;

	bpfrr_rt_loader_attr(&attr, insns, nr_insns, name, &blob_fd, log, log_size);
	return bpfrr_rt_sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
}

/*
 * Signed loaders (docs/signing.md; upstream 6.18 UAPI, mainline's load-time
 * check, the series' 6.12 backport).  The attr fields after the last one
 * 6.12 knows, by offset (the build's <linux/bpf.h> may lack them):
 */
#define BPFRR_RT_MAP_EXCL_PROG_HASH	80	/* MAP_CREATE: __aligned_u64 excl_prog_hash */
#define BPFRR_RT_MAP_EXCL_PROG_HASH_SIZE 88	/* __u32 excl_prog_hash_size */
#define BPFRR_RT_MAP_CREATE_SIGNED_SIZE	96
#define BPFRR_RT_PROG_FD_ARRAY_CNT	148	/* PROG_LOAD: __u32 fd_array_cnt */
#define BPFRR_RT_PROG_SIGNATURE		152	/* __aligned_u64 signature */
#define BPFRR_RT_PROG_SIGNATURE_SIZE	160	/* __u32 signature_size */
#define BPFRR_RT_PROG_KEYRING_ID	164	/* __s32 keyring_id */
#define BPFRR_RT_PROG_LOAD_SIGNED_SIZE	168
/* keyring_id: system keyrings, and the special ids of keyutils (KEY_SPEC_*) */
#define BPFRR_RT_KEYRING_BUILTIN	0
#define BPFRR_RT_KEYRING_SECONDARY	1
#define BPFRR_RT_KEYRING_PLATFORM	2
#define BPFRR_RT_KEYRING_SESSION	(-3)	/* KEY_SPEC_SESSION_KEYRING, "@s" */
#define BPFRR_RT_KEYRING_USER		(-4)	/* KEY_SPEC_USER_KEYRING, "@u" */
/* The environment variable a header's loader takes its keyring from (default "@s") */
#define BPFRR_RT_KEYRING_ENV		"BPFRR_KEYRING"

/* "@s", "@u", "builtin", "secondary", "platform" or a key serial: 0 with *id, or -EINVAL. */
static inline int bpfrr_rt_keyring_parse(const char *s, int32_t *id)
{
	static const struct { const char *name; int32_t id; } names[] = {
		{ "@s", BPFRR_RT_KEYRING_SESSION }, { "@u", BPFRR_RT_KEYRING_USER },
		{ "builtin", BPFRR_RT_KEYRING_BUILTIN }, { "secondary", BPFRR_RT_KEYRING_SECONDARY },
		{ "platform", BPFRR_RT_KEYRING_PLATFORM },
	};
	char *end;
	long v;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i].name)) {
			*id = names[i].id;
			return 0;
		}
	v = strtol(s, &end, 0);
	if (end == s || *end || v < INT32_MIN || v > INT32_MAX)
		return -EINVAL;
	*id = (int32_t)v;
	return 0;
}

/*
 * The metadata map of a signed loader: a 1-entry ARRAY holding blob, made
 * exclusive to the program whose insns hash to excl_prog_hash, written
 * and frozen.  Its fd or -errno.
 */
static inline int bpfrr_rt_signed_blob_map(const void *blob, uint32_t blob_size, const uint8_t *excl_prog_hash)
{
	uint8_t a[BPFRR_RT_MAP_CREATE_SIGNED_SIZE];
	union bpf_attr attr;
	uint64_t hash_ptr = (uintptr_t)excl_prog_hash;
	uint32_t hash_size = 32;
	int map_fd;

	bpfrr_rt_blob_map_attr(&attr, blob_size);
	memset(a, 0, sizeof(a));
	memcpy(a, &attr, sizeof(attr) < BPFRR_RT_MAP_EXCL_PROG_HASH ? sizeof(attr) : BPFRR_RT_MAP_EXCL_PROG_HASH);
	memcpy(a + BPFRR_RT_MAP_EXCL_PROG_HASH, &hash_ptr, 8);
	memcpy(a + BPFRR_RT_MAP_EXCL_PROG_HASH_SIZE, &hash_size, 4);
	map_fd = bpfrr_rt_sys_bpf(BPF_MAP_CREATE, a, sizeof(a));
	if (map_fd < 0)
		return map_fd;
	return bpfrr_rt_blob_fill(map_fd, blob, 1);
}

/*
 * A signed loader's BPF_PROG_LOAD: fd_array = { blob_fd } with
 * fd_array_cnt = 1 (the metadata map the signature covers), the signature
 * and the keyring to check it against.  Its fd or -errno (EKEYREJECTED: the
 * signature does not verify; ENOKEY: no such key; EBADMSG: not PKCS#7; E2BIG:
 * a kernel without signed loaders).
 */
static inline int bpfrr_rt_signed_prog_load(const struct bpf_insn *insns, uint32_t nr_insns, const char *name,
					    int blob_fd, const uint8_t *sig, uint32_t sig_size, int32_t keyring_id,
					    char *log, uint32_t log_size)
{
	uint8_t a[BPFRR_RT_PROG_LOAD_SIGNED_SIZE];
	union bpf_attr attr;
	uint64_t sig_ptr = (uintptr_t)sig;
	uint32_t one = 1;

	bpfrr_rt_loader_attr(&attr, insns, nr_insns, name, &blob_fd, log, log_size);
	memset(a, 0, sizeof(a));
	memcpy(a, &attr, sizeof(attr) < BPFRR_RT_PROG_FD_ARRAY_CNT ? sizeof(attr) : BPFRR_RT_PROG_FD_ARRAY_CNT);
	memcpy(a + BPFRR_RT_PROG_FD_ARRAY_CNT, &one, 4);
	memcpy(a + BPFRR_RT_PROG_SIGNATURE, &sig_ptr, 8);
	memcpy(a + BPFRR_RT_PROG_SIGNATURE_SIZE, &sig_size, 4);
	memcpy(a + BPFRR_RT_PROG_KEYRING_ID, &keyring_id, 4);
	return bpfrr_rt_sys_bpf(BPF_PROG_LOAD, a, sizeof(a));
}

/*
 * The kernel's verdict on a loaded program's signature, kept with the
 * program: the "sig_verdict:" line of its fdinfo ("verified", "unsigned")
 * and, when verified, its "sig_keyring:" ("builtin", "secondary",
 * "platform" or a key serial), into buf as "verified (keyring 1234)";
 * "unknown" on a kernel that shows none.
 */
static inline void bpfrr_rt_sig_verdict(int prog_fd, char *buf, size_t size)
{
	char path[64], line[256], verdict[64] = "unknown", keyring[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", prog_fd);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');

		if (!v)
			continue;
		v += 1 + strspn(v + 1, " \t");
		v[strcspn(v, "\n")] = '\0';
		if (!strncmp(line, "sig_verdict:", 12))
			snprintf(verdict, sizeof(verdict), "%s", v);
		else if (!strncmp(line, "sig_keyring:", 12))
			snprintf(keyring, sizeof(keyring), "%s", v);
	}
	if (f)
		fclose(f);
	if (keyring[0])
		snprintf(buf, size, "%.24s (keyring %.24s)", verdict, keyring);
	else
		snprintf(buf, size, "%s", verdict);
}

/* What the kernel's errno at a signed loader's load says, in a few words. */
static inline const char *bpfrr_rt_sig_refusal(int err)
{
	switch (err) {
	case -EKEYREJECTED: return "signature rejected (not made by a key in the keyring over these bytes)";
	case -ENOKEY: return "no such key or keyring";
	case -EBADMSG: return "malformed signature";
	case -E2BIG: return "this kernel takes no signature (no signed loaders: the attr is past what it knows)";
	case -EACCES: return "the metadata map is not exclusive to these insns (or an LSM refused)";
	case -EPERM: return "not permitted: an LSM policy or missing privileges (not an unfrozen metadata map: the runner froze it)";
	case -EINVAL: return "invalid: the metadata map is not a plain ARRAY, or the program names an fd outside it";
	default: return "refused";
	}
}

/* BPF_PROG_RUN of a syscall program: ctx copied in and back out.  0 or -errno. */
static inline int bpfrr_rt_prog_run(int prog_fd, void *ctx, uint32_t ctx_size, uint32_t *retval)
{
	union bpf_attr attr;
	int ret;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog_fd;
	attr.test.ctx_in = (uintptr_t)ctx;
	attr.test.ctx_size_in = ctx_size;
	ret = bpfrr_rt_sys_bpf(BPF_PROG_TEST_RUN, &attr, sizeof(attr));
	if (!ret && retval)
		*retval = attr.test.retval;
	return ret;
}

/*
 * One loader run: the blob with its resolutions in a blob map, the
 * kfunc calls patched with kfunc_btf_id, the program loaded and run with
 * fds[] in its context; the fds it made are stored in fds[].  0, or
 * -errno with *failed_seq set to the failing recorded call (0 when the
 * failure is the runtime's own: the blob map, the loader's load; then,
 * with log, the verifier's log is in log).
 */
static inline int bpfrr_rt_run_loader(const struct bpfrr_rt_loader *l, int32_t kfunc_btf_id, int *fds,
				      uint32_t nr_slots, uint64_t *failed_seq, char *log, uint32_t log_size)
{
	struct bpf_insn *insns = NULL;
	uint8_t *blob = NULL, *user = NULL, *ctx = NULL;
	struct bpfrr_rt_ctx hdr;
	int map_fd = -1, prog_fd = -1, ret;
	uint32_t i;

	*failed_seq = 0;
	if (l->ctx_size != BPFRR_RT_CTX_SLOTS + 4 * nr_slots || !l->blob_size)
		return -EINVAL;
	blob = malloc(l->blob_size);
	insns = malloc((size_t)l->nr_insns * sizeof(*insns));
	ctx = calloc(1, l->ctx_size);
	user = l->user_size ? aligned_alloc(8, (l->user_size + 7) & ~7u) : NULL;
	if (!blob || !insns || !ctx || (l->user_size && !user)) {
		ret = -ENOMEM;
		goto out;
	}
	memcpy(blob, l->blob, l->blob_size);
	if (user)
		memcpy(user, l->user, l->user_size);
	ret = bpfrr_rt_apply_resolves(blob, l->blob_size, user, l->user_size, l->resolves, l->nr_resolves,
				      failed_seq);
	if (ret)
		goto out;
	memcpy(insns, l->insns, (size_t)l->nr_insns * sizeof(*insns));
	for (i = 0; i < l->nr_kfunc_calls; i++) {
		if (l->kfunc_calls[i] >= l->nr_insns) {
			ret = -EINVAL;
			goto out;
		}
		insns[l->kfunc_calls[i]].imm = kfunc_btf_id;
	}
	if (l->signature) {
		const char *ring = getenv(BPFRR_RT_KEYRING_ENV);
		int32_t keyring_id = BPFRR_RT_KEYRING_SESSION;

		/* loaded as signed: nothing may be patched in (the translator fixed it all) */
		if (l->nr_resolves || l->nr_kfunc_calls || l->user_size || !l->excl_prog_hash) {
			ret = -EINVAL;
			goto out;
		}
		if (ring && ring[0] && bpfrr_rt_keyring_parse(ring, &keyring_id)) {
			ret = -EINVAL;
			goto out;
		}
		map_fd = bpfrr_rt_signed_blob_map(blob, l->blob_size, l->excl_prog_hash);
		if (map_fd < 0) {
			ret = map_fd;
			goto out;
		}
		prog_fd = bpfrr_rt_signed_prog_load(insns, l->nr_insns, "bpfrr_loader", map_fd, l->signature,
						    l->signature_size, keyring_id, NULL, 0);
		if (prog_fd < 0) {
			ret = prog_fd;
			if (log && log_size)
				snprintf(log, log_size, "the signed loader: %s", bpfrr_rt_sig_refusal(ret));
			goto out;
		}
	} else {
		map_fd = bpfrr_rt_blob_map(blob, l->blob_size);
		if (map_fd < 0) {
			ret = map_fd;
			goto out;
		}
		prog_fd = bpfrr_rt_prog_load(insns, l->nr_insns, "bpfrr_loader", map_fd, NULL, 0);
		if (prog_fd < 0) {
			ret = prog_fd;
			if (log && log_size)
				prog_fd = bpfrr_rt_prog_load(insns, l->nr_insns, "bpfrr_loader", map_fd, log,
							     log_size);
			goto out;
		}
	}
	if (user) {
		for (i = 0; i < l->nr_user_relocs; i++) {
			uint64_t v;

			if (l->user_size < 8 || l->user_relocs[i] > l->user_size - 8) {
				ret = -EINVAL;
				goto out;
			}
			memcpy(&v, user + l->user_relocs[i], 8);
			v += (uintptr_t)user;
			memcpy(user + l->user_relocs[i], &v, 8);
		}
	}
	memset(&hdr, 0, sizeof(hdr));
	hdr.user_base = (uintptr_t)user;
	memcpy(ctx, &hdr, sizeof(hdr));
	for (i = 0; i < nr_slots; i++) {
		int32_t fd = fds[i];

		memcpy(ctx + BPFRR_RT_CTX_SLOTS + 4 * i, &fd, 4);
	}
	ret = bpfrr_rt_prog_run(prog_fd, ctx, l->ctx_size, NULL);
	if (ret) {
		*failed_seq = l->first_seq;
		goto out;
	}
	memcpy(&hdr, ctx, sizeof(hdr));
	if (hdr.err) {
		/* the loader closed what it made */
		*failed_seq = hdr.failed_seq;
		ret = hdr.err < 0 ? hdr.err : -EPROTO;
		goto out;
	}
	for (i = 0; i < l->nr_created; i++) {
		int32_t fd;

		memcpy(&fd, ctx + BPFRR_RT_CTX_SLOTS + 4 * l->created[i], 4);
		fds[l->created[i]] = fd;
		if (fd < 0)
			ret = -EPROTO;
	}
out:
	if (prog_fd >= 0)
		close(prog_fd);
	if (map_fd >= 0)
		close(map_fd);
	free(ctx);
	free(user);
	free(insns);
	free(blob);
	return ret;
}

/* --- the kernel's kind ------------------------------------------------------------------- */

/* Does the list have a line for cmd (and, with ptr, name ptr on it)? */
static inline int bpfrr_rt_list_has(const char *list, uint32_t cmd, const char *ptr)
{
	size_t ptr_len = ptr ? strlen(ptr) : 0;
	const char *line = list;

	while (*line) {
		const char *end = strchr(line, '\n'), *p;
		char *num_end;
		unsigned long n;

		if (!end)
			end = line + strlen(line);
		n = strtoul(line, &num_end, 10);
		if (num_end != line && num_end <= end && n == cmd) {
			if (!ptr)
				return 1;
			/* the name, then the pointers */
			p = num_end + strspn(num_end, " \t");
			p += strcspn(p, " \t\n");
			while (p < end) {
				size_t len;

				p += strspn(p, " \t");
				len = strcspn(p, " \t\n");
				if (p + len > end)
					len = (size_t)(end - p);
				if (len == ptr_len && !memcmp(p, ptr, len))
					return 1;
				if (!len)
					break;
				p += len;
			}
			return 0;
		}
		line = *end ? end + 1 : end;
	}
	return 0;
}

/* Does a kernel with this list (BPFRR_RT_CMDS_LIST's text) give the loaders what they need? */
static inline int bpfrr_rt_needs_met(const struct bpfrr_rt_need *needs, uint32_t nr, const char *list)
{
	uint32_t i;

	for (i = 0; i < nr; i++) {
		int has = bpfrr_rt_list_has(list, needs[i].cmd, needs[i].ptr);

		if (needs[i].ptr ? has != !!needs[i].in_blob : !has)
			return 0;
	}
	return 1;
}

#define BPFRR_RT_KERNEL_NOTES	"/sys/kernel/notes"

/* The running kernel's GNU build id in hex (the NT_GNU_BUILD_ID note of /sys/kernel/notes): 0 or -errno. */
static inline int bpfrr_rt_build_id(char *hex, size_t size)
{
	uint8_t *data = NULL;
	size_t len = 0, off = 0;
	int ret = bpfrr_rt_read_file(BPFRR_RT_KERNEL_NOTES, &data, &len);

	if (ret)
		return ret;
	ret = -ENOENT;
	while (off + 12 <= len) {
		uint32_t namesz, descsz, type, i;
		size_t name_at = off + 12, desc_at;

		memcpy(&namesz, data + off, 4);
		memcpy(&descsz, data + off + 4, 4);
		memcpy(&type, data + off + 8, 4);
		desc_at = name_at + ((namesz + 3) & ~3u);
		if (namesz > len || descsz > len || desc_at + descsz > len)
			break;
		if (type == 3 && namesz == 4 && !memcmp(data + name_at, "GNU", 4) && descsz && 2 * descsz < size) {
			for (i = 0; i < descsz; i++)
				snprintf(hex + 2 * i, 3, "%02x", data[desc_at + i]);
			ret = 0;
			break;
		}
		off = desc_at + ((descsz + 3) & ~3u);
	}
	free(data);
	return ret;
}

/* 0 if the running kernel suits the image, -EOPNOTSUPP if not, or -errno. */
static inline int bpfrr_rt_check_kernel(const struct bpfrr_rt_image *img)
{
	uint8_t *data = NULL, *text;
	size_t len = 0;
	int ret;

	if (img->build_id) {
		char hex[130];

		/* a signed image's values were fixed for one build: another gets ENOEXEC, before anything */
		ret = bpfrr_rt_build_id(hex, sizeof(hex));
		if (ret)
			return ret;
		if (strcmp(hex, img->build_id))
			return -ENOEXEC;
	}

	if (img->kernel == BPFRR_RT_KERNEL_ANY)
		return 0;
	ret = bpfrr_rt_read_file(BPFRR_RT_CMDS_LIST, &data, &len);
	if (ret == -ENOENT)
		return img->kernel == BPFRR_RT_KERNEL_STOCK ? 0 : -EOPNOTSUPP;
	if (ret)
		return ret;
	text = realloc(data, len + 1);
	if (!text) {
		free(data);
		return -ENOMEM;
	}
	text[len] = '\0';
	ret = bpfrr_rt_needs_met(img->needs, img->nr_needs, (const char *)text) ? 0 : -EOPNOTSUPP;
	free(text);
	return ret;
}

/* --- a whole image ------------------------------------------------------------------- */

static inline void bpfrr_rt_close(int *fds, uint32_t nr)
{
	uint32_t i;

	for (i = 0; i < nr; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = -1;
	}
}

/*
 * Rebuilds the state: the kernel's kind checked, the path slots opened,
 * the steps run in order.  On success fds[slot] holds every slot's fd and
 * 0 is returned.  On failure every fd is closed (fds[] all -1),
 * *failed_seq is the recorded seq of the failing call (0: no call failed:
 * the kernel's kind, a path, the kernel's BTF, the blob map or a loader's
 * load) and -errno is returned; if log is given, the verifier's log of a
 * refused loader or the kernel's log of a failed call with a log buffer is
 * copied there (NUL-terminated).
 */
static inline int bpfrr_rt_load(const struct bpfrr_rt_image *img, int *fds, uint64_t *failed_seq, char *log,
				uint32_t log_size)
{
	int32_t kfunc_btf_id = 0;
	uint32_t i;
	int ret = 0;

	*failed_seq = 0;
	if (log && log_size)
		log[0] = '\0';
	for (i = 0; i < img->nr_slots; i++)
		fds[i] = -1;
	ret = bpfrr_rt_check_kernel(img);
	if (ret)
		return ret;
	for (i = 0; i < img->nr_slots; i++) {
		if (!img->slots[i].path)
			continue;
		fds[i] = open(img->slots[i].path, (int)img->slots[i].open_flags | O_CLOEXEC);
		if (fds[i] < 0) {
			ret = -errno;
			goto fail;
		}
	}
	for (i = 0; i < img->nr_steps; i++) {
		if (img->steps[i].loader && img->steps[i].loader->nr_kfunc_calls) {
			kfunc_btf_id = bpfrr_rt_kfunc_btf_id(BPFRR_RT_PERF_KFUNC);
			if (kfunc_btf_id < 0) {
				ret = kfunc_btf_id;
				goto fail;
			}
			break;
		}
	}
	for (i = 0; i < img->nr_steps; i++) {
		const struct bpfrr_rt_step *s = &img->steps[i];

		if (s->loader) {
			ret = bpfrr_rt_run_loader(s->loader, kfunc_btf_id, fds, img->nr_slots, failed_seq, log,
						  log_size);
		} else {
			char *call_log = NULL;
			int64_t r = bpfrr_rt_exec_call(s->call, fds, log ? &call_log : NULL);

			ret = r < 0 ? (int)r : 0;
			if (ret)
				*failed_seq = s->call->seq;
			if (call_log && log && log_size)
				snprintf(log, log_size, "%s", call_log);
			free(call_log);
		}
		if (ret)
			goto fail;
	}
	return 0;
fail:
	bpfrr_rt_close(fds, img->nr_slots);
	return ret;
}

#endif /* BPFRR_HEADER_RUNTIME_H */

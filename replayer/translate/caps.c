// SPDX-License-Identifier: GPL-2.0-only
/*
 * caps.c - the kernel capabilities a plan depends on (see caps.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bpf_abi.h"
#include "caps.h"

/*
 * Pointer fields that a command has read through bpfptr_t ever since
 * bpf_sys_bpf() accepted it: a kernel that accepts the command from a
 * syscall program follows them into kernel memory, or the command would be
 * useless there.  (PROG_LOAD and MAP_UPDATE_ELEM: 5.14, BTF_LOAD: 5.14,
 * core_relos: 5.17, LINK_CREATE iter_info: 5.19.)
 */
static const struct {
	int cmd;
	const char *path;
} bpfptr_fields[] = {
	{ BPFRR_CMD_PROG_LOAD, "attr.insns" },
	{ BPFRR_CMD_PROG_LOAD, "attr.license" },
	{ BPFRR_CMD_PROG_LOAD, "attr.func_info" },
	{ BPFRR_CMD_PROG_LOAD, "attr.line_info" },
	{ BPFRR_CMD_PROG_LOAD, "attr.fd_array" },
	{ BPFRR_CMD_PROG_LOAD, "attr.core_relos" },
	{ BPFRR_CMD_BTF_LOAD, "attr.btf" },
	{ BPFRR_CMD_MAP_UPDATE_ELEM, "attr.key" },
	{ BPFRR_CMD_MAP_UPDATE_ELEM, "attr.value" },
	{ BPFRR_CMD_MAP_DELETE_ELEM, "attr.key" },
	{ BPFRR_CMD_LINK_CREATE, "attr.link_create.iter_info" },
};

void bpfrr_caps_init(struct bpfrr_caps *caps, uint64_t sys_bpf_cmds, const char *source)
{
	size_t i;

	memset(caps, 0, sizeof(*caps));
	snprintf(caps->source, sizeof(caps->source), "%s", source);
	caps->sys_bpf_cmds = sys_bpf_cmds;
	for (i = 0; i < sizeof(bpfptr_fields) / sizeof(bpfptr_fields[0]); i++)
		if (bpfrr_caps_cmd(caps, bpfptr_fields[i].cmd))
			bpfrr_caps_set_ptr(caps, bpfptr_fields[i].cmd, bpfptr_fields[i].path,
					   BPFRR_PTR_KERNEL, 0, "bpfptr_t");
}

int bpfrr_caps_set_ptr(struct bpfrr_caps *caps, int cmd, const char *path, enum bpfrr_ptr_sem sem,
		       int probe_ret, const char *basis)
{
	uint32_t i;

	for (i = 0; i < caps->nr_ptrs; i++)
		if (caps->ptrs[i].cmd == cmd && !strcmp(caps->ptrs[i].path, path))
			break;
	if (i == caps->nr_ptrs) {
		if (caps->nr_ptrs == BPFRR_CAPS_MAX_PTRS)
			return -E2BIG;
		if (strlen(path) >= sizeof(caps->ptrs[i].path))
			return -ENAMETOOLONG;
		caps->nr_ptrs++;
	}
	if (strlen(path) >= sizeof(caps->ptrs[i].path))
		return -ENAMETOOLONG;
	caps->ptrs[i].cmd = cmd;
	snprintf(caps->ptrs[i].path, sizeof(caps->ptrs[i].path), "%s", path);
	caps->ptrs[i].sem = sem;
	caps->ptrs[i].probe_ret = probe_ret;
	snprintf(caps->ptrs[i].basis, sizeof(caps->ptrs[i].basis), "%s", basis);
	return 0;
}

enum bpfrr_ptr_sem bpfrr_caps_ptr(const struct bpfrr_caps *caps, uint32_t cmd, const char *path)
{
	uint32_t i;

	for (i = 0; i < caps->nr_ptrs; i++)
		if (caps->ptrs[i].cmd == (int)cmd && !strcmp(caps->ptrs[i].path, path))
			return caps->ptrs[i].sem;
	return BPFRR_PTR_UNKNOWN;
}

int bpfrr_caps_assume(struct bpfrr_caps *caps, const char *name)
{
	if (!strcmp(name, "stock-6.12")) {
		uint64_t cmds = 0;
		int cmd;

		/* the commands 6.12's bpf_sys_bpf() accepts: their rows say so */
		for (cmd = 0; cmd < BPFRR_ABI_NR_CMDS; cmd++)
			if (bpfrr_abi_cmd(cmd)->flags & BPFRR_CMDF_SYS_BPF_612)
				cmds |= 1ull << cmd;
		bpfrr_caps_init(caps, cmds, "assumed: stock-6.12");
		/* u64_to_user_ptr() in 6.12: verifier.c bpf_check(), btf.c btf_new_fd(),
		 * syscall.c bpf_raw_tracepoint_open() */
		bpfrr_caps_set_ptr(caps, BPFRR_CMD_PROG_LOAD, "attr.log_buf", BPFRR_PTR_USER, 0, "6.12 source");
		bpfrr_caps_set_ptr(caps, BPFRR_CMD_BTF_LOAD, "attr.btf_log_buf", BPFRR_PTR_USER, 0, "6.12 source");
		bpfrr_caps_set_ptr(caps, BPFRR_CMD_RAW_TRACEPOINT_OPEN, "attr.raw_tracepoint.name",
				   BPFRR_PTR_USER, 0, "6.12 source");
		return 0;
	}
	if (!strcmp(name, "patched-6.12")) {
		char err[128];
		int ret = bpfrr_caps_parse_list(caps, BPFRR_CAPS_SERIES_LIST, "assumed: patched-6.12", err,
						sizeof(err));

		if (ret)
			return ret;
		/* log buffers stay user pointers on the patched kernel too */
		bpfrr_caps_set_ptr(caps, BPFRR_CMD_PROG_LOAD, "attr.log_buf", BPFRR_PTR_USER, 0, "kernel/ series");
		bpfrr_caps_set_ptr(caps, BPFRR_CMD_BTF_LOAD, "attr.btf_log_buf", BPFRR_PTR_USER, 0, "kernel/ series");
		caps->perf_event_open = true;
		caps->perf_event_open_btf_id = 0;	/* a kernel's own: only a plan can be made */
		return 0;
	}
	if (!strcmp(name, "none")) {
		bpfrr_caps_init(caps, 0, "assumed: none");
		return 0;
	}
	return -EINVAL;
}

int bpfrr_caps_parse_list(struct bpfrr_caps *caps, const char *text, const char *source, char *err,
			  size_t err_size)
{
	const char *line = text;
	int lineno;

	memset(caps, 0, sizeof(*caps));
	snprintf(caps->source, sizeof(caps->source), "%s", source);
	for (lineno = 1; *line; lineno++) {
		const char *end = strchr(line, '\n'), *p;
		char name[64], field[BPFRR_CAPS_PATH_MAX];
		int cmd, n = 0;

		if (!end) {
			snprintf(err, err_size, "line %d: no newline at its end", lineno);
			return -EINVAL;
		}
		if (sscanf(line, "%d %63s%n", &cmd, name, &n) != 2 || line + n > end ||
		    (line[n] != ' ' && line[n] != '\n') || cmd < 0 || cmd >= BPFRR_CAPS_MAX_CMDS) {
			snprintf(err, err_size, "line %d: not 'NUMBER NAME [POINTER...]' with a command "
				 "number below %d", lineno, BPFRR_CAPS_MAX_CMDS);
			return -EINVAL;
		}
		caps->sys_bpf_cmds |= 1ull << cmd;
		for (p = line + n; p < end;) {
			char path[BPFRR_CAPS_PATH_MAX + 8];
			size_t len;

			while (p < end && *p == ' ')
				p++;
			len = strcspn(p, " \n");
			if (!len)
				break;
			if (len >= sizeof(field) - 5) {
				snprintf(err, err_size, "line %d: pointer name too long", lineno);
				return -EINVAL;
			}
			memcpy(field, p, len);
			field[len] = '\0';
			snprintf(path, sizeof(path), "attr.%s", field);
			if (bpfrr_caps_set_ptr(caps, cmd, path, BPFRR_PTR_KERNEL, 0, "kernel's list")) {
				snprintf(err, err_size, "line %d: too many pointers", lineno);
				return -E2BIG;
			}
			p += len;
		}
		line = end + 1;
	}
	return 0;
}

static const char *sem_name(uint8_t sem)
{
	switch (sem) {
	case BPFRR_PTR_KERNEL: return "kernel";
	case BPFRR_PTR_USER: return "user";
	}
	return "unknown";
}

void bpfrr_caps_print(const struct bpfrr_caps *caps, FILE *out)
{
	uint32_t cmd, i;
	int n = 0;

	fprintf(out, "kernel capabilities (%s):\n  bpf_sys_bpf accepts:", caps->source);
	for (cmd = 0; cmd < BPFRR_CAPS_MAX_CMDS; cmd++) {
		const char *name;

		if (!bpfrr_caps_cmd(caps, cmd))
			continue;
		name = bpfrr_abi_cmd_name(cmd);
		fprintf(out, "%s%s", n++ % 4 ? " " : "\n    ", name ? name : "?");
	}
	fprintf(out, "%s\n  pointers in attrs from syscall programs (kernel: may address the blob; user: must be\n"
		"  a user address; unknown: the call stays in user space):\n", n ? "" : " nothing");
	for (i = 0; i < caps->nr_ptrs; i++) {
		const char *name = bpfrr_abi_cmd_name(caps->ptrs[i].cmd);

		fprintf(out, "    %-23s %-28s %-7s (%s", name ? name : "?", caps->ptrs[i].path,
			sem_name(caps->ptrs[i].sem), caps->ptrs[i].basis);
		if (caps->ptrs[i].probe_ret)
			fprintf(out, ": %s", strerror(-caps->ptrs[i].probe_ret));
		fprintf(out, ")\n");
	}
	if (caps->perf_event_open && caps->perf_event_open_btf_id > 0)
		fprintf(out, "  perf_event_open from syscall programs: yes (kfunc bpf_perf_event_open, vmlinux BTF id %d%s%s)\n",
			caps->perf_event_open_btf_id, caps->perf_event_open_basis[0] ? ", from the " : "",
			caps->perf_event_open_basis);
	else if (caps->perf_event_open_unknown)
		fprintf(out, "  perf_event_open from syscall programs: not looked up (nothing to open)\n");
	else if (caps->perf_event_open)
		fprintf(out, "  perf_event_open from syscall programs: yes (kfunc bpf_perf_event_open, BTF id not known)\n");
	else
		fprintf(out, "  perf_event_open from syscall programs: no\n");
	if (caps->origin != BPFRR_CAPS_ASSUMED)
		fprintf(out, "  found in %.3f ms: %s%s%s%s\n", caps->probe_ns / 1e6, bpfrr_caps_origin_desc(caps->origin),
			caps->cache[0] ? " (" : "", caps->cache, caps->cache[0] ? ")" : "");
	if (caps->origin != BPFRR_CAPS_ASSUMED && caps->cache_note[0])
		fprintf(out, "  cache: %s\n", caps->cache_note);
}

const char *bpfrr_caps_origin_desc(uint8_t origin)
{
	switch (origin) {
	case BPFRR_CAPS_FROM_LIST: return "from the kernel's list, no probe program";
	case BPFRR_CAPS_FROM_PROBE: return "probed with syscall programs";
	case BPFRR_CAPS_FROM_CACHE: return "from this boot's cache of a probe";
	}
	return "assumed";
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf_abi.c - walkers over the bpf() ABI table (bpf_abi_table.c): the
 * buffers a call reads and writes, the fds it passes in, and its fields.
 *
 * Nothing here knows a command by its layout: every length, fd and
 * direction comes from the table. The only code per concept is how a
 * length rule is evaluated and how instructions refer to fds.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bpf_abi_int.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PATH_MAX_LEN 256
/* biggest described struct (bpf_prog_info) rounded up */
#define STRUCT_MAX 256
#define INSN_SIZE 8
#define INSN_CHUNK 4096

/* --- table access --------------------------------------------------------------- */

const char *bpfrr_abi_cmd_name(int cmd)
{
	if (cmd < 0 || cmd >= BPFRR_ABI_NR_CMDS)
		return NULL;
	return bpfrr_xlat_cmd.dense[cmd];
}

int bpfrr_abi_cmd_by_name(const char *name)
{
	for (int cmd = 0; cmd < BPFRR_ABI_NR_CMDS; cmd++) {
		const char *full = bpfrr_abi_cmd_name(cmd);

		if (!strcasecmp(name, full) || !strcasecmp(name, full + 4))
			return cmd;
	}
	return -1;
}

uint32_t bpfrr_abi_cmd_variant_env(int cmd, const void *attr, size_t attr_size,
				   const struct bpfrr_abi_env *env)
{
	const struct bpfrr_cmd_desc *d = bpfrr_abi_cmd(cmd);

	if (!d || !d->variant)
		return 0;
	return d->variant(attr, attr_size, env);
}

uint32_t bpfrr_abi_cmd_variant(int cmd, const void *attr, size_t attr_size)
{
	return bpfrr_abi_cmd_variant_env(cmd, attr, attr_size, NULL);
}

enum bpfrr_obj_kind bpfrr_abi_cmd_ret_kind(int cmd, const void *attr, size_t attr_size)
{
	const struct bpfrr_cmd_desc *d = bpfrr_abi_cmd(cmd);

	(void)attr;
	(void)attr_size;
	return d ? (enum bpfrr_obj_kind)d->ret_kind : BPFRR_OBJ_NONE;
}

bool bpfrr_abi_field_applies(const struct bpfrr_field *f, uint32_t variant)
{
	return (f->variants & ~variant) == 0;
}

uint64_t bpfrr_abi_field_get(const struct bpfrr_field *f, const void *base, size_t size)
{
	const unsigned char *p = (const unsigned char *)base + f->offset;
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	if (!base || (size_t)f->offset + f->size > size)
		return 0;
	switch (f->size) {
	case 1:
		memcpy(&v8, p, 1);
		return f->kind == BPFRR_FIELD_INT ? (uint64_t)(int64_t)(int8_t)v8 : v8;
	case 2:
		memcpy(&v16, p, 2);
		return f->kind == BPFRR_FIELD_INT ? (uint64_t)(int64_t)(int16_t)v16 : v16;
	case 4:
		memcpy(&v32, p, 4);
		return f->kind == BPFRR_FIELD_INT ? (uint64_t)(int64_t)(int32_t)v32 : v32;
	case 8:
		memcpy(&v64, p, 8);
		return v64;
	default:
		return 0;
	}
}

/* The field called name that applies in variant, or NULL. */
static const struct bpfrr_field *desc_field(const struct bpfrr_struct_desc *d, const char *name,
					    uint32_t variant)
{
	if (!name)
		return NULL;
	for (unsigned int i = 0; i < d->nr_fields; i++)
		if (d->fields[i].name && !strcmp(d->fields[i].name, name) &&
		    bpfrr_abi_field_applies(&d->fields[i], variant))
			return &d->fields[i];
	return NULL;
}

const struct bpfrr_field *bpfrr_abi_cmd_field(int cmd, const char *name)
{
	const struct bpfrr_cmd_desc *d = bpfrr_abi_cmd(cmd);

	if (!d || !name)
		return NULL;
	for (unsigned int i = 0; i < d->attr->nr_fields; i++)
		if (d->attr->fields[i].name && !strcmp(d->attr->fields[i].name, name))
			return &d->attr->fields[i];
	return NULL;
}

bool bpfrr_abi_kernel_btf_id(int cmd, const struct bpfrr_field *f, const void *attr, size_t attr_size,
			     const struct bpfrr_abi_env *env, int *module_fd)
{
	const struct bpfrr_cmd_desc *d = bpfrr_abi_cmd(cmd);
	const struct bpfrr_field *of, *flag;
	uint32_t variant;

	*module_fd = -1;
	if (!d || !(f->flags & BPFRR_FIELDF_KERNEL_BTF) || !bpfrr_abi_field_get(f, attr, attr_size))
		return false;
	variant = bpfrr_abi_cmd_variant_env(cmd, attr, attr_size, env);
	if (!bpfrr_abi_field_applies(f, variant))
		return false;
	if (!f->btf_obj_field)
		return true;
	of = desc_field(d->attr, f->btf_obj_field, variant);
	if (!of) {
		/* its bytes name another object this call (attach_prog_fd): the id is in its BTF */
		of = bpfrr_abi_cmd_field(cmd, f->btf_obj_field);
		return !of || !bpfrr_abi_field_get(of, attr, attr_size);
	}
	if (of->flags & BPFRR_FIELDF_NEEDS_FLAG) {
		flag = desc_field(d->attr, of->flag_field, variant);
		if (!flag || !(bpfrr_abi_field_get(flag, attr, attr_size) & of->flag_mask))
			return true;
	}
	if ((of->flags & BPFRR_FIELDF_FD_OPTIONAL) && !bpfrr_abi_field_get(of, attr, attr_size))
		return true;
	*module_fd = (int)bpfrr_abi_field_get(of, attr, attr_size);
	return true;
}

const struct bpfrr_field *bpfrr_abi_fd_gate(int cmd, const struct bpfrr_field *f, const void *attr,
					    size_t attr_size, const struct bpfrr_abi_env *env)
{
	const struct bpfrr_cmd_desc *d = bpfrr_abi_cmd(cmd);
	const struct bpfrr_field *flag;
	uint32_t variant;

	if (!d || f->kind != BPFRR_FIELD_FD || !(f->flags & BPFRR_FIELDF_NEEDS_FLAG))
		return NULL;
	variant = bpfrr_abi_cmd_variant_env(cmd, attr, attr_size, env);
	flag = desc_field(d->attr, f->flag_field, variant);
	if (!flag || bpfrr_abi_field_get(flag, attr, attr_size) & f->flag_mask)
		return NULL;
	return flag;
}

/* the one program type for which attach type 0 means something: BPF_CGROUP_INET_INGRESS */
#define PROG_TYPE_CGROUP_SKB	8

bool bpfrr_abi_attach_type_none(int cmd, const struct bpfrr_field *f, uint64_t value, const void *attr,
				size_t attr_size, const struct bpfrr_abi_env *env)
{
	const struct bpfrr_cmd_desc *d = bpfrr_abi_cmd(cmd);
	const struct bpfrr_field *pf;
	enum bpfrr_obj_kind kind;
	uint32_t prog_type;

	if (!d || value || f->xlat != &bpfrr_xlat_attach_type)
		return false;
	if (d->makes.type && !strcmp(d->makes.type, "prog_type")) {
		/* BPF_PROG_LOAD: expected_attach_type, next to the program's type */
		pf = bpfrr_abi_cmd_field(cmd, "prog_type");
		if (!pf || (size_t)pf->offset + pf->size > attr_size)
			return false;
		prog_type = (uint32_t)bpfrr_abi_field_get(pf, attr, attr_size);
	} else {
		/* attaching: the program is behind the fd the command acts on (a link's: its prog_fd) */
		pf = bpfrr_abi_cmd_field(cmd, d->acts_on ? d->acts_on : "link_create.prog_fd");
		if (!pf || pf->kind != BPFRR_FIELD_FD || !env || !env->fd_info ||
		    env->fd_info(env->ctx, (int)bpfrr_abi_field_get(pf, attr, attr_size), &kind, &prog_type, NULL,
				 NULL) || kind != BPFRR_OBJ_PROG)
			return false;
	}
	return prog_type != PROG_TYPE_CGROUP_SKB;
}

bool bpfrr_abi_cmd_made(int cmd, const void *attr, size_t attr_len, struct bpfrr_abi_made *m)
{
	const struct bpfrr_cmd_desc *d = bpfrr_abi_cmd(cmd);
	const struct bpfrr_field *f;

	memset(m, 0, sizeof(*m));
	if (!d)
		return false;
	if ((f = bpfrr_abi_cmd_field(cmd, d->makes.type))) {
		m->obj_type = (uint32_t)bpfrr_abi_field_get(f, attr, attr_len);
		m->has_type = true;
	}
	if (d->makes.key_size && d->makes.value_size) {
		if ((f = bpfrr_abi_cmd_field(cmd, d->makes.key_size)))
			m->key_size = (uint32_t)bpfrr_abi_field_get(f, attr, attr_len);
		if ((f = bpfrr_abi_cmd_field(cmd, d->makes.value_size)))
			m->value_size = (uint32_t)bpfrr_abi_field_get(f, attr, attr_len);
		m->has_sizes = true;
	}
	if ((f = bpfrr_abi_cmd_field(cmd, d->makes.value_type))) {
		const struct bpfrr_field *obj = f->btf_obj_field ? bpfrr_abi_cmd_field(cmd, f->btf_obj_field) : NULL;

		m->value_type = (uint32_t)bpfrr_abi_field_get(f, attr, attr_len);
		m->value_type_module = obj && bpfrr_abi_field_get(obj, attr, attr_len);
	}
	if ((f = bpfrr_abi_cmd_field(cmd, d->makes.name)) && (size_t)f->offset + f->size <= attr_len) {
		size_t n = f->size < BPFRR_ABI_OBJ_NAME_LEN ? f->size : BPFRR_ABI_OBJ_NAME_LEN;

		memcpy(m->name, (const uint8_t *)attr + f->offset, n);
		m->name[n] = '\0';
		m->has_name = true;
	}
	return m->has_type || m->has_sizes || m->has_name;
}

/* Value of the sibling field name (0 if absent or beyond size); *present says which. */
static uint64_t sibling(const struct bpfrr_struct_desc *d, const char *name, uint32_t variant,
			const void *base, size_t size, bool *present)
{
	const struct bpfrr_field *f = desc_field(d, name, variant);
	bool ok = f && base && (size_t)f->offset + f->size <= size;

	if (present)
		*present = ok;
	return ok ? bpfrr_abi_field_get(f, base, size) : 0;
}

/* --- names ------------------------------------------------------------------------- */

const char *bpfrr_abi_obj_kind_name(enum bpfrr_obj_kind kind)
{
	static const char *const names[] = {
		[BPFRR_OBJ_NONE] = "none", [BPFRR_OBJ_MAP] = "map", [BPFRR_OBJ_PROG] = "prog",
		[BPFRR_OBJ_BTF] = "btf", [BPFRR_OBJ_LINK] = "link", [BPFRR_OBJ_CGROUP] = "cgroup",
		[BPFRR_OBJ_PERF_EVENT] = "perf_event", [BPFRR_OBJ_NETNS] = "netns",
		[BPFRR_OBJ_ANY] = "any", [BPFRR_OBJ_TOKEN] = "token", [BPFRR_OBJ_SOCKET] = "socket",
		[BPFRR_OBJ_DIR] = "dir", [BPFRR_OBJ_PIDFD] = "pidfd", [BPFRR_OBJ_DEVICE] = "device",
		[BPFRR_OBJ_ITER] = "iter", [BPFRR_OBJ_STATS] = "stats",
	};
	_Static_assert(ARRAY_SIZE(names) == BPFRR_OBJ__MAX, "one name per object kind");

	return (unsigned int)kind < ARRAY_SIZE(names) ? names[kind] : NULL;
}

const char *bpfrr_abi_content_name(enum bpfrr_abi_content content)
{
	static const char *const names[] = {
		[BPFRR_CONTENT_NONE] = "none", [BPFRR_CONTENT_BYTES] = "bytes",
		[BPFRR_CONTENT_STRING] = "string", [BPFRR_CONTENT_PATH] = "path",
		[BPFRR_CONTENT_LOG] = "log", [BPFRR_CONTENT_INSNS] = "insns",
		[BPFRR_CONTENT_JITED] = "jited", [BPFRR_CONTENT_BTF] = "btf",
		[BPFRR_CONTENT_FUNC_INFO] = "func_info", [BPFRR_CONTENT_LINE_INFO] = "line_info",
		[BPFRR_CONTENT_CORE_RELOS] = "core_relos", [BPFRR_CONTENT_FD_ARRAY] = "fd_array",
		[BPFRR_CONTENT_KEY] = "key", [BPFRR_CONTENT_VALUE] = "value",
		[BPFRR_CONTENT_KEYS] = "keys", [BPFRR_CONTENT_VALUES] = "values",
		[BPFRR_CONTENT_BATCH_TOKEN] = "batch_token", [BPFRR_CONTENT_CTX] = "ctx",
		[BPFRR_CONTENT_DATA] = "data", [BPFRR_CONTENT_PROG_INFO] = "prog_info",
		[BPFRR_CONTENT_MAP_INFO] = "map_info", [BPFRR_CONTENT_BTF_INFO] = "btf_info",
		[BPFRR_CONTENT_LINK_INFO] = "link_info", [BPFRR_CONTENT_INFO] = "info",
		[BPFRR_CONTENT_IDS] = "ids", [BPFRR_CONTENT_U32_ARRAY] = "u32_array",
		[BPFRR_CONTENT_U64_ARRAY] = "u64_array", [BPFRR_CONTENT_PTR_ARRAY] = "ptr_array",
		[BPFRR_CONTENT_PROG_TAGS] = "prog_tags", [BPFRR_CONTENT_ITER_INFO] = "iter_info",
		[BPFRR_CONTENT_NAME] = "name", [BPFRR_CONTENT_TAG] = "tag",
		[BPFRR_CONTENT_IFINDEX] = "ifindex", [BPFRR_CONTENT_BTF_ID] = "btf_id",
		[BPFRR_CONTENT_OBJ_ID] = "obj_id", [BPFRR_CONTENT_SIGNATURE] = "signature",
		[BPFRR_CONTENT_SHA256] = "sha256", [BPFRR_CONTENT_COMMON_ATTR] = "common_attr",
		[BPFRR_CONTENT_NETLINK] = "netlink",
	};
	_Static_assert(ARRAY_SIZE(names) == BPFRR_CONTENT__MAX, "one name per content");

	return (unsigned int)content < ARRAY_SIZE(names) ? names[content] : NULL;
}

const char *bpfrr_abi_dir_name(enum bpfrr_dir dir)
{
	switch (dir) {
	case BPFRR_DIR_IN:
		return "in";
	case BPFRR_DIR_OUT:
		return "out";
	case BPFRR_DIR_INOUT:
		return "inout";
	}
	return NULL;
}

const char *bpfrr_abi_xlat_name(const struct bpfrr_xlat *xlat, uint64_t val)
{
	if (!xlat)
		return NULL;
	if (xlat->dense && val < xlat->nr_dense)
		return xlat->dense[val];
	for (const struct bpfrr_xlat_entry *e = xlat->entries; e && e->name; e++)
		if (e->val == val)
			return e->name;
	return NULL;
}

int bpfrr_abi_xlat_value(const struct bpfrr_xlat *xlat, const char *name, uint64_t *val)
{
	if (!xlat || !name)
		return -1;
	for (unsigned int i = 0; xlat->dense && i < xlat->nr_dense; i++)
		if (xlat->dense[i] && !strcmp(xlat->dense[i], name)) {
			*val = i;
			return 0;
		}
	for (const struct bpfrr_xlat_entry *e = xlat->entries; e && e->name; e++)
		if (!strcmp(e->name, name)) {
			*val = e->val;
			return 0;
		}
	return -1;
}

/* snprintf that appends at *pos and keeps counting past the end */
static void append(char *buf, size_t size, size_t *pos, const char *fmt, const char *s, uint64_t v)
{
	char *at = *pos < size ? buf + *pos : NULL;
	size_t room = *pos < size ? size - *pos : 0;
	int n = s ? snprintf(at, room, fmt, s) : snprintf(at, room, fmt, v);

	if (n > 0)
		*pos += (size_t)n;
}

int bpfrr_abi_xlat_format(const struct bpfrr_xlat *xlat, uint64_t val, char *buf, size_t size)
{
	size_t pos = 0;
	const char *name;

	if (size)
		buf[0] = '\0';
	if (xlat && xlat->flags) {
		uint64_t rest = val;

		if (!val) {
			name = bpfrr_abi_xlat_name(xlat, 0);
			append(buf, size, &pos, "%s", name ? name : "0", 0);
			return (int)pos;
		}
		for (const struct bpfrr_xlat_entry *e = xlat->entries; e && e->name; e++) {
			if (!e->val || (rest & e->val) != e->val)
				continue;
			append(buf, size, &pos, pos ? "|%s" : "%s", e->name, 0);
			rest &= ~e->val;
		}
		if (rest)
			append(buf, size, &pos, pos ? "|%#" PRIx64 : "%#" PRIx64, NULL, rest);
		return (int)pos;
	}
	name = xlat && xlat->name_fn ? xlat->name_fn(val) : NULL;
	if (!name)
		name = bpfrr_abi_xlat_name(xlat, val);
	if (name)
		append(buf, size, &pos, "%s", name, 0);
	else
		append(buf, size, &pos, "%" PRIu64, NULL, val);
	return (int)pos;
}

/* --- maps ---------------------------------------------------------------------------- */

bool bpfrr_abi_map_is_percpu(uint32_t map_type)
{
	return map_type == ABI_MAP_TYPE_PERCPU_HASH || map_type == ABI_MAP_TYPE_PERCPU_ARRAY ||
	       map_type == ABI_MAP_TYPE_LRU_PERCPU_HASH ||
	       map_type == ABI_MAP_TYPE_PERCPU_CGROUP_STORAGE;
}

uint64_t bpfrr_abi_map_value_len(uint32_t map_type, uint32_t value_size, unsigned int nr_cpus)
{
	if (!bpfrr_abi_map_is_percpu(map_type))
		return value_size;
	return (((uint64_t)value_size + 7) & ~(uint64_t)7) * nr_cpus;
}

enum bpfrr_obj_kind bpfrr_abi_map_value_fd(uint32_t map_type, uint32_t value_size, uint32_t *offset)
{
	*offset = 0;
	switch (map_type) {
	case ABI_MAP_TYPE_PROG_ARRAY:
		return BPFRR_OBJ_PROG;
	case ABI_MAP_TYPE_PERF_EVENT_ARRAY:
		return BPFRR_OBJ_PERF_EVENT;
	case ABI_MAP_TYPE_CGROUP_ARRAY:
		return BPFRR_OBJ_CGROUP;
	case ABI_MAP_TYPE_ARRAY_OF_MAPS:
	case ABI_MAP_TYPE_HASH_OF_MAPS:
		return BPFRR_OBJ_MAP;
	case ABI_MAP_TYPE_SOCKMAP:
	case ABI_MAP_TYPE_SOCKHASH:
	case ABI_MAP_TYPE_XSKMAP:
	case ABI_MAP_TYPE_REUSEPORT_SOCKARRAY:
		return BPFRR_OBJ_SOCKET;
	case ABI_MAP_TYPE_DEVMAP:
	case ABI_MAP_TYPE_DEVMAP_HASH:
	case ABI_MAP_TYPE_CPUMAP:
		/* struct bpf_devmap_val / bpf_cpumap_val: { u32 ifindex or qsize; bpf_prog.fd } */
		if (value_size < 8)
			return BPFRR_OBJ_NONE;
		*offset = 4;
		return BPFRR_OBJ_PROG;
	default:
		return BPFRR_OBJ_NONE;
	}
}

/* Only fds > 0 count in devmap/cpumap values; 0 and -1 mean "no program". */
static bool map_value_fd_optional(uint32_t map_type)
{
	return map_type == ABI_MAP_TYPE_DEVMAP || map_type == ABI_MAP_TYPE_DEVMAP_HASH ||
	       map_type == ABI_MAP_TYPE_CPUMAP;
}

static bool map_is_hash(uint32_t map_type)
{
	return map_type == ABI_MAP_TYPE_HASH || map_type == ABI_MAP_TYPE_PERCPU_HASH ||
	       map_type == ABI_MAP_TYPE_LRU_HASH || map_type == ABI_MAP_TYPE_LRU_PERCPU_HASH ||
	       map_type == ABI_MAP_TYPE_HASH_OF_MAPS;
}

/* --- instructions -------------------------------------------------------------------- */

struct insn {
	uint8_t code;
	uint8_t regs;	/* dst_reg:4 (low nibble on little-endian), src_reg:4 */
	int16_t off;
	int32_t imm;
};

#define BPF_LD_IMM64_CODE 0x18	/* BPF_LD | BPF_IMM | BPF_DW */
#define BPF_CALL_CODE 0x85	/* BPF_JMP | BPF_CALL */

static unsigned int insn_src(const struct insn *in)
{
	return in->regs >> 4;
}

/*
 * Scan cnt insns; insns[cnt] may be read as the second half of an ld_imm64
 * at cnt - 1 if have_next. *skip_first: the first insn is the second half
 * of an ld_imm64 from the previous chunk (in/out).
 */
static int scan_insns(const struct insn *insns, size_t cnt, bool have_next, size_t base,
		      bool *skip_first, bpfrr_insn_ref_cb cb, void *arg, uint32_t *fd_array_cnt)
{
	struct bpfrr_insn_ref ref;
	size_t i = *skip_first ? 1 : 0;
	int err;

	*skip_first = false;
	for (; i < cnt; i++) {
		const struct insn *in = &insns[i];
		bool wide = in->code == BPF_LD_IMM64_CODE;

		memset(&ref, 0, sizeof(ref));
		ref.insn_idx = (int)(base + i);
		ref.byte_offset = (uint32_t)((base + i) * INSN_SIZE + 4);
		ref.value = in->imm;
		if (wide) {
			const struct insn *hi = i + 1 < cnt || have_next ? &insns[i + 1] : NULL;

			switch (insn_src(in)) {
			case ABI_PSEUDO_MAP_FD:
				ref.type = BPFRR_INSN_MAP_FD;
				break;
			case ABI_PSEUDO_MAP_VALUE:
				ref.type = BPFRR_INSN_MAP_VALUE;
				break;
			case ABI_PSEUDO_MAP_IDX:
				ref.type = BPFRR_INSN_MAP_IDX;
				break;
			case ABI_PSEUDO_MAP_IDX_VALUE:
				ref.type = BPFRR_INSN_MAP_IDX_VALUE;
				break;
			case ABI_PSEUDO_BTF_ID:
				/* 2nd imm: fd of the module BTF holding the ksym, 0 for vmlinux */
				if (!hi || !hi->imm)
					goto next_wide;
				ref.type = BPFRR_INSN_BTF_ID_MODULE;
				ref.byte_offset += INSN_SIZE;
				ref.value = hi->imm;
				break;
			default:
				goto next_wide;
			}
			if ((ref.type == BPFRR_INSN_MAP_IDX || ref.type == BPFRR_INSN_MAP_IDX_VALUE) &&
			    ref.value >= 0 && fd_array_cnt && (uint32_t)ref.value + 1 > *fd_array_cnt)
				*fd_array_cnt = (uint32_t)ref.value + 1;
			if (cb && (err = cb(arg, &ref)))
				return err;
next_wide:
			if (i + 1 < cnt)
				i++;
			else
				*skip_first = true;
			continue;
		}
		if (in->code == BPF_CALL_CODE && insn_src(in) == ABI_PSEUDO_KFUNC_CALL && in->off) {
			/* kfunc in a module: off indexes fd_array for the module's BTF fd */
			ref.type = BPFRR_INSN_KFUNC_FD_IDX;
			ref.byte_offset = (uint32_t)((base + i) * INSN_SIZE + 2);
			ref.value = in->off;
			if (ref.value > 0 && fd_array_cnt && (uint32_t)ref.value + 1 > *fd_array_cnt)
				*fd_array_cnt = (uint32_t)ref.value + 1;
			if (cb && (err = cb(arg, &ref)))
				return err;
		}
	}
	return 0;
}

int bpfrr_abi_insn_refs(const void *insns, size_t insn_cnt, bpfrr_insn_ref_cb cb, void *arg,
			uint32_t *fd_array_cnt)
{
	bool skip = false;

	if (fd_array_cnt)
		*fd_array_cnt = 0;
	return scan_insns(insns, insn_cnt, false, 0, &skip, cb, arg, fd_array_cnt);
}

/*
 * Scan the tracee's insns in chunks through read_mem (a program may be
 * 1M insns). Unreadable memory ends the scan with *complete false (the
 * kernel would fail such a call with EFAULT). Returns 0, a cb result, or
 * -ENOMEM.
 */
static int scan_tracee_insns(const struct bpfrr_abi_env *env, uint64_t addr, uint64_t cnt,
			     bpfrr_insn_ref_cb cb, void *arg, uint32_t *fd_array_cnt, bool *complete)
{
	struct insn *chunk;
	bool skip = false;
	int err = 0;

	*fd_array_cnt = 0;
	*complete = false;
	if (!env || !env->read_mem)
		return 0;
	if (cnt > BPFRR_ABI_BUF_MAX / INSN_SIZE)
		cnt = BPFRR_ABI_BUF_MAX / INSN_SIZE;
	chunk = malloc((INSN_CHUNK + 1) * sizeof(*chunk));
	if (!chunk)
		return -ENOMEM;
	for (uint64_t base = 0; base < cnt && !err; base += INSN_CHUNK) {
		uint64_t n = cnt - base < INSN_CHUNK ? cnt - base : INSN_CHUNK;
		bool have_next = base + n < cnt;

		if (env->read_mem(env->ctx, addr + base * INSN_SIZE, chunk,
				  (n + (have_next ? 1 : 0)) * INSN_SIZE)) {
			free(chunk);
			return 0;
		}
		err = scan_insns(chunk, n, have_next, base, &skip, cb, arg, fd_array_cnt);
	}
	free(chunk);
	*complete = !err;
	return err;
}

/* --- length rules ---------------------------------------------------------------------- */

struct map_facts {
	bool known;
	uint32_t type, key_size, value_size;
};

static struct map_facts map_facts(const struct bpfrr_abi_env *env, uint64_t fd)
{
	struct map_facts m = { 0 };
	enum bpfrr_obj_kind kind = BPFRR_OBJ_NONE;

	if (env && env->fd_info &&
	    !env->fd_info(env->ctx, (int)fd, &kind, &m.type, &m.key_size, &m.value_size) &&
	    kind == BPFRR_OBJ_MAP)
		m.known = true;
	return m;
}

/* One struct being walked: the current bytes, and those at entry (capacities). */
struct view {
	const struct bpfrr_struct_desc *desc;
	const void *cur;
	size_t cur_size;
	const void *ent;	/* == cur at ENTRY, or when the entry copy is unknown */
	size_t ent_size;
	uint32_t variant;
};

struct walk {
	enum bpfrr_phase phase;
	const struct bpfrr_abi_env *env;
	bpfrr_abi_buf_cb cb;
	void *arg;
};

static uint64_t cap_len(uint64_t want, unsigned int *flags, uint64_t cap)
{
	if (want > cap) {
		*flags |= BPFRR_ABI_BUF_TRUNCATED;
		return cap;
	}
	return want;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * Length of a NUL-terminated string at addr, NUL included, reading at most
 * max bytes. Sets NO_NUL when none is found (or memory ends first).
 */
static uint64_t cstr_len(const struct bpfrr_abi_env *env, uint64_t addr, uint64_t max,
			 unsigned int *flags)
{
	char chunk[4096];
	uint64_t done = 0;

	if (!env || !env->read_mem) {
		*flags |= BPFRR_ABI_BUF_LEN_UNKNOWN;
		return 0;
	}
	while (done < max) {
		size_t n = (size_t)min_u64(sizeof(chunk), max - done);
		char *nul;

		/* a string may end just before unmapped memory: shrink the read */
		while (n && env->read_mem(env->ctx, addr + done, chunk, n))
			n /= 2;
		if (!n)
			break;
		nul = memchr(chunk, '\0', n);
		if (nul)
			return done + (uint64_t)(nul - chunk) + 1;
		done += n;
	}
	*flags |= BPFRR_ABI_BUF_NO_NUL;
	return done;
}

/* Capacity in elements (or bytes) of field f's buffer, from the entry copy,
 * and what the kernel reports at exit; min of the two is what it wrote. */
static uint64_t counted_len(const struct walk *w, const struct view *v, const struct bpfrr_field *f,
			    uint64_t *out_count, bool *have_out)
{
	uint64_t cap = sibling(v->desc, f->len_field, v->variant, v->ent, v->ent_size, NULL);

	*have_out = false;
	*out_count = 0;
	if (w->phase == BPFRR_PHASE_EXIT && f->out_len_field) {
		*out_count = sibling(v->desc, f->out_len_field, v->variant, v->cur, v->cur_size,
				     have_out);
		if (*have_out && (f->flags & BPFRR_FIELDF_OUT_LEN_PLUS_NUL))
			*out_count += 1;
	}
	return cap;
}

/* How many bytes of field f's buffer (at addr) to yield; sets flags and elem_size. */
static uint64_t buf_len(const struct walk *w, const struct view *v, const struct bpfrr_field *f,
			uint64_t addr, unsigned int *flags, uint32_t *elem_size, uint64_t *want_out)
{
	bool exit = w->phase == BPFRR_PHASE_EXIT;
	uint64_t want = 0, count, out, rec;
	bool have_out;
	struct map_facts m;

	*elem_size = 0;
	switch (f->len_rule) {
	case BPFRR_LEN_FIXED:
		want = f->len_mult;
		break;
	case BPFRR_LEN_FIELD:
	case BPFRR_LEN_INFO:
		count = counted_len(w, v, f, &out, &have_out);
		if (have_out)
			count = (f->flags & BPFRR_FIELDF_ZERO_CAP_UNLIMITED) && !count ?
				out : min_u64(count, out);
		else if (exit && (f->content == BPFRR_CONTENT_LOG || f->content == BPFRR_CONTENT_STRING ||
				  f->content == BPFRR_CONTENT_PATH)) {
			/* text the kernel NUL-terminates: read up to the NUL, within capacity */
			want = cstr_len(w->env, addr, min_u64(count, BPFRR_ABI_BUF_MAX), flags);
			*flags &= ~(unsigned int)BPFRR_ABI_BUF_NO_NUL;
			*want_out = want;
			return want;
		}
		*elem_size = f->len_mult > 1 ? f->len_mult : 0;
		want = count * (f->len_rule == BPFRR_LEN_INFO ? 1 : f->len_mult);
		break;
	case BPFRR_LEN_FIELD_REC:
		count = counted_len(w, v, f, &out, &have_out);
		if (have_out)
			count = min_u64(count, out);
		/* record sizes: the kernel's (exit) if it set one, else the caller's */
		rec = sibling(v->desc, f->rec_field, v->variant, v->cur, v->cur_size, NULL);
		if (!rec)
			rec = sibling(v->desc, f->rec_field, v->variant, v->ent, v->ent_size, NULL);
		*elem_size = (uint32_t)rec;
		want = count * rec;
		break;
	case BPFRR_LEN_CSTR:
		want = cstr_len(w->env, addr, BPFRR_ABI_STR_MAX, flags);
		*want_out = want;
		return want;
	case BPFRR_LEN_MAP_KEY:
	case BPFRR_LEN_MAP_VALUE:
	case BPFRR_LEN_MAP_KEYS:
	case BPFRR_LEN_MAP_VALUES:
	case BPFRR_LEN_BATCH_TOKEN:
		m = map_facts(w->env, sibling(v->desc, f->map_field, v->variant, v->cur, v->cur_size,
					      NULL));
		if (!m.known) {
			*flags |= BPFRR_ABI_BUF_LEN_UNKNOWN;
			*want_out = 0;
			return 0;
		}
		if (f->len_rule == BPFRR_LEN_BATCH_TOKEN) {
			want = map_is_hash(m.type) ? 4 : m.key_size;
			break;
		}
		if (f->len_rule == BPFRR_LEN_MAP_KEY || f->len_rule == BPFRR_LEN_MAP_KEYS) {
			*elem_size = m.key_size;
		} else {
			if (bpfrr_abi_map_is_percpu(m.type) && !(w->env && w->env->nr_cpus)) {
				*flags |= BPFRR_ABI_BUF_LEN_UNKNOWN;
				*want_out = 0;
				return 0;
			}
			*elem_size = (uint32_t)min_u64(
				bpfrr_abi_map_value_len(m.type, m.value_size, w->env->nr_cpus), UINT32_MAX);
		}
		count = 1;
		if (f->len_rule == BPFRR_LEN_MAP_KEYS || f->len_rule == BPFRR_LEN_MAP_VALUES) {
			count = counted_len(w, v, f, &out, &have_out);
			if (have_out)
				count = min_u64(count, out);
		}
		want = count * *elem_size;
		break;
	case BPFRR_LEN_FD_ARRAY: {
		uint32_t cnt = 0;
		uint64_t insns = sibling(v->desc, "insns", v->variant, v->cur, v->cur_size, NULL);
		uint64_t insn_cnt = sibling(v->desc, "insn_cnt", v->variant, v->cur, v->cur_size, NULL);
		/* 6.14: fd_array_cnt says the length (every map in it is bound to the program) */
		uint64_t given = f->len_field ? sibling(v->desc, f->len_field, v->variant, v->cur,
						       v->cur_size, NULL) : 0;
		bool complete;

		if (given) {
			*elem_size = 4;
			want = given * 4;
			break;
		}
		if (insns && (scan_tracee_insns(w->env, insns, insn_cnt, NULL, NULL, &cnt, &complete) ||
			      !complete)) {
			*flags |= BPFRR_ABI_BUF_LEN_UNKNOWN;
			*want_out = 0;
			return 0;
		}
		*elem_size = 4;
		want = (uint64_t)cnt * 4;
		break;
	}
	default:
		want = 0;
	}
	*want_out = want;
	return cap_len(want, flags, BPFRR_ABI_BUF_MAX);
}

/* --- walk: buffers -------------------------------------------------------------------- */

static enum bpfrr_abi_content info_content(enum bpfrr_obj_kind kind)
{
	switch (kind) {
	case BPFRR_OBJ_PROG:
		return BPFRR_CONTENT_PROG_INFO;
	case BPFRR_OBJ_MAP:
		return BPFRR_CONTENT_MAP_INFO;
	case BPFRR_OBJ_BTF:
		return BPFRR_CONTENT_BTF_INFO;
	case BPFRR_OBJ_LINK:
		return BPFRR_CONTENT_LINK_INFO;
	default:
		return BPFRR_CONTENT_INFO;
	}
}

static int walk_struct(struct walk *w, const struct view *v, const char *prefix, int depth);

/* Read a nested struct at addr (len bytes) at the walked phase and, for
 * EXIT, as it was at entry; then walk its pointers. */
static int walk_nested(struct walk *w, const struct bpfrr_struct_desc *desc, uint64_t addr,
		       uint64_t len, const char *path, int depth)
{
	unsigned char cur[STRUCT_MAX], ent[STRUCT_MAX];
	size_t n = (size_t)min_u64(len, sizeof(cur));
	struct view v = { .desc = desc, .cur = cur, .cur_size = n, .ent = cur, .ent_size = n };
	const struct bpfrr_abi_env *env = w->env;

	if (!env || !env->read_mem || !n)
		return 0;
	memset(cur, 0, sizeof(cur));
	if (env->read_mem(env->ctx, addr, cur, n))
		return 0;	/* unreadable: its buffers are unknown, not an error */
	if (w->phase == BPFRR_PHASE_EXIT && env->read_entry_mem) {
		memset(ent, 0, sizeof(ent));
		if (!env->read_entry_mem(env->ctx, addr, ent, n)) {
			v.ent = ent;
			v.ent_size = n;
		}
	}
	v.variant = desc->variant ? desc->variant(cur, n) : 0;
	return walk_struct(w, &v, path, depth);
}

static int walk_struct(struct walk *w, const struct view *v, const char *prefix, int depth)
{
	bool exit = w->phase == BPFRR_PHASE_EXIT;
	char path[PATH_MAX_LEN];
	int err;

	for (unsigned int i = 0; i < v->desc->nr_fields; i++) {
		const struct bpfrr_field *f = &v->desc->fields[i];
		struct bpfrr_abi_buf b;
		uint64_t addr;

		if (f->kind != BPFRR_FIELD_PTR || !bpfrr_abi_field_applies(f, v->variant))
			continue;
		if (!(f->buf_dir & (exit ? BPFRR_DIR_OUT : BPFRR_DIR_IN)))
			continue;
		/* at exit, the pointer as the kernel left it (it zeroes some it did not fill) */
		addr = bpfrr_abi_field_get(f, v->cur, v->cur_size);
		if (!addr)
			continue;
		memset(&b, 0, sizeof(b));
		snprintf(path, sizeof(path), "%s.%s", prefix, f->name);
		b.path = path;
		b.field = f;
		b.addr = addr;
		b.dir = (enum bpfrr_dir)f->buf_dir;
		b.content = (enum bpfrr_abi_content)f->content;
		b.depth = depth;
		b.len = buf_len(w, v, f, addr, &b.flags, &b.elem_size, &b.want_len);

		if (f->len_rule == BPFRR_LEN_INFO) {
			enum bpfrr_obj_kind kind = BPFRR_OBJ_NONE;
			uint64_t fd = sibling(v->desc, f->map_field, v->variant, v->cur, v->cur_size, NULL);

			if (w->env && w->env->fd_info)
				w->env->fd_info(w->env->ctx, (int)fd, &kind, NULL, NULL, NULL);
			b.content = info_content(kind);
			if (!b.len)
				continue;
			if ((err = w->cb(w->arg, &b)))
				return err;
			if (exit && bpfrr_abi_info_desc(kind) &&
			    (err = walk_nested(w, bpfrr_abi_info_desc(kind), addr, b.len, path, depth + 1)))
				return err;
			continue;
		}
		if (!b.len && !(b.flags & BPFRR_ABI_BUF_LEN_UNKNOWN))
			continue;
		if ((err = w->cb(w->arg, &b)))
			return err;

		/* an array of string pointers (kprobe_multi.syms): each string too */
		if (f->content == BPFRR_CONTENT_PTR_ARRAY && !exit && w->env && w->env->read_mem) {
			uint64_t nr = min_u64(b.len / 8, BPFRR_ABI_ARRAY_MAX);

			for (uint64_t k = 0; k < nr; k++) {
				struct bpfrr_abi_buf s;
				char spath[PATH_MAX_LEN + 32];
				uint64_t p;

				if (w->env->read_mem(w->env->ctx, addr + k * 8, &p, 8))
					break;
				if (!p)
					continue;
				memset(&s, 0, sizeof(s));
				snprintf(spath, sizeof(spath), "%s[%" PRIu64 "]", path, k);
				s.path = spath;
				s.field = f;
				s.addr = p;
				s.dir = BPFRR_DIR_IN;
				s.content = BPFRR_CONTENT_STRING;
				s.depth = depth + 1;
				s.len = cstr_len(w->env, p, BPFRR_ABI_STR_MAX, &s.flags);
				s.want_len = s.len;
				if ((err = w->cb(w->arg, &s)))
					return err;
			}
		}
	}
	return 0;
}

int bpfrr_abi_walk(int cmd, const void *attr, size_t attr_size, enum bpfrr_phase phase,
		   const struct bpfrr_abi_env *env, bpfrr_abi_buf_cb cb, void *arg)
{
	const struct bpfrr_cmd_desc *d = bpfrr_abi_cmd(cmd);
	struct view v;
	struct walk w = { .phase = phase, .env = env, .cb = cb, .arg = arg };

	if (!d || !attr || !cb)
		return -EINVAL;
	v.desc = d->attr;
	v.cur = attr;
	v.cur_size = attr_size;
	v.ent = attr;
	v.ent_size = attr_size;
	if (phase == BPFRR_PHASE_EXIT && env && env->entry_attr) {
		v.ent = env->entry_attr;
		v.ent_size = env->entry_attr_size;
	}
	v.variant = bpfrr_abi_cmd_variant_env(cmd, v.ent, v.ent_size, env);
	return walk_struct(&w, &v, "attr", 0);
}

int bpfrr_abi_walk_common(const void *common, size_t size, const void *entry, size_t entry_size,
			  enum bpfrr_phase phase, const struct bpfrr_abi_env *env, bpfrr_abi_buf_cb cb,
			  void *arg)
{
	struct walk w = { .phase = phase, .env = env, .cb = cb, .arg = arg };
	struct view v = { .desc = &bpfrr_abi_common_attr_desc, .cur = common, .cur_size = size,
			  .ent = entry ? entry : common, .ent_size = entry ? entry_size : size };

	if (!common || !cb)
		return -EINVAL;
	return walk_struct(&w, &v, "common_attr", 0);
}

/* --- later UAPI ------------------------------------------------------------------------ */

const char *bpfrr_abi_kver_str(unsigned int kver, char *buf, size_t size)
{
	snprintf(buf, size, "%u.%u", kver >> 8, kver & 0xff);
	return buf;
}

unsigned int bpfrr_abi_newer_fields(int cmd, const void *attr, size_t attr_size, unsigned int kver,
				    bpfrr_abi_newer_cb cb, void *arg)
{
	const struct bpfrr_cmd_desc *d = bpfrr_abi_cmd(cmd);
	const unsigned char *bytes = attr;
	unsigned int found = 0;
	char path[PATH_MAX_LEN];
	size_t known, i;

	if (!d || !attr)
		return 0;
	for (unsigned int k = 0; k < d->attr->nr_fields; k++) {
		const struct bpfrr_field *f = &d->attr->fields[k];

		if (!f->since || f->since <= kver || (size_t)f->offset + f->size > attr_size ||
		    !bpfrr_abi_field_get(f, attr, attr_size))
			continue;
		found++;
		snprintf(path, sizeof(path), "attr.%s", f->name);
		if (cb)
			cb(arg, f, path, 0, 0);
	}
	/* the kernel's own rule (bpf_check_uarg_tail_zero): bytes it does not know must be 0 */
	known = bpfrr_abi_desc_known_size(d->attr);
	for (i = known; i < attr_size && !bytes[i]; i++)
		;
	if (i < attr_size) {
		size_t end = attr_size;

		while (end > i && !bytes[end - 1])
			end--;
		found++;
		if (cb)
			cb(arg, NULL, "attr", i, end);
	}
	return found;
}

/* --- walk: fds ------------------------------------------------------------------------- */

static int yield_fd_fields(const struct view *v, const char *prefix, const struct bpfrr_field *ptr,
			   uint64_t buf_addr, const char *buf_path, bpfrr_abi_fd_cb cb, void *arg)
{
	char path[PATH_MAX_LEN];
	int err;

	for (unsigned int i = 0; i < v->desc->nr_fields; i++) {
		const struct bpfrr_field *f = &v->desc->fields[i];
		struct bpfrr_abi_fd_ref r;
		int fd;

		if (f->kind != BPFRR_FIELD_FD || !bpfrr_abi_field_applies(f, v->variant) ||
		    (f->flags & BPFRR_FIELDF_FOREIGN_FD) ||
		    (size_t)f->offset + f->size > v->cur_size)
			continue;
		if ((f->flags & BPFRR_FIELDF_NEEDS_FLAG) &&
		    !(sibling(v->desc, f->flag_field, v->variant, v->cur, v->cur_size, NULL) &
		      f->flag_mask))
			continue;
		fd = (int)(uint32_t)bpfrr_abi_field_get(f, v->cur, v->cur_size);
		if ((f->flags & BPFRR_FIELDF_FD_OPTIONAL) && fd == 0)
			continue;
		memset(&r, 0, sizeof(r));
		snprintf(path, sizeof(path), "%s.%s", prefix, f->name);
		r.path = path;
		r.fd = fd;
		r.kind = (enum bpfrr_obj_kind)f->fd_kind;
		r.type = BPFRR_FDREF_FIELD;
		r.insn_idx = -1;
		r.field = f;
		if (ptr) {
			r.where = BPFRR_FD_IN_BUF;
			r.buf_addr = buf_addr;
			r.buf_offset = f->offset;
			r.buf_path = buf_path;
		} else {
			r.where = BPFRR_FD_IN_ATTR;
			r.attr_offset = f->offset;
		}
		if ((err = cb(arg, &r)))
			return err;
	}
	return 0;
}

/* fd_array slots the insns use, deduplicated, with what each must be */
struct fd_slot {
	int32_t idx;
	int insn_idx;
	enum bpfrr_obj_kind kind;
};

struct insn_fd_walk {
	const struct bpfrr_abi_env *env;
	const struct bpfrr_field *insns_field;
	uint64_t insns_addr;
	bpfrr_abi_fd_cb cb;
	void *arg;
	struct fd_slot *slots;
	size_t nr_slots, cap_slots;
	int err;
};

static int insn_fd_cb(void *arg, const struct bpfrr_insn_ref *ref)
{
	struct insn_fd_walk *iw = arg;
	struct bpfrr_abi_fd_ref r;
	char path[PATH_MAX_LEN];

	switch (ref->type) {
	case BPFRR_INSN_MAP_FD:
	case BPFRR_INSN_MAP_VALUE:
	case BPFRR_INSN_BTF_ID_MODULE:
		memset(&r, 0, sizeof(r));
		snprintf(path, sizeof(path), "attr.insns[%u].imm", ref->byte_offset / INSN_SIZE);
		r.path = path;
		r.fd = ref->value;
		r.kind = ref->type == BPFRR_INSN_BTF_ID_MODULE ? BPFRR_OBJ_BTF : BPFRR_OBJ_MAP;
		r.type = ref->type == BPFRR_INSN_BTF_ID_MODULE ? BPFRR_FDREF_BTF_ID_MODULE :
								  BPFRR_FDREF_LD_IMM64;
		r.where = BPFRR_FD_IN_BUF;
		r.buf_addr = iw->insns_addr;
		r.buf_offset = ref->byte_offset;
		r.buf_path = "attr.insns";
		r.insn_idx = ref->insn_idx;
		r.field = iw->insns_field;
		return iw->cb(iw->arg, &r);
	case BPFRR_INSN_MAP_IDX:
	case BPFRR_INSN_MAP_IDX_VALUE:
	case BPFRR_INSN_KFUNC_FD_IDX:
		if (ref->value < 0)
			return 0;
		for (size_t i = 0; i < iw->nr_slots; i++)
			if (iw->slots[i].idx == ref->value)
				return 0;
		if (iw->nr_slots == iw->cap_slots) {
			size_t cap = iw->cap_slots ? iw->cap_slots * 2 : 16;
			struct fd_slot *s = realloc(iw->slots, cap * sizeof(*s));

			if (!s)
				return -ENOMEM;
			iw->slots = s;
			iw->cap_slots = cap;
		}
		iw->slots[iw->nr_slots++] = (struct fd_slot){
			.idx = ref->value, .insn_idx = ref->insn_idx,
			.kind = ref->type == BPFRR_INSN_KFUNC_FD_IDX ? BPFRR_OBJ_BTF : BPFRR_OBJ_MAP,
		};
		return 0;
	}
	return 0;
}

static int prog_load_fds(const struct view *v, const struct bpfrr_abi_env *env,
			 bpfrr_abi_fd_cb cb, void *arg)
{
	const struct bpfrr_field *insns_f = desc_field(v->desc, "insns", v->variant);
	const struct bpfrr_field *fd_array_f = desc_field(v->desc, "fd_array", v->variant);
	uint64_t insns = bpfrr_abi_field_get(insns_f, v->cur, v->cur_size);
	uint64_t insn_cnt = sibling(v->desc, "insn_cnt", v->variant, v->cur, v->cur_size, NULL);
	uint64_t fd_array = bpfrr_abi_field_get(fd_array_f, v->cur, v->cur_size);
	struct insn_fd_walk iw = {
		.env = env, .insns_field = insns_f, .insns_addr = insns, .cb = cb, .arg = arg,
	};
	uint32_t fd_array_cnt;
	char path[PATH_MAX_LEN];
	uint64_t given;
	bool complete;
	int err;

	if (!insns || !insn_cnt || !env || !env->read_mem)
		return 0;
	/* unreadable insns: still the fd_array slots found before them */
	err = scan_tracee_insns(env, insns, insn_cnt, insn_fd_cb, &iw, &fd_array_cnt, &complete);
	for (size_t i = 0; !err && fd_array && i < iw.nr_slots; i++) {
		struct bpfrr_abi_fd_ref r;
		int32_t fd;

		if (env->read_mem(env->ctx, fd_array + (uint64_t)iw.slots[i].idx * 4, &fd, 4))
			continue;
		memset(&r, 0, sizeof(r));
		snprintf(path, sizeof(path), "attr.fd_array[%d]", iw.slots[i].idx);
		r.path = path;
		r.fd = fd;
		r.kind = iw.slots[i].kind;
		r.type = BPFRR_FDREF_FD_ARRAY;
		r.where = BPFRR_FD_IN_BUF;
		r.buf_addr = fd_array;
		r.buf_offset = (uint64_t)iw.slots[i].idx * 4;
		r.buf_path = "attr.fd_array";
		r.insn_idx = iw.slots[i].insn_idx;
		r.field = fd_array_f;
		err = cb(arg, &r);
	}
	/* 6.14: with fd_array_cnt every slot is an fd (a map it binds, or a module BTF) */
	given = sibling(v->desc, "fd_array_cnt", v->variant, v->cur, v->cur_size, NULL);
	for (uint64_t k = 0; !err && fd_array && k < given && k < BPFRR_ABI_ARRAY_MAX; k++) {
		struct bpfrr_abi_fd_ref r;
		bool used = false;
		int32_t fd;

		for (size_t i = 0; i < iw.nr_slots && !used; i++)
			used = (uint64_t)iw.slots[i].idx == k;
		if (used || env->read_mem(env->ctx, fd_array + k * 4, &fd, 4))
			continue;
		memset(&r, 0, sizeof(r));
		snprintf(path, sizeof(path), "attr.fd_array[%" PRIu64 "]", k);
		r.path = path;
		r.fd = fd;
		r.kind = BPFRR_OBJ_ANY;
		r.type = BPFRR_FDREF_FD_ARRAY;
		r.where = BPFRR_FD_IN_BUF;
		r.buf_addr = fd_array;
		r.buf_offset = k * 4;
		r.buf_path = "attr.fd_array";
		r.insn_idx = -1;
		r.field = fd_array_f;
		err = cb(arg, &r);
	}
	free(iw.slots);
	return err;
}

/* One fd inside a map value being stored: at byte at of the buffer at values. */
static int yield_value_fd(const char *path, const char *buf_path, const struct bpfrr_field *vf, int32_t fd,
			  enum bpfrr_obj_kind kind, uint64_t values, uint64_t at, bpfrr_abi_fd_cb cb, void *arg)
{
	return cb(arg, &(struct bpfrr_abi_fd_ref){
		.path = path, .fd = fd, .kind = kind, .type = BPFRR_FDREF_MAP_VALUE, .where = BPFRR_FD_IN_BUF,
		.buf_addr = values, .buf_offset = at, .buf_path = buf_path, .insn_idx = -1, .field = vf,
	});
}

/*
 * The program fds of a struct_ops value: in the function pointer members of
 * its data, where only the kernel's BTF says (env->value_fds).  The kernel
 * reads each as (int)*(unsigned long *); 0 is a member the loader leaves
 * out.  Not known: nothing is yielded (the translator refuses the update).
 */
static int struct_ops_value_fds(const struct view *v, const struct bpfrr_abi_env *env, const char *map_fd_name,
				const struct bpfrr_field *vf, uint64_t values, uint32_t value_size,
				bpfrr_abi_fd_cb cb, void *arg)
{
	uint32_t offs[BPFRR_ABI_VALUE_FDS_MAX];
	int map_fd = (int)sibling(v->desc, map_fd_name, v->variant, v->cur, v->cur_size, NULL);
	int n, i, err;

	if (!env->value_fds || (n = env->value_fds(env->ctx, map_fd, offs, BPFRR_ABI_VALUE_FDS_MAX)) <= 0)
		return 0;
	for (i = 0; i < n; i++) {
		uint64_t slot;

		if ((uint64_t)offs[i] + 8 > value_size || env->read_mem(env->ctx, values + offs[i], &slot, 8) ||
		    !(int32_t)slot)
			continue;
		if ((err = yield_value_fd("attr.value", "attr.value", vf, (int32_t)slot, BPFRR_OBJ_PROG, values,
					  offs[i], cb, arg)))
			return err;
	}
	return 0;
}

/* fds inside map values being stored: one value, or count of them (batch) */
static int map_value_fds(const struct view *v, const struct bpfrr_abi_env *env, const char *map_fd_name,
			 const char *value_name, const char *count_name, bpfrr_abi_fd_cb cb, void *arg)
{
	const struct bpfrr_field *vf = desc_field(v->desc, value_name, v->variant);
	uint64_t values = bpfrr_abi_field_get(vf, v->cur, v->cur_size);
	struct map_facts m = map_facts(env, sibling(v->desc, map_fd_name, v->variant, v->cur,
						    v->cur_size, NULL));
	uint64_t count = count_name ? sibling(v->desc, count_name, v->variant, v->cur, v->cur_size, NULL) : 1;
	enum bpfrr_obj_kind kind;
	uint32_t off;
	char path[PATH_MAX_LEN], buf_path[PATH_MAX_LEN];
	int err;

	if (!values || !m.known || !env->read_mem)
		return 0;
	if (m.type == ABI_MAP_TYPE_STRUCT_OPS)
		return struct_ops_value_fds(v, env, map_fd_name, vf, values, m.value_size, cb, arg);
	kind = bpfrr_abi_map_value_fd(m.type, m.value_size, &off);
	if (kind == BPFRR_OBJ_NONE || off + 4 > m.value_size)
		return 0;
	count = min_u64(count, BPFRR_ABI_BUF_MAX / (m.value_size ? m.value_size : 1));
	snprintf(buf_path, sizeof(buf_path), "attr.%s", value_name);
	for (uint64_t i = 0; i < count; i++) {
		uint64_t at = i * m.value_size + off;
		int32_t fd;

		if (env->read_mem(env->ctx, values + at, &fd, 4))
			break;
		if (map_value_fd_optional(m.type) && fd <= 0)
			continue;
		if (count_name)
			snprintf(path, sizeof(path), "attr.%s[%" PRIu64 "]", value_name, i);
		else
			snprintf(path, sizeof(path), "attr.%s", value_name);
		if ((err = yield_value_fd(path, buf_path, vf, fd, kind, values, at, cb, arg)))
			return err;
	}
	return 0;
}

/* fds inside pointed-to structs (link_create.iter_info) */
static int nested_fds(const struct view *v, const struct bpfrr_abi_env *env, bpfrr_abi_fd_cb cb,
		      void *arg)
{
	char path[PATH_MAX_LEN];
	int err;

	for (unsigned int i = 0; i < v->desc->nr_fields; i++) {
		const struct bpfrr_field *f = &v->desc->fields[i];
		unsigned char buf[STRUCT_MAX];
		struct view nv;
		uint64_t addr, len;
		unsigned int flags = 0;
		uint32_t elem;
		struct walk w = { .phase = BPFRR_PHASE_ENTRY, .env = env };
		char target[64];
		uint64_t want;

		if (f->kind != BPFRR_FIELD_PTR || !f->nested || !bpfrr_abi_field_applies(f, v->variant))
			continue;
		addr = bpfrr_abi_field_get(f, v->cur, v->cur_size);
		len = buf_len(&w, v, f, addr, &flags, &elem, &want);
		len = min_u64(len, sizeof(buf));
		if (!addr || !len || env->read_mem(env->ctx, addr, memset(buf, 0, sizeof(buf)), len))
			continue;
		nv = (struct view){ .desc = f->nested, .cur = buf, .cur_size = len, .ent = buf,
				    .ent_size = len };
		if (f->nested == &bpfrr_abi_iter_link_info_desc) {
			/* the member that applies depends on the program's iterator target */
			int prog_fd = (int)sibling(v->desc, "link_create.prog_fd", v->variant, v->cur,
						   v->cur_size, NULL);

			if (!env->iter_target ||
			    env->iter_target(env->ctx, prog_fd, target, sizeof(target)))
				continue;
			target[sizeof(target) - 1] = '\0';
			nv.variant = bpfrr_abi_iter_variant(target);
			if (!nv.variant)
				continue;
		} else if (f->nested->variant) {
			nv.variant = f->nested->variant(buf, len);
		}
		snprintf(path, sizeof(path), "attr.%s", f->name);
		if ((err = yield_fd_fields(&nv, path, f, addr, path, cb, arg)))
			return err;
	}
	return 0;
}

int bpfrr_abi_walk_fds(int cmd, const void *attr, size_t attr_size, const struct bpfrr_abi_env *env,
		       bpfrr_abi_fd_cb cb, void *arg)
{
	const struct bpfrr_cmd_desc *d = bpfrr_abi_cmd(cmd);
	struct view v;
	int err;

	if (!d || !attr || !cb)
		return -EINVAL;
	v = (struct view){ .desc = d->attr, .cur = attr, .cur_size = attr_size, .ent = attr,
			   .ent_size = attr_size };
	v.variant = bpfrr_abi_cmd_variant_env(cmd, attr, attr_size, env);
	if ((err = yield_fd_fields(&v, "attr", NULL, 0, NULL, cb, arg)))
		return err;
	if (!env || !env->read_mem)
		return 0;
	if ((err = nested_fds(&v, env, cb, arg)))
		return err;
	switch (cmd) {
	case BPFRR_CMD_PROG_LOAD:
		return prog_load_fds(&v, env, cb, arg);
	case BPFRR_CMD_MAP_UPDATE_ELEM:
		return map_value_fds(&v, env, "map_fd", "value", NULL, cb, arg);
	case BPFRR_CMD_MAP_UPDATE_BATCH:
		return map_value_fds(&v, env, "batch.map_fd", "batch.values", "batch.count", cb, arg);
	}
	return 0;
}

/* --- walk: fields --------------------------------------------------------------------- */

static void render_str(const unsigned char *p, size_t n, char *out, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < n && p[i] && o + 5 < size; i++) {
		if (isprint(p[i]) && p[i] != '\\' && p[i] != '"')
			out[o++] = (char)p[i];
		else
			o += (size_t)snprintf(out + o, size - o, "\\x%02x", p[i]);
	}
	out[o] = '\0';
}

int bpfrr_abi_walk_struct_fields(const struct bpfrr_struct_desc *desc, const void *data, size_t len,
				 const char *prefix, uint32_t variant, bpfrr_abi_field_cb cb, void *arg)
{
	char path[PATH_MAX_LEN], sym[512];
	int err;

	if (!desc || !data || !cb)
		return -EINVAL;
	for (unsigned int i = 0; i < desc->nr_fields; i++) {
		const struct bpfrr_field *f = &desc->fields[i];
		const unsigned char *p = (const unsigned char *)data + f->offset;
		const char *symbolic = NULL;
		uint64_t value = 0;

		if (f->kind == BPFRR_FIELD_PAD || !f->name || !bpfrr_abi_field_applies(f, variant) ||
		    (size_t)f->offset + f->size > len)
			continue;
		snprintf(path, sizeof(path), "%s.%s", prefix, f->name);
		switch (f->kind) {
		case BPFRR_FIELD_STR:
			render_str(p, f->size, sym, sizeof(sym));
			symbolic = sym;
			break;
		case BPFRR_FIELD_BYTES:
			for (unsigned int k = 0; k < f->size && 2 * k + 2 < sizeof(sym); k++)
				snprintf(sym + 2 * k, 3, "%02x", p[k]);
			symbolic = sym;
			break;
		case BPFRR_FIELD_ENUM:
		case BPFRR_FIELD_FLAGS:
			value = bpfrr_abi_field_get(f, data, len);
			bpfrr_abi_xlat_format(f->xlat, value, sym, sizeof(sym));
			symbolic = sym;
			break;
		default:
			value = bpfrr_abi_field_get(f, data, len);
		}
		if ((err = cb(arg, f, path, value, symbolic)))
			return err;
	}
	return 0;
}

int bpfrr_abi_walk_fields_env(int cmd, const void *attr, size_t attr_size, const struct bpfrr_abi_env *env,
			      bpfrr_abi_field_cb cb, void *arg)
{
	const struct bpfrr_cmd_desc *d = bpfrr_abi_cmd(cmd);

	if (!d)
		return -EINVAL;
	return bpfrr_abi_walk_struct_fields(d->attr, attr, attr_size, "attr",
					    bpfrr_abi_cmd_variant_env(cmd, attr, attr_size, env),
					    cb, arg);
}

int bpfrr_abi_walk_fields(int cmd, const void *attr, size_t attr_size, bpfrr_abi_field_cb cb, void *arg)
{
	return bpfrr_abi_walk_fields_env(cmd, attr, attr_size, NULL, cb, arg);
}

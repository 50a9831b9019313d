// SPDX-License-Identifier: GPL-2.0-only
/*
 * loader_decode.c - a light skeleton's loader program decoded statically
 * (see loader_decode.h).
 *
 * The instruction encoding is the eBPF ISA's, as in bpf_disasm.c; the
 * helpers are found by their names in the ABI table (bpfrr_abi_helper_name),
 * the attrs through its walkers.  The one layout of libbpf's own known here
 * is the head of struct bpf_loader_ctx (skel_internal.h), to name ctx
 * offsets for people; nothing depends on it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf_abi.h"
#include "bpf_insn.h"
#include "loader_decode.h"

#define STACK_SIZE	512	/* MAX_BPF_STACK */
#define NAME_MAX_LEN	256	/* names a helper reads from the blob, as kept */
#define ATTR_MAX	4096	/* an inner attr bigger than this is not gen_loader's */
#define BLOB_MAX	(64u << 20)	/* a blob bigger than this is not decoded (libbpf's are KiB to a few MiB) */
#define KEPT_SLACK	(16u << 20)	/* the inner calls' buffer copies may add up to 4 blobs + this */

struct insn {
	uint8_t code;
	uint8_t regs;		/* dst low nibble, src high nibble */
	int16_t off;
	int32_t imm;
};

static unsigned int dst_of(const struct insn *i)
{
	return i->regs & 0xf;
}

static unsigned int src_of(const struct insn *i)
{
	return i->regs >> 4;
}

/* --- helper ids, by name ------------------------------------------------------------- */

enum ld_helper {
	H_PROBE_READ_KERNEL,
	H_COPY_FROM_USER,
	H_SYS_BPF,
	H_SYS_CLOSE,
	H_BTF_FIND,
	H_KALLSYMS,
	H_TRACE_PRINTK,
	H__MAX,
};

static const char *const helper_wanted[H__MAX] = {
	"bpf_probe_read_kernel", "bpf_copy_from_user", "bpf_sys_bpf", "bpf_sys_close",
	"bpf_btf_find_by_name_kind", "bpf_kallsyms_lookup_name", "bpf_trace_printk",
};

/* which of the helpers gen_loader emits func_id is, or -1 */
static int helper_of(int32_t func_id)
{
	const char *name = bpfrr_abi_helper_name(func_id);
	int h;

	for (h = 0; name && h < H__MAX; h++)
		if (!strcmp(name, helper_wanted[h]))
			return h;
	return -1;
}

const char *bpfrr_lskel_helper_name(int32_t helper)
{
	static __thread char buf[24];
	const char *name = bpfrr_abi_helper_name(helper);

	if (name)
		return name;
	snprintf(buf, sizeof(buf), "helper#%d", helper);
	return buf;
}

unsigned int bpfrr_lskel_helper_nargs(int32_t helper)
{
	switch (helper_of(helper)) {
	case H_SYS_CLOSE:
		return 1;
	case H_TRACE_PRINTK:
		return 2;
	case H_BTF_FIND:
	case H_KALLSYMS:
		return 4;
	default:
		return 3;
	}
}

/* --- memory: the blob and the stack ------------------------------------------------------ */

#define OWN_CONST	(-1)	/* the byte is the constant in bytes[] */
#define OWN_UNKNOWN	(-2)	/* never written (the stack before it is cleared) */

struct ld_store {
	uint32_t off, len;
	struct bpfrr_ld_val val;
};

struct ld_mem {
	uint32_t len;
	uint8_t *bytes;		/* the constants (and, under a symbolic store, what was there before) */
	int32_t *owner;		/* per byte: OWN_* or the index of the store that wrote it */
	struct ld_store *stores;
	uint32_t nr, cap;
};

static int mem_init(struct ld_mem *m, const void *init, uint32_t len, int32_t own)
{
	uint32_t i;

	memset(m, 0, sizeof(*m));
	m->len = len;
	m->bytes = calloc(len ? len : 1, 1);
	m->owner = malloc((len ? len : 1) * sizeof(*m->owner));
	if (!m->bytes || !m->owner)
		return -ENOMEM;
	if (init)
		memcpy(m->bytes, init, len);
	for (i = 0; i < len; i++)
		m->owner[i] = own;
	return 0;
}

static void mem_free(struct ld_mem *m)
{
	free(m->bytes);
	free(m->owner);
	free(m->stores);
}

static bool in_range(const struct ld_mem *m, int64_t off, uint64_t len)
{
	return off >= 0 && (uint64_t)off <= m->len && len <= m->len - (uint64_t)off;
}

/* Store val (len bytes) at off: a known constant is written into the bytes, anything
 * else (and a constant stored on one arm of a branch) is kept as a store. */
static int mem_store(struct ld_mem *m, uint32_t off, uint32_t len, const struct bpfrr_ld_val *val)
{
	uint32_t i;

	if (val->kind == BPFRR_LDV_CONST)
		for (i = 0; i < len && i < 8; i++)
			m->bytes[off + i] = (uint8_t)((uint64_t)val->v >> (8 * i));
	if (val->kind == BPFRR_LDV_CONST && !(val->flags & BPFRR_LDV_F_COND)) {
		for (i = 0; i < len; i++)
			m->owner[off + i] = OWN_CONST;
		return 0;
	}
	/* the other arm of an if/else copying into the same bytes (bpf_copy_from_user or
	 * bpf_probe_read_kernel of a map's initial value): either call's bytes */
	if (val->kind == BPFRR_LDV_COPY && (val->flags & BPFRR_LDV_F_COND) && len && m->owner[off] >= 0) {
		const struct ld_store *prev = &m->stores[m->owner[off]];

		if (prev->off == off && prev->len == len && prev->val.kind == BPFRR_LDV_COPY &&
		    (prev->val.flags & BPFRR_LDV_F_COND) && prev->val.cond_insn == val->cond_insn &&
		    m->owner[off + len - 1] == m->owner[off]) {
			struct bpfrr_ld_val either = *val;

			either.flags |= BPFRR_LDV_F_EITHER;
			either.call2 = either.call;
			either.call = prev->val.call;
			m->stores[m->owner[off]].val = either;
			return 0;
		}
	}
	if (m->nr == m->cap) {
		uint32_t cap = m->cap ? m->cap * 2 : 32;
		struct ld_store *p = realloc(m->stores, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		m->stores = p;
		m->cap = cap;
	}
	m->stores[m->nr] = (struct ld_store){ .off = off, .len = len, .val = *val };
	for (i = 0; i < len; i++)
		m->owner[off + i] = (int32_t)m->nr;
	m->nr++;
	return 0;
}

static uint64_t le_get(const uint8_t *p, uint32_t len)
{
	uint64_t v = 0;
	uint32_t i;

	for (i = 0; i < len && i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* What the program reads at off (len bytes). */
static struct bpfrr_ld_val mem_load(const struct ld_mem *m, uint32_t off, uint32_t len)
{
	struct bpfrr_ld_val v = { .kind = BPFRR_LDV_UNKNOWN };
	int32_t own = m->owner[off];
	uint32_t i;

	for (i = 1; i < len; i++)
		if (m->owner[off + i] != own)
			return v;
	if (own == OWN_CONST) {
		v.kind = BPFRR_LDV_CONST;
		v.v = (int64_t)le_get(m->bytes + off, len);
		return v;
	}
	if (own < 0)
		return v;
	if (m->stores[own].val.kind == BPFRR_LDV_COPY)
		return m->stores[own].val;
	if (m->stores[own].off == off && m->stores[own].len == len)
		return m->stores[own].val;
	return v;
}

/* The placeholder a run-time value gets in the copies handed to the ABI walkers. */
static bool placeholder(const struct bpfrr_lskel *ld, const struct bpfrr_ld_val *v, uint64_t *out)
{
	switch (v->kind) {
	case BPFRR_LDV_BLOB:
		*out = BPFRR_LD_BLOB_ADDR + (uint64_t)v->v;
		return true;
	case BPFRR_LDV_RESULT:
		if (v->call >= ld->nr_calls || v->call > BPFRR_LD_FD_UPPER - 1)
			return false;
		if (v->shift == 0 && ld->calls[v->call].is_sys_bpf) {
			*out = BPFRR_LD_FD_BASE + v->call;
			return true;
		}
		if (v->shift == 32 && !ld->calls[v->call].is_sys_bpf) {
			*out = BPFRR_LD_FD_BASE + BPFRR_LD_FD_UPPER + v->call;
			return true;
		}
		return false;
	default:
		return false;
	}
}

/* len bytes at off as the walkers see them: constants, placeholders for what they stand for. */
static void mem_read_walk(const struct bpfrr_lskel *ld, const struct ld_mem *m, uint32_t off, uint8_t *buf,
			  uint32_t len)
{
	uint32_t i;

	memcpy(buf, m->bytes + off, len);
	for (i = 0; i < len; i++) {
		int32_t own = m->owner[off + i];
		const struct ld_store *s;
		uint64_t ph;

		if (own < 0)
			continue;
		s = &m->stores[own];
		if (placeholder(ld, &s->val, &ph) && off + i - s->off < 8)
			buf[i] = (uint8_t)(ph >> (8 * (off + i - s->off)));
	}
}

/* The run-time values in [off, off + len): one patch per run of bytes of one store. */
static int mem_patches(const struct ld_mem *m, uint32_t off, uint32_t len, struct bpfrr_ld_patch **out,
		       uint32_t *nr)
{
	struct bpfrr_ld_patch *p = NULL;
	uint32_t i = 0, n = 0, cap = 0;

	while (i < len) {
		int32_t own = m->owner[off + i];
		uint32_t start = i;

		while (i < len && m->owner[off + i] == own)
			i++;
		if (own < 0)
			continue;
		if (n == cap) {
			struct bpfrr_ld_patch *q;

			cap = cap ? cap * 2 : 8;
			q = realloc(p, cap * sizeof(*q));
			if (!q) {
				free(p);
				return -ENOMEM;
			}
			p = q;
		}
		p[n++] = (struct bpfrr_ld_patch){ .off = start, .len = i - start, .val = m->stores[own].val };
	}
	*out = p;
	*nr = n;
	return 0;
}

/* --- the interpreter ---------------------------------------------------------------------- */

struct interp {
	const struct insn *insns;
	size_t cnt;
	struct ld_mem blob, stack;
	struct bpfrr_ld_val r[11];
	struct bpfrr_lskel *ld;
	bool blob_by_idx;
	int32_t blob_ref;
	int depth;		/* arms of branches we are in */
	uint32_t cond_insn;	/* the innermost one's branch */
	size_t cleanup_lo, cleanup_hi;	/* the block the first goto skips: error exits land there */
	bool have_cleanup;
	uint32_t calls_cap;
	uint64_t kept;		/* bytes of the inner calls' buffer copies */
	bool too_much;		/* kept went past its bound */
	bool oom;
};

enum run_end {
	RUN_REACHED,	/* got to the end of the range */
	RUN_JUMP,	/* the range's last insn jumps forward past it (an if/else) */
	RUN_EXIT,	/* the program's exit */
	RUN_STOP,	/* decoding stopped (ld->stop_*) */
};

static enum run_end stop(struct interp *in, size_t pc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static enum run_end stop(struct interp *in, size_t pc, const char *fmt, ...)
{
	va_list ap;

	if (in->ld->stop_insn < 0 || !in->ld->stop_why[0]) {
		in->ld->stop_insn = (int64_t)pc;
		va_start(ap, fmt);
		vsnprintf(in->ld->stop_why, sizeof(in->ld->stop_why), fmt, ap);
		va_end(ap);
	}
	return RUN_STOP;
}

static struct bpfrr_ld_val unknown(void)
{
	return (struct bpfrr_ld_val){ .kind = BPFRR_LDV_UNKNOWN };
}

static struct bpfrr_ld_val constant(int64_t v)
{
	return (struct bpfrr_ld_val){ .kind = BPFRR_LDV_CONST, .v = v };
}

/* what a value becomes when stored now: marked conditional inside a branch's arm */
static struct bpfrr_ld_val as_stored(const struct interp *in, struct bpfrr_ld_val v, uint32_t size)
{
	if (v.kind == BPFRR_LDV_CONST && size < 8)
		v.v = (int64_t)((uint64_t)v.v & ((1ull << (8 * size)) - 1));
	if (in->depth && !(v.flags & BPFRR_LDV_F_COND)) {
		v.flags |= BPFRR_LDV_F_COND;
		v.cond_insn = in->cond_insn;
	}
	return v;
}

/* The memory a pointer value points into, and the offset there; NULL if not the blob or stack. */
static struct ld_mem *mem_of(struct interp *in, const struct bpfrr_ld_val *p, int64_t add, int64_t *off)
{
	if (p->kind == BPFRR_LDV_BLOB) {
		*off = p->v + add;
		return &in->blob;
	}
	if (p->kind == BPFRR_LDV_STACK) {
		*off = p->v + add + STACK_SIZE;
		return &in->stack;
	}
	return NULL;
}

static const uint32_t size_bytes[4] = { 4, 2, 1, 8 };	/* BPF_W, BPF_H, BPF_B, BPF_DW */

static struct bpfrr_ld_call *new_call(struct interp *in, size_t pc, int32_t helper)
{
	struct bpfrr_lskel *ld = in->ld;
	struct bpfrr_ld_call *c;

	if (ld->nr_calls == in->calls_cap) {
		uint32_t cap = in->calls_cap ? in->calls_cap * 2 : 8;
		struct bpfrr_ld_call *p = realloc(ld->calls, cap * sizeof(*p));

		if (!p) {
			in->oom = true;
			return NULL;
		}
		ld->calls = p;
		in->calls_cap = cap;
	}
	c = &ld->calls[ld->nr_calls];
	memset(c, 0, sizeof(*c));
	c->insn = (uint32_t)pc;
	c->helper = helper;
	if (in->depth) {
		c->flags = BPFRR_LDV_F_COND;
		c->cond_insn = in->cond_insn;
	}
	memcpy(c->args, &in->r[1], sizeof(c->args));
	ld->nr_calls++;
	return c;
}

/* the NUL-terminated name at blob+off (at most max bytes, and what the blob holds) */
static char *blob_name(const struct interp *in, const struct bpfrr_ld_val *p, const struct bpfrr_ld_val *len)
{
	uint64_t max = NAME_MAX_LEN, n;
	char *s;

	if (p->kind != BPFRR_LDV_BLOB || !in_range(&in->blob, p->v, 1))
		return NULL;
	if (len && len->kind == BPFRR_LDV_CONST && (uint64_t)len->v < max)
		max = (uint64_t)len->v;
	if (max > in->blob.len - (uint64_t)p->v)
		max = in->blob.len - (uint64_t)p->v;
	n = strnlen((const char *)in->blob.bytes + p->v, (size_t)max);
	s = malloc(n + 1);
	if (!s)
		return NULL;
	memcpy(s, in->blob.bytes + p->v, n);
	s[n] = '\0';
	return s;
}

/* --- an inner bpf() call: its attr and the buffers it points to, as the blob holds them now */

struct walk_ctx {
	struct interp *in;
	struct bpfrr_ld_call *c;
	int err;
};

static int walk_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct walk_ctx *w = ctx;
	uint64_t off = addr - BPFRR_LD_BLOB_ADDR;

	if (addr < BPFRR_LD_BLOB_ADDR || !in_range(&w->in->blob, (int64_t)off, len))
		return -EFAULT;
	mem_read_walk(w->in->ld, &w->in->blob, (uint32_t)off, buf, (uint32_t)len);
	return 0;
}

/* The fds of earlier inner calls: the object their attr says they made. */
static int walk_fd_info(void *ctx, int fd, enum bpfrr_obj_kind *kind, uint32_t *obj_type, uint32_t *key_size,
			uint32_t *value_size)
{
	struct walk_ctx *w = ctx;
	const struct bpfrr_ld_call *c;
	struct bpfrr_abi_made made;
	enum bpfrr_obj_kind k;
	uint32_t call;
	bool upper;

	if (!bpfrr_lskel_fake_fd(fd, &call, &upper) || call >= w->in->ld->nr_calls)
		return -ENOENT;
	c = &w->in->ld->calls[call];
	if (upper) {
		if (kind)
			*kind = BPFRR_OBJ_BTF;
		return 0;
	}
	if (!c->is_sys_bpf || !c->attr_blob)
		return -ENOENT;
	k = bpfrr_abi_cmd_ret_kind((int)c->cmd, c->attr, c->attr_size);
	if (k == BPFRR_OBJ_NONE)
		return -ENOENT;
	bpfrr_abi_cmd_made((int)c->cmd, c->attr, c->attr_size, &made);
	if (k == BPFRR_OBJ_MAP && (key_size || value_size) && !made.has_sizes)
		return -ENOENT;
	if (kind)
		*kind = k;
	if (obj_type)
		*obj_type = made.obj_type;
	if (key_size)
		*key_size = made.key_size;
	if (value_size)
		*value_size = made.value_size;
	return 0;
}

static int walk_buf(void *arg, const struct bpfrr_abi_buf *b)
{
	struct walk_ctx *w = arg;
	struct bpfrr_ld_call *c = w->c;
	uint64_t off = b->addr - BPFRR_LD_BLOB_ADDR, len = b->len;
	struct bpfrr_ld_buf *nb, *p;

	if (b->addr < BPFRR_LD_BLOB_ADDR || !in_range(&w->in->blob, (int64_t)off, 0))
		return 0;	/* not in the blob: a pointer the skeleton passes, or none */
	if (len > w->in->blob.len - off)
		len = w->in->blob.len - off;
	/* every call may point at all of the blob: bound what is copied */
	w->in->kept += len;
	if (w->in->kept > 4ull * w->in->blob.len + KEPT_SLACK) {
		w->in->too_much = true;
		return -E2BIG;
	}
	p = realloc(c->bufs, (c->nr_bufs + 1) * sizeof(*p));
	if (!p) {
		w->err = -ENOMEM;
		return -ENOMEM;
	}
	c->bufs = p;
	nb = &c->bufs[c->nr_bufs];
	memset(nb, 0, sizeof(*nb));
	nb->path = strdup(b->path);
	nb->bytes = malloc(len ? len : 1);
	nb->blob_bytes = malloc(len ? len : 1);
	if (!nb->path || !nb->bytes || !nb->blob_bytes) {
		free(nb->path);
		free(nb->bytes);
		free(nb->blob_bytes);
		w->err = -ENOMEM;
		return -ENOMEM;
	}
	nb->blob_off = (uint32_t)off;
	nb->len = (uint32_t)len;
	nb->want_len = b->want_len;
	nb->content = (uint8_t)b->content;
	nb->dir = (uint8_t)b->dir;
	nb->elem_size = b->elem_size;
	mem_read_walk(w->in->ld, &w->in->blob, nb->blob_off, nb->bytes, nb->len);
	memcpy(nb->blob_bytes, w->in->blob.bytes + nb->blob_off, nb->len);
	c->nr_bufs++;
	if (mem_patches(&w->in->blob, nb->blob_off, nb->len, &nb->patches, &nb->nr_patches)) {
		w->err = -ENOMEM;
		return -ENOMEM;
	}
	return 0;
}

static enum run_end sys_bpf_call(struct interp *in, size_t pc, struct bpfrr_ld_call *c)
{
	const struct bpfrr_ld_val *cmd = &c->args[0], *attr = &c->args[1], *size = &c->args[2];
	struct walk_ctx w = { .in = in, .c = c };
	struct bpfrr_abi_env env = {
		.read_mem = walk_read, .fd_info = walk_fd_info, .nr_cpus = 1, .ctx = &w,
	};

	c->is_sys_bpf = true;
	if (cmd->kind != BPFRR_LDV_CONST)
		return stop(in, pc, "bpf_sys_bpf's command is not a constant");
	if (attr->kind != BPFRR_LDV_BLOB)
		return stop(in, pc, "bpf_sys_bpf's attr is not in the blob");
	if (size->kind != BPFRR_LDV_CONST || size->v <= 0 || size->v > ATTR_MAX)
		return stop(in, pc, "bpf_sys_bpf's attr size is not a constant up to %d", ATTR_MAX);
	if (!in_range(&in->blob, attr->v, (uint64_t)size->v))
		return stop(in, pc, "bpf_sys_bpf's attr (blob+%" PRId64 ", %" PRId64 " bytes) ends past the blob",
			    attr->v, size->v);
	c->cmd = (uint32_t)cmd->v;
	c->attr_off = (uint32_t)attr->v;
	c->attr_size = (uint32_t)size->v;
	c->attr = malloc(c->attr_size);
	c->attr_blob = malloc(c->attr_size);
	if (!c->attr || !c->attr_blob) {
		in->oom = true;
		return RUN_STOP;
	}
	memcpy(c->attr_blob, in->blob.bytes + c->attr_off, c->attr_size);
	mem_read_walk(in->ld, &in->blob, c->attr_off, c->attr, c->attr_size);
	if (mem_patches(&in->blob, c->attr_off, c->attr_size, &c->patches, &c->nr_patches)) {
		in->oom = true;
		return RUN_STOP;
	}
	in->ld->nr_sys_bpf++;
	if (bpfrr_abi_cmd((int)c->cmd)) {
		bpfrr_abi_walk((int)c->cmd, c->attr, c->attr_size, BPFRR_PHASE_ENTRY, &env, walk_buf, &w);
		if (in->too_much)
			return stop(in, pc, "the buffers of the inner calls add up to more than 4 blobs");
		if (w.err) {
			in->oom = true;
			return RUN_STOP;
		}
	}
	return RUN_REACHED;
}

/* A helper call: recorded, and what it does to the blob and the stack modelled. */
static enum run_end helper_call(struct interp *in, size_t pc, int32_t func_id)
{
	int h = helper_of(func_id);
	struct bpfrr_ld_call *c;
	uint32_t idx = in->ld->nr_calls;
	enum run_end ret = RUN_REACHED;
	struct bpfrr_ld_val res;
	struct ld_mem *m;
	int64_t off;
	int i;

	if (h < 0)
		return stop(in, pc, "call of %s, a helper gen_loader does not emit", bpfrr_lskel_helper_name(func_id));
	c = new_call(in, pc, func_id);
	if (!c)
		return RUN_STOP;
	switch (h) {
	case H_PROBE_READ_KERNEL:
	case H_COPY_FROM_USER: {
		const struct bpfrr_ld_val *dst = &c->args[0], *len = &c->args[1], *src = &c->args[2];
		struct bpfrr_ld_val v = { .kind = BPFRR_LDV_COPY, .call = idx };

		m = mem_of(in, dst, 0, &off);
		if (!m || len->kind != BPFRR_LDV_CONST || !in_range(m, off, (uint64_t)len->v))
			return stop(in, pc, "%s into memory the decoder does not follow",
				    bpfrr_lskel_helper_name(func_id));
		/* from NULL the kernel's probe read fails and clears the destination */
		if (h == H_PROBE_READ_KERNEL && src->kind == BPFRR_LDV_CONST && src->v == 0 && !in->depth) {
			for (i = 0; i < len->v; i++) {
				m->bytes[off + i] = 0;
				m->owner[off + i] = OWN_CONST;
			}
			if (m == &in->stack)
				in->ld->stack_zeroed += (uint32_t)len->v;
			break;
		}
		v = as_stored(in, v, 8);
		if (len->v && mem_store(m, (uint32_t)off, (uint32_t)len->v, &v)) {
			in->oom = true;
			return RUN_STOP;
		}
		break;
	}
	case H_SYS_BPF:
		ret = sys_bpf_call(in, pc, c);
		break;
	case H_BTF_FIND:
		c->name = blob_name(in, &c->args[0], &c->args[1]);
		break;
	case H_TRACE_PRINTK:
		c->name = blob_name(in, &c->args[0], &c->args[1]);
		break;
	case H_KALLSYMS: {
		struct bpfrr_ld_val v = { .kind = BPFRR_LDV_RESULT_OUT, .call = idx };

		c->name = blob_name(in, &c->args[0], &c->args[1]);
		m = mem_of(in, &c->args[3], 0, &off);
		if (!m || !in_range(m, off, 8))
			return stop(in, pc, "bpf_kallsyms_lookup_name's result pointer is not one the decoder follows");
		v = as_stored(in, v, 8);
		if (mem_store(m, (uint32_t)off, 8, &v)) {
			in->oom = true;
			return RUN_STOP;
		}
		break;
	}
	default:
		break;
	}
	res = (struct bpfrr_ld_val){ .kind = BPFRR_LDV_RESULT, .call = idx };
	in->r[0] = res;
	for (i = 1; i <= 5; i++)
		in->r[i] = unknown();
	return ret;
}

/* dst op= src on constants (BPF semantics: division by 0 gives 0, modulo by 0 keeps dst) */
static bool alu_const(uint8_t op, bool is64, uint64_t dst, uint64_t src, uint64_t *out)
{
	unsigned int bits = is64 ? 64 : 32;
	uint64_t mask = is64 ? ~0ull : 0xffffffffull;

	dst &= mask;
	src &= mask;
	switch (op) {
	case OP_ADD: *out = dst + src; break;
	case OP_SUB: *out = dst - src; break;
	case OP_MUL: *out = dst * src; break;
	case OP_DIV: *out = src ? dst / src : 0; break;
	case OP_MOD: *out = src ? dst % src : dst; break;
	case OP_OR: *out = dst | src; break;
	case OP_AND: *out = dst & src; break;
	case OP_XOR: *out = dst ^ src; break;
	case OP_LSH: *out = dst << (src & (bits - 1)); break;
	case OP_RSH: *out = dst >> (src & (bits - 1)); break;
	case OP_ARSH:
		if (is64)
			*out = (uint64_t)((int64_t)dst >> (src & 63));
		else
			*out = (uint64_t)(uint32_t)((int32_t)(uint32_t)dst >> (src & 31));
		break;
	case OP_NEG: *out = -dst; break;
	case OP_MOV: *out = src; break;
	default:
		return false;
	}
	*out &= mask;
	return true;
}

static void alu(struct interp *in, const struct insn *i)
{
	bool is64 = (i->code & 0x07) == CLS_ALU64;
	uint8_t op = i->code & OP_MASK;
	struct bpfrr_ld_val *dst = &in->r[dst_of(i)];
	struct bpfrr_ld_val src = (i->code & SRC_X) ? in->r[src_of(i)] : constant(is64 ? (int64_t)i->imm
										: (int64_t)(uint32_t)i->imm);
	uint64_t v;

	if (op == OP_MOV && i->off == 0) {
		if (is64 || src.kind == BPFRR_LDV_CONST)
			*dst = src;
		else
			*dst = unknown();
		if (!is64 && dst->kind == BPFRR_LDV_CONST)
			dst->v = (int64_t)(uint32_t)dst->v;
		dst->flags = 0;
		return;
	}
	if (op == OP_MOV) {		/* movsx */
		*dst = unknown();
		return;
	}
	if (dst->kind == BPFRR_LDV_CONST && src.kind == BPFRR_LDV_CONST && alu_const(op, is64, (uint64_t)dst->v,
										     (uint64_t)src.v, &v)) {
		*dst = constant((int64_t)v);
		return;
	}
	/* pointer arithmetic: blob, ctx, stack + constant */
	if (is64 && (op == OP_ADD || op == OP_SUB) && src.kind == BPFRR_LDV_CONST &&
	    (dst->kind == BPFRR_LDV_BLOB || dst->kind == BPFRR_LDV_CTX || dst->kind == BPFRR_LDV_STACK)) {
		dst->v = op == OP_ADD ? dst->v + src.v : dst->v - src.v;
		return;
	}
	/* a helper's upper half: the module BTF fd of bpf_btf_find_by_name_kind, an address's */
	if (is64 && op == OP_RSH && src.kind == BPFRR_LDV_CONST && src.v == 32 && !dst->shift &&
	    (dst->kind == BPFRR_LDV_RESULT || dst->kind == BPFRR_LDV_RESULT_OUT)) {
		dst->shift = 32;
		dst->flags = 0;
		return;
	}
	*dst = unknown();
}

/* the outcome of a conditional jump on constants */
static bool jmp_const(uint8_t op, bool is64, uint64_t a, uint64_t b, bool *taken)
{
	int64_t sa, sb;

	if (!is64) {
		a &= 0xffffffffull;
		b &= 0xffffffffull;
		sa = (int32_t)(uint32_t)a;
		sb = (int32_t)(uint32_t)b;
	} else {
		sa = (int64_t)a;
		sb = (int64_t)b;
	}
	switch (op) {
	case OP_JEQ: *taken = a == b; break;
	case OP_JNE: *taken = a != b; break;
	case OP_JGT: *taken = a > b; break;
	case OP_JGE: *taken = a >= b; break;
	case OP_JLT: *taken = a < b; break;
	case OP_JLE: *taken = a <= b; break;
	case OP_JSET: *taken = (a & b) != 0; break;
	case OP_JSGT: *taken = sa > sb; break;
	case OP_JSGE: *taken = sa >= sb; break;
	case OP_JSLT: *taken = sa < sb; break;
	case OP_JSLE: *taken = sa <= sb; break;
	default:
		return false;
	}
	return true;
}

static void merge_regs(struct bpfrr_ld_val *into, const struct bpfrr_ld_val *other)
{
	int i;

	for (i = 0; i < 11; i++)
		if (memcmp(&into[i], &other[i], sizeof(into[i])))
			into[i] = unknown();
}

static enum run_end run(struct interp *in, size_t pc, size_t end, size_t *jump_to);

/* An unknown forward branch at pc to t: both arms, each once, then on at their join. */
static enum run_end branch_arms(struct interp *in, size_t pc, size_t t, size_t end, size_t *next)
{
	struct bpfrr_ld_val s0[11], s1[11];
	uint32_t outer_cond = in->cond_insn;
	enum run_end r;
	size_t join;

	memcpy(s0, in->r, sizeof(s0));
	in->depth++;
	in->cond_insn = (uint32_t)pc;
	r = run(in, pc + 1, t, &join);
	if (r == RUN_REACHED) {
		merge_regs(in->r, s0);
		*next = t;
	} else if (r == RUN_JUMP) {
		/* if/else: the fall-through arm ends with a goto past the other one */
		if (join > end) {
			r = stop(in, t - 1, "jump past the end of the branch it is in");
			goto out;
		}
		memcpy(s1, in->r, sizeof(s1));
		memcpy(in->r, s0, sizeof(s0));
		r = run(in, t, join, NULL);
		if (r == RUN_REACHED) {
			merge_regs(in->r, s1);
			*next = join;
		} else if (r == RUN_JUMP) {
			r = stop(in, join - 1, "jump past the end of the branch it is in");
		}
	} else if (r == RUN_EXIT) {
		r = stop(in, pc, "an arm of this branch exits the program");
	}
out:
	in->depth--;
	in->cond_insn = outer_cond;
	return r == RUN_JUMP ? RUN_STOP : (r == RUN_REACHED ? RUN_REACHED : r);
}

static enum run_end load_store(struct interp *in, size_t pc, const struct insn *i)
{
	uint8_t cls = i->code & 0x07;
	uint32_t size = size_bytes[(i->code & SZ_MASK) >> 3];
	const struct bpfrr_ld_val *base = &in->r[cls == CLS_LDX ? src_of(i) : dst_of(i)];
	struct bpfrr_ld_val val;
	struct ld_mem *m;
	int64_t off;

	if ((i->code & MODE_MASK) != MODE_MEM)
		return stop(in, pc, "a load or store mode gen_loader does not emit (code %#x)", i->code);
	if (cls == CLS_LDX) {
		if (base->kind == BPFRR_LDV_CTX) {
			val = (struct bpfrr_ld_val){ .kind = BPFRR_LDV_CTX_FIELD, .size = (uint8_t)size,
						     .v = base->v + i->off };
		} else if ((m = mem_of(in, base, i->off, &off))) {
			if (!in_range(m, off, size))
				return stop(in, pc, "a load outside the %s", m == &in->blob ? "blob" : "stack");
			val = mem_load(m, (uint32_t)off, size);
		} else {
			val = unknown();	/* memory the decoder does not model: the value is not known */
		}
		in->r[dst_of(i)] = val;
		return RUN_REACHED;
	}
	val = cls == CLS_STX ? in->r[src_of(i)] : constant(i->imm);
	val = as_stored(in, val, size);
	if (base->kind == BPFRR_LDV_CTX) {
		struct bpfrr_lskel *ld = in->ld;
		struct bpfrr_ld_ctx_out *p = realloc(ld->ctx_outs, (ld->nr_ctx_outs + 1) * sizeof(*p));

		if (!p) {
			in->oom = true;
			return RUN_STOP;
		}
		ld->ctx_outs = p;
		p[ld->nr_ctx_outs++] = (struct bpfrr_ld_ctx_out){
			.insn = (uint32_t)pc, .ctx_off = (uint32_t)(base->v + i->off), .size = size, .val = val,
		};
		return RUN_REACHED;
	}
	m = mem_of(in, base, i->off, &off);
	if (!m)
		return stop(in, pc, "a store through a pointer the decoder does not follow");
	if (!in_range(m, off, size))
		return stop(in, pc, "a store outside the %s", m == &in->blob ? "blob" : "stack");
	if (mem_store(m, (uint32_t)off, size, &val)) {
		in->oom = true;
		return RUN_STOP;
	}
	return RUN_REACHED;
}

static enum run_end ld_imm64(struct interp *in, size_t pc, const struct insn *i)
{
	const struct insn *hi = &in->insns[pc + 1];
	unsigned int src = src_of(i);
	bool is_blob;

	if (pc + 1 >= in->cnt)
		return stop(in, pc, "ld_imm64 cut at the end of the program");
	if (src == 0) {
		in->r[dst_of(i)] = constant((int64_t)((uint64_t)(uint32_t)i->imm | (uint64_t)(uint32_t)hi->imm << 32));
		return RUN_REACHED;
	}
	is_blob = (src == PSEUDO_MAP_IDX_VALUE && in->blob_by_idx && i->imm == in->blob_ref) ||
		  (src == PSEUDO_MAP_VALUE && !in->blob_by_idx && i->imm == in->blob_ref);
	if (!is_blob)
		return stop(in, pc, "ld_imm64 of something other than the blob (src_reg %u, imm %d)", src, i->imm);
	if (!in_range(&in->blob, (uint32_t)hi->imm, 0))
		return stop(in, pc, "address blob+%u, past the blob's %u bytes", (uint32_t)hi->imm, in->blob.len);
	in->r[dst_of(i)] = (struct bpfrr_ld_val){ .kind = BPFRR_LDV_BLOB, .v = (uint32_t)hi->imm };
	return RUN_REACHED;
}

/*
 * Interpret from pc until end (RUN_REACHED), the program's exit (RUN_EXIT),
 * a goto at end - 1 that jumps past end (RUN_JUMP, *jump_to: an if/else
 * arm), or a stop.
 */
static enum run_end run(struct interp *in, size_t pc, size_t end, size_t *jump_to)
{
	enum run_end r;

	while (pc != end) {
		const struct insn *i;
		uint8_t cls, op;
		size_t t;

		if (pc >= in->cnt)
			return stop(in, pc, "ran past the last instruction");
		if (in->oom)
			return RUN_STOP;
		if (++in->ld->insns_visited > in->cnt)
			return stop(in, pc, "visited more instructions than the program has");
		i = &in->insns[pc];
		cls = i->code & 0x07;
		op = i->code & OP_MASK;
		if (dst_of(i) > 10 || src_of(i) > 10)
			return stop(in, pc, "register out of range");
		switch (cls) {
		case CLS_ALU:
		case CLS_ALU64:
			if (dst_of(i) == 10)
				return stop(in, pc, "a write to r10");
			if (op > OP_ARSH && op != 0xd0)
				return stop(in, pc, "an ALU op gen_loader does not emit (code %#x)", i->code);
			if (op == 0xd0) {
				in->r[dst_of(i)] = unknown();	/* byte swap */
			} else {
				alu(in, i);
			}
			pc++;
			break;
		case CLS_LD:
			if (i->code != LD_IMM64)
				return stop(in, pc, "a legacy packet load (code %#x)", i->code);
			if (dst_of(i) == 10)
				return stop(in, pc, "a write to r10");
			if ((r = ld_imm64(in, pc, i)) != RUN_REACHED)
				return r;
			pc += 2;
			break;
		case CLS_LDX:
		case CLS_ST:
		case CLS_STX:
			if (cls == CLS_LDX && dst_of(i) == 10)
				return stop(in, pc, "a write to r10");
			if ((r = load_store(in, pc, i)) != RUN_REACHED)
				return r;
			pc++;
			break;
		case CLS_JMP:
		case CLS_JMP32: {
			bool is64 = cls == CLS_JMP, taken;
			int64_t rel = (cls == CLS_JMP32 && op == OP_JA) ? i->imm : i->off;
			struct bpfrr_ld_val a, b;

			if (op == OP_CALL) {
				if (cls != CLS_JMP || src_of(i) != 0)
					return stop(in, pc, "a call of a subprogram or kfunc");
				if ((r = helper_call(in, pc, i->imm)) != RUN_REACHED)
					return r;
				pc++;
				break;
			}
			if (op == OP_EXIT) {
				if (cls != CLS_JMP)
					return stop(in, pc, "not an instruction (code %#x)", i->code);
				if (in->depth)
					return RUN_EXIT;
				in->ld->complete = true;
				in->ld->exit_val = in->r[0];
				return RUN_EXIT;
			}
			if ((int64_t)pc + 1 + rel < 0)
				return stop(in, pc, "jump before the first instruction");
			t = (size_t)((int64_t)pc + 1 + rel);
			if (op == OP_JA) {
				if (t <= pc)
					return stop(in, pc, "backward jump (a loop)");
				if (!in->have_cleanup && !in->depth) {
					/* gen_loader's first goto skips the cleanup block its error exits jump to */
					in->have_cleanup = true;
					in->cleanup_lo = pc + 1;
					in->cleanup_hi = t;
				}
				if (t > end) {
					if (pc + 1 == end && jump_to) {
						*jump_to = t;
						return RUN_JUMP;
					}
					return stop(in, pc, "jump past the end of the branch it is in");
				}
				pc = t;
				break;
			}
			if (op == 0xe0 || op == 0xf0)
				return stop(in, pc, "not an instruction gen_loader emits (code %#x)", i->code);
			a = in->r[dst_of(i)];
			b = (i->code & SRC_X) ? in->r[src_of(i)] : constant(i->imm);
			if (a.kind == BPFRR_LDV_CONST && b.kind == BPFRR_LDV_CONST &&
			    jmp_const(op, is64, (uint64_t)a.v, (uint64_t)b.v, &taken)) {
				if (!taken) {
					pc++;
					break;
				}
				if (t <= pc)
					return stop(in, pc, "backward jump taken (a loop)");
				if (t > end)
					return stop(in, pc, "jump past the end of the branch it is in");
				pc = t;
				break;
			}
			if (t <= pc) {
				/* an error exit to the cleanup block: the path that goes on is the one decoded */
				if (!in->have_cleanup || t < in->cleanup_lo || t >= in->cleanup_hi)
					return stop(in, pc, "backward branch not to gen_loader's cleanup (a loop)");
				pc++;
				break;
			}
			if (t > end)
				return stop(in, pc, "branch past the end of the branch it is in");
			if ((r = branch_arms(in, pc, t, end, &pc)) != RUN_REACHED)
				return r;
			break;
		}
		default:
			return stop(in, pc, "not an instruction (code %#x)", i->code);
		}
	}
	return RUN_REACHED;
}

/* --- entry points ------------------------------------------------------------------------ */

bool bpfrr_lskel_looks_generated(const void *insns, size_t insn_cnt)
{
	struct insn in[6];

	if (!insns || insn_cnt < 8)
		return false;
	memcpy(in, insns, sizeof(in));
	/* r6 = r1; r1 = r10; r1 += -N; r2 = N; r3 = 0; call bpf_probe_read_kernel */
	return in[0].code == (CLS_ALU64 | OP_MOV | SRC_X) && in[0].regs == (1 << 4 | 6) &&
	       in[1].code == (CLS_ALU64 | OP_MOV | SRC_X) && in[1].regs == (10 << 4 | 1) &&
	       in[2].code == (CLS_ALU64 | OP_ADD) && dst_of(&in[2]) == 1 && in[2].imm < 0 &&
	       in[3].code == (CLS_ALU64 | OP_MOV) && dst_of(&in[3]) == 2 && in[3].imm == -in[2].imm &&
	       in[4].code == (CLS_ALU64 | OP_MOV) && dst_of(&in[4]) == 3 && in[4].imm == 0 &&
	       in[5].code == (CLS_JMP | OP_CALL) && helper_of(in[5].imm) == H_PROBE_READ_KERNEL;
}

static void call_free(struct bpfrr_ld_call *c)
{
	uint32_t i;

	free(c->attr);
	free(c->attr_blob);
	free(c->patches);
	for (i = 0; i < c->nr_bufs; i++) {
		free(c->bufs[i].path);
		free(c->bufs[i].bytes);
		free(c->bufs[i].blob_bytes);
		free(c->bufs[i].patches);
	}
	free(c->bufs);
	free(c->name);
}

void bpfrr_lskel_free(struct bpfrr_lskel *ld)
{
	uint32_t i;

	if (!ld)
		return;
	for (i = 0; i < ld->nr_calls; i++)
		call_free(&ld->calls[i]);
	free(ld->calls);
	free(ld->ctx_outs);
	free(ld);
}

int bpfrr_lskel_decode(const void *insns, size_t insn_cnt, const void *blob, size_t blob_len, bool blob_by_idx,
			int32_t blob_ref, struct bpfrr_lskel **out)
{
	struct interp in = { .cnt = insn_cnt, .blob_by_idx = blob_by_idx, .blob_ref = blob_ref };
	struct insn *copy = NULL;
	int i;

	*out = NULL;
	in.ld = calloc(1, sizeof(*in.ld));
	if (!in.ld)
		return -ENOMEM;
	in.ld->stop_insn = -1;
	if (blob_len > BLOB_MAX || insn_cnt > UINT32_MAX / 16) {
		stop(&in, 0, "program or blob too large to decode (blob over %u MiB)", BLOB_MAX >> 20);
		*out = in.ld;
		return 0;
	}
	if (insn_cnt) {
		copy = malloc(insn_cnt * sizeof(*copy));	/* aligned */
		if (!copy)
			goto oom;
		memcpy(copy, insns, insn_cnt * sizeof(*copy));
	}
	in.insns = copy;
	if (mem_init(&in.blob, blob, (uint32_t)blob_len, OWN_CONST) ||
	    mem_init(&in.stack, NULL, STACK_SIZE, OWN_UNKNOWN))
		goto oom;
	for (i = 0; i < 11; i++)
		in.r[i] = unknown();
	in.r[1] = (struct bpfrr_ld_val){ .kind = BPFRR_LDV_CTX };
	in.r[10] = (struct bpfrr_ld_val){ .kind = BPFRR_LDV_STACK };
	if (!insn_cnt)
		stop(&in, 0, "no instructions");
	else
		run(&in, 0, (size_t)-1, NULL);
	if (in.oom)
		goto oom;
	if (!in.ld->complete && in.ld->stop_insn < 0)
		stop(&in, 0, "no exit reached");
	mem_free(&in.blob);
	mem_free(&in.stack);
	free(copy);
	*out = in.ld;
	return 0;
oom:
	mem_free(&in.blob);
	mem_free(&in.stack);
	free(copy);
	bpfrr_lskel_free(in.ld);
	return -ENOMEM;
}

bool bpfrr_lskel_fake_fd(int64_t fd, uint32_t *call, bool *upper)
{
	if (fd < BPFRR_LD_FD_BASE || fd > BPFRR_LD_FD_BASE + BPFRR_LD_FD_MAX)
		return false;
	fd -= BPFRR_LD_FD_BASE;
	*upper = fd >= BPFRR_LD_FD_UPPER;
	*call = (uint32_t)(*upper ? fd - BPFRR_LD_FD_UPPER : fd);
	return true;
}

/* --- as text ---------------------------------------------------------------------------------- */

const char *bpfrr_lskel_val_kind_name(uint8_t kind)
{
	static const char *const names[] = {
		[BPFRR_LDV_UNKNOWN] = "unknown", [BPFRR_LDV_CONST] = "const", [BPFRR_LDV_BLOB] = "blob",
		[BPFRR_LDV_CTX] = "ctx", [BPFRR_LDV_STACK] = "stack", [BPFRR_LDV_CTX_FIELD] = "ctx_field",
		[BPFRR_LDV_RESULT] = "result", [BPFRR_LDV_RESULT_OUT] = "result_out", [BPFRR_LDV_COPY] = "copy",
	};

	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "unknown";
}

const char *bpfrr_lskel_ctx_field(uint32_t off)
{
	/* libbpf's struct bpf_loader_ctx (skel_internal.h): sz, flags, log_level, log_size, log_buf */
	switch (off) {
	case 0: return "ctx.sz";
	case 4: return "ctx.flags";
	case 8: return "ctx.log_level";
	case 12: return "ctx.log_size";
	case 16: return "ctx.log_buf";
	default: return NULL;
	}
}

/* "inner #3 BPF_MAP_CREATE", "inner #4 bpf_btf_find_by_name_kind(\"bpf_foo\")" */
static void call_text(const struct bpfrr_lskel *ld, uint32_t k, char *buf, size_t size)
{
	const struct bpfrr_ld_call *c = k < ld->nr_calls ? &ld->calls[k] : NULL;
	const char *cmd;

	if (!c) {
		snprintf(buf, size, "inner #%u", k + 1);
		return;
	}
	if (c->is_sys_bpf && (cmd = bpfrr_abi_cmd_name((int)c->cmd)))
		snprintf(buf, size, "inner #%u %s", k + 1, cmd);
	else if (c->name)
		snprintf(buf, size, "inner #%u %s(\"%.64s\")", k + 1, bpfrr_lskel_helper_name(c->helper), c->name);
	else
		snprintf(buf, size, "inner #%u %s", k + 1, bpfrr_lskel_helper_name(c->helper));
}

char *bpfrr_lskel_val_text(const struct bpfrr_lskel *ld, const struct bpfrr_ld_val *v, char *buf, size_t size)
{
	char call[128];
	const char *name;
	int n = 0;

	if (v->kind == BPFRR_LDV_RESULT || v->kind == BPFRR_LDV_RESULT_OUT || v->kind == BPFRR_LDV_COPY)
		call_text(ld, v->call, call, sizeof(call));
	switch (v->kind) {
	case BPFRR_LDV_CONST:
		n = snprintf(buf, size, "%" PRId64, v->v);
		break;
	case BPFRR_LDV_BLOB:
		n = snprintf(buf, size, "blob+%" PRId64, v->v);
		break;
	case BPFRR_LDV_CTX:
		n = snprintf(buf, size, "the address ctx+%" PRId64, v->v);
		break;
	case BPFRR_LDV_STACK:
		n = snprintf(buf, size, "the address r10%+" PRId64, v->v);
		break;
	case BPFRR_LDV_CTX_FIELD:
		name = bpfrr_lskel_ctx_field((uint32_t)v->v);
		n = snprintf(buf, size, "ctx+%" PRId64 "%s%s%s", v->v, name ? " (" : "", name ? name : "",
			     name ? ")" : "");
		break;
	case BPFRR_LDV_RESULT: {
		const struct bpfrr_ld_call *c = v->call < ld->nr_calls ? &ld->calls[v->call] : NULL;
		int h = c ? helper_of(c->helper) : -1;

		if (c && c->is_sys_bpf && bpfrr_abi_cmd_ret_kind((int)c->cmd, c->attr_blob, c->attr_size) !=
					  BPFRR_OBJ_NONE && !v->shift)
			n = snprintf(buf, size, "fd of %s", call);
		else if (h == H_BTF_FIND)
			n = snprintf(buf, size, "%s from %s", v->shift ? "module BTF fd (0: vmlinux)" : "BTF id", call);
		else
			n = snprintf(buf, size, "%sresult of %s", v->shift ? "upper half of the " : "", call);
		break;
	}
	case BPFRR_LDV_RESULT_OUT:
		n = snprintf(buf, size, "%saddress found by %s", v->shift ? "upper half of the " : "", call);
		break;
	case BPFRR_LDV_COPY:
		if (v->flags & BPFRR_LDV_F_EITHER) {
			char call2[128];

			call_text(ld, v->call2, call2, sizeof(call2));
			n = snprintf(buf, size, "bytes copied in by %s or by %s", call, call2);
		} else {
			n = snprintf(buf, size, "bytes copied in by %s", call);
		}
		break;
	default:
		n = snprintf(buf, size, "a value not known statically");
		break;
	}
	if (n >= 0 && (size_t)n < size && (v->flags & BPFRR_LDV_F_EITHER))
		snprintf(buf + n, size - (size_t)n, " (as the branch at insn %u goes)", v->cond_insn);
	else if (n >= 0 && (size_t)n < size && (v->flags & BPFRR_LDV_F_COND))
		snprintf(buf + n, size - (size_t)n, " (when the branch at insn %u goes that way)", v->cond_insn);
	return buf;
}

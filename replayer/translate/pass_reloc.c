// SPDX-License-Identifier: GPL-2.0-only
/*
 * pass_reloc.c - the front end's pass 3: relocation, the kept calls as IR.
 *
 * For each kept call, in recorded (seq) order:
 *  - bpf(): the recorded attr; a buffer for every pointer the ABI walker
 *    found (input buffers with the recorded bytes, output buffers with their
 *    capacity, nested ones such as kprobe_multi.syms[i] under their parent),
 *    and an empty buffer for a non-null pointer with nothing behind it (the
 *    kernel must never see a recorded address);
 *  - perf_event_open(): the recorded perf_event_attr, the kprobe function /
 *    uprobe path config1 points to as a buffer, and replay-time resolutions
 *    of a dynamic PMU type and of a tracepoint id, by the name the loader
 *    read them under (the trace's tracefs and /sys/bus/event_source reads);
 *  - ioctl() on a perf event: the request and its integer or fd argument;
 *  - every number of the recording kernel build a call carries (a BTF id in
 *    attach_btf_id, btf_vmlinux_value_type_id, target_btf_id or an
 *    instruction's imm, a tracepoint id, a dynamic PMU type, a kernel
 *    address) becomes a resolution by the name the trace's SYMBOL record
 *    gives it; one nothing names makes the call BUILD_BOUND, with the
 *    reason (a trace of a bpfrr without symbol records names nothing);
 *  - every fd (pass 1's refs) becomes a relocation to the slot of its
 *    object; the object a call makes becomes a slot with the recorder's
 *    identity of it (for --verify) and the KEEP flag if it had an open fd
 *    at the replay point.
 * Opens kept by pass 2 become slots the replayer opens by path.
 *
 * A call that cannot be replayed faithfully is refused with the reason (a
 * recorded buffer missing or cut short, an fd of an object made outside the
 * trace, a tracepoint id no recorded read names, a pointer in an ioctl
 * argument, a syscall program's run, ...): an error, or with
 * skip_untranslatable a skipped call, and so is every later call that
 * needs what it would have made.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bpf_disasm.h"
#include "grow.h"
#include "frontend_int.h"
#include "pass_core.h"
#include "u64map.h"

#define PERF_TYPE_TRACEPOINT	2
#define PERF_TYPE_MAX		6	/* types below are fixed; others are dynamic PMUs */
#define PERF_ATTR_SIZE_VER0	64
#define PERF_ATTR_CONFIG2	64	/* kprobe: the address (config1 0) or the offset */

/* A resolution by a SYMBOL record's name (strings point into the trace reader). */
struct psym {
	uint32_t kind;			/* BPFRR_IR_RESOLVE_BTF_ID, _KSYM_ADDR */
	int32_t buf;			/* BPFRR_IR_IN_ATTR or a pbuf index */
	uint32_t offset;
	const char *name, *module;
	uint32_t btf_kind;
	int64_t addend;
};

/* A buffer being prepared for the IR. */
struct pbuf {
	char *path;			/* malloc'd */
	int32_t parent;
	uint32_t ptr_offset, len;
	uint8_t dir, content;
	uint8_t *data;			/* malloc'd, or NULL */
};

struct prep {
	const struct fe_trace *t;
	struct fe_call *c;
	uint32_t op, cmd, flags, attr_size;
	uint8_t *attr;			/* malloc'd copy */
	int64_t args[4];
	struct pbuf *bufs;
	uint32_t nr_bufs, cap_bufs;
	struct bpfrr_ir_fdrel *rels;
	uint32_t nr_rels, cap_rels;
	struct bpfrr_ir_resolve res[4];	/* names point into t->values or the reader */
	uint32_t nr_res;
	struct psym *syms;
	uint32_t nr_syms, cap_syms;
	char bound_why[200];		/* the first number nothing names: BUILD_BOUND */
	char why[200];			/* the reason it cannot be translated */
};


static int refuse(struct prep *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(struct prep *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->why, sizeof(p->why), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static void prep_free(struct prep *p)
{
	uint32_t i;

	for (i = 0; i < p->nr_bufs; i++) {
		free(p->bufs[i].path);
		free(p->bufs[i].data);
	}
	free(p->bufs);
	free(p->rels);
	free(p->attr);
	free(p->syms);
	p->bufs = NULL;
	p->rels = NULL;
	p->attr = NULL;
	p->syms = NULL;
	p->nr_bufs = p->nr_rels = p->nr_syms = 0;
}

/* Takes data (freed on failure). */
static int add_pbuf(struct prep *p, const char *path, int32_t parent, uint32_t ptr_offset, uint32_t len,
		    uint8_t dir, uint8_t content, uint8_t *data)
{
	char *copy = strdup(path);

	if (!copy || (dir != BPFRR_DIR_OUT && !data) ||
	    bpfrr_grow((void **)&p->bufs, &p->cap_bufs, p->nr_bufs + 1, sizeof(*p->bufs))) {
		free(copy);
		free(data);
		return -ENOMEM;
	}
	p->bufs[p->nr_bufs++] = (struct pbuf){ copy, parent, ptr_offset, len, dir, content, data };
	return 0;
}

static int add_rel(struct prep *p, int32_t buf, uint64_t offset, uint32_t slot, uint32_t ref)
{
	if (bpfrr_grow((void **)&p->rels, &p->cap_rels, p->nr_rels + 1, sizeof(*p->rels)))
		return -ENOMEM;
	p->rels[p->nr_rels++] = (struct bpfrr_ir_fdrel){ buf, (uint32_t)offset, slot, ref };
	return 0;
}

static int32_t find_pbuf(const struct prep *p, const char *path)
{
	uint32_t i;

	for (i = 0; i < p->nr_bufs; i++)
		if (!strcmp(p->bufs[i].path, path))
			return (int32_t)i;
	return -1;
}

/* The recorded bytes of [addr, addr + len) at entry, malloc'd; NULL if not all were recorded. */
static uint8_t *entry_bytes(const struct prep *p, uint64_t addr, uint64_t len)
{
	const void *src = len ? fe_mem(p->t, p->c, BPFRR_PHASE_ENTRY, addr, len) : NULL;
	uint8_t *data;

	if (len && !src)
		return NULL;
	data = malloc(len ? len : 1);
	if (data && len)
		memcpy(data, src, len);
	return data;
}

/* Where a nested buffer's pointer sits: its parent buffer and the offset in it. */
static int nested_parent(const struct prep *p, const struct fe_buf *b, int32_t *parent, uint32_t *off)
{
	char ppath[512];
	const char *cut;
	size_t n = strlen(b->path);

	if (n >= sizeof(ppath))
		return -1;
	if (b->path[n - 1] == ']') {
		/* "X[N]": element N of the pointer array X */
		const char *open = strrchr(b->path, '[');
		char *end;
		unsigned long idx;

		if (!open)
			return -1;
		idx = strtoul(open + 1, &end, 10);
		if (*end != ']' || idx > BPFRR_IR_MAX_BUF / 8)
			return -1;
		memcpy(ppath, b->path, (size_t)(open - b->path));
		ppath[open - b->path] = '\0';
		*off = (uint32_t)(idx * 8);
	} else {
		/* "X.field": a pointer field of the struct X points to */
		cut = strrchr(b->path, '.');
		if (!cut || !b->field)
			return -1;
		memcpy(ppath, b->path, (size_t)(cut - b->path));
		ppath[cut - b->path] = '\0';
		*off = b->field->offset;
	}
	*parent = find_pbuf(p, ppath);
	return *parent < 0 ? -1 : 0;
}

static int prep_bufs(struct prep *p)
{
	struct fe_call *c = p->c;
	uint32_t i, j;
	int ret;

	for (i = 0; i < c->nr_bufs; i++) {
		const struct fe_buf *b = &c->bufs[i];
		int32_t parent = BPFRR_IR_IN_ATTR;
		uint32_t off = b->field ? b->field->offset : 0;
		uint8_t *data = NULL;

		if (b->flags & BPFRR_ABI_BUF_LEN_UNKNOWN)
			return refuse(p, "%s: its length is unknown (an object the trace does not describe)",
				      b->path);
		if (b->flags & BPFRR_ABI_BUF_NO_NUL)
			return refuse(p, "%s: a string with no NUL within the %" PRIu64 " bytes recorded", b->path,
				      b->len);
		if (b->flags & BPFRR_ABI_BUF_TRUNCATED || b->len > BPFRR_IR_MAX_BUF)
			return refuse(p, "%s: %" PRIu64 " bytes, more than bpfrr records", b->path, b->want_len);
		if (b->depth > 0 && nested_parent(p, b, &parent, &off))
			return refuse(p, "%s: a pointer inside a buffer the translator cannot place", b->path);
		if (b->dir != BPFRR_DIR_OUT) {
			data = entry_bytes(p, b->addr, b->len);
			if (!data)
				return refuse(p, "%s: its %" PRIu64 " bytes were not all recorded", b->path, b->len);
		}
		if ((ret = add_pbuf(p, b->path, parent, off, (uint32_t)b->len, b->dir, b->content, data)))
			return ret;
	}
	/* a non-null pointer with nothing behind it still gets a (replayer) address */
	for (i = 0; i < c->nr_ptrs; i++) {
		const struct bpfrr_field *f = c->ptrs[i];
		bool covered = false;

		for (j = 0; j < p->nr_bufs && !covered; j++)
			covered = p->bufs[j].parent == BPFRR_IR_IN_ATTR && p->bufs[j].ptr_offset == f->offset;
		if (covered)
			continue;
		char path[160];

		snprintf(path, sizeof(path), "attr.%s", f->name);
		if ((ret = add_pbuf(p, path, BPFRR_IR_IN_ATTR, f->offset, 0, f->buf_dir ? f->buf_dir : BPFRR_DIR_IN,
				    f->content, f->buf_dir == BPFRR_DIR_OUT ? NULL : calloc(1, 1))))
			return ret;
	}
	return 0;
}

/* The last successful BPF_PROG_TEST_RUN of a syscall program before seq (0: none). */
static uint64_t syscall_prog_run_before(const struct fe_trace *t, uint64_t seq)
{
	uint64_t best = 0;
	uint32_t i;

	for (i = 0; i < t->nr_calls; i++) {
		const struct fe_call *c = &t->calls[i];

		if (c->is_bpf && c->cmd == BPFRR_CMD_PROG_TEST_RUN && c->seq < seq && c->seq > best &&
		    !bpfrr_trace_ret_errno(c->ret) && !(c->flags & BPFRR_CALL_NO_EXIT) &&
		    fe_obj_type(c->target) == FE_PROG_TYPE_SYSCALL)
			best = c->seq;
	}
	return best;
}

/* The slot an fd of c names, or a refusal. */
static int ref_slot(struct prep *p, const struct fe_ref *r, uint32_t *slot)
{
	struct fe_obj *o = fe_canon(r->obj);
	char desc[96];

	if (!o && r->raced)
		return refuse(p, "%s: fd %d was closed and reused by another thread while the call ran",
			      r->path, r->fd);
	if (!o)
		return refuse(p, "%s: fd %d names no object the trace knows (inherited, or made by a call "
			      "bpfrr does not record)", r->path, r->fd);
	if (!o->base.origin && !o->run) {
		uint64_t run = syscall_prog_run_before(p->t, p->c->seq);
		char hint[96] = "";

		if (run)
			snprintf(hint, sizeof(hint), " (perhaps by the syscall program run at seq %" PRIu64
				 ", as light skeletons do)", run);
		return refuse(p, "%s: fd %d names a %s made outside the trace%s", r->path, r->fd,
			      bpfrr_abi_obj_kind_name((enum bpfrr_obj_kind)o->base.kind) ?: "object", hint);
	}
	if (o->unavailable)
		return refuse(p, "%s: fd %d names %s, whose call was skipped", r->path, r->fd,
			      fe_obj_desc(o, desc, sizeof(desc)));
	if (o->slot < 0)
		return refuse(p, "%s: fd %d names %s, which is not replayed", r->path, r->fd,
			      fe_obj_desc(o, desc, sizeof(desc)));
	*slot = (uint32_t)o->slot;
	return 0;
}

static int prep_rels(struct prep *p)
{
	struct fe_call *c = p->c;
	uint32_t i, slot = 0;
	int ret;

	for (i = 0; i < c->nr_refs; i++) {
		const struct fe_ref *r = &c->refs[i];
		int32_t where = r->where;

		/* a negative fd is "none" (kept as recorded), unless it names something */
		if (r->fd < 0 && !r->obj && !r->raced)
			continue;
		if ((ret = ref_slot(p, r, &slot)))
			return ret;
		if (where == FE_IN_BUF) {
			where = find_pbuf(p, r->buf_path);
			if (where < 0)
				return refuse(p, "%s: an fd inside %s, which was not recorded", r->path, r->buf_path);
		}
		if ((ret = add_rel(p, where, r->offset, slot, r->ref)))
			return ret;
	}
	return 0;
}

/* --- numbers of the recording kernel build ---------------------------------------------- */

static void bound(struct prep *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bound(struct prep *p, const char *fmt, ...)
{
	va_list ap;

	if (p->bound_why[0])
		return;		/* the first reason is the one reported */
	va_start(ap, fmt);
	vsnprintf(p->bound_why, sizeof(p->bound_why), fmt, ap);
	va_end(ap);
}

static int add_psym(struct prep *p, const struct psym *ps)
{
	if (bpfrr_grow((void **)&p->syms, &p->cap_syms, p->nr_syms + 1, sizeof(*p->syms)))
		return -ENOMEM;
	p->syms[p->nr_syms++] = *ps;
	return 0;
}

/* The SYMBOL record naming value, or NULL if the trace names nothing there (then *why says so). */
static const struct bpfrr_rec_symbol *named(const struct prep *p, uint32_t kind, uint64_t value,
					    const char *module, const char **why)
{
	const struct bpfrr_rec_symbol *s;

	if (!bpfrr_rt_kernel(p->t->rt)) {
		*why = "recorded by a bpfrr without symbol records";
		return NULL;
	}
	s = bpfrr_rt_symbol(p->t->rt, kind, value, module);
	if (!s) {
		*why = "no SYMBOL record names it";
		return NULL;
	}
	if ((s->flags & BPFRR_SYM_F_UNNAMED) || !s->name || !s->name[0] ||
	    (kind == BPFRR_SYM_BTF_ID && !s->btf_kind)) {
		*why = "the recorder found no name for it";
		return NULL;
	}
	return s;
}

/* A vmlinux BTF id at (buf, offset): a resolution by name, or the call is build-bound. */
static int btf_id_at(struct prep *p, const char *what, int32_t buf, uint32_t offset, uint32_t id)
{
	const struct bpfrr_rec_symbol *s;
	const char *why;

	s = named(p, BPFRR_SYM_BTF_ID, id, "", &why);
	if (!s) {
		bound(p, "%s %u: %s", what, id, why);
		return 0;
	}
	return add_psym(p, &(struct psym){ BPFRR_IR_RESOLVE_BTF_ID, buf, offset, s->name, "", s->btf_kind, 0 });
}

/* A kernel address at (buf, offset): symbol + offset, or NULL with *why. */
static const struct bpfrr_rec_symbol *ksym_at(struct prep *p, int32_t buf, uint32_t offset, uint64_t addr,
					      const char **why)
{
	const struct bpfrr_rec_symbol *s;

	*why = NULL;
	s = named(p, BPFRR_SYM_KSYM_ADDR, addr, NULL, why);
	if (s && add_psym(p, &(struct psym){ BPFRR_IR_RESOLVE_KSYM_ADDR, buf, offset, s->name,
					     s->module ? s->module : "", 0, (int64_t)s->offset }))
		return NULL;
	return s;
}

struct insn_btf_ids {
	struct prep *p;
	int32_t ib;
	int ret;
};

/* The disassembler's hook (as the recorder finds them): a ksym load or a kfunc call of vmlinux. */
static int on_insn_ref(void *ctx, const struct bpfrr_disasm_ref *ref, char *buf, size_t size)
{
	struct insn_btf_ids *w = ctx;
	char what[48];

	(void)buf;
	(void)size;
	if (w->ret || (ref->type != BPFRR_DREF_BTF_ID && ref->type != BPFRR_DREF_KFUNC) || ref->fd)
		return 0;
	snprintf(what, sizeof(what), "insns[%zu].imm", ref->insn_idx);
	w->ret = btf_id_at(w->p, what, w->ib, (uint32_t)ref->insn_idx * 8 + 4, ref->btf_id);
	return 0;
}

/*
 * The BTF ids in the instructions: ld_imm64 BPF_PSEUDO_BTF_ID (a ksym) and
 * kfunc calls.  One in a module's BTF names the module by an fd (the
 * ld_imm64's second imm, an fd_array index in the call's off): such an fd
 * is of a BTF object got by id, which is not replayed, so the call was
 * refused already; they are left alone here.
 */
static int insn_btf_ids(struct prep *p)
{
	struct insn_btf_ids w = { p, find_pbuf(p, "attr.insns"), 0 };
	const struct bpfrr_disasm_opts opts = { on_insn_ref, &w };
	const struct pbuf *b;
	size_t i, n;
	char line[160];

	if (w.ib < 0 || !p->bufs[w.ib].data)
		return 0;
	b = &p->bufs[w.ib];
	n = b->len / BPFRR_INSN_SIZE;
	for (i = 0; i < n && !w.ret;)
		i += (size_t)bpfrr_disasm_insn(b->data, n, i, &opts, line, sizeof(line));
	return w.ret;
}

/* An attr u32 field of c's command by name: its offset and value, false if absent or 0. */
static bool attr_u32(const struct prep *p, const char *name, uint32_t *offset, uint32_t *value)
{
	const struct bpfrr_field *f = bpfrr_abi_cmd_field((int)p->cmd, name);

	if (!f || f->size != 4 || (uint32_t)f->offset + 4 > p->attr_size)
		return false;
	memcpy(value, p->attr + f->offset, 4);
	*offset = f->offset;
	return *value != 0;
}

/* Every kernel BTF id and address a bpf() call carries (called once its buffers and fds are placed). */
static int bpf_symbols(struct prep *p)
{
	const struct fe_call *c = p->c;
	uint32_t off, id, i;
	int32_t ab;
	int ret;

	switch (c->cmd) {
	case BPFRR_CMD_PROG_LOAD:
		/* with attach_prog_fd the id is in that program's BTF, which the replay loads too;
		 * with attach_btf_obj_fd in a module's (not replayed, refused by its fd) */
		if (attr_u32(p, "attach_btf_id", &off, &id) && !fe_ref_at(c, "attr.attach_prog_fd") &&
		    !fe_ref_at(c, "attr.attach_btf_obj_fd") && (ret = btf_id_at(p, "attach_btf_id",
										BPFRR_IR_IN_ATTR, off, id)))
			return ret;
		return insn_btf_ids(p);
	case BPFRR_CMD_MAP_CREATE:
		if (attr_u32(p, "btf_vmlinux_value_type_id", &off, &id))
			return btf_id_at(p, "btf_vmlinux_value_type_id", BPFRR_IR_IN_ATTR, off, id);
		return 0;
	case BPFRR_CMD_LINK_CREATE:
		/* 6.12 takes a target_btf_id only with a target program (its BTF): a kernel one
		 * would come without target_fd */
		if (!fe_ref_at(c, "attr.link_create.target_fd") &&
		    attr_u32(p, "link_create.target_btf_id", &off, &id) &&
		    bpfrr_abi_field_applies(bpfrr_abi_cmd_field((int)c->cmd, "link_create.target_btf_id"),
					    bpfrr_abi_cmd_variant((int)c->cmd, p->attr, p->attr_size)))
			return btf_id_at(p, "target_btf_id", BPFRR_IR_IN_ATTR, off, id);
		ab = find_pbuf(p, "attr.link_create.kprobe_multi.addrs");
		if (ab < 0 || !p->bufs[ab].data)
			return 0;
		for (i = 0; i + 8 <= p->bufs[ab].len; i += 8) {
			const char *why;
			uint64_t addr;

			memcpy(&addr, p->bufs[ab].data + i, 8);
			if (!ksym_at(p, ab, i, addr, &why)) {
				if (!why)
					return -ENOMEM;
				bound(p, "kprobe_multi.addrs[%u] 0x%" PRIx64 ": %s", i / 8, addr, why);
			}
		}
		return 0;
	}
	return 0;
}

/* Does the table's refusal of c's command apply to this call? */
static bool table_refuses(const struct fe_call *c, const struct bpfrr_cmd_refusal *r)
{
	const struct bpfrr_field *f;

	if (!r->why)
		return false;
	/* the field as this call's variant has it: link_create.iter_info shares its bytes with
	 * kprobe_multi.flags and .cnt */
	if (r->field)
		return (f = bpfrr_abi_cmd_field((int)c->cmd, r->field)) &&
		       bpfrr_abi_field_applies(f, bpfrr_abi_cmd_variant((int)c->cmd, c->attr, c->attr_len)) &&
		       bpfrr_abi_field_get(f, c->attr, c->attr_len);
	return fe_obj_type(c->target) == r->target_type;
}

/* The trace says where the value of the call's target map holds fds (a struct_ops map, 2.1). */
static bool value_fds_placed(const struct fe_call *c)
{
	uint32_t offsets[BPFRR_ABI_VALUE_FDS_MAX];
	struct bpfrr_obj_facts f;

	if (!c->target)
		return false;
	bpfrr_rt_obj_facts(c->target->rt, &c->target->base, &f);
	return bpfrr_obj_facts_value_type(&f) &&
	       bpfrr_rt_value_fds(c->target->rt, bpfrr_obj_facts_value_type(&f), offsets, BPFRR_ABI_VALUE_FDS_MAX) >= 0;
}

/* The first field of a call a 6.12 kernel lacks, as a refusal (bpfrr_abi_newer_fields). */
struct newer {
	char why[160];
	unsigned int n;
};

static void newer_field(void *arg, const struct bpfrr_field *f, const char *path, size_t off, size_t end)
{
	struct newer *nw = arg;
	char since[16], base[16];

	if (nw->n++)
		return;
	bpfrr_abi_kver_str(BPFRR_ABI_BASE_KVER, base, sizeof(base));
	if (f)
		snprintf(nw->why, sizeof(nw->why), "%s (Linux %s) is not supported by %s", path,
			 bpfrr_abi_kver_str(f->since, since, sizeof(since)), base);
	else
		snprintf(nw->why, sizeof(nw->why),
			 "attr bytes %zu..%zu are not zero, and no kernel bpfrr knows has a field there",
			 off, end - 1);
}

/* Instructions a kernel could have loaded: no ld_imm64 cut in half at the end. */
static int insns_whole(struct prep *p)
{
	int32_t ib = find_pbuf(p, "attr.insns");
	size_t bad;

	if (ib < 0 || !p->bufs[ib].data ||
	    bpfrr_insns_ld_imm64_whole(p->bufs[ib].data, p->bufs[ib].len / BPFRR_INSN_SIZE, &bad))
		return 0;
	return refuse(p, "insns: instruction %zu is the first half of an ld_imm64 with no second half, "
		      "which no kernel loads", bad);
}

/*
 * A syscall program's run that made objects (pass 1's products): its
 * products buffer is replayed as recorded but for the product fds (zeroed:
 * the program writes them).  A light skeleton's context (struct
 * bpf_loader_ctx, its first u32 the context's size) also carries user
 * addresses: the log buffer, and a global-data map's initial value right
 * after the map's fd (struct bpf_map_desc); a recorded one would be a
 * tracee address, so such a run is refused.
 */
static int prep_products(struct prep *p)
{
	const struct fe_call *c = p->c;
	char path[96];
	uint32_t i, sz;
	uint64_t addr;
	int32_t b;

	if (!c->nr_products)
		return 0;
	snprintf(path, sizeof(path), "attr.%s", c->products_buf);
	b = find_pbuf(p, path);
	if (b < 0 || !p->bufs[b].data || p->bufs[b].dir != BPFRR_DIR_INOUT)
		return refuse(p, "%s: the buffer it wrote the fds of the objects it made into was not recorded",
			      path);
	memcpy(&sz, p->bufs[b].data, 4);
	if (sz == p->bufs[b].len && sz >= 24) {
		memcpy(&addr, p->bufs[b].data + 16, 8);
		if (addr)
			return refuse(p, "%s: the light skeleton's context passes a log buffer at a recorded "
				      "address (log_buf 0x%" PRIx64 ")", path, addr);
	}
	for (i = 0; i < c->nr_products; i++) {
		const struct fe_obj *o = c->products[i];

		if (o->base.kind == BPFRR_OBJ_MAP && sz == p->bufs[b].len && o->run_offset + 16 <= sz) {
			memcpy(&addr, p->bufs[b].data + o->run_offset + 8, 8);
			if (addr)
				return refuse(p, "%s: the initial value of map '%s' is at a recorded address "
					      "(a light skeleton's global data, 0x%" PRIx64 ")", path,
					      o->ident && o->ident->name ? o->ident->name : "", addr);
		}
		memset(p->bufs[b].data + o->run_offset, 0, 4);
	}
	return 0;
}

static int prep_bpf(struct prep *p)
{
	struct fe_call *c = p->c;
	const struct bpfrr_cmd_desc *d = bpfrr_abi_cmd((int)c->cmd);
	char desc[96];
	int ret;

	if (!d)
		return refuse(p, "a bpf() command bpfrr does not know");
	if (c->flags & (BPFRR_CALL_ATTR_UNREADABLE | BPFRR_CALL_ATTR_TRUNCATED) || c->attr_len < c->attr_size)
		return refuse(p, "its attr was not fully recorded (%u of %u bytes)", c->attr_len, c->attr_size);
	/* The kernels the translator targets are 6.12's (caps.h): a later field the call sets, or
	 * the 5-argument form, would be EINVAL / E2BIG there; say which, by name. */
	if (c->flags & BPFRR_CALL_COMMON_ATTRS) {
		char since[16], base[16];

		return refuse(p, "BPF_COMMON_ATTRS, its log in the 4th and 5th arguments (Linux %s), is not "
			      "supported by %s", bpfrr_abi_kver_str(BPFRR_ABI_COMMON_ATTRS_KVER, since, sizeof(since)),
			      bpfrr_abi_kver_str(BPFRR_ABI_BASE_KVER, base, sizeof(base)));
	}
	{
		struct newer nw = { .n = 0 };

		if (bpfrr_abi_newer_fields((int)c->cmd, c->attr, c->attr_len, BPFRR_ABI_BASE_KVER, newer_field,
					   &nw))
			return refuse(p, "%s", nw.why);
	}
	if (c->attr_size > BPFRR_IR_MAX_ATTR || !c->attr_size)
		return refuse(p, "an attr of %u bytes", c->attr_size);
	if (c->resolve_failed)
		return refuse(p, "the bpf() ABI walker could not follow its attr");
	if (d->flags & BPFRR_CMDF_BY_ID)
		return refuse(p, "gets an fd of %s by its kernel id, which differs from one boot to the next",
			      c->result ? fe_obj_desc(c->result, desc, sizeof(desc)) : "an object");
	/* a syscall program's run is replayed when pass 1 found what it made (a light skeleton) */
	if (table_refuses(c, &d->refuse) && !c->nr_products &&
	    !(d->refuse.unless_value_fds && value_fds_placed(c)))
		return refuse(p, "%s", d->refuse.why);
	if (d->flags & BPFRR_CMDF_SHARED)
		p->flags |= BPFRR_IR_CALL_GLOBAL;
	/* A link without a target fd (on an interface by ifindex, on a kernel function) is shared:
	 * whether it has one depends on its attach type and the fds the call passed, which only
	 * the call knows, not the table. */
	if (c->cmd == BPFRR_CMD_LINK_CREATE && !fe_ref_at(c, "attr.link_create.target_fd"))
		p->flags |= BPFRR_IR_CALL_GLOBAL;
	p->op = BPFRR_IR_BPF;
	p->cmd = c->cmd;
	p->attr_size = c->attr_size;
	p->attr = malloc(c->attr_size);
	if (!p->attr)
		return -ENOMEM;
	memcpy(p->attr, c->attr, c->attr_size);
	if ((ret = prep_bufs(p)) || (ret = insns_whole(p)) || (ret = prep_rels(p)) || (ret = prep_products(p)))
		return ret;
	return bpf_symbols(p);
}

/* The name a recorded read of a kernel number gave value, or NULL. */
static const char *value_name(const struct fe_trace *t, uint32_t kind, uint64_t value)
{
	uint32_t i;

	for (i = 0; i < t->nr_values; i++)
		if (t->values[i].kind == kind && t->values[i].value == value)
			return t->values[i].name;
	return NULL;
}

/* The name a SYMBOL record gives value, or NULL. */
static const char *sym_name(const struct prep *p, uint32_t kind, uint64_t value)
{
	const char *why;
	const struct bpfrr_rec_symbol *s = named(p, kind, value, NULL, &why);

	return s ? s->name : NULL;
}

/* The IR arguments of a syscall: its parameters that have one, ints and fds sign-extended. */
static void sys_ir_args(struct prep *p)
{
	const struct bpfrr_sys_desc *d = p->c->sys;
	unsigned int i;

	for (i = 0; i < d->nr_args; i++) {
		const struct bpfrr_sys_param *a = &d->params[i];

		if (a->ir < 0)
			continue;
		if (a->kind == BPFRR_SYS_ARG_INT || a->kind == BPFRR_SYS_ARG_FD)
			p->args[a->ir] = (int32_t)p->c->args[i];
		else
			p->args[a->ir] = (int64_t)p->c->args[i];
	}
}

static int prep_perf_event_open(struct prep *p)
{
	struct fe_call *c = p->c;
	const struct bpfrr_trace_region *reg = fe_region(p->t, c, BPFRR_PHASE_ENTRY, "perf_event_attr");
	const struct bpfrr_trace_region *cfg1 = fe_region(p->t, c, BPFRR_PHASE_ENTRY, "perf_event_attr.config1");
	const char *pmu = NULL;
	uint32_t type, size;
	uint64_t config, config1;
	int32_t pid = (int32_t)c->args[1];
	int ret;

	if (!reg || !reg->blob || reg->flags & (BPFRR_REGION_UNREADABLE | BPFRR_REGION_SHORT |
						 BPFRR_REGION_TRUNCATED) || reg->len < PERF_ATTR_SIZE_VER0 ||
	    reg->len > BPFRR_IR_MAX_ATTR)
		return refuse(p, "its perf_event_attr was not fully recorded");
	if (pid != -1)
		return refuse(p, "it watches process %d of the recording, which the replay does not have", pid);
	p->attr_size = (uint32_t)reg->len;
	p->attr = entry_bytes(p, reg->addr, reg->len);
	if (!p->attr)
		return refuse(p, "its perf_event_attr was not fully recorded");
	memcpy(&type, p->attr, 4);
	memcpy(&size, p->attr + 4, 4);
	memcpy(&config, p->attr + 8, 8);
	memcpy(&config1, p->attr + 56, 8);
	p->op = BPFRR_IR_PERF_EVENT_OPEN;
	sys_ir_args(p);

	/* the name a SYMBOL record gives first, else the name of the file the loader read it from */
	if (type == PERF_TYPE_TRACEPOINT) {
		const char *tp = sym_name(p, BPFRR_SYM_TP_ID, config);

		if (!tp)
			tp = value_name(p->t, BPFRR_IR_RESOLVE_TP_ID, config);
		if (!tp)
			return refuse(p, "tracepoint id %" PRIu64 ": no recorded tracefs read names it", config);
		p->res[p->nr_res++] = (struct bpfrr_ir_resolve){ BPFRR_IR_RESOLVE_TP_ID, 8, 8, (char *)tp };
	} else if (type >= PERF_TYPE_MAX) {
		pmu = sym_name(p, BPFRR_SYM_PMU_TYPE, type);
		if (!pmu)
			pmu = value_name(p->t, BPFRR_IR_RESOLVE_PMU_TYPE, type);
		if (!pmu && cfg1)	/* the recorder saw config1 as a kprobe name or uprobe path */
			pmu = cfg1->content == BPFRR_CONTENT_PATH ? "uprobe" : "kprobe";
		if (!pmu)
			return refuse(p, "perf event type %u: a dynamic PMU no recorded read names", type);
		p->res[p->nr_res++] = (struct bpfrr_ir_resolve){ BPFRR_IR_RESOLVE_PMU_TYPE, 0, 4, (char *)pmu };
	}
	if (pmu && (!strcmp(pmu, "kprobe") || !strcmp(pmu, "uprobe"))) {
		if (!config1) {
			uint64_t addr;
			const char *why;

			memcpy(&addr, p->attr + PERF_ATTR_CONFIG2, 8);
			/* a kprobe at a kernel address: by the symbol the recorder named it after */
			if (!strcmp(pmu, "kprobe") && p->attr_size >= PERF_ATTR_CONFIG2 + 8 &&
			    !ksym_at(p, BPFRR_IR_IN_ATTR, PERF_ATTR_CONFIG2, addr, &why)) {
				if (!why)
					return -ENOMEM;
				return refuse(p, "a kprobe at kernel address 0x%" PRIx64 " (%s), which differs "
					      "from one boot to the next", addr, why);
			}
		} else {
			uint8_t *name;

			if (!cfg1 || cfg1->flags & (BPFRR_REGION_UNREADABLE | BPFRR_REGION_SHORT |
						    BPFRR_REGION_TRUNCATED | BPFRR_REGION_NO_NUL))
				return refuse(p, "the %s name config1 points to was not recorded", pmu);
			name = entry_bytes(p, cfg1->addr, cfg1->len);
			if (!name)
				return refuse(p, "the %s name config1 points to was not recorded", pmu);
			if ((ret = add_pbuf(p, "perf_event_attr.config1", BPFRR_IR_IN_ATTR, 56, (uint32_t)cfg1->len,
					    BPFRR_DIR_IN, cfg1->content, name)))
				return ret;
		}
	}
	return prep_rels(p);
}

/* The requests the IR carries are the sub-rows with BPFRR_SYSF_REPLAYS (lib/sys_abi.h). */
static int prep_ioctl(struct prep *p)
{
	struct fe_call *c = p->c;
	const struct bpfrr_sys_sub *sub = bpfrr_sys_sub(c->sys, c->args);

	if (!sub || !(sub->flags & BPFRR_SYSF_REPLAYS))
		return refuse(p, "its argument is a pointer, which the IR does not carry for ioctls");
	p->op = BPFRR_IR_IOCTL;
	p->cmd = (uint32_t)c->args[c->sys->sub_arg];
	sys_ir_args(p);
	return prep_rels(p);
}

/* The device name the recorder gave ifindex in call c ("ifname.IFINDEX"), or NULL. */
static const char *recorded_ifname(const struct fe_trace *t, const struct fe_call *c, int32_t ifindex)
{
	const struct bpfrr_trace_region *reg;
	const struct bpfrr_rec_blob *b;
	char path[32];

	snprintf(path, sizeof(path), "ifname.%d", ifindex);
	reg = fe_region(t, c, BPFRR_PHASE_EXIT, path);
	b = reg && reg->blob ? bpfrr_trace_blob(t->r, reg->blob) : NULL;
	if (!b || b->len < 2 || b->len > 16 || ((const char *)b->data)[b->len - 1] ||
	    memchr(b->data, '\0', b->len - 1) || memchr(b->data, '/', b->len))
		return NULL;
	return b->data;
}

/*
 * A netlink request that attaches a program, detaches one or makes the hook
 * an attachment needs (pass 2 keeps no other): replayed as the same message
 * from user space (no syscall program sends on a socket), the program fd it
 * carries relocated to its slot's, the device's index looked up at replay
 * time by the name the recorder gave it (indexes differ between boots and
 * namespaces).  The replayer waits for the kernel's acknowledgement and, when
 * a later call fails, sends the request that undoes it (lib/netlink.h).
 */
static int prep_netlink(struct prep *p)
{
	struct bpfrr_nl_msg msgs[FE_NL_MAX_MSGS], *m = &msgs[0];
	const uint8_t *bytes;
	const char *dev;
	uint32_t len;
	int n = fe_netlink(p->t, p->c, msgs, FE_NL_MAX_MSGS, &bytes, &len);

	if (n < 0)
		return refuse(p, "its netlink messages were not recorded whole");
	if (n != 1)
		return refuse(p, "it sends %d netlink messages at once (one is replayed)", n);
	if (m->truncated || m->len != len || len > BPFRR_IR_MAX_ATTR)
		return refuse(p, "a netlink message of %u bytes", len);
	if (!m->has_ifindex || m->ifindex <= 0)
		return refuse(p, "its %s names no device by index", bpfrr_nl_type_name(m->type));
	dev = recorded_ifname(p->t, p->c, m->ifindex);
	if (!dev)
		return refuse(p, "the recording named no device for ifindex %d", m->ifindex);
	p->op = BPFRR_IR_NETLINK;
	p->cmd = m->type;
	p->flags |= BPFRR_IR_CALL_GLOBAL;	/* a device's state: in recorded order with the other global calls */
	p->attr_size = len;
	p->attr = malloc(len);
	if (!p->attr)
		return -ENOMEM;
	memcpy(p->attr, bytes, len);
	p->res[p->nr_res++] = (struct bpfrr_ir_resolve){ BPFRR_IR_RESOLVE_IFINDEX, m->ifindex_off, 4, (char *)dev,
							 BPFRR_IR_IN_ATTR };
	return prep_rels(p);
}

/* --- slots ----------------------------------------------------------------------------------- */

/*
 * What naming a slot looks up, indexed: the names the slots have so far and
 * the programs by kernel id (a link is named after its program). A scan of
 * every slot and object for each new slot made translating grow with the
 * square of a load's objects (bench/scaling: 14.8x from 300 to 3000 calls).
 */
struct fe_slot_names {
	struct bpfrr_u64map taken;	/* keyed hash of a slot's name -> the slot */
	uint32_t upto;			/* slots [0, upto) are in taken */
	struct bpfrr_u64map prog_by_id;	/* kernel id -> the first named program object */
	struct bpfrr_u64map prog_any;	/* kernel id -> the first program (aliases resolved) */
	bool progs_indexed;
	bool nomem;			/* an index could not grow: scan instead */
};

static void slot_names_free(struct fe_trace *t)
{
	if (!t->names)
		return;
	bpfrr_u64map_free(&t->names->taken);
	bpfrr_u64map_free(&t->names->prog_by_id);
	bpfrr_u64map_free(&t->names->prog_any);
	free(t->names);
	t->names = NULL;
}

static bool name_taken(const struct fe_trace *t, const struct bpfrr_ir *ir, const char *name)
{
	struct fe_slot_names *nm = t->names;
	uint64_t slot;
	uint32_t i;

	if (nm && !nm->nomem) {
		for (; nm->upto < ir->nr_slots; nm->upto++) {
			const char *taken = ir->slots[nm->upto].name;
			uint64_t key = taken ? bpfrr_keyed_hash(taken, strlen(taken)) : 0;

			/* a key already there stays: that name (or one sharing its key) is taken */
			if (taken && !bpfrr_u64map_get(&nm->taken, key, NULL) &&
			    bpfrr_u64map_put(&nm->taken, key, nm->upto)) {
				nm->nomem = true;
				break;
			}
		}
		if (!nm->nomem) {
			if (!bpfrr_u64map_get(&nm->taken, bpfrr_keyed_hash(name, strlen(name)), &slot))
				return false;
			if (ir->slots[slot].name && !strcmp(ir->slots[slot].name, name))
				return true;
			/* two names with one key (2^-64): the scan below decides */
		}
	}
	for (i = 0; i < ir->nr_slots; i++)
		if (ir->slots[i].name && !strcmp(ir->slots[i].name, name))
			return true;
	return false;
}

/* key -> o unless key is there already: the first in the model's order stays */
static void put_first(struct fe_slot_names *nm, struct bpfrr_u64map *m, uint64_t key, const struct fe_obj *o)
{
	if (!bpfrr_u64map_get(m, key, NULL) && bpfrr_u64map_put(m, key, (uint64_t)(uintptr_t)o))
		nm->nomem = true;
}

/* The programs by kernel id, named ones and any (aliases resolved), in one walk of the model. */
static bool index_progs(const struct fe_trace *t)
{
	struct fe_slot_names *nm = t->names;
	struct bpfrr_fdm_obj *b;

	if (!nm || nm->nomem)
		return false;
	if (nm->progs_indexed)
		return true;
	nm->progs_indexed = true;
	for (b = bpfrr_fdm_objects(t->fdm); b && !nm->nomem; b = b->next_all) {
		const struct fe_obj *o = (const struct fe_obj *)b, *c = fe_canon((struct fe_obj *)b);

		if (o->base.kind == BPFRR_OBJ_PROG && o->ident && o->ident->name && o->ident->name[0])
			put_first(nm, &nm->prog_by_id, o->ident->id, o);
		if (c->base.kind == BPFRR_OBJ_PROG && c->ident)
			put_first(nm, &nm->prog_any, c->ident->id, c);
	}
	return !nm->nomem;
}

/*
 * The first program (in the model's order, aliases taken to what they alias)
 * with kernel id id that has a slot, or NULL. The index keeps the first
 * program with that id; only when that one has no slot does the scan look
 * further.
 */
static const struct fe_obj *prog_by_id(const struct fe_trace *t, uint32_t id)
{
	struct bpfrr_fdm_obj *b;
	uint64_t v;

	if (index_progs(t)) {
		if (!bpfrr_u64map_get(&t->names->prog_any, id, &v))
			return NULL;
		if (((const struct fe_obj *)(uintptr_t)v)->slot >= 0)
			return (const struct fe_obj *)(uintptr_t)v;
	}
	for (b = bpfrr_fdm_objects(t->fdm); b; b = b->next_all) {
		const struct fe_obj *po = fe_canon((struct fe_obj *)b);

		if (po->base.kind == BPFRR_OBJ_PROG && po->slot >= 0 && po->ident && po->ident->id == id)
			return po;
	}
	return NULL;
}

/* The first program object (in the model's order) with kernel id id and a name, or NULL. */
static const struct fe_obj *named_prog(const struct fe_trace *t, uint32_t id)
{
	struct bpfrr_fdm_obj *b;
	uint64_t v;

	if (index_progs(t))
		return bpfrr_u64map_get(&t->names->prog_by_id, id, &v) ? (const struct fe_obj *)(uintptr_t)v : NULL;
	for (b = bpfrr_fdm_objects(t->fdm); b; b = b->next_all) {
		const struct fe_obj *po = (const struct fe_obj *)b;

		if (po->base.kind == BPFRR_OBJ_PROG && po->ident && po->ident->id == id && po->ident->name &&
		    po->ident->name[0])
			return po;
	}
	return NULL;
}

static void clean_name(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x21 || (unsigned char)*s > 0x7e)
			*s = '_';
}

/* "map.counts", "prog.handle_exec", "btf", "link.handle_exec", "perf_event.kprobe.do_sys_openat2" */
static void slot_name(const struct fe_trace *t, const struct bpfrr_ir *ir, const struct fe_obj *o,
		      const struct prep *p, char *buf, size_t size)
{
	const char *kind = bpfrr_abi_obj_kind_name((enum bpfrr_obj_kind)o->base.kind);
	const struct bpfrr_obj_facts *made = bpfrr_rt_made(o->rt, o->base.origin);
	/* a link's identity names its program, not the link */
	const char *name = o->run ? (o->ident && o->ident->name ? o->ident->name : "") :
			   o->base.kind != BPFRR_OBJ_LINK ? bpfrr_rt_obj_name(o->rt, &o->base) :
			   made ? made->name : "";
	char what[128] = "";
	size_t n;

	if (!kind)
		kind = "object";
	if (name[0]) {
		snprintf(what, sizeof(what), "%s", name);
	} else if (o->base.kind == BPFRR_OBJ_LINK && o->ident && !(o->ident->flags & BPFRR_OBJECT_F_QUERY_FAILED)) {
		/* a link is named after its program */
		const struct fe_obj *po = named_prog(t, o->ident->prog_id);

		if (po)
			snprintf(what, sizeof(what), "%s", po->ident->name);
	} else if (o->base.kind == BPFRR_OBJ_PERF_EVENT && p) {
		uint32_t i;

		for (i = 0; i < p->nr_res; i++)
			snprintf(what, sizeof(what), "%s", p->res[i].name);
		for (i = 0; i < p->nr_bufs; i++)
			if (!strcmp(p->bufs[i].path, "perf_event_attr.config1") && p->bufs[i].len)
				snprintf(what + strlen(what), sizeof(what) - strlen(what), ".%.*s",
					 (int)strnlen((const char *)p->bufs[i].data, p->bufs[i].len),
					 (const char *)p->bufs[i].data);
		if (!what[0])
			snprintf(what, sizeof(what), "cpu%d", (int)p->args[1]);
	}
	n = (size_t)snprintf(buf, size, "%s%s%s", kind, what[0] ? "." : "", what);
	clean_name(buf);
	if (n < size && !name_taken(t, ir, buf))
		return;
	if (n + 22 > size)	/* no room for the seq: the seq alone */
		snprintf(buf, size, "%s.%" PRIu64, kind, o->base.origin);
	else
		snprintf(buf + n, size - n, ".%" PRIu64, o->base.origin);
}

static void set_ident(struct bpfrr_ir *ir, uint32_t slot, const struct fe_trace *t, const struct fe_obj *o)
{
	struct bpfrr_ir_ident *id = &ir->slots[slot].ident;
	const struct bpfrr_rec_object *r = o->ident;
	const struct fe_obj *po;

	if (!r || r->flags & BPFRR_OBJECT_F_QUERY_FAILED)
		return;
	switch (o->base.kind) {
	case BPFRR_OBJ_PROG:
		id->have = BPFRR_ID_TYPE | BPFRR_ID_TAG | BPFRR_ID_NAME | BPFRR_ID_TARGET_BTF_ID;
		id->type = r->type;
		memcpy(id->tag, r->tag, sizeof(id->tag));
		id->target_btf_id = r->target_btf_id;
		break;
	case BPFRR_OBJ_MAP:
		id->have = BPFRR_ID_TYPE | BPFRR_ID_NAME | BPFRR_ID_KEY_SIZE | BPFRR_ID_VALUE_SIZE |
			   BPFRR_ID_MAX_ENTRIES | BPFRR_ID_MAP_FLAGS;
		id->type = r->type;
		id->key_size = r->key_size;
		id->value_size = r->value_size;
		id->max_entries = r->max_entries;
		id->map_flags = r->map_flags;
		break;
	case BPFRR_OBJ_BTF:
		id->have = BPFRR_ID_BTF_SIZE;
		id->btf_size = r->btf_size;
		break;
	case BPFRR_OBJ_LINK:
		id->have = BPFRR_ID_TYPE | BPFRR_ID_ATTACH_TYPE;
		id->type = r->type;
		id->attach_type = r->attach_type;
		if (r->target_btf_id) {
			id->have |= BPFRR_ID_TARGET_BTF_ID;
			id->target_btf_id = r->target_btf_id;
		}
		/* the linked program: the replayed one made from the program with that id */
		po = prog_by_id(t, r->prog_id);
		if (po) {
			id->have |= BPFRR_ID_LINK_PROG;
			id->link_prog_slot = (uint32_t)po->slot;
		}
		break;
	default:
		return;
	}
	if (id->have & BPFRR_ID_NAME && r->name)
		snprintf(id->name, sizeof(id->name), "%s", r->name);
}

static int new_slot(struct bpfrr_ir *ir, const struct fe_trace *t, struct fe_obj *o, const struct prep *p)
{
	char name[BPFRR_IR_MAX_NAME];
	int slot;

	slot_name(t, ir, o, p, name, sizeof(name));
	slot = bpfrr_ir_add_slot(ir, o->base.kind, name);
	if (slot < 0)
		return slot;
	o->slot = slot;
	if (o->live)
		ir->slots[slot].flags |= BPFRR_IR_SLOT_KEEP;
	set_ident(ir, (uint32_t)slot, t, o);
	return slot;
}

/* open(2) flags worth repeating when the replayer opens a path slot */
#define PATH_OPEN_FLAGS	(00000003 | 00200000 | 010000000 | 00400000 | 02000000)	/* ACCMODE DIRECTORY PATH NOFOLLOW CLOEXEC */

static int add_path_slot(struct bpfrr_ir *ir, const struct fe_trace *t, struct fe_call *c, char *err,
			 size_t err_size)
{
	const struct bpfrr_trace_region *reg = fe_region(t, c, BPFRR_PHASE_EXIT, "path");
	const struct bpfrr_rec_blob *b = reg && reg->blob ? bpfrr_trace_blob(t->r, reg->blob) : NULL;
	const char *kind = bpfrr_abi_obj_kind_name((enum bpfrr_obj_kind)c->result->base.kind);
	char name[BPFRR_IR_MAX_NAME];
	const struct bpfrr_sys_desc *d = c->sys;
	uint64_t flags = d && d->oflags_arg >= 0 ? c->args[d->oflags_arg] : 0;
	int slot;

	if (!b || !b->len || ((const char *)b->data)[b->len - 1] || memchr(b->data, '\0', b->len - 1) ||
	    ((const char *)b->data)[0] != '/') {
		snprintf(err, err_size, "seq %" PRIu64 " %s: the path of the file it opened was not recorded",
			 c->seq, c->sys_name);
		return -EINVAL;
	}
	if (d && d->oflags_arg >= 0 && d->oflags_in_struct) {	/* openat2's struct open_how */
		uint64_t how = 0;

		flags = fe_read_mem(t, c, BPFRR_PHASE_ENTRY, c->args[d->oflags_arg], &how, 8) ? 0 : how;
	}
	snprintf(name, sizeof(name), "%s.%" PRIu64, kind ? kind : "file", c->seq);
	slot = bpfrr_ir_add_path_slot(ir, c->result->base.kind == BPFRR_OBJ_NONE ||
				      c->result->base.kind == BPFRR_OBJ_ANY ? BPFRR_OBJ_ANY : c->result->base.kind,
				      name, b->data, (uint32_t)(flags & PATH_OPEN_FLAGS));
	if (slot < 0) {
		snprintf(err, err_size, "seq %" PRIu64 " %s: %s", c->seq, c->sys_name, strerror(-slot));
		return slot;
	}
	c->result->slot = slot;
	return 0;
}

/* A directory a kept load needs on a bpffs (mkdir before the replay point): a slot the replayer makes. */
static int add_dir_slot(struct bpfrr_ir *ir, const struct fe_trace *t, struct fe_call *c, char *err,
			size_t err_size)
{
	const char *path = fe_fs_path(t, c);
	char name[BPFRR_IR_MAX_NAME];
	int slot;

	snprintf(name, sizeof(name), "dir.%" PRIu64, c->seq);
	slot = path ? bpfrr_ir_add_dir_slot(ir, name, path, (uint32_t)(c->args[c->sys->mode_arg] & 07777)) :
		      -EINVAL;
	if (slot < 0) {
		snprintf(err, err_size, "seq %" PRIu64 " %s: %s", c->seq, c->sys_name, strerror(-slot));
		return slot;
	}
	c->dir_slot = slot;
	return 0;
}

/* --- numbers in a directory's name ----------------------------------------------------- */

/*
 * When the loader learned each object's kernel id (fe_obj.info_seq: its first
 * successful BPF_OBJ_GET_INFO_BY_FD): a number in a path can only be an
 * object's id if the loader knew it. Once, before the directories are named.
 */
static void note_info_queries(struct fe_trace *t)
{
	uint32_t i, j;

	for (i = 0; i < t->nr_calls; i++) {
		const struct fe_call *c = &t->calls[i];

		if (!c->is_bpf || c->cmd != BPFRR_CMD_OBJ_GET_INFO_BY_FD || c->ret)
			continue;
		for (j = 0; j < c->nr_refs; j++) {
			struct fe_obj *o = c->refs[j].obj ? fe_canon(c->refs[j].obj) : NULL;

			if (o && (!o->info_seq || c->seq < o->info_seq))
				o->info_seq = c->seq;
		}
	}
}

/*
 * The replayed object whose recorded id is id, made and its id learned before
 * seq: a program first, then a link, then a map (ids are per kind; BTF ids,
 * small and learned by libbpf for every object, are never taken). NULL if none.
 */
static struct fe_obj *obj_of_id(const struct fe_trace *t, uint64_t id, uint64_t seq)
{
	static const uint32_t kinds[] = { BPFRR_OBJ_PROG, BPFRR_OBJ_LINK, BPFRR_OBJ_MAP };
	struct bpfrr_fdm_obj *b;
	uint32_t k;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		for (b = bpfrr_fdm_objects(t->fdm); b; b = b->next_all) {
			struct fe_obj *o = fe_canon((struct fe_obj *)b);

			if (o->base.kind == kinds[k] && o->slot >= 0 && o->ident && o->ident->id == id &&
			    o->creator && o->creator->seq < seq && o->info_seq && o->info_seq < seq)
				return o;
		}
	return NULL;
}

/* The name a netlink request of the trace gave network device ifindex, or NULL. */
static const char *device_of_ifindex(const struct fe_trace *t, uint64_t ifindex)
{
	const char *dev;
	uint32_t i;

	if (!ifindex || ifindex > INT32_MAX)
		return NULL;
	for (i = 0; i < t->nr_calls; i++)
		if (!t->calls[i].is_bpf && t->calls[i].sys && t->calls[i].sys->cls == BPFRR_SYS_CLASS_NETLINK &&
		    (dev = recorded_ifname(t, &t->calls[i], (int32_t)ifindex)))
			return dev;
	return NULL;
}

static bool is_alnum(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

/*
 * A directory the loader made whose name carries numbers of the recording's
 * kernel (libxdp: dispatch-IFINDEX-PROGID): each whole number of its last
 * component (digits between non-alphanumerics) that is the index of a device
 * a netlink request named, or else the id of a replayed object the loader had
 * asked for, is renamed at replay (struct bpfrr_ir_path_sub), and the call's
 * explanation says so. A name with more such numbers than a slot carries
 * keeps them all as recorded (renaming some would make a name nobody looks
 * for), and the explanation says that.
 */
static int name_dir_numbers(struct bpfrr_ir *ir, const struct fe_trace *t, struct fe_call *c)
{
	struct bpfrr_ir_path_sub found[BPFRR_IR_MAX_PATH_SUBS];
	const char *path = ir->slots[c->dir_slot].path, *name = strrchr(path, '/') + 1, *p = name;
	uint32_t n = 0, k;
	char said[200] = "";
	size_t used = 0, len;
	int ret;

	while (*p) {
		const char *start = p, *dev;
		struct fe_obj *o = NULL;
		uint64_t v = 0;
		bool whole;

		if (*p < '0' || *p > '9') {
			p++;
			continue;
		}
		while (*p >= '0' && *p <= '9' && v < UINT32_MAX)
			v = v * 10 + (uint64_t)(*p++ - '0');
		whole = (start == name || !is_alnum(start[-1])) && !is_alnum(*p) && (*start != '0' || p - start == 1);
		while (*p >= '0' && *p <= '9')
			p++;
		if (!whole || v > UINT32_MAX || (!(dev = device_of_ifindex(t, v)) && !(o = obj_of_id(t, v, c->seq))))
			continue;
		if (n++ >= BPFRR_IR_MAX_PATH_SUBS)
			continue;	/* counted: the name is left as recorded below */
		found[n - 1] = (struct bpfrr_ir_path_sub){
			.off = (uint32_t)(start - path), .len = (uint32_t)(p - start),
			.kind = dev ? BPFRR_IR_PATH_SUB_IFINDEX : BPFRR_IR_PATH_SUB_OBJ_ID,
			.obj_slot = dev ? -1 : o->slot, .dev = (char *)dev,
		};
		if (used < sizeof(said)) {
			int w = dev ? snprintf(said + used, sizeof(said) - used, "%s%" PRIu64 ": ifindex of %s",
					       used ? ", " : "", v, dev) :
				      snprintf(said + used, sizeof(said) - used, "%s%" PRIu64 ": id of slot %d %s",
					       used ? ", " : "", v, o->slot,
					       ir->slots[o->slot].name ? ir->slots[o->slot].name : "");

			used += w > 0 ? (size_t)w : 0;
		}
	}
	len = strlen(c->why);
	if (n > BPFRR_IR_MAX_PATH_SUBS) {
		snprintf(c->why + len, sizeof(c->why) - len, "; not renamed: %u numbers name this kernel's, at most %u are",
			 n, BPFRR_IR_MAX_PATH_SUBS);
		return 0;
	}
	for (k = 0; k < n; k++)
		if ((ret = bpfrr_ir_add_path_sub(ir, (uint32_t)c->dir_slot, found[k].off, found[k].len, found[k].kind,
						 found[k].obj_slot, found[k].dev)))
			return ret;
	if (n)
		snprintf(c->why + len, sizeof(c->why) - len, "; renamed after the calls (%s)", said);
	return 0;
}

/* --- emission -------------------------------------------------------------------------- */

/* The products of a syscall program's run, in the order of their places: slots it writes. */
static int emit_products(struct bpfrr_ir *ir, const struct fe_trace *t, const struct prep *p, uint32_t idx)
{
	struct fe_call *c = p->c;
	char path[96];
	uint32_t i, j;
	int32_t b;
	int slot, ret;

	if (!c->nr_products)
		return 0;
	snprintf(path, sizeof(path), "attr.%s", c->products_buf);
	b = find_pbuf(p, path);
	if (b < 0)
		return -EINVAL;
	for (i = 1; i < c->nr_products; i++)	/* by offset: the slots in the context's order */
		for (j = i; j > 0 && c->products[j - 1]->run_offset > c->products[j]->run_offset; j--) {
			struct fe_obj *tmp = c->products[j];

			c->products[j] = c->products[j - 1];
			c->products[j - 1] = tmp;
		}
	/* every one, kept or not: the run makes them all, and the replay must close them all */
	for (i = 0; i < c->nr_products; i++) {
		struct fe_obj *o = c->products[i];

		if ((slot = new_slot(ir, t, o, p)) < 0)
			return slot;
		if ((ret = bpfrr_ir_add_outfd(ir, idx, b, o->run_offset, (uint32_t)slot)) < 0)
			return ret;
	}
	return 0;
}

static int emit(struct bpfrr_ir *ir, const struct fe_trace *t, struct prep *p)
{
	struct fe_call *c = p->c;
	int idx, ret, slot;
	uint32_t i;

	idx = bpfrr_ir_add_call(ir, c->seq, p->op, p->cmd, p->attr, p->attr_size);
	if (idx < 0)
		return idx;
	ir->calls[idx].flags = p->flags;
	ir->calls[idx].recorded_ret = c->ret;
	memcpy(ir->calls[idx].args, p->args, sizeof(p->args));
	for (i = 0; i < p->nr_bufs; i++) {
		const struct pbuf *b = &p->bufs[i];

		ret = bpfrr_ir_add_buf(ir, (uint32_t)idx, b->parent, b->ptr_offset, b->path, b->data, b->len,
				       b->dir, b->content);
		if (ret < 0)
			return ret;
	}
	for (i = 0; i < p->nr_rels; i++) {
		const struct bpfrr_ir_fdrel *r = &p->rels[i];

		if ((ret = bpfrr_ir_add_fdrel(ir, (uint32_t)idx, r->buf, r->offset, r->slot, r->ref)) < 0)
			return ret;
	}
	for (i = 0; i < p->nr_res; i++) {
		const struct bpfrr_ir_resolve *r = &p->res[i];

		if ((ret = bpfrr_ir_add_resolve(ir, (uint32_t)idx, r->kind, r->offset, r->size, r->name)) < 0)
			return ret;
	}
	for (i = 0; i < p->nr_syms; i++) {
		const struct psym *ps = &p->syms[i];

		if ((ret = bpfrr_ir_add_symbol_resolve(ir, (uint32_t)idx, ps->kind, ps->buf, ps->offset, ps->name,
						       ps->module, ps->btf_kind, ps->addend)) < 0)
			return ret;
	}
	if (p->bound_why[0] && (ret = bpfrr_ir_set_build_bound(ir, (uint32_t)idx, p->bound_why)))
		return ret;
	if ((ret = emit_products(ir, t, p, (uint32_t)idx)))
		return ret;
	if (c->result && c->result->kept && !c->result->alias_of &&
	    (c->is_bpf ? bpfrr_abi_cmd_ret_kind((int)c->cmd, c->attr, c->attr_len) != BPFRR_OBJ_NONE :
	     p->op == BPFRR_IR_PERF_EVENT_OPEN)) {
		if ((slot = new_slot(ir, t, c->result, p)) < 0)
			return slot;
		if ((ret = bpfrr_ir_set_result(ir, (uint32_t)idx, (uint32_t)slot)))
			return ret;
	}
	c->ir_call = idx;
	return 0;
}

static int cmp_seq(const void *a, const void *b)
{
	const struct fe_call *x = *(const struct fe_call *const *)a, *y = *(const struct fe_call *const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* "openat(/sys/fs/cgroup/x)" for an open, else the call's name */
static void drop_what(const struct fe_trace *t, const struct fe_call *c, char *buf, size_t size)
{
	const struct bpfrr_trace_region *reg = c->is_bpf ? NULL : fe_region(t, c, BPFRR_PHASE_ENTRY, "pathname");
	const struct bpfrr_rec_blob *b = reg && reg->blob ? bpfrr_trace_blob(t->r, reg->blob) : NULL;
	char name[64];

	fe_call_name(c, name, sizeof(name));
	if (b && b->len && b->len < 160 && !memchr(b->data, '\0', b->len - 1))
		snprintf(buf, size, "%s(%.*s)", name, (int)b->len - 1, (const char *)b->data);
	else
		snprintf(buf, size, "%s", name);
	clean_name(buf);
}

struct bpfrr_ir *fe_pass_reloc(struct fe_trace *t, const struct bpfrr_frontend_opts *o, char *err,
			       size_t err_size)
{
	struct bpfrr_ir *ir = bpfrr_ir_new();
	const struct bpfrr_rec_kernel *kernel;
	struct fe_call **order = NULL;
	uint32_t i, n = 0;
	char name[64], verr[256];
	int ret = -ENOMEM;

	if (!ir || !(t->names = calloc(1, sizeof(*t->names))))
		goto nomem;
	ir->arch = t->hdr ? t->hdr->arch : 0;
	if (t->hdr && t->hdr->kernel_release && !(ir->kernel_release = strdup(t->hdr->kernel_release)))
		goto nomem;
	if (!(ir->source = strdup(t->name)))
		goto nomem;
	ir->nr_recorded = t->nr_calls;
	kernel = bpfrr_rt_kernel(t->rt);
	if (kernel && ((ret = bpfrr_ir_set_kernel(ir, kernel->release, kernel->machine, kernel->btf_size,
						  kernel->btf_sha256)) ||
		       (ret = bpfrr_ir_set_kernel_build_id(ir, kernel->build_id,
							   kernel->flags & BPFRR_KERNEL_F_BTF_UNHASHED ?
							   BPFRR_IR_KERNEL_BTF_UNHASHED : 0))))
		goto nomem;

	order = calloc(t->nr_calls + 1, sizeof(*order));
	if (!order)
		goto nomem;
	for (i = 0; i < t->nr_calls; i++)
		order[n++] = &t->calls[i];
	qsort(order, n, sizeof(*order), cmp_seq);

	/* the directories the replayer makes and the files it opens, before any call, in recorded order */
	for (i = 0; i < n; i++)
		if ((order[i]->fate == FE_PATH && (ret = add_path_slot(ir, t, order[i], err, err_size))) ||
		    (order[i]->fate == FE_MKDIR && (ret = add_dir_slot(ir, t, order[i], err, err_size))))
			goto fail;

	for (i = 0; i < n; i++) {
		struct fe_call *c = order[i];
		struct prep p = { .t = t, .c = c };

		if (c->fate != FE_KEPT)
			continue;
		if (c->seq > UINT32_MAX)	/* what codegen refuses at replay, refused here */
			ret = refuse(&p, "its seq does not fit a loader's report (at most 2^32 - 1)");
		else if (c->is_bpf)
			ret = prep_bpf(&p);
		else if (c->sys && c->sys->replay == BPFRR_SYS_REPLAY_PERF_EVENT_OPEN)
			ret = prep_perf_event_open(&p);
		else if (c->sys && c->sys->replay == BPFRR_SYS_REPLAY_IOCTL)
			ret = prep_ioctl(&p);
		else if (c->sys && c->sys->cls == BPFRR_SYS_CLASS_NETLINK)
			ret = prep_netlink(&p);
		else if (c->sys && c->sys->fd_op == BPFRR_SYS_FD_FS)
			ret = refuse(&p, "removes %s from a bpffs, which a replay does not do (the trace did not make it)",
				     fe_fs_path(t, c) ? fe_fs_path(t, c) : "a path");
		else
			ret = refuse(&p, "a system call the translator does not replay");
		if (ret == -EINVAL) {
			fe_call_name(c, name, sizeof(name));
			if (!o->skip_untranslatable) {
				snprintf(err, err_size, "seq %" PRIu64 " %s cannot be translated: %s", c->seq,
					 name, p.why);
				t->untranslatable = true;
				prep_free(&p);
				goto fail;
			}
			c->fate = FE_SKIPPED;
			snprintf(c->why, sizeof(c->why), "untranslatable: %.180s", p.why);
			if (c->result)
				c->result->unavailable = true;
			for (uint32_t k = 0; k < c->nr_products; k++)
				c->products[k]->unavailable = true;
			if (o->warn)
				fprintf(o->warn, "skipped seq %" PRIu64 " %s: %s\n", c->seq, name, p.why);
			prep_free(&p);
			continue;
		}
		if (!ret)
			ret = emit(ir, t, &p);
		if (!ret && c->is_bpf && c->cmd == BPFRR_CMD_PROG_LOAD)
			ret = fe_pass_core(t, c, ir, (uint32_t)c->ir_call);	/* CO-RE for the target kernel */
		prep_free(&p);
		if (ret == -E2BIG && ir->nr_slots >= BPFRR_IR_MAX_SLOTS) {
			/* the one limit a big load meets first (bench/scaling: 2667 maps, programs and links) */
			fe_call_name(c, name, sizeof(name));
			snprintf(err, err_size, "%s: seq %" PRIu64 " %s: more than %u objects in one load, the most "
				 "a bundle holds (a loader reaches each at a 16-bit offset of its context)", t->name,
				 c->seq, name, BPFRR_IR_MAX_SLOTS);
			t->untranslatable = true;
			goto fail;
		}
		if (ret)
			goto nomem;
		if (c->is_bpf && (c->cmd == BPFRR_CMD_MAP_UPDATE_ELEM || c->cmd == BPFRR_CMD_MAP_UPDATE_BATCH) && o->warn &&
		    c->target && bpfrr_abi_map_is_percpu(fe_obj_type(c->target)))
			fprintf(o->warn, "seq %" PRIu64 ": per-CPU values for the recording's %u possible CPUs: "
				"replay where the kernel has as many\n", c->seq, t->hdr ? t->hdr->nr_cpus : 0);
	}

	/* numbers of the recording's kernel in the names of the directories made, now that slots exist */
	note_info_queries(t);
	for (i = 0; i < n; i++)
		if (order[i]->fate == FE_MKDIR && order[i]->dir_slot >= 0 &&
		    (ret = name_dir_numbers(ir, t, order[i])))
			goto nomem;

	for (i = 0; i < n; i++) {
		struct fe_call *c = order[i];
		char what[200];

		if (c->fate == FE_KEPT)
			continue;
		drop_what(t, c, what, sizeof(what));
		if ((ret = bpfrr_ir_add_drop(ir, c->seq, what, c->why)) < 0)
			goto nomem;
	}
	/* what the kept calls leave in the maps: --verify's reference */
	if ((ret = bpfrr_ir_model_contents(ir)) < 0)
		goto nomem;
	ret = bpfrr_ir_validate(ir, verr, sizeof(verr));
	if (ret) {
		snprintf(err, err_size, "%s: internal error, the IR does not validate: %s", t->name, verr);
		goto fail;
	}
	free(order);
	slot_names_free(t);
	return ir;
nomem:
	snprintf(err, err_size, "%s: %s", t->name, strerror(ret == -EINVAL || !ret ? ENOMEM : -ret));
fail:
	free(order);
	slot_names_free(t);
	bpfrr_ir_free(ir);
	return NULL;
}

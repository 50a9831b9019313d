// SPDX-License-Identifier: GPL-2.0-only
/*
 * verify.c - after a replay: compare the kernel's objects with the
 * identities the recording saw (bpfrr replay --verify), and pin them.
 *
 * On the recording's kernel build the recorded values are the reference.
 * On another build a program's tag legitimately differs (the kernel
 * re-relocates its CO-RE instructions against its own BTF before computing
 * the tag, and kfunc/ksym BTF ids were resolved for it), and the kernel's
 * tag is what is being checked, so the reference is computed here: the tag
 * of the instructions as replayed (resolutions written into the IR), with
 * their CO-RE records applied by our own calculator (lib/core_reloc.h) to
 * the running kernel's BTF.  Attach BTF ids are compared with the resolved
 * values the same way.
 *
 * A map the loader wrote is read back key by key and compared with what the
 * recording's calls left in it (the slot's contents, contents.c), where no
 * program can have changed it since: see verify_contents().
 */
#include <errno.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <linux/bpf.h>

#include "bpf_abi.h"
#include "btf_parse.h"
#include "core_reloc.h"
#include "exec.h"
#include "header_runtime.h"
#include "kernel_build.h"
#include "netlink.h"
#include "prog_tag.h"
#include "replay.h"

struct table {
	const struct bpfrr_replay *r;
	bpfrr_verify_row_fn *fn;
	void *ctx;
	struct bpfrr_verify_totals tot;
	bool expect;		/* compute expected values (another build, or forced) */
};

static void row_at(struct table *t, uint32_t slot, const char *obj, const char *field, const char *want,
		   const char *got, const char *expected, const char *at,
		   int verdict /* 1 ok, 0 mismatch, -1 not checkable */)
{
	struct bpfrr_verify_row row = {
		.slot = slot, .kind = bpfrr_abi_obj_kind_name(t->r->ir->slots[slot].kind), .object = obj,
		.field = field, .recorded = want, .replayed = got, .expected = expected, .at = at,
		.verdict = verdict,
	};

	t->tot.checks++;
	if (verdict == 0)
		t->tot.mismatches++;
	if (verdict < 0)
		t->tot.unchecked++;
	t->fn(t->ctx, &row);
}

static void row_x(struct table *t, uint32_t slot, const char *obj, const char *field, const char *want,
		  const char *got, const char *expected, int verdict)
{
	row_at(t, slot, obj, field, want, got, expected, NULL, verdict);
}

static void row(struct table *t, uint32_t slot, const char *obj, const char *field, const char *want,
		const char *got, int verdict)
{
	row_x(t, slot, obj, field, want, got, NULL, verdict);
}

static void row_u(struct table *t, uint32_t slot, const char *obj, const char *field, uint64_t want,
		  uint64_t got)
{
	char a[32], b[32];

	snprintf(a, sizeof(a), "%llu", (unsigned long long)want);
	snprintf(b, sizeof(b), "%llu", (unsigned long long)got);
	row(t, slot, obj, field, a, b, want == got);
}

static void row_type(struct table *t, uint32_t slot, const char *obj, uint32_t kind, uint32_t want,
		     uint32_t got)
{
	const char *(*name)(uint32_t) = kind == BPFRR_OBJ_PROG ? bpfrr_abi_prog_type_name :
					kind == BPFRR_OBJ_MAP ? bpfrr_abi_map_type_name :
					bpfrr_abi_link_type_name;
	char a[40], b[40];

	snprintf(a, sizeof(a), "%s (%u)", name(want) ? name(want) : "?", want);
	snprintf(b, sizeof(b), "%s (%u)", name(got) ? name(got) : "?", got);
	row(t, slot, obj, "type", a, b, want == got);
}

static void tag_hex(const uint8_t *tag, char *buf)
{
	int i;

	for (i = 0; i < 8; i++)
		sprintf(buf + 2 * i, "%02x", tag[i]);
}

/* id of the program in a slot, 0 if it cannot be had */
static uint32_t prog_id_of(const struct bpfrr_replay *r, uint32_t slot)
{
	struct bpf_prog_info info;

	if (slot >= r->ir->nr_slots || r->fds[slot] < 0)
		return 0;
	memset(&info, 0, sizeof(info));
	return bpfrr_obj_info(r->fds[slot], &info, sizeof(info)) ? 0 : info.id;
}

/* --- the running kernel's build, and what it should make of a program ---------------------- */

/*
 * Same build as the recording (kernel_build.h: release, BTF size and
 * SHA-256)?  Sets tot.build and, for another build, a note saying how.
 */
static void which_build(struct table *t)
{
	const struct bpfrr_ir_kernel *k = &t->r->ir->kernel;
	const struct bpfrr_kernel_build *run;
	const char *differs;

	if (!k->known) {
		t->tot.build = BPFRR_VERIFY_NO_IDENTITY;
		return;
	}
	if (bpfrr_rt_same_build(t->r->ir)) {
		t->tot.build = BPFRR_VERIFY_SAME_BUILD;
		return;
	}
	t->tot.build = BPFRR_VERIFY_OTHER_BUILD;
	if (bpfrr_kernel_build_current(&run))
		differs = "its build cannot be read";
	else if (!k->release || strcmp(k->release, run->release))
		differs = "release differs";
	else if (k->build_id && run->build_id[0])
		differs = "build id differs";
	else if (k->build_id)
		differs = "this kernel has no build id";
	else if (k->btf_size != run->btf_size)
		differs = "BTF size differs";
	else
		differs = "BTF differs";
	snprintf(t->tot.build_note, sizeof(t->tot.build_note), "recorded on %s (%s), running %s: %s",
		 k->release ? k->release : "?", k->machine ? k->machine : "?", run ? run->release : "?", differs);
}

static int buf_index(const struct bpfrr_ir_call *c, const char *path)
{
	uint32_t i;

	for (i = 0; i < c->nr_bufs; i++)
		if (c->bufs[i].path && !strcmp(c->bufs[i].path, path) && c->bufs[i].data)
			return i;
	return -1;
}

/* A PROG_LOAD attr field as the call made it (0 when the attr is too short for it). */
static bool load_field(const struct bpfrr_ir_call *c, const char *name, uint64_t *val, uint32_t *offset)
{
	const struct bpfrr_field *f = bpfrr_abi_cmd_field(BPFRR_CMD_PROG_LOAD, name);

	if (!f || f->offset + f->size > c->attr_size) {
		*val = 0;
		return false;
	}
	*val = bpfrr_abi_field_get(f, c->attr, c->attr_size);
	if (offset)
		*offset = f->offset;
	return true;
}

/* The call that made a slot's object, or NULL. */
static const struct bpfrr_ir_call *producer_of(const struct bpfrr_ir *ir, uint32_t slot)
{
	const struct bpfrr_ir_slot *s = slot < ir->nr_slots ? &ir->slots[slot] : NULL;

	if (!s || s->source != BPFRR_IR_SLOT_CALL || s->producer < 0 || (uint32_t)s->producer >= ir->nr_calls)
		return NULL;
	return &ir->calls[s->producer];
}

/* The program's own BTF (BTF_LOAD's attr.btf of the slot its prog_btf_fd names), or NULL. */
static struct btf *prog_btf(const struct bpfrr_ir *ir, const struct bpfrr_ir_call *c)
{
	const struct bpfrr_ir_call *bc;
	uint32_t off, i;
	uint64_t fd;
	int b;

	if (!load_field(c, "prog_btf_fd", &fd, &off))
		return NULL;
	for (i = 0; i < c->nr_fdrels; i++) {
		if (c->fdrels[i].buf != BPFRR_IR_IN_ATTR || c->fdrels[i].offset != off)
			continue;
		bc = producer_of(ir, c->fdrels[i].slot);
		b = bc ? buf_index(bc, "attr.btf") : -1;
		return b < 0 ? NULL : bpfrr_btf_parse(bc->bufs[b].data, bc->bufs[b].len);
	}
	return NULL;
}

/*
 * The tag the running kernel should give the program in slot: that of the
 * instructions the replay handed it (fds as they were passed), CO-RE records
 * applied for this kernel.  0, or -1 with why ("unknown (CO-RE kind ...)").
 */
static int expected_tag(struct table *t, uint32_t slot, uint8_t tag[BPFRR_PROG_TAG_LEN], char *why,
			size_t why_size)
{
	const struct bpfrr_replay *r = t->r;
	const struct bpfrr_ir_call *c = producer_of(r->ir, slot);
	struct bpfrr_core_report rep;
	uint64_t nr_relos = 0, rec_size = 0;
	struct btf *local, *target;
	uint8_t *insns;
	uint32_t len, i;
	int ib, rb, ret;

	ib = c ? buf_index(c, "attr.insns") : -1;
	if (ib < 0) {
		snprintf(why, why_size, "unknown (no recorded instructions)");
		return -1;
	}
	len = c->bufs[ib].len;
	insns = malloc(len ? len : 1);
	if (!insns) {
		snprintf(why, why_size, "unknown (out of memory)");
		return -1;
	}
	memcpy(insns, c->bufs[ib].data, len);
	/* the fds the replay put in the instructions (the tag blanks map fds, not a module BTF's) */
	for (i = 0; i < c->nr_fdrels; i++) {
		const struct bpfrr_ir_fdrel *fr = &c->fdrels[i];
		int32_t fd = fr->slot < r->ir->nr_slots ? r->fds[fr->slot] : -1;

		if (fr->buf == ib && fr->offset + 4 <= len)
			memcpy(insns + fr->offset, &fd, 4);
	}
	load_field(c, "core_relo_cnt", &nr_relos, NULL);
	load_field(c, "core_relo_rec_size", &rec_size, NULL);
	rb = buf_index(c, "attr.core_relos");
	if (nr_relos) {
		if (rb < 0 || rec_size * nr_relos > c->bufs[rb].len) {
			snprintf(why, why_size, "unknown (core_relos not in the bundle)");
			goto fail;
		}
		local = prog_btf(r->ir, c);
		if (!local) {
			snprintf(why, why_size, "unknown (the program's BTF is not in the bundle)");
			goto fail;
		}
		target = r->syms ? bpfrr_symbols_vmlinux(r->syms, &ret) : NULL;
		if (!target) {
			snprintf(why, why_size, "unknown (%s: %s)", BPFRR_VMLINUX_BTF,
				 strerror(r->syms ? -ret : ENOMEM));
			btf__free(local);
			goto fail;
		}
		ret = bpfrr_core_relocate(local, target, c->bufs[rb].data, nr_relos, rec_size, insns,
					  len / 8, &rep);
		btf__free(local);
		if (ret == BPFRR_CORE_UNSUPPORTED) {
			snprintf(why, why_size, "unknown (%s)", rep.msg);
			goto fail;
		}
		if (ret) {
			snprintf(why, why_size, "unknown (CO-RE: %s)", rep.msg);
			goto fail;
		}
	}
	ret = bpfrr_prog_tag(insns, len / 8, tag);
	free(insns);
	if (ret)
		snprintf(why, why_size, "unknown (out of memory)");
	return ret ? -1 : 0;
fail:
	free(insns);
	return -1;
}

/* The attach BTF id the replay gave the program in slot (resolved in the IR), or 0. */
static uint32_t replayed_attach_btf_id(const struct bpfrr_ir *ir, uint32_t slot)
{
	const struct bpfrr_ir_call *c = producer_of(ir, slot);
	uint64_t v = 0;

	if (c)
		load_field(c, "attach_btf_id", &v, NULL);
	return v;
}

/* --- map contents: what the loader wrote (ir.h, struct bpfrr_ir_contents) ------------------------- */

static int map_lookup(int fd, const void *key, void *value)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (uintptr_t)key;
	attr.value = (uintptr_t)value;
	return bpfrr_sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr, sizeof(attr));
}

/* The number of keys the map has (a walk of GET_NEXT_KEY, at most limit + 1), or -errno. */
static int64_t map_count_keys(int fd, uint32_t key_size, uint32_t limit)
{
	uint8_t *key = calloc(2, key_size ? key_size : 1), *next;
	union bpf_attr attr;
	int64_t n = 0;
	int ret;

	if (!key)
		return -ENOMEM;
	next = key + (key_size ? key_size : 1);
	for (;;) {
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = fd;
		attr.key = n ? (uintptr_t)key : 0;
		attr.next_key = (uintptr_t)next;
		ret = bpfrr_sys_bpf(BPF_MAP_GET_NEXT_KEY, &attr, sizeof(attr));
		if (ret == -ENOENT)
			break;
		if (ret) {
			n = ret;
			break;
		}
		memcpy(key, next, key_size);
		if (++n > limit)
			break;
	}
	free(key);
	return n;
}

/* The id of the program or map behind fd, 0 if it cannot be had. */
static uint32_t object_id(int fd, uint32_t kind)
{
	struct bpf_prog_info pi;
	struct bpf_map_info mi;

	if (fd < 0)
		return 0;
	memset(&pi, 0, sizeof(pi));
	memset(&mi, 0, sizeof(mi));
	if (kind == BPFRR_OBJ_PROG)
		return bpfrr_obj_info(fd, &pi, sizeof(pi)) ? 0 : pi.id;
	return bpfrr_obj_info(fd, &mi, sizeof(mi)) ? 0 : mi.id;
}

/* The BTF a map was created with and its value type, for names of .rodata/.data/.bss variables. */
static struct btf *map_btf(const struct bpfrr_ir *ir, uint32_t slot, uint32_t *value_type_id)
{
	const struct bpfrr_ir_call *c = producer_of(ir, slot), *bc;
	const struct bpfrr_field *fd_f, *vt_f;
	uint32_t i;
	int b;

	*value_type_id = 0;
	if (!c || c->op != BPFRR_IR_BPF || c->cmd != BPFRR_CMD_MAP_CREATE)
		return NULL;
	fd_f = bpfrr_abi_cmd_field(BPFRR_CMD_MAP_CREATE, "btf_fd");
	vt_f = bpfrr_abi_cmd_field(BPFRR_CMD_MAP_CREATE, "btf_value_type_id");
	if (!fd_f || !vt_f || vt_f->offset + vt_f->size > c->attr_size)
		return NULL;
	*value_type_id = (uint32_t)bpfrr_abi_field_get(vt_f, c->attr, c->attr_size);
	for (i = 0; i < c->nr_fdrels && *value_type_id; i++) {
		if (c->fdrels[i].buf != BPFRR_IR_IN_ATTR || c->fdrels[i].offset != fd_f->offset)
			continue;
		bc = producer_of(ir, c->fdrels[i].slot);
		b = bc ? buf_index(bc, "attr.btf") : -1;
		return b < 0 ? NULL : bpfrr_btf_parse(bc->bufs[b].data, bc->bufs[b].len);
	}
	return NULL;
}

/* "[3]" for a 4-byte key (an array index), its bytes in hex otherwise. */
static void key_text(const struct bpfrr_ir_entry *e, char *buf, size_t size)
{
	size_t n = 0;
	uint32_t i;

	if (e->key_len == 4) {
		snprintf(buf, size, "[%u]", (unsigned)(e->key[0] | e->key[1] << 8 | e->key[2] << 16 |
						     (uint32_t)e->key[3] << 24));
		return;
	}
	n = snprintf(buf, size, "[");
	for (i = 0; i < e->key_len && n + 8 < size; i++)
		n += snprintf(buf + n, size - n, "%02x", e->key[i]);
	snprintf(buf + n, size - n, i < e->key_len ? "..]" : "]");
}

/* A little-endian number of 1, 2, 4 or 8 bytes as "1 (0x1)", other sizes as hex bytes. */
static void value_text(const uint8_t *p, uint32_t size, char *buf, size_t bsize)
{
	uint64_t v = 0;
	size_t n = 0;
	uint32_t i;

	if (size == 1 || size == 2 || size == 4 || size == 8) {
		for (i = 0; i < size; i++)
			v |= (uint64_t)p[i] << (8 * i);
		snprintf(buf, bsize, "%llu (0x%llx)", (unsigned long long)v, (unsigned long long)v);
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < size && n + 8 < bsize; i++)
		n += snprintf(buf + n, bsize - n, "%02x", p[i]);
	if (i < size)
		snprintf(buf + n, bsize - n, "..");
}

/*
 * Where byte off of a value is, and what both sides hold there: the DATASEC
 * variable covering it (.rodata, .data, .bss: "targ_tgid", its values as
 * numbers), or the byte itself.
 */
static void describe_diff(struct btf *btf, uint32_t value_type_id, const struct bpfrr_ir_entry *e,
			  const uint8_t *got, uint32_t off, char *at, size_t at_size, char *want_s, char *got_s,
			  size_t vsize)
{
	const struct btf_type *t = btf && value_type_id ? btf__type_by_id(btf, value_type_id) : NULL;
	char key[64];

	key_text(e, key, sizeof(key));
	if (t && btf_is_datasec(t)) {
		const struct btf_var_secinfo *vs = btf_var_secinfos(t);

		for (uint16_t i = 0; i < btf_vlen(t); i++) {
			const struct btf_type *var = btf__type_by_id(btf, vs[i].type);
			const char *name = var ? btf__name_by_offset(btf, var->name_off) : NULL;

			if (!name || off < vs[i].offset || off >= vs[i].offset + (uint64_t)vs[i].size ||
			    vs[i].offset + (uint64_t)vs[i].size > e->value_len)
				continue;
			snprintf(at, at_size, "key %s, byte %u: %s+%u", key, off, name, off - vs[i].offset);
			value_text(e->value + vs[i].offset, vs[i].size, want_s, vsize);
			value_text(got + vs[i].offset, vs[i].size, got_s, vsize);
			return;
		}
	}
	snprintf(at, at_size, "key %s, byte %u", key, off);
	snprintf(want_s, vsize, "0x%02x", e->value[off]);
	snprintf(got_s, vsize, "0x%02x", got[off]);
}

/* Do the loaded programs refer to the map in slot (or to a map of maps that may hold it)? */
static bool used_by_programs(const struct bpfrr_ir *ir, uint32_t slot)
{
	uint32_t i, j;

	for (i = 0; i < ir->nr_calls; i++) {
		const struct bpfrr_ir_call *c = &ir->calls[i];

		if (c->op != BPFRR_IR_BPF || c->cmd != BPFRR_CMD_PROG_LOAD)
			continue;
		for (j = 0; j < c->nr_fdrels; j++)
			if (c->fdrels[j].slot == slot)
				return true;
	}
	for (i = 0; i < ir->nr_slots; i++) {
		const struct bpfrr_ir_contents *mc = ir->slots[i].contents;

		for (j = 0; mc && j < mc->nr_entries; j++)
			if (mc->entries[j].value_slot == (int32_t)slot)
				return true;
	}
	return false;
}

/* struct bpf_struct_ops_common_value { refcount_t refcnt; enum bpf_struct_ops_state state; } */
#define STRUCT_OPS_STATE_OFF	4
/* map_flags: a struct_ops map registered through a link (UAPI BPF_F_LINK, which older headers lack) */
#define STRUCT_OPS_F_LINK	(1u << 13)
static const char *const struct_ops_states[] = { "init", "inuse", "tobefree", "ready" };

/*
 * A struct_ops map's contents: the value its last replayed BPF_MAP_UPDATE_ELEM
 * gave it.  The kernel's lookup returns the value with each program's id where
 * the update put its fd (bpf_struct_ops_map_update_elem()), and the state the
 * update left: registered ("inuse") without BPF_F_LINK, "ready" for a link with
 * it.  The ids must be those of the replayed programs the update named (the
 * call's fd patches of attr.value), the state what the update makes.
 */
static void verify_struct_ops(const struct bpfrr_replay *r, uint32_t slot, struct table *t,
			      const struct bpf_map_info *info, const char *obj)
{
	const struct bpfrr_ir_call *update = NULL;
	char want[160] = "", got[160] = "", at[96] = "";
	uint32_t i, k, nr_progs = 0, state, want_state;
	int32_t value_buf = -2;
	uint8_t *val;
	int verdict = 1, ret;

	for (i = 0; i < r->ir->nr_calls; i++) {
		const struct bpfrr_ir_call *c = &r->ir->calls[i];

		if (c->op != BPFRR_IR_BPF || c->cmd != BPF_MAP_UPDATE_ELEM)
			continue;
		for (k = 0; k < c->nr_fdrels; k++)
			if (c->fdrels[k].buf == BPFRR_IR_IN_ATTR &&
			    c->fdrels[k].offset == offsetof(union bpf_attr, map_fd) && c->fdrels[k].slot == slot)
				update = c;
	}
	if (!update) {
		row(t, slot, obj, "contents", "no update", "(struct_ops: nothing to compare)", -1);
		return;
	}
	for (k = 0; k < update->nr_bufs; k++)
		if (update->bufs[k].parent == BPFRR_IR_IN_ATTR && !strcmp(update->bufs[k].path, "attr.value"))
			value_buf = (int32_t)k;
	val = calloc(1, info->value_size > 8 ? info->value_size : 8);
	if (!val) {
		row(t, slot, obj, "contents", "registered", "(out of memory)", -1);
		return;
	}
	ret = map_lookup(r->fds[slot], &(uint32_t){ 0 }, val);
	if (ret) {
		snprintf(got, sizeof(got), "(lookup: %s)", strerror(-ret));
		row(t, slot, obj, "contents", "registered", got, -1);
		free(val);
		return;
	}
	for (k = 0; k < update->nr_fdrels && verdict > 0; k++) {
		const struct bpfrr_ir_fdrel *f = &update->fdrels[k];
		const struct bpfrr_ir_slot *ps;
		uint32_t want_id, got_id;

		if (f->buf != value_buf || f->slot >= r->ir->nr_slots || f->offset + 4 > info->value_size)
			continue;
		ps = &r->ir->slots[f->slot];
		want_id = object_id(r->fds[f->slot], ps->kind);
		memcpy(&got_id, val + f->offset, sizeof(got_id));
		nr_progs++;
		if (!want_id || want_id != got_id) {
			snprintf(at, sizeof(at), "value byte %u", f->offset);
			snprintf(want, sizeof(want), "slot %u %s: id %u", f->slot,
				 ps->name ? ps->name : bpfrr_abi_obj_kind_name(ps->kind), want_id);
			snprintf(got, sizeof(got), "id %u", got_id);
			verdict = 0;
		}
	}
	memcpy(&state, val + STRUCT_OPS_STATE_OFF, sizeof(state));
	want_state = info->map_flags & STRUCT_OPS_F_LINK ? 3 : 1;
	if (verdict > 0 && state != want_state) {
		snprintf(at, sizeof(at), "state");
		snprintf(want, sizeof(want), "%s", struct_ops_states[want_state]);
		snprintf(got, sizeof(got), "%s", state < 4 ? struct_ops_states[state] : "?");
		verdict = 0;
	}
	if (verdict > 0) {
		snprintf(want, sizeof(want), "%s, %u programs", struct_ops_states[want_state], nr_progs);
		row(t, slot, obj, "contents", want, "same", 1);
	} else {
		row_at(t, slot, obj, "contents", want, got, NULL, at, verdict);
	}
	free(val);
}

/*
 * The contents of a map the loader wrote, against what the recording's calls
 * left (the slot's contents): one row per map.  Programs may change a map
 * once attached; a difference counts only where no program can write the
 * map: frozen, BPF_F_RDONLY_PROG, a prog array or a map of maps (programs
 * cannot update those), or a map no loaded program refers to.  Elsewhere a
 * difference is reported unchecked.
 */
static void verify_contents(const struct bpfrr_replay *r, uint32_t slot, struct table *t,
			    const struct bpf_map_info *info)
{
	const struct bpfrr_ir_slot *s = &r->ir->slots[slot];
	const struct bpfrr_ir_contents *c = s->contents;
	const char *obj = s->name ? s->name : "map";
	char want[160], got[160], at[192], rec[64];
	bool fd_map = info->type == BPF_MAP_TYPE_PROG_ARRAY || info->type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
		      info->type == BPF_MAP_TYPE_HASH_OF_MAPS;
	bool hash = info->type == BPF_MAP_TYPE_HASH || info->type == BPF_MAP_TYPE_LRU_HASH ||
		    info->type == BPF_MAP_TYPE_HASH_OF_MAPS;
	bool writable = !(c->flags & BPFRR_IR_CONTENTS_FROZEN) && !(info->map_flags & BPF_F_RDONLY_PROG) &&
			!fd_map && used_by_programs(r->ir, slot);
	uint32_t value_type_id = 0, i;
	struct btf *btf = NULL;
	uint8_t *val = NULL;
	int verdict = 1, ret;

	snprintf(rec, sizeof(rec), "%u entr%s%s", c->nr_entries, c->nr_entries == 1 ? "y" : "ies",
		 c->flags & BPFRR_IR_CONTENTS_FROZEN ? ", frozen" : "");
	if (c->flags & BPFRR_IR_CONTENTS_PARTIAL) {
		row(t, slot, obj, "contents", rec, "(writes bpfrr does not model: not compared)", -1);
		return;
	}
	if (info->type == BPF_MAP_TYPE_STRUCT_OPS) {
		verify_struct_ops(r, slot, t, info, obj);
		return;
	}
	if (bpfrr_abi_map_is_percpu(info->type) ||
	    !(fd_map || hash || info->type == BPF_MAP_TYPE_ARRAY || info->type == BPF_MAP_TYPE_LPM_TRIE)) {
		const char *tn = bpfrr_abi_map_type_name(info->type);

		snprintf(got, sizeof(got), "(%s: not compared)", tn ? tn : "this map type");
		row(t, slot, obj, "contents", rec, got, -1);
		return;
	}
	val = calloc(1, info->value_size ? info->value_size : 1);
	if (!val) {
		row(t, slot, obj, "contents", rec, "(out of memory)", -1);
		return;
	}
	snprintf(got, sizeof(got), "same");
	at[0] = '\0';
	for (i = 0; i < c->nr_entries && verdict > 0; i++) {
		const struct bpfrr_ir_entry *e = &c->entries[i];
		char key[64];

		key_text(e, key, sizeof(key));
		if (e->key_len != info->key_size || (e->value_slot < 0 && e->value_len != info->value_size)) {
			snprintf(at, sizeof(at), "key %s", key);
			snprintf(want, sizeof(want), "key %u, value %u bytes", e->key_len, e->value_len);
			snprintf(got, sizeof(got), "key %u, value %u bytes", info->key_size, info->value_size);
			verdict = 0;
			break;
		}
		ret = map_lookup(r->fds[slot], e->key, val);
		if (ret == -ENOENT) {
			snprintf(at, sizeof(at), "key %s", key);
			snprintf(want, sizeof(want), "present");
			snprintf(got, sizeof(got), "missing");
			verdict = 0;
		} else if (ret) {
			snprintf(at, sizeof(at), "key %s", key);
			snprintf(want, sizeof(want), "%s", rec);
			snprintf(got, sizeof(got), "(lookup: %s)", strerror(-ret));
			verdict = -1;
		} else if (e->value_slot >= 0) {
			const struct bpfrr_ir_slot *vs = &r->ir->slots[e->value_slot];
			uint32_t want_id = object_id(r->fds[e->value_slot], vs->kind), got_id;

			memcpy(&got_id, val, sizeof(got_id));
			if (!want_id || want_id != got_id) {
				snprintf(at, sizeof(at), "key %s", key);
				snprintf(want, sizeof(want), "slot %d %s: id %u", e->value_slot,
					 vs->name ? vs->name : bpfrr_abi_obj_kind_name(vs->kind), want_id);
				snprintf(got, sizeof(got), "id %u", got_id);
				verdict = 0;
			}
		} else if (e->value_len && memcmp(e->value, val, e->value_len)) {
			uint32_t off = 0;

			while (e->value[off] == val[off])
				off++;
			if (!btf)
				btf = map_btf(r->ir, slot, &value_type_id);
			describe_diff(btf, value_type_id, e, val, off, at, sizeof(at), want, got, sizeof(want));
			verdict = 0;
		}
	}
	if (verdict > 0 && hash && !writable) {
		int64_t n = map_count_keys(r->fds[slot], info->key_size, c->nr_entries);

		if (n >= 0 && n != c->nr_entries) {
			snprintf(want, sizeof(want), "%u keys", c->nr_entries);
			snprintf(got, sizeof(got), "%s%lld keys", n > c->nr_entries ? "more than " : "",
				 (long long)(n > c->nr_entries ? c->nr_entries : n));
			verdict = 0;
		}
	}
	if (verdict == 0 && writable) {
		/* the programs may have written it since they were attached */
		size_t n = strlen(at);

		snprintf(at + n, sizeof(at) - n, "%sthe programs can write this map", n ? "; " : "");
		verdict = -1;
	}
	if (verdict > 0)
		row(t, slot, obj, "contents", rec, got, 1);
	else
		row_at(t, slot, obj, "contents", want, got, NULL, at, verdict);
	btf__free(btf);
	free(val);
}

static int verify_slot(const struct bpfrr_replay *r, uint32_t i, struct table *t)
{
	const struct bpfrr_ir_slot *s = &r->ir->slots[i];
	const struct bpfrr_ir_ident *id = &s->ident;
	const char *obj = s->name ? s->name : bpfrr_abi_obj_kind_name(s->kind);
	int fd = r->fds[i], ret;
	char a[40], b[40];

	if (fd < 0) {
		row(t, i, obj, "object", "exists", "no fd", 0);
		return 0;
	}
	switch (s->kind) {
	case BPFRR_OBJ_PROG: {
		struct bpf_prog_info info;

		memset(&info, 0, sizeof(info));
		ret = bpfrr_obj_info(fd, &info, sizeof(info));
		if (ret)
			return ret;
		if (id->have & BPFRR_ID_TYPE)
			row_type(t, i, obj, s->kind, id->type, info.type);
		if ((id->have & BPFRR_ID_TAG) && t->expect) {
			uint8_t want[BPFRR_PROG_TAG_LEN];
			char x[320];

			tag_hex(id->tag, a);
			tag_hex(info.tag, b);
			if (expected_tag(t, i, want, x, sizeof(x))) {
				row_x(t, i, obj, "tag", a, b, x, -1);
			} else {
				tag_hex(want, x);
				/* forced on the recording's build, all three must agree */
				row_x(t, i, obj, "tag", a, b, x,
				      !memcmp(want, info.tag, 8) &&
				      (t->tot.build == BPFRR_VERIFY_OTHER_BUILD || !memcmp(want, id->tag, 8)));
			}
		} else if (id->have & BPFRR_ID_TAG) {
			tag_hex(id->tag, a);
			tag_hex(info.tag, b);
			row(t, i, obj, "tag", a, b, !memcmp(id->tag, info.tag, 8));
		}
		if (id->have & BPFRR_ID_NAME)
			row(t, i, obj, "name", id->name, info.name, !strncmp(id->name, info.name, 16));
		if ((id->have & BPFRR_ID_TARGET_BTF_ID) && t->expect) {
			uint32_t want = replayed_attach_btf_id(r->ir, i);
			char x[32];

			snprintf(a, sizeof(a), "%u", id->target_btf_id);
			snprintf(b, sizeof(b), "%u", info.attach_btf_id);
			snprintf(x, sizeof(x), "%u", want);
			row_x(t, i, obj, "attach_btf_id", a, b, x, want == info.attach_btf_id);
		} else if (id->have & BPFRR_ID_TARGET_BTF_ID) {
			row_u(t, i, obj, "attach_btf_id", id->target_btf_id, info.attach_btf_id);
		}
		break;
	}
	case BPFRR_OBJ_MAP: {
		struct bpf_map_info info;

		memset(&info, 0, sizeof(info));
		ret = bpfrr_obj_info(fd, &info, sizeof(info));
		if (ret)
			return ret;
		if (id->have & BPFRR_ID_TYPE)
			row_type(t, i, obj, s->kind, id->type, info.type);
		if (id->have & BPFRR_ID_KEY_SIZE)
			row_u(t, i, obj, "key_size", id->key_size, info.key_size);
		if (id->have & BPFRR_ID_VALUE_SIZE)
			row_u(t, i, obj, "value_size", id->value_size, info.value_size);
		if (id->have & BPFRR_ID_MAX_ENTRIES)
			row_u(t, i, obj, "max_entries", id->max_entries, info.max_entries);
		if (id->have & BPFRR_ID_MAP_FLAGS) {
			snprintf(a, sizeof(a), "0x%x", id->map_flags);
			snprintf(b, sizeof(b), "0x%x", info.map_flags);
			row(t, i, obj, "map_flags", a, b, id->map_flags == info.map_flags);
		}
		if (id->have & BPFRR_ID_NAME)
			row(t, i, obj, "name", id->name, info.name, !strncmp(id->name, info.name, 16));
		if (s->contents)
			verify_contents(r, i, t, &info);
		break;
	}
	case BPFRR_OBJ_BTF: {
		struct bpf_btf_info info;

		memset(&info, 0, sizeof(info));
		ret = bpfrr_obj_info(fd, &info, sizeof(info));
		if (ret)
			return ret;
		if (id->have & BPFRR_ID_BTF_SIZE)
			row_u(t, i, obj, "btf_size", id->btf_size, info.btf_size);
		break;
	}
	case BPFRR_OBJ_LINK: {
		struct bpf_link_info info;

		memset(&info, 0, sizeof(info));
		ret = bpfrr_obj_info(fd, &info, sizeof(info));
		if (ret)
			return ret;
		if (id->have & BPFRR_ID_TYPE)
			row_type(t, i, obj, s->kind, id->type, info.type);
		if (id->have & BPFRR_ID_LINK_PROG) {
			uint32_t want = prog_id_of(r, id->link_prog_slot);

			snprintf(a, sizeof(a), "slot %u: id %u", id->link_prog_slot, want);
			snprintf(b, sizeof(b), "id %u", info.prog_id);
			row(t, i, obj, "prog", a, b, want && want == info.prog_id);
		}
		if (id->have & BPFRR_ID_ATTACH_TYPE) {
			uint32_t got = 0;
			bool known = true;

			switch (info.type) {
			case BPF_LINK_TYPE_TRACING: got = info.tracing.attach_type; break;
			case BPF_LINK_TYPE_CGROUP: got = info.cgroup.attach_type; break;
			case BPF_LINK_TYPE_NETNS: got = info.netns.attach_type; break;
			default: known = false;
			}
			snprintf(a, sizeof(a), "%u", id->attach_type);
			snprintf(b, sizeof(b), known ? "%u" : "(not reported)", got);
			row(t, i, obj, "attach_type", a, b, known ? id->attach_type == got : -1);
		}
		if ((id->have & BPFRR_ID_TARGET_BTF_ID) && t->expect) {
			/*
			 * A tracing link's target is its program's attach BTF id, the
			 * kernel's: compare with that as replayed.  Any other target
			 * (LINK_CREATE's target_btf_id, which 6.12 takes only in a target
			 * program's BTF) is no kernel number: the recorded one holds.
			 */
			const struct bpfrr_ir_slot *ps = (id->have & BPFRR_ID_LINK_PROG) &&
							 id->link_prog_slot < r->ir->nr_slots ?
							 &r->ir->slots[id->link_prog_slot] : NULL;
			bool known = info.type == BPF_LINK_TYPE_TRACING;
			bool of_prog = ps && (ps->ident.have & BPFRR_ID_TARGET_BTF_ID) &&
				       ps->ident.target_btf_id == id->target_btf_id;
			uint32_t want = of_prog ? replayed_attach_btf_id(r->ir, id->link_prog_slot) : id->target_btf_id;
			char x[32];

			snprintf(a, sizeof(a), "%u", id->target_btf_id);
			snprintf(b, sizeof(b), known ? "%u" : "(not reported)", info.tracing.target_btf_id);
			snprintf(x, sizeof(x), "%u", want);
			row_x(t, i, obj, "target_btf_id", a, b, x, known ? want == info.tracing.target_btf_id : -1);
		} else if (id->have & BPFRR_ID_TARGET_BTF_ID) {
			bool known = info.type == BPF_LINK_TYPE_TRACING;

			snprintf(a, sizeof(a), "%u", id->target_btf_id);
			snprintf(b, sizeof(b), known ? "%u" : "(not reported)", info.tracing.target_btf_id);
			row(t, i, obj, "target_btf_id", a, b,
			    known ? id->target_btf_id == info.tracing.target_btf_id : -1);
		}
		break;
	}
	default:
		row(t, i, obj, "identity", "-", "(kind not checkable)", -1);
	}
	return 0;
}

/* --- netlink attachments: the device holds the replayed program --------------------------- */

typedef void nl_answer_fn(void *arg, const struct bpfrr_nl_msg *m);

struct nl_answer {
	nl_answer_fn *fn;
	void *arg;
};

/* one message of the answer, decoded for the asker */
static void nl_decode_answer(void *arg, const uint8_t *msg, uint32_t len)
{
	struct nl_answer *a = arg;
	struct bpfrr_nl_msg m;

	if (bpfrr_nl_decode(msg, len, &m, 1) == 1)
		a->fn(a->arg, &m);
}

/*
 * Ask the kernel: req (len bytes, a GET request, a dump if dump) through the
 * runtime's rtnetlink exchange; fn sees each message of the answer.  0, or
 * -errno (the kernel's error for the request).
 */
static int nl_ask(uint8_t *req, uint32_t len, bool dump, nl_answer_fn *fn, void *arg)
{
	struct nl_answer a = { fn, arg };

	return bpfrr_rt_netlink_talk(req, len, NLM_F_REQUEST | (dump ? NLM_F_DUMP : NLM_F_ACK), nl_decode_answer, &a);
}

struct nl_found {
	const struct bpfrr_nl_msg *want;	/* the replayed request */
	uint32_t id;				/* the program the device holds there, 0: none */
};

/* RTM_NEWLINK of the device: the id of its XDP program in the mode the request asked */
static void xdp_answer(void *arg, const struct bpfrr_nl_msg *m)
{
	struct nl_found *f = arg;
	uint32_t flags = f->want->xdp_flags;

	if (m->type != BPFRR_RTM_NEWLINK || m->ifindex != f->want->ifindex)
		return;
	if (flags & BPFRR_XDP_FLAGS_SKB_MODE)
		f->id = m->xdp_skb_prog_id;
	else if (flags & BPFRR_XDP_FLAGS_DRV_MODE)
		f->id = m->xdp_drv_prog_id;
	else	/* the kernel chose: the driver's hook if it has one */
		f->id = m->xdp_drv_prog_id ? m->xdp_drv_prog_id : m->xdp_skb_prog_id;
}

/* RTM_NEWTFILTER of the hook's dump: the bpf filter of the priority, protocol and handle made */
static void tc_answer(void *arg, const struct bpfrr_nl_msg *m)
{
	struct nl_found *f = arg;

	if (m->type == BPFRR_RTM_NEWTFILTER && m->has_bpf && m->tc_info == f->want->tc_info &&
	    m->tc_handle == f->want->tc_handle && m->bpf_prog_id)
		f->id = m->bpf_prog_id;
}

/*
 * Each netlink attachment the replay made: the device, hook, mode and
 * priority it named hold the replayed program now (its id), as `ip -d link
 * show` and `tc filter show` would say.  One row per attachment, under the
 * program's slot.
 */
static void verify_attachments(const struct bpfrr_replay *r, struct table *t)
{
	uint32_t i;

	for (i = 0; i < r->ir->nr_calls; i++) {
		const struct bpfrr_ir_call *c = &r->ir->calls[i];
		struct bpfrr_nl_msg m;
		struct nl_found f = { .want = &m };
		uint8_t req[BPFRR_NLMSG_HDRLEN + BPFRR_TCMSG_LEN];
		char where[96], want[32], got[48], parent[32];
		const char *obj, *dev = "?";
		uint32_t slot, want_id, len, k;
		int ret;

		if (c->op != BPFRR_IR_NETLINK || !c->nr_fdrels ||
		    bpfrr_nl_decode(c->attr, c->attr_size, &m, 1) != 1 || m.effect != BPFRR_NL_ATTACH)
			continue;
		slot = c->fdrels[0].slot;
		for (k = 0; k < c->nr_resolves; k++)
			if (c->resolves[k].kind == BPFRR_IR_RESOLVE_IFINDEX)
				dev = c->resolves[k].name;
		obj = r->ir->slots[slot].name ? r->ir->slots[slot].name : "prog";
		want_id = prog_id_of(r, slot);
		memset(req, 0, sizeof(req));
		memcpy(req + 4, m.has_xdp ? &(uint16_t){ BPFRR_RTM_GETLINK } : &(uint16_t){ BPFRR_RTM_GETTFILTER }, 2);
		memcpy(req + BPFRR_NLMSG_HDRLEN + 4, &m.ifindex, 4);
		if (m.has_xdp) {
			len = BPFRR_NLMSG_HDRLEN + BPFRR_IFINFOMSG_LEN;
			snprintf(where, sizeof(where), "dev %s xdp%s%s", dev, *bpfrr_nl_xdp_mode(m.xdp_flags) ? " " : "",
				 bpfrr_nl_xdp_mode(m.xdp_flags));
		} else {
			len = BPFRR_NLMSG_HDRLEN + BPFRR_TCMSG_LEN;
			memcpy(req + BPFRR_NLMSG_HDRLEN + 12, &m.tc_parent, 4);
			bpfrr_nl_tc_parent_string(m.tc_parent, parent, sizeof(parent));
			snprintf(where, sizeof(where), "dev %s tc %s pref %u", dev, parent, bpfrr_nl_tc_prio(m.tc_info));
		}
		memcpy(req, &len, 4);
		ret = nl_ask(req, len, !m.has_xdp, m.has_xdp ? xdp_answer : tc_answer, &f);
		snprintf(want, sizeof(want), "id %u", want_id);
		if (ret)
			snprintf(got, sizeof(got), "(%s)", strerror(-ret));
		else if (f.id)
			snprintf(got, sizeof(got), "id %u", f.id);
		else
			snprintf(got, sizeof(got), "none");
		row_at(t, slot, obj, "attached", want, got, NULL, where, ret || !want_id ? -1 : f.id == want_id);
	}
}

int bpfrr_replay_verify_rows(const struct bpfrr_replay *r, unsigned int flags, bpfrr_verify_row_fn *fn,
			     void *ctx, struct bpfrr_verify_totals *tot)
{
	struct table t = { .r = r, .fn = fn, .ctx = ctx };
	uint32_t i;
	int ret;

	which_build(&t);
	t.tot.expect_forced = (flags & BPFRR_VERIFY_EXPECT) && t.tot.build != BPFRR_VERIFY_OTHER_BUILD;
	t.expect = t.tot.build == BPFRR_VERIFY_OTHER_BUILD || t.tot.expect_forced;
	for (i = 0; i < r->ir->nr_slots; i++) {
		if (!r->ir->slots[i].ident.have)
			continue;
		ret = verify_slot(r, i, &t);
		if (ret) {
			const struct bpfrr_ir_slot *s = &r->ir->slots[i];
			struct bpfrr_verify_row row = {
				.slot = i, .kind = bpfrr_abi_obj_kind_name(s->kind),
				.object = s->name ? s->name : bpfrr_abi_obj_kind_name(s->kind), .query_err = ret,
			};

			fn(ctx, &row);
			t.tot.mismatches++;
		}
	}
	verify_attachments(r, &t);
	*tot = t.tot;
	return t.tot.mismatches;
}

/* --- the table as text ------------------------------------------------------------------- */

void bpfrr_verify_print_head(FILE *out)
{
	fprintf(out, "verify:\n  %4s  %-24s %-14s %-20s %-20s %s\n", "slot", "object", "field", "recorded",
		"replayed", "");
}

void bpfrr_verify_print_row(FILE *out, const struct bpfrr_verify_row *row)
{
	const char *verdict = row->verdict > 0 ? "ok" : row->verdict == 0 ? "MISMATCH" : "unchecked";

	if (row->query_err)
		fprintf(out, "  %4u  querying the object: %s\n", row->slot, strerror(-row->query_err));
	else if (row->expected)
		fprintf(out, "  %4u  %-24.24s %-14s %-20s %-20s %s (expected for this kernel: %s)\n", row->slot,
			row->object, row->field, row->recorded, row->replayed, verdict, row->expected);
	else if (row->at)
		fprintf(out, "  %4u  %-24.24s %-14s %-20s %-20s %s (at %s)\n", row->slot, row->object, row->field,
			row->recorded, row->replayed, verdict, row->at);
	else
		fprintf(out, "  %4u  %-24.24s %-14s %-20s %-20s %s\n", row->slot, row->object, row->field,
			row->recorded, row->replayed, verdict);
}

void bpfrr_verify_print_totals(FILE *out, const struct bpfrr_verify_totals *tot)
{
	if (tot->build == BPFRR_VERIFY_OTHER_BUILD)
		fprintf(out, "verify: another kernel build (%s): tags and attach BTF ids checked against "
			"those expected for this kernel\n", tot->build_note);
	else if (tot->expect_forced)
		fprintf(out, "verify: the recording's build, expected tags computed too: each must equal "
			"the recorded and the replayed tag\n");
	fprintf(out, "verify: %u checks, %u mismatches, %u unchecked\n", tot->checks, tot->mismatches,
		tot->unchecked);
}

static void print_row(void *ctx, const struct bpfrr_verify_row *row)
{
	bpfrr_verify_print_row(ctx, row);
}

int bpfrr_replay_verify(const struct bpfrr_replay *r, FILE *out)
{
	struct bpfrr_verify_totals tot;
	int bad;

	bpfrr_verify_print_head(out);
	bad = bpfrr_replay_verify_rows(r, 0, print_row, out, &tot);
	bpfrr_verify_print_totals(out, &tot);
	return bad;
}

/* --- pinning ------------------------------------------------------------------ */

int bpfrr_replay_pin(const struct bpfrr_replay *r, const char *dir, char *err, size_t err_size)
{
	char **pinned;
	uint32_t i, n = 0;
	int ret = 0;

	pinned = calloc(r->ir->nr_slots + 1, sizeof(*pinned));
	if (!pinned)
		return -ENOMEM;
	for (i = 0; i < r->ir->nr_slots; i++) {
		const struct bpfrr_ir_slot *s = &r->ir->slots[i];
		union bpf_attr attr;
		char name[128], *path;

		if (!(s->flags & BPFRR_IR_SLOT_KEEP) || r->fds[i] < 0 ||
		    (s->kind != BPFRR_OBJ_MAP && s->kind != BPFRR_OBJ_PROG && s->kind != BPFRR_OBJ_LINK))
			continue;
		bpfrr_slot_pin_name(s, i, name, sizeof(name));
		if (asprintf(&path, "%s/%s", dir, name) < 0) {
			ret = -ENOMEM;
			break;
		}
		memset(&attr, 0, sizeof(attr));
		attr.pathname = (uintptr_t)path;
		attr.bpf_fd = r->fds[i];
		ret = bpfrr_sys_bpf(BPF_OBJ_PIN, &attr, sizeof(attr));
		if (ret) {
			snprintf(err, err_size, "pinning slot %u as %s: %s", i, path, strerror(-ret));
			free(path);
			break;
		}
		pinned[n++] = path;
	}
	for (i = 0; i < n; i++) {
		if (ret)
			unlink(pinned[i]);
		free(pinned[i]);
	}
	free(pinned);
	return ret;
}

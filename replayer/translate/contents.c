// SPDX-License-Identifier: GPL-2.0-only
/*
 * contents.c - what the loader left in its maps (ir.h, struct
 * bpfrr_ir_contents): the reference `bpfrr replay --verify` compares the
 * replayed maps' contents with.
 *
 * The model follows the IR's calls in recorded order: the front end keeps
 * every successful call that changes a kept map before the replay point
 * (pass_select.c), so the calls are the loader's writes.  An update sets a
 * key, a delete removes it, a freeze marks the map; an fd inside a prog
 * array's or a map of maps' value (an fd relocation of the value) becomes
 * the slot it names.  What the model cannot follow (a queue's or a stack's
 * push, a LOOKUP_AND_DELETE) marks the map PARTIAL.  Writes the trace does
 * not show (through an mmap of the map) are in neither the recording's
 * calls nor the replay.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>

#include "bpf_abi.h"
#include "grow.h"
#include "ir.h"
#include "u64map.h"

void bpfrr_ir_contents_free(struct bpfrr_ir_contents *c)
{
	uint32_t i;

	if (!c)
		return;
	for (i = 0; i < c->nr_entries; i++) {
		free(c->entries[i].key);
		free(c->entries[i].value);
	}
	free(c->entries);
	free(c);
}

static void *copy_bytes(const void *p, uint32_t len)
{
	void *q;

	if (!p || !len)
		return NULL;
	q = malloc(len);
	if (q)
		memcpy(q, p, len);
	return q;
}

struct bpfrr_ir_contents *bpfrr_ir_contents_clone(const struct bpfrr_ir_contents *c, bool *ok)
{
	struct bpfrr_ir_contents *n;
	uint32_t i;

	*ok = true;
	if (!c)
		return NULL;
	n = calloc(1, sizeof(*n));
	if (!n || bpfrr_grow((void **)&n->entries, &n->cap_entries, c->nr_entries, sizeof(*n->entries)))
		goto fail;
	n->flags = c->flags;
	for (i = 0; i < c->nr_entries; i++) {
		const struct bpfrr_ir_entry *e = &c->entries[i];
		struct bpfrr_ir_entry *d = &n->entries[n->nr_entries++];

		*d = *e;
		d->key = copy_bytes(e->key, e->key_len);
		d->value = e->value_slot < 0 ? copy_bytes(e->value, e->value_len) : NULL;
		if ((e->key_len && !d->key) || (e->value_slot < 0 && e->value_len && !d->value))
			goto fail;
	}
	return n;
fail:
	bpfrr_ir_contents_free(n);
	*ok = false;
	return NULL;
}

/* The model of one map while the calls are followed: its contents and their index by key. */
struct model {
	struct bpfrr_ir_contents *c;
	struct bpfrr_u64map by_key;	/* keyed hash of the key bytes -> entry index */
	bool collided;			/* two keys shared a hash (2^-64 under the secret key): the
					 * index is no longer trusted, every lookup scans */
};

static bool same_key(const struct bpfrr_ir_entry *e, const void *key, uint32_t key_len)
{
	return e->key_len == key_len && (!key_len || !memcmp(e->key, key, key_len));
}

/* The entry of key, or -1. */
static int64_t find(struct model *m, const void *key, uint32_t key_len, uint64_t h)
{
	uint64_t at;
	uint32_t i;

	if (!m->collided) {
		if (!bpfrr_u64map_get(&m->by_key, h, &at))
			return -1;
		if (same_key(&m->c->entries[at], key, key_len))
			return (int64_t)at;
		m->collided = true;
	}
	for (i = 0; i < m->c->nr_entries; i++)
		if (same_key(&m->c->entries[i], key, key_len))
			return i;
	return -1;
}

static int model_set(struct model *m, const void *key, uint32_t key_len, const void *value, uint32_t value_len,
		     int32_t value_slot)
{
	uint64_t h = bpfrr_keyed_hash(key, key_len);
	int64_t at = find(m, key, key_len, h);
	struct bpfrr_ir_entry *e;
	uint8_t *v = NULL;

	if (value_slot < 0 && value_len && !(v = copy_bytes(value, value_len)))
		return -ENOMEM;
	if (at >= 0) {
		e = &m->c->entries[at];
		free(e->value);
	} else {
		if (m->c->nr_entries >= BPFRR_IR_MAX_ENTRIES) {
			free(v);
			return -E2BIG;
		}
		if (bpfrr_grow((void **)&m->c->entries, &m->c->cap_entries, m->c->nr_entries + 1,
			       sizeof(*m->c->entries))) {
			free(v);
			return -ENOMEM;
		}
		e = &m->c->entries[m->c->nr_entries];
		e->key = copy_bytes(key, key_len);
		if ((key_len && !e->key) ||
		    (!m->collided && bpfrr_u64map_put(&m->by_key, h, m->c->nr_entries))) {
			free(e->key);
			e->key = NULL;
			free(v);
			return -ENOMEM;
		}
		e->key_len = key_len;
		m->c->nr_entries++;
	}
	e->value = v;
	e->value_len = value_len;
	e->value_slot = value_slot;
	return 0;
}

/* Removes key's entry; the last entry takes its place. */
static int model_delete(struct model *m, const void *key, uint32_t key_len)
{
	uint64_t h = bpfrr_keyed_hash(key, key_len);
	int64_t at = find(m, key, key_len, h);
	struct bpfrr_ir_entry *e, *last;

	if (at < 0)
		return 0;
	e = &m->c->entries[at];
	last = &m->c->entries[m->c->nr_entries - 1];
	if (!m->collided) {
		bpfrr_u64map_del(&m->by_key, h);
		/* the index follows the last entry to its new place (on failure the model is dropped) */
		if (e != last && bpfrr_u64map_put(&m->by_key, bpfrr_keyed_hash(last->key, last->key_len),
						  (uint64_t)at))
			return -ENOMEM;
	}
	free(e->key);
	free(e->value);
	if (e != last)
		*e = *last;
	memset(last, 0, sizeof(*last));
	m->c->nr_entries--;
	return 0;
}

static int buf_of(const struct bpfrr_ir_call *c, const char *path)
{
	uint32_t i;

	for (i = 0; i < c->nr_bufs; i++)
		if (c->bufs[i].path && !strcmp(c->bufs[i].path, path) && c->bufs[i].data)
			return (int)i;
	return -1;
}

/* The slot of the map fd in the attr field name, or -1. */
static int64_t map_slot(const struct bpfrr_ir *ir, const struct bpfrr_ir_call *c, const char *name)
{
	const struct bpfrr_field *f = bpfrr_abi_cmd_field((int)c->cmd, name);
	uint32_t i;

	if (!f)
		return -1;
	for (i = 0; i < c->nr_fdrels; i++)
		if (c->fdrels[i].buf == BPFRR_IR_IN_ATTR && c->fdrels[i].offset == f->offset &&
		    c->fdrels[i].slot < ir->nr_slots && ir->slots[c->fdrels[i].slot].kind == BPFRR_OBJ_MAP)
			return c->fdrels[i].slot;
	return -1;
}

static uint64_t attr_field(const struct bpfrr_ir_call *c, const char *name)
{
	const struct bpfrr_field *f = bpfrr_abi_cmd_field((int)c->cmd, name);

	return f && f->offset + f->size <= c->attr_size ? bpfrr_abi_field_get(f, c->attr, c->attr_size) : 0;
}

/* The slot an fd at (buf, offset) of c is relocated to, or -1. */
static int32_t fd_slot_at(const struct bpfrr_ir_call *c, int buf, uint32_t offset)
{
	uint32_t i;

	for (i = 0; i < c->nr_fdrels; i++)
		if (c->fdrels[i].buf == buf && c->fdrels[i].offset == offset &&
		    c->fdrels[i].ref == BPFRR_IR_REF_MAP_VALUE)
			return (int32_t)c->fdrels[i].slot;
	return -1;
}

/* The map type a slot was made with (its identity's, else its MAP_CREATE's), or 0. */
static uint32_t map_type_of(const struct bpfrr_ir *ir, uint32_t slot)
{
	const struct bpfrr_ir_slot *s = &ir->slots[slot];
	const struct bpfrr_ir_call *p;

	if (s->ident.have & BPFRR_ID_TYPE)
		return s->ident.type;
	if (s->producer < 0 || (uint32_t)s->producer >= ir->nr_calls)
		return 0;
	p = &ir->calls[s->producer];
	return p->op == BPFRR_IR_BPF && p->cmd == BPFRR_CMD_MAP_CREATE ? (uint32_t)attr_field(p, "map_type") : 0;
}

/* One call's effect on the map it writes. */
static int follow(struct bpfrr_ir *ir, struct model *models, uint32_t ci)
{
	const struct bpfrr_ir_call *c = &ir->calls[ci];
	const char *fd_field = c->cmd == BPFRR_CMD_MAP_UPDATE_BATCH || c->cmd == BPFRR_CMD_MAP_DELETE_BATCH ||
			       c->cmd == BPFRR_CMD_MAP_LOOKUP_AND_DELETE_BATCH ? "batch.map_fd" : "map_fd";
	int64_t slot = map_slot(ir, c, fd_field);
	struct model *m;
	uint32_t type, n, i, ks, vs;
	int kb, vb, ret;

	if (slot < 0)
		return 0;
	m = &models[slot];
	if (!m->c && !(m->c = calloc(1, sizeof(*m->c))))
		return -ENOMEM;
	type = map_type_of(ir, (uint32_t)slot);
	if (type == BPF_MAP_TYPE_QUEUE || type == BPF_MAP_TYPE_STACK || type == BPF_MAP_TYPE_BLOOM_FILTER) {
		m->c->flags |= BPFRR_IR_CONTENTS_PARTIAL;	/* keyless: no key to compare by */
		return 0;
	}
	switch (c->cmd) {
	case BPFRR_CMD_MAP_FREEZE:
		m->c->flags |= BPFRR_IR_CONTENTS_FROZEN;
		return 0;
	case BPFRR_CMD_MAP_UPDATE_ELEM:
		kb = buf_of(c, "attr.key");
		vb = buf_of(c, "attr.value");
		if (kb < 0 || vb < 0) {
			m->c->flags |= BPFRR_IR_CONTENTS_PARTIAL;
			return 0;
		}
		return model_set(m, c->bufs[kb].data, c->bufs[kb].len, c->bufs[vb].data, c->bufs[vb].len,
				 fd_slot_at(c, vb, 0));
	case BPFRR_CMD_MAP_DELETE_ELEM:
		kb = buf_of(c, "attr.key");
		if (kb < 0) {
			m->c->flags |= BPFRR_IR_CONTENTS_PARTIAL;
			return 0;
		}
		return model_delete(m, c->bufs[kb].data, c->bufs[kb].len);
	case BPFRR_CMD_MAP_UPDATE_BATCH:
	case BPFRR_CMD_MAP_DELETE_BATCH:
		n = (uint32_t)attr_field(c, "batch.count");
		kb = buf_of(c, "attr.batch.keys");
		vb = c->cmd == BPFRR_CMD_MAP_UPDATE_BATCH ? buf_of(c, "attr.batch.values") : -1;
		ks = n && kb >= 0 ? c->bufs[kb].len / n : 0;
		vs = n && vb >= 0 ? c->bufs[vb].len / n : 0;
		if (n && (kb < 0 || (uint64_t)ks * n != c->bufs[kb].len ||
			  (c->cmd == BPFRR_CMD_MAP_UPDATE_BATCH && (vb < 0 || (uint64_t)vs * n != c->bufs[vb].len)))) {
			m->c->flags |= BPFRR_IR_CONTENTS_PARTIAL;
			return 0;
		}
		for (i = 0; i < n; i++) {
			if (c->cmd == BPFRR_CMD_MAP_DELETE_BATCH)
				ret = model_delete(m, c->bufs[kb].data + (size_t)i * ks, ks);
			else
				ret = model_set(m, c->bufs[kb].data + (size_t)i * ks, ks,
						c->bufs[vb].data + (size_t)i * vs, vs, fd_slot_at(c, vb, i * vs));
			if (ret)
				return ret;
		}
		return 0;
	case BPFRR_CMD_MAP_LOOKUP_AND_DELETE_ELEM:
	case BPFRR_CMD_MAP_LOOKUP_AND_DELETE_BATCH:
		m->c->flags |= BPFRR_IR_CONTENTS_PARTIAL;	/* which keys went is the kernel's answer */
		return 0;
	}
	return 0;
}

int bpfrr_ir_model_contents(struct bpfrr_ir *ir)
{
	struct model *models;
	uint32_t i;
	int ret = 0;

	if (!ir->nr_slots)
		return 0;
	models = calloc(ir->nr_slots, sizeof(*models));
	if (!models)
		return -ENOMEM;
	for (i = 0; i < ir->nr_calls && !ret; i++) {
		const struct bpfrr_ir_call *c = &ir->calls[i];

		if (c->op != BPFRR_IR_BPF || c->recorded_ret < 0)
			continue;
		switch (c->cmd) {
		case BPFRR_CMD_MAP_UPDATE_ELEM:
		case BPFRR_CMD_MAP_UPDATE_BATCH:
		case BPFRR_CMD_MAP_DELETE_ELEM:
		case BPFRR_CMD_MAP_DELETE_BATCH:
		case BPFRR_CMD_MAP_FREEZE:
		case BPFRR_CMD_MAP_LOOKUP_AND_DELETE_ELEM:
		case BPFRR_CMD_MAP_LOOKUP_AND_DELETE_BATCH:
			ret = follow(ir, models, i);
			break;
		}
	}
	for (i = 0; i < ir->nr_slots; i++) {
		bpfrr_u64map_free(&models[i].by_key);
		if (ret) {
			bpfrr_ir_contents_free(models[i].c);
			continue;
		}
		bpfrr_ir_contents_free(ir->slots[i].contents);
		ir->slots[i].contents = models[i].c;
	}
	free(models);
	return ret;
}

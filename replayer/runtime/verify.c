// SPDX-License-Identifier: GPL-2.0-only
/*
 * verify.c - after a replay: compare the kernel's objects with the
 * identities the recording saw (bpfrr replay --verify), and pin them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/bpf.h>

#include "bpf_abi.h"
#include "exec.h"
#include "replay.h"

static int get_info(int fd, void *info, uint32_t len)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info_len = len;
	attr.info.info = (uintptr_t)info;
	return bpfrr_sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr));
}

struct table {
	const struct bpfrr_replay *r;
	bpfrr_verify_row_fn *fn;
	void *ctx;
	struct bpfrr_verify_totals tot;
};

static void row(struct table *t, uint32_t slot, const char *obj, const char *field, const char *want,
		const char *got, int verdict /* 1 ok, 0 mismatch, -1 not checkable */)
{
	struct bpfrr_verify_row row = {
		.slot = slot, .kind = bpfrr_abi_obj_kind_name(t->r->ir->slots[slot].kind), .object = obj,
		.field = field, .recorded = want, .replayed = got, .verdict = verdict,
	};

	t->tot.checks++;
	if (verdict == 0)
		t->tot.mismatches++;
	if (verdict < 0)
		t->tot.unchecked++;
	t->fn(t->ctx, &row);
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
	return get_info(r->fds[slot], &info, sizeof(info)) ? 0 : info.id;
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
		ret = get_info(fd, &info, sizeof(info));
		if (ret)
			return ret;
		if (id->have & BPFRR_ID_TYPE)
			row_type(t, i, obj, s->kind, id->type, info.type);
		if (id->have & BPFRR_ID_TAG) {
			tag_hex(id->tag, a);
			tag_hex(info.tag, b);
			row(t, i, obj, "tag", a, b, !memcmp(id->tag, info.tag, 8));
		}
		if (id->have & BPFRR_ID_NAME)
			row(t, i, obj, "name", id->name, info.name, !strncmp(id->name, info.name, 16));
		if (id->have & BPFRR_ID_TARGET_BTF_ID)
			row_u(t, i, obj, "attach_btf_id", id->target_btf_id, info.attach_btf_id);
		break;
	}
	case BPFRR_OBJ_MAP: {
		struct bpf_map_info info;

		memset(&info, 0, sizeof(info));
		ret = get_info(fd, &info, sizeof(info));
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
		break;
	}
	case BPFRR_OBJ_BTF: {
		struct bpf_btf_info info;

		memset(&info, 0, sizeof(info));
		ret = get_info(fd, &info, sizeof(info));
		if (ret)
			return ret;
		if (id->have & BPFRR_ID_BTF_SIZE)
			row_u(t, i, obj, "btf_size", id->btf_size, info.btf_size);
		break;
	}
	case BPFRR_OBJ_LINK: {
		struct bpf_link_info info;

		memset(&info, 0, sizeof(info));
		ret = get_info(fd, &info, sizeof(info));
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
		if (id->have & BPFRR_ID_TARGET_BTF_ID) {
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

int bpfrr_replay_verify_rows(const struct bpfrr_replay *r, bpfrr_verify_row_fn *fn, void *ctx,
			     struct bpfrr_verify_totals *tot)
{
	struct table t = { .r = r, .fn = fn, .ctx = ctx };
	uint32_t i;
	int ret;

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
	if (row->query_err)
		fprintf(out, "  %4u  querying the object: %s\n", row->slot, strerror(-row->query_err));
	else
		fprintf(out, "  %4u  %-24.24s %-14s %-20s %-20s %s\n", row->slot, row->object, row->field,
			row->recorded, row->replayed,
			row->verdict > 0 ? "ok" : row->verdict == 0 ? "MISMATCH" : "unchecked");
}

void bpfrr_verify_print_totals(FILE *out, const struct bpfrr_verify_totals *tot)
{
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
	bad = bpfrr_replay_verify_rows(r, print_row, out, &tot);
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

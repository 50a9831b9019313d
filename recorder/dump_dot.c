// SPDX-License-Identifier: GPL-2.0-only
/*
 * dump_dot.c - bpfrr dump --format dot: a picture of the load, as a
 * Graphviz digraph (docs/dump-json.md, "The graph").
 *
 * The walk (dump.c) hands this printer every call it hands the text and
 * JSON printers, with the fds resolved by its fd model; the printer keeps
 * what the calls made and how they refer to each other, and draws the
 * whole at the end (the summary hook: only then is everything known; a
 * truncated trace still gets its graph, a corrupt one none).
 *
 * Nodes: the objects the load made (programs, maps, BTF, links, perf
 * events), those it used without making them (adopted fds, objects got by
 * id or from a pin: dashed), the other fds it attached to (cgroups, netns),
 * and each attach point as a node of its own: tracepoint, raw tracepoint,
 * kprobe or uprobe, fentry/fexit (or other BTF) target, netdev and hook,
 * kprobe_multi/uprobe_multi, netfilter hook; bpffs pin paths.
 * Edges: program uses map (ld_imm64 and fd_array references), bound map,
 * program/map uses BTF, inner map template, link attaches program, link
 * and perf event on their target, program array slot holds program (tail
 * call) and map holds fd (map-in-map, perf event array, ...), pin names
 * object.  Failed calls are listed in a note.  Objects the load made and
 * closed again without relating them to anything (libbpf's feature
 * probes) are folded into one note unless -v.
 *
 * Nodes come out in the order the trace first mentions them, edges in the
 * order of the calls that made them: the same trace always gives the same
 * text.  Everything from the trace is escaped, and what is not printable
 * ASCII becomes '?'.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "bpf_abi.h"
#include "dump_print.h"
#include "netlink.h"
#include "sys_abi.h"
#include "trace.h"
#include "u64map.h"

#define DOT_MAX_KEYS		4	/* map keys shown on a "holds" edge */
#define DOT_MAX_FAILURES	24	/* failed calls listed in the note */
#define DOT_FOLD_PER_LINE	10	/* seqs per line of the folded objects' note */
#define DOT_MULTI_SHOWN		3	/* kprobe_multi functions named in the label */
#define DOT_LABEL_MAX		512

enum dot_what {
	DOT_OBJECT,	/* something an fd referred to */
	DOT_TARGET,	/* an attach point */
	DOT_PIN,	/* a bpffs path */
};

struct dot_node {
	uint8_t what;		/* enum dot_what */
	uint32_t kind;		/* objects: enum bpfrr_obj_kind */
	uint64_t seq;		/* objects: the call that made it; 0: made outside the trace */
	bool external;		/* an object this load did not make */
	bool has_map_type;
	uint32_t map_type;
	uint32_t btf_target;	/* programs: index + 1 of the node attach_btf_id names, 0: none */
	bool target_used;	/* programs: a link or attach call drew its edge to btf_target */
	uint64_t ran;		/* programs: the first BPF_PROG_TEST_RUN of it (a loader program), 0: none */
	char *key;		/* targets, pins: what makes two mentions the same node */
	char *label;		/* lines separated by '\n', not escaped */
};

enum dot_edge_kind {
	DOT_E_USES,		/* program -> map it references */
	DOT_E_BOUND,		/* program -> map of BPF_PROG_BIND_MAP */
	DOT_E_BTF,		/* program/map -> BTF object */
	DOT_E_INNER,		/* map-in-map -> its inner map template */
	DOT_E_ATTACHES,		/* link (or perf event) -> program (struct_ops: map) */
	DOT_E_ON,		/* link / perf event / program -> what it attaches to */
	DOT_E_ATTACH,		/* program -> target of BPF_PROG_ATTACH */
	DOT_E_REPLACES,		/* program or link -> program it replaces or traces (attach_prog_fd) */
	DOT_E_HOLDS,		/* map -> object whose fd was stored in it */
	DOT_E_TAIL_CALL,	/* program array -> program */
	DOT_E_PINNED,		/* pin -> object pinned there */
	DOT_E_OPENED,		/* pin -> object BPF_OBJ_GET opened */
};

struct dot_edge {
	uint32_t from, to;	/* node indexes */
	uint8_t kind;		/* enum dot_edge_kind */
	char what[48];		/* the attach type of ON and ATTACH edges, or "" */
	uint32_t nr_keys;	/* HOLDS, TAIL_CALL: how many stores */
	bool keys_unknown;	/* one of them had a key that is not a 4-byte index */
	uint32_t keys[DOT_MAX_KEYS];
};

struct dot {
	struct dot_node *nodes;
	size_t nr_nodes, cap_nodes;
	struct dot_edge *edges;
	size_t nr_edges, cap_edges;
	struct bpfrr_u64map objects;	/* object key -> node index + 1 */
	struct bpfrr_u64map edge_keys;	/* edge key -> edge index + 1 */
	struct bpfrr_u64map opens;	/* seq of a successful open -> its path (strings, index + 1) */
	struct bpfrr_u64map tp_ids;	/* tracefs event id -> "CATEGORY/NAME" (strings, index + 1) */
	struct bpfrr_u64map pmu_types;	/* PMU type -> its name (strings, index + 1) */
	char **strings;
	size_t nr_strings, cap_strings;
};

static struct dot *dot_of(struct dump_out *o)
{
	return o->state;
}

static void *grow(struct dump_out *o, void *p, size_t *cap, size_t nr, size_t size)
{
	size_t ncap;
	void *np;

	if (nr < *cap)
		return p;
	ncap = *cap ? *cap * 2 : 16;
	np = realloc(p, ncap * size);
	if (!np) {
		o->oom = true;
		return NULL;
	}
	*cap = ncap;
	return np;
}

static char *dup_str(struct dump_out *o, const char *s)
{
	char *d = strdup(s);

	if (!d)
		o->oom = true;
	return d;
}

/* Keep s; its index + 1, or 0 on ENOMEM. */
static uint64_t keep_string(struct dump_out *o, const char *s)
{
	struct dot *g = dot_of(o);
	char **p = grow(o, g->strings, &g->cap_strings, g->nr_strings, sizeof(*p));

	if (!p)
		return 0;
	g->strings = p;
	p[g->nr_strings] = dup_str(o, s);
	if (!p[g->nr_strings])
		return 0;
	return ++g->nr_strings;
}

static const char *string_of(struct dump_out *o, const struct bpfrr_u64map *m, uint64_t key)
{
	uint64_t idx;

	if (!bpfrr_u64map_get(m, key, &idx) || !idx)
		return NULL;
	return dot_of(o)->strings[idx - 1];
}

static void put_string(struct dump_out *o, struct bpfrr_u64map *m, uint64_t key, const char *s)
{
	uint64_t idx = keep_string(o, s);

	if (idx && bpfrr_u64map_put(m, key, idx))
		o->oom = true;
}

/* --- labels ----------------------------------------------------------------------------- */

struct label {
	char s[DOT_LABEL_MAX];
	size_t n;
};

static __attribute__((format(printf, 2, 3))) void label_add(struct label *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->n >= sizeof(l->s) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->s + l->n, sizeof(l->s) - l->n, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->n = l->n + (size_t)n < sizeof(l->s) ? l->n + (size_t)n : sizeof(l->s) - 1;
}

/* A dot string: quotes and backslashes escaped, lines as \n, the rest printable ASCII. */
static void dot_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '\n')
			fputs("\\n", f);
		else if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else
			fputc(ch < 0x20 || ch >= 0x7f ? '?' : ch, f);
	}
	fputc('"', f);
}

/* --- nodes ------------------------------------------------------------------------------ */

static uint32_t add_node(struct dump_out *o, uint8_t what, const char *key, const struct label *l)
{
	struct dot *g = dot_of(o);
	struct dot_node *p = grow(o, g->nodes, &g->cap_nodes, g->nr_nodes, sizeof(*p));

	if (!p)
		return UINT32_MAX;
	g->nodes = p;
	p += g->nr_nodes;
	memset(p, 0, sizeof(*p));
	p->what = what;
	p->label = dup_str(o, l->s);
	if (key)
		p->key = dup_str(o, key);
	if (!p->label || (key && !p->key)) {
		free(p->label);
		free(p->key);
		return UINT32_MAX;
	}
	return (uint32_t)g->nr_nodes++;
}

/* The node of an attach point or a pin named key (made on first mention, labelled key). */
static uint32_t named_node(struct dump_out *o, uint8_t what, const char *key)
{
	struct dot *g = dot_of(o);
	struct label l = { .n = 0 };
	size_t i;

	for (i = 0; i < g->nr_nodes; i++)
		if (g->nodes[i].what == what && !strcmp(g->nodes[i].key, key))
			return (uint32_t)i;
	label_add(&l, "%s", key);
	return add_node(o, what, key, &l);
}

/* Objects are known by the call that made them, those made elsewhere by the walk's object. */
static uint64_t object_key(uint64_t seq, const void *handle)
{
	return seq ? seq : (uint64_t)(uintptr_t)handle | 1ull << 63;
}

static struct dot_node *node_at(struct dump_out *o, uint32_t idx)
{
	return idx == UINT32_MAX ? NULL : &dot_of(o)->nodes[idx];
}

/* The node of an object the calls made (seq), labelled l. */
static uint32_t made_node(struct dump_out *o, uint64_t seq, uint32_t kind, const struct label *l)
{
	struct dot *g = dot_of(o);
	uint64_t idx;
	uint32_t n;

	if (bpfrr_u64map_get(&g->objects, seq, &idx))
		return (uint32_t)idx - 1;
	n = add_node(o, DOT_OBJECT, NULL, l);
	if (n == UINT32_MAX)
		return n;
	g->nodes[n].kind = kind;
	g->nodes[n].seq = seq;
	if (bpfrr_u64map_put(&g->objects, seq, (uint64_t)n + 1))
		o->oom = true;
	return n;
}

/* The path an open the trace recorded gave, or NULL. */
static const char *open_path(struct dump_out *o, uint64_t seq)
{
	return string_of(o, &dot_of(o)->opens, seq);
}

/* The node of the object fd names in the call being printed (made on first mention); UINT32_MAX: none. */
static uint32_t fd_node(struct dump_out *o, int fd)
{
	struct dot *g = dot_of(o);
	struct label l = { .n = 0 };
	struct dump_obj obj;
	const char *path;
	uint64_t key, idx;
	uint32_t n;

	if (!dump_fd_object(o, fd, &obj))
		return UINT32_MAX;
	key = object_key(obj.origin, obj.handle);
	if (bpfrr_u64map_get(&g->objects, key, &idx)) {
		n = (uint32_t)idx - 1;
		if (g->nodes[n].kind == BPFRR_OBJ_NONE || g->nodes[n].kind == BPFRR_OBJ_ANY)
			g->nodes[n].kind = obj.kind;
		return n;
	}
	/* not made by a call this printer saw: from an open, by id, from a pin, or from elsewhere */
	path = obj.origin ? open_path(o, obj.origin) : NULL;
	label_add(&l, "%s", dump_kind_name(obj.kind));
	if (path)
		label_add(&l, " %s", path);
	else if (obj.name[0])
		label_add(&l, " %s", obj.name);
	if (obj.origin)
		label_add(&l, "\n#%" PRIu64 " %s", obj.origin, obj.made_by ? obj.made_by : "");
	else
		label_add(&l, "\nmade outside the trace%s",
			  obj.made_by && !strcmp(obj.made_by, "adopted") ? ", adopted fd" : "");
	if (obj.has_id)
		label_add(&l, ", id %u", obj.id);
	n = add_node(o, DOT_OBJECT, NULL, &l);
	if (n == UINT32_MAX)
		return n;
	g->nodes[n].kind = obj.kind;
	g->nodes[n].seq = obj.origin;
	/* objects the load only got hold of: adopted, by id, from a pin */
	g->nodes[n].external = !obj.origin || !obj.made_by || strstr(obj.made_by, "_GET") ||
			       !strcmp(obj.made_by, "adopted");
	if (bpfrr_u64map_put(&g->objects, key, (uint64_t)n + 1))
		o->oom = true;
	return n;
}

/* --- edges ------------------------------------------------------------------------------ */

static bool same_edge(const struct dot_edge *e, uint32_t from, uint32_t to, uint8_t kind, const char *what)
{
	return e->from == from && e->to == to && e->kind == kind && !strcmp(e->what, what ? what : "");
}

static struct dot_edge *add_edge(struct dump_out *o, uint32_t from, uint32_t to, uint8_t kind, const char *what)
{
	struct dot *g = dot_of(o);
	struct dot_edge *e;
	uint64_t key, idx;

	if (from == UINT32_MAX || to == UINT32_MAX)
		return NULL;
	/* one edge per pair, kind and attach type (what is an attach type name: its hash is enough) */
	key = (uint64_t)from << 40 ^ (uint64_t)to << 16 ^ (uint64_t)kind << 8;
	for (const char *p = what ? what : ""; *p; p++)
		key = key * 31 + (unsigned char)*p;
	if (bpfrr_u64map_get(&g->edge_keys, key, &idx)) {
		if (same_edge(&g->edges[idx - 1], from, to, kind, what))
			return &g->edges[idx - 1];
		/* two edges' keys collided: the one made before may be any */
		for (size_t i = 0; i < g->nr_edges; i++)
			if (same_edge(&g->edges[i], from, to, kind, what))
				return &g->edges[i];
	}
	e = grow(o, g->edges, &g->cap_edges, g->nr_edges, sizeof(*e));
	if (!e)
		return NULL;
	g->edges = e;
	e += g->nr_edges;
	memset(e, 0, sizeof(*e));
	e->from = from;
	e->to = to;
	e->kind = kind;
	snprintf(e->what, sizeof(e->what), "%s", what ? what : "");
	if (bpfrr_u64map_put(&g->edge_keys, key, g->nr_edges + 1))
		o->oom = true;
	g->nr_edges++;
	return e;
}

/* --- what a call's attr and regions say -------------------------------------------------- */

static uint64_t attr_get(const struct dump_call *c, const char *name)
{
	const struct bpfrr_field *f = bpfrr_abi_cmd_field((int)c->bpf->cmd, name);

	return f ? bpfrr_abi_field_get(f, c->bpf->attr, c->bpf->attr_len) : 0;
}

/* Does the field name apply to this call (its variant: the link's attach type, ...)? */
static bool attr_applies(const struct dump_call *c, const char *name)
{
	const struct bpfrr_cmd_desc *d = bpfrr_abi_cmd((int)c->bpf->cmd);
	uint32_t variant = bpfrr_abi_cmd_variant_env((int)c->bpf->cmd, c->bpf->attr, c->bpf->attr_len, &c->env);
	unsigned int i;

	for (i = 0; d && i < d->attr->nr_fields; i++) {
		const struct bpfrr_field *f = &d->attr->fields[i];

		if (!strcmp(f->name, name) && bpfrr_abi_field_applies(f, variant))
			return f->offset + f->size <= c->bpf->attr_len;
	}
	return false;
}

/* The entry region at path, with its blob; NULL if not captured. */
static const struct bpfrr_rec_blob *region_blob(struct dump_out *o, const struct dump_call *c, const char *path,
						uint8_t phase)
{
	uint32_t i;

	for (i = 0; i < c->nr_regions; i++)
		if (c->regions[i].phase == phase && c->regions[i].path && !strcmp(c->regions[i].path, path))
			return dump_region_blob(o, &c->regions[i]);
	return NULL;
}

/* A captured string at path into buf ("" if none); true if there was one. */
static bool region_text(struct dump_out *o, const struct dump_call *c, const char *path, uint8_t phase,
			char *buf, size_t size)
{
	const struct bpfrr_rec_blob *b = region_blob(o, c, path, phase);
	size_t n;

	buf[0] = '\0';
	if (!b || !b->len)
		return false;
	n = strnlen(b->data, b->len);
	if (n >= size)
		n = size - 1;
	memcpy(buf, b->data, n);
	buf[n] = '\0';
	return n > 0;
}

static void label_ident(struct label *l, uint64_t seq, const struct bpfrr_rec_object *id)
{
	label_add(l, "\n#%" PRIu64, seq);
	if (id && !(id->flags & BPFRR_OBJECT_F_QUERY_FAILED))
		label_add(l, ", id %u", id->id);
}

static bool ident_ok(const struct bpfrr_rec_object *id)
{
	return id && !(id->flags & BPFRR_OBJECT_F_QUERY_FAILED);
}

/* The object's name: the kernel's (the identity), else the creating attr's. */
static const char *made_name(const struct dump_call *c, const struct bpfrr_abi_made *m)
{
	return ident_ok(c->ident) && c->ident->name && c->ident->name[0] ? c->ident->name : m->name;
}

/* --- the calls ---------------------------------------------------------------------------- */

/* Every fd the call passes, resolved: fn(o, c, ref, node) */
struct fd_walk {
	struct dump_out *o;
	const struct dump_call *c;
	uint32_t self;		/* the node of the object the call made, or UINT32_MAX */
	uint32_t prog, map;	/* what the fds named: the program and the map the call acts on */
	int nr_on;		/* ON edges drawn */
	void (*fn)(struct fd_walk *w, const struct bpfrr_abi_fd_ref *ref, uint32_t node, uint32_t kind);
};

static int fd_walk_cb(void *arg, const struct bpfrr_abi_fd_ref *ref)
{
	struct fd_walk *w = arg;
	uint32_t n = fd_node(w->o, ref->fd);

	if (n != UINT32_MAX)
		w->fn(w, ref, n, dot_of(w->o)->nodes[n].kind);
	return w->o->oom;
}

static void walk_fds(struct fd_walk *w)
{
	const struct bpfrr_rec_bpf_call *call = w->c->bpf;

	bpfrr_abi_walk_fds((int)call->cmd, call->attr, call->attr_len, &w->c->env, fd_walk_cb, w);
}

static bool path_is(const struct bpfrr_abi_fd_ref *ref, const char *name)
{
	return ref->path && !strncmp(ref->path, "attr.", 5) && !strcmp(ref->path + 5, name);
}

static bool path_ends(const struct bpfrr_abi_fd_ref *ref, const char *tail)
{
	size_t n = ref->path ? strlen(ref->path) : 0, t = strlen(tail);

	return n >= t && !strcmp(ref->path + n - t, tail);
}

static void prog_ref(struct fd_walk *w, const struct bpfrr_abi_fd_ref *ref, uint32_t n, uint32_t kind)
{
	if (kind == BPFRR_OBJ_MAP)
		add_edge(w->o, w->self, n, DOT_E_USES, NULL);
	else if (kind == BPFRR_OBJ_BTF)
		add_edge(w->o, w->self, n, DOT_E_BTF, NULL);
	else if (kind == BPFRR_OBJ_PROG && path_is(ref, "attach_prog_fd")) {
		add_edge(w->o, w->self, n, DOT_E_REPLACES, NULL);
	}
}

static void add_prog(struct dump_out *o, const struct dump_call *c)
{
	const struct bpfrr_field *btf_id_field = bpfrr_abi_cmd_field(BPFRR_CMD_PROG_LOAD, "attach_btf_id");
	struct fd_walk w = { .o = o, .c = c, .fn = prog_ref };
	struct label l = { .n = 0 };
	struct bpfrr_abi_made m;
	uint32_t type, attach_type, btf_id;
	const char *name;

	bpfrr_abi_cmd_made((int)c->bpf->cmd, c->bpf->attr, c->bpf->attr_len, &m);
	name = made_name(c, &m);
	type = ident_ok(c->ident) ? c->ident->type : m.obj_type;
	label_add(&l, "prog%s%s\n%s", name[0] ? " " : "", name, bpfrr_abi_prog_type_name(type) ?: "?");
	if (ident_ok(c->ident)) {
		label_add(&l, ", tag ");
		for (int i = 0; i < 8; i++)
			label_add(&l, "%02x", c->ident->tag[i]);
	}
	label_ident(&l, c->bpf->seq, c->ident);
	w.self = made_node(o, c->bpf->seq, BPFRR_OBJ_PROG, &l);
	if (w.self == UINT32_MAX)
		return;
	walk_fds(&w);

	/* what attach_btf_id names: the fentry/fexit function, LSM hook, BTF tracepoint... */
	btf_id = (uint32_t)attr_get(c, "attach_btf_id");
	attach_type = (uint32_t)attr_get(c, "expected_attach_type");
	if (btf_id && btf_id_field && attr_applies(c, "attach_btf_obj_fd")) {
		const struct bpfrr_rec_symbol *s = dump_attr_symbol(o, c, btf_id_field);
		char sym[256];

		l.n = 0;
		l.s[0] = '\0';
		if (s) {
			dump_symbol_text(s, sym, sizeof(sym));
			label_add(&l, "%s %s", bpfrr_abi_attach_type_name(attach_type) ?: "?", sym);
		} else {
			label_add(&l, "%s btf id %u", bpfrr_abi_attach_type_name(attach_type) ?: "?", btf_id);
		}
		uint32_t target = named_node(o, DOT_TARGET, l.s);	/* may move the nodes */

		dot_of(o)->nodes[w.self].btf_target = target + 1;
	}
}

static void map_ref(struct fd_walk *w, const struct bpfrr_abi_fd_ref *ref, uint32_t n, uint32_t kind)
{
	if (kind == BPFRR_OBJ_BTF)
		add_edge(w->o, w->self, n, DOT_E_BTF, NULL);
	else if (kind == BPFRR_OBJ_MAP && path_is(ref, "inner_map_fd"))
		add_edge(w->o, w->self, n, DOT_E_INNER, NULL);
}

static void add_map(struct dump_out *o, const struct dump_call *c)
{
	struct fd_walk w = { .o = o, .c = c, .fn = map_ref };
	struct label l = { .n = 0 };
	struct bpfrr_abi_made m;
	uint32_t type, key_size, value_size, max_entries;
	const char *name;

	bpfrr_abi_cmd_made((int)c->bpf->cmd, c->bpf->attr, c->bpf->attr_len, &m);
	name = made_name(c, &m);
	if (ident_ok(c->ident)) {
		type = c->ident->type;
		key_size = c->ident->key_size;
		value_size = c->ident->value_size;
		max_entries = c->ident->max_entries;
	} else {
		type = m.obj_type;
		key_size = m.key_size;
		value_size = m.value_size;
		max_entries = (uint32_t)attr_get(c, "max_entries");
	}
	label_add(&l, "map%s%s\n%s: key %u, value %u, max %u", name[0] ? " " : "", name,
		  bpfrr_abi_map_type_name(type) ?: "?", key_size, value_size, max_entries);
	label_ident(&l, c->bpf->seq, c->ident);
	w.self = made_node(o, c->bpf->seq, BPFRR_OBJ_MAP, &l);
	if (w.self == UINT32_MAX)
		return;
	dot_of(o)->nodes[w.self].has_map_type = true;
	dot_of(o)->nodes[w.self].map_type = type;
	walk_fds(&w);
}

static void add_btf(struct dump_out *o, const struct dump_call *c)
{
	struct label l = { .n = 0 };

	label_add(&l, "btf\n%" PRIu64 " bytes", attr_get(c, "btf_size"));
	label_ident(&l, c->bpf->seq, c->ident);
	made_node(o, c->bpf->seq, BPFRR_OBJ_BTF, &l);
}

/* The link's own line: its type (the kernel's word, else the attach type's). */
static uint32_t link_node(struct dump_out *o, const struct dump_call *c, const char *fallback)
{
	struct label l = { .n = 0 };
	const char *type = ident_ok(c->ident) ? bpfrr_abi_link_type_name(c->ident->type) : NULL;

	label_add(&l, "link %s", type ? type : fallback);
	label_ident(&l, c->bpf->seq, c->ident);
	return made_node(o, c->bpf->seq, BPFRR_OBJ_LINK, &l);
}

static void link_ref(struct fd_walk *w, const struct bpfrr_abi_fd_ref *ref, uint32_t n, uint32_t kind)
{
	const char *attach = bpfrr_abi_attach_type_name((uint32_t)attr_get(w->c, "link_create.attach_type"));

	if (path_is(ref, "link_create.prog_fd") || path_is(ref, "raw_tracepoint.prog_fd")) {
		add_edge(w->o, w->self, n, DOT_E_ATTACHES, NULL);
		w->prog = n;
	} else if (path_is(ref, "link_create.map_fd")) {
		add_edge(w->o, w->self, n, DOT_E_ATTACHES, NULL);	/* a struct_ops map */
	} else if (path_is(ref, "link_create.target_fd")) {
		add_edge(w->o, w->self, n, kind == BPFRR_OBJ_PROG ? DOT_E_REPLACES : DOT_E_ON, attach);
		w->nr_on++;
	}
}

/* A target node made of a label, and the edge from `from` to it. */
static void on_target(struct fd_walk *w, uint32_t from, const struct label *l, const char *attach)
{
	add_edge(w->o, from, named_node(w->o, DOT_TARGET, l->s), DOT_E_ON, attach);
	w->nr_on++;
}

/* kprobe_multi: the functions by name (syms), else by address (addrs, named by the SYMBOL records). */
static void kprobe_multi_target(struct fd_walk *w, struct label *l)
{
	uint32_t cnt = (uint32_t)attr_get(w->c, "link_create.kprobe_multi.cnt"), shown = 0, i;
	const struct bpfrr_rec_blob *addrs = region_blob(w->o, w->c, "attr.link_create.kprobe_multi.addrs",
							 BPFRR_PHASE_ENTRY);
	char path[96], name[128];

	label_add(l, "kprobe_multi %u function%s", cnt, cnt == 1 ? "" : "s");
	for (i = 0; i < cnt && shown < DOT_MULTI_SHOWN; i++) {
		snprintf(path, sizeof(path), "attr.link_create.kprobe_multi.syms[%u]", i);
		if (!region_text(w->o, w->c, path, BPFRR_PHASE_ENTRY, name, sizeof(name)) && addrs &&
		    (uint64_t)(i + 1) * 8 <= addrs->len) {
			const struct bpfrr_rec_symbol *s;
			uint64_t addr;

			memcpy(&addr, (const uint8_t *)addrs->data + i * 8, 8);
			s = dump_symbol(w->o, BPFRR_SYM_KSYM_ADDR, addr, NULL);
			if (s)
				dump_symbol_text(s, name, sizeof(name));
			else
				snprintf(name, sizeof(name), "%#" PRIx64, addr);
		}
		if (!name[0])
			break;
		label_add(l, "%s%s", shown ? ", " : "\n", name);
		shown++;
	}
	if (shown && shown < cnt)
		label_add(l, ", +%u more", cnt - shown);
}

/* The attach points of a link that are not fds. */
static void link_targets(struct fd_walk *w, const char *attach)
{
	struct label l = { .n = 0 };
	char text[256];

	if (attr_applies(w->c, "link_create.target_ifindex")) {
		label_add(&l, "netdev ifindex %" PRIu64, attr_get(w->c, "link_create.target_ifindex"));
		on_target(w, w->self, &l, attach);
	} else if (attr_applies(w->c, "link_create.kprobe_multi.cnt")) {
		kprobe_multi_target(w, &l);
		on_target(w, w->self, &l, attach);
	} else if (attr_applies(w->c, "link_create.uprobe_multi.cnt")) {
		region_text(w->o, w->c, "attr.link_create.uprobe_multi.path", BPFRR_PHASE_ENTRY, text, sizeof(text));
		label_add(&l, "uprobe_multi %s\n%" PRIu64 " offsets", text[0] ? text : "?",
			  attr_get(w->c, "link_create.uprobe_multi.cnt"));
		on_target(w, w->self, &l, attach);
	} else if (attr_applies(w->c, "link_create.netfilter.pf")) {
		const struct bpfrr_field *pf = bpfrr_abi_cmd_field(BPFRR_CMD_LINK_CREATE, "link_create.netfilter.pf");
		const struct bpfrr_field *hook = bpfrr_abi_cmd_field(BPFRR_CMD_LINK_CREATE,
								      "link_create.netfilter.hooknum");
		char pfs[48], hooks[48];

		bpfrr_abi_xlat_format(pf->xlat, attr_get(w->c, "link_create.netfilter.pf"), pfs, sizeof(pfs));
		bpfrr_abi_xlat_format(hook->xlat, attr_get(w->c, "link_create.netfilter.hooknum"), hooks,
				      sizeof(hooks));
		label_add(&l, "netfilter %s %s\npriority %d", pfs, hooks,
			  (int32_t)attr_get(w->c, "link_create.netfilter.priority"));
		on_target(w, w->self, &l, attach);
	}
}

/* No attach point of its own: the link attaches where the program's attach_btf_id says. */
static void link_btf_target(struct fd_walk *w, const char *attach)
{
	struct dot_node *prog = node_at(w->o, w->prog);
	uint32_t target;

	if (w->nr_on || !prog || !prog->btf_target)
		return;
	target = prog->btf_target - 1;
	prog = NULL;	/* add_edge may move the nodes */
	add_edge(w->o, w->self, target, DOT_E_ON, attach);
	dot_of(w->o)->nodes[w->prog].target_used = true;
}

static void add_link(struct dump_out *o, const struct dump_call *c)
{
	uint32_t attach_type = (uint32_t)attr_get(c, "link_create.attach_type");
	const char *attach = bpfrr_abi_attach_type_name(attach_type) ?: "?";
	struct fd_walk w = { .o = o, .c = c, .fn = link_ref, .prog = UINT32_MAX };

	w.self = link_node(o, c, attach);
	if (w.self == UINT32_MAX)
		return;
	walk_fds(&w);
	link_targets(&w, attach);
	link_btf_target(&w, attach);
}

static void add_raw_tp(struct dump_out *o, const struct dump_call *c)
{
	struct fd_walk w = { .o = o, .c = c, .fn = link_ref, .prog = UINT32_MAX };
	struct label l = { .n = 0 };
	char name[160];

	w.self = link_node(o, c, "raw_tracepoint");
	if (w.self == UINT32_MAX)
		return;
	walk_fds(&w);
	if (region_text(o, c, "attr.raw_tracepoint.name", BPFRR_PHASE_ENTRY, name, sizeof(name))) {
		label_add(&l, "raw_tracepoint %s", name);
		on_target(&w, w.self, &l, NULL);
	}
	link_btf_target(&w, NULL);
}

static void attach_ref(struct fd_walk *w, const struct bpfrr_abi_fd_ref *ref, uint32_t n, uint32_t kind)
{
	(void)kind;
	if (path_is(ref, "attach_bpf_fd"))
		w->prog = n;
	else if (path_is(ref, "target_fd"))
		w->map = n;	/* the target: a cgroup, netns, sockmap, lirc device */
}

/* BPF_PROG_ATTACH: no link, the program -> its target. */
static void add_attach(struct dump_out *o, const struct dump_call *c)
{
	const char *attach = bpfrr_abi_attach_type_name((uint32_t)attr_get(c, "attach_type")) ?: "?";
	struct fd_walk w = { .o = o, .c = c, .fn = attach_ref, .prog = UINT32_MAX, .map = UINT32_MAX };
	struct label l = { .n = 0 };

	walk_fds(&w);
	if (w.prog == UINT32_MAX)
		return;
	if (w.map != UINT32_MAX) {
		add_edge(o, w.prog, w.map, DOT_E_ATTACH, attach);
	} else if (attr_applies(c, "target_ifindex")) {
		label_add(&l, "netdev ifindex %" PRIu64, attr_get(c, "target_ifindex"));
		add_edge(o, w.prog, named_node(o, DOT_TARGET, l.s), DOT_E_ATTACH, attach);
	}
}

/* BPF_MAP_TYPE_PROG_ARRAY, as the ABI table names it */
static uint32_t prog_array_type(void)
{
	const struct bpfrr_field *f = bpfrr_abi_cmd_field(BPFRR_CMD_MAP_CREATE, "map_type");
	uint64_t v = UINT32_MAX;

	if (!f || bpfrr_abi_xlat_value(f->xlat, "BPF_MAP_TYPE_PROG_ARRAY", &v))
		return UINT32_MAX;
	return (uint32_t)v;
}

static void update_ref(struct fd_walk *w, const struct bpfrr_abi_fd_ref *ref, uint32_t n, uint32_t kind)
{
	struct dot_node *map;
	struct dot_edge *e;
	uint8_t ekind;
	uint32_t key;

	if (ref->type == BPFRR_FDREF_FIELD && path_ends(ref, "map_fd")) {
		w->map = n;
		return;
	}
	if (ref->type != BPFRR_FDREF_MAP_VALUE || !(map = node_at(w->o, w->map)))
		return;
	ekind = map->has_map_type && map->map_type == prog_array_type() && kind == BPFRR_OBJ_PROG ?
		DOT_E_TAIL_CALL : DOT_E_HOLDS;
	e = add_edge(w->o, w->map, n, ekind, NULL);
	if (!e)
		return;
	/* the slot: a single update's 4-byte key */
	if (path_is(ref, "value") && w->c->bpf->cmd == BPFRR_CMD_MAP_UPDATE_ELEM &&
	    region_blob(w->o, w->c, "attr.key", BPFRR_PHASE_ENTRY) &&
	    region_blob(w->o, w->c, "attr.key", BPFRR_PHASE_ENTRY)->len == 4) {
		memcpy(&key, region_blob(w->o, w->c, "attr.key", BPFRR_PHASE_ENTRY)->data, 4);
		if (e->nr_keys < DOT_MAX_KEYS)
			e->keys[e->nr_keys] = key;
	} else {
		e->keys_unknown = true;
	}
	e->nr_keys++;
}

static void add_update(struct dump_out *o, const struct dump_call *c)
{
	struct fd_walk w = { .o = o, .c = c, .fn = update_ref, .map = UINT32_MAX };

	walk_fds(&w);
}

static void bind_ref(struct fd_walk *w, const struct bpfrr_abi_fd_ref *ref, uint32_t n, uint32_t kind)
{
	(void)kind;
	if (path_is(ref, "prog_bind_map.prog_fd"))
		w->prog = n;
	else if (path_is(ref, "prog_bind_map.map_fd"))
		w->map = n;
}

static void add_bind(struct dump_out *o, const struct dump_call *c)
{
	struct fd_walk w = { .o = o, .c = c, .fn = bind_ref, .prog = UINT32_MAX, .map = UINT32_MAX };

	walk_fds(&w);
	if (w.prog != UINT32_MAX && w.map != UINT32_MAX)
		add_edge(o, w.prog, w.map, DOT_E_BOUND, NULL);
}

static void pin_ref(struct fd_walk *w, const struct bpfrr_abi_fd_ref *ref, uint32_t n, uint32_t kind)
{
	(void)kind;
	if (path_is(ref, "bpf_fd"))
		w->map = n;
}

/* BPF_OBJ_PIN: pin -> object; BPF_OBJ_GET: pin -> the object it opened. */
static void add_pin(struct dump_out *o, const struct dump_call *c)
{
	struct fd_walk w = { .o = o, .c = c, .fn = pin_ref, .map = UINT32_MAX };
	struct label l = { .n = 0 };
	char path[4096];
	uint32_t pin;

	region_text(o, c, "attr.pathname", BPFRR_PHASE_ENTRY, path, sizeof(path));
	label_add(&l, "pin %s", path[0] ? path : "?");
	if (c->bpf->cmd == BPFRR_CMD_OBJ_PIN) {
		walk_fds(&w);
		if (w.map != UINT32_MAX)
			add_edge(o, named_node(o, DOT_PIN, l.s), w.map, DOT_E_PINNED, NULL);
		return;
	}
	pin = named_node(o, DOT_PIN, l.s);
	l.n = 0;
	l.s[0] = '\0';
	label_add(&l, "%s%s%s\nfrom a pin", dump_kind_name(ident_ok(c->ident) ? c->ident->kind : c->made_kind),
		  ident_ok(c->ident) && c->ident->name && c->ident->name[0] ? " " : "",
		  ident_ok(c->ident) && c->ident->name ? c->ident->name : "");
	label_ident(&l, c->bpf->seq, c->ident);
	w.self = made_node(o, c->bpf->seq, ident_ok(c->ident) ? c->ident->kind : c->made_kind, &l);
	if (w.self == UINT32_MAX)
		return;
	dot_of(o)->nodes[w.self].external = true;
	add_edge(o, pin, w.self, DOT_E_OPENED, NULL);
}

static void run_ref(struct fd_walk *w, const struct bpfrr_abi_fd_ref *ref, uint32_t n, uint32_t kind)
{
	struct dot_node *prog = node_at(w->o, n);

	if (kind == BPFRR_OBJ_PROG && path_is(ref, "test.prog_fd") && !prog->ran)
		prog->ran = w->c->bpf->seq;
}

/* BPF_PROG_TEST_RUN: a program the load ran (a light skeleton's loader) is part of it. */
static void add_run(struct dump_out *o, const struct dump_call *c)
{
	struct fd_walk w = { .o = o, .c = c, .fn = run_ref };

	walk_fds(&w);
}

static void dot_bpf_call(struct dump_out *o, const struct dump_call *c)
{
	if (c->failed || (c->bpf->flags & BPFRR_CALL_NO_EXIT) || !bpfrr_abi_cmd((int)c->bpf->cmd))
		return;
	switch (c->bpf->cmd) {
	case BPFRR_CMD_PROG_LOAD:
		add_prog(o, c);
		break;
	case BPFRR_CMD_MAP_CREATE:
		add_map(o, c);
		break;
	case BPFRR_CMD_BTF_LOAD:
		add_btf(o, c);
		break;
	case BPFRR_CMD_LINK_CREATE:
		add_link(o, c);
		break;
	case BPFRR_CMD_RAW_TRACEPOINT_OPEN:
		add_raw_tp(o, c);
		break;
	case BPFRR_CMD_PROG_ATTACH:
		add_attach(o, c);
		break;
	case BPFRR_CMD_MAP_UPDATE_ELEM:
	case BPFRR_CMD_MAP_UPDATE_BATCH:
		add_update(o, c);
		break;
	case BPFRR_CMD_PROG_BIND_MAP:
		add_bind(o, c);
		break;
	case BPFRR_CMD_OBJ_PIN:
	case BPFRR_CMD_OBJ_GET:
		add_pin(o, c);
		break;
	case BPFRR_CMD_PROG_TEST_RUN:
		add_run(o, c);
		break;
	default:
		break;	/* what other calls return (by id, iterators) is drawn when something uses it */
	}
}

/* --- other syscalls ---------------------------------------------------------------------- */

/* The number a small sysfs/tracefs file held ("585\n"); false if none. */
static bool content_number(struct dump_out *o, const struct dump_call *c, uint64_t *v)
{
	char text[32], *end;

	if (!region_text(o, c, "content", BPFRR_PHASE_EXIT, text, sizeof(text)))
		return false;
	*v = strtoull(text, &end, 10);
	return end != text;
}

/*
 * An open: keep its path (a cgroup or netns fd it returned is drawn by it),
 * and what the files libbpf reads before perf_event_open said: a tracefs
 * event's id (.../events/CATEGORY/NAME/id) and a PMU's type (.../NAME/type).
 */
static void note_open(struct dump_out *o, const struct dump_call *c)
{
	struct dot *g = dot_of(o);
	char path[4096], *ev, *tail;
	uint64_t v;

	if (!region_text(o, c, "path", BPFRR_PHASE_EXIT, path, sizeof(path)) &&
	    !region_text(o, c, "pathname", BPFRR_PHASE_ENTRY, path, sizeof(path)))
		return;
	put_string(o, &g->opens, c->sys->seq, path);
	if (!content_number(o, c, &v))
		return;
	tail = strrchr(path, '/');
	if (!tail)
		return;
	if (!strcmp(tail, "/id") && (ev = strstr(path, "/events/"))) {
		*tail = '\0';
		put_string(o, &g->tp_ids, v, ev + 8);
	} else if (!strcmp(tail, "/type")) {
		char *dir;

		*tail = '\0';
		dir = strrchr(path, '/');
		if (dir && dir[1])
			put_string(o, &g->pmu_types, v, dir + 1);
	}
}

static uint64_t perf_field(const uint8_t *a, size_t len, size_t off, size_t size)
{
	uint64_t v = 0;

	if (off + size <= len)
		memcpy(&v, a + off, size);
	return v;
}

static const char *const sw_event_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations", "minor-faults",
	"major-faults", "alignment-faults", "emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

/* A perf event: its node, and its attach point (tracepoint, kprobe, uprobe, PMU) as a node of its own. */
static void add_perf_event(struct dump_out *o, const struct dump_call *c)
{
	const struct bpfrr_rec_blob *b = region_blob(o, c, "perf_event_attr", BPFRR_PHASE_ENTRY);
	struct fd_walk w = { .o = o, .c = c };
	struct label l = { .n = 0 }, t = { .n = 0 };
	int pid = (int)c->sys->args[1], cpu = (int)c->sys->args[2];
	uint64_t config, config1, config2;
	struct dump_perf_symbols ps;
	const char *pmu = NULL;
	char text[256];
	size_t len, i;
	uint32_t type;

	label_add(&l, "perf_event\n");
	if (pid >= 0)
		label_add(&l, "pid %d%s", pid, cpu >= 0 ? ", " : "");
	if (cpu >= 0)
		label_add(&l, "cpu %d", cpu);
	if (!b || b->len < 8) {
		label_add(&l, "\n#%" PRIu64, c->sys->seq);
		made_node(o, c->sys->seq, BPFRR_OBJ_PERF_EVENT, &l);
		return;
	}
	len = perf_field(b->data, b->len, 4, 4);
	len = len && len < b->len ? len : b->len;
	type = (uint32_t)perf_field(b->data, len, 0, 4);
	config = perf_field(b->data, len, offsetof(struct perf_event_attr, config), 8);
	config1 = perf_field(b->data, len, offsetof(struct perf_event_attr, config1), 8);
	config2 = perf_field(b->data, len, offsetof(struct perf_event_attr, config2), 8);
	dump_perf_attr_symbols(o, b->data, b->len, &ps);

	if (type == PERF_TYPE_TRACEPOINT) {
		const char *name = ps.config && !(ps.config->flags & BPFRR_SYM_F_UNNAMED) ? ps.config->name : NULL;

		name = name ? name : string_of(o, &dot_of(o)->tp_ids, config);
		if (name)
			label_add(&t, "tracepoint %s", name);
		else
			label_add(&t, "tracepoint id %" PRIu64, config);
	} else if (type == PERF_TYPE_SOFTWARE) {
		label_add(&l, ", software %s", config < sizeof(sw_event_names) / sizeof(sw_event_names[0]) ?
					      sw_event_names[config] : "?");
	} else if (type < PERF_TYPE_MAX) {
		static const char *const types[] = { "hardware", "software", "tracepoint", "hw_cache", "raw",
						     "breakpoint" };

		label_add(&l, ", %s config %#" PRIx64, types[type], config);
	} else {
		/* a dynamic PMU: named by a SYMBOL record, by the type file libbpf read, or by what
		 * the recorder captured of config1 (a kprobe's function, a uprobe's path) */
		uint8_t probe_content = 0;

		for (i = 0; i < c->nr_regions; i++)
			if (c->regions[i].phase == BPFRR_PHASE_ENTRY &&
			    (c->regions[i].content == BPFRR_CONTENT_STRING || c->regions[i].content == BPFRR_CONTENT_PATH))
				break;
		if (i < c->nr_regions) {
			const struct bpfrr_rec_blob *sb = dump_region_blob(o, &c->regions[i]);

			probe_content = c->regions[i].content;
			text[0] = '\0';
			if (sb && sb->len) {
				size_t n = strnlen(sb->data, sb->len);

				n = n < sizeof(text) - 1 ? n : sizeof(text) - 1;
				memcpy(text, sb->data, n);
				text[n] = '\0';
			}
		}
		pmu = ps.type && !(ps.type->flags & BPFRR_SYM_F_UNNAMED) ? ps.type->name : NULL;
		pmu = pmu ? pmu : string_of(o, &dot_of(o)->pmu_types, type);
		if (!pmu && probe_content)
			pmu = probe_content == BPFRR_CONTENT_PATH ? "uprobe" : "kprobe";
		if (pmu && (!strcmp(pmu, "kprobe") || !strcmp(pmu, "uprobe"))) {
			/* bit 0 of config is "retprobe" in both PMUs' format */
			label_add(&t, "%s%s ", pmu[0] == 'k' ? "k" : "u", config & 1 ? "retprobe" : "probe");
			if (probe_content && text[0]) {
				/* function or path, and the offset in config2 */
				label_add(&t, "%s", text);
				if (config2)
					label_add(&t, "+%#" PRIx64, config2);
			} else if (config1) {
				label_add(&t, "? (not captured)");
			} else if (ps.config2) {
				dump_symbol_text(ps.config2, text, sizeof(text));
				label_add(&t, "%s", text);
			} else {
				label_add(&t, "%#" PRIx64, config2);	
/* an address */
			}
		} else {
			label_add(&t, "PMU %s config %#" PRIx64, pmu ? pmu : "?", config);
			if (!pmu)
				label_add(&t, " (type %u)", type);
		}
	}
	label_add(&l, "\n#%" PRIu64, c->sys->seq);
	w.self = made_node(o, c->sys->seq, BPFRR_OBJ_PERF_EVENT, &l);
	if (w.self != UINT32_MAX && t.n)
		on_target(&w, w.self, &t, NULL);
}

/*
 * A netlink request (sendmsg, sendto on a NETLINK_ROUTE socket): each message
 * that attaches a program draws it to the device's hook as an attach point,
 * "netdev nlA" with the hook (xdp and its mode, tc and its parent and
 * priority) on the edge.
 */
static void add_netlink(struct dump_out *o, const struct dump_call *c)
{
	const struct bpfrr_rec_blob *b = region_blob(o, c, "msg", BPFRR_PHASE_ENTRY);
	struct bpfrr_nl_msg msgs[16];
	int n, i;

	if (!b)
		return;
	n = bpfrr_nl_decode(b->data, b->len, msgs, 16);
	for (i = 0; i < n && i < 16; i++) {
		const struct bpfrr_nl_msg *m = &msgs[i];
		const char *dev = dump_call_ifname(o, c, m->ifindex);
		struct label l = { .n = 0 };
		char hook[64], parent[32];
		int32_t fd = m->has_xdp ? m->xdp_fd : m->bpf_fd;
		uint32_t target;

		if (m->effect != BPFRR_NL_ATTACH || fd < 0)
			continue;
		if (dev)
			label_add(&l, "netdev %s", dev);
		else
			label_add(&l, "netdev ifindex %d", m->ifindex);
		if (m->has_xdp) {
			snprintf(hook, sizeof(hook), "xdp%s%s", *bpfrr_nl_xdp_mode(m->xdp_flags) ? " " : "",
				 bpfrr_nl_xdp_mode(m->xdp_flags));
		} else {
			bpfrr_nl_tc_parent_string(m->tc_parent, parent, sizeof(parent));
			snprintf(hook, sizeof(hook), "tc %s pref %u", parent, bpfrr_nl_tc_prio(m->tc_info));
		}
		target = named_node(o, DOT_TARGET, l.s);	/* may move the nodes */
		add_edge(o, fd_node(o, fd), target, DOT_E_ATTACH, hook);
	}
}

static void dot_syscall(struct dump_out *o, const struct dump_call *c)
{
	const struct bpfrr_rec_syscall *s = c->sys;

	if (c->failed || (s->flags & BPFRR_CALL_NO_EXIT))
		return;
	if (!strcmp(s->name, "perf_event_open")) {
		add_perf_event(o, c);
	} else if (!strncmp(s->name, "open", 4)) {
		note_open(o, c);
	} else if (!strcmp(s->name, "sendmsg") || !strcmp(s->name, "sendto")) {
		add_netlink(o, c);
	} else if (!strcmp(s->name, "ioctl") && (uint32_t)s->args[1] == BPFRR_PERF_IOC_SET_BPF) {
		/* the old way to attach a program to a perf event */
		add_edge(o, fd_node(o, (int)s->args[0]), fd_node(o, (int)s->args[2]), DOT_E_ATTACHES, NULL);
	}
}

/* --- the graph ---------------------------------------------------------------------------- */

static void dot_begin(struct dump_out *o)
{
	o->state = calloc(1, sizeof(struct dot));
	if (!o->state)
		o->oom = true;
}

static void dot_finish(struct dump_out *o)
{
	struct dot *g = dot_of(o);
	size_t i;

	if (!g)
		return;
	for (i = 0; i < g->nr_nodes; i++) {
		free(g->nodes[i].key);
		free(g->nodes[i].label);
	}
	for (i = 0; i < g->nr_strings; i++)
		free(g->strings[i]);
	free(g->nodes);
	free(g->edges);
	free(g->strings);
	bpfrr_u64map_free(&g->objects);
	bpfrr_u64map_free(&g->edge_keys);
	bpfrr_u64map_free(&g->opens);
	bpfrr_u64map_free(&g->tp_ids);
	bpfrr_u64map_free(&g->pmu_types);
	free(g);
	o->state = NULL;
}

static const char *node_id_prefix(const struct dot_node *n)
{
	switch (n->what) {
	case DOT_TARGET:
		return "target";
	case DOT_PIN:
		return "pin";
	default:
		break;
	}
	switch (n->kind) {
	case BPFRR_OBJ_PROG:
		return "prog";
	case BPFRR_OBJ_MAP:
		return "map";
	case BPFRR_OBJ_BTF:
		return "btf";
	case BPFRR_OBJ_LINK:
		return "link";
	case BPFRR_OBJ_PERF_EVENT:
		return "perf";
	default:
		return "fd";
	}
}

/*
 * A node's name in the graph: kind and seq ("prog41"); an object made
 * outside the trace kind, "_x" and its index ("prog_x3"); others kind and
 * index ("target_3").
 */
static void node_id(FILE *f, const struct dot_node *n, size_t idx)
{
	if (n->what == DOT_OBJECT && n->seq)
		fprintf(f, "%s%" PRIu64, node_id_prefix(n), n->seq);
	else
		fprintf(f, "%s_%s%zu", node_id_prefix(n), n->what == DOT_OBJECT ? "x" : "", idx);
}

static const char *node_style(const struct dot_node *n)
{
	if (n->what == DOT_TARGET)
		return "shape=hexagon, style=filled, fillcolor=\"#fff2cc\"";
	if (n->what == DOT_PIN)
		return "shape=folder, style=filled, fillcolor=\"#eeeeee\"";
	switch (n->kind) {
	case BPFRR_OBJ_PROG:
		return "shape=box, style=\"rounded,filled\", fillcolor=\"#cfe2f3\"";
	case BPFRR_OBJ_MAP:
		return "shape=cylinder, style=filled, fillcolor=\"#d9ead3\"";
	case BPFRR_OBJ_BTF:
		return "shape=note, style=filled, fillcolor=\"#ead1dc\"";
	case BPFRR_OBJ_LINK:
		return "shape=ellipse, style=filled, fillcolor=\"#fce5cd\"";
	case BPFRR_OBJ_PERF_EVENT:
		return "shape=octagon, style=filled, fillcolor=\"#fce5cd\"";
	default:
		return "shape=tab, style=filled, fillcolor=\"#eeeeee\"";
	}
}

static void edge_label(const struct dot_edge *e, char *buf, size_t size)
{
	static const char *const verbs[] = {
		[DOT_E_USES] = "uses", [DOT_E_BOUND] = "bound", [DOT_E_BTF] = "btf", [DOT_E_INNER] = "inner",
		[DOT_E_ATTACHES] = "attaches", [DOT_E_ON] = "on", [DOT_E_ATTACH] = "attach",
		[DOT_E_REPLACES] = "replaces", [DOT_E_HOLDS] = "holds", [DOT_E_TAIL_CALL] = "tail call",
		[DOT_E_PINNED] = "pin", [DOT_E_OPENED] = "opened",
	};
	size_t n;
	uint32_t i;

	snprintf(buf, size, "%s%s%s", e->kind == DOT_E_ON && e->what[0] ? "" : verbs[e->kind],
		 e->kind != DOT_E_ON && e->what[0] ? " " : "", e->what);
	if (e->kind != DOT_E_HOLDS && e->kind != DOT_E_TAIL_CALL)
		return;
	n = strlen(buf);
	if (e->keys_unknown) {
		snprintf(buf + n, size - n, " (%u)", e->nr_keys);
		return;
	}
	for (i = 0; i < e->nr_keys && i < DOT_MAX_KEYS && n < size; i++, n = strlen(buf))
		snprintf(buf + n, size - n, "%s%u", i ? "," : " [", e->keys[i]);
	if (n < size)
		snprintf(buf + n, size - n, "%s]", e->nr_keys > DOT_MAX_KEYS ? ",..." : "");
}

static const char *edge_style(const struct dot_edge *e)
{
	switch (e->kind) {
	case DOT_E_BTF:
		return ", style=dashed, color=gray50, fontcolor=gray50";
	case DOT_E_INNER:
	case DOT_E_BOUND:
		return ", style=dashed";
	case DOT_E_ATTACHES:
		return ", style=bold";
	case DOT_E_ON:
	case DOT_E_ATTACH:
	case DOT_E_REPLACES:
		return ", color=blue4, fontcolor=blue4";
	case DOT_E_HOLDS:
		return ", color=darkorange3, fontcolor=darkorange3";
	case DOT_E_TAIL_CALL:
		return ", color=red3, fontcolor=red3, style=bold";
	case DOT_E_PINNED:
	case DOT_E_OPENED:
		return ", style=dotted";
	default:
		return "";
	}
}

static size_t component_of(size_t *parent, size_t i)
{
	while (parent[i] != i)
		i = parent[i] = parent[parent[i]];
	return i;
}

/* Does this node make its group part of the load: it is attached, pinned, run, kept open, or not ours? */
static bool keeps_group(struct dump_out *o, const struct dot_node *n)
{
	return n->what != DOT_OBJECT || n->external || !n->seq || n->kind == BPFRR_OBJ_LINK || n->ran ||
	       !dump_obj_closed_by(o, n->seq);
}

/*
 * shown[i]: whether node i is drawn.  Objects joined by edges form groups;
 * a group whose objects the load made and closed again and none of which is
 * attached, pinned, run or kept open (libbpf's feature probes: a program and
 * the map it tries) is folded into a note, unless -v or unless that would
 * leave nothing.  Attach points and pins are drawn with the objects they
 * belong to.
 */
static bool choose_shown(struct dump_out *o, bool *shown)
{
	struct dot *g = dot_of(o);
	size_t i, *parent = calloc(g->nr_nodes + 1, sizeof(*parent));
	bool *keep = calloc(g->nr_nodes + 1, sizeof(*keep)), any = false;

	if (!parent || !keep) {
		free(parent);
		free(keep);
		o->oom = true;
		return false;
	}
	for (i = 0; i < g->nr_nodes; i++)
		parent[i] = i;
	for (i = 0; i < g->nr_edges; i++)
		parent[component_of(parent, g->edges[i].from)] = component_of(parent, g->edges[i].to);
	for (i = 0; i < g->nr_nodes; i++)
		if (keeps_group(o, &g->nodes[i]))
			keep[component_of(parent, i)] = true;
	for (i = 0; i < g->nr_nodes; i++) {
		shown[i] = o->opts->verbose || keep[component_of(parent, i)];
		any |= shown[i] && g->nodes[i].what == DOT_OBJECT;
	}
	for (i = 0; !any && i < g->nr_nodes; i++)
		shown[i] = true;
	free(parent);
	free(keep);
	return true;
}

/* A program -> map "bound" edge says nothing a "uses" edge of the same pair does not. */
static bool redundant(const struct dot *g, const struct dot_edge *e)
{
	size_t i;

	if (e->kind != DOT_E_BOUND)
		return false;
	for (i = 0; i < g->nr_edges; i++)
		if (g->edges[i].kind == DOT_E_USES && g->edges[i].from == e->from && g->edges[i].to == e->to)
			return true;
	return false;
}

static void note_folded(struct dump_out *o, const bool *shown)
{
	static const uint32_t kinds[] = { BPFRR_OBJ_PROG, BPFRR_OBJ_MAP, BPFRR_OBJ_BTF, BPFRR_OBJ_LINK,
					  BPFRR_OBJ_PERF_EVENT };
	struct dot *g = dot_of(o);
	size_t i, k, total = 0;
	FILE *f = o->f;

	for (i = 0; i < g->nr_nodes; i++)
		total += g->nodes[i].what == DOT_OBJECT && !shown[i];
	if (!total)
		return;
	fprintf(f, "\tfolded [shape=note, style=filled, fillcolor=\"#f3f3f3\", label=\"%zu object%s made and "
		"closed again, attached nowhere\\n(feature probes; -v draws them)", total, total == 1 ? "" : "s");
	for (k = 0; k <= sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t on_line = 0;

		for (i = 0; i < g->nr_nodes; i++) {
			const struct dot_node *n = &g->nodes[i];
			bool other = k == sizeof(kinds) / sizeof(kinds[0]);
			bool match = other ? n->kind != BPFRR_OBJ_PROG && n->kind != BPFRR_OBJ_MAP &&
						     n->kind != BPFRR_OBJ_BTF && n->kind != BPFRR_OBJ_LINK &&
						     n->kind != BPFRR_OBJ_PERF_EVENT
					   : n->kind == kinds[k];

			if (n->what != DOT_OBJECT || shown[i] || !match)
				continue;
			if (on_line == DOT_FOLD_PER_LINE)
				on_line = 0;
			if (!on_line)
				fprintf(f, "\\n%s:", other ? "other" : dump_kind_name(kinds[k]));
			fprintf(f, " #%" PRIu64, n->seq);
			on_line++;
		}
	}
	fputs("\"];\n", f);
}

static void note_failures(struct dump_out *o, const struct dump_summary *s)
{
	FILE *f = o->f;
	size_t i;

	if (!s->nr_failures)
		return;
	fprintf(f, "\tfailed [shape=note, style=filled, fillcolor=\"#f4cccc\", label=\"%zu failed call%s",
		s->nr_failures, s->nr_failures == 1 ? "" : "s");
	for (i = 0; i < s->nr_failures && i < DOT_MAX_FAILURES; i++) {
		const struct dump_failure *fl = &s->failures[i];
		char what[64];

		if (fl->what)
			snprintf(what, sizeof(what), "%s", fl->what);
		else
			snprintf(what, sizeof(what), "bpf_cmd_%u", fl->cmd);
		fprintf(f, "\\l#%" PRIu64 " ", fl->seq);
		for (char *p = what; *p; p++)
			fputc(*p == '"' || *p == '\\' || (unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f ?
				      '?' : *p, f);
		fprintf(f, ": %s", fl->err ? dump_errno_name(fl->err) : "did not return");
	}
	if (s->nr_failures > DOT_MAX_FAILURES)
		fprintf(f, "\\l... %zu more (bpfrr dump --summary)", s->nr_failures - DOT_MAX_FAILURES);
	fputs("\\l\"];\n", f);
}

static void graph_title(struct dump_out *o, const char *trace_name, const struct dump_summary *s)
{
	struct label l = { .n = 0 };
	uint32_t i;

	label_add(&l, "%s", trace_name ? trace_name : "trace");
	if (o->hdr && o->hdr->argc) {
		label_add(&l, ":");
		for (i = 0; i < o->hdr->argc && l.n < 100; i++)
			label_add(&l, " %s", o->hdr->argv[i]);
		if (i < o->hdr->argc)
			label_add(&l, " ...");
	}
	if (!s->end)
		label_add(&l, "\n(truncated: no END record)");
	dot_string(o->f, l.s);
}

/* Programs whose attach_btf_id names a target no link drew: program -> target. */
static void unattached_btf_targets(struct dump_out *o)
{
	struct dot *g = dot_of(o);
	size_t i, n = g->nr_nodes;

	for (i = 0; i < n; i++)
		if (g->nodes[i].btf_target && !g->nodes[i].target_used)
			add_edge(o, (uint32_t)i, g->nodes[i].btf_target - 1, DOT_E_ON, "attach_btf_id");
}

static void dot_graph(struct dump_out *o, const char *trace_name, const struct dump_summary *s)
{
	struct dot *g = dot_of(o);
	FILE *f = o->f;
	bool *shown;
	size_t i;

	if (!g)
		return;
	unattached_btf_targets(o);
	shown = calloc(g->nr_nodes + 1, sizeof(*shown));
	if (!shown) {
		o->oom = true;
		return;
	}
	if (!choose_shown(o, shown)) {
		free(shown);
		return;
	}

	fputs("// bpfrr dump --format dot (docs/dump-json.md, \"The graph\")\n", f);
	fputs("digraph bpfrr {\n", f);
	fputs("\tgraph [rankdir=LR, labelloc=t, fontsize=12, label=", f);
	graph_title(o, trace_name, s);
	fputs("];\n\tnode [fontsize=10];\n\tedge [fontsize=9];\n", f);
	for (i = 0; i < g->nr_nodes; i++) {
		const struct dot_node *n = &g->nodes[i];

		if (!shown[i])
			continue;
		fputc('\t', f);
		node_id(f, n, i);
		fprintf(f, " [%s%s, label=", node_style(n), n->external ? ", peripheries=2, color=gray40" : "");
		if (n->ran) {
			struct label l = { .n = 0 };

			label_add(&l, "%s\nrun by #%" PRIu64, n->label, n->ran);
			dot_string(f, l.s);
		} else {
			dot_string(f, n->label);
		}
		fputs("];\n", f);
	}
	for (i = 0; i < g->nr_edges; i++) {
		const struct dot_edge *e = &g->edges[i];
		char label[128];

		if (!shown[e->from] || !shown[e->to] || redundant(g, e))
			continue;
		edge_label(e, label, sizeof(label));
		fputc('\t', f);
		node_id(f, &g->nodes[e->from], e->from);
		fputs(" -> ", f);
		node_id(f, &g->nodes[e->to], e->to);
		fputs(" [label=", f);
		dot_string(f, label);
		fprintf(f, "%s];\n", edge_style(e));
	}
	note_failures(o, s);
	note_folded(o, shown);
	fputs("}\n", f);
	free(shown);
}

const struct dump_printer dump_dot_printer = {
	.begin = dot_begin,
	.bpf_call = dot_bpf_call,
	.syscall = dot_syscall,
	.summary = dot_graph,
	.finish = dot_finish,
};

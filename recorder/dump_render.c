// SPDX-License-Identifier: GPL-2.0-only
/*
 * dump_render.c - bpfrr dump: what a captured buffer holds, decoded once for
 * every printer (dump_print.h): strings, verifier logs (the excerpt), the
 * instructions (their map and BTF references resolved to the objects they
 * name), BTF (parsed), id and number arrays, fd arrays, info structs (the
 * layout of the object queried), the perf_event_attr, small raw buffers.
 * The printer's content hooks lay them out.  Also the names all printers use.
 */
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpf_abi.h"
#include "bpf_disasm.h"
#include "btf_parse.h"
#include "dump_print.h"
#include "trace.h"

/* --- names ------------------------------------------------------------------------------ */

const char *dump_cmd_name(uint32_t cmd)
{
	return cmd < (uint32_t)BPFRR_ABI_NR_CMDS ? bpfrr_abi_cmd_name((int)cmd) : NULL;
}

const char *dump_kind_name(uint32_t kind)
{
	const char *name = kind < BPFRR_OBJ__MAX ? bpfrr_abi_obj_kind_name(kind) : NULL;

	return name ? name : "object";
}

const char *dump_errno_name(int e)
{
	const char *name = strerrorname_np(e);

	return name ? name : "E?";
}

const char *dump_phase_name(uint8_t phase)
{
	return phase == BPFRR_PHASE_EXIT ? "exit" : "entry";
}

const char *dump_dir_name(uint8_t dir)
{
	const char *name = bpfrr_abi_dir_name(dir);

	return name ? name : "?";
}

const char *dump_uapi_name(int cmd, const char *field, uint64_t value)
{
	const struct bpfrr_field *f = bpfrr_abi_cmd_field(cmd, field);

	return f && f->xlat ? bpfrr_abi_xlat_name(f->xlat, value) : NULL;
}

const char *dump_link_type_uapi(uint32_t type)
{
	const struct bpfrr_struct_desc *desc = &bpfrr_abi_link_info_desc;
	unsigned int i;

	for (i = 0; i < desc->nr_fields; i++)
		if (!strcmp(desc->fields[i].name, "type") && desc->fields[i].xlat)
			return bpfrr_abi_xlat_name(desc->fields[i].xlat, type);
	return NULL;
}

const struct bpfrr_rec_blob *dump_region_blob(const struct dump_out *o, const struct bpfrr_trace_region *reg)
{
	/* an inner call of a loader program: its buffers are the blob's bytes, not the trace's */
	if (o->inner && o->inner->regions && reg >= o->inner->regions &&
	    reg < o->inner->regions + o->inner->call.nr_regions)
		return &o->inner->blobs[reg - o->inner->regions];
	return reg->blob ? bpfrr_trace_blob(o->r, reg->blob) : NULL;
}

/* --- attr fields the kernel changed -------------------------------------------------------- */

bool dump_fields_seen_add(struct dump_fields_seen *s, const struct bpfrr_field *f, uint64_t value,
			  const char *symbolic)
{
	if (s->nr == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 32;
		void *p = realloc(s->entry, cap * sizeof(*s->entry));

		if (!p)
			return false;
		s->entry = p;
		s->cap = cap;
	}
	s->entry[s->nr].f = f;
	s->entry[s->nr].value = value;
	s->entry[s->nr].symbolic = symbolic ? strdup(symbolic) : NULL;
	s->nr++;
	return true;
}

bool dump_field_changed(const struct dump_fields_seen *s, const struct bpfrr_field *f, uint64_t value,
			const char *symbolic)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		if (s->entry[i].f != f)
			continue;
		if (s->entry[i].value != value)
			return true;
		if (!symbolic != !s->entry[i].symbolic)
			return true;
		return symbolic && strcmp(symbolic, s->entry[i].symbolic);
	}
	return true;
}

void dump_fields_seen_free(struct dump_fields_seen *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		free(s->entry[i].symbolic);
	free(s->entry);
	memset(s, 0, sizeof(*s));
}

/* --- BTF ------------------------------------------------------------------------------- */

static const char *btf_kind_names[] = {
	"unknown", "int", "ptr", "array", "struct", "union", "enum", "fwd", "typedef",
	"volatile", "const", "restrict", "func", "func_proto", "var", "datasec", "float",
	"decl_tag", "type_tag", "enum64",
};

const char *dump_btf_kind_name(const struct btf_type *t)
{
	return dump_btf_kind_name_of(btf_kind(t));
}

const char *dump_btf_kind_name_of(uint32_t kind)
{
	return kind < sizeof(btf_kind_names) / sizeof(btf_kind_names[0]) ? btf_kind_names[kind] : "unknown";
}

void dump_btf_counts(const struct btf *btf, uint32_t *types, uint32_t *named)
{
	uint32_t n = btf__type_cnt(btf), i;

	*named = 0;
	for (i = 1; i < n; i++)
		*named += btf__type_by_id(btf, i)->name_off != 0;
	*types = n - 1;
}

static int quiet_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static void render_btf(struct dump_out *o, const void *data, size_t len, const char *indent)
{
	struct btf *btf;

	libbpf_set_print(quiet_libbpf);
	btf = bpfrr_btf_parse(data, len);
	if (!btf) {
		o->p->btf(o, NULL, indent);
		return;
	}
	o->p->btf(o, btf, indent);
	btf__free(btf);
}

/* --- what the kernel's numbers named ------------------------------------------------------ */

const char *dump_symbol_kind_name(uint32_t kind)
{
	switch (kind) {
	case BPFRR_SYM_BTF_ID:
		return "btf_id";
	case BPFRR_SYM_TP_ID:
		return "tp_id";
	case BPFRR_SYM_PMU_TYPE:
		return "pmu_type";
	case BPFRR_SYM_KSYM_ADDR:
		return "ksym_addr";
	default:
		return "unknown";
	}
}

void dump_symbol_text(const struct bpfrr_rec_symbol *s, char *buf, size_t size)
{
	size_t used;

	if ((s->flags & BPFRR_SYM_F_UNNAMED) || !s->name || !s->name[0]) {
		snprintf(buf, size, "unnamed");
	} else {
		switch (s->kind) {
		case BPFRR_SYM_BTF_ID:
			snprintf(buf, size, "%s %s", dump_btf_kind_name_of(s->btf_kind), s->name);
			break;
		case BPFRR_SYM_PMU_TYPE:
			snprintf(buf, size, "PMU %s", s->name);
			break;
		case BPFRR_SYM_KSYM_ADDR:
			if (s->offset)
				snprintf(buf, size, "%s+%#" PRIx64, s->name, s->offset);
			else
				snprintf(buf, size, "%s", s->name);
			break;
		default:
			snprintf(buf, size, "%s", s->name);
			break;
		}
	}
	used = strlen(buf);
	if (s->module && s->module[0] && used < size)
		snprintf(buf + used, size - used, " [%s]", s->module);
	/* a struct_ops value type: the places of its program fds (" (program fds at +64 +72)") */
	if (s->flags & BPFRR_SYM_F_VALUE_FDS) {
		used = strlen(buf);
		snprintf(buf + used, size - used, "%s", s->nr_value_fds ? " (program fds at" : " (no program fds");
		for (uint32_t i = 0; i < s->nr_value_fds; i++) {
			used = strlen(buf);
			snprintf(buf + used, size - used, " +%u", s->value_fds[i]);
		}
		used = strlen(buf);
		snprintf(buf + used, size - used, ")");
	}
	/* names come from the recording machine: keep the line printable */
	for (char *p = buf; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			*p = '?';
}

/* The module of the BTF object behind fd in the call being printed: "" for vmlinux,
 * NULL if the trace does not say (then any module's symbol is taken). */
static const char *btf_fd_module(const struct dump_out *o, int32_t fd)
{
	struct dump_obj obj;

	if (!dump_fd_object(o, fd, &obj) || obj.kind != BPFRR_OBJ_BTF || !obj.name[0])
		return NULL;
	return strcmp(obj.name, "vmlinux") ? obj.name : "";
}

const struct bpfrr_rec_symbol *dump_attr_symbol(const struct dump_out *o, const struct dump_call *c,
						const struct bpfrr_field *f)
{
	const struct bpfrr_rec_bpf_call *call = c->bpf;
	int module_fd;

	if (!call || !(f->flags & BPFRR_FIELDF_KERNEL_BTF) ||
	    !bpfrr_abi_kernel_btf_id((int)call->cmd, f, call->attr, call->attr_len, &c->env, &module_fd))
		return NULL;
	return dump_symbol(o, BPFRR_SYM_BTF_ID, bpfrr_abi_field_get(f, call->attr, call->attr_len),
			   module_fd < 0 ? "" : btf_fd_module(o, module_fd));
}

static uint64_t perf_attr_get(const void *data, size_t len, size_t declared, size_t off, size_t size)
{
	uint64_t v = 0;

	if (off + size > len || off + size > declared)
		return 0;
	memcpy(&v, (const uint8_t *)data + off, size);	/* little-endian hosts only, as the rest */
	return v;
}

void dump_perf_attr_symbols(const struct dump_out *o, const void *data, size_t len,
			    struct dump_perf_symbols *ps)
{
	size_t declared;
	uint32_t type;

	memset(ps, 0, sizeof(*ps));
	if (len < 8)
		return;
	declared = (size_t)perf_attr_get(data, len, 8, offsetof(struct perf_event_attr, size), 4);
	if (!declared)
		declared = PERF_ATTR_SIZE_VER0;
	type = (uint32_t)perf_attr_get(data, len, declared, 0, 4);
	if (type == PERF_TYPE_TRACEPOINT)
		ps->config = dump_symbol(o, BPFRR_SYM_TP_ID,
					 perf_attr_get(data, len, declared, offsetof(struct perf_event_attr, config), 8),
					 NULL);
	if (type < PERF_TYPE_MAX)
		return;
	ps->type = dump_symbol(o, BPFRR_SYM_PMU_TYPE, type, NULL);
	/* the kprobe PMU without a function name probes the address in config2 */
	if (ps->type && ps->type->name && !strcmp(ps->type->name, "kprobe") &&
	    !perf_attr_get(data, len, declared, offsetof(struct perf_event_attr, config1), 8))
		ps->config2 = dump_symbol(o, BPFRR_SYM_KSYM_ADDR,
					  perf_attr_get(data, len, declared,
							offsetof(struct perf_event_attr, config2), 8), NULL);
}

/* The address array a LINK_CREATE kprobe_multi passes (not its symbol names) */
static bool is_kernel_addrs(const struct dump_call *c, const struct bpfrr_trace_region *reg)
{
	return c->bpf && c->bpf->cmd == BPFRR_CMD_LINK_CREATE && reg->phase == BPFRR_PHASE_ENTRY &&
	       reg->content == BPFRR_CONTENT_U64_ARRAY && reg->path &&
	       !strcmp(reg->path, "attr.link_create.kprobe_multi.addrs");
}

struct symbol_walk {
	struct dump_out *o;
	const struct dump_call *c;
	void (*fn)(void *arg, const char *path, const struct bpfrr_rec_symbol *s);
	void *arg;
	const char *base;	/* path of the region */
};

static int fd_array_slot(const struct dump_out *o, const struct dump_call *c, uint32_t idx, int32_t *fd);

/* disassembler hook, to find the kfunc and ksym refs */
static int symbol_insn_ref(void *ctx, const struct bpfrr_disasm_ref *ref, char *buf, size_t size)
{
	struct symbol_walk *sw = ctx;
	const struct bpfrr_rec_symbol *s;
	const char *module = "";
	char path[128];
	int32_t fd;

	(void)buf;
	(void)size;
	if (ref->type != BPFRR_DREF_BTF_ID && ref->type != BPFRR_DREF_KFUNC)
		return 0;
	if (ref->type == BPFRR_DREF_BTF_ID && ref->fd)
		module = btf_fd_module(sw->o, ref->fd);
	else if (ref->type == BPFRR_DREF_KFUNC && ref->fd)
		module = fd_array_slot(sw->o, sw->c, (uint32_t)ref->fd, &fd) ? NULL : btf_fd_module(sw->o, fd);
	s = dump_symbol(sw->o, BPFRR_SYM_BTF_ID, ref->btf_id, module);
	if (s) {
		snprintf(path, sizeof(path), "%s[%zu].imm", sw->base, ref->insn_idx);
		sw->fn(sw->arg, path, s);
	}
	return 0;
}

void dump_call_symbols(struct dump_out *o, const struct dump_call *c,
		       void (*fn)(void *arg, const char *path, const struct bpfrr_rec_symbol *s), void *arg)
{
	struct symbol_walk sw = { o, c, fn, arg, NULL };
	const struct bpfrr_disasm_opts opts = { symbol_insn_ref, &sw };
	const struct bpfrr_cmd_desc *d;
	char path[160], line[256];
	uint32_t i;

	if (!dump_kernel(o))
		return;		/* a 1.0 trace names nothing */
	d = c->bpf ? bpfrr_abi_cmd((int)c->bpf->cmd) : NULL;
	for (i = 0; d && i < d->attr->nr_fields; i++) {
		const struct bpfrr_rec_symbol *s = dump_attr_symbol(o, c, &d->attr->fields[i]);

		if (s) {
			snprintf(path, sizeof(path), "attr.%s", d->attr->fields[i].name);
			fn(arg, path, s);
		}
	}
	for (i = 0; i < c->nr_regions; i++) {
		const struct bpfrr_trace_region *reg = &c->regions[i];
		const struct bpfrr_rec_blob *b = dump_region_blob(o, reg);
		size_t n, k;

		if (!b || reg->phase != BPFRR_PHASE_ENTRY)
			continue;
		if (c->bpf && reg->content == BPFRR_CONTENT_INSNS) {
			sw.base = reg->path;
			n = b->len / BPFRR_INSN_SIZE;
			for (k = 0; k < n;)
				k += (size_t)bpfrr_disasm_insn(b->data, n, k, &opts, line, sizeof(line));
		} else if (is_kernel_addrs(c, reg)) {
			for (k = 0; k + 8 <= b->len; k += 8) {
				const struct bpfrr_rec_symbol *s;
				uint64_t addr;

				memcpy(&addr, (const uint8_t *)b->data + k, 8);
				s = dump_symbol(o, BPFRR_SYM_KSYM_ADDR, addr, NULL);
				if (s) {
					snprintf(path, sizeof(path), "%s[%zu]", reg->path, k / 8);
					fn(arg, path, s);
				}
			}
		} else if (c->sys && reg->content == BPFRR_CONTENT_BYTES && !strcmp(reg->path, "perf_event_attr")) {
			struct dump_perf_symbols ps;

			dump_perf_attr_symbols(o, b->data, b->len, &ps);
			if (ps.type)
				fn(arg, "perf_event_attr.type", ps.type);
			if (ps.config)
				fn(arg, "perf_event_attr.config", ps.config);
			if (ps.config2)
				fn(arg, "perf_event_attr.config2", ps.config2);
		}
	}
}

/* --- instructions ------------------------------------------------------------------------- */

struct insn_refs {
	struct dump_out *o;
	const struct dump_call *c;
};

/* The fd_array of the call being dumped, entry idx; -1 if not recorded. */
static int fd_array_slot(const struct dump_out *o, const struct dump_call *c, uint32_t idx, int32_t *fd)
{
	const struct bpfrr_rec_bpf_call *call = c->bpf;
	const struct bpfrr_field *f;
	uint64_t addr;

	if (!call || call->cmd != BPFRR_CMD_PROG_LOAD)
		return -1;
	f = bpfrr_abi_cmd_field(BPFRR_CMD_PROG_LOAD, "fd_array");
	if (!f)
		return -1;
	addr = bpfrr_abi_field_get(f, call->attr, call->attr_len);
	if (!addr || dump_read_entry(o, addr + 4ull * idx, fd, 4))
		return -1;
	return 0;
}

static int fd_array_entry(const struct insn_refs *ir, uint32_t idx, int32_t *fd)
{
	return fd_array_slot(ir->o, ir->c, idx, fd);
}

/* "'counts' #3 id 17" for an object, "fd:5?" for an fd naming nothing known */
static void short_object(const struct insn_refs *ir, int32_t fd, char *buf, size_t size)
{
	struct dump_obj obj;
	char idbuf[24] = "";

	if (!dump_fd_object(ir->o, fd, &obj)) {
		snprintf(buf, size, "fd:%d?", fd);
		return;
	}
	if (obj.inner) {	/* an fd an inner call of a loader program returns */
		snprintf(buf, size, "%s%s%sinner #%u", obj.name[0] ? "'" : "", obj.name, obj.name[0] ? "' " : "",
			 obj.inner);
		for (char *p = buf; *p; p++)
			if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
				*p = '?';
		return;
	}
	if (obj.has_id)
		snprintf(idbuf, sizeof(idbuf), " id %u", obj.id);
	if (obj.origin)
		snprintf(buf, size, "%s%s%s#%" PRIu64 "%s", obj.name[0] ? "'" : "", obj.name,
			 obj.name[0] ? "' " : "", obj.origin, idbuf);
	else
		snprintf(buf, size, "%s%s%sfd:%d%s", obj.name[0] ? "'" : "", obj.name, obj.name[0] ? "' " : "",
			 fd, idbuf);
	/* names come from the tracee: keep the line printable */
	for (char *p = buf; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			*p = '?';
}

/* Disassembler hook: map and BTF references resolved to the objects they name. */
/* The name of a kernel BTF id an insn refers to, into buf; false if the trace has none. */
static bool symbol_of_ref(const struct insn_refs *ir, uint32_t btf_id, const char *module, char *buf,
			  size_t size)
{
	const struct bpfrr_rec_symbol *s = dump_symbol(ir->o, BPFRR_SYM_BTF_ID, btf_id, module);

	if (!s)
		return false;
	dump_symbol_text(s, buf, size);
	return true;
}

static int render_insn_ref(void *ctx, const struct bpfrr_disasm_ref *ref, char *buf, size_t size)
{
	const struct insn_refs *ir = ctx;
	char obj[160], sym[160];
	bool have_sym;
	int32_t fd;

	switch (ref->type) {
	case BPFRR_DREF_MAP_FD:
		short_object(ir, ref->fd, obj, sizeof(obj));
		return snprintf(buf, size, "map[%s]", obj);
	case BPFRR_DREF_MAP_VALUE:
		short_object(ir, ref->fd, obj, sizeof(obj));
		return snprintf(buf, size, "map[%s]+%u", obj, ref->value_off);
	case BPFRR_DREF_MAP_IDX:
	case BPFRR_DREF_MAP_IDX_VALUE:
		if (fd_array_entry(ir, (uint32_t)ref->fd, &fd))
			snprintf(obj, sizeof(obj), "fd_array[%d]?", ref->fd);
		else
			short_object(ir, fd, obj, sizeof(obj));
		if (ref->type == BPFRR_DREF_MAP_IDX)
			return snprintf(buf, size, "map[%s]", obj);
		return snprintf(buf, size, "map[%s]+%u", obj, ref->value_off);
	case BPFRR_DREF_BTF_ID:
		if (!ref->fd) {
			if (!symbol_of_ref(ir, ref->btf_id, "", sym, sizeof(sym)))
				return 0;
			return snprintf(buf, size, "ksym[btf_id:%u (%s)]", ref->btf_id, sym);
		}
		short_object(ir, ref->fd, obj, sizeof(obj));
		if (symbol_of_ref(ir, ref->btf_id, btf_fd_module(ir->o, ref->fd), sym, sizeof(sym)))
			return snprintf(buf, size, "btf_id[%u in %s (%s)]", ref->btf_id, obj, sym);
		return snprintf(buf, size, "btf_id[%u in %s]", ref->btf_id, obj);
	case BPFRR_DREF_KFUNC:
		if (!ref->fd) {
			if (!symbol_of_ref(ir, ref->btf_id, "", sym, sizeof(sym)))
				return 0;
			return snprintf(buf, size, "kfunc[btf_id:%u (%s)]", ref->btf_id, sym);
		}
		if (fd_array_entry(ir, (uint32_t)ref->fd, &fd)) {
			snprintf(obj, sizeof(obj), "fd_array[%d]?", ref->fd);
			have_sym = symbol_of_ref(ir, ref->btf_id, NULL, sym, sizeof(sym));
		} else {
			short_object(ir, fd, obj, sizeof(obj));
			have_sym = symbol_of_ref(ir, ref->btf_id, btf_fd_module(ir->o, fd), sym, sizeof(sym));
		}
		if (have_sym)
			return snprintf(buf, size, "kfunc[btf_id %u in %s (%s)]", ref->btf_id, obj, sym);
		return snprintf(buf, size, "kfunc[btf_id %u in %s]", ref->btf_id, obj);
	default:
		return 0;
	}
}

static void render_insns(struct dump_out *o, const struct dump_call *c, const void *data, size_t len,
			 const char *indent)
{
	struct insn_refs ir = { .o = o, .c = c };
	struct bpfrr_disasm_opts opts = { .render_ref = render_insn_ref, .ctx = &ir };

	o->p->insns(o, &opts, data, len, indent);
}

/* --- logs ------------------------------------------------------------------------------ */

/* Lines the verifier ends every log with, whatever went wrong. */
static bool log_statistic(const char *line, size_t n)
{
	static const char *const stats[] = {
		"processed ", "verification time ", "stack depth ", "-- END PROG LOAD LOG --",
		"Validating ", "mark_precise",
	};
	size_t i;

	for (i = 0; i < sizeof(stats) / sizeof(stats[0]); i++)
		if (n >= strlen(stats[i]) && !strncmp(line, stats[i], strlen(stats[i])))
			return true;
	return false;
}

size_t dump_log_reason(const char *text, size_t len, char *buf, size_t size)
{
	size_t end = strnlen(text, len), start, n;

	if (size)
		buf[0] = '\0';
	while (end > 0) {
		start = end;
		while (start > 0 && text[start - 1] != '\n')
			start--;
		n = end - start;
		while (n && (text[start + n - 1] == '\n' || text[start + n - 1] == '\r' ||
			     text[start + n - 1] == ' '))
			n--;
		if (n && !log_statistic(text + start, n)) {
			if (!size)
				return n;
			if (n >= size)
				n = size - 1;
			memcpy(buf, text + start, n);
			buf[n] = '\0';
			return n;
		}
		end = start ? start - 1 : 0;
	}
	return 0;
}

/* The last DUMP_LOG_EXCERPT_LINES lines of a log (all with -v). */
static void render_log(struct dump_out *o, const struct dump_call *c, const char *text, size_t len,
		       const char *indent)
{
	size_t start = 0, lines = 0, i, end;

	/* the kernel NUL-terminates; stop there */
	end = strnlen(text, len);
	for (i = end; i > 0; i--) {
		if (text[i - 1] == '\n' && i != end) {
			if (++lines == DUMP_LOG_EXCERPT_LINES && !o->opts->verbose) {
				start = i;
				break;
			}
		}
	}
	o->p->log(o, c, text, start, end, indent);
}

/* --- info structs -------------------------------------------------------------------------- */

/* BPF_OBJ_GET_INFO_BY_FD: the info layout for the kind of object queried. */
static const struct bpfrr_struct_desc *info_desc_of_call(struct dump_out *o, const struct dump_call *c)
{
	const struct bpfrr_rec_bpf_call *call = c->bpf;
	const struct bpfrr_field *f;
	struct dump_obj obj;

	if (!call || call->cmd != BPFRR_CMD_OBJ_GET_INFO_BY_FD)
		return NULL;
	f = bpfrr_abi_cmd_field(BPFRR_CMD_OBJ_GET_INFO_BY_FD, "info.bpf_fd");
	if (!f || f->offset + f->size > call->attr_len)
		return NULL;
	if (!dump_fd_object(o, (int32_t)bpfrr_abi_field_get(f, call->attr, call->attr_len), &obj))
		return NULL;
	return bpfrr_abi_info_desc(obj.kind);
}

/* --- netlink requests ------------------------------------------------------------------------ */

const char *dump_call_ifname(const struct dump_out *o, const struct dump_call *c, int32_t ifindex)
{
	const struct bpfrr_rec_blob *b;
	char path[32];
	uint32_t i;

	snprintf(path, sizeof(path), "ifname.%d", ifindex);
	for (i = 0; i < c->nr_regions; i++) {
		if (strcmp(c->regions[i].path, path))
			continue;
		b = dump_region_blob(o, &c->regions[i]);
		/* a NUL-terminated name, as the recorder writes it */
		if (b && b->len && !((const char *)b->data)[b->len - 1])
			return (const char *)b->data;
	}
	return NULL;
}

/* --- by content ------------------------------------------------------------------------------ */

void dump_render_content(struct dump_out *o, const struct dump_call *c, const struct bpfrr_trace_region *reg,
			 const struct bpfrr_rec_blob *b, const char *indent)
{
	const struct bpfrr_struct_desc *desc = NULL;

	switch (reg->content) {
	case BPFRR_CONTENT_STRING:
	case BPFRR_CONTENT_PATH:
	case BPFRR_CONTENT_NAME:
		o->p->string(o, b->data, strnlen(b->data, b->len), indent);
		return;
	case BPFRR_CONTENT_LOG:
		render_log(o, c, b->data, b->len, indent);
		return;
	case BPFRR_CONTENT_INSNS:
		render_insns(o, c, b->data, b->len, indent);
		return;
	case BPFRR_CONTENT_BTF:
		render_btf(o, b->data, b->len, indent);
		return;
	case BPFRR_CONTENT_FD_ARRAY:
		o->p->fd_array(o, b->data, b->len / 4, indent);
		return;
	case BPFRR_CONTENT_IDS:
	case BPFRR_CONTENT_U32_ARRAY:
		o->p->numbers(o, b->data, b->len, 4, indent);
		return;
	case BPFRR_CONTENT_U64_ARRAY:
	case BPFRR_CONTENT_PTR_ARRAY:
		if (o->p->kernel_addrs && is_kernel_addrs(c, reg) && dump_kernel(o)) {
			o->p->kernel_addrs(o, b->data, b->len, indent);
			return;
		}
		o->p->numbers(o, b->data, b->len, 8, indent);
		return;
	case BPFRR_CONTENT_PROG_INFO:
		desc = &bpfrr_abi_prog_info_desc;
		break;
	case BPFRR_CONTENT_MAP_INFO:
		desc = &bpfrr_abi_map_info_desc;
		break;
	case BPFRR_CONTENT_BTF_INFO:
		desc = &bpfrr_abi_btf_info_desc;
		break;
	case BPFRR_CONTENT_LINK_INFO:
		desc = &bpfrr_abi_link_info_desc;
		break;
	case BPFRR_CONTENT_INFO:
		/* an info struct: its layout is that of the object behind info.bpf_fd */
		desc = info_desc_of_call(o, c);
		break;
	case BPFRR_CONTENT_COMMON_ATTR:
		/* the 4th bpf() argument of a call with BPF_COMMON_ATTRS (7.2) */
		desc = &bpfrr_abi_common_attr_desc;
		break;
	case BPFRR_CONTENT_NETLINK:
		if (o->p->netlink) {
			o->p->netlink(o, c, b->data, b->len, indent);
			return;
		}
		break;
	default:
		break;
	}
	if (desc) {
		o->p->info(o, desc, b->data, b->len, indent);
		return;
	}
	/* the perf_event_attr of perf_event_open, PERF_EVENT_IOC_MODIFY_ATTRIBUTES */
	if (c->sys && reg->content == BPFRR_CONTENT_BYTES && !strcmp(reg->path, "perf_event_attr")) {
		o->p->perf_attr(o, b->data, b->len, indent);
		return;
	}
	/* keys, values, records, bytes: whole when small, else size and hash */
	if (b->len <= DUMP_SMALL_BUF)
		o->p->bytes(o, b->data, b->len, indent);
}

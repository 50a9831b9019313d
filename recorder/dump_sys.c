// SPDX-License-Identifier: GPL-2.0-only
/*
 * dump_sys.c - what bpfrr dump shows of the syscalls other than bpf()
 * the recorder keeps: their parameters by name, as their rows in the table
 * of followed calls (lib/sys_abi.h) name and type them (only those the call
 * has, decoded where the value has names: fds, AT_FDCWD, flags, fcntl
 * commands and perf ioctl requests from the rows' sub-tables), and the
 * fields of a struct perf_event_attr.  Each is decoded once
 * (sys_params_walk, perf_attr_walk) and laid out by a pair of functions, one
 * for text and one for JSON.
 *
 * The perf_event_attr layout is described here with explicit offsets and bit
 * numbers, because the trace may hold a larger attr than the installed
 * header knows (Linux 6.12 added config3 after sig_data); the unit tests
 * check the table against <linux/perf_event.h> where both have a field.
 */
#include <inttypes.h>
#include <string.h>

#include <linux/perf_event.h>

#include "dump.h"
#include "dump_print.h"
#include "sys_abi.h"

#define EM_X86_64_NR 62
#define EM_AARCH64_NR 183

struct sym {
	uint64_t value;
	const char *name;
};

#define SYM(x) { (uint64_t)(x), #x }

/* --- perf_event_attr ---------------------------------------------------------------- */

static const struct sym perf_types[] = {
	SYM(PERF_TYPE_HARDWARE), SYM(PERF_TYPE_SOFTWARE), SYM(PERF_TYPE_TRACEPOINT),
	SYM(PERF_TYPE_HW_CACHE), SYM(PERF_TYPE_RAW), SYM(PERF_TYPE_BREAKPOINT), { 0, NULL },
};

static const struct sym perf_hw_ids[] = {
	SYM(PERF_COUNT_HW_CPU_CYCLES), SYM(PERF_COUNT_HW_INSTRUCTIONS),
	SYM(PERF_COUNT_HW_CACHE_REFERENCES), SYM(PERF_COUNT_HW_CACHE_MISSES),
	SYM(PERF_COUNT_HW_BRANCH_INSTRUCTIONS), SYM(PERF_COUNT_HW_BRANCH_MISSES),
	SYM(PERF_COUNT_HW_BUS_CYCLES), SYM(PERF_COUNT_HW_STALLED_CYCLES_FRONTEND),
	SYM(PERF_COUNT_HW_STALLED_CYCLES_BACKEND), SYM(PERF_COUNT_HW_REF_CPU_CYCLES), { 0, NULL },
};

static const struct sym perf_sw_ids[] = {
	SYM(PERF_COUNT_SW_CPU_CLOCK), SYM(PERF_COUNT_SW_TASK_CLOCK), SYM(PERF_COUNT_SW_PAGE_FAULTS),
	SYM(PERF_COUNT_SW_CONTEXT_SWITCHES), SYM(PERF_COUNT_SW_CPU_MIGRATIONS),
	SYM(PERF_COUNT_SW_PAGE_FAULTS_MIN), SYM(PERF_COUNT_SW_PAGE_FAULTS_MAJ),
	SYM(PERF_COUNT_SW_ALIGNMENT_FAULTS), SYM(PERF_COUNT_SW_EMULATION_FAULTS),
	SYM(PERF_COUNT_SW_DUMMY), SYM(PERF_COUNT_SW_BPF_OUTPUT), SYM(PERF_COUNT_SW_CGROUP_SWITCHES),
	{ 0, NULL },
};

static const struct sym perf_sample_bits[] = {
	SYM(PERF_SAMPLE_IP), SYM(PERF_SAMPLE_TID), SYM(PERF_SAMPLE_TIME), SYM(PERF_SAMPLE_ADDR),
	SYM(PERF_SAMPLE_READ), SYM(PERF_SAMPLE_CALLCHAIN), SYM(PERF_SAMPLE_ID), SYM(PERF_SAMPLE_CPU),
	SYM(PERF_SAMPLE_PERIOD), SYM(PERF_SAMPLE_STREAM_ID), SYM(PERF_SAMPLE_RAW),
	SYM(PERF_SAMPLE_BRANCH_STACK), SYM(PERF_SAMPLE_REGS_USER), SYM(PERF_SAMPLE_STACK_USER),
	SYM(PERF_SAMPLE_WEIGHT), SYM(PERF_SAMPLE_DATA_SRC), SYM(PERF_SAMPLE_IDENTIFIER),
	SYM(PERF_SAMPLE_TRANSACTION), SYM(PERF_SAMPLE_REGS_INTR), SYM(PERF_SAMPLE_PHYS_ADDR),
	SYM(PERF_SAMPLE_AUX), SYM(PERF_SAMPLE_CGROUP), SYM(PERF_SAMPLE_DATA_PAGE_SIZE),
	SYM(PERF_SAMPLE_CODE_PAGE_SIZE), SYM(PERF_SAMPLE_WEIGHT_STRUCT), { 0, NULL },
};

static const struct sym perf_read_format_bits[] = {
	SYM(PERF_FORMAT_TOTAL_TIME_ENABLED), SYM(PERF_FORMAT_TOTAL_TIME_RUNNING), SYM(PERF_FORMAT_ID),
	SYM(PERF_FORMAT_GROUP), SYM(PERF_FORMAT_LOST), { 0, NULL },
};

static const struct sym perf_branch_bits[] = {
	SYM(PERF_SAMPLE_BRANCH_USER), SYM(PERF_SAMPLE_BRANCH_KERNEL), SYM(PERF_SAMPLE_BRANCH_HV),
	SYM(PERF_SAMPLE_BRANCH_ANY), SYM(PERF_SAMPLE_BRANCH_ANY_CALL),
	SYM(PERF_SAMPLE_BRANCH_ANY_RETURN), SYM(PERF_SAMPLE_BRANCH_IND_CALL),
	SYM(PERF_SAMPLE_BRANCH_ABORT_TX), SYM(PERF_SAMPLE_BRANCH_IN_TX), SYM(PERF_SAMPLE_BRANCH_NO_TX),
	SYM(PERF_SAMPLE_BRANCH_COND), SYM(PERF_SAMPLE_BRANCH_CALL_STACK),
	SYM(PERF_SAMPLE_BRANCH_IND_JUMP), SYM(PERF_SAMPLE_BRANCH_CALL),
	SYM(PERF_SAMPLE_BRANCH_NO_FLAGS), SYM(PERF_SAMPLE_BRANCH_NO_CYCLES),
	SYM(PERF_SAMPLE_BRANCH_TYPE_SAVE), SYM(PERF_SAMPLE_BRANCH_HW_INDEX), { 0, NULL },
};

/* HW_BREAKPOINT_* of <linux/hw_breakpoint.h>, which not every libc ships */
static const struct sym hw_breakpoint_types[] = {
	{ 0, "HW_BREAKPOINT_EMPTY" }, { 1, "HW_BREAKPOINT_R" }, { 2, "HW_BREAKPOINT_W" },
	{ 3, "HW_BREAKPOINT_RW" }, { 4, "HW_BREAKPOINT_X" }, { 0, NULL },
};

/*
 * The one-bit fields (precise_ip: two bits) of the u64 after read_format, in
 * declaration order, with their bit numbers (x86_64 and aarch64 are
 * little-endian: the first declared is bit 0); bits 38..63 are __reserved_1.
 */
const struct dump_perf_attr_bit dump_perf_attr_bits[DUMP_PERF_ATTR_NR_BITS] = {
	{ "disabled", 0, 1 }, { "inherit", 1, 1 }, { "pinned", 2, 1 }, { "exclusive", 3, 1 },
	{ "exclude_user", 4, 1 }, { "exclude_kernel", 5, 1 }, { "exclude_hv", 6, 1 },
	{ "exclude_idle", 7, 1 }, { "mmap", 8, 1 }, { "comm", 9, 1 }, { "freq", 10, 1 },
	{ "inherit_stat", 11, 1 }, { "enable_on_exec", 12, 1 }, { "task", 13, 1 },
	{ "watermark", 14, 1 }, { "precise_ip", 15, 2 }, { "mmap_data", 17, 1 },
	{ "sample_id_all", 18, 1 }, { "exclude_host", 19, 1 }, { "exclude_guest", 20, 1 },
	{ "exclude_callchain_kernel", 21, 1 }, { "exclude_callchain_user", 22, 1 },
	{ "mmap2", 23, 1 }, { "comm_exec", 24, 1 }, { "use_clockid", 25, 1 },
	{ "context_switch", 26, 1 }, { "write_backward", 27, 1 }, { "namespaces", 28, 1 },
	{ "ksymbol", 29, 1 }, { "bpf_event", 30, 1 }, { "aux_output", 31, 1 }, { "cgroup", 32, 1 },
	{ "text_poke", 33, 1 }, { "build_id", 34, 1 }, { "inherit_thread", 35, 1 },
	{ "remove_on_exec", 36, 1 }, { "sigtrap", 37, 1 },
};
#define BITS_RESERVED_SHIFT 38
#define BIT_FREQ 10
#define BIT_WATERMARK 14

enum attr_fmt { F_U, F_X, F_D, F_ENUM, F_FLAGS, F_TYPE, F_CONFIG, F_BITS };

/*
 * A field of the attr.  Union members are chosen as the kernel reads them:
 * sample_freq when freq is set, wakeup_watermark when watermark is, the
 * breakpoint names for PERF_TYPE_BREAKPOINT (alt_name), the config names
 * otherwise.
 */
struct attr_field {
	const char *name, *alt_name;
	uint16_t offset, size;
	enum attr_fmt fmt;
	const struct sym *syms;
	int alt_when;	/* ALT_*: when alt_name applies */
};

enum { ALT_NEVER, ALT_FREQ, ALT_WATERMARK, ALT_BREAKPOINT };

static const struct attr_field attr_fields[] = {
	{ "type", NULL, 0, 4, F_TYPE, perf_types, ALT_NEVER },
	{ "size", NULL, 4, 4, F_U, NULL, ALT_NEVER },
	{ "config", NULL, 8, 8, F_CONFIG, NULL, ALT_NEVER },
	{ "sample_period", "sample_freq", 16, 8, F_U, NULL, ALT_FREQ },
	{ "sample_type", NULL, 24, 8, F_FLAGS, perf_sample_bits, ALT_NEVER },
	{ "read_format", NULL, 32, 8, F_FLAGS, perf_read_format_bits, ALT_NEVER },
	{ "bits", NULL, 40, 8, F_BITS, NULL, ALT_NEVER },
	{ "wakeup_events", "wakeup_watermark", 48, 4, F_U, NULL, ALT_WATERMARK },
	{ "bp_type", NULL, 52, 4, F_ENUM, hw_breakpoint_types, ALT_NEVER },
	{ "config1", "bp_addr", 56, 8, F_X, NULL, ALT_BREAKPOINT },
	{ "config2", "bp_len", 64, 8, F_X, NULL, ALT_BREAKPOINT },
	{ "branch_sample_type", NULL, 72, 8, F_FLAGS, perf_branch_bits, ALT_NEVER },
	{ "sample_regs_user", NULL, 80, 8, F_X, NULL, ALT_NEVER },
	{ "sample_stack_user", NULL, 88, 4, F_U, NULL, ALT_NEVER },
	{ "clockid", NULL, 92, 4, F_D, NULL, ALT_NEVER },
	{ "sample_regs_intr", NULL, 96, 8, F_X, NULL, ALT_NEVER },
	{ "aux_watermark", NULL, 104, 4, F_U, NULL, ALT_NEVER },
	{ "sample_max_stack", NULL, 108, 2, F_U, NULL, ALT_NEVER },
	{ "__reserved_2", NULL, 110, 2, F_X, NULL, ALT_NEVER },
	{ "aux_sample_size", NULL, 112, 4, F_U, NULL, ALT_NEVER },
	{ "__reserved_3", NULL, 116, 4, F_X, NULL, ALT_NEVER },
	{ "sig_data", NULL, 120, 8, F_X, NULL, ALT_NEVER },
	{ "config3", NULL, 128, 8, F_X, NULL, ALT_NEVER },
};

#define CHECK_OFF(field, off) _Static_assert(offsetof(struct perf_event_attr, field) == (off), #field)
CHECK_OFF(type, 0);
CHECK_OFF(size, 4);
CHECK_OFF(config, 8);
CHECK_OFF(sample_period, 16);
CHECK_OFF(sample_type, 24);
CHECK_OFF(read_format, 32);
CHECK_OFF(wakeup_events, 48);
CHECK_OFF(bp_type, 52);
CHECK_OFF(config1, 56);
CHECK_OFF(config2, 64);
CHECK_OFF(branch_sample_type, 72);
CHECK_OFF(sample_regs_user, 80);
CHECK_OFF(sample_stack_user, 88);
CHECK_OFF(clockid, 92);
CHECK_OFF(sample_regs_intr, 96);
CHECK_OFF(aux_watermark, 104);
CHECK_OFF(sample_max_stack, 108);
CHECK_OFF(aux_sample_size, 112);
CHECK_OFF(sig_data, 120);

static uint64_t get_le(const uint8_t *p, unsigned int size)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static const char *sym_name(const struct sym *s, uint64_t v)
{
	for (; s && s->name; s++)
		if (s->value == v)
			return s->name;
	return NULL;
}

/* "A|B|0x40" for the bits of v, "0" for none (the JSON flags convention). */
static void flags_string(const struct sym *s, uint64_t v, char *buf, size_t size)
{
	uint64_t left = v;
	size_t used = 0;

	buf[0] = '\0';
	if (!v) {
		snprintf(buf, size, "0");
		return;
	}
	for (; s && s->name; s++) {
		if (!s->value || (v & s->value) != s->value)
			continue;
		used += snprintf(buf + used, used < size ? size - used : 0, "%s%s", used ? "|" : "",
				 s->name);
		left &= ~s->value;
	}
	if (left)
		snprintf(buf + (used < size ? used : size - 1), used < size ? size - used : 1,
			 "%s%#" PRIx64, used ? "|" : "", left);
}

static const char *field_name(const struct attr_field *f, uint32_t type, uint64_t bits)
{
	switch (f->alt_when) {
	case ALT_FREQ:
		return bits >> BIT_FREQ & 1 ? f->alt_name : f->name;
	case ALT_WATERMARK:
		return bits >> BIT_WATERMARK & 1 ? f->alt_name : f->name;
	case ALT_BREAKPOINT:
		return type == PERF_TYPE_BREAKPOINT ? f->alt_name : f->name;
	}
	return f->name;
}

/* The name of a config value, for the types whose configs have names. */
static const char *config_name(uint32_t type, uint64_t config)
{
	if (type == PERF_TYPE_HARDWARE)
		return sym_name(perf_hw_ids, config);
	if (type == PERF_TYPE_SOFTWARE)
		return sym_name(perf_sw_ids, config);
	return NULL;
}

/* One field of a perf_event_attr, decoded for its two layouts. */
struct perf_value {
	const char *name;
	enum { PV_BITS, PV_STR, PV_INT, PV_SYM, PV_HEX, PV_U64 } kind;
	uint64_t v;		/* PV_INT: the int32_t, sign-extended */
	const char *str;	/* PV_STR: the flags; PV_SYM: the value's name */
};

typedef void (*perf_value_fn)(void *ctx, const struct perf_value *pv);

/*
 * Every field of the attr within the bytes captured and within the size it
 * declares (0 means PERF_ATTR_SIZE_VER0, as the kernel reads it), in order.
 * Returns the number of bytes captured past the declared size.
 */
static size_t perf_attr_walk(const void *data, size_t len, perf_value_fn fn, void *ctx)
{
	const uint8_t *p = data;
	uint32_t type, declared;
	uint64_t bits = 0;
	size_t limit, i;
	char buf[512];

	if (len < 8)
		return 0;
	type = (uint32_t)get_le(p, 4);
	declared = (uint32_t)get_le(p + 4, 4);
	limit = declared ? declared : PERF_ATTR_SIZE_VER0;
	if (limit > len)
		limit = len;
	if (limit >= 48)
		bits = get_le(p + 40, 8);
	for (i = 0; i < sizeof(attr_fields) / sizeof(attr_fields[0]); i++) {
		const struct attr_field *f = &attr_fields[i];
		struct perf_value pv = { .name = field_name(f, type, bits) };

		if (f->offset + f->size > limit)
			break;
		pv.v = get_le(p + f->offset, f->size);
		if (f->name[0] == '_' && !pv.v)
			continue;	/* reserved and zero */
		if (!strcmp(f->name, "bp_type") && type != PERF_TYPE_BREAKPOINT && !pv.v)
			continue;	/* bp_type means nothing for other types */
		switch (f->fmt) {
		case F_BITS:
			pv.kind = PV_BITS;
			break;
		case F_FLAGS:
			flags_string(f->syms, pv.v, buf, sizeof(buf));
			pv.kind = PV_STR;
			pv.str = buf;
			break;
		case F_TYPE:
		case F_ENUM:
			pv.str = sym_name(f->syms, pv.v);
			pv.kind = pv.str ? PV_SYM : PV_U64;
			break;
		case F_CONFIG:
			pv.str = config_name(type, pv.v);
			pv.kind = pv.str ? PV_SYM : PV_U64;
			break;
		case F_D:
			pv.kind = PV_INT;
			pv.v = (uint64_t)(int64_t)(int32_t)pv.v;
			break;
		case F_X:
			pv.kind = PV_HEX;
			break;
		case F_U:
			pv.kind = PV_U64;
			break;
		}
		fn(ctx, &pv);
	}
	return len - limit;
}

struct perf_text {
	FILE *f;
	const char *indent;
	const struct dump_perf_symbols *ps;	/* what type, config, config2 named; NULL: nothing */
};

/* "bits: disabled|precise_ip=2 (0x...)": the flag bits set, by name */
static void perf_text_bits(const struct perf_text *pt, uint64_t v)
{
	size_t used = 0, b;
	char buf[512];

	buf[0] = '\0';
	for (b = 0; b < DUMP_PERF_ATTR_NR_BITS; b++) {
		const struct dump_perf_attr_bit *fb = &dump_perf_attr_bits[b];
		uint64_t bv = v >> fb->bit & ((1u << fb->width) - 1);

		if (bv && used < sizeof(buf))
			used += snprintf(buf + used, sizeof(buf) - used, "%s%s", used ? "|" : "", fb->name);
		if (bv && fb->width > 1 && used < sizeof(buf))
			used += snprintf(buf + used, sizeof(buf) - used, "=%" PRIu64, bv);
	}
	if (v >> BITS_RESERVED_SHIFT && used < sizeof(buf))
		snprintf(buf + used, sizeof(buf) - used, "%s__reserved_1=%#" PRIx64, used ? "|" : "",
			 v >> BITS_RESERVED_SHIFT);
	if (v)
		fprintf(pt->f, "%sbits: %s (%#" PRIx64 ")\n", pt->indent, buf, v);
	else
		fprintf(pt->f, "%sbits: 0\n", pt->indent);
}

/* What the recording kernel's number in field name named, or NULL. */
static const struct bpfrr_rec_symbol *perf_text_symbol(const struct perf_text *pt, const char *name)
{
	if (!pt->ps)
		return NULL;
	if (!strcmp(name, "type"))
		return pt->ps->type;
	if (!strcmp(name, "config"))
		return pt->ps->config;
	if (!strcmp(name, "config2"))
		return pt->ps->config2;
	return NULL;
}

static void perf_text_value(void *ctx, const struct perf_value *pv)
{
	const struct perf_text *pt = ctx;
	const struct bpfrr_rec_symbol *s;
	char sym[256];

	switch (pv->kind) {
	case PV_BITS:
		perf_text_bits(pt, pv->v);
		return;
	case PV_STR:
		fprintf(pt->f, "%s%s: %s", pt->indent, pv->name, pv->str);
		break;
	case PV_INT:
		fprintf(pt->f, "%s%s: %" PRId64, pt->indent, pv->name, (int64_t)pv->v);
		break;
	case PV_SYM:
		fprintf(pt->f, "%s%s: %s (%" PRIu64 ")", pt->indent, pv->name, pv->str, pv->v);
		break;
	case PV_HEX:
		fprintf(pt->f, "%s%s: %#" PRIx64, pt->indent, pv->name, pv->v);
		break;
	case PV_U64:
		fprintf(pt->f, "%s%s: %" PRIu64, pt->indent, pv->name, pv->v);
		break;
	}
	s = perf_text_symbol(pt, pv->name);
	if (s) {
		dump_symbol_text(s, sym, sizeof(sym));
		fprintf(pt->f, " (%s)", sym);
	}
	fputc('\n', pt->f);
}

void dump_perf_attr_text(FILE *f, const void *data, size_t len, const char *indent,
			 const struct dump_perf_symbols *ps)
{
	struct perf_text pt = { .f = f, .indent = indent, .ps = ps };
	size_t past = perf_attr_walk(data, len, perf_text_value, &pt);

	if (past)
		fprintf(f, "%s(%zu bytes past the declared size)\n", indent, past);
}

static void perf_json_value(void *ctx, const struct perf_value *pv)
{
	struct json_out *j = ctx;
	size_t b;

	switch (pv->kind) {
	case PV_BITS:
		/* each flag bit its own key, 0 or 1, as in the struct */
		for (b = 0; b < DUMP_PERF_ATTR_NR_BITS; b++) {
			const struct dump_perf_attr_bit *fb = &dump_perf_attr_bits[b];

			json_u64(j, fb->name, pv->v >> fb->bit & ((1u << fb->width) - 1));
		}
		if (pv->v >> BITS_RESERVED_SHIFT)
			json_u64(j, "__reserved_1", pv->v >> BITS_RESERVED_SHIFT);
		return;
	case PV_STR:
	case PV_SYM:
		json_str(j, pv->name, pv->str);
		return;
	case PV_INT:
		json_i64(j, pv->name, (int64_t)pv->v);
		return;
	case PV_HEX:
	case PV_U64:
		json_u64(j, pv->name, pv->v);
		return;
	}
}

void dump_perf_attr_json(struct json_out *j, const void *data, size_t len)
{
	if (len < 8)
		return;
	json_obj_begin(j, "fields");
	perf_attr_walk(data, len, perf_json_value, j);
	json_obj_end(j);
}

/* --- syscall parameters: as the rows of lib/sys_abi.h name and type them ---------------- */

static const struct sym perf_open_flags[] = {
	SYM(PERF_FLAG_FD_NO_GROUP), SYM(PERF_FLAG_FD_OUTPUT), SYM(PERF_FLAG_PID_CGROUP),
	SYM(PERF_FLAG_FD_CLOEXEC), { 0, NULL },
};

static const struct sym fd_flags[] = { { 1, "FD_CLOEXEC" }, { 0, NULL } };
static const struct sym o_cloexec[] = { { 02000000, "O_CLOEXEC" }, { 0, NULL } };
static const struct sym close_range_flags[] = {
	{ 1u << 1, "CLOSE_RANGE_UNSHARE" }, { 1u << 2, "CLOSE_RANGE_CLOEXEC" }, { 0, NULL },
};

/* The O_* bits both architectures share (asm-generic values). */
static const struct sym open_flags_common[] = {
	{ 01, "O_WRONLY" }, { 02, "O_RDWR" }, { 0100, "O_CREAT" }, { 0200, "O_EXCL" },
	{ 0400, "O_NOCTTY" }, { 01000, "O_TRUNC" }, { 02000, "O_APPEND" }, { 04000, "O_NONBLOCK" },
	{ 010000, "O_DSYNC" }, { 020000, "O_ASYNC" }, { 01000000, "O_NOATIME" },
	{ 02000000, "O_CLOEXEC" }, { 04000000, "__O_SYNC" }, { 010000000, "O_PATH" },
	{ 020000000, "__O_TMPFILE" }, { 0, NULL },
};

/* The four bits x86_64 (asm-generic) and aarch64 place differently. */
static const struct sym open_flags_x86_64[] = {
	{ 040000, "O_DIRECT" }, { 0100000, "O_LARGEFILE" }, { 0200000, "O_DIRECTORY" },
	{ 0400000, "O_NOFOLLOW" }, { 0, NULL },
};

static const struct sym open_flags_aarch64[] = {
	{ 040000, "O_DIRECTORY" }, { 0100000, "O_NOFOLLOW" }, { 0200000, "O_DIRECT" },
	{ 0400000, "O_LARGEFILE" }, { 0, NULL },
};

/* The row of a call dump describes: every row but bpf()'s (BPF_CALL records). */
static const struct bpfrr_sys_desc *sys_desc_of(const char *name)
{
	const struct bpfrr_sys_desc *d = bpfrr_sys_by_name(name);

	return d && !(d->flags & BPFRR_SYSF_BPF_CALL) ? d : NULL;
}

/* O_RDONLY when no access bit is set, then the other bits by name. */
static void open_flags_string(uint64_t v, uint32_t e_machine, char *buf, size_t size)
{
	const struct sym *arch = e_machine == EM_AARCH64_NR ? open_flags_aarch64 :
				 e_machine == EM_X86_64_NR ? open_flags_x86_64 : NULL;
	uint64_t left = v;
	size_t used;
	int pass;

	used = snprintf(buf, size, "%s", (v & 3) ? "" : "O_RDONLY");
	for (pass = 0; pass < 2; pass++) {
		const struct sym *s = pass ? arch : open_flags_common;

		for (; s && s->name; s++) {
			if ((v & s->value) != s->value)
				continue;
			used += snprintf(buf + used, used < size ? size - used : 0, "%s%s", used ? "|" : "",
					 s->name);
			left &= ~s->value;
		}
	}
	if (left && used < size)
		snprintf(buf + used, size - used, "%s%#" PRIo64, used ? "|" : "", left);
}

/*
 * One parameter's value: *is_num says whether it is a number (json: i64 when
 * signed, else u64) or the string in buf.
 */
static void param_value(const struct bpfrr_sys_desc *d, unsigned int kind, uint64_t raw, uint32_t e_machine,
			char *buf, size_t size, bool *is_num, bool *is_signed)
{
	const struct bpfrr_sys_sub *sub;

	*is_num = false;
	*is_signed = false;
	switch ((enum bpfrr_sys_arg_kind)kind) {
	case BPFRR_SYS_ARG_DIRFD:
		if ((int32_t)raw == -100) {
			snprintf(buf, size, "AT_FDCWD");
			return;
		}
		/* fall through */
	case BPFRR_SYS_ARG_FD:
	case BPFRR_SYS_ARG_INT:
		*is_num = *is_signed = true;
		snprintf(buf, size, "%d", (int32_t)raw);
		return;
	case BPFRR_SYS_ARG_UINT:
		*is_num = true;
		snprintf(buf, size, "%u", (uint32_t)raw);
		return;
	case BPFRR_SYS_ARG_ULONG:
		*is_num = true;
		snprintf(buf, size, "%" PRIu64, raw);
		return;
	case BPFRR_SYS_ARG_PTR:
		*is_num = true;
		snprintf(buf, size, "%#" PRIx64, raw);
		return;
	case BPFRR_SYS_ARG_PERF_FLAGS:
		flags_string(perf_open_flags, raw, buf, size);
		return;
	case BPFRR_SYS_ARG_OPEN_FLAGS:
		open_flags_string((uint32_t)raw, e_machine, buf, size);
		return;
	case BPFRR_SYS_ARG_MODE:
		snprintf(buf, size, "%#" PRIo64, (uint64_t)(uint32_t)raw);
		return;
	case BPFRR_SYS_ARG_CMD:
		sub = bpfrr_sys_sub_of(d, raw);
		if (sub)
			snprintf(buf, size, "%s", sub->name);
		else
			snprintf(buf, size, "%u", (uint32_t)raw);
		return;
	case BPFRR_SYS_ARG_FD_FLAGS:
		flags_string(fd_flags, raw, buf, size);
		return;
	case BPFRR_SYS_ARG_O_CLOEXEC:
		flags_string(o_cloexec, (uint32_t)raw, buf, size);
		return;
	case BPFRR_SYS_ARG_CLOSE_RANGE_FLAGS:
		flags_string(close_range_flags, (uint32_t)raw, buf, size);
		return;
	case BPFRR_SYS_ARG_REQUEST:
		/* the kernel takes an unsigned int; the filter compares the low 32 bits */
		sub = bpfrr_sys_sub_of(d, raw);
		if (sub)
			snprintf(buf, size, "%s", sub->name);
		else
			snprintf(buf, size, "%#x", (uint32_t)raw);
		return;
	case BPFRR_SYS_ARG_HEX:
		*is_num = true;
		snprintf(buf, size, "%#" PRIx64, raw);
		return;
	case BPFRR_SYS_ARG_NONE:
	case BPFRR_SYS_ARG__MAX:
		break;
	}
	snprintf(buf, size, "%#" PRIx64, raw);
	*is_num = true;
}

const char *dump_sys_names(void)
{
	static char names[256];
	size_t used = 0;
	unsigned int id;

	if (names[0])
		return names;
	for (id = BPFRR_SYS_NONE + 1; id < BPFRR_SYS__MAX && used < sizeof(names); id++) {
		const char *name = bpfrr_sys_name((enum bpfrr_sys)id);

		if (sys_desc_of(name))
			used += snprintf(names + used, sizeof(names) - used, "%s%s", used ? ", " : "", name);
	}
	return names;
}

unsigned int dump_sys_nr_args(const char *name)
{
	const struct bpfrr_sys_desc *d = sys_desc_of(name);

	return d ? d->nr_args : 6;
}

/* One parameter, decoded for its two layouts. */
struct param_value {
	const char *name;
	const char *text;	/* as text shows it */
	enum { PARAM_STR, PARAM_INT, PARAM_UINT } kind;	/* as JSON shows it: text, or the number */
	uint64_t num;		/* PARAM_INT: sign-extended */
};

typedef void (*param_value_fn)(void *ctx, unsigned int i, const struct param_value *pv);

/* The parameters of a syscall the table describes, in order; false for another. */
static bool sys_params_walk(const char *name, uint32_t e_machine, const uint64_t args[6], param_value_fn fn,
			    void *ctx)
{
	const struct bpfrr_sys_desc *d = sys_desc_of(name);
	const struct bpfrr_sys_sub *sub = bpfrr_sys_sub(d, args);
	unsigned int i;
	char buf[256];

	if (!d)
		return false;
	for (i = 0; i < d->nr_args; i++) {
		const struct bpfrr_sys_param *p = &d->params[i];
		unsigned int kind = p->kind;
		struct param_value pv;
		bool is_num, is_signed;

		/* the argument after a selector prints as its sub-row says (fcntl's, ioctl's arg) */
		if (sub && (int)i == d->sub_arg + 1)
			kind = sub->arg_kind;
		param_value(d, kind, args[i], e_machine, buf, sizeof(buf), &is_num, &is_signed);
		pv.name = p->name;
		pv.text = buf;
		if (!is_num) {
			pv.kind = PARAM_STR;
			pv.num = 0;
		} else if (is_signed) {
			pv.kind = PARAM_INT;
			pv.num = (uint64_t)(int64_t)(int32_t)args[i];
		} else {
			pv.kind = PARAM_UINT;
			pv.num = kind == BPFRR_SYS_ARG_UINT ? (uint32_t)args[i] : args[i];
		}
		fn(ctx, i, &pv);
	}
	return true;
}

static void param_text(void *ctx, unsigned int i, const struct param_value *pv)
{
	fprintf(ctx, "%s%s=%s", i ? ", " : "", pv->name, pv->text);
}

void dump_sys_args_text(FILE *f, const char *name, uint32_t e_machine, const uint64_t args[6])
{
	unsigned int i;

	if (sys_params_walk(name, e_machine, args, param_text, f))
		return;
	/* a call the table does not know: its six raw arguments */
	for (i = 0; i < 6; i++)
		fprintf(f, "%s%#" PRIx64, i ? ", " : "", args[i]);
}

static void param_json(void *ctx, unsigned int i, const struct param_value *pv)
{
	struct json_out *j = ctx;

	(void)i;
	switch (pv->kind) {
	case PARAM_STR:
		json_str(j, pv->name, pv->text);
		return;
	case PARAM_INT:
		json_i64(j, pv->name, (int64_t)pv->num);
		return;
	case PARAM_UINT:
		json_u64(j, pv->name, pv->num);
		return;
	}
}

void dump_sys_args_json(struct json_out *j, const char *name, uint32_t e_machine, const uint64_t args[6])
{
	/* nothing for a call the table does not know */
	if (!sys_desc_of(name))
		return;
	json_obj_begin(j, "params");
	sys_params_walk(name, e_machine, args, param_json, j);
	json_obj_end(j);
}

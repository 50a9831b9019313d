// SPDX-License-Identifier: GPL-2.0-only
/*
 * Translator output: `--format header` (replayer/translate/out_header.c) and its
 * runtime (replayer/runtime/header_runtime.h).  The header of each committed trace
 * holds what the plan and the code generator make for the assumed caps
 * (loader sizes, user-space steps, kfunc calls, slots); the runtime's raw
 * BTF scan finds the ids libbpf finds; slot names become unique C
 * identifiers.  Host only, no bpf(): the runtime's syscalls are not made.
 * (tests/host/translate-header.t compiles the headers with gcc and clang.)
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "codegen.h"
#include "frontend.h"
#include "header_runtime.h"
#include "out_header.h"
#include "plan.h"
#include "../guest/replay-sample.h"
/* only its 1.1 trace is used here */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "../data/synth_trace.h"
#pragma GCC diagnostic pop

static char data_dir[4096];

static void find_data_dir(void)
{
	char here[4096];

	snprintf(here, sizeof(here), "%s", __FILE__);
	snprintf(data_dir, sizeof(data_dir), "%s/../data", dirname(here));
}

/* --- the BTF scan -------------------------------------------------------------------------- */

/* BTF with every kind the scan must step over, and FUNCs among them. */
static struct btf *sample_btf(void)
{
	struct btf *btf = btf__new_empty();
	int i_int, i_ptr, s, e, proto, v;

	ck_assert_ptr_nonnull(btf);
	i_int = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	ck_assert_int_gt(i_int, 0);
	i_ptr = btf__add_ptr(btf, i_int);
	ck_assert_int_gt(btf__add_array(btf, i_int, i_int, 4), 0);
	s = btf__add_struct(btf, "pair", 8);
	ck_assert_int_eq(btf__add_field(btf, "a", i_int, 0, 0), 0);
	ck_assert_int_eq(btf__add_field(btf, "b", i_int, 32, 0), 0);
	ck_assert_int_gt(btf__add_union(btf, "either", 4), 0);
	ck_assert_int_eq(btf__add_field(btf, "x", i_int, 0, 0), 0);
	e = btf__add_enum(btf, "colour", 4);
	ck_assert_int_eq(btf__add_enum_value(btf, "RED", 0), 0);
	ck_assert_int_eq(btf__add_enum_value(btf, "GREEN", 1), 0);
	ck_assert_int_gt(btf__add_fwd(btf, "later", BTF_FWD_STRUCT), 0);
	ck_assert_int_gt(btf__add_typedef(btf, "pair_t", s), 0);
	ck_assert_int_gt(btf__add_volatile(btf, i_int), 0);
	ck_assert_int_gt(btf__add_const(btf, i_int), 0);
	ck_assert_int_gt(btf__add_restrict(btf, i_ptr), 0);
	proto = btf__add_func_proto(btf, i_int);
	ck_assert_int_eq(btf__add_func_param(btf, "p", i_ptr), 0);
	ck_assert_int_eq(btf__add_func_param(btf, "c", e), 0);
	/* a longer name with the kfunc's as a prefix comes first */
	ck_assert_int_gt(btf__add_func(btf, "bpf_perf_event_open_not", BTF_FUNC_GLOBAL, proto), 0);
	v = btf__add_var(btf, "counter", BTF_VAR_GLOBAL_ALLOCATED, i_int);
	ck_assert_int_gt(btf__add_datasec(btf, ".data", 4), 0);
	ck_assert_int_eq(btf__add_datasec_var_info(btf, v, 0, 4), 0);
	ck_assert_int_gt(btf__add_float(btf, "double", 8), 0);
	ck_assert_int_gt(btf__add_decl_tag(btf, "tagged", s, 0), 0);
	ck_assert_int_gt(btf__add_type_tag(btf, "user", i_int), 0);
	ck_assert_int_gt(btf__add_enum64(btf, "big", 8, false), 0);
	ck_assert_int_eq(btf__add_enum64_value(btf, "HUGE", 1ull << 40), 0);
	ck_assert_int_gt(btf__add_func(btf, "helper_one", BTF_FUNC_STATIC, proto), 0);
	ck_assert_int_gt(btf__add_func(btf, "bpf_perf_event_open", BTF_FUNC_GLOBAL, proto), 0);
	ck_assert_int_gt(btf__add_func(btf, "helper_two", BTF_FUNC_GLOBAL, proto), 0);
	return btf;
}

START_TEST(btf_scan_finds_what_libbpf_finds)
{
	static const char *const names[] = { "bpf_perf_event_open", "bpf_perf_event_open_not", "helper_one",
					     "helper_two" };
	struct btf *btf = sample_btf();
	const uint8_t *raw;
	uint8_t *copy;
	uint32_t len;
	size_t i;

	raw = btf__raw_data(btf, &len);
	ck_assert_ptr_nonnull(raw);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int want = btf__find_by_name_kind(btf, names[i], BTF_KIND_FUNC);

		ck_assert_int_gt(want, 0);
		ck_assert_int_eq(bpfrr_rt_btf_find_func(raw, len, names[i]), want);
	}
	/* a FUNC only: "pair" is a struct, "int" an int */
	ck_assert_int_eq(bpfrr_rt_btf_find_func(raw, len, "pair"), -ENOENT);
	ck_assert_int_eq(bpfrr_rt_btf_find_func(raw, len, "bpf_perf_event"), -ENOENT);
	ck_assert_int_eq(bpfrr_rt_btf_find_func(raw, len, "nowhere"), -ENOENT);

	/* not BTF, or cut short */
	copy = malloc(len);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, raw, len);
	ck_assert_int_eq(bpfrr_rt_btf_find_func(copy, 10, "helper_one"), -EINVAL);
	ck_assert_int_eq(bpfrr_rt_btf_find_func(copy, len - 1, "helper_one"), -EINVAL);
	copy[0] ^= 0xff;
	ck_assert_int_eq(bpfrr_rt_btf_find_func(copy, len, "helper_one"), -EINVAL);
	copy[0] ^= 0xff;
	/* an unknown kind before the name: the scan cannot step over it */
	{
		struct btf_header h;
		struct btf_type t;

		memcpy(&h, copy, sizeof(h));
		memcpy(&t, copy + h.hdr_len + h.type_off, sizeof(t));
		t.info = (t.info & ~(0x1fu << 24)) | (31u << 24);
		memcpy(copy + h.hdr_len + h.type_off, &t, sizeof(t));
		ck_assert_int_eq(bpfrr_rt_btf_find_func(copy, len, "helper_one"), -EINVAL);
	}
	free(copy);
	btf__free(btf);
}
END_TEST

/* The host's own vmlinux BTF, when it has one (a file read, no bpf()). */
START_TEST(btf_scan_on_vmlinux)
{
	struct btf *btf = btf__parse_raw(BPFRR_RT_VMLINUX_BTF);
	uint8_t *data = NULL;
	uint32_t id, n, checked = 0;
	size_t len = 0;

	if (!btf) {
		printf("btf_scan_on_vmlinux: no readable %s on this host: not compared\n", BPFRR_RT_VMLINUX_BTF);
		return;
	}
	ck_assert_int_eq(bpfrr_rt_read_file(BPFRR_RT_VMLINUX_BTF, &data, &len), 0);
	n = btf__type_cnt(btf);
	/* every 97th FUNC, and the last one */
	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name;

		/* a BTF_ID resolution's kinds: the scan agrees with libbpf on those too */
		if (btf_kind(t) == BTF_KIND_VAR || btf_kind(t) == BTF_KIND_STRUCT) {
			name = btf__name_by_offset(btf, t->name_off);
			if (name[0] && !(id % 89))
				ck_assert_int_eq(bpfrr_rt_btf_find(data, len, name, btf_kind(t)),
						 btf__find_by_name_kind(btf, name, btf_kind(t)));
		}
		if (btf_kind(t) != BTF_KIND_FUNC || (id % 97 && id != n - 1))
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		ck_assert_int_eq(bpfrr_rt_btf_find_func(data, len, name),
				 btf__find_by_name_kind(btf, name, BTF_KIND_FUNC));
		/* the strings-only pre-check finds every name that has a type */
		if (checked < 20)
			ck_assert_int_eq(bpfrr_rt_btf_has_string(BPFRR_RT_VMLINUX_BTF, name), 1);
		checked++;
	}
	ck_assert_uint_gt(checked, 0);
	ck_assert_int_eq(bpfrr_rt_btf_has_string(BPFRR_RT_VMLINUX_BTF, "bpfrr_no_such_kfunc"), 0);
	ck_assert_int_eq(bpfrr_rt_kfunc_btf_id("bpfrr_no_such_kfunc"), -ENOENT);
	ck_assert_int_eq(bpfrr_rt_btf_has_string("/dev/null", "x"), -EINVAL);
	free(data);
	btf__free(btf);
}
END_TEST

/* --- resolutions ---------------------------------------------------------------------------- */

START_TEST(resolutions_checked)
{
	uint8_t attr[16] = { 0 };
	struct bpfrr_rt_resolve rs = { .seq = 7, .kind = BPFRR_RT_RESOLVE_TP_ID, .offset = 12, .size = 8,
				       .name = "syscalls/sys_enter_openat", .buf = BPFRR_RT_IN_ATTR };
	uint64_t seq = 0;

	/* out of the attr: refused before any file is read */
	ck_assert_int_eq(bpfrr_rt_apply_resolves(attr, sizeof(attr), NULL, 0, &rs, 1, &seq), -EINVAL);
	ck_assert_uint_eq(seq, 7);
	rs.offset = 8;
	rs.size = 3;
	seq = 0;
	ck_assert_int_eq(bpfrr_rt_apply_resolves(attr, sizeof(attr), NULL, 0, &rs, 1, &seq), -EINVAL);
	ck_assert_uint_eq(seq, 7);
	/* in a user image the loader does not have; in a buffer (loaders have none) */
	rs.size = 8;
	rs.buf = BPFRR_RT_IN_USER;
	ck_assert_int_eq(bpfrr_rt_apply_resolves(attr, sizeof(attr), NULL, 0, &rs, 1, &seq), -EINVAL);
	rs.buf = 0;
	ck_assert_int_eq(bpfrr_rt_apply_resolves(attr, sizeof(attr), NULL, 0, &rs, 1, &seq), -EINVAL);
	/* names that would leave tracefs or sysfs */
	{
		char where[64];
		uint64_t v;

		ck_assert_int_eq(bpfrr_rt_resolve_value(BPFRR_RT_RESOLVE_TP_ID, "../../etc", &v, where,
							sizeof(where)), -EINVAL);
		ck_assert_int_eq(bpfrr_rt_resolve_value(BPFRR_RT_RESOLVE_PMU_TYPE, "/etc/passwd", &v, where,
							sizeof(where)), -EINVAL);
		ck_assert_int_eq(bpfrr_rt_resolve_value(99, "kprobe", &v, where, sizeof(where)), -EINVAL);
	}
}
END_TEST

/* --- the kernel's kind ------------------------------------------------------------------------ */

START_TEST(kernel_list_checked)
{
	static const char list[] = BPFRR_CAPS_SERIES_LIST;
	static const struct bpfrr_rt_need raw_tp_in_blob[] = {
		{ BPF_PROG_LOAD, NULL, 0 }, { BPF_PROG_LOAD, "insns", 1 }, { BPF_PROG_LOAD, "log_buf", 0 },
		{ BPF_RAW_TRACEPOINT_OPEN, NULL, 0 }, { BPF_RAW_TRACEPOINT_OPEN, "raw_tracepoint.name", 1 },
	};
	static const struct bpfrr_rt_need raw_tp_in_user[] = {
		{ BPF_RAW_TRACEPOINT_OPEN, NULL, 0 }, { BPF_RAW_TRACEPOINT_OPEN, "raw_tracepoint.name", 0 },
	};
	static const struct bpfrr_rt_need not_listed[] = { { BPF_PROG_QUERY, NULL, 0 } };
	static const struct bpfrr_rt_need log_in_blob[] = { { BPF_PROG_LOAD, "log_buf", 1 } };

	ck_assert_int_eq(bpfrr_rt_list_has(list, BPF_MAP_CREATE, NULL), 1);
	ck_assert_int_eq(bpfrr_rt_list_has(list, BPF_PROG_LOAD, "insns"), 1);
	ck_assert_int_eq(bpfrr_rt_list_has(list, BPF_PROG_LOAD, "core_relos"), 1);
	ck_assert_int_eq(bpfrr_rt_list_has(list, BPF_PROG_LOAD, "insn"), 0);
	ck_assert_int_eq(bpfrr_rt_list_has(list, BPF_PROG_LOAD, "log_buf"), 0);
	ck_assert_int_eq(bpfrr_rt_list_has(list, BPF_PROG_LOAD, "BPF_PROG_LOAD"), 0);
	ck_assert_int_eq(bpfrr_rt_list_has(list, BPF_LINK_CREATE, "link_create.iter_info"), 1);
	ck_assert_int_eq(bpfrr_rt_list_has(list, BPF_PROG_QUERY, NULL), 0);
	ck_assert_int_eq(bpfrr_rt_list_has(list, BPF_PROG_BIND_MAP, NULL), 1);
	ck_assert_int_eq(bpfrr_rt_list_has("5 BPF_PROG_LOAD insns", BPF_PROG_LOAD, "insns"), 1);
	ck_assert_int_eq(bpfrr_rt_list_has("", BPF_MAP_CREATE, NULL), 0);

	ck_assert(bpfrr_rt_needs_met(raw_tp_in_blob, 5, list));
	/* a stock header's raw tracepoint name in user memory: the series reads it as a kernel address */
	ck_assert(!bpfrr_rt_needs_met(raw_tp_in_user, 2, list));
	ck_assert(!bpfrr_rt_needs_met(not_listed, 1, list));
	ck_assert(!bpfrr_rt_needs_met(log_in_blob, 1, list));
	ck_assert(bpfrr_rt_needs_met(NULL, 0, list));
}
END_TEST

/* --- names ---------------------------------------------------------------------------------- */

START_TEST(slot_names_become_identifiers)
{
	char buf[64];

	bpfrr_header_ident("map.counts", buf, sizeof(buf));
	ck_assert_str_eq(buf, "map_counts");
	bpfrr_header_ident("perf_event.syscalls/sys_enter_openat", buf, sizeof(buf));
	ck_assert_str_eq(buf, "perf_event_syscalls_sys_enter_openat");
	bpfrr_header_ident("prog.tracepoint__syscalls__sys_enter_open", buf, sizeof(buf));
	ck_assert_str_eq(buf, "prog_tracepoint__syscalls__sys_enter_open");
	bpfrr_header_ident("map.fx_attac.rodata", buf, sizeof(buf));
	ck_assert_str_eq(buf, "map_fx_attac_rodata");
	bpfrr_header_ident("link.x.42", buf, sizeof(buf));
	ck_assert_str_eq(buf, "link_x_42");
	bpfrr_header_ident("9lives", buf, sizeof(buf));
	ck_assert_str_eq(buf, "_9lives");
	bpfrr_header_ident("", buf, sizeof(buf));
	ck_assert_str_eq(buf, "_");
	bpfrr_header_ident("map.a-very-long-name", buf, 8);
	ck_assert_str_eq(buf, "map_a_v");
}
END_TEST

/* --- the header against the plan ------------------------------------------------------------ */

static struct bpfrr_ir *trace_ir(const char *name)
{
	struct bpfrr_frontend_opts fo = { 0 };
	struct bpfrr_frontend_result res;
	struct bpfrr_ir *ir;
	char path[4200], err[512];

	snprintf(path, sizeof(path), "%s/traces/%s.trace", data_dir, name);
	ir = bpfrr_frontend_translate(path, &fo, &res, err, sizeof(err));
	ck_assert_msg(ir != NULL, "%s: %s", name, err);
	return ir;
}

static char *header_text(const struct bpfrr_ir *ir, const char *caps)
{
	struct bpfrr_header_opts o = { .name = "hdr", .caps = caps, .source = "test" };
	char *text = NULL, err[512];
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	int ret;

	ck_assert_ptr_nonnull(f);
	ret = bpfrr_header_fwrite(ir, f, &o, err, sizeof(err));
	ck_assert_msg(ret == 0, "%s", err);
	ck_assert_int_eq(fclose(f), 0);
	return text;
}

static void expect(const char *text, const char *trace, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void expect(const char *text, const char *trace, const char *fmt, ...)
{
	char want[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	ck_assert_msg(strstr(text, want) != NULL, "%s: the header has no '%s'", trace, want);
}

static uint32_t count(const char *text, const char *what)
{
	uint32_t n = 0;

	for (text = strstr(text, what); text; text = strstr(text + 1, what))
		n++;
	return n;
}

static void check_header(const char *trace, const char *caps_name)
{
	struct bpfrr_ir *ir = trace_ir(trace);
	char *text = header_text(ir, caps_name), err[256], field[BPFRR_IR_MAX_NAME];
	struct bpfrr_caps caps;
	struct bpfrr_plan plan;
	uint32_t i, k = 0, nr_perf_kernel = 0, nr_kfunc = 0;

	ck_assert_int_eq(bpfrr_caps_assume(&caps, caps_name), 0);
	ck_assert_int_eq(bpfrr_plan_make(ir, &caps, 0, &plan, err, sizeof(err)), 0);
	ck_assert_msg(!strncmp(text, "/* SPDX-License-Identifier: GPL-2.0-only */\n", 44), "%s: SPDX line", trace);
	expect(text, trace, "%u calls, %u in loader programs", ir->nr_calls, plan.nr_kernel);
	expect(text, trace, ".kernel = %s,", !plan.nr_kernel ? "BPFRR_RT_KERNEL_ANY" :
	       !strcmp(caps_name, "patched-6.12") ? "BPFRR_RT_KERNEL_PATCHED" : "BPFRR_RT_KERNEL_STOCK");
	for (i = 0; i < plan.nr_segs; i++) {
		const struct bpfrr_plan_seg *seg = &plan.segs[i];
		struct bpfrr_loader l;
		uint32_t j;

		if (seg->side != BPFRR_SIDE_KERNEL)
			continue;
		ck_assert_int_eq(bpfrr_codegen(ir, &plan.order[seg->first], seg->nr, &caps, 0, &l, err,
					       sizeof(err)), 0);
		expect(text, trace, "static const struct bpf_insn hdr__l%u_insns[%u] = {", k, l.nr_insns);
		expect(text, trace, "static const uint8_t hdr__l%u_blob[%u] = {", k, l.blob_size);
		expect(text, trace, "\t.nr_insns = %u,\n\t.blob = hdr__l%u_blob,\n\t.blob_size = %u,\n", l.nr_insns,
		       k, l.blob_size);
		if (l.user_size)
			expect(text, trace, "static const uint8_t hdr__l%u_user[%u] = {", k, l.user_size);
		expect(text, trace, "\t.ctx_size = %u,\n", l.ctx_size);
		expect(text, trace, "\t{ &hdr__l%u, NULL },\n", k);
		for (j = 0; j < l.nr_insns; j++)
			nr_kfunc += l.insns[j].code == (BPF_JMP | BPF_CALL) &&
				    l.insns[j].src_reg == BPF_PSEUDO_KFUNC_CALL;
		for (j = 0; j < seg->nr; j++)
			nr_perf_kernel += ir->calls[plan.order[seg->first + j]].op == BPFRR_IR_PERF_EVENT_OPEN;
		bpfrr_loader_free(&l);
		k++;
	}
	ck_assert_msg(count(text, "static const struct bpfrr_rt_loader hdr__l") == k, "%s: %u loaders", trace, k);
	ck_assert_uint_eq(count(text, "\t{ NULL, &hdr__c"), plan.nr_user);
	for (i = 0; i < plan.nr_calls; i++)
		if (plan.side[i] == BPFRR_SIDE_USER)
			expect(text, trace, "static const struct bpfrr_rt_call hdr__c%u = {\n\t.seq = %llu,", i,
			       (unsigned long long)ir->calls[i].seq);
	/* every kfunc call is one the runtime patches: bpf_perf_event_open's */
	ck_assert_uint_eq(nr_kfunc, nr_perf_kernel);
	if (nr_kfunc)
		ck_assert_uint_eq(count(text, "_kfunc_calls["), count(text, ".nr_kfunc_calls = "));
	else
		ck_assert_uint_eq(count(text, "_kfunc_calls["), 0);
	/* one struct member per slot, in slot order, the slot's name beside it */
	for (i = 0; i < ir->nr_slots; i++) {
		bpfrr_header_ident(ir->slots[i].name, field, sizeof(field));
		expect(text, trace, "\tint %s", field);
		expect(text, trace, "/* slot %u: %s (", i, ir->slots[i].name);
		expect(text, trace, "\t\t.name = \"%s\",\n", ir->slots[i].name);
	}
	/* a header for the patched kernel suits the series' own list */
	if (!strcmp(caps_name, "patched-6.12") && plan.nr_kernel) {
		struct bpfrr_rt_need needs[64];
		char ptrs[64][64];
		const char *p = strstr(text, "static const struct bpfrr_rt_need hdr__needs[");
		uint32_t nr = 0;

		ck_assert_msg(p != NULL, "%s: no needs", trace);
		for (p = strchr(p, '\n') + 1; strncmp(p, "};", 2) && nr < 64; p = strchr(p, '\n') + 1) {
			unsigned int cmd, in_blob;

			if (sscanf(p, "\t{ %u, \"%63[^\"]\", %u },", &cmd, ptrs[nr], &in_blob) == 3) {
				needs[nr] = (struct bpfrr_rt_need){ cmd, ptrs[nr], in_blob };
			} else {
				ck_assert_int_eq(sscanf(p, "\t{ %u, NULL, %u },", &cmd, &in_blob), 2);
				needs[nr] = (struct bpfrr_rt_need){ cmd, NULL, 0 };
			}
			nr++;
		}
		ck_assert_uint_gt(nr, 0);
		ck_assert_msg(bpfrr_rt_needs_met(needs, nr, BPFRR_CAPS_SERIES_LIST), "%s: needs not met", trace);
	}
	expect(text, trace, "#define hdr__NR_SLOTS %uu\n", ir->nr_slots);
	expect(text, trace, "static inline int hdr__load(struct hdr *obj)");
	expect(text, trace, "static inline void hdr__destroy(struct hdr *obj)");
	ck_assert_uint_eq(count(text, "\tlong long failed_seq;\n"), 1);
	bpfrr_plan_free(&plan);
	free(text);
	bpfrr_ir_free(ir);
}

START_TEST(header_matches_the_plan)
{
	static const char *const traces[] = { "x86_64-fx_onemap", "x86_64-fx_maps", "x86_64-opensnoop",
					      "arm64-fx_attach", "arm64-fx_onemap" };
	static const char *const caps[] = { "stock-6.12", "patched-6.12", "none" };
	size_t i, j;

	for (i = 0; i < sizeof(traces) / sizeof(traces[0]); i++)
		for (j = 0; j < sizeof(caps) / sizeof(caps[0]); j++)
			check_header(traces[i], caps[j]);
}
END_TEST

/* opensnoop on the patched kernel: one loader, its perf events opened by the kfunc */
START_TEST(patched_opensnoop_in_one_loader)
{
	struct bpfrr_ir *ir = trace_ir("x86_64-opensnoop");
	char *text = header_text(ir, "patched-6.12");
	uint32_t i, nr_perf = 0;

	for (i = 0; i < ir->nr_calls; i++)
		nr_perf += ir->calls[i].op == BPFRR_IR_PERF_EVENT_OPEN;
	ck_assert_uint_gt(nr_perf, 0);
	ck_assert_uint_eq(count(text, "static const struct bpfrr_rt_loader hdr__l"), 1);
	ck_assert_uint_eq(count(text, "\t{ NULL, &hdr__c"), 0);
	expect(text, "opensnoop", "\t.nr_kfunc_calls = %u,\n", nr_perf);
	free(text);
	bpfrr_ir_free(ir);
}
END_TEST

/*
 * What the committed traces do not have: a slot opened by path, a
 * user-space call with fds in its attr and a log buffer, slot names that
 * collide as identifiers.  The header says so and compiles.
 */
START_TEST(path_slot_user_call_and_collisions)
{
	struct bpfrr_ir *ir = sample_ir(SAMPLE_RAW_TP);
	char *text, path[] = "/tmp/bpfrr-test-header-XXXXXX.h", cmd[512];
	union bpf_attr a;
	int cg, twin, c, fd;
	FILE *f;

	ck_assert_ptr_nonnull(ir);
	cg = bpfrr_ir_add_path_slot(ir, BPFRR_OBJ_CGROUP, "cgroup./sys/fs/cgroup", "/sys/fs/cgroup",
				    O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(cg, 0);
	twin = bpfrr_ir_add_slot(ir, BPFRR_OBJ_LINK, "map_counts");
	ck_assert_int_ge(twin, 0);
	memset(&a, 0, sizeof(a));
	a.attach_type = BPF_CGROUP_INET_INGRESS;
	/* PROG_ATTACH: not a stock bpf_sys_bpf() command, a user-space step */
	c = bpfrr_ir_add_call(ir, 30, BPFRR_IR_BPF, BPF_PROG_ATTACH, &a, SAMPLE_ATTR_END(attach_flags));
	ck_assert_int_ge(c, 0);
	ck_assert_int_ge(bpfrr_ir_add_fdrel(ir, c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, target_fd), cg,
					    BPFRR_IR_REF_FIELD), 0);
	ck_assert_int_ge(bpfrr_ir_add_fdrel(ir, c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, attach_bpf_fd),
					    SAMPLE_SLOT_PROG, BPFRR_IR_REF_FIELD), 0);
	/* a made-up call making the twin, from user space too (BPF_LINK_GET_FD_BY_ID is not stock's) */
	memset(&a, 0, sizeof(a));
	c = bpfrr_ir_add_call(ir, 31, BPFRR_IR_BPF, BPF_LINK_GET_FD_BY_ID, &a, SAMPLE_ATTR_END(open_flags));
	ck_assert_int_ge(c, 0);
	ck_assert_int_ge(bpfrr_ir_set_result(ir, c, twin), 0);
	ck_assert_int_eq(bpfrr_ir_force_log(ir, 0, 4096), 0);

	text = header_text(ir, "stock-6.12");
	expect(text, "synthetic", "\t\t.path = \"/sys/fs/cgroup\",\n\t\t.open_flags = 0x%x,\n", O_RDONLY | O_DIRECTORY);
	expect(text, "synthetic", "\tint cgroup_sys_fs_cgroup;");
	expect(text, "synthetic", "\tint map_counts;");
	expect(text, "synthetic", "\tint map_counts_%d;", twin);
	expect(text, "synthetic", "\t{ -1, %zu, %d },\t/* field of cgroup_sys_fs_cgroup */\n",
	       offsetof(union bpf_attr, target_fd), cg);
	expect(text, "synthetic", "\t.seq = 30,\n\t.op = 1,\n\t.cmd = %d,\n\t.result_slot = -1,\n", BPF_PROG_ATTACH);
	expect(text, "synthetic", "\t.seq = 31,\n\t.op = 1,\n\t.cmd = %d,\n\t.result_slot = %d,\n",
	       BPF_LINK_GET_FD_BY_ID, twin);

	fd = mkstemps(path, 2);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fputs("int hdr_main(void);\nint hdr_main(void)\n{\n\tstruct hdr obj;\n\tint ret = hdr__load(&obj);\n\n"
	      "\thdr__destroy(&obj);\n\treturn ret;\n}\n", f);
	ck_assert_int_eq(fclose(f), 0);
	snprintf(cmd, sizeof(cmd), "gcc -std=gnu11 -Wall -Wextra -Werror -fsyntax-only -x c %s", path);
	ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
	unlink(path);
	free(text);
	bpfrr_ir_free(ir);
}
END_TEST

/*
 * Symbols by name (the synthetic 1.1 trace): BTF ids in the attr and in
 * instruction imms, kernel addresses in a perf_event_attr and in
 * kprobe_multi.addrs, wherever the plan puts the call (a loader's blob or
 * user image, a user call's attr or buffer).  The header compiles.
 */
START_TEST(symbol_resolutions)
{
	static const char *const caps[] = { "stock-6.12", "patched-6.12", "none" };
	struct bpfrr_frontend_opts fo = { 0 };
	struct bpfrr_frontend_result res;
	struct bpfrr_trace_reader *r;
	struct bpfrr_ir *ir;
	char err[512], path[] = "/tmp/bpfrr-test-header-XXXXXX.h", cmd[512];
	int fd = memfd_create("portable", 0);
	size_t i;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(synth_portable_trace(dup(fd)), 0);
	snprintf(cmd, sizeof(cmd), "/proc/self/fd/%d", fd);
	r = bpfrr_trace_open(cmd, 0, NULL);
	ck_assert_ptr_nonnull(r);
	ir = bpfrr_frontend_translate_reader(r, &fo, &res, err, sizeof(err));
	ck_assert_msg(ir, "%s", err);
	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		char *text = header_text(ir, caps[i]);
		FILE *f;
		int tmp;

		ck_assert_uint_eq(count(text, ".kind = BPFRR_RT_RESOLVE_BTF_ID, "), 3);
		ck_assert_uint_eq(count(text, ".kind = BPFRR_RT_RESOLVE_KSYM_ADDR, "), 3);
		expect(text, caps[i], ".size = 4, .name = \"vfs_read\", .buf = -1, .btf_kind = 12 },\n");
		expect(text, caps[i], ".name = \"bpf_prog_active\", .buf = ");
		expect(text, caps[i], ".size = 8, .name = \"nf_conntrack_in\", .buf = ");
		expect(text, caps[i], ", .module = \"nf_conntrack\" },\n");
		ck_assert_uint_eq(count(text, ".addend = 16"), 2);
		if (!strcmp(caps[i], "none")) {
			/* every call from user space: the values where the IR has them */
			expect(text, caps[i], ".kind = BPFRR_RT_RESOLVE_BTF_ID, .offset = 4, .size = 4, "
			       ".name = \"bpf_rcu_read_lock\", .buf = 0, .btf_kind = 12 },\n");
			expect(text, caps[i], ".kind = BPFRR_RT_RESOLVE_KSYM_ADDR, .offset = 64, .size = 8, "
			       ".name = \"do_sys_openat2\", .buf = -1, .addend = 16 },\n");
		}
		memcpy(path, "/tmp/bpfrr-test-header-XXXXXX.h", sizeof(path));
		tmp = mkstemps(path, 2);
		ck_assert_int_ge(tmp, 0);
		f = fdopen(tmp, "w");
		ck_assert_ptr_nonnull(f);
		fputs(text, f);
		fputs("int hdr_main(void);\nint hdr_main(void)\n{\n\tstruct hdr obj;\n\tint ret = hdr__load(&obj);\n\n"
		      "\thdr__destroy(&obj);\n\treturn ret;\n}\n", f);
		ck_assert_int_eq(fclose(f), 0);
		snprintf(cmd, sizeof(cmd), "gcc -std=gnu11 -Wall -Wextra -Werror -fsyntax-only -x c %s", path);
		ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
		unlink(path);
		free(text);
	}
	bpfrr_ir_free(ir);
	bpfrr_trace_reader_close(r);
	close(fd);
}
END_TEST

START_TEST(bad_names_refused)
{
	struct bpfrr_ir *ir = trace_ir("x86_64-fx_onemap");
	struct bpfrr_header_opts o = { .name = "not-an-identifier" };
	char err[256];

	ck_assert_int_eq(bpfrr_header_fwrite(ir, stdout, &o, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "--name 'not-an-identifier' is not a C identifier (say not_an_identifier)");
	o.name = "ok";
	o.caps = "unpatched-7.0";
	ck_assert_int_eq(bpfrr_header_fwrite(ir, stdout, &o, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "caps 'unpatched-7.0': one of " BPFRR_CAPS_ASSUME_NAMES);
	o.caps = NULL;
	/* a directory on a bpffs to make: the header's runtime makes none */
	ck_assert_int_ge(bpfrr_ir_add_dir_slot(ir, "dir.1", "/sys/fs/bpf/d", 0700), 0);
	ck_assert_int_eq(bpfrr_header_fwrite(ir, stdout, &o, err, sizeof(err)), -EOPNOTSUPP);
	ck_assert_msg(strstr(err, "is the directory /sys/fs/bpf/d on a bpffs, which bpfrr replay makes; the "
			     "header format cannot carry it"), "%s", err);
	bpfrr_ir_free(ir);
}
END_TEST

static Suite *header_suite(void)
{
	Suite *s = suite_create("translate_header");
	TCase *tc = tcase_create("header");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, btf_scan_finds_what_libbpf_finds);
	tcase_add_test(tc, btf_scan_on_vmlinux);
	tcase_add_test(tc, resolutions_checked);
	tcase_add_test(tc, kernel_list_checked);
	tcase_add_test(tc, slot_names_become_identifiers);
	tcase_add_test(tc, header_matches_the_plan);
	tcase_add_test(tc, patched_opensnoop_in_one_loader);
	tcase_add_test(tc, path_slot_user_call_and_collisions);
	tcase_add_test(tc, bad_names_refused);
	tcase_add_test(tc, symbol_resolutions);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(header_suite());
	int failed;

	find_data_dir();
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Translator back end: the planner.  Which calls run in a loader on a given
 * kernel, the schedule (a topological order of the slot dependencies with
 * the fewest kernel/user switches), segments.  Random IRs check the
 * schedule's invariants against the recorded order.  Host only, no bpf().
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caps.h"
#include "plan.h"
#include "../guest/replay-sample.h"

static struct bpfrr_caps caps_named(const char *name)
{
	struct bpfrr_caps caps;

	ck_assert_int_eq(bpfrr_caps_assume(&caps, name), 0);
	return caps;
}

/* A call of op/cmd using 'uses' slots (-1 ends) and making 'makes' (or -1). */
static int add(struct bpfrr_ir *ir, uint64_t seq, uint32_t op, uint32_t cmd, const int *uses, int makes)
{
	uint8_t attr[64] = { 0 };
	int c = bpfrr_ir_add_call(ir, seq, op, cmd, attr, sizeof(attr));
	uint32_t off = 0;

	ck_assert_int_ge(c, 0);
	if (op == BPFRR_IR_PERF_EVENT_OPEN) {
		ir->calls[c].args[0] = -1;	/* any task, no group */
		ir->calls[c].args[2] = -1;
	}
	for (; uses && *uses >= 0; uses++, off += 4)
		ck_assert_int_ge(bpfrr_ir_add_fdrel(ir, c, BPFRR_IR_IN_ATTR, off, *uses, BPFRR_IR_REF_FIELD), 0);
	if (makes >= 0)
		ck_assert_int_eq(bpfrr_ir_set_result(ir, c, makes), 0);
	return c;
}

/* the position of each call in the plan's order */
static void positions(const struct bpfrr_plan *p, uint32_t *pos)
{
	uint32_t k;

	for (k = 0; k < p->nr_calls; k++)
		pos[p->order[k]] = k;
}

/*
 * Every pair of calls sharing a slot that one of them makes or changes (or
 * both GLOBAL) keeps its recorded order.
 */
static void check_dependencies_kept(const struct bpfrr_ir *ir, const struct bpfrr_plan *p)
{
	uint32_t *pos = calloc(ir->nr_calls + 1, sizeof(*pos)), i, j, s;

	positions(p, pos);
	for (i = 0; i < ir->nr_calls; i++)
		for (j = i + 1; j < ir->nr_calls; j++) {
			bool dep = (ir->calls[i].flags & ir->calls[j].flags & BPFRR_IR_CALL_GLOBAL) != 0;

			for (s = 0; s < ir->nr_slots && !dep; s++)
				dep = bpfrr_ir_call_uses_slot(&ir->calls[i], s) &&
				      bpfrr_ir_call_uses_slot(&ir->calls[j], s) &&
				      (bpfrr_plan_call_changes_slot(&ir->calls[i], s) ||
				       bpfrr_plan_call_changes_slot(&ir->calls[j], s));
			if (dep)
				ck_assert_msg(pos[i] < pos[j], "calls %u and %u depend on each other but were swapped",
					      i, j);
		}
	free(pos);
}

/* Segments cover the order, alternate sides, and hold only calls of their side. */
static void check_segments(const struct bpfrr_plan *p)
{
	uint32_t s, k, next = 0;

	for (s = 0; s < p->nr_segs; s++) {
		ck_assert_uint_eq(p->segs[s].first, next);
		ck_assert_uint_gt(p->segs[s].nr, 0);
		if (s && p->segs[s].side == BPFRR_SIDE_USER)
			ck_assert_uint_ne(p->segs[s - 1].side, BPFRR_SIDE_USER);
		for (k = p->segs[s].first; k < p->segs[s].first + p->segs[s].nr; k++)
			ck_assert_uint_eq(p->side[p->order[k]], p->segs[s].side);
		next += p->segs[s].nr;
	}
	ck_assert_uint_eq(next, p->nr_calls);
}

START_TEST(sample_in_one_loader)
{
	struct bpfrr_ir *ir = sample_ir(SAMPLE_FAIL_LAST);
	struct bpfrr_caps caps = caps_named("stock-6.12");
	struct bpfrr_plan p;
	char err[256];
	uint32_t i;

	ck_assert_int_eq(bpfrr_plan_make(ir, &caps, 0, &p, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.nr_kernel, 5);
	ck_assert_uint_eq(p.nr_user, 0);
	ck_assert_uint_eq(p.nr_segs, 1);
	ck_assert_uint_eq(p.segs[0].side, BPFRR_SIDE_KERNEL);
	ck_assert_uint_eq(p.nr_reordered, 0);
	for (i = 0; i < 5; i++) {
		ck_assert_uint_eq(p.order[i], i);
		ck_assert_ptr_null(p.why_user[i]);
	}
	bpfrr_plan_free(&p);

	caps = caps_named("none");
	ck_assert_int_eq(bpfrr_plan_make(ir, &caps, 0, &p, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.nr_user, 5);
	ck_assert_uint_eq(p.nr_segs, 1);
	ck_assert_uint_eq(p.segs[0].side, BPFRR_SIDE_USER);
	ck_assert_str_eq(p.why_user[0], "command not accepted by bpf_sys_bpf() on this kernel");
	bpfrr_plan_free(&p);
	bpfrr_ir_free(ir);
}
END_TEST

/*
 * A tracepoint loader as libbpf makes it, on stock 6.12:
 *   0 BTF_LOAD -> btf         (K)      5 perf_event_open -> pe1        (U)
 *   1 MAP_CREATE -> map       (K)      6 LINK_CREATE prog1, pe1 -> l1 (K)
 *   2 PROG_LOAD map -> prog1  (K)      7 perf_event_open -> pe2        (U)
 *   3 PROG_BIND_MAP prog1 map (U)      8 LINK_CREATE prog2, pe2 -> l2  (K)
 *   4 PROG_LOAD map -> prog2  (K)
 * In recorded order: K U K U K U K, 7 segments.  The perf events depend on
 * nothing, the bind changes prog1 only (it uses the map, as the second
 * load does: two uses need no order), and the first link needs the bound
 * prog1: K(0 1 2 4) U(3 5 7) K(6 8), 3 segments.
 */
START_TEST(tracepoint_loader_regrouped)
{
	struct bpfrr_ir *ir = bpfrr_ir_new();
	struct bpfrr_caps caps = caps_named("stock-6.12");
	enum { BTF, MAP, PROG1, PROG2, PE1, PE2, L1, L2 };
	static const char *const names[] = { "btf", "map", "prog1", "prog2", "pe1", "pe2", "l1", "l2" };
	static const uint32_t kinds[] = { BPFRR_OBJ_BTF, BPFRR_OBJ_MAP, BPFRR_OBJ_PROG, BPFRR_OBJ_PROG,
					  BPFRR_OBJ_PERF_EVENT, BPFRR_OBJ_PERF_EVENT, BPFRR_OBJ_LINK,
					  BPFRR_OBJ_LINK };
	struct bpfrr_plan p, kept;
	char err[256], *text = NULL;
	size_t len = 0;
	FILE *f;
	uint32_t i;

	for (i = 0; i < 8; i++)
		ck_assert_int_eq(bpfrr_ir_add_slot(ir, kinds[i], names[i]), (int)i);
	add(ir, 1, BPFRR_IR_BPF, BPF_BTF_LOAD, NULL, BTF);
	add(ir, 2, BPFRR_IR_BPF, BPF_MAP_CREATE, (int[]){ BTF, -1 }, MAP);
	add(ir, 3, BPFRR_IR_BPF, BPF_PROG_LOAD, (int[]){ MAP, BTF, -1 }, PROG1);
	add(ir, 4, BPFRR_IR_BPF, BPF_PROG_BIND_MAP, (int[]){ PROG1, MAP, -1 }, -1);
	add(ir, 5, BPFRR_IR_BPF, BPF_PROG_LOAD, (int[]){ MAP, BTF, -1 }, PROG2);
	add(ir, 6, BPFRR_IR_PERF_EVENT_OPEN, 0, NULL, PE1);
	add(ir, 7, BPFRR_IR_BPF, BPF_LINK_CREATE, (int[]){ PROG1, PE1, -1 }, L1);
	add(ir, 8, BPFRR_IR_PERF_EVENT_OPEN, 0, NULL, PE2);
	add(ir, 9, BPFRR_IR_BPF, BPF_LINK_CREATE, (int[]){ PROG2, PE2, -1 }, L2);
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), 0);

	ck_assert_int_eq(bpfrr_plan_make(ir, &caps, BPFRR_PLAN_KEEP_ORDER, &kept, err, sizeof(err)), 0);
	ck_assert_uint_eq(kept.nr_segs, 7);
	ck_assert_uint_eq(kept.nr_reordered, 0);
	check_segments(&kept);

	ck_assert_int_eq(bpfrr_plan_make(ir, &caps, 0, &p, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.nr_kernel, 6);
	ck_assert_uint_eq(p.nr_user, 3);
	ck_assert_uint_eq(p.nr_segs, 3);
	check_segments(&p);
	check_dependencies_kept(ir, &p);
	/* starting on the recorded first call's side: K(0 1 2 4) U(3 5 7) K(6 8) */
	ck_assert_uint_eq(p.segs[0].side, BPFRR_SIDE_KERNEL);
	ck_assert_uint_eq(p.segs[0].nr, 4);
	ck_assert_uint_eq(p.segs[1].nr, 3);
	ck_assert_uint_eq(p.segs[2].nr, 2);
	ck_assert_str_eq(p.why_user[3], "command not accepted by bpf_sys_bpf() on this kernel");
	ck_assert_str_eq(p.why_user[5], "syscall programs cannot open perf events on this kernel");

	f = open_memstream(&text, &len);
	bpfrr_plan_print(ir, &p, f);
	fclose(f);
	ck_assert_str_eq(text,
		"plan: 9 calls, 6 in kernel, 3 in user space, 3 segments, 4 reordered\n"
		"  segment 0: loader run, 4 calls\n"
		"    call 0 (seq 1) BPF_BTF_LOAD\n"
		"    call 1 (seq 2) BPF_MAP_CREATE\n"
		"    call 2 (seq 3) BPF_PROG_LOAD\n"
		"    call 4 (seq 5) BPF_PROG_LOAD\n"
		"  segment 1: user space, 3 calls\n"
		"    call 3 (seq 4) BPF_PROG_BIND_MAP: command not accepted by bpf_sys_bpf() on this kernel\n"
		"    call 5 (seq 6) perf_event_open: syscall programs cannot open perf events on this kernel\n"
		"    call 7 (seq 8) perf_event_open: syscall programs cannot open perf events on this kernel\n"
		"  segment 2: loader run, 2 calls\n"
		"    call 6 (seq 7) BPF_LINK_CREATE\n"
		"    call 8 (seq 9) BPF_LINK_CREATE\n");
	free(text);
	bpfrr_plan_free(&p);
	bpfrr_plan_free(&kept);

	/* a kernel that takes PROG_BIND_MAP too: U(5 7) K(everything else), 2 segments */
	caps.sys_bpf_cmds |= 1ull << BPF_PROG_BIND_MAP;
	ck_assert_int_eq(bpfrr_plan_make(ir, &caps, 0, &p, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.nr_segs, 2);
	ck_assert_uint_eq(p.segs[0].side, BPFRR_SIDE_USER);
	ck_assert_uint_eq(p.segs[0].nr, 2);
	check_dependencies_kept(ir, &p);
	bpfrr_plan_free(&p);

	/* the patched kernel (its command list and perf event kfunc): one loader, recorded order */
	caps = caps_named("patched-6.12");
	ck_assert_int_eq(bpfrr_plan_make(ir, &caps, 0, &p, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.nr_kernel, 9);
	ck_assert_uint_eq(p.nr_user, 0);
	ck_assert_uint_eq(p.nr_segs, 1);
	ck_assert_uint_eq(p.nr_reordered, 0);
	bpfrr_plan_free(&p);
	bpfrr_ir_free(ir);
}
END_TEST

/* GLOBAL calls keep their order even without a shared slot. */
START_TEST(global_calls_keep_order)
{
	struct bpfrr_ir *ir = bpfrr_ir_new();
	struct bpfrr_caps caps = caps_named("stock-6.12");
	struct bpfrr_plan p;
	uint32_t pos[4];
	char err[256];
	int m0, m1;

	m0 = bpfrr_ir_add_slot(ir, BPFRR_OBJ_MAP, "m0");
	m1 = bpfrr_ir_add_slot(ir, BPFRR_OBJ_MAP, "m1");
	add(ir, 1, BPFRR_IR_BPF, BPF_MAP_CREATE, NULL, m0);
	add(ir, 2, BPFRR_IR_BPF, BPF_OBJ_PIN, (int[]){ m0, -1 }, -1);	/* U, pins "/sys/fs/bpf/a" */
	add(ir, 3, BPFRR_IR_BPF, BPF_OBJ_GET, NULL, m1);			/* U, gets "/sys/fs/bpf/a" */
	add(ir, 4, BPFRR_IR_BPF, BPF_MAP_FREEZE, (int[]){ m1, -1 }, -1);
	ir->calls[1].flags = ir->calls[2].flags = BPFRR_IR_CALL_GLOBAL;
	ck_assert_int_eq(bpfrr_plan_make(ir, &caps, 0, &p, err, sizeof(err)), 0);
	positions(&p, pos);
	ck_assert_uint_lt(pos[1], pos[2]);
	ck_assert_uint_lt(pos[2], pos[3]);
	check_dependencies_kept(ir, &p);
	bpfrr_plan_free(&p);
	bpfrr_ir_free(ir);
}
END_TEST

static uint32_t rnd_state = 12345;

static uint32_t rnd(uint32_t n)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return (rnd_state >> 8) % n;
}

/*
 * Random IRs: every call uses up to three earlier slots and may make one;
 * its side is random.  The regrouped plan keeps every dependency, never has
 * more segments than the recorded order, and is found again identically.
 */
START_TEST(random_irs)
{
	struct bpfrr_caps caps = caps_named("stock-6.12");
	int round;

	for (round = 0; round < 300; round++) {
		struct bpfrr_ir *ir = bpfrr_ir_new();
		uint32_t n = 1 + rnd(40), i, made = 0;
		struct bpfrr_plan p, q, kept;
		char err[256];

		for (i = 0; i < n; i++) {
			int uses[4] = { -1, -1, -1, -1 }, k, nu = made ? rnd(4) : 0, makes = -1;
			/* MAP_CREATE runs in a loader, PROG_BIND_MAP does not */
			uint32_t cmd = rnd(2) ? BPF_MAP_CREATE : BPF_PROG_BIND_MAP;

			for (k = 0; k < nu; k++)
				uses[k] = rnd(made);
			if (rnd(2)) {
				makes = bpfrr_ir_add_slot(ir, BPFRR_OBJ_MAP, NULL);
				made++;
			}
			add(ir, i + 1, BPFRR_IR_BPF, cmd, uses, makes);
			if (rnd(8) == 0)
				ir->calls[i].flags |= BPFRR_IR_CALL_GLOBAL;
		}
		ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), 0);
		ck_assert_int_eq(bpfrr_plan_make(ir, &caps, 0, &p, err, sizeof(err)), 0);
		ck_assert_int_eq(bpfrr_plan_make(ir, &caps, 0, &q, err, sizeof(err)), 0);
		ck_assert_int_eq(bpfrr_plan_make(ir, &caps, BPFRR_PLAN_KEEP_ORDER, &kept, err, sizeof(err)), 0);
		check_segments(&p);
		check_segments(&kept);
		check_dependencies_kept(ir, &p);
		ck_assert_uint_le(p.nr_segs, kept.nr_segs);
		ck_assert_uint_eq(p.nr_kernel + p.nr_user, n);
		ck_assert_mem_eq(p.order, q.order, n * sizeof(*p.order));
		bpfrr_plan_free(&p);
		bpfrr_plan_free(&q);
		bpfrr_plan_free(&kept);
		bpfrr_ir_free(ir);
	}
}
END_TEST

/* Long kernel runs are split. */
START_TEST(long_runs_split)
{
	struct bpfrr_ir *ir = bpfrr_ir_new();
	struct bpfrr_caps caps = caps_named("stock-6.12");
	uint32_t i, n = BPFRR_PLAN_MAX_SEG_CALLS + 10;
	struct bpfrr_plan p;
	char err[256];

	for (i = 0; i < n; i++)
		add(ir, i + 1, BPFRR_IR_BPF, BPF_MAP_CREATE, NULL, bpfrr_ir_add_slot(ir, BPFRR_OBJ_MAP, NULL));
	ck_assert_int_eq(bpfrr_plan_make(ir, &caps, 0, &p, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.nr_segs, 2);
	ck_assert_uint_eq(p.segs[0].nr, BPFRR_PLAN_MAX_SEG_CALLS);
	ck_assert_uint_eq(p.segs[1].nr, 10);
	check_segments(&p);
	bpfrr_plan_free(&p);
	bpfrr_ir_free(ir);
}
END_TEST

START_TEST(empty_ir)
{
	struct bpfrr_ir *ir = bpfrr_ir_new();
	struct bpfrr_caps caps = caps_named("stock-6.12");
	struct bpfrr_plan p;
	char err[256];

	ck_assert_int_eq(bpfrr_plan_make(ir, &caps, 0, &p, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.nr_segs, 0);
	bpfrr_plan_free(&p);
	bpfrr_ir_free(ir);
}
END_TEST

/* The patched kernel's list of what syscall programs may do. */
START_TEST(caps_from_kernel_list)
{
	static const char list[] =
		"0 BPF_MAP_CREATE\n"
		"2 BPF_MAP_UPDATE_ELEM key value\n"
		"5 BPF_PROG_LOAD insns license fd_array func_info line_info core_relos\n"
		"6 BPF_OBJ_PIN pathname\n"
		"17 BPF_RAW_TRACEPOINT_OPEN raw_tracepoint.name\n"
		"35 BPF_PROG_BIND_MAP\n";
	struct bpfrr_caps caps;
	char err[128];

	ck_assert_int_eq(bpfrr_caps_parse_list(&caps, list, "test list", err, sizeof(err)), 0);
	ck_assert_str_eq(caps.source, "test list");
	ck_assert_uint_eq(caps.sys_bpf_cmds, 1ull << 0 | 1ull << 2 | 1ull << 5 | 1ull << 6 | 1ull << 17 |
					     1ull << 35);
	ck_assert_uint_eq(caps.nr_ptrs, 10);
	ck_assert_int_eq(bpfrr_caps_ptr(&caps, BPF_MAP_UPDATE_ELEM, "attr.value"), BPFRR_PTR_KERNEL);
	ck_assert_int_eq(bpfrr_caps_ptr(&caps, BPF_OBJ_PIN, "attr.pathname"), BPFRR_PTR_KERNEL);
	ck_assert_int_eq(bpfrr_caps_ptr(&caps, BPF_RAW_TRACEPOINT_OPEN, "attr.raw_tracepoint.name"),
			 BPFRR_PTR_KERNEL);
	/* not in the list: unknown until probed */
	ck_assert_int_eq(bpfrr_caps_ptr(&caps, BPF_PROG_LOAD, "attr.log_buf"), BPFRR_PTR_UNKNOWN);
	ck_assert_int_eq(bpfrr_caps_ptr(&caps, BPF_MAP_DELETE_ELEM, "attr.key"), BPFRR_PTR_UNKNOWN);
	ck_assert(bpfrr_caps_cmd(&caps, BPF_PROG_BIND_MAP));
	ck_assert(!bpfrr_caps_cmd(&caps, BPF_BTF_LOAD));

	ck_assert_int_eq(bpfrr_caps_parse_list(&caps, "", "empty", err, sizeof(err)), 0);
	ck_assert_uint_eq(caps.sys_bpf_cmds, 0);
	ck_assert_int_eq(bpfrr_caps_parse_list(&caps, "0 BPF_MAP_CREATE", "x", err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "line 1: no newline at its end");
	ck_assert_int_eq(bpfrr_caps_parse_list(&caps, "0 A\nx B\n", "x", err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "line 2: not 'NUMBER NAME [POINTER...]' with a command number below 64");
	ck_assert_int_eq(bpfrr_caps_parse_list(&caps, "99 BPF_X\n", "x", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(bpfrr_caps_parse_list(&caps, "-1 BPF_X\n", "x", err, sizeof(err)), -EINVAL);
}
END_TEST

static Suite *plan_suite(void)
{
	Suite *s = suite_create("translate_plan");
	TCase *tc = tcase_create("plan");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, sample_in_one_loader);
	tcase_add_test(tc, tracepoint_loader_regrouped);
	tcase_add_test(tc, global_calls_keep_order);
	tcase_add_test(tc, random_irs);
	tcase_add_test(tc, long_runs_split);
	tcase_add_test(tc, empty_ir);
	tcase_add_test(tc, caps_from_kernel_list);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(plan_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}

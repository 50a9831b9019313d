// SPDX-License-Identifier: GPL-2.0-only
/*
 * The resolved-trace layer (lib/resolved.h) that `bpfrr dump` and the
 * translator's first pass share: object facts from a creating attr and an
 * identity, the fd_info answers, identities by seq, the fd model fed by
 * records and call results (fd reuse after close, dup, a forked copy), the
 * walker's view of a call (captured memory, fds to objects); on synthetic
 * traces (tests/data/synth_trace.h) and on the committed recordings
 * (tests/data/traces/).  Host only, no bpf().
 */
#include <check.h>
#include <dirent.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../data/synth_trace.h"
#include "resolved.h"
#include "u64map.h"

#define TID	100

static char data_dir[4096];

static void find_data_dir(void)
{
	char here[4096];

	snprintf(here, sizeof(here), "%s", __FILE__);
	snprintf(data_dir, sizeof(data_dir), "%s/../data", dirname(here));
}

/* --- reading a trace through the layer ------------------------------------------------------ */

/* The layer over a trace, fed record by record as dump feeds it. */
struct run {
	struct bpfrr_trace_reader *r;
	struct bpfrr_rt *rt;
	struct bpfrr_trace_record rec;
	struct bpfrr_rt_call call;	/* the last call read, not yet applied */
	bool pending;
};

static void run_open_mem(struct run *rn, const void *bytes, size_t len)
{
	char *err = NULL;

	memset(rn, 0, sizeof(*rn));
	rn->r = bpfrr_trace_open_mem(bytes, len, "synthetic", 0, &err);
	ck_assert_msg(rn->r, "%s", err ? err : "?");
	rn->rt = bpfrr_rt_new(rn->r);
	ck_assert_ptr_nonnull(rn->rt);
	ck_assert_int_eq(bpfrr_rt_collect(rn->rt, NULL, NULL), BPFRR_TRACE_EOF);
	ck_assert_int_eq(bpfrr_rt_model(rn->rt, 0, NULL, NULL), 0);
}

static void run_close(struct run *rn)
{
	bpfrr_rt_free(rn->rt);
	bpfrr_trace_reader_close(rn->r);
}

/* The result of the previous call is applied; then the next record: a call is
 * returned before its result, TASK and FD_EVENT after they are applied. */
static bool run_next(struct run *rn)
{
	int err;

	if (rn->pending) {
		bpfrr_rt_call_result(rn->rt, &rn->call, &err);
		ck_assert_int_eq(err, 0);
		rn->pending = false;
	}
	if (bpfrr_trace_next(rn->r, &rn->rec) != BPFRR_TRACE_RECORD)
		return false;
	switch (rn->rec.type) {
	case BPFRR_REC_TASK:
		ck_assert_int_eq(bpfrr_rt_task(rn->rt, &rn->rec.task), 0);
		break;
	case BPFRR_REC_FD_EVENT:
		ck_assert_int_eq(bpfrr_rt_fd_event(rn->rt, &rn->rec.fd_event), 0);
		break;
	case BPFRR_REC_BPF_CALL:
		bpfrr_rt_call_bpf(&rn->call, &rn->rec.bpf_call);
		rn->pending = true;
		break;
	case BPFRR_REC_SYSCALL:
		bpfrr_rt_call_sys(&rn->call, &rn->rec.syscall);
		break;
	}
	return true;
}

/* On to the call of that seq (returned before its result is applied). */
static void run_to(struct run *rn, uint64_t seq)
{
	while (run_next(rn))
		if ((rn->rec.type == BPFRR_REC_BPF_CALL || rn->rec.type == BPFRR_REC_SYSCALL) && rn->call.seq == seq)
			return;
	ck_abort_msg("no call %llu", (unsigned long long)seq);
}

static struct bpfrr_fdm_obj *lookup(struct run *rn, uint32_t tid, int fd)
{
	return bpfrr_fdm_lookup(bpfrr_rt_fdm(rn->rt), tid, fd);
}

/* What the walker is told of fd in the current call: fd_info's return; *kind, sizes. */
static int fd_info(struct run *rn, int fd, enum bpfrr_obj_kind *kind, uint32_t *type, uint32_t *ks, uint32_t *vs)
{
	struct bpfrr_rt_walk w;
	const struct bpfrr_abi_env *env = bpfrr_rt_walk_env(&w, rn->rt, &rn->call, BPFRR_PHASE_ENTRY);

	*kind = BPFRR_OBJ_NONE;
	*type = *ks = *vs = 0;
	return env->fd_info(env->ctx, fd, kind, type, ks, vs);
}

static uint8_t *memfd_bytes(int fd, size_t *len)
{
	struct stat st;
	uint8_t *buf;

	ck_assert_int_eq(fstat(fd, &st), 0);
	*len = (size_t)st.st_size;
	buf = malloc(*len);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(pread(fd, buf, *len, 0), (ssize_t)*len);
	close(fd);
	return buf;
}

/* --- object facts ------------------------------------------------------------------------- */

START_TEST(creator_facts_and_identity)
{
	struct bpfrr_rec_object id = { .kind = BPFRR_OBJ_MAP, .id = 3, .type = BPF_MAP_TYPE_ARRAY, .key_size = 4,
				       .value_size = 64 };
	struct bpfrr_obj_facts f;
	enum bpfrr_obj_kind kind;
	uint32_t type, ks, vs;
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_HASH;
	a.key_size = 8;
	a.value_size = 16;
	strcpy(a.map_name, "counts");
	bpfrr_obj_facts_from_attr(&f, BPFRR_CMD_MAP_CREATE, &a, 72);
	ck_assert(f.has_type && f.has_sizes);
	ck_assert_uint_eq(f.type, BPF_MAP_TYPE_HASH);
	ck_assert_uint_eq(f.key_size, 8);
	ck_assert_uint_eq(f.value_size, 16);
	ck_assert_str_eq(f.name, "counts");
	/* the identity wins, the attr's name stays */
	bpfrr_obj_facts_add_identity(&f, BPFRR_OBJ_MAP, &id);
	ck_assert_uint_eq(f.type, BPF_MAP_TYPE_ARRAY);
	ck_assert_uint_eq(f.key_size, 4);
	ck_assert_uint_eq(f.value_size, 64);
	ck_assert_str_eq(f.name, "counts");
	/* a failed query adds nothing */
	bpfrr_obj_facts_from_attr(&f, BPFRR_CMD_MAP_CREATE, &a, 72);
	id.flags = BPFRR_OBJECT_F_QUERY_FAILED;
	bpfrr_obj_facts_add_identity(&f, BPFRR_OBJ_MAP, &id);
	ck_assert_uint_eq(f.key_size, 8);
	ck_assert_int_eq(bpfrr_obj_facts_fd_info(BPFRR_OBJ_MAP, &f, &kind, &type, &ks, &vs), 0);
	ck_assert_int_eq(kind, BPFRR_OBJ_MAP);
	ck_assert_uint_eq(type, BPF_MAP_TYPE_HASH);
	ck_assert_uint_eq(vs, 16);

	/* a program: its type and name, no sizes */
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_KPROBE;
	strcpy(a.prog_name, "handle");
	bpfrr_obj_facts_from_attr(&f, BPFRR_CMD_PROG_LOAD, &a, 128);
	ck_assert(f.has_type && !f.has_sizes);
	ck_assert_uint_eq(f.type, BPF_PROG_TYPE_KPROBE);
	ck_assert_str_eq(f.name, "handle");
	/* attrs that say nothing of an object: all zero */
	bpfrr_obj_facts_from_attr(&f, BPFRR_CMD_LINK_CREATE, &a, 64);
	ck_assert(!f.has_type && !f.has_sizes && !f.name[0]);
	bpfrr_obj_facts_from_attr(&f, 1000, &a, 64);
	ck_assert(!f.has_type && !f.has_sizes);

	/* what fd_info says of nothing known: a map's sizes are unknown, ANY is unknown */
	memset(&f, 0, sizeof(f));
	ck_assert_int_eq(bpfrr_obj_facts_fd_info(BPFRR_OBJ_MAP, &f, &kind, &type, &ks, &vs), -ENOENT);
	ck_assert_int_eq(bpfrr_obj_facts_fd_info(BPFRR_OBJ_MAP, &f, &kind, &type, NULL, NULL), 0);
	ck_assert_int_eq(kind, BPFRR_OBJ_MAP);
	ck_assert_int_eq(bpfrr_obj_facts_fd_info(BPFRR_OBJ_ANY, &f, &kind, NULL, NULL, NULL), -ENOENT);
	ck_assert_int_eq(bpfrr_obj_facts_fd_info(BPFRR_OBJ_PERF_EVENT, &f, &kind, &type, &ks, &vs), 0);
	ck_assert_int_eq(kind, BPFRR_OBJ_PERF_EVENT);
}
END_TEST

/* --- the synthetic kprobe trace ------------------------------------------------------------ */

static uint8_t *kprobe_trace(size_t *len)
{
	int fd = memfd_create("kprobe", 0);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(synth_kprobe_trace(dup(fd), true), 0);
	return memfd_bytes(fd, len);
}

START_TEST(kprobe_identities_and_facts)
{
	struct bpfrr_obj_facts f;
	struct bpfrr_fdm_obj *map, *prog;
	enum bpfrr_obj_kind kind;
	uint32_t type, ks, vs;
	struct run rn;
	size_t len;
	uint8_t *bytes = kprobe_trace(&len);

	run_open_mem(&rn, bytes, len);
	/* identities by the seq of the call that made the object, before any call is read */
	ck_assert_uint_eq(bpfrr_rt_identity(rn.rt, 1)->id, 5);
	ck_assert_uint_eq(bpfrr_rt_identity(rn.rt, 2)->id, 17);
	ck_assert_str_eq(bpfrr_rt_identity(rn.rt, 4)->name, "count_opens");
	ck_assert_ptr_null(bpfrr_rt_identity(rn.rt, 3));	/* the rejected load */
	ck_assert_ptr_null(bpfrr_rt_identity(rn.rt, 0));

	/* #2 the map: before its result nothing is at fd 4, after it the map is */
	run_to(&rn, 2);
	ck_assert_ptr_null(lookup(&rn, TID, 4));
	ck_assert_ptr_null(bpfrr_rt_made(rn.rt, 2));
	run_to(&rn, 3);
	map = lookup(&rn, TID, 4);
	ck_assert_ptr_nonnull(map);
	ck_assert_uint_eq(map->origin, 2);
	ck_assert_uint_eq(map->kind, BPFRR_OBJ_MAP);
	ck_assert_str_eq(bpfrr_rt_made(rn.rt, 2)->name, "counts");
	ck_assert_uint_eq(bpfrr_rt_made(rn.rt, 2)->key_size, 4);
	bpfrr_rt_obj_facts(rn.rt, map, &f);
	ck_assert_uint_eq(f.type, BPF_MAP_TYPE_HASH);
	ck_assert_uint_eq(f.value_size, 8);
	ck_assert_str_eq(bpfrr_rt_obj_name(rn.rt, map), "counts");

	/* #3 the rejected load made nothing; #4's insns name the map through the walker */
	run_to(&rn, 4);
	ck_assert_ptr_null(bpfrr_rt_made(rn.rt, 3));
	ck_assert_int_eq(fd_info(&rn, 4, &kind, &type, &ks, &vs), 0);
	ck_assert_int_eq(kind, BPFRR_OBJ_MAP);
	ck_assert_uint_eq(type, BPF_MAP_TYPE_HASH);
	ck_assert_uint_eq(ks, 4);
	ck_assert_uint_eq(vs, 8);
	ck_assert_int_eq(fd_info(&rn, 9, &kind, &type, &ks, &vs), -ENOENT);

	/* #5 perf_event_open: its object comes with its FD_EVENT, named by nothing */
	run_to(&rn, 6);
	ck_assert_uint_eq(lookup(&rn, TID, 6)->kind, BPFRR_OBJ_PERF_EVENT);
	ck_assert_ptr_null(bpfrr_rt_made(rn.rt, 5));
	ck_assert_str_eq(bpfrr_rt_obj_name(rn.rt, lookup(&rn, TID, 6)), "");
	prog = lookup(&rn, TID, 5);
	ck_assert_uint_eq(prog->origin, 4);
	ck_assert_str_eq(bpfrr_rt_obj_name(rn.rt, prog), "count_opens");
	bpfrr_rt_obj_facts(rn.rt, prog, &f);
	ck_assert_uint_eq(f.type, BPF_PROG_TYPE_KPROBE);
	ck_assert(!f.has_sizes);

	/* #7 a thread shares the table */
	run_to(&rn, 7);
	ck_assert_int_eq(rn.call.tid, 101);
	ck_assert_ptr_eq(lookup(&rn, 101, 4), map);
	ck_assert_int_eq(fd_info(&rn, 4, &kind, &type, &ks, &vs), 0);
	ck_assert_uint_eq(vs, 8);

	/* the parent closed fd 4 (seq 8); the forked child's copy still names the map (#9) */
	run_to(&rn, 9);
	ck_assert_ptr_null(lookup(&rn, TID, 4));
	ck_assert_ptr_eq(lookup(&rn, 102, 4), map);
	ck_assert_uint_eq(map->close_seq, 0);
	{
		uint32_t key = 0;
		uint64_t value = 0;

		/* the call's captured memory, by phase */
		ck_assert_int_eq(bpfrr_rt_read_mem(rn.rt, &rn.call, BPFRR_PHASE_ENTRY, 0x60000, &key, 4), 0);
		ck_assert_uint_eq(key, 7);
		ck_assert_int_eq(bpfrr_rt_read_mem(rn.rt, &rn.call, BPFRR_PHASE_EXIT, 0x60010, &value, 8), 0);
		ck_assert_uint_eq(value, 0x1122334455667788ull);
		ck_assert_int_eq(bpfrr_rt_read_mem(rn.rt, &rn.call, BPFRR_PHASE_ENTRY, 0x60010, &value, 8),
				 -EFAULT);
		ck_assert_int_eq(bpfrr_rt_read_mem(rn.rt, &rn.call, BPFRR_PHASE_ENTRY, 0x60002, &key, 4),
				 -EFAULT);
	}
	while (run_next(&rn))
		;
	/* the child exited with the last fd of the map */
	ck_assert_uint_eq(map->nr_fds, 0);
	ck_assert_uint_eq(map->exit_tid, 102);
	run_close(&rn);
	free(bytes);
}
END_TEST

/* Every fd the walker finds in a call (that is not -1) resolves to an object the model knows. */
struct fd_count {
	struct run *rn;
	unsigned int fds, resolved;
	uint64_t last_origin;
};

static int count_fd_ref(void *arg, const struct bpfrr_abi_fd_ref *ref)
{
	struct fd_count *fc = arg;
	struct bpfrr_fdm_obj *o = lookup(fc->rn, fc->rn->call.tid, ref->fd);

	if (ref->fd < 0)	/* "none" where the field allows it (a link's target_fd -1) */
		return 0;
	fc->fds++;
	if (o) {
		fc->resolved++;
		fc->last_origin = o->origin;
	}
	return 0;
}

START_TEST(kprobe_walker_fds)
{
	struct fd_count fc = { 0 };
	struct bpfrr_rt_walk w;
	struct run rn;
	size_t len;
	uint8_t *bytes = kprobe_trace(&len);

	run_open_mem(&rn, bytes, len);
	fc.rn = &rn;
	/* #4: the ld_imm64 of the map */
	run_to(&rn, 4);
	ck_assert_int_eq(bpfrr_abi_walk_fds(BPFRR_CMD_PROG_LOAD, rn.call.attr, rn.call.attr_len,
					    bpfrr_rt_walk_env(&w, rn.rt, &rn.call, BPFRR_PHASE_ENTRY),
					    count_fd_ref, &fc), 0);
	ck_assert_uint_eq(fc.fds, 1);
	ck_assert_uint_eq(fc.resolved, 1);
	ck_assert_uint_eq(fc.last_origin, 2);
	/* #6: the link names the program and the perf event */
	run_to(&rn, 6);
	memset(&fc, 0, sizeof(fc));
	fc.rn = &rn;
	ck_assert_int_eq(bpfrr_abi_walk_fds(BPFRR_CMD_LINK_CREATE, rn.call.attr, rn.call.attr_len,
					    bpfrr_rt_walk_env(&w, rn.rt, &rn.call, BPFRR_PHASE_ENTRY),
					    count_fd_ref, &fc), 0);
	ck_assert_uint_eq(fc.fds, 2);
	ck_assert_uint_eq(fc.resolved, 2);
	run_close(&rn);
	free(bytes);
}
END_TEST

/* --- fd reuse, dup, objects made outside the trace ---------------------------------------------- */

static uint8_t *reuse_trace(size_t *len)
{
	static const char *const argv[] = { "./loader" };
	struct bpfrr_trace_header h = {
		.arch = 62, .nr_cpus = 4, .page_size = 4096, .start_monotonic_ns = SYNTH_T0,
		.recorder_pid = 99, .tracee_pid = TID, .arch_name = "x86_64", .kernel_release = "6.12.0-test",
		.kernel_version = "#1", .recorder_version = "bpfrr 0.1.0", .argc = 1, .argv = argv,
	};
	struct synth s = { .now = SYNTH_T0 };
	int fd = memfd_create("reuse", 0);
	uint64_t map_seq, prog_seq;
	union bpf_attr a;

	ck_assert_int_ge(fd, 0);
	s.w = bpfrr_trace_create_fd(dup(fd), &h);
	ck_assert_ptr_nonnull(s.w);
	synth_task(&s, BPFRR_TASK_START, TID, TID, 0, 0, 0);
	/* #1 a per-CPU array at fd 3, no identity recorded */
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_PERCPU_ARRAY;
	a.key_size = 4;
	a.value_size = 12;
	a.max_entries = 1;
	strcpy(a.map_name, "pcpu");
	map_seq = synth_bpf(&s, TID, BPF_MAP_CREATE, &a, 72, NULL, NULL, 0, 3);
	synth_fd(&s, map_seq, TID, BPFRR_FD_NEW, 3, BPFRR_OBJ_MAP, map_seq);
	/* #2 closed; #3 a program gets fd 3 again */
	synth_fd(&s, ++s.seq, TID, BPFRR_FD_CLOSE, 3, BPFRR_OBJ_MAP, map_seq);
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	strcpy(a.prog_name, "again");
	prog_seq = synth_bpf(&s, TID, BPF_PROG_LOAD, &a, 128, NULL, NULL, 0, 3);
	synth_fd(&s, prog_seq, TID, BPFRR_FD_NEW, 3, BPFRR_OBJ_PROG, prog_seq);
	synth_object(&s, &(struct bpfrr_rec_object){ .seq = prog_seq, .tid = TID, .fd = 3, .kind = BPFRR_OBJ_PROG,
						     .flags = BPFRR_OBJECT_F_QUERY_FAILED, .err = EPERM, .name = "" });
	/* #4 dup(3) = 5 */
	synth_check(&s, bpfrr_trace_write_fd_event(s.w, &(struct bpfrr_rec_fd_event){
		.seq = ++s.seq, .tid = TID, .op = BPFRR_FD_DUP, .fd = 3, .newfd = 5, .kind = BPFRR_OBJ_PROG,
		.object = prog_seq }));
	/* a map fd the loader inherited, and an fd of unknown kind */
	synth_check(&s, bpfrr_trace_write_fd_event(s.w, &(struct bpfrr_rec_fd_event){
		.tid = TID, .op = BPFRR_FD_ADOPT, .fd = 9, .newfd = -1, .kind = BPFRR_OBJ_MAP }));
	synth_check(&s, bpfrr_trace_write_fd_event(s.w, &(struct bpfrr_rec_fd_event){
		.tid = TID, .op = BPFRR_FD_ADOPT, .fd = 10, .newfd = -1, .kind = BPFRR_OBJ_ANY }));
	/* #5 a call that looks at them (its result is nothing new) */
	memset(&a, 0, sizeof(a));
	a.map_fd = 9;
	synth_bpf(&s, TID, BPF_MAP_FREEZE, &a, 4, NULL, NULL, 0, 0);
	/* #6 a call that did not return makes nothing */
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	{
		struct bpfrr_rec_bpf_call c = {
			.seq = ++s.seq, .tid = TID, .cmd = BPF_MAP_CREATE, .attr_size = 72, .attr_len = 72,
			.attr = &a, .flags = BPFRR_CALL_NO_EXIT, .t_enter_ns = synth_time(&s),
		};

		synth_check(&s, bpfrr_trace_write_bpf_call(s.w, &c));
	}
	/* #7 BTF at fd 11, whose FD_EVENT the trace lacks: the call's result alone names it */
	memset(&a, 0, sizeof(a));
	synth_bpf(&s, TID, BPF_BTF_LOAD, &a, 32, NULL, NULL, 0, 11);
	ck_assert_int_eq(s.err, 0);
	ck_assert_int_eq(bpfrr_trace_close(s.w, 0, 0), 0);
	return memfd_bytes(fd, len);
}

START_TEST(fd_reuse_dup_and_unknowns)
{
	struct bpfrr_fdm_obj *map, *prog;
	struct bpfrr_obj_facts f;
	enum bpfrr_obj_kind kind;
	uint32_t type, ks, vs;
	struct run rn;
	size_t len;
	uint8_t *bytes = reuse_trace(&len);

	run_open_mem(&rn, bytes, len);
	/* a failed identity query is kept, and adds nothing to the facts */
	ck_assert_ptr_nonnull(bpfrr_rt_identity(rn.rt, 3));
	ck_assert_ptr_null(bpfrr_rt_identity(rn.rt, 1));
	run_to(&rn, 3);
	map = bpfrr_fdm_find(bpfrr_rt_fdm(rn.rt), 1);
	ck_assert_ptr_nonnull(map);
	ck_assert_uint_eq(map->nr_fds, 0);
	ck_assert_uint_eq(map->close_seq, 2);
	ck_assert_ptr_null(lookup(&rn, TID, 3));	/* #3's result is not applied yet */
	/* facts without an identity: the creating attr's */
	bpfrr_rt_obj_facts(rn.rt, map, &f);
	ck_assert(f.has_sizes);
	ck_assert_uint_eq(f.type, BPF_MAP_TYPE_PERCPU_ARRAY);
	ck_assert_uint_eq(f.value_size, 12);
	ck_assert_str_eq(bpfrr_rt_obj_name(rn.rt, map), "pcpu");

	run_to(&rn, 5);
	prog = lookup(&rn, TID, 3);
	ck_assert_ptr_nonnull(prog);
	ck_assert_ptr_ne(prog, map);
	ck_assert_uint_eq(prog->origin, 3);
	ck_assert_ptr_eq(lookup(&rn, TID, 5), prog);	/* the dup */
	ck_assert_uint_eq(prog->nr_fds, 2);
	ck_assert_str_eq(bpfrr_rt_obj_name(rn.rt, prog), "again");	/* the identity has no name */
	ck_assert_int_eq(fd_info(&rn, 5, &kind, &type, &ks, &vs), 0);
	ck_assert_int_eq(kind, BPFRR_OBJ_PROG);
	ck_assert_uint_eq(type, BPF_PROG_TYPE_SOCKET_FILTER);
	/* the adopted map: made outside the trace, its sizes unknown */
	ck_assert_uint_eq(lookup(&rn, TID, 9)->origin, 0);
	ck_assert_str_eq(bpfrr_rt_obj_name(rn.rt, lookup(&rn, TID, 9)), "");
	ck_assert_int_eq(fd_info(&rn, 9, &kind, &type, &ks, &vs), -ENOENT);
	{
		struct bpfrr_rt_walk w;
		const struct bpfrr_abi_env *env = bpfrr_rt_walk_env(&w, rn.rt, &rn.call, BPFRR_PHASE_ENTRY);

		ck_assert_int_eq(env->fd_info(env->ctx, 9, &kind, NULL, NULL, NULL), 0);
		ck_assert_int_eq(kind, BPFRR_OBJ_MAP);
		ck_assert_uint_eq(env->nr_cpus, 4);
		ck_assert_ptr_null(env->read_entry_mem);
		env = bpfrr_rt_walk_env(&w, rn.rt, &rn.call, BPFRR_PHASE_EXIT);
		ck_assert_ptr_eq(env->entry_attr, rn.call.attr);
		ck_assert_ptr_nonnull(env->read_entry_mem);
	}
	ck_assert_int_eq(fd_info(&rn, 10, &kind, &type, &ks, &vs), -ENOENT);	/* ANY */
	/* #5 and #6 make nothing, #7 its BTF */
	run_to(&rn, 6);
	ck_assert_ptr_null(bpfrr_rt_made(rn.rt, 5));
	while (run_next(&rn))
		;
	ck_assert_ptr_null(bpfrr_rt_made(rn.rt, 6));
	ck_assert_ptr_null(bpfrr_fdm_find(bpfrr_rt_fdm(rn.rt), 6));
	ck_assert_ptr_nonnull(lookup(&rn, TID, 11));
	ck_assert_uint_eq(lookup(&rn, TID, 11)->origin, 7);
	ck_assert_uint_eq(lookup(&rn, TID, 11)->kind, BPFRR_OBJ_BTF);
	ck_assert_ptr_nonnull(bpfrr_rt_made(rn.rt, 7));
	run_close(&rn);
	free(bytes);
}
END_TEST

/* --- the committed recordings ------------------------------------------------------------- */

/*
 * Over every recorded trace: every OBJECT record is found by its seq and fd,
 * the identity of a call that made an object is the OBJECT record of the fd
 * it returned (not one the recorder wrote for an fd it adopted while that
 * call used it: see adopted_fd_identity), every fd a bpf() call passes
 * resolves to an object, and for every map the recorder identified, the
 * creating attr and the identity agree on type and sizes.
 */
START_TEST(recorded_traces)
{
	char dir[4200], path[4500];
	unsigned int nr_traces = 0;
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/traces", data_dir);
	d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d))) {
		unsigned int objects = 0, calls_made = 0;
		struct bpfrr_u64map seen = { 0 };
		struct fd_count fc = { 0 };
		struct bpfrr_rt_walk w;
		char *err = NULL;
		struct run rn;

		if (!strstr(de->d_name, ".trace"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		memset(&rn, 0, sizeof(rn));
		rn.r = bpfrr_trace_open(path, 0, &err);
		ck_assert_msg(rn.r, "%s", err ? err : "?");
		rn.rt = bpfrr_rt_new(rn.r);
		ck_assert_ptr_nonnull(rn.rt);
		ck_assert_int_eq(bpfrr_rt_collect(rn.rt, NULL, NULL), BPFRR_TRACE_EOF);
		ck_assert_int_eq(bpfrr_rt_model(rn.rt, 0, NULL, NULL), 0);
		fc.rn = &rn;
		while (run_next(&rn)) {
			if (rn.rec.type == BPFRR_REC_OBJECT) {
				const struct bpfrr_rec_object *id = bpfrr_rt_identity_fd(rn.rt, rn.rec.object.seq,
											 rn.rec.object.fd);

				ck_assert_ptr_nonnull(id);
				/* the first OBJECT record of a (seq, fd) */
				if (!bpfrr_u64map_get(&seen, id->seq << 16 | (uint16_t)id->fd, NULL)) {
					ck_assert_uint_eq(id->kind, rn.rec.object.kind);
					ck_assert_uint_eq(id->id, rn.rec.object.id);
					ck_assert_int_eq(bpfrr_u64map_put(&seen, id->seq << 16 | (uint16_t)id->fd, 1), 0);
				}
				objects++;
				if (id->kind == BPFRR_OBJ_MAP && !(id->flags & BPFRR_OBJECT_F_QUERY_FAILED) &&
				    bpfrr_rt_made(rn.rt, id->seq) && bpfrr_rt_identity(rn.rt, id->seq) == id) {
					const struct bpfrr_obj_facts *m = bpfrr_rt_made(rn.rt, id->seq);

					ck_assert_msg(m->type == id->type && m->key_size == id->key_size &&
						      m->value_size == id->value_size,
						      "%s: seq %llu: attr and identity disagree", de->d_name,
						      (unsigned long long)id->seq);
				}
			}
			if (rn.rec.type != BPFRR_REC_BPF_CALL || !bpfrr_abi_cmd((int)rn.call.cmd) ||
			    !rn.call.attr_len)
				continue;
			if (!bpfrr_trace_ret_errno(rn.call.ret) && rn.call.ret >= 0 &&
			    bpfrr_abi_cmd_ret_kind((int)rn.call.cmd, NULL, 0) != BPFRR_OBJ_NONE) {
				const struct bpfrr_rec_object *id = bpfrr_rt_identity(rn.rt, rn.call.seq);

				calls_made++;
				ck_assert_msg(!id || id->fd == rn.call.ret, "%s: seq %llu returned fd %lld, identity of fd %d",
					      de->d_name, (unsigned long long)rn.call.seq, (long long)rn.call.ret,
					      id ? id->fd : -1);
			}
			bpfrr_abi_walk_fds((int)rn.call.cmd, rn.call.attr, rn.call.attr_len,
					   bpfrr_rt_walk_env(&w, rn.rt, &rn.call, BPFRR_PHASE_ENTRY), count_fd_ref, &fc);
		}
		ck_assert_msg(objects > 0 && calls_made > 0, "%s: %u identities, %u calls made objects",
			      de->d_name, objects, calls_made);
		ck_assert_msg(fc.fds > 0 && fc.resolved == fc.fds, "%s: %u of %u fds resolved", de->d_name,
			      fc.resolved, fc.fds);
		bpfrr_u64map_free(&seen);
		run_close(&rn);
		nr_traces++;
	}
	closedir(d);
	ck_assert_uint_ge(nr_traces, 5);
}
END_TEST

/*
 * x86_64-fx_onemap_lskel #7: BPF_RAW_TRACEPOINT_OPEN on prog fd 7, which the
 * light skeleton's syscall program made (adopted: the recorder identifies it
 * with seq 7, before the link it returns as fd 3).  The identity of #7 is the
 * link's; the program's is found by its fd; neither is the other.
 */
START_TEST(adopted_fd_identity)
{
	const struct bpfrr_rec_object *link, *prog;
	char path[4500], *err = NULL;
	struct run rn;

	snprintf(path, sizeof(path), "%s/traces/x86_64-fx_onemap_lskel.trace", data_dir);
	memset(&rn, 0, sizeof(rn));
	rn.r = bpfrr_trace_open(path, 0, &err);
	ck_assert_msg(rn.r, "%s", err ? err : "?");
	rn.rt = bpfrr_rt_new(rn.r);
	ck_assert_ptr_nonnull(rn.rt);
	ck_assert_int_eq(bpfrr_rt_collect(rn.rt, NULL, NULL), BPFRR_TRACE_EOF);

	link = bpfrr_rt_identity(rn.rt, 7);
	ck_assert_ptr_nonnull(link);
	ck_assert_uint_eq(link->kind, BPFRR_OBJ_LINK);
	ck_assert_int_eq(link->fd, 3);
	ck_assert_uint_eq(link->prog_id, 65);
	ck_assert_ptr_eq(bpfrr_rt_identity_fd(rn.rt, 7, 3), link);
	prog = bpfrr_rt_identity_fd(rn.rt, 7, 7);
	ck_assert_ptr_nonnull(prog);
	ck_assert_uint_eq(prog->kind, BPFRR_OBJ_PROG);
	ck_assert_uint_eq(prog->id, 65);
	ck_assert_str_eq(prog->name, "count_syscalls");
	ck_assert_ptr_null(bpfrr_rt_identity_fd(rn.rt, 7, 4));
	/* #8 made nothing: no identity, though the fd it adopted has one */
	ck_assert_ptr_null(bpfrr_rt_identity(rn.rt, 8));
	prog = bpfrr_rt_identity_fd(rn.rt, 8, 6);
	ck_assert_ptr_nonnull(prog);
	ck_assert_str_eq(prog->name, "onemap");
	run_close(&rn);
}
END_TEST

/* --- the recording kernel and its symbols (1.1) ---------------------------------------------- */

/*
 * KERNEL and SYMBOL records are collected, the lookup tells kinds and
 * modules apart, and an unnamed number is found with its flag; a 1.0 trace
 * (the kprobe one) has neither.
 */
START_TEST(kernel_and_symbols)
{
	const struct bpfrr_rec_symbol *sym;
	const struct bpfrr_rec_kernel *k;
	struct run rn;
	size_t len;
	int fd;
	uint8_t *bytes;

	fd = memfd_create("synth", 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(synth_portable_trace(dup(fd)), 0);
	bytes = memfd_bytes(fd, &len);
	run_open_mem(&rn, bytes, len);

	k = bpfrr_rt_kernel(rn.rt);
	ck_assert_ptr_nonnull(k);
	ck_assert_str_eq(k->release, "6.12.0-bpfrr");
	ck_assert_str_eq(k->machine, "x86_64");
	ck_assert_uint_eq(k->btf_size, 5912345);
	ck_assert_uint_eq(k->btf_sha256[31], 0xf0);
	ck_assert_str_eq(k->build_id, "3f1c0e9a5b7d2468ace013579bdf02468ace1357");

	sym = bpfrr_rt_symbol(rn.rt, BPFRR_SYM_BTF_ID, SYNTH_ATTACH_BTF_ID, "");
	ck_assert_ptr_nonnull(sym);
	ck_assert_str_eq(sym->name, "vfs_read");
	ck_assert_uint_eq(sym->btf_kind, BTF_KIND_FUNC);
	ck_assert_uint_eq(sym->seq, 1);
	ck_assert_ptr_eq(bpfrr_rt_symbol(rn.rt, BPFRR_SYM_BTF_ID, SYNTH_ATTACH_BTF_ID, NULL), sym);
	/* the same number of another kind, or in a module, is not it */
	ck_assert_ptr_null(bpfrr_rt_symbol(rn.rt, BPFRR_SYM_TP_ID, SYNTH_ATTACH_BTF_ID, NULL));
	ck_assert_ptr_null(bpfrr_rt_symbol(rn.rt, BPFRR_SYM_BTF_ID, SYNTH_ATTACH_BTF_ID, "nf_conntrack"));
	ck_assert_ptr_null(bpfrr_rt_symbol(rn.rt, BPFRR_SYM_BTF_ID, 12345, NULL));

	sym = bpfrr_rt_symbol(rn.rt, BPFRR_SYM_BTF_ID, SYNTH_MOD_BTF_ID, "nf_conntrack");
	ck_assert_ptr_nonnull(sym);
	ck_assert_str_eq(sym->name, "nf_ct_helper");
	ck_assert_uint_eq(sym->btf_obj_id, 40);
	sym = bpfrr_rt_symbol(rn.rt, BPFRR_SYM_BTF_ID, SYNTH_MOD_BTF_ID, "");
	ck_assert_ptr_nonnull(sym);
	ck_assert_str_eq(sym->name, "task_struct");
	/* any module: vmlinux's, though the module's was recorded first */
	ck_assert_ptr_eq(bpfrr_rt_symbol(rn.rt, BPFRR_SYM_BTF_ID, SYNTH_MOD_BTF_ID, NULL), sym);

	sym = bpfrr_rt_symbol(rn.rt, BPFRR_SYM_TP_ID, SYNTH_TP_ID, NULL);
	ck_assert_ptr_nonnull(sym);
	ck_assert_str_eq(sym->name, "syscalls/sys_enter_openat");
	sym = bpfrr_rt_symbol(rn.rt, BPFRR_SYM_TP_ID, SYNTH_TP_UNNAMED, "");
	ck_assert_ptr_nonnull(sym);
	ck_assert_uint_eq(sym->flags, BPFRR_SYM_F_UNNAMED);
	ck_assert_str_eq(sym->name, "");
	sym = bpfrr_rt_symbol(rn.rt, BPFRR_SYM_PMU_TYPE, SYNTH_PMU_KPROBE, NULL);
	ck_assert_ptr_nonnull(sym);
	ck_assert_str_eq(sym->name, "kprobe");
	sym = bpfrr_rt_symbol(rn.rt, BPFRR_SYM_KSYM_ADDR, SYNTH_KADDR, NULL);
	ck_assert_ptr_nonnull(sym);
	ck_assert_str_eq(sym->name, "do_sys_openat2");
	ck_assert_uint_eq(sym->offset, 0x10);
	sym = bpfrr_rt_symbol(rn.rt, BPFRR_SYM_KSYM_ADDR, SYNTH_KADDR2, NULL);
	ck_assert_ptr_nonnull(sym);
	ck_assert_str_eq(sym->module, "nf_conntrack");
	ck_assert_ptr_null(bpfrr_rt_symbol(rn.rt, BPFRR_SYM_KSYM_ADDR, SYNTH_KADDR2, ""));
	run_close(&rn);
	free(bytes);

	/* a 1.0 trace: no kernel, no symbols */
	fd = memfd_create("synth", 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(synth_kprobe_trace(dup(fd), true), 0);
	bytes = memfd_bytes(fd, &len);
	run_open_mem(&rn, bytes, len);
	ck_assert_ptr_null(bpfrr_rt_kernel(rn.rt));
	ck_assert_ptr_null(bpfrr_rt_symbol(rn.rt, BPFRR_SYM_PMU_TYPE, 6, NULL));
	run_close(&rn);
	free(bytes);
}
END_TEST

/* Many symbols whose hashes may collide: each is found, none twice. */
START_TEST(many_symbols)
{
	struct bpfrr_rec_symbol s = { .kind = BPFRR_SYM_KSYM_ADDR, .name = "x", .module = "" };
	struct bpfrr_rt *rt;
	struct run rn;
	uint64_t v;
	size_t len;
	int fd = memfd_create("synth", 0);
	uint8_t *bytes;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(synth_kprobe_trace(dup(fd), true), 0);
	bytes = memfd_bytes(fd, &len);
	run_open_mem(&rn, bytes, len);
	rt = rn.rt;
	for (v = 0; v < 5000; v++) {
		s.value = 0xffffffff81000000ull + v * 16;
		s.offset = v;
		ck_assert_int_eq(bpfrr_rt_add_symbol(rt, &s), 0);
		s.kind = BPFRR_SYM_BTF_ID;
		s.value = v;
		ck_assert_int_eq(bpfrr_rt_add_symbol(rt, &s), 0);
		/* a duplicate keeps the first */
		s.offset = 99999;
		ck_assert_int_eq(bpfrr_rt_add_symbol(rt, &s), 0);
		s.kind = BPFRR_SYM_KSYM_ADDR;
	}
	for (v = 0; v < 5000; v++) {
		const struct bpfrr_rec_symbol *a =
			bpfrr_rt_symbol(rt, BPFRR_SYM_KSYM_ADDR, 0xffffffff81000000ull + v * 16, "");
		const struct bpfrr_rec_symbol *b = bpfrr_rt_symbol(rt, BPFRR_SYM_BTF_ID, v, NULL);

		ck_assert_ptr_nonnull(a);
		ck_assert_uint_eq(a->offset, v);
		ck_assert_ptr_nonnull(b);
		ck_assert_uint_eq(b->offset, v);
	}
	run_close(&rn);
	free(bytes);
}
END_TEST

static Suite *resolved_suite(void)
{
	Suite *s = suite_create("resolved");
	TCase *tc = tcase_create("resolved");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, creator_facts_and_identity);
	tcase_add_test(tc, kprobe_identities_and_facts);
	tcase_add_test(tc, kprobe_walker_fds);
	tcase_add_test(tc, fd_reuse_dup_and_unknowns);
	tcase_add_test(tc, recorded_traces);
	tcase_add_test(tc, adopted_fd_identity);
	tcase_add_test(tc, kernel_and_symbols);
	tcase_add_test(tc, many_symbols);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(resolved_suite());
	int failed;

	find_data_dir();
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The translator's front end, pass by pass (replayer/translate/frontend_int.h), on
 * synthetic traces written with the trace writer, and on traces recorded
 * in the guest (tests/data/traces/NAME.trace), whose --explain output must
 * equal tests/data/translate/NAME.explain (BPFRR_UPDATE_GOLDEN=1 rewrites
 * those; review the diff).  Also the fd model (lib/fdmodel.h) on its own
 * and `bpfrr translate`'s exit statuses.  Host only, no bpf().
 */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <libgen.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bundle.h"
#include "frontend_int.h"
#include "replayer.h"
#include "../data/synth_trace.h"
#include "bpfrr.h"
#include "fdmodel.h"
#include "frame.h"
#include "sha256.h"

#define TID	100
#define CHILD	102

static char data_dir[4096];

static void find_data_dir(void)
{
	char here[4096];

	snprintf(here, sizeof(here), "%s", __FILE__);
	snprintf(data_dir, sizeof(data_dir), "%s/../data", dirname(here));
}

/* --- building traces ----------------------------------------------------------------------- */

struct scen {
	struct synth s;
	int memfd;
};

static void scen_begin(struct scen *sc, uint32_t nr_cpus)
{
	static const char *const argv[] = { "./loader" };
	struct bpfrr_trace_header h = {
		.arch = 62, .nr_cpus = nr_cpus, .page_size = 4096, .start_monotonic_ns = SYNTH_T0,
		.recorder_pid = 99, .tracee_pid = TID, .arch_name = "x86_64", .kernel_release = "6.12.0-test",
		.kernel_version = "#1", .recorder_version = "bpfrr 0.1.0", .argc = 1, .argv = argv,
	};

	memset(sc, 0, sizeof(*sc));
	sc->s.now = SYNTH_T0;
	sc->memfd = memfd_create("scen", 0);
	ck_assert_int_ge(sc->memfd, 0);
	sc->s.w = bpfrr_trace_create_fd(dup(sc->memfd), &h);
	ck_assert_ptr_nonnull(sc->s.w);
	synth_task(&sc->s, BPFRR_TASK_START, TID, TID, 0, 0, 0);
}

/* The trace's bytes (with or without END). */
static uint8_t *scen_end(struct scen *sc, bool with_end, size_t *len)
{
	struct stat st;
	uint8_t *buf;

	ck_assert_int_eq(sc->s.err, 0);
	if (with_end)
		ck_assert_int_eq(bpfrr_trace_close(sc->s.w, 0, 0), 0);
	else
		bpfrr_trace_abandon(sc->s.w);
	ck_assert_int_eq(fstat(sc->memfd, &st), 0);
	*len = (size_t)st.st_size;
	buf = malloc(*len);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(pread(sc->memfd, buf, *len, 0), (ssize_t)*len);
	close(sc->memfd);
	return buf;
}

static void obj(struct scen *sc, uint64_t seq, uint32_t tid, int fd, uint32_t kind, uint32_t id, uint32_t type,
		const char *name)
{
	struct bpfrr_rec_object o = {
		.seq = seq, .tid = tid, .fd = fd, .kind = kind, .id = id, .type = type, .name = name ? name : "",
	};

	if (kind == BPFRR_OBJ_PROG)
		memcpy(o.tag, (uint8_t[8]){ 1, 2, 3, 4, 5, 6, 7, (uint8_t)id }, 8);
	if (kind == BPFRR_OBJ_BTF)
		o.btf_size = 32;
	synth_object(&sc->s, &o);
}

static uint64_t btf_load(struct scen *sc, uint32_t tid, int fd, uint32_t id)
{
	static const uint8_t btf[32] = { 0x9f, 0xeb, 1, 0, 24 };
	struct bpfrr_trace_region r;
	union bpf_attr a;
	uint64_t seq;

	memset(&a, 0, sizeof(a));
	a.btf = 0x10000;
	a.btf_size = sizeof(btf);
	r = synth_region(&sc->s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_BTF, "attr.btf", 0x10000, btf,
			 sizeof(btf));
	seq = synth_bpf(&sc->s, tid, BPF_BTF_LOAD, &a, 32, NULL, &r, 1, fd);
	synth_fd(&sc->s, seq, tid, BPFRR_FD_NEW, fd, BPFRR_OBJ_BTF, seq);
	obj(sc, seq, tid, fd, BPFRR_OBJ_BTF, id, 0, NULL);
	return seq;
}

static uint64_t map_create(struct scen *sc, uint32_t tid, int fd, uint32_t type, uint32_t vs, const char *name,
			   int btf_fd, int inner_fd, uint32_t id)
{
	union bpf_attr a;
	uint64_t seq;

	memset(&a, 0, sizeof(a));
	a.map_type = type;
	a.key_size = 4;
	a.value_size = vs;
	a.max_entries = 4;
	a.inner_map_fd = inner_fd > 0 ? inner_fd : 0;
	snprintf(a.map_name, sizeof(a.map_name), "%s", name);
	a.btf_fd = btf_fd > 0 ? btf_fd : 0;
	seq = synth_bpf(&sc->s, tid, BPF_MAP_CREATE, &a, 72, NULL, NULL, 0, fd);
	synth_fd(&sc->s, seq, tid, BPFRR_FD_NEW, fd, BPFRR_OBJ_MAP, seq);
	{
		struct bpfrr_rec_object o = {
			.seq = seq, .tid = tid, .fd = fd, .kind = BPFRR_OBJ_MAP, .id = id, .type = type,
			.key_size = 4, .value_size = vs, .max_entries = 4, .name = name,
		};

		synth_object(&sc->s, &o);
	}
	return seq;
}

/* a kprobe-type program with an ld_imm64 of map_fd (if > 0) at insn 0; ret < 0: failed load */
static uint64_t prog_load(struct scen *sc, uint32_t tid, int fd, const char *name, int map_fd, int btf_fd,
			  uint32_t id, int64_t ret)
{
	struct bpfrr_trace_region r[3];
	struct bpf_insn insns[8];
	struct bpf_func_info fi = { 0, 1 };
	union bpf_attr a;
	uint64_t seq;
	uint32_t nr = 2;

	synth_insns(insns, map_fd);
	if (map_fd <= 0)	/* no map: r1 = 0 instead of the ld_imm64 */
		insns[0] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 1 };
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	a.insn_cnt = 8;
	a.insns = 0x20000;
	a.license = 0x21000;
	snprintf(a.prog_name, sizeof(a.prog_name), "%s", name);
	r[0] = synth_region(&sc->s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_INSNS, "attr.insns", 0x20000,
			    insns, sizeof(insns));
	r[1] = synth_region(&sc->s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_STRING, "attr.license",
			    0x21000, "GPL", 4);
	if (btf_fd > 0) {
		a.prog_btf_fd = btf_fd;
		a.func_info_rec_size = sizeof(fi);
		a.func_info_cnt = 1;
		a.func_info = 0x22000;
		r[nr++] = synth_region(&sc->s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_FUNC_INFO,
				       "attr.func_info", 0x22000, &fi, sizeof(fi));
	}
	seq = synth_bpf(&sc->s, tid, BPF_PROG_LOAD, &a, 128, NULL, r, nr, ret >= 0 ? fd : ret);
	if (ret >= 0) {
		synth_fd(&sc->s, seq, tid, BPFRR_FD_NEW, fd, BPFRR_OBJ_PROG, seq);
		obj(sc, seq, tid, fd, BPFRR_OBJ_PROG, id, BPF_PROG_TYPE_RAW_TRACEPOINT, name);
	}
	return seq;
}

static uint64_t sys(struct scen *sc, uint32_t tid, const char *name, uint32_t nr, const uint64_t args[6],
		    int64_t ret, const struct bpfrr_trace_region *regs, uint32_t nr_regs)
{
	struct bpfrr_rec_syscall s = {
		.seq = ++sc->s.seq, .tid = tid, .nr = nr, .ret = ret, .name = name, .nr_regions = nr_regs,
		.regions = regs,
	};

	memcpy(s.args, args, sizeof(s.args));
	s.t_enter_ns = synth_time(&sc->s);
	s.t_exit_ns = s.t_enter_ns + 1000;
	sc->s.now = s.t_exit_ns;
	synth_check(&sc->s, bpfrr_trace_write_syscall(sc->s.w, &s));
	return s.seq;
}

/* close(fd): the FD_EVENT (at entry), then the call */
static uint64_t close_fd(struct scen *sc, uint32_t tid, int fd, uint32_t kind, uint64_t origin)
{
	synth_fd(&sc->s, sc->s.seq + 1, tid, BPFRR_FD_CLOSE, fd, kind, origin);
	return sys(sc, tid, "close", 3, (uint64_t[6]){ (uint64_t)fd }, 0, NULL, 0);
}

static uint64_t map_update(struct scen *sc, uint32_t tid, int map_fd, uint32_t key, const void *value,
			   uint32_t vlen)
{
	struct bpfrr_trace_region r[2];
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = map_fd;
	a.key = 0x50000;
	a.value = 0x50010;
	r[0] = synth_region(&sc->s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_KEY, "attr.key", 0x50000, &key, 4);
	r[1] = synth_region(&sc->s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_VALUE, "attr.value", 0x50010,
			    value, vlen);
	return synth_bpf(&sc->s, tid, BPF_MAP_UPDATE_ELEM, &a, 32, NULL, r, 2, 0);
}

static uint64_t raw_tp_open(struct scen *sc, uint32_t tid, int fd, int prog_fd, uint32_t id, uint32_t prog_id)
{
	struct bpfrr_trace_region r;
	union bpf_attr a;
	uint64_t seq;

	memset(&a, 0, sizeof(a));
	a.raw_tracepoint.name = 0x60000;
	a.raw_tracepoint.prog_fd = prog_fd;
	r = synth_region(&sc->s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_STRING, "attr.raw_tracepoint.name",
			 0x60000, "sys_enter", 10);
	seq = synth_bpf(&sc->s, tid, BPF_RAW_TRACEPOINT_OPEN, &a, 16, NULL, &r, 1, fd);
	synth_fd(&sc->s, seq, tid, BPFRR_FD_NEW, fd, BPFRR_OBJ_LINK, seq);
	{
		struct bpfrr_rec_object o = {
			.seq = seq, .tid = tid, .fd = fd, .kind = BPFRR_OBJ_LINK, .id = id,
			.type = BPF_LINK_TYPE_RAW_TRACEPOINT, .prog_id = prog_id, .name = "",
		};

		synth_object(&sc->s, &o);
	}
	return seq;
}

static uint64_t info_query(struct scen *sc, uint32_t tid, int fd)
{
	union bpf_attr a;
	uint8_t info[64] = { 0 };
	struct bpfrr_trace_region r[2];

	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = fd;
	a.info.info_len = sizeof(info);
	a.info.info = 0x70000;
	r[0] = synth_region(&sc->s, BPFRR_PHASE_ENTRY, BPFRR_DIR_INOUT, BPFRR_CONTENT_INFO, "attr.info.info",
			    0x70000, info, sizeof(info));
	r[1] = r[0];
	r[1].phase = BPFRR_PHASE_EXIT;
	return synth_bpf(&sc->s, tid, BPF_OBJ_GET_INFO_BY_FD, &a, 16, &a, r, 2, 0);
}

/* openat(path) = fd, its content captured (a tracefs id, a PMU type), then closed */
static uint64_t read_file(struct scen *sc, uint32_t tid, int fd, const char *path, const char *content)
{
	struct bpfrr_trace_region r[3];
	uint64_t seq;

	r[0] = synth_region(&sc->s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_PATH, "pathname", 0x80000, path,
			    strlen(path) + 1);
	r[1] = synth_region(&sc->s, BPFRR_PHASE_EXIT, BPFRR_DIR_OUT, BPFRR_CONTENT_PATH, "path", 0, path,
			    strlen(path) + 1);
	r[2] = synth_region(&sc->s, BPFRR_PHASE_EXIT, BPFRR_DIR_OUT, BPFRR_CONTENT_STRING, "content", 0, content,
			    strlen(content));
	seq = sys(sc, tid, "openat", 257, (uint64_t[6]){ (uint64_t)-100, 0x80000, 0x80000 }, fd, r,
		  content ? 3 : 2);
	synth_fd(&sc->s, seq, tid, BPFRR_FD_NEW, fd, BPFRR_OBJ_ANY, seq);
	close_fd(sc, tid, fd, BPFRR_OBJ_ANY, seq);
	return seq;
}

/* perf_event_open of a tracepoint (type 2, config id) or of the kprobe PMU (type 6, config1 = name) */
/* attr.disabled */
#define PERF_BITS_DISABLED	1ull

static uint64_t perf_open(struct scen *sc, uint32_t tid, int fd, uint32_t type, uint64_t config,
			  const char *kprobe, int32_t pid, uint64_t bits)
{
	struct bpfrr_trace_region r[2];
	uint8_t attr[128] = { 0 };
	uint32_t size = sizeof(attr), nr = 1;
	uint64_t seq, config1 = kprobe ? 0x41000 : 0;

	memcpy(attr, &type, 4);
	memcpy(attr + 4, &size, 4);
	memcpy(attr + 8, &config, 8);
	memcpy(attr + 40, &bits, 8);
	memcpy(attr + 56, &config1, 8);
	r[0] = synth_region(&sc->s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_BYTES, "perf_event_attr",
			    0x40000, attr, sizeof(attr));
	if (kprobe)
		r[nr++] = synth_region(&sc->s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_STRING,
				       "perf_event_attr.config1", 0x41000, kprobe, strlen(kprobe) + 1);
	seq = sys(sc, tid, "perf_event_open", 298,
		  (uint64_t[6]){ 0x40000, (uint64_t)(int64_t)pid, 0, (uint64_t)-1, 8 }, fd, r, nr);
	synth_fd(&sc->s, seq, tid, BPFRR_FD_NEW, fd, BPFRR_OBJ_PERF_EVENT, seq);
	return seq;
}

static uint64_t link_create_perf(struct scen *sc, uint32_t tid, int fd, int prog_fd, int perf_fd, uint32_t id,
				 uint32_t prog_id)
{
	union bpf_attr a;
	uint64_t seq;

	memset(&a, 0, sizeof(a));
	a.link_create.prog_fd = prog_fd;
	a.link_create.target_fd = perf_fd;
	a.link_create.attach_type = BPF_PERF_EVENT;
	seq = synth_bpf(&sc->s, tid, BPF_LINK_CREATE, &a, 48, NULL, NULL, 0, fd);
	synth_fd(&sc->s, seq, tid, BPFRR_FD_NEW, fd, BPFRR_OBJ_LINK, seq);
	{
		struct bpfrr_rec_object o = {
			.seq = seq, .tid = tid, .fd = fd, .kind = BPFRR_OBJ_LINK, .id = id,
			.type = BPF_LINK_TYPE_PERF_EVENT, .prog_id = prog_id, .name = "",
		};

		synth_object(&sc->s, &o);
	}
	return seq;
}

/* --- running the passes -------------------------------------------------------------------- */

struct run {
	struct bpfrr_trace_reader *r;
	struct fe_trace *t;
	struct bpfrr_ir *ir;
	uint8_t *bytes;
	char err[512];
};

/* Load and run the passes up to 'passes' (1: fdlife, 2: select, 3: reloc). */
/* len is read after bytes is made: run_passes(&rn, scen_x(&len), &len, ...) */
static int run_passes(struct run *rn, uint8_t *bytes, const size_t *len, int passes,
		      const struct bpfrr_frontend_opts *o)
{
	static const struct bpfrr_frontend_opts none;
	char *open_err = NULL;

	memset(rn, 0, sizeof(*rn));
	rn->bytes = bytes;
	rn->r = bpfrr_trace_open_mem(bytes, *len, "scen.trace", 0, &open_err);
	ck_assert_msg(rn->r, "%s", open_err);
	rn->t = fe_load(rn->r, rn->err, sizeof(rn->err));
	ck_assert_msg(rn->t, "%s", rn->err);
	if (fe_pass_fdlife(rn->t, rn->err, sizeof(rn->err)))
		return -1;
	if (passes >= 2 && fe_pass_select(rn->t, o ? o : &none, rn->err, sizeof(rn->err)))
		return -1;
	if (passes >= 3 && !(rn->ir = fe_pass_reloc(rn->t, o ? o : &none, rn->err, sizeof(rn->err))))
		return -1;
	return 0;
}

static void run_free(struct run *rn)
{
	bpfrr_ir_free(rn->ir);
	fe_free(rn->t);
	bpfrr_trace_reader_close(rn->r);
	free(rn->bytes);
}

static struct fe_call *call(struct run *rn, uint64_t seq)
{
	struct fe_call *c = fe_call_by_seq(rn->t, seq);

	ck_assert_msg(c, "no call seq %llu", (unsigned long long)seq);
	return c;
}

static const struct fe_ref *ref(struct run *rn, uint64_t seq, const char *path)
{
	struct fe_call *c = call(rn, seq);

	for (uint32_t i = 0; i < c->nr_refs; i++)
		if (!strcmp(c->refs[i].path, path))
			return &c->refs[i];
	ck_abort_msg("seq %llu has no fd at %s", (unsigned long long)seq, path);
	return NULL;
}

/* the origin of the object the fd at path of call seq named (0: none) */
static uint64_t ref_origin(struct run *rn, uint64_t seq, const char *path)
{
	const struct fe_ref *r = ref(rn, seq, path);

	return r->obj ? fe_canon(r->obj)->base.origin : 0;
}

static void assert_fate(struct run *rn, uint64_t seq, enum fe_fate fate, const char *why_part)
{
	struct fe_call *c = call(rn, seq);

	ck_assert_msg(c->fate == fate, "seq %llu: fate %d, want %d (%s)", (unsigned long long)seq, c->fate,
		      fate, c->why);
	if (why_part)
		ck_assert_msg(strstr(c->why, why_part), "seq %llu: reason '%s' lacks '%s'",
			      (unsigned long long)seq, c->why, why_part);
}

static const struct bpfrr_ir_call *ir_call(struct run *rn, uint64_t seq)
{
	for (uint32_t i = 0; i < rn->ir->nr_calls; i++)
		if (rn->ir->calls[i].seq == seq)
			return &rn->ir->calls[i];
	ck_abort_msg("the IR has no call of seq %llu", (unsigned long long)seq);
	return NULL;
}

static int slot_named(struct run *rn, const char *name)
{
	for (uint32_t i = 0; i < rn->ir->nr_slots; i++)
		if (rn->ir->slots[i].name && !strcmp(rn->ir->slots[i].name, name))
			return (int)i;
	ck_abort_msg("no slot named %s", name);
	return -1;
}

static bool has_rel(const struct bpfrr_ir_call *c, int32_t buf, uint32_t offset, int slot, uint32_t refk)
{
	for (uint32_t i = 0; i < c->nr_fdrels; i++)
		if (c->fdrels[i].buf == buf && c->fdrels[i].offset == offset && (int)c->fdrels[i].slot == slot &&
		    c->fdrels[i].ref == refk)
			return true;
	return false;
}

static int buf_index(const struct bpfrr_ir_call *c, const char *path)
{
	for (uint32_t i = 0; i < c->nr_bufs; i++)
		if (!strcmp(c->bufs[i].path, path))
			return (int)i;
	return -1;
}

static char *slurp(const char *path, size_t *len);

/* --- the fd model ---------------------------------------------------------------------------- */

static int count_fd(void *arg, uint32_t tid, int fd, struct bpfrr_fdm_obj *o)
{
	(void)tid;
	(void)fd;
	(void)o;
	(*(int *)arg)++;
	return 0;
}

START_TEST(fdmodel_tables)
{
	struct bpfrr_fdmodel *m = bpfrr_fdm_new(0, NULL, NULL);
	struct bpfrr_rec_task start = { .event = BPFRR_TASK_START, .tid = 1, .tgid = 1 };
	struct bpfrr_rec_task thread = { .event = BPFRR_TASK_THREAD, .tid = 2, .tgid = 1, .other_tid = 1,
					 .clone_flags = 0x400 };
	struct bpfrr_rec_task fork = { .event = BPFRR_TASK_FORK, .tid = 3, .tgid = 3, .other_tid = 1,
				       .clone_flags = 17 };
	struct bpfrr_rec_task exit3 = { .event = BPFRR_TASK_EXIT, .tid = 3, .tgid = 3 };
	struct bpfrr_rec_task exec = { .event = BPFRR_TASK_EXEC, .tid = 1, .tgid = 1, .other_tid = 1 };
	struct bpfrr_fdm_obj *map, *prog;
	int n = 0;

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(bpfrr_fdm_task(m, &start), 0);
	bpfrr_fdm_set_clock(m, 10);
	ck_assert_int_eq(bpfrr_fdm_fd_event(m, &(struct bpfrr_rec_fd_event){ .seq = 5, .tid = 1,
		.op = BPFRR_FD_NEW, .fd = 3, .newfd = -1, .kind = BPFRR_OBJ_MAP, .object = 5 }), 0);
	map = bpfrr_fdm_lookup(m, 1, 3);
	ck_assert_ptr_nonnull(map);
	ck_assert_uint_eq(map->origin, 5);
	ck_assert_uint_eq(map->first_clock, 10);
	ck_assert_ptr_eq(bpfrr_fdm_find(m, 5), map);
	/* a thread shares the table: what it opens the other sees */
	ck_assert_int_eq(bpfrr_fdm_task(m, &thread), 0);
	ck_assert_int_eq(bpfrr_fdm_fd_event(m, &(struct bpfrr_rec_fd_event){ .seq = 6, .tid = 2,
		.op = BPFRR_FD_NEW, .fd = 4, .newfd = -1, .kind = BPFRR_OBJ_PROG, .object = 6 }), 0);
	prog = bpfrr_fdm_lookup(m, 1, 4);
	ck_assert_ptr_nonnull(prog);
	ck_assert_uint_eq(prog->origin, 6);
	/* a fork gets a copy: the parent's close does not touch it */
	ck_assert_int_eq(bpfrr_fdm_task(m, &fork), 0);
	ck_assert_uint_eq(map->nr_fds, 2);
	bpfrr_fdm_set_clock(m, 20);
	ck_assert_int_eq(bpfrr_fdm_fd_event(m, &(struct bpfrr_rec_fd_event){ .seq = 7, .tid = 1,
		.op = BPFRR_FD_CLOSE, .fd = 3, .newfd = -1, .kind = BPFRR_OBJ_MAP, .object = 5 }), 0);
	ck_assert_ptr_null(bpfrr_fdm_lookup(m, 2, 3));
	ck_assert_ptr_eq(bpfrr_fdm_lookup(m, 3, 3), map);
	ck_assert_uint_eq(map->nr_fds, 1);
	/* dup in the child, then its exit drops both */
	ck_assert_int_eq(bpfrr_fdm_fd_event(m, &(struct bpfrr_rec_fd_event){ .seq = 8, .tid = 3,
		.op = BPFRR_FD_DUP, .fd = 3, .newfd = 9, .kind = BPFRR_OBJ_MAP, .object = 5 }), 0);
	ck_assert_ptr_eq(bpfrr_fdm_lookup(m, 3, 9), map);
	ck_assert_uint_eq(map->nr_fds, 2);
	ck_assert_uint_eq(map->max_fds, 2);
	bpfrr_fdm_set_clock(m, 30);
	ck_assert_int_eq(bpfrr_fdm_task(m, &exit3), 0);
	ck_assert_uint_eq(map->nr_fds, 0);
	ck_assert_uint_eq(map->gone_clock, 30);
	ck_assert_uint_eq(map->close_seq, 0);
	ck_assert_uint_eq(map->exit_tid, 3);
	/* exec keeps the table (private now); the close-on-exec FD_EVENT closes the program */
	ck_assert_int_eq(bpfrr_fdm_task(m, &exec), 0);
	ck_assert_ptr_eq(bpfrr_fdm_lookup(m, 1, 4), prog);
	ck_assert_int_eq(bpfrr_fdm_fd_event(m, &(struct bpfrr_rec_fd_event){ .seq = 0, .tid = 1,
		.op = BPFRR_FD_EXEC_CLOSE, .fd = 4, .newfd = -1, .kind = BPFRR_OBJ_PROG, .object = 6 }), 0);
	ck_assert_ptr_null(bpfrr_fdm_lookup(m, 1, 4));
	/* the thread still has the old shared table, holding the program */
	ck_assert_ptr_eq(bpfrr_fdm_lookup(m, 2, 4), prog);
	ck_assert_int_eq(bpfrr_fdm_for_each_fd(m, count_fd, &n), 0);
	ck_assert_int_eq(n, 1);
	/* adoptions are a new object each time */
	ck_assert_int_eq(bpfrr_fdm_fd_event(m, &(struct bpfrr_rec_fd_event){ .seq = 0, .tid = 1,
		.op = BPFRR_FD_ADOPT, .fd = 7, .newfd = -1, .kind = BPFRR_OBJ_MAP, .object = 0 }), 0);
	ck_assert_int_eq(bpfrr_fdm_fd_event(m, &(struct bpfrr_rec_fd_event){ .seq = 0, .tid = 1,
		.op = BPFRR_FD_ADOPT, .fd = 8, .newfd = -1, .kind = BPFRR_OBJ_MAP, .object = 0 }), 0);
	ck_assert_ptr_ne(bpfrr_fdm_lookup(m, 1, 7), bpfrr_fdm_lookup(m, 1, 8));
	ck_assert(bpfrr_fdm_lookup(m, 1, 7)->adopted);
	ck_assert(!bpfrr_fdm_oom(m));
	bpfrr_fdm_free(m);
}
END_TEST

/* --- scenario: a libbpf-style load with probes and a teardown ----------------------------------- *
 *
 *  1 PROG_LOAD probe (fd 3)        2 close 3          3 BTF_LOAD (fd 3)
 *  4 MAP_CREATE 'counts' btf 3 (4) 5 PROG_LOAD failed 6 PROG_LOAD 'handle' map 4 btf 3 (5)
 *  7 MAP_UPDATE counts             8 OBJ_GET_INFO     9 RAW_TP_OPEN prog 5 (6)
 * 10 OBJ_GET_INFO                 11..14 close 6, 5, 4, 3
 */
static uint8_t *scen_load(size_t *len)
{
	struct scen sc;
	uint64_t v = 42;

	scen_begin(&sc, 2);
	prog_load(&sc, TID, 3, "probe", 0, 0, 1, 0);
	close_fd(&sc, TID, 3, BPFRR_OBJ_PROG, 1);
	btf_load(&sc, TID, 3, 7);
	map_create(&sc, TID, 4, BPF_MAP_TYPE_HASH, 8, "counts", 3, 0, 11);
	prog_load(&sc, TID, 5, "handle", 4, 3, 0, -EACCES);
	prog_load(&sc, TID, 5, "handle", 4, 3, 21, 0);
	map_update(&sc, TID, 4, 7, &v, 8);
	info_query(&sc, TID, 5);
	raw_tp_open(&sc, TID, 6, 5, 31, 21);
	info_query(&sc, TID, 6);
	close_fd(&sc, TID, 6, BPFRR_OBJ_LINK, 9);
	close_fd(&sc, TID, 5, BPFRR_OBJ_PROG, 6);
	close_fd(&sc, TID, 4, BPFRR_OBJ_MAP, 4);
	close_fd(&sc, TID, 3, BPFRR_OBJ_BTF, 3);
	synth_task(&sc.s, BPFRR_TASK_EXIT, TID, TID, 0, 0, 0);
	return scen_end(&sc, true, len);
}

START_TEST(fdlife_resolves_each_fd)
{
	struct run rn;
	size_t len;
	uint8_t *t = scen_load(&len);
	struct fe_call *c;

	ck_assert_int_eq(run_passes(&rn, t, &len, 1, NULL), 0);
	/* fd 3 is the probe program at seq 1 and the BTF from seq 3 on */
	ck_assert_uint_eq(ref_origin(&rn, 4, "attr.btf_fd"), 3);
	ck_assert_uint_eq(ref_origin(&rn, 6, "attr.prog_btf_fd"), 3);
	ck_assert_uint_eq(ref_origin(&rn, 6, "attr.insns[0].imm"), 4);
	ck_assert_uint_eq(ref(&rn, 6, "attr.insns[0].imm")->ref, BPFRR_IR_REF_LD_IMM64);
	ck_assert_str_eq(ref(&rn, 6, "attr.insns[0].imm")->buf_path, "attr.insns");
	ck_assert_uint_eq(ref(&rn, 6, "attr.insns[0].imm")->offset, 4);
	ck_assert_uint_eq(ref_origin(&rn, 7, "attr.map_fd"), 4);
	ck_assert_uint_eq(ref_origin(&rn, 9, "attr.raw_tracepoint.prog_fd"), 6);
	/* makers, and fd lifetimes in event clock terms */
	c = call(&rn, 1);
	ck_assert_ptr_nonnull(c->result);
	ck_assert_uint_eq(c->result->base.close_seq, 2);
	ck_assert_uint_eq(c->result->base.nr_fds, 0);
	ck_assert_ptr_null(call(&rn, 5)->result);
	ck_assert_ptr_eq(call(&rn, 6)->result->creator, call(&rn, 6));
	ck_assert_str_eq(bpfrr_rt_made(rn.t->rt, 6)->name, "handle");
	/* the buffers the walker found */
	c = call(&rn, 6);
	ck_assert_uint_eq(c->nr_bufs, 3);
	ck_assert_str_eq(c->bufs[0].path, "attr.insns");
	ck_assert_uint_eq(c->bufs[0].len, 64);
	run_free(&rn);
}
END_TEST

START_TEST(select_probes_failures_reads_teardown)
{
	struct run rn;
	size_t len;
	uint8_t *t = scen_load(&len);

	ck_assert_int_eq(run_passes(&rn, t, &len, 2, NULL), 0);
	ck_assert_uint_eq(rn.t->cut_seq, 9);
	assert_fate(&rn, 1, FE_DROPPED, "probe: closed by seq 2");
	assert_fate(&rn, 2, FE_DROPPED, "fd bookkeeping");
	assert_fate(&rn, 3, FE_KEPT, NULL);
	assert_fate(&rn, 4, FE_KEPT, NULL);
	assert_fate(&rn, 5, FE_DROPPED, "failed: EACCES");
	assert_fate(&rn, 6, FE_KEPT, NULL);
	assert_fate(&rn, 7, FE_KEPT, NULL);
	assert_fate(&rn, 8, FE_DROPPED, "read-only");
	assert_fate(&rn, 9, FE_KEPT, NULL);
	assert_fate(&rn, 10, FE_DROPPED, "read-only");
	assert_fate(&rn, 11, FE_DROPPED, "after the replay point (seq 9): teardown");
	assert_fate(&rn, 14, FE_DROPPED, "teardown");
	ck_assert(call(&rn, 4)->result->live);
	run_free(&rn);
}
END_TEST

START_TEST(select_until_and_keep_probes)
{
	struct bpfrr_frontend_opts o = { .until_seq = 6 };
	struct run rn;
	size_t len;

	ck_assert_int_eq(run_passes(&rn, scen_load(&len), &len, 2, &o), 0);
	ck_assert_uint_eq(rn.t->cut_seq, 6);
	assert_fate(&rn, 6, FE_KEPT, NULL);
	assert_fate(&rn, 7, FE_DROPPED, "after the replay point (seq 6)");
	assert_fate(&rn, 9, FE_DROPPED, "after the replay point (seq 6)");
	run_free(&rn);

	/* the state after the map was created: the BTF and the map only */
	o.until_seq = 4;
	ck_assert_int_eq(run_passes(&rn, scen_load(&len), &len, 3, &o), 0);
	ck_assert_uint_eq(rn.ir->nr_calls, 2);
	run_free(&rn);

	o.until_seq = 99;
	ck_assert_int_eq(run_passes(&rn, scen_load(&len), &len, 2, &o), -1);
	ck_assert_msg(strstr(rn.err, "--until 99: the trace has no call with that seq"), "%s", rn.err);
	run_free(&rn);

	memset(&o, 0, sizeof(o));
	o.keep_probes = 1;
	ck_assert_int_eq(run_passes(&rn, scen_load(&len), &len, 3, &o), 0);
	assert_fate(&rn, 1, FE_KEPT, NULL);
	ck_assert_uint_eq(rn.ir->nr_calls, 6);
	ck_assert(!(rn.ir->slots[ir_call(&rn, 1)->result_slot].flags & BPFRR_IR_SLOT_KEEP));
	run_free(&rn);
}
END_TEST

START_TEST(reloc_calls_slots_buffers)
{
	struct run rn;
	const struct bpfrr_ir_call *c;
	int btf, map, prog, link, insns;
	size_t len;
	char verr[256];
	void *enc;
	size_t enc_len;
	struct bpfrr_ir *back;

	ck_assert_int_eq(run_passes(&rn, scen_load(&len), &len, 3, NULL), 0);
	ck_assert_int_eq(bpfrr_ir_validate(rn.ir, verr, sizeof(verr)), 0);
	ck_assert_uint_eq(rn.ir->nr_calls, 5);
	ck_assert_uint_eq(rn.ir->nr_drops, 9);
	ck_assert_uint_eq(rn.ir->nr_recorded, 14);
	ck_assert_uint_eq(rn.ir->arch, 62);
	ck_assert_str_eq(rn.ir->kernel_release, "6.12.0-test");
	btf = slot_named(&rn, "btf");
	map = slot_named(&rn, "map.counts");
	prog = slot_named(&rn, "prog.handle");
	link = slot_named(&rn, "link.handle");
	for (int s = 0; s < (int)rn.ir->nr_slots; s++)
		ck_assert(rn.ir->slots[s].flags & BPFRR_IR_SLOT_KEEP);

	c = ir_call(&rn, 4);
	ck_assert_int_eq(c->result_slot, map);
	ck_assert(has_rel(c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, btf_fd), btf, BPFRR_IR_REF_FIELD));
	c = ir_call(&rn, 6);
	insns = buf_index(c, "attr.insns");
	ck_assert_int_ge(insns, 0);
	ck_assert_uint_eq(c->bufs[insns].ptr_offset, offsetof(union bpf_attr, insns));
	ck_assert_uint_eq(c->bufs[insns].len, 64);
	ck_assert_int_ge(buf_index(c, "attr.license"), 0);
	ck_assert_int_ge(buf_index(c, "attr.func_info"), 0);
	ck_assert(has_rel(c, insns, 4, map, BPFRR_IR_REF_LD_IMM64));
	ck_assert(has_rel(c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, prog_btf_fd), btf, BPFRR_IR_REF_FIELD));
	ck_assert_uint_eq(c->nr_fdrels, 2);
	/* instructions as recorded: the fd stays in the imm, the replayer patches it */
	ck_assert_int_eq(((const struct bpf_insn *)c->bufs[insns].data)[0].imm, 4);
	c = ir_call(&rn, 7);
	ck_assert(has_rel(c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, map_fd), map, BPFRR_IR_REF_FIELD));
	ck_assert_uint_eq(c->nr_bufs, 2);
	c = ir_call(&rn, 9);
	ck_assert_int_eq(c->result_slot, link);
	ck_assert(has_rel(c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, raw_tracepoint.prog_fd), prog,
			  BPFRR_IR_REF_FIELD));
	ck_assert_str_eq((const char *)c->bufs[buf_index(c, "attr.raw_tracepoint.name")].data, "sys_enter");

	/* identities for --verify */
	ck_assert_uint_eq(rn.ir->slots[prog].ident.type, BPF_PROG_TYPE_RAW_TRACEPOINT);
	ck_assert(rn.ir->slots[prog].ident.have & BPFRR_ID_TAG);
	ck_assert_uint_eq(rn.ir->slots[prog].ident.tag[7], 21);
	ck_assert_str_eq(rn.ir->slots[map].ident.name, "counts");
	ck_assert_uint_eq(rn.ir->slots[map].ident.value_size, 8);
	ck_assert_uint_eq(rn.ir->slots[btf].ident.btf_size, 32);
	ck_assert(rn.ir->slots[link].ident.have & BPFRR_ID_LINK_PROG);
	ck_assert_uint_eq(rn.ir->slots[link].ident.link_prog_slot, prog);

	/* the drops say why */
	ck_assert_uint_eq(rn.ir->drops[0].seq, 1);
	ck_assert_str_eq(rn.ir->drops[0].what, "BPF_PROG_LOAD");
	ck_assert(strstr(rn.ir->drops[0].why, "probe"));

	/* and the bundle carries all of it */
	ck_assert_int_eq(bpfrr_bundle_encode(rn.ir, &enc, &enc_len, verr, sizeof(verr)), 0);
	back = bpfrr_bundle_decode(enc, enc_len, "scen.bundle", verr, sizeof(verr));
	ck_assert_msg(back, "%s", verr);
	ck_assert_uint_eq(back->nr_calls, rn.ir->nr_calls);
	ck_assert_uint_eq(back->nr_slots, rn.ir->nr_slots);
	ck_assert_uint_eq(back->nr_drops, rn.ir->nr_drops);
	bpfrr_ir_free(back);
	free(enc);
	run_free(&rn);
}
END_TEST

/* --- scenario: fd numbers reused, a fork's copy, dup, exec ------------------------------------------ *
 *
 *  1 MAP_CREATE 'old' (4)   2 close 4   3 MAP_CREATE 'new' (4)   4 dup(4) = 9   5 close 4
 *  fork 102: 6 PROG_LOAD 'child' map 9 (5) in the child   7 RAW_TP_OPEN prog 5 (6) in the child
 *  8 close 9 in the parent; the child holds on; exec-close in the child; exit
 */
static uint8_t *scen_reuse(size_t *len, bool child_exits_early)
{
	struct scen sc;
	uint64_t seq;

	scen_begin(&sc, 1);
	map_create(&sc, TID, 4, BPF_MAP_TYPE_ARRAY, 8, "old", 0, 0, 1);
	close_fd(&sc, TID, 4, BPFRR_OBJ_MAP, 1);
	map_create(&sc, TID, 4, BPF_MAP_TYPE_ARRAY, 8, "new", 0, 0, 2);
	seq = sys(&sc, TID, "dup", 32, (uint64_t[6]){ 4 }, 9, NULL, 0);
	{
		struct bpfrr_rec_fd_event e = { .seq = seq, .tid = TID, .op = BPFRR_FD_DUP, .fd = 4, .newfd = 9,
						.kind = BPFRR_OBJ_MAP, .object = 3 };

		synth_check(&sc.s, bpfrr_trace_write_fd_event(sc.s.w, &e));
	}
	close_fd(&sc, TID, 4, BPFRR_OBJ_MAP, 3);
	synth_task(&sc.s, BPFRR_TASK_FORK, CHILD, CHILD, TID, 17, 0);
	prog_load(&sc, CHILD, 5, "child", 9, 0, 3, 0);
	raw_tp_open(&sc, CHILD, 6, 5, 4, 3);
	close_fd(&sc, TID, 9, BPFRR_OBJ_MAP, 3);
	if (child_exits_early)
		synth_task(&sc.s, BPFRR_TASK_EXIT, CHILD, CHILD, 0, 0, 0);
	synth_task(&sc.s, BPFRR_TASK_EXIT, TID, TID, 0, 0, 0);
	return scen_end(&sc, true, len);
}

START_TEST(fdlife_reuse_dup_fork)
{
	struct run rn;
	size_t len;
	int map, prog;

	ck_assert_int_eq(run_passes(&rn, scen_reuse(&len, false), &len, 3, NULL), 0);
	/* fd 9 of the child is the copy of the parent's dup of the second map */
	ck_assert_uint_eq(ref_origin(&rn, 6, "attr.insns[0].imm"), 3);
	assert_fate(&rn, 1, FE_DROPPED, "probe: closed by seq 2");
	assert_fate(&rn, 3, FE_KEPT, NULL);
	assert_fate(&rn, 4, FE_DROPPED, "fd bookkeeping");
	map = slot_named(&rn, "map.new");
	prog = slot_named(&rn, "prog.child");
	ck_assert(has_rel(ir_call(&rn, 6), 0, 4, map, BPFRR_IR_REF_LD_IMM64));
	ck_assert(has_rel(ir_call(&rn, 7), BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, raw_tracepoint.prog_fd), prog,
			  BPFRR_IR_REF_FIELD));
	/* the map is alive at the replay point (seq 7) through the child's and the parent's fd 9 */
	ck_assert(rn.ir->slots[map].flags & BPFRR_IR_SLOT_KEEP);
	run_free(&rn);
}
END_TEST

/* --- scenario: another fd of the same object, by id ------------------------------------------------- */
START_TEST(fdlife_alias_by_id)
{
	struct scen sc;
	struct run rn;
	union bpf_attr a;
	uint64_t get, get_ext;
	size_t len;
	int map;

	scen_begin(&sc, 1);
	map_create(&sc, TID, 3, BPF_MAP_TYPE_ARRAY, 8, "shared", 0, 0, 17);
	memset(&a, 0, sizeof(a));
	a.map_id = 17;
	get = synth_bpf(&sc.s, TID, BPF_MAP_GET_FD_BY_ID, &a, 12, NULL, NULL, 0, 4);
	synth_fd(&sc.s, get, TID, BPFRR_FD_NEW, 4, BPFRR_OBJ_MAP, get);
	obj(&sc, get, TID, 4, BPFRR_OBJ_MAP, 17, BPF_MAP_TYPE_ARRAY, "shared");
	close_fd(&sc, TID, 3, BPFRR_OBJ_MAP, 1);
	/* an id the trace never made */
	a.map_id = 99;
	get_ext = synth_bpf(&sc.s, TID, BPF_MAP_GET_FD_BY_ID, &a, 12, NULL, NULL, 0, 6);
	synth_fd(&sc.s, get_ext, TID, BPFRR_FD_NEW, 6, BPFRR_OBJ_MAP, get_ext);
	obj(&sc, get_ext, TID, 6, BPFRR_OBJ_MAP, 99, BPF_MAP_TYPE_ARRAY, "elsewhere");
	prog_load(&sc, TID, 5, "user", 4, 0, 30, 0);	/* seq 5 */
	ck_assert_msg(!run_passes(&rn, scen_end(&sc, true, &len), &len, 3, NULL), "%s", rn.err);

	ck_assert_ptr_eq(fe_canon(call(&rn, get)->result), call(&rn, 1)->result);
	ck_assert_ptr_null(call(&rn, get_ext)->result->alias_of);
	ck_assert_uint_eq(ref_origin(&rn, 5, "attr.insns[0].imm"), 1);
	assert_fate(&rn, 1, FE_KEPT, NULL);
	assert_fate(&rn, get, FE_DROPPED, "another fd of map 'shared' (seq 1)");
	map = slot_named(&rn, "map.shared");
	/* alive through the alias, though its own fd was closed */
	ck_assert(rn.ir->slots[map].flags & BPFRR_IR_SLOT_KEEP);
	ck_assert(has_rel(ir_call(&rn, 5), 0, 4, map, BPFRR_IR_REF_LD_IMM64));
	assert_fate(&rn, get_ext, FE_DROPPED, "made outside the trace");
	run_free(&rn);
}
END_TEST

/* --- scenario: perf events, tracepoint ids and PMU types by name ---------------------------------- */
static uint8_t *scen_perf(size_t *len, bool with_tp_read, int32_t pid, uint32_t ioctl_req)
{
	struct scen sc;

	scen_begin(&sc, 1);
	prog_load(&sc, TID, 3, "on_tp", 0, 0, 5, 0);
	if (with_tp_read)
		read_file(&sc, TID, 4, "/sys/kernel/tracing/events/syscalls/sys_enter_openat/id", "583\n");
	perf_open(&sc, TID, 4, 2, 583, NULL, pid, PERF_BITS_DISABLED);		/* seq 4 (or 2) */
	link_create_perf(&sc, TID, 5, 3, 4, 8, 5);
	sys(&sc, TID, "ioctl", 16, (uint64_t[6]){ 4, 0x2400 }, 0, NULL, 0);
	read_file(&sc, TID, 6, "/sys/bus/event_source/devices/kprobe/type", "6\n");
	perf_open(&sc, TID, 6, 6, 0, "do_sys_openat2", -1, 0);
	sys(&sc, TID, "ioctl", 16, (uint64_t[6]){ 6, ioctl_req, 3 }, 0, NULL, 0);
	return scen_end(&sc, true, len);
}

START_TEST(reloc_perf_events)
{
	const struct bpfrr_ir_call *c;
	struct run rn;
	int prog, tp, kp;
	size_t len;

	ck_assert_int_eq(run_passes(&rn, scen_perf(&len, true, -1, 0x40042408 /* SET_BPF */), &len, 3, NULL), 0);
	prog = slot_named(&rn, "prog.on_tp");
	tp = slot_named(&rn, "perf_event.syscalls/sys_enter_openat");
	kp = slot_named(&rn, "perf_event.kprobe.do_sys_openat2");
	assert_fate(&rn, 2, FE_DROPPED, "tracepoint id of syscalls/sys_enter_openat = 583");
	c = ir_call(&rn, 4);
	ck_assert_uint_eq(c->op, BPFRR_IR_PERF_EVENT_OPEN);
	ck_assert_uint_eq(c->attr_size, 128);
	ck_assert_int_eq(c->args[0], -1);
	ck_assert_int_eq(c->args[2], -1);
	ck_assert_int_eq(c->args[3], 8);
	ck_assert_uint_eq(c->nr_resolves, 1);
	ck_assert_uint_eq(c->resolves[0].kind, BPFRR_IR_RESOLVE_TP_ID);
	ck_assert_uint_eq(c->resolves[0].offset, 8);
	ck_assert_uint_eq(c->resolves[0].size, 8);
	ck_assert_str_eq(c->resolves[0].name, "syscalls/sys_enter_openat");
	ck_assert_int_eq(c->result_slot, tp);
	c = ir_call(&rn, 5);
	ck_assert(has_rel(c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, link_create.target_fd), tp,
			  BPFRR_IR_REF_FIELD));
	ck_assert(has_rel(c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, link_create.prog_fd), prog,
			  BPFRR_IR_REF_FIELD));
	c = ir_call(&rn, 6);
	ck_assert_uint_eq(c->op, BPFRR_IR_IOCTL);
	ck_assert_uint_eq(c->cmd, 0x2400);
	ck_assert(has_rel(c, BPFRR_IR_IN_ARG, 0, tp, BPFRR_IR_REF_ARG));
	/* the kprobe: its PMU type by name, the function name as a buffer at config1 */
	c = ir_call(&rn, 9);
	ck_assert_uint_eq(c->resolves[0].kind, BPFRR_IR_RESOLVE_PMU_TYPE);
	ck_assert_str_eq(c->resolves[0].name, "kprobe");
	ck_assert_uint_eq(c->resolves[0].offset, 0);
	ck_assert_uint_eq(c->resolves[0].size, 4);
	ck_assert_int_eq(buf_index(c, "perf_event_attr.config1"), 0);
	ck_assert_uint_eq(c->bufs[0].ptr_offset, 56);
	ck_assert_str_eq((const char *)c->bufs[0].data, "do_sys_openat2");
	c = ir_call(&rn, 10);
	ck_assert(has_rel(c, BPFRR_IR_IN_ARG, 0, kp, BPFRR_IR_REF_ARG));
	ck_assert(has_rel(c, BPFRR_IR_IN_ARG, 1, prog, BPFRR_IR_REF_ARG));
	run_free(&rn);
}
END_TEST

/*
 * PERF_EVENT_IOC_ENABLE of an event opened enabled is a no-op and dropped;
 * after a PERF_EVENT_IOC_DISABLE, or of an event opened disabled, or for
 * the whole group, it is kept.
 */
START_TEST(select_enable_noop)
{
	struct scen sc;
	struct run rn;
	size_t len;

	scen_begin(&sc, 1);
	perf_open(&sc, TID, 3, 1, 9, NULL, -1, 0);				/* seq 1 */
	sys(&sc, TID, "ioctl", 16, (uint64_t[6]){ 3, 0x2400 }, 0, NULL, 0);	/* 2: no-op */
	perf_open(&sc, TID, 4, 1, 9, NULL, -1, 0);				/* 3 */
	sys(&sc, TID, "ioctl", 16, (uint64_t[6]){ 4, 0x2401 }, 0, NULL, 0);	/* 4: DISABLE */
	sys(&sc, TID, "ioctl", 16, (uint64_t[6]){ 4, 0x2400 }, 0, NULL, 0);	/* 5: kept */
	perf_open(&sc, TID, 5, 1, 9, NULL, -1, PERF_BITS_DISABLED);		/* 6 */
	sys(&sc, TID, "ioctl", 16, (uint64_t[6]){ 5, 0x2400 }, 0, NULL, 0);	/* 7: kept */
	perf_open(&sc, TID, 6, 1, 9, NULL, -1, 0);				/* 8 */
	sys(&sc, TID, "ioctl", 16, (uint64_t[6]){ 6, 0x2400, 1 }, 0, NULL, 0);	/* 9: group, kept */
	ck_assert_int_eq(run_passes(&rn, scen_end(&sc, true, &len), &len, 3, NULL), 0);
	assert_fate(&rn, 1, FE_KEPT, NULL);
	assert_fate(&rn, 2, FE_DROPPED, "no-op: the perf event (seq 1) was opened enabled");
	assert_fate(&rn, 4, FE_KEPT, NULL);
	assert_fate(&rn, 5, FE_KEPT, NULL);
	assert_fate(&rn, 7, FE_KEPT, NULL);
	assert_fate(&rn, 9, FE_KEPT, NULL);
	run_free(&rn);
}
END_TEST

START_TEST(reloc_refuses_with_reasons)
{
	struct bpfrr_frontend_opts o = { .skip_untranslatable = 1 };
	struct run rn;
	size_t len;

	/* a tracepoint id nothing names */
	ck_assert_int_eq(run_passes(&rn, scen_perf(&len, false, -1, 0x2400), &len, 3, NULL), -1);
	ck_assert_msg(strstr(rn.err, "seq 2 perf_event_open cannot be translated: tracepoint id 583: no "
				     "recorded tracefs read names it"), "%s", rn.err);
	ck_assert(rn.t->untranslatable);
	run_free(&rn);

	/* skipped, with what depends on it */
	ck_assert_int_eq(run_passes(&rn, scen_perf(&len, false, -1, 0x2400), &len, 3, &o), 0);
	assert_fate(&rn, 2, FE_SKIPPED, "untranslatable: tracepoint id 583");
	assert_fate(&rn, 3, FE_SKIPPED, "whose call was skipped");
	assert_fate(&rn, 4, FE_SKIPPED, "whose call was skipped");
	assert_fate(&rn, 7, FE_KEPT, NULL);
	run_free(&rn);

	/* a perf event of a process of the recording */
	ck_assert_int_eq(run_passes(&rn, scen_perf(&len, true, 1234, 0x2400), &len, 3, NULL), -1);
	ck_assert_msg(strstr(rn.err, "seq 4 perf_event_open cannot be translated: it watches process 1234"),
		      "%s", rn.err);
	run_free(&rn);

	/* an ioctl with a pointer argument */
	ck_assert_int_eq(run_passes(&rn, scen_perf(&len, true, -1, 0x40082406 /* SET_FILTER */), &len, 3, NULL), -1);
	ck_assert_msg(strstr(rn.err, "seq 10 ioctl(PERF_EVENT_IOC_SET_FILTER) cannot be translated: its argument "
				     "is a pointer"), "%s", rn.err);
	run_free(&rn);
}
END_TEST

/*
 * A load of more objects than a bundle holds (BPFRR_IR_MAX_SLOTS: what
 * bench/scaling meets first, at 2667 maps, programs and links) is refused by
 * that limit, not with a bare E2BIG; one fewer translates.
 */
START_TEST(reloc_refuses_too_many_objects)
{
	uint32_t nr;

	for (nr = BPFRR_IR_MAX_SLOTS; nr <= BPFRR_IR_MAX_SLOTS + 1; nr++) {
		struct scen sc;
		struct run rn;
		size_t len;
		uint32_t i;

		scen_begin(&sc, 1);
		for (i = 0; i < nr; i++)
			map_create(&sc, TID, 3 + (int)i, BPF_MAP_TYPE_ARRAY, 8, "m", 0, 0, 1 + i);
		synth_task(&sc.s, BPFRR_TASK_EXIT, TID, TID, 0, 0, 0);
		if (nr == BPFRR_IR_MAX_SLOTS) {
			ck_assert_msg(!run_passes(&rn, scen_end(&sc, true, &len), &len, 3, NULL), "%s", rn.err);
			ck_assert_uint_eq(rn.ir->nr_slots, BPFRR_IR_MAX_SLOTS);
		} else {
			ck_assert_int_eq(run_passes(&rn, scen_end(&sc, true, &len), &len, 3, NULL), -1);
			ck_assert_msg(strstr(rn.err, "seq 8001 BPF_MAP_CREATE: more than 8000 objects in one load"),
				      "%s", rn.err);
			ck_assert(rn.t->untranslatable);
		}
		run_free(&rn);
	}
}
END_TEST

/* A call using what a 6.12 kernel lacks is refused by the field's name and release. */
static uint8_t *scen_later_uapi(size_t *len, int which)
{
	static const uint8_t hash[32] = { 0xde, 0xad };
	uint8_t a[256] __attribute__((aligned(8)));
	struct bpfrr_trace_region r;
	struct scen sc;
	uint64_t seq;

	scen_begin(&sc, 1);
	memset(a, 0, sizeof(a));
	memcpy(a, &(uint32_t){ BPF_MAP_TYPE_ARRAY }, 4);
	memcpy(a + 4, &(uint32_t){ 4 }, 4);
	memcpy(a + 8, &(uint32_t){ 8 }, 4);
	memcpy(a + 12, &(uint32_t){ 1 }, 4);
	switch (which) {
	case 0:	/* 6.18: an exclusive map */
		memcpy(a + 80, &(uint64_t){ 0x70000 }, 8);
		memcpy(a + 88, &(uint32_t){ sizeof(hash) }, 4);
		r = synth_region(&sc.s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_SHA256, "attr.excl_prog_hash",
				 0x70000, hash, sizeof(hash));
		seq = synth_bpf(&sc.s, TID, BPF_MAP_CREATE, (const union bpf_attr *)a, 96, NULL, &r, 1, 3);
		break;
	case 1:	/* bytes no kernel bpfrr knows has */
		a[120] = 1;
		seq = synth_bpf(&sc.s, TID, BPF_MAP_CREATE, (const union bpf_attr *)a, 128, NULL, NULL, 0, 3);
		break;
	default: {	/* 7.2: the 5-argument form */
		struct bpfrr_rec_bpf_call c = {
			.seq = ++sc.s.seq, .tid = TID, .cmd = BPF_MAP_CREATE, .attr_addr = 0x7ffd1000,
			.attr_size = 72, .flags = BPFRR_CALL_COMMON_ATTRS, .ret = 3, .attr_len = 72, .attr = a,
		};

		c.t_enter_ns = synth_time(&sc.s);
		c.t_exit_ns = c.t_enter_ns + 1000;
		sc.s.now = c.t_exit_ns;
		synth_check(&sc.s, bpfrr_trace_write_bpf_call(sc.s.w, &c));
		seq = c.seq;
		break;
	}
	}
	synth_fd(&sc.s, seq, TID, BPFRR_FD_NEW, 3, BPFRR_OBJ_MAP, seq);
	return scen_end(&sc, true, len);
}

START_TEST(reloc_refuses_later_uapi)
{
	static const char *const want[] = {
		"BPF_MAP_CREATE cannot be translated: attr.excl_prog_hash (Linux 6.18) is not supported by 6.12",
		"BPF_MAP_CREATE cannot be translated: attr bytes 120..120 are not zero, and no kernel bpfrr knows "
		"has a field there",
		"BPF_MAP_CREATE cannot be translated: BPF_COMMON_ATTRS, its log in the 4th and 5th arguments "
		"(Linux 7.2), is not supported by 6.12",
	};
	struct run rn;
	size_t len;

	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(run_passes(&rn, scen_later_uapi(&len, i), &len, 3, NULL), -1);
		ck_assert_msg(strstr(rn.err, want[i]), "%s", rn.err);
		run_free(&rn);
	}
}
END_TEST

START_TEST(reloc_refuses_unrecorded_memory_and_foreign_fds)
{
	struct scen sc;
	struct run rn;
	union bpf_attr a;
	uint64_t seq;
	size_t len;

	/* program instructions whose bytes were not captured */
	scen_begin(&sc, 1);
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	a.insn_cnt = 2;
	a.insns = 0x20000;
	seq = synth_bpf(&sc.s, TID, BPF_PROG_LOAD, &a, 128, NULL, NULL, 0, 3);
	synth_fd(&sc.s, seq, TID, BPFRR_FD_NEW, 3, BPFRR_OBJ_PROG, seq);
	ck_assert_int_eq(run_passes(&rn, scen_end(&sc, true, &len), &len, 3, NULL), -1);
	ck_assert_msg(strstr(rn.err, "seq 1 BPF_PROG_LOAD cannot be translated: attr.insns: its 16 bytes were "
				     "not all recorded"), "%s", rn.err);
	run_free(&rn);

	/* an fd the loader inherited */
	scen_begin(&sc, 1);
	synth_fd(&sc.s, 0, TID, BPFRR_FD_ADOPT, 7, BPFRR_OBJ_PROG, 0);
	raw_tp_open(&sc, TID, 8, 7, 1, 0);
	ck_assert_int_eq(run_passes(&rn, scen_end(&sc, true, &len), &len, 3, NULL), -1);
	ck_assert_msg(strstr(rn.err, "attr.raw_tracepoint.prog_fd: fd 7 names a prog made outside the trace"),
		      "%s", rn.err);
	run_free(&rn);

	/* thread 101 closes and reuses fd 4 while thread 100's load (seq 2) runs */
	scen_begin(&sc, 1);
	map_create(&sc, TID, 4, BPF_MAP_TYPE_ARRAY, 8, "first", 0, 0, 1);
	synth_task(&sc.s, BPFRR_TASK_THREAD, 101, TID, TID, 0x3d0f00, 0);
	sc.s.seq = 2;
	close_fd(&sc, 101, 4, BPFRR_OBJ_MAP, 1);			/* seq 3 */
	map_create(&sc, 101, 4, BPF_MAP_TYPE_ARRAY, 8, "second", 0, 0, 2);	/* seq 4 */
	sc.s.seq = 1;
	prog_load(&sc, TID, 5, "racer", 4, 0, 3, 0);		/* seq 2, returns last */
	sc.s.seq = 4;
	raw_tp_open(&sc, TID, 6, 5, 4, 3);				/* seq 5 */
	ck_assert_int_eq(run_passes(&rn, scen_end(&sc, true, &len), &len, 3, NULL), -1);
	ck_assert_msg(strstr(rn.err, "seq 2 BPF_PROG_LOAD cannot be translated: attr.insns[0].imm: fd 4 was "
				     "closed and reused by another thread while the call ran"), "%s", rn.err);
	run_free(&rn);

	/* an fd the trace never heard of */
	scen_begin(&sc, 1);
	raw_tp_open(&sc, TID, 8, 7, 1, 0);
	ck_assert_int_eq(run_passes(&rn, scen_end(&sc, true, &len), &len, 3, NULL), -1);
	ck_assert_msg(strstr(rn.err, "fd 7 names no object the trace knows"), "%s", rn.err);
	run_free(&rn);
}
END_TEST

/* --- scenario: fds inside map values -------------------------------------------------------------- */
START_TEST(reloc_fds_in_map_values)
{
	struct scen sc;
	struct run rn;
	int32_t fd;
	size_t len;
	int jmp, stage, inner, outer, val;
	const struct bpfrr_ir_call *c;

	scen_begin(&sc, 1);
	map_create(&sc, TID, 3, BPF_MAP_TYPE_PROG_ARRAY, 4, "jmp", 0, 0, 1);
	prog_load(&sc, TID, 4, "stage", 0, 0, 2, 0);
	fd = 4;
	map_update(&sc, TID, 3, 0, &fd, 4);
	map_create(&sc, TID, 5, BPF_MAP_TYPE_ARRAY, 8, "inner", 0, 0, 3);
	map_create(&sc, TID, 6, BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, "outer", 0, 5, 4);
	fd = 5;
	map_update(&sc, TID, 6, 1, &fd, 4);
	close_fd(&sc, TID, 4, BPFRR_OBJ_PROG, 2);	/* the prog array keeps it */
	close_fd(&sc, TID, 5, BPFRR_OBJ_MAP, 4);
	prog_load(&sc, TID, 4, "entry", 3, 0, 5, 0);	/* seq 9, the replay point */
	ck_assert_int_eq(run_passes(&rn, scen_end(&sc, true, &len), &len, 3, NULL), 0);
	jmp = slot_named(&rn, "map.jmp");
	stage = slot_named(&rn, "prog.stage");
	inner = slot_named(&rn, "map.inner");
	outer = slot_named(&rn, "map.outer");
	c = ir_call(&rn, 3);
	val = buf_index(c, "attr.value");
	ck_assert(has_rel(c, val, 0, stage, BPFRR_IR_REF_MAP_VALUE));
	ck_assert(has_rel(c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, map_fd), jmp, BPFRR_IR_REF_FIELD));
	c = ir_call(&rn, 5);
	ck_assert(has_rel(c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, inner_map_fd), inner, BPFRR_IR_REF_FIELD));
	c = ir_call(&rn, 6);
	ck_assert(has_rel(c, buf_index(c, "attr.value"), 0, inner, BPFRR_IR_REF_MAP_VALUE));
	ck_assert(has_rel(c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, map_fd), outer, BPFRR_IR_REF_FIELD));
	/* kept for what holds them, not alive by an fd of their own */
	ck_assert(!(rn.ir->slots[stage].flags & BPFRR_IR_SLOT_KEEP));
	ck_assert(!(rn.ir->slots[inner].flags & BPFRR_IR_SLOT_KEEP));
	ck_assert(rn.ir->slots[outer].flags & BPFRR_IR_SLOT_KEEP);
	run_free(&rn);
}
END_TEST

/*
 * A struct_ops map registered by its update (bpftool struct_ops register): the
 * value holds program fds where the SYMBOL of its value type says (trace 2.1),
 * here at 8 and 24 of a 40-byte value; the 5 at 16 is a member that happens to
 * equal a program's fd and stays as recorded.  Without those places the update
 * is refused.
 */
static uint8_t *scen_struct_ops(size_t *len, bool placed)
{
	struct bpfrr_rec_symbol sym = {
		.seq = 2, .kind = BPFRR_SYM_BTF_ID, .value = 700, .btf_kind = BTF_KIND_STRUCT,
		.name = "bpf_struct_ops_fx_ops", .module = "",
		.flags = placed ? BPFRR_SYM_F_VALUE_FDS : 0, .nr_value_fds = placed ? 3 : 0,
		.value_fds = { 8, 24, 32 },
	};
	uint8_t value[40] = { 0 };
	struct scen sc;
	union bpf_attr a;
	uint64_t seq;

	scen_begin(&sc, 1);
	prog_load(&sc, TID, 4, "fx_a", 0, 0, 1, 0);
	synth_check(&sc.s, bpfrr_trace_write_symbol(sc.s.w, &sym));
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_STRUCT_OPS;
	a.key_size = 4;
	a.value_size = sizeof(value);
	a.max_entries = 1;
	snprintf(a.map_name, sizeof(a.map_name), "fx_ops");
	a.btf_vmlinux_value_type_id = 700;
	seq = synth_bpf(&sc.s, TID, BPF_MAP_CREATE, &a, 72, NULL, NULL, 0, 3);
	synth_fd(&sc.s, seq, TID, BPFRR_FD_NEW, 3, BPFRR_OBJ_MAP, seq);
	prog_load(&sc, TID, 5, "fx_b", 0, 0, 2, 0);
	value[8] = 4;		/* fx_a */
	value[16] = 5;		/* not a function pointer: stays 5 */
	value[24] = 5;		/* fx_b */
	map_update(&sc, TID, 3, 0, value, sizeof(value));	/* 32: a member left out (0) */
	return scen_end(&sc, true, len);
}

START_TEST(reloc_struct_ops_value)
{
	const struct bpfrr_ir_call *c;
	struct run rn;
	size_t len;
	int map, a, b, val;

	ck_assert_int_eq(run_passes(&rn, scen_struct_ops(&len, true), &len, 3, NULL), 0);
	map = slot_named(&rn, "map.fx_ops");
	a = slot_named(&rn, "prog.fx_a");
	b = slot_named(&rn, "prog.fx_b");
	c = ir_call(&rn, 4);
	ck_assert_uint_eq(c->cmd, BPF_MAP_UPDATE_ELEM);
	val = buf_index(c, "attr.value");
	ck_assert(has_rel(c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, map_fd), map, BPFRR_IR_REF_FIELD));
	ck_assert(has_rel(c, val, 8, a, BPFRR_IR_REF_MAP_VALUE));
	ck_assert(has_rel(c, val, 24, b, BPFRR_IR_REF_MAP_VALUE));
	ck_assert(!has_rel(c, val, 16, b, BPFRR_IR_REF_MAP_VALUE));
	ck_assert_uint_eq(c->nr_fdrels, 3);	/* map_fd and the two programs */
	run_free(&rn);

	ck_assert_int_eq(run_passes(&rn, scen_struct_ops(&len, false), &len, 3, NULL), -1);
	ck_assert_msg(strstr(rn.err, "seq 4 BPF_MAP_UPDATE_ELEM cannot be translated: a struct_ops value whose "
				     "program fds the trace does not place"), "%s", rn.err);
	run_free(&rn);
}
END_TEST

/* --- scenario: a cgroup directory opened by path, a cgroup attachment ------------------------------- */
START_TEST(reloc_cgroup_path_slot)
{
	struct scen sc;
	struct run rn;
	union bpf_attr a;
	struct bpfrr_trace_region r[2];
	const char *path = "/sys/fs/cgroup/test";
	uint64_t open_seq, attach;
	size_t len;
	int cg, prog;
	const struct bpfrr_ir_call *c;

	scen_begin(&sc, 1);
	prog_load(&sc, TID, 3, "egress", 0, 0, 1, 0);
	r[0] = synth_region(&sc.s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_PATH, "pathname", 0x80000, path,
			    strlen(path) + 1);
	r[1] = synth_region(&sc.s, BPFRR_PHASE_EXIT, BPFRR_DIR_OUT, BPFRR_CONTENT_PATH, "path", 0, path,
			    strlen(path) + 1);
	open_seq = sys(&sc, TID, "openat", 257, (uint64_t[6]){ (uint64_t)-100, 0x80000, 0x10000 | 0x80000 }, 4, r, 2);
	synth_fd(&sc.s, open_seq, TID, BPFRR_FD_NEW, 4, BPFRR_OBJ_CGROUP, open_seq);
	memset(&a, 0, sizeof(a));
	a.target_fd = 4;
	a.attach_bpf_fd = 3;
	a.attach_type = BPF_CGROUP_INET_EGRESS;
	attach = synth_bpf(&sc.s, TID, BPF_PROG_ATTACH, &a, 20, NULL, NULL, 0, 0);
	close_fd(&sc, TID, 3, BPFRR_OBJ_PROG, 1);
	close_fd(&sc, TID, 4, BPFRR_OBJ_CGROUP, open_seq);
	ck_assert_int_eq(run_passes(&rn, scen_end(&sc, true, &len), &len, 3, NULL), 0);
	ck_assert_uint_eq(rn.t->cut_seq, attach);
	assert_fate(&rn, open_seq, FE_PATH, "opens by path");
	cg = slot_named(&rn, "cgroup.2");
	prog = slot_named(&rn, "prog.egress");
	ck_assert_uint_eq(rn.ir->slots[cg].source, BPFRR_IR_SLOT_PATH);
	ck_assert_str_eq(rn.ir->slots[cg].path, path);
	ck_assert_uint_eq(rn.ir->slots[cg].open_flags, 0x10000 | 0x80000);
	c = ir_call(&rn, attach);
	ck_assert(c->flags & BPFRR_IR_CALL_GLOBAL);
	ck_assert(has_rel(c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, target_fd), cg, BPFRR_IR_REF_FIELD));
	ck_assert(has_rel(c, BPFRR_IR_IN_ATTR, offsetof(union bpf_attr, attach_bpf_fd), prog, BPFRR_IR_REF_FIELD));
	run_free(&rn);
}
END_TEST

/* --- scenario: directories on a bpffs (bpftool prog loadall's pin directory) ---------------------- */

/* mkdir(path, mode) or, with at, unlinkat(AT_FDCWD, path, AT_REMOVEDIR), on a bpffs as recorded */
static uint64_t bpffs_call(struct scen *sc, const char *name, const char *path, uint64_t mode_or_flag)
{
	struct bpfrr_trace_region r[2];
	bool at = !strcmp(name, "unlinkat");
	uint64_t args[6] = { 0x90000, mode_or_flag };

	if (at) {
		args[0] = (uint64_t)-100;
		args[1] = 0x90000;
		args[2] = mode_or_flag;
	}
	r[0] = synth_region(&sc->s, BPFRR_PHASE_ENTRY, BPFRR_DIR_IN, BPFRR_CONTENT_PATH, "pathname", 0x90000, path,
			    strlen(path) + 1);
	r[1] = synth_region(&sc->s, BPFRR_PHASE_EXIT, BPFRR_DIR_OUT, BPFRR_CONTENT_PATH, "path", 0, path,
			    strlen(path) + 1);
	return sys(sc, TID, name, at ? 263 : 83, args, 0, r, 2);
}

START_TEST(bpffs_directories)
{
	struct scen sc;
	struct run rn;
	uint64_t keep, gone, gone_rm, load, teardown;
	size_t len;
	int d;

	scen_begin(&sc, 1);
	keep = bpffs_call(&sc, "mkdir", "/sys/fs/bpf/keep", 0700);
	gone = bpffs_call(&sc, "mkdir", "/sys/fs/bpf/gone", 0755);
	gone_rm = bpffs_call(&sc, "unlinkat", "/sys/fs/bpf/gone", 0x200);
	load = prog_load(&sc, TID, 3, "p", 0, 0, 1, 0);
	teardown = bpffs_call(&sc, "unlinkat", "/sys/fs/bpf/keep", 0x200);
	close_fd(&sc, TID, 3, BPFRR_OBJ_PROG, load);
	ck_assert_int_eq(run_passes(&rn, scen_end(&sc, true, &len), &len, 3, NULL), 0);
	ck_assert_uint_eq(rn.t->cut_seq, load);
	assert_fate(&rn, keep, FE_MKDIR, "a directory on a bpffs the replayer makes: /sys/fs/bpf/keep (mode 0700)");
	assert_fate(&rn, gone, FE_DROPPED, "removed by seq 3 before the replay point");
	assert_fate(&rn, gone_rm, FE_DROPPED, "removes what seq 2 made: neither is replayed");
	assert_fate(&rn, teardown, FE_DROPPED, "after the replay point (seq 4): teardown");
	d = slot_named(&rn, "dir.1");
	ck_assert_int_eq(call(&rn, keep)->dir_slot, d);
	ck_assert_uint_eq(rn.ir->slots[d].source, BPFRR_IR_SLOT_MKDIR);
	ck_assert_uint_eq(rn.ir->slots[d].kind, BPFRR_OBJ_DIR);
	ck_assert_str_eq(rn.ir->slots[d].path, "/sys/fs/bpf/keep");
	ck_assert_uint_eq(rn.ir->slots[d].open_flags, 0700);
	ck_assert_uint_eq(rn.ir->nr_slots, 2);	/* the directory and the program */
	run_free(&rn);

	/* removing what the trace did not make is refused, in one line */
	scen_begin(&sc, 1);
	bpffs_call(&sc, "unlinkat", "/sys/fs/bpf/old", 0);
	prog_load(&sc, TID, 3, "p", 0, 0, 1, 0);
	ck_assert_int_eq(run_passes(&rn, scen_end(&sc, true, &len), &len, 3, NULL), -1);
	ck_assert_msg(strstr(rn.err, "seq 1 unlinkat cannot be translated: removes /sys/fs/bpf/old from a bpffs, "
			     "which a replay does not do"), "%s", rn.err);
	run_free(&rn);
}
END_TEST

/*
 * Numbers in a made directory's name (libxdp's dispatch-IFINDEX-PROGID): a
 * whole number that is the id of a replayed program the loader asked the
 * kernel for is renamed at replay; digits inside a word, an id nobody asked
 * for, a number no object has, stay. More numbers than a slot carries: none
 * is renamed, and the explanation says so (the translation still succeeds).
 */
START_TEST(bpffs_directory_numbers)
{
	struct scen sc;
	struct run rn;
	uint64_t named, inword, unasked, noid, many;
	const struct bpfrr_ir_slot *d;
	size_t len;

	scen_begin(&sc, 1);
	prog_load(&sc, TID, 3, "p", 0, 0, 29, 0);
	info_query(&sc, TID, 3);
	prog_load(&sc, TID, 4, "q", 0, 0, 41, 0);
	named = bpffs_call(&sc, "mkdir", "/sys/fs/bpf/dispatch-x-29", 0700);
	inword = bpffs_call(&sc, "mkdir", "/sys/fs/bpf/v29", 0700);
	unasked = bpffs_call(&sc, "mkdir", "/sys/fs/bpf/n-41", 0700);
	noid = bpffs_call(&sc, "mkdir", "/sys/fs/bpf/d-7", 0700);
	many = bpffs_call(&sc, "mkdir", "/sys/fs/bpf/m-29-29-29-29-29-29-29-29-29", 0700);
	prog_load(&sc, TID, 5, "r", 0, 0, 50, 0);
	ck_assert_int_eq(run_passes(&rn, scen_end(&sc, true, &len), &len, 3, NULL), 0);
	d = &rn.ir->slots[call(&rn, named)->dir_slot];
	ck_assert_uint_eq(d->nr_path_subs, 1);
	ck_assert_uint_eq(d->path_subs[0].kind, BPFRR_IR_PATH_SUB_OBJ_ID);
	ck_assert_int_eq(d->path_subs[0].obj_slot, slot_named(&rn, "prog.p"));
	ck_assert_uint_eq(d->path_subs[0].off, strlen("/sys/fs/bpf/dispatch-x-"));
	ck_assert_uint_eq(d->path_subs[0].len, 2);
	ck_assert_ptr_nonnull(strstr(call(&rn, named)->why, "; renamed after the calls (29: id of slot"));
	ck_assert_uint_eq(rn.ir->slots[call(&rn, inword)->dir_slot].nr_path_subs, 0);
	ck_assert_uint_eq(rn.ir->slots[call(&rn, unasked)->dir_slot].nr_path_subs, 0);
	ck_assert_uint_eq(rn.ir->slots[call(&rn, noid)->dir_slot].nr_path_subs, 0);
	ck_assert_uint_eq(rn.ir->slots[call(&rn, many)->dir_slot].nr_path_subs, 0);
	ck_assert_msg(strstr(call(&rn, many)->why, "not renamed: 9 numbers name this kernel's, at most 8 are"),
		      "%s", call(&rn, many)->why);
	run_free(&rn);
}
END_TEST

/* --- the synthetic kprobe trace of the dump tests ----------------------------------------------- */
static uint8_t *kprobe_bytes(bool with_end, size_t *len)
{
	int fd = memfd_create("synth", 0);
	struct stat st;
	uint8_t *buf;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(synth_kprobe_trace(dup(fd), with_end), 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	*len = (size_t)st.st_size;
	buf = malloc(*len);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(pread(fd, buf, *len, 0), (ssize_t)*len);
	close(fd);
	return buf;
}

/* the --explain line of seq says what */
static void explain_has(const char *text, int seq, const char *name, const char *what)
{
	char line[512];

	snprintf(line, sizeof(line), "%6d  %-30s %s\n", seq, name, what);
	ck_assert_msg(strstr(text, line), "no line '%s' in:\n%s", line, text);
}

START_TEST(driver_on_the_dump_trace)
{
	struct bpfrr_frontend_opts o = { .skip_untranslatable = 1 };
	struct bpfrr_frontend_result res;
	struct bpfrr_trace_reader *r;
	struct bpfrr_ir *ir;
	char err[512], *text = NULL;
	size_t len, text_len;
	uint8_t *t = kprobe_bytes(true, &len);

	/* its kprobe perf event names no PMU: an error naming the call */
	r = bpfrr_trace_open_mem(t, len, "kprobe.trace", 0, NULL);
	ir = bpfrr_frontend_translate_reader(r, NULL, &res, err, sizeof(err));
	ck_assert_ptr_null(ir);
	ck_assert(res.untranslatable);
	ck_assert_msg(strstr(err, "seq 5 perf_event_open cannot be translated: perf event type 6: a dynamic PMU "
				  "no recorded read names"), "%s", err);
	bpfrr_trace_reader_close(r);

	/* skipped: the link goes with it; the thread's update of the map stays */
	o.explain = open_memstream(&text, &text_len);
	r = bpfrr_trace_open_mem(t, len, "kprobe.trace", 0, NULL);
	ir = bpfrr_frontend_translate_reader(r, &o, &res, err, sizeof(err));
	fclose(o.explain);
	ck_assert_msg(ir, "%s", err);
	ck_assert_uint_eq(res.cut_seq, 7);
	ck_assert_uint_eq(res.nr_skipped, 2);
	ck_assert_uint_eq(ir->nr_calls, 4);
	ck_assert_uint_eq(ir->nr_calls + ir->nr_drops, ir->nr_recorded);
	explain_has(text, 7, "BPF_MAP_UPDATE_ELEM", "kept: call 3, fds -> slot 1, changes slot 1");
	explain_has(text, 6, "BPF_LINK_CREATE", "SKIPPED: untranslatable: attr.link_create.target_fd: fd 6 "
		    "names perf_event (seq 5), whose call was skipped");
	explain_has(text, 3, "BPF_PROG_LOAD", "dropped: failed: EACCES");
	explain_has(text, 11, "BPF_OBJ_GET_INFO_BY_FD", "dropped: read-only");
	bpfrr_ir_free(ir);
	bpfrr_trace_reader_close(r);
	free(text);
	free(t);

	/* no END: translated, and said */
	t = kprobe_bytes(false, &len);
	r = bpfrr_trace_open_mem(t, len, "kprobe.trace", 0, NULL);
	o.explain = NULL;
	ir = bpfrr_frontend_translate_reader(r, &o, &res, err, sizeof(err));
	ck_assert_msg(ir, "%s", err);
	ck_assert(res.truncated);
	ck_assert_msg(strstr(res.truncated_msg, "truncated"), "%s", res.truncated_msg);
	bpfrr_ir_free(ir);
	bpfrr_trace_reader_close(r);
	free(t);
}
END_TEST

/* --- a 1.1 trace: numbers of the recording kernel build by name ------------------------------- */

static uint8_t *portable_bytes(size_t *len)
{
	int fd = memfd_create("synth", 0);
	struct stat st;
	uint8_t *buf;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(synth_portable_trace(dup(fd)), 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	*len = (size_t)st.st_size;
	buf = malloc(*len);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(pread(fd, buf, *len, 0), (ssize_t)*len);
	close(fd);
	return buf;
}

/*
 * Hides records of a trace from its readers (type 99, a newer minor's, is
 * skipped): those of type, or with needle in their payload if needle is set.
 */
static void hide_records(uint8_t *t, size_t len, uint32_t type, const char *needle)
{
	size_t off = 16;

	while (off + 12 <= len) {
		uint32_t ty, n, crc;

		memcpy(&ty, t + off, 4);
		memcpy(&n, t + off + 4, 4);
		if (ty == type && (!needle || memmem(t + off + 12, n, needle, strlen(needle)))) {
			ty = 99;
			memcpy(t + off, &ty, 4);
			crc = bpfrr_crc32c(0, t + off, 8);
			crc = bpfrr_crc32c(crc, t + off + 12, n);
			memcpy(t + off + 8, &crc, 4);
		}
		off += (12 + n + 7) & ~(size_t)7;
	}
}

static struct bpfrr_ir *translate_bytes(uint8_t *t, size_t len, bool skip, char **text)
{
	struct bpfrr_frontend_opts o = { .skip_untranslatable = skip };
	struct bpfrr_frontend_result res;
	struct bpfrr_trace_reader *r;
	struct bpfrr_ir *ir;
	size_t text_len;
	char err[512];

	o.explain = open_memstream(text, &text_len);
	r = bpfrr_trace_open_mem(t, len, "portable.trace", 0, NULL);
	ck_assert_ptr_nonnull(r);
	ir = bpfrr_frontend_translate_reader(r, &o, &res, err, sizeof(err));
	fclose(o.explain);
	ck_assert_msg(ir, "%s", err);
	bpfrr_trace_reader_close(r);
	return ir;
}

static const struct bpfrr_ir_call *ir_call_seq(const struct bpfrr_ir *ir, uint64_t seq)
{
	uint32_t i;

	for (i = 0; i < ir->nr_calls; i++)
		if (ir->calls[i].seq == seq)
			return &ir->calls[i];
	ck_abort_msg("no IR call of seq %llu", (unsigned long long)seq);
	return NULL;
}

static void assert_resolve(const struct bpfrr_ir_call *c, uint32_t i, uint32_t kind, int32_t buf, uint32_t offset,
			   const char *name, const char *module, uint32_t btf_kind, int64_t addend)
{
	const struct bpfrr_ir_resolve *r;

	ck_assert_uint_gt(c->nr_resolves, i);
	r = &c->resolves[i];
	ck_assert_uint_eq(r->kind, kind);
	ck_assert_int_eq(r->buf, buf);
	ck_assert_uint_eq(r->offset, offset);
	ck_assert_str_eq(r->name, name);
	ck_assert_pstr_eq(r->module, module);
	ck_assert_uint_eq(r->btf_kind, btf_kind);
	ck_assert_int_eq(r->addend, addend);
}

/* --- a light skeleton: the syscall program's run and what it made ------------------------------ */

/* Overwrites the bytes of needle (unique in the trace) with repl and fixes the CRC of their record. */
static void patch_record(uint8_t *t, size_t len, const uint8_t *needle, const uint8_t *repl, size_t n)
{
	uint8_t *at = memmem(t, len, needle, n);
	size_t off = 16;

	ck_assert_ptr_nonnull(at);
	ck_assert_ptr_null(memmem(at + 1, len - (size_t)(at + 1 - t), needle, n));
	memcpy(at, repl, n);
	while (off + 12 <= len) {
		uint32_t sz, crc;

		memcpy(&sz, t + off + 4, 4);
		if ((size_t)(at - t) >= off + 12 && (size_t)(at - t) < off + 12 + sz) {
			uint32_t type;

			memcpy(&type, t + off, 4);
			if (type == BPFRR_REC_BLOB) {	/* u64 id, u64 len, sha256, u32 flags, data */
				struct bpfrr_sha256 sha;
				uint64_t blen;

				memcpy(&blen, t + off + 12 + 8, 8);
				bpfrr_sha256_init(&sha);
				bpfrr_sha256_update(&sha, t + off + 12 + 52, blen);
				bpfrr_sha256_final(&sha, t + off + 12 + 16);
			}
			crc = bpfrr_crc32c(0, t + off, 8);
			crc = bpfrr_crc32c(crc, t + off + 12, sz);
			memcpy(t + off + 8, &crc, 4);
			return;
		}
		off += (12 + sz + 7) & ~(size_t)7;
	}
	ck_abort_msg("no record holds the bytes");
}

static uint8_t *lskel_bytes(size_t *len)
{
	char path[4200];
	int fd;
	struct stat st;
	uint8_t *buf;

	snprintf(path, sizeof(path), "%s/traces/x86_64-fx_onemap_lskel.trace", data_dir);
	fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	*len = (size_t)st.st_size;
	buf = malloc(*len);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(pread(fd, buf, *len, 0), (ssize_t)*len);
	close(fd);
	return buf;
}

/*
 * fx_onemap_lskel (x86_64, committed): gen_loader's program, run at seq 4
 * with a 44-byte context, made the map (fd 6, written at ctx+24) and the
 * program (fd 7, ctx+40) that later calls use (adopted fds).  The run is
 * kept with its loader program and blob map; the two are its products,
 * slots with the recorder's identities of the adopted fds; the link made at
 * seq 7 has its own identity (a raw tracepoint link of that program), not
 * the adopted program's, which the recorder wrote under the same seq.  A
 * context that does not hold the fd makes no product; a recorded log
 * buffer address in the context is refused.
 */
START_TEST(light_skeleton_products)
{
	static const uint8_t ctx_out[44] = { 44, [24] = 6, [40] = 7 }, ctx_in[44] = { 44 };
	const struct bpfrr_ir_call *run, *link;
	const struct bpfrr_ir_slot *map, *prog;
	uint8_t ctx[44], *t;
	struct bpfrr_ir *ir;
	char *text = NULL;
	size_t len;
	int32_t fd;

	t = lskel_bytes(&len);
	ir = translate_bytes(t, len, false, &text);
	ck_assert_uint_eq(ir->nr_calls, 5);
	run = ir_call_seq(ir, 4);
	ck_assert_uint_eq(run->cmd, BPFRR_CMD_PROG_TEST_RUN);
	ck_assert_uint_eq(run->nr_outfds, 2);
	ck_assert_str_eq(run->bufs[run->outfds[0].buf].path, "attr.test.ctx_in");
	ck_assert_uint_eq(run->bufs[run->outfds[0].buf].dir, BPFRR_DIR_INOUT);
	ck_assert_uint_eq(run->outfds[0].offset, 24);
	ck_assert_uint_eq(run->outfds[1].offset, 40);
	/* the product fds are the program's to write: not the recorded numbers */
	memcpy(&fd, run->bufs[run->outfds[0].buf].data + 24, 4);
	ck_assert_int_eq(fd, 0);
	memcpy(&fd, run->bufs[run->outfds[1].buf].data + 40, 4);
	ck_assert_int_eq(fd, 0);
	map = &ir->slots[run->outfds[0].slot];
	prog = &ir->slots[run->outfds[1].slot];
	ck_assert_str_eq(map->name, "map.onemap");
	ck_assert_uint_eq(map->kind, BPFRR_OBJ_MAP);
	ck_assert_uint_eq(map->flags, BPFRR_IR_SLOT_KEEP);
	ck_assert_int_eq(map->producer, run - ir->calls);
	ck_assert_uint_eq(map->ident.type, 2);
	ck_assert_uint_eq(map->ident.key_size, 4);
	ck_assert_uint_eq(map->ident.value_size, 8);
	ck_assert_uint_eq(map->ident.max_entries, 2);
	ck_assert_str_eq(map->ident.name, "onemap");
	ck_assert_str_eq(prog->name, "prog.count_syscalls");
	ck_assert_uint_eq(prog->flags, BPFRR_IR_SLOT_KEEP);
	ck_assert_mem_eq(prog->ident.tag, "\xee\x44\x6c\x47\x14\xa4\x79\x7f", 8);
	ck_assert_str_eq(prog->ident.name, "count_syscalls");
	/* the loader's own program and blob map are replayed, not kept alive */
	ck_assert_str_eq(ir->slots[0].name, "map.__loader.map");
	ck_assert_uint_eq(ir->slots[0].flags, 0);
	ck_assert_str_eq(ir->slots[1].name, "prog.__loader.prog");
	ck_assert_uint_eq(ir->slots[1].flags, 0);
	link = ir_call_seq(ir, 7);
	ck_assert_uint_eq(link->fdrels[0].slot, run->outfds[1].slot);
	ck_assert_str_eq(ir->slots[link->result_slot].name, "link.count_syscalls");
	ck_assert_uint_eq(ir->slots[link->result_slot].ident.type, 1);	/* BPF_LINK_TYPE_RAW_TRACEPOINT */
	ck_assert(ir->slots[link->result_slot].ident.have & BPFRR_ID_LINK_PROG);
	ck_assert_uint_eq(ir->slots[link->result_slot].ident.link_prog_slot, run->outfds[1].slot);
	ck_assert_ptr_nonnull(strstr(text, "its program makes slot 2 map.onemap (fd at attr.test.ctx_in+24), "
				       "slot 3 prog.count_syscalls (fd at attr.test.ctx_in+40)"));
	bpfrr_ir_free(ir);
	free(text);
	text = NULL;

	/* the context as returned does not hold fd 7: the program is no product, its use refused */
	memcpy(ctx, ctx_out, sizeof(ctx));
	ctx[40] = 9;
	patch_record(t, len, ctx_out, ctx, sizeof(ctx));
	ir = translate_bytes(t, len, true, &text);
	run = ir_call_seq(ir, 4);
	ck_assert_uint_eq(run->nr_outfds, 1);
	ck_assert_str_eq(ir->slots[run->outfds[0].slot].name, "map.onemap");
	ck_assert_ptr_nonnull(strstr(text, "SKIPPED: untranslatable: attr.raw_tracepoint.prog_fd: fd 7 names a prog "
				       "made outside the trace (perhaps by the syscall program run at seq 4"));
	bpfrr_ir_free(ir);
	free(text);
	text = NULL;
	patch_record(t, len, ctx, ctx_out, sizeof(ctx));

	/* a log buffer passed in the context would be a tracee address */
	memcpy(ctx, ctx_in, sizeof(ctx));
	ctx[16] = 0x40;
	patch_record(t, len, ctx_in, ctx, sizeof(ctx));
	ir = translate_bytes(t, len, true, &text);
	ck_assert_ptr_nonnull(strstr(text, "SKIPPED: untranslatable: attr.test.ctx_in: the light skeleton's context "
				       "passes a log buffer at a recorded address (log_buf 0x40)"));
	ck_assert_uint_eq(ir->nr_calls, 3);	/* the blob map, its update and the loader program */
	bpfrr_ir_free(ir);
	free(text);
	free(t);
}
END_TEST

START_TEST(reloc_symbols)
{
	size_t len;
	uint8_t *t = portable_bytes(&len);
	const struct bpfrr_ir_call *c;
	struct bpfrr_ir *ir;
	char *text = NULL;
	uint32_t i;

	ir = translate_bytes(t, len, false, &text);
	ck_assert_uint_eq(ir->kernel.known, 1);
	ck_assert_str_eq(ir->kernel.release, "6.12.0-bpfrr");
	ck_assert_str_eq(ir->kernel.machine, "x86_64");
	ck_assert_uint_eq(ir->kernel.btf_size, 5912345);
	ck_assert_uint_eq(ir->kernel.btf_sha256[1], 0x11);

	/* the fentry program: attach_btf_id, the kfunc call (insn 0), the ksym (insn 1) */
	c = ir_call_seq(ir, 1);
	ck_assert_uint_eq(c->nr_resolves, 3);
	ck_assert(!(c->flags & BPFRR_IR_CALL_BUILD_BOUND));
	assert_resolve(c, 0, BPFRR_IR_RESOLVE_BTF_ID, BPFRR_IR_IN_ATTR, 108, "vfs_read", "", BTF_KIND_FUNC, 0);
	assert_resolve(c, 1, BPFRR_IR_RESOLVE_BTF_ID, 0, 4, "bpf_rcu_read_lock", "", BTF_KIND_FUNC, 0);
	assert_resolve(c, 2, BPFRR_IR_RESOLVE_BTF_ID, 0, 12, "bpf_prog_active", "", BTF_KIND_VAR, 0);
	explain_has(text, 1, "BPF_PROG_LOAD", "kept: call 0, resolves attach_btf_id <- func vfs_read, "
		    "insns[0].imm <- func bpf_rcu_read_lock, insns[1].imm <- var bpf_prog_active, makes slot 0 "
		    "prog.read_entry (alive at the replay point)");
	/* the tracepoint by its SYMBOL record (the trace read no tracefs file) */
	c = ir_call_seq(ir, 2);
	ck_assert_uint_eq(c->nr_resolves, 1);
	ck_assert_uint_eq(c->resolves[0].kind, BPFRR_IR_RESOLVE_TP_ID);
	ck_assert_str_eq(c->resolves[0].name, "syscalls/sys_enter_openat");
	/* the kprobe at a kernel address: the PMU and the symbol + offset */
	c = ir_call_seq(ir, 4);
	ck_assert_uint_eq(c->nr_resolves, 2);
	ck_assert_str_eq(c->resolves[0].name, "kprobe");
	assert_resolve(c, 1, BPFRR_IR_RESOLVE_KSYM_ADDR, BPFRR_IR_IN_ATTR, 64, "do_sys_openat2", "", 0, 0x10);
	ck_assert_msg(strstr(text, "looks up PMU kprobe, resolves config2 <- ksym do_sys_openat2+0x10,"), "%s",
		      text);
	/* kprobe_multi by addresses, one in a module */
	c = ir_call_seq(ir, 5);
	ck_assert_uint_eq(c->nr_resolves, 2);
	for (i = 0; i < c->nr_bufs; i++)
		if (!strcmp(c->bufs[i].path, "attr.link_create.kprobe_multi.addrs"))
			break;
	ck_assert_uint_lt(i, c->nr_bufs);
	assert_resolve(c, 0, BPFRR_IR_RESOLVE_KSYM_ADDR, (int32_t)i, 0, "do_sys_openat2", "", 0, 0x10);
	assert_resolve(c, 1, BPFRR_IR_RESOLVE_KSYM_ADDR, (int32_t)i, 8, "nf_conntrack_in", "nf_conntrack", 0, 0);
	ck_assert_msg(strstr(text, "resolves link_create.kprobe_multi.addrs[0] <- ksym do_sys_openat2+0x10, "
			     "link_create.kprobe_multi.addrs[1] <- ksym nf_conntrack_in [nf_conntrack]"), "%s", text);
	ck_assert_int_eq(bpfrr_ir_first_build_bound(ir), -1);
	bpfrr_ir_free(ir);
	free(text);
	text = NULL;

	/* --explain --json: the look-ups with where they go */
	{
		struct bpfrr_frontend_opts o = { 0 };
		struct bpfrr_frontend_result res;
		struct bpfrr_explain_out xo = { .ops = &bpfrr_explain_json };
		struct bpfrr_trace_reader *r = bpfrr_trace_open_mem(t, len, "portable.trace", 0, NULL);
		struct json_out j;
		size_t text_len;
		char err[512];
		FILE *f = open_memstream(&text, &text_len);

		json_start(&j, f);
		xo.j = &j;
		o.explain_out = &xo;
		xo.ops->begin(&xo, "portable.trace");
		ir = bpfrr_frontend_translate_reader(r, &o, &res, err, sizeof(err));
		ck_assert_msg(ir, "%s", err);
		xo.ops->end(&xo);
		fclose(f);
		ck_assert_msg(strstr(text, "{\"kind\":\"btf_id\",\"name\":\"vfs_read\",\"where\":\"attach_btf_id\","
				     "\"module\":\"\",\"btf_kind\":\"func\"}"), "%s", text);
		ck_assert_msg(strstr(text, "{\"kind\":\"ksym\",\"name\":\"nf_conntrack_in\",\"where\":"
				     "\"link_create.kprobe_multi.addrs[1]\",\"module\":\"nf_conntrack\",\"addend\":0}"),
			      "%s", text);
		ck_assert_msg(!strstr(text, "build_bound"), "%s", text);
		bpfrr_ir_free(ir);
		bpfrr_trace_reader_close(r);
		free(text);
		text = NULL;
	}

	/* a BTF id no SYMBOL record names: the load replays only on its own build */
	hide_records(t, len, BPFRR_REC_SYMBOL, "bpf_rcu_read_lock");
	ir = translate_bytes(t, len, false, &text);
	c = ir_call_seq(ir, 1);
	ck_assert_uint_eq(c->nr_resolves, 2);
	ck_assert(c->flags & BPFRR_IR_CALL_BUILD_BOUND);
	ck_assert_str_eq(c->bound_why, "insns[0].imm 60001: no SYMBOL record names it");
	ck_assert_msg(strstr(text, "build-bound: insns[0].imm 60001: no SYMBOL record names it\n"), "%s", text);
	bpfrr_ir_free(ir);
	free(text);
	text = NULL;

	/* a kernel address nothing names: a kprobe by address is refused (boot-specific), a
	 * kprobe_multi address is build-bound */
	hide_records(t, len, BPFRR_REC_SYMBOL, "do_sys_openat2");
	ir = translate_bytes(t, len, true, &text);
	explain_has(text, 4, "perf_event_open", "SKIPPED: untranslatable: a kprobe at kernel address "
		    "0xffffffff81234560 (no SYMBOL record names it), which differs from one boot to the next");
	c = ir_call_seq(ir, 5);
	ck_assert_uint_eq(c->nr_resolves, 1);
	ck_assert_str_eq(c->bound_why, "kprobe_multi.addrs[0] 0xffffffff81234560: no SYMBOL record names it");
	bpfrr_ir_free(ir);
	free(text);
	free(t);
	text = NULL;

	/* a trace of a bpfrr without symbol records (1.0): names nothing */
	t = portable_bytes(&len);
	hide_records(t, len, BPFRR_REC_KERNEL, NULL);
	hide_records(t, len, BPFRR_REC_SYMBOL, NULL);
	ir = translate_bytes(t, len, true, &text);
	ck_assert_uint_eq(ir->kernel.known, 0);
	ck_assert(!bpfrr_ir_has_resolve(ir, BPFRR_IR_RESOLVE_BTF_ID));
	ck_assert(!bpfrr_ir_has_resolve(ir, BPFRR_IR_RESOLVE_KSYM_ADDR));
	c = ir_call_seq(ir, 1);
	ck_assert_str_eq(c->bound_why, "attach_btf_id 51234: recorded by a bpfrr without symbol records");
	c = ir_call_seq(ir, 5);
	ck_assert_str_eq(c->bound_why, "kprobe_multi.addrs[0] 0xffffffff81234560: recorded by a bpfrr without "
			 "symbol records");
	/* as before symbol records: a tracepoint or a PMU no read names is refused */
	explain_has(text, 2, "perf_event_open", "SKIPPED: untranslatable: tracepoint id 585: no recorded tracefs "
		    "read names it");
	explain_has(text, 4, "perf_event_open", "SKIPPED: untranslatable: perf event type 8: a dynamic PMU no "
		    "recorded read names");
	bpfrr_ir_free(ir);
	free(text);
	free(t);
}
END_TEST

/*
 * Garbage inside well-framed records (checksums not checked): every byte of
 * two traces flipped in turn.  The translator must refuse or translate, never
 * crash (the sanitizers watch), and what it returns must validate.
 */
START_TEST(survives_garbage_in_records)
{
	struct bpfrr_frontend_opts o = { .skip_untranslatable = 1, .keep_probes = 0 };
	uint8_t *traces[3];
	size_t lens[3], strides[3] = { 1, 1, 7 };
	uint32_t ok = 0, refused = 0;
	char path[4200];
	int nr = 2;

	traces[0] = scen_load(&lens[0]);
	traces[1] = scen_perf(&lens[1], true, -1, 0x40042408);
	/* and a recorded one, every 7th byte */
	snprintf(path, sizeof(path), "%s/traces/x86_64-opensnoop.trace", data_dir);
	if ((traces[2] = (uint8_t *)slurp(path, &lens[2])))
		nr = 3;
	for (int k = 0; k < nr; k++) {
		for (size_t i = 16; i < lens[k]; i += strides[k]) {
			struct bpfrr_trace_reader *r;
			struct bpfrr_ir *ir;
			char err[512], verr[256];
			uint8_t saved = traces[k][i];

			traces[k][i] ^= (uint8_t)(0x5a + i);
			r = bpfrr_trace_open_mem(traces[k], lens[k], "garbage.trace", BPFRR_TRACE_IGNORE_CHECKSUMS,
						 NULL);
			traces[k][i] = saved;
			if (!r)
				continue;
			o.keep_probes = (int)(i & 1);
			ir = bpfrr_frontend_translate_reader(r, &o, NULL, err, sizeof(err));
			if (ir) {
				ck_assert_msg(!bpfrr_ir_validate(ir, verr, sizeof(verr)), "byte %zu: %s", i, verr);
				ok++;
			} else {
				refused++;
			}
			bpfrr_ir_free(ir);
			bpfrr_trace_reader_close(r);
		}
		free(traces[k]);
	}
	fprintf(stderr, "# garbage: %u translated, %u refused\n", ok, refused);
	ck_assert_uint_gt(ok, 0);
	ck_assert_uint_gt(refused, 0);
}
END_TEST

/* --- bpfrr translate: exit statuses --------------------------------------------------------- */
static int translate_cli(const char *trace, const char *out, const char *extra)
{
	char *argv[8];
	int argc = 0;

	argv[argc++] = "translate";
	if (extra)
		argv[argc++] = (char *)extra;
	argv[argc++] = "-o";
	argv[argc++] = (char *)out;
	argv[argc++] = (char *)trace;
	argv[argc] = NULL;
	return bpfrr_translate_main(argc, argv);
}

static void write_bytes(const char *path, const uint8_t *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	fclose(f);
}

START_TEST(cli_exit_statuses)
{
	char dir[] = "/tmp/bpfrr-front-XXXXXX", trace[128], out[128];
	size_t len;
	uint8_t *t;
	struct bpfrr_ir *ir;
	char err[256];
	struct stat st;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(trace, sizeof(trace), "%s/t.trace", dir);
	snprintf(out, sizeof(out), "%s/t.bundle", dir);
	t = scen_load(&len);
	write_bytes(trace, t, len);
	ck_assert_int_eq(translate_cli(trace, out, NULL), 0);
	ir = bpfrr_bundle_read(out, err, sizeof(err));
	ck_assert_msg(ir, "%s", err);
	ck_assert_uint_eq(ir->nr_calls, 5);
	ck_assert_str_eq(ir->source, trace);
	bpfrr_ir_free(ir);
	/* /dev/null stays a device */
	ck_assert_int_eq(translate_cli(trace, "/dev/null", NULL), 0);
	ck_assert_int_eq(stat("/dev/null", &st), 0);
	ck_assert(S_ISCHR(st.st_mode));
	ck_assert_int_eq(translate_cli(trace, out, "--until=0"), BPFRR_EXIT_USAGE);
	ck_assert_int_eq(translate_cli(trace, out, "--format=bogus"), BPFRR_EXIT_USAGE);
	/* truncated: translated, exit 3 */
	write_bytes(trace, t, len - 40);
	ck_assert_int_eq(translate_cli(trace, out, NULL), BPFRR_EXIT_TRUNCATED);
	/* corrupt: bad input */
	t[len / 2] ^= 0x55;
	write_bytes(trace, t, len);
	ck_assert_int_eq(translate_cli(trace, out, NULL), BPFRR_EXIT_USAGE);
	free(t);
	/* untranslatable: a failure */
	t = kprobe_bytes(true, &len);
	write_bytes(trace, t, len);
	ck_assert_int_eq(translate_cli(trace, out, NULL), BPFRR_EXIT_FAILURE);
	ck_assert_int_eq(translate_cli(trace, out, "--skip-untranslatable"), 0);
	free(t);
	unlink(trace);
	unlink(out);
	rmdir(dir);
}
END_TEST

/* --- recorded traces ------------------------------------------------------------------------------- */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

START_TEST(recorded_traces)
{
	char dir[4200];
	struct dirent *de;
	DIR *dp;
	int n = 0;

	snprintf(dir, sizeof(dir), "%s/traces", data_dir);
	dp = opendir(dir);
	if (!dp)
		return;
	while ((de = readdir(dp))) {
		struct bpfrr_frontend_opts o = { .skip_untranslatable = 1 };
		struct bpfrr_frontend_result res;
		size_t nlen = strlen(de->d_name), want_len, text_len = 0;
		char path[8400], gold[8400], err[512], verr[256], *text = NULL, *want;
		struct bpfrr_trace_reader *r;
		struct bpfrr_ir *ir;
		uint32_t i;

		if (nlen < 7 || strcmp(de->d_name + nlen - 6, ".trace"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		snprintf(gold, sizeof(gold), "%s/translate/%.*s.explain", data_dir, (int)(nlen - 6), de->d_name);
		r = bpfrr_trace_open(path, 0, NULL);
		ck_assert_msg(r, "%s does not open", path);
		o.explain = open_memstream(&text, &text_len);
		ir = bpfrr_frontend_translate_reader(r, &o, &res, err, sizeof(err));
		fclose(o.explain);
		bpfrr_trace_reader_close(r);
		ck_assert_msg(ir, "%s: %s", de->d_name, err);
		ck_assert_int_eq(bpfrr_ir_validate(ir, verr, sizeof(verr)), 0);
		ck_assert_uint_eq(ir->nr_calls + ir->nr_drops, ir->nr_recorded);
		/* every slot alive at the replay point carries an identity to verify */
		for (i = 0; i < ir->nr_slots; i++)
			if (ir->slots[i].flags & BPFRR_IR_SLOT_KEEP && ir->slots[i].kind != BPFRR_OBJ_PERF_EVENT)
				ck_assert_msg(ir->slots[i].ident.have, "%s: slot %u (%s) has no identity", de->d_name,
					      i, ir->slots[i].name);
		if (getenv("BPFRR_UPDATE_GOLDEN")) {
			write_bytes(gold, (const uint8_t *)text, text_len);
		} else {
			want = slurp(gold, &want_len);
			ck_assert_msg(want, "missing %s", gold);
			ck_assert_msg(want_len == text_len && !memcmp(want, text, text_len),
				      "%s: --explain differs from %s", de->d_name, gold);
			free(want);
		}
		bpfrr_ir_free(ir);
		free(text);
		n++;
	}
	closedir(dp);
	fprintf(stderr, "# %d recorded traces translated\n", n);
}
END_TEST

static Suite *front_suite(void)
{
	Suite *s = suite_create("translate_front");
	TCase *tc = tcase_create("front");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, fdmodel_tables);
	tcase_add_test(tc, fdlife_resolves_each_fd);
	tcase_add_test(tc, fdlife_reuse_dup_fork);
	tcase_add_test(tc, fdlife_alias_by_id);
	tcase_add_test(tc, select_probes_failures_reads_teardown);
	tcase_add_test(tc, select_until_and_keep_probes);
	tcase_add_test(tc, reloc_calls_slots_buffers);
	tcase_add_test(tc, reloc_perf_events);
	tcase_add_test(tc, select_enable_noop);
	tcase_add_test(tc, reloc_refuses_with_reasons);
	tcase_add_test(tc, reloc_refuses_too_many_objects);
	tcase_add_test(tc, reloc_refuses_later_uapi);
	tcase_add_test(tc, reloc_refuses_unrecorded_memory_and_foreign_fds);
	tcase_add_test(tc, reloc_fds_in_map_values);
	tcase_add_test(tc, reloc_struct_ops_value);
	tcase_add_test(tc, reloc_cgroup_path_slot);
	tcase_add_test(tc, bpffs_directories);
	tcase_add_test(tc, bpffs_directory_numbers);
	tcase_add_test(tc, driver_on_the_dump_trace);
	tcase_add_test(tc, reloc_symbols);
	tcase_add_test(tc, survives_garbage_in_records);
	tcase_add_test(tc, cli_exit_statuses);
	tcase_add_test(tc, recorded_traces);
	tcase_add_test(tc, light_skeleton_products);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(front_suite());
	int failed;

	find_data_dir();
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorder's bpf() capture without a kernel that sees a bpf() call: a
 * stopped child plays the tracee, holding a BPF_PROG_LOAD attr and its
 * buffers in its memory. rec_bpf_enter() reads them as at a syscall entry;
 * the child then writes a "verifier log" and log_true_size as the kernel
 * would and stops again; rec_bpf_exit() captures what was written. The
 * trace is read back and every region checked byte for byte. Also: a call
 * that never returned, and the adoption of an fd the recorder did not see
 * being made. Nothing here calls bpf(), and no fd-returning result is
 * faked, so the recorder's own identity query never runs.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../recorder/record.h"

#define ATTR_SIZE 152

static uint8_t attr[ATTR_SIZE];
static uint64_t insns[2] = { 0x00000000000000b7ull /* r0 = 0 */, 0x0000000000000095ull /* exit */ };
static char license[] = "GPL";
static char log_buf[256];
static const char log_text[] = "0: R1=ctx() R10=fp0\nverifier says no\n";

static void set_field(int cmd, const char *name, uint64_t val)
{
	const struct bpfrr_field *f = bpfrr_abi_cmd_field(cmd, name);

	ck_assert_msg(f != NULL, "no field %s", name);
	ck_assert_int_le(f->offset + f->size, ATTR_SIZE);
	memcpy(attr + f->offset, &val, f->size);	/* little-endian hosts */
}

struct fixture {
	char path[64];
	struct rec_options opt;
	struct rec_session s;
	struct rec_task t;
	pid_t child;
};

/* struct bpf_common_attr of a 5-argument call (7.2), and the log the "kernel" writes into it */
static uint64_t common[3];
static char common_log[128];
static const char common_text[] = "Invalid excl_prog_hash_size.\n";

/* The child: stop (entry), play the kernel, stop (exit), wait to be killed. */
static void child_main(bool adopt_fd)
{
	const struct bpfrr_field *f = bpfrr_abi_cmd_field(5, "log_true_size");
	uint32_t true_size = sizeof(log_text), common_size = sizeof(common_text);

	if (adopt_fd)
		dup2(open("/dev/null", O_RDONLY), 42);
	raise(SIGSTOP);
	memcpy(log_buf, log_text, sizeof(log_text));
	memcpy(attr + f->offset, &true_size, sizeof(true_size));
	memcpy(common_log, common_text, sizeof(common_text));
	memcpy((uint8_t *)common + 16, &common_size, 4);	/* log_true_size */
	raise(SIGSTOP);
	for (;;)
		pause();
}

static void stopped(pid_t pid)
{
	int status;

	ck_assert_int_eq(waitpid(pid, &status, WUNTRACED), pid);
	ck_assert(WIFSTOPPED(status));
}

static void setup(struct fixture *fx, bool adopt_fd)
{
	struct bpfrr_trace_header hdr = { .arch = 62, .nr_cpus = 1, .page_size = 4096, .arch_name = "test",
					  .kernel_release = "test", .kernel_version = "test",
					  .recorder_version = "test" };
	int fd;

	memset(fx, 0, sizeof(*fx));
	strcpy(fx->path, "/tmp/test_record_bpf.XXXXXX");
	fd = mkstemp(fx->path);
	ck_assert_int_ge(fd, 0);
	fx->opt.output = fx->path;
	fx->opt.identity = false;
	fx->s.opt = &fx->opt;
	fx->s.nr_cpus = 1;
	fx->s.w = bpfrr_trace_create_fd(fd, &hdr);
	ck_assert_ptr_nonnull(fx->s.w);

	fx->child = fork();
	ck_assert_int_ge(fx->child, 0);
	if (fx->child == 0)
		child_main(adopt_fd);
	stopped(fx->child);
	fx->t.tid = fx->t.tgid = fx->child;
	fx->t.fdtab = rec_fdtab_new();
}

static void teardown(struct fixture *fx)
{
	kill(fx->child, SIGKILL);
	waitpid(fx->child, NULL, 0);
	rec_fdtab_put(fx->t.fdtab);
	unlink(fx->path);
}

static struct rec_call *prog_load_call(void)
{
	struct rec_call *c = rec_call_new(BPFRR_SYS_BPF);

	memset(attr, 0, sizeof(attr));
	memset(log_buf, 0, sizeof(log_buf));
	set_field(5, "prog_type", 1);	/* socket filter */
	set_field(5, "insn_cnt", 2);
	set_field(5, "insns", (uintptr_t)insns);
	set_field(5, "license", (uintptr_t)license);
	set_field(5, "log_level", 1);
	set_field(5, "log_size", sizeof(log_buf));
	set_field(5, "log_buf", (uintptr_t)log_buf);
	c->args[0] = 5;	/* BPF_PROG_LOAD */
	c->args[1] = (uintptr_t)attr;
	c->args[2] = ATTR_SIZE;
	c->t_enter_ns = rec_now_ns();
	return c;
}

/* The BPF_CALL record of the trace at path (copied into *out), with its reader. */
static struct bpfrr_trace_reader *read_call(const char *path, struct bpfrr_trace_record *out,
					    int *adopts)
{
	struct bpfrr_trace_reader *r;
	struct bpfrr_trace_record rec;
	char *err = NULL;
	bool found = false;

	r = bpfrr_trace_open(path, 0, &err);
	ck_assert_msg(r != NULL, "%s", err ? err : "?");
	*adopts = 0;
	while (bpfrr_trace_next(r, &rec) == BPFRR_TRACE_RECORD) {
		if (rec.type == BPFRR_REC_FD_EVENT && rec.fd_event.op == BPFRR_FD_ADOPT)
			(*adopts)++;
		if (rec.type == BPFRR_REC_BPF_CALL && !found) {
			*out = rec;
			found = true;
			break;
		}
	}
	ck_assert(found);
	return r;
}

static const struct bpfrr_trace_region *region(const struct bpfrr_rec_bpf_call *c, const char *path,
					       enum bpfrr_phase phase)
{
	uint32_t i;

	for (i = 0; i < c->nr_regions; i++)
		if (!strcmp(c->regions[i].path, path) && c->regions[i].phase == phase)
			return &c->regions[i];
	return NULL;
}

START_TEST(test_prog_load_entry_and_exit)
{
	struct bpfrr_trace_record rec;
	const struct bpfrr_trace_region *g;
	const struct bpfrr_rec_blob *b;
	struct bpfrr_trace_reader *r;
	struct rec_call *c;
	struct fixture fx;
	int adopts;

	c = prog_load_call();	/* before the fork: the child's memory holds it */
	setup(&fx, false);
	ck_assert(rec_bpf_enter(&fx.s, &fx.t, c));	/* the exit must be seen */
	ck_assert_int_eq(c->seq, 1);
	kill(fx.child, SIGCONT);
	stopped(fx.child);
	c->exited = true;
	c->ret = -EACCES;
	c->t_exit_ns = rec_now_ns();
	rec_bpf_exit(&fx.s, &fx.t, c);
	rec_call_free(c);
	ck_assert_int_eq(fx.s.write_err, 0);
	ck_assert_int_eq(bpfrr_trace_close(fx.s.w, 0, 0), 0);

	r = read_call(fx.path, &rec, &adopts);
	ck_assert_int_eq(rec.bpf_call.cmd, 5);
	ck_assert_int_eq(rec.bpf_call.ret, -EACCES);
	ck_assert_int_eq(rec.bpf_call.attr_size, ATTR_SIZE);
	ck_assert_int_eq(rec.bpf_call.attr_len, ATTR_SIZE);
	ck_assert_int_eq(rec.bpf_call.flags, 0);
	ck_assert_int_eq(rec.bpf_call.tid, fx.child);

	g = region(&rec.bpf_call, "attr.insns", BPFRR_PHASE_ENTRY);
	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(g->len, sizeof(insns));
	ck_assert_int_eq(g->addr, (uintptr_t)insns);
	b = bpfrr_trace_blob(r, g->blob);
	ck_assert_ptr_nonnull(b);
	ck_assert_mem_eq(b->data, insns, sizeof(insns));

	g = region(&rec.bpf_call, "attr.license", BPFRR_PHASE_ENTRY);
	ck_assert_ptr_nonnull(g);
	b = bpfrr_trace_blob(r, g->blob);
	ck_assert_int_eq(b->len, 4);
	ck_assert_str_eq(b->data, "GPL");

	/* the log the "kernel" wrote, as long as log_true_size says */
	g = region(&rec.bpf_call, "attr.log_buf", BPFRR_PHASE_EXIT);
	ck_assert_ptr_nonnull(g);
	b = bpfrr_trace_blob(r, g->blob);
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(b->len, sizeof(log_text));
	ck_assert_mem_eq(b->data, log_text, sizeof(log_text));
	ck_assert_ptr_null(region(&rec.bpf_call, "attr.log_buf", BPFRR_PHASE_ENTRY));

	/* attr was re-read at exit: it has the new log_true_size */
	ck_assert_int_eq(rec.bpf_call.attr_exit_len, ATTR_SIZE);
	ck_assert_int_ne(memcmp(rec.bpf_call.attr, rec.bpf_call.attr_exit, ATTR_SIZE), 0);
	ck_assert_int_eq(adopts, 0);
	bpfrr_trace_reader_close(r);
	teardown(&fx);
}
END_TEST

START_TEST(test_call_that_never_returned)
{
	struct bpfrr_trace_record rec;
	struct bpfrr_trace_reader *r;
	struct rec_call *c;
	struct fixture fx;
	uint32_t i;
	int adopts;

	c = prog_load_call();
	setup(&fx, false);
	rec_bpf_enter(&fx.s, &fx.t, c);
	rec_call_abandon(&fx.s, &fx.t, c, "the task was killed by signal 9");
	rec_call_free(c);
	ck_assert_int_eq(bpfrr_trace_close(fx.s.w, 9, 0), 0);

	r = read_call(fx.path, &rec, &adopts);
	ck_assert_int_eq(rec.bpf_call.flags & BPFRR_CALL_NO_EXIT, BPFRR_CALL_NO_EXIT);
	ck_assert_int_eq(rec.bpf_call.ret, 0);
	ck_assert_int_eq(rec.bpf_call.t_exit_ns, 0);
	ck_assert_ptr_nonnull(region(&rec.bpf_call, "attr.insns", BPFRR_PHASE_ENTRY));
	for (i = 0; i < rec.bpf_call.nr_regions; i++)
		ck_assert_int_eq(rec.bpf_call.regions[i].phase, BPFRR_PHASE_ENTRY);
	/* and a NOTE says why */
	{
		struct bpfrr_trace_record n;
		bool note = false;

		while (bpfrr_trace_next(r, &n) == BPFRR_TRACE_RECORD)
			if (n.type == BPFRR_REC_NOTE && strstr(n.note.text, "killed by signal 9"))
				note = true;
		ck_assert(note);
	}
	bpfrr_trace_reader_close(r);
	teardown(&fx);
}
END_TEST

START_TEST(test_unknown_fd_is_adopted)
{
	static uint32_t key = 7, value = 9;
	struct bpfrr_trace_record rec;
	const struct bpfrr_trace_region *g;
	struct bpfrr_trace_reader *r;
	struct rec_call *c = rec_call_new(BPFRR_SYS_BPF);
	struct fixture fx;
	int adopts;

	memset(attr, 0, sizeof(attr));
	set_field(2, "map_fd", 42);	/* BPF_MAP_UPDATE_ELEM on the child's fd 42 */
	set_field(2, "key", (uintptr_t)&key);
	set_field(2, "value", (uintptr_t)&value);
	setup(&fx, true);
	c->args[0] = 2;
	c->args[1] = (uintptr_t)attr;
	c->args[2] = 32;
	rec_bpf_enter(&fx.s, &fx.t, c);
	ck_assert_ptr_nonnull(rec_fdtab_lookup(fx.t.fdtab, 42));
	ck_assert_int_eq(rec_fdtab_lookup(fx.t.fdtab, 42)->kind, BPFRR_OBJ_ANY);
	ck_assert_int_eq(rec_fdtab_lookup(fx.t.fdtab, 42)->origin, REC_FD_FROM_DISCOVERED);
	c->exited = true;
	c->ret = -EINVAL;
	rec_bpf_exit(&fx.s, &fx.t, c);
	rec_call_free(c);
	ck_assert_int_eq(bpfrr_trace_close(fx.s.w, 0, 0), 0);

	r = read_call(fx.path, &rec, &adopts);
	ck_assert_int_eq(adopts, 1);
	/* not a map the recorder knows: key and value sizes are unknown */
	g = region(&rec.bpf_call, "attr.key", BPFRR_PHASE_ENTRY);
	ck_assert_ptr_nonnull(g);
	ck_assert_int_ne(g->flags & BPFRR_REGION_LEN_UNKNOWN, 0);
	ck_assert_int_eq(g->blob, 0);
	bpfrr_trace_reader_close(r);
	teardown(&fx);
}
END_TEST

START_TEST(test_known_map_sizes_its_buffers)
{
	static uint64_t key = 0x1122334455667788ull;
	static uint32_t value[3] = { 1, 2, 3 };
	struct rec_fd map = { .kind = BPFRR_OBJ_MAP, .obj_seq = 1,
			      .facts = { .has_type = true, .type = 1 /* hash */, .has_sizes = true,
					 .key_size = 8, .value_size = 12 } };
	struct bpfrr_trace_record rec;
	const struct bpfrr_trace_region *g;
	const struct bpfrr_rec_blob *b;
	struct bpfrr_trace_reader *r;
	struct rec_call *c = rec_call_new(BPFRR_SYS_BPF);
	struct fixture fx;
	int adopts;

	memset(attr, 0, sizeof(attr));
	set_field(2, "map_fd", 5);
	set_field(2, "key", (uintptr_t)&key);
	set_field(2, "value", (uintptr_t)value);
	setup(&fx, false);
	rec_fdtab_set(fx.t.fdtab, 5, &map);	/* as if an earlier BPF_MAP_CREATE made fd 5 */
	c->args[0] = 2;
	c->args[1] = (uintptr_t)attr;
	c->args[2] = 32;
	rec_bpf_enter(&fx.s, &fx.t, c);
	c->exited = true;
	c->ret = 0;
	rec_bpf_exit(&fx.s, &fx.t, c);
	rec_call_free(c);
	ck_assert_int_eq(bpfrr_trace_close(fx.s.w, 0, 0), 0);

	r = read_call(fx.path, &rec, &adopts);
	ck_assert_int_eq(adopts, 0);
	g = region(&rec.bpf_call, "attr.key", BPFRR_PHASE_ENTRY);
	ck_assert_ptr_nonnull(g);
	b = bpfrr_trace_blob(r, g->blob);
	ck_assert_int_eq(b->len, 8);
	ck_assert_mem_eq(b->data, &key, 8);
	g = region(&rec.bpf_call, "attr.value", BPFRR_PHASE_ENTRY);
	ck_assert_ptr_nonnull(g);
	b = bpfrr_trace_blob(r, g->blob);
	ck_assert_int_eq(b->len, 12);
	ck_assert_mem_eq(b->data, value, 12);
	bpfrr_trace_reader_close(r);
	teardown(&fx);
}
END_TEST

/*
 * Later UAPI at a page end, as strace's tests put attrs: the page after the attr is
 * PROT_NONE, so reading one byte more than attr_size fails the capture.  A 6.18
 * attr (168 bytes) with a signature and fd_array_cnt, then a short one (156 bytes)
 * that stops inside signature: the field is absent, and nothing past it is read.
 */
static uint8_t *page_end_attr(size_t size, uint8_t **map, size_t *map_len)
{
	static int32_t fds[2] = { 42, 42 };
	static uint8_t sig[48] = { 0x30, 0x82 };
	long page = sysconf(_SC_PAGESIZE);
	uint8_t full[168], *m, *a;

	m = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert(m != MAP_FAILED);
	ck_assert_int_eq(mprotect(m + page, (size_t)page, PROT_NONE), 0);
	memset(attr, 0, sizeof(attr));
	set_field(5, "prog_type", 1);
	set_field(5, "insn_cnt", 2);
	set_field(5, "insns", (uintptr_t)insns);
	set_field(5, "license", (uintptr_t)license);
	set_field(5, "fd_array", (uintptr_t)fds);
	memcpy(full, attr, ATTR_SIZE);
	memset(full + ATTR_SIZE, 0, sizeof(full) - ATTR_SIZE);
	memcpy(full + 148, &(uint32_t){ 2 }, 4);		/* fd_array_cnt */
	memcpy(full + 152, &(uint64_t){ (uintptr_t)sig }, 8);	/* signature */
	memcpy(full + 160, &(uint32_t){ sizeof(sig) }, 4);
	memcpy(full + 164, &(int32_t){ -1 }, 4);		/* keyring_id */
	a = m + page - size;
	memcpy(a, full, size);
	*map = m;
	*map_len = 2 * (size_t)page;
	return a;
}

static void page_end_call(size_t size, struct fixture *fx, struct bpfrr_trace_reader **r,
			  struct bpfrr_trace_record *rec)
{
	struct rec_call *c = rec_call_new(BPFRR_SYS_BPF);
	size_t map_len;
	uint8_t *map, *a = page_end_attr(size, &map, &map_len);
	int adopts;

	setup(fx, true);	/* the child's fd 42 is in fd_array */
	c->args[0] = 5;
	c->args[1] = (uintptr_t)a;
	c->args[2] = size;
	rec_bpf_enter(&fx->s, &fx->t, c);
	kill(fx->child, SIGCONT);
	stopped(fx->child);
	c->exited = true;
	c->ret = -EINVAL;
	rec_bpf_exit(&fx->s, &fx->t, c);
	rec_call_free(c);
	ck_assert_int_eq(bpfrr_trace_close(fx->s.w, 0, 0), 0);
	munmap(map, map_len);
	*r = read_call(fx->path, rec, &adopts);
	ck_assert_int_eq(adopts, 1);
}

START_TEST(test_newer_attr_at_page_end)
{
	struct bpfrr_trace_record rec;
	const struct bpfrr_trace_region *g;
	const struct bpfrr_rec_blob *b;
	struct bpfrr_trace_reader *r;
	struct fixture fx;

	page_end_call(168, &fx, &r, &rec);
	ck_assert_int_eq(rec.bpf_call.flags, 0);
	ck_assert_int_eq(rec.bpf_call.attr_len, 168);
	g = region(&rec.bpf_call, "attr.signature", BPFRR_PHASE_ENTRY);
	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(g->content, BPFRR_CONTENT_SIGNATURE);
	b = bpfrr_trace_blob(r, g->blob);
	ck_assert_int_eq(b->len, 48);
	ck_assert_int_eq(((const uint8_t *)b->data)[1], 0x82);
	/* fd_array_cnt sizes fd_array (the insns use no slot) */
	g = region(&rec.bpf_call, "attr.fd_array", BPFRR_PHASE_ENTRY);
	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(g->len, 8);
	bpfrr_trace_reader_close(r);
	teardown(&fx);
}
END_TEST

START_TEST(test_short_attr_at_page_end)
{
	struct bpfrr_trace_record rec;
	const struct bpfrr_trace_region *g;
	struct bpfrr_trace_reader *r;
	struct fixture fx;

	/* 156 bytes: signature (152..159) does not fit, fd_array_cnt (148..151) does */
	page_end_call(156, &fx, &r, &rec);
	ck_assert_int_eq(rec.bpf_call.flags, 0);	/* read whole: nothing past 156 was touched */
	ck_assert_int_eq(rec.bpf_call.attr_len, 156);
	ck_assert_ptr_null(region(&rec.bpf_call, "attr.signature", BPFRR_PHASE_ENTRY));
	g = region(&rec.bpf_call, "attr.fd_array", BPFRR_PHASE_ENTRY);
	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(g->len, 8);
	bpfrr_trace_reader_close(r);
	teardown(&fx);
}
END_TEST

/* bpf(BPF_MAP_CREATE | BPF_COMMON_ATTRS, attr, 72, common, 24): the 4th and 5th arguments */
START_TEST(test_common_attrs)
{
	struct bpfrr_trace_record rec;
	const struct bpfrr_trace_region *g;
	const struct bpfrr_rec_blob *b;
	struct bpfrr_trace_reader *r;
	struct rec_call *c = rec_call_new(BPFRR_SYS_BPF);
	struct fixture fx;
	int adopts;

	memset(attr, 0, sizeof(attr));
	set_field(0, "map_type", 2);
	set_field(0, "key_size", 4);
	set_field(0, "value_size", 8);
	set_field(0, "max_entries", 1);
	memset(common, 0, sizeof(common));
	memset(common_log, 0, sizeof(common_log));
	common[0] = (uintptr_t)common_log;
	common[1] = sizeof(common_log) | (uint64_t)1 << 32;	/* log_size, log_level 1 */
	setup(&fx, false);
	c->args[0] = 0 | 1u << 16;
	c->args[1] = (uintptr_t)attr;
	c->args[2] = 72;
	c->args[3] = (uintptr_t)common;
	c->args[4] = sizeof(common);
	rec_bpf_enter(&fx.s, &fx.t, c);
	ck_assert_int_eq(c->cmd, 0);
	kill(fx.child, SIGCONT);
	stopped(fx.child);
	c->exited = true;
	c->ret = -EINVAL;
	rec_bpf_exit(&fx.s, &fx.t, c);
	rec_call_free(c);
	ck_assert_int_eq(bpfrr_trace_close(fx.s.w, 0, 0), 0);

	r = read_call(fx.path, &rec, &adopts);
	ck_assert_int_eq(rec.bpf_call.cmd, 0);	/* BPF_MAP_CREATE, the flag in flags */
	ck_assert_int_eq(rec.bpf_call.flags, BPFRR_CALL_COMMON_ATTRS);
	g = region(&rec.bpf_call, "common_attr", BPFRR_PHASE_ENTRY);
	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(g->addr, (uintptr_t)common);	/* 4th argument */
	ck_assert_int_eq(g->want_len, sizeof(common));	/* 5th */
	ck_assert_int_eq(g->content, BPFRR_CONTENT_COMMON_ATTR);
	g = region(&rec.bpf_call, "common_attr", BPFRR_PHASE_EXIT);
	ck_assert_ptr_nonnull(g);
	b = bpfrr_trace_blob(r, g->blob);
	ck_assert_int_eq(((const uint32_t *)b->data)[4], sizeof(common_text));	/* log_true_size */
	g = region(&rec.bpf_call, "common_attr.log_buf", BPFRR_PHASE_EXIT);
	ck_assert_ptr_nonnull(g);
	b = bpfrr_trace_blob(r, g->blob);
	ck_assert_int_eq(b->len, sizeof(common_text));
	ck_assert_str_eq(b->data, common_text);
	bpfrr_trace_reader_close(r);
	teardown(&fx);
}
END_TEST

static Suite *bpf_suite(void)
{
	Suite *s = suite_create("record_bpf");
	TCase *tc = tcase_create("capture");

	tcase_add_test(tc, test_prog_load_entry_and_exit);
	tcase_add_test(tc, test_call_that_never_returned);
	tcase_add_test(tc, test_unknown_fd_is_adopted);
	tcase_add_test(tc, test_known_map_sizes_its_buffers);
	tcase_add_test(tc, test_newer_attr_at_page_end);
	tcase_add_test(tc, test_short_attr_at_page_end);
	tcase_add_test(tc, test_common_attrs);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(bpf_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

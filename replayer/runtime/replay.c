// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay.c - run an IR in the running kernel (see replay.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "bpf_abi.h"
#include "codegen.h"
#include "exec.h"
#include "header_runtime.h"
#include "kernel_build.h"
#include "netlink.h"
#include "probe.h"
#include "replay.h"
#include "run.h"
#include "sign.h"

static int replay_fail(struct bpfrr_replay *r, int call, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int replay_fail(struct bpfrr_replay *r, int call, int err, const char *fmt, ...)
{
	va_list ap;

	r->failed_call = call;
	r->err = err;
	va_start(ap, fmt);
	vsnprintf(r->error, sizeof(r->error), fmt, ap);
	va_end(ap);
	return err;
}

/*
 * The BPF objects this process holds fds of (anon_inode:bpf-map, -prog,
 * -link, ...), as a bitmap of fd numbers below BPF_FDS_MAX: a failed
 * replay checks that its cleanup left none it did not hold before.
 */
#define BPF_FDS_MAX 1024
static void bpf_fds(uint64_t *set)
{
	char path[300], target[64];
	struct dirent *de;
	DIR *d;
	ssize_t n;
	long fd;

	memset(set, 0, BPF_FDS_MAX / 8);
	d = opendir("/proc/self/fd");
	if (!d)
		return;
	while ((de = readdir(d))) {
		fd = strtol(de->d_name, NULL, 10);
		if (de->d_name[0] < '0' || de->d_name[0] > '9' || fd < 0 || fd >= BPF_FDS_MAX)
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (!strncmp(target, "anon_inode:bpf", 14))
			set[fd / 64] |= 1ull << (fd % 64);
	}
	closedir(d);
}

/* After a failure's cleanup: a BPF fd open now that was not before the replay is a bpfrr bug. */
static void check_nothing_held(struct bpfrr_replay *r, const uint64_t *before)
{
	uint64_t now[BPF_FDS_MAX / 64];
	size_t len = strlen(r->error);
	int fd, nr = 0;

	bpf_fds(now);
	for (fd = 0; fd < BPF_FDS_MAX; fd++)
		nr += (now[fd / 64] & ~before[fd / 64]) >> (fd % 64) & 1;
	if (nr && len + 1 < sizeof(r->error))
		snprintf(r->error + len, sizeof(r->error) - len, "; and %d BPF fd%s still open after the "
			 "cleanup (a bpfrr bug)", nr, nr == 1 ? "" : "s");
}

static void close_all(struct bpfrr_replay *r)
{
	uint32_t i;

	if (!r->fds || !r->ir)
		return;
	for (i = 0; i < r->ir->nr_slots; i++) {
		if (r->fds[i] >= 0)
			close(r->fds[i]);
		r->fds[i] = -1;
	}
}

void bpfrr_replay_close(struct bpfrr_replay *r)
{
	close_all(r);
	free(r->fds);
	free(r->made_dirs);
	free(r->pin_was_free);
	free(r->nl_done);
	free(r->log);
	bpfrr_symbols_free(r->syms);
	bpfrr_plan_free(&r->plan);
	bpfrr_ir_free(r->ir);
	memset(r, 0, sizeof(*r));
}

/* --- replay-time values --------------------------------------------------- */

/*
 * A tracepoint id or PMU type by the file that names it (the runtime of the
 * generated headers does the same, header_runtime.h); a BTF id or kernel
 * address by its symbol (kernel_build.c).  The value is written into the
 * attr or the buffer, in the IR copy being replayed.  A symbol the kernel
 * lacks refuses the whole replay, before anything is loaded.
 *
 * On the build the load was recorded on, a BTF id stays as recorded: one
 * build has one vmlinux BTF, so the recorded number is the one the kernel
 * took then and takes now, and looking it up by name means parsing the
 * whole BTF (3 to 6 MB, 40 to 60 ms under TCG: most of what runqlat's and
 * biolatency's replays spent outside the kernel).  Addresses are always
 * looked up: KASLR moves them at every boot.
 */
static int resolve_values(struct bpfrr_replay *r)
{
	bool same_build = bpfrr_rt_same_build(r->ir);
	uint32_t i, j;
	int ret = 0;

	for (i = 0; i < r->ir->nr_calls && !ret; i++) {
		struct bpfrr_ir_call *c = &r->ir->calls[i];

		for (j = 0; j < c->nr_resolves; j++) {
			const struct bpfrr_ir_resolve *rs = &c->resolves[j];
			char where[512], name[64], desc[BPFRR_IR_MAX_NAME + 64], at[BPFRR_IR_MAX_NAME + 16];
			uint8_t *base = rs->buf >= 0 ? c->bufs[rs->buf].data : c->attr;
			uint64_t v = 0;

			if (rs->kind == BPFRR_IR_RESOLVE_BTF_ID && same_build)
				continue;
			if (rs->kind == BPFRR_IR_RESOLVE_BTF_ID || rs->kind == BPFRR_IR_RESOLVE_KSYM_ADDR) {
				ret = bpfrr_symbols_resolve(r->syms, rs, &v, where, sizeof(where));
				if (ret) {
					replay_fail(r, i, ret, "seq %llu %s: %s: %s %s", (unsigned long long)c->seq,
						    bpfrr_ir_call_name(c, name, sizeof(name)),
						    bpfrr_ir_resolve_where(c, rs, at, sizeof(at)),
						    bpfrr_ir_resolve_desc(rs, desc, sizeof(desc)), where);
					break;
				}
			} else {
				ret = bpfrr_rt_resolve_value(rs->kind, rs->name, &v, where, sizeof(where));
				if (ret) {
					replay_fail(r, i, ret, "seq %llu: %s: %s", (unsigned long long)c->seq, where,
						    strerror(-ret));
					break;
				}
			}
			if (rs->size == 4) {
				uint32_t v32 = v;

				memcpy(base + rs->offset, &v32, 4);
			} else {
				memcpy(base + rs->offset, &v, 8);
			}
		}
	}
	return ret;
}

/*
 * A bundle of another architecture is refused, and so is one with a call
 * bound to the recording kernel build (a number nothing names) on another
 * build; a bundle that does not know its build (a 1.0 trace's) replays as
 * recorded.
 */
static int check_machine(struct bpfrr_replay *r)
{
	const char *running = NULL, *recorded = bpfrr_arch_name(r->ir->arch);
	uint32_t arch = bpfrr_kernel_machine_arch(&running);
	const struct bpfrr_kernel_build *b;
	char name[64], rec[160], run[160];
	const struct bpfrr_ir_call *c;
	int bound, ret;

	if (r->ir->arch && arch && r->ir->arch != arch) {
		if (recorded)
			return replay_fail(r, -1, -ENOEXEC, "bundle recorded on %s, this machine is %s", recorded,
					   running);
		return replay_fail(r, -1, -ENOEXEC, "bundle recorded on ELF machine %u, this machine is %s",
				   r->ir->arch, running);
	}
	bound = bpfrr_ir_first_build_bound(r->ir);
	if (!r->ir->kernel.known || bound < 0 || bpfrr_rt_same_build(r->ir))
		return 0;
	ret = bpfrr_kernel_build_current(&b);
	if (ret)
		return replay_fail(r, -1, ret, "reading this kernel's build identity: %s", strerror(-ret));
	c = &r->ir->calls[bound];
	return replay_fail(r, bound, -ENOEXEC, "seq %llu %s is bound to the kernel build it was recorded on (%s): "
			   "recorded on %s, this is %s", (unsigned long long)c->seq,
			   bpfrr_ir_call_name(c, name, sizeof(name)), c->bound_why,
			   bpfrr_kernel_build_desc(r->ir->kernel.release, r->ir->kernel.build_id,
						   r->ir->kernel.btf_size,
						   r->ir->kernel.flags & BPFRR_IR_KERNEL_BTF_UNHASHED ? NULL :
						   r->ir->kernel.btf_sha256, rec, sizeof(rec)),
			   bpfrr_kernel_build_desc(b->release, r->ir->kernel.build_id ? b->build_id : NULL, b->btf_size,
						   b->btf_hashed ? b->btf_sha256 : NULL, run, sizeof(run)));
}

/* --- diagnostics ------------------------------------------------------------ */

static char *log_copy(const uint8_t *p, uint32_t len)
{
	size_t n;
	char *s;

	if (!len || !p[0])
		return NULL;
	n = strnlen((const char *)p, len);
	s = malloc(n + 1);
	if (s) {
		memcpy(s, p, n);
		s[n] = '\0';
	}
	return s;
}

/* --- segments ----------------------------------------------------------------- */

static bool has_blob_log(const struct bpfrr_ir *ir, const struct bpfrr_loader *l)
{
	uint32_t i, j;

	for (i = 0; i < l->nr_calls; i++) {
		const struct bpfrr_ir_call *c = &ir->calls[l->calls[i].call];

		for (j = 0; j < c->nr_bufs; j++)
			if (c->bufs[j].flags & BPFRR_IR_BUF_LOG && l->calls[i].buf_area[j] == BPFRR_AREA_BLOB)
				return true;
	}
	return false;
}

static int run_kernel_segment(struct bpfrr_replay *r, const struct bpfrr_plan_seg *seg,
			      const struct bpfrr_replay_opts *o)
{
	const uint32_t *calls = &r->plan.order[seg->first];
	struct bpfrr_loader_ctx *hdr;
	struct bpfrr_run_result res = { 0 };
	struct bpfrr_loader l;
	uint8_t *ctx = NULL, *user = NULL, *blob_after = NULL;
	char err[256];
	uint64_t t0 = bpfrr_now_ns();
	uint32_t i, k;
	int ret;

	ret = bpfrr_codegen(r->ir, calls, seg->nr, &r->caps, o->verbose ? BPFRR_CG_NOTES : 0, &l, err,
			    sizeof(err));
	r->t_codegen += bpfrr_now_ns() - t0;
	if (ret)
		return replay_fail(r, calls[0], ret, "generating loader %u: %s", r->nr_loader_runs, err);
	if (o->verbose) {
		fprintf(o->verbose, "loader run %u:\n", r->nr_loader_runs);
		bpfrr_loader_print(r->ir, &l, o->verbose);
	}
	ctx = calloc(1, l.ctx_size);
	user = l.user_size ? aligned_alloc(8, (l.user_size + 7) & ~7u) : NULL;
	blob_after = has_blob_log(r->ir, &l) ? malloc(l.blob_size) : NULL;
	if (!ctx || (l.user_size && !user) || (has_blob_log(r->ir, &l) && !blob_after)) {
		ret = replay_fail(r, calls[0], -ENOMEM, "out of memory for loader %u", r->nr_loader_runs);
		goto out;
	}
	if (user) {
		memcpy(user, l.user, l.user_size);
		for (i = 0; i < l.nr_user_relocs; i++) {
			uint64_t v;

			memcpy(&v, user + l.user_relocs[i], 8);
			v += (uintptr_t)user;
			memcpy(user + l.user_relocs[i], &v, 8);
		}
	}
	hdr = (struct bpfrr_loader_ctx *)ctx;
	hdr->user_base = (uintptr_t)user;
	for (i = 0; i < r->ir->nr_slots; i++) {
		int32_t fd = r->fds[i];

		memcpy(ctx + BPFRR_LOADER_CTX_SLOTS + 4 * i, &fd, 4);
	}

	ret = bpfrr_run_syscall_prog(l.insns, l.nr_insns, "bpfrr_loader", l.blob, l.blob_size, ctx,
				     l.ctx_size, blob_after, &res, err, sizeof(err));
	r->t_load += res.t_load_ns;
	r->t_verify += res.verify_ns;
	r->insns_processed += res.insns_processed;
	r->t_run += res.t_run_ns;
	r->nr_loader_runs++;
	r->loader_insns += l.nr_insns;
	r->loader_blob += l.blob_size;
	r->loader_user += l.user_size;
	if (ret) {
		if (res.verifier_log) {
			free(r->log);
			r->log = res.verifier_log;
			res.verifier_log = NULL;
		}
		ret = replay_fail(r, -1, ret, "loader %u (%u calls): %s", r->nr_loader_runs - 1, seg->nr, err);
		goto out;
	}
	if (hdr->err) {
		int failed = -1;

		/* the loader closed what it made; find the call it names */
		for (i = 0; i < l.nr_calls; i++)
			if ((uint32_t)r->ir->calls[l.calls[i].call].seq == hdr->failed_seq) {
				failed = i;
				break;
			}
		if (failed < 0) {
			ret = replay_fail(r, -1, hdr->err < 0 ? hdr->err : -EPROTO,
					  "loader %u failed with %d at an unknown seq %u", r->nr_loader_runs - 1,
					  hdr->err, hdr->failed_seq);
			goto out;
		} else {
			const struct bpfrr_loader_call *lc = &l.calls[failed];
			const struct bpfrr_ir_call *c = &r->ir->calls[lc->call];
			char name[64];

			for (k = 0; k < c->nr_bufs && !r->log; k++) {
				if (!(c->bufs[k].flags & BPFRR_IR_BUF_LOG))
					continue;
				if (lc->buf_area[k] == BPFRR_AREA_USER)
					r->log = log_copy(user + lc->buf_off[k], c->bufs[k].len);
				else if (blob_after)
					r->log = log_copy(blob_after + lc->buf_off[k], c->bufs[k].len);
			}
			ret = replay_fail(r, lc->call, hdr->err, "seq %llu %s (in loader %u): %s",
					  (unsigned long long)c->seq, bpfrr_ir_call_name(c, name, sizeof(name)),
					  r->nr_loader_runs - 1, strerror(-hdr->err));
			goto out;
		}
	}
	for (i = 0; i < l.nr_created; i++) {
		int32_t fd;

		memcpy(&fd, ctx + BPFRR_LOADER_CTX_SLOTS + 4 * l.created[i], 4);
		r->fds[l.created[i]] = fd;
		if (fd < 0) {
			ret = replay_fail(r, -1, -EPROTO, "loader %u returned no fd for slot %u",
					  r->nr_loader_runs - 1, l.created[i]);
			goto out;
		}
	}
	r->nr_kernel_calls += seg->nr;
	ret = 0;
out:
	free(res.verifier_log);
	free(ctx);
	free(user);
	free(blob_after);
	bpfrr_loader_free(&l);
	return ret;
}

/*
 * A netlink request, made here rather than through the runtime's generic
 * step: a bpf filter asked with priority or handle 0 gets the kernel's
 * choice, which the request that undoes it must name (a RTM_DELTFILTER of
 * priority 0 flushes every filter of the hook), so the kernel's echo of
 * what it made is written back into the IR copy being replayed.  0, 1 (a
 * clsact qdisc that was there), or -errno.
 */
static int64_t exec_netlink(struct bpfrr_replay *r, uint32_t ci)
{
	struct bpfrr_ir_call *c = &r->ir->calls[ci];
	uint8_t msg[BPFRR_IR_MAX_ATTR], echo[BPFRR_IR_MAX_ATTR];
	bool filter = c->cmd == BPFRR_RTM_NEWTFILTER;
	uint32_t echo_len = 0, i;
	int ret;

	if (c->attr_size > sizeof(msg))
		return -EINVAL;
	memcpy(msg, c->attr, c->attr_size);
	for (i = 0; i < c->nr_fdrels; i++) {
		int32_t fd = r->fds[c->fdrels[i].slot];

		memcpy(msg + c->fdrels[i].offset, &fd, 4);
	}
	ret = bpfrr_rt_netlink_echo(msg, c->attr_size, filter ? echo : NULL, sizeof(echo), &echo_len);
	if (!ret && filter && echo_len >= BPFRR_NLMSG_HDRLEN + BPFRR_TCMSG_LEN &&
	    c->attr_size >= BPFRR_NLMSG_HDRLEN + BPFRR_TCMSG_LEN) {
		/* tcmsg: ifindex at 4, handle at 8, parent at 12, info (priority, protocol) at 16 */
		memcpy(c->attr + BPFRR_NLMSG_HDRLEN + 8, echo + BPFRR_NLMSG_HDRLEN + 8, 4);
		memcpy(c->attr + BPFRR_NLMSG_HDRLEN + 16, echo + BPFRR_NLMSG_HDRLEN + 16, 4);
	}
	return ret;
}

static int run_user_segment(struct bpfrr_replay *r, const struct bpfrr_plan_seg *seg,
			    const struct bpfrr_replay_opts *o)
{
	uint32_t k;

	for (k = seg->first; k < seg->first + seg->nr; k++) {
		uint32_t ci = r->plan.order[k];
		const struct bpfrr_ir_call *c = &r->ir->calls[ci];
		uint64_t t0 = bpfrr_now_ns();
		char name[64], *log = NULL;
		int64_t ret;

		bpfrr_ir_call_name(c, name, sizeof(name));
		ret = c->op == BPFRR_IR_NETLINK ? exec_netlink(r, ci) : bpfrr_exec_user(c, r->fds, &log);
		r->t_user += bpfrr_now_ns() - t0;
		if (o->verbose)
			fprintf(o->verbose, "user space: call %u (seq %llu) %s = %lld\n", ci,
				(unsigned long long)c->seq, name, (long long)ret);
		if (ret == -ENOENT && c->nr_outfds) {
			free(r->log);
			r->log = log;
			return replay_fail(r, ci, (int)ret, "seq %llu %s (in user space): the program it ran "
					   "returned without making every object it made when recorded (a product "
					   "fd is missing)", (unsigned long long)c->seq, name);
		}
		if (ret < 0) {
			free(r->log);
			r->log = log;
			return replay_fail(r, ci, (int)ret, "seq %llu %s (in user space): %s",
					   (unsigned long long)c->seq, name, strerror((int)-ret));
		}
		/* 0: it took effect (1: the clsact hook was there already, not this replay's) */
		if (c->op == BPFRR_IR_NETLINK && ret == 0)
			r->nl_done[r->nr_nl_done++] = ci;
		r->nr_user_calls++;
	}
	return 0;
}

#define BPF_FS_MAGIC_NR	0xcafe4a11	/* <linux/magic.h> BPF_FS_MAGIC */

/*
 * A directory the recorded loader made on a bpffs (bpftool prog loadall's
 * pin directory): made again if missing, with the recorded mode, only in a
 * directory on a bpffs; remembered in made_dirs so that a failed replay
 * removes it again.
 */
static int make_dir_slot(struct bpfrr_replay *r, uint32_t i)
{
	const struct bpfrr_ir_slot *s = &r->ir->slots[i];
	char parent[4096];
	const char *slash = strrchr(s->path, '/');
	struct statfs sfs;
	size_t n = slash && slash != s->path ? (size_t)(slash - s->path) : 1;

	if (n >= sizeof(parent))
		return replay_fail(r, -1, -ENAMETOOLONG, "making %s for slot %u: %s", s->path, i,
				   strerror(ENAMETOOLONG));
	memcpy(parent, s->path, n);
	parent[n] = '\0';
	if (statfs(parent, &sfs))
		return replay_fail(r, -1, -errno, "making %s for slot %u: %s: %s", s->path, i, parent,
				   strerror(errno));
	if ((unsigned long)sfs.f_type != BPF_FS_MAGIC_NR)
		return replay_fail(r, -1, -ENOTDIR, "making %s for slot %u: %s is not on a bpffs (it was "
				   "when recorded)", s->path, i, parent);
	if (!mkdir(s->path, (mode_t)s->open_flags))
		r->made_dirs[i] = 1;
	else if (errno != EEXIST)
		return replay_fail(r, -1, -errno, "making %s for slot %u: %s", s->path, i, strerror(errno));
	r->fds[i] = open(s->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->fds[i] < 0)
		return replay_fail(r, -1, -errno, "opening %s for slot %u: %s", s->path, i, strerror(errno));
	return 0;
}

/*
 * After a failure: what the netlink requests attached or made is detached or
 * deleted again, the last first (a filter before its clsact qdisc): a
 * netlink attachment holds its program without any fd of the replay's, so
 * closing the fds does not undo it.  A request that cannot be undone says so
 * in the error.
 */
static void undo_netlink(struct bpfrr_replay *r)
{
	uint8_t msg[BPFRR_IR_MAX_ATTR];
	char name[64];

	while (r->nr_nl_done) {
		const struct bpfrr_ir_call *c = &r->ir->calls[r->nl_done[--r->nr_nl_done]];
		int n = bpfrr_nl_undo(c->attr, c->attr_size, msg, sizeof(msg)), ret = 0;
		size_t len = strlen(r->error);

		if (n > 0)
			ret = bpfrr_rt_netlink(msg, (uint32_t)n);
		if ((n < 0 || ret < 0) && len + 1 < sizeof(r->error))
			snprintf(r->error + len, sizeof(r->error) - len, "; and undoing seq %llu %s failed: %s",
				 (unsigned long long)c->seq, bpfrr_ir_call_name(c, name, sizeof(name)),
				 n < 0 ? "no request undoes it" : strerror(-ret));
	}
}

/* After a failure: the directories made for the replay go again, the deepest first. */
static void remove_made_dirs(struct bpfrr_replay *r)
{
	uint32_t i;

	for (i = r->made_dirs ? r->ir->nr_slots : 0; i-- > 0;)
		if (r->made_dirs[i] && !rmdir(r->ir->slots[i].path))
			r->made_dirs[i] = 0;
}

/* The path a BPF_OBJ_PIN call pins to (its attr.pathname buffer), or NULL. */
static const char *pin_path(const struct bpfrr_ir_call *c)
{
	uint32_t k;

	if (c->op != BPFRR_IR_BPF || c->cmd != BPF_OBJ_PIN)
		return NULL;
	for (k = 0; k < c->nr_bufs; k++) {
		const struct bpfrr_ir_buf *b = &c->bufs[k];

		if (b->parent == BPFRR_IR_IN_ATTR && !strcmp(b->path, "attr.pathname") && b->data && b->len &&
		    !b->data[b->len - 1] && b->data[0] == '/')
			return (const char *)b->data;
	}
	return NULL;
}

/*
 * Before the calls: which pin paths are free. After a failure, a pin at such
 * a path is the replay's (a pin over an existing path fails with EEXIST) and
 * is removed, so that a failed replay leaves no pinned object behind.
 */
static void note_free_pins(struct bpfrr_replay *r)
{
	struct stat st;
	uint32_t i;

	for (i = 0; i < r->ir->nr_calls; i++) {
		const char *path = pin_path(&r->ir->calls[i]);

		r->pin_was_free[i] = path && lstat(path, &st) && errno == ENOENT;
	}
}

static void remove_made_pins(struct bpfrr_replay *r)
{
	uint32_t i;

	for (i = r->pin_was_free ? r->ir->nr_calls : 0; i-- > 0;)
		if (r->pin_was_free[i] && !unlink(pin_path(&r->ir->calls[i])))
			r->pin_was_free[i] = 0;
}

/* The kernel id of the prog, map or link behind fd (each info struct starts with type, id). */
static int obj_id(int fd, uint32_t *id)
{
	uint32_t info[2] = { 0, 0 };

	if (bpfrr_obj_info(fd, info, sizeof(info)))
		return -errno;
	*id = info[1];
	return 0;
}

/*
 * After the calls: a directory whose name carries numbers of the recording's
 * kernel (libxdp's dispatch-IFINDEX-PROGID) is renamed with this kernel's,
 * pins and all, so that the loader finds it again (xdp-loader status,
 * unload). The slot's path becomes the new one.
 */
static int rename_dir_slots(struct bpfrr_replay *r)
{
	uint64_t values[BPFRR_IR_MAX_PATH_SUBS];
	char path[4096], *copy;
	uint32_t i, k, id = 0;
	int ret;

	for (i = 0; i < r->ir->nr_slots; i++) {
		struct bpfrr_ir_slot *s = &r->ir->slots[i];

		if (s->source != BPFRR_IR_SLOT_MKDIR || !s->nr_path_subs)
			continue;
		for (k = 0; k < s->nr_path_subs; k++) {
			const struct bpfrr_ir_path_sub *sub = &s->path_subs[k];

			if (sub->kind == BPFRR_IR_PATH_SUB_IFINDEX) {
				values[k] = if_nametoindex(sub->dev);
				if (!values[k])
					return replay_fail(r, -1, -errno, "renaming %s for slot %u: device %s: %s",
							   s->path, i, sub->dev, strerror(errno));
			} else {
				ret = obj_id(r->fds[sub->obj_slot], &id);
				if (ret)
					return replay_fail(r, -1, ret, "renaming %s for slot %u: the id of slot %d: %s",
							   s->path, i, sub->obj_slot, strerror(-ret));
				values[k] = id;
			}
		}
		ret = bpfrr_ir_path_subst(s, values, path, sizeof(path));
		if (ret)
			return replay_fail(r, -1, ret, "renaming %s for slot %u: %s", s->path, i, strerror(-ret));
		if (!strcmp(path, s->path))
			continue;
		/* never over an existing one: rename(2) would replace an empty directory */
		if (renameat2(AT_FDCWD, s->path, AT_FDCWD, path, RENAME_NOREPLACE))
			return replay_fail(r, -1, -errno, "renaming %s to %s for slot %u: %s", s->path, path, i,
					   strerror(errno));
		copy = strdup(path);
		if (!copy) {
			renameat2(AT_FDCWD, path, AT_FDCWD, s->path, RENAME_NOREPLACE);
			return replay_fail(r, -1, -ENOMEM, "out of memory");
		}
		free(s->path);
		s->path = copy;
		r->nr_renamed++;
	}
	return 0;
}

static int open_path_slots(struct bpfrr_replay *r)
{
	uint32_t i;
	int ret;

	for (i = 0; i < r->ir->nr_slots; i++) {
		const struct bpfrr_ir_slot *s = &r->ir->slots[i];

		if (s->source == BPFRR_IR_SLOT_MKDIR) {
			ret = make_dir_slot(r, i);
			if (ret)
				return ret;
			continue;
		}
		if (s->source != BPFRR_IR_SLOT_PATH)
			continue;
		r->fds[i] = open(s->path, (int)s->open_flags | O_CLOEXEC);
		if (r->fds[i] < 0)
			return replay_fail(r, -1, -errno, "opening %s for slot %u: %s", s->path, i,
					   strerror(errno));
	}
	return 0;
}

/* --- a signed bundle ---------------------------------------------------------------- */

/*
 * A signed bundle names the kernel build its values were fixed for: any
 * other is refused before anything is made.
 */
static int check_signed_build(struct bpfrr_replay *r)
{
	const struct bpfrr_ir_sig *sg = r->ir->sig;
	const struct bpfrr_kernel_build *b;
	int ret;

	if (!sg->build_id)
		return 0;
	ret = bpfrr_kernel_build_current(&b);
	if (ret)
		return replay_fail(r, -1, ret, "reading this kernel's build identity: %s", strerror(-ret));
	if (strcmp(b->build_id, sg->build_id))
		return replay_fail(r, -1, -ENOEXEC, "the bundle's loader was signed for kernel build %s%s%s%s, this "
				   "is %s (%s): its tracepoint and BTF ids would be another kernel's",
				   sg->build_id, sg->release ? " (" : "", sg->release ? sg->release : "",
				   sg->release ? ")" : "", b->build_id[0] ? b->build_id : "unknown", b->release);
	return 0;
}

/*
 * The signed loader, loaded as it is: the metadata map exclusive to its
 * insns, written and frozen, then BPF_PROG_LOAD with the signature (the
 * kernel checks it over insns || blob before anything else), then run
 * with a context of -1 slots: every fd it uses it makes.  The IR planned
 * on the signing caps gives what the report and errors need (which call a
 * seq is, which slots the loader makes); the bytes loaded are the signed
 * ones even where they differ (the kernel is the judge).
 */
static int run_signed(struct bpfrr_replay *r, const struct bpfrr_replay_opts *o)
{
	const struct bpfrr_ir_sig *sg = r->ir->sig;
	struct bpfrr_loader l = { 0 };
	struct bpfrr_loader_ctx *hdr;
	uint8_t *ctx = NULL;
	char err[256];
	uint64_t t0;
	int map_fd = -1, prog_fd = -1, ret;
	uint32_t i, retval = 0;

	r->is_signed = true;
	bpfrr_sign_check(r->ir, r->sig_check, sizeof(r->sig_check));
	if (bpfrr_sign_caps(sg, &r->caps))
		return replay_fail(r, -1, -EINVAL, "the signed loader names caps '%s' this bpfrr does not know",
				   sg->caps);
	ret = bpfrr_plan_make(r->ir, &r->caps, 0, &r->plan, err, sizeof(err));
	if (!ret && r->plan.nr_segs != 1)
		ret = -EINVAL;
	if (!ret) {
		t0 = bpfrr_now_ns();
		ret = bpfrr_codegen(r->ir, r->plan.order, r->plan.segs[0].nr, &r->caps, o->verbose ? BPFRR_CG_NOTES : 0,
				    &l, err, sizeof(err));
		r->t_codegen += bpfrr_now_ns() - t0;
	} else if (ret == -EINVAL) {
		snprintf(err, sizeof(err), "%u loader runs", r->plan.nr_segs);
	}
	if (ret)
		return replay_fail(r, -1, ret, "the signed bundle's calls do not plan as one loader: %s", err);
	if (o->verbose) {
		fprintf(o->verbose, "signed loader (%s; the listing is the IR's, the loaded bytes the signed "
			"ones):\n", r->sig_check);
		bpfrr_loader_print(r->ir, &l, o->verbose);
	}
	ctx = calloc(1, l.ctx_size);
	if (!ctx) {
		ret = replay_fail(r, -1, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < r->ir->nr_slots; i++)
		memset(ctx + BPFRR_LOADER_CTX_SLOTS + 4 * i, 0xff, 4);

	/* the directories the pins go into, outside the signature (bpfrr_sign_prepare) */
	ret = open_path_slots(r);
	if (ret)
		goto out;
	t0 = bpfrr_now_ns();
	map_fd = bpfrr_rt_signed_blob_map(sg->blob, sg->blob_size, sg->excl_prog_hash);
	r->t_sig_map = bpfrr_now_ns() - t0;
	if (map_fd < 0) {
		ret = replay_fail(r, -1, map_fd, "making the signed loader's metadata map (%u bytes, exclusive, "
				  "frozen): %s%s", sg->blob_size, strerror(-map_fd), map_fd == -E2BIG || map_fd == -EINVAL ?
				  ": this kernel takes no signature (no exclusive maps: stock 6.12 refuses "
				  "excl_prog_hash with EINVAL)" : "");
		goto out;
	}
	t0 = bpfrr_now_ns();
	prog_fd = bpfrr_rt_signed_prog_load((const struct bpf_insn *)sg->insns, sg->nr_insns, "bpfrr_loader", map_fd,
					    sg->sig, sg->sig_size, o->keyring_id, NULL, 0);
	r->t_sig_load = bpfrr_now_ns() - t0;
	r->t_load += r->t_sig_map + r->t_sig_load;
	r->nr_loader_runs = 1;
	r->loader_insns = sg->nr_insns;
	r->loader_blob = sg->blob_size;
	if (prog_fd < 0) {
		snprintf(r->sig_verdict, sizeof(r->sig_verdict), "refused");
		ret = replay_fail(r, -1, prog_fd, "the kernel refused the signed loader at BPF_PROG_LOAD: %s: %s "
				  "(stored loader %s)", strerror(-prog_fd), bpfrr_rt_sig_refusal(prog_fd), r->sig_check);
		goto out;
	}
	bpfrr_rt_sig_verdict(prog_fd, r->sig_verdict, sizeof(r->sig_verdict));
	t0 = bpfrr_now_ns();
	ret = bpfrr_rt_prog_run(prog_fd, ctx, l.ctx_size, &retval);
	r->t_run += bpfrr_now_ns() - t0;
	if (ret) {
		ret = replay_fail(r, -1, ret, "running the signed loader: %s", strerror(-ret));
		goto out;
	}
	hdr = (struct bpfrr_loader_ctx *)ctx;
	if (hdr->err) {
		int failed = -1;
		char name[64];

		for (i = 0; i < l.nr_calls; i++)
			if ((uint32_t)r->ir->calls[l.calls[i].call].seq == hdr->failed_seq) {
				failed = (int)l.calls[i].call;
				break;
			}
		if (failed < 0)
			ret = replay_fail(r, -1, hdr->err < 0 ? hdr->err : -EPROTO, "the signed loader failed with %d "
					  "at an unknown seq %u", hdr->err, hdr->failed_seq);
		else
			ret = replay_fail(r, failed, hdr->err, "seq %llu %s (in the signed loader): %s",
					  (unsigned long long)r->ir->calls[failed].seq,
					  bpfrr_ir_call_name(&r->ir->calls[failed], name, sizeof(name)),
					  strerror(-hdr->err));
		goto out;
	}
	for (i = 0; i < l.nr_created; i++) {
		int32_t fd;

		memcpy(&fd, ctx + BPFRR_LOADER_CTX_SLOTS + 4 * l.created[i], 4);
		r->fds[l.created[i]] = fd;
		if (fd < 0) {
			ret = replay_fail(r, -1, -EPROTO, "the signed loader returned no fd for slot %u", l.created[i]);
			goto out;
		}
	}
	r->nr_kernel_calls = l.nr_calls;
	ret = 0;
out:
	if (prog_fd >= 0)
		close(prog_fd);
	if (map_fd >= 0)
		close(map_fd);
	free(ctx);
	bpfrr_loader_free(&l);
	return ret;
}

/* A failed load: make the calls again with a log buffer on the failing one. */
static void fetch_log(struct bpfrr_replay *r, const struct bpfrr_replay_opts *o)
{
	struct bpfrr_replay_opts o2 = *o;
	struct bpfrr_replay sub;
	struct bpfrr_ir *ir2;
	const struct bpfrr_ir_call *c;

	if (r->log || r->failed_call < 0 || o->flags & BPFRR_REPLAY_NO_LOG_RERUN)
		return;
	c = &r->ir->calls[r->failed_call];
	if (!bpfrr_ir_call_log(c))
		return;
	ir2 = bpfrr_ir_clone(r->ir);
	if (!ir2)
		return;
	if (bpfrr_ir_force_log(ir2, r->failed_call, BPFRR_REPLAY_LOG_SIZE) == 0) {
		o2.caps = &r->caps;
		o2.flags |= BPFRR_REPLAY_NO_LOG_RERUN;
		o2.verbose = NULL;
		memset(&sub, 0, sizeof(sub));
		bpfrr_replay_run(&sub, ir2, &o2);
		if (sub.failed_call == r->failed_call && sub.log) {
			r->log = sub.log;
			sub.log = NULL;
		}
		bpfrr_replay_close(&sub);
	}
	bpfrr_ir_free(ir2);
}

/*
 * Room for every fd the replay holds at once: one per slot, and a few of
 * its own (blob maps, loader programs, the bundle, stdio).  A load of
 * hundreds of objects outgrows the usual soft limit of 1024 as its loader
 * did, which raised its own (a setrlimit() the trace does not hold);
 * without this the replay fails with EMFILE where the loader did not
 * (bench/scaling: N = 1000 makes 3000 fds).  The soft limit is raised, up
 * to the hard one and no further: a hard limit is someone's decision
 * (`ulimit -n`), and a load beyond it fails with EMFILE at the call that
 * meets it, named, as any other failure.
 */
static void raise_nofile(uint32_t nr_slots)
{
	rlim_t want = (rlim_t)nr_slots + 64;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= want)
		return;
	rl.rlim_cur = rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want ? rl.rlim_max : want;
	setrlimit(RLIMIT_NOFILE, &rl);
}

int bpfrr_replay_run(struct bpfrr_replay *r, const struct bpfrr_ir *ir, const struct bpfrr_replay_opts *o)
{
	uint64_t t_start = bpfrr_now_ns(), t0, held_before[BPF_FDS_MAX / 64];
	char err[512];
	uint32_t i;
	int ret;

	memset(r, 0, sizeof(*r));
	r->failed_call = -1;
	bpf_fds(held_before);
	r->ir = bpfrr_ir_clone(ir);
	if (!r->ir)
		return replay_fail(r, -1, -ENOMEM, "out of memory");
	r->fds = malloc((ir->nr_slots + 1) * sizeof(*r->fds));
	if (!r->fds)
		return replay_fail(r, -1, -ENOMEM, "out of memory");
	for (i = 0; i < ir->nr_slots; i++)
		r->fds[i] = -1;
	r->made_dirs = calloc(ir->nr_slots + 1, 1);
	r->pin_was_free = calloc(ir->nr_calls + 1, 1);
	r->nl_done = calloc(ir->nr_calls + 1, sizeof(*r->nl_done));
	if (!r->made_dirs || !r->pin_was_free || !r->nl_done)
		return replay_fail(r, -1, -ENOMEM, "out of memory");
	r->syms = bpfrr_symbols_new();
	if (!r->syms)
		return replay_fail(r, -1, -ENOMEM, "out of memory");
	ret = bpfrr_ir_validate(r->ir, err, sizeof(err));
	if (ret)
		return replay_fail(r, -1, ret, "invalid IR: %s", err);
	/* a limit that stays too low shows as EMFILE at the call that meets it */
	raise_nofile(r->ir->nr_slots);
	/* refusals first, before the probes load anything */
	ret = check_machine(r);
	if (!ret && r->ir->sig)
		ret = check_signed_build(r);
	if (!ret)
		ret = resolve_values(r);
	if (ret) {
		r->refused = true;
		return ret;
	}
	if (r->ir->sig) {
		/* planned and signed at translate time: no probe, no re-plan */
		note_free_pins(r);
		ret = run_signed(r, o);
		if (!ret)
			ret = rename_dir_slots(r);
		if (ret) {
			close_all(r);
			remove_made_pins(r);
			remove_made_dirs(r);
			check_nothing_held(r, held_before);
		}
		r->t_total = bpfrr_now_ns() - t_start;
		return ret;
	}

	t0 = bpfrr_now_ns();
	if (o->caps) {
		r->caps = *o->caps;
	} else {
		ret = bpfrr_caps_probe(&r->caps, bpfrr_ir_has_perf_event_open(r->ir) ? BPFRR_CAPS_PROBE_PERF : 0,
				       err, sizeof(err));
		if (ret)
			return replay_fail(r, -1, ret, "probing the kernel: %s", err);
	}
	r->t_probe = bpfrr_now_ns() - t0;
	if (o->verbose)
		bpfrr_caps_print(&r->caps, o->verbose);

	t0 = bpfrr_now_ns();
	ret = bpfrr_plan_make(r->ir, &r->caps, o->flags & BPFRR_REPLAY_KEEP_ORDER ? BPFRR_PLAN_KEEP_ORDER : 0,
			      &r->plan, err, sizeof(err));
	r->t_plan = bpfrr_now_ns() - t0;
	if (ret) {
		replay_fail(r, -1, ret, "%s", err);
		goto fail;
	}
	if (o->verbose)
		bpfrr_plan_print(r->ir, &r->plan, o->verbose);

	note_free_pins(r);
	ret = open_path_slots(r);
	if (ret)
		goto fail;
	for (i = 0; i < r->plan.nr_segs; i++) {
		const struct bpfrr_plan_seg *seg = &r->plan.segs[i];

		if (seg->side == BPFRR_SIDE_KERNEL)
			ret = run_kernel_segment(r, seg, o);
		else
			ret = run_user_segment(r, seg, o);
		if (ret)
			goto fail;
	}
	ret = rename_dir_slots(r);
	if (ret)
		goto fail;
	r->t_total = bpfrr_now_ns() - t_start;
	return 0;
fail:
	undo_netlink(r);
	close_all(r);
	remove_made_pins(r);
	remove_made_dirs(r);
	fetch_log(r, o);
	check_nothing_held(r, held_before);
	r->t_total = bpfrr_now_ns() - t_start;
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * sign.c - signed loader programs (see sign.h, docs/signing.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "bpf_abi.h"
#include "errmsg.h"
#include "kernel_id.h"
#include "plan.h"
#include "sha256.h"
#include "sign.h"

#define KFUNC_NAME	"bpf_perf_event_open"
#define MAX_SIG		(1u << 16)
/* the only caps whose kernels check a loader's signature (the series' signed-loader patches) */
#define SIGNED_CAPS	"patched-6.12"

/* --- the target kernel ----------------------------------------------------------- */

static int read_small(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	buf[n] = '\0';
	return 0;
}

static int read_number_at(const char *path, uint64_t *val)
{
	char buf[64], *end;
	int ret = read_small(path, buf, sizeof(buf));

	if (ret)
		return ret;
	errno = 0;
	*val = strtoull(buf, &end, 0);
	if (end == buf || errno || (*end && *end != '\n'))
		return -EINVAL;
	return 0;
}

/* A tracepoint id or PMU type as the runtime reads them (header_runtime.h), under root. */
static int target_value(const char *root, uint32_t kind, const char *name, uint64_t *val, char *where,
			size_t size)
{
	static const char *const tracefs[] = { "sys/kernel/tracing", "sys/kernel/debug/tracing" };
	size_t i;
	int ret = -ENOENT;

	if (strstr(name, "..") || name[0] == '/')
		return -EINVAL;
	if (kind == BPFRR_IR_RESOLVE_PMU_TYPE) {
		snprintf(where, size, "%s/sys/bus/event_source/devices/%s/type", root, name);
		return read_number_at(where, val);
	}
	for (i = 0; i < sizeof(tracefs) / sizeof(tracefs[0]); i++) {
		snprintf(where, size, "%s/%s/events/%s/id", root, tracefs[i], name);
		ret = read_number_at(where, val);
		if (ret != -ENOENT)
			break;
	}
	return ret;
}

/* bpf_perf_event_open's BTF id from the target's list of syscall-program kfuncs. */
static int target_kfunc_id(const char *root, int32_t *id, char *err, size_t err_size)
{
	char path[4096], line[512];
	struct stat st;
	FILE *f;
	int ret = -ENOENT;

	snprintf(path, sizeof(path), "%s/sys/kernel/bpf/syscall_prog_kfuncs", root);
	f = fopen(path, "re");
	if (!f)
		return bpfrr_errmsg(err, err_size, -errno, "the target kernel's kfunc list %s: %s", path, strerror(errno));
	if (fstat(fileno(f), &st) || st.st_size > (1 << 20)) {
		fclose(f);
		return bpfrr_errmsg(err, err_size, -EINVAL, "%s: not a kfunc list", path);
	}
	while (fgets(line, sizeof(line), f)) {
		size_t name_len = strlen(KFUNC_NAME);
		char *end;
		long v;

		/* "<btf_id> <name>\n" per kfunc */
		v = strtol(line, &end, 10);
		if (end == line || v <= 0 || v > INT32_MAX)
			continue;
		end += strspn(end, " \t");
		if (!strncmp(end, KFUNC_NAME, name_len) && (end[name_len] == '\n' || end[name_len] == '\0')) {
			*id = (int32_t)v;
			ret = 0;
			break;
		}
	}
	fclose(f);
	if (ret)
		return bpfrr_errmsg(err, err_size, ret, "%s names no %s: the target kernel cannot open perf events from "
			     "a loader", path, KFUNC_NAME);
	return 0;
}

/* --- what stays outside a signature --------------------------------------------------- */

/* Appends "; seq N NAME" items to err (at most a few, then a count). */
static void list_calls(const struct bpfrr_ir *ir, const uint32_t *calls, uint32_t nr, char *buf, size_t size)
{
	size_t len = strlen(buf);
	uint32_t i;

	for (i = 0; i < nr && len + 1 < size; i++) {
		char name[64];

		if (i == 4) {
			snprintf(buf + len, size - len, " and %u more", nr - i);
			return;
		}
		snprintf(buf + len, size - len, "%sseq %llu %s", i ? ", " : "",
			 (unsigned long long)ir->calls[calls[i]].seq,
			 bpfrr_ir_call_name(&ir->calls[calls[i]], name, sizeof(name)));
		len = strlen(buf);
	}
}

/* Every replay-time value fixed from the target kernel, or a refusal naming the first. */
static int fix_resolutions(struct bpfrr_ir *ir, const char *root, char *err, size_t err_size)
{
	struct btf *btf = NULL;
	uint32_t i, j;
	int ret = 0;

	for (i = 0; i < ir->nr_calls && !ret; i++) {
		struct bpfrr_ir_call *c = &ir->calls[i];

		for (j = 0; j < c->nr_resolves && !ret; j++) {
			const struct bpfrr_ir_resolve *rs = &c->resolves[j];
			char name[64], desc[BPFRR_IR_MAX_NAME + 64], where[4200];
			uint8_t *base = rs->buf >= 0 ? c->bufs[rs->buf].data : c->attr;
			uint64_t v = 0;

			bpfrr_ir_call_name(c, name, sizeof(name));
			bpfrr_ir_resolve_desc(rs, desc, sizeof(desc));
			if (rs->kind == BPFRR_IR_RESOLVE_KSYM_ADDR) {
				ret = bpfrr_errmsg(err, err_size, -EOPNOTSUPP, "seq %llu %s: %s: a kernel address changes "
					    "with every boot (KASLR): it cannot be signed",
					    (unsigned long long)c->seq, name, desc);
				break;
			}
			if (!root) {
				ret = bpfrr_errmsg(err, err_size, -EOPNOTSUPP, "seq %llu %s: %s is the running kernel's: "
					    "sign for one kernel build with --target-kernel ROOT",
					    (unsigned long long)c->seq, name, desc);
				break;
			}
			if (rs->kind == BPFRR_IR_RESOLVE_BTF_ID) {
				int32_t id;

				if (rs->module && rs->module[0]) {
					ret = bpfrr_errmsg(err, err_size, -EOPNOTSUPP, "seq %llu %s: %s: module BTF ids "
						    "cannot be fixed at sign time", (unsigned long long)c->seq,
						    name, desc);
					break;
				}
				if (!btf) {
					snprintf(where, sizeof(where), "%s/sys/kernel/btf/vmlinux", root);
					btf = btf__parse(where, NULL);
					if (!btf) {
						ret = bpfrr_errmsg(err, err_size, -ENOENT, "the target kernel's BTF %s: "
							    "cannot be read", where);
						break;
					}
				}
				id = btf__find_by_name_kind(btf, rs->name, rs->btf_kind);
				if (id <= 0) {
					ret = bpfrr_errmsg(err, err_size, -ENOENT, "seq %llu %s: %s: not in the target "
						    "kernel's BTF", (unsigned long long)c->seq, name, desc);
					break;
				}
				v = (uint32_t)id;
			} else {
				ret = target_value(root, rs->kind, rs->name, &v, where, sizeof(where));
				if (ret) {
					bpfrr_errmsg(err, err_size, ret, "seq %llu %s: %s: %s: %s", (unsigned long long)c->seq,
					      name, desc, where, strerror(-ret));
					break;
				}
			}
			if (rs->size == 4) {
				uint32_t v32 = (uint32_t)v;

				memcpy(base + rs->offset, &v32, 4);
			} else {
				memcpy(base + rs->offset, &v, 8);
			}
		}
	}
	btf__free(btf);
	if (ret)
		return ret;
	/* the values are the call's own now: nothing is looked up at replay time */
	for (i = 0; i < ir->nr_calls; i++) {
		struct bpfrr_ir_call *c = &ir->calls[i];

		for (j = 0; j < c->nr_resolves; j++) {
			free(c->resolves[j].name);
			free(c->resolves[j].module);
		}
		free(c->resolves);
		c->resolves = NULL;
		c->nr_resolves = 0;
	}
	return 0;
}

int bpfrr_sign_caps(const struct bpfrr_ir_sig *sig, struct bpfrr_caps *caps)
{
	if (!sig->caps || bpfrr_caps_assume(caps, sig->caps))
		return -EINVAL;
	if (sig->kfunc_btf_id > 0)
		caps->perf_event_open_btf_id = sig->kfunc_btf_id;
	return 0;
}

/* The plan on caps must be one loader run of every call; else a refusal naming the rest. */
static int one_loader(const struct bpfrr_ir *ir, const struct bpfrr_caps *caps, const char *caps_name,
		      struct bpfrr_loader *l, char *err, size_t err_size)
{
	struct bpfrr_plan plan = { 0 };
	uint32_t i, nr_user = 0, *user = NULL;
	char why[256];
	int ret;

	ret = bpfrr_plan_make(ir, caps, 0, &plan, why, sizeof(why));
	if (ret)
		return bpfrr_errmsg(err, err_size, ret, "planning for %s: %s", caps_name, why);
	if (plan.nr_user) {
		user = calloc(plan.nr_user, sizeof(*user));
		if (!user) {
			bpfrr_plan_free(&plan);
			return bpfrr_errmsg(err, err_size, -ENOMEM, "out of memory");
		}
		for (i = 0; i < plan.nr_calls; i++)
			if (plan.side[i] == BPFRR_SIDE_USER)
				user[nr_user++] = i;
		snprintf(err, err_size, "on %s %u of %u calls stay in user space, outside the signature: ",
			 caps_name, nr_user, ir->nr_calls);
		list_calls(ir, user, nr_user, err, err_size);
		snprintf(err + strlen(err), err_size - strlen(err), " (sign for --assume-caps patched-6.12)");
		free(user);
		bpfrr_plan_free(&plan);
		return -EOPNOTSUPP;
	}
	if (plan.nr_segs != 1) {
		snprintf(err, err_size, "the plan has %u loader runs: the fds passed from one to the next would "
			 "stay outside the signature", plan.nr_segs);
		bpfrr_plan_free(&plan);
		return -EOPNOTSUPP;
	}
	ret = bpfrr_codegen(ir, plan.order, plan.segs[0].nr, caps, 0, l, why, sizeof(why));
	bpfrr_plan_free(&plan);
	if (ret)
		return bpfrr_errmsg(err, err_size, ret, "generating the loader: %s", why);
	if (l->user_size) {
		uint32_t user_size = l->user_size;

		bpfrr_loader_free(l);
		return bpfrr_errmsg(err, err_size, -EOPNOTSUPP, "the loader needs a %u-byte user image (buffers the "
			     "kernel reads at user addresses): outside the signature", user_size);
	}
	return 0;
}

/* Does any call take slot's fd? */
static bool slot_used(const struct bpfrr_ir *ir, uint32_t slot)
{
	uint32_t i;

	for (i = 0; i < ir->nr_calls; i++)
		if (bpfrr_ir_call_uses_slot(&ir->calls[i], slot))
			return true;
	return false;
}

int bpfrr_sign_prepare(struct bpfrr_ir *ir, const struct bpfrr_sign_opts *o, struct bpfrr_caps *caps,
		       struct bpfrr_loader *l, struct bpfrr_ir_sig *sig, char *err, size_t err_size)
{
	char path[4096], hex[BPFRR_BUILD_ID_HEX], release[256], root_buf[3072];
	const char *root = NULL;
	int bound, ret;
	uint32_t i;

	memset(l, 0, sizeof(*l));
	if (o->target_root) {
		size_t n = strlen(o->target_root);

		/* "/" is "": the paths below start with their own "/" */
		while (n && o->target_root[n - 1] == '/')
			n--;
		if (n >= sizeof(root_buf))
			return bpfrr_errmsg(err, err_size, -ENAMETOOLONG, "--target-kernel: path too long");
		memcpy(root_buf, o->target_root, n);
		root_buf[n] = '\0';
		root = root_buf;
	}
	if (!o->caps || bpfrr_caps_assume(caps, o->caps))
		return bpfrr_errmsg(err, err_size, -EINVAL, "signing needs --assume-caps patched-6.12");
	for (i = 0; i < ir->nr_slots; i++) {
		const struct bpfrr_ir_slot *s = &ir->slots[i];

		/*
		 * A directory the runner makes on a bpffs before the load is
		 * no BPF object, and the pins into it name it by a path the
		 * signature covers: it may stay outside, as long as no call
		 * takes its fd.  A path slot's fd goes into a call: it may not.
		 */
		if (s->source == BPFRR_IR_SLOT_CALL || (s->source == BPFRR_IR_SLOT_MKDIR && !slot_used(ir, i)))
			continue;
		return bpfrr_errmsg(err, err_size, -EOPNOTSUPP, "slot %u (%s) is %s %s, and a call takes its fd: "
			     "the fd would stay outside the signature", i, s->name ? s->name : "?",
			     s->source == BPFRR_IR_SLOT_PATH ? "opened by the runner:" : "a directory the runner makes:",
			     s->path ? s->path : "?");
	}
	/* the plan first: user-space steps are the first thing to name */
	ret = one_loader(ir, caps, o->caps, l, err, err_size);
	if (ret)
		return ret;
	bpfrr_loader_free(l);
	memset(l, 0, sizeof(*l));
	if (strcmp(o->caps, SIGNED_CAPS))
		return bpfrr_errmsg(err, err_size, -EOPNOTSUPP, "%s kernels take no signature (BPF_PROG_LOAD's "
			     "signature fields are past the attr they know: E2BIG): sign for --assume-caps %s",
			     o->caps, SIGNED_CAPS);

	hex[0] = release[0] = '\0';
	if (root) {
		snprintf(path, sizeof(path), "%s/sys/kernel/notes", root);
		ret = bpfrr_build_id_read(path, hex, sizeof(hex));
		if (ret || !hex[0])
			return bpfrr_errmsg(err, err_size, ret ? ret : -ENOENT, "--target-kernel %s: no build id in %s",
				     o->target_root, path);
		snprintf(path, sizeof(path), "%s/proc/sys/kernel/osrelease", root);
		if (!read_small(path, release, sizeof(release)))
			release[strcspn(release, "\n")] = '\0';
	}
	bound = bpfrr_ir_first_build_bound(ir);
	if (bound >= 0 && (!root || !ir->kernel.build_id || strcmp(ir->kernel.build_id, hex))) {
		char name[64];

		return bpfrr_errmsg(err, err_size, -EOPNOTSUPP, "seq %llu %s is bound to the recording kernel build (%s): "
			     "sign it only with --target-kernel of that build",
			     (unsigned long long)ir->calls[bound].seq,
			     bpfrr_ir_call_name(&ir->calls[bound], name, sizeof(name)), ir->calls[bound].bound_why);
	}
	ret = fix_resolutions(ir, root, err, err_size);
	if (ret)
		return ret;
	if (bpfrr_ir_has_perf_event_open(ir)) {
		if (!root)
			return bpfrr_errmsg(err, err_size, -EOPNOTSUPP, "the loader calls %s, whose BTF id is the running "
				     "kernel's: sign for one kernel build with --target-kernel ROOT", KFUNC_NAME);
		ret = target_kfunc_id(root, &caps->perf_event_open_btf_id, err, err_size);
		if (ret)
			return ret;
		sig->kfunc_btf_id = caps->perf_event_open_btf_id;
	}
	ret = one_loader(ir, caps, o->caps, l, err, err_size);
	if (ret)
		return ret;
	sig->caps = strdup(o->caps);
	sig->build_id = hex[0] ? strdup(hex) : NULL;
	sig->release = release[0] ? strdup(release) : NULL;
	if (!sig->caps || (hex[0] && !sig->build_id) || (release[0] && !sig->release)) {
		bpfrr_loader_free(l);
		return bpfrr_errmsg(err, err_size, -ENOMEM, "out of memory");
	}
	return 0;
}

/* --- the signature ------------------------------------------------------------------ */

static int write_all(const char *path, const void *a, size_t alen, const void *b, size_t blen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	const void *parts[2] = { a, b };
	size_t lens[2] = { alen, blen };
	int i, ret = 0;

	if (fd < 0)
		return -errno;
	for (i = 0; i < 2 && !ret; i++) {
		const uint8_t *p = parts[i];
		size_t left = lens[i];

		while (left) {
			ssize_t n = write(fd, p, left);

			if (n < 0) {
				if (errno == EINTR)
					continue;
				ret = -errno;
				break;
			}
			p += n;
			left -= (size_t)n;
		}
	}
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* Runs argv with stdin /dev/null, stdout and stderr into log; its exit status, or -errno. */
static int run_tool(char *const argv[], const char *log)
{
	pid_t pid;
	int status;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		int in = open("/dev/null", O_RDONLY), out = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (in < 0 || out < 0)
			_exit(126);
		dup2(in, 0);
		dup2(out, 1);
		dup2(out, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int bpfrr_sign_payload(const void *insns, uint32_t insns_len, const void *blob, uint32_t blob_size,
		       const char *key, const char *cert, uint8_t **out, uint32_t *out_size, char *err,
		       size_t err_size)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096], in[4200], sig[4200], log[4200], line[256] = "";
	char *argv[] = { "openssl", "cms", "-sign", "-binary", "-noattr", "-nocerts", "-outform", "DER",
			 "-md", "sha256", "-signer", (char *)cert, "-inkey", (char *)key, "-in", in,
			 "-out", sig, NULL };
	struct stat st;
	int fd, ret;

	*out = NULL;
	*out_size = 0;
	if (access(key, R_OK))
		return bpfrr_errmsg(err, err_size, -errno, "--sign-key %s: %s", key, strerror(errno));
	if (access(cert, R_OK))
		return bpfrr_errmsg(err, err_size, -errno, "--sign-cert %s: %s", cert, strerror(errno));
	snprintf(dir, sizeof(dir), "%s/bpfrr-sign.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return bpfrr_errmsg(err, err_size, -errno, "a temporary directory in %s: %s", tmp && tmp[0] ? tmp : "/tmp",
			     strerror(errno));
	snprintf(in, sizeof(in), "%s/payload", dir);
	snprintf(sig, sizeof(sig), "%s/payload.p7s", dir);
	snprintf(log, sizeof(log), "%s/openssl.log", dir);
	ret = write_all(in, insns, insns_len, blob, blob_size);
	if (ret) {
		bpfrr_errmsg(err, err_size, ret, "writing %s: %s", in, strerror(-ret));
		goto out;
	}
	ret = run_tool(argv, log);
	if (ret) {
		FILE *f = fopen(log, "re");

		if (f) {
			if (!fgets(line, sizeof(line), f))
				line[0] = '\0';
			line[strcspn(line, "\n")] = '\0';
			fclose(f);
		}
		if (ret == 127)
			bpfrr_errmsg(err, err_size, -ENOENT, "signing: the openssl command was not found (Debian: openssl)");
		else
			bpfrr_errmsg(err, err_size, -EINVAL, "signing: openssl cms -sign exited %d%s%s", ret,
			      line[0] ? ": " : "", line);
		ret = ret == 127 ? -ENOENT : -EINVAL;
		goto out;
	}
	fd = open(sig, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !st.st_size || st.st_size > MAX_SIG) {
		ret = bpfrr_errmsg(err, err_size, -EINVAL, "signing: openssl made no usable signature in %s", sig);
		if (fd >= 0)
			close(fd);
		goto out;
	}
	*out = malloc(st.st_size);
	if (!*out || read(fd, *out, st.st_size) != st.st_size) {
		close(fd);
		free(*out);
		*out = NULL;
		ret = bpfrr_errmsg(err, err_size, -EIO, "reading the signature %s", sig);
		goto out;
	}
	close(fd);
	*out_size = (uint32_t)st.st_size;
	ret = 0;
out:
	unlink(in);
	unlink(sig);
	unlink(log);
	rmdir(dir);
	return ret;
}

static void payload_sha256(const struct bpfrr_ir_sig *sg, uint8_t out[32])
{
	struct bpfrr_sha256 ctx;

	bpfrr_sha256_init(&ctx);
	bpfrr_sha256_update(&ctx, sg->insns, (size_t)sg->nr_insns * 8);
	bpfrr_sha256_update(&ctx, sg->blob, sg->blob_size);
	bpfrr_sha256_final(&ctx, out);
}

int bpfrr_sign_ir(struct bpfrr_ir *ir, const struct bpfrr_sign_opts *o, char *err, size_t err_size)
{
	struct bpfrr_ir_sig *sg = calloc(1, sizeof(*sg));
	struct bpfrr_caps caps;
	struct bpfrr_loader l;
	int ret;

	if (!sg)
		return bpfrr_errmsg(err, err_size, -ENOMEM, "out of memory");
	ret = bpfrr_sign_prepare(ir, o, &caps, &l, sg, err, err_size);
	if (ret) {
		bpfrr_ir_sig_free(sg);
		return ret;
	}
	sg->nr_insns = l.nr_insns;
	sg->insns = malloc((size_t)l.nr_insns * 8);
	sg->blob_size = l.blob_size;
	sg->blob = malloc(l.blob_size);
	if (!sg->insns || !sg->blob) {
		ret = bpfrr_errmsg(err, err_size, -ENOMEM, "out of memory");
		goto fail;
	}
	memcpy(sg->insns, l.insns, (size_t)l.nr_insns * 8);
	memcpy(sg->blob, l.blob, l.blob_size);
	ret = bpfrr_sign_payload(sg->insns, sg->nr_insns * 8, sg->blob, sg->blob_size, o->key, o->cert, &sg->sig,
				 &sg->sig_size, err, err_size);
	if (ret)
		goto fail;
	bpfrr_sha256(sg->insns, (size_t)sg->nr_insns * 8, sg->excl_prog_hash);
	payload_sha256(sg, sg->payload_sha256);
	bpfrr_sha256(sg->sig, sg->sig_size, sg->sig_sha256);
	bpfrr_loader_free(&l);
	bpfrr_ir_sig_free(ir->sig);
	ir->sig = sg;
	return 0;
fail:
	bpfrr_loader_free(&l);
	bpfrr_ir_sig_free(sg);
	return ret;
}

/* --- readers -------------------------------------------------------------------- */

unsigned int bpfrr_sign_check(const struct bpfrr_ir *ir, char *what, size_t size)
{
	const struct bpfrr_ir_sig *sg = ir->sig;
	struct bpfrr_caps caps;
	struct bpfrr_loader l;
	uint8_t h[32];
	unsigned int changed = 0;
	char err[256];

	if (!sg) {
		snprintf(what, size, "not signed");
		return 0;
	}
	payload_sha256(sg, h);
	if (memcmp(h, sg->payload_sha256, 32))
		changed |= BPFRR_SIGN_CHANGED_PAYLOAD;
	bpfrr_sha256(sg->sig, sg->sig_size, h);
	if (memcmp(h, sg->sig_sha256, 32))
		changed |= BPFRR_SIGN_CHANGED_SIGNATURE;
	bpfrr_sha256(sg->insns, (size_t)sg->nr_insns * 8, h);
	if (memcmp(h, sg->excl_prog_hash, 32))
		changed |= BPFRR_SIGN_CHANGED_EXCL;
	memset(&l, 0, sizeof(l));
	if (bpfrr_sign_caps(sg, &caps) || one_loader(ir, &caps, sg->caps, &l, err, sizeof(err)) ||
	    l.nr_insns != sg->nr_insns || l.blob_size != sg->blob_size ||
	    memcmp(l.insns, sg->insns, (size_t)l.nr_insns * 8) || memcmp(l.blob, sg->blob, l.blob_size))
		changed |= BPFRR_SIGN_CHANGED_IR;
	bpfrr_loader_free(&l);
	if (!changed) {
		snprintf(what, size, "intact");
	} else {
		snprintf(what, size, "changed since signing:%s%s%s%s",
			 changed & BPFRR_SIGN_CHANGED_PAYLOAD ? " signed payload (insns || blob)" : "",
			 changed & BPFRR_SIGN_CHANGED_SIGNATURE ? " signature" : "",
			 changed & BPFRR_SIGN_CHANGED_EXCL ? " exclusive-map hash" : "",
			 changed & BPFRR_SIGN_CHANGED_IR ? " loader no longer what the bundle's calls generate" : "");
	}
	return changed;
}

void bpfrr_sign_covers(const struct bpfrr_ir *ir, struct bpfrr_sign_covers *cv)
{
	uint32_t i;

	memset(cv, 0, sizeof(*cv));
	for (i = 0; i < ir->nr_slots; i++)
		cv->runner_dirs += ir->slots[i].source == BPFRR_IR_SLOT_MKDIR;
	for (i = 0; i < ir->nr_calls; i++) {
		const struct bpfrr_ir_call *c = &ir->calls[i];

		cv->calls++;
		if (c->op == BPFRR_IR_PERF_EVENT_OPEN) {
			cv->perf_events++;
			continue;
		}
		if (c->op != BPFRR_IR_BPF) {
			cv->other++;
			continue;
		}
		switch (c->cmd) {
		case BPFRR_CMD_MAP_CREATE: cv->maps++; break;
		case BPFRR_CMD_PROG_LOAD: cv->progs++; break;
		case BPFRR_CMD_BTF_LOAD: cv->btfs++; break;
		case BPFRR_CMD_LINK_CREATE:
		case BPFRR_CMD_RAW_TRACEPOINT_OPEN: cv->links++; break;
		case BPFRR_CMD_OBJ_PIN: cv->pins++; break;
		case BPFRR_CMD_MAP_UPDATE_ELEM:
		case BPFRR_CMD_MAP_UPDATE_BATCH:
		case BPFRR_CMD_MAP_FREEZE:
		case BPFRR_CMD_MAP_DELETE_ELEM:
		case BPFRR_CMD_PROG_BIND_MAP: cv->updates++; break;
		default: cv->other++; break;
		}
	}
}

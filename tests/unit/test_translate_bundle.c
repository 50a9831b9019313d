// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bundle file: round trips of every IR element, truncation at every
 * offset, corruption of every byte, records of a newer minor version,
 * frames that are intact but describe an invalid IR.  Host only, no bpf().
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bundle.h"
#include "sign.h"
#include "ir.h"
#include "../guest/replay-sample.h"
#include "trace.h"

/* ld_imm64 r1, BTF_ID 51234; call kfunc 777; exit */
static const uint8_t symbol_insns[32] = {
	0x18, 0x31, 0, 0, 0x22, 0xc8, 0, 0,	/* src_reg 3 (BPF_PSEUDO_BTF_ID), dst r1 */
	0, 0, 0, 0, 0, 0, 0, 0,
	0x85, 0x20, 0, 0, 0x09, 0x03, 0, 0,	/* call, src_reg 2 (BPF_PSEUDO_KFUNC_CALL) */
	0x95, 0, 0, 0, 0, 0, 0, 0,
};

/*
 * 1.1's elements: the recording kernel, a PROG_LOAD with BTF ids in the attr
 * and in instruction imms, a LINK_CREATE with kernel addresses in a buffer,
 * a BUILD_BOUND call.
 */
static void add_symbol_calls(struct bpfrr_ir *ir)
{
	uint8_t attr[128] = { 0 }, sha[32], addrs[16] = { 0 };
	int c, p;

	memset(sha, 0xab, sizeof(sha));
	ck_assert_int_eq(bpfrr_ir_set_kernel(ir, "6.12.0-rec", "x86_64", 5000000, sha), 0);
	ck_assert_int_eq(bpfrr_ir_set_kernel_build_id(ir, "3f1c0e9a5b7d2468", BPFRR_IR_KERNEL_BTF_UNHASHED), 0);
	p = bpfrr_ir_add_slot(ir, BPFRR_OBJ_PROG, "prog.fentry");
	c = bpfrr_ir_add_call(ir, 30, BPFRR_IR_BPF, BPF_PROG_LOAD, attr, sizeof(attr));
	ck_assert_int_eq(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, 16, "attr.insns", symbol_insns,
					  sizeof(symbol_insns), BPFRR_DIR_IN, BPFRR_CONTENT_INSNS), 0);
	ck_assert_int_eq(bpfrr_ir_add_symbol_resolve(ir, c, BPFRR_IR_RESOLVE_BTF_ID, BPFRR_IR_IN_ATTR, 88,
						     "vfs_read", NULL, 12, 0), 0);
	ck_assert_int_eq(bpfrr_ir_add_symbol_resolve(ir, c, BPFRR_IR_RESOLVE_BTF_ID, 0, 4, "bpf_prog_active",
						     "", 14, 0), 1);
	ck_assert_int_eq(bpfrr_ir_add_symbol_resolve(ir, c, BPFRR_IR_RESOLVE_BTF_ID, 0, 20,
						     "bpf_task_acquire", "", 12, 0), 2);
	ck_assert_int_eq(bpfrr_ir_set_result(ir, c, p), 0);
	c = bpfrr_ir_add_call(ir, 31, BPFRR_IR_BPF, BPF_LINK_CREATE, attr, 64);
	ck_assert_int_eq(bpfrr_ir_add_fdrel(ir, c, BPFRR_IR_IN_ATTR, 0, p, BPFRR_IR_REF_FIELD), 0);
	ck_assert_int_eq(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, 24, "attr.link_create.kprobe_multi.addrs",
					  addrs, sizeof(addrs), BPFRR_DIR_IN, BPFRR_CONTENT_U64_ARRAY), 0);
	ck_assert_int_eq(bpfrr_ir_add_symbol_resolve(ir, c, BPFRR_IR_RESOLVE_KSYM_ADDR, 0, 0, "vfs_read",
						     NULL, 0, 0), 0);
	ck_assert_int_eq(bpfrr_ir_add_symbol_resolve(ir, c, BPFRR_IR_RESOLVE_KSYM_ADDR, 0, 8, "nf_hook_slow",
						     "nf_tables", 0, -16), 1);
	ck_assert_int_eq(bpfrr_ir_add_symbol_resolve(ir, c, BPFRR_IR_RESOLVE_KSYM_ADDR, BPFRR_IR_IN_ATTR, 32,
						     "tcp_v4_connect", NULL, 0, 0x10), 2);
	ck_assert_int_eq(bpfrr_ir_set_build_bound(ir, c, "target_btf_id 4242: no SYMBOL record"), 0);
	ck_assert_int_eq(bpfrr_ir_set_build_bound(ir, c, "second reason"), 0);
	ck_assert_str_eq(ir->calls[c].bound_why, "target_btf_id 4242: no SYMBOL record");
	ck_assert_uint_eq(ir->calls[c].flags, BPFRR_IR_CALL_BUILD_BOUND);
}

/*
 * A light skeleton's syscall program run: a BPF_PROG_TEST_RUN whose context
 * (an in/out buffer) gets the fds of the map and program the program made,
 * its products.  Returns the call.
 */
static int add_products_call(struct bpfrr_ir *ir)
{
	uint8_t attr[80] = { 0 }, ctx[44] = { 44 };
	int c, map, prog;

	map = bpfrr_ir_add_slot(ir, BPFRR_OBJ_MAP, "map.onemap");
	prog = bpfrr_ir_add_slot(ir, BPFRR_OBJ_PROG, "prog.count_syscalls");
	c = bpfrr_ir_add_call(ir, 40, BPFRR_IR_BPF, BPF_PROG_TEST_RUN, attr, sizeof(attr));
	ck_assert_int_eq(bpfrr_ir_add_fdrel(ir, c, BPFRR_IR_IN_ATTR, 0, SAMPLE_SLOT_PROG, BPFRR_IR_REF_FIELD), 0);
	ck_assert_int_eq(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, 48, "attr.test.ctx_in", ctx, sizeof(ctx),
					  BPFRR_DIR_INOUT, BPFRR_CONTENT_CTX), 0);
	/* an input buffer, a place off the end, a misaligned one, a slot made already: refused */
	ck_assert_int_eq(bpfrr_ir_add_outfd(ir, c, BPFRR_IR_IN_ATTR, 0, map), -EINVAL);
	ck_assert_int_eq(bpfrr_ir_add_outfd(ir, c, 0, 44, map), -EINVAL);
	ck_assert_int_eq(bpfrr_ir_add_outfd(ir, c, 0, 24, SAMPLE_SLOT_PROG), -EINVAL);
	ck_assert_int_eq(bpfrr_ir_add_outfd(ir, c, 0, 24, map), 0);
	ck_assert_int_eq(bpfrr_ir_add_outfd(ir, c, 0, 40, prog), 1);
	ck_assert_int_eq(ir->slots[map].producer, c);
	ck_assert(bpfrr_ir_call_makes_slot(&ir->calls[c], prog));
	ck_assert(bpfrr_ir_call_uses_slot(&ir->calls[c], map));
	ck_assert(!bpfrr_ir_call_makes_slot(&ir->calls[c], SAMPLE_SLOT_PROG));
	ir->slots[map].flags = ir->slots[prog].flags = BPFRR_IR_SLOT_KEEP;
	ir->slots[map].ident = (struct bpfrr_ir_ident){ .have = BPFRR_ID_TYPE | BPFRR_ID_MAX_ENTRIES, .type = 2,
							 .max_entries = 2 };
	return c;
}

/*
 * 1.6: a directory made on a bpffs whose name carries a device's index and a
 * program's id (libxdp's dispatch-IFINDEX-PROGID). Returns its slot.
 */
static int add_dispatch_dir(struct bpfrr_ir *ir)
{
	int dir = bpfrr_ir_add_dir_slot(ir, "dir.133", "/sys/fs/bpf/xdp/dispatch-4-29", 0700);

	ck_assert_int_ge(dir, 0);
	ck_assert_int_eq(bpfrr_ir_add_path_sub(ir, (uint32_t)dir, 25, 1, BPFRR_IR_PATH_SUB_IFINDEX, -1, "xA"), 0);
	ck_assert_int_eq(bpfrr_ir_add_path_sub(ir, (uint32_t)dir, 27, 2, BPFRR_IR_PATH_SUB_OBJ_ID, SAMPLE_SLOT_PROG,
					       NULL), 0);
	/* only a directory to make carries numbers to rename */
	ck_assert_int_eq(bpfrr_ir_add_path_sub(ir, SAMPLE_SLOT_PROG, 0, 1, BPFRR_IR_PATH_SUB_IFINDEX, -1, "xA"),
			 -EINVAL);
	return dir;
}

/* The sample plus every element the sample lacks: a path slot, a perf event
 * with an fd argument and resolutions, an ioctl, nested buffers, OUT buffers,
 * flags and identities of every kind. */
static struct bpfrr_ir *rich_ir(void)
{
	struct bpfrr_ir *ir = sample_ir(SAMPLE_FAIL_LAST);
	uint8_t pattr[128] = { 0 };
	int cg, pe, c, link;

	ck_assert_ptr_nonnull(ir);
	ir->kernel_release = strdup("6.12.0-rec");
	ir->source = strdup("loader.trace");
	cg = bpfrr_ir_add_path_slot(ir, BPFRR_OBJ_CGROUP, "cgroup", "/sys/fs/cgroup", 0x10000);
	pe = bpfrr_ir_add_slot(ir, BPFRR_OBJ_PERF_EVENT, "pe.sys_enter_openat");
	link = bpfrr_ir_add_slot(ir, BPFRR_OBJ_LINK, "link.0");
	ck_assert_int_ge(cg, 0);
	c = bpfrr_ir_add_call(ir, 20, BPFRR_IR_PERF_EVENT_OPEN, 0, pattr, sizeof(pattr));
	ck_assert_int_eq(bpfrr_ir_add_resolve(ir, c, BPFRR_IR_RESOLVE_PMU_TYPE, 0, 4, "tracepoint"), 0);
	ck_assert_int_eq(bpfrr_ir_add_resolve(ir, c, BPFRR_IR_RESOLVE_TP_ID, 8, 8, "syscalls/sys_enter_openat"), 1);
	ck_assert_int_eq(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, 56, "perf_event_attr.config1", "do_sys_open", 12,
					  BPFRR_DIR_IN, BPFRR_CONTENT_STRING), 0);
	ck_assert_int_eq(bpfrr_ir_add_fdrel(ir, c, BPFRR_IR_IN_ARG, 2, cg, BPFRR_IR_REF_ARG), 0);
	ir->calls[c].args[0] = -1;
	ir->calls[c].args[1] = 3;
	ir->calls[c].args[3] = 8;
	ir->calls[c].recorded_ret = 11;
	ck_assert_int_eq(bpfrr_ir_set_result(ir, c, pe), 0);
	c = bpfrr_ir_add_call(ir, 21, BPFRR_IR_BPF, BPF_LINK_CREATE, pattr, 64);
	ck_assert_int_eq(bpfrr_ir_add_fdrel(ir, c, BPFRR_IR_IN_ATTR, 0, SAMPLE_SLOT_PROG, BPFRR_IR_REF_FIELD), 0);
	ck_assert_int_eq(bpfrr_ir_add_fdrel(ir, c, BPFRR_IR_IN_ATTR, 4, pe, BPFRR_IR_REF_FIELD), 1);
	ck_assert_int_eq(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, 16, "attr.link_create.kprobe_multi.syms",
					  pattr, 16, BPFRR_DIR_IN, BPFRR_CONTENT_PTR_ARRAY), 0);
	ck_assert_int_eq(bpfrr_ir_add_buf(ir, c, 0, 8, "attr.link_create.kprobe_multi.syms[1]", "x", 2,
					  BPFRR_DIR_IN, BPFRR_CONTENT_STRING), 1);
	ck_assert_int_eq(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, 24, "attr.out", NULL, 100, BPFRR_DIR_OUT,
					  BPFRR_CONTENT_LOG), 2);
	ir->calls[c].flags = BPFRR_IR_CALL_GLOBAL;
	ck_assert_int_eq(bpfrr_ir_set_result(ir, c, link), 0);
	ir->slots[link].flags = BPFRR_IR_SLOT_KEEP;
	ir->slots[link].ident = (struct bpfrr_ir_ident){ .have = BPFRR_ID_TYPE | BPFRR_ID_LINK_PROG |
							  BPFRR_ID_ATTACH_TYPE | BPFRR_ID_TARGET_BTF_ID,
							  .type = 7, .attach_type = 41, .target_btf_id = 1234,
							  .link_prog_slot = SAMPLE_SLOT_PROG };
	memcpy(ir->slots[SAMPLE_SLOT_PROG].ident.tag, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
	ir->slots[SAMPLE_SLOT_PROG].ident.have |= BPFRR_ID_TAG;
	c = bpfrr_ir_add_call(ir, 22, BPFRR_IR_IOCTL, 0x2400, NULL, 0);
	ck_assert_int_eq(bpfrr_ir_add_fdrel(ir, c, BPFRR_IR_IN_ARG, 0, pe, BPFRR_IR_REF_ARG), 0);
	add_products_call(ir);
	add_dispatch_dir(ir);
	add_symbol_calls(ir);	/* last: symbol_resolve_checked takes them from the end */
	ck_assert_int_eq(bpfrr_ir_model_contents(ir), 0);	/* the map's SLOT_CONTENTS */
	ck_assert_ptr_nonnull(ir->slots[SAMPLE_SLOT_MAP].contents);
	return ir;
}

static void assert_contents_equal(const struct bpfrr_ir_contents *x, const struct bpfrr_ir_contents *y)
{
	uint32_t i;

	ck_assert_int_eq(!x, !y);
	if (!x)
		return;
	ck_assert_uint_eq(x->flags, y->flags);
	ck_assert_uint_eq(x->nr_entries, y->nr_entries);
	for (i = 0; i < x->nr_entries; i++) {
		const struct bpfrr_ir_entry *a = &x->entries[i], *b = &y->entries[i];

		ck_assert_uint_eq(a->key_len, b->key_len);
		ck_assert_uint_eq(a->value_len, b->value_len);
		ck_assert_int_eq(a->value_slot, b->value_slot);
		if (a->key_len)
			ck_assert_mem_eq(a->key, b->key, a->key_len);
		ck_assert_int_eq(!a->value, !b->value);
		if (a->value)
			ck_assert_mem_eq(a->value, b->value, a->value_len);
	}
}

static void assert_ir_equal(const struct bpfrr_ir *a, const struct bpfrr_ir *b)
{
	uint32_t i, j;

	ck_assert_uint_eq(a->arch, b->arch);
	ck_assert_uint_eq(a->nr_recorded, b->nr_recorded);
	ck_assert_pstr_eq(a->kernel_release, b->kernel_release);
	ck_assert_pstr_eq(a->source, b->source);
	ck_assert_uint_eq(a->kernel.known, b->kernel.known);
	ck_assert_uint_eq(a->kernel.btf_size, b->kernel.btf_size);
	ck_assert_mem_eq(a->kernel.btf_sha256, b->kernel.btf_sha256, 32);
	ck_assert_pstr_eq(a->kernel.release, b->kernel.release);
	ck_assert_pstr_eq(a->kernel.machine, b->kernel.machine);
	ck_assert_pstr_eq(a->kernel.build_id, b->kernel.build_id);
	ck_assert_uint_eq(a->kernel.flags, b->kernel.flags);
	ck_assert_uint_eq(a->nr_slots, b->nr_slots);
	ck_assert_uint_eq(a->nr_calls, b->nr_calls);
	ck_assert_uint_eq(a->nr_drops, b->nr_drops);
	for (i = 0; i < a->nr_slots; i++) {
		const struct bpfrr_ir_slot *x = &a->slots[i], *y = &b->slots[i];

		ck_assert_uint_eq(x->kind, y->kind);
		ck_assert_uint_eq(x->source, y->source);
		ck_assert_uint_eq(x->flags, y->flags);
		ck_assert_int_eq(x->producer, y->producer);
		ck_assert_uint_eq(x->open_flags, y->open_flags);
		ck_assert_pstr_eq(x->name, y->name);
		ck_assert_pstr_eq(x->path, y->path);
		ck_assert_mem_eq(&x->ident, &y->ident, sizeof(x->ident));
		assert_contents_equal(x->contents, y->contents);
		ck_assert_uint_eq(x->nr_path_subs, y->nr_path_subs);
		for (uint32_t k = 0; k < x->nr_path_subs; k++) {
			ck_assert_uint_eq(x->path_subs[k].off, y->path_subs[k].off);
			ck_assert_uint_eq(x->path_subs[k].len, y->path_subs[k].len);
			ck_assert_uint_eq(x->path_subs[k].kind, y->path_subs[k].kind);
			ck_assert_int_eq(x->path_subs[k].obj_slot, y->path_subs[k].obj_slot);
			ck_assert_pstr_eq(x->path_subs[k].dev, y->path_subs[k].dev);
		}
	}
	for (i = 0; i < a->nr_calls; i++) {
		const struct bpfrr_ir_call *x = &a->calls[i], *y = &b->calls[i];

		ck_assert_uint_eq(x->seq, y->seq);
		ck_assert_uint_eq(x->op, y->op);
		ck_assert_uint_eq(x->cmd, y->cmd);
		ck_assert_uint_eq(x->flags, y->flags);
		ck_assert_int_eq(x->result_slot, y->result_slot);
		ck_assert_int_eq(x->recorded_ret, y->recorded_ret);
		ck_assert_mem_eq(x->args, y->args, sizeof(x->args));
		ck_assert_uint_eq(x->attr_size, y->attr_size);
		if (x->attr_size)
			ck_assert_mem_eq(x->attr, y->attr, x->attr_size);
		ck_assert_uint_eq(x->nr_bufs, y->nr_bufs);
		ck_assert_uint_eq(x->nr_fdrels, y->nr_fdrels);
		ck_assert_uint_eq(x->nr_resolves, y->nr_resolves);
		ck_assert_pstr_eq(x->bound_why, y->bound_why);
		for (j = 0; j < x->nr_bufs; j++) {
			ck_assert_str_eq(x->bufs[j].path, y->bufs[j].path);
			ck_assert_int_eq(x->bufs[j].parent, y->bufs[j].parent);
			ck_assert_uint_eq(x->bufs[j].ptr_offset, y->bufs[j].ptr_offset);
			ck_assert_uint_eq(x->bufs[j].len, y->bufs[j].len);
			ck_assert_uint_eq(x->bufs[j].dir, y->bufs[j].dir);
			ck_assert_uint_eq(x->bufs[j].content, y->bufs[j].content);
			ck_assert_uint_eq(x->bufs[j].flags, y->bufs[j].flags);
			ck_assert_int_eq(!x->bufs[j].data, !y->bufs[j].data);
			if (x->bufs[j].data)
				ck_assert_mem_eq(x->bufs[j].data, y->bufs[j].data, x->bufs[j].len);
		}
		if (x->nr_fdrels)
			ck_assert_mem_eq(x->fdrels, y->fdrels, x->nr_fdrels * sizeof(*x->fdrels));
		ck_assert_uint_eq(x->nr_outfds, y->nr_outfds);
		if (x->nr_outfds)
			ck_assert_mem_eq(x->outfds, y->outfds, x->nr_outfds * sizeof(*x->outfds));
		for (j = 0; j < x->nr_resolves; j++) {
			ck_assert_uint_eq(x->resolves[j].kind, y->resolves[j].kind);
			ck_assert_uint_eq(x->resolves[j].offset, y->resolves[j].offset);
			ck_assert_uint_eq(x->resolves[j].size, y->resolves[j].size);
			ck_assert_str_eq(x->resolves[j].name, y->resolves[j].name);
			ck_assert_int_eq(x->resolves[j].buf, y->resolves[j].buf);
			ck_assert_pstr_eq(x->resolves[j].module, y->resolves[j].module);
			ck_assert_uint_eq(x->resolves[j].btf_kind, y->resolves[j].btf_kind);
			ck_assert_int_eq(x->resolves[j].addend, y->resolves[j].addend);
		}
	}
	for (i = 0; i < a->nr_drops; i++) {
		ck_assert_uint_eq(a->drops[i].seq, b->drops[i].seq);
		ck_assert_str_eq(a->drops[i].what, b->drops[i].what);
		ck_assert_str_eq(a->drops[i].why, b->drops[i].why);
	}
}

static void encode(const struct bpfrr_ir *ir, uint8_t **data, size_t *len)
{
	char err[256];

	ck_assert_int_eq(bpfrr_bundle_encode(ir, (void **)data, len, err, sizeof(err)), 0);
}

/* --- signed bundles (sign.h) ------------------------------------------------------- */

static char sign_dir[] = "/tmp/test_translate_sign.XXXXXX";

/* A throwaway key and self-signed certificate, made by the openssl command. */
static void make_key(char *key, char *cert, size_t size)
{
	char cmd[2048];

	ck_assert_ptr_nonnull(mkdtemp(sign_dir));
	snprintf(key, size, "%s/key.pem", sign_dir);
	snprintf(cert, size, "%s/cert.pem", sign_dir);
	snprintf(cmd, sizeof(cmd), "openssl req -x509 -newkey rsa:2048 -nodes -keyout %s -out %s -days 1 "
		 "-subj /CN=bpfrr-unit >/dev/null 2>&1", key, cert);
	ck_assert_msg(system(cmd) == 0, "openssl could not make a key (is Debian's openssl installed?)");
}

static void rm_key(void)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", sign_dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Does `openssl cms -verify` accept sig over insns || blob with cert? */
static bool openssl_verifies(const struct bpfrr_ir_sig *sg, const char *cert)
{
	char payload[512], sig[512], cmd[3072];
	FILE *f;

	snprintf(payload, sizeof(payload), "%s/payload", sign_dir);
	snprintf(sig, sizeof(sig), "%s/payload.p7s", sign_dir);
	f = fopen(payload, "w");
	ck_assert_ptr_nonnull(f);
	fwrite(sg->insns, 8, sg->nr_insns, f);
	fwrite(sg->blob, 1, sg->blob_size, f);
	fclose(f);
	f = fopen(sig, "w");
	ck_assert_ptr_nonnull(f);
	fwrite(sg->sig, 1, sg->sig_size, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "openssl cms -verify -binary -inform DER -in %s -content %s -certfile %s "
		 "-nointern -noverify -out /dev/null >/dev/null 2>&1", sig, payload, cert);
	return system(cmd) == 0;
}

/*
 * Signed for patched-6.12: one loader, its signature verifies with the
 * certificate (openssl's own check), the SIGNED_LOADER record survives a
 * round trip byte for byte, and a byte flipped in the insns, the blob or
 * the signature shows in the reader's check (and, for the payload, in
 * openssl's).  Stock caps and a missing key are refused.
 */
START_TEST(signed_loader)
{
	struct bpfrr_ir *ir = sample_ir(0), *stock = sample_ir(0), *back, *again;
	struct bpfrr_sign_opts so = { .caps = "patched-6.12" };
	char key[512], cert[512], err[512], what[256];
	uint8_t *data, *data2;
	size_t len, len2;

	make_key(key, cert, sizeof(key));
	so.key = key;
	so.cert = cert;
	ck_assert_int_eq(bpfrr_sign_ir(ir, &so, err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(ir->sig);
	ck_assert_str_eq(ir->sig->caps, "patched-6.12");
	ck_assert_ptr_null(ir->sig->build_id);	/* no kernel-specific value: any build */
	ck_assert_uint_gt(ir->sig->nr_insns, 0);
	ck_assert_uint_gt(ir->sig->sig_size, 100);
	ck_assert(openssl_verifies(ir->sig, cert));
	ck_assert_uint_eq(bpfrr_sign_check(ir, what, sizeof(what)), 0);
	ck_assert_str_eq(what, "intact");

	encode(ir, &data, &len);
	back = bpfrr_bundle_decode(data, len, "signed", err, sizeof(err));
	ck_assert_msg(back != NULL, "%s", err);
	ck_assert_ptr_nonnull(back->sig);
	ck_assert_uint_eq(back->sig->nr_insns, ir->sig->nr_insns);
	ck_assert_mem_eq(back->sig->insns, ir->sig->insns, (size_t)ir->sig->nr_insns * 8);
	ck_assert_uint_eq(back->sig->blob_size, ir->sig->blob_size);
	ck_assert_mem_eq(back->sig->blob, ir->sig->blob, ir->sig->blob_size);
	ck_assert_uint_eq(back->sig->sig_size, ir->sig->sig_size);
	ck_assert_mem_eq(back->sig->sig, ir->sig->sig, ir->sig->sig_size);
	ck_assert_mem_eq(back->sig->excl_prog_hash, ir->sig->excl_prog_hash, 32);
	ck_assert_uint_eq(bpfrr_sign_check(back, what, sizeof(what)), 0);
	encode(back, &data2, &len2);
	ck_assert_uint_eq(len, len2);
	ck_assert_mem_eq(data, data2, len);
	free(data2);

	/* a flipped insn byte, carried through a round trip, shows as a changed payload */
	back->sig->insns[8 * (back->sig->nr_insns / 2) + 4] ^= 0x01;
	encode(back, &data2, &len2);
	again = bpfrr_bundle_decode(data2, len2, "flipped", err, sizeof(err));
	ck_assert_msg(again != NULL, "%s", err);
	ck_assert_uint_eq(bpfrr_sign_check(again, what, sizeof(what)),
			  BPFRR_SIGN_CHANGED_PAYLOAD | BPFRR_SIGN_CHANGED_EXCL | BPFRR_SIGN_CHANGED_IR);
	ck_assert_ptr_nonnull(strstr(what, "signed payload"));
	ck_assert(!openssl_verifies(again->sig, cert));
	bpfrr_ir_free(again);
	free(data2);
	back->sig->insns[8 * (back->sig->nr_insns / 2) + 4] ^= 0x01;

	/* the blob */
	back->sig->blob[back->sig->blob_size - 1] ^= 0x80;
	ck_assert_uint_eq(bpfrr_sign_check(back, what, sizeof(what)),
			  BPFRR_SIGN_CHANGED_PAYLOAD | BPFRR_SIGN_CHANGED_IR);
	ck_assert(!openssl_verifies(back->sig, cert));
	back->sig->blob[back->sig->blob_size - 1] ^= 0x80;

	/* the signature */
	back->sig->sig[back->sig->sig_size - 1] ^= 0x01;
	ck_assert_uint_eq(bpfrr_sign_check(back, what, sizeof(what)), BPFRR_SIGN_CHANGED_SIGNATURE);
	ck_assert_ptr_nonnull(strstr(what, "signature"));
	ck_assert(!openssl_verifies(back->sig, cert));
	back->sig->sig[back->sig->sig_size - 1] ^= 0x01;
	ck_assert_uint_eq(bpfrr_sign_check(back, what, sizeof(what)), 0);

	/* stock kernels take no signature */
	so.caps = "stock-6.12";
	ck_assert_int_eq(bpfrr_sign_ir(stock, &so, err, sizeof(err)), -EOPNOTSUPP);
	ck_assert_ptr_nonnull(strstr(err, "patched-6.12"));
	ck_assert_ptr_null(stock->sig);
	/* a key that is not there */
	so.caps = "patched-6.12";
	so.key = "/nonexistent/key.pem";
	ck_assert_int_eq(bpfrr_sign_ir(stock, &so, err, sizeof(err)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "--sign-key"));

	free(data);
	bpfrr_ir_free(back);
	bpfrr_ir_free(stock);
	bpfrr_ir_free(ir);
	rm_key();
}
END_TEST

/*
 * The numbers of a directory's name: renamed with the values given, checked
 * by validation (digits, inside the last component, in order, a slot a call
 * makes, a device name).
 */
START_TEST(path_subs)
{
	struct bpfrr_ir *ir = sample_ir(0);
	uint64_t values[2] = { 7, 1234 };
	struct bpfrr_ir_slot *s;
	char out[64], err[256];
	int dir;

	ck_assert_ptr_nonnull(ir);
	dir = add_dispatch_dir(ir);
	s = &ir->slots[dir];
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), 0);
	ck_assert_int_eq(bpfrr_ir_path_subst(s, values, out, sizeof(out)), 0);
	ck_assert_str_eq(out, "/sys/fs/bpf/xdp/dispatch-7-1234");
	ck_assert_int_eq(bpfrr_ir_path_subst(s, values, out, 30), -ENAMETOOLONG);
	s->path_subs[0].off = 24;	/* "-": not digits */
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "is not digits"));
	s->path_subs[0].off = 11;	/* "bpf/xdp": outside the last component */
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "outside the directory's name"));
	s->path_subs[0].off = 25;
	s->path_subs[1].off = 25;	/* overlaps the first */
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	s->path_subs[1].off = 27;
	s->path_subs[1].obj_slot = dir;	/* a directory has no id */
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "no prog, map, link or BTF object a call makes"));
	s->path_subs[1].obj_slot = SAMPLE_SLOT_PROG;
	free(s->path_subs[0].dev);
	s->path_subs[0].dev = strdup("a/b");	/* no interface has that name */
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "names the index of no device"));
	bpfrr_ir_free(ir);
}
END_TEST

START_TEST(round_trip)
{
	struct bpfrr_ir *ir = rich_ir(), *back;
	uint8_t *data, *again;
	size_t len, len2;
	char err[256];

	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), 0);
	encode(ir, &data, &len);
	ck_assert(bpfrr_bundle_sniff(data, len));
	ck_assert_uint_eq(len % 8, 0);
	back = bpfrr_bundle_decode(data, len, "rich", err, sizeof(err));
	ck_assert_msg(back != NULL, "%s", err);
	assert_ir_equal(ir, back);
	encode(back, &again, &len2);
	ck_assert_uint_eq(len, len2);
	ck_assert_mem_eq(data, again, len);
	free(data);
	free(again);
	bpfrr_ir_free(back);
	bpfrr_ir_free(ir);
}
END_TEST

START_TEST(file_round_trip)
{
	struct bpfrr_ir *ir = rich_ir(), *back;
	char path[] = "/tmp/test_translate_bundle.XXXXXX", err[512];
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(bpfrr_bundle_write(ir, path, err, sizeof(err)), 0);
	back = bpfrr_bundle_read(path, err, sizeof(err));
	ck_assert_msg(back != NULL, "%s", err);
	assert_ir_equal(ir, back);
	bpfrr_ir_free(back);
	unlink(path);
	ck_assert_ptr_null(bpfrr_bundle_read(path, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "No such file or directory"));
	bpfrr_ir_free(ir);
}
END_TEST

/* An invalid IR is not written. */
START_TEST(encode_validates)
{
	struct bpfrr_ir *ir = sample_ir(0);
	char err[256];
	void *data;
	size_t len;

	ir->calls[1].fdrels[0].slot = SAMPLE_SLOT_PROG;
	ck_assert_int_eq(bpfrr_bundle_encode(ir, &data, &len, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "is used before it is made"));
	bpfrr_ir_free(ir);
}
END_TEST

START_TEST(truncated_everywhere)
{
	struct bpfrr_ir *ir = rich_ir();
	uint8_t *data;
	size_t len, cut;
	char err[256];

	encode(ir, &data, &len);
	for (cut = 0; cut < len; cut++) {
		struct bpfrr_ir *back = bpfrr_bundle_decode(data, cut, "cut", err, sizeof(err));

		ck_assert_msg(back == NULL, "a bundle cut at %zu of %zu decoded", cut, len);
		ck_assert_msg(!strncmp(err, "cut: offset ", 12), "cut at %zu: '%s'", cut, err);
	}
	free(data);
	bpfrr_ir_free(ir);
}
END_TEST

START_TEST(corrupt_every_byte)
{
	struct bpfrr_ir *ir = rich_ir();
	uint8_t *data;
	size_t len, at;
	char err[256];

	encode(ir, &data, &len);
	for (at = 0; at < len; at++) {
		struct bpfrr_ir *back;

		data[at] ^= 0x20;
		back = bpfrr_bundle_decode(data, len, "bad", err, sizeof(err));
		ck_assert_msg(back == NULL, "byte %zu flipped: the bundle still decoded", at);
		ck_assert_msg(!strncmp(err, "bad: offset ", 12), "byte %zu: '%s'", at, err);
		data[at] ^= 0x20;
	}
	free(data);
	bpfrr_ir_free(ir);
}
END_TEST

/* --- hand-edited frames: right CRCs, wrong contents ---------------------------- */

static uint32_t get_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* offset of the n-th record of type (0-based), or 0 */
static size_t find_record(const uint8_t *data, size_t len, uint32_t type, int n)
{
	size_t off = 16;

	while (off + 12 <= len) {
		uint32_t t = get_le32(data + off), l = get_le32(data + off + 4);

		if (t == type && n-- == 0)
			return off;
		off += 12 + l;
		off += (8 - off % 8) % 8;
	}
	return 0;
}

static void fix_crc(uint8_t *data, size_t off)
{
	uint32_t len = get_le32(data + off + 4), crc = 0;

	if (get_le32(data + off) == BPFRR_BUNDLE_HEADER)
		crc = bpfrr_crc32c(crc, data, 16);
	crc = bpfrr_crc32c(crc, data + off, 8);
	crc = bpfrr_crc32c(crc, data + off + 12, len);
	put_le32(data + off + 8, crc);
}

START_TEST(invalid_ir_in_valid_frames)
{
	struct bpfrr_ir *ir = sample_ir(0);
	uint8_t *data;
	size_t len, off;
	char err[512];

	encode(ir, &data, &len);
	/* slot 0's producer (payload offset 16) names call 3, which makes nothing */
	off = find_record(data, len, BPFRR_BUNDLE_SLOT, 0);
	ck_assert_uint_gt(off, 0);
	put_le32(data + off + 12 + 16, 3);
	fix_crc(data, off);
	ck_assert_ptr_null(bpfrr_bundle_decode(data, len, "edited", err, sizeof(err)));
	ck_assert_str_eq(err, "edited: invalid IR: slot 0 (btf): no call makes it");
	free(data);

	/* END counts that disagree with the records */
	encode(ir, &data, &len);
	off = find_record(data, len, BPFRR_BUNDLE_END, 0);
	put_le32(data + off + 12 + 4, 7);
	fix_crc(data, off);
	ck_assert_ptr_null(bpfrr_bundle_decode(data, len, "edited", err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "END counts do not match the records"));
	free(data);

	/* a buffer count the record cannot hold */
	encode(ir, &data, &len);
	off = find_record(data, len, BPFRR_BUNDLE_CALL, 2);
	/* index 4, op 4, seq 8, cmd 4, flags 4, result 4, ret 8, args 32, attr_size 4: nr_bufs at 72 */
	ck_assert_uint_eq(get_le32(data + off + 12 + 72), 3);
	put_le32(data + off + 12 + 72, 0x10000000);
	fix_crc(data, off);
	ck_assert_ptr_null(bpfrr_bundle_decode(data, len, "edited", err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "count 268435456 does not fit the record"));
	free(data);

	/* a version this reader does not know */
	encode(ir, &data, &len);
	data[8] = 2;
	fix_crc(data, 16);
	ck_assert_ptr_null(bpfrr_bundle_decode(data, len, "v2", err, sizeof(err)));
	ck_assert_str_eq(err, "v2: offset 8: bundle format version 2, this bpfrr reads 1");
	free(data);

	/* a trace is not a bundle */
	ck_assert_ptr_null(bpfrr_bundle_decode("BPFRRTR\0\1\0\0\0\0\0\0\0", 16, "t", err, sizeof(err)));
	ck_assert_str_eq(err, "t: offset 0: not a bpfrr bundle (magic \"BPFRRBN\" expected)");
	bpfrr_ir_free(ir);
}
END_TEST

/* A 1.0 bundle (no KERNEL, no CALL_EXT, minor 0) still reads. */
START_TEST(reads_1_0)
{
	struct bpfrr_ir *ir = sample_ir(0), *back;
	uint8_t *data;
	size_t len;
	char err[256];

	encode(ir, &data, &len);
	ck_assert_uint_eq(get_le32(data + 8), 0x60001);	/* major 1, minor 6 */
	ck_assert_uint_eq(find_record(data, len, BPFRR_BUNDLE_KERNEL, 0), 0);
	ck_assert_uint_eq(find_record(data, len, BPFRR_BUNDLE_CALL_EXT, 0), 0);
	data[10] = 0;
	fix_crc(data, 16);
	back = bpfrr_bundle_decode(data, len, "old", err, sizeof(err));
	ck_assert_msg(back != NULL, "%s", err);
	assert_ir_equal(ir, back);
	ck_assert_uint_eq(back->kernel.known, 0);
	bpfrr_ir_free(back);
	free(data);
	bpfrr_ir_free(ir);
}
END_TEST

/*
 * A 1.2 KERNEL record (no build id and flags after machine) still reads, its
 * build id unknown; unknown KERNEL flags are refused.
 */
START_TEST(reads_1_2_kernel)
{
	struct bpfrr_ir *ir = rich_ir(), *back;
	uint8_t *data, *older;
	size_t len, k;
	uint32_t klen;
	char err[256];

	ck_assert_int_eq(bpfrr_ir_set_kernel_build_id(ir, NULL, 0), 0);
	encode(ir, &data, &len);
	k = find_record(data, len, BPFRR_BUNDLE_KERNEL, 0);
	ck_assert_uint_ne(k, 0);
	klen = get_le32(data + k + 4);
	/* the 1.4 tail: an absent str (u32 0) and flags (u32 0); 8 bytes keep the padding */
	ck_assert_mem_eq(data + k + 12 + klen - 8, (uint8_t[8]){ 0 }, 8);
	older = calloc(1, len);
	memcpy(older, data, k + 12 + klen - 8);
	put_le32(older + k + 4, klen - 8);
	fix_crc(older, k);
	memcpy(older + k + 12 + klen - 8, data + k + 12 + klen, len - (k + 12 + klen));
	back = bpfrr_bundle_decode(older, len - 8, "1.2", err, sizeof(err));
	ck_assert_msg(back != NULL, "%s", err);
	assert_ir_equal(ir, back);
	ck_assert_ptr_null(back->kernel.build_id);
	bpfrr_ir_free(back);
	free(older);

	put_le32(data + k + 12 + klen - 4, 0x80);
	fix_crc(data, k);
	ck_assert_ptr_null(bpfrr_bundle_decode(data, len, "flags", err, sizeof(err)));
	ck_assert_msg(strstr(err, "KERNEL flags 0x80 unknown"), "%s", err);
	free(data);
	bpfrr_ir_free(ir);
}
END_TEST

/* Resolutions out of their attr or buffer, or not at a BTF id's imm, are refused. */
START_TEST(symbol_resolve_checked)
{
	struct bpfrr_ir *ir = rich_ir();
	struct bpfrr_ir_call *load = &ir->calls[ir->nr_calls - 2], *link = &ir->calls[ir->nr_calls - 1];
	uint8_t *data, *insns = load->bufs[0].data;
	size_t len, off;
	char err[256];

	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), 0);
	/* the value a resolution put there (here: the recorded one) */
	{
		const struct bpfrr_ir_resolve *r = NULL;
		uint64_t v = 0;

		ck_assert(bpfrr_ir_resolved_at(load, 0, 4, &r, &v));
		ck_assert_str_eq(r->name, "bpf_prog_active");
		ck_assert_uint_eq(v, 51234);
		ck_assert(!bpfrr_ir_resolved_at(load, 0, 8, &r, &v));
		ck_assert(bpfrr_ir_resolved_at(link, BPFRR_IR_IN_ATTR, 32, NULL, &v));
	}
	load->resolves[1].offset = 12;		/* the imm of ld_imm64's second half */
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "resolution 1: instruction 1 is neither an ld_imm64 of a BTF id "
					  "nor a kfunc call"));
	load->resolves[1].offset = 2;
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "resolution 1: a BTF id not at an instruction's imm"));
	load->resolves[1].offset = 4;
	insns[1] = 0x11;			/* a map fd ld_imm64 */
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	insns[1] = 0x31;
	load->resolves[0].offset = 126;
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "resolution 0: offset 126 outside the attr"));
	load->resolves[0].offset = 88;
	link->resolves[1].offset = 12;
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "outside attr.link_create.kprobe_multi.addrs"));
	link->resolves[1].offset = 8;
	link->resolves[2].offset = 24;		/* where the addrs pointer goes */
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "overlaps pointer attr.link_create.kprobe_multi.addrs"));
	link->resolves[2].offset = 32;
	free(link->bound_why);
	link->bound_why = NULL;
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "build-bound without a reason"));
	link->bound_why = strdup("x");

	/* a CALL_EXT whose resolution count is not its call's */
	encode(ir, &data, &len);
	off = find_record(data, len, BPFRR_BUNDLE_CALL_EXT, 0);
	ck_assert_uint_gt(off, 0);
	ck_assert_uint_eq(get_le32(data + off + 12 + 4), 3);
	put_le32(data + off + 12 + 4, 2);
	fix_crc(data, off);
	ck_assert_ptr_null(bpfrr_bundle_decode(data, len, "edited", err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "CALL_EXT with 2 resolutions for a call of 3"));
	free(data);
	bpfrr_ir_free(ir);
}
END_TEST

/* A record type of a newer minor version, before END, is skipped. */
START_TEST(unknown_record_skipped)
{
	struct bpfrr_ir *ir = sample_ir(0), *back;
	uint8_t *data, *bigger;
	size_t len, end;
	char err[256];

	encode(ir, &data, &len);
	end = find_record(data, len, BPFRR_BUNDLE_END, 0);
	bigger = calloc(1, len + 24);
	memcpy(bigger, data, end);
	put_le32(bigger + end, 77);
	put_le32(bigger + end + 4, 5);
	memcpy(bigger + end + 12, "hello", 5);
	fix_crc(bigger, end);
	memcpy(bigger + end + 24, data + end, len - end);
	back = bpfrr_bundle_decode(bigger, len + 24, "newer", err, sizeof(err));
	ck_assert_msg(back != NULL, "%s", err);
	assert_ir_equal(ir, back);
	bpfrr_ir_free(back);
	free(bigger);
	free(data);
	bpfrr_ir_free(ir);
}
END_TEST

/*
 * A call's products: the validator refuses a place outside the buffer, in an
 * input-only buffer, misaligned, or two for one slot; a reader that skips
 * the CALL_PRODUCTS record (an older bpfrr) is left with slots no call makes
 * and refuses the bundle; a clone keeps them.
 */
START_TEST(products_checked)
{
	struct bpfrr_ir *ir = sample_ir(0), *copy;
	uint8_t *data;
	size_t len, at;
	char err[256];
	int c = add_products_call(ir);
	struct bpfrr_ir_outfd *o = &ir->calls[c].outfds[0];

	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), 0);
	copy = bpfrr_ir_clone(ir);
	ck_assert_ptr_nonnull(copy);
	ck_assert_uint_eq(copy->calls[c].nr_outfds, 2);
	ck_assert_mem_eq(copy->calls[c].outfds, ir->calls[c].outfds, 2 * sizeof(*o));
	bpfrr_ir_free(copy);

	o->offset = 42;
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "product 0: offset 42"));
	o->offset = 40;
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "one slot or one place"));
	o->offset = 24;
	ir->calls[c].bufs[0].dir = BPFRR_DIR_IN;
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "input-only"));
	ir->calls[c].bufs[0].dir = BPFRR_DIR_INOUT;
	ir->calls[c].outfds[1].slot = o->slot;
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	ir->calls[c].outfds[1].slot = o->slot + 1;
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), 0);

	/* the record's type changed to one no reader knows: skipped, then the IR is refused */
	encode(ir, &data, &len);
	at = find_record(data, len, BPFRR_BUNDLE_CALL_PRODUCTS, 0);
	ck_assert_uint_gt(at, 0);
	put_le32(data + at, 99);
	fix_crc(data, at);
	ck_assert_ptr_null(bpfrr_bundle_decode(data, len, "old reader", err, sizeof(err)));
	ck_assert_msg(strstr(err, "no call makes it"), "%s", err);
	free(data);
	bpfrr_ir_free(ir);
}
END_TEST

/* A map call on the sample's map: key 7, value v (update), or key 7 alone (delete), or nothing (freeze). */
static void add_map_call(struct bpfrr_ir *ir, uint64_t seq, uint32_t cmd, uint64_t v)
{
	uint8_t attr[32] = { 0 };
	uint32_t key = SAMPLE_KEY;
	int c = bpfrr_ir_add_call(ir, seq, BPFRR_IR_BPF, cmd, attr, cmd == BPF_MAP_FREEZE ? 4 : 32);

	ck_assert_int_ge(c, 0);
	ck_assert_int_eq(bpfrr_ir_add_fdrel(ir, c, BPFRR_IR_IN_ATTR, 0, SAMPLE_SLOT_MAP, BPFRR_IR_REF_FIELD), 0);
	if (cmd == BPF_MAP_FREEZE)
		return;
	ck_assert_int_eq(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, 8, "attr.key", &key, 4, BPFRR_DIR_IN,
					  BPFRR_CONTENT_KEY), 0);
	if (cmd == BPF_MAP_UPDATE_ELEM)
		ck_assert_int_eq(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, 16, "attr.value", &v, 8, BPFRR_DIR_IN,
						  BPFRR_CONTENT_VALUE), 1);
}

/*
 * What the loader left in its maps (contents.c): updates in order, the last
 * one wins, deletes and freezes; copies, round trips, and the checks.
 */
START_TEST(contents_modelled)
{
	struct bpfrr_ir *ir = sample_ir(0), *copy, *back;
	const struct bpfrr_ir_contents *mc;
	uint8_t *data;
	size_t len;
	char err[256];
	uint64_t v;

	ck_assert_int_eq(bpfrr_ir_model_contents(ir), 0);
	mc = ir->slots[SAMPLE_SLOT_MAP].contents;
	ck_assert_ptr_nonnull(mc);
	ck_assert_ptr_null(ir->slots[SAMPLE_SLOT_PROG].contents);
	ck_assert_uint_eq(mc->nr_entries, 1);
	ck_assert_uint_eq(mc->flags, 0);
	ck_assert_uint_eq(mc->entries[0].key_len, 4);
	ck_assert_uint_eq(mc->entries[0].value_len, 8);
	ck_assert_int_eq(mc->entries[0].value_slot, -1);
	memcpy(&v, mc->entries[0].value, 8);
	ck_assert_uint_eq(v, SAMPLE_VALUE);

	/* the last update wins; the reference is a copy, not the call's buffer */
	add_map_call(ir, 20, BPF_MAP_UPDATE_ELEM, 43);
	add_map_call(ir, 21, BPF_MAP_FREEZE, 0);
	ck_assert_int_eq(bpfrr_ir_model_contents(ir), 0);
	mc = ir->slots[SAMPLE_SLOT_MAP].contents;
	ck_assert_uint_eq(mc->nr_entries, 1);
	ck_assert_uint_eq(mc->flags, BPFRR_IR_CONTENTS_FROZEN);
	memcpy(&v, mc->entries[0].value, 8);
	ck_assert_uint_eq(v, 43);
	ck_assert_ptr_ne(mc->entries[0].value, ir->calls[ir->nr_calls - 2].bufs[1].data);
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), 0);

	copy = bpfrr_ir_clone(ir);
	ck_assert_ptr_nonnull(copy);
	assert_contents_equal(ir->slots[SAMPLE_SLOT_MAP].contents, copy->slots[SAMPLE_SLOT_MAP].contents);
	bpfrr_ir_free(copy);
	encode(ir, &data, &len);
	ck_assert_uint_gt(find_record(data, len, BPFRR_BUNDLE_SLOT_CONTENTS, 0), 0);
	back = bpfrr_bundle_decode(data, len, "contents", err, sizeof(err));
	ck_assert_msg(back != NULL, "%s", err);
	assert_ir_equal(ir, back);
	bpfrr_ir_free(back);
	free(data);

	/* a batch: keys 1 and 2, the second value an fd of the program (a prog array's way) */
	{
		uint8_t attr[56] = { 0 }, keys[8] = { 1, 0, 0, 0, 2, 0, 0, 0 }, vals[16] = { 5 };
		uint32_t two = 2;
		int c;

		memcpy(attr + 32, &two, 4);
		c = bpfrr_ir_add_call(ir, 23, BPFRR_IR_BPF, BPF_MAP_UPDATE_BATCH, attr, sizeof(attr));
		ck_assert_int_ge(c, 0);
		ck_assert_int_eq(bpfrr_ir_add_fdrel(ir, c, BPFRR_IR_IN_ATTR, 36, SAMPLE_SLOT_MAP, BPFRR_IR_REF_FIELD), 0);
		ck_assert_int_eq(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, 16, "attr.batch.keys", keys, 8, BPFRR_DIR_IN,
						  BPFRR_CONTENT_KEYS), 0);
		ck_assert_int_eq(bpfrr_ir_add_buf(ir, c, BPFRR_IR_IN_ATTR, 24, "attr.batch.values", vals, 16,
						  BPFRR_DIR_IN, BPFRR_CONTENT_VALUES), 1);
		ck_assert_int_eq(bpfrr_ir_add_fdrel(ir, c, 1, 8, SAMPLE_SLOT_PROG, BPFRR_IR_REF_MAP_VALUE), 1);
		ck_assert_int_eq(bpfrr_ir_model_contents(ir), 0);
		mc = ir->slots[SAMPLE_SLOT_MAP].contents;
		ck_assert_uint_eq(mc->nr_entries, 3);
		ck_assert_int_eq(mc->entries[1].value_slot, -1);
		ck_assert_uint_eq(mc->entries[1].value[0], 5);
		ck_assert_int_eq(mc->entries[2].value_slot, SAMPLE_SLOT_PROG);
		ck_assert_ptr_null(mc->entries[2].value);
		ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), 0);
		encode(ir, &data, &len);
		back = bpfrr_bundle_decode(data, len, "contents", err, sizeof(err));
		ck_assert_msg(back != NULL, "%s", err);
		assert_ir_equal(ir, back);
		bpfrr_ir_free(back);
		free(data);
	}

	/* a value slot out of range is refused */
	ir->slots[SAMPLE_SLOT_MAP].contents->entries[0].value_slot = 99;
	free(ir->slots[SAMPLE_SLOT_MAP].contents->entries[0].value);
	ir->slots[SAMPLE_SLOT_MAP].contents->entries[0].value = NULL;
	ck_assert_int_eq(bpfrr_ir_validate(ir, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "value slot 99"), "%s", err);

	/* a delete removes the key; the last entry takes its place */
	add_map_call(ir, 24, BPF_MAP_DELETE_ELEM, 0);
	ck_assert_int_eq(bpfrr_ir_model_contents(ir), 0);
	mc = ir->slots[SAMPLE_SLOT_MAP].contents;
	ck_assert_uint_eq(mc->nr_entries, 2);
	ck_assert_int_eq(mc->entries[0].value_slot, SAMPLE_SLOT_PROG);
	ck_assert_uint_eq(mc->entries[0].key[0], 2);
	ck_assert_uint_eq(mc->entries[1].key[0], 1);
	bpfrr_ir_free(ir);
}
END_TEST

static Suite *bundle_suite(void)
{
	Suite *s = suite_create("translate_bundle");
	TCase *tc = tcase_create("bundle");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, path_subs);
	tcase_add_test(tc, file_round_trip);
	tcase_add_test(tc, encode_validates);
	tcase_add_test(tc, truncated_everywhere);
	tcase_add_test(tc, corrupt_every_byte);
	tcase_add_test(tc, invalid_ir_in_valid_frames);
	tcase_add_test(tc, unknown_record_skipped);
	tcase_add_test(tc, reads_1_0);
	tcase_add_test(tc, reads_1_2_kernel);
	tcase_add_test(tc, symbol_resolve_checked);
	tcase_add_test(tc, products_checked);
	tcase_add_test(tc, contents_modelled);
	tcase_add_test(tc, signed_loader);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(bundle_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}

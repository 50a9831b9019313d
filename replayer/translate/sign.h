/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sign.h - signed loader programs (docs/signing.md).
 *
 * A signed replay is one loader program that makes every call of the
 * replay, its blob being the one value of an exclusive, frozen ARRAY map
 * (the metadata map): the kernel checks a PKCS#7 signature over
 * insns || blob at BPF_PROG_LOAD, before the LSM hook and the verifier.
 * So the loader must take nothing from its runner that changes what it
 * does: no user-space step, no fd passed in (no other loader, no slot
 * opened by path), no user image, and no value looked up at replay time
 * (tracepoint ids, PMU types, BTF ids, the kfunc's BTF id): those are
 * fixed at sign time from a target kernel (--target-kernel ROOT: a root
 * directory laid out as the running system's: ROOT/sys/kernel/notes,
 * ROOT/sys/kernel/btf/vmlinux, ROOT/sys/kernel/bpf/syscall_prog_kfuncs,
 * ROOT/sys/kernel/tracing/events/..., ROOT/sys/bus/event_source/devices/...;
 * "/" in the target guest itself) whose build id the bundle records.
 * Kernel addresses (kallsyms) change with every boot (KASLR) and cannot
 * be signed.
 *
 * The signature is made by the openssl command (Debian's openssl package):
 *   openssl cms -sign -binary -noattr -nocerts -outform DER -md sha256
 *               -signer CERT -inkey KEY -in PAYLOAD -out SIG
 * which is what the kernel's PKCS#7 parser takes and what an administrator
 * can run by hand to check or redo a signature.  No libcrypto is linked:
 * the static guest binaries (arm64 too) stay as they are.
 *
 * Host-safe: no bpf().
 */
#ifndef BPFRR_SIGN_H
#define BPFRR_SIGN_H

#include <stddef.h>
#include <stdint.h>

#include "caps.h"
#include "codegen.h"
#include "ir.h"

struct bpfrr_sign_opts {
	const char *caps;		/* --assume-caps: must plan every call in one loader */
	const char *key, *cert;		/* PEM files */
	const char *target_root;	/* --target-kernel ROOT, or NULL */
};

/*
 * Fixes ir for signing: every replay-time value resolved from the target
 * kernel and written into its call (the resolutions removed), then
 * planned on o->caps (with the target's kfunc id) and generated as one
 * loader into *l, caps into *caps; sig (calloc'd by the caller) gets caps,
 * build id, release, kfunc id.  0, or -errno with one line in err naming
 * what would stay outside the signature.
 */
int bpfrr_sign_prepare(struct bpfrr_ir *ir, const struct bpfrr_sign_opts *o, struct bpfrr_caps *caps,
		       struct bpfrr_loader *l, struct bpfrr_ir_sig *sig, char *err, size_t err_size);

/* PKCS#7 over insns || blob with key/cert: *out malloc'd.  0, or -errno with err. */
int bpfrr_sign_payload(const void *insns, uint32_t insns_len, const void *blob, uint32_t blob_size,
		       const char *key, const char *cert, uint8_t **out, uint32_t *out_size, char *err,
		       size_t err_size);

/* Prepare, generate and sign: ir->sig set.  0, or -errno with one line in err. */
int bpfrr_sign_ir(struct bpfrr_ir *ir, const struct bpfrr_sign_opts *o, char *err, size_t err_size);

/* What bpfrr_sign_check found changed since signing (bits). */
#define BPFRR_SIGN_CHANGED_PAYLOAD	0x1	/* insns || blob differ from what was signed */
#define BPFRR_SIGN_CHANGED_SIGNATURE	0x2	/* the signature bytes differ from what was made */
#define BPFRR_SIGN_CHANGED_EXCL		0x4	/* excl_prog_hash is not the SHA-256 of the insns */
#define BPFRR_SIGN_CHANGED_IR		0x8	/* the IR does not generate the stored loader */

/*
 * A reader's check of a signed IR (no key needed: the kernel's check is the
 * one that counts; this says what an edit changed): the BPFRR_SIGN_CHANGED_*
 * bits, with a one-line description in what ("intact" when 0).
 */
unsigned int bpfrr_sign_check(const struct bpfrr_ir *ir, char *what, size_t size);

/* What the signed loader makes, from its IR: the counts a report gives. */
struct bpfrr_sign_covers {
	uint32_t calls, maps, progs, btfs, links, perf_events, pins, updates, other;
	uint32_t runner_dirs;	/* outside it: directories the runner makes on a bpffs first */
};
void bpfrr_sign_covers(const struct bpfrr_ir *ir, struct bpfrr_sign_covers *cv);

/* Caps a signed IR's loader was generated with (its caps name, its kfunc id). 0 or -EINVAL. */
int bpfrr_sign_caps(const struct bpfrr_ir_sig *sig, struct bpfrr_caps *caps);

#endif /* BPFRR_SIGN_H */

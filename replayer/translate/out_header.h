/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * out_header.h - `bpfrr translate --format header`: the IR as a C header
 * that rebuilds the recorded kernel state with no bpfrr at run time.
 *
 * At translate time the IR is planned (plan.h) for assumed caps
 * (bpfrr_caps_assume(): stock-6.12 by default) and every kernel segment's
 * loader is generated (codegen.h).  The header holds, as C data, per
 * segment the loader instructions, blob, user image and its relocations,
 * the blob offsets of replay-time resolutions and the indices of kfunc
 * calls; per user-space step the call as in the IR (attr, buffers, fd
 * relocations, arguments); the slots.  The runtime (header_runtime.h,
 * embedded verbatim) runs them with plain syscall(2).  API of a header
 * made with --name NAME:
 *
 *	struct NAME { int <slot>; ...; long long failed_seq; };
 *	int NAME__load(struct NAME *obj);     0, or -errno (nothing left open)
 *	void NAME__destroy(struct NAME *obj); closes every fd
 *
 * See docs/translator.md, "Output formats".
 */
#ifndef BPFRR_OUT_HEADER_H
#define BPFRR_OUT_HEADER_H

#include <stddef.h>
#include <stdio.h>

#include "ir.h"

struct bpfrr_sign_opts;

struct bpfrr_header_opts {
	const char *name;	/* C identifier; NULL: from the output file's name */
	const char *caps;	/* bpfrr_caps_assume() name; NULL: "stock-6.12" */
	const char *source;	/* what the IR was made from (a comment), may be NULL */
	const struct bpfrr_sign_opts *sign;	/* sign the loader (sign.h), or NULL */
	const struct bpfrr_ir *signed_ir;	/* internal: the IR being written is this signed one */
};

/* Writes the header to path ("-": stdout).  0, or -errno with a one-line reason in err. */
int bpfrr_header_write(const struct bpfrr_ir *ir, const char *path, const struct bpfrr_header_opts *o,
		       char *err, size_t err_size);

/* The same to a stream; name must be given (o->name). */
int bpfrr_header_fwrite(const struct bpfrr_ir *ir, FILE *out, const struct bpfrr_header_opts *o,
			char *err, size_t err_size);

/*
 * The C identifier of slot name ("perf_event.syscalls/sys_enter_openat" ->
 * "perf_event_syscalls_sys_enter_openat") into buf; uniqueness is the
 * writer's business.
 */
void bpfrr_header_ident(const char *name, char *buf, size_t size);

#endif /* BPFRR_OUT_HEADER_H */

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * btf_parse.h - raw BTF from a trace or a bundle, parsed with libbpf.
 *
 * The bytes are whatever a loader passed (or a crafted file holds).
 * libbpf's btf__new() copies them to a buffer of its own and hands out
 * pointers into it, struct btf_type * among them; it checks that type_off
 * is a multiple of 4 but not hdr_len, so a header of 25 bytes puts every
 * type at an odd address, and every caller that reads a type through such
 * a pointer reads misaligned (a loader's real BTF never has such a header).
 * bpfrr_btf_parse() refuses that BTF first.
 */
#ifndef BPFRR_BTF_PARSE_H
#define BPFRR_BTF_PARSE_H

#include <stddef.h>

struct btf;

/* libbpf's BTF of data, or NULL (errno set) if it does not parse or its types would be misaligned. */
struct btf *bpfrr_btf_parse(const void *data, size_t len);

#endif

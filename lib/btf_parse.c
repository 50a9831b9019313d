// SPDX-License-Identifier: GPL-2.0-only
/*
 * btf_parse.c - raw BTF parsed with libbpf, once its type section is known
 * to be aligned (btf_parse.h says why).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/btf.h>

#include "btf_parse.h"

struct btf *bpfrr_btf_parse(const void *data, size_t len)
{
	struct btf_header h;
	struct btf *btf;
	bool swapped;

	if (len < sizeof(h) || len > UINT32_MAX) {
		errno = EINVAL;
		return NULL;
	}
	memcpy(&h, data, sizeof(h));
	/* libbpf reads either byte order and swaps its copy into this one */
	swapped = h.magic == __builtin_bswap16(BTF_MAGIC);
	if (h.magic != BTF_MAGIC && !swapped) {
		errno = EINVAL;
		return NULL;
	}
	if (swapped) {
		h.hdr_len = __builtin_bswap32(h.hdr_len);
		h.type_off = __builtin_bswap32(h.type_off);
	}
	/* the copy starts aligned: the types are where hdr_len + type_off puts them */
	if (((uint64_t)h.hdr_len + h.type_off) % 4) {
		errno = EINVAL;
		return NULL;
	}
	btf = btf__new(data, (uint32_t)len);
	if (libbpf_get_error(btf)) {
		errno = EINVAL;
		return NULL;
	}
	return btf;
}

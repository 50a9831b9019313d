/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bytes.h - reading a host-endian integer from bytes at any alignment (a
 * netlink attribute, an instruction's imm in a blob, a field of a recorded
 * struct): memcpy, which the compiler turns into one load.
 */
#ifndef BPFRR_BYTES_H
#define BPFRR_BYTES_H

#include <stdint.h>
#include <string.h>

static inline uint16_t bpfrr_get_u16(const void *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t bpfrr_get_u32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t bpfrr_get_u64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

#endif /* BPFRR_BYTES_H */

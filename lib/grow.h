/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef BPFRR_GROW_H
#define BPFRR_GROW_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * Make room for `need` elements of `elem` bytes in the array *arr of
 * capacity *cap, doubling; new elements are zeroed.  0 or -ENOMEM (also when
 * the capacity would not fit in 32 bits).
 */
static inline int bpfrr_grow(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
	uint64_t ncap;
	void *p;

	if (need <= *cap)
		return 0;
	ncap = *cap ? (uint64_t)*cap * 2 : 8;
	while (ncap < need)
		ncap *= 2;
	if (ncap > UINT32_MAX || ncap > SIZE_MAX / elem)
		return -ENOMEM;
	p = realloc(*arr, (size_t)ncap * elem);
	if (!p)
		return -ENOMEM;
	memset((char *)p + (size_t)*cap * elem, 0, (size_t)(ncap - *cap) * elem);
	*arr = p;
	*cap = (uint32_t)ncap;
	return 0;
}

#endif /* BPFRR_GROW_H */

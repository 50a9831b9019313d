// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel_id.c - kernel build identity (see kernel_id.h).  Reads files only.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kernel_id.h"

#define NT_GNU_BUILD_ID_TYPE	3	/* <elf.h> NT_GNU_BUILD_ID */
#define NOTES_MAX		8192	/* /sys/kernel/notes is a few hundred bytes */

int bpfrr_build_id_from_notes(const void *notes, size_t len, char *hex, size_t size)
{
	const uint8_t *p = notes;
	size_t pos = 0;

	if (size)
		hex[0] = '\0';
	if (size < BPFRR_BUILD_ID_HEX)
		return -EINVAL;
	while (p && len - pos >= 12) {
		uint32_t namesz, descsz, type;
		size_t name_at = pos + 12, desc_at, next;

		memcpy(&namesz, p + pos, 4);
		memcpy(&descsz, p + pos + 4, 4);
		memcpy(&type, p + pos + 8, 4);
		desc_at = name_at + (((size_t)namesz + 3) & ~(size_t)3);
		next = desc_at + (((size_t)descsz + 3) & ~(size_t)3);
		if (desc_at > len || next > len || desc_at < name_at || next < desc_at)
			break;
		if (type == NT_GNU_BUILD_ID_TYPE && namesz == 4 && !memcmp(p + name_at, "GNU", 4) && descsz &&
		    descsz <= BPFRR_BUILD_ID_MAX) {
			for (uint32_t i = 0; i < descsz; i++)
				snprintf(hex + 2 * i, 3, "%02x", p[desc_at + i]);
			return 0;
		}
		pos = next;
	}
	return -ENOENT;
}

int bpfrr_build_id_read(const char *path, char *hex, size_t size)
{
	uint8_t buf[NOTES_MAX];
	size_t len = 0;
	ssize_t n;
	int fd;

	if (size)
		hex[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < sizeof(buf) && (n = read(fd, buf + len, sizeof(buf) - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = -errno;

			close(fd);
			return err;
		}
		len += (size_t)n;
	}
	close(fd);
	return bpfrr_build_id_from_notes(buf, len, hex, size);
}

static bool known(const char *s)
{
	return s && s[0];
}

enum bpfrr_build_match bpfrr_kernel_build_match(const struct bpfrr_kernel_ident *a,
						const struct bpfrr_kernel_ident *b)
{
	if (!a->release || !b->release || strcmp(a->release, b->release))
		return BPFRR_BUILD_OTHER;
	if (known(a->build_id) && known(b->build_id))
		return strcmp(a->build_id, b->build_id) ? BPFRR_BUILD_OTHER : BPFRR_BUILD_SAME;
	if (!a->btf_sha256 || !b->btf_sha256)
		return BPFRR_BUILD_UNDECIDED;
	return a->btf_size == b->btf_size && !memcmp(a->btf_sha256, b->btf_sha256, 32) ? BPFRR_BUILD_SAME
										     : BPFRR_BUILD_OTHER;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * sign-own-blob: loads a signed bundle's loader with a metadata map of its
 * own making, as a runner trying to bypass the signature would: the same
 * bytes the signature covers, in a map that the kernel must then refuse to
 * take as signed metadata (tests/guest/sign-enforce.t, issue 13 point 4).
 *
 *   sign-own-blob BUNDLE KEYRING plain|unfrozen|exclusive
 *
 *   plain      a frozen ARRAY holding the blob, not exclusive to the loader:
 *              anyone may use it, so nothing binds it to what was signed
 *   unfrozen   exclusive to the loader's digest, but still writable
 *   exclusive  exclusive and frozen, as bpfrr replay makes it: the control,
 *              which must load (the loader is never run)
 *
 * KEYRING is what `bpfrr replay --keyring` takes.  Prints one line: the
 * verdict of a loaded loader, or the errno BPF_PROG_LOAD (or the map's
 * creation) returned.  Exit 0: loaded; 1: refused; 2: bad usage or input.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bundle.h"
#include "header_runtime.h"
#include "ir.h"

static int usage(void)
{
	fprintf(stderr, "usage: sign-own-blob BUNDLE KEYRING plain|unfrozen|exclusive\n");
	return 2;
}

/* The blob in a map of the runner's making; its fd or -errno. */
static int own_map(const struct bpfrr_ir_sig *sg, const char *mode)
{
	int map_fd;

	if (!strcmp(mode, "exclusive"))
		return bpfrr_rt_signed_blob_map(sg->blob, sg->blob_size, sg->excl_prog_hash);
	if (!strcmp(mode, "plain")) {
		map_fd = bpfrr_rt_blob_map(sg->blob, sg->blob_size);
		return map_fd < 0 ? map_fd : bpfrr_rt_blob_fill(map_fd, sg->blob, 1);
	}
	/* unfrozen: exclusive, written, not frozen */
	{
		uint8_t a[BPFRR_RT_MAP_CREATE_SIGNED_SIZE];
		union bpf_attr attr;
		uint64_t hash_ptr = (uintptr_t)sg->excl_prog_hash;
		uint32_t hash_size = 32;

		bpfrr_rt_blob_map_attr(&attr, sg->blob_size);
		memset(a, 0, sizeof(a));
		memcpy(a, &attr, BPFRR_RT_MAP_EXCL_PROG_HASH);
		memcpy(a + BPFRR_RT_MAP_EXCL_PROG_HASH, &hash_ptr, 8);
		memcpy(a + BPFRR_RT_MAP_EXCL_PROG_HASH_SIZE, &hash_size, 4);
		map_fd = bpfrr_rt_sys_bpf(BPF_MAP_CREATE, a, sizeof(a));
		return map_fd < 0 ? map_fd : bpfrr_rt_blob_fill(map_fd, sg->blob, 0);
	}
}

int main(int argc, char **argv)
{
	struct bpfrr_ir *ir;
	const struct bpfrr_ir_sig *sg;
	char err[512], verdict[128];
	int32_t keyring;
	int map_fd, prog_fd;

	if (argc != 4 || (strcmp(argv[3], "plain") && strcmp(argv[3], "unfrozen") && strcmp(argv[3], "exclusive")))
		return usage();
	if (bpfrr_rt_keyring_parse(argv[2], &keyring)) {
		fprintf(stderr, "sign-own-blob: '%s': @s, @u, builtin, secondary, platform or a key serial\n",
			argv[2]);
		return 2;
	}
	ir = bpfrr_bundle_read(argv[1], err, sizeof(err));
	if (!ir) {
		fprintf(stderr, "sign-own-blob: %s\n", err);
		return 2;
	}
	sg = ir->sig;
	if (!sg) {
		fprintf(stderr, "sign-own-blob: %s is not signed\n", argv[1]);
		bpfrr_ir_free(ir);
		return 2;
	}
	map_fd = own_map(sg, argv[3]);
	if (map_fd < 0) {
		printf("%s metadata map: refused at BPF_MAP_CREATE or after: %s\n", argv[3], strerror(-map_fd));
		bpfrr_ir_free(ir);
		return 1;
	}
	prog_fd = bpfrr_rt_signed_prog_load((const struct bpf_insn *)sg->insns, sg->nr_insns, "bpfrr_loader", map_fd,
					    sg->sig, sg->sig_size, keyring, NULL, 0);
	close(map_fd);
	bpfrr_ir_free(ir);
	if (prog_fd < 0) {
		printf("%s metadata map: BPF_PROG_LOAD refused the signed loader: %s\n", argv[3],
		       strerror(-prog_fd));
		return 1;
	}
	bpfrr_rt_sig_verdict(prog_fd, verdict, sizeof(verdict));
	printf("%s metadata map: the signed loader loaded, verdict %s (not run)\n", argv[3], verdict);
	close(prog_fd);
	return 0;
}

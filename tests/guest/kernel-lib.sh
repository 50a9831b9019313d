# SPDX-License-Identifier: GPL-2.0-only
# tests/guest/kernel-lib.sh: sourced by the tests of the kernel series
# (tests/guest/kernel-*.t). Sets
#   kernel_fixture  the directory of fixtures/kernel in the guest image
#   kernel_variant  patched or stock: which kernel the guest runs, and so
#                   whether the series' commands must work or be refused
# The variant comes from $BPFRR_KERNEL (patched, stock or debug, as given to
# qemu/run --kernel) when the runner sets it, else from the kernel's release:
# kernel/build names every image's variant in it (6.12.N-bpfrr-VARIANT[+]). It is
# never guessed from what the kernel can do, which is what the tests check.
# The debug kernel is the patched one with debugging options: tested as patched.

kernel_fixture=${BPFRR_ROOT:-/opt/bpfrr}/fixtures/kernel
release=$(uname -r)
variant=${BPFRR_KERNEL:-}
source=BPFRR_KERNEL
if [ -z "$variant" ]; then
	case "$release" in
	*-bpfrr-*)
		# kbuild may append a '+' (a source tree in git) after the variant.
		variant=${release##*-bpfrr-}
		variant=${variant%%[!a-z]*}
		;;
	esac
	source="uname -r ($release)"
fi
case "$variant" in
patched | debug) kernel_variant=patched ;;
stock) kernel_variant=stock ;;
*)
	echo "kernel-lib.sh: cannot tell which kernel this is: variant '$variant' from $source" >&2
	exit 1
	;;
esac
echo "# kernel variant: $variant (from $source)"

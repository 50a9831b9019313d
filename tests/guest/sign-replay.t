#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Signed loader programs (issue 13, docs/signing.md), in the guest: fx_maps
# and opensnoop are recorded, translated and signed here for this kernel
# (--target-kernel /, a throwaway key from tests/guest/sign-lib.sh), the
# certificate goes into the session keyring with keyctl, and
#  - the signed replay loads, the kernel's verdict (fdinfo sig_verdict) is
#    "verified", --verify finds 0 mismatches;
#  - the same loader unsigned-by-the-keyring (another key), and with one
#    byte flipped in the insns, the blob or the signature (bundle-flip),
#    is refused at BPF_PROG_LOAD of the loader with one line naming the
#    refusal, and leaves no program, map, link or BTF behind (id walk);
#  - with --keyring @u (the key is not there) it is refused too.
# (The signed header is checked on the host, tests/host/translate-sign.t:
# compiled, its signature verified by openssl.)
# On the stock kernel signing for it is refused (no kfunc list), and a bundle
# signed for any build (fx_onemap) is refused at the load, nothing left.
# A patched kernel from before the signed-loader patches (no keys: add_key
# fails with ENOSYS) skips the test (exit 77) once the bundles are signed.
. "$(dirname "$0")/record-lib.sh"
. "$(dirname "$0")/kernel-lib.sh"
. "$(dirname "$0")/sign-lib.sh"
flip=$ROOT/tests/guest/bundle-flip
require_fixtures
command -v keyctl >/dev/null || { fail "keyctl is not in the image"; finish; }
command -v openssl >/dev/null || { fail "openssl is not in the image"; finish; }
# the key goes into @s: a session keyring that outlives keyctl
sign_session "$0" "$@"

sign_make_key key || { fail "making a key: $(cat key/openssl.log)"; finish; }
sign_make_key other || { fail "making a second key: $(cat other/openssl.log)"; finish; }

record_cmd fx_maps.trace fx_maps.rec.out "$FX/fx_maps" || { fail "fx_maps: bpfrr record exited $rc"; finish; }

if [ "$kernel_variant" = stock ]; then
	if sign_bundle fx_maps.trace fx_maps.bundle key; then
		fail "stock: signing for this kernel was not refused"
	else
		grep -q 'syscall_prog_kfuncs\|take no signature' fx_maps.bundle.err &&
			pass "stock: signing for this kernel refused: $(cat fx_maps.bundle.err)" ||
			fail "stock: refused for another reason: $(cat fx_maps.bundle.err)"
	fi
	# fx_onemap has no kernel-specific value: signed for any build, refused here at the load
	record_cmd fx_onemap.trace fx_onemap.rec.out "$FX/fx_onemap" || { fail "fx_onemap: bpfrr record exited $rc"; finish; }
	if SIGN_TARGET= "$BPFRR" translate --sign-key key/key.pem --sign-cert key/cert.pem --assume-caps patched-6.12 \
		-o fx_onemap.bundle fx_onemap.trace 2>fx_onemap.terr; then
		take_max
		"$BPFRR" replay fx_onemap.bundle >fx_onemap.out 2>fx_onemap.err
		status=$?
		[ $status -eq 1 ] && grep -q 'takes no signature' fx_onemap.err &&
			pass "stock: a signed bundle is refused: $(head -n 1 fx_onemap.err)" ||
			fail "stock: signed fx_onemap: exit $status: $(cat fx_onemap.err)"
		check_nothing_left "stock: the refused signed replay"
	else
		fail "fx_onemap: signing for any build: $(cat fx_onemap.terr)"
	fi
	finish
fi

record_cmd opensnoop.trace opensnoop.rec.out opensnoop -d 1 || { fail "opensnoop: bpfrr record exited $rc"; finish; }
# signed here for this kernel: its tracepoint ids, the kfunc's id, its build id
for l in fx_maps opensnoop; do
	sign_bundle $l.trace $l.bundle key && pass "$l: signed for this kernel ($(uname -r))" ||
		fail "$l: signing: $(cat $l.bundle.err)"
done
if ! serial=$(sign_add_key key @s 2>keyctl.err); then
	if grep -q 'not implemented' keyctl.err; then
		# a patched kernel from before the signed-loader series: no keys at all
		[ "$failures" = 0 ] || finish
		echo "this kernel has no keys (add_key: ENOSYS): no signed loaders"
		exit 77
	fi
	fail "keyctl padd asymmetric failed: $(cat keyctl.err)"
	finish
fi
pass "the certificate is key $serial in the session keyring"

# the signed replay verifies, 0 mismatches; the refusals leave nothing
for l in fx_maps opensnoop; do
	[ -f $l.bundle ] || continue
	take_max
	"$BPFRR" replay --verify $l.bundle >$l.replay 2>&1
	status=$?
	sed 's/^/    /' $l.replay
	if [ $status -eq 0 ] && grep -q '^replay: signed loader: verdict verified[ ;]' $l.replay &&
		grep -q '^verify: [0-9]* checks, 0 mismatches' $l.replay; then
		pass "$l: signed replay verified by the kernel, 0 mismatches"
	else
		fail "$l: signed replay exited $status"
	fi
	check_nothing_left "$l: after the signed replay"

	# refused at the loader's BPF_PROG_LOAD, nothing left behind
	for case in other-key insns blob signature; do
		b=$l.$case.bundle
		if [ $case = other-key ]; then
			sign_bundle $l.trace $b other || { fail "$l: signing with the other key"; continue; }
		else
			"$flip" $l.bundle $case $b || { fail "$l: bundle-flip $case"; continue; }
		fi
		sign_refused "$l: $case" $b
	done
done

# another keyring: the key is not in the user keyring
sign_refused "fx_maps: --keyring @u (no such key there)" --keyring @u fx_maps.bundle
keyctl unlink "$serial" @s >/dev/null 2>&1
finish

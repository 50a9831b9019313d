#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Signed loaders enforced (issue 13 point 4, docs/signing.md): the loaders are
# recorded and their replays signed first (for this kernel, a throwaway key
# whose certificate goes into the session keyring with keyctl); then
# fixtures/kernel/lsm_policy puts lsm_signed.bpf.o's signed_loaders_only in
# place for every process (a pinned link), trusting the session keyring only.
# With it on:
#  - each signed replay loads, --verify finds 0 mismatches, and the programs
#    its links attach run (translate-held.sh: run_cnt with BPF stats);
#  - the loaders themselves, an unsigned bundle of the same load, a bundle
#    signed by a key in no keyring, and bundles with one byte flipped in the
#    insns, the blob or the signature are refused at BPF_PROG_LOAD of the
#    loader, with one line naming the refusal, and leave nothing behind;
#  - the same signed load verified against a keyring the policy does not trust
#    (the user keyring, where the key is added too) is refused by the policy.
# Removing the pin lifts the policy (done on exit). The stock kernel keeps no
# verdict: skipped there (exit 77). Loaders: fx_maps, opensnoop (perf events
# through the kfunc), execsnoop, runqlat, biolatency and `bpftool prog loadall`
# (pins into directories the replay makes first, outside the signature:
# docs/signing.md). (fx_attach cannot be signed: its kprobe's name is a buffer
# the kernel reads at a user address, a user image outside the signature;
# translate says so.) The runner cannot make its own metadata map: the signed
# loader with the same bytes in a map that is not exclusive, or not frozen, is
# refused by the kernel (sign-own-blob), with the policy on and off, where the
# map bpfrr makes loads (the control).
. "$(dirname "$0")/record-lib.sh"
. "$(dirname "$0")/kernel-lib.sh"
. "$(dirname "$0")/sign-lib.sh"
# a session keyring of our own, so the key added to @s lives as long as the test
sign_session "$0" "$@"
flip=$ROOT/tests/guest/bundle-flip
held=$ROOT/tests/guest/translate-held.sh
pin=/sys/fs/bpf/bpfrr_signed_loaders_only
own=$ROOT/tests/guest/sign-own-blob
pins=/sys/fs/bpf/sign-enforce
require_fixtures
if [ "$kernel_variant" = stock ]; then
	echo "the stock kernel keeps no signature verdict: nothing to enforce"
	exit 77
fi
command -v keyctl >/dev/null || { fail "keyctl is not in the image"; finish; }
command -v openssl >/dev/null || { fail "openssl is not in the image"; finish; }
mount | grep -q ' /sys/fs/bpf ' || mount -t bpf bpf /sys/fs/bpf
trap 'rm -f $pin; rm -rf $pins' EXIT

sign_make_key key || { fail "making a key: $(cat key/openssl.log)"; finish; }
sign_make_key other || { fail "making a second key: $(cat other/openssl.log)"; finish; }

loaders="fx_maps opensnoop execsnoop runqlat biolatency loadall"
mkdir -p $pins
for l in $loaders; do
	case $l in
	fx_*) cmd="$FX/$l" ;;
	opensnoop) cmd="$l -d 1" ;;
	execsnoop) cmd="timeout -s INT 3 $l" ;;
	loadall) cmd="bpftool prog loadall $FX/fx_loadall.bpf.o $pins/progs pinmaps $pins/maps" ;;
	*) cmd="$l 1 1" ;;
	esac
	# shellcheck disable=SC2086
	record_cmd $l.trace $l.rec.out $cmd || { fail "$l: bpfrr record exited $rc"; continue; }
	# bpftool's pins and the directories it made for them go: the replay makes them again
	[ $l = loadall ] && { find $pins -mindepth 1 | sort >loadall.pins; rm -rf "${pins:?}"/*; }
	sign_bundle $l.trace $l.bundle key || fail "$l: signing: $(cat $l.bundle.err)"
	"$BPFRR" translate -o $l.unsigned.bundle $l.trace 2>$l.unsigned.err ||
		fail "$l: translating unsigned: $(cat $l.unsigned.err)"
done
sign_bundle fx_maps.trace fx_maps.other.bundle other || fail "fx_maps: signing with the other key"
for case in insns blob signature; do
	"$flip" fx_maps.bundle $case fx_maps.$case.bundle || fail "fx_maps: bundle-flip $case"
done

sign_add_key key @s >/dev/null 2>keyctl.err || { fail "keyctl padd @s: $(cat keyctl.err)"; finish; }
sign_add_key key @u >/dev/null 2>keyctl.err || { fail "keyctl padd @u: $(cat keyctl.err)"; finish; }
session=$(keyctl show @s | awk 'NR == 2 { print $1 }')
"$ROOT/fixtures/kernel/lsm_policy" "$ROOT/fixtures/kernel/lsm_signed.bpf.o" $pin "$session" ||
	{ fail "lsm_policy did not put the policy in place"; finish; }
pass "policy on: only loaders verified against the session keyring ($session)"

for l in $loaders; do
	[ -f $l.bundle ] || continue
	# as translate-*.t: open(2) cannot be made from a shell (libc uses openat)
	case $l in
	fx_*) out=$l.rec.out min=all ;;
	opensnoop) out= min=all; [ "$(uname -m)" = x86_64 ] && min=2 ;;
	loadall) out= min=none ;;
	*) out= min=all ;;
	esac
	take_max
	"$BPFRR" replay --verify $l.bundle -- sh "$held" $l $l.replay "$out" $min >$l.replay 2>&1
	status=$?
	sed 's/^/    /' $l.replay
	if [ $status -eq 0 ] && grep -q 'verdict verified' $l.replay &&
		grep -q '^verify: [0-9]* checks, 0 mismatches' $l.replay; then
		pass "$l: the signed replay loads under the policy, 0 mismatches, its programs run"
	else
		fail "$l: signed replay under the policy exited $status"
	fi
	if [ $l = loadall ]; then
		find $pins -mindepth 1 | sort >loadall.repins
		if [ -s loadall.pins ] && cmp -s loadall.pins loadall.repins &&
			grep -q 'outside the signature, 2 directories bpfrr made on a bpffs' $l.replay; then
			pass "loadall: the signed replay made bpftool's 2 directories and pinned its $(find $pins -mindepth 2 | wc -l) programs and maps again"
		else
			fail "loadall: pins differ from bpftool's, or no line on the directories:"
			diff loadall.pins loadall.repins | sed 's/^/    /'
		fi
		rm -rf "${pins:?}"/*
	fi
	check_nothing_left "$l: after the signed replay"
	sign_refused "$l: unsigned bundle" $l.unsigned.bundle
	[ $l = loadall ] && [ -n "$(find $pins -mindepth 1)" ] &&
		fail "loadall: the refused replay left $(find $pins -mindepth 1 | tr '\n' ' ')"
done

take_max
"$FX/fx_maps" >bare.out 2>&1 && fail "fx_maps itself loaded under the policy" ||
	pass "fx_maps itself is refused: $(tail -1 bare.out)"
check_nothing_left "fx_maps itself"
sign_refused "fx_maps: signed by a key in no keyring" fx_maps.other.bundle
for case in insns blob signature; do
	sign_refused "fx_maps: one byte flipped in the $case" fx_maps.$case.bundle
done
sign_refused "fx_maps: verified against the user keyring, which the policy does not trust" \
	--keyring @u fx_maps.bundle

# the runner's own metadata map, the same bytes: refused by the kernel whether
# the policy is on or off; the map as bpfrr makes it loads (the control: the
# loader is loaded, not run)
own_blob() {
	take_max
	"$own" fx_maps.bundle @s "$1" >own.out 2>&1
	status=$?
	if [ $status -eq "$2" ] && grep -q "$3" own.out; then
		pass "$4 ($1): $(cat own.out)"
	else
		fail "$4 ($1): exit $status, expected $2 and '$3': $(cat own.out)"
	fi
	check_nothing_left "$4 ($1)"
}
own_blob plain 1 'Permission denied' "policy on: a metadata map that is not exclusive"
own_blob unfrozen 1 'Operation not permitted' "policy on: a metadata map that is not frozen"
own_blob exclusive 0 'verdict verified' "policy on: the metadata map as bpfrr makes it"

rm -f $pin
take_max
"$BPFRR" replay fx_maps.unsigned.bundle >r.out 2>&1 && pass "policy off: the unsigned bundle loads again" ||
	fail "policy off: the unsigned bundle: $(cat r.out)"
check_nothing_left "policy off"
own_blob plain 1 'Permission denied' "policy off: a metadata map that is not exclusive"
own_blob unfrozen 1 'Operation not permitted' "policy off: a metadata map that is not frozen"
own_blob exclusive 0 'verdict verified' "policy off: the metadata map as bpfrr makes it"
finish

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/host/translate-sign.t: `bpfrr translate --sign-key` (docs/signing.md)
# on the committed x86_64 traces, with a throwaway key made by openssl
# (tests/guest/sign-lib.sh) and a made-up target kernel (a root with the
# files the signer reads: build id notes, kfunc list, tracepoint ids): the
# signed bundle and header are written; openssl's own cms -verify accepts
# the header's signature over insns || blob; `replay --plan` of the bundle
# shows the signed plan, its stored loader intact, and after bundle-flip
# (a byte of the insns, blob or signature changed, CRCs recomputed) that
# part changed; refusals: stock caps (naming the user-space steps), no
# --target-kernel for a loader with kernel-specific values (naming one), a
# re-plan of a signed bundle, --sign-key without --sign-cert, ELF, a target
# that lacks a tracepoint, a slot the runner opens by path (a cgroup). No bpf() (TAP).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
BPFRR=${BPFRR:-$build/host/bpfrr}
bpfrr=$BPFRR
nobpf=$build/host/nobpf
flip=$build/host/tests/guest/bundle-flip
traces=$top/tests/data/traces
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$bpfrr" ] || { echo "1..0 # SKIP $bpfrr is not built"; exit 0; }
[ -x "$flip" ] || { echo "1..0 # SKIP $flip is not built"; exit 0; }
command -v openssl >/dev/null || { echo "1..0 # SKIP no openssl command"; exit 0; }
. "$top/tests/guest/sign-lib.sh"

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# the target kernel: what bpfrr translate --target-kernel reads under its root
root=$tmp/target
mkdir -p "$root/sys/kernel/bpf" "$root/proc/sys/kernel"
printf '31337 bpf_perf_event_open\n' >"$root/sys/kernel/bpf/syscall_prog_kfuncs"
echo 6.12.0-test-target >"$root/proc/sys/kernel/osrelease"
# an ELF note: namesz 4, descsz 20, NT_GNU_BUILD_ID, "GNU\0", 01..14
printf '\004\000\000\000\024\000\000\000\003\000\000\000GNU\000' >"$root/sys/kernel/notes"
printf '\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017\020\021\022\023\024' >>"$root/sys/kernel/notes"
build_id=0102030405060708090a0b0c0d0e0f1011121314
for tp in syscalls/sys_enter_getpid syscalls/sys_enter_open syscalls/sys_enter_openat \
	syscalls/sys_exit_open syscalls/sys_exit_openat syscalls/sys_enter_openat2 syscalls/sys_exit_openat2; do
	mkdir -p "$root/sys/kernel/tracing/events/$tp"
	echo 4242 >"$root/sys/kernel/tracing/events/$tp/id"
done
export SIGN_TARGET=$root

check "a throwaway key and certificate (openssl)" sign_make_key "$tmp/key"

for l in fx_maps opensnoop; do
	trace=$traces/x86_64-$l.trace
	if sign_bundle "$trace" "$tmp/$l.bundle" "$tmp/key"; then
		ok "$l: signed bundle written"
	else
		not_ok "$l: signing failed: $(cat "$tmp/$l.bundle.err")"
		continue
	fi
	"$nobpf" "$bpfrr" replay --plan "$tmp/$l.bundle" >"$tmp/$l.plan" 2>&1
	check "$l: replay --plan shows the signed plan for build $build_id, stored loader intact" \
		grep -q "^signed: loader planned and signed for patched-6.12, kernel build $build_id; .*stored loader intact$" \
		"$tmp/$l.plan"
	check "$l: one loader run, nothing in user space" \
		grep -q '^plan: \([0-9]*\) calls, \1 in kernel, 0 in user space, 1 segments' "$tmp/$l.plan"
	for part in insns blob signature; do
		"$flip" "$tmp/$l.bundle" $part "$tmp/$l.$part.bundle" 2>"$tmp/err" ||
			{ not_ok "$l: bundle-flip $part: $(cat "$tmp/err")"; continue; }
		"$nobpf" "$bpfrr" replay --plan "$tmp/$l.$part.bundle" >"$tmp/$l.$part.plan" 2>&1
		case $part in
		signature) want='stored loader changed since signing: signature$' ;;
		*) want='stored loader changed since signing: signed payload (insns || blob)' ;;
		esac
		check "$l: a byte flipped in the $part shows as changed" grep -q "$want" "$tmp/$l.$part.plan"
	done
	"$nobpf" "$bpfrr" replay --plan --assume-caps patched-6.12 "$tmp/$l.bundle" >/dev/null 2>"$tmp/err"
	rc=$?
	check "$l: a re-plan of the signed bundle is refused, exit 2 ($(cat "$tmp/err"))" \
		bash -c "[ $rc = 2 ] && grep -q 'is signed: .*re-plan' '$tmp/err'"
done

# the header: the same loader and signature; openssl verifies it over insns || blob
h=$tmp/opensnoop.h
if sign_bundle "$traces/x86_64-opensnoop.trace" "$h" "$tmp/key" --format header --name os; then
	ok "opensnoop: signed header written"
	check "header: signature, exclusive-map hash and build id, no kfunc patching or lookup" \
		bash -c "grep -q '^	.signature = os__l0_signature,' '$h' && grep -q '^	.excl_prog_hash = ' '$h' &&
			 grep -q '^	.build_id = \"$build_id\",' '$h' && ! grep -q '^	.kfunc_calls = ' '$h' &&
			 ! grep -q '^	.resolves = ' '$h'"
	cat >"$tmp/dump.c" <<-EOF2
	#include <stdio.h>
	#include "$h"
	int main(int argc, char **argv)
	{
		FILE *p = fopen(argv[1], "w"), *s = fopen(argv[2], "w");

		(void)argc;
		fwrite(os__l0_insns, sizeof(os__l0_insns), 1, p);
		fwrite(os__l0_blob, sizeof(os__l0_blob), 1, p);
		fwrite(os__l0_signature, sizeof(os__l0_signature), 1, s);
		return fclose(p) || fclose(s);
	}
	EOF2
	if gcc -std=gnu11 -Wall -Wextra -Werror -o "$tmp/dump" "$tmp/dump.c" 2>"$tmp/err" &&
		"$tmp/dump" "$tmp/payload" "$tmp/payload.p7s"; then
		check "header: openssl cms -verify accepts the signature over insns || blob" \
			bash -c "openssl cms -verify -binary -inform DER -in '$tmp/payload.p7s' -content '$tmp/payload' \
				-certfile '$tmp/key/cert.pem' -nointern -noverify -out /dev/null 2>/dev/null"
		printf '\377' | dd of="$tmp/payload" bs=1 seek=100 conv=notrunc 2>/dev/null
		check "header: and refuses it with a byte of the insns changed" \
			bash -c "! openssl cms -verify -binary -inform DER -in '$tmp/payload.p7s' -content '$tmp/payload' \
				-certfile '$tmp/key/cert.pem' -nointern -noverify -out /dev/null 2>/dev/null"
	else
		not_ok "header: compiling its arrays out: $(cat "$tmp/err")"
	fi
else
	not_ok "opensnoop: signing the header failed: $(cat "$h.err")"
fi

# refusals: exit 1 (a call cannot be signed) or 2 (usage), one line naming why
refuse() {
	want_rc=$1 want=$2 desc=$3
	shift 3
	"$bpfrr" translate "$@" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc = "$want_rc" ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -Eq "$want" "$tmp/err"; then
		ok "$desc: exit $rc ($(cat "$tmp/err"))"
	else
		not_ok "$desc: exit $rc, wanted $want_rc and /$want/: $(cat "$tmp/err")"
	fi
}
k=(--sign-key "$tmp/key/key.pem" --sign-cert "$tmp/key/cert.pem")
refuse 1 'on stock-6.12 2 of 19 calls stay in user space, outside the signature: seq 43 perf_event_open, seq 53 perf_event_open' \
	"stock caps" "${k[@]}" --assume-caps stock-6.12 --target-kernel "$root" -o "$tmp/x.bundle" "$traces/x86_64-fx_maps.trace"
refuse 1 'seq [0-9]+ perf_event_open: tracepoint syscalls/.* is the running kernel.s: sign for one kernel build with --target-kernel' \
	"no target kernel" "${k[@]}" --assume-caps patched-6.12 -o "$tmp/x.bundle" "$traces/x86_64-opensnoop.trace"
mkdir -p "$tmp/bare/sys/kernel"
cp "$root/sys/kernel/notes" "$tmp/bare/sys/kernel/notes"
refuse 1 'tracepoint syscalls/sys_enter_getpid: .*/events/syscalls/sys_enter_getpid/id: No such file' \
	"a target without the tracepoint" "${k[@]}" --assume-caps patched-6.12 --target-kernel "$tmp/bare" \
	-o "$tmp/x.bundle" "$traces/x86_64-fx_maps.trace"
refuse 1 'slot [0-9]+ \(cgroup\.[0-9]+\) is opened by the runner: /sys/fs/cgroup/bpfrr-fx-cgroup, and a call takes its fd: the fd would stay outside the signature' \
	"a cgroup opened by path" "${k[@]}" --assume-caps patched-6.12 --target-kernel "$root" -o "$tmp/x.bundle" \
	"$traces/x86_64-fx_cgroup.trace"
refuse 2 'go together' "--sign-key without --sign-cert" --sign-key "$tmp/key/key.pem" --assume-caps patched-6.12 \
	-o "$tmp/x.bundle" "$traces/x86_64-fx_maps.trace"
refuse 2 'bundle and header only' "--format elf" "${k[@]}" --format elf --assume-caps patched-6.12 \
	-o "$tmp/x.bpf.o" "$traces/x86_64-fx_maps.trace"
refuse 2 'name the kernel with --assume-caps' "no --assume-caps" "${k[@]}" -o "$tmp/x.bundle" \
	"$traces/x86_64-fx_maps.trace"
check "nothing written by the refusals" bash -c "! ls '$tmp'/x.* 2>/dev/null"

echo "1..$n"
[ "$failed" = 0 ]

# SPDX-License-Identifier: GPL-2.0-only
# tests/guest/sign-lib.sh: signing helpers (sourced; busybox sh in the guest,
# bash on the host), for sign-replay.t, tests/host/translate-sign.t and the
# LSM enforcement tests built on them (docs/signing.md).
#
#   sign_make_key DIR        a throwaway RSA-2048 key and self-signed
#                            certificate: DIR/key.pem, DIR/cert.pem, DIR/cert.der
#   sign_bundle TRACE OUT DIR [ARGS...]
#                            bpfrr translate --sign-key DIR/key.pem --sign-cert
#                            DIR/cert.pem --assume-caps patched-6.12
#                            --target-kernel ${SIGN_TARGET:-/} -o OUT TRACE ARGS
#                            (stderr in OUT.err); its status
#   sign_add_key DIR [KEYRING]  the certificate into KEYRING (default @s) as an
#                            administrator would: keyctl padd asymmetric; prints
#                            the key's serial
#   sign_session SCRIPT [ARGS...]  once, re-runs SCRIPT in a session keyring of its
#                            own (keyctl session -): a process with no session
#                            keyring (the guest's init has none) that names @s gets
#                            a new one that dies with it, so a key keyctl adds to
#                            @s would be gone for the replay; a no-op on a kernel
#                            without keys
#   sign_refused WHAT ARGS...  (guest tests: record-lib.sh's pass, fail, take_max,
#                            check_nothing_left) `bpfrr replay ARGS` must exit 1 with
#                            exactly one line saying the kernel refused the loader
#                            at its BPF_PROG_LOAD (signed: "refused the signed loader
#                            at BPF_PROG_LOAD"; unsigned, under a policy: "the kernel
#                            refused the N-insn bpfrr_loader program"), and leave
#                            nothing behind
# $BPFRR (default /opt/bpfrr/bpfrr) is the bpfrr used; openssl and keyctl come
# from PATH (the guest image has both: qemu/mkinitramfs).

sign_make_key() {
	mkdir -p "$1"
	# no system openssl.cnf needed: the request is named here, no extensions
	# (the kernel finds the key by the signature's issuer and serial number)
	printf '[req]\ndistinguished_name = dn\nprompt = no\n[dn]\nCN = bpfrr test key\n' >"$1/openssl.cnf"
	openssl req -config "$1/openssl.cnf" -x509 -newkey rsa:2048 -nodes -days 2 \
		-keyout "$1/key.pem" -out "$1/cert.pem" >"$1/openssl.log" 2>&1 &&
		openssl x509 -in "$1/cert.pem" -outform DER -out "$1/cert.der" >>"$1/openssl.log" 2>&1
}

sign_bundle() {
	sb_trace=$1 sb_out=$2 sb_dir=$3
	shift 3
	"${BPFRR:-/opt/bpfrr/bpfrr}" translate --sign-key "$sb_dir/key.pem" --sign-cert "$sb_dir/cert.pem" \
		--assume-caps patched-6.12 --target-kernel "${SIGN_TARGET:-/}" -o "$sb_out" "$@" "$sb_trace" \
		2>"$sb_out.err"
}

sign_add_key() {
	keyctl padd asymmetric bpfrr-test "${2:-@s}" <"$1/cert.der"
}

sign_session() {
	[ -z "${BPFRR_SIGN_SESSION:-}" ] || return 0
	keyctl session - true >/dev/null 2>&1 || return 0
	export BPFRR_SIGN_SESSION=1
	exec keyctl session - sh "$@"
}

sign_refused() {
	sr_what=$1
	shift
	take_max
	"${BPFRR:-/opt/bpfrr/bpfrr}" replay "$@" >sr.out 2>sr.err
	sr_status=$?
	sr_line=$(grep -E 'refused the signed loader at BPF_PROG_LOAD|kernel refused the [0-9]+-insn bpfrr_loader program' sr.err)
	if [ $sr_status -eq 1 ] && [ -n "$sr_line" ] && [ "$(echo "$sr_line" | wc -l)" = 1 ]; then
		pass "$sr_what: refused: ${sr_line#bpfrr replay: }"
	else
		fail "$sr_what: exit $sr_status: $(cat sr.err)"
	fi
	check_nothing_left "$sr_what"
}

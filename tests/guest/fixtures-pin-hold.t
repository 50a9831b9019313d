#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The fixture loaders' --pin DIR (objects outlive the loader in bpffs until
# unpinned) and --hold SECS (objects live while it holds, with their BTF line
# info, and go when it is signalled) options.
. "$(dirname "$0")/fixtures-lib.sh"
require_fixtures

for l in fx_maps fx_tailcall fx_attach fx_threads fx_fork fx_onemap_lskel; do
	dir=/sys/fs/bpf/fxtest-$l
	rm -rf "$dir"
	mkdir -p "$dir"
	out=$PWD/$l.pin.out
	if run_loader "$out" "$l" --pin "$dir"; then
		npins=$(grep -c '^pinned ' "$out")
		nobjs=$(grep -cE '^(map|prog|link) ' "$out")
		# fx_fork's parent reports "shared" too; the child, which reuses it, pins it.
		[ "$l" = fx_fork ] && nobjs=$((nobjs - 1))
		[ "$npins" = "$nobjs" ] || fail "$l --pin: $npins pins for $nobjs objects"
		for p in $(sed -n 's/^pinned //p' "$out"); do
			[ -e "$p" ] || fail "$l --pin: $p does not exist after the loader exited"
		done
		all_exist prog $(ids_of "$out" prog) || fail "$l --pin: programs gone after exit"
		all_exist map $(ids_of "$out" map) || fail "$l --pin: maps gone after exit"
		all_exist link $(ids_of "$out" link) || fail "$l --pin: links gone after exit"
		rm -rf "$dir"
		wait_gone link $(ids_of "$out" link) || fail "$l --pin: links left after unpinning"
		wait_gone prog $(ids_of "$out" prog) || fail "$l --pin: programs left after unpinning"
		wait_gone map $(ids_of "$out" map) || fail "$l --pin: maps left after unpinning"
		pass "$l --pin: $npins pins"
	else
		fail "$l --pin exited with status $?"
		rm -rf "$dir"
	fi
	show "$out"
done

# --hold 0: objects exist until SIGTERM, then the loader exits 0 and they go.
for l in fx_globals fx_core fx_fork fx_onemap; do
	out=$PWD/$l.hold.out
	"$FX/$l" --hold 0 >"$out" 2>"$out.err" &
	pid=$!
	tries=0
	while ! grep -q '^ready$' "$out" && [ $tries -lt 100 ] && kill -0 $pid 2>/dev/null; do
		sleep 0.1 2>/dev/null || sleep 1
		tries=$((tries + 1))
	done
	if grep -q '^ready$' "$out"; then
		all_exist prog $(ids_of "$out" prog) || fail "$l --hold: programs missing while held"
		all_exist link $(ids_of "$out" link) || fail "$l --hold: links missing while held"
		# -g's BTF line info reached the kernel: bpftool shows source lines.
		for id in $(ids_of "$out" prog); do
			bpftool prog dump xlated id "$id" | grep -q '^; ' ||
				fail "$l --hold: program $id has no line info"
		done
		kill -TERM $pid
		wait $pid
		status=$?
		[ "$status" = 0 ] || fail "$l --hold: exited with $status after SIGTERM, expected 0"
		wait_gone prog $(ids_of "$out" prog) || fail "$l --hold: programs left after it exited"
		pass "$l --hold"
	else
		kill -KILL $pid 2>/dev/null
		wait $pid
		fail "$l --hold 0 never printed 'ready'"
	fi
	show "$out"
done

# --hold SECS: it exits on its own, successfully.
out=$PWD/timed.hold.out
if run_loader "$out" fx_onemap --hold 1; then
	grep -q '^ready$' "$out" || fail "fx_onemap --hold 1 printed no 'ready'"
	pass "fx_onemap --hold 1"
else
	fail "fx_onemap --hold 1 exited with status $?"
fi
show "$out"

finish

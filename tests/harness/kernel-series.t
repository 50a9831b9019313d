#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# kernel/build refuses a series that does not apply, naming the patch, both in
# --check-series and on the real build path (make kernels), and accepts a good one.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }

mkdir -p "$tmp/good/patches" "$tmp/broken/patches" "$tmp/missing"
cat >"$tmp/good/patches/0001-add-a-file.patch" <<'PATCH'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: bpfrr tests <tests@bpfrr.invalid>
Subject: [PATCH] test: add a file

Signed-off-by: bpfrr tests <tests@bpfrr.invalid>
---
 bpfrr-series-test | 1 +
 1 file changed, 1 insertion(+)
 create mode 100644 bpfrr-series-test

diff --git a/bpfrr-series-test b/bpfrr-series-test
new file mode 100644
--- /dev/null
+++ b/bpfrr-series-test
@@ -0,0 +1 @@
+applied
PATCH
cp "$tmp/good/patches/0001-add-a-file.patch" "$tmp/broken/patches/"
cat >"$tmp/broken/patches/0002-does-not-apply.patch" <<'PATCH'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: bpfrr tests <tests@bpfrr.invalid>
Subject: [PATCH] test: change lines that are not there

Signed-off-by: bpfrr tests <tests@bpfrr.invalid>
---
diff --git a/kernel/bpf/syscall.c b/kernel/bpf/syscall.c
--- a/kernel/bpf/syscall.c
+++ b/kernel/bpf/syscall.c
@@ -1,3 +1,3 @@
 this context
-does not exist
+in linux-source-6.12
 anywhere
PATCH
printf '0001-add-a-file.patch\n' >"$tmp/good/series"
printf '# comment\n0001-add-a-file.patch\n0002-does-not-apply.patch\n' >"$tmp/broken/series"
printf '0001-gone.patch\n' >"$tmp/missing/series"

echo "1..4"
if out=$(BPFRR_SERIES_DIR=$tmp/good "$top/kernel/build" --check-series 2>&1); then
	ok "a series that applies is accepted"
else
	not_ok "a series that applies is accepted" "$out"
fi

out=$(BPFRR_SERIES_DIR=$tmp/broken "$top/kernel/build" --check-series 2>&1)
rc=$?
if [ $rc -ne 0 ] && grep -q "patch 2 of the series, patches/0002-does-not-apply.patch, does not apply" <<<"$out"; then
	ok "--check-series names the patch that does not apply"
else
	not_ok "--check-series names the patch that does not apply" "exit $rc" "$out"
fi

out=$(BPFRR_SERIES_DIR=$tmp/missing "$top/kernel/build" --check-series 2>&1)
rc=$?
if [ $rc -ne 0 ] && grep -q "series names patches/0001-gone.patch, which does not exist" <<<"$out"; then
	ok "a series naming a missing patch is refused"
else
	not_ok "a series naming a missing patch is refused" "exit $rc" "$out"
fi

# The build path itself (what make kernels runs) stops at the patch, before building.
out=$(BPFRR_SERIES_DIR=$tmp/broken "$top/kernel/build" --arch x86_64 --variant patched 2>&1)
rc=$?
if [ $rc -ne 0 ] && grep -q "patches/0002-does-not-apply.patch, does not apply" <<<"$out" &&
	! grep -q "building x86_64" <<<"$out"; then
	ok "kernel/build stops at the broken patch, naming it"
else
	not_ok "kernel/build stops at the broken patch, naming it" "exit $rc" "$out"
fi

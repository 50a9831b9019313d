#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/host/record-elf.t: the recorder captures the BPF ELF objects a loader
# opens or carries in its executable (ELF records, recorder/record_elf.c), once
# per file, and nothing else (TAP). The tracees only read and exec files: no
# bpf() call. The object is tests/data/objects/fx_core.bpf.o.
set -u
. "$(dirname "$0")/record-lib.sh"

obj=$top/tests/data/objects/fx_core.bpf.o
size=$(stat -c %s "$obj")
sum=$(sha256sum "$obj" | cut -c1-64)

# an opened file: stored whole, with its path
record "$tmp/open.trace" -- cat "$obj" >/dev/null
expect "cat of the object: exit 0" 0 "$rc"
"$bpfrr" dump "$tmp/open.trace" >"$tmp/open.txt"
has "an opened object is an ELF record with its size and SHA-256" "$tmp/open.txt" \
	"^elf: $obj: $size bytes, sha256 ${sum:0:16} \\(task [0-9]+\\)\$"
"$bpfrr" dump --json "$tmp/open.trace" | grep '"record":"elf"' >"$tmp/open.json"
has "JSON: the line of the object" "$tmp/open.json" \
	"^\\{\"record\":\"elf\",\"seq\":0,\"tid\":[0-9]+,\"path\":\"$obj\",\"embedded\":false,\"offset\":0,\"blob\":[0-9]+,\"size\":$size,\"sha256\":\"$sum\"\\}\$"
expect "JSON: one line per object" 1 "$(wc -l <"$tmp/open.json")"

# an executable that embeds the object (as a skeleton does), exec'd twice
pad=13
cp "$tracee" "$tmp/skel"
head -c $pad /dev/zero >>"$tmp/skel"
cat "$obj" >>"$tmp/skel"
head -c 100 /dev/urandom >>"$tmp/skel"
at=$(printf '0x%x' $(($(stat -c %s "$tracee") + pad)))
record "$tmp/exe.trace" -- "$tmp/skel" exec >/dev/null
expect "the embedding tracee execs itself: exit 0" 0 "$rc"
"$bpfrr" dump "$tmp/exe.trace" >"$tmp/exe.txt"
has "an embedded object is found at its offset, with its own extent" "$tmp/exe.txt" \
	"^elf: $tmp/skel \\(embedded at $at\\): $size bytes, sha256 ${sum:0:16} "
expect "an executable exec'd twice is scanned once" 1 "$(grep -c '^elf: ' "$tmp/exe.txt")"

# where the image's code is (SHF_EXECINSTR sections) is not searched; data sections
# and bytes past them are, and all of it when the section headers are gone
objcopy --add-section .bpf.data="$obj" --set-section-flags .bpf.data=alloc,readonly,data \
	"$tracee" "$tmp/in-data" 2>/dev/null
objcopy --add-section .bpf.code="$obj" --set-section-flags .bpf.code=alloc,readonly,code \
	"$tracee" "$tmp/in-code" 2>/dev/null
cp "$tmp/skel" "$tmp/no-shdr"
# e_shoff (8 bytes at 0x28) and e_shnum (2 bytes at 0x3c) to zero: no section headers
printf '\0\0\0\0\0\0\0\0' | dd of="$tmp/no-shdr" bs=1 seek=$((0x28)) conv=notrunc status=none
printf '\0\0' | dd of="$tmp/no-shdr" bs=1 seek=$((0x3c)) conv=notrunc status=none
for img in in-data in-code no-shdr; do
	record "$tmp/$img.trace" -- "$tmp/$img" exec >/dev/null
	expect "$img: the tracee runs: exit 0" 0 "$rc"
	"$bpfrr" dump "$tmp/$img.trace" >"$tmp/$img.txt"
done
has "an object in a data section of its own is found" "$tmp/in-data.txt" \
	"^elf: $tmp/in-data \\(embedded at 0x[0-9a-f]+\\): $size bytes, sha256 ${sum:0:16} "
hasnt "an object in a code section is not searched for" "$tmp/in-code.txt" '^elf: '
has "an image without section headers is searched whole" "$tmp/no-shdr.txt" \
	"^elf: $tmp/no-shdr \\(embedded at $at\\): $size bytes, sha256 ${sum:0:16} "

# not objects: a BPF ELF header without a valid object, an x86 ELF file, and
# nothing when opens do not stop the tracee
head -c 2000 "$obj" >"$tmp/cut.bpf.o"
record "$tmp/cut.trace" -- cat "$tmp/cut.bpf.o" /bin/true >/dev/null
"$bpfrr" dump "$tmp/cut.trace" >"$tmp/cut.txt"
hasnt "a cut-short object and an x86 executable are not stored" "$tmp/cut.txt" '^elf: '
has "the cut-short object is named in a warning" "$tmp/cut.txt" \
	"^warning: $tmp/cut.bpf.o: an EM_BPF ELF file that is not a valid object"
record "$tmp/none.trace" --opens=none -- cat "$obj" >/dev/null
"$bpfrr" dump "$tmp/none.trace" >"$tmp/none.txt"
hasnt "--opens=none: opens are not looked at" "$tmp/none.txt" '^elf: '

# an image is scanned at its first kept call, not at its exec: the embedding tracee
# whose only stops are closes of untracked fds (--opens=none) costs no read of it
record "$tmp/nostop.trace" --opens=none -- "$tmp/skel" exit 0 >/dev/null
expect "the embedding tracee, no call kept: exit 0" 0 "$rc"
"$bpfrr" dump "$tmp/nostop.trace" >"$tmp/nostop.txt"
hasnt "an image that makes no call the recorder keeps is not scanned" "$tmp/nostop.txt" '^elf: '

done_testing

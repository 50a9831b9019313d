#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bench/guest/corpus.sh: the guest half of bench/corpus (busybox sh, in a
# bpfrr guest; tests/guest/corpus-ci.t runs it too).
#
#   sh corpus.sh OUT LIST [NAME...]
#
# For each loader of LIST (bench/corpus.list: NAME | GROUP | COMMAND |
# TRIGGERS | RESET | NOTE), or only those NAMEd, in list order:
#   1. bare: COMMAND run alone. It loaded if it exited 0, or was stopped by
#      our SIGINT (status 130) after printing a line; else its last stderr
#      line says why. A loader that did not load stops here.
#   2. `bpfrr record -o TRACE -- COMMAND` (exit 0 or 130 as above);
#   3. `bpfrr dump --json TRACE` against `strace -f -v -e
#      trace=bpf,perf_event_open COMMAND`, reduced to one line per call as
#      tests/guest/record-strace.t does (tests/guest/record-lib.sh):
#      "equal", "late" (equal but for the map reads after the last
#      attachment, whose number depends on the events), or "differs";
#   4. `bpfrr translate --explain -o BUNDLE TRACE`;
#   5. `bpfrr replay --verify BUNDLE -- sh corpus.sh --held ...`: while the
#      replay holds its objects, with BPF stats on, the triggers run (every
#      loader gets an exec, file opens and stats, getppid and short sleeps;
#      TRIGGERS adds block I/O, a TCP connection, ...) until every program the
#      replay attached (the verify table's link and netlink rows, and the
#      struct_ops programs of a struct_ops map it made) has a run_cnt above 0,
#      or 10 rounds went by. Programs the triggers load themselves (tcpca's tc
#      classifier) are none of these.
# RESET runs before each of the runs of steps 1, 2, 3 and 5, and at the end.
# Each loader leaves OUT/NAME.res, "KEY VALUE" lines (the host half reads
# them; "done 1" last), and its files in OUT/NAME/ (outputs, trace, calls,
# explanation, replay report). OUT/guest-uname is the kernel's release.

root=${BPFRR_ROOT:-/opt/bpfrr}
BPFRR=$root/bpfrr
FX=$root/fixtures
IP=/usr/sbin/ip
RUNCNT=$root/tests/guest/translate-runcnt
me=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")

# --- triggers: what makes the replayed programs run ----------------------------------------
loopfile=/tmp/corpus.loop loopdev= ext4dir=/tmp/corpus-ext4 ext4loop= tcpport=7700
# the devices only some triggers use, set up when a chosen row names the trigger (corpus-ci's
# rows name none): a large sparse loop device whose page cache reclaim frees (reclaim), xfs and
# btrfs mounts on loop devices (xfs, btrfs), a RAID1 md array of two loop devices (md), an NFS
# mount over lo of a tmpfs the kernel's NFS server exports (nfs; nfsup=1 when mounted)
cacheloop= xfsdir=/tmp/corpus-xfs xfsloop= btrfsdir=/tmp/corpus-btrfs btrfsloop= mddev= mdloops=
nfsdir=/tmp/corpus-nfs nfsexp=/tmp/corpus-nfsexp nfsup= nfsd= rpcbindpid= mountdpid= nfs_setup_s=
TRIGGER=$root/tests/guest/corpus-trigger

trigger_common() {
	cat /proc/self/stat /proc/version >/dev/null	# openat, vfs_read
	ls -l / >/dev/null				# stat calls
	sh -c 'exit 0'					# fork, exec, exit
	# getppid, open(2), a file made by mknod(2) and removed, tkill, tgkill
	"$root/tests/host/syscall_loop" 10 --open /proc/version --mknod /tmp/corpus.node --signal0
	# a file written, fsync'd, removed
	dd if=/dev/zero of=/tmp/corpus.file bs=512 count=1 conv=fsync 2>/dev/null && rm /tmp/corpus.file
	sleep 0.05					# scheduler switches and wakeups
}
trigger_block() {
	[ -n "$loopdev" ] || return 0
	echo 3 >/proc/sys/vm/drop_caches
	dd if="$loopdev" of=/dev/null bs=4096 count=8 skip=$(( (round * 8) % 2000 )) 2>/dev/null
	dd if=/dev/zero of="$loopdev" bs=4096 count=1 seek=$(( round % 2000 )) conv=fsync 2>/dev/null
}
trigger_tcp() {
	tcpport=$((tcpport + 1))
	timeout 3 nc -l -p "$tcpport" >/dev/null 2>&1 &
	sleep 0.2
	echo corpus | timeout 2 nc 127.0.0.1 "$tcpport" >/dev/null 2>&1
	wait 2>/dev/null
	# IPv6 too where the kernel has it (tcp_v6_connect, inet6_bind)
	if [ -e /proc/net/if_inet6 ]; then
		tcpport=$((tcpport + 1))
		timeout 3 nc -l -p "$tcpport" >/dev/null 2>&1 &
		sleep 0.2
		echo corpus | timeout 2 nc ::1 "$tcpport" >/dev/null 2>&1
		wait 2>/dev/null
	fi
}
# fs_io DIR: file I/O on the filesystem mounted on DIR: open, write, fsync (the fs's fsync),
# read with read(2) (busybox cat uses sendfile, which reaches the fs's splice_read, not its
# read_iter), stat, remove
fs_io() {
	dd if=/dev/zero of="$1/f" bs=4096 count=4 conv=fsync 2>/dev/null
	echo 3 >/proc/sys/vm/drop_caches
	dd if="$1/f" of=/dev/null bs=4096 2>/dev/null
	ls -l "$1/f" >/dev/null
	rm -f "$1/f"
}
trigger_ext4() { [ -z "$ext4loop" ] || fs_io "$ext4dir"; }
trigger_xfs() { [ -z "$xfsloop" ] || fs_io "$xfsdir"; }
trigger_btrfs() { [ -z "$btrfsloop" ] || fs_io "$btrfsdir"; }
# through the NFS client: nfs_file_open, nfs_file_write, nfs_file_fsync, nfs_file_read, nfs_getattr
trigger_nfs() { [ -z "$nfsup" ] || fs_io "$nfsdir"; }
# bash reading lines with readline on a terminal (corpus-trigger opens a pty for it)
trigger_readline() {
	"$TRIGGER" readline "echo corpus" >/dev/null 2>&1
}
# direct reclaim: the allocating task frees page cache itself (corpus-trigger reclaim)
trigger_reclaim() {
	[ -z "$cacheloop" ] || "$TRIGGER" reclaim "$cacheloop" >/dev/null 2>&1
}
# the lock kinds the other triggers do not take (klockstat): see corpus-trigger locks
trigger_locks() {
	[ -z "$ext4loop" ] || "$TRIGGER" locks "$ext4dir/nowait" >/dev/null 2>&1
}
# an OOM kill in a memory cgroup of 16 MB (the kernel needs CONFIG_MEMCG): the task
# killed is corpus-trigger oom, whose oom_score_adj is 1000
trigger_oom() {
	cg=/sys/fs/cgroup/corpus-oom
	grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null || return 0
	echo +memory >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
	mkdir -p "$cg" && echo 16M >"$cg/memory.max" || return 0
	sh -c "echo \$\$ >$cg/cgroup.procs && exec \"$TRIGGER\" oom 64" >/dev/null 2>&1
	rmdir "$cg" 2>/dev/null
}
# a write with a flush to the md array (md_flush_request)
trigger_md() {
	[ -z "$mddev" ] || dd if=/dev/zero of="$mddev" bs=4096 count=1 seek=$(( round % 1000 )) conv=fsync 2>/dev/null
}
trigger_signal() {
	sleep 5 &
	kill $! 2>/dev/null
	wait 2>/dev/null
}
trigger_mount() {
	mkdir -p /tmp/corpus-mnt
	mount -t tmpfs corpus /tmp/corpus-mnt 2>/dev/null && umount /tmp/corpus-mnt
}
trigger_veth() {
	ping -c 1 -W 1 10.98.0.2 >/dev/null 2>&1
}
# a name looked up by libc's getaddrinfo, from a dynamic binary (openssl's s_client
# resolves the host it connects to; busybox is static: uprobes on libc never see it)
trigger_resolve() {
	openssl s_client -connect localhost:9 </dev/null >/dev/null 2>&1
}
# a TCP connection that uses the congestion control fx_ca (fixtures/fx_tcpca.bpf.o, registered by
# bpftool struct_ops register) and loses its ACKs until the retransmission timer fired: corpus-trigger
# tcploss, in a network namespace of its own, with fixtures/fx_lossy.bpf.o on its lo's egress (tc).
# fx_ca's init and cong_avoid run at the start, ssthresh on the timeout (and in the receiver's CWR),
# undo_cwnd when the DSACK of the retransmission shows the timeout was spurious. About 0.2 s.
# Should that fail, a plain connection over the guest's lo still runs init and cong_avoid.
trigger_tcpca() {
	"$TRIGGER" tcploss fx_ca "$FX/fx_lossy.bpf.o" >/dev/null 2>&1 && return 0
	old_ca=$(cat /proc/sys/net/ipv4/tcp_congestion_control)
	echo fx_ca >/proc/sys/net/ipv4/tcp_congestion_control 2>/dev/null || return 0
	trigger_tcp
	echo "$old_ca" >/proc/sys/net/ipv4/tcp_congestion_control
}
trigger_none() { :; }

# veth_pair: a fresh veth pair cpA-cpB, up, 10.98.0.1/24 on cpA (RESET of the iproute2 rows:
# a new pair has no XDP program, qdisc or filter)
veth_pair() {
	$IP link del cpA 2>/dev/null
	$IP link add cpA type veth peer name cpB && $IP link set cpA up && $IP link set cpB up &&
		$IP addr add 10.98.0.1/24 dev cpA
}

# --- the held part: run by the replay while it holds the objects -----------------------------
# sh corpus.sh --held D TRIGGERS: D/replay is the replay's report (its verify table is
# out before the command runs); writes D/ran: "ran N", "attached M", "notran ID..."
if [ "${1:-}" = --held ]; then
	d=$2 trig=$3
	# the programs the replay attached: link rows ("prog  slot N: id M") and netlink rows
	# ("attached  id M  id M  ok (at dev ...)")
	ids=$(awk '$3 == "prog" && $4 == "slot" && $6 == "id" { print $7 }
		   $3 == "attached" && $4 == "id" { print $5 }' "$d/replay" | sort -un)
	# freplace (ext) programs: the kernel counts their runs in the run_cnt of the program
	# whose function they replace (libxdp's dispatcher), not in theirs
	ext=
	for id in $ids; do
		bpftool prog show id "$id" 2>/dev/null | grep -q "^$id: ext " && ext="$ext $id"
	done
	[ -z "$ext" ] || ids=$(for id in $ids; do case " $ext " in *" $id "*) ;; *) echo "$id" ;; esac; done)
	# struct_ops programs have no link: those of a struct_ops map the replay made are the
	# struct_ops programs with an id above the highest before the replay ($d/maxprog)
	if grep -q '^ *[0-9]*  *map\.[^ ]*  *type  *struct_ops ' "$d/replay" && [ -s "$d/maxprog" ]; then
		ids=$( { echo "$ids"; bpftool prog show 2>/dev/null |
			awk -v max="$(cat "$d/maxprog")" -F: '$2 ~ /^ struct_ops / && $1 + 0 > max { print $1 }'; } |
			grep . | sort -un)
	fi
	echo 1 >/proc/sys/kernel/bpf_stats_enabled
	if [ -e /tmp/corpus.loopdev ]; then loopdev=$(cat /tmp/corpus.loopdev); fi
	if [ -e /tmp/corpus.ext4loop ]; then ext4loop=$(cat /tmp/corpus.ext4loop); fi
	if [ -e /tmp/corpus.devs ]; then . /tmp/corpus.devs; fi
	pending=$ids round=0 ran=0
	while [ -n "$pending" ] && [ $round -lt 10 ]; do
		trigger_common
		for t in $trig; do
			case $t in -) ;; *) "trigger_$t" ;; esac
		done
		left=
		for id in $pending; do
			cnt=$("$RUNCNT" "$id" 2>/dev/null | awk '{ print $2 }')
			if [ -n "$cnt" ] && [ "$cnt" -gt 0 ]; then ran=$((ran + 1)); else left="$left $id"; fi
		done
		pending=$left
		round=$((round + 1))
	done
	echo 0 >/proc/sys/kernel/bpf_stats_enabled
	{
		echo "ran $ran"
		echo "attached $(echo $ids | wc -w)"
		echo "rounds $round"
		echo "ext $(echo $ext | wc -w)"
		echo "notran$pending"
		# the programs not run, by name
		for id in $pending; do
			bpftool prog show id "$id" 2>/dev/null | sed -n '1s/^[0-9]*: *\([a-z_]*\) *name \([^ ]*\).*/notran_name \2 (\1)/p'
		done
	} >"$d/ran"
	exit 0
fi

# --- the runs -----------------------------------------------------------------------------
out=$1 list=$2
shift 2
only=" $* "
[ -d "$out" ] || mkdir -p "$out" || exit 1
[ -r "$list" ] || { echo "corpus: no list $list" >&2; exit 1; }
. "$root/tests/guest/record-lib.sh"
work=${TMPDIR:-/tmp}/corpus.$$
mkdir -p "$work" || exit 1
uname -r >"$out/guest-uname"
trim() { echo "$1" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//'; }

# the devices the triggers use, once: lo up, a loop device, an ext4 mount on another
$IP link set lo up 2>/dev/null
if dd if=/dev/zero of="$loopfile" bs=1M count=8 2>/dev/null; then
	for d in /dev/loop0 /dev/loop1 /dev/loop2 /dev/loop3; do
		losetup "$d" "$loopfile" 2>/dev/null && { loopdev=$d; break; }
	done
fi
echo "$loopdev" >/tmp/corpus.loopdev
mkdir -p "$ext4dir"
if dd if=/dev/zero of=/tmp/corpus.ext4 bs=1M count=8 2>/dev/null; then
	for d in /dev/loop1 /dev/loop2 /dev/loop3 /dev/loop4; do
		[ "$d" = "$loopdev" ] && continue
		losetup "$d" /tmp/corpus.ext4 2>/dev/null || continue
		# busybox makes ext2; the ext4 driver mounts it as ext4
		if mke2fs -q "$d" >/dev/null 2>&1 && mount -t ext4 "$d" "$ext4dir" 2>"$out/ext4.err"; then
			ext4loop=$d
		else
			losetup -d "$d"
		fi
		break
	done
fi
echo "$ext4loop" >/tmp/corpus.ext4loop

# the trigger words of the chosen rows: the devices only some triggers use are set up for them
wanted=$(while IFS='|' read -r name group cmd trig rest; do
		name=$(trim "$name")
		case "$name" in '' | '#'*) continue ;; esac
		[ "$only" = "  " ] || case "$only" in *" $name "*) ;; *) continue ;; esac
		echo "$trig"
	done <"$list" | tr ' ' '\n' | sort -u | tr '\n' ' ')
wants() { case " $wanted " in *" $1 "*) return 0 ;; esac; return 1; }
# attach_loop FILE: the first free loop device, set up on FILE
attach_loop() {
	for d in /dev/loop0 /dev/loop1 /dev/loop2 /dev/loop3 /dev/loop4 /dev/loop5 /dev/loop6 /dev/loop7; do
		losetup "$d" "$1" 2>/dev/null && { echo "$d"; return 0; }
	done
	return 1
}
# mkfs_mount FS SIZE DIR: a sparse file of SIZE, a loop device, mkfs.FS, mounted on DIR; the
# loop device, or nothing (OUT/FS.err says why)
mkfs_mount() {
	mkdir -p "$3" && truncate -s "$2" "/tmp/corpus.$1" && d=$(attach_loop "/tmp/corpus.$1") || return 0
	# -K: no discard of the whole device (a sparse file has nothing to discard)
	if "mkfs.$1" -q -f -K "$d" >"$out/$1.err" 2>&1 && mount -t "$1" "$d" "$3" 2>>"$out/$1.err"; then
		echo "$d"
	else
		losetup -d "$d"
	fi
}
if wants reclaim; then
	# larger than the guest's memory, sparse: reading it fills the page cache at no cost in tmpfs
	truncate -s 4G /tmp/corpus.cache && cacheloop=$(attach_loop /tmp/corpus.cache)
fi
wants xfs && xfsloop=$(mkfs_mount xfs 320M "$xfsdir")		# mkfs.xfs wants 300 MB at least
wants btrfs && btrfsloop=$(mkfs_mount btrfs 128M "$btrfsdir")
if wants md && [ -e /proc/mdstat ]; then
	truncate -s 16M /tmp/corpus.md0 /tmp/corpus.md1 &&
		mdloops="$(attach_loop /tmp/corpus.md0) $(attach_loop /tmp/corpus.md1)"
	# --assume-clean: no resync of the two halves; MDADM_NO_UDEV: mdadm makes /dev/md0 itself
	if [ "$(echo $mdloops | wc -w)" = 2 ] &&
		MDADM_NO_UDEV=1 mdadm --create /dev/md0 --run --level=1 --raid-devices=2 --assume-clean \
			$mdloops >"$out/md.err" 2>&1; then
		mddev=/dev/md0
	fi
fi
# uptime_cs: the seconds since boot, to the hundredth
uptime_cs() { cut -d' ' -f1 /proc/uptime; }
# nfs_setup: the kernel's NFS server (nfsd) exports the tmpfs $nfsexp to 127.0.0.1, and the
# kernel's NFS client mounts it on $nfsdir: NFSv3 over TCP, nolock (no lockd or statd calls),
# soft (an operation fails rather than hang the guest if the server is gone). rpcbind first
# (nfsd registers NFSv3 with it, and the client asks it for mountd's and nfsd's ports), then
# the export (exportfs -i: no /etc/exports; a tmpfs has no UUID: fsid=1), rpc.mountd (the
# MOUNT protocol, and the export cache the kernel asks of it), rpc.nfsd (one thread; -N 4:
# no NFSv4 grace period or client tracking, should a kernel have NFSD_V4). Busybox mount passes the options to the kernel,
# which does the MOUNT call itself. nfsup=1 when mounted; OUT/nfs.err says why not.
nfs_setup() {
	t0=$(uptime_cs)
	grep -q ' /proc/fs/nfsd ' /proc/mounts || mount -t nfsd nfsd /proc/fs/nfsd || return 0
	nfsd=1
	# exportfs and mountd read their tables before they write them
	mkdir -p /var/lib/nfs /run/rpcbind "$nfsexp" "$nfsdir" &&
		: >>/var/lib/nfs/etab && : >>/var/lib/nfs/rmtab &&
		mount -t tmpfs -o size=16m corpus-nfs "$nfsexp" || return 0
	rpcbind -f &
	rpcbindpid=$!
	i=0
	until rpcinfo -p 127.0.0.1 >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -lt 50 ] || { echo "rpcbind does not answer"; return 0; }
		sleep 0.1
	done
	exportfs -i -o rw,insecure,no_root_squash,no_subtree_check,fsid=1 "127.0.0.1:$nfsexp" || return 0
	rpc.mountd -F &
	mountdpid=$!
	rpc.nfsd -N 4 1 || return 0
	# the client asks rpcbind for MOUNT (100005), which mountd registers some time after it
	# started, and NFS (100003): a mount before that fails (EOPNOTSUPP)
	i=0
	until rpcinfo -p 127.0.0.1 2>/dev/null | awk '$1 == 100005 { m = 1 } $1 == 100003 { n = 1 }
			END { exit !(m && n) }'; do
		i=$((i + 1))
		[ $i -lt 100 ] || { echo "mountd or nfsd did not register:"; rpcinfo -p 127.0.0.1; return 0; }
		sleep 0.1
	done
	mount -t nfs -o vers=3,nolock,proto=tcp,mountproto=tcp,soft "127.0.0.1:$nfsexp" "$nfsdir" || return 0
	nfsup=1
	nfs_setup_s=$(awk -v a="$t0" -v b="$(uptime_cs)" 'BEGIN { printf "%.1f", b - a }')
}
# nfs_teardown: unmounted before the server stops (a mount whose server is gone waits for it)
nfs_teardown() {
	[ -z "$nfsup" ] || umount "$nfsdir"
	if [ -n "$nfsd" ]; then
		exportfs -ua
		rpc.nfsd 0
	fi
	for p in $mountdpid $rpcbindpid; do kill "$p" && wait "$p"; done
	grep -q " $nfsexp " /proc/mounts && umount "$nfsexp"
	[ -z "$nfsd" ] || umount /proc/fs/nfsd
}
wants nfs && nfs_setup >>"$out/nfs.err" 2>&1 </dev/null
{
	echo "nfsdir=$nfsdir nfsup=$nfsup"
	echo "cacheloop=$cacheloop"
	echo "xfsdir=$xfsdir xfsloop=$xfsloop"
	echo "btrfsdir=$btrfsdir btrfsloop=$btrfsloop"
	echo "mddev=$mddev"
} >/tmp/corpus.devs
echo "loopdev ${loopdev:-none}" >"$out/triggers"
echo "ext4 ${ext4loop:-none}" >>"$out/triggers"
for w in reclaim:cacheloop xfs:xfsloop btrfs:btrfsloop md:mddev; do
	wants "${w%%:*}" || continue
	eval "v=\$${w#*:}"
	echo "${w%%:*} ${v:-none}" >>"$out/triggers"
done
if wants nfs; then
	if [ -n "$nfsup" ]; then echo "nfs $nfsdir (set up in $nfs_setup_s s)"; else echo "nfs none"; fi >>"$out/triggers"
fi

val_of() { sed -n "s/^$2 //p" "$1" | head -n 1; }
# last_line FILE: its last non-empty line, one line, at most 200 characters
last_line() { grep -v '^[[:space:]]*$' "$1" 2>/dev/null | tail -n 1 | cut -c1-200; }
reset_state() { [ "$reset" = - ] || eval "$reset" >/dev/null 2>&1; }
# ok_status RC OUT ERR: a run that loaded: 0, or 130 (our SIGINT) after a first line of
# output; but exit 0 with nothing on stdout and an error on stderr did not (biotop and
# llcstat exit 0 when they fail to attach; ip, tc and bpftool print nothing when they succeed)
ok_status() {
	case "$1" in
	0) [ -s "$2" ] || [ ! -s "$3" ] ;;
	130) [ -s "$2" ] ;;
	*) false ;;
	esac
}

# diff_counts RES: "CMD strace N, recorded M" for each command whose counts differ
diff_counts() {
	awk '$1 == "rec_counts" || $1 == "st_counts" {
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			if ($1 == "rec_counts") r[kv[1]] = kv[2]; else s[kv[1]] = kv[2]
			seen[kv[1]] = 1
		}
	}
	END {
		for (c in seen)
			if (r[c] + 0 != s[c] + 0)
				out = out sprintf("%s%s strace %d, recorded %d", out == "" ? "" : ", ", c, s[c], r[c])
		print out
	}' "$1"
}

run_one() {
	d=$work/$name
	rm -rf "$d"
	mkdir -p "$d"
	res=$out/$name.res
	: >"$res"
	echo "group $group" >>"$res"
	start=$(date +%s)

	# 1. bare
	reset_state
	eval "$cmd" >"$d/bare.out" 2>"$d/bare.err" </dev/null
	rc=$?
	echo "bare_rc $rc" >>"$res"
	if ok_status "$rc" "$d/bare.out" "$d/bare.err"; then
		echo "bare loaded" >>"$res"
	else
		echo "bare no" >>"$res"
		why=$(last_line "$d/bare.err")
		[ -n "$why" ] || why="exit $rc, nothing on stderr"
		echo "bare_why $why" >>"$res"
		return
	fi

	# 2. record
	reset_state
	eval "\"\$BPFRR\" record -o \"\$d/trace\" -- $cmd" >"$d/rec.out" 2>"$d/rec.err" </dev/null
	rc=$?
	echo "record_rc $rc" >>"$res"
	if ! ok_status "$rc" "$d/rec.out" "$d/rec.err" || [ ! -s "$d/trace" ]; then
		echo "record_why $(last_line "$d/rec.err")" >>"$res"
		return
	fi

	# 3. the dump's calls against strace's
	if "$BPFRR" dump --json "$d/trace" >"$d/dump.json" 2>"$d/dump.err"; then
		dump_calls "$d/dump.json" >"$d/rec.calls"
		rm -f "$d/dump.json"
		reset_state
		eval "strace -f -qq -v -e trace=bpf,perf_event_open -o \"\$d/st\" $cmd" >"$d/st.out" 2>"$d/st.err" </dev/null
		rc=$?
		strace_calls "$d/st" >"$d/st.calls"
		echo "strace_rc $rc" >>"$res"
		echo "rec_counts $(awk '{ n[$1]++ } END { for (c in n) print c "=" n[c] }' "$d/rec.calls" | sort | tr '\n' ' ')" >>"$res"
		echo "st_counts $(awk '{ n[$1]++ } END { for (c in n) print c "=" n[c] }' "$d/st.calls" | sort | tr '\n' ' ')" >>"$res"
		echo "calls $(wc -l <"$d/rec.calls")" >>"$res"
		if ! ok_status "$rc" "$d/st.out" "$d/st.err"; then
			echo "strace failed" >>"$res"
			why=$(last_line "$d/st.err")
			[ -n "$why" ] || [ "$rc" != 130 ] || why="our SIGINT came before its first line (slower under strace)"
			echo "strace_why strace exited $rc: $why" >>"$res"
		elif grep -q '^unparsed' "$d/st.calls"; then
			echo "strace differs" >>"$res"
			echo "strace_why $(grep -c '^unparsed' "$d/st.calls") strace lines not read: $(grep -m1 '^unparsed' "$d/st.calls" | cut -c1-120)" >>"$res"
		elif [ ! -s "$d/rec.calls" ]; then
			echo "strace differs" >>"$res"
			echo "strace_why no bpf() call in the dump" >>"$res"
		elif cmp -s "$d/st.calls" "$d/rec.calls"; then
			echo "strace equal" >>"$res"
		else
			without_late_reads "$d/st.calls" >"$d/st.setup"
			without_late_reads "$d/rec.calls" >"$d/rec.setup"
			if cmp -s "$d/st.setup" "$d/rec.setup"; then
				echo "strace late" >>"$res"
			else
				diff -U0 "$d/st.calls" "$d/rec.calls" >"$d/calls.diff"
				echo "strace differs" >>"$res"
				# the commands whose counts differ, else the first line that does
				counts=$(diff_counts "$res")
				[ -n "$counts" ] || counts="same counts; first difference: $(grep -m1 '^[-+][^-+]' "$d/calls.diff" | cut -c1-140)"
				echo "strace_why $(grep -c '^-[^-]' "$d/calls.diff") strace-only, $(grep -c '^+[^+]' "$d/calls.diff") record-only lines; $counts" >>"$res"
			fi
		fi
	else
		echo "strace failed" >>"$res"
		echo "strace_why bpfrr dump --json failed: $(last_line "$d/dump.err")" >>"$res"
	fi

	# 4. translate
	timeout -s KILL 120 "$BPFRR" translate --explain -o "$d/bundle" "$d/trace" >"$d/explain" 2>"$d/translate.err"
	rc=$?
	echo "translate_rc $rc" >>"$res"
	if [ "$rc" != 0 ] || [ ! -s "$d/bundle" ]; then
		echo "translate_why $(last_line "$d/translate.err")" >>"$res"
		return
	fi
	echo "translate_summary $(tail -n 1 "$d/explain")" >>"$res"

	# 5. replay, verified, its attached programs run by the triggers
	reset_state
	maxprog=$(bpftool prog show 2>/dev/null | sed -n 's/^\([0-9][0-9]*\): .*/\1/p' | sort -n | tail -n 1)
	echo "${maxprog:-0}" >"$d/maxprog"
	timeout -s KILL 300 "$BPFRR" replay --verify "$d/bundle" -- sh "$me" --held "$d" "$trig" \
		>"$d/replay" 2>"$d/replay.err"
	rc=$?
	echo "replay_rc $rc" >>"$res"
	line=$(grep -m1 '^verify: [0-9]* checks,' "$d/replay")
	if [ -z "$line" ]; then
		echo "replay_why $(last_line "$d/replay.err")" >>"$res"
	else
		echo "$line" | awk '{ print "checks " $2; print "mismatches " $4; print "unchecked " $6 }' >>"$res"
		grep '  mismatch$' "$d/replay" | head -n 3 | sed 's/^ */mismatch_row /; s/  */ /g' >>"$res"
	fi
	sed -n 's/^replay: [0-9]* calls: \([0-9]*\) in kernel.*, \([0-9]*\) in user space.*/kernel_calls \1 user_calls \2/p' "$d/replay" |
		awk '{ print $1, $2; print $3, $4 }' >>"$res"
	# why the calls made from user space are there (the plan says it of each)
	if [ "$(val_of "$res" user_calls)" != 0 ] && [ -n "$(val_of "$res" user_calls)" ]; then
		"$BPFRR" replay --plan --json "$d/bundle" 2>/dev/null | grep -o '"why_user":"[^"]*"' |
			sed 's/^"why_user":"//; s/"$//' | sort | uniq -c |
			awk '{ n = $1; $1 = ""; sub(/^ /, ""); print "user_why " n "x " $0 }' >>"$res"
	fi
	[ -f "$d/ran" ] && cat "$d/ran" >>"$res"
}

while IFS='|' read -r name group cmd trig reset note; do
	name=$(trim "$name")
	case "$name" in '' | '#'*) continue ;; esac
	[ "$only" = "  " ] || case "$only" in *" $name "*) ;; *) continue ;; esac
	group=$(trim "$group") cmd=$(trim "$cmd") trig=$(trim "$trig") reset=$(trim "$reset")
	[ -n "$trig" ] || trig=-
	[ -n "$reset" ] || reset=-
	echo "corpus: $name" >&2
	t0=$(date +%s)
	run_one </dev/null
	reset_state
	echo "seconds $(( $(date +%s) - t0 ))" >>"$out/$name.res"
	echo "done 1" >>"$out/$name.res"
	# the files of this loader, for --keep (the trace included; its bundle is made again
	# from it by bpfrr translate)
	rm -f "$work/$name/bundle"
	mkdir -p "$out/$name" && cp "$work/$name"/* "$out/$name/" 2>/dev/null
	rm -rf "$work/$name"
done <"$list"

nfs_teardown >>"$out/nfs.err" 2>&1
[ -z "$ext4loop" ] || { umount "$ext4dir"; losetup -d "$ext4loop"; }
[ -z "$loopdev" ] || losetup -d "$loopdev"
[ -z "$xfsloop" ] || { umount "$xfsdir"; losetup -d "$xfsloop"; }
[ -z "$btrfsloop" ] || { umount "$btrfsdir"; losetup -d "$btrfsloop"; }
# /dev/md0 holds the two loop devices also when mdadm --create failed to run it
[ -z "$mdloops" ] || mdadm --stop /dev/md0 >/dev/null 2>&1
for d in $cacheloop $mdloops; do losetup -d "$d"; done
rm -rf "$work" "$loopfile" /tmp/corpus.ext4 /tmp/corpus.loopdev /tmp/corpus.ext4loop /tmp/corpus.devs \
	/tmp/corpus.cache /tmp/corpus.xfs /tmp/corpus.btrfs /tmp/corpus.md0 /tmp/corpus.md1
# rmdir: an NFS mount left behind is not emptied through the client
rmdir "$nfsdir" "$nfsexp" 2>/dev/null
echo "corpus: done" >&2

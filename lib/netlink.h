/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * netlink.h - what an rtnetlink request a loader sends says about BPF:
 * the one decoder of the messages the recorder captures (sendmsg, sendto
 * on a NETLINK_ROUTE socket), for the recorder (which fds and devices a
 * message names), bpfrr dump (text and JSON) and the translator (what a
 * message does: a read, an attachment, a detachment, a hook it needs).
 *
 * iproute2 attaches BPF programs without bpf(): `ip link set dev D xdp obj
 * F` sends RTM_NEWLINK (or RTM_SETLINK) with the nested IFLA_XDP
 * (IFLA_XDP_FD, IFLA_XDP_FLAGS), `tc filter add ... bpf obj F` sends
 * RTM_NEWTFILTER with TCA_KIND "bpf" and TCA_OPTIONS (TCA_BPF_FD,
 * TCA_BPF_NAME, TCA_BPF_FLAGS) on a clsact qdisc `tc qdisc add dev D
 * clsact` made with RTM_NEWQDISC.  libbpf's bpf_xdp_attach() and
 * bpf_tc_attach() send the same.
 *
 * The values are the kernel's UAPI numbers (<linux/rtnetlink.h>,
 * <linux/if_link.h>, <linux/pkt_cls.h>, <linux/pkt_sched.h>), written out
 * so that no reader depends on the build machine's headers (the unit test
 * compares them); little-endian, as both architectures the recorder runs on.
 */
#ifndef BPFRR_NETLINK_H
#define BPFRR_NETLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* message types (RTM_*) the decoder names */
enum bpfrr_nl_type {
	BPFRR_RTM_NEWLINK = 16,
	BPFRR_RTM_DELLINK = 17,
	BPFRR_RTM_GETLINK = 18,
	BPFRR_RTM_SETLINK = 19,
	BPFRR_RTM_NEWQDISC = 36,
	BPFRR_RTM_DELQDISC = 37,
	BPFRR_RTM_GETQDISC = 38,
	BPFRR_RTM_NEWTFILTER = 44,
	BPFRR_RTM_DELTFILTER = 45,
	BPFRR_RTM_GETTFILTER = 46,
};

#define BPFRR_NLMSG_HDRLEN	16	/* struct nlmsghdr */
#define BPFRR_IFINFOMSG_LEN	16	/* struct ifinfomsg: family, pad, type, index, flags, change */
#define BPFRR_TCMSG_LEN		20	/* struct tcmsg: family, pads, ifindex, handle, parent, info */

/* attributes */
#define BPFRR_IFLA_IFNAME	3
#define BPFRR_IFLA_XDP		43
#define BPFRR_IFLA_XDP_FD	1
#define BPFRR_IFLA_XDP_ATTACHED	2
#define BPFRR_IFLA_XDP_FLAGS	3
#define BPFRR_IFLA_XDP_PROG_ID	4
#define BPFRR_IFLA_XDP_DRV_PROG_ID	5
#define BPFRR_IFLA_XDP_SKB_PROG_ID	6
#define BPFRR_IFLA_XDP_EXPECTED_FD 8
#define BPFRR_TCA_KIND		1
#define BPFRR_TCA_OPTIONS	2
#define BPFRR_TCA_BPF_CLASSID	3
#define BPFRR_TCA_BPF_FD	6
#define BPFRR_TCA_BPF_NAME	7
#define BPFRR_TCA_BPF_FLAGS	8
#define BPFRR_TCA_BPF_FLAGS_GEN	9
#define BPFRR_TCA_BPF_ID	11

/* XDP_FLAGS_* */
#define BPFRR_XDP_FLAGS_UPDATE_IF_NOEXIST	0x1
#define BPFRR_XDP_FLAGS_SKB_MODE		0x2
#define BPFRR_XDP_FLAGS_DRV_MODE		0x4
#define BPFRR_XDP_FLAGS_HW_MODE			0x8
#define BPFRR_XDP_FLAGS_REPLACE			0x10
/* TCA_BPF_FLAG_ACT_DIRECT */
#define BPFRR_TCA_BPF_FLAG_ACT_DIRECT		0x1
/* TC_H_CLSACT == TC_H_INGRESS, and the minor numbers of its two hooks */
#define BPFRR_TC_H_CLSACT			0xfffffff1u
#define BPFRR_TC_H_MIN_INGRESS			0xfff2u
#define BPFRR_TC_H_MIN_EGRESS			0xfff3u

/* What a message does to BPF state. */
enum bpfrr_nl_effect {
	BPFRR_NL_READ = 1,	/* a GET request (a dump, a lookup): changes nothing */
	BPFRR_NL_ATTACH,	/* attaches the program whose fd it carries (IFLA_XDP_FD >= 0, TCA_BPF_FD) */
	BPFRR_NL_DETACH,	/* detaches one (IFLA_XDP_FD -1, RTM_DELTFILTER, RTM_DELQDISC of clsact) */
	BPFRR_NL_HOOK,		/* makes the hook an attachment needs (RTM_NEWQDISC clsact / ingress) */
	BPFRR_NL_OTHER,		/* a network change without BPF (ip link set up, an address, ...) */
};

#define BPFRR_NL_MAX_FDS	2

/* An fd a message carries, and where. */
struct bpfrr_nl_fd {
	uint32_t off;		/* byte offset of its s32 in the whole buffer */
	int32_t fd;
	const char *attr;	/* "IFLA_XDP_FD", "IFLA_XDP_EXPECTED_FD", "TCA_BPF_FD" */
};

/* One message of a buffer, decoded. */
struct bpfrr_nl_msg {
	uint32_t off, len;	/* where it is in the buffer (nlmsg_len, clamped to the buffer) */
	uint16_t type, flags;	/* nlmsg_type, nlmsg_flags */
	uint32_t seq;
	uint8_t effect;		/* enum bpfrr_nl_effect */
	bool truncated;		/* nlmsg_len beyond the buffer, or the family header cut short */
	/* ifinfomsg / tcmsg */
	bool has_ifindex;
	int32_t ifindex;
	uint32_t ifindex_off;	/* byte offset of ifi_index / tcm_ifindex in the buffer */
	/* link: IFLA_XDP */
	bool has_xdp, has_xdp_flags;
	int32_t xdp_fd;		/* -1 when absent (no IFLA_XDP_FD) */
	uint32_t xdp_flags;
	uint32_t xdp_flags_off;	/* byte offset of IFLA_XDP_FLAGS's value in the buffer, 0: none */
	/* in the kernel's answers (RTM_NEWLINK of a RTM_GETLINK): the attached programs' ids, 0: none */
	uint32_t xdp_prog_id, xdp_drv_prog_id, xdp_skb_prog_id;
	/* tc: tcmsg and TCA_KIND, TCA_OPTIONS of the bpf classifier */
	uint32_t tc_handle, tc_parent, tc_info;	/* tc_info: priority << 16 | protocol (big-endian) */
	char tc_kind[16];	/* "" when absent */
	bool has_bpf;		/* TCA_OPTIONS of kind "bpf" */
	int32_t bpf_fd;		/* -1 when absent */
	uint32_t bpf_flags, bpf_flags_gen, bpf_classid;
	char bpf_name[64];	/* TCA_BPF_NAME, "" when absent */
	uint32_t bpf_prog_id;	/* TCA_BPF_ID in the kernel's answers (a filter dump), 0: none */
	struct bpfrr_nl_fd fds[BPFRR_NL_MAX_FDS];
	uint32_t nr_fds;
};

/*
 * The messages of buf (len bytes), at most max of them into msgs; returns how
 * many the buffer holds (which may exceed max), or -1 when it does not start
 * with a well-formed header.  Attributes beyond the buffer are ignored;
 * nothing is read outside buf.
 */
int bpfrr_nl_decode(const void *buf, size_t len, struct bpfrr_nl_msg *msgs, unsigned int max);

/*
 * The request that undoes message msg (len bytes: one whole message, as sent,
 * its fds and ifindex those of the replay) into out (size bytes): an XDP
 * attachment's detachment (the same RTM_NEWLINK with IFLA_XDP_FD -1 and the
 * same mode, no REPLACE / UPDATE_IF_NOEXIST), a bpf filter's RTM_DELTFILTER
 * (same device, parent, priority, protocol, handle, kind), a clsact or
 * ingress qdisc's RTM_DELQDISC.  Returns its length, 0 when msg undoes
 * nothing (a read, a detachment), -1 when out is too small or msg is not one
 * whole message.
 */
int bpfrr_nl_undo(const void *msg, size_t len, uint8_t *out, size_t size);

/* "RTM_NEWLINK", or NULL for a type the decoder does not name */
const char *bpfrr_nl_type_name(uint16_t type);
/* "read", "attach", "detach", "hook", "other"; NULL if unknown */
const char *bpfrr_nl_effect_name(unsigned int effect);
/* "skb", "drv", "hw" or "" (driver's choice) of XDP flags */
const char *bpfrr_nl_xdp_mode(uint32_t flags);
/* NLM_F_* of a request as "REQUEST|ACK|CREATE|EXCL"; 0 as "0" */
void bpfrr_nl_flags_string(uint16_t type, uint16_t flags, char *buf, size_t size);
/* tc's parent: "ingress", "egress", "root", "clsact", else "MAJ:MIN" (hex) */
void bpfrr_nl_tc_parent_string(uint32_t parent, char *buf, size_t size);
/* tc_info's priority and protocol (host order: ETH_P_ALL is 3) */
uint16_t bpfrr_nl_tc_prio(uint32_t info);
uint16_t bpfrr_nl_tc_proto(uint32_t info);

#endif /* BPFRR_NETLINK_H */

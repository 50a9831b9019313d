// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rtnetlink decoder (lib/netlink.h): its numbers against the UAPI
 * headers, and the requests iproute2 sends to attach BPF programs, built
 * here as ip and tc build them, decoded: the program fd and where it is,
 * the device, the hook, what each message does; cut-short and crafted
 * buffers read nothing outside themselves (ASan says).
 */
#include <check.h>
#include <linux/if_link.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "netlink.h"

START_TEST(test_numbers)
{
	ck_assert_int_eq(BPFRR_RTM_NEWLINK, RTM_NEWLINK);
	ck_assert_int_eq(BPFRR_RTM_SETLINK, RTM_SETLINK);
	ck_assert_int_eq(BPFRR_RTM_NEWQDISC, RTM_NEWQDISC);
	ck_assert_int_eq(BPFRR_RTM_DELQDISC, RTM_DELQDISC);
	ck_assert_int_eq(BPFRR_RTM_NEWTFILTER, RTM_NEWTFILTER);
	ck_assert_int_eq(BPFRR_RTM_DELTFILTER, RTM_DELTFILTER);
	ck_assert_int_eq(BPFRR_NLMSG_HDRLEN, sizeof(struct nlmsghdr));
	ck_assert_int_eq(BPFRR_IFINFOMSG_LEN, sizeof(struct ifinfomsg));
	ck_assert_int_eq(BPFRR_TCMSG_LEN, sizeof(struct tcmsg));
	ck_assert_int_eq(BPFRR_IFLA_XDP, IFLA_XDP);
	ck_assert_int_eq(BPFRR_IFLA_XDP_FD, IFLA_XDP_FD);
	ck_assert_int_eq(BPFRR_IFLA_XDP_FLAGS, IFLA_XDP_FLAGS);
	ck_assert_int_eq(BPFRR_IFLA_XDP_PROG_ID, IFLA_XDP_PROG_ID);
	ck_assert_int_eq(BPFRR_IFLA_XDP_EXPECTED_FD, IFLA_XDP_EXPECTED_FD);
	ck_assert_int_eq(BPFRR_IFLA_XDP_DRV_PROG_ID, IFLA_XDP_DRV_PROG_ID);
	ck_assert_int_eq(BPFRR_IFLA_XDP_SKB_PROG_ID, IFLA_XDP_SKB_PROG_ID);
	ck_assert_int_eq(BPFRR_TCA_BPF_ID, TCA_BPF_ID);
	ck_assert_int_eq(BPFRR_TCA_KIND, TCA_KIND);
	ck_assert_int_eq(BPFRR_TCA_OPTIONS, TCA_OPTIONS);
	ck_assert_int_eq(BPFRR_TCA_BPF_FD, TCA_BPF_FD);
	ck_assert_int_eq(BPFRR_TCA_BPF_NAME, TCA_BPF_NAME);
	ck_assert_int_eq(BPFRR_TCA_BPF_FLAGS, TCA_BPF_FLAGS);
	ck_assert_int_eq(BPFRR_TCA_BPF_FLAGS_GEN, TCA_BPF_FLAGS_GEN);
	ck_assert_int_eq(BPFRR_TCA_BPF_CLASSID, TCA_BPF_CLASSID);
	ck_assert_int_eq(BPFRR_TCA_BPF_FLAG_ACT_DIRECT, TCA_BPF_FLAG_ACT_DIRECT);
	ck_assert_int_eq(BPFRR_XDP_FLAGS_SKB_MODE, XDP_FLAGS_SKB_MODE);
	ck_assert_int_eq(BPFRR_XDP_FLAGS_DRV_MODE, XDP_FLAGS_DRV_MODE);
	ck_assert_int_eq(BPFRR_XDP_FLAGS_UPDATE_IF_NOEXIST, XDP_FLAGS_UPDATE_IF_NOEXIST);
	ck_assert_uint_eq(BPFRR_TC_H_CLSACT, TC_H_CLSACT);
	ck_assert_uint_eq(BPFRR_TC_H_MIN_INGRESS, TC_H_MIN_INGRESS);
	ck_assert_uint_eq(BPFRR_TC_H_MIN_EGRESS, TC_H_MIN_EGRESS);
}
END_TEST

/* a message built as iproute2's addattr_l() builds them */
struct msg {
	uint8_t buf[512];
	size_t len;
};

static void *put(struct msg *m, const void *data, size_t len)
{
	void *at = m->buf + m->len;

	memcpy(at, data, len);
	m->len += (len + 3) & ~3u;
	return at;
}

static struct rtattr *attr(struct msg *m, uint16_t type, const void *data, size_t len)
{
	struct rtattr rta = { .rta_len = (unsigned short)RTA_LENGTH(len), .rta_type = type };
	struct rtattr *at = put(m, &rta, sizeof(rta));

	if (len)
		put(m, data, len);
	return at;
}

static void nest_end(struct msg *m, struct rtattr *nest)
{
	nest->rta_len = (unsigned short)(m->buf + m->len - (uint8_t *)nest);
}

static void finish(struct msg *m)
{
	uint32_t len = (uint32_t)m->len;

	memcpy(m->buf, &len, 4);
}

START_TEST(test_xdp_attach)
{
	struct nlmsghdr h = { .nlmsg_type = RTM_NEWLINK, .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK, .nlmsg_seq = 7 };
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = 3 };
	struct bpfrr_nl_msg out[2];
	struct msg m = { .len = 0 };
	struct rtattr *xdp;
	int32_t fd = 5;
	uint32_t flags = XDP_FLAGS_SKB_MODE;
	uint8_t *fd_at;
	char flagstr[64];

	put(&m, &h, sizeof(h));
	put(&m, &ifi, sizeof(ifi));
	xdp = attr(&m, IFLA_XDP | NLA_F_NESTED, NULL, 0);
	attr(&m, IFLA_XDP_FD, &fd, 4);
	fd_at = m.buf + m.len - 4;
	attr(&m, IFLA_XDP_FLAGS, &flags, 4);
	nest_end(&m, xdp);
	finish(&m);

	ck_assert_int_eq(bpfrr_nl_decode(m.buf, m.len, out, 2), 1);
	ck_assert_str_eq(bpfrr_nl_type_name(out[0].type), "RTM_NEWLINK");
	ck_assert_uint_eq(out[0].seq, 7);
	ck_assert(out[0].has_ifindex);
	ck_assert_int_eq(out[0].ifindex, 3);
	ck_assert_uint_eq(out[0].ifindex_off, 16 + 4);
	ck_assert(out[0].has_xdp && out[0].has_xdp_flags);
	ck_assert_int_eq(out[0].xdp_fd, 5);
	ck_assert_str_eq(bpfrr_nl_xdp_mode(out[0].xdp_flags), "skb");
	ck_assert_int_eq(out[0].effect, BPFRR_NL_ATTACH);
	ck_assert_uint_eq(out[0].nr_fds, 1);
	ck_assert_uint_eq(out[0].fds[0].off, (uint32_t)(fd_at - m.buf));
	ck_assert_str_eq(out[0].fds[0].attr, "IFLA_XDP_FD");
	bpfrr_nl_flags_string(out[0].type, out[0].flags, flagstr, sizeof(flagstr));
	ck_assert_str_eq(flagstr, "REQUEST|ACK");

	/* its undo: the same request with fd -1, the mode kept */
	{
		uint8_t undo[512];
		int n = bpfrr_nl_undo(m.buf, m.len, undo, sizeof(undo));

		ck_assert_int_eq(n, (int)m.len);
		ck_assert_int_eq(bpfrr_nl_decode(undo, (size_t)n, out, 2), 1);
		ck_assert_int_eq(out[0].effect, BPFRR_NL_DETACH);
		ck_assert_int_eq(out[0].ifindex, 3);
		ck_assert_uint_eq(out[0].xdp_flags, XDP_FLAGS_SKB_MODE);
		ck_assert_int_eq(bpfrr_nl_undo(m.buf, m.len, undo, 8), -1);
	}

	/* `ip link set dev D xdp off`: the same with fd -1 */
	fd = -1;
	memcpy(fd_at, &fd, 4);
	ck_assert_int_eq(bpfrr_nl_decode(m.buf, m.len, out, 2), 1);
	ck_assert_int_eq(out[0].effect, BPFRR_NL_DETACH);
	ck_assert_int_eq(out[0].xdp_fd, -1);

	/* every cut of it: no read beyond the buffer (ASan), never an attach with a fd not in it */
	for (size_t cut = 0; cut < m.len; cut++) {
		uint8_t *copy = malloc(cut ? cut : 1);
		int n;

		memcpy(copy, m.buf, cut);
		n = bpfrr_nl_decode(copy, cut, out, 2);
		ck_assert(n <= 1);
		if (n == 1)
			ck_assert(out[0].nr_fds == 0 || out[0].fds[0].off + 4 <= cut);
		free(copy);
	}
}
END_TEST

START_TEST(test_tc_filter)
{
	struct nlmsghdr h = { .nlmsg_type = RTM_NEWTFILTER,
			      .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_EXCL | NLM_F_CREATE };
	struct tcmsg tc = { .tcm_family = AF_UNSPEC, .tcm_ifindex = 4,
			    .tcm_parent = TC_H_MAKE(TC_H_CLSACT, TC_H_MIN_INGRESS),
			    .tcm_info = TC_H_MAKE(49152u << 16, 0x0300) };	/* prio 49152, htons(ETH_P_ALL) */
	struct bpfrr_nl_msg out[2];
	struct msg m = { .len = 0 };
	struct rtattr *opts;
	int32_t fd = 6;
	uint32_t flags = TCA_BPF_FLAG_ACT_DIRECT;
	char parent[32];

	put(&m, &h, sizeof(h));
	put(&m, &tc, sizeof(tc));
	attr(&m, TCA_KIND, "bpf", 4);
	opts = attr(&m, TCA_OPTIONS | NLA_F_NESTED, NULL, 0);
	attr(&m, TCA_BPF_FD, &fd, 4);
	attr(&m, TCA_BPF_NAME, "fx_netlink.bpf.o:[tc]", 22);
	attr(&m, TCA_BPF_FLAGS, &flags, 4);
	nest_end(&m, opts);
	finish(&m);

	ck_assert_int_eq(bpfrr_nl_decode(m.buf, m.len, out, 2), 1);
	ck_assert_int_eq(out[0].effect, BPFRR_NL_ATTACH);
	ck_assert_int_eq(out[0].ifindex, 4);
	ck_assert_str_eq(out[0].tc_kind, "bpf");
	ck_assert(out[0].has_bpf);
	ck_assert_int_eq(out[0].bpf_fd, 6);
	ck_assert_str_eq(out[0].bpf_name, "fx_netlink.bpf.o:[tc]");
	ck_assert_uint_eq(out[0].bpf_flags, TCA_BPF_FLAG_ACT_DIRECT);
	ck_assert_uint_eq(bpfrr_nl_tc_prio(out[0].tc_info), 49152);
	ck_assert_uint_eq(bpfrr_nl_tc_proto(out[0].tc_info), 3);
	bpfrr_nl_tc_parent_string(out[0].tc_parent, parent, sizeof(parent));
	ck_assert_str_eq(parent, "ingress");
	ck_assert_str_eq(out[0].fds[0].attr, "TCA_BPF_FD");
	/* its undo: RTM_DELTFILTER of the same device, parent, priority, protocol, kind */
	{
		uint8_t undo[512];
		int n = bpfrr_nl_undo(m.buf, m.len, undo, sizeof(undo));

		ck_assert_int_gt(n, 0);
		ck_assert_int_eq(bpfrr_nl_decode(undo, (size_t)n, out, 2), 1);
		ck_assert_int_eq(out[0].type, RTM_DELTFILTER);
		ck_assert_int_eq(out[0].effect, BPFRR_NL_DETACH);
		ck_assert_int_eq(out[0].ifindex, 4);
		ck_assert_uint_eq(bpfrr_nl_tc_prio(out[0].tc_info), 49152);
		ck_assert_str_eq(out[0].tc_kind, "bpf");
		ck_assert_uint_eq(out[0].nr_fds, 0);
	}
}
END_TEST

START_TEST(test_qdisc_and_reads)
{
	struct nlmsghdr h = { .nlmsg_type = RTM_NEWQDISC, .nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL };
	struct tcmsg tc = { .tcm_ifindex = 4, .tcm_parent = TC_H_CLSACT, .tcm_handle = TC_H_MAKE(TC_H_CLSACT, 0) };
	struct nlmsghdr get = { .nlmsg_len = sizeof(struct nlmsghdr) + sizeof(struct ifinfomsg),
				.nlmsg_type = RTM_GETLINK, .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP };
	struct ifinfomsg ifi = { 0 };
	struct bpfrr_nl_msg out[4];
	struct msg m = { .len = 0 };
	size_t first;

	put(&m, &h, sizeof(h));
	put(&m, &tc, sizeof(tc));
	attr(&m, TCA_KIND, "clsact", 7);
	finish(&m);
	first = m.len;
	/* a second message in the same datagram: a dump request */
	put(&m, &get, sizeof(get));
	put(&m, &ifi, sizeof(ifi));
	ck_assert_int_eq(bpfrr_nl_decode(m.buf, m.len, out, 4), 2);
	ck_assert_int_eq(out[0].effect, BPFRR_NL_HOOK);
	ck_assert_str_eq(out[0].tc_kind, "clsact");
	{
		uint8_t undo[512];
		int n = bpfrr_nl_undo(m.buf, first, undo, sizeof(undo));
		struct bpfrr_nl_msg u;

		ck_assert_int_gt(n, 0);
		ck_assert_int_eq(bpfrr_nl_decode(undo, (size_t)n, &u, 1), 1);
		ck_assert_int_eq(u.type, RTM_DELQDISC);
		ck_assert_int_eq(u.effect, BPFRR_NL_DETACH);
		ck_assert_str_eq(u.tc_kind, "clsact");
		/* a read undoes nothing; two messages are not one */
		ck_assert_int_eq(bpfrr_nl_undo(m.buf + first, m.len - first, undo, sizeof(undo)), 0);
		ck_assert_int_eq(bpfrr_nl_undo(m.buf, m.len, undo, sizeof(undo)), -1);
	}
	ck_assert_uint_eq(out[1].off, first);
	ck_assert_int_eq(out[1].effect, BPFRR_NL_READ);
	ck_assert_uint_eq(out[0].nr_fds + out[1].nr_fds, 0);
	/* max 1: the count says there are two */
	ck_assert_int_eq(bpfrr_nl_decode(m.buf, m.len, out, 1), 2);
	/* not a header */
	ck_assert_int_eq(bpfrr_nl_decode(m.buf, 8, out, 4), -1);
	ck_assert_int_eq(bpfrr_nl_decode(NULL, 0, out, 4), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("netlink");
	TCase *tc = tcase_create("decode");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_numbers);
	tcase_add_test(tc, test_xdp_attach);
	tcase_add_test(tc, test_tc_filter);
	tcase_add_test(tc, test_qdisc_and_reads);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

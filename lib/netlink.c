// SPDX-License-Identifier: GPL-2.0-only
/*
 * netlink.c - rtnetlink requests as BPF sees them (netlink.h): which
 * program fd a message carries, on which device, hook and priority.
 *
 * Every read is bounds-checked against the buffer: the bytes come from a
 * trace, which may be crafted.
 */
#include <stdio.h>
#include <string.h>

#include "bytes.h"
#include "netlink.h"

#define ALIGN4(x)		(((x) + 3u) & ~3u)
#define NLA_HDRLEN		4u
#define NLA_TYPE_MASK		0x3fffu		/* without NLA_F_NESTED, NLA_F_NET_BYTEORDER */
#define NLM_F_REQUEST		0x1
#define NLM_F_MULTI		0x2
#define NLM_F_ACK		0x4
#define NLM_F_ECHO		0x8
/* GET requests */
#define NLM_F_ROOT		0x100
#define NLM_F_MATCH		0x200
/* NEW requests */
#define NLM_F_REPLACE		0x100
#define NLM_F_EXCL		0x200
#define NLM_F_CREATE		0x400
#define NLM_F_APPEND		0x800

const char *bpfrr_nl_type_name(uint16_t type)
{
	switch (type) {
	case BPFRR_RTM_NEWLINK: return "RTM_NEWLINK";
	case BPFRR_RTM_DELLINK: return "RTM_DELLINK";
	case BPFRR_RTM_GETLINK: return "RTM_GETLINK";
	case BPFRR_RTM_SETLINK: return "RTM_SETLINK";
	case BPFRR_RTM_NEWQDISC: return "RTM_NEWQDISC";
	case BPFRR_RTM_DELQDISC: return "RTM_DELQDISC";
	case BPFRR_RTM_GETQDISC: return "RTM_GETQDISC";
	case BPFRR_RTM_NEWTFILTER: return "RTM_NEWTFILTER";
	case BPFRR_RTM_DELTFILTER: return "RTM_DELTFILTER";
	case BPFRR_RTM_GETTFILTER: return "RTM_GETTFILTER";
	}
	return NULL;
}

const char *bpfrr_nl_effect_name(unsigned int effect)
{
	switch (effect) {
	case BPFRR_NL_READ: return "read";
	case BPFRR_NL_ATTACH: return "attach";
	case BPFRR_NL_DETACH: return "detach";
	case BPFRR_NL_HOOK: return "hook";
	case BPFRR_NL_OTHER: return "other";
	}
	return NULL;
}

const char *bpfrr_nl_xdp_mode(uint32_t flags)
{
	if (flags & BPFRR_XDP_FLAGS_SKB_MODE)
		return "skb";
	if (flags & BPFRR_XDP_FLAGS_DRV_MODE)
		return "drv";
	if (flags & BPFRR_XDP_FLAGS_HW_MODE)
		return "hw";
	return "";
}

static bool is_get(uint16_t type)
{
	return type >= 16 && (type - 16) % 4 == 2;
}

static bool is_new(uint16_t type)
{
	return type >= 16 && (type - 16) % 4 == 0;
}

void bpfrr_nl_flags_string(uint16_t type, uint16_t flags, char *buf, size_t size)
{
	static const struct { uint16_t bit; const char *name; } common[] = {
		{ NLM_F_REQUEST, "REQUEST" }, { NLM_F_MULTI, "MULTI" }, { NLM_F_ACK, "ACK" }, { NLM_F_ECHO, "ECHO" },
	}, get[] = {
		{ NLM_F_ROOT, "ROOT" }, { NLM_F_MATCH, "MATCH" },
	}, create[] = {
		{ NLM_F_REPLACE, "REPLACE" }, { NLM_F_EXCL, "EXCL" }, { NLM_F_CREATE, "CREATE" }, { NLM_F_APPEND, "APPEND" },
	};
	uint16_t left = flags;
	size_t n = 0, i;

	if (!size)
		return;
	buf[0] = '\0';
#define ADD(tbl) \
	for (i = 0; i < sizeof(tbl) / sizeof(tbl[0]); i++) \
		if (left & tbl[i].bit) { \
			n += (size_t)snprintf(buf + (n < size ? n : size - 1), n < size ? size - n : 1, "%s%s", \
					      n ? "|" : "", tbl[i].name); \
			left &= (uint16_t)~tbl[i].bit; \
		}
	ADD(common);
	if (is_get(type))
		ADD(get);
	if (is_new(type))
		ADD(create);
#undef ADD
	if (left || !flags)
		snprintf(buf + (n < size ? n : size - 1), n < size ? size - n : 1, "%s0x%x", n ? "|" : "", left);
}

void bpfrr_nl_tc_parent_string(uint32_t parent, char *buf, size_t size)
{
	if (parent == 0xffffffffu)
		snprintf(buf, size, "root");
	else if (parent == BPFRR_TC_H_CLSACT)
		snprintf(buf, size, "clsact");
	else if (parent == (0xffff0000u | BPFRR_TC_H_MIN_INGRESS))
		snprintf(buf, size, "ingress");
	else if (parent == (0xffff0000u | BPFRR_TC_H_MIN_EGRESS))
		snprintf(buf, size, "egress");
	else
		snprintf(buf, size, "%x:%x", parent >> 16, parent & 0xffff);
}

uint16_t bpfrr_nl_tc_prio(uint32_t info)
{
	return (uint16_t)(info >> 16);
}

uint16_t bpfrr_nl_tc_proto(uint32_t info)
{
	uint16_t be = (uint16_t)info;

	return (uint16_t)((be >> 8) | (be << 8));
}

static void add_fd(struct bpfrr_nl_msg *m, uint32_t off, int32_t fd, const char *attr)
{
	if (m->nr_fds < BPFRR_NL_MAX_FDS)
		m->fds[m->nr_fds++] = (struct bpfrr_nl_fd){ .off = off, .fd = fd, .attr = attr };
}

/*
 * The next attribute at *at in [*at, end) of buf: its type, payload offset and
 * length; false after the last whole one.
 */
static bool next_attr(const uint8_t *b, uint32_t *at, uint32_t end, uint32_t *type, uint32_t *off, uint32_t *len)
{
	uint32_t alen;

	if (*at >= end || end - *at < NLA_HDRLEN)
		return false;
	alen = bpfrr_get_u16(b + *at);
	if (alen < NLA_HDRLEN || alen > end - *at)
		return false;
	*type = bpfrr_get_u16(b + *at + 2) & NLA_TYPE_MASK;
	*off = *at + NLA_HDRLEN;
	*len = alen - NLA_HDRLEN;
	*at = ALIGN4(alen) > end - *at ? end : *at + ALIGN4(alen);
	return true;
}

static void copy_str(char *dst, size_t size, const uint8_t *src, uint32_t len)
{
	size_t n = strnlen((const char *)src, len);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void decode_link(const uint8_t *b, uint32_t start, uint32_t end, struct bpfrr_nl_msg *m)
{
	uint32_t type, off, len, t2, o2, l2, at = start, at2;

	while (next_attr(b, &at, end, &type, &off, &len)) {
		if (type != BPFRR_IFLA_XDP)
			continue;
		m->has_xdp = true;
		at2 = off;
		while (next_attr(b, &at2, off + len, &t2, &o2, &l2)) {
			if (l2 < 4)
				continue;
			if (t2 == BPFRR_IFLA_XDP_FD) {
				m->xdp_fd = (int32_t)bpfrr_get_u32(b + o2);
				add_fd(m, o2, m->xdp_fd, "IFLA_XDP_FD");
			} else if (t2 == BPFRR_IFLA_XDP_EXPECTED_FD) {
				add_fd(m, o2, (int32_t)bpfrr_get_u32(b + o2), "IFLA_XDP_EXPECTED_FD");
			} else if (t2 == BPFRR_IFLA_XDP_FLAGS) {
				m->has_xdp_flags = true;
				m->xdp_flags = bpfrr_get_u32(b + o2);
				m->xdp_flags_off = o2;
			} else if (t2 == BPFRR_IFLA_XDP_PROG_ID) {
				m->xdp_prog_id = bpfrr_get_u32(b + o2);
			} else if (t2 == BPFRR_IFLA_XDP_DRV_PROG_ID) {
				m->xdp_drv_prog_id = bpfrr_get_u32(b + o2);
			} else if (t2 == BPFRR_IFLA_XDP_SKB_PROG_ID) {
				m->xdp_skb_prog_id = bpfrr_get_u32(b + o2);
			}
		}
	}
	if (is_get(m->type))
		m->effect = BPFRR_NL_READ;
	else if ((m->type == BPFRR_RTM_NEWLINK || m->type == BPFRR_RTM_SETLINK) && m->has_xdp)
		m->effect = m->xdp_fd >= 0 ? BPFRR_NL_ATTACH : BPFRR_NL_DETACH;
	else
		m->effect = BPFRR_NL_OTHER;
}

static void decode_tc(const uint8_t *b, uint32_t start, uint32_t end, struct bpfrr_nl_msg *m)
{
	uint32_t type, off, len, t2, o2, l2, opts = 0, opts_len = 0, at = start;
	bool qdisc = m->type >= BPFRR_RTM_NEWQDISC && m->type <= BPFRR_RTM_NEWQDISC + 3;
	bool filter = m->type >= BPFRR_RTM_NEWTFILTER && m->type <= BPFRR_RTM_NEWTFILTER + 3;

	while (next_attr(b, &at, end, &type, &off, &len)) {
		if (type == BPFRR_TCA_KIND) {
			copy_str(m->tc_kind, sizeof(m->tc_kind), b + off, len);
		} else if (type == BPFRR_TCA_OPTIONS) {
			opts = off;
			opts_len = len;
		}
	}
	/* the options are the classifier's: read them once its kind is known */
	if (filter && !strcmp(m->tc_kind, "bpf") && opts) {
		m->has_bpf = true;
		at = opts;
		while (next_attr(b, &at, opts + opts_len, &t2, &o2, &l2)) {
			if (t2 == BPFRR_TCA_BPF_NAME) {
				copy_str(m->bpf_name, sizeof(m->bpf_name), b + o2, l2);
				continue;
			}
			if (l2 < 4)
				continue;
			if (t2 == BPFRR_TCA_BPF_FD) {
				m->bpf_fd = (int32_t)bpfrr_get_u32(b + o2);
				add_fd(m, o2, m->bpf_fd, "TCA_BPF_FD");
			} else if (t2 == BPFRR_TCA_BPF_FLAGS) {
				m->bpf_flags = bpfrr_get_u32(b + o2);
			} else if (t2 == BPFRR_TCA_BPF_FLAGS_GEN) {
				m->bpf_flags_gen = bpfrr_get_u32(b + o2);
			} else if (t2 == BPFRR_TCA_BPF_CLASSID) {
				m->bpf_classid = bpfrr_get_u32(b + o2);
			} else if (t2 == BPFRR_TCA_BPF_ID) {
				m->bpf_prog_id = bpfrr_get_u32(b + o2);
			}
		}
	}
	if (is_get(m->type))
		m->effect = BPFRR_NL_READ;
	else if (filter && m->type == BPFRR_RTM_NEWTFILTER && m->bpf_fd >= 0)
		m->effect = BPFRR_NL_ATTACH;
	else if (filter && m->type == BPFRR_RTM_DELTFILTER)
		m->effect = BPFRR_NL_DETACH;
	else if (qdisc && m->type == BPFRR_RTM_NEWQDISC &&
		 (!strcmp(m->tc_kind, "clsact") || !strcmp(m->tc_kind, "ingress")))
		m->effect = BPFRR_NL_HOOK;
	else if (qdisc && m->type == BPFRR_RTM_DELQDISC &&
		 (!strcmp(m->tc_kind, "clsact") || !strcmp(m->tc_kind, "ingress") || m->tc_parent == BPFRR_TC_H_CLSACT))
		m->effect = BPFRR_NL_DETACH;	/* takes every filter of the hook with it */
	else
		m->effect = BPFRR_NL_OTHER;
}

int bpfrr_nl_decode(const void *buf, size_t len, struct bpfrr_nl_msg *msgs, unsigned int max)
{
	const uint8_t *b = buf;
	uint32_t pos = 0, end = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
	int n = 0;

	if (!b || end < BPFRR_NLMSG_HDRLEN || bpfrr_get_u32(b) < BPFRR_NLMSG_HDRLEN)
		return -1;
	while (pos + BPFRR_NLMSG_HDRLEN <= end && n < 65536) {
		uint32_t mlen = bpfrr_get_u32(b + pos), mend, body = pos + BPFRR_NLMSG_HDRLEN;
		struct bpfrr_nl_msg m = { .off = pos, .xdp_fd = -1, .bpf_fd = -1 };

		if (mlen < BPFRR_NLMSG_HDRLEN)
			break;
		m.truncated = mlen > end - pos;
		mend = m.truncated ? end : pos + mlen;
		m.len = mend - pos;
		m.type = bpfrr_get_u16(b + pos + 4);
		m.flags = bpfrr_get_u16(b + pos + 6);
		m.seq = bpfrr_get_u32(b + pos + 8);
		if (m.type >= BPFRR_RTM_NEWLINK && m.type <= BPFRR_RTM_SETLINK) {
			if (body + BPFRR_IFINFOMSG_LEN <= mend) {
				m.has_ifindex = true;
				m.ifindex_off = body + 4;
				m.ifindex = (int32_t)bpfrr_get_u32(b + body + 4);
				decode_link(b, body + BPFRR_IFINFOMSG_LEN, mend, &m);
			} else {
				m.truncated = true;
				m.effect = is_get(m.type) ? BPFRR_NL_READ : BPFRR_NL_OTHER;
			}
		} else if (m.type >= BPFRR_RTM_NEWQDISC && m.type <= BPFRR_RTM_NEWTFILTER + 3) {
			if (body + BPFRR_TCMSG_LEN <= mend) {
				m.has_ifindex = true;
				m.ifindex_off = body + 4;
				m.ifindex = (int32_t)bpfrr_get_u32(b + body + 4);
				m.tc_handle = bpfrr_get_u32(b + body + 8);
				m.tc_parent = bpfrr_get_u32(b + body + 12);
				m.tc_info = bpfrr_get_u32(b + body + 16);
				decode_tc(b, body + BPFRR_TCMSG_LEN, mend, &m);
			} else {
				m.truncated = true;
				m.effect = is_get(m.type) ? BPFRR_NL_READ : BPFRR_NL_OTHER;
			}
		} else {
			/* addresses, routes, neighbours, ...: no BPF in them */
			m.effect = is_get(m.type) ? BPFRR_NL_READ : BPFRR_NL_OTHER;
		}
		if ((unsigned int)n < max)
			msgs[n] = m;
		n++;
		if (m.truncated || ALIGN4(mlen) > end - pos)
			break;
		pos += ALIGN4(mlen);
	}
	return n;
}

/* An attribute at out[*pos]: 0, or -1 if it does not fit. */
static int put_attr(uint8_t *out, size_t size, size_t *pos, uint16_t type, const void *data, uint16_t len)
{
	uint16_t alen = (uint16_t)(NLA_HDRLEN + len);

	if (*pos + ALIGN4(alen) > size)
		return -1;
	memcpy(out + *pos, &alen, 2);
	memcpy(out + *pos + 2, &type, 2);
	memcpy(out + *pos + NLA_HDRLEN, data, len);
	memset(out + *pos + alen, 0, ALIGN4(alen) - alen);
	*pos += ALIGN4(alen);
	return 0;
}

int bpfrr_nl_undo(const void *msg, size_t len, uint8_t *out, size_t size)
{
	struct bpfrr_nl_msg m;
	uint16_t type, flags = NLM_F_REQUEST | NLM_F_ACK;
	uint32_t total;
	size_t pos;
	int32_t none = -1;

	if (bpfrr_nl_decode(msg, len, &m, 1) != 1 || m.truncated || m.len != len)
		return -1;
	switch (m.effect) {
	case BPFRR_NL_ATTACH:
		if (m.has_xdp) {
			uint32_t keep = m.xdp_flags & ~(uint32_t)(BPFRR_XDP_FLAGS_REPLACE | BPFRR_XDP_FLAGS_UPDATE_IF_NOEXIST);

			/* the same request, the program fd -1 (IFLA_XDP_EXPECTED_FD too: no REPLACE) */
			if (len > size)
				return -1;
			memcpy(out, msg, len);
			for (unsigned int i = 0; i < m.nr_fds; i++)
				memcpy(out + m.fds[i].off, &none, 4);
			if (m.xdp_flags_off)
				memcpy(out + m.xdp_flags_off, &keep, 4);
			memcpy(out + 6, &flags, 2);
			return (int)len;
		}
		type = BPFRR_RTM_DELTFILTER;
		break;
	case BPFRR_NL_HOOK:
		type = BPFRR_RTM_DELQDISC;
		break;
	default:
		return 0;
	}
	/* a tc object: the same tcmsg and kind, deleted */
	pos = BPFRR_NLMSG_HDRLEN + BPFRR_TCMSG_LEN;
	if (pos > size || pos > len)
		return -1;
	memcpy(out, msg, pos);
	memcpy(out + 4, &type, 2);
	memcpy(out + 6, &flags, 2);
	if (put_attr(out, size, &pos, BPFRR_TCA_KIND, m.tc_kind, (uint16_t)(strlen(m.tc_kind) + 1)))
		return -1;
	total = (uint32_t)pos;
	memcpy(out, &total, 4);
	return (int)pos;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * pass_select.c - the front end's pass 2: what to replay.
 *
 * Every recorded call gets a class (fe_classify): it makes an object, it
 * changes one, it has an effect beyond fds (pins, cgroup attachments), it
 * gets another fd of an existing object, it only reads, it runs a program,
 * it is fd bookkeeping, it opens a file.
 *
 * The replay point: by default the state after the last successful call
 * that built something (made an object, attached, stored into a map,
 * froze, pinned, bound a map); a loader's teardown (closes, map deletes,
 * PERF_EVENT_IOC_DISABLE) comes after it.  --until N puts it after call N.
 *
 * Kept, to a fixed point:
 *  - the objects the loader made (not those it only got an fd of) that have
 *    an open fd at the replay point (from pass 1's clock stamps; an alias
 *    keeps the object it names), the objects a kept global call (pin, cgroup
 *    attach) names, and with --keep-probes every object made before the
 *    point;
 *  - the call that makes a kept object, and every earlier successful call
 *    that changes a kept object (map updates and deletes, freeze, bind,
 *    perf event ioctls, except PERF_EVENT_IOC_ENABLE of an event opened
 *    enabled, a no-op) or has a global effect;
 *  - every object a kept call passes an fd of (a program's maps and BTF, a
 *    link's program and perf event, a prog array's programs, ...).
 * Everything else is dropped with the reason.  Opens whose fd a kept call
 * uses (a cgroup directory) become slots the replayer opens by path.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "frontend_int.h"

#define why(c, ...) snprintf((c)->why, sizeof((c)->why), __VA_ARGS__)

/*
 * A netlink request (sendmsg, sendto on a NETLINK_ROUTE socket): what its
 * messages do.  One that attaches a program, detaches one or makes the hook
 * an attachment needs (a clsact qdisc) is GLOBAL (a device's state, beyond
 * any fd); requests, probes and network changes without BPF (ip's probe for
 * RTM_NEWLINK support, an address) change no BPF state: READ.  Messages not
 * recorded whole are OTHER: pass 3 refuses the call.
 */
static enum fe_class classify_netlink(const struct fe_trace *t, struct fe_call *c)
{
	struct bpfrr_nl_msg msgs[FE_NL_MAX_MSGS];
	int n = fe_netlink(t, c, msgs, FE_NL_MAX_MSGS, NULL, NULL), i;

	c->nl_effects = 0;
	c->nl_type = n == 1 ? msgs[0].type : 0;
	if (n < 0 || n > FE_NL_MAX_MSGS)
		return FE_CLASS_OTHER;
	for (i = 0; i < n; i++)
		c->nl_effects |= 1u << msgs[i].effect;
	if (c->nl_effects & (1u << BPFRR_NL_ATTACH | 1u << BPFRR_NL_DETACH | 1u << BPFRR_NL_HOOK))
		return FE_CLASS_GLOBAL;
	return FE_CLASS_READ;
}

enum fe_class fe_classify(const struct fe_trace *t, struct fe_call *c)
{
	const struct bpfrr_cmd_desc *d;

	if (!c->is_bpf && c->sys && c->sys->cls == BPFRR_SYS_CLASS_NETLINK)
		return classify_netlink(t, c);
	/* a syscall's class is its row's (or its sub-row's: a perf ioctl that only reads) */
	if (!c->is_bpf)
		return c->sys ? (enum fe_class)bpfrr_sys_class(c->sys, c->args) : FE_CLASS_OTHER;
	/* a command the table does not know (or left unclassified) is OTHER: pass 3 refuses it */
	d = bpfrr_abi_cmd((int)c->cmd);
	return d && d->cls != BPFRR_CMD_CLASS_NONE ? (enum fe_class)d->cls : FE_CLASS_OTHER;
}

static bool succeeded(const struct fe_call *c)
{
	return !(c->flags & BPFRR_CALL_NO_EXIT) && !bpfrr_trace_ret_errno(c->ret);
}

/* Does a successful call build state (it can be the default replay point)? */
static bool builds(const struct fe_call *c)
{
	const struct bpfrr_cmd_desc *d;

	if (c->is_bpf)	/* the table sets BUILDS on CREATE, MUTATE and GLOBAL rows only */
		return (d = bpfrr_abi_cmd((int)c->cmd)) && (d->flags & BPFRR_CMDF_BUILDS);
	/* a netlink request that attaches a program or makes its hook (classify_netlink) */
	if (c->sys && c->sys->cls == BPFRR_SYS_CLASS_NETLINK)
		return c->nl_effects & (1u << BPFRR_NL_ATTACH | 1u << BPFRR_NL_HOOK);
	/* lib/sys_abi.h: perf_event_open, and perf ioctls but DISABLE, RESET and the reads */
	return c->sys && bpfrr_sys_builds(c->sys, c->args);
}

/* The object a MUTATE / GLOBAL / TEST_RUN call acts on: its row's acts_on, a syscall's fd. */
static struct fe_obj *target_of(const struct fe_call *c)
{
	const struct bpfrr_cmd_desc *d = c->is_bpf ? bpfrr_abi_cmd((int)c->cmd) : NULL;
	const struct fe_ref *r;
	char path[80];

	if (c->is_bpf) {
		if (!d || !d->acts_on)
			return NULL;
		snprintf(path, sizeof(path), "attr.%s", d->acts_on);
		r = fe_ref_at(c, path);
	} else {
		r = fe_ref_at(c, "arg fd");
	}
	return r ? fe_canon(r->obj) : NULL;
}

static bool live_at(const struct fe_obj *o, uint64_t clock)
{
	return o->base.max_fds && o->base.first_clock <= clock && (o->base.nr_fds || o->base.gone_clock > clock);
}

/* The event index up to which call seq's own records reach (its FD_EVENTs follow its record). */
static uint64_t cut_clock_of(const struct fe_trace *t, const struct fe_call *c)
{
	uint64_t i = c->clock;

	while (i + 1 < t->nr_events && t->events[i + 1].type == BPFRR_REC_FD_EVENT &&
	       t->fdevs[t->events[i + 1].idx].seq == c->seq)
		i++;
	return i;
}

/*
 * PERF_EVENT_IOC_ENABLE (without PERF_IOC_FLAG_GROUP) of an event that was
 * opened enabled (attr.disabled clear) and not disabled or refreshed since
 * does nothing: perf_event_enable() finds it enabled.  libbpf enables
 * every event it attaches that way.  Dropping these matters because no
 * syscall program can issue an ioctl: each would be a user-space step of
 * an otherwise in-kernel replay.  Returns the seq of the open, or 0.
 */
static uint64_t enable_noop_after(const struct fe_trace *t, const struct fe_call *c)
{
	const struct bpfrr_trace_region *reg;
	const struct fe_call *open;
	const uint8_t *attr;
	uint64_t bits;
	uint32_t i;

	if (c->is_bpf || c->sys != bpfrr_sys(BPFRR_SYS_IOCTL) || (uint32_t)c->args[1] != BPFRR_PERF_IOC_ENABLE ||
	    c->args[2] || !c->target)
		return 0;
	open = c->target->creator;
	if (!open || open->is_bpf || open->sys != bpfrr_sys(BPFRR_SYS_PERF_EVENT_OPEN) || !succeeded(open))
		return 0;
	reg = fe_region(t, open, BPFRR_PHASE_ENTRY, "perf_event_attr");
	if (!reg || reg->len < FE_PERF_ATTR_FLAGS_OFF + 8)
		return 0;
	attr = fe_mem(t, open, BPFRR_PHASE_ENTRY, reg->addr, FE_PERF_ATTR_FLAGS_OFF + 8);
	if (!attr)
		return 0;
	memcpy(&bits, attr + FE_PERF_ATTR_FLAGS_OFF, 8);
	if (bits & FE_PERF_ATTR_DISABLED)
		return 0;
	for (i = 0; i < t->nr_calls; i++) {
		const struct fe_call *o = &t->calls[i];
		uint32_t req = (uint32_t)o->args[1];

		if (o->seq <= open->seq || o->seq >= c->seq || o->is_bpf || o->sys != c->sys ||
		    o->target != c->target)
			continue;
		if (req == BPFRR_PERF_IOC_DISABLE || req == BPFRR_PERF_IOC_REFRESH ||
		    req == BPFRR_PERF_IOC_MODIFY_ATTRIBUTES)
			return 0;
	}
	return open->seq;
}

static void keep_obj(struct fe_obj *o, const char *fmt, uint64_t seq, bool *changed)
{
	o = fe_canon(o);
	if (!o || o->kept)
		return;
	o->kept = true;
	snprintf(o->why_kept, sizeof(o->why_kept), fmt, seq);
	*changed = true;
}

/*
 * mkdir, rmdir, unlink on a bpffs (FE_CLASS_BPFFS): the path the recorder
 * resolved ("path" at exit), NULL if it has none.
 */
const char *fe_fs_path(const struct fe_trace *t, const struct fe_call *c)
{
	const struct bpfrr_trace_region *reg = fe_region(t, c, BPFRR_PHASE_EXIT, "path");
	const struct bpfrr_rec_blob *b = reg && reg->blob ? bpfrr_trace_blob(t->r, reg->blob) : NULL;
	const char *path = b ? (const char *)b->data : NULL;

	if (!b || !b->len || path[b->len - 1] || memchr(path, '\0', b->len - 1) || path[0] != '/')
		return NULL;
	return path;
}

static bool fs_makes_dir(const struct fe_call *c)
{
	return c->sys && c->sys->replay == BPFRR_SYS_REPLAY_MKDIR;
}

/*
 * The absolute path a successful BPF_OBJ_PIN pinned to, as passed (NULL if it
 * is relative or names its directory by path_fd: then no unlink is paired with
 * it by name).
 */
static const char *pin_path(const struct fe_trace *t, const struct fe_call *c)
{
	const struct bpfrr_field *path_fd = bpfrr_abi_cmd_field(BPFRR_CMD_OBJ_PIN, "path_fd");
	const struct bpfrr_trace_region *reg;
	const struct bpfrr_rec_blob *b;
	const char *path;

	/* bpfrr_abi_fd_gate: the flag that leaves path_fd unused, NULL when it is used */
	if (!c->is_bpf || c->cmd != BPFRR_CMD_OBJ_PIN || !succeeded(c) || !path_fd ||
	    !bpfrr_abi_fd_gate(BPFRR_CMD_OBJ_PIN, path_fd, c->attr, c->attr_len, NULL))
		return NULL;
	reg = fe_region(t, c, BPFRR_PHASE_ENTRY, "attr.pathname");
	b = reg && reg->blob ? bpfrr_trace_blob(t->r, reg->blob) : NULL;
	path = b ? (const char *)b->data : NULL;
	if (!b || !b->len || path[b->len - 1] || memchr(path, '\0', b->len - 1) || path[0] != '/')
		return NULL;
	return path;
}

/* A bpffs path of a successful call before the replay point: what pair_bpffs pairs by. */
struct fs_event {
	const char *path;
	struct fe_call *c;
	bool makes;		/* mkdir or BPF_OBJ_PIN; else rmdir or unlink */
};

static int cmp_fs_event(const void *a, const void *b)
{
	const struct fs_event *x = a, *y = b;
	int d = strcmp(x->path, y->path);

	return d ? d : x->c->seq < y->c->seq ? -1 : x->c->seq > y->c->seq;
}

/*
 * Pairs what made a path on a bpffs before the replay point (a mkdir, a
 * BPF_OBJ_PIN: libxdp pins a test link and unlinks it at once) with the
 * rmdir / unlink that removes it next (fe_call.fs_pair): such a pair leaves
 * the bpffs as it was, and neither is replayed. Once, sorted by path and seq.
 */
static int pair_bpffs(struct fe_trace *t)
{
	struct fs_event *ev = calloc(t->nr_calls + 1, sizeof(*ev));
	uint32_t i, n = 0;

	if (!ev)
		return -ENOMEM;
	for (i = 0; i < t->nr_calls; i++) {
		struct fe_call *c = &t->calls[i];
		const char *path;

		c->fs_pair = NULL;
		if (!succeeded(c) || c->seq > t->cut_seq)
			continue;
		if (c->class == FE_CLASS_BPFFS && (path = fe_fs_path(t, c)))
			ev[n++] = (struct fs_event){ .path = path, .c = c, .makes = fs_makes_dir(c) };
		else if ((path = pin_path(t, c)))
			ev[n++] = (struct fs_event){ .path = path, .c = c, .makes = true };
	}
	qsort(ev, n, sizeof(*ev), cmp_fs_event);
	for (i = 0; i + 1 < n; i++)
		if (ev[i].makes && !ev[i + 1].makes && !strcmp(ev[i].path, ev[i + 1].path)) {
			ev[i].c->fs_pair = ev[i + 1].c;
			ev[i + 1].c->fs_pair = ev[i].c;
			i++;
		}
	free(ev);
	return 0;
}

int fe_pass_select(struct fe_trace *t, const struct bpfrr_frontend_opts *o, char *err, size_t err_size)
{
	struct bpfrr_fdm_obj *b;
	bool changed = false;
	uint32_t i, j;
	char name[64];

	for (i = 0; i < t->nr_calls; i++) {
		struct fe_call *c = &t->calls[i];

		c->class = fe_classify(t, c);
		c->fate = FE_UNDECIDED;
		c->target = c->class == FE_CLASS_MUTATE || c->class == FE_CLASS_GLOBAL ||
			    c->class == FE_CLASS_TEST_RUN ? target_of(c) : NULL;
	}
	for (i = 0; i < t->nr_calls; i++)
		t->calls[i].noop_after = enable_noop_after(t, &t->calls[i]);

	/* the replay point */
	t->cut_seq = 0;
	t->cut_default = !o->until_seq;
	if (o->until_seq) {
		struct fe_call *c = fe_call_by_seq(t, o->until_seq);

		if (!c) {
			snprintf(err, err_size, "%s: --until %" PRIu64 ": the trace has no call with that seq",
				 t->name, o->until_seq);
			return -EINVAL;
		}
		t->cut_seq = c->seq;
		t->cut_clock = cut_clock_of(t, c);
	} else {
		for (i = 0; i < t->nr_calls; i++) {
			struct fe_call *c = &t->calls[i];

			if (succeeded(c) && builds(c) && c->seq > t->cut_seq) {
				t->cut_seq = c->seq;
				t->cut_clock = cut_clock_of(t, c);
			}
		}
	}

	if (pair_bpffs(t)) {
		snprintf(err, err_size, "%s: %s", t->name, strerror(ENOMEM));
		return -ENOMEM;
	}

	/* roots: what has an open fd at the replay point */
	for (b = bpfrr_fdm_objects(t->fdm); b; b = b->next_all) {
		struct fe_obj *ob = (struct fe_obj *)b;

		if (!t->cut_seq || !live_at(ob, t->cut_clock))
			continue;
		ob->live = true;
		fe_canon(ob)->live = true;
	}
	for (b = bpfrr_fdm_objects(t->fdm); b; b = b->next_all) {
		struct fe_obj *ob = (struct fe_obj *)b;

		/* what the loader made; what it only got an fd of (by id, path, open) counts if used */
		if (ob->live && !ob->alias_of &&
		    ((ob->creator && ob->creator->class == FE_CLASS_CREATE) || ob->run))
			keep_obj(ob, "alive at the replay point", 0, &changed);
		else if (o->keep_probes && !ob->alias_of && ob->creator && ob->creator->seq <= t->cut_seq &&
			 succeeded(ob->creator) && ob->creator->class == FE_CLASS_CREATE)
			keep_obj(ob, "--keep-probes", 0, &changed);
	}

	/* to a fixed point: makers and changers of kept objects, and what kept calls use */
	do {
		changed = false;
		for (i = 0; i < t->nr_calls; i++) {
			struct fe_call *c = &t->calls[i];
			bool keep = false;

			if (c->fate == FE_KEPT || c->seq > t->cut_seq || !succeeded(c))
				continue;
			switch (c->class) {
			case FE_CLASS_CREATE:
				keep = c->result && fe_canon(c->result)->kept;
				break;
			case FE_CLASS_GET:
				/* an fd of an object made outside the trace that a kept call uses */
				keep = c->result && !c->result->alias_of && c->result->kept;
				break;
			case FE_CLASS_MUTATE:
			case FE_CLASS_TEST_RUN:
				keep = c->target && c->target->kept && !c->noop_after;
				/* a syscall program's run that made a kept object (pass 1's products) */
				for (j = 0; j < c->nr_products && !keep; j++)
					keep = fe_canon(c->products[j])->kept;
				break;
			case FE_CLASS_GLOBAL:
				/* a pin and the unlink that removes it leave the bpffs as it was */
				keep = !c->fs_pair;
				break;
			case FE_CLASS_BPFFS:
				/* an rmdir / unlink of what the trace did not make: pass 3 refuses it */
				keep = !fs_makes_dir(c) && !c->fs_pair;
				break;
			case FE_CLASS_OTHER:
				/* a command or syscall the translator does not know: pass 3 refuses it */
				keep = c->is_bpf;
				break;
			default:
				break;
			}
			if (!keep)
				continue;
			c->fate = FE_KEPT;
			changed = true;
			for (j = 0; j < c->nr_refs; j++)
				if (c->refs[j].obj)
					keep_obj(c->refs[j].obj, "used by seq %" PRIu64, c->seq, &changed);
		}
	} while (changed);

	/* the reasons for everything else */
	for (i = 0; i < t->nr_calls; i++) {
		struct fe_call *c = &t->calls[i];
		int e = bpfrr_trace_ret_errno(c->ret);

		if (c->fate == FE_KEPT)
			continue;
		c->fate = FE_DROPPED;
		if (c->class == FE_CLASS_OPEN && c->result && fe_canon(c->result)->kept) {
			c->fate = FE_PATH;
			why(c, "its fd is a slot the replayer opens by path");
		} else if (c->flags & BPFRR_CALL_NO_EXIT) {
			why(c, "did not return (the task died in it)");
		} else if (e) {
			why(c, "failed: %s", fe_errno_name(e));
		} else if (c->class == FE_CLASS_BPFFS && c->seq <= t->cut_seq) {
			const struct fe_call *u = c->fs_pair;
			const char *path = fe_fs_path(t, c);

			if (u && fs_makes_dir(c))
				why(c, "removed by seq %" PRIu64 " before the replay point", u->seq);
			else if (u)
				why(c, "removes what seq %" PRIu64 " made: neither is replayed", u->seq);
			else if (!path)
				why(c, "the path it made was not recorded");
			else {
				c->fate = FE_MKDIR;
				why(c, "a directory on a bpffs the replayer makes: %.120s (mode 0%" PRIo64 ")",
				    path, c->args[c->sys->mode_arg] & 07777);
			}
		} else if (c->noop_after && c->seq <= t->cut_seq) {
			why(c, "no-op: the perf event (seq %" PRIu64 ") was opened enabled", c->noop_after);
		} else if (c->seq > t->cut_seq && c->class != FE_CLASS_READ && c->class != FE_CLASS_OPEN) {
			if (!t->cut_seq)
				why(c, "nothing was built: no replay point");
			else if (c->class == FE_CLASS_FD || c->class == FE_CLASS_MUTATE || c->class == FE_CLASS_GLOBAL ||
				 c->class == FE_CLASS_BPFFS)
				why(c, "after the replay point (seq %" PRIu64 ")%s", t->cut_seq,
				    builds(c) ? "" : ": teardown");
			else
				why(c, "after the replay point (seq %" PRIu64 ")", t->cut_seq);
		} else {
			switch (c->class) {
			case FE_CLASS_READ:
				if (c->sys && c->sys->cls == BPFRR_SYS_CLASS_NETLINK)
					why(c, "a netlink request that changes no BPF state (%s)",
					    c->nl_effects & (1u << BPFRR_NL_OTHER) ? "a network change without a program" :
					    "a query");
				else
					why(c, "read-only");
				break;
			case FE_CLASS_FD:
				why(c, "fd bookkeeping (the replayer holds its own fds)");
				break;
			case FE_CLASS_OPEN: {
				uint32_t k;

				why(c, "a file read, no kept call uses its fd");
				for (k = 0; k < t->nr_values; k++)
					if (t->values[k].seq == c->seq)
						why(c, "a file read: %s %s = %" PRIu64 " (looked up by name at replay time)",
						    t->values[k].kind == BPFRR_IR_RESOLVE_TP_ID ? "tracepoint id of" :
						    "PMU type of", t->values[k].name, t->values[k].value);
				break;
			}
			case FE_CLASS_GET:
				if (c->result && c->result->alias_of)
					why(c, "another fd of %s", fe_obj_desc(c->result->alias_of, name, sizeof(name)));
				else
					why(c, "an fd of an object made outside the trace, not used by a kept call");
				break;
			case FE_CLASS_CREATE:
				if (c->result && c->result->base.max_fds && !c->result->base.nr_fds &&
				    c->result->base.gone_clock <= t->cut_clock) {
					if (c->result->base.close_seq)
						why(c, "probe: closed by seq %" PRIu64 ", nothing kept depends on it",
						    c->result->base.close_seq);
					else
						why(c, "probe: closed when task %u exited, nothing kept depends on it",
						    c->result->base.exit_tid);
				} else {
					why(c, "nothing kept depends on what it made");
				}
				break;
			case FE_CLASS_MUTATE:
			case FE_CLASS_TEST_RUN:
				if (c->target)
					why(c, "acts on %s, which is not replayed",
					    fe_obj_desc(c->target, name, sizeof(name)));
				else
					why(c, "acts on no object the trace knows");
				break;
			case FE_CLASS_GLOBAL:
				if (c->fs_pair) {
					why(c, "unpinned by seq %" PRIu64 " before the replay point: neither is replayed",
					    c->fs_pair->seq);
					break;
				}
				/* fall through */
			default:
				why(c, "not a call that changes BPF state");
				break;
			}
		}
	}
	return 0;
}

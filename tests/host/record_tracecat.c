// SPDX-License-Identifier: GPL-2.0-only
/*
 * record_tracecat FILE: print every record of a trace on one line of
 * "key=value" words, for the recorder's host tests to grep. It is not the
 * audit (that is `bpfrr dump`): it shows the raw record fields, so the
 * tests check what the recorder wrote, independently of the dumper.
 *
 * Exit status: 0 for a complete trace, 3 for a truncated one (records
 * printed), 2 for an unreadable or corrupt one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf_abi.h"
#include "trace.h"

static void print_str(const char *key, const char *s)
{
	printf(" %s=", key);
	for (; s && *s; s++)
		putchar(*s == ' ' || *s == '\n' ? '_' : *s);
}

static void print_regions(const struct bpfrr_trace_reader *r, uint32_t n,
			  const struct bpfrr_trace_region *regions)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		const struct bpfrr_trace_region *g = &regions[i];
		const struct bpfrr_rec_blob *b = g->blob ? bpfrr_trace_blob(r, g->blob) : NULL;

		printf(" region=%s:%s:len=%llu:flags=%#x", g->path, g->phase ? "exit" : "entry",
		       (unsigned long long)g->len, g->flags);
		/* short printable contents (paths, tracefs ids) in full */
		if (b && b->len && b->len <= 128) {
			const unsigned char *p = b->data;
			uint64_t j;

			printf(":\"");
			for (j = 0; j < b->len; j++)
				putchar(p[j] >= 0x21 && p[j] < 0x7f && p[j] != '"' ? p[j] : '.');
			printf("\"");
		}
	}
}

int main(int argc, char **argv)
{
	struct bpfrr_trace_reader *r;
	struct bpfrr_trace_record rec;
	char *err = NULL;
	int st;

	if (argc != 2) {
		fprintf(stderr, "usage: record_tracecat FILE\n");
		return 2;
	}
	r = bpfrr_trace_open(argv[1], 0, &err);
	if (!r) {
		fprintf(stderr, "record_tracecat: %s\n", err);
		free(err);
		return 2;
	}
	{
		const struct bpfrr_trace_header *h = bpfrr_trace_header(r);
		uint32_t i;

		printf("HEADER arch=%u arch_name=%s nr_cpus=%u tracee_pid=%u argc=%u", h->arch,
		       h->arch_name, h->nr_cpus, h->tracee_pid, h->argc);
		for (i = 0; i < h->argc; i++)
			print_str("arg", h->argv[i]);
		putchar('\n');
	}
	while ((st = bpfrr_trace_next(r, &rec)) == BPFRR_TRACE_RECORD) {
		switch (rec.type) {
		case BPFRR_REC_TASK: {
			const struct bpfrr_rec_task *t = &rec.task;

			printf("TASK event=%s tid=%u tgid=%u other=%u clone_flags=%#llx status=%d",
			       bpfrr_trace_task_event_name(t->event), t->tid, t->tgid, t->other_tid,
			       (unsigned long long)t->clone_flags, t->status);
			print_str("path", t->path);
			if (t->argc)
				print_str("argv0", t->argv[0]);
			break;
		}
		case BPFRR_REC_BPF_CALL: {
			const struct bpfrr_rec_bpf_call *c = &rec.bpf_call;

			const char *name = bpfrr_abi_cmd_name((int)c->cmd);

			printf("BPF_CALL seq=%llu tid=%u cmd=%s cmdnr=%u size=%u flags=%#x ret=%lld attr_len=%u",
			       (unsigned long long)c->seq, c->tid, name ? name : "?", c->cmd, c->attr_size,
			       c->flags, (long long)c->ret, c->attr_len);
			print_regions(r, c->nr_regions, c->regions);
			break;
		}
		case BPFRR_REC_SYSCALL: {
			const struct bpfrr_rec_syscall *c = &rec.syscall;

			printf("SYSCALL seq=%llu tid=%u name=%s nr=%u a0=%lld a1=%lld a2=%lld flags=%#x ret=%lld",
			       (unsigned long long)c->seq, c->tid, c->name, c->nr, (long long)c->args[0],
			       (long long)c->args[1], (long long)c->args[2], c->flags, (long long)c->ret);
			print_regions(r, c->nr_regions, c->regions);
			break;
		}
		case BPFRR_REC_FD_EVENT: {
			const struct bpfrr_rec_fd_event *e = &rec.fd_event;

			printf("FD op=%s seq=%llu tid=%u fd=%d newfd=%d kind=%u flags=%#x object=%llu",
			       bpfrr_trace_fd_op_name(e->op), (unsigned long long)e->seq, e->tid, e->fd,
			       e->newfd, e->kind, e->flags, (unsigned long long)e->object);
			break;
		}
		case BPFRR_REC_OBJECT: {
			const struct bpfrr_rec_object *o = &rec.object;

			int i;

			printf("OBJECT seq=%llu tid=%u fd=%d kind=%u flags=%#x err=%d id=%u type=%u tag=",
			       (unsigned long long)o->seq, o->tid, o->fd, o->kind, o->flags, o->err, o->id,
			       o->type);
			for (i = 0; i < 8; i++)
				printf("%02x", o->tag[i]);
			print_str("name", o->name);
			break;
		}
		case BPFRR_REC_NOTE:
			printf("NOTE seq=%llu tid=%u level=%u", (unsigned long long)rec.note.seq, rec.note.tid,
			       rec.note.level);
			print_str("text", rec.note.text);
			break;
		case BPFRR_REC_END:
			printf("END status=%d flags=%#x bpf_calls=%llu syscalls=%llu", rec.end.exit_status,
			       rec.end.flags, (unsigned long long)rec.end.nr_bpf_calls,
			       (unsigned long long)rec.end.nr_syscalls);
			break;
		case BPFRR_REC_KERNEL: {
			const struct bpfrr_rec_kernel *k = &rec.kernel;
			int i;

			printf("KERNEL flags=%#x btf_size=%u btf_sha256=", k->flags, k->btf_size);
			for (i = 0; i < 32; i++)
				printf("%02x", k->btf_sha256[i]);
			print_str("release", k->release);
			print_str("machine", k->machine);
			print_str("build_id", k->build_id);
			print_str("version", k->version);
			break;
		}
		case BPFRR_REC_SYMBOL: {
			const struct bpfrr_rec_symbol *s = &rec.symbol;

			printf("SYMBOL seq=%llu kind=%u flags=%#x value=%llu btf_kind=%u btf_obj_id=%u offset=%llu",
			       (unsigned long long)s->seq, s->kind, s->flags, (unsigned long long)s->value,
			       s->btf_kind, s->btf_obj_id, (unsigned long long)s->offset);
			print_str("name", s->name);
			print_str("module", s->module);
			break;
		}
		case BPFRR_REC_BLOB:
			continue;
		default:
			printf("UNKNOWN type=%u", rec.type);
			break;
		}
		putchar('\n');
	}
	if (st == BPFRR_TRACE_EOF) {
		bpfrr_trace_reader_close(r);
		return 0;
	}
	fprintf(stderr, "record_tracecat: %s\n", bpfrr_trace_error(r));
	bpfrr_trace_reader_close(r);
	return st == BPFRR_TRACE_TRUNCATED ? 3 : 2;
}

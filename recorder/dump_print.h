/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dump_print.h - bpfrr dump's printing side: what the walk (dump.c) hands
 * the printers, and what they may ask it.
 *
 * The walk reads the trace, keeps the fd model and the counts, applies the
 * filters, and hands each record to the printer chosen once per run from the
 * options (bpftool's json/plain pairs, as a table): text (dump_text.c), JSON
 * Lines (dump_jsonl.c), a summary in either (dump_summary.c), or a Graphviz
 * graph (dump_dot.c: it keeps what the calls say and draws in summary).  What a
 * captured buffer holds (instructions, BTF, logs, numbers, fds, info structs)
 * is decoded once in dump_render.c, which calls the printer's content hooks to
 * lay it out.  No printer knows the fd model: it sees objects through
 * dump_fd_object().
 */
#ifndef BPFRR_DUMP_PRINT_H
#define BPFRR_DUMP_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bpf_abi.h"
#include "bpf_disasm.h"
#include "dump.h"
#include "trace.h"

#define DUMP_SMALL_BUF		64	/* buffers up to this size are shown whole */
#define DUMP_LOG_EXCERPT_LINES	20	/* verifier log lines shown for a failed call */
#define DUMP_TEXT_MAX_NAMES	16	/* BTF names listed in text without -v */
#define DUMP_ARRAY_SHOWN	64	/* elements of id/number arrays shown in text without -v */

struct btf;
struct btf_type;
struct dump;			/* the walk (dump.c) */
struct dump_printer;
struct dump_inner;		/* an inner call of a loader program being printed (dump_loader.c) */
struct bpfrr_lskel;		/* lib/loader_decode.h */
struct bpfrr_ld_patch;
struct bpfrr_ld_buf;

/* Where a printer writes, and what of the run it may look at. */
struct dump_out {
	FILE *f;
	struct json_out j;		/* the JSON printers' writer on f */
	const struct bpfrr_dump_opts *opts;
	void *state;			/* the printer's own, made by begin(), freed by finish() */
	const struct bpfrr_trace_header *hdr;	/* NULL: none */
	struct bpfrr_trace_reader *r;	/* for the blobs of regions */
	const struct dump_printer *p;	/* the one chosen for the run */
	struct dump *walk;
	const struct dump_inner *inner;	/* the inner call of a loader program being printed, or NULL */
	bool oom;			/* a printer ran out of memory */
};

/* The object an fd referred to when the call was made, as the printers show it. */
struct dump_obj {
	uint32_t kind;			/* enum bpfrr_obj_kind */
	uint64_t origin;		/* seq of the call that made it; 0: made outside the trace */
	const void *handle;		/* the walk's object: the same for every fd of it during the run */
	const char *name;		/* the identity's name, else the creating attr's; "" if none */
	const char *made_by;		/* "BPF_MAP_CREATE", "perf_event_open", "adopted"; NULL: unknown */
	bool has_id;			/* the recorder's identity query succeeded */
	uint32_t id;			/* the kernel's id of it, when has_id */
	uint32_t inner;			/* k: what inner call #k of the loader program being shown returns */
};

/* One call as the walk hands it to the printer. */
struct dump_call {
	const struct bpfrr_rec_bpf_call *bpf;	/* a bpf() call, or */
	const struct bpfrr_rec_syscall *sys;	/* another syscall */
	const struct bpfrr_trace_region *regions;
	uint32_t nr_regions;
	bool failed;			/* it returned an error */
	struct bpfrr_abi_env env;	/* bpf(): the ABI walkers' view of entry memory and fds */
	/* the object a bpf() call made (BPFRR_OBJ_NONE: none, or the call failed) */
	uint32_t made_kind;
	const struct bpfrr_rec_object *ident;	/* the recorder's identity of it, or NULL */
	bool *region_done;		/* nr_regions flags, all false: printed already */
	/* BPF_PROG_LOAD of a light skeleton's loader program: what it will do, decoded with its
	 * blob (the value map #loader_blob_seq got at #loader_update_seq); or why not (loader NULL) */
	const struct bpfrr_lskel *loader;
	const char *loader_why;
	uint64_t loader_map_seq, loader_update_seq;
	uint32_t loader_blob_len;
	const struct dump_inner *inner;	/* this call is an inner call of a loader program */
};

/* An inner bpf() call of a loader program, as a call the printers lay out (dump_loader.c). */
struct dump_inner {
	const struct bpfrr_lskel *ld;
	uint32_t k;			/* its index in ld->calls */
	struct bpfrr_rec_bpf_call call;	/* its attr as the blob holds it then, its buffers */
	struct bpfrr_trace_region *regions;
	struct bpfrr_rec_blob *blobs;
	bool *region_done;
	struct bpfrr_abi_env env;
	struct dump_call dc;		/* what the printers get */
};

/* Per-command and per-syscall counters of the summary. */
struct dump_counter {
	const char *name;	/* points into the trace or static names */
	uint64_t calls, failed;
};

/* A failed call, for the summary. */
struct dump_failure {
	uint64_t seq;
	uint32_t tid;
	const char *what;	/* command or syscall name (static or trace memory); NULL: unknown cmd */
	uint32_t cmd;		/* the bpf() command when what is NULL */
	int err;		/* errno; 0: did not return */
	char *reason;		/* the last meaningful line of the log the kernel wrote, or NULL */
};

/* What the walk counted, for the summary. */
struct dump_summary {
	const struct dump_counter *cmd_counts;	/* BPFRR_ABI_NR_CMDS + 1; last: unknown commands */
	const struct dump_counter *sys_counts;
	size_t nr_sys_counts;
	const uint64_t *created;		/* BPFRR_OBJ__MAX + 1, by kind */
	uint64_t nr_bpf, nr_sys, nr_failed, nr_tasks;
	const struct dump_failure *failures;
	size_t nr_failures;
	const struct bpfrr_rec_end *end;	/* NULL: no END record */
};

/*
 * A printer: what one run produces.  A NULL hook prints nothing for that
 * (JSON has no tasks or header, a summary has no calls).
 */
struct dump_printer {
	void (*begin)(struct dump_out *o);
	void (*header)(struct dump_out *o, const char *trace_name);
	void (*bpf_call)(struct dump_out *o, const struct dump_call *c);
	void (*syscall)(struct dump_out *o, const struct dump_call *c);
	void (*task)(struct dump_out *o, const struct bpfrr_rec_task *t);
	void (*note)(struct dump_out *o, const struct bpfrr_rec_note *n);
	void (*end)(struct dump_out *o, const struct bpfrr_rec_end *e);
	/* a captured BPF ELF object (blob NULL if the trace lacks it) */
	void (*elf)(struct dump_out *o, const struct bpfrr_rec_elf *e, const struct bpfrr_rec_blob *blob);
	/* -v: the records that are not calls (blobs, fd events, identities, unknown) */
	void (*record)(struct dump_out *o, const struct bpfrr_trace_record *rec);
	void (*summary)(struct dump_out *o, const char *trace_name, const struct dump_summary *s);
	/* the very last: free what begin() made (also after a corrupt trace, when summary is not called) */
	void (*finish)(struct dump_out *o);

	/* the content of a captured buffer, decoded by dump_render_content() */
	void (*string)(struct dump_out *o, const char *s, size_t len, const char *indent);
	/* log text[start..end): the excerpt (start > 0) or all of it */
	void (*log)(struct dump_out *o, const struct dump_call *c, const char *text, size_t start, size_t end,
		    const char *indent);
	void (*insns)(struct dump_out *o, const struct bpfrr_disasm_opts *opts, const void *insns, size_t len,
		      const char *indent);
	void (*btf)(struct dump_out *o, const struct btf *btf, const char *indent);	/* NULL: not BTF */
	void (*numbers)(struct dump_out *o, const void *data, size_t len, int width, const char *indent);
	/* kernel addresses the trace has names for (kprobe_multi.addrs); NULL: as numbers */
	void (*kernel_addrs)(struct dump_out *o, const void *data, size_t len, const char *indent);
	/* n fds, 4 bytes each, as the call passed them */
	void (*fd_array)(struct dump_out *o, const void *fds, size_t n, const char *indent);
	void (*info)(struct dump_out *o, const struct bpfrr_struct_desc *desc, const void *data, size_t len,
		     const char *indent);
	void (*perf_attr)(struct dump_out *o, const void *data, size_t len, const char *indent);
	/* netlink messages a loader sent (lib/netlink.h); NULL: as bytes */
	void (*netlink)(struct dump_out *o, const struct dump_call *c, const void *data, size_t len,
			const char *indent);
	void (*bytes)(struct dump_out *o, const void *data, size_t len, const char *indent);
};

extern const struct dump_printer dump_text_printer;		/* dump_text.c */
extern const struct dump_printer dump_jsonl_printer;		/* dump_jsonl.c */
extern const struct dump_printer dump_summary_text_printer;	/* dump_summary.c */
extern const struct dump_printer dump_summary_json_printer;
extern const struct dump_printer dump_dot_printer;		/* dump_dot.c */

/* --- what the printers may ask the walk (dump.c) ---------------------------------- */

/* The object fd referred to in the task of the call being printed; false: unknown fd. */
bool dump_fd_object(const struct dump_out *o, int fd, struct dump_obj *obj);
/* The recording kernel's build identity, NULL for a 1.0 trace. */
const struct bpfrr_rec_kernel *dump_kernel(const struct dump_out *o);
/* What a number of the recording kernel named (bpfrr_rt_symbol()), or NULL. */
const struct bpfrr_rec_symbol *dump_symbol(const struct dump_out *o, uint32_t kind, uint64_t value,
					   const char *module);
/* Tracee memory at the entry of the call being printed, as far as its regions captured it. */
int dump_read_entry(const struct dump_out *o, uint64_t addr, void *buf, size_t len);
/* The notes the recorder made about call seq: *pos starts at 0; NULL after the last. */
const char *dump_next_note(const struct dump_out *o, uint64_t seq, size_t *pos);
/* The call whose close (or dup over it) dropped the last fd of the object call origin made,
 * so far; 0 if none did (it is open, its tasks' exits closed it, or there is no such object). */
uint64_t dump_obj_closed_by(const struct dump_out *o, uint64_t origin);

/* --- inner calls of a loader program (dump_loader.c) ------------------------------- */

/* Set up *in for inner call k of outer->loader (a bpf_sys_bpf() call) and make it the one
 * o prints (o->inner); dump_inner_fini() undoes both.  -1 on ENOMEM (o->oom set). */
int dump_inner_init(struct dump_out *o, const struct dump_call *outer, uint32_t k, struct dump_inner *in);
void dump_inner_fini(struct dump_out *o, struct dump_inner *in);
const struct bpfrr_abi_env *dump_inner_env(struct dump_out *o, struct dump_inner *in);
/* memory of the inner call: its attr and buffers, by their placeholder addresses; 0 or -1 */
int dump_inner_read(const struct dump_inner *in, uint64_t addr, void *buf, size_t len);
/* a placeholder fd as the object an earlier inner call returns; false if fd is not one */
bool dump_inner_fd_object(const struct dump_inner *in, int fd, struct dump_obj *view);
/* the decoder's buffer behind region reg of inner call c, or NULL */
const struct bpfrr_ld_buf *dump_inner_buf(const struct dump_call *c, const struct bpfrr_trace_region *reg);
/* the run-time value patched into attr field f of inner call c, or NULL */
const struct bpfrr_ld_patch *dump_inner_patch(const struct dump_call *c, const struct bpfrr_field *f);
/* the same as text ("<fd of inner #2 BPF_MAP_CREATE>", "<from ctx+8 (ctx.log_level)>",
 * "blob+2328", "2 in the blob, or at run time from ctx+28 (branch at insn 54)"); false if not patched */
bool dump_inner_field(const struct dump_call *c, const struct bpfrr_field *f, char *buf, size_t size);

/* --- the content renderers and shared names (dump_render.c) ------------------------ */

/* What a region's bytes hold, decoded and handed to the printer's content hooks. */
void dump_render_content(struct dump_out *o, const struct dump_call *c, const struct bpfrr_trace_region *reg,
			 const struct bpfrr_rec_blob *b, const char *indent);

/* The device name the recorder gave ifindex in netlink request c ("ifname.IFINDEX"), or NULL. */
const char *dump_call_ifname(const struct dump_out *o, const struct dump_call *c, int32_t ifindex);

/* --- what the kernel's numbers named (dump_render.c, issue 11) --------------------------- */

/*
 * A symbol as text: "func vfs_read", "syscalls/sys_enter_openat",
 * "PMU kprobe", "do_sys_openat2+0x10", with " [MODULE]" for a module's;
 * "unnamed" if the recorder found no name.
 */
void dump_symbol_text(const struct bpfrr_rec_symbol *s, char *buf, size_t size);
/* enum bpfrr_sym_kind as "btf_id", "tp_id", "pmu_type", "ksym_addr"; "unknown" */
const char *dump_symbol_kind_name(uint32_t kind);
/* BTF_KIND_* as "func", "struct", ...; "unknown" beyond the known kinds */
const char *dump_btf_kind_name_of(uint32_t kind);
/* The symbol of a KERNEL_BTF attr field of bpf() call c (lib/bpf_abi.h), or NULL. */
const struct bpfrr_rec_symbol *dump_attr_symbol(const struct dump_out *o, const struct dump_call *c,
						const struct bpfrr_field *f);
/* What kernel_addrs of a perf_event_attr named: type (a dynamic PMU), config (a tracepoint id),
 * config2 (the kprobe PMU's address); NULL members where nothing is recorded. */
struct dump_perf_symbols {
	const struct bpfrr_rec_symbol *type, *config, *config2;
};
void dump_perf_attr_symbols(const struct dump_out *o, const void *data, size_t len,
			    struct dump_perf_symbols *ps);
/* Every number of call c the trace names, in attr, insns, address arrays and perf attrs, with its path. */
void dump_call_symbols(struct dump_out *o, const struct dump_call *c,
		       void (*fn)(void *arg, const char *path, const struct bpfrr_rec_symbol *s), void *arg);

/* The BTF types (without void) and how many have names. */
void dump_btf_counts(const struct btf *btf, uint32_t *types, uint32_t *named);
const char *dump_btf_kind_name(const struct btf_type *t);

/*
 * The attr fields the kernel changed: the entry pass records each field,
 * the exit pass shows only those that differ (or were not seen at entry).
 */
struct dump_fields_seen {
	struct {
		const struct bpfrr_field *f;
		uint64_t value;
		char *symbolic;
	} *entry;
	size_t nr, cap;
};
/* false: out of memory */
bool dump_fields_seen_add(struct dump_fields_seen *s, const struct bpfrr_field *f, uint64_t value,
			  const char *symbolic);
bool dump_field_changed(const struct dump_fields_seen *s, const struct bpfrr_field *f, uint64_t value,
			const char *symbolic);
void dump_fields_seen_free(struct dump_fields_seen *s);

/* The blob of a region, NULL if none was captured. */
const struct bpfrr_rec_blob *dump_region_blob(const struct dump_out *o, const struct bpfrr_trace_region *reg);

const char *dump_cmd_name(uint32_t cmd);	/* NULL: not a command this version knows */
const char *dump_kind_name(uint32_t kind);	/* "map", ...; "object" for an unknown kind */
const char *dump_errno_name(int e);		/* "ENOENT", "E?" */
const char *dump_phase_name(uint8_t phase);
const char *dump_dir_name(uint8_t dir);
/* The UAPI name of value in the enum of field of cmd's attr ("BPF_MAP_TYPE_HASH"), or NULL. */
const char *dump_uapi_name(int cmd, const char *field, uint64_t value);
const char *dump_link_type_uapi(uint32_t type);

/* --- text pieces the text printers share (dump_text.c) ----------------------------- */

/* s[0..len) with C escapes for anything not printable ASCII */
void dump_text_escape(FILE *f, const void *data, size_t len);
void dump_text_quoted(FILE *f, const void *data, size_t len);
/* An argv word: bare if harmless, else quoted. */
void dump_text_word(FILE *f, const char *s);
void dump_text_hex(FILE *f, const void *data, size_t len);
/*
 * The verifier's (or BTF's) reason in a log the kernel wrote: its last line
 * that is not a statistic ("processed N insns", "verification time", "stack
 * depth") or empty, copied into buf (NUL-terminated).  0 if none.
 */
size_t dump_log_reason(const char *text, size_t len, char *buf, size_t size);
/* "PREFIXkernel build: RELEASE VERSION MACHINE, vmlinux BTF N bytes sha256 HEX, build id HEX" (k may be NULL) */
void dump_text_kernel(FILE *f, const struct bpfrr_rec_kernel *k, const char *prefix);
/* The build identity as the JSON object key (dump_jsonl.c) */
void dump_kernel_json(struct json_out *j, const char *key, const struct bpfrr_rec_kernel *k);
/* "exited with 0", "killed by SIGKILL" */
void dump_text_wait_status(FILE *f, int32_t status);

#endif /* BPFRR_DUMP_PRINT_H */

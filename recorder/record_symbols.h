/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record_symbols.h - what the recording kernel's numbers name: the symbol
 * table behind the recorder's KERNEL and SYMBOL records (record_symbols.c).
 *
 * Everything is read from files, never through bpf(): vmlinux and module
 * BTF (/sys/kernel/btf), the tracepoint ids (tracefs events/CAT/NAME/id),
 * the PMU types (/sys/bus/event_source/devices/NAME/type), /proc/kallsyms
 * and the build id note (/sys/kernel/notes).  Each source is read once, on
 * the first number that needs it, so a load that carries none costs
 * nothing.  The roots are injectable for the unit tests.
 */
#ifndef BPFRR_RECORD_SYMBOLS_H
#define BPFRR_RECORD_SYMBOLS_H

#include <stdbool.h>
#include <stdint.h>

#include "trace.h"

/* Where the table reads from; a NULL member: the system's path. */
struct rec_symtab_roots {
	const char *btf;		/* "/sys/kernel/btf": vmlinux and one file per module */
	const char *notes;		/* "/sys/kernel/notes" */
	const char *tracefs;		/* "/sys/kernel/tracing" (then /sys/kernel/debug/tracing) */
	const char *pmus;		/* "/sys/bus/event_source/devices" */
	const char *kallsyms;		/* "/proc/kallsyms" */
	bool hash_btf;			/* hash vmlinux BTF even when a build id names the build */
};

struct rec_symtab;

/* NULL roots: the system's.  NULL on ENOMEM. */
struct rec_symtab *rec_symtab_new(const struct rec_symtab_roots *roots);
void rec_symtab_free(struct rec_symtab *st);

/*
 * The running kernel's build identity (uname, the GNU build id, the size of
 * vmlinux BTF; its SHA-256 only when there is no build id, or roots asked
 * for hash_btf: else BPFRR_KERNEL_F_BTF_UNHASHED); its strings stay in st.
 */
void rec_symtab_kernel(struct rec_symtab *st, struct bpfrr_rec_kernel *k);

/*
 * A tracepoint id the recorder saw in tracefs, in the id file of events/NAME
 * ("category/event") that the loader opened: naming that id then needs no
 * scan of tracefs (thousands of directories; tens of ms under TCG).
 * 0 or -ENOMEM.
 */
int rec_symtab_tp_seen(struct rec_symtab *st, uint64_t id, const char *name);
/* The name of a tracepoint id st knows already (seen, or from a scan), else NULL. */
const char *rec_symtab_tp_name(const struct rec_symtab *st, uint64_t id);

/* A kernel BTF object the recorder identified: its id and name ("vmlinux", a module). 0 or -ENOMEM. */
int rec_symtab_btf_object(struct rec_symtab *st, uint32_t id, const char *name);
/* The name of BTF object id, or NULL if the recorder never identified it. */
const char *rec_symtab_btf_object_name(const struct rec_symtab *st, uint32_t id);
/* vmlinux's BTF object id, 0 until the recorder identified it. */
uint32_t rec_symtab_vmlinux_obj_id(const struct rec_symtab *st);

/*
 * What value of kind (enum bpfrr_sym_kind) names on this kernel, into *sym
 * (seq left 0; strings stay in st).  module: for BTF_ID the module whose
 * BTF holds the id ("" vmlinux, NULL: a module the recorder could not
 * learn, written as "?"); ignored for the other kinds.  btf_obj_id: the
 * id of that BTF object if known, else 0.  A number nothing names gets
 * BPFRR_SYM_F_UNNAMED and name "".
 */
void rec_symtab_name(struct rec_symtab *st, uint32_t kind, uint64_t value, const char *module,
		     uint32_t btf_obj_id, struct bpfrr_rec_symbol *sym);

/*
 * Where a value of the struct_ops type value_type (a BTF id of vmlinux,
 * module "", or of module's BTF) holds program fds: the byte offsets of the
 * function pointer members of its `data` member, as the kernel's
 * bpf_struct_ops_map_update_elem() reads them.  Their number (at most max),
 * or -ENOENT: no such type, or not a struct_ops value type.
 */
int rec_symtab_value_fds(struct rec_symtab *st, uint64_t value_type, const char *module, uint32_t *offsets,
			 unsigned int max);

/*
 * The first time (kind, value, module) is asked: 1 (and it is remembered),
 * else 0; -ENOMEM.  module as for rec_symtab_name().
 */
int rec_symtab_first(struct rec_symtab *st, uint32_t kind, uint64_t value, const char *module);

#endif /* BPFRR_RECORD_SYMBOLS_H */

// SPDX-License-Identifier: GPL-2.0-only
/*
 * emit.c - a growing BPF program with labels and per-instruction notes.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"

/* The verifier's own limit on privileged programs. */
#define EMIT_MAX_INSNS	(1u << 20)

void emit_init(struct bpfrr_emit *e, bool keep_notes)
{
	memset(e, 0, sizeof(*e));
	e->keep_notes = keep_notes;
}

void emit_release(struct bpfrr_emit *e)
{
	uint32_t i;

	if (e->notes)
		for (i = 0; i < e->nr; i++)
			free(e->notes[i]);
	free(e->notes);
	free(e->insns);
	free(e->pending_note);
	free(e->labels);
	free(e->fixups);
	memset(e, 0, sizeof(*e));
}

static int reserve(struct bpfrr_emit *e, uint32_t more)
{
	uint32_t ncap;
	void *p;

	if (e->err)
		return e->err;
	if (e->nr + more <= e->cap)
		return 0;
	if (e->nr + more > EMIT_MAX_INSNS) {
		e->err = -E2BIG;
		return e->err;
	}
	ncap = e->cap ? e->cap * 2 : 64;
	while (ncap < e->nr + more)
		ncap *= 2;
	p = realloc(e->insns, (size_t)ncap * sizeof(*e->insns));
	if (!p)
		goto nomem;
	e->insns = p;
	if (e->keep_notes) {
		p = realloc(e->notes, (size_t)ncap * sizeof(*e->notes));
		if (!p)
			goto nomem;
		e->notes = p;
		memset(e->notes + e->cap, 0, (size_t)(ncap - e->cap) * sizeof(*e->notes));
	}
	e->cap = ncap;
	return 0;
nomem:
	e->err = -ENOMEM;
	return e->err;
}

void emit(struct bpfrr_emit *e, struct bpf_insn insn)
{
	if (reserve(e, 1))
		return;
	if (e->keep_notes) {
		e->notes[e->nr] = e->pending_note;
		e->pending_note = NULL;
	}
	e->insns[e->nr++] = insn;
}

void emit_ld_imm64(struct bpfrr_emit *e, uint8_t dst, uint8_t pseudo, int32_t imm, int32_t imm2)
{
	if (reserve(e, 2))
		return;
	emit(e, insn_raw(BPF_LD | BPF_IMM | BPF_DW, dst, pseudo, 0, imm));
	emit(e, insn_raw(0, 0, 0, 0, imm2));
}

void emit_note(struct bpfrr_emit *e, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (!e->keep_notes || e->err)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s) {
		e->err = -ENOMEM;
		return;
	}
	free(e->pending_note);
	e->pending_note = s;
}

uint32_t emit_label(struct bpfrr_emit *e)
{
	uint32_t *p;

	if (e->nr_labels == e->cap_labels) {
		uint32_t ncap = e->cap_labels ? e->cap_labels * 2 : 8;

		p = realloc(e->labels, ncap * sizeof(*p));
		if (!p) {
			e->err = e->err ? e->err : -ENOMEM;
			return 0;
		}
		e->labels = p;
		e->cap_labels = ncap;
	}
	e->labels[e->nr_labels] = UINT32_MAX;
	return e->nr_labels++;
}

void emit_bind(struct bpfrr_emit *e, uint32_t label)
{
	if (!e->err && label < e->nr_labels)
		e->labels[label] = e->nr;
}

static void add_fixup(struct bpfrr_emit *e, uint32_t label, bool wide)
{
	struct emit_fixup *p;

	if (e->err)
		return;
	if (e->nr_fixups == e->cap_fixups) {
		uint32_t ncap = e->cap_fixups ? e->cap_fixups * 2 : 16;

		p = realloc(e->fixups, ncap * sizeof(*p));
		if (!p) {
			e->err = -ENOMEM;
			return;
		}
		e->fixups = p;
		e->cap_fixups = ncap;
	}
	e->fixups[e->nr_fixups++] = (struct emit_fixup){ e->nr - 1, label, wide };
}

void emit_jmp_imm(struct bpfrr_emit *e, uint8_t class, uint8_t op, uint8_t reg, int32_t imm,
		  uint32_t label)
{
	emit(e, insn_raw(class | op | BPF_K, reg, 0, 0, imm));
	add_fixup(e, label, false);
}

void emit_goto(struct bpfrr_emit *e, uint32_t label, bool wide)
{
	/* gotol is BPF_JMP32 | BPF_JA with the offset in imm (kernel 6.6+) */
	emit(e, insn_raw((wide ? BPF_JMP32 : BPF_JMP) | BPF_JA, 0, 0, 0, 0));
	add_fixup(e, label, wide);
}

int emit_finish(struct bpfrr_emit *e)
{
	uint32_t i;

	if (e->err)
		return e->err;
	for (i = 0; i < e->nr_fixups; i++) {
		const struct emit_fixup *f = &e->fixups[i];
		int64_t delta;

		if (f->label >= e->nr_labels || e->labels[f->label] == UINT32_MAX)
			return -ERANGE;
		delta = (int64_t)e->labels[f->label] - (int64_t)f->insn - 1;
		if (f->wide) {
			e->insns[f->insn].imm = (int32_t)delta;
			continue;
		}
		if (delta < INT16_MIN || delta > INT16_MAX)
			return -ERANGE;
		e->insns[f->insn].off = (int16_t)delta;
	}
	return 0;
}

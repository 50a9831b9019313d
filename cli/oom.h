/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef BPFRR_OOM_H
#define BPFRR_OOM_H

#include <stdbool.h>

/* true once an allocation of this run failed (cli/oom.c: the bpfrr binary's wrappers) */
bool bpfrr_oom_seen(void);

#endif /* BPFRR_OOM_H */

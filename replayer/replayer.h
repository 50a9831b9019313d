/* SPDX-License-Identifier: GPL-2.0-only */
/* The replayer's subcommands, called by the dispatcher (cli/bpfrr.c). */
#ifndef BPFRR_REPLAYER_H
#define BPFRR_REPLAYER_H

int bpfrr_translate_main(int argc, char **argv);
int bpfrr_replay_main(int argc, char **argv);

#endif /* BPFRR_REPLAYER_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * commands.h - cyclestat's subcommands, each run from a row of cli.c's
 * commands[] with the options parsed once; each returns its exit status.
 *
 * The top of cyclestat's headers: it may include any below it, and needs
 * only model.h (struct cs_opts).  What compare.c shares with its helpers
 * is compare.h's.
 */
#ifndef CS_COMMANDS_H
#define CS_COMMANDS_H

#include "model.h"

/* save.c: a live tree copied to @dir */
int cs_save(const struct cs_opts *o, const char *dir);
/* run.c: write a run request, follow it, print its results */
int cs_run(const struct cs_opts *o, int argc, char **argv);
/* compare.c */
int cs_compare(const struct cs_opts *o, char **base, size_t nbase, char **new, size_t nnew);
/* ab.c: make ab's table, exact under --clock icount */
int cs_ab(const struct cs_opts *o, char **a, size_t na, char **b, size_t nb);
/* doctor.c */
int cs_doctor(const struct cs_opts *o);

#endif /* CS_COMMANDS_H */

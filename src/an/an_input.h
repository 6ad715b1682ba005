/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One input file read for an analysis, printing nothing: the file loaded
 * (gzip, "-" for standard input), a run summary told apart from a trace, the
 * trace decoded with the analysis's read options, errors naming the file;
 * and what the reader and the file itself report, as warnings. The command
 * layer and the public library both read through here.
 */
#ifndef AN_INPUT_H
#define AN_INPUT_H

#include <stdint.h>

#include "an_analysis.h"
#include "an_exec.h"
#include "xp_err.h"
#include "xp_model.h"

/*
 * An analysis's read profile into o: the key stats kept, the host events
 * kept, an event's own stats, the analysis of each plane as it is read. The
 * reader, the jobs, which planes are read now and plane_read's ctx are the
 * caller's.
 */
void an_read_opts(struct xp_read_opts *o, const struct an_read_profile *p);
/* For xp_read_opts.want_plane: the host planes ("/host:..."), as AN_READ_HOST reads. */
int an_wants_host_plane(const char *name, void *ctx);

/* an_input_read: the file holds run summaries (an_run.h), not a trace; nothing was read. */
#define AN_INPUT_SUMMARY 1

/*
 * Loads path (at most max_input bytes from a pipe or through gzip) and
 * decodes it as o says (o->input_mapped is set here). Planes o->want_plane
 * defers, and stats XP_EVSTATS_INPUT leaves in the input, are read later
 * from the file's bytes, which the trace then keeps. Returns 0 (*t the
 * trace, freed with xp_trace_free), AN_INPUT_SUMMARY, or an xp_errcode
 * (err naming path).
 */
int an_input_read(const char *path, uint64_t max_input, const struct xp_read_opts *o, struct xp_trace **t,
		  struct xp_err *err);
/*
 * After the last read of t (its lazy planes, its stats left in the input):
 * when t's file shrank while it was read (xp_trace_input_changed), some of
 * what was read was zeros, and whatever came of t is not the file's.
 * Returns XP_ERR_IO with err naming path (over any error err held: the
 * zeros may have made that one), else 0. an_input_read checks what it
 * reads itself.
 */
int an_input_check(const struct xp_trace *t, const char *path, struct xp_err *err);
/* Puts "'path': " before err's message unless it names an input already. */
void an_input_name_err(struct xp_err *err, const char *path);
/*
 * The reader's counts of skipped or odd items, and the errors and warnings
 * the file itself records (XSpace.errors, XSpace.warnings), as notes naming
 * path. 0 or XP_ERR_NOMEM.
 */
int an_input_notes(struct xp_notes *n, const char *path, const struct xp_trace *t);
/*
 * Finds t's executions into l (an_exec_find: l to release whatever it
 * returns) and adds to n the reader's warnings (*reader_notes: how many
 * notes n then holds; NULL: not wanted) and then the executions', naming
 * path. 0, or an xp_errcode (err naming path).
 */
int an_input_execs(struct xp_trace *t, const struct an_exec_opts *xo, const char *path, struct an_exec_list *l,
		   struct xp_notes *n, size_t *reader_notes, struct xp_err *err);
/* What an_exec_find left out or could not use on each device, as notes naming path. 0 or XP_ERR_NOMEM. */
int an_exec_notes(struct xp_notes *n, const char *path, const struct an_exec_list *l);

/*
 * Every plane's name of t, and which device planes hold no device events
 * (empty 1; 2 when their device lines hold aggregated events only), reading those the
 * reader deferred, for a summary's provenance and messages (free with
 * an_planes_free). 0 or -1 when out of memory.
 */
int an_plane_list(struct xp_trace *t, char ***names, unsigned char **empty);
void an_planes_free(char **names, unsigned char *empty, size_t n);
/*
 * The size and crc32 of the file at path as stored (compressed when gzip),
 * a summary's provenance: 0 and 0 for standard input ("-"). 0, or
 * XP_ERR_IO with err naming the file.
 */
int an_file_crc(const char *path, uint64_t *size, uint32_t *crc, struct xp_err *err);

#endif

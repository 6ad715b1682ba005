/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Run summaries: what the analyses need of one input profile, recomputed
 * later without the trace. On disk one JSON line per run (an_summary.h
 * reads and writes it): the input's provenance, the options it was
 * summarised with, the reader's warnings, and its executions
 * (an_exec_list: every device's counts and every execution in order), from
 * which functions, autotune and diff give what they give on the trace; and,
 * from summarize, what kernels and ops need: each device plane's kernels
 * (an_kern_add_plane by every key field, each row's instances one by one up
 * to AN_KERN_EXACT_MAX, beyond as a sketch with exact moments) and ops
 * (an_ops_add_plane's rows, device and counts, exactly), with the reader's
 * warnings as those commands read the file.
 *
 * Ownership: a run owns every string and array in it; an_run_release frees them.
 */
#ifndef AN_RUN_H
#define AN_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "an_exec.h"
#include "an_kernels.h"
#include "an_ops.h"
#include "xp_err.h"

/* For history (--history, summarize --commit): where and when the run was made. */
struct an_run_hist {
	int present;
	char *commit;		/* short hash, "" when not in a git tree */
	int dirty;		/* the tree had changes: shown as a '+' after the commit */
	uint64_t run;		/* 1 for a commit's first run in the file, then 2... */
	int64_t time;		/* seconds since 1970 (UTC) */
	char *host;
};

/* One device plane's kernels (AN_KERN_BY_ALL) or ops, as an_*_add_plane left them. */
struct an_run_kern_plane {
	char *plane;
	char *device;		/* its key among distinct devices; NULL: no stream lines (r counts the plane) */
	struct an_kern_result r;
};

struct an_run_ops_plane {
	char *plane;		/* the first of the planes of its device (one name: --device takes all or none) */
	struct an_ops_result r;	/* one device */
};

struct an_run_kernels {
	char **warnings;	/* the reader's, as kernels reads the file */
	size_t nwarnings;
	struct an_run_kern_plane *planes;
	size_t nplanes;
};

struct an_run_ops {
	char **warnings;	/* the reader's, as ops reads the file */
	size_t nwarnings;
	struct an_run_ops_plane *planes;
	size_t nplanes;
};

struct an_run {
	/* provenance */
	char *path;		/* as the summarising command was given it */
	uint64_t size;		/* bytes of the file as stored (compressed when gzip) */
	uint32_t crc32;		/* of those bytes: tells apart files of one name */
	char *tool;		/* "xplane-stat 0.1.0" */
	char **hostnames;
	size_t nhostnames;
	char **planes;		/* every plane's name, in file order (for "no device plane" messages) */
	unsigned char *plane_empty;	/* per plane: a device plane without device events */
	size_t nplanes;
	char **tags;		/* free "KEY=VALUE" tags (--tag) */
	size_t ntags;
	struct an_run_hist hist;
	/* the options executions were found with: an analysis must ask for the same */
	char *device;		/* --device, NULL: every device plane */
	char *children;		/* --children regex text, NULL: none (children_ps absent) */
	int64_t min_dur_ps;
	/* the reader's warnings about the file (an_input_notes), texts as they were */
	char **warnings;
	size_t nwarnings;
	struct an_exec_list execs;
	/* NULL when the line has none (from --history, or an older xplane-stat) */
	struct an_run_kernels *kernels;
	struct an_run_ops *ops;
	/* where it was read from, for messages (an_summary_parse's file and line) */
	char *src_file;
	size_t src_line;
};

void an_run_release(struct an_run *run);

/*
 * Keeps of run's executions only the devices whose plane name matches
 * pattern (an_device_matches), as an_exec_find with --device would have
 * found them. 0 or XP_ERR_NOMEM.
 */
int an_run_select_devices(struct an_exec_list *l, const char *pattern);

/*
 * From a trace read as kernels (ops) reads it: each device plane that
 * device selects (NULL: all), kept apart. Warnings are left for the caller.
 * 0, or a negative xp_errcode with err filled.
 */
int an_run_kernels_of(struct an_run_kernels **out, struct xp_trace *t, const char *device, struct xp_err *err);
int an_run_ops_of(struct an_run_ops **out, struct xp_trace *t, const char *device, struct xp_err *err);
/*
 * Pools the planes that r's device option selects into r, as an input: as
 * an_kern_add (an_ops_add) would have on the trace. The kernels are moved
 * out of k. 0, or XP_ERR_NOMEM with err filled.
 */
int an_run_kernels_pool(struct an_run_kernels *k, struct an_kern_result *r, struct xp_err *err);
int an_run_ops_pool(const struct an_run_ops *o, struct an_ops_result *r, struct xp_err *err);
/* Keeps only the planes pattern selects (a summary narrowed by --device). */
void an_run_kernels_select(struct an_run_kernels *k, const char *pattern);
void an_run_ops_select(struct an_run_ops *o, const char *pattern);
void an_run_kernels_free(struct an_run_kernels *k);
void an_run_ops_free(struct an_run_ops *o);

/* Copies an execution list (strings into dst's own arena). 0 or XP_ERR_NOMEM. */
int an_exec_list_copy(struct an_exec_list *dst, const struct an_exec_list *src);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
/* The summary line format: a run as one JSON line; its reader, and what reader and writer share. */
#ifndef AN_SUMMARY_H
#define AN_SUMMARY_H

/*
 * One line per run (SUMMARIES in xplane-stat(1)): an_summary_parse.c reads
 * it, and out_summary.c (out_summary.h) writes it and makes the one edit of
 * written bytes there is, a history's run number: the writer fills a byte
 * buffer of the out/ layer, which this one does not see. Lines come from
 * other machines and versions: the parser checks every field (types,
 * ranges, indexes, array lengths) and refuses a newer schema.
 */
#include <stddef.h>
#include <stdint.h>

#include "an_run.h"
#include "xp_err.h"

#define AN_SUMMARY_SCHEMA 1
/* Every summary line begins with these bytes (an_summary_sniff). */
#define AN_SUMMARY_MAGIC "{\"xplane_stat_summary\":"

/* Whether the bytes a file begins with are a summary's. */
int an_summary_sniff(const void *head, size_t n);

/*
 * Parses one line (len bytes, no newline needed) into run. file and lineno
 * name it in err ("'runs.jsonl' line 3: ...") and in run->src_*. Returns 0,
 * XP_ERR_FORMAT for a line that is not a valid summary of a schema this
 * version reads, XP_ERR_NOMEM; on failure run holds nothing.
 */
int an_summary_parse(const char *line, size_t len, const char *file, size_t lineno, struct an_run *run,
		     struct xp_err *err);

/*
 * The lines of a summary file, each checked by an_summary_parse (merge and
 * fuzzing keep the bytes, not the runs): p and len point into the data.
 */
struct an_summary_line {
	const char *p;
	size_t len;
	char *path;		/* the run's input path (owned) */
	uint64_t size;
	uint32_t crc32;
	char *hostname;		/* the trace's first hostname (owned); NULL: none */
};
/*
 * Splits data into its non-empty lines and checks each; the first bad line
 * is the error (nothing returned). Data that does not begin as a summary
 * is "not a summary file".
 */
int an_summary_split(const char *data, size_t len, const char *file, struct an_summary_line **lines, size_t *n,
		     struct xp_err *err);
void an_summary_lines_free(struct an_summary_line *lines, size_t n);
/*
 * The canonical order of lines (qsort): by path, size, crc32, then the
 * bytes. Sorting the lines of several files in it is merge: associative
 * and commutative, as a sorted multiset.
 */
int an_summary_line_cmp(const void *a, const void *b);

/*
 * What the parser and the writer share. The device counts a line carries,
 * by name (an_device's size_t or int64_t fields).
 */
struct an_summary_dev_field {
	const char *name;
	size_t off;		/* in struct an_device */
	int is_i64;		/* int64_t, else size_t */
};
extern const struct an_summary_dev_field an_summary_dev_fields[];
extern const size_t an_summary_ndev_fields;
/* A section's plane counts (size_t fields), by name, in the order a summary writes them. */
struct an_summary_count {
	const char *name;
	size_t off;
};
extern const struct an_summary_count an_summary_kern_counts[3];	/* in struct an_kern_result */
/* A count a summary holds at most: JSON's exact integers (an ops row's occurrences saturate there). */
#define AN_SUMMARY_MAX_COUNT ((int64_t)1 << 53)
extern const struct an_summary_count an_summary_ops_counts[5];	/* in struct an_ops_device */
extern const struct an_summary_count an_summary_ops_counts_opt[3];	/* the same, written when not 0 */
/* an_device.odd_stats entries carried, by name and key. */
extern const char *const an_summary_dev_odd[3];
extern const int an_summary_dev_odd_key[3];

#endif

/*
 * Autotune candidates: samples per candidate id (from function names such as
 * jit_autotune_fn_<i>), trimmed statistics, rank, and a Welch test against
 * the fastest.
 */
#ifndef AN_AUTOTUNE_H
#define AN_AUTOTUNE_H

#include <regex.h>
#include <stddef.h>

#include "an_exec.h"
#include "an_functions.h"
#include "an_stats.h"
#include "xp_hmap.h"

#define AN_AT_DEFAULT_ID_REGEX "^jit_autotune_fn_([0-9]+)"

struct an_at_opts {
	const regex_t *id_re;	/* group 1 is the id */
	size_t trim;		/* default 1, as the profiler it replaces */
	int all_devices;	/* pool every selected device, not the first that ran one */
	enum an_time time;
	double alpha;		/* significance for "tied with the fastest" (0.05) */
};

struct an_at_cand {
	char *id;		/* canonical: digits without leading zeros */
	size_t inputs;		/* inputs that gave at least one sample */
	struct an_summary s;	/* picoseconds */
	size_t rank;		/* 1 = fastest trimmed mean */
	int tied;		/* 1: Welch p >= alpha against the fastest (the fastest itself
				   included); 0: slower; -1: untested, fewer than 2 samples used */
	double p_vs_fastest;	/* -1 when untested */
	/* private */
	double *samples_;
	size_t nsamples_, cap_, last_input_;
};

struct an_at_result {
	struct an_at_opts opts;
	struct an_at_cand *cands;	/* after finish: by id (numeric order when numeric) */
	size_t ncands, cap;
	size_t inputs;		/* inputs added */
	size_t inputs_without;	/* inputs with no candidate */
	size_t dropped_short;	/* device events under an_exec_opts.min_dur_ps, every device */
	/* private */
	struct xp_hmap by_id_;
};

void an_at_init(struct an_at_result *r, const struct an_at_opts *o);
/* Adds one input's executions; the device rule of an_at_opts applies per input. */
int an_at_add(struct an_at_result *r, const struct an_exec_list *l, struct xp_err *err);
/* Adds one sample for a raw id (as captured) from input number `input`. */
int an_at_add_sample(struct an_at_result *r, const char *id, size_t input, double ps);
int an_at_finish(struct an_at_result *r, struct xp_err *err);
/* A candidate's samples in picoseconds, every one (untrimmed), in no particular order. */
const double *an_at_samples(const struct an_at_cand *c, size_t *n);
void an_at_release(struct an_at_result *r);

/*
 * Group 1 of re in name, as a malloc'd string the caller frees; NULL when it
 * does not match (or out of memory: *nomem is set).
 */
char *an_at_match_id(const regex_t *re, const char *name, int *nomem);

#endif

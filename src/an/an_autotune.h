/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Autotune candidates: samples per candidate id (from function names such as
 * jit_autotune_fn_<i>), trimmed statistics, rank, and a Welch test against
 * the fastest.
 */
#ifndef AN_AUTOTUNE_H
#define AN_AUTOTUNE_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "an_exec.h"
#include "an_functions.h"
#include "an_stats.h"
#include "xp_hmap.h"

#define AN_AT_DEFAULT_ID_REGEX "^jit_autotune_fn_([0-9]+)"
/* With an_at_opts.trim_runs_auto: the fewest run means that are trimmed. */
#define AN_AT_TRIM_RUNS_MIN 5

/* A candidate's executions compiled into several programs (program ids): */
enum an_at_programs {
	AN_AT_SPLIT_PROGRAMS,	/* one row per (id, program): each row times one computation */
	AN_AT_POOL_PROGRAMS,	/* one row per id, its programs pooled (--pool-programs) */
};

struct an_at_opts {
	const regex_t *id_re;	/* group 1 is the id */
	enum an_at_programs programs;
	size_t trim;		/* default 1, as the profiler it replaces */
	int all_devices;	/* pool every selected device, not the first that ran one */
	enum an_time time;
	double alpha;		/* significance for "tied with the fastest" (0.05) */
	/*
	 * Samples: with run_means, where the inputs are several runs, each
	 * candidate's mean over its executions in each run (on all its devices
	 * that count): runs are what repeats, executions inside one run are not
	 * independent. One run, or without run_means: every execution.
	 * trim_runs_auto: a candidate with fewer than AN_AT_TRIM_RUNS_MIN run
	 * means is not trimmed (trim as asked from there on): a trim of three
	 * runs leaves one, too few for a test.
	 */
	int run_means;
	int trim_runs_auto;
};

/* A program: its id when known (the program_id stat, else the fingerprint). */
struct an_at_prog {
	int known;
	uint64_t id;
};

/* A row: one candidate id, or with AN_AT_SPLIT_PROGRAMS one program of it. */
struct an_at_cand {
	char *id;		/* canonical: digits without leading zeros */
	struct an_at_prog *progs;	/* its samples' programs, unknown first, then ascending; */
	size_t nprogs;		/* 1 unless pooled; 0 when added without one (--compat) */
	size_t id_rows;		/* rows of its id: > 1 when the id was split by program */
	size_t inputs;		/* inputs that gave at least one sample */
	struct an_summary s;	/* picoseconds */
	size_t rank;		/* 1 = fastest trimmed mean */
	int tied;		/* 1: Welch p >= alpha against the fastest (the fastest itself
				   included); 0: slower; -1: untested, fewer than 2 samples used */
	double p_vs_fastest;	/* -1 when untested; 0 when below DBL_MIN (an_welch) */
	double log10_p_vs_fastest;	/* exact where p is not; -inf for p exactly 0 */
	/* private */
	double *samples_;
	size_t *run_;		/* per sample its input (then, after an_at_group, its run) */
	size_t nsamples_, cap_, run_cap_, last_input_;
};

struct an_at_result {
	struct an_at_opts opts;
	struct an_at_cand *cands;	/* after finish: by id (numeric order when numeric) */
	size_t ncands, cap;
	size_t inputs;		/* inputs added */
	size_t runs;		/* after finish: the runs that hold a candidate */
	int samples_are_runs;	/* after finish: samples are run means (opts.run_means, several runs) */
	size_t inputs_without;	/* inputs with no candidate */
	size_t dropped_short;	/* device events under an_exec_opts.min_dur_ps, every device */
	int programs;		/* samples came with their programs (not --compat) */
	/* private */
	struct xp_hmap by_id_;
};

void an_at_init(struct an_at_result *r, const struct an_at_opts *o);
/* Adds one input's executions; the device rule of an_at_opts applies per input. */
int an_at_add(struct an_at_result *r, const struct an_exec_list *l, struct xp_err *err);
/* Adds one sample for a raw id (as captured) from input number `input`, program unknown. */
int an_at_add_sample(struct an_at_result *r, const char *id, size_t input, double ps);
/* The same with the sample's program (prog NULL: not tracked, as an_at_add_sample). */
int an_at_add_sample_prog(struct an_at_result *r, const char *id, const struct an_at_prog *prog,
			  size_t input, double ps);
/*
 * Runs of several inputs (the hosts of one session, an_group.h): input i
 * (as added, 0 ..) belongs to run run[i] (nruns of them). Before finish.
 */
void an_at_group(struct an_at_result *r, const size_t *run, size_t n, size_t nruns);
int an_at_finish(struct an_at_result *r, struct xp_err *err);
/* Why a result has no single fastest candidate (an_at_winner). */
enum an_at_nowinner {
	AN_AT_WINNER = 0,	/* there is one */
	AN_AT_NO_CANDIDATE,
	AN_AT_TIED,		/* another row is tied with the fastest (Welch p >= alpha) */
	AN_AT_UNTESTED,		/* the fastest or a rival has too few samples to be tested */
	AN_AT_PROGRAMS,		/* the fastest row is one of several programs of its id */
};
/*
 * After finish: the fastest candidate (rank 1) when it is the only one not
 * slower, else NULL and *why (and *rival: a candidate tied with it, or
 * untested; NULL when none is in question).
 */
/* Why in a few words ("tied", "untested", "no candidate", "several programs"); NULL for AN_AT_WINNER. */
const char *an_at_nowinner_name(enum an_at_nowinner why);
const struct an_at_cand *an_at_winner(const struct an_at_result *r, enum an_at_nowinner *why,
				      const struct an_at_cand **rival);
/* A candidate's samples in picoseconds, every one (untrimmed), in no particular order. */
const double *an_at_samples(const struct an_at_cand *c, size_t *n);
void an_at_release(struct an_at_result *r);

/*
 * Group 1 of re in name, as a malloc'd string the caller frees; NULL when it
 * does not match (or out of memory: *nomem is set).
 */
char *an_at_match_id(const regex_t *re, const char *name, int *nomem);

#endif

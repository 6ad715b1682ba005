/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Commands: one cmd_<name>.c each, holding its options, their meaning and
 * the description of the analysis it runs; only command files and main.c
 * print or pick exit codes. What every command does alike lives beside
 * them, one job a file: cmd_driver.c (the loop an analysis command hands
 * its description to), cmd_common.c (shared options and their setup),
 * cmd_input.c (reading one input on a worker), cmd_summaries.c (run
 * summaries as inputs), cmd_batch.c (many inputs, progress), cmd_message.c
 * (errors and warnings, escaped at one sink), cmd_output.c (output files),
 * cmd_append.c (appends, all or nothing), cmd_record.c (the --history
 * recorder), cmd_distinct.c (copies of a run counted once), cmd_sides.c
 * (diff's two sides). No command file calls another.
 *
 * Adding an analysis command:
 *   1. the analysis as src/an/an_<x>.c (model in, result struct out, its
 *      warning texts in an_notes.c) and its row in src/an/an_analyses.c:
 *      what it reads (struct an_read_profile) and its result's life;
 *   2. its formatter as src/out/out_<x>.c;
 *   3. src/cmd/cmd_<name>.c: a struct cmd_analysis (its name, its help
 *      paragraph, the analysis, and the hooks check, setup, input, nothing,
 *      after, print: each optional but print) and a function that declares
 *      the option table (--help comes from it; CMD_OPT_DEVICE, CMD_OPT_MATCH,
 *      CMD_OPTS_TAIL for the shared rows) and calls cmd_drive
 *      (cmd_kernels.c is a short example). Commands that are not analyses
 *      (diff, export, merge...) parse their own struct opt_cmd;
 *   4. declare `int cmd_<name>(int argc, char **argv)` below and add a row
 *      to the table in src/main.c;
 *   5. document it in man/xplane-stat.1 and README.md, and add CLI cases in
 *      tests/cli/<name>/ (each with .cmd, .out, .err and .rc).
 */
#ifndef CMD_H
#define CMD_H

#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "an_analysis.h"
#include "an_exec.h"
#include "an_functions.h"
#include "an_run.h"
#include "out_bytes.h"
#include "opt.h"
#include "out_table.h"
#include "xp_arena.h"
#include "xp_err.h"
#include "xp_hmap.h"
#include "xp_input.h"
#include "xp_model.h"
#include "xp_pool.h"

/* What setup helpers return to say "no exit code yet: go on"; any other value is the exit code. */
#define CMD_GO_ON (-1)

enum cmd_exit {
	EXIT_OK = 0,
	EXIT_ERROR = 1,		/* out of memory, cannot write the output */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_INPUT = 3,		/* an input is unreadable or not a valid XSpace */
	EXIT_NOMATCH = 4,	/* nothing matched: no device plane, function or candidate */
	EXIT_UNSUPPORTED = 5,	/* a feature this build lacks */
	EXIT_PARTIAL = 6,	/* some inputs of several were unreadable: the result covers the rest */
	EXIT_NODRIVER = 7,	/* capture: no CUDA driver on this machine */
	EXIT_GATE = 8,		/* diff --gate: a row is slower beyond the limit */
	EXIT_NO_WINNER = 9,	/* autotune --winner: no single fastest candidate (tied, untested) */
	EXIT_UNDECIDED = 10,	/* diff/history --gate: a row it would judge cannot be decided */
};

int cmd_functions(int argc, char **argv);
int cmd_kernels(int argc, char **argv);
int cmd_autotune(int argc, char **argv);
int cmd_planes(int argc, char **argv);
int cmd_ops(int argc, char **argv);
int cmd_hlo(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_overview(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_memory(int argc, char **argv);
int cmd_compile(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_summarize(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_history(int argc, char **argv);


/* Options several commands share; the rows come from the macros below. */
struct cmd_common {
	int json, csv, tsv;
	const char *time_unit;	/* --time-unit: ns, us, ms or s; NULL: each table its own */
	enum out_unit unit;	/* --time-unit as cmd_output_setup parsed it; OUT_UNIT_AUTO without it */
	int wide;		/* --wide: table cells whole */
	const char *output;
	const char *device;
	const char *children;
	const char *time;
	int64_t min_dur_ps;
	uint64_t max_input;
	uint32_t extra_keys;	/* key stats an option asks for beyond the analysis's read (kernels --slowest) */
	size_t jobs;		/* 0: the online CPUs */
	const char *reader;
	/*
	 * How each input is read: the analysis's read profile (key stats, an
	 * event's own stats, plane callbacks; cmd_read_profile), the reader of
	 * --reader (cmd_input_setup). The jobs and which planes are read now
	 * are set per read.
	 */
	struct xp_read_opts read;
	/* the analysis takes XLA:CPU's host work for a device where a trace has none (an_cpu.h) */
	int cpu_device;
	/*
	 * The command takes run summaries (an_run.h) for traces: cmd_batch_inputs
	 * turns a summary file into one input per run, cmd_input_process gives
	 * their executions as the trace would.
	 */
	int summaries;
	/* Also the size and crc32 of each input file (cmd_input), for summaries. */
	int provenance;
	/*
	 * summarize: each trace read once for its executions, kernels and ops
	 * (the lines and key stats of the three), cmd_input_parts then working
	 * on the kept trace.
	 */
	int sections;
	const char *history, *commit;	/* --history FILE, --commit REV (CMD_OPTS_HISTORY) */
	int repair;		/* --repair: an appended file's cut last line is removed */
	int keep_duplicates;	/* --keep-duplicates: copies of one run counted as runs (cmd_distinct) */
	int run_by;		/* --run-by: an enum an_run_by (an_group.h) */
	const char *match;	/* --match REGEX (CMD_OPT_MATCH), compiled by cmd_match_setup */
	/* private: set by cmd_common_setup, freed by cmd_common_release */
	struct cmd_runs *runs_;
	struct an_run_hist hist_;	/* with --history: this command's, and its lines */
	struct out_bytes hist_lines_;
	regex_t child_re_, match_re_;
	int have_child_, have_match_;
};

#define CMD_OPTS_MODES(c)                                                                          \
	{"json", 0, OPT_FLAG, &(c)->json, NULL, "print JSON (schema_version 1; time fields name their unit)"}, \
	{"csv", 0, OPT_FLAG, &(c)->csv, NULL, "print CSV with a header row"},                          \
	{"tsv", 0, OPT_FLAG, &(c)->tsv, NULL, "print tab-separated values with a header row"}
#define CMD_OPTS_CELLS(c)                                                                          \
	{"wide", 0, OPT_FLAG, &(c)->wide, NULL,                                                     \
	 "table cells whole: names over 64 columns are otherwise cut to their start and end"},      \
	{"output", 'o', OPT_STR, &(c)->output, "FILE", "write to FILE (via a temporary name, renamed when complete); - is stdout"}
#define CMD_OPTS_FORMAT(c)                                                                         \
	CMD_OPTS_MODES(c),                                                                         \
	{"time-unit", 0, OPT_STR, &(c)->time_unit, "ns|us|ms|s",                                   \
	 "table times in this unit (default: for each table the unit its typical value reads best in)"},        \
	CMD_OPTS_CELLS(c)
/* The same for a command whose output holds no times (hlo): no --time-unit. */
#define CMD_OPTS_FORMAT_TIMELESS(c) CMD_OPTS_MODES(c), CMD_OPTS_CELLS(c)

/* --device: the one definition of the option that selects device planes; eg: examples of PATTERN. */
#define CMD_OPT_DEVICE(c, eg)                                                                      \
	{"device", 'd', OPT_STR, &(c)->device, "PATTERN",                                          \
	 "only device planes whose name contains PATTERN, any case (" eg ")"}

#define CMD_OPTS_SELECT(c)                                                                         \
	CMD_OPT_DEVICE(c, "gpu, TPU:1"),                                                           \
	{"min-duration", 0, OPT_DUR, &(c)->min_dur_ps, "DUR", "drop device events shorter than DUR (1us, 250ns)"}, \
	{"children", 0, OPT_STR, &(c)->children, "REGEX",                                          \
	 "time = union of the plane's events inside each execution whose name matches REGEX"},     \
	{"time", 0, OPT_STR, &(c)->time, "busy|span", "busy: union of device intervals (default); span: first start to last end"}

/* --match: names (of what) matching an extended regex (cmd_match_setup, cmd_match). */
#define CMD_OPT_MATCH(c, what)                                                                     \
	{"match", 'm', OPT_STR, &(c)->match, "REGEX", "only " what " whose name matches REGEX (extended)"}

/* The rows an analysis command's table ends with: input, output format, the end. */
#define CMD_OPTS_TAIL(c) CMD_OPTS_INPUT(c), CMD_OPTS_FORMAT(c), {0}

#define CMD_OPTS_HISTORY(c)                                                                        \
	{"history", 0, OPT_STR, &(c)->history, "FILE",                                             \
	 "append each input's summary to FILE with the git commit (see the history command)"},     \
	{"commit", 0, OPT_STR, &(c)->commit, "REV", "with --history: record REV, not git's HEAD here"},     \
	{"repair", 0, OPT_FLAG, &(c)->repair, NULL,                                                 \
	 "with --history: remove FILE's cut last line (an interrupted write) instead of refusing it"}

#define CMD_OPTS_INPUT(c)                                                                          \
	{"jobs", 'j', OPT_COUNT, &(c)->jobs, "N",                                                  \
	 "threads for inputs, or one input's planes (default: online CPUs); same result for any N"}, \
	{"reader", 0, OPT_STR, &(c)->reader, "NAME",                                               \
	 "decoder: wire (default, fast) or protobuf-c (the reference; reads every plane)"},       \
	{"max-input-size", 0, OPT_BYTES, &(c)->max_input, "SIZE",                                  \
	 "refuse input from stdin or a pipe, or gzip input, over SIZE bytes (default 16G)"}

void cmd_common_init(struct cmd_common *c);
/*
 * After parsing: the output mode, the time measure (--time, --children) and the
 * execution options (--device, --children, --min-duration). Returns CMD_GO_ON to go
 * on, else the exit code (message printed).
 */
int cmd_common_setup(struct cmd_common *c, enum out_mode *mode, enum an_time *t,
		     struct an_exec_opts *xo);
/* Compiles --match when given: CMD_GO_ON, or EXIT_USAGE (message printed). */
int cmd_match_setup(struct cmd_common *c);
/* The compiled --match; NULL without one. */
const regex_t *cmd_match(const struct cmd_common *c);
/* The time measure (--time, --children) and the execution options alone, as cmd_common_setup sets them. */
int cmd_exec_setup(struct cmd_common *c, enum an_time *t, struct an_exec_opts *xo);
void cmd_common_release(struct cmd_common *c);
/* What an analysis reads (an_analysis.h), set for the reads of c's inputs; summaries taken as inputs where the analysis can use them. */
void cmd_read_profile(struct cmd_common *c, const struct an_read_profile *p);
/* After parsing: --reader and --jobs. Returns CMD_GO_ON to go on, else the exit code (message printed). */
int cmd_input_setup(struct cmd_common *c);
/* Threads for n inputs: --jobs, else the online CPUs, at most n. */
unsigned cmd_jobs(const struct cmd_common *c, size_t n);
/*
 * The output mode from --json/--csv/--tsv into *mode, and --time-unit into
 * c->unit for the formatters; CMD_GO_ON, or EXIT_USAGE (message printed) if
 * several modes or an unknown unit.
 */
int cmd_output_setup(struct cmd_common *c, enum out_mode *mode);

/* Summaries as inputs (cmd_summaries.c). */
/* The runs of summary files among the inputs, by the pathlist entry that stands for each. */
struct cmd_run_entry {
	const char *key;	/* paths->paths[i] */
	struct an_run run;
};

struct cmd_runs {
	struct cmd_run_entry *e;
	size_t n, cap;
};
void cmd_runs_free(struct cmd_runs *r);
/* The summary run an expanded input path stands for; NULL: a trace. */
const struct cmd_run_entry *cmd_run_for(const struct cmd_common *c, const char *path);
/* Whether an option a run was summarised with differs from the command's (NULL: not given). */
int cmd_opt_differs(const char *run, const char *cmd);
/* Replaces each summary file among paths by one input per run (kept in c). 0 or an xp_errcode. */
int cmd_expand_summaries(struct cmd_common *c, struct xp_pathlist *paths, struct xp_err *err);

/* "xplane-stat: " + message on stderr. */
void cmd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same for a bad command line; returns EXIT_USAGE. */
int cmd_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The exit code for a library error code. */
int cmd_exit_for(int xp_code);
/* Compiles an extended regex; prints why not and returns EXIT_USAGE on failure. */
int cmd_regex(regex_t *re, const char *pattern, const char *option);

/*
 * Loads and decodes one input as --reader and --max-input-size say, on `jobs`
 * threads, printing nothing: on failure err names the path. With lazy, only
 * device planes (matching --device) are decoded now, the rest on demand, and
 * without --children only their lines of device work (an_exec_want_lines).
 * Returns an exit code.
 */
int cmd_read(const struct cmd_common *c, const char *path, unsigned jobs, int lazy,
	     struct xp_trace **t, struct xp_err *err);
/*
 * The same keeping only the host planes ("/host:..."): the others keep
 * their names, unread (plane->loaded 0).
 */
int cmd_read_host(const struct cmd_common *c, const char *path, unsigned jobs, struct xp_trace **t,
		  struct xp_err *err);
/* The same decoding no plane yet: each keeps its id and name until xp_trace_load_plane. */
int cmd_read_deferred(const struct cmd_common *c, const char *path, unsigned jobs, struct xp_trace **t,
		      struct xp_err *err);
/*
 * Reads every line of a summary file ("-": standard input; gzip too) into
 * *runs (n of them; release each, free the array). A bad line is an error
 * naming the file and line.
 */
int cmd_runs_read(const char *path, uint64_t max_input, struct an_run **runs, size_t *n, struct xp_err *err);

/* One input, read and analysed on a worker thread; nothing printed yet. */
struct cmd_input {
	const struct an_run *run;	/* it came from a summary line (no trace: t stays NULL) */
	const char *path;
	char *hostname;		/* the trace's (XSpace hostnames[0]) or the summary's; NULL: none */
	int code;		/* EXIT_OK, or why it failed (err says more) */
	struct xp_err err;
	struct xp_notes notes;	/* the reader's counts, as warnings */
	size_t reader_notes;	/* the first notes, about the file (the rest about its executions) */
	uint64_t size;		/* with provenance: the file's bytes and their crc32 (0 for stdin) */
	uint32_t crc32;
	char **planes;		/* with provenance: every plane's name, and which device planes are empty */
	unsigned char *plane_empty;
	size_t nplanes;
	struct xp_trace *t;	/* kept when asked for, else freed */
	struct an_exec_list execs;	/* with exec options */
	int have_execs;
	/* t is summarize's one read for every section (c->sections; not where its counts were odd) */
	int sections_read;
	/* summarize: the trace's kernels and ops as those commands read it (cmd_input_parts) */
	struct an_run_kernels *kernels;
	struct an_run_ops *ops;
};

/*
 * Reads path and, when xo is not NULL, finds its executions. keep: keep the
 * trace in in->t. Returns in (allocated); NULL when out of memory.
 */
struct cmd_input *cmd_input_process(const struct cmd_common *c, const char *path, unsigned jobs,
				    const struct an_exec_opts *xo, int keep);
void cmd_input_free(struct cmd_input *in);
/*
 * After the last read of in->t: when its file shrank while it was read
 * (an_input_check), in becomes that error (EXIT_INPUT), whatever it was;
 * returns 1 then. The cmd_input_* functions check what they read; a
 * command that reads a kept trace afterwards checks again.
 */
int cmd_input_changed(struct cmd_input *in);
/*
 * The input's kernels pooled into r (its options say which devices): from
 * its trace read as the kernels command reads it, or from its summary's
 * kernels section; in->notes gets the reader's warnings as that read gives
 * them. Returns in (allocated; NULL when out of memory); in->code says
 * whether it worked.
 */
struct cmd_input *cmd_input_kernels(const struct cmd_common *c, const char *path, unsigned jobs,
				    struct an_kern_result *r);
/* The same for ops; keep: keep the trace in in->t (a summary's run has none). */
struct cmd_input *cmd_input_ops(const struct cmd_common *c, const char *path, unsigned jobs,
				struct an_ops_result *r, int keep);
/*
 * For summarize: in->path's kernels and ops as those commands read it, each
 * device plane kept apart, into in->kernels and in->ops with those reads'
 * warnings; then frees in->t. From the kept trace in->t (read with
 * c->sections) where its read counted nothing odd, so that the warnings are
 * those of the commands' own reads; else read again as each reads it.
 * Fills in->code and err on failure.
 */
void cmd_input_parts(const struct cmd_common *c, unsigned jobs, struct cmd_input *in);
/*
 * Appends in's run summary line (out_summary_line) to b: its executions, the reader's
 * warnings, the options of c, provenance (kept from the summary it came
 * from), with hist (NULL: none, or the summary's) and tags (ntags 0: the
 * summary's). 0, or -1 when out of memory.
 */
int cmd_input_line(const struct cmd_common *c, const struct cmd_input *in, const struct an_run_hist *hist,
		   char *const *tags, size_t ntags, struct out_bytes *b);
/*
 * For analyses of the host planes, on a worker thread: reads in->path's host
 * planes (cmd_read_host) and adds them to result with add (an_<x>_add),
 * filling in->code, err and notes; the trace is freed. add's error names the
 * input.
 */
void cmd_host_analyse(const struct cmd_common *c, unsigned jobs, struct cmd_input *in, void *result,
		      int (*add)(void *result, struct xp_trace *t, const char *input, struct xp_err *err));

/*
 * Inputs of a batch: counts failures, shows progress on a terminal. A failed
 * input becomes a warning and the rest goes on; see cmd_batch_exit.
 */
struct cmd_batch {
	size_t n, done, failed;
	int first_code;		/* exit code of the first failure */
	int fatal;		/* out of memory somewhere: the result is not to be trusted */
	int progress;		/* draw progress: stderr is a terminal (clear it to never draw) */
	FILE *lines;		/* cmd_batch_lines: where the per-input lines go */
	/* private */
	double start_, last_draw_;
	int drawn_;
};

/*
 * The inputs of a batch command: expands the positional arguments into
 * paths (files, directories searched, '-'), notes files reached twice, and
 * readies b for them; *plane_jobs gets the threads for one input's planes
 * (all of -j when there is one input). With c->summaries, a file that is a
 * summary of runs (told by its content) becomes one input per run, named by
 * the path it was summarised from; a bad line stops here (exit 3). Returns CMD_GO_ON, or the exit status after
 * printing why.
 */
int cmd_batch_inputs(struct cmd_batch *b, struct cmd_common *c, const char **pos, size_t npos,
		     struct xp_pathlist *paths, struct xp_notes *notes, unsigned *plane_jobs);
/*
 * Accounts for one finished input; a failed one is added to notes (one input
 * alone: its message is printed and 1 is returned to stop).
 */
int cmd_batch_step(struct cmd_batch *b, const struct cmd_input *in, struct xp_notes *notes);
/*
 * Runs work and done over the b->n inputs on jobs threads and clears the
 * progress line. Returns CMD_GO_ON to go on, else the exit code: *stop when done
 * stopped the batch (-1 if not), the first failure's when no input could be
 * read (notes printed, with a line saying so).
 */
int cmd_batch_run(struct cmd_batch *b, unsigned jobs, xp_pool_work_fn work, xp_pool_done_fn done,
		  void *ctx, const struct xp_notes *notes, const int *stop);
/*
 * --per-file: opens output (-o, else stdout) as b->lines, runs work and done
 * over the b->n inputs on jobs threads (done writes each input's line), prints
 * notes and closes. *stop is the exit code at which done stopped the batch,
 * -1 if it did not. Returns the exit code.
 */
int cmd_batch_lines(struct cmd_batch *b, const char *output, unsigned jobs, xp_pool_work_fn work,
		    xp_pool_done_fn done, void *ctx, const struct xp_notes *notes, const int *stop);
/*
 * The exit code once the result is out (ret: that of writing it): EXIT_PARTIAL
 * when some inputs failed, with a line on stderr saying how many.
 */
int cmd_batch_exit(const struct cmd_batch *b, int ret);
/* "'PATH': no device plane with events[ matching 'X'] (planes here: A, B)" on stderr, for an input read from a trace or from a summary's run. */
void cmd_no_device_input(const struct cmd_input *in, const char *pattern);

/*
 * Parses a command's arguments. Returns CMD_GO_ON to go on, or the exit code to return
 * now: EXIT_OK after --help, EXIT_USAGE after a message. Frees nothing: the
 * caller frees *pos.
 */
int cmd_parse(const struct opt_cmd *c, int argc, char **argv, const char ***pos, size_t *npos);

/* Writes a result through its formatter; -1 from it means out of memory. */
typedef int (*cmd_print_fn)(FILE *f, enum out_mode mode, const struct out_style *st, const void *result);
/*
 * Opens c's -o (or stdout), prints with c's time unit (colour on a terminal),
 * closes atomically; returns the exit code.
 */
int cmd_write(const struct cmd_common *c, enum out_mode mode, cmd_print_fn print, const void *result);
/* cmd_write, then the notes on stderr, except in JSON (whose formatters carry them); the exit code. */
int cmd_write_noted(const struct cmd_common *c, enum out_mode mode, cmd_print_fn print, const void *result,
		    const struct xp_notes *notes);

/*
 * Output destination: stdout, or FILE written under a temporary name beside
 * it (beside its target, FILE a symbolic link) and renamed when complete.
 */
struct cmd_out {
	FILE *f;
	char *path, *tmp;
	int err;		/* the first failed cmd_out_put's errno */
};

int cmd_out_open(struct cmd_out *o, const char *path);
/* Writes n bytes; a failure is kept for cmd_out_close to report. 0, or -1 when it failed. */
int cmd_out_put(struct cmd_out *o, const void *p, size_t n);
/*
 * Finishes (ok: every byte written, flushed and synced, then renamed) or
 * abandons the output (its temporary file removed; the caller said why);
 * returns EXIT_OK or EXIT_ERROR (message printed).
 */
int cmd_out_close(struct cmd_out *o, int ok);
/*
 * Appending to a file this tool owns (--history, summarize --append), never
 * leaving it cut (cmd_append.c says how): cmd_append_open opens path, locks
 * it, rolls back an append a killed process left, and checks that it is
 * empty or this tool's with a whole last line (repair: a cut last line is
 * removed); cmd_append_read gives its bytes; cmd_append_commit writes and
 * syncs the new lines, or on any failure leaves the file as it was;
 * cmd_append_close unlocks. open, read and commit return CMD_GO_ON (commit:
 * EXIT_OK) or the exit code, message printed (open: a failed open is closed).
 */
struct cmd_append {
	int fd;
	const char *path;
	char *journal;		/* "FILE-journal", FILE the path with its links resolved */
	off_t len;		/* the file's length before the append */
	uintmax_t dev, ino;
	int newline;		/* its last record lacks only its newline: written first */
	int nolock;		/* a file system without locks: the journal, made exclusively, is the lock */
	int created;		/* this append made the file (removed again if nothing is appended) */
};
int cmd_append_open(struct cmd_append *a, const char *path, int repair);
int cmd_append_read(struct cmd_append *a, struct out_bytes *b);
int cmd_append_commit(struct cmd_append *a, const void *bytes, size_t n);
void cmd_append_close(struct cmd_append *a);
/* A number option's value in [lo, hi] into *out: -1 to go on (also when s is NULL), else EXIT_USAGE (said). */
int cmd_number_opt(const char *s, const char *name, double lo, double hi, double *out);
/* diff's and history's --gate: a line on stderr per gated row of r (an_diff_gate marked them). */
struct an_diff_result;
void cmd_gate_report(const struct an_diff_result *r, double gate, double gate95);
/*
 * The gate's end: EXIT_GATE when a row is gated (said), else EXIT_UNDECIDED
 * when a row it would judge cannot be decided (too few samples; nothing in
 * common between the sides) unless allow_undecided (each named), else EXIT_OK.
 */
int cmd_gate_exit(const struct an_diff_result *r, double gate, double gate95, int allow_undecided);
/* Prints collected warnings to stderr ("xplane-stat: warning: ..."). */
void cmd_print_notes(const struct xp_notes *n);

/*
 * Runs told apart by what they measured (an_exec_list_digest): cmd_distinct_check
 * says whether an input's executions are a copy of a run seen before
 * (1; 0 new or nothing measured; -1 out of memory); cmd_distinct_notes adds a
 * warning per run given more than once.
 */
struct cmd_distinct_run {
	const char *first, *copy;	/* the inputs that held it first and second */
	size_t copies;		/* after the first */
};
struct cmd_distinct {
	struct xp_hmap seen;	/* digest -> runs[] */
	struct cmd_distinct_run *runs;
	size_t n, cap;
	struct xp_arena names;	/* the inputs' names; zeroed is ready */
};
int cmd_distinct_check(struct cmd_distinct *s, const struct cmd_input *in);
/* The same for executions l named name in messages, told apart only within scope (NULL: everywhere). */
int cmd_distinct_execs(struct cmd_distinct *s, const struct an_exec_list *l, const char *scope, const char *name);
int cmd_distinct_notes(const struct cmd_distinct *s, struct xp_notes *notes);
void cmd_distinct_release(struct cmd_distinct *s);

#define CMD_OPT_RUN_BY(c)                                                                         \
	{"run-by", 0, OPT_ENUM, &(c)->run_by, "auto|dir|file",                                     \
	 "which profiles are one run: auto (default: a directory's profiles each named after its host, " \
	 "as XProf's session directory), dir (a directory's profiles) or file (each profile)"}

#define CMD_OPT_KEEP_DUPLICATES(c)                                                                \
	{"keep-duplicates", 0, OPT_FLAG, &(c)->keep_duplicates, NULL,                              \
	 "count every copy of a run (inputs whose executions are identical to the picosecond) as a run of its own"}

/*
 * --history FILE: cmd_history_begin fills h (commit from --commit, else git
 * in the working directory, with its dirty flag; time; host); the command
 * makes its inputs' lines with h (cmd_input_line) and cmd_history_append
 * appends them under a lock with the next run number of that commit. Both
 * return CMD_GO_ON to go on, else the exit code (message printed).
 */
int cmd_history_begin(const char *commit, struct an_run_hist *h, struct xp_notes *notes);
int cmd_history_append(const char *path, int repair, const struct out_bytes *lines, const struct an_run_hist *h);
void cmd_history_release(struct an_run_hist *h);
/* For commands with CMD_OPTS_HISTORY, after cmd_common_setup: CMD_GO_ON to go on, else the exit code. */
int cmd_history_setup(struct cmd_common *c, struct xp_notes *notes);
/* In a done callback: the input's line for --history (nothing without it). 0, or -1 out of memory. */
int cmd_history_add(struct cmd_common *c, const struct cmd_input *in);
/* At the end: appends the lines when ret is 0 or 6 (a partial result); returns ret, or the append's failure. */
int cmd_history_finish(struct cmd_common *c, int ret);

/*
 * diff's sides: the runs of arg (a profile, directory or summary file, read
 * with c, which should take summaries) added to res as side 0 or 1; inputs
 * that fail are warnings counted in *failed, kernels whose instances a
 * summary kept as a sketch in *approximate. CMD_GO_ON to go on, else the exit
 * code (message printed): no run of the side could be read.
 */
struct an_diff_result;
int cmd_side_read(struct cmd_common *c, const struct an_exec_opts *xo, int side, const char *arg,
		  struct an_diff_result *res, struct xp_notes *notes, size_t *failed, size_t *approximate);
/*
 * A side's runs of several hosts: cmd_side_keep after each input added to
 * the side as a run, cmd_side_group once all are (res's runs from first on
 * grouped as c->run_by says, notes for ambiguous directories and runs
 * missing a host). 0 or -1 when out of memory.
 */
struct cmd_side_runs {
	struct cmd_side_input *ins;
	size_t n, cap;
	struct xp_arena names;	/* their directories and hostnames */
};
int cmd_side_keep(struct cmd_side_runs *s, const struct cmd_input *in);
int cmd_side_group(struct cmd_side_runs *s, const struct cmd_common *c, struct an_diff_result *res, int side,
		   size_t first, struct xp_notes *notes);
/* The same grouping for another analysis: the inputs kept, as runs (an_groups_release them). 0 or -1. */
struct an_groups;
int cmd_side_groups(const struct cmd_side_runs *s, const struct cmd_common *c, struct an_groups *groups,
		    struct xp_notes *notes);
void cmd_side_runs_release(struct cmd_side_runs *s);

#endif

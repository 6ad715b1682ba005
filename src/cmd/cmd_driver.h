/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The analysis driver: a command describes its analysis once (what it reads,
 * how an input's result is made and pooled, what "nothing found" says, its
 * formatter) and cmd_drive does what every analysis command does alike:
 * expanding inputs and summaries, threads, progress, failed inputs as
 * warnings, output, notes and exit codes (perf's struct perf_tool driven by
 * one session loop is the model).
 *
 * A command file keeps its options, their meaning and a struct cmd_analysis
 * (its name and help paragraph too); its function is its options table and
 *	struct cmd_drive d = {.a = &my_command, .c = &args.c, .args = &args, .opts = &args.an_opts};
 *	return cmd_drive(&d, opts, argc, argv);
 */
#ifndef CMD_DRIVER_H
#define CMD_DRIVER_H

#include "an_analysis.h"
#include "cmd.h"

struct cmd_drive;

/* An analysis command: the analysis it runs, and what the command adds to it. */
struct cmd_analysis {
	const char *name;	/* the command: "kernels" */
	const char *about;	/* its help paragraph, under "xplane-stat NAME [OPTIONS] FILE|DIR|-..." */
	const struct an_analysis *an;
	/*
	 * Right after the output mode and --match are known: the command's own
	 * checks of its options, and the analysis options it fills (d->opts).
	 * CMD_GO_ON, or the exit code (message printed). NULL: none.
	 */
	int (*check)(struct cmd_drive *d);
	/* The same once every shared option is set up (--reader, --time): for what needs them. */
	int (*setup)(struct cmd_drive *d);
	/*
	 * On the main thread, in input order, before the input's result r is
	 * merged (an->merge, when it has one; r NULL where the input has no
	 * result of its own): adds what a reader should know of the input to
	 * d->notes, or (an analysis without merge) adds the input to d->res
	 * itself. Returns 0; an xp_errcode (err says why); or an exit
	 * code > 0 to stop, its message printed. NULL: none.
	 */
	int (*input)(struct cmd_drive *d, struct cmd_input *in, void *r, struct xp_err *err);
	/*
	 * After every input, before the result is finished (an->finish): CMD_GO_ON
	 * when there is something to show, else what "nothing found" says
	 * (printed) and the exit code; the result's notes (an->notes) and the
	 * others are printed after it. It may also ready the result for finish
	 * (autotune groups its inputs into runs). NULL: never nothing.
	 */
	int (*nothing)(struct cmd_drive *d);
	/* After finish and notes, before printing: CMD_GO_ON, or the exit code (message printed). NULL: none. */
	int (*after)(struct cmd_drive *d);
	/* The formatter: prints d->res (d->args for the options); -1 means out of memory. */
	int (*print)(FILE *f, enum out_mode mode, const struct out_style *st, const struct cmd_drive *d);
	/*
	 * With d->lines: writes the input's own line to d->b.lines (an input
	 * that failed too: in->code, or in NULL when out of memory), in input
	 * order, instead of pooling it. 0, or -1 when out of memory.
	 */
	int (*line)(struct cmd_drive *d, const struct cmd_input *in);
	/* AN_READ_EXECS: one input alone keeps its trace until input (cmd_drive_no_device names its planes) */
	int keep_one_trace;
	/* AN_READ_EXECS: a copy of a run seen before is left out, with a warning, unless --keep-duplicates */
	int distinct_runs;
};

struct cmd_drive {
	const struct cmd_analysis *a;
	struct cmd_common *c;
	void *args;		/* the command's options, for the callbacks */
	const void *opts;	/* the analysis options (an->init) */
	int stream;		/* the output is opened before the inputs and written by input (d->out) */
	int empty;		/* set by after: the printed result is empty (exit 4 after printing it) */
	int lines;		/* a line per input (a->line), not a pooled result */
	/* what is read of each input, where check chose other than the analysis's own (NULL: an->read) */
	const struct an_read_profile *read;
	/* AN_READ_EXECS: how executions are found and timed (--time, --children, --device) */
	struct an_exec_opts xo;
	enum an_time time;
	/* set by the driver */
	void *res;		/* the pooled result */
	enum out_mode mode;
	const char **pos;	/* the positional arguments */
	size_t npos;
	struct xp_pathlist paths;
	struct xp_notes notes;
	struct cmd_batch b;
	unsigned plane_jobs;
	FILE *out;		/* with stream: where input writes */
	struct cmd_distinct seen;	/* with distinct_runs: the runs read */
	int ret;		/* private: an exit code that stopped the batch, else CMD_GO_ON */
};

/*
 * Runs the command: readies d->c's defaults, parses the arguments against
 * opts (ending in CMD_OPTS_TAIL; --help; at least one input), sets d->mode from --json/--csv/--tsv,
 * calls check, sets up --reader (and for executions --time and --children)
 * and --match, applies the analysis's read profile to d->c, readies
 * --history, calls setup, runs the analysis over the inputs, writes its result and
 * appends to the history. Returns the exit code.
 */
int cmd_drive(struct cmd_drive *d, const struct opt *opts, int argc, char **argv);
/* For nothing: "nothing found" as an exit code: an input's failure if some failed, else EXIT_NOMATCH. */
int cmd_drive_nomatch(const struct cmd_drive *d);
/* "this input" for one input, else "any input", for messages. */
const char *cmd_drive_inputs(const struct cmd_drive *d);
/*
 * For merge, when an input holds no device plane the command can use: one
 * input alone stops with the planes it has (exit 4); of several, a warning.
 * Returns 0 or the exit code.
 */
int cmd_drive_no_device(struct cmd_drive *d, const struct cmd_input *in);

#endif

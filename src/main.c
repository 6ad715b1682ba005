/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat: the command table, global options, dispatch, the final check of stdout. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "xp_guard.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{"functions", cmd_functions, "device time per jitted function (the default)"},
	{"kernels", cmd_kernels, "GPU kernels (per name, launch configuration or function), copies and memsets"},
	{"ops", cmd_ops, "HLO ops: time, self time, flops, bytes and bound-by (TPU XLA Ops, GPU kernels by hlo_op)"},
	{"hlo", cmd_hlo, "the compiled programs (HLO) a JAX trace carries; --op prints an instruction as HLO text"},
	{"autotune", cmd_autotune, "compare jit_autotune_fn_<i> candidates over many profiles"},
	{"planes", cmd_planes, "list the planes, lines and device facts a file holds"},
	{"events", cmd_events, "each event name per plane and line with count and time, or --list them"},
	{"overview", cmd_overview, "per device: span, busy, idle, duty cycle, compute/collective/memcpy, steps, launch latency"},
	{"memory", cmd_memory, "device memory per allocator: capacity, peak in use and when, what was live then"},
	{"compile", cmd_compile, "per jitted function: calls, first-call overhead, trace/lower/compile events"},
	{"export", cmd_export, "every event to Chrome trace JSON or Perfetto (.json, .json.gz, .pftrace)"},
	{"report", cmd_report, "one self-contained HTML page: devices, functions, timeline, kernels, ops, autotune"},
	{"diff", cmd_diff, "compare two sets of runs: change, confidence, p-value, verdict; --gate for CI"},
	{"summarize", cmd_summarize, "one summary line per profile (JSON lines) for merge, diff and history"},
	{"merge", cmd_merge, "combine summary files (associative: merge a cluster's summaries in any tree)"},
	{"history", cmd_history, "each row's trend over runs recorded with --history; the latest against its commit's first"},
	{"capture", cmd_capture, "run a CUDA program and record its GPU work as an XSpace (CUPTI)"},
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: xplane-stat [COMMAND] [OPTIONS] FILE|DIR|-...\n\n"
		   "Reads XPlane profile dumps (*.xplane.pb, also gzip) written by the JAX,\n"
		   "TensorFlow and XLA profilers and reports how long each jitted function ran\n"
		   "on the device. Without a command, 'functions' runs.\n\ncommands:\n");
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s  %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'xplane-stat COMMAND --help' shows a command's options; 'man xplane-stat' has the rest.\n"
		   "exit status: 0 ok, 1 error, 2 usage, 3 unreadable or invalid input, 4 nothing matched,\n"
		   "5 not supported by this build, 6 partial (some inputs unreadable), 7 no CUDA driver,\n"
		   "8 diff --gate: slower beyond the limit, 9 autotune --winner: no single fastest,\n"
		   "10 --gate: a row could not be decided (too few samples)\n");
}

static const struct command *find(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/*
 * The command a mistyped name most likely meant (git's "did you mean"): the
 * nearest within two edits, or the one it begins; NULL if none is near.
 */
static const struct command *nearest(const char *name)
{
	const struct command *best = NULL;
	size_t i, d, best_d = 3;

	for (i = 0; i < NCOMMANDS; i++) {
		d = opt_distance(name, strlen(name), commands[i].name);
		if (d < best_d || (!best && *name && !strncmp(commands[i].name, name, strlen(name)))) {
			best = &commands[i];
			best_d = d < best_d ? d : best_d;
		}
	}
	return best;
}

/*
 * A first argument that is neither a command nor an existing path, and has
 * no '/' or '.' that would make it a file name, is a mistyped command: a
 * script must not get the functions table instead. Returns 1 (message
 * printed) for such a word.
 */
static int mistyped(const char *arg)
{
	const struct command *c;
	struct stat st;

	if (arg[0] == '-' || strpbrk(arg, "/.") || !stat(arg, &st))
		return 0;
	c = nearest(arg);
	if (c)
		cmd_error("'%s' is not a command or a file; did you mean '%s'?", arg, c->name);
	else
		cmd_error("'%s' is not a command or a file (see 'xplane-stat --help')", arg);
	return 1;
}

/*
 * Options before the command (`xplane-stat -j 2 export F`, as `git -C dir
 * status`): the first word naming a command after nothing but options and
 * their values is the command, and the options move after it, where its
 * table takes them or names them as not its own. Returns that word's index,
 * or 0: no command (functions runs, a word named like a command is never
 * taken for an input).
 */
static int command_after_options(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (argv[i][0] == '-' && argv[i][1])
			continue;
		if (find(argv[i]))
			return i;
		/* the value of the option before it (the command's table checks that it takes one) */
		if (argv[i - 1][0] != '-' || !argv[i - 1][1] || strchr(argv[i - 1], '='))
			return 0;
	}
	return 0;
}

/* git's rule: a failed write to stdout is an error, except a closed pipe, which ends quietly. */
static int check_stdout(int ret)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return ret;
	if (errno == EPIPE)
		return ret;
	cmd_error("write error on standard output: %s", strerror(errno));
	return ret ? ret : EXIT_ERROR;
}

/*
 * Inputs are mapped: a file that shrinks while it is read (a profiler still
 * writing it) faults where its pages were. xp_guard_sigbus puts zeros there
 * and marks the input changed, which the command then reports as an error
 * naming it; any other SIGBUS takes the default action.
 */
static void guard_inputs(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = xp_guard_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

int main(int argc, char **argv)
{
	const struct command *c;

	guard_inputs();

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return check_stdout(EXIT_OK);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("xplane-stat %s\n", XPS_VERSION);
		return check_stdout(EXIT_OK);
	}
	if (!strcmp(argv[1], "help")) {
		if (argc < 3) {
			usage(stdout);
			return check_stdout(EXIT_OK);
		}
		c = find(argv[2]);
		if (!c) {
			const struct command *near = nearest(argv[2]);

			if (near)
				cmd_error("'%s' is not a command; did you mean '%s'?", argv[2], near->name);
			else
				cmd_error("'%s' is not a command (see 'xplane-stat --help')", argv[2]);
			return EXIT_USAGE;
		}
		{
			char *args[] = {argv[2], (char *)"--help", NULL};

			return check_stdout(c->fn(2, args));
		}
	}
	c = find(argv[1]);
	if (c)
		return check_stdout(c->fn(argc - 1, argv + 1));
	if (argv[1][0] == '-') {
		int k = command_after_options(argc, argv);

		if (k) {
			char *name = argv[k];

			memmove(argv + 2, argv + 1, (size_t)(k - 1) * sizeof(*argv));
			argv[1] = name;
			opt_before_command(argv + 1, k - 1);
			return check_stdout(find(name)->fn(argc - 1, argv + 1));
		}
	}
	if (mistyped(argv[1]))
		return EXIT_USAGE;
	/* No command: the arguments are those of 'functions'. */
	argv[0] = (char *)"functions";
	return check_stdout(cmd_functions(argc, argv));
}

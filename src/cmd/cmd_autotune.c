/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat autotune: per candidate id, trimmed statistics over many profiles. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_autotune.h"
#include "an_compat.h"
#include "an_exec.h"
#include "cmd.h"
#include "opt.h"
#include "out_autotune.h"
#include "out_table.h"
#include "xp_input.h"
#include "xp_pool.h"

struct at_args {
	struct cmd_common c;
	const char *id_regex;
	const char *compat;
	size_t trim;
	int all_devices;
	int per_file;
	int pool_programs;
};

/* The inputs' samples pooled into one result, input by input in order. */
struct at_batch {
	struct at_args *a;
	const struct xp_pathlist *paths;
	const struct an_exec_opts *xo;
	const struct an_compat_opts *co;	/* --compat, else NULL */
	const struct an_at_opts *ao;
	unsigned plane_jobs;
	struct an_at_result *res;
	struct xp_notes *notes;
	struct cmd_batch b;
	int ret;		/* an exit code that stops the batch; -1: going on */
};

static void *at_work(size_t i, void *ctx)
{
	struct at_batch *ab = ctx;

	/* --compat reads the trace its own way: keep it, find no executions. */
	return cmd_input_process(&ab->a->c, ab->paths->paths[i], ab->plane_jobs,
				 ab->co ? NULL : ab->xo, ab->co != NULL);
}

/*
 * One input's samples into r, its warnings into notes; returns -1 to go on,
 * else an exit code with the message in err.
 */
static int add_input(const struct at_batch *ab, struct cmd_input *in, struct an_at_result *r,
		     struct xp_notes *notes, struct xp_err *err)
{
	int ret;

	if (ab->co) {
		struct an_compat_file info;

		ret = an_compat_add(in->t, ab->co, r, r->inputs++, &info, err);
		if (ret == XP_ERR_USAGE) {
			char msg[sizeof(err->msg)];

			memcpy(msg, err->msg, sizeof(msg));
			snprintf(err->msg, sizeof(err->msg), "'%.200s': %.300s", in->path, msg);
			return EXIT_NOMATCH;
		}
		if (!ret && info.truncated)
			ret = xp_notes_add(notes, "'%s': stopped after %d events on '%s', as --compat=ejkernel "
					   "prescribes; later events were not read", in->path,
					   AN_COMPAT_MAX_EVENTS, info.plane);
	} else {
		if (!in->execs.ndevices)
			xp_notes_add(notes, "'%s': no device plane with events%s", in->path,
				     ab->a->c.device ? " matching --device" : "");
		ret = an_at_add(r, &in->execs, err);
	}
	if (ret) {
		if (!err->code)
			xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		return cmd_exit_for(ret);
	}
	return -1;
}

/* An id for a message: control characters and invalid UTF-8 as \xNN (names are data). */
static void escape_id(char *buf, size_t n, const char *id)
{
	const unsigned char *s = (const unsigned char *)id;
	size_t len = 0, k;

	while (*s && len + 5 < n) {
		k = out_utf8_len(s);
		if (!k || *s < 0x20 || *s == 0x7f) {
			len += (size_t)snprintf(buf + len, n - len, "\\x%02x", *s++);
			continue;
		}
		if (len + k + 1 >= n)
			break;
		memcpy(buf + len, s, k);
		len += k;
		s += k;
	}
	buf[len] = '\0';
}

/* A warning per candidate id whose executions were compiled into several programs (rows split). */
static int program_notes(struct xp_notes *notes, const struct an_at_result *r)
{
	char id[256], list[512];
	size_t i, j, len;

	for (i = 0; i < r->ncands; i += r->cands[i].id_rows ? r->cands[i].id_rows : 1) {
		const struct an_at_cand *c = &r->cands[i];

		if (c->id_rows < 2)
			continue;
		escape_id(id, sizeof(id), c->id);
		list[0] = '\0';
		for (j = 0, len = 0; j < c->id_rows && len + 32 < sizeof(list); j++) {
			const struct an_at_prog *p = &r->cands[i + j].progs[0];

			if (p->known)
				len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%" PRIu64, j ? ", " : "", p->id);
			else
				len += (size_t)snprintf(list + len, sizeof(list) - len, "%sunknown", j ? ", " : "");
		}
		if (j < c->id_rows)
			snprintf(list + len, sizeof(list) - len, ", ...");
		if (xp_notes_add(notes, "candidate '%s' ran as %zu programs (%s): its samples are not one "
				 "computation, so it gets a row per program; --pool-programs pools them",
				 id, c->id_rows, list))
			return -1;
	}
	return 0;
}

/* --per-file: the input's own candidates, with their samples, as one JSON line. */
static int at_line(struct at_batch *ab, struct cmd_input *in)
{
	struct an_at_result one;
	struct xp_notes notes = {0};
	struct xp_err err = {0};
	size_t i;
	int ret;

	if (!in || in->code)
		return out_autotune_line(ab->b.lines, in ? in->path : "", NULL, NULL,
					 in ? in->err.msg : "out of memory", in ? in->code : EXIT_ERROR);
	an_at_init(&one, ab->ao);
	for (i = 0; i < in->notes.n; i++)
		xp_notes_add(&notes, "%s", in->notes.msgs[i]);
	ret = add_input(ab, in, &one, &notes, &err);
	if (ret < 0 && an_at_finish(&one, &err))
		ret = EXIT_ERROR;
	if (ret < 0 && program_notes(&notes, &one))
		ret = EXIT_ERROR;
	if (ret < 0 && one.dropped_short &&
	    xp_notes_add(&notes, "%zu device event%s shorter than --min-duration dropped",
			 one.dropped_short, one.dropped_short == 1 ? "" : "s"))
		ret = EXIT_ERROR;
	if (ret < 0)
		ret = out_autotune_line(ab->b.lines, in->path, &one, &notes, NULL, 0);
	else
		ret = out_autotune_line(ab->b.lines, in->path, NULL, NULL, err.msg, ret);
	an_at_release(&one);
	xp_notes_release(&notes);
	return ret;
}

static void at_done(size_t i, void *result, void *ctx)
{
	struct at_batch *ab = ctx;
	struct cmd_input *in = result;
	struct xp_err err = {0};

	if (ab->ret >= 0)
		goto out;
	if (ab->b.lines) {
		cmd_batch_step(&ab->b, in, ab->notes);
		if (at_line(ab, in) || (in && !in->code && cmd_history_add(&ab->a->c, in)))
			ab->ret = EXIT_ERROR;
	} else if (cmd_batch_step(&ab->b, in, ab->notes)) {
		ab->ret = in ? in->code : EXIT_ERROR;
	} else if (in && !in->code) {
		ab->ret = add_input(ab, in, ab->res, ab->notes, &err);
		if (ab->ret >= 0)
			cmd_error("%s", err.msg);
		else if (cmd_history_add(&ab->a->c, in)) {
			cmd_error("out of memory");
			ab->ret = EXIT_ERROR;
		}
	}
out:
	cmd_input_free(in);
}

static int print_autotune(FILE *f, enum out_mode mode, const struct out_style *st, const void *r)
{
	return out_autotune(f, mode, r, st);
}

int cmd_autotune(int argc, char **argv)
{
	struct at_args a = {.trim = 1};
	const struct opt opts[] = {
		CMD_OPTS_SELECT(&a.c),
		{"id-regex", 0, OPT_STR, &a.id_regex, "REGEX",
		 "candidate id = group 1 of REGEX in function names (default " AN_AT_DEFAULT_ID_REGEX ")"},
		{"trim", 0, OPT_SIZE, &a.trim, "K", "drop the K fastest and K slowest samples when over 2K remain (default 1)"},
		{"all-devices", 0, OPT_FLAG, &a.all_devices, NULL,
		 "pool samples from every selected device (default: per input, the first device that ran a candidate)"},
		{"compat", 0, OPT_STR, &a.compat, "ejkernel",
		 "reproduce the numbers of ejkernel's Python profiler exactly, limits included"},
		{"pool-programs", 0, OPT_FLAG, &a.pool_programs, NULL,
		 "pool a candidate's programs (program ids) into one row; by default each program is a row of its own"},
		{"per-file", 0, OPT_FLAG, &a.per_file, NULL,
		 "a JSON line per input with its own candidates and their samples, in input order"},
		CMD_OPTS_HISTORY(&a.c),
		CMD_OPTS_TAIL(&a.c),
	};
	const struct opt_cmd cmd = {
		"autotune", "[OPTIONS] FILE|DIR|-...",
		"Per autotuning candidate (functions named jit_autotune_fn_<i>): samples = its\n"
		"executions' device times over all inputs; trimmed mean and population std, min,\n"
		"median, max, a 95% Student-t interval of the mean, rank, and whether a Welch test\n"
		"(p >= 0.05) finds it tied with the fastest. --json prints {\"<i>\": {\"mean_s\": ...,\n"
		"\"std_s\": ..., ...}} so a tuner's json.load gets what the Python profiler returned.\n"
		"A candidate compiled into several programs gets a row per program, and in JSON\n"
		"null statistics under its id with the rows in \"programs\", unless --pool-programs.\n"
		"A summary file (xplane-stat summarize) stands for the profiles it summarises.",
		opts, .min_pos = 1,
	};
	struct an_at_opts ao = {0};
	struct an_at_result res;
	struct an_exec_opts xo = {0};
	struct an_compat_opts co = {0};
	struct xp_pathlist paths = {0};
	struct xp_notes notes = {0};
	struct xp_err err = {0};
	regex_t id_re;
	int have_id = 0, ret;
	enum out_mode mode = OUT_TABLE;
	struct at_batch ab = {0};
	const char **pos = NULL;
	size_t npos;

	cmd_common_init(&a.c);
	an_at_init(&res, &ao);
	ret = cmd_parse(&cmd, argc, argv, &pos, &npos);
	if (ret >= 0)
		goto out;
	ret = EXIT_USAGE;
	ret = cmd_common_setup(&a.c, &mode, &ao.time, &xo);
	if (ret >= 0)
		goto out;
	ret = EXIT_USAGE;
	if (a.compat && strcmp(a.compat, "ejkernel")) {
		cmd_error("--compat: '%s' is not a known profiler (ejkernel is)", a.compat);
		goto out;
	}
	if (a.compat && (a.c.time || a.c.min_dur_ps || a.all_devices || a.trim != 1 || a.id_regex)) {
		cmd_error("--compat=ejkernel fixes --time, --min-duration, --all-devices, --trim and --id-regex");
		goto out;
	}
	if ((ret = cmd_regex(&id_re, a.id_regex ? a.id_regex : AN_AT_DEFAULT_ID_REGEX, "--id-regex")))
		goto out;
	have_id = 1;
	ret = EXIT_USAGE;
	if (id_re.re_nsub < 1) {
		cmd_error("--id-regex: '%s' has no capture group for the id", a.id_regex);
		goto out;
	}
	ao.id_re = &id_re;
	ao.trim = a.trim;
	ao.all_devices = a.all_devices;
	ao.programs = a.pool_programs ? AN_AT_POOL_PROGRAMS : AN_AT_SPLIT_PROGRAMS;
	ao.alpha = 0.05;
	an_at_init(&res, &ao);
	co.device = a.c.device ? a.c.device : "gpu";
	co.children = xo.children;
	co.id_re = &id_re;
	/* host planes: for linkage only; --compat reads its plane whole */
	if (!a.compat)	/* --compat reads traces its own way, and no summaries */
		cmd_read_profile(&a.c, &an_exec_read_profile);
	if (a.compat && a.c.history) {
		cmd_error("--history records executions, which --compat=ejkernel does not find");
		ret = EXIT_USAGE;
		goto out;
	}
	if ((ret = cmd_history_setup(&a.c, &notes)) >= 0)
		goto out;
	if ((ret = cmd_batch_inputs(&ab.b, &a.c, pos, npos, &paths, &notes, &ab.plane_jobs)) >= 0)
		goto out;
	ab.a = &a;
	ab.paths = &paths;
	ab.xo = &xo;
	ab.co = a.compat ? &co : NULL;
	ab.ao = &ao;
	ab.res = &res;
	ab.notes = &notes;
	ab.ret = -1;
	if (a.per_file) {
		ret = EXIT_USAGE;
		if (a.c.csv || a.c.tsv) {
			cmd_error("--per-file prints JSON lines: it excludes --csv and --tsv");
			goto out;
		}
		ret = cmd_batch_lines(&ab.b, a.c.output, cmd_jobs(&a.c, paths.n), at_work, at_done, &ab,
				      &notes, &ab.ret);
		ret = cmd_history_finish(&a.c, ret);
		goto out;
	}
	ret = cmd_batch_run(&ab.b, cmd_jobs(&a.c, paths.n), at_work, at_done, &ab, &notes, &ab.ret);
	if (ret >= 0)
		goto out;
	an_at_finish(&res, &err);
	if (program_notes(&notes, &res)) {
		cmd_error("out of memory");
		ret = EXIT_ERROR;
		goto out;
	}
	if (res.inputs_without && !a.compat)
		xp_notes_add(&notes, "%zu of %zu inputs hold no candidate", res.inputs_without, res.inputs);
	if (res.dropped_short)
		xp_notes_add(&notes, "%zu device event%s shorter than --min-duration dropped",
			     res.dropped_short, res.dropped_short == 1 ? "" : "s");
	cmd_print_notes(&notes);
	if (!res.ncands) {
		cmd_error("no autotune candidates: no function name matches '%s'",
			  a.id_regex ? a.id_regex : AN_AT_DEFAULT_ID_REGEX);
		ret = EXIT_NOMATCH;
		goto out;
	}
	ret = cmd_write(&a.c, mode, print_autotune, &res);
	ret = cmd_history_finish(&a.c, cmd_batch_exit(&ab.b, ret));
out:
	if (have_id)
		regfree(&id_re);
	cmd_common_release(&a.c);
	an_at_release(&res);
	xp_pathlist_release(&paths);
	xp_notes_release(&notes);
	free(pos);
	return ret;
}

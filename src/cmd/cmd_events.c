/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat events: what a file holds by name, or (--list) every single event. */
#include <stdlib.h>
#include <string.h>

#include "an_events.h"
#include "cmd.h"
#include "opt.h"
#include "out_events.h"
#include "xp_input.h"
#include "xp_pool.h"
#include "xp_stray.h"

struct ev_args {
	struct cmd_common c;
	const char *plane, *line, *match;
	int list;
};

struct ev_output {
	const struct an_ev_result *res;
	const struct xp_notes *notes;
};

static int print_events(FILE *f, enum out_mode mode, int colour, const void *arg)
{
	const struct ev_output *o = arg;

	return out_events(f, mode, o->res, o->notes, colour);
}

struct ev_batch {
	const struct ev_args *a;
	const struct xp_pathlist *paths;
	const struct an_ev_opts *eo;
	enum out_mode mode;
	unsigned plane_jobs;
	struct an_ev_result *res;
	struct xp_notes *notes;
	struct cmd_batch b;
	FILE *list;		/* --list: where events go */
	int list_header;	/* printed: with the first input read, so that none read prints nothing */
	size_t listed, stray;
	int ret;		/* an exit code that stops the batch; -1: going on */
};

static void *ev_work(size_t i, void *ctx)
{
	struct ev_batch *eb = ctx;

	return cmd_input_process(&eb->a->c, eb->paths->paths[i], eb->plane_jobs, NULL, 1);
}

/* --list: the selected events of one input, line by line in file order. */
static int list_input(struct ev_batch *eb, const struct cmd_input *in)
{
	const struct xp_trace *t = in->t;
	size_t pi, li, i;

	for (pi = 0; pi < t->nplanes; pi++) {
		const struct xp_plane *p = &t->planes[pi];
		signed char *match;

		if (!p->loaded || (eb->eo->plane && !an_device_matches(p->name, eb->eo->plane)))
			continue;
		if (!(match = malloc(p->nevmetas + 1)))
			return -1;
		memset(match, -1, p->nevmetas + 1);
		for (li = 0; li < p->nlines; li++) {
			const struct xp_line *ln = &p->lines[li];

			if (!an_ev_selects_line(eb->eo, p->name, ln->name))
				continue;
			for (i = ln->first_event; i < ln->first_event + ln->nevents; i++) {
				const struct xp_event *e = &p->events[i];

				if (match[e->meta] < 0)
					match[e->meta] = !eb->eo->match ||
							 !regexec(eb->eo->match, xp_event_name(p, e), 0, NULL, 0);
				if (!match[e->meta])
					continue;
				if (out_events_list_event(eb->list, eb->mode, in->path, p, e)) {
					free(match);
					return -1;
				}
				eb->listed++;
			}
		}
		free(match);
	}
	return 0;
}

static void ev_done(size_t i, void *result, void *ctx)
{
	struct ev_batch *eb = ctx;
	struct cmd_input *in = result;
	struct xp_err err = {0};

	(void)i;
	if (eb->ret >= 0)
		goto out;
	if (cmd_batch_step(&eb->b, in, eb->notes)) {
		eb->ret = in ? in->code : EXIT_ERROR;
		goto out;
	}
	if (!in || in->code)
		goto out;
	if (eb->list) {
		if (!eb->list_header++)
			out_events_list_header(eb->list, eb->mode);
		if (list_input(eb, in)) {
			cmd_error("out of memory");
			eb->ret = EXIT_ERROR;
		}
		goto out;
	}
	{
		size_t before = eb->res->stray;

		if (an_ev_add(eb->res, in->t, eb->eo, &err)) {
			cmd_error("%s", err.msg);
			eb->ret = EXIT_ERROR;
			goto out;
		}
		if (eb->res->stray > before)
			xp_notes_add(eb->notes, "'%s': %zu event%s end%s more than %d windows after every "
				     "other event of %s plane (a duration that reads like an absolute end "
				     "time): counted, but left out of total, mean, min and max",
				     in->path, eb->res->stray - before, eb->res->stray - before == 1 ? "" : "s",
				     eb->res->stray - before == 1 ? "s" : "", XP_STRAY_WINDOWS,
				     eb->res->stray - before == 1 ? "its" : "their");
	}
out:
	cmd_input_free(in);
}

int cmd_events(int argc, char **argv)
{
	struct ev_args a = {0};
	const struct opt opts[] = {
		{"plane", 0, OPT_STR, &a.plane, "PATTERN", "only planes whose name contains PATTERN, any case (/host, GPU:0)"},
		{"line", 0, OPT_STR, &a.line, "PATTERN", "only lines whose name contains PATTERN, any case (XLA Ops, Stream)"},
		{"match", 'm', OPT_STR, &a.match, "REGEX", "only events whose name matches REGEX (extended)"},
		{"list", 0, OPT_FLAG, &a.list, NULL,
		 "stream every selected event (input, plane, line, name, start, duration, stats) as TSV, "
		 "CSV or (--json) JSON lines"},
		CMD_OPTS_INPUT(&a.c),
		CMD_OPTS_FORMAT(&a.c),
		{0},
	};
	const struct opt_cmd cmd = {
		"events", "[OPTIONS] FILE|DIR|-...",
		"What the files hold by name: per plane and line, each distinct event name with\n"
		"its count and total, mean, min and max duration, pooled over the inputs by\n"
		"(plane, line, name). Every plane is read, host planes too. --list instead\n"
		"streams the single events, for scripts; --plane, --line and --match select.",
		opts,
	};
	struct an_ev_opts eo = {0};
	struct an_ev_result res;
	struct ev_output out_arg;
	struct xp_pathlist paths = {0};
	struct xp_notes notes = {0};
	struct xp_err err = {0};
	struct ev_batch eb = {0};
	struct cmd_out out = {0};
	regex_t match_re;
	int have_match = 0, have_out = 0, ret, m;
	const char **pos = NULL;
	size_t npos;

	cmd_common_init(&a.c);
	an_ev_init(&res);
	ret = cmd_parse(&cmd, argc, argv, &pos, &npos);
	if (ret >= 0)
		goto out;
	ret = EXIT_USAGE;
	if (!npos) {
		cmd_error("no input given (see 'xplane-stat events --help')");
		goto out;
	}
	if ((m = cmd_output_mode(&a.c)) < 0)
		goto out;
	if ((ret = cmd_input_setup(&a.c)) >= 0)
		goto out;
	if (a.match && (ret = cmd_regex(&match_re, a.match, "--match")))
		goto out;
	have_match = a.match != NULL;
	/* Only --list shows stats; counts and times need none. */
	a.c.event_stats = a.list ? XP_EVSTATS_ALL : XP_EVSTATS_NONE;
	eo.plane = a.plane;
	eo.line = a.line;
	eo.match = have_match ? &match_re : NULL;
	if (!a.list) {	/* each plane counted on the thread that read it, its events then freed */
		a.c.plane_read = an_ev_plane_read;
		a.c.plane_read_ctx = &eo;
		a.c.plane_user_free = an_ev_user_free;
		a.c.release_events = 1;
	}
	if ((ret = cmd_batch_inputs(&eb.b, &a.c, pos, npos, &paths, &notes, &eb.plane_jobs)) >= 0)
		goto out;
	eb.a = &a;
	eb.paths = &paths;
	eb.eo = &eo;
	eb.mode = (enum out_mode)m;
	eb.res = &res;
	eb.notes = &notes;
	eb.ret = -1;
	if (a.list) {
		if ((ret = cmd_out_open(&out, a.c.output)))
			goto out;
		have_out = 1;
		eb.list = out.f;
	}
	ret = cmd_batch_run(&eb.b, cmd_jobs(&a.c, paths.n), ev_work, ev_done, &eb, &notes, &eb.ret);
	if (ret >= 0)
		goto out;
	if (a.list) {
		have_out = 0;
		ret = cmd_out_close(&out, 1);
		cmd_print_notes(&notes);
		if (!ret && !eb.listed) {
			cmd_error("no event%s in %s", have_match || a.plane || a.line ? " matches the selection" : "",
				  paths.n == 1 ? "this file" : "any input");
			ret = EXIT_NOMATCH;
		}
		ret = cmd_batch_exit(&eb.b, ret);
		goto out;
	}
	an_ev_finish(&res, &err);
	if (!res.n && eb.mode != OUT_JSON) {
		cmd_error("no event%s in %s%s", have_match || a.plane || a.line ? " matches the selection" : "",
			  paths.n == 1 ? "this file" : "any input",
			  a.plane && !res.planes_seen ? " (no plane matches --plane; 'xplane-stat planes FILE' lists them)"
			  : "");
		cmd_print_notes(&notes);
		ret = EXIT_NOMATCH;
		goto out;
	}
	out_arg.res = &res;
	out_arg.notes = &notes;
	ret = cmd_write(a.c.output, eb.mode, print_events, &out_arg);
	if (eb.mode != OUT_JSON)
		cmd_print_notes(&notes);
	if (!ret && !res.n)
		ret = EXIT_NOMATCH;
	ret = cmd_batch_exit(&eb.b, ret);
out:
	if (have_out)
		cmd_out_close(&out, 0);
	if (have_match)
		regfree(&match_re);
	an_ev_release(&res);
	xp_pathlist_release(&paths);
	xp_notes_release(&notes);
	free(pos);
	return ret;
}

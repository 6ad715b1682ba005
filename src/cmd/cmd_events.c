/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat events: what a file holds by name, or (--list) every single event. */
#include <string.h>

#include "an_counters.h"
#include "an_notes.h"
#include "cmd_driver.h"
#include "out_events.h"

struct ev_args {
	struct cmd_common c;
	struct an_ev_opts eo;
	struct an_ctr_opts co;
	int list, header, counters;
	size_t listed;		/* --list: events written */
};

/* --list streams every event with its stats, from the trace whole. */
static const struct an_read_profile list_read = {.how = AN_READ_TRACE, .event_stats = XP_EVSTATS_ALL};

static int ev_check(struct cmd_drive *d)
{
	struct ev_args *a = d->args;

	a->eo.match = cmd_match(d->c);
	if ((d->stream = a->list))
		d->read = &list_read;
	return CMD_GO_ON;
}

static int ev_input(struct cmd_drive *d, struct cmd_input *in, void *r, struct xp_err *err)
{
	struct ev_args *a = d->args;

	(void)r;
	if (!a->list)
		return an_ev_add_input(d->res, in->t, &a->eo, in->path, &d->notes, err);
	/* the header with the first input read, so that none read prints nothing */
	if (!a->header++)
		out_events_list_header(d->out, d->mode);
	return out_events_list_trace(d->out, d->mode, in->path, in->t, &a->eo, &a->listed);
}

static int ev_after(struct cmd_drive *d)
{
	const struct ev_args *a = d->args;
	const struct an_ev_result *r = d->res;

	if (a->list ? a->listed : r->n || d->mode == OUT_JSON) {
		d->empty = !a->list && !r->n;
		return CMD_GO_ON;
	}
	cmd_error("no event%s in %s%s", a->eo.match || a->eo.plane || a->eo.line ? " matches the selection" : "",
		  d->paths.n == 1 ? "this file" : "any input", !a->list && a->eo.plane && !r->planes_seen
		  ? " (no plane matches --plane; 'xplane-stat planes FILE' lists them)" : "");
	return EXIT_NOMATCH;
}

static int ev_print(FILE *f, enum out_mode mode, const struct out_style *st, const struct cmd_drive *d)
{
	return out_events(f, mode, d->res, &d->notes, st);
}

#define EVENTS_ABOUT \
	"What the files hold by name: per plane and line, each distinct event name with\n" \
	"its count and total, mean, min and max duration, pooled over the inputs by\n" \
	"(plane, line, name). Every plane is read, host planes too. --list instead\n" \
	"streams the single events, for scripts; --counters summarises the counter\n" \
	"lines' samples (" AN_COUNTER_LINE ") per counter: samples, min, mean, max and the\n" \
	"time-weighted mean; --plane, --line and --match select."

/* --counters: the counter lines' samples summarised per plane and counter. */
static int ctr_check(struct cmd_drive *d)
{
	struct ev_args *a = d->args;

	if (a->list)
		return cmd_usage_error("--counters and --list are two views: give one");
	if (a->eo.line)
		return cmd_usage_error("--counters reads the counter lines (" AN_COUNTER_LINE "): --line selects "
				       "among the other views' lines");
	a->co.plane = a->eo.plane;
	a->co.match = cmd_match(d->c);
	d->opts = &a->co;
	return CMD_GO_ON;
}

static int ctr_input(struct cmd_drive *d, struct cmd_input *in, void *r, struct xp_err *err)
{
	struct ev_args *a = d->args;

	(void)r;
	return an_ctr_add(d->res, in->t, &a->co, err);
}

static int ctr_nothing(struct cmd_drive *d)
{
	const struct ev_args *a = d->args;
	const struct an_ctr_result *r = d->res;

	if (r->n || d->mode == OUT_JSON) {
		d->empty = !r->n;
		return CMD_GO_ON;
	}
	if (a->co.plane && !r->planes_seen)
		cmd_error("no plane of %s matches --plane ('xplane-stat planes FILE' lists them)",
			  cmd_drive_inputs(d));
	else if (r->lines)
		cmd_error("no counter sample in %s matches the selection", cmd_drive_inputs(d));
	else
		cmd_error("no counter lines in %s: counters are the samples of lines named '" AN_COUNTER_LINE
			  "' (PM sampling, TPU performance counters)", cmd_drive_inputs(d));
	return cmd_drive_nomatch(d);
}

static int ctr_print(FILE *f, enum out_mode mode, const struct out_style *st, const struct cmd_drive *d)
{
	return out_counters(f, mode, d->res, &d->notes, st);
}

static const struct cmd_analysis counters = {
	.name = "events",
	.about = EVENTS_ABOUT,
	.an = &an_counters_analysis, .check = ctr_check, .input = ctr_input,
	.nothing = ctr_nothing, .print = ctr_print,
};

static const struct cmd_analysis events = {
	.name = "events",
	.about = EVENTS_ABOUT,

	.an = &an_events_analysis, .check = ev_check, .input = ev_input,
	.after = ev_after, .print = ev_print,
};

int cmd_events(int argc, char **argv)
{
	struct ev_args a = {0};
	const struct opt opts[] = {
		{"plane", 0, OPT_STR, &a.eo.plane, "PATTERN", "only planes whose name contains PATTERN, any case (/host, GPU:0)"},
		{"line", 0, OPT_STR, &a.eo.line, "PATTERN", "only lines whose name contains PATTERN, any case (XLA Ops, Stream)"},
		CMD_OPT_MATCH(&a.c, "events"),
		{"list", 0, OPT_FLAG, &a.list, NULL,
		 "stream every selected event (input, plane, line, name, start, duration, stats) as TSV, "
		 "CSV or (--json) JSON lines"},
		{"counters", 0, OPT_FLAG, &a.counters, NULL,
		 "summarise the counter lines' samples per plane and counter (--match selects counters)"},
		CMD_OPTS_TAIL(&a.c),
	};
	struct cmd_drive d = {.a = &events, .c = &a.c, .args = &a, .opts = &a.eo};
	int i;

	/* --counters is another analysis: chosen before the driver parses (the same options) */
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--counters"))
			d.a = &counters;
	return cmd_drive(&d, opts, argc, argv);
}

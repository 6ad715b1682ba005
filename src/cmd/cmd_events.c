/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat events: what a file holds by name, or (--list) every single event. */
#include "an_notes.h"
#include "cmd_driver.h"
#include "out_events.h"

struct ev_args {
	struct cmd_common c;
	struct an_ev_opts eo;
	int list, header;
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

static const struct cmd_analysis events = {
	.name = "events",
	.about = "What the files hold by name: per plane and line, each distinct event name with\n"
		 "its count and total, mean, min and max duration, pooled over the inputs by\n"
		 "(plane, line, name). Every plane is read, host planes too. --list instead\n"
		 "streams the single events, for scripts; --plane, --line and --match select.",
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
		CMD_OPTS_TAIL(&a.c),
	};
	struct cmd_drive d = {.a = &events, .c = &a.c, .args = &a, .opts = &a.eo};

	return cmd_drive(&d, opts, argc, argv);
}

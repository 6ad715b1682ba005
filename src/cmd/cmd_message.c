/* SPDX-License-Identifier: Apache-2.0 */
/* Messages: errors and warnings on stderr, exit codes for library errors, the texts of the reader's and executions' warnings. */
#include "cmd.h"

#include <errno.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "an_exec.h"
#include "out_run.h"
#include "xp_stray.h"
#include "an_functions.h"
#include "xp_input.h"
#include "xp_pool.h"

static void verror(const char *fmt, va_list ap)
{
	fflush(stdout);
	fputs("xplane-stat: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cmd_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
}

int cmd_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

int cmd_exit_for(int code)
{
	switch (code) {
	case XP_OK:
		return EXIT_OK;
	case XP_ERR_IO:
	case XP_ERR_FORMAT:
	case XP_ERR_LIMIT:
		return EXIT_INPUT;
	case XP_ERR_USAGE:
		return EXIT_USAGE;
	default:
		return EXIT_ERROR;
	}
}

int cmd_regex(regex_t *re, const char *pattern, const char *option)
{
	int r = regcomp(re, pattern, REG_EXTENDED);

	if (r) {
		char msg[256];

		regerror(r, re, msg, sizeof(msg));
		cmd_error("%s: invalid regular expression '%s': %s", option, pattern, msg);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

void cmd_err_name_input(struct xp_err *err, const char *path)
{
	char msg[sizeof(err->msg)];

	if (err->msg[0] == '\'')
		return;
	memcpy(msg, err->msg, sizeof(msg));
	snprintf(err->msg, sizeof(err->msg), "'%.200s': %.300s", path, msg);
}

/* "'PATH': no device plane with events[ matching 'X'] (planes here: ...)" from a list of planes. */
static void no_device(const char *path, char *const *names, const unsigned char *empty, size_t n,
		      const char *pattern)
{
	char list[1024] = "";
	size_t i, len = 0;

	for (i = 0; i < n && len + 4 < sizeof(list); i++) {
		int w = snprintf(list + len, sizeof(list) - len, "%s%s%s", i ? ", " : "", names[i],
				 empty[i] ? " (no events)" : "");

		if (w < 0)
			break;
		len += (size_t)w;
	}
	if (len >= sizeof(list))
		strcpy(list + sizeof(list) - 5, "...");
	cmd_error("'%s': no device plane with events%s%s%s (planes here: %s)", path,
		  pattern ? " matching '" : "", pattern ? pattern : "", pattern ? "'" : "",
		  n ? list : "none");
}

/*
 * Every plane's name, and whether it is a device plane without device
 * events (device planes the reader deferred are read to say so).
 */
int cmd_plane_list(struct xp_trace *t, char ***names, unsigned char **empty)
{
	struct xp_err err = {0};
	size_t i;

	*names = calloc(t->nplanes + 1, sizeof(**names));
	*empty = calloc(t->nplanes + 1, 1);
	if (!*names || !*empty)
		return -1;
	for (i = 0; i < t->nplanes; i++) {
		const struct xp_plane *p = &t->planes[i];

		if (an_is_device_plane(p->name))
			xp_trace_load_plane(t, i, &err);
		(*empty)[i] = an_is_device_plane(p->name) && p->loaded && !an_plane_device_events(p);
		if (!((*names)[i] = strdup(p->name)))
			return -1;
	}
	return 0;
}

void cmd_planes_free(char **names, unsigned char *empty, size_t n)
{
	size_t i;

	for (i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
	free(empty);
}

int cmd_note_counts(struct xp_notes *n, const char *path, const struct xp_trace *t)
{
	const struct xp_read_counts *c = &t->counts;
	size_t i;
	int r = 0;

	if (c->aggregated_events)
		r |= xp_notes_add(n, "'%s': %zu aggregated events (num_occurrences, no time) skipped",
				  path, c->aggregated_events);
	if (c->events_missing_metadata)
		r |= xp_notes_add(n, "'%s': %zu events refer to event metadata the file lacks (named \"\")",
				  path, c->events_missing_metadata);
	if (c->stats_missing_metadata)
		r |= xp_notes_add(n, "'%s': %zu stats refer to stat metadata the file lacks (ignored)",
				  path, c->stats_missing_metadata);
	if (c->duplicate_metadata)
		r |= xp_notes_add(n, "'%s': %zu metadata ids appear more than once (the last one is used)",
				  path, c->duplicate_metadata);
	for (i = 0; i < t->nerrors; i++)
		r |= xp_notes_add(n, "'%s': the profiler recorded an error: %s", path, t->errors[i]);
	for (i = 0; i < t->nwarnings; i++)
		r |= xp_notes_add(n, "'%s': the profiler recorded a warning: %s", path, t->warnings[i]);
	return r ? XP_ERR_NOMEM : 0;
}

/* What k events whose hlo_module names nothing become on device d. */
static const char *unnamed_fate(const struct an_device *d, size_t k)
{
	if (d->module_line)
		return k == 1 ? "the event is named by its own metadata"
			      : "the events are named by their own metadata";
	return k == 1 ? "its event belongs to no function" : "their events belong to no function";
}

int cmd_note_execs(struct xp_notes *n, const char *path, const struct an_exec_list *l)
{
	size_t i, k, forms_said = 0;	/* the executor forms, once per input */
	int r = 0;

	for (i = 0; i < l->ndevices; i++) {
		const struct an_device *d = &l->devices[i];

		if (d->extra_module_lines)
			r |= xp_notes_add(n, "'%s': plane '%s' has %zu 'XLA Modules' lines: only the first is "
					  "used, the %zu event%s on the other%s are not counted", path, d->name,
					  d->extra_module_lines + 1, d->extra_module_events,
					  d->extra_module_events == 1 ? "" : "s",
					  d->extra_module_lines == 1 ? "" : "s");
		if ((k = d->stray_events))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu event%s end%s more than %d windows after every "
					  "other event of the plane (a duration that reads like an absolute end "
					  "time): left out of executions, busy time and statistics", path, d->name,
					  k, k == 1 ? "" : "s", k == 1 ? "s" : "", XP_STRAY_WINDOWS);
		if ((k = d->stray_children))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu event%s with a stray end left out of "
					  "--children", path, d->name, k, k == 1 ? "" : "s");
		if ((k = d->module_ref_nowhere))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu hlo_module stat%s refer%s by ref_value to stat "
					  "metadata the file lacks: %s", path, d->name, k, k == 1 ? "" : "s",
					  k == 1 ? "s" : "", unnamed_fate(d, k));
		if ((k = d->odd_stats[XP_K_HLO_MODULE]))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu hlo_module stat%s %s not a string: %s",
					  path, d->name, k, k == 1 ? "" : "s", k == 1 ? "is" : "are",
					  unnamed_fate(d, k));
		if ((k = d->odd_stats[XP_K_PROGRAM_ID]))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu program_id stat%s %s neither an integer nor "
					  "digits (treated as absent)", path, d->name, k, k == 1 ? "" : "s",
					  k == 1 ? "is" : "are");
		if (d->corr_events && d->host_linkage != AN_LINK_OK)
			r |= xp_notes_add(n, "'%s': plane '%s': %zu device event%s carr%s a correlation_id but %s: "
					  "executions are split by the runs rule", path, d->name, d->corr_events,
					  d->corr_events == 1 ? "" : "s", d->corr_events == 1 ? "ies" : "y",
					  d->host_linkage == AN_LINK_NO_HOST_PLANE ? "the file has no host plane"
					  : d->host_linkage == AN_LINK_NO_LAUNCHES
					  ? "no host event carries a correlation_id (a launch)"
					  : d->host_linkage == AN_LINK_NO_EXECUTORS
					  ? "the host planes hold launches but no executor event around them"
					  : "the host planes hold neither launches (events with a correlation_id) nor "
					    "executor events");
		if ((d->host_linkage == AN_LINK_NO_EXECUTORS ||
		     d->host_linkage == AN_LINK_NO_LAUNCHES_NO_EXECUTORS) && !forms_said++)
			r |= xp_notes_add(n, "'%s': the executor events host linkage knows: %s", path,
					  an_executor_forms);
		if ((k = d->corr_no_launch))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu of %zu device events with a correlation_id have "
					  "no host launch with that id: they join executions by the runs rule",
					  path, d->name, k, d->corr_events);
		if ((k = d->corr_no_executor))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu of %zu device events with a correlation_id were "
					  "launched outside every executor event of their function: they join "
					  "executions by the runs rule", path, d->name, k, d->corr_events);
		if ((k = d->corr_ambiguous))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu of %zu device events with a correlation_id share "
					  "it with several host launches that neither the device's launching threads "
					  "nor time tell apart: they join executions by the runs rule", path, d->name,
					  k, d->corr_events);
		if ((k = d->runs_repeating))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu run%s of one function's events repeat%s the "
					  "same kernels, but no gap inside them is more than twice as long as the "
					  "others to show where calls start (a run of one repeated kernel never "
					  "shows it): each is counted as one execution and may hold several calls",
					  path, d->name, k, k == 1 ? "" : "s", k == 1 ? "s" : "");
		if ((k = d->odd_stats[XP_K_CORRELATION_ID]))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu correlation_id stat%s %s not an integer "
					  "(treated as absent)", path, d->name, k, k == 1 ? "" : "s",
					  k == 1 ? "is" : "are");
	}
	return r ? XP_ERR_NOMEM : 0;
}

void cmd_no_device(const char *path, struct xp_trace *t, const char *pattern)
{
	char **names = NULL;
	unsigned char *empty = NULL;

	if (!cmd_plane_list(t, &names, &empty))
		no_device(path, names, empty, t->nplanes, pattern);
	else
		cmd_error("out of memory");
	cmd_planes_free(names, empty, t->nplanes);
}

void cmd_no_device_input(const struct cmd_input *in, const char *pattern)
{
	if (in->t)
		cmd_no_device(in->path, in->t, pattern);
	else if (in->run)
		no_device(in->path, in->run->planes, in->run->plane_empty, in->run->nplanes, pattern);
}

void cmd_print_notes(const struct xp_notes *n)
{
	size_t i;

	for (i = 0; i < n->n; i++)
		cmd_error("warning: %s", n->msgs[i]);
}

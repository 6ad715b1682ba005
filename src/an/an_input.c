/* SPDX-License-Identifier: Apache-2.0 */
/* One input file read for an analysis, and the reader's and executions' warnings (an_input.h). */
#include "an_input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libdeflate.h>

#include "an_cpu.h"
#include "an_device.h"
#include "an_notes.h"
#include "an_summary.h"
#include "xp_input.h"
#include "xp_stray.h"

static void buf_free(void *b)
{
	xp_buf_release(b);
	free(b);
}

static int buf_changed(const void *b)
{
	return xp_buf_changed(b);
}

void an_read_opts(struct xp_read_opts *o, const struct an_read_profile *p)
{
	o->keys = p->keys;
	o->host_keys = p->host_keys;
	o->want_host_event = p->want_host_event;
	o->event_stats = p->event_stats;
	o->plane_read = p->plane_read;
	o->plane_user_free = p->plane_user_free;
	o->release_events = p->release_events;
}

int an_wants_host_plane(const char *name, void *ctx)
{
	(void)ctx;
	return !strncmp(name, "/host:", 6);
}

int an_input_read(const char *path, uint64_t max_input, const struct xp_read_opts *o, struct xp_trace **t,
		  struct xp_err *err)
{
	struct xp_read_opts ro = *o;
	struct xp_buf *b = calloc(1, sizeof(*b));
	int ret;

	*t = NULL;
	if (!b)
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	ret = xp_buf_load(path, max_input, b, err);
	ro.input_mapped = b->mapped;
	if (!ret && an_summary_sniff(b->data, b->len))
		ret = AN_INPUT_SUMMARY;
	else if (!ret && (ret = xp_trace_read_opts(&ro, b->data, b->len, t, err)))
		an_input_name_err(err, path);	/* the reader does not know the path */
	if (xp_buf_changed(b)) {
		/* the file shrank under the read: what it made of the zeros is not the file's */
		ret = xp_buf_check(b, path, err);
		xp_trace_free(*t);
		*t = NULL;
	} else if (!ret && (ro.want_plane || ro.event_stats == XP_EVSTATS_INPUT)) {
		/* deferred planes read from it, and stats left there (XP_EVSTATS_INPUT) */
		xp_trace_adopt_buf(*t, buf_free, buf_changed, b);
		return 0;
	}
	buf_free(b);
	return ret;
}

int an_input_check(const struct xp_trace *t, const char *path, struct xp_err *err)
{
	if (!xp_trace_input_changed(t))
		return 0;
	if (err)
		err->code = 0;	/* an error the zeros made gives way to its cause */
	return xp_err_set(err, XP_ERR_IO, "'%s': " XP_CHANGED_MSG, path);
}

int an_input_execs(struct xp_trace *t, const struct an_exec_opts *xo, const char *path, struct an_exec_list *l,
		   struct xp_notes *n, size_t *reader_notes, struct xp_err *err)
{
	int r = an_exec_find(t, xo, l, err);

	if (r) {
		/* A plane read late can be malformed: name the input. */
		if (r != XP_ERR_NOMEM)
			an_input_name_err(err, path);
		return r;
	}
	/* After an_exec_find: the counts include the planes it read on demand. */
	if (an_input_notes(n, path, t))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	if (reader_notes)
		*reader_notes = n->n;
	if (an_exec_notes(n, path, l))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	return 0;
}

void an_input_name_err(struct xp_err *err, const char *path)
{
	char msg[sizeof(err->msg)];

	if (err->msg[0] == '\'')
		return;
	memcpy(msg, err->msg, sizeof(msg));
	snprintf(err->msg, sizeof(err->msg), "'%.200s': %.300s", path, msg);
}

int an_input_notes(struct xp_notes *n, const char *path, const struct xp_trace *t)
{
	const struct xp_read_counts *c = &t->counts;
	const struct {
		size_t n;
		const char *what;
	} odd[] = {
		{c->events_missing_metadata, "events refer to event metadata the file lacks (named \"\")"},
		{c->stats_missing_metadata, "stats refer to stat metadata the file lacks (ignored)"},
		{c->duplicate_metadata, "metadata ids appear more than once (the last one is used)"},
	};
	size_t i;
	int r = 0;

	if (c->aggregated_events)
		r |= xp_notes_add(n, "'%s': %zu aggregated event%s (num_occurrences: a count and a total, no start): "
				  "'events' (its table) and 'ops' (TPU) count %s; 'events --list', timelines, "
				  "executions and kernels leave %s out",
				  path, c->aggregated_events, c->aggregated_events == 1 ? "" : "s",
				  c->aggregated_events == 1 ? "it" : "them", c->aggregated_events == 1 ? "it" : "them");
	for (i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		if (odd[i].n)
			r |= xp_notes_add(n, "'%s': %zu %s", path, odd[i].n, odd[i].what);
	for (i = 0; i < t->nplanes; i++) {
		const struct xp_plane *p = &t->planes[i];

		if (p->loaded && !strcmp(p->name, AN_CPU_PLANE) && p->nlines)
			r |= xp_notes_add(n, "'%s': no device plane: XLA:CPU's %zu op event%s in %zu execution%s on "
					  "%zu thread%s of /host:CPU taken as device '%s' (thunks by hlo_op; "
					  "an execution: one hlo_module, program_id and run_id or executable call)", path,
					  p->nevents - p->lines[0].nevents, p->nevents - p->lines[0].nevents == 1 ? "" : "s",
					  p->lines[0].nevents, p->lines[0].nevents == 1 ? "" : "s", p->nlines - 1,
					  p->nlines == 2 ? "" : "s", AN_CPU_PLANE);
	}
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

int an_exec_notes(struct xp_notes *n, const char *path, const struct an_exec_list *l)
{
	size_t i, k, forms_said = 0;	/* the executor forms, once per input */
	int r = 0;

	if ((k = l->sparsecore_planes))
		r |= xp_notes_add(n, "'%s': %zu TPU SparseCore plane%s left out of executions: a SparseCore's "
				  "modules run beside its TensorCore's, as parts of them ('overview' and 'ops' "
				  "show them)", path, k, k == 1 ? "" : "s");
	if ((k = l->scope_edges_repeated))
		r |= xp_notes_add(n, "'%s': %zu edge%s of the scope tree (%s) give%s a parent to an id that has "
				  "one already: the first is used", path, k, k == 1 ? "" : "s", AN_SCOPE_TREE_PLANE,
				  k == 1 ? "s" : "");
	for (i = 0; i < l->ndevices; i++) {
		const struct an_device *d = &l->devices[i];

		if (d->repeats)
			r |= an_plane_again_note(n, path, d->name, d->repeats);
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
		if ((k = d->scope_no_root))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu device event%s carr%s a scope_range_id from "
					  "which the scope tree (%s) leads to no root (an id it does not hold, or "
					  "parents in a cycle): grouped by the other rules", path, d->name, k,
					  k == 1 ? "" : "s", k == 1 ? "ies" : "y", AN_SCOPE_TREE_PLANE);
		if ((k = d->scope_shared_root))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu device event%s of one function lead%s to a scope "
					  "root another function's events lead to: grouped by the other rules", path,
					  d->name, k, k == 1 ? "" : "s", k == 1 ? "s" : "");
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

int an_plane_list(struct xp_trace *t, char ***names, unsigned char **empty)
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
		if (an_is_device_plane(p->name) && p->loaded && !an_plane_device_events(p))
			(*empty)[i] = an_plane_device_aggs(p) ? 2 : 1;	/* 2: aggregated events only */
		if (!((*names)[i] = strdup(p->name)))
			return -1;
	}
	return 0;
}

void an_planes_free(char **names, unsigned char *empty, size_t n)
{
	size_t i;

	for (i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
	free(empty);
}

int an_file_crc(const char *path, uint64_t *size, uint32_t *crc, struct xp_err *err)
{
	unsigned char buf[1 << 16];
	uint32_t c = 0;
	uint64_t n = 0;
	FILE *f;
	size_t k;

	*size = 0;
	*crc = 0;
	if (!strcmp(path, "-"))
		return 0;
	if (!(f = fopen(path, "rb")))
		return xp_err_set(err, XP_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
	while ((k = fread(buf, 1, sizeof(buf), f)) > 0) {
		c = libdeflate_crc32(c, buf, k);	/* zlib's crc32, several times faster */
		n += k;
	}
	k = (size_t)ferror(f);
	fclose(f);
	if (k)
		return xp_err_set(err, XP_ERR_IO, "cannot read '%s'", path);
	*size = n;
	*crc = c;
	return 0;
}

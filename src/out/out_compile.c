/* SPDX-License-Identifier: Apache-2.0 */
#include "out_compile.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "out_json.h"

static size_t shown_fns(const struct an_comp_result *r, const struct out_comp_opts *o)
{
	return o->top && o->top < r->nfns ? o->top : r->nfns;
}

/* Whether some function of an input has rows for several programs (the text then shows them). */
static int several_programs(const struct an_comp_result *r, size_t n)
{
	size_t nfns, i, *g = an_comp_fn_groups(r, &nfns), *rows = g ? calloc(nfns + 1, sizeof(*rows)) : NULL;
	int several = !rows;	/* out of memory: the column, which is never wrong */

	for (i = 0; rows && i < r->nfns; i++)
		rows[g[i]]++;
	for (i = 0; rows && i < n && !several; i++)
		several = rows[g[i]] > 1;
	free(g);
	free(rows);
	return several;
}

/* A row's program as a cell: its id, else `unknown` (text) or empty (CSV/TSV). */
static void add_program_cell(struct out_table *t, int machine, int has, uint64_t program)
{
	if (has)
		out_table_add(t, "%" PRIu64, program);
	else
		out_table_add(t, "%s", machine ? "" : "unknown");
}

static void add_event_json(cJSON *a, const struct an_comp_event *e)
{
	cJSON *o = out_json_push_object(a);

	if (!o)
		return;
	cJSON_AddStringToObject(o, "name", e->name);
	cJSON_AddStringToObject(o, "phase", an_comp_phase_name(e->phase));
	if (e->fn) {
		cJSON_AddNumberToObject(o, "call", (double)(e->call + 1));
		cJSON_AddStringToObject(o, "where", e->inside ? "inside" : "beside");
	} else {
		cJSON_AddNullToObject(o, "call");
		cJSON_AddStringToObject(o, "where", "unattributed");
	}
	out_json_add_ns(o, "start_ns", (double)e->start_ps);
	out_json_add_ns(o, "duration_ns", (double)e->dur_ps);
	cJSON_AddBoolToObject(o, "nested_in_same_phase", e->nested);
	cJSON_AddNumberToObject(o, "inner_events", (double)e->inner);
	out_json_add_ns(o, "inner_ns", (double)e->inner_ps);
}

static int print_json(FILE *f, const struct an_comp_result *r, const struct out_comp_opts *oo,
		      const struct xp_notes *notes)
{
	cJSON *doc = out_json_command_doc("compile"), *rows, *tot, *a, *o;
	size_t i, j, n = shown_fns(r, oo);

	if (!doc)
		return -1;
	if ((tot = cJSON_AddObjectToObject(doc, "totals"))) {
		cJSON_AddNumberToObject(tot, "call_events", (double)r->call_events);
		cJSON_AddNumberToObject(tot, "calls", (double)r->calls);
		cJSON_AddNumberToObject(tot, "calls_with_program", (double)r->calls_program);
		cJSON_AddNumberToObject(tot, "calls_ambiguous", (double)r->calls_ambiguous);
		cJSON_AddNumberToObject(tot, "calls_unsearched", (double)r->calls_unsearched);
		cJSON_AddNumberToObject(tot, "compiler_events", (double)r->compiler_events);
		out_json_add_ns(tot, "trace_ns", (double)r->phase_ps[AN_COMP_TRACE]);
		out_json_add_ns(tot, "lower_ns", (double)r->phase_ps[AN_COMP_LOWER]);
		out_json_add_ns(tot, "compile_ns", (double)r->phase_ps[AN_COMP_COMPILE]);
		out_json_add_ns(tot, "compiler_ns", (double)r->total_ps);
		out_json_add_ns(tot, "host_span_ns", (double)r->host_span_ps);
		cJSON_AddNumberToObject(tot, "unattributed_events", (double)r->unattributed);
		out_json_add_ns(tot, "unattributed_ns", (double)r->unattributed_ps);
	}
	rows = cJSON_AddArrayToObject(doc, "functions");
	for (i = 0; i < n && (o = out_json_push_object(rows)); i++) {
		const struct an_comp_fn *fn = &r->fns[i];

		cJSON_AddStringToObject(o, "input", fn->input);
		cJSON_AddStringToObject(o, "name", fn->name);
		out_json_add_id(o, "program_id", fn->has_program, fn->program_id);
		cJSON_AddNumberToObject(o, "calls", (double)fn->calls);
		out_json_add_ns(o, "first_call_ns", (double)fn->first_ps);
		out_json_add_ns(o, "first_call_start_ns", (double)fn->first_start_ps);
		if (fn->has_later) {
			out_json_add_ns(o, "later_median_ns", fn->later_median_ps);
			out_json_add_ns(o, "overhead_ns", (double)fn->first_ps - fn->later_median_ps);
		} else {
			cJSON_AddNullToObject(o, "later_median_ns");
			cJSON_AddNullToObject(o, "overhead_ns");
		}
		out_json_add_ns(o, "trace_ns", (double)fn->phase_ps[AN_COMP_TRACE]);
		out_json_add_ns(o, "lower_ns", (double)fn->phase_ps[AN_COMP_LOWER]);
		out_json_add_ns(o, "compile_ns", (double)fn->phase_ps[AN_COMP_COMPILE]);
		cJSON_AddNumberToObject(o, "compiling_calls", (double)fn->compiling_calls);
		if ((a = cJSON_AddArrayToObject(o, "compiler_events")))
			for (j = 0; j < fn->nevents; j++)
				add_event_json(a, &r->events[fn->first_event + j]);
	}
	if ((a = cJSON_AddArrayToObject(doc, "unattributed_events")))
		for (i = 0; i < r->nevents; i++)
			if (!r->events[i].fn)
				add_event_json(a, &r->events[i]);
	out_json_add_notes(doc, notes);
	return out_json_print(doc, f);
}

static int print_fns(FILE *f, enum out_mode mode, const struct an_comp_result *r, const struct out_comp_opts *o,
		     const struct out_style *st)
{
	/* program_id last in CSV/TSV, so that the others keep their places */
	static const char *const hm[] = {"input", "function", "calls", "first_call_ns", "later_median_ns",
					 "overhead_ns", "trace_ns", "lower_ns", "compile_ns", "compiling_calls",
					 "program_id"};
	static const unsigned char right[] = {0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1};
	static const unsigned char rt[] = {0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1};
	int machine = mode != OUT_TABLE;
	char h[6][32];
	const char *ht[] = {"INPUT", "FUNCTION", "PROGRAM", "CALLS", h[0], h[1], h[2], h[3], h[4], h[5], "COMPILED"};
	const char *htp[11];
	unsigned char rtp[11];
	struct out_tcol c[6];
	size_t i, k, n = shown_fns(r, o), skip = st->several || machine ? 0 : 1, m = 0;
	/* the text table gains a PROGRAM column after FUNCTION when a function ran as several programs */
	int progcol = !machine && several_programs(r, n);
	struct out_table t;
	int ret;

	for (k = 0; k < 6; k++)
		out_tcol_init(&c[k], st->unit);
	for (i = 0; i < n; i++) {
		const struct an_comp_fn *fn = &r->fns[i];

		out_tcol_add(&c[0], (double)fn->first_ps);
		if (fn->has_later) {
			out_tcol_add(&c[1], fn->later_median_ps);
			out_tcol_add(&c[2], (double)fn->first_ps - fn->later_median_ps);
		}
		for (k = 0; k < AN_COMP_NPHASES; k++)
			out_tcol_add(&c[3 + k], (double)fn->phase_ps[k]);
	}
	out_tcols_share(c, 6);
	out_tcol_header(&c[0], h[0], sizeof(h[0]), "FIRST CALL");
	out_tcol_header(&c[1], h[1], sizeof(h[1]), "LATER MEDIAN");
	out_tcol_header(&c[2], h[2], sizeof(h[2]), "OVERHEAD");
	out_tcol_header(&c[3], h[3], sizeof(h[3]), "TRACE");
	out_tcol_header(&c[4], h[4], sizeof(h[4]), "LOWER");
	out_tcol_header(&c[5], h[5], sizeof(h[5]), "COMPILE");
	for (k = skip; k < 11; k++)
		if (k != 2 || progcol) {
			htp[m] = ht[k];
			rtp[m++] = rt[k];
		}
	if (machine)
		out_table_init(&t, 11, hm, right);
	else
		out_table_init(&t, m, htp, rtp);
	for (i = 0; i < n; i++) {
		const struct an_comp_fn *fn = &r->fns[i];

		if (!skip)
			out_table_add(&t, "%s", fn->input);
		out_table_add(&t, "%s", fn->name);
		if (progcol)
			add_program_cell(&t, 0, fn->has_program, fn->program_id);
		out_table_add(&t, "%zu", fn->calls);
		out_table_add_time_cell(&t, machine, &c[0], (double)fn->first_ps, 1);
		out_table_add_time_cell(&t, machine, &c[1], fn->later_median_ps, fn->has_later);
		out_table_add_time_cell(&t, machine, &c[2], (double)fn->first_ps - fn->later_median_ps,
					fn->has_later);
		for (k = 0; k < AN_COMP_NPHASES; k++)
			out_table_add_time_cell(&t, machine, &c[3 + k], (double)fn->phase_ps[k], 1);
		out_table_add(&t, "%zu", fn->compiling_calls);
		if (machine)
			add_program_cell(&t, 1, fn->has_program, fn->program_id);
	}
	ret = out_table_print(&t, f, mode, st);
	out_table_release(&t);
	return ret;
}

/* The events of the rows shown, then the unattributed ones. */
static int print_events(FILE *f, enum out_mode mode, const struct an_comp_result *r,
			const struct out_comp_opts *o, const struct out_style *st)
{
	static const char *const hm[] = {"input", "function", "call", "phase", "event", "start_ns",
					 "duration_ns", "nested_in_same_phase", "inner_events", "inner_ns", "where",
					 "program_id"};
	static const unsigned char right[] = {0, 0, 1, 0, 0, 1, 1, 1, 1, 1, 0, 1};
	int machine = mode != OUT_TABLE;
	char h[3][32];
	/* text: no NESTED column, the event is indented instead */
	const char *ht[] = {"INPUT", "FUNCTION", "PROGRAM", "CALL", "PHASE", "EVENT", h[0], h[1], "INNER", h[2],
			    "WHERE"};
	static const unsigned char rt[] = {0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 0};
	const char *htp[11];
	unsigned char rtp[11];
	size_t i, n = shown_fns(r, o), k, skip = st->several || machine ? 0 : 1, nc = 0;
	int progcol = !machine && several_programs(r, n);
	const struct an_comp_event **ev = malloc((r->nevents + 1) * sizeof(*ev));
	struct out_tcol c[3];
	struct out_table t;
	size_t m = 0;
	int ret;

	if (!ev)
		return -1;
	for (i = 0; i < n; i++)
		for (k = 0; k < r->fns[i].nevents; k++)
			ev[m++] = &r->events[r->fns[i].first_event + k];
	for (i = 0; i < r->nevents; i++)
		if (!r->events[i].fn)
			ev[m++] = &r->events[i];
	for (k = 0; k < 3; k++)
		out_tcol_init(&c[k], st->unit);
	for (i = 0; i < m; i++) {
		out_tcol_add(&c[0], (double)ev[i]->start_ps);
		out_tcol_add(&c[1], (double)ev[i]->dur_ps);
		out_tcol_add(&c[2], (double)ev[i]->inner_ps);
	}
	out_tcols_share(c + 1, 2);	/* durations one unit; START, a time on the clock, its own */
	out_tcol_header(&c[0], h[0], sizeof(h[0]), "START");
	out_tcol_header(&c[1], h[1], sizeof(h[1]), "DURATION");
	out_tcol_header(&c[2], h[2], sizeof(h[2]), "INNER TIME");
	for (k = skip; k < 11; k++)
		if (k != 2 || progcol) {
			htp[nc] = ht[k];
			rtp[nc++] = rt[k];
		}
	if (machine)
		out_table_init(&t, 12, hm, right);
	else
		out_table_init(&t, nc, htp, rtp);
	for (i = 0; i < m; i++) {
		const struct an_comp_event *e = ev[i];

		if (!skip)
			out_table_add(&t, "%s", e->input);
		out_table_add(&t, "%s", e->fn ? e->fn : machine ? "" : "-");
		if (progcol && e->fn)
			add_program_cell(&t, 0, e->has_program, e->program_id);
		else if (progcol)
			out_table_add(&t, "-");
		if (e->fn)
			out_table_add(&t, machine ? "%zu" : "#%zu", e->call + 1);
		else
			out_table_add(&t, "%s", machine ? "" : "-");
		out_table_add(&t, "%s", an_comp_phase_name(e->phase));
		out_table_add(&t, "%s%s", !machine && e->nested ? "  " : "", e->name);
		out_table_add_time_cell(&t, machine, &c[0], (double)e->start_ps, 1);
		out_table_add_time_cell(&t, machine, &c[1], (double)e->dur_ps, 1);
		if (machine)
			out_table_add(&t, "%d", e->nested);
		out_table_add(&t, "%zu", e->inner);
		out_table_add_time_cell(&t, machine, &c[2], (double)e->inner_ps, e->inner > 0 || machine);
		out_table_add(&t, "%s", !e->fn ? "unattributed" : e->inside ? "inside" : "beside");
		if (machine)
			add_program_cell(&t, 1, e->has_program, e->program_id);
	}
	ret = out_table_print(&t, f, mode, st);
	out_table_release(&t);
	free(ev);
	return ret;
}

int out_compile(FILE *f, enum out_mode mode, const struct an_comp_result *r, const struct out_comp_opts *o,
		const struct xp_notes *notes, const struct out_style *st)
{
	char b[5][48];
	int ret;

	if (mode == OUT_JSON)
		return print_json(f, r, o, notes);
	if (mode != OUT_TABLE)
		return o->events ? print_events(f, mode, r, o, st) : print_fns(f, mode, r, o, st);
	ret = r->nfns ? print_fns(f, mode, r, o, st) : 0;
	if (ret)
		return ret;
	out_fmt_time(b[0], sizeof(b[0]), (double)r->phase_ps[AN_COMP_TRACE], st->unit);
	out_fmt_time(b[1], sizeof(b[1]), (double)r->phase_ps[AN_COMP_LOWER], st->unit);
	out_fmt_time(b[2], sizeof(b[2]), (double)r->phase_ps[AN_COMP_COMPILE], st->unit);
	out_fmt_time(b[3], sizeof(b[3]), (double)r->total_ps, st->unit);
	out_fmt_time(b[4], sizeof(b[4]), (double)r->host_span_ps, st->unit);
	if (shown_fns(r, o) < r->nfns)
		fprintf(f, "%zu of %zu rows shown", shown_fns(r, o), r->nfns);
	else
		fprintf(f, "%zu row%s", r->nfns, r->nfns == 1 ? "" : "s");
	fprintf(f, " (a row per function and program); in all %zu call%s (PjitFunction spans)", r->calls,
		r->calls == 1 ? "" : "s");
	if (r->compiler_events) {
		fprintf(f, " and %zu compiler event%s: trace %s, lower %s, compile %s, together %s", r->compiler_events,
			r->compiler_events == 1 ? "" : "s", b[0], b[1], b[2], b[3]);
		if (r->host_span_ps > 0)
			fprintf(f, " (%.1f%% of the host plane's %s)",
				100.0 * (double)r->total_ps / (double)r->host_span_ps, b[4]);
		if (r->unattributed)
			fprintf(f, "; %zu in no call", r->unattributed);
		fputc('\n', f);
	} else {
		fprintf(f, "; no compiler events: tracing, lowering and compiling happened before the profile "
			"or came from a cache, and OVERHEAD (the first call minus the median of the later ones) "
			"estimates that work\n");
	}
	if (!r->nevents)
		return 0;
	fputc('\n', f);
	return print_events(f, mode, r, o, st);
}

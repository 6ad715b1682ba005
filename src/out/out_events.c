/* SPDX-License-Identifier: Apache-2.0 */
#include "out_events.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "out_json.h"
#include "xp_sat.h"

static int print_json(FILE *f, const struct an_ev_result *r, const struct xp_notes *notes)
{
	cJSON *doc = out_json_command_doc("events"), *rows, *o;
	size_t i;

	if (!doc)
		return -1;
	cJSON_AddNumberToObject(doc, "events", (double)r->events);
	cJSON_AddNumberToObject(doc, "stray_end_events", (double)r->stray);
	cJSON_AddNumberToObject(doc, "aggregated_occurrences", (double)r->aggregated);
	rows = cJSON_AddArrayToObject(doc, "names");
	for (i = 0; i < r->n && (o = out_json_push_object(rows)); i++) {
		const struct an_ev_row *w = &r->rows[i];

		cJSON_AddStringToObject(o, "plane", w->plane);
		cJSON_AddStringToObject(o, "line", w->line);
		cJSON_AddStringToObject(o, "name", w->name);
		cJSON_AddNumberToObject(o, "count", (double)w->count);
		out_json_add_ns(o, "total_ns", (double)w->total_ps);
		if (w->count > w->stray) {
			out_json_add_ns(o, "mean_ns", (double)w->total_ps / (double)(w->count - w->stray));
			if (w->min_unknown)
				cJSON_AddNullToObject(o, "min_ns");
			else
				out_json_add_ns(o, "min_ns", (double)w->min_ps);
			if (w->max_unknown)
				cJSON_AddNullToObject(o, "max_ns");
			else
				out_json_add_ns(o, "max_ns", (double)w->max_ps);
		} else {
			cJSON_AddNullToObject(o, "mean_ns");
			cJSON_AddNullToObject(o, "min_ns");
			cJSON_AddNullToObject(o, "max_ns");
		}
		cJSON_AddNumberToObject(o, "stray_end_events", (double)w->stray);
		cJSON_AddNumberToObject(o, "aggregated_occurrences", (double)w->aggregated);
	}
	out_json_add_notes(doc, notes);
	return out_json_print(doc, f);
}

int out_events(FILE *f, enum out_mode mode, const struct an_ev_result *r, const struct xp_notes *notes,
	       const struct out_style *st)
{
	static const char *const hm[] = {"plane", "line", "name", "count", "total_ns", "mean_ns",
					 "min_ns", "max_ns", "stray_end_events", "aggregated_occurrences"};
	static const unsigned char right[] = {0, 0, 0, 1, 1, 1, 1, 1, 1, 1};
	static const char *const tname[] = {"TOTAL", "MEAN", "MIN", "MAX"};
	int machine = mode == OUT_CSV || mode == OUT_TSV;
	char hdr[4][32];
	const char *ht[] = {"PLANE", "LINE", "NAME", "COUNT", hdr[0], hdr[1], hdr[2], hdr[3], "STRAY",
			    "AGGREGATED"};
	const char *ht_agg[] = {"PLANE", "LINE", "NAME", "COUNT", hdr[0], hdr[1], hdr[2], hdr[3], "AGGREGATED"};
	struct out_tcol col;	/* every time column in one unit */
	struct out_table t;
	size_t i, j;
	int ret, any_stray = r->stray > 0, any_agg = r->aggregated > 0;
	size_t cut = 0;

	if (mode == OUT_JSON)
		return print_json(f, r, notes);
	out_tcol_init(&col, st->unit);
	for (i = 0; i < r->n; i++) {
		out_tcol_add(&col, (double)r->rows[i].total_ps);
		out_tcol_add(&col, (double)r->rows[i].min_ps);
	}
	out_tcol_headers(&col, hdr[0], sizeof(hdr[0]), tname, 4);
	if (machine)
		out_table_init(&t, 10, hm, NULL);
	else
		out_table_init(&t, 8 + any_stray + any_agg, any_stray || !any_agg ? ht : ht_agg, right);
	for (i = 0; i < r->n; i++) {
		const struct an_ev_row *w = &r->rows[i];
		size_t used = w->count - w->stray;
		int first = !i || r->rows[i - 1].order != w->order;
		const double v[] = {(double)w->total_ps, used ? (double)w->total_ps / (double)used : 0,
				    (double)w->min_ps, (double)w->max_ps};

		/* the table names a plane and line once, on their first row */
		out_table_add(&t, "%s", machine || first ? w->plane : "");
		out_table_add(&t, "%s", machine || first ? w->line : "");
		if (!machine && strlen(w->name) > OUT_EVENTS_NAME_MAX) {
			size_t k = OUT_EVENTS_NAME_MAX - 3;

			/* cut at a character boundary */
			while (k && ((unsigned char)w->name[k] & 0xc0) == 0x80)
				k--;
			out_table_add(&t, "%.*s...", (int)k, w->name);
			cut++;
		} else {
			out_table_add(&t, "%s", w->name);
		}
		out_table_add(&t, "%zu", w->count);
		/* only stray ends: a total of nothing, no mean, min or max */
		for (j = 0; j < 4; j++)
			out_table_add_time_cell(&t, machine, &col, v[j],
						!j || (used && !(j == 2 && w->min_unknown) && !(j == 3 && w->max_unknown)));
		if (machine || any_stray)
			out_table_add(&t, "%zu", w->stray);
		if (machine || any_agg)
			out_table_add(&t, "%zu", w->aggregated);
	}
	ret = out_table_print(&t, f, mode, st);
	out_table_release(&t);
	if (!ret && !machine) {
		char tot[48];
		int64_t sum = 0;

		for (i = 0; i < r->n; i++)
			sum = xp_sat_add(sum, r->rows[i].total_ps);
		out_fmt_time(tot, sizeof(tot), (double)sum, st->unit);
		fprintf(f, "%zu event%s of %zu name%s on %zu plane%s; total %s (nested events count in full)%s",
			r->events, r->events == 1 ? "" : "s", r->n, r->n == 1 ? "" : "s", r->planes,
			r->planes == 1 ? "" : "s", tot,
			r->stray ? "; stray ends left out of the times" : "");
		if (r->aggregated)
			fprintf(f, "; %zu of the events are occurrences that aggregated events stand for (a count "
				"and a total each: their longest, and their shortest where not written, unknown)",
				r->aggregated);
		if (cut)
			fprintf(f, "; %zu name%s longer than %d bytes cut to fit (--csv, --tsv and --json give "
				"them whole)", cut, cut == 1 ? "" : "s", OUT_EVENTS_NAME_MAX);
		fputc('\n', f);
	}
	return ret;
}

/* ---- --counters -------------------------------------------------------------------- */

/* A finite value, else null. */
static void json_value(cJSON *o, const char *name, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, name, v);
	else
		cJSON_AddNullToObject(o, name);
}

static int counters_json(FILE *f, const struct an_ctr_result *r, const struct xp_notes *notes)
{
	cJSON *doc = out_json_command_doc("events"), *rows, *o;
	size_t i;

	if (!doc)
		return -1;
	cJSON_AddStringToObject(doc, "view", "counters");
	cJSON_AddNumberToObject(doc, "samples", (double)r->samples);
	cJSON_AddNumberToObject(doc, "samples_without_value", (double)r->no_value);
	rows = cJSON_AddArrayToObject(doc, "counters");
	for (i = 0; i < r->n && (o = out_json_push_object(rows)); i++) {
		const struct an_ctr_row *w = &r->rows[i];

		cJSON_AddStringToObject(o, "plane", w->plane);
		cJSON_AddStringToObject(o, "counter", w->name);
		cJSON_AddNumberToObject(o, "samples", (double)w->samples);
		cJSON_AddNumberToObject(o, "samples_without_value", (double)w->no_value);
		json_value(o, "min", w->samples ? w->min : NAN);
		json_value(o, "mean", an_ctr_mean(w));
		json_value(o, "max", w->samples ? w->max : NAN);
		json_value(o, "time_weighted_mean", an_ctr_time_mean(w));
		out_json_add_ns(o, "span_ns", (double)w->held_ps);
	}
	out_json_add_notes(doc, notes);
	return out_json_print(doc, f);
}

/* A value as the table shows it (6 significant digits; CSV and TSV: exact, 17), or its absence. */
static void add_value(struct out_table *t, int machine, double v)
{
	if (!isfinite(v))
		out_table_add(t, "%s", machine ? "" : "-");
	else
		out_table_add(t, machine ? "%.17g" : "%.6g", v);
}

int out_counters(FILE *f, enum out_mode mode, const struct an_ctr_result *r, const struct xp_notes *notes,
		 const struct out_style *st)
{
	static const char *const hm[] = {"plane", "counter", "samples", "min", "mean", "max",
					 "time_weighted_mean", "span_ns", "samples_without_value"};
	static const unsigned char right[] = {0, 0, 1, 1, 1, 1, 1, 1, 1};
	int machine = mode == OUT_CSV || mode == OUT_TSV, any_none = r->no_value > 0, ret;
	char span_h[32];
	const char *ht[] = {"PLANE", "COUNTER", "SAMPLES", "MIN", "MEAN", "MAX", "TIME-WEIGHTED MEAN", span_h,
			    "NO VALUE"};
	struct out_tcol col;
	struct out_table t;
	size_t i;

	if (mode == OUT_JSON)
		return counters_json(f, r, notes);
	out_tcol_init(&col, st->unit);
	for (i = 0; i < r->n; i++)
		out_tcol_add(&col, (double)r->rows[i].held_ps);
	out_tcol_header(&col, span_h, sizeof(span_h), "SPAN");
	if (machine)
		out_table_init(&t, 9, hm, NULL);
	else
		out_table_init(&t, 8 + any_none, ht, right);
	for (i = 0; i < r->n; i++) {
		const struct an_ctr_row *w = &r->rows[i];
		int first = !i || r->rows[i - 1].order != w->order;

		out_table_add(&t, "%s", machine || first ? w->plane : "");
		out_table_add(&t, "%s", w->name);
		out_table_add(&t, "%zu", w->samples);
		add_value(&t, machine, w->samples ? w->min : NAN);
		add_value(&t, machine, an_ctr_mean(w));
		add_value(&t, machine, w->samples ? w->max : NAN);
		add_value(&t, machine, an_ctr_time_mean(w));
		out_table_add_time_cell(&t, machine, &col, (double)w->held_ps, w->held_ps > 0);
		if (machine || any_none)
			out_table_add(&t, "%zu", w->no_value);
	}
	ret = out_table_print(&t, f, mode, st);
	out_table_release(&t);
	if (!ret && !machine) {
		fprintf(f, "%zu sample%s of %zu counter%s; time-weighted mean: each value held until the counter's "
			"next sample, over SPAN (first to last sample)", r->samples, r->samples == 1 ? "" : "s",
			r->n, r->n == 1 ? "" : "s");
		if (r->no_value)
			fprintf(f, "; %zu sample%s without a value left out", r->no_value, r->no_value == 1 ? "" : "s");
		fputc('\n', f);
	}
	return ret;
}

/* ---- --list ------------------------------------------------------------------------ */

/* ps (a 128-bit count) as nanoseconds with three decimals, exact. */
static void fmt_ps128(char *buf, size_t n, __int128 ps)
{
	char digits[48];
	unsigned __int128 u = ps < 0 ? (unsigned __int128)(-(ps + 1)) + 1 : (unsigned __int128)ps;
	unsigned frac = (unsigned)(u % 1000);
	size_t k = sizeof(digits) - 1;

	u /= 1000;
	digits[k] = '\0';
	do {
		digits[--k] = (char)('0' + (unsigned)(u % 10));
		u /= 10;
	} while (u);
	snprintf(buf, n, "%s%s.%03u", ps < 0 ? "-" : "", digits + k, frac);
}

void out_events_list_header(FILE *f, enum out_mode mode)
{
	if (mode == OUT_JSON)
		return;
	fputs(mode == OUT_CSV ? "input,plane,line,name,start_ns,duration_ns,stats\n"
			      : "input\tplane\tline\tname\tstart_ns\tduration_ns\tstats\n", f);
}

static int has_stat(const struct xp_plane *p, const struct xp_stat *v, size_t n, int64_t meta_id)
{
	size_t i;

	(void)p;
	for (i = 0; i < n; i++)
		if (v[i].meta_id == meta_id)
			return 1;
	return 0;
}

static void add_stat(cJSON *o, const struct xp_plane *p, const struct xp_stat *s)
{
	const char *name = xp_stat_name(p, s);
	char buf[64];

	if (cJSON_GetObjectItemCaseSensitive(o, name))
		return;		/* a name given twice: the first one */
	switch (s->type) {
	case XP_STAT_UINT64:
		out_json_add_id(o, name, 1, s->v.u);
		break;
	case XP_STAT_INT64:
		snprintf(buf, sizeof(buf), "%" PRId64, s->v.i);
		cJSON_AddRawToObject(o, name, buf);
		break;
	case XP_STAT_DOUBLE:
		if (s->v.d == s->v.d && s->v.d - s->v.d == 0)
			cJSON_AddNumberToObject(o, name, s->v.d);
		else
			cJSON_AddNullToObject(o, name);	/* JSON has no inf or nan */
		break;
	case XP_STAT_NONE:
		cJSON_AddNullToObject(o, name);
		break;
	default: {
		size_t len;
		const char *str = xp_stat_str(p, s, &len);
		char *c = str ? strndup(str, len) : NULL;

		out_json_add_str_or_null(o, name, c);
		free(c);
	}
	}
}

int out_events_list_event(FILE *f, enum out_mode mode, const char *input, const struct xp_plane *p,
			  const struct xp_event *e)
{
	const struct xp_evmeta *m = &p->evmetas[e->meta];
	const struct xp_stat *own = p->stats + e->stats_first;
	const struct xp_line *ln = &p->lines[e->line];
	cJSON *stats = cJSON_CreateObject();
	char start[64], dur[64], *st;
	size_t i;
	int ret = -1;

	if (!stats)
		return -1;
	for (i = 0; i < e->nstats; i++)
		add_stat(stats, p, &own[i]);
	for (i = 0; i < m->nstats; i++)
		if (!has_stat(p, own, e->nstats, p->stats[m->stats_first + i].meta_id))
			add_stat(stats, p, &p->stats[m->stats_first + i]);
	fmt_ps128(start, sizeof(start), (__int128)p->base_ns * 1000 + e->start_ps);
	fmt_ps128(dur, sizeof(dur), (__int128)e->dur_ps);
	if (mode == OUT_JSON) {
		cJSON *doc = out_json_doc();

		if (!doc)
			goto out;
		cJSON_AddStringToObject(doc, "input", input);
		cJSON_AddStringToObject(doc, "plane", p->name);
		cJSON_AddStringToObject(doc, "line", ln->name);
		cJSON_AddStringToObject(doc, "name", m->name);
		cJSON_AddRawToObject(doc, "start_ns", start);
		cJSON_AddRawToObject(doc, "duration_ns", dur);
		cJSON_AddItemToObject(doc, "stats", stats);
		stats = NULL;
		ret = out_json_print_line(doc, f);
		goto out;
	}
	if (!(st = cJSON_PrintUnformatted(stats)))
		goto out;
	{
		const char *cells[] = {input, p->name, ln->name, m->name, start, dur, st};

		for (i = 0; i < 7; i++) {
			if (i)
				fputc(mode == OUT_CSV ? ',' : '\t', f);
			if (mode == OUT_CSV)
				out_put_csv(f, cells[i]);
			else
				out_put_tsv(f, cells[i]);
		}
		fputc('\n', f);
	}
	cJSON_free(st);
	ret = 0;
out:
	cJSON_Delete(stats);
	return ret;
}

struct list_ctx {
	FILE *f;
	enum out_mode mode;
	const char *input;
	size_t *listed;
};

static int list_one(void *ctx, const struct xp_plane *p, const struct xp_event *e)
{
	struct list_ctx *c = ctx;

	++*c->listed;
	return out_events_list_event(c->f, c->mode, c->input, p, e);
}

int out_events_list_trace(FILE *f, enum out_mode mode, const char *input, const struct xp_trace *t,
			  const struct an_ev_opts *o, size_t *listed)
{
	struct list_ctx c = {f, mode, input, listed};

	return an_ev_each(o, t, list_one, &c) ? -1 : 0;
}

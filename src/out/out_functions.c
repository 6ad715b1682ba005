/* SPDX-License-Identifier: Apache-2.0 */
#include "out_functions.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "out_json.h"

#define PLURAL(n) ((n) == 1 ? "" : "s")

static const char *time_name(enum an_time t)
{
	return t == AN_TIME_SPAN ? "span" : t == AN_TIME_CHILDREN ? "children" : "busy";
}

/* The result's fields into doc. */
static void add_result(cJSON *doc, const struct an_fn_result *r)
{
	cJSON *rows, *o;
	size_t i;

	cJSON_AddStringToObject(doc, "command", "functions");
	cJSON_AddStringToObject(doc, "time", time_name(r->opts.time));
	cJSON_AddNumberToObject(doc, "trim", (double)r->opts.trim);
	cJSON_AddNumberToObject(doc, "inputs", (double)r->inputs);
	cJSON_AddNumberToObject(doc, "devices", (double)r->devices);
	cJSON_AddNumberToObject(doc, "executions", (double)r->executions);
	cJSON_AddNumberToObject(doc, "functions_count", (double)r->functions);
	out_json_add_ns(doc, "device_busy_ns", (double)r->device_busy_ps);
	cJSON_AddNumberToObject(doc, "device_events", (double)r->device_events);
	cJSON_AddNumberToObject(doc, "dropped_short_events", (double)r->dropped_short);
	cJSON_AddNumberToObject(doc, "unattributed_events", (double)r->unattributed_events);
	out_json_add_ns(doc, "unattributed_busy_ns", (double)r->unattributed_busy_ps);
	cJSON_AddNumberToObject(doc, "runs_rule_executions", (double)r->runs_execs);
	cJSON_AddNumberToObject(doc, "runs_rule_split", (double)r->runs_split);
	cJSON_AddNumberToObject(doc, "runs_rule_repeating", (double)r->runs_repeating);
	cJSON_AddNumberToObject(doc, "stray_end_events", (double)r->stray_events);
	if (r->opts.time == AN_TIME_CHILDREN)
		cJSON_AddNumberToObject(doc, "stray_end_children", (double)r->stray_children);
	rows = cJSON_AddArrayToObject(doc, "functions");
	for (i = 0; i < r->nrows && (o = out_json_push_object(rows)); i++) {
		const struct an_fn_row *row = &r->rows[i];

		cJSON_AddStringToObject(o, "name", row->name);
		out_json_add_id(o, "program_id", row->has_program_id, row->program_id);
		out_json_add_str_or_null(o, "fingerprint", row->fingerprint);
		if (row->device)
			cJSON_AddStringToObject(o, "device", row->device);
		cJSON_AddNumberToObject(o, "devices", (double)row->ndevices);
		cJSON_AddNumberToObject(o, "executions", (double)row->s.n);
		cJSON_AddNumberToObject(o, "executions_used", (double)row->s.n_used);
		cJSON_AddNumberToObject(o, "events", (double)row->events);
		out_json_add_ns(o, "total_ns", row->s.total);
		cJSON_AddNumberToObject(o, "mean_ns", row->s.mean / 1000.0);
		cJSON_AddNumberToObject(o, "std_ns", row->s.std / 1000.0);
		out_json_add_ns(o, "min_ns", row->s.min);
		cJSON_AddNumberToObject(o, "median_ns", row->s.median / 1000.0);
		out_json_add_ns(o, "max_ns", row->s.max);
		cJSON_AddNumberToObject(o, "share", row->share);
	}
}

static int print_json(FILE *f, const struct an_fn_result *r, const struct xp_notes *notes)
{
	cJSON *doc = out_json_doc();

	if (!doc)
		return -1;
	add_result(doc, r);
	out_json_add_notes(doc, notes);
	return out_json_print(doc, f);
}

int out_functions_line(FILE *f, const char *input, const struct an_fn_result *r,
		       const struct xp_notes *notes, const char *error, int exit_code)
{
	cJSON *doc = out_json_doc();

	if (!doc)
		return -1;
	cJSON_AddStringToObject(doc, "input", input);
	if (error) {
		cJSON_AddStringToObject(doc, "command", "functions");
		cJSON_AddStringToObject(doc, "error", error);
		cJSON_AddNumberToObject(doc, "exit_code", exit_code);
	} else {
		add_result(doc, r);
		out_json_add_notes(doc, notes);
	}
	return out_json_print_line(doc, f);
}

/*
 * Program ids of more than PROGRAM_WIDTH digits (TPU fingerprints have 20)
 * show their first digits and an ellipsis in the text table, so rows stay
 * within a terminal; JSON, CSV and TSV have them whole.
 */
#define PROGRAM_WIDTH 10
#define PROGRAM_PREFIX 7

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Digits a long id keeps: PROGRAM_PREFIX, more while two different ids of r would look alike. */
static size_t program_prefix(const struct an_fn_result *r)
{
	size_t keep = PROGRAM_PREFIX, n = 0, i, k;
	char (*ids)[24] = malloc(r->nrows * sizeof(*ids) + 1);
	char **p = malloc(r->nrows * sizeof(*p) + 1);

	if (!ids || !p) {
		keep = PROGRAM_WIDTH + 10;	/* out of memory: whole ids */
		goto out;
	}
	for (i = 0; i < r->nrows; i++) {
		if (!r->rows[i].has_program_id)
			continue;
		snprintf(ids[n], sizeof(ids[n]), "%" PRIu64, r->rows[i].program_id);
		if (strlen(ids[n]) > PROGRAM_WIDTH) {
			p[n] = ids[n];
			n++;
		}
	}
	qsort(p, n, sizeof(*p), cmp_str);
	for (i = 1; i < n; i++) {
		for (k = 0; p[i][k] && p[i][k] == p[i - 1][k]; k++)
			;
		if (p[i][k] != p[i - 1][k] && k + 1 > keep)
			keep = k + 1;
	}
out:
	free(ids);
	free(p);
	return keep;
}

static void fmt_program(char *buf, size_t n, const struct an_fn_row *row, size_t keep)
{
	int len;

	if (!row->has_program_id) {
		snprintf(buf, n, "-");
		return;
	}
	len = snprintf(buf, n, "%" PRIu64, row->program_id);
	if (len > PROGRAM_WIDTH && (size_t)len > keep + 1 && n > keep + 3)
		memcpy(buf + keep, "\u2026", sizeof("\u2026"));
}

/* A row's times in the order of its columns: total, mean, std, min, median, max. */
static void summary_times(const struct an_summary *s, double v[6])
{
	v[0] = s->total;
	v[1] = s->mean;
	v[2] = s->std;
	v[3] = s->min;
	v[4] = s->median;
	v[5] = s->max;
}

static int print_machine(FILE *f, enum out_mode mode, const struct an_fn_result *r)
{
	static const char *const h[] = {"function", "program_id", "fingerprint", "device", "devices",
					"executions", "events", "total_ns", "mean_ns", "std_ns",
					"min_ns", "median_ns", "max_ns", "share"};
	struct out_table t;
	size_t i, k;
	int ret;

	out_table_init(&t, sizeof(h) / sizeof(h[0]), h, NULL);
	for (i = 0; i < r->nrows; i++) {
		const struct an_fn_row *row = &r->rows[i];
		char prog[24];
		double v[6];

		if (row->has_program_id)
			snprintf(prog, sizeof(prog), "%" PRIu64, row->program_id);
		else
			prog[0] = '\0';
		out_table_add(&t, "%s", row->name);
		out_table_add(&t, "%s", prog);
		out_table_add(&t, "%s", row->fingerprint ? row->fingerprint : "");
		out_table_add(&t, "%s", row->device ? row->device : "");
		out_table_add(&t, "%zu", row->ndevices);
		out_table_add(&t, "%zu", row->s.n);
		out_table_add(&t, "%zu", row->events);
		summary_times(&row->s, v);
		for (k = 0; k < 6; k++)
			out_table_add(&t, "%.3f", v[k] / 1000.0);
		out_table_add(&t, "%.6f", row->share);
	}
	ret = out_table_print(&t, f, mode, NULL);
	out_table_release(&t);
	return ret;
}

static int print_table(FILE *f, const struct an_fn_result *r, const struct out_style *st)
{
	/* The DEVICE column only when rows are per device; pooled rows show DEVS. */
	static const char *const tname[] = {"TOTAL", "MEAN", "STD", "MIN", "MEDIAN", "MAX"};
	static const unsigned char rd[] = {0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1};
	static const unsigned char rp[] = {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
	int per_device = r->opts.per_device;
	char th[6][32];
	const char *h[11] = {"FUNCTION", "PROGRAM", per_device ? "DEVICE" : "DEVS", "EXECS",
			     th[0], th[1], th[2], th[3], th[4], th[5], "SHARE"};
	struct out_tcol col[6];
	struct out_table t;
	char b[2][48];
	double v[6];
	size_t i, k, keep, over;
	int ret;

	over = 0;
	keep = program_prefix(r);
	/* One unit for the table's time columns, from all their values, named in each header. */
	out_tcols_init(col, 6, st->unit);
	for (i = 0; i < r->nrows; i++) {
		summary_times(&r->rows[i].s, v);
		for (k = 0; k < 6; k++)
			out_tcol_add(&col[k], v[k]);
	}
	out_tcols_share(col, 6);
	out_tcols_headers(col, th[0], sizeof(th[0]), tname, 6);
	out_table_init(&t, 11, h, per_device ? rd : rp);
	for (i = 0; i < r->nrows; i++) {
		const struct an_fn_row *row = &r->rows[i];

		fmt_program(b[0], sizeof(b[0]), row, keep);
		out_table_add(&t, "%s", row->name);
		out_table_add(&t, "%s", b[0]);
		if (per_device)
			out_table_add(&t, "%s", row->device);
		else
			out_table_add(&t, "%zu", row->ndevices);
		out_table_add(&t, "%zu", row->s.n);
		summary_times(&row->s, v);
		for (k = 0; k < 6; k++)
			out_table_add_time(&t, &col[k], v[k]);
		/* --time span or --children: executions' times may hold idle gaps or overlap: capped, marked */
		if (row->share > 1) {
			out_table_add(&t, ">100%%");
			over++;
		} else {
			out_table_add(&t, "%.1f%%", row->share * 100);
		}
	}
	ret = out_table_print(&t, f, OUT_TABLE, st);
	out_table_release(&t);
	if (ret)
		return ret;
	out_fmt_time(b[0], sizeof(b[0]), (double)r->device_busy_ps, st->unit);
	out_fmt_time(b[1], sizeof(b[1]), (double)r->unattributed_busy_ps, st->unit);
	fprintf(f, "\n%zu execution%s of %zu function%s on %zu device%s in %zu input%s; device busy %s",
		r->executions, PLURAL(r->executions), r->functions, PLURAL(r->functions),
		r->devices, PLURAL(r->devices), r->inputs, PLURAL(r->inputs), b[0]);
	if (r->unattributed_events)
		fprintf(f, "; %zu device event%s (busy %s) belong%s to no function", r->unattributed_events,
			PLURAL(r->unattributed_events), b[1], r->unattributed_events == 1 ? "s" : "");
	if (r->runs_execs)
		fprintf(f, "; %zu execution%s formed by the runs rule (no host linkage)", r->runs_execs,
			PLURAL(r->runs_execs));
	if (r->runs_split)
		fprintf(f, ", %zu of them split where calls repeat", r->runs_split);
	if (r->runs_repeating)
		fprintf(f, "; %zu run%s repeat%s %s kernels but could not be split into calls",
			r->runs_repeating, PLURAL(r->runs_repeating), r->runs_repeating == 1 ? "s" : "",
			r->runs_repeating == 1 ? "its" : "their");
	if (r->stray_events)
		fprintf(f, "; %zu event%s with a stray end left out", r->stray_events, PLURAL(r->stray_events));
	if (r->stray_children)
		fprintf(f, "; %zu left out of --children", r->stray_children);
	if (r->dropped_short)
		fprintf(f, "; %zu device event%s shorter than --min-duration dropped", r->dropped_short,
			PLURAL(r->dropped_short));
	if (r->opts.trim)
		fprintf(f, "; mean and std drop the %zu fastest and slowest", r->opts.trim);
	fprintf(f, "\n");
	if (over)
		fprintf(f, "SHARE: a row's total over the devices' busy time; >100%%: %zu row%s whose executions' "
			"times pass it (a span holds idle gaps between its events; executions that overlap, on several "
			"streams, each count their own time; --json has the share itself)\n", over, PLURAL(over));
	return 0;
}

int out_functions(FILE *f, enum out_mode mode, const struct an_fn_result *r,
		  const struct xp_notes *notes, const struct out_style *st)
{
	switch (mode) {
	case OUT_JSON:
		return print_json(f, r, notes);
	case OUT_CSV:
	case OUT_TSV:
		return print_machine(f, mode, r);
	default:
		return print_table(f, r, st);
	}
}

/* SPDX-License-Identifier: Apache-2.0 */
#include "out_diff.h"

#include <math.h>
#include <string.h>

#include "out_json.h"

/* What the samples are: one run each side, its executions (a kernel's instances); else each run's mean. */
static const char *samples_what(const struct an_diff_result *r)
{
	if (!r->executions || r->opts.level == AN_DIFF_OPS)
		return "run means";
	return r->opts.level == AN_DIFF_KERNELS ? "instances" : "executions";
}

static void add_num_or_null(cJSON *o, const char *name, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, name, v);
	else
		cJSON_AddNullToObject(o, name);
}

static cJSON *side_json(const struct an_diff_side *s)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "n", (double)s->n);
	cJSON_AddNumberToObject(o, "runs", (double)s->runs);
	if (!s->n) {
		cJSON_AddNullToObject(o, "mean_ns");
		return o;
	}
	out_json_add_ns(o, "mean_ns", s->mean);
	out_json_add_ns(o, "median_ns", s->median);
	out_json_add_ns(o, "min_ns", s->min);
	out_json_add_ns(o, "max_ns", s->max);
	out_json_add_ns(o, "p95_ns", s->p95);
	out_json_add_ns(o, "std_ns", s->std);
	return o;
}

static int print_json(FILE *f, const struct an_diff_result *r, const struct xp_notes *notes, double gate,
		      double gate95)
{
	static const char *const level[] = {"functions", "autotune", "kernels", "ops"};
	cJSON *doc = out_json_doc(), *rows, *o, *g, *failed;
	size_t i;

	if (!doc)
		return -1;
	cJSON_AddStringToObject(doc, "level", level[r->opts.level]);
	cJSON_AddNumberToObject(doc, "alpha", r->opts.alpha);
	cJSON_AddStringToObject(doc, "correction", r->opts.holm ? "holm" : "none");
	cJSON_AddNumberToObject(doc, "rows_tested", (double)r->tested);
	cJSON_AddNumberToObject(doc, "min_effect_pct", r->opts.min_effect_pct);
	for (i = 0; i < 2; i++) {
		o = cJSON_AddObjectToObject(doc, i ? "current" : "base");
		if (!o)
			break;
		cJSON_AddNumberToObject(o, "runs", (double)r->runs[i]);
		cJSON_AddNumberToObject(o, "profiles", (double)(r->profiles[i] ? r->profiles[i] : r->runs[i]));
		cJSON_AddStringToObject(o, "samples", samples_what(r));
	}
	rows = cJSON_AddArrayToObject(doc, "rows");
	for (i = 0; rows && i < r->nrows; i++) {
		const struct an_diff_row *row = &r->rows[i];
		cJSON *ci;

		if (!(o = out_json_push_object(rows)))
			break;
		cJSON_AddStringToObject(o, "key", row->key);
		/* the key's parts, so that a script need not parse "name(program)" */
		cJSON_AddStringToObject(o, "name", row->name ? row->name : row->key);
		out_json_add_id(o, "program_id", row->has_program_id, row->program_id);
		cJSON_AddStringToObject(o, "level", level[r->opts.level]);
		cJSON_AddStringToObject(o, "verdict", an_verdict_name(row->verdict));
		if (row->approximate)
			cJSON_AddBoolToObject(o, "approximate", 1);
		add_num_or_null(o, "change", row->change);
		if (isfinite(row->ci_lo) && (ci = cJSON_AddArrayToObject(o, "change_ci95"))) {
			cJSON_AddItemToArray(ci, cJSON_CreateNumber(row->ci_lo));
			cJSON_AddItemToArray(ci, cJSON_CreateNumber(row->ci_hi));
		} else {
			cJSON_AddNullToObject(o, "change_ci95");
		}
		add_num_or_null(o, "p_value", row->p_u);
		if (isfinite(row->p_u))
			cJSON_AddBoolToObject(o, "p_exact", row->exact);
		else
			cJSON_AddNullToObject(o, "p_exact");
		add_num_or_null(o, "p_adjusted", row->p_adj);
		add_num_or_null(o, "p_welch", row->p_welch);
		add_num_or_null(o, "p95_change", row->p95_change);
		cJSON_AddItemToObject(o, "base", side_json(&row->base));
		cJSON_AddItemToObject(o, "current", side_json(&row->cur));
		cJSON_AddNumberToObject(o, "delta_ns", round(row->delta) / 1000.0);
	}
	if (gate >= 0 || gate95 >= 0) {
		g = cJSON_AddObjectToObject(doc, "gate");
		if (g) {
			add_num_or_null(g, "pct", gate >= 0 ? gate : NAN);
			add_num_or_null(g, "p95_pct", gate95 >= 0 ? gate95 : NAN);
			failed = cJSON_AddArrayToObject(g, "failed");
			for (i = 0; failed && i < r->nrows; i++)
				if (r->rows[i].gated)
					cJSON_AddItemToArray(failed, cJSON_CreateString(r->rows[i].key));
		}
	}
	out_json_add_notes(doc, notes);
	return out_json_print(doc, f);
}

/* "+10.2%" */
static void fmt_pct(char *b, size_t n, double ratio)
{
	if (!isfinite(ratio))
		snprintf(b, n, "-");
	else
		snprintf(b, n, "%+.1f%%", (ratio - 1) * 100);
}

static void fmt_p(char *b, size_t n, double p, int machine)
{
	if (!isfinite(p))
		snprintf(b, n, machine ? "" : "-");
	else
		snprintf(b, n, machine ? "%.6g" : "%.2g", p);
}

/*
 * A side's N, then its mean, median and min: nanoseconds for programs
 * (machine), col's units for people; absent without samples.
 */
static void side_cells(struct out_table *t, int machine, const struct an_diff_side *s,
		       const struct out_tcol *col)
{
	const double v[] = {s->mean, s->median, s->min};
	size_t j;

	out_table_add(t, "%zu", s->n);
	for (j = 0; j < 3; j++)
		out_table_add_time_cell(t, machine, &col[j], v[j], s->n != 0);
}

static int print_rows(FILE *f, enum out_mode mode, const struct an_diff_result *r,
		      const struct out_style *st)
{
	static const char *const hm[] = {
		"key", "verdict", "change", "change_ci95_low", "change_ci95_high", "p_value", "p_welch",
		"base_n", "base_mean_ns", "base_median_ns", "base_min_ns",
		"current_n", "current_mean_ns", "current_median_ns", "current_min_ns", "gate", "p_adjusted",
	};
	static const char *const tname[3] = {"MEAN", "MEDIAN", "MIN"};
	static const unsigned char right[] = {0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
	int machine = mode == OUT_CSV || mode == OUT_TSV;
	/* P (ADJ): the U test's p after the correction, the one the verdict reads */
	const char *ht[15] = {"KEY", "VERDICT", "CHANGE", "95% CI", "P (U)", "P (ADJ)", "P (WELCH)", "BASE N"};
	char th[6][40];
	struct out_tcol col[3];
	struct out_table t;
	size_t i, j, k;
	int ret;

	out_tcols_init(col, 3, st->unit);
	for (i = 0; i < r->nrows; i++) {
		const struct an_diff_side *s[2] = {&r->rows[i].base, &r->rows[i].cur};

		for (k = 0; k < 2; k++) {
			const double v[] = {s[k]->mean, s[k]->median, s[k]->min};

			if (!s[k]->n)
				continue;
			for (j = 0; j < 3; j++)
				out_tcol_add(&col[j], v[j]);
		}
	}
	out_tcols_share(col, 3);
	for (k = 0; k < 3; k++) {
		char h[16];

		snprintf(h, sizeof(h), "BASE %s", tname[k]);
		out_tcol_header(&col[k], th[k], sizeof(th[k]), h);
		snprintf(h, sizeof(h), "CUR %s", tname[k]);
		out_tcol_header(&col[k], th[3 + k], sizeof(th[3 + k]), h);
		ht[8 + k] = th[k];
		ht[12 + k] = th[3 + k];
	}
	ht[11] = "CUR N";
	if (machine)
		out_table_init(&t, sizeof(hm) / sizeof(hm[0]), hm, NULL);
	else
		out_table_init(&t, 15, ht, right);
	for (i = 0; i < r->nrows; i++) {
		const struct an_diff_row *row = &r->rows[i];
		const struct an_diff_side *s[2] = {&row->base, &row->cur};
		char b[64], c[64];

		out_table_add(&t, "%s", row->key);
		if (machine) {
			out_table_add(&t, "%s", an_verdict_name(row->verdict));
			for (k = 0; k < 3; k++) {
				double v = k == 0 ? row->change : k == 1 ? row->ci_lo : row->ci_hi;

				if (isfinite(v))
					out_table_add(&t, "%.6g", v);
				else
					out_table_add(&t, "%s", "");
			}
		} else {
			out_table_add(&t, "%s%s", an_verdict_name(row->verdict), row->gated ? " (gate)" : "");
			fmt_pct(b, sizeof(b), row->change);
			out_table_add(&t, "%s", b);
			if (isfinite(row->ci_lo)) {
				fmt_pct(b, sizeof(b), row->ci_lo);
				fmt_pct(c, sizeof(c), row->ci_hi);
				out_table_add(&t, "%s .. %s", b, c);
			} else {
				out_table_add(&t, "-");
			}
		}
		fmt_p(b, sizeof(b), row->p_u, machine);
		out_table_add(&t, "%s", b);
		if (!machine) {
			fmt_p(b, sizeof(b), row->p_adj, machine);
			out_table_add(&t, "%s", b);
		}
		fmt_p(b, sizeof(b), row->p_welch, machine);
		out_table_add(&t, "%s", b);
		for (k = 0; k < 2; k++)
			side_cells(&t, machine, s[k], col);
		if (machine) {
			out_table_add(&t, "%s", row->gated ? "fail" : "");
			fmt_p(b, sizeof(b), row->p_adj, machine);
			out_table_add(&t, "%s", b);
		}
		/* on a terminal, as history: slower rows red, faster green */
		if (row->verdict == AN_V_SLOWER)
			out_table_mark(&t, OUT_MARK_WORSE);
		else if (row->verdict == AN_V_FASTER)
			out_table_mark(&t, OUT_MARK_BETTER);
	}
	ret = out_table_print(&t, f, mode, st);
	out_table_release(&t);
	if (!ret && mode == OUT_TABLE) {
		char sides[2][64];

		for (k = 0; k < 2; k++)
			out_diff_runs(sides[k], sizeof(sides[k]), r, (int)k);
		if (fprintf(f, "\nsamples: %s; base %s, current %s; p from Mann-Whitney U, alpha %g\n",
			    samples_what(r), sides[0], sides[1], r->opts.alpha) < 0)
			ret = -1;
	}
	if (!ret && mode == OUT_TABLE && fprintf(f, "verdicts: slower or faster when the U test's p%s is below "
					   "alpha and the mean moved by %g%% or more\n",
					   r->opts.holm && r->tested > 1 ? ", Holm-corrected over the rows tested," : "",
					   r->opts.min_effect_pct) < 0)
		ret = -1;
	return ret;
}

void out_diff_runs(char *buf, size_t len, const struct an_diff_result *r, int side)
{
	size_t n = r->runs[side], p = r->profiles[side];

	if (p > n)
		snprintf(buf, len, "%zu run%s of %zu profiles", n, n == 1 ? "" : "s", p);
	else
		snprintf(buf, len, "%zu run%s", n, n == 1 ? "" : "s");
}

int out_diff(FILE *f, enum out_mode mode, const struct an_diff_result *r, const struct xp_notes *notes,
	     double gate_pct, double gate_p95_pct, const struct out_style *st)
{
	if (mode == OUT_JSON)
		return print_json(f, r, notes, gate_pct, gate_p95_pct);
	return print_rows(f, mode, r, st);
}

/* SPDX-License-Identifier: Apache-2.0 */
#include "out_history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "out_diff.h"
#include "out_json.h"

/* "abc1234+#2": commit, '+' for a dirty tree, run number. */
static void group_name(char *b, size_t n, const struct an_hist_group *g)
{
	snprintf(b, n, "%s%s#%llu", *g->commit ? g->commit : "(no commit)", g->dirty ? "+" : "",
		 (unsigned long long)g->run);
}

static const struct an_diff_row *diff_row(const struct an_hist_result *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->diff.nrows; i++)
		if (!strcmp(r->diff.rows[i].key, key))
			return &r->diff.rows[i];
	return NULL;
}

static const char *base_why(enum an_hist_base b)
{
	static const char *const why[] = {"none", "first run of the same commit", "first run of the previous commit",
					  "--baseline"};

	return why[b];
}

static int print_json(FILE *f, const struct an_hist_result *r, const struct xp_notes *notes)
{
	cJSON *doc = out_json_doc(), *a, *o, *m;
	size_t i, g;
	char name[128];

	if (!doc)
		return -1;
	a = cJSON_AddArrayToObject(doc, "groups");
	for (g = 0; a && g < r->ngroups; g++) {
		const struct an_hist_group *gr = &r->groups[g];

		if (!(o = out_json_push_object(a)))
			break;
		group_name(name, sizeof(name), gr);
		cJSON_AddStringToObject(o, "name", name);
		cJSON_AddStringToObject(o, "commit", gr->commit);
		cJSON_AddBoolToObject(o, "dirty", gr->dirty);
		cJSON_AddNumberToObject(o, "run", (double)gr->run);
		cJSON_AddNumberToObject(o, "time", (double)gr->time);
		cJSON_AddNumberToObject(o, "profiles", (double)gr->nprofiles);
		cJSON_AddNumberToObject(o, "runs", (double)gr->nruns);
	}
	cJSON_AddNumberToObject(doc, "latest", (double)r->latest);
	if (r->base_why == AN_HB_NONE)
		cJSON_AddNullToObject(doc, "baseline");
	else
		cJSON_AddNumberToObject(doc, "baseline", (double)r->baseline);
	cJSON_AddStringToObject(doc, "baseline_is", base_why(r->base_why));
	a = cJSON_AddArrayToObject(doc, "rows");
	for (i = 0; a && i < r->nrows; i++) {
		const struct an_diff_row *d = diff_row(r, r->rows[i].key);

		if (!(o = out_json_push_object(a)))
			break;
		cJSON_AddStringToObject(o, "key", r->rows[i].key);
		m = cJSON_AddArrayToObject(o, "means_ns");
		for (g = 0; m && g < r->ngroups; g++) {
			double v = r->rows[i].means[g];

			cJSON_AddItemToArray(m, isfinite(v) ? cJSON_CreateNumber(round(v) / 1000.0) : cJSON_CreateNull());
		}
		if (d) {
			cJSON_AddStringToObject(o, "verdict", an_verdict_name(d->verdict));
			if (isfinite(d->change))
				cJSON_AddNumberToObject(o, "change", d->change);
			else
				cJSON_AddNullToObject(o, "change");
			if (isfinite(d->p_u))
				cJSON_AddNumberToObject(o, "p_value", d->p_u);
			else
				cJSON_AddNullToObject(o, "p_value");
		} else {
			cJSON_AddNullToObject(o, "verdict");
			cJSON_AddNullToObject(o, "change");
			cJSON_AddNullToObject(o, "p_value");
		}
	}
	out_json_add_notes(doc, notes);
	return out_json_print(doc, f);
}

static int print_rows(FILE *f, enum out_mode mode, const struct an_hist_result *r,
		      const struct out_style *st)
{
	int machine = mode == OUT_CSV || mode == OUT_TSV;
	size_t first = r->ngroups > OUT_HIST_COLUMNS && !machine ? r->ngroups - OUT_HIST_COLUMNS : 0;
	size_t ncols = 1 + (r->ngroups - first) + 3, i, g, k;
	const char **h = calloc(ncols, sizeof(*h));
	char (*hb)[160] = calloc(r->ngroups - first, sizeof(*hb));
	unsigned char *right = calloc(ncols, 1);
	struct out_tcol col;
	struct out_table t;
	int ret = -1;

	if (!h || !hb || !right)
		goto out;
	out_tcol_init(&col, st->unit);
	for (i = 0; i < r->nrows; i++)
		for (g = first; g < r->ngroups; g++)
			if (isfinite(r->rows[i].means[g]))
				out_tcol_add(&col, r->rows[i].means[g]);
	h[0] = machine ? "key" : "KEY";
	for (g = first, k = 1; g < r->ngroups; g++, k++) {
		char name[128];

		group_name(name, sizeof(name), &r->groups[g]);
		if (machine)
			snprintf(hb[g - first], sizeof(hb[0]), "%s_mean_ns", name);
		else
			out_tcol_header(&col, hb[g - first], sizeof(hb[0]), name);
		h[k] = hb[g - first];
		right[k] = 1;
	}
	h[k] = machine ? "change" : "CHANGE";
	right[k++] = 1;
	h[k] = machine ? "p_value" : "P (U)";
	right[k++] = 1;
	h[k] = machine ? "verdict" : "VERDICT";
	out_table_init(&t, ncols, h, right);
	for (i = 0; i < r->nrows; i++) {
		const struct an_diff_row *d = diff_row(r, r->rows[i].key);
		char b[64];

		out_table_add(&t, "%s", r->rows[i].key);
		for (g = first; g < r->ngroups; g++) {
			double v = r->rows[i].means[g];

			if (machine && isfinite(v))
				out_table_add(&t, "%.3f", v / 1000);
			else if (machine)
				out_table_add(&t, "%s", "");
			else {
				out_tcol_fmt(&col, b, sizeof(b), isfinite(v) ? v : NAN);
				out_table_add(&t, "%s", b);
			}
		}
		if (d && isfinite(d->change))
			out_table_add(&t, machine ? "%.6g" : "%+.1f%%", machine ? d->change : (d->change - 1) * 100);
		else
			out_table_add(&t, "%s", machine ? "" : "-");
		if (d && isfinite(d->p_u))
			out_table_add(&t, machine ? "%.6g" : "%.2g", d->p_u);
		else
			out_table_add(&t, "%s", machine ? "" : "-");
		out_table_add(&t, "%s", d ? an_verdict_name(d->verdict) : "");
		if (d && d->verdict == AN_V_SLOWER)
			out_table_mark(&t, OUT_MARK_WORSE);
		else if (d && d->verdict == AN_V_FASTER)
			out_table_mark(&t, OUT_MARK_BETTER);
	}
	ret = out_table_print(&t, f, mode, st);
	out_table_release(&t);
	if (!ret && mode == OUT_TABLE && first)
		ret = fprintf(f, "\n%zu earlier run%s not shown (--json has every one)\n", first,
			      first == 1 ? "" : "s") < 0 ? -1 : 0;
	if (!ret && mode == OUT_TABLE) {
		char a[128], b[128], ra[96], rb[96];

		group_name(a, sizeof(a), &r->groups[r->latest]);
		if (r->base_why == AN_HB_NONE) {
			ret = fprintf(f, "\nlatest %s: no earlier run to compare with\n", a) < 0 ? -1 : 0;
		} else {
			group_name(b, sizeof(b), &r->groups[r->baseline]);
			out_diff_runs(rb, sizeof(rb), &r->diff, 0);
			out_diff_runs(ra, sizeof(ra), &r->diff, 1);
			ret = fprintf(f, "\nlatest %s (%s) against %s (%s; %s)\n", a, ra, b, rb, base_why(r->base_why)) < 0
				      ? -1 : 0;
		}
	}
out:
	free(h);
	free(hb);
	free(right);
	return ret;
}

int out_history(FILE *f, enum out_mode mode, const struct an_hist_result *r, const struct xp_notes *notes,
		const struct out_style *st)
{
	if (mode == OUT_JSON)
		return print_json(f, r, notes);
	return print_rows(f, mode, r, st);
}

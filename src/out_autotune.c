/* SPDX-License-Identifier: Apache-2.0 */
#include "out_autotune.h"

#include "out_json.h"

/* Candidates into doc, keyed by id; with samples: every sample too. */
static void add_cands(cJSON *doc, const struct an_at_result *r, int samples)
{
	size_t i, j, n;

	for (i = 0; i < r->ncands; i++) {
		const struct an_at_cand *c = &r->cands[i];
		cJSON *o = out_json_doc();

		if (!o)
			break;
		cJSON_AddItemToObject(doc, c->id, o);
		cJSON_AddNumberToObject(o, "mean_s", c->s.mean / 1e12);
		cJSON_AddNumberToObject(o, "std_s", c->s.std / 1e12);
		cJSON_AddNumberToObject(o, "n", (double)c->s.n);
		cJSON_AddNumberToObject(o, "n_used", (double)c->s.n_used);
		cJSON_AddNumberToObject(o, "trimmed_each_end", (double)c->s.trimmed);
		cJSON_AddNumberToObject(o, "inputs", (double)c->inputs);
		cJSON_AddNumberToObject(o, "min_s", c->s.min / 1e12);
		cJSON_AddNumberToObject(o, "median_s", c->s.median / 1e12);
		cJSON_AddNumberToObject(o, "max_s", c->s.max / 1e12);
		cJSON_AddNumberToObject(o, "ci95_low_s", c->s.ci_lo / 1e12);
		cJSON_AddNumberToObject(o, "ci95_high_s", c->s.ci_hi / 1e12);
		cJSON_AddNumberToObject(o, "rank", (double)c->rank);
		if (c->tied < 0) {
			cJSON_AddNullToObject(o, "tied_with_fastest");
			cJSON_AddNullToObject(o, "p_vs_fastest");
		} else {
			cJSON_AddBoolToObject(o, "tied_with_fastest", c->tied);
			cJSON_AddNumberToObject(o, "p_vs_fastest", c->p_vs_fastest);
		}
		if (samples) {
			const double *v = an_at_samples(c, &n);
			cJSON *a = cJSON_AddArrayToObject(o, "samples_s");

			for (j = 0; a && j < n; j++)
				cJSON_AddItemToArray(a, cJSON_CreateNumber(v[j] / 1e12));
		}
	}
}

static int print_json(FILE *f, const struct an_at_result *r)
{
	cJSON *doc = cJSON_CreateObject();

	if (!doc)
		return -1;
	add_cands(doc, r, 0);
	return out_json_print(doc, f);
}

int out_autotune_line(FILE *f, const char *input, const struct an_at_result *r,
		      const struct xp_notes *notes, const char *error, int exit_code)
{
	cJSON *doc = out_json_doc(), *cands;

	if (!doc)
		return -1;
	cJSON_AddStringToObject(doc, "input", input);
	cJSON_AddStringToObject(doc, "command", "autotune");
	if (error) {
		cJSON_AddStringToObject(doc, "error", error);
		cJSON_AddNumberToObject(doc, "exit_code", exit_code);
	} else {
		cands = cJSON_AddObjectToObject(doc, "candidates");
		if (cands)
			add_cands(cands, r, 1);
		out_json_add_notes(doc, notes);
	}
	return out_json_print_line(doc, f);
}

static int print_rows(FILE *f, enum out_mode mode, const struct an_at_result *r, int colour)
{
	static const char *const hm[] = {"id", "n", "n_used", "mean_s", "std_s", "ci95_low_s",
					 "ci95_high_s", "min_s", "median_s", "max_s", "rank",
					 "tied_with_fastest", "p_vs_fastest"};
	static const char *const tname[] = {"MEAN", "STD", "95% CI", "MIN", "MEDIAN", "MAX"};
	static const unsigned char right[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 0};
	int machine = mode == OUT_CSV || mode == OUT_TSV;
	const char *ht[10] = {"ID", "N", NULL, NULL, NULL, NULL, NULL, NULL, "RANK", "VS FASTEST"};
	char th[6][32];
	struct out_tcol col[6];	/* one unit per time column, named in its header */
	struct out_table t;
	size_t i, k;
	int ret;

	for (k = 0; k < 6; k++)
		out_tcol_init(&col[k]);
	for (i = 0; i < r->ncands; i++) {
		const struct an_summary *s = &r->cands[i].s;

		out_tcol_add(&col[0], s->mean);
		out_tcol_add(&col[1], s->std);
		out_tcol_add(&col[2], s->ci_lo);
		out_tcol_add(&col[2], s->ci_hi);
		out_tcol_add(&col[3], s->min);
		out_tcol_add(&col[4], s->median);
		out_tcol_add(&col[5], s->max);
	}
	for (k = 0; k < 6; k++) {
		out_tcol_header(&col[k], th[k], sizeof(th[k]), tname[k]);
		ht[2 + k] = th[k];
	}
	if (machine)
		out_table_init(&t, sizeof(hm) / sizeof(hm[0]), hm, NULL);
	else
		out_table_init(&t, sizeof(ht) / sizeof(ht[0]), ht, right);
	for (i = 0; i < r->ncands; i++) {
		const struct an_at_cand *c = &r->cands[i];
		char b[7][48];

		out_table_add(&t, "%s", c->id);
		if (machine) {
			out_table_add(&t, "%zu", c->s.n);
			out_table_add(&t, "%zu", c->s.n_used);
			out_table_add(&t, "%.12g", c->s.mean / 1e12);
			out_table_add(&t, "%.12g", c->s.std / 1e12);
			out_table_add(&t, "%.12g", c->s.ci_lo / 1e12);
			out_table_add(&t, "%.12g", c->s.ci_hi / 1e12);
			out_table_add(&t, "%.12g", c->s.min / 1e12);
			out_table_add(&t, "%.12g", c->s.median / 1e12);
			out_table_add(&t, "%.12g", c->s.max / 1e12);
			out_table_add(&t, "%zu", c->rank);
			out_table_add(&t, "%s", c->tied < 0 ? "" : c->tied ? "true" : "false");
			if (c->tied < 0)
				out_table_add(&t, "%s", "");
			else
				out_table_add(&t, "%.4g", c->p_vs_fastest);
			continue;
		}
		out_tcol_fmt(&col[0], b[0], sizeof(b[0]), c->s.mean);
		out_tcol_fmt(&col[1], b[1], sizeof(b[1]), c->s.std);
		out_tcol_fmt(&col[2], b[2], sizeof(b[2]), c->s.ci_lo);
		out_tcol_fmt(&col[2], b[3], sizeof(b[3]), c->s.ci_hi);
		out_tcol_fmt(&col[3], b[4], sizeof(b[4]), c->s.min);
		out_tcol_fmt(&col[4], b[5], sizeof(b[5]), c->s.median);
		out_tcol_fmt(&col[5], b[6], sizeof(b[6]), c->s.max);
		if (c->s.n_used != c->s.n)
			out_table_add(&t, "%zu (%zu used)", c->s.n, c->s.n_used);
		else
			out_table_add(&t, "%zu", c->s.n);
		out_table_add(&t, "%s", b[0]);
		out_table_add(&t, "%s", b[1]);
		out_table_add(&t, "%s .. %s", b[2], b[3]);
		out_table_add(&t, "%s", b[4]);
		out_table_add(&t, "%s", b[5]);
		out_table_add(&t, "%s", b[6]);
		out_table_add(&t, "%zu", c->rank);
		if (c->rank == 1)
			out_table_add(&t, "fastest");
		else if (c->tied < 0)
			out_table_add(&t, "untested (n<2)");
		else
			out_table_add(&t, "%s (p=%.2g)", c->tied ? "tied" : "slower", c->p_vs_fastest);
	}
	ret = out_table_print(&t, f, mode, colour);
	out_table_release(&t);
	return ret;
}

int out_autotune(FILE *f, enum out_mode mode, const struct an_at_result *r, int colour)
{
	if (mode == OUT_JSON)
		return print_json(f, r);
	return print_rows(f, mode, r, colour);
}

/* SPDX-License-Identifier: Apache-2.0 */
#include "out_autotune.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "out_json.h"


/* Below this a p-value is shown as "<1e-300" (log10_p_vs_fastest in JSON says how far). */
#define P_FLOOR 1e-300

static const char *const stat_fields[] = {
	"mean_s", "std_s", "n", "n_used", "trimmed_each_end", "inputs", "min_s", "median_s", "max_s",
	"ci95_low_s", "ci95_high_s", "rank", "tied_with_fastest", "p_vs_fastest", "log10_p_vs_fastest",
};

static cJSON *prog_json(const struct an_at_prog *p)
{
	return out_json_id(p->known, p->id);
}

/* A row's statistics into o, as the Python profiler's mean_s and std_s first. */
static void add_stats(cJSON *o, const struct an_at_cand *c, int samples)
{
	size_t j, n;

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
		cJSON_AddNullToObject(o, "log10_p_vs_fastest");
	} else {
		cJSON_AddBoolToObject(o, "tied_with_fastest", c->tied);
		/* a number where one is exact, else the bound as a string: never a false 0 */
		if (c->p_vs_fastest >= P_FLOOR)
			cJSON_AddNumberToObject(o, "p_vs_fastest", c->p_vs_fastest);
		else
			cJSON_AddStringToObject(o, "p_vs_fastest", "<1e-300");
		if (isfinite(c->log10_p_vs_fastest))
			cJSON_AddNumberToObject(o, "log10_p_vs_fastest", c->log10_p_vs_fastest);
		else
			cJSON_AddNullToObject(o, "log10_p_vs_fastest");
	}
	if (samples) {
		const double *v = an_at_samples(c, &n);
		cJSON *a = cJSON_AddArrayToObject(o, "samples_s");

		for (j = 0; a && j < n; j++)
			cJSON_AddItemToArray(a, cJSON_CreateNumber(v[j] / 1e12));
	}
}

/*
 * Candidates into doc, keyed by id; with samples: every sample too. An id
 * split by program (several rows) gets null statistics, so that a script
 * ranking ids by mean_s fails instead of ranking a mixture, and its rows in
 * "programs".
 */
static void add_cands(cJSON *doc, const struct an_at_result *r, int samples, int versioned)
{
	size_t i, j, k;

	for (i = 0; i < r->ncands; i += r->cands[i].id_rows ? r->cands[i].id_rows : 1) {
		const struct an_at_cand *c = &r->cands[i];
		size_t rows = c->id_rows ? c->id_rows : 1;
		cJSON *o = versioned ? out_json_doc() : cJSON_CreateObject(), *ids, *progs, *po;

		if (!o)
			break;
		cJSON_AddItemToObject(doc, c->id, o);
		if (versioned)	/* version 1 has no top level of its own: what n counts, in each */
			cJSON_AddStringToObject(o, "samples", r->samples_are_runs ? "run means" : "executions");
		if (rows == 1) {
			add_stats(o, c, samples);
		} else {
			for (k = 0; k < sizeof(stat_fields) / sizeof(stat_fields[0]); k++)
				cJSON_AddNullToObject(o, stat_fields[k]);
		}
		if (!r->programs)
			continue;
		ids = cJSON_AddArrayToObject(o, "program_ids");
		for (j = i; ids && j < i + rows; j++)
			for (k = 0; k < r->cands[j].nprogs; k++)
				cJSON_AddItemToArray(ids, prog_json(&r->cands[j].progs[k]));
		if (rows == 1)
			continue;
		progs = cJSON_AddArrayToObject(o, "programs");
		for (j = i; j < i + rows && (po = out_json_push_object(progs)); j++) {
			cJSON_AddItemToObject(po, "program_id", prog_json(&r->cands[j].progs[0]));
			add_stats(po, &r->cands[j], samples);
		}
	}
}

const char *out_autotune_nowinner(enum an_at_nowinner why)
{
	return an_at_nowinner_name(why);
}

/* Version 1: the candidates keyed by id at the top level, as the Python profiler's dict. */
static int print_json_v1(FILE *f, const struct an_at_result *r)
{
	cJSON *doc = cJSON_CreateObject();

	if (!doc)
		return -1;
	add_cands(doc, r, 0, 1);
	return out_json_print(doc, f);
}

static int print_json(FILE *f, const struct an_at_result *r, const struct xp_notes *notes)
{
	cJSON *doc = out_json_command_doc("autotune"), *cands;
	const struct an_at_cand *best, *rival;
	enum an_at_nowinner why;

	if (!doc)
		return -1;
	cJSON_ReplaceItemInObject(doc, "schema_version", cJSON_CreateNumber(2));
	if ((cands = cJSON_AddObjectToObject(doc, "candidates")))
		add_cands(cands, r, 0, 0);
	best = an_at_winner(r, &why, &rival);
	out_json_add_str_or_null(doc, "fastest", best ? best->id : NULL);
	out_json_add_str_or_null(doc, "no_fastest_because", out_autotune_nowinner(why));
	out_json_add_str_or_null(doc, "rival", rival ? rival->id : NULL);
	cJSON_AddStringToObject(doc, "samples", r->samples_are_runs ? "run means" : "executions");
	cJSON_AddNumberToObject(doc, "runs", (double)r->runs);
	out_json_add_notes(doc, notes);
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
			add_cands(cands, r, 1, 1);
		out_json_add_notes(doc, notes);
	}
	return out_json_print_line(doc, f);
}

/* A row's programs, comma-separated, unknown ones as `unknown`; "..." when buf is full. */
void out_autotune_programs(char *buf, size_t n, const struct an_at_cand *c, const char *unknown)
{
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < c->nprogs && len < n; i++) {
		int w = c->progs[i].known ? snprintf(buf + len, n - len, "%s%" PRIu64, i ? "," : "", c->progs[i].id)
					  : snprintf(buf + len, n - len, "%s%s", i ? "," : "", unknown);

		len += w > 0 ? (size_t)w : 0;
	}
	if (len >= n && n > 4)
		memcpy(buf + n - 4, "...", 4);
}

/* Whether some id ran as several programs (its rows split or pooled). */
int out_autotune_several_programs(const struct an_at_result *r)
{
	size_t i;

	for (i = 0; i < r->ncands; i++)
		if (r->cands[i].id_rows > 1 || r->cands[i].nprogs > 1)
			return 1;
	return 0;
}

static int print_rows(FILE *f, enum out_mode mode, const struct an_at_result *r,
		      const struct out_style *st)
{
	/* program_id (not with --compat) and samples last, so that the others keep their places */
	static const char *const hm[] = {"id", "n", "n_used", "mean_s", "std_s", "ci95_low_s",
					 "ci95_high_s", "min_s", "median_s", "max_s", "rank",
					 "tied_with_fastest", "p_vs_fastest", "program_id", "samples"};
	static const char *const hm_compat[] = {"id", "n", "n_used", "mean_s", "std_s", "ci95_low_s",
						"ci95_high_s", "min_s", "median_s", "max_s", "rank",
						"tied_with_fastest", "p_vs_fastest", "samples"};
	static const char *const tname[] = {"MEAN", "STD", "95% CI", "MIN", "MEDIAN", "MAX"};
	static const unsigned char right[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 0};
	int machine = mode == OUT_CSV || mode == OUT_TSV;
	/* the times of a row by column: the CI's two ends share one */
	static const size_t tcol[7] = {0, 1, 2, 2, 3, 4, 5};
	char th[6][32];
	const char *ht[10] = {"ID", "N", th[0], th[1], th[2], th[3], th[4], th[5], "RANK", "VS FASTEST"};
	struct out_tcol col[6];	/* the time columns, one unit (out_tcols_share), named in each header */
	const char *hs[11];
	unsigned char rs[11];
	struct out_table t;
	size_t i, k;
	int ret, progcol;

	out_tcols_init(col, 6, st->unit);
	for (i = 0; i < r->ncands; i++) {
		const struct an_summary *s = &r->cands[i].s;
		const double v[] = {s->mean, s->std, s->ci_lo, s->ci_hi, s->min, s->median, s->max};

		for (k = 0; k < 7; k++)
			out_tcol_add(&col[tcol[k]], v[k]);
	}
	out_tcols_share(col, 6);
	out_tcols_headers(col, th[0], sizeof(th[0]), tname, 6);
	/* the text table gains a PROGRAM column after ID when some id ran as several programs */
	progcol = out_autotune_several_programs(r);
	for (k = 0; k < 10; k++) {
		hs[k + (k > 0 && progcol)] = ht[k];
		rs[k + (k > 0 && progcol)] = right[k];
	}
	if (progcol) {
		hs[1] = "PROGRAM";
		rs[1] = 1;
	}
	if (machine)
		out_table_init(&t, sizeof(hm) / sizeof(hm[0]) - !r->programs, r->programs ? hm : hm_compat, NULL);
	else
		out_table_init(&t, 10 + (size_t)progcol, hs, rs);
	for (i = 0; i < r->ncands; i++) {
		const struct an_at_cand *c = &r->cands[i];
		const double v[] = {c->s.mean, c->s.std, c->s.ci_lo, c->s.ci_hi, c->s.min, c->s.median,
				    c->s.max};
		char b[7][48], pv[32], pg[256];

		if (c->tied < 0)
			pv[0] = '\0';
		else if (c->p_vs_fastest < P_FLOOR)
			snprintf(pv, sizeof(pv), "<1e-300");
		else
			snprintf(pv, sizeof(pv), machine ? "%.4g" : "=%.2g", c->p_vs_fastest);
		out_table_add(&t, "%s", c->id);
		if (machine) {
			out_table_add(&t, "%zu", c->s.n);
			out_table_add(&t, "%zu", c->s.n_used);
			for (k = 0; k < 7; k++)
				out_table_add(&t, "%.12g", v[k] / 1e12);
			out_table_add(&t, "%zu", c->rank);
			out_table_add(&t, "%s", c->tied < 0 ? "" : c->tied ? "true" : "false");
			out_table_add(&t, "%s", pv);
			if (r->programs) {
				out_autotune_programs(pg, sizeof(pg), c, "");
				out_table_add(&t, "%s", pg);
			}
			out_table_add(&t, "%s", r->samples_are_runs ? "run means" : "executions");
			continue;
		}
		if (progcol) {
			out_autotune_programs(pg, sizeof(pg), c, "-");
			out_table_add(&t, "%s", pg);
		}
		for (k = 0; k < 7; k++)
			out_tcol_fmt(&col[tcol[k]], b[k], sizeof(b[k]), v[k]);
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
			out_table_add(&t, "%s (p%s)", c->tied ? "tied" : "slower", pv);
	}
	ret = out_table_print(&t, f, mode, st);
	out_table_release(&t);
	if (!ret && !machine && fprintf(f, "\nsamples: %s%zu run%s%s\n",
					r->samples_are_runs ? "each run's mean, " : "every execution, ", r->runs,
					r->runs == 1 ? "" : "s",
					r->samples_are_runs ? " (--samples executions: every execution)" : "") < 0)
		ret = -1;
	return ret;
}

int out_autotune(FILE *f, enum out_mode mode, const struct an_at_result *r, int json_version,
		 const struct xp_notes *notes, const struct out_style *st)
{
	if (mode == OUT_JSON)
		return json_version == 1 ? print_json_v1(f, r) : print_json(f, r, notes);
	return print_rows(f, mode, r, st);
}

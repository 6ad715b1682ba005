/* SPDX-License-Identifier: Apache-2.0 */
#include "out_scope.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "out_json.h"
#include "xp_sat.h"

#define PLURAL(n) ((n) == 1 ? "" : "s")

void out_ops_hlo_line(FILE *f, const struct an_ops_result *r)
{
	struct an_ops_hlo_counts c;

	if (!r->opts.hlo)
		return;
	an_ops_hlo_count(r, &c);
	if (c.tf)
		fprintf(f, "framework ops: %zu TensorFlow op%s named by %s kernels' tf_op or annotation (no HLO op)\n",
			c.tf, PLURAL(c.tf), c.tf == 1 ? "its" : "their");
	if (!c.ops)
		return;	/* nothing looked up */
	fprintf(f, "HLO: of %zu op%s %zu found in their module's HLO (%zu without an op name), %zu not in it, "
		   "%zu without one module's HLO to look in; the inputs carry the HLO of %zu module%s", c.ops, PLURAL(c.ops),
		c.found, c.found_without_op_name, c.not_in_hlo, c.without_hlo, r->hlo_modules, PLURAL(r->hlo_modules));
	if (r->hlo_failed)
		fprintf(f, " (%zu of those that ran did not decode)", r->hlo_failed);
	if (r->hlo_inputs_without)
		fprintf(f, "; %zu input%s carried none", r->hlo_inputs_without, PLURAL(r->hlo_inputs_without));
	fprintf(f, "\n");
}

void out_ops_hlo_json(struct cJSON *doc, const struct an_ops_result *r)
{
	struct an_ops_hlo_counts c;
	cJSON *o;

	if (!r->opts.hlo || !(o = cJSON_AddObjectToObject(doc, "hlo")))
		return;
	an_ops_hlo_count(r, &c);
	cJSON_AddNumberToObject(o, "ops", (double)c.ops);
	cJSON_AddNumberToObject(o, "found", (double)c.found);
	cJSON_AddNumberToObject(o, "found_without_op_name", (double)c.found_without_op_name);
	cJSON_AddNumberToObject(o, "not_in_hlo", (double)c.not_in_hlo);
	cJSON_AddNumberToObject(o, "without_hlo", (double)c.without_hlo);
	cJSON_AddNumberToObject(o, "tensorflow_ops", (double)c.tf);
	cJSON_AddNumberToObject(o, "modules", (double)r->hlo_modules);
	cJSON_AddNumberToObject(o, "modules_not_decoded", (double)r->hlo_failed);
	cJSON_AddNumberToObject(o, "inputs_without_hlo", (double)r->hlo_inputs_without);
}

void out_ops_cost_line(FILE *f, const struct an_ops_result *r)
{
	static const char *const what[] = {
		[AN_OP_COST_NO_CALLS] = "of unknown calls (kernels with no scope_range_id, nor a host event of the "
					"op around their launch)",
		[AN_OP_COST_NO_INSTR] = "not in their module's HLO (or without one)",
		[AN_OP_COST_UNKNOWN] = "the cost model does not know",
	};
	static const enum an_op_cost order[] = {AN_OP_COST_NO_CALLS, AN_OP_COST_NO_INSTR, AN_OP_COST_UNKNOWN};
	size_t i, k, said = 0;

	for (k = AN_OP_COST_NO_INSTR; k <= AN_OP_COST_LAST && !r->cost[k]; k++)
		;
	if (k > AN_OP_COST_LAST)
		return;
	fprintf(f, "GPU FLOPs and bytes from the HLO's shapes (cost per call x calls; see the man page's cost model): ");
	if (r->cost[AN_OP_COST_HLO]) {
		fprintf(f, "%zu op%s", r->cost[AN_OP_COST_HLO], PLURAL(r->cost[AN_OP_COST_HLO]));
		if (r->cost_no_flops)
			fprintf(f, " (%zu without FLOPs)", r->cost_no_flops);
		said++;
	}
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if ((k = r->cost[order[i]]))
			fprintf(f, "%snone for %zu op%s %s", said++ ? "; " : "", k, PLURAL(k), what[order[i]]);
	for (i = 0; i < r->ncost_what; i++) {
		fprintf(f, "%s", i ? ", " : "; the model does not know ");
		out_put_text(f, r->cost_what[i]);
	}
	fprintf(f, "\n");
}

void out_ops_cost_json(struct cJSON *doc, const struct an_ops_result *r)
{
	cJSON *o, *a;
	size_t i;

	if (!(o = cJSON_AddObjectToObject(doc, "gpu_cost")))
		return;
	cJSON_AddNumberToObject(o, "ops_from_hlo", (double)r->cost[AN_OP_COST_HLO]);
	cJSON_AddNumberToObject(o, "without_flops", (double)r->cost_no_flops);
	cJSON_AddNumberToObject(o, "calls_unknown", (double)r->cost[AN_OP_COST_NO_CALLS]);
	cJSON_AddNumberToObject(o, "not_in_hlo", (double)r->cost[AN_OP_COST_NO_INSTR]);
	cJSON_AddNumberToObject(o, "cost_unknown", (double)r->cost[AN_OP_COST_UNKNOWN]);
	if ((a = cJSON_AddArrayToObject(o, "not_known")))
		for (i = 0; i < r->ncost_what; i++)
			cJSON_AddItemToArray(a, cJSON_CreateString(r->cost_what[i]));
}

/* Which nodes --top shows: a node beyond the first top children of its parent hides its subtree. */
static void shown_nodes(const struct an_ops_result *r, size_t top, unsigned char *show)
{
	size_t i, hide_below = SIZE_MAX;
	size_t rank[64];	/* children seen per depth, for depths below 64 (deeper ones are shown) */

	memset(rank, 0, sizeof(rank));
	for (i = 0; i < r->nscopes; i++) {
		const struct an_scope_node *n = &r->scopes[i];

		if (hide_below != SIZE_MAX && n->depth > hide_below) {
			show[i] = 0;
			continue;
		}
		hide_below = SIZE_MAX;
		if (n->depth < 64) {
			rank[n->depth]++;
			if (n->depth + 1 < 64)
				rank[n->depth + 1] = 0;
		}
		show[i] = !top || n->depth >= 64 || rank[n->depth] <= top;
		if (!show[i])
			hide_below = n->depth;
	}
}

static int scopes_json(FILE *f, const struct an_ops_result *r, const unsigned char *show,
		       const struct xp_notes *notes)
{
	cJSON *doc = out_json_command_doc("ops"), *a, *o;
	int64_t all = 0;
	size_t i;

	if (!doc)
		return -1;
	cJSON_AddStringToObject(doc, "by", "scope");
	cJSON_AddNumberToObject(doc, "inputs", (double)r->inputs);
	all = an_ops_scopes_total(r);
	out_json_add_ns(doc, "self_ns", (double)all);
	out_ops_hlo_json(doc, r);
	a = cJSON_AddArrayToObject(doc, "scopes");
	for (i = 0; a && i < r->nscopes; i++) {
		const struct an_scope_node *n = &r->scopes[i];
		const struct an_op_row *t = &r->rows[n->top];

		if (!show[i] || !(o = out_json_push_object(a)))
			continue;
		cJSON_AddStringToObject(o, "scope", n->path);
		cJSON_AddStringToObject(o, "name", n->name);
		cJSON_AddNumberToObject(o, "depth", (double)n->depth);
		out_json_add_ns(o, "total_ns", (double)n->total_ps);
		out_json_add_ns(o, "self_ns", (double)n->self_ps);
		cJSON_AddNumberToObject(o, "share", all > 0 ? (double)n->total_ps / (double)all : 0);
		cJSON_AddNumberToObject(o, "occurrences", (double)n->occurrences);
		cJSON_AddStringToObject(o, "top_op", t->name);
		out_json_add_str_or_null(o, "top_op_module", t->module);
		out_json_add_id(o, "top_op_program_id", t->has_program_id, t->program_id);
	}
	out_json_add_notes(doc, notes);
	return out_json_print(doc, f);
}

int out_ops_scopes(FILE *f, enum out_mode mode, const struct an_ops_result *r, size_t top,
		   const struct xp_notes *notes, const struct out_style *st)
{
	static const char *const hm[] = {"scope", "depth", "name", "total_ns", "self_ns", "share", "occurrences",
					 "top_op", "top_op_module", "top_op_program_id"};
	static const unsigned char right[] = {0, 1, 1, 1, 1, 0};
	int machine = mode == OUT_CSV || mode == OUT_TSV, ret = -1;
	unsigned char *show = calloc(r->nscopes ? r->nscopes : 1, 1);
	const char *ht[6] = {"SCOPE", NULL, NULL, "SHARE", "OCC", "TOP OP"};
	char th[2][32], tot[48];
	struct out_tcol col[2];
	struct out_table t;
	int64_t all = 0;
	size_t i, k, nshown = 0;

	if (!show)
		return -1;
	shown_nodes(r, top, show);
	if (mode == OUT_JSON) {
		ret = scopes_json(f, r, show, notes);
		goto out;
	}
	all = an_ops_scopes_total(r);
	for (k = 0; k < 2; k++)
		out_tcol_init(&col[k], st ? st->unit : OUT_UNIT_AUTO);
	for (i = 0; i < r->nscopes; i++)
		if (show[i]) {
			out_tcol_add(&col[0], (double)r->scopes[i].total_ps);
			out_tcol_add(&col[1], (double)r->scopes[i].self_ps);
		}
	out_tcols_share(col, 2);
	out_tcol_header(&col[0], th[0], sizeof(th[0]), "TOTAL");
	out_tcol_header(&col[1], th[1], sizeof(th[1]), "SELF");
	ht[1] = th[0];
	ht[2] = th[1];
	if (machine)
		out_table_init(&t, 10, hm, NULL);
	else
		out_table_init(&t, 6, ht, right);
	for (i = 0; i < r->nscopes; i++) {
		const struct an_scope_node *n = &r->scopes[i];
		const struct an_op_row *op = &r->rows[n->top];
		double share = all > 0 ? (double)n->total_ps / (double)all : 0;

		if (!show[i])
			continue;
		nshown++;
		if (machine) {
			out_table_add(&t, "%s", n->path);
			out_table_add(&t, "%zu", n->depth);
			out_table_add(&t, "%s", n->name);
			out_table_add(&t, "%.3f", (double)n->total_ps / 1000.0);
			out_table_add(&t, "%.3f", (double)n->self_ps / 1000.0);
			out_table_add(&t, "%.6f", share);
			out_table_add(&t, "%zu", n->occurrences);
			out_table_add(&t, "%s", op->name);
			out_table_add(&t, "%s", op->module ? op->module : "");
			if (op->has_program_id)
				out_table_add(&t, "%" PRIu64, op->program_id);
			else
				out_table_add(&t, "%s", "");
			continue;
		}
		out_table_add(&t, "%*s%s", (int)(n->depth > 40 ? 80 : 2 * n->depth), "", n->name);
		out_table_add_time(&t, &col[0], (double)n->total_ps);
		out_table_add_time(&t, &col[1], (double)n->self_ps);
		out_table_add(&t, "%.1f%%", share * 100);
		out_table_add(&t, "%zu", n->occurrences);
		out_table_add(&t, "%s", op->name);
	}
	ret = out_table_print(&t, f, mode, st);
	out_table_release(&t);
	if (ret || machine)
		goto out;
	out_fmt_time(tot, sizeof(tot), (double)all, st ? st->unit : OUT_UNIT_AUTO);
	fprintf(f, "\n%zu scope%s", r->nscopes, PLURAL(r->nscopes));
	if (nshown < r->nscopes)
		fprintf(f, " (%zu shown: --top %zu per level)", nshown, top);
	fprintf(f, "; self time of the XLA Ops and GPU kernel ops %s%s (as ops counts it; Async XLA Ops left out)\n",
		all == INT64_MAX ? "at least " : "", tot);
	out_ops_hlo_line(f, r);
	ret = ferror(f) ? -1 : 0;
out:
	free(show);
	return ret;
}

/* One frame of a folded stack: escaped as tables escape text, ';' (the frame separator) and '\\' as \xNN. */
static void put_frame(FILE *f, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + len;

	while (s < end) {
		size_t n = out_utf8_seq(s, (size_t)(end - s));

		if (!n || *s < 0x20 || *s == 0x7f || *s == ';' || *s == '\\') {
			fprintf(f, "\\x%02x", *s++);
			continue;
		}
		fwrite(s, 1, n, f);
		s += n;
	}
}

int out_ops_folded(FILE *f, const struct an_ops_result *r)
{
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		const struct an_op_row *row = &r->rows[i];
		const char *path = row->hlo_state == AN_OP_HLO_FOUND ? (*row->scope ? row->scope : AN_SCOPE_NO_OP_NAME)
				   : row->hlo_state == AN_OP_HLO_NOT_FOUND ? AN_SCOPE_NOT_IN_HLO : AN_SCOPE_NO_HLO;
		double ns = round((double)row->self_ps / 1000.0);
		const char *p = path;
		size_t depth;

		if (row->line == AN_OP_ASYNC || ns < 1)
			continue;
		/* the scope tree's frames: empty ones skipped, the last level taking the rest of the path */
		for (depth = 0; *p;) {
			const char *e = strchr(p, '/');
			size_t len = e ? (size_t)(e - p) : strlen(p);

			if (len && depth + 1 == AN_SCOPE_MAX_DEPTH) {
				len = strlen(p);
				while (len && p[len - 1] == '/')
					len--;
				e = NULL;
			}
			if (len) {
				put_frame(f, p, len);
				fputc(';', f);
				depth++;
			}
			if (!e)
				break;
			p += len + 1;
		}
		put_frame(f, row->name, strlen(row->name));
		fprintf(f, " %.0f\n", ns);
	}
	return ferror(f) ? -1 : 0;
}

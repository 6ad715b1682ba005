/* SPDX-License-Identifier: Apache-2.0 */
#include "out_hlo.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "an_cost.h"
#include "out_json.h"

/* Trace text: escaped for a terminal, or as is where the caller escapes (JSON). */
static void put(FILE *f, int raw, const char *s)
{
	if (raw)
		fputs(s, f);
	else
		out_put_text(f, s);
}

/*
 * What a line of HLO text shows, so that an instruction's text stays a
 * line whatever the trace says: a shape's first 16 arrays (tuples within
 * tuples counted), an instruction's first 64 operands and 16 called
 * computations, a fusion body's first 1000 instructions; the rest counted.
 */
#define SHAPE_LEAVES 16
#define SHOW_OPERANDS 64
#define SHOW_CALLED 16
#define SHOW_BODY 1000

static void put_shape_in(FILE *f, const struct xp_hlo_shape *s, int *budget)
{
	const char *t = xp_hlo_type_name(s->type);
	uint32_t i;

	if (s->type == 13 || s->ntuple) {	/* TUPLE */
		fputc('(', f);
		for (i = 0; i < s->ntuple && *budget > 0; i++) {
			if (i)
				fputs(", ", f);
			put_shape_in(f, &s->tuple[i], budget);
		}
		if (i < s->ntuple)
			fprintf(f, "%s\xe2\x80\xa6 %" PRIu32 " parts", i ? ", " : "", s->ntuple);
		fputc(')', f);
		return;
	}
	(*budget)--;
	if (t)
		fputs(t, f);
	else
		fprintf(f, "type%" PRId32, s->type);
	if (s->type == 17 || s->type == 14)	/* token, opaque: no dimensions */
		return;
	fputc('[', f);
	for (i = 0; i < s->ndims; i++)
		fprintf(f, "%s%" PRId64, i ? "," : "", s->dims[i]);
	fputc(']', f);
}

static void put_shape(FILE *f, const struct xp_hlo_shape *s)
{
	int budget = SHAPE_LEAVES;

	put_shape_in(f, s, &budget);
}

static void put_i64s(FILE *f, const char *name, const int64_t *v, size_t n)
{
	size_t i;

	fprintf(f, ", %s={", name);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%" PRId64, i ? "," : "", v[i]);
	fputc('}', f);
}

/* name="v", a quote or backslash in v escaped with a backslash as HLO text writes it. */
static void put_quoted(FILE *f, int raw, const char *name, const char *v)
{
	fprintf(f, "%s=\"", name);
	while (*v) {
		size_t n = strcspn(v, "\"\\");
		char *part = strndup(v, n);

		put(f, raw, part ? part : "");
		free(part);
		v += n;
		if (*v) {
			fputc('\\', f);
			fputc(*v++, f);
		}
	}
	fputc('"', f);
}

static int is_root(const struct xp_hlo_module *m, const struct xp_hlo_instr *ins)
{
	return m->comps[ins->comp].root_id == ins->id && m->comps[ins->comp].n;
}

static void instr_line(FILE *f, int raw, const struct xp_hlo_module *m, const struct xp_hlo_instr *ins)
{
	static const char *const dot_names[4] = {"lhs_contracting_dims", "rhs_contracting_dims",
						 "lhs_batch_dims", "rhs_batch_dims"};
	size_t k;

	if (is_root(m, ins))
		fputs("ROOT ", f);
	fputc('%', f);
	put(f, raw, ins->name);
	fputs(" = ", f);
	put_shape(f, &ins->shape);
	fputc(' ', f);
	put(f, raw, ins->opcode);
	fputc('(', f);
	if (!strcmp(ins->opcode, "parameter"))
		fprintf(f, "%" PRId64, ins->parameter_number);
	for (k = 0; k < ins->noperands && k < SHOW_OPERANDS; k++) {
		const struct xp_hlo_instr *op = &m->instrs[ins->operands[k]];

		fputs(k ? ", " : "", f);
		put_shape(f, &op->shape);
		fputs(" %", f);
		put(f, raw, op->name);
	}
	if (k < ins->noperands)
		fprintf(f, ", \xe2\x80\xa6 %zu operands", ins->noperands);
	fputc(')', f);
	if (!strcmp(ins->opcode, "get-tuple-element"))
		fprintf(f, ", index=%" PRId64, ins->tuple_index);
	if (ins->ndims)
		put_i64s(f, "dimensions", ins->dims, ins->ndims);
	for (k = 0; ins->has_dot && k < 4; k++)
		if (ins->ndot[k])
			put_i64s(f, dot_names[k], ins->dot[k], ins->ndot[k]);
	if (*ins->fusion_kind) {
		fputs(", kind=", f);
		put(f, raw, ins->fusion_kind);
	}
	for (k = 0; k < ins->ncalled && k < SHOW_CALLED; k++) {
		fputs(k ? ", %" : ", calls=%", f);
		put(f, raw, m->comps[ins->called[k]].name);
	}
	if (k < ins->ncalled)
		fprintf(f, ", \xe2\x80\xa6 %zu computations", ins->ncalled);
	if (*ins->custom_call_target) {
		fputs(", ", f);
		put_quoted(f, raw, "custom_call_target", ins->custom_call_target);
	}
	if (*ins->op_type || *ins->op_name || *ins->source_file) {
		const char *sep = "";

		fputs(", metadata={", f);
		if (*ins->op_type) {
			put_quoted(f, raw, "op_type", ins->op_type);
			sep = " ";
		}
		if (*ins->op_name) {
			fputs(sep, f);
			put_quoted(f, raw, "op_name", ins->op_name);
			sep = " ";
		}
		if (*ins->source_file) {
			fputs(sep, f);
			put_quoted(f, raw, "source_file", ins->source_file);
			fprintf(f, " source_line=%" PRId32, ins->source_line);
		}
		fputc('}', f);
	}
	if (*ins->backend_config) {
		fputs(", backend_config=", f);
		put(f, raw, ins->backend_config);
	}
}

void out_hlo_instr_line(FILE *f, const struct xp_hlo_module *m, const struct xp_hlo_instr *ins)
{
	instr_line(f, 0, m, ins);
}

/* The computations a fusion calls (each once, the first SHOW_CALLED), each as "%name {", its instructions indented, "}". */
static void fusion_body(FILE *f, int raw, const struct xp_hlo_module *m, const struct xp_hlo_instr *ins)
{
	size_t k, j, e;

	for (k = 0; k < ins->ncalled && k < SHOW_CALLED; k++) {
		const struct xp_hlo_comp *c = &m->comps[ins->called[k]];

		for (e = 0; e < k && ins->called[e] != ins->called[k]; e++)
			;
		if (e < k)
			continue;	/* called again: written once */
		fputc('%', f);
		put(f, raw, c->name);
		fputs(" {\n", f);
		for (j = 0; j < c->n && j < SHOW_BODY; j++) {
			fputs("  ", f);
			instr_line(f, raw, m, &m->instrs[c->first + j]);
			fputc('\n', f);
		}
		if (j < c->n)
			fprintf(f, "  \xe2\x80\xa6 %zu instructions\n", c->n);
		fputs("}\n", f);
	}
}

static char *to_string(void (*fn)(FILE *, int, const struct xp_hlo_module *, const struct xp_hlo_instr *),
		       const struct xp_hlo_module *m, const struct xp_hlo_instr *ins)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fn(f, 1, m, ins);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* "# cost: 1.07G FLOPs, 50.3M bytes accessed (the model's rules: man page, COST MODEL)" */
static void put_cost(FILE *f, const struct xp_hlo_module *m, const struct xp_hlo_instr *ins)
{
	struct an_cost c;

	an_cost_of(m, ins, &c);
	fputs("# cost (from shapes): ", f);
	if (c.flops_known)
		fprintf(f, "%" PRIu64 " FLOPs", c.flops);
	else {
		fputs("FLOPs unknown (", f);
		out_put_text(f, c.unknown);
		fputs(")", f);
	}
	if (c.bytes_known)
		fprintf(f, ", %" PRIu64 " bytes accessed\n", c.bytes);
	else
		fputs(", bytes unknown\n", f);
}

static int instrs_json(FILE *f, const char *path, const struct out_hlo_found *found, size_t n,
		       const struct xp_notes *notes)
{
	cJSON *doc = out_json_command_doc("hlo"), *arr, *o;
	size_t i, k;
	int ret = -1;

	if (!doc)
		return -1;
	cJSON_AddStringToObject(doc, "input", path);
	arr = cJSON_AddArrayToObject(doc, "instructions");
	for (i = 0; i < n && (o = out_json_push_object(arr)); i++) {
		const struct xp_hlo_module *m = found[i].e->mod;
		const struct xp_hlo_instr *ins = found[i].ins;
		char *text = to_string(instr_line, m, ins), *body = NULL;
		struct an_cost cost;
		cJSON *ops;

		if (!text || (ins->ncalled && !strcmp(ins->opcode, "fusion") && !(body = to_string(fusion_body, m, ins)))) {
			free(text);
			goto out;
		}
		cJSON_AddStringToObject(o, "module", found[i].e->base);
		out_json_add_id(o, "program_id", found[i].e->has_program_id, found[i].e->program_id);
		cJSON_AddStringToObject(o, "computation", m->comps[ins->comp].name);
		cJSON_AddStringToObject(o, "name", ins->name);
		cJSON_AddStringToObject(o, "opcode", ins->opcode);
		out_json_add_str_or_null(o, "op_name", *ins->op_name ? ins->op_name : NULL);
		out_json_add_str_or_null(o, "op_type", *ins->op_type ? ins->op_type : NULL);
		out_json_add_str_or_null(o, "source_file", *ins->source_file ? ins->source_file : NULL);
		if (*ins->source_file)
			cJSON_AddNumberToObject(o, "source_line", ins->source_line);
		else
			cJSON_AddNullToObject(o, "source_line");
		out_json_add_str_or_null(o, "fusion_kind", *ins->fusion_kind ? ins->fusion_kind : NULL);
		out_json_add_str_or_null(o, "custom_call_target",
					 *ins->custom_call_target ? ins->custom_call_target : NULL);
		ops = cJSON_AddArrayToObject(o, "operands");
		for (k = 0; k < ins->noperands && k < SHOW_OPERANDS; k++)
			cJSON_AddItemToArray(ops, cJSON_CreateString(m->instrs[ins->operands[k]].name));
		cJSON_AddNumberToObject(o, "operand_count", (double)ins->noperands);
		an_cost_of(m, ins, &cost);
		out_json_add_u64_if(o, "flops", cost.flops_known, cost.flops);
		out_json_add_u64_if(o, "bytes_accessed", cost.bytes_known, cost.bytes);
		out_json_add_str_or_null(o, "cost_unknown", cost.flops_known ? NULL : cost.unknown);
		cJSON_AddStringToObject(o, "text", text);
		out_json_add_str_or_null(o, "body", body);
		free(text);
		free(body);
	}
	out_json_add_notes(doc, notes);
	ret = out_json_print(doc, f);
	doc = NULL;
out:
	cJSON_Delete(doc);
	return ret;
}

int out_hlo_instrs(FILE *f, enum out_mode mode, const char *path, const struct out_hlo_found *found, size_t n,
		   const struct xp_notes *notes)
{
	size_t i;

	if (mode == OUT_JSON)
		return instrs_json(f, path, found, n, notes);
	for (i = 0; i < n; i++) {
		const struct xp_hlo_module *m = found[i].e->mod;
		const struct xp_hlo_instr *ins = found[i].ins;

		fprintf(f, "%s# module ", i ? "\n" : "");
		out_put_text(f, found[i].e->name);
		fputs(", computation ", f);
		out_put_text(f, m->comps[ins->comp].name);
		fputs(m->entry == ins->comp ? " (entry)\n" : "\n", f);
		instr_line(f, 0, m, ins);
		fputc('\n', f);
		put_cost(f, m, ins);
		if (!strcmp(ins->opcode, "fusion"))
			fusion_body(f, 0, m, ins);
	}
	return ferror(f) ? -1 : 0;
}

static int modules_json(FILE *f, const char *path, const struct an_hlo_set *s, const struct xp_notes *notes)
{
	cJSON *doc = out_json_command_doc("hlo"), *arr, *o;
	size_t i;

	if (!doc)
		return -1;
	cJSON_AddStringToObject(doc, "input", path);
	arr = cJSON_AddArrayToObject(doc, "modules");
	for (i = 0; i < s->n && (o = out_json_push_object(arr)); i++) {
		const struct an_hlo_entry *e = &s->e[i];
		int m = e->decoded;

		cJSON_AddStringToObject(o, "name", e->base);
		out_json_add_id(o, "program_id", e->has_program_id, e->program_id);
		cJSON_AddBoolToObject(o, "ran", e->ops > 0);
		cJSON_AddNumberToObject(o, "ops", (double)e->ops);
		if (m)
			cJSON_AddNumberToObject(o, "ops_not_in_hlo", (double)e->ops_unmatched);
		else
			cJSON_AddNullToObject(o, "ops_not_in_hlo");
		cJSON_AddNumberToObject(o, "hlo_bytes", (double)e->len);
		out_json_add_str_or_null(o, "entry_computation", m ? e->entry_name : NULL);
		if (m) {
			cJSON_AddNumberToObject(o, "computations", (double)e->comps);
			cJSON_AddNumberToObject(o, "instructions", (double)e->instrs);
			cJSON_AddNumberToObject(o, "fusions", (double)e->fusions);
		} else {
			cJSON_AddNullToObject(o, "computations");
			cJSON_AddNullToObject(o, "instructions");
			cJSON_AddNullToObject(o, "fusions");
		}
		out_json_add_str_or_null(o, "error", e->error);
	}
	out_json_add_notes(doc, notes);
	return out_json_print(doc, f);
}

int out_hlo_modules(FILE *f, enum out_mode mode, const char *path, const struct an_hlo_set *s,
		    const struct xp_notes *notes, const struct out_style *st)
{
	static const char *const hm[] = {"module", "program_id", "ran", "ops", "ops_not_in_hlo", "computations",
					 "instructions", "fusions", "hlo_bytes"};
	static const char *const ht[] = {"MODULE", "PROGRAM", "RAN", "OPS", "NOT IN HLO", "COMPUTATIONS",
					 "INSTRUCTIONS", "FUSIONS", "HLO BYTES"};
	static const unsigned char right[] = {0, 1, 0, 1, 1, 1, 1, 1, 1};
	int machine = mode == OUT_CSV || mode == OUT_TSV;
	struct out_table t;
	size_t i, ran = 0;
	int ret;

	if (mode == OUT_JSON)
		return modules_json(f, path, s, notes);
	out_table_init(&t, 9, machine ? hm : ht, machine ? NULL : right);
	for (i = 0; i < s->n; i++) {
		const struct an_hlo_entry *e = &s->e[i];
		int m = e->decoded;
		const char *none = machine ? "" : "-";

		ran += e->ops > 0;
		out_table_add(&t, "%s", e->base);
		if (e->has_program_id)
			out_table_add(&t, "%" PRIu64, e->program_id);
		else
			out_table_add(&t, "%s", none);
		out_table_add(&t, "%s", e->ops ? (machine ? "true" : "yes") : (machine ? "false" : "no"));
		out_table_add(&t, "%zu", e->ops);
		if (m)
			out_table_add(&t, "%zu", e->ops_unmatched);
		else
			out_table_add(&t, "%s", none);
		if (m) {
			out_table_add(&t, "%zu", e->comps);
			out_table_add(&t, "%zu", e->instrs);
			out_table_add(&t, "%zu", e->fusions);
		} else {
			out_table_add(&t, "%s", none);
			out_table_add(&t, "%s", none);
			out_table_add(&t, "%s", none);
		}
		out_table_add(&t, "%zu", e->len);
	}
	ret = out_table_print(&t, f, mode, st);
	out_table_release(&t);
	if (!ret && !machine)
		fprintf(f, "\n%zu module%s, %zu ran (device ops of it seen); 'xplane-stat hlo FILE --op NAME' "
			   "prints an instruction as HLO text\n", s->n, s->n == 1 ? "" : "s", ran);
	return ret || ferror(f) ? -1 : 0;
}

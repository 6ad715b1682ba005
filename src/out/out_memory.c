/* SPDX-License-Identifier: Apache-2.0 */
#include "out_memory.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "out_json.h"

static void add_alloc_json(cJSON *a, const struct an_mem_alloc *al)
{
	cJSON *o = out_json_push_object(a);
	const char *dt = an_mem_dtype_name(al->data_type);

	if (!o)
		return;
	out_json_add_u64_if(o, "allocation_bytes", al->has_bytes, al->bytes);
	out_json_add_u64_if(o, "requested_bytes", al->has_requested, al->requested);
	out_json_add_ns(o, "time_ns", (double)al->time_ps);
	out_json_add_id(o, "addr", 1, al->addr);
	out_json_add_str_or_null(o, "shape", al->shape);
	if (dt)
		cJSON_AddStringToObject(o, "data_type", dt);
	else if (al->data_type)
		cJSON_AddNumberToObject(o, "data_type", (double)al->data_type);
	else
		cJSON_AddNullToObject(o, "data_type");
	out_json_add_str_or_null(o, "op", al->op);
	out_json_add_str_or_null(o, "region_type", al->region);
}

static int print_json(FILE *f, const struct an_mem_result *r, const struct xp_notes *notes)
{
	cJSON *doc = out_json_command_doc("memory"), *rows, *o;
	size_t i, j;

	if (!doc)
		return -1;
	cJSON_AddNumberToObject(doc, "events", (double)r->events);
	rows = cJSON_AddArrayToObject(doc, "memories");
	for (i = 0; i < r->nrows && (o = out_json_push_object(rows)); i++) {
		const struct an_mem_row *w = &r->rows[i];
		cJSON *a, *p;

		cJSON_AddStringToObject(o, "input", w->input);
		cJSON_AddStringToObject(o, "memory_id", w->memory_id);
		cJSON_AddStringToObject(o, "id_from", w->by_index ? "index_on_host" : "allocator_name");
		out_json_add_u64_if(o, "capacity_bytes", w->capacity != 0, w->capacity);
		cJSON_AddBoolToObject(o, "capacity_varies", w->capacity_varies);
		if (w->has_peak) {
			out_json_add_u64(o, "peak_bytes_in_use", w->peak_in_use);
			out_json_add_ns(o, "peak_time_ns", (double)w->peak_time_ps);
			out_json_add_u64(o, "peak_bytes_allocated", w->peak_allocated);
			out_json_add_u64(o, "peak_bytes_reserved", w->peak_reserved);
			out_json_add_u64(o, "last_bytes_in_use", w->last_in_use);
		} else {
			cJSON_AddNullToObject(o, "peak_bytes_in_use");
			cJSON_AddNullToObject(o, "peak_time_ns");
			cJSON_AddNullToObject(o, "peak_bytes_allocated");
			cJSON_AddNullToObject(o, "peak_bytes_reserved");
			cJSON_AddNullToObject(o, "last_bytes_in_use");
		}
		if (w->has_fragmentation)
			cJSON_AddNumberToObject(o, "fragmentation_at_peak", w->peak_fragmentation);
		else
			cJSON_AddNullToObject(o, "fragmentation_at_peak");
		out_json_add_u64_if(o, "lifetime_peak_bytes", w->has_lifetime_peak, w->lifetime_peak);
		cJSON_AddNumberToObject(o, "allocations", (double)w->allocs);
		cJSON_AddNumberToObject(o, "deallocations", (double)w->deallocs);
		cJSON_AddNumberToObject(o, "events_without_state", (double)w->no_state);
		out_json_add_u64(o, "largest_allocation_bytes", w->largest_alloc);
		out_json_add_ns(o, "first_event_ns", (double)w->first_ps);
		out_json_add_ns(o, "last_event_ns", (double)w->last_ps);
		cJSON_AddNumberToObject(o, "live_at_peak", (double)w->live_count);
		out_json_add_u64(o, "live_at_peak_bytes", w->live_bytes);
		out_json_add_u64(o, "allocated_before_profile_bytes", w->unexplained_bytes);
		cJSON_AddNumberToObject(o, "frees_of_unseen_allocations", (double)w->freed_unseen);
		cJSON_AddNumberToObject(o, "addresses_reused_while_live", (double)w->addr_reused);
		if (r->opts.peak && (a = cJSON_AddArrayToObject(o, "peak_allocations")))
			for (j = 0; j < w->live_count && w->live; j++)
				add_alloc_json(a, &w->live[j]);
		if (r->opts.timeline && (a = cJSON_AddArrayToObject(o, "timeline"))) {
			for (j = 0; j < w->npoints && (p = out_json_push_object(a)); j++) {
				const struct an_mem_point *pt = &w->points[j];

				out_json_add_ns(p, "time_ns", (double)pt->time_ps);
				out_json_add_u64(p, "bytes_in_use", pt->in_use);
				out_json_add_u64(p, "bytes_allocated", pt->allocated);
				out_json_add_u64(p, "bytes_reserved", pt->reserved);
				cJSON_AddStringToObject(p, "event", pt->dealloc ? "free" : "alloc");
				out_json_add_u64(p, "bytes", pt->bytes);
			}
		}
	}
	out_json_add_notes(doc, notes);
	return out_json_print(doc, f);
}

/* A byte count for a cell: exact for programs, binary units for people. */
static void bytes_cell(struct out_table *t, int machine, uint64_t v, int have)
{
	char b[48];

	if (!have) {
		out_table_add(t, "%s", machine ? "" : "-");
		return;
	}
	if (machine) {
		out_table_add(t, "%" PRIu64, v);
		return;
	}
	out_fmt_bytes(b, sizeof(b), v);
	out_table_add(t, "%s", b);
}

static int print_summary(FILE *f, enum out_mode mode, const struct an_mem_result *r,
			 const struct out_mem_opts *o, const struct out_style *st)
{
	static const char *const hm[] = {"input", "memory_id", "capacity_bytes", "peak_bytes_in_use",
					 "peak_bytes_reserved", "peak_time_ns", "fragmentation_at_peak", "lifetime_peak_bytes",
					 "allocations", "deallocations", "live_at_peak", "live_at_peak_bytes",
					 "allocated_before_profile_bytes"};
	static const unsigned char right[] = {0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
	int machine = mode != OUT_TABLE;
	char hat[32];
	const char *ht[] = {"INPUT", "MEMORY", "CAPACITY", "PEAK IN USE", "RESERVED", "OF CAP", hat, "FRAG",
			    "LIFETIME PEAK", "ALLOCS", "FREES", "LIVE AT PEAK", "BEFORE PROFILE"};
	static const unsigned char rt[] = {0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
	size_t skip = st->several ? 0 : 1, i;
	struct out_tcol col;
	struct out_table t;
	int ret;

	out_tcol_init(&col, st->unit);
	for (i = 0; i < r->nrows; i++)
		if (r->rows[i].has_peak)
			out_tcol_add(&col, (double)r->rows[i].peak_time_ps);
	out_tcol_header(&col, hat, sizeof(hat), "AT");
	if (machine)
		out_table_init(&t, 13, hm, right);
	else
		out_table_init(&t, 13 - skip, ht + skip, rt + skip);
	for (i = 0; i < r->nrows; i++) {
		const struct an_mem_row *w = &r->rows[i];
		char b[64];

		if (machine || st->several)
			out_table_add(&t, "%s", w->input);
		out_table_add(&t, "%s", w->memory_id);
		bytes_cell(&t, machine, w->capacity, w->capacity != 0);
		bytes_cell(&t, machine, w->peak_in_use, w->has_peak);
		bytes_cell(&t, machine, w->peak_reserved, w->has_peak);
		if (!machine)
			out_table_add(&t, w->has_peak && w->capacity ? "%.1f%%" : "-",
				      w->capacity ? 100.0 * (double)w->peak_in_use / (double)w->capacity : 0.0);
		out_table_add_time_cell(&t, machine, &col, (double)w->peak_time_ps, w->has_peak);
		if (w->has_fragmentation)
			out_table_add(&t, machine ? "%.17g" : "%.3f", w->peak_fragmentation);
		else
			out_table_add(&t, "%s", machine ? "" : "-");
		bytes_cell(&t, machine, w->lifetime_peak, w->has_lifetime_peak);
		out_table_add(&t, "%zu", w->allocs);
		out_table_add(&t, "%zu", w->deallocs);
		if (machine) {
			out_table_add(&t, "%zu", w->live_count);
			out_table_add(&t, "%" PRIu64, w->live_bytes);
		} else {
			out_fmt_bytes(b, sizeof(b), w->live_bytes);
			out_table_add(&t, "%zu (%s)", w->live_count, b);
		}
		bytes_cell(&t, machine, w->unexplained_bytes, w->has_peak);
	}
	ret = out_table_print(&t, f, mode, st);
	out_table_release(&t);
	if (!ret && !machine)
		fprintf(f, "%zu memory event%s; PEAK IN USE = most bytes allocated + RESERVED after an event, "
			"AT from the host plane's start; LIVE AT PEAK = allocations seen in the profile and not "
			"freed by then; BEFORE PROFILE = bytes in use at the peak that no allocation seen explains\n",
			r->events, r->events == 1 ? "" : "s");
	return ret;
}

/*
 * An allocation live at the peak: the seven cells of its text table row (in
 * col's unit), or the ten of its CSV/TSV row, which name its memory first
 * and end with its address.
 */
static void alloc_cells(struct out_table *t, int machine, const struct an_mem_row *w,
			const struct an_mem_alloc *al, const struct out_tcol *col)
{
	const char *dt = an_mem_dtype_name(al->data_type), *none = machine ? "" : "-";

	if (machine) {
		out_table_add(t, "%s", w->input);
		out_table_add(t, "%s", w->memory_id);
	}
	bytes_cell(t, machine, al->bytes, al->has_bytes);
	bytes_cell(t, machine, al->requested, al->has_requested);
	out_table_add_time_cell(t, machine, col, (double)al->time_ps, 1);
	out_table_add(t, "%s", al->shape ? al->shape : none);
	if (dt)
		out_table_add(t, "%s", dt);
	else if (al->data_type)
		out_table_add(t, "%" PRId64, al->data_type);
	else
		out_table_add(t, "%s", none);
	out_table_add(t, "%s", al->op ? al->op : none);
	out_table_add(t, "%s", al->region ? al->region : none);
	if (machine)
		out_table_add(t, "%" PRIu64, al->addr);
}

/* Text table of a peak's allocations, or the CSV/TSV rows of all of them. */
static int print_peak(FILE *f, enum out_mode mode, const struct an_mem_result *r,
		      const struct out_mem_opts *o, const struct out_style *st)
{
	static const char *const hm[] = {"input", "memory_id", "allocation_bytes", "requested_bytes",
					 "time_ns", "shape", "data_type", "op", "region_type", "addr"};
	static const char *const ht[] = {"SIZE", "REQUESTED", "ALLOCATED AT", "SHAPE", "TYPE", "OP",
					 "REGION"};
	static const unsigned char rm[] = {0, 0, 1, 1, 1, 0, 0, 0, 0, 1};
	static const unsigned char rt[] = {1, 1, 1, 0, 0, 0, 0};
	int machine = mode != OUT_TABLE, ret = 0;
	struct out_table t;
	size_t i, j;

	if (machine)
		out_table_init(&t, 10, hm, rm);
	for (i = 0; i < r->nrows && !ret; i++) {
		const struct an_mem_row *w = &r->rows[i];
		struct out_tcol col;
		size_t n = w->live ? w->live_count : 0;	/* kept with opts.peak only */
		char hat[32];

		if (!machine) {
			char pk[48], lb[48];

			if (o->top && n > o->top)
				n = o->top;
			out_fmt_bytes(pk, sizeof(pk), w->peak_in_use);
			out_fmt_bytes(lb, sizeof(lb), w->live_bytes);
			fputc('\n', f);
			if (st->several) {
				out_put_text(f, w->input);
				fputs(": ", f);
			}
			out_put_text(f, w->memory_id);
			fprintf(f, ": %zu allocation%s seen in the profile live at the peak, %s of the %s in use%s\n",
				w->live_count, w->live_count == 1 ? "" : "s", lb, pk,
				n < w->live_count ? "; the largest shown (--top)" : "");
			if (!n)
				continue;
			out_tcol_init(&col, st->unit);
			for (j = 0; j < n; j++)
				out_tcol_add(&col, (double)w->live[j].time_ps);
			out_tcol_header(&col, hat, sizeof(hat), "ALLOCATED AT");
			{
				const char *hdr[7];

				memcpy(hdr, ht, sizeof(hdr));
				hdr[2] = hat;
				out_table_init(&t, 7, hdr, rt);
				for (j = 0; j < n; j++)
					alloc_cells(&t, 0, w, &w->live[j], &col);
				ret = out_table_print(&t, f, mode, st);
				out_table_release(&t);
			}
			continue;
		}
		for (j = 0; j < n; j++)
			alloc_cells(&t, 1, w, &w->live[j], NULL);
	}
	if (machine) {
		ret = out_table_print(&t, f, mode, st);
		out_table_release(&t);
	}
	return ret;
}

/* Bytes in use after every event: one table (TSV/CSV points for plots). */
static int print_timeline(FILE *f, enum out_mode mode, const struct an_mem_result *r,
			  const struct out_style *st)
{
	static const char *const hm[] = {"input", "memory_id", "time_ns", "bytes_in_use", "bytes_allocated",
					 "bytes_reserved", "event", "bytes"};
	static const unsigned char right[] = {0, 0, 1, 1, 1, 1, 0, 1};
	struct out_table t;
	size_t i, j;
	int ret;

	out_table_init(&t, 8, hm, right);
	for (i = 0; i < r->nrows; i++) {
		const struct an_mem_row *w = &r->rows[i];

		for (j = 0; j < w->npoints; j++) {
			const struct an_mem_point *pt = &w->points[j];
			char b[48];

			out_table_add(&t, "%s", w->input);
			out_table_add(&t, "%s", w->memory_id);
			out_fmt_ns(b, sizeof(b), (double)pt->time_ps);
			out_table_add(&t, "%s", b);
			out_table_add(&t, "%" PRIu64, pt->in_use);
			out_table_add(&t, "%" PRIu64, pt->allocated);
			out_table_add(&t, "%" PRIu64, pt->reserved);
			out_table_add(&t, "%s", pt->dealloc ? "free" : "alloc");
			out_table_add(&t, "%" PRIu64, pt->bytes);
		}
	}
	ret = out_table_print(&t, f, mode, st);
	out_table_release(&t);
	return ret;
}

int out_memory(FILE *f, enum out_mode mode, const struct an_mem_result *r, const struct out_mem_opts *o,
	       const struct xp_notes *notes, const struct out_style *st)
{
	int ret;

	if (mode == OUT_JSON)
		return print_json(f, r, notes);
	if (mode != OUT_TABLE) {
		if (o->view == OUT_MEM_PEAK)
			return print_peak(f, mode, r, o, st);
		if (o->view == OUT_MEM_TIMELINE)
			return print_timeline(f, mode, r, st);
		return print_summary(f, mode, r, o, st);
	}
	ret = print_summary(f, mode, r, o, st);
	if (!ret && r->opts.peak)
		ret = print_peak(f, mode, r, o, st);
	if (!ret && r->opts.timeline) {
		fputc('\n', f);
		ret = print_timeline(f, mode, r, st);
	}
	return ret;
}

/* SPDX-License-Identifier: Apache-2.0 */
#include "out_planes.h"

#include <inttypes.h>
#include <string.h>

#include "out_json.h"

/* "AMD, 304 cores, 2.10 GHz, 192.0 GiB, 2662.4 GB/s, cc 9.4" from what the plane states. */
static void fmt_facts(char *buf, size_t n, const struct an_device_facts *d)
{
	size_t len = 0;

#define ADD(...)                                                                     \
	do {                                                                         \
		int w_ = snprintf(buf + len, n - len, "%s", len ? ", " : "");        \
		if (w_ > 0 && (size_t)w_ < n - len)                                  \
			len += (size_t)w_;                                           \
		w_ = snprintf(buf + len, n - len, __VA_ARGS__);                      \
		if (w_ > 0 && (size_t)w_ < n - len)                                  \
			len += (size_t)w_;                                           \
	} while (0)
	buf[0] = '\0';
	if (d->vendor)
		ADD("%s", d->vendor);
	if (d->model)
		ADD("%s", d->model);
	if (d->has_cores)
		ADD("%" PRIu64 " cores", d->cores);
	if (d->has_clock)
		ADD("%.2f GHz", (double)d->clock_khz / 1e6);
	if (d->has_mem_size)
		ADD("%.1f GiB", (double)d->mem_size / (1024.0 * 1024 * 1024));
	if (d->has_mem_bw)
		ADD("%.1f GB/s", (double)d->mem_bw / 1e9);
	if (d->has_cc)
		ADD("cc %" PRIu64 ".%" PRIu64, d->cc_major, d->cc_minor);
#undef ADD
}

/* The facts a plane states, as fields of o; those it does not state are left out. */
static void add_facts_json(cJSON *o, const struct an_device_facts *d)
{
	const struct {
		const char *key;
		int has;
		uint64_t v;
	} num[] = {
		{"clock_rate_khz", d->has_clock, d->clock_khz},
		{"core_count", d->has_cores, d->cores},
		{"memory_bandwidth_bytes_per_s", d->has_mem_bw, d->mem_bw},
		{"memory_size_bytes", d->has_mem_size, d->mem_size},
		{"compute_cap_major", d->has_cc, d->cc_major},
		{"compute_cap_minor", d->has_cc, d->cc_minor},
	};
	size_t k;

	if (d->vendor)
		cJSON_AddStringToObject(o, "vendor", d->vendor);
	if (d->model)
		cJSON_AddStringToObject(o, "model", d->model);
	for (k = 0; k < sizeof(num) / sizeof(num[0]); k++)
		if (num[k].has)
			out_json_add_u64(o, num[k].key, num[k].v);
}

static int print_json(FILE *f, const char *path, const struct an_planes *p, const struct xp_notes *notes)
{
	cJSON *doc = out_json_command_doc("planes"), *planes, *o, *l;
	size_t i, j;

	if (!doc)
		return -1;
	cJSON_AddStringToObject(doc, "input", path);
	cJSON_AddNumberToObject(doc, "events", (double)p->events);
	cJSON_AddNumberToObject(doc, "aggregated_events", (double)p->aggregated);
	planes = cJSON_AddArrayToObject(doc, "planes");
	for (i = 0; i < p->n && (o = out_json_push_object(planes)); i++) {
		const struct an_plane_info *pi = &p->planes[i];
		cJSON *lines;

		cJSON_AddNumberToObject(o, "id", (double)pi->id);
		cJSON_AddStringToObject(o, "name", pi->name);
		cJSON_AddBoolToObject(o, "device", pi->is_device);
		cJSON_AddNumberToObject(o, "events", (double)pi->events);
		cJSON_AddNumberToObject(o, "aggregated_events", (double)pi->aggregated);
		out_json_add_ns(o, "span_ns", (double)pi->span_ps);
		cJSON_AddNumberToObject(o, "stray_end_events", (double)pi->stray_ends);
		add_facts_json(cJSON_AddObjectToObject(o, "facts"), &pi->dev);
		lines = cJSON_AddArrayToObject(o, "lines");
		for (j = 0; j < pi->nlines && (l = out_json_push_object(lines)); j++) {
			cJSON_AddNumberToObject(l, "id", (double)pi->lines[j].id);
			cJSON_AddStringToObject(l, "name", pi->lines[j].name);
			cJSON_AddNumberToObject(l, "events", (double)pi->lines[j].events);
			cJSON_AddNumberToObject(l, "aggregated_events", (double)pi->lines[j].aggregated);
		}
	}
	out_json_add_notes(doc, notes);
	return out_json_print(doc, f);
}

static int print_rows(FILE *f, enum out_mode mode, const struct an_planes *p,
		      const struct out_style *st)
{
	static const char *const hm[] = {"plane_id", "plane", "device", "line_id", "line", "events"};
	static const unsigned char right[] = {1, 0, 1, 1, 1, 0};
	int machine = mode == OUT_CSV || mode == OUT_TSV;
	const char *ht[] = {"ID", "PLANE / LINE", "LINES", "EVENTS", NULL, "DEVICE"};
	char span_h[32];
	struct out_tcol col;	/* the spans in one unit, named in the header */
	struct out_table t;
	size_t i, j;
	int ret;

	out_tcol_init(&col, st->unit);
	for (i = 0; i < p->n; i++)
		if (p->planes[i].events)
			out_tcol_add(&col, (double)p->planes[i].span_ps);
	out_tcol_header(&col, span_h, sizeof(span_h), "SPAN");
	ht[4] = span_h;
	if (machine)
		out_table_init(&t, 6, hm, NULL);
	else
		out_table_init(&t, 6, ht, right);
	t.whole_last = 1;	/* the device's facts */
	for (i = 0; i < p->n; i++) {
		const struct an_plane_info *pi = &p->planes[i];
		char facts[256], span[48];

		if (machine && !pi->nlines) {
			out_table_add(&t, "%" PRId64, pi->id);
			out_table_add(&t, "%s", pi->name);
			out_table_add(&t, "%s", pi->is_device ? "true" : "false");
			out_table_add(&t, "%s", "");
			out_table_add(&t, "%s", "");
			out_table_add(&t, "%s", "0");
			continue;
		}
		if (machine) {
			for (j = 0; j < pi->nlines; j++) {
				out_table_add(&t, "%" PRId64, pi->id);
				out_table_add(&t, "%s", pi->name);
				out_table_add(&t, "%s", pi->is_device ? "true" : "false");
				out_table_add(&t, "%" PRId64, pi->lines[j].id);
				out_table_add(&t, "%s", pi->lines[j].name);
				out_table_add(&t, "%zu", pi->lines[j].events);
			}
			continue;
		}
		fmt_facts(facts, sizeof(facts), &pi->dev);
		out_tcol_fmt(&col, span, sizeof(span), (double)pi->span_ps);
		out_table_add(&t, "%" PRId64, pi->id);
		out_table_add(&t, "%s", pi->name);
		out_table_add(&t, "%zu", pi->nlines);
		out_table_add(&t, "%zu", pi->events);
		out_table_add(&t, "%s", pi->events ? span : "-");
		out_table_add(&t, "%s", facts);
		for (j = 0; j < pi->nlines; j++) {
			out_table_add(&t, "%s", "");
			out_table_add(&t, "  %s", pi->lines[j].name);
			out_table_add(&t, "%s", "");
			out_table_add(&t, "%zu", pi->lines[j].events);
			out_table_add(&t, "%s", "");
			out_table_add(&t, "%s", "");
		}
	}
	ret = out_table_print(&t, f, mode, st);
	out_table_release(&t);
	if (!ret && !machine && p->aggregated)
		fprintf(f, "and %zu aggregated event%s (num_occurrences: a count and a total, no times), not in "
			"EVENTS: 'planes --json' gives them per line, 'events' counts them\n", p->aggregated,
			p->aggregated == 1 ? "" : "s");
	return ret;
}

int out_planes(FILE *f, enum out_mode mode, const char *path, const struct an_planes *p,
	       const struct xp_notes *notes, const struct out_style *st)
{
	if (mode == OUT_JSON)
		return print_json(f, path, p, notes);
	return print_rows(f, mode, p, st);
}

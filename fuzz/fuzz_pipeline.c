/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The whole analysis pipeline on one input, as the commands run it: reader ->
 * executions -> functions, autotune and --compat=ejkernel candidates, kernels,
 * ops (by op or category, each sort, the input pooled twice), planes,
 * events (the table and --list's stream), overview, device memory and
 * compile time (each on the full read and the command's own), export (both
 * writers, JSON parsed, the protobuf unpacked), the report's page -> every
 * formatter into a buffer. Beyond not crashing, each output must be
 * well-formed whatever the names in the input hold:
 *   JSON  parses (cJSON) and is valid UTF-8 (JSON lines: each line);
 *   CSV   every record has as many fields as the header (RFC 4180 quoting);
 *   TSV   every line has as many tabs as the header, no raw CR;
 *   table valid UTF-8 with no control character but the newline.
 * The options (reader, device pattern, --children, --min-duration, --time,
 * --trim, --per-device, --match, memory's --peak, --timeline and --memory,
 * compile's --function and --top) come from a hash of the input, so that the
 * fuzzer reaches them all without a format of its own to learn;
 * FUZZ_VERBOSE=1 prints the choice. memory's and compile's results must also
 * keep the promises of an_memory.h (mem_check) and an_compile.h (comp_check).
 */
#include <ctype.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "an_autotune.h"
#include "an_compat.h"
#include "an_compile.h"
#include "an_export.h"
#include "an_report.h"
#include "an_events.h"
#include "an_exec.h"
#include "an_functions.h"
#include "an_kernels.h"
#include "an_memory.h"
#include "an_ops.h"
#include "an_overview.h"
#include "an_planes.h"
#include "xp_stray.h"
#include "cmd.h"
#include "model_check.h"
#include "out_autotune.h"
#include "out_compile.h"
#include "out_export.h"
#include "perfetto_trace.pb-c.h"
#include "out_events.h"
#include "out_functions.h"
#include "out_kernels.h"
#include "out_memory.h"
#include "out_ops.h"
#include "out_overview.h"
#include "out_planes.h"
#include "out_report.h"
#include "xp_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static void fail(const char *what, const char *out, size_t n)
{
	fprintf(stderr, "%s\n--- output (%zu bytes):\n%.*s\n", what, n, (int)(n > 4000 ? 4000 : n), out);
	abort();
}

/* Strict UTF-8 (no overlong forms, surrogates or code points past U+10FFFF), written apart
 * from the formatters' own check. */
static int utf8_valid(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned c = s[i], cp, k, need;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			need = 1, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			need = 2, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			need = 3, cp = c & 0x07;
		else
			return 0;
		if (need > n - i - 1)
			return 0;
		for (k = 1; k <= need; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((need == 2 && cp < 0x800) || (need == 3 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		i += need + 1;
	}
	return 1;
}

/* Fields in each CSV record; -1 when a quote is malformed or a count differs from the first. */
static int csv_check(const char *s, size_t n)
{
	size_t i = 0, fields = 0, want = 0;
	int first = 1;

	while (i < n) {
		fields = 1;
		for (;;) {
			if (i < n && s[i] == '"') {
				for (i++;; i++) {
					if (i >= n)
						return -1;
					if (s[i] == '"') {
						if (i + 1 < n && s[i + 1] == '"') {
							i++;
							continue;
						}
						i++;
						break;
					}
				}
				if (i < n && s[i] != ',' && s[i] != '\n')
					return -1;
			} else {
				while (i < n && s[i] != ',' && s[i] != '\n') {
					if (s[i] == '"' || s[i] == '\r')
						return -1;
					i++;
				}
			}
			if (i >= n)
				return -1;	/* every record ends in a newline */
			if (s[i++] == '\n')
				break;
			fields++;
		}
		if (first)
			want = fields, first = 0;
		else if (fields != want)
			return -1;
	}
	return (int)want;
}

static int tsv_check(const char *s, size_t n)
{
	size_t i, tabs = 0, want = 0;
	int first = 1;

	if (n && s[n - 1] != '\n')
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] == '\r')
			return -1;
		if (s[i] == '\t')
			tabs++;
		if (s[i] == '\n') {
			if (first)
				want = tabs, first = 0;
			else if (tabs != want)
				return -1;
			tabs = 0;
		}
	}
	return (int)want;
}

static void check_output(enum out_mode mode, int colour, const char *out, size_t n)
{
	size_t i;

	switch (mode) {
	case OUT_JSON: {
		cJSON *doc = cJSON_ParseWithLength(out, n);

		if (!doc)
			fail("JSON output does not parse", out, n);
		cJSON_Delete(doc);
		if (!utf8_valid((const unsigned char *)out, n))
			fail("JSON output is not valid UTF-8", out, n);
		break;
	}
	case OUT_CSV:
		if (csv_check(out, n) < 1)
			fail("CSV output is malformed", out, n);
		break;
	case OUT_TSV:
		if (tsv_check(out, n) < 0)
			fail("TSV output is malformed", out, n);
		break;
	case OUT_TABLE:
		if (!utf8_valid((const unsigned char *)out, n))
			fail("table output is not valid UTF-8", out, n);
		for (i = 0; i < n; i++)
			if (((unsigned char)out[i] < 0x20 && out[i] != '\n' && !(colour && out[i] == 0x1b)) ||
			    out[i] == 0x7f)
				fail("table output holds a control character", out, n);
		break;
	}
}

/* Runs one formatter into memory, then checks what it wrote. */
#define FORMAT(mode, colour, call)                                                                   \
	do {                                                                                 \
		char *buf_ = NULL;                                                           \
		size_t n_ = 0;                                                               \
		FILE *f = open_memstream(&buf_, &n_);                                        \
		int r_;                                                                      \
		if (!f)                                                                      \
			abort();                                                             \
		r_ = (call);                                                                 \
		if (fclose(f) || r_)                                                         \
			fail("formatter failed", buf_ ? buf_ : "", buf_ ? n_ : 0);           \
		check_output(mode, colour, buf_, n_);                                              \
		free(buf_);                                                                  \
	} while (0)

/* events --list's JSON lines: each line one document. */
static void check_json_lines(const char *out, size_t n)
{
	size_t i = 0, e;

	if (!utf8_valid((const unsigned char *)out, n))
		fail("JSON lines are not valid UTF-8", out, n);
	for (; i < n; i = e + 1) {
		cJSON *doc;

		for (e = i; e < n && out[e] != '\n'; e++)
			;
		if (e == n)
			fail("JSON lines: the last line has no newline", out, n);
		if (!(doc = cJSON_ParseWithLength(out + i, e - i)))
			fail("JSON lines: a line does not parse", out + i, e - i);
		cJSON_Delete(doc);
	}
}

/* events --list as cmd_events selects, at most 4096 events; 0, or -1 when a write failed. */
static int list_events(FILE *f, enum out_mode mode, const struct xp_trace *t, const struct an_ev_opts *o)
{
	size_t pi, li, i, listed = 0;

	out_events_list_header(f, mode);
	for (pi = 0; pi < t->nplanes; pi++) {
		const struct xp_plane *p = &t->planes[pi];

		if (!p->loaded || (o->plane && !an_device_matches(p->name, o->plane)))
			continue;
		for (li = 0; li < p->nlines; li++) {
			const struct xp_line *ln = &p->lines[li];

			if (!an_ev_selects_line(o, p->name, ln->name))
				continue;
			for (i = ln->first_event; i < ln->first_event + ln->nevents && listed < 4096; i++) {
				if (o->match && regexec(o->match, xp_event_name(p, &p->events[i]), 0, NULL, 0))
					continue;
				if (out_events_list_event(f, mode, "fuzz\t\"input\xff", p, &p->events[i]))
					return -1;
				listed++;
			}
		}
	}
	return 0;
}

/*
 * memory adds the input twice: the harness's full read, then the read the
 * command makes (host planes only, of them only the memory events and their
 * key stats), under names with odd bytes, as file names may hold.
 */
#define MEM_INPUT_A "fuzz\t\"memory\xff"
#define MEM_INPUT_B "fuzz,\nmemory\x01"

/* A promise of an_memory.h broken by row i of r (r->nrows: by the result as a whole). */
static void mem_fail(const struct an_mem_result *r, size_t i, const char *what)
{
	if (i < r->nrows)
		fprintf(stderr, "memory: row %zu of %zu ('%s'): %s\n", i, r->nrows,
			r->rows[i].memory_id ? r->rows[i].memory_id : "(null)", what);
	else
		fprintf(stderr, "memory: %s\n", what);
	abort();
}

static int str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static uint64_t mem_sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* The commands reading host planes only (cmd_read_host) defer the others. */
static int wants_host_plane(const char *name, void *ctx)
{
	(void)ctx;
	return !strncmp(name, "/host:", 6);
}

/* The read cmd_memory makes (cmd_read_host); 0, or -1 when it fails (err set). */
static int mem_command_read(const struct xp_reader *reader, const uint8_t *data, size_t len, uint64_t h,
			    struct xp_trace **t, struct xp_err *err)
{
	struct xp_read_opts o = {.reader = reader, .event_stats = XP_EVSTATS_KEYS};

	o.jobs = 1 + ((h >> 47) & 1);
	o.split_bytes = (h >> 48) & 1;	/* with 2 jobs: a host plane's lines split, filtered at once */
	o.want_plane = wants_host_plane;
	o.want_host_event = an_mem_wants_host_event;
	o.host_keys = AN_MEM_KEYS;
	return xp_trace_read_opts(&o, data, len, t, err) ? -1 : 0;
}

/*
 * Adds t to r: straight, or as cmd_memory does, into a result of the input's
 * own (its worker's) merged after r's rows.
 */
static int mem_add(struct an_mem_result *r, int merged, const struct xp_trace *t, const char *input,
		   struct xp_err *err)
{
	struct an_mem_result one;
	int ret;

	if (!merged)
		return an_mem_add(r, t, input, err);
	an_mem_init(&one, &r->opts);
	ret = an_mem_add(&one, t, input, err);
	if (!ret)
		ret = an_mem_merge(r, &one, err);
	an_mem_release(&one);
	return ret;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* A memory is its id and its kind: an allocator named "index_on_host:0" is not device 0. */
static int cmp_mem_id(const void *a, const void *b)
{
	const struct an_mem_row *x = *(const struct an_mem_row *const *)a;
	const struct an_mem_row *y = *(const struct an_mem_row *const *)b;
	int c = strcmp(x->memory_id, y->memory_id);

	return c ? c : x->by_index - y->by_index;
}

/* The allocations live at row i's peak (--peak): largest first, at distinct addresses, made by then. */
static void mem_check_live(const struct an_mem_result *r, size_t i)
{
	const struct an_mem_row *w = &r->rows[i];
	uint64_t sum = 0, *addr;
	size_t j;

	if (!w->live_count)
		return;
	if (!w->live)
		mem_fail(r, i, "--peak, allocations live at the peak, but no list of them");
	if (!(addr = malloc(w->live_count * sizeof(*addr))))
		abort();
	for (j = 0; j < w->live_count; j++) {
		const struct an_mem_alloc *al = &w->live[j];

		if (j && al->bytes > w->live[j - 1].bytes)
			mem_fail(r, i, "live allocations not largest first");
		if (al->has_bytes && al->bytes > w->largest_alloc)
			mem_fail(r, i, "a live allocation larger than the largest allocation");
		if (al->time_ps < w->first_ps || al->time_ps > w->peak_time_ps)
			mem_fail(r, i, "a live allocation made outside the events up to the peak");
		sum = mem_sat_add(sum, al->has_bytes ? al->bytes : 0);
		addr[j] = al->addr;
	}
	if (sum != w->live_bytes)
		mem_fail(r, i, "live_bytes is not the sum of the live allocations' bytes");
	/* matched by address: an allocation at a live address drops the older one */
	qsort(addr, w->live_count, sizeof(*addr), cmp_u64);
	for (j = 1; j < w->live_count; j++)
		if (addr[j] == addr[j - 1])
			mem_fail(r, i, "two allocations live at one address");
	free(addr);
}

/* Row i's timeline (--timeline): every event with bytes_allocated, in time order, up to the peak. */
static void mem_check_timeline(const struct an_mem_result *r, size_t i)
{
	const struct an_mem_row *w = &r->rows[i];
	size_t j, at = SIZE_MAX, frees = 0;

	if (w->npoints != w->allocs + w->deallocs - w->no_state || (w->npoints && !w->points))
		mem_fail(r, i, "the timeline does not hold every event with bytes_allocated");
	for (j = 0; j < w->npoints; j++) {
		const struct an_mem_point *pt = &w->points[j];

		if (j && pt->time_ps < w->points[j - 1].time_ps)
			mem_fail(r, i, "timeline out of time order");
		if (pt->time_ps < w->first_ps || pt->time_ps > w->last_ps)
			mem_fail(r, i, "a timeline point outside the first and last events");
		if (pt->in_use != mem_sat_add(pt->allocated, pt->reserved))
			mem_fail(r, i, "a timeline point's in use is not allocated + reserved");
		if (pt->in_use > w->peak_in_use)
			mem_fail(r, i, "a timeline point above the peak");
		if (at == SIZE_MAX && pt->in_use == w->peak_in_use)
			at = j;
		frees += pt->dealloc != 0;
	}
	if (!w->npoints)
		return;
	/* the peak is at its first event */
	if (at == SIZE_MAX || w->points[at].time_ps != w->peak_time_ps ||
	    w->points[at].allocated != w->peak_allocated || w->points[at].reserved != w->peak_reserved)
		mem_fail(r, i, "the peak is not the timeline's first highest point");
	if (w->points[w->npoints - 1].in_use != w->last_in_use)
		mem_fail(r, i, "last_in_use is not the timeline's last point");
	if (frees > w->deallocs || w->npoints - frees > w->allocs)
		mem_fail(r, i, "the timeline holds more frees or allocations than the counts");
}

/* What an_memory.h promises of a row, whatever the input. */
static void mem_check_row(const struct an_mem_result *r, size_t i)
{
	const struct an_mem_row *w = &r->rows[i];
	size_t n = w->allocs + w->deallocs;

	if (!w->input || !w->memory_id)
		mem_fail(r, i, "no input name or memory id");
	if (!n)
		mem_fail(r, i, "a row without events");
	if (w->by_index && strncmp(w->memory_id, "index_on_host:", 14))
		mem_fail(r, i, "named by index_on_host, but its id is not index_on_host:N");
	if (r->opts.memory && !an_device_matches(w->memory_id, r->opts.memory))
		mem_fail(r, i, "a memory --memory does not match");
	if (w->no_state > n || w->has_peak != (w->no_state < n))
		mem_fail(r, i, "a peak without an event giving bytes_allocated, or none with one");
	if (w->first_ps > w->last_ps ||
	    (w->has_peak && (w->peak_time_ps < w->first_ps || w->peak_time_ps > w->last_ps)))
		mem_fail(r, i, "the peak or first event outside the row's events");
	if (w->has_peak && w->peak_in_use != mem_sat_add(w->peak_allocated, w->peak_reserved))
		mem_fail(r, i, "peak in use is not allocated + reserved (saturating at 2^64-1)");
	if (!w->has_peak && (w->has_fragmentation || w->live_count || w->unexplained_bytes))
		mem_fail(r, i, "no peak, yet a fragmentation, allocations live at it or bytes before it");
	if (w->has_peak && w->unexplained_bytes !=
	    (w->peak_allocated > w->live_bytes ? w->peak_allocated - w->live_bytes : 0))
		mem_fail(r, i, "unexplained_bytes is not the peak's bytes_allocated - live_bytes");
	if (w->capacity_varies && !w->capacity)
		mem_fail(r, i, "capacity varies, yet no event gives one");
	if (w->freed_unseen > w->deallocs)
		mem_fail(r, i, "more frees of unseen allocations than frees");
	/*
	 * Each allocation live at the peak is one allocation, and each reuse one more that
	 * replaced a live one (before the peak) or came after it: together never more than all.
	 */
	if (w->addr_reused > w->allocs || w->live_count > w->allocs - w->addr_reused)
		mem_fail(r, i, "more allocations live or reusing an address than allocations");
	if (!r->opts.peak && w->live)
		mem_fail(r, i, "a list of live allocations without --peak");
	if (r->opts.peak)
		mem_check_live(r, i);
	if (!r->opts.timeline && (w->npoints || w->points))
		mem_fail(r, i, "a timeline without --timeline");
	if (r->opts.timeline)
		mem_check_timeline(r, i);
}

/*
 * Rows a and b (one memory from the two reads) hold the same, times included:
 * they count from the earliest host line with events, those the command's
 * read walks and leaves out (line->filtered) too.
 */
static void mem_check_same(const struct an_mem_result *r, size_t a, size_t b)
{
	const struct an_mem_row *x = &r->rows[a], *y = &r->rows[b];
	size_t j;

#define MEM_SAME(f)                                                                  \
	do {                                                                         \
		if (x->f != y->f)                                                    \
			mem_fail(r, b, "the command's read differs in " #f);         \
	} while (0)
	MEM_SAME(by_index);
	MEM_SAME(allocs);
	MEM_SAME(deallocs);
	MEM_SAME(no_state);
	MEM_SAME(capacity);
	MEM_SAME(capacity_varies);
	MEM_SAME(peak_in_use);
	MEM_SAME(peak_allocated);
	MEM_SAME(peak_reserved);
	MEM_SAME(has_peak);
	MEM_SAME(peak_time_ps);
	MEM_SAME(has_fragmentation);
	MEM_SAME(lifetime_peak);
	MEM_SAME(has_lifetime_peak);
	MEM_SAME(last_in_use);
	MEM_SAME(largest_alloc);
	MEM_SAME(live_count);
	MEM_SAME(live_bytes);
	MEM_SAME(unexplained_bytes);
	MEM_SAME(freed_unseen);
	MEM_SAME(addr_reused);
	MEM_SAME(npoints);
	MEM_SAME(first_ps);
	MEM_SAME(last_ps);
#undef MEM_SAME
	/* a NaN fragmentation is the same NaN, which != would call different */
	if (strcmp(x->memory_id, y->memory_id) ||
	    memcmp(&x->peak_fragmentation, &y->peak_fragmentation, sizeof(x->peak_fragmentation)))
		mem_fail(r, b, "the command's read differs in its id or fragmentation");
	for (j = 0; j < x->npoints; j++)
		if (x->points[j].time_ps != y->points[j].time_ps || x->points[j].in_use != y->points[j].in_use ||
		    x->points[j].allocated != y->points[j].allocated ||
		    x->points[j].reserved != y->points[j].reserved || x->points[j].bytes != y->points[j].bytes ||
		    x->points[j].dealloc != y->points[j].dealloc)
			mem_fail(r, b, "the command's read differs in its timeline");
	for (j = 0; x->live && y->live && j < x->live_count; j++) {
		const struct an_mem_alloc *p = &x->live[j], *q = &y->live[j];

		if (p->bytes != q->bytes || p->has_bytes != q->has_bytes || p->requested != q->requested ||
		    p->has_requested != q->has_requested || p->addr != q->addr ||
		    p->time_ps != q->time_ps || p->data_type != q->data_type ||
		    !str_eq(p->shape, q->shape) || !str_eq(p->op, q->op) || !str_eq(p->region, q->region))
			mem_fail(r, b, "the command's read differs in its live allocations");
	}
}

/*
 * The result of the input added twice (the full read, the command's): two equal
 * halves, each input's rows sorted by peak with one row per memory (id and
 * kind), and the counts adding up.
 */
static void mem_check(const struct an_mem_result *r)
{
	size_t half = r->nrows / 2, i, events = 0, last_peak = SIZE_MAX;
	const struct an_mem_row **ids;

	if (r->inputs != 2 || r->nrows % 2 || r->no_memory_id % 2 || r->unselected % 2 ||
	    r->inputs_without != (r->nrows ? 0u : 2u) || (!r->opts.memory && r->unselected))
		mem_fail(r, r->nrows, "the counts of the input's two reads do not pair up");
	for (i = 0; i < r->nrows; i++) {
		const struct an_mem_row *w = &r->rows[i];

		mem_check_row(r, i);
		events += w->allocs + w->deallocs;
		if (strcmp(w->input, i < half ? MEM_INPUT_A : MEM_INPUT_B))
			mem_fail(r, i, "a row under the other input's name");
		if (i == half)
			last_peak = SIZE_MAX;
		if (!w->has_peak)
			continue;
		if (last_peak != SIZE_MAX && w->peak_in_use > r->rows[last_peak].peak_in_use)
			mem_fail(r, i, "an input's rows not by peak, largest first");
		last_peak = i;
	}
	if (events != r->events)
		mem_fail(r, r->nrows, "events is not the sum of the rows' allocations and frees");
	if (!half)
		return;
	if (!(ids = malloc(half * sizeof(*ids))))
		abort();
	for (i = 0; i < half; i++) {
		mem_check_same(r, i, half + i);
		ids[i] = &r->rows[i];
	}
	qsort(ids, half, sizeof(*ids), cmp_mem_id);
	for (i = 1; i < half; i++)
		if (!cmp_mem_id(&ids[i], &ids[i - 1])) {
			fprintf(stderr, "memory: two rows of one input for memory '%s'\n", ids[i]->memory_id);
			abort();
		}
	free(ids);
}

/*
 * compile adds the input twice too: the harness's full read, then the read
 * the command makes (host planes only, names and times: XP_EVSTATS_NONE).
 */
#define COMP_INPUT_A "fuzz\t\"compile\xff"
#define COMP_INPUT_B "fuzz,\ncompile\x01"

/* The read cmd_compile makes (cmd_read_host); 0, or -1 when it fails (err set). */
static int comp_command_read(const struct xp_reader *reader, const uint8_t *data, size_t len, uint64_t h,
			     struct xp_trace **t, struct xp_err *err)
{
	struct xp_read_opts o = {.reader = reader, .event_stats = XP_EVSTATS_NONE};

	o.jobs = 1 + ((h >> 57) & 1);
	o.split_bytes = (h >> 58) & 1;	/* with 2 jobs: a host plane's lines split among them */
	o.want_plane = wants_host_plane;
	return xp_trace_read_opts(&o, data, len, t, err) ? -1 : 0;
}

/* Adds t to r: straight, or as cmd_compile does, into its worker's result merged after r's. */
static int comp_add(struct an_comp_result *r, int merged, const struct xp_trace *t, const char *input,
		    struct xp_err *err)
{
	struct an_comp_result one;
	int ret;

	if (!merged)
		return an_comp_add(r, t, input, err);
	an_comp_init(&one, &r->opts);
	ret = an_comp_add(&one, t, input, err);
	if (!ret)
		ret = an_comp_merge(r, &one, err);
	an_comp_release(&one);
	return ret;
}

/* A promise of an_compile.h broken by function row i of r (r->nfns: by the result as a whole). */
static void comp_fail(const struct an_comp_result *r, size_t i, const char *what)
{
	if (i < r->nfns)
		fprintf(stderr, "compile: function row %zu of %zu ('%s'): %s\n", i, r->nfns,
			r->fns[i].name ? r->fns[i].name : "(null)", what);
	else
		fprintf(stderr, "compile: %s\n", what);
	abort();
}

static int64_t comp_sat_add(int64_t a, int64_t b)
{
	return a > INT64_MAX - b ? INT64_MAX : a + b;
}

static int comp_contains_ci(const char *s, const char *pat)
{
	size_t i, j, n = strlen(s), m = strlen(pat);

	for (i = 0; i + m <= n; i++) {
		for (j = 0; j < m && tolower((unsigned char)s[i + j]) == tolower((unsigned char)pat[j]); j++)
			;
		if (j == m)
			return 1;
	}
	return 0;
}

static int comp_event_same(const struct an_comp_event *x, const struct an_comp_event *y)
{
	return str_eq(x->fn, y->fn) && !strcmp(x->name, y->name) && x->phase == y->phase && x->call == y->call &&
	       x->inside == y->inside && x->nested == y->nested && x->start_ps == y->start_ps &&
	       x->dur_ps == y->dur_ps && x->inner == y->inner && x->inner_ps == y->inner_ps;
}

/* Function row i and its events, as an_compile.h describes them. */
static void comp_check_fn(const struct an_comp_result *r, size_t i)
{
	const struct an_comp_fn *f = &r->fns[i];
	int64_t phase[AN_COMP_NPHASES] = {0}, sum;
	size_t j, k, compiling = 0;
	int ph;

	if (!f->input || !f->name)
		comp_fail(r, i, "no input or function name");
	if (r->opts.function && !comp_contains_ci(f->name, r->opts.function))
		comp_fail(r, i, "a function --function does not match");
	if (!f->calls || f->compiling_calls > f->calls)
		comp_fail(r, i, "no call, or more compiling calls than calls");
	if (f->has_later != (f->calls > 1))
		comp_fail(r, i, "a median of later calls without them, or none with them");
	if (f->first_ps < 0 || (f->has_later && !(f->later_median_ps >= 0)))
		comp_fail(r, i, "a negative (or NaN) call duration");
	for (ph = 0; ph < AN_COMP_NPHASES; ph++)
		if (f->phase_ps[ph] < 0)
			comp_fail(r, i, "a negative phase time");
	if (f->first_event > r->nevents || f->nevents > r->nevents - f->first_event)
		comp_fail(r, i, "its events lie past the result's");
	for (j = f->first_event; j < f->first_event + f->nevents; j++) {
		const struct an_comp_event *e = &r->events[j];

		if (!e->fn || strcmp(e->fn, f->name) || !e->input || strcmp(e->input, f->input))
			comp_fail(r, i, "an event of another function or input among its events");
		if (e->call >= f->calls)
			comp_fail(r, i, "an event of a call past its calls");
		if (j > f->first_event && e->start_ps < e[-1].start_ps)
			comp_fail(r, i, "its events not by start");
		/* call 0 is the first call: an event inside it lies in it, one beside starts in it */
		if (!e->call && (e->start_ps < f->first_start_ps ||
				 (e->inside ? e->start_ps + e->dur_ps > f->first_start_ps + f->first_ps
					    : e->start_ps >= f->first_start_ps + f->first_ps)))
			comp_fail(r, i, "an event of the first call outside it");
		if (!e->nested)
			phase[e->phase] = comp_sat_add(phase[e->phase], e->dur_ps);
		if (e->phase == AN_COMP_COMPILE) {
			for (k = f->first_event; k < j; k++)
				if (r->events[k].phase == AN_COMP_COMPILE && r->events[k].call == e->call)
					break;
			compiling += k == j;
		}
	}
	for (ph = 0; ph < AN_COMP_NPHASES; ph++)
		if (phase[ph] != f->phase_ps[ph])
			comp_fail(r, i, "a phase time is not the sum of its events not nested in their phase");
	if (compiling != f->compiling_calls)
		comp_fail(r, i, "compiling_calls is not the number of its calls with a compile event");
	/* rows by compile time (the phases' sum), then first call */
	if (i && !strcmp(f->input, r->fns[i - 1].input)) {
		const struct an_comp_fn *p = &r->fns[i - 1];
		int64_t prev = comp_sat_add(comp_sat_add(p->phase_ps[0], p->phase_ps[1]), p->phase_ps[2]);

		sum = comp_sat_add(comp_sat_add(f->phase_ps[0], f->phase_ps[1]), f->phase_ps[2]);
		if (sum > prev || (sum == prev && f->first_ps > p->first_ps))
			comp_fail(r, i, "an input's functions not by compile time, then first call");
	}
}

/* What an_compile.h promises of one event, whoever it belongs to. */
static void comp_check_event(const struct an_comp_result *r, size_t j)
{
	const struct an_comp_event *e = &r->events[j];

	if (!e->input || !e->name || e->phase < 0 || e->phase >= AN_COMP_NPHASES ||
	    an_comp_phase_of(e->name) != e->phase) {
		fprintf(stderr, "compile: event %zu: no input or name, or a phase its name does not mark\n", j);
		abort();
	}
	if (e->dur_ps < 0 || e->inner_ps < 0 || (!e->inner && e->inner_ps) ||
	    (e->phase != AN_COMP_COMPILE && e->inner)) {
		fprintf(stderr, "compile: event %zu ('%s'): a negative time, or inner events where there "
			"can be none\n", j, e->name);
		abort();
	}
}

/*
 * The result of the input added twice (the full read, the command's): two
 * equal halves; in each, the functions' events in row order, then the
 * unattributed ones; the counts adding up.
 */
static void comp_check(const struct an_comp_result *r)
{
	size_t half = r->nfns / 2, evhalf = r->nevents / 2, i, j, at, calls = 0, unattributed = 0;
	int64_t unattributed_ps = 0;
	int ph;

	if (r->inputs != 2 || r->nfns % 2 || r->nevents % 2 || r->calls % 2 || r->call_events % 2 ||
	    r->compiler_events % 2 || r->unattributed % 2 || r->unselected % 2 ||
	    r->inputs_without != (r->calls || r->compiler_events ? 0u : 2u))
		comp_fail(r, r->nfns, "the counts of the input's two reads do not pair up");
	if (r->calls > r->call_events || r->nevents > r->compiler_events ||
	    (!r->opts.function && (r->unselected || r->nevents != r->compiler_events)))
		comp_fail(r, r->nfns, "more calls than call events, or events not every compiler event");
	for (ph = 0; ph < AN_COMP_NPHASES; ph++)
		if (r->phase_ps[ph] < 0 || r->phase_ps[ph] > r->total_ps)
			comp_fail(r, r->nfns, "a phase's total negative or more than the union of all phases");
	if (r->total_ps < 0 || r->host_span_ps < 0 || r->unattributed_ps < 0 ||
	    r->total_ps > comp_sat_add(comp_sat_add(r->phase_ps[0], r->phase_ps[1]), r->phase_ps[2]))
		comp_fail(r, r->nfns, "a negative total, or a union of phases over their sum");
	for (j = 0; j < r->nevents; j++)
		comp_check_event(r, j);
	for (i = 0; i < r->nfns; i++) {
		comp_check_fn(r, i);
		calls += r->fns[i].calls;
		if (strcmp(r->fns[i].input, i < half ? COMP_INPUT_A : COMP_INPUT_B))
			comp_fail(r, i, "a row under the other input's name");
	}
	if (calls > r->calls || (!r->opts.function && calls != r->calls))
		comp_fail(r, r->nfns, "calls is not the sum of the rows' calls");
	/* each half: its rows' events one after the other, then its unattributed ones */
	for (at = 0, i = 0; i < r->nfns; i++) {
		if (i == half && at > evhalf)
			comp_fail(r, i, "the first input's rows hold more than half the events");
		if (i == half)
			for (; at < evhalf; at++)
				if (r->events[at].fn)
					comp_fail(r, r->nfns, "an attributed event after the first input's rows' events");
		if (r->fns[i].first_event != at)
			comp_fail(r, i, "its events do not follow the previous row's");
		at += r->fns[i].nevents;
	}
	for (j = 0; j < r->nevents; j++) {
		const struct an_comp_event *e = &r->events[j];

		if (strcmp(e->input, j < evhalf ? COMP_INPUT_A : COMP_INPUT_B))
			comp_fail(r, r->nfns, "an event under the other input's name");
		if (j >= at && e->fn)
			comp_fail(r, r->nfns, "an attributed event after the second input's rows' events");
		if (e->fn)
			continue;
		unattributed++;
		if (!e->nested)
			unattributed_ps = comp_sat_add(unattributed_ps, e->dur_ps);
	}
	if (unattributed > r->unattributed ||
	    (!r->opts.function && (unattributed != r->unattributed || unattributed_ps != r->unattributed_ps)))
		comp_fail(r, r->nfns, "the unattributed events do not give unattributed and unattributed_ps");
	/* the command's read: the full read's rows and events, times included */
	for (i = 0; i < half; i++) {
		const struct an_comp_fn *x = &r->fns[i], *y = &r->fns[half + i];

		if (strcmp(x->name, y->name) || x->calls != y->calls || x->first_ps != y->first_ps ||
		    x->first_start_ps != y->first_start_ps || x->has_later != y->has_later ||
		    memcmp(&x->later_median_ps, &y->later_median_ps, sizeof(x->later_median_ps)) ||
		    memcmp(x->phase_ps, y->phase_ps, sizeof(x->phase_ps)) ||
		    x->compiling_calls != y->compiling_calls || x->nevents != y->nevents ||
		    y->first_event != x->first_event + evhalf)
			comp_fail(r, half + i, "the command's read differs from the full read");
	}
	for (j = 0; j < evhalf; j++)
		if (!comp_event_same(&r->events[j], &r->events[evhalf + j])) {
			fprintf(stderr, "compile: event %zu ('%s'): the command's read differs from the full read\n",
				evhalf + j, r->events[evhalf + j].name);
			abort();
		}
}

static uint64_t hash(const uint8_t *d, size_t n)
{
	uint64_t h = 1469598103934665603ULL ^ n;
	size_t i;

	for (i = 0; i < n && i < 64; i++)
		h = (h ^ d[i]) * 1099511628211ULL;
	for (i = n > 64 ? n - 64 : n; i < n; i++)
		h = (h ^ d[i]) * 1099511628211ULL;
	return h;
}

static regex_t rx_children, rx_match, rx_id;
static int have_rx;

static void compile_regexes(void)
{
	if (have_rx)
		return;
	if (regcomp(&rx_children, "fusion|^%?[a-z]", REG_EXTENDED) ||
	    regcomp(&rx_match, "^jit_", REG_EXTENDED) ||
	    regcomp(&rx_id, AN_AT_DEFAULT_ID_REGEX, REG_EXTENDED))
		abort();
	have_rx = 1;
}

/* A protobuf string as export promises it: valid UTF-8 without NUL. */
static int text_ok(ProtobufCBinaryData d)
{
	return !d.len || (utf8_valid(d.data, d.len) && !memchr(d.data, 0, d.len));
}

/* Writer fmt's whole output for plan p, into b (released by the caller); -1 out of memory. */
static int export_bytes(const struct an_exp_plan *p, enum out_exp_format fmt, struct out_bytes *b)
{
	size_t i;

	if (out_exp_head(p, fmt, "fuzz", b))
		return -1;
	for (i = 0; i < p->npieces; i++)
		if (out_exp_piece(p, i, fmt, b))
			return -1;
	return out_exp_tail(p, fmt, b);
}

/*
 * The export of the input read again by the wire reader with every event's
 * own stats left in the input (XP_EVSTATS_INPUT, as export reads), on 2
 * threads with every plane split: byte for byte plan p's (from the whole
 * model), both formats.
 */
static void export_as_read(const uint8_t *data, size_t len, const struct an_exp_opts *eo,
			   const struct an_exp_plan *p)
{
	struct xp_read_opts o = {.reader = &xp_reader_wire, .jobs = 2, .split_bytes = 1,
				 .event_stats = XP_EVSTATS_INPUT};
	struct xp_trace *t = NULL;
	struct xp_err err = {0};
	struct an_exp_plan q;
	int fmt;

	if (xp_trace_read_opts(&o, data, len, &t, &err)) {
		if (err.code != XP_ERR_NOMEM)
			fail("read with stats left in the input failed", err.msg, strlen(err.msg));
		return;
	}
	if (an_exp_plan(t, eo, &q, &err)) {
		if (err.code != XP_ERR_NOMEM)
			fail("export plan of the read with stats left in the input failed", err.msg,
			     strlen(err.msg));
		xp_trace_free(t);
		return;
	}
	for (fmt = 0; fmt < 2; fmt++) {
		enum out_exp_format f = fmt ? OUT_EXP_PFTRACE : OUT_EXP_JSON;
		struct out_bytes a = {0}, b = {0};

		if (!export_bytes(p, f, &a) && !export_bytes(&q, f, &b) &&
		    (a.n != b.n || (a.n && memcmp(a.p, b.p, a.n))))
			fail("export with stats left in the input differs", (const char *)b.p, b.n);
		out_bytes_release(&a);
		out_bytes_release(&b);
	}
	an_exp_plan_release(&q);
	xp_trace_free(t);
}

static void pf_check(const struct out_bytes *b, uint64_t exported);

static int want_none(const char *name, void *ctx)
{
	(void)name;
	(void)ctx;
	return 0;
}

/* Both export writers on plan p, their outputs held to out_export.h's promises. */
static void export_check(const struct an_exp_plan *p)
{
	struct out_bytes b = {0};
	size_t i, x = 0;
	cJSON *doc, *ev;

	if (!p->exported)
		return;
	if (out_exp_head(p, OUT_EXP_JSON, "fuzz", &b))
		abort();
	for (i = 0; i < p->npieces; i++)
		if (out_exp_piece(p, i, OUT_EXP_JSON, &b))
			abort();
	if (out_exp_tail(p, OUT_EXP_JSON, &b))
		abort();
	if (!utf8_valid(b.p, b.n))
		fail("export: JSON is not valid UTF-8", (const char *)b.p, b.n);
	out_bytes_put(&b, "", 1);
	if (!(doc = cJSON_Parse((const char *)b.p)))
		fail("export: JSON does not parse", (const char *)b.p, b.n);
	cJSON_ArrayForEach(ev, cJSON_GetObjectItem(doc, "traceEvents")) {
		const char *ph = cJSON_GetStringValue(cJSON_GetObjectItem(ev, "ph"));

		x += ph && !strcmp(ph, "X");
	}
	cJSON_Delete(doc);
	if (x != p->exported)
		fail("export: JSON X events are not the exported count", (const char *)b.p, b.n);
	b.n = 0;
	if (out_exp_head(p, OUT_EXP_PFTRACE, "fuzz", &b))
		abort();
	for (i = 0; i < p->npieces; i++)
		if (out_exp_piece(p, i, OUT_EXP_PFTRACE, &b))
			abort();
	pf_check(&b, p->exported);
	out_bytes_release(&b);
}

/* A .pftrace held to out_export.h's promises: it unpacks, a begin and an end per exported event, valid strings. */
static void pf_check(const struct out_bytes *b, uint64_t exported)
{
	size_t i, begins = 0, ends = 0;
	Perfetto__Protos__Trace *tr;

	if (!(tr = perfetto__protos__trace__unpack(NULL, b->n, b->p)))
		fail("export: the .pftrace does not unpack", "", 0);
	for (i = 0; i < tr->n_packet; i++) {
		const Perfetto__Protos__TracePacket *pk = tr->packet[i];
		size_t j;

		if (pk->track_event) {
			begins += pk->track_event->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN;
			ends += pk->track_event->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END;
			for (j = 0; j < pk->track_event->n_debug_annotations; j++) {
				const Perfetto__Protos__DebugAnnotation *a = pk->track_event->debug_annotations[j];

				if (a->has_string_value && !text_ok(a->string_value))
					fail("export: an annotation is not valid UTF-8", (const char *)a->string_value.data,
					     a->string_value.len);
			}
		}
		if (pk->track_descriptor && pk->track_descriptor->has_name &&
		    !text_ok(pk->track_descriptor->name))
			fail("export: a track name is not valid UTF-8", "", 0);
		if (pk->interned_data) {
			const Perfetto__Protos__InternedData *id = pk->interned_data;

			for (j = 0; j < id->n_event_names; j++)
				if (!text_ok(id->event_names[j]->name))
					fail("export: an event name is not valid UTF-8", "", 0);
			for (j = 0; j < id->n_debug_annotation_string_values; j++)
				if (!text_ok(id->debug_annotation_string_values[j]->str))
					fail("export: an interned string is not valid UTF-8", "", 0);
		}
	}
	if (begins != exported || ends != exported)
		fail("export: begins and ends are not one per exported event", "", 0);
	perfetto__protos__trace__free_unpacked(tr, NULL);
}

/*
 * The .pftrace of trace t plane by plane, as export streams it: planes in
 * an_exp_plane_order (by their bytes in the input), each loaded if deferred
 * and planned alone, its sequences after the planes before it, times from
 * zero_ns. 0, or -1: out of memory, a plan that does not fit a .pftrace,
 * or (limit_ok: the whole plan failed so) a plane's own events too far apart
 * for one picosecond timeline (XP_ERR_LIMIT); any other failure fails the run.
 */
static int pf_by_planes(struct xp_trace *t, int64_t zero_ns, int limit_ok, struct out_bytes *b, uint64_t *exported)
{
	struct an_exp_opts o = {.have_plane = 1, .have_clock_zero = 1, .clock_zero_ns = zero_ns};
	struct xp_err err = {0};
	int64_t *pids = NULL;
	size_t *order = malloc((t->nplanes + 1) * sizeof(*order)), k, i;
	int ret = -1;

	*exported = 0;
	if (!order || an_exp_pids(t, &pids))
		goto out;
	an_exp_plane_order(t, order);
	o.pids = pids;
	for (k = 0; k < t->nplanes; k++) {
		struct an_exp_plan p;

		if (xp_trace_load_plane(t, order[k], &err) || an_exp_plan(t, (o.plane = order[k], &o), &p, &err)) {
			if (err.code != XP_ERR_NOMEM && !(limit_ok && err.code == XP_ERR_LIMIT))
				fail("export by planes: a plane failed where the whole read and plan did not", err.msg,
				     strlen(err.msg));
			goto out;
		}
		o.first_track += p.npiece_tracks;
		*exported += p.exported;
		if (p.exported && p.origin_ns < zero_ns)
			fail("export by planes: a plane starts before the whole plan's clock zero", "", 0);
		if (p.exported && out_exp_pf_fits(&p) != OUT_EXP_PF_FITS) {
			an_exp_plan_release(&p);	/* export refuses it (exit 3) */
			goto out;
		}
		/* the writers fail only out of memory, which aborts */
		if (p.exported && out_exp_head(&p, OUT_EXP_PFTRACE, "fuzz", b))
			abort();
		for (i = 0; p.exported && i < p.npieces; i++)
			if (out_exp_piece(&p, i, OUT_EXP_PFTRACE, b))
				abort();
		an_exp_plan_release(&p);
	}
	ret = 0;
out:
	free(order);
	free(pids);
	return ret;
}

/*
 * export's stream: the .pftrace written plane by plane, from the model read
 * whole and from a read that deferred every plane (the wire reader, stats
 * left in the input, as export reads a file it streams), byte for byte the
 * same, one begin and end per event the whole plan exports (whole; NULL
 * where planes too far apart for one picosecond timeline failed it: a
 * .pftrace of the whole trace holds them).
 */
static void export_by_planes(const uint8_t *data, size_t len, struct xp_trace *t, const struct an_exp_plan *whole,
			     int64_t zero_ns)
{
	struct xp_read_opts o = {.reader = &xp_reader_wire, .jobs = 2, .split_bytes = 1,
				 .event_stats = XP_EVSTATS_INPUT, .want_plane = want_none};
	struct xp_trace *d = NULL;
	struct xp_err err = {0};
	struct out_bytes a = {0}, b = {0};
	uint64_t na, nb;

	if (pf_by_planes(t, zero_ns, !whole, &a, &na))
		goto out;
	if (whole && na != whole->exported)
		fail("export by planes: not the whole plan's events", "", 0);
	pf_check(&a, na);
	if (xp_trace_read_opts(&o, data, len, &d, &err))
		fail("a read deferring every plane failed", err.msg, strlen(err.msg));
	if (pf_by_planes(d, zero_ns, !whole, &b, &nb))
		fail("export by planes: a deferred plane failed where the whole read did not", "", 0);
	if (a.n != b.n || (a.n && memcmp(a.p, b.p, a.n)))
		fail("export by planes: deferred planes write other bytes", (const char *)b.p, b.n);
out:
	out_bytes_release(&a);
	out_bytes_release(&b);
	xp_trace_free(d);
}

/* The report's page from these results, held to out_report.h's promises. */
static void report_check(const struct an_fn_result *fr, const struct an_ov_result *ov,
			 const struct an_rep_timeline *tl, const struct xp_notes *notes)
{
	static const char *const tags[] = {"!DOCTYPE", "html", "head", "meta", "title", "style", "body",
					   "header", "h1", "h2", "p", "section", "table", "tr", "th", "td",
					   "svg", "rect", "text", "line", "circle", "polyline", "div", "span",
					   "i", "ul", "li", "footer", NULL};
	struct out_rep_input in = {"fuzz\xff<b>input</b>", 1, 0};
	struct out_report r = {0};
	char *buf = NULL;
	size_t n = 0, i, k;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		abort();
	r.version = "fuzz";
	r.inputs = &in;
	r.ninputs = 1;
	r.functions = fr;
	r.overview = ov;
	r.timeline = tl;
	r.timeline_input = in.path;
	r.notes = notes;
	r.top = 5;
	if (out_report(f, &r))
		abort();
	fclose(f);
	if (!utf8_valid((const unsigned char *)buf, n))
		fail("report: the page is not valid UTF-8", buf, n);
	for (i = 0; i < n; i++) {
		if (buf[i] != '<')
			continue;
		i += buf[i + 1] == '/';
		for (k = 0; tags[k]; k++) {
			size_t len = strlen(tags[k]);

			if (!strncmp(buf + i + 1, tags[k], len) && (buf[i + 1 + len] == ' ' || buf[i + 1 + len] == '>' ||
								    buf[i + 1 + len] == '/'))
				break;
		}
		if (!tags[k])
			fail("report: a '<' opens no tag the writer writes (a name got through)", buf + i,
			     n - i > 200 ? 200 : n - i);
	}
	free(buf);
}

/* JSON of planes or events into a malloc'd buffer (*n bytes); NULL when the formatter fails. */
static char *json_of(const struct an_planes *pl, struct an_ev_result *er, const struct xp_notes *notes,
		     size_t *n)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, n);
	int r;

	if (!f)
		abort();
	r = pl ? out_planes(f, OUT_JSON, "in", pl, notes, 0) : out_events(f, OUT_JSON, er, notes, 0);
	if (fclose(f) || r) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * The input read again (by the reader that accepted it) as planes and events
 * read it: each plane described or counted on the thread that read it
 * (split among threads by lines), or after the read where the reader does
 * not call plane_read (protobuf-c), its events then released; planes with
 * pieces also reads every plane in pieces (xp_read_opts.line_events), read
 * again whole where their summaries do not decide; the same JSON as from
 * the whole model, want.
 */
static void check_as_read(const struct xp_reader *reader, const uint8_t *data, size_t len,
			  const struct an_ev_opts *eo, const char *want, size_t want_n, int events, int pieces)
{
	struct xp_read_opts o = {.reader = reader, .jobs = 3, .split_bytes = 1,
				 .event_stats = XP_EVSTATS_NONE, .release_events = 1};
	struct xp_trace *t = NULL;
	struct xp_err err = {0};
	struct xp_notes notes = {0};
	struct an_planes pl = {0};
	struct an_ev_result er;
	char *got = NULL;
	size_t n = 0;

	o.plane_read = events ? an_ev_plane_read : an_planes_plane_read;
	o.plane_read_ctx = (void *)eo;
	o.plane_user_free = events ? an_ev_user_free : an_planes_user_free;
	if (pieces && !events) {	/* every plane with lines read in pieces (the wire reader) */
		o.line_events = an_planes_line_events;
		o.line_user_size = sizeof(struct xp_line_spans);
		o.pieces_line_bytes = 1;
	}
	an_ev_init(&er);
	if (xp_trace_read_opts(&o, data, len, &t, &err)) {
		if (err.code != XP_ERR_NOMEM)
			fail("read with plane_read failed", err.msg, strlen(err.msg));
		goto out;
	}
	if (events ? an_ev_add(&er, t, eo, &err) || an_ev_add(&er, t, eo, &err) || an_ev_finish(&er, &err)
		   : an_planes_describe(t, &pl, &err)) {
		if (err.code != XP_ERR_NOMEM)
			fail("analysis of planes read apart failed", err.msg, strlen(err.msg));
		goto out;
	}
	got = json_of(events ? NULL : &pl, &er, &notes, &n);
	if (got && want && (n != want_n || memcmp(got, want, n)))
		fail(events ? "events counted as read differ" : "planes described as read differ", got, n);
out:
	free(got);
	an_planes_release(&pl);
	an_ev_release(&er);
	xp_trace_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static const char *const devices[] = {NULL, NULL, "gpu", "TPU:0", "GPU:1", "custom"};
	static const enum out_mode modes[] = {OUT_TABLE, OUT_JSON, OUT_CSV, OUT_TSV};
	uint64_t h = hash(data, len);
	const struct xp_reader *reader = h & 1 ? &xp_reader_wire : &xp_reader_protobuf_c;
	struct an_exec_opts xo = {0};
	struct an_fn_opts fo = {0};
	struct an_at_opts ao = {0};
	struct an_compat_opts co = {0};
	struct an_compat_file info;
	struct an_fn_result fr;
	struct an_at_result ar, cr;
	struct an_exec_list l;
	struct an_planes pl = {0};
	struct xp_notes notes = {0};
	struct xp_trace *t = NULL;
	struct xp_err err = {0};
	struct model_diff d;
	size_t m;
	int colour = (h >> 20) & 1;

	compile_regexes();
	if (xp_trace_read(reader, data, len, &t, &err))
		return 0;
	if (model_check(t, &d)) {
		fprintf(stderr, "%s: broken model: %s\n", reader->name, d.msg);
		abort();
	}
	xo.device = devices[(h >> 1) % 6];
	xo.children = (h >> 4) % 4 == 0 ? &rx_children : NULL;
	xo.min_dur_ps = (h >> 6) % 4 == 0 ? 1000000 : 0;
	fo.time = xo.children ? AN_TIME_CHILDREN : (h >> 8) & 1 ? AN_TIME_SPAN : AN_TIME_BUSY;
	fo.trim = (h >> 9) % 3;
	fo.per_device = (h >> 11) & 1;
	fo.match = (h >> 12) % 4 == 0 ? &rx_match : NULL;
	ao.id_re = &rx_id;
	ao.trim = (h >> 14) % 3;
	ao.all_devices = (h >> 16) & 1;
	ao.time = fo.time;
	ao.alpha = 0.05;
	if (getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "reader %s, device %s, children %d, min-duration %lld, time %d, trim %zu, "
			"per-device %d, match %d, autotune trim %zu all-devices %d, colour %d\n",
			reader->name, xo.device ? xo.device : "(any)", xo.children != NULL,
			(long long)xo.min_dur_ps, (int)fo.time, fo.trim, fo.per_device, fo.match != NULL,
			ao.trim, ao.all_devices, colour);

	if (cmd_note_counts(&notes, "fuzz\xff\n\"input", t))
		abort();
	/* functions: the same input pooled twice, as two inputs would be */
	an_fn_init(&fr, &fo);
	an_at_init(&ar, &ao);
	if (!an_exec_find(t, &xo, &l, &err)) {
		if (an_fn_add(&fr, &l, &err) || an_fn_add(&fr, &l, &err) || an_at_add(&ar, &l, &err))
			abort();
	} else if (err.code != XP_ERR_NOMEM) {
		fprintf(stderr, "an_exec_find: %s\n", err.msg);
		abort();
	}
	an_exec_list_release(&l);
	an_fn_finish(&fr, &err);
	an_at_finish(&ar, &err);
	for (m = 0; m < 4; m++) {
		FORMAT(modes[m], colour && !m, out_functions(f, modes[m], &fr, &notes, colour && !m));
		FORMAT(modes[m], colour && !m, out_autotune(f, modes[m], &ar, colour && !m));
	}
	an_fn_release(&fr);
	an_at_release(&ar);

	/* --compat=ejkernel */
	co.device = xo.device ? xo.device : "gpu";
	co.children = xo.children;
	co.id_re = &rx_id;
	ao.trim = 1;
	ao.all_devices = 0;
	an_at_init(&cr, &ao);
	if (!an_compat_add(t, &co, &cr, cr.inputs++, &info, &err)) {
		an_at_finish(&cr, &err);
		FORMAT(OUT_JSON, 0, out_autotune(f, OUT_JSON, &cr, 0));
		FORMAT(OUT_TABLE, 0, out_autotune(f, OUT_TABLE, &cr, 0));
	}
	an_at_release(&cr);

	/* kernels: by name, config or function; the input pooled twice through a merge */
	{
		struct an_kern_opts ko = {.by = (enum an_kern_by)((h >> 22) % 3), .device = xo.device};
		struct out_kern_opts oo = {.top = (h >> 24) % 3, .copies = (h >> 26) & 1};
		struct an_kern_result kr, one;

		an_kern_init(&kr, &ko);
		an_kern_init(&one, &ko);
		if (an_kern_add(&one, t, &err) || an_kern_merge(&kr, &one, &err)) {
			if (err.code != XP_ERR_NOMEM && err.code != XP_ERR_FORMAT)
				abort();
		} else {
			an_kern_release(&one);
			an_kern_init(&one, &ko);
			if (!an_kern_add(&one, t, &err) && an_kern_merge(&kr, &one, &err))
				abort();
			an_kern_finish(&kr, &err);
			for (m = 0; m < 4; m++)
				FORMAT(modes[m], colour && !m, out_kernels(f, modes[m], &kr, &oo, &notes, colour && !m));
		}
		an_kern_release(&one);
		an_kern_release(&kr);
	}

	/* ops: by op or category, each sort, --top; the input pooled twice through a merge */
	{
		struct an_ops_opts po = {.device = xo.device, .by_category = (h >> 34) & 1,
					 .sort = (enum an_ops_sort)((h >> 35) % 4)};
		size_t top = (h >> 37) % 3;
		struct an_ops_result pr, one;

		an_ops_init(&pr, &po);
		an_ops_init(&one, &po);
		if (an_ops_add(&one, t, &err) || an_ops_merge(&pr, &one, &err)) {
			if (err.code != XP_ERR_NOMEM && err.code != XP_ERR_FORMAT)
				abort();
		} else {
			an_ops_release(&one);
			an_ops_init(&one, &po);
			if (!an_ops_add(&one, t, &err) && an_ops_merge(&pr, &one, &err))
				abort();
			if (an_ops_finish(&pr, &err))
				abort();
			for (m = 0; m < 4; m++)
				FORMAT(modes[m], colour && !m, out_ops(f, modes[m], &pr, top, &notes, colour && !m));
		}
		an_ops_release(&one);
		an_ops_release(&pr);
	}

	/* export: both writers over a plan with options from the hash; JSON must parse and be valid
	 * UTF-8 with one X event per exported event, the protobuf must unpack with a begin and an
	 * end per event and only valid UTF-8 in its strings */
	{
		static const char *const exp_dev[] = {NULL, NULL, "gpu", "host", "TPU:0"};
		struct an_exp_opts eo = {.device = exp_dev[(h >> 40) % 5]};
		struct an_exp_plan ep;
		struct xp_err eerr = {0};

		if ((h >> 43) % 4 == 0) {
			eo.have_from = eo.have_to = 1;
			eo.from_ps = (int64_t)((h >> 45) % 4) * 1000000;
			eo.to_ps = eo.from_ps + 2000000;
		}
		eo.max_events = (h >> 47) % 4 == 0 ? (h >> 49) % 7 : 0;
		if (an_exp_plan(t, &eo, &ep, &eerr)) {
			if (eerr.code != XP_ERR_NOMEM && eerr.code != XP_ERR_LIMIT)
				abort();
			if (eerr.code == XP_ERR_LIMIT && reader == &xp_reader_wire && !eo.device && !eo.have_from &&
			    !eo.max_events)
				export_by_planes(data, len, t, NULL, an_exp_clock_zero(t));
		} else {
			export_check(&ep);
			if (reader == &xp_reader_wire)
				export_as_read(data, len, &eo, &ep);
			if (reader == &xp_reader_wire && !eo.device && !eo.have_from && !eo.max_events)
				export_by_planes(data, len, t, &ep, an_exp_clock_zero(t));
			an_exp_plan_release(&ep);
		}
	}

	/* planes, and the same described as each plane is read */
	if (an_planes_describe(t, &pl, &err))
		abort();
	for (m = 0; m < 4; m++)
		FORMAT(modes[m], colour && !m,
		       out_planes(f, modes[m], "fuzz\x01input\xc3", &pl, &notes, colour && !m));
	{
		struct xp_notes none = {0};
		size_t n = 0;
		char *want = json_of(&pl, NULL, &none, &n);

		if (want)
			check_as_read(reader, data, len, NULL, want, n, 0, (h >> 41) & 1);
		free(want);
	}
	an_planes_release(&pl);

	/* events: the names table (the input pooled twice), then --list in each of its modes */
	{
		static const char *const ev_planes[] = {NULL, NULL, "gpu", "host", "TPU:0"};
		static const char *const ev_lines[] = {NULL, NULL, "Stream", "XLA Ops"};
		struct an_ev_opts eo = {.plane = ev_planes[(h >> 27) % 5], .line = ev_lines[(h >> 30) % 4],
					.match = (h >> 32) % 4 == 0 ? &rx_match : NULL};
		struct an_ev_result er;

		an_ev_init(&er);
		if (an_ev_add(&er, t, &eo, &err) || an_ev_add(&er, t, &eo, &err) || an_ev_finish(&er, &err)) {
			if (err.code != XP_ERR_NOMEM)
				abort();
		} else {
			struct xp_notes none = {0};
			size_t n = 0;
			char *want = json_of(NULL, &er, &none, &n);

			for (m = 0; m < 4; m++)
				FORMAT(modes[m], colour && !m, out_events(f, modes[m], &er, &notes, colour && !m));
			if (want)
				check_as_read(reader, data, len, &eo, want, n, 1, 0);
			free(want);
		}
		an_ev_release(&er);
		for (m = 1; m < 4; m++) {
			char *buf = NULL;
			size_t n = 0;
			FILE *f = open_memstream(&buf, &n);
			int r;

			if (!f)
				abort();
			r = list_events(f, modes[m], t, &eo);
			if (fclose(f) || r)
				fail("events --list failed", buf ? buf : "", buf ? n : 0);
			if (modes[m] == OUT_JSON)
				check_json_lines(buf, n);
			else
				check_output(modes[m], 0, buf, n);
			free(buf);
		}
	}

	/* overview: the input pooled twice (devices by name) */
	{
		struct an_ov_result orr;
		size_t added;

		an_ov_init(&orr);
		if (an_ov_add(&orr, t, xo.device, &added, &err) || an_ov_add(&orr, t, xo.device, &added, &err) ||
		    an_ov_finish(&orr, &err)) {
			if (err.code != XP_ERR_NOMEM)
				abort();
		} else {
			for (m = 0; m < 4; m++)
				FORMAT(modes[m], colour && !m, out_overview(f, modes[m], &orr, &notes, colour && !m));
		}
		an_ov_release(&orr);
	}

	/*
	 * report: functions, the overview and the timeline strips of the input through the HTML
	 * writer; the page must be valid UTF-8 and every '<' in it open a tag the writer writes
	 */
	{
		struct an_ov_result orr;
		struct an_fn_result rfr;
		struct an_exec_list rl;
		struct an_rep_timeline tl = {0};
		struct xp_err rerr = {0};
		size_t added;

		an_ov_init(&orr);
		an_fn_init(&rfr, &fo);
		if (!an_exec_find(t, &xo, &rl, &rerr)) {
			if (an_fn_add(&rfr, &rl, &rerr) || an_rep_timeline(&rl, (h >> 50) % 2 ? 50 : 7, &tl, &rerr))
				if (rerr.code != XP_ERR_NOMEM)
					abort();
			an_exec_list_release(&rl);
		}
		if (!an_ov_add(&orr, t, xo.device, &added, &rerr))
			an_ov_finish(&orr, &rerr);
		an_fn_finish(&rfr, &rerr);
		report_check(&rfr, &orr, &tl, &notes);
		an_rep_timeline_release(&tl);
		an_fn_release(&rfr);
		an_ov_release(&orr);
	}

	/*
	 * memory: --peak, --timeline and --memory from the hash; the input added twice, as
	 * the harness read it and as the command reads it (freed at once: rows copy strings),
	 * straight or through a merge
	 */
	{
		static const char *const mem_pats[] = {NULL, NULL, NULL, "bfc", "GPU_0", "index_on_host:0"};
		static const enum out_mem_view views[] = {OUT_MEM_SUMMARY, OUT_MEM_TIMELINE, OUT_MEM_PEAK};
		struct an_mem_opts mo = {.peak = (h >> 40) & 1, .timeline = (h >> 41) & 1,
					 .memory = mem_pats[(h >> 42) % 6]};
		struct out_mem_opts oo = {.show_input = (h >> 45) & 1, .top = (h >> 46) % 3};
		struct an_mem_result mr;
		struct xp_trace *tc = NULL;
		struct xp_err me = {0};	/* err may hold an earlier analysis's error: xp_err_set keeps the first */
		size_t v, nviews;
		int added = 0, merged = (h >> 49) & 1;

		if (getenv("FUZZ_VERBOSE"))
			fprintf(stderr, "memory: peak %d, timeline %d, memory %s, show-input %d, top %zu, merged %d\n",
				mo.peak, mo.timeline, mo.memory ? mo.memory : "(any)", oo.show_input, oo.top, merged);
		/* it reads less than the full read, which accepted the input: it must accept it too */
		if (mem_command_read(reader, data, len, h, &tc, &me) && me.code != XP_ERR_NOMEM) {
			fprintf(stderr, "%s: the full read accepts, memory's read: %s\n", reader->name, me.msg);
			abort();
		}
		an_mem_init(&mr, &mo);
		/* XP_ERR_LIMIT: host planes too far apart for one picosecond timeline */
		if (tc) {
			added = !mem_add(&mr, merged, t, MEM_INPUT_A, &me) && !mem_add(&mr, merged, tc, MEM_INPUT_B, &me);
			if (!added && me.code != XP_ERR_NOMEM && me.code != XP_ERR_LIMIT)
				abort();
		}
		xp_trace_free(tc);
		if (added) {
			mem_check(&mr);
			for (m = 0; m < 4; m++) {
				/*
				 * Text and JSON give every list the options ask for in one; CSV and TSV
				 * one table a view, the peak's only with --peak, as the command asks.
				 */
				nviews = modes[m] == OUT_TABLE || modes[m] == OUT_JSON ? 1 : mo.peak ? 3 : 2;
				for (v = 0; v < nviews; v++) {
					oo.view = views[v];
					FORMAT(modes[m], colour && !m,
					       out_memory(f, modes[m], &mr, &oo, &notes, colour && !m));
				}
			}
		}
		an_mem_release(&mr);
	}

	/*
	 * compile: --function and --top from the hash; the input added twice, as the
	 * harness read it and as the command reads it, straight or through a merge
	 */
	{
		static const char *const comp_pats[] = {NULL, NULL, "f", "JIT_", ")"};
		struct an_comp_opts po = {.function = comp_pats[(h >> 50) % 5]};
		struct out_comp_opts oo = {.show_input = (h >> 53) & 1, .top = (h >> 54) % 3};
		struct an_comp_result pr;
		struct xp_trace *tc = NULL;
		struct xp_err pe = {0};
		int added = 0, merged = (h >> 56) & 1, ev;

		if (getenv("FUZZ_VERBOSE"))
			fprintf(stderr, "compile: function %s, show-input %d, top %zu, merged %d\n",
				po.function ? po.function : "(any)", oo.show_input, oo.top, merged);
		if (comp_command_read(reader, data, len, h, &tc, &pe) && pe.code != XP_ERR_NOMEM) {
			fprintf(stderr, "%s: the full read accepts, compile's read: %s\n", reader->name, pe.msg);
			abort();
		}
		an_comp_init(&pr, &po);
		/* XP_ERR_LIMIT: host planes too far apart, for both reads alike */
		if (tc) {
			if (comp_add(&pr, merged, t, COMP_INPUT_A, &pe)) {
				if (pe.code != XP_ERR_NOMEM && pe.code != XP_ERR_LIMIT)
					abort();
			} else if (comp_add(&pr, merged, tc, COMP_INPUT_B, &pe)) {
				if (pe.code != XP_ERR_NOMEM) {
					fprintf(stderr, "compile: the full read is added, the command's read: %s\n",
						pe.msg);
					abort();
				}
			} else {
				added = 1;
			}
		}
		xp_trace_free(tc);
		if (added) {
			comp_check(&pr);
			for (m = 0; m < 4; m++)
				/* CSV and TSV: the functions, then the events (--events) */
				for (ev = 0; ev < (modes[m] == OUT_CSV || modes[m] == OUT_TSV ? 2 : 1); ev++) {
					oo.events = ev;
					FORMAT(modes[m], colour && !m,
					       out_compile(f, modes[m], &pr, &oo, &notes, colour && !m));
				}
		}
		an_comp_release(&pr);
	}

	xp_notes_release(&notes);
	xp_trace_free(t);
	return 0;
}

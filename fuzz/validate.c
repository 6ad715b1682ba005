/* SPDX-License-Identifier: Apache-2.0 */
/* The pipeline harness's validators of outputs and results (validate.h). */
#include "validate.h"

#include <ctype.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "out_export.h"
#include "out_report.h"
#include "perfetto_trace.pb-c.h"

void val_fail(const char *what, const char *out, size_t n)
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

void val_output(enum out_mode mode, int colour, const char *out, size_t n)
{
	size_t i;

	switch (mode) {
	case OUT_JSON: {
		cJSON *doc = cJSON_ParseWithLength(out, n);

		if (!doc)
			val_fail("JSON output does not parse", out, n);
		cJSON_Delete(doc);
		if (!utf8_valid((const unsigned char *)out, n))
			val_fail("JSON output is not valid UTF-8", out, n);
		break;
	}
	case OUT_CSV:
		if (csv_check(out, n) < 1)
			val_fail("CSV output is malformed", out, n);
		break;
	case OUT_TSV:
		if (tsv_check(out, n) < 0)
			val_fail("TSV output is malformed", out, n);
		break;
	case OUT_TABLE:
		if (!utf8_valid((const unsigned char *)out, n))
			val_fail("table output is not valid UTF-8", out, n);
		for (i = 0; i < n; i++)
			if (((unsigned char)out[i] < 0x20 && out[i] != '\n' && !(colour && out[i] == 0x1b)) ||
			    out[i] == 0x7f)
				val_fail("table output holds a control character", out, n);
		break;
	}
}

/* events --list's JSON lines: each line one document. */
void val_json_lines(const char *out, size_t n)
{
	size_t i = 0, e;

	if (!utf8_valid((const unsigned char *)out, n))
		val_fail("JSON lines are not valid UTF-8", out, n);
	for (; i < n; i = e + 1) {
		cJSON *doc;

		for (e = i; e < n && out[e] != '\n'; e++)
			;
		if (e == n)
			val_fail("JSON lines: the last line has no newline", out, n);
		if (!(doc = cJSON_ParseWithLength(out + i, e - i)))
			val_fail("JSON lines: a line does not parse", out + i, e - i);
		cJSON_Delete(doc);
	}
}

/* A promise of analysis's result broken by its row i of n, called name (i == n: by the result as a whole). */
static void row_fail(const char *analysis, const char *row, size_t i, size_t n, const char *name,
		     const char *what) __attribute__((noreturn));

static void row_fail(const char *analysis, const char *row, size_t i, size_t n, const char *name,
		     const char *what)
{
	if (i < n)
		fprintf(stderr, "%s: %s %zu of %zu ('%s'): %s\n", analysis, row, i, n, name ? name : "(null)", what);
	else
		fprintf(stderr, "%s: %s\n", analysis, what);
	abort();
}

/* A promise of an_memory.h broken by row i of r (r->nrows: by the result as a whole). */
static void mem_fail(const struct an_mem_result *r, size_t i, const char *what)
{
	row_fail("memory", "row", i, r->nrows, i < r->nrows ? r->rows[i].memory_id : NULL, what);
}

static int str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static uint64_t mem_sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
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
void val_memory(const struct an_mem_result *r)
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

/* A promise of an_compile.h broken by function row i of r (r->nfns: by the result as a whole). */
static void comp_fail(const struct an_comp_result *r, size_t i, const char *what)
{
	row_fail("compile", "function row", i, r->nfns, i < r->nfns ? r->fns[i].name : NULL, what);
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
	       x->dur_ps == y->dur_ps && x->inner == y->inner && x->inner_ps == y->inner_ps &&
	       x->has_program == y->has_program && x->program_id == y->program_id;
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
	if (!f->has_program && f->program_id)
		comp_fail(r, i, "a program id on a row of unknown program");
	for (j = 0; j < i; j++)
		if (r->fns[j].input == f->input && !strcmp(r->fns[j].name, f->name) &&
		    r->fns[j].has_program == f->has_program && r->fns[j].program_id == f->program_id)
			comp_fail(r, i, "a second row of one function, program and input");
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

		if (!e->fn || strcmp(e->fn, f->name) || !e->input || strcmp(e->input, f->input) ||
		    e->has_program != f->has_program || e->program_id != f->program_id)
			comp_fail(r, i, "an event of another function, program or input among its events");
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
void val_compile(const struct an_comp_result *r)
{
	size_t half = r->nfns / 2, evhalf = r->nevents / 2, i, j, at, calls = 0, unattributed = 0, known = 0;
	int64_t unattributed_ps = 0;
	int ph;

	if (r->inputs != 2 || r->nfns % 2 || r->nevents % 2 || r->calls % 2 || r->call_events % 2 ||
	    r->calls_program % 2 || r->calls_ambiguous % 2 ||
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
		known += r->fns[i].has_program ? r->fns[i].calls : 0;
		if (strcmp(r->fns[i].input, i < half ? COMP_INPUT_A : COMP_INPUT_B))
			comp_fail(r, i, "a row under the other input's name");
	}
	if (calls > r->calls || (!r->opts.function && calls != r->calls))
		comp_fail(r, r->nfns, "calls is not the sum of the rows' calls");
	if (known > r->calls_program || (!r->opts.function && known != r->calls_program) ||
	    r->calls_ambiguous > r->calls - r->calls_program)
		comp_fail(r, r->nfns, "calls_program is not the sum of the known rows' calls, or too many ambiguous");
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

		if (strcmp(x->name, y->name) || x->has_program != y->has_program || x->program_id != y->program_id ||
		    x->calls != y->calls || x->first_ps != y->first_ps ||
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

/* A protobuf string as export promises it: valid UTF-8 without NUL. */
static int text_ok(ProtobufCBinaryData d)
{
	return !d.len || (utf8_valid(d.data, d.len) && !memchr(d.data, 0, d.len));
}


/* Both export writers on plan p, their outputs held to out_export.h's promises. */
void val_export(const struct an_exp_plan *p)
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
		val_fail("export: JSON is not valid UTF-8", (const char *)b.p, b.n);
	out_bytes_put(&b, "", 1);
	if (!(doc = cJSON_Parse((const char *)b.p)))
		val_fail("export: JSON does not parse", (const char *)b.p, b.n);
	cJSON_ArrayForEach(ev, cJSON_GetObjectItem(doc, "traceEvents")) {
		const char *ph = cJSON_GetStringValue(cJSON_GetObjectItem(ev, "ph"));

		x += ph && (!strcmp(ph, "X") || !strcmp(ph, "C"));	/* slices and counter samples */
	}
	cJSON_Delete(doc);
	if (x != p->exported)
		val_fail("export: JSON X and C events are not the exported count", (const char *)b.p, b.n);
	b.n = 0;
	if (out_exp_head(p, OUT_EXP_PFTRACE, "fuzz", &b))
		abort();
	for (i = 0; i < p->npieces; i++)
		if (out_exp_piece(p, i, OUT_EXP_PFTRACE, &b))
			abort();
	val_pftrace(&b, p->exported);
	out_bytes_release(&b);
}

/*
 * t (planned as p with eo) as two hosts on one timeline, as export writes
 * a run's: a common origin 1 ns before p's, names "h1:" and "h2:", the
 * second's pids past the first's, its planes after the first's in the track
 * uuids. The JSON document parses, with twice p's events and each host's
 * processes; the .pftrace holds to val_pftrace with twice the events and
 * describes no track twice.
 */
void val_export_hosts(const struct xp_trace *t, const struct an_exp_opts *eo, const struct an_exp_plan *p)
{
	struct an_exp_plan q[2];
	const struct an_exp_plan *pp[2] = {&q[0], &q[1]};
	struct out_bytes b = {0};
	int64_t *pids[2] = {NULL, NULL}, stride = 0;
	uint64_t *uuids = NULL;
	size_t i, k, x = 0, nq = 0, procs[2] = {0, 0}, nu = 0;
	struct xp_err err = {0};
	Perfetto__Protos__Trace *tr;
	cJSON *doc, *ev;

	if (!p->exported || p->origin_ns == INT64_MIN)
		return;
	for (k = 0; k < 2; k++)
		if (an_exp_pids(t, &pids[k]))
			abort();
	for (i = 0; i < t->nplanes; i++)
		if (pids[0][i] >= stride)
			stride = pids[0][i] + 1;
	for (k = 0; k < 2; k++) {
		struct an_exp_opts o = *eo;

		for (i = 0; i < t->nplanes; i++)
			pids[k][i] += (int64_t)k * stride;
		o.pids = pids[k];
		o.have_origin = 1;
		o.origin_ns = p->origin_ns - 1;
		o.origin_sub_ps = p->origin_sub_ps;
		o.name_prefix = k ? "h2" : "h1";
		o.plane_base = k * t->nplanes;
		o.first_track = k ? q[0].npiece_tracks : 0;
		o.have_clock_zero = 1;
		o.clock_zero_ns = p->clock_zero_ns;
		if (an_exp_plan(t, &o, &q[k], &err)) {
			if (err.code != XP_ERR_NOMEM && err.code != XP_ERR_LIMIT)
				val_fail("export as two hosts: a plan failed where one did not", err.msg, strlen(err.msg));
			goto out;
		}
		nq++;
		if (q[k].exported != p->exported)
			val_fail("export as two hosts: a host exports other events than the trace", "", 0);
	}
	if (out_exp_head_json(pp, 2, "fuzz", &b))
		abort();
	for (k = 0; k < 2; k++)
		for (i = 0; i < q[k].npieces; i++)
			if (out_exp_piece(&q[k], i, OUT_EXP_JSON, &b))
				abort();
	if (out_exp_tail(&q[0], OUT_EXP_JSON, &b))
		abort();
	out_bytes_put(&b, "", 1);
	if (!(doc = cJSON_Parse((const char *)b.p)))
		val_fail("export as two hosts: JSON does not parse", (const char *)b.p, b.n);
	cJSON_ArrayForEach(ev, cJSON_GetObjectItem(doc, "traceEvents")) {
		const char *ph = cJSON_GetStringValue(cJSON_GetObjectItem(ev, "ph"));
		const char *what = cJSON_GetStringValue(cJSON_GetObjectItem(ev, "name"));
		const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(ev, "args"), "name"));

		x += ph && (!strcmp(ph, "X") || !strcmp(ph, "C"));	/* slices and counter samples */
		if (ph && !strcmp(ph, "M") && what && !strcmp(what, "process_name") && name) {
			procs[0] += !strncmp(name, "h1:", 3);
			procs[1] += !strncmp(name, "h2:", 3);
		}
	}
	cJSON_Delete(doc);
	if (x != 2 * p->exported || !procs[0] || procs[0] != procs[1])
		val_fail("export as two hosts: JSON events or processes are not twice the trace's", (const char *)b.p,
			 b.n);
	b.n = 0;
	for (k = 0; k < 2; k++) {
		if (out_exp_pf_fits(&q[k]) != OUT_EXP_PF_FITS)
			goto out;
		if (out_exp_head(&q[k], OUT_EXP_PFTRACE, "fuzz", &b))
			abort();
		for (i = 0; i < q[k].npieces; i++)
			if (out_exp_piece(&q[k], i, OUT_EXP_PFTRACE, &b))
				abort();
	}
	val_pftrace(&b, 2 * p->exported);
	if (!(tr = perfetto__protos__trace__unpack(NULL, b.n, b.p)) || !(uuids = calloc(tr->n_packet + 1, sizeof(*uuids))))
		abort();
	for (i = 0; i < tr->n_packet; i++) {
		const Perfetto__Protos__TrackDescriptor *td = tr->packet[i]->track_descriptor;

		if (!td)
			continue;
		for (k = 0; k < nu; k++)
			if (uuids[k] == td->uuid)
				val_fail("export as two hosts: a track described twice", "", 0);
		uuids[nu++] = td->uuid;
	}
	free(uuids);
	perfetto__protos__trace__free_unpacked(tr, NULL);
out:
	for (k = 0; k < nq; k++)
		an_exp_plan_release(&q[k]);
	free(pids[0]);
	free(pids[1]);
	out_bytes_release(&b);
}

/*
 * A .pftrace held to out_export.h's promises: it unpacks, a begin and an
 * end per exported event, or a counter value (on a counter track described
 * before it) per exported counter sample, valid strings.
 */
void val_pftrace(const struct out_bytes *b, uint64_t exported)
{
	size_t i, begins = 0, ends = 0, counts = 0, nctr = 0, k;
	uint64_t *ctr = NULL;
	Perfetto__Protos__Trace *tr;

	if (!(tr = perfetto__protos__trace__unpack(NULL, b->n, b->p)))
		val_fail("export: the .pftrace does not unpack", "", 0);
	if (!(ctr = malloc((tr->n_packet + 1) * sizeof(*ctr))))
		abort();
	for (i = 0; i < tr->n_packet; i++) {
		const Perfetto__Protos__TracePacket *pk = tr->packet[i];
		size_t j;

		if (pk->track_descriptor && pk->track_descriptor->counter)
			ctr[nctr++] = pk->track_descriptor->uuid;
		if (pk->track_event && pk->track_event->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER) {
			for (k = 0; k < nctr && ctr[k] != pk->track_event->track_uuid; k++)
				;
			if (k == nctr || !pk->track_event->has_double_counter_value)
				val_fail("export: a counter value on no counter track, or without a value", "", 0);
			counts++;
		}
		if (pk->track_event) {
			begins += pk->track_event->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN;
			ends += pk->track_event->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END;
			for (j = 0; j < pk->track_event->n_debug_annotations; j++) {
				const Perfetto__Protos__DebugAnnotation *a = pk->track_event->debug_annotations[j];

				if (a->has_string_value && !text_ok(a->string_value))
					val_fail("export: an annotation is not valid UTF-8",
						 (const char *)a->string_value.data, a->string_value.len);
			}
		}
		if (pk->track_descriptor && pk->track_descriptor->has_name &&
		    !text_ok(pk->track_descriptor->name))
			val_fail("export: a track name is not valid UTF-8", "", 0);
		if (pk->interned_data) {
			const Perfetto__Protos__InternedData *id = pk->interned_data;

			for (j = 0; j < id->n_event_names; j++)
				if (!text_ok(id->event_names[j]->name))
					val_fail("export: an event name is not valid UTF-8", "", 0);
			for (j = 0; j < id->n_debug_annotation_string_values; j++)
				if (!text_ok(id->debug_annotation_string_values[j]->str))
					val_fail("export: an interned string is not valid UTF-8", "", 0);
		}
	}
	if (begins != ends || begins + counts != exported)
		val_fail("export: begins and ends (and counter values) are not one per exported event", "", 0);
	free(ctr);
	perfetto__protos__trace__free_unpacked(tr, NULL);
}

void val_strag(const struct an_strag_result *r)
{
	size_t i, last = 0;

	for (i = 0; i < r->n; i++) {
		const struct an_strag_device *d = &r->devices[i];

		if (d->groups > r->groups || d->last > d->groups || !(d->late_ps >= 0) || !(d->waited_ps >= 0) ||
		    !(d->slow_ps >= 0))
			val_fail("stragglers: a device's groups, last or sums out of range", d->name, strlen(d->name));
		if (i && d->late_ps > r->devices[i - 1].late_ps)
			val_fail("stragglers: devices not ranked by late", d->name, strlen(d->name));
		last += d->last;
	}
	if (last > r->groups)
		val_fail("stragglers: more devices last than groups", "", 0);
}

void val_strag_hosts(const struct an_strag_result *r, int equal)
{
	size_t i, groups = 0;

	val_strag(r);
	for (i = 0; i < r->nhost_rows; i++) {
		const struct an_strag_host *h = &r->host_rows[i];

		if (h->slowest > h->groups || !(h->slow_ps >= 0) || h->groups > r->host_groups)
			val_fail("stragglers: a host's groups, slowest or slow out of range", h->name, strlen(h->name));
		if (equal && (h->slowest || h->slow_ps != 0 || h->groups != r->host_groups))
			val_fail("stragglers: one input as two hosts is not equal to itself", h->name, strlen(h->name));
		groups += h->groups;
	}
	if (!equal && (r->host_groups || r->nhost_rows))
		val_fail("stragglers: inputs without paths compared as hosts", "", 0);
	if (equal && r->host_groups && (r->nhost_rows != 2 || groups != 2 * r->host_groups))
		val_fail("stragglers: two hosts' rows do not hold their groups", "", 0);
	if (an_strag_slowest_host(r) && equal)
		val_fail("stragglers: a slowest host among equal ones", "", 0);
}

/* The report's page from these results, held to out_report.h's promises. */
void val_report(const struct an_fn_result *fr, const struct an_ov_result *ov,
		const struct an_rep_timeline *tl, const struct xp_notes *notes)
{
	static const char *const tags[] = {"!DOCTYPE", "html", "head", "meta", "title", "style", "body",
					   "header", "h1", "h2", "h3", "p", "section", "table", "tr", "th", "td",
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
		val_fail("report: the page is not valid UTF-8", buf, n);
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
			val_fail("report: a '<' opens no tag the writer writes (a name got through)", buf + i,
				 n - i > 200 ? 200 : n - i);
	}
	free(buf);
}

/* SPDX-License-Identifier: Apache-2.0 */
#include "an_ops.h"

#include <ctype.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "an_cost.h"
#include "an_exec.h"
#include "an_functions.h"
#include "an_hlo.h"
#include "an_kind.h"
#include "xp_sat.h"
#include "xp_sort.h"
#include "xp_stray.h"

/*
 * Peak bf16 dense FLOP/s and HBM bandwidth per chip, from Google Cloud's TPU
 * system architecture pages; the names are device_type_string as the TPU
 * runtime writes it, and the marketing names. v2 and v3 are left out: each
 * of their TensorCores is a device of its own, and their per-core peaks are
 * not published. Where each figure comes from (GB/s as the pages write GBps):
 *   v4:  https://cloud.google.com/tpu/docs/v4 ("275 teraflops (bf16 or
 *        int8)"; "HBM2 ... 1200 GBps")
 *   v5e: https://cloud.google.com/tpu/docs/v5e ("197 TFLOPs"; "HBM2 capacity
 *        and bandwidth 16 GB, 819 GBps"; a later revision of the page writes
 *        "800 GiBps", which the table does not follow)
 *   v5p: https://cloud.google.com/tpu/docs/v5p ("459 TFLOPs"; "HBM2e ...
 *        2765 GBps")
 *   v6e: https://cloud.google.com/tpu/docs/v6e ("918 TFLOPs"; "HBM bandwidth
 *        per chip 1638 GBps", which the bundled v6e trace's own plane stat,
 *        1637.99, agrees with)
 */
const struct an_chip_peak an_chip_peaks[] = {
	{"TPU v4", 275, 1200},
	{"TPU v5 Lite", 197, 819},
	{"TPU v5e", 197, 819},
	{"TPU v5", 459, 2765},
	{"TPU v5p", 459, 2765},
	{"TPU v6 Lite", 918, 1638},
	{"TPU v6e", 918, 1638},
	{NULL, 0, 0},
};

/*
 * Dense bf16 (or fp16) matrix FLOPs per cycle per SM or CU, from each
 * vendor's published peak of a part of that architecture divided by its SMs
 * (CUs) and the clock the figure is quoted at (the published figures):
 *   Volta 7.0:   V100 SXM2, 125 TFLOP/s fp16 tensor, 80 SMs at 1530 MHz
 *   Turing 7.5:  T4, 65 TFLOP/s fp16 tensor, 40 SMs at 1590 MHz
 *   Ampere 8.0:  A100 SXM4, 312 TFLOP/s bf16, 108 SMs at 1410 MHz
 *   Ampere 8.6:  A10, 125 TFLOP/s bf16, 72 SMs at 1695 MHz
 *   Ada 8.9:     L4, 121 TFLOP/s bf16, 58 SMs at 2040 MHz
 *   Hopper 9.0:  H100 SXM5, 989.4 TFLOP/s bf16, 132 SMs at 1830 MHz
 *   CDNA2 9.0:   MI250X, 383 TFLOP/s bf16, 220 CUs at 1700 MHz
 *   CDNA3 9.4:   MI300X, 1307.4 TFLOP/s bf16, 304 CUs at 2100 MHz
 *   CDNA4 9.5:   MI355X, 2516.6 TFLOP/s bf16, 256 CUs at 2400 MHz
 * Each gives a power of two (1024, 2048 or 4096) within 2%. A plane's
 * clock_rate may be the boost clock, above the one a figure is quoted at
 * (an H200 plane says 1980 MHz: 1070 TFLOP/s where NVIDIA quotes 989.4),
 * so the derived peak is the most the plane's clock allows. Blackwell
 * (10.x) is left out: its per-SM rate at a quoted clock is not published.
 */
const struct an_gpu_arch an_gpu_archs[] = {
	{0, 7, 0, "Volta", 1024},
	{0, 7, 5, "Turing", 1024},
	{0, 8, 0, "Ampere", 2048},
	{0, 8, 6, "Ampere", 1024},
	{0, 8, 9, "Ada", 1024},
	{0, 9, 0, "Hopper", 4096},
	{1, 9, 0, "CDNA2", 1024},
	{1, 9, 4, "CDNA3", 2048},
	{1, 9, 5, "CDNA4", 4096},
	{0, 0, 0, NULL, 0},
};

static int plane_u64(const struct xp_plane *p, const char *name, uint64_t *v)
{
	const struct xp_stat *s = xp_plane_stat(p, name);

	return s && !xp_stat_u64(s, v) ? 0 : -1;
}

void an_gpu_peaks(const struct xp_plane *p, double *flops, double *bw, const char **arch)
{
	const struct xp_stat *vs = xp_plane_stat(p, "device_vendor");
	const char *vendor = NULL;
	uint64_t cores, khz, major, minor, bps;
	size_t len = 0, i;
	int amd;

	*flops = *bw = 0;
	*arch = NULL;
	if (vs)
		vendor = xp_stat_str(p, vs, &len);
	amd = vendor && len == 3 && !strncasecmp(vendor, "AMD", 3);
	if (!plane_u64(p, "memory_bandwidth", &bps) && bps && bps < (uint64_t)1 << 60)
		*bw = (double)bps;
	if (plane_u64(p, "core_count", &cores) || plane_u64(p, "clock_rate", &khz) ||
	    plane_u64(p, "compute_cap_major", &major) || plane_u64(p, "compute_cap_minor", &minor) ||
	    !cores || cores > 100000 || !khz || khz > 100000000)
		return;
	for (i = 0; an_gpu_archs[i].arch; i++)
		if (an_gpu_archs[i].amd == amd && (uint64_t)an_gpu_archs[i].cc_major == major &&
		    (uint64_t)an_gpu_archs[i].cc_minor == minor) {
			*arch = an_gpu_archs[i].arch;
			*flops = (double)cores * (double)khz * 1e3 * an_gpu_archs[i].flops_per_cycle;
			return;
		}
}

const char *an_op_line_name(enum an_op_line l)
{
	return l == AN_OP_SYNC ? "XLA Ops" : l == AN_OP_ASYNC ? "Async XLA Ops" : l == AN_OP_SC ? "Sparse Core Ops"
	       : "GPU kernels";
}

const char *an_bound_name(enum an_bound b)
{
	return b == AN_BOUND_COMPUTE ? "compute" : b == AN_BOUND_MEMORY ? "memory" : NULL;
}

const char *an_peak_src_name(enum an_peak_src s)
{
	return s == AN_PEAK_PLANE ? "plane" : s == AN_PEAK_TABLE ? "table" : s == AN_PEAK_DERIVED ? "derived" : "none";
}

void an_ops_init(struct an_ops_result *r, const struct an_ops_opts *o)
{
	memset(r, 0, sizeof(*r));
	if (o)
		r->opts = *o;
}

static void row_free(struct an_op_row *row)
{
	free(row->name);
	free(row->hlo);
	free(row->category);
	free(row->module);
	free(row->cost_why);
}

void an_ops_release(struct an_ops_result *r)
{
	size_t i;

	for (i = 0; i < r->nrows; i++)
		row_free(&r->rows[i]);
	for (i = 0; i < r->ncats; i++)
		row_free(&r->cats[i]);
	for (i = 0; i < r->nsources; i++)
		row_free(&r->sources[i]);
	free(r->sources);
	for (i = 0; i < r->nframeworks; i++)
		row_free(&r->frameworks[i]);
	free(r->frameworks);
	for (i = 0; i < r->nfwtypes; i++)
		row_free(&r->fwtypes[i]);
	free(r->fwtypes);
	an_scope_nodes_free(r->scopes, r->nscopes);
	for (i = 0; i < r->ndevices; i++) {
		free(r->devices[i].name);
		free(r->devices[i].chip);
	}
	free(r->rows);
	free(r->cats);
	free(r->devices);
	xp_hmap_release(&r->by_key_);
	xp_hmap_release(&r->dev_ids_);
	xp_hmap_release(&r->strs_ix_);
	xp_strv_free(r->strs_, r->nstrs_);
	free(r->hrefs_);
	memset(r, 0, sizeof(*r));
}

static char *dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

static void sum_add(struct an_sum *s, uint64_t v)
{
	s->n++;
	s->overflow |= xp_sat_add_to_u64(&s->v, v);
}

/* n occurrences of value v each (an aggregated event's). */
static void sum_add_n(struct an_sum *s, uint64_t v, uint64_t n)
{
	uint64_t t;

	s->n = (size_t)xp_sat_add_u64(s->n, n);
	if (__builtin_mul_overflow(v, n, &t))
		s->overflow = 1;
	else
		s->overflow |= xp_sat_add_to_u64(&s->v, t);
}

static void sum_merge(struct an_sum *d, const struct an_sum *s)
{
	d->n = (size_t)xp_sat_add_u64(d->n, s->n);
	d->overflow |= s->overflow | xp_sat_add_to_u64(&d->v, s->v);
}

/* A cost state's rank when pooling: the row costed from the HLO only where every part was. */
static int cost_rank(enum an_op_cost c)
{
	return c == AN_OP_COST_HLO ? -1 : (int)c;
}

/* Adds the times and counts of row s into row d: occurrences, total and self time, flops, bytes. */
static void row_add(struct an_op_row *d, const struct an_op_row *s)
{
	if (!d->occurrences || cost_rank(s->cost) > cost_rank(d->cost))
		d->cost = s->cost;	/* a new row takes its first part's */
	d->occurrences = (size_t)xp_sat_add_u64(d->occurrences, s->occurrences);
	d->calls += s->calls;
	d->kernels_unscoped += s->kernels_unscoped;
	d->calls_host |= s->calls_host;
	d->total_ps = xp_sat_add(d->total_ps, s->total_ps);
	d->self_ps = xp_sat_add(d->self_ps, s->self_ps);
	sum_merge(&d->flops, &s->flops);
	sum_merge(&d->model_flops, &s->model_flops);
	sum_merge(&d->bytes, &s->bytes);
}

/* A count (flops, bytes): 0 and *out, or -1 for a negative, non-integral or non-numeric value. */
static int count_value(const struct xp_stat *s, uint64_t *out)
{
	if (s->type == XP_STAT_INT64 && s->v.i < 0)
		return -1;
	return xp_stat_u64(s, out);
}

/* A program id: an integer stat, or a string of 1 to 19 digits. */
static int program_value(const struct xp_plane *p, const struct xp_stat *s, uint64_t *out)
{
	const char *str;
	size_t len, i;

	if (!s)
		return -1;
	if (s->type != XP_STAT_STR && s->type != XP_STAT_BYTES && s->type != XP_STAT_REF)
		return s->type == XP_STAT_INT64 && s->v.i < 0 ? -1 : xp_stat_u64(s, out);
	str = xp_stat_str(p, s, &len);
	if (!str || !len || len > 19)
		return -1;
	for (*out = 0, i = 0; i < len; i++) {
		if (str[i] < '0' || str[i] > '9')
			return -1;
		*out = *out * 10 + (uint64_t)(str[i] - '0');
	}
	return 0;
}

/* "name(123)": the length of name and the digits as *fp; 0 when there is no such suffix. */
static int split_fp(const char *s, size_t len, size_t *namelen, uint64_t *fp)
{
	size_t i;

	if (len < 3 || s[len - 1] != ')')
		return 0;
	for (i = len - 1; i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9'; i--)
		;
	if (i == 0 || s[i - 1] != '(' || i == len - 1 || len - 1 - i > 19)
		return 0;
	*namelen = i - 1;
	for (*fp = 0; i < len - 1; i++)
		*fp = *fp * 10 + (uint64_t)(s[i] - '0');
	return 1;
}

/* ---- devices ---------------------------------------------------------------- */

static double stat_double(const struct xp_stat *s)
{
	if (!s)
		return 0;
	switch (s->type) {
	case XP_STAT_DOUBLE:
		return s->v.d;
	case XP_STAT_INT64:
		return (double)s->v.i;
	case XP_STAT_UINT64:
		return (double)s->v.u;
	default:
		return 0;
	}
}

static int good_peak(double v)
{
	return isfinite(v) && v > 0;
}

/* Peaks of plane p into d: its own stats, else the chip table by device_type_string. */
static int device_peaks(const struct xp_plane *p, struct an_ops_device *d)
{
	double tf = stat_double(xp_plane_stat(p, "peak_teraflops_per_second"));
	double bw = stat_double(xp_plane_stat(p, "peak_hbm_bw_gigabytes_per_second"));
	const struct xp_stat *s = xp_plane_stat(p, "device_type_string");
	const char *chip = NULL;
	size_t len = 0, i;

	if (s && (chip = xp_stat_str(p, s, &len)) && !(d->chip = dup_n(chip, len)))
		return XP_ERR_NOMEM;
	/* in their own units a huge peak may be finite and its FLOP/s not: no peak then */
	if (good_peak(tf) && good_peak(bw) && good_peak(tf * 1e12) && good_peak(bw * 1e9)) {
		d->peak_src = AN_PEAK_PLANE;
		d->peak_flops = tf * 1e12;
		d->peak_bw = bw * 1e9;
		return 0;
	}
	for (i = 0; d->chip && !an_is_sparsecore_plane(p->name) && an_chip_peaks[i].chip; i++)	/* a TensorCore's */
		if (!strcasecmp(d->chip, an_chip_peaks[i].chip)) {
			d->peak_src = AN_PEAK_TABLE;
			d->peak_flops = an_chip_peaks[i].tflops * 1e12;
			d->peak_bw = an_chip_peaks[i].hbm_gbs * 1e9;
			return 0;
		}
	if (!d->chip && strstr(p->name, "GPU")) {	/* a GPU: its stats and its architecture's rate */
		const char *arch;
		double fl, gbw;

		an_gpu_peaks(p, &fl, &gbw, &arch);
		s = xp_plane_stat(p, "gpu_device_name");
		chip = s ? xp_stat_str(p, s, &len) : NULL;
		if (chip ? !(d->chip = dup_n(chip, len)) : arch && !(d->chip = dup_n(arch, strlen(arch))))
			return XP_ERR_NOMEM;
		if (good_peak(fl) && good_peak(gbw)) {
			d->peak_src = AN_PEAK_DERIVED;
			d->peak_flops = fl;
			d->peak_bw = gbw;
		}
	}
	return 0;
}

static double device_ridge(const struct an_ops_device *d)
{
	return d->peak_flops > 0 && d->peak_bw > 0 ? d->peak_flops / d->peak_bw : 0;
}

/* ---- rows ------------------------------------------------------------------- */

/* A row's fields before it is found or made; strings are borrowed (with lengths). */
struct op_probe {
	enum an_op_line line;
	const char *name, *hlo, *category, *module;
	size_t name_len, hlo_len, category_len, module_len;
	uint64_t program_id;
	int has_program_id;
	int tf;			/* a TensorFlow op's (an_op_row.tf) */
};

static void ridge_join(struct an_op_row *row, double ridge, int differs, int first)
{
	if (first) {
		row->ridge = ridge;
		row->ridge_differs = differs;
		return;
	}
	row->ridge_differs |= differs || fabs(row->ridge - ridge) > 1e-9 * fmax(row->ridge, ridge);
}

static char *probe_key(const struct op_probe *q)
{
	/*
	 * The GPU rows are told apart by module; TPU ops by their HLO text; a
	 * TensorFlow op's by its type. Each string with its length first: names
	 * from a trace may hold any byte.
	 */
	size_t ml = q->line == AN_OP_GPU ? q->module_len : 0, cl = q->tf ? q->category_len : 0;
	char *k = NULL;
	char prog[24] = "-";

	if (q->has_program_id)
		snprintf(prog, sizeof(prog), "%llu", (unsigned long long)q->program_id);
	if (asprintf(&k, "%d%s %s %zu:%.*s%zu:%.*s%zu:%.*s%zu:%.*s", (int)q->line, q->tf ? "tf" : "", prog, q->name_len,
		     (int)q->name_len, q->name ? q->name : "", q->hlo_len, (int)q->hlo_len, q->hlo ? q->hlo : "", ml,
		     (int)ml, q->module ? q->module : "", cl, (int)cl, q->category ? q->category : "") < 0)
		return NULL;
	return k;
}

/* The row for q, made when new; NULL when out of memory. */
static struct an_op_row *row_get(struct an_ops_result *r, const struct op_probe *q, int *is_new)
{
	char *key = probe_key(q);
	struct an_op_row *row;

	if (!key)
		return NULL;
	row = xp_hmap_row(&r->by_key_, key, &r->rows, &r->nrows, &r->cap, sizeof(*r->rows), 16, is_new);
	free(key);
	if (!row || !*is_new)
		return row;
	row->line = q->line;
	row->tf = q->tf;
	row->program_id = q->program_id;
	row->has_program_id = q->has_program_id;
	row->name = dup_n(q->name ? q->name : "", q->name_len);
	row->hlo = q->hlo ? dup_n(q->hlo, q->hlo_len) : NULL;
	row->category = q->category ? dup_n(q->category, q->category_len) : NULL;
	row->module = q->module ? dup_n(q->module, q->module_len) : NULL;
	r->rows_in[q->line]++;
	if (!row->name || (q->hlo && !row->hlo) || (q->category && !row->category) ||
	    (q->module && !row->module))
		return NULL;
	return row;
}

/* ---- one plane -------------------------------------------------------------- */

struct span {
	int64_t s, e;
	uint32_t idx;		/* event index in the plane */
};

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	if (x->e != y->e)
		return x->e > y->e ? -1 : 1;	/* the longer first: it is the parent */
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * The row of a probe seen before on this plane, without its key: a probe's
 * strings point into the model, so equal pointers and lengths are an equal
 * key. Direct-mapped; a miss (or equal text at other addresses) goes to
 * row_get.
 */
#define MEMO_SLOTS 4096
struct probe_memo {
	struct op_probe q;
	size_t id;
	int used;
};

struct call_ref {
	uint64_t scope;
	size_t row;
};

struct plane_ctx {
	struct an_ops_result *r;
	struct xp_plane *p;
	struct an_ops_device *dev;
	size_t dev_ix;
	struct span *mods;	/* XLA Modules events, by start */
	size_t nmods;
	struct probe_memo *memo;	/* MEMO_SLOTS, or NULL: none */
	struct names_memo *names;	/* per event metadata, or NULL: none */
	/* The module of the last op probed (ops come in order: most share it): what tpu_probe took of it. */
	const struct span *last_mod;
	struct op_probe mod_probe;
	size_t last_row;	/* the row record last added to */
	enum an_op_line sync_kind;	/* of the nested line being read: AN_OP_SYNC or AN_OP_SC */
	int cpu;			/* XLA:CPU's plane (an_cpu.h) */
	/* GPU: (row, scope_range_id) of its kernels, to count each row's distinct ids (calls) */
	struct call_ref *calls;
	size_t ncalls, capcalls;
};

static int probe_same(const struct op_probe *a, const struct op_probe *b)
{
	return a->line == b->line && a->tf == b->tf && a->name == b->name && a->name_len == b->name_len &&
	       a->hlo == b->hlo && a->hlo_len == b->hlo_len && a->category == b->category &&
	       a->category_len == b->category_len && a->module == b->module &&
	       a->module_len == b->module_len && a->has_program_id == b->has_program_id &&
	       (!a->has_program_id || a->program_id == b->program_id);
}

static size_t probe_slot(const struct op_probe *q)
{
	uint64_t h = (uint64_t)(q->line * 2 + q->tf) * 0x9e3779b97f4a7c15ull;

	h = (h ^ (uint64_t)(uintptr_t)q->name) * 0xbf58476d1ce4e5b9ull;
	h = (h ^ (uint64_t)(uintptr_t)q->hlo) * 0x94d049bb133111ebull;
	h = (h ^ (uint64_t)(uintptr_t)q->category) * 0x9e3779b97f4a7c15ull;
	h = (h ^ (uint64_t)(uintptr_t)q->module ^ q->program_id) * 0xbf58476d1ce4e5b9ull;
	return (size_t)(h >> 52) & (MEMO_SLOTS - 1);
}

/* row_get through the plane's memo. */
static struct an_op_row *row_cached(struct plane_ctx *c, const struct op_probe *q, int *is_new)
{
	struct probe_memo *m = c->memo ? &c->memo[probe_slot(q)] : NULL;
	struct an_op_row *row;

	if (m && m->used && probe_same(&m->q, q)) {
		*is_new = 0;
		return &c->r->rows[m->id];
	}
	row = row_get(c->r, q, is_new);
	if (row && m) {
		m->q = *q;
		m->id = (size_t)(row - c->r->rows);
		m->used = 1;
	}
	return row;
}

/* The XLA Modules event whose span holds t, or NULL. */
static const struct span *module_at(const struct plane_ctx *c, int64_t t)
{
	size_t lo = 0, hi = c->nmods;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->mods[mid].s <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || c->mods[lo - 1].e <= t)
		return NULL;
	return &c->mods[lo - 1];
}

/* The stat k of event e, n occurrences of it (an aggregated event stands for n), into sum. */
static void add_value(struct plane_ctx *c, const struct xp_event *e, enum xp_key k, struct an_sum *sum,
		      uint64_t n)
{
	const struct xp_stat *s = xp_event_stat(c->p, e, k);
	uint64_t v;

	if (!s)
		return;
	if (count_value(s, &v)) {
		c->dev->odd_values++;
		return;
	}
	if (n == 1)
		sum_add(sum, v);
	else
		sum_add_n(sum, v, n);
}

/*
 * n occurrences (1, or an aggregated event's) of the op of event e
 * (described by q), with their total and self time.
 */
static int record(struct plane_ctx *c, const struct op_probe *q, const struct xp_event *e,
		  int64_t self_ps, uint64_t n)
{
	struct an_ops_result *r = c->r;
	struct an_op_row *row;
	int is_new = 0;

	row = row_cached(c, q, &is_new);
	if (!row)
		return XP_ERR_NOMEM;
	c->last_row = (size_t)(row - r->rows);
	ridge_join(row, device_ridge(c->dev), 0, is_new);
	row->occurrences = (size_t)xp_sat_add_u64(row->occurrences, n);	/* SIZE_MAX: overflowed (row_notes) */
	row->total_ps = xp_sat_add(row->total_ps, e->dur_ps);
	row->self_ps = xp_sat_add(row->self_ps, self_ps);
	add_value(c, e, XP_K_FLOPS, &row->flops, n);
	add_value(c, e, XP_K_MODEL_FLOPS, &row->model_flops, n);
	add_value(c, e, XP_K_BYTES_ACCESSED, &row->bytes, n);
	r->events[q->line] = (size_t)xp_sat_add_u64(r->events[q->line], n);
	c->dev->events[q->line] = (size_t)xp_sat_add_u64(c->dev->events[q->line], n);
	r->total_ps[q->line] = xp_sat_add(r->total_ps[q->line], e->dur_ps);
	r->self_ps[q->line] = xp_sat_add(r->self_ps[q->line], self_ps);
	return 0;
}

/*
 * The short name of a TPU op: display_name, else (and always on Async XLA
 * Ops, whose display names are generic: "async-copy") the instruction name,
 * its HLO text up to " = " without '%'.
 */
static void tpu_names_of(const struct xp_plane *p, const struct xp_event *e, enum an_op_line line,
			 struct op_probe *q)
{
	const struct xp_evmeta *m = &p->evmetas[e->meta];
	const char *eq;

	q->hlo = m->name ? m->name : "";
	q->hlo_len = strlen(q->hlo);
	if ((line == AN_OP_SYNC || line == AN_OP_SC) && m->display_name && *m->display_name) {
		q->name = m->display_name;
		q->name_len = strlen(q->name);
		return;
	}
	q->name = q->hlo + (q->hlo[0] == '%');
	eq = strstr(q->name, " = ");
	q->name_len = eq ? (size_t)(eq - q->name) : strlen(q->name);
}

/* tpu_names_of, worked out once per event metadata and line kind. */
struct names_memo {
	const char *name, *hlo;
	size_t name_len, hlo_len;
	unsigned char done;	/* filled in (slots are per metadata and line kind) */
};

static void tpu_names(struct plane_ctx *c, const struct xp_event *e, enum an_op_line line,
		      struct op_probe *q)
{
	struct names_memo *n = c->names ? &c->names[2 * (size_t)e->meta + (line == AN_OP_ASYNC)] : NULL;

	if (n && n->done) {
		q->name = n->name;
		q->name_len = n->name_len;
		q->hlo = n->hlo;
		q->hlo_len = n->hlo_len;
		return;
	}
	tpu_names_of(c->p, e, line, q);
	if (n) {
		n->name = q->name;
		n->name_len = q->name_len;
		n->hlo = q->hlo;
		n->hlo_len = q->hlo_len;
		n->done = 1;
	}
}

static void str_stat(const struct xp_plane *p, const struct xp_event *e, enum xp_key k,
		     const char **s, size_t *len)
{
	const struct xp_stat *st = xp_event_stat(p, e, k);

	*s = st ? xp_stat_str(p, st, len) : NULL;
	if (!*s)
		*len = 0;
}

/* Describes TPU op e: names, category, program and module. */
static void tpu_probe(struct plane_ctx *c, const struct xp_event *e, enum an_op_line line,
		      struct op_probe *q)
{
	const struct xp_plane *p = c->p;
	const struct span *m = module_at(c, e->start_ps);
	uint64_t fp;
	size_t nl;

	memset(q, 0, sizeof(*q));
	q->line = line;
	tpu_names(c, e, line, q);
	str_stat(p, e, XP_K_HLO_CATEGORY, &q->category, &q->category_len);
	if (c->cpu) {	/* XLA:CPU's ops name their module and program (an_cpu.h): executions overlap */
		str_stat(p, e, XP_K_HLO_MODULE, &q->module, &q->module_len);
		q->has_program_id = !program_value(p, xp_event_stat(p, e, XP_K_PROGRAM_ID), &q->program_id);
		return;
	}
	if (m && m == c->last_mod) {
		q->module = c->mod_probe.module;
		q->module_len = c->mod_probe.module_len;
		q->has_program_id = c->mod_probe.has_program_id;
		q->program_id = c->mod_probe.program_id;
	} else if (m) {
		const struct xp_event *me = &p->events[m->idx];
		const char *raw;
		size_t rlen;

		str_stat(p, me, XP_K_HLO_MODULE, &raw, &rlen);
		if (!raw) {
			raw = xp_event_name(p, me);
			rlen = strlen(raw);
		}
		q->module = raw;
		q->module_len = rlen;
		q->has_program_id = !program_value(p, xp_event_stat(p, me, XP_K_PROGRAM_ID), &q->program_id);
		if (split_fp(raw, rlen, &nl, &fp)) {
			q->module_len = nl;
			if (!q->has_program_id) {
				q->program_id = fp;
				q->has_program_id = 1;
			}
		}
		c->last_mod = m;
		c->mod_probe = *q;
	}
	if (!q->has_program_id)
		q->has_program_id = !program_value(p, xp_event_stat(p, e, XP_K_PROGRAM_ID), &q->program_id);
}

/* Non-stray events of line li into v (by start, longer first); returns how many. */
static size_t line_spans(const struct xp_plane *p, size_t li, const unsigned char *stray,
			 struct span *v)
{
	const struct xp_line *l = &p->lines[li];
	size_t i, n = 0;

	for (i = l->first_event; i < l->first_event + l->nevents; i++) {
		const struct xp_event *e = &p->events[i];

		if (stray[i])
			continue;
		v[n].s = e->start_ps;
		v[n].e = e->start_ps + e->dur_ps;	/* xp_plane_finish refuses an overflow */
		v[n].idx = (uint32_t)i;
		n++;
	}
	/* An XLA Ops line is usually written in this order already. */
	for (i = 1; i < n && cmp_span(&v[i - 1], &v[i]) < 0; i++)
		;
	if (i < n)
		qsort(v, n, sizeof(*v), cmp_span);
	return n;
}

struct open_op {
	const struct span *sp;
	int64_t covered;	/* children's union reaches here */
	int64_t child_ps;	/* union of its direct children */
	int parent;		/* an op nested in it */
};

/* A leaf op's time and FLOPs (an_ops_device.leaf_*): the stat k's value in *sum, its time in *ps. */
static void leaf_value(struct plane_ctx *c, const struct xp_event *e, enum xp_key k, struct an_sum *sum,
		       int64_t *ps)
{
	const struct xp_stat *s = xp_event_stat(c->p, e, k);
	uint64_t v;

	if (s && !count_value(s, &v)) {
		sum_add(sum, v);
		*ps = xp_sat_add(*ps, e->dur_ps);
	}
}

/*
 * For overview (opts.tpu_leaves_only): op e, a leaf if leaf, counts as the
 * plane's own work where the plane is theirs.
 */
static void leaf_add(struct plane_ctx *c, const struct xp_event *e, int leaf)
{
	if (leaf && (c->sync_kind == AN_OP_SC) == an_is_sparsecore_plane(c->p->name)) {
		c->dev->leaf_ps = xp_sat_add(c->dev->leaf_ps, e->dur_ps);
		leaf_value(c, e, XP_K_FLOPS, &c->dev->leaf_flops, &c->dev->leaf_flops_ps);
		leaf_value(c, e, XP_K_MODEL_FLOPS, &c->dev->leaf_model_flops, &c->dev->leaf_model_ps);
	}
	c->dev->events[c->sync_kind]++;	/* what an_ops_work_flops asks: a TPU device */
}

static int close_op(struct plane_ctx *c, const struct open_op *o)
{
	const struct xp_event *e = &c->p->events[o->sp->idx];
	struct op_probe q;

	/* the plane's own work (a SparseCore's ops on its plane, else the TensorCore's XLA Ops), for overview */
	if (c->r->opts.tpu_leaves_only) {
		leaf_add(c, e, !o->parent);
		return 0;
	}
	tpu_probe(c, e, c->sync_kind, &q);
	return record(c, &q, e, e->dur_ps - o->child_ps, 1);
}

/*
 * The aggregated events of line li (sync: nested ops, their self time the
 * self_duration_ps written, else their total; else Async XLA Ops): rows
 * as its events make, their program unknown (no time to find a module at).
 */
static int agg_line(struct plane_ctx *c, size_t li, int sync, size_t *ag)
{
	const struct xp_plane *p = c->p;
	int ret;

	for (; *ag < p->naggs && p->aggs[*ag].line < li; (*ag)++)
		;
	for (; *ag < p->naggs && p->aggs[*ag].line == li; (*ag)++) {
		const struct xp_agg *g = &p->aggs[*ag];
		/* no own stats: its metadata's are found; before every time, in no module */
		struct xp_event e = {.start_ps = INT64_MIN, .dur_ps = g->dur_ps, .meta = g->meta,
				     .line = (uint32_t)li};
		int64_t self = sync && g->self_ps >= 0 ? g->self_ps : g->dur_ps;
		struct op_probe q;

		/* overview's work in time: they have none (their FLOPs over no time would flatter it) */
		if (!g->occurrences || c->r->opts.tpu_leaves_only)
			continue;
		c->dev->aggregated = (size_t)xp_sat_add_u64(c->dev->aggregated, (uint64_t)g->occurrences);
		c->dev->aggregated_odd += g->odd;
		tpu_probe(c, &e, sync ? c->sync_kind : AN_OP_ASYNC, &q);
		if ((ret = record(c, &q, &e, self, (uint64_t)g->occurrences)))
			return ret;
	}
	return 0;
}

/* An XLA Ops line: self time by nesting (see an_ops.h). */
static int sync_line(struct plane_ctx *c, const struct span *v, size_t n)
{
	struct open_op *stack = NULL;
	size_t i, sp = 0, cap = 0;
	int ret = 0;

	for (i = 0; i < n; i++) {
		const struct span *e = &v[i];

		while (sp && stack[sp - 1].sp->e <= e->s)
			if ((ret = close_op(c, &stack[--sp])))
				goto out;
		if (sp && e->e > stack[sp - 1].sp->e) {
			c->dev->partial_overlaps++;
			while (sp && e->e > stack[sp - 1].sp->e)
				if ((ret = close_op(c, &stack[--sp])))
					goto out;
		}
		if (sp) {
			struct open_op *parent = &stack[sp - 1];
			int64_t lo = e->s > parent->covered ? e->s : parent->covered;

			if (e->e > lo)
				parent->child_ps += e->e - lo;
			if (e->e > parent->covered)
				parent->covered = e->e;
			parent->parent |= e->e > e->s;	/* a zero-length marker inside it holds no work */
		}
		if (sp == cap && xp_grow(&stack, &cap, sp, sizeof(*stack), 64)) {	/* as deep as ops nest */
			ret = XP_ERR_NOMEM;
			goto out;
		}
		stack[sp].sp = e;
		stack[sp].covered = e->s;
		stack[sp].child_ps = 0;
		stack[sp].parent = 0;
		sp++;
	}
	while (sp && !ret)
		ret = close_op(c, &stack[--sp]);
out:
	free(stack);
	return ret;
}

static int async_line(struct plane_ctx *c, const struct span *v, size_t n)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		const struct xp_event *e = &c->p->events[v[i].idx];
		struct op_probe q;

		tpu_probe(c, e, AN_OP_ASYNC, &q);
		if ((ret = record(c, &q, e, e->dur_ps, 1)))
			return ret;
	}
	return 0;
}

const char *an_ops_no_op_what(const struct an_ops_result *r)
{
	if (!r->opts.by_framework)
		return "";
	return r->summaries ? " (or, in a trace, a TensorFlow op: summaries keep no TensorFlow kernels)"
			    : " or a TensorFlow op";
}

int an_framework_op(const char *s, size_t len, int annotation, const char **name, size_t *nlen,
		    const char **type, size_t *tlen)
{
	const char *end = s + len, *lv = s, *next, *hash, *colon;

	/* each level in turn (a tf_op stat is one), the innermost naming an op kept */
	*name = *type = NULL;
	*nlen = *tlen = 0;
	while (lv <= end) {
		next = annotation ? memmem(lv, (size_t)(end - lv), "::", 2) : NULL;
		hash = memchr(lv, '#', (size_t)((next ? next : end) - lv));
		if (!hash)
			hash = next ? next : end;
		for (colon = hash; colon > lv && colon[-1] != ':'; colon--)
			;
		if (colon > lv + 1 && colon < hash) {	/* "name:Type", both non-empty */
			*name = lv;
			*nlen = (size_t)(colon - 1 - lv);
			*type = colon;
			*tlen = (size_t)(hash - colon);
		}
		if (!next)
			break;
		lv = next + 2;
	}
	return *name != NULL;
}

/* A kernel's TensorFlow op (an_framework_op) into q: 1 when it names one. */
static int tf_probe(const struct xp_plane *p, const struct xp_event *e, struct op_probe *q)
{
	const char *s;
	size_t len;

	str_stat(p, e, XP_K_TF_OP, &s, &len);
	if (!s || !an_framework_op(s, len, 0, &q->name, &q->name_len, &q->category, &q->category_len)) {
		str_stat(p, e, XP_K_ANNOTATION, &s, &len);
		if (!s || !an_framework_op(s, len, 1, &q->name, &q->name_len, &q->category, &q->category_len))
			return 0;
	}
	q->tf = 1;
	return 1;
}

static int gpu_event(struct plane_ctx *c, const struct xp_event *e)
{
	const struct xp_plane *p = c->p;
	const struct xp_stat *s;
	struct op_probe q;
	uint64_t fp, scope;
	size_t nl;
	int ret;

	if (an_event_kind(p, e) != AN_KIND_KERNEL)
		return 0;
	memset(&q, 0, sizeof(q));
	q.line = AN_OP_GPU;
	str_stat(p, e, XP_K_HLO_OP, &q.name, &q.name_len);
	if (!q.name && c->r->opts.by_framework && tf_probe(p, e, &q)) {
		if ((ret = record(c, &q, e, e->dur_ps, 1)))
			return ret;
		c->r->rows[c->last_row].kernels_unscoped++;	/* a TensorFlow op's calls: not known */
		return 0;
	}
	if (!q.name) {
		c->dev->kernels_no_op++;
		return 0;
	}
	str_stat(p, e, XP_K_HLO_MODULE, &q.module, &q.module_len);
	str_stat(p, e, XP_K_HLO_CATEGORY, &q.category, &q.category_len);
	q.has_program_id = !program_value(p, xp_event_stat(p, e, XP_K_PROGRAM_ID), &q.program_id);
	if (q.module && split_fp(q.module, q.module_len, &nl, &fp)) {
		q.module_len = nl;
		if (!q.has_program_id) {
			q.program_id = fp;
			q.has_program_id = 1;
		}
	}
	if ((ret = record(c, &q, e, e->dur_ps, 1)))
		return ret;
	s = xp_event_stat(p, e, XP_K_SCOPE_RANGE_ID);
	if (!s || xp_stat_u64(s, &scope)) {
		struct an_ops_result *r = c->r;

		r->rows[c->last_row].kernels_unscoped++;
		/* its call perhaps found from the host, by its launch (an_ops_join) */
		if (!(s = xp_event_stat(p, e, XP_K_CORRELATION_ID)) || xp_stat_u64(s, &scope))
			return 0;
		if (r->nhrefs_ == r->caphrefs_ && xp_grow(&r->hrefs_, &r->caphrefs_, r->nhrefs_, sizeof(*r->hrefs_), 256))
			return XP_ERR_NOMEM;
		r->hrefs_[r->nhrefs_++] = (struct an_hostcall_ref){scope, r->rows[c->last_row].name, c->last_row, 0};
		return 0;
	}
	if (c->ncalls == c->capcalls && xp_grow(&c->calls, &c->capcalls, c->ncalls, sizeof(*c->calls), 256))
		return XP_ERR_NOMEM;
	c->calls[c->ncalls++] = (struct call_ref){scope, c->last_row};
	return 0;
}

/* Each row's calls: the distinct scope_range_ids among its kernels' (c->calls, emptied). */
static int count_calls(struct plane_ctx *c)
{
	size_t i;

	if (c->ncalls > 1 && (xp_sort_by_u64(c->calls, c->ncalls, sizeof(*c->calls), offsetof(struct call_ref, scope)) ||
			      xp_sort_by_u64(c->calls, c->ncalls, sizeof(*c->calls), offsetof(struct call_ref, row))))
		return XP_ERR_NOMEM;
	for (i = 0; i < c->ncalls; i++)
		if (!i || c->calls[i].row != c->calls[i - 1].row || c->calls[i].scope != c->calls[i - 1].scope)
			c->r->rows[c->calls[i].row].calls++;
	c->ncalls = 0;
	return 0;
}

static int line_is(const struct xp_line *l, const char *name)
{
	return l->name && !strcmp(l->name, name);
}

/* The most events of one TPU ops or modules line of p: what spans are made of, a line at a time. */
static size_t ops_lines_max(const struct xp_plane *p)
{
	static const char *const lines[] = {"XLA Ops", "Async XLA Ops", "XLA Modules", "Sparse Core Ops",
					    "Sparse Core Modules"};
	size_t i, k, most = 0;

	for (i = 0; i < p->nlines; i++)
		for (k = 0; k < sizeof(lines) / sizeof(lines[0]); k++)
			if (line_is(&p->lines[i], lines[k]) && p->lines[i].nevents > most)
				most = p->lines[i].nevents;
	return most;
}

static int plane_ops(struct plane_ctx *c, struct xp_err *err)
{
	struct xp_plane *p = c->p;
	unsigned char *use = calloc(p->nlines + 1, 1), *stray = xp_malloc_big(p->nevents + 1, 1);
	struct span *v = xp_malloc_big(ops_lines_max(p) + 1, sizeof(*v));
	const char **names = xp_malloc_big(p->nlines + 1, sizeof(*names));
	size_t i, k, n, count, ag = 0;
	int modline = -1, tpu = 0, ret = XP_ERR_NOMEM;

	if (!use || !stray || !v || !names)
		goto out;
	for (i = 0; i < p->nlines; i++) {
		if (line_is(&p->lines[i], "XLA Ops") || line_is(&p->lines[i], "Async XLA Ops") ||
		    line_is(&p->lines[i], "Sparse Core Ops"))
			tpu = 1;
		if (line_is(&p->lines[i], "XLA Modules") || line_is(&p->lines[i], "Sparse Core Modules")) {
			if (modline < 0)
				modline = (int)i;
			else
				c->dev->extra_module_lines++;
		}
	}
	if (tpu && modline >= 0 && !c->r->opts.tpu_leaves_only) {
		/* The modules, for programs: stray ones left out (their end says nothing). */
		use[modline] = 1;
		if ((ret = xp_plane_stray_ends(p, use, stray, &count, err)))
			goto out;
		use[modline] = 0;
		c->mods = xp_malloc_big(p->lines[modline].nevents + 1, sizeof(*c->mods));
		if (!c->mods) {
			ret = XP_ERR_NOMEM;
			goto out;
		}
		c->nmods = line_spans(p, (size_t)modline, stray, c->mods);
	}
	if (tpu) {
		for (i = 0; i < p->nlines; i++) {
			int sc = line_is(&p->lines[i], "Sparse Core Ops"), sync = sc || line_is(&p->lines[i], "XLA Ops");

			if (!sync && (!line_is(&p->lines[i], "Async XLA Ops") || c->r->opts.tpu_leaves_only))
				continue;
			c->sync_kind = sc ? AN_OP_SC : AN_OP_SYNC;
			use[i] = 1;
			ret = xp_plane_stray_ends(p, use, stray, &count, err);
			use[i] = 0;
			if (ret)
				goto out;
			c->dev->stray_events += count;
			n = line_spans(p, i, stray, v);
			ret = sync ? sync_line(c, v, n) : async_line(c, v, n);
			if (!ret)
				ret = agg_line(c, i, sync, &ag);
			if (ret)
				goto out;
		}
		ret = 0;
		goto out;
	}
	for (i = 0; i < p->naggs; i++)	/* GPU kernels stand each for itself: an aggregate is not one */
		c->dev->aggregated_left += p->aggs[i].occurrences > 0;
	/* GPU: the stream lines (an_device_lines), unless it names an XLA Modules line. */
	for (i = 0; i < p->nlines; i++)
		names[i] = p->lines[i].name ? p->lines[i].name : "";
	an_device_lines(names, p->nlines, use, &modline);
	ret = 0;
	if (modline >= 0)
		goto out;
	for (i = 0; i < p->nlines; i++)
		if (p->lines[i].skipped)
			use[i] = 0;
	if ((ret = xp_plane_stray_ends(p, use, stray, &count, err)))
		goto out;
	c->dev->stray_events += count;
	for (i = 0; i < p->nlines; i++) {
		const struct xp_line *l = &p->lines[i];

		if (!use[i])
			continue;
		for (k = l->first_event; k < l->first_event + l->nevents; k++)
			if (!stray[k] && (ret = gpu_event(c, &p->events[k])))
				goto out;
	}
	ret = count_calls(c);
out:
	if (ret == XP_ERR_NOMEM)
		xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	free(c->mods);
	c->mods = NULL;
	c->nmods = 0;
	free(c->calls);
	c->calls = NULL;
	c->ncalls = c->capcalls = 0;
	free(use);
	free(stray);
	free(v);
	free(names);
	return ret;
}

/* The device entry for key (made when new, its peaks from plane p when given). */
static struct an_ops_device *device_get(struct an_ops_result *r, const char *key, size_t *ix, int *is_new)
{
	struct an_ops_device *d = xp_hmap_row(&r->dev_ids_, key, &r->devices, &r->ndevices, &r->devcap,
					      sizeof(*r->devices), 16, is_new);

	if (!d)
		return NULL;
	*ix = (size_t)(d - r->devices);
	if (!*is_new)
		return d;
	d->name = strdup(key);
	return d->name ? d : NULL;
}

/*
 * Whether p has events on the lines ops reads (an_ops_want_lines): a trace
 * read for more (summarize's one read) may hold others, which ops leaves
 * as its own read would. -1 when out of memory.
 */
static int has_op_events(const struct xp_plane *p)
{
	const char **names = xp_malloc_big(p->nlines + 1, sizeof(*names));
	unsigned char *want = malloc(p->nlines + 1);
	size_t i;
	int has = 0;

	if (!names || !want) {
		free(names);
		free(want);
		return -1;
	}
	for (i = 0; i < p->nlines; i++)
		names[i] = p->lines[i].name;
	memset(want, 1, p->nlines);
	an_ops_want_lines(p->name, names, p->nlines, want, NULL);
	for (i = 0; i < p->nlines && !has; i++)
		has = want[i] && (p->lines[i].nevents || p->lines[i].naggs);
	free(names);
	free(want);
	return has;
}

int an_ops_add_plane(struct an_ops_result *r, struct xp_trace *t, size_t i, struct xp_err *err)
{
	struct plane_ctx c = {.r = r};
	char *key;
	int is_new = 0, ret;

	if ((ret = xp_trace_load_plane(t, i, err)))
		return ret;
	c.p = &t->planes[i];
	c.cpu = !strcmp(c.p->name, AN_CPU_PLANE);
	if (!c.p->nevents && !c.p->naggs)
		return 0;
	if ((ret = has_op_events(c.p)) <= 0)
		return ret ? xp_err_set(err, XP_ERR_NOMEM, "out of memory") : 0;
	key = an_device_key(t->nhostnames ? t->hostnames[0] : "", c.p->name);
	c.dev = key ? device_get(r, key, &c.dev_ix, &is_new) : NULL;
	free(key);
	if (!c.dev || (is_new && device_peaks(c.p, c.dev)))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	/* Memos: none (out of memory) only means working it out each time. */
	c.memo = calloc(MEMO_SLOTS, sizeof(*c.memo));
	c.names = xp_calloc_big(2 * (c.p->nevmetas + 1), sizeof(*c.names));
	ret = plane_ops(&c, err);
	free(c.memo);
	free(c.names);
	return ret;
}

int an_ops_wants_plane(const struct an_ops_opts *o, const char *plane)
{
	return an_is_device_plane(plane) && (!o->device || an_device_matches(plane, o->device));
}

static int cmp_opt_str(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) : (a != NULL) - (b != NULL);
}

/*
 * Whether src's join is to be kept over dst's: a better state, or (two
 * inputs finding it, which only a shared program id gives) the smaller
 * scope and source, so that pooling in any order gives the same.
 */
static int hlo_better(const struct an_op_row *src, const struct an_op_row *dst)
{
	int c;

	if (src->hlo_state != dst->hlo_state)
		return src->hlo_state > dst->hlo_state;
	if (src->hlo_state != AN_OP_HLO_FOUND)
		return 0;
	if ((c = cmp_opt_str(src->scope, dst->scope)) || (c = cmp_opt_str(src->source, dst->source)))
		return c < 0;
	return cmp_opt_str(src->op_type, dst->op_type) < 0;
}

/* s kept once in r (rows of one instruction share its op name, however long); NULL when out of memory. */
static const char *intern(struct an_ops_result *r, const char *s)
{
	size_t v = r->nstrs_;
	char *copy;
	int k;

	/* room and the copy first: the index then never names a string not kept */
	if (xp_grow(&r->strs_, &r->strs_cap_, r->nstrs_, sizeof(*r->strs_), 16) || !(copy = strdup(s)))
		return NULL;
	if ((k = xp_hmap_get_or_put(&r->strs_ix_, s, &v)) != 0) {
		free(copy);
		return k < 0 ? NULL : r->strs_[v];
	}
	r->strs_[r->nstrs_] = copy;
	return r->strs_[r->nstrs_++];
}

/* Sets a row's join to its HLO (scope and source kept in r's strings); -1 when out of memory. */
static int row_hlo_set(struct an_ops_result *r, struct an_op_row *row, enum an_op_hlo state, const char *scope,
		       const char *source, const char *op_type)
{
	const char *sc = scope ? intern(r, scope) : NULL, *so = source ? intern(r, source) : NULL;
	const char *ty = op_type && *op_type ? intern(r, op_type) : NULL;

	if ((scope && !sc) || (source && !so) || (op_type && *op_type && !ty))
		return -1;
	row->scope = sc;
	row->source = so;
	row->op_type = ty;
	row->hlo_state = state;
	return 0;
}

/* An op row (of result res) and the module its HLO is in, to decode one module at a time. */
struct join_pick {
	uint64_t entry;
	size_t res, row;
};

/* Whether a row's cost is to come from the HLO: a GPU row the trace gives no FLOPs and no bytes. */
static int wants_cost(const struct an_op_row *row)
{
	return row->line == AN_OP_GPU && !row->tf && row->cost == AN_OP_COST_UNSET && !row->flops.n && !row->bytes.n;
}

/*
 * A GPU row's FLOPs and bytes: its instruction's (ins, of m; NULL: none)
 * cost per call times its calls, where the calls are known. -1 when out of
 * memory.
 */
static int row_cost(struct an_op_row *row, const struct xp_hlo_module *m, const struct xp_hlo_instr *ins)
{
	struct an_cost c;
	uint64_t v;

	if (!ins) {
		row->cost = AN_OP_COST_NO_INSTR;
		return 0;
	}
	if (an_cost_of(m, ins, &c))
		return -1;
	if (!c.flops_known && !c.bytes_known)
		row->cost = AN_OP_COST_UNKNOWN;
	else if (!an_op_calls_known(row))
		row->cost = AN_OP_COST_NO_CALLS;
	else
		row->cost = AN_OP_COST_HLO;
	if (!c.flops_known && !(row->cost_why = strdup(c.unknown)))
		return -1;
	if (row->cost != AN_OP_COST_HLO)
		return 0;
	if (c.flops_known)
		row->flops = (struct an_sum){c.flops * row->calls, row->occurrences,
					     __builtin_mul_overflow(c.flops, (uint64_t)row->calls, &v)};
	if (c.bytes_known)
		row->bytes = (struct an_sum){c.bytes * row->calls, row->occurrences,
					     __builtin_mul_overflow(c.bytes, (uint64_t)row->calls, &v)};
	return 0;
}

/* Whether row is to be looked up in its HLO: not yet, for its scope (opts.hlo) or its cost. */
static int wants_join(const struct an_ops_result *r, const struct an_op_row *row)
{
	return row->hlo_state < AN_OP_HLO_NO_MODULE && !row->tf && (r->opts.hlo || wants_cost(row));
}

/*
 * Each row of n results of t not yet joined looked up in t's HLO: for its
 * scope and source (opts.hlo), and a GPU row for its cost (row_cost); each
 * module decoded once for them all. The modules found are counted in the
 * first result, once for t.
 */
static int join_hlo(struct an_ops_result *const *rs, size_t n, struct xp_trace *t, struct xp_err *err)
{
	struct an_hlo_set s = {0};
	struct join_pick *pick = NULL;
	size_t i, k, res, npick = 0, total = 0;
	int ret, nomem = 0;

	for (res = 0; res < n; res++)
		total += rs[res]->nrows;
	if ((ret = an_hlo_find(&s, t, err)))
		goto out;
	rs[0]->hlo_modules += s.n;
	rs[0]->hlo_inputs_without += !s.n;
	if (!(pick = malloc((total ? total : 1) * sizeof(*pick))))
		goto nomem;
	for (res = 0; res < n; res++) {
		struct an_ops_result *r = rs[res];

		for (i = 0; i < r->nrows; i++) {
			struct an_op_row *row = &r->rows[i];
			struct an_hlo_entry *e;

			if (!wants_join(r, row))
				continue;	/* joined already (a result is joined once per input), or not wanted */
			if ((e = an_hlo_lookup(&s, row->module, row->program_id, row->has_program_id)))
				pick[npick++] = (struct join_pick){(uint64_t)(e - s.e), res, i};
			else if (row_hlo_set(r, row, AN_OP_HLO_NO_MODULE, NULL, NULL, NULL) ||
				 (wants_cost(row) && row_cost(row, NULL, NULL)))
				goto nomem;
		}
	}
	/* module by module, each decoded once and let go before the next */
	if (xp_sort_by_u64(pick, npick, sizeof(*pick), offsetof(struct join_pick, entry)))
		goto nomem;
	for (i = 0; i < npick; i = k) {
		struct an_hlo_entry *e = &s.e[pick[i].entry];
		const struct xp_hlo_module *m = an_hlo_module(&s, e, &nomem);

		if (nomem)
			goto nomem;
		for (k = i; k < npick && pick[k].entry == pick[i].entry; k++) {
			struct an_ops_result *r = rs[pick[k].res];
			struct an_op_row *row = &r->rows[pick[k].row];
			const struct xp_hlo_instr *ins = m ? an_hlo_op(m, row->name) : NULL;
			char *src = NULL;

			if (ins && *ins->source_file &&
			    asprintf(&src, "%s:%d", ins->source_file, (int)ins->source_line) < 0)
				goto nomem;
			ret = row_hlo_set(r, row, ins ? AN_OP_HLO_FOUND : m ? AN_OP_HLO_NOT_FOUND : AN_OP_HLO_NO_MODULE,
					  ins ? ins->op_name : NULL, src, ins ? ins->op_type : NULL);
			free(src);
			if (ret || (wants_cost(row) && row_cost(row, m, ins)))
				goto nomem;
		}
		an_hlo_forget(e);
	}
	rs[0]->hlo_failed += s.failed;
	ret = 0;
	goto out;
nomem:
	ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
out:
	free(pick);
	an_hlo_set_release(&s);
	return ret;
}

int an_ops_planes_joined(const struct an_ops_opts *o, struct xp_trace *t, const unsigned char *want,
			 struct an_ops_result **out, struct xp_err *err)
{
	struct an_ops_result *one = calloc(t->nplanes + 1, sizeof(*one)), **rs = calloc(t->nplanes + 1, sizeof(*rs));
	size_t i, n = 0;
	int ret = 0;

	*out = one;
	if (!one || !rs) {
		free(rs);
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	}
	for (i = 0; i < t->nplanes; i++) {
		an_ops_init(&one[i], o);
		if (!ret && (want ? want[i] : an_ops_wants_plane(o, t->planes[i].name))) {
			rs[n++] = &one[i];
			ret = an_ops_add_plane(&one[i], t, i, err);
		}
	}
	if (!ret && n)
		ret = an_ops_join_many(rs, n, t, err);
	free(rs);
	return ret;
}

int an_ops_add(struct an_ops_result *r, struct xp_trace *t, struct xp_err *err)
{
	struct an_ops_result *one;
	size_t i;
	int ret;

	/*
	 * Each plane alone, joined to its trace's HLO, then pooled as merge
	 * pools inputs: an op is looked up in its own trace's HLO only,
	 * whatever came before, and a summary (each device apart, an_run.h)
	 * gives the same.
	 */
	r->inputs++;
	ret = an_ops_planes_joined(&r->opts, t, NULL, &one, err);
	for (i = 0; one && i < t->nplanes; i++) {
		if (!ret)
			ret = an_ops_merge(r, &one[i], err);
		an_ops_release(&one[i]);
	}
	free(one);
	return ret;
}

/*
 * Each row's calls from the host where its kernels carry no scope_range_id
 * (an_hostcall.h), for the rows of n results at once (one search of the
 * host planes): its calls known when every such kernel's is. Each result's
 * references are let go.
 */
static int host_calls(struct an_ops_result *const *rs, size_t n, struct xp_trace *t, struct xp_err *err)
{
	struct an_hostcall_ref *h = NULL;
	size_t *first = calloc(n + 1, sizeof(*first)), total = 0, i, k, m, found, distinct;
	int ret = 0;

	/* one array, each result's rows numbered after the previous results' */
	for (k = 0; first && k < n; k++) {
		first[k + 1] = first[k] + rs[k]->nrows;
		total += rs[k]->nhrefs_;
	}
	if (!first || (total && !(h = malloc(total * sizeof(*h))))) {
		ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (k = m = 0; k < n; k++)
		for (i = 0; i < rs[k]->nhrefs_; i++) {
			h[m] = rs[k]->hrefs_[i];
			h[m++].row += first[k];
		}
	if (!total || (ret = an_host_calls(t, h, total, err)))
		goto out;
	if (xp_sort_by_u64(h, total, sizeof(*h), offsetof(struct an_hostcall_ref, thunk)) ||
	    xp_sort_by_u64(h, total, sizeof(*h), offsetof(struct an_hostcall_ref, row))) {
		ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (i = 0, k = 0; i < total; i = m) {
		struct an_op_row *row;

		while (h[i].row >= first[k + 1])
			k++;
		row = &rs[k]->rows[h[i].row - first[k]];
		for (m = i, found = distinct = 0; m < total && h[m].row == h[i].row; m++) {
			found += h[m].thunk != AN_HOSTCALL_NONE;
			distinct += h[m].thunk != AN_HOSTCALL_NONE && (m == i || h[m].thunk != h[m - 1].thunk);
		}
		if (found != row->kernels_unscoped)
			continue;	/* some kernel's call unknown: the row's too */
		row->calls += distinct;
		row->kernels_unscoped = 0;
		row->calls_host = 1;
	}
out:
	for (k = 0; k < n; k++) {
		free(rs[k]->hrefs_);
		rs[k]->hrefs_ = NULL;
		rs[k]->nhrefs_ = rs[k]->caphrefs_ = 0;
	}
	free(first);
	free(h);
	return ret;
}

int an_ops_join_many(struct an_ops_result *const *rs, size_t n, struct xp_trace *t, struct xp_err *err)
{
	size_t i, k;
	int ret = host_calls(rs, n, t, err);

	for (k = 0; k < n && !ret; k++)
		for (i = 0; i < rs[k]->nrows; i++)
			if (wants_join(rs[k], &rs[k]->rows[i]))
				return join_hlo(rs, n, t, err);
	return ret;	/* nothing to look up: the metadata plane left unread */
}

int an_ops_join(struct an_ops_result *r, struct xp_trace *t, struct xp_err *err)
{
	return an_ops_join_many(&r, 1, t, err);
}

/* ---- pooling and finishing -------------------------------------------------- */

/* Whether a's peaks come before b's: by source, FLOP/s, bandwidth, chip (an order of its own, for any order of inputs). */
static int peaks_greater(const struct an_ops_device *a, const struct an_ops_device *b)
{
	if (a->peak_src != b->peak_src)
		return a->peak_src > b->peak_src;
	if (a->peak_flops != b->peak_flops)
		return a->peak_flops > b->peak_flops;
	if (a->peak_bw != b->peak_bw)
		return a->peak_bw > b->peak_bw;
	return cmp_opt_str(a->chip, b->chip) > 0;
}

int an_ops_merge(struct an_ops_result *dst, const struct an_ops_result *src, struct xp_err *err)
{
	size_t i, k;

	dst->inputs += src->inputs;
	dst->summaries += src->summaries;
	for (k = 0; k < AN_OP_LINES; k++) {
		dst->events[k] = (size_t)xp_sat_add_u64(dst->events[k], src->events[k]);
		dst->total_ps[k] = xp_sat_add(dst->total_ps[k], src->total_ps[k]);
		dst->self_ps[k] = xp_sat_add(dst->self_ps[k], src->self_ps[k]);
	}
	for (i = 0; i < src->ndevices; i++) {
		const struct an_ops_device *s = &src->devices[i];
		struct an_ops_device *d;
		size_t ix;
		int is_new = 0;

		d = device_get(dst, s->name, &ix, &is_new);
		if (!d)
			return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		d->peaks_differ |= s->peaks_differ;
		if (!is_new && (d->peak_src != s->peak_src || d->peak_flops != s->peak_flops ||
				d->peak_bw != s->peak_bw || cmp_opt_str(d->chip, s->chip)))
			d->peaks_differ = 1;
		if (is_new || (d->peaks_differ && peaks_greater(s, d))) {	/* the greatest, in any order */
			d->peak_src = s->peak_src;
			d->peak_flops = s->peak_flops;
			d->peak_bw = s->peak_bw;
			free(d->chip);
			d->chip = NULL;
			if (s->chip && !(d->chip = strdup(s->chip)))
				return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		}
		for (k = 0; k < AN_OP_LINES; k++)
			d->events[k] = (size_t)xp_sat_add_u64(d->events[k], s->events[k]);
		d->stray_events += s->stray_events;
		d->partial_overlaps += s->partial_overlaps;
		d->odd_values += s->odd_values;
		d->kernels_no_op += s->kernels_no_op;
		d->extra_module_lines += s->extra_module_lines;
		d->aggregated = (size_t)xp_sat_add_u64(d->aggregated, s->aggregated);
		d->aggregated_left += s->aggregated_left;
		d->aggregated_odd += s->aggregated_odd;
		d->leaf_ps = xp_sat_add(d->leaf_ps, s->leaf_ps);
		d->leaf_flops_ps = xp_sat_add(d->leaf_flops_ps, s->leaf_flops_ps);
		d->leaf_model_ps = xp_sat_add(d->leaf_model_ps, s->leaf_model_ps);
		sum_merge(&d->leaf_flops, &s->leaf_flops);
		sum_merge(&d->leaf_model_flops, &s->leaf_model_flops);
	}
	for (i = 0; i < src->nrows; i++) {
		const struct an_op_row *s = &src->rows[i];
		struct op_probe q = {
			.line = s->line, .tf = s->tf, .name = s->name, .hlo = s->hlo, .category = s->category,
			.module = s->module, .program_id = s->program_id, .has_program_id = s->has_program_id,
		};
		struct an_op_row *d;
		int is_new = 0;

		q.name_len = strlen(s->name);
		q.hlo_len = s->hlo ? strlen(s->hlo) : 0;
		q.category_len = s->category ? strlen(s->category) : 0;
		q.module_len = s->module ? strlen(s->module) : 0;
		d = row_get(dst, &q, &is_new);
		if (!d)
			return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		ridge_join(d, s->ridge, s->ridge_differs, is_new);
		row_add(d, s);
		/* of two reasons the smaller, so that pooling in any order gives the same */
		if (s->cost_why && (!d->cost_why || strcmp(s->cost_why, d->cost_why) < 0)) {
			free(d->cost_why);
			if (!(d->cost_why = strdup(s->cost_why)))
				return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		}
		if (hlo_better(s, d) && row_hlo_set(dst, d, s->hlo_state, s->scope, s->source, s->op_type))
			return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	}
	dst->hlo_modules += src->hlo_modules;
	dst->hlo_failed += src->hlo_failed;
	dst->hlo_inputs_without += src->hlo_inputs_without;
	return 0;
}

/* Whether s ends with suffix. */
static int ends_with(const char *s, const char *suffix)
{
	size_t n = s ? strlen(s) : 0, k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

void an_ops_work_flops(const struct an_ops_result *r, const struct an_ops_device *d, struct an_work_flops *w)
{
	size_t i;

	memset(w, 0, sizeof(*w));
	if (d->events[AN_OP_SYNC] || d->events[AN_OP_SC]) {
		w->flops = d->leaf_flops.v;
		w->model_flops = d->leaf_model_flops.v;
		w->overflow = d->leaf_flops.overflow || d->leaf_model_flops.overflow;
		w->work_ps = d->leaf_ps;
		w->flops_ps = d->leaf_flops_ps;
		w->model_ps = d->leaf_model_ps;
		return;
	}
	for (i = 0; i < r->nrows; i++) {
		const struct an_op_row *row = &r->rows[i];

		if (row->line != AN_OP_GPU)
			continue;
		w->work_ps = xp_sat_add(w->work_ps, row->total_ps);
		if (!an_sum_known(&row->flops, row->occurrences) && !row->flops.overflow)
			continue;
		w->overflow |= row->flops.overflow | xp_sat_add_to_u64(&w->flops, row->flops.v);
		w->flops_ps = xp_sat_add(w->flops_ps, row->total_ps);
	}
}

const char *an_op_calls_from(const struct an_op_row *row)
{
	if (!an_op_calls_known(row))
		return NULL;
	return row->calls_host ? "host" : "scope_range_id";
}

const char *an_op_cost_from(const struct an_op_row *row)
{
	if (row->cost == AN_OP_COST_HLO)
		return "hlo";
	return row->flops.n || row->model_flops.n || row->bytes.n ? "trace" : NULL;
}

int an_op_timed_work(const struct an_op_row *row)
{
	static const char *const halves[] = { "-start", "-done" };
	size_t i;

	if (row->line == AN_OP_ASYNC)
		return 0;
	for (i = 0; i < 2; i++) {
		const char *cat = row->category;
		size_t n = strlen(row->name);

		/* "copy-done.2": the suffix before a ".N" */
		while (n && isdigit((unsigned char)row->name[n - 1]))
			n--;
		if (n && row->name[n - 1] == '.' && n - 1 >= strlen(halves[i]) &&
		    !strncmp(row->name + n - 1 - strlen(halves[i]), halves[i], strlen(halves[i])))
			return 0;
		if (ends_with(row->name, halves[i]) || ends_with(cat, halves[i]))
			return 0;
	}
	return 1;
}

double an_op_flops_per_s(const struct an_op_row *row)
{
	if (!an_op_timed_work(row) || !an_sum_known(&row->flops, row->occurrences) || row->total_ps <= 0)
		return -1;
	return (double)row->flops.v / ((double)row->total_ps * 1e-12);
}

double an_op_bytes_per_s(const struct an_op_row *row)
{
	if (!an_op_timed_work(row) || !an_sum_known(&row->bytes, row->occurrences) || row->total_ps <= 0)
		return -1;
	return (double)row->bytes.v / ((double)row->total_ps * 1e-12);
}

double an_op_intensity(const struct an_op_row *row)
{
	if (!an_sum_known(&row->flops, row->occurrences) || !an_sum_known(&row->bytes, row->occurrences) ||
	    !row->bytes.v)
		return -1;
	return (double)row->flops.v / (double)row->bytes.v;
}

static enum an_bound bound_of(const struct an_op_row *row)
{
	int fk = an_sum_known(&row->flops, row->occurrences), bk = an_sum_known(&row->bytes, row->occurrences);

	if (!fk || !bk || row->ridge <= 0 || row->ridge_differs || (!row->flops.v && !row->bytes.v) ||
	    !an_op_timed_work(row))
		return AN_BOUND_NONE;
	if (!row->bytes.v)
		return AN_BOUND_COMPUTE;
	return (double)row->flops.v / (double)row->bytes.v >= row->ridge ? AN_BOUND_COMPUTE : AN_BOUND_MEMORY;
}

static _Thread_local enum an_ops_sort sort_by;

static int cmp_nullstr(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_row(const void *pa, const void *pb)
{
	const struct an_op_row *a = pa, *b = pb;
	uint64_t x = 0, y = 0;
	int c;

	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	switch (sort_by) {
	case AN_OPS_SORT_SELF:
		x = (uint64_t)a->self_ps;
		y = (uint64_t)b->self_ps;
		break;
	case AN_OPS_SORT_FLOPS:
		/* unknown sums last */
		x = an_sum_known(&a->flops, a->occurrences) ? a->flops.v : 0;
		y = an_sum_known(&b->flops, b->occurrences) ? b->flops.v : 0;
		break;
	case AN_OPS_SORT_BYTES:
		x = an_sum_known(&a->bytes, a->occurrences) ? a->bytes.v : 0;
		y = an_sum_known(&b->bytes, b->occurrences) ? b->bytes.v : 0;
		break;
	default:
		break;
	}
	if (x != y)
		return x > y ? -1 : 1;
	if (a->total_ps != b->total_ps)
		return a->total_ps > b->total_ps ? -1 : 1;
	if ((c = strcmp(a->name, b->name)) || (c = cmp_nullstr(a->module, b->module)) ||
	    (c = cmp_nullstr(a->hlo, b->hlo)) || (c = cmp_nullstr(a->category, b->category)))
		return c;
	if (a->tf != b->tf)	/* an XLA op before a TensorFlow op of its name */
		return a->tf ? 1 : -1;
	if (a->has_program_id != b->has_program_id)
		return a->has_program_id ? -1 : 1;
	return a->program_id < b->program_id ? -1 : a->program_id > b->program_id;
}

static void row_notes(struct an_ops_result *r, const struct an_op_row *row)
{
	const struct an_sum *s[3] = {&row->flops, &row->model_flops, &row->bytes};
	size_t k;

	for (k = 0; k < 3; k++) {
		if (s[k]->overflow)
			r->overflows++;
		else if (s[k]->n && s[k]->n < row->occurrences)
			r->partial_sums++;
	}
	if (row->total_ps == INT64_MAX || row->self_ps == INT64_MAX || row->occurrences == SIZE_MAX)
		r->overflows++;
	r->ridge_differs += row->ridge_differs && row->ridge > 0;
}

/* The rows per cost state, and the first distinct reasons the cost model gave (rows sorted). */
static void cost_counts(struct an_ops_result *r)
{
	size_t i, k;

	memset(r->cost, 0, sizeof(r->cost));
	r->ncost_what = r->cost_no_flops = r->calls_host = 0;
	for (i = 0; i < r->nrows; i++) {
		const struct an_op_row *row = &r->rows[i];

		r->cost[row->cost]++;
		r->calls_host += row->calls_host && an_op_calls_known(row);
		r->cost_no_flops += row->cost == AN_OP_COST_HLO && !an_sum_known(&row->flops, row->occurrences) &&
				    !row->flops.overflow && an_sum_known(&row->bytes, row->occurrences);
		if (!row->cost_why || r->ncost_what == AN_OPS_COST_WHAT)
			continue;
		for (k = 0; k < r->ncost_what && strcmp(r->cost_what[k], row->cost_why); k++)
			;
		if (k == r->ncost_what)
			r->cost_what[r->ncost_what++] = row->cost_why;
	}
}

enum group_by { GROUP_CATEGORY, GROUP_SOURCE, GROUP_FRAMEWORK, GROUP_FRAMEWORK_TYPE };

/* The last '/'-separated frame of an op name ("jit(f)/dense/dot_general": "dot_general"); NULL when empty. */
static const char *last_frame(const char *s)
{
	const char *slash = strrchr(s, '/');

	s = slash ? slash + 1 : s;
	return *s ? s : NULL;
}

/* The label of an XLA op without an op name: by how it was joined (as in the scope tree). */
static const char *unnamed_label(const struct an_op_row *row)
{
	return row->hlo_state == AN_OP_HLO_FOUND ? AN_SCOPE_NO_OP_NAME
	       : row->hlo_state == AN_OP_HLO_NOT_FOUND ? AN_SCOPE_NOT_IN_HLO : AN_SCOPE_NO_HLO;
}

/*
 * A row's group: its category, its source line, its framework op (*type
 * that op's type, NULL: none), or that type ("-": none).
 */
static const char *group_of(const struct an_op_row *row, enum group_by by, const char **type)
{
	const char *g;

	*type = NULL;
	if (by == GROUP_FRAMEWORK_TYPE) {
		group_of(row, GROUP_FRAMEWORK, &g);
		return g ? g : "-";
	}
	if (by == GROUP_SOURCE)
		return row->source ? row->source : AN_SOURCE_NONE;
	if (by == GROUP_CATEGORY)
		return row->category;
	if (row->tf) {
		*type = row->category;
		return row->name;
	}
	if (row->hlo_state == AN_OP_HLO_FOUND && *row->scope) {
		/* no op_type (JAX writes none): the op name's last frame, as XProf types JAX ops */
		*type = row->op_type ? row->op_type : last_frame(row->scope);
		return row->scope;
	}
	return unnamed_label(row);
}

/* Rows pooled per line kind and group (category, source line or framework op) into *out. */
static int build_groups(struct an_ops_result *r, enum group_by by, struct an_op_row **out, size_t *nout)
{
	struct xp_hmap ix = {0};
	size_t i, cap = 0;
	int ret = XP_ERR_NOMEM;

	for (i = 0; i < r->nrows; i++) {
		const struct an_op_row *s = &r->rows[i];
		const char *type, *g = group_of(s, by, &type);
		char *key = NULL;
		struct an_op_row *d;
		int is_new;

		/* lengths first: names from a trace may hold any byte */
		if (asprintf(&key, "%d %zu:%s%zu:%s", (int)s->line, g ? strlen(g) : 0, g ? g : "", type ? strlen(type) : 0,
			     type ? type : "") < 0)
			goto out;
		d = xp_hmap_row(&ix, key, out, nout, &cap, sizeof(**out), 16, &is_new);
		free(key);
		if (!d)
			goto out;
		if (is_new) {
			const char *c = by == GROUP_CATEGORY ? g : type;

			d->line = s->line;
			d->name = strdup(g ? g : "-");
			d->category = c ? strdup(c) : NULL;
			if (!d->name || (c && !d->category))
				goto out;
			d->ridge = s->ridge;
			d->ridge_differs = s->ridge_differs;
		} else {
			ridge_join(d, s->ridge, s->ridge_differs, 0);
		}
		row_add(d, s);
	}
	ret = 0;
out:
	xp_hmap_release(&ix);
	return ret;
}

/* The scope tree of the sync and GPU rows' self time (async rows overlap other work: left out, as ops keeps them apart). */
static int build_scopes(struct an_ops_result *r)
{
	struct an_scope_item *items = calloc(r->nrows ? r->nrows : 1, sizeof(*items));
	size_t *row_of = malloc((r->nrows ? r->nrows : 1) * sizeof(*row_of));
	size_t i, n = 0;
	int ret = -1;

	if (!items || !row_of)
		goto out;
	for (i = 0; i < r->nrows; i++) {
		const struct an_op_row *row = &r->rows[i];

		if (row->line == AN_OP_ASYNC || row->line == AN_OP_SC)
			continue;	/* overlapping spans; a SparseCore's ops, on a device of its own */
		items[n].path = row->hlo_state == AN_OP_HLO_FOUND && *row->scope ? row->scope : unnamed_label(row);
		items[n].ps = row->self_ps;
		items[n].occurrences = row->occurrences;
		row_of[n++] = i;
	}
	if (an_scope_tree(items, n, &r->scopes, &r->nscopes))
		goto out;
	for (i = 0; i < r->nscopes; i++)	/* the heaviest op: as an index into rows */
		r->scopes[i].top = row_of[r->scopes[i].top];
	ret = 0;
out:
	free(items);
	free(row_of);
	return ret;
}

static void finish_rows(struct an_ops_result *r, struct an_op_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int64_t st = r->self_ps[rows[i].line];

		rows[i].share = st > 0 ? (double)rows[i].self_ps / (double)st : 0;
		rows[i].bound = bound_of(&rows[i]);
	}
	sort_by = r->opts.sort;
	if (n)	/* rows is NULL when there are none: qsort(NULL, 0) is undefined */
		qsort(rows, n, sizeof(*rows), cmp_row);
}

int an_ops_finish(struct an_ops_result *r, struct xp_err *err)
{
	size_t i;

	r->stray_events = r->partial_overlaps = r->odd_values = r->kernels_no_op = 0;
	r->extra_module_lines = r->overflows = r->partial_sums = r->ridge_differs = 0;
	r->aggregated = r->aggregated_left = r->aggregated_odd = 0;
	for (i = 0; i < r->ndevices; i++) {
		r->aggregated = (size_t)xp_sat_add_u64(r->aggregated, r->devices[i].aggregated);
		r->aggregated_left += r->devices[i].aggregated_left;
		r->aggregated_odd += r->devices[i].aggregated_odd;
		r->stray_events += r->devices[i].stray_events;
		r->partial_overlaps += r->devices[i].partial_overlaps;
		r->odd_values += r->devices[i].odd_values;
		r->kernels_no_op += r->devices[i].kernels_no_op;
		r->extra_module_lines += r->devices[i].extra_module_lines;
	}
	for (i = 0; i < r->nrows; i++)
		row_notes(r, &r->rows[i]);
	/* The key index points into the unsorted rows: no more rows are added. */
	xp_hmap_release(&r->by_key_);
	if ((r->opts.by_category && build_groups(r, GROUP_CATEGORY, &r->cats, &r->ncats)) ||
	    (r->opts.by_source && build_groups(r, GROUP_SOURCE, &r->sources, &r->nsources)) ||
	    (r->opts.by_framework && build_groups(r, GROUP_FRAMEWORK, &r->frameworks, &r->nframeworks)) ||
	    (r->opts.by_framework && build_groups(r, GROUP_FRAMEWORK_TYPE, &r->fwtypes, &r->nfwtypes)))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	finish_rows(r, r->rows, r->nrows);
	cost_counts(r);
	finish_rows(r, r->cats, r->ncats);
	finish_rows(r, r->sources, r->nsources);
	finish_rows(r, r->frameworks, r->nframeworks);
	finish_rows(r, r->fwtypes, r->nfwtypes);
	if (r->opts.by_scope && build_scopes(r))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	return 0;
}

int an_ops_mark_hlo(const struct an_ops_result *r, struct an_hlo_set *s)
{
	size_t i;

	for (i = 0; i < r->nrows; i++)
		if (an_hlo_mark_op(s, r->rows[i].module, r->rows[i].program_id, r->rows[i].has_program_id,
				   r->rows[i].name))
			return -1;
	return 0;
}

void an_ops_hlo_count(const struct an_ops_result *r, struct an_ops_hlo_counts *c)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < r->nrows; i++) {
		const struct an_op_row *row = &r->rows[i];

		if (row->tf) {
			c->tf++;
			continue;
		}
		c->ops++;
		if (row->hlo_state == AN_OP_HLO_FOUND) {
			c->found++;
			c->found_without_op_name += !*row->scope;
		} else if (row->hlo_state == AN_OP_HLO_NOT_FOUND) {
			c->not_in_hlo++;
		} else {
			c->without_hlo++;
		}
	}
}

int64_t an_ops_scopes_total(const struct an_ops_result *r)
{
	int64_t all = 0;
	size_t i;

	for (i = 0; i < r->nscopes; i++)
		if (r->scopes[i].parent == SIZE_MAX)
			all = xp_sat_add(all, r->scopes[i].total_ps);
	return all;
}

void an_ops_want_lines(const char *plane, const char *const *names, size_t n, unsigned char *want,
		       void *device_pattern)
{
	size_t i;
	int tpu = 0, modline;

	(void)device_pattern;
	if (!an_is_device_plane(plane))
		return;
	for (i = 0; i < n; i++)
		tpu |= !strcmp(names[i], "XLA Ops") || !strcmp(names[i], "Async XLA Ops") ||
		       !strcmp(names[i], "Sparse Core Ops");
	if (tpu) {
		for (i = 0; i < n; i++)
			want[i] = !strcmp(names[i], "XLA Ops") || !strcmp(names[i], "Async XLA Ops") ||
				  !strcmp(names[i], "XLA Modules") || !strcmp(names[i], "Sparse Core Ops") ||
				  !strcmp(names[i], "Sparse Core Modules");
		return;
	}
	memset(want, 0, n);
	an_device_lines(names, n, want, &modline);
	if (modline >= 0)
		memset(want, 0, n);	/* modules but no ops: nothing to read */
}

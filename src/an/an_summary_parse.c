/* SPDX-License-Identifier: Apache-2.0 */
/* The summary line format, read side: every field of a line checked, into a run (an_summary.h). */
#include "an_summary.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_functions.h"
#include "xp_hmap.h"
#include "xp_sat.h"

/* The exact integers a JSON number (a double) carries: larger ones are written as strings. */
#define EXACT_MAX 9007199254740992.0	/* 2^53 */

int an_summary_sniff(const void *head, size_t n)
{
	size_t m = sizeof(AN_SUMMARY_MAGIC) - 1;

	return n >= m && !memcmp(head, AN_SUMMARY_MAGIC, m);
}

/* Parsing state: where we are, for messages. */
struct pctx {
	struct xp_err *err;
	const char *file;
	size_t line;
	const char *field;
	const char *where;	/* inside the kernels or ops section: which plane and row */
};

static int bad(struct pctx *c, const char *what)
{
	return xp_err_set(c->err, XP_ERR_FORMAT, "'%s' line %zu: %s%s%s%s%s", c->file, c->line,
			  c->where ? c->where : "", c->where ? ": " : "", what, c->field ? ": " : "",
			  c->field ? c->field : "");
}

/* An integer: a JSON number that is integral and exact, or a string of decimal digits. */
static int get_int(const cJSON *v, int64_t lo, int64_t hi, int64_t *out)
{
	if (cJSON_IsNumber(v)) {
		double d = v->valuedouble;

		if (!(d >= -EXACT_MAX && d <= EXACT_MAX) || d != (double)(int64_t)d)
			return -1;
		*out = (int64_t)d;
	} else if (cJSON_IsString(v) && v->valuestring) {
		const char *s = v->valuestring;
		char *end;
		long long x;

		if (!*s || !(s[0] == '-' || (s[0] >= '0' && s[0] <= '9')))
			return -1;
		errno = 0;
		x = strtoll(s, &end, 10);
		if (errno || *end)
			return -1;
		*out = x;
	} else {
		return -1;
	}
	return *out < lo || *out > hi ? -1 : 0;
}

static int get_u64(const cJSON *v, uint64_t *out)
{
	if (cJSON_IsNumber(v)) {
		int64_t x;

		if (get_int(v, 0, INT64_MAX, &x))
			return -1;
		*out = (uint64_t)x;
		return 0;
	}
	if (cJSON_IsString(v) && v->valuestring) {
		const char *s = v->valuestring;
		char *end;
		unsigned long long x;

		if (!(s[0] >= '0' && s[0] <= '9'))
			return -1;
		errno = 0;
		x = strtoull(s, &end, 10);
		if (errno || *end)
			return -1;
		*out = x;
		return 0;
	}
	return -1;
}

static const cJSON *member(struct pctx *c, const cJSON *obj, const char *name)
{
	c->field = name;
	return cJSON_GetObjectItemCaseSensitive(obj, name);
}

static int field_int(struct pctx *c, const cJSON *obj, const char *name, int64_t lo, int64_t hi,
		     int64_t *out)
{
	const cJSON *v = member(c, obj, name);

	if (!v)
		return bad(c, "missing field");
	return get_int(v, lo, hi, out) ? bad(c, "not an integer in range") : 0;
}

/* A count that is 0 when absent (the writer leaves zeros out). */
static int count_int(struct pctx *c, const cJSON *obj, const char *name, int64_t lo, int64_t hi, int64_t *out)
{
	const cJSON *v = member(c, obj, name);

	*out = 0;
	if (!v)
		return 0;
	return get_int(v, lo, hi, out) ? bad(c, "not an integer in range") : 0;
}

/* A string field: *out NULL when absent or null and optional. */
static int field_str(struct pctx *c, const cJSON *obj, const char *name, int optional, char **out)
{
	const cJSON *v = member(c, obj, name);

	*out = NULL;
	if ((!v || cJSON_IsNull(v)) && optional)
		return 0;
	if (!cJSON_IsString(v) || !v->valuestring)
		return bad(c, v ? "not a string" : "missing field");
	*out = strdup(v->valuestring);
	return *out ? 0 : xp_err_set(c->err, XP_ERR_NOMEM, "out of memory");
}

/* The same, copied into the arena a (*out NULL where optional and absent). */
static int field_str_in(struct pctx *c, const cJSON *obj, const char *name, int optional, struct xp_arena *a,
			const char **out)
{
	char *s;
	int ret = field_str(c, obj, name, optional, &s);

	*out = NULL;
	if (ret || !s)
		return ret;
	*out = xp_arena_strndup(a, s, strlen(s));
	free(s);
	return *out ? 0 : xp_err_set(c->err, XP_ERR_NOMEM, "out of memory");
}

static int field_strs(struct pctx *c, const cJSON *obj, const char *name, char ***out, size_t *n)
{
	const cJSON *a = member(c, obj, name), *v;
	size_t i = 0;

	*out = NULL;
	*n = 0;
	if (!a)
		return 0;
	if (!cJSON_IsArray(a))
		return bad(c, "not an array");
	*n = (size_t)cJSON_GetArraySize(a);
	if (!*n)
		return 0;
	if (!(*out = calloc(*n, sizeof(**out))))
		return xp_err_set(c->err, XP_ERR_NOMEM, "out of memory");
	cJSON_ArrayForEach(v, a) {
		if (!cJSON_IsString(v) || !v->valuestring)
			return bad(c, "not an array of strings");
		if (!((*out)[i++] = strdup(v->valuestring)))
			return xp_err_set(c->err, XP_ERR_NOMEM, "out of memory");
	}
	return 0;
}
/* The device counts a summary carries: every field an analysis or warning uses. */
#define DEV_SIZE(f) {#f, offsetof(struct an_device, f), 0}
#define DEV_I64(f) {#f, offsetof(struct an_device, f), 1}
const struct an_summary_dev_field an_summary_dev_fields[] = {
	DEV_I64(busy_ps),
	DEV_SIZE(events),
	DEV_SIZE(dropped_short),
	DEV_SIZE(stray_events),
	DEV_SIZE(stray_children),
	DEV_SIZE(unattributed_events),
	DEV_I64(unattributed_busy_ps),
	DEV_SIZE(extra_module_lines),
	DEV_SIZE(extra_module_events),
	DEV_SIZE(module_ref_nowhere),
	DEV_SIZE(corr_events),
	DEV_SIZE(linked_events),
	DEV_SIZE(corr_no_launch),
	DEV_SIZE(corr_no_executor),
	DEV_SIZE(corr_ambiguous),
	DEV_SIZE(runs_execs),
	DEV_SIZE(runs_split),
	DEV_SIZE(runs_repeating),
	DEV_SIZE(scope_events),
	DEV_SIZE(scope_no_root),
	DEV_SIZE(scope_shared_root),
	DEV_SIZE(repeats),
};
const size_t an_summary_ndev_fields = sizeof(an_summary_dev_fields) / sizeof(an_summary_dev_fields[0]);

const char *const an_summary_dev_odd[3] = {"odd_hlo_module", "odd_program_id", "odd_correlation_id"};
const int an_summary_dev_odd_key[3] = {XP_K_HLO_MODULE, XP_K_PROGRAM_ID, XP_K_CORRELATION_ID};

static int parse_device(struct pctx *c, const cJSON *o, struct an_exec_list *l, struct an_device *d)
{
	size_t i;
	int64_t v;
	int ret;

	if (!cJSON_IsObject(o))
		return bad(c, "a device is not an object");
	if ((ret = field_str_in(c, o, "name", 0, &l->arena, &d->name)))
		return ret;
	if ((ret = field_int(c, o, "plane", 0, UINT32_MAX, &v)))
		return ret;
	d->plane = (uint32_t)v;
	for (i = 0; i < an_summary_ndev_fields; i++) {
		const struct an_summary_dev_field *f = &an_summary_dev_fields[i];

		/* counts and times alike: a negative busy time is no measurement */
		if ((ret = count_int(c, o, f->name, 0, INT64_MAX, &v)))
			return ret;
		if (f->is_i64)
			*(int64_t *)((char *)d + f->off) = v;
		else
			*(size_t *)((char *)d + f->off) = (size_t)v;
	}
	for (i = 0; i < 3; i++) {
		if ((ret = count_int(c, o, an_summary_dev_odd[i], 0, INT64_MAX, &v)))
			return ret;
		d->odd_stats[an_summary_dev_odd_key[i]] = (size_t)v;
	}
	if ((ret = count_int(c, o, "module_line", 0, 1, &v)))
		return ret;
	d->module_line = (int)v;
	if ((ret = count_int(c, o, "host_linkage", AN_LINK_OK, AN_LINK_NO_LAUNCHES_NO_EXECUTORS, &v)))
		return ret;
	d->host_linkage = (int)v;
	return 0;
}

/* Function identities, referred to by index from the executions. */
struct fn_ident {
	const char *name, *fingerprint;
	uint64_t program_id;
	int has_program_id;
};

static int parse_functions(struct pctx *c, const cJSON *a, struct an_exec_list *l, struct fn_ident **out,
			   size_t *n)
{
	const cJSON *o;
	size_t i = 0;
	int ret;

	if (!cJSON_IsArray(a))
		return bad(c, "not an array");
	*n = (size_t)cJSON_GetArraySize(a);
	*out = calloc(*n ? *n : 1, sizeof(**out));
	if (!*out)
		return xp_err_set(c->err, XP_ERR_NOMEM, "out of memory");
	cJSON_ArrayForEach(o, a) {
		struct fn_ident *f = &(*out)[i++];
		const cJSON *pid;

		c->field = "functions";
		if (!cJSON_IsObject(o))
			return bad(c, "a function is not an object");
		if ((ret = field_str_in(c, o, "name", 0, &l->arena, &f->name)) ||
		    (ret = field_str_in(c, o, "fingerprint", 1, &l->arena, &f->fingerprint)))
			return ret;
		pid = member(c, o, "program_id");
		if (pid && !cJSON_IsNull(pid)) {
			if (get_u64(pid, &f->program_id))
				return bad(c, "not an unsigned integer");
			f->has_program_id = 1;
		}
	}
	return 0;
}

/* A column as runs: value, count, value, count..., the counts summing to n. */
static int column_runs(struct pctx *c, const cJSON *a, size_t n, int64_t **out)
{
	const cJSON *v;
	size_t at = 0;
	int64_t x, cnt;

	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) % 2)
		return bad(c, "not an array of value, count pairs");
	if (!(*out = malloc((n ? n : 1) * sizeof(**out))))
		return xp_err_set(c->err, XP_ERR_NOMEM, "out of memory");
	for (v = a->child; v; v = v->next->next) {
		if (get_int(v, INT64_MIN, INT64_MAX, &x) || get_int(v->next, 1, INT64_MAX, &cnt))
			return bad(c, "not an integer in range");
		if ((uint64_t)cnt > n - at)
			return bad(c, "runs longer than the column");
		while (cnt--)
			(*out)[at++] = x;
	}
	return at == n ? 0 : bad(c, "runs shorter than the column");
}

/*
 * A column of the executions (SUMMARIES in xplane-stat(1)): under its name
 * (a time column: NAME_ps, or NAME_ns in nanoseconds), an array of n
 * integers or one integer for all. *key gets the key found, NULL when the
 * column is absent (and optional).
 */
static int column_raw(struct pctx *c, const cJSON *cols, const char *name, int time, size_t n, int optional,
		      int64_t **out, const char **key)
{
	static __thread char k[64];
	const cJSON *a = NULL, *v;
	int64_t scale = 1, x;
	size_t i = 0;

	*out = NULL;
	*key = NULL;
	if (time) {
		snprintf(k, sizeof(k), "%s_ps", name);
		if (!(a = member(c, cols, k))) {
			snprintf(k, sizeof(k), "%s_ns", name);
			a = member(c, cols, k);
			scale = 1000;
		}
	} else {
		snprintf(k, sizeof(k), "%s", name);
		if (!(a = member(c, cols, k))) {
			snprintf(k, sizeof(k), "%s_runs", name);
			if ((a = member(c, cols, k))) {
				*key = k;
				return column_runs(c, a, n, out);
			}
			snprintf(k, sizeof(k), "%s", name);
		}
	}
	if (!a) {
		if (optional)
			return 0;
		snprintf(k, sizeof(k), "%s%s", name, time ? "_ps" : "");
		c->field = k;
		return bad(c, "missing field");
	}
	*key = k;
	if (!cJSON_IsArray(a) && !cJSON_IsNumber(a) && !cJSON_IsString(a))
		return bad(c, "not an array or an integer");
	if (cJSON_IsArray(a) && (size_t)cJSON_GetArraySize(a) != n)
		return bad(c, "columns of different lengths");
	if (!(*out = malloc((n ? n : 1) * sizeof(**out))))
		return xp_err_set(c->err, XP_ERR_NOMEM, "out of memory");
	if (!cJSON_IsArray(a)) {
		if (get_int(a, INT64_MIN, INT64_MAX, &x) || __builtin_mul_overflow(x, scale, &x))
			return bad(c, "not an integer in range");
		for (i = 0; i < n; i++)
			(*out)[i] = x;
		return 0;
	}
	cJSON_ArrayForEach(v, a) {
		if (get_int(v, INT64_MIN, INT64_MAX, &x) || __builtin_mul_overflow(x, scale, &x))
			return bad(c, "not an integer in range");
		(*out)[i++] = x;
	}
	return 0;
}

/* A column whose values must lie in [lo, hi]. */
static int column(struct pctx *c, const cJSON *cols, const char *name, int time, size_t n, int64_t lo,
		  int64_t hi, int optional, int64_t **out)
{
	const char *key;
	size_t i;
	int ret = column_raw(c, cols, name, time, n, optional, out, &key);

	for (i = 0; !ret && *out && i < n; i++)
		if ((*out)[i] < lo || (*out)[i] > hi)
			ret = bad(c, "not an integer in range");
	return ret;
}

/* Spans: span_ps, or span_extra_ps (each the excess over its busy time). */
static int column_span(struct pctx *c, const cJSON *cols, size_t n, const int64_t *busy, int64_t **out)
{
	const char *key;
	size_t i;
	int ret = column(c, cols, "span", 1, n, 0, INT64_MAX, 1, out);

	if (ret || *out)
		return ret;
	if ((ret = column(c, cols, "span_extra", 1, n, 0, INT64_MAX, 0, out)))
		return ret;
	for (i = 0; i < n; i++)
		if (__builtin_add_overflow((*out)[i], busy[i], &(*out)[i]))
			return bad(c, "not an integer in range");
	(void)key;
	return 0;
}

enum { C_FN, C_DEV, C_SPLIT, C_BUSY, C_SPAN, C_CHILDREN, C_EVENTS, NCOLS };

/*
 * A device plane is in a run once (an_exec_find counts a repeated plane
 * once): a device given twice would count its busy time twice while
 * pooling says one device.
 */
static int devices_once(struct pctx *c, const struct an_exec_list *l)
{
	struct xp_hmap seen = {0};
	char name[128], msg[200];
	size_t i, v = 0;
	int found = 0, ret = 0;

	for (i = 0; i < l->ndevices && !found; i++)
		if ((found = xp_hmap_get_or_put(&seen, l->devices[i].name, &v)) < 0)
			ret = xp_err_set(c->err, XP_ERR_NOMEM, "out of memory");
	xp_hmap_release(&seen);
	if (found != 1)
		return ret;
	xp_escape(name, sizeof(name), l->devices[i - 1].name);
	snprintf(msg, sizeof(msg), "device '%s' given twice", name);
	c->field = "devices";
	return bad(c, msg);
}

static int parse_execs(struct pctx *c, const cJSON *o, struct an_exec_list *l, int children)
{
	struct fn_ident *fns = NULL;
	int64_t *col[NCOLS] = {0};
	const cJSON *devs, *d, *cols;
	size_t nfns = 0, n, i, k;
	int ret;

	if (!cJSON_IsObject(o))
		return bad(c, "not an object");
	if ((ret = field_str_in(c, o, "hostname", 0, &l->arena, &l->hostname)))
		return ret;
	{
		int64_t sc;

		if ((ret = count_int(c, o, "sparsecore_planes", 0, INT32_MAX, &sc)))
			return ret;
		l->sparsecore_planes = (size_t)sc;
		if ((ret = count_int(c, o, "scope_edges_repeated", 0, INT64_MAX, &sc)))
			return ret;
		l->scope_edges_repeated = (size_t)sc;
	}
	devs = member(c, o, "devices");
	if (!cJSON_IsArray(devs))
		return bad(c, devs ? "not an array" : "missing field");
	n = (size_t)cJSON_GetArraySize(devs);
	if (!(l->devices = calloc(n + 1, sizeof(*l->devices))))
		return xp_err_set(c->err, XP_ERR_NOMEM, "out of memory");
	cJSON_ArrayForEach(d, devs) {
		if ((ret = parse_device(c, d, l, &l->devices[l->ndevices])))
			return ret;
		l->ndevices++;
	}
	if ((ret = devices_once(c, l)))
		return ret;
	if ((ret = parse_functions(c, member(c, o, "functions"), l, &fns, &nfns)))
		goto out;
	cols = member(c, o, "execs");
	if (!cJSON_IsObject(cols)) {
		ret = bad(c, cols ? "not an object" : "missing field");
		goto out;
	}
	{
		/* the busy column is always an array: it gives the count */
		const cJSON *f = member(c, cols, "busy_ps");

		if (!f)
			f = member(c, cols, "busy_ns");
		if (!cJSON_IsArray(f)) {
			ret = bad(c, f ? "not an array" : "missing field");
			goto out;
		}
		n = (size_t)cJSON_GetArraySize(f);
	}
	if ((ret = column(c, cols, "function", 0, n, 0, (int64_t)nfns - 1, 0, &col[C_FN])) ||
	    (ret = column(c, cols, "device", 0, n, 0, (int64_t)l->ndevices - 1, 0, &col[C_DEV])) ||
	    (ret = column(c, cols, "split", 0, n, AN_SPLIT_MODULE_LINE, AN_SPLIT_SCOPE, 0, &col[C_SPLIT])) ||
	    (ret = column(c, cols, "busy", 1, n, 0, INT64_MAX, 0, &col[C_BUSY])) ||
	    (ret = column_span(c, cols, n, col[C_BUSY], &col[C_SPAN])) ||
	    (ret = column(c, cols, "children", 1, n, 0, INT64_MAX, !children, &col[C_CHILDREN])) ||
	    (ret = column(c, cols, "events", 0, n, 0, UINT32_MAX, 0, &col[C_EVENTS])))
		goto out;
	if (!children && col[C_CHILDREN]) {
		c->field = "children_ps";
		ret = bad(c, "present without the children option");
		goto out;
	}
	if (!(l->execs = calloc(n ? n : 1, sizeof(*l->execs)))) {
		ret = xp_err_set(c->err, XP_ERR_NOMEM, "out of memory");
		goto out;
	}
	l->cap = n ? n : 1;
	for (i = 0; i < n; i++) {
		struct an_exec *x = &l->execs[i];
		const struct fn_ident *f = &fns[col[C_FN][i]];

		x->device = (uint32_t)col[C_DEV][i];
		x->name = f->name;
		x->fingerprint = f->fingerprint;
		x->program_id = f->program_id;
		x->has_program_id = f->has_program_id;
		x->split = (enum an_split)col[C_SPLIT][i];
		x->busy_ps = col[C_BUSY][i];
		x->span_ps = col[C_SPAN][i];
		x->children_ps = col[C_CHILDREN] ? col[C_CHILDREN][i] : 0;
		x->events = (uint32_t)col[C_EVENTS][i];
	}
	l->n = n;
out:
	for (k = 0; k < NCOLS; k++)
		free(col[k]);
	free(fns);
	return ret;
}

/*
 * "planes": names, "empty_planes": indexes of device planes without device
 * events, and "aggregated_only_planes": of those, the ones holding
 * aggregated events (an_plane_list's 2).
 */
static int parse_planes(struct pctx *c, const cJSON *in, struct an_run *run)
{
	const cJSON *e, *v;
	int64_t k;
	int ret;

	if ((ret = field_strs(c, in, "planes", &run->planes, &run->nplanes)))
		return ret;
	if (!(run->plane_empty = calloc(run->nplanes + 1, 1)))
		return xp_err_set(c->err, XP_ERR_NOMEM, "out of memory");
	e = member(c, in, "empty_planes");
	if (!e)
		return 0;
	if (!cJSON_IsArray(e))
		return bad(c, "not an array");
	cJSON_ArrayForEach(v, e) {
		if (get_int(v, 0, (int64_t)run->nplanes - 1, &k))
			return bad(c, "not a plane index");
		run->plane_empty[k] = 1;
	}
	e = member(c, in, "aggregated_only_planes");	/* of the empty planes, those with aggregated events only */
	if (!e)
		return 0;
	if (!cJSON_IsArray(e))
		return bad(c, "not an array");
	cJSON_ArrayForEach(v, e) {
		if (get_int(v, 0, (int64_t)run->nplanes - 1, &k) || !run->plane_empty[k])
			return bad(c, "not the index of an empty plane");
		run->plane_empty[k] = 2;
	}
	return 0;
}

/* ---- kernels and ops sections ------------------------------------------------ */

static int nomem(struct pctx *c)
{
	return xp_err_set(c->err, XP_ERR_NOMEM, "out of memory");
}

/* An object member that must be a string or null: *out NULL for null. */
static int field_str_or_null(struct pctx *c, const cJSON *obj, const char *name, char **out)
{
	const cJSON *v = member(c, obj, name);

	*out = NULL;
	if (!v)
		return bad(c, "missing field");
	return cJSON_IsNull(v) ? 0 : field_str(c, obj, name, 0, out);
}

/* An unsigned integer below 2^127: a number, or a string of digits. */
static int get_u128(const cJSON *v, unsigned __int128 *out)
{
	uint64_t w[3];

	if (cJSON_IsNumber(v)) {
		int64_t x;

		if (get_int(v, 0, INT64_MAX, &x))
			return -1;
		*out = (uint64_t)x;
		return 0;
	}
	if (!cJSON_IsString(v) || !v->valuestring || an_u192_parse(v->valuestring, w) || w[2] ||
	    w[1] >> 63)
		return -1;
	*out = (unsigned __int128)w[1] << 64 | w[0];
	return 0;
}

/* A finite number >= 0. */
static int field_double(struct pctx *c, const cJSON *obj, const char *name, double *out)
{
	const cJSON *v = member(c, obj, name);

	if (!v)
		return bad(c, "missing field");
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0)
		return bad(c, "not a finite number >= 0");
	*out = v->valuedouble;
	return 0;
}

/* An array member of integers in [lo, hi]: *out (allocated) and *n. */
static int field_ints(struct pctx *c, const cJSON *obj, const char *name, int64_t lo, int64_t hi,
		      int64_t **out, size_t *n)
{
	const cJSON *a = member(c, obj, name), *v;
	size_t i = 0;

	*out = NULL;
	*n = 0;
	if (!cJSON_IsArray(a))
		return bad(c, a ? "not an array" : "missing field");
	*n = (size_t)cJSON_GetArraySize(a);
	if (!(*out = malloc((*n ? *n : 1) * sizeof(**out))))
		return nomem(c);
	cJSON_ArrayForEach(v, a) {
		if (get_int(v, lo, hi, &(*out)[i++]))
			return bad(c, "not an integer in range");
	}
	return 0;
}

/* The program id of a function (digits), or null. */
static int field_program(struct pctx *c, const cJSON *obj, uint64_t *pid, int *has)
{
	const cJSON *v = member(c, obj, "program_id");

	*has = 0;
	*pid = 0;
	if (!v)
		return bad(c, "missing field");
	if (cJSON_IsNull(v))
		return 0;
	if (get_u64(v, pid))
		return bad(c, "not an unsigned integer");
	*has = 1;
	return 0;
}

/* Launch fields as the summary writes them: grid, block, the six fields (or null), occ_pct (or null). */
#define LAUNCH_LEN (6 + AN_CFG_NFIELDS + 1)

static int parse_launch(struct pctx *c, const cJSON *row, struct an_launch *l)
{
	const cJSON *a = member(c, row, "launch"), *v;
	size_t i = 0;

	memset(l, 0, sizeof(*l));
	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != LAUNCH_LEN)
		return bad(c, a ? "not an array of 13" : "missing field");
	cJSON_ArrayForEach(v, a) {
		uint64_t x = 0;

		if (i < 6 + AN_CFG_NFIELDS && !(i >= 6 && cJSON_IsNull(v)) && get_u64(v, &x))
			return bad(c, "not an unsigned integer or null");
		if (i < 3)
			l->grid[i] = x;
		else if (i < 6)
			l->block[i - 3] = x;
		else if (i < 6 + AN_CFG_NFIELDS) {
			l->field[i - 6] = x;
			l->has[i - 6] = !cJSON_IsNull(v);
		} else if (!cJSON_IsNull(v)) {
			if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
				return bad(c, "occ_pct not a finite number or null");
			l->occ_pct = v->valuedouble;
			l->has_occ = 1;
		}
		i++;
	}
	return 0;
}

/* Sorted samples written as the first, then differences. */
static int parse_samples(struct pctx *c, const cJSON *row, int64_t **out, size_t *n)
{
	size_t i;
	int ret = field_ints(c, row, "samples", 0, INT64_MAX, out, n);

	if (ret)
		return ret;
	if (!*n)
		return bad(c, "no instances");
	for (i = 1; i < *n; i++)
		if (__builtin_add_overflow((*out)[i - 1], (*out)[i], &(*out)[i]))
			return bad(c, "beyond 2^63-1 ps");
	return 0;
}

/* A row's sketch and exact moments. */
static int parse_sketch(struct pctx *c, const cJSON *row, struct an_kern_digest *d)
{
	int64_t *idx = NULL, *cnt = NULL, x;
	size_t ni = 0, nc = 0, i;
	uint64_t total;
	int32_t maxi = an_sketch_max_index(), at = 0;
	const cJSON *v;
	int ret;

	if ((ret = field_int(c, row, "n", 1, UINT32_MAX, &x)))
		return ret;
	d->m.n = (uint64_t)x;
	v = member(c, row, "sum");
	if (!cJSON_IsString(v) || get_u128(v, &d->m.s1))
		return bad(c, v ? "not a string of digits below 2^127" : "missing field");
	v = member(c, row, "sum_sq");
	if (!cJSON_IsString(v) || !v->valuestring || an_u192_parse(v->valuestring, d->m.s2))
		return bad(c, v ? "not a string of digits below 2^192" : "missing field");
	if ((ret = field_int(c, row, "min", 0, INT64_MAX, &d->m.min)) ||
	    (ret = field_int(c, row, "max", 0, INT64_MAX, &d->m.max)) ||
	    (ret = field_int(c, row, "zeros", 0, x, &x)))
		return ret;
	d->s.zeros = (uint64_t)x;
	c->field = "sum_sq";
	if (!an_moments_plausible(&d->m))
		return bad(c, "moments no n values between min and max can have");
	if ((ret = field_ints(c, row, "index", 0, maxi, &idx, &ni)) ||
	    (ret = field_ints(c, row, "count", 1, INT64_MAX, &cnt, &nc)))
		goto out;
	ret = XP_ERR_FORMAT;
	if (ni != nc) {
		bad(c, "index and count of different lengths");
		goto out;
	}
	total = d->s.zeros;
	for (i = 0; i < ni; i++) {
		/* the first index, then steps of at least one */
		if ((i && idx[i] < 1) || __builtin_add_overflow(at, (int32_t)idx[i], &at) || at > maxi) {
			c->field = "index";
			bad(c, "not ascending bucket indexes below the largest");
			goto out;
		}
		if (__builtin_add_overflow(total, (uint64_t)cnt[i], &total))
			break;
		if (an_sketch_push(&d->s, at, (uint64_t)cnt[i])) {
			ret = nomem(c);
			goto out;
		}
	}
	c->field = "count";
	if (i < ni || total != d->m.n) {
		bad(c, "counts that do not add up to n");
		goto out;
	}
	/* the zeros and the buckets where min and max fall (one either side: log() may round) */
	c->field = "zeros";
	if ((d->s.zeros > 0) != (d->m.min == 0) || (!ni && d->m.max) ||
	    (ni && d->m.min && abs(d->s.idx[0] - an_sketch_index(d->m.min)) > 1) ||
	    (ni && abs(d->s.idx[ni - 1] - an_sketch_index(d->m.max)) > 1)) {
		bad(c, "buckets that do not hold min and max");
		goto out;
	}
	ret = 0;
out:
	free(idx);
	free(cnt);
	return ret;
}

static int parse_kern_row(struct pctx *c, const cJSON *o, struct an_kern_result *part)
{
	struct an_kern_row key;
	struct an_kern_digest d;
	char cfg[512] = "";
	int64_t *samples = NULL, state;
	const cJSON *l;
	size_t i, n;
	int ret;

	memset(&key, 0, sizeof(key));
	memset(&d, 0, sizeof(d));
	if (!cJSON_IsObject(o))
		return bad(c, "a row is not an object");
	if ((ret = field_str(c, o, "name", 0, &key.name)) ||
	    (ret = field_int(c, o, "config", AN_CFG_NONE, AN_CFG_BAD, &state)))
		goto out;
	key.cfg_state = (enum an_cfg_state)state;
	l = member(c, o, "launch");
	if (key.cfg_state == AN_CFG_OK) {
		if ((ret = parse_launch(c, o, &key.cfg)))
			goto out;
		an_launch_format(&key.cfg, cfg, sizeof(cfg));
	} else if (l && !cJSON_IsNull(l)) {
		ret = bad(c, "a launch without a configuration");
		goto out;
	}
	key.config = cfg;
	if ((ret = field_str_or_null(c, o, "function", &key.function)) ||
	    (ret = field_program(c, o, &key.program_id, &key.has_program_id)) ||
	    (ret = field_str_or_null(c, o, "op", &key.op)))
		goto out;
	if (key.has_program_id && !key.function) {
		c->field = "program_id";
		ret = bad(c, "a program without a function");
		goto out;
	}
	if (member(c, o, "samples")) {
		if ((ret = parse_samples(c, o, &samples, &d.n)))
			goto out;
		d.samples = samples;
	} else if ((ret = parse_sketch(c, o, &d))) {
		goto out;
	}
	ret = an_kern_put_row(part, &key, &d);
	if (ret == 1) {
		c->field = "name";
		ret = bad(c, "a row of the same kernel, configuration, function and op as another");
	} else if (ret) {
		ret = nomem(c);
	}
	if (ret)
		goto out;
	/* the counts the plane's rows give, as an_kern_add counts them while adding */
	n = samples ? d.n : (size_t)d.m.n;
	if (samples) {
		for (i = 0; i < d.n; i++) {
			part->zero_events += samples[i] == 0;
			part->kernel_sum += (uint64_t)samples[i];
		}
	} else {
		part->zero_events += (size_t)d.s.zeros;
		part->kernel_sum += d.m.s1;
	}
	part->kernel_events += n;
	/* a plane holds fewer than 2^32 events (xp_model.h): so no sum here or in pooling can wrap */
	if (part->kernel_events > UINT32_MAX) {
		c->field = samples ? "samples" : "n";
		ret = bad(c, "more than 2^32-1 instances on the plane");
		goto out;
	}
	part->no_config += key.cfg_state == AN_CFG_NONE ? n : 0;
	part->bad_config += key.cfg_state == AN_CFG_BAD ? n : 0;
	part->implausible_config += key.cfg_state == AN_CFG_OK && an_launch_implausible(&key.cfg) ? n : 0;
out:
	free(key.name);
	free(key.function);
	free(key.op);
	free(samples);
	an_kern_digest_release(&d);
	return ret;
}

const struct an_summary_count an_summary_kern_counts[3] = {
	{"stream_lines", offsetof(struct an_kern_result, stream_lines)},
	{"other_lines", offsetof(struct an_kern_result, other_lines)},
	{"stray_events", offsetof(struct an_kern_result, stray_events)},
};

const struct an_summary_count an_summary_ops_counts[5] = {
	{"stray_events", offsetof(struct an_ops_device, stray_events)},
	{"partial_overlaps", offsetof(struct an_ops_device, partial_overlaps)},
	{"odd_values", offsetof(struct an_ops_device, odd_values)},
	{"kernels_no_op", offsetof(struct an_ops_device, kernels_no_op)},
	{"extra_module_lines", offsetof(struct an_ops_device, extra_module_lines)},
};

/* The same, written only when not 0 (absent: 0): counts later versions added. */
const struct an_summary_count an_summary_ops_counts_opt[3] = {
	{"aggregated", offsetof(struct an_ops_device, aggregated)},
	{"aggregated_odd", offsetof(struct an_ops_device, aggregated_odd)},
	{"aggregated_left", offsetof(struct an_ops_device, aggregated_left)},
};

/* The counts table names in o into base's size_t fields. */
static int parse_counts(struct pctx *c, const cJSON *o, const struct an_summary_count *table, size_t n, void *base)
{
	size_t i;
	int64_t x;
	int ret;

	for (i = 0; i < n; i++) {
		if ((ret = field_int(c, o, table[i].name, 0, INT64_MAX, &x)))
			return ret;
		*(size_t *)((char *)base + table[i].off) = (size_t)x;
	}
	return 0;
}

static int parse_copies(struct pctx *c, const cJSON *o, struct an_kern_result *part)
{
	const cJSON *cp = member(c, o, "copies"), *v;

	if (!cJSON_IsObject(cp))
		return bad(c, cp ? "not an object" : "missing field");
	cJSON_ArrayForEach(v, cp) {
		struct an_copy *k = NULL;
		const cJSON *f[6];
		int64_t count, sat, nob;
		size_t i;

		for (i = 1; i < AN_KIND_COUNT && !k; i++)
			if (v->string && !strcmp(v->string, an_kind_name((enum an_kind)i)))
				k = &part->copies[i];
		c->field = v->string;
		if (!k || k->count)
			return bad(c, k ? "a copy kind given twice" : "not a kind of copy or memset");
		if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 6)
			return bad(c, "not an array of 6");
		for (i = 0; i < 6; i++)
			f[i] = cJSON_GetArrayItem(v, (int)i);
		if (get_int(f[0], 1, UINT32_MAX, &count) || get_u128(f[1], &k->total_ps) ||
		    get_u64(f[2], &k->bytes) || get_int(f[3], 0, 1, &sat) || get_int(f[4], 0, count, &nob) ||
		    get_u128(f[5], &k->bytes_ps))
			return bad(c, "not [count, time, bytes, saturated, without bytes, time with bytes]");
		if (k->bytes_ps > k->total_ps || k->total_ps > (unsigned __int128)count * INT64_MAX ||
		    (sat && k->bytes != UINT64_MAX) || (nob == count && k->bytes))
			return bad(c, "counts that do not agree");
		k->count = (size_t)count;
		k->bytes_saturated = (int)sat;
		k->no_bytes = (size_t)nob;
		part->copy_events += k->count;
		if (part->copy_events > UINT32_MAX)
			return bad(c, "more than 2^32-1 copies and memsets on the plane");
	}
	return 0;
}

static int parse_kern_plane(struct pctx *c, const cJSON *o, struct an_run_kern_plane *p)
{
	const cJSON *rows, *v;
	char where[64];
	size_t i = 0;
	int64_t partial;
	int ret;

	an_kern_init(&p->r, &(struct an_kern_opts){.by = AN_KERN_BY_ALL});
	if (!cJSON_IsObject(o))
		return bad(c, "a plane is not an object");
	if ((ret = field_str(c, o, "plane", 0, &p->plane)) ||
	    (ret = field_str_or_null(c, o, "device", &p->device)))
		return ret;
	if (!an_is_device_plane(p->plane)) {
		c->field = "plane";
		return bad(c, "not a device plane's name");
	}
	if (!p->device) {	/* a plane with events but no stream lines: counted, nothing else */
		p->r.device_planes_no_streams = 1;
		return 0;
	}
	if (an_kern_count_device(&p->r, p->device))
		return nomem(c);
	if ((ret = parse_counts(c, o, an_summary_kern_counts, 3, &p->r)))
		return ret;
	if ((ret = field_int(c, o, "busy_ps", 0, INT64_MAX, &p->r.kernel_busy_ps)) ||
	    (ret = field_str_or_null(c, o, "bad_config_example", &p->r.bad_config_example)) ||
	    (ret = count_int(c, o, "partial_config", 0, INT64_MAX, &partial)) ||
	    (ret = field_str(c, o, "partial_config_example", 1, &p->r.partial_config_example)) ||
	    (ret = parse_copies(c, o, &p->r)))
		return ret;
	p->r.partial_config = (size_t)partial;
	c->field = "partial_config_example";
	if ((p->r.partial_config_example != NULL) != (partial > 0))
		return bad(c, "present without kernels read in part, or missing");
	rows = member(c, o, "rows");
	if (!cJSON_IsArray(rows))
		return bad(c, rows ? "not an array" : "missing field");
	i = 0;
	cJSON_ArrayForEach(v, rows) {
		const char *outer = c->where;

		snprintf(where, sizeof(where), "%s row %zu", outer, i++);
		c->where = where;
		ret = parse_kern_row(c, v, &p->r);
		c->where = outer;
		if (ret)
			return ret;
	}
	c->field = "busy_ps";
	if ((unsigned __int128)p->r.kernel_busy_ps > p->r.kernel_sum)
		return bad(c, "more than the kernels' time");
	c->field = "bad_config_example";
	if ((p->r.bad_config_example != NULL) != (p->r.bad_config > 0))
		return bad(c, "present without kernels of an unparsable configuration, or missing");
	c->field = "partial_config";
	if (p->r.partial_config > p->r.kernel_events)
		return bad(c, "more kernels read in part than the plane's kernels");
	return 0;
}

/*
 * A section of kernels or ops: an object of the reader's warnings and an
 * array of planes into *planes (size bytes each, zeroed), each parsed by
 * one as plane i; *nplanes counts those begun, for the release.
 */
static int parse_section(struct pctx *c, const cJSON *o, const char *name, char ***warnings,
			 size_t *nwarnings, void **planes, size_t size, size_t *nplanes,
			 int (*one)(struct pctx *c, const cJSON *v, void *planes, size_t i))
{
	const cJSON *arr, *v;
	char where[40];
	int ret;

	c->where = name;
	if (!cJSON_IsObject(o)) {
		ret = bad(c, "not an object");
		goto out;
	}
	if ((ret = field_strs(c, o, "warnings", warnings, nwarnings)))
		goto out;
	arr = member(c, o, "planes");
	if (!cJSON_IsArray(arr)) {
		ret = bad(c, arr ? "not an array" : "missing field");
		goto out;
	}
	if (!(*planes = calloc((size_t)cJSON_GetArraySize(arr) + 1, size))) {
		ret = nomem(c);
		goto out;
	}
	cJSON_ArrayForEach(v, arr) {
		snprintf(where, sizeof(where), "%s plane %zu", name, *nplanes);
		c->where = where;
		if ((ret = one(c, v, *planes, (*nplanes)++)))
			goto out;
	}
out:
	c->where = NULL;
	return ret;
}

static int kern_plane_at(struct pctx *c, const cJSON *v, void *planes, size_t i)
{
	return parse_kern_plane(c, v, (struct an_run_kern_plane *)planes + i);
}

static int parse_kernels(struct pctx *c, const cJSON *o, struct an_run *run)
{
	struct an_run_kernels *k = calloc(1, sizeof(*k));
	void *planes = NULL;
	int ret;

	if (!k)
		return nomem(c);
	run->kernels = k;
	ret = parse_section(c, o, "kernels", &k->warnings, &k->nwarnings, &planes, sizeof(*k->planes),
			    &k->nplanes, kern_plane_at);
	k->planes = planes;	/* released with the run, parsed or not */
	return ret;
}

/* flops, model_flops, bytes_accessed: [sum, occurrences with a value, overflow]. */
static int field_sum(struct pctx *c, const cJSON *row, const char *name, size_t occ, struct an_sum *s)
{
	const cJSON *a = member(c, row, name);
	int64_t n, ovf;

	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != 3 || get_u64(cJSON_GetArrayItem(a, 0), &s->v) ||
	    get_int(cJSON_GetArrayItem(a, 1), 0, (int64_t)occ, &n) || get_int(cJSON_GetArrayItem(a, 2), 0, 1, &ovf))
		return bad(c, a ? "not [sum, occurrences with a value (at most all), overflow]" : "missing field");
	s->n = (size_t)n;
	s->overflow = (int)ovf;
	return 0;
}

static int parse_op_row(struct pctx *c, const cJSON *o, struct an_ops_result *tmp, const struct an_ops_device *dev)
{
	struct an_op_row *row;
	int64_t x;
	int ret;

	if (!cJSON_IsObject(o))
		return bad(c, "a row is not an object");
	if (xp_grow(&tmp->rows, &tmp->cap, tmp->nrows, sizeof(*tmp->rows), 16))
		return nomem(c);
	row = &tmp->rows[tmp->nrows++];
	memset(row, 0, sizeof(*row));
	if ((ret = field_int(c, o, "line", AN_OP_SYNC, AN_OP_SC, &x)))
		return ret;
	row->line = (enum an_op_line)x;
	if ((ret = field_str(c, o, "name", 0, &row->name)) || (ret = field_str_or_null(c, o, "hlo", &row->hlo)) ||
	    (ret = field_str_or_null(c, o, "category", &row->category)) ||
	    (ret = field_str_or_null(c, o, "module", &row->module)) ||
	    (ret = field_program(c, o, &row->program_id, &row->has_program_id)) ||
	    (ret = field_int(c, o, "occurrences", 1, AN_SUMMARY_MAX_COUNT, &x)))
		return ret;
	row->occurrences = (size_t)x;
	/* GPU calls: a line written before them has none, its calls then unknown (every kernel unscoped) */
	row->kernels_unscoped = row->line == AN_OP_GPU ? row->occurrences : 0;
	if (row->line == AN_OP_GPU && member(c, o, "calls")) {
		int64_t calls, unscoped;

		if ((ret = count_int(c, o, "unscoped", 0, (int64_t)row->occurrences, &unscoped)) ||
		    (ret = field_int(c, o, "calls", 0, (int64_t)row->occurrences - unscoped, &calls)))
			return ret;
		if (!calls != (unscoped == (int64_t)row->occurrences))
			return bad(c, "calls 0 with scoped kernels, or calls without them");
		row->calls = (size_t)calls;
		row->kernels_unscoped = (size_t)unscoped;
		if ((ret = count_int(c, o, "calls_host", 0, 1, &x)))
			return ret;
		row->calls_host = (int)x;
	}
	if (row->line == AN_OP_GPU) {	/* a line written before costs has none: not looked up */
		if ((ret = count_int(c, o, "cost", AN_OP_COST_UNSET, AN_OP_COST_LAST, &x)) ||
		    (ret = field_str(c, o, "cost_why", 1, &row->cost_why)))
			return ret;
		row->cost = (enum an_op_cost)x;
	}
	if ((ret = field_int(c, o, "total_ps", 0, INT64_MAX, &row->total_ps)) ||
	    (ret = field_int(c, o, "self_ps", 0, row->total_ps, &row->self_ps)) ||
	    (ret = field_sum(c, o, "flops", row->occurrences, &row->flops)) ||
	    (ret = field_sum(c, o, "model_flops", row->occurrences, &row->model_flops)) ||
	    (ret = field_sum(c, o, "bytes", row->occurrences, &row->bytes)))
		return ret;
	/* the ridge of the one device its occurrences ran on */
	row->ridge = dev->peak_flops > 0 && dev->peak_bw > 0 ? dev->peak_flops / dev->peak_bw : 0;
	return 0;
}

static int parse_ops_plane(struct pctx *c, const cJSON *o, struct an_run_ops_plane *p)
{
	struct an_ops_result tmp;
	struct an_ops_device *d;
	const cJSON *dv, *rows, *v;
	char where[64];
	const char *outer = c->where;
	size_t i = 0;
	int64_t x;
	int ret;

	an_ops_init(&p->r, NULL);
	an_ops_init(&tmp, NULL);
	if (!cJSON_IsObject(o))
		return bad(c, "a plane is not an object");
	if ((ret = field_str(c, o, "plane", 0, &p->plane)))
		return ret;
	if (!an_is_device_plane(p->plane)) {
		c->field = "plane";
		return bad(c, "not a device plane's name");
	}
	dv = member(c, o, "device");
	if (!cJSON_IsObject(dv))
		return bad(c, dv ? "not an object" : "missing field");
	if (!(tmp.devices = calloc(1, sizeof(*tmp.devices))))
		return nomem(c);
	tmp.ndevices = tmp.devcap = 1;
	d = &tmp.devices[0];
	if ((ret = field_str(c, dv, "name", 0, &d->name)) || (ret = field_str_or_null(c, dv, "chip", &d->chip)) ||
	    (ret = field_int(c, dv, "peak_source", AN_PEAK_NONE, AN_PEAK_DERIVED, &x)))
		goto out;
	d->peak_src = (enum an_peak_src)x;
	if ((ret = field_double(c, dv, "peak_flops", &d->peak_flops)) ||
	    (ret = field_double(c, dv, "peak_bw", &d->peak_bw)))
		goto out;
	if ((d->peak_src == AN_PEAK_NONE) != (d->peak_flops == 0 && d->peak_bw == 0) ||
	    (d->peak_src != AN_PEAK_NONE && !(d->peak_flops > 0 && d->peak_bw > 0))) {
		ret = bad(c, "peaks that do not agree with their source");
		goto out;
	}
	if ((ret = parse_counts(c, dv, an_summary_ops_counts, 5, d)))
		goto out;
	for (i = 0; i < 3; i++) {
		if ((ret = count_int(c, dv, an_summary_ops_counts_opt[i].name, 0, INT64_MAX, &x)))
			goto out;
		*(size_t *)((char *)d + an_summary_ops_counts_opt[i].off) = (size_t)x;
	}
	rows = member(c, o, "rows");
	if (!cJSON_IsArray(rows)) {
		ret = bad(c, rows ? "not an array" : "missing field");
		goto out;
	}
	i = 0;
	cJSON_ArrayForEach(v, rows) {
		struct an_op_row *row;

		snprintf(where, sizeof(where), "%s row %zu", outer, i++);
		c->where = where;
		if ((ret = parse_op_row(c, v, &tmp, d)))
			goto out;
		row = &tmp.rows[tmp.nrows - 1];
		/* what the rows add up to, as an_ops_add counts it while adding */
		tmp.events[row->line] += row->occurrences;
		d->events[row->line] += row->occurrences;
		tmp.total_ps[row->line] = xp_sat_add(tmp.total_ps[row->line], row->total_ps);
		tmp.self_ps[row->line] = xp_sat_add(tmp.self_ps[row->line], row->self_ps);
	}
	c->where = outer;
	if ((ret = an_ops_merge(&p->r, &tmp, c->err)))
		goto out;
	if (p->r.nrows != tmp.nrows) {
		c->field = "rows";
		ret = bad(c, "two rows of one op");
	}
out:
	c->where = outer;
	an_ops_release(&tmp);
	return ret;
}

/* Plane i of the ops section: one entry per device (the planes of a device are pooled in the first). */
static int ops_plane_at(struct pctx *c, const cJSON *v, void *planes, size_t i)
{
	struct an_run_ops_plane *p = planes;
	size_t j;
	int ret = parse_ops_plane(c, v, &p[i]);

	for (j = 0; !ret && j < i; j++)
		if (!strcmp(p[j].r.devices[0].name, p[i].r.devices[0].name)) {
			c->field = "name";
			ret = bad(c, "a device given twice");
		}
	return ret;
}

static int parse_ops(struct pctx *c, const cJSON *o, struct an_run *run)
{
	struct an_run_ops *k = calloc(1, sizeof(*k));
	void *planes = NULL;
	int ret;

	if (!k)
		return nomem(c);
	run->ops = k;
	ret = parse_section(c, o, "ops", &k->warnings, &k->nwarnings, &planes, sizeof(*k->planes), &k->nplanes,
			    ops_plane_at);
	k->planes = planes;	/* released with the run, parsed or not */
	return ret;
}

int an_summary_parse(const char *line, size_t len, const char *file, size_t lineno, struct an_run *run,
		     struct xp_err *err)
{
	struct pctx c = {err, file, lineno, NULL, NULL};
	const char *end = line;
	const cJSON *v, *in, *opts, *hist;
	cJSON *doc = NULL;
	int64_t x;
	int ret;

	memset(run, 0, sizeof(*run));
	xp_arena_init(&run->execs.arena);
	if (!(run->src_file = strdup(file))) {
		ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		goto out;
	}
	run->src_line = lineno;
	doc = cJSON_ParseWithLengthOpts(line, len, &end, 0);
	if (!cJSON_IsObject(doc)) {
		ret = bad(&c, doc ? "not a JSON object" : "not valid JSON (truncated or corrupt)");
		goto out;
	}
	/* one object per line: anything but white space after it is not ours to drop */
	while (end < line + len && (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n'))
		end++;
	if (end < line + len) {
		ret = bad(&c, "more than one JSON value on the line");
		goto out;
	}
	v = member(&c, doc, "xplane_stat_summary");
	if (get_int(v, 1, INT64_MAX, &x)) {
		ret = bad(&c, "not a summary line");
		goto out;
	}
	if (x > AN_SUMMARY_SCHEMA) {
		c.field = NULL;
		ret = xp_err_set(err, XP_ERR_FORMAT,
				 "'%s' line %zu: summary schema %" PRId64 " is newer than this xplane-stat "
				 "reads (%d): update xplane-stat", file, lineno, x, AN_SUMMARY_SCHEMA);
		goto out;
	}
	if ((ret = field_str(&c, doc, "tool", 0, &run->tool)))
		goto out;
	in = member(&c, doc, "input");
	if (!cJSON_IsObject(in)) {
		ret = bad(&c, in ? "not an object" : "missing field");
		goto out;
	}
	if ((ret = field_str(&c, in, "path", 0, &run->path)) ||
	    (ret = field_int(&c, in, "size", 0, INT64_MAX, &x)))
		goto out;
	run->size = (uint64_t)x;
	if ((ret = field_int(&c, in, "crc32", 0, UINT32_MAX, &x)))
		goto out;
	run->crc32 = (uint32_t)x;
	if ((ret = parse_planes(&c, in, run)))
		goto out;
	if ((ret = field_strs(&c, in, "hostnames", &run->hostnames, &run->nhostnames)) ||
	    (ret = field_strs(&c, doc, "tags", &run->tags, &run->ntags)) ||
	    (ret = field_strs(&c, doc, "warnings", &run->warnings, &run->nwarnings)))
		goto out;
	hist = member(&c, doc, "history");
	if (hist && !cJSON_IsNull(hist)) {
		if (!cJSON_IsObject(hist)) {
			ret = bad(&c, "not an object");
			goto out;
		}
		run->hist.present = 1;
		if ((ret = field_str(&c, hist, "commit", 0, &run->hist.commit)) ||
		    (ret = field_str(&c, hist, "host", 0, &run->hist.host)) ||
		    (ret = field_int(&c, hist, "time", 0, INT64_MAX, &run->hist.time)) ||
		    (ret = field_int(&c, hist, "run", 1, INT64_MAX, &x)))
			goto out;
		run->hist.run = (uint64_t)x;
		v = member(&c, hist, "dirty");
		if (!cJSON_IsBool(v)) {
			ret = bad(&c, v ? "not true or false" : "missing field");
			goto out;
		}
		run->hist.dirty = cJSON_IsTrue(v);
	}
	opts = member(&c, doc, "options");
	if (!cJSON_IsObject(opts)) {
		ret = bad(&c, opts ? "not an object" : "missing field");
		goto out;
	}
	if ((ret = field_str(&c, opts, "device", 1, &run->device)) ||
	    (ret = field_str(&c, opts, "children", 1, &run->children)) ||
	    (ret = field_int(&c, opts, "min_duration_ps", 0, INT64_MAX, &run->min_dur_ps)))
		goto out;
	if ((ret = parse_execs(&c, member(&c, doc, "exec"), &run->execs, run->children != NULL)))
		goto out;
	v = member(&c, doc, "kernels");
	if (v && !cJSON_IsNull(v) && (ret = parse_kernels(&c, v, run)))
		goto out;
	v = member(&c, doc, "ops");
	if (v && !cJSON_IsNull(v) && (ret = parse_ops(&c, v, run)))
		goto out;
out:
	cJSON_Delete(doc);
	if (ret)
		an_run_release(run);
	return ret;
}

int an_summary_split(const char *data, size_t len, const char *file, struct an_summary_line **lines, size_t *n,
		     struct xp_err *err)
{
	size_t cap = 0, lineno = 0, k, j;
	int ret = 0;

	*lines = NULL;
	*n = 0;
	if (len && !an_summary_sniff(data, len))
		return xp_err_set(err, XP_ERR_FORMAT, "'%s' is not a summary file (see 'xplane-stat summarize')", file);
	for (k = 0; !ret && k < len; k = j + 1) {
		struct an_run run;

		lineno++;
		for (j = k; j < len && data[j] != '\n'; j++)
			;
		if (j == k)
			continue;
		if ((ret = an_summary_parse(data + k, j - k, file, lineno, &run, err)))
			break;
		if (xp_grow(lines, &cap, *n, sizeof(**lines), 64)) {
			an_run_release(&run);
			ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
			break;
		}
		(*lines)[(*n)++] = (struct an_summary_line){data + k, j - k, run.path, run.size, run.crc32,
							   run.nhostnames ? run.hostnames[0] : NULL};
		run.path = NULL;
		if (run.nhostnames)
			run.hostnames[0] = NULL;	/* moved to the line */
		an_run_release(&run);
	}
	if (ret) {
		an_summary_lines_free(*lines, *n);
		*lines = NULL;
		*n = 0;
	}
	return ret;
}

void an_summary_lines_free(struct an_summary_line *lines, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(lines[i].path);
		free(lines[i].hostname);
	}
	free(lines);
}

int an_summary_line_cmp(const void *x, const void *y)
{
	const struct an_summary_line *a = x, *b = y;
	size_t n = a->len < b->len ? a->len : b->len;
	int c = strcmp(a->path, b->path);

	if (c)
		return c;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	if (a->crc32 != b->crc32)
		return a->crc32 < b->crc32 ? -1 : 1;
	if ((c = memcmp(a->p, b->p, n)))
		return c;
	return (a->len > b->len) - (a->len < b->len);
}

/* SPDX-License-Identifier: Apache-2.0 */
#include "an_run.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The exact integers a JSON number (a double) carries: larger ones are written as strings. */
#define EXACT_MAX 9007199254740992.0	/* 2^53 */

int an_run_sniff(const void *head, size_t n)
{
	size_t m = sizeof(AN_RUN_MAGIC) - 1;

	return n >= m && !memcmp(head, AN_RUN_MAGIC, m);
}

/* Parsing state: where we are, for messages. */
struct pctx {
	struct xp_err *err;
	const char *file;
	size_t line;
	const char *field;
};

static int bad(struct pctx *c, const char *what)
{
	return xp_err_set(c->err, XP_ERR_FORMAT, "'%s' line %zu: %s%s%s", c->file, c->line, what,
			  c->field ? ": " : "", c->field ? c->field : "");
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

static void free_strs(char **s, size_t n)
{
	size_t i;

	for (i = 0; s && i < n; i++)
		free(s[i]);
	free(s);
}

/* The device counts a summary carries: every field an analysis or warning uses. */
#define DEV_SIZE(f) {#f, offsetof(struct an_device, f), 0}
#define DEV_I64(f) {#f, offsetof(struct an_device, f), 1}
const struct an_run_dev_field an_run_dev_fields[] = {
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
};
const size_t an_run_ndev_fields = sizeof(an_run_dev_fields) / sizeof(an_run_dev_fields[0]);

const char *const an_run_dev_odd[3] = {"odd_hlo_module", "odd_program_id", "odd_correlation_id"};
const int an_run_dev_odd_key[3] = {XP_K_HLO_MODULE, XP_K_PROGRAM_ID, XP_K_CORRELATION_ID};

static int parse_device(struct pctx *c, const cJSON *o, struct an_exec_list *l, struct an_device *d)
{
	size_t i;
	int64_t v;
	char *name;
	int ret;

	if (!cJSON_IsObject(o))
		return bad(c, "a device is not an object");
	if ((ret = field_str(c, o, "name", 0, &name)))
		return ret;
	d->name = xp_arena_strndup(&l->arena, name, strlen(name));
	free(name);
	if (!d->name)
		return xp_err_set(c->err, XP_ERR_NOMEM, "out of memory");
	if ((ret = field_int(c, o, "plane", 0, UINT32_MAX, &v)))
		return ret;
	d->plane = (uint32_t)v;
	for (i = 0; i < an_run_ndev_fields; i++) {
		const struct an_run_dev_field *f = &an_run_dev_fields[i];

		if ((ret = count_int(c, o, f->name, f->is_i64 ? INT64_MIN : 0, INT64_MAX, &v)))
			return ret;
		if (f->is_i64)
			*(int64_t *)((char *)d + f->off) = v;
		else
			*(size_t *)((char *)d + f->off) = (size_t)v;
	}
	for (i = 0; i < 3; i++) {
		if ((ret = count_int(c, o, an_run_dev_odd[i], 0, INT64_MAX, &v)))
			return ret;
		d->odd_stats[an_run_dev_odd_key[i]] = (size_t)v;
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
		char *s;

		c->field = "functions";
		if (!cJSON_IsObject(o))
			return bad(c, "a function is not an object");
		if ((ret = field_str(c, o, "name", 0, &s)))
			return ret;
		f->name = xp_arena_strndup(&l->arena, s, strlen(s));
		free(s);
		if ((ret = field_str(c, o, "fingerprint", 1, &s)))
			return ret;
		f->fingerprint = s ? xp_arena_strndup(&l->arena, s, strlen(s)) : NULL;
		if (!f->name || (s && !f->fingerprint)) {
			free(s);
			return xp_err_set(c->err, XP_ERR_NOMEM, "out of memory");
		}
		free(s);
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

static int parse_execs(struct pctx *c, const cJSON *o, struct an_exec_list *l, int children)
{
	struct fn_ident *fns = NULL;
	int64_t *col[NCOLS] = {0};
	const cJSON *devs, *d, *cols;
	size_t nfns = 0, n, i, k;
	char *host = NULL;
	int ret;

	if (!cJSON_IsObject(o))
		return bad(c, "not an object");
	if ((ret = field_str(c, o, "hostname", 0, &host)))
		return ret;
	l->hostname = xp_arena_strndup(&l->arena, host, strlen(host));
	free(host);
	if (!l->hostname)
		return xp_err_set(c->err, XP_ERR_NOMEM, "out of memory");
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
	    (ret = column(c, cols, "split", 0, n, AN_SPLIT_MODULE_LINE, AN_SPLIT_RUNS, 0, &col[C_SPLIT])) ||
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

/* "planes": names, and "empty_planes": indexes of device planes without device events. */
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
	return 0;
}

int an_run_parse(const char *line, size_t len, const char *file, size_t lineno, struct an_run *run,
		 struct xp_err *err)
{
	struct pctx c = {err, file, lineno, NULL};
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
	if (x > AN_RUN_SCHEMA) {
		c.field = NULL;
		ret = xp_err_set(err, XP_ERR_FORMAT,
				 "'%s' line %zu: summary schema %" PRId64 " is newer than this xplane-stat "
				 "reads (%d): update xplane-stat", file, lineno, x, AN_RUN_SCHEMA);
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
	ret = parse_execs(&c, member(&c, doc, "exec"), &run->execs, run->children != NULL);
out:
	cJSON_Delete(doc);
	if (ret)
		an_run_release(run);
	return ret;
}

void an_run_release(struct an_run *r)
{
	if (!r)
		return;
	free(r->path);
	free(r->tool);
	free_strs(r->hostnames, r->nhostnames);
	free_strs(r->planes, r->nplanes);
	free(r->plane_empty);
	free_strs(r->tags, r->ntags);
	free_strs(r->warnings, r->nwarnings);
	free(r->hist.commit);
	free(r->hist.host);
	free(r->device);
	free(r->children);
	free(r->src_file);
	an_exec_list_release(&r->execs);
	memset(r, 0, sizeof(*r));
}

int an_exec_list_copy(struct an_exec_list *dst, const struct an_exec_list *src)
{
	size_t i;

	memset(dst, 0, sizeof(*dst));
	xp_arena_init(&dst->arena);
	dst->devices = calloc(src->ndevices + 1, sizeof(*dst->devices));
	dst->execs = calloc(src->n ? src->n : 1, sizeof(*dst->execs));
	dst->hostname = xp_arena_strndup(&dst->arena, src->hostname, strlen(src->hostname));
	if (!dst->devices || !dst->execs || !dst->hostname)
		goto nomem;
	dst->cap = src->n ? src->n : 1;
	for (i = 0; i < src->ndevices; i++) {
		dst->devices[i] = src->devices[i];
		dst->devices[i].name = xp_arena_strndup(&dst->arena, src->devices[i].name,
							strlen(src->devices[i].name));
		if (!dst->devices[i].name)
			goto nomem;
	}
	dst->ndevices = src->ndevices;
	for (i = 0; i < src->n; i++) {
		struct an_exec *x = &dst->execs[i];

		*x = src->execs[i];
		/* executions of one function share its strings: copy each once */
		if (i && src->execs[i - 1].name == src->execs[i].name) {
			x->name = dst->execs[i - 1].name;
		} else if (!(x->name = xp_arena_strndup(&dst->arena, x->name, strlen(x->name)))) {
			goto nomem;
		}
		if (i && src->execs[i - 1].fingerprint == src->execs[i].fingerprint)
			x->fingerprint = dst->execs[i - 1].fingerprint;
		else if (x->fingerprint &&
			 !(x->fingerprint = xp_arena_strndup(&dst->arena, x->fingerprint, strlen(x->fingerprint))))
			goto nomem;
	}
	dst->n = src->n;
	return 0;
nomem:
	an_exec_list_release(dst);
	return XP_ERR_NOMEM;
}

int an_run_select_devices(struct an_exec_list *l, const char *pattern)
{
	uint32_t *map = calloc(l->ndevices + 1, sizeof(*map));
	size_t i, nd = 0, n = 0;

	if (!map)
		return XP_ERR_NOMEM;
	for (i = 0; i < l->ndevices; i++) {
		if (!an_device_matches(l->devices[i].name, pattern)) {
			map[i] = UINT32_MAX;
			continue;
		}
		map[i] = (uint32_t)nd;
		l->devices[nd++] = l->devices[i];
	}
	for (i = 0; i < l->n; i++) {
		if (map[l->execs[i].device] == UINT32_MAX)
			continue;
		l->execs[n] = l->execs[i];
		l->execs[n++].device = map[l->execs[i].device];
	}
	l->ndevices = nd;
	l->n = n;
	free(map);
	return 0;
}

int an_run_split(const char *data, size_t len, const char *file, struct an_run_line **lines, size_t *n,
		 struct xp_err *err)
{
	size_t cap = 0, lineno = 0, k, j;
	int ret = 0;

	*lines = NULL;
	*n = 0;
	if (len && !an_run_sniff(data, len))
		return xp_err_set(err, XP_ERR_FORMAT, "'%s' is not a summary file (see 'xplane-stat summarize')", file);
	for (k = 0; !ret && k < len; k = j + 1) {
		struct an_run run;

		lineno++;
		for (j = k; j < len && data[j] != '\n'; j++)
			;
		if (j == k)
			continue;
		if ((ret = an_run_parse(data + k, j - k, file, lineno, &run, err)))
			break;
		if (xp_grow(lines, &cap, *n, sizeof(**lines), 64)) {
			an_run_release(&run);
			ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
			break;
		}
		(*lines)[(*n)++] = (struct an_run_line){data + k, j - k, run.path, run.size, run.crc32};
		run.path = NULL;
		an_run_release(&run);
	}
	if (ret) {
		an_run_lines_free(*lines, *n);
		*lines = NULL;
		*n = 0;
	}
	return ret;
}

void an_run_lines_free(struct an_run_line *lines, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(lines[i].path);
	free(lines);
}

int an_run_line_cmp(const void *x, const void *y)
{
	const struct an_run_line *a = x, *b = y;
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

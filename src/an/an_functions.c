/* SPDX-License-Identifier: Apache-2.0 */
#include "an_functions.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xp_arena.h"
#include "xp_sat.h"

int64_t an_exec_time(const struct an_exec *x, enum an_time t)
{
	switch (t) {
	case AN_TIME_SPAN:
		return x->span_ps;
	case AN_TIME_CHILDREN:
		return x->children_ps;
	default:
		return x->busy_ps;
	}
}

void an_fn_init(struct an_fn_result *r, const struct an_fn_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->opts = *o;
}

char *an_device_key(const char *hostname, const char *plane)
{
	size_t len = strlen(hostname) + strlen(plane) + 2;
	char *k = malloc(len);

	if (k)
		snprintf(k, len, "%s%s%s", hostname, *hostname ? ":" : "", plane);
	return k;
}

static int push_double(double **v, size_t *n, size_t *cap, double x)
{
	if (xp_grow(v, cap, *n, sizeof(**v), 8))
		return XP_ERR_NOMEM;
	(*v)[(*n)++] = x;
	return 0;
}

static int add_dev(struct an_fn_row *row, size_t dev)
{
	size_t i;

	for (i = 0; i < row->ndevs_; i++)
		if (row->devs_[i] == dev)
			return 0;
	if (xp_grow(&row->devs_, &row->devcap_, row->ndevs_, sizeof(*row->devs_), 4))
		return XP_ERR_NOMEM;
	row->devs_[row->ndevs_++] = dev;
	return 0;
}

static struct an_fn_row *row_for(struct an_fn_result *r, const struct an_exec *x, const char *devkey)
{
	char prog[24] = "-";
	size_t len;
	char *key;
	struct an_fn_row *row;
	int is_new;

	if (x->has_program_id)
		snprintf(prog, sizeof(prog), "%" PRIu64, x->program_id);
	len = strlen(x->name) + strlen(prog) + strlen(devkey) + 3;
	key = malloc(len);
	if (!key)
		return NULL;
	snprintf(key, len, "%s\x1f%s\x1f%s", x->name, prog, r->opts.per_device ? devkey : "");
	row = xp_hmap_row(&r->by_key_, key, &r->rows, &r->nrows, &r->cap, sizeof(*r->rows), 32, &is_new);
	free(key);
	if (!row || !is_new)
		return row;
	row->name = strdup(x->name);
	row->fingerprint = x->fingerprint ? strdup(x->fingerprint) : NULL;
	row->program_id = x->program_id;
	row->has_program_id = x->has_program_id;
	row->device = r->opts.per_device ? strdup(devkey) : NULL;
	if (!row->name || (x->fingerprint && !row->fingerprint) || (r->opts.per_device && !row->device))
		return NULL;
	return row;
}

int an_fn_add(struct an_fn_result *r, const struct an_exec_list *l, struct xp_err *err)
{
	size_t *dev_id = calloc(l->ndevices + 1, sizeof(*dev_id));
	char **dev_key = calloc(l->ndevices + 1, sizeof(*dev_key));
	size_t i;
	int ret = 0;

	if (!dev_id || !dev_key) {
		ret = XP_ERR_NOMEM;
		goto out;
	}
	r->inputs++;
	for (i = 0; i < l->ndevices; i++) {
		const struct an_device *d = &l->devices[i];
		int found;

		dev_key[i] = an_device_key(l->hostname, d->name);
		dev_id[i] = r->dev_ids_.n;
		if (!dev_key[i] || (found = xp_hmap_get_or_put(&r->dev_ids_, dev_key[i], &dev_id[i])) < 0) {
			ret = XP_ERR_NOMEM;
			goto out;
		}
		r->busy_saturated |= xp_sat_add_to(&r->device_busy_ps, d->busy_ps);
		r->busy_sum_ += (double)d->busy_ps;
		r->device_events += d->events;
		r->dropped_short += d->dropped_short;
		r->unattributed_events += d->unattributed_events;
		r->busy_saturated |= xp_sat_add_to(&r->unattributed_busy_ps, d->unattributed_busy_ps);
		r->runs_execs += d->runs_execs;
		r->runs_split += d->runs_split;
		r->runs_repeating += d->runs_repeating;
		r->stray_events += d->stray_events;
		r->stray_children += d->stray_children;
	}
	r->devices = r->dev_ids_.n;
	for (i = 0; i < l->n; i++) {
		const struct an_exec *x = &l->execs[i];
		struct an_fn_row *row;

		if (r->opts.match && regexec(r->opts.match, x->name, 0, NULL, 0))
			continue;
		row = row_for(r, x, dev_key[x->device]);
		if (!row || push_double(&row->samples_, &row->nsamples_, &row->cap_,
					(double)an_exec_time(x, r->opts.time)) ||
		    add_dev(row, dev_id[x->device])) {
			ret = XP_ERR_NOMEM;
			goto out;
		}
		row->events += x->events;
		r->executions++;
	}
out:
	for (i = 0; dev_key && i < l->ndevices; i++)
		free(dev_key[i]);
	free(dev_key);
	free(dev_id);
	return ret ? xp_err_set(err, ret, "out of memory") : 0;
}

static int cmp_row(const void *a, const void *b)
{
	const struct an_fn_row *x = a, *y = b;
	int c;

	if (x->s.total != y->s.total)
		return x->s.total > y->s.total ? -1 : 1;
	c = strcmp(x->name, y->name);
	if (c)
		return c;
	if (x->program_id != y->program_id)
		return x->program_id < y->program_id ? -1 : 1;
	return strcmp(x->device ? x->device : "", y->device ? y->device : "");
}

int an_fn_finish(struct an_fn_result *r, struct xp_err *err)
{
	double busy = r->busy_saturated ? r->busy_sum_ : (double)r->device_busy_ps;
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		struct an_fn_row *row = &r->rows[i];

		an_summarize(row->samples_, row->nsamples_, r->opts.trim, &row->s);
		row->ndevices = row->ndevs_;
		row->share = busy > 0 ? row->s.total / busy : 0;
	}
	if (r->nrows > 1)	/* qsort(NULL, 0) is undefined */
		qsort(r->rows, r->nrows, sizeof(*r->rows), cmp_row);
	r->functions = r->nrows;
	if (r->opts.per_device) {
		struct xp_hmap seen = {0};

		r->functions = 0;
		for (i = 0; i < r->nrows; i++) {
			char *key = NULL;
			size_t v = 0;
			int found = -1;

			if (asprintf(&key, "%s\x1f%d%" PRIu64, r->rows[i].name, r->rows[i].has_program_id,
				     r->rows[i].program_id) >= 0)
				found = xp_hmap_get_or_put(&seen, key, &v);
			free(key);
			if (found < 0) {
				xp_hmap_release(&seen);
				return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
			}
			r->functions += !found;
		}
		xp_hmap_release(&seen);
	}
	return 0;
}

void an_fn_release(struct an_fn_result *r)
{
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		free(r->rows[i].name);
		free(r->rows[i].fingerprint);
		free(r->rows[i].device);
		free(r->rows[i].samples_);
		free(r->rows[i].devs_);
	}
	free(r->rows);
	xp_hmap_release(&r->by_key_);
	xp_hmap_release(&r->dev_ids_);
	memset(r, 0, sizeof(*r));
}

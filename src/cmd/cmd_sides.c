/* SPDX-License-Identifier: Apache-2.0 */
/* The sides of a comparison: the runs of a profile, directory or summary file read into a diff result (diff, report). */
#include <stdlib.h>
#include <string.h>

#include "an_diff.h"
#include "an_group.h"
#include "an_kernels.h"
#include "an_ops.h"
#include "cmd.h"

/* A profile added to the side, for grouping the side's runs. */
struct cmd_side_input {
	char *path, *dir;	/* the profile and its directory */
	char *hostname;
};

struct diff_batch {
	struct cmd_common *c;
	const struct xp_pathlist *paths;
	const struct an_exec_opts *xo;
	const regex_t *match;
	unsigned plane_jobs;
	int side;
	struct an_diff_result *res;
	struct xp_notes *notes;
	size_t approximate;	/* kernels whose instances were partly a sketch's buckets */
	struct cmd_distinct seen;	/* the side's runs, copies counted once */
	struct cmd_side_runs runs;	/* per run added, in order */
	struct cmd_batch b;
	int ret;
};

/* One run: its executions, or (kernels and ops levels) that analysis of it. */
struct diff_input {
	struct cmd_input *in;
	struct an_kern_result kr;	/* by name, finished */
	struct an_ops_result or;	/* before finish */
};

static void diff_input_free(struct diff_input *di)
{
	if (!di)
		return;
	cmd_input_free(di->in);
	an_kern_release(&di->kr);
	an_ops_release(&di->or);
	free(di);
}

static void *diff_work(size_t i, void *ctx)
{
	struct diff_batch *db = ctx;
	struct diff_input *di = calloc(1, sizeof(*di));
	const struct cmd_common *c = db->c;
	const char *path = db->paths->paths[i];
	struct an_kern_opts ko = {.by = AN_KERN_BY_NAME, .device = c->device};
	struct an_ops_opts oo = {.device = c->device};

	if (!di)
		return NULL;
	an_kern_init(&di->kr, &ko);
	an_ops_init(&di->or, &oo);
	switch (db->res->opts.level) {
	case AN_DIFF_KERNELS:
		di->in = cmd_input_kernels(c, path, db->plane_jobs, &di->kr);
		if (di->in && !di->in->code && an_kern_finish(&di->kr, &di->in->err))
			di->in->code = EXIT_ERROR;
		break;
	case AN_DIFF_OPS:
		di->in = cmd_input_ops(c, path, db->plane_jobs, &di->or, 0);
		break;
	default:
		di->in = cmd_input_process(c, path, db->plane_jobs, db->xo, 0);
	}
	if (!di->in) {
		diff_input_free(di);
		return NULL;
	}
	return di;
}

struct bucket_ctx {
	struct an_diff_result *res;
	int side;
	const char *key;
};

static int add_bucket(void *ctx, double ps, size_t weight)
{
	struct bucket_ctx *b = ctx;

	return an_diff_add_value(b->res, b->side, b->key, ps, weight);
}

/*
 * A run's kernels by name: on a side of one run each instance (those a
 * summary kept as a sketch by its buckets' values and counts), else the
 * run's mean.
 */
static int add_kernels(struct diff_batch *db, const struct an_kern_result *r)
{
	size_t i;
	int ret = 0;

	an_diff_begin_run(db->res, db->side);
	for (i = 0; i < r->nrows && !ret; i++) {
		const struct an_kern_row *row = &r->rows[i];
		struct bucket_ctx b = {db->res, db->side, row->name};

		if (db->match && regexec(db->match, row->name, 0, NULL, 0))
			continue;
		if (db->paths->n > 1) {
			ret = an_diff_add_mean(db->res, db->side, row->name, row->mean, (double)row->instances);
			continue;
		}
		ret = an_kern_row_each(row, add_bucket, &b);
		if (!ret && row->approximate) {
			db->approximate++;
			ret = an_diff_approximate(db->res, row->name);
		}
	}
	return ret;
}

/* An op's key: "module(program)/name", an Async XLA Ops row's with " (async)". */
static char *op_key(const struct an_op_row *row)
{
	char prog[32] = "", *k = NULL;

	if (row->has_program_id)
		snprintf(prog, sizeof(prog), "(%llu)", (unsigned long long)row->program_id);
	/* a module name that ends in its program already ("jit_f(1219...)", past 19 digits) */
	if (row->module && strlen(row->module) >= strlen(prog) &&
	    !strcmp(row->module + strlen(row->module) - strlen(prog), prog))
		prog[0] = '\0';
	if (asprintf(&k, "%s%s%s%s%s", row->module ? row->module : "", prog,
		     row->module || *prog ? "/" : "", row->name, row->line == AN_OP_ASYNC ? " (async)" : "") < 0)
		return NULL;
	return k;
}

/*
 * A run's ops: per key its mean time per occurrence (rows of one key, told
 * apart by their HLO text, pooled), one sample per run: summaries keep an
 * op's sums, not its occurrences.
 */
static int add_ops(struct diff_batch *db, const struct an_ops_result *r)
{
	struct xp_hmap ix = {0};
	double *total = calloc(r->nrows + 1, sizeof(*total));
	size_t *occ = calloc(r->nrows + 1, sizeof(*occ)), i, n = 0;
	char **keys = calloc(r->nrows + 1, sizeof(*keys));
	int ret = XP_ERR_NOMEM;

	if (!total || !occ || !keys)
		goto out;
	for (i = 0; i < r->nrows; i++) {
		const struct an_op_row *row = &r->rows[i];
		char *k = op_key(row);
		size_t at = n;
		int found;

		if (!k)
			goto out;
		if (db->match && regexec(db->match, row->name, 0, NULL, 0)) {
			free(k);
			continue;
		}
		if ((found = xp_hmap_get_or_put(&ix, k, &at)) < 0) {
			free(k);
			goto out;
		}
		if (found)
			free(k);
		else
			keys[n++] = k;
		total[at] += (double)row->total_ps;
		occ[at] += row->occurrences;
	}
	an_diff_begin_run(db->res, db->side);
	for (i = 0, ret = 0; i < n && !ret; i++)
		ret = an_diff_add_mean(db->res, db->side, keys[i], total[i] / (double)occ[i], (double)occ[i]);
out:
	for (i = 0; keys && i < n; i++)
		free(keys[i]);
	free(keys);
	free(total);
	free(occ);
	xp_hmap_release(&ix);
	return ret;
}

int cmd_side_keep(struct cmd_side_runs *s, const struct cmd_input *in)
{
	struct cmd_side_input *k;
	const char *slash = strrchr(in->path, '/');

	if (xp_grow(&s->ins, &s->cap, s->n, sizeof(*s->ins), 16))
		return -1;
	k = &s->ins[s->n++];
	k->hostname = NULL;
	/* the profile's directory (a summary's run: its profile's, as recorded) and name */
	if (!(k->path = xp_arena_strndup(&s->names, in->path, strlen(in->path))) ||
	    !(k->dir = slash ? xp_arena_strndup(&s->names, in->path, (size_t)(slash - in->path))
			     : xp_arena_strndup(&s->names, ".", 1)))
		return -1;
	if (in->hostname && !(k->hostname = xp_arena_strndup(&s->names, in->hostname, strlen(in->hostname))))
		return -1;
	return 0;
}

int cmd_side_groups(const struct cmd_side_runs *s, const struct cmd_common *c, struct an_groups *groups,
		    struct xp_notes *notes)
{
	struct an_group_in *g = calloc(s->n + 1, sizeof(*g));
	size_t i;
	int ret;

	if (!g)
		return -1;
	for (i = 0; i < s->n; i++)
		g[i] = (struct an_group_in){s->ins[i].path, s->ins[i].dir, s->ins[i].hostname};
	ret = an_group_runs(g, s->n, (enum an_run_by)c->run_by, groups, notes) ? -1 : 0;
	free(g);
	return ret;
}

int cmd_side_group(struct cmd_side_runs *s, const struct cmd_common *c, struct an_diff_result *res, int side,
		   size_t first, struct xp_notes *notes)
{
	struct an_groups groups;

	if (cmd_side_groups(s, c, &groups, notes))
		return -1;
	an_diff_group(res, side, first, groups.run, s->n, groups.nruns);
	res->profiles[side] += s->n;
	an_groups_release(&groups);
	return 0;
}

void cmd_side_runs_release(struct cmd_side_runs *s)
{
	free(s->ins);
	xp_arena_release(&s->names);
	memset(s, 0, sizeof(*s));
}

static void diff_done(size_t i, void *result, void *ctx)
{
	struct diff_batch *db = ctx;
	struct diff_input *di = result;
	struct cmd_input *in = di ? di->in : NULL;
	enum an_diff_level level = db->res->opts.level;
	struct xp_err err = {0};
	int r;

	(void)i;
	if (db->ret >= 0)
		goto out;
	/* a side whose only input fails ends in read_side, with the other side's notes */
	cmd_batch_step(&db->b, in, db->notes);
	if (!in || in->code)
		goto out;
	if (!db->c->keep_duplicates && (r = cmd_distinct_check(&db->seen, in))) {
		if (r < 0) {
			cmd_error("out of memory");
			db->ret = EXIT_ERROR;
		}
		goto out;
	}
	if (level == AN_DIFF_KERNELS ? !di->kr.devices : level == AN_DIFF_OPS ? !di->or.ndevices
	    : !in->execs.ndevices)
		xp_notes_add(db->notes, "'%s': no %s%s", in->path,
			     level == AN_DIFF_KERNELS ? "GPU plane with stream lines" : "device plane with events",
			     db->c->device ? " matching --device" : "");
	if (level == AN_DIFF_KERNELS)
		r = add_kernels(db, &di->kr) ? xp_err_set(&err, XP_ERR_NOMEM, "out of memory") : 0;
	else if (level == AN_DIFF_OPS)
		r = add_ops(db, &di->or) ? xp_err_set(&err, XP_ERR_NOMEM, "out of memory") : 0;
	else
		r = an_diff_add(db->res, db->side, &in->execs, &err);
	if (!r && cmd_side_keep(&db->runs, in))
		r = xp_err_set(&err, XP_ERR_NOMEM, "out of memory");
	if (r) {
		cmd_error("%s", err.msg);
		db->ret = EXIT_ERROR;
	}
out:
	diff_input_free(di);
}

int cmd_side_read(struct cmd_common *c, const struct an_exec_opts *xo, int side, const char *arg,
		  struct an_diff_result *res, struct xp_notes *notes, size_t *failed, size_t *approximate)
{
	struct diff_batch db = {0};
	struct xp_pathlist paths = {0};
	size_t first = res->runs[side];
	int ret;

	db.c = c;
	db.xo = xo;
	db.match = res->opts.match;
	db.side = side;
	db.res = res;
	db.notes = notes;
	db.ret = -1;
	if ((ret = cmd_batch_inputs(&db.b, c, &arg, 1, &paths, notes, &db.plane_jobs)) >= 0)
		goto out;
	db.paths = &paths;
	ret = cmd_batch_run(&db.b, cmd_jobs(c, paths.n), diff_work, diff_done, &db, notes, &db.ret);
	if (ret < 0 && !res->runs[side]) {
		cmd_print_notes(notes);
		cmd_error("'%s': no run could be read for the %s side", arg, side ? "current" : "base");
		ret = db.b.first_code ? db.b.first_code : EXIT_INPUT;
	}
	if (cmd_distinct_notes(&db.seen, notes) || cmd_side_group(&db.runs, c, res, side, first, notes)) {
		cmd_error("out of memory");
		ret = EXIT_ERROR;
	}
	*failed += db.b.failed;
	*approximate += db.approximate;
out:
	cmd_side_runs_release(&db.runs);
	cmd_distinct_release(&db.seen);
	xp_pathlist_release(&paths);
	return ret;
}

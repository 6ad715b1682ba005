/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat ops: device time per HLO op (TPU XLA Ops lines, GPU kernels by hlo_op). */
#include <stdlib.h>
#include <string.h>

#include "an_exec.h"
#include "an_ops.h"
#include "cmd.h"
#include "opt.h"
#include "out_ops.h"
#include "xp_input.h"
#include "xp_pool.h"
#include "xp_stray.h"

struct ops_args {
	struct cmd_common c;
	const char *by;
	const char *sort;
	size_t top;
};

/* One input read and analysed on a worker. */
struct ops_input {
	struct cmd_input *in;
	struct an_ops_result res;
};

struct ops_batch {
	const struct ops_args *a;
	const struct xp_pathlist *paths;
	const struct an_ops_opts *oo;
	unsigned plane_jobs;
	struct an_ops_result *res;
	struct xp_notes *notes;
	struct cmd_batch b;
	int any_device;
	int ret;		/* an exit code that stops the batch; -1: going on */
};

struct ops_output {
	const struct an_ops_result *res;
	const struct xp_notes *notes;
	size_t top;
};

static int print_ops(FILE *f, enum out_mode mode, int colour, const void *arg)
{
	const struct ops_output *o = arg;

	return out_ops(f, mode, o->res, o->top, o->notes, colour);
}

static void *ops_work(size_t i, void *ctx)
{
	struct ops_batch *ob = ctx;
	struct ops_input *oi = calloc(1, sizeof(*oi));

	if (!oi)
		return NULL;
	an_ops_init(&oi->res, ob->oo);
	/*
	 * The device planes --device selects, of them the lines an_ops_add uses
	 * (or a summary's run). One input alone keeps its trace, to name its
	 * planes when it has no device plane.
	 */
	if (!(oi->in = cmd_input_ops(&ob->a->c, ob->paths->paths[i], ob->plane_jobs, &oi->res, ob->paths->n == 1))) {
		an_ops_release(&oi->res);
		free(oi);
		return NULL;
	}
	return oi;
}

static void ops_input_free(struct ops_input *oi)
{
	if (!oi)
		return;
	cmd_input_free(oi->in);
	an_ops_release(&oi->res);
	free(oi);
}

static void ops_done(size_t i, void *result, void *ctx)
{
	struct ops_batch *ob = ctx;
	struct ops_input *oi = result;
	const char *path = ob->paths->paths[i];
	struct xp_err err = {0};

	if (ob->ret >= 0)
		goto out;
	if (cmd_batch_step(&ob->b, oi ? oi->in : NULL, ob->notes)) {
		ob->ret = oi ? oi->in->code : EXIT_ERROR;
		goto out;
	}
	if (!oi || oi->in->code)
		goto out;
	if (!oi->res.ndevices) {
		if (ob->paths->n == 1) {
			cmd_no_device_input(oi->in, ob->a->c.device);
			ob->ret = EXIT_NOMATCH;
			goto out;
		}
		xp_notes_add(ob->notes, "'%s': no device plane with events%s", path,
			     ob->a->c.device ? " matching --device" : "");
	}
	ob->any_device |= oi->res.ndevices > 0;
	if (an_ops_merge(ob->res, &oi->res, &err)) {
		cmd_error("%s", err.msg);
		ob->ret = EXIT_ERROR;
	}
out:
	ops_input_free(oi);
}

/* Warnings for what was left out or could not be used. */
static int note_result(struct xp_notes *n, const struct an_ops_result *r)
{
	size_t i, k;
	int ret = 0;

	for (i = 0; i < r->ndevices; i++) {
		const struct an_ops_device *d = &r->devices[i];

		if ((k = d->stray_events))
			ret |= xp_notes_add(n, "plane '%s': %zu op event%s end%s more than %d windows after every "
					    "other event of the line (a duration that reads like an absolute end "
					    "time): left out", d->name, k, k == 1 ? "" : "s", k == 1 ? "s" : "",
					    XP_STRAY_WINDOWS);
		if ((k = d->partial_overlaps))
			ret |= xp_notes_add(n, "plane '%s': %zu op%s start%s inside another op of the line and "
					    "end%s after it (ops nested out of order): no child of it, nothing "
					    "subtracted from its self time", d->name, k, k == 1 ? "" : "s",
					    k == 1 ? "s" : "", k == 1 ? "s" : "");
		if ((k = d->odd_values))
			ret |= xp_notes_add(n, "plane '%s': %zu flops, model_flops or bytes_accessed stat%s %s "
					    "negative or not an integer (treated as absent)", d->name, k,
					    k == 1 ? "" : "s", k == 1 ? "is" : "are");
		if ((k = d->extra_module_lines))
			ret |= xp_notes_add(n, "plane '%s': %zu more 'XLA Modules' line%s not used for programs",
					    d->name, k, k == 1 ? "" : "s");
		if ((k = d->kernels_no_op) && d->events[AN_OP_GPU])
			ret |= xp_notes_add(n, "plane '%s': %zu kernel%s without an hlo_op stat left out", d->name,
					    k, k == 1 ? "" : "s");
	}
	if ((k = r->overflows))
		ret |= xp_notes_add(n, "%zu row sum%s passed 2^64-1 (flops, bytes) or 2^63-1 ps (time): "
				    "shown as unknown (flops, bytes) or the largest time", k, k == 1 ? "" : "s");
	if ((k = r->partial_sums))
		ret |= xp_notes_add(n, "%zu row value%s (flops, model_flops, bytes_accessed) carried by only "
				    "some occurrences: shown as unknown", k, k == 1 ? "" : "s");
	if ((k = r->ridge_differs))
		ret |= xp_notes_add(n, "%zu row%s ran on devices with different peaks: no bound-by", k,
				    k == 1 ? "" : "s");
	return ret ? XP_ERR_NOMEM : 0;
}

static int parse_sort(const char *s, enum an_ops_sort *out)
{
	static const char *const names[] = {"time", "self", "flops", "bytes"};
	size_t i;

	for (i = 0; i < 4; i++)
		if (!strcmp(s, names[i])) {
			*out = (enum an_ops_sort)i;
			return 0;
		}
	return -1;
}

int cmd_ops(int argc, char **argv)
{
	struct ops_args a = {0};
	const struct opt opts[] = {
		{"device", 'd', OPT_STR, &a.c.device, "PATTERN",
		 "only device planes whose name contains PATTERN, any case (gpu, TPU:1)"},
		{"by", 0, OPT_STR, &a.by, "op|category", "a row per op (default) or per category (hlo_category)"},
		{"sort", 0, OPT_STR, &a.sort, "time|self|flops|bytes", "order rows by total time (default), "
		 "self time, flops or bytes accessed, largest first"},
		{"top", 0, OPT_COUNT, &a.top, "N", "only the first N rows of each line kind"},
		CMD_OPTS_INPUT(&a.c),
		CMD_OPTS_FORMAT(&a.c),
		{0},
	};
	const struct opt_cmd cmd = {
		"ops", "[OPTIONS] FILE|DIR|-...",
		"Device time per HLO op, pooled over all inputs and devices. TPU: the events of\n"
		"each device's 'XLA Ops' line (and, apart, its 'Async XLA Ops' line): occurrences,\n"
		"total and self time (less the ops nested inside), mean, share of self time,\n"
		"flops, bytes accessed, FLOP/s, GB/s, FLOP per byte and whether the op is compute\n"
		"or memory bound against the device's peaks (its plane's stats, else a built-in\n"
		"chip table; the output says which). GPU: kernels grouped by hlo_module and hlo_op.",
		opts,
	};
	struct an_ops_opts oo = {0};
	struct an_ops_result res;
	struct ops_output out;
	struct xp_pathlist paths = {0};
	struct xp_notes notes = {0};
	struct xp_err err = {0};
	struct ops_batch ob = {0};
	enum out_mode mode;
	const char **pos = NULL;
	unsigned jobs;
	size_t npos;
	int ret, m;

	cmd_common_init(&a.c);
	an_ops_init(&res, &oo);
	ret = cmd_parse(&cmd, argc, argv, &pos, &npos);
	if (ret >= 0)
		goto out;
	ret = EXIT_USAGE;
	if (!npos) {
		cmd_error("no input given (see 'xplane-stat ops --help')");
		goto out;
	}
	if ((m = cmd_output_mode(&a.c)) < 0)
		goto out;
	mode = (enum out_mode)m;
	if ((ret = cmd_input_setup(&a.c)) >= 0)
		goto out;
	ret = EXIT_USAGE;
	if (a.by && strcmp(a.by, "op") && strcmp(a.by, "category")) {
		cmd_error("--by: '%s' is not op or category", a.by);
		goto out;
	}
	if (a.sort && parse_sort(a.sort, &oo.sort)) {
		cmd_error("--sort: '%s' is not time, self, flops or bytes", a.sort);
		goto out;
	}
	oo.by_category = a.by && !strcmp(a.by, "category");
	oo.device = a.c.device;
	an_ops_init(&res, &oo);
	a.c.keys = AN_OPS_KEYS;
	a.c.summaries = 1;
	if ((ret = cmd_batch_inputs(&ob.b, &a.c, pos, npos, &paths, &notes, &ob.plane_jobs)) >= 0)
		goto out;
	ob.a = &a;
	ob.paths = &paths;
	ob.oo = &oo;
	ob.res = &res;
	ob.notes = &notes;
	ob.ret = -1;
	jobs = cmd_jobs(&a.c, paths.n);
	ret = cmd_batch_run(&ob.b, jobs, ops_work, ops_done, &ob, &notes, &ob.ret);
	if (ret >= 0)
		goto out;
	if (!ob.any_device) {
		cmd_error("no device plane with events in any input%s", a.c.device ? " matching --device" : "");
		cmd_print_notes(&notes);
		ret = ob.b.failed ? ob.b.first_code : EXIT_NOMATCH;
		goto out;
	}
	if (an_ops_finish(&res, &err) || note_result(&notes, &res)) {
		cmd_error("out of memory");
		ret = EXIT_ERROR;
		goto out;
	}
	if (!res.nrows) {
		cmd_error("no HLO ops found: %s", res.kernels_no_op
			  ? "the device planes have no 'XLA Ops' line, and no GPU kernel carries an hlo_op stat "
			    "(not an XLA program? 'xplane-stat planes FILE' shows what the file holds)"
			  : "the device planes have no 'XLA Ops' line and no GPU kernel "
			    "('xplane-stat planes FILE' shows what the file holds)");
		cmd_print_notes(&notes);
		ret = EXIT_NOMATCH;
		goto out;
	}
	out.res = &res;
	out.notes = &notes;
	out.top = a.top;
	ret = cmd_write(a.c.output, mode, print_ops, &out);
	if (mode != OUT_JSON)
		cmd_print_notes(&notes);
	ret = cmd_batch_exit(&ob.b, ret);
out:
	cmd_common_release(&a.c);
	an_ops_release(&res);
	xp_pathlist_release(&paths);
	xp_notes_release(&notes);
	free(pos);
	return ret;
}

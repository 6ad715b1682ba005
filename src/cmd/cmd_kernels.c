/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat kernels: GPU kernels, copies and memsets on the stream lines, pooled over inputs. */
#include <stdlib.h>
#include <string.h>

#include "an_exec.h"
#include "an_kernels.h"
#include "cmd.h"
#include "opt.h"
#include "out_kernels.h"
#include "xp_input.h"
#include "xp_pool.h"
#include "xp_stray.h"

struct kern_args {
	struct cmd_common c;
	const char *by;
	size_t top;
	int copies;
};

/* One input read and analysed on a worker thread. */
struct kern_input {
	struct cmd_input *in;
	struct an_kern_result r;
};

struct kern_batch {
	const struct kern_args *a;
	const struct xp_pathlist *paths;
	const struct an_kern_opts *ko;
	unsigned plane_jobs;
	struct an_kern_result *res;
	struct xp_notes *notes;
	struct cmd_batch b;
	int ret;		/* an exit code that stops the batch; -1: going on */
};

struct kern_output {
	const struct an_kern_result *res;
	const struct out_kern_opts *o;
	const struct xp_notes *notes;
};

static int print_kernels(FILE *f, enum out_mode mode, int colour, const void *arg)
{
	const struct kern_output *o = arg;

	return out_kernels(f, mode, o->res, o->o, o->notes, colour);
}

static void *kern_work(size_t i, void *ctx)
{
	struct kern_batch *kb = ctx;
	struct kern_input *ki = calloc(1, sizeof(*ki));

	if (!ki)
		return NULL;
	an_kern_init(&ki->r, kb->ko);
	/* the trace, or the kernels section of a summary's run */
	if (!(ki->in = cmd_input_kernels(&kb->a->c, kb->paths->paths[i], kb->plane_jobs, &ki->r))) {
		an_kern_release(&ki->r);
		free(ki);
		return NULL;
	}
	return ki;
}

static void kern_input_free(struct kern_input *ki)
{
	if (!ki)
		return;
	an_kern_release(&ki->r);
	cmd_input_free(ki->in);
	free(ki);
}

static void kern_done(size_t i, void *result, void *ctx)
{
	struct kern_batch *kb = ctx;
	struct kern_input *ki = result;
	struct xp_err err = {0};
	const char *path = kb->paths->paths[i];

	if (kb->ret >= 0)
		goto out;
	if (cmd_batch_step(&kb->b, ki ? ki->in : NULL, kb->notes)) {
		kb->ret = ki ? ki->in->code : EXIT_ERROR;
		goto out;
	}
	if (!ki || ki->in->code)
		goto out;
	if (!ki->r.devices && kb->paths->n > 1)
		xp_notes_add(kb->notes, "'%s': no GPU plane with stream lines%s", path,
			     kb->a->c.device ? " matching --device" : "");
	if (ki->r.stray_events)
		xp_notes_add(kb->notes, "'%s': %zu event%s on the stream lines end%s more than %d windows after "
			     "every other event of the plane (a duration that reads like an absolute end time): "
			     "left out", path, ki->r.stray_events, ki->r.stray_events == 1 ? "" : "s",
			     ki->r.stray_events == 1 ? "s" : "", XP_STRAY_WINDOWS);
	if (an_kern_merge(kb->res, &ki->r, &err)) {
		cmd_error("%s", err.msg);
		kb->ret = EXIT_ERROR;
	}
out:
	kern_input_free(ki);
}

/* Warnings about the pooled result. */
static void result_notes(const struct an_kern_result *r, struct xp_notes *n)
{
	char ex[256];

	if (r->bad_config) {
		xp_escape(ex, sizeof(ex), r->bad_config_example ? r->bad_config_example : "");
		xp_notes_add(n, "%zu kernel%s carr%s a kernel_details stat that does not parse as a launch "
			     "configuration (e.g. \"%s\"): counted under %s name, configuration '?'",
			     r->bad_config, r->bad_config == 1 ? "" : "s", r->bad_config == 1 ? "ies" : "y", ex,
			     r->bad_config == 1 ? "its" : "their");
	}
	if (r->implausible_config)
		xp_notes_add(n, "%zu kernel%s record a grid or block with a zero dimension (values the profiler "
			     "did not fill in): their configurations are shown as recorded",
			     r->implausible_config, r->implausible_config == 1 ? "" : "s");
	if (r->opts.by == AN_KERN_BY_CONFIG && r->no_config)
		xp_notes_add(n, "%zu kernel%s carr%s no kernel_details stat: configuration '-'", r->no_config,
			     r->no_config == 1 ? "" : "s", r->no_config == 1 ? "ies" : "y");
	if (r->device_planes_no_streams)
		xp_notes_add(n, "%zu device plane%s with events but no stream lines (TPU: 'xplane-stat ops' "
			     "reads their XLA Ops)", r->device_planes_no_streams,
			     r->device_planes_no_streams == 1 ? "" : "s");
	if (r->approximate)
		xp_notes_add(n, "%zu row%s: median, p90 and p99 approximate, within %g%%: summaries keep a kernel's "
			     "instances on a device beyond %d as a sketch (SUMMARIES in xplane-stat(1))",
			     r->approximate, r->approximate == 1 ? "" : "s", AN_SKETCH_ALPHA * 100, AN_KERN_EXACT_MAX);
}

int cmd_kernels(int argc, char **argv)
{
	struct kern_args a = {0};
	const struct opt opts[] = {
		{"device", 'd', OPT_STR, &a.c.device, "PATTERN",
		 "only device planes whose name contains PATTERN, any case (gpu, GPU:1)"},
		{"by", 0, OPT_STR, &a.by, "name|config|function",
		 "a row per kernel name (default), per name and launch configuration, or per function, op and name"},
		{"top", 0, OPT_COUNT, &a.top, "N", "only the N largest rows (functions with --by function)"},
		{"copies", 0, OPT_FLAG, &a.copies, NULL, "only the copies and memsets table (CSV/TSV: its rows)"},
		CMD_OPTS_INPUT(&a.c),
		CMD_OPTS_FORMAT(&a.c),
		{0},
	};
	const struct opt_cmd cmd = {
		"kernels", "[OPTIONS] FILE|DIR|-...",
		"GPU kernels on the stream lines of GPU device planes, pooled over all inputs and\n"
		"devices: instances, total, mean, median, min, max, std (population), p90 and p99\n"
		"(nearest rank) and share of kernel time; copies and memsets per kind with bytes\n"
		"and GB/s. Derived lines (TensorFlow Ops, XLA Ops, Steps) are not counted again.",
		opts,
	};
	struct an_kern_opts ko = {0};
	struct out_kern_opts oo = {0};
	struct an_kern_result res;
	struct kern_output out;
	struct xp_pathlist paths = {0};
	struct xp_notes notes = {0};
	struct xp_err err = {0};
	struct kern_batch kb = {0};
	int m, ret;
	enum out_mode mode;
	const char **pos = NULL;
	unsigned jobs;
	size_t npos;

	cmd_common_init(&a.c);
	an_kern_init(&res, &ko);
	ret = cmd_parse(&cmd, argc, argv, &pos, &npos);
	if (ret >= 0)
		goto out;
	ret = EXIT_USAGE;
	if (!npos) {
		cmd_error("no input given (see 'xplane-stat kernels --help')");
		goto out;
	}
	if (!a.by || !strcmp(a.by, "name")) {
		ko.by = AN_KERN_BY_NAME;
	} else if (!strcmp(a.by, "config")) {
		ko.by = AN_KERN_BY_CONFIG;
	} else if (!strcmp(a.by, "function")) {
		ko.by = AN_KERN_BY_FUNCTION;
	} else {
		cmd_error("--by: '%s' is not name, config or function", a.by);
		goto out;
	}
	if ((m = cmd_output_mode(&a.c)) < 0)
		goto out;
	mode = (enum out_mode)m;
	if (mode == OUT_JSON && a.copies) {
		cmd_error("--copies selects a table: JSON always has both (memcpy[])");
		goto out;
	}
	if ((ret = cmd_input_setup(&a.c)) >= 0)
		goto out;
	ko.device = a.c.device;
	oo.top = a.top;
	oo.copies = a.copies;
	an_kern_init(&res, &ko);
	a.c.keys = AN_KERN_KEYS;
	a.c.summaries = 1;
	if ((ret = cmd_batch_inputs(&kb.b, &a.c, pos, npos, &paths, &notes, &kb.plane_jobs)) >= 0)
		goto out;
	kb.a = &a;
	kb.paths = &paths;
	kb.ko = &ko;
	kb.res = &res;
	kb.notes = &notes;
	kb.ret = -1;
	jobs = cmd_jobs(&a.c, paths.n);
	ret = cmd_batch_run(&kb.b, jobs, kern_work, kern_done, &kb, &notes, &kb.ret);
	if (ret >= 0)
		goto out;
	if (!res.devices || !(res.kernel_events + res.copy_events)) {
		cmd_error("no GPU kernels, copies or memsets in %s%s: %s", paths.n == 1 ? "this input" : "any input",
			  a.c.device ? " on devices matching --device" : "",
			  res.device_planes_no_streams
			  ? "its device planes have no 'Stream #' lines (a TPU trace? 'xplane-stat ops' shows its XLA ops)"
			  : res.devices ? "the GPU stream lines hold no events"
			  : "no GPU device plane has 'Stream #' lines ('xplane-stat planes FILE' shows what it holds)");
		result_notes(&res, &notes);
		cmd_print_notes(&notes);
		ret = kb.b.failed ? kb.b.first_code : EXIT_NOMATCH;
		goto out;
	}
	if (an_kern_finish(&res, &err)) {
		cmd_error("%s", err.msg);
		ret = EXIT_ERROR;
		goto out;
	}
	result_notes(&res, &notes);
	out.res = &res;
	out.o = &oo;
	out.notes = &notes;
	ret = cmd_write(a.c.output, mode, print_kernels, &out);
	if (mode != OUT_JSON)
		cmd_print_notes(&notes);
	ret = cmd_batch_exit(&kb.b, ret);
out:
	cmd_common_release(&a.c);
	an_kern_release(&res);
	xp_pathlist_release(&paths);
	xp_notes_release(&notes);
	free(pos);
	return ret;
}

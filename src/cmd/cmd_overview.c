/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat overview: the device timeline per device (span, busy, idle, duty cycle and its split). */
#include <stdlib.h>
#include <string.h>

#include "an_overview.h"
#include "cmd.h"
#include "opt.h"
#include "out_overview.h"
#include "xp_input.h"
#include "xp_pool.h"
#include "xp_stray.h"

struct ov_args {
	struct cmd_common c;
};

struct ov_output {
	const struct an_ov_result *res;
	const struct xp_notes *notes;
};

static int print_overview(FILE *f, enum out_mode mode, int colour, const void *arg)
{
	const struct ov_output *o = arg;

	return out_overview(f, mode, o->res, o->notes, colour);
}

struct ov_batch {
	const struct ov_args *a;
	const struct xp_pathlist *paths;
	unsigned plane_jobs;
	struct an_ov_result *res;
	struct xp_notes *notes;
	struct cmd_batch b;
	size_t devices;
	int ret;
};

static void *ov_work(size_t i, void *ctx)
{
	struct ov_batch *ob = ctx;

	return cmd_input_process(&ob->a->c, ob->paths->paths[i], ob->plane_jobs, NULL, 1);
}

/* What this input added to each device that a reader should know: stray ends, unlinked launches. */
static int note_input(struct xp_notes *n, const char *path, const struct an_ov_result *r,
		      const size_t *before, size_t nbefore)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < r->n; i++) {
		const struct an_ov_device *d = &r->devices[i];
		const size_t *b = i < nbefore ? &before[i * 4] : NULL;
		size_t st = d->stray - (b ? b[0] : 0), nl = d->no_launch - (b ? b[1] : 0);
		size_t am = d->ambiguous - (b ? b[2] : 0), os = d->off_scale - (b ? b[3] : 0);

		if (st)
			ret |= xp_notes_add(n, "'%s': plane '%s': %zu event%s end%s more than %d windows after every "
					    "other event of the plane (a duration that reads like an absolute end "
					    "time): left out of span, busy time and statistics", path, d->name, st,
					    st == 1 ? "" : "s", st == 1 ? "s" : "", XP_STRAY_WINDOWS);
		if (nl)
			ret |= xp_notes_add(n, "'%s': plane '%s': %zu device event%s with a correlation_id ha%s no "
					    "host event with that id: no launch latency", path, d->name, nl,
					    nl == 1 ? "" : "s", nl == 1 ? "s" : "ve");
		if (am)
			ret |= xp_notes_add(n, "'%s': plane '%s': %zu device event%s share%s its correlation_id with "
					    "several host events: left out of launch latency", path, d->name, am,
					    am == 1 ? "" : "s", am == 1 ? "s" : "");
		if (os)
			ret |= xp_notes_add(n, "'%s': plane '%s': %zu device event%s and %s host launch%s lie too far "
					    "apart to compare: left out of launch latency", path, d->name, os,
					    os == 1 ? "" : "s", os == 1 ? "its" : "their", os == 1 ? "" : "es");
	}
	return ret;
}

static void ov_done(size_t i, void *result, void *ctx)
{
	struct ov_batch *ob = ctx;
	struct cmd_input *in = result;
	struct xp_err err = {0};
	size_t added = 0, k, nbefore;
	size_t *before = NULL;

	(void)i;
	if (ob->ret >= 0)
		goto out;
	if (cmd_batch_step(&ob->b, in, ob->notes)) {
		ob->ret = in ? in->code : EXIT_ERROR;
		goto out;
	}
	if (!in || in->code)
		goto out;
	/* the counts so far, to warn about this input's own (devices pool by name; new ones are appended) */
	nbefore = ob->res->n;
	if (!(before = malloc((nbefore + 1) * 4 * sizeof(*before)))) {
		cmd_error("out of memory");
		ob->ret = EXIT_ERROR;
		goto out;
	}
	for (k = 0; k < nbefore; k++) {
		before[k * 4] = ob->res->devices[k].stray;
		before[k * 4 + 1] = ob->res->devices[k].no_launch;
		before[k * 4 + 2] = ob->res->devices[k].ambiguous;
		before[k * 4 + 3] = ob->res->devices[k].off_scale;
	}
	if (an_ov_add(ob->res, in->t, ob->a->c.device, &added, &err)) {
		cmd_error("%s", err.msg);
		ob->ret = EXIT_ERROR;
		goto out;
	}
	if (note_input(ob->notes, in->path, ob->res, before, nbefore))
		ob->b.fatal = 1;
	if (!added) {
		if (ob->paths->n == 1) {
			cmd_no_device(in->path, in->t, ob->a->c.device);
			ob->ret = EXIT_NOMATCH;
			goto out;
		}
		xp_notes_add(ob->notes, "'%s': no device plane with events%s", in->path,
			     ob->a->c.device ? " matching --device" : "");
	}
	ob->devices += added;
out:
	free(before);
	cmd_input_free(in);
}

int cmd_overview(int argc, char **argv)
{
	struct ov_args a;
	const struct opt opts[] = {
		{"device", 'd', OPT_STR, &a.c.device, "PATTERN",
		 "only device planes whose name contains PATTERN, any case (gpu, TPU:1)"},
		CMD_OPTS_INPUT(&a.c),
		CMD_OPTS_FORMAT(&a.c),
		{0},
	};
	const struct opt_cmd cmd = {
		"overview", "[OPTIONS] FILE|DIR|-...",
		"The device timeline per device plane, pooled over the inputs by plane name:\n"
		"span (first to last device event), busy (their union), idle, duty cycle\n"
		"(busy/span), and busy split into compute, collectives and memory copies, each\n"
		"with the part no other work overlaps (TraceLens's gpu_timeline); step times\n"
		"(a TPU Steps line, host step_num annotations); on GPU the launch latency\n"
		"(device start minus its host launch, through correlation_id).",
		opts,
	};
	struct an_ov_result res;
	struct ov_output oo;
	struct xp_pathlist paths = {0};
	struct xp_notes notes = {0};
	struct xp_err err = {0};
	struct ov_batch ob = {0};
	const char **pos = NULL;
	size_t npos;
	int ret, m;

	cmd_common_init(&a.c);
	an_ov_init(&res);
	ret = cmd_parse(&cmd, argc, argv, &pos, &npos);
	if (ret >= 0)
		goto out;
	ret = EXIT_USAGE;
	if (!npos) {
		cmd_error("no input given (see 'xplane-stat overview --help')");
		goto out;
	}
	if ((m = cmd_output_mode(&a.c)) < 0)
		goto out;
	if ((ret = cmd_input_setup(&a.c)) >= 0)
		goto out;
	/* host planes: launches and step annotations only, both marked by key stats */
	a.c.want_host_event = an_ov_wants_host_event;
	a.c.host_keys = 1u << XP_K_CORRELATION_ID | 1u << XP_K_STEP_NUM;
	a.c.keys = AN_OV_KEYS;
	if ((ret = cmd_batch_inputs(&ob.b, &a.c, pos, npos, &paths, &notes, &ob.plane_jobs)) >= 0)
		goto out;
	ob.a = &a;
	ob.paths = &paths;
	ob.res = &res;
	ob.notes = &notes;
	ob.ret = -1;
	ret = cmd_batch_run(&ob.b, cmd_jobs(&a.c, paths.n), ov_work, ov_done, &ob, &notes, &ob.ret);
	if (ret >= 0)
		goto out;
	if (!ob.devices) {
		cmd_error("no device plane with events in any input%s", a.c.device ? " matching --device" : "");
		cmd_print_notes(&notes);
		ret = ob.b.failed ? ob.b.first_code : EXIT_NOMATCH;
		goto out;
	}
	an_ov_finish(&res, &err);
	oo.res = &res;
	oo.notes = &notes;
	ret = cmd_write(a.c.output, (enum out_mode)m, print_overview, &oo);
	if (m != OUT_JSON)
		cmd_print_notes(&notes);
	ret = cmd_batch_exit(&ob.b, ret);
out:
	an_ov_release(&res);
	xp_pathlist_release(&paths);
	xp_notes_release(&notes);
	free(pos);
	return ret;
}

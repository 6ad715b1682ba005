/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat overview: the device timeline per device (span, busy, idle, duty cycle and its split). */
#include <stdlib.h>

#include "an_notes.h"
#include "cmd_driver.h"
#include "out_overview.h"

/* Devices pool by host and plane as each input is added: its own odd events are told by the counts before. */
static int ov_input(struct cmd_drive *d, struct cmd_input *in, void *r, struct xp_err *err)
{
	struct an_ov_result *res = d->res;
	size_t added = 0, nbefore = res->n, *before = NULL, host_only = res->host_only_steps.n;
	size_t host_inputs = res->host_only_inputs;
	int ret;

	(void)r;
	if ((ret = an_ov_counts(d->res, &before)) || (ret = an_ov_add_input(d->res, in->t, in->path, d->c->device, &added, err)))
		goto out;
	if ((ret = an_ov_input_notes(&d->notes, in->path, d->res, before, nbefore)) || added)
		goto out;
	if (res->host_only_inputs > host_inputs)	/* a host-only profile: its steps are what it has */
		ret = an_ov_host_only_note(&d->notes, in->path, d->c->device, res->host_only_steps.n - host_only);
	else
		ret = cmd_drive_no_device(d, in);
out:
	free(before);
	return ret;
}

static int ov_check(struct cmd_drive *d)
{
	if (((const struct an_ov_opts *)d->opts)->stragglers)
		d->read = &an_ov_strag_read;
	((struct an_ov_opts *)d->opts)->run_by = d->c->run_by;
	return CMD_GO_ON;
}

static int ov_nothing(struct cmd_drive *d)
{
	const struct an_ov_result *r = d->res;

	if (r->n || r->host_only_inputs)	/* a device is made by a plane added; a host-only profile's steps stand alone */
		return CMD_GO_ON;
	cmd_error("no device plane with events in any input%s", d->c->device ? " matching --device" : "");
	return cmd_drive_nomatch(d);
}

static int ov_print(FILE *f, enum out_mode mode, const struct out_style *st, const struct cmd_drive *d)
{
	return out_overview(f, mode, d->res, &d->notes, st);
}

static const struct cmd_analysis overview = {
	.name = "overview",
	.about = "The device timeline per device, pooled over the inputs by host and plane (one\n"
		 "input's times): span (first to last device event), busy (their union), idle,\n"
		 "duty cycle, and busy split into compute, collectives and memory copies, each with\n"
		 "the part no other work overlaps (TraceLens's gpu_timeline); step times; on GPU\n"
		 "the launch latency. --stragglers: which device of a host the others wait for;\n"
		 "--steps: each step's time, its split, host wait and FLOPs utilization.",
	.an = &an_overview_analysis, .check = ov_check, .input = ov_input, .nothing = ov_nothing,
	.print = ov_print,
};

int cmd_overview(int argc, char **argv)
{
	struct cmd_common c;
	struct an_ov_opts o = {0};
	const struct opt opts[] = {
		CMD_OPT_DEVICE(&c, "gpu, TPU:1"),
		{"stragglers", 0, OPT_FLAG, &o.stragglers, NULL,
		 "per device of a host: how often it ended a function's execution last, how late; per host of a run: "
		 "how often its executions were the slowest (CSV: the devices alone)"},
		{"steps", 0, OPT_FLAG, &o.steps, NULL,
		 "also a row per step of each device's 'Steps' line: its time, busy (compute, collectives and copies "
		 "no other work overlaps), host wait, idle, and on TPU its FLOP/s and FLOPs utilization; then the "
		 "steps lined up across devices, the slowest device's time (CSV: the steps alone)"},
		CMD_OPT_RUN_BY(&c),
		CMD_OPTS_TAIL(&c),
	};
	struct cmd_drive d = {.a = &overview, .c = &c, .opts = &o};

	return cmd_drive(&d, opts, argc, argv);
}

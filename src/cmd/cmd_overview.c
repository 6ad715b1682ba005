/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat overview: the device timeline per device (span, busy, idle, duty cycle and its split). */
#include <stdlib.h>

#include "an_notes.h"
#include "an_straggle.h"
#include "cmd_driver.h"
#include "out_overview.h"

struct ov_args {
	struct cmd_common c;
	int stragglers;
	struct an_strag_result strag;
};

/* With --stragglers: besides the overview's, what finding executions reads. */
static int strag_wants_host_event(const char *name)
{
	return an_ov_wants_host_event(name) || an_exec_wants_host_event(name);
}

static const struct an_read_profile strag_read = {
	.how = AN_READ_TRACE, .keys = AN_OV_KEYS | AN_EXEC_KEYS,
	.host_keys = 1u << XP_K_CORRELATION_ID | 1u << XP_K_STEP_NUM | AN_EXEC_HOST_KEYS,
	.want_host_event = strag_wants_host_event, .event_stats = XP_EVSTATS_KEYS,
};

static int ov_check(struct cmd_drive *d)
{
	struct ov_args *a = d->args;

	if (a->stragglers)
		d->read = &strag_read;
	return CMD_GO_ON;
}

/*
 * The input's executions, for the stragglers. An input whose executions
 * cannot be compared (planes too far apart) is left out of them with a
 * warning: its overview stands.
 */
static int strag_input(struct cmd_drive *d, struct cmd_input *in, struct xp_err *err)
{
	struct ov_args *a = d->args;
	struct an_exec_opts xo = {.device = d->c->device};
	struct an_exec_list l;
	struct xp_err e = {0};
	int ret;

	if (!(ret = an_exec_find(in->t, &xo, &l, &e))) {
		ret = an_strag_add(&a->strag, in->t, &l, &e);
		an_exec_list_release(&l);
	}
	if (ret == XP_ERR_NOMEM)
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	if (ret && xp_notes_add(&d->notes, "'%s': left out of the stragglers: %s", in->path, e.msg) < 0)
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	return 0;
}

/* Devices pool by name as each input is added: its own odd events are told by the counts before. */
static int ov_input(struct cmd_drive *d, struct cmd_input *in, void *r, struct xp_err *err)
{
	size_t added = 0, nbefore = ((struct an_ov_result *)d->res)->n, *before = NULL;
	int ret;

	(void)r;
	if ((ret = an_ov_counts(d->res, &before)) || (ret = an_ov_add(d->res, in->t, d->c->device, &added, err)))
		goto out;
	if (((struct ov_args *)d->args)->stragglers && (ret = strag_input(d, in, err)))
		goto out;
	if ((ret = an_ov_input_notes(&d->notes, in->path, d->res, before, nbefore)) || added)
		goto out;
	ret = cmd_drive_no_device(d, in);
out:
	free(before);
	return ret;
}

static int ov_nothing(struct cmd_drive *d)
{
	if (((const struct an_ov_result *)d->res)->n)	/* a device is made by a plane added */
		return CMD_GO_ON;
	cmd_error("no device plane with events in any input%s", d->c->device ? " matching --device" : "");
	return cmd_drive_nomatch(d);
}

static int ov_after(struct cmd_drive *d)
{
	struct ov_args *a = d->args;
	struct xp_err err = {0};

	if (a->stragglers && an_strag_finish(&a->strag, &err)) {
		cmd_error("%s", err.msg);
		return EXIT_ERROR;
	}
	return CMD_GO_ON;
}

static int ov_print(FILE *f, enum out_mode mode, const struct out_style *st, const struct cmd_drive *d)
{
	const struct ov_args *a = d->args;

	return out_overview(f, mode, d->res, a->stragglers ? &a->strag : NULL, &d->notes, st);
}

static const struct cmd_analysis overview = {
	.name = "overview",
	.about = "The device timeline per device, pooled over the inputs by host and plane:\n"
		 "span (first to last device event), busy (their union), idle, duty cycle\n"
		 "(busy/span), and busy split into compute, collectives and memory copies, each\n"
		 "with the part no other work overlaps (TraceLens's gpu_timeline); step times\n"
		 "(a TPU Steps line, host step_num annotations); on GPU the launch latency\n"
		 "(device start minus its host launch, through correlation_id). Pooled inputs\n"
		 "give one input's times. --stragglers: which device of a host the others wait for.",
	.an = &an_overview_analysis, .check = ov_check, .input = ov_input, .nothing = ov_nothing,
	.after = ov_after, .print = ov_print,
};

int cmd_overview(int argc, char **argv)
{
	struct ov_args a = {0};
	const struct opt opts[] = {
		CMD_OPT_DEVICE(&a.c, "gpu, TPU:1"),
		{"stragglers", 0, OPT_FLAG, &a.stragglers, NULL,
		 "per device of each host: how often it ended a function's execution last, how late after the "
		 "first device and how long it waited for the last (CSV/TSV: this table alone)"},
		CMD_OPTS_TAIL(&a.c),
	};
	struct cmd_drive d = {.a = &overview, .c = &a.c, .args = &a};
	int ret;

	an_strag_init(&a.strag);
	ret = cmd_drive(&d, opts, argc, argv);

	an_strag_release(&a.strag);
	return ret;
}

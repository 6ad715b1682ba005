/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Differential: the wire reader against the protobuf-c reader (the oracle),
 * read eagerly on one thread, and again with lazy planes (device planes
 * first, or none at all, the rest loaded one by one afterwards) on 1 to 3
 * threads (a plane's lines split among them), keeping all, the key or none
 * of the events' own stats (xp_event_stats). All must reject, or all accept with identical models
 * (less the stats a mode does not keep). The one
 * accepted disagreement is the documented class where the wire reader is
 * stricter (field number 0 in a multi-byte tag, a field number past
 * 2^29 - 1; see the top of src/xp/xp_read_wire.c). A rejection maps to the same
 * exit status whichever reader made it.
 *
 * Then the read the commands make (lazy planes, the events' key stats, of
 * host planes only the events linkage takes and, without --children, only
 * the lines of device work, host planes loaded on demand) must find
 * exactly the executions and device totals that the oracle's full model
 * gives, or fail where the oracle fails.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_exec.h"
#include "cmd.h"
#include "model_check.h"
#include "xp_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static int want_none(const char *name, void *ctx)
{
	(void)name;
	(void)ctx;
	return 0;
}

/* Lazy read, then every deferred plane loaded: must end as an eager read would. */
static int read_lazy(const uint8_t *data, size_t len, enum xp_event_stats mode, struct xp_trace **t,
		     struct xp_err *err)
{
	struct xp_read_opts o = {.reader = &xp_reader_wire, .event_stats = mode};
	size_t i;
	int ret;

	o.jobs = 1 + (len % 3);
	o.split_bytes = len & 64 ? 1 : 0;	/* with jobs: every plane's lines split among them */
	o.want_plane = len & 4 ? want_none : an_exec_wants_plane;
	ret = xp_trace_read_opts(&o, data, len, t, err);
	for (i = 0; !ret && i < (*t)->nplanes; i++)
		ret = xp_trace_load_plane(*t, i, err);
	if (ret) {
		xp_trace_free(*t);
		*t = NULL;
	}
	return ret;
}

static int wire_stricter(const struct xp_err *e)
{
	return strstr(e->msg, "field number 0") || strstr(e->msg, "field number past");
}

/* The wire reader's verdict (ret, t, e) against the oracle's. */
static void compare(const char *what, int rp, const struct xp_trace *tp, const struct xp_err *ep,
		    int rw, const struct xp_trace *tw, const struct xp_err *ew,
		    enum xp_event_stats mode)
{
	struct model_diff d;

	if (!rp && !rw) {
		if (model_differ_mode(tp, tw, mode, &d)) {
			fprintf(stderr, "%s: models differ: %s\n", what, d.msg);
			abort();
		}
		if (model_check(tw, &d)) {
			fprintf(stderr, "%s: broken model: %s\n", what, d.msg);
			abort();
		}
	} else if (!rp != !rw && !(rw && wire_stricter(ew))) {
		fprintf(stderr, "%s: protobuf-c %s, wire %s\n", what, rp ? ep->msg : "accepts",
			rw ? ew->msg : "accepts");
		abort();
	} else if (rp && rw && cmd_exit_for(rp) != cmd_exit_for(rw)) {
		fprintf(stderr, "%s: both reject, with different codes: protobuf-c %d '%s', wire %d '%s'\n",
			what, rp, ep->msg, rw, ew->msg);
		abort();
	}
}

static void exec_fail(const char *what)
{
	fprintf(stderr, "the commands' read finds other executions: %s\n", what);
	abort();
}

static int str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/*
 * Starts are relative to each plane's base, the earliest line holding events:
 * a read that skips lines may take a later line as its base, so starts are
 * compared with the bases' difference taken out.
 */
static void compare_execs(const struct xp_trace *ta, const struct an_exec_list *a,
			  const struct xp_trace *tb, const struct an_exec_list *b)
{
	size_t i;

	if (a->n != b->n || a->ndevices != b->ndevices || !str_eq(a->hostname, b->hostname))
		exec_fail("counts or host name");
	for (i = 0; i < a->n; i++) {
		const struct an_exec *x = &a->execs[i], *y = &b->execs[i];
		uint32_t pl = x->device < a->ndevices ? a->devices[x->device].plane : 0;
		int64_t shift = (tb->planes[pl].base_ns - ta->planes[pl].base_ns) * 1000;

		if (x->device != y->device || !str_eq(x->name, y->name) ||
		    !str_eq(x->fingerprint, y->fingerprint) || x->has_program_id != y->has_program_id ||
		    (x->has_program_id && x->program_id != y->program_id) ||
		    x->has_run_id != y->has_run_id || (x->has_run_id && x->run_id != y->run_id) ||
		    x->split != y->split || x->start_ps != y->start_ps + shift || x->busy_ps != y->busy_ps ||
		    x->span_ps != y->span_ps || x->children_ps != y->children_ps || x->events != y->events)
			exec_fail("an execution");
	}
	for (i = 0; i < a->ndevices; i++) {
		const struct an_device *x = &a->devices[i], *y = &b->devices[i];

		if (x->plane != y->plane || !str_eq(x->name, y->name) || x->busy_ps != y->busy_ps ||
		    x->events != y->events || x->dropped_short != y->dropped_short ||
		    x->unattributed_events != y->unattributed_events ||
		    x->unattributed_busy_ps != y->unattributed_busy_ps ||
		    x->extra_module_lines != y->extra_module_lines ||
		    x->extra_module_events != y->extra_module_events ||
		    x->module_line != y->module_line || x->module_ref_nowhere != y->module_ref_nowhere ||
		    memcmp(x->odd_stats, y->odd_stats, sizeof(x->odd_stats)) ||
		    x->corr_events != y->corr_events || x->linked_events != y->linked_events ||
		    x->corr_no_launch != y->corr_no_launch || x->corr_no_executor != y->corr_no_executor ||
		    x->corr_ambiguous != y->corr_ambiguous || x->host_linkage != y->host_linkage ||
		    x->runs_execs != y->runs_execs || x->runs_split != y->runs_split ||
		    x->runs_repeating != y->runs_repeating || x->stray_events != y->stray_events ||
		    x->stray_children != y->stray_children)
			exec_fail("a device");
	}
}

/*
 * Whether what the commands' read left out (a plane never loaded, the events
 * of a line not needed, host events not kept) can hold a defect: loading the rest fails, or a line
 * was skipped. Such a defect does not touch the answer, which covers only
 * what was read (RELIABILITY.md: "planes a command does not read").
 */
static int defect_unread(struct xp_trace *t)
{
	struct xp_err err = {0};
	size_t i, j;

	for (i = 0; i < t->nplanes; i++)
		if (xp_trace_load_plane(t, i, &err))
			return 1;
	for (i = 0; i < t->nplanes; i++)
		for (j = 0; j < t->planes[i].nlines; j++)
			if (t->planes[i].lines[j].skipped || t->planes[i].lines[j].filtered)
				return 1;
	return 0;
}

/* Executions from the oracle's model against those of the read the commands make. */
static void compare_command_read(const uint8_t *data, size_t len, int rp, struct xp_trace *tp,
				 const struct xp_err *ep)
{
	static const char *const devices[] = {NULL, "gpu", "TPU:0"};
	struct xp_read_opts o = {.reader = &xp_reader_wire, .event_stats = XP_EVSTATS_KEYS};
	struct an_exec_opts xo = {0};
	struct an_exec_list lp, lc;
	struct xp_trace *tc = NULL;
	struct xp_err ec = {0}, ex = {0};
	int rc, xp_ret = -1, xc_ret;

	xo.device = devices[len % 3];
	xo.min_dur_ps = len & 8 ? 1000 : 0;
	o.jobs = 1 + (len % 2);
	o.want_plane = an_exec_wants_plane;
	o.want_lines = an_exec_want_lines;
	o.want_host_event = an_exec_wants_host_event;
	o.host_keys = AN_EXEC_HOST_KEYS;
	o.keys = AN_EXEC_KEYS;
	o.split_bytes = len & 16 ? 1 : 0;	/* with 2 jobs: lines split, filtered and masked at once */
	o.want_ctx = (void *)xo.device;
	rc = xp_trace_read_opts(&o, data, len, &tc, &ec);
	if (!rp)
		xp_ret = an_exec_find(tp, &xo, &lp, &ex);
	xc_ret = rc ? rc : an_exec_find(tc, &xo, &lc, &ec);
	/*
	 * On a full model only a limit fails (host planes based too far apart to
	 * compare their times; out of memory aborts): the commands' read, having
	 * read those planes, must refuse the input too.
	 */
	if (!rp && xp_ret && (ex.code != XP_ERR_LIMIT || (!xc_ret && !defect_unread(tc)))) {
		fprintf(stderr, "the model's executions: %s; the commands' read: %s\n", ex.msg,
			xc_ret ? ec.msg : "accepts");
		abort();
	}
	if (rp && !xc_ret && !wire_stricter(ep) && !defect_unread(tc)) {
		/* The oracle rejects, and the commands' read accepts having read it all. */
		fprintf(stderr, "protobuf-c: %s; the commands' read accepts\n", ep->msg);
		abort();
	}
	if (!rp && !xp_ret && xc_ret && !wire_stricter(&ec)) {
		fprintf(stderr, "protobuf-c accepts; the commands' read: %s\n", ec.msg);
		abort();
	}
	if (!rp && !xp_ret && !xc_ret)
		compare_execs(tp, &lp, tc, &lc);
	/* A failed an_exec_find leaves an empty list: releasing it is harmless. */
	if (!rp)
		an_exec_list_release(&lp);
	if (!rc)
		an_exec_list_release(&lc);
	xp_trace_free(tc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct xp_trace *tp = NULL, *tw = NULL, *tl = NULL;
	struct xp_err ep = {0}, ew = {0}, el = {0};
	int rp = xp_trace_read(&xp_reader_protobuf_c, data, len, &tp, &ep);
	int rw = xp_trace_read(&xp_reader_wire, data, len, &tw, &ew);
	enum xp_event_stats mode = (enum xp_event_stats)((len >> 4) % 3);
	int rl = read_lazy(data, len, mode, &tl, &el);

	compare("wire", rp, tp, &ep, rw, tw, &ew, XP_EVSTATS_ALL);
	compare("wire, lazy planes", rp, tp, &ep, rl, tl, &el, mode);
	compare_command_read(data, len, rp, tp, &ep);
	xp_trace_free(tp);
	xp_trace_free(tw);
	xp_trace_free(tl);
	return 0;
}

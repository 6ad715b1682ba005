/*
 * Differential: the wire reader against the protobuf-c reader (the oracle),
 * read eagerly on one thread, and again with lazy planes (device planes
 * first, or none at all, the rest loaded one by one afterwards) on 1 to 3
 * threads. All must reject, or all accept with identical models. The one
 * accepted disagreement is the documented class where the wire reader is
 * stricter (field number 0 in a multi-byte tag, a field number past
 * 2^29 - 1; see the top of src/xp_read_wire.c). A rejection maps to the same
 * exit status whichever reader made it.
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
static int read_lazy(const uint8_t *data, size_t len, struct xp_trace **t, struct xp_err *err)
{
	struct xp_read_opts o = {.reader = &xp_reader_wire};
	size_t i;
	int ret;

	o.jobs = 1 + (len % 3);
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
		    int rw, const struct xp_trace *tw, const struct xp_err *ew)
{
	struct model_diff d;

	if (!rp && !rw) {
		if (model_differ(tp, tw, &d)) {
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct xp_trace *tp = NULL, *tw = NULL, *tl = NULL;
	struct xp_err ep = {0}, ew = {0}, el = {0};
	int rp = xp_trace_read(&xp_reader_protobuf_c, data, len, &tp, &ep);
	int rw = xp_trace_read(&xp_reader_wire, data, len, &tw, &ew);
	int rl = read_lazy(data, len, &tl, &el);

	compare("wire", rp, tp, &ep, rw, tw, &ew);
	compare("wire, lazy planes", rp, tp, &ep, rl, tl, &el);
	xp_trace_free(tp);
	xp_trace_free(tw);
	xp_trace_free(tl);
	return 0;
}

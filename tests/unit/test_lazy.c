/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Lazy planes and lines of the wire reader, on the real TPU trace: what is
 * deferred or skipped really is, what is read equals a full read, and a
 * deferred plane read later equals the same plane read at once.
 */
#include <stdlib.h>

#include "an_exec.h"
#include "test.h"
#include "xp_input.h"
#include "xp_model.h"

static const struct xp_plane *find_plane(const struct xp_trace *t, const char *name, size_t *i)
{
	for (*i = 0; *i < t->nplanes; (*i)++)
		if (!strcmp(t->planes[*i].name, name))
			return &t->planes[*i];
	return NULL;
}

static void same_events(const struct xp_plane *a, const struct xp_line *la,
			const struct xp_plane *b, const struct xp_line *lb)
{
	size_t i, diff = 0;

	CHECK_INT(la->nevents, lb->nevents);
	for (i = 0; i < la->nevents && i < lb->nevents; i++) {
		const struct xp_event *x = &a->events[la->first_event + i];
		const struct xp_event *y = &b->events[lb->first_event + i];

		/* Bases may differ (fewer lines hold events): compare absolute-free facts. */
		diff += x->dur_ps != y->dur_ps || x->nstats != y->nstats ||
			strcmp(xp_event_name(a, x), xp_event_name(b, y)) ||
			x->start_ps - (int64_t)(la->timestamp_ns - a->base_ns) * 1000 !=
			y->start_ps - (int64_t)(lb->timestamp_ns - b->base_ns) * 1000;
	}
	CHECK_INT(diff, 0);
}

int main(void)
{
	struct xp_read_opts full = {.reader = &xp_reader_wire, .jobs = 1};
	struct xp_read_opts lazy = {.reader = &xp_reader_wire, .jobs = 2,
				    .want_plane = an_exec_wants_plane,
				    .want_lines = an_exec_want_lines};
	struct xp_trace *tf = NULL, *tl = NULL;
	struct xp_err err = {0};
	struct xp_buf b;
	const struct xp_plane *pf, *pl;
	size_t i, j, k, skipped = 0, host;

	if (xp_buf_load(TESTDATA_DIR "/real/tpu_v6e_inference.xplane.pb", XP_DEFAULT_MAX_INPUT, &b, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	CHECK_INT(xp_trace_read_opts(&full, b.data, b.len, &tf, &err), 0);
	CHECK_INT(xp_trace_read_opts(&lazy, b.data, b.len, &tl, &err), 0);
	if (!tf || !tl)
		return test_done("test_lazy");
	CHECK_INT(tl->nplanes, tf->nplanes);
	/* The host plane is deferred: named, not read. */
	pl = find_plane(tl, "/host:CPU", &host);
	CHECK(pl && !pl->loaded && pl->nevents == 0 && pl->nlines == 0);
	/* Device planes: every line there, only XLA Modules with events, equal to the full read. */
	for (i = 0; i < tf->nplanes; i++) {
		pf = &tf->planes[i];
		if (!an_is_device_plane(pf->name))
			continue;
		pl = find_plane(tl, pf->name, &k);
		CHECK(pl && pl->loaded);
		if (!pl)
			continue;
		CHECK_INT(pl->nlines, pf->nlines);
		for (j = 0; j < pl->nlines && j < pf->nlines; j++) {
			CHECK_STR(pl->lines[j].name, pf->lines[j].name);
			if (!strcmp(pl->lines[j].name, "XLA Modules")) {
				CHECK(!pl->lines[j].skipped);
				same_events(pl, &pl->lines[j], pf, &pf->lines[j]);
			} else {
				skipped += pl->lines[j].skipped;
				CHECK_INT(pl->lines[j].nevents, 0);
			}
		}
	}
	CHECK_INT(skipped, 16);	/* 4 TPU planes x 4 other lines */
	/* Read on demand, the host plane is whole and as in a full read. */
	CHECK_INT(xp_trace_load_plane(tl, host, &err), 0);
	pl = &tl->planes[host];
	pf = find_plane(tf, "/host:CPU", &k);
	CHECK(pl->loaded && pf);
	if (pf) {
		CHECK_INT(pl->nlines, pf->nlines);
		CHECK_INT(pl->nevents, pf->nevents);
		for (j = 0; j < pl->nlines && j < pf->nlines; j++)
			same_events(pl, &pl->lines[j], pf, &pf->lines[j]);
	}
	xp_trace_free(tf);
	xp_trace_free(tl);
	xp_buf_release(&b);
	return test_done("test_lazy");
}

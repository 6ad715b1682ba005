/* SPDX-License-Identifier: Apache-2.0 */
/* What a file holds: planes, their lines and device facts. */
#ifndef AN_PLANES_H
#define AN_PLANES_H

#include <stddef.h>
#include <stdint.h>

#include "xp_model.h"

struct an_plane_line {
	int64_t id;
	const char *name;	/* points into the trace */
	size_t events;
	size_t aggregated;	/* aggregated events (xp_agg), not in events: no times */
	size_t stray_ends;	/* of events: stray ends (xp_stray.h), left out of the span */
	int64_t first_ps, last_end_ps;	/* of the other events, relative to the plane base; 0 if none */
};

/* Device facts from plane stats; a field is valid when its has_ flag is set. */
struct an_device_facts {
	const char *vendor;	/* device_vendor, or NULL */
	const char *model;	/* gpu_device_name or device_type_string, or NULL */
	uint64_t clock_khz, cores, mem_bw, mem_size, cc_major, cc_minor;
	unsigned has_clock : 1, has_cores : 1, has_mem_bw : 1, has_mem_size : 1, has_cc : 1;
};

struct an_plane_info {
	int64_t id;
	const char *name;
	int is_device;
	size_t nlines, events;
	size_t aggregated;	/* aggregated events, not in events */
	size_t stray_ends;	/* of events: stray ends over every line (xp_stray.h) */
	int64_t span_ps;	/* first event start to last event end, stray ends left out */
	int64_t span_all_ps;	/* the same with them: what the file says */
	struct an_device_facts dev;
	struct an_plane_line *lines;
};

/* Borrows strings from the trace: keep the trace until an_planes_release. */
struct an_planes {
	struct an_plane_info *planes;
	size_t n;
	size_t events;
	size_t aggregated;	/* over every plane */
	size_t stray_ends;	/* over every plane */
};

/*
 * Fills out (release it even on failure). Each plane's stray ends are found
 * over all its loaded lines and kept out of the plane and line spans. A
 * plane that an_planes_plane_read described as it was read is taken from
 * there (p->user moves to out: once per trace); the others are described now.
 */
int an_planes_describe(struct xp_trace *t, struct an_planes *out, struct xp_err *err);
/*
 * For xp_read_opts.plane_read (ctx unused) and plane_user_free: describes a
 * plane on the thread that read it, so its events may be released at once.
 */
int an_planes_plane_read(struct xp_plane *p, void *ctx, struct xp_err *err);
/*
 * For xp_read_opts.line_events (line_user_size sizeof(struct
 * xp_line_spans)): planes read in pieces, described from the summaries,
 * or read again whole where those do not decide.
 */
void an_planes_line_events(const struct xp_plane *p, struct xp_line *l, const struct xp_event *ev,
			   size_t n, void *ctx);
void an_planes_user_free(void *user);
void an_planes_release(struct an_planes *p);

#endif

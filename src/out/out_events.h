/* SPDX-License-Identifier: Apache-2.0 */
/* Formatters of xplane-stat events: the table of names, and --list's stream of single events. */
#ifndef OUT_EVENTS_H
#define OUT_EVENTS_H

#include <stdio.h>

#include "an_counters.h"
#include "an_events.h"
#include "out_table.h"
#include "xp_err.h"
#include "xp_model.h"

/* The text table shows names up to this many bytes, longer ones cut with "..." (and says so). */
#define OUT_EVENTS_NAME_MAX 100

/* The names table (OUT_TABLE, OUT_CSV, OUT_TSV) or one JSON document; -1: out of memory. */
int out_events(FILE *f, enum out_mode mode, const struct an_ev_result *r, const struct xp_notes *notes,
	       const struct out_style *st);

/*
 * --counters: the table of counters (OUT_TABLE, OUT_CSV, OUT_TSV) or one
 * JSON document; -1: out of memory.
 */
int out_counters(FILE *f, enum out_mode mode, const struct an_ctr_result *r, const struct xp_notes *notes,
		 const struct out_style *st);

/* --list: the header line (TSV, CSV; nothing for JSON lines). */
void out_events_list_header(FILE *f, enum out_mode mode);
/*
 * --list: one event as a TSV or CSV row, or (OUT_JSON) a JSON line: input,
 * plane, line, name, start_ns (absolute: the line's timestamp_ns plus the
 * event's offset, exact), duration_ns, stats (the event's own, then its
 * metadata's not already given, ref_values resolved) as a JSON object.
 * -1: out of memory.
 */
int out_events_list_event(FILE *f, enum out_mode mode, const char *input, const struct xp_plane *p,
			  const struct xp_event *e);
/* Every event of t that o selects (an_ev_each), as out_events_list_event; *listed counts them. -1: out of memory. */
int out_events_list_trace(FILE *f, enum out_mode mode, const char *input, const struct xp_trace *t,
			  const struct an_ev_opts *o, size_t *listed);

#endif

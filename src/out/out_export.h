/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The writers of `export`: Chrome Trace Event Format JSON and Perfetto's
 * protobuf trace, each as a head, the plan's pieces (each encodable on its
 * own thread) and a tail, concatenated in that order.
 *
 * JSON: {"traceEvents":[metadata..., events...],"displayTimeUnit":"ns",
 * "otherData":{...}}; every event a complete ("X") event, ts and dur in
 * microseconds with six decimals (exact picoseconds), relative to the plan's
 * origin. Strings are valid JSON whatever bytes the trace holds: invalid
 * UTF-8 becomes U+FFFD.
 *
 * Perfetto: a process track per plane, a child track per line track, their
 * descriptors on packet sequence 1; then a packet sequence per piece, line
 * and track (OUT_EXP_PF_MAX_SEQS at most), which clears the incremental
 * state, interns the names its events use (event names, stat names, long
 * names, ref values), sets its track as the events' default and a
 * sequence-scoped incremental clock as their timestamps' (a snapshot starts
 * it at 0, the plan's origin_ns, as that time of the file's clock less the
 * plan's clock_zero_ns on the trace's clock, BOOTTIME): each event a
 * TYPE_SLICE_BEGIN and TYPE_SLICE_END packet, naming no track, its timestamp
 * the delta in ns (rounded, the format's unit) from the sequence's last;
 * the begins in the line's start order, each end once what follows no longer
 * lies in it, so that times only grow on a sequence and at equal timestamps
 * the file's order is the nesting order.
 * Strings are valid UTF-8 without NUL bytes (protobuf-c's strings end at NUL):
 * invalid bytes and NUL become U+FFFD.
 *
 * Both: an event's display name (else its name) is its name, the full name
 * its "long_name" argument when they differ; its stats and its metadata's are
 * its arguments (its own first, refs resolved, bytes as 0x hex), stats naming
 * unknown metadata left out (the reader counts them).
 */
#ifndef OUT_EXPORT_H
#define OUT_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "an_export.h"
#include "out_bytes.h"

/* Packet sequences a .pftrace has ids for (2 to 2^32-1): the plan's npiece_tracks at most. */
#define OUT_EXP_PF_MAX_SEQS ((uint64_t)UINT32_MAX - 1)

enum out_exp_format {
	OUT_EXP_JSON,
	OUT_EXP_JSON_GZ,	/* JSON, gzip compressed (out_gzip.h) */
	OUT_EXP_PFTRACE,
};

enum out_exp_pf_fit {
	OUT_EXP_PF_FITS,
	/* more sequences (from opts.first_track) than OUT_EXP_PF_MAX_SEQS, or a plane or line index past 2^25, 2^32 */
	OUT_EXP_PF_TOO_MANY,
	/* times before the plan's clock_zero_ns or past int64 ns from it (origin_ns past AN_EXP_CLOCK_MAX_NS from it) */
	OUT_EXP_PF_TOO_LATE,
};

/* Whether the plan fits a .pftrace: an enum out_exp_pf_fit. */
int out_exp_pf_fits(const struct an_exp_plan *p);
/*
 * Appends the bytes before the pieces. Returns 0, or -1 when out of memory,
 * or for .pftrace when the plan does not fit (out_exp_pf_fits).
 */
int out_exp_head(const struct an_exp_plan *p, enum out_exp_format f, const char *version, struct out_bytes *b);
/* Appends piece i's events. Returns 0, or -1 when out of memory. */
int out_exp_piece(const struct an_exp_plan *p, size_t i, enum out_exp_format f, struct out_bytes *b);
/*
 * The head of one JSON document over n plans on one timeline (the hosts of
 * a run, planned with a common origin, an_exp_opts.have_origin): the first
 * plan's origin, the counts summed, every plan's processes and threads; then
 * each plan's pieces and one tail. -1 when out of memory.
 */
int out_exp_head_json(const struct an_exp_plan *const *p, size_t n, const char *version, struct out_bytes *b);
/* Appends the bytes after the pieces. */
int out_exp_tail(const struct an_exp_plan *p, enum out_exp_format f, struct out_bytes *b);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
/* export's writers: Chrome trace JSON and Perfetto protobuf (out_export.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_counters.h"
#include "out_bytes.h"
#include "out_export.h"
#include "out_table.h"
#include "perfetto_trace.pb-c.h"

/* Picoseconds as microseconds with six decimals, exact. */
static void put_ps_us(struct out_bytes *b, int64_t ps)
{
	uint64_t u = ps < 0 ? (uint64_t)0 - (uint64_t)ps : (uint64_t)ps;
	char f[7];
	uint64_t frac = u % 1000000;
	int i;

	if (ps < 0)
		out_bytes_put(b, "-", 1);
	out_bytes_u64(b, u / 1000000);
	f[0] = '.';
	for (i = 6; i >= 1; i--) {
		f[i] = (char)('0' + frac % 10);
		frac /= 10;
	}
	out_bytes_put(b, f, 7);
}

static const char replacement[] = "\xef\xbf\xbd";	/* U+FFFD */

/* ---- JSON ------------------------------------------------------------------------- */

static const char *event_display(const struct xp_evmeta *m)
{
	return m->display_name && *m->display_name ? m->display_name : m->name;
}

static const char *line_display(const struct xp_line *l)
{
	return l->display_name && *l->display_name ? l->display_name : l->name;
}

static void put_hex(struct out_bytes *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	out_bytes_put(b, "0x", 2);
	for (i = 0; i < n; i++) {
		char d[2] = {hex[(unsigned char)s[i] >> 4], hex[(unsigned char)s[i] & 15]};

		out_bytes_put(b, d, 2);
	}
}

static int stat_known(const struct xp_plane *p, const struct xp_stat *s)
{
	return xp_id_find(&p->statmeta_ix, p->statmetas, p->nstatmetas, sizeof(*p->statmetas), s->meta_id) !=
	       UINT32_MAX;
}

/* Whether stat i of v (n stats) repeats an earlier one's metadata, or one of own (nown). */
static int stat_dup(const struct xp_stat *v, size_t i, const struct xp_stat *own, size_t nown)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (v[j].meta_id == v[i].meta_id)
			return 1;
	for (j = 0; own != v && j < nown; j++)
		if (own[j].meta_id == v[i].meta_id)
			return 1;
	return 0;
}

/* A finite double, exact (an_ctr_value gives no other). */
static void put_double(struct out_bytes *b, double v)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%.17g", v);
	out_bytes_str(b, buf);
}

static void put_json_value(struct out_bytes *b, const struct xp_plane *p, const struct xp_stat *s)
{
	char buf[40];
	size_t len;
	const char *str;

	switch (s->type) {
	case XP_STAT_UINT64:
		out_bytes_u64(b, s->v.u);
		break;
	case XP_STAT_INT64:
		out_bytes_i64(b, s->v.i);
		break;
	case XP_STAT_DOUBLE:
		if (s->v.d == s->v.d && s->v.d - s->v.d == 0) {
			snprintf(buf, sizeof(buf), "%.17g", s->v.d);
			out_bytes_str(b, buf);
		} else {
			out_bytes_str(b, "null");	/* JSON has no inf or nan */
		}
		break;
	case XP_STAT_BYTES:
		out_bytes_put(b, "\"", 1);
		put_hex(b, s->v.s.p, s->v.s.len);
		out_bytes_put(b, "\"", 1);
		break;
	case XP_STAT_STR:
	case XP_STAT_REF:
		if ((str = xp_stat_str(p, s, &len))) {
			out_bytes_json(b, str, len);
			break;
		}
		/* fall through */
	default:
		out_bytes_str(b, "null");
	}
}

/* A stat named as an argument export writes itself (long_name, dur_ps) gives way to it. */
static int stat_shadowed(const struct xp_plane *p, const struct xp_stat *s, int long_name, int dur_ps)
{
	const char *n = xp_stat_name(p, s);

	return (long_name && !strcmp(n, "long_name")) || (dur_ps && !strcmp(n, "dur_ps"));
}

/*
 * The event's arguments, own its own stats (xp_event_own_stats); dur_ps >= 0:
 * its exact duration, which dur rounds.
 */
static void put_json_args(struct out_bytes *b, const struct xp_plane *p, const struct xp_event *e,
			  const struct xp_stat *own, int64_t dur_ps)
{
	const struct xp_evmeta *m = &p->evmetas[e->meta];
	const struct xp_stat *ms = p->stats + m->stats_first;
	int first = 1, pass, long_name = strcmp(event_display(m), m->name) != 0;
	size_t i;

	out_bytes_str(b, ",\"args\":{");
	if (long_name) {
		out_bytes_str(b, "\"long_name\":");
		out_bytes_json_cstr(b, m->name);
		first = 0;
	}
	if (dur_ps >= 0) {
		out_bytes_str(b, first ? "\"dur_ps\":" : ",\"dur_ps\":");
		out_bytes_i64(b, dur_ps);
		first = 0;
	}
	for (pass = 0; pass < 2; pass++) {
		const struct xp_stat *v = pass ? ms : own;
		size_t n = pass ? m->nstats : e->nstats;

		for (i = 0; i < n; i++) {
			if (!stat_known(p, &v[i]) || stat_dup(v, i, own, e->nstats) ||
			    stat_shadowed(p, &v[i], long_name, dur_ps >= 0))
				continue;
			if (!first)
				out_bytes_put(b, ",", 1);
			first = 0;
			out_bytes_json_cstr(b, xp_stat_name(p, &v[i]));
			out_bytes_put(b, ":", 1);
			put_json_value(b, p, &v[i]);
		}
	}
	out_bytes_put(b, "}", 1);
}

static void json_meta(struct out_bytes *b, int64_t pid, const int64_t *tid, const char *what,
		      const char *name, int64_t sort_index, int *first)
{
	out_bytes_str(b, *first ? "\n{\"ph\":\"M\",\"pid\":" : ",\n{\"ph\":\"M\",\"pid\":");
	*first = 0;
	out_bytes_i64(b, pid);
	if (tid) {
		out_bytes_str(b, ",\"tid\":");
		out_bytes_i64(b, *tid);
	}
	out_bytes_str(b, ",\"name\":\"");
	out_bytes_str(b, what);
	if (name) {
		out_bytes_str(b, "\",\"args\":{\"name\":");
		out_bytes_json_cstr(b, name);
	} else {
		out_bytes_str(b, "\",\"args\":{\"sort_index\":");
		out_bytes_i64(b, sort_index);
	}
	out_bytes_str(b, "}}");
}

static int64_t track_tid(const struct an_exp_line *l, unsigned k)
{
	return k ? l->tid_extra + (int64_t)k : l->tid0;
}

/* "NAME", or "NAME #k+1" for track k > 0, in buf (or the name itself). */
static const char *track_name(const char *name, unsigned k, char *buf, size_t n)
{
	if (!k)
		return name;
	snprintf(buf, n, "%s #%u", name, k + 1);
	return buf;
}

static int plane_kept(const struct an_exp_plan *p, const struct an_exp_plane *ep)
{
	size_t li;

	for (li = ep->first_line; li < ep->first_line + ep->nlines; li++)
		if (p->lines[li].kept_tracks)
			return 1;
	return 0;
}

/* A plane's process name: its name, after the plan's name prefix (a host's) when it has one; NULL when out of memory. */
static char *process_name(const struct an_exp_plan *p, const struct xp_plane *pl)
{
	char *s;

	if (!p->opts.name_prefix)
		return strdup(pl->name);
	return asprintf(&s, "%s:%s", p->opts.name_prefix, pl->name) < 0 ? NULL : s;
}

/* The document's head: its origin and counts. */
static void json_doc_head(const struct an_exp_plan *p, const char *version, uint64_t exported, uint64_t total,
			  struct out_bytes *b)
{
	char origin[64];

	{
		/* origin_ns + origin_sub_ps ps, signed, as ns with three decimals */
		__int128 v = (__int128)p->origin_ns * 1000 + p->origin_sub_ps;
		unsigned __int128 u = v < 0 ? (unsigned __int128)(-(v + 1)) + 1 : (unsigned __int128)v;

		snprintf(origin, sizeof(origin), "%s%" PRIu64 ".%03u", v < 0 ? "-" : "", (uint64_t)(u / 1000),
			 (unsigned)(u % 1000));
	}
	out_bytes_str(b, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"exporter\":");
	out_bytes_json_cstr(b, version);
	out_bytes_str(b, ",\"origin_ns\":\"");
	out_bytes_str(b, origin);
	out_bytes_str(b, "\",\"exported_events\":");
	out_bytes_u64(b, exported);
	out_bytes_str(b, ",\"file_events\":");
	out_bytes_u64(b, total);
	out_bytes_str(b, "},\"traceEvents\":[");
}

/* A plan's processes and threads named (*first: nothing written before in the array). */
static void json_metas(const struct an_exp_plan *p, struct out_bytes *b, int *first)
{
	size_t i, li;
	unsigned k;

	for (i = 0; i < p->nplanes; i++) {
		const struct an_exp_plane *ep = &p->planes[i];
		const struct xp_plane *pl = &p->t->planes[ep->plane];
		char *pname;

		if (!plane_kept(p, ep))
			continue;	/* a selection left nothing of it: no empty process */
		if (!(pname = process_name(p, pl))) {
			b->failed = 1;
			return;
		}
		json_meta(b, ep->pid, NULL, "process_name", pname, 0, first);
		free(pname);
		json_meta(b, ep->pid, NULL, "process_sort_index", NULL, ep->pid, first);
		for (li = ep->first_line; li < ep->first_line + ep->nlines; li++) {
			const struct an_exp_line *l = &p->lines[li];
			const char *name = line_display(&pl->lines[l->line]);

			for (k = 0; k < l->ntracks && !l->counter; k++) {	/* counters: the process's */
				char buf[4096];
				int64_t tid = track_tid(l, k);

				if (!(l->kept_tracks >> k & 1))
					continue;
				json_meta(b, ep->pid, &tid, "thread_name", track_name(name, k, buf, sizeof(buf)), 0,
					  first);
				json_meta(b, ep->pid, &tid, "thread_sort_index", NULL,
					  (int64_t)(l->sort_index * AN_EXP_MAX_TRACKS + k), first);
			}
		}
	}
}

static void json_head(const struct an_exp_plan *p, const char *version, struct out_bytes *b)
{
	int first = 1;

	json_doc_head(p, version, p->exported, p->total, b);
	json_metas(p, b, &first);
}

/* ps to ns, rounded to the nearest (half up): monotone, so what nests still nests. */
static int64_t ps_round_ns(int64_t ps)
{
	int64_t q = ps / 1000, r = ps % 1000;

	if (r < 0)
		q--, r += 1000;
	return q + (r >= 500);
}

static void json_piece(const struct an_exp_plan *p, const struct an_exp_piece *pc, struct out_bytes *b)
{
	const struct xp_plane *first = &p->t->planes[p->planes[p->lines[pc->first_line].plane_ix].plane];
	/* a piece's lines are of one plane: room for its events' own stats read again */
	struct xp_stat *own = malloc(((size_t)first->max_own_stats + 1) * sizeof(*own));
	size_t li, k, from, to;

	if (!own)
		b->failed = 1;
	for (li = pc->first_line; li <= pc->last_line && !b->failed; li++) {
		const struct an_exp_line *l = &p->lines[li];
		const struct an_exp_plane *ep = &p->planes[l->plane_ix];
		const struct xp_plane *pl = &p->t->planes[ep->plane];

		an_exp_piece_range(pc, li, l->n, &from, &to);
		for (k = from; k < to && !b->failed; k++) {
			unsigned tr;
			const struct xp_event *e = an_exp_event(p, l, k, &tr);
			int64_t s = e->start_ps + ep->shift_ps, dur;
			double v;

			if (l->counter) {	/* a sample: a counter event of the process, "C" */
				if (!an_exp_keeps(p, li, k, s, s, tr) || an_ctr_value(pl, e, own, &v))
					continue;
				out_bytes_str(b, ",\n{\"ph\":\"C\",\"pid\":");
				out_bytes_i64(b, ep->pid);
				out_bytes_str(b, ",\"ts\":");
				put_ps_us(b, s);
				out_bytes_str(b, ",\"name\":");	/* the counter's: its metadata's name */
				out_bytes_json_cstr(b, pl->evmetas[ep->counter_of[e->meta]].name);
				out_bytes_str(b, ",\"args\":{\"value\":");
				put_double(b, v);
				out_bytes_str(b, "}}");
				continue;
			}
			if (!an_exp_keeps(p, li, k, s, s + e->dur_ps, tr))
				continue;
			/*
			 * dur: the rounded end less the rounded start, so that a reader
			 * rounding ts and dur to the ns apart (Perfetto) finds the ends
			 * rounded alike and the nesting kept; the exact value is dur_ps.
			 */
			dur = (ps_round_ns(s + e->dur_ps) - ps_round_ns(s)) * 1000;
			out_bytes_str(b, ",\n{\"ph\":\"X\",\"pid\":");
			out_bytes_i64(b, ep->pid);
			out_bytes_str(b, ",\"tid\":");
			out_bytes_i64(b, track_tid(l, tr));
			out_bytes_str(b, ",\"ts\":");
			put_ps_us(b, s);
			out_bytes_str(b, ",\"dur\":");
			put_ps_us(b, dur);
			out_bytes_str(b, ",\"name\":");
			out_bytes_json_cstr(b, event_display(&pl->evmetas[e->meta]));
			put_json_args(b, pl, e, xp_event_own_stats(pl, e, own), dur == e->dur_ps ? -1 : e->dur_ps);
			out_bytes_put(b, "}", 1);
		}
	}
	free(own);
}

/* ---- Perfetto --------------------------------------------------------------------- */

/*
 * Packet sequences: the track descriptors on the first; then one per piece,
 * line and track (an_exp_piece.first_track onwards), which sets that track
 * and an incremental clock as its defaults, so that its events name neither
 * and their times are deltas, and interns what its events name.
 */
#define PF_HEAD_SEQ 1
#define PF_FIRST_SEQ 2

static void put_varint(struct out_bytes *b, uint64_t v)
{
	unsigned char d[10];
	size_t n = 0;

	while (v >= 0x80) {
		d[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	d[n++] = (unsigned char)v;
	out_bytes_put(b, d, n);
}

/* Appends one Trace.packet (field 1, length-delimited). */
static void put_packet(struct out_bytes *b, const Perfetto__Protos__TracePacket *pk)
{
	size_t n = perfetto__protos__trace_packet__get_packed_size(pk);

	out_bytes_put(b, "\x0a", 1);
	put_varint(b, n);
	if (!out_bytes_reserve(b, n)) {
		perfetto__protos__trace_packet__pack(pk, b->p + b->n);
		b->n += n;
	}
}

/*
 * Strings for the protobuf: valid UTF-8 without NUL as they are, else a copy
 * with U+FFFD in place of each bad byte, kept in `copies` until released.
 */
struct copies {
	char **p;
	size_t n, cap;
	int failed;
};

static int valid_text(const unsigned char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n) {
		if (s[i] && s[i] < 0x80) {
			i++;
			continue;
		}
		if (!s[i] || !(k = out_utf8_seq(s + i, n - i)))
			return 0;
		i += k;
	}
	return 1;
}

/* A new buffer of n bytes that c frees; NULL (c->failed set) when out of memory. */
static char *copies_new(struct copies *c, size_t n)
{
	char *m, **pp;

	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 8;

		if (!(pp = realloc(c->p, cap * sizeof(*pp)))) {
			c->failed = 1;
			return NULL;
		}
		c->p = pp;
		c->cap = cap;
	}
	if (!(m = malloc(n ? n : 1))) {
		c->failed = 1;
		return NULL;
	}
	c->p[c->n++] = m;
	return m;
}

static ProtobufCBinaryData text(struct copies *c, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	ProtobufCBinaryData d = {n, (uint8_t *)str};
	char *m;
	size_t i, k, o = 0;

	if (valid_text(s, n))
		return d;
	d.len = 0;
	d.data = (uint8_t *)"";
	if (n > SIZE_MAX / 3 || !(m = copies_new(c, 3 * n)))
		return d;
	for (i = 0; i < n;) {
		k = s[i] ? out_utf8_seq(s + i, n - i) : 0;
		if (k) {
			memcpy(m + o, s + i, k);
			o += k;
			i += k;
		} else {
			memcpy(m + o, replacement, 3);
			o += 3;
			i++;
		}
	}
	d.len = o;
	d.data = (uint8_t *)m;
	return d;
}

/* Bytes as 0x and hex digits. */
static ProtobufCBinaryData hex_text(struct copies *c, const char *s, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	ProtobufCBinaryData d = {0, (uint8_t *)""};
	char *m;
	size_t i;

	if (n > (SIZE_MAX - 2) / 2 || !(m = copies_new(c, 2 + 2 * n)))
		return d;
	m[0] = '0';
	m[1] = 'x';
	for (i = 0; i < n; i++) {
		m[2 + 2 * i] = digits[(unsigned char)s[i] >> 4];
		m[3 + 2 * i] = digits[(unsigned char)s[i] & 15];
	}
	d.len = 2 + 2 * n;
	d.data = (uint8_t *)m;
	return d;
}

static ProtobufCBinaryData text_c(struct copies *c, const char *s)
{
	return text(c, s, strlen(s));
}

static void copies_release(struct copies *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->p[i]);
	c->n = 0;
}

static void copies_free(struct copies *c)
{
	copies_release(c);
	free(c->p);
}

/*
 * Track uuids from the trace's plane and line indexes, not the plan's, so
 * that plans of one plane each (a trace streamed plane by plane) never share
 * one: a plane's 1 + its index; a line's track k has bit 63 set, the plane
 * in bits 38-62 and the line in bits 6-37 (out_exp_pf_fits checks).
 */
#define PF_UUID_MAX_PLANES ((size_t)1 << 25)
#define PF_UUID_MAX_LINES ((size_t)1 << 32)

/* The plane's number among every trace's of the timeline (an_exp_opts.plane_base: the hosts before). */
static uint64_t uuid_plane(const struct an_exp_plan *p, size_t plane_ix)
{
	return (uint64_t)p->opts.plane_base + p->planes[plane_ix].plane;
}

static uint64_t process_uuid(const struct an_exp_plan *p, size_t plane_ix)
{
	return 1 + uuid_plane(p, plane_ix);
}

static uint64_t track_uuid(const struct an_exp_plan *p, size_t line_ix, unsigned k)
{
	const struct an_exp_line *l = &p->lines[line_ix];

	return (uint64_t)1 << 63 | uuid_plane(p, l->plane_ix) << 38 | (uint64_t)l->line << 6 | k;
}

/*
 * A counter track (a plane's counter, by its event metadata index): bit 62
 * set and 63 clear (no line track has it, no process reaches it), the plane
 * in bits 36-60, the metadata index below.
 */
static uint64_t counter_uuid(const struct an_exp_plan *p, size_t plane_ix, uint32_t meta)
{
	return (uint64_t)1 << 62 | uuid_plane(p, plane_ix) << 36 | meta;
}

int out_exp_pf_fits(const struct an_exp_plan *p)
{
	int64_t d;
	size_t i;

	if (p->opts.first_track + p->npiece_tracks > OUT_EXP_PF_MAX_SEQS)
		return OUT_EXP_PF_TOO_MANY;
	for (i = 0; i < p->nplanes; i++)
		if (uuid_plane(p, i) >= PF_UUID_MAX_PLANES)
			return OUT_EXP_PF_TOO_MANY;
	for (i = 0; i < p->nlines; i++)
		if (p->lines[i].line >= PF_UUID_MAX_LINES)
			return OUT_EXP_PF_TOO_MANY;
	if (__builtin_sub_overflow(p->origin_ns, p->clock_zero_ns, &d) || d < 0 || d > AN_EXP_CLOCK_MAX_NS)
		return OUT_EXP_PF_TOO_LATE;
	return OUT_EXP_PF_FITS;
}

/* A plane's process name (process_name), held by cp; "" when out of memory (cp says so). */
static const char *pf_process_name(struct copies *cp, const struct an_exp_plan *p, const struct xp_plane *pl)
{
	size_t n;
	char *s;

	if (!p->opts.name_prefix)
		return pl->name;
	n = strlen(p->opts.name_prefix) + strlen(pl->name) + 2;
	if (!(s = copies_new(cp, n)))
		return "";
	snprintf(s, n, "%s:%s", p->opts.name_prefix, pl->name);
	return s;
}

/*
 * The counter tracks of plane i's counter lines: one per counter
 * (an_exp_plane.counter_of) with a sample written, named as it, a child
 * of the process; each described once, whatever line its samples are on.
 */
static int pf_counter_tracks(const struct an_exp_plan *p, size_t i, Perfetto__Protos__TracePacket *pk,
			     struct copies *cp, struct out_bytes *b)
{
	const struct an_exp_plane *ep = &p->planes[i];
	const struct xp_plane *pl = &p->t->planes[ep->plane];
	unsigned char *seen = calloc(pl->nevmetas + 1, 1);
	size_t k, li;

	if (!seen)
		return -1;
	for (li = ep->first_line; li < ep->first_line + ep->nlines; li++) {
		const struct an_exp_line *l = &p->lines[li];

		for (k = 0; l->counter && k < l->n; k++) {
			unsigned tr;
			const struct xp_event *e = an_exp_event(p, l, k, &tr);
			int64_t s = e->start_ps + ep->shift_ps;
			uint32_t c = ep->counter_of[e->meta];
			Perfetto__Protos__TrackDescriptor ct = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
			Perfetto__Protos__CounterDescriptor cd = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;

			/* kept: it has a value (an_exp_plan lays those without one on no track) */
			if (seen[c] || !an_exp_keeps(p, li, k, s, s, tr))
				continue;
			seen[c] = 1;
			ct.has_uuid = 1;
			ct.uuid = counter_uuid(p, i, c);
			ct.has_parent_uuid = 1;
			ct.parent_uuid = process_uuid(p, i);
			ct.has_name = 1;
			ct.name = text_c(cp, pl->evmetas[c].name);
			ct.counter = &cd;
			pk->track_descriptor = &ct;
			put_packet(b, pk);
		}
	}
	free(seen);
	return cp->failed || b->failed ? -1 : 0;
}

static int pf_head(const struct an_exp_plan *p, struct out_bytes *b)
{
	struct copies cp = {0};
	size_t i, li;
	unsigned k;
	char buf[4096];

	if (out_exp_pf_fits(p) != OUT_EXP_PF_FITS)
		return -1;	/* cmd_export refuses it first */
	for (i = 0; i < p->nplanes && !b->failed && !cp.failed; i++) {
		const struct an_exp_plane *ep = &p->planes[i];
		const struct xp_plane *pl = &p->t->planes[ep->plane];
		Perfetto__Protos__TracePacket pk = PERFETTO__PROTOS__TRACE_PACKET__INIT;
		Perfetto__Protos__TrackDescriptor td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
		Perfetto__Protos__ProcessDescriptor pd = PERFETTO__PROTOS__PROCESS_DESCRIPTOR__INIT;

		int counters_done = 0;

		if (!plane_kept(p, ep))
			continue;
		td.has_uuid = 1;
		td.uuid = process_uuid(p, i);
		td.has_name = 1;
		td.name = text_c(&cp, pf_process_name(&cp, p, pl));
		pd.has_pid = 1;
		pd.pid = (int32_t)ep->pid;
		pd.has_process_name = 1;
		pd.process_name = td.name;
		td.process = &pd;
		/* lines in the file's order, as the JSON's sort indexes say, each its own track */
		td.has_child_ordering = 1;
		td.child_ordering = PERFETTO__PROTOS__TRACK_DESCRIPTOR__CHILD_TRACKS_ORDERING__EXPLICIT;
		pk.has_trusted_packet_sequence_id = 1;
		pk.trusted_packet_sequence_id = PF_HEAD_SEQ;
		pk.track_descriptor = &td;
		put_packet(b, &pk);
		for (li = ep->first_line; li < ep->first_line + ep->nlines; li++) {
			const struct an_exp_line *l = &p->lines[li];
			const char *name = line_display(&pl->lines[l->line]);

			if (l->counter) {	/* its samples go to counter tracks (the plane's, at its first such line) */
				if (!counters_done++ && pf_counter_tracks(p, i, &pk, &cp, b))
					b->failed = 1;
				continue;
			}
			for (k = 0; k < l->ntracks; k++) {
				Perfetto__Protos__TrackDescriptor lt = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;

				if (!(l->kept_tracks >> k & 1))
					continue;
				lt.has_uuid = 1;
				lt.uuid = track_uuid(p, li, k);
				lt.has_parent_uuid = 1;
				lt.parent_uuid = process_uuid(p, i);
				lt.has_name = 1;
				lt.name = text_c(&cp, track_name(name, k, buf, sizeof(buf)));
				lt.has_sibling_order_rank = 1;
				lt.sibling_order_rank = (int32_t)((li - ep->first_line) * AN_EXP_MAX_TRACKS + k > INT32_MAX
									  ? INT32_MAX
									  : (li - ep->first_line) * AN_EXP_MAX_TRACKS + k);
				lt.has_sibling_merge_behavior = 1;
				lt.sibling_merge_behavior =
					PERFETTO__PROTOS__TRACK_DESCRIPTOR__SIBLING_MERGE_BEHAVIOR__SIBLING_MERGE_BEHAVIOR_NONE;
				pk.track_descriptor = &lt;
				put_packet(b, &pk);
			}
		}
		copies_release(&cp);
	}
	i = cp.failed;
	copies_free(&cp);
	return i || b->failed ? -1 : 0;
}

/*
 * Interned ids, each table its own space: event names 1 + evmeta index;
 * annotation names 1 + statmeta index, "long_name" after them; strings: a
 * long name 1 + evmeta index, a ref target after the evmetas by statmeta
 * index, a metadata stat's text value after those by its index in the
 * plane's stats (metadata stats repeat on every event: interned, each costs
 * a few bytes).
 */
/*
 * Interned ids, each table its own space: event names 1 + evmeta index;
 * annotation names 1 + statmeta index, "long_name" after them; strings: a
 * long name 1 + evmeta index, a ref target after the evmetas by statmeta
 * index, a metadata stat's text value after those by its index in the
 * plane's stats (metadata stats repeat on every event: interned, each costs
 * a few bytes).
 */
static uint64_t iid_long_name_key(const struct xp_plane *p)
{
	return 1 + (uint64_t)p->nstatmetas;
}

static uint64_t iid_str_long(size_t ev)
{
	return 1 + (uint64_t)ev;
}

static uint64_t iid_str_ref(const struct xp_plane *p, size_t sm)
{
	return 2 + (uint64_t)p->nevmetas + (uint64_t)sm;
}

static uint64_t iid_str_meta(const struct xp_plane *p, size_t stat)
{
	return 2 + (uint64_t)p->nevmetas + (uint64_t)p->nstatmetas + (uint64_t)stat;
}

static uint32_t stat_index(const struct xp_plane *p, int64_t id)
{
	return xp_id_find(&p->statmeta_ix, p->statmetas, p->nstatmetas, sizeof(*p->statmetas), id);
}

enum { USED_NAME = 1, USED_LONG = 2, USED_META = 4 };	/* per evmeta */
enum { USED_KEY = 1, USED_REF = 2 };			/* per statmeta */

/* A track's packet sequence while a piece writes a line. */
struct pf_track {
	unsigned char seq[8];		/* TracePacket.trusted_packet_sequence_id, tag and value (6 at most) */
	unsigned nseq;
	uint64_t last_ns;		/* the sequence's incremental clock */
	int64_t *end;			/* the open events' ends (ps), innermost last */
	size_t n, cap;
};

/* One piece's encoder state. */
struct pf {
	const struct xp_plane *pl;
	uint64_t boot_ns;		/* the trace clock's time at the sequences' 0 (pf_start) */
	unsigned char *used_ev;		/* per evmeta: USED_* */
	unsigned char *used_stat;	/* per statmeta: USED_KEY, USED_REF */
	unsigned char *stat_long;	/* per statmeta: 0 not known yet, 1 not named long_name, 2 named so */
	uint32_t *tev, *tst;		/* the evmetas and statmetas marked, to intern and unmark them */
	size_t ntev, ntst;
	int used_long;
	Perfetto__Protos__DebugAnnotation *da;
	size_t nda;
	struct copies cp;		/* one packet's strings that needed copying */
	struct out_bytes own;		/* an event's own annotations, packed */
	struct out_bytes idata;		/* a line's InternedData, packed */
	struct out_bytes head;		/* a line's sequences' first packets, put before its events */
	/* Per evmeta, built on its first event: what its begins carry whatever the event. */
	struct evcache **cache;
	struct pf_track tk[AN_EXP_MAX_TRACKS];
	/* The event being written: its own stats (xp_event_own_stats), read into own_room if need be. */
	const struct xp_stat *ev_own;
	struct xp_stat *own_room;
};

#define SIG_MAX 8

struct evcache {
	/* TrackEvent.type (begin) and name_iid, packed (13 at most) */
	unsigned char head[16];
	unsigned nhead;
	int long_name;			/* display name and name differ */
	/* Its long name and metadata stats as TrackEvent.debug_annotations, packed once by protobuf-c. */
	struct out_bytes meta;
	/*
	 * The own stats of its last event with numbers for stats: their ids,
	 * and what they mean here (statmeta index, whether written). An event
	 * whose own stats have those ids and numeric values writes them at once.
	 */
	unsigned nsig;			/* 0: none kept */
	int64_t sig_id[SIG_MAX];
	uint32_t sig_sm[SIG_MAX];	/* UINT32_MAX: not a known stat */
	unsigned char sig_put[SIG_MAX];
};

static int has_long_name(const struct xp_evmeta *m)
{
	return strcmp(event_display(m), m->name) != 0;
}

static void mark_ev(struct pf *f, uint32_t i, unsigned char what)
{
	if (!f->used_ev[i])
		f->tev[f->ntev++] = i;
	f->used_ev[i] |= what;
}

static void mark_stat(struct pf *f, uint32_t i, unsigned char what)
{
	if (!f->used_stat[i])
		f->tst[f->ntst++] = i;
	f->used_stat[i] |= what;
}

/* Marks what an event's packets name (names, ref targets), to intern it first; sig: its own stats match c's signature. */
static void pf_mark(struct pf *f, const struct xp_event *e, const struct evcache *c, int sig)
{
	const struct xp_plane *pl = f->pl;
	const struct xp_stat *own = f->ev_own;
	size_t i;

	if (sig) {
		/* numbers only, the stats known by the signature */
		if (!(f->used_ev[e->meta] & USED_NAME)) {
			mark_ev(f, e->meta, USED_NAME | USED_META);
			if (c->long_name) {
				mark_ev(f, e->meta, USED_LONG);
				f->used_long = 1;
			}
		}
		for (i = 0; i < c->nsig; i++)
			if (c->sig_sm[i] != UINT32_MAX)
				mark_stat(f, c->sig_sm[i], USED_KEY);
		return;
	}

	if (!(f->used_ev[e->meta] & USED_NAME)) {
		mark_ev(f, e->meta, USED_NAME | USED_META);
		if (has_long_name(&pl->evmetas[e->meta])) {
			mark_ev(f, e->meta, USED_LONG);
			f->used_long = 1;
		}
	}
	for (i = 0; i < e->nstats; i++) {
		uint32_t sm = stat_index(pl, own[i].meta_id);

		if (sm == UINT32_MAX)
			continue;
		mark_stat(f, sm, USED_KEY);
		if (own[i].type == XP_STAT_REF && (sm = stat_index(pl, (int64_t)own[i].v.u)) != UINT32_MAX)
			mark_stat(f, sm, USED_REF);
	}
}

/* Whether statmeta sm is named long_name (the long name's own argument then takes its place). */
static int stat_is_long(struct pf *f, uint32_t sm)
{
	if (!f->stat_long[sm])
		f->stat_long[sm] = strcmp(f->pl->statmetas[sm].name, "long_name") ? 1 : 2;
	return f->stat_long[sm] == 2;
}

static const Perfetto__Protos__DebugAnnotation da_init = PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT;

/* Fills a with stat s's value; 0 when it has none to give (no value, unknown ref). */
static int pf_value(struct pf *f, const struct xp_stat *s, size_t pool_ix, int meta,
		    Perfetto__Protos__DebugAnnotation *a)
{
	const struct xp_plane *pl = f->pl;
	uint32_t ref;

	switch (s->type) {
	case XP_STAT_UINT64:
		a->has_uint_value = 1;
		a->uint_value = s->v.u;
		return 1;
	case XP_STAT_INT64:
		a->has_int_value = 1;
		a->int_value = s->v.i;
		return 1;
	case XP_STAT_DOUBLE:
		a->has_double_value = 1;
		a->double_value = s->v.d;
		return 1;
	case XP_STAT_STR:
	case XP_STAT_BYTES:
		if (meta) {
			a->has_string_value_iid = 1;
			a->string_value_iid = iid_str_meta(pl, pool_ix);
		} else if (s->type == XP_STAT_STR) {
			a->has_string_value = 1;
			a->string_value = text(&f->cp, s->v.s.p, s->v.s.len);
		} else {
			a->has_string_value = 1;
			a->string_value = hex_text(&f->cp, s->v.s.p, s->v.s.len);
		}
		return 1;
	case XP_STAT_REF:
		ref = stat_index(pl, (int64_t)s->v.u);
		if (ref == UINT32_MAX)
			return 0;
		a->has_string_value_iid = 1;
		a->string_value_iid = iid_str_ref(pl, ref);
		return 1;
	default:
		return 0;
	}
}

static size_t varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* v as a varint at d; returns the bytes written (at most 10). */
static size_t varint_at(unsigned char *d, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		d[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	d[n++] = (unsigned char)v;
	return n;
}

/*
 * Wire tags (field number << 3 | wire type) of what the per-event packets
 * hold, from proto/perfetto_trace.proto: events are too many to pack each by
 * protobuf-c, so they are put together from pre-packed parts and these.
 */
enum {
	TAG_PACKET = 0x0a,		/* Trace.packet, length-delimited */
	TAG_TIMESTAMP = 0x40,		/* TracePacket.timestamp, varint */
	TAG_SEQ = 0x50,			/* TracePacket.trusted_packet_sequence_id, varint */
	TAG_TRACK_EVENT = 0x5a,		/* TracePacket.track_event, length-delimited */
	TAG_INTERNED_DATA = 0x62,	/* TracePacket.interned_data, length-delimited */
	TAG_ANNOTATION = 0x22,		/* TrackEvent.debug_annotations, length-delimited */
	TAG_TYPE = 0x48,		/* TrackEvent.type, varint */
	TAG_NAME_IID = 0x50,		/* TrackEvent.name_iid, varint */
	TAG_DA_NAME_IID = 0x08,		/* DebugAnnotation.name_iid, varint */
	TAG_DA_UINT = 0x18,		/* DebugAnnotation.uint_value, varint */
	TAG_DA_INT = 0x20,		/* DebugAnnotation.int_value, varint */
	TAG_DA_DOUBLE = 0x29,		/* DebugAnnotation.double_value, 64-bit */
	TAG_DA_STRING = 0x32,		/* DebugAnnotation.string_value, length-delimited */
};
/* DebugAnnotation.string_value_iid (field 17, varint): a two-byte tag. */
static const unsigned char tag_da_string_iid[2] = {0x88, 0x01};

/*
 * Annotation a (the fields pf_value and the callers set) as a
 * TrackEvent.debug_annotations field, in field-number order as protobuf-c
 * packs it.
 */
static void put_annotation(struct out_bytes *b, const Perfetto__Protos__DebugAnnotation *a)
{
	unsigned char d[48];
	size_t n = 0, len, extra = 0;

	if (a->has_name_iid) {
		d[n++] = TAG_DA_NAME_IID;
		n += varint_at(d + n, a->name_iid);
	}
	if (a->has_uint_value) {
		d[n++] = TAG_DA_UINT;
		n += varint_at(d + n, a->uint_value);
	}
	if (a->has_int_value) {
		d[n++] = TAG_DA_INT;
		n += varint_at(d + n, (uint64_t)a->int_value);
	}
	if (a->has_double_value) {
		uint64_t u;
		int i;

		memcpy(&u, &a->double_value, 8);
		d[n++] = TAG_DA_DOUBLE;
		for (i = 0; i < 8; i++)
			d[n++] = (unsigned char)(u >> (8 * i));	/* little-endian, as the wire has it */
	}
	if (a->has_string_value) {
		d[n++] = TAG_DA_STRING;
		n += varint_at(d + n, a->string_value.len);
		extra = a->string_value.len;	/* the bytes follow what d holds */
	}
	len = n + extra;
	if (a->has_string_value_iid) {
		len += 2 + varint_len(a->string_value_iid);
	}
	{
		unsigned char h[11];
		size_t nh;

		h[0] = TAG_ANNOTATION;
		nh = 1 + varint_at(h + 1, len);
		out_bytes_put(b, h, nh);
	}
	out_bytes_put(b, d, n);
	if (a->has_string_value)
		out_bytes_put(b, a->string_value.data, a->string_value.len);
	if (a->has_string_value_iid) {
		n = 0;
		memcpy(d, tag_da_string_iid, 2);
		n = 2 + varint_at(d + 2, a->string_value_iid);
		out_bytes_put(b, d, n);
	}
}

/* What every begin of evmeta i carries: its type and name, its long name and metadata stats (an_exp.h's order). */
static struct evcache *pf_cache(struct pf *f, uint32_t i)
{
	const struct xp_plane *pl = f->pl;
	const struct xp_evmeta *m = &pl->evmetas[i];
	const struct xp_stat *ms = pl->stats + m->stats_first;
	Perfetto__Protos__DebugAnnotation *da = NULL;
	struct evcache *c;
	size_t n = 0, k, total = 0;

	if (f->cache[i])
		return f->cache[i];
	if (!(c = calloc(1, sizeof(*c))) || !(da = calloc((size_t)m->nstats + 1, sizeof(*da))))
		goto fail;
	c->head[0] = TAG_TYPE;
	c->head[1] = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN;
	c->head[2] = TAG_NAME_IID;
	c->nhead = 3 + (unsigned)varint_at(c->head + 3, 1 + (uint64_t)i);
	c->long_name = has_long_name(m);
	if (c->long_name) {
		da[n] = da_init;
		da[n].has_name_iid = 1;
		da[n].name_iid = iid_long_name_key(pl);
		da[n].has_string_value_iid = 1;
		da[n].string_value_iid = iid_str_long(i);
		n++;
	}
	for (k = 0; k < m->nstats; k++) {
		uint32_t sm = stat_index(pl, ms[k].meta_id);

		if (sm == UINT32_MAX || stat_dup(ms, k, NULL, 0) || (c->long_name && stat_is_long(f, sm)))
			continue;
		da[n] = da_init;
		da[n].has_name_iid = 1;
		da[n].name_iid = 1 + (uint64_t)sm;
		if (pf_value(f, &ms[k], m->stats_first + k, 1, &da[n]))
			n++;
	}
	for (k = 0; k < n; k++)
		total += 11 + perfetto__protos__debug_annotation__get_packed_size(&da[k]);
	if (out_bytes_reserve(&c->meta, total + 1))
		goto fail;
	for (k = 0; k < n; k++) {
		size_t size = perfetto__protos__debug_annotation__get_packed_size(&da[k]);

		c->meta.p[c->meta.n++] = TAG_ANNOTATION;
		c->meta.n += varint_at(c->meta.p + c->meta.n, size);
		c->meta.n += perfetto__protos__debug_annotation__pack(&da[k], c->meta.p + c->meta.n);
	}
	free(da);
	f->cache[i] = c;
	return c;
fail:
	if (c) {
		out_bytes_release(&c->meta);
		free(c);
	}
	free(da);
	return NULL;
}

static void pf_cache_free(struct pf *f)
{
	size_t i;

	for (i = 0; f->cache && i <= f->pl->nevmetas; i++) {
		if (!f->cache[i])
			continue;
		out_bytes_release(&f->cache[i]->meta);
		free(f->cache[i]);
	}
	free(f->cache);
}

/* Clears what put_annotation reads (cheaper than the whole struct, per event). */
static void da_clear(Perfetto__Protos__DebugAnnotation *a)
{
	a->has_name_iid = a->has_uint_value = a->has_int_value = a->has_double_value = 0;
	a->has_string_value = a->has_string_value_iid = 0;
}

static int numeric(const struct xp_stat *s)
{
	return s->type == XP_STAT_UINT64 || s->type == XP_STAT_INT64 || s->type == XP_STAT_DOUBLE;
}

/* Whether e's own stats are the signature's ids, every one a number. */
static int sig_match(const struct evcache *c, const struct xp_stat *own, const struct xp_event *e)
{
	unsigned i;

	if (!c->nsig || c->nsig != e->nstats)
		return 0;
	for (i = 0; i < c->nsig; i++)
		if (own[i].meta_id != c->sig_id[i] || !numeric(&own[i]))
			return 0;
	return 1;
}

/* Keeps e's own stats' meaning as the signature (numbers only, no metadata stat repeated). */
static void sig_keep(struct evcache *c, struct pf *f, const struct xp_stat *own, const struct xp_event *e)
{
	const struct xp_evmeta *m = &f->pl->evmetas[e->meta];
	const struct xp_stat *ms = f->pl->stats + m->stats_first;
	unsigned i, j;

	c->nsig = 0;
	if (!e->nstats || e->nstats > SIG_MAX)
		return;
	for (i = 0; i < e->nstats; i++) {
		if (!numeric(&own[i]))
			return;
		for (j = 0; j < m->nstats; j++)
			if (own[i].meta_id == ms[j].meta_id)
				return;	/* shadowing: the slow way */
	}
	for (i = 0; i < e->nstats; i++) {
		uint32_t sm = stat_index(f->pl, own[i].meta_id);

		c->sig_id[i] = own[i].meta_id;
		c->sig_sm[i] = sm;
		c->sig_put[i] = sm != UINT32_MAX && !stat_dup(own, i, own, e->nstats) &&
				!(c->long_name && stat_is_long(f, sm));
	}
	c->nsig = e->nstats;
}

/* The signature's own stats with e's values, packed in f->own (sig_match holds). */
static int sig_put(struct pf *f, const struct evcache *c, const struct xp_stat *own)
{
	unsigned i;

	f->own.n = 0;
	if (out_bytes_reserve(&f->own, 24 * (size_t)c->nsig))
		return -1;
	for (i = 0; i < c->nsig; i++) {
		unsigned char *d = f->own.p + f->own.n;
		size_t n = 2;
		uint64_t u;
		int k;

		if (!c->sig_put[i])
			continue;
		d[n++] = TAG_DA_NAME_IID;
		n += varint_at(d + n, 1 + (uint64_t)c->sig_sm[i]);
		switch (own[i].type) {
		case XP_STAT_UINT64:
			d[n++] = TAG_DA_UINT;
			n += varint_at(d + n, own[i].v.u);
			break;
		case XP_STAT_INT64:
			d[n++] = TAG_DA_INT;
			n += varint_at(d + n, (uint64_t)own[i].v.i);
			break;
		default:
			memcpy(&u, &own[i].v.d, 8);
			d[n++] = TAG_DA_DOUBLE;
			for (k = 0; k < 8; k++)
				d[n++] = (unsigned char)(u >> (8 * k));
		}
		d[0] = TAG_ANNOTATION;
		d[1] = (unsigned char)(n - 2);	/* at most 1 + 5 + 1 + 10 */
		f->own.n += n;
	}
	return 0;
}

/*
 * An event's own stats as packed annotations, in f->own (sig: they match
 * c's signature); *meta: whether its
 * evmeta's cached ones go after them. Not when an own stat repeats a
 * metadata stat, which is then left out: all of them are then in f->own.
 */
static int pf_annotations(struct pf *f, const struct xp_event *e, struct evcache *c, int sig, int *meta)
{
	const struct xp_plane *pl = f->pl;
	const struct xp_evmeta *m = &pl->evmetas[e->meta];
	const struct xp_stat *own = f->ev_own, *ms = pl->stats + m->stats_first;
	size_t want = 1 + (size_t)e->nstats + m->nstats, n = 0, i, j;
	int pass, shadow = 0;

	f->own.n = 0;
	*meta = 1;
	if (!e->nstats)
		return 0;
	if (sig)
		return sig_put(f, c, own);
	sig_keep(c, f, own, e);
	for (i = 0; i < e->nstats && !shadow; i++)
		for (j = 0; j < m->nstats && !shadow; j++)
			shadow = own[i].meta_id == ms[j].meta_id;
	*meta = !shadow;
	if (want > f->nda) {
		Perfetto__Protos__DebugAnnotation *da = realloc(f->da, want * sizeof(*da));

		if (!da)
			return -1;
		f->da = da;
		f->nda = want;
	}
	if (shadow && c->long_name) {
		Perfetto__Protos__DebugAnnotation *a = &f->da[n++];

		da_clear(a);
		a->has_name_iid = 1;
		a->name_iid = iid_long_name_key(pl);
		a->has_string_value_iid = 1;
		a->string_value_iid = iid_str_long(e->meta);
	}
	for (pass = 0; pass < (shadow ? 2 : 1); pass++) {
		const struct xp_stat *v = pass ? ms : own;
		size_t nv = pass ? m->nstats : e->nstats, first = pass ? m->stats_first : 0;

		for (i = 0; i < nv; i++) {
			uint32_t sm = stat_index(pl, v[i].meta_id);
			Perfetto__Protos__DebugAnnotation *a = &f->da[n];

			if (sm == UINT32_MAX || stat_dup(v, i, own, e->nstats) || (c->long_name && stat_is_long(f, sm)))
				continue;
			da_clear(a);
			a->has_name_iid = 1;
			a->name_iid = 1 + (uint64_t)sm;
			if (pf_value(f, &v[i], first + i, pass, a))
				n++;
		}
	}
	for (i = 0; i < n; i++)
		put_annotation(&f->own, &f->da[i]);
	copies_release(&f->cp);
	return f->cp.failed || f->own.failed ? -1 : 0;
}

/* An interned string entry. */
static void pf_str(Perfetto__Protos__InternedString *is, uint64_t iid, ProtobufCBinaryData v)
{
	perfetto__protos__interned_string__init(is);
	is->has_iid = 1;
	is->iid = iid;
	is->has_str = 1;
	is->str = v;
}

/*
 * What the marked events name, packed as an InternedData in f->idata, then
 * unmarked. Work in proportion to what was marked, not to the plane's
 * names: a piece may hold many short lines of a plane of many names.
 */
static int pf_interned(struct pf *f)
{
	const struct xp_plane *pl = f->pl;
	Perfetto__Protos__InternedData id = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	size_t nev = 0, nst = 0, nstr = 0, j, k, n;
	Perfetto__Protos__EventName *ev = NULL, **evp = NULL;
	Perfetto__Protos__DebugAnnotationName *dn = NULL, **dnp = NULL;
	Perfetto__Protos__InternedString *is = NULL, **isp = NULL;
	int ret = -1;

	/* Metadata stats' names and text values are interned with their event name. */
	for (k = 0, n = f->ntev; k < n; k++) {
		const struct xp_evmeta *m = &pl->evmetas[f->tev[k]];

		if (!(f->used_ev[f->tev[k]] & USED_META))
			continue;
		for (j = 0; j < m->nstats; j++) {
			const struct xp_stat *s = &pl->stats[m->stats_first + j];
			uint32_t sm = stat_index(pl, s->meta_id);

			if (sm == UINT32_MAX)
				continue;
			mark_stat(f, sm, USED_KEY);
			if (s->type == XP_STAT_STR || s->type == XP_STAT_BYTES)
				nstr++;
			else if (s->type == XP_STAT_REF && (sm = stat_index(pl, (int64_t)s->v.u)) != UINT32_MAX)
				mark_stat(f, sm, USED_REF);
		}
	}
	for (k = 0; k < f->ntev; k++) {
		nev += (f->used_ev[f->tev[k]] & USED_NAME) != 0;
		nstr += (f->used_ev[f->tev[k]] & USED_LONG) != 0;
	}
	for (k = 0; k < f->ntst; k++) {
		nst += (f->used_stat[f->tst[k]] & USED_KEY) != 0;
		nstr += (f->used_stat[f->tst[k]] & USED_REF) != 0;
	}
	nst += f->used_long;
	if (!(ev = calloc(nev + 1, sizeof(*ev))) || !(evp = calloc(nev + 1, sizeof(*evp))) ||
	    !(dn = calloc(nst + 1, sizeof(*dn))) || !(dnp = calloc(nst + 1, sizeof(*dnp))) ||
	    !(is = calloc(nstr + 1, sizeof(*is))) || !(isp = calloc(nstr + 1, sizeof(*isp))))
		goto out;
	nev = nst = nstr = 0;
	for (k = 0; k < f->ntev; k++) {
		uint32_t ei = f->tev[k];
		const struct xp_evmeta *m = &pl->evmetas[ei];

		if (f->used_ev[ei] & USED_NAME) {
			perfetto__protos__event_name__init(&ev[nev]);
			ev[nev].has_iid = 1;
			ev[nev].iid = 1 + (uint64_t)ei;
			ev[nev].has_name = 1;
			ev[nev].name = text_c(&f->cp, event_display(m));
			evp[nev] = &ev[nev];
			nev++;
		}
		if (f->used_ev[ei] & USED_LONG) {
			pf_str(&is[nstr], iid_str_long(ei), text_c(&f->cp, m->name));
			isp[nstr] = &is[nstr];
			nstr++;
		}
		if (!(f->used_ev[ei] & USED_META))
			continue;
		for (j = 0; j < m->nstats; j++) {
			size_t si = m->stats_first + j;
			const struct xp_stat *s = &pl->stats[si];

			if (stat_index(pl, s->meta_id) == UINT32_MAX ||
			    (s->type != XP_STAT_STR && s->type != XP_STAT_BYTES))
				continue;
			pf_str(&is[nstr], iid_str_meta(pl, si),
			       s->type == XP_STAT_STR ? text(&f->cp, s->v.s.p, s->v.s.len)
						      : hex_text(&f->cp, s->v.s.p, s->v.s.len));
			isp[nstr] = &is[nstr];
			nstr++;
		}
	}
	for (k = 0; k < f->ntst; k++) {
		uint32_t si = f->tst[k];

		if (f->used_stat[si] & USED_KEY) {
			perfetto__protos__debug_annotation_name__init(&dn[nst]);
			dn[nst].has_iid = 1;
			dn[nst].iid = 1 + (uint64_t)si;
			dn[nst].has_name = 1;
			dn[nst].name = text_c(&f->cp, pl->statmetas[si].name);
			dnp[nst] = &dn[nst];
			nst++;
		}
		if (f->used_stat[si] & USED_REF) {
			pf_str(&is[nstr], iid_str_ref(pl, si), text_c(&f->cp, pl->statmetas[si].name));
			isp[nstr] = &is[nstr];
			nstr++;
		}
	}
	if (f->used_long) {
		perfetto__protos__debug_annotation_name__init(&dn[nst]);
		dn[nst].has_iid = 1;
		dn[nst].iid = iid_long_name_key(pl);
		dn[nst].has_name = 1;
		dn[nst].name = text_c(&f->cp, "long_name");
		dnp[nst] = &dn[nst];
		nst++;
	}
	if (f->cp.failed)
		goto out;
	id.n_event_names = nev;
	id.event_names = evp;
	id.n_debug_annotation_names = nst;
	id.debug_annotation_names = dnp;
	id.n_debug_annotation_string_values = nstr;
	id.debug_annotation_string_values = isp;
	f->idata.n = 0;
	if (out_bytes_reserve(&f->idata, perfetto__protos__interned_data__get_packed_size(&id)))
		goto out;
	f->idata.n = perfetto__protos__interned_data__pack(&id, f->idata.p);
	ret = 0;
out:
	for (k = 0; k < f->ntev; k++)
		f->used_ev[f->tev[k]] = 0;
	for (k = 0; k < f->ntst; k++)
		f->used_stat[f->tst[k]] = 0;
	f->ntev = f->ntst = 0;
	f->used_long = 0;
	copies_release(&f->cp);
	free(ev);
	free(evp);
	free(dn);
	free(dnp);
	free(is);
	free(isp);
	return ret;
}

/* The sequence-scoped clock (ids 64-127 are a sequence's own) its events are timed on. */
#define PF_CLOCK 64
#define PF_CLOCK_BOOTTIME 6	/* Perfetto's default trace clock */

/* Track t as packet sequence seq, its clock at 0, nothing open. */
static void pf_track_init(struct pf_track *t, uint32_t seq)
{
	t->seq[0] = TAG_SEQ;
	t->nseq = 1 + (unsigned)varint_at(t->seq + 1, seq);
	t->last_ns = 0;
	t->n = 0;
}

/*
 * Starts packet sequence seq for a track's events of a line of a piece: a
 * packet that clears its state, interns what the line's events name
 * (f->idata) and sets its defaults (the track, the clock), then a clock
 * snapshot that starts the incremental clock at 0 (the plan's origin_ns),
 * as f->boot_ns on the trace's clock: the file's own ns, less clock_zero_ns.
 */
static int pf_start(struct pf *f, uint32_t seq, uint64_t uuid, struct out_bytes *b)
{
	Perfetto__Protos__TracePacket pk = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__TracePacketDefaults d = PERFETTO__PROTOS__TRACE_PACKET_DEFAULTS__INIT;
	Perfetto__Protos__TrackEventDefaults td = PERFETTO__PROTOS__TRACK_EVENT_DEFAULTS__INIT;
	Perfetto__Protos__ClockSnapshot cs = PERFETTO__PROTOS__CLOCK_SNAPSHOT__INIT;
	Perfetto__Protos__ClockSnapshot__Clock c[2] = {PERFETTO__PROTOS__CLOCK_SNAPSHOT__CLOCK__INIT,
							  PERFETTO__PROTOS__CLOCK_SNAPSHOT__CLOCK__INIT};
	Perfetto__Protos__ClockSnapshot__Clock *cp[2] = {&c[0], &c[1]};
	size_t n;
	unsigned char h[16];

	pk.has_trusted_packet_sequence_id = 1;
	pk.trusted_packet_sequence_id = seq;
	pk.has_sequence_flags = 1;
	pk.sequence_flags = PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_INCREMENTAL_STATE_CLEARED;
	td.has_track_uuid = 1;
	td.track_uuid = uuid;
	d.track_event_defaults = &td;
	d.has_timestamp_clock_id = 1;
	d.timestamp_clock_id = PF_CLOCK;
	pk.trace_packet_defaults = &d;
	/* the line's interned data after the packed fields: TracePacket.interned_data (12) */
	n = perfetto__protos__trace_packet__get_packed_size(&pk);
	h[0] = TAG_PACKET;
	n = 1 + varint_at(h + 1, n + 1 + varint_len(f->idata.n) + f->idata.n);
	out_bytes_put(b, h, n);
	if (out_bytes_reserve(b, perfetto__protos__trace_packet__get_packed_size(&pk)))
		return -1;
	b->n += perfetto__protos__trace_packet__pack(&pk, b->p + b->n);
	h[0] = TAG_INTERNED_DATA;
	out_bytes_put(b, h, 1 + varint_at(h + 1, f->idata.n));
	out_bytes_put(b, f->idata.p, f->idata.n);

	pk = (Perfetto__Protos__TracePacket)PERFETTO__PROTOS__TRACE_PACKET__INIT;
	pk.has_trusted_packet_sequence_id = 1;
	pk.trusted_packet_sequence_id = seq;
	c[0].has_clock_id = 1;
	c[0].clock_id = PF_CLOCK;
	c[0].has_timestamp = 1;
	c[0].timestamp = 0;
	c[0].has_is_incremental = 1;
	c[0].is_incremental = 1;
	c[1].has_clock_id = 1;
	c[1].clock_id = PF_CLOCK_BOOTTIME;
	c[1].has_timestamp = 1;
	c[1].timestamp = f->boot_ns;
	cs.n_clocks = 2;
	cs.clocks = cp;
	pk.clock_snapshot = &cs;
	put_packet(b, &pk);
	return b->failed ? -1 : 0;
}

/* ps from the origin to the format's ns, rounded (monotone, so nesting is kept). */
static uint64_t ps_to_ns(int64_t ps)
{
	return (uint64_t)ps / 1000 + ((uint64_t)ps % 1000 >= 500);
}

/* The delta on t's incremental clock to ps (times on a track only grow: ends are written in order). */
static uint64_t pf_delta(struct pf_track *t, int64_t ps)
{
	uint64_t ns = ps_to_ns(ps), d = ns >= t->last_ns ? ns - t->last_ns : 0;

	t->last_ns += d;
	return d;
}

/* Room for n more bytes in b, and the slack the fixed-size copies below write past them. */
static int room(struct out_bytes *b, size_t n)
{
	return b->cap - b->n >= n + 16 ? 0 : out_bytes_reserve(b, n + 16);
}

/*
 * An end packet: its time, the sequence; the track and clock are the
 * sequence's defaults. Events carry no sequence_flags: Perfetto reads
 * SEQ_NEEDS_INCREMENTAL_STATE only to skip a packet whose sequence lost its
 * state (a dropped packet), which a file written whole never has; each
 * sequence's first packet clears its state (pf_start). Two bytes a packet,
 * 6% of a .pftrace, 37 MB of the TPU bench trace's.
 */
static void pf_end(struct pf_track *t, int64_t ps, struct out_bytes *b)
{
	unsigned char *d;
	size_t n;

	if (room(b, 32))
		return;
	d = b->p + b->n;
	d[0] = TAG_PACKET;
	d[2] = TAG_TIMESTAMP;
	n = 3 + varint_at(d + 3, pf_delta(t, ps));
	memcpy(d + n, t->seq, sizeof(t->seq));	/* all 8: room leaves slack */
	n += t->nseq;
	d[n++] = TAG_TRACK_EVENT;
	d[n++] = 2;
	d[n++] = TAG_TYPE;
	d[n++] = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END;
	d[1] = (unsigned char)(n - 2);	/* under 128 */
	b->n += n;
}

/* A begin packet: its time, the sequence, the event (type, name, annotations: own, then meta's). */
static void pf_begin(struct pf *f, struct pf_track *t, int64_t ps, const struct evcache *c, int meta,
		     struct out_bytes *b)
{
	size_t te = c->nhead + f->own.n + (meta ? c->meta.n : 0), len, n;
	uint64_t delta = pf_delta(t, ps);
	unsigned char *d;

	len = 1 + varint_len(delta) + t->nseq + 1 + varint_len(te) + te;
	if (room(b, len + 11))
		return;
	d = b->p + b->n;
	d[0] = TAG_PACKET;
	n = 1 + varint_at(d + 1, len);
	d[n++] = TAG_TIMESTAMP;
	n += varint_at(d + n, delta);
	memcpy(d + n, t->seq, sizeof(t->seq));
	n += t->nseq;
	d[n++] = TAG_TRACK_EVENT;
	n += varint_at(d + n, te);
	memcpy(d + n, c->head, sizeof(c->head));
	n += c->nhead;
	if (f->own.n)	/* (memcpy from NULL is undefined, even of nothing) */
		memcpy(d + n, f->own.p, f->own.n);
	n += f->own.n;
	if (meta && c->meta.n) {
		memcpy(d + n, c->meta.p, c->meta.n);
		n += c->meta.n;
	}
	b->n += n;
}

static int pf_push(struct pf_track *t, int64_t end)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		int64_t *m = realloc(t->end, cap * sizeof(*m));

		if (!m)
			return -1;
		t->end = m;
		t->cap = cap;
	}
	t->end[t->n++] = end;
	return 0;
}

/*
 * The samples a piece holds of counter line li, on the line's sequence
 * (first_seq): each a counter event on its counter's track (pf_counter_tracks),
 * in time order; samples without a value are left out (an_exp_plan counted them).
 */
static int pf_counter_line(struct pf *f, const struct an_exp_plan *p, const struct an_exp_piece *pc, size_t li,
			   uint64_t first_seq, struct out_bytes *b)
{
	const struct an_exp_line *l = &p->lines[li];
	const struct an_exp_plane *ep = &p->planes[l->plane_ix];
	struct pf_track *t = &f->tk[0];
	size_t k, from, to;
	int started = 0;

	an_exp_piece_range(pc, li, l->n, &from, &to);
	for (k = from; k < to && !b->failed; k++) {
		unsigned tr;
		const struct xp_event *e = an_exp_event(p, l, k, &tr);
		int64_t s = e->start_ps + ep->shift_ps;
		Perfetto__Protos__TracePacket pk = PERFETTO__PROTOS__TRACE_PACKET__INIT;
		Perfetto__Protos__TrackEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
		double v;

		if (!an_exp_keeps(p, li, k, s, s, tr) || an_ctr_value(f->pl, e, f->own_room, &v))
			continue;
		if (!started++) {
			pf_track_init(t, (uint32_t)first_seq);
			f->idata.n = 0;	/* nothing to intern: counter events name no string */
			if (pf_start(f, (uint32_t)first_seq, track_uuid(p, li, 0), b))
				return -1;
		}
		pk.has_timestamp = 1;
		pk.timestamp = pf_delta(t, s + p->origin_sub_ps);
		pk.has_trusted_packet_sequence_id = 1;
		pk.trusted_packet_sequence_id = (uint32_t)first_seq;
		te.has_type = 1;
		te.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER;
		te.has_track_uuid = 1;
		te.track_uuid = counter_uuid(p, l->plane_ix, ep->counter_of[e->meta]);
		te.has_double_counter_value = 1;
		te.double_counter_value = v;
		pk.track_event = &te;
		put_packet(b, &pk);
	}
	return b->failed ? -1 : 0;
}

/*
 * The events a piece holds of line li: a packet sequence per track, begun
 * with the names its events use; each event's begin, and the ends of those
 * open that end first, in time order, so that the sequence's timestamps
 * are deltas. The events are written first, as they mark what the
 * sequences' first packets intern (one pass over them, not two); those
 * packets then go before them.
 */
static int pf_line(struct pf *f, const struct an_exp_plan *p, const struct an_exp_piece *pc, size_t li,
		   uint64_t first_seq, struct out_bytes *b)
{
	const struct an_exp_line *l = &p->lines[li];
	const struct an_exp_plane *ep = &p->planes[l->plane_ix];
	const struct xp_plane *pl = f->pl;
	struct out_bytes *o = b;
	size_t k, from, to, at = b->n;
	uint64_t used = 0;
	unsigned tr;
	/* no window, no cut: an event is kept when it has a track (an_exp_keeps) */
	int all = !p->opts.have_from && !p->opts.have_to && p->cut_line == SIZE_MAX;

	if (l->counter)
		return pf_counter_line(f, p, pc, li, first_seq, b);
	an_exp_piece_range(pc, li, l->n, &from, &to);
	for (k = from; k < to && !o->failed; k++) {
		const struct xp_event *e = an_exp_event(p, l, k, &tr);
		int64_t s = e->start_ps + ep->shift_ps;
		struct pf_track *t = &f->tk[tr];
		struct evcache *c;
		int meta, sig;

		if (all ? tr == AN_EXP_LEFT_OUT : !an_exp_keeps(p, li, k, s, s + e->dur_ps, tr))
			continue;
		/* ps from origin_ns (the sequences' 0): rounded to ns as the file's clock rounds them */
		s += p->origin_sub_ps;
		if (!(used >> tr & 1)) {
			used |= (uint64_t)1 << tr;
			pf_track_init(t, (uint32_t)(first_seq + (uint64_t)__builtin_popcountll(
								       l->kept_tracks & (((uint64_t)1 << tr) - 1))));
		}
		if (!(c = pf_cache(f, e->meta)))
			return -1;
		f->ev_own = xp_event_own_stats(pl, e, f->own_room);
		sig = sig_match(c, f->ev_own, e);
		pf_mark(f, e, c, sig);
		/* the track's events nest or follow (an_export.h): what ended by s is the stack's top */
		while (t->n && t->end[t->n - 1] <= s)
			pf_end(t, t->end[--t->n], o);
		if (pf_annotations(f, e, c, sig, &meta))
			return -1;
		pf_begin(f, t, s, c, meta, o);
		if (pf_push(t, s + e->dur_ps))
			return -1;
	}
	for (tr = 0; tr < AN_EXP_MAX_TRACKS; tr++)
		while (f->tk[tr].n)
			pf_end(&f->tk[tr], f->tk[tr].end[--f->tk[tr].n], o);
	if (o->failed)
		return -1;
	if (!used)
		return 0;
	if (pf_interned(f))
		return -1;
	f->head.n = 0;
	for (tr = 0; tr < AN_EXP_MAX_TRACKS; tr++)
		if ((used >> tr & 1) &&
		    pf_start(f, (uint32_t)(first_seq + (uint64_t)__builtin_popcountll(l->kept_tracks &
										   (((uint64_t)1 << tr) - 1))),
			     track_uuid(p, li, tr), &f->head))
			return -1;
	/* in place, not through a line buffer: no fresh pages for every piece */
	if (room(b, f->head.n))
		return -1;
	memmove(b->p + at + f->head.n, b->p + at, b->n - at);
	memcpy(b->p + at, f->head.p, f->head.n);
	b->n += f->head.n;
	return 0;
}

/* A piece: its lines in turn. */
static int pf_piece(const struct an_exp_plan *p, const struct an_exp_piece *pc, struct out_bytes *b)
{
	const struct an_exp_plane *ep = &p->planes[p->lines[pc->first_line].plane_ix];
	struct pf f = {0};
	size_t li, k;
	uint64_t seq = PF_FIRST_SEQ + pc->first_track;
	int ret = -1;

	f.pl = &p->t->planes[ep->plane];
	f.boot_ns = (uint64_t)(p->origin_ns - p->clock_zero_ns);	/* not negative: out_exp_head checked */
	if (!(f.used_ev = calloc(f.pl->nevmetas + 1, 1)) || !(f.used_stat = calloc(f.pl->nstatmetas + 1, 1)) ||
	    !(f.stat_long = calloc(f.pl->nstatmetas + 1, 1)) ||
	    !(f.tev = calloc(f.pl->nevmetas + 1, sizeof(*f.tev))) ||
	    !(f.tst = calloc(f.pl->nstatmetas + 1, sizeof(*f.tst))) ||
	    !(f.cache = calloc(f.pl->nevmetas + 1, sizeof(*f.cache))) ||
	    !(f.own_room = malloc(((size_t)f.pl->max_own_stats + 1) * sizeof(*f.own_room))))
		goto out;
	for (li = pc->first_line; li <= pc->last_line; li++) {
		if (pf_line(&f, p, pc, li, seq, b))
			goto out;
		seq += (uint64_t)__builtin_popcountll(p->lines[li].kept_tracks);
	}
	ret = b->failed ? -1 : 0;
out:
	for (k = 0; k < AN_EXP_MAX_TRACKS; k++)
		free(f.tk[k].end);
	free(f.used_ev);
	free(f.used_stat);
	free(f.stat_long);
	free(f.tev);
	free(f.tst);
	free(f.da);
	free(f.own_room);
	pf_cache_free(&f);
	copies_free(&f.cp);
	out_bytes_release(&f.own);
	out_bytes_release(&f.idata);
	out_bytes_release(&f.head);
	return ret;
}

/* ---- the interface ---------------------------------------------------------------- */

int out_exp_head(const struct an_exp_plan *p, enum out_exp_format f, const char *version, struct out_bytes *b)
{
	if (f == OUT_EXP_PFTRACE)
		return pf_head(p, b);
	json_head(p, version, b);
	return b->failed ? -1 : 0;
}

int out_exp_head_json(const struct an_exp_plan *const *p, size_t n, const char *version, struct out_bytes *b)
{
	uint64_t exported = 0, total = 0;
	size_t i;
	int first = 1;

	for (i = 0; i < n; i++) {
		exported += p[i]->exported;
		total += p[i]->total;
	}
	json_doc_head(p[0], version, exported, total, b);
	for (i = 0; i < n; i++)
		json_metas(p[i], b, &first);
	return b->failed ? -1 : 0;
}

int out_exp_piece(const struct an_exp_plan *p, size_t i, enum out_exp_format f, struct out_bytes *b)
{
	if (f == OUT_EXP_PFTRACE)
		return pf_piece(p, &p->pieces[i], b);
	json_piece(p, &p->pieces[i], b);
	return b->failed ? -1 : 0;
}

int out_exp_tail(const struct an_exp_plan *p, enum out_exp_format f, struct out_bytes *b)
{
	(void)p;
	if (f != OUT_EXP_PFTRACE)
		out_bytes_str(b, "\n]}\n");
	return b->failed ? -1 : 0;
}

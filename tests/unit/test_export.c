/* SPDX-License-Identifier: Apache-2.0 */
/*
 * export: the plan and both writers on EXPECTED.md section 23, and on every
 * real trace the exports read back and compared with the protobuf-c
 * reader's model, event by event: JSON parsed by cJSON (times exact to the
 * picosecond), the .json.gz inflated by zlib to the same bytes, and the
 * .pftrace unpacked by protobuf-c and imported as Perfetto documents it
 * (packets ordered by timestamp, then file order; a begin opens a slice on
 * its track, an end closes the innermost), its slices equal to the events
 * rounded to the nanosecond.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "an_export.h"
#include "out_export.h"
#include "out_gzip.h"
#include "perfetto_trace.pb-c.h"
#include "test.h"
#include "test_trace.h"
#include "xp_sort.h"

#define US(x) ((int64_t)(x) * 1000000)

/* One event as the model or a read-back export holds it. */
struct rec {
	char *plane, *name;
	int64_t start, dur;	/* ps (JSON, from the origin) or ns (pftrace, the file's clock less clock_zero_ns) */
	char *args;		/* NULL, or its arguments as canonical text (args_text) */
};

struct recs {
	struct rec *v;
	size_t n, cap;
};

static void recs_add(struct recs *r, const char *plane, const char *name, int64_t start, int64_t dur)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 256;
		r->v = realloc(r->v, r->cap * sizeof(*r->v));
	}
	r->v[r->n].plane = strdup(plane);
	r->v[r->n].name = strdup(name);
	r->v[r->n].start = start;
	r->v[r->n].dur = dur;
	r->v[r->n].args = NULL;
	r->n++;
}

/* An argument as "key=value", numbers as doubles (what JSON keeps of them), into a list. */
struct args {
	char **v;
	size_t n, cap;
};

static void args_add(struct args *a, const char *key, const char *val, size_t vlen)
{
	size_t k = strlen(key);
	char *e;

	if (!strcmp(key, "dur_ps"))
		return;	/* JSON's exact duration where dur rounds: not in .pftrace */
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 16;
		a->v = realloc(a->v, a->cap * sizeof(*a->v));
	}
	e = malloc(k + vlen + 2);
	memcpy(e, key, k);
	e[k] = '=';
	if (vlen)	/* protobuf-c gives empty bytes a NULL pointer */
		memcpy(e + k + 1, val, vlen);
	e[k + 1 + vlen] = '\0';
	a->v[a->n++] = e;
}

static void args_num(struct args *a, const char *key, double d)
{
	char buf[64];

	if (d == d && d - d == 0)
		snprintf(buf, sizeof(buf), "%.17g", d);
	else
		snprintf(buf, sizeof(buf), "null");	/* JSON has no inf or nan */
	args_add(a, key, buf, strlen(buf));
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The list sorted and joined, and freed: one text per set of arguments, whatever their order. */
static char *args_text(struct args *a)
{
	size_t i, n = 1, o = 0;
	char *t;

	if (a->n)
		qsort(a->v, a->n, sizeof(*a->v), str_cmp);
	for (i = 0; i < a->n; i++)
		n += strlen(a->v[i]) + 1;
	t = malloc(n);
	for (i = 0; i < a->n; i++) {
		size_t k = strlen(a->v[i]);

		memcpy(t + o, a->v[i], k);
		o += k;
		t[o++] = '\n';
		free(a->v[i]);
	}
	t[o] = '\0';
	free(a->v);
	memset(a, 0, sizeof(*a));
	return t;
}

static void recs_free(struct recs *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->v[i].plane);
		free(r->v[i].name);
		free(r->v[i].args);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}

static int rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	int c;

	if ((c = xp_cmp_i64(x->start, y->start)) || (c = xp_cmp_i64(x->dur, y->dur)) ||
	    (c = strcmp(x->plane, y->plane)) || (c = strcmp(x->name, y->name)))
		return c;
	return strcmp(x->args ? x->args : "", y->args ? y->args : "");
}

static void check_same(struct recs *got, struct recs *want, const char *what)
{
	size_t i, bad = 0;

	qsort(got->v, got->n, sizeof(*got->v), rec_cmp);
	qsort(want->v, want->n, sizeof(*want->v), rec_cmp);
	CHECK_INT(got->n, want->n);
	for (i = 0; i < got->n && i < want->n; i++)
		if (rec_cmp(&got->v[i], &want->v[i]) && bad++ < 3)
			fprintf(stderr, "  %s: event %zu: got %s %s %" PRId64 " +%" PRId64 ", want %s %s %" PRId64
				" +%" PRId64 "\n",
				what, i, got->v[i].plane, got->v[i].name, got->v[i].start, got->v[i].dur,
				want->v[i].plane, want->v[i].name, want->v[i].start, want->v[i].dur);
	for (i = 0; i < got->n && i < want->n; i++)
		if (rec_cmp(&got->v[i], &want->v[i]) && got->v[i].args && bad++ < 6)
			fprintf(stderr, "  %s: event %zu: args\n%s-- want\n%s", what, i, got->v[i].args,
				want->v[i].args ? want->v[i].args : "");
	CHECK_INT(bad, 0);
}

/* Invalid UTF-8 as both writers replace it (U+FFFD per bad byte). */
static char *clean(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, o = 0, k, j;
	char *out = malloc(3 * n + 1);

	while (i < n) {
		unsigned c = u[i];

		k = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
		for (j = 1; k && j < k; j++)
			if (i + j >= n || (u[i + j] & 0xc0) != 0x80)
				k = 0;
		/* overlongs and surrogates (the writers check them too; rare enough to trust the table here) */
		if (k == 3 && ((c == 0xe0 && u[i + 1] < 0xa0) || (c == 0xed && u[i + 1] >= 0xa0)))
			k = 0;
		if (k == 4 && ((c == 0xf0 && u[i + 1] < 0x90) || (c == 0xf4 && u[i + 1] >= 0x90)))
			k = 0;
		if (k) {
			memcpy(out + o, s + i, k);
			o += k;
			i += k;
		} else {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	out[o] = '\0';
	return out;
}

static int64_t ns_round(int64_t ps)
{
	return ps / 1000 + (ps % 1000 >= 500);
}

/* The model's events as the plan exports them (ps, or ns rounded). */
static void model_recs(const struct an_exp_plan *p, int ns, struct recs *r)
{
	size_t li, k;

	for (li = 0; li < p->nlines; li++) {
		const struct an_exp_line *l = &p->lines[li];
		const struct an_exp_plane *ep = &p->planes[l->plane_ix];
		const struct xp_plane *pl = &p->t->planes[ep->plane];

		for (k = 0; k < l->n; k++) {
			unsigned tr;
			const struct xp_event *e = an_exp_event(p, l, k, &tr);
			int64_t s = e->start_ps + ep->shift_ps;
			char *name, *plane;

			if (!an_exp_keeps(p, li, k, s, s + e->dur_ps, tr))
				continue;
			name = clean(xp_event_name(pl, e));
			plane = clean(pl->name);
			if (ns) {
				/* the file's clock less clock_zero_ns, rounded there */
				int64_t c = s + p->origin_sub_ps, z = p->origin_ns - p->clock_zero_ns;

				recs_add(r, plane, name, z + ns_round(c), ns_round(c + e->dur_ps) - ns_round(c));
			} else
				recs_add(r, plane, name, s, e->dur_ps);
			free(name);
			free(plane);
		}
	}
}

static int export_bytes(const struct an_exp_plan *p, enum out_exp_format f, struct out_bytes *b)
{
	size_t i;
	int ret = out_exp_head(p, f, "test", b);

	for (i = 0; i < p->npieces && !ret; i++)
		ret = out_exp_piece(p, i, f, b);
	return ret ? ret : out_exp_tail(p, f, b);
}

/* ---- JSON read back ------------------------------------------------------------- */

/* A slice as a viewer sees it: a thread and ns times. */
struct slice {
	double pid, tid;
	long long start, end;
};

struct slices {
	struct slice *v;
	size_t n, cap;
};

static void slices_add(struct slices *s, double pid, double tid, long long start, long long dur)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->n].pid = pid;
	s->v[s->n].tid = tid;
	s->v[s->n].start = start;
	s->v[s->n++].end = start + dur;
}

static int slice_cmp(const void *a, const void *b)
{
	const struct slice *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end > y->end ? -1 : x->end < y->end;
}

/* Slices of one thread that overlap without nesting: what Perfetto would not show. */
static size_t partial_overlaps(struct slices *s)
{
	long long *stack = malloc((s->n + 1) * sizeof(*stack));
	size_t i, depth = 0, bad = 0;

	qsort(s->v, s->n, sizeof(*s->v), slice_cmp);
	for (i = 0; i < s->n; i++) {
		if (i && (s->v[i].pid != s->v[i - 1].pid || s->v[i].tid != s->v[i - 1].tid))
			depth = 0;
		while (depth && stack[depth - 1] <= s->v[i].start)
			depth--;
		if (depth && stack[depth - 1] < s->v[i].end)
			bad++;
		stack[depth++] = s->v[i].end;
	}
	free(stack);
	return bad;
}

static void json_recs(const struct an_exp_plan *p, const char *text, struct recs *r, size_t *meta,
		      struct slices *perfetto, struct recs *ra)
{
	cJSON *doc = cJSON_Parse(text), *ev, *pname;
	char pids[64][256];
	double pidv[64];
	size_t npids = 0, i;

	*meta = 0;
	CHECK(doc != NULL);
	if (!doc)
		return;
	/* process names first: metadata events come before the others */
	cJSON_ArrayForEach(ev, cJSON_GetObjectItem(doc, "traceEvents")) {
		const char *ph = cJSON_GetStringValue(cJSON_GetObjectItem(ev, "ph"));

		if (ph && !strcmp(ph, "M")) {
			++*meta;
			if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(ev, "name")), "process_name") && npids < 64) {
				pname = cJSON_GetObjectItem(cJSON_GetObjectItem(ev, "args"), "name");
				snprintf(pids[npids], sizeof(pids[0]), "%s", cJSON_GetStringValue(pname));
				pidv[npids++] = cJSON_GetNumberValue(cJSON_GetObjectItem(ev, "pid"));
			}
			continue;
		}
		CHECK(ph && !strcmp(ph, "X"));
		{
			double pid = cJSON_GetNumberValue(cJSON_GetObjectItem(ev, "pid"));
			cJSON *args = cJSON_GetObjectItem(ev, "args");
			const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(args, "long_name"));
			const char *plane = "?";
			double ts = cJSON_GetNumberValue(cJSON_GetObjectItem(ev, "ts"));
			double dur = cJSON_GetNumberValue(cJSON_GetObjectItem(ev, "dur"));
			cJSON *exact = cJSON_GetObjectItem(args, "dur_ps");
			int64_t dur_ps = exact ? (int64_t)cJSON_GetNumberValue(exact) : (int64_t)llround(dur * 1e6);

			if (!name)
				name = cJSON_GetStringValue(cJSON_GetObjectItem(ev, "name"));
			for (i = 0; i < npids; i++)
				if (pidv[i] == pid)
					plane = pids[i];
			recs_add(r, plane, name ? name : "?", (int64_t)llround(ts * 1e6), dur_ps);
			if (ra) {
				/* with its arguments, at .pftrace's times (model_recs) */
				int64_t s = (int64_t)llround(ts * 1e6) + p->origin_sub_ps, z = p->origin_ns - p->clock_zero_ns;
				struct args a = {0};
				cJSON *v;

				cJSON_ArrayForEach(v, args) {
					if (cJSON_IsString(v))
						args_add(&a, v->string, v->valuestring, strlen(v->valuestring));
					else if (cJSON_IsNumber(v))
						args_num(&a, v->string, v->valuedouble);
					else
						args_add(&a, v->string, "null", 4);
				}
				recs_add(ra, plane, name ? name : "?", z + ns_round(s), ns_round(s + dur_ps) - ns_round(s));
				ra->v[ra->n - 1].args = args_text(&a);
			}
			/* as Perfetto's JSON importer reads it: ts and dur each rounded to the ns */
			if (perfetto)
				slices_add(perfetto, pid, cJSON_GetNumberValue(cJSON_GetObjectItem(ev, "tid")),
					   llround(ts * 1000), llround(dur * 1000));
		}
	}
	cJSON_Delete(doc);
}

/* ---- Perfetto read back ------------------------------------------------------------ */

/* The counter events pf_recs imported last: their track's name, time (ns) and value. */
static struct ctr_ev {
	char name[64];
	uint64_t ts;
	double v;
} ctr_evs[64];
static size_t nctr_evs;

struct pf_ev {
	uint64_t ts;
	size_t pos;		/* in the file */
	int begin;
	uint64_t track;
	char *name;		/* the long name when the event has one */
	char *args;		/* args_text */
};

static int pf_ev_cmp(const void *a, const void *b)
{
	const struct pf_ev *x = a, *y = b;
	int c = xp_cmp_u64(x->ts, y->ts);

	return c ? c : xp_cmp_u64(x->pos, y->pos);
}

struct pf_track {
	uint64_t uuid, parent;
	char *name;
	char **open;		/* the open slices' names, innermost last */
	char **open_args;
	uint64_t *open_ts;
	size_t nopen;
};

static char *bin_str(ProtobufCBinaryData d)
{
	char *s = malloc(d.len + 1);

	if (d.len)	/* protobuf-c gives empty bytes a NULL pointer */
		memcpy(s, d.data, d.len);
	s[d.len] = '\0';
	return s;
}

/* One packet sequence's interned tables, defaults and clock. */
struct seqstate {
	char **names, **keys, **strs;
	size_t nnames, nkeys, nstrs;
	int cleared;
	int has_track, has_clock_id, has_clock;
	uint64_t track;		/* TrackEventDefaults.track_uuid */
	uint32_t clock_id;	/* TracePacketDefaults.timestamp_clock_id */
	int incremental;	/* the sequence's clock (64-127), from its snapshot */
	uint64_t clock, clock_at, boot_at;	/* its value now; the snapshot's, and BOOTTIME's there */
};

static void table_put(char ***t, size_t *n, uint64_t iid, ProtobufCBinaryData v)
{
	if (iid >= *n) {
		*t = realloc(*t, (iid + 1) * sizeof(**t));
		memset(*t + *n, 0, (iid + 1 - *n) * sizeof(**t));
		*n = iid + 1;
	}
	free((*t)[iid]);
	(*t)[iid] = bin_str(v);
}

/* table_put where an iid interned before must come again with the same string. */
static void table_put_same(char ***t, size_t *n, uint64_t iid, ProtobufCBinaryData v)
{
	char *s = bin_str(v);

	CHECK(iid >= *n || !(*t)[iid] || !strcmp((*t)[iid], s));
	free(s);
	table_put(t, n, iid, v);
}

static void seq_clear(struct seqstate *q)
{
	size_t j;

	for (j = 0; j < q->nnames; j++)
		free(q->names[j]);
	for (j = 0; j < q->nkeys; j++)
		free(q->keys[j]);
	for (j = 0; j < q->nstrs; j++)
		free(q->strs[j]);
	free(q->names);
	free(q->keys);
	free(q->strs);
	memset(q, 0, sizeof(*q));
}

/*
 * Imports a .pftrace as Perfetto documents it; checks what the format
 * requires on the way: interned ids resolved on their own sequence after it
 * was cleared, an id never naming two strings on one sequence, begins and
 * ends balanced per track.
 */
static void pf_recs(const struct out_bytes *b, struct recs *r, size_t *ntracks, size_t *max_depth, struct recs *ra)
{
	Perfetto__Protos__Trace *tr = perfetto__protos__trace__unpack(NULL, b->n, b->p);
	struct pf_track *tk = NULL;
	struct pf_ev *ev = NULL;
	struct seqstate *seqs = NULL;
	size_t nseqs = 0, ntk = 0, nev = 0, i, j, k;

	*ntracks = 0;
	*max_depth = 0;
	nctr_evs = 0;
	CHECK(tr != NULL);
	if (!tr)
		return;
	tk = calloc(tr->n_packet + 1, sizeof(*tk));
	ev = calloc(tr->n_packet + 1, sizeof(*ev));
	for (i = 0; i < tr->n_packet; i++) {
		Perfetto__Protos__TracePacket *pk = tr->packet[i];
		struct seqstate *q;

		CHECK(pk->has_trusted_packet_sequence_id && pk->trusted_packet_sequence_id > 0);
		if (pk->trusted_packet_sequence_id >= nseqs) {
			size_t n = pk->trusted_packet_sequence_id + 1;

			seqs = realloc(seqs, n * sizeof(*seqs));
			memset(seqs + nseqs, 0, (n - nseqs) * sizeof(*seqs));
			nseqs = n;
		}
		q = &seqs[pk->trusted_packet_sequence_id];
		if (pk->track_descriptor) {
			Perfetto__Protos__TrackDescriptor *td = pk->track_descriptor;

			for (j = 0; j < ntk; j++)
				CHECK(tk[j].uuid != td->uuid);	/* each track described once, its own uuid */
			tk[ntk].uuid = td->uuid;
			tk[ntk].parent = td->has_parent_uuid ? td->parent_uuid : 0;
			tk[ntk].name = td->process ? bin_str(td->process->process_name) : bin_str(td->name);
			tk[ntk].open = calloc(tr->n_packet + 1, sizeof(char *));
			tk[ntk].open_ts = calloc(tr->n_packet + 1, sizeof(uint64_t));
			tk[ntk].open_args = calloc(tr->n_packet + 1, sizeof(char *));
			/* a line's track is never merged with a sibling of its name; a counter's has its own */
			CHECK(td->process || td->counter ||
			      (td->has_sibling_merge_behavior && td->sibling_merge_behavior == 2));
			ntk++;
		}
		if (pk->has_sequence_flags && (pk->sequence_flags & 1)) {
			/* ids named before must keep naming the same strings: keep the tables to compare */
			CHECK(!q->cleared);	/* the writer gives each sequence its own id: cleared once */
			q->cleared = 1;
			q->has_track = q->has_clock_id = 0;	/* defaults are incremental state */
		}
		if (pk->trace_packet_defaults) {
			Perfetto__Protos__TracePacketDefaults *d = pk->trace_packet_defaults;

			q->has_clock_id = d->has_timestamp_clock_id;
			q->clock_id = d->timestamp_clock_id;
			q->has_track = d->track_event_defaults && d->track_event_defaults->has_track_uuid;
			q->track = q->has_track ? d->track_event_defaults->track_uuid : 0;
		}
		if (pk->clock_snapshot) {
			/* a sequence's own clock, and BOOTTIME (the trace's) at the same moment */
			int boot = 0, own = 0;

			for (j = 0; j < pk->clock_snapshot->n_clocks; j++) {
				Perfetto__Protos__ClockSnapshot__Clock *c = pk->clock_snapshot->clocks[j];

				if (c->clock_id == 6) {
					boot = 1;
					q->boot_at = c->timestamp;
				} else if (c->clock_id >= 64 && c->clock_id < 128) {
					CHECK(!q->has_clock_id || c->clock_id == q->clock_id);
					own = 1;
					q->clock = q->clock_at = c->timestamp;
					q->incremental = c->has_is_incremental && c->is_incremental;
				}
			}
			CHECK(boot && own);
			q->has_clock = boot && own;
		}
		if (pk->interned_data) {
			Perfetto__Protos__InternedData *id = pk->interned_data;

			for (j = 0; j < id->n_event_names; j++)
				table_put_same(&q->names, &q->nnames, id->event_names[j]->iid,
					       id->event_names[j]->name);
			for (j = 0; j < id->n_debug_annotation_names; j++)
				table_put(&q->keys, &q->nkeys, id->debug_annotation_names[j]->iid,
					  id->debug_annotation_names[j]->name);
			for (j = 0; j < id->n_debug_annotation_string_values; j++) {
				Perfetto__Protos__InternedString *v = id->debug_annotation_string_values[j];

				table_put_same(&q->strs, &q->nstrs, v->iid, v->str);
			}
		}
		if (pk->track_event) {
			Perfetto__Protos__TrackEvent *te = pk->track_event;
			struct pf_ev *e = &ev[nev++];
			struct args args = {0};

			CHECK(pk->has_timestamp);
			/*
			 * every event depends on the sequence's state (interned names, its
			 * defaults): cleared before, on its sequence; the flag that says so
			 * only makes a reader skip packets where a sequence lost its state
			 */
			CHECK(q->cleared);
			if (pk->has_timestamp_clock_id || !q->has_clock_id || q->clock_id == 6) {
				CHECK(!pk->has_timestamp_clock_id || pk->timestamp_clock_id == 6);
				e->ts = pk->timestamp;
			} else {
				/* the sequence's clock: a delta from its last value when incremental */
				CHECK(q->has_clock);
				q->clock = q->incremental ? q->clock + pk->timestamp : pk->timestamp;
				e->ts = q->clock - q->clock_at + q->boot_at;
			}
			e->pos = i;
			CHECK(te->has_track_uuid || q->has_track);
			e->track = te->has_track_uuid ? te->track_uuid : q->track;
			if (te->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER) {
				/* a value on a counter track described before (its own uuid, not the sequence's) */
				struct ctr_ev *c = nctr_evs < 64 ? &ctr_evs[nctr_evs++] : NULL;

				CHECK(te->has_track_uuid && te->has_double_counter_value && c);
				for (j = 0; c && j < ntk; j++)
					if (tk[j].uuid == te->track_uuid && tk[j].name)
						snprintf(c->name, sizeof(c->name), "%s", tk[j].name);
				CHECK(c && c->name[0]);
				if (c) {
					c->ts = e->ts;
					c->v = te->double_counter_value;
				}
				nev--;
				continue;
			}
			e->begin = te->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN;
			CHECK(e->begin || te->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END);
			if (!e->begin)
				continue;
			CHECK(te->has_name_iid && te->name_iid < q->nnames && q->names[te->name_iid]);
			if (te->has_name_iid && te->name_iid < q->nnames && q->names[te->name_iid])
				e->name = strdup(q->names[te->name_iid]);
			for (j = 0; j < te->n_debug_annotations; j++) {
				Perfetto__Protos__DebugAnnotation *a = te->debug_annotations[j];
				const char *key = a->has_name_iid && a->name_iid < q->nkeys && q->keys[a->name_iid]
							  ? q->keys[a->name_iid]
							  : "?";

				if (a->has_uint_value)
					args_num(&args, key, (double)a->uint_value);
				else if (a->has_int_value)
					args_num(&args, key, (double)a->int_value);
				else if (a->has_double_value)
					args_num(&args, key, a->double_value);
				else if (a->has_string_value)
					args_add(&args, key, (const char *)a->string_value.data, a->string_value.len);
				else if (a->has_string_value_iid && a->string_value_iid < q->nstrs &&
					 q->strs[a->string_value_iid])
					args_add(&args, key, q->strs[a->string_value_iid],
						 strlen(q->strs[a->string_value_iid]));
				else
					CHECK(0);	/* an annotation without a value */

				CHECK(a->has_name_iid && a->name_iid < q->nkeys && q->keys[a->name_iid]);
				CHECK(!a->has_string_value_iid ||
				      (a->string_value_iid < q->nstrs && q->strs[a->string_value_iid]));
				if (a->has_name_iid && a->name_iid < q->nkeys && q->keys[a->name_iid] &&
				    !strcmp(q->keys[a->name_iid], "long_name") && a->has_string_value_iid &&
				    a->string_value_iid < q->nstrs && q->strs[a->string_value_iid]) {
					free(e->name);
					e->name = strdup(q->strs[a->string_value_iid]);
				}
			}
			e->args = args_text(&args);
		}
	}
	qsort(ev, nev, sizeof(*ev), pf_ev_cmp);
	for (i = 0; i < nev; i++) {
		struct pf_track *t = NULL, *proc = NULL;

		for (j = 0; j < ntk; j++)
			if (tk[j].uuid == ev[i].track)
				t = &tk[j];
		CHECK(t != NULL);
		if (!t)
			continue;
		for (k = 0; k < ntk; k++)
			if (tk[k].uuid == t->parent)
				proc = &tk[k];
		if (ev[i].begin) {
			t->open[t->nopen] = ev[i].name;
			t->open_args[t->nopen] = ev[i].args;
			t->open_ts[t->nopen++] = ev[i].ts;
			ev[i].name = NULL;
			ev[i].args = NULL;
			if (t->nopen > *max_depth)
				*max_depth = t->nopen;
		} else {
			CHECK(t->nopen > 0);	/* an end with nothing open */
			if (!t->nopen)
				continue;
			t->nopen--;
			recs_add(r, proc ? proc->name : "?", t->open[t->nopen] ? t->open[t->nopen] : "?",
				 (int64_t)t->open_ts[t->nopen], (int64_t)(ev[i].ts - t->open_ts[t->nopen]));
			if (ra) {
				recs_add(ra, proc ? proc->name : "?", t->open[t->nopen] ? t->open[t->nopen] : "?",
					 (int64_t)t->open_ts[t->nopen], (int64_t)(ev[i].ts - t->open_ts[t->nopen]));
				ra->v[ra->n - 1].args = t->open_args[t->nopen];
			} else {
				free(t->open_args[t->nopen]);
			}
			free(t->open[t->nopen]);
		}
	}
	for (j = 0; j < ntk; j++) {
		CHECK_INT(tk[j].nopen, 0);
		*ntracks += tk[j].parent != 0;
		free(tk[j].name);
		free(tk[j].open);
		free(tk[j].open_args);
		free(tk[j].open_ts);
	}
	for (i = 0; i < nev; i++) {
		free(ev[i].name);
		free(ev[i].args);
	}
	for (j = 0; j < nseqs; j++)
		seq_clear(&seqs[j]);
	free(seqs);
	free(tk);
	free(ev);
	perfetto__protos__trace__free_unpacked(tr, NULL);
}

/* The gzip writer's bytes inflate to the JSON writer's. */
static void check_gzip(const struct an_exp_plan *p, const struct out_bytes *json)
{
	struct out_bytes raw = {0}, gz = {0};
	struct out_gz g = {0, 0};
	struct out_gz_piece pc;
	unsigned char *back = malloc(json->n + 1);
	uLongf n = (uLongf)json->n;
	z_stream z;
	size_t i;

	out_gz_header(&gz);
	CHECK_INT(out_exp_head(p, OUT_EXP_JSON_GZ, "test", &raw), 0);
	for (i = 0; i <= p->npieces; i++) {
		if (i < p->npieces)
			CHECK_INT(out_exp_piece(p, i, OUT_EXP_JSON_GZ, &raw), 0);
		else
			CHECK_INT(out_exp_tail(p, OUT_EXP_JSON_GZ, &raw), 0);
		CHECK_INT(out_gz_deflate(raw.p, raw.n, 6, &pc), 0);
		out_gz_add(&g, &pc);
		out_bytes_put(&gz, pc.z.p, pc.z.n);
		out_bytes_release(&pc.z);
		raw.n = 0;
	}
	out_gz_trailer(&g, &gz);
	memset(&z, 0, sizeof(z));
	CHECK_INT(inflateInit2(&z, 16 + 15), Z_OK);
	z.next_in = gz.p;
	z.avail_in = (uInt)gz.n;
	z.next_out = back;
	z.avail_out = (uInt)n + 1;
	CHECK_INT(inflate(&z, Z_FINISH), Z_STREAM_END);	/* the trailer's CRC and length checked by zlib */
	CHECK_INT(z.total_out, json->n);
	CHECK_INT(z.avail_in, 0);
	CHECK(z.total_out == json->n && !memcmp(back, json->p, json->n));
	inflateEnd(&z);
	free(back);
	out_bytes_release(&raw);
	out_bytes_release(&gz);
}

/*
 * The pieces follow their rule (an_export.h), recomputed from the model:
 * each plane's events in line order, once, in pieces of at most
 * AN_EXP_PIECE_EVENTS events and AN_EXP_PIECE_WEIGHT weight (1 per event, 1
 * per own or metadata stat), unless one event alone; and each cut where the
 * next event would break one of the two. Returns the cuts the weight made.
 */
static size_t check_pieces(const struct an_exp_plan *p, const char *what)
{
	size_t pi, li, k, c = 0, by_weight = 0, bad = 0;

	for (pi = 0; pi < p->nplanes; pi++) {
		const struct an_exp_plane *ep = &p->planes[pi];
		const struct xp_plane *pl = &p->t->planes[ep->plane];
		size_t fill = 0;
		uint64_t weight = 0;
		int open = 0;

		for (li = ep->first_line; li < ep->first_line + ep->nlines; li++) {
			const struct an_exp_line *l = &p->lines[li];

			for (k = 0; k < l->n; k++) {
				const struct xp_event *e =
					&pl->events[pl->lines[l->line].first_event + (l->order ? l->order[k] : k)];
				uint64_t w = (uint64_t)1 + e->nstats + pl->evmetas[e->meta].nstats;
				int cut = !open || fill == AN_EXP_PIECE_EVENTS || weight + w > AN_EXP_PIECE_WEIGHT;

				if (cut) {
					/* the piece before ends here, the next starts here */
					if (open && !(p->pieces[c].last_line == li ? p->pieces[c].to == k
									  : p->pieces[c].last_line + 1 == li && k == 0 &&
										    p->pieces[c].to == p->lines[li - 1].n))
						bad++;
					if (open) {
						by_weight += fill < AN_EXP_PIECE_EVENTS;
						c++;
					}
					if (c >= p->npieces || p->pieces[c].first_line != li || p->pieces[c].from != k) {
						bad++;
						goto out;
					}
					open = 1;
					fill = 0;
					weight = 0;
				}
				fill++;
				weight += w;
			}
		}
		if (open) {
			/* the plane's last piece ends with its last line */
			size_t last = ep->first_line + ep->nlines - 1;

			if (c >= p->npieces || p->pieces[c].last_line != last || p->pieces[c].to != p->lines[last].n)
				bad++;
			c++;
		}
	}
out:
	if (bad || c != p->npieces)
		fprintf(stderr, "  %s: pieces not cut as their rule says (%zu of %zu)\n", what, c, p->npieces);
	CHECK_INT(bad, 0);
	CHECK_INT(c, p->npieces);
	return by_weight;
}

/* Exports t both ways and checks each read-back against the model. */
static void round_trip(const struct xp_trace *t, const struct an_exp_opts *o, const char *what,
		       size_t *tracks_out)
{
	struct an_exp_plan p;
	struct xp_err err = {0};
	struct out_bytes json = {0}, pf = {0};
	struct recs got = {0}, want = {0}, json_args = {0}, pf_args = {0};
	struct slices sl = {0};
	size_t meta, ntracks, depth, li, tracks = 0, kept_planes = 0;

	CHECK_INT(an_exp_plan(t, o, &p, &err), 0);
	check_pieces(&p, what);
	for (li = 0; li < p.nlines; li++) {
		tracks += (size_t)__builtin_popcountll(p.lines[li].kept_tracks);
		CHECK(p.lines[li].ntracks == 64 || p.lines[li].kept_tracks >> p.lines[li].ntracks == 0);
	}
	for (li = 0; li < p.nplanes; li++) {
		size_t j;
		uint64_t any = 0;

		for (j = p.planes[li].first_line; j < p.planes[li].first_line + p.planes[li].nlines; j++)
			any |= p.lines[j].kept_tracks;
		kept_planes += any != 0;
	}
	if (tracks_out)
		*tracks_out = tracks;
	CHECK_INT(export_bytes(&p, OUT_EXP_JSON, &json), 0);
	out_bytes_put(&json, "", 1);
	json.n--;
	json_recs(&p, (const char *)json.p, &got, &meta, &sl, &json_args);
	CHECK_INT(partial_overlaps(&sl), 0);
	free(sl.v);
	CHECK_INT(p.exported + p.left_device + p.left_window + p.left_max + p.left_overlap, p.total);
	CHECK_INT(meta, 2 * kept_planes + 2 * tracks);	/* only processes and threads with events */
	model_recs(&p, 0, &want);
	CHECK_INT(want.n, p.exported);
	check_same(&got, &want, what);
	recs_free(&got);
	recs_free(&want);
	check_gzip(&p, &json);

	CHECK_INT(export_bytes(&p, OUT_EXP_PFTRACE, &pf), 0);
	pf_recs(&pf, &got, &ntracks, &depth, &pf_args);
	CHECK_INT(ntracks, tracks);
	model_recs(&p, 1, &want);
	check_same(&got, &want, what);
	check_same(&pf_args, &json_args, what);	/* every argument, as JSON has it */
	recs_free(&got);
	recs_free(&want);
	recs_free(&pf_args);
	recs_free(&json_args);
	out_bytes_release(&json);
	out_bytes_release(&pf);
	an_exp_plan_release(&p);
}

/*
 * A .pftrace written plane by plane, as export streams a trace: each plane
 * planned alone (in reverse order here: no order is assumed), its sequences
 * numbered after the planes before it, with every plane's pid and the whole
 * trace's clock zero. It must import as the whole plan's export does:
 * the same events, times, arguments and tracks, no sequence id or track
 * uuid given twice.
 */
static void by_planes(const struct xp_trace *t, const char *what)
{
	struct an_exp_opts o = {0};
	struct an_exp_plan whole, p;
	struct xp_err err = {0};
	struct out_bytes all = {0}, pf = {0};
	struct recs got = {0}, want = {0}, got_args = {0}, want_args = {0};
	int64_t *pids = NULL;
	uint64_t tracks = 0, exported = 0, total = 0;
	size_t i, k, ntracks, nwhole, depth;

	CHECK_INT(an_exp_plan(t, &o, &whole, &err), 0);
	CHECK_INT(an_exp_pids(t, &pids), 0);
	o.have_plane = 1;
	o.pids = pids;
	o.have_clock_zero = 1;
	o.clock_zero_ns = whole.clock_zero_ns;
	for (i = t->nplanes; i-- > 0;) {
		o.plane = i;
		o.first_track = tracks;
		CHECK_INT(an_exp_plan(t, &o, &p, &err), 0);
		CHECK(p.nplanes <= 1);
		tracks += p.npiece_tracks;
		exported += p.exported;
		total += p.total;
		CHECK_INT(out_exp_pf_fits(&p), OUT_EXP_PF_FITS);
		CHECK_INT(out_exp_head(&p, OUT_EXP_PFTRACE, "test", &all), 0);
		for (k = 0; k < p.npieces; k++)
			CHECK_INT(out_exp_piece(&p, k, OUT_EXP_PFTRACE, &all), 0);
		an_exp_plan_release(&p);
	}
	CHECK_INT(tracks, whole.npiece_tracks);
	CHECK_INT(exported, whole.exported);
	CHECK_INT(total, whole.total);
	pf_recs(&all, &got, &ntracks, &depth, &got_args);
	CHECK_INT(export_bytes(&whole, OUT_EXP_PFTRACE, &pf), 0);
	pf_recs(&pf, &want, &nwhole, &depth, &want_args);
	CHECK_INT(ntracks, nwhole);
	check_same(&got, &want, what);
	check_same(&got_args, &want_args, what);
	recs_free(&want);
	model_recs(&whole, 1, &want);
	check_same(&got, &want, what);
	recs_free(&got);
	recs_free(&want);
	recs_free(&got_args);
	recs_free(&want_args);
	out_bytes_release(&all);
	out_bytes_release(&pf);
	free(pids);
	an_exp_plan_release(&whole);
}

/* The .pftrace start and end (ns) of the event whose name starts with name, as imported; 0 if none or several. */
static int pf_times(const struct an_exp_plan *p, const char *name, int64_t *start, int64_t *end)
{
	struct out_bytes b = {0};
	struct recs r = {0};
	size_t i, ntracks, depth, found = 0;

	CHECK_INT(export_bytes(p, OUT_EXP_PFTRACE, &b), 0);
	pf_recs(&b, &r, &ntracks, &depth, NULL);
	for (i = 0; i < r.n; i++)
		if (!strncmp(r.v[i].name, name, strlen(name))) {
			*start = r.v[i].start;
			*end = r.v[i].start + r.v[i].dur;
			found++;
		}
	recs_free(&r);
	out_bytes_release(&b);
	return found == 1;
}

/* ---- EXPECTED.md section 23 ------------------------------------------------------ */

static const struct an_exp_line *line_named(const struct an_exp_plan *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nlines; i++) {
		const struct xp_plane *pl = &p->t->planes[p->planes[p->lines[i].plane_ix].plane];

		if (!strcmp(pl->lines[p->lines[i].line].name, name))
			return &p->lines[i];
	}
	return NULL;
}

/*
 * Without a window or cut, the plan keeps what layer_line laid without a
 * pass over the events; a window over all time takes that pass (every
 * event in it) and must keep the same: counts and each line's tracks.
 */
static void same_plans(const struct xp_trace *t, const char *what)
{
	struct an_exp_opts o = {0}, all = {0};
	struct an_exp_plan a, b;
	struct xp_err err = {0};
	size_t i;

	all.have_from = all.have_to = 1;
	all.from_ps = INT64_MIN;
	all.to_ps = INT64_MAX;
	CHECK_INT(an_exp_plan(t, &o, &a, &err), 0);
	CHECK_INT(an_exp_plan(t, &all, &b, &err), 0);
	CHECK_INT(a.exported, b.exported);
	CHECK_INT(a.left_overlap, b.left_overlap);
	CHECK_INT(b.left_window, 0);
	CHECK_INT(a.exported + a.left_overlap, a.total - a.left_device);
	CHECK_INT(a.nlines, b.nlines);
	CHECK_INT(a.npiece_tracks, b.npiece_tracks);
	for (i = 0; i < a.nlines && i < b.nlines; i++)
		if (a.lines[i].kept_tracks != b.lines[i].kept_tracks) {
			fprintf(stderr, "%s: line %zu keeps tracks %#llx, with the window %#llx\n", what, i,
				(unsigned long long)a.lines[i].kept_tracks, (unsigned long long)b.lines[i].kept_tracks);
			CHECK(0);
		}
	an_exp_plan_release(&a);
	an_exp_plan_release(&b);
}

static void synth(void)
{
	char path[4096];
	struct xp_trace *t;
	struct an_exp_plan p;
	struct an_exp_opts o = {0};
	struct xp_err err = {0};
	const struct an_exp_line *l;
	size_t k, tracks;
	/* by start order: outer, the markup name, inner, mark, cross, after */
	static const unsigned want_track[] = {0, 0, 1, 0, 1, 0};
	static const int64_t want_start[] = {0, 0, US(2), US(5), US(8) + 123, US(10)};

	snprintf(path, sizeof(path), "%s/export.xplane.pb", SYNTH_DIR);
	if (!(t = test_load(path, &xp_reader_protobuf_c)))
		return;
	CHECK_INT(an_exp_plan(t, &o, &p, &err), 0);
	CHECK_INT(p.total, 8);
	CHECK_INT(p.exported, 8);
	CHECK_INT(p.origin_ns, 1000);
	CHECK_INT(p.origin_sub_ps, 0);
	CHECK_INT(p.nplanes, 3);
	if (p.nplanes == 3) {
		CHECK_INT(p.planes[0].pid, 1);
		CHECK_INT(p.planes[1].pid, 701);
		CHECK_INT(p.planes[2].pid, 501);
	}
	l = line_named(&p, "Stream #7");
	CHECK(l != NULL);
	if (l) {
		CHECK_INT(l->n, 6);
		CHECK_INT(l->ntracks, 2);
		CHECK(l->order != NULL);	/* the file's order is not the start order */
		CHECK_INT(l->tid0, 7);
		CHECK_INT(l->tid_extra, (int64_t)1 << 30);
		for (k = 0; k < l->n && k < 6; k++) {
			unsigned tr;
			const struct xp_event *e = an_exp_event(&p, l, k, &tr);

			CHECK_INT(tr, want_track[k]);
			CHECK_INT(e->start_ps + p.planes[l->plane_ix].shift_ps, want_start[k]);
		}
	}
	{
		/* .pftrace: the file's own clock, rounded to the ns (EXPECTED.md) */
		int64_t s0 = 0, e0 = 0;

		CHECK_INT(p.clock_zero_ns, 0);
		CHECK_INT(an_exp_clock_zero(t), 0);
		CHECK(pf_times(&p, "cross", &s0, &e0));
		CHECK_INT(s0, 9000);
		CHECK(pf_times(&p, "thing", &s0, &e0));
		CHECK_INT(e0, 4001);
	}
	an_exp_plan_release(&p);
	round_trip(t, &o, "export.xplane.pb", &tracks);
	CHECK_INT(tracks, 4);
	same_plans(t, "export.xplane.pb");
	by_planes(t, "export.xplane.pb");

	/* A window from 4.5 us to 9 us: outer (0-10), inner (2-5), mark (5) and cross (8-14). */
	o.have_from = o.have_to = 1;
	o.from_ps = US(9) / 2;
	o.to_ps = US(9);
	CHECK_INT(an_exp_plan(t, &o, &p, &err), 0);
	CHECK_INT(p.exported, 4);
	CHECK_INT(p.left_window, 4);
	an_exp_plan_release(&p);
	round_trip(t, &o, "export window", NULL);
	/* --max-events 3: outer and the markup name start together at 0 with inner... */
	memset(&o, 0, sizeof(o));
	o.max_events = 3;
	CHECK_INT(an_exp_plan(t, &o, &p, &err), 0);
	CHECK_INT(p.exported, 3);	/* starts 0, 0, 1 us (host); the next starts at 2 us */
	CHECK_INT(p.left_max, 5);
	an_exp_plan_release(&p);
	o.max_events = 1;	/* two events tie at 0: the line's start order decides (outer) */
	CHECK_INT(an_exp_plan(t, &o, &p, &err), 0);
	CHECK_INT(p.exported, 1);
	CHECK_INT(p.left_max, 7);
	CHECK(p.cut_line == 0 && p.cut_pos == 1 && p.cut_start == 0);	/* the markup name, next in line 0 */
	an_exp_plan_release(&p);
	memset(&o, 0, sizeof(o));
	o.device = "host";
	CHECK_INT(an_exp_plan(t, &o, &p, &err), 0);
	CHECK_INT(p.exported, 1);
	CHECK_INT(p.left_device, 7);
	CHECK_INT(p.origin_ns, 2000);	/* the host event's start */
	an_exp_plan_release(&p);
	xp_trace_free(t);
}

/* EXPECTED.md section 23a. */
static void edges(void)
{
	char path[4096];
	struct xp_trace *t;
	struct an_exp_plan p;
	struct an_exp_opts o = {0};
	struct xp_err err = {0};
	struct out_bytes json = {0};
	size_t i, tracks;

	snprintf(path, sizeof(path), "%s/export_edges.xplane.pb", SYNTH_DIR);
	if (!(t = test_load(path, &xp_reader_protobuf_c)))
		return;
	CHECK_INT(an_exp_plan(t, &o, &p, &err), 0);
	CHECK_INT(p.total, 70076);
	CHECK_INT(p.exported, 70076);
	CHECK_INT(p.origin_ns, -1);
	CHECK_INT(p.origin_sub_ps, 1);
	CHECK_INT(p.clock_zero_ns, -1);	/* .pftrace times cannot be negative: from the first start's ns */
	CHECK_INT(an_exp_clock_zero(t), -1);
	CHECK_INT(p.nlines, 5);
	if (p.nlines == 5) {
		CHECK_INT(p.lines[0].tid0, 5);
		CHECK_INT(p.lines[1].tid0, ((int64_t)1 << 30) + 64);	/* the second line of id 5 */
		CHECK_INT(p.lines[2].tid0, ((int64_t)1 << 30) + 128);	/* id 2^31 */
		CHECK_INT(p.lines[3].tid0, 9);
		CHECK_INT(p.lines[3].n, 70070);
	}
	/* 70,076 events of one plane: a first piece of 65,536 (lines 0-3), then the rest (3-4) */
	CHECK_INT(p.npieces, 2);
	if (p.npieces == 2) {
		CHECK(p.pieces[0].first_line == 0 && p.pieces[0].from == 0 && p.pieces[0].last_line == 3 &&
		      p.pieces[0].to == 65533);
		CHECK(p.pieces[1].first_line == 3 && p.pieces[1].from == 65533 && p.pieces[1].last_line == 4 &&
		      p.pieces[1].to == 3);
	}
	CHECK_INT(export_bytes(&p, OUT_EXP_JSON, &json), 0);
	out_bytes_put(&json, "", 1);
	CHECK(strstr((const char *)json.p, "\"origin_ns\":\"-0.999\"") != NULL);
	for (i = 0; i < p.nlines; i++)
		CHECK_INT(p.lines[i].ntracks, 1);
	out_bytes_release(&json);
	an_exp_plan_release(&p);
	round_trip(t, &o, "export_edges.xplane.pb", &tracks);
	CHECK_INT(tracks, 5);
	same_plans(t, "export_edges.xplane.pb");
	by_planes(t, "export_edges.xplane.pb");
	/* --max-events cutting inside the second piece, and a window over the long line */
	o.max_events = 66000;
	round_trip(t, &o, "export_edges max", NULL);
	memset(&o, 0, sizeof(o));
	o.have_from = o.have_to = 1;
	o.from_ps = US(100);
	o.to_ps = US(600);
	round_trip(t, &o, "export_edges window", NULL);
	xp_trace_free(t);
}

/* The pieces of trace t's plan (with no option) into *out (npieces of them); 0, or -1 after a failed check. */
static int plan_pieces(const struct xp_trace *t, struct an_exp_piece **out, size_t *n)
{
	struct an_exp_plan p;
	struct an_exp_opts o = {0};
	struct xp_err err = {0};

	*out = NULL;
	*n = 0;
	CHECK_INT(an_exp_plan(t, &o, &p, &err), 0);
	if (!p.npieces || !(*out = malloc(p.npieces * sizeof(**out)))) {
		an_exp_plan_release(&p);
		CHECK(0);
		return -1;
	}
	memcpy(*out, p.pieces, p.npieces * sizeof(**out));
	*n = p.npieces;
	CHECK_INT(check_pieces(&p, "export_heavy.xplane.pb"), 2);
	an_exp_plan_release(&p);
	return 0;
}

/*
 * Pieces cut by weight (export_heavy): events of weight 16 (1, 1 own stat,
 * 14 of their metadata's), 16,384 to a piece of 262,144; line 0 has
 * 20,000 in start order, line 1 20,000 in reverse order. The same from the
 * wire reader with the stats left in the input, as export reads.
 */
static void heavy(void)
{
	char path[4096];
	struct xp_trace *t, *ti = NULL;
	struct an_exp_opts o = {0};
	struct xp_read_opts in = {.reader = &xp_reader_wire, .event_stats = XP_EVSTATS_INPUT};
	struct xp_buf buf = {0};
	struct xp_err err = {0};
	struct an_exp_piece *pc, *pci;
	size_t n, ni;

	snprintf(path, sizeof(path), "%s/export_heavy.xplane.pb", SYNTH_DIR);
	if (!(t = test_load(path, &xp_reader_protobuf_c)))
		return;
	if (!plan_pieces(t, &pc, &n)) {
		/* 16,384 | 3,616 of line 0 and 12,768 (204,288 / 16) of line 1 | its last 7,232 */
		CHECK_INT(n, 3);
		if (n == 3) {
			CHECK(pc[0].first_line == 0 && pc[0].from == 0 && pc[0].last_line == 0 && pc[0].to == 16384);
			CHECK(pc[1].first_line == 0 && pc[1].from == 16384 && pc[1].last_line == 1 &&
			      pc[1].to == 12768);
			CHECK(pc[2].first_line == 1 && pc[2].from == 12768 && pc[2].last_line == 1 &&
			      pc[2].to == 20000);
		}
		CHECK_INT(xp_buf_load(path, XP_DEFAULT_MAX_INPUT, &buf, &err), 0);
		CHECK_INT(xp_trace_read_opts(&in, buf.data, buf.len, &ti, &err), 0);
		if (ti && !plan_pieces(ti, &pci, &ni)) {
			CHECK(ni == n && !memcmp(pci, pc, n * sizeof(*pc)));
			free(pci);
		}
		xp_trace_free(ti);
		xp_buf_release(&buf);
		free(pc);
	}
	round_trip(t, &o, "export_heavy.xplane.pb", NULL);
	by_planes(t, "export_heavy.xplane.pb");
	xp_trace_free(t);
}

static void real(const char *file)
{
	char path[4096];
	struct xp_trace *t;
	struct an_exp_opts o = {0};

	snprintf(path, sizeof(path), "%s/real/%s", TESTDATA_DIR, file);
	if (!(t = test_load(path, &xp_reader_protobuf_c)))
		return;
	round_trip(t, &o, file, NULL);
	same_plans(t, file);
	by_planes(t, file);
	xp_trace_free(t);
}

/* The X events of a JSON export: pid, ts and dur (us), in document order. */
static size_t json_slices(const struct out_bytes *b, double (*v)[3], size_t max, size_t *procs_a, size_t *procs_b)
{
	cJSON *doc = cJSON_ParseWithLength((const char *)b->p, b->n), *e;
	size_t n = 0;

	*procs_a = *procs_b = 0;
	CHECK(doc != NULL);
	cJSON_ArrayForEach(e, cJSON_GetObjectItem(doc, "traceEvents")) {
		const char *ph = cJSON_GetStringValue(cJSON_GetObjectItem(e, "ph"));
		const char *what = cJSON_GetStringValue(cJSON_GetObjectItem(e, "name"));
		cJSON *args = cJSON_GetObjectItem(e, "args");
		const char *pname = args ? cJSON_GetStringValue(cJSON_GetObjectItem(args, "name")) : NULL;

		if (ph && !strcmp(ph, "M") && what && !strcmp(what, "process_name") && pname) {
			*procs_a += !strncmp(pname, "a:/", 3);
			*procs_b += !strncmp(pname, "b:/", 3);
		}
		if (ph && !strcmp(ph, "X") && n < max) {
			v[n][0] = cJSON_GetNumberValue(cJSON_GetObjectItem(e, "pid"));
			v[n][1] = cJSON_GetNumberValue(cJSON_GetObjectItem(e, "ts"));
			v[n][2] = cJSON_GetNumberValue(cJSON_GetObjectItem(e, "dur"));
			n++;
		}
	}
	cJSON_Delete(doc);
	return n;
}

/*
 * Two hosts on one timeline, as export writes a run's: the synthetic trace
 * twice (hosts a and b), a common origin 1 us before its first start, the
 * second's pids 1000 past the first's and its planes after the first's in
 * the .pftrace track uuids. The .pftrace imports with every track described
 * once (pf_recs checks), twice the tracks and events of one, each event
 * under its host's process at its own time; the JSON names each host's 3
 * processes and gives every event of one export twice, 1 us later, the
 * second time with the pid 1000 past.
 */
static void two_hosts(void)
{
	char path[4096];
	struct xp_trace *t;
	struct an_exp_plan one, p[2];
	const struct an_exp_plan *pp[2] = {&p[0], &p[1]};
	struct an_exp_opts o = {0};
	struct xp_err err = {0};
	struct out_bytes pf1 = {0}, pf2 = {0}, js1 = {0}, js2 = {0};
	struct recs got1 = {0}, got2 = {0}, a1 = {0}, a2 = {0};
	int64_t *pids[2] = {NULL, NULL};
	double v1[16][3], v2[32][3];
	size_t n1, n2, tr1, tr2, depth, i, k, pa, pb;

	snprintf(path, sizeof(path), "%s/export.xplane.pb", SYNTH_DIR);
	if (!(t = test_load(path, &xp_reader_protobuf_c)))
		return;
	CHECK_INT(an_exp_plan(t, &o, &one, &err), 0);
	CHECK_INT(export_bytes(&one, OUT_EXP_PFTRACE, &pf1), 0);
	CHECK_INT(export_bytes(&one, OUT_EXP_JSON, &js1), 0);
	for (k = 0; k < 2; k++) {
		CHECK_INT(an_exp_pids(t, &pids[k]), 0);
		for (i = 0; i < t->nplanes; i++)
			pids[k][i] += (int64_t)k * 1000;
		o.pids = pids[k];
		o.have_origin = 1;
		o.origin_ns = one.origin_ns - 1000;
		o.origin_sub_ps = one.origin_sub_ps;
		o.name_prefix = k ? "b" : "a";
		o.plane_base = k * t->nplanes;
		o.first_track = k ? p[0].npiece_tracks : 0;
		o.have_clock_zero = 1;
		o.clock_zero_ns = one.clock_zero_ns;
		CHECK_INT(an_exp_plan(t, &o, &p[k], &err), 0);
		CHECK_INT(out_exp_pf_fits(&p[k]), OUT_EXP_PF_FITS);
		CHECK_INT(out_exp_head(&p[k], OUT_EXP_PFTRACE, "test", &pf2), 0);
		for (i = 0; i < p[k].npieces; i++)
			CHECK_INT(out_exp_piece(&p[k], i, OUT_EXP_PFTRACE, &pf2), 0);
	}
	pf_recs(&pf1, &got1, &tr1, &depth, &a1);
	pf_recs(&pf2, &got2, &tr2, &depth, &a2);
	CHECK_INT(tr2, 2 * tr1);
	CHECK_INT(got2.n, 2 * got1.n);
	for (i = 0; i < got2.n; i++) {
		int host_b = !strncmp(got2.v[i].plane, "b:", 2);

		CHECK(host_b || !strncmp(got2.v[i].plane, "a:", 2));
		/* the same event of one export: its plane without the host, its name and times */
		for (k = 0; k < got1.n; k++)
			if (!strcmp(got1.v[k].plane, got2.v[i].plane + 2) && !strcmp(got1.v[k].name, got2.v[i].name) &&
			    got1.v[k].start == got2.v[i].start && got1.v[k].dur == got2.v[i].dur)
				break;
		CHECK(k < got1.n);
	}
	/* JSON: one document over both */
	CHECK_INT(out_exp_head_json(pp, 2, "test", &js2), 0);
	for (k = 0; k < 2; k++)
		for (i = 0; i < p[k].npieces; i++)
			CHECK_INT(out_exp_piece(&p[k], i, OUT_EXP_JSON, &js2), 0);
	CHECK_INT(out_exp_tail(&p[0], OUT_EXP_JSON, &js2), 0);
	n1 = json_slices(&js1, v1, 16, &pa, &pb);
	CHECK_INT(pa + pb, 0);
	n2 = json_slices(&js2, v2, 32, &pa, &pb);
	CHECK_INT(pa, 3);
	CHECK_INT(pb, 3);
	CHECK_INT(n1, one.exported);
	CHECK_INT(n2, 2 * n1);
	for (i = 0; i < n2 && n2 == 2 * n1; i++) {
		const double *w = v1[i % n1];

		CHECK(v2[i][0] == w[0] + (i < n1 ? 0 : 1000));
		CHECK(v2[i][1] == w[1] + 1);
		CHECK(v2[i][2] == w[2]);
	}
	for (k = 0; k < 2; k++) {
		an_exp_plan_release(&p[k]);
		free(pids[k]);
	}
	an_exp_plan_release(&one);
	recs_free(&got1);
	recs_free(&got2);
	recs_free(&a1);
	recs_free(&a2);
	out_bytes_release(&pf1);
	out_bytes_release(&pf2);
	out_bytes_release(&js1);
	out_bytes_release(&js2);
	xp_trace_free(t);
}

/* The value of counter name at ts (ns from the first sample of it), from ctr_evs; -1 when absent. */
static double ctr_at(const char *name, uint64_t ts)
{
	uint64_t first = UINT64_MAX;
	size_t i;

	for (i = 0; i < nctr_evs; i++)
		if (!strcmp(ctr_evs[i].name, name) && ctr_evs[i].ts < first)
			first = ctr_evs[i].ts;
	for (i = 0; i < nctr_evs; i++)
		if (!strcmp(ctr_evs[i].name, name) && ctr_evs[i].ts - first == ts)
			return ctr_evs[i].v;
	return -1;
}

/*
 * Counters (EXPECTED.md section 26): the samples of "_counters_" lines are
 * counter events, not slices: JSON "C" events of the process, .pftrace
 * counter tracks (one per counter, children of the process) with a value at
 * each sample's time; the sample without a value is left out and counted.
 */
static void counters(void)
{
	char path[4096];
	struct xp_trace *t;
	struct an_exp_plan p;
	struct an_exp_opts o = {0};
	struct xp_err err = {0};
	struct out_bytes json = {0}, pf = {0};
	struct recs r = {0};
	size_t tracks, depth, nc = 0;
	cJSON *doc, *ev;

	snprintf(path, sizeof(path), "%s/counters.xplane.pb", SYNTH_DIR);
	if (!(t = test_load(path, &xp_reader_protobuf_c)))
		return;
	CHECK_INT(an_exp_plan(t, &o, &p, &err), 0);
	CHECK_INT(p.total, 11);
	CHECK_INT(p.counter_no_value, 1);
	CHECK_INT(p.exported, 10);
	CHECK_INT(export_bytes(&p, OUT_EXP_JSON, &json), 0);
	out_bytes_put(&json, "", 1);
	doc = cJSON_Parse((const char *)json.p);
	CHECK(doc != NULL);
	cJSON_ArrayForEach(ev, cJSON_GetObjectItem(doc, "traceEvents")) {
		const char *ph = cJSON_GetStringValue(cJSON_GetObjectItem(ev, "ph"));
		const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(ev, "name"));
		double ts = cJSON_GetNumberValue(cJSON_GetObjectItem(ev, "ts"));
		double v = cJSON_GetNumberValue(cJSON_GetObjectItem(cJSON_GetObjectItem(ev, "args"), "value"));

		if (!ph || strcmp(ph, "C"))
			continue;
		nc++;
		CHECK(cJSON_GetObjectItem(ev, "tid") == NULL && cJSON_GetObjectItem(ev, "dur") == NULL);
		if (name && !strcmp(name, "mxu_busy") && ts == 10.0)
			CHECK(v == 30);
		if (name && !strcmp(name, "sm_active") && ts == 0.0)
			CHECK(v == 50);	/* the metadata's counter_value */
		CHECK(!name || strcmp(name, "bad"));	/* no value: not written */
	}
	CHECK_INT(nc, 8);
	cJSON_Delete(doc);
	CHECK_INT(export_bytes(&p, OUT_EXP_PFTRACE, &pf), 0);
	pf_recs(&pf, &r, &tracks, &depth, NULL);
	CHECK_INT(r.n, 2);	/* the slices: jit_f(1) and fusion.1 */
	CHECK_INT(nctr_evs, 8);
	CHECK(ctr_at("mxu_busy", 0) == 10 && ctr_at("mxu_busy", 10000) == 30 && ctr_at("mxu_busy", 40000) == 20);
	CHECK(ctr_at("hbm_bw", 0) == 1.5 && ctr_at("hbm_bw", 20000) == 2.5);
	CHECK(ctr_at("vpu_ops", 0) == 7);
	CHECK(ctr_at("sm_active", 0) == 50 && ctr_at("sm_active", 10000) == 70);
	recs_free(&r);
	out_bytes_release(&json);
	out_bytes_release(&pf);
	an_exp_plan_release(&p);
	xp_trace_free(t);
	/* two counter lines, two metadata of one name: one counter, one track described once */
	snprintf(path, sizeof(path), "%s/counters_dup.xplane.pb", SYNTH_DIR);
	if (!(t = test_load(path, &xp_reader_protobuf_c)))
		return;
	CHECK_INT(an_exp_plan(t, &o, &p, &err), 0);
	CHECK_INT(export_bytes(&p, OUT_EXP_PFTRACE, &pf), 0);
	pf_recs(&pf, &r, &tracks, &depth, NULL);	/* checks each track is described once */
	CHECK_INT(nctr_evs, 4);
	CHECK(ctr_at("c", 0) == 10 && ctr_at("c", 10000) == 30 && ctr_at("c", 20000) == 20 &&
	      ctr_at("c", 30000) == 40);
	recs_free(&r);
	out_bytes_release(&pf);
	an_exp_plan_release(&p);
	xp_trace_free(t);
}

int main(void)
{
	synth();
	counters();
	two_hosts();
	edges();
	heavy();
	real("mi300x_jax_conv.xplane.pb");
	real("mi300x_jax_elementwise.xplane.pb");
	real("mi300x_jax_gemm.xplane.pb");
	real("tpu_v6e_inference.xplane.pb");
	real("v100_tf_bert.xplane.pb");
	return test_done("export");
}

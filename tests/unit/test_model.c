/* SPDX-License-Identifier: Apache-2.0 */
/*
 * xp_model and the protobuf-c reader: time base, stat resolution, metadata
 * edge cases. Inputs are built here with protobuf-c's encoder.
 */
#include <stdlib.h>

#include "an_exec.h"
#include "test.h"
#include "xp_model.h"
#include "xplane.pb-c.h"

typedef Tensorflow__Profiler__XStat PbStat;
typedef Tensorflow__Profiler__XEvent PbEvent;
typedef Tensorflow__Profiler__XLine PbLine;
typedef Tensorflow__Profiler__XPlane PbPlane;
typedef Tensorflow__Profiler__XPlane__EventMetadataEntry PbEmEntry;
typedef Tensorflow__Profiler__XPlane__StatMetadataEntry PbSmEntry;
typedef Tensorflow__Profiler__XEventMetadata PbEm;
typedef Tensorflow__Profiler__XStatMetadata PbSm;

/* Stat metadata ids: 1 hlo_module, 2 program_id, 3 "jit_ref_target" (a ref target). */
static PbSm sm_vals[3];
static PbSmEntry sm_ent[3];
static PbSmEntry *sm_ptrs[3];

static void init_stat_metadata(PbPlane *p)
{
	static const char *names[3] = {"hlo_module", "program_id", "jit_ref_target"};
	int i;

	for (i = 0; i < 3; i++) {
		tensorflow__profiler__xstat_metadata__init(&sm_vals[i]);
		sm_vals[i].id = i + 1;
		sm_vals[i].name = (char *)names[i];
		tensorflow__profiler__xplane__stat_metadata_entry__init(&sm_ent[i]);
		sm_ent[i].key = i + 1;
		sm_ent[i].value = &sm_vals[i];
		sm_ptrs[i] = &sm_ent[i];
	}
	p->n_stat_metadata = 3;
	p->stat_metadata = sm_ptrs;
}

static void int_stat(PbStat *s, int64_t meta, int64_t v)
{
	tensorflow__profiler__xstat__init(s);
	s->metadata_id = meta;
	s->value_case = TENSORFLOW__PROFILER__XSTAT__VALUE_INT64_VALUE;
	s->int64_value = v;
}

static void event(PbEvent *e, int64_t meta, int64_t off, int64_t dur)
{
	tensorflow__profiler__xevent__init(e);
	e->metadata_id = meta;
	e->data_case = TENSORFLOW__PROFILER__XEVENT__DATA_OFFSET_PS;
	e->offset_ps = off;
	e->duration_ps = dur;
}

/* em named name, and ent holding it under key. */
static void event_md(PbEm *em, PbEmEntry *ent, int64_t key, const char *name)
{
	tensorflow__profiler__xevent_metadata__init(em);
	em->name = (char *)name;
	tensorflow__profiler__xplane__event_metadata_entry__init(ent);
	ent->key = key;
	ent->value = em;
}

/* l at ts_ns holding the n events evp. */
static void line(PbLine *l, int64_t ts_ns, PbEvent **evp, size_t n)
{
	tensorflow__profiler__xline__init(l);
	l->timestamp_ns = ts_ns;
	l->n_events = n;
	l->events = evp;
}

/* Packs a one-plane XSpace and reads it back; returns the reader's code. */
/* Reads p with the reader r (NULL: the default). */
static int read_with(const struct xp_reader *r, PbPlane *p, struct xp_trace **t, struct xp_err *err)
{
	Tensorflow__Profiler__XSpace s = TENSORFLOW__PROFILER__XSPACE__INIT;
	PbPlane *planes[1] = {p};
	size_t len;
	uint8_t *buf;
	int ret;

	s.n_planes = 1;
	s.planes = planes;
	len = tensorflow__profiler__xspace__get_packed_size(&s);
	buf = malloc(len + 1);
	tensorflow__profiler__xspace__pack(&s, buf);
	memset(err, 0, sizeof(*err));
	ret = xp_trace_read(r, buf, len, t, err);
	free(buf);
	return ret;
}

static int roundtrip(PbPlane *p, struct xp_trace **t, struct xp_err *err)
{
	return read_with(NULL, p, t, err);
}

/* Two lines 1000 ns apart at epoch scale; metadata stats, overrides and ref values. */
static void test_epoch_and_stats(void)
{
	PbPlane p = TENSORFLOW__PROFILER__XPLANE__INIT;
	PbLine l[2], *lp[2] = {&l[0], &l[1]};
	PbEvent e[3], *ep0[2] = {&e[0], &e[1]}, *ep1[1] = {&e[2]};
	PbEm em;
	PbEmEntry eme, *emp[1] = {&eme};
	PbStat ms, es, ref, *msp[1] = {&ms}, *esp[2] = {&es, &ref};
	struct xp_trace *t;
	struct xp_err err;
	const struct xp_plane *pl;
	const struct xp_stat *st;
	uint64_t v;
	size_t len;
	const char *s;

	init_stat_metadata(&p);
	p.name = "/device:GPU:0";
	event_md(&em, &eme, 10, "kernel(77)");
	em.id = 10;
	int_stat(&ms, 2, 7);	/* metadata-level program_id 7 */
	em.n_stats = 1;
	em.stats = msp;
	p.n_event_metadata = 1;
	p.event_metadata = emp;
	event(&e[0], 10, 5000, 2000);
	event(&e[1], 10, 9000, 1000);
	int_stat(&es, 2, 8);	/* e[1] overrides program_id */
	tensorflow__profiler__xstat__init(&ref);
	ref.metadata_id = 1;	/* hlo_module = ref to "jit_ref_target" */
	ref.value_case = TENSORFLOW__PROFILER__XSTAT__VALUE_REF_VALUE;
	ref.ref_value = 3;
	e[1].n_stats = 2;
	e[1].stats = esp;
	event(&e[2], 10, 0, 500);
	line(&l[0], 1700000000123456789LL, ep0, 2);
	l[0].name = "Stream #1(Compute)";
	line(&l[1], 1700000000123457789LL, ep1, 1);	/* + 1000 ns */
	l[1].name = "Stream #2(Compute)";
	p.n_lines = 2;
	p.lines = lp;

	CHECK_INT(roundtrip(&p, &t, &err), 0);
	if (!t)
		return;
	pl = &t->planes[0];
	CHECK_INT(pl->base_ns, 1700000000123456789LL);
	CHECK_INT(pl->nevents, 3);
	CHECK_INT(pl->events[0].start_ps, 5000);
	CHECK_INT(pl->events[1].start_ps, 9000);
	CHECK_INT(pl->events[2].start_ps, 1000000);	/* 1000 ns later line, offset 0 */
	CHECK_STR(xp_event_name(pl, &pl->events[0]), "kernel(77)");
	st = xp_event_stat(pl, &pl->events[0], XP_K_PROGRAM_ID);
	CHECK(st && !xp_stat_u64(st, &v) && v == 7);
	st = xp_event_stat(pl, &pl->events[1], XP_K_PROGRAM_ID);
	CHECK(st && !xp_stat_u64(st, &v) && v == 8);
	CHECK(xp_event_stat(pl, &pl->events[0], XP_K_HLO_MODULE) == NULL);
	st = xp_event_stat(pl, &pl->events[1], XP_K_HLO_MODULE);
	s = st ? xp_stat_str(pl, st, &len) : NULL;
	CHECK_STR(s, "jit_ref_target");
	CHECK(xp_event_stat(pl, &pl->events[0], XP_K_RUN_ID) == NULL);
	xp_trace_free(t);
}

/* Lines 1.7e18 ns apart cannot share an int64 picosecond base: an error, not a wrong number. */
static void test_time_overflow(void)
{
	PbPlane p = TENSORFLOW__PROFILER__XPLANE__INIT;
	PbLine l[2], *lp[2] = {&l[0], &l[1]};
	PbEvent e[2], *ep0[1] = {&e[0]}, *ep1[1] = {&e[1]};
	struct xp_trace *t;
	struct xp_err err;

	p.name = "/device:GPU:0";
	event(&e[0], 1, 0, 10);
	event(&e[1], 1, 0, 10);
	line(&l[0], 0, ep0, 1);
	line(&l[1], 1700000000000000000LL, ep1, 1);
	p.n_lines = 2;
	p.lines = lp;
	CHECK_INT(roundtrip(&p, &t, &err), XP_ERR_LIMIT);
	CHECK(t == NULL);
	CHECK(strstr(err.msg, "int64 picoseconds") != NULL);
}

static void test_bad_events(void)
{
	PbPlane p = TENSORFLOW__PROFILER__XPLANE__INIT;
	PbLine l, *lp[1] = {&l};
	PbEvent e[2], *ep[2] = {&e[0], &e[1]};
	struct xp_trace *t;
	struct xp_err err;

	p.name = "/device:GPU:0";
	line(&l, 0, ep, 2);
	p.n_lines = 1;
	p.lines = lp;
	/*
	 * An aggregated event (num_occurrences) has no start: kept apart, with
	 * its count and total, and counted. Metadata 99 and 0 are missing.
	 */
	event(&e[0], 99, 100, 10);
	tensorflow__profiler__xevent__init(&e[1]);
	e[1].data_case = TENSORFLOW__PROFILER__XEVENT__DATA_NUM_OCCURRENCES;
	e[1].num_occurrences = 3;
	e[1].duration_ps = 70;
	CHECK_INT(roundtrip(&p, &t, &err), 0);
	if (t) {
		CHECK_INT(t->planes[0].nevents, 1);
		CHECK_INT(t->planes[0].naggs, 1);
		CHECK_INT(t->planes[0].lines[0].naggs, 1);
		CHECK_INT(t->planes[0].aggs[0].occurrences, 3);
		CHECK_INT(t->planes[0].aggs[0].dur_ps, 70);
		CHECK_INT(t->planes[0].aggs[0].self_ps, -1);
		CHECK_INT(t->planes[0].aggs[0].line, 0);
		CHECK_INT(t->counts.aggregated_events, 1);
		CHECK_INT(t->counts.events_missing_metadata, 2);
		CHECK_STR(xp_event_name(&t->planes[0], &t->planes[0].events[0]), "");
		xp_trace_free(t);
	}
	/* A negative duration is invalid input. */
	event(&e[0], 1, 100, -5);
	l.n_events = 1;
	CHECK_INT(roundtrip(&p, &t, &err), XP_ERR_FORMAT);
	CHECK(strstr(err.msg, "negative duration") != NULL);
}

/*
 * Aggregated events (AggregateXPlane's): occurrences and total kept, the
 * self and min durations read from their stats by name; a self time over
 * the total is unreadable (counted, taken as absent); a negative count is
 * refused. Both readers the same.
 */
static void test_aggregated(void)
{
	static const char *names[2] = {"self_duration_ps", "min_duration_ps"};
	const struct xp_reader *readers[2] = {&xp_reader_wire, &xp_reader_protobuf_c};
	PbPlane p = TENSORFLOW__PROFILER__XPLANE__INIT;
	PbSm sm[2];
	PbSmEntry sme[2], *smp[2] = {&sme[0], &sme[1]};
	PbLine l, *lp[1] = {&l};
	PbEvent e[3], *ep[3] = {&e[0], &e[1], &e[2]};
	PbStat st[3], *s0[2] = {&st[0], &st[1]}, *s1[1] = {&st[2]};
	struct xp_trace *t;
	struct xp_err err;
	int i, k;

	for (i = 0; i < 2; i++) {
		tensorflow__profiler__xstat_metadata__init(&sm[i]);
		sm[i].id = 5 + i;
		sm[i].name = (char *)names[i];
		tensorflow__profiler__xplane__stat_metadata_entry__init(&sme[i]);
		sme[i].key = 5 + i;
		sme[i].value = &sm[i];
	}
	p.name = "/device:TPU:0";
	p.n_stat_metadata = 2;
	p.stat_metadata = smp;
	line(&l, 0, ep, 3);
	p.n_lines = 1;
	p.lines = lp;
	for (i = 0; i < 3; i++) {
		tensorflow__profiler__xevent__init(&e[i]);
		e[i].data_case = TENSORFLOW__PROFILER__XEVENT__DATA_NUM_OCCURRENCES;
	}
	e[0].num_occurrences = 4;
	e[0].duration_ps = 100;
	int_stat(&st[0], 5, 60);
	int_stat(&st[1], 6, 10);
	e[0].n_stats = 2;
	e[0].stats = s0;
	e[1].num_occurrences = 2;
	e[1].duration_ps = 50;
	int_stat(&st[2], 5, 80);	/* more than its total */
	e[1].n_stats = 1;
	e[1].stats = s1;
	event(&e[2], 0, 7, 3);		/* a timed event beside them */
	for (k = 0; k < 2; k++) {
		CHECK_INT(read_with(readers[k], &p, &t, &err), 0);
		if (!t)
			continue;
		CHECK_INT(t->planes[0].nevents, 1);
		CHECK_INT(t->planes[0].naggs, 2);
		CHECK_INT(t->planes[0].aggs[0].occurrences, 4);
		CHECK_INT(t->planes[0].aggs[0].dur_ps, 100);
		CHECK_INT(t->planes[0].aggs[0].self_ps, 60);
		CHECK_INT(t->planes[0].aggs[0].min_ps, 10);
		CHECK_INT(t->planes[0].aggs[1].self_ps, -1);
		CHECK_INT(t->planes[0].aggs[1].min_ps, -1);
		CHECK_INT(t->counts.aggregated_events, 2);
		CHECK_INT(t->planes[0].aggs[0].odd, 0);
		CHECK_INT(t->planes[0].aggs[1].odd, 1);
		xp_trace_free(t);
	}
	e[1].num_occurrences = -2;
	for (k = 0; k < 2; k++) {
		CHECK_INT(read_with(readers[k], &p, &t, &err), XP_ERR_FORMAT);
		CHECK(strstr(err.msg, "negative count of occurrences") != NULL);
	}
}

static void test_duplicate_metadata(void)
{
	PbPlane p = TENSORFLOW__PROFILER__XPLANE__INIT;
	PbEm em[2];
	PbEmEntry ent[2], *ep[2] = {&ent[0], &ent[1]};
	PbLine l, *lp[1] = {&l};
	PbEvent e, *evp[1] = {&e};
	struct xp_trace *t;
	struct xp_err err;
	int i;

	p.name = "/device:TPU:0";
	for (i = 0; i < 2; i++)
		event_md(&em[i], &ent[i], 5, i ? "second" : "first");
	p.n_event_metadata = 2;
	p.event_metadata = ep;
	event(&e, 5, 0, 1);
	line(&l, 0, evp, 1);
	p.n_lines = 1;
	p.lines = lp;
	CHECK_INT(roundtrip(&p, &t, &err), 0);
	if (t) {
		/* A protobuf map keeps the last entry of a repeated key. */
		CHECK_STR(xp_event_name(&t->planes[0], &t->planes[0].events[0]), "second");
		CHECK_INT(t->counts.duplicate_metadata, 1);
		xp_trace_free(t);
	}
}

/* Ids too sparse for a table (1 and 2^40) are found by binary search; a missing one is the sentinel. */
static void test_sparse_ids(void)
{
	PbPlane p = TENSORFLOW__PROFILER__XPLANE__INIT;
	PbEm em[2];
	PbEmEntry ent[2], *ep[2] = {&ent[0], &ent[1]};
	PbLine l, *lp[1] = {&l};
	PbEvent e[3], *evp[3] = {&e[0], &e[1], &e[2]};
	static const int64_t ids[2] = {(int64_t)1 << 40, 1};
	struct xp_trace *t;
	struct xp_err err;
	int i;

	p.name = "/device:TPU:0";
	for (i = 0; i < 2; i++)
		event_md(&em[i], &ent[i], ids[i], i ? "small" : "big");
	p.n_event_metadata = 2;
	p.event_metadata = ep;
	event(&e[0], (int64_t)1 << 40, 0, 1);
	event(&e[1], 1, 5, 1);
	event(&e[2], 7, 9, 1);
	line(&l, 0, evp, 3);
	p.n_lines = 1;
	p.lines = lp;
	CHECK_INT(roundtrip(&p, &t, &err), 0);
	if (t) {
		CHECK(t->planes[0].evmeta_ix.tab == NULL);
		CHECK_STR(xp_event_name(&t->planes[0], &t->planes[0].events[0]), "big");
		CHECK_STR(xp_event_name(&t->planes[0], &t->planes[0].events[1]), "small");
		CHECK_STR(xp_event_name(&t->planes[0], &t->planes[0].events[2]), "");
		CHECK_INT(t->counts.events_missing_metadata, 1);
		xp_trace_free(t);
	}
}

static void test_garbage(void)
{
	static const unsigned char junk[] = {0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01};
	struct xp_trace *t;
	struct xp_err err = {0};

	CHECK_INT(xp_trace_read(NULL, junk, sizeof(junk), &t, &err), XP_ERR_FORMAT);
	CHECK(t == NULL);
}

static void test_names(void)
{
	struct xp_arena a;
	const char *fp, *n;

	xp_arena_init(&a);
	n = an_split_fingerprint(&a, "jit_f(123)", &fp);
	CHECK_STR(n, "jit_f");
	CHECK_STR(fp, "123");
	{	/* without a suffix the name is copied too: executions outlive their trace */
		const char plain[] = "jit_f(12a)";

		n = an_split_fingerprint(&a, plain, &fp);
		CHECK_STR(n, "jit_f(12a)");
		CHECK(n != plain);
		CHECK(fp == NULL);
	}
	n = an_split_fingerprint(&a, "jit_f()", &fp);
	CHECK(fp == NULL);
	n = an_split_fingerprint(&a, "(5)", &fp);
	CHECK(fp == NULL);
	xp_arena_release(&a);
	CHECK(an_device_matches("/device:TPU:1", "tpu:1"));
	CHECK(!an_device_matches("/device:TPU:10", "TPU:1"));
	CHECK(an_device_matches("/device:TPU:10", "TPU:10"));
	CHECK(an_device_matches("/device:GPU:3", "gpu"));
	CHECK(!an_device_matches("/device:GPU:3", "tpu"));
	CHECK(an_is_device_plane("/device:CUSTOM:foo"));
	CHECK(!an_is_device_plane("/host:CPU"));
}

int main(void)
{
	test_epoch_and_stats();
	test_time_overflow();
	test_bad_events();
	test_duplicate_metadata();
	test_aggregated();
	test_sparse_ids();
	test_garbage();
	test_names();
	return test_done("test_model");
}

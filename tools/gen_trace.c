/* SPDX-License-Identifier: Apache-2.0 */
/* gen_trace - the XSpace builder the trace generators share (gen_trace.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* program_invocation_short_name */
#endif

#include <errno.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Messages name the generator that runs this. */
#define GEN_NAME program_invocation_short_name
#include "gen_trace.h"

void *gen_alloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p)
		die("out of memory");
	return p;
}

XSpace *gen_space_new(const char *hostname)
{
	XSpace *sp = gen_alloc(sizeof(*sp));

	tensorflow__profiler__xspace__init(sp);
	if (hostname)
		PUSH(sp->hostnames, sp->n_hostnames, xstrdup(hostname));
	return sp;
}

struct gen_plane gen_plane_add(XSpace *sp, int64_t id, const char *name, int64_t base_ns)
{
	struct gen_plane p;

	p.xp = gen_alloc(sizeof(*p.xp));
	tensorflow__profiler__xplane__init(p.xp);
	p.xp->id = id;
	p.xp->name = xstrdup(name);
	p.base_ns = base_ns;
	PUSH(sp->planes, sp->n_planes, p.xp);
	return p;
}

XLine *gen_line_add(struct gen_plane *p, int64_t id, const char *name, int64_t ts_ns)
{
	XLine *ln = gen_alloc(sizeof(*ln));

	tensorflow__profiler__xline__init(ln);
	ln->id = id;
	ln->display_id = id;
	ln->name = xstrdup(name);
	ln->timestamp_ns = ts_ns;
	PUSH(p->xp->lines, p->xp->n_lines, ln);
	return ln;
}

/* ---- metadata ------------------------------------------------------------------ */

XEventMetadata *gen_event_md_add(struct gen_plane *p, int64_t id, const char *name)
{
	EventMetadataEntry *e = gen_alloc(sizeof(*e));
	XEventMetadata *m = gen_alloc(sizeof(*m));

	tensorflow__profiler__xevent_metadata__init(m);
	m->id = id;
	m->name = xstrdup(name);
	tensorflow__profiler__xplane__event_metadata_entry__init(e);
	e->key = id;
	e->value = m;
	PUSH(p->xp->event_metadata, p->xp->n_event_metadata, e);
	return m;
}

XStatMetadata *gen_stat_md_add(struct gen_plane *p, int64_t id, const char *name)
{
	StatMetadataEntry *e = gen_alloc(sizeof(*e));
	XStatMetadata *m = gen_alloc(sizeof(*m));

	tensorflow__profiler__xstat_metadata__init(m);
	m->id = id;
	m->name = xstrdup(name);
	tensorflow__profiler__xplane__stat_metadata_entry__init(e);
	e->key = id;
	e->value = m;
	PUSH(p->xp->stat_metadata, p->xp->n_stat_metadata, e);
	return m;
}

XEventMetadata *gen_event_md(struct gen_plane *p, const char *name)
{
	XPlane *xp = p->xp;
	size_t i;

	for (i = 0; i < xp->n_event_metadata; i++)
		if (strcmp(xp->event_metadata[i]->value->name, name) == 0)
			return xp->event_metadata[i]->value;
	return gen_event_md_add(p, (int64_t)xp->n_event_metadata + 1, name);
}

int64_t gen_stat_md(struct gen_plane *p, const char *name)
{
	XPlane *xp = p->xp;
	size_t i;

	for (i = 0; i < xp->n_stat_metadata; i++)
		if (strcmp(xp->stat_metadata[i]->value->name, name) == 0)
			return xp->stat_metadata[i]->key;
	return gen_stat_md_add(p, (int64_t)xp->n_stat_metadata + 1, name)->id;
}

/* ---- events and stats ---------------------------------------------------------- */

XEvent *gen_event_add(XLine *ln, int64_t md, int64_t offset_ps, int64_t dur_ps)
{
	XEvent *ev = gen_alloc(sizeof(*ev));

	tensorflow__profiler__xevent__init(ev);
	ev->metadata_id = md;
	ev->data_case = TENSORFLOW__PROFILER__XEVENT__DATA_OFFSET_PS;
	ev->offset_ps = offset_ps;
	ev->duration_ps = dur_ps;
	PUSH(ln->events, ln->n_events, ev);
	return ev;
}

XEvent *gen_ev_add(struct gen_plane *p, XLine *ln, const char *name, int64_t start_ps, int64_t dur_ps)
{
	int64_t offset_ps = start_ps - (ln->timestamp_ns - p->base_ns) * 1000;

	if (offset_ps < 0)
		die("event %s starts before its line", name);
	return gen_event_add(ln, gen_event_md(p, name)->id, offset_ps, dur_ps);
}

XStat *gen_stat_add(size_t *n, XStat ***v, int64_t md)
{
	XStat *st = gen_alloc(sizeof(*st));

	tensorflow__profiler__xstat__init(st);
	st->metadata_id = md;
	PUSH(*v, *n, st);
	return st;
}

XStat *gen_stat_new(struct gen_plane *p, size_t *n, XStat ***v, const char *name)
{
	return gen_stat_add(n, v, gen_stat_md(p, name));
}

static void set_i64(XStat *st, int64_t val)
{
	st->value_case = TENSORFLOW__PROFILER__XSTAT__VALUE_INT64_VALUE;
	st->int64_value = val;
}

static void set_u64(XStat *st, uint64_t val)
{
	st->value_case = TENSORFLOW__PROFILER__XSTAT__VALUE_UINT64_VALUE;
	st->uint64_value = val;
}

static void set_f64(XStat *st, double val)
{
	st->value_case = TENSORFLOW__PROFILER__XSTAT__VALUE_DOUBLE_VALUE;
	st->double_value = val;
}

static void set_str(XStat *st, const char *val)
{
	st->value_case = TENSORFLOW__PROFILER__XSTAT__VALUE_STR_VALUE;
	st->str_value = xstrdup(val);
}

static void set_ref(XStat *st, uint64_t val)
{
	st->value_case = TENSORFLOW__PROFILER__XSTAT__VALUE_REF_VALUE;
	st->ref_value = val;
}

void gen_event_i64(XEvent *ev, int64_t md, int64_t val)
{
	set_i64(gen_stat_add(&ev->n_stats, &ev->stats, md), val);
}

void gen_event_str(XEvent *ev, int64_t md, const char *val)
{
	set_str(gen_stat_add(&ev->n_stats, &ev->stats, md), val);
}

void gen_event_ref(XEvent *ev, int64_t md, uint64_t val)
{
	set_ref(gen_stat_add(&ev->n_stats, &ev->stats, md), val);
}

void gen_ev_i64(struct gen_plane *p, XEvent *ev, const char *name, int64_t val)
{
	set_i64(gen_stat_new(p, &ev->n_stats, &ev->stats, name), val);
}

void gen_ev_u64(struct gen_plane *p, XEvent *ev, const char *name, uint64_t val)
{
	set_u64(gen_stat_new(p, &ev->n_stats, &ev->stats, name), val);
}

void gen_ev_f64(struct gen_plane *p, XEvent *ev, const char *name, double val)
{
	set_f64(gen_stat_new(p, &ev->n_stats, &ev->stats, name), val);
}

void gen_ev_str(struct gen_plane *p, XEvent *ev, const char *name, const char *val)
{
	set_str(gen_stat_new(p, &ev->n_stats, &ev->stats, name), val);
}

void gen_ev_ref(struct gen_plane *p, XEvent *ev, const char *name, const char *val)
{
	XStat *st = gen_stat_new(p, &ev->n_stats, &ev->stats, name);

	set_ref(st, (uint64_t)gen_stat_md(p, val));
}

void gen_md_i64(struct gen_plane *p, const char *md, const char *name, int64_t val)
{
	XEventMetadata *m = gen_event_md(p, md);

	set_i64(gen_stat_new(p, &m->n_stats, &m->stats, name), val);
}

void gen_md_bytes(struct gen_plane *p, const char *md, const char *name, const struct gen_bytes *b)
{
	XEventMetadata *m = gen_event_md(p, md);
	XStat *st = gen_stat_new(p, &m->n_stats, &m->stats, name);

	st->value_case = TENSORFLOW__PROFILER__XSTAT__VALUE_BYTES_VALUE;
	st->bytes_value.data = xrealloc(NULL, b->n ? b->n : 1);
	memcpy(st->bytes_value.data, b->p, b->n);
	st->bytes_value.len = b->n;
}

/* ---- HLO modules ------------------------------------------------------ */

Xla__HloModuleProto *gen_hlo_module(const char *name, const char *entry, int64_t entry_id)
{
	Xla__HloModuleProto *m = gen_alloc(sizeof(*m));

	xla__hlo_module_proto__init(m);
	m->name = xstrdup(name);
	m->entry_computation_name = xstrdup(entry);
	m->entry_computation_id = entry_id;
	return m;
}

Xla__HloComputationProto *gen_hlo_comp(Xla__HloModuleProto *m, const char *name, int64_t id, int64_t root_id)
{
	Xla__HloComputationProto *c = gen_alloc(sizeof(*c));

	xla__hlo_computation_proto__init(c);
	c->name = xstrdup(name);
	c->id = id;
	c->root_id = root_id;
	m->computations = xrealloc(m->computations, (m->n_computations + 1) * sizeof(*m->computations));
	m->computations[m->n_computations++] = c;
	return c;
}

Xla__HloInstructionProto *gen_hlo_instr(Xla__HloComputationProto *c, const char *name, const char *opcode,
					int64_t id, int32_t type, size_t ndims, const int64_t *dims)
{
	Xla__HloInstructionProto *i = gen_alloc(sizeof(*i));
	Xla__ShapeProto *sh = gen_alloc(sizeof(*sh));

	xla__hlo_instruction_proto__init(i);
	xla__shape_proto__init(sh);
	sh->element_type = type;
	sh->n_dimensions = ndims;
	sh->dimensions = gen_alloc((ndims ? ndims : 1) * sizeof(*dims));
	if (ndims)
		memcpy(sh->dimensions, dims, ndims * sizeof(*dims));
	i->name = xstrdup(name);
	i->opcode = xstrdup(opcode);
	i->id = id;
	i->shape = sh;
	c->instructions = xrealloc(c->instructions, (c->n_instructions + 1) * sizeof(*c->instructions));
	c->instructions[c->n_instructions++] = i;
	return i;
}

void gen_hlo_meta(Xla__HloInstructionProto *i, const char *op_name, const char *file, int32_t line, int32_t frame)
{
	Xla__OpMetadata *m = gen_alloc(sizeof(*m));

	xla__op_metadata__init(m);
	m->op_name = xstrdup(op_name);
	if (file)
		m->source_file = xstrdup(file);
	m->source_line = line;
	m->stack_frame_id = frame;
	i->metadata = m;
}

void gen_hlo_refs(Xla__HloInstructionProto *i, size_t nops, const int64_t *ops, size_t ncalls, const int64_t *calls)
{
	i->operand_ids = gen_alloc((nops ? nops : 1) * sizeof(*ops));
	if (nops)
		memcpy(i->operand_ids, ops, nops * sizeof(*ops));
	i->n_operand_ids = nops;
	i->called_computation_ids = gen_alloc((ncalls ? ncalls : 1) * sizeof(*calls));
	if (ncalls)
		memcpy(i->called_computation_ids, calls, ncalls * sizeof(*calls));
	i->n_called_computation_ids = ncalls;
}

struct gen_bytes gen_hlo_pack(Xla__HloModuleProto *m)
{
	Xla__HloProto hp;
	struct gen_bytes b;

	xla__hlo_proto__init(&hp);
	hp.hlo_module = m;
	b.n = xla__hlo_proto__get_packed_size(&hp);
	b.p = gen_alloc(b.n ? b.n : 1);
	xla__hlo_proto__pack(&hp, b.p);
	xla__hlo_module_proto__free_unpacked(m, NULL);	/* every part malloc'ed: freed as protobuf-c frees its own */
	return b;
}

void gen_md_str(struct gen_plane *p, const char *md, const char *name, const char *val)
{
	XEventMetadata *m = gen_event_md(p, md);

	set_str(gen_stat_new(p, &m->n_stats, &m->stats, name), val);
}

void gen_plane_f64(struct gen_plane *p, const char *name, double val)
{
	set_f64(gen_stat_new(p, &p->xp->n_stats, &p->xp->stats, name), val);
}

void gen_plane_i64(struct gen_plane *p, const char *name, int64_t val)
{
	set_i64(gen_stat_new(p, &p->xp->n_stats, &p->xp->stats, name), val);
}

void gen_plane_str(struct gen_plane *p, const char *name, const char *val)
{
	set_str(gen_stat_new(p, &p->xp->n_stats, &p->xp->stats, name), val);
}

/* ---- output -------------------------------------------------------------------- */

struct gen_bytes gen_space_pack(XSpace *sp)
{
	struct gen_bytes b;

	b.n = tensorflow__profiler__xspace__get_packed_size(sp);
	b.p = gen_alloc(b.n + 1);
	if (tensorflow__profiler__xspace__pack(sp, b.p) != b.n)
		die("packed size mismatch");
	/* Everything above came from malloc, so the unpacked-message freer applies. */
	protobuf_c_message_free_unpacked(&sp->base, NULL);
	return b;
}

struct gen_bytes gen_plane_pack(XPlane *xp)
{
	struct gen_bytes b;

	b.n = tensorflow__profiler__xplane__get_packed_size(xp);
	b.p = gen_alloc(b.n + 1);
	if (tensorflow__profiler__xplane__pack(xp, b.p) != b.n)
		die("packed size mismatch");
	protobuf_c_message_free_unpacked(&xp->base, NULL);
	return b;
}

void gen_write(const char *dir, const char *name, const struct gen_bytes *b)
{
	size_t plen = strlen(dir) + strlen(name) + 2;
	char *path = gen_alloc(plen);
	FILE *f;

	snprintf(path, plen, "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f)
		die("%s: %s", path, strerror(errno));
	if (b->n && fwrite(b->p, 1, b->n, f) != b->n)
		die("%s: write failed: %s", path, strerror(errno));
	if (fclose(f) != 0)
		die("%s: close failed: %s", path, strerror(errno));
	free(path);
}

void gen_space_write(XSpace *sp, const char *dir, const char *name)
{
	struct gen_bytes b = gen_space_pack(sp);

	gen_write(dir, name, &b);
	free(b.p);
}

void gen_make_dir(const char *path)
{
	if (mkdir(path, 0777) != 0 && errno != EEXIST)
		die("%s: %s", path, strerror(errno));
}

/* ---- the scenarios --------------------------------------------------------------- */

/* Whether scenario name is among the arguments from argv[2] on (or there are none). */
static int chosen(int argc, char **argv, const char *name)
{
	int a;

	for (a = 2; a < argc; a++)
		if (!strcmp(argv[a], name))
			return 1;
	return argc == 2;
}

int gen_run(int argc, char **argv, const struct gen_scenario *s, size_t n)
{
	size_t i;
	int a;

	if (argc < 2) {
		fprintf(stderr, "usage: %s OUTDIR [SCENARIO...]\n", GEN_NAME);
		return 2;
	}
	for (a = 2; a < argc; a++) {
		for (i = 0; i < n && strcmp(s[i].name, argv[a]); i++)
			;
		if (i == n)
			die("no scenario '%s'", argv[a]);
	}
	gen_make_dir(argv[1]);
	for (i = 0; i < n; i++)
		if (chosen(argc, argv, s[i].name))
			s[i].gen(argv[1]);
	return 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_trace - the XSpace builder of the trace generators (gen_synth, gen_bad):
 * planes, lines, metadata, events and stats as protobuf-c messages, packed
 * and written byte-for-byte deterministically (map entries in insertion
 * order, no clock). Everything comes from malloc and belongs to the space
 * until gen_space_pack frees it. Any failure ends the program with a message.
 *
 * Two ways to name things: by name, the metadata made on first use with ids
 * 1, 2, ... and times relative to the plane's base (gen_ev_add, gen_ev_i64,
 * ...: what gen_synth's traces are written in); or by metadata id with raw
 * offsets, duplicates and dangling ids allowed (gen_event_add,
 * gen_event_i64, ...: what gen_bad's crafted traces need).
 */
#ifndef GEN_TRACE_H
#define GEN_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "gen_common.h"		/* the XPlane types' short names; GEN_NAME first */
#include "hlo.pb-c.h"

/*
 * A plane under construction and the base its relative times refer to: the
 * smallest timestamp_ns among its lines that hold events.
 */
struct gen_plane {
	XPlane *xp;
	int64_t base_ns;
};

/* Bytes of a packed message or of hand-written wire data. */
struct gen_bytes {
	uint8_t *p;
	size_t n;
};

/* size zeroed bytes (at least one). */
void *gen_alloc(size_t size);

/* An empty space; with a hostname when hostname is not NULL. */
XSpace *gen_space_new(const char *hostname);
struct gen_plane gen_plane_add(XSpace *sp, int64_t id, const char *name, int64_t base_ns);
XLine *gen_line_add(struct gen_plane *p, int64_t id, const char *name, int64_t ts_ns);

/* Metadata entries id -> name, appended as given (a second id is a duplicate key). */
XEventMetadata *gen_event_md_add(struct gen_plane *p, int64_t id, const char *name);
XStatMetadata *gen_stat_md_add(struct gen_plane *p, int64_t id, const char *name);
/* The metadata called name, made with the next id (count + 1) on first use. */
XEventMetadata *gen_event_md(struct gen_plane *p, const char *name);
int64_t gen_stat_md(struct gen_plane *p, const char *name);

/* An event of metadata id md at offset_ps from its line's timestamp. */
XEvent *gen_event_add(XLine *ln, int64_t md, int64_t offset_ps, int64_t dur_ps);
/* An event called name over [start_ps, start_ps + dur_ps) from the plane's base. */
XEvent *gen_ev_add(struct gen_plane *p, XLine *ln, const char *name, int64_t start_ps, int64_t dur_ps);

/* A stat of metadata id md appended to the stat list (*n, *v), without a value yet. */
XStat *gen_stat_add(size_t *n, XStat ***v, int64_t md);
/* The same with the stat metadata called name. */
XStat *gen_stat_new(struct gen_plane *p, size_t *n, XStat ***v, const char *name);

/* Stats by metadata id on an event. */
void gen_event_i64(XEvent *ev, int64_t md, int64_t val);
void gen_event_str(XEvent *ev, int64_t md, const char *val);
void gen_event_ref(XEvent *ev, int64_t md, uint64_t val);

/* Stats by name: on an event, on event metadata md (shared by its events), on the plane. */
void gen_ev_i64(struct gen_plane *p, XEvent *ev, const char *name, int64_t val);
void gen_ev_u64(struct gen_plane *p, XEvent *ev, const char *name, uint64_t val);
void gen_ev_f64(struct gen_plane *p, XEvent *ev, const char *name, double val);
void gen_ev_str(struct gen_plane *p, XEvent *ev, const char *name, const char *val);
/* A ref_value stat: its value is the id of the stat metadata called val. */
void gen_ev_ref(struct gen_plane *p, XEvent *ev, const char *name, const char *val);
void gen_md_i64(struct gen_plane *p, const char *md, const char *name, int64_t val);
void gen_md_str(struct gen_plane *p, const char *md, const char *name, const char *val);
/* A bytes stat (the "Hlo Proto" of a metadata plane's module) on metadata md. */
void gen_md_bytes(struct gen_plane *p, const char *md, const char *name, const struct gen_bytes *b);

/*
 * HLO modules (proto/hlo.proto) for a metadata plane: a module, its
 * computations, their instructions (type: xla.PrimitiveType's number),
 * metadata (frame: a stack frame id, 0 none), operands and called
 * computations by id; gen_hlo_pack wraps it in an HloProto, encodes it and
 * frees the module: every part set by hand must be malloc'ed too.
 */
Xla__HloModuleProto *gen_hlo_module(const char *name, const char *entry, int64_t entry_id);
Xla__HloComputationProto *gen_hlo_comp(Xla__HloModuleProto *m, const char *name, int64_t id, int64_t root_id);
Xla__HloInstructionProto *gen_hlo_instr(Xla__HloComputationProto *c, const char *name, const char *opcode,
					int64_t id, int32_t type, size_t ndims, const int64_t *dims);
void gen_hlo_meta(Xla__HloInstructionProto *i, const char *op_name, const char *file, int32_t line, int32_t frame);
void gen_hlo_refs(Xla__HloInstructionProto *i, size_t nops, const int64_t *ops, size_t ncalls, const int64_t *calls);
struct gen_bytes gen_hlo_pack(Xla__HloModuleProto *m);
void gen_plane_f64(struct gen_plane *p, const char *name, double val);
void gen_plane_i64(struct gen_plane *p, const char *name, int64_t val);
void gen_plane_str(struct gen_plane *p, const char *name, const char *val);

/* The wire bytes of sp (or of one plane alone); frees the message. */
struct gen_bytes gen_space_pack(XSpace *sp);
struct gen_bytes gen_plane_pack(XPlane *xp);
/* b as the file dir/name. */
void gen_write(const char *dir, const char *name, const struct gen_bytes *b);
/* sp packed into the file dir/name; frees sp. */
void gen_space_write(XSpace *sp, const char *dir, const char *name);
/* The directory path, unless it is there. */
void gen_make_dir(const char *path);

/* A generator's scenario: what writes its files into dir, by name. */
struct gen_scenario {
	const char *name;
	void (*gen)(const char *dir);
};

/*
 * A generator's main: `NAME OUTDIR [SCENARIO...]` runs the scenarios named
 * (every one when none is), in table order, into OUTDIR (made when missing).
 * Returns the exit status.
 */
int gen_run(int argc, char **argv, const struct gen_scenario *s, size_t n);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The in-memory model of one XSpace file: planes, lines, events, stats.
 *
 * Ownership: a trace owns every string and array it hands out (all in its
 * arena); free only the trace. Nothing outside the readers (xp_read_*.c)
 * sees protobuf-c structs.
 *
 * Time: every event's start is int64 picoseconds relative to its plane's base,
 * start_ps = (line.timestamp_ns - plane.base_ns) * 1000 + offset_ps, where
 * base_ns is the smallest timestamp of the plane's lines that hold events.
 * Absolute picoseconds are never formed: epoch-scale timestamps (1.7e18 ns)
 * would overflow int64 when multiplied by 1000.
 */
#ifndef XP_MODEL_H
#define XP_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "xp_arena.h"
#include "xp_err.h"

enum xp_stat_type {
	XP_STAT_NONE = 0,	/* a stat with no value set */
	XP_STAT_DOUBLE,
	XP_STAT_UINT64,
	XP_STAT_INT64,
	XP_STAT_STR,
	XP_STAT_BYTES,
	XP_STAT_REF,		/* v.u names a stat-metadata entry whose name is the value */
};

struct xp_stat {
	int64_t meta_id;	/* key into the plane's stat metadata */
	uint32_t type;		/* enum xp_stat_type */
	union {
		double d;
		uint64_t u;
		int64_t i;
		struct {
			const char *p;
			uint32_t len;
		} s;
	} v;
};

/* Stats the analyses look up by name; resolved to metadata ids once per plane. */
enum xp_key {
	XP_K_HLO_MODULE,
	XP_K_PROGRAM_ID,
	XP_K_RUN_ID,
	XP_K_SCOPE_RANGE_ID,
	XP_K_CORRELATION_ID,
	XP_K_MODULE_NAME,
	XP_K_HLO_OP,
	XP_K_KERNEL_DETAILS,	/* launch configuration of a GPU kernel */
	XP_K_MEMCPY_DETAILS,	/* "size:N ..." of a copy */
	XP_K_MEMSET_DETAILS,	/* "num_bytes:N ..." of a memset (capture) */
	XP_K_HLO_CATEGORY,	/* an op's category (TPU XLA Ops) */
	XP_K_FLOPS,
	XP_K_MODEL_FLOPS,
	XP_K_BYTES_ACCESSED,
	XP_K_STEP_NUM,
	/* an allocator's MemoryAllocation / MemoryDeallocation events (an_memory.h) */
	XP_K_ALLOCATOR_NAME,
	XP_K_INDEX_ON_HOST,
	XP_K_BYTES_ALLOCATED,
	XP_K_BYTES_RESERVED,
	XP_K_BYTES_AVAILABLE,
	XP_K_PEAK_BYTES_IN_USE,
	XP_K_FRAGMENTATION,
	XP_K_REQUESTED_BYTES,
	XP_K_ALLOCATION_BYTES,
	XP_K_ADDR,
	XP_K_DATA_TYPE,
	XP_K_TF_OP,
	XP_K_SHAPE,
	XP_K_REGION_TYPE,
	XP_K_DEVICE_ORDINAL,	/* the device a host event enqueues for (TPU) */
	XP_K_ANNOTATION,	/* TensorFlow's annotation stack on a GPU kernel ("name:Type#...#::...") */
	XP_KEY_COUNT		/* at most 32: key sets are uint32_t masks */
};

struct xp_statmeta {
	int64_t id;
	const char *name;
};

struct xp_evmeta {
	int64_t id;
	const char *name;
	const char *display_name;
	uint32_t stats_first, nstats;	/* range in plane->stats */
};

struct xp_event {
	int64_t start_ps;	/* relative to the plane's base */
	int64_t dur_ps;
	uint32_t meta;		/* index into plane->evmetas */
	uint32_t line;		/* index into plane->lines */
	uint32_t stats_first, nstats;	/* range in plane->stats */
};

/*
 * An aggregated event (XEvent.num_occurrences set instead of offset_ps, as
 * XProf's AggregateXPlane writes them): the occurrences of one event
 * metadata on a line, with their total time and no start. Kept apart from
 * the events (plane->aggs): an analysis that places events in time never
 * sees one; those that count occurrences (events, ops) read them.
 */
struct xp_agg {
	uint32_t meta;		/* index into plane->evmetas */
	uint32_t line;		/* index into plane->lines */
	int64_t occurrences;	/* >= 0 (xp_plane_finish refuses less) */
	int64_t dur_ps;		/* their total time, >= 0 */
	/*
	 * The self_duration_ps stat (the total less the children's time), and
	 * min_duration_ps (written when occurrences > 1): -1 when absent or
	 * unreadable (negative, not an integer, or over dur_ps: then odd is
	 * set). Absent self time is the total: the writer leaves it out when
	 * no event nested in these.
	 */
	int64_t self_ps, min_ps;
	int odd;
};

struct xp_line {
	int64_t id;
	const char *name;
	const char *display_name;
	int64_t timestamp_ns;
	int64_t duration_ps;
	size_t first_event, nevents;	/* range in plane->events */
	int skipped;			/* events not read (xp_read_opts.want_lines) */
	size_t filtered;		/* events walked, not kept (xp_read_opts.want_host_event) */
	size_t naggs;			/* of the plane's aggs, on this line (not in nevents) */
	void *user;			/* xp_read_opts.line_events's state, or NULL */
	/*
	 * Read in pieces (the plane's events released): its events' smallest
	 * start and largest end, offsets in the line, and whether one has a
	 * negative duration or an end past int64; xp_plane_finish checks these
	 * where a whole read checks each event.
	 */
	int64_t pieces_min_start, pieces_max_end;
	int pieces_bad;
};

/*
 * Metadata id -> array index: a table when the ids are dense (the usual case),
 * else a binary search over the array sorted by id.
 */
struct xp_id_index {
	uint32_t *tab;		/* [id - min], UINT32_MAX for absent; NULL: search */
	int64_t min;
	uint64_t span;
};

struct xp_plane {
	int64_t id;
	const char *name;
	int loaded;			/* 0: deferred (lazy), only id and name are set */
	int64_t base_ns;		/* see the time note at the top */
	struct xp_line *lines;
	size_t nlines;
	struct xp_event *events;	/* line by line, each line in file order */
	size_t nevents;
	/*
	 * Aggregated events (struct xp_agg), of every line read, in file order;
	 * kept whatever want_host_event says, and when the events are released.
	 */
	struct xp_agg *aggs;
	size_t naggs;
	/* Sorted by id; one extra entry at [nevmetas] stands for a missing id. */
	struct xp_evmeta *evmetas;
	size_t nevmetas;
	struct xp_statmeta *statmetas;	/* sorted by id */
	size_t nstatmetas;
	struct xp_stat *stats;		/* pool for events, event metadata, plane */
	size_t nstats;
	uint32_t pstats_first, npstats;	/* the plane's own stats */
	int64_t key_id[XP_KEY_COUNT];
	unsigned char has_key[XP_KEY_COUNT];
	/*
	 * The keys (1 << enum xp_key) whose stats the events kept
	 * (xp_read_opts.event_stats, keys, host_keys): xp_event_stat for
	 * another is a caller's mistake, asserted in debug builds.
	 */
	uint32_t kept_keys;
	struct xp_id_index evmeta_ix, statmeta_ix;	/* built by xp_plane_index_metadata */
	/*
	 * xp_read_opts.plane_read's: what it keeps of the plane (freed with
	 * the trace by plane_user_free), and whether it released the events
	 * (events NULL, nevents and the lines' counts as read).
	 */
	void *user;
	int events_released;
	int plane_read_done_;	/* private: plane_read was called */
	/*
	 * XP_EVSTATS_INPUT: the plane's bytes in the input, from which each
	 * event's stats_first counts (its own stats are read there), and the
	 * most own stats an event has; NULL: own stats are in stats.
	 */
	const uint8_t *stats_at, *stats_end;
	uint32_t max_own_stats;
};

/*
 * Which of an event's own stats the model keeps (metadata's and planes' are
 * always kept). Every stat is still decoded and checked, and one naming
 * unknown metadata is counted either way: the modes differ in memory and
 * time only, never in what the analyses or warnings say.
 */
enum xp_event_stats {
	XP_EVSTATS_ALL = 0,	/* every stat (events --list, the readers' tests) */
	XP_EVSTATS_KEYS,	/* those of enum xp_key: all xp_event_stat can find */
	XP_EVSTATS_NONE,	/* none: names and times only (planes, events) */
	/*
	 * every stat, left in the input and decoded again by
	 * xp_event_own_stats when asked (export): no copy of them all at once.
	 * Such a plane keeps no key (kept_keys 0): xp_event_stat finds nothing.
	 */
	XP_EVSTATS_INPUT,
};

/* Facts the reader noticed and did not turn into events; reported as warnings. */
struct xp_read_counts {
	size_t aggregated_events;	/* num_occurrences events (of lines read: plane->aggs) */
	size_t events_missing_metadata;	/* metadata_id not in event_metadata */
	size_t stats_missing_metadata;	/* stat metadata_id not in stat_metadata */
	size_t duplicate_metadata;	/* repeated map keys: the last one wins */
};

struct xp_trace {
	struct xp_arena arena;
	struct xp_plane *planes;
	size_t nplanes;
	const char **hostnames;
	size_t nhostnames;
	const char **errors;	/* XSpace.errors as written by the profiler */
	size_t nerrors;
	const char **warnings;	/* XSpace.warnings */
	size_t nwarnings;
	struct xp_read_counts counts;
	/* private: for lazy planes */
	/*
	 * Per plane (NULL: none), the counts of a plane a reader decoded
	 * though want_plane deferred it (protobuf-c decodes all): added to
	 * counts when xp_trace_load_plane asks for the plane, as a reader
	 * that defers it counts it then.
	 */
	struct xp_read_counts *deferred_counts_;
	const struct xp_reader *reader_;
	const void *buf_;
	size_t len_;
	void *lazy_;		/* the reader's own state */
	enum xp_event_stats event_stats_;	/* as read: for lazy planes */
	int input_mapped_;
	int (*want_host_event_)(const char *name);
	uint32_t host_keys_;
	uint32_t keys_;
	unsigned jobs_;
	size_t split_bytes_;
	void (*plane_user_free_)(void *user);
	/* xp_trace_load_plane_lines's, for the load it makes */
	void (*load_want_lines_)(const char *plane, const char *const *names, size_t n, unsigned char *want,
				 void *ctx);
	void *load_want_ctx_;
	/* xp_trace_view_plane's, for the load it makes, and the views it made (NULL: none yet) */
	int (*load_want_host_event_)(const char *name);
	uint32_t load_host_keys_;
	struct xp_view **views_;
	void (*buf_free_)(void *buf_owner);
	int (*buf_changed_)(const void *buf_owner);
	void *buf_owner_;
};

struct xp_reader;
struct xp_view;

static inline void xp_read_counts_add(struct xp_read_counts *to, const struct xp_read_counts *c)
{
	to->aggregated_events += c->aggregated_events;
	to->events_missing_metadata += c->events_missing_metadata;
	to->stats_missing_metadata += c->stats_missing_metadata;
	to->duplicate_metadata += c->duplicate_metadata;
}

/* How to read: which decoder, how many threads, which planes. */
struct xp_read_opts {
	const struct xp_reader *reader;	/* NULL: xp_reader_default */
	unsigned jobs;			/* threads decoding planes; 0 or 1: the caller's only */
	/*
	 * A plane whose lines hold at least this many bytes is split by lines
	 * among the jobs (a host plane is often most of a file). 0: 32 MiB.
	 * The model is the same either way. One read (or one deferred plane's
	 * load) splits on at most jobs - 1 threads at once, beside those
	 * decoding planes; reads that run at once do not share that budget.
	 */
	size_t split_bytes;
	/*
	 * Lazy planes: planes for which want_plane returns 0 keep their id and
	 * name but no lines, events or metadata (plane->loaded is 0) until
	 * xp_trace_load_plane. NULL: every plane is read.
	 */
	int (*want_plane)(const char *name, void *ctx);
	/*
	 * Lines: on a plane being read, want_lines may clear want[i] (all set on
	 * entry) for lines whose events are not needed; such a line keeps its
	 * fields but no events (line->skipped). NULL: every line. Readers may
	 * ignore it (protobuf-c does): it only spares work.
	 */
	void (*want_lines)(const char *plane, const char *const *names, size_t n,
			   unsigned char *want, void *ctx);
	void *want_ctx;		/* for both */
	/* Readers may keep more (protobuf-c keeps all): it only spares memory. */
	enum xp_event_stats event_stats;
	/*
	 * buf is a read-only mapping of a file (xp_buf.mapped): the reader may
	 * drop the pages of each plane it has decoded (the model holds copies;
	 * the file gives them back if they are read again), so that a full
	 * read's peak memory is the model's, not the model's and the file's.
	 */
	int input_mapped;
	/*
	 * Host planes ("/host:..."), with XP_EVSTATS_KEYS: when set, an event
	 * is kept only if it carries a stat of host_keys (its own or its
	 * metadata's) or want_host_event accepts its metadata's name; the others
	 * are walked and checked but not stored (line->filtered counts them).
	 * For analyses that look at host events through key stats and names
	 * only (launches, executors, step annotations). A line whose events
	 * are all left out does not count toward the plane's base_ns: times
	 * are the same, relative to another base. NULL: every event.
	 */
	int (*want_host_event)(const char *name);
	/*
	 * With want_host_event: the keys (bits 1 << enum xp_key) host planes
	 * keep and mark their events by; the other key stats are left there
	 * too. 0: every key.
	 */
	uint32_t host_keys;
	/*
	 * With XP_EVSTATS_KEYS: the keys (1 << enum xp_key) kept on the other
	 * planes, the analyses' own (AN_*_KEYS). 0: every key.
	 */
	uint32_t keys;
	/*
	 * Analyses that look at each plane alone work as the planes are read:
	 * plane_read is called on the thread that read the plane, once its
	 * events are final, with plane_read_ctx; it may keep its result in
	 * p->user (freed with the trace by plane_user_free). Nonzero (an
	 * xp_errcode, err filled) fails the read as the plane's own error
	 * would. With release_events, the plane's events are freed after it:
	 * the plane keeps its lines and their counts, metadata and stats, and
	 * events is NULL (p->events_released). Readers that do not call it as
	 * they go (protobuf-c) have it called for each plane in turn at the
	 * end. Not called for deferred planes (want_plane).
	 */
	int (*plane_read)(struct xp_plane *p, void *ctx, struct xp_err *err);
	void *plane_read_ctx;
	void (*plane_user_free)(void *user);
	int release_events;
	/*
	 * Events in pieces, for a plane_read that needs no event twice: a
	 * reader that can (wire), with XP_EVSTATS_NONE, keeps none of a plane's
	 * events when its lines average at least pieces_line_bytes (0:
	 * XP_PIECES_LINE_BYTES, so that the per-line state stays small beside
	 * the lines' bytes; tests take 1). It hands
	 * each line's events to line_events as they are decoded, a few
	 * thousand at a time, on the reading thread (plane_read_ctx as ctx),
	 * the line's own line_user_size zeroed bytes in l->user; ev's start_ps
	 * is then the offset in the line (its timestamp and the plane's base
	 * are final only at plane_read). p is for metadata only: on a split
	 * plane it is a part's view. plane_read then sees the plane released
	 * (events NULL, counts as read, p->events_released) with every line's
	 * user; it may return XP_ERR_AGAIN, and the plane is read again whole,
	 * as without line_events, for plane_read to be called once more. A
	 * plane that fails in pieces is read again whole too: errors and
	 * counts are those of a whole read. xp_plane_finish's checks of each
	 * event (a negative duration, an end past int64) fail it so from each
	 * line's extremes (xp_line.pieces_*), before plane_read; line_events
	 * still sees such an event first. What line_events and
	 * plane_read did to ctx is not undone for the second read. An event's
	 * line field counts from the first line of its part of a split plane:
	 * use l. Needs plane_read and a line_user_size.
	 */
	void (*line_events)(const struct xp_plane *p, struct xp_line *l, const struct xp_event *ev,
			    size_t n, void *ctx);
	size_t line_user_size;
	size_t pieces_line_bytes;
};

/* See xp_read_opts.line_events. */
#define XP_PIECES_LINE_BYTES ((size_t)64 << 10)

/* A decoder of XSpace bytes into the model. */
struct xp_reader {
	const char *name;
	/* Fills an initialised, empty trace; returns 0 or a negative xp_errcode. */
	int (*read)(const void *buf, size_t len, const struct xp_read_opts *o, struct xp_trace *t,
		    struct xp_err *err);
	/* Reads plane i that want_plane deferred (NULL: the reader defers none). */
	int (*load_plane)(struct xp_trace *t, size_t i, struct xp_err *err);
	/* Plane i's bytes in the input (NULL: the reader does not keep them). */
	size_t (*plane_bytes)(const struct xp_trace *t, size_t i);
};

extern const struct xp_reader xp_reader_protobuf_c;	/* the reference: unpacks it all */
extern const struct xp_reader xp_reader_wire;	/* xp_read_wire.c: walks the wire format */
extern const struct xp_reader *const xp_reader_default;
/* The reader named name ("wire", "protobuf-c"), NULL if none. */
const struct xp_reader *xp_reader_find(const char *name);

/* Decodes buf with reader r (NULL: the default reader). *out is NULL on error. */
int xp_trace_read(const struct xp_reader *r, const void *buf, size_t len,
		  struct xp_trace **out, struct xp_err *err);
/*
 * The same with options. With lazy planes or XP_EVSTATS_INPUT the trace
 * reads from buf later: buf must outlive the trace (see xp_trace_adopt_buf).
 */
int xp_trace_read_opts(const struct xp_read_opts *o, const void *buf, size_t len,
		       struct xp_trace **out, struct xp_err *err);
/* Decodes a plane the reader deferred; 0 at once if it is loaded. */
int xp_trace_load_plane(struct xp_trace *t, size_t i, struct xp_err *err);
/*
 * The same, reading of it only the lines want_lines keeps (as
 * xp_read_opts.want_lines; readers may read more): for a caller that looks
 * at a few lines of a large plane and at nothing else of it, since the
 * plane then counts as loaded and xp_trace_load_plane reads no more of it.
 */
int xp_trace_load_plane_lines(struct xp_trace *t, size_t i,
			      void (*want_lines)(const char *plane, const char *const *names, size_t n,
						 unsigned char *want, void *ctx),
			      void *ctx, struct xp_err *err);
/*
 * A view of plane i for a caller that looks at a few of a host plane's
 * events and keeps nothing of it: the plane as loaded, or where it is
 * deferred, a decoding of it that keeps only the events want_host_event
 * accepts by name or that carry a stat of host_keys (as
 * xp_read_opts.want_host_event and host_keys do at a read, with
 * XP_EVSTATS_KEYS), put in *out while the trace's plane stays deferred and
 * its counts as they were (a later load reads the plane whole and counts
 * it once). The view lives as long as the trace, which keeps it for the
 * next call of the same filter and keys (one view per plane: a call with
 * others decodes again and keeps its own). 0, or an xp_errcode.
 */
int xp_trace_view_plane(struct xp_trace *t, size_t i, int (*want_host_event)(const char *name), uint32_t host_keys,
			struct xp_plane *out, struct xp_err *err);
/* Plane i's size in the input, in bytes; 0 when the reader does not say (protobuf-c). */
size_t xp_trace_plane_bytes(const struct xp_trace *t, size_t i);
/*
 * The trace frees the input with buf_free(owner) when it is freed itself;
 * buf_changed(owner) (may be NULL) says whether the input changed while it
 * was read (xp_buf_changed), for xp_trace_input_changed.
 */
void xp_trace_adopt_buf(struct xp_trace *t, void (*buf_free)(void *owner),
			int (*buf_changed)(const void *owner), void *owner);
/*
 * Whether the input the trace adopted changed while it was read, so far:
 * its lazy planes and stats left in it (XP_EVSTATS_INPUT) may hold zeros
 * instead of the file's bytes. 0 for a trace that adopted none.
 */
int xp_trace_input_changed(const struct xp_trace *t);
/* Frees the trace and, if adopted, its input; accepts NULL. */
void xp_trace_free(struct xp_trace *t);

/*
 * An event's e->nstats own stats: in the plane's pool, or read again from
 * the input (p->stats_at) into buf (room for p->max_own_stats), where a
 * str or bytes value points into the input, not NUL-terminated (use its
 * len). The input must be there: the trace's, as read.
 */
const struct xp_stat *xp_event_own_stats(const struct xp_plane *p, const struct xp_event *e,
					 struct xp_stat *buf);

/* Stat lookup: the event's own stats first, then its metadata's. NULL if absent. */
const struct xp_stat *xp_event_stat(const struct xp_plane *p, const struct xp_event *e,
				    enum xp_key k);
/*
 * The picoseconds to add to plane p's times to make them relative to
 * base_ns instead of its own base (to put several planes on one timeline),
 * checked so that every event's start and end stay in int64: -1 when they
 * would not (planes that far apart), else 0.
 */
int xp_plane_shift(const struct xp_plane *p, int64_t base_ns, int64_t *shift_ps);
/* A plane-level stat by name, NULL if absent. */
const struct xp_stat *xp_plane_stat(const struct xp_plane *p, const char *name);
/* The name of a stat's metadata entry, "" if unknown. */
const char *xp_stat_name(const struct xp_plane *p, const struct xp_stat *s);
/* String value of a str, bytes or ref stat; NULL for other types. */
const char *xp_stat_str(const struct xp_plane *p, const struct xp_stat *s, size_t *len);
/* Integer value of an int64, uint64 (as bits) or integral double stat; -1 if none. */
int xp_stat_u64(const struct xp_stat *s, uint64_t *out);
/* Any value as text, integers in decimal as their type prints them. */
void xp_stat_format(const struct xp_plane *p, const struct xp_stat *s, char *buf, size_t n);

static inline const char *xp_event_name(const struct xp_plane *p, const struct xp_event *e)
{
	return p->evmetas[e->meta].name;
}

/*
 * Index in an array of n elements of `stride` bytes, each starting with an
 * int64 id and sorted by it; UINT32_MAX when id is absent.
 */
static inline uint32_t xp_id_find(const struct xp_id_index *ix, const void *base, size_t n,
				  size_t stride, int64_t id)
{
	size_t lo = 0, hi = n;
	int64_t got;

	if (ix->tab) {
		uint64_t k = (uint64_t)id - (uint64_t)ix->min;

		return k < ix->span ? ix->tab[k] : UINT32_MAX;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		__builtin_memcpy(&got, (const char *)base + mid * stride, sizeof(got));
		if (got < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n) {
		__builtin_memcpy(&got, (const char *)base + lo * stride, sizeof(got));
		if (got == id)
			return (uint32_t)lo;
	}
	return UINT32_MAX;
}

/* The index of an event metadata id in p->evmetas; p->nevmetas (the sentinel) if absent. */
static inline uint32_t xp_plane_meta_index(const struct xp_plane *p, int64_t metadata_id)
{
	uint32_t i = xp_id_find(&p->evmeta_ix, p->evmetas, p->nevmetas, sizeof(*p->evmetas), metadata_id);

	return i == UINT32_MAX ? (uint32_t)p->nevmetas : i;
}

/*
 * For readers, once plane p is loaded: calls o->plane_read (if any, and once)
 * and marks the events released if o asks; the caller frees them where it
 * owns them. 0, or plane_read's error.
 */
int xp_plane_read_done(struct xp_plane *p, const struct xp_read_opts *o, struct xp_err *err);

/* For readers: build helpers shared by every decoder (xp_model.c). */
int xp_plane_index_metadata(struct xp_plane *p, struct xp_arena *a, struct xp_read_counts *c,
			    struct xp_err *err);
int xp_plane_finish(struct xp_plane *p, struct xp_read_counts *c, struct xp_err *err);
/*
 * For readers, filling an aggregated event: its self and min durations
 * -1 (absent), then xp_agg_stat with each of its stats (meta_id, value),
 * ids from xp_agg_stat_ids once per plane (metadata indexed).
 */
struct xp_agg_ids {
	int64_t self_id, min_id;
	int has_self, has_min;
};
void xp_agg_stat_ids(const struct xp_plane *p, struct xp_agg_ids *ids);
void xp_agg_stat(struct xp_agg *a, const struct xp_agg_ids *ids, const struct xp_stat *s);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Device memory from the host planes' MemoryAllocation and MemoryDeallocation
 * events, which the allocators write with their state after each call
 * (XProf's memory profile reads the same events).
 *
 * A memory is an allocator (stat allocator_name, "GPU_0_bfc") or, where the
 * events name none, a device by its index on the host ("index_on_host:0",
 * TPU). Per memory, its events in time order (ties in file order):
 *   in use    = bytes_allocated + bytes_reserved after an event;
 *   capacity  = in use + bytes_available (the largest seen; varies noted);
 *   peak      = the largest in use, at its first event (time, fragmentation);
 *   lifetime peak = the largest peak_bytes_in_use the allocator reports
 *               (its own high-water mark, which may predate the profile).
 * Allocations are matched to deallocations by address (stat addr): those
 * live at the peak are the allocations seen before or at the peak event and
 * not freed by then. Bytes in use that no allocation seen explains were
 * allocated before the profile began (unexplained_bytes).
 *
 * Times are picoseconds from the start of the input's host plane (its
 * earliest line with events).
 *
 * Ownership: a result owns every string and array in it; an_mem_release
 * frees them.
 */
#ifndef AN_MEMORY_H
#define AN_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#include "xp_arena.h"
#include "xp_err.h"
#include "xp_model.h"

struct an_mem_opts {
	int peak;		/* keep the allocations live at each memory's peak */
	int timeline;		/* keep every event's bytes in use */
	const char *memory;	/* only memories whose id contains it, any case; NULL: all */
};

/* An allocation live at the peak. Absent stats: has_* 0, strings NULL. */
struct an_mem_alloc {
	uint64_t bytes;		/* allocation_bytes */
	uint64_t requested;	/* requested_bytes */
	int has_bytes, has_requested;
	uint64_t addr;
	int64_t time_ps;	/* when it was allocated */
	int64_t data_type;	/* TensorFlow DataType enum (an_mem_dtype_name); 0: none */
	const char *shape, *op, *region;	/* shape, tf_op, region_type */
};

/* One event of a memory (--timeline). */
struct an_mem_point {
	int64_t time_ps;
	uint64_t in_use, allocated, reserved;
	uint64_t bytes;		/* allocation_bytes of the event; 0 when absent */
	int dealloc;
};

struct an_mem_row {
	const char *input;
	const char *memory_id;
	int by_index;		/* the id is index_on_host (no allocator name) */
	size_t allocs, deallocs;
	size_t no_state;	/* events without bytes_allocated: not in the peak or timeline */
	uint64_t capacity;	/* largest in use + available; 0 when no event gives it */
	int capacity_varies;
	uint64_t peak_in_use, peak_allocated, peak_reserved;
	int64_t peak_time_ps;
	double peak_fragmentation;
	int has_peak, has_fragmentation;
	uint64_t lifetime_peak;
	int has_lifetime_peak;
	uint64_t last_in_use;	/* after the last event */
	int64_t first_ps, last_ps;	/* of its events */
	uint64_t largest_alloc;	/* allocation_bytes, largest of one allocation */
	/* the allocations seen live at the peak */
	size_t live_count;
	uint64_t live_bytes;	/* their allocation_bytes, saturating */
	uint64_t unexplained_bytes;	/* peak bytes_allocated - live_bytes, 0 if less */
	size_t freed_unseen;	/* deallocations of an address with no allocation seen */
	size_t addr_reused;	/* an allocation at an address still live: the older one dropped */
	struct an_mem_alloc *live;	/* opts.peak: by bytes, largest first */
	struct an_mem_point *points;	/* opts.timeline */
	size_t npoints;
};

struct an_mem_result {
	struct an_mem_opts opts;
	struct xp_arena arena;
	struct an_mem_row *rows;	/* per input in the order added, then by peak, largest first */
	size_t nrows, cap;
	size_t inputs;		/* added */
	size_t events;		/* memory events seen (of the memories selected) */
	size_t no_memory_id;	/* events naming neither allocator_name nor index_on_host: left out */
	size_t inputs_without;	/* inputs with no memory event (of a memory selected) */
	size_t unselected;	/* memories opts.memory left out */
};

/* The key stats memory events carry (xp_read_opts.host_keys). */
#define AN_MEM_KEYS                                                                                \
	(1u << XP_K_ALLOCATOR_NAME | 1u << XP_K_INDEX_ON_HOST | 1u << XP_K_BYTES_ALLOCATED |        \
	 1u << XP_K_BYTES_RESERVED | 1u << XP_K_BYTES_AVAILABLE | 1u << XP_K_PEAK_BYTES_IN_USE |    \
	 1u << XP_K_FRAGMENTATION | 1u << XP_K_REQUESTED_BYTES | 1u << XP_K_ALLOCATION_BYTES |      \
	 1u << XP_K_ADDR | 1u << XP_K_DATA_TYPE | 1u << XP_K_TF_OP | 1u << XP_K_SHAPE |             \
	 1u << XP_K_REGION_TYPE)
/* Whether name is a memory event's (for xp_read_opts.want_host_event). */
int an_mem_wants_host_event(const char *name);

void an_mem_init(struct an_mem_result *r, const struct an_mem_opts *o);
/*
 * Adds the memory events of t's loaded host planes as rows named by input.
 * Strings are copied: t may be freed after. Returns 0 or a negative
 * xp_errcode: XP_ERR_LIMIT when two host planes' times lie too far apart
 * for one picosecond timeline (r is then as it was, but for its inputs).
 */
int an_mem_add(struct an_mem_result *r, const struct xp_trace *t, const char *input,
	       struct xp_err *err);
/* Moves src's rows and counts after dst's (same options); src is left empty. */
int an_mem_merge(struct an_mem_result *dst, struct an_mem_result *src, struct xp_err *err);
void an_mem_release(struct an_mem_result *r);

/* TensorFlow's DataType name for the enum ("float", "bfloat16"), NULL when not known. */
const char *an_mem_dtype_name(int64_t v);

#endif

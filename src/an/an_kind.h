/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a GPU device event is: a kernel, a copy of some direction, or a
 * memset; how many bytes a copy or memset moved; whether a name is a
 * collective. Shared by the analyses that split device time by kind
 * (kernels, overview).
 */
#ifndef AN_KIND_H
#define AN_KIND_H

#include <stdint.h>

#include "xp_model.h"

enum an_kind {
	AN_KIND_KERNEL,
	AN_KIND_H2D,		/* host to device copy */
	AN_KIND_D2H,
	AN_KIND_D2D,
	AN_KIND_P2P,		/* device to another device */
	AN_KIND_COPY,		/* a copy of unknown direction */
	AN_KIND_MEMSET,
	AN_KIND_COUNT
};

/* "kernel", "H2D", "D2H", "D2D", "P2P", "copy", "memset". */
const char *an_kind_name(enum an_kind k);
static inline int an_kind_is_copy(enum an_kind k)
{
	return k != AN_KIND_KERNEL;	/* copies and memsets: memory work */
}

/*
 * The kind of event e on plane p, from its name ("MemcpyH2D", "Memset", as
 * XLA's and capture's GPU profilers write them), else its line's name
 * ("Stream #13(MemcpyH2D)"), else a memcpy_details/memset_details stat; a
 * kernel otherwise.
 */
enum an_kind an_event_kind(const struct xp_plane *p, const struct xp_event *e);
/* The key stats an_event_kind and an_event_bytes read (xp_read_opts.keys). */
#define AN_KIND_KEYS (1u << XP_K_MEMCPY_DETAILS | 1u << XP_K_MEMSET_DETAILS)

/*
 * Bytes a copy or memset moved: "size:N" in memcpy_details, "num_bytes:N"
 * in memset_details. 0 with *bytes set, or -1 when the event says nothing
 * usable (absent, no number, or one beyond uint64).
 */
int an_event_bytes(const struct xp_plane *p, const struct xp_event *e, uint64_t *bytes);

/*
 * Whether a kernel, op or category name is a collective: all-reduce,
 * all-gather, reduce-scatter, all-to-all, collective-permute, send, recv
 * as a word of its own (any case; '-' also as '_' or nothing:
 * "AllReduce", "all_gather.3", "%send-done"), or an NCCL/RCCL kernel (a
 * name containing "nccl" or "rccl", any case, as TraceLens tests it: the
 * demangled "void ncclDevKernel_Generic_4(...)" is one).
 */
int an_is_collective(const char *name);

#endif

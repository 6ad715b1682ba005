/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host launches by correlation id: records sorted by a uint64 id, and the
 * range of those holding one id, found through a table where the ids are
 * dense (as profilers number them) and by binary search where they are not.
 */
#ifndef AN_CORR_H
#define AN_CORR_H

#include <stddef.h>
#include <stdint.h>

struct an_corr_index {
	const unsigned char *base;	/* the records, sorted by id */
	size_t n, stride, off;		/* how many, their size, the id's offset in them */
	uint32_t *first;		/* [id - min]: first record with it; [span] = n. NULL: search */
	uint64_t min, span;
};

/*
 * Indexes n records of stride bytes at base, already sorted by the uint64 at
 * off: a table of 4 bytes per id when the ids span at most 4 n + 1024; else,
 * or out of memory, searches. Borrows base. (Profilers number every API
 * call, so launches hold a fraction of the ids: a seventh on a JAX ROCm
 * trace. A table for that one, 15 MB of fresh pages, cost more time than
 * the searches it saved on this VM, where a first touch of memory is dear.)
 */
void an_corr_index_build(struct an_corr_index *x, const void *base, size_t n, size_t stride, size_t off);
/* How many records hold id; *first gets the first's index (where it would be, if none). */
size_t an_corr_range(const struct an_corr_index *x, uint64_t id, size_t *first);
void an_corr_index_release(struct an_corr_index *x);

#endif

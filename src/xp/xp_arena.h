/* SPDX-License-Identifier: Apache-2.0 */
/* Bump allocator: many small allocations, one release. */
#ifndef XP_ARENA_H
#define XP_ARENA_H

#include <stddef.h>

struct xp_arena_chunk;

struct xp_arena {
	struct xp_arena_chunk *head;
	size_t used_bytes;	/* total handed out, for reports */
};

void xp_arena_init(struct xp_arena *a);
void xp_arena_release(struct xp_arena *a);
/* Returns zeroed memory aligned for any type, or NULL when out of memory. */
void *xp_arena_alloc(struct xp_arena *a, size_t size);
/* Moves every block of src into dst (src is left empty): for per-thread arenas. */
void xp_arena_adopt(struct xp_arena *dst, struct xp_arena *src);
/*
 * Growing blocks, for an array whose final size is known only once it is
 * filled: xp_arena_block_grow (re)allocates one to size bytes (data NULL: a
 * new one; the bytes kept, the rest not cleared), NULL when out of memory
 * (data as it was); xp_arena_block_adopt gives it to the arena, freed with it,
 * keeping its first used bytes (a mapping gives back the pages past them);
 * xp_arena_block_free frees one never adopted (accepts NULL).
 */
void *xp_arena_block_grow(void *data, size_t size);
void xp_arena_block_adopt(struct xp_arena *a, void *data, size_t used);
void xp_arena_block_free(void *data);
/* Copies len bytes and appends a NUL; NULL when out of memory. */
char *xp_arena_strndup(struct xp_arena *a, const char *s, size_t len);

/*
 * Heap arrays: makes room for one more element in the array whose pointer
 * is at arrp (any T **), n elements used of *cap allocated, elem bytes each;
 * the capacity doubles, starting at first. 0, or -1 when out of memory
 * (the array and *cap as they were).
 */
int xp_grow(void *arrp, size_t *cap, size_t n, size_t elem, size_t first);
/* Frees the n strings of v (NULL ones too) and v itself; v may be NULL. */
void xp_strv_free(char **v, size_t n);
/*
 * The same for k more elements at once, as when appending another array:
 * where it must grow, the capacity becomes n + k or twice what it was,
 * whichever is more (merging many small arrays one by one stays linear).
 * 0, or -1 when out of memory (the array and *cap as they were).
 */
int xp_reserve(void *arrp, size_t *cap, size_t n, size_t k, size_t elem);

/*
 * Asks the kernel to back a big block (XP_HUGE_MIN bytes or more) with huge
 * pages, through the pages wholly inside it: one fault per 2 MB rather than
 * per 4 KB, which is a third of the time a full read of a large trace spends
 * (BENCHMARKS.md, 2026-11-24). A hint: smaller blocks and systems without
 * transparent huge pages are left as they are.
 */
#define XP_HUGE_MIN ((size_t)4 << 20)
void xp_hint_huge(void *p, size_t n);
/* malloc / calloc of n elements of size bytes (overflow checked), hinted. */
void *xp_malloc_big(size_t n, size_t size);
void *xp_calloc_big(size_t n, size_t size);

#endif

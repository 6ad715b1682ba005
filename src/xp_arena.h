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
/* Copies len bytes and appends a NUL; NULL when out of memory. */
char *xp_arena_strndup(struct xp_arena *a, const char *s, size_t len);

#endif

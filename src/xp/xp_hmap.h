/* SPDX-License-Identifier: Apache-2.0 */
/* String-keyed hash map to size_t values; keys are copied and owned by the map. */
#ifndef XP_HMAP_H
#define XP_HMAP_H

#include <stddef.h>

struct xp_hmap {
	char **keys;
	size_t *vals;
	size_t n, cap;
};

/* Finds key; on a miss inserts it with value *val. Returns 1 found, 0 inserted, <0 nomem. */
int xp_hmap_get_or_put(struct xp_hmap *m, const char *key, size_t *val);

/*
 * A table of rows found by key: *rowsp (a T **) holds *n rows of elem bytes in
 * room for *cap (grown like xp_grow, first rows at first), m maps each key to
 * its row's index. Returns key's row, a new one zeroed at the end when key was
 * not there (*is_new says which; is_new may be NULL), or NULL when out of memory.
 */
void *xp_hmap_row(struct xp_hmap *m, const char *key, void *rowsp, size_t *n, size_t *cap, size_t elem,
		  size_t first, int *is_new);
void xp_hmap_release(struct xp_hmap *m);

#endif

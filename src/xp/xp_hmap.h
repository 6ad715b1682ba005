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
void xp_hmap_release(struct xp_hmap *m);

#endif

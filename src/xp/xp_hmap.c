/* SPDX-License-Identifier: Apache-2.0 */
#include "xp_hmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xp_arena.h"
#include "xp_err.h"

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static int grow(struct xp_hmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64, i;
	char **keys = calloc(cap, sizeof(*keys));
	size_t *vals = calloc(cap, sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return XP_ERR_NOMEM;
	}
	for (i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->keys[i])
			continue;
		for (j = hash_str(m->keys[i]) & (cap - 1); keys[j]; j = (j + 1) & (cap - 1))
			;
		keys[j] = m->keys[i];
		vals[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return 0;
}

int xp_hmap_get_or_put(struct xp_hmap *m, const char *key, size_t *val)
{
	size_t j;

	if ((m->n + 1) * 2 > m->cap && grow(m))
		return XP_ERR_NOMEM;
	for (j = hash_str(key) & (m->cap - 1); m->keys[j]; j = (j + 1) & (m->cap - 1)) {
		if (!strcmp(m->keys[j], key)) {
			*val = m->vals[j];
			return 1;
		}
	}
	m->keys[j] = strdup(key);
	if (!m->keys[j])
		return XP_ERR_NOMEM;
	m->vals[j] = *val;
	m->n++;
	return 0;
}

void *xp_hmap_row(struct xp_hmap *m, const char *key, void *rowsp, size_t *n, size_t *cap, size_t elem,
		  size_t first, int *is_new)
{
	size_t idx = *n;
	char *rows;
	int found = xp_hmap_get_or_put(m, key, &idx);

	if (found < 0)
		return NULL;
	if (is_new)
		*is_new = !found;
	/* on a failed grow the key stays mapped to *n: the caller drops the table */
	if (!found && xp_grow(rowsp, cap, *n, elem, first))
		return NULL;
	memcpy(&rows, rowsp, sizeof(rows));	/* rowsp is a T **, not a char ** */
	if (!found) {
		memset(rows + idx * elem, 0, elem);
		(*n)++;
	}
	return rows + idx * elem;
}

void xp_hmap_release(struct xp_hmap *m)
{
	xp_strv_free(m->keys, m->cap);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

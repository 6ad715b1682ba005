/* SPDX-License-Identifier: Apache-2.0 */
/*
 * xp_hmap and its row table (xp_hmap_row): a key finds the row it made, in
 * order of first sight, each new row zeroed; rows keep their contents across
 * the table's growth (many keys, first capacity 1) and the map's rehashing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "xp_hmap.h"

struct row {
	char name[16];
	size_t hits;
	double pad;
};

int main(void)
{
	struct xp_hmap m = {0};
	struct row *rows = NULL, *r;
	size_t n = 0, cap = 0, v, i, k;
	int is_new = -1;
	char key[16];

	/* get_or_put: inserts with the given value, then finds it */
	v = 7;
	CHECK_INT(xp_hmap_get_or_put(&m, "a", &v), 0);
	v = 9;
	CHECK_INT(xp_hmap_get_or_put(&m, "a", &v), 1);
	CHECK_INT(v, 7);
	CHECK_INT(m.n, 1);
	xp_hmap_release(&m);
	CHECK_INT(m.n, 0);

	/* rows: 1000 keys seen three times each, interleaved */
	for (k = 0; k < 3; k++) {
		for (i = 0; i < 1000; i++) {
			snprintf(key, sizeof(key), "k%zu", i);
			r = xp_hmap_row(&m, key, &rows, &n, &cap, sizeof(*rows), 1, &is_new);
			CHECK(r != NULL);
			if (!r)
				goto out;
			CHECK_INT(is_new, k == 0);
			CHECK_INT(r - rows, i);
			if (is_new) {
				CHECK_INT(r->hits, 0);
				CHECK(r->name[0] == 0);
				memcpy(r->name, key, sizeof(key));
			}
			CHECK_STR(r->name, key);
			r->hits++;
		}
	}
	CHECK_INT(n, 1000);
	CHECK_INT(m.n, 1000);
	CHECK(cap >= n);
	for (i = 0; i < n; i++)
		CHECK_INT(rows[i].hits, 3);
	/* is_new may be NULL */
	r = xp_hmap_row(&m, "k5", &rows, &n, &cap, sizeof(*rows), 1, NULL);
	CHECK(r == &rows[5]);
	r = xp_hmap_row(&m, "new", &rows, &n, &cap, sizeof(*rows), 1, NULL);
	CHECK(r == &rows[1000]);
	CHECK_INT(n, 1001);
out:
	free(rows);
	xp_hmap_release(&m);
	return test_done("test_hmap");
}

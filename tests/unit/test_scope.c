/* SPDX-License-Identifier: Apache-2.0 */
/* The scope tree (an_scope): totals, self times, occurrences, the heaviest item, pre-order and ties. */
#include <stdint.h>
#include <string.h>

#include "an_scope.h"
#include "test.h"

int main(void)
{
	/* a/b twice (one written with empty frames), a/c, a itself, z, and an item without frames */
	const struct an_scope_item items[] = {
		{"a/b", 10, 1}, {"a//b/", 5, 2}, {"a/c", 15, 1}, {"", 3, 1}, {"z", 15, 4}, {"a", 1, 1},
		{"/a/c/d", INT64_MAX, 1},
	};
	struct an_scope_node *n = NULL;
	size_t nn = 0;

	CHECK_INT(an_scope_tree(items, 6, &n, &nn), 0);
	CHECK_INT(nn, 5);	/* a, a/b, a/c, z, "" */
	if (nn == 5) {
		/* roots by total: a (10 + 5 + 15 + 1 = 31), z (15), "" (3); a's children b and c tie at 15: by name */
		CHECK_STR(n[0].path, "a");
		CHECK_INT(n[0].total_ps, 31);
		CHECK_INT(n[0].self_ps, 1);
		CHECK_INT(n[0].occurrences, 5);
		CHECK_INT(n[0].top, 2);	/* a/c, 15 */
		CHECK_STR(n[1].path, "a/b");
		CHECK_STR(n[1].name, "b");
		CHECK_INT(n[1].self_ps, 15);
		CHECK_INT(n[1].occurrences, 3);
		CHECK_INT(n[1].top, 0);	/* the first of its items, 10 over 5 */
		CHECK_INT(n[1].parent, 0);
		CHECK_INT(n[1].depth, 1);
		CHECK_STR(n[2].path, "a/c");
		CHECK_STR(n[3].path, "z");
		CHECK_INT(n[3].parent, SIZE_MAX);
		CHECK_STR(n[4].path, "");
		CHECK_INT(n[4].total_ps, 3);
	}
	an_scope_nodes_free(n, nn);
	/* a total that saturates instead of wrapping */
	CHECK_INT(an_scope_tree(items, 7, &n, &nn), 0);
	CHECK_INT(nn, 6);
	if (nn == 6) {
		CHECK_STR(n[0].path, "a");
		CHECK_INT(n[0].total_ps, INT64_MAX);
		CHECK_STR(n[1].path, "a/c");
		CHECK_STR(n[2].path, "a/c/d");
		CHECK_INT(n[2].parent, 1);
	}
	an_scope_nodes_free(n, nn);
	/* a path of 100 frames: 64 levels, the last named by the other 37 frames */
	{
		char deep[200];
		struct an_scope_item d = {deep, 7, 1};
		size_t k;

		for (k = 0; k < 100; k++) {
			deep[2 * k] = 'a';
			deep[2 * k + 1] = '/';
		}
		deep[199] = '\0';
		CHECK_INT(an_scope_tree(&d, 1, &n, &nn), 0);
		CHECK_INT(nn, AN_SCOPE_MAX_DEPTH);
		if (nn == AN_SCOPE_MAX_DEPTH) {
			CHECK_INT(n[nn - 1].depth, AN_SCOPE_MAX_DEPTH - 1);
			CHECK_INT(strlen(n[nn - 1].name), 2 * 37 - 1);
			CHECK_STR(n[nn - 1].path, deep);
			CHECK_INT(n[nn - 1].self_ps, 7);
			CHECK_INT(n[0].total_ps, 7);
		}
		an_scope_nodes_free(n, nn);
	}
	CHECK_INT(an_scope_tree(items, 0, &n, &nn), 0);
	CHECK_INT(nn, 0);
	an_scope_nodes_free(n, nn);
	return test_done("test_scope");
}

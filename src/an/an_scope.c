/* SPDX-License-Identifier: Apache-2.0 */
/* Name-stack scopes as a tree, in pre-order. */
#include "an_scope.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xp_arena.h"
#include "xp_hmap.h"
#include "xp_sat.h"

void an_scope_nodes_free(struct an_scope_node *nodes, size_t n)
{
	size_t i;

	for (i = 0; nodes && i < n; i++) {
		free(nodes[i].name);
		free(nodes[i].path);
	}
	free(nodes);
}

/*
 * The child of parent (SIZE_MAX: a root) named by frame[0, flen), made on
 * first use: keyed by its parent and frame, so that a key costs its frame's
 * length, not its path's.
 */
static size_t node_of(struct xp_hmap *ix, struct an_scope_node **nodes, size_t *n, size_t *cap, size_t parent,
		      const char *frame, size_t flen)
{
	char *key = NULL, *path;
	size_t v = *n, plen = parent == SIZE_MAX ? 0 : (*nodes)[parent].path_len;
	int r;

	if (asprintf(&key, "%zx\x1f%.*s", parent, (int)flen, frame) < 0)
		return SIZE_MAX;
	r = xp_hmap_get_or_put(ix, key, &v);
	free(key);
	if (r < 0 || r == 1)
		return r < 0 ? SIZE_MAX : v;
	if (xp_grow(nodes, cap, *n, sizeof(**nodes), 32) || !(path = malloc(plen + 1 + flen + 1)))
		return SIZE_MAX;
	if (plen) {
		memcpy(path, (*nodes)[parent].path, plen);
		path[plen++] = '/';
	}
	memcpy(path + plen, frame, flen);
	path[plen + flen] = '\0';
	memset(&(*nodes)[*n], 0, sizeof(**nodes));
	(*nodes)[*n].path = path;
	(*nodes)[*n].path_len = plen + flen;
	(*nodes)[*n].name = strndup(frame, flen);
	(*nodes)[*n].depth = parent == SIZE_MAX ? 0 : (*nodes)[parent].depth + 1;
	(*nodes)[*n].parent = parent;
	(*nodes)[*n].top = SIZE_MAX;
	if (!(*nodes)[*n].name) {
		free(path);
		return SIZE_MAX;
	}
	return (*n)++;
}

/* A node as its parent's children are ordered: roots first, then by parent; larger total first, then by name. */
struct child_key {
	size_t parent;		/* SIZE_MAX for a root: sorted as 0, the others as parent + 1 */
	int64_t total;
	const char *name;
	size_t i;
};

static int cmp_child(const void *a, const void *b)
{
	const struct child_key *x = a, *y = b;
	size_t px = x->parent + 1, py = y->parent + 1;	/* SIZE_MAX wraps to 0: roots first */

	if (px != py)
		return px < py ? -1 : 1;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The nodes in pre-order (parents renumbered), children ordered by cmp_child. */
static int preorder(struct an_scope_node *nodes, size_t n)
{
	struct child_key *keys = malloc((n ? n : 1) * sizeof(*keys));
	size_t *by_parent = malloc((n ? n : 1) * sizeof(*by_parent)), *first = calloc(n + 1, sizeof(*first));
	size_t *stack = malloc((n ? n : 1) * sizeof(*stack)), *newix = malloc((n ? n : 1) * sizeof(*newix));
	struct an_scope_node *out = malloc((n ? n : 1) * sizeof(*out));
	size_t i, sp = 0, k = 0, roots = 0;
	int ret = -1;

	if (!keys || !by_parent || !first || !stack || !newix || !out)
		goto done;
	for (i = 0; i < n; i++) {
		keys[i].parent = nodes[i].parent;
		keys[i].total = nodes[i].total_ps;
		keys[i].name = nodes[i].name;
		keys[i].i = i;
	}
	if (n)
		qsort(keys, n, sizeof(*keys), cmp_child);
	for (i = 0; i < n; i++)
		by_parent[i] = keys[i].i;
	/* first[p + 1]: where the children of p start in by_parent; roots first */
	for (i = 0; i < n; i++)
		if (nodes[by_parent[i]].parent == SIZE_MAX)
			roots++;
	for (i = roots; i < n; i++) {
		size_t p = nodes[by_parent[i]].parent;

		if (!first[p + 1] || i < first[p + 1])
			first[p + 1] = i;
	}
	for (i = roots; i > 0; i--)
		stack[sp++] = by_parent[i - 1];
	while (sp) {
		size_t v = stack[--sp], c;

		newix[v] = k;
		out[k++] = nodes[v];
		if (!first[v + 1])
			continue;
		for (c = first[v + 1]; c < n && nodes[by_parent[c]].parent == v; c++)
			;
		while (c > first[v + 1])
			stack[sp++] = by_parent[--c];
	}
	for (i = 0; i < n; i++)
		if (out[i].parent != SIZE_MAX)
			out[i].parent = newix[out[i].parent];
	if (n)	/* nodes is NULL when there are none: memcpy(NULL, ., 0) is undefined */
		memcpy(nodes, out, n * sizeof(*nodes));
	ret = 0;
done:
	free(keys);
	free(by_parent);
	free(first);
	free(stack);
	free(newix);
	free(out);
	return ret;
}

int an_scope_tree(const struct an_scope_item *items, size_t n, struct an_scope_node **nodes, size_t *nnodes)
{
	struct xp_hmap ix = {0};
	struct an_scope_node *v = NULL;
	size_t nv = 0, cap = 0, i;
	int ret = -1;

	for (i = 0; i < n; i++) {
		const char *p = items[i].path ? items[i].path : "";
		size_t len = strlen(p), at = 0, depth = 0, node = SIZE_MAX;

		/* frames between '/', empty ones skipped ("a//b/" is "a/b"); the last level takes the rest */
		while (at < len) {
			size_t end = at;

			while (at < len && p[at] == '/')
				at++;
			if (at == len)
				break;
			end = at;
			if (depth + 1 < AN_SCOPE_MAX_DEPTH) {
				while (end < len && p[end] != '/')
					end++;
			} else {
				end = len;
				while (end > at && p[end - 1] == '/')
					end--;
			}
			if ((node = node_of(&ix, &v, &nv, &cap, node, p + at, end - at)) == SIZE_MAX)
				goto out;
			depth++;
			at = end;
		}
		if (node == SIZE_MAX && (node = node_of(&ix, &v, &nv, &cap, SIZE_MAX, "", 0)) == SIZE_MAX)
			goto out;
		v[node].self_ps = xp_sat_add(v[node].self_ps, items[i].ps);
		for (; node != SIZE_MAX; node = v[node].parent) {
			v[node].total_ps = xp_sat_add(v[node].total_ps, items[i].ps);
			v[node].occurrences += items[i].occurrences;
			if (v[node].top == SIZE_MAX || items[i].ps > items[v[node].top].ps)
				v[node].top = i;
		}
	}
	if (preorder(v, nv))
		goto out;
	*nodes = v;
	*nnodes = nv;
	v = NULL;
	ret = 0;
out:
	an_scope_nodes_free(v, nv);
	xp_hmap_release(&ix);
	return ret;
}

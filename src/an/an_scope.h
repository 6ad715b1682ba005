/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A tree of name-stack scopes ("jit(f)/jit(main)/layer_3/dot_general"),
 * each path's frames split at '/': per node its own (self) time, the total
 * under it, occurrences, and the heaviest item under it. Used for device
 * time by the framework op names XLA keeps on each HLO instruction.
 */
#ifndef AN_SCOPE_H
#define AN_SCOPE_H

#include <stddef.h>
#include <stdint.h>

/* Levels of the tree: the frames of a deeper path make its last level's name, '/'s and all. */
#define AN_SCOPE_MAX_DEPTH 64

/* What is counted: an op's time at its scope path (the caller's, kept as is). */
struct an_scope_item {
	const char *path;	/* frames separated by '/'; empty frames are skipped */
	int64_t ps;		/* its time, added to the node the path ends at */
	size_t occurrences;
};

struct an_scope_node {
	char *name;		/* its frame */
	char *path;		/* its frames from the root, '/'-separated */
	size_t path_len;
	size_t depth;		/* 0 for a root */
	size_t parent;		/* index in the node array; SIZE_MAX for a root */
	int64_t self_ps;	/* items whose path ends here (saturating) */
	int64_t total_ps;	/* self and every node under it (saturating) */
	size_t occurrences;	/* of the items under it, itself included */
	size_t top;		/* the item under it (itself included) of the most time, first of equals */
};

/*
 * Builds the tree of n items into *nodes (*nnodes of them), in pre-order:
 * each node followed by its children, the larger total first (equal totals
 * by name). An item whose path has no frame counts at a root named "".
 * 0, or -1 when out of memory (nothing allocated).
 */
int an_scope_tree(const struct an_scope_item *items, size_t n, struct an_scope_node **nodes, size_t *nnodes);
void an_scope_nodes_free(struct an_scope_node *nodes, size_t n);

#endif

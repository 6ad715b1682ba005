/* SPDX-License-Identifier: Apache-2.0 */
/* Getting the bytes of an input: a file (mapped), standard input, gzip; directory walks. */
#ifndef XP_INPUT_H
#define XP_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "xp_err.h"
#include "xp_hmap.h"

/* Default for --max-input-size: the most bytes read from stdin or inflated from gzip. */
#define XP_DEFAULT_MAX_INPUT ((uint64_t)16 << 30)

struct xp_buf {
	const unsigned char *data;
	size_t len;
	int compressed;		/* the input was gzip */
	int mapped;		/* data is a read-only mapping of the file (xp_read_opts.input_mapped) */
	/* private */
	void *map_;
	size_t map_len_;
	int guard_;		/* the mapping's handle in xp_guard.h's table, or 0 */
	unsigned char *heap_;
};

/*
 * Loads path ("-" is standard input), inflating gzip. Release with
 * xp_buf_release. A file is mapped and its mapping guarded (xp_guard.h):
 * when the program's SIGBUS handler calls xp_guard_fault, a file that
 * shrinks while it is read reads as zeros past its new end, and
 * xp_buf_changed says so. A gzip file that changes while it is inflated
 * fails here.
 */
int xp_buf_load(const char *path, uint64_t max_size, struct xp_buf *b, struct xp_err *err);
void xp_buf_release(struct xp_buf *b);

/* What an input that changed while it was read is, after "'PATH': ". */
#define XP_CHANGED_MSG "changed while being read (it shrank: is it still being written?)"
/*
 * Whether b's file shrank while b was read: some bytes read from it since
 * were zeros, not the file's, so nothing computed from b stands. Look
 * after the last read of b.
 */
int xp_buf_changed(const struct xp_buf *b);
/* The same as an error: XP_ERR_IO with err naming path when b changed, else 0. */
int xp_buf_check(const struct xp_buf *b, const char *path, struct xp_err *err);

struct xp_pathlist {
	char **paths;
	size_t n, cap;
	/* Files found in directories that were listed already (a symlink to them): not added. */
	size_t duplicates;
	/* private: the files listed ("dev:inode"), to find those */
	struct xp_hmap ids_;
};

/*
 * Expands the command-line inputs: files and "-" as given, directories walked
 * recursively (symlinks followed, loops skipped) for *.xplane.pb and
 * *.xplane.pb.gz, each directory's finds in sorted order. A file a walk
 * reaches again (through a symlink) is counted in duplicates, not listed
 * twice; a FIFO or device found by a walk is an error, as reading it could
 * block for ever (named on the command line it is read).
 */
int xp_pathlist_expand(struct xp_pathlist *l, const char *const *args, size_t nargs,
		       struct xp_err *err);
void xp_pathlist_release(struct xp_pathlist *l);

#endif

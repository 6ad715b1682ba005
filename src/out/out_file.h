/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A large file written in order, from start to end, by a thread of its own:
 * past the page cache (O_DIRECT) where the file system takes it, and synced
 * as it grows (fdatasync every OUT_FILE_SYNC_BYTES), so that the caller's
 * final fsync finds little left.
 *
 * Why: export writes outputs of hundreds of megabytes, often twice its
 * input. Through the page cache each byte is copied into fresh kernel pages
 * (on a virtual machine, the costliest part of the run, and the most
 * variable), and the disk's own cache (a drive's, a virtual disk's host)
 * takes them all at the final fsync. Here the bytes go to the disk from a
 * few reused aligned buffers, while the caller encodes what comes next.
 *
 * A file system that refuses O_DIRECT (tmpfs, some network ones: EINVAL at
 * the fcntl or at a write) gets the bytes through the page cache, from where
 * it refused; the file's bytes are the same either way.
 *
 * Ownership: the writer borrows fd (the caller opened it, and fsyncs and
 * closes it after out_file_finish); out_file_free releases the rest.
 */
#ifndef OUT_FILE_H
#define OUT_FILE_H

#include <stddef.h>

#define OUT_FILE_SYNC_BYTES ((size_t)64 << 20)

struct out_file;

/*
 * A writer for fd, a regular file open for writing at offset 0 (empty).
 * direct: try O_DIRECT. Returns NULL when out of memory or no thread starts
 * (errno says which): the caller then writes fd itself.
 */
struct out_file *out_file_new(int fd, int direct);
/*
 * Appends n bytes. Returns 0, or the errno of an earlier failed write or
 * sync (then every later call too), or EINVAL after out_file_finish. Errors
 * are errno values, not xp_errcode: the caller names them with strerror.
 */
int out_file_put(struct out_file *w, const void *p, size_t n);
/* Writes what is left and stops the thread. Returns 0 or an errno, as out_file_put. */
int out_file_finish(struct out_file *w);
/* Whether every whole block went past the page cache (the last part block never does); after out_file_finish. */
int out_file_was_direct(const struct out_file *w);
/* Stops the thread if out_file_finish was not called (what was queued is still written), and frees w. */
void out_file_free(struct out_file *w);

#endif

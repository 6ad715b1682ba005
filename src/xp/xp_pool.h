/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Work on many items on several threads, results consumed in order: work(i)
 * runs on any thread, done(i, result) on the caller's thread for i = 0, 1, ...
 * So whatever done accumulates (sums of doubles included) does not depend on
 * the number of threads.
 */
#ifndef XP_POOL_H
#define XP_POOL_H

#include <stddef.h>

typedef void *(*xp_pool_work_fn)(size_t i, void *ctx);
typedef void (*xp_pool_done_fn)(size_t i, void *result, void *ctx);

/*
 * Runs work for every i in [0, n) on up to jobs worker threads and hands
 * each result to done in index order on the caller's thread (which only
 * consumes; with jobs <= 1 it does the work itself, no thread started). At most 4 * jobs
 * results wait for their turn, which bounds memory. Threads that cannot be
 * started leave their share to the others. Returns the threads used.
 */
unsigned xp_pool_run(size_t n, unsigned jobs, xp_pool_work_fn work, xp_pool_done_fn done, void *ctx);

/* The online CPUs, at least 1. */
unsigned xp_online_cpus(void);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
/* Device planes: which are devices, --device matching, name order, the lines of device work. */
#ifndef AN_DEVICE_H
#define AN_DEVICE_H

#include <stddef.h>

#include "xp_model.h"

/* Whether a plane is a device plane (/device:GPU:, /device:TPU:, /device:CUSTOM:). */
int an_is_device_plane(const char *name);
/* The plane an_cpu_device makes of XLA:CPU's host work (an_cpu.h): a device plane by this name. */
#define AN_CPU_PLANE "/device:CPU:0 (XLA:CPU)"
/* Whether a device plane is a TPU's SparseCore ("/device:TPU:0 SparseCore 1"). */
int an_is_sparsecore_plane(const char *name);
/*
 * The lines of a device plane whose events are device work (use[i] set): its
 * "XLA Modules" line (a TPU SparseCore's "Sparse Core Modules") (*module_line,
 * else -1), else its "Stream #" lines, else all. Returns how many.
 */
size_t an_device_lines(const char *const *names, size_t n, unsigned char *use, int *module_line);
/*
 * Whether a device plane's line is one XProf derives from the others (XLA
 * Modules, XLA Ops, Async XLA Ops, TensorFlow Ops, TensorFlow Name Scope,
 * Steps, Source code, XLA TraceMe, the SparseCore ones): not a GPU stream.
 */
int an_is_derived_line(const char *name);
/*
 * Events on the plane's lines of device work (an_device_lines): a device
 * plane without any is not analysed. Lines a lazy read skipped are not such lines.
 */
size_t an_plane_device_events(const struct xp_plane *p);
/* The same for aggregated events (xp_agg: no times), which the analyses of time leave out. */
size_t an_plane_device_aggs(const struct xp_plane *p);
/*
 * The same for plane p: marks in use (p->nlines zeroed bytes) its lines of
 * device work; how many, or -1 when out of memory.
 */
long an_plane_device_lines(const struct xp_plane *p, unsigned char *use, int *module_line);
/*
 * --device PATTERN: case-insensitive substring of the plane name; a pattern
 * ending in a digit must not be followed by another digit ("TPU:1" is not
 * "TPU:10"), nor by " SparseCore" unless it names SparseCores ("TPU:0" is
 * not "TPU:0 SparseCore 0"; "SparseCore" and "TPU:0 SparseCore" are).
 */
int an_device_matches(const char *plane_name, const char *pattern);
/*
 * Orders plane names as a person would: runs of digits compare as numbers
 * ("/device:GPU:2" before "/device:GPU:10"), the rest byte by byte; names
 * equal so (leading zeros) fall back to strcmp, so the order is total.
 */
int an_name_cmp(const char *a, const char *b);

#endif

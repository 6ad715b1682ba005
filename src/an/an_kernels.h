/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GPU kernels, copies and memsets: the device events on the "Stream #" lines
 * of GPU device planes (a device plane with such lines), pooled over every
 * input and device. Derived lines ("TensorFlow Ops", "XLA Ops", "Steps"...)
 * repeat kernel time and are never read. Events with a stray end
 * (xp_stray.h, the rule over the plane's stream lines) are left out and
 * counted.
 *
 * Per kernel (name; with AN_KERN_BY_CONFIG also its launch configuration;
 * with AN_KERN_BY_FUNCTION its function, program and op): instances, total,
 * mean, population std, min, median (mean of the two middle values when n
 * is even), p90 and p99 (nearest rank: the ceil(p * n)-th smallest), max,
 * and share of all kernel time. Copies and memsets per kind (an_kind.h).
 *
 * Ownership: a result owns every string and array in it; an_kern_release
 * frees them.
 */
#ifndef AN_KERNELS_H
#define AN_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "an_kind.h"
#include "an_sketch.h"
#include "xp_err.h"
#include "xp_hmap.h"
#include "xp_model.h"

enum an_kern_by {
	AN_KERN_BY_NAME,
	AN_KERN_BY_CONFIG,	/* a row per (name, launch configuration) */
	AN_KERN_BY_FUNCTION,	/* a row per (function, program, op, name) */
	AN_KERN_BY_ALL,		/* every field of the three: the rows a run summary holds */
};

struct an_kern_opts {
	enum an_kern_by by;
	const char *device;	/* --device pattern (an_device_matches); NULL: every GPU plane */
	size_t slowest;		/* keep the N slowest kernel instances (an_kern_inst); 0: none */
};

/*
 * One kernel instance among the slowest (opts.slowest): where and when it
 * ran. offset_ps counts from its input's first event on the GPU planes read
 * (the origin of `export --device` over the same planes).
 */
struct an_kern_inst {
	char *name, *input, *device, *stream;	/* device: "host:plane"; stream: the line's name */
	char *function;		/* NULL: no hlo_module */
	uint64_t program_id;
	int has_program_id;
	uint64_t correlation;
	int has_correlation;
	int64_t dur_ps;
	int64_t offset_ps;	/* after finish */
	int64_t start_ns;	/* the file's clock (ns), and the ps after it: */
	int64_t start_sub_ps;
	size_t input_ix_;	/* private: the input's order, for the origin and ties */
};

/* Launch configuration parsed from a kernel_details stat. */
enum an_cfg_state {
	AN_CFG_NONE,		/* no kernel_details stat */
	AN_CFG_OK,
	AN_CFG_BAD,		/* present but unparsable (see an_launch_parse) */
};

enum an_cfg_field {
	AN_CFG_REGS,		/* "regs": registers per thread */
	AN_CFG_STATIC_SHARED,	/* "static_shared" bytes (CUDA) */
	AN_CFG_DYNAMIC_SHARED,	/* "dynamic_shared" bytes (CUDA) */
	AN_CFG_SHM,		/* "shm": shared memory bytes (older TensorFlow) */
	AN_CFG_GROUP_MEM,	/* "group_mem": LDS bytes per workgroup (ROCm) */
	AN_CFG_PRIVATE_MEM,	/* "private_mem": scratch bytes per work item (ROCm) */
	AN_CFG_NFIELDS
};

struct an_launch {
	uint64_t grid[3], block[3];
	uint64_t field[AN_CFG_NFIELDS];
	unsigned char has[AN_CFG_NFIELDS];
	double occ_pct;
	int has_occ;
	/* what reading it left aside (an_launch_parse): the configuration holds the rest */
	int has_grid, has_block;	/* 0: missing, taken as 1,1,1 */
	size_t unknown_keys;		/* keys not known: ignored */
	size_t bad_values;		/* words without a ':' or '=', values that do not parse, keys repeated */
};

/* The field's name as kernel_details writes it ("regs", "group_mem"). */
const char *an_cfg_field_name(enum an_cfg_field f);
/*
 * Parses "key:value" words (also "key=value", as some of XProf's own
 * inputs have it) separated by spaces, tabs or newlines, field by field as
 * XProf does: grid and block take up to three comma-separated integers (a
 * dimension missing is 1; grid or block missing: 1,1,1, has_grid or
 * has_block 0); regs, static_shared, dynamic_shared, shm, group_mem and
 * private_mem an integer; occ_pct a finite number. A key not known is
 * ignored and counted (unknown_keys); a word without ':' or '=', a value
 * that does not parse (or exceeds uint64) and a key given again are
 * counted (bad_values), that field left unknown. 0, or -1 when nothing of
 * it could be read (no grid, block or known field).
 */
int an_launch_parse(const char *s, size_t len, struct an_launch *out);
/* Whether reading it left something aside (a missing grid or block, an unknown key, a bad value). */
int an_launch_partial(const struct an_launch *l);
/* Canonical text: "grid:X,Y,Z block:X,Y,Z" then the present fields and occ_pct in a fixed order. */
void an_launch_format(const struct an_launch *l, char *buf, size_t n);
/* A grid or block with a zero dimension: the profiler did not fill it in. */
int an_launch_implausible(const struct an_launch *l);

struct an_kern_row {
	char *name;
	/* AN_KERN_BY_CONFIG */
	enum an_cfg_state cfg_state;
	struct an_launch cfg;	/* when cfg_state is AN_CFG_OK */
	char *config;		/* canonical text; "" unless AN_CFG_OK; NULL when not by config */
	/* AN_KERN_BY_FUNCTION: NULL function when the kernel has no hlo_module */
	char *function, *op;	/* op NULL when no hlo_op */
	uint64_t program_id;
	int has_program_id;
	size_t instances;
	/* after an_kern_finish; times in picoseconds */
	double total, mean, std, median;	/* total, mean and std from exact integer moments */
	int64_t min, max, p90, p99;
	double share;		/* total over all kernel time */
	int tensor_core;	/* its name says it runs on tensor (matrix) cores (an_kern_tensor_core) */
	int approximate;	/* median, p90 and p99 read from a summary's sketch (an_sketch.h) */
	size_t fn, opx;		/* AN_KERN_BY_FUNCTION: index into fns / ops */
	/* private: instances one by one, and those a summary kept only as a sketch */
	int64_t *samples_;
	size_t ns_, cap_;
	struct an_kern_sk *sk_;
};

/* Instances a row holds as a sketch, with their exact moments (from run summaries). */
struct an_kern_sk {
	struct an_moments m;
	struct an_sketch s;
};

/* AN_KERN_BY_FUNCTION, after finish: a function's ops, an op's rows (consecutive). */
struct an_kern_fn {
	const char *name;	/* the first row's function (NULL: none) */
	uint64_t program_id;
	int has_program_id;
	size_t instances;
	double total, share;
	size_t first_op, nops;
};

struct an_kern_op {
	const char *name;	/* NULL: no hlo_op */
	size_t instances;
	double total, share;
	size_t first_row, nrows;
};

struct an_copy {
	size_t count;
	double total;		/* picoseconds (after finish) */
	uint64_t bytes;		/* of those that say, saturating at UINT64_MAX */
	int bytes_saturated;
	size_t no_bytes;	/* count that gave no byte count */
	double bytes_time;	/* picoseconds of those that gave bytes (after finish): GB/s = bytes / this */
	/* the two times exactly, as they are added */
	unsigned __int128 total_ps, bytes_ps;
};

struct an_kern_result {
	struct an_kern_opts opts;
	struct an_kern_row *rows;	/* after finish: by total, largest first (nested when by function) */
	size_t nrows, cap;
	struct an_kern_fn *fns;
	size_t nfns;
	struct an_kern_op *ops;
	size_t nops;
	struct an_copy copies[AN_KIND_COUNT];	/* [AN_KIND_KERNEL] unused */
	size_t inputs;
	size_t devices;		/* distinct GPU planes (host:plane) with stream lines */
	size_t device_planes_no_streams;	/* selected device planes without "Stream #" lines (TPU) */
	size_t stream_lines, other_lines;	/* GPU planes' stream lines; their other lines (derived, not counted) */
	size_t kernel_events;
	double kernel_ps;	/* sum of kernel durations (after finish, from kernel_sum) */
	unsigned __int128 kernel_sum;	/* the same, exactly */
	int64_t kernel_busy_ps;	/* per device the union of its kernel intervals, summed */
	size_t copy_events;
	size_t stray_events;	/* left out */
	size_t zero_events;	/* zero duration (kept: an instance of no time) */
	size_t no_config, bad_config, implausible_config;	/* kernels */
	char *bad_config_example;	/* the first unparsable kernel_details */
	size_t partial_config;		/* kernels whose kernel_details was read in part (an_launch_partial) */
	char *partial_config_example;	/* the first such kernel_details */
	size_t approximate;	/* rows whose quantiles came from a sketch (after finish) */
	double tensor_core_ps;	/* after finish: the kernel time of rows on tensor cores */
	/* opts.slowest: after finish the slowest first (ties: earlier input, then start) */
	struct an_kern_inst *slowest;
	size_t nslowest;	/* (summaries keep no instances: only traces give them) */
	/* private */
	struct xp_hmap by_key_, dev_ids_;
	const char *input_;	/* the path of the input being added (an_kernels_analysis sets it) */
	__int128 *first_;	/* per input index: its first GPU stream event, ps of the file's clock */
	size_t nfirst_;
};

void an_kern_init(struct an_kern_result *r, const struct an_kern_opts *o);
/*
 * Adds the GPU planes of t that opts selects (loading those the reader
 * deferred, hence t is not const). Returns 0 or a negative xp_errcode.
 */
int an_kern_add(struct an_kern_result *r, struct xp_trace *t, struct xp_err *err);
/*
 * Adds plane i of t alone, as an_kern_add would if opts selected it, without
 * counting an input (for summaries, which keep each plane apart).
 */
int an_kern_add_plane(struct an_kern_result *r, struct xp_trace *t, size_t i, struct xp_err *err);
/* The key stats an_kern_add reads (xp_read_opts.keys). */
#define AN_KERN_KEYS                                                                    \
	(AN_KIND_KEYS | 1u << XP_K_KERNEL_DETAILS | 1u << XP_K_HLO_OP | 1u << XP_K_HLO_MODULE | \
	 1u << XP_K_PROGRAM_ID)
/* With opts.slowest the instances' correlation ids too (a read that keeps more: only then). */
#define AN_KERN_KEYS_SLOWEST (AN_KERN_KEYS | 1u << XP_K_CORRELATION_ID)
/*
 * Moves src's rows, copies and counts into dst (same opts, or src by
 * AN_KERN_BY_ALL: its rows are pooled into dst's keys); src is left empty.
 */
int an_kern_merge(struct an_kern_result *dst, struct an_kern_result *src, struct xp_err *err);
/* Computes the statistics, sorts, and groups by function when asked. */
int an_kern_finish(struct an_kern_result *r, struct xp_err *err);
void an_kern_release(struct an_kern_result *r);

/* Rows in run summaries: up to this many instances one by one, more as a sketch. */
#define AN_KERN_EXACT_MAX 256

/*
 * A row as a summary holds it (before finish): sorted, its instances
 * (samples, n of them) when it has at most AN_KERN_EXACT_MAX and no sketch;
 * else samples NULL and the sketch and exact moments of them all.
 */
struct an_kern_digest {
	const int64_t *samples;
	size_t n;
	struct an_moments m;
	struct an_sketch s;
};

int an_kern_row_digest(struct an_kern_row *row, struct an_kern_digest *d);
void an_kern_digest_release(struct an_kern_digest *d);
/*
 * Adds to r (AN_KERN_BY_ALL, before finish) a row keyed as key is, holding
 * d's instances (its sketch is taken: d is left without it). Returns 0, 1 when r has a row of
 * that key already (nothing added), or XP_ERR_NOMEM.
 */
int an_kern_put_row(struct an_kern_result *r, const struct an_kern_row *key, struct an_kern_digest *d);
/* Counts key among r's distinct devices (a summary's plane). 0, or XP_ERR_NOMEM. */
int an_kern_count_device(struct an_kern_result *r, const char *key);
/*
 * Calls fn with each instance of a row (after finish): its samples one by
 * one (weight 1), then, when approximate, each sketch bucket's value with its
 * count. Stops at fn's first non-zero return, which it returns.
 */
int an_kern_row_each(const struct an_kern_row *row, int (*fn)(void *ctx, double ps, size_t weight), void *ctx);

/*
 * Whether a kernel's name says it runs on tensor (matrix) cores: it
 * contains, in any case, one of the instruction or library words NVIDIA's
 * and AMD's libraries put in such names: xmma, hmma, imma, wgmma, mfma,
 * tensorop, tensor_op, or a CUDA MMA tile (h884, s884, h1688, s1688,
 * i8816, h16816, s16816, i16832), or Tensile's matrix instruction tile
 * ("_MI16x16x16x1" in rocBLAS and hipBLASLt kernels). A heuristic, as
 * XProf's: a kernel that uses tensor cores under another name is not
 * counted.
 */
int an_kern_tensor_core(const char *name);

/* Nearest-rank quantile of n sorted values: the ceil(p * n)-th smallest (1-based), p in (0, 1]. */
int64_t an_quantile_nearest(const int64_t *sorted, size_t n, double p);

/*
 * For xp_read_opts.want_lines: the lines an_kern_add reads: a device plane's
 * "Stream #" lines; on a GPU plane without any, its lines not derived
 * (an_is_derived_line); on another plane without any, its device work
 * (an_exec_want_lines), which only says it holds events.
 */
void an_kern_want_lines(const char *plane, const char *const *names, size_t n, unsigned char *want,
			void *device_pattern);

#endif

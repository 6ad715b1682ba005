/* SPDX-License-Identifier: Apache-2.0 */
/*
 * HLO ops: device time per op, pooled over devices and inputs.
 *
 * TPU SparseCores (planes "/device:TPU:N SparseCore M") write their ops on
 * a "Sparse Core Ops" line and their modules on "Sparse Core Modules":
 * taken as the XLA Ops and XLA Modules lines are, their rows a line kind of
 * their own (AN_OP_SC).
 *
 * TPU (a device plane with an "XLA Ops" or "Async XLA Ops" line): each
 * event of those lines is one occurrence of an op, named by its metadata
 * (display_name short, on "Async XLA Ops" the instruction name as its
 * display names are generic; name the HLO text). Self time on an "XLA Ops" line
 * is the op's time minus the union of its direct children: the ops of the
 * same line inside it (the op starting first, at equal starts the longer,
 * then the earlier in the file, is the parent). An op that starts inside
 * another and ends after it (a partial overlap) is no child: it is
 * counted, the op it overlaps is closed there (ops after it that lie in
 * both are children of the later op only), and nothing is subtracted for
 * it. "Async XLA Ops" events are start-to-done spans that overlap other
 * work: kept in rows of their own, their self time is their total.
 * An op's program: the program of the "XLA Modules" event its start lies
 * in (program_id stat, else the "(digits)" fingerprint), else its own
 * program_id stat.
 *
 * GPU (no such line): kernels (an_event_kind) on the "Stream #" lines that
 * carry an hlo_op stat, grouped by (hlo_module, program_id, hlo_op); self
 * time is total time (kernels of a stream do not nest). Kernels carry no
 * flops or bytes: an_ops_join gives a row its instruction's cost per call
 * (an_cost.h, from the HLO its trace carries) times its calls.
 *
 * Stray ends (xp_stray.h), per line (on GPU over the stream lines together),
 * are left out and counted. flops, model_flops and bytes_accessed are summed
 * over occurrences; a negative or non-integral value is treated as absent
 * and counted; a sum beyond 2^64-1 makes the row's value unknown, counted.
 */
#ifndef AN_OPS_H
#define AN_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "an_hostcall.h"
#include "an_kind.h"
#include "an_scope.h"
#include "xp_hmap.h"
#include "xp_model.h"

/* Line kinds; AN_OP_SC: a TPU SparseCore's "Sparse Core Ops" line, nested as XLA Ops are. */
enum an_op_line { AN_OP_SYNC, AN_OP_ASYNC, AN_OP_GPU, AN_OP_SC, AN_OP_LINES };

/* "XLA Ops", "Async XLA Ops", "GPU kernels", "Sparse Core Ops". */
const char *an_op_line_name(enum an_op_line l);

enum an_ops_sort { AN_OPS_SORT_TIME, AN_OPS_SORT_SELF, AN_OPS_SORT_FLOPS, AN_OPS_SORT_BYTES };

enum an_bound { AN_BOUND_NONE, AN_BOUND_COMPUTE, AN_BOUND_MEMORY };

/* "compute", "memory", NULL. */
const char *an_bound_name(enum an_bound b);

/*
 * Where a device's peaks come from: its plane's peak stats (TPU), the chip
 * table (an_chip_peaks), or derived (GPU: the plane's cores x clock x the
 * FLOPs per cycle of its architecture, an_gpu_archs; bandwidth the plane's).
 */
enum an_peak_src { AN_PEAK_NONE, AN_PEAK_PLANE, AN_PEAK_TABLE, AN_PEAK_DERIVED };

/* "none", "plane", "table", "derived". */
const char *an_peak_src_name(enum an_peak_src s);

struct an_ops_opts {
	const char *device;		/* --device pattern; NULL: every device plane */
	int by_category;		/* also build the per-category rows */
	enum an_ops_sort sort;
	/*
	 * Join each op to its HLO instruction (an_hlo.h: the trace's
	 * metadata plane) for its scope and source line; by_scope and
	 * by_source then build the scope tree and the per-line rows.
	 */
	int hlo, by_scope, by_source;
	/*
	 * Also the rows per framework op (frameworks): XLA ops by their
	 * instruction's op_name and op_type (with hlo), and GPU kernels
	 * without an hlo_op that name a TensorFlow op (an_framework_op) as
	 * rows of their own (an_op_row.tf). Needs AN_OPS_FRAMEWORK_KEYS read.
	 */
	int by_framework;
	/*
	 * TPU planes: only the leaf sums of their devices (an_ops_device.leaf_*,
	 * for an_ops_work_flops), no rows (overview's utilisation). GPU planes
	 * as always.
	 */
	int tpu_leaves_only;
};

/* How an op was joined to its HLO (opts.hlo). */
enum an_op_hlo {
	AN_OP_HLO_UNSET,	/* not joined (opts.hlo off, or a summary's op) */
	AN_OP_HLO_NO_MODULE,	/* no HLO for its module (none in the trace, or it did not decode) */
	AN_OP_HLO_NOT_FOUND,	/* its module's HLO has no instruction of its name (a GPU command buffer) */
	AN_OP_HLO_FOUND,
};

/*
 * How a GPU row's FLOPs and bytes were looked up in the HLO (an_ops_join).
 * A pooled row is AN_OP_COST_HLO where every part was, else the greatest
 * of its parts' other states.
 */
enum an_op_cost {
	AN_OP_COST_UNSET,	/* not looked up: not a GPU row, or the trace gave them */
	AN_OP_COST_NO_INSTR,	/* no instruction: no HLO for its module, or not in it */
	AN_OP_COST_NO_CALLS,	/* its calls unknown: nothing to multiply the cost per call by */
	AN_OP_COST_UNKNOWN,	/* the cost model does not know its instruction */
	AN_OP_COST_HLO,		/* from the HLO: its instruction's cost per call times its calls */
};
#define AN_OP_COST_LAST AN_OP_COST_HLO

/* The scope label of ops without one: by how they were joined. */
#define AN_SCOPE_NO_HLO "(no HLO)"
#define AN_SCOPE_NOT_IN_HLO "(not in HLO)"
#define AN_SCOPE_NO_OP_NAME "(no op name)"
#define AN_SOURCE_NONE "(no source line)"

/* A summed counter: flops, model_flops or bytes_accessed. */
struct an_sum {
	uint64_t v;
	size_t n;		/* occurrences that carried a valid value */
	int overflow;		/* the sum passed 2^64-1: unknown */
};

/* A row is known when every occurrence carried a value and the sum fits. */
static inline int an_sum_known(const struct an_sum *s, size_t occurrences)
{
	return s->n == occurrences && occurrences && !s->overflow;
}

struct an_op_row {
	char *name;		/* display_name (TPU), hlo_op (GPU); by category: the category */
	char *hlo;		/* TPU: metadata name (HLO text); else NULL */
	char *category;		/* hlo_category; NULL when none */
	char *module;		/* function: enclosing XLA Modules event (TPU), hlo_module (GPU); or NULL */
	uint64_t program_id;
	int has_program_id;
	enum an_op_line line;
	size_t occurrences;
	/*
	 * GPU: its calls, the distinct scope_range_ids of its kernels (XLA gives
	 * each thunk execution one, and a call's kernels share it: a command
	 * buffer's 4 kernels per loop iteration, a GEMM's 2), known when
	 * kernels_unscoped (its kernels without one) is 0.
	 */
	size_t calls, kernels_unscoped;
	/*
	 * Its calls were counted from the host (an_hostcall.h: kernels without
	 * a scope_range_id, each found in the host event of the thunk that
	 * launched it; by an_ops_join), some or all of them.
	 */
	int calls_host;
	int64_t total_ps, self_ps;	/* saturate at INT64_MAX */
	struct an_sum flops, model_flops, bytes;
	double share;		/* self time over its line kind's self time */
	/* peaks of the devices it ran on: ridge = peak FLOP/s / peak bytes/s */
	double ridge;		/* 0: no device had both peaks */
	int ridge_differs;	/* its devices had different ridge points: no bound */
	enum an_bound bound;	/* after finish */
	/* opts.hlo: its instruction's op_name ("" when it has none) and "file:line" (NULL: none), the result's */
	enum an_op_hlo hlo_state;
	const char *scope, *source;
	/*
	 * GPU: how its flops and bytes were looked up in the HLO (an_ops_join);
	 * cost_why (owned; NULL in groups) what the cost model does not know
	 * of its instruction (an_cost.unknown), where it does not know all.
	 */
	enum an_op_cost cost;
	char *cost_why;
	/*
	 * opts.by_framework: a TensorFlow op's row, its kernels (no hlo_op)
	 * keyed by the framework op they ran for: name its name, category
	 * its type (NULL: none). Its calls are unknown and it has no HLO.
	 */
	int tf;
	const char *op_type;	/* opts.hlo: its instruction's op_type (NULL: none), the result's */
};

struct an_ops_device {
	char *name;		/* "host:plane", or the plane name when the file names no host */
	char *chip;		/* device_type_string plane stat, or NULL */
	enum an_peak_src peak_src;
	double peak_flops, peak_bw;	/* FLOP/s and bytes/s; 0 unknown */
	size_t events[AN_OP_LINES];
	size_t stray_events;
	size_t partial_overlaps;	/* ops partly overlapping another op of their line */
	size_t odd_values;		/* flops, model_flops, bytes_accessed negative or not integers */
	size_t kernels_no_op;		/* GPU kernels without an hlo_op stat */
	size_t extra_module_lines;	/* XLA Modules lines after the first (not used for programs) */
	/*
	 * Occurrences that aggregated events (xp_agg) stood for on TPU ops
	 * lines: counted in their rows, with their self_duration_ps as self
	 * time (else their total), in rows of no program; of those events,
	 * the ones whose self or min duration was unreadable (xp_agg.odd);
	 * and aggregated events on GPU planes, not counted (a kernel stands
	 * for itself).
	 */
	size_t aggregated, aggregated_odd, aggregated_left;
	/*
	 * Pooled, its inputs stated different peaks (chip or values): the
	 * greatest kept (by source, then FLOP/s, then bandwidth), whatever
	 * the order of the inputs
	 */
	int peaks_differ;
	/*
	 * TPU, with opts.tpu_leaves_only: the XLA Ops events with no op nested
	 * in them (the work itself: a parent's FLOPs would count its
	 * children's again): their time, and of it the time of those that
	 * carry flops (model_flops), with the sums (an_ops_work_flops).
	 */
	int64_t leaf_ps, leaf_flops_ps, leaf_model_ps;
	struct an_sum leaf_flops, leaf_model_flops;
};

/* Owns every string and array; an_ops_release frees them. */
struct an_ops_result {
	struct an_ops_opts opts;
	struct an_op_row *rows;	/* after finish: sorted, line kinds in enum order */
	size_t nrows, cap;
	struct an_op_row *cats;	/* by category (opts.by_category), after finish */
	size_t ncats;
	struct an_ops_device *devices;
	size_t ndevices, devcap;
	size_t inputs;
	size_t summaries;	/* of the inputs, those pooled from a summary (an_run_ops_pool): no TensorFlow rows */
	size_t events[AN_OP_LINES];
	int64_t total_ps[AN_OP_LINES], self_ps[AN_OP_LINES];
	size_t rows_in[AN_OP_LINES];	/* rows per line kind */
	/* summed over devices */
	size_t stray_events, partial_overlaps, odd_values, kernels_no_op, extra_module_lines;
	size_t aggregated, aggregated_left, aggregated_odd;	/* summed over devices */
	size_t overflows;	/* row sums (flops, bytes, time) that passed their limit */
	size_t partial_sums;	/* row values some occurrences lacked: shown as unknown */
	size_t ridge_differs;	/* rows over devices of different peaks: no bound */
	/* opts.hlo: modules found (and of them not decoded), inputs that carried none */
	size_t hlo_modules, hlo_failed, hlo_inputs_without;
	/*
	 * After finish: the rows per an_op_cost (cost[AN_OP_COST_HLO] rows
	 * costed from the HLO), and the first AN_OPS_COST_WHAT distinct
	 * cost_why of the rows in their order (rows' strings): what the cost
	 * model did not know of rows costed without FLOPs, and of rows it
	 * could not cost.
	 */
	size_t cost[AN_OP_COST_LAST + 1];
	size_t cost_no_flops;	/* of cost[AN_OP_COST_HLO], rows with bytes known but no FLOPs */
	size_t calls_host;	/* rows whose calls were counted from the host (calls_host, calls known) */
#define AN_OPS_COST_WHAT 8
	const char *cost_what[AN_OPS_COST_WHAT];
	size_t ncost_what;
	/*
	 * After finish, opts.by_scope: the scope tree (an_scope.h) of the
	 * sync and GPU ops' self time (Async XLA Ops left out: they overlap
	 * other work), a node's top its heaviest op's index in rows; ops
	 * without a scope count under the AN_SCOPE_* labels above.
	 * opts.by_source: rows per source line and line kind, as cats.
	 */
	struct an_scope_node *scopes;
	size_t nscopes;
	struct an_op_row *sources;
	size_t nsources;
	/*
	 * opts.by_framework: rows per framework op and line kind, as cats: name
	 * the op, category its type (NULL: none). A TensorFlow row is its own
	 * group; an XLA op's group is its instruction's op_name and op_type,
	 * or one of the AN_SCOPE_* labels where it has none.
	 */
	struct an_op_row *frameworks;
	size_t nframeworks;
	struct an_op_row *fwtypes;	/* with by_framework: rows per framework op type ("-": none) and line kind */
	size_t nfwtypes;
	/* private */
	struct xp_hmap by_key_, dev_ids_;
	struct xp_hmap strs_ix_;	/* scopes and sources, each kept once */
	/* kernels without a scope_range_id, with a correlation_id: for an_ops_join to find their calls */
	struct an_hostcall_ref *hrefs_;
	size_t nhrefs_, caphrefs_;
	char **strs_;
	size_t nstrs_, strs_cap_;
};

/*
 * Per-chip peaks used when a TPU plane carries none: matched to its
 * device_type_string ("TPU v6 Lite"), any case. NULL-terminated.
 */
struct an_chip_peak {
	const char *chip;
	double tflops, hbm_gbs;
};
extern const struct an_chip_peak an_chip_peaks[];

/*
 * Dense bf16/fp16 matrix FLOPs per cycle per SM (NVIDIA) or compute unit
 * (AMD) by architecture, for a GPU plane's derived peak: its core_count x
 * clock_rate x these. Terminated by a NULL arch.
 */
struct an_gpu_arch {
	int amd;			/* device_vendor "AMD"; else NVIDIA (older planes name no vendor) */
	int cc_major, cc_minor;		/* compute_cap_major, compute_cap_minor (AMD: the gfx version's) */
	const char *arch;
	double flops_per_cycle;
};
extern const struct an_gpu_arch an_gpu_archs[];
/*
 * The derived peaks of a GPU plane (0 each where its stats do not give
 * them), *arch its architecture's name or NULL.
 */
void an_gpu_peaks(const struct xp_plane *p, double *flops, double *bw, const char **arch);

void an_ops_init(struct an_ops_result *r, const struct an_ops_opts *o);
/*
 * Adds the ops of t's device planes that opts.device selects (reading
 * planes the reader deferred, hence t is not const). 0, or a negative
 * xp_errcode with err filled.
 */
int an_ops_add(struct an_ops_result *r, struct xp_trace *t, struct xp_err *err);
/*
 * Adds plane i of t alone (a device plane), as an_ops_add does each plane
 * it selects, without counting an input (for summaries, which keep each
 * device apart). 0, or a negative xp_errcode with err filled.
 */
int an_ops_add_plane(struct an_ops_result *r, struct xp_trace *t, size_t i, struct xp_err *err);
/* Whether an_ops_add reads the plane of that name: a device plane that opts.device selects. */
int an_ops_wants_plane(const struct an_ops_opts *o, const char *plane);
/* The key stats an_ops_add reads (xp_read_opts.keys), an_event_kind's among them. */
#define AN_OPS_KEYS                                                                      \
	(AN_KIND_KEYS | 1u << XP_K_FLOPS | 1u << XP_K_MODEL_FLOPS | 1u << XP_K_BYTES_ACCESSED | \
	 1u << XP_K_HLO_CATEGORY | 1u << XP_K_HLO_MODULE | 1u << XP_K_PROGRAM_ID | 1u << XP_K_HLO_OP |  \
	 1u << XP_K_SCOPE_RANGE_ID | 1u << XP_K_CORRELATION_ID)
/*
 * With by_framework: also the TensorFlow op a kernel names (an_framework_op).
 * What the count of kernels left out means then (kernels_no_op): " or a
 * TensorFlow op", and for summaries, which keep no TensorFlow kernels, so.
 */
const char *an_ops_no_op_what(const struct an_ops_result *r);
#define AN_OPS_FRAMEWORK_KEYS (AN_OPS_KEYS | 1u << XP_K_TF_OP | 1u << XP_K_ANNOTATION)
/*
 * The TensorFlow op a GPU kernel ran for, from its tf_op stat, else its
 * annotation (TensorFlow's stack of "name:Type#attr=v,...#" levels joined
 * by "::", the innermost one that names an op), as XProf's TF stats read
 * them: *name and *type point into s (lengths nlen, tlen). An op is
 * "name:Type" with both non-empty (split at the last ':' before any
 * '#'): XLA's "XlaModule:" names none. 1 when found, else 0.
 */
int an_framework_op(const char *s, size_t len, int annotation, const char **name, size_t *nlen,
		    const char **type, size_t *tlen);
/* Whether row's calls are known: a GPU row all of whose kernels carry a scope_range_id. */
static inline int an_op_calls_known(const struct an_op_row *row)
{
	return row->line == AN_OP_GPU && row->occurrences && !row->kernels_unscoped;
}
/* Where a result's ops were found in the HLO (opts.hlo): each op in one of found, not_in_hlo, without_hlo. */
struct an_ops_hlo_counts {
	size_t ops, found, found_without_op_name, not_in_hlo, without_hlo;
	size_t tf;	/* TensorFlow ops' rows (an_op_row.tf): not looked up, not in ops */
};
void an_ops_hlo_count(const struct an_ops_result *r, struct an_ops_hlo_counts *c);
/* The scope tree's total (its roots' totals, saturating): the sync and GPU ops' self time. */
int64_t an_ops_scopes_total(const struct an_ops_result *r);

/*
 * Looks r's rows up in t's HLO (an input's rows, before they are pooled:
 * an_ops_add does so for each input): each row for its scope and source
 * when opts.hlo, and each GPU row the trace gives no FLOPs or bytes for
 * its cost (cost_hlo), whatever the options. The metadata plane is read
 * only when some row is to be looked up. 0, or a negative xp_errcode
 * with err filled.
 */
int an_ops_join(struct an_ops_result *r, struct xp_trace *t, struct xp_err *err);
/* The same for n results of one trace (its planes' apart), the host planes searched once for them all. */
int an_ops_join_many(struct an_ops_result *const *rs, size_t n, struct xp_trace *t, struct xp_err *err);
/*
 * Each plane of t that o selects (want NULL: an_ops_wants_plane), or whose
 * want[i] is set, added alone (an_ops_add_plane) into a result of its own,
 * all joined at once (an_ops_join_many): *out, t->nplanes results (the
 * planes not taken empty) for the caller to release each and free (also
 * on failure; NULL when out of memory). 0, or a negative xp_errcode.
 */
int an_ops_planes_joined(const struct an_ops_opts *o, struct xp_trace *t, const unsigned char *want,
			 struct an_ops_result **out, struct xp_err *err);

/* Counts each of r's op rows in the module of s it ran in (an_hlo_mark_op). 0, or -1 when out of memory. */
struct an_hlo_set;
int an_ops_mark_hlo(const struct an_ops_result *r, struct an_hlo_set *s);

/* Pools src (an input's result) into dst; src is left as it was. */
int an_ops_merge(struct an_ops_result *dst, const struct an_ops_result *src, struct xp_err *err);
/* Sorts the rows, computes shares and bounds, and the categories. */
int an_ops_finish(struct an_ops_result *r, struct xp_err *err);
void an_ops_release(struct an_ops_result *r);

/* FLOP/s, bytes/s and FLOP per byte of a row; negative when unknown. */
/*
 * Whether the row's time is the time of its work, so that rates and a bound
 * mean something: not for the Async XLA Ops line, nor for the halves of an
 * asynchronous op (a name or category ending in -start or -done, also
 * before a ".N"): their time is an issue or a wait, and dividing the whole
 * transfer's bytes by it gave copy-start 907 million GB/s.
 */
int an_op_timed_work(const struct an_op_row *row);
/* A row's total time over its calls (an_op_calls_known), in ps. */
static inline double an_op_call_mean_ps(const struct an_op_row *row)
{
	return row->calls ? (double)row->total_ps / (double)row->calls : 0;
}
/* How a row's calls were counted: "scope_range_id", "host" (calls_host: some or all), or NULL (unknown). */
const char *an_op_calls_from(const struct an_op_row *row);
/* Where a row's flops and bytes come from: "hlo" (AN_OP_COST_HLO), "trace" (its events' stats), or NULL (none). */
const char *an_op_cost_from(const struct an_op_row *row);
double an_op_flops_per_s(const struct an_op_row *row);
double an_op_bytes_per_s(const struct an_op_row *row);
double an_op_intensity(const struct an_op_row *row);

/*
 * The FLOPs of device d's work in r (a result of d's planes alone, joined:
 * an_run_ops_of's): TPU, its leaf XLA Ops events' (an_ops_device); GPU,
 * its GPU rows' where their FLOPs are known. *work_ps the time of that
 * work, *flops_ps of it the time whose FLOPs are counted, and the same for
 * model FLOPs (TPU model_flops stats; GPU none). *overflow: a sum passed
 * 2^64-1 (saturated).
 */
struct an_work_flops {
	uint64_t flops, model_flops;
	int64_t work_ps, flops_ps, model_ps;
	int overflow;
};
void an_ops_work_flops(const struct an_ops_result *r, const struct an_ops_device *d, struct an_work_flops *w);

/* For xp_read_opts.want_lines: the lines an_ops_add reads. */
void an_ops_want_lines(const char *plane, const char *const *names, size_t n,
		       unsigned char *want, void *device_pattern);

#endif

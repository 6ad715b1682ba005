/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The device timeline per device plane (TraceLens's gpu_timeline, XProf's
 * duty cycle): span, busy, idle, duty cycle; busy split into compute,
 * collectives and memory copies with the parts no other work overlaps;
 * step times; GPU launch latency.
 *
 * Work: on a TPU plane with an "XLA Ops" line, that line's ops (the span also
 * covers the "XLA Modules" line); on a GPU plane its "Stream #" lines; else
 * the lines an_device_lines names. A work event is a memcpy when an_kind says
 * it is a copy or memset (GPU) or an op whose category (else short name)
 * begins with "copy" (TPU), a collective when an_is_collective says so of
 * its hlo_category (TPU), its short name (display_name, TPU) or its name and
 * hlo_op (GPU), compute otherwise. With C, K, M the unions of compute,
 * collective and memcpy intervals:
 *   busy = |C u K u M|, compute = |C|, collective = |K|,
 *   collective_exposed = |K \ C|, memcpy = |M|, memcpy_exposed = |M \ (C u K)|,
 * so busy = compute + collective_exposed + memcpy_exposed; span = last end -
 * first start of the work (and module) events; idle = span - busy.
 * Stray ends (xp_stray.h, over the work, module and Steps lines) are left out.
 */
#ifndef AN_OVERVIEW_H
#define AN_OVERVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "an_analysis.h"
#include "an_kind.h"
#include "an_ops.h"
#include "an_straggle.h"
#include "xp_arena.h"
#include "xp_model.h"
#include "xp_sat.h"

/* The key stats an_ov_add reads (xp_read_opts.keys), an_event_kind's among them. */
#define AN_OV_KEYS                                                                        \
	(AN_KIND_KEYS | 1u << XP_K_HLO_CATEGORY | 1u << XP_K_HLO_OP | 1u << XP_K_CORRELATION_ID | \
	 1u << XP_K_STEP_NUM | AN_OV_FLOPS_KEYS)
/* What utilisation reads besides: TPU ops' FLOPs, GPU kernels' op and calls (an_ops_work_flops). */
#define AN_OV_FLOPS_KEYS AN_OPS_KEYS

/*
 * For xp_read_opts.want_host_event: by its name alone only the events
 * named like the thunks that count GPU op calls (an_host_thunk_name), for
 * the FLOPs of utilisation; the launches and step annotations overview
 * reads carry key stats.
 */
int an_ov_wants_host_event(const char *name);

/* Samples (picoseconds) and their summary, filled by an_ov_finish. */
struct an_ov_dist {
	double *v;
	size_t n, cap;
	double mean, median, min, max, p99;	/* p99: nearest rank, the ceil(0.99 n)-th smallest */
};

struct an_ov_device {
	/*
	 * A device is a host's plane: its name is the plane's, or "host:plane"
	 * when the result holds devices of several hosts. Strings owned by the
	 * result.
	 */
	const char *name;
	const char *plane;	/* the plane's name */
	const char *host;	/* the trace's hostname (XSpace hostnames[0]); NULL: none */
	int tpu;		/* work is an XLA Ops line */
	/*
	 * Pooled: how many inputs' planes. The times below (span, busy and its
	 * parts) are then those of one input: the mean over the planes, to the
	 * picosecond (busy's parts rounded so that they still add up to busy).
	 */
	size_t planes;
	size_t events;		/* work events used (stray ends not) */
	size_t stray;		/* stray ends left out */
	size_t repeats;		/* planes of its name again in one input (merged dumps): left out */
	int64_t span_ps, busy_ps, compute_ps, coll_ps, coll_exposed_ps, memcpy_ps, memcpy_exposed_ps;
	size_t coll_events, memcpy_events;
	/* steps: the device's "Steps" line */
	struct an_ov_dist steps;
	/*
	 * Launch latency: work event start minus the start of the host event with
	 * the same correlation_id, both on the absolute time scale. Of the work
	 * events with a correlation_id: linked (one host launch, or of several the
	 * nearest in time when more than twice as near as any other), no_launch
	 * (none), ambiguous (several, none that near: left out), off_scale
	 * (planes based too far apart for int64 picoseconds).
	 */
	struct an_ov_dist latency;
	size_t corr_events, no_launch, ambiguous, off_scale;
	/*
	 * Each linked latency split in two: queue, the part the event waited
	 * behind earlier work on its stream (the latest end among the line's
	 * events that start before it, minus the launch's start, within 0 and
	 * the latency), and overhead, the rest (the launch call, the driver,
	 * the dispatch). queued: linked events with a queue wait over 0.
	 */
	struct an_ov_dist queue, overhead;
	size_t queued;
	/*
	 * Utilisation (an_ops_work_flops of its planes, summed; pooled: one
	 * input's, the mean): the FLOPs and model FLOPs of its work, the work's
	 * time and of it the time whose FLOPs (model FLOPs) are counted; its
	 * peak FLOP/s and where that came from (an_ops_device).
	 */
	uint64_t flops, model_flops;
	int flops_overflow;
	int64_t work_ps, flops_ps, model_ps;
	double peak_flops;
	int peak_src;		/* an enum an_peak_src */
	/* GPU: its kernels' time (work events but copies, summed), and of it the kernels on tensor cores by name */
	int64_t kernel_ps, tensor_core_ps;
};

/*
 * Achieved FLOP/s (FLOPs over span), and the FLOPs and model FLOPs
 * utilisation (over span x peak): negative when unknown (no FLOPs counted,
 * no span, no peak, a sum past 2^64-1).
 */
double an_ov_flops_per_s(const struct an_ov_device *d);
double an_ov_flops_util(const struct an_ov_device *d);
double an_ov_model_util(const struct an_ov_device *d);

/* Idle time: span minus busy, saturated, never negative. */
static inline int64_t an_ov_idle(const struct an_ov_device *d)
{
	int64_t idle = xp_sat_sub(d->span_ps, d->busy_ps);

	return idle > 0 ? idle : 0;
}

/*
 * A step of a device (an_ov_opts.steps): an event of its plane's "Steps"
 * line ("Sparse Core Steps" on a SparseCore), with the device's work in
 * it: busy (the union of the work within the step), its compute, the
 * collectives and copies no other work overlaps (as for the device), idle
 * the rest. TPU: the FLOPs of its leaf ops (XLA Ops events with no op
 * nested in them, as utilisation counts them) that start in it, and the
 * time of those leaves and of those that carry flops.
 */
struct an_ov_step {
	const char *device;	/* after finish: the device's name (the result's) */
	const char *host, *plane;	/* the device's host (NULL: none) and plane */
	const char *input;	/* the input's path, or NULL */
	const char *name;	/* the step event's name */
	size_t index;		/* its place on its line, from 0 */
	int64_t start_ps;	/* from the start of the device's span in its input */
	int64_t dur_ps, busy_ps, compute_ps, coll_exposed_ps, memcpy_exposed_ps;
	/* the device idle while its host is inside a host step (step_num markers of its input) */
	int64_t host_wait_ps;
	int tpu;
	uint64_t flops;		/* of its leaves that carry flops; saturates (flops_overflow) */
	int flops_overflow;
	int64_t leaf_ps, flops_ps;
	double peak_flops;	/* after finish: the device's (0: not known) */
	size_t seq_;		/* private: its place as added, for the order */
	size_t dev_;		/* private: its device's index after finish */
};

/*
 * A step lined up across devices (XProf's rule: a step that ran on every
 * device): the steps of one input and name on every device of that input
 * with a Steps line. Its time is the slowest device's (the others wait
 * for it at the step's end).
 */
struct an_ov_aligned {
	const char *input;	/* NULL: none named */
	const char *name;
	size_t devices;
	int64_t max_ps, min_ps;	/* over its devices' steps */
	const char *slowest;	/* the device of max_ps (the first in device order at a tie) */
	int64_t start_ps;	/* its earliest start, for the order */
};

/* A step's idle time (its duration less busy and host wait), and its FLOP/s and FLOPs utilisation: negative when unknown. */
int64_t an_ov_step_idle(const struct an_ov_step *s);
double an_ov_step_flops_per_s(const struct an_ov_step *s);
double an_ov_step_util(const struct an_ov_step *s);

/* Owns everything: release with an_ov_release. */
struct an_ov_result {
	struct xp_arena arena;
	struct an_ov_device *devices;
	size_t n, cap;
	/*
	 * host step annotations: per step_num, first start to last end of the
	 * host events carrying it, where some device work of its input
	 * overlaps it (XProf keeps those); the others apart, host_only_steps
	 */
	struct an_ov_dist host_steps, host_only_steps;
	size_t host_step_events;
	size_t host_only_inputs;	/* inputs with host steps and no device work at all (an_ov_has_device_work) */
	/* with steps (an_ov_opts): every device's steps, after finish by device (in device order), input and time */
	int want_steps;
	struct an_ov_step *steps;
	size_t nsteps, capsteps;
	/*
	 * After finish, with steps: the steps lined up across devices, by
	 * input and start; the steps of a name some device of its input lacks
	 * (or has twice) left out and counted, per device step
	 */
	struct an_ov_aligned *aligned;
	size_t naligned, steps_unaligned;
	size_t hosts;		/* after finish: distinct hosts of the devices (none counts as one) */
	/*
	 * With stragglers (an_ov_opts): which device of a host the others wait
	 * for (an_straggle.h), each input's executions found as an_exec_find
	 * finds them (the trace read as an_ov_strag_read says); inputs whose
	 * executions cannot be compared are counted, the last one's reason kept
	 * (an_ov_input_notes names the input).
	 */
	int stragglers;
	struct an_strag_result strag;
	size_t strag_left_out;
	char strag_why[160];
	int finished_;
};

struct an_ov_opts {
	int stragglers;
	int steps;		/* list each device's steps (an_ov_step) */
	int run_by;		/* stragglers: how inputs added with paths form runs (an enum an_run_by) */
};

/* For an_ov_opts.stragglers: what the overview reads, and what finding executions reads. */
extern const struct an_read_profile an_ov_strag_read;

void an_ov_init(struct an_ov_result *r);
/* The same with options (NULL: none). */
void an_ov_init_opts(struct an_ov_result *r, const struct an_ov_opts *o);
/*
 * Adds an input's executions (l, found in t) to the stragglers, as an_ov_add
 * does with stragglers set; for a caller that has found them. 0, or -1 when
 * out of memory.
 */
int an_ov_strag_add(struct an_ov_result *r, const struct xp_trace *t, const struct an_exec_list *l);
/* The same, the input named by its path: its host is compared with the other hosts of its run (an_straggle.h). */
int an_ov_strag_add_input(struct an_ov_result *r, const struct xp_trace *t, const struct an_exec_list *l,
			  const char *input);
/* A warning for the inputs left out of the stragglers. 0 or XP_ERR_NOMEM. */
int an_ov_notes(const struct an_ov_result *r, struct xp_notes *notes);
/*
 * Adds the device planes of t whose name contains device (an_device_matches;
 * NULL: all) and that hold work events, pooling by host and plane name; host planes
 * are read for launches and steps (t must have every plane loaded).
 * *added gets the planes added. Returns 0 or a negative xp_errcode.
 */
int an_ov_add(struct an_ov_result *r, struct xp_trace *t, const char *device, size_t *added,
	      struct xp_err *err);
/* The same, the input named by its path (NULL: none) for the stragglers' hosts. */
int an_ov_add_input(struct an_ov_result *r, struct xp_trace *t, const char *input, const char *device,
		    size_t *added, struct xp_err *err);
/*
 * Whether t has a device plane with events on its lines of device work
 * (an_plane_device_events), whatever --device selects: a trace without
 * one is a host-only profile, whose host steps stand alone.
 */
int an_ov_has_device_work(const struct xp_trace *t);
/* Summaries of the samples; devices in name order, numbers as numbers (an_name_cmp: GPU:2 before GPU:10). */
int an_ov_finish(struct an_ov_result *r, struct xp_err *err);
void an_ov_release(struct an_ov_result *r);

/* Interval arithmetic, exposed for tests: merges n [start, end) intervals in place, returns the count left. */
size_t an_ov_merge(int64_t (*iv)[2], size_t n);
/* Total length of merged intervals a minus their overlap with merged intervals b. */
int64_t an_ov_minus(const int64_t (*a)[2], size_t na, const int64_t (*b)[2], size_t nb);

#endif

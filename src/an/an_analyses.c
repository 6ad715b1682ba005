/* SPDX-License-Identifier: Apache-2.0 */
/* The analyses described for drivers (an_analysis.h): each one's read profile and result life. */
#include "an_analysis.h"

#include "an_autotune.h"
#include "an_callprog.h"
#include "an_compile.h"
#include "an_exec.h"
#include "an_functions.h"
#include "an_counters.h"
#include "an_cpu.h"
#include "an_events.h"
#include "an_kernels.h"
#include "an_memory.h"
#include "an_notes.h"
#include "an_ops.h"
#include "an_overview.h"

/* Finding executions: host planes for linkage only. */
#define EXEC_READ                                                                                   \
	{.how = AN_READ_EXECS, .keys = AN_EXEC_KEYS, .host_keys = AN_EXEC_HOST_KEYS,                   \
	 .want_host_event = an_exec_wants_host_event, .event_stats = XP_EVSTATS_KEYS, .cpu_device = 1}

const struct an_read_profile an_exec_read_profile = EXEC_READ;

/* Executions pooled per function: the command adds each input's executions (an_fn_add). */
static void fn_init(void *r, const void *o)
{
	an_fn_init(r, o);
}
static int fn_finish(void *r, struct xp_err *e)
{
	return an_fn_finish(r, e);
}
static void fn_release(void *r)
{
	an_fn_release(r);
}

const struct an_analysis an_functions_analysis = {
	.name = "functions",
	.read = EXEC_READ,
	.size = sizeof(struct an_fn_result),
	.init = fn_init, .finish = fn_finish, .release = fn_release,
};

/* Samples per candidate: the command adds each input's executions (an_at_add). */
static void at_init(void *r, const void *o)
{
	an_at_init(r, o);
}
static int at_finish(void *r, struct xp_err *e)
{
	return an_at_finish(r, e);
}
static void at_release(void *r)
{
	an_at_release(r);
}

const struct an_analysis an_autotune_analysis = {
	.name = "autotune",
	.read = EXEC_READ,
	.size = sizeof(struct an_at_result),
	.init = at_init, .finish = at_finish, .release = at_release,
};

static void kern_init(void *r, const void *o)
{
	an_kern_init(r, o);
}
static int kern_add(void *r, struct xp_trace *t, const char *in, struct xp_err *e)
{
	((struct an_kern_result *)r)->input_ = in;
	return an_kern_add(r, t, e);
}
static int kern_input_notes(const void *r, const char *path, int several, struct xp_notes *n)
{
	return an_kern_input_notes(r, path, several, n);
}
static int kern_merge(void *d, void *s, struct xp_err *e)
{
	return an_kern_merge(d, s, e);
}
static int kern_finish(void *r, struct xp_err *e)
{
	return an_kern_finish(r, e);
}
static int kern_notes(const void *r, int several, struct xp_notes *n)
{
	(void)several;
	return an_kern_notes(r, n);
}
static void kern_release(void *r)
{
	an_kern_release(r);
}

const struct an_analysis an_kernels_analysis = {
	.name = "kernels",
	.read = {.how = AN_READ_KERNELS, .keys = AN_KERN_KEYS, .event_stats = XP_EVSTATS_KEYS, .cpu_device = 1},
	.size = sizeof(struct an_kern_result),
	.init = kern_init, .add = kern_add, .input_notes = kern_input_notes, .merge = kern_merge,
	.finish = kern_finish, .notes = kern_notes, .release = kern_release,
};

static void ops_init(void *r, const void *o)
{
	an_ops_init(r, o);
}
static int ops_add(void *r, struct xp_trace *t, const char *in, struct xp_err *e)
{
	(void)in;
	return an_ops_add(r, t, e);
}
static int ops_merge(void *d, void *s, struct xp_err *e)
{
	return an_ops_merge(d, s, e);
}
static int ops_finish(void *r, struct xp_err *e)
{
	return an_ops_finish(r, e);
}
static int ops_notes(const void *r, int several, struct xp_notes *n)
{
	(void)several;
	return an_ops_notes(r, n);
}
static void ops_release(void *r)
{
	an_ops_release(r);
}

const struct an_analysis an_ops_analysis = {
	.name = "ops",
	.read = {.how = AN_READ_OPS, .keys = AN_OPS_KEYS, .event_stats = XP_EVSTATS_KEYS, .cpu_device = 1},
	.size = sizeof(struct an_ops_result),
	.init = ops_init, .add = ops_add, .merge = ops_merge, .finish = ops_finish, .notes = ops_notes,
	.release = ops_release,
};

/* Of the host planes only the memory events and their stats are kept. */
static void mem_init(void *r, const void *o)
{
	an_mem_init(r, o);
}
static int mem_add(void *r, struct xp_trace *t, const char *in, struct xp_err *e)
{
	return an_mem_add(r, t, in, e);
}
static int mem_input_notes(const void *r, const char *path, int several, struct xp_notes *n)
{
	return an_mem_input_notes(r, path, several, n);
}
static int mem_merge(void *d, void *s, struct xp_err *e)
{
	return an_mem_merge(d, s, e);
}
static int mem_notes(const void *r, int several, struct xp_notes *n)
{
	(void)several;
	return an_mem_notes(r, n);
}
static void mem_release(void *r)
{
	an_mem_release(r);
}

const struct an_analysis an_memory_analysis = {
	.name = "memory",
	.read = {
		.how = AN_READ_HOST, .host_keys = AN_MEM_KEYS,
		.want_host_event = an_mem_wants_host_event, .event_stats = XP_EVSTATS_KEYS,
	},
	.size = sizeof(struct an_mem_result),
	.init = mem_init, .add = mem_add, .input_notes = mem_input_notes, .merge = mem_merge,
	.notes = mem_notes, .release = mem_release,
};

/* Names and times; the key stats that name a call's program (an_callprog.h). */
static void comp_init(void *r, const void *o)
{
	an_comp_init(r, o);
}
static int comp_add(void *r, struct xp_trace *t, const char *in, struct xp_err *e)
{
	return an_comp_add(r, t, in, e);
}
static int comp_input_notes(const void *r, const char *path, int several, struct xp_notes *n)
{
	return an_comp_input_notes(r, path, several, n);
}
static int comp_merge(void *d, void *s, struct xp_err *e)
{
	return an_comp_merge(d, s, e);
}
static int comp_notes(const void *r, int several, struct xp_notes *n)
{
	return an_comp_notes(r, several, n);
}
static void comp_release(void *r)
{
	an_comp_release(r);
}

const struct an_analysis an_compile_analysis = {
	.name = "compile",
	.read = {.how = AN_READ_HOST, .keys = AN_CALLPROG_KEYS, .host_keys = AN_CALLPROG_KEYS,
		 .event_stats = XP_EVSTATS_KEYS},
	.size = sizeof(struct an_comp_result),
	.init = comp_init, .add = comp_add, .input_notes = comp_input_notes, .merge = comp_merge,
	.notes = comp_notes, .release = comp_release,
};

/* Host planes: launches and step annotations only, both marked by key stats. Devices pool by name as added. */
static void ov_init(void *r, const void *o)
{
	an_ov_init_opts(r, o);
}
/* With --stragglers: besides the overview's, what finding executions reads. */
static int ov_strag_host_event(const char *name)
{
	return an_ov_wants_host_event(name) || an_exec_wants_host_event(name);
}

const struct an_read_profile an_ov_strag_read = {
	.how = AN_READ_TRACE, .keys = AN_OV_KEYS | AN_EXEC_KEYS,
	.host_keys = 1u << XP_K_CORRELATION_ID | 1u << XP_K_STEP_NUM | AN_EXEC_HOST_KEYS,
	.want_host_event = ov_strag_host_event, .event_stats = XP_EVSTATS_KEYS,
};
static int ov_finish(void *r, struct xp_err *e)
{
	return an_ov_finish(r, e);
}
static void ov_release(void *r)
{
	an_ov_release(r);
}

const struct an_analysis an_overview_analysis = {
	.name = "overview",
	.read = {
		.how = AN_READ_TRACE, .keys = AN_OV_KEYS, .cpu_device = 1,
		.host_keys = 1u << XP_K_CORRELATION_ID | 1u << XP_K_STEP_NUM,
		.want_host_event = an_ov_wants_host_event, .event_stats = XP_EVSTATS_KEYS,
	},
	.size = sizeof(struct an_ov_result),
	.init = ov_init, .finish = ov_finish, .release = ov_release,
};

/*
 * Every plane, each counted on the thread that read it, its events then
 * freed: counts and times need no stats (events --list reads otherwise).
 */
static void ev_init(void *r, const void *o)
{
	(void)o;
	an_ev_init(r);
}
static int ev_finish(void *r, struct xp_err *e)
{
	return an_ev_finish(r, e);
}
static void ev_release(void *r)
{
	an_ev_release(r);
}

/* Counters: the counter lines' samples with their stats, each plane counted as it is read. */
static void ctr_init(void *r, const void *o)
{
	(void)o;
	an_ctr_init(r);
}
static int ctr_finish(void *r, struct xp_err *e)
{
	return an_ctr_finish(r, e);
}
static void ctr_release(void *r)
{
	an_ctr_release(r);
}

const struct an_analysis an_counters_analysis = {
	.name = "events --counters",
	.read = {
		.how = AN_READ_TRACE, .event_stats = XP_EVSTATS_INPUT, .plane_read = an_ctr_plane_read,
		.plane_user_free = an_ctr_user_free, .release_events = 1,
	},
	.size = sizeof(struct an_ctr_result),
	.init = ctr_init, .finish = ctr_finish, .release = ctr_release,
};

const struct an_analysis an_events_analysis = {
	.name = "events",
	.read = {
		.how = AN_READ_TRACE, .event_stats = XP_EVSTATS_NONE, .plane_read = an_ev_plane_read,
		.plane_user_free = an_ev_user_free, .release_events = 1,
	},
	.size = sizeof(struct an_ev_result),
	.init = ev_init, .finish = ev_finish, .release = ev_release,
};

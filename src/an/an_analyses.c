/* SPDX-License-Identifier: Apache-2.0 */
/* The analyses described for drivers (an_analysis.h): each one's read profile and result life. */
#include "an_analysis.h"

#include "an_compile.h"
#include "an_exec.h"
#include "an_functions.h"
#include "an_events.h"
#include "an_kernels.h"
#include "an_memory.h"
#include "an_notes.h"
#include "an_ops.h"
#include "an_overview.h"

/* Host planes for linkage only. */
const struct an_read_profile an_exec_read_profile = {
	AN_READ_EXECS, AN_EXEC_KEYS, AN_EXEC_HOST_KEYS, an_exec_wants_host_event, XP_EVSTATS_KEYS,
};

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
	"functions", {AN_READ_EXECS, AN_EXEC_KEYS, AN_EXEC_HOST_KEYS, an_exec_wants_host_event, XP_EVSTATS_KEYS},
	sizeof(struct an_fn_result), fn_init, NULL, NULL, NULL, fn_finish, NULL, fn_release,
};

static void kern_init(void *r, const void *o) { an_kern_init(r, o); }
static int kern_add(void *r, struct xp_trace *t, const char *in, struct xp_err *e) { (void)in; return an_kern_add(r, t, e); }
static int kern_input_notes(const void *r, const char *path, int several, struct xp_notes *n)
{
	return an_kern_input_notes(r, path, several, n);
}
static int kern_merge(void *d, void *s, struct xp_err *e) { return an_kern_merge(d, s, e); }
static int kern_finish(void *r, struct xp_err *e) { return an_kern_finish(r, e); }
static int kern_notes(const void *r, struct xp_notes *n) { return an_kern_notes(r, n); }
static void kern_release(void *r) { an_kern_release(r); }

const struct an_analysis an_kernels_analysis = {
	"kernels", {AN_READ_KERNELS, AN_KERN_KEYS, 0, NULL, XP_EVSTATS_KEYS}, sizeof(struct an_kern_result),
	kern_init, kern_add, kern_input_notes, kern_merge, kern_finish, kern_notes, kern_release,
};

static void ops_init(void *r, const void *o) { an_ops_init(r, o); }
static int ops_add(void *r, struct xp_trace *t, const char *in, struct xp_err *e) { (void)in; return an_ops_add(r, t, e); }
static int ops_merge(void *d, void *s, struct xp_err *e) { return an_ops_merge(d, s, e); }
static int ops_finish(void *r, struct xp_err *e) { return an_ops_finish(r, e); }
static int ops_notes(const void *r, struct xp_notes *n) { return an_ops_notes(r, n); }
static void ops_release(void *r) { an_ops_release(r); }

const struct an_analysis an_ops_analysis = {
	"ops", {AN_READ_OPS, AN_OPS_KEYS, 0, NULL, XP_EVSTATS_KEYS}, sizeof(struct an_ops_result),
	ops_init, ops_add, NULL, ops_merge, ops_finish, ops_notes, ops_release,
};

/* Of the host planes only the memory events and their stats are kept. */
static void mem_init(void *r, const void *o) { an_mem_init(r, o); }
static int mem_add(void *r, struct xp_trace *t, const char *in, struct xp_err *e) { return an_mem_add(r, t, in, e); }
static int mem_input_notes(const void *r, const char *path, int several, struct xp_notes *n)
{
	return an_mem_input_notes(r, path, several, n);
}
static int mem_merge(void *d, void *s, struct xp_err *e) { return an_mem_merge(d, s, e); }
static int mem_notes(const void *r, struct xp_notes *n) { return an_mem_notes(r, n); }
static void mem_release(void *r) { an_mem_release(r); }

const struct an_analysis an_memory_analysis = {
	"memory", {AN_READ_HOST, 0, AN_MEM_KEYS, an_mem_wants_host_event, XP_EVSTATS_KEYS},
	sizeof(struct an_mem_result), mem_init, mem_add, mem_input_notes, mem_merge, NULL, mem_notes, mem_release,
};

/* Names and times only. */
static void comp_init(void *r, const void *o) { an_comp_init(r, o); }
static int comp_add(void *r, struct xp_trace *t, const char *in, struct xp_err *e) { return an_comp_add(r, t, in, e); }
static int comp_input_notes(const void *r, const char *path, int several, struct xp_notes *n)
{
	return an_comp_input_notes(r, path, several, n);
}
static int comp_merge(void *d, void *s, struct xp_err *e) { return an_comp_merge(d, s, e); }
static int comp_notes(const void *r, struct xp_notes *n)
{
	return an_comp_notes(r, n);
}
static void comp_release(void *r) { an_comp_release(r); }

const struct an_analysis an_compile_analysis = {
	"compile", {AN_READ_HOST, 0, 0, NULL, XP_EVSTATS_NONE}, sizeof(struct an_comp_result),
	comp_init, comp_add, comp_input_notes, comp_merge, NULL, comp_notes, comp_release,
};

/* Host planes: launches and step annotations only, both marked by key stats. Devices pool by name as added. */
static void ov_init(void *r, const void *o) { (void)o; an_ov_init(r); }
static int ov_finish(void *r, struct xp_err *e) { return an_ov_finish(r, e); }
static void ov_release(void *r) { an_ov_release(r); }

const struct an_analysis an_overview_analysis = {
	"overview", {AN_READ_TRACE, AN_OV_KEYS, 1u << XP_K_CORRELATION_ID | 1u << XP_K_STEP_NUM,
		     an_ov_wants_host_event, XP_EVSTATS_KEYS},
	sizeof(struct an_ov_result), ov_init, NULL, NULL, NULL, ov_finish, NULL, ov_release,
};

/* Every plane; counts and times need no stats (events --list asks for them all). */
static void ev_init(void *r, const void *o) { (void)o; an_ev_init(r); }
static int ev_finish(void *r, struct xp_err *e) { return an_ev_finish(r, e); }
static void ev_release(void *r) { an_ev_release(r); }

const struct an_analysis an_events_analysis = {
	"events", {AN_READ_TRACE, 0, 0, NULL, XP_EVSTATS_NONE}, sizeof(struct an_ev_result),
	ev_init, NULL, NULL, NULL, ev_finish, NULL, ev_release,
};

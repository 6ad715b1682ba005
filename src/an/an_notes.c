/* SPDX-License-Identifier: Apache-2.0 */
/* Warning texts about analysis results (an_notes.h). */
#include "an_notes.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_callprog.h"
#include "an_sketch.h"
#include "xp_stray.h"

int an_plane_again_note(struct xp_notes *n, const char *path, const char *plane, size_t left_out)
{
	return xp_notes_add(n, "'%s': plane '%s' appears %zu times in the trace (dumps merged into one?): the "
			    "first is counted, the other%s left out", path, plane, left_out + 1,
			    left_out == 1 ? "" : "s") ? XP_ERR_NOMEM : 0;
}

int an_fn_notes(const struct an_fn_result *r, struct xp_notes *n)
{
	if (r->busy_saturated && xp_notes_add(n, "device busy time summed over devices and inputs passed 2^63-1 ps "
					      "(106 days): shown as the largest time, not the sum"))
		return XP_ERR_NOMEM;
	return 0;
}

int an_kern_notes(const struct an_kern_result *r, struct xp_notes *n)
{
	char ex[256];
	int ret = 0;

	if (r->bad_config) {
		xp_escape(ex, sizeof(ex), r->bad_config_example ? r->bad_config_example : "");
		ret |= xp_notes_add(n, "%zu kernel%s carr%s a kernel_details stat that does not parse as a launch "
				    "configuration (e.g. \"%s\"): counted under %s name, configuration '?'",
				    r->bad_config, r->bad_config == 1 ? "" : "s", r->bad_config == 1 ? "ies" : "y", ex,
				    r->bad_config == 1 ? "its" : "their");
	}
	if (r->partial_config) {
		xp_escape(ex, sizeof(ex), r->partial_config_example ? r->partial_config_example : "");
		ret |= xp_notes_add(n, "%zu kernel%s kernel_details read in part (e.g. \"%s\"): keys not known ignored, "
				    "values that do not parse left out, a missing grid or block taken as 1,1,1 (as XProf "
				    "does); the configuration holds what was read", r->partial_config,
				    r->partial_config == 1 ? "'s" : "s'", ex);
	}
	if (r->implausible_config)
		ret |= xp_notes_add(n, "%zu kernel%s record a grid or block with a zero dimension (values the profiler "
				    "did not fill in): their configurations are shown as recorded",
				    r->implausible_config, r->implausible_config == 1 ? "" : "s");
	if (r->opts.by == AN_KERN_BY_CONFIG && r->no_config)
		ret |= xp_notes_add(n, "%zu kernel%s carr%s no kernel_details stat: configuration '-'", r->no_config,
				    r->no_config == 1 ? "" : "s", r->no_config == 1 ? "ies" : "y");
	if (r->device_planes_no_streams)
		ret |= xp_notes_add(n, "%zu device plane%s with events but no stream lines (TPU: 'xplane-stat ops' "
				    "reads their XLA Ops)", r->device_planes_no_streams,
				    r->device_planes_no_streams == 1 ? "" : "s");
	if (r->approximate)
		ret |= xp_notes_add(n, "%zu row%s: median, p90 and p99 approximate, within %g%%: summaries keep a kernel's "
				    "instances on a device beyond %d as a sketch (SUMMARIES in xplane-stat(1))",
				    r->approximate, r->approximate == 1 ? "" : "s", AN_SKETCH_ALPHA * 100, AN_KERN_EXACT_MAX);
	return ret ? XP_ERR_NOMEM : 0;
}

int an_kern_input_notes(const struct an_kern_result *r, const char *path, int several, struct xp_notes *n)
{
	size_t k = r->stray_events;
	int ret = 0;

	if (!r->devices && several)
		ret |= xp_notes_add(n, "'%s': no GPU plane with stream lines%s", path,
				    r->opts.device ? " matching --device" : "");
	if (k)
		ret |= xp_notes_add(n, "'%s': %zu event%s on the stream lines end%s more than %d windows after "
				    "every other event of the plane (a duration that reads like an absolute end "
				    "time): left out", path, k, k == 1 ? "" : "s", k == 1 ? "s" : "", XP_STRAY_WINDOWS);
	return ret ? XP_ERR_NOMEM : 0;
}

int an_mem_input_notes(const struct an_mem_result *r, const char *path, int several, struct xp_notes *n)
{
	size_t k = r->no_memory_id;
	int ret = 0;

	if (k)
		ret |= xp_notes_add(n, "'%s': %zu memory event%s name%s neither allocator_name nor index_on_host: "
				    "left out", path, k, k == 1 ? "" : "s", k == 1 ? "s" : "");
	if (several && !r->nrows)
		ret |= xp_notes_add(n, "'%s': no memory events%s", path,
				    r->opts.memory ? " of a memory matching --memory" : "");
	return ret ? XP_ERR_NOMEM : 0;
}

int an_comp_input_notes(const struct an_comp_result *r, const char *path, int several, struct xp_notes *n)
{
	if (several && r->inputs_without)
		return xp_notes_add(n, "'%s': no PjitFunction call or compiler event on a host plane", path);
	return 0;
}

/* The notes of one function of one input, rows fns[0..k) (its programs, unknown last). */
static int comp_fn_notes(const struct an_comp_fn *const *fns, size_t k, int several, struct xp_notes *n)
{
	char progs[96], in[512] = "", name[256], path[400];
	size_t i, len = 0, known = 0, unknown = 0, calls = 0;
	int ret = 0;

	for (i = 0; i < k; i++) {
		calls += fns[i]->calls;
		if (!fns[i]->has_program) {
			unknown += fns[i]->calls;
			continue;
		}
		if (len < sizeof(progs))
			len += (size_t)snprintf(progs + len, sizeof(progs) - len, "%s%" PRIu64, known ? ", " : "",
						fns[i]->program_id);
		known++;
	}
	if (len >= sizeof(progs))
		memcpy(progs + sizeof(progs) - 4, "...", 4);
	xp_escape(name, sizeof(name), fns[0]->name);
	xp_escape(path, sizeof(path), fns[0]->input);
	if (several)
		snprintf(in, sizeof(in), "'%s': ", path);
	if (known > 1)
		ret |= xp_notes_add(n, "%sfunction '%s' ran as %zu programs (%s): each compiles on its first call, so "
				    "each gets a row of its own", in, name, known, progs);
	if (known && unknown)
		ret |= xp_notes_add(n, "%sfunction '%s': %zu of its %zu calls name no single program (no launch or "
				    "enqueue inside them names one: dispatched to run later, their work not traced, or "
				    "several programs); they get a row of their own, program unknown", in, name, unknown, calls);
	return ret;
}

int an_comp_notes(const struct an_comp_result *r, int several, struct xp_notes *n)
{
	size_t nfns = 0, i, k, *g = an_comp_fn_groups(r, &nfns), *first = NULL, *count = NULL;
	const struct an_comp_fn **rows = NULL;
	size_t none = 0, none_calls = 0;
	char names[160] = "";
	int ret = 0;

	if (!g || !(first = calloc(nfns + 1, sizeof(*first))) || !(count = calloc(nfns + 1, sizeof(*count))) ||
	    !(rows = malloc((r->nfns + 1) * sizeof(*rows)))) {
		ret = XP_ERR_NOMEM;
		goto out;
	}
	/* the rows of each function together, in the order of its first row */
	for (i = 0; i < r->nfns; i++)
		count[g[i]]++;
	for (k = 0, i = 0; i < nfns; i++) {
		first[i] = k;
		k += count[i];
		count[i] = 0;
	}
	for (i = 0; i < r->nfns; i++)
		rows[first[g[i]] + count[g[i]]++] = &r->fns[i];
	for (i = 0; i < nfns; i++) {
		const struct an_comp_fn *const *fr = rows + first[i];

		ret |= comp_fn_notes(fr, count[i], several, n);
		if (count[i] == 1 && !fr[0]->has_program) {	/* one row, of unknown program */
			char name[64];
			size_t len = strlen(names);

			xp_escape(name, sizeof(name), fr[0]->name);
			if (len + strlen(name) + 8 < sizeof(names))
				snprintf(names + len, sizeof(names) - len, "%s'%s'", none ? ", " : "", name);
			else if (len + 5 < sizeof(names) && !strstr(names, "..."))
				snprintf(names + len, sizeof(names) - len, ", ...");
			none++;
			none_calls += fr[0]->calls;
		}
	}
	if (none && !r->calls_program)
		ret |= xp_notes_add(n, "no call names its program (no launch or enqueue inside any call names one): "
				    "each function's row pools the programs it ran, and its first call may be "
				    "another program's");
	else if (none)
		ret |= xp_notes_add(n, "%zu function%s (%s) name%s no program in any of %s %zu call%s (no launch or "
				    "enqueue inside them names one: dispatched to run later, or their work not traced): "
				    "%s program%s unknown, and a first call may be another program's", none,
				    none == 1 ? "" : "s", names, none == 1 ? "s" : "", none == 1 ? "its" : "their",
				    none_calls, none_calls == 1 ? "" : "s", none == 1 ? "its" : "their",
				    none == 1 ? " is" : "s are");
	if (r->calls_ambiguous)
		ret |= xp_notes_add(n, "%zu call%s name%s several programs of %s function (launches inside them ran "
				    "more than one): counted with the calls of unknown program", r->calls_ambiguous,
				    r->calls_ambiguous == 1 ? "" : "s", r->calls_ambiguous == 1 ? "s" : "",
				    r->calls_ambiguous == 1 ? "its" : "their");
	if (r->calls_unsearched)
		ret |= xp_notes_add(n, "%zu call%s not searched for %s program: the calls before had walked %zu "
				    "events inside calls already (the limit); counted with the calls of unknown "
				    "program", r->calls_unsearched, r->calls_unsearched == 1 ? "" : "s",
				    r->calls_unsearched == 1 ? "its" : "their", AN_CALLPROG_BUDGET);
	if (!r->compiler_events && r->nfns)
		ret |= xp_notes_add(n, "no compiler events (trace_to_jaxpr, lower_*, backend_compile, *Compiler::*) "
				    "in %s: each function's overhead is the first call minus the later median, an "
				    "estimate", several ? "any input" : "this input");
out:
	free(g);
	free(first);
	free(count);
	free(rows);
	return ret ? XP_ERR_NOMEM : 0;
}

static int ev_stray_notes(size_t k, const char *path, struct xp_notes *n)
{
	if (!k)
		return 0;
	return xp_notes_add(n, "'%s': %zu event%s end%s more than %d windows after every other event of %s plane "
			    "(a duration that reads like an absolute end time): counted, but left out of total, "
			    "mean, min and max", path, k, k == 1 ? "" : "s", k == 1 ? "s" : "", XP_STRAY_WINDOWS,
			    k == 1 ? "its" : "their");
}

const char *an_agg_odd_note(size_t k)
{
	return k == 1 ? "aggregated event carries a self_duration_ps or min_duration_ps that is no duration of "
			"its (negative, not an integer, or over its total): ignored (self time is its total, "
			"its shortest unknown)"
		      : "aggregated events carry self_duration_ps or min_duration_ps stats that are no durations "
			"of theirs (negative, not integers, or over their totals): ignored (self time is the "
			"total, the shortest unknown)";
}

int an_ev_add_input(struct an_ev_result *r, const struct xp_trace *t, const struct an_ev_opts *o,
		    const char *path, struct xp_notes *n, struct xp_err *err)
{
	size_t before = r->stray, odd = r->aggregated_odd;
	int ret = an_ev_add(r, t, o, err);

	if (!ret && (odd = r->aggregated_odd - odd) &&
	    xp_notes_add(n, "'%s': %zu %s", path, odd, an_agg_odd_note(odd)))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	if (!ret && r->events == SIZE_MAX && !r->counts_saturated_ &&
	    (r->counts_saturated_ = 1) &&
	    xp_notes_add(n, "'%s': event counts (the occurrences of aggregated events) passed 2^64-1: shown as "
			    "%zu", path, (size_t)SIZE_MAX))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	return ret ? ret : ev_stray_notes(r->stray - before, path, n);
}

int an_mem_notes(const struct an_mem_result *r, struct xp_notes *n)
{
	size_t i, no_state = 0, unseen = 0, reused = 0, varies = 0;
	int ret = 0;

	for (i = 0; i < r->nrows; i++) {
		no_state += r->rows[i].no_state;
		unseen += r->rows[i].freed_unseen;
		reused += r->rows[i].addr_reused;
		varies += r->rows[i].capacity_varies;
	}
	if (no_state)
		ret |= xp_notes_add(n, "%zu memory event%s give%s no bytes_allocated: counted, but not in the peak "
				    "or timeline", no_state, no_state == 1 ? "" : "s", no_state == 1 ? "s" : "");
	if (unseen)
		ret |= xp_notes_add(n, "%zu deallocation%s free%s an address with no allocation seen in the profile "
				    "(made before it began)", unseen, unseen == 1 ? "" : "s", unseen == 1 ? "s" : "");
	if (reused)
		ret |= xp_notes_add(n, "%zu allocation%s reuse%s an address still live (its free was not recorded): "
				    "the older allocation is taken as freed", reused, reused == 1 ? "" : "s",
				    reused == 1 ? "s" : "");
	if (varies)
		ret |= xp_notes_add(n, "%zu memor%s report%s a capacity (in use + available) that changes over "
				    "the profile: the largest is shown", varies, varies == 1 ? "y" : "ies",
				    varies == 1 ? "s" : "");
	return ret ? XP_ERR_NOMEM : 0;
}

int an_ops_notes(const struct an_ops_result *r, struct xp_notes *n)
{
	size_t i, k;
	int ret = 0;

	for (i = 0; i < r->ndevices; i++) {
		const struct an_ops_device *d = &r->devices[i];

		if ((k = d->stray_events))
			ret |= xp_notes_add(n, "plane '%s': %zu op event%s end%s more than %d windows after every "
					    "other event of the line (a duration that reads like an absolute end "
					    "time): left out", d->name, k, k == 1 ? "" : "s", k == 1 ? "s" : "",
					    XP_STRAY_WINDOWS);
		if ((k = d->partial_overlaps))
			ret |= xp_notes_add(n, "plane '%s': %zu op%s start%s inside another op of the line and "
					    "end%s after it (ops nested out of order): no child of it, nothing "
					    "subtracted from its self time", d->name, k, k == 1 ? "" : "s",
					    k == 1 ? "s" : "", k == 1 ? "s" : "");
		if ((k = d->odd_values))
			ret |= xp_notes_add(n, "plane '%s': %zu flops, model_flops or bytes_accessed stat%s %s "
					    "negative or not an integer (treated as absent)", d->name, k,
					    k == 1 ? "" : "s", k == 1 ? "is" : "are");
		if ((k = d->extra_module_lines))
			ret |= xp_notes_add(n, "plane '%s': %zu more 'XLA Modules' line%s not used for programs",
					    d->name, k, k == 1 ? "" : "s");
		if (d->peaks_differ)
			ret |= xp_notes_add(n, "plane '%s': the inputs state different peaks for it (chip or values): "
					    "the greatest is shown; each input's rows are bound by its own", d->name);
		if ((k = d->kernels_no_op) && d->events[AN_OP_GPU])
			ret |= xp_notes_add(n, "plane '%s': %zu kernel%s without an hlo_op stat%s left out", d->name,
					    k, k == 1 ? "" : "s", an_ops_no_op_what(r));
	}
	if ((k = r->aggregated_odd))
		ret |= xp_notes_add(n, "%zu %s", k, an_agg_odd_note(k));
	if ((k = r->aggregated_left))
		ret |= xp_notes_add(n, "%zu aggregated event%s (num_occurrences) on GPU planes left out: a kernel "
				    "stands for itself ('events' counts them)", k, k == 1 ? "" : "s");
	if ((k = r->overflows))
		ret |= xp_notes_add(n, "%zu row sum%s passed 2^64-1 (flops, bytes, occurrences) or 2^63-1 ps "
				    "(time): shown as unknown (flops, bytes) or the largest value", k, k == 1 ? "" : "s");
	if ((k = r->partial_sums))
		ret |= xp_notes_add(n, "%zu row value%s (flops, model_flops, bytes_accessed) carried by only "
				    "some occurrences: shown as unknown", k, k == 1 ? "" : "s");
	if ((k = r->ridge_differs))
		ret |= xp_notes_add(n, "%zu row%s ran on devices with different peaks: no bound-by", k,
				    k == 1 ? "" : "s");
	return ret ? XP_ERR_NOMEM : 0;
}

/* The counts an_ov_counts keeps a device: stray, no_launch, ambiguous, off_scale, repeats. */
#define OV_COUNTS 5

int an_ov_counts(const struct an_ov_result *r, size_t **before)
{
	size_t k;

	if (!(*before = malloc((r->n + 1) * OV_COUNTS * sizeof(**before))))
		return XP_ERR_NOMEM;
	(*before)[r->n * OV_COUNTS] = r->strag_left_out;	/* after the devices' */
	for (k = 0; k < r->n; k++) {
		(*before)[k * OV_COUNTS] = r->devices[k].stray;
		(*before)[k * OV_COUNTS + 1] = r->devices[k].no_launch;
		(*before)[k * OV_COUNTS + 2] = r->devices[k].ambiguous;
		(*before)[k * OV_COUNTS + 3] = r->devices[k].off_scale;
		(*before)[k * OV_COUNTS + 4] = r->devices[k].repeats;
	}
	return 0;
}

int an_ov_input_notes(struct xp_notes *n, const char *path, const struct an_ov_result *r,
		      const size_t *before, size_t nbefore)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < r->n; i++) {
		const struct an_ov_device *d = &r->devices[i];
		const size_t *b = i < nbefore ? &before[i * OV_COUNTS] : NULL;
		size_t st = d->stray - (b ? b[0] : 0), nl = d->no_launch - (b ? b[1] : 0);
		size_t am = d->ambiguous - (b ? b[2] : 0), os = d->off_scale - (b ? b[3] : 0);
		size_t rp = d->repeats - (b ? b[4] : 0);

		if (rp)
			ret |= an_plane_again_note(n, path, d->name, rp);
		if (st)
			ret |= xp_notes_add(n, "'%s': plane '%s': %zu event%s end%s more than %d windows after every "
					    "other event of the plane (a duration that reads like an absolute end "
					    "time): left out of span, busy time and statistics", path, d->name, st,
					    st == 1 ? "" : "s", st == 1 ? "s" : "", XP_STRAY_WINDOWS);
		if (nl)
			ret |= xp_notes_add(n, "'%s': plane '%s': %zu device event%s with a correlation_id ha%s no "
					    "host event with that id: no launch latency", path, d->name, nl,
					    nl == 1 ? "" : "s", nl == 1 ? "s" : "ve");
		if (am)
			ret |= xp_notes_add(n, "'%s': plane '%s': %zu device event%s share%s its correlation_id with "
					    "several host events: left out of launch latency", path, d->name, am,
					    am == 1 ? "" : "s", am == 1 ? "s" : "");
		if (os)
			ret |= xp_notes_add(n, "'%s': plane '%s': %zu device event%s and %s host launch%s lie too far "
					    "apart to compare: left out of launch latency", path, d->name, os,
					    os == 1 ? "" : "s", os == 1 ? "its" : "their", os == 1 ? "" : "es");
	}
	if (r->strag_left_out > before[nbefore * OV_COUNTS])
		ret |= xp_notes_add(n, "'%s': left out of the stragglers: %s", path, r->strag_why);
	return ret;
}

/* A warning per candidate id whose executions were compiled into several programs (rows split). */
int an_at_program_notes(const struct an_at_result *r, struct xp_notes *notes)
{
	char id[256], list[512];
	size_t i, j, len;

	for (i = 0; i < r->ncands; i += r->cands[i].id_rows ? r->cands[i].id_rows : 1) {
		const struct an_at_cand *c = &r->cands[i];

		if (c->id_rows < 2)
			continue;
		xp_escape_utf8(id, sizeof(id), c->id);
		list[0] = '\0';
		for (j = 0, len = 0; j < c->id_rows && len + 32 < sizeof(list); j++) {
			const struct an_at_prog *p = &r->cands[i + j].progs[0];

			if (p->known)
				len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%" PRIu64, j ? ", " : "", p->id);
			else
				len += (size_t)snprintf(list + len, sizeof(list) - len, "%sunknown", j ? ", " : "");
		}
		if (j < c->id_rows)
			snprintf(list + len, sizeof(list) - len, ", ...");
		if (xp_notes_add(notes, "candidate '%s' ran as %zu programs (%s): its samples are not one "
				 "computation, so it gets a row per program; --pool-programs pools them",
				 id, c->id_rows, list))
			return -1;
	}
	return 0;
}

/* Candidates with fewer than 2 run means left (in too few runs, or trimmed): no test. */
static int few_runs_note(struct xp_notes *notes, const struct an_at_result *r, size_t trim)
{
	size_t i, n = 0;

	for (i = 0; r->samples_are_runs && i < r->ncands; i++)
		n += r->cands[i].s.n_used < 2;
	if (!n)
		return 0;
	return xp_notes_add(notes, "%zu candidate%s left with fewer than 2 run means to test (of %zu runs; trim %zu "
			    "from %d run means on): untested; more runs give a test", n, n == 1 ? "" : "s", r->runs,
			    trim, AN_AT_TRIM_RUNS_MIN);
}

int an_at_notes(const struct an_at_result *r, int compat, size_t trim, struct xp_notes *n)
{
	int ret = an_at_program_notes(r, n) ? XP_ERR_NOMEM : 0;

	if (r->inputs_without && !compat)
		ret |= xp_notes_add(n, "%zu of %zu inputs hold%s no candidate", r->inputs_without, r->inputs,
				    r->inputs_without == 1 ? "s" : "");
	if (r->dropped_short)
		ret |= xp_notes_add(n, "%zu device event%s shorter than --min-duration dropped", r->dropped_short,
				    r->dropped_short == 1 ? "" : "s");
	ret |= few_runs_note(n, r, trim);
	return ret ? XP_ERR_NOMEM : 0;
}

int an_ov_host_only_note(struct xp_notes *n, const char *path, const char *device, size_t host_only)
{
	return xp_notes_add(n, "'%s': no device plane with events%s: its %zu host step%s stand%s alone", path,
			    device ? " matching --device" : "", host_only, host_only == 1 ? "" : "s",
			    host_only == 1 ? "s" : "") < 0 ? XP_ERR_NOMEM : 0;
}

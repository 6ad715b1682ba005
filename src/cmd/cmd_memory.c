/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat memory: device memory from the allocators' events on the host plane. */
#include <stdlib.h>
#include <string.h>

#include "an_memory.h"
#include "cmd.h"
#include "opt.h"
#include "out_memory.h"
#include "xp_input.h"
#include "xp_pool.h"

struct mem_args {
	struct cmd_common c;
	const char *memory;
	int peak, timeline;
	size_t top;
};

struct mem_batch {
	const struct mem_args *a;
	const struct xp_pathlist *paths;
	unsigned plane_jobs;
	struct an_mem_result *res;
	struct xp_notes *notes;
	struct cmd_batch b;
	int ret;		/* an exit code that stops the batch; -1: going on */
};

struct mem_output {
	const struct an_mem_result *res;
	const struct out_mem_opts *o;
	const struct xp_notes *notes;
};

static int print_memory(FILE *f, enum out_mode mode, int colour, const void *arg)
{
	const struct mem_output *o = arg;

	return out_memory(f, mode, o->res, o->o, o->notes, colour);
}

/* One input read and analysed on a worker thread. */
struct mem_input {
	struct cmd_input in;	/* path, code, err, notes; the trace is freed once analysed */
	struct an_mem_result r;
};

static void mem_input_free(struct mem_input *mi)
{
	if (!mi)
		return;
	an_mem_release(&mi->r);
	xp_trace_free(mi->in.t);
	xp_notes_release(&mi->in.notes);
	free(mi);
}

static int mem_add(void *result, const struct xp_trace *t, const char *input, struct xp_err *err)
{
	return an_mem_add(result, t, input, err);
}

static void *mem_work(size_t i, void *ctx)
{
	struct mem_batch *mb = ctx;
	struct mem_input *mi = calloc(1, sizeof(*mi));

	if (!mi)
		return NULL;
	an_mem_init(&mi->r, &mb->res->opts);
	mi->in.path = mb->paths->paths[i];
	cmd_host_analyse(&mb->a->c, mb->plane_jobs, &mi->in, &mi->r, mem_add);
	return mi;
}

static void mem_done(size_t i, void *result, void *ctx)
{
	struct mem_batch *mb = ctx;
	struct mem_input *mi = result;
	struct xp_err err = {0};
	size_t no_id, rows;

	(void)i;
	if (mb->ret >= 0)
		goto out;
	if (cmd_batch_step(&mb->b, mi ? &mi->in : NULL, mb->notes)) {
		mb->ret = mi ? mi->in.code : EXIT_ERROR;
		goto out;
	}
	if (!mi || mi->in.code)
		goto out;
	no_id = mi->r.no_memory_id;
	rows = mi->r.nrows;
	if (an_mem_merge(mb->res, &mi->r, &err)) {
		cmd_error("%s", err.msg);
		mb->ret = EXIT_ERROR;
		goto out;
	}
	if (no_id)
		xp_notes_add(mb->notes, "'%s': %zu memory event%s name%s neither allocator_name nor "
			     "index_on_host: left out", mi->in.path, no_id, no_id == 1 ? "" : "s",
			     no_id == 1 ? "s" : "");
	if (mb->paths->n > 1 && !rows)
		xp_notes_add(mb->notes, "'%s': no memory events%s", mi->in.path,
			     mb->a->memory ? " of a memory matching --memory" : "");
out:
	mem_input_free(mi);
}

/* Warnings about the result: what it could not use or explain. */
static void result_notes(const struct an_mem_result *r, struct xp_notes *n)
{
	size_t i, no_state = 0, unseen = 0, reused = 0, varies = 0;

	for (i = 0; i < r->nrows; i++) {
		no_state += r->rows[i].no_state;
		unseen += r->rows[i].freed_unseen;
		reused += r->rows[i].addr_reused;
		varies += r->rows[i].capacity_varies;
	}
	if (no_state)
		xp_notes_add(n, "%zu memory event%s give%s no bytes_allocated: counted, but not in the peak "
			     "or timeline", no_state, no_state == 1 ? "" : "s", no_state == 1 ? "s" : "");
	if (unseen)
		xp_notes_add(n, "%zu deallocation%s free%s an address with no allocation seen in the profile "
			     "(made before it began)", unseen, unseen == 1 ? "" : "s", unseen == 1 ? "s" : "");
	if (reused)
		xp_notes_add(n, "%zu allocation%s reuse%s an address still live (its free was not recorded): "
			     "the older allocation is taken as freed", reused, reused == 1 ? "" : "s",
			     reused == 1 ? "s" : "");
	if (varies)
		xp_notes_add(n, "%zu memor%s report%s a capacity (in use + available) that changes over "
			     "the profile: the largest is shown", varies, varies == 1 ? "y" : "ies",
			     varies == 1 ? "s" : "");
}

int cmd_memory(int argc, char **argv)
{
	struct mem_args a = {0};
	const struct opt opts[] = {
		{"memory", 0, OPT_STR, &a.memory, "PATTERN",
		 "only memories whose id contains PATTERN, any case (GPU_0_bfc, index_on_host:1)"},
		{"peak", 0, OPT_FLAG, &a.peak, NULL,
		 "also list the allocations live at each memory's peak, largest first (CSV/TSV: only them)"},
		{"top", 0, OPT_COUNT, &a.top, "N", "with --peak, the table shows the N largest per memory"},
		{"timeline", 0, OPT_FLAG, &a.timeline, NULL,
		 "also give bytes in use after every event, for plots (CSV/TSV: only these points)"},
		CMD_OPTS_INPUT(&a.c),
		CMD_OPTS_FORMAT(&a.c),
		{0},
	};
	const struct opt_cmd cmd = {
		"memory", "[OPTIONS] FILE|DIR|-...",
		"Device memory from the allocators' MemoryAllocation and MemoryDeallocation\n"
		"events on the host plane, per input and memory (an allocator such as GPU_0_bfc,\n"
		"or a TPU by index_on_host): capacity, the peak bytes in use (allocated +\n"
		"reserved) in the profile and when, fragmentation then, the allocator's own\n"
		"lifetime peak, allocation and free counts, and the allocations live at the peak\n"
		"(matched by address; bytes allocated before the profile are shown apart).",
		opts,
	};
	struct an_mem_opts mo = {0};
	struct out_mem_opts oo = {0};
	struct an_mem_result res;
	struct mem_output out;
	struct xp_pathlist paths = {0};
	struct xp_notes notes = {0};
	struct mem_batch mb = {0};
	int m, ret;
	enum out_mode mode;
	const char **pos = NULL;
	size_t npos;

	cmd_common_init(&a.c);
	an_mem_init(&res, &mo);
	ret = cmd_parse(&cmd, argc, argv, &pos, &npos);
	if (ret >= 0)
		goto out;
	ret = EXIT_USAGE;
	if (!npos) {
		cmd_error("no input given (see 'xplane-stat memory --help')");
		goto out;
	}
	if ((m = cmd_output_mode(&a.c)) < 0)
		goto out;
	mode = (enum out_mode)m;
	if ((mode == OUT_CSV || mode == OUT_TSV) && a.peak && a.timeline) {
		cmd_error("--peak and --timeline are two tables: CSV and TSV give one (JSON has both)");
		goto out;
	}
	if (a.top && !a.peak) {
		cmd_error("--top limits the --peak lists: give --peak too");
		goto out;
	}
	if ((ret = cmd_input_setup(&a.c)) >= 0)
		goto out;
	/* Of the host planes only the memory events and their stats are kept. */
	a.c.event_stats = XP_EVSTATS_KEYS;
	a.c.want_host_event = an_mem_wants_host_event;
	a.c.host_keys = AN_MEM_KEYS;
	mo.peak = a.peak;
	mo.timeline = a.timeline;
	mo.memory = a.memory;
	an_mem_release(&res);
	an_mem_init(&res, &mo);
	oo.view = a.peak ? OUT_MEM_PEAK : a.timeline ? OUT_MEM_TIMELINE : OUT_MEM_SUMMARY;
	oo.top = a.top;
	if ((ret = cmd_batch_inputs(&mb.b, &a.c, pos, npos, &paths, &notes, &mb.plane_jobs)) >= 0)
		goto out;
	oo.show_input = paths.n > 1;
	mb.a = &a;
	mb.paths = &paths;
	mb.res = &res;
	mb.notes = &notes;
	mb.ret = -1;
	ret = cmd_batch_run(&mb.b, cmd_jobs(&a.c, paths.n), mem_work, mem_done, &mb, &notes, &mb.ret);
	if (ret >= 0)
		goto out;
	if (!res.nrows) {
		if (res.unselected)
			cmd_error("no memory in %s matches --memory '%s' (of %zu; 'xplane-stat memory FILE' lists "
				  "them)", paths.n == 1 ? "this input" : "any input", a.memory, res.unselected);
		else
			cmd_error("no memory events in %s: no MemoryAllocation or MemoryDeallocation event on a "
				  "host plane", paths.n == 1 ? "this input" : "any input");
		result_notes(&res, &notes);
		cmd_print_notes(&notes);
		ret = mb.b.failed ? mb.b.first_code : EXIT_NOMATCH;
		goto out;
	}
	result_notes(&res, &notes);
	out.res = &res;
	out.o = &oo;
	out.notes = &notes;
	ret = cmd_write(a.c.output, mode, print_memory, &out);
	if (mode != OUT_JSON)
		cmd_print_notes(&notes);
	ret = cmd_batch_exit(&mb.b, ret);
out:
	cmd_common_release(&a.c);
	an_mem_release(&res);
	xp_pathlist_release(&paths);
	xp_notes_release(&notes);
	free(pos);
	return ret;
}

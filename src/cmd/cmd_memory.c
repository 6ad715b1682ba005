/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat memory: device memory from the allocators' events on the host plane. */
#include "an_memory.h"
#include "cmd_driver.h"
#include "out_memory.h"

struct mem_args {
	struct cmd_common c;
	struct an_mem_opts mo;
	struct out_mem_opts oo;
};

static int mem_check(struct cmd_drive *d)
{
	struct mem_args *a = d->args;

	if ((d->mode == OUT_CSV || d->mode == OUT_TSV) && a->mo.peak && a->mo.timeline)
		return cmd_usage_error("--peak and --timeline are two tables: CSV and TSV give one (JSON has both)");
	if (a->oo.top && !a->mo.peak)
		return cmd_usage_error("--top limits the --peak lists: give --peak too");
	a->oo.view = a->mo.peak ? OUT_MEM_PEAK : a->mo.timeline ? OUT_MEM_TIMELINE : OUT_MEM_SUMMARY;
	return CMD_GO_ON;
}

static int mem_nothing(struct cmd_drive *d)
{
	const struct an_mem_result *r = d->res;

	if (r->nrows)
		return CMD_GO_ON;
	if (r->unselected)
		cmd_error("no memory in %s matches --memory '%s' (of %zu; 'xplane-stat memory FILE' lists them)",
			  cmd_drive_inputs(d), r->opts.memory, r->unselected);
	else
		cmd_error("no memory events in %s: no MemoryAllocation or MemoryDeallocation event on a host plane",
			  cmd_drive_inputs(d));
	return cmd_drive_nomatch(d);
}

static int mem_print(FILE *f, enum out_mode mode, const struct out_style *st, const struct cmd_drive *d)
{
	return out_memory(f, mode, d->res, &((const struct mem_args *)d->args)->oo, &d->notes, st);
}

static const struct cmd_analysis memory = {
	.name = "memory",
	.about = "Device memory from the allocators' MemoryAllocation and MemoryDeallocation\n"
		 "events on the host plane, per input and memory (an allocator such as GPU_0_bfc,\n"
		 "or a TPU by index_on_host): capacity, the peak bytes in use (allocated +\n"
		 "reserved) in the profile and when, fragmentation then, the allocator's own\n"
		 "lifetime peak, allocation and free counts, and the allocations live at the peak\n"
		 "(matched by address; bytes allocated before the profile are shown apart).",
	.an = &an_memory_analysis, .check = mem_check, .nothing = mem_nothing,
	.print = mem_print,
};

int cmd_memory(int argc, char **argv)
{
	struct mem_args a = {0};
	const struct opt opts[] = {
		{"memory", 0, OPT_STR, &a.mo.memory, "PATTERN",
		 "only memories whose id contains PATTERN, any case (GPU_0_bfc, index_on_host:1)"},
		{"peak", 0, OPT_FLAG, &a.mo.peak, NULL,
		 "also list the allocations live at each memory's peak, largest first (CSV/TSV: only them)"},
		{"top", 0, OPT_COUNT, &a.oo.top, "N", "with --peak, the table shows the N largest per memory"},
		{"timeline", 0, OPT_FLAG, &a.mo.timeline, NULL,
		 "also give bytes in use after every event, for plots (CSV/TSV: only these points)"},
		CMD_OPTS_TAIL(&a.c),
	};
	struct cmd_drive d = {.a = &memory, .c = &a.c, .args = &a, .opts = &a.mo};

	return cmd_drive(&d, opts, argc, argv);
}

/* SPDX-License-Identifier: Apache-2.0 */
/* The public API's memory analysis (include/xplane_stat.h) over an_memory. */
#include "api.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "an_analysis.h"
#include "an_memory.h"

/* The caller's struct xps_memory is the first member: its pointer is the holder's. */
struct mem_holder {
	struct xps_memory pub;
	struct xps_memory_row *rows;
	struct an_mem_result res;	/* the rows' strings */
	struct xp_notes notes;		/* the warnings */
};

static void fill_row(struct xps_memory_row *o, const struct an_mem_row *w)
{
	o->input = w->input;
	o->memory_id = w->memory_id;
	o->id_from = w->by_index ? "index_on_host" : "allocator_name";
	o->has_capacity = w->capacity != 0;
	o->capacity_bytes = w->capacity;
	o->capacity_varies = w->capacity_varies;
	o->has_peak = w->has_peak;
	o->peak_bytes_in_use = w->peak_in_use;
	o->peak_time_ns = api_ns((double)w->peak_time_ps);
	o->peak_bytes_allocated = w->peak_allocated;
	o->peak_bytes_reserved = w->peak_reserved;
	o->last_bytes_in_use = w->last_in_use;
	o->fragmentation_at_peak = w->has_fragmentation ? w->peak_fragmentation : NAN;
	o->has_lifetime_peak = w->has_lifetime_peak;
	o->lifetime_peak_bytes = w->lifetime_peak;
	o->allocations = w->allocs;
	o->deallocations = w->deallocs;
	o->events_without_state = w->no_state;
	o->largest_allocation_bytes = w->largest_alloc;
	o->first_event_ns = api_ns((double)w->first_ps);
	o->last_event_ns = api_ns((double)w->last_ps);
	o->live_at_peak = w->live_count;
	o->live_at_peak_bytes = w->live_bytes;
	o->allocated_before_profile_bytes = w->unexplained_bytes;
	o->frees_of_unseen_allocations = w->freed_unseen;
	o->addresses_reused_while_live = w->addr_reused;
}

int xps_memory_compute(xps_trace *const *traces, size_t ntraces, const struct xps_memory_opts *opts,
		       struct xps_memory **out, char *errbuf, size_t errlen)
{
	struct an_mem_opts mo = {0};
	struct xp_err err = {0};
	struct mem_holder *h = NULL;
	size_t i;
	int ret;

	if (out)
		*out = NULL;
	if ((ret = api_check_traces("xps_memory_compute", traces, ntraces, out != NULL, &err)))
		goto out;
	mo.memory = opts ? opts->memory : NULL;
	if ((ret = API_CALLOC(h, 1, &err)))
		goto out;
	an_mem_init(&h->res, &mo);
	if ((ret = api_add_traces(traces, ntraces, &an_memory_analysis, &h->res, &mo, NULL, NULL, &h->notes, &err)) ||
	    (ret = API_CALLOC(h->rows, h->res.nrows + 1, &err)) ||
	    (ret = api_warnings(&an_memory_analysis, &h->res, ntraces > 1, &h->notes, &h->pub.warnings,
				&h->pub.nwarnings, &err)))
		goto out;
	for (i = 0; i < h->res.nrows; i++)
		fill_row(&h->rows[i], &h->res.rows[i]);
	h->pub.rows = h->rows;
	h->pub.nrows = h->res.nrows;
	h->pub.events = h->res.events;
	*out = &h->pub;
	h = NULL;
out:
	xps_memory_free(h ? &h->pub : NULL);
	return ret ? api_fail(&err, errbuf, errlen) : 0;
}

void xps_memory_free(struct xps_memory *m)
{
	struct mem_holder *h = (struct mem_holder *)m;

	if (!h)
		return;
	an_mem_release(&h->res);
	xp_notes_release(&h->notes);
	free(h->rows);
	free(h);
}

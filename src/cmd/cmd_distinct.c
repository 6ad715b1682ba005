/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runs, not copies: a run given twice (the same profile under two names, or a
 * profile and its summary) is one sample, counted once with a warning, unless
 * --keep-duplicates. Runs are told apart by what they measured
 * (an_exec_list_digest).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

int cmd_distinct_check(struct cmd_distinct *s, const struct cmd_input *in)
{
	struct cmd_distinct_run *r;
	char key[24];
	int is_new;

	if (!in->have_execs || !in->execs.n)
		return 0;	/* nothing measured: nothing counted twice */
	snprintf(key, sizeof(key), "%016" PRIx64, an_exec_list_digest(&in->execs));
	r = xp_hmap_row(&s->seen, key, &s->runs, &s->n, &s->cap, sizeof(*s->runs), 16, &is_new);
	if (!r)
		return -1;
	if (is_new)
		return (r->first = xp_arena_strndup(&s->names, in->path, strlen(in->path))) ? 0 : -1;
	if (!r->copies++ && !(r->copy = xp_arena_strndup(&s->names, in->path, strlen(in->path))))
		return -1;
	return 1;
}

int cmd_distinct_notes(const struct cmd_distinct *s, struct xp_notes *notes)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct cmd_distinct_run *r = &s->runs[i];

		if (!r->copies)
			continue;
		/* a summary's run is named by its profile: the profile and its summary, or one summary twice */
		if (!strcmp(r->first, r->copy) && r->copies == 1 ?
		    xp_notes_add(notes, "the run of '%s' is given twice (identical executions: the profile and its "
				 "summary, or two summaries of it): counted once; --keep-duplicates counts every copy",
				 r->first) :
		    r->copies == 1 ? xp_notes_add(notes, "1 copy of the run in '%s' (identical executions: '%s'): "
						  "counted once; --keep-duplicates counts every copy", r->first, r->copy)
		    : xp_notes_add(notes, "%zu copies of the run in '%s' (identical executions: '%s' and %zu more): "
				   "counted once; --keep-duplicates counts every copy", r->copies, r->first, r->copy,
				   r->copies - 1))
			return -1;
	}
	return 0;
}

void cmd_distinct_release(struct cmd_distinct *s)
{
	xp_arena_release(&s->names);
	free(s->runs);
	xp_hmap_release(&s->seen);
	memset(s, 0, sizeof(*s));
}

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

int cmd_distinct_execs(struct cmd_distinct *s, const struct an_exec_list *l, const char *scope, const char *name)
{
	struct cmd_distinct_run *r;
	char *key;
	int is_new;

	if (!l->n)
		return 0;	/* nothing measured: nothing counted twice */
	if (asprintf(&key, "%016" PRIx64 "%s", an_exec_list_digest(l), scope ? scope : "") < 0)
		return -1;
	r = xp_hmap_row(&s->seen, key, &s->runs, &s->n, &s->cap, sizeof(*s->runs), 16, &is_new);
	free(key);
	if (!r)
		return -1;
	if (is_new)
		return (r->first = xp_arena_strndup(&s->names, name, strlen(name))) ? 0 : -1;
	if (!r->copies++ && !(r->copy = xp_arena_strndup(&s->names, name, strlen(name))))
		return -1;
	return 1;
}

int cmd_distinct_check(struct cmd_distinct *s, const struct cmd_input *in)
{
	return in->have_execs ? cmd_distinct_execs(s, &in->execs, NULL, in->path) : 0;
}

/* The warning for one run given more than once. */
static int run_note(const struct cmd_distinct_run *r, struct xp_notes *notes)
{
	/* a summary's run is named by its profile: the profile and its summary, or one summary twice */
	if (!strcmp(r->first, r->copy) && r->copies == 1)
		return xp_notes_add(notes, "the run of '%s' is given twice (executions identical to the picosecond: the profile and its "
				    "summary, or two summaries of it): counted once; --keep-duplicates counts every "
				    "copy", r->first);
	if (r->copies == 1)
		return xp_notes_add(notes, "1 copy of the run in '%s' (executions identical to the picosecond: '%s'): counted once; "
				    "--keep-duplicates counts every copy", r->first, r->copy);
	return xp_notes_add(notes, "%zu copies of the run in '%s' (executions identical to the picosecond: '%s' and %zu more): "
			    "counted once; --keep-duplicates counts every copy", r->copies, r->first, r->copy,
			    r->copies - 1);
}

int cmd_distinct_notes(const struct cmd_distinct *s, struct xp_notes *notes)
{
	const struct cmd_distinct_run *first = NULL;
	size_t i, runs = 0, copies = 0;

	for (i = 0; i < s->n; i++)
		if (s->runs[i].copies) {
			first = first ? first : &s->runs[i];
			runs++;
			copies += s->runs[i].copies;
		}
	if (runs > 3)	/* one line says it: a directory or a file given twice */
		return xp_notes_add(notes, "%zu runs given more than once (%zu copies, executions identical to the picosecond; the "
				    "first: '%s' again as '%s'): each counted once; --keep-duplicates counts every copy",
				    runs, copies, first->first, first->copy);
	for (i = 0; i < s->n; i++)
		if (s->runs[i].copies && run_note(&s->runs[i], notes))
			return -1;
	return 0;
}

void cmd_distinct_release(struct cmd_distinct *s)
{
	xp_arena_release(&s->names);
	free(s->runs);
	xp_hmap_release(&s->seen);
	memset(s, 0, sizeof(*s));
}

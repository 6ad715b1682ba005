/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat planes: what a file holds, to find one's way in it. */
#include <stdint.h>
#include <stdlib.h>

#include "an_planes.h"
#include "an_input.h"
#include "cmd.h"
#include "opt.h"
#include "out_planes.h"
#include "xp_stray.h"

struct planes_output {
	const char *path;
	const struct an_planes *planes;
	const struct xp_notes *notes;	/* for JSON */
};

static int print_planes(FILE *f, enum out_mode mode, const struct out_style *st, const void *arg)
{
	const struct planes_output *o = arg;

	return out_planes(f, mode, o->path, o->planes, o->notes, st);
}

/* One warning per plane with stray ends: how many, on which lines, the span with and without them (in unit). */
static int note_stray(struct xp_notes *n, const char *path, const struct an_planes *p, enum out_unit unit)
{
	char lines[256], span[48], all[48];
	size_t i, j, len;

	for (i = 0; i < p->n; i++) {
		const struct an_plane_info *pi = &p->planes[i];

		if (!pi->stray_ends)
			continue;
		len = 0;
		lines[0] = '\0';
		for (j = 0; j < pi->nlines && len < sizeof(lines); j++) {
			int w;

			if (!pi->lines[j].stray_ends)
				continue;
			w = snprintf(lines + len, sizeof(lines) - len, "%s%zu on line '%s'", len ? ", " : "",
				     pi->lines[j].stray_ends, pi->lines[j].name);
			len = w < 0 ? sizeof(lines) : len + (size_t)w;
		}
		out_fmt_time(span, sizeof(span), (double)pi->span_ps, unit);
		out_fmt_time(all, sizeof(all), (double)pi->span_all_ps, unit);
		if (xp_notes_add(n, "'%s': plane '%s': %zu event%s end%s more than %d times the span of the "
				 "others after them, as if the duration held an end time (%s): left out of "
				 "the span, %s (%s with them)",
				 path, pi->name, pi->stray_ends, pi->stray_ends == 1 ? "" : "s",
				 pi->stray_ends == 1 ? "s" : "", XP_STRAY_WINDOWS, lines, span, all))
			return -1;
	}
	return 0;
}

int cmd_planes(int argc, char **argv)
{
	struct cmd_common c;
	const struct opt opts[] = {
		CMD_OPTS_TAIL(&c),
	};
	const struct opt_cmd cmd = {
		"planes", "[OPTIONS] FILE|-",
		"Lists a file's planes (id, name, lines, events, time span, device facts from\n"
		"plane stats: vendor, cores, clock, memory size and bandwidth, compute capability)\n"
		"and each plane's lines with their event counts.",
		opts, .min_pos = 1, .max_pos = 1, .pos_msg = "planes takes one input",
	};
	struct xp_trace *t = NULL;
	struct an_planes p = {0};
	struct planes_output po;
	struct xp_err err = {0};
	struct xp_notes notes = {0};
	const char **pos = NULL;
	size_t npos;
	int ret;
	enum out_mode mode;

	cmd_common_init(&c);
	ret = cmd_parse(&cmd, argc, argv, &pos, &npos);
	if (ret >= 0)
		goto out;
	if ((ret = cmd_output_setup(&c, &mode)) >= 0 || (ret = cmd_input_setup(&c)) >= 0)
		goto out;
	c.read.event_stats = XP_EVSTATS_NONE;	/* counts, spans and plane stats only */
	/* each plane described on the thread that read it, its events then freed */
	c.read.plane_read = an_planes_plane_read;
	c.read.plane_user_free = an_planes_user_free;
	c.read.release_events = 1;
	/* and read in pieces where its lines are long: no event kept at all */
	c.read.line_events = an_planes_line_events;
	c.read.line_user_size = sizeof(struct xp_line_spans);
	ret = cmd_read(&c, pos[0], cmd_jobs(&c, SIZE_MAX), 0, &t, &err);
	if (ret) {
		cmd_error("%s", err.msg);
		goto out;
	}
	if (an_planes_describe(t, &p, &err)) {
		cmd_error("%s", err.msg);
		ret = EXIT_ERROR;
		goto out;
	}
	/* what the reader skipped, what the profiler noted and stray ends, as the other commands say it */
	if (an_input_notes(&notes, pos[0], t) || note_stray(&notes, pos[0], &p, c.unit)) {
		cmd_error("out of memory");
		ret = EXIT_ERROR;
		goto out;
	}
	po.path = pos[0];
	po.planes = &p;
	po.notes = &notes;
	ret = cmd_write_noted(&c, mode, print_planes, &po, &notes);
out:
	xp_notes_release(&notes);
	an_planes_release(&p);
	xp_trace_free(t);
	free(pos);
	return ret;
}

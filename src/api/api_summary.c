/* SPDX-License-Identifier: Apache-2.0 */
/* The public API's summary line (include/xplane_stat.h): a trace as `xplane-stat summarize` writes it. */
#include "api.h"

#include <stdlib.h>
#include <string.h>

#include "an_exec.h"
#include "an_input.h"
#include "an_run.h"
#include "out_bytes.h"
#include "out_summary.h"

/* A section's warnings: the reader's about the trace, as the command's read of that section gives them. */
static int section_notes(struct xps_trace *t, char ***w, size_t *n, struct xp_err *err)
{
	struct xp_notes notes = {0};

	if (an_input_notes(&notes, t->path, t->t)) {
		xp_notes_release(&notes);
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	}
	*w = notes.msgs;
	*n = notes.n;
	return 0;
}

static int check_tags(const struct xps_summary_opts *o, struct xp_err *err)
{
	size_t i;

	if (o->ntags && !o->tags)
		return xp_err_set(err, XP_ERR_USAGE, "xps_summary_line: ntags %zu without tags", o->ntags);
	for (i = 0; i < o->ntags; i++) {
		const char *eq = o->tags[i] ? strchr(o->tags[i], '=') : NULL;

		if (!eq || eq == o->tags[i] || strchr(o->tags[i], ','))
			return xp_err_set(err, XP_ERR_USAGE, "xps_summary_line: tag '%.200s' is not KEY=VALUE",
					  o->tags[i] ? o->tags[i] : "(null)");
	}
	return 0;
}

int xps_summary_line(xps_trace *t, const struct xps_summary_opts *opts, char **line, size_t *len, char *errbuf,
		     size_t errlen)
{
	struct xps_summary_opts o = {0};
	struct an_exec_opts xo = {0};
	struct an_run r = {0};
	struct xp_notes notes = {0};
	struct xp_err err = {0};
	struct out_bytes b = {0};
	struct api_re child = {0};
	char *host;
	size_t reader_notes = 0;
	int ret;

	if (line)
		*line = NULL;
	if (len)
		*len = 0;
	if (!t || !line)
		return api_fail(&(struct xp_err){XP_ERR_USAGE, "xps_summary_line: t and line must not be NULL"},
				errbuf, errlen);
	if (opts)
		o = *opts;
	if ((ret = api_time_opts("xps_summary_line", o.children ? XPS_TIME_CHILDREN : XPS_TIME_BUSY, o.children,
				 o.min_duration_ps, &err)) ||
	    (ret = check_tags(&o, &err)) || (ret = api_re_compile(&child, o.children, "children", &err)))
		goto out;
	xo.device = o.device;
	xo.children = api_re_get(&child);
	xo.min_dur_ps = o.min_duration_ps;
	/* as the command: executions and the reader's warnings, the file's provenance, then the sections */
	if ((ret = api_same_file(t, &err)))
		goto out_named;
	if ((ret = an_input_execs(t->t, &xo, t->path, &r.execs, &notes, &reader_notes, &err)))
		goto out;
	if ((ret = an_file_crc(t->path, &r.size, &r.crc32, &err)) || (ret = api_same_file(t, &err)))
		goto out_named;
	r.nplanes = t->t->nplanes;
	if (an_plane_list(t->t, &r.planes, &r.plane_empty)) {
		ret = xp_err_set(&err, XP_ERR_NOMEM, "out of memory");
		goto out;
	}
	if ((ret = an_run_kernels_of(&r.kernels, t->t, o.device, &err)) ||
	    (ret = section_notes(t, &r.kernels->warnings, &r.kernels->nwarnings, &err)))
		goto out;
	if ((ret = an_run_ops_of(&r.ops, t->t, o.device, &err)) ||
	    (ret = section_notes(t, &r.ops->warnings, &r.ops->nwarnings, &err)))
		goto out;
	if (an_input_check(t->t, t->path, &err)) {
		ret = XP_ERR_IO;
		goto out;
	}
	host = (char *)r.execs.hostname;
	r.path = t->path;
	r.tool = "xplane-stat " XPS_VERSION;
	r.hostnames = host && *host ? &host : NULL;
	r.nhostnames = host && *host;
	r.tags = (char **)o.tags;
	r.ntags = o.ntags;
	r.device = (char *)o.device;
	r.children = (char *)o.children;
	r.min_dur_ps = o.min_duration_ps;
	r.warnings = notes.msgs;
	r.nwarnings = reader_notes;
	if (out_summary_line(&r, &b) || (out_bytes_put(&b, "", 1), b.failed)) {	/* a C string */
		ret = xp_err_set(&err, XP_ERR_NOMEM, "out of memory");
		goto out;
	}
	*line = (char *)b.p;
	if (len)
		*len = b.n - 1;
	b.p = NULL;
out:
	if (ret && ret != XP_ERR_NOMEM && ret != XP_ERR_USAGE)
		an_input_name_err(&err, t->path);
out_named:
	free(b.p);
	an_exec_list_release(&r.execs);
	an_planes_free(r.planes, r.plane_empty, r.nplanes);
	an_run_kernels_free(r.kernels);
	an_run_ops_free(r.ops);
	xp_notes_release(&notes);
	api_re_free(&child);
	return ret ? api_fail(&err, errbuf, errlen) : 0;
}

void xps_summary_line_free(char *line)
{
	free(line);
}

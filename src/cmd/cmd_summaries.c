/* SPDX-License-Identifier: Apache-2.0 */
/* Run summaries as inputs: told by content, expanded into one input per run, and a run's summary line. */
#include "cmd.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "out_summary.h"

void cmd_runs_free(struct cmd_runs *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->n; i++)
		an_run_release(&r->e[i].run);
	free(r->e);
	free(r);
}

static int cmp_entry(const void *a, const void *b)
{
	const char *x = ((const struct cmd_run_entry *)a)->key, *y = ((const struct cmd_run_entry *)b)->key;

	return (x > y) - (x < y);
}

const struct cmd_run_entry *cmd_run_for(const struct cmd_common *c, const char *path)
{
	struct cmd_run_entry k = {.key = path};

	if (!c->runs_ || !c->runs_->n)
		return NULL;
	return bsearch(&k, c->runs_->e, c->runs_->n, sizeof(k), cmp_entry);
}

/* Whether an option the run was summarised with differs from the command's. */
int cmd_opt_differs(const char *run, const char *cmd)
{
	return (run == NULL) != (cmd == NULL) || (run && strcmp(run, cmd));
}

int cmd_input_line(const struct cmd_common *c, const struct cmd_input *in, const struct an_run_hist *hist,
		   char *const *tags, size_t ntags, struct out_bytes *b)
{
	const struct an_run *from = in->run;
	char *host = (char *)in->execs.hostname;
	struct an_run r = {0};

	r.path = (char *)in->path;
	if (from) {
		r.size = from->size;
		r.crc32 = from->crc32;
		r.tool = from->tool;
		r.hostnames = from->hostnames;
		r.nhostnames = from->nhostnames;
		r.hist = from->hist;
		r.tags = from->tags;
		r.ntags = from->ntags;
		r.planes = from->planes;
		r.plane_empty = from->plane_empty;
		r.nplanes = from->nplanes;
	} else {
		r.planes = in->planes;
		r.plane_empty = in->plane_empty;
		r.nplanes = in->nplanes;
		r.size = in->size;
		r.crc32 = in->crc32;
		r.tool = "xplane-stat " XPS_VERSION;
		r.hostnames = host && *host ? &host : NULL;
		r.nhostnames = host && *host;
	}
	if (hist)
		r.hist = *hist;
	if (ntags) {
		r.tags = (char **)tags;
		r.ntags = ntags;
	}
	r.device = (char *)c->device;
	r.children = (char *)c->children;
	r.min_dur_ps = c->min_dur_ps;
	r.warnings = in->notes.msgs;
	r.nwarnings = in->reader_notes;
	r.execs = in->execs;
	r.kernels = from ? from->kernels : in->kernels;
	r.ops = from ? from->ops : in->ops;
	return out_summary_line(&r, b);
}

/* Whether gzip data's first inflated bytes are a summary's (head: the file's first n bytes). */
static int gz_summary(const unsigned char *head, size_t n)
{
	unsigned char out[sizeof(AN_SUMMARY_MAGIC)];
	z_stream zs;
	int r;

	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, 15 + 16) != Z_OK)
		return 0;
	zs.next_in = (unsigned char *)head;
	zs.avail_in = (uInt)n;
	zs.next_out = out;
	zs.avail_out = sizeof(out) - 1;
	do
		r = inflate(&zs, Z_SYNC_FLUSH);
	while (r == Z_OK && zs.avail_out && zs.avail_in);
	inflateEnd(&zs);
	return an_summary_sniff(out, sizeof(out) - 1 - zs.avail_out);
}

/*
 * Whether path is a regular file that begins as a summary does (also when
 * gzip: its first inflated bytes). Standard input, pipes and devices are
 * never looked into: what the look read would be gone for the reader.
 */
static int is_summary(const char *path)
{
	unsigned char head[1 << 16];
	struct stat st;
	FILE *f;
	size_t n;

	if (!strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode) || !(f = fopen(path, "rb")))
		return 0;
	n = fread(head, 1, sizeof(AN_SUMMARY_MAGIC), f);
	if (n >= 2 && head[0] == 0x1f && head[1] == 0x8b) {	/* gzip: enough of it to inflate the start */
		n += fread(head + n, 1, sizeof(head) - n, f);
		fclose(f);
		return gz_summary(head, n);
	}
	fclose(f);
	return an_summary_sniff(head, n);
}

int cmd_runs_read(const char *path, uint64_t max_input, struct an_run **runs, size_t *n, struct xp_err *err)
{
	struct xp_buf b = {0};
	size_t cap = 0, lineno = 0, i, j;
	int ret;

	*runs = NULL;
	*n = 0;
	if ((ret = xp_buf_load(path, max_input, &b, err)))
		return ret;
	if (b.len && !an_summary_sniff(b.data, b.len))
		ret = xp_err_set(err, XP_ERR_FORMAT, "'%s' is not a summary file (see 'xplane-stat summarize')", path);
	for (i = 0; i < b.len && !ret; i = j + 1) {
		const char *line = (const char *)b.data + i;

		lineno++;
		for (j = i; j < b.len && b.data[j] != '\n'; j++)
			;
		if (j == i)
			continue;	/* an empty line: nothing to read */
		if (xp_grow(runs, &cap, *n, sizeof(**runs), 16)) {
			ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
			break;
		}
		if (!(ret = an_summary_parse(line, j - i, path, lineno, &(*runs)[*n], err)))
			(*n)++;
	}
	if (xp_buf_changed(&b))	/* the file shrank under the parse: that is the error */
		ret = xp_buf_check(&b, path, err);
	xp_buf_release(&b);
	if (ret) {
		for (i = 0; i < *n; i++)
			an_run_release(&(*runs)[i]);
		free(*runs);
		*runs = NULL;
		*n = 0;
	}
	return ret;
}

/* Replaces each summary file among paths by its runs (c->runs_). */
int cmd_expand_summaries(struct cmd_common *c, struct xp_pathlist *paths, struct xp_err *err)
{
	struct xp_pathlist out = {0};
	struct cmd_runs *r = calloc(1, sizeof(*r));
	size_t i, k;
	int ret = 0;

	if (!r)
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	for (i = 0; i < paths->n && !ret; i++) {
		struct an_run *runs = NULL;
		size_t nruns = 0;

		if (!is_summary(paths->paths[i])) {
			if (xp_grow(&out.paths, &out.cap, out.n, sizeof(*out.paths), 16)) {
				ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
				break;
			}
			out.paths[out.n++] = paths->paths[i];
			paths->paths[i] = NULL;
			continue;
		}
		if ((ret = cmd_runs_read(paths->paths[i], c->max_input, &runs, &nruns, err)))
			break;
		for (k = 0; k < nruns; k++) {
			char *name = ret ? NULL : strdup(runs[k].path);

			if (!ret && (!name || xp_grow(&out.paths, &out.cap, out.n, sizeof(*out.paths), 16) ||
				     xp_grow(&r->e, &r->cap, r->n, sizeof(*r->e), 16))) {
				free(name);
				ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
			}
			if (ret) {
				an_run_release(&runs[k]);
				continue;
			}
			out.paths[out.n++] = name;
			r->e[r->n].key = name;
			r->e[r->n++].run = runs[k];
		}
		free(runs);
	}
	if (r->n > 1)
		qsort(r->e, r->n, sizeof(*r->e), cmp_entry);
	/* the pathlist keeps its counts; its entries are now out's */
	xp_strv_free(paths->paths, paths->n);
	paths->paths = out.paths;
	paths->n = out.n;
	paths->cap = out.cap;
	cmd_runs_free(c->runs_);
	c->runs_ = r;
	return ret;
}

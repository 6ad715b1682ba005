/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The --history recorder: an analysis's runs appended to a history file with
 * the git commit they were made at and a run number per commit (the history
 * command reads them).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "out_summary.h"

/* The first line of a command's output, without its newline; NULL when it fails or prints nothing. */
static char *first_line_of(const char *command)
{
	char buf[256];
	FILE *p = popen(command, "r");
	char *line = NULL;

	if (!p)
		return NULL;
	if (fgets(buf, sizeof(buf), p)) {
		buf[strcspn(buf, "\r\n")] = '\0';
		line = strdup(buf);
	}
	if (pclose(p) != 0) {
		free(line);
		line = NULL;
	}
	return line;
}

int cmd_history_begin(const char *commit, struct an_run_hist *h, struct xp_notes *notes)
{
	char host[256] = "";

	memset(h, 0, sizeof(*h));
	h->present = 1;
	h->time = (int64_t)time(NULL);
	gethostname(host, sizeof(host) - 1);
	h->host = strdup(host);
	if (commit) {
		h->commit = strdup(commit);
	} else {
		char *dirty;

		h->commit = first_line_of("git rev-parse --short HEAD 2>/dev/null");
		if (!h->commit) {
			if (xp_notes_add(notes, "not in a git work tree: runs recorded without a commit (--commit REV names one)"))
				return EXIT_ERROR;
			h->commit = strdup("");
		} else {
			/* tracked files changed since HEAD: the runs measured something uncommitted */
			dirty = first_line_of("git status --porcelain --untracked-files=no 2>/dev/null");
			h->dirty = dirty && *dirty;
			free(dirty);
		}
	}
	if (!h->commit || !h->host) {
		cmd_error("out of memory");
		return EXIT_ERROR;
	}
	return CMD_GO_ON;
}

void cmd_history_release(struct an_run_hist *h)
{
	free(h->commit);
	free(h->host);
	memset(h, 0, sizeof(*h));
}

int cmd_history_append(const char *path, int repair, const struct out_bytes *lines, const struct an_run_hist *h)
{
	struct out_bytes old = {0}, fixed = {0};
	struct cmd_append ap;
	uint64_t run = 0;
	size_t i, j, lineno = 0;
	struct xp_err err = {0};
	int ret;

	/* under the lock from reading the run numbers to appending: concurrent runs get their own */
	if ((ret = cmd_append_open(&ap, path, repair)) != CMD_GO_ON)
		return ret;
	if ((ret = cmd_append_read(&ap, &old)) != CMD_GO_ON)
		goto out;
	for (i = 0; i < old.n; i = j + 1) {
		struct an_run r;

		lineno++;
		for (j = i; j < old.n && old.p[j] != '\n'; j++)
			;
		if (j == i)
			continue;
		if (an_summary_parse((const char *)old.p + i, j - i, path, lineno, &r, &err)) {
			cmd_error("%s: nothing appended", err.msg);
			ret = cmd_exit_for(err.code);
			goto out;
		}
		if (r.hist.present && r.hist.dirty == h->dirty && !strcmp(r.hist.commit, h->commit) && r.hist.run > run)
			run = r.hist.run;
		an_run_release(&r);
	}
	if (out_summary_set_run((const char *)lines->p, lines->n, run + 1, &fixed)) {
		cmd_error("out of memory");
		ret = EXIT_ERROR;
		goto out;
	}
	ret = cmd_append_commit(&ap, fixed.p, fixed.n);
out:
	cmd_append_close(&ap);
	out_bytes_release(&old);
	out_bytes_release(&fixed);
	return ret;
}

int cmd_history_setup(struct cmd_common *c, struct xp_notes *notes)
{
	if ((c->commit || c->repair) && !c->history) {
		cmd_error("--%s goes with --history FILE: give it too", c->commit ? "commit" : "repair");
		return EXIT_USAGE;
	}
	if (!c->history)
		return CMD_GO_ON;
	c->provenance = 1;
	return cmd_history_begin(c->commit, &c->hist_, notes);
}

int cmd_history_add(struct cmd_common *c, const struct cmd_input *in)
{
	if (!c->history)
		return 0;
	return cmd_input_line(c, in, &c->hist_, NULL, 0, &c->hist_lines_);
}

int cmd_history_finish(struct cmd_common *c, int ret)
{
	int r;

	if (!c->history || (ret != EXIT_OK && ret != EXIT_PARTIAL) || !c->hist_lines_.n)
		return ret;
	if (c->hist_lines_.failed) {
		cmd_error("out of memory");
		return EXIT_ERROR;
	}
	r = cmd_history_append(c->history, c->repair, &c->hist_lines_, &c->hist_);
	return r ? r : ret;
}

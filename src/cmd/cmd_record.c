/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The --history recorder: an analysis's runs appended to a history file with
 * the git commit they were made at and a run number per commit (the history
 * command reads them).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
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

/* Reads all of fd from its start. */
static int read_all(int fd, struct out_bytes *b)
{
	char buf[1 << 16];
	ssize_t k;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	while ((k = read(fd, buf, sizeof(buf))) != 0) {
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		out_bytes_put(b, buf, (size_t)k);
	}
	return b->failed ? -1 : 0;
}

int cmd_history_append(const char *path, const struct out_bytes *lines, const struct an_run_hist *h)
{
	struct out_bytes old = {0}, fixed = {0};
	uint64_t run = 0;
	size_t i, j, lineno = 0;
	int fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0666), ret = EXIT_OK;
	struct xp_err err = {0};

	if (fd < 0) {
		cmd_error("cannot open '%s': %s", path, strerror(errno));
		return EXIT_ERROR;
	}
	/* under the lock from reading the run numbers to appending: concurrent runs get their own */
	if ((flock(fd, LOCK_EX) && errno != ENOLCK && errno != EINVAL) || read_all(fd, &old)) {
		cmd_error("cannot read '%s': %s", path, strerror(errno));
		ret = EXIT_ERROR;
		goto out;
	}
	if (old.n && old.p[old.n - 1] != '\n') {
		/* a line cut by a crash or a full disk: never a whole run, and it would block every reader */
		size_t keep = old.n;

		while (keep && old.p[keep - 1] != '\n')
			keep--;
		cmd_error("warning: '%s': its last line was cut (%zu bytes, no newline): removed", path, old.n - keep);
		if (ftruncate(fd, (off_t)keep)) {
			cmd_error("cannot write '%s': %s", path, strerror(errno));
			ret = EXIT_ERROR;
			goto out;
		}
		old.n = keep;
	}
	if (old.n && !an_summary_sniff(old.p, old.n)) {
		cmd_error("'%s' is not a history file (a summary file): nothing appended", path);
		ret = EXIT_INPUT;
		goto out;
	}
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
	for (i = 0; i < fixed.n;) {
		ssize_t w = write(fd, fixed.p + i, fixed.n - i);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			cmd_error("cannot write '%s': %s", path, strerror(errno));
			ret = EXIT_ERROR;
			goto out;
		}
		i += (size_t)w;
	}
out:
	if (close(fd) && !ret) {
		cmd_error("cannot write '%s': %s", path, strerror(errno));
		ret = EXIT_ERROR;
	}
	out_bytes_release(&old);
	out_bytes_release(&fixed);
	return ret;
}

int cmd_history_setup(struct cmd_common *c, struct xp_notes *notes)
{
	if (c->commit && !c->history) {
		cmd_error("--commit names the commit --history records: give --history FILE too");
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
	r = cmd_history_append(c->history, &c->hist_lines_, &c->hist_);
	return r ? r : ret;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * History: --history FILE on an analysis appends its runs' summaries with
 * the git commit they were made at and a run number per commit;
 * `xplane-stat history FILE` shows each row's trend over those runs and
 * compares the latest run with the first run of its commit (or --baseline).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "an_autotune.h"
#include "an_diff.h"
#include "cmd.h"
#include "out_diff.h"
#include "out_history.h"

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
	return -1;
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

/*
 * Puts the run number into each line's history ("run":0 as out_run wrote
 * it). A JSON string holds no unescaped quote, so the first "run": in a
 * line is the key's.
 */
static int splice_run(const struct out_bytes *in, uint64_t run, struct out_bytes *out)
{
	static const char key[] = "\"run\":0,";
	const char *p = (const char *)in->p, *end = p + in->n;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *k;
		size_t len = nl ? (size_t)(nl + 1 - p) : (size_t)(end - p);

		k = memmem(p, len, key, sizeof(key) - 1);
		if (!k)
			return -1;
		out_bytes_put(out, p, (size_t)(k - p));
		out_bytes_str(out, "\"run\":");
		out_bytes_u64(out, run);
		out_bytes_put(out, ",", 1);
		k += sizeof(key) - 1;
		out_bytes_put(out, k, (size_t)(p + len - k));
		p += len;
	}
	return out->failed ? -1 : 0;
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
	if (old.n && !an_run_sniff(old.p, old.n)) {
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
		if (an_run_parse((const char *)old.p + i, j - i, path, lineno, &r, &err)) {
			cmd_error("%s: nothing appended", err.msg);
			ret = cmd_exit_for(err.code);
			goto out;
		}
		if (r.hist.present && r.hist.dirty == h->dirty && !strcmp(r.hist.commit, h->commit) && r.hist.run > run)
			run = r.hist.run;
		an_run_release(&r);
	}
	if (splice_run(lines, run + 1, &fixed)) {
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

struct hist_output {
	const struct an_hist_result *r;
	const struct xp_notes *notes;
};

static int print_history(FILE *f, enum out_mode mode, int colour, const void *arg)
{
	const struct hist_output *o = arg;

	return out_history(f, mode, o->r, o->notes, colour);
}

int cmd_history(int argc, char **argv)
{
	struct cmd_common c;
	const char *level = NULL, *match = NULL, *id_regex = NULL, *baseline = NULL;
	const struct opt opts[] = {
		{"level", 'l', OPT_STR, &level, "functions|autotune",
		 "rows: functions and programs (default), or autotune candidates"},
		{"baseline", 'b', OPT_STR, &baseline, "REV",
		 "compare the latest run with the first run of commit REV (a prefix; '+' after it: the dirty tree)"},
		{"match", 'm', OPT_STR, &match, "REGEX", "only functions whose name matches REGEX (extended)"},
		{"id-regex", 0, OPT_STR, &id_regex, "REGEX",
		 "autotune level: group 1 of REGEX is the candidate id (default " AN_AT_DEFAULT_ID_REGEX ")"},
		{"device", 'd', OPT_STR, &c.device, "PATTERN",
		 "only device planes whose name contains PATTERN, any case (gpu, TPU:1)"},
		{"time", 0, OPT_STR, &c.time, "busy|span", "busy: union of device intervals (default); span: first start to last end"},
		CMD_OPTS_FORMAT(&c),
		{0},
	};
	const struct opt_cmd cmd = {
		"history", "[OPTIONS] FILE",
		"Each row's mean over the runs recorded in FILE (by --history on functions or\n"
		"autotune), one column per run (commit, '+' for a dirty\n"
		"tree, '#' and the run number), and the latest run compared with the first run of\n"
		"its commit (or of the commit before, or --baseline's) as diff compares: change,\n"
		"Mann-Whitney U p-value and verdict; on a terminal slower rows are red, faster green.",
		opts,
	};
	struct an_diff_opts dopt = {.alpha = 0.05};
	struct an_exec_opts xo;
	struct an_hist_result res = {0};
	struct hist_output out;
	struct an_run *runs = NULL;
	struct xp_notes notes = {0};
	struct xp_err err = {0};
	regex_t match_re, id_re;
	int have_match = 0, have_id = 0, have_res = 0, ret;
	enum out_mode mode = OUT_TABLE;
	const char **pos = NULL;
	size_t npos, nruns = 0, i;

	cmd_common_init(&c);
	ret = cmd_parse(&cmd, argc, argv, &pos, &npos);
	if (ret >= 0)
		goto out;
	ret = EXIT_USAGE;
	if (npos != 1) {
		cmd_error("give one history file (see 'xplane-stat history --help')");
		goto out;
	}
	if (level && !strcmp(level, "autotune")) {
		dopt.level = AN_DIFF_AUTOTUNE;
	} else if (level && strcmp(level, "functions")) {
		cmd_error("--level: '%s' is not functions or autotune", level);
		goto out;
	}
	if ((ret = cmd_common_setup(&c, &mode, &dopt.time, &xo)) >= 0)
		goto out;
	if (match && (ret = cmd_regex(&match_re, match, "--match")))
		goto out;
	have_match = match != NULL;
	if ((ret = cmd_regex(&id_re, id_regex ? id_regex : AN_AT_DEFAULT_ID_REGEX, "--id-regex")))
		goto out;
	have_id = 1;
	dopt.match = have_match ? &match_re : NULL;
	dopt.id_re = &id_re;
	if ((ret = cmd_runs_read(pos[0], c.max_input, &runs, &nruns, &err))) {
		cmd_error("%s", err.msg);
		ret = cmd_exit_for(ret);
		goto out;
	}
	for (i = 0; i < nruns; i++) {
		if (c.device && runs[i].device && strcmp(runs[i].device, c.device)) {
			cmd_error("'%s' line %zu: recorded with another --device than this command asks for",
				  runs[i].src_file, runs[i].src_line);
			ret = EXIT_USAGE;
			goto out;
		}
		if (c.device && !runs[i].device && an_run_select_devices(&runs[i].execs, c.device)) {
			cmd_error("out of memory");
			ret = EXIT_ERROR;
			goto out;
		}
	}
	if ((ret = an_hist_compute(runs, nruns, &dopt, baseline, &res, &err))) {
		cmd_error("'%s': %s", pos[0], err.msg);
		ret = cmd_exit_for(ret);
		goto out;
	}
	have_res = 1;
	if (res.runs_without_history)
		xp_notes_add(&notes, "%zu run%s in '%s' without history (made by summarize): left out",
			     res.runs_without_history, res.runs_without_history == 1 ? "" : "s", pos[0]);
	if (res.other_options)
		xp_notes_add(&notes, "%zu run%s in '%s' recorded with other --device, --children or --min-duration "
			     "than the latest: shown, never its baseline", res.other_options,
			     res.other_options == 1 ? "" : "s", pos[0]);
	if (!res.nrows) {
		cmd_print_notes(&notes);
		cmd_error("'%s': no %s in its runs", pos[0],
			  dopt.level == AN_DIFF_AUTOTUNE ? "autotune candidate" : "function execution");
		ret = EXIT_NOMATCH;
		goto out;
	}
	out.r = &res;
	out.notes = &notes;
	ret = cmd_write(c.output, mode, print_history, &out);
	if (mode != OUT_JSON)
		cmd_print_notes(&notes);
out:
	if (have_res)
		an_hist_release(&res);
	for (i = 0; i < nruns; i++)
		an_run_release(&runs[i]);
	free(runs);
	if (have_match)
		regfree(&match_re);
	if (have_id)
		regfree(&id_re);
	cmd_common_release(&c);
	xp_notes_release(&notes);
	free(pos);
	return ret;
}

int cmd_history_setup(struct cmd_common *c, struct xp_notes *notes)
{
	if (c->commit && !c->history) {
		cmd_error("--commit names the commit --history records: give --history FILE too");
		return EXIT_USAGE;
	}
	if (!c->history)
		return -1;
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

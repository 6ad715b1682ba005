/* SPDX-License-Identifier: Apache-2.0 */
/* Options every command shares: their setup after parsing (output mode, reader, time measure) and release. */
#include "cmd.h"

#include <string.h>

#include "an_input.h"

void cmd_common_init(struct cmd_common *c)
{
	memset(c, 0, sizeof(*c));
	c->max_input = XP_DEFAULT_MAX_INPUT;
	c->read.event_stats = XP_EVSTATS_KEYS;
	c->unit = OUT_UNIT_AUTO;
}

int cmd_output_setup(struct cmd_common *c, enum out_mode *mode)
{
	if (c->json + c->csv + c->tsv > 1)
		return cmd_usage_error("--json, --csv and --tsv exclude each other");
	if (c->time_unit) {
		int u = out_unit_parse(c->time_unit);

		if (u < 0)
			return cmd_usage_error("--time-unit: '%s' is not ns, us, ms or s", c->time_unit);
		c->unit = (enum out_unit)u;
	}
	*mode = c->json ? OUT_JSON : c->csv ? OUT_CSV : c->tsv ? OUT_TSV : OUT_TABLE;
	return CMD_GO_ON;
}

void cmd_read_profile(struct cmd_common *c, const struct an_read_profile *p)
{
	an_read_opts(&c->read, p);
	c->cpu_device = p->cpu_device;
	c->summaries = p->how == AN_READ_KERNELS || p->how == AN_READ_OPS || p->how == AN_READ_EXECS;
}

/* --time and --children into the time an execution is measured by. */
static int pick_time(const struct cmd_common *c, enum an_time *t)
{
	if (c->children) {
		if (c->time) {
			cmd_error("--children and --time exclude each other");
			return EXIT_USAGE;
		}
		*t = AN_TIME_CHILDREN;
	} else if (!c->time || !strcmp(c->time, "busy")) {
		*t = AN_TIME_BUSY;
	} else if (!strcmp(c->time, "span")) {
		*t = AN_TIME_SPAN;
	} else {
		cmd_error("--time: '%s' is not busy or span", c->time);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_parse(const struct opt_cmd *c, int argc, char **argv, const char ***pos, size_t *npos)
{
	char msg[256];
	int r = opt_parse(c, argc, argv, pos, npos, stdout, msg, sizeof(msg));

	if (r > 0)
		return EXIT_OK;
	if (r < 0) {
		cmd_error("%s", msg);
		return EXIT_USAGE;
	}
	return CMD_GO_ON;
}

int cmd_input_setup(struct cmd_common *c)
{
	c->read.reader = c->reader ? xp_reader_find(c->reader) : xp_reader_default;
	if (!c->read.reader) {
		cmd_error("--reader: '%s' is not a reader (wire, protobuf-c)", c->reader);
		return EXIT_USAGE;
	}
	return CMD_GO_ON;
}

unsigned cmd_jobs(const struct cmd_common *c, size_t n)
{
	size_t j = c->jobs ? c->jobs : xp_online_cpus();

	if (j > n)
		j = n;
	if (j > 256)
		j = 256;
	return j ? (unsigned)j : 1;
}

int cmd_exec_setup(struct cmd_common *c, enum an_time *t, struct an_exec_opts *xo)
{
	int ret;

	if ((ret = pick_time(c, t)))
		return ret;
	if (c->children) {
		if ((ret = cmd_regex(&c->child_re_, c->children, "--children")))
			return ret;
		c->have_child_ = 1;
	}
	memset(xo, 0, sizeof(*xo));
	xo->device = c->device;
	xo->children = c->have_child_ ? &c->child_re_ : NULL;
	xo->min_dur_ps = c->min_dur_ps;
	return CMD_GO_ON;
}

int cmd_match_setup(struct cmd_common *c)
{
	int ret;

	if (!c->match)
		return CMD_GO_ON;
	if ((ret = cmd_regex(&c->match_re_, c->match, "--match")))
		return ret;
	c->have_match_ = 1;
	return CMD_GO_ON;
}

const regex_t *cmd_match(const struct cmd_common *c)
{
	return c->have_match_ ? &c->match_re_ : NULL;
}

int cmd_common_setup(struct cmd_common *c, enum out_mode *mode, enum an_time *t,
		     struct an_exec_opts *xo)
{
	int ret;

	if ((ret = cmd_output_setup(c, mode)) >= 0 || (ret = cmd_input_setup(c)) >= 0)
		return ret;
	return cmd_exec_setup(c, t, xo);
}

void cmd_common_release(struct cmd_common *c)
{
	cmd_runs_free(c->runs_);
	c->runs_ = NULL;
	cmd_history_release(&c->hist_);
	out_bytes_release(&c->hist_lines_);
	if (c->have_child_)
		regfree(&c->child_re_);
	if (c->have_match_)
		regfree(&c->match_re_);
	c->have_child_ = c->have_match_ = 0;
}

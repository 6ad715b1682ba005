/* xplane-stat planes: what a file holds, to find one's way in it. */
#include <stdlib.h>

#include "an_planes.h"
#include "cmd.h"
#include "opt.h"
#include "out_planes.h"

int cmd_planes(int argc, char **argv)
{
	struct cmd_common c;
	const struct opt opts[] = {
		{"max-input-size", 0, OPT_BYTES, &c.max_input, "SIZE",
		 "refuse stdin or gzip input that expands past SIZE (default 16G)"},
		CMD_OPTS_FORMAT(&c),
		{0},
	};
	const struct opt_cmd cmd = {
		"planes", "[OPTIONS] FILE|-",
		"Lists a file's planes (id, name, lines, events, time span, device facts from\n"
		"plane stats: vendor, cores, clock, memory size and bandwidth, compute capability)\n"
		"and each plane's lines with their event counts.",
		opts,
	};
	struct xp_trace *t = NULL;
	struct an_planes p = {0};
	struct xp_err err = {0};
	struct cmd_out out = {0};
	const char **pos = NULL;
	char msg[256];
	size_t npos;
	int ret, mode;

	cmd_common_init(&c);
	ret = opt_parse(&cmd, argc, argv, &pos, &npos, stdout, msg, sizeof(msg));
	if (ret) {
		if (ret < 0)
			cmd_error("%s", msg);
		ret = ret < 0 ? EXIT_USAGE : EXIT_OK;
		goto out;
	}
	ret = EXIT_USAGE;
	if (npos != 1) {
		cmd_error("planes takes one input (see 'xplane-stat planes --help')");
		goto out;
	}
	mode = cmd_output_mode(&c);
	if (mode < 0)
		goto out;
	ret = cmd_load(pos[0], c.max_input, &t);
	if (ret)
		goto out;
	if (an_planes_describe(t, &p, &err)) {
		cmd_error("%s", err.msg);
		ret = EXIT_ERROR;
		goto out;
	}
	ret = cmd_out_open(&out, c.output);
	if (ret)
		goto out;
	if (out_planes(out.f, (enum out_mode)mode, pos[0], &p, out.f == stdout && out_use_colour(stdout))) {
		cmd_error("out of memory");
		cmd_out_close(&out, 0);
		ret = EXIT_ERROR;
		goto out;
	}
	ret = cmd_out_close(&out, 1);
out:
	an_planes_release(&p);
	xp_trace_free(t);
	free(pos);
	return ret;
}

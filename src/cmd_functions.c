/* xplane-stat functions: device time of every jitted function (the default command). */
#include <stdlib.h>
#include <string.h>

#include "an_exec.h"
#include "an_functions.h"
#include "cmd.h"
#include "opt.h"
#include "out_functions.h"
#include "xp_input.h"

struct fn_args {
	struct cmd_common c;
	const char *match;
	size_t trim;
	int per_device;
};

/* What the formatter needs: the result and the warnings for JSON. */
struct fn_output {
	const struct an_fn_result *res;
	const struct xp_notes *notes;
};

static int print_functions(FILE *f, enum out_mode mode, int colour, const void *arg)
{
	const struct fn_output *o = arg;

	return out_functions(f, mode, o->res, o->notes, colour);
}

int cmd_functions(int argc, char **argv)
{
	struct fn_args a = {.trim = 0};
	const struct opt opts[] = {
		CMD_OPTS_SELECT(&a.c),
		{"match", 'm', OPT_STR, &a.match, "REGEX", "only functions whose name matches REGEX (extended)"},
		{"trim", 0, OPT_SIZE, &a.trim, "K", "mean and std drop the K fastest and K slowest executions (when over 2K)"},
		{"per-device", 0, OPT_FLAG, &a.per_device, NULL, "a row per function and device, not pooled"},
		CMD_OPTS_FORMAT(&a.c),
		{0},
	};
	const struct opt_cmd cmd = {
		"functions", "[OPTIONS] FILE|DIR|-...",
		"Device time of each jitted function (XLA module) per execution, pooled over all\n"
		"inputs: executions, total, mean, std (population), min, median, max and share of\n"
		"device busy time. Directories are searched for *.xplane.pb and *.xplane.pb.gz.",
		opts,
	};
	struct an_exec_opts xo = {0};
	struct an_fn_opts fo = {0};
	struct an_fn_result res;
	struct fn_output fo_out;
	struct xp_pathlist paths = {0};
	struct xp_notes notes = {0};
	struct xp_err err = {0};
	regex_t match_re;
	int have_match = 0, ret, any_device = 0;
	enum out_mode mode = OUT_TABLE;
	const char **pos = NULL;
	size_t npos, i;

	cmd_common_init(&a.c);
	an_fn_init(&res, &fo);
	ret = cmd_parse(&cmd, argc, argv, &pos, &npos);
	if (ret >= 0)
		goto out;
	ret = EXIT_USAGE;
	if (!npos) {
		cmd_error("no input given (see 'xplane-stat functions --help')");
		goto out;
	}
	ret = cmd_common_setup(&a.c, &mode, &fo.time, &xo);
	if (ret >= 0)
		goto out;
	if (a.match && (ret = cmd_regex(&match_re, a.match, "--match")))
		goto out;
	have_match = a.match != NULL;
	fo.match = have_match ? &match_re : NULL;
	fo.trim = a.trim;
	fo.per_device = a.per_device;
	an_fn_init(&res, &fo);
	if (xp_pathlist_expand(&paths, pos, npos, &err)) {
		cmd_error("%s", err.msg);
		ret = cmd_exit_for(err.code);
		goto out;
	}
	for (i = 0; i < paths.n; i++) {
		struct xp_trace *t;
		struct an_exec_list l;

		ret = cmd_load(paths.paths[i], a.c.max_input, &t);
		if (ret)
			goto out;
		if (cmd_note_counts(&notes, paths.paths[i], t) ||
		    an_exec_find(t, &xo, &l, &err)) {
			xp_trace_free(t);
			cmd_error("%s", err.code ? err.msg : "out of memory");
			ret = EXIT_ERROR;
			goto out;
		}
		if (!l.ndevices) {
			if (paths.n == 1) {
				cmd_no_device(paths.paths[i], t, a.c.device);
				ret = EXIT_NOMATCH;
				an_exec_list_release(&l);
				xp_trace_free(t);
				goto out;
			}
			xp_notes_add(&notes, "'%s': no device plane with events%s", paths.paths[i],
				     a.c.device ? " matching --device" : "");
		}
		any_device |= l.ndevices > 0;
		ret = an_fn_add(&res, &l, &err) ? EXIT_ERROR : EXIT_OK;
		an_exec_list_release(&l);
		xp_trace_free(t);
		if (ret) {
			cmd_error("%s", err.msg);
			goto out;
		}
	}
	if (!any_device) {
		cmd_error("no device plane with events in any input%s", a.c.device ? " matching --device" : "");
		ret = EXIT_NOMATCH;
		goto out;
	}
	an_fn_finish(&res, &err);
	if (!res.nrows && mode != OUT_JSON) {
		cmd_error("no jitted function executions found: %s",
			  have_match ? "no function matches --match"
			  : res.device_events ? "no device event carries an hlo_module stat (not an XLA program? "
						"'xplane-stat planes FILE' shows what it holds)"
			  : "the device planes hold no events");
		cmd_print_notes(&notes);
		ret = EXIT_NOMATCH;
		goto out;
	}
	fo_out.res = &res;
	fo_out.notes = &notes;
	ret = cmd_write(a.c.output, mode, print_functions, &fo_out);
	if (mode != OUT_JSON)
		cmd_print_notes(&notes);
	if (!ret && !res.nrows)
		ret = EXIT_NOMATCH;
out:
	if (have_match)
		regfree(&match_re);
	cmd_common_release(&a.c);
	an_fn_release(&res);
	xp_pathlist_release(&paths);
	xp_notes_release(&notes);
	free(pos);
	return ret;
}

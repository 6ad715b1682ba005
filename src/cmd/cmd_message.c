/* SPDX-License-Identifier: Apache-2.0 */
/* Messages: errors and warnings on stderr, exit codes for library errors, "no device plane" with the planes there are. */
#include "cmd.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "an_diff.h"
#include "an_input.h"

/*
 * Every message goes out through here, escaped as the text table escapes
 * cells (control bytes and bytes that are not UTF-8 as \xNN): names from a
 * trace or a summary are data, and no trace can forge a line of a CI log or
 * send escape codes to a terminal.
 */
static void verror(const char *fmt, va_list ap)
{
	char buf[1024], *msg = buf;
	va_list again;
	int n;

	fflush(stdout);
	va_copy(again, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n >= (int)sizeof(buf) && !(msg = malloc((size_t)n + 1)))
		msg = buf;	/* out of memory: the message cut, never lost */
	else if (msg != buf)
		vsnprintf(msg, (size_t)n + 1, fmt, again);
	va_end(again);
	fputs("xplane-stat: ", stderr);
	out_put_text(stderr, n < 0 ? fmt : msg);
	fputc('\n', stderr);
	if (msg != buf)
		free(msg);
}

void cmd_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
}

int cmd_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

int cmd_exit_for(int code)
{
	switch (code) {
	case XP_OK:
		return EXIT_OK;
	case XP_ERR_IO:
	case XP_ERR_FORMAT:
	case XP_ERR_LIMIT:
		return EXIT_INPUT;
	case XP_ERR_USAGE:
		return EXIT_USAGE;
	default:
		return EXIT_ERROR;
	}
}

int cmd_regex(regex_t *re, const char *pattern, const char *option)
{
	int r = regcomp(re, pattern, REG_EXTENDED);

	if (r) {
		char msg[256];

		regerror(r, re, msg, sizeof(msg));
		cmd_error("%s: invalid regular expression '%s': %s", option, pattern, msg);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* "'PATH': no device plane with events[ matching 'X'] (planes here: ...)" from a list of planes. */
static void no_device(const char *path, char *const *names, const unsigned char *empty, size_t n,
		      const char *pattern)
{
	char list[1024] = "";
	size_t i, len = 0;

	for (i = 0; i < n && len + 4 < sizeof(list); i++) {
		int w = snprintf(list + len, sizeof(list) - len, "%s%s%s", i ? ", " : "",
				 *names[i] ? names[i] : "(a plane without a name)",
				 empty[i] == 2 ? " (aggregated events only, no times: 'events' counts them)"
				 : empty[i] ? " (no events)" : "");

		if (w < 0)
			break;
		len += (size_t)w;
	}
	if (len >= sizeof(list))
		strcpy(list + sizeof(list) - 5, "...");
	cmd_error("'%s': no device plane with events%s%s%s (planes here: %s)", path,
		  pattern ? " matching '" : "", pattern ? pattern : "", pattern ? "'" : "",
		  n ? list : "none");
}

/* "'PATH': no device plane with events[ matching 'X'] (planes here: A, B)" on stderr. */
static void trace_no_device(const char *path, struct xp_trace *t, const char *pattern)
{
	char **names = NULL;
	unsigned char *empty = NULL;

	if (!an_plane_list(t, &names, &empty))
		no_device(path, names, empty, t->nplanes, pattern);
	else
		cmd_error("out of memory");
	an_planes_free(names, empty, t->nplanes);
}

void cmd_no_device_input(const struct cmd_input *in, const char *pattern)
{
	if (in->t)
		trace_no_device(in->path, in->t, pattern);
	else if (in->run)
		no_device(in->path, in->run->planes, in->run->plane_empty, in->run->nplanes, pattern);
}

void cmd_print_notes(const struct xp_notes *n)
{
	size_t i;

	for (i = 0; i < n->n; i++)
		cmd_error("warning: %s", n->msgs[i]);
}

int cmd_number_opt(const char *s, const char *name, double lo, double hi, double *out)
{
	char *end;

	if (!s)
		return -1;
	*out = strtod(s, &end);
	if (end == s || *end || !(*out >= lo && *out <= hi)) {
		cmd_error("%s: '%s' is not a number from %g to %g", name, s, lo, hi);
		return EXIT_USAGE;
	}
	return -1;
}

void cmd_gate_report(const struct an_diff_result *r, double gate, double gate95)
{
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		const struct an_diff_row *row = &r->rows[i];

		if (!row->gated)
			continue;
		fputs("xplane-stat: gate: '", stderr);
		out_put_text(stderr, row->key);	/* names are data */
		/* the p that decided: after the correction (the U test's own p is in the table) */
		if (row->gated & 1)
			fprintf(stderr, "' is %.1f%% slower (mean; p = %.2g; limit %g%%)", (row->change - 1) * 100,
				row->p_adj, gate);
		if (row->gated & 2)
			fprintf(stderr, "%s p95 is %.1f%% higher (p = %.2g; limit %g%%)", row->gated & 1 ? ";" : "'",
				(row->p95_change - 1) * 100, row->p_adj, gate95);
		fputc('\n', stderr);
	}
}

int cmd_gate_exit(const struct an_diff_result *r, double gate, double gate95, int allow_undecided)
{
	size_t i, few = 0, common = 0, shown = 0;

	for (i = 0; i < r->nrows; i++) {
		few += r->rows[i].verdict == AN_V_FEW;
		common += r->rows[i].verdict != AN_V_NEW && r->rows[i].verdict != AN_V_GONE;
		if (r->rows[i].gated) {
			cmd_gate_report(r, gate, gate95);
			return EXIT_GATE;
		}
	}
	if (allow_undecided || (!few && common))
		return EXIT_OK;
	if (!common) {
		cmd_error("gate: the sides have no row in common (every row is new or gone): nothing was judged "
			  "(--allow-undecided passes it)");
		return EXIT_UNDECIDED;
	}
	for (i = 0; i < r->nrows && shown < 10; i++) {
		if (r->rows[i].verdict != AN_V_FEW)
			continue;
		fputs("xplane-stat: gate: '", stderr);
		out_put_text(stderr, r->rows[i].key);	/* names are data */
		fprintf(stderr, "' has too few samples to be judged (%zu base, %zu current)\n", r->rows[i].base.n,
			r->rows[i].cur.n);
		shown++;
	}
	cmd_error("gate: %zu row%s could not be decided (more runs or executions on each side decide them; "
		  "--allow-undecided passes them)", few, few == 1 ? "" : "s");
	return EXIT_UNDECIDED;
}

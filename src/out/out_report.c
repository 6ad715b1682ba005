/* SPDX-License-Identifier: Apache-2.0 */
/* The HTML report (out_report.h). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "out_autotune.h"
#include "out_diff.h"
#include "out_report.h"
#include "out_table.h"

/*
 * The devices' busy split: compute, exposed collectives, exposed memcpy,
 * idle. Functions never take these colours (the Chromium test checks), so
 * that a strip's colour is never read as a category's.
 */
static const char *const cat_colours[] = {"#4e79a7", "#e15759", "#f28e2b", "#e8e8e8"};
static const char *const cat_names[] = {"compute", "exposed collectives", "exposed memcpy", "idle"};
/* Functions get these colours by rank in the functions table; the rest grey. */
static const char *const palette[] = {"#59a14f", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
				      "#9c755f", "#86bcb6", "#d37295", "#8cd17d", "#499894"};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))
#define OTHER_COLOUR "#bab0ac"
/* Marks on charts that are no function's: points, bars of ops and candidates, trend lines. */
#define MARK_COLOUR "#4e79a7"
#define GOOD_COLOUR "#59a14f"
#define BAR_W 160
#define ROOF_LABELS 5	/* roofline points named: the ops with the most self time */
#define STRIP_H 28

void out_html_text(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t k;

	while (*s) {
		const char *entity = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;"
				   : *s == '"' ? "&quot;" : *s == '\'' ? "&#39;" : NULL;

		k = out_utf8_len(s);	/* 1 for the entities and control characters, 0 when invalid */
		if (entity)
			fputs(entity, f);
		else if (!k || *s < 0x20 || *s == 0x7f)
			fputs("\xef\xbf\xbd", f);	/* invalid UTF-8, or a control character: U+FFFD */
		else
			fwrite(s, 1, k, f);
		s += k ? k : 1;
	}
}

/*
 * A name cell: names past NAME_MAX characters (kernel names run to 600) are
 * cut there with an ellipsis, the whole name in the cell's tooltip.
 */
#define NAME_MAX_CHARS 160

static void short_text(FILE *f, const char *name);

static void name_cell(FILE *f, const char *name)
{
	if (strlen(name ? name : "") > NAME_MAX_CHARS) {
		fputs("<td class=\"name\" title=\"", f);
		out_html_text(f, name);
		fputs("\">", f);
	} else {
		fputs("<td class=\"name\">", f);
	}
	short_text(f, name);
	fputs("</td>", f);
}

static void time_cell(FILE *f, double ps)
{
	char buf[64];

	out_fmt_time(buf, sizeof(buf), ps, OUT_UNIT_AUTO);
	fprintf(f, "<td class=\"num\">%s</td>", buf);
}

static void bar(FILE *f, double frac, const char *colour, const char *cls)
{
	double w = isfinite(frac) && frac > 0 ? (frac > 1 ? 1 : frac) * BAR_W : 0;

	fprintf(f, "<td><svg class=\"bar %s\" width=\"%d\" height=\"10\" role=\"img\"><rect width=\"%.1f\" "
		   "height=\"10\" fill=\"%s\"/></svg></td>",
		cls, BAR_W, w, colour);
}

/*
 * The end of a function's or kernel's row: its total, mean and median, its
 * share, and its total as a bar against the largest shown (max).
 */
static void row_end(FILE *f, double total, double mean, double median, double share, double max,
		    const char *colour, const char *cls)
{
	time_cell(f, total);
	time_cell(f, mean);
	time_cell(f, median);
	fprintf(f, "<td class=\"num\">%.1f%%</td>", 100 * share);
	bar(f, max > 0 ? total / max : 0, colour, cls);
	fputs("</tr>\n", f);
}

/* The colour of a function: the first NPALETTE distinct names of the table (by time) have one each. */
static const char *fn_colour(const struct an_fn_result *fr, const char *name)
{
	size_t i, j, distinct = 0;

	for (i = 0; fr && i < fr->nrows && distinct < NPALETTE; i++) {
		for (j = 0; j < i && strcmp(fr->rows[j].name, fr->rows[i].name); j++)
			;
		if (j < i)
			continue;	/* a name seen in an earlier row (another program) */
		if (!strcmp(fr->rows[i].name, name))
			return palette[distinct];
		distinct++;
	}
	return OTHER_COLOUR;
}

/* Text cut at NAME_MAX_CHARS characters with an ellipsis (headers, legends). */
/* Text cut at max characters with an ellipsis. */
static void cut_text(FILE *f, const char *name, size_t max)
{
	size_t n = strlen(name ? name : ""), cut = 0, chars = 0;
	char *head;

	if (n <= max) {
		out_html_text(f, name);
		return;
	}
	while (cut < n && chars < max) {
		cut++;
		while (cut < n && ((unsigned char)name[cut] & 0xc0) == 0x80)
			cut++;
		chars++;
	}
	head = strndup(name, cut);
	out_html_text(f, head ? head : "");
	fputs("\xe2\x80\xa6", f);
	free(head);
}

static void short_text(FILE *f, const char *name)
{
	cut_text(f, name, NAME_MAX_CHARS);
}

static void head(FILE *f, const struct out_report *r)
{
	size_t i;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; img-src data:\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>xplane-stat report</title>\n<style>\n"
	      "body{font:14px/1.4 system-ui,sans-serif;color:#222;margin:24px auto;max-width:1200px;padding:0 16px;"
	      "overflow-wrap:anywhere;print-color-adjust:exact;-webkit-print-color-adjust:exact}\n"
	      "h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd}\n"
	      "table{border-collapse:collapse;margin:4px 0}th,td{padding:2px 8px;text-align:left;vertical-align:middle}\n"
	      "th{font-weight:600;border-bottom:1px solid #bbb;white-space:nowrap}tr:nth-child(even){background:#f6f6f6}\n"
	      "td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	      "td.name{max-width:520px;overflow-wrap:anywhere;font-family:ui-monospace,monospace;font-size:12px}\n"
	      ".note{color:#666}.legend span{display:inline-block;margin-right:14px}\n"
	      "svg text{font:11px system-ui,sans-serif;fill:#444}\n"
	      "@media print{body{margin:0;max-width:none}h2{break-after:avoid}tr,svg{break-inside:avoid}}\n"
	      "</style>\n</head>\n<body>\n<header>\n<h1>xplane-stat report</h1>\n<p class=\"note\">",
	      f);
	fprintf(f, "%zu input%s:", r->ninputs, r->ninputs == 1 ? "" : "s");
	for (i = 0; i < r->ninputs && i < 20; i++) {
		fputs(i ? ", " : " ", f);
		short_text(f, r->inputs[i].path);
		if (r->inputs[i].has_bytes)
			fprintf(f, " (%llu bytes)", r->inputs[i].bytes);
	}
	if (r->ninputs > 20)
		fprintf(f, " and %zu more", r->ninputs - 20);
	if (r->device) {
		fputs("; only device planes matching --device '", f);
		out_html_text(f, r->device);
		fputs("'", f);
	}
	fputs("</p>\n</header>\n", f);
}

/* A share cell: "12.3%", small ones with their first digits, "-" when unknown (negative). */
static void share_cell(FILE *f, double v)
{
	if (v >= 0.001 && isfinite(v))
		fprintf(f, "<td class=\"num\">%.1f%%</td>", 100 * v);
	else if (v >= 0 && isfinite(v))
		fprintf(f, "<td class=\"num\">%.2g%%</td>", 100 * v);
	else
		fputs("<td class=\"num\">-</td>", f);
}

/* The devices' FLOPs utilization (an_overview.h), where some device's work has FLOPs. */
static void utilization(FILE *f, const struct an_ov_result *ov)
{
	size_t i, n = 0;

	for (i = 0; i < ov->n; i++)
		n += ov->devices[i].flops_ps > 0;
	if (!n)
		return;
	fputs("<h3>FLOPs utilization</h3>\n<table>\n<tr><th>device</th><th>TFLOP/s</th><th>peak TFLOP/s</th>"
	      "<th>FLOPs utilization</th><th>model FLOPs utilization</th><th>FLOPs counted over</th>"
	      "<th>peak from</th></tr>\n", f);
	for (i = 0; i < ov->n; i++) {
		const struct an_ov_device *d = &ov->devices[i];
		double fs = an_ov_flops_per_s(d);

		if (!d->flops_ps)
			continue;
		fputs("<tr><td class=\"name\">", f);
		out_html_text(f, d->name);
		fputs("</td>", f);
		if (fs >= 0)
			fprintf(f, "<td class=\"num\">%.3f</td>", fs / 1e12);
		else
			fputs("<td class=\"num\">-</td>", f);
		if (d->peak_src)
			fprintf(f, "<td class=\"num\">%.0f</td>", d->peak_flops / 1e12);
		else
			fputs("<td class=\"num\">-</td>", f);
		share_cell(f, an_ov_flops_util(d));
		share_cell(f, an_ov_model_util(d));
		share_cell(f, d->work_ps > 0 ? (double)d->flops_ps / (double)d->work_ps : -1);
		fprintf(f, "<td>%s</td></tr>\n", an_peak_src_name((enum an_peak_src)d->peak_src));
	}
	fputs("</table>\n<p class=\"note\">The FLOPs of each device's work over its span, and over span "
	      "&times; its peak (TPU: its ops' flops stats; GPU: its ops costed from their HLO); the share "
	      "of the work's time whose FLOPs are counted: under 100% the rates are lower bounds.</p>\n", f);
}

/* The devices' steps (an_ov_step), the first REPORT_STEPS, where some device has a Steps line. */
#define REPORT_STEPS 200
static void steps(FILE *f, const struct an_ov_result *ov)
{
	size_t i, n = ov->nsteps < REPORT_STEPS ? ov->nsteps : REPORT_STEPS;

	if (!ov->nsteps)
		return;
	fputs("<h3>Steps</h3>\n<table>\n<tr><th>device</th><th>step</th><th>time</th><th>busy</th><th>compute</th>"
	      "<th>exposed collectives</th><th>exposed memcpy</th><th>host wait</th><th>idle</th><th>TFLOP/s</th>"
	      "<th>FLOPs utilization</th></tr>\n", f);
	for (i = 0; i < n; i++) {
		const struct an_ov_step *s = &ov->steps[i];
		double fs = an_ov_step_flops_per_s(s);

		fputs("<tr><td class=\"name\">", f);
		out_html_text(f, s->device ? s->device : "");
		fputs("</td><td class=\"name\">", f);
		out_html_text(f, s->name);
		fputs("</td>", f);
		time_cell(f, (double)s->dur_ps);
		time_cell(f, (double)s->busy_ps);
		time_cell(f, (double)s->compute_ps);
		time_cell(f, (double)s->coll_exposed_ps);
		time_cell(f, (double)s->memcpy_exposed_ps);
		time_cell(f, (double)s->host_wait_ps);
		time_cell(f, (double)an_ov_step_idle(s));
		if (fs >= 0)
			fprintf(f, "<td class=\"num\">%.3f</td>", fs / 1e12);
		else
			fputs("<td class=\"num\">-</td>", f);
		share_cell(f, an_ov_step_util(s));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<p class=\"note\">Each step of a device's Steps line and its work within it; "
	      "TFLOP/s and utilization from its leaf ops' flops (TPU).", f);
	if (n < ov->nsteps)
		fprintf(f, " The first %zu of %zu steps are shown ('xplane-stat overview --steps' lists them all).", n,
			ov->nsteps);
	fputs("</p>\n", f);
}

static void overview(FILE *f, const struct an_ov_result *ov)
{
	size_t i;

	fputs("<section id=\"overview\">\n<h2>Devices</h2>\n", f);
	if (!ov || !ov->n) {
		fputs("<p class=\"note\">No device plane with work events.</p>\n</section>\n", f);
		return;
	}
	fputs("<table>\n<tr><th>device</th><th>span</th><th>busy</th><th>idle</th><th>duty</th>"
	      "<th>compute</th><th>exposed collectives</th><th>exposed memcpy</th><th>busy and idle</th></tr>\n",
	      f);
	for (i = 0; i < ov->n; i++) {
		const struct an_ov_device *d = &ov->devices[i];
		double span = (double)d->span_ps, idle = (double)an_ov_idle(d);
		double parts[4] = {(double)(d->busy_ps - d->coll_exposed_ps - d->memcpy_exposed_ps),
				   (double)d->coll_exposed_ps, (double)d->memcpy_exposed_ps, idle};
		double x = 0;
		int k;

		fputs("<tr><td class=\"name\">", f);
		out_html_text(f, d->name);
		fputs("</td>", f);
		time_cell(f, span);
		time_cell(f, (double)d->busy_ps);
		time_cell(f, idle);
		fprintf(f, "<td class=\"num\">%.1f%%</td>", span > 0 ? 100.0 * (double)d->busy_ps / span : 0.0);
		time_cell(f, parts[0]);
		time_cell(f, parts[1]);
		time_cell(f, parts[2]);
		fprintf(f, "<td><svg class=\"bar dev-bar\" width=\"%d\" height=\"10\" role=\"img\">", BAR_W);
		for (k = 0; k < 4 && span > 0; k++) {
			double w = parts[k] > 0 ? parts[k] / span * BAR_W : 0;

			fprintf(f, "<rect x=\"%.1f\" width=\"%.1f\" height=\"10\" fill=\"%s\"/>", x, w, cat_colours[k]);
			x += w;
		}
		fputs("</svg></td></tr>\n", f);
	}
	fputs("</table>\n<p class=\"legend note\">", f);
	for (i = 0; i < 4; i++)
		fprintf(f, "<span><svg width=\"10\" height=\"10\"><rect class=\"cat\" width=\"10\" height=\"10\" "
			   "fill=\"%s\"/></svg> %s</span>", cat_colours[i], cat_names[i]);
	fputs("</p>\n", f);
	utilization(f, ov);
	steps(f, ov);
	fputs("</section>\n", f);
}

/* The hosts of runs of several hosts, by their executions' durations (an_straggle.h); nothing without a host group. */
static void strag_hosts(FILE *f, const struct an_strag_result *s, size_t top)
{
	const struct an_strag_host *slowest = an_strag_slowest_host(s);
	size_t i;

	if (!s->host_groups)
		return;
	fprintf(f, "<p class=\"note\">Which host of a run is slow, over %zu group%s in %zu run%s of several hosts (a "
		"function's k-th execution on every host of a run; a host's time: its devices' longest; durations "
		"only, as hosts' clocks are not one); slowest: how often its time was the longest; slow: its time "
		"over the group's shortest, a mean per group", s->host_groups, s->host_groups == 1 ? "" : "s",
		s->host_runs, s->host_runs == 1 ? "" : "s");
	if (s->host_unmatched)
		fprintf(f, "; %zu function%s left out, not run alike on every host of a run", s->host_unmatched,
			s->host_unmatched == 1 ? "" : "s");
	fputs(".</p>\n", f);
	if (slowest) {
		fputs("<p class=\"note\"><b>Slowest host: ", f);
		out_html_text(f, slowest->name);
		fprintf(f, "</b>, the slowest in %zu of %zu groups.</p>\n", slowest->slowest, slowest->groups);
	}
	fputs("<table>\n<tr><th>host</th><th>groups</th><th>slowest</th><th>slow</th></tr>\n", f);
	for (i = 0; i < s->nhost_rows && i < top; i++) {
		const struct an_strag_host *h = &s->host_rows[i];

		fputs("<tr><td class=\"name\">", f);
		out_html_text(f, h->name);
		fprintf(f, "</td><td class=\"num\">%zu</td><td class=\"num\">%zu</td>", h->groups, h->slowest);
		if (h->groups)
			time_cell(f, h->slow_ps / (double)h->groups);
		else
			fputs("<td class=\"num\">-</td>", f);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/*
 * Which device of a host the others wait for (overview --stragglers), every
 * device (those in no group with dashes, as the overview's table); nothing
 * without a group.
 */
static void stragglers(FILE *f, const struct an_strag_result *s, size_t top)
{
	size_t i, k;

	if (!s || (!s->groups && !s->host_groups))
		return;
	fputs("<section id=\"stragglers\">\n<h2>Stragglers</h2>\n", f);
	if (!s->groups) {	/* hosts only: no device ran a function beside another of its host */
		strag_hosts(f, s, top);
		fputs("</section>\n", f);
		return;
	}
	fprintf(f, "<p class=\"note\">Which device of a host "
		"ends a function's execution last, over %zu group%s (a function's k-th execution on every device of "
		"a host that ran it); late: its end after the group's first; waited: the group's last end after its "
		"own; slow: its duration over the group's shortest; means per group. %zu of %zu device%s",
		s->groups, s->groups == 1 ? "" : "s", s->n < top ? s->n : top, s->n, s->n == 1 ? "" : "s");
	if (s->unmatched)
		fprintf(f, "; %zu function%s left out, run more often on some devices than on others", s->unmatched,
			s->unmatched == 1 ? "" : "s");
	fputs(".</p>\n<table>\n<tr><th>device</th><th>groups</th><th>last</th><th>late</th><th>waited</th>"
	      "<th>slow</th></tr>\n", f);
	for (i = 0; i < s->n && i < top; i++) {
		const struct an_strag_device *d = &s->devices[i];
		const double v[] = {d->late_ps, d->waited_ps, d->slow_ps};

		fputs("<tr><td class=\"name\">", f);
		out_html_text(f, d->name);
		fprintf(f, "</td><td class=\"num\">%zu</td><td class=\"num\">%zu</td>", d->groups, d->last);
		for (k = 0; k < 3; k++) {
			if (d->groups)
				time_cell(f, v[k] / (double)d->groups);
			else
				fputs("<td class=\"num\">-</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	strag_hosts(f, s, top);
	fputs("</section>\n", f);
}

static void functions(FILE *f, const struct an_fn_result *fr, size_t top)
{
	size_t i, n;
	double max = 0;

	fputs("<section id=\"functions\">\n<h2>Functions</h2>\n", f);
	if (!fr || !fr->nrows) {
		fputs("<p class=\"note\">No jitted function executions found.</p>\n</section>\n", f);
		return;
	}
	n = fr->nrows < top ? fr->nrows : top;
	for (i = 0; i < n; i++)
		if (fr->rows[i].s.total > max)
			max = fr->rows[i].s.total;
	fputs("<table>\n<tr><th>function</th><th>program</th><th>execs</th><th>total</th><th>mean</th>"
	      "<th>median</th><th>share</th><th>total time</th></tr>\n",
	      f);
	for (i = 0; i < n; i++) {
		const struct an_fn_row *w = &fr->rows[i];

		fputs("<tr class=\"fn\">", f);
		name_cell(f, w->name);
		fputs("<td class=\"num\">", f);
		if (w->has_program_id)
			fprintf(f, "%llu", (unsigned long long)w->program_id);
		else
			out_html_text(f, w->fingerprint ? w->fingerprint : "-");
		fprintf(f, "</td><td class=\"num\">%zu</td>", w->s.n);
		row_end(f, w->s.total, w->s.mean, w->s.median, w->share, max, fn_colour(fr, w->name),
			"fn-bar");
	}
	fputs("</table>\n", f);
	fprintf(f, "<p class=\"note\">%zu execution%s of %zu function%s on %zu device%s in %zu input%s",
		fr->executions, fr->executions == 1 ? "" : "s", fr->functions, fr->functions == 1 ? "" : "s",
		fr->devices, fr->devices == 1 ? "" : "s", fr->inputs, fr->inputs == 1 ? "" : "s");
	if (n < fr->nrows)
		fprintf(f, "; the %zu rows with the most time shown of %zu", n, fr->nrows);
	fputs(".</p>\n</section>\n", f);
}

/* A column's shade, 0 to 10: its cover in tenths, at least 1 for any execution in it. */
static int strength(const struct an_rep_col *c)
{
	int q = (int)lrintf(c->cover * 10);

	if (c->fn < 0)
		return 0;
	return q < 1 ? 1 : q > 10 ? 10 : q;
}

/*
 * A time axis under the strips, 0 to span: ticks at a round step (1, 2 or
 * 5 times a power of ten) giving 4 to 10 of them, placed in percent of the
 * width as the strips' columns are.
 */
static void time_axis(FILE *f, int64_t span_ps)
{
	double span = (double)span_ps, step, t;
	int k;

	if (!(span > 0))
		return;
	step = pow(10, floor(log10(span / 4)));
	for (k = 0; span / step > 10 && k < 3; k++)
		step *= k == 1 ? 2.5 : 2;	/* 1, 2, 5, 10 */
	fputs("<svg class=\"axis\" width=\"100%\" height=\"26\" role=\"img\"><line x1=\"0\" x2=\"100%\" y1=\"2\" "
	      "y2=\"2\" stroke=\"#999\"/>", f);
	for (t = 0; t <= span * (1 + 1e-9); t += step) {
		char lab[64];
		double pc = 100 * t / span;

		out_fmt_time(lab, sizeof(lab), t, OUT_UNIT_AUTO);
		fprintf(f, "<line class=\"tick\" x1=\"%.3f%%\" x2=\"%.3f%%\" y1=\"2\" y2=\"8\" stroke=\"#999\"/>"
			   "<text x=\"%.3f%%\" y=\"20\" text-anchor=\"%s\">%s</text>",
			pc, pc, pc, pc < 1 ? "start" : pc > 95 ? "end" : "middle", lab);
	}
	fputs("</svg>\n", f);
}

static void timeline(FILE *f, const struct out_report *r)
{
	const struct an_rep_timeline *tl = r->timeline;
	size_t i, b, k, shown = 0;

	fputs("<section id=\"timeline\">\n<h2>Timeline</h2>\n", f);
	if (!tl || !tl->n) {
		fputs("<p class=\"note\">No executions to draw.</p>\n</section>\n", f);
		return;
	}
	if (tl->shared) {
		char span[64];

		out_fmt_time(span, sizeof(span), (double)tl->span_ps, OUT_UNIT_AUTO);
		fprintf(f, "<p class=\"note\">Every device's executions on one time axis, %s from the first start on "
			"any device to the last end on any (the planes' clocks lined up by their bases): skew between "
			"devices shows", span);
	} else {
		fputs("<p class=\"note\">Each device's executions from its first start to its last end", f);
	}
	if (r->ninputs > 1) {
		fputs(" (first input: ", f);
		out_html_text(f, r->timeline_input);
		fputs(")", f);
	}
	fputs("; a column's colour: the function whose execution covers most of it; its strength: how much of it "
	      "executions cover (idle gaps inside an execution included; a column they barely touch is drawn "
	      "faintly, never left out).</p>\n",
	      f);
	for (i = 0; i < tl->n; i++) {
		const struct an_rep_strip *s = &tl->strips[i];
		char span[64];

		out_fmt_time(span, sizeof(span), (double)s->span_ps, OUT_UNIT_AUTO);
		fputs("<div class=\"strip\"><p>", f);
		short_text(f, s->device);
		fprintf(f, " <span class=\"note\">%zu execution%s over %s</span></p>\n", s->execs,
			s->execs == 1 ? "" : "s", span);
		fprintf(f, "<svg class=\"timeline\" viewBox=\"0 0 %zu %d\" width=\"100%%\" height=\"%d\" "
			   "preserveAspectRatio=\"none\" role=\"img\"><rect width=\"%zu\" height=\"%d\" fill=\"#f0f0f0\"/>",
			tl->width, STRIP_H, STRIP_H, tl->width, STRIP_H);
		/* runs of columns of one function and strength: one rect each */
		for (b = 0; b < tl->width;) {
			const struct an_rep_col *c = &s->cols[b];
			int q = strength(c);

			for (k = b + 1; k < tl->width && s->cols[k].fn == c->fn && strength(&s->cols[k]) == q; k++)
				;
			if (c->fn >= 0 && q > 0)
				fprintf(f, "<rect x=\"%zu\" width=\"%zu\" height=\"%d\" fill=\"%s\" fill-opacity=\"%.1f\"/>",
					b, k - b, STRIP_H, fn_colour(r->functions, s->fns[c->fn]), q / 10.0);
			b = k;
		}
		fputs("</svg></div>\n", f);
	}
	if (tl->shared)
		time_axis(f, tl->span_ps);
	if (r->overview) {
		/* devices with work but no execution have no strip: say which */
		size_t none = 0;

		for (i = 0; i < r->overview->n; i++) {
			size_t j;

			for (j = 0; j < tl->n && strcmp(tl->strips[j].device, r->overview->devices[i].plane); j++)
				;
			if (j < tl->n)
				continue;
			fputs(none++ ? ", " : "<p class=\"note\">No executions (no strip) on ", f);
			short_text(f, r->overview->devices[i].name);
		}
		if (none)
			fputs(".</p>\n", f);
	}
	fputs("<p class=\"legend note\">", f);
	for (i = 0; r->functions && i < r->functions->nrows && shown < NPALETTE; i++) {
		const char *name = r->functions->rows[i].name;
		size_t j;

		for (j = 0; j < i && strcmp(r->functions->rows[j].name, name); j++)
			;
		if (j < i)
			continue;	/* a name of several programs: one swatch */
		fprintf(f, "<span><svg width=\"10\" height=\"10\"><rect class=\"fn\" width=\"10\" height=\"10\" "
			   "fill=\"%s\"/></svg> ", fn_colour(r->functions, name));
		short_text(f, name);
		fputs("</span>", f);
		shown++;
	}
	fprintf(f, "<span><svg width=\"10\" height=\"10\"><rect width=\"10\" height=\"10\" fill=\"%s\"/></svg> other</span></p>\n</section>\n",
		OTHER_COLOUR);
}

static void kernels(FILE *f, const struct an_kern_result *kr, size_t top)
{
	size_t i, n;
	double max = 0;

	if (!kr || !kr->nrows)
		return;	/* no GPU streams: nothing to say beyond the devices table */
	n = kr->nrows < top ? kr->nrows : top;
	for (i = 0; i < n; i++)
		max = kr->rows[i].total > max ? kr->rows[i].total : max;
	fputs("<section id=\"kernels\">\n<h2>Kernels</h2>\n<table>\n<tr><th>kernel</th><th>instances</th>"
	      "<th>total</th><th>mean</th><th>median</th><th>share</th><th>total time</th></tr>\n",
	      f);
	for (i = 0; i < n; i++) {
		const struct an_kern_row *w = &kr->rows[i];

		fputs("<tr>", f);
		name_cell(f, w->name);
		fprintf(f, "<td class=\"num\">%zu</td>", w->instances);
		row_end(f, w->total, w->mean, w->median, w->share, max, MARK_COLOUR, "kern-bar");
	}
	fprintf(f, "</table>\n<p class=\"note\">%zu kernel events of %zu kernels", kr->kernel_events, kr->nrows);
	if (n < kr->nrows)
		fprintf(f, "; %zu shown", n);
	fputs(".</p>\n</section>\n", f);
}

/* log10 of v mapped onto [0, len] over the decades [lo, hi]. */
static double logpos(double v, double lo, double hi, double len)
{
	return (log10(v) - lo) / (hi - lo) * len;
}

/* A synchronous op with flops and bytes known and time spent: its FLOP/byte and FLOP/s. */
static int roof_point(const struct an_op_row *w, double *x, double *y)
{
	if (w->line == AN_OP_ASYNC)
		return 0;
	if (!an_sum_known(&w->flops, w->occurrences) || !an_sum_known(&w->bytes, w->occurrences) ||
	    !w->flops.v || !w->bytes.v || w->total_ps <= 0)
		return 0;
	*x = (double)w->flops.v / (double)w->bytes.v;
	*y = (double)w->flops.v / ((double)w->total_ps * 1e-12);
	return 1;
}

static void roofline(FILE *f, const struct an_ops_result *pr)
{
	const double W = 560, H = 300, L = 56, B = 34;
	double xlo = 1e300, xhi = -1e300, ylo = 1e300, yhi = -1e300, pf = 0, pb = 0;
	size_t i, pts = 0, xstep, ystep, labelled;

	for (i = 0; i < pr->ndevices; i++) {
		double a = pr->devices[i].peak_flops, b = pr->devices[i].peak_bw;

		/* a plane may state absurd peaks: only finite ones, with a finite ridge, make a roof */
		if (a > 0 && b > 0 && isfinite(a) && isfinite(b) && isfinite(a / b) && a / b > 0) {
			pf = a;
			pb = b;
			break;
		}
	}
	for (i = 0; i < pr->nrows; i++) {
		double x, y;

		if (!roof_point(&pr->rows[i], &x, &y))
			continue;
		x = log10(x);
		y = log10(y);
		xlo = fmin(xlo, x), xhi = fmax(xhi, x), ylo = fmin(ylo, y), yhi = fmax(yhi, y);
		pts++;
	}
	if (!pts) {
		fputs("<p class=\"note\">No op with both flops and bytes_accessed: no roofline.</p>\n", f);
		return;
	}
	if (pf > 0) {
		yhi = fmax(yhi, log10(pf));
		xlo = fmin(xlo, log10(pf / pb) - 1);
		xhi = fmax(xhi, log10(pf / pb) + 1);
	}
	xlo = floor(xlo - 0.5), xhi = ceil(xhi + 0.5), ylo = floor(ylo - 0.5), yhi = ceil(yhi + 0.5);
	fprintf(f, "<svg class=\"roofline\" width=\"%.0f\" height=\"%.0f\" role=\"img\">", W + L + 10, H + B + 10);
	fprintf(f, "<rect x=\"%.0f\" y=\"5\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"#bbb\"/>", L, W, H);
	/* a label every decade, or every few when there are many (at most 12) */
	xstep = (size_t)ceil((xhi - xlo) / 12);
	ystep = (size_t)ceil((yhi - ylo) / 12);
	for (i = 0; i <= (size_t)(xhi - xlo); i += xstep ? xstep : 1)
		fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">1e%d</text>",
			L + logpos(pow(10, xlo + (double)i), xlo, xhi, W), H + 22, (int)(xlo + (double)i));
	for (i = 0; i <= (size_t)(yhi - ylo); i += ystep ? ystep : 1)
		fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">1e%d</text>", L - 4,
			5 + H - logpos(pow(10, ylo + (double)i), ylo, yhi, H) + 4, (int)(ylo + (double)i));
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">FLOP per byte</text>", L + W / 2, H + B + 6);
	fprintf(f, "<text x=\"12\" y=\"%.0f\" transform=\"rotate(-90 12 %.0f)\" text-anchor=\"middle\">FLOP/s</text>",
		5 + H / 2, 5 + H / 2);
	if (pf > 0) {
		/* the roof: bandwidth-bound up to the ridge, then the compute peak, from where it enters the frame */
		double ridge = log10(pf / pb), x0 = fmax(xlo, ylo - log10(pb)), y0 = log10(pb) + x0;

		fprintf(f, "<polyline fill=\"none\" stroke=\"#999\" stroke-dasharray=\"4 3\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>",
			L + logpos(pow(10, x0), xlo, xhi, W), 5 + H - logpos(pow(10, y0), ylo, yhi, H),
			L + logpos(pow(10, ridge), xlo, xhi, W),
			5 + H - logpos(pf, ylo, yhi, H), L + W, 5 + H - logpos(pf, ylo, yhi, H));
	}
	for (i = 0, labelled = 0; i < pr->nrows; i++) {
		const struct an_op_row *w = &pr->rows[i];
		double x, y, cx, cy;

		if (!roof_point(w, &x, &y))
			continue;
		cx = L + logpos(x, xlo, xhi, W);
		cy = 5 + H - logpos(y, ylo, yhi, H);
		fprintf(f, "<circle class=\"op-point\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" fill-opacity=\"0.7\"><title>",
			cx, cy, MARK_COLOUR);
		out_html_text(f, w->name);
		fputs("</title></circle>", f);
		/* the ops with the most self time named beside their points (rows come by self time) */
		if (labelled < ROOF_LABELS) {
			labelled++;
			fprintf(f, "<text class=\"op-label\" x=\"%.1f\" y=\"%.1f\" font-size=\"10\"%s>", cx + (cx > L + W * 0.7 ? -6 : 6),
				cy - 6, cx > L + W * 0.7 ? " text-anchor=\"end\"" : "");
			cut_text(f, w->name, 28);
			fputs("</text>", f);
		}
	}
	fputs("</svg>\n", f);
	if (pf > 0)
		fprintf(f, "<p class=\"note\">Roof: %.0f TFLOP/s and %.0f GB/s, the peaks of the first device that has "
			   "both (its plane's, or the chip table's: see ops).</p>\n",
			pf / 1e12, pb / 1e9);
}

#define ICICLE_W 900.0	/* the flame graph's width in px */
#define ICICLE_ROW 18.0		/* and each level's height */
#define ICICLE_DEPTH 16		/* levels drawn; deeper scopes are in their parents' tooltips' totals */

/*
 * Device time by name scope (ops' scope tree) as an icicle: a root's
 * width its share of the ops' self time, each scope under its parent,
 * wide as its total; the whole path and times in each one's tooltip.
 */
static void icicle(FILE *f, const struct an_ops_result *pr)
{
	static const char *const fill[] = {"#e9b872", "#e49c6c", "#d9a45f", "#efc68a"};
	double *xnext = pr->nscopes ? malloc(pr->nscopes * sizeof(*xnext)) : NULL, all = 0, x = 0;
	size_t i, depth = 0, drawn = 0;

	if (!pr->opts.by_scope || !pr->nscopes || !xnext) {
		free(xnext);
		return;
	}
	for (i = 0; i < pr->nscopes; i++) {
		if (pr->scopes[i].parent == SIZE_MAX)
			all += (double)pr->scopes[i].total_ps;
		if (pr->scopes[i].depth < ICICLE_DEPTH && pr->scopes[i].depth + 1 > depth)
			depth = pr->scopes[i].depth + 1;
	}
	if (all <= 0) {
		free(xnext);
		return;
	}
	fputs("<h3>Where in the program</h3>\n", f);
	fprintf(f, "<svg class=\"icicle\" width=\"%.0f\" height=\"%.0f\" role=\"img\">", ICICLE_W,
		(double)depth * ICICLE_ROW + 2);
	for (i = 0; i < pr->nscopes; i++) {
		const struct an_scope_node *n = &pr->scopes[i];
		double w = (double)n->total_ps / all * ICICLE_W, at;
		char tot[48], self[48];

		/* a scope starts where its parent's previous child ended */
		at = n->parent == SIZE_MAX ? x : xnext[n->parent];
		if (n->parent == SIZE_MAX)
			x += w;
		else
			xnext[n->parent] += w;
		xnext[i] = at;
		if (n->depth >= ICICLE_DEPTH || w < 0.5)
			continue;
		drawn++;
		out_fmt_time(tot, sizeof(tot), (double)n->total_ps, OUT_UNIT_AUTO);
		out_fmt_time(self, sizeof(self), (double)n->self_ps, OUT_UNIT_AUTO);
		fputs("<g class=\"scope\"><title>", f);
		out_html_text(f, n->path);
		fprintf(f, ": %s (%.1f%%), self %s, %zu occurrence%s; most: ", tot, 100 * (double)n->total_ps / all,
			self, n->occurrences, n->occurrences == 1 ? "" : "s");
		out_html_text(f, pr->rows[n->top].name);
		fprintf(f, "</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\" "
			   "stroke=\"#fff\" stroke-width=\"0.5\"/>", at, (double)n->depth * ICICLE_ROW + 1, w,
			ICICLE_ROW - 1, fill[(n->depth + i) % 4]);
		if (w > 30) {	/* a name where it fits, cut to the width at about 6.5 px a character */
			fprintf(f, "<text x=\"%.2f\" y=\"%.1f\" font-size=\"11\">", at + 3,
				(double)n->depth * ICICLE_ROW + 13);
			cut_text(f, n->name, (size_t)((w - 6) / 6.5));
			fputs("</text>", f);
		}
		fputs("</g>", f);
	}
	fputs("</svg>\n", f);
	fprintf(f, "<p class=\"note\">Device self time of the XLA Ops and GPU kernel ops by the name scopes JAX writes "
		   "into each op's HLO (ops --by scope), %zu of %zu scopes drawn (those at least half a pixel wide, "
		   "%d levels); ops without a scope under (no op name), (not in HLO) or (no HLO). The whole path in "
		   "each tooltip.</p>\n", drawn, pr->nscopes, ICICLE_DEPTH);
	free(xnext);
}

static void ops(FILE *f, const struct an_ops_result *pr, size_t top)
{
	size_t i, n = 0, all = 0;
	double max = 0;

	if (!pr || !pr->nrows)
		return;
	/* the TensorCores' and GPUs' ops: not the async halves, nor the SparseCores' (their own devices; see ops) */
	for (i = 0; i < pr->nrows; i++)
		all += pr->rows[i].line != AN_OP_ASYNC && pr->rows[i].line != AN_OP_SC;
	for (i = 0; i < pr->nrows && n < top; i++)
		if (pr->rows[i].line != AN_OP_ASYNC && pr->rows[i].line != AN_OP_SC) {
			max = (double)pr->rows[i].self_ps > max ? (double)pr->rows[i].self_ps : max;
			n++;
		}
	fputs("<section id=\"ops\">\n<h2>HLO ops</h2>\n<table>\n<tr><th>op</th><th>module</th><th>program</th>"
	      "<th>category</th><th>occurrences</th><th>total</th><th>self</th><th>share</th><th>bound</th>"
	      "<th>self time</th></tr>\n",
	      f);
	for (i = 0, n = 0; i < pr->nrows && n < top; i++) {
		const struct an_op_row *w = &pr->rows[i];
		const char *bound = an_bound_name(w->bound);

		if (w->line == AN_OP_ASYNC || w->line == AN_OP_SC)
			continue;
		n++;
		fputs("<tr>", f);
		name_cell(f, w->name);
		name_cell(f, w->module ? w->module : "-");
		if (w->has_program_id)
			fprintf(f, "<td class=\"num\">%llu</td>", (unsigned long long)w->program_id);
		else
			fputs("<td class=\"num\">-</td>", f);
		fputs("<td>", f);
		out_html_text(f, w->category ? w->category : "-");
		fprintf(f, "</td><td class=\"num\">%zu</td>", w->occurrences);
		time_cell(f, (double)w->total_ps);
		time_cell(f, (double)w->self_ps);
		fprintf(f, "<td class=\"num\">%.1f%%</td><td>%s</td>", 100 * w->share, bound ? bound : "-");
		bar(f, max > 0 ? (double)w->self_ps / max : 0, MARK_COLOUR, "op-bar");
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<p class=\"note\">", f);
	if (n < all)
		fprintf(f, "The %zu ops with the most self time shown of %zu.", n, all);
	else
		fprintf(f, "%zu op%s, the most self time first.", all, all == 1 ? "" : "s");
	fputs("</p>\n", f);
	roofline(f, pr);
	icicle(f, pr);
	fputs("</section>\n", f);
}

/* "15 of 40 rows shown, the largest first" */
static void rows_note(FILE *f, size_t shown, size_t n, const char *order)
{
	if (shown < n)
		fprintf(f, "%zu of %zu rows shown, %s", shown, n, order);
	else
		fprintf(f, "%zu row%s, %s", n, n == 1 ? "" : "s", order);
}

static int cmp_peak(const void *a, const void *b, void *ctx)
{
	const struct an_mem_row *rows = ctx, *x = &rows[*(const size_t *)a], *y = &rows[*(const size_t *)b];
	uint64_t p = x->has_peak ? x->peak_in_use : 0, q = y->has_peak ? y->peak_in_use : 0;

	if (p != q)
		return p > q ? -1 : 1;
	return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

/* Each memory's peak (the memory command's rows: per input and allocator), the largest of all inputs first. */
static void memory(FILE *f, const struct out_report *r)
{
	const struct an_mem_result *mr = r->memory;
	size_t i, n, *order;
	double max = 0;

	if (!mr || !mr->nrows || !(order = malloc(mr->nrows * sizeof(*order))))
		return;
	for (i = 0; i < mr->nrows; i++)
		order[i] = i;
	qsort_r(order, mr->nrows, sizeof(*order), cmp_peak, (void *)mr->rows);
	for (i = 0; i < mr->nrows; i++)
		if (mr->rows[i].has_peak)
			max = fmax(max, (double)mr->rows[i].peak_in_use);
	fputs("<section id=\"memory\">\n<h2>Memory</h2>\n<table>\n<tr>", f);
	if (r->ninputs > 1)
		fputs("<th>input</th>", f);
	fputs("<th>memory</th><th>peak in use</th><th>capacity</th><th>at</th><th>allocations</th>"
	      "<th>largest allocation</th><th>peak</th></tr>\n", f);
	n = mr->nrows < r->top ? mr->nrows : r->top;
	for (i = 0; i < n; i++) {
		const struct an_mem_row *w = &mr->rows[order[i]];
		char a[48], b[48], c[48];

		fputs("<tr>", f);
		if (r->ninputs > 1)
			name_cell(f, w->input);
		name_cell(f, w->memory_id);
		out_fmt_bytes(a, sizeof(a), w->peak_in_use);
		out_fmt_bytes(b, sizeof(b), w->capacity);
		out_fmt_bytes(c, sizeof(c), w->largest_alloc);
		fprintf(f, "<td class=\"num\">%s</td><td class=\"num\">%s</td>", w->has_peak ? a : "-",
			w->capacity ? b : "-");
		if (w->has_peak)
			time_cell(f, (double)w->peak_time_ps);
		else
			fputs("<td class=\"num\">-</td>", f);
		fprintf(f, "<td class=\"num\">%zu</td><td class=\"num\">%s</td>", w->allocs,
			w->largest_alloc ? c : "-");
		bar(f, max > 0 && w->has_peak ? (double)w->peak_in_use / max : 0, MARK_COLOUR, "mem-bar");
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<p class=\"note\">", f);
	rows_note(f, n, mr->nrows, "the largest peak first");
	fputs("; peak in use: the most bytes allocated plus reserved after a memory event, at: when, from the "
	      "input's host plane's start; capacity: in use plus available, the largest seen (xplane-stat memory "
	      "has the allocations live at the peak); every memory of the inputs, whatever --device selects.</p>\n"
	      "</section>\n", f);
	free(order);
}

/* Compile time per function and program (the compile command's rows), the most compile time first. */
static void compile_section(FILE *f, const struct out_report *r)
{
	const struct an_comp_result *cr = r->compile;
	size_t i, n;

	if (!cr || !cr->nfns)
		return;
	fputs("<section id=\"compile\">\n<h2>Compile time</h2>\n<table>\n<tr>", f);
	if (r->ninputs > 1)
		fputs("<th>input</th>", f);
	fputs("<th>function</th><th>program</th><th>calls</th><th>first call</th><th>later median</th>"
	      "<th>overhead</th><th>trace</th><th>lower</th><th>compile</th></tr>\n", f);
	n = cr->nfns < r->top ? cr->nfns : r->top;
	for (i = 0; i < n; i++) {
		const struct an_comp_fn *w = &cr->fns[i];
		int k;

		fputs("<tr>", f);
		if (r->ninputs > 1)
			name_cell(f, w->input);
		name_cell(f, w->name);
		if (w->has_program)
			fprintf(f, "<td class=\"num prog\">%" PRIu64 "</td>", w->program_id);
		else
			fputs("<td class=\"num prog\">unknown</td>", f);
		fprintf(f, "<td class=\"num\">%zu</td>", w->calls);
		time_cell(f, (double)w->first_ps);
		if (w->has_later) {
			time_cell(f, w->later_median_ps);
			time_cell(f, (double)w->first_ps - w->later_median_ps);
		} else {
			fputs("<td class=\"num\">-</td><td class=\"num\">-</td>", f);
		}
		for (k = 0; k < AN_COMP_NPHASES; k++)
			time_cell(f, (double)w->phase_ps[k]);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<p class=\"note\">", f);
	rows_note(f, n, cr->nfns, "per input, the most compile time first");
	fputs("; a call is a PjitFunction span on the host, a row a function's calls of one program (each "
	      "compiles on its first call; unknown: the calls whose launches name none); overhead: the first call "
	      "less the later calls' median (an estimate of tracing and compiling); trace, lower and compile: the "
	      "time of JAX's and XLA's events of those phases in its calls; every function of the inputs, whatever "
	      "--device selects.</p>\n</section>\n", f);
}

static void autotune(FILE *f, const struct an_at_result *ar)
{
	const double W = 600, L = 120, RH = 22;
	double lo = 1e300, hi = -1e300;
	size_t i;
	int progcol;

	if (!ar || !ar->ncands)
		return;
	for (i = 0; i < ar->ncands; i++) {
		lo = fmin(lo, fmin(ar->cands[i].s.ci_lo, ar->cands[i].s.min));
		hi = fmax(hi, fmax(ar->cands[i].s.ci_hi, ar->cands[i].s.max));
	}
	if (!(hi > lo))
		hi = lo + 1;
	fputs("<section id=\"autotune\">\n<h2>Autotune candidates</h2>\n", f);
	fprintf(f, "<svg class=\"autotune\" width=\"%.0f\" height=\"%.0f\" role=\"img\">", W + L + 20,
		RH * (double)ar->ncands + 30);
	for (i = 0; i < ar->ncands; i++) {
		const struct an_at_cand *c = &ar->cands[i];
		double y = RH * (double)i + 12, sx = W / (hi - lo);
		const char *col = c->rank == 1 ? GOOD_COLOUR : c->tied == 1 ? MARK_COLOUR : OTHER_COLOUR;

		fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">", L - 6, y + 4);
		out_html_text(f, c->id);
		if (c->id_rows > 1) {	/* one program of an id that ran as several: which */
			char pg[64];

			out_autotune_programs(pg, sizeof(pg), c, "?");
			fprintf(f, " (%s)", pg);
		}
		fputs("</text>", f);
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ccc\"/>",
			L + (c->s.min - lo) * sx, L + (c->s.max - lo) * sx, y, y);
		if (c->s.n_used >= 2)	/* fewer: no interval to draw */
			fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>",
				L + (c->s.ci_lo - lo) * sx, L + (c->s.ci_hi - lo) * sx, y, y, col);
		fprintf(f, "<circle class=\"cand\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>",
			L + (c->s.mean - lo) * sx, y, col);
	}
	{
		char a[64], b[64];
		double y = RH * (double)ar->ncands + 18;

		out_fmt_time(a, sizeof(a), lo, OUT_UNIT_AUTO);
		out_fmt_time(b, sizeof(b), hi, OUT_UNIT_AUTO);
		fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#bbb\"/>", L, L + W, y - 10,
			y - 10);
		fprintf(f, "<text x=\"%.0f\" y=\"%.1f\">%s</text><text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
			L, y + 2, a, L + W, y + 2, b);
	}
	progcol = ar->programs && out_autotune_several_programs(ar);
	fprintf(f, "</svg>\n<table>\n<tr><th>candidate</th>%s<th>rank</th><th>samples</th><th>trimmed mean</th>"
		"<th>95%% CI</th><th>tied with the fastest</th></tr>\n", progcol ? "<th>program</th>" : "");
	for (i = 0; i < ar->ncands; i++) {
		const struct an_at_cand *c = &ar->cands[i];
		char a[64], b[64], pg[256];

		fputs("<tr><td class=\"name\">", f);
		out_html_text(f, c->id);
		if (progcol) {
			out_autotune_programs(pg, sizeof(pg), c, "-");
			fprintf(f, "</td><td class=\"num\">%s", pg);
		}
		fprintf(f, "</td><td class=\"num\">%zu</td><td class=\"num\">%zu", c->rank, c->s.n);
		if (c->s.n_used != c->s.n)
			fprintf(f, " (%zu used)", c->s.n_used);
		fputs("</td>", f);
		time_cell(f, c->s.mean);
		out_fmt_time(a, sizeof(a), c->s.ci_lo, OUT_UNIT_AUTO);
		out_fmt_time(b, sizeof(b), c->s.ci_hi, OUT_UNIT_AUTO);
		if (c->s.n_used < 2)
			snprintf(a, sizeof(a), "n/a"), b[0] = '\0';
		fprintf(f, "<td class=\"num\">%s%s%s</td><td>%s</td></tr>\n", a, b[0] ? " – " : "", b,
			c->tied == 1 ? (c->rank == 1 ? "fastest" : "yes") : c->tied == 0 ? "no" : "untested");
	}
	fprintf(f, "</table>\n<p class=\"note\">Samples: %s, %zu run%s. Bars: the 95%% interval of the trimmed "
		"mean (none under 2 samples used); thin line: min to max; dot: the mean. Green: the fastest, blue: tied "
		"with it (Welch p &ge; alpha).</p>\n</section>\n",
		ar->samples_are_runs ? "each run's mean" : "every execution", ar->runs, ar->runs == 1 ? "" : "s");
}

/* Verdict colours: slower red, faster green, the rest grey. */
static const char *verdict_colour(enum an_verdict v)
{
	return v == AN_V_SLOWER ? "#e15759" : v == AN_V_FASTER ? "#59a14f" : OTHER_COLOUR;
}

/* "+9.6%" for a ratio, "-" when there is none. */
static void pct(char *b, size_t n, double ratio)
{
	if (isfinite(ratio))
		snprintf(b, n, "%+.1f%%", (ratio - 1) * 100);
	else
		snprintf(b, n, "-");
}

/* A verdict a reader must see: slower, faster, new or gone. */
static int changed(enum an_verdict v)
{
	return v == AN_V_SLOWER || v == AN_V_FASTER || v == AN_V_NEW || v == AN_V_GONE;
}

/*
 * The rows a section shows, of n in their order (their verdicts v[i]; NULL:
 * none changed): every changed one, then the others while fewer than top are
 * shown. Their indices into sel (n of them at most); returns how many.
 */
static size_t pick_rows(size_t n, const enum an_verdict *v, size_t top, size_t *sel)
{
	size_t i, nchanged = 0, others = 0, k = 0;

	for (i = 0; v && i < n; i++)
		nchanged += changed(v[i]);
	for (i = 0; i < n; i++)
		if ((v && changed(v[i])) || (nchanged + others < top && ++others))
			sel[k++] = i;
	return k;
}

/* "; 15 of 16 rows shown: every slower, faster, new or gone row, then ..." */
static void shown_note(FILE *f, size_t shown, size_t n, const char *then)
{
	if (shown < n)
		fprintf(f, "%zu of %zu rows shown: every slower, faster, new or gone row, then %s", shown, n, then);
	else
		fprintf(f, "%zu row%s, %s", n, n == 1 ? "" : "s", then);
}

/*
 * --base: per row (the rows with the largest change of the mean first, as
 * diff sorts them) the change of the mean as a dot and its 95% interval as
 * a bar on a log axis centred on no change, coloured by verdict.
 */
static void diff_section(FILE *f, const struct out_report *r)
{
	const struct an_diff_result *d = r->diff;
	const double W = 520, L = 260, RH = 22;
	char sides[2][64];
	size_t n, i, *sel;
	enum an_verdict *v;
	double span = 0.05;	/* the axis: +-5% at least */

	if (!d)
		return;
	sel = malloc((d->nrows + 1) * sizeof(*sel));
	v = malloc((d->nrows + 1) * sizeof(*v));
	if (!sel || !v) {
		free(sel);
		free(v);
		return;
	}
	for (i = 0; i < d->nrows; i++)
		v[i] = d->rows[i].verdict;
	n = pick_rows(d->nrows, v, r->top, sel);
	free(v);
	fputs("<section id=\"diff\">\n<h2>Against the base</h2>\n<p class=\"note\">Base: ", f);
	short_text(f, r->base);
	out_diff_runs(sides[0], sizeof(sides[0]), d, 0);
	out_diff_runs(sides[1], sizeof(sides[1]), d, 1);
	fprintf(f, " (%s); these inputs: %s; samples: %s. Mann-Whitney U, alpha %g.</p>\n", sides[0], sides[1],
		d->executions ? "the executions of the one run on each side" : "each run's mean", d->opts.alpha);
	if (!n) {
		fputs("<p class=\"note\">Nothing to compare.</p>\n</section>\n", f);
		free(sel);
		return;
	}
	for (i = 0; i < n; i++) {
		const struct an_diff_row *w = &d->rows[sel[i]];
		double lo = isfinite(w->ci_lo) ? w->ci_lo : w->change, hi = isfinite(w->ci_hi) ? w->ci_hi : w->change;

		if (isfinite(lo) && lo > 0)
			span = fmax(span, fabs(log(lo)));
		if (isfinite(hi) && hi > 0)
			span = fmax(span, fabs(log(hi)));
	}
	span = fmin(span, log(100.0));
	fprintf(f, "<svg class=\"diff\" width=\"%.0f\" height=\"%.0f\" role=\"img\">", L + W + 20, RH * (double)n + 30);
	fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"0\" y2=\"%.1f\" stroke=\"#999\"/>", L + W / 2, L + W / 2,
		RH * (double)n);
	for (i = 0; i < n; i++) {
		const struct an_diff_row *w = &d->rows[sel[i]];
		double y = RH * (double)i + 12;
		const char *col = verdict_colour(w->verdict);

		fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">", L - 6, y + 4);
		short_text(f, w->key);
		fputs("</text>", f);
		if (!(isfinite(w->change) && w->change > 0)) {
			fprintf(f, "<text class=\"dv\" x=\"%.1f\" y=\"%.1f\">%s</text>", L + W / 2 + 6, y + 4,
				an_verdict_name(w->verdict));
			continue;
		}
#define XPOS(v) (L + W / 2 + fmax(-1, fmin(1, log(v) / span)) * W / 2)
		if (isfinite(w->ci_lo) && w->ci_lo > 0)
			fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>",
				XPOS(w->ci_lo), XPOS(w->ci_hi), y, y, col);
		fprintf(f, "<circle class=\"dv\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>", XPOS(w->change), y, col);
#undef XPOS
	}
	{
		double y = RH * (double)n + 18;

		fprintf(f, "<text x=\"%.0f\" y=\"%.1f\">%+.0f%%</text><text x=\"%.0f\" y=\"%.1f\" text-anchor=\"middle\">no change</text>"
			   "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%+.0f%%</text>",
			L, y, (exp(-span) - 1) * 100, L + W / 2, y, L + W, y, (exp(span) - 1) * 100);
	}
	fputs("</svg>\n<table>\n<tr><th>row</th><th>verdict</th><th>change</th><th>95% CI</th><th>p (U)</th>"
	      "<th>base n</th><th>base mean</th><th>n</th><th>mean</th></tr>\n", f);
	for (i = 0; i < n; i++) {
		const struct an_diff_row *w = &d->rows[sel[i]];
		char a[32], b[32], c[32];

		fputs("<tr>", f);
		name_cell(f, w->key);
		pct(a, sizeof(a), w->change);
		pct(b, sizeof(b), w->ci_lo);
		pct(c, sizeof(c), w->ci_hi);
		fprintf(f, "<td style=\"color:%s\">%s</td><td class=\"num\">%s</td><td class=\"num\">%s%s%s</td>",
			verdict_colour(w->verdict), an_verdict_name(w->verdict), a, isfinite(w->ci_lo) ? b : "-",
			isfinite(w->ci_lo) ? " .. " : "", isfinite(w->ci_lo) ? c : "");
		if (isfinite(w->p_u))
			fprintf(f, "<td class=\"num\">%.2g</td>", w->p_u);
		else
			fputs("<td class=\"num\">-</td>", f);
		fprintf(f, "<td class=\"num\">%zu</td>", w->base.n);
		if (w->base.n)
			time_cell(f, w->base.mean);
		else
			fputs("<td class=\"num\">-</td>", f);
		fprintf(f, "<td class=\"num\">%zu</td>", w->cur.n);
		if (w->cur.n)
			time_cell(f, w->cur.mean);
		else
			fputs("<td class=\"num\">-</td>", f);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<p class=\"note\">", f);
	shown_note(f, n, d->nrows, "the largest changes of the mean first");
	fprintf(f, "; dot: current mean / base mean (log axis), bar: its 95%% interval; red slower, green faster "
		   "(p &lt; %g).</p>\n</section>\n", d->opts.alpha);
	free(sel);
}

/*
 * --history: per row (the rows with the most time in the latest run first)
 * its mean in each recorded run as a line, each run a point, scaled to the
 * row's own range; the latest against its baseline as diff says.
 */
static int cmp_latest(const void *x, const void *y, void *arg)
{
	const struct an_hist_result *h = arg;
	double a = h->rows[*(const size_t *)x].means[h->latest], b = h->rows[*(const size_t *)y].means[h->latest];

	a = isfinite(a) ? a : -1;
	b = isfinite(b) ? b : -1;
	return (a < b) - (a > b);
}

static void history_section(FILE *f, const struct out_report *r)
{
	const struct an_hist_result *h = r->history;
	const double W = 360, H = 28;
	size_t *order, *sel, n, i, g, k;
	enum an_verdict *v;
	double lo = 0, hi = 0;	/* the lines' scale: changes from each row's first mean */

	if (!h)
		return;
	fputs("<section id=\"history\">\n<h2>History</h2>\n<p class=\"note\">", f);
	short_text(f, r->history_file);
	fprintf(f, ": %zu recorded run%s", h->ngroups, h->ngroups == 1 ? "" : "s");
	if (h->base_why != AN_HB_NONE) {
		const struct an_hist_group *a = &h->groups[h->latest], *b = &h->groups[h->baseline];

		fputs("; the latest, ", f);
		out_html_text(f, *a->commit ? a->commit : "(no commit)");
		fprintf(f, "%s#%llu, against ", a->dirty ? "+" : "", (unsigned long long)a->run);
		out_html_text(f, *b->commit ? b->commit : "(no commit)");
		fprintf(f, "%s#%llu", b->dirty ? "+" : "", (unsigned long long)b->run);
	}
	fputs(".</p>\n", f);
	order = malloc((h->nrows + 1) * sizeof(*order));
	sel = malloc((h->nrows + 1) * sizeof(*sel));
	v = malloc((h->nrows + 1) * sizeof(*v));
	if (!order || !sel || !v)
		goto out;
	for (i = 0; i < h->nrows; i++)
		order[i] = i;
	qsort_r(order, h->nrows, sizeof(*order), cmp_latest, (void *)h);
	/* each row's verdict, latest against its baseline, as diff gave it */
	for (i = 0; i < h->nrows; i++)
		for (v[i] = AN_V_SAME, k = 0; k < h->diff.nrows; k++)
			if (!strcmp(h->diff.rows[k].key, h->rows[order[i]].key))
				v[i] = h->diff.rows[k].verdict;
	n = pick_rows(h->nrows, v, r->top, sel);
	fputs("<table>\n<tr><th>row</th><th>trend</th><th>latest mean</th><th>change</th><th>verdict</th></tr>\n", f);
	/* one scale for every line: each row's means as changes from its first recorded one */
	for (i = 0; i < n; i++) {
		const struct an_hist_row *w = &h->rows[order[sel[i]]];
		double ref = NAN;

		for (g = 0; g < h->ngroups; g++) {
			if (!isfinite(w->means[g]))
				continue;
			if (isnan(ref))
				ref = w->means[g];
			if (ref > 0) {
				lo = fmin(lo, w->means[g] / ref - 1);
				hi = fmax(hi, w->means[g] / ref - 1);
			}
		}
	}
	if (!(lo <= 0))
		lo = 0;
	if (!(hi >= 0))
		hi = 0;
	for (i = 0; i < n; i++) {
		const struct an_hist_row *w = &h->rows[order[sel[i]]];
		const struct an_diff_row *d = NULL;
		double ref = NAN;
		char a[32];
		int first = 1;

		for (k = 0; k < h->diff.nrows; k++)
			if (!strcmp(h->diff.rows[k].key, w->key))
				d = &h->diff.rows[k];
		for (g = 0; g < h->ngroups && isnan(ref); g++)
			if (isfinite(w->means[g]))
				ref = w->means[g];
		fputs("<tr>", f);
		name_cell(f, w->key);
		fprintf(f, "<td><svg class=\"trend\" width=\"%.0f\" height=\"%.0f\" role=\"img\">", W, H);
		if (hi > lo)	/* no change: 0 at the middle */
			fprintf(f, "<line x1=\"0\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>", W,
				H - 4 - (H - 8) * (0 - lo) / (hi - lo), H - 4 - (H - 8) * (0 - lo) / (hi - lo));
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", MARK_COLOUR);
		for (g = 0; g < h->ngroups; g++) {
			double x, y, c;

			if (!isfinite(w->means[g]))
				continue;
			c = ref > 0 ? w->means[g] / ref - 1 : 0;
			x = h->ngroups > 1 ? 4 + (W - 8) * (double)g / (double)(h->ngroups - 1) : W / 2;
			y = hi > lo ? H - 4 - (H - 8) * (c - lo) / (hi - lo) : H / 2;
			fprintf(f, "%s%.1f,%.1f", first ? "" : " ", x, y);
			first = 0;
		}
		fputs("\"/></svg></td>", f);
		if (isfinite(w->means[h->latest]))
			time_cell(f, w->means[h->latest]);
		else
			fputs("<td class=\"num\">-</td>", f);
		pct(a, sizeof(a), d ? d->change : NAN);
		fprintf(f, "<td class=\"num\">%s</td><td style=\"color:%s\">%s</td></tr>\n", a,
			d ? verdict_colour(d->verdict) : OTHER_COLOUR, d ? an_verdict_name(d->verdict) : "-");
	}
	fputs("</table>\n<p class=\"note\">", f);
	shown_note(f, n, h->nrows, "the most time in the latest run first");
	{
		char a[32], b[32];

		pct(a, sizeof(a), 1 + lo);
		pct(b, sizeof(b), 1 + hi);
		fprintf(f, "; each line is the row's mean per recorded run, oldest left, as its change from its first "
			   "recorded mean, every line on one scale: %s at the bottom to %s at the top (grey: no "
			   "change).</p>\n</section>\n", a, b);
	}
out:
	free(order);
	free(sel);
	free(v);
}

int out_report(FILE *f, const struct out_report *r)
{
	size_t i;

	head(f, r);
	overview(f, r->overview);
	stragglers(f, r->overview ? &r->overview->strag : NULL, r->top);
	functions(f, r->functions, r->top);
	timeline(f, r);
	kernels(f, r->kernels, r->top);
	ops(f, r->ops, r->top);
	memory(f, r);
	compile_section(f, r);
	autotune(f, r->autotune);
	diff_section(f, r);
	history_section(f, r);
	if (r->notes && r->notes->n) {
		fputs("<section id=\"warnings\">\n<h2>Warnings</h2>\n<ul>\n", f);
		for (i = 0; i < r->notes->n; i++) {
			fputs("<li>", f);
			out_html_text(f, r->notes->msgs[i]);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n</section>\n", f);
	}
	fputs("<footer><p class=\"note\">Made by ", f);
	out_html_text(f, r->version);
	fputs(" from the files above; open offline, nothing is fetched.</p></footer>\n</body>\n</html>\n", f);
	return 0;
}

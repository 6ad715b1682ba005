/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The kernels and ops sections of run summaries: a line made from a trace
 * reads back and writes the same bytes; kernels (every --by, with and
 * without --device) and ops pooled from it give what an_kern_add and
 * an_ops_add give on the trace (quantiles of sketched rows within 0.5%);
 * and each of a list of corrupted variants of the line is refused with a
 * message naming the file and line, never read as numbers.
 */
#include <stdlib.h>
#include <string.h>

#include "an_run.h"
#include "an_summary.h"
#include "out_summary.h"
#include "test.h"
#include "test_trace.h"

/* A summary line of t's kernels and ops (no executions), as summarize writes it. */
static int line_of(struct xp_trace *t, struct out_bytes *b)
{
	struct an_run run;
	struct xp_err err = {0};
	int ret;

	memset(&run, 0, sizeof(run));
	xp_arena_init(&run.execs.arena);
	run.path = "t.xplane.pb";
	run.tool = "xplane-stat test";
	run.execs.hostname = "";
	ret = an_run_kernels_of(&run.kernels, t, NULL, &err) || an_run_ops_of(&run.ops, t, NULL, &err) ||
	      out_summary_line(&run, b);
	an_run_kernels_free(run.kernels);
	an_run_ops_free(run.ops);
	xp_arena_release(&run.execs.arena);
	return ret;
}

static int same_double(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

/* kernels by each mode, from the trace and from the line. */
static void check_kernels(struct xp_trace *t, const struct out_bytes *line, const char *device, int *approx)
{
	int by;

	for (by = AN_KERN_BY_NAME; by <= AN_KERN_BY_FUNCTION; by++) {
		struct an_kern_opts ko = {.by = (enum an_kern_by)by, .device = device};
		struct an_kern_result a, b;
		struct an_run run;
		struct xp_err err = {0};
		size_t i;

		an_kern_init(&a, &ko);
		an_kern_init(&b, &ko);
		CHECK_INT(an_kern_add(&a, t, &err), 0);
		CHECK_INT(an_summary_parse((const char *)line->p, line->n, "t.jsonl", 1, &run, &err), 0);
		CHECK(run.kernels != NULL);
		if (run.kernels)
			CHECK_INT(an_run_kernels_pool(run.kernels, &b, &err), 0);
		CHECK_INT(an_kern_finish(&a, &err), 0);
		CHECK_INT(an_kern_finish(&b, &err), 0);
		CHECK_INT(b.nrows, a.nrows);
		CHECK_INT(b.devices, a.devices);
		CHECK_INT(b.kernel_events, a.kernel_events);
		CHECK(b.kernel_ps == a.kernel_ps);
		CHECK_INT(b.kernel_busy_ps, a.kernel_busy_ps);
		CHECK_INT(b.copy_events, a.copy_events);
		CHECK_INT(b.zero_events, a.zero_events);
		CHECK_INT(b.no_config + b.bad_config + b.implausible_config,
			  a.no_config + a.bad_config + a.implausible_config);
		CHECK_INT(b.stream_lines + b.other_lines + b.stray_events + b.device_planes_no_streams,
			  a.stream_lines + a.other_lines + a.stray_events + a.device_planes_no_streams);
		for (i = 0; i < AN_KIND_COUNT; i++)
			CHECK(b.copies[i].count == a.copies[i].count && b.copies[i].total == a.copies[i].total &&
			      b.copies[i].bytes == a.copies[i].bytes && b.copies[i].bytes_time == a.copies[i].bytes_time);
		for (i = 0; i < a.nrows && i < b.nrows; i++) {
			const struct an_kern_row *x = &a.rows[i], *y = &b.rows[i];

			CHECK_STR(y->name, x->name);
			CHECK_INT(y->instances, x->instances);
			CHECK(y->total == x->total && y->mean == x->mean && same_double(y->std, x->std));
			CHECK(y->min == x->min && y->max == x->max && y->share == x->share);
			if (by == AN_KERN_BY_CONFIG)
				CHECK_STR(y->config, x->config);
			if (by == AN_KERN_BY_FUNCTION)
				CHECK(!strcmp(y->function ? y->function : "-", x->function ? x->function : "-") &&
				      !strcmp(y->op ? y->op : "-", x->op ? x->op : "-"));
			CHECK_INT(x->approximate, 0);
			CHECK(!y->approximate || y->instances > AN_KERN_EXACT_MAX);	/* over 256 on a plane */
			*approx += y->approximate;
			if (!y->approximate) {
				CHECK(y->median == x->median && y->p90 == x->p90 && y->p99 == x->p99);
				continue;
			}
			CHECK(fabs(y->median - x->median) <= AN_SKETCH_ALPHA * x->median + 0.5);
			CHECK(fabs((double)(y->p90 - x->p90)) <= AN_SKETCH_ALPHA * (double)x->p90 + 0.5);
			CHECK(fabs((double)(y->p99 - x->p99)) <= AN_SKETCH_ALPHA * (double)x->p99 + 0.5);
		}
		an_run_release(&run);
		an_kern_release(&a);
		an_kern_release(&b);
	}
}

static void check_ops(struct xp_trace *t, const struct out_bytes *line, const char *device)
{
	struct an_ops_opts oo = {.device = device, .by_category = 1};
	struct an_ops_result a, b;
	struct an_run run;
	struct xp_err err = {0};
	size_t i;

	an_ops_init(&a, &oo);
	an_ops_init(&b, &oo);
	CHECK_INT(an_ops_add(&a, t, &err), 0);
	CHECK_INT(an_summary_parse((const char *)line->p, line->n, "t.jsonl", 1, &run, &err), 0);
	CHECK(run.ops != NULL);
	if (run.ops)
		CHECK_INT(an_run_ops_pool(run.ops, &b, &err), 0);
	CHECK_INT(an_ops_finish(&a, &err), 0);
	CHECK_INT(an_ops_finish(&b, &err), 0);
	CHECK_INT(b.nrows, a.nrows);
	CHECK_INT(b.ncats, a.ncats);
	CHECK_INT(b.ndevices, a.ndevices);
	for (i = 0; i < a.nrows && i < b.nrows; i++) {
		const struct an_op_row *x = &a.rows[i], *y = &b.rows[i];

		CHECK_STR(y->name, x->name);
		CHECK(y->occurrences == x->occurrences && y->total_ps == x->total_ps && y->self_ps == x->self_ps);
		CHECK(!memcmp(&y->flops, &x->flops, sizeof(x->flops)) && !memcmp(&y->bytes, &x->bytes, sizeof(x->bytes)));
		CHECK(y->ridge == x->ridge && y->ridge_differs == x->ridge_differs && y->bound == x->bound &&
		      y->share == x->share);
	}
	for (i = 0; i < a.ndevices && i < b.ndevices; i++) {
		CHECK_STR(b.devices[i].name, a.devices[i].name);
		CHECK(b.devices[i].peak_flops == a.devices[i].peak_flops && b.devices[i].peak_bw == a.devices[i].peak_bw);
		CHECK(!memcmp(b.devices[i].events, a.devices[i].events, sizeof(a.devices[i].events)));
	}
	an_run_release(&run);
	an_ops_release(&a);
	an_ops_release(&b);
}

/*
 * The line with the value after the first `find` past `section` (up to , ]
 * or }, an array whole) replaced by `value`, or value inserted there; NULL
 * when not found.
 */
static char *mutate(const struct out_bytes *line, const char *section, const char *find, const char *value,
		    int insert)
{
	const char *s = (const char *)line->p, *sec = memmem(s, line->n, section, strlen(section)), *at, *end;
	char *out;

	if (!sec || !(at = memmem(sec, line->n - (size_t)(sec - s), find, strlen(find))))
		return NULL;
	at += strlen(find);
	end = at;
	if (!insert && *at == '[') {
		while (*end != ']')
			end++;
		end++;
	}
	for (; !insert && end < s + line->n && *end != ',' && *end != ']' && *end != '}'; end++)
		;
	if (asprintf(&out, "%.*s%s%.*s", (int)(at - s), s, value, (int)(s + line->n - end), end) < 0)
		return NULL;
	return out;
}

/*
 * Corrupted variants {find, value, insert (non-NULL) or replace, the end of
 * the message}: each refused (XP_ERR_FORMAT) naming file and line, and for
 * the field meant.
 */
static void check_refused(const struct out_bytes *line, const char *section, const char *const (*cases)[4],
			  size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char *bad = mutate(line, section, cases[i][0], cases[i][1], cases[i][2] != NULL);
		size_t len, want = strlen(cases[i][3]);
		struct an_run run;
		struct xp_err err = {0};
		int ret;

		if (!bad) {
			fprintf(stderr, "  case %zu: '%s' not in the line\n", i, cases[i][0]);
			test_failures++;
			continue;
		}
		ret = an_summary_parse(bad, strlen(bad), "t.jsonl", 7, &run, &err);
		len = strlen(err.msg);
		if (ret != XP_ERR_FORMAT || strncmp(err.msg, "'t.jsonl' line 7: ", 18) || len < want ||
		    strcmp(err.msg + len - want, cases[i][3])) {
			fprintf(stderr, "  case %zu (%s -> %s): %d '%s'\n", i, cases[i][0], cases[i][1], ret, err.msg);
			test_failures++;
		}
		if (!ret)
			an_run_release(&run);
		free(bad);
	}
}

/* Reads the line back, writes it again: the same bytes. */
static void check_round_trip(const struct out_bytes *line)
{
	struct an_run run;
	struct out_bytes again = {0};
	struct xp_err err = {0};

	CHECK_INT(an_summary_parse((const char *)line->p, line->n, "t.jsonl", 1, &run, &err), 0);
	if (err.msg[0])
		fprintf(stderr, "  %s\n", err.msg);
	CHECK_INT(out_summary_line(&run, &again), 0);
	CHECK(again.n == line->n && !memcmp(again.p, line->p, line->n));
	an_run_release(&run);
	out_bytes_release(&again);
}

int main(void)
{
	/* a GPU trace with copies, a TPU one with ops and peaks, one with a kernel beyond 256 instances */
	static const char *const traces[] = {
		TESTDATA_DIR "/real/v100_tf_bert.xplane.pb", TESTDATA_DIR "/real/tpu_v6e_inference.xplane.pb",
		TESTDATA_DIR "/real/mi300x_jax_gemm.xplane.pb", SYNTH_DIR "/gpu_many_copies.xplane.pb",
		SYNTH_DIR "/gpu_kernels.xplane.pb", SYNTH_DIR "/ops_values.xplane.pb",
	};
	static const char *const kern_bad[][4] = {
		{"\"samples\":[", "-5", "", "not an integer in range: samples"},
		{"\"samples\":[", "\"9223372036854775807\",1,", "", "beyond 2^63-1 ps: samples"},
		{"\"samples\":", "[]", NULL, "no instances: samples"},
		{"\"config\":", "3", NULL, "not an integer in range: config"},
		{"\"launch\":[", "1,", "", "not an array of 13: launch"},
		{"\"function\":null,\"program_id\":", "\"5\"", NULL, "a program without a function: program_id"},
		{"\"plane\":", "\"/host:CPU\"", NULL, "not a device plane's name: plane"},
		{"\"copies\":{", "\"H2D\":[1,5,0,0,0,9],", "", "counts that do not agree: H2D"},
		{"\"copies\":{", "\"kernel\":[1,5,0,0,0,0],", "", "not a kind of copy or memset: kernel"},
		{"\"busy_ps\":", "\"9223372036854775807\"", NULL, "more than the kernels' time: busy_ps"},
		{"\"stream_lines\":", "-1", NULL, "not an integer in range: stream_lines"},
		{"\"op\":", "5", NULL, "not a string: op"},
	};
	static const char *const sketch_bad[][4] = {
		{"\"n\":", "4294967296", NULL, "not an integer in range: n"},	/* beyond a plane's events */
		{"\"zeros\":", "1", NULL, "counts that do not add up to n: count"},
		{"\"count\":[", "0,", "", "not an integer in range: count"},
		{"\"count\":[", "1,", "", "index and count of different lengths: count"},
		{"\"index\":[", "99999", NULL, "not an integer in range: index"},	/* beyond the largest bucket */
		{"\"sum_sq\":\"", "1", "", "moments no n values between min and max can have: sum_sq"},
		{"\"sum\":", "\"x\"", NULL, "not a string of digits below 2^127: sum"},
		/* 300 times 2000 ps: a sum no value of 0 (or a max of 1) allows */
		{"\"min\":", "0", NULL, "moments no n values between min and max can have: sum_sq"},
		{"\"max\":", "1", NULL, "moments no n values between min and max can have: sum_sq"},
		{"\"index\":[", "9", NULL, "buckets that do not hold min and max: zeros"},
	};
	static const char *const ops_bad[][4] = {
		{"\"self_ps\":", "\"9223372036854775807\"", NULL, "not an integer in range: self_ps"},	/* > total */
		{"\"line\":", "7", NULL, "not an integer in range: line"},
		{"\"occurrences\":", "0", NULL, "not an integer in range: occurrences"},
		{"\"flops\":[", "\"x\",", "", "(at most all), overflow]: flops"},
		{"\"model_flops\":[", "0,99999999,0", NULL, "(at most all), overflow]: model_flops"},
		{"\"peak_source\":", "0", NULL, "peaks that do not agree with their source: peak_bw"},
		{"\"peak_flops\":", "-1", NULL, "not a finite number >= 0: peak_flops"},
		{"\"module\":", "7", NULL, "not a string: module"},
		{"\"device\":{\"name\":", "7", NULL, "not a string: name"},
		{"\"ops\":{\"planes\":[", "{},", "", "missing field: plane"},
	};
	struct out_bytes line[6] = {{0}};
	size_t i;
	int approx = 0;

	for (i = 0; i < sizeof(traces) / sizeof(traces[0]); i++) {
		struct xp_trace *t = test_load(traces[i], NULL);

		if (!t)
			continue;
		CHECK_INT(line_of(t, &line[i]), 0);
		check_round_trip(&line[i]);
		check_kernels(t, &line[i], NULL, &approx);
		check_kernels(t, &line[i], "gpu:1", &approx);
		check_ops(t, &line[i], NULL);
		check_ops(t, &line[i], "TPU:1");
		check_ops(t, &line[i], "gpu:0");
		xp_trace_free(t);
	}
	CHECK(approx > 0);	/* gpu_many_copies: a kernel of 300 instances, kept as a sketch */
	check_refused(&line[0], "\"kernels\":", kern_bad, sizeof(kern_bad) / sizeof(kern_bad[0]));
	check_refused(&line[3], "\"kernels\":", sketch_bad, sizeof(sketch_bad) / sizeof(sketch_bad[0]));
	check_refused(&line[1], "\"ops\":", ops_bad, sizeof(ops_bad) / sizeof(ops_bad[0]));
	for (i = 0; i < sizeof(line) / sizeof(line[0]); i++)
		out_bytes_release(&line[i]);
	return test_done("test_run_sections");
}

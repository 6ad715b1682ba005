/* SPDX-License-Identifier: Apache-2.0 */
#include "out_overview.h"

#include <math.h>
#include <string.h>

#include "out_json.h"

static double duty(const struct an_ov_device *d)
{
	return d->span_ps > 0 ? (double)d->busy_ps / (double)d->span_ps : 0;
}

static void json_dist(cJSON *o, const char *name, const struct an_ov_dist *d, int p99)
{
	cJSON *x;

	if (!d->n) {
		cJSON_AddNullToObject(o, name);
		return;
	}
	if (!(x = cJSON_AddObjectToObject(o, name)))
		return;
	cJSON_AddNumberToObject(x, "count", (double)d->n);
	out_json_add_ns(x, "mean_ns", d->mean);
	out_json_add_ns(x, "median_ns", d->median);
	if (p99)
		out_json_add_ns(x, "p99_ns", d->p99);
	out_json_add_ns(x, "min_ns", d->min);
	out_json_add_ns(x, "max_ns", d->max);
}

static void json_strag(cJSON *doc, const struct an_strag_result *s);

static void json_num_or_null(cJSON *o, const char *name, double v)
{
	if (v >= 0 && isfinite(v))
		cJSON_AddNumberToObject(o, name, v);
	else
		cJSON_AddNullToObject(o, name);
}

/* "utilization": the FLOPs of the device's work over its span and peak (an_overview.h). */
static void json_util(cJSON *o, const struct an_ov_device *d)
{
	cJSON *u = cJSON_AddObjectToObject(o, "utilization");

	if (!u)
		return;
	out_json_add_u64_if(u, "flops", d->flops_ps && !d->flops_overflow, d->flops);
	out_json_add_u64_if(u, "model_flops", d->model_ps && !d->flops_overflow, d->model_flops);
	out_json_add_ns(u, "work_ns", (double)d->work_ps);
	out_json_add_ns(u, "flops_work_ns", (double)d->flops_ps);
	out_json_add_ns(u, "model_flops_work_ns", (double)d->model_ps);
	json_num_or_null(u, "flops_per_s", an_ov_flops_per_s(d));
	cJSON_AddStringToObject(u, "peak_source", an_peak_src_name((enum an_peak_src)d->peak_src));
	json_num_or_null(u, "peak_flops_per_s", d->peak_src ? d->peak_flops : -1);
	json_num_or_null(u, "flops_utilization", an_ov_flops_util(d));
	json_num_or_null(u, "model_flops_utilization", an_ov_model_util(d));
	out_json_add_ns(u, "kernel_ns", (double)d->kernel_ps);
	out_json_add_ns(u, "tensor_core_ns", (double)d->tensor_core_ps);
}

static void json_aligned(cJSON *doc, const struct an_ov_result *r)
{
	cJSON *a = cJSON_AddArrayToObject(doc, "aligned_steps"), *o;
	size_t i;

	for (i = 0; a && i < r->naligned && (o = out_json_push_object(a)); i++) {
		const struct an_ov_aligned *s = &r->aligned[i];

		out_json_add_str_or_null(o, "input", s->input);
		cJSON_AddStringToObject(o, "name", s->name);
		cJSON_AddNumberToObject(o, "devices", (double)s->devices);
		out_json_add_ns(o, "max_ns", (double)s->max_ps);
		out_json_add_ns(o, "min_ns", (double)s->min_ps);
		out_json_add_str_or_null(o, "slowest_device", s->slowest);
	}
	cJSON_AddNumberToObject(doc, "steps_unaligned", (double)r->steps_unaligned);
}

static void json_steps(cJSON *doc, const struct an_ov_result *r)
{
	cJSON *a = cJSON_AddArrayToObject(doc, "steps"), *o;
	size_t i;

	for (i = 0; a && i < r->nsteps && (o = out_json_push_object(a)); i++) {
		const struct an_ov_step *s = &r->steps[i];

		out_json_add_str_or_null(o, "device", s->device);
		out_json_add_str_or_null(o, "input", s->input);
		cJSON_AddStringToObject(o, "name", s->name);
		cJSON_AddNumberToObject(o, "index", (double)s->index);
		out_json_add_ns(o, "start_ns", (double)s->start_ps);
		out_json_add_ns(o, "duration_ns", (double)s->dur_ps);
		out_json_add_ns(o, "busy_ns", (double)s->busy_ps);
		out_json_add_ns(o, "compute_ns", (double)s->compute_ps);
		out_json_add_ns(o, "collective_exposed_ns", (double)s->coll_exposed_ps);
		out_json_add_ns(o, "memcpy_exposed_ns", (double)s->memcpy_exposed_ps);
		out_json_add_ns(o, "host_wait_ns", (double)s->host_wait_ps);
		out_json_add_ns(o, "idle_ns", (double)an_ov_step_idle(s));
		out_json_add_u64_if(o, "flops", an_ov_step_flops_per_s(s) >= 0, s->flops);
		json_num_or_null(o, "flops_per_s", an_ov_step_flops_per_s(s));
		json_num_or_null(o, "flops_utilization", an_ov_step_util(s));
		if (s->tpu && s->leaf_ps > 0)
			cJSON_AddNumberToObject(o, "flops_of", (double)s->flops_ps / (double)s->leaf_ps);
		else
			cJSON_AddNullToObject(o, "flops_of");
	}
}

static int print_json(FILE *f, const struct an_ov_result *r, const struct an_strag_result *s,
		      const struct xp_notes *notes)
{
	cJSON *doc = out_json_command_doc("overview"), *devs, *o;
	size_t i;

	if (!doc)
		return -1;
	devs = cJSON_AddArrayToObject(doc, "devices");
	for (i = 0; i < r->n && (o = out_json_push_object(devs)); i++) {
		const struct an_ov_device *d = &r->devices[i];
		cJSON *lat;

		cJSON_AddStringToObject(o, "name", d->name);
		out_json_add_str_or_null(o, "host", d->host);
		cJSON_AddStringToObject(o, "plane", d->plane);
		cJSON_AddStringToObject(o, "work", d->tpu ? "XLA Ops" : "streams");
		cJSON_AddNumberToObject(o, "planes", (double)d->planes);
		cJSON_AddNumberToObject(o, "events", (double)d->events);
		out_json_add_ns(o, "span_ns", (double)d->span_ps);
		out_json_add_ns(o, "busy_ns", (double)d->busy_ps);
		out_json_add_ns(o, "idle_ns", (double)an_ov_idle(d));
		cJSON_AddNumberToObject(o, "duty_cycle", duty(d));
		out_json_add_ns(o, "compute_ns", (double)d->compute_ps);
		out_json_add_ns(o, "collective_ns", (double)d->coll_ps);
		out_json_add_ns(o, "collective_exposed_ns", (double)d->coll_exposed_ps);
		out_json_add_ns(o, "memcpy_ns", (double)d->memcpy_ps);
		out_json_add_ns(o, "memcpy_exposed_ns", (double)d->memcpy_exposed_ps);
		cJSON_AddNumberToObject(o, "collective_events", (double)d->coll_events);
		cJSON_AddNumberToObject(o, "memcpy_events", (double)d->memcpy_events);
		cJSON_AddNumberToObject(o, "stray_end_events", (double)d->stray);
		json_dist(o, "steps", &d->steps, 0);
		json_util(o, d);
		if (d->tpu || !d->corr_events) {
			cJSON_AddNullToObject(o, "launch_latency");
			continue;
		}
		lat = cJSON_AddObjectToObject(o, "launch_latency");
		if (!lat)
			continue;
		cJSON_AddNumberToObject(lat, "events_with_correlation_id", (double)d->corr_events);
		cJSON_AddNumberToObject(lat, "no_launch", (double)d->no_launch);
		cJSON_AddNumberToObject(lat, "ambiguous", (double)d->ambiguous);
		cJSON_AddNumberToObject(lat, "off_scale", (double)d->off_scale);
		json_dist(lat, "latency", &d->latency, 1);
		cJSON_AddNumberToObject(lat, "queued", (double)d->queued);
		json_dist(lat, "queue_wait", &d->queue, 1);
		json_dist(lat, "overhead", &d->overhead, 1);
	}
	json_dist(doc, "host_steps", &r->host_steps, 0);
	json_dist(doc, "host_only_steps", &r->host_only_steps, 0);
	if (r->want_steps) {
		json_steps(doc, r);
		json_aligned(doc, r);
	}
	if (s)
		json_strag(doc, s);
	out_json_add_notes(doc, notes);
	return out_json_print(doc, f);
}

static int print_machine(FILE *f, enum out_mode mode, const struct an_ov_result *r)
{
	static const char *const h[] = {
		"device", "events", "span_ns", "busy_ns", "idle_ns", "duty_cycle", "compute_ns",
		"collective_ns", "collective_exposed_ns", "memcpy_ns", "memcpy_exposed_ns",
		"stray_end_events", "steps", "step_mean_ns", "step_median_ns", "step_min_ns", "step_max_ns",
		"launches_linked", "launch_no_launch", "launch_ambiguous", "launch_mean_ns",
		"launch_median_ns", "launch_p99_ns", "launch_queued", "launch_queue_mean_ns",
		"launch_queue_median_ns", "launch_queue_p99_ns", "launch_overhead_mean_ns",
		"launch_overhead_median_ns", "launch_overhead_p99_ns", "flops", "flops_work_ns", "work_ns",
		"flops_per_s", "peak_flops_per_s", "flops_utilization", "model_flops_utilization", "kernel_ns",
		"tensor_core_ns"};
	enum { NC = sizeof(h) / sizeof(h[0]) };
	struct out_table t;
	size_t i, k;
	int ret;

	out_table_init(&t, NC, h, NULL);
	for (i = 0; i <= r->n + 1; i++) {	/* the devices, then the host's steps and its host-only steps */
		const struct an_ov_device *d = i < r->n ? &r->devices[i] : NULL;
		const struct an_ov_dist *st = d ? &d->steps : i == r->n ? &r->host_steps : &r->host_only_steps;
		const int64_t v[] = {d ? d->span_ps : 0, d ? d->busy_ps : 0, d ? an_ov_idle(d) : 0};
		char b[48];

		if (!d && !st->n)
			continue;
		out_table_add(&t, "%s", d ? d->name : i == r->n ? "host" : "host only");
		if (d) {
			out_table_add(&t, "%zu", d->events);
			for (k = 0; k < 3; k++) {
				out_fmt_ns(b, sizeof(b), (double)v[k]);
				out_table_add(&t, "%s", b);
			}
			out_table_add(&t, "%.6f", duty(d));
			out_fmt_ns(b, sizeof(b), (double)d->compute_ps), out_table_add(&t, "%s", b);
			out_fmt_ns(b, sizeof(b), (double)d->coll_ps), out_table_add(&t, "%s", b);
			out_fmt_ns(b, sizeof(b), (double)d->coll_exposed_ps), out_table_add(&t, "%s", b);
			out_fmt_ns(b, sizeof(b), (double)d->memcpy_ps), out_table_add(&t, "%s", b);
			out_fmt_ns(b, sizeof(b), (double)d->memcpy_exposed_ps), out_table_add(&t, "%s", b);
			out_table_add(&t, "%zu", d->stray);
		} else {
			for (k = 0; k < 11; k++)
				out_table_add(&t, "%s", "");
		}
		out_table_add(&t, "%zu", st->n);
		{
			const double sv[] = {st->mean, st->median, st->min, st->max};

			for (k = 0; k < 4; k++) {
				out_fmt_ns(b, sizeof(b), sv[k]);
				out_table_add(&t, "%s", st->n ? b : "");
			}
		}
		if (d && !d->tpu && d->corr_events) {
			const double lv[] = {d->latency.mean, d->latency.median, d->latency.p99};

			out_table_add(&t, "%zu", d->latency.n);
			out_table_add(&t, "%zu", d->no_launch);
			out_table_add(&t, "%zu", d->ambiguous + d->off_scale);	/* as the table and the man page count it */
			for (k = 0; k < 3; k++) {
				out_fmt_ns(b, sizeof(b), lv[k]);
				out_table_add(&t, "%s", d->latency.n ? b : "");
			}
			out_table_add(&t, "%zu", d->queued);
			{
				const double qv[] = {d->queue.mean, d->queue.median, d->queue.p99, d->overhead.mean,
						     d->overhead.median, d->overhead.p99};

				for (k = 0; k < 6; k++) {
					out_fmt_ns(b, sizeof(b), qv[k]);
					out_table_add(&t, "%s", d->latency.n ? b : "");
				}
			}
		} else {
			for (k = 0; k < 13; k++)
				out_table_add(&t, "%s", "");
		}
		if (d) {
			const double uv[] = {an_ov_flops_per_s(d), d->peak_src ? d->peak_flops : -1, an_ov_flops_util(d),
					     an_ov_model_util(d)};

			if (d->flops_ps && !d->flops_overflow)
				out_table_add(&t, "%llu", (unsigned long long)d->flops);
			else
				out_table_add(&t, "%s", "");
			out_fmt_ns(b, sizeof(b), (double)d->flops_ps), out_table_add(&t, "%s", b);
			out_fmt_ns(b, sizeof(b), (double)d->work_ps), out_table_add(&t, "%s", b);
			for (k = 0; k < 4; k++)
				if (uv[k] >= 0 && isfinite(uv[k]))
					out_table_add(&t, "%.9g", uv[k]);
				else
					out_table_add(&t, "%s", "");
			out_fmt_ns(b, sizeof(b), (double)d->kernel_ps), out_table_add(&t, "%s", b);
			out_fmt_ns(b, sizeof(b), (double)d->tensor_core_ps), out_table_add(&t, "%s", b);
		} else {
			for (k = 0; k < 9; k++)
				out_table_add(&t, "%s", "");
		}
	}
	ret = out_table_print(&t, f, mode, NULL);
	out_table_release(&t);
	return ret;
}

/* The launch latency split: the wait behind earlier work on the stream, and the rest. */
static int print_split(FILE *f, const struct an_ov_result *r, const struct out_style *st)
{
	static const unsigned char right[] = {0, 1, 1, 1, 1, 1, 1, 1};
	static const char *const names[] = {"QUEUE MEAN", "QUEUE MEDIAN", "QUEUE P99", "REST MEAN", "REST MEDIAN",
					    "REST P99"};
	char hd[6][40];
	const char *h[] = {"LAUNCH SPLIT", "QUEUED", hd[0], hd[1], hd[2], hd[3], hd[4], hd[5]};
	struct out_tcol col;
	struct out_table t;
	size_t i, k;
	int ret;

	out_tcol_init(&col, st->unit);
	for (i = 0; i < r->n; i++)
		if (r->devices[i].latency.n)
			out_tcol_add(&col, r->devices[i].queue.max), out_tcol_add(&col, r->devices[i].overhead.max);
	out_tcol_headers(&col, hd[0], sizeof(hd[0]), names, 6);
	out_table_init(&t, 8, h, right);
	for (i = 0; i < r->n; i++) {
		const struct an_ov_device *d = &r->devices[i];
		const double v[] = {d->queue.mean, d->queue.median, d->queue.p99, d->overhead.mean, d->overhead.median,
				    d->overhead.p99};

		if (d->tpu || !d->latency.n)
			continue;
		out_table_add(&t, "%s", d->name);
		out_table_add(&t, "%zu of %zu", d->queued, d->latency.n);
		for (k = 0; k < 6; k++)
			out_table_add_time(&t, &col, v[k]);
	}
	fputc('\n', f);
	ret = out_table_print(&t, f, OUT_TABLE, st);
	out_table_release(&t);
	if (!ret)
		fprintf(f, "QUEUE: the part of each launch latency spent behind earlier work on the kernel's stream; "
			"REST: the launch call, driver and dispatch\n");
	return ret;
}

/* A share as "12.3%", or "-" when unknown (negative). */
static void fmt_share(char *b, size_t n, double v)
{
	if (v >= 0.001 && isfinite(v))
		snprintf(b, n, "%.1f%%", 100 * v);
	else if (v > 0 && isfinite(v))	/* small shares with their first digits, not 0.0% */
		snprintf(b, n, "%.2g%%", 100 * v);
	else if (v == 0)
		snprintf(b, n, "0%%");
	else
		snprintf(b, n, "-");
}

/*
 * Utilisation per device whose work has FLOPs counted: achieved FLOP/s,
 * its peak and where it came from, the FLOPs and model FLOPs utilisation,
 * and the share of the work's time whose FLOPs are counted.
 */
static int print_util(FILE *f, const struct an_ov_result *r)
{
	static const unsigned char right[] = {0, 1, 1, 1, 1, 1, 0, 1};
	const char *h[] = {"UTILIZATION", "TFLOP/S", "PEAK TFLOP/S", "FLOPS UTIL", "MODEL FLOPS UTIL", "FLOPS OF",
			   "PEAK FROM", "ON TENSOR CORES"};
	struct out_table t;
	size_t i, n = 0;
	int ret;

	for (i = 0; i < r->n; i++)
		n += r->devices[i].flops_ps > 0 || r->devices[i].kernel_ps > 0;
	if (!n)
		return 0;
	out_table_init(&t, 8, h, right);
	for (i = 0; i < r->n; i++) {
		const struct an_ov_device *d = &r->devices[i];
		double fs = an_ov_flops_per_s(d);
		char b[4][32];

		if (!d->flops_ps && !d->kernel_ps)
			continue;
		out_table_add(&t, "%s", d->name);
		if (fs >= 0)
			out_table_add(&t, "%.3f", fs / 1e12);
		else
			out_table_add(&t, "%s", "-");
		if (d->peak_src)
			out_table_add(&t, "%.0f", d->peak_flops / 1e12);
		else
			out_table_add(&t, "%s", "-");
		fmt_share(b[0], sizeof(b[0]), an_ov_flops_util(d));
		fmt_share(b[1], sizeof(b[1]), an_ov_model_util(d));
		fmt_share(b[2], sizeof(b[2]), d->work_ps > 0 ? (double)d->flops_ps / (double)d->work_ps : -1);
		out_table_add(&t, "%s", b[0]);
		out_table_add(&t, "%s", b[1]);
		out_table_add(&t, "%s", b[2]);
		out_table_add(&t, "%s", an_peak_src_name((enum an_peak_src)d->peak_src));
		fmt_share(b[3], sizeof(b[3]), d->kernel_ps > 0 ? (double)d->tensor_core_ps / (double)d->kernel_ps : -1);
		out_table_add(&t, "%s", b[3]);
	}
	fputc('\n', f);
	ret = out_table_print(&t, f, OUT_TABLE, NULL);
	out_table_release(&t);
	if (!ret && fprintf(f, "FLOPs of the device's work over its span (utilization: over span x peak); FLOPS OF: "
			       "the share of the work's time whose FLOPs are counted (TPU: ops' flops stats; GPU: "
			       "ops costed from their HLO); ON TENSOR CORES: the share of kernel time in kernels "
			       "whose names say they use tensor (matrix) cores\n") < 0)
		ret = -1;
	return ret;
}

/* The most planes pooled on one device; 0 when none pooled more than one. */
static size_t pooled(const struct an_ov_result *r)
{
	size_t i, most = 0;

	for (i = 0; i < r->n; i++)
		if (r->devices[i].planes > most)
			most = r->devices[i].planes;
	return most > 1 ? most : 0;
}

static int print_text(FILE *f, const struct an_ov_result *r, const struct out_style *st)
{
	static const unsigned char right[] = {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
	static const char *const tname[] = {"SPAN", "BUSY", "IDLE", "COMPUTE", "COLLECTIVE", "EXPOSED",
					    "MEMCPY", "EXPOSED"};
	static const char *const stname[] = {"MEAN", "MEDIAN", "MIN", "MAX"};
	static const char *const ltname[] = {"MEAN", "MEDIAN", "P99", "MIN", "MAX"};
	char hd[9][40];
	const char *h[] = {"DEVICE", "EVENTS", hd[0], hd[1], hd[2], "DUTY", hd[3], hd[4], hd[5], hd[6], hd[7]};
	struct out_tcol col;
	struct out_table t;
	size_t i, k, nst = 0, nlat = 0;
	int ret;

	out_tcol_init(&col, st->unit);
	for (i = 0; i < r->n; i++) {
		const struct an_ov_device *d = &r->devices[i];

		out_tcol_add(&col, (double)d->span_ps);
		out_tcol_add(&col, (double)d->busy_ps);
		nst += d->steps.n > 0;
		nlat += !d->tpu && d->corr_events;
	}
	out_tcol_headers(&col, hd[0], sizeof(hd[0]), tname, 8);
	out_table_init(&t, 11, h, right);
	for (i = 0; i < r->n; i++) {
		const struct an_ov_device *d = &r->devices[i];
		const int64_t v[] = {d->span_ps, d->busy_ps, an_ov_idle(d)};
		const int64_t w[] = {d->compute_ps, d->coll_ps, d->coll_exposed_ps, d->memcpy_ps,
				     d->memcpy_exposed_ps};

		out_table_add(&t, "%s", d->name);
		out_table_add(&t, "%zu", d->events);
		for (k = 0; k < 3; k++)
			out_table_add_time(&t, &col, (double)v[k]);
		out_table_add(&t, "%.1f%%", 100 * duty(d));
		for (k = 0; k < 5; k++)
			out_table_add_time(&t, &col, (double)w[k]);
	}
	/* a host-only profile: its steps alone */
	ret = r->n ? out_table_print(&t, f, OUT_TABLE, st)
		   : fprintf(f, "no device plane with events: the host's steps alone\n") < 0 ? -1 : 0;
	out_table_release(&t);
	if (ret)
		return ret;
	if (pooled(r) && fprintf(f, "times: one input's, the mean over the inputs pooled on each device (up to %zu); "
				  "EVENTS: all of theirs\n", pooled(r)) < 0)
		return -1;
	if ((ret = print_util(f, r)))
		return ret;
	if (nst || r->host_steps.n || r->host_only_steps.n) {
		const char *hs[] = {"STEPS", "COUNT", hd[0], hd[1], hd[2], hd[3]};

		out_tcol_init(&col, st->unit);
		for (i = 0; i <= r->n + 1; i++) {
			const struct an_ov_dist *steps = i < r->n ? &r->devices[i].steps
							 : i == r->n ? &r->host_steps : &r->host_only_steps;

			if (steps->n)
				out_tcol_add(&col, steps->min), out_tcol_add(&col, steps->max);
		}
		out_tcol_headers(&col, hd[0], sizeof(hd[0]), stname, 4);
		out_table_init(&t, 6, hs, right);
		for (i = 0; i <= r->n + 1; i++) {
			const struct an_ov_dist *steps = i < r->n ? &r->devices[i].steps
							 : i == r->n ? &r->host_steps : &r->host_only_steps;
			const double sv[] = {steps->mean, steps->median, steps->min, steps->max};

			if (!steps->n)
				continue;
			out_table_add(&t, "%s%s", i < r->n ? r->devices[i].name
						  : i == r->n ? "host step_num annotations"
						  : "host step_num annotations, no device work in them",
				      i < r->n ? " Steps line" : "");
			out_table_add(&t, "%zu", steps->n);
			for (k = 0; k < 4; k++)
				out_table_add_time(&t, &col, sv[k]);
		}
		fputc('\n', f);
		ret = out_table_print(&t, f, OUT_TABLE, st);
		out_table_release(&t);
		if (ret)
			return ret;
	}
	if (nlat) {
		const char *hl[] = {"LAUNCH LATENCY", "LINKED", hd[0], hd[1], hd[2], hd[3], hd[4], "NO LAUNCH", "AMBIGUOUS"};

		out_tcol_init(&col, st->unit);
		for (i = 0; i < r->n; i++)
			if (r->devices[i].latency.n)
				out_tcol_add(&col, r->devices[i].latency.min), out_tcol_add(&col, r->devices[i].latency.max);
		out_tcol_headers(&col, hd[0], sizeof(hd[0]), ltname, 5);
		out_table_init(&t, 9, hl, right);
		for (i = 0; i < r->n; i++) {
			const struct an_ov_device *d = &r->devices[i];
			const double lv[] = {d->latency.mean, d->latency.median, d->latency.p99, d->latency.min,
					     d->latency.max};

			if (d->tpu || !d->corr_events)
				continue;
			out_table_add(&t, "%s", d->name);
			out_table_add(&t, "%zu", d->latency.n);
			for (k = 0; k < 5; k++)	/* "-" (not finite) without a linked launch */
				out_table_add_time(&t, &col, d->latency.n ? lv[k] : NAN);
			out_table_add(&t, "%zu", d->no_launch);
			out_table_add(&t, "%zu", d->ambiguous + d->off_scale);
		}
		fputc('\n', f);
		ret = out_table_print(&t, f, OUT_TABLE, st);
		out_table_release(&t);
	}
	if (!ret && nlat)
		ret = print_split(f, r, st);
	return ret;
}

/* A device's mean of a sum over its groups. */
static double per_group(double sum, size_t groups)
{
	return groups ? sum / (double)groups : NAN;
}

/* The stragglers, as a table (people or programs). */
static int print_strag(FILE *f, enum out_mode mode, const struct an_strag_result *s, const struct out_style *st)
{
	static const unsigned char right[] = {0, 1, 1, 1, 1, 1};
	static const char *const tname[] = {"LATE", "WAITED", "SLOW"};
	static const char *const mh[] = {"device", "groups", "last", "late_mean_ns", "waited_mean_ns", "slow_mean_ns"};
	char hd[3][40];
	const char *h[] = {"STRAGGLERS", "GROUPS", "LAST", hd[0], hd[1], hd[2]};
	int machine = mode == OUT_CSV || mode == OUT_TSV;
	char unmatched[48] = "";
	struct out_tcol col;
	struct out_table t;
	size_t i, k;
	int ret;

	out_tcol_init(&col, st ? st->unit : OUT_UNIT_AUTO);
	for (i = 0; i < s->n; i++) {
		out_tcol_add(&col, per_group(s->devices[i].late_ps, s->devices[i].groups));
		out_tcol_add(&col, per_group(s->devices[i].waited_ps, s->devices[i].groups));
	}
	out_tcol_headers(&col, hd[0], sizeof(hd[0]), tname, 3);
	out_table_init(&t, 6, machine ? mh : h, right);
	for (i = 0; i < s->n; i++) {
		const struct an_strag_device *d = &s->devices[i];
		const double v[] = {d->late_ps, d->waited_ps, d->slow_ps};

		out_table_add(&t, "%s", d->name);
		out_table_add(&t, "%zu", d->groups);
		out_table_add(&t, "%zu", d->last);
		for (k = 0; k < 3; k++)
			out_table_add_time_cell(&t, machine, &col, per_group(v[k], d->groups), d->groups > 0);
	}
	if (!machine)
		fputc('\n', f);
	ret = out_table_print(&t, f, mode, st);
	out_table_release(&t);
	if (s->unmatched)
		snprintf(unmatched, sizeof(unmatched), "%zu function%s", s->unmatched, s->unmatched == 1 ? "" : "s");
	if (!ret && !machine)
		fprintf(f, "stragglers: %zu group%s (a function's k-th execution on every device of a host that ran it)%s%s%s; "
			"LAST: how often the device ended last; LATE: its end after the group's first, WAITED: the group's "
			"last end after its own, SLOW: its duration over the group's shortest, each a mean per group\n",
			s->groups, s->groups == 1 ? "" : "s", s->unmatched ? "; " : "", unmatched,
			s->unmatched ? " left out, run more often on some devices than on others" : "");
	return ret;
}

static void json_strag(cJSON *doc, const struct an_strag_result *s)
{
	cJSON *o = cJSON_AddObjectToObject(doc, "stragglers"), *devs, *d;
	size_t i;

	if (!o)
		return;
	cJSON_AddNumberToObject(o, "groups", (double)s->groups);
	cJSON_AddNumberToObject(o, "unmatched_functions", (double)s->unmatched);
	devs = cJSON_AddArrayToObject(o, "devices");
	for (i = 0; devs && i < s->n && (d = out_json_push_object(devs)); i++) {
		const struct an_strag_device *x = &s->devices[i];

		cJSON_AddStringToObject(d, "name", x->name);
		out_json_add_str_or_null(d, "host", x->host);
		cJSON_AddStringToObject(d, "plane", x->plane);
		cJSON_AddNumberToObject(d, "groups", (double)x->groups);
		cJSON_AddNumberToObject(d, "last", (double)x->last);
		out_json_add_ns(d, "late_mean_ns", per_group(x->late_ps, x->groups));
		out_json_add_ns(d, "waited_mean_ns", per_group(x->waited_ps, x->groups));
		out_json_add_ns(d, "slow_mean_ns", per_group(x->slow_ps, x->groups));
	}
	{
		const struct an_strag_host *slowest = an_strag_slowest_host(s);

		cJSON_AddNumberToObject(o, "host_groups", (double)s->host_groups);
		cJSON_AddNumberToObject(o, "host_runs", (double)s->host_runs);
		cJSON_AddNumberToObject(o, "host_unmatched_functions", (double)s->host_unmatched);
		devs = cJSON_AddArrayToObject(o, "hosts");
		for (i = 0; devs && i < s->nhost_rows && (d = out_json_push_object(devs)); i++) {
			const struct an_strag_host *h = &s->host_rows[i];

			cJSON_AddStringToObject(d, "name", h->name);
			cJSON_AddNumberToObject(d, "groups", (double)h->groups);
			cJSON_AddNumberToObject(d, "slowest", (double)h->slowest);
			out_json_add_ns(d, "slow_mean_ns", per_group(h->slow_ps, h->groups));
		}
		out_json_add_str_or_null(o, "slowest_host", slowest ? slowest->name : NULL);
	}
}

/* The hosts of runs of several hosts, compared by their executions' durations (an_straggle.h). */
static int print_strag_hosts(FILE *f, const struct an_strag_result *s, const struct out_style *st)
{
	static const unsigned char right[] = {0, 1, 1, 1};
	static const char *const tname[] = {"SLOW"};
	const struct an_strag_host *slowest = an_strag_slowest_host(s);
	char hd[40], cell[48];
	const char *h[] = {"HOSTS", "GROUPS", "SLOWEST", hd};
	struct out_tcol col;
	struct out_table t;
	size_t i;
	int ret;

	if (!s->host_groups)
		return 0;
	out_tcol_init(&col, st ? st->unit : OUT_UNIT_AUTO);
	for (i = 0; i < s->nhost_rows; i++)
		out_tcol_add(&col, per_group(s->host_rows[i].slow_ps, s->host_rows[i].groups));
	out_tcol_headers(&col, hd, sizeof(hd), tname, 1);
	out_table_init(&t, 4, h, right);
	for (i = 0; i < s->nhost_rows; i++) {
		const struct an_strag_host *x = &s->host_rows[i];

		out_table_add(&t, "%s", x->name);
		out_table_add(&t, "%zu", x->groups);
		out_table_add(&t, "%zu", x->slowest);
		out_table_add_time_cell(&t, 0, &col, per_group(x->slow_ps, x->groups), x->groups > 0);
	}
	fputc('\n', f);
	ret = out_table_print(&t, f, OUT_TABLE, st);
	out_table_release(&t);
	if (!ret && fprintf(f, "hosts: %zu group%s over %zu run%s of several hosts (a function's k-th execution on every "
			    "host of a run, a host's time its devices' longest: durations, as hosts' clocks are not "
			    "one)%s; SLOWEST: how often the host's time was the longest; SLOW: its time over the "
			    "group's shortest, a mean per group",
			    s->host_groups, s->host_groups == 1 ? "" : "s", s->host_runs, s->host_runs == 1 ? "" : "s",
			    "") < 0)
		ret = -1;
	if (!ret && s->host_unmatched &&
	    fprintf(f, "; %zu function%s left out, not run alike on every host of a run", s->host_unmatched,
		    s->host_unmatched == 1 ? "" : "s") < 0)
		ret = -1;
	if (!ret && fputc('\n', f) == EOF)
		ret = -1;
	if (!ret && slowest) {
		out_tcol_fmt(&col, cell, sizeof(cell), per_group(slowest->slow_ps, slowest->groups));
		if (fprintf(f, "slowest host: %s, the slowest in %zu of %zu groups, %s %s over the fastest on "
			    "average\n", slowest->name, slowest->slowest, slowest->groups, cell, out_unit_name(col.unit)) < 0)
			ret = -1;
	}
	return ret;
}

/*
 * With --steps: a row per step of each device (its Steps line): time,
 * busy and its split, idle, and on TPU FLOP/s and FLOPs utilisation.
 */
static int print_steps(FILE *f, enum out_mode mode, const struct an_ov_result *r, const struct out_style *st)
{
	static const char *const names[] = {"START", "TIME", "BUSY", "COMPUTE", "COLL EXPOSED", "MEMCPY EXPOSED",
					    "HOST WAIT", "IDLE"};
	static const unsigned char right[] = {0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
	static const char *const hm[] = {"device", "input", "step", "index", "start_ns", "duration_ns", "busy_ns",
					 "compute_ns", "collective_exposed_ns", "memcpy_exposed_ns", "host_wait_ns",
					 "idle_ns", "flops", "flops_per_s", "flops_utilization", "flops_of"};
	static const unsigned char right_in[] = {0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
	char hd[8][40];
	const char *h[] = {"DEVICE", "STEP", hd[0], hd[1], hd[2], hd[3], hd[4], hd[5], hd[6], hd[7], "TFLOP/S",
			   "FLOPS UTIL"};
	const char *hi[] = {"DEVICE", "INPUT", "STEP", hd[0], hd[1], hd[2], hd[3], hd[4], hd[5], hd[6], hd[7],
			    "TFLOP/S", "FLOPS UTIL"};
	struct out_tcol col;
	struct out_table t;
	size_t i, k;
	int machine = mode == OUT_CSV || mode == OUT_TSV, inputs = 0, ret;

	if (!machine && !r->nsteps)
		return fprintf(f, "\nno steps: no device plane has a 'Steps' line with work in it\n") < 0 ? -1 : 0;
	out_tcol_init(&col, st ? st->unit : 0);
	for (i = 0; i < r->nsteps; i++)
		out_tcol_add(&col, (double)r->steps[i].dur_ps);
	out_tcol_headers(&col, hd[0], sizeof(hd[0]), names, 8);
	for (i = 1; i < r->nsteps && !inputs; i++)	/* steps of several inputs: say which */
		inputs = (r->steps[i].input != NULL) != (r->steps[0].input != NULL) ||
			 (r->steps[i].input && strcmp(r->steps[i].input, r->steps[0].input));
	if (machine)
		out_table_init(&t, sizeof(hm) / sizeof(hm[0]), hm, NULL);
	else if (inputs)
		out_table_init(&t, sizeof(hi) / sizeof(hi[0]), hi, right_in);
	else
		out_table_init(&t, sizeof(h) / sizeof(h[0]), h, right);
	for (i = 0; i < r->nsteps; i++) {
		const struct an_ov_step *s = &r->steps[i];
		const double v[] = {(double)s->start_ps, (double)s->dur_ps, (double)s->busy_ps, (double)s->compute_ps,
				    (double)s->coll_exposed_ps, (double)s->memcpy_exposed_ps, (double)s->host_wait_ps,
				    (double)an_ov_step_idle(s)};
		double fps = an_ov_step_flops_per_s(s), u = an_ov_step_util(s);
		char b[32];

		out_table_add(&t, "%s", s->device ? s->device : "");
		if (machine) {
			out_table_add(&t, "%s", s->input ? s->input : "");
			out_table_add(&t, "%s", s->name);
			out_table_add(&t, "%zu", s->index);
			for (k = 0; k < 8; k++)
				out_table_add(&t, "%.3f", v[k] / 1000.0);
			if (fps >= 0)
				out_table_add(&t, "%llu", (unsigned long long)s->flops);
			else
				out_table_add(&t, "%s", "");
			if (fps >= 0)
				out_table_add(&t, "%.6g", fps);
			else
				out_table_add(&t, "%s", "");
			if (u >= 0)
				out_table_add(&t, "%.6f", u);
			else
				out_table_add(&t, "%s", "");
			if (s->tpu && s->leaf_ps > 0)
				out_table_add(&t, "%.6f", (double)s->flops_ps / (double)s->leaf_ps);
			else
				out_table_add(&t, "%s", "");
			continue;
		}
		if (inputs)
			out_table_add(&t, "%s", s->input ? s->input : "");
		out_table_add(&t, "%s", s->name);
		for (k = 0; k < 8; k++)
			out_table_add_time(&t, &col, v[k]);
		if (fps >= 0)
			out_table_add(&t, "%.3f", fps / 1e12);
		else
			out_table_add(&t, "-");
		fmt_share(b, sizeof(b), u);
		out_table_add(&t, "%s", b);
	}
	if (!machine)
		fputc('\n', f);
	ret = out_table_print(&t, f, machine ? mode : OUT_TABLE, st);
	out_table_release(&t);
	if (!ret && !machine)
		fprintf(f, "%zu step%s of the devices' 'Steps' lines; BUSY = COMPUTE + COLL EXPOSED + MEMCPY EXPOSED "
			   "within each step; HOST WAIT: idle while the host is inside a step (step_num markers); "
			   "TFLOP/S and FLOPS UTIL from its leaf ops' flops (TPU)\n",
			r->nsteps, r->nsteps == 1 ? "" : "s");
	return ret;
}

/* With --steps: the steps lined up across the devices of an input, where some input has several. */
static int print_aligned(FILE *f, const struct an_ov_result *r, const struct out_style *st)
{
	static const char *const names[] = {"TIME", "MIN", "SPREAD"};
	static const unsigned char right[] = {0, 0, 1, 1, 1, 1, 0};
	char hd[3][40];
	const char *h[] = {"INPUT", "STEP", "DEVICES", hd[0], hd[1], hd[2], "SLOWEST"};
	struct out_tcol col;
	struct out_table t;
	size_t i, several = 0;
	int ret;

	for (i = 0; i < r->naligned; i++)
		several += r->aligned[i].devices > 1;
	if (!several)
		return 0;
	out_tcol_init(&col, st->unit);
	for (i = 0; i < r->naligned; i++)
		out_tcol_add(&col, (double)r->aligned[i].max_ps);
	out_tcol_headers(&col, hd[0], sizeof(hd[0]), names, 3);
	out_table_init(&t, 7, h, right);
	for (i = 0; i < r->naligned; i++) {
		const struct an_ov_aligned *a = &r->aligned[i];

		out_table_add(&t, "%s", a->input ? a->input : "-");
		out_table_add(&t, "%s", a->name);
		out_table_add(&t, "%zu", a->devices);
		out_table_add_time(&t, &col, (double)a->max_ps);
		out_table_add_time(&t, &col, (double)a->min_ps);
		out_table_add_time(&t, &col, (double)(a->max_ps - a->min_ps));
		out_table_add(&t, "%s", a->slowest ? a->slowest : "-");
	}
	fputc('\n', f);
	ret = out_table_print(&t, f, OUT_TABLE, st);
	out_table_release(&t);
	if (!ret && fprintf(f, "%zu step%s ran on every device of %s input with steps (XProf's step sequence): TIME "
			       "the slowest device's%s\n", r->naligned, r->naligned == 1 ? "" : "s",
			    r->naligned == 1 ? "its" : "their",
			    r->steps_unaligned ? "" : "; every step lined up") < 0)
		ret = -1;
	if (!ret && r->steps_unaligned &&
	    fprintf(f, "%zu device step%s left out: %s name some device of %s input lacks, or has twice\n",
		    r->steps_unaligned, r->steps_unaligned == 1 ? "" : "s", r->steps_unaligned == 1 ? "its" : "their",
		    r->steps_unaligned == 1 ? "its" : "their") < 0)
		ret = -1;
	return ret;
}

int out_overview(FILE *f, enum out_mode mode, const struct an_ov_result *r, const struct xp_notes *notes,
		 const struct out_style *st)
{
	const struct an_strag_result *s = r->stragglers ? &r->strag : NULL;
	int ret;

	if (mode == OUT_JSON)
		return print_json(f, r, s, notes);
	if (mode == OUT_CSV || mode == OUT_TSV)
		return s ? print_strag(f, mode, s, st) : r->want_steps ? print_steps(f, mode, r, st)
		       : print_machine(f, mode, r);
	ret = print_text(f, r, st);
	if (!ret && r->want_steps)
		ret = print_steps(f, mode, r, st);
	if (!ret && r->want_steps)
		ret = print_aligned(f, r, st);
	if (!ret && s)
		ret = print_strag(f, mode, s, st);
	if (!ret && s)
		ret = print_strag_hosts(f, s, st);
	return ret;
}

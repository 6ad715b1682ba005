/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Device time per jitted function, with libxplane-stat and nothing but its
 * public header: the numbers of `xplane-stat functions --json`, pooled over
 * the traces given, printed as JSON.
 *
 *   cc functions.c $(pkg-config --cflags --libs xplane-stat) -o functions
 *   ./functions trace.xplane.pb [more.xplane.pb ...]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <xplane_stat.h>

/* s as a JSON string. */
static void put_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void put_u64(const char *key, uint64_t v)
{
	printf(", \"%s\": %" PRIu64, key, v);
}

/* %.17g: every digit of the double, so that a reader gets the very number back. */
static void put_num(const char *key, double v)
{
	printf(", \"%s\": %.17g", key, v);
}

int main(int argc, char **argv)
{
	struct xps_read_opts ro = {0};	/* the defaults: 16 GiB of gzip or stdin at most, a thread per CPU */
	xps_trace **traces = calloc(argc > 1 ? (size_t)argc - 1 : 1, sizeof(*traces));
	struct xps_functions *f = NULL;
	char err[512];
	size_t n = 0, i;
	int ret = 1;

	if (argc < 2) {
		fprintf(stderr, "usage: %s TRACE.xplane.pb...  (libxplane-stat %s)\n", argv[0],
			xps_version_string());
		goto out;
	}
	if (!traces)
		goto out;
	/* While the major version is 0, a minor one may change the structs: run with the one built against. */
	if (xps_version_number() / 100 != XPLANE_STAT_VERSION_NUMBER / 100) {
		fprintf(stderr, "functions: built for libxplane-stat %d.%d, running with %s\n",
			XPLANE_STAT_VERSION_MAJOR, XPLANE_STAT_VERSION_MINOR, xps_version_string());
		goto out;
	}
	for (n = 0; n < (size_t)argc - 1; n++)
		if (xps_trace_open(argv[n + 1], &ro, &traces[n], err, sizeof(err))) {
			fprintf(stderr, "functions: %s\n", err);
			goto out;
		}
	/* NULL options: as the command without options (busy time, every device, every function). */
	if (xps_functions_compute(traces, n, NULL, &f, err, sizeof(err))) {
		fprintf(stderr, "functions: %s\n", err);
		goto out;
	}
	/* The keys and numbers of `xplane-stat functions --json`, less its warnings. */
	printf("{\"time\": \"%s\"", f->time == XPS_TIME_SPAN ? "span"
	       : f->time == XPS_TIME_CHILDREN ? "children" : "busy");
	put_u64("trim", f->trim);
	put_u64("inputs", f->inputs);
	put_u64("devices", f->devices);
	put_u64("executions", f->executions);
	put_u64("functions_count", f->functions_count);
	put_num("device_busy_ns", f->device_busy_ns);
	put_u64("device_events", f->device_events);
	put_u64("dropped_short_events", f->dropped_short_events);
	put_u64("unattributed_events", f->unattributed_events);
	put_num("unattributed_busy_ns", f->unattributed_busy_ns);
	put_u64("runs_rule_executions", f->runs_rule_executions);
	put_u64("runs_rule_split", f->runs_rule_split);
	put_u64("runs_rule_repeating", f->runs_rule_repeating);
	put_u64("stray_end_events", f->stray_end_events);
	printf(",\n \"functions\": [");
	for (i = 0; i < f->nrows; i++) {
		const struct xps_function *r = &f->rows[i];

		printf("%s\n  {\"name\": ", i ? "," : "");
		put_str(r->name);
		/* as the command writes ids: past 2^53 a string, which JSON readers keep exactly */
		if (r->has_program_id && r->program_id > (1ULL << 53))
			printf(", \"program_id\": \"%llu\"", (unsigned long long)r->program_id);
		else if (r->has_program_id)
			put_u64("program_id", r->program_id);
		else
			printf(", \"program_id\": null");
		printf(", \"fingerprint\": ");
		if (r->fingerprint)
			put_str(r->fingerprint);
		else
			printf("null");
		put_u64("devices", r->devices);
		put_u64("executions", r->executions);
		put_u64("executions_used", r->executions_used);
		put_u64("events", r->events);
		printf(",\n   \"total_ns\": %.17g", r->total_ns);
		put_num("mean_ns", r->mean_ns);
		put_num("std_ns", r->std_ns);
		put_num("min_ns", r->min_ns);
		put_num("median_ns", r->median_ns);
		put_num("max_ns", r->max_ns);
		put_num("share", r->share);
		printf("}");
	}
	printf("]}\n");
	ret = fflush(stdout) ? 1 : 0;
out:
	xps_functions_free(f);
	for (i = 0; i < n; i++)
		xps_trace_free(traces[i]);
	free(traces);
	return ret;
}

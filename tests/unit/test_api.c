/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The public API (include/xplane_stat.h): the numbers of tpu_basic
 * (tests/synth/EXPECTED.md) through it, its options, and every error as a
 * code and a message with nothing left allocated.
 */
#include "xplane_stat.h"

#include <stdlib.h>
#include <string.h>

#include "test.h"

#define TPU_BASIC SYNTH_DIR "/tpu_basic.xplane.pb"

static xps_trace *open_ok(const char *path)
{
	char err[256] = "";
	xps_trace *t = NULL;

	CHECK_INT(xps_trace_open(path, NULL, &t, err, sizeof(err)), 0);
	CHECK(t != NULL);
	CHECK_STR(err, "");
	return t;
}

static void test_version(void)
{
	CHECK_INT(xps_version_number(), XPLANE_STAT_VERSION_NUMBER);
	CHECK_STR(xps_version_string(), XPS_VERSION);	/* the project's, from CMake */
}

static void test_tpu_basic(void)
{
	xps_trace *t = open_ok(TPU_BASIC);
	struct xps_functions *f = NULL;
	char err[256];

	CHECK_INT(xps_functions_compute(&t, 1, NULL, &f, err, sizeof(err)), 0);
	if (!f)
		goto out;
	CHECK_INT(f->time, XPS_TIME_BUSY);
	CHECK_INT(f->inputs, 1);
	CHECK_INT(f->devices, 2);
	CHECK_INT(f->executions, 6);
	CHECK_INT(f->functions_count, 3);
	CHECK(f->device_busy_ns == 102000);
	CHECK_INT(f->nrows, 3);
	if (f->nrows != 3)
		goto out;
	/* jit_f: {10, 12, 14} us on TPU:0 and 16 us on TPU:1, its fingerprint its program id */
	CHECK_STR(f->rows[0].name, "jit_f");
	CHECK_STR(f->rows[0].fingerprint, "123456");
	CHECK(f->rows[0].has_program_id && f->rows[0].program_id == 123456);
	CHECK(f->rows[0].device == NULL);
	CHECK_INT(f->rows[0].devices, 2);
	CHECK_INT(f->rows[0].executions, 4);
	CHECK(f->rows[0].total_ns == 52000 && f->rows[0].mean_ns == 13000 && f->rows[0].median_ns == 13000);
	CHECK(f->rows[0].min_ns == 10000 && f->rows[0].max_ns == 16000);
	CHECK_NEAR(f->rows[0].std_ns, 2236.0679774997897, 1e-15);	/* sqrt(5) us */
	CHECK(f->rows[0].share == 52000.0 / 102000);
	CHECK_STR(f->rows[1].name, "jit_g");
	CHECK(f->rows[1].program_id == 8 && f->rows[1].fingerprint == NULL && f->rows[1].total_ns == 30000);
	CHECK(f->rows[2].program_id == 7 && f->rows[2].total_ns == 20000);
out:
	xps_functions_free(f);
	xps_trace_free(t);
}

static void test_options(void)
{
	xps_trace *t[2] = {open_ok(TPU_BASIC), open_ok(TPU_BASIC)};
	struct xps_functions_opts o = {0};
	struct xps_functions *f = NULL;
	char err[256];

	/* two traces pool as two inputs (the same devices: same host and planes) */
	CHECK_INT(xps_functions_compute(t, 2, NULL, &f, err, sizeof(err)), 0);
	CHECK(f && f->inputs == 2 && f->devices == 2 && f->executions == 12 && f->rows[0].executions == 8);
	xps_functions_free(f);

	o.per_device = 1;
	o.device = "tpu:1";
	CHECK_INT(xps_functions_compute(t, 1, &o, &f, err, sizeof(err)), 0);
	CHECK(f && f->devices == 1 && f->nrows == 1);
	if (f && f->nrows == 1) {
		CHECK(f->rows[0].device && strstr(f->rows[0].device, "/device:TPU:1"));
		CHECK(f->rows[0].total_ns == 16000);
	}
	xps_functions_free(f);

	memset(&o, 0, sizeof(o));
	o.match = "^jit_g$";
	o.trim = 1;
	CHECK_INT(xps_functions_compute(t, 1, &o, &f, err, sizeof(err)), 0);
	CHECK(f && f->nrows == 2 && f->trim == 1 && !strcmp(f->rows[0].name, "jit_g"));
	xps_functions_free(f);

	memset(&o, 0, sizeof(o));
	o.children = "^fusion";
	CHECK_INT(xps_functions_compute(t, 1, &o, &f, err, sizeof(err)), 0);
	CHECK(f && f->time == XPS_TIME_CHILDREN);
	xps_functions_free(f);

	/* a device pattern that matches nothing: an empty result, not an error */
	memset(&o, 0, sizeof(o));
	o.device = "GPU";
	CHECK_INT(xps_functions_compute(t, 1, &o, &f, err, sizeof(err)), 0);
	CHECK(f && f->devices == 0 && f->nrows == 0 && f->rows);
	xps_functions_free(f);
	xps_trace_free(t[0]);
	xps_trace_free(t[1]);
}

/* compute with o fails with code and a message containing want; *out is NULL. */
static void check_compute_fails(xps_trace *t, const struct xps_functions_opts *o, int code, const char *want)
{
	struct xps_functions *f = (struct xps_functions *)&f;	/* not NULL: the call clears it */
	char err[256] = "";

	CHECK_INT(xps_functions_compute(&t, 1, o, &f, err, sizeof(err)), code);
	CHECK(f == NULL);
	if (!strstr(err, want)) {
		fprintf(stderr, "message '%s' lacks '%s'\n", err, want);
		test_failures++;
	}
}

static void test_errors(void)
{
	xps_trace *t = (xps_trace *)&t;
	struct xps_functions_opts o = {0};
	char err[256] = "", tiny[8];
	int i;

	CHECK_INT(xps_trace_open(SYNTH_DIR "/no-such.xplane.pb", NULL, &t, err, sizeof(err)), XPS_EIO);
	CHECK(t == NULL);
	CHECK(strstr(err, "no-such.xplane.pb") != NULL);
	/* cut to the buffer, NUL-terminated; no buffer at all */
	memset(tiny, 'x', sizeof(tiny));
	CHECK_INT(xps_trace_open(SYNTH_DIR "/no-such.xplane.pb", NULL, &t, tiny, sizeof(tiny)), XPS_EIO);
	CHECK(strlen(tiny) == sizeof(tiny) - 1);
	CHECK_INT(xps_trace_open(SYNTH_DIR "/no-such.xplane.pb", NULL, &t, NULL, 0), XPS_EIO);
	CHECK_INT(xps_trace_open(TESTDATA_DIR "/bad/corrupt_utf8_mangled.xplane.pb", NULL, &t, err, sizeof(err)),
		  XPS_EFORMAT);
	CHECK_INT(xps_trace_open(NULL, NULL, &t, err, sizeof(err)), XPS_EINVAL);
	CHECK_INT(xps_trace_open(TPU_BASIC, NULL, NULL, err, sizeof(err)), XPS_EINVAL);
	{
		struct xps_read_opts ro = {.max_input_size = 10};	/* gzip over the limit */

		CHECK_INT(xps_trace_open(BAD_DIR "/gpu.xplane.pb.gz", &ro, &t, err, sizeof(err)), XPS_ELIMIT);
	}

	t = open_ok(TPU_BASIC);
	o.match = "(";
	check_compute_fails(t, &o, XPS_EINVAL, "match: invalid regular expression '('");
	o.match = NULL;
	o.children = "[";
	check_compute_fails(t, &o, XPS_EINVAL, "children: invalid regular expression");
	o.time = XPS_TIME_SPAN;
	o.children = "fusion";
	check_compute_fails(t, &o, XPS_EINVAL, "exclude each other");
	o.children = NULL;
	o.time = XPS_TIME_CHILDREN;
	check_compute_fails(t, &o, XPS_EINVAL, "needs children");
	o.time = 7;
	check_compute_fails(t, &o, XPS_EINVAL, "not an XPS_TIME_");
	o.time = XPS_TIME_BUSY;
	o.min_duration_ps = -1;
	check_compute_fails(t, &o, XPS_EINVAL, "negative");
	{
		xps_trace *none[1] = {NULL};
		struct xps_functions *f = NULL;

		CHECK_INT(xps_functions_compute(none, 1, NULL, &f, err, sizeof(err)), XPS_EINVAL);
		CHECK_INT(xps_functions_compute(NULL, 1, NULL, &f, err, sizeof(err)), XPS_EINVAL);
		CHECK_INT(xps_functions_compute(&t, 1, NULL, NULL, err, sizeof(err)), XPS_EINVAL);
		/* no trace: an empty result */
		CHECK_INT(xps_functions_compute(NULL, 0, NULL, &f, err, sizeof(err)), 0);
		CHECK(f && f->inputs == 0 && f->nrows == 0);
		xps_functions_free(f);
	}
	xps_trace_free(t);
	xps_trace_free(NULL);
	xps_functions_free(NULL);

	for (i = XPS_EINVAL; i <= XPS_EOK; i++)
		CHECK(strcmp(xps_strerror(i), "unknown error") != 0);
	CHECK_STR(xps_strerror(XPS_EINVAL - 1), "unknown error");
}

int main(void)
{
	test_version();
	test_tpu_basic();
	test_options();
	test_errors();
	return test_done("test_api");
}

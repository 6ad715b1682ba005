/* SPDX-License-Identifier: Apache-2.0 */
/*
 * an_ops: the synthetic traces of tests/synth/EXPECTED.md section 17, and
 * the bundled TPU trace against sums taken a second way (the reference
 * protobuf-c reader, every XLA Ops event's own duration and stats).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "an_ops.h"
#include "test.h"
#include "test_trace.h"
#include "xp_input.h"

/* The result of one trace, finished. */
static int analyse(const char *path, const struct an_ops_opts *o, struct an_ops_result *r)
{
	struct xp_trace *t = test_load(path, NULL);
	struct an_ops_result one;
	struct xp_err err = {0};
	int ret = -1;

	an_ops_init(r, o);
	an_ops_init(&one, o);
	if (t && !an_ops_add(&one, t, &err) && !an_ops_merge(r, &one, &err) && !an_ops_finish(r, &err))
		ret = 0;
	CHECK_INT(ret, 0);
	an_ops_release(&one);
	xp_trace_free(t);
	return ret;
}

static const struct an_op_row *find(const struct an_op_row *rows, size_t n, enum an_op_line line, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (rows[i].line == line && !strcmp(rows[i].name, name))
			return &rows[i];
	fprintf(stderr, "  no row '%s'\n", name);
	test_failures++;
	return NULL;
}

#define US 1000000LL

static void test_tpu(void)
{
	struct an_ops_opts o = {.by_category = 1};
	struct an_ops_result r;
	const struct an_op_row *w;

	if (analyse(SYNTH_DIR "/ops_tpu.xplane.pb", &o, &r))
		return;
	CHECK_INT(r.events[AN_OP_SYNC], 18);
	CHECK_INT(r.total_ps[AN_OP_SYNC], 141 * US);
	CHECK_INT(r.self_ps[AN_OP_SYNC], 111 * US);
	CHECK_INT(r.rows_in[AN_OP_SYNC], 6);
	CHECK_INT(r.events[AN_OP_ASYNC], 1);
	CHECK_INT(r.stray_events, 1);
	CHECK_INT(r.partial_overlaps, 1);
	CHECK_INT(r.odd_values, 1);
	CHECK_INT(r.ridge_differs, 1);
	/* time order: while.1 60, fusion.2 25, fusion.1 20, copy.1 15, fusion.9 11, fusion.3 10 */
	CHECK_STR(r.rows[0].name, "while.1");
	CHECK_STR(r.rows[5].name, "fusion.3");
	if ((w = find(r.rows, r.nrows, AN_OP_SYNC, "while.1"))) {
		CHECK_INT(w->self_ps, 30 * US);
		CHECK_INT(w->program_id, 777);
		CHECK_STR(w->module, "jit_step");
		CHECK_STR(w->hlo, "%while.1 = (f32[8]) while(...)");
		CHECK_INT(an_sum_known(&w->flops, w->occurrences), 0);
		CHECK_INT(w->bound, AN_BOUND_NONE);
		CHECK_NEAR(w->share, 30.0 / 111, 1e-12);
	}
	if ((w = find(r.rows, r.nrows, AN_OP_SYNC, "fusion.1"))) {
		CHECK_INT(w->flops.v, 4000000000ULL);
		CHECK_NEAR(an_op_flops_per_s(w), 2e14, 1e-12);
		CHECK_NEAR(an_op_intensity(w), 4000, 1e-12);
		CHECK_INT(w->bound, AN_BOUND_COMPUTE);
	}
	if ((w = find(r.rows, r.nrows, AN_OP_SYNC, "fusion.2"))) {
		CHECK_INT(w->occurrences, 3);
		CHECK_INT(w->total_ps, 25 * US);
		CHECK_INT(w->flops.v, 3000000);
		CHECK_INT(w->ridge_differs, 1);
		CHECK_INT(w->bound, AN_BOUND_NONE);
	}
	if ((w = find(r.rows, r.nrows, AN_OP_SYNC, "copy.1"))) {
		CHECK_INT(w->self_ps, 15 * US);
		CHECK_NEAR(an_op_bytes_per_s(w), 2e6 / 15e-6, 1e-12);
		CHECK_INT(w->bound, AN_BOUND_MEMORY);
	}
	if ((w = find(r.rows, r.nrows, AN_OP_SYNC, "fusion.9"))) {
		CHECK_INT(w->occurrences, 11);
		CHECK_INT(w->total_ps, 11 * US);
		CHECK_INT(w->program_id, 42);
		CHECK(w->module == NULL);
		CHECK_NEAR(w->ridge, 197e12 / 819e9, 1e-12);
		CHECK_INT(w->bound, AN_BOUND_MEMORY);
		CHECK_NEAR(w->share, 11.0 / 111, 1e-12);
	}
	if ((w = find(r.rows, r.nrows, AN_OP_SYNC, "fusion.3"))) {
		CHECK_INT(an_sum_known(&w->flops, w->occurrences), 0);
		CHECK_INT(w->bytes.v, 1000);
	}
	if ((w = find(r.rows, r.nrows, AN_OP_ASYNC, "copy-start.7"))) {
		CHECK_INT(w->total_ps, 40 * US);
		CHECK_INT(w->self_ps, 40 * US);
		CHECK_INT(w->program_id, 777);
		/* an async op's time is no transfer time: no rates, no bound */
		CHECK_INT(w->bound, AN_BOUND_NONE);
		CHECK_INT(an_op_bytes_per_s(w) < 0, 1);
		CHECK_INT(an_op_timed_work(w), 0);
	}
	if ((w = find(r.cats, r.ncats, AN_OP_SYNC, "loop fusion"))) {
		CHECK_INT(w->occurrences, 15);
		CHECK_INT(w->total_ps, 46 * US);
		CHECK_INT(w->bytes.v, 14001000);
		CHECK_INT(an_sum_known(&w->flops, w->occurrences), 0);
	}
	CHECK_INT(r.ndevices, 2);
	if (r.ndevices == 2) {
		CHECK_INT(r.devices[0].peak_src, AN_PEAK_PLANE);
		CHECK_NEAR(r.devices[0].peak_flops, 100e12, 1e-12);
		CHECK_INT(r.devices[1].peak_src, AN_PEAK_TABLE);
		CHECK_NEAR(r.devices[1].peak_bw, 819e9, 1e-12);
	}
	an_ops_release(&r);
}

static void test_gpu(void)
{
	struct an_ops_opts o = {0};
	struct an_ops_result r;
	const struct an_op_row *w;

	if (analyse(SYNTH_DIR "/ops_gpu.xplane.pb", &o, &r))
		return;
	CHECK_INT(r.events[AN_OP_GPU], 3);
	CHECK_INT(r.kernels_no_op, 1);
	CHECK_INT(r.nrows, 2);
	if ((w = find(r.rows, r.nrows, AN_OP_GPU, "dot.1"))) {
		CHECK_INT(w->occurrences, 2);
		CHECK_INT(w->total_ps, 20 * US);
		CHECK_STR(w->module, "jit_mm");
		CHECK_INT(w->program_id, 5);
		CHECK_NEAR(w->share, 20.0 / 23, 1e-12);
	}
	an_ops_release(&r);
}

/*
 * Values the sums cannot use (EXPECTED.md section 17, ops_values): a flops
 * sum past 2^64-1, a bytes_accessed only one of two occurrences carries, a
 * non-integral flops and a NaN model_flops; the table's TPU v4 peaks.
 */
static void test_values(void)
{
	struct an_ops_opts o = {0};
	struct an_ops_result r;
	const struct an_op_row *w;

	if (analyse(SYNTH_DIR "/ops_values.xplane.pb", &o, &r))
		return;
	CHECK_INT(r.events[AN_OP_SYNC], 6);
	CHECK_INT(r.total_ps[AN_OP_SYNC], 55 * US);
	CHECK_INT(r.odd_values, 2);
	CHECK_INT(r.overflows, 1);
	CHECK_INT(r.partial_sums, 1);
	if ((w = find(r.rows, r.nrows, AN_OP_SYNC, "big.1"))) {
		CHECK_INT(w->flops.overflow, 1);
		CHECK_INT(an_sum_known(&w->flops, w->occurrences), 0);
		CHECK_INT(w->bytes.v, 2000);
		CHECK_NEAR(an_op_bytes_per_s(w), 1e8, 1e-12);
		CHECK_INT(w->bound, AN_BOUND_NONE);
	}
	if ((w = find(r.rows, r.nrows, AN_OP_SYNC, "half.1"))) {
		CHECK_INT(w->bytes.n, 1);
		CHECK_INT(an_sum_known(&w->bytes, w->occurrences), 0);
		CHECK_INT(w->flops.v, 200);
		CHECK(an_op_bytes_per_s(w) < 0);
	}
	if ((w = find(r.rows, r.nrows, AN_OP_SYNC, "frac.1"))) {
		CHECK_INT(w->flops.n, 0);
		CHECK_INT(w->model_flops.n, 0);
		CHECK_INT(w->bytes.v, 3000);
	}
	if ((w = find(r.rows, r.nrows, AN_OP_SYNC, "ok.1"))) {
		CHECK_NEAR(w->ridge, 275e12 / 1200e9, 1e-12);
		CHECK_INT(w->bound, AN_BOUND_COMPUTE);
	}
	if (r.ndevices == 1)
		CHECK_INT(r.devices[0].peak_src, AN_PEAK_TABLE);
	an_ops_release(&r);
}

/*
 * The bundled TPU trace: event count, time and flops of every XLA Ops line
 * summed straight from the reference reader's model, and each op's own
 * program_id stat equal to the program of the module event it lies in.
 */
static void test_real(void)
{
	const char *path = TESTDATA_DIR "/real/tpu_v6e_inference.xplane.pb";
	struct xp_trace *t = test_load(path, &xp_reader_protobuf_c);
	struct an_ops_opts o = {0};
	struct an_ops_result r;
	size_t i, k, n = 0, nasync = 0, mismatch = 0;
	int64_t total = 0;
	unsigned __int128 flops = 0, rflops = 0;

	if (!t || analyse(path, &o, &r)) {
		xp_trace_free(t);
		return;
	}
	for (i = 0; i < t->nplanes; i++) {
		const struct xp_plane *p = &t->planes[i];

		for (k = 0; k < p->nlines; k++) {
			const struct xp_line *l = &p->lines[k];
			size_t e;

			if (!strcmp(l->name, "Async XLA Ops"))
				nasync += l->nevents;
			if (strcmp(l->name, "XLA Ops"))
				continue;
			for (e = l->first_event; e < l->first_event + l->nevents; e++) {
				const struct xp_stat *s = xp_event_stat(p, &p->events[e], XP_K_FLOPS);

				n++;
				total += p->events[e].dur_ps;
				if (s && s->type == XP_STAT_INT64)
					flops += (uint64_t)s->v.i;
			}
		}
	}
	CHECK_INT(n, 1504 + 3 * 1503);	/* as 'planes' lists the lines */
	CHECK_INT(r.events[AN_OP_SYNC], n);
	CHECK_INT(r.total_ps[AN_OP_SYNC], total);
	CHECK_INT(r.events[AN_OP_ASYNC], nasync);
	CHECK_INT(r.stray_events, 0);
	for (i = 0; i < r.nrows; i++)
		if (r.rows[i].line == AN_OP_SYNC && an_sum_known(&r.rows[i].flops, r.rows[i].occurrences))
			rflops += r.rows[i].flops.v;
	CHECK(flops == rflops);
	CHECK(flops > 0);
	CHECK_INT(r.devices[0].peak_src, AN_PEAK_PLANE);
	CHECK_NEAR(r.devices[0].peak_flops, 918e12, 1e-12);
	CHECK_NEAR(r.devices[0].peak_bw, 1637.993152512e9, 1e-12);
	/* The chip table's TPU v6 Lite row agrees with what the chip says of itself. */
	for (i = 0; an_chip_peaks[i].chip && strcmp(an_chip_peaks[i].chip, "TPU v6 Lite"); i++)
		;
	CHECK(an_chip_peaks[i].chip != NULL);
	if (an_chip_peaks[i].chip) {
		CHECK_NEAR(an_chip_peaks[i].tflops * 1e12, r.devices[0].peak_flops, 1e-12);
		CHECK(fabs(an_chip_peaks[i].hbm_gbs * 1e9 - r.devices[0].peak_bw) < 0.01e9);
	}
	/* Each op's own program_id stat is the fingerprint of the module event its start lies in. */
	for (i = 0; i < t->nplanes; i++) {
		const struct xp_plane *p = &t->planes[i];
		const struct xp_line *ml = NULL;
		size_t e, m;

		for (k = 0; k < p->nlines; k++)
			if (!strcmp(p->lines[k].name, "XLA Modules"))
				ml = &p->lines[k];
		for (k = 0; ml && k < p->nlines; k++) {
			const struct xp_line *l = &p->lines[k];

			if (strcmp(l->name, "XLA Ops"))
				continue;
			for (e = l->first_event; e < l->first_event + l->nevents; e++) {
				const struct xp_event *ev = &p->events[e];
				const struct xp_stat *s = xp_event_stat(p, ev, XP_K_PROGRAM_ID);
				uint64_t own = 0;
				int found = 0;

				if (!s || xp_stat_u64(s, &own))
					continue;
				for (m = ml->first_event; m < ml->first_event + ml->nevents; m++) {
					const struct xp_event *me = &p->events[m];
					const char *paren = strrchr(xp_event_name(p, me), '(');

					if (me->start_ps <= ev->start_ps && ev->start_ps < me->start_ps + me->dur_ps && paren)
						found = strtoull(paren + 1, NULL, 10) == own;
				}
				mismatch += !found;
			}
		}
	}
	CHECK_INT(mismatch, 0);
	for (i = 0; i < r.nrows; i++)
		CHECK(r.rows[i].has_program_id);
	an_ops_release(&r);
	xp_trace_free(t);
}

/*
 * GPU peaks (an_gpu_archs): each architecture's FLOPs per cycle reproduces
 * the vendor's published dense bf16 (Volta, Turing: fp16) figure of a part
 * within 2%, written here from the datasheets (TFLOP/s, SMs or CUs, MHz);
 * and the bundled traces' GPU planes derive the published peak of their
 * chip, scaled by the plane's clock over the quoted one.
 */
static void test_gpu_peaks(void)
{
	static const struct {
		const char *arch;
		int amd, major, minor;
		double tflops, units, mhz;
	} parts[] = {
		{"Volta", 0, 7, 0, 125, 80, 1530}, {"Turing", 0, 7, 5, 65, 40, 1590},
		{"Ampere", 0, 8, 0, 312, 108, 1410}, {"Ampere", 0, 8, 6, 125, 72, 1695},
		{"Ada", 0, 8, 9, 121, 58, 2040}, {"Hopper", 0, 9, 0, 989.4, 132, 1830},
		{"CDNA2", 1, 9, 0, 383, 220, 1700}, {"CDNA3", 1, 9, 4, 1307.4, 304, 2100},
		{"CDNA4", 1, 9, 5, 2516.6, 256, 2400},
	};
	static const struct {
		const char *file, *arch;
		double published_tflops, quoted_mhz, plane_mhz, gbs;
	} real[] = {
		{"nvidia_h200_jax_model.xplane.pb", "Hopper", 989.4, 1830, 1980, 4814.304},
		{"mi300x_jax_gemm.xplane.pb", "CDNA3", 1307.4, 2100, 2100, 2662.4},
		{"v100_tf_bert.xplane.pb", "Volta", 125, 1530, 1530, 898.048},
	};
	size_t i, k, found;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		for (k = 0, found = 0; an_gpu_archs[k].arch; k++) {
			const struct an_gpu_arch *a = &an_gpu_archs[k];
			double derived;

			if (a->amd != parts[i].amd || a->cc_major != parts[i].major || a->cc_minor != parts[i].minor)
				continue;
			found++;
			CHECK_STR(a->arch, parts[i].arch);
			derived = parts[i].units * parts[i].mhz * 1e6 * a->flops_per_cycle;
			CHECK(fabs(derived / (parts[i].tflops * 1e12) - 1) < 0.02);
		}
		CHECK_INT(found, 1);
	}
	for (i = 0; i < sizeof(real) / sizeof(real[0]); i++) {
		char path[4096];
		struct xp_trace *t;

		snprintf(path, sizeof(path), "%s/real/%s", TESTDATA_DIR, real[i].file);
		if (!(t = test_load(path, NULL)))
			continue;
		for (k = 0, found = 0; k < t->nplanes; k++) {
			const char *arch;
			double fl, bw, want = real[i].published_tflops * 1e12 * real[i].plane_mhz / real[i].quoted_mhz;

			if (strcmp(t->planes[k].name, "/device:GPU:0") || xp_trace_load_plane(t, k, NULL))
				continue;
			found++;
			an_gpu_peaks(&t->planes[k], &fl, &bw, &arch);
			CHECK(arch && !strcmp(arch, real[i].arch));
			CHECK(fabs(fl / want - 1) < 0.01);
			CHECK(fabs(bw / (real[i].gbs * 1e9) - 1) < 1e-6);
		}
		CHECK_INT(found, 1);
		xp_trace_free(t);
	}
}

int main(void)
{
	test_tpu();
	test_gpu();
	test_values();
	test_real();
	test_gpu_peaks();
	return test_done("test_ops");
}

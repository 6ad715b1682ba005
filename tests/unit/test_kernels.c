/* SPDX-License-Identifier: Apache-2.0 */
/*
 * an_kernels: launch configurations, nearest-rank quantiles, and the
 * synthetic gpu_kernels trace against tests/synth/EXPECTED.md section 16,
 * by name, configuration and function, with both readers.
 */
#include <stdlib.h>
#include <string.h>

#include "an_kernels.h"
#include "test.h"
#include "test_trace.h"
#include "xp_input.h"

#define US 1000000.0

static void test_parse(void)
{
	struct an_launch l;
	char buf[256];
	/* nothing to read: unparsable */
	static const char *const bad[] = {"", "  \n ", "bogus", "junk words", "foo:1 bar=2", "regs:x", "grid:1,1,1,1"};
	/* read in part: what was read, and what was left aside */
	static const struct {
		const char *in, *out;
		size_t unknown, bad;
	} part[] = {
		{"grid:1,1,1", "grid:1,1,1 block:1,1,1", 0, 0},	/* block missing: 1,1,1 */
		{"block:2,3", "grid:1,1,1 block:2,3,1", 0, 0},
		{"grid=8 bogus", "grid:8,1,1 block:1,1,1", 0, 1},
		{"grid:1,1,1 block:1,1,1 regs:x", "grid:1,1,1 block:1,1,1", 0, 1},
		{"grid:1,1,1 block:1,1,1 regs:1 regs:2", "grid:1,1,1 block:1,1,1 regs:1", 0, 1},
		{"grid:1,1,1 block:1,1,1 occ_pct:nan", "grid:1,1,1 block:1,1,1", 0, 1},
		{"grid:2,1,1 block:1,1,-1", "grid:2,1,1 block:1,1,1", 0, 1},
		{"grid:1,1,1 block:1,1,1 regs:18446744073709551616", "grid:1,1,1 block:1,1,1", 0, 1},
		{"grid:1,1,1 block:1,1,1 junk", "grid:1,1,1 block:1,1,1", 0, 1},
		{"grid:1,1,1,1 block:4,1,1 foo:3", "grid:1,1,1 block:4,1,1", 1, 1},
		{"regs:16\nstatic_shared:0\tgrid:2,1,1\r\nblock:32,1,1", "grid:2,1,1 block:32,1,1 regs:16 static_shared:0", 0, 0},
	};
	size_t i;
	const char *cuda = "regs:32 static_shared:0 dynamic_shared:1024 grid:8,1,1 block:128,1,1 occ_pct:50";
	const char *tf = "regs:1 shm:4294967297 grid:2256,139757090178736,971983408 block:0,0,0";

	CHECK_INT(an_launch_parse(cuda, strlen(cuda), &l), 0);
	CHECK_INT(l.grid[0], 8);
	CHECK_INT(l.block[0], 128);
	CHECK_INT(l.has[AN_CFG_REGS], 1);
	CHECK_INT(l.field[AN_CFG_DYNAMIC_SHARED], 1024);
	CHECK_INT(l.has[AN_CFG_SHM], 0);
	an_launch_format(&l, buf, sizeof(buf));
	CHECK_STR(buf, "grid:8,1,1 block:128,1,1 regs:32 static_shared:0 dynamic_shared:1024 occ_pct:50");
	/* AMD's form; an unknown key is ignored, the length bounds the text */
	CHECK_INT(an_launch_parse("grid:1280,1,1 block:256,1,1 private_mem:0 group_mem:16384 occ_pct:0 new:7XX",
				  73, &l), 0);
	an_launch_format(&l, buf, sizeof(buf));
	CHECK_STR(buf, "grid:1280,1,1 block:256,1,1 group_mem:16384 private_mem:0 occ_pct:0");
	CHECK_INT(an_launch_implausible(&l), 0);
	CHECK_INT(an_launch_parse(tf, strlen(tf), &l), 0);
	CHECK_INT(an_launch_implausible(&l), 1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!an_launch_parse(bad[i], strlen(bad[i]), &l)) {
			fprintf(stderr, "  parsed: '%s'\n", bad[i]);
			test_failures++;
		}
	for (i = 0; i < sizeof(part) / sizeof(part[0]); i++) {
		CHECK_INT(an_launch_parse(part[i].in, strlen(part[i].in), &l), 0);
		an_launch_format(&l, buf, sizeof(buf));
		CHECK_STR(buf, part[i].out);
		CHECK_INT(l.unknown_keys, part[i].unknown);
		CHECK_INT(l.bad_values, part[i].bad);
		CHECK_INT(an_launch_partial(&l), i != sizeof(part) / sizeof(part[0]) - 1);
	}
	/* the last: every field read, across newlines and tabs */
	CHECK_INT(an_launch_parse(cuda, strlen(cuda), &l), 0);
	CHECK_INT(an_launch_partial(&l), 0);
}

static void test_quantile(void)
{
	static const int64_t v[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

	CHECK_INT(an_quantile_nearest(v, 10, 0.90), 9);	/* ceil(9.0) = 9th */
	CHECK_INT(an_quantile_nearest(v, 10, 0.99), 10);	/* ceil(9.9) = 10th */
	CHECK_INT(an_quantile_nearest(v, 10, 0.5), 5);
	CHECK_INT(an_quantile_nearest(v, 1, 0.99), 1);
	CHECK_INT(an_quantile_nearest(v, 3, 0.01), 1);	/* ceil(0.03) = 1st */
	CHECK_INT(an_quantile_nearest(v, 0, 0.5), 0);
}

static int load(const char *path, const struct xp_reader *rd, struct an_kern_result *r, enum an_kern_by by)
{
	struct an_kern_opts o = {.by = by};
	struct xp_err err = {0};
	struct xp_trace *t;
	int ret;

	an_kern_init(r, &o);
	if (!(t = test_load(path, rd)))
		return -1;
	ret = an_kern_add(r, t, &err) || an_kern_finish(r, &err);
	xp_trace_free(t);
	CHECK_INT(ret, 0);
	return ret;
}

static const struct an_kern_row *find(const struct an_kern_result *r, const char *name, double total_us)
{
	size_t i;

	for (i = 0; i < r->nrows; i++)
		if (!strcmp(r->rows[i].name, name) && fabs(r->rows[i].total - total_us * US) < 0.5)
			return &r->rows[i];
	fprintf(stderr, "  no row %s with total %g us\n", name, total_us);
	test_failures++;
	return NULL;
}

static void test_by_name(const struct xp_reader *rd)
{
	struct an_kern_result r;
	const struct an_kern_row *g, *u;

	if (load(SYNTH_DIR "/gpu_kernels.xplane.pb", rd, &r, AN_KERN_BY_NAME))
		return;
	CHECK_INT(r.nrows, 2);
	CHECK_INT(r.devices, 2);
	CHECK_INT(r.kernel_events, 7);
	CHECK_INT(r.kernel_ps, 33 * US);
	CHECK_INT(r.kernel_busy_ps, 28 * US);
	CHECK_INT(r.other_lines, 1);
	CHECK_INT(r.zero_events, 1);
	CHECK_INT(r.bad_config, 0);	/* "grid=8 bogus" reads as grid 8,1,1 (EXPECTED.md 16) */
	CHECK_INT(r.partial_config, 1);
	CHECK_INT(r.no_config, 0);
	CHECK_INT(r.implausible_config, 0);
	CHECK_INT(r.stray_events, 0);
	CHECK_STR(r.rows[0].name, "gemm");	/* sorted by total */
	if ((g = find(&r, "gemm", 31))) {
		CHECK_INT(g->instances, 5);
		CHECK_NEAR(g->mean, 6.2 * US, 1e-12);
		CHECK_INT(g->median, 6 * US);
		CHECK_INT(g->min, 3 * US);
		CHECK_INT(g->max, 10 * US);
		CHECK_NEAR(g->std, sqrt(6.56) * US, 1e-12);
		CHECK_INT(g->p90, 10 * US);
		CHECK_INT(g->p99, 10 * US);
		CHECK_NEAR(g->share, 31.0 / 33, 1e-12);
	}
	if ((u = find(&r, "relu", 2))) {
		CHECK_INT(u->instances, 2);
		CHECK_INT(u->median, 1 * US);
		CHECK_INT(u->min, 0);
		CHECK_NEAR(u->std, 1 * US, 1e-12);
		CHECK_INT(u->p90, 2 * US);
	}
	CHECK_INT(r.copy_events, 6);
	CHECK_INT(r.copies[AN_KIND_H2D].count, 1);
	CHECK_INT(r.copies[AN_KIND_H2D].bytes, 4000);
	CHECK_INT(r.copies[AN_KIND_H2D].total, 4 * US);
	CHECK_INT(r.copies[AN_KIND_D2H].bytes, 2000);
	CHECK_INT(r.copies[AN_KIND_D2D].bytes, 1000);
	CHECK_INT(r.copies[AN_KIND_P2P].no_bytes, 1);
	CHECK_INT(r.copies[AN_KIND_P2P].bytes_time, 0);
	CHECK_INT(r.copies[AN_KIND_COPY].bytes, 100);
	CHECK_INT(r.copies[AN_KIND_MEMSET].bytes, 512);
	CHECK_INT(r.copies[AN_KIND_MEMSET].total, 1 * US);
	an_kern_release(&r);
}

static void test_by_config(void)
{
	struct an_kern_result r;
	const struct an_kern_row *a, *b, *bad, *amd;

	if (load(SYNTH_DIR "/gpu_kernels.xplane.pb", NULL, &r, AN_KERN_BY_CONFIG))
		return;
	CHECK_INT(r.nrows, 4);
	if ((a = find(&r, "gemm", 27))) {
		CHECK_INT(a->instances, 4);
		CHECK_INT(a->cfg_state, AN_CFG_OK);
		CHECK_STR(a->config, "grid:8,1,1 block:128,1,1 regs:32 static_shared:0 dynamic_shared:1024 occ_pct:50");
		CHECK_NEAR(a->mean, 6.75 * US, 1e-12);
		CHECK_INT(a->median, 7 * US);
		CHECK_NEAR(a->std, sqrt(6.6875) * US, 1e-12);
		CHECK_INT(a->p90, 10 * US);
	}
	if ((b = find(&r, "gemm", 4)))
		CHECK_STR(b->config, "grid:16,1,1 block:128,1,1 regs:32 static_shared:0 dynamic_shared:1024 occ_pct:50");
	if ((bad = find(&r, "relu", 2))) {
		CHECK_INT(bad->cfg_state, AN_CFG_OK);	/* read in part */
		CHECK_STR(bad->config, "grid:8,1,1 block:1,1,1");
	}
	if ((amd = find(&r, "relu", 0)))
		CHECK_STR(amd->config, "grid:4,1,1 block:64,1,1 group_mem:0 private_mem:0 occ_pct:0");
	CHECK(r.bad_config_example == NULL);
	CHECK_STR(r.partial_config_example, "grid=8 bogus");
	an_kern_release(&r);
}

static void test_by_function(void)
{
	struct an_kern_result r;

	if (load(SYNTH_DIR "/gpu_kernels.xplane.pb", NULL, &r, AN_KERN_BY_FUNCTION))
		return;
	CHECK_INT(r.nfns, 2);
	CHECK_INT(r.nops, 3);
	CHECK_INT(r.nrows, 4);
	if (r.nfns == 2 && r.nops == 3 && r.nrows == 4) {
		CHECK_STR(r.fns[0].name, "jit_step");
		CHECK_INT(r.fns[0].has_program_id, 1);
		CHECK_INT(r.fns[0].program_id, 7);	/* from the fingerprint */
		CHECK_INT(r.fns[0].total, 30 * US);
		CHECK_INT(r.fns[0].nops, 2);
		CHECK_STR(r.ops[0].name, "dot.1");
		CHECK_INT(r.ops[0].total, 28 * US);
		CHECK_INT(r.ops[0].instances, 4);
		CHECK_STR(r.rows[0].name, "gemm");
		CHECK_NEAR(r.rows[0].std, sqrt(5.0) * US, 1e-12);
		CHECK_STR(r.ops[1].name, "relu.2");
		CHECK_INT(r.ops[1].total, 2 * US);
		CHECK(r.fns[1].name == NULL);
		CHECK_INT(r.fns[1].total, 3 * US);
		CHECK(r.ops[2].name == NULL);
		CHECK_INT(r.ops[2].nrows, 2);
		CHECK_STR(r.rows[2].name, "gemm");
		CHECK_STR(r.rows[3].name, "relu");
	}
	an_kern_release(&r);
}

/* Merging two inputs' results pools the samples: the same trace twice doubles counts, keeps means. */
static void test_merge(void)
{
	struct an_kern_result a, b;
	struct xp_err err = {0};
	struct an_kern_opts o = {.by = AN_KERN_BY_NAME};
	struct an_kern_result sum;
	struct xp_buf buf;
	struct xp_trace *t = NULL;
	int k;

	an_kern_init(&sum, &o);
	for (k = 0; k < 2; k++) {
		struct an_kern_result *one = k ? &b : &a;

		an_kern_init(one, &o);
		if (xp_buf_load(SYNTH_DIR "/gpu_kernels.xplane.pb", XP_DEFAULT_MAX_INPUT, &buf, &err) ||
		    xp_trace_read(NULL, buf.data, buf.len, &t, &err)) {
			test_failures++;
			return;
		}
		xp_buf_release(&buf);
		CHECK_INT(an_kern_add(one, t, &err), 0);
		xp_trace_free(t);
		CHECK_INT(an_kern_merge(&sum, one, &err), 0);
		an_kern_release(one);
	}
	CHECK_INT(an_kern_finish(&sum, &err), 0);
	CHECK_INT(sum.inputs, 2);
	CHECK_INT(sum.devices, 2);	/* the same host:plane twice */
	CHECK_INT(sum.kernel_events, 14);
	CHECK_INT(sum.nrows, 2);
	CHECK_INT(sum.rows[0].instances, 10);
	CHECK_NEAR(sum.rows[0].mean, 6.2 * US, 1e-12);
	CHECK_INT(sum.rows[0].median, 6 * US);	/* 3 3 4 4 6 6 8 8 10 10 */
	CHECK_INT(sum.rows[0].p90, 10 * US);	/* 9th */
	CHECK_INT(sum.copies[AN_KIND_H2D].bytes, 8000);
	an_kern_release(&sum);
}

/*
 * Real traces, against `events --list` summed by awk (see the commit): the
 * V100 TensorFlow trace's GPU:4 and GPU:6 hold 665 kernels each (as their
 * derived "TensorFlow Ops" lines count, not counted again here) and 226
 * copies; the MI300X GEMM trace 54 kernels, 3,475,484 ns.
 */
static void test_real(void)
{
	struct an_kern_result r;

	if (!load(TESTDATA_DIR "/real/v100_tf_bert.xplane.pb", NULL, &r, AN_KERN_BY_NAME)) {
		CHECK_INT(r.kernel_events, 1330);
		CHECK_INT(r.copy_events, 226);
		CHECK_INT(r.nrows, 11);
		CHECK_INT(r.kernel_ps, 29690748000.0);
		an_kern_release(&r);
	}
	if (!load(TESTDATA_DIR "/real/mi300x_jax_gemm.xplane.pb", NULL, &r, AN_KERN_BY_NAME)) {
		CHECK_INT(r.kernel_events, 54);
		CHECK_INT(r.kernel_ps, 3475484000.0);
		CHECK_INT(r.nrows, 8);
		an_kern_release(&r);
	}
	if (!load(TESTDATA_DIR "/real/tpu_v6e_inference.xplane.pb", NULL, &r, AN_KERN_BY_NAME)) {
		CHECK_INT(r.devices, 0);
		CHECK_INT(r.device_planes_no_streams, 4);
		an_kern_release(&r);
	}
}

/* Tensor cores by name: the library words and MMA tiles, in any case; plain kernels and near misses not. */
static void test_tensor_core(void)
{
	static const char *const yes[] = {
		"sm90_xmma_gemm_f32f32_tf32f32_f32_nt_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
		"volta_h884gemm_64x64_ldg8_nn", "turing_s1688gemm_128x128_ldg8_tn", "ampere_s16816gemm_bf16_128x64_nn",
		"cutlass_tensorop_f16_s16816gemm_f16_256x128_32x3_tn_align8", "SM90_HMMA_kernel", "void wgmma_kernel<>()",
		"mfma_f32_32x32x8f16_kernel", "ampere_i16832gemm_int8_128x128",
		"Cijk_Ailk_Bljk_BBS_BH_MT256x224x64_MI16x16x16x1_SN_1LDSB1", "Cijk_Alik_Bljk_SB_MT64x64x16_MI32x32x2x1_SE",
	};
	static const char *const no[] = {
		"loop_add_fusion", "input_reduce_fusion_1", "sgemm_128x128x8_NN", "volta_sgemm_128x64_nn", "gemm",
		"triton_softmax_2", "Cijk_Ailk_Bljk_HHS_BH_MT128x128x32", "xmm", "tensor", "", "fusion_mix_2",
		"jit_mi_x", "a_mi1", "_mi", "loop_min_fusion",
	};
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!an_kern_tensor_core(yes[i]))
			CHECK(!"a tensor-core kernel not recognised" && yes[i]);
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (an_kern_tensor_core(no[i]))
			CHECK(!"a plain kernel taken for tensor cores" && no[i]);
}

int main(void)
{
	test_parse();
	test_tensor_core();
	test_quantile();
	test_by_name(NULL);
	test_by_name(&xp_reader_protobuf_c);
	test_by_config();
	test_by_function();
	test_merge();
	test_real();
	return test_done("test_kernels");
}

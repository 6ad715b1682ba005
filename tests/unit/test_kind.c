/* SPDX-License-Identifier: Apache-2.0 */
/* an_kind: event kinds, copy bytes, collective names. */
#include <string.h>

#include "an_kind.h"
#include "test.h"
#include "test_trace.h"

static void test_collective(void)
{
	static const char *const yes[] = {
		"all-reduce", "all-reduce.1", "%all-reduce-start.2", "all_gather", "AllGather",
		"reduce-scatter.3", "ReduceScatter", "all-to-all", "collective-permute-done",
		"send", "recv-done", "%send.1", "ncclDevKernel_AllReduce_Sum_f32_RING_LL",
		"rcclKernel", "NCCL_x", "fusion_all-reduce", "void ncclDevKernel_Generic_4(ncclDevKernelArgsStorage<4096ul>)",
		"void ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclWorkElem)",
	};
	static const char *const no[] = {
		"fusion.1", "gemm", "Cijk_Ailk_Bljk", "transcendental", "resend", "recvfrom_x",
		"overall-reduce", "loop_reduce_fusion", "scatter", "reduce", "",
	};
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!an_is_collective(yes[i])) {
			fprintf(stderr, "  not a collective: '%s'\n", yes[i]);
			test_failures++;
		}
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (an_is_collective(no[i])) {
			fprintf(stderr, "  a collective: '%s'\n", no[i]);
			test_failures++;
		}
}

static void test_names(void)
{
	CHECK_STR(an_kind_name(AN_KIND_KERNEL), "kernel");
	CHECK_STR(an_kind_name(AN_KIND_H2D), "H2D");
	CHECK_STR(an_kind_name(AN_KIND_MEMSET), "memset");
	CHECK_STR(an_kind_name(AN_KIND_COUNT), "?");
	CHECK_INT(an_kind_is_copy(AN_KIND_KERNEL), 0);
	CHECK_INT(an_kind_is_copy(AN_KIND_P2P), 1);
}

/*
 * The V100 TensorFlow trace: GPU:4's stream lines hold 665 kernels
 * ("Stream #134(Compute)"), 2 + 80 host-to-device copies ("Stream #63" and
 * "#135(MemcpyH2D)") and 12 device-to-host ("Stream #136(MemcpyD2H)"), as
 * `planes` lists them; GPU:1's first copy has memcpy_details "size:4 ...".
 */
static void test_v100(void)
{
	struct xp_trace *t = test_load(TESTDATA_DIR "/real/v100_tf_bert.xplane.pb", NULL);
	size_t pi, i, count[AN_KIND_COUNT] = {0};
	int first_gpu1 = 1;

	if (!t)
		return;
	for (pi = 0; pi < t->nplanes; pi++) {
		const struct xp_plane *p = &t->planes[pi];

		for (i = 0; i < p->nevents; i++) {
			const struct xp_event *e = &p->events[i];
			uint64_t bytes = 0;

			if (strncmp(p->lines[e->line].name, "Stream #", 8))
				continue;
			if (!strcmp(p->name, "/device:GPU:4"))
				count[an_event_kind(p, e)]++;
			if (!strcmp(p->name, "/device:GPU:1") && first_gpu1) {
				first_gpu1 = 0;
				CHECK_INT(an_event_kind(p, e), AN_KIND_H2D);
				CHECK_INT(an_event_bytes(p, e, &bytes), 0);
				CHECK_INT(bytes, 4);
			}
		}
	}
	CHECK_INT(count[AN_KIND_KERNEL], 665);
	CHECK_INT(count[AN_KIND_H2D], 82);
	CHECK_INT(count[AN_KIND_D2H], 12);
	CHECK_INT(count[AN_KIND_D2D] + count[AN_KIND_P2P] + count[AN_KIND_COPY] + count[AN_KIND_MEMSET], 0);
	CHECK_INT(first_gpu1, 0);
	xp_trace_free(t);
}

int main(void)
{
	test_v100();
	test_collective();
	test_names();
	return test_done("test_kind");
}

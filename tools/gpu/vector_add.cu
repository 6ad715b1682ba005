/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vector_add - a small CUDA program for checking `xplane-stat capture` on a
 * GPU (tools/gpu/check.sh). Between cudaProfilerStart and cudaProfilerStop
 * (capture with --capture-range=cudaProfilerApi): one copy to the device,
 * one memset, ITERS launches of one kernel on one stream, each inside an
 * NVTX range pushed the way XLA pushes its own (domain "TSL", a registered
 * string "XlaModule:#hlo_module=vector_add,program_id=1#") and timed with
 * CUDA events around the launch, and one copy back. A warm-up launch before
 * the range loads the module. Prints what the capture should find:
 *
 *   kernels=ITERS copies=2 memsets=1 event_total_ns=... event_min_ns=...
 *   event_median_ns=... event_max_ns=...
 *
 * CUDA events time from the stream reaching the first event to reaching the
 * second, so each includes a little more than the kernel itself.
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#define CHECK(x)                                                                            \
	do {                                                                                \
		cudaError_t e_ = (x);                                                       \
		if (e_ != cudaSuccess) {                                                    \
			fprintf(stderr, "vector_add: %s: %s\n", #x, cudaGetErrorString(e_)); \
			return 1;                                                           \
		}                                                                           \
	} while (0)

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		c[i] = a[i] + b[i];
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 20;
	int n = 1 << 24;
	size_t bytes = (size_t)n * sizeof(float);
	float *h = (float *)malloc(bytes), *a, *b, *c;
	cudaEvent_t ev[2];
	cudaStream_t s;
	std::vector<double> ns;
	double total = 0;
	nvtxDomainHandle_t dom = nvtxDomainCreateA("TSL");
	nvtxStringHandle_t name = nvtxDomainRegisterStringA(dom, "XlaModule:#hlo_module=vector_add,program_id=1#");
	nvtxEventAttributes_t at = {};

	at.version = NVTX_VERSION;
	at.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
	at.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
	at.message.registered = name;
	for (int i = 0; i < n; i++)
		h[i] = (float)i;
	CHECK(cudaStreamCreate(&s));
	CHECK(cudaMalloc(&a, bytes));
	CHECK(cudaMalloc(&b, bytes));
	CHECK(cudaMalloc(&c, bytes));
	CHECK(cudaEventCreate(&ev[0]));
	CHECK(cudaEventCreate(&ev[1]));
	vector_add<<<(n + 255) / 256, 256, 0, s>>>(a, a, c, n);	/* warm-up: loads the module */
	CHECK(cudaStreamSynchronize(s));
	CHECK(cudaProfilerStart());
	CHECK(cudaMemcpyAsync(a, h, bytes, cudaMemcpyHostToDevice, s));
	CHECK(cudaMemsetAsync(b, 0, bytes, s));
	for (int it = 0; it < iters; it++) {
		float ms;

		nvtxDomainRangePushEx(dom, &at);
		CHECK(cudaEventRecord(ev[0], s));
		vector_add<<<(n + 255) / 256, 256, 0, s>>>(a, b, c, n);
		CHECK(cudaGetLastError());
		CHECK(cudaEventRecord(ev[1], s));
		nvtxDomainRangePop(dom);
		CHECK(cudaEventSynchronize(ev[1]));
		CHECK(cudaEventElapsedTime(&ms, ev[0], ev[1]));
		ns.push_back(ms * 1e6);
		total += ms * 1e6;
	}
	CHECK(cudaMemcpyAsync(h, c, bytes, cudaMemcpyDeviceToHost, s));
	CHECK(cudaStreamSynchronize(s));
	CHECK(cudaProfilerStop());
	std::sort(ns.begin(), ns.end());
	printf("kernels=%d copies=2 memsets=1 event_total_ns=%.0f event_min_ns=%.0f event_median_ns=%.0f "
	       "event_max_ns=%.0f\n",
	       iters, total, ns.front(), ns[ns.size() / 2], ns.back());
	return 0;
}

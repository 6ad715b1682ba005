/*
 * vector_add - a small CUDA program for checking `xplane-stat capture` on a
 * GPU (tools/gpu/check.sh): ITERS launches of one kernel on one stream, each
 * inside an NVTX range named like XLA's ("XlaModule:#hlo_module=vector_add,
 * program_id=1#") and timed with CUDA events around the launch, plus one
 * copy each way. Prints what the capture should find:
 *
 *   kernels=ITERS copies=2 event_total_ns=... event_min_ns=... event_max_ns=...
 *
 * CUDA events time from the stream reaching the first event to reaching the
 * second, so each includes a little more than the kernel itself.
 */
#include <cstdio>
#include <cstdlib>
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
	double total = 0, lo = 1e30, hi = 0;

	for (int i = 0; i < n; i++)
		h[i] = (float)i;
	CHECK(cudaStreamCreate(&s));
	CHECK(cudaMalloc(&a, bytes));
	CHECK(cudaMalloc(&b, bytes));
	CHECK(cudaMalloc(&c, bytes));
	CHECK(cudaMemcpyAsync(a, h, bytes, cudaMemcpyHostToDevice, s));
	CHECK(cudaMemsetAsync(b, 0, bytes, s));
	CHECK(cudaEventCreate(&ev[0]));
	CHECK(cudaEventCreate(&ev[1]));
	for (int it = 0; it < iters; it++) {
		float ms;

		nvtxRangePushA("XlaModule:#hlo_module=vector_add,program_id=1#");
		CHECK(cudaEventRecord(ev[0], s));
		vector_add<<<(n + 255) / 256, 256, 0, s>>>(a, b, c, n);
		CHECK(cudaGetLastError());
		CHECK(cudaEventRecord(ev[1], s));
		nvtxRangePop();
		CHECK(cudaEventSynchronize(ev[1]));
		CHECK(cudaEventElapsedTime(&ms, ev[0], ev[1]));
		total += ms * 1e6;
		lo = ms * 1e6 < lo ? ms * 1e6 : lo;
		hi = ms * 1e6 > hi ? ms * 1e6 : hi;
	}
	CHECK(cudaMemcpyAsync(h, c, bytes, cudaMemcpyDeviceToHost, s));
	CHECK(cudaStreamSynchronize(s));
	printf("kernels=%d copies=2 memsets=1 event_total_ns=%.0f event_min_ns=%.0f event_max_ns=%.0f\n", iters,
	       total, lo, hi);
	return 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fake_app - a CUDA program for the capture tests, with no GPU: it does what
 * the driver does inside cuInit (load $CUDA_INJECTION64_PATH and call its
 * InitializeInjection), then makes up GPU activity through the fake CUPTI's
 * hooks, which the real injection library records.
 *
 * Usage: fake_app SCENARIO [EXIT_STATUS] [READY_FILE]
 *
 * Times are ns after the fake CUPTI clock's start (B). The scenarios and
 * the answers they lead to are in tests/capture/EXPECTED.md.
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define B 2000000000ull

/* CUPTI's values, written out: the program knows nothing of CUPTI. */
enum {
	MARK_START = 2,
	MARK_END = 4,
	CBID_LAUNCH = 307,
	CBID_MEMCPY_H2D_ASYNC = 277,
	CBID_MEMSET_D32_ASYNC = 220,
	CBID_PROFILER_START = 308,
	CBID_PROFILER_STOP = 309,
	COPY_H2D = 1,
};

static void (*device)(uint32_t, const char *);
static void (*kernel)(uint32_t, uint32_t, uint32_t, const char *, uint64_t, uint64_t);
static void (*memcpy_)(uint32_t, uint32_t, uint32_t, uint8_t, uint64_t, uint64_t, uint64_t);
static void (*memset_)(uint32_t, uint32_t, uint32_t, uint64_t, uint64_t, uint64_t);
static void (*api)(uint32_t, uint32_t, uint32_t, uint64_t, uint64_t);
static void (*marker)(uint32_t, uint32_t, uint32_t, const char *, const char *, uint64_t);
static void (*call)(uint32_t);
static void (*drop)(size_t);
static void (*deliver)(void);

static uint32_t corr, marker_id;

static void die(const char *msg)
{
	fprintf(stderr, "fake_app: %s\n", msg);
	exit(99);
}

static void *sym(void *h, const char *name)
{
	void *p = dlsym(h, name);

	if (!p)
		die(dlerror());
	return p;
}

/* What cuInit does with CUDA_INJECTION64_PATH; then the fake CUPTI's hooks. */
static void cuda_init(void)
{
	const char *path = getenv("CUDA_INJECTION64_PATH");
	int (*init)(void);
	void *h, *c;

	if (!path)
		die("CUDA_INJECTION64_PATH is not set");
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		die(dlerror());
	*(void **)&init = sym(h, "InitializeInjection");
	if (init() != 1)
		die("InitializeInjection failed");
	c = dlopen("libcupti.so.13", RTLD_NOW | RTLD_NOLOAD);
	if (!c)
		die("the injection library did not load libcupti.so.13");
	*(void **)&device = sym(c, "fake_cupti_device");
	*(void **)&kernel = sym(c, "fake_cupti_kernel");
	*(void **)&memcpy_ = sym(c, "fake_cupti_memcpy");
	*(void **)&memset_ = sym(c, "fake_cupti_memset");
	*(void **)&api = sym(c, "fake_cupti_api");
	*(void **)&marker = sym(c, "fake_cupti_marker");
	*(void **)&call = sym(c, "fake_cupti_call");
	*(void **)&drop = sym(c, "fake_cupti_drop");
	*(void **)&deliver = sym(c, "fake_cupti_deliver");
	device(0, "NVIDIA H100 80GB HBM3");
}

static void range(uint32_t tid, uint64_t start, uint64_t end, const char *name)
{
	marker_id++;
	marker(MARK_START, marker_id, tid, name, "TSL", B + start);
	marker(MARK_END, marker_id, tid, NULL, NULL, B + end);
}

static void launch(uint32_t tid, uint64_t at, const char *name, uint32_t stream, uint64_t start, uint64_t end)
{
	corr++;
	api(CBID_LAUNCH, tid, corr, B + at, B + at + 5);
	kernel(0, stream, corr, name, B + start, B + end);
}

/* The same work as gen_cap's xla.xplane.pb. */
static void xla(void)
{
	range(7, 1000, 2000, "XlaModule:#hlo_module=jit_f,program_id=3#");
	range(7, 1100, 1300, "Thunk:#hlo_op=fusion.1#");
	range(7, 1400, 1600, "Thunk:#hlo_op=dot.2#");
	range(7, 3000, 4000, "XlaModule:#hlo_module=jit_f,program_id=3#");
	range(7, 3100, 3300, "Thunk:#hlo_op=fusion.1#");
	range(7, 5000, 6000, "XlaModule:#hlo_module=jit_g,program_id=4#");
	launch(7, 1150, "fusion_1", 7, 10000, 12000);
	launch(7, 1450, "dot", 7, 12500, 15500);
	api(CBID_MEMCPY_H2D_ASYNC, 7, 100, B + 1700, B + 1750);
	memcpy_(0, 9, 100, COPY_H2D, 1048576, B + 15600, B + 16600);
	launch(7, 3150, "fusion_1", 7, 20000, 22000);
	launch(7, 5100, "g_kernel", 8, 30000, 31000);
	launch(7, 7000, "stray", 7, 40000, 40500);
}

/* A plain CUDA program: three kernels, a copy and a memset, no NVTX. */
static void plain(void)
{
	launch(1, 100, "_Z6matmulPfS_S_i", 13, 1000, 4000);
	launch(1, 200, "_Z6matmulPfS_S_i", 13, 4000, 7000);
	launch(1, 300, "relu", 14, 7500, 8000);
	api(CBID_MEMCPY_H2D_ASYNC, 1, 50, B + 50, B + 60);
	memcpy_(0, 13, 50, COPY_H2D, 4096, B + 500, B + 900);
	api(CBID_MEMSET_D32_ASYNC, 1, 51, B + 400, B + 410);
	memset_(0, 14, 51, 4096, B + 8000, B + 8100);
}

/* Tells the test who to signal: the parent, 'xplane-stat capture'. */
static void write_ready(const char *path)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fprintf(f, "%d\n", (int)getppid());
		fclose(f);
	}
}

int main(int argc, char **argv)
{
	const char *s = argc > 1 ? argv[1] : "";
	int status = argc > 2 ? atoi(argv[2]) : 0;

	if (!strcmp(s, "nocuda"))
		return status;
	if (!strcmp(s, "nvtx")) {
		/* NVTX loads NVTX_INJECTION64_PATH at the first NVTX call, which may come before cuInit */
		const char *path = getenv("NVTX_INJECTION64_PATH");
		int (*init)(const void *);
		void *h;

		if (!path || !(h = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
			die("NVTX_INJECTION64_PATH does not name a library");
		*(void **)&init = sym(h, "InitializeInjectionNvtx2");
		if (init((const void *)path) != 1)
			die("InitializeInjectionNvtx2 did not reach CUPTI");
		s = "xla";
	}
	cuda_init();
	if (!strcmp(s, "xla")) {
		xla();
	} else if (!strcmp(s, "plain")) {
		plain();
	} else if (!strcmp(s, "drop")) {
		plain();
		drop(3);
	} else if (!strcmp(s, "range") || !strcmp(s, "range-never")) {
		int on = !strcmp(s, "range");

		launch(1, 100, "before", 7, 1000, 2000);
		if (on)
			call(CBID_PROFILER_START);
		launch(1, 2500, "inside", 7, 3000, 5000);
		if (on)
			call(CBID_PROFILER_STOP);
		launch(1, 5500, "after", 7, 6000, 7000);
	} else if (!strcmp(s, "crash")) {
		plain();
		deliver();
		raise(SIGKILL);
	} else if (!strcmp(s, "wait")) {
		plain();
		deliver();
		if (argc > 3)
			write_ready(argv[3]);
		alarm(30);	/* never outlive a test that went wrong */
		for (;;)
			pause();
	} else if (!strcmp(s, "fork")) {
		/* a second process that runs its own CUDA program, as launchers do */
		pid_t pid = fork();
		int st;

		if (pid == 0) {
			execl("/proc/self/exe", argv[0], "plain", (char *)NULL);
			_exit(98);
		}
		xla();
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
			die("the second process failed");
	} else if (!strcmp(s, "idle")) {
		/* CUDA initialised, no work */
	} else {
		die("unknown scenario");
	}
	return status;
}

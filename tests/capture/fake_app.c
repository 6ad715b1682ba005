/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fake_app - a CUDA program for the capture tests, with no GPU: it does what
 * the driver does inside cuInit (load $CUDA_INJECTION64_PATH and call its
 * InitializeInjection), then makes up GPU activity through the fake CUPTI's
 * hooks, which the real injection library records.
 *
 * Usage: fake_app SCENARIO [EXIT_STATUS] [READY_FILE]
 *
 * Records reach the injection library only as the fake CUPTI hands them
 * over: when a buffer is full or flushed, from its own thread.
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
	CBID_EVENT_QUERY = 120,
	CBID_STREAM_QUERY = 125,
	CBID_LAUNCH = 307,
	CBID_MEMCPY_H2D_ASYNC = 277,
	CBID_MEMSET_D32_ASYNC = 220,
	CBID_PROFILER_START = 308,
	CBID_PROFILER_STOP = 309,
	CBID_LAUNCH_EX = 652,
	RT_PROFILER_START = 171,
	RT_PROFILER_STOP = 172,
	RT_LAUNCH = 211,
	COPY_H2D = 1,
};

static void (*device)(uint32_t, const char *);
static void (*kernel)(uint32_t, uint32_t, uint32_t, const char *, uint64_t, uint64_t);
static void (*kernel_reused_name)(uint32_t, uint32_t, uint32_t, const char *, uint64_t, uint64_t);
static void (*kernel_running)(uint32_t, uint32_t, uint32_t, const char *);
static void (*memcpy_)(uint32_t, uint32_t, uint32_t, uint8_t, uint64_t, uint64_t, uint64_t);
static void (*memset_)(uint32_t, uint32_t, uint32_t, uint64_t, uint64_t, uint64_t);
static void (*api)(uint32_t, uint32_t, uint32_t, uint64_t, uint64_t);
static void (*runtime_api)(uint32_t, uint32_t, uint32_t, uint64_t, uint64_t);
static void (*internal_launch)(uint32_t, uint32_t, uint64_t, uint64_t);
static void (*marker)(uint32_t, uint32_t, uint32_t, const char *, const char *, uint64_t);
static void (*register_string)(uint64_t, const char *);
static void (*marker_registered)(uint32_t, uint32_t, uint32_t, uint64_t, const char *, uint64_t);
static void (*call)(uint32_t);
static void (*runtime_call)(uint32_t, uint32_t);
static void (*drop)(size_t);
static int (*wait_delivered)(int);
static void (*set_time)(uint64_t);

static uint32_t corr, marker_id;
static int nvtx_off;	/* no NVTX tool attached: NVTX calls do nothing */

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

/*
 * What cuInit does: initialise the devices (the fake CUPTI makes their
 * records now, before any tool could enable them), then load
 * CUDA_INJECTION64_PATH and call its InitializeInjection.
 */
static void cuda_init(void)
{
	const char *path = getenv("CUDA_INJECTION64_PATH");
	int (*init)(void);
	void *h, *c;

	if (!path)
		die("CUDA_INJECTION64_PATH is not set");
	c = dlopen("libcupti.so.13", RTLD_NOW | RTLD_LOCAL);
	if (!c)
		die(dlerror());
	*(void **)&device = sym(c, "fake_cupti_device");
	*(void **)&kernel = sym(c, "fake_cupti_kernel");
	*(void **)&kernel_reused_name = sym(c, "fake_cupti_kernel_reused_name");
	*(void **)&kernel_running = sym(c, "fake_cupti_kernel_running");
	*(void **)&memcpy_ = sym(c, "fake_cupti_memcpy");
	*(void **)&memset_ = sym(c, "fake_cupti_memset");
	*(void **)&api = sym(c, "fake_cupti_api");
	*(void **)&runtime_api = sym(c, "fake_cupti_runtime_api");
	*(void **)&internal_launch = sym(c, "fake_cupti_internal_launch");
	*(void **)&marker = sym(c, "fake_cupti_marker");
	*(void **)&register_string = sym(c, "fake_cupti_register_string");
	*(void **)&marker_registered = sym(c, "fake_cupti_marker_registered");
	*(void **)&call = sym(c, "fake_cupti_call");
	*(void **)&runtime_call = sym(c, "fake_cupti_runtime_call");
	*(void **)&drop = sym(c, "fake_cupti_drop");
	*(void **)&wait_delivered = sym(c, "fake_cupti_wait_delivered");
	*(void **)&set_time = sym(c, "fake_cupti_set_time");
	device(0, "NVIDIA H100 80GB HBM3");
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		die(dlerror());
	*(void **)&init = sym(h, "InitializeInjection");
	if (init() != 1)
		die("InitializeInjection failed");
}

static void range(uint32_t tid, uint64_t start, uint64_t end, const char *name)
{
	if (nvtx_off)
		return;
	marker_id++;
	marker(MARK_START, marker_id, tid, name, "TSL", B + start);
	marker(MARK_END, marker_id, tid, NULL, NULL, B + end);
}

/* A range whose message is a string registered with nvtxDomainRegisterStringA, as XLA's may be. */
static void range_registered(uint32_t tid, uint64_t start, uint64_t end, uint64_t handle)
{
	marker_id++;
	marker_registered(MARK_START, marker_id, tid, handle, "TSL", B + start);
	marker(MARK_END, marker_id, tid, NULL, NULL, B + end);
}

/* Waits for the records to reach the injection library, as a program running on would. */
static void await_delivery(void)
{
	if (wait_delivered(5000))
		fprintf(stderr, "fake_app: the records were not handed over within 5 s\n");
}

static void launch(uint32_t tid, uint64_t at, const char *name, uint32_t stream, uint64_t start, uint64_t end)
{
	corr++;
	api(CBID_LAUNCH, tid, corr, B + at, B + at + 5);
	kernel(0, stream, corr, name, B + start, B + end);
}

/* XLA's NVTX ranges on thread 7: two runs of jit_f (fusion.1, dot.2; fusion.1) and one of jit_g. */
static void xla_ranges(void)
{
	range(7, 1000, 2000, "XlaModule:#hlo_module=jit_f,program_id=3#");
	range(7, 1100, 1300, "Thunk:#hlo_op=fusion.1#");
	range(7, 1400, 1600, "Thunk:#hlo_op=dot.2#");
	range(7, 3000, 4000, "XlaModule:#hlo_module=jit_f,program_id=3#");
	range(7, 3100, 3300, "Thunk:#hlo_op=fusion.1#");
	range(7, 5000, 6000, "XlaModule:#hlo_module=jit_g,program_id=4#");
}

/* The same work as gen_cap's xla.xplane.pb, and the polling XLA does (not recorded). */
static void xla(void)
{
	api(CBID_STREAM_QUERY, 7, 900, B + 900, B + 901);
	api(CBID_EVENT_QUERY, 7, 901, B + 6500, B + 6501);
	xla_ranges();
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

/*
 * xla, with two launches made by libraries: dot by the driver outside any
 * public call (cuBLAS), the first fusion_1 through the runtime only; the
 * second fusion_1 through the runtime and the driver call inside it, both
 * records with one correlation id.
 */
static void libs(void)
{
	xla_ranges();
	runtime_api(RT_LAUNCH, 7, 1, B + 1150, B + 1160);
	kernel(0, 7, 1, "fusion_1", B + 10000, B + 12000);
	internal_launch(7, 2, B + 1450, B + 1455);
	kernel(0, 7, 2, "dot", B + 12500, B + 15500);
	api(CBID_MEMCPY_H2D_ASYNC, 7, 100, B + 1700, B + 1750);
	memcpy_(0, 9, 100, COPY_H2D, 1048576, B + 15600, B + 16600);
	runtime_api(RT_LAUNCH, 7, 3, B + 3148, B + 3160);
	api(CBID_LAUNCH, 7, 3, B + 3150, B + 3155);
	kernel(0, 7, 3, "fusion_1", B + 20000, B + 22000);
	corr = 3;
	launch(7, 5100, "g_kernel", 8, 30000, 31000);
	launch(7, 7000, "stray", 7, 40000, 40500);
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
		/* declined: NVTX stays without a tool and its calls do nothing */
		if (init((const void *)path) != 1) {
			fprintf(stderr, "fake_app: InitializeInjectionNvtx2 declined: no NVTX\n");
			nvtx_off = 1;
		}
		s = "xla";
	}
	if (!strcmp(s, "reuse") && !dlopen("libstdc++.so.6", RTLD_NOW | RTLD_GLOBAL))
		die(dlerror());	/* a C++ program: __cxa_demangle is there */
	cuda_init();
	if (!strcmp(s, "xla")) {
		xla();
	} else if (!strcmp(s, "plain")) {
		plain();
	} else if (!strcmp(s, "drop")) {
		plain();
		drop(3);
	} else if (!strcmp(s, "libs")) {
		libs();
	} else if (!strcmp(s, "range") || !strcmp(s, "range-never") || !strcmp(s, "range-runtime") ||
		   !strcmp(s, "range-nested")) {
		/* the driver's calls, the runtime's alone, or the runtime's around the driver's */
		int on = strcmp(s, "range-never"), rt = !strcmp(s, "range-runtime"), nested = !strcmp(s, "range-nested");

		launch(1, 100, "before", 7, 1000, 2000);
		set_time(B + 2200);
		if (on)
			rt || nested ? runtime_call(RT_PROFILER_START, nested ? CBID_PROFILER_START : 0)
				     : call(CBID_PROFILER_START);
		launch(1, 2500, "inside", 7, 3000, 5000);
		set_time(B + 5200);
		if (on)
			rt || nested ? runtime_call(RT_PROFILER_STOP, nested ? CBID_PROFILER_STOP : 0)
				     : call(CBID_PROFILER_STOP);
		launch(1, 5500, "after", 7, 6000, 7000);
	} else if (!strcmp(s, "range-nvtx")) {
		/* XLA registers its range titles long before the range it profiles */
		register_string(1, "XlaModule:#hlo_module=jit_r,program_id=9#");
		range(1, 50, 150, "XlaModule:#hlo_module=jit_warmup,program_id=8#");
		launch(1, 100, "before", 7, 1000, 2000);
		set_time(B + 2200);
		call(CBID_PROFILER_START);
		range_registered(1, 2400, 2600, 1);
		launch(1, 2500, "inside", 7, 3000, 5000);
		set_time(B + 5200);
		call(CBID_PROFILER_STOP);
		launch(1, 5500, "after", 7, 6000, 7000);
	} else if (!strcmp(s, "reuse")) {
		/* one name's storage reused for another kernel's name, after the first was handed over */
		api(CBID_LAUNCH, 1, 1, B + 100, B + 105);
		kernel_reused_name(0, 13, 1, "_Z6matmulPfS_S_i", B + 1000, B + 4000);
		await_delivery();
		api(CBID_LAUNCH, 1, 2, B + 200, B + 205);
		kernel_reused_name(0, 13, 2, "_Z4reluPf", B + 4000, B + 4500);
	} else if (!strcmp(s, "running")) {
		/* a kernel still running at exit, and a call CUPTI could not time */
		plain();
		api(CBID_LAUNCH, 1, 60, B + 450, B + 455);
		kernel_running(0, 13, 60, "still_running");
		api(CBID_LAUNCH, 1, 61, 0, 0);
		kernel(0, 14, 61, "untimed_launch", B + 8200, B + 8300);
	} else if (!strcmp(s, "crash")) {
		/* killed mid-run: only what the library's periodic flush got out survives */
		plain();
		await_delivery();
		raise(SIGKILL);
	} else if (!strcmp(s, "wait")) {
		plain();
		await_delivery();
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

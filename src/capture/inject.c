/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libxplane-stat-inject.so: runs inside each captured process.
 *
 * The CUDA driver loads it from CUDA_INJECTION64_PATH inside cuInit and calls
 * InitializeInjection; a process that never calls cuInit never loads it. It
 * subscribes to CUPTI, turns on the activity kinds xplane-stat needs and
 * writes what CUPTI hands back into one record file per process, in the
 * directory 'xplane-stat capture' named in XPLANE_STAT_CAPTURE_DIR. At exit
 * it flushes CUPTI (forced) and writes the trailer that marks the file
 * complete.
 *
 * It never calls the driver itself (not in InitializeInjection, which runs
 * inside cuInit, nor later), never dlcloses CUPTI, and never makes the
 * program fail: whatever goes wrong becomes a note in the record file.
 *
 * With --nvtx, NVTX_INJECTION64_PATH names this library too, and
 * InitializeInjectionNvtx2 hands NVTX to the CUPTI this library uses, so
 * that the ranges arrive as CUPTI marker records.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cupti.h>

#include "cap_env.h"
#include "cap_format.h"
#include "cap_write.h"

#define EXPORT __attribute__((visibility("default")))
#define BUFFER_SIZE (8u << 20)

/* The activity kinds recorded while recording is on (MARKER only with --nvtx). */
static const CUpti_ActivityKind kinds[] = {
	CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
	CUPTI_ACTIVITY_KIND_MEMCPY,
	CUPTI_ACTIVITY_KIND_MEMCPY2,
	CUPTI_ACTIVITY_KIND_MEMSET,
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

/* Driver calls recorded: those that start device work, for correlation. */
static const char *const api_prefixes[] = {"cuLaunch", "cuGraphLaunch", "cuMemcpy", "cuMemset"};

typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);

/* Demangled names by the name pointer CUPTI gives (stable per function). */
struct dm_slot {
	const char *name;
	char *demangled;	/* NULL: not mangled, or could not be demangled */
};

static struct {
	pthread_mutex_t lock;	/* the writer, the demangling cache */
	int tried;		/* InitializeInjection ran in this process */
	int active;		/* set up in this process, trailer not yet written */
	pid_t pid;
	int fd;
	unsigned flags;		/* CAP_F_* */
	struct cap_writer w;
	CUpti_SubscriberHandle sub;
	int recording;
	int driver_all;		/* the fallback: every driver call is recorded */
	uint64_t dropped;
	demangle_fn demangle;
	struct dm_slot *dm;
	size_t ndm, dmcap;
} st = {.lock = PTHREAD_MUTEX_INITIALIZER, .fd = -1};

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t cupti_ns(void)
{
	uint64_t t = 0;

	cuptiGetTimestamp(&t);
	return t;
}

static const char *result_str(CUptiResult r)
{
	const char *s = NULL;

	if (cuptiGetResultString(r, &s) != CUPTI_SUCCESS || !s)
		return "unknown CUPTI error";
	return s;
}

/* A note for the user in the record file; the caller holds the lock. */
static void note(int warning, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(int warning, const char *fmt, ...)
{
	char text[512];
	struct cap_note n = {.warning = (uint32_t)warning, .text = text};
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	cap_writer_note(&st.w, &n);
}

/* The demangled form of a kernel name, or NULL; cached per name pointer. */
static const char *demangled(const char *name)
{
	size_t i, mask;
	char *d = NULL;
	int status = -1;

	if (!name || name[0] != '_' || name[1] != 'Z' || !st.demangle)
		return NULL;
	if ((st.ndm + 1) * 2 > st.dmcap) {
		size_t cap = st.dmcap ? st.dmcap * 2 : 1024;
		struct dm_slot *n = calloc(cap, sizeof(*n));

		if (!n)
			return NULL;
		for (i = 0; i < st.dmcap; i++) {
			size_t j;

			if (!st.dm[i].name)
				continue;
			for (j = ((uintptr_t)st.dm[i].name >> 4) & (cap - 1); n[j].name; j = (j + 1) & (cap - 1))
				;
			n[j] = st.dm[i];
		}
		free(st.dm);
		st.dm = n;
		st.dmcap = cap;
	}
	mask = st.dmcap - 1;
	for (i = ((uintptr_t)name >> 4) & mask; st.dm[i].name; i = (i + 1) & mask)
		if (st.dm[i].name == name)
			return st.dm[i].demangled;
	d = st.demangle(name, NULL, NULL, &status);
	if (status) {
		free(d);
		d = NULL;
	}
	st.dm[i].name = name;
	st.dm[i].demangled = d;
	st.ndm++;
	return d;
}

static uint8_t mem_kind(uint32_t k)
{
	return k < CAP_MEM_KINDS ? (uint8_t)k : CAP_MEM_UNKNOWN;
}

static uint8_t copy_kind(uint32_t k)
{
	switch (k) {
	case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return CAP_COPY_H2D;
	case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return CAP_COPY_D2H;
	case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return CAP_COPY_D2D;
	case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return CAP_COPY_P2P;
	default: return CAP_COPY_OTHER;
	}
}

/* One CUPTI activity record into the record file; the caller holds the lock. */
static void record(const CUpti_Activity *a)
{
	switch (a->kind) {
	case CUPTI_ACTIVITY_KIND_KERNEL:
	case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
		const CUpti_ActivityKernel10 *k = (const void *)a;
		struct cap_kernel r = {
			.start = k->start, .end = k->end, .device = k->deviceId, .context = k->contextId,
			.stream = k->streamId, .correlation = k->correlationId, .name = k->name,
			.demangled = demangled(k->name), .grid = {k->gridX, k->gridY, k->gridZ},
			.block = {k->blockX, k->blockY, k->blockZ}, .regs = k->registersPerThread,
			.static_shmem = (uint32_t)k->staticSharedMemory,
			.dynamic_shmem = (uint32_t)k->dynamicSharedMemory, .graph_id = k->graphId,
			.graph_node_id = k->graphNodeId,
		};

		cap_writer_kernel(&st.w, &r);
		break;
	}
	case CUPTI_ACTIVITY_KIND_MEMCPY: {
		const CUpti_ActivityMemcpy6 *m = (const void *)a;
		struct cap_memcpy r = {
			.start = m->start, .end = m->end, .bytes = m->bytes, .device = m->deviceId,
			.context = m->contextId, .stream = m->streamId, .correlation = m->correlationId,
			.kind = copy_kind(m->copyKind), .src_kind = mem_kind(m->srcKind),
			.dst_kind = mem_kind(m->dstKind), .async = (m->flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) != 0,
			.src_device = m->deviceId, .dst_device = m->deviceId, .graph_id = m->graphId,
			.graph_node_id = m->graphNodeId,
		};

		cap_writer_memcpy(&st.w, &r);
		break;
	}
	case CUPTI_ACTIVITY_KIND_MEMCPY2: {
		const CUpti_ActivityMemcpyPtoP4 *m = (const void *)a;
		struct cap_memcpy r = {
			.start = m->start, .end = m->end, .bytes = m->bytes, .device = m->deviceId,
			.context = m->contextId, .stream = m->streamId, .correlation = m->correlationId,
			.kind = CAP_COPY_P2P, .src_kind = mem_kind(m->srcKind), .dst_kind = mem_kind(m->dstKind),
			.async = (m->flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) != 0,
			.src_device = m->srcDeviceId, .dst_device = m->dstDeviceId, .graph_id = m->graphId,
			.graph_node_id = m->graphNodeId,
		};

		cap_writer_memcpy(&st.w, &r);
		break;
	}
	case CUPTI_ACTIVITY_KIND_MEMSET: {
		const CUpti_ActivityMemset4 *m = (const void *)a;
		struct cap_memset r = {
			.start = m->start, .end = m->end, .bytes = m->bytes, .device = m->deviceId,
			.context = m->contextId, .stream = m->streamId, .correlation = m->correlationId,
			.value = m->value, .mem_kind = mem_kind(m->memoryKind),
			.async = (m->flags & CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC) != 0, .graph_id = m->graphId,
			.graph_node_id = m->graphNodeId,
		};

		cap_writer_memset(&st.w, &r);
		break;
	}
	case CUPTI_ACTIVITY_KIND_DRIVER: {
		const CUpti_ActivityAPI *p = (const void *)a;
		const char *name = NULL;
		struct cap_api r = {
			.start = p->start, .end = p->end, .thread = p->threadId, .correlation = p->correlationId,
			.cbid = p->cbid, .result = p->returnValue,
		};

		if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_DRIVER_API, p->cbid, &name) == CUPTI_SUCCESS)
			r.name = name;
		cap_writer_api(&st.w, &r);
		break;
	}
	case CUPTI_ACTIVITY_KIND_MARKER: {
		const CUpti_ActivityMarker2 *m = (const void *)a;
		struct cap_marker r = {
			.ts = m->timestamp, .id = m->id, .thread = m->objectId.pt.threadId,
			.name = m->name, .domain = m->domain,
		};

		if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_START)
			r.flags |= CAP_MARK_START;
		if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_END)
			r.flags |= CAP_MARK_END;
		if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS)
			r.flags |= CAP_MARK_INSTANT;
		if (m->objectKind != CUPTI_ACTIVITY_OBJECT_THREAD && m->objectKind != CUPTI_ACTIVITY_OBJECT_PROCESS)
			r.thread = 0;
		cap_writer_marker(&st.w, &r);
		break;
	}
	case CUPTI_ACTIVITY_KIND_DEVICE: {
		const CUpti_ActivityDevice5 *d = (const void *)a;
		struct cap_device r = {
			.id = d->id, .name = d->name, .cc_major = d->computeCapabilityMajor,
			.cc_minor = d->computeCapabilityMinor, .sm_count = d->numMultiprocessors,
			.clock_khz = d->coreClockRate, .mem_size = d->globalMemorySize,
			.mem_bandwidth = d->globalMemoryBandwidth * 1000,	/* given in kB/s */
			.warp_size = d->numThreadsPerWarp, .max_warps_per_sm = d->maxWarpsPerMultiprocessor,
			.max_blocks_per_sm = d->maxBlocksPerMultiprocessor,
			.max_threads_per_block = d->maxThreadsPerBlock,
			.regs_per_sm = d->maxRegistersPerMultiprocessor, .regs_per_block = d->maxRegistersPerBlock,
			.shmem_per_sm = d->maxSharedMemoryPerMultiprocessor,
			.shmem_per_block = d->maxSharedMemoryPerBlock,
		};

		cap_writer_device(&st.w, &r);
		break;
	}
	default:
		break;
	}
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
	*buffer = aligned_alloc(8, BUFFER_SIZE);
	*size = *buffer ? BUFFER_SIZE : 0;
	*max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
				      size_t valid)
{
	CUpti_Activity *a = NULL;
	size_t dropped = 0;

	(void)size;
	pthread_mutex_lock(&st.lock);
	if (st.active && getpid() == st.pid) {
		while (cuptiActivityGetNextRecord(buffer, valid, &a) == CUPTI_SUCCESS)
			record(a);
		if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS && dropped) {
			st.dropped += dropped;
			cap_writer_dropped(&st.w, dropped);
		}
		/* what reached the file survives the process being killed */
		cap_writer_flush(&st.w);
	}
	pthread_mutex_unlock(&st.lock);
	free(buffer);
}

/* Turns the activity kinds on or off; the caller holds the lock. */
static void set_recording(int on)
{
	CUptiResult r;
	size_t i;

	if (st.recording == on)
		return;
	st.recording = on;
	for (i = 0; i < NKINDS; i++) {
		r = on ? cuptiActivityEnable(kinds[i]) : cuptiActivityDisable(kinds[i]);
		if (r != CUPTI_SUCCESS && on)
			note(1, "cannot record activity kind %d: %s", (int)kinds[i], result_str(r));
	}
	if (st.flags & CAP_F_NVTX) {
		r = on ? cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MARKER)
		       : cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MARKER);
		if (r != CUPTI_SUCCESS && on)
			note(1, "cannot record NVTX ranges: %s", result_str(r));
	}
	if (st.driver_all) {
		if (on)
			cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DRIVER);
		else
			cuptiActivityDisable(CUPTI_ACTIVITY_KIND_DRIVER);
		return;
	}
	for (i = 1; i < CUPTI_DRIVER_TRACE_CBID_SIZE; i++) {
		const char *name = NULL;
		size_t p;

		if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_DRIVER_API, (uint32_t)i, &name) != CUPTI_SUCCESS || !name)
			continue;
		for (p = 0; p < sizeof(api_prefixes) / sizeof(api_prefixes[0]); p++)
			if (!strncmp(name, api_prefixes[p], strlen(api_prefixes[p])))
				break;
		if (p == sizeof(api_prefixes) / sizeof(api_prefixes[0]))
			continue;
		r = cuptiActivityEnableDriverApi((CUpti_CallbackId)i, (uint8_t)on);
		if (r != CUPTI_SUCCESS && on) {
			/* an older CUPTI: every driver call then (more records, same result) */
			st.driver_all = 1;
			cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DRIVER);
			return;
		}
	}
}

/* cudaProfilerStart/Stop (they call cuProfilerStart/Stop) bound recording with --capture-range. */
static void CUPTIAPI on_api(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
			    const void *data)
{
	const CUpti_CallbackData *cb = data;
	struct cap_range r;

	(void)userdata;
	if (domain != CUPTI_CB_DOMAIN_DRIVER_API)
		return;
	if (!((cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart && cb->callbackSite == CUPTI_API_EXIT) ||
	      (cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop && cb->callbackSite == CUPTI_API_ENTER)))
		return;
	pthread_mutex_lock(&st.lock);
	if (st.active && getpid() == st.pid) {
		r.start = cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart;
		r.ts = cupti_ns();
		cap_writer_range(&st.w, &r);
		set_recording(r.start);
		cap_writer_flush(&st.w);
	}
	pthread_mutex_unlock(&st.lock);
}

static void at_exit(void)
{
	struct cap_trailer t = {0};

	pthread_mutex_lock(&st.lock);
	if (!st.active || getpid() != st.pid) {
		pthread_mutex_unlock(&st.lock);
		return;
	}
	set_recording(0);
	cuptiActivityDisable(CUPTI_ACTIVITY_KIND_DEVICE);
	pthread_mutex_unlock(&st.lock);
	/* delivers the remaining buffers through buffer_completed, which takes the lock */
	cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	pthread_mutex_lock(&st.lock);
	t.dropped = st.dropped;
	t.end_ts = cupti_ns();
	t.end_wall_ns = wall_ns();
	cap_writer_finish(&st.w, &t);
	cap_writer_release(&st.w);
	close(st.fd);
	st.fd = -1;
	st.active = 0;
	pthread_mutex_unlock(&st.lock);
}

/* A forked child must not write into its parent's file (CUDA does not survive fork anyway). */
static void after_fork_child(void)
{
	st.active = 0;
	if (st.fd >= 0)
		close(st.fd);
	st.fd = -1;
	pthread_mutex_init(&st.lock, NULL);
}

static int open_record_file(const char *dir)
{
	char path[4096];
	int fd, i;

	for (i = 0; i < 100; i++) {
		if (i)
			snprintf(path, sizeof(path), "%s/%d-%d%s", dir, (int)getpid(), i, CAP_FILE_SUFFIX);
		else
			snprintf(path, sizeof(path), "%s/%d%s", dir, (int)getpid(), CAP_FILE_SUFFIX);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

static void parse_flags(const char *s)
{
	const char *p = s;

	while (p && *p) {
		size_t n = strcspn(p, ",");

		if (n == 4 && !strncmp(p, "nvtx", 4))
			st.flags |= CAP_F_NVTX;
		else if (n == 5 && !strncmp(p, "range", 5))
			st.flags |= CAP_F_RANGE;
		p += n + (p[n] == ',');
	}
}

/* Called by the driver inside cuInit. Returns 1 (success) whatever happens: the program must run on. */
EXPORT int InitializeInjection(void)
{
	const char *dir = getenv(CAP_ENV_DIR);
	struct cap_header h = {0};
	char old[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN + 64] = "";
	CUpti_SubscriberParams sp = {0};
	CUptiResult r;

	pthread_mutex_lock(&st.lock);
	if (st.tried || !dir || !*dir)
		goto out;
	st.tried = 1;
	parse_flags(getenv(CAP_ENV_FLAGS));
	st.fd = open_record_file(dir);
	if (st.fd < 0)
		goto out;
	st.pid = getpid();
	h.pid = (uint32_t)st.pid;
	h.flags = st.flags;
	cuptiGetVersion(&h.cupti_version);
	h.start_ts = cupti_ns();
	h.start_wall_ns = wall_ns();
	cap_writer_open(&st.w, st.fd, &h);
	*(void **)&st.demangle = dlsym(RTLD_DEFAULT, "__cxa_demangle");

	cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
	sp.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
	sp.subscriberName = "xplane-stat";
	sp.oldSubscriberName = old;
	sp.oldSubscriberSize = sizeof(old);
	r = cuptiSubscribe_v2(&st.sub, on_api, NULL, &sp);
	if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
		if (old[0])
			note(1, "CUPTI is already in use by '%s': nothing was recorded", old);
		else
			note(1, "CUPTI is already in use by another tool (Nsight Systems, Nsight Compute, or a "
			     "profiler inside the program such as jax.profiler): nothing was recorded");
		goto give_up;
	}
	if (r != CUPTI_SUCCESS) {
		note(1, "cannot subscribe to CUPTI: %s: nothing was recorded", result_str(r));
		goto give_up;
	}
	r = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
	if (r != CUPTI_SUCCESS) {
		note(1, "cannot register CUPTI activity buffers: %s: nothing was recorded", result_str(r));
		goto give_up;
	}
	cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DEVICE);
	if (st.flags & CAP_F_RANGE) {
		cuptiEnableCallback(1, st.sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
		cuptiEnableCallback(1, st.sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
	} else {
		set_recording(1);
	}
	st.active = 1;
	cap_writer_flush(&st.w);
	pthread_atfork(NULL, NULL, after_fork_child);
	atexit(at_exit);
	goto out;
give_up:
	{
		struct cap_trailer t = {.end_ts = cupti_ns(), .end_wall_ns = wall_ns()};

		cap_writer_finish(&st.w, &t);
		cap_writer_release(&st.w);
	}
	close(st.fd);
	st.fd = -1;
out:
	pthread_mutex_unlock(&st.lock);
	return 1;
}

/* NVTX's injection entry (NVTX_INJECTION64_PATH): handed on to the CUPTI this library uses. */
EXPORT int InitializeInjectionNvtx2(const void *get_export_table)
{
	int (*init)(const void *);
	Dl_info info;
	void *h;

	if (!dladdr((void *)cuptiGetTimestamp, &info) || !info.dli_fname)
		return 0;
	h = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
	if (!h)
		return 0;
	*(void **)&init = dlsym(h, "InitializeInjectionNvtx2");
	return init ? init(get_export_table) : 0;
}

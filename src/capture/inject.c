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
#include <signal.h>
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

/*
 * The activity record structs read here (Kernel10, Memcpy6, MemcpyPtoP4,
 * Memset4, Marker2, Device5, API) are those of CUPTI 13.0 and 13.1; 13.2
 * dropped Kernel10 and Device5. A libcupti outside this range at run time
 * (a JAX wheel ships its own) is refused rather than misread.
 */
#define CUPTI_KNOWN_MIN 130000
#define CUPTI_KNOWN_MAX 130199
#if CUPTI_API_VERSION < CUPTI_KNOWN_MIN || CUPTI_API_VERSION > CUPTI_KNOWN_MAX
#error "the activity records read here are CUPTI 13.0/13.1's: check them against this CUPTI's headers"
#endif
/* CUPTI 13.0.0 can crash in nvtxNameOsThreadA once NVTX is handed to it (NVIDIA/NVTX#125). */
#define CUPTI_NVTX_CRASHES 130000
/* From CUPTI 13.3 several tools may subscribe (13.4's documentation calls one subscriber "legacy"). */
#define CUPTI_MULTI_SUBSCRIBER 130300

/* The activity kinds recorded while recording is on (MARKER and DEVICE are on from the start). */
static const CUpti_ActivityKind kinds[] = {
	CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
	CUPTI_ACTIVITY_KIND_MEMCPY,
	CUPTI_ACTIVITY_KIND_MEMCPY2,
	CUPTI_ACTIVITY_KIND_MEMSET,
	/* launches by the driver outside any public call (cuBLAS, cuDNN): "handle these like driver launches" */
	CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API,
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

/* API calls recorded: those that start device work, for correlation. */
static const char *const driver_prefixes[] = {"cuLaunch", "cuGraphLaunch", "cuMemcpy", "cuMemset"};
static const char *const runtime_prefixes[] = {"cudaLaunch", "cudaGraphLaunch", "cudaMemcpy", "cudaMemset"};

typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);

/* Demangled names by mangled name (CUPTI may reuse a name's storage after a module unloads). */
struct dm_slot {
	uint64_t hash;
	char *name;		/* our copy; NULL: empty slot */
	char *demangled;	/* NULL: could not be demangled */
};

/* The API calls of one domain that the library records, chosen once from CUPTI's names. */
struct api_set {
	CUpti_CallbackDomain domain;
	CUpti_ActivityKind all_kind;	/* the kind that records every call of the domain */
	const char *const *prefixes;
	size_t nprefixes;
	uint32_t size;			/* callback ids below this */
	const char **names;		/* [cbid], CUPTI's constant strings */
	uint32_t *cbids;		/* the chosen ones */
	size_t ncbids;
	int all;			/* the per-call API is unsupported: the whole kind is recorded */
	int told;			/* the calls that could not be chosen were noted */
};

/*
 * Locking: st.lock guards the writer, the demangling cache and active; the
 * buffer callback takes it, possibly on CUPTI's own thread, so no CUPTI
 * function is ever called while it is held (one that waits for that thread
 * would deadlock). st.cfg serialises the configuration calls (enable,
 * disable) and the recording state; no callback of CUPTI's takes it except
 * on_api, which CUPTI calls from the program's own API calls.
 */
static struct {
	pthread_mutex_t lock;
	pthread_mutex_t cfg;
	int tried;		/* InitializeInjection ran in this process */
	int active;		/* set up in this process, trailer not yet written (lock) */
	pid_t pid;
	int fd;
	unsigned flags;		/* CAP_F_* */
	uint32_t version;	/* cuptiGetVersion() */
	struct cap_writer w;
	CUpti_SubscriberHandle sub;
	int recording;		/* cfg */
	int debug;		/* XPLANE_STAT_CAPTURE_DEBUG=1: notes on what was turned on */
	struct api_set driver, runtime;	/* cfg */
	uint64_t dropped;
	demangle_fn demangle;
	struct dm_slot *dm;
	size_t ndm, dmcap;
	/* the periodic flush */
	unsigned flush_ms;
	pthread_t flusher;
	int flusher_on, flusher_stop;
	pthread_mutex_t flock;
	pthread_cond_t fcv;
} st = {
	.lock = PTHREAD_MUTEX_INITIALIZER, .cfg = PTHREAD_MUTEX_INITIALIZER, .fd = -1,
	.flock = PTHREAD_MUTEX_INITIALIZER, .fcv = PTHREAD_COND_INITIALIZER,
	.driver = {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_ACTIVITY_KIND_DRIVER, driver_prefixes,
		   sizeof(driver_prefixes) / sizeof(driver_prefixes[0]), CUPTI_DRIVER_TRACE_CBID_SIZE},
	.runtime = {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_ACTIVITY_KIND_RUNTIME, runtime_prefixes,
		    sizeof(runtime_prefixes) / sizeof(runtime_prefixes[0]), CUPTI_RUNTIME_TRACE_CBID_SIZE},
};

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

/* A note for the user in the record file; takes the lock (the arguments are evaluated before). */
static void note(int warning, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(int warning, const char *fmt, ...)
{
	char text[1024];
	struct cap_note n = {.warning = (uint32_t)warning, .text = text};
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&st.lock);
	if (st.fd >= 0)
		cap_writer_note(&st.w, &n);
	pthread_mutex_unlock(&st.lock);
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return h;
}

/* The demangled form of a kernel name, or NULL; cached by the name's text. The caller holds the lock. */
static const char *demangled(const char *name)
{
	size_t i, mask;
	uint64_t h;
	char *d = NULL, *copy;
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
			for (j = st.dm[i].hash & (cap - 1); n[j].name; j = (j + 1) & (cap - 1))
				;
			n[j] = st.dm[i];
		}
		free(st.dm);
		st.dm = n;
		st.dmcap = cap;
	}
	h = hash_str(name);
	mask = st.dmcap - 1;
	for (i = h & mask; st.dm[i].name; i = (i + 1) & mask)
		if (st.dm[i].hash == h && !strcmp(st.dm[i].name, name))
			return st.dm[i].demangled;
	copy = strdup(name);
	if (!copy)
		return NULL;
	d = st.demangle(name, NULL, NULL, &status);
	if (status) {
		free(d);
		d = NULL;
	}
	st.dm[i].hash = h;
	st.dm[i].name = copy;
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

/* One CUPTI activity record into the record file; the caller holds the lock (no CUPTI call here). */
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
	case CUPTI_ACTIVITY_KIND_DRIVER:
	case CUPTI_ACTIVITY_KIND_RUNTIME:
	case CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API: {
		const CUpti_ActivityAPI *p = (const void *)a;
		struct cap_api r = {
			.start = p->start, .end = p->end, .thread = p->threadId, .correlation = p->correlationId,
			.cbid = p->cbid, .result = p->returnValue, .kind = CAP_API_DRIVER,
		};

		if (a->kind == CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API) {
			/* "the cbid field is not used here" */
			r.kind = CAP_API_INTERNAL;
			r.cbid = 0;
			r.name = "internal launch";
		} else if (a->kind == CUPTI_ACTIVITY_KIND_RUNTIME) {
			r.kind = CAP_API_RUNTIME;
			r.name = p->cbid < st.runtime.size && st.runtime.names ? st.runtime.names[p->cbid] : NULL;
		} else {
			r.name = p->cbid < st.driver.size && st.driver.names ? st.driver.names[p->cbid] : NULL;
		}
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

/* The records of a completed buffer are found without the lock, then written under it. */
static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
				      size_t valid)
{
	CUpti_Activity *a = NULL, **recs = NULL;
	size_t n = 0, cap = 0, i, dropped = 0, lost = 0;

	(void)size;
	while (cuptiActivityGetNextRecord(buffer, valid, &a) == CUPTI_SUCCESS) {
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 1024;
			CUpti_Activity **nr = realloc(recs, nc * sizeof(*nr));

			if (!nr) {
				lost++;
				continue;
			}
			recs = nr;
			cap = nc;
		}
		recs[n++] = a;
	}
	if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) != CUPTI_SUCCESS)
		dropped = 0;
	pthread_mutex_lock(&st.lock);
	if (st.active && getpid() == st.pid) {
		for (i = 0; i < n; i++)
			record(recs[i]);
		if (dropped + lost) {
			st.dropped += dropped + lost;
			cap_writer_dropped(&st.w, dropped + lost);
		}
		/* what reached the file survives the process being killed */
		cap_writer_flush(&st.w);
	}
	pthread_mutex_unlock(&st.lock);
	free(recs);
	free(buffer);
}

/* Whether this process is capturing (a forked child is not). */
static int capturing(void)
{
	int on;

	pthread_mutex_lock(&st.lock);
	on = st.active && getpid() == st.pid;
	pthread_mutex_unlock(&st.lock);
	return on;
}

static int has_prefix(const char *name, const char *const *prefixes, size_t n)
{
	size_t p;

	for (p = 0; p < n; p++)
		if (!strncmp(name, prefixes[p], strlen(prefixes[p])))
			return 1;
	return 0;
}

/* The calls of s's domain whose names start with one of its prefixes, with CUPTI's names. */
static void choose_calls(struct api_set *s)
{
	uint32_t i;

	s->names = calloc(s->size, sizeof(*s->names));
	s->cbids = calloc(s->size, sizeof(*s->cbids));
	if (!s->names || !s->cbids) {
		s->all = 1;	/* every call then: more records, nothing lost */
		return;
	}
	for (i = 1; i < s->size; i++) {
		const char *name = NULL;

		if (cuptiGetCallbackName(s->domain, i, &name) != CUPTI_SUCCESS || !name)
			continue;
		s->names[i] = name;
		if (has_prefix(name, s->prefixes, s->nprefixes))
			s->cbids[s->ncbids++] = i;
	}
}

/*
 * Turns the API records of s's domain on or off, call by call. Only when
 * the per-call API is unsupported (an older CUPTI) is every call of the
 * domain recorded; a call that cannot be turned on is skipped and said.
 */
static void set_api_records(struct api_set *s, int on)
{
	char failed[512] = "";
	size_t i, nfailed = 0, len = 0;
	CUptiResult r, why = CUPTI_SUCCESS;

	if (on && st.debug)
		note(0, "debug: %s calls: %zu chosen of %u%s", s->domain == CUPTI_CB_DOMAIN_DRIVER_API ? "driver" : "runtime",
		     s->ncbids, s->size, s->all ? ", the whole kind recorded" : "");
	for (i = 0; i < s->ncbids && !s->all; i++) {
		r = s->domain == CUPTI_CB_DOMAIN_DRIVER_API ? cuptiActivityEnableDriverApi(s->cbids[i], (uint8_t)on)
							    : cuptiActivityEnableRuntimeApi(s->cbids[i], (uint8_t)on);
		if (on && st.debug && i < 40)
			note(0, "debug: enable %s (%u): %s", s->names[s->cbids[i]], s->cbids[i], result_str(r));
		if (r == CUPTI_ERROR_NOT_SUPPORTED && on && !i) {
			s->all = 1;
		} else if (r != CUPTI_SUCCESS && on) {
			const char *name = s->names[s->cbids[i]];

			why = r;
			if (len + strlen(name) + 3 < sizeof(failed))
				len += (size_t)snprintf(failed + len, sizeof(failed) - len, "%s%s", nfailed ? ", " : "",
							name);
			nfailed++;
		}
	}
	if (s->all) {
		r = on ? cuptiActivityEnable(s->all_kind) : cuptiActivityDisable(s->all_kind);
		if (r != CUPTI_SUCCESS && on && !s->told) {
			s->told = 1;
			note(1, "cannot record %s calls: %s: the kernels, copies and memsets they start have no "
			     "launch record (no thread, time or NVTX names)",
			     s->domain == CUPTI_CB_DOMAIN_DRIVER_API ? "driver" : "runtime", result_str(r));
		}
		return;
	}
	if (nfailed && !s->told) {
		s->told = 1;
		note(1, "cannot record %zu %s call%s (%s): %s: the kernels, copies and memsets they start have "
		     "no launch record (no thread, time or NVTX names)", nfailed,
		     s->domain == CUPTI_CB_DOMAIN_DRIVER_API ? "driver" : "runtime", nfailed == 1 ? "" : "s",
		     failed, result_str(why));
	}
}

/* Turns the activity kinds and API records on or off; the caller holds st.cfg, not st.lock. */
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
	set_api_records(&st.driver, on);
	set_api_records(&st.runtime, on);
}

/*
 * cudaProfilerStart/Stop bound recording with --capture-range: the
 * runtime's callbacks and the driver's (cudaProfilerStart calls
 * cuProfilerStart; whether CUPTI reports both is not documented), on at
 * the exit of a start, off at the entry of a stop; the nested second call
 * changes nothing.
 */
static void CUPTIAPI on_api(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
			    const void *data)
{
	const CUpti_CallbackData *cb = data;
	struct cap_range r;
	int start, stop;

	(void)userdata;
	if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
		start = cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart;
		stop = cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop;
	} else if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
		start = cbid == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000;
		stop = cbid == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000;
	} else {
		return;
	}
	if (!((start && cb->callbackSite == CUPTI_API_EXIT) || (stop && cb->callbackSite == CUPTI_API_ENTER)))
		return;
	r.start = (uint32_t)start;
	r.ts = cupti_ns();
	pthread_mutex_lock(&st.cfg);
	if (st.recording != start && capturing()) {
		set_recording(start);
		pthread_mutex_lock(&st.lock);
		cap_writer_range(&st.w, &r);
		cap_writer_flush(&st.w);
		pthread_mutex_unlock(&st.lock);
	}
	pthread_mutex_unlock(&st.cfg);
}

/*
 * The periodic flush: CUPTI hands a buffer back only when it is full or
 * flushed, so without this a process killed mid-run (SIGTERM, a timeout,
 * _exit) would leave nothing of its last buffer, 8 MiB of records.
 */
static void *flush_loop(void *arg)
{
	struct timespec until;

	(void)arg;
	pthread_mutex_lock(&st.flock);
	while (!st.flusher_stop) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += st.flush_ms / 1000;
		until.tv_nsec += (long)(st.flush_ms % 1000) * 1000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		while (!st.flusher_stop && pthread_cond_timedwait(&st.fcv, &st.flock, &until) != ETIMEDOUT)
			;
		if (st.flusher_stop)
			break;
		pthread_mutex_unlock(&st.flock);
		/* complete buffers only, full or not: records still being filled in stay with CUPTI */
		cuptiActivityFlushAll(0);
		pthread_mutex_lock(&st.flock);
	}
	pthread_mutex_unlock(&st.flock);
	return NULL;
}

static void start_flusher(void)
{
	sigset_t all, old;

	if (!st.flush_ms)
		return;
	/* the program's signals stay with the program's threads */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	st.flusher_on = !pthread_create(&st.flusher, NULL, flush_loop, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!st.flusher_on) {
		note(1, "cannot start the thread that flushes CUPTI's buffers every %u ms: if the process is "
		     "killed, what CUPTI had not handed over is lost", st.flush_ms);
		st.flush_ms = 0;
	}
}

static void stop_flusher(void)
{
	if (!st.flusher_on)
		return;
	pthread_mutex_lock(&st.flock);
	st.flusher_stop = 1;
	pthread_cond_signal(&st.fcv);
	pthread_mutex_unlock(&st.flock);
	pthread_join(st.flusher, NULL);
	st.flusher_on = 0;
}

static void at_exit(void)
{
	struct cap_trailer t = {0};

	if (!capturing())
		return;
	stop_flusher();
	pthread_mutex_lock(&st.cfg);
	set_recording(0);
	if (st.flags & CAP_F_NVTX)
		cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MARKER);
	cuptiActivityDisable(CUPTI_ACTIVITY_KIND_DEVICE);
	pthread_mutex_unlock(&st.cfg);
	/* delivers the remaining buffers, kernels still running with zero timestamps (the converter counts them) */
	cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	t.end_ts = cupti_ns();
	t.end_wall_ns = wall_ns();
	pthread_mutex_lock(&st.lock);
	t.dropped = st.dropped;
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
	st.flusher_on = 0;
	if (st.fd >= 0)
		close(st.fd);
	st.fd = -1;
	pthread_mutex_init(&st.lock, NULL);
	pthread_mutex_init(&st.cfg, NULL);
	pthread_mutex_init(&st.flock, NULL);
	pthread_cond_init(&st.fcv, NULL);
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

static unsigned parse_flush_ms(const char *s)
{
	char *end;
	unsigned long v;

	if (!s || !*s)
		return CAP_FLUSH_MS_DEFAULT;
	v = strtoul(s, &end, 10);
	return *end || v > 3600000 ? CAP_FLUSH_MS_DEFAULT : (unsigned)v;
}

/* Where the libcupti in use lies, for messages. */
static const char *cupti_path(void)
{
	Dl_info info;

	if (dladdr((void *)cuptiGetVersion, &info) && info.dli_fname)
		return info.dli_fname;
	return "libcupti.so.13";
}

/* Whether the libcupti loaded is one whose records this library reads; a note says why not. */
static int version_known(uint32_t v)
{
	if (v >= CUPTI_KNOWN_MIN && v <= CUPTI_KNOWN_MAX)
		return 1;
	note(1, "the CUPTI loaded ('%s', version %u: CUDA %u.%u) is not one whose activity records this "
	     "capture library reads (built with CUPTI %u, reads %u to %u): nothing was recorded, rather than "
	     "records misread; put the directory of a libcupti.so.13 of CUDA 13.0 or 13.1 first in "
	     "LD_LIBRARY_PATH, or build xplane-stat against this CUDA%s", cupti_path(), v, v / 10000,
	     v / 100 % 100, (unsigned)CUPTI_API_VERSION, CUPTI_KNOWN_MIN, CUPTI_KNOWN_MAX,
	     v >= CUPTI_MULTI_SUBSCRIBER ? " (this CUPTI lets several tools subscribe: a profiler inside the "
					   "program, such as jax.profiler, still records)" : "");
	return 0;
}

/* Called by the driver inside cuInit. Returns 1 (success) whatever happens: the program must run on. */
EXPORT int InitializeInjection(void)
{
	const char *dir = getenv(CAP_ENV_DIR);
	struct cap_header h = {0};
	char old[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN + 64] = "";
	CUpti_SubscriberParams sp = {0};
	CUptiResult r;
	int fd;

	pthread_mutex_lock(&st.lock);
	if (st.tried || !dir || !*dir) {
		pthread_mutex_unlock(&st.lock);
		return 1;
	}
	st.tried = 1;
	pthread_mutex_unlock(&st.lock);

	/* CUPTI is asked first, the lock taken after: no CUPTI call is made under it */
	parse_flags(getenv(CAP_ENV_FLAGS));
	st.debug = getenv(CAP_ENV_DEBUG) && !strcmp(getenv(CAP_ENV_DEBUG), "1");
	st.flush_ms = parse_flush_ms(getenv(CAP_ENV_FLUSH));
	cuptiGetVersion(&st.version);
	h.pid = (uint32_t)getpid();
	h.flags = st.flags;
	h.cupti_version = st.version;
	h.flush_ms = st.flush_ms;
	h.start_ts = cupti_ns();
	h.start_wall_ns = wall_ns();
	fd = open_record_file(dir);
	if (fd < 0)
		return 1;
	pthread_mutex_lock(&st.lock);
	st.fd = fd;
	st.pid = getpid();
	cap_writer_open(&st.w, st.fd, &h);
	*(void **)&st.demangle = dlsym(RTLD_DEFAULT, "__cxa_demangle");
	pthread_mutex_unlock(&st.lock);

	if (!version_known(st.version))
		goto give_up;
	if ((st.flags & CAP_F_NVTX) && st.version == CUPTI_NVTX_CRASHES)
		note(1, "CUPTI 13.0.0 (version %u) can crash in nvtxNameOsThreadA when NVTX is handed to it "
		     "(NVIDIA/NVTX#125): --nvtx was declined, no NVTX range was recorded; use the CUPTI of CUDA "
		     "13.0 Update 1 or later for --nvtx", st.version);
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
	/* a CUPTI that allows several subscribers names the first one, and lets us in */
	if (old[0] && strcmp(old, "xplane-stat"))
		note(1, "CUPTI is also in use by '%s' (this CUPTI lets several tools subscribe): if that tool "
		     "finalizes CUPTI before the program ends, what follows is not recorded", old);
	pthread_mutex_lock(&st.lock);
	st.active = 1;	/* before the first buffer can come back */
	pthread_mutex_unlock(&st.lock);
	r = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
	if (r != CUPTI_SUCCESS) {
		note(1, "cannot register CUPTI activity buffers: %s: nothing was recorded", result_str(r));
		pthread_mutex_lock(&st.lock);
		st.active = 0;
		pthread_mutex_unlock(&st.lock);
		goto give_up;
	}
	pthread_mutex_lock(&st.cfg);
	choose_calls(&st.driver);
	choose_calls(&st.runtime);
	/*
	 * Runtime calls are recorded as a whole kind: on an H200 with CUPTI
	 * 13.0 (CAPTURE.md), cuptiActivityEnableRuntimeApi answered success
	 * for every launch call and no runtime record ever came, so kernels
	 * launched through the runtime (cuBLAS's GEMMs in JAX, any
	 * cudaLaunchKernel) had no launch record and no function. The
	 * driver's per-call records did come.
	 */
	st.runtime.all = 1;
	if (getenv(CAP_ENV_API) && !strcmp(getenv(CAP_ENV_API), "all"))
		st.driver.all = 1;
	/* device records are made at the driver's initialisation, which may precede this call: dump them */
	r = cuptiActivityEnableAndDump(CUPTI_ACTIVITY_KIND_DEVICE);
	if (r != CUPTI_SUCCESS)
		note(1, "cannot record the devices' facts: %s: the device planes have no name, clock or memory "
		     "stats", result_str(r));
	/*
	 * NVTX from the start, with --capture-range too: names registered
	 * before cudaProfilerStart (nvtxDomainRegisterStringA) are known to
	 * CUPTI only if it records markers then; the converter keeps the
	 * ranges that meet a recording range.
	 */
	if ((st.flags & CAP_F_NVTX) && st.version != CUPTI_NVTX_CRASHES) {
		r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MARKER);
		if (r != CUPTI_SUCCESS)
			note(1, "cannot record NVTX ranges: %s", result_str(r));
	}
	if (st.flags & CAP_F_RANGE) {
		cuptiEnableCallback(1, st.sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
		cuptiEnableCallback(1, st.sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
		cuptiEnableCallback(1, st.sub, CUPTI_CB_DOMAIN_RUNTIME_API,
				    CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000);
		cuptiEnableCallback(1, st.sub, CUPTI_CB_DOMAIN_RUNTIME_API,
				    CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000);
	} else {
		set_recording(1);
	}
	pthread_mutex_unlock(&st.cfg);
	start_flusher();
	pthread_mutex_lock(&st.lock);
	cap_writer_flush(&st.w);
	pthread_mutex_unlock(&st.lock);
	pthread_atfork(NULL, NULL, after_fork_child);
	atexit(at_exit);
	return 1;
give_up:
	{
		struct cap_trailer t = {.end_ts = cupti_ns(), .end_wall_ns = wall_ns()};

		pthread_mutex_lock(&st.lock);
		cap_writer_finish(&st.w, &t);
		cap_writer_release(&st.w);
		close(st.fd);
		st.fd = -1;
		pthread_mutex_unlock(&st.lock);
	}
	return 1;
}

/*
 * NVTX's injection entry (NVTX_INJECTION64_PATH): handed on to the CUPTI
 * this library uses, except a CUPTI known to crash there (the note is
 * written by InitializeInjection, which may come later).
 */
EXPORT int InitializeInjectionNvtx2(const void *get_export_table)
{
	int (*init)(const void *);
	uint32_t v = 0;
	Dl_info info;
	void *h;

	if (cuptiGetVersion(&v) == CUPTI_SUCCESS && v == CUPTI_NVTX_CRASHES)
		return 0;
	if (!dladdr((void *)cuptiGetTimestamp, &info) || !info.dli_fname)
		return 0;
	h = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
	if (!h)
		return 0;
	*(void **)&init = dlsym(h, "InitializeInjectionNvtx2");
	return init ? init(get_export_table) : 0;
}

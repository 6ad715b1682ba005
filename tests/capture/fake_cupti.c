/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A fake libcupti.so.13 for the capture tests: the part of CUPTI's API the
 * injection library uses, over activity records a test program makes up
 * (through the fake_cupti_* hooks below) instead of a GPU. Built with
 * CUPTI's own headers, so the records have the real layouts.
 *
 * It behaves as the headers say the real library does, and where they
 * leave room, as badly as they allow:
 *
 *  - records are kept only for the kinds, driver and runtime calls the
 *    client turned on, in buffers its callbacks hand out;
 *  - a buffer goes back to the client from the fake's own worker thread,
 *    and only when it is full or flushed (cupti_activity.h: periodic flush
 *    returns only full buffers; cuptiActivityFlushAll(0) returns those
 *    whose records are all complete, FLUSH_FORCED every one);
 *  - a kernel still running (fake_cupti_kernel_running) is an incomplete
 *    record: its buffer comes back only with a forced flush, with zero
 *    timestamps;
 *  - the enable and disable calls wait for the worker to hand back the
 *    buffer being filled (the headers do not say they do not): a client
 *    that holds, around them, a lock its buffer callback takes deadlocks,
 *    which the fake reports (exit 97) after 10 s instead of hanging;
 *  - device records are made when a device is registered (the driver's
 *    initialisation), and only if DEVICE is enabled then, or later by
 *    cuptiActivityEnableAndDump(DEVICE);
 *  - an NVTX string registered while MARKER is off has no name later;
 *  - a second subscriber is refused with the first one's name.
 *
 * Environment: FAKE_CUPTI_BUSY=NAME makes subscribing fail as when another
 * tool holds CUPTI; FAKE_CUPTI_SHARED=NAME lets it succeed beside NAME (a
 * CUPTI with several subscribers); FAKE_CUPTI_NO_DRIVER_API=1 makes the
 * per-call cuptiActivityEnableDriverApi/RuntimeApi unsupported (an older
 * CUPTI); FAKE_CUPTI_FAIL_CBID=N makes enabling driver call N fail;
 * FAKE_CUPTI_RUNTIME_PER_CALL_SILENT=1 makes cuptiActivityEnableRuntimeApi
 * answer success and record nothing (what CUPTI 13.0 did on an H200,
 * CAPTURE.md); FAKE_CUPTI_NO_API_RECORDS=1 makes no API call recorded at
 * all; FAKE_CUPTI_VERSION=V is what cuptiGetVersion says.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cupti.h>

#define BUFSZ_MIN 4096
#define MAX_DEVICES 8
#define MAX_STRINGS 64
#define DEADLOCK_S 10

enum { DOM_DRIVER, DOM_RUNTIME, DOM_INTERNAL };

/* A client buffer: being filled, waiting for the worker, or held back (incomplete records). */
struct fbuf {
	uint8_t *p;
	size_t size, used;
	int incomplete;		/* records still running */
	struct fbuf *next;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_cv = PTHREAD_COND_INITIALIZER, done_cv = PTHREAD_COND_INITIALIZER;
static pthread_t worker;
static int worker_started, delivering;
static struct fbuf *cur, *queue, *held;
static unsigned long delivered;

static uint64_t now_ns = 2000000000ull;
static CUpti_CallbackFunc subscriber;
static void *subscriber_data;
static int subscribed;
static unsigned char cb_enabled[2][CUPTI_DRIVER_TRACE_CBID_SIZE];	/* [driver, runtime][cbid] */
static unsigned char kind_enabled[64];
static unsigned char api_enabled[CUPTI_DRIVER_TRACE_CBID_SIZE];
static unsigned char rt_enabled[CUPTI_RUNTIME_TRACE_CBID_SIZE];
static CUpti_BuffersCallbackRequestFunc req_fn;
static CUpti_BuffersCallbackCompleteFunc done_fn;
static size_t dropped;

static struct {
	uint32_t id;
	const char *name;
} devices[MAX_DEVICES];
static size_t ndevices;

static struct {
	uint64_t handle;
	const char *name;	/* NULL: registered while MARKER was off */
} strings[MAX_STRINGS];
static size_t nstrings;

static const struct {
	int dom;
	uint32_t cbid;
	const char *name;
} names[] = {
	{DOM_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuEventQuery, "cuEventQuery"},
	{DOM_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuStreamQuery, "cuStreamQuery"},
	{DOM_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async, "cuMemsetD32Async"},
	{DOM_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v2, "cuCtxCreate_v2"},
	{DOM_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2, "cuMemcpyHtoDAsync_v2"},
	{DOM_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, "cuLaunchKernel"},
	{DOM_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart, "cuProfilerStart"},
	{DOM_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop, "cuProfilerStop"},
	{DOM_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, "cuGraphLaunch"},
	{DOM_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, "cuLaunchKernelEx"},
	{DOM_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, "cudaMemcpyAsync_v3020"},
	{DOM_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020, "cudaMemsetAsync_v3020"},
	{DOM_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, "cudaStreamSynchronize_v3020"},
	{DOM_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000, "cudaProfilerStart_v4000"},
	{DOM_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000, "cudaProfilerStop_v4000"},
	{DOM_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, "cudaLaunchKernel_v7000"},
	{DOM_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, "cudaGraphLaunch_v10000"},
};

static int env_is(const char *name, const char *v)
{
	const char *s = getenv(name);

	return s && !strcmp(s, v);
}

/* Names handed out in records live as long as the process, as CUPTI's do (and stay reachable). */
static char **kept;
static size_t nkept, capkept;

static const char *keep(const char *s)
{
	char *d;

	if (!s)
		return NULL;
	if (nkept == capkept) {
		size_t cap = capkept ? capkept * 2 : 64;
		char **n = realloc(kept, cap * sizeof(*n));

		if (!n)
			return NULL;
		kept = n;
		capkept = cap;
	}
	d = strdup(s);
	if (d)
		kept[nkept++] = d;
	return d;
}

static size_t record_size(CUpti_ActivityKind k)
{
	switch (k) {
	case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: return sizeof(CUpti_ActivityKernel10);
	case CUPTI_ACTIVITY_KIND_MEMCPY: return sizeof(CUpti_ActivityMemcpy6);
	case CUPTI_ACTIVITY_KIND_MEMCPY2: return sizeof(CUpti_ActivityMemcpyPtoP4);
	case CUPTI_ACTIVITY_KIND_MEMSET: return sizeof(CUpti_ActivityMemset4);
	case CUPTI_ACTIVITY_KIND_DRIVER:
	case CUPTI_ACTIVITY_KIND_RUNTIME:
	case CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API: return sizeof(CUpti_ActivityAPI);
	case CUPTI_ACTIVITY_KIND_MARKER: return sizeof(CUpti_ActivityMarker2);
	case CUPTI_ACTIVITY_KIND_DEVICE: return sizeof(CUpti_ActivityDevice5);
	default: return 0;
	}
}

static size_t aligned(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* --- the worker ------------------------------------------------------------------------ */

static void push(struct fbuf **list, struct fbuf *b)
{
	while (*list)
		list = &(*list)->next;
	b->next = NULL;
	*list = b;
}

static void *work(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mu);
	for (;;) {
		struct fbuf *b;

		while (!queue)
			pthread_cond_wait(&work_cv, &mu);
		b = queue;
		queue = b->next;
		delivering = 1;
		pthread_mutex_unlock(&mu);
		done_fn(NULL, 0, b->p, b->size, b->used);
		free(b);
		pthread_mutex_lock(&mu);
		delivering = 0;
		delivered++;
		pthread_cond_broadcast(&done_cv);
	}
	return NULL;
}

/* Hands b to the worker (mu held); a buffer with a record still running waits for a forced flush. */
static void hand_over(struct fbuf *b)
{
	push(b->incomplete ? &held : &queue, b);
	pthread_cond_signal(&work_cv);
}

/* Waits (mu held) until the worker has delivered everything handed to it. */
static void wait_worker(void)
{
	struct timespec until;

	if (!worker_started || pthread_equal(pthread_self(), worker))
		return;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += DEADLOCK_S;
	while (queue || delivering) {
		if (pthread_cond_timedwait(&done_cv, &mu, &until) == ETIMEDOUT) {
			fprintf(stderr, "fake_cupti: deadlock: the worker has been inside the client's buffer "
				"callback for %d s while a CUPTI call waits for it\n", DEADLOCK_S);
			_exit(97);
		}
	}
}

/*
 * What the enable and disable calls do here: hand the buffer being filled
 * to the worker, if its records are complete, and wait for it.
 */
static void settle(void)
{
	pthread_mutex_lock(&mu);
	if (cur && cur->used && !cur->incomplete) {
		hand_over(cur);
		cur = NULL;
	}
	wait_worker();
	pthread_mutex_unlock(&mu);
}

/* Asks the client for a buffer to fill (mu held); cur stays NULL when it gives none. */
static void new_buffer(void)
{
	size_t max = 0;

	if (!req_fn || !(cur = calloc(1, sizeof(*cur))))
		return;
	req_fn(&cur->p, &cur->size, &max);
	if (!cur->p || cur->size < BUFSZ_MIN) {
		free(cur->p);
		free(cur);
		cur = NULL;
	}
}

/* Room for a record of kind k in a client buffer (mu held), or NULL (counted as dropped). */
static void *slot(CUpti_ActivityKind k)
{
	size_t n = aligned(record_size(k));
	void *p;

	if (cur && cur->used + n > cur->size) {
		hand_over(cur);
		cur = NULL;
	}
	if (!cur)
		new_buffer();
	if (!cur) {
		dropped++;
		return NULL;
	}
	p = cur->p + cur->used;
	memset(p, 0, n);
	cur->used += n;
	((CUpti_Activity *)p)->kind = k;
	return p;
}

/* --- the hooks a test program calls ---------------------------------------------------- */

void fake_cupti_set_time(uint64_t ns)
{
	now_ns = ns;
}

static void device_record(uint32_t id, const char *name)
{
	CUpti_ActivityDevice5 *d = slot(CUPTI_ACTIVITY_KIND_DEVICE);

	if (!d)
		return;
	d->id = id;
	d->name = name;
	d->computeCapabilityMajor = 9;
	d->computeCapabilityMinor = 0;
	d->numMultiprocessors = 132;
	d->coreClockRate = 1980000;
	d->globalMemorySize = 85520809984ull;
	d->globalMemoryBandwidth = 3352320000ull;	/* kB/s */
	d->numThreadsPerWarp = 32;
	d->maxWarpsPerMultiprocessor = 64;
	d->maxBlocksPerMultiprocessor = 32;
	d->maxThreadsPerBlock = 1024;
	d->maxRegistersPerMultiprocessor = 65536;
	d->maxRegistersPerBlock = 65536;
	d->maxSharedMemoryPerMultiprocessor = 233472;
	d->maxSharedMemoryPerBlock = 49152;
}

/* The driver initialises a device: its record is made now, if DEVICE is enabled. */
void fake_cupti_device(uint32_t id, const char *name)
{
	pthread_mutex_lock(&mu);
	if (ndevices < MAX_DEVICES) {
		devices[ndevices].id = id;
		devices[ndevices].name = keep(name);
		if (kind_enabled[CUPTI_ACTIVITY_KIND_DEVICE])
			device_record(id, devices[ndevices].name);
		ndevices++;
	}
	pthread_mutex_unlock(&mu);
}

static CUpti_ActivityKernel10 *kernel_record(uint32_t dev, uint32_t stream, uint32_t corr, const char *name)
{
	CUpti_ActivityKernel10 *k;

	if (!kind_enabled[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL] || !(k = slot(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)))
		return NULL;
	k->deviceId = dev;
	k->contextId = 1;
	k->streamId = stream;
	k->correlationId = corr;
	k->name = name;
	k->gridX = 108;
	k->gridY = k->gridZ = 1;
	k->blockX = 128;
	k->blockY = k->blockZ = 1;
	k->registersPerThread = 32;
	return k;
}

void fake_cupti_kernel(uint32_t dev, uint32_t stream, uint32_t corr, const char *name, uint64_t start,
		       uint64_t end)
{
	CUpti_ActivityKernel10 *k;

	pthread_mutex_lock(&mu);
	k = kernel_record(dev, stream, corr, keep(name));
	if (k) {
		k->start = start;
		k->end = end;
	}
	pthread_mutex_unlock(&mu);
}

/* A kernel whose name lives in storage the "driver" reuses (a module unloaded and another loaded). */
void fake_cupti_kernel_reused_name(uint32_t dev, uint32_t stream, uint32_t corr, const char *name,
				   uint64_t start, uint64_t end)
{
	static char reused[256];
	CUpti_ActivityKernel10 *k;

	pthread_mutex_lock(&mu);
	snprintf(reused, sizeof(reused), "%s", name);
	k = kernel_record(dev, stream, corr, reused);
	if (k) {
		k->start = start;
		k->end = end;
	}
	pthread_mutex_unlock(&mu);
}

/* A kernel still running: an incomplete record, zero timestamps after a forced flush. */
void fake_cupti_kernel_running(uint32_t dev, uint32_t stream, uint32_t corr, const char *name)
{
	pthread_mutex_lock(&mu);
	if (kernel_record(dev, stream, corr, keep(name)))
		cur->incomplete++;
	pthread_mutex_unlock(&mu);
}

/* The fields a copy's and a set's records share, under the same names. */
#define FILL_TRANSFER(m, dev, stream, corr, nbytes, t0, t1)                               \
	do {                                                                              \
		(m)->bytes = (nbytes);                                                    \
		(m)->start = (t0);                                                        \
		(m)->end = (t1);                                                          \
		(m)->deviceId = (dev);                                                    \
		(m)->contextId = 1;                                                       \
		(m)->streamId = (stream);                                                 \
		(m)->correlationId = (corr);                                              \
	} while (0)

void fake_cupti_memcpy(uint32_t dev, uint32_t stream, uint32_t corr, uint8_t kind, uint64_t bytes,
		       uint64_t start, uint64_t end)
{
	CUpti_ActivityMemcpy6 *m;

	pthread_mutex_lock(&mu);
	if (kind_enabled[CUPTI_ACTIVITY_KIND_MEMCPY] && (m = slot(CUPTI_ACTIVITY_KIND_MEMCPY))) {
		m->copyKind = kind;
		m->srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
		m->dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
		m->flags = CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC;
		FILL_TRANSFER(m, dev, stream, corr, bytes, start, end);
	}
	pthread_mutex_unlock(&mu);
}

void fake_cupti_memset(uint32_t dev, uint32_t stream, uint32_t corr, uint64_t bytes, uint64_t start,
		       uint64_t end)
{
	CUpti_ActivityMemset4 *m;

	pthread_mutex_lock(&mu);
	if (kind_enabled[CUPTI_ACTIVITY_KIND_MEMSET] && (m = slot(CUPTI_ACTIVITY_KIND_MEMSET))) {
		FILL_TRANSFER(m, dev, stream, corr, bytes, start, end);
		m->memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
	}
	pthread_mutex_unlock(&mu);
}

static void api_record(int dom, uint32_t cbid, uint32_t tid, uint32_t corr, uint64_t start, uint64_t end)
{
	static const CUpti_ActivityKind kinds[] = {CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_ACTIVITY_KIND_RUNTIME,
						   CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API};
	CUpti_ActivityAPI *a;
	int on;

	if (env_is("FAKE_CUPTI_NO_API_RECORDS", "1"))
		return;
	pthread_mutex_lock(&mu);
	on = kind_enabled[kinds[dom]];
	if (dom == DOM_DRIVER && cbid < CUPTI_DRIVER_TRACE_CBID_SIZE)
		on |= api_enabled[cbid];
	if (dom == DOM_RUNTIME && cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE)
		on |= rt_enabled[cbid];
	if (on && (a = slot(kinds[dom]))) {
		a->cbid = dom == DOM_INTERNAL ? 0 : cbid;	/* "the cbid field is not used here" */
		a->start = start;
		a->end = end;
		a->processId = 1;
		a->threadId = tid;
		a->correlationId = corr;
	}
	pthread_mutex_unlock(&mu);
}

/* A driver call's activity record. */
void fake_cupti_api(uint32_t cbid, uint32_t tid, uint32_t corr, uint64_t start, uint64_t end)
{
	api_record(DOM_DRIVER, cbid, tid, corr, start, end);
}

/* A runtime call's activity record. */
void fake_cupti_runtime_api(uint32_t cbid, uint32_t tid, uint32_t corr, uint64_t start, uint64_t end)
{
	api_record(DOM_RUNTIME, cbid, tid, corr, start, end);
}

/* A launch the driver makes outside any public call (cuBLAS, cuDNN). */
void fake_cupti_internal_launch(uint32_t tid, uint32_t corr, uint64_t start, uint64_t end)
{
	api_record(DOM_INTERNAL, 0, tid, corr, start, end);
}

static void marker_record(uint32_t flags, uint32_t id, uint32_t tid, const char *name, const char *domain,
			  uint64_t ts)
{
	CUpti_ActivityMarker2 *m;

	if (!kind_enabled[CUPTI_ACTIVITY_KIND_MARKER] || !(m = slot(CUPTI_ACTIVITY_KIND_MARKER)))
		return;
	m->flags = (CUpti_ActivityFlag)flags;
	m->timestamp = ts;
	m->id = id;
	m->objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
	m->objectId.pt.processId = 1;
	m->objectId.pt.threadId = tid;
	m->name = name;
	m->domain = keep(domain);
}

void fake_cupti_marker(uint32_t flags, uint32_t id, uint32_t tid, const char *name, const char *domain,
		       uint64_t ts)
{
	pthread_mutex_lock(&mu);
	marker_record(flags, id, tid, keep(name), domain, ts);
	pthread_mutex_unlock(&mu);
}

/* nvtxDomainRegisterStringA: the name is known to CUPTI only if MARKER is enabled now. */
void fake_cupti_register_string(uint64_t handle, const char *name)
{
	pthread_mutex_lock(&mu);
	if (nstrings < MAX_STRINGS) {
		strings[nstrings].handle = handle;
		strings[nstrings].name = kind_enabled[CUPTI_ACTIVITY_KIND_MARKER] ? keep(name) : NULL;
		nstrings++;
	}
	pthread_mutex_unlock(&mu);
}

/* A range start or mark whose message is a registered string. */
void fake_cupti_marker_registered(uint32_t flags, uint32_t id, uint32_t tid, uint64_t handle,
				  const char *domain, uint64_t ts)
{
	const char *name = NULL;
	size_t i;

	pthread_mutex_lock(&mu);
	for (i = 0; i < nstrings; i++)
		if (strings[i].handle == handle)
			name = strings[i].name;
	marker_record(flags, id, tid, name, domain, ts);
	pthread_mutex_unlock(&mu);
}

static void callback(int dom, uint32_t cbid, CUpti_ApiCallbackSite site)
{
	CUpti_CallbackData d;

	if (!subscribed || !subscriber || cbid >= CUPTI_DRIVER_TRACE_CBID_SIZE || !cb_enabled[dom][cbid])
		return;
	memset(&d, 0, sizeof(d));
	d.callbackSite = site;
	subscriber(subscriber_data, dom == DOM_DRIVER ? CUPTI_CB_DOMAIN_DRIVER_API : CUPTI_CB_DOMAIN_RUNTIME_API,
		   cbid, &d);
}

/* A driver call's callbacks (enter, then exit), as the subscriber asked for them. */
void fake_cupti_call(uint32_t cbid)
{
	callback(DOM_DRIVER, cbid, CUPTI_API_ENTER);
	callback(DOM_DRIVER, cbid, CUPTI_API_EXIT);
}

/* A runtime call's callbacks, around those of the driver call it makes (driver_cbid; 0: none seen). */
void fake_cupti_runtime_call(uint32_t cbid, uint32_t driver_cbid)
{
	callback(DOM_RUNTIME, cbid, CUPTI_API_ENTER);
	if (driver_cbid)
		fake_cupti_call(driver_cbid);
	callback(DOM_RUNTIME, cbid, CUPTI_API_EXIT);
}

void fake_cupti_drop(size_t n)
{
	pthread_mutex_lock(&mu);
	dropped += n;
	pthread_mutex_unlock(&mu);
}

/* Waits up to ms for every record made so far to reach the client; 0 when they did. */
int fake_cupti_wait_delivered(int ms)
{
	struct timespec until;
	int r = 0;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (long)(ms % 1000) * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&mu);
	while ((cur && cur->used) || queue || held || delivering)
		if ((r = pthread_cond_timedwait(&done_cv, &mu, &until)) == ETIMEDOUT)
			break;
	pthread_mutex_unlock(&mu);
	return r == ETIMEDOUT ? -1 : 0;
}

/* --- CUPTI ------------------------------------------------------------------------------ */

CUptiResult cuptiGetTimestamp(uint64_t *t)
{
	*t = now_ns;
	return CUPTI_SUCCESS;
}

CUptiResult cuptiGetVersion(uint32_t *v)
{
	const char *s = getenv("FAKE_CUPTI_VERSION");

	*v = s && *s ? (uint32_t)strtoul(s, NULL, 10) : CUPTI_API_VERSION;
	return CUPTI_SUCCESS;
}

CUptiResult cuptiGetResultString(CUptiResult r, const char **s)
{
	switch (r) {
	case CUPTI_ERROR_NOT_SUPPORTED: *s = "CUPTI_ERROR_NOT_SUPPORTED"; break;
	case CUPTI_ERROR_INVALID_PARAMETER: *s = "CUPTI_ERROR_INVALID_PARAMETER"; break;
	default: *s = "CUPTI_ERROR_UNKNOWN"; break;
	}
	return CUPTI_SUCCESS;
}

CUptiResult cuptiSetThreadIdType(CUpti_ActivityThreadIdType t)
{
	return t == CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM ? CUPTI_SUCCESS : CUPTI_ERROR_INVALID_PARAMETER;
}

static void old_name(CUpti_SubscriberParams *p, const char *name)
{
	if (p && p->oldSubscriberName && p->oldSubscriberSize) {
		strncpy(p->oldSubscriberName, name, p->oldSubscriberSize - 1);
		p->oldSubscriberName[p->oldSubscriberSize - 1] = 0;
	}
}

static char first_name[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN];

CUptiResult cuptiSubscribe_v2(CUpti_SubscriberHandle *sub, CUpti_CallbackFunc fn, void *data,
			      CUpti_SubscriberParams *p)
{
	const char *busy = getenv("FAKE_CUPTI_BUSY"), *shared = getenv("FAKE_CUPTI_SHARED");

	if (busy && *busy) {
		old_name(p, busy);
		return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
	}
	if (subscribed) {
		old_name(p, first_name);
		return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
	}
	/* several subscribers allowed: the first one's name, and success */
	if (shared && *shared)
		old_name(p, shared);
	snprintf(first_name, sizeof(first_name), "%s", p && p->subscriberName ? p->subscriberName : "");
	subscribed = 1;
	subscriber = fn;
	subscriber_data = data;
	*sub = (CUpti_SubscriberHandle)&subscribed;
	return CUPTI_SUCCESS;
}

CUptiResult cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle sub, CUpti_CallbackDomain domain,
				CUpti_CallbackId cbid)
{
	(void)sub;
	if ((domain != CUPTI_CB_DOMAIN_DRIVER_API && domain != CUPTI_CB_DOMAIN_RUNTIME_API) ||
	    cbid >= CUPTI_DRIVER_TRACE_CBID_SIZE)
		return CUPTI_ERROR_INVALID_PARAMETER;
	cb_enabled[domain == CUPTI_CB_DOMAIN_RUNTIME_API][cbid] = enable != 0;
	return CUPTI_SUCCESS;
}

CUptiResult cuptiGetCallbackName(CUpti_CallbackDomain domain, uint32_t cbid, const char **name)
{
	int dom = domain == CUPTI_CB_DOMAIN_DRIVER_API ? DOM_DRIVER : DOM_RUNTIME;
	size_t i;

	*name = NULL;
	if (domain != CUPTI_CB_DOMAIN_DRIVER_API && domain != CUPTI_CB_DOMAIN_RUNTIME_API)
		return CUPTI_ERROR_INVALID_PARAMETER;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (names[i].dom == dom && names[i].cbid == cbid) {
			*name = names[i].name;
			return CUPTI_SUCCESS;
		}
	}
	return CUPTI_ERROR_INVALID_PARAMETER;
}

CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc req,
					   CUpti_BuffersCallbackCompleteFunc done)
{
	if (!req || !done)
		return CUPTI_ERROR_INVALID_PARAMETER;
	pthread_mutex_lock(&mu);
	req_fn = req;
	done_fn = done;
	if (!worker_started && !pthread_create(&worker, NULL, work, NULL))
		worker_started = 1;
	pthread_mutex_unlock(&mu);
	return worker_started ? CUPTI_SUCCESS : CUPTI_ERROR_UNKNOWN;
}

static CUptiResult set_kind(CUpti_ActivityKind k, int on)
{
	if ((unsigned)k >= sizeof(kind_enabled) || !record_size(k))
		return on ? CUPTI_ERROR_NOT_SUPPORTED : CUPTI_ERROR_INVALID_KIND;
	settle();
	pthread_mutex_lock(&mu);
	kind_enabled[k] = (unsigned char)on;
	pthread_mutex_unlock(&mu);
	return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityEnable(CUpti_ActivityKind k)
{
	return set_kind(k, 1);
}

CUptiResult cuptiActivityDisable(CUpti_ActivityKind k)
{
	return set_kind(k, 0);
}

CUptiResult cuptiActivityEnableAndDump(CUpti_ActivityKind k)
{
	CUptiResult r = set_kind(k, 1);
	size_t i;

	if (r == CUPTI_SUCCESS && k == CUPTI_ACTIVITY_KIND_DEVICE) {
		pthread_mutex_lock(&mu);
		for (i = 0; i < ndevices; i++)
			device_record(devices[i].id, devices[i].name);
		pthread_mutex_unlock(&mu);
	}
	return r;
}

/* One call's per-call records on or off, after settle (as every enable call). */
static CUptiResult enable_call(unsigned char *enabled, CUpti_CallbackId cbid, uint8_t enable)
{
	settle();
	pthread_mutex_lock(&mu);
	enabled[cbid] = enable != 0;
	pthread_mutex_unlock(&mu);
	return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityEnableDriverApi(CUpti_CallbackId cbid, uint8_t enable)
{
	const char *fail = getenv("FAKE_CUPTI_FAIL_CBID");

	if (env_is("FAKE_CUPTI_NO_DRIVER_API", "1"))
		return CUPTI_ERROR_NOT_SUPPORTED;
	if (cbid >= CUPTI_DRIVER_TRACE_CBID_SIZE || (fail && *fail && strtoul(fail, NULL, 10) == cbid))
		return CUPTI_ERROR_INVALID_PARAMETER;
	return enable_call(api_enabled, cbid, enable);
}

CUptiResult cuptiActivityEnableRuntimeApi(CUpti_CallbackId cbid, uint8_t enable)
{
	if (env_is("FAKE_CUPTI_NO_DRIVER_API", "1"))
		return CUPTI_ERROR_NOT_SUPPORTED;
	if (cbid >= CUPTI_RUNTIME_TRACE_CBID_SIZE)
		return CUPTI_ERROR_INVALID_PARAMETER;
	if (env_is("FAKE_CUPTI_RUNTIME_PER_CALL_SILENT", "1"))
		return CUPTI_SUCCESS;
	return enable_call(rt_enabled, cbid, enable);
}

CUptiResult cuptiActivityGetNextRecord(uint8_t *buffer, size_t valid, CUpti_Activity **rec)
{
	size_t off = 0;

	if (!buffer)
		return CUPTI_ERROR_INVALID_PARAMETER;
	if (*rec)
		off = (size_t)((uint8_t *)*rec - buffer) + aligned(record_size((*rec)->kind));
	if (off + sizeof(CUpti_Activity) > valid)
		return CUPTI_ERROR_MAX_LIMIT_REACHED;
	*rec = (CUpti_Activity *)(buffer + off);
	return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityGetNumDroppedRecords(CUcontext ctx, uint32_t stream, size_t *n)
{
	(void)ctx;
	(void)stream;
	pthread_mutex_lock(&mu);
	*n = dropped;
	dropped = 0;
	pthread_mutex_unlock(&mu);
	return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityFlushAll(uint32_t flag)
{
	int forced = (flag & CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) != 0;

	pthread_mutex_lock(&mu);
	if (!worker_started) {
		pthread_mutex_unlock(&mu);
		return CUPTI_ERROR_INVALID_OPERATION;
	}
	if (forced) {
		/* records still running come back incomplete: zero timestamps */
		while (held) {
			struct fbuf *b = held;

			held = b->next;
			b->incomplete = 0;
			hand_over(b);
		}
		if (cur)
			cur->incomplete = 0;
		/* dropped records are told through a completed buffer, an empty one if need be */
		if (!cur && dropped)
			new_buffer();
	}
	if (cur && (cur->used || (forced && dropped)) && !cur->incomplete) {
		hand_over(cur);
		cur = NULL;
	}
	wait_worker();
	pthread_mutex_unlock(&mu);
	return CUPTI_SUCCESS;
}

/* NVTX's entry: the injection library hands NVTX on to it. */
int InitializeInjectionNvtx2(const void *get_export_table)
{
	return get_export_table != NULL;
}

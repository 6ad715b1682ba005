/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A fake libcupti.so.13 for the capture tests: the part of CUPTI's API the
 * injection library uses, over activity records a test program makes up
 * (through the fake_cupti_* hooks below) instead of a GPU. Records are kept
 * only for the kinds and driver calls the client turned on, in buffers the
 * client's callbacks hand out and take back, as the real one does.
 *
 * Built with CUPTI's own headers, so the records have the real layouts.
 * FAKE_CUPTI_BUSY=NAME makes subscribing fail as when another tool holds
 * CUPTI; FAKE_CUPTI_NO_DRIVER_API=1 makes cuptiActivityEnableDriverApi
 * unsupported (an older CUPTI).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cupti.h>

#define BUFSZ_MIN 4096

static uint64_t now_ns = 2000000000ull;
static CUpti_CallbackFunc subscriber;
static void *subscriber_data;
static int subscribed;
static unsigned char cb_enabled[CUPTI_DRIVER_TRACE_CBID_SIZE];
static unsigned char kind_enabled[64];
static unsigned char api_enabled[CUPTI_DRIVER_TRACE_CBID_SIZE];
static CUpti_BuffersCallbackRequestFunc req_fn;
static CUpti_BuffersCallbackCompleteFunc done_fn;
static uint8_t *buf;
static size_t buf_size, buf_used;
static size_t dropped;

static const struct {
	uint32_t cbid;
	const char *name;
} names[] = {
	{CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async, "cuMemsetD32Async"},
	{CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v2, "cuCtxCreate_v2"},
	{CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2, "cuMemcpyHtoDAsync_v2"},
	{CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, "cuLaunchKernel"},
	{CUPTI_DRIVER_TRACE_CBID_cuProfilerStart, "cuProfilerStart"},
	{CUPTI_DRIVER_TRACE_CBID_cuProfilerStop, "cuProfilerStop"},
	{CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, "cuGraphLaunch"},
};

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
	case CUPTI_ACTIVITY_KIND_DRIVER: return sizeof(CUpti_ActivityAPI);
	case CUPTI_ACTIVITY_KIND_MARKER: return sizeof(CUpti_ActivityMarker2);
	case CUPTI_ACTIVITY_KIND_DEVICE: return sizeof(CUpti_ActivityDevice5);
	default: return 0;
	}
}

static size_t aligned(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* Hands the current buffer back to the client. */
static void deliver(void)
{
	if (!buf || !done_fn)
		return;
	done_fn(NULL, 0, buf, buf_size, buf_used);
	buf = NULL;
	buf_size = buf_used = 0;
}

/* Room for a record of kind k in a client buffer, or NULL (counted as dropped). */
static void *slot(CUpti_ActivityKind k)
{
	size_t n = aligned(record_size(k));
	void *p;

	if (buf && buf_used + n > buf_size)
		deliver();
	if (!buf && req_fn) {
		size_t max = 0;

		req_fn(&buf, &buf_size, &max);
		buf_used = 0;
		if (buf && buf_size < BUFSZ_MIN)
			buf_size = 0;
	}
	if (!buf || buf_used + n > buf_size) {
		dropped++;
		return NULL;
	}
	p = buf + buf_used;
	memset(p, 0, n);
	buf_used += n;
	((CUpti_Activity *)p)->kind = k;
	return p;
}

/* --- the hooks a test program calls ---------------------------------------------------- */

void fake_cupti_set_time(uint64_t ns)
{
	now_ns = ns;
}

void fake_cupti_device(uint32_t id, const char *name)
{
	CUpti_ActivityDevice5 *d;

	if (!kind_enabled[CUPTI_ACTIVITY_KIND_DEVICE] || !(d = slot(CUPTI_ACTIVITY_KIND_DEVICE)))
		return;
	d->id = id;
	d->name = keep(name);
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

void fake_cupti_kernel(uint32_t dev, uint32_t stream, uint32_t corr, const char *name, uint64_t start,
		       uint64_t end)
{
	CUpti_ActivityKernel10 *k;

	if (!kind_enabled[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL] || !(k = slot(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)))
		return;
	k->start = start;
	k->end = end;
	k->deviceId = dev;
	k->contextId = 1;
	k->streamId = stream;
	k->correlationId = corr;
	k->name = keep(name);
	k->gridX = 108;
	k->gridY = k->gridZ = 1;
	k->blockX = 128;
	k->blockY = k->blockZ = 1;
	k->registersPerThread = 32;
}

void fake_cupti_memcpy(uint32_t dev, uint32_t stream, uint32_t corr, uint8_t kind, uint64_t bytes,
		       uint64_t start, uint64_t end)
{
	CUpti_ActivityMemcpy6 *m;

	if (!kind_enabled[CUPTI_ACTIVITY_KIND_MEMCPY] || !(m = slot(CUPTI_ACTIVITY_KIND_MEMCPY)))
		return;
	m->copyKind = kind;
	m->srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
	m->dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
	m->flags = CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC;
	m->bytes = bytes;
	m->start = start;
	m->end = end;
	m->deviceId = dev;
	m->contextId = 1;
	m->streamId = stream;
	m->correlationId = corr;
}

void fake_cupti_memset(uint32_t dev, uint32_t stream, uint32_t corr, uint64_t bytes, uint64_t start,
		       uint64_t end)
{
	CUpti_ActivityMemset4 *m;

	if (!kind_enabled[CUPTI_ACTIVITY_KIND_MEMSET] || !(m = slot(CUPTI_ACTIVITY_KIND_MEMSET)))
		return;
	m->bytes = bytes;
	m->start = start;
	m->end = end;
	m->deviceId = dev;
	m->contextId = 1;
	m->streamId = stream;
	m->correlationId = corr;
	m->memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
}

void fake_cupti_api(uint32_t cbid, uint32_t tid, uint32_t corr, uint64_t start, uint64_t end)
{
	CUpti_ActivityAPI *a;

	if (!(kind_enabled[CUPTI_ACTIVITY_KIND_DRIVER] || (cbid < CUPTI_DRIVER_TRACE_CBID_SIZE && api_enabled[cbid])) ||
	    !(a = slot(CUPTI_ACTIVITY_KIND_DRIVER)))
		return;
	a->cbid = cbid;
	a->start = start;
	a->end = end;
	a->processId = 1;
	a->threadId = tid;
	a->correlationId = corr;
}

void fake_cupti_marker(uint32_t flags, uint32_t id, uint32_t tid, const char *name, const char *domain,
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
	m->name = keep(name);
	m->domain = keep(domain);
}

/* A driver call's callbacks (enter, then exit), as the subscriber asked for them. */
void fake_cupti_call(uint32_t cbid)
{
	CUpti_CallbackData d;

	if (!subscribed || !subscriber || cbid >= CUPTI_DRIVER_TRACE_CBID_SIZE || !cb_enabled[cbid])
		return;
	memset(&d, 0, sizeof(d));
	d.callbackSite = CUPTI_API_ENTER;
	subscriber(subscriber_data, CUPTI_CB_DOMAIN_DRIVER_API, cbid, &d);
	d.callbackSite = CUPTI_API_EXIT;
	subscriber(subscriber_data, CUPTI_CB_DOMAIN_DRIVER_API, cbid, &d);
}

void fake_cupti_drop(size_t n)
{
	dropped += n;
}

void fake_cupti_deliver(void)
{
	deliver();
}

/* --- CUPTI ------------------------------------------------------------------------------ */

CUptiResult cuptiGetTimestamp(uint64_t *t)
{
	*t = now_ns;
	return CUPTI_SUCCESS;
}

CUptiResult cuptiGetVersion(uint32_t *v)
{
	*v = CUPTI_API_VERSION;
	return CUPTI_SUCCESS;
}

CUptiResult cuptiGetResultString(CUptiResult r, const char **s)
{
	*s = r == CUPTI_ERROR_NOT_SUPPORTED ? "CUPTI_ERROR_NOT_SUPPORTED" : "CUPTI_ERROR_UNKNOWN";
	return CUPTI_SUCCESS;
}

CUptiResult cuptiSetThreadIdType(CUpti_ActivityThreadIdType t)
{
	return t == CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM ? CUPTI_SUCCESS : CUPTI_ERROR_INVALID_PARAMETER;
}

CUptiResult cuptiSubscribe_v2(CUpti_SubscriberHandle *sub, CUpti_CallbackFunc fn, void *data,
			      CUpti_SubscriberParams *p)
{
	const char *busy = getenv("FAKE_CUPTI_BUSY");

	if (busy && *busy) {
		if (p && p->oldSubscriberName && p->oldSubscriberSize) {
			strncpy(p->oldSubscriberName, busy, p->oldSubscriberSize - 1);
			p->oldSubscriberName[p->oldSubscriberSize - 1] = 0;
		}
		return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
	}
	if (subscribed)
		return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
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
	if (domain != CUPTI_CB_DOMAIN_DRIVER_API || cbid >= CUPTI_DRIVER_TRACE_CBID_SIZE)
		return CUPTI_ERROR_INVALID_PARAMETER;
	cb_enabled[cbid] = enable != 0;
	return CUPTI_SUCCESS;
}

CUptiResult cuptiGetCallbackName(CUpti_CallbackDomain domain, uint32_t cbid, const char **name)
{
	size_t i;

	*name = NULL;
	if (domain != CUPTI_CB_DOMAIN_DRIVER_API)
		return CUPTI_ERROR_INVALID_PARAMETER;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (names[i].cbid == cbid) {
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
	req_fn = req;
	done_fn = done;
	return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityEnable(CUpti_ActivityKind k)
{
	if ((unsigned)k >= sizeof(kind_enabled) || !record_size(k))
		return CUPTI_ERROR_NOT_SUPPORTED;
	kind_enabled[k] = 1;
	return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityDisable(CUpti_ActivityKind k)
{
	if ((unsigned)k >= sizeof(kind_enabled))
		return CUPTI_ERROR_INVALID_KIND;
	kind_enabled[k] = 0;
	return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityEnableDriverApi(CUpti_CallbackId cbid, uint8_t enable)
{
	const char *no = getenv("FAKE_CUPTI_NO_DRIVER_API");

	if (no && *no == '1')
		return CUPTI_ERROR_NOT_SUPPORTED;
	if (cbid >= CUPTI_DRIVER_TRACE_CBID_SIZE)
		return CUPTI_ERROR_INVALID_PARAMETER;
	api_enabled[cbid] = enable != 0;
	return CUPTI_SUCCESS;
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
	*n = dropped;
	dropped = 0;
	return CUPTI_SUCCESS;
}

CUptiResult cuptiActivityFlushAll(uint32_t flag)
{
	(void)flag;
	if (!buf && dropped && req_fn) {
		size_t max = 0;

		req_fn(&buf, &buf_size, &max);
		buf_used = 0;
	}
	deliver();
	return CUPTI_SUCCESS;
}

/* NVTX's entry: the injection library hands NVTX on to it. */
int InitializeInjectionNvtx2(const void *get_export_table)
{
	return get_export_table != NULL;
}

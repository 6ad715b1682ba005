/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Capture records: what one process's CUPTI activity becomes, in terms that
 * name no CUPTI type, so that the record file, its reader and the converter
 * to XSpace build and are tested without CUPTI.
 *
 * Times are nanoseconds on CUPTI's clock (cuptiGetTimestamp); the file
 * header pairs that clock with the wall clock at capture start.
 *
 * Strings: the writer takes C strings and stores each distinct one once;
 * the reader hands out pointers into its file's string table (see
 * cap_file.h). A NULL string is written as "no string" and read back as NULL.
 */
#ifndef CAP_RECORD_H
#define CAP_RECORD_H

#include <stdint.h>

/* Header flags: how the capture was configured. */
enum {
	CAP_F_NVTX = 1,		/* NVTX ranges were recorded (--nvtx) */
	CAP_F_RANGE = 2,	/* only between cudaProfilerStart and Stop */
};

struct cap_header {
	uint32_t version;	/* filled by the writer and the reader */
	uint32_t pid;
	uint32_t flags;		/* CAP_F_* */
	uint32_t cupti_version;	/* cuptiGetVersion(), 0 if unknown */
	uint32_t flush_ms;	/* CUPTI's buffers were flushed this often (ms); 0: only at exit */
	uint64_t start_wall_ns;	/* CLOCK_REALTIME at capture start */
	uint64_t start_ts;	/* CUPTI's clock at the same moment */
};

/* Device facts (from CUPTI's device record); 0 where unknown. */
struct cap_device {
	uint32_t id;		/* CUDA device ordinal */
	const char *name;
	uint32_t cc_major, cc_minor;
	uint32_t sm_count;
	uint32_t clock_khz;
	uint64_t mem_size;	/* bytes */
	uint64_t mem_bandwidth;	/* bytes per second */
	uint32_t warp_size;
	uint32_t max_warps_per_sm, max_blocks_per_sm, max_threads_per_block;
	uint32_t regs_per_sm, regs_per_block;
	uint32_t shmem_per_sm, shmem_per_block;	/* bytes */
};

struct cap_kernel {
	uint64_t start, end;
	uint32_t device, context, stream, correlation;
	const char *name;	/* as the driver gives it (often mangled) */
	const char *demangled;	/* NULL when the name is not mangled or could not be demangled */
	int32_t grid[3], block[3];
	uint32_t regs;		/* per thread */
	uint32_t static_shmem, dynamic_shmem;	/* bytes per block */
	uint32_t graph_id;	/* 0: not launched from a CUDA graph */
	uint64_t graph_node_id;
};

enum cap_mem_kind {
	CAP_MEM_UNKNOWN,
	CAP_MEM_PAGEABLE,
	CAP_MEM_PINNED,
	CAP_MEM_DEVICE,
	CAP_MEM_ARRAY,
	CAP_MEM_MANAGED,
	CAP_MEM_DEVICE_STATIC,
	CAP_MEM_MANAGED_STATIC,
	CAP_MEM_KINDS
};

enum cap_copy_kind {
	CAP_COPY_OTHER,		/* host to host, arrays */
	CAP_COPY_H2D,
	CAP_COPY_D2H,
	CAP_COPY_D2D,
	CAP_COPY_P2P,		/* between devices */
	CAP_COPY_KINDS
};

struct cap_memcpy {
	uint64_t start, end;
	uint64_t bytes;
	uint32_t device, context, stream, correlation;
	uint8_t kind;		/* enum cap_copy_kind */
	uint8_t src_kind, dst_kind;	/* enum cap_mem_kind */
	uint8_t async;
	uint32_t src_device, dst_device;	/* both = device unless P2P */
	uint32_t graph_id;
	uint64_t graph_node_id;
};

struct cap_memset {
	uint64_t start, end;
	uint64_t bytes;
	uint32_t device, context, stream, correlation;
	uint32_t value;
	uint8_t mem_kind;	/* enum cap_mem_kind */
	uint8_t async;
	uint32_t graph_id;
	uint64_t graph_node_id;
};

/* Where an API record comes from. */
enum cap_api_kind {
	CAP_API_DRIVER,		/* a driver call (cuLaunchKernel) */
	CAP_API_RUNTIME,	/* a runtime call (cudaLaunchKernel) */
	CAP_API_INTERNAL,	/* a launch by the driver outside any public call (cuBLAS, cuDNN) */
	CAP_API_KINDS
};

/*
 * An API call that starts device work (launches, copies, memsets: what
 * correlates host to device). A runtime call and the driver call inside it
 * may carry the same correlation id.
 */
struct cap_api {
	uint64_t start, end;
	uint32_t thread;	/* system thread id */
	uint32_t correlation;
	uint32_t cbid;		/* CUPTI's callback id in the kind's domain (0 for internal launches) */
	uint32_t result;	/* the call's return value */
	const char *name;	/* "cuLaunchKernel", "cudaLaunchKernel_v7000" */
	uint8_t kind;		/* enum cap_api_kind */
};

enum {
	CAP_MARK_INSTANT = 1,
	CAP_MARK_START = 2,	/* a range begins; carries name and domain */
	CAP_MARK_END = 4,	/* the range with the same id ends */
};

/* An NVTX marker: a point, or one end of a range. */
struct cap_marker {
	uint64_t ts;
	uint32_t id;		/* pairs a range's start and end */
	uint32_t flags;		/* CAP_MARK_* */
	uint32_t thread;	/* system thread id */
	const char *name;	/* NULL on an end */
	const char *domain;	/* NULL: the default domain */
};

/* cudaProfilerStart (start = 1) or cudaProfilerStop (start = 0). */
struct cap_range {
	uint64_t ts;
	uint32_t start;
};

/* A message the injection library left for the user (not a record of GPU work). */
struct cap_note {
	uint32_t warning;	/* 0: information, 1: warning */
	const char *text;
};

/* Written last, by a process that ended normally: the file is complete. */
struct cap_trailer {
	uint64_t records;	/* records written before the trailer (strings included) */
	uint64_t dropped;	/* activity records CUPTI dropped, in all */
	uint64_t end_ts;	/* CUPTI's clock at capture end */
	uint64_t end_wall_ns;
};

#endif

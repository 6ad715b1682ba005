/* SPDX-License-Identifier: Apache-2.0 */
/* The device the capture tests record (gen_cap and the unit tests): an H100 as CUPTI describes it. */
#ifndef CAP_H100_H
#define CAP_H100_H

#include "cap_record.h"

/* Device id, an H100 80GB with its memory size and bandwidth in round numbers. */
static inline struct cap_device cap_h100(uint32_t id)
{
	struct cap_device d = {.id = id, .name = "NVIDIA H100 80GB HBM3", .cc_major = 9, .cc_minor = 0,
			       .sm_count = 132, .clock_khz = 1980000, .mem_size = 85000000000ull,
			       .mem_bandwidth = 3352000000000ull, .warp_size = 32, .max_warps_per_sm = 64,
			       .max_blocks_per_sm = 32, .max_threads_per_block = 1024,
			       .regs_per_sm = 65536, .regs_per_block = 65536, .shmem_per_sm = 233472,
			       .shmem_per_block = 49152};

	return d;
}

#endif

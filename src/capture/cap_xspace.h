/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Capture records to an XSpace, in the layout XLA's own GPU profiler writes
 * (so XProf, TensorBoard and the rest of xplane-stat read it as a saved
 * jax.profiler dump):
 *
 *  - a plane "/device:GPU:<ordinal>" per device, with the plane stats
 *    device_vendor, gpu_device_name, clock_rate (kHz), core_count,
 *    memory_bandwidth (bytes/s), memory_size, compute_cap_major/minor;
 *  - one line per stream, id = stream id, named "Stream #<id>(<types>)",
 *    types from Compute, MemcpyH2D, MemcpyD2H, MemcpyD2D, MemcpyP2P,
 *    MemcpyOther, Memset;
 *  - events named by the demangled kernel name (MemcpyH2D... for copies,
 *    Memset), with stats correlation_id, context_id, kernel_details or
 *    memcpy_details or memset_details, cuda_graph_id, cuda_graph_node_id;
 *  - every line's timestamp_ns is the wall clock at capture start, event
 *    offsets are picoseconds from it;
 *  - "/host:CUPTI": a line per thread ("Host Threads/<tid>") holding the
 *    driver API calls with their correlation_id;
 *  - "/host:NVTX": a line per thread holding the NVTX ranges. A range named
 *    "XlaModule:#hlo_module=<m>,program_id=<id>#" also carries module_name
 *    and program_id, which the execution finder links launches to.
 *
 * The NVTX join: a device activity's correlation_id names the driver call
 * that launched it; the NVTX ranges open on that call's thread at that
 * call's start give the activity its stats, innermost range first for each
 * key: "key=value" pairs between '#'s, so XlaModule ranges give hlo_module
 * and program_id and Thunk ranges give hlo_op. Digits become int64 stats,
 * anything else strings.
 *
 * Several processes: each keeps its own planes, their names followed by
 * " (pid <pid>)", and the correlation ids of the second and later
 * processes (in pid order) are offset by <index> << 32 so that they stay
 * unique in the file.
 */
#ifndef CAP_XSPACE_H
#define CAP_XSPACE_H

#include <stddef.h>
#include <stdint.h>

#include "cap_file.h"
#include "xp_err.h"

struct cap_convert_opts {
	const char *hostname;	/* XSpace.hostnames[0]; NULL: none */
};

struct cap_summary {
	size_t processes;	/* files that recorded anything */
	size_t device_planes;
	size_t kernels, memcpys, memsets;
	size_t api_calls;
	size_t nvtx_ranges;
	size_t annotated;	/* device activities that got an hlo_module stat */
	size_t partial_files;	/* files without a trailer */
	size_t skipped;		/* activity records without timestamps */
	uint64_t dropped;	/* records CUPTI dropped */
};

/*
 * Converts the files (one per process, any order) into one serialized
 * XSpace in *out (malloc'd; the caller frees). What the user should know
 * (dropped records, partial files, the injection library's notes) is
 * added to notes and written to XSpace.warnings. Returns 0 or a negative
 * xp_errcode.
 */
int cap_xspace(const struct cap_file *const *files, size_t n, const struct cap_convert_opts *o,
	       unsigned char **out, size_t *len, struct cap_summary *sum, struct xp_notes *notes,
	       struct xp_err *err);

/*
 * Theoretical occupancy in percent of a kernel on device d by a simple model
 * (limits of warps, blocks, registers and shared memory per SM); 0 when
 * the device facts are missing.
 */
double cap_occupancy_pct(const struct cap_device *d, const struct cap_kernel *k);

#endif

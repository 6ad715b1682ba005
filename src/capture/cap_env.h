/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What 'xplane-stat capture' and the injection library it sets up agree on:
 * the environment of the captured program and the record file names.
 */
#ifndef CAP_ENV_H
#define CAP_ENV_H

/* The private directory each process writes <pid>.xpscap into. */
#define CAP_ENV_DIR "XPLANE_STAT_CAPTURE_DIR"
/* Comma-separated: "nvtx" (record NVTX ranges), "range" (only between cudaProfilerStart/Stop). */
#define CAP_ENV_FLAGS "XPLANE_STAT_CAPTURE_FLAGS"
/* How often (ms) the library flushes CUPTI's buffers, so that a killed process keeps all but
 * its last moments; 0: only at exit. Unset: CAP_FLUSH_MS_DEFAULT. */
#define CAP_ENV_FLUSH "XPLANE_STAT_CAPTURE_FLUSH_MS"
#define CAP_FLUSH_MS_DEFAULT 1000
/* The injection library to use instead of the one found next to the binary or installed. */
/* Diagnostics, set by hand (CAPTURE.md): "1" notes which API calls were turned on and how. */
#define CAP_ENV_DEBUG "XPLANE_STAT_CAPTURE_DEBUG"
/* "all": record every driver API call, not only those that start device work (every runtime call is). */
#define CAP_ENV_API "XPLANE_STAT_CAPTURE_API"
#define CAP_ENV_INJECT "XPLANE_STAT_INJECT"
#define CAP_INJECT_NAME "libxplane-stat-inject.so"

#endif

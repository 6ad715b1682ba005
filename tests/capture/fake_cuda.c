/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A fake libcuda.so.1 for the capture tests: just enough driver for
 * 'xplane-stat capture' to find one (FAKE_CUDA_VERSION sets the version it
 * reports, default 13000). The fake program plays the rest of the driver.
 */
#include <stdlib.h>

int cuDriverGetVersion(int *v)
{
	const char *s = getenv("FAKE_CUDA_VERSION");

	if (!v)
		return 1;
	*v = s && *s ? atoi(s) : 13000;
	return 0;
}

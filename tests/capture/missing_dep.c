/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A stand-in injection library that the driver could not load: built twice,
 * once as libxps_gone.so (with GONE) in a directory nothing searches, once
 * as libneeds_gone.so, which needs it (tests/cli/capture/inject_unloadable).
 */
#ifdef GONE
int xps_gone(void)
{
	return 1;
}
#else
int xps_gone(void);

int InitializeInjection(void)
{
	return xps_gone();
}
#endif

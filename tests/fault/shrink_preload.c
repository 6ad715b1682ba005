/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A test's LD_PRELOAD library (tests/fault/shrink_check.sh), never part of
 * the program: it shrinks one input file while the unchanged binary reads
 * it, at a moment chosen, not by a race. XPS_TEST_SHRINK=PATH names the
 * file, XPS_TEST_SHRINK_TO=BYTES its new size, XPS_TEST_SHRINK_AT when:
 *   map      right after the file is mapped, before a byte is read;
 *   output   when the output's temporary file is made (mkstemp), after
 *            the first read and before the lazy planes are read.
 * Once per process.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* RTLD_NEXT */
#endif
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static atomic_int done;

static void shrink(const char *when, int fd)
{
	const char *path = getenv("XPS_TEST_SHRINK"), *to = getenv("XPS_TEST_SHRINK_TO");
	const char *at = getenv("XPS_TEST_SHRINK_AT");
	struct stat a, b;

	if (!path || !to || strcmp(at ? at : "map", when) || atomic_load(&done))
		return;
	if (fd >= 0 && (fstat(fd, &a) || stat(path, &b) || a.st_dev != b.st_dev || a.st_ino != b.st_ino))
		return;
	if (!atomic_exchange(&done, 1) && truncate(path, (off_t)strtoll(to, NULL, 10)))
		_exit(99);	/* the test cannot do what it means to: say so loudly */
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static void *(*real)(void *, size_t, int, int, int, off_t);
	void *m;

	if (!real)
		real = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
	m = real(addr, len, prot, flags, fd, off);
	if (m != MAP_FAILED && fd >= 0 && !(flags & MAP_ANONYMOUS))
		shrink("map", fd);
	return m;
}

int mkstemp(char *tmpl)
{
	static int (*real)(char *);

	if (!real)
		real = (int (*)(char *))dlsym(RTLD_NEXT, "mkstemp");
	shrink("output", -1);
	return real(tmpl);
}

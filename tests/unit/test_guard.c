/* SPDX-License-Identifier: Apache-2.0 */
/*
 * xp_guard: a mapped input that shrinks while it is read (issue 29) reads as
 * zeros past its new end, with a SIGBUS handler installed as src/main.c
 * installs it, and says it changed: the buffer, a trace's lazy planes, the
 * error naming the file. Without the guard this process dies of SIGBUS.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "an_input.h"
#include "test.h"
#include "xp_guard.h"
#include "xp_input.h"
#include "xplane_stat.h"

/* The message, written out here: the test pins its words. */
#define CHANGED "changed while being read (it shrank: is it still being written?)"

static char dir[] = "/tmp/xps-guard-XXXXXX";
static size_t page;

/* 0 when the handler is in place; a runtime that keeps SIGBUS to itself refuses it. */
static int install(void)
{
	struct sigaction sa, now;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = xp_guard_sigbus;	/* as src/main.c installs it */
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, NULL) || sigaction(SIGBUS, NULL, &now))
		return -1;
	return (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == xp_guard_sigbus ? 0 : -1;
}

/* A read the compiler must make. */
static unsigned char at(const struct xp_buf *b, size_t off)
{
	return ((const volatile unsigned char *)b->data)[off];
}

static void test_buf(void)
{
	char p[256], want[512];
	size_t len = 64 * page, keep = 16 * page + 100, i;
	unsigned char *bytes = malloc(len);
	struct xp_buf b;
	struct xp_err err = {0};
	unsigned sum = 0;
	FILE *f;

	snprintf(p, sizeof(p), "%s/shrinks.xplane.pb", dir);
	memset(bytes, 'x', len);
	f = fopen(p, "wb");
	CHECK(f && fwrite(bytes, 1, len, f) == len);
	if (f)
		fclose(f);
	free(bytes);
	CHECK_INT(xp_buf_load(p, XP_DEFAULT_MAX_INPUT, &b, &err), 0);
	CHECK(b.mapped);
	for (i = 0; i < len; i += page)	/* every page in memory: the cut takes them away all the same */
		sum += at(&b, i);
	CHECK_INT(sum, 64 * 'x');
	CHECK_INT(xp_buf_changed(&b), 0);
	CHECK_INT(xp_buf_check(&b, p, &err), 0);

	CHECK_INT(truncate(p, (off_t)keep), 0);
	CHECK_INT(at(&b, 40 * page + 7), 0);	/* past the end: zeros, not SIGBUS */
	CHECK_INT(xp_buf_changed(&b), 1);
	CHECK_INT(at(&b, len - 1), 0);
	CHECK_INT(at(&b, 0), 'x');		/* before the cut: the file */
	CHECK_INT(at(&b, keep - 1), 'x');
	CHECK_INT(at(&b, keep), 0);		/* the cut's own page: the kernel's zeros */
	CHECK_INT(at(&b, 20 * page), 0);	/* between the cut and the first fault: faults in turn */
	CHECK_INT(xp_buf_check(&b, p, &err), XP_ERR_IO);
	snprintf(want, sizeof(want), "'%s': " CHANGED, p);
	CHECK_STR(err.msg, want);
	xp_buf_release(&b);

	/* the file as it is now reads whole, unchanged; the released slot is free again */
	memset(&err, 0, sizeof(err));
	CHECK_INT(xp_buf_load(p, XP_DEFAULT_MAX_INPUT, &b, &err), 0);
	CHECK_INT(b.len, keep);
	CHECK_INT(at(&b, keep - 1), 'x');
	CHECK_INT(xp_buf_changed(&b), 0);
	xp_buf_release(&b);

	/* not an input's address: the handler's default action */
	CHECK_INT(xp_guard_fault(&sum), 0);
	CHECK_INT(xp_guard_fault(NULL), 0);
}

static int wants_no_plane(const char *name, void *ctx)
{
	(void)name;
	(void)ctx;
	return 0;
}

/* A trace whose planes are read after the file was cut, as a lazy command reads them. */
static void test_trace(void)
{
	char p[256], cmd[600], want[512];
	struct xp_read_opts ro = {0};
	struct xp_trace *t = NULL;
	struct xp_err err = {0};
	size_t i;

	snprintf(p, sizeof(p), "%s/lazy.xplane.pb", dir);
	snprintf(cmd, sizeof(cmd), "cp '%s/real/tpu_v6e_inference.xplane.pb' '%s'", TESTDATA_DIR, p);
	CHECK_INT(system(cmd), 0);
	ro.want_plane = wants_no_plane;
	ro.event_stats = XP_EVSTATS_KEYS;
	CHECK_INT(an_input_read(p, XP_DEFAULT_MAX_INPUT, &ro, &t, &err), 0);
	if (!t)
		return;
	CHECK(t->nplanes > 1);
	CHECK_INT(xp_trace_input_changed(t), 0);
	CHECK_INT(an_input_check(t, p, &err), 0);

	CHECK_INT(truncate(p, 100000), 0);
	for (i = 0; i < t->nplanes; i++) {
		struct xp_err e = {0};

		xp_trace_load_plane(t, i, &e);	/* zeros fail to parse, or parse: either way not the file's */
	}
	CHECK_INT(xp_trace_input_changed(t), 1);
	xp_err_set(&err, XP_ERR_FORMAT, "what the zeros made");
	CHECK_INT(an_input_check(t, p, &err), XP_ERR_IO);
	snprintf(want, sizeof(want), "'%s': " CHANGED, p);
	CHECK_STR(err.msg, want);
	CHECK_INT(err.code, XP_ERR_IO);
	xp_trace_free(t);

	/* read again, the shorter file is what it is (an error or not), never "changed" */
	memset(&err, 0, sizeof(err));
	t = NULL;
	an_input_read(p, XP_DEFAULT_MAX_INPUT, &ro, &t, &err);
	CHECK(!strstr(err.msg, CHANGED));
	CHECK_INT(xp_trace_input_changed(t), 0);
	xp_trace_free(t);
}

/* The public library: a trace opened, its file cut, the analysis fails naming it (XPS_EIO). */
static void test_api(void)
{
	char p[256], cmd[600], err[512], want[512];
	xps_trace *t = NULL;
	struct xps_functions *f = NULL;

	snprintf(p, sizeof(p), "%s/api.xplane.pb", dir);
	snprintf(cmd, sizeof(cmd), "cp '%s/real/mi300x_jax_gemm.xplane.pb' '%s'", TESTDATA_DIR, p);
	CHECK_INT(system(cmd), 0);
	CHECK_INT(xps_trace_open(p, NULL, &t, err, sizeof(err)), 0);
	CHECK_INT(truncate(p, 4096), 0);	/* the host planes, read for host linkage, lie past it */
	CHECK_INT(xps_functions_compute(&t, 1, NULL, &f, err, sizeof(err)), XPS_EIO);
	CHECK(f == NULL);
	snprintf(want, sizeof(want), "'%s': " CHANGED, p);
	CHECK_STR(err, want);
	xps_functions_free(f);
	xps_trace_free(t);
}

/* The table's limit: past it a mapping is unguarded (handle 0), and a freed slot serves again. */
static void test_full(void)
{
	static int h[XP_GUARD_SLOTS];
	static char fake[16];
	int i, all = 1;

	for (i = 0; i < XP_GUARD_SLOTS; i++)
		all &= (h[i] = xp_guard_add(fake, sizeof(fake))) > 0;
	CHECK(all);
	CHECK_INT(xp_guard_add(fake, sizeof(fake)), 0);
	xp_guard_remove(0);	/* an unguarded mapping's release */
	xp_guard_remove(h[7]);
	CHECK_INT(xp_guard_add(fake, sizeof(fake)), h[7]);
	for (i = 0; i < XP_GUARD_SLOTS; i++)
		xp_guard_remove(h[i]);
	CHECK_INT(xp_guard_changed(0), 0);
}

int main(void)
{
	char cmd[300];
	long ps = sysconf(_SC_PAGESIZE);

	page = ps > 0 ? (size_t)ps : 4096;
	if (install()) {
		/* never a pass that tested nothing: ctest shows the skip */
		printf("test_guard: skipped: this runtime keeps SIGBUS to itself\n");
		return 77;
	}
	if (!mkdtemp(dir))
		return 1;
	test_buf();
	test_trace();
	test_api();
	test_full();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
	return test_done("test_guard");
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runs, not files: which inputs are one run. A job on several hosts (a TPU
 * pod, GPU nodes) writes one .xplane.pb per host (per process) into one
 * session directory (XProf's LOGDIR/plugins/profile/<session>/<host>.xplane.pb);
 * those files are one run of several hosts. A directory of one host's
 * rounds (round1.xplane.pb, round2, ...) is a set of runs.
 *
 * An input's host: the hostname its trace carries (XSpace hostnames, which
 * the profilers write); a file name cannot tell a host from a round.
 *
 * AN_RUN_BY_AUTO: the inputs a directory walk found in one directory are one
 * run when each carries a different hostname in its trace; when every one
 * carries the same hostname, or some carry none (a name alone cannot tell
 * a host from a round), each is a run of its own. Some hostnames repeated
 * and others not is ambiguous: each input is then a run of its own, and a
 * note says so. AN_RUN_BY_DIR: the inputs of one directory are one run,
 * whatever their hosts. AN_RUN_BY_FILE: every input is a run. An input with
 * no directory (a profile given by name) is always a run of its own; the
 * commands give a summary's run its profile's directory.
 *
 * Ownership: an_groups owns its array; an_groups_release frees it.
 */
#ifndef AN_GROUP_H
#define AN_GROUP_H

#include <stddef.h>

#include "xp_arena.h"
#include "xp_err.h"

enum an_run_by { AN_RUN_BY_AUTO, AN_RUN_BY_DIR, AN_RUN_BY_FILE };

/* "auto", "dir", "file", as --run-by takes them. */
#define AN_RUN_BY_NAMES "auto|dir|file"

struct an_group_in {
	const char *path;	/* as listed, for messages */
	const char *dir;	/* the directory a walk found it in; NULL: not found by a walk */
	const char *hostname;	/* the trace's (XSpace hostnames[0]); NULL or "": none */
};

struct an_groups {
	size_t *run;		/* per input its run, numbered from 0 in the order of their first inputs */
	size_t nruns;
	size_t max_hosts;	/* inputs of the largest run */
};

/*
 * Groups n inputs into runs as by says; notes (may be NULL) get a line per
 * ambiguous directory. 0 or XP_ERR_NOMEM.
 */
int an_group_runs(const struct an_group_in *in, size_t n, enum an_run_by by, struct an_groups *g,
		  struct xp_notes *notes);
void an_groups_release(struct an_groups *g);

/* Whether a and b name one host (NULL: none; two NULLs are one). */
int an_same_host(const char *a, const char *b);

/*
 * Devices of hosts: n elements of size bytes from base, each holding at
 * these offsets a const char * name, host (NULL: none) and plane. Where
 * they are of several hosts, each device with a host is named
 * "host:plane" (in a); else names stay. Returns the distinct hosts (none
 * counts as one); 0 with n > 0: out of memory.
 */
struct an_host_fields {
	size_t size, name, host, plane;
};
size_t an_name_by_host(void *base, size_t n, const struct an_host_fields *f, struct xp_arena *a);

#endif

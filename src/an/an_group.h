/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runs, not files: which inputs are one run. A job on several hosts (a TPU
 * pod, GPU nodes) writes one .xplane.pb per host (per process) into one
 * session directory (XProf's LOGDIR/plugins/profile/<session>/<host>.xplane.pb);
 * those files are one run of several hosts. A directory of one host's
 * rounds (round1.xplane.pb, round2, ...) is a set of runs.
 *
 * AN_RUN_BY_AUTO: the profiles of one directory are one run when each is
 * named after the host its trace names (XSpace hostnames, which the
 * profilers write): XProf's <host>.xplane.pb[.gz]. Otherwise each is a run
 * of its own: rounds (runs/round1.xplane.pb ...), whether one machine or
 * fresh ones each wrote them. Some named so and others not is ambiguous:
 * each profile is then a run, and a note says so. AN_RUN_BY_DIR: a
 * directory's profiles are one run, whatever their names and hosts (two
 * processes of one host, say, which one name cannot tell apart).
 * AN_RUN_BY_FILE: every profile is a run. A profile with no directory is a
 * run of its own; the commands give a summary's run its profile's directory.
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
	const char *path;	/* the profile's path (its file name is compared with hostname) */
	const char *dir;	/* its directory; NULL: a run of its own */
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

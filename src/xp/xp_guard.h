/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The file mappings of the inputs in use, for a SIGBUS handler: a file that
 * shrinks while it is mapped (a profiler still writing it, rsync --inplace)
 * faults where its pages were; xp_guard_fault, called by the program's
 * SIGBUS handler, puts zeros there and marks the mapping changed, so that
 * the reader goes on (and fails, or reads zeros) and the input is reported
 * as changed (xp_buf_changed, xp_input.h) instead of the process dying.
 * The library installs no handler: signal dispositions are the program's
 * (src/main.c installs one). A fixed table that a signal handler reads
 * without locks; past XP_GUARD_SLOTS mappings at once the others are not
 * guarded (see xp_guard_add).
 */
#ifndef XP_GUARD_H
#define XP_GUARD_H

#include <signal.h>
#include <stddef.h>

/* Mappings guarded at once: inputs open together (threads, traces kept), with room to spare. */
#define XP_GUARD_SLOTS 4096

/*
 * Guards [start, start + len), a read-only mapping of a file. Returns its
 * handle (> 0), or 0 when the table is full: that mapping is then
 * unguarded, and a fault in it ends the process with SIGBUS as before.
 */
int xp_guard_add(void *start, size_t len);
/* Before the mapping is unmapped: a fault there is no longer this table's. Accepts 0. */
void xp_guard_remove(int h);
/* Whether a fault in h's mapping put zeros in it since it was added; 0 for handle 0. */
int xp_guard_changed(int h);
/* Whether addr lies in a guarded mapping that a fault changed (a scan: for checks off the hot path). */
int xp_guard_changed_at(const void *addr);
/*
 * For a SIGBUS handler (async-signal-safe; errno kept): when addr lies in a
 * guarded mapping, maps zero pages over it from addr's page to its end
 * (the file ends before addr: what follows is gone too), marks it changed
 * and returns 1, and the faulting read, run again, reads zeros. 0 when addr
 * is in none, or the zero pages cannot be mapped: the handler then takes
 * the default action.
 */
int xp_guard_fault(void *addr);
/*
 * A SIGBUS handler for a program to install (sigaction, SA_SIGINFO): a
 * fault past the end of a guarded file (BUS_ADRERR) goes to xp_guard_fault;
 * any other SIGBUS, or one it cannot mend, takes the default action.
 */
void xp_guard_sigbus(int sig, siginfo_t *info, void *uctx);

#endif

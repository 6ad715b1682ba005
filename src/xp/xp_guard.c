/* SPDX-License-Identifier: Apache-2.0 */
/* The table of guarded input mappings and what a fault in one does (xp_guard.h). */
#include "xp_guard.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* A signal handler may only touch atomics that need no lock. */
#if ATOMIC_INT_LOCK_FREE != 2 || ATOMIC_POINTER_LOCK_FREE != 2
#error "the guard table needs lock-free atomic int and pointer-sized types"
#endif

enum { SLOT_FREE, SLOT_BUSY, SLOT_LIVE };

/*
 * state goes FREE -> BUSY (filled) -> LIVE -> BUSY (emptied) -> FREE; a
 * handler looks at LIVE slots only. seq is odd while a slot changes and
 * moves on with every change: a handler that read it even and the same
 * after reading state, start and end read them together (a seqlock), not
 * half of one mapping and half of the next another thread put there.
 */
struct slot {
	atomic_uint seq;
	atomic_int state;
	atomic_uintptr_t start, end;	/* end: rounded up to a page, as the kernel maps */
	atomic_int changed;
};

static struct slot slots[XP_GUARD_SLOTS];
static atomic_int top;			/* slots past it were never used: the handler stops there */
static atomic_uintptr_t page_size;	/* set before the first slot is live: sysconf is not for handlers */

int xp_guard_add(void *start, size_t len)
{
	uintptr_t page = atomic_load(&page_size), s = (uintptr_t)start;
	int i;

	if (!page) {
		long ps = sysconf(_SC_PAGESIZE);

		page = ps > 0 ? (uintptr_t)ps : 4096;
		atomic_store(&page_size, page);
	}
	for (i = 0; i < XP_GUARD_SLOTS; i++) {
		int expect = SLOT_FREE, t;

		if (!atomic_compare_exchange_strong(&slots[i].state, &expect, SLOT_BUSY))
			continue;
		atomic_fetch_add(&slots[i].seq, 1);	/* odd: changing */
		atomic_store(&slots[i].start, s);
		atomic_store(&slots[i].end, (s + len + page - 1) & ~(page - 1));
		atomic_store(&slots[i].changed, 0);
		for (t = atomic_load(&top); t < i + 1 && !atomic_compare_exchange_weak(&top, &t, i + 1);)
			;
		atomic_store(&slots[i].state, SLOT_LIVE);
		atomic_fetch_add(&slots[i].seq, 1);	/* even: settled */
		return i + 1;
	}
	return 0;
}

void xp_guard_remove(int h)
{
	if (h <= 0 || h > XP_GUARD_SLOTS)
		return;
	atomic_fetch_add(&slots[h - 1].seq, 1);
	atomic_store(&slots[h - 1].state, SLOT_BUSY);
	atomic_store(&slots[h - 1].state, SLOT_FREE);
	atomic_fetch_add(&slots[h - 1].seq, 1);
}

int xp_guard_changed(int h)
{
	return h > 0 && h <= XP_GUARD_SLOTS && atomic_load(&slots[h - 1].changed);
}

int xp_guard_changed_at(const void *addr)
{
	uintptr_t a = (uintptr_t)addr;
	int i, n = atomic_load(&top);

	for (i = 0; i < n; i++)
		if (atomic_load(&slots[i].state) == SLOT_LIVE && a >= atomic_load(&slots[i].start) &&
		    a < atomic_load(&slots[i].end))
			return atomic_load(&slots[i].changed);
	return 0;
}

int xp_guard_fault(void *addr)
{
	uintptr_t a = (uintptr_t)addr, page = atomic_load(&page_size);
	int i, n = atomic_load(&top), saved = errno, ret = 0;

	for (i = 0; i < n && page; i++) {
		struct slot *sl = &slots[i];
		uintptr_t lo, start, end;
		unsigned seq, tries;
		int state;

		for (tries = 0;; tries++) {
			seq = atomic_load(&sl->seq);
			state = atomic_load(&sl->state);
			start = atomic_load(&sl->start);
			end = atomic_load(&sl->end);
			if (!(seq & 1) && atomic_load(&sl->seq) == seq)
				break;
			if (tries == 1000) {
				state = SLOT_FREE;	/* changing all the while: not the mapping that faulted */
				break;
			}
		}
		if (state != SLOT_LIVE || a < start || a >= end)
			continue;
		/*
		 * The file now ends before addr: every page from addr's on is past
		 * its end. Pages between its new end and addr keep the file, and
		 * fault here in turn if they are read.
		 */
		lo = a & ~(page - 1);
		if (mmap((void *)lo, end - lo, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) !=
		    MAP_FAILED) {
			atomic_store(&sl->changed, 1);
			ret = 1;
		}
		break;
	}
	errno = saved;
	return ret;
}

void xp_guard_sigbus(int sig, siginfo_t *info, void *uctx)
{
	(void)uctx;
	if (info && info->si_code == BUS_ADRERR && xp_guard_fault(info->si_addr))
		return;
	signal(sig, SIG_DFL);
	raise(sig);
}

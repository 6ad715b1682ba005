/* SPDX-License-Identifier: Apache-2.0 */
/* A large file written in order by a thread of its own, past the page cache where it can be, synced as it grows. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out_file.h"
#include "xp_arena.h"

/* O_DIRECT's alignment of memory, offsets and lengths: every block size Linux file systems use. */
#define BLOCK ((size_t)4096)
#define BUF_BYTES ((size_t)8 << 20)
#define HUGE_PAGE ((size_t)2 << 20)	/* x86-64's and arm64's (4 KiB granule) */
#define NBUF 4

struct out_file {
	int fd;
	unsigned char *buf[NBUF];
	size_t len[NBUF];	/* a queued buffer's bytes */
	/* The caller's: the buffer it fills, and how far. */
	unsigned fill;
	size_t filled;
	/* The thread's: O_DIRECT on now; every whole block went past the page cache; bytes since the last sync. */
	int direct, all_direct;
	size_t unsynced;
	/* Shared, under mu: buffers head .. head + nqueued - 1 (mod NBUF) are queued, head being written. */
	pthread_mutex_t mu;
	pthread_cond_t queued, freed;
	unsigned head, nqueued;
	int stop;
	int err;		/* the first failed write's or sync's errno */
	pthread_t thread;
	int inited;		/* mu and the conditions */
	int running;
};

/* O_DIRECT off: from here the bytes go through the page cache. Returns 0 or an errno. */
static int direct_off(struct out_file *w)
{
	int flags = fcntl(w->fd, F_GETFL);

	w->direct = 0;
	if (flags < 0 || fcntl(w->fd, F_SETFL, flags & ~O_DIRECT))
		return errno ? errno : EIO;
	return 0;
}

/* write(2) of all n bytes. Returns 0 or an errno. */
static int write_all(int fd, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return errno ? errno : EIO;
		if (!k)
			return EIO;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/*
 * Writes n bytes: whole blocks with O_DIRECT while it is on, the rest (only
 * the file's last buffer ends off a block) without. A refusal (EINVAL) or a
 * short write off the blocks turns O_DIRECT off for good. Returns 0 or an errno.
 */
static int write_buf(struct out_file *w, const unsigned char *p, size_t n)
{
	size_t done = 0, whole = n & ~(BLOCK - 1);
	int rc;

	while (w->direct && done < whole) {
		ssize_t k = write(w->fd, p + done, whole - done);

		if (k < 0 && errno == EINTR)
			continue;
		if (k > 0 && (size_t)k % BLOCK == 0) {
			done += (size_t)k;
			continue;
		}
		if (k > 0)
			done += (size_t)k;
		else if (k < 0 && errno != EINVAL)
			return errno;
		w->all_direct = 0;
		rc = direct_off(w);
		if (rc)
			return rc;
	}
	if (done < n) {
		if (w->direct && (rc = direct_off(w)))
			return rc;
		rc = write_all(w->fd, p + done, n - done);
		if (rc)
			return rc;
	}
	w->unsynced += n;
	if (w->unsynced >= OUT_FILE_SYNC_BYTES) {
		w->unsynced = 0;
		if (fdatasync(w->fd))
			return errno ? errno : EIO;
	}
	return 0;
}

static void *writer_main(void *arg)
{
	struct out_file *w = arg;

	pthread_mutex_lock(&w->mu);
	for (;;) {
		unsigned i;
		int rc = 0;

		while (!w->nqueued && !w->stop)
			pthread_cond_wait(&w->queued, &w->mu);
		if (!w->nqueued)
			break;	/* stopped, nothing left */
		i = w->head;
		if (!w->err) {
			pthread_mutex_unlock(&w->mu);
			rc = write_buf(w, w->buf[i], w->len[i]);
			pthread_mutex_lock(&w->mu);
			if (rc && !w->err)
				w->err = rc;
		}
		w->head = (w->head + 1) % NBUF;
		w->nqueued--;
		pthread_cond_signal(&w->freed);
	}
	if (w->direct) {
		int rc = direct_off(w);	/* the caller finds the descriptor as it was, after a failure too */

		if (rc && !w->err)
			w->err = rc;
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

struct out_file *out_file_new(int fd, int direct)
{
	struct out_file *w = calloc(1, sizeof(*w));
	unsigned i;
	int flags, rc = ENOMEM;

	if (!w)
		goto out;
	w->fd = fd;
	for (i = 0; i < NBUF; i++) {
		void *p;

		/*
		 * On huge pages where the kernel has them (aligned to one, so that
		 * all of it can be): filling a buffer faults 4 times, not 2,048
		 * (each a costly exit on a virtual machine), and each write pins 4
		 * pages for the disk, not 2,048.
		 */
		if (posix_memalign(&p, HUGE_PAGE, BUF_BYTES))
			goto out;
		w->buf[i] = p;
		xp_hint_huge(p, BUF_BYTES);
	}
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->queued, NULL);
	pthread_cond_init(&w->freed, NULL);
	w->inited = 1;
	flags = fcntl(fd, F_GETFL);
	if (direct && flags >= 0 && !fcntl(fd, F_SETFL, flags | O_DIRECT))
		w->direct = w->all_direct = 1;
	rc = pthread_create(&w->thread, NULL, writer_main, w);
	w->running = !rc;
	if (rc && w->direct)
		(void)direct_off(w);
out:
	if (rc) {
		out_file_free(w);
		errno = rc;
		return NULL;
	}
	return w;
}

/* Queues the buffer being filled and waits for a free one. Returns 0 or the thread's errno. */
static int queue_fill(struct out_file *w)
{
	int rc;

	pthread_mutex_lock(&w->mu);
	w->len[w->fill] = w->filled;
	w->nqueued++;
	pthread_cond_signal(&w->queued);
	w->fill = (w->fill + 1) % NBUF;
	w->filled = 0;
	while (w->nqueued == NBUF)
		pthread_cond_wait(&w->freed, &w->mu);
	rc = w->err;
	pthread_mutex_unlock(&w->mu);
	return rc;
}

int out_file_put(struct out_file *w, const void *p, size_t n)
{
	const unsigned char *s = p;
	int rc;

	if (!w->running)	/* finished: nothing would write what comes */
		return w->err ? w->err : EINVAL;
	while (n) {
		size_t k = BUF_BYTES - w->filled < n ? BUF_BYTES - w->filled : n;

		memcpy(w->buf[w->fill] + w->filled, s, k);
		w->filled += k;
		s += k;
		n -= k;
		if (w->filled == BUF_BYTES && (rc = queue_fill(w)))
			return rc;
	}
	pthread_mutex_lock(&w->mu);
	rc = w->err;
	pthread_mutex_unlock(&w->mu);
	return rc;
}

/* Stops the thread once the queue is written. */
static void stop(struct out_file *w)
{
	if (!w->running)
		return;
	pthread_mutex_lock(&w->mu);
	w->stop = 1;
	pthread_cond_signal(&w->queued);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->thread, NULL);
	w->running = 0;
}

int out_file_finish(struct out_file *w)
{
	if (w->running && w->filled)
		(void)queue_fill(w);	/* its error is w->err, returned below */
	stop(w);
	return w->err;
}

int out_file_was_direct(const struct out_file *w)
{
	return w->all_direct;
}

void out_file_free(struct out_file *w)
{
	unsigned i;

	if (!w)
		return;
	stop(w);
	if (w->inited) {
		pthread_cond_destroy(&w->freed);
		pthread_cond_destroy(&w->queued);
		pthread_mutex_destroy(&w->mu);
	}
	for (i = 0; i < NBUF; i++)
		free(w->buf[i]);
	free(w);
}

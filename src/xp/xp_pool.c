/* SPDX-License-Identifier: Apache-2.0 */
#include "xp_pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

struct pool {
	size_t n, next, consumed, window;
	void **results;
	unsigned char *ready;
	xp_pool_work_fn work;
	void *ctx;
	pthread_mutex_t mu;
	pthread_cond_t cond_ready, cond_space;
};

static void *pool_worker(void *arg)
{
	struct pool *p = arg;
	size_t i;
	void *r;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (p->next < p->n && p->next >= p->consumed + p->window)
			pthread_cond_wait(&p->cond_space, &p->mu);
		if (p->next >= p->n)
			break;
		i = p->next++;
		pthread_mutex_unlock(&p->mu);
		r = p->work(i, p->ctx);
		pthread_mutex_lock(&p->mu);
		p->results[i] = r;
		p->ready[i] = 1;
		pthread_cond_signal(&p->cond_ready);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

static unsigned run_serial(size_t n, xp_pool_work_fn work, xp_pool_done_fn done, void *ctx)
{
	size_t i;

	for (i = 0; i < n; i++)
		done(i, work(i, ctx), ctx);
	return 1;
}

unsigned xp_pool_run(size_t n, unsigned jobs, xp_pool_work_fn work, xp_pool_done_fn done, void *ctx)
{
	struct pool p = {.n = n, .work = work, .ctx = ctx};
	pthread_t *threads;
	unsigned k, started = 0;
	size_t i;

	if (jobs > n)
		jobs = (unsigned)n;
	if (jobs <= 1)
		return run_serial(n, work, done, ctx);
	p.window = 4 * (size_t)jobs;
	p.results = calloc(n, sizeof(*p.results));
	p.ready = calloc(n, 1);
	threads = calloc(jobs, sizeof(*threads));
	if (!p.results || !p.ready || !threads) {
		free(p.results);
		free(p.ready);
		free(threads);
		return run_serial(n, work, done, ctx);
	}
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cond_ready, NULL);
	pthread_cond_init(&p.cond_space, NULL);
	/* The caller consumes; the workers produce. */
	for (k = 0; k < jobs; k++)
		if (!pthread_create(&threads[started], NULL, pool_worker, &p))
			started++;
	for (i = 0; i < n; i++) {
		void *r;

		pthread_mutex_lock(&p.mu);
		if (!started && p.next == i) {
			/* No thread could start: the caller works alone. */
			p.next++;
			pthread_mutex_unlock(&p.mu);
			r = work(i, ctx);
		} else {
			while (!p.ready[i])
				pthread_cond_wait(&p.cond_ready, &p.mu);
			r = p.results[i];
			pthread_mutex_unlock(&p.mu);
		}
		done(i, r, ctx);
		pthread_mutex_lock(&p.mu);
		p.consumed = i + 1;
		pthread_cond_broadcast(&p.cond_space);
		pthread_mutex_unlock(&p.mu);
	}
	for (k = 0; k < started; k++)
		pthread_join(threads[k], NULL);
	pthread_cond_destroy(&p.cond_ready);
	pthread_cond_destroy(&p.cond_space);
	pthread_mutex_destroy(&p.mu);
	free(p.results);
	free(p.ready);
	free(threads);
	return started ? started : 1;
}

unsigned xp_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

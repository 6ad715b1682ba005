/* SPDX-License-Identifier: Apache-2.0 */
/* A minimal test harness: CHECK* record failures with file and line; test_done() sets the exit status. */
#ifndef TEST_H
#define TEST_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int test_failures;

#define CHECK(cond)                                                                      \
	do {                                                                             \
		if (!(cond)) {                                                           \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
			test_failures++;                                                 \
		}                                                                        \
	} while (0)

#define CHECK_INT(a, b)                                                                  \
	do {                                                                             \
		long long a_ = (long long)(a), b_ = (long long)(b);                      \
		if (a_ != b_) {                                                          \
			fprintf(stderr, "%s:%d: %s == %lld, expected %lld\n", __FILE__, __LINE__, #a, a_, b_); \
			test_failures++;                                                 \
		}                                                                        \
	} while (0)

/* Relative tolerance for values that are irrational by construction (square roots). */
#define CHECK_NEAR(a, b, rel)                                                            \
	do {                                                                             \
		double a_ = (double)(a), b_ = (double)(b);                               \
		if (!(fabs(a_ - b_) <= (rel) * fmax(fabs(b_), 1e-300))) {                \
			fprintf(stderr, "%s:%d: %s == %.17g, expected %.17g\n", __FILE__, __LINE__, #a, a_, b_); \
			test_failures++;                                                 \
		}                                                                        \
	} while (0)

#define CHECK_STR(a, b)                                                                  \
	do {                                                                             \
		const char *a_ = (a), *b_ = (b);                                         \
		if (!a_ || !b_ || strcmp(a_, b_)) {                                      \
			fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a, \
				a_ ? a_ : "(null)", b_ ? b_ : "(null)");                 \
			test_failures++;                                                 \
		}                                                                        \
	} while (0)

static inline int test_done(const char *name)
{
	if (test_failures)
		fprintf(stderr, "%s: %d check(s) failed\n", name, test_failures);
	else
		printf("%s: ok\n", name);
	return test_failures ? 1 : 0;
}

#endif

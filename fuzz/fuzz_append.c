/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The append protocol (cmd_append.c) on a file the input makes: its bytes
 * (often a summary's first line, then anything), a journal a killed appender
 * left (noting a length, garbage, or another file's), --repair or not. Held
 * to its promise: refused, the file keeps every byte (past a journal's
 * rollback); accepted, it ends as it was (rolled back, a cut line removed on
 * --repair, a lacking newline added) plus the new lines; an append killed
 * half-way (its journal and a prefix of its lines left) is rolled back to
 * the byte by the next one.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "an_summary.h"
#include "cmd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static char dir[] = "/tmp/xps-fuzz-append-XXXXXX";
static char path[64], journal[80];
static const char line[] = AN_SUMMARY_MAGIC "1,\"cut\":\"by the fuzzer\"}\n";

static void put(const char *p, const void *bytes, size_t n)
{
	FILE *f = fopen(p, "wb");

	if (!f || fwrite(bytes, 1, n, f) != n || fclose(f))
		abort();
}

/* The file's bytes (malloc'd, *n of them). */
static char *get(size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *b = NULL;
	long k;

	if (!f || fseek(f, 0, SEEK_END) || (k = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		abort();
	*n = (size_t)k;
	if (!(b = malloc(*n + 1)) || fread(b, 1, *n, f) != *n)
		abort();
	fclose(f);
	return b;
}

static void journal_of(size_t len)
{
	struct stat st;
	char j[128];
	int n;

	if (stat(path, &st))
		abort();
	n = snprintf(j, sizeof(j), "xplane-stat append journal %ju %ju %zu\n", (uintmax_t)st.st_dev,
		     (uintmax_t)st.st_ino, len);
	put(journal, j, (size_t)n);
}

static int null_fd = -1, err_fd = -1;

/* Appends the line; 1 when done, 0 refused. Its messages (refusals say why) go nowhere. */
static int append(int repair)
{
	struct cmd_append a;
	int ret, opened;

	fflush(stderr);
	dup2(null_fd, STDERR_FILENO);
	opened = cmd_append_open(&a, path, repair) == CMD_GO_ON;
	ret = opened ? cmd_append_commit(&a, line, sizeof(line) - 1) : EXIT_OK;
	if (opened)
		cmd_append_close(&a);
	fflush(stderr);
	dup2(err_fd, STDERR_FILENO);	/* libFuzzer reports there */
	if (ret != EXIT_OK)
		abort();	/* a temporary directory does not fill up */
	return opened;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static int ready;
	uint8_t flags = len ? data[0] : 0;
	size_t cut = len > 2 ? (size_t)(data[1] | data[2] << 8) : 0, n0, n1, body = len > 3 ? len - 3 : 0;
	int repair = flags & 1, kill = flags & 2, head = flags & 4, junk = flags & 8, done;
	char *before, *after;

	if (!ready) {
		if (!mkdtemp(dir))
			abort();
		snprintf(path, sizeof(path), "%s/f", dir);
		snprintf(journal, sizeof(journal), "%s/f-journal", dir);
		if ((null_fd = open("/dev/null", O_WRONLY)) < 0 || (err_fd = dup(STDERR_FILENO)) < 0)
			abort();
		ready = 1;
	}
	unlink(journal);
	/* the file: a summary's head or not, then the input's bytes */
	{
		char *b = malloc(sizeof(AN_SUMMARY_MAGIC) + body);

		if (!b)
			abort();
		n0 = 0;
		if (head) {
			memcpy(b, AN_SUMMARY_MAGIC, sizeof(AN_SUMMARY_MAGIC) - 1);
			n0 = sizeof(AN_SUMMARY_MAGIC) - 1;
		}
		memcpy(b + n0, data + (len - body), body);
		put(path, b, n0 + body);
		free(b);
	}
	if (junk)
		put(journal, data + (len - body), body < 40 ? body : 40);
	before = get(&n0);
	done = append(repair);
	after = get(&n1);
	if (!done && !junk && (n1 != n0 || memcmp(before, after, n0)))
		abort();	/* refused, and a byte changed */
	if (!done && !junk && access(journal, F_OK) == 0)
		abort();
	if (done && !junk && !repair) {
		/* what was there, a newline where the last record lacked only it, the line */
		size_t nl = n1 >= n0 + sizeof(line) - 1 ? n1 - n0 - (sizeof(line) - 1) : 2;

		if (nl > 1 || memcmp(after, before, n0) || (nl && after[n0] != '\n') ||
		    memcmp(after + n0 + nl, line, sizeof(line) - 1))
			abort();
	}
	if (done && access(journal, F_OK) == 0)
		abort();
	free(before);
	free(after);
	if (!done || !kill)
		return 0;
	/* killed half-way through the next append: its journal, a prefix of its line */
	before = get(&n0);
	journal_of(n0);
	{
		int fd = open(path, O_WRONLY | O_APPEND);
		size_t k = cut % sizeof(line);

		if (fd < 0 || write(fd, line, k) != (ssize_t)k || close(fd))
			abort();
	}
	if (!append(0))
		abort();	/* the rollback leaves a whole file to append to */
	after = get(&n1);
	if (n1 != n0 + sizeof(line) - 1 || memcmp(after, before, n0) || memcmp(after + n0, line, sizeof(line) - 1))
		abort();
	free(before);
	free(after);
	return 0;
}

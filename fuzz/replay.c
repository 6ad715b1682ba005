/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runs a harness over files without libFuzzer, so that an ordinary build
 * (gcc, the sanitizer build) replays the seeds and every past finding:
 *   replay_<harness> FILE|DIR...   (directories: their files, recursively)
 * Exits non-zero if a file cannot be read; a harness failure aborts.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static size_t nfiles;

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, r;

	if (!f) {
		perror(path);
		return 1;
	}
	do {
		if (len == cap) {
			cap = cap ? cap * 2 : 1 << 16;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		r = fread(buf + len, 1, cap - len, f);
		len += r;
	} while (r);
	if (ferror(f)) {
		perror(path);
		fclose(f);
		free(buf);
		return 1;
	}
	fclose(f);
	/* An exact copy, so that a read past the end is one a sanitizer sees. */
	buf = realloc(buf, len ? len : 1);
	if (getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "%s\n", path);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	nfiles++;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_path(const char *path)
{
	struct stat st;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, i;
	DIR *d;
	int ret = 0;

	if (stat(path, &st)) {
		perror(path);
		return 1;
	}
	if (!S_ISDIR(st.st_mode))
		return run_file(path);
	d = opendir(path);
	if (!d) {
		perror(path);
		return 1;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		if (!names || asprintf(&names[n], "%s/%s", path, de->d_name) < 0)
			abort();
		n++;
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		ret |= run_path(names[i]);
		free(names[i]);
	}
	free(names);
	return ret;
}

int main(int argc, char **argv)
{
	int i, ret = 0;

	for (i = 1; i < argc; i++)
		ret |= run_path(argv[i]);
	printf("%s: %zu inputs\n", argv[0], nfiles);
	return ret;
}

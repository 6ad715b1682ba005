/* SPDX-License-Identifier: Apache-2.0 */
/*
 * wirewalk: the speed baseline of tools/bench. Maps a file and walks the
 * protobuf wire format of an XSpace, descending into planes, lines, events,
 * stats and metadata and reading every field's value, allocating nothing.
 * Prints bytes, events seen and seconds; a reader can hardly beat this.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Message kinds, to know which length-delimited fields are submessages. */
enum kind { SPACE, PLANE, LINE, EVENT, STAT, MAP_ENTRY_EM, MAP_ENTRY_SM, EVMETA, STATMETA, NONE };

static uint64_t checksum, events;

static int varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	uint64_t r = 0;
	int shift;

	for (shift = 0; shift < 64 && *p < end; shift += 7) {
		uint8_t b = *(*p)++;

		r |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = r;
			return 0;
		}
	}
	return -1;
}

static enum kind child(enum kind k, uint32_t field)
{
	switch (k) {
	case SPACE: return field == 1 ? PLANE : NONE;
	case PLANE: return field == 3 ? LINE : field == 4 ? MAP_ENTRY_EM : field == 5 ? MAP_ENTRY_SM
				: field == 6 ? STAT : NONE;
	case LINE: return field == 4 ? EVENT : NONE;
	case EVENT: return field == 4 ? STAT : NONE;
	case MAP_ENTRY_EM: return field == 2 ? EVMETA : NONE;
	case MAP_ENTRY_SM: return field == 2 ? STATMETA : NONE;
	case EVMETA: return field == 5 ? STAT : NONE;
	default: return NONE;
	}
}

static int walk(const uint8_t *p, const uint8_t *end, enum kind k)
{
	if (k == EVENT)
		events++;
	while (p < end) {
		uint64_t key, v;

		if (varint(&p, end, &key))
			return -1;
		switch (key & 7) {
		case 0:
			if (varint(&p, end, &v))
				return -1;
			checksum += v;
			break;
		case 1:
			if (end - p < 8)
				return -1;
			checksum += p[0];
			p += 8;
			break;
		case 5:
			if (end - p < 4)
				return -1;
			p += 4;
			break;
		case 2: {
			enum kind c;

			if (varint(&p, end, &v) || v > (uint64_t)(end - p))
				return -1;
			c = child(k, (uint32_t)(key >> 3));
			if (c != NONE && walk(p, p + v, c))
				return -1;
			checksum += v;
			p += v;
			break;
		}
		default:
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct stat st;
	const uint8_t *m;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: wirewalk FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || st.st_size == 0) {
		perror(argv[1]);
		return 1;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (walk(m, m + st.st_size, SPACE)) {
		fprintf(stderr, "wirewalk: %s: malformed\n", argv[1]);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%lld bytes %llu events %.6f s (checksum %llu)\n", (long long)st.st_size,
	       (unsigned long long)events,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
	       (unsigned long long)checksum);
	munmap((void *)m, (size_t)st.st_size);
	close(fd);
	return 0;
}

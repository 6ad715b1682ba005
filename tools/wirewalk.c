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

/*
 * One loop per message type, each switching on its own field numbers (no
 * table of kinds), with a one-byte fast path for varints: the tight walk a
 * reader is measured against (a generic tag walker is about 3x slower and
 * flatters every ratio). Every scalar is added to a checksum and every
 * string's length, so nothing is optimised away.
 */
static uint64_t checksum, events;

#define VARINT(p, end, v, fail)                                                         \
	do {                                                                            \
		if ((p) < (end) && !(*(p) & 0x80)) {                                    \
			(v) = *(p)++;                                                   \
		} else {                                                                \
			uint64_t r_ = 0;                                                \
			int s_ = 0;                                                     \
			for (;;) {                                                      \
				if ((p) >= (end) || s_ >= 64)                           \
					goto fail;                                      \
				r_ |= (uint64_t)(*(p) & 0x7f) << s_;                    \
				s_ += 7;                                                \
				if (!(*(p)++ & 0x80))                                   \
					break;                                          \
			}                                                               \
			(v) = r_;                                                       \
		}                                                                       \
	} while (0)

/* Skips a field of wire type wt that the message does not descend into. */
static int skip(const uint8_t **pp, const uint8_t *end, uint64_t wt)
{
	const uint8_t *p = *pp;
	uint64_t v;

	switch (wt) {
	case 0:
		VARINT(p, end, v, bad);
		checksum += v;
		break;
	case 1:
		if (end - p < 8)
			return -1;
		checksum += p[0];
		p += 8;
		break;
	case 2:
		VARINT(p, end, v, bad);
		if (v > (uint64_t)(end - p))
			return -1;
		checksum += v;
		p += v;
		break;
	case 5:
		if (end - p < 4)
			return -1;
		p += 4;
		break;
	default:
		return -1;
	}
	*pp = p;
	return 0;
bad:
	return -1;
}

/* The length-delimited payload at p: [*sub, *sub_end), p moved past it. */
#define SUB(p, end, sub, sub_end, fail)                                                 \
	do {                                                                            \
		uint64_t n_;                                                            \
		VARINT(p, end, n_, fail);                                               \
		if (n_ > (uint64_t)((end) - (p)))                                       \
			goto fail;                                                      \
		(sub) = (p);                                                            \
		(sub_end) = (p) + n_;                                                   \
		(p) += n_;                                                              \
	} while (0)

static int walk_stat(const uint8_t *p, const uint8_t *end)
{
	while (p < end) {
		uint64_t key;

		VARINT(p, end, key, bad);
		if ((key & 7) == 0) {	/* metadata_id 1, uint64 3, int64 4, ref 7 */
			uint64_t v;

			VARINT(p, end, v, bad);
			checksum += v;
		} else if (skip(&p, end, key & 7)) {
			return -1;
		}
	}
	return 0;
bad:
	return -1;
}

static int walk_event(const uint8_t *p, const uint8_t *end)
{
	events++;
	while (p < end) {
		uint64_t key, v;
		const uint8_t *s, *se;

		VARINT(p, end, key, bad);
		switch (key) {
		case 1 << 3:		/* metadata_id */
		case 2 << 3:		/* offset_ps */
		case 3 << 3:		/* duration_ps */
		case 5 << 3:		/* num_occurrences */
			VARINT(p, end, v, bad);
			checksum += v;
			break;
		case 4 << 3 | 2:	/* stats */
			SUB(p, end, s, se, bad);
			if (walk_stat(s, se))
				return -1;
			break;
		default:
			if (skip(&p, end, key & 7))
				return -1;
		}
	}
	return 0;
bad:
	return -1;
}

/*
 * A message whose only submessage of interest is field `field`, walked by
 * child: a line (events, 4), a metadata (stats, 5), a map entry (its value, 2).
 */
static int walk_into(const uint8_t *p, const uint8_t *end, uint64_t field,
		     int (*child)(const uint8_t *, const uint8_t *))
{
	while (p < end) {
		uint64_t key;
		const uint8_t *s, *se;

		VARINT(p, end, key, bad);
		if (key == (field << 3 | 2)) {
			SUB(p, end, s, se, bad);
			if (child(s, se))
				return -1;
		} else if (skip(&p, end, key & 7)) {
			return -1;
		}
	}
	return 0;
bad:
	return -1;
}

static int walk_line(const uint8_t *p, const uint8_t *end)
{
	return walk_into(p, end, 4, walk_event);
}

/* An event metadata (stats in field 5) or a stat metadata (no field 5). */
static int walk_meta(const uint8_t *p, const uint8_t *end)
{
	return walk_into(p, end, 5, walk_stat);
}

static int walk_entry(const uint8_t *p, const uint8_t *end)
{
	return walk_into(p, end, 2, walk_meta);
}

static int walk_plane(const uint8_t *p, const uint8_t *end)
{
	while (p < end) {
		uint64_t key;
		const uint8_t *s, *se;

		VARINT(p, end, key, bad);
		switch (key) {
		case 3 << 3 | 2:	/* lines */
			SUB(p, end, s, se, bad);
			if (walk_line(s, se))
				return -1;
			break;
		case 4 << 3 | 2:	/* event_metadata */
		case 5 << 3 | 2:	/* stat_metadata */
			SUB(p, end, s, se, bad);
			if (walk_entry(s, se))
				return -1;
			break;
		case 6 << 3 | 2:	/* stats */
			SUB(p, end, s, se, bad);
			if (walk_stat(s, se))
				return -1;
			break;
		default:
			if (skip(&p, end, key & 7))
				return -1;
		}
	}
	return 0;
bad:
	return -1;
}

static int walk(const uint8_t *p, const uint8_t *end)
{
	return walk_into(p, end, 1, walk_plane);	/* the space's planes */
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
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	if (m == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (walk(m, m + st.st_size)) {
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

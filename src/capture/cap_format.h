/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The record file: one per captured process, written as the process runs so
 * that a process killed half-way still leaves a readable file.
 *
 *   header   64 bytes: magic "\x89XPSCAP\n", u32 version, u32 header size,
 *            u32 pid, u32 flags, u64 start wall ns, u64 start CUPTI ns,
 *            u32 CUPTI version, u32 flush interval ms (0: none), zeros up
 *            to the header size
 *   records  each: u16 type, u16 zero, u32 payload length, payload
 *   trailer  a record of type CAP_REC_TRAILER, last; without it the file is
 *            partial (the process did not reach its exit handlers)
 *
 * Integers are little-endian. Strings are records of their own (u32 id, then
 * the bytes, no NUL), written before the first record that refers to them by
 * id; ids count from 1 in file order and 0 means "no string". A reader skips
 * record types it does not know, and reads the known prefix of a payload
 * longer than it expects, so fields can be appended in a later version.
 */
#ifndef CAP_FORMAT_H
#define CAP_FORMAT_H

#include <stdint.h>
#include <string.h>

#define CAP_MAGIC "\x89XPSCAP\n"
#define CAP_MAGIC_LEN 8
#define CAP_VERSION 1
#define CAP_HEADER_SIZE 64
#define CAP_REC_HEADER 8
#define CAP_MAX_PAYLOAD (16u << 20)	/* larger lengths are corruption */
#define CAP_FILE_SUFFIX ".xpscap"

enum cap_rec_type {
	CAP_REC_STRING = 1,
	CAP_REC_DEVICE = 2,
	CAP_REC_KERNEL = 3,
	CAP_REC_MEMCPY = 4,
	CAP_REC_MEMSET = 5,
	CAP_REC_API = 6,
	CAP_REC_MARKER = 7,
	CAP_REC_NOTE = 8,
	CAP_REC_DROPPED = 9,
	CAP_REC_RANGE = 10,
	CAP_REC_TRAILER = 15,
};

/* The shortest API payload read (no kind: a driver call). */
#define CAP_LEN_API_MIN 36

/* Payload sizes of version 1 (the STRING and NOTE payloads are at least this long). */
enum {
	CAP_LEN_STRING = 4,
	CAP_LEN_DEVICE = 72,
	CAP_LEN_KERNEL = 88,
	CAP_LEN_MEMCPY = 64,
	CAP_LEN_MEMSET = 60,
	CAP_LEN_API = 40,	/* 36 in the first files of version 1, before the kind */
	CAP_LEN_MARKER = 28,
	CAP_LEN_NOTE = 4,
	CAP_LEN_DROPPED = 8,
	CAP_LEN_RANGE = 12,
	CAP_LEN_TRAILER = 32,
};

static inline void cap_put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static inline void cap_put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static inline void cap_put64(unsigned char *p, uint64_t v)
{
	cap_put32(p, (uint32_t)v);
	cap_put32(p + 4, (uint32_t)(v >> 32));
}

static inline uint16_t cap_get16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t cap_get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t cap_get64(const unsigned char *p)
{
	return (uint64_t)cap_get32(p) | (uint64_t)cap_get32(p + 4) << 32;
}

#endif

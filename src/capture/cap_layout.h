/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where each field of a fixed-layout record lies in its payload: one table
 * per record type, in payload order, used by both the writer and the reader
 * so that the two cannot drift apart. Payload offsets follow from the field
 * sizes; the tables are checked against CAP_LEN_* by test_cap_file.
 *
 * Strings are u32 ids in the payload (see cap_format.h): the writer interns
 * the struct's C string, the reader resolves the id through a callback.
 */
#ifndef CAP_LAYOUT_H
#define CAP_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

enum cap_field_kind {
	CAP_FK_U64,		/* uint64_t <-> 8 bytes */
	CAP_FK_U32,		/* uint32_t or int32_t <-> 4 bytes */
	CAP_FK_BOOL32,		/* uint32_t <-> 4 bytes, read as 0 or 1 */
	CAP_FK_ENUM8,		/* uint8_t <-> 1 byte, read as 0 when >= bound */
	CAP_FK_BOOL8,		/* uint8_t <-> 1 byte, read as 0 or 1 */
	CAP_FK_STR,		/* const char * <-> u32 string id */
	CAP_FK_ZERO,		/* no field: bound bytes of zeros (padding) */
};

struct cap_field {
	uint8_t kind;		/* enum cap_field_kind */
	uint8_t bound;		/* CAP_FK_ENUM8: values allowed; CAP_FK_ZERO: bytes */
	uint16_t off;		/* offset of the field in the struct */
};

struct cap_layout {
	uint16_t type;		/* enum cap_rec_type */
	uint16_t len;		/* payload bytes: CAP_LEN_<type> */
	uint8_t nfields, nstrings;
	const struct cap_field *fields;
};

extern const struct cap_layout cap_layout_device, cap_layout_kernel, cap_layout_memcpy,
	cap_layout_memset, cap_layout_api, cap_layout_marker, cap_layout_range, cap_layout_trailer;

#define CAP_LAYOUT_MAX_STRINGS 2

/* Payload bytes the table l describes (test_cap_file compares it with l->len). */
size_t cap_layout_size(const struct cap_layout *l);
/* Writes rec into payload p; str_ids holds the ids of its string fields in table order. */
void cap_layout_put(const struct cap_layout *l, const void *rec, const uint32_t *str_ids, unsigned char *p);
/* The string fields of rec, in table order, into s[CAP_LAYOUT_MAX_STRINGS]; returns how many. */
size_t cap_layout_strings(const struct cap_layout *l, const void *rec, const char **s);
/* Reads payload p (at least l->len bytes) into rec; str resolves string ids. */
void cap_layout_get(const struct cap_layout *l, const unsigned char *p, void *rec,
		    const char *(*str)(void *ctx, uint32_t id), void *ctx);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
#include "out_json.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "out_table.h"

cJSON *out_json_doc(void)
{
	cJSON *d = cJSON_CreateObject();

	if (d)
		cJSON_AddNumberToObject(d, "schema_version", 1);
	return d;
}

cJSON *out_json_command_doc(const char *command)
{
	cJSON *d = out_json_doc();

	if (d)
		cJSON_AddStringToObject(d, "command", command);
	return d;
}

void out_json_add_u64(cJSON *obj, const char *name, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	cJSON_AddRawToObject(obj, name, buf);
}

cJSON *out_json_id(int has, uint64_t v)
{
	char buf[32];

	if (!has)
		return cJSON_CreateNull();
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return v <= UINT64_C(1) << 53 ? cJSON_CreateRaw(buf) : cJSON_CreateString(buf);
}

void out_json_add_id(cJSON *obj, const char *name, int has, uint64_t v)
{
	cJSON_AddItemToObject(obj, name, out_json_id(has, v));
}

void out_json_add_u64_if(cJSON *obj, const char *name, int has, uint64_t v)
{
	if (has)
		out_json_add_u64(obj, name, v);
	else
		cJSON_AddNullToObject(obj, name);
}

void out_json_add_str_or_null(cJSON *obj, const char *name, const char *s)
{
	if (s)
		cJSON_AddStringToObject(obj, name, s);
	else
		cJSON_AddNullToObject(obj, name);
}

cJSON *out_json_push_object(cJSON *arr)
{
	cJSON *o = arr ? cJSON_CreateObject() : NULL;

	if (o)
		cJSON_AddItemToArray(arr, o);
	return o;
}

void out_json_add_ns(cJSON *obj, const char *name, double ps)
{
	/* Round to the picosecond so 1234567 ps prints 1234.567, not 1234.5670000000001. */
	cJSON_AddNumberToObject(obj, name, round(ps) / 1000.0);
}

void out_json_add_notes(cJSON *obj, const struct xp_notes *n)
{
	cJSON *a = cJSON_AddArrayToObject(obj, "warnings");
	size_t i;

	for (i = 0; a && n && i < n->n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(n->msgs[i]));
}

/*
 * cJSON copies strings byte for byte, and names from a profile or a file
 * name need not be UTF-8: such bytes (only ever inside strings) are written
 * as the text \xNN, as the table shows them, so the document stays JSON.
 */
static void put_utf8(const char *s, FILE *f)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = out_utf8_len(p);

		if (n) {
			fwrite(p, 1, n, f);
			p += n;
		} else {
			fprintf(f, "\\\\x%02x", *p++);
		}
	}
}

static int print_doc(cJSON *doc, FILE *f, int one_line)
{
	char *s = !doc ? NULL : one_line ? cJSON_PrintUnformatted(doc) : cJSON_Print(doc);
	int ret = s ? 0 : -1;

	if (s) {
		put_utf8(s, f);
		fputc('\n', f);
		free(s);
	}
	cJSON_Delete(doc);
	return ret;
}

int out_json_print(cJSON *doc, FILE *f)
{
	return print_doc(doc, f, 0);
}

int out_json_print_line(cJSON *doc, FILE *f)
{
	return print_doc(doc, f, 1);
}

#include "out_json.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

cJSON *out_json_doc(void)
{
	cJSON *d = cJSON_CreateObject();

	if (d)
		cJSON_AddNumberToObject(d, "schema_version", 1);
	return d;
}

void out_json_add_u64(cJSON *obj, const char *name, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	cJSON_AddRawToObject(obj, name, buf);
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

static int print_doc(cJSON *doc, FILE *f, int one_line)
{
	char *s = !doc ? NULL : one_line ? cJSON_PrintUnformatted(doc) : cJSON_Print(doc);
	int ret = s ? 0 : -1;

	if (s) {
		fputs(s, f);
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

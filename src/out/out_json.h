/* SPDX-License-Identifier: Apache-2.0 */
/* JSON helpers over cJSON shared by the formatters. */
#ifndef OUT_JSON_H
#define OUT_JSON_H

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>

#include "xp_err.h"

/* A new object carrying "schema_version": 1. */
cJSON *out_json_doc(void);
/* The same, then "command": command: a command's document, which names what made it. */
cJSON *out_json_command_doc(const char *command);
/* Adds a uint64 exactly (cJSON numbers are doubles, which round above 2^53). */
void out_json_add_u64(cJSON *obj, const char *name, uint64_t v);
/* v when has, else null: a value the trace may lack. */
void out_json_add_u64_if(cJSON *obj, const char *name, int has, uint64_t v);
/*
 * An id (a program id, an address, a stat's value): a number up to 2^53,
 * past it a string of its digits, since JSON readers keep numbers as doubles
 * (jq would print 12190760917235804000 for 12190760917235803965); null
 * without one (has 0).
 */
cJSON *out_json_id(int has, uint64_t v);
void out_json_add_id(cJSON *obj, const char *name, int has, uint64_t v);
/* s, or null when s is NULL. */
void out_json_add_str_or_null(cJSON *obj, const char *name, const char *s);
/* A new object appended to the array arr; NULL when out of memory (arr NULL too). */
cJSON *out_json_push_object(cJSON *arr);
/* Adds "warnings": [...]. */
void out_json_add_notes(cJSON *obj, const struct xp_notes *n);
/* Prints and frees doc; -1 if it could not be built or printed. */
int out_json_print(cJSON *doc, FILE *f);
/* The same on one line (JSON lines). */
int out_json_print_line(cJSON *doc, FILE *f);
/* Picoseconds as a nanosecond number (3 decimals exact). */
void out_json_add_ns(cJSON *obj, const char *name, double ps);

#endif

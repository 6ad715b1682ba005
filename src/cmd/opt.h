/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Options as data: each command declares a table; the parser and the help
 * text both come from it, so they cannot drift apart.
 */
#ifndef OPT_H
#define OPT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum opt_kind {
	OPT_END = 0,
	OPT_FLAG,	/* int *: set to 1 */
	OPT_STR,	/* const char **: the argument */
	OPT_SIZE,	/* size_t *: a non-negative integer */
	OPT_COUNT,	/* size_t *: a positive integer (0 is refused) */
	OPT_DUR,	/* int64_t *: a duration with unit (ps, ns, us, ms, s) into picoseconds */
	OPT_BYTES,	/* uint64_t *: a size with optional K, M, G, T suffix (powers of 1024) */
	OPT_ENUM,	/* int *: the index of the argument among arg's names ("name|config|function"), */
			/* the last one given, checked once the rest is parsed */
};

struct opt {
	const char *lng;	/* without the leading "--" */
	char shrt;		/* 0 for none */
	enum opt_kind kind;
	void *ptr;
	const char *arg;	/* argument name in help, e.g. "REGEX"; OPT_ENUM: its values, "a|b|c" */
	const char *help;
};

struct opt_cmd {
	const char *name;	/* "functions" */
	const char *usage;	/* after "xplane-stat NAME ": "[OPTIONS] FILE|DIR|-..." */
	const char *about;	/* a paragraph shown under the usage line */
	const struct opt *opts;	/* ends with kind OPT_END */
	size_t min_pos, max_pos;	/* how many positional arguments it takes (max_pos 0: any number) */
	const char *pos_msg;	/* what a count out of that range says; NULL: "no input given" */
};

/*
 * Parses argv[1..argc-1] (argv[0] is the command name). Options may follow
 * positionals; "--" ends options; "-" is a positional. Positionals are
 * collected into *pos (a malloc'd array, caller frees) and their count into *npos.
 * Returns 0, 1 if --help was given (help printed to out), or -1 with a message
 * in err: a bad option, or a count of positionals c does not take.
 */
int opt_parse(const struct opt_cmd *c, int argc, char **argv, const char ***pos, size_t *npos,
	      FILE *out, char *err, size_t errlen);
void opt_help(const struct opt_cmd *c, FILE *f);
/*
 * For main, once, before it runs a command typed after options
 * (`xplane-stat -j 2 export F`): argv is the command's argument vector and
 * argv[last] the last word typed before the command's name. If that word is
 * an option that takes a value with none joined to it, it would have taken
 * the command's name: opt_parse then refuses it as ambiguous instead of
 * taking the next word (`xplane-stat -o functions a.pb b.pb` must not write
 * over a.pb).
 */
void opt_before_command(char **argv, int last);
/* Edit distance between a (la bytes) and b, for "did you mean" (words under 64 bytes; else SIZE_MAX). */
size_t opt_distance(const char *a, size_t la, const char *b);
/* "1us", "250ns", "2.5ms", "1s", "1000ps"; returns -1 if malformed. */
int opt_parse_duration(const char *s, int64_t *ps);

#endif

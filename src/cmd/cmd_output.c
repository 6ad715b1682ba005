/* SPDX-License-Identifier: Apache-2.0 */
/* Output files: written under a temporary name and renamed when complete, or standard output. */
#include "cmd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Where path leads through symbolic links (a malloc'd path; path itself when
 * it is none): the file written is the link's target, the link kept. NULL
 * when out of memory or in a loop (errno set).
 */
static char *link_target(const char *path)
{
	char *cur = strdup(path);
	int hops;

	for (hops = 0; cur && hops < 40; hops++) {
		struct stat st;
		char buf[4096], *next;
		ssize_t n;
		const char *slash;

		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;
		if ((n = readlink(cur, buf, sizeof(buf) - 1)) < 0 || n == (ssize_t)sizeof(buf) - 1) {
			if (n >= 0)
				errno = ENAMETOOLONG;	/* a target as long as the buffer may be cut: never guessed */
			free(cur);
			return NULL;
		}
		buf[n] = '\0';
		slash = strrchr(cur, '/');
		if (buf[0] == '/' || !slash)
			next = strdup(buf);
		else if (asprintf(&next, "%.*s/%s", (int)(slash - cur), cur, buf) < 0)
			next = NULL;
		free(cur);
		cur = next;
	}
	if (cur) {
		free(cur);
		errno = ELOOP;
	}
	return NULL;
}

int cmd_out_open(struct cmd_out *o, const char *path)
{
	struct stat st;
	int fd;

	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return EXIT_OK;
	}
	if (!(o->path = link_target(path))) {
		cmd_error("cannot open '%s': %s", path, strerror(errno));
		return EXIT_ERROR;
	}
	path = o->path;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* A device or FIFO (-o /dev/null) is written in place: a rename would replace it. */
		if (!(o->f = fopen(path, "w"))) {
			cmd_error("cannot open '%s': %s", path, strerror(errno));
			free(o->path);
			o->path = NULL;
			return EXIT_ERROR;
		}
		return EXIT_OK;
	}
	if (asprintf(&o->tmp, "%s.tmp-XXXXXX", path) < 0) {
		cmd_error("out of memory");
		free(o->path);
		o->path = NULL;
		o->tmp = NULL;
		return EXIT_ERROR;
	}
	fd = mkstemp(o->tmp);
	if (fd >= 0) {
		/* mkstemp makes 0600; give the file the mode it would have had (or had). */
		mode_t mask = umask(0);

		umask(mask);
		fchmod(fd, stat(path, &st) == 0 ? st.st_mode & 07777 : 0666 & ~mask);
	}
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		cmd_error("cannot create '%s': %s", o->path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->path);
		free(o->tmp);
		memset(o, 0, sizeof(*o));
		return EXIT_ERROR;
	}
	return EXIT_OK;
}

int cmd_out_put(struct cmd_out *o, const void *p, size_t n)
{
	if (fwrite(p, 1, n, o->f) == n)
		return 0;
	if (!o->err)
		o->err = errno ? errno : EIO;
	return -1;
}

int cmd_out_close(struct cmd_out *o, int ok)
{
	int ret = EXIT_OK;

	if (o->f == stdout || !o->f) {
		free(o->path);
		free(o->tmp);
		return EXIT_OK;	/* stdout is checked once, in main */
	}
	if (ok && (o->err || fflush(o->f) || ferror(o->f) || (o->tmp && fsync(fileno(o->f))))) {
		cmd_error("cannot write '%s': %s", o->path, strerror(o->err ? o->err : errno ? errno : EIO));
		ok = 0;
		ret = EXIT_ERROR;
	}
	if (fclose(o->f) && ok) {
		cmd_error("cannot write '%s': %s", o->path, strerror(errno));
		ok = 0;
		ret = EXIT_ERROR;
	}
	if (ok && o->tmp && rename(o->tmp, o->path)) {
		cmd_error("cannot rename to '%s': %s", o->path, strerror(errno));
		ret = EXIT_ERROR;
		ok = 0;
	}
	if (!ok && o->tmp)
		unlink(o->tmp);
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
	return ret;
}

int cmd_write(const struct cmd_common *c, enum out_mode mode, cmd_print_fn print, const void *result)
{
	struct cmd_out out;
	struct out_style st = {0};
	int ret = cmd_out_open(&out, c->output);

	if (ret)
		return ret;
	st.colour = out.f == stdout && out_use_colour(stdout);
	st.unit = c->unit;
	st.wide = c->wide;
	if (print(out.f, mode, &st, result)) {
		cmd_error("out of memory");
		cmd_out_close(&out, 0);
		return EXIT_ERROR;
	}
	return cmd_out_close(&out, 1);
}

int cmd_write_noted(const struct cmd_common *c, enum out_mode mode, cmd_print_fn print, const void *result,
		    const struct xp_notes *notes)
{
	int ret = cmd_write(c, mode, print, result);

	if (mode != OUT_JSON)
		cmd_print_notes(notes);
	return ret;
}

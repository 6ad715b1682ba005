/* SPDX-License-Identifier: Apache-2.0 */
/*
 * xplane-stat capture: run a program with the CUPTI injection library, then
 * write what its GPUs did as an XSpace and print the functions table.
 *
 * Each process of the program that initialises CUDA loads the injection
 * library (the driver does, from CUDA_INJECTION64_PATH, inside cuInit) and
 * writes one record file into a private directory; they are merged here.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "an_exec.h"
#include "an_functions.h"
#include "cap_env.h"
#include "cap_file.h"
#include "cap_format.h"
#include "cap_xspace.h"
#include "cmd.h"
#include "opt.h"
#include "out_functions.h"

#define DEFAULT_OUTPUT "capture.xplane.pb"

struct capture_args {
	const char *output;
	int nvtx;
	const char *range;
	int64_t flush_ps;	/* --flush-interval */
	int no_stats;
	struct cmd_common fmt;	/* --json, --csv, --tsv, --time-unit of the table */
	enum out_mode mode;
};

#ifdef XPS_HAVE_CUPTI

static volatile sig_atomic_t child_pid;

/*
 * A signal sent to us by a process (kill, timeout) goes on to the child; one
 * from the terminal (si_code SI_KERNEL) reached the child's process group
 * already, and sending it twice would interrupt the child's own handling.
 */
static void forward_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (child_pid > 0 && si->si_code != SI_KERNEL)
		kill((pid_t)child_pid, sig);
}

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP};
#define NFORWARDED (sizeof(forwarded) / sizeof(forwarded[0]))

/* The injection library's absolute path, malloc'd; NULL (message printed) if none. */
static char *find_inject(void)
{
	const char *env = getenv(CAP_ENV_INJECT);
	char exe[PATH_MAX], cand[PATH_MAX + 64];
	ssize_t n;

	if (env && *env) {
		char *p = realpath(env, NULL);

		if (!p)
			cmd_error("%s='%s': %s", CAP_ENV_INJECT, env, strerror(errno));
		return p;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;

		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			snprintf(cand, sizeof(cand), "%s/%s", exe, CAP_INJECT_NAME);
			if (!access(cand, R_OK))
				return realpath(cand, NULL);
		}
	}
	if (!access(XPS_INJECT_INSTALLED, R_OK))
		return realpath(XPS_INJECT_INSTALLED, NULL);
	cmd_error("cannot find the capture library %s (next to the binary, or %s)", CAP_INJECT_NAME,
		  XPS_INJECT_INSTALLED);
	return NULL;
}

/* Loads the driver and asks its version; returns an exit code (message printed). */
static int check_driver(void)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	int (*get_version)(int *);
	int v = 0;

	if (!h) {
		cmd_error("no CUDA driver: %s; capture needs an NVIDIA GPU and its driver", dlerror());
		return EXIT_NODRIVER;
	}
	*(void **)&get_version = dlsym(h, "cuDriverGetVersion");
	if (!get_version || get_version(&v) || v <= 0) {
		cmd_error("no CUDA driver: libcuda.so.1 does not tell its version; capture needs an NVIDIA "
			  "GPU and its driver");
		dlclose(h);
		return EXIT_NODRIVER;
	}
	dlclose(h);
	if (v < XPS_CUDA_VERSION)
		cmd_error("warning: the CUDA driver supports CUDA %d.%d, older than the CUPTI this was built "
			  "with (%d.%d): the capture may record nothing", v / 1000, v % 1000 / 10,
			  XPS_CUDA_VERSION / 1000, XPS_CUDA_VERSION % 1000 / 10);
	return EXIT_OK;
}

/*
 * Whether the injection library loads in this environment, which the child
 * inherits; why not in why[] otherwise. Tried in a throwaway child so that
 * CUPTI's initialisers never run in this process. Not loading here is only
 * a warning: a program may load CUPTI itself before cuInit (JAX installed
 * from wheels does, from its nvidia/cu<N>/lib), and then the driver's load
 * succeeds. Returns 1 loadable (or the probe itself failed), 0 not.
 */
static int probe_inject(const char *inject, char *why, size_t n)
{
	int fd[2], status;
	ssize_t got = 0, k;
	pid_t pid;

	if (pipe(fd))
		return 1;
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return 1;
	}
	if (!pid) {
		const char *e;

		close(fd[0]);
		if (dlopen(inject, RTLD_NOW | RTLD_LOCAL))
			_exit(0);
		e = dlerror();
		if (e && write(fd[1], e, strlen(e)) < 0)
			_exit(2);
		_exit(1);
	}
	close(fd[1]);
	while (n > 1 && (size_t)got < n - 1 &&
	       ((k = read(fd[0], why + got, n - 1 - (size_t)got)) > 0 || (k < 0 && errno == EINTR)))
		got += k > 0 ? k : 0;
	why[got] = 0;
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return !(WIFEXITED(status) && WEXITSTATUS(status) == 1);
}

/* Removes the record directory and what is in it. */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX + NAME_MAX + 2];

	if (d) {
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
		closedir(d);
	}
	rmdir(dir);
}

/*
 * Runs argv with the capture environment; returns its exit status the way a
 * shell does (128 + signal; 126, 127 when it could not be run, *ran = 0).
 * quiet_stdout: the XSpace goes to standard output, so the program's goes to
 * standard error.
 */
static int run_child(char **argv, const char *inject, const char *dir, const char *flags,
		     const char *flush_ms, int quiet_stdout, int *ran)
{
	struct sigaction sa, old[NFORWARDED];
	int pfd[2], st = 0, e = 0, ret;
	pid_t pid;
	size_t i;

	*ran = 0;

	if (pipe2(pfd, O_CLOEXEC)) {
		cmd_error("cannot run '%s': %s", argv[0], strerror(errno));
		return 126;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = forward_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NFORWARDED; i++)
		sigaction(forwarded[i], &sa, &old[i]);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		for (i = 0; i < NFORWARDED; i++)
			sigaction(forwarded[i], &old[i], NULL);
		close(pfd[0]);
		if ((!quiet_stdout || dup2(STDERR_FILENO, STDOUT_FILENO) >= 0) &&
		    !setenv("CUDA_INJECTION64_PATH", inject, 1) && !setenv(CAP_ENV_DIR, dir, 1) &&
		    !setenv(CAP_ENV_FLAGS, flags, 1) && !setenv(CAP_ENV_FLUSH, flush_ms, 1) &&
		    (!strstr(flags, "nvtx") || !setenv("NVTX_INJECTION64_PATH", inject, 1)))
			execvp(argv[0], argv);
		e = errno;
		if (write(pfd[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pfd[1]);
	if (pid < 0) {
		cmd_error("cannot run '%s': %s", argv[0], strerror(errno));
		close(pfd[0]);
		ret = 126;
		goto out;
	}
	child_pid = pid;
	while (read(pfd[0], &e, sizeof(e)) < 0 && errno == EINTR)
		;
	close(pfd[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	child_pid = 0;
	if (e) {
		cmd_error("cannot run '%s': %s", argv[0], strerror(e));
		ret = e == ENOENT ? 127 : 126;
	} else if (WIFEXITED(st)) {
		*ran = 1;
		ret = WEXITSTATUS(st);
	} else if (WIFSIGNALED(st)) {
		*ran = 1;
		ret = 128 + WTERMSIG(st);
	} else {
		ret = 126;
	}
out:
	for (i = 0; i < NFORWARDED; i++)
		sigaction(forwarded[i], &old[i], NULL);
	return ret;
}

/* The record files the processes left, read; unreadable ones become warnings. */
struct records {
	struct cap_file *files;
	size_t n;
	int inject_unloadable;	/* the library did not load in this environment (a warning said so) */
};

static int read_records(const char *dir, struct records *r, struct xp_notes *notes)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;

	if (!d)
		return xp_notes_add(notes, "cannot read the capture directory: %s", strerror(errno));
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name), sl = strlen(CAP_FILE_SUFFIX);
		char path[PATH_MAX + NAME_MAX + 2];
		struct xp_err err = {0};

		if (len <= sl || strcmp(e->d_name + len - sl, CAP_FILE_SUFFIX))
			continue;
		if (r->n == cap) {
			size_t nc = cap ? cap * 2 : 8;
			struct cap_file *nf = realloc(r->files, nc * sizeof(*nf));

			if (!nf) {
				closedir(d);
				return XP_ERR_NOMEM;
			}
			r->files = nf;
			cap = nc;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (cap_file_load(path, &r->files[r->n], &err)) {
			if (err.code == XP_ERR_NOMEM) {
				closedir(d);
				return XP_ERR_NOMEM;
			}
			/* the message names a temporary path; say which process instead */
			if (xp_notes_add(notes, "the record file of process %.*s is unreadable and left out: %s",
					 (int)(len - sl), e->d_name, strchr(err.msg, ':') ? strchr(err.msg, ':') + 2
					 : err.msg)) {
				closedir(d);
				return XP_ERR_NOMEM;
			}
			continue;
		}
		r->n++;
	}
	closedir(d);
	return 0;
}

static void records_release(struct records *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		cap_file_release(&r->files[i]);
	free(r->files);
	memset(r, 0, sizeof(*r));
}

/* Why a run with no device work recorded none, for the message. */
static const char *why_nothing(const struct records *r, const struct capture_args *a)
{
	size_t i, j;

	if (!r->n && r->inject_unloadable)
		return "no process loaded the capture library (see the warning above)";
	if (!r->n)
		return "the program never initialised CUDA (no process loaded the capture library)";
	for (i = 0; i < r->n; i++)
		for (j = 0; j < r->files[i].nnotes; j++)
			if (r->files[i].notes[j].warning)
				return "CUPTI could not record (see the warnings above)";
	if (a->range) {
		for (i = 0; i < r->n; i++)
			for (j = 0; j < r->files[i].nranges; j++)
				if (r->files[i].ranges[j].start)
					return "no kernel, copy or memset ran between cudaProfilerStart and "
					       "cudaProfilerStop";
		return "the program never called cudaProfilerStart (--capture-range=cudaProfilerApi)";
	}
	return "CUDA was initialised, but no kernel, copy or memset was recorded";
}

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* The functions table of the capture, or a line saying why there is none. */
static int print_stats(const unsigned char *buf, size_t len, const struct capture_args *a)
{
	struct xp_trace *t = NULL;
	struct an_exec_opts xo = {0};
	struct an_exec_list l = {0};
	struct an_fn_opts fo = {0};
	struct an_fn_result res;
	struct xp_notes none = {0};
	struct xp_err err = {0};
	struct out_style st = {0};
	int ret = EXIT_ERROR, have_list = 0;

	an_fn_init(&res, &fo);
	if (xp_trace_read(NULL, buf, len, &t, &err) || an_exec_find(t, &xo, &l, &err)) {
		cmd_error("cannot read the capture back: %s", err.msg);
		goto out;
	}
	have_list = 1;
	if (an_fn_add(&res, &l, &err) || an_fn_finish(&res, &err)) {
		cmd_error("%s", err.msg);
		goto out;
	}
	if (!res.nrows) {
		cmd_error("no jitted function in the capture: %s", a->nvtx
			  ? "no kernel ran inside an XlaModule NVTX range (not a JAX/XLA program?); "
			    "'xplane-stat planes FILE' shows what was recorded"
			  : "XLA names its functions in NVTX ranges: for JAX/XLA programs, capture with --nvtx");
		ret = EXIT_OK;
		/* A script reading JSON, CSV or TSV still gets a document, with no rows. */
		if (a->mode == OUT_TABLE)
			goto out;
	}
	st.colour = a->mode == OUT_TABLE && out_use_colour(stdout);
	st.unit = a->fmt.unit;
	st.wide = a->fmt.wide;
	ret = out_functions(stdout, a->mode, &res, &none, &st) ? EXIT_ERROR : EXIT_OK;
	if (ret)
		cmd_error("out of memory");
out:
	an_fn_release(&res);
	if (have_list)
		an_exec_list_release(&l);
	xp_trace_free(t);
	return ret;
}

/* Converts, writes and reports; returns the exit code when the child succeeded. */
static int finish(const struct records *r, const struct capture_args *a, struct xp_notes *notes)
{
	const struct cap_file **fs = malloc((r->n + 1) * sizeof(*fs));
	struct cap_convert_opts o = {0};
	struct cap_summary sum;
	struct cmd_out out;
	struct xp_err err = {0};
	unsigned char *buf = NULL;
	size_t len = 0, i;
	char host[256] = "";
	int ret;

	if (!fs) {
		cmd_error("out of memory");
		return EXIT_ERROR;
	}
	for (i = 0; i < r->n; i++)
		fs[i] = &r->files[i];
	if (!gethostname(host, sizeof(host) - 1))
		o.hostname = host;
	if (cap_xspace(fs, r->n, &o, &buf, &len, &sum, notes, &err)) {
		cmd_print_notes(notes);
		cmd_error("%s", err.msg);
		ret = EXIT_ERROR;
		goto out;
	}
	cmd_print_notes(notes);
	if (!sum.kernels && !sum.memcpys && !sum.memsets) {
		cmd_error("no GPU work was captured: %s", why_nothing(r, a));
		ret = EXIT_NOMATCH;
		goto out;
	}
	ret = cmd_out_open(&out, a->output);
	if (ret)
		goto out;
	cmd_out_put(&out, buf, len);
	ret = cmd_out_close(&out, 1);
	if (ret)
		goto out;
	if (strcmp(a->output, "-"))
		cmd_error("wrote '%s': %zu %s, %zu %s, %zu %s on %zu %s from %zu %s", a->output,
			  sum.kernels, plural(sum.kernels, "kernel", "kernels"),
			  sum.memcpys, plural(sum.memcpys, "copy", "copies"),
			  sum.memsets, plural(sum.memsets, "memset", "memsets"),
			  sum.device_planes, plural(sum.device_planes, "device", "devices"),
			  sum.processes, plural(sum.processes, "process", "processes"));
	if (!a->no_stats && strcmp(a->output, "-"))
		ret = print_stats(buf, len, a);
out:
	free(buf);
	free(fs);
	return ret;
}

static int capture(const struct capture_args *a, char **child)
{
	const char *tmp = getenv("TMPDIR");
	char dir[PATH_MAX], flags[32] = "", why[512], flush_ms[24];
	char *inject = NULL;
	struct records r = {0};
	struct xp_notes notes = {0};
	int ret, child_ret, ran, have_dir = 0;

	if (!strcmp(a->output, "-") && isatty(STDOUT_FILENO)) {
		cmd_error("refusing to write an XSpace to a terminal (use -o FILE)");
		return EXIT_USAGE;
	}
	inject = find_inject();
	if (!inject)
		return EXIT_ERROR;
	ret = check_driver();
	if (ret)
		goto out;
	if (!probe_inject(inject, why, sizeof(why))) {
		cmd_error("warning: the capture library does not load here (%s): unless the program loads "
			  "CUPTI itself, as JAX installed from wheels does, nothing will be recorded; add the "
			  "directory that holds libcupti.so.%d to LD_LIBRARY_PATH (CUDA's extras/CUPTI/lib64 "
			  "or lib64, or a Python environment's nvidia/cu%d/lib)", why, XPS_CUDA_VERSION / 1000,
			  XPS_CUDA_VERSION / 1000);
		r.inject_unloadable = 1;
	}
	snprintf(dir, sizeof(dir), "%s/xplane-stat-capture.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		cmd_error("cannot create a directory for the records in '%s': %s", tmp && *tmp ? tmp : "/tmp",
			  strerror(errno));
		ret = EXIT_ERROR;
		goto out;
	}
	have_dir = 1;
	snprintf(flags, sizeof(flags), "%s%s%s", a->nvtx ? "nvtx" : "", a->nvtx && a->range ? "," : "",
		 a->range ? "range" : "");
	snprintf(flush_ms, sizeof(flush_ms), "%lld", (long long)(a->flush_ps / 1000000000));
	child_ret = run_child(child, inject, dir, flags, flush_ms, !strcmp(a->output, "-"), &ran);
	if (!ran) {
		ret = child_ret;
		goto out;
	}
	if (read_records(dir, &r, &notes)) {
		cmd_error("out of memory");
		ret = EXIT_ERROR;
		goto out;
	}
	ret = finish(&r, a, &notes);
	/* The program's own failure comes first: scripts see the status they would without capture. */
	if (child_ret)
		ret = child_ret;
out:
	records_release(&r);
	xp_notes_release(&notes);
	if (have_dir)
		remove_dir(dir);
	free(inject);
	return ret;
}

#endif /* XPS_HAVE_CUPTI */

int cmd_capture(int argc, char **argv)
{
	struct capture_args a = {.flush_ps = (int64_t)CAP_FLUSH_MS_DEFAULT * 1000000000};
	const struct opt opts[] = {
		{"output", 'o', OPT_STR, &a.output, "FILE",
		 "write the XSpace to FILE (default " DEFAULT_OUTPUT ", replaced when complete); - is stdout"},
		{"nvtx", 0, OPT_FLAG, &a.nvtx, NULL,
		 "record NVTX ranges: XLA names its functions in them (needed for JAX/XLA function tables)"},
		{"capture-range", 0, OPT_STR, &a.range, "cudaProfilerApi",
		 "record only between cudaProfilerStart() and cudaProfilerStop()"},
		{"flush-interval", 0, OPT_DUR, &a.flush_ps, "TIME",
		 "hand CUPTI's records to the file this often (default 1s; 0s: only at exit), so that a "
		 "killed program keeps all but its last moments"},
		{"no-stats", 0, OPT_FLAG, &a.no_stats, NULL, "write the file only, print no table"},
		{"json", 0, OPT_FLAG, &a.fmt.json, NULL, "print the table as JSON (as 'functions --json')"},
		{"csv", 0, OPT_FLAG, &a.fmt.csv, NULL, "print the table as CSV with a header row"},
		{"tsv", 0, OPT_FLAG, &a.fmt.tsv, NULL, "print the table as tab-separated values with a header row"},
		{"time-unit", 0, OPT_STR, &a.fmt.time_unit, "ns|us|ms|s",
		 "table times in this unit (default: for each table the unit its typical value reads best in)"},
		{0},
	};
	const struct opt_cmd cmd = {
		"capture", "[OPTIONS] -- CMD [ARGS...]",
		"Runs CMD with CUPTI recording its GPU work (kernels, copies, memsets, the launching\n"
		"driver calls and, with --nvtx, NVTX ranges), writes it as an XSpace in the layout of\n"
		"XLA's GPU profiler, which XProf, TensorBoard and xplane-stat read, and prints the\n"
		"functions table. The exit status is CMD's when it fails.",
		opts, .min_pos = 0,	/* what follows '--' is checked below */
	};
	const char **pos = NULL;
	size_t npos;
	int dashes, ret;

	cmd_common_init(&a.fmt);
	for (dashes = 1; dashes < argc && strcmp(argv[dashes], "--"); dashes++)
		;
	ret = cmd_parse(&cmd, dashes, argv, &pos, &npos);
	if (ret >= 0)
		goto out;
	ret = EXIT_USAGE;
	if (npos || dashes + 1 >= argc) {
		cmd_error("capture runs the command given after '--' (xplane-stat capture [OPTIONS] -- CMD [ARGS...])");
		goto out;
	}
	if (a.range && strcmp(a.range, "cudaProfilerApi")) {
		cmd_error("--capture-range: '%s' is not cudaProfilerApi", a.range);
		goto out;
	}
	if (a.flush_ps && (a.flush_ps < 1000000000ll || a.flush_ps > 3600000000000000ll)) {
		cmd_error("--flush-interval: give 0s, or a time between 1ms and 3600s");
		goto out;
	}
	if ((ret = cmd_output_setup(&a.fmt, &a.mode)) >= 0)
		goto out;
	if (!a.output)
		a.output = DEFAULT_OUTPUT;
#ifdef XPS_HAVE_CUPTI
	ret = capture(&a, argv + dashes + 1);
#else
	cmd_error("capture not supported: built without CUPTI");
	ret = EXIT_UNSUPPORTED;
#endif
out:
	free(pos);
	return ret;
}

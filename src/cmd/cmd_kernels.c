/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat kernels: GPU kernels, copies and memsets on the stream lines, pooled over inputs. */
#include "an_kernels.h"
#include "cmd_driver.h"
#include "out_kernels.h"

struct kern_args {
	struct cmd_common c;
	struct an_kern_opts ko;
	struct out_kern_opts oo;
	int by;
};

static int kern_check(struct cmd_drive *d)
{
	struct kern_args *a = d->args;

	if (d->mode == OUT_JSON && a->oo.copies)
		return cmd_usage_error("--copies selects a table: JSON always has both (memcpy[])");
	if (a->ko.slowest && (a->oo.copies || a->oo.top || a->by))
		return cmd_usage_error("--slowest lists instances: it excludes --copies, --top and --by");
	if (a->ko.slowest)	/* the instances' correlation ids: read only when asked */
		a->c.extra_keys = AN_KERN_KEYS_SLOWEST & ~AN_KERN_KEYS;
	a->ko.by = (enum an_kern_by)a->by;
	a->ko.device = a->c.device;
	return CMD_GO_ON;
}

static int kern_nothing(struct cmd_drive *d)
{
	const struct an_kern_result *r = d->res;

	if (r->devices && r->kernel_events + r->copy_events)
		return CMD_GO_ON;
	cmd_error("no GPU kernels, copies or memsets in %s%s: %s", cmd_drive_inputs(d),
		  d->c->device ? " on devices matching --device" : "",
		  r->device_planes_no_streams
		  ? "its device planes have no 'Stream #' lines (a TPU trace? 'xplane-stat ops' shows its XLA ops)"
		  : r->devices ? "the GPU stream lines hold no events"
		  : "no GPU device plane has 'Stream #' lines ('xplane-stat planes FILE' shows what it holds)");
	return cmd_drive_nomatch(d);
}

static int kern_print(FILE *f, enum out_mode mode, const struct out_style *st, const struct cmd_drive *d)
{
	return out_kernels(f, mode, d->res, &((const struct kern_args *)d->args)->oo, &d->notes, st);
}

static const struct cmd_analysis kernels = {
	.name = "kernels",
	.about = "GPU kernels on the stream lines of GPU device planes, pooled over all inputs and\n"
		 "devices: instances, total, mean, median, min, max, std (population), p90 and p99\n"
		 "(nearest rank) and share of kernel time; copies and memsets per kind with bytes\n"
		 "and GB/s. Derived lines (TensorFlow Ops, XLA Ops, Steps) are not counted again.",
	.an = &an_kernels_analysis, .check = kern_check, .nothing = kern_nothing,
	.print = kern_print,
};

int cmd_kernels(int argc, char **argv)
{
	struct kern_args a = {0};
	const struct opt opts[] = {
		CMD_OPT_DEVICE(&a.c, "gpu, GPU:1"),
		{"by", 0, OPT_ENUM, &a.by, "name|config|function",
		 "a row per kernel name (default), per name and launch configuration, or per function, op and name"},
		{"top", 0, OPT_COUNT, &a.oo.top, "N", "only the N largest rows (functions with --by function)"},
		{"copies", 0, OPT_FLAG, &a.oo.copies, NULL, "only the copies and memsets table (CSV/TSV: its rows)"},
		{"slowest", 0, OPT_COUNT, &a.ko.slowest, "N",
		 "the N slowest kernel instances: duration, start, device, stream, correlation id, function "
		 "(JSON: beside the rows; traces only, summaries keep no instances)"},
		CMD_OPTS_TAIL(&a.c),
	};
	struct cmd_drive d = {.a = &kernels, .c = &a.c, .args = &a, .opts = &a.ko};

	return cmd_drive(&d, opts, argc, argv);
}

# SPDX-License-Identifier: Apache-2.0
# Sourced by tests/cli/capture/*.cmd (run by tests/run_cli_case.sh, which sets
# $SYNTH): the fake CUDA driver, CUPTI and program that the build made in
# capture-test/. A case that needs them is skipped (77) in a build without
# CUPTI; one that sets CAP_WANT=without before sourcing this runs only there.
CAPTEST=$SYNTH/../capture-test
[ -f "$CAPTEST/config.sh" ] || { echo "skipped: capture tests not configured"; exit 77; }
. "$CAPTEST/config.sh"
if [ "${CAP_WANT:-with}" = without ]; then
	[ "$XPS_HAVE_CUPTI" = 0 ] || { echo "skipped: built with CUPTI"; exit 77; }
else
	[ "$XPS_HAVE_CUPTI" = 1 ] || { echo "skipped: built without CUPTI"; exit 77; }
	export XPLANE_STAT_INJECT="$XPS_INJECT"
	export LD_LIBRARY_PATH="$CAPTEST${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	FAKE_APP=$CAPTEST/fake_app
fi

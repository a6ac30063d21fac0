#!/bin/bash
# The short form of contrib/soak (under 3 minutes): 80 jobs of mixed sizes, limits
# and runtimes on 2 nodes, random scancel, reconfigures with changing easypp_ keys, a node
# drained and resumed, slurmctld killed with kill -9 once. Passes when no job is killed
# before its limit, the plugin logs no error, slurmctld dies only when killed, and no
# restart loses saved history. Its report: RESULTS/t_soak_short/report.md.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
need_plugin
[ "$(id -u)" = 0 ] || skip "the live Slurm testbed needs root"
need_cmd python3 python3
if "$SRC/contrib/soak" --short --build "$BUILD" --out "$TEST_RESULTS"; then
  note "ok: soak passed ($TEST_RESULTS/report.md)"
else
  fail "soak failed: the lines above say why (report: $TEST_RESULTS/report.md)"
fi

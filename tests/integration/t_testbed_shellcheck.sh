#!/bin/bash
# The testbed's shell code passes shellcheck (warnings and errors; style notes allowed).
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd shellcheck shellcheck

files=("$SRC/contrib/testbed" "$SRC/contrib/scale-bench" "$SRC/tests/integration/lib.sh")
for f in "$SRC"/tests/integration/t_testbed_*.sh "$SRC"/tests/integration/t_stock_*.sh \
         "$SRC"/tests/integration/t_accounting_*.sh "$SRC"/tests/integration/t_live_*.sh; do
  [ -f "$f" ] && files+=("$f")
done
cd "$SRC"
if ! out=$(shellcheck -x -S warning "${files[@]#"$SRC"/}" 2>&1); then
  printf '%s\n' "$out"
  fail "shellcheck found problems in the testbed's scripts"
fi
note "ok: shellcheck -S warning clean on ${#files[@]} files"

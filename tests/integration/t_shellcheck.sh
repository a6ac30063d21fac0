#!/bin/bash
# The project's shell code passes shellcheck (warnings and errors; style notes allowed):
# every bash script of contrib/ (the testbed, the soak, ...), every integration test with
# its library and runner, and the scripts that re-make doc/results; and, as POSIX sh
# (shellcheck -s sh), the #!/bin/sh ones: bootstrap, contrib/slurm-source,
# contrib/slurm-install, contrib/test-summary, some of doc/results.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd shellcheck shellcheck
# The same files whatever Slurm runs: checked once, in the run on the installed Slurm, not
# again for each release of EASYPP_SLURM_VERSIONS (it takes two minutes).
[ -z "${EASYPP_SLURM_PREFIX:-}" ] || skip "shellcheck does not depend on the Slurm release (checked in the run on the installed Slurm)"

files=() sh_files=()
for f in "$SRC"/bootstrap "$SRC"/contrib/* "$SRC"/tests/integration/run "$SRC"/tests/integration/lib.sh \
         "$SRC"/tests/integration/t_*.sh "$SRC"/doc/results/*/* "$SRC"/doc/results/*/*/*; do
  [ -f "$f" ] || continue
  case "$(head -n 1 "$f" | tr -d '\0')" in   # (some of doc/results is binary)
    '#!'*bash*) files+=("$f") ;;
    '#!/bin/sh'*|'#!/usr/bin/env sh'*) sh_files+=("$f") ;;
  esac
done
# lib.sh has no #! line (it is sourced).
files+=("$SRC/tests/integration/lib.sh")
[ ${#files[@]} -ge 50 ] || fail "only ${#files[@]} shell files found: the list above is wrong"
[ ${#sh_files[@]} -ge 4 ] || fail "only ${#sh_files[@]} sh files found: the list above is wrong"
cd "$SRC"
if ! out=$(shellcheck -x -S warning "${files[@]#"$SRC"/}" 2>&1); then
  printf '%s\n' "$out"
  fail "shellcheck found problems in the project's shell scripts"
fi
if ! out=$(shellcheck -x -S warning -s sh "${sh_files[@]#"$SRC"/}" 2>&1); then
  printf '%s\n' "$out"
  fail "shellcheck -s sh found problems in the project's sh scripts"
fi
note "ok: shellcheck -S warning clean on ${#files[@]} bash files and ${#sh_files[@]} sh files (${sh_files[*]#"$SRC"/})"

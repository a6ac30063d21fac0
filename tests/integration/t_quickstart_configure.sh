#!/bin/bash
# contrib/quickstart's configure_build configures a build tree again when its configure
# arguments change (a Slurm tree refetched elsewhere, another prefix), and only then: the
# same arguments again only make; a configure that failed records nothing, so the next run
# configures again; ./configure newer than the Makefile still configures; a tree from
# before the record whose config.status --config shows the same arguments is adopted.
# No Slurm: a fake top directory whose configure logs its calls.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd make make

fake=$(mktemp -d /tmp/easypp-qs.XXXXXX)
trap 'rm -rf "$fake"' EXIT
# The fake configure: logs its arguments, fails when FAKE_CONFIGURE_FAIL is set, and
# otherwise writes a Makefile with nothing to do (as configure writes a real one).
cat > "$fake/configure" <<'EOF'
#!/bin/bash
echo "$*" >> "$(dirname "$0")/calls"
[ -z "${FAKE_CONFIGURE_FAIL:-}" ] || { echo "configure: error: told to fail"; exit 1; }
printf 'all:\n\t@:\n' > Makefile
EOF
chmod +x "$fake/configure"
: > "$fake/calls"
touch -d '-1 hour' "$fake/configure"

# Its functions only (it returns before its main part when sourced); then the fake top.
# shellcheck source=contrib/quickstart
. "$SRC/contrib/quickstart"
# shellcheck disable=SC2034   # used by configure_build
top=$fake jobs=1
cd "$fake"

calls() { wc -l < "$fake/calls"; }
build() {   # EXPECTED-CALLS WHAT -- configure args...
  local want=$1 what=$2
  shift 3
  (configure_build b "$@") >"$fake/out" 2>&1 || fail "$what: configure_build failed"
  assert_eq "$want" "$(calls)" "configure calls after $what"
}
said() {   # REASON: the last configure_build logged why it configured
  grep -qxF "quickstart: b: $1; configuring it" "$fake/out" ||
    fail "configure_build did not say '$1': $(cat "$fake/out")"
}

build 1 "the first build" -- --enable-werror --with-slurm-source=/src/22.05.8
said "not configured yet"
build 1 "the same arguments again" -- --enable-werror --with-slurm-source=/src/22.05.8
build 2 "another Slurm source tree" -- --enable-werror --with-slurm-source=/other/22.05.8
said "configure arguments changed"
build 2 "those arguments again" -- --enable-werror --with-slurm-source=/other/22.05.8
build 3 "an argument with a space" -- --enable-werror "--with-slurm-source=/a b"
build 3 "it again" -- --enable-werror "--with-slurm-source=/a b"
build 4 "one argument fewer" -- --enable-werror

# A configure that fails: nothing recorded, so even the arguments of the configure before
# it configure again (the tree's state is unknown).
if (FAKE_CONFIGURE_FAIL=1 configure_build b --enable-werror --with-slurm=/p) >/dev/null 2>&1; then
  fail "configure_build succeeded although configure failed"
fi
assert_eq 5 "$(calls)" "configure calls after a failed configure"
[ ! -e b/.easypp-configure-args ] || fail "a failed configure left a record: $(cat b/.easypp-configure-args)"
build 6 "the arguments before the failed configure" -- --enable-werror
said "no record of its configure arguments"
build 6 "them again" -- --enable-werror

# The existing rule: ./configure newer than the Makefile (a new bootstrap) configures.
touch "$fake/configure"
build 7 "a newer ./configure" -- --enable-werror
said "./configure is newer than its Makefile"
build 7 "nothing new" -- --enable-werror

# A tree configured before the record existed: its config.status --config is adopted when
# it shows the same arguments; another tree's arguments configure again.
mkdir -p old
printf 'all:\n\t@:\n' > old/Makefile
printf '#!/bin/sh\necho "--enable-werror --with-slurm-source=/src/22.05.8"\n' > old/config.status
chmod +x old/config.status
(configure_build old --enable-werror --with-slurm-source=/src/22.05.8) >/dev/null 2>&1 || fail "configure_build old failed"
assert_eq 7 "$(calls)" "configure calls for a tree whose config.status shows the same arguments"
(configure_build old --enable-werror --with-slurm-source=/src/24.11.5) >/dev/null 2>&1 || fail "configure_build old failed"
assert_eq 8 "$(calls)" "configure calls for that tree with another Slurm tree"
note "ok: configure_build configures again exactly when its arguments change or configure failed"

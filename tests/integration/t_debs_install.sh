#!/bin/bash
# live-serial: builds the Debian packages (both cores for minutes) and installs them system-wide
# The Debian packages, installed as an admin would (apt-get install ./*.deb), give a working
# sched/easypp: the testbed loads the INSTALLED plugin (PluginDir = Slurm's own, no build
# tree on any path), which alone starts jobs (Slurm's main scheduler off); the tools and the
# -dev package work from /usr. Every package this test installs is purged at the end, also
# on failure, so the machine is left as it was.
# Cost: contrib/make-debs --reuse builds the packages in BUILD/debs (about 6 minutes on 2
# cores), or reuses them if they were built from the very same files (seconds).
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "installing packages needs root"
[ -x /usr/sbin/slurmctld ] || skip "slurmctld not installed (apt-get install slurmctld)"
[ -z "${EASYPP_SLURM_PREFIX:-}" ] || skip "the packages are built for Debian's installed Slurm, not for $EASYPP_SLURM_PREFIX"
ours=(slurm-sched-easypp easypp-tools libeasypp-predictor-dev libeasypp-predictor1)
for p in "${ours[@]}"; do
  if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    skip "$p is installed on this machine already; this test will not replace or purge it"
  fi
done

note "building the packages (contrib/make-debs --reuse)"
t0=$(date +%s)
"$SRC/contrib/make-debs" --reuse --out "$BUILD/debs" > "$TEST_RESULTS/make-debs.out" 2> "$TEST_RESULTS/make-debs.log" \
  || { tail -n 30 "$TEST_RESULTS/make-debs.log"; fail "contrib/make-debs failed"; }
note "packages ready in $(( $(date +%s) - t0 )) s"
debs=()
for p in "${ours[@]}"; do
  f=$(grep "/${p}_[^/]*\.deb$" "$TEST_RESULTS/make-debs.out" || true)
  [ -n "$f" ] || fail "make-debs made no $p package"
  debs+=("$f")
done

# Whatever apt-get installs (ours, and any dependency missing here) is purged at the end.
before=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' | awk '$1 == "ii" {print $2}' | sort)
installed=()
purge_installed() {
  [ ${#installed[@]} -gt 0 ] || return 0
  note "purging ${installed[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get purge -y -q "${installed[@]}" > "$TEST_RESULTS/purge.log" 2>&1 \
    || { cat "$TEST_RESULTS/purge.log"; echo "FAIL: apt-get purge ${installed[*]} failed"; return 1; }
  local p
  for p in "${installed[@]}"; do
    if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q installed; then
      echo "FAIL: $p still installed after purge"; return 1
    fi
  done
  installed=()
}
# On failure: before the testbed exists this is the EXIT trap; tb_up's tb_cleanup then calls
# test_cleanup, which brings the testbed down first (slurmctld holds the plugin open).
trap 'rc=$?; purge_installed || rc=1; exit $rc' EXIT
test_cleanup() { tb_down; purge_installed; }

note "apt-get install ${debs[*]}"
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${debs[@]}" \
  > "$TEST_RESULTS/install.log" 2>&1 || true
after=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' | awk '$1 == "ii" {print $2}' | sort)
mapfile -t installed < <(comm -13 <(echo "$before") <(echo "$after"))
for p in "${ours[@]}"; do
  [[ " ${installed[*]} " == *" $p "* ]] || { cat "$TEST_RESULTS/install.log"; fail "$p was not installed"; }
done
note "ok: installed ${installed[*]}"

# The plugin package pins the exact slurmctld it was built for.
ctld_version=$(dpkg-query -W -f='${Version}' slurmctld)
deps=$(dpkg-query -W -f='${Depends}' slurm-sched-easypp)
[[ ", $deps," == *", slurmctld (= $ctld_version),"* ]] \
  || fail "slurm-sched-easypp depends on '$deps', expected slurmctld (= $ctld_version)"
note "ok: slurm-sched-easypp depends on slurmctld (= $ctld_version)"
plugindir=/usr/lib/$(gcc -dumpmachine)/slurm-wlm
so=$(dpkg -L slurm-sched-easypp | grep '/sched_easypp\.so$')
assert_eq "$plugindir/sched_easypp.so" "$so" "the plugin's installed path"
for page in sched_easypp.8 easypp-sim.1 easypp-predict.1 easypp-replay.1 easypp-compare.1 easypp-sweep.1; do
  dpkg -S "/usr/share/man/man${page##*.}/$page.gz" >/dev/null || fail "no installed man page $page"
done
note "ok: man pages installed"

# The tools run from /usr/bin against the installed library.
out=$(/usr/bin/easypp-sim --help 2>&1) || fail "/usr/bin/easypp-sim --help: $out"
arch=$(gcc -dumpmachine)
lib=$(ldd /usr/bin/easypp-sim | awk '/libeasypp-predictor/ {print $3}')
# (/lib is /usr/lib on a merged-/usr system)
assert_eq "$(readlink -f "/usr/lib/$arch/libeasypp-predictor.so.1")" "$(readlink -f "$lib")" "easypp-sim's predictor library"
# The -dev package: a C program built with pkg-config only.
cdir=$(mktemp -d)
cat > "$cdir/p.c" <<'EOF'
#include <easypp/predictor.h>
#include <stdio.h>
int main(void) {
  char err[256];
  epp_predictor *p = epp_predictor_new("history:window=2", err, sizeof err);
  if (!p) { fprintf(stderr, "%s\n", err); return 1; }
  puts(epp_predictor_spec(p));
  epp_predictor_free(p);
  return 0;
}
EOF
# shellcheck disable=SC2046
gcc -o "$cdir/p" "$cdir/p.c" $(pkg-config --cflags --libs easypp-predictor) || fail "building against libeasypp-predictor-dev failed"
spec=$("$cdir/p") || fail "a program linked with -leasypp-predictor failed"
rm -rf "$cdir"
[[ "$spec" == history:window=2,* ]] || fail "epp_predictor_spec gave '$spec'"
note "ok: built and ran a C program against the -dev package ($spec)"

# The installed plugin, Slurm's main scheduler off: only the plugin can start jobs.
tb_up --scheduler sched/easypp --plugin-dir system --nodes 2 --cpus 4 --params sched_interval=-1,easypp_interval=1
log=$TB_DIR/log/slurmctld.log
assert_eq "PluginDir=$plugindir" "$(grep '^PluginDir=' "$TB_DIR/slurm.conf")" "the testbed's PluginDir"
ctld=$(cat "$TB_DIR/run/slurmctld.pid")
grep -q " $plugindir/sched_easypp.so$" "/proc/$ctld/maps" || fail "slurmctld has not mapped $plugindir/sched_easypp.so"
grep -Eq " (/usr)?/lib/$arch/libeasypp-predictor\.so\.1" "/proc/$ctld/maps" \
  || fail "slurmctld has not mapped the installed libeasypp-predictor.so.1"
note "ok: slurmctld runs the installed plugin and library"
grep -q "sched/easypp: EASY++ prediction-based backfill scheduler loaded" "$log" \
  || fail "no 'loaded' line in slurmctld.log"

j=$(tb_submit 4 1 a "sleep 1")
k=$(tb_submit 2 1 b "sleep 1")
wait_state "$j" COMPLETED 30
wait_state "$k" COMPLETED 30
for x in "$j" "$k"; do
  grep -q "sched/easypp: started JobId=$x " "$log" || fail "JobId=$x was not started by the plugin"
done
note "ok: the installed plugin started JobId=$j and JobId=$k"

# The machine as it was: the testbed down, then every package this test installed purged.
tb_down
purge_installed || fail "could not purge the packages this test installed"
[ ! -e "$plugindir/sched_easypp.so" ] || fail "$plugindir/sched_easypp.so is still there after the purge"
note "ok: purged; the machine is as it was"

# EASYPP_SLURM: decide whether the sched/easypp plugin is built.
#
# The plugin needs slurmctld's internal headers, so it is built against a configured Slurm
# source tree of exactly the installed slurmctld's version (contrib/slurm-source makes
# one). Without a tree the core, simulator and predictor still build; the plugin is skipped.
AC_DEFUN([EASYPP_SLURM], [
  AC_ARG_WITH([slurm-source],
    [AS_HELP_STRING([--with-slurm-source=DIR],
      [configured Slurm source tree matching the installed slurmctld (default: the
       contrib/slurm-source cache if present; "no" to skip the plugin)])],
    [], [with_slurm_source=auto])
  AC_ARG_WITH([slurm],
    [AS_HELP_STRING([--with-slurm=PREFIX],
      [the Slurm installation to build the plugin for (PREFIX/sbin/slurmctld, plugins in
       PREFIX/lib/slurm; default: the system's, /usr)])],
    [], [with_slurm=])
  AC_ARG_WITH([plugindir],
    [AS_HELP_STRING([--with-plugindir=DIR],
      [where Slurm loads plugins from (default: the installed Slurm's PluginDir)])],
    [plugindir=$withval], [plugindir=])

  build_plugin=no
  plugin_skip_reason=
  slurm_tree_version=
  slurm_installed_version=

  # The installed slurmctld's version, e.g. "22.05.8".
  AS_IF([test -n "$with_slurm"],
    [AS_IF([test -x "$with_slurm/sbin/slurmctld"], [SLURMCTLD=$with_slurm/sbin/slurmctld],
       [AC_MSG_ERROR([--with-slurm=$with_slurm: no $with_slurm/sbin/slurmctld])])],
    [AC_PATH_PROG([SLURMCTLD], [slurmctld], [], [$PATH:/usr/sbin:/usr/local/sbin])])
  AS_IF([test -n "$SLURMCTLD"],
    [slurm_installed_version=`$SLURMCTLD -V 2>/dev/null | awk '{print $NF}'`])

  AS_IF([test "x$with_slurm_source" = xauto], [
    with_slurm_source=no
    cache=${EASYPP_SLURM_CACHE:-/var/cache/easypp/slurm-src}
    AS_IF([test -n "$slurm_installed_version" && test -f "$cache/$slurm_installed_version/.easypp-configured"],
      [with_slurm_source="$cache/$slurm_installed_version"])
  ])

  # --enable-sanitizers=plugin keeps it: slurmctld then needs the runtimes preloaded
  # (LD_PRELOAD of libasan and libubsan, as contrib/soak --asan does).
  AS_IF([test "x$enable_sanitizers" = xyes && test "x$with_slurm_source" != xno], [
    plugin_skip_reason="--enable-sanitizers: a sanitized plugin cannot load into slurmctld (--enable-sanitizers=plugin builds it for a slurmctld with the runtimes preloaded)"
    with_slurm_source=no
  ])

  AS_IF([test "x$with_slurm_source" = xno || test "x$with_slurm_source" = xyes], [
    AS_IF([test -z "$plugin_skip_reason"],
      [plugin_skip_reason="no Slurm source tree (contrib/slurm-source, then --with-slurm-source=DIR)"])
  ], [
    AC_MSG_CHECKING([for a configured Slurm source tree in $with_slurm_source])
    vh="$with_slurm_source/slurm/slurm_version.h"
    AS_IF([test -f "$vh" && test -f "$with_slurm_source/config.h" && test -f "$with_slurm_source/src/slurmctld/slurmctld.h"],
      [AC_MSG_RESULT([yes])],
      [AC_MSG_RESULT([no])
       AC_MSG_ERROR([$with_slurm_source is not a configured Slurm source tree (no slurm/slurm_version.h, config.h or src/slurmctld/slurmctld.h); run contrib/slurm-source])])
    hex=`sed -n 's/^#define SLURM_VERSION_NUMBER 0x\(@<:@0-9a-fA-F@:>@*\).*/\1/p' "$vh"`
    slurm_tree_version=`printf '%d.%02d.%d' 0x${hex%????} 0x\`echo $hex | cut -c3-4\` 0x${hex#????}`
    AS_IF([test -z "$slurm_installed_version"],
      [AC_MSG_ERROR([no slurmctld found to check the tree's version $slurm_tree_version against: apt-get install slurmctld])])
    AS_IF([test "x$slurm_tree_version" != "x$slurm_installed_version"],
      [AC_MSG_ERROR([Slurm source tree $with_slurm_source is version $slurm_tree_version but the installed slurmctld is $slurm_installed_version; the plugin version must match exactly (run contrib/slurm-source for the matching tree)])])
    PKG_CHECK_EXISTS([munge], [],
      [AC_MSG_ERROR([munge development files not found (needed by the Slurm tree's configure): apt-get install libmunge-dev])])
    AS_IF([test -z "$plugindir"], [
      for d in ${with_slurm:+$with_slurm/lib/slurm} `$PKG_CONFIG --variable=libdir slurm 2>/dev/null`/slurm \
               /usr/lib/`$CC -dumpmachine 2>/dev/null`/slurm-wlm /usr/lib64/slurm /usr/lib/slurm \
               /usr/local/lib/slurm; do
        AS_IF([test -f "$d/sched_backfill.so"], [plugindir=$d; break])
      done
      AS_IF([test -z "$plugindir"],
        [AC_MSG_ERROR([cannot find Slurm's PluginDir (no sched_backfill.so); give --with-plugindir=DIR])])
    ])
    build_plugin=yes
  ])

  SLURM_SRC=$with_slurm_source
  AC_SUBST([SLURM_SRC])
  AC_SUBST([plugindir])
  AC_SUBST([SLURM_INSTALLED_VERSION], [$slurm_installed_version])
  AM_CONDITIONAL([BUILD_PLUGIN], [test "x$build_plugin" = xyes])
])

#!/bin/bash
# Hyperthreads under CR_Core keep the head's reservation, under sched/backfill and
# sched/easypp. One node of 3 cores x 2 threads (6 CPUs). Slurm allocates whole cores
# (cons_common.c: units of threads per core), so one task holds 2 CPUs. R (4 tasks = 2
# cores, 2-min limit, really 20 s) runs; H (5 tasks = 3 cores) waits for R; B (1 task, a
# whole core, 10-min limit), submitted after H, fits now (1 core idle) but would leave H
# only 2 cores at R's end, so it must stay pending. Worked out by hand: H starts when R
# ends and takes the node; B is still pending then. (Planned as 1 CPU, B was backfilled
# and H waited for B's end: a review finding, reproduced live.)
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

case_whole_cores() {
  live_up --nodes 1 --cpus 6 --select CR_Core \
    --extra 'NodeName=DEFAULT Sockets=1 CoresPerSocket=3 ThreadsPerCore=2'
  local r h b
  r=$(tb_submit 4 2 R 'sleep 20')
  wait_state "$r" RUNNING 20
  h=$(tb_submit 5 10 H 'sleep 300')
  b=$(tb_submit 1 10 B 'sleep 300')
  expect_head_kept "$r" 2 "$h" - "$b"
  assert_eq 6 "$(job_field "$h" NumCPUs)" "H's CPUs (3 whole cores)"
  scancel "$h" "$b"
}

# --mem-per-cpu is charged on every CPU allocated (cons_common job_test.c: CPUs given x
# memory per CPU), and a task gets a whole core. Same node, 600 MB, CR_Core_Memory. R (2
# tasks = 1 core, 150 MB per CPU: 300 MB, 2-min limit, really 20 s) runs; H (4 tasks = 2
# cores, 125 MB per CPU: 500 MB) waits for R's memory; B (1 task, 75 MB per CPU, 10-min
# limit) gets a core, so 150 MB: it fits now (300 MB free) but at R's end would leave H
# 450 MB, so it must stay pending. Worked out by hand: H starts when R ends; B is still
# pending then. (Counted per task CPU, 75 MB, B fitted beside H and was backfilled.)
case_memory_per_cpu() {
  live_up --nodes 1 --cpus 6 --mem 600 --select CR_Core_Memory \
    --extra 'NodeName=DEFAULT Sockets=1 CoresPerSocket=3 ThreadsPerCore=2'
  local r h b
  r=$(tb_submit 2 2 R 'sleep 20' --mem-per-cpu=150)
  wait_state "$r" RUNNING 20
  h=$(tb_submit 4 10 H 'sleep 300' --mem-per-cpu=125)
  b=$(tb_submit 1 10 B 'sleep 300' --mem-per-cpu=75)
  expect_head_kept "$r" 2 "$h" - "$b"
  scancel "$h" "$b"
}

# One thread per core takes a core per task (cons_common.c common_cpus_per_core: 1 usable
# CPU per core), all of whose threads it holds under CR_Core. One node of 4 cores x 2
# threads (8 CPUs). R (4 tasks = 2 cores, 2-min limit, really 20 s) runs; H (5 tasks = 3
# cores) waits for R; B (-n2 --threads-per-core=1), C (-n2 --ntasks-per-core=1) and D (-n2
# --hint=nomultithread), 10-min limits, each take 2 cores: each fits now (2 cores idle) but
# would leave H 2 cores at R's end, so all stay pending. Worked out by hand: H starts when
# R ends; B, C and D are still pending then. (Counted as 2 CPUs, one core, B was
# backfilled beside R and H waited for B's end.)
case_one_thread_per_core() {
  live_up --nodes 1 --cpus 8 --select CR_Core \
    --extra 'NodeName=DEFAULT Sockets=1 CoresPerSocket=4 ThreadsPerCore=2'
  local r h b c d
  r=$(tb_submit 4 2 R 'sleep 20')
  wait_state "$r" RUNNING 20
  h=$(tb_submit 5 10 H 'sleep 300')
  b=$(tb_submit 2 10 B 'sleep 300' --threads-per-core=1)
  c=$(tb_submit 2 10 C 'sleep 300' --ntasks-per-core=1)
  d=$(tb_submit 2 10 D 'sleep 300' --hint=nomultithread)
  expect_head_kept "$r" 2 "$h" - "$b" "$c" "$d"
  assert_eq 6 "$(job_field "$h" NumCPUs)" "H's CPUs (3 whole cores)"
  scancel "$h" "$b" "$c" "$d"
}

# --mem-per-cpu with one thread per core is charged on the threads asked, though the job
# holds whole cores. One node of 4 cores x 2 threads, 1000 MB, CR_Core_Memory. R (1 task,
# 600 MB, 3-min limit, really 20 s) runs; H (2 tasks, 600 MB) waits for R's memory; B (-n2
# --hint=nomultithread: threads_per_core 1, no ntasks_per_core, job_mgr.c
# _set_multi_core_data; 150 MB per CPU, 1-min limit) takes 2 cores, all 4 threads
# (common_cpus_per_core: 1 usable CPU per core; dist_tasks.c _set_task_dist: x 2), and is
# charged 4 / 2 x 1 = 2 CPUs, 300 MB (cons_common job_test.c:1665-1677,
# job_resources_get_node_cpu_cnt); cons_tres can_job_run_on_node (job_test.c:3458) tests
# the fit on those 2 CPUs too. Worked out by hand: B starts at once beside R (400 MB free;
# charged all 4 threads, 600 MB, it would not fit), and H starts when R ends, beside B
# (700 MB free; 400 if B held 600). B ends before H's reservation (R's limit floored to
# bf_resolution): stock reserves whole nodes (backfill.c:2420), so a B of a longer limit
# would wait under it whatever its memory. (With --ntasks-per-core=1 as well, B would
# wait: the next case.)
case_memory_one_thread_per_core() {
  live_up --nodes 1 --cpus 8 --mem 1000 --select CR_Core_Memory \
    --extra 'NodeName=DEFAULT Sockets=1 CoresPerSocket=4 ThreadsPerCore=2'
  local r h b
  r=$(tb_submit 1 3 R 'sleep 20' --mem=600)
  wait_state "$r" RUNNING 20
  h=$(tb_submit 2 10 H 'sleep 300' --mem=600)
  b=$(tb_submit 2 1 B 'sleep 300' --mem-per-cpu=150 --hint=nomultithread)
  wait_state "$b" RUNNING 15
  job_running "$r" || fail "R ended before B started: B was not backfilled beside R"
  assert_eq cpu=4,mem=300M "$(job_tres "$b" | cut -d, -f1-2)" \
    "B's CPUs and memory (2 whole cores, charged 2 threads x 150 MB)"
  expect_head_kept "$r" 3 "$h" -
  assert_eq RUNNING "$(job_field "$b" JobState)" "B when H has started (beside it)"
  scancel "$h" "$b"
}

# With --ntasks-per-core=1 as well, cons_tres tests the fit on every thread of the cores
# (job_test.c:3440, can_job_run_on_node: 150 MB x 2 cores x 2 threads = 600 MB), though it
# charges 300 MB once started. Same node; R (1 task, 600 MB, 2-min limit, really 20 s)
# runs; E (-n2 --threads-per-core=1 --ntasks-per-core=1, 150 MB per CPU) fits in the 400 MB
# free by its charge but not by that test. Worked out by hand: E waits for R, planned at
# R's end (squeue --start), and starts then. (Planned on its charge, the plan started it
# now: select_nodes refused it every pass, and E had no planned start.)
case_memory_fit_on_all_threads() {
  live_up --nodes 1 --cpus 8 --mem 1000 --select CR_Core_Memory \
    --extra 'NodeName=DEFAULT Sockets=1 CoresPerSocket=4 ThreadsPerCore=2'
  local r e
  r=$(tb_submit 1 2 R 'sleep 20' --mem=600)
  wait_state "$r" RUNNING 20
  e=$(tb_submit 2 10 E 'sleep 300' --mem-per-cpu=150 --threads-per-core=1 --ntasks-per-core=1)
  expect_head_kept "$r" 2 "$e" -
  assert_eq cpu=4,mem=300M "$(job_tres "$e" | cut -d, -f1-2)" "E's CPUs and memory (charged 2 threads x 150 MB)"
  scancel "$e"
}

each_scheduler case_whole_cores
TEST_NAME=$TEST_NAME.memory_per_cpu each_scheduler case_memory_per_cpu
TEST_NAME=$TEST_NAME.one_thread_per_core each_scheduler case_one_thread_per_core
TEST_NAME=$TEST_NAME.memory_one_thread_per_core each_scheduler case_memory_one_thread_per_core
TEST_NAME=$TEST_NAME.memory_fit_on_all_threads each_scheduler case_memory_fit_on_all_threads

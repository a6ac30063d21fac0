// The benchmark's predict + learn pairs (tests/predictor/pair_workload.h), a fixed
// number of pairs, for counting instructions under callgrind (count-instructions): an
// exact, load-independent measure of a change's cost where timings scatter.
//
//   pair_loop SPEC USERS PAIRS     prints the sum of the predictions (same input: same sum)
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "easypp/predictor.h"
#include "pair_workload.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: pair_loop SPEC USERS PAIRS\n");
    return 2;
  }
  const unsigned long users = std::strtoul(argv[2], nullptr, 10);
  const unsigned long pairs = std::strtoul(argv[3], nullptr, 10);
  char err[256];
  epp_predictor* p = epp_predictor_new(argv[1], err, sizeof err);
  if (p == nullptr || users == 0) {
    std::fprintf(stderr, "pair_loop: %s\n", p == nullptr ? err : "USERS must be > 0");
    return 2;
  }
  long long sum = 0;
  for (std::uint64_t id = 1; id <= pairs; ++id)
    sum += easypp::test::predict_and_learn_pair(p, id, static_cast<std::uint32_t>(users));
  std::printf("%lld\n", sum);
  epp_predictor_free(p);
  return 0;
}

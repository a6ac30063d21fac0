// Random draws for one job of one seeded evaluation predictor (paper 003). Counter-based:
// the stream is a function of (seed, job id) only, so a job gets the same prediction
// however often and in whatever order the driver asks, and runs repeat exactly. The
// generators are written out (splitmix64, Box-Muller) because the standard library's
// distributions differ between implementations.
#ifndef EASYPP_PREDICTOR_JOB_DRAWS_H
#define EASYPP_PREDICTOR_JOB_DRAWS_H

#include <cmath>
#include <cstdint>

namespace easypp::predictor {

inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class JobDraws {
 public:
  JobDraws(std::uint64_t seed, std::uint64_t job_id) : state_(seed) {
    std::uint64_t id_state = job_id;
    state_ ^= splitmix64(id_state);
  }

  // Uniform in [0, 1).
  double uniform() { return static_cast<double>(splitmix64(state_) >> 11) * 0x1.0p-53; }
  // Uniform in [lo, hi].
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  // Normal with this mean and standard deviation (Box-Muller, one value per call).
  double normal(double mean, double stdev) {
    const double u1 = 1.0 - uniform();  // (0, 1]: log stays finite
    const double u2 = uniform();
    const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * 3.14159265358979323846 * u2);
    return mean + stdev * z;
  }

 private:
  std::uint64_t state_;
};

}  // namespace easypp::predictor

#endif

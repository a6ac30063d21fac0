#include "sweep/ranking.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>

namespace easypp::sweep {
namespace {

struct Values {
  double wait = 0, bsld = 0;
  bool present = false;
};

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string pct(double v) { return fixed(v, 2) + "%"; }

std::string rank_label(const RankedConfig& r) {
  if (r.tie_first == r.tie_last) return std::to_string(r.tie_first);
  const char* sep = r.tie_last == r.tie_first + 1 ? "/" : "-";
  return std::to_string(r.tie_first) + sep + std::to_string(r.tie_last);
}

std::string parameters_text(const Parameters& p) {
  std::string s;
  for (std::size_t k = 0; k < kParameterKeys.size(); ++k) {
    s += (k ? "," : "") + std::string(kParameterKeys[k]) + "=" + p[k];
  }
  return s;
}

// One Table 11 row for a group of tied configurations: each parameter's distinct values.
std::string group_row(const Ranking& ranking, std::size_t first, std::size_t last,
                      const ConfigSpace& space) {
  const RankedConfig& r = ranking.ranked[first];
  std::string row = "| " + rank_label(r) + " | " + pct(r.average) + " |";
  for (std::size_t k = 0; k < kParameterKeys.size(); ++k) {
    std::vector<std::string> values;
    for (std::size_t i = first; i <= last; ++i) {
      const std::string& v = space.parameters(ranking.ranked[i].config)[k];
      if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
    }
    std::string cell;
    for (const auto& v : values) cell += (cell.empty() ? "" : "/") + v;
    row += " " + cell + " |";
  }
  return row + "\n";
}

// The paper's Fig. 9 shows window sizes in groups of five.
std::string window_group(const std::string& window) {
  const int w = std::stoi(window);
  const int first = (w - 1) / 5 * 5 + 1;
  return std::to_string(first) + "-" + std::to_string(first + 4);
}

std::string statistics_cell(const Statistics& s, double Statistics::*field) {
  return s.count == 0 ? "n/a" : pct(s.*field);
}

}  // namespace

Ranking rank_results(const std::vector<ResultRow>& rows) {
  std::set<std::string> trace_set;
  for (const auto& r : rows) trace_set.insert(r.trace);
  const std::vector<std::string> traces(trace_set.begin(), trace_set.end());
  std::map<std::string, std::size_t> trace_index;
  for (std::size_t i = 0; i < traces.size(); ++i) trace_index[traces[i]] = i;

  std::map<std::size_t, std::vector<Values>> by_config;
  for (const auto& r : rows) {
    auto& v = by_config.try_emplace(r.config, traces.size()).first->second;
    Values& cell = v[trace_index[r.trace]];
    if (cell.present && (cell.wait != r.avg_wait_min || cell.bsld != r.avg_bsld)) {
      throw std::invalid_argument("config " + std::to_string(r.config) + " trace " + r.trace +
                                  ": two lines with different numbers");
    }
    cell = {r.avg_wait_min, r.avg_bsld, true};
  }

  Ranking ranking;
  std::vector<std::pair<std::size_t, const std::vector<Values>*>> complete;
  for (const auto& [config, values] : by_config) {
    const bool all = std::all_of(values.begin(), values.end(), [](const Values& v) { return v.present; });
    if (all) {
      complete.emplace_back(config, &values);
    } else {
      ranking.incomplete.push_back(config);
    }
  }
  if (complete.empty()) return ranking;

  for (const auto& trace : traces) {
    for (const char* metric : {"wait", "bsld"}) ranking.testcases.push_back({trace, metric});
  }
  auto value_of = [&](const std::vector<Values>& v, std::size_t t) {
    const Values& cell = v[t / 2];
    return t % 2 == 0 ? cell.wait : cell.bsld;
  };
  for (std::size_t t = 0; t < ranking.testcases.size(); ++t) {
    Testcase& tc = ranking.testcases[t];
    tc.best = value_of(*complete.front().second, t);
    tc.best_config = complete.front().first;
    for (const auto& [config, values] : complete) {
      const double v = value_of(*values, t);
      if (v < tc.best) {
        tc.best = v;
        tc.best_config = config;
      }
    }
    for (const auto& [config, values] : complete) tc.best_count += value_of(*values, t) == tc.best;
    if (!(tc.best > 0)) {
      throw std::invalid_argument("testcase " + tc.trace + " " + tc.metric + ": best value is " +
                                  fixed(tc.best, 6) +
                                  ", so degradations relative to it are undefined");
    }
  }

  for (const auto& [config, values] : complete) {
    RankedConfig rc;
    rc.config = config;
    double sum = 0;
    for (std::size_t t = 0; t < ranking.testcases.size(); ++t) {
      const double d = 100.0 * value_of(*values, t) / ranking.testcases[t].best - 100.0;
      rc.degradation.push_back(d);
      sum += d;
    }
    rc.average = sum / static_cast<double>(ranking.testcases.size());
    ranking.ranked.push_back(std::move(rc));
  }
  std::sort(ranking.ranked.begin(), ranking.ranked.end(),
            [](const RankedConfig& a, const RankedConfig& b) {
              return a.average != b.average ? a.average < b.average : a.config < b.config;
            });
  for (std::size_t i = 0; i < ranking.ranked.size();) {
    std::size_t j = i;
    while (j + 1 < ranking.ranked.size() && ranking.ranked[j + 1].average == ranking.ranked[i].average) ++j;
    for (std::size_t k = i; k <= j; ++k) {
      ranking.ranked[k].rank = k + 1;
      ranking.ranked[k].tie_first = i + 1;
      ranking.ranked[k].tie_last = j + 1;
    }
    i = j + 1;
  }
  return ranking;
}

const RankedConfig* find_ranked(const Ranking& ranking, std::size_t config) {
  for (const auto& r : ranking.ranked) {
    if (r.config == config) return &r;
  }
  return nullptr;
}

Statistics statistics(const Ranking& ranking, const std::function<bool(std::size_t)>& keep) {
  Statistics s;
  double sum = 0;
  for (const auto& r : ranking.ranked) {
    if (!keep(r.config)) continue;
    if (s.count == 0) s.min = s.max = r.average;
    s.min = std::min(s.min, r.average);
    s.max = std::max(s.max, r.average);
    sum += r.average;
    ++s.count;
  }
  if (s.count == 0) return s;
  s.mean = sum / static_cast<double>(s.count);
  double sq = 0;
  for (const auto& r : ranking.ranked) {
    if (keep(r.config)) sq += (r.average - s.mean) * (r.average - s.mean);
  }
  s.stddev = std::sqrt(sq / static_cast<double>(s.count));
  return s;
}

RankDistribution rank_distribution(const Ranking& ranking, const ConfigSpace& space,
                                   std::size_t bins) {
  RankDistribution d;
  if (bins == 0) throw std::invalid_argument("rank_distribution: bins must be > 0");
  d.bin_size.assign(bins, 0);
  // Values in the order the space enumerates them, per parameter.
  std::map<std::pair<std::size_t, std::string>, std::size_t> slot;
  for (std::size_t k = 0; k < kParameterKeys.size(); ++k) {
    for (std::size_t c = 0; c < space.size(); ++c) {
      std::string v = space.parameters(c)[k];
      if (k == 0) v = window_group(v);
      if (slot.try_emplace({k, v}, d.values.size()).second) {
        d.values.push_back({std::string(kParameterKeys[k]), v, std::vector<std::size_t>(bins, 0)});
      }
    }
  }
  const std::size_t n = ranking.ranked.size();
  for (std::size_t pos = 0; pos < n; ++pos) {
    const std::size_t bin = pos * bins / n;
    ++d.bin_size[bin];
    const Parameters& p = space.parameters(ranking.ranked[pos].config);
    for (std::size_t k = 0; k < kParameterKeys.size(); ++k) {
      ++d.values[slot.at({k, k == 0 ? window_group(p[k]) : p[k]})].counts[bin];
    }
  }
  return d;
}

std::string distribution_csv(const RankDistribution& d) {
  const std::size_t bins = d.bin_size.size();
  std::string csv = "parameter,value,bin,first_pct,last_pct,configurations,share_pct\n";
  for (const auto& v : d.values) {
    for (std::size_t b = 0; b < bins; ++b) {
      const double share = d.bin_size[b] ? 100.0 * static_cast<double>(v.counts[b]) /
                                               static_cast<double>(d.bin_size[b])
                                         : 0.0;
      csv += v.parameter + "," + v.value + "," + std::to_string(b) + "," +
             fixed(100.0 * static_cast<double>(b) / static_cast<double>(bins), 2) + "," +
             fixed(100.0 * static_cast<double>(b + 1) / static_cast<double>(bins), 2) + "," +
             std::to_string(v.counts[b]) + "," + fixed(share, 2) + "\n";
    }
  }
  return csv;
}

std::string ranking_markdown(const Ranking& ranking, const ConfigSpace& space,
                             const SweepSettings& settings, const std::string& source) {
  std::string md = "# Configuration ranking (paper 000, section 7)\n\n";
  const std::size_t n = ranking.ranked.size();
  md += "Made by `easypp-sweep rank` from " + source + ": " + std::to_string(n) + " of " +
        std::to_string(space.size()) + " configurations ranked over " +
        std::to_string(ranking.testcases.size()) + " testcases (" +
        std::to_string(ranking.testcases.size() / 2) + " traces x {wait, bsld})";
  if (!ranking.incomplete.empty()) {
    md += "; " + std::to_string(ranking.incomplete.size()) +
          " more configurations lack a trace and are not ranked";
  }
  md += ". Policy " + (settings.policy.empty() ? std::string("?") : settings.policy) + ".\n\n";
  if (n < space.size()) {
    md += "**A subset**: degradations are relative to the best configuration *of this subset* "
          "for each testcase, and ranks run 1-" + std::to_string(n) +
          ", so neither compares directly with the paper's full-space numbers.\n\n";
  }
  if (settings.max_jobs_per_trace > 0) {
    md += "**Truncated traces**: only the first " + std::to_string(settings.max_jobs_per_trace) +
          " jobs of each trace were simulated.\n\n";
  }
  if (!settings.traces.empty()) {
    md += "| trace | file | procs | jobs simulated |\n|---|---|---:|---:|\n";
    for (const auto& t : settings.traces) {
      md += "| " + t.label + " | " + t.file + " | " + std::to_string(t.procs) + " | " +
            std::to_string(t.jobs) + " |\n";
    }
    md += "\n";
  }
  if (n == 0) return md + "Nothing to rank.\n";

  md += "## Table 11: top and bottom ranked configurations\n\n"
        "Tied configurations (exactly equal average degradation, e.g. equivalent ones) share "
        "a row; a cell lists the values they differ in.\n\n"
        "| rank | average degradation | window size | window type | fullness | metric | "
        "fallback | propagation | correction |\n"
        "|---|---:|---:|---|---|---|---|---|---|\n";
  std::size_t i = 0;
  while (i < n && ranking.ranked[i].tie_first <= 10) {
    const std::size_t last = ranking.ranked[i].tie_last - 1;
    md += group_row(ranking, i, last, space);
    i = last + 1;
  }
  // The bottom: the groups holding the last three ranks.
  std::size_t bottom = n >= 3 ? n - 3 : 0;
  bottom = std::max(bottom, i);
  if (bottom < n) {
    bottom = ranking.ranked[bottom].tie_first - 1;
    if (bottom > i) md += "| ... | ... | ... | ... | ... | ... | ... | ... | ... |\n";
    for (std::size_t j = std::max(bottom, i); j < n;) {
      const std::size_t last = ranking.ranked[j].tie_last - 1;
      md += group_row(ranking, j, last, space);
      j = last + 1;
    }
  }

  md += "\n## Table 12: degradation statistics\n\n"
        "Average degradation of the configurations with type=all and correction=estimate and "
        "window size 1 or 2 (the paper's chosen subspace), next to all ranked configurations. "
        "Standard deviation: population.\n\n";
  auto in_subspace = [&](std::size_t c, const char* window) {
    const Parameters& p = space.parameters(c);
    return p[0] == window && p[1] == "all" && p[6] == "estimate";
  };
  const Statistics s1 = statistics(ranking, [&](std::size_t c) { return in_subspace(c, "1"); });
  const Statistics s2 = statistics(ranking, [&](std::size_t c) { return in_subspace(c, "2"); });
  const Statistics sa = statistics(ranking, [](std::size_t) { return true; });
  md += "| statistic | size=1 | size=2 | all ranked |\n|---|---:|---:|---:|\n";
  md += "| configurations | " + std::to_string(s1.count) + " | " + std::to_string(s2.count) +
        " | " + std::to_string(sa.count) + " |\n";
  const std::pair<const char*, double Statistics::*> rows[] = {
      {"min", &Statistics::min}, {"max", &Statistics::max},
      {"average", &Statistics::mean}, {"std. deviation", &Statistics::stddev}};
  for (const auto& [name, field] : rows) {
    md += std::string("| ") + name + " | " + statistics_cell(s1, field) + " | " +
          statistics_cell(s2, field) + " | " + statistics_cell(sa, field) + " |\n";
  }

  md += "\n## The paper's configurations\n\n"
        "| configuration | index | rank | average degradation | per testcase (min - max) |\n"
        "|---|---:|---:|---:|---:|\n";
  const std::pair<const char*, const char*> named[] = {
      {"recommended (Table 12)", kRecommendedSpec}, {"paper's rank 1 (Table 11)", kPaperTopSpec}};
  for (const auto& [name, spec] : named) {
    const std::size_t index = space.index_of_spec(spec);
    const RankedConfig* r = find_ranked(ranking, index);
    md += std::string("| ") + name + ": " + parameters_text(space.parameters(index)) + " | " +
          std::to_string(index) + " | ";
    if (r == nullptr) {
      md += "not ranked | | |\n";
      continue;
    }
    const auto [lo, hi] = std::minmax_element(r->degradation.begin(), r->degradation.end());
    md += rank_label(*r) + " of " + std::to_string(n) + " | " + pct(r->average) + " | " +
          pct(*lo) + " - " + pct(*hi) + " |\n";
  }

  md += "\n## Best value per testcase\n\n"
        "| testcase | best value | configurations reaching it | lowest such index: parameters | "
        "its rank |\n|---|---:|---:|---|---:|\n";
  for (const auto& tc : ranking.testcases) {
    const RankedConfig* r = find_ranked(ranking, tc.best_config);
    md += "| " + tc.trace + " " + tc.metric + " | " + fixed(tc.best, 3) + " | " +
          std::to_string(tc.best_count) + " | " + std::to_string(tc.best_config) + ": " +
          parameters_text(space.parameters(tc.best_config)) + " | " +
          (r ? rank_label(*r) : std::string("?")) + " |\n";
  }
  md += "\nThe rank-1 configuration's degradation per testcase: ";
  for (std::size_t t = 0; t < ranking.testcases.size(); ++t) {
    md += (t ? ", " : "") + ranking.testcases[t].trace + " " + ranking.testcases[t].metric + " " +
          pct(ranking.ranked.front().degradation[t]);
  }
  md += ".\n";

  md += "\n## Average degradation by window size (cf. Fig. 10)\n\n"
        "| window size | configurations | mean | std. deviation |\n|---:|---:|---:|---:|\n";
  for (int w = 1; w <= 30; ++w) {
    const std::string ws = std::to_string(w);
    const Statistics s = statistics(ranking, [&](std::size_t c) { return space.parameters(c)[0] == ws; });
    if (s.count == 0) continue;
    md += "| " + ws + " | " + std::to_string(s.count) + " | " + pct(s.mean) + " | " +
          pct(s.stddev) + " |\n";
  }

  md += "\n## Parameter values by rank (cf. Fig. 9)\n\n"
        "Share of each value among the configurations in each slice of the ranking (position "
        "as a percentage of the " + std::to_string(n) + " ranked). A value that does not matter "
        "keeps the same share in every slice. distribution.csv has the 5% slices the figure "
        "plots.\n\n"
        "| parameter | value | top 5% | 5-25% | 25-50% | 50-75% | bottom 25% |\n"
        "|---|---|---:|---:|---:|---:|---:|\n";
  const RankDistribution dist = rank_distribution(ranking, space, 20);
  const std::pair<std::size_t, std::size_t> slices[] = {{0, 1}, {1, 5}, {5, 10}, {10, 15}, {15, 20}};
  for (const auto& v : dist.values) {
    md += "| " + v.parameter + " | " + v.value + " |";
    for (const auto& [from, to] : slices) {
      std::size_t have = 0, size = 0;
      for (std::size_t b = from; b < to; ++b) {
        have += v.counts[b];
        size += dist.bin_size[b];
      }
      md += " " + (size ? fixed(100.0 * static_cast<double>(have) / static_cast<double>(size), 1) + "%"
                        : std::string("n/a")) + " |";
    }
    md += "\n";
  }

  md += "\n## The chosen subspace by largest window (cf. Fig. 11, left)\n\n"
        "Configurations with type=all and correction=estimate and window size at most k: "
        "where they rank. The paper chooses k = 3 because every configuration there ranks "
        "high.\n\n"
        "| k | configurations | best rank | worst rank | worst rank, % of ranked | mean degradation | "
        "max degradation |\n|---:|---:|---:|---:|---:|---:|---:|\n";
  for (int k : {30, 10, 6, 3, 2, 1}) {
    std::size_t count = 0, best = 0, worst = 0;
    double sum = 0, max = 0;
    for (std::size_t pos = 0; pos < n; ++pos) {
      const Parameters& p = space.parameters(ranking.ranked[pos].config);
      if (p[1] != "all" || p[6] != "estimate" || std::stoi(p[0]) > k) continue;
      if (count == 0) best = pos + 1;
      worst = pos + 1;
      ++count;
      sum += ranking.ranked[pos].average;
      max = std::max(max, ranking.ranked[pos].average);
    }
    if (count == 0) continue;
    md += "| " + std::to_string(k) + " | " + std::to_string(count) + " | " + std::to_string(best) +
          " | " + std::to_string(worst) + " | " +
          fixed(100.0 * static_cast<double>(worst) / static_cast<double>(n), 1) + "% | " +
          pct(sum / static_cast<double>(count)) + " | " + pct(max) + " |\n";
  }

  // Section 7's argument for type=all: its bad configurations are nearly all avoided by
  // correction=estimate and a small window.
  std::size_t tail_all = 0, tail_estimate = 0, tail_min_large = 0, window_sum = 0;
  for (std::size_t pos = n - n * 3 / 10; pos < n; ++pos) {
    const Parameters& p = space.parameters(ranking.ranked[pos].config);
    if (p[1] != "all") continue;
    ++tail_all;
    if (p[6] != "estimate") continue;
    ++tail_estimate;
    if (p[3] == "min" && std::stoi(p[0]) >= 7) {
      ++tail_min_large;
      window_sum += static_cast<std::size_t>(std::stoi(p[0]));
    }
  }
  md += "\n## The paper's tail analysis\n\n"
        "Of the " + std::to_string(n * 3 / 10) + " configurations in the bottom 30% of the "
        "ranking, " + std::to_string(tail_all) + " use type=all (paper: 1298); of these, " +
        std::to_string(tail_estimate) + " use correction=estimate (paper: 194); of those, " +
        std::to_string(tail_min_large) + " use metric=min with a window of 7 or more (paper: 186";
  if (tail_min_large > 0) {
    md += "; mean window here " +
          fixed(static_cast<double>(window_sum) / static_cast<double>(tail_min_large), 1) +
          ", paper 18.8";
  }
  md += ").\n";
  return md;
}

std::string ranking_csv(const Ranking& ranking, const ConfigSpace& space) {
  std::string csv = "rank,tie_first,tie_last,config,average_degradation";
  for (const auto& k : kParameterKeys) csv += "," + std::string(k);
  for (const auto& tc : ranking.testcases) csv += "," + tc.trace + ":" + tc.metric;
  csv += "\n";
  for (const auto& r : ranking.ranked) {
    csv += std::to_string(r.rank) + "," + std::to_string(r.tie_first) + "," +
           std::to_string(r.tie_last) + "," + std::to_string(r.config) + "," + fixed(r.average, 6);
    for (const auto& v : space.parameters(r.config)) csv += "," + v;
    for (double d : r.degradation) csv += "," + fixed(d, 6);
    csv += "\n";
  }
  return csv;
}

}  // namespace easypp::sweep

// results.csv and sweep.conf: exact round trips, a truncated last line dropped and
// rewritten, errors naming FILE:LINE, and one writer per file.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <cstdio>
#include <string>

#include "sweep/results_file.h"
#include "sweep_test_support.h"

namespace easypp::sweep {
namespace {

using testing::slurp;

void spit(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

ResultRow sample(std::size_t config, const std::string& trace) {
  ResultRow r;
  r.config = config;
  r.spec = "history:window=3,type=all,metric=\"odd\"";
  r.trace = trace;
  r.avg_wait_min = 1.0 / 3.0;
  r.avg_bsld = 123456.789012345678;
  r.sim_seconds = 0.1;
  r.cpu_seconds = 2e-7;
  r.simulated_as = config;
  return r;
}

TEST(ResultsFile, RoundTripIsExact) {
  testing::TempDir dir;
  const std::string path = dir.file("results.csv");
  {
    ResultsWriter w(path, 0);
    w.append({sample(5, "KTH"), sample(6, "a,b")});
  }
  const ResultsContent c = read_results(path);
  ASSERT_EQ(c.rows.size(), 2u);
  EXPECT_FALSE(c.truncated_tail);
  EXPECT_EQ(c.complete_bytes, slurp(path).size());
  EXPECT_EQ(c.rows[0].spec, sample(5, "KTH").spec);
  EXPECT_EQ(c.rows[1].trace, "a,b");
  EXPECT_EQ(c.rows[0].avg_wait_min, 1.0 / 3.0);  // bit for bit
  EXPECT_EQ(c.rows[0].avg_bsld, 123456.789012345678);
  EXPECT_EQ(c.rows[0].cpu_seconds, 2e-7);
  EXPECT_EQ(c.rows[1].config, 6u);
  EXPECT_EQ(slurp(path).substr(0, slurp(path).find('\n')), kResultsHeader);
}

TEST(ResultsFile, MissingFileIsEmpty) {
  testing::TempDir dir;
  const ResultsContent c = read_results(dir.file("none.csv"));
  EXPECT_TRUE(c.rows.empty());
  EXPECT_EQ(c.complete_bytes, 0u);
}

TEST(ResultsFile, TruncatedLastLineIsDroppedAndRewritten) {
  testing::TempDir dir;
  const std::string path = dir.file("results.csv");
  {
    ResultsWriter w(path, 0);
    w.append({sample(1, "T"), sample(2, "T")});
  }
  const std::string whole = slurp(path);
  spit(path, whole + format_row(sample(3, "T")).substr(0, 25));  // interrupted mid-line
  ResultsContent c = read_results(path);
  EXPECT_TRUE(c.truncated_tail);
  ASSERT_EQ(c.rows.size(), 2u);
  EXPECT_EQ(c.complete_bytes, whole.size());
  {
    ResultsWriter w(path, c.complete_bytes);
    w.append({sample(3, "T")});
  }
  c = read_results(path);
  EXPECT_FALSE(c.truncated_tail);
  ASSERT_EQ(c.rows.size(), 3u);
  EXPECT_EQ(c.rows[2].config, 3u);
  EXPECT_EQ(slurp(path), whole + format_row(sample(3, "T")) + "\n");
}

// A sweep resuming reads the file, then locks it to append: a merge that renamed a new
// file into place in between is refused, not cut to the old file's length.
TEST(ResultsFile, AFileReplacedAfterItWasReadIsNotCut) {
  testing::TempDir dir;
  const std::string path = dir.file("results.csv");
  {
    ResultsWriter w(path, 0);
    w.append({sample(1, "T")});
  }
  const ResultsContent read = read_results(path);
  const std::string merged = dir.file("merged.csv");
  {
    ResultsWriter w(merged, 0);
    w.append({sample(1, "T"), sample(2, "T"), sample(3, "T")});
  }
  const std::string merged_text = slurp(merged);
  ASSERT_EQ(std::rename(merged.c_str(), path.c_str()), 0);
  try {
    ResultsWriter w(path, read);
    FAIL() << "a replaced file was locked for appending";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("replaced while it was read"), std::string::npos) << e.what();
  }
  EXPECT_EQ(slurp(path), merged_text);
  // The file it read, still there: appended after its complete lines.
  { ResultsWriter w(path, read_results(path)); }
  EXPECT_EQ(slurp(path), merged_text);
}

TEST(ResultsFile, TruncatedHeaderIsRewritten) {
  testing::TempDir dir;
  const std::string path = dir.file("results.csv");
  spit(path, "config,sp");
  const ResultsContent c = read_results(path);
  EXPECT_TRUE(c.truncated_tail);
  EXPECT_EQ(c.complete_bytes, 0u);
  { ResultsWriter w(path, c.complete_bytes); }
  EXPECT_EQ(slurp(path), std::string(kResultsHeader) + "\n");
}

TEST(ResultsFile, BadLinesNameTheirPlace) {
  testing::TempDir dir;
  const std::string path = dir.file("results.csv");
  auto error_of = [&](const std::string& text) -> std::string {
    spit(path, text);
    try {
      read_results(path);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "no error";
  };
  const std::string header = std::string(kResultsHeader) + "\n";
  const std::string good = format_row(sample(1, "T")) + "\n";
  EXPECT_EQ(error_of("config,spec\n"), path + ":1: expected the header '" + kResultsHeader + "'");
  EXPECT_EQ(error_of(header + good + "x,\"s\",T,1,1,0,0,1\n"), path + ":3: config=x: not an index");
  EXPECT_EQ(error_of(header + "1,\"s\",T,-1,1,0,0,1\n"),
            path + ":2: avg_wait_min=-1: not a number >= 0");
  EXPECT_EQ(error_of(header + "1,\"s,T,1,1,0,0,1\n"), path + ":2: unterminated quote");
  EXPECT_NE(error_of(header + "1,s,T\n").find(":2: expected 8 fields"), std::string::npos);
}

TEST(ResultsFile, OneWriterPerFile) {
  testing::TempDir dir;
  const std::string path = dir.file("results.csv");
  ResultsWriter first(path, 0);
  try {
    ResultsWriter second(path, 0);
    FAIL() << "a second writer must be refused";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("in use by another easypp-sweep"), std::string::npos);
  }
  first.append({sample(1, "T")});
  EXPECT_EQ(read_results(path).rows.size(), 1u);  // the refused writer truncated nothing
}

TEST(SweepSettings, RoundTripAndConflicts) {
  testing::TempDir dir;
  SweepSettings s;
  s.policy = "easy++";
  s.max_jobs_per_trace = 500;
  s.traces = {{"CTC", "CTC-SP2-1996-3.1-cln.swf.gz", 512, 77222}, {"KTH", "k.swf", 100, 28475}};
  write_settings(dir.file("sweep.conf"), s);
  SweepSettings back;
  ASSERT_TRUE(read_settings(dir.file("sweep.conf"), back));
  EXPECT_EQ(back.policy, "easy++");
  EXPECT_EQ(back.max_jobs_per_trace, 500u);
  EXPECT_EQ(back.traces, s.traces);
  EXPECT_FALSE(read_settings(dir.file("none.conf"), back));

  EXPECT_EQ(settings_conflict(s, s), "");
  SweepSettings fewer = s;
  fewer.traces.pop_back();  // a subset of the traces may extend the results
  EXPECT_EQ(settings_conflict(s, fewer), "");
  SweepSettings other = s;
  other.traces[0].procs = 338;
  EXPECT_EQ(settings_conflict(s, other),
            "trace CTC: CTC-SP2-1996-3.1-cln.swf.gz procs=512 jobs=77222 -> "
            "CTC-SP2-1996-3.1-cln.swf.gz procs=338 jobs=77222");
  other = s;
  other.policy = "x2+";
  EXPECT_EQ(settings_conflict(s, other), "policy: easy++ -> x2+");

  spit(dir.file("bad.conf"), "policy=easy++\ntrace=CTC|f|notanumber|1\n");
  try {
    read_settings(dir.file("bad.conf"), back);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              dir.file("bad.conf") + ":2: trace=CTC|f|notanumber|1: expected LABEL|FILE|PROCS|JOBS");
  }
}

}  // namespace
}  // namespace easypp::sweep

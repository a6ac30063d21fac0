// SWF reader: header notes, -1 fields, unsorted input, gzip, malformed lines.
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "sim/swf.h"

namespace {

using easypp::swf::ParseError;
using easypp::swf::ReadOptions;
using easypp::swf::Trace;

std::string data(const std::string& name) {
  return std::string(EASYPP_SRCDIR) + "/tests/sim/data/" + name;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A unique scratch path under TMPDIR, removed by the caller's fixture.
std::string scratch(const std::string& name) {
  const char* tmp = std::getenv("TMPDIR");
  return std::string(tmp ? tmp : "/tmp") + "/easypp-test-swf-" + std::to_string(getpid()) +
         "-" + name;
}

TEST(SwfReader, HeaderKeepsFirstNumberAndAcknowledge) {
  Trace t = easypp::swf::read(data("reader_sample.swf"));
  EXPECT_EQ(t.header.max_procs, 1664);
  EXPECT_EQ(t.header.max_nodes, 184);
  EXPECT_EQ(t.header.unix_start_time, 1078605840);
  ASSERT_EQ(t.header.acknowledge.size(), 1u);
  EXPECT_EQ(t.header.acknowledge[0], "nobody in particular");
}

TEST(SwfReader, UnknownFieldsStayMinusOne) {
  Trace t = easypp::swf::read(data("reader_sample.swf"));
  ASSERT_EQ(t.records.size(), 4u);
  const auto& job2 = t.records.back();  // submit 50, last after sorting
  EXPECT_EQ(job2.job_number, 2);
  EXPECT_EQ(job2.requested_procs, -1);
  EXPECT_EQ(job2.requested_time, -1);
  EXPECT_EQ(job2.allocated_procs, 2);
  EXPECT_EQ(job2.runtime, 30);
  EXPECT_EQ(job2.status, 0);
  EXPECT_EQ(job2.line, 11);
  EXPECT_EQ(job2.avg_cpu, -1.0);
}

TEST(SwfReader, UnsortedInputIsStablySortedBySubmit) {
  Trace t = easypp::swf::read(data("reader_sample.swf"));
  EXPECT_TRUE(t.was_unsorted);
  ASSERT_EQ(t.records.size(), 4u);
  EXPECT_EQ(t.records[0].job_number, 1);
  EXPECT_EQ(t.records[1].job_number, 3);  // ties keep file order: 3 before 4
  EXPECT_EQ(t.records[2].job_number, 4);
  EXPECT_EQ(t.records[3].job_number, 2);
  EXPECT_EQ(t.records[1].line, 13);
}

TEST(SwfReader, SortedInputIsNotFlagged) {
  std::string path = scratch("sorted.swf");
  {
    std::ofstream out(path);
    out << "1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 -1 -1\n2 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 -1 -1\n";
  }
  Trace sorted = easypp::swf::read(path);
  std::filesystem::remove(path);
  EXPECT_FALSE(sorted.was_unsorted);
  EXPECT_EQ(sorted.header.max_procs, -1);
  EXPECT_EQ(sorted.records.size(), 2u);
}

TEST(SwfReader, GzipReadsLikePlain) {
  std::string path = scratch("sample.swf.gz");
  std::string text = slurp(data("reader_sample.swf"));
  ASSERT_FALSE(text.empty());
  gzFile out = gzopen(path.c_str(), "wb9");
  ASSERT_NE(out, nullptr);
  ASSERT_EQ(gzwrite(out, text.data(), static_cast<unsigned>(text.size())),
            static_cast<int>(text.size()));
  ASSERT_EQ(gzclose(out), Z_OK);
  // The file really is compressed (gzip magic), so this exercises inflation.
  std::string raw = slurp(path);
  ASSERT_GE(raw.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(raw[0]), 0x1f);
  EXPECT_EQ(static_cast<unsigned char>(raw[1]), 0x8b);

  Trace gz = easypp::swf::read(path);
  Trace plain = easypp::swf::read(data("reader_sample.swf"));
  std::filesystem::remove(path);
  ASSERT_EQ(gz.records.size(), plain.records.size());
  for (size_t i = 0; i < gz.records.size(); ++i) {
    EXPECT_EQ(gz.records[i].job_number, plain.records[i].job_number);
    EXPECT_EQ(gz.records[i].submit, plain.records[i].submit);
    EXPECT_EQ(gz.records[i].runtime, plain.records[i].runtime);
  }
  EXPECT_EQ(gz.header.max_procs, 1664);
}

// Fuzzing finding (session 4, fuzz_swf): a file starting with gzip's magic but a corrupt
// stream (the fuzzer's input, 22 bytes) is unreadable: a file-level error naming the file
// and zlib's reason, with or without --skip-bad (which skips bad lines, not bad files).
TEST(SwfReader, CorruptGzipStreamIsAFileLevelError) {
  const std::string path = scratch("corrupt.swf.gz");
  const unsigned char bytes[] = {0x1f, 0x8b, 0x01, 0x00, 0x30, 0x60, 0x00, 0x00, 0x65, 0xc8, 0x08,
                                 0x00, 0x0b, 0x0b, 0x0b, 0x45, 0x0b, 0x32, 0x0b, 0x0b, 0x0b, 0xff};
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes), sizeof bytes);
  }
  for (bool skip_bad : {false, true}) {
    try {
      easypp::swf::read(path, {skip_bad});
      FAIL() << "a corrupt gzip stream must throw (skip_bad=" << skip_bad << ")";
    } catch (const ParseError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(path + ":0: read error: ", 0), 0u) << e.what();
    }
  }
  std::filesystem::remove(path);
}

// Review finding: a gzip file cut short (a copy interrupted on a line end) read as a
// shorter trace, with no error: gzread just returns 0 at the cut. Now the cut is a
// file-level error, with or without --skip-bad.
TEST(SwfReader, TruncatedGzipIsAFileLevelError) {
  std::string text = "; MaxProcs: 8\n";
  for (int i = 1; i <= 3000; ++i)
    text += std::to_string(i) + " " + std::to_string(10 * i) + " 0 " + std::to_string(i % 977) +
            " 1 -1 -1 1 1000 -1 1 " + std::to_string(i % 13) + " 1 -1 -1 -1 -1 -1\n";
  const std::string whole = scratch("whole.swf.gz"), cut = scratch("cut.swf.gz");
  gzFile out = gzopen(whole.c_str(), "wb9");
  ASSERT_NE(out, nullptr);
  ASSERT_EQ(gzwrite(out, text.data(), static_cast<unsigned>(text.size())), static_cast<int>(text.size()));
  ASSERT_EQ(gzclose(out), Z_OK);
  EXPECT_EQ(easypp::swf::read(whole).records.size(), 3000u);
  const std::string raw = slurp(whole);
  {
    std::ofstream o(cut, std::ios::binary);
    o.write(raw.data(), static_cast<std::streamsize>(raw.size() / 2));
  }
  for (bool skip_bad : {false, true}) {
    try {
      easypp::swf::read(cut, {skip_bad});
      ADD_FAILURE() << "a truncated gzip file must throw (skip_bad=" << skip_bad << ")";
    } catch (const ParseError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(cut + ":0: read error: ", 0), 0u) << e.what();
      EXPECT_NE(std::string(e.what()).find("truncated or corrupt gzip"), std::string::npos) << e.what();
    }
  }
  std::filesystem::remove(whole);
  std::filesystem::remove(cut);
}

// Review finding: numbers beyond what a field's kind holds were cast (a width of
// 4294967300 became 4, a runtime near 2^63 overflowed the simulation). Now each is an
// error naming the line and the field; -1 (unknown) and real traces' values pass.
TEST(SwfReader, OutOfRangeFieldsAreNamed) {
  const std::string path = scratch("range.swf");
  const struct {
    const char* line;
    const char* error;
  } cases[] = {
      {"1 0 0 100 4294967300 -1 -1 1 200 -1 1 1 1 -1 -1 -1 -1 -1",
       ":2: field 5 (allocated procs) = 4294967300: out of range (at most 2147483647 in magnitude)"},
      {"1 0 0 9223372036854775000 1 -1 -1 1 200 -1 1 1 1 -1 -1 -1 -1 -1",
       ":2: field 4 (run time) = 9223372036854775000: out of range (at most 1099511627776 in magnitude)"},
      {"9007199254740993 0 0 10 1 -1 -1 1 200 -1 1 1 1 -1 -1 -1 -1 -1",
       ":2: field 1 (job number) = 9007199254740993: out of range (at most 9007199254740991 in magnitude)"},
  };
  for (const auto& c : cases) {
    std::ofstream(path) << "; MaxProcs: 8\n" << c.line << "\n";
    try {
      easypp::swf::read(path);
      ADD_FAILURE() << c.line;
    } catch (const ParseError& e) {
      EXPECT_EQ(std::string(e.what()), path + c.error);
    }
  }
  std::ofstream(path) << "; MaxProcs: 4294967304\n";
  try {
    easypp::swf::read(path);
    ADD_FAILURE() << "MaxProcs beyond an int";
  } catch (const ParseError& e) {
    EXPECT_EQ(std::string(e.what()), path + ":1: MaxProcs: 4294967304: out of range (at most 2147483647)");
  }
  std::ofstream(path) << "; MaxProcs: -5\n1 0 0 10 1 -1 -1 1 200 -1 1 1 1 -1 -1 -1 -1 -1\n";
  EXPECT_EQ(easypp::swf::read(path).header.max_procs, -1) << "not a size: unknown";
  std::filesystem::remove(path);
}

TEST(SwfReader, MalformedLineNamesFileAndLine) {
  const std::string path = data("malformed.swf");
  try {
    easypp::swf::read(path);
    FAIL() << "a 17-field line must throw";
  } catch (const ParseError& e) {
    EXPECT_EQ(std::string(e.what()), path + ":3: expected 18 fields, found 17");
  }
}

TEST(SwfReader, SkipBadCountsAndKeepsGoodLines) {
  Trace t = easypp::swf::read(data("malformed.swf"), ReadOptions{true});
  EXPECT_EQ(t.skipped_lines, 2);  // line 3 (17 fields) and line 4 ("6x")
  ASSERT_EQ(t.skipped_reasons.size(), 2u);
  EXPECT_NE(t.skipped_reasons[0].find(":3: "), std::string::npos) << t.skipped_reasons[0];
  EXPECT_NE(t.skipped_reasons[1].find(":4: "), std::string::npos) << t.skipped_reasons[1];
  ASSERT_EQ(t.records.size(), 2u);
  EXPECT_EQ(t.records[0].job_number, 1);
  EXPECT_EQ(t.records[1].job_number, 4);
  EXPECT_EQ(t.header.max_procs, 8);
}

TEST(SwfReader, NonNumericFieldIsNamed) {
  std::string path = scratch("bad-field.swf");
  {
    std::ofstream out(path);
    out << "; MaxProcs: 8\n1 0 0 10 1 -1 -1 1 6x -1 1 1 1 1 1 1 -1 -1\n";
  }
  try {
    easypp::swf::read(path);
    std::filesystem::remove(path);
    FAIL() << "a non-numeric field must throw";
  } catch (const ParseError& e) {
    std::filesystem::remove(path);
    EXPECT_EQ(std::string(e.what()),
              path + ":2: field 9 (requested time) is not a number: '6x'");
  }
}

TEST(SwfReader, MissingFileIsAnError) {
  EXPECT_THROW(easypp::swf::read(data("no-such-file.swf")), ParseError);
}

// Header lines are free-form comments: a value that is not a number leaves its field
// unset with one note naming FILE:LINE (a non-numeric MaxProcs once stopped every run,
// even one given --procs).
TEST(SwfReader, NonNumericHeaderIsLeftUnsetWithANote) {
  std::string path = scratch("bad-header.swf");
  {
    std::ofstream out(path);
    out << "; MaxProcs: many\n; MaxNodes: N/A\n; UnixStartTime: unknown\n"
        << "1 0 0 10 1 -1 -1 1 200 -1 1 1 1 -1 -1 -1 -1 -1\n";
  }
  const Trace t = easypp::swf::read(path);
  std::filesystem::remove(path);
  EXPECT_EQ(t.header.max_procs, -1);
  EXPECT_EQ(t.header.max_nodes, -1);
  EXPECT_EQ(t.header.unix_start_time, -1);
  EXPECT_EQ(t.records.size(), 1u);
  EXPECT_EQ(t.notes, (std::vector<std::string>{
                         path + ":1: MaxProcs is not a number: 'many': left unset",
                         path + ":2: MaxNodes is not a number: 'N/A': left unset",
                         path + ":3: UnixStartTime is not a number: 'unknown': left unset"}));
}

TEST(SwfReader, RealTraceThunderIsSorted) {
  const char* dir = std::getenv("EASYPP_TRACES");
  std::string path = std::string(dir ? dir : "") + "/LLNL-Thunder-2007-1.1-cln.swf.gz";
  if (!dir || !std::filesystem::exists(path)) {
    GTEST_SKIP() << "trace not found: " << path << " (set EASYPP_TRACES)";
  }
  Trace t = easypp::swf::read(path);
  EXPECT_TRUE(t.was_unsorted);
  EXPECT_EQ(t.records.size(), 121039u);
  EXPECT_EQ(t.header.max_procs, 4008);
  EXPECT_EQ(t.skipped_lines, 0);
  for (size_t i = 1; i < t.records.size(); ++i) {
    ASSERT_LE(t.records[i - 1].submit, t.records[i].submit) << "at record " << i;
  }
}

}  // namespace

// A private temporary directory holding one predictor state file, for the state-file tests
// (test_state_file: format and recovery; test_state_file_faults: faults and attacks).
#ifndef EASYPP_TESTS_PREDICTOR_STATE_FILE_FIXTURE_H
#define EASYPP_TESTS_PREDICTOR_STATE_FILE_FIXTURE_H

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "easypp/predictor.h"

namespace easypp::test {

class StateFileDir : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "epp-state-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    path_ = (dir_ / "state.json").string();
  }
  // A test may have left the directory read-only: owner rights back first.
  void TearDown() override {
    std::error_code ec;
    std::filesystem::permissions(dir_, std::filesystem::perms::owner_all, ec);
    std::filesystem::remove_all(dir_, ec);
  }

  void write(const std::string& text) { std::ofstream(path_, std::ios::binary) << text; }
  static std::string read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // Files in the directory other than state.json (a temporary left behind, say).
  std::vector<std::string> others() const {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir_))
      if (e.path().filename() != "state.json") out.push_back(e.path().filename().string());
    return out;
  }
  int save(epp_predictor* p) { return epp_save(p, path_.c_str(), err_, sizeof err_); }
  int load(epp_predictor* p) { return epp_load(p, path_.c_str(), err_, sizeof err_); }
  // An inspection's load (easypp-predict show/stats): changes no file.
  int load_read_only(epp_predictor* p) {
    return epp_load_with_flags(p, path_.c_str(), EPP_LOAD_READ_ONLY, err_, sizeof err_);
  }

  std::filesystem::path dir_;
  std::string path_;
  char err_[512] = "";
};

}  // namespace easypp::test

#endif

// The predictor's state on disk: JSON with a schema version, written atomically.
#ifndef EASYPP_PREDICTOR_STATE_FILE_H
#define EASYPP_PREDICTOR_STATE_FILE_H

#include <string>

#include "runtime_model.h"

namespace easypp::predictor {

// Schema 2 adds the `learned` predictor's model ("learned" object); files without it are
// still written as schema 1, so older libraries keep reading them. Both are read.
inline constexpr int kStateSchema = 2;
inline constexpr int kOldestStateSchema = 1;

// Temp file in the same directory, fsync, rename, fsync of the directory; mode 0600;
// a symlink at `path` is refused. False with a message naming the path on failure.
bool save_state(const RuntimeModel& model, const std::string& path, std::string& error);

// Replaces the model's histories with the file's. Returns an epp_load_result. A corrupt
// file (bad JSON, wrong schema, bad values) is renamed PATH.corrupt-YYYYmmddTHHMMSS (UTC)
// and the model starts empty.
int load_state(RuntimeModel& model, const std::string& path, std::string& error);

}  // namespace easypp::predictor

#endif

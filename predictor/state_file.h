// The predictor's state on disk: JSON with a schema version, written atomically.
#ifndef EASYPP_PREDICTOR_STATE_FILE_H
#define EASYPP_PREDICTOR_STATE_FILE_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "runtime_model.h"

namespace easypp::predictor {

// Schema 2 adds the `learned` predictor's model ("learned" object); files without it are
// still written as schema 1, so older libraries keep reading them. Both are read.
inline constexpr int kStateSchema = 2;
inline constexpr int kOldestStateSchema = 1;

// Temp file in the same directory, fsync, rename, fsync of the directory; mode 0600.
// Refused, leaving the file in place: a symlink or non-regular file at `path`, or a file
// owned by another user. On any failure the previous file is kept (a write cut short by
// a full disk or a kill leaves at most a PATH.tmp-XXXXXX, removed by a later load) and
// `error` is one line naming the path; except when only the final fsync of the directory
// fails: the new file is in place, not yet durable, and `error` says so.
bool save_state(const RuntimeModel& model, const std::string& path, std::string& error);

// A file itself, whatever path names it ("st/c.json", "st/./c.json", a hard link).
struct FileIdentity {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  bool operator==(const FileIdentity&) const = default;
};

// The identity of the file at `path` (following symlinks), if there is one.
std::optional<FileIdentity> identity_of(const std::string& path);

// A file a load kept (LoadOutcome): the path it was loaded by, and the file itself when
// it could be told. Empty: none.
struct KeptFile {
  std::string path;
  std::optional<FileIdentity> file;
  bool held() const { return !path.empty(); }
  // Whether `other` names it: the path as loaded, or another name of the same file
  // ("st/./c.json", a hard link).
  bool named_by(const std::string& other) const;
};

// What a load found. Only Ok changes the model: on every other outcome the model keeps
// the history it had, so a failed reload never loses what was learnt in memory.
struct LoadOutcome {
  int result = 0;             // an epp_load_result
  // The file is there but was not loaded and must not be overwritten: a newer easypp's
  // (`newer`), one that could not be read (an I/O error, no permission), or a corrupt one
  // a read-only load left in place: `kept` says why, and `kept_file` is which file, when
  // it could be told (so another spelling of its path does not overwrite it either).
  std::string kept;
  std::optional<FileIdentity> kept_file;
  bool newer = false;
};

// Whether the file now at `path` is a state file of a newer schema than this library's
// (read whole: a handle that refused one checks its target before each save, so a file
// of our schema put in its place, or given its inode, is saved over, and a newer one is
// refused whatever its path is called). No file, a symlink or a non-regular file: false
// (save_state deals with them). A file that cannot be read to tell: true, with `why`.
bool newer_state_at(const std::string& path, std::string& why);
inline constexpr const char* kHoldsNewerState = "holds a newer easypp's state";

// How a load may treat the files it finds. Recover: a driver's load, which cleans up
// (sets a corrupt file aside, removes stale temporaries). ReadOnly: an inspection
// (easypp-predict show/stats on the plugin's file), which renames, writes, creates and
// removes nothing: a corrupt file is reported and left where and as it is.
enum class LoadMode { Recover, ReadOnly };

// Reads PATH (O_NOFOLLOW; refused if owned by another user). A corrupt file (bad JSON,
// another format, bad values) gives EPP_LOAD_CORRUPT; under Recover it is renamed
// PATH.corrupt-YYYYmmddTHHMMSS (UTC), under ReadOnly it stays and is kept (LoadOutcome:
// this handle's saves do not replace it unread). A file of a newer schema is left in
// place and gives EPP_LOAD_ERROR. Recover also removes temporary files of saves killed
// midway (PATH.tmp-XXXXXX of ours, older than kStaleTemporarySeconds).
LoadOutcome load_state(RuntimeModel& model, const std::string& path, std::string& error,
                       LoadMode mode = LoadMode::Recover);

inline constexpr long kStaleTemporarySeconds = 600;

// `to` takes `from`'s history exactly as a save_state + load_state round trip would give
// it (same JSON, parsed for `to`'s spec), without the disk: a reconfigure hands history
// over even when the disk is full. Only on success is `to` changed; else `error` says why.
bool copy_state(const RuntimeModel& from, RuntimeModel& to, std::string& error);

// The parsing half of load_state, on a document in memory (also what the fuzzer drives).
// Fills `model` only on Ok; else `why` says what is wrong, and `where` is ":LINE:COLUMN"
// for a JSON syntax error (else empty).
enum class ParseOutcome { Ok, Corrupt, Newer };
ParseOutcome parse_state(std::string_view text, RuntimeModel& model, std::string& why, std::string& where);

}  // namespace easypp::predictor

#endif

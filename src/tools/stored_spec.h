// The predictor spec a state file was written with (its "spec" key), so import, show and
// stats without --predictor carry on with the predictor that built the state instead of
// the default one (which would drop a learned model at the next save).
#ifndef EASYPP_TOOLS_STORED_SPEC_H
#define EASYPP_TOOLS_STORED_SPEC_H

#include <optional>
#include <string>

namespace easypp::tools {

// The "spec" string of the JSON state file at `path`; nothing if the file is missing,
// unreadable, not JSON or has no string "spec" (loading it reports those properly).
std::optional<std::string> stored_spec(const std::string& path);

}  // namespace easypp::tools

#endif

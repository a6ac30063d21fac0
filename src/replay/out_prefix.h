// --out PREFIX names files in an existing directory. Checked before anything long starts
// (a live run submits jobs for hours): a typo must not lose the run's results at the end.
#ifndef EASYPP_REPLAY_OUT_PREFIX_H
#define EASYPP_REPLAY_OUT_PREFIX_H

#include <string>

namespace easypp::replay {

// Throws std::invalid_argument "--out PREFIX: directory DIR ..." when PREFIX's directory
// (the part before its last '/', else ".") is missing, not a directory or not writable.
void check_out_prefix(const std::string& prefix);

}  // namespace easypp::replay

#endif

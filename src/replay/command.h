// Running a Slurm client command (no shell) and capturing what it prints.
#ifndef EASYPP_REPLAY_COMMAND_H
#define EASYPP_REPLAY_COMMAND_H

#include <string>
#include <vector>

namespace easypp::replay {

struct CommandResult {
  int status = -1;     // exit status; 128+N if killed by signal N; -1 if it could not start
  std::string out;     // stdout
  std::string err;     // stderr
};

CommandResult run_command(const std::vector<std::string>& argv);

// "sbatch -n 4 ..." for messages.
std::string command_line(const std::vector<std::string>& argv);

}  // namespace easypp::replay

#endif

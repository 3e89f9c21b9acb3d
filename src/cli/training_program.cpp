#include "training_program.hpp"

#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <iostream>

namespace geomsim::cli {
namespace {
constexpr const char* kTrainingProgram = "geomsim-torch";

// The folder of this executable (not of argv[0], which a caller may set to anything).
std::string own_folder() {
  char path[PATH_MAX];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
  if (length <= 0) return "";
  const std::string self(path, static_cast<std::size_t>(length));
  const auto slash = self.rfind('/');
  return slash == std::string::npos ? std::string(".") : self.substr(0, slash);
}
}  // namespace

const std::vector<TrainingCommand>& training_commands() {
  static const std::vector<TrainingCommand> commands = {
      {"train", "train an encoder on Fashion-MNIST coarse labels with SupCon, L_spread, THANOS, SimCLR, CCL-K or CE, "
                "then evaluate coarse accuracy, coarse-to-fine transfer and the embedding geometry (libtorch)"},
      {"train-sweep", "train with L_spread at several alpha and set the trained spread beside the simulated optimum "
                      "(CSV, PNG)"},
      {"eval", "evaluate a checkpoint of geomsim train or a TorchScript model: coarse accuracy, coarse-to-fine "
               "transfer, geometry, subgroups (libtorch)"},
      {"lipschitz", "Lipschitz constants of a checkpoint or TorchScript model on pairs of real images: K_L, K_g, K_aug "
                    "(Table 1, Figure 3), a Jacobian lower bound and a layer-product upper bound (libtorch)"},
      {"measure", "the Section 4 geometry of a checkpoint or TorchScript model on a dataset: s_f(y), sigma_f(z), their "
                  "ratio, Theorem 3's bound (libtorch)"},
      {"robustness", "worst-group robustness (seed 004 Table 4) on an undersampled or spurious Fashion-MNIST: ERM, JTT, "
                     "GEORGE, SupCon, THANOS, CCL-K Fair or Group DRO with true groups; per-group accuracy, clusters, "
                     "subgroup F1 (libtorch)"},
  };
  return commands;
}

std::vector<CLI::App*> add_training_commands(CLI::App& app) {
  std::vector<CLI::App*> registered;
  for (const auto& command : training_commands()) {
    CLI::App* sub = app.add_subcommand(command.name, command.description);
    sub->prefix_command();  // every argument after the name is passed on as it is
    sub->allow_extras();
    sub->set_help_flag();   // --help too: geomsim-torch prints the command's own help
    registered.push_back(sub);
  }
  return registered;
}

int run_training_program(const std::string& command, const std::vector<std::string>& arguments) {
  const std::string program = own_folder() + "/" + kTrainingProgram;
  if (access(program.c_str(), X_OK) != 0) {
    std::cerr << "geomsim: error: '" << command << "' needs the training module (" << kTrainingProgram
              << "), which this build of geomsim does not have: it is built when CMake finds libtorch "
                 "(apt-get install libtorch-dev, then configure and build again)\n";
    return 2;
  }
  std::vector<std::string> words = {"geomsim", command};
  words.insert(words.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (auto& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  execv(program.c_str(), argv.data());
  std::cerr << "geomsim: error: could not start " << program << ": " << std::strerror(errno) << "\n";
  return 1;
}

}  // namespace geomsim::cli

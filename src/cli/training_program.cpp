#include "training_program.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <iostream>

#include "geomsim/support/interrupt_cleanup.hpp"

namespace geomsim::cli {
namespace {
constexpr const char* kTrainingProgram = "geomsim-torch";

// The folder of this executable.
std::string own_folder() {
  const std::string self = own_program();
  if (self.empty()) return "";
  const auto slash = self.rfind('/');
  return slash == std::string::npos ? std::string(".") : self.substr(0, slash);
}
}  // namespace

std::string own_program() {
  char path[PATH_MAX];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
  return length <= 0 ? std::string() : std::string(path, static_cast<std::size_t>(length));
}

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
      {"measure", "the Section 4 geometry of a checkpoint or TorchScript model on a dataset, or of given embeddings "
                  "(--embeddings N x d with --labels and --subclasses): s_f(y), sigma_f(z), their ratio, Theorem 3's "
                  "bound (a model or torch.save files: libtorch)"},
      {"experiment", "run one training experiment of sims/ (a definition of a training kind): its runs, cached in "
                     "NAME.csv, and its page NAME.md (geomsim report runs it for you; libtorch)"},
      {"robustness", "worst-group robustness (seed 004 Table 4) on an undersampled or spurious Fashion-MNIST: ERM, JTT, "
                     "GEORGE, SupCon, THANOS, CCL-K Fair or Group DRO with true groups; per-group accuracy, clusters, "
                     "subgroup F1 (libtorch)"},
  };
  return commands;
}

const std::vector<TrainingExperimentKind>& training_experiment_kinds() {
  static const std::vector<TrainingExperimentKind> kinds = {
      {"transfer", "coarse-to-fine transfer of trained encoders over methods, hierarchies, encoders, seeds (and alpha, "
                   "tau, augmentation): Table 3, Table 10, the temperature study"},
      {"trained_spread", "the trained spread against alpha beside the simulated optimum, and cosine heatmaps of trained "
                         "embeddings sorted by class and subclass (Figure 2 from training)"},
      {"strata", "seed 000 §4.2-4.3: sigma_f(z) and subclass-mean distances against p(z|y), and the subsampling "
                 "experiment delta(f_t, z, z') against the fraction t"},
      {"lipschitz", "Table 1's Lipschitz estimates (K_L, K_aug, K_g, Jacobian and layer-product bounds) for the models "
                    "of a transfer experiment"},
      {"robustness", "seed 004's Table 4: worst-group and average accuracy and subgroup F1 of every method of geomsim "
                     "robustness on its data sets, over seeds"},
      {"coreset", "seed 000 §5.4: end-model accuracy on coresets of several sizes chosen by seed 000's L_spread difficulty "
                  "buckets, Forgetting, EL2N, GraNd and at random"},
  };
  return kinds;
}

bool is_training_experiment_kind(const std::string& kind) {
  for (const auto& k : training_experiment_kinds()) {
    if (kind == k.name) return true;
  }
  return false;
}

std::string training_program_path() { return own_folder() + "/" + kTrainingProgram; }

bool has_training_program() { return access(training_program_path().c_str(), X_OK) == 0; }

int run_training_program_and_wait(const std::vector<std::string>& arguments, const std::string& what) {
  const std::string program = training_program_path();
  std::vector<std::string> words = {"geomsim"};
  words.insert(words.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (auto& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  pid_t child = 0;
  // On an interrupt, geomsim's handler stops the child (its own handler removes its temporaries)
  // before this process ends.
  RegisteredChild registered;
  const int error = spawn_registered_child(registered, child, program.c_str(), /*search_path=*/false, nullptr, argv.data());
  if (error != 0) {
    std::cerr << "geomsim: error: could not start " << program << " for " << what << ": " << std::strerror(error) << "\n";
    return 1;
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) {
      std::cerr << "geomsim: error: lost " << program << " running " << what << ": " << std::strerror(errno) << "\n";
      return 1;
    }
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  std::cerr << "geomsim: error: " << what << ": " << kTrainingProgram << " was killed by signal " << WTERMSIG(status) << "\n";
  return 1;
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
  const std::string program = training_program_path();
  if (!has_training_program()) {
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

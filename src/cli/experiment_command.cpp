#include "experiment_command.hpp"

#include "cli_support.hpp"
#include "local_ranks.hpp"

namespace geomsim::cli {

void add_experiment_options(CLI::App& c, ExperimentCommandOptions& o) {
  c.footer("Runs one training experiment of sims/ (geomsim report runs every definition, handing the training kinds\n"
           "to this command). Every finished run is appended to OUT/NAME.csv, which is rewritten atomically after each\n"
           "run: a rerun trains only the runs missing there, and refuses a cached run whose parameters differ from\n"
           "the definition's. A run cached by another page in OUT (the same parameters, the same measures) is taken\n"
           "from there, not trained again; a row of an older results version is trained again. At the end OUT/NAME.md\n"
           "(mean +- sd over seeds, the paper's numbers, a verdict per claim) and the figures are written.");
  c.add_option("--definition", o.definition, "the definition, sims/NAME.json")->required();
  c.add_option("--out", o.out, "folder for NAME.csv, NAME.md and the figures (created if missing)")->capture_default_str()->check(no_control_characters());
  c.add_flag("--smoke", o.smoke, "apply the definition's \"smoke\" overrides (a tiny grid, for CI)");
  add_device_options(c, o.device, o.device_given, o.sync_every);
  add_data_parallel_options(c, o.nproc_per_node, o.distributed_timeout);
  c.add_option("--shard", o.shard,
               "train only shard i of n of the runs (those whose index in the plan is i mod n) into the shared cache, and "
               "write no page; slurm: this job array task's shard (SLURM_ARRAY_TASK_ID, ..._COUNT)")
      ->capture_default_str();
}

int run_experiment_command(const ExperimentCommandOptions& options) {
  if (const auto status = run_as_local_ranks(options.nproc_per_node, options.distributed_timeout)) return *status;
  train_experiments::run_experiment(options);
  return 0;
}

}  // namespace geomsim::cli

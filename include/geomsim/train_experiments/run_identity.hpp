#pragma once
// What a training run's row says beyond its parameters: which version of the code's results it
// holds, a digest that names the run across pages, and the environment it ran in.
//
// A run's numbers depend on its parameters and on the code that trains and measures it. The
// parameters are the row's cells; the code is kTrainingResultsVersion, which every planned run
// carries (kResultsVersionColumn), so that a page's cache never mixes rows of two versions: a
// row of another version is trained again (RunCache::find). Bump it in the commit that changes
// any training run's numbers (a loss's arithmetic, the data order, an evaluation), and rerun
// the pages (notebooks-export/README.md).
//
// The environment (threads, libtorch and its BLAS, the CPU levels of ATen's and geomsim's
// kernels, the device and ranks) is recorded in every row but is not part of the identity: at
// one version, on one device kind, a run gives the same bits for any number of threads (the
// training code reduces in a fixed order); libtorch builds and CPU levels may differ in the
// last bits (docs/reference/experiments.md), which the row lets a reader check.
#include <cstddef>
#include <map>
#include <optional>
#include <string>

#include "geomsim/experiments/run_cache.hpp"

namespace geomsim::train_experiments {

// The version of the training runs' results (see above).
inline constexpr int kTrainingResultsVersion = 2;

// The column of the digest that names a run across pages.
inline constexpr const char* kRunIdColumn = "run_id";

// Sets a planned run's kResultsVersionColumn to kTrainingResultsVersion: every kind's planned
// rows carry it (training_parameters, the robustness kind's plan).
void set_results_version(RunRow& planned);

// Sets the planned run's run id (kRunIdColumn): the FNV-1a digest of every other parameter
// (column and value, in the columns' name order; a "none" value, a swept parameter the method
// does not read, counts as absent) and of `measures`, the name of what the page
// measures beyond what every run of its kind records ("" for nothing). Two pages that plan the
// same run and measure the same things name it alike, whatever their columns' order or keys.
void stamp_run_id(RunRow& planned, const std::string& measures);

// Adds the environment cells: threads (libtorch's intra-op threads), libtorch (its version),
// blas (the BLAS libtorch calls, with OPENBLAS_CORETYPE when set), aten_cpu (the vector level of
// ATen's CPU kernels) and cpu_level (geomsim's dispatched kernels).
void add_run_environment(RunRow& row);

// The finished runs of the other pages in a folder of run caches (every NAME.csv holding a
// run id column, except `own_path`), read once at the first find. A table that cannot be read is
// skipped: another page's cache only saves a computation, never decides one.
class OtherPagesRuns {
 public:
  OtherPagesRuns(std::string folder, std::string own_path);
  // The finished row of another page with the planned run's id, results version and
  // parameters, its parameter cells spelled as `planned` spells them; or nullopt.
  std::optional<RunRow> find(const RunRow& planned);
  // The pages' files it has read (after a find).
  std::size_t tables_read() const { return tables_read_; }

 private:
  void read();
  std::string folder_, own_path_;
  bool read_ = false;
  std::size_t tables_read_ = 0;
  std::map<std::string, RunRow> by_id_;
};

}  // namespace geomsim::train_experiments

#include "geomsim/train_experiments/run_identity.hpp"

#include <link.h>

#include <ATen/Version.h>
#include <torch/torch.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

#include "geomsim/support/cpu_level.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/fnv1a_hash.hpp"

namespace geomsim::train_experiments {
namespace {

// The value after `key` in libtorch's build description (at::show_config), up to a comma or the
// line's end; "unknown" when it does not say.
std::string config_value(const std::string& config, const std::string& key) {
  const std::size_t at = config.find(key);
  if (at == std::string::npos) return "unknown";
  const std::size_t from = at + key.size();
  const std::size_t to = config.find_first_of(",\n", from);
  std::string value = config.substr(from, to == std::string::npos ? std::string::npos : to - from);
  value.erase(0, value.find_first_not_of(' '));
  return value.empty() ? "unknown" : value;
}

// The first loaded shared object whose file name holds "blas" (Debian's libblas.so.3, libopenblas;
// the wheel's MKL is linked into libtorch_cpu), its links followed: "DIR/FILE", which says which
// implementation Debian's alternatives chose (openblas-openmp/libblas.so.3).
std::string loaded_blas() {
  std::string found;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) {
        std::filesystem::path path(info->dlpi_name ? info->dlpi_name : "");
        if (path.filename().string().find("blas") == std::string::npos) return 0;
        std::error_code ec;  // through the alternatives' links, to the library itself
        if (auto target = std::filesystem::canonical(path, ec); !ec) path = target;
        *static_cast<std::string*>(out) = (path.parent_path().filename() / path.filename()).string();
        return 1;
      },
      &found);
  return found;
}

std::string environment_blas(const std::string& config) {
  std::string blas = config_value(config, "BLAS_INFO=");
  if (blas == "generic") {  // the system's libblas, whichever the alternatives chose
    const std::string library = loaded_blas();
    if (!library.empty()) blas += " " + library;
  }
  if (const char* core = std::getenv("OPENBLAS_CORETYPE"); core && *core) blas += " OPENBLAS_CORETYPE " + std::string(core);
  // A cell holds no comma, quote or line break: the environment's text is not trusted.
  std::replace_if(blas.begin(), blas.end(), [](char c) { return c == ',' || c == '"' || c == '\n' || c == '\r'; }, ' ');
  return blas;
}

}  // namespace

void set_results_version(RunRow& planned) { planned.set(kResultsVersionColumn, std::to_string(kTrainingResultsVersion)); }

void stamp_run_id(RunRow& planned, const std::string& measures) {
  std::vector<std::pair<std::string, std::string>> cells;
  for (const auto& cell : planned.cells()) {
    // "none": a swept parameter the method does not read (cond_clusters for CCL-K), which another
    // page holding the run leaves out.
    if (cell.first != kRunIdColumn && cell.second != "none") cells.push_back(cell);
  }
  std::sort(cells.begin(), cells.end());
  std::uint64_t h = kFnv1aOffsetBasis;
  for (const auto& [column, value] : cells) {
    // Lengths first: "a=b" "c" and "a" "=bc" hash apart.
    h = fnv1a_update(h, std::to_string(column.size()) + ":" + column + std::to_string(value.size()) + ":" + value + ";");
  }
  h = fnv1a_update(h, "measures:" + measures);
  planned.set(kRunIdColumn, fnv1a_hex(h));
}

void add_run_environment(RunRow& row) {
  const std::string config = at::show_config();
  row.set("threads", static_cast<double>(torch::get_num_threads()));
  row.set("libtorch", config_value(config, "TORCH_VERSION="));
  row.set("blas", environment_blas(config));
  row.set("aten_cpu", config_value(config, "CPU capability usage:"));
  row.set("cpu_level", cpu_level_name(cpu_level()));
}

OtherPagesRuns::OtherPagesRuns(std::string folder, std::string own_path) : folder_(std::move(folder)), own_path_(std::move(own_path)) {}

void OtherPagesRuns::read() {
  read_ = true;
  std::error_code ec;
  std::vector<std::filesystem::path> tables;
  for (std::filesystem::directory_iterator it(folder_, ec), end; !ec && it != end; it.increment(ec)) {
    const auto& path = it->path();
    std::error_code own;
    if (path.extension() != ".csv" || !it->is_regular_file(ec) || std::filesystem::equivalent(path, own_path_, own)) continue;
    tables.push_back(path);
  }
  std::sort(tables.begin(), tables.end());  // the first page in name order gives a run: the same on every machine
  for (const auto& path : tables) {
    std::ifstream in(path);
    std::string header;
    if (!std::getline(in, header) || header.find(kRunIdColumn) == std::string::npos) continue;  // not a run cache of this kind
    try {
      for (auto& row : read_run_table(path.string(), "out")) {
        const auto id = row.text(kRunIdColumn);
        if (id) by_id_.emplace(*id, std::move(row));
      }
      ++tables_read_;
    } catch (const InvalidArgument&) {
      // Not a run table: another page's cache only saves a computation.
    }
  }
}

std::optional<RunRow> OtherPagesRuns::find(const RunRow& planned) {
  if (!read_) read();
  const auto id = planned.text(kRunIdColumn);
  if (!id) return std::nullopt;
  const auto hit = by_id_.find(*id);
  if (hit == by_id_.end() || hit->second.text(kResultsVersionColumn) != planned.text(kResultsVersionColumn)) return std::nullopt;
  // The digest is 64 bits: the parameters themselves decide ("none" as absent, as in the id).
  const auto cell = [](const std::optional<std::string>& text) { return text && *text != "none" ? *text : std::string(); };
  for (const auto& [column, value] : planned.cells()) {
    if (cell(hit->second.text(column)) != cell(value)) return std::nullopt;
  }
  // The other page's results under this page's parameters (the same values, spelled as here).
  RunRow row = hit->second;
  for (const auto& [column, value] : planned.cells()) row.set(column, value);
  return row;
}

}  // namespace geomsim::train_experiments

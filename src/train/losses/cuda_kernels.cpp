// cuda_kernels.hpp where the build has the CUDA kernels (CMakeLists.txt: a CUDA libtorch and
// nvcc), on the current stream. The streaming engine's rows are put in class order on the device
// (a stable sort by label and two binary searches, no host copy) and its results put back in z's
// row order.
#include "cuda_kernels.hpp"

#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include <algorithm>

#include "contrastive_cuda_kernel.hpp"
#include "spread_objective_cuda_kernel.hpp"
#include "geomsim/objectives/contrastive_statistics.hpp"

namespace geomsim::train::detail {
namespace {

struct DeviceClassOrder {
  torch::Tensor order;           // sorted position -> row
  torch::Tensor first, last;     // each sorted row's class run [first, last)
  torch::Tensor partner;         // each sorted row's partner's sorted position, or undefined
};

DeviceClassOrder device_class_order(const torch::Tensor& labels, const torch::Tensor& partner) {
  const auto sorted = labels.to(torch::kLong).sort(/*stable=*/true, /*dim=*/0, /*descending=*/false);
  const torch::Tensor& values = std::get<0>(sorted);
  DeviceClassOrder c;
  c.order = std::get<1>(sorted);
  c.first = torch::searchsorted(values, values, /*out_int32=*/false, /*right=*/false).contiguous();
  c.last = torch::searchsorted(values, values, /*out_int32=*/false, /*right=*/true).contiguous();
  if (partner.defined()) {
    auto position = torch::empty_like(c.order);
    position.index_copy_(0, c.order, torch::arange(c.order.size(0), c.order.options()));
    c.partner = position.index_select(0, partner.to(torch::kLong).index_select(0, c.order)).contiguous();
  }
  return c;
}

cuda_kernel::Rows kernel_rows(const torch::Tensor& sorted, const DeviceClassOrder& c, double tau) {
  cuda_kernel::Rows rows;
  rows.n = sorted.size(0);
  rows.dim = sorted.size(1);
  rows.inv_tau = 1.0 / tau;
  rows.first = c.first.data_ptr<int64_t>();
  rows.last = c.last.data_ptr<int64_t>();
  rows.partner = c.partner.defined() ? c.partner.data_ptr<int64_t>() : nullptr;
  return rows;
}

void* current_stream(const torch::Tensor& z) { return c10::cuda::getCurrentCUDAStream(z.device().index()).stream(); }

}  // namespace

bool cuda_kernels_built() { return true; }

torch::Tensor cuda_kernel_statistics(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                                     bool sup_terms, double tau) {
  const c10::cuda::CUDAGuard guard(z.device());
  const DeviceClassOrder c = device_class_order(labels, partner);
  const auto sorted = z.index_select(0, c.order).contiguous();
  auto statistics = torch::empty({z.size(0), kRowStatistics}, z.options().dtype(torch::kDouble));
  const cuda_kernel::Rows rows = kernel_rows(sorted, c, tau);
  if (z.scalar_type() == torch::kDouble) {
    cuda_kernel::statistics(sorted.data_ptr<double>(), rows, sup_terms, statistics.data_ptr<double>(), current_stream(z));
  } else {
    cuda_kernel::statistics(sorted.data_ptr<float>(), rows, sup_terms, statistics.data_ptr<double>(), current_stream(z));
  }
  return torch::empty_like(statistics).index_copy_(0, c.order, statistics);
}

torch::Tensor cuda_kernel_gradient(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                                   const torch::Tensor& statistics, const torch::Tensor& weights, double tau) {
  const c10::cuda::CUDAGuard guard(z.device());
  const DeviceClassOrder c = device_class_order(labels, partner);
  const auto sorted = z.index_select(0, c.order).contiguous();
  const auto sorted_statistics = statistics.index_select(0, c.order).contiguous();
  const auto sorted_weights = weights.index_select(0, c.order).contiguous();
  auto gradient = torch::empty_like(sorted);
  const cuda_kernel::Rows rows = kernel_rows(sorted, c, tau);
  if (z.scalar_type() == torch::kDouble) {
    cuda_kernel::gradient(sorted.data_ptr<double>(), rows, sorted_statistics.data_ptr<double>(),
                          sorted_weights.data_ptr<double>(), gradient.data_ptr<double>(), current_stream(z));
  } else {
    cuda_kernel::gradient(sorted.data_ptr<float>(), rows, sorted_statistics.data_ptr<double>(),
                          sorted_weights.data_ptr<double>(), gradient.data_ptr<float>(), current_stream(z));
  }
  return torch::empty_like(gradient).index_copy_(0, c.order, gradient);
}

namespace {

cuda_kernel::SpreadTile spread_tile(torch::Tensor& Z, const torch::Tensor& row_class, const torch::Tensor& column_class) {
  cuda_kernel::SpreadTile t;
  t.z = Z.data_ptr<double>();
  t.rows = Z.size(0);
  t.columns = Z.size(1);
  t.stride = Z.stride(0);
  t.row_class = row_class.data_ptr<int64_t>();
  t.column_class = column_class.data_ptr<int64_t>();
  return t;
}

// The kernels' grids hold at most 65535 rows of a tile in their second dimension.
constexpr int64_t kRowsPerLaunch = 65535;

}  // namespace

SpreadTileSums spread_tile_sums(const torch::Tensor& Z, const torch::Tensor& row_class, const torch::Tensor& column_class) {
  const c10::cuda::CUDAGuard guard(Z.device());
  SpreadTileSums out;
  out.negative_max = torch::empty({Z.size(0)}, Z.options());
  out.negative_sum = torch::empty_like(out.negative_max);
  out.positive_sum = torch::empty_like(out.negative_max);
  torch::Tensor z = Z;
  const cuda_kernel::SpreadTile t = spread_tile(z, row_class, column_class);
  cuda_kernel::spread_tile_sums(t, out.negative_max.data_ptr<double>(), out.negative_sum.data_ptr<double>(),
                                out.positive_sum.data_ptr<double>(), current_stream(Z));
  return out;
}

void spread_tile_coefficients(torch::Tensor& Z, const torch::Tensor& row_class, const torch::Tensor& column_class,
                              const torch::Tensor& row_a, const torch::Tensor& row_b, const torch::Tensor& row_m,
                              const torch::Tensor& column_a, const torch::Tensor& column_b, const torch::Tensor& column_m) {
  const c10::cuda::CUDAGuard guard(Z.device());
  const cuda_kernel::SpreadCoefficients columns{column_a.data_ptr<double>(), column_b.data_ptr<double>(),
                                                column_m.data_ptr<double>()};
  for (int64_t r0 = 0; r0 < Z.size(0); r0 += kRowsPerLaunch) {
    const int64_t rows = std::min(kRowsPerLaunch, Z.size(0) - r0);
    torch::Tensor part = Z.narrow(0, r0, rows);
    const cuda_kernel::SpreadCoefficients row_part{row_a.data_ptr<double>() + r0, row_b.data_ptr<double>() + r0,
                                                   row_m.data_ptr<double>() + r0};
    cuda_kernel::spread_tile_coefficients(spread_tile(part, row_class.narrow(0, r0, rows), column_class), row_part,
                                          columns, current_stream(Z));
  }
}

}  // namespace geomsim::train::detail

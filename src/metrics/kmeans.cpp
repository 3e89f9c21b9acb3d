#include "geomsim/metrics/kmeans.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <string>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"

namespace geomsim {

std::vector<int> kmeans(const Matrix& points, int k, std::uint64_t seed, int max_iterations) {
  const Index n = points.cols();
  if (k < 1 || k > n) throw InvalidArgument("k", "must be in [1, " + std::to_string(n) + "], got " + std::to_string(k));
  Rng rng(seed);
  // k-means++: each next centre with probability proportional to the squared distance.
  Matrix centres(points.rows(), k);
  centres.col(0) = points.col(static_cast<Index>(rng.uniform() * static_cast<double>(n)));
  Vector nearest = (points.colwise() - centres.col(0)).colwise().squaredNorm().transpose();
  for (int c = 1; c < k; ++c) {
    const double total = nearest.sum();
    Index pick = 0;
    if (total > 0) {
      double u = rng.uniform() * total;
      while (pick + 1 < n && u >= nearest[pick]) u -= nearest[pick++];
    }
    centres.col(c) = points.col(pick);
    nearest = nearest.cwiseMin((points.colwise() - centres.col(c)).colwise().squaredNorm().transpose());
  }
  std::vector<int> assignment(static_cast<std::size_t>(n), -1);
  for (int iteration = 0; iteration < max_iterations; ++iteration) {
    bool changed = false;
    for (Index i = 0; i < n; ++i) {
      int best = 0;
      double best_d = std::numeric_limits<double>::infinity();
      for (int c = 0; c < k; ++c) {
        const double d = (points.col(i) - centres.col(c)).squaredNorm();
        if (d < best_d) {
          best_d = d;
          best = c;
        }
      }
      changed = changed || assignment[static_cast<std::size_t>(i)] != best;
      assignment[static_cast<std::size_t>(i)] = best;
    }
    if (!changed) break;
    Matrix sums = Matrix::Zero(points.rows(), k);
    std::vector<Index> counts(static_cast<std::size_t>(k), 0);
    for (Index i = 0; i < n; ++i) {
      sums.col(assignment[static_cast<std::size_t>(i)]) += points.col(i);
      ++counts[static_cast<std::size_t>(assignment[static_cast<std::size_t>(i)])];
    }
    for (int c = 0; c < k; ++c) {
      if (counts[static_cast<std::size_t>(c)] > 0) centres.col(c) = sums.col(c) / static_cast<double>(counts[static_cast<std::size_t>(c)]);
    }
  }
  return assignment;
}

double kmeans_inertia(const Matrix& points, const std::vector<int>& clusters) {
  if (clusters.size() != static_cast<std::size_t>(points.cols())) {
    throw InvalidArgument("clusters", "need one cluster id per point (" + std::to_string(points.cols()) + ")");
  }
  std::map<int, std::pair<Vector, Index>> sums;
  for (std::size_t i = 0; i < clusters.size(); ++i) {
    auto [it, fresh] = sums.try_emplace(clusters[i], Vector::Zero(points.rows()), 0);
    it->second.first += points.col(static_cast<Index>(i));
    ++it->second.second;
  }
  double inertia = 0.0;
  for (std::size_t i = 0; i < clusters.size(); ++i) {
    const auto& [sum, count] = sums.at(clusters[i]);
    inertia += (points.col(static_cast<Index>(i)) - sum / static_cast<double>(count)).squaredNorm();
  }
  return inertia;
}

std::vector<int> kmeans_best_of(const Matrix& points, int k, std::uint64_t seed, int restarts) {
  require_at_least("restarts", restarts, 1);
  std::vector<int> best;
  double best_inertia = std::numeric_limits<double>::infinity();
  for (int r = 0; r < restarts; ++r) {
    auto clusters = kmeans(points, k, seed + static_cast<std::uint64_t>(r));
    const double inertia = kmeans_inertia(points, clusters);
    if (inertia < best_inertia) {
      best_inertia = inertia;
      best = std::move(clusters);
    }
  }
  return best;
}

std::vector<int> compact_cluster_ids(const std::vector<int>& clusters) {
  std::map<int, int> renumber;
  for (int c : clusters) renumber.emplace(c, 0);
  int next = 0;
  for (auto& [old, fresh] : renumber) fresh = next++;
  std::vector<int> out;
  out.reserve(clusters.size());
  for (int c : clusters) out.push_back(renumber.at(c));
  return out;
}

}  // namespace geomsim

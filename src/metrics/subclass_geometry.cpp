#include "geomsim/metrics/subclass_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "geomsim/support/errors.hpp"

namespace geomsim {
namespace {

std::vector<std::vector<Index>> members_by_subclass(const std::vector<int>& subclass_labels, Index n) {
  if (static_cast<Index>(subclass_labels.size()) != n) {
    throw InvalidArgument("subclass_labels", "must have one entry per point (" + std::to_string(n) + ")");
  }
  const int Z = count_label_ids(subclass_labels, "subclass_labels");
  std::vector<std::vector<Index>> members(static_cast<std::size_t>(Z));
  for (Index i = 0; i < n; ++i) members[static_cast<std::size_t>(subclass_labels[static_cast<std::size_t>(i)])].push_back(i);
  return members;
}

Matrix gather(const Matrix& points, const std::vector<Index>& idx) {
  Matrix out(points.rows(), static_cast<Index>(idx.size()));
  for (std::size_t k = 0; k < idx.size(); ++k) out.col(static_cast<Index>(k)) = points.col(idx[k]);
  return out;
}

// E_{a in A, b in B} |a - b| over all |A| |B| pairs, by the Gram matrix:
// |a - b|^2 = |a|^2 + |b|^2 - 2 a.b, clamped at 0. With `same`, A is B and the diagonal is
// exactly 0 (the identity above would leave rounding there).
double mean_distance(const Matrix& A, const Matrix& B, bool same) {
  const Matrix G = A.transpose() * B;
  const Vector na = A.colwise().squaredNorm().transpose(), nb = B.colwise().squaredNorm().transpose();
  Eigen::ArrayXXd d2 = (((-2.0 * G).colwise() + na).rowwise() + nb.transpose()).array().max(0.0);
  if (same) d2.matrix().diagonal().setZero();
  return d2.sqrt().mean();
}

}  // namespace

SubclassGeometry measure_subclass_geometry(const Matrix& points, const std::vector<int>& labels,
                                           const std::vector<int>& subclass_labels) {
  SubclassGeometry g;
  g.spread = class_spread(points, labels);
  const auto members = members_by_subclass(subclass_labels, points.cols());
  std::vector<Index> class_count(g.spread.per_class.size(), 0);
  for (int y : labels) ++class_count[static_cast<std::size_t>(y)];

  std::vector<Matrix> blocks;
  for (std::size_t z = 0; z < members.size(); ++z) {
    const auto& idx = members[z];
    const int y = labels[static_cast<std::size_t>(idx.front())];
    for (Index i : idx) {
      if (labels[static_cast<std::size_t>(i)] != y) {
        throw InvalidArgument("subclass_labels", "subclass " + std::to_string(z) + " spans classes " +
                                                     std::to_string(y) + " and " +
                                                     std::to_string(labels[static_cast<std::size_t>(i)]));
      }
    }
    blocks.push_back(gather(points, idx));
    const Matrix& F = blocks.back();
    SubclassStats s;
    s.subclass = static_cast<int>(z);
    s.label = y;
    s.count = F.cols();
    s.p_given_class = static_cast<double>(F.cols()) / static_cast<double>(class_count[static_cast<std::size_t>(y)]);
    s.mean = F.rowwise().mean();
    const Eigen::ArrayXd dist = (F.colwise() - s.mean).colwise().norm().array();
    s.sigma = dist.mean();
    s.variance = dist.square().mean();
    s.mean_pairwise_distance = mean_distance(F, F, true);
    const double spread = g.spread.per_class[static_cast<std::size_t>(y)];
    s.sigma_over_spread = spread > 0.0 ? s.sigma / spread : std::numeric_limits<double>::infinity();
    g.subclasses.push_back(std::move(s));
  }

  for (const auto& a : g.subclasses) {
    for (const auto& b : g.subclasses) {
      if (a.subclass == b.subclass || a.label != b.label) continue;
      const Matrix& A = blocks[static_cast<std::size_t>(a.subclass)];
      const Matrix& B = blocks[static_cast<std::size_t>(b.subclass)];
      SubclassPair pair;
      pair.z = a.subclass;
      pair.z_prime = b.subclass;
      pair.separation = mean_distance(A, B, false);
      const double s_y = g.spread.per_class[static_cast<std::size_t>(a.label)];
      const double p = a.p_given_class, q = b.p_given_class;
      const double numerator = s_y - p * p * a.sigma - q * q * b.sigma;
      pair.delta = numerator / (2.0 * p * q);
      pair.delta_paper = numerator / (p * q);
      const double nearest = (A.colwise() - b.mean).colwise().norm().minCoeff();
      pair.c = pair.separation > 0.0 ? nearest / pair.separation : 0.0;
      pair.r = pair.c * pair.c * pair.delta * pair.delta - std::abs(a.variance - b.variance);
      g.pairs.push_back(pair);
    }
  }
  return g;
}

MeanClassifier::MeanClassifier(const Matrix& points, const std::vector<int>& subclass_labels) {
  const auto members = members_by_subclass(subclass_labels, points.cols());
  weights_.resize(points.rows(), static_cast<Index>(members.size()));
  for (std::size_t z = 0; z < members.size(); ++z) weights_.col(static_cast<Index>(z)) = gather(points, members[z]).rowwise().mean();
}

double MeanClassifier::margin_error(const Matrix& points, const std::vector<int>& subclass_labels, int z, int z_prime,
                                    double gamma) const {
  if (!(gamma > 1.0) || !std::isfinite(gamma)) throw InvalidArgument("gamma", "must be a finite number > 1, got " + format_number(gamma));
  if (points.rows() != weights_.rows()) throw InvalidArgument("points", "must have the classifier's dimension " + std::to_string(weights_.rows()));
  const Index Z = weights_.cols();
  if (z < 0 || z >= Z || z_prime < 0 || z_prime >= Z || z == z_prime) {
    throw InvalidArgument("z", "must name two different subclasses in 0.." + std::to_string(Z - 1));
  }
  if (static_cast<Index>(subclass_labels.size()) != points.cols()) throw InvalidArgument("subclass_labels", "must have one entry per point");
  const Vector w = weights_.col(z) - weights_.col(z_prime);
  const double threshold = std::log(gamma);
  Index total = 0, wrong = 0;
  for (Index i = 0; i < points.cols(); ++i) {
    if (subclass_labels[static_cast<std::size_t>(i)] != z) continue;
    ++total;
    if (w.dot(points.col(i)) < threshold) ++wrong;
  }
  if (total == 0) throw InvalidArgument("subclass_labels", "has no point of subclass " + std::to_string(z));
  return static_cast<double>(wrong) / static_cast<double>(total);
}

std::optional<double> theorem3_bound(double sigma_z, double r, double gamma) {
  if (!(gamma > 1.0)) throw InvalidArgument("gamma", "must be > 1, got " + format_number(gamma));
  const double margin = r - 2.0 * std::log(gamma);
  if (!(margin > 0.0)) return std::nullopt;
  return sigma_z / std::sqrt(margin);
}

double theorem3_boundary(int d, double delta, double m_z, double m_z_prime) {
  if (d < 1) throw InvalidArgument("d", "must be at least 1, got " + std::to_string(d));
  if (!(delta > 0.0 && delta < 1.0)) throw InvalidArgument("delta", "must be in (0, 1), got " + format_number(delta));
  if (!(m_z >= 1.0) || !(m_z_prime >= 1.0)) throw InvalidArgument("m", "must be at least 1 labelled point per subclass");
  const double l = 2.0 * d * std::log(8.0 * d / delta);
  return 16.0 * std::sqrt(l / std::min(m_z, m_z_prime)) + l / m_z;
}

double theorem1_lower_bound(double n_z, double n_z_prime, double m, int d, double gamma, double rademacher_z,
                            double rademacher_z_prime) {
  require_at_least("d", d, 1);
  if (!(gamma > 1.0)) throw InvalidArgument("gamma", "must be > 1, got " + format_number(gamma));
  const double lg = std::log(gamma);
  if (lg < 8.0 * std::max(rademacher_z, rademacher_z_prime)) {
    throw InvalidArgument("gamma", "must satisfy log gamma >= 8 max(R_nz, R_nz') (Theorem 1's condition)");
  }
  const double dd = d;
  const auto delta = [&](double n, double R) { return dd * std::exp(-n / (32.0 * dd * dd) * (lg - 8.0 * R) * (lg - 8.0 * R)); };
  const double xi = 4.0 * dd * std::exp(-m * lg * lg / (32.0 * dd));
  return 1.0 - delta(n_z, rademacher_z) - delta(n_z_prime, rademacher_z_prime) - xi;
}

}  // namespace geomsim

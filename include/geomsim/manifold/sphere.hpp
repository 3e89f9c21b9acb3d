#pragma once
// Labelled point sets on the unit sphere S^{d-1} in R^d.
//
// Convention: a point set of N points in R^d is an Eigen d x N matrix whose COLUMNS
// are the points. Eigen is column-major, so each point is contiguous in memory and the
// matrix maps onto a solver's flat vector x = [u_1; u_2; ...; u_N] without copying.
#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace geomsim {

class Rng;

using Matrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;
using Index = Eigen::Index;
// A read-only view of a d x N point set: binds a Matrix, a block of its columns, or a
// column-major Map of memory owned elsewhere (a numpy array) without copying.
using PointsRef = Eigen::Ref<const Matrix>;

struct PointSet {
  Matrix points;                     // d x N, columns are unit vectors
  std::vector<int> labels;           // class of each point, in 0..K-1
  std::vector<int> subclass_labels;  // empty, or one subclass id per point

  Index dim() const { return points.rows(); }
  Index size() const { return points.cols(); }
  int num_classes() const;  // 1 + the largest label (0 when empty)
};

// Labels 0..K-1, each repeated ny times, in class order: {0,..,0,1,..,1,...}.
std::vector<int> balanced_labels(int num_classes, int points_per_class);

// Throws InvalidArgument(argument) unless `ids` is non-empty and uses exactly 0..K-1,
// every id at least once. Returns K. Shared by class and subclass labels.
int count_label_ids(const std::vector<int>& ids, const char* argument);

// count_label_ids for class labels, plus K >= 2 (a contrastive loss needs negatives).
int validate_labels(const std::vector<int>& labels);

// N points drawn independently and uniformly on S^{d-1} (normalised Gaussians).
// The same (d, N, seed) always gives the same matrix.
Matrix random_uniform_sphere(int dim, Index count, std::uint64_t seed);

// A rows x cols matrix of independent standard normals drawn from rng, in storage order
// (column by column): random directions, perturbations, Krylov starts.
Matrix random_gaussian(Index rows, Index cols, Rng& rng);

// The vertices of the regular simplex: K unit vectors in R^d with pairwise inner
// product -1/(K-1), centred at the origin. Needs 2 <= K <= d + 1. Vertex k spans the
// first K-1 coordinates (Helmert basis), so the remaining d-K+1 are zero.
Matrix regular_simplex(int num_classes, int dim);

// The collapsed configuration delta_v: every point of class y sits on vertex y of the
// regular simplex. Needs K <= d + 1.
Matrix collapsed_simplex(const std::vector<int>& labels, int dim);

// Scales every column to unit length; throws InvalidArgument("points") on a zero or
// non-finite column.
void normalize_columns(Matrix& points);

// max_i | ||u_i|| - 1 |.
double max_norm_violation(const Matrix& points);

}  // namespace geomsim

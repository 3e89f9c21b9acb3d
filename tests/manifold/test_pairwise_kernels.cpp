#include <catch2/catch.hpp>

#include "geomsim/manifold/pairwise_kernels.hpp"
#include "helpers.hpp"

using namespace geomsim;

TEST_CASE("The tiled kernels equal plain products, for sizes on and off the tile grid", "[kernels]") {
  const Index N = GENERATE(Index{5}, kBlock, kBlock + 1, 3 * kBlock - 7);
  const Matrix U = random_uniform_sphere(7, N, 1);
  Matrix W;
  gram_matrix(U, W);
  // Same products summed in another blocking: agreement to rounding, |u_i . u_j| <= 1.
  CHECK((W - U.transpose() * U).cwiseAbs().maxCoeff() < 1e-14);
  CHECK(W == W.transpose());  // mirrored exactly

  Matrix C = Matrix::Random(N, N);
  const Matrix expected = C + C.transpose();
  symmetrize_add_transpose(C);
  CHECK(C == expected);

  Matrix out(7, N);
  tiled_product(U, C, out);
  CHECK((out - U * C).cwiseAbs().maxCoeff() < 1e-12 * static_cast<double>(N));
}

TEST_CASE("The tiled kernels give the same bits for 1 and 2 threads", "[kernels][determinism]") {
  const Matrix U = random_uniform_sphere(16, 700, 2);
  Matrix W1, W2, o1(16, 700), o2(16, 700);
  testing::with_threads(1, [&] {
    gram_matrix(U, W1);
    tiled_product(U, W1, o1);
  });
  testing::with_threads(2, [&] {
    gram_matrix(U, W2);
    tiled_product(U, W2, o2);
  });
  CHECK(W1 == W2);
  CHECK(o1 == o2);
}

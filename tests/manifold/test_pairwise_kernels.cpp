#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

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

TEST_CASE("The tile rounds visit every tile on and below the diagonal once, no block twice in a round",
          "[kernels]") {
  // Block counts 1..9 (odd counts have a bye each round, even ones a round of diagonal tiles),
  // the last block partial or full.
  const Index blocks = GENERATE(range(Index{1}, Index{10}));
  const Index n = GENERATE_COPY(blocks * kBlock, blocks * kBlock - 17);
  std::vector<std::vector<int>> visits(static_cast<std::size_t>(blocks), std::vector<int>(static_cast<std::size_t>(blocks), 0));
  std::vector<std::vector<Tile>> rounds;  // reconstructed from the calls: one thread, in order
  testing::with_threads(1, [&] {
    for_each_tile_in_rounds(n, [&](const Tile& t, int thread) {
      CHECK(thread == 0);
      REQUIRE(t.r0 >= t.c0);
      REQUIRE(t.r0 % kBlock == 0);
      REQUIRE(t.c0 % kBlock == 0);
      CHECK(t.rn == std::min(kBlock, n - t.r0));
      CHECK(t.cn == std::min(kBlock, n - t.c0));
      ++visits[static_cast<std::size_t>(t.r0 / kBlock)][static_cast<std::size_t>(t.c0 / kBlock)];
      // A new round starts when this tile shares a block with one of the current round.
      const auto shares = [&](const Tile& u) {
        return u.r0 == t.r0 || u.r0 == t.c0 || u.c0 == t.r0 || u.c0 == t.c0;
      };
      if (rounds.empty() || std::any_of(rounds.back().begin(), rounds.back().end(), shares)) rounds.emplace_back();
      rounds.back().push_back(t);
    });
    return 0;
  });
  for (Index I = 0; I < blocks; ++I) {
    for (Index J = 0; J <= I; ++J) CHECK(visits[static_cast<std::size_t>(I)][static_cast<std::size_t>(J)] == 1);
  }
  // A round-robin tournament touches every block once per round: blocks - 1 rounds and one of
  // diagonal tiles when the count is even, `blocks` rounds with a bye (a diagonal tile) each
  // when it is odd. A round in which two tiles shared a block would be split in two by the
  // reconstruction above, and the count would exceed `blocks`.
  CHECK(static_cast<Index>(rounds.size()) == blocks);
}

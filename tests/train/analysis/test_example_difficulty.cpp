// The difficulty scores of seed 000's coreset baselines (train/analysis/example_difficulty.hpp):
// forgetting events and EL2N on hand-computed cases, GraNd against the norm of a gradient taken
// by central finite differences over every weight, in double precision.
#include "train/catch_with_torch.hpp"

#include <cmath>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/analysis/example_difficulty.hpp"
#include "geomsim/train/training/evaluation.hpp"
#include "train/tiny_models.hpp"

using namespace geomsim;
using namespace geomsim::train;

TEST_CASE("Forgetting events count correct-to-incorrect steps, and never-learned examples rank above all", "[difficulty]") {
  // Columns are examples: 1,0,1 forgets once; 0,0,0 is never learned; 1,1,1 never forgets;
  // 0,1,0 forgets once; 1,0,0 once.
  const auto correct = torch::tensor({1, 0, 1, 0, 1, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0}, torch::kLong).view({3, 5}).to(torch::kBool);
  const auto events = forgetting_events(correct);
  CHECK(events.scalar_type() == torch::kDouble);
  CHECK(torch::equal(events, torch::tensor({1.0, 3.0, 0.0, 1.0, 1.0}, torch::kDouble)));
  // One record: no event can happen; the never-correct still rank above.
  CHECK(torch::equal(forgetting_events(torch::tensor({1, 0}, torch::kLong).view({1, 2}).to(torch::kBool)),
                     torch::tensor({0.0, 1.0}, torch::kDouble)));
  // Alternating over 6 records: 3 events, still below a never-learned example's 6.
  const auto flips = torch::tensor({1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0}, torch::kLong).view({2, 6}).t().contiguous().to(torch::kBool);
  CHECK(torch::equal(forgetting_events(flips), torch::tensor({3.0, 6.0}, torch::kDouble)));
  CHECK_THROWS_AS(forgetting_events(torch::zeros({3, 2})), InvalidArgument);
  CHECK_THROWS_AS(forgetting_events(torch::zeros({0, 2}, torch::kBool)), InvalidArgument);
}

TEST_CASE("EL2N is the norm of softmax minus the one-hot label", "[difficulty]") {
  // softmax(0, ln 3) = (1/4, 3/4); label 1: error (1/4, -1/4), norm sqrt(2)/4.
  // Three equal logits, label 0: error (-2/3, 1/3, 1/3), norm sqrt(6)/3.
  const auto two = el2n_scores(torch::tensor({0.0, std::log(3.0)}, torch::kDouble).view({1, 2}), torch::tensor({int64_t{1}}));
  CHECK(two[0].item<double>() == Approx(std::sqrt(2.0) / 4).epsilon(1e-14));
  const auto three = el2n_scores(torch::zeros({1, 3}), torch::tensor({int64_t{0}}));
  CHECK(three[0].item<double>() == Approx(std::sqrt(6.0) / 3).epsilon(1e-7));
  CHECK_THROWS_AS(el2n_scores(torch::zeros({2, 3}), torch::tensor({int64_t{0}, int64_t{3}})), InvalidArgument);
  CHECK_THROWS_AS(el2n_scores(torch::zeros({2, 3}), torch::tensor({int64_t{0}})), InvalidArgument);
  CHECK_THROWS_AS(el2n_scores(torch::full({1, 2}, std::nan("")), torch::tensor({int64_t{0}})), InvalidArgument);
}

TEST_CASE("GraNd is the norm of the per-example gradient over every weight (finite differences)", "[difficulty]") {
  torch::manual_seed(3);
  EncoderOptions options = testing::tiny_encoder("mlp", 3, 5);
  options.image_size = 4;
  Encoder encoder(options);
  torch::nn::Linear head(3, 4);
  encoder->to(torch::kDouble);
  head->to(torch::kDouble);
  const auto images = torch::rand({3, 1, 4, 4}, torch::kDouble);
  const auto labels = torch::tensor({int64_t{0}, int64_t{3}, int64_t{1}});
  std::vector<torch::Tensor> before;
  for (const auto& p : encoder->parameters()) before.push_back(p.detach().clone());
  const auto scores = gradient_norm_scores(encoder, head, images, labels);
  REQUIRE(scores.size(0) == 3);
  // The weights and their .grad are as they were.
  std::size_t k = 0;
  for (const auto& p : encoder->parameters()) {
    CHECK(torch::equal(p.detach(), before[k++]));
    CHECK(!p.grad().defined());
  }
  // Central differences over every weight of the encoder and the head, image by image.
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> weights;
  for (const auto& p : encoder->parameters()) weights.push_back(p);
  for (const auto& p : head->parameters()) weights.push_back(p);
  const double h = 1e-6;
  for (int64_t i = 0; i < 3; ++i) {
    const auto loss = [&] {
      return torch::nn::functional::cross_entropy(head->forward(encoder->features(images.narrow(0, i, 1))), labels.narrow(0, i, 1))
          .item<double>();
    };
    double squares = 0.0;
    for (auto& w : weights) {
      auto flat = w.view({-1});
      for (int64_t j = 0; j < flat.size(0); ++j) {
        const double saved = flat[j].item<double>();
        flat[j] = saved + h;
        const double up = loss();
        flat[j] = saved - h;
        const double down = loss();
        flat[j] = saved;
        squares += std::pow((up - down) / (2 * h), 2);
      }
    }
    CHECK(scores[i].item<double>() == Approx(std::sqrt(squares)).epsilon(1e-7));
  }
  CHECK_THROWS_AS(gradient_norm_scores(encoder, head, images, torch::tensor({int64_t{0}, int64_t{4}, int64_t{1}})), InvalidArgument);
  CHECK_THROWS_AS(gradient_norm_scores(encoder, head, images.view({3, 16}), labels), InvalidArgument);
}

TEST_CASE("The classifier's logits are the head on the encoder's features, in batches", "[difficulty]") {
  torch::manual_seed(5);
  EncoderOptions options = testing::tiny_encoder("mlp", 3, 6);
  options.image_size = 4;
  Encoder encoder(options);
  torch::nn::Linear head(3, 2);
  const auto images = torch::rand({7, 1, 4, 4});
  const auto logits = classifier_logits(encoder, head, images, 3);
  torch::NoGradGuard no_grad;
  CHECK(torch::allclose(logits, head->forward(encoder->features(images)), 1e-6, 1e-6));
  CHECK(classifier_logits(encoder, head, images.narrow(0, 0, 0)).size(0) == 0);
}

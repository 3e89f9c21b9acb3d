#pragma once
// The right-hand sides of seed 004's Lemmas 1-3 (Section 4.3): three inductive biases that
// bound how tightly an encoder clusters a subclass z, sigma_f(z), in terms of the input
// spread of z. Each function evaluates the bound from its inputs; the constants K_L, K_g and
// K_aug are estimated from data by the Lipschitz tools; sigma_z = E_{x,x' ~ P_z} |x - x'| is
// SubclassStats::mean_pairwise_distance of measure_subclass_geometry run on the inputs; and the Rademacher terms are the user's (they depend on the function class).
//
//   Lemma 1 (K_L-Lipschitz encoder):   sigma_f(z) <= K_L sigma_z
//   Lemma 2 (class-conditional autoencoder with K_g reverse-Lipschitz decoder), w.p. >= 1 - delta:
//     sigma_fAE(z) <= 2 K_g / p(z|y) * (L_AE(D_y) + 2 R^2_{n_y} + b sqrt(log(1/delta)/(2 n_y)))^{1/2} + K_g sigma_z
//     For one general autoencoder trained on all of D (the paper's Appendix C.2 remark),
//     pass p(z) for p(z|y) and n for n_y.
//   Lemma 3 (augmentation-invariant encoder, K_aug-Lipschitz on augmented inputs), w.p. >= 1 - delta:
//     sigma_faug(z) <= 2/p(z) * (2 R^1_n + sqrt(2 log(1/delta)/n)) + K_aug sigma^aug_z
namespace geomsim {

// Lemma 1: K_L sigma_z. Requires K_L >= 0 and sigma_z >= 0.
double lemma1_bound(double lipschitz, double sigma_z);

struct Lemma2Inputs {
  double reverse_lipschitz = 0.0;    // K_g > 0
  double p_z_given_y = 0.0;          // p(z|y) in (0, 1]  (p(z) for a general autoencoder)
  double reconstruction_loss = 0.0;  // the empirical L_AE(D_y) >= 0
  double rademacher = 0.0;           // R^2_{n_y}(G o F_AE, id_X) >= 0
  double loss_bound = 0.0;           // b >= max_x |g(f_AE(x)) - x|^2
  double delta = 0.05;               // failure probability in (0, 1)
  double n = 1.0;                    // n_y (n for a general autoencoder), >= 1
  double sigma_z = 0.0;              // E_{x,x' ~ P_z} |x - x'| >= 0
};
double lemma2_bound(const Lemma2Inputs& inputs);

struct Lemma3Inputs {
  double augmentation_lipschitz = 0.0;  // K_aug >= 0
  double p_z = 0.0;                     // p(z) in (0, 1]
  double rademacher = 0.0;              // R^1_n(F_aug, F_aug o A) >= 0
  double delta = 0.05;                  // failure probability in (0, 1)
  double n = 1.0;                       // |D| >= 1
  double sigma_aug_z = 0.0;             // E_{x,x' ~ P_z} |a(x) - a(x')| >= 0
};
double lemma3_bound(const Lemma3Inputs& inputs);

}  // namespace geomsim

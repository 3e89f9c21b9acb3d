#pragma once
// Seed 000, Lemma A1 (Appendix C.3): what class collapse costs downstream.
//
// Let f_c map every input of class y to the simplex vertex v_y (v_y . v_y' = c_K = -1/(K-1)),
// and let the linear classifier over the C fine labels (strata; m per class, C = mK) be
// W_z = v_{S(z)} (Lemma A2). For an input of stratum z the cross-entropy is
//   log(m e + (C - m) e^{c_K}) - v_h . v_{S(z)},   h the class the encoder saw,
// so with q = E[p(y = S(z) | x)] the expected loss is
//   L(x, z, f_c) = log(m e + (C - m) e^{c_K}) - c_K - (1 - c_K) q,
// between log(m e + (C-m) e^{c_K}) - 1 (q = 1) and log(m e + (C-m) e^{c_K}) - c_K (q = 0).
// The original task is the case m = 1, C = K.
//
// Errata in the printed proof: it writes "log sum_i exp(v_y^T W_i) = m exp(1) + ..." (the
// sum, not its log, equals that), and a stray "delta" stands for c_K in the next line.
namespace geomsim {

struct CollapsedTransferLoss {
  double value = 0.0;   // at the given q
  double lower = 0.0;   // q = 1: every input's class is known exactly
  double upper = 0.0;   // q = 0
};

// Coarse-to-fine transfer with K classes of m strata each (C = mK). K >= 2, m >= 1, and
// q = E[p(y = S(z) | x)] in [0, 1].
CollapsedTransferLoss collapsed_transfer_loss(int K, int m, double q);

// The original (coarse) task: collapsed_transfer_loss with m = 1.
CollapsedTransferLoss collapsed_original_task_loss(int K, double q);

}  // namespace geomsim

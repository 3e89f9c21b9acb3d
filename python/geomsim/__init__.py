"""geomsim: the geometry of supervised contrastive learning (the C++ library's Python face).

solve() finds the optimal points of L_spread (seed 004, eq. 39-40); log_wiener_constant, c_threshold,
exact_crossover, theta_star and symmetric_split are the theory's closed forms; measure() gives the
Section 4 geometry of embeddings, and alignment, uniformity, neural_collapse and
nearest_class_mean_agreement the measures of Wang & Isola and Papyan et al.
Point sets are N x d numpy arrays (rows are points).

geomsim.torch (imported on its own: ``import geomsim.torch``) holds the training losses as
torch.nn.Modules for a PyTorch training loop.
"""
from geomsim._core import *  # noqa: F401,F403  (the bindings: solve, measure, the theory)
from geomsim._core import __version__, InvalidArgument  # noqa: F401

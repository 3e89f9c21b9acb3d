"""Writes the TorchScript models the Lipschitz tests load, and their known constants.

Usage: make_torchscript_fixtures.py OUTDIR

Each model is saved with torch.jit.save (as a PyTorch user would) in float32; expected.json
holds the constants computed here independently of geomsim: spectral norms by numpy's SVD of
dense matrices (a convolution's matrix is built column by column from the basis images).
  linear.pt     Linear(6, 4): a linear map, Lipschitz constant = its spectral norm
  relu_mlp.pt   Linear(4, 4) - ReLU - Linear(4, 3) with diag(3, 1, 0.5, 0.2) then rows (2, 1, 1)
                on three coordinates: on the positive orthant the Jacobian is W2 W1, whose norm
                6 equals the product 3 * 2 of the layer norms, so the upper bound is tight
  cnn.pt        Conv2d(1, 2, 3, padding 1) - ReLU - MaxPool2d(2) - Flatten - Linear(392, 5) on 1 x 28 x 28
  flat_mlp.pt   Flatten is not in it: Linear(784, 8) - Tanh - Linear(8, 4); it takes N x 784 rows
  custom.pt     a scripted module with its own forward (two layers and a skip): not a chain
  bad_output.pt returns a 1-D tensor
  constant.pt   a fully collapsed encoder: every image to the same unit vector (a parameter)
  nan.pt        returns nan for every image
  complex.pt, integer.pt, boolean.pt, zero_width.pt   outputs that are not N x d real embeddings
"""
import json
import os
import sys

import numpy as np
import torch


def spectral_norm(matrix):
    return float(np.linalg.svd(np.asarray(matrix, dtype=np.float64), compute_uv=False)[0])


def conv_matrix(conv, shape):
    """The dense matrix of a convolution's linear part on inputs of `shape` (C x H x W)."""
    conv = conv.double()
    n = int(np.prod(shape))
    basis = torch.eye(n, dtype=torch.float64).reshape(n, *shape)
    with torch.no_grad():
        columns = conv(basis) - conv(torch.zeros(1, *shape, dtype=torch.float64))
    return columns.reshape(n, -1).T.numpy()


class Custom(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(6, 6)
        self.b = torch.nn.Linear(6, 3)

    def forward(self, x):
        return self.b(torch.relu(self.a(x)) + x)


class BadOutput(torch.nn.Module):
    def forward(self, x):
        return x.flatten().sum(0, keepdim=True)


class Constant(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.point = torch.nn.Parameter(torch.tensor([[0.6, 0.8, 0.0, 0.0]]))

    def forward(self, x):
        return self.point.expand(x.shape[0], 4)


class NotANumber(torch.nn.Module):
    def forward(self, x):
        return x.flatten(1)[:, :4] * float("nan")


class ComplexOutput(torch.nn.Module):
    def forward(self, x):
        return torch.complex(x.flatten(1)[:, :4], x.flatten(1)[:, 4:8])


class IntegerOutput(torch.nn.Module):
    def forward(self, x):
        return (x.flatten(1)[:, :4] * 10).to(torch.int64)


class BooleanOutput(torch.nn.Module):
    def forward(self, x):
        return x.flatten(1)[:, :4] > 0.5


class ZeroWidth(torch.nn.Module):
    def forward(self, x):
        return x.flatten(1)[:, :0]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    expected = {}

    linear = torch.nn.Sequential(torch.nn.Linear(6, 4))
    torch.jit.save(torch.jit.script(linear), os.path.join(out, "linear.pt"))
    expected["linear"] = spectral_norm(linear[0].weight.detach().double().numpy())

    mlp = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU(), torch.nn.Linear(4, 3))
    with torch.no_grad():
        mlp[0].weight.copy_(torch.diag(torch.tensor([3.0, 1.0, 0.5, 0.2])))
        mlp[0].bias.zero_()
        mlp[2].weight.copy_(torch.tensor([[2.0, 0, 0, 0], [0, 1.0, 0, 0], [0, 0, 1.0, 0]]))
        mlp[2].bias.copy_(torch.tensor([0.1, -0.2, 0.3]))
    torch.jit.save(torch.jit.script(mlp), os.path.join(out, "relu_mlp.pt"))
    expected["relu_mlp"] = 6.0

    cnn = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                              torch.nn.Flatten(), torch.nn.Linear(2 * 14 * 14, 5))
    torch.jit.save(torch.jit.script(cnn), os.path.join(out, "cnn.pt"))
    conv_norm = spectral_norm(conv_matrix(cnn[0], (1, 28, 28)))
    linear_norm = spectral_norm(cnn[4].weight.detach().double().numpy())
    expected["cnn_conv"] = conv_norm
    expected["cnn_linear"] = linear_norm
    expected["cnn"] = conv_norm * linear_norm  # ReLU, MaxPool2d(2) (disjoint windows) and Flatten are 1-Lipschitz

    flat = torch.nn.Sequential(torch.nn.Linear(784, 8), torch.nn.Tanh(), torch.nn.Linear(8, 4))
    torch.jit.save(torch.jit.script(flat), os.path.join(out, "flat_mlp.pt"))
    expected["flat_mlp"] = spectral_norm(flat[0].weight.detach().double().numpy()) * \
        spectral_norm(flat[2].weight.detach().double().numpy())

    torch.jit.save(torch.jit.script(Custom()), os.path.join(out, "custom.pt"))
    torch.jit.save(torch.jit.script(BadOutput()), os.path.join(out, "bad_output.pt"))
    for name, module in (("constant", Constant()), ("nan", NotANumber()), ("complex", ComplexOutput()),
                         ("integer", IntegerOutput()), ("boolean", BooleanOutput()), ("zero_width", ZeroWidth())):
        torch.jit.save(torch.jit.script(module), os.path.join(out, name + ".pt"))

    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(expected, f, indent=2)


if __name__ == "__main__":
    main()

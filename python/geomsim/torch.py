"""geomsim's training losses as torch.nn.Modules, for your own PyTorch training loop.

Each loss is the C++ library's own (src/train/losses), registered as a torch operator: one
implementation for geomsim's trainer and for PyTorch, differentiated by autograd through the
ATen operators it is written in, on the device of its inputs (CPU or CUDA), in the dtype of its
inputs (float64 for gradcheck).

The calling convention is SupContrast's (github.com/HobbitLong/SupContrast): ``features`` of shape
``[bsz, 2, dim]``, the two augmented views of each sample, their rows L2-normalised (as a
projection head followed by ``torch.nn.functional.normalize`` gives them), and ``labels`` of shape
``[bsz]``. The losses are two-view losses: ``n_views`` must be 2.

    import geomsim.torch as gt
    criterion = gt.SpreadLoss(alpha=0.5, tau=0.5)        # seed 004's L_spread
    criterion = gt.SupConLoss(temperature=0.1)          # seed 001's L_out, SupContrast's SupConLoss
    criterion = gt.Loss("cclk-weak", tau=0.5, kernel_lambda=0.1)   # any loss by its registry name
    loss = criterion(features, labels)

``geomsim.torch.losses()`` lists every loss with the parameters it reads; the names and
parameters are those of ``geomsim train --loss`` (an option ``--kernel-lambda`` is the keyword
``kernel_lambda``), and invalid values raise geomsim.InvalidArgument (a ValueError) at construction.
"""
import json as _json
import os as _os
import numbers as _numbers

import torch as _torch

from geomsim import _core

__all__ = ["Loss", "SpreadLoss", "SupConLoss", "losses"]


def _load_operators():
    here = _os.path.dirname(_os.path.abspath(__file__))
    library = _os.path.join(here, "_torch_ops.so")
    if not _os.path.exists(library):
        raise ImportError(
            "geomsim.torch: this geomsim was built without its torch operators, since its build found no torch "
            "for this Python or a libtorch of another version. Install it where torch is installed, building "
            "against that torch: `pip install --no-build-isolation .` (docs/tutorials/python.md, \"geomsim.torch\")")
    try:
        _torch.ops.load_library(library)
    except OSError as error:
        raise ImportError(
            f"geomsim.torch: {library} does not load into torch {_torch.__version__}: it was built against "
            f"another libtorch; reinstall geomsim with this torch installed ({error})") from None


_load_operators()
_ops = _torch.ops.geomsim
_catalog = _json.loads(_ops.loss_catalog())
_parameters = [p["name"] for p in _catalog["parameters"]]
_defaults = [float(p["default"]) for p in _catalog["parameters"]]
_flags = {p["name"] for p in _catalog["parameters"] if p["flag"]}
_entries = {entry["name"]: entry for entry in _catalog["losses"]}


def _keyword(parameter):
    return parameter.replace("-", "_")


def losses():
    """Every loss geomsim.torch.Loss takes: {name: (help line, [the keyword parameters it reads])}."""
    return {name: (entry["help"], [_keyword(p) for p in entry["parameters"]])
            for name, entry in _entries.items() if entry["batch"]}


def _raise_if_invalid(loss, given, values, cond_kernel):
    failure = _ops.check_loss_options(loss, ",".join(given), values, cond_kernel)
    if failure:
        argument, requirement = failure.split("\n", 1)
        # The C++ loss registry words parameters as the CLI's options ("is not read by --loss
        # spread"); geomsim._core raises them as every binding does, in Python's names.
        _core._raise_invalid_argument(argument, requirement)


class Loss(_torch.nn.Module):
    """A geomsim training loss by its registry name (geomsim.torch.losses(), ``geomsim train --help``).

    Loss(name, *, num_classes=None, cond_kernel=None, **parameters): the parameters are the loss's
    own (tau, alpha, kernel_lambda, ...), each defaulting to ``geomsim train``'s default; a parameter
    the loss does not read, or a value out of its range, raises geomsim.InvalidArgument. num_classes
    is the number of k-means clusters of hardneg-infonce, the one loss that reads it. cond_kernel
    is CCL-K's conditioning kernel (cclk-weak, cclk-fair): "cosine" (the default), "rbf",
    "laplacian", "linear" or "polynomial", with cond_bandwidth, cond_degree, cond_offset.

    forward(features, labels=None, condition=None) -> a 0-dimensional tensor: features
    [bsz, 2, dim] (SupContrast's layout), labels [bsz] of an integer dtype on the features' device
    (None for the losses that need none: simclr, cclk-hardneg, hardneg-infonce), condition
    [bsz, k] of a floating dtype: the samples' conditioning values (attributes) for cclk-weak and
    cclk-fair, which then need no labels; without it they condition on the labels.
    """

    def __init__(self, name, *, num_classes=None, cond_kernel=None, **parameters):
        super().__init__()
        if not isinstance(name, str):
            raise TypeError(f"name must be a loss's name (a str), got {type(name).__name__}")
        values = list(_defaults)
        given = []
        for keyword, value in parameters.items():
            parameter = keyword.replace("_", "-")
            if parameter not in _parameters:
                raise TypeError(f"Loss({name!r}) got an unexpected keyword argument {keyword!r}; the loss parameters are "
                                + ", ".join(_keyword(p) for p in _parameters))
            if isinstance(value, _numbers.Real):
                values[_parameters.index(parameter)] = float(value)
            else:
                raise TypeError(f"{keyword} must be a number, got {type(value).__name__}")
            given.append(parameter)
        if cond_kernel is not None and not isinstance(cond_kernel, str):
            raise TypeError(f"cond_kernel must be a kernel's name (a str), got {type(cond_kernel).__name__}")
        _raise_if_invalid(name, given, values, cond_kernel or "")
        entry = _entries[name]
        if entry["num_classes"]:
            if isinstance(num_classes, bool) or not isinstance(num_classes, int) or num_classes < 2:
                _core._raise_invalid_argument("num_classes", f"must be an int >= 2 for loss {name}, got {num_classes!r}")
        elif num_classes is not None:
            _core._raise_invalid_argument("num_classes", f"is read by hardneg-infonce only, not by loss {name}")
        self.loss = name
        self.num_classes = num_classes or 0
        self.needs_labels = bool(entry["labels"])
        self.reads_condition = bool(entry["condition"])
        self.cond_kernel = cond_kernel or ""
        self._values = values
        self._given = {_keyword(p): bool(values[_parameters.index(p)]) if p in _flags else values[_parameters.index(p)]
                       for p in entry["parameters"]}

    def parameters_of_loss(self):
        """The parameters the loss reads, with their values: {"tau": 0.5, "alpha": 0.5, ...}."""
        return dict(self._given)

    def extra_repr(self):
        return ", ".join([repr(self.loss)] + ([f"cond_kernel={self.cond_kernel!r}"] if self.cond_kernel else []) +
                         [f"{k}={v}" if isinstance(v, bool) else f"{k}={v:g}" for k, v in self._given.items()])

    def forward(self, features, labels=None, condition=None):
        _check_features(features)
        if condition is not None:
            if not self.reads_condition:
                readers = ", ".join(name for name, entry in _entries.items() if entry["condition"])
                raise ValueError(f"condition: loss {self.loss} reads no conditioning values ({readers} do)")
            _check_condition(condition, features)
        if labels is None:
            if self.needs_labels and condition is None:
                raise ValueError(f"labels: loss {self.loss} needs the samples' labels, a tensor of shape "
                                 f"[{features.shape[0]}]")
        else:
            _check_labels(labels, features)
        return _ops.batch_loss(self.loss, features, labels, self.num_classes, self._values, self.cond_kernel, condition)


def _check_features(features):
    if not isinstance(features, _torch.Tensor):
        raise TypeError(f"features must be a torch.Tensor of shape [bsz, 2, dim], got {type(features).__name__}")
    if features.dim() != 3 or features.shape[1] != 2:
        raise ValueError(f"features must have the shape [bsz, 2, dim] (the two views of each sample, SupContrast's "
                         f"layout; geomsim's losses are two-view losses), got {list(features.shape)}")
    if not features.is_floating_point():
        raise TypeError(f"features must be of a floating dtype, got {features.dtype}")
    if features.shape[0] < 1 or features.shape[2] < 1:
        raise ValueError(f"features must hold at least one sample of dimension >= 1, got {list(features.shape)}")


def _check_labels(labels, features):
    if not isinstance(labels, _torch.Tensor):
        raise TypeError(f"labels must be a torch.Tensor of shape [{features.shape[0]}], got {type(labels).__name__}")
    if labels.dim() != 1 or labels.shape[0] != features.shape[0]:
        raise ValueError(f"labels must have the shape [{features.shape[0]}] (one per sample of features), "
                         f"got {list(labels.shape)}")
    if labels.is_floating_point() or labels.is_complex() or labels.dtype == _torch.bool:
        raise TypeError(f"labels must be of an integer dtype, got {labels.dtype}")
    if labels.device != features.device:
        raise ValueError(f"labels are on {labels.device} but features on {features.device}: move them to one device")


def _check_condition(condition, features):
    if not isinstance(condition, _torch.Tensor):
        raise TypeError(f"condition must be a torch.Tensor of shape [{features.shape[0]}, k], got {type(condition).__name__}")
    if condition.dim() != 2 or condition.shape[0] != features.shape[0] or condition.shape[1] < 1:
        raise ValueError(f"condition must have the shape [{features.shape[0]}, k] (one row of conditioning values per "
                         f"sample), got {list(condition.shape)}")
    if not condition.is_floating_point():
        raise TypeError(f"condition must be of a floating dtype, got {condition.dtype}")
    if condition.device != features.device:
        raise ValueError(f"condition is on {condition.device} but features on {features.device}: move them to one device")


class SpreadLoss(Loss):
    """Seed 004's L_spread = (1 - alpha) L_sup + alpha L_cNCE (eqs. 2-3, 10), at temperature tau.

    alpha = 1 is cNCE alone, alpha = 0 L_sup; exclude_partner=True leaves the other view out of
    cNCE's denominator (eq. 3) instead of holding it (eq. 10).
    """

    def __init__(self, alpha=0.5, tau=0.5, exclude_partner=False):
        super().__init__("spread", alpha=alpha, tau=tau, exclude_partner=exclude_partner)


class SupConLoss(Loss):
    """Seed 001's SupCon L_out (eq. 2) with SupContrast's SupConLoss(temperature, base_temperature).

    base_temperature=None (the default) is the temperature: the loss is L_out with no extra factor.
    SupContrast's own default base_temperature=0.07 multiplies L_out by temperature / 0.07; give it
    to compare with code trained that way. labels=None is SupContrast's unsupervised case: each
    sample its own class, so that the other view is the only positive (SimCLR's InfoNCE).
    positives=N (seed 001 Table 3's number of positives): each label's samples in the batch are cut,
    in batch order, into groups of N that are each other's positives, the label's other samples
    negatives; 1 is SimCLR's InfoNCE, 0 (the default) every sample of the label.
    """

    def __init__(self, temperature=0.07, base_temperature=None, positives=0):
        # 0 is the loss registry's "no factor"; here that is None, and 0 is out of range.
        if base_temperature is not None and isinstance(base_temperature, _numbers.Real) and not base_temperature > 0:
            _core._raise_invalid_argument("base_temperature", f"must be > 0, got {base_temperature!r}")
        super().__init__("supcon", tau=temperature, positives=positives,
                         base_temperature=0.0 if base_temperature is None else base_temperature)
        self.temperature = temperature
        self.base_temperature = temperature if base_temperature is None else base_temperature
        self.positives = positives

    def extra_repr(self):
        text = f"temperature={self.temperature:g}, base_temperature={self.base_temperature:g}"
        return text + (f", positives={self.positives:g}" if self.positives else "")

    def forward(self, features, labels=None):
        if labels is None:
            _check_features(features)
            labels = _torch.arange(features.shape[0], device=features.device)
        return super().forward(features, labels)

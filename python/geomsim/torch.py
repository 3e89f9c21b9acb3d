"""geomsim's training losses as torch.nn.Modules, for your own PyTorch training loop.

Each loss is the C++ library's own (src/train/losses), registered as torch operators: one
implementation for geomsim's trainer and for PyTorch, on the device of its inputs (CPU or CUDA).

    import geomsim.torch as gt
    criterion = gt.SpreadLoss(alpha=0.5, tau=0.5)        # seed 004's L_spread
    criterion = gt.SupConLoss(temperature=0.1)          # seed 001's L_out, SupContrast's SupConLoss
    criterion = gt.Loss("cclk-weak", tau=0.5, kernel_lambda=0.1)   # any loss by its registry name
    loss = criterion(features, labels)

The calling conventions are those PyTorch users have:

- SupContrast's (github.com/HobbitLong/SupContrast): ``features`` of shape ``[bsz, n_views, dim]``
  (more trailing dimensions are flattened, as SupContrast does), the views of each sample with
  L2-normalised rows (the losses do not normalise), ``labels`` of shape ``[bsz]`` or, for
  SupConLoss, SupContrast's ``mask`` ``[bsz, bsz]`` (mask[i, j] = 1 when sample j is a positive of
  sample i; it may be asymmetric), and ``contrast_mode='all'`` (every row an anchor) or ``'one'``
  (view 0's rows the anchors, against every row). The rows are SupContrast's
  ``torch.cat(torch.unbind(features, dim=1), dim=0)``, each sample's label repeated for each view;
  with two views the partner a(x) of a row (seed 004's L_cNCE) is the other view.
- pytorch-metric-learning's: ``embeddings`` of shape ``[B, dim]`` with ``labels [B]``, one
  embedding per row, positives the other rows of the same label (no partner).

SupConLoss (L_out), Loss("supcon-in") (L_in), Loss("simclr") and SpreadLoss run on geomsim's
streaming engine (include/geomsim/train/losses/streamed_contrastive_loss.hpp): tiles of the
anchors x rows similarities computed and reduced at once, never the whole matrix, so that memory
grows as the batch, not as its square; any n_views >= 1 (SpreadLoss's L_cNCE needs a partner:
alpha > 0 takes two views). Each loss is the mean over the anchors that have a positive (L_cNCE: a
non-empty denominator); a batch where none has one gives 0 with a zero gradient, never NaN.
SupConLoss's ``mask`` is no label structure: it is computed by the B x B formula (memory grows as
the square of the batch). The other losses of Loss(name), and supcon and spread with
noise_correction, are geomsim's batch losses on two views (n_views = 2), differentiated by autograd
through the ATen operators they are written in.

float16 and bfloat16 features (and features made under torch.autocast) are computed in float32:
the loss is a float32 tensor and the gradient reaches the features in their own dtype. Under
torch.distributed, ``gather=True`` makes the loss that of the global batch (all ranks'
samples), ``gather='local'`` each rank's anchors against the global batch (see Loss). On torch >= 2.4
torch.compile(fullgraph=True) of a model and an engine loss compiles without a graph break.

No loss reads a value back from the device (no host synchronisation): NaN or Inf in the features
give a NaN loss, as PyTorch's own losses do, rather than an error.

``geomsim.torch.losses()`` lists every loss with the parameters it reads; the names and
parameters are those of ``geomsim train --loss`` (an option ``--kernel-lambda`` is the keyword
``kernel_lambda``), and invalid values raise geomsim.InvalidArgument (a ValueError) at construction.
Invalid inputs raise ValueError or TypeError whose message begins with the argument's name.
"""
import json as _json
import os as _os
import numbers as _numbers

import torch as _torch

from geomsim import _core

__all__ = ["Loss", "SpreadLoss", "SupConLoss", "cuda_kernels_built", "losses", "use_cuda_kernels"]


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
# The losses the streaming engine computes, with the engine's kind: simclr is L_out with each
# sample its own class (its other views its positives).
_engine_kinds = {name: entry["engine"] for name, entry in _entries.items() if entry["engine"]}
_engine_names = ", ".join(_engine_kinds)
# Columns of the engine's statistics (streamed_contrastive_loss.hpp): the log-sum-exps over P(i) and
# D(i), -inf where the set is empty, i.e. where the anchor has no term of L_out/L_in/L_sup, of L_cNCE.
_POSITIVES = _catalog["contrastive_statistics"]["lse_positives"]
_DENOMINATOR = _catalog["contrastive_statistics"]["lse_denominator"]


def cuda_kernels_built():
    """Whether this build has the streaming engine's CUDA kernels (built where nvcc and a CUDA torch
    were found). SupConLoss, SpreadLoss and the engine's Loss names use the "products" kernels on
    CUDA tensors where the build has them (use_cuda_kernels changes that), the tiled ATen path
    where it has none."""
    return bool(_catalog["cuda_kernels_built"])


_CUDA_PATHS = {False: "aten_blocks", "fused": "cuda_fused", "products": "cuda_products"}


def use_cuda_kernels(mode="products"):
    """How the streamed losses run their two passes on CUDA tensors, for the whole process:
    "products" (the default where the build has the kernels), cuBLAS products of row blocks with
    the rest of each pass fused into one kernel; "fused", one kernel a pass (no tile in device
    memory, the products on the CUDA cores; slower); False, the tiled ATen path (the default where
    the build has no kernels). docs/reference/losses.md has the GPU's numbers. Returns the previous
    mode. Raises ValueError for another mode, or for a kernel mode in a build without the kernels."""
    if not (mode is False or (isinstance(mode, str) and mode in _CUDA_PATHS)):
        raise ValueError(f"mode must be False, 'fused' or 'products', got {mode!r}")
    if mode is not False and not cuda_kernels_built():
        raise ValueError(f"mode {mode!r} needs geomsim's CUDA kernels, and this build has none (they are built "
                         "where nvcc and a CUDA torch are found); the losses run the tiled ATen path on CUDA")
    previous = _ops.use_cuda_path(_CUDA_PATHS[mode])
    return {path: mode for mode, path in _CUDA_PATHS.items()}[previous]


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


class _StreamedContrastive(_torch.autograd.Function):
    """The engine's forward operator, differentiated by its backward operator (from the statistics
    the forward pass kept, recomputing the tiles). Returns (loss, statistics [N, S] float64)."""

    @staticmethod
    def forward(ctx, z, labels, partner, anchors, kind, tau, alpha, include_partner, scale):
        loss, statistics = _ops.contrastive_forward(z, labels, partner, anchors, kind, tau, alpha, include_partner, scale)
        ctx.save_for_backward(z, labels, partner, anchors, statistics)
        ctx.spec = (kind, tau, alpha, include_partner, scale)
        ctx.mark_non_differentiable(statistics)
        return loss, statistics

    @staticmethod
    def backward(ctx, grad, _statistics_grad):
        z, labels, partner, anchors, statistics = ctx.saved_tensors
        grad_z = _ops.contrastive_backward(grad, z, labels, partner, anchors, statistics, *ctx.spec)
        return (grad_z,) + (None,) * 8


class _GatherWithGradient(_torch.autograd.Function):
    """torch.distributed.all_gather along dim 0 (rank-major), whose backward hands this rank the
    SUM over ranks of the gradient of its rows: every rank's loss reads every rank's rows. An
    all_reduce, not reduce_scatter, which Gloo lacks; every rank must give the same shape."""

    @staticmethod
    def forward(ctx, tensor):
        import torch.distributed as dist
        ctx.rank, ctx.rows = dist.get_rank(), tensor.shape[0]
        return _gather(tensor)

    @staticmethod
    def backward(ctx, grad):
        import torch.distributed as dist
        total = grad.contiguous().clone()
        dist.all_reduce(total)
        return total.narrow(0, ctx.rank * ctx.rows, ctx.rows)


def _world():
    """(world size, rank) of the default process group; (1, 0) without one."""
    import torch.distributed as dist
    if dist.is_available() and dist.is_initialized():
        return dist.get_world_size(), dist.get_rank()
    return 1, 0


def _gather(tensor):
    """all_gather along dim 0, rank-major, without a gradient."""
    import torch.distributed as dist
    parts = [_torch.empty_like(tensor) for _ in range(dist.get_world_size())]
    dist.all_gather(parts, tensor.contiguous())
    return _torch.cat(parts)


class Loss(_torch.nn.Module):
    """A geomsim training loss by its registry name (geomsim.torch.losses(), ``geomsim train --help``).

    Loss(name, *, num_classes=None, cond_kernel=None, contrast_mode="all", gather=False, **parameters):
    the parameters are the loss's own (tau, alpha, kernel_lambda, ...), each defaulting to
    ``geomsim train``'s default; a parameter the loss does not read, or a value out of its range,
    raises geomsim.InvalidArgument. num_classes is the number of k-means clusters of
    hardneg-infonce, the one loss that reads it. cond_kernel is CCL-K's conditioning kernel
    (cclk-weak, cclk-fair): "cosine" (the default), "rbf", "laplacian", "linear" or "polynomial",
    with cond_bandwidth, cond_degree, cond_offset.

    The streaming engine's losses (spread, supcon, supcon-in, simclr; supcon and spread without
    noise_correction) take any n_views, [B, dim] embeddings, contrast_mode and gather:

    - contrast_mode="all": every row is an anchor; "one": view 0's rows only (SupContrast's).
    - gather=True: under torch.distributed (a default process group), each rank's features and
      labels are all-gathered (every rank must give the same bsz) and the value is the loss of the
      global batch, the ranks' samples in rank order as one process would see them concatenated,
      the same on every rank. Each rank computes only its own anchors' share against all rows,
      scaled by the global number of anchors with a positive, and its gradient reaches the
      features as world_size x dL/dfeatures of its samples, so that DDP's mean over ranks of the
      parameters' gradients is the one-process gradient on the global batch (with a sum over
      ranks instead, divide the loss by world_size). gather="local": the mean over this rank's
      anchors against the global batch (its own value on each rank, gradients summed over the
      ranks that read each row). Without a process group both are the loss of the local batch.

    The other losses are two-view losses: features [bsz, 2, dim], contrast_mode "all", no gather.

    forward(features, labels=None, condition=None, mask=None) -> a 0-dimensional tensor:
    features [bsz, n_views, dim] (SupContrast's layout) or [B, dim], of a floating dtype; labels
    [bsz] of an integer dtype on the features' device (None for the losses that need none:
    simclr, cclk-hardneg, hardneg-infonce); condition [bsz, k] of a floating dtype: the samples'
    conditioning values (attributes) for cclk-weak and cclk-fair, which then need no labels;
    without it they condition on the labels. mask: SupContrast's [bsz, bsz] positives, for supcon
    (see SupConLoss).
    """

    def __init__(self, name, *, num_classes=None, cond_kernel=None, contrast_mode="all", gather=False, **parameters):
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
        self._engine = name in _engine_kinds and self._given.get("noise_correction", 0.0) == 0.0
        if not (isinstance(contrast_mode, str) and contrast_mode in ("all", "one")):
            _core._raise_invalid_argument("contrast_mode", f"must be 'all' or 'one' (SupContrast's), got {contrast_mode!r}")
        if not (gather is False or gather is True or isinstance(gather, str) and gather == "local"):
            _core._raise_invalid_argument("gather", f"must be False, True or 'local', got {gather!r}")
        for argument, value, default in (("contrast_mode", contrast_mode, "all"), ("gather", gather, False)):
            if value != default and not self._engine:
                _core._raise_invalid_argument(argument, f"is read by the streaming engine's losses only ({_engine_names}), "
                                              f"not by loss {name}" + self._why_not_engine())
        self.contrast_mode = contrast_mode
        self.gather = gather
        # SupConLoss: labels=None is SupContrast's unsupervised case, each sample its own class.
        self._labels_default_to_samples = False

    def _reads_mask(self):
        """SupContrast's mask replaces the labels of L_out (the engine's supcon kind with labels)."""
        return _engine_kinds.get(self.loss) == "supcon" and self.needs_labels

    def _why_not_engine(self):
        return " with noise_correction" if self.loss in _engine_kinds else ""

    def _value(self, keyword):
        return self._values[_parameters.index(keyword.replace("_", "-"))]

    def parameters_of_loss(self):
        """The parameters the loss reads, with their values: {"tau": 0.5, "alpha": 0.5, ...}."""
        return dict(self._given)

    def extra_repr(self):
        return ", ".join([repr(self.loss)] + ([f"cond_kernel={self.cond_kernel!r}"] if self.cond_kernel else []) +
                         [f"{k}={v}" if isinstance(v, bool) else f"{k}={v:g}" for k, v in self._given.items()] +
                         self._convention_repr())

    def _convention_repr(self):
        return (([f"contrast_mode={self.contrast_mode!r}"] if self.contrast_mode != "all" else []) +
                ([f"gather={self.gather!r}"] if self.gather is not False else []))

    def forward(self, features, labels=None, condition=None, mask=None):
        features = _check_features(features)
        if condition is not None:
            if not self.reads_condition:
                readers = ", ".join(name for name, entry in _entries.items() if entry["condition"])
                raise ValueError(f"condition: loss {self.loss} reads no conditioning values ({readers} do)")
            _check_condition(condition, features)
        if mask is not None:
            self._check_mask(mask, labels, features)
        elif labels is None:
            if self.needs_labels and condition is None and not self._labels_default_to_samples:
                raise ValueError(f"labels: loss {self.loss} needs the samples' labels, a tensor of shape "
                                 f"[{features.shape[0]}]")
        else:
            _check_labels(labels, features)
        if features.dtype in (_torch.float16, _torch.bfloat16):
            features = features.float()  # accumulated in float32; autograd casts the gradient back
        if mask is not None:
            return self._mask_loss(features, mask)
        if self._engine:
            return self._engine_loss(features, labels)
        if features.shape[1] != 2:
            raise ValueError(f"features: loss {self.loss}{self._why_not_engine()} is a two-view loss: features must be "
                             f"[bsz, 2, dim], got n_views = {features.shape[1]} ({_engine_names} take any n_views)")
        return _ops.batch_loss(self.loss, features, labels, self.num_classes, self._values, self.cond_kernel, condition)

    # --- the streaming engine -------------------------------------------------------------

    def _spec(self):
        """(kind, tau, alpha, include_partner, scale) of the engine for this loss."""
        tau = self._value("tau")
        kind = _engine_kinds[self.loss]
        if kind == "spread":
            return (kind, tau, self._value("alpha"), not self._given["exclude_partner"], 1.0)
        base = self._given.get("base_temperature", 0.0)
        return (kind, tau, 0.0, True, tau / base if base > 0 else 1.0)

    def _terms(self):
        """[(weight, spec, statistics column of its anchors' validity)]: the loss as a weighted sum
        of terms that are each a mean over one set of anchors. Only L_spread without the partner
        in L_cNCE's denominator has two such sets (L_cNCE's anchors need a positive besides the
        partner); with the partner in it every anchor with a positive has both terms."""
        kind, tau, alpha, include_partner, scale = spec = self._spec()
        if kind != "spread" or alpha == 0.0:
            return [(1.0, spec, _POSITIVES)]
        if alpha == 1.0 or include_partner:
            return [(1.0, spec, _DENOMINATOR)]
        return [(1.0 - alpha, (kind, tau, 0.0, include_partner, scale), _POSITIVES),
                (alpha, (kind, tau, 1.0, include_partner, scale), _DENOMINATOR)]

    def _sample_labels(self, labels, features):
        if not self.needs_labels or labels is None:  # each sample its own class (SupContrast's labels=None)
            return _torch.arange(features.shape[0], device=features.device)
        if self._given.get("positives", 0) > 0:
            return _ops.positive_groups(labels, int(self._given["positives"]))
        return labels

    def _engine_loss(self, features, labels):
        views = features.shape[1]
        kind, _, alpha, _, _ = self._spec()
        if kind == "spread" and alpha > 0 and views != 2:
            raise ValueError(f"features: SpreadLoss with alpha > 0 needs two views, [bsz, 2, dim] (L_cNCE's partner "
                             f"a(x) is the other view of its sample), got n_views = {views}; alpha = 0 (L_sup) "
                             f"takes any n_views")
        if views == 1 and (labels is None or not self.needs_labels):
            raise ValueError(f"labels: with one view per sample (features {list(features.shape[::2])}) each sample "
                             f"its own class leaves no row a positive; give labels" +
                             (" (or mask)" if self._reads_mask() else ""))
        world, rank = _world() if self.gather else (1, 0)
        if world > 1:
            features = _GatherWithGradient.apply(features)
            labels = None if labels is None else _gather(labels)
        # On the global batch: its samples' indices and positives' groups are those of one process.
        sample_labels = self._sample_labels(labels, features)
        samples = features.shape[0]
        z = features.transpose(0, 1).reshape(views * samples, features.shape[2])  # view-major rows
        row_labels = sample_labels.repeat(views)
        partner = None
        if kind == "spread" and views == 2:
            partner = _torch.arange(2 * samples, device=z.device).add(samples).remainder(2 * samples)
        anchors = None
        if world > 1 or self.contrast_mode == "one":
            row = _torch.arange(views * samples, device=z.device)
            anchors = row < samples if self.contrast_mode == "one" else _torch.ones_like(row, dtype=_torch.bool)
            if world > 1:
                local = samples // world
                anchors = anchors & row.remainder(samples).div(local, rounding_mode="floor").eq(rank)
        if world == 1 or self.gather == "local":
            return _StreamedContrastive.apply(z, row_labels, partner, anchors, *self._spec())[0]
        return self._global_batch_loss(z, row_labels, partner, anchors, world)

    def _global_batch_loss(self, z, labels, partner, anchors, world):
        """The global batch's loss from this rank's anchors: each term's local mean m_r over c_r
        anchors is the share m_r c_r / C of the global mean (C = sum over ranks of c_r); the value
        is the sum of the shares over ranks, the gradient world_size x this rank's shares'."""
        import torch.distributed as dist
        means, sums = [], []
        for weight, spec, column in self._terms():
            mean, statistics = _StreamedContrastive.apply(z, labels, partner, anchors, *spec)
            count = (statistics[:, column] > float("-inf")).logical_and(anchors).sum().to(_torch.float64)
            means.append((weight, mean, count))
            sums += [mean.detach().to(_torch.float64) * count, count]
        totals = _torch.stack(sums)
        dist.all_reduce(totals)
        value, share = 0.0, 0.0
        for k, (weight, mean, count) in enumerate(means):
            anchors_with_terms = totals[2 * k + 1].clamp_min(1.0)
            value = value + weight * totals[2 * k] / anchors_with_terms
            share = share + weight * mean * (count / anchors_with_terms).to(mean.dtype)
        share = share * world
        return share + (value.to(share.dtype) - share).detach()

    # --- SupContrast's mask ---------------------------------------------------------------

    def _check_mask(self, mask, labels, features):
        bsz = features.shape[0]
        if labels is not None:
            raise ValueError("mask: give labels or mask, not both (SupContrast's rule)")
        if not self._reads_mask() or not self._engine or self._given["positives"] > 0:
            raise ValueError(f"mask: SupContrast's mask is read by SupConLoss (loss supcon, without positives and "
                             f"noise_correction) only, not by loss {self.loss}" +
                             (" with those" if self._reads_mask() else ""))
        if self.gather is not False:
            raise ValueError("mask: a mask cannot be gathered across ranks (it relates this rank's samples only); "
                             "give labels with gather, or gather=False")
        _check_dense_tensor(mask, "mask", f"[{bsz}, {bsz}]")
        if mask.dim() != 2 or list(mask.shape) != [bsz, bsz]:
            raise ValueError(f"mask must have the shape [{bsz}, {bsz}] (mask[i, j] = 1 when sample j is a positive of "
                             f"sample i, SupContrast's), got {list(mask.shape)}")
        if mask.is_complex():
            raise TypeError(f"mask must be of a real or bool dtype, got {mask.dtype}")
        if mask.device != features.device:
            raise ValueError(f"mask is on {mask.device} but features on {features.device}: move them to one device")

    def _mask_loss(self, features, mask):
        views, bsz = features.shape[1], features.shape[0]
        z = features.transpose(0, 1).reshape(views * bsz, features.shape[2])
        _, tau, _, _, scale = self._spec()
        return _ops.supcon_mask_loss(z, mask, bsz if self.contrast_mode == "one" else views * bsz, tau, scale)


def _check_dense_tensor(tensor, name, shape):
    if not isinstance(tensor, _torch.Tensor):
        raise TypeError(f"{name} must be a torch.Tensor of shape {shape}, got {type(tensor).__name__}")
    if tensor.layout != _torch.strided:
        raise TypeError(f"{name} must be a dense tensor, got layout {tensor.layout}: call .to_dense() first")


def _check_features(features):
    """features as [bsz, n_views, dim]: a [B, dim] input is one view per sample, more trailing
    dimensions are flattened into dim (SupContrast's)."""
    shape = "[bsz, n_views, dim] (SupContrast's) or [B, dim] (pytorch-metric-learning's embeddings)"
    _check_dense_tensor(features, "features", shape)
    if features.dim() < 2:
        raise ValueError(f"features must have the shape {shape}, got {list(features.shape)}")
    if not features.is_floating_point():
        raise TypeError(f"features must be of a floating dtype, got {features.dtype}")
    if features.dim() == 2:
        features = features.unsqueeze(1)
    elif features.dim() > 3:
        features = features.reshape(features.shape[0], features.shape[1], -1)
    if features.shape[0] < 1 or features.shape[1] < 1 or features.shape[2] < 1:
        raise ValueError(f"features must hold at least one sample, one view and one dimension, got {list(features.shape)}")
    return features


def _check_labels(labels, features):
    _check_dense_tensor(labels, "labels", f"[{features.shape[0]}]")
    if labels.dim() != 1 or labels.shape[0] != features.shape[0]:
        raise ValueError(f"labels must have the shape [{features.shape[0]}] (one per sample of features), "
                         f"got {list(labels.shape)}")
    if labels.is_floating_point() or labels.is_complex() or labels.dtype == _torch.bool:
        raise TypeError(f"labels must be of an integer dtype, got {labels.dtype}")
    if labels.device != features.device:
        raise ValueError(f"labels are on {labels.device} but features on {features.device}: move them to one device")


def _check_condition(condition, features):
    _check_dense_tensor(condition, "condition", f"[{features.shape[0]}, k]")
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
    cNCE's denominator (eq. 3) instead of holding it (eq. 10). On the streaming engine; L_cNCE's
    partner a(x) is the sample's other view, so alpha > 0 needs n_views = 2, while alpha = 0 takes
    any n_views and [B, dim] embeddings. contrast_mode and gather: see Loss.
    """

    def __init__(self, alpha=0.5, tau=0.5, exclude_partner=False, *, contrast_mode="all", gather=False):
        super().__init__("spread", alpha=alpha, tau=tau, exclude_partner=exclude_partner, contrast_mode=contrast_mode,
                         gather=gather)


class SupConLoss(Loss):
    """Seed 001's SupCon L_out (eq. 2) with SupContrast's SupConLoss(temperature, contrast_mode, base_temperature).

    base_temperature=None (the default) is the temperature: the loss is L_out with no extra factor.
    SupContrast's own default base_temperature=0.07 multiplies L_out by temperature / 0.07; give it
    to compare with code trained that way. labels=None and mask=None is SupContrast's unsupervised
    case: each sample its own class, so that its other views are its only positives (SimCLR's
    InfoNCE). positives=N (seed 001 Table 3's number of positives): each label's samples in the
    batch are cut, in batch order, into groups of N that are each other's positives, the label's
    other samples negatives; 1 is SimCLR's InfoNCE, 0 (the default) every sample of the label.

    forward(features, labels=None, mask=None): mask [bsz, bsz] is SupContrast's (mask[i, j] = 1,
    or any weight, when sample j is a positive of sample i; it may be asymmetric; any real or bool
    dtype), exclusive with labels. A mask is no label structure, so that the loss is then computed
    by the B x B formula (memory grows as the square of the batch), not by the streaming engine;
    an anchor whose mask row has no positive is left out of the mean, as with labels (SupContrast
    counts it as 0 in its mean: the same wherever every anchor has a positive), and no gather.
    contrast_mode and gather: see Loss.
    """

    def __init__(self, temperature=0.07, contrast_mode="all", base_temperature=None, *, positives=0, gather=False):
        # 0 is the loss registry's "no factor"; here that is None, and 0 is out of range.
        if base_temperature is not None and isinstance(base_temperature, _numbers.Real) and not base_temperature > 0:
            _core._raise_invalid_argument("base_temperature", f"must be > 0, got {base_temperature!r}")
        super().__init__("supcon", tau=temperature, positives=positives,
                         base_temperature=0.0 if base_temperature is None else base_temperature,
                         contrast_mode=contrast_mode, gather=gather)
        self.temperature = temperature
        self.base_temperature = temperature if base_temperature is None else base_temperature
        self.positives = positives
        self._labels_default_to_samples = True

    def extra_repr(self):
        text = f"temperature={self.temperature:g}, base_temperature={self.base_temperature:g}"
        return ", ".join([text + (f", positives={self.positives:g}" if self.positives else "")] + self._convention_repr())

    def forward(self, features, labels=None, mask=None):
        return super().forward(features, labels, mask=mask)

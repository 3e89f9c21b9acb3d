"""geomsim.torch as a drop-in (issue 48 item 2): SupContrast's and pytorch-metric-learning's calling
conventions on the streaming engine's losses, held to the losses' definitions written out below
in loops over the anchors (float64, values and gradients to 1e-12); gradcheck; float16, bfloat16
and torch.autocast; torch.compile without a graph break; the meta device; the gather across two
Gloo ranks against one process on the concatenated batch; and every refusal, naming its argument.
"""
import json
import math
import os
import subprocess
import sys

import pytest

import geomsim

torch = pytest.importorskip("torch")
if not os.path.exists(os.path.join(os.path.dirname(geomsim.__file__), "_torch_ops.so")):
    pytest.skip("geomsim was built without geomsim.torch's operators", allow_module_level=True)
import geomsim.torch as gt  # noqa: E402

TORCH_VERSION = tuple(int(part) for part in torch.__version__.split("+")[0].split(".")[:2])


def batch(bsz=8, views=2, dim=5, classes=3, seed=0, dtype=torch.float64):
    generator = torch.Generator().manual_seed(seed)
    features = torch.nn.functional.normalize(torch.randn(bsz, views, dim, generator=generator, dtype=dtype), dim=-1)
    return features, torch.arange(bsz) % classes


def reference(features, labels=None, kind="supcon", tau=0.5, alpha=0.0, include_partner=True, scale=1.0, mask=None,
              anchors=None):
    """The loss by its definition, anchor by anchor: features [bsz, n_views, dim], rows view-major
    (SupContrast's), w[i][j] = mask[i % bsz][j % bsz] (the labels' equality without a mask), the
    partner of row i the other view with two views; the mean over the anchors (all rows, or the
    rows in `anchors`) that have the term's positives, 0 when none has."""
    bsz, views = features.shape[0], features.shape[1]
    z = torch.cat(torch.unbind(features, dim=1), dim=0)
    n = views * bsz
    if mask is None:
        mask = labels.view(-1, 1).eq(labels.view(1, -1))
    w = mask.to(torch.float64).repeat(views, views)
    s = z @ z.T / tau
    terms = {"first": [], "second": []}
    for i in range(n) if anchors is None else anchors:
        others = [j for j in range(n) if j != i]
        positives = [j for j in others if w[i, j] != 0]
        if kind == "supcon" and positives:
            weights = torch.stack([w[i, j] for j in positives])
            log_prob = s[i, positives] - torch.logsumexp(s[i, others], 0)
            terms["first"].append(-(weights * log_prob).sum() / weights.sum())
        elif kind == "supcon-in" and positives:
            terms["first"].append(-(torch.logsumexp(s[i, positives], 0) - math.log(len(positives))
                                    - torch.logsumexp(s[i, others], 0)))
        elif kind == "spread":
            negatives = [j for j in others if w[i, j] == 0]
            if positives:
                lse_n = torch.logsumexp(s[i, negatives], 0) if negatives else torch.tensor(-math.inf, dtype=s.dtype)
                terms["first"].append(-sum(s[i, p] - torch.logaddexp(s[i, p], lse_n) for p in positives) / len(positives))
            if views == 2:
                partner = (i + bsz) % n
                denominator = [p for p in positives if include_partner or p != partner]
                if denominator:
                    terms["second"].append(-(s[i, partner] - torch.logsumexp(s[i, denominator], 0)))
    zero = z.sum() * 0

    def mean(values):
        return torch.stack(values).mean() if values else zero

    if kind == "spread":
        return scale * ((1 - alpha) * mean(terms["first"]) + alpha * mean(terms["second"]))
    return scale * mean(terms["first"])


def close(value, expected, tolerance=1e-12):
    return abs(float(value) - float(expected)) <= tolerance * max(1.0, abs(float(expected)))


def assert_value_and_gradient(loss, expected_of, features, *args, **kwargs):
    a = features.clone().requires_grad_(True)
    b = features.clone().requires_grad_(True)
    value = loss(a, *args, **kwargs)
    expected = expected_of(b)
    value.backward()
    expected.backward()
    assert value.dim() == 0 and value.dtype == features.dtype
    assert close(value.item(), expected.item()), (value.item(), expected.item())
    scale = max(1.0, b.grad.abs().max().item())
    assert (a.grad - b.grad).abs().max().item() <= 1e-12 * scale
    return value, a.grad


# --- the conventions ---------------------------------------------------------------------------

@pytest.mark.parametrize("views", [1, 2, 3, 4])
@pytest.mark.parametrize("mode", ["all", "one"])
def test_supcon_any_number_of_views_and_contrast_mode(views, mode):
    features, labels = batch(bsz=7, views=views)
    loss = gt.SupConLoss(temperature=0.3, contrast_mode=mode, base_temperature=0.07)
    anchors = range(7) if mode == "one" else None
    assert_value_and_gradient(loss, lambda f: reference(f, labels, "supcon", 0.3, scale=0.3 / 0.07, anchors=anchors),
                              features, labels)


@pytest.mark.parametrize("views", [1, 2, 3])
@pytest.mark.parametrize("mode", ["all", "one"])
def test_supcon_in_any_number_of_views(views, mode):
    features, labels = batch(bsz=6, views=views, seed=1)
    loss = gt.Loss("supcon-in", tau=0.4, contrast_mode=mode)
    anchors = range(6) if mode == "one" else None
    assert_value_and_gradient(loss, lambda f: reference(f, labels, "supcon-in", 0.4, anchors=anchors), features, labels)


@pytest.mark.parametrize("alpha,exclude_partner,views,mode", [
    (0.5, False, 2, "all"), (0.7, True, 2, "all"), (1.0, True, 2, "all"), (0.6, False, 2, "one"),
    (0.0, False, 1, "all"), (0.0, True, 3, "all"), (0.0, False, 4, "one")])
def test_spread_views_and_partner(alpha, exclude_partner, views, mode):
    features, labels = batch(bsz=6, views=views, seed=2)
    labels = torch.tensor([0, 0, 1, 2, 2, 2])  # class 1's single sample: only its partner as a positive
    loss = gt.SpreadLoss(alpha=alpha, tau=0.5, exclude_partner=exclude_partner, contrast_mode=mode)
    anchors = range(6) if mode == "one" else None
    assert_value_and_gradient(loss, lambda f: reference(f, labels, "spread", 0.5, alpha, not exclude_partner,
                                                       anchors=anchors), features, labels)


@pytest.mark.parametrize("views", [2, 3])
def test_simclr_and_supcon_without_labels_are_each_sample_its_own_class(views):
    features, _ = batch(bsz=5, views=views, seed=3)
    own = torch.arange(5)
    assert_value_and_gradient(gt.Loss("simclr", tau=0.2), lambda f: reference(f, own, "supcon", 0.2), features)
    assert_value_and_gradient(gt.SupConLoss(temperature=0.2), lambda f: reference(f, own, "supcon", 0.2), features)


def test_embeddings_with_labels_are_pytorch_metric_learnings_convention():
    features, labels = batch(bsz=9, views=1, seed=4)
    embeddings = features[:, 0]
    for loss, kind in ((gt.SupConLoss(temperature=0.1), "supcon"), (gt.Loss("supcon-in", tau=0.1), "supcon-in"),
                       (gt.SpreadLoss(alpha=0.0, tau=0.1), "spread")):
        value, grad = assert_value_and_gradient(loss, lambda e: reference(e[:, None], labels, kind, 0.1), embeddings,
                                                labels)
        assert grad.shape == embeddings.shape
        assert loss(embeddings, labels).item() == loss(embeddings[:, None], labels).item()


@pytest.mark.parametrize("views", [1, 2, 3])
@pytest.mark.parametrize("mode", ["all", "one"])
def test_supcon_mask_is_supcontrasts(views, mode):
    features, labels = batch(bsz=6, views=views, seed=5)
    generator = torch.Generator().manual_seed(6)
    mask = (torch.rand(6, 6, generator=generator) < 0.4).to(torch.float32)  # asymmetric, some rows empty
    mask[2] = 0
    loss = gt.SupConLoss(temperature=0.25, contrast_mode=mode)
    anchors = range(6) if mode == "one" else None
    assert_value_and_gradient(loss, lambda f: reference(f, kind="supcon", tau=0.25, mask=mask, anchors=anchors),
                              features, mask=mask)
    # Weights, as SupContrast's arithmetic reads them; a bool mask; the labels' mask is the labels.
    weights = mask * torch.rand(6, 6, generator=generator)
    assert_value_and_gradient(loss, lambda f: reference(f, kind="supcon", tau=0.25, mask=weights, anchors=anchors),
                              features, mask=weights)
    assert loss(features, mask=mask.bool()).item() == loss(features, mask=mask).item()
    same = labels.view(-1, 1).eq(labels.view(1, -1))
    assert close(loss(features, mask=same).item(), loss(features, labels).item())


@pytest.mark.parametrize("make", [
    lambda: gt.SupConLoss(temperature=0.2), lambda: gt.Loss("supcon-in", tau=0.2),
    lambda: gt.SpreadLoss(alpha=0.0), lambda: gt.SpreadLoss(alpha=1.0, exclude_partner=True)])
def test_no_positive_anywhere_is_zero_with_a_zero_gradient(make):
    loss = make()
    features, _ = batch(bsz=5, views=2, seed=7)
    if loss.loss == "spread" and loss.parameters_of_loss()["alpha"] == 1.0:
        features = features.clone().requires_grad_(True)  # each sample alone: D(i) without the partner is empty
        value = loss(features, torch.arange(5))
    else:
        features = features[:, 0].clone().requires_grad_(True)  # [B, D], every label once
        value = loss(features, torch.arange(5))
    value.backward()
    assert value.item() == 0.0 and not torch.isnan(features.grad).any() and features.grad.abs().max().item() == 0.0


def test_mask_without_positives_is_zero_with_a_zero_gradient():
    features = batch(bsz=4, views=2)[0].requires_grad_(True)
    value = gt.SupConLoss()(features, mask=torch.zeros(4, 4))
    value.backward()
    assert value.item() == 0.0 and features.grad.abs().max().item() == 0.0
    one = batch(bsz=1, views=1)[0].requires_grad_(True)  # a single row: nothing to contrast with
    value = gt.SupConLoss()(one, mask=torch.ones(1, 1))
    value.backward()
    assert value.item() == 0.0 and one.grad.abs().max().item() == 0.0


@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_non_finite_features_give_a_nan_loss_not_an_error(bad):
    features, labels = batch(bsz=6, views=2)
    features[1, 0, 2] = bad  # no value is read back to check it (no host synchronisation): PyTorch's losses' way
    for loss, kwargs in ((gt.SupConLoss(), {"labels": labels}), (gt.SpreadLoss(), {"labels": labels}),
                         (gt.SupConLoss(), {"mask": labels.view(-1, 1).eq(labels.view(1, -1))})):
        assert math.isnan(loss(features, **kwargs).item())


def test_trailing_dimensions_are_flattened_as_supcontrast_does():
    features, labels = batch(bsz=4, views=2, dim=6)
    loss = gt.SupConLoss(temperature=0.5)
    assert loss(features.reshape(4, 2, 2, 3), labels).item() == loss(features, labels).item()


@pytest.mark.parametrize("make", [lambda: gt.SupConLoss(temperature=0.2, contrast_mode="one"),
                                  lambda: gt.Loss("supcon-in", tau=0.3), lambda: gt.SpreadLoss(alpha=0.6),
                                  lambda: gt.SpreadLoss(alpha=0.4, exclude_partner=True)])
def test_gradcheck(make):
    features, labels = batch(bsz=5, views=2, dim=3, seed=8)
    loss = make()
    assert torch.autograd.gradcheck(lambda f: loss(f, labels), (features.clone().requires_grad_(True),), eps=1e-6,
                                    atol=1e-7)


def test_gradcheck_mask_and_three_views():
    features, labels = batch(bsz=4, views=3, dim=3, seed=9)
    mask = torch.tensor([[1, 0, 1, 0], [0, 1, 0, 0], [1, 1, 0, 0], [0, 0, 0, 0]])
    assert torch.autograd.gradcheck(lambda f: gt.SupConLoss(temperature=0.3)(f, mask=mask),
                                    (features.clone().requires_grad_(True),), eps=1e-6, atol=1e-7)
    assert torch.autograd.gradcheck(lambda f: gt.SupConLoss(temperature=0.3)(f, labels),
                                    (features.clone().requires_grad_(True),), eps=1e-6, atol=1e-7)


# --- dtypes, autocast ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("use_mask", [False, True])
def test_half_precision_is_computed_in_float32(dtype, use_mask):
    features, labels = batch(bsz=16, views=2, dim=8, dtype=torch.float32)
    features = features.to(dtype)
    kwargs = {"mask": labels.view(-1, 1).eq(labels.view(1, -1))} if use_mask else {"labels": labels}
    for loss in (gt.SupConLoss(temperature=0.1), gt.SpreadLoss(alpha=0.5)) if not use_mask else (gt.SupConLoss(),):
        half = features.clone().requires_grad_(True)
        single = features.float().requires_grad_(True)
        value = loss(half, **kwargs)
        expected = loss(single, **kwargs)
        value.backward()
        expected.backward()
        assert value.dtype == torch.float32 and value.item() == expected.item()  # the same float32 arithmetic
        assert half.grad.dtype == dtype and torch.equal(half.grad, single.grad.to(dtype))


def test_autocast_leaves_the_losses_in_float32():
    features, labels = batch(bsz=12, views=2, dim=8, dtype=torch.float32)
    model = torch.nn.Linear(8, 8)
    flat = features.reshape(24, 8)

    def seeded(loss, z, kwargs):
        torch.manual_seed(0)  # the triplet loss's draws
        return loss(z, **kwargs)

    for loss, kwargs in ((gt.SupConLoss(temperature=0.1), {"labels": labels}), (gt.SpreadLoss(), {"labels": labels}),
                         (gt.SupConLoss(), {"mask": labels.view(-1, 1).eq(labels.view(1, -1))}),
                         (gt.Loss("triplet"), {"labels": labels})):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            z = model(flat).view(12, 2, 8)
            assert z.dtype == torch.bfloat16
            inside = seeded(loss, z, kwargs)
            # The loss's own matrix products are not autocast: float32 features give float32 arithmetic.
            unchanged = seeded(loss, features, kwargs)
        outside = seeded(loss, z.detach().float(), kwargs)
        assert inside.dtype == torch.float32 and inside.item() == outside.item(), loss
        assert unchanged.item() == seeded(loss, features, kwargs).item(), loss
        inside.backward()
        assert model.weight.grad.dtype == torch.float32 and torch.isfinite(model.weight.grad).all()
        model.zero_grad()


# --- torch.compile, the meta device -----------------------------------------------------------

@pytest.mark.skipif(TORCH_VERSION < (2, 4), reason="torch.compile without a graph break is claimed from torch 2.4 "
                                                  "(1.13 has no torch.compile)")
def test_torch_compile_without_a_graph_break():
    torch._dynamo.reset()
    model = torch.nn.Linear(6, 4).double()
    supcon, spread = gt.SupConLoss(temperature=0.1, contrast_mode="one"), gt.SpreadLoss(alpha=0.5)

    def step(x, labels):
        z = torch.nn.functional.normalize(model(x), dim=-1).view(x.shape[0] // 2, 2, 4)
        return supcon(z, labels) + spread(z, labels)

    generator = torch.Generator().manual_seed(10)
    # aot_eager: dynamo's graph capture (fullgraph: a graph break is an error) and AOTAutograd's
    # forward and backward graphs on fake tensors, run without inductor's code generation.
    compiled = torch.compile(step, backend="aot_eager", fullgraph=True, dynamic=True)
    for bsz in (6, 9):  # a second batch size: the operators' shapes are symbolic
        x = torch.randn(2 * bsz, 6, dtype=torch.float64, generator=generator)
        labels = torch.arange(bsz) % 3
        model.zero_grad()
        value = compiled(x, labels)
        value.backward()
        grad = model.weight.grad.clone()
        model.zero_grad()
        expected = step(x, labels)
        expected.backward()
        assert close(value.item(), expected.item()) and torch.allclose(grad, model.weight.grad, rtol=0, atol=1e-12)
    explanation = torch._dynamo.explain(step)(x, labels)
    assert explanation.graph_break_count == 0 and explanation.graph_count == 1


@pytest.mark.skipif(TORCH_VERSION < (2, 4), reason="torch.library.opcheck needs torch >= 2.4")
def test_operators_pass_torch_library_opcheck():
    # The operators are differentiated by geomsim.torch's autograd.Function, not by themselves:
    # opcheck checks their schema, fake tensors and AOT dispatch (dynamic shapes) without a gradient.
    features, labels = batch(bsz=5, views=2, dim=4)
    z = torch.cat(torch.unbind(features, dim=1), dim=0)
    labels = labels.repeat(2)
    partner = torch.arange(10).add(5).remainder(10)
    for spec in ((None, None, "supcon", 0.5, 0.0, True, 1.0), (partner, labels.lt(2), "spread", 0.5, 0.4, False, 2.0)):
        torch.library.opcheck(torch.ops.geomsim.contrastive_forward.default, (z, labels) + spec)
        loss, statistics = torch.ops.geomsim.contrastive_forward(z, labels, *spec)
        torch.library.opcheck(torch.ops.geomsim.contrastive_backward.default,
                              (torch.ones((), dtype=z.dtype), z, labels) + spec[:2] + (statistics,) + spec[2:])


@pytest.mark.parametrize("make,use_mask", [(lambda: gt.SupConLoss(contrast_mode="one"), False),
                                           (lambda: gt.SpreadLoss(alpha=0.5), False),
                                           (lambda: gt.Loss("supcon-in"), False), (lambda: gt.SupConLoss(), True)])
def test_meta_device_forward_and_backward(make, use_mask):
    features, labels = batch(bsz=6, views=2, dtype=torch.float32)
    meta = features.to("meta").requires_grad_(True)
    kwargs = {"mask": torch.ones(6, 6, device="meta")} if use_mask else {"labels": labels.to("meta")}
    value = make()(meta, **kwargs)
    assert value.device.type == "meta" and value.dim() == 0 and value.dtype == torch.float32
    value.backward()
    assert meta.grad.device.type == "meta" and meta.grad.shape == meta.shape
    assert make()(features.to("meta").to(torch.bfloat16), **kwargs).dtype == torch.float32


# --- gather across ranks ----------------------------------------------------------------------

GATHER_CASES = [
    {"loss": "supcon", "parameters": {"tau": 0.3, "base_temperature": 0.07}, "views": 2, "gather": True},
    {"loss": "supcon", "parameters": {"tau": 0.3}, "views": 3, "gather": True, "contrast_mode": "one"},
    {"loss": "supcon-in", "parameters": {"tau": 0.4}, "views": 1, "gather": True},
    {"loss": "spread", "parameters": {"alpha": 0.6, "tau": 0.5, "exclude_partner": True}, "views": 2, "gather": True},
    {"loss": "spread", "parameters": {"alpha": 0.5, "tau": 0.5}, "views": 2, "gather": "local"},
    {"loss": "supcon", "parameters": {"tau": 0.2}, "views": 1, "gather": "local"},
    # Labels made on the global batch: each sample its own class, the groups of `positives`.
    {"loss": "simclr", "parameters": {"tau": 0.3}, "views": 2, "gather": True},
    {"loss": "supcon", "parameters": {"tau": 0.3, "positives": 2}, "views": 2, "gather": True},
]
# Labels of the global batch of 2 x 5 samples: rank 0's has more anchors without a positive
# (labels 3, 4, 5 once with one view), so the ranks' shares are not halves.
GATHER_LABELS = [0, 3, 1, 4, 5, 0, 1, 2, 2, 1]


def one_process_expectation(case, features, labels, world):
    """(value, gradient) each rank must get: gather=True, the global batch's loss and world x its
    gradient rows; 'local', the rank's anchors' mean and the gradient of the sum of those means."""
    p = case["parameters"]
    kind = "supcon" if case["loss"] == "simclr" else case["loss"]
    if case["loss"] == "simclr":
        labels = torch.arange(labels.shape[0])
    elif p.get("positives"):  # each label's samples in batch order, in groups of `positives`
        rank = [sum(1 for t in range(i) if labels[t] == labels[i]) for i in range(labels.shape[0])]
        labels = torch.tensor([int(labels[i]) * 100 + rank[i] // p["positives"] for i in range(labels.shape[0])])
    spec = dict(kind=kind, tau=p["tau"], alpha=p.get("alpha", 0.0), include_partner=not p.get("exclude_partner", False),
                scale=p["tau"] / p["base_temperature"] if "base_temperature" in p else 1.0)
    total = features.shape[0]
    local = total // world
    views = features.shape[1]
    first_view_only = case.get("contrast_mode", "all") == "one"

    def rows_of(rank):
        return [v * total + rank * local + i for v in range(1 if first_view_only else views) for i in range(local)]

    f = features.clone().requires_grad_(True)
    if case["gather"] is True:
        value = reference(f, labels, anchors=rows_of(0) + rows_of(1) if first_view_only else None, **spec)
        value.backward()
        return [(value.item(), world * f.grad[r * local:(r + 1) * local]) for r in range(world)]
    means = [reference(f, labels, anchors=rows_of(r), **spec) for r in range(world)]
    sum(means).backward()
    return [(means[r].item(), f.grad[r * local:(r + 1) * local]) for r in range(world)]


def test_gather_over_two_gloo_ranks_is_the_one_process_loss(tmp_path):
    torch_distributed = pytest.importorskip("torch.distributed")
    if not torch_distributed.is_available():
        pytest.skip("this torch has no torch.distributed")
    world = 2
    generator = torch.Generator().manual_seed(11)
    data = {"labels": torch.tensor(GATHER_LABELS), "features": {}}
    for k, case in enumerate(GATHER_CASES):
        data["features"][k] = torch.nn.functional.normalize(
            torch.randn(10, case["views"], 4, dtype=torch.float64, generator=generator), dim=-1)
    torch.save(data, tmp_path / "data.pt")
    (tmp_path / "cases.json").write_text(json.dumps(GATHER_CASES))
    worker = os.path.join(os.path.dirname(os.path.abspath(__file__)), "torch_gather_worker.py")
    ranks = [subprocess.Popen([sys.executable, worker, str(rank), str(world), str(tmp_path)], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True) for rank in range(world)]
    outputs = []
    try:
        for process in ranks:
            outputs.append(process.communicate(timeout=120)[0])
    finally:
        for process in ranks:  # a rank that hangs (the other died) is stopped by its own id
            if process.poll() is None:
                process.kill()
                process.wait()
    assert [process.returncode for process in ranks] == [0] * world, "\n".join(outputs)
    results = [torch.load(tmp_path / f"rank{rank}.pt") for rank in range(world)]
    for k, case in enumerate(GATHER_CASES):
        expected = one_process_expectation(case, data["features"][k], data["labels"], world)
        for rank in range(world):
            value, grad = results[rank][k]
            expected_value, expected_grad = expected[rank]
            assert close(value, expected_value), (case, rank, value, expected_value)
            scale = max(1.0, expected_grad.abs().max().item())
            assert (grad - expected_grad).abs().max().item() <= 1e-12 * scale, (case, rank)
    # gather=True: the same value on every rank.
    assert all(results[0][k][0] == results[1][k][0] for k, case in enumerate(GATHER_CASES) if case["gather"] is True)


def test_gather_without_a_process_group_is_the_local_loss():
    features, labels = batch(bsz=6, views=2)
    for gather in (True, "local"):
        assert gt.SupConLoss(gather=gather)(features, labels).item() == gt.SupConLoss()(features, labels).item()


# --- refusals ------------------------------------------------------------------------------------
# geomsim.torch's bad-input table: each refused call, the exception and the start of its message,
# which names the argument.

def _features(views=2, bsz=4, **kwargs):
    return batch(bsz=bsz, views=views, **kwargs)[0]


LABELS = torch.arange(4) % 2
REFUSALS = [
    ("sparse features", lambda: gt.SupConLoss()(_features().to_sparse(), LABELS), TypeError,
     r"^features must be a dense tensor, got layout torch.sparse_coo"),
    ("sparse labels", lambda: gt.SupConLoss()(_features(), LABELS.to_sparse()), TypeError,
     r"^labels must be a dense tensor"),
    ("sparse mask", lambda: gt.SupConLoss()(_features(), mask=torch.eye(4).to_sparse()), TypeError,
     r"^mask must be a dense tensor"),
    ("1-D features", lambda: gt.SupConLoss()(torch.randn(8), LABELS), ValueError,
     r"^features must have the shape \[bsz, n_views, dim\] \(SupContrast's\) or \[B, dim\]"),
    ("no sample", lambda: gt.SupConLoss()(torch.randn(0, 2, 3), torch.arange(0)), ValueError,
     r"^features must hold at least one sample, one view and one dimension, got \[0, 2, 3\]"),
    ("no view", lambda: gt.SupConLoss()(torch.randn(4, 0, 3), LABELS), ValueError,
     r"^features must hold at least one sample, one view and one dimension"),
    ("integer features", lambda: gt.SupConLoss()(torch.ones(4, 2, 3, dtype=torch.int64), LABELS), TypeError,
     r"^features must be of a floating dtype"),
    ("spread's partner without two views", lambda: gt.SpreadLoss(alpha=0.5)(_features(views=3), LABELS), ValueError,
     r"^features: SpreadLoss with alpha > 0 needs two views.*got n_views = 3"),
    ("spread's partner on embeddings", lambda: gt.SpreadLoss(alpha=0.1)(_features()[:, 0], LABELS), ValueError,
     r"^features: SpreadLoss with alpha > 0 needs two views.*got n_views = 1"),
    ("a two-view loss given 3 views", lambda: gt.Loss("cclk-weak")(_features(views=3), LABELS), ValueError,
     r"^features: loss cclk-weak is a two-view loss: features must be \[bsz, 2, dim\], got n_views = 3"),
    ("a two-view loss given embeddings", lambda: gt.Loss("triplet")(_features()[:, 0], LABELS), ValueError,
     r"^features: loss triplet is a two-view loss.*got n_views = 1"),
    ("noise_correction is two-view", lambda: gt.Loss("supcon", noise_correction=0.1)(_features(views=3), LABELS),
     ValueError, r"^features: loss supcon with noise_correction is a two-view loss"),
    ("one view and no labels", lambda: gt.SupConLoss()(_features()[:, 0]), ValueError,
     r"^labels: with one view per sample \(features \[4, 5\]\).*give labels \(or mask\)"),
    ("simclr with one view", lambda: gt.Loss("simclr")(_features(views=1)), ValueError,
     r"^labels: with one view per sample"),
    ("labels of another length", lambda: gt.SupConLoss()(_features(), torch.arange(3)), ValueError,
     r"^labels must have the shape \[4\]"),
    ("mask and labels", lambda: gt.SupConLoss()(_features(), LABELS, mask=torch.eye(4)), ValueError,
     r"^mask: give labels or mask, not both"),
    ("mask of the wrong shape", lambda: gt.SupConLoss()(_features(), mask=torch.eye(8)), ValueError,
     r"^mask must have the shape \[4, 4\].*got \[8, 8\]"),
    ("mask of one dimension", lambda: gt.SupConLoss()(_features(), mask=torch.ones(4)), ValueError,
     r"^mask must have the shape \[4, 4\]"),
    ("mask not a tensor", lambda: gt.SupConLoss()(_features(), mask=[[1.0]]), TypeError,
     r"^mask must be a torch.Tensor of shape \[4, 4\], got list"),
    ("complex mask", lambda: gt.SupConLoss()(_features(), mask=torch.eye(4, dtype=torch.complex64)), TypeError,
     r"^mask must be of a real or bool dtype"),
    ("mask on another device", lambda: gt.SupConLoss()(_features(), mask=torch.eye(4, device="meta")), ValueError,
     r"^mask is on meta but features on cpu"),
    ("mask for spread", lambda: gt.SpreadLoss()(_features(), mask=torch.eye(4)), ValueError,
     r"^mask: SupContrast's mask is read by SupConLoss \(loss supcon, without positives and noise_correction\) only, "
     r"not by loss spread"),
    ("mask with positives", lambda: gt.SupConLoss(positives=2)(_features(), mask=torch.eye(4)), ValueError,
     r"^mask: .* not by loss supcon with those"),
    ("mask with gather", lambda: gt.SupConLoss(gather=True)(_features(), mask=torch.eye(4)), ValueError,
     r"^mask: a mask cannot be gathered across ranks"),
    ("contrast_mode", lambda: gt.SupConLoss(contrast_mode="ALL"), geomsim.InvalidArgument,
     r"^contrast_mode must be 'all' or 'one' \(SupContrast's\), got 'ALL'$"),
    ("base_temperature in contrast_mode's place", lambda: gt.SupConLoss(0.1, 0.07), geomsim.InvalidArgument,
     r"^contrast_mode must be 'all' or 'one' \(SupContrast's\), got 0.07$"),
    ("contrast_mode of a two-view loss", lambda: gt.Loss("triplet", contrast_mode="one"), geomsim.InvalidArgument,
     r"^contrast_mode is read by the streaming engine's losses only \(spread, supcon, supcon-in, simclr\), not by loss "
     r"triplet$"),
    ("gather", lambda: gt.SpreadLoss(gather="global"), geomsim.InvalidArgument,
     r"^gather must be False, True or 'local', got 'global'$"),
    ("gather as a number", lambda: gt.SpreadLoss(gather=1), geomsim.InvalidArgument,
     r"^gather must be False, True or 'local', got 1$"),
    ("gather of a two-view loss", lambda: gt.Loss("spread", noise_correction=0.2, gather=True), geomsim.InvalidArgument,
     r"^gather is read by the streaming engine's losses only .*not by loss spread with noise_correction$"),
    # Issue 53: a dense loss's N x N matrices checked against memory before they are made, and
    # hardneg-infonce's k-means clusters at most one per row: refused inside the loss operator, as
    # geomsim.InvalidArgument by torch 1.13 and as ValueError by torch 2.11 (its base class).
    ("a dense loss beyond memory", lambda: gt.Loss("cclk-weak")(torch.zeros(60000, 2, 2), torch.arange(60000) % 5),
     ValueError, r"^features would need .* for the cclk-weak loss of 120000 embeddings"),
    ("more clusters than rows", lambda: gt.Loss("hardneg-infonce", num_classes=9)(_features(), None),
     ValueError, r"^num_classes \(the k-means clusters of the batch's embeddings\) must be at most"),
    ("use_cuda_kernels with True", lambda: gt.use_cuda_kernels(True), ValueError,
     r"^mode must be False, 'fused' or 'products', got True$"),
    ("use_cuda_kernels with another name", lambda: gt.use_cuda_kernels("cuda"), ValueError,
     r"^mode must be False, 'fused' or 'products', got 'cuda'$"),
] + ([] if gt.cuda_kernels_built() else [
    ("use_cuda_kernels without the kernels", lambda: gt.use_cuda_kernels("fused"), ValueError,
     r"^mode 'fused' needs geomsim's CUDA kernels, and this build has none"),
])


def test_use_cuda_kernels_returns_the_previous_choice():
    # The default: the products kernels where the build has them, else the tiled ATen path.
    initial = gt.use_cuda_kernels(False)
    assert initial == ("products" if gt.cuda_kernels_built() else False)
    if gt.cuda_kernels_built():
        assert gt.use_cuda_kernels("fused") is False
        assert gt.use_cuda_kernels("products") == "fused"
    gt.use_cuda_kernels(initial)


@pytest.mark.parametrize("case,call,error,message", REFUSALS, ids=[row[0] for row in REFUSALS])
def test_refusals_name_the_argument(case, call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_repr_shows_the_conventions():
    assert repr(gt.SupConLoss(0.1, "one", gather="local")) == \
        "SupConLoss(temperature=0.1, base_temperature=0.1, contrast_mode='one', gather='local')"
    assert repr(gt.SpreadLoss(gather=True)).endswith("noise_correction=0, gather=True)")

"""geomsim.torch: the C++ training losses as torch.nn.Modules (issue 27 item 2).

Checked here: SupConLoss against SupContrast's SupConLoss (its losses.py at 66a8fe5, written out
below as the reference) and SpreadLoss against seed 004's eqs. (2)-(3) and (10) written out in
plain loops, values and gradients to 1e-12 in float64; torch.autograd.gradcheck on every loss;
the meta device (no value read back from the device); and the errors, in Python's words.
That the operator is the C++ library's batch_loss bit for bit, values and gradients, is
tests/train/losses/test_torch_operators.cpp's check.
"""
import math
import os
import shutil
import subprocess
import sys

import pytest

import geomsim

torch = pytest.importorskip("torch")
# Skipped where geomsim was built without its operators (the package index's route, no torch at
# build time); where they are there, they must load.
if not os.path.exists(os.path.join(os.path.dirname(geomsim.__file__), "_torch_ops.so")):
    pytest.skip("geomsim was built without geomsim.torch's operators", allow_module_level=True)
import geomsim.torch as gt  # noqa: E402


def two_views(bsz=10, dim=6, classes=3, seed=0, dtype=torch.float64):
    generator = torch.Generator().manual_seed(seed)
    features = torch.randn(bsz, 2, dim, generator=generator, dtype=dtype)
    labels = torch.arange(bsz) % classes
    return torch.nn.functional.normalize(features, dim=-1), labels


def supcontrast_supcon(features, labels, temperature, base_temperature, mask=None, contrast_mode="all"):
    """SupContrast's SupConLoss.forward, line for line (labels or mask, either contrast_mode)."""
    batch_size, contrast_count = features.shape[0], features.shape[1]
    if mask is None:
        labels = labels.contiguous().view(-1, 1)
        mask = torch.eq(labels, labels.T).to(features.dtype)
    else:
        mask = mask.to(features.dtype)
    contrast_feature = torch.cat(torch.unbind(features, dim=1), dim=0)
    if contrast_mode == "one":
        anchor_feature, anchor_count = features[:, 0], 1
    else:
        anchor_feature, anchor_count = contrast_feature, contrast_count
    anchor_dot_contrast = torch.div(torch.matmul(anchor_feature, contrast_feature.T), temperature)
    logits_max, _ = torch.max(anchor_dot_contrast, dim=1, keepdim=True)
    logits = anchor_dot_contrast - logits_max.detach()
    mask = mask.repeat(anchor_count, contrast_count)
    logits_mask = torch.scatter(torch.ones_like(mask), 1, torch.arange(batch_size * anchor_count).view(-1, 1), 0)
    mask = mask * logits_mask
    exp_logits = torch.exp(logits) * logits_mask
    log_prob = logits - torch.log(exp_logits.sum(1, keepdim=True))
    mean_log_prob_pos = (mask * log_prob).sum(1) / mask.sum(1)
    loss = -(temperature / base_temperature) * mean_log_prob_pos
    return loss.view(anchor_count, batch_size).mean()


def spread_by_loops(features, labels, alpha, tau, include_partner=True):
    """Seed 004's L_spread = (1 - alpha) L_sup + alpha L_cNCE (eqs. 2-3; eq. 10's denominator)."""
    bsz = features.shape[0]
    z = torch.cat([features[:, 0], features[:, 1]])
    y = [int(v) for v in torch.cat([labels, labels])]
    s = z @ z.T / tau
    total, anchors = 0.0, 0
    for i in range(2 * bsz):
        partner = (i + bsz) % (2 * bsz)
        positives = [j for j in range(2 * bsz) if j != i and y[j] == y[i]]
        negatives = [j for j in range(2 * bsz) if y[j] != y[i]]
        negative_sum = sum(torch.exp(s[i, n]) for n in negatives)
        sup = -sum(s[i, p] - torch.log(torch.exp(s[i, p]) + negative_sum) for p in positives) / len(positives)
        denominator = positives if include_partner else [p for p in positives if p != partner]
        # Without the partner (eq. 3 read with a(x_i) outside the batch) D(i) leaves it out.
        cnce = -(s[i, partner] - torch.log(sum(torch.exp(s[i, p]) for p in denominator)))
        total = total + (1 - alpha) * sup + alpha * cnce
        anchors += 1
    return total / anchors


def values_and_gradients(loss, reference, features, labels):
    a = features.clone().requires_grad_(True)
    b = features.clone().requires_grad_(True)
    value = loss(a, labels)
    expected = reference(b, labels)
    value.backward()
    expected.backward()
    return value, expected, a.grad, b.grad


@pytest.mark.parametrize("temperature,base_temperature", [(0.1, None), (0.5, None), (0.1, 0.07)])
def test_supcon_is_supcontrast_supconloss(temperature, base_temperature):
    features, labels = two_views()
    loss = gt.SupConLoss(temperature=temperature, base_temperature=base_temperature)
    base = temperature if base_temperature is None else base_temperature
    value, expected, grad, expected_grad = values_and_gradients(
        loss, lambda f, y: supcontrast_supcon(f, y, temperature, base), features, labels)
    assert abs(value.item() - expected.item()) <= 1e-12 * max(1.0, abs(expected.item()))
    assert torch.max(torch.abs(grad - expected_grad)).item() <= 1e-12


@pytest.mark.parametrize("views", [1, 2, 3, 4])
@pytest.mark.parametrize("contrast_mode", ["all", "one"])
@pytest.mark.parametrize("by_mask", [False, True])
def test_supcon_is_supcontrast_supconloss_with_views_modes_and_masks(views, contrast_mode, by_mask):
    generator = torch.Generator().manual_seed(views)
    features = torch.nn.functional.normalize(torch.randn(9, views, 5, generator=generator, dtype=torch.float64), dim=-1)
    labels = torch.tensor([0, 1, 0, 2, 1, 2, 0, 1, 2])  # every anchor has a positive (SupContrast's 0/0 otherwise)
    # An asymmetric mask: sample j is a positive of sample i when j's label is i's or the next.
    mask = torch.remainder(labels.view(1, -1) - labels.view(-1, 1), 3).le(1).to(torch.float64) if by_mask else None
    loss = gt.SupConLoss(temperature=0.2, contrast_mode=contrast_mode, base_temperature=0.07)
    value, expected, grad, expected_grad = values_and_gradients(
        lambda f, y: loss(f, mask=mask) if by_mask else loss(f, y),
        lambda f, y: supcontrast_supcon(f, y, 0.2, 0.07, mask, contrast_mode), features, labels)
    assert abs(value.item() - expected.item()) <= 1e-12 * max(1.0, abs(expected.item()))
    assert torch.max(torch.abs(grad - expected_grad)).item() <= 1e-12


def supcon_with_positives_by_loops(features, labels, positives, tau):
    """Seed 001 Table 3's N positives: an anchor's positives are the rows of its label's samples
    whose rank among them (in batch order) is in the anchor's block of N; L_out's denominator."""
    bsz = features.shape[0]
    z = torch.cat([features[:, 0], features[:, 1]])
    y = [int(v) for v in labels]
    rank = [sum(1 for t in range(s) if y[t] == y[s]) for s in range(bsz)]
    s = z @ z.T / tau
    total = 0.0
    for i in range(2 * bsz):
        a = i % bsz
        group = [j for j in range(2 * bsz)
                 if j != i and y[j % bsz] == y[a] and rank[j % bsz] // positives == rank[a] // positives]
        log_denominator = torch.logsumexp(torch.stack([s[i, k] for k in range(2 * bsz) if k != i]), 0)
        total = total - sum(s[i, p] - log_denominator for p in group) / len(group)
    return total / (2 * bsz)


@pytest.mark.parametrize("positives", [1, 2, 3])
def test_supcon_with_positives_is_its_loops(positives):
    features, labels = two_views(bsz=11)
    loss = gt.SupConLoss(temperature=0.3, positives=positives)
    value, expected, grad, expected_grad = values_and_gradients(
        loss, lambda f, y: supcon_with_positives_by_loops(f, y, positives, 0.3), features, labels)
    assert abs(value.item() - expected.item()) <= 1e-12 * max(1.0, abs(expected.item()))
    assert torch.max(torch.abs(grad - expected_grad)).item() <= 1e-12
    assert "positives=" in repr(loss)


def test_supcon_without_labels_is_supcontrast_unsupervised():
    features, _ = two_views(bsz=7)
    value = gt.SupConLoss(temperature=0.2)(features)
    expected = supcontrast_supcon(features, torch.arange(7), 0.2, 0.2)
    assert abs(value.item() - expected.item()) <= 1e-12 * abs(expected.item())
    assert abs(value.item() - gt.Loss("simclr", tau=0.2)(features).item()) <= 1e-12 * abs(expected.item())


@pytest.mark.parametrize("alpha,tau,include_partner", [(0.5, 0.5, True), (0.8, 0.1, True), (0.0, 1.0, True),
                                                       (1.0, 0.3, True), (0.7, 0.4, False)])
def test_spread_is_seed_004_eq_2_3(alpha, tau, include_partner):
    features, labels = two_views(bsz=9, dim=4)
    loss = gt.SpreadLoss(alpha=alpha, tau=tau, exclude_partner=not include_partner)
    value, expected, grad, expected_grad = values_and_gradients(
        loss, lambda f, y: spread_by_loops(f, y, alpha, tau, include_partner), features, labels)
    assert abs(value.item() - expected.item()) <= 1e-12 * max(1.0, abs(expected.item()))
    assert torch.max(torch.abs(grad - expected_grad)).item() <= 1e-12


def loss_with(name):
    return gt.Loss(name, num_classes=3) if name == "hardneg-infonce" else gt.Loss(name)


# cclk-hardneg's kernel is a function of the detached embeddings (seed 002 eq. 9 conditions on
# them without differentiating through the kernel), so its autograd gradient is, by definition,
# not the derivative of its value: gradcheck does not apply to it.
@pytest.mark.parametrize("name", sorted(set(gt.losses()) - {"cclk-hardneg"}))
def test_gradcheck(name):
    features, labels = two_views(bsz=6, dim=3, seed=1)
    loss = loss_with(name)

    def of(x):
        torch.manual_seed(5)  # the triplet loss's draws, the same at every evaluation
        return loss(x, labels)

    assert torch.autograd.gradcheck(of, (features.clone().requires_grad_(True),), eps=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", sorted(gt.losses()))
def test_float32_and_meta_device(name):
    features, labels = two_views(dtype=torch.float32)
    loss = loss_with(name)
    value = loss(features, labels)
    assert value.dtype == torch.float32 and value.dim() == 0 and math.isfinite(value.item())
    if name not in ("hardneg-infonce",):  # k-means reads its clusters' sizes back to the host
        meta = loss(features.to("meta"), labels.to("meta"))
        assert meta.device.type == "meta" and meta.dim() == 0


def test_module_api():
    loss = gt.SpreadLoss(alpha=0.7, tau=0.25)
    assert isinstance(loss, torch.nn.Module)
    assert loss.parameters_of_loss() == {"tau": 0.25, "alpha": 0.7, "exclude_partner": False, "noise_correction": 0.0}
    assert repr(loss) == "SpreadLoss('spread', tau=0.25, alpha=0.7, exclude_partner=False, noise_correction=0)"
    assert "spread" in gt.losses()
    assert gt.losses()["cclk-weak"][1] == ["tau", "kernel_lambda", "cond_bandwidth", "cond_degree", "cond_offset"]
    assert "ce" not in gt.losses() and "autoencoder" not in gt.losses()
    assert repr(gt.SupConLoss(temperature=0.1)) == "SupConLoss(temperature=0.1, base_temperature=0.1)"


def test_invalid_options_in_python_words():
    with pytest.raises(geomsim.InvalidArgument, match=r"^loss must be one of spread, supcon"):
        gt.Loss("spreads")
    with pytest.raises(geomsim.InvalidArgument, match=r"^loss ce has no loss on a batch"):
        gt.Loss("ce")
    with pytest.raises(geomsim.InvalidArgument, match=r"^alpha must be in \[0, 1\], got 1.5$"):
        gt.SpreadLoss(alpha=1.5)
    with pytest.raises(geomsim.InvalidArgument, match=r"^tau must be in \[1e-06, 1000\], got 0$"):
        gt.SupConLoss(temperature=0.0)
    with pytest.raises(geomsim.InvalidArgument, match=r"^base_temperature must be > 0, got 0"):
        gt.SupConLoss(base_temperature=0)
    with pytest.raises(geomsim.InvalidArgument, match=r"^kernel_lambda is not read by loss spread"):
        gt.Loss("spread", kernel_lambda=0.1)
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'temperature'"):
        gt.Loss("spread", temperature=0.1)
    with pytest.raises(TypeError, match=r"^alpha must be a number, got str"):
        gt.Loss("spread", alpha="0.5")
    with pytest.raises(geomsim.InvalidArgument, match=r"^num_classes must be an int >= 2"):
        gt.Loss("hardneg-infonce")
    with pytest.raises(geomsim.InvalidArgument, match=r"^num_classes is read by hardneg-infonce only"):
        gt.Loss("spread", num_classes=3)
    with pytest.raises(ValueError):
        gt.Loss("spread", tau=float("nan"))


def test_cclk_conditions_on_the_values_given():
    features, labels = two_views(bsz=8)
    condition = torch.randn(8, 3, dtype=torch.float64, generator=torch.Generator().manual_seed(2))
    for name in ("cclk-weak", "cclk-fair"):
        rbf = gt.Loss(name, cond_kernel="rbf", cond_bandwidth=0.7)
        assert repr(rbf).startswith(f"Loss('{name}', cond_kernel='rbf', tau=0.5")
        on_values = rbf(features, condition=condition)  # attributes as the only supervision
        assert on_values.item() != rbf(features, labels).item()
        assert on_values.item() != gt.Loss(name, cond_kernel="laplacian")(features, condition=condition).item()
        assert torch.autograd.gradcheck(lambda x: rbf(x, condition=condition),
                                        (features.clone().requires_grad_(True),), eps=1e-6, atol=1e-7)
    with pytest.raises(geomsim.InvalidArgument, match=r"^cond_kernel is not read by loss spread \(it is read by cclk-weak"):
        gt.Loss("spread", cond_kernel="rbf")
    with pytest.raises(geomsim.InvalidArgument, match=r"^cond_kernel must be one of"):
        gt.Loss("cclk-weak", cond_kernel="gaussian")
    with pytest.raises(ValueError, match=r"^condition: loss spread reads no conditioning values"):
        gt.SpreadLoss()(features, labels, condition=condition)
    with pytest.raises(ValueError, match=r"^condition must have the shape \[8, k\]"):
        gt.Loss("cclk-weak")(features, condition=condition[:5])
    with pytest.raises(TypeError, match=r"^condition must be of a floating dtype"):
        gt.Loss("cclk-weak")(features, condition=labels.view(8, 1))


def test_invalid_inputs_in_python_words():
    features, labels = two_views(bsz=4)
    loss = gt.SpreadLoss()
    # L_cNCE's partner is the other view: SpreadLoss with alpha > 0 takes two views only.
    with pytest.raises(ValueError, match=r"^features: SpreadLoss with alpha > 0 needs two views.*got n_views = 1"):
        loss(features.reshape(8, 6), torch.arange(8))
    with pytest.raises(ValueError, match=r"^features: SpreadLoss with alpha > 0 needs two views.*got n_views = 3"):
        loss(torch.cat([features, features[:, :1]], 1), labels)
    with pytest.raises(TypeError, match=r"^features must be a torch.Tensor.*got ndarray"):
        loss(features.numpy(), labels)
    with pytest.raises(TypeError, match=r"^features must be of a floating dtype"):
        loss(features.to(torch.int64), labels)
    with pytest.raises(ValueError, match=r"^labels: loss spread needs the samples' labels"):
        loss(features)
    with pytest.raises(ValueError, match=r"^labels must have the shape \[4\]"):
        loss(features, labels[:3])
    with pytest.raises(TypeError, match=r"^labels must be of an integer dtype"):
        loss(features, labels.to(torch.float64))
    with pytest.raises(ValueError, match=r"^labels are on meta but features on cpu"):
        loss(features, labels.to("meta"))


def test_import_without_operators_says_how_to_build_them(tmp_path):
    package = os.path.dirname(geomsim.__file__)
    copy = tmp_path / "geomsim"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("_torch_ops.so", "__pycache__"))
    run = subprocess.run([sys.executable, "-c", "import geomsim.torch"], cwd=tmp_path, capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(tmp_path)))
    assert run.returncode == 1
    assert "ImportError: geomsim.torch: this geomsim was built without its torch operators" in run.stderr
    assert "pip install --no-build-isolation ." in run.stderr

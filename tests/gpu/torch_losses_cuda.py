"""geomsim.torch on a CUDA device: every loss's value and gradient on the GPU against the CPU's.

    PYTHONPATH=BUILD/python python3 tests/gpu/torch_losses_cuda.py OUT.json

In float64, each loss of geomsim.torch.losses() on a [64, 2, 32] batch (8 classes) is evaluated
and differentiated on cuda:0 and on the CPU; the GPU's value and gradient must equal the CPU's to
1e-10 relative (the reductions are summed in another order there). Then SpreadLoss's forward and
backward on a [1024, 2, 128] float32 batch is timed on both devices (median of 20, after 3
warm-ups, synchronised). Then issue 48's GPU targets for the streamed losses (on CUDA their two
passes run by the products kernels where the build has them, else as ATen row blocks): SupConLoss's float32 forward + backward at B = 8192 against
SupContrast's formula (tests/benchmarks/pytorch_peers.py; target >= 2x), and at B = 65536 (two
views, d = 128: does it fit, its time and peak memory), and SupCon and L_spread at B = 512 in
float64 on the GPU against the CPU's engine, to 1e-12; and the same comparisons and timings for
the CUDA kernels (geomsim.torch.use_cuda_kernels "fused" and "products"), where the build has them. Writes OUT.json;
exit 77 when torch sees
no CUDA device, 1 when a loss disagrees. Run by tests/gpu/gpu_check.sh.
"""
import json
import os
import statistics
import sys
import time

import torch

import geomsim.torch as gt

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks"))
from pytorch_peers import supcontrast_supcon_loss  # noqa: E402  SupContrast's formula

if not torch.cuda.is_available():
    print("torch_losses_cuda: no CUDA device")
    sys.exit(77)
out = sys.argv[1]
cuda = torch.device("cuda:0")
generator = torch.Generator().manual_seed(0)
features = torch.nn.functional.normalize(torch.randn(64, 2, 32, dtype=torch.float64, generator=generator), dim=-1)
labels = torch.arange(64) % 8


def value_and_gradient(loss, device):
    f = features.detach().to(device).clone().requires_grad_(True)  # a leaf on each device
    torch.manual_seed(3)  # the triplet loss's draws (each device's own generator: compared apart)
    value = loss(f, labels.to(device))
    value.backward()
    return value.item(), f.grad.cpu()


rows, failed = [], []
for name in sorted(gt.losses()):
    loss = gt.Loss(name, num_classes=8) if name == "hardneg-infonce" else gt.Loss(name)
    try:
        cpu_value, cpu_grad = value_and_gradient(loss, "cpu")
        gpu_value, gpu_grad = value_and_gradient(loss, cuda)
    except Exception as error:  # one loss that fails on the GPU must not hide the others' results
        rows.append({"loss": name, "error": f"{type(error).__name__}: {error}", "ok": False})
        print(f"{name:22s} FAILED: {type(error).__name__}: {error}")
        failed.append(name)
        continue
    value_error = abs(gpu_value - cpu_value) / max(1.0, abs(cpu_value))
    grad_error = (gpu_grad - cpu_grad).abs().max().item() / max(1e-300, cpu_grad.abs().max().item())
    # The losses that draw (triplets, noisy pairs) draw from each device's generator, which differ.
    compared = not gt._entries[name]["random"]
    ok = not compared or (value_error <= 1e-10 and grad_error <= 1e-10)
    rows.append({"loss": name, "cpu": cpu_value, "cuda": gpu_value, "value_error": value_error,
                 "gradient_error": grad_error, "compared": compared, "ok": ok})
    print(f"{name:22s} cpu {cpu_value:.15g}  cuda {gpu_value:.15g}  value {value_error:.1e}  gradient {grad_error:.1e}"
          + ("" if compared else "  (own draws)") + ("" if ok else "  FAILED"))
    if not ok:
        failed.append(name)


def median_seconds(device, repeats=20):
    big = torch.nn.functional.normalize(torch.randn(1024, 2, 128, generator=generator), dim=-1).to(device)
    big_labels = (torch.arange(1024) % 10).to(device)
    big.requires_grad_(True)
    loss = gt.SpreadLoss(alpha=0.5, tau=0.5)
    times = []
    for k in range(repeats + 3):
        if device.type == "cuda":
            torch.cuda.synchronize()
        start = time.perf_counter()
        loss(big, big_labels).backward()
        if device.type == "cuda":
            torch.cuda.synchronize()
        if k >= 3:
            times.append(time.perf_counter() - start)
    return statistics.median(times)


cpu_seconds = median_seconds(torch.device("cpu"))
gpu_seconds = median_seconds(cuda)
print(f"SpreadLoss forward+backward, [1024, 2, 128] float32: cpu {cpu_seconds * 1e3:.2f} ms, "
      f"cuda {gpu_seconds * 1e3:.2f} ms ({cpu_seconds / gpu_seconds:.1f}x)")


def synchronised_seconds(step, repeats):
    """The median of `repeats` timed calls of step() after one warm-up, the device synchronised."""
    times = []
    for k in range(repeats + 1):
        torch.cuda.synchronize()
        start = time.perf_counter()
        step()
        torch.cuda.synchronize()
        if k > 0:
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def streamed_batch(b, dtype=torch.float32):
    f = torch.nn.functional.normalize(torch.randn(b, 2, 128, generator=generator, dtype=dtype), dim=-1).to(cuda)
    return f.requires_grad_(True), (torch.arange(b) % 10).to(cuda)


streamed = {}
features_8192, labels_8192 = streamed_batch(8192)
geomsim_seconds = synchronised_seconds(lambda: gt.SupConLoss(temperature=0.1)(features_8192, labels_8192).backward(), 5)
try:
    formula_seconds = synchronised_seconds(
        lambda: supcontrast_supcon_loss(features_8192, labels_8192, 0.1, 0.1).backward(), 5)
except torch.cuda.OutOfMemoryError:
    formula_seconds = None
streamed["supcon_8192x2x128_float32"] = {"geomsim_ms": geomsim_seconds * 1e3,
                                         "supcontrast_ms": formula_seconds and formula_seconds * 1e3,
                                         "ratio": formula_seconds and formula_seconds / geomsim_seconds}
print(f"SupConLoss [8192, 2, 128] float32 forward+backward: geomsim {geomsim_seconds * 1e3:.1f} ms, SupContrast's "
      f"formula " + (f"{formula_seconds * 1e3:.1f} ms ({formula_seconds / geomsim_seconds:.2f}x, target >= 2x)"
                     if formula_seconds else "out of memory"))
del features_8192, labels_8192
torch.cuda.empty_cache()
torch.cuda.reset_peak_memory_stats()
try:
    features_65536, labels_65536 = streamed_batch(65536)
    seconds = synchronised_seconds(lambda: gt.SupConLoss(temperature=0.1)(features_65536, labels_65536).backward(), 2)
    streamed["supcon_65536x2x128_float32"] = {"fits": True, "geomsim_ms": seconds * 1e3,
                                              "peak_gb": torch.cuda.max_memory_allocated() / 1e9}
    del features_65536, labels_65536
except torch.cuda.OutOfMemoryError as error:
    streamed["supcon_65536x2x128_float32"] = {"fits": False, "error": str(error).splitlines()[0]}
print(f"SupConLoss [65536, 2, 128] float32: {streamed['supcon_65536x2x128_float32']}")
for name, loss in [("supcon", gt.SupConLoss(temperature=0.1)), ("spread", gt.SpreadLoss(alpha=0.5, tau=0.1))]:
    f64 = torch.nn.functional.normalize(torch.randn(512, 2, 32, generator=generator, dtype=torch.float64), dim=-1)
    y = torch.arange(512) % 7
    values, grads = [], []
    for device in ("cpu", cuda):
        x = f64.detach().to(device).clone().requires_grad_(True)  # a leaf on each device
        value = loss(x, y.to(device))
        value.backward()
        values.append(value.item())
        grads.append(x.grad.cpu())
    value_error = abs(values[1] - values[0]) / max(1.0, abs(values[0]))
    grad_error = (grads[1] - grads[0]).abs().max().item() / max(1.0, grads[0].abs().max().item())
    ok = value_error <= 1e-12 and grad_error <= 1e-12
    streamed[f"{name}_512x2x32_float64_cuda_vs_cpu"] = {"value_error": value_error, "gradient_error": grad_error, "ok": ok}
    print(f"{name} [512, 2, 32] float64, CUDA's default path against the CPU's engine: value {value_error:.1e}, "
          f"gradient {grad_error:.1e}" + ("" if ok else "  FAILED (1e-12)"))
    if not ok:
        failed.append(name + " (streamed, float64)")

# The CUDA kernels (opt-in, geomsim.torch.use_cuda_kernels: "fused" and "products"): float64
# against the CPU's engine to 1e-12 (values and gradients, several blocks of 64 rows, d across two
# of the fused gradient's chunks), then timed against the ATen row blocks and SupContrast's formula,
# and at B = 65536.
kernels = {"built": gt.cuda_kernels_built()}
MODES = ("fused", "products")


def with_kernels(mode, step):
    before = gt.use_cuda_kernels(mode)
    try:
        return step()
    finally:
        gt.use_cuda_kernels(before)


if gt.cuda_kernels_built():
    for name, loss, b, d in [("supcon", gt.SupConLoss(temperature=0.1), 700, 32),
                             ("supcon-in", gt.Loss("supcon-in", tau=0.5), 300, 160),
                             ("spread", gt.SpreadLoss(alpha=0.35, tau=0.1), 700, 32),
                             ("spread-no-partner", gt.SpreadLoss(alpha=0.6, tau=0.2, exclude_partner=True), 250, 200)]:
        f64 = torch.nn.functional.normalize(torch.randn(b, 2, d, generator=generator, dtype=torch.float64), dim=-1)
        y = torch.randint(0, 23, (b,), generator=generator)
        for mode in MODES:
            values, grads = [], []
            for device in ("cpu", cuda):
                x = f64.detach().to(device).clone().requires_grad_(True)  # a leaf on each device

                def step():
                    value = loss(x, y.to(device))
                    value.backward()
                    return value.item()
                values.append(with_kernels(mode if device != "cpu" else False, step))
                grads.append(x.grad.cpu())
            value_error = abs(values[1] - values[0]) / max(1.0, abs(values[0]))
            grad_error = (grads[1] - grads[0]).abs().max().item() / max(1e-300, grads[0].abs().max().item())
            ok = value_error <= 1e-12 and grad_error <= 1e-12
            kernels[f"{name}_{b}x2x{d}_float64_{mode}_vs_cpu"] = {"value_error": value_error,
                                                                  "gradient_error": grad_error, "ok": ok}
            print(f"{name} [{b}, 2, {d}] float64, the {mode} kernels against the CPU's engine: value "
                  f"{value_error:.1e}, gradient {grad_error:.1e}" + ("" if ok else "  FAILED (1e-12)"))
            if not ok:
                failed.append(f"{name} ({mode} kernels, float64)")
    for name, make in [("supcon", lambda: gt.SupConLoss(temperature=0.1)),
                       ("spread", lambda: gt.SpreadLoss(alpha=0.5, tau=0.1))]:
        features, labels_ = streamed_batch(8192)
        row = {}
        for mode in (False,) + MODES:
            key = "aten" if mode is False else mode
            try:
                row[key + "_ms"] = 1e3 * with_kernels(mode, lambda: synchronised_seconds(
                    lambda: make()(features, labels_).backward(), 5))
            except Exception as error:  # one path's failure must not hide the others' timings
                row[key + "_error"] = f"{type(error).__name__}: {error}"
        if name == "supcon":
            row["supcontrast_ms"] = streamed["supcon_8192x2x128_float32"]["supcontrast_ms"]
        for mode in MODES:
            if mode + "_ms" in row:
                row[mode + "_vs_aten"] = row.get("aten_ms") and row["aten_ms"] / row[mode + "_ms"]
                if row.get("supcontrast_ms"):
                    row[mode + "_vs_supcontrast"] = row["supcontrast_ms"] / row[mode + "_ms"]
        kernels[f"{name}_8192x2x128_float32"] = row
        print(f"{name} [8192, 2, 128] float32 forward+backward: {row}")
        del features, labels_
    for mode in MODES:
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
        key = f"supcon_65536x2x128_float32_{mode}"
        try:
            features, labels_ = streamed_batch(65536)
            seconds = with_kernels(mode, lambda: synchronised_seconds(
                lambda: gt.SupConLoss(temperature=0.1)(features, labels_).backward(), 2))
            kernels[key] = {"fits": True, "ms": seconds * 1e3, "peak_gb": torch.cuda.max_memory_allocated() / 1e9}
            del features, labels_
        except torch.cuda.OutOfMemoryError as error:
            kernels[key] = {"fits": False, "error": str(error).splitlines()[0]}
        print(f"SupConLoss [65536, 2, 128] float32 by the {mode} kernels: {kernels[key]}")
with open(out, "w") as f:
    json.dump({"torch": torch.__version__, "device": torch.cuda.get_device_name(0), "losses": rows,
               "spread_1024x2x128_float32": {"cpu_ms": cpu_seconds * 1e3, "cuda_ms": gpu_seconds * 1e3},
               "streamed": streamed, "cuda_kernels": kernels}, f, indent=2)
sys.exit(1 if failed else 0)

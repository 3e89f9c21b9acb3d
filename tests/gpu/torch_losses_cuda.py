"""geomsim.torch on a CUDA device: every loss's value and gradient on the GPU against the CPU's.

    PYTHONPATH=BUILD/python python3 tests/gpu/torch_losses_cuda.py OUT.json

In float64, each loss of geomsim.torch.losses() on a [64, 2, 32] batch (8 classes) is evaluated
and differentiated on cuda:0 and on the CPU; the GPU's value and gradient must equal the CPU's to
1e-10 relative (the reductions are summed in another order there). Then SpreadLoss's forward and
backward on a [1024, 2, 128] float32 batch is timed on both devices (median of 20, after 3
warm-ups, synchronised). Writes OUT.json; exit 77 when torch sees no CUDA device, 1 when a loss
disagrees. Run by tests/gpu/gpu_check.sh.
"""
import json
import statistics
import sys
import time

import torch

import geomsim.torch as gt

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
    # The triplet loss draws its triplets from each device's generator, which differ.
    compared = name != "triplet"
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
with open(out, "w") as f:
    json.dump({"torch": torch.__version__, "device": torch.cuda.get_device_name(0), "losses": rows,
               "spread_1024x2x128_float32": {"cpu_ms": cpu_seconds * 1e3, "cuda_ms": gpu_seconds * 1e3}}, f, indent=2)
sys.exit(1 if failed else 0)

#!/usr/bin/env python3
"""PyTorch (Python) peers of geomsim's training benchmarks (tests/benchmarks/bench_train.cpp).

The benchmark starts this script once and talks to it over a pipe, so that each geomsim
timing is taken right beside the PyTorch timing of the same work, in the same run. One
request per line on stdin, one JSON answer per line on stdout:

  threads T
      torch.set_num_threads(T).
  spread N D CLASSES TAU ALPHA SEED
      seconds per forward + backward of the L_spread batch loss below on an N x D float32
      batch (N = 2B: two views of B samples, labels drawn from CLASSES), the median of five
      timed batches of calls; with the loss and the gradient's norm, so that the benchmark
      checks both sides computed the same thing.
  supcon N D CLASSES TAU SEED
      the same for SupCon L_out.
  cnn SAMPLES BATCH SEED FORM
      one epoch of the CNN recipe of geomsim train on SAMPLES random 1 x 28 x 28 images with two
      coarse labels: the same encoder, augmentations, L_spread (alpha 0.5, tau 0.5), AdamW with
      the cosine schedule, the losses read back once per epoch. Answers samples per second. FORM is
      "textbook" (conv - ReLU - pool, N x C x H x W: the model as a PyTorch user writes it) or
      "geomsim" (geomsim's own implementation choices, all three: pool before ReLU,
      channels-last weights, and glibc's malloc set as geomsim-torch sets it, through ctypes;
      once set, the malloc settings stay for the rest of the process).

The embeddings of `spread` and `supcon` are drawn as geomsim's benchmark draws them
(torch.manual_seed, randn, row-normalise, randint labels), and libtorch's generator is the same
in both, so the two sides see the same batch.

With `--cnn-peer DEVICE BATCHES SAMPLES_PER_BATCH OUT.json [--eager-only]` it is instead the GPU
check's PyTorch peer (cnn_peer_rows): the same CNN epoch on DEVICE, eager and through
torch.compile, per batch size, written to OUT.json.

supcontrast_supcon_loss is SupContrast's SupConLoss formula, which the benchmark of geomsim.torch's
losses against their PyTorch peers imports with spread_loss (loss_peers/bench_contrastive_losses.py);
the pipe above does not use it.

spread_loss and supcon_loss are the vectorised losses a PyTorch user writes: the similarity matrix
once, the masks once, logsumexp over masked rows, autograd for the gradient. They assume every
anchor has at least one negative and one positive, as the benchmarks' batches do (geomsim's own
losses also handle the rest).
"""
import ctypes
import json
import math
import sys
import time

import torch
import torch.nn.functional as F


def two_view_batch(n, d, classes, seed):
    torch.manual_seed(seed)
    z = F.normalize(torch.randn(n, d), dim=1)
    b = n // 2
    sample_labels = torch.randint(0, classes, (b,))
    labels = torch.cat([sample_labels, sample_labels])
    partner = torch.remainder(torch.arange(n) + b, n)
    return z, labels, partner


def spread_loss(z, labels, partner, tau, alpha):
    """seed 004's L_spread = (1 - alpha) L_sup + alpha L_cNCE, with D(i) = P(i) (eq. 10)."""
    n = z.shape[0]
    s = z @ z.T / tau
    eye = torch.eye(n, dtype=torch.bool, device=z.device)
    same = labels[:, None] == labels[None, :]
    positive = same & ~eye
    negative = ~same
    neg_inf = float("-inf")
    negatives = torch.logsumexp(s.masked_fill(~negative, neg_inf), dim=1, keepdim=True)
    log_ratio = s - torch.logaddexp(s, negatives)
    count = positive.sum(1)
    sup = -(log_ratio * positive).sum(1) / count
    cnce = torch.logsumexp(s.masked_fill(~positive, neg_inf), dim=1) - s.gather(1, partner[:, None]).squeeze(1)
    return (1 - alpha) * sup.mean() + alpha * cnce.mean()


def supcon_loss(z, labels, tau):
    """SupCon L_out (seed 001) over all anchors a != i."""
    n = z.shape[0]
    s = z @ z.T / tau
    eye = torch.eye(n, dtype=torch.bool, device=z.device)
    positive = (labels[:, None] == labels[None, :]) & ~eye
    log_prob = s - torch.logsumexp(s.masked_fill(eye, float("-inf")), dim=1, keepdim=True)
    return (-(log_prob * positive).sum(1) / positive.sum(1)).mean()


def supcontrast_supcon_loss(features, labels, temperature, base_temperature):
    """SupContrast's SupConLoss.forward (github.com/HobbitLong/SupContrast, losses.py; contrast_mode
    "all"), rewritten here from its math, with its dense float masks and its sequence of N x N
    tensors, so that it costs what it costs there: features [bsz, n_views, dim], labels [bsz].

    The rows are the views stacked view by view (N = n_views * bsz); the similarities over the
    temperature, each row's maximum subtracted (detached, for stability); the log-probability of
    each other row against all rows but the anchor itself; its mean over the anchor's positives
    (same label, not itself); the loss is that mean, negated, scaled by temperature /
    base_temperature and averaged over all N anchors. base_temperature = temperature gives L_out.
    """
    bsz, n_views = features.shape[0], features.shape[1]
    n = bsz * n_views
    rows = torch.cat(torch.unbind(features, dim=1), dim=0)
    same_label = labels.reshape(-1, 1).eq(labels.reshape(1, -1)).float().repeat(n_views, n_views)
    logits = torch.matmul(rows, rows.T) / temperature
    row_max, _ = logits.max(dim=1, keepdim=True)
    logits = logits - row_max.detach()
    others = torch.ones(n, n, device=features.device) - torch.eye(n, device=features.device)
    positives = same_label * others
    log_prob = logits - torch.log((torch.exp(logits) * others).sum(1, keepdim=True))
    mean_log_prob_positives = (positives * log_prob).sum(1) / positives.sum(1)
    return (-(temperature / base_temperature) * mean_log_prob_positives).mean()


def seconds_per_call(step):
    """The median of five timed batches of calls, each at least 0.05 s (as the C++ side)."""
    times = []
    for _ in range(5):
        calls = 0
        start = time.perf_counter()
        while True:
            step()
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= 0.05:
                break
        times.append(elapsed / calls)
    return sorted(times)[2]


def time_loss(loss_of, z0):
    z = z0.clone().requires_grad_(True)

    def step():
        z.grad = None
        loss_of(z).backward()

    seconds = seconds_per_call(step)
    z.grad = None
    loss = loss_of(z)
    loss.backward()
    return {"seconds": seconds, "loss": loss.item(), "grad_norm": z.grad.norm().item()}


# ---- the CNN recipe of geomsim train (src/train/models/encoders.cpp, augmentations.cpp, trainer.cpp) ----

def cnn_encoder(form, embedding_dim=128, width=128, side=28):
    def block(conv):  # conv - ReLU - pool, or geomsim's pool - ReLU (the same function)
        if form == "geomsim":
            return [conv, torch.nn.MaxPool2d(2), torch.nn.ReLU()]
        return [conv, torch.nn.ReLU(), torch.nn.MaxPool2d(2)]
    encoder = torch.nn.Sequential(
        *block(torch.nn.Conv2d(1, 32, 3, padding=1)), *block(torch.nn.Conv2d(32, 64, 3, padding=1)),
        torch.nn.Flatten(), torch.nn.Linear(64 * (side // 4) ** 2, width), torch.nn.ReLU(),
        torch.nn.Linear(width, embedding_dim))
    if form == "geomsim":
        encoder = encoder.to(memory_format=torch.channels_last)
    return encoder


def keep_freed_memory():
    """glibc's mallopt as src/train/training/allocator_settings.cpp calls it."""
    libc = ctypes.CDLL("libc.so.6")
    M_TRIM_THRESHOLD, M_TOP_PAD, M_MMAP_THRESHOLD = -1, -2, -3
    for option, value in ((M_MMAP_THRESHOLD, 1 << 30), (M_TRIM_THRESHOLD, 1 << 30), (M_TOP_PAD, 64 << 20)):
        if libc.mallopt(option, value) != 1:
            raise RuntimeError(f"mallopt({option}, {value}) failed")


def augment(images, max_shift=2, brightness=0.2, contrast=0.2, noise_std=0.02):
    """geomsim's default augmentations, batched on the images' device (no host sync)."""
    b, _, h, w = images.shape
    s = max_shift
    device = images.device
    padded = F.pad(images, (s, s, s, s))
    # A random crop per image: the rows dy..dy+h and columns dx..dx+w of its padded copy.
    dy = torch.randint(0, 2 * s + 1, (b, 1), device=device)
    dx = torch.randint(0, 2 * s + 1, (b, 1), device=device)
    rows = (dy + torch.arange(h, device=device))[:, None, :, None]
    cols = (dx + torch.arange(w, device=device))[:, None, None, :]
    x = padded.gather(2, rows.expand(b, padded.shape[1], h, padded.shape[3]))
    x = x.gather(3, cols.expand(b, padded.shape[1], h, w))

    def per_sample(lo, hi):
        return torch.rand(b, 1, 1, 1, device=device) * (hi - lo) + lo

    flip = torch.rand(b, 1, 1, 1, device=device).lt(0.5)
    x = torch.where(flip, x.flip(3), x)
    mean = x.mean((1, 2, 3), keepdim=True)
    x = (x - mean) * per_sample(1 - contrast, 1 + contrast) + mean
    x = x + per_sample(-brightness, brightness)
    x = x + noise_std * torch.randn_like(x)
    return x.clamp(0.0, 1.0)


def synchronize(device):
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def cnn_epoch(samples, batch, seed, form, lr=1e-3, weight_decay=1e-4, tau=0.5, alpha=0.5, device="cpu", compiled=False,
              warmup_epochs=0):
    """The CNN recipe for `warmup_epochs` untimed epochs, then one timed epoch. compiled: the
    encoder through torch.compile (its compilation falls in the warm-up)."""
    if form not in ("textbook", "geomsim"):
        raise ValueError("the CNN's form is textbook or geomsim, not " + form)
    if form == "geomsim":
        keep_freed_memory()
    device = torch.device(device)
    torch.manual_seed(seed)
    images = torch.rand(samples, 1, 28, 28).to(device)
    labels = torch.randint(0, 2, (samples,)).to(device)
    encoder = cnn_encoder(form).to(device)
    optimizer = torch.optim.AdamW(encoder.parameters(), lr=lr, weight_decay=weight_decay)
    forward = torch.compile(encoder) if compiled else encoder
    partner = torch.remainder(torch.arange(2 * batch, device=device) + batch, 2 * batch)
    steps = samples // batch
    encoder.train()

    def epoch():
        order = torch.randperm(samples, device=device)
        total = torch.zeros((), device=device)
        for step in range(steps):
            for group in optimizer.param_groups:
                group["lr"] = 0.5 * lr * (1 + math.cos(math.pi * step / steps))
            idx = order[step * batch:(step + 1) * batch]
            x = images.index_select(0, idx)
            y = labels.index_select(0, idx)
            views = torch.cat([augment(x), augment(x)])
            z = F.normalize(forward(views), dim=1)
            loss = spread_loss(z, torch.cat([y, y]), partner, tau, alpha)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.detach()
        return total

    for _ in range(warmup_epochs):
        epoch()
    synchronize(device)
    start = time.perf_counter()
    total = epoch().item()  # the one read-back of the epoch
    seconds = time.perf_counter() - start
    return {"samples_per_second": steps * batch / seconds, "seconds": seconds, "loss": total / steps}


def cnn_peer_rows(device, batches, samples_per_batch, compiled_too):
    """The GPU check's PyTorch peer (tests/gpu/gpu_check.sh): per batch size, samples per second of
    the CNN recipe on `device`, eager and (compiled_too) through torch.compile, over
    samples_per_batch x batch random images, after one warm-up epoch; the same work as
    tests/gpu/gpu_bench.cpp's training rows (their second epoch of two)."""
    rows = []
    for batch in batches:
        samples = samples_per_batch * batch
        row = {"batch": batch, "images": samples, "device": str(device), "torch": torch.__version__,
               "eager_samples_per_second": cnn_epoch(samples, batch, 0, "textbook", device=device, warmup_epochs=1)["samples_per_second"]}
        if compiled_too:
            try:
                row["compiled_samples_per_second"] = cnn_epoch(samples, batch, 0, "textbook", device=device, compiled=True,
                                                               warmup_epochs=1)["samples_per_second"]
            except Exception as error:  # torch.compile needs a compiler toolchain; say why it is missing
                row["compiled_samples_per_second"] = None
                row["compiled_error"] = f"{type(error).__name__}: {str(error)[:300]}"
        rows.append(row)
    return rows


def answer(words):
    if words[0] == "threads":
        torch.set_num_threads(int(words[1]))
        return {"threads": torch.get_num_threads()}
    if words[0] == "spread":
        n, d, classes, tau, alpha, seed = int(words[1]), int(words[2]), int(words[3]), float(words[4]), float(words[5]), int(words[6])
        z, labels, partner = two_view_batch(n, d, classes, seed)
        return time_loss(lambda x: spread_loss(x, labels, partner, tau, alpha), z)
    if words[0] == "supcon":
        n, d, classes, tau, seed = int(words[1]), int(words[2]), int(words[3]), float(words[4]), int(words[5])
        z, labels, _ = two_view_batch(n, d, classes, seed)
        return time_loss(lambda x: supcon_loss(x, labels, tau), z)
    if words[0] == "cnn":
        return cnn_epoch(int(words[1]), int(words[2]), int(words[3]), words[4])
    raise ValueError("unknown request " + words[0])


def main():
    if len(sys.argv) > 1:  # the GPU check's peer: --cnn-peer DEVICE BATCH,BATCH,... SAMPLES_PER_BATCH OUT.json [--eager-only]
        if len(sys.argv) not in (6, 7) or sys.argv[1] != "--cnn-peer" or sys.argv[6:] not in ([], ["--eager-only"]):
            print("usage: pytorch_peers.py --cnn-peer DEVICE BATCH,BATCH,... SAMPLES_PER_BATCH OUT.json [--eager-only]", file=sys.stderr)
            sys.exit(2)
        try:
            batches = [int(b) for b in sys.argv[3].split(",")]
            samples_per_batch = int(sys.argv[4])
            if min(batches) < 2 or samples_per_batch < 1:
                raise ValueError
        except ValueError:
            print("pytorch_peers: BATCH,... must be whole numbers >= 2 and SAMPLES_PER_BATCH one >= 1, got "
                  f"'{sys.argv[3]}' and '{sys.argv[4]}'", file=sys.stderr)
            sys.exit(2)
        try:
            device = torch.device(sys.argv[2])
        except RuntimeError:
            print(f"pytorch_peers: DEVICE must be a torch device (cpu, cuda, cuda:N), got '{sys.argv[2]}'", file=sys.stderr)
            sys.exit(2)
        if device.type == "cuda" and not torch.cuda.is_available():
            print("pytorch_peers: no CUDA device here", file=sys.stderr)
            sys.exit(77)  # skipped, as the GPU benchmark says it
        rows = cnn_peer_rows(device, batches, samples_per_batch, sys.argv[6:] != ["--eager-only"])
        with open(sys.argv[5], "w") as f:
            json.dump(rows, f, indent=2)
        print(json.dumps(rows))
        return
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        try:
            reply = answer(words)
        except Exception as error:  # reported to the benchmark, which fails the run with it
            reply = {"error": f"{type(error).__name__}: {error}"}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""geomsim.torch's contrastive losses beside their PyTorch peers (issue 48), in one run.

    python3 tests/benchmarks/loss_peers/bench_contrastive_losses.py [--batch-sizes 1024,4096]
        [--memory-batch-sizes 16384,65536] [--threads 2] [--rounds 3] [--json OUT.json] [--page OUT.md]
    python3 tests/benchmarks/loss_peers/bench_contrastive_losses.py --smoke
    python3 tests/benchmarks/loss_peers/bench_contrastive_losses.py --from-json RUN.json --page OUT.md [--check]

On the CPU, float32, two views of B samples (N = 2B rows) of dimension d = 128 drawn from
`--classes` classes, forward + backward, the best of `--rounds` timed calls after one untimed call,
at each B of --batch-sizes:

  SupCon L_out   geomsim.torch.SupConLoss(temperature) on features [B, 2, d];
                 SupContrast's formula (tests/benchmarks/pytorch_peers.py, supcontrast_supcon_loss)
                 with base_temperature = temperature, on the same features;
                 pytorch-metric-learning's SupConLoss(temperature) on embeddings [2B, d] (the views
                 stacked view by view) with the labels repeated.
  L_spread       geomsim.torch.SpreadLoss(alpha, tau) on features [B, 2, d];
                 the PyTorch formula of tests/benchmarks/pytorch_peers.py (spread_loss) on [2B, d].

Every measurement runs in a fresh process (this script with --child), which imports only what its
side needs and reports its own peak resident memory (VmHWM of /proc/self/status): the whole Python
process, torch included. A baseline process (torch imported, the batch made, no loss) is measured
at each B for scale. The memory rows (--memory-batch-sizes) run geomsim's two losses alone, one
forward + backward each, and set the peak against --memory-target-gb; every process runs under an
address-space limit (--memory-cap-gb), so that a loss that would not fit fails alone instead of
taking the machine's memory. Ratios are peer seconds / geomsim seconds of this run.

The check: at each B every peer's loss and gradient must equal geomsim's to a relative 1e-4
(float32): the loss value, the norm of the gradient's tangential part (pytorch-metric-learning
normalises its embeddings, which removes the radial part of its gradient; the others keep it) and
that part's projection on a fixed random direction. Any disagreement or failed timing process
exits 1; a memory row over its target is reported, not a failure.

The environment comes from setup_env.sh beside this script (torch 2.11.0 from .ci/torch-venv,
pytorch-metric-learning 2.9.0 pinned in a folder of its own, geomsim's Python package built against
that torch); this script itself needs only Python's standard library. --json writes every number;
--page writes the docs page (docs/benchmarks/contrastive-losses.md) from the run's numbers, or from
--from-json's. --smoke (CI) runs everything at B = 64 and one memory row at B = 128, one round: it
proves that the sides run and agree, not their speed. Timings are wall clock on whatever else the
machine is running (the page records the load average): compare rows of one run only.
"""
import argparse
import datetime
import json
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
PEERS_DIR = os.path.normpath(os.path.join(HERE, ".."))
TOLERANCE = 1e-4
MB = 1024 * 1024

# The sides of each loss, geomsim's first: (key, the name printed).
SIDES = {
    "supcon": [("geomsim", "geomsim.torch.SupConLoss"),
               ("supcontrast", "SupContrast's formula"),
               ("pml", "pytorch-metric-learning SupConLoss")],
    "spread": [("geomsim", "geomsim.torch.SpreadLoss"),
               ("pytorch", "PyTorch formula (pytorch_peers.spread_loss)")],
}
LOSS_NAMES = {"supcon": "SupCon L_out", "spread": "L_spread"}


# ---------------------------------------------------------------- the measuring process (--child)

def child(spec):
    """One measurement in this fresh process: prints one JSON line."""
    import resource
    cap = int(spec["memory_cap_gb"] * 1024 ** 3)
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    import torch
    import torch.nn.functional as F
    torch.set_num_threads(spec["threads"])
    b, d, side, loss = spec["batch"], spec["dim"], spec["side"], spec["loss"]
    n = 2 * b

    # The batch: two views of B samples, rows on the unit sphere, labels from the classes.
    generator = torch.Generator().manual_seed(spec["seed"])
    features0 = F.normalize(torch.randn(b, 2, d, generator=generator), dim=-1)
    labels = torch.randint(0, spec["classes"], (b,), generator=generator)
    probe = torch.randn(n, d, generator=generator)  # the fixed direction of the gradient check

    def view_major(x):  # [B, 2, d] -> [2B, d]: all first views, then all second views
        return torch.cat(torch.unbind(x, dim=1), dim=0)

    if side == "baseline":
        return {"peak_rss_bytes": peak_rss_bytes()}
    if side == "geomsim":
        import geomsim
        import geomsim.torch as gt
        criterion = (gt.SupConLoss(temperature=spec["temperature"]) if loss == "supcon"
                     else gt.SpreadLoss(alpha=spec["alpha"], tau=spec["tau"]))
        leaf, call, to_rows = features0.clone(), (lambda x: criterion(x, labels)), view_major
        version = geomsim.__version__
    elif side == "supcontrast":
        sys.path.insert(0, PEERS_DIR)
        from pytorch_peers import supcontrast_supcon_loss
        t = spec["temperature"]
        leaf, call, to_rows = features0.clone(), (lambda x: supcontrast_supcon_loss(x, labels, t, t)), view_major
        version = None
    elif side == "pml":
        import pytorch_metric_learning
        from pytorch_metric_learning.losses import SupConLoss
        criterion = SupConLoss(temperature=spec["temperature"])
        labels_2b = labels.repeat(2)
        leaf, call, to_rows = view_major(features0), (lambda x: criterion(x, labels_2b)), (lambda x: x)
        version = pytorch_metric_learning.__version__
    elif side == "pytorch":
        sys.path.insert(0, PEERS_DIR)
        from pytorch_peers import spread_loss
        labels_2b = labels.repeat(2)
        partner = torch.remainder(torch.arange(n) + b, n)
        alpha, tau = spec["alpha"], spec["tau"]
        leaf, call, to_rows = view_major(features0), (lambda x: spread_loss(x, labels_2b, partner, tau, alpha)), (lambda x: x)
        version = None
    else:
        raise ValueError(f"unknown side {side}")
    leaf = leaf.contiguous().requires_grad_(True)

    def step():
        leaf.grad = None
        value = call(leaf)
        value.backward()
        return value

    start = time.perf_counter()
    value = step().item()
    first_seconds = time.perf_counter() - start
    z, g = view_major(features0), to_rows(leaf.grad)
    tangential = g - (g * z).sum(1, keepdim=True) * z
    seconds = []
    for _ in range(spec["rounds"]):
        start = time.perf_counter()
        step()
        seconds.append(time.perf_counter() - start)
    return {"value": value, "grad_norm": tangential.norm().item(),
            "grad_probe": (tangential * probe).sum().item(), "probe_norm": probe.norm().item(),
            "first_call_seconds": first_seconds, "seconds": seconds,
            "best_seconds": min(seconds) if seconds else None,
            "threads": torch.get_num_threads(), "torch": torch.__version__, "version": version,
            "peak_rss_bytes": peak_rss_bytes()}


def peak_rss_bytes():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


# ---------------------------------------------------------------- the run

def environment(args):
    """setup_env.sh's python, site and geomsim folders."""
    command = ["bash", os.path.join(HERE, "setup_env.sh")]
    if args.geomsim_build:
        command += ["--geomsim-build", os.path.abspath(args.geomsim_build)]
    start = time.perf_counter()
    run = subprocess.run(command, stdout=subprocess.PIPE, text=True)
    if run.returncode != 0:
        raise SystemExit(f"bench_contrastive_losses: setup_env.sh failed (exit {run.returncode})")
    found = dict(line.split("=", 1) for line in run.stdout.splitlines() if "=" in line)
    found["setup_seconds"] = time.perf_counter() - start
    return found


def measure(env, spec, timeout):
    """Runs one --child process; returns its JSON, or {"error": ...}."""
    child_env = dict(os.environ)
    child_env["PYTHONPATH"] = os.pathsep.join([env["geomsim"], env["site"]])
    for variable in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        child_env[variable] = str(spec["threads"])
    child_env["PYTHONDONTWRITEBYTECODE"] = "1"
    command = [env["python"], os.path.abspath(__file__), "--child", json.dumps(spec)]
    start = time.perf_counter()
    try:
        run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=child_env, cwd=tempfile.gettempdir(), timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout} s"}
    result = {"process_seconds": time.perf_counter() - start}
    lines = run.stdout.strip().splitlines()
    if run.returncode != 0 or not lines:
        tail = run.stderr.strip().splitlines()[-1:] or [f"exit {run.returncode}"]
        if "can't allocate memory" in tail[0] or "MemoryError" in tail[0]:
            result["error"] = f"out of memory under the {spec['memory_cap_gb']:g} GB address-space cap (--memory-cap-gb)"
        else:
            result["error"] = f"exit {run.returncode}: {tail[0]}"
        return result
    result.update(json.loads(lines[-1]))
    return result


def relative(a, b):
    return abs(a - b) / abs(b) if b != 0 else abs(a - b)


def agreement(reference, peer):
    """The check's three relative differences of a peer against geomsim."""
    scale = reference["grad_norm"] * reference["probe_norm"]
    return {"value": relative(peer["value"], reference["value"]),
            "grad_norm": relative(peer["grad_norm"], reference["grad_norm"]),
            "grad_probe": abs(peer["grad_probe"] - reference["grad_probe"]) / scale if scale else 0.0}


def machine():
    model, flags = "unknown", set()
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name") and model == "unknown":
                    model = line.split(":", 1)[1].strip()
                if line.startswith("flags") and not flags:
                    flags = set(line.split(":", 1)[1].split())
    except OSError:
        pass
    # The vector extensions geomsim's run-time dispatch looks for (include/geomsim/support/cpu_level.hpp).
    vectors = [name for name, needs in (("AVX2+FMA", {"avx2", "fma"}),
                                        ("AVX-512 (F, VL, DQ, BW)", {"avx512f", "avx512vl", "avx512dq", "avx512bw"}))
               if needs <= flags]
    return {"cpu": model, "vectors": vectors, "cores": os.cpu_count(), "memory_gb": round(os.sysconf("SC_PAGE_SIZE") *
            os.sysconf("SC_PHYS_PAGES") / 1024 ** 3, 1), "kernel": platform.release()}


def build_kind(build):
    """"native" or "portable", from the build folder's CMakeCache.txt (GEOMSIM_NATIVE)."""
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as cache:
            for line in cache:
                if line.startswith("GEOMSIM_NATIVE:"):
                    return "native" if line.strip().split("=", 1)[1].upper() in ("ON", "1", "TRUE", "YES") else "portable"
    except OSError:
        pass
    return "unknown"


def git(*words):
    run = subprocess.run(["git", "-C", ROOT, *words], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return run.stdout.strip() if run.returncode == 0 else None


def progress(message):
    if sys.stderr.isatty():
        print(message, file=sys.stderr, flush=True)


def run_benchmark(args, argv):
    env = environment(args)
    started = datetime.datetime.now(datetime.timezone.utc)
    run = {
        "command": command_line(argv),
        "date": started.strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "load_average_before": list(os.getloadavg()),
        "commit": git("rev-parse", "--short=9", "HEAD"),
        "tracked_changes": bool(git("status", "--porcelain", "--untracked-files=no")),
        "geomsim_build": os.path.relpath(os.path.dirname(env["geomsim"]), ROOT),
        "geomsim_build_kind": build_kind(os.path.dirname(env["geomsim"])),
        "geomsim_cpu": os.environ.get("GEOMSIM_CPU", ""),
        "setup_seconds": env["setup_seconds"],
        "parameters": {key: getattr(args, key) for key in
                       ("batch_sizes", "memory_batch_sizes", "threads", "rounds", "dim", "classes", "temperature",
                        "tau", "alpha", "seed", "memory_target_gb", "memory_cap_gb", "smoke")},
        "rows": [], "memory_rows": [], "baselines": [],
    }
    base = {key: getattr(args, key) for key in ("threads", "dim", "classes", "temperature", "tau", "alpha", "seed",
                                                "memory_cap_gb")}
    for b in args.batch_sizes:
        progress(f"B = {b}: baseline")
        baseline = measure(env, dict(base, batch=b, side="baseline", loss=None, rounds=0), args.timeout)
        run["baselines"].append(dict(batch=b, **baseline))
        for loss, sides in SIDES.items():
            for side, _ in sides:
                progress(f"B = {b}: {loss}, {side}")
                result = measure(env, dict(base, batch=b, side=side, loss=loss, rounds=args.rounds), args.timeout)
                run["rows"].append(dict(loss=loss, side=side, batch=b, **result))
    for b in args.memory_batch_sizes:
        for loss in SIDES:
            progress(f"B = {b}: memory, {loss}")
            result = measure(env, dict(base, batch=b, side="geomsim", loss=loss, rounds=0), args.timeout)
            run["memory_rows"].append(dict(loss=loss, side="geomsim", batch=b, **result))
    run["load_average_after"] = list(os.getloadavg())
    versions = {}
    for row in run["rows"]:
        if "torch" in row:
            versions["torch"] = row["torch"]
        if row.get("version"):
            versions[row["side"]] = row["version"]
    run["versions"] = versions
    return run


def command_line(argv):
    script = os.path.relpath(os.path.abspath(__file__), ROOT)
    return shlex.join(["python3", script] + argv)


# ---------------------------------------------------------------- reading a run: the check, the table, the page

def checks(run):
    """[(loss, batch, side, {value, grad_norm, grad_probe} or None, error or None)], the peers against geomsim."""
    found = []
    for loss, sides in SIDES.items():
        for b in run["parameters"]["batch_sizes"]:
            rows = {r["side"]: r for r in run["rows"] if r["loss"] == loss and r["batch"] == b}
            reference = rows.get("geomsim", {})
            for side, _ in sides[1:]:
                peer = rows.get(side, {})
                error = reference.get("error") or peer.get("error")
                if error or not reference or not peer:
                    found.append((loss, b, side, None, error or "not measured"))
                else:
                    found.append((loss, b, side, agreement(reference, peer), None))
    return found


def failures(run):
    faults = [f"{LOSS_NAMES[r['loss']]} B = {r['batch']} {r['side']}: {r['error']}" for r in run["rows"] if "error" in r]
    faults += [f"baseline B = {r['batch']}: {r['error']}" for r in run["baselines"] if "error" in r]
    for loss, b, side, diff, error in checks(run):
        if diff and max(diff.values()) > TOLERANCE:
            faults.append(f"{LOSS_NAMES[loss]} B = {b}: {side} disagrees with geomsim by a relative "
                          f"{max(diff.values()):.2e} (> {TOLERANCE:g}): {format_diff(diff)}")
    if run["parameters"]["smoke"]:  # the smoke's memory rows must run too
        faults += [f"memory B = {r['batch']} {r['loss']}: {r['error']}" for r in run["memory_rows"] if "error" in r]
    return faults


def format_diff(diff):
    return f"value {diff['value']:.1e}, gradient norm {diff['grad_norm']:.1e}, gradient probe {diff['grad_probe']:.1e}"


def side_name(loss, side, run):
    name = dict(SIDES[loss])[side]
    if side == "pml" and run.get("versions", {}).get("pml"):
        name += " " + run["versions"]["pml"]
    return name


def seconds_text(row):
    if "error" in row:
        return f"failed ({row['error']})"
    return f"{row['best_seconds']:.4f}" if row["best_seconds"] < 1 else f"{row['best_seconds']:.3f}"


def timing_table(run):
    """Markdown rows of the timing table."""
    lines = ["| loss | B | N | side | seconds | peer / geomsim | peak RSS | loss value |",
             "|---|---|---|---|---|---|---|---|"]
    for b in run["parameters"]["batch_sizes"]:
        base = next((r for r in run["baselines"] if r["batch"] == b), {})
        if "peak_rss_bytes" in base:
            lines.append(f"| baseline | {b} | {2 * b} | torch imported, the batch made, no loss | | | "
                         f"{base['peak_rss_bytes'] / MB:.0f} MB | |")
        for loss, sides in SIDES.items():
            rows = {r["side"]: r for r in run["rows"] if r["loss"] == loss and r["batch"] == b}
            reference = rows.get("geomsim", {})
            for side, _ in sides:
                row = rows.get(side)
                if row is None:
                    continue
                ratio = ""
                if side != "geomsim" and "error" not in row and reference.get("best_seconds"):
                    ratio = f"{row['best_seconds'] / reference['best_seconds']:.2f}×"
                rss = f"{row['peak_rss_bytes'] / MB:.0f} MB" if "peak_rss_bytes" in row else ""
                value = f"{row['value']:.6f}" if "value" in row else ""
                lines.append(f"| {LOSS_NAMES[loss]} | {b} | {2 * b} | {side_name(loss, side, run)} | "
                             f"{seconds_text(row)} | {ratio} | {rss} | {value} |")
    return lines


def memory_table(run):
    target = run["parameters"]["memory_target_gb"]
    lines = ["| loss | B | N | side | peak RSS | target | one forward + backward |", "|---|---|---|---|---|---|---|"]
    for row in run["memory_rows"]:
        if "error" in row:
            peak, verdict, seconds = f"failed ({row['error']})", "", ""
        else:
            gb = row["peak_rss_bytes"] / 1024 ** 3
            peak = f"{gb:.2f} GB"
            verdict = f"≤ {target:g} GB: {'met' if gb <= target else 'missed'}" if row["batch"] <= 16384 else "runs"
            seconds = f"{row['first_call_seconds']:.1f} s"
        lines.append(f"| {LOSS_NAMES[row['loss']]} | {row['batch']} | {2 * row['batch']} | "
                     f"{dict(SIDES[row['loss']])['geomsim']} | {peak} | {verdict} | {seconds} |")
    return lines


def check_lines(run):
    lines = []
    for loss, b, side, diff, error in checks(run):
        what = f"{LOSS_NAMES[loss]}, B = {b}, {side_name(loss, side, run)} against geomsim"
        if error:
            lines.append(f"- {what}: not checked ({error})")
        else:
            verdict = "agrees" if max(diff.values()) <= TOLERANCE else "DISAGREES"
            lines.append(f"- {what}: {verdict} (relative differences: {format_diff(diff)})")
    return lines


def print_report(run):
    p = run["parameters"]
    print(f"contrastive losses: CPU float32, {p['threads']} threads, two views, d = {p['dim']}, "
          f"{p['classes']} classes, forward + backward, best of {p['rounds']}")
    print(f"torch {run['versions'].get('torch')}, pytorch-metric-learning {run['versions'].get('pml')}, "
          f"geomsim {run['versions'].get('geomsim')} ({run['geomsim_build']}), {run['machine']['cpu']}, "
          f"load average {run['load_average_before'][0]:.2f} before, {run['load_average_after'][0]:.2f} after")
    for line in timing_table(run) + ([""] + memory_table(run) if run["memory_rows"] else []):
        if not line.startswith("|---"):
            print("  ".join(cell.strip() for cell in line.strip("|").split("|")))
    print(f"check (float32, relative {TOLERANCE:g}):")
    for line in check_lines(run):
        print("  " + line[2:])


def build_text(run):
    kind = run.get("geomsim_build_kind", "unknown")
    if kind == "native":
        return "a native build (GEOMSIM_NATIVE=ON: compiled for this CPU)"
    if kind == "portable":
        level = f"GEOMSIM_CPU={run['geomsim_cpu']}" if run.get("geomsim_cpu") else "GEOMSIM_CPU unset"
        return ("a portable build, as `pip install .` makes it, whose contrastive kernels run at the highest "
                f"level the CPU has ({level})")
    return "a build of unknown kind"


def busy_text(run):
    load = max(run["load_average_before"][0], run["load_average_after"][0])
    if load < run["machine"]["cores"]:
        return ""
    return (f" **The machine was busy**: a load average of {load:.1f} on {run['machine']['cores']} cores means other "
            "work shared them, so every time here is slower and noisier than on a quiet machine.")


def page(run):
    p = run["parameters"]
    v = run["versions"]
    m = run["machine"]
    load = f"{run['load_average_before'][0]:.2f} when it started and {run['load_average_after'][0]:.2f} when it ended"
    commit = run["commit"] + (" with uncommitted changes" if run["tracked_changes"] else "")
    lines = [
        "# Contrastive losses against their PyTorch peers",
        "",
        "<!-- Generated by tests/benchmarks/loss_peers/bench_contrastive_losses.py --page from one run's JSON: "
        "do not edit; rerun the command below. -->",
        "",
        "geomsim.torch's SupCon and L_spread losses beside the PyTorch code a user would otherwise run "
        "(issue 48): seconds for one forward + backward, and the peak resident memory of the whole "
        "Python process. Back to [the benchmarks](../benchmarks.md).",
        "",
        f"**One run.** Every number on this page is from one run of the command below, on {run['date']}, "
        f"at geomsim commit {commit}, with geomsim's Python package from `{run['geomsim_build']}/`, "
        f"{build_text(run)}. "
        f"Machine: {m['cpu']} ({', '.join(m['vectors']) or 'neither AVX2 nor AVX-512'}), {m['cores']} cores, "
        f"{m['memory_gb']:g} GB of memory, Linux {m['kernel']}; "
        f"the load average was {load}. torch {v.get('torch')} (CPU), pytorch-metric-learning {v.get('pml')}, "
        f"geomsim {v.get('geomsim')}. Timings are wall clock: compare the rows of this run with each other, "
        "not with other runs." + busy_text(run),
        "",
        "```sh",
        run["command"],
        "```",
        "",
        "The benchmark's environment (`tests/benchmarks/loss_peers/setup_env.sh`, which the command runs): "
        "the torch environment of `.ci/torch-venv`, pytorch-metric-learning pinned in a folder of its own, "
        "and geomsim's Python package built against that torch.",
        "",
        "## Time and memory",
        "",
        f"CPU, float32, {p['threads']} threads, two views of B samples (N = 2B rows) of dimension d = {p['dim']}, "
        f"labels from {p['classes']} classes, rows on the unit sphere; forward + backward, the best of "
        f"{p['rounds']} timed calls after one untimed call. Peak RSS is the process's own (VmHWM), torch "
        "included; the baseline is a process that imported torch and made the batch. The ratio is the "
        "peer's seconds over geomsim's in this run.",
        "",
        f"- SupCon L_out at temperature {p['temperature']:g}: geomsim.torch.SupConLoss on features [B, 2, d]; "
        "SupContrast's `SupConLoss.forward` (github.com/HobbitLong/SupContrast), its formula rewritten in "
        "`tests/benchmarks/pytorch_peers.py` with base_temperature = temperature; pytorch-metric-learning's "
        "`SupConLoss(temperature)` on embeddings [2B, d] with the labels repeated (it normalises the "
        "embeddings itself, as its default cosine similarity does).",
        f"- L_spread (seed 004, eq. 10) at α = {p['alpha']:g}, τ = {p['tau']:g}: geomsim.torch.SpreadLoss "
        "against the PyTorch formula `spread_loss` of `tests/benchmarks/pytorch_peers.py`.",
        "",
    ]
    lines += timing_table(run)
    if run["memory_rows"]:
        lines += [
            "",
            "## Memory at large batches",
            "",
            f"geomsim's losses alone at large B: one forward + backward in a fresh process, its peak RSS "
            f"(the target at B = 16384: at most {p['memory_target_gb']:g} GB; B = 65536 must run on the "
            f"{m['memory_gb']:g} GB machine). The peers are not run here: their N x N matrices alone "
            "would take several GB at B = 16384.",
            "",
        ]
        lines += memory_table(run)
    lines += [
        "",
        "## The check",
        "",
        f"On each batch every peer's loss value, the norm of its gradient's tangential part and that part's "
        f"projection on a fixed random direction equal geomsim's to a relative {TOLERANCE:g} (float32), "
        "or the run fails:",
        "",
    ]
    lines += check_lines(run)
    return "\n".join(lines) + "\n"


def write_atomic(path, text):
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=os.path.basename(path) + ".tmp.")
    with os.fdopen(handle, "w", encoding="utf-8") as f:
        f.write(text)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temporary, 0o666 & ~umask)  # a file's usual mode, not mkstemp's 0600
    os.replace(temporary, path)


def batch_list(text):
    try:
        sizes = [int(word) for word in text.split(",") if word.strip()] if text.strip() else []
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a comma-separated list of whole numbers, got '{text}'") from None
    if any(b < 2 for b in sizes):
        raise argparse.ArgumentTypeError(f"every batch size must be >= 2, got '{text}'")
    return sizes


def positive(kind):
    def parse(text):
        value = kind(text)
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be > 0, got {text}")
        return value
    return parse


def main(argv):
    if argv[:1] == ["--child"]:
        print(json.dumps(child(json.loads(argv[1]))), flush=True)
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batch-sizes", type=batch_list, default=[1024, 4096], help="B of the timed rows (default 1024,4096)")
    parser.add_argument("--memory-batch-sizes", type=batch_list, default=[16384, 65536],
                        help="B of geomsim's memory rows (default 16384,65536; give 16384 to leave out the slow 65536, "
                             "or '' for none)")
    parser.add_argument("--threads", type=positive(int), default=2, help="torch's threads (default 2)")
    parser.add_argument("--rounds", type=positive(int), default=3, help="timed calls, the best kept (default 3)")
    parser.add_argument("--dim", type=positive(int), default=128, help="d (default 128)")
    parser.add_argument("--classes", type=positive(int), default=10, help="labels drawn from this many classes (default 10)")
    parser.add_argument("--temperature", type=positive(float), default=0.1, help="SupCon's temperature (default 0.1)")
    parser.add_argument("--tau", type=positive(float), default=0.5, help="L_spread's tau (default 0.5)")
    parser.add_argument("--alpha", type=float, default=0.5, help="L_spread's alpha in [0, 1] (default 0.5)")
    parser.add_argument("--seed", type=int, default=0, help="the batch's seed (default 0)")
    parser.add_argument("--memory-target-gb", type=positive(float), default=1.5, help="the target at B <= 16384 (default 1.5)")
    parser.add_argument("--memory-cap-gb", type=positive(float), default=16.0,
                        help="each process's address-space limit, so that a loss too large fails alone (default 16)")
    parser.add_argument("--timeout", type=positive(int), default=1800, help="seconds per process (default 1800)")
    parser.add_argument("--geomsim-build", help="an existing build folder whose python/ holds geomsim.torch for torch 2.11 "
                                                "(default: setup_env.sh builds build-loss-bench/)")
    parser.add_argument("--smoke", action="store_true", help="B = 64, a memory row at B = 128, one round (CI)")
    parser.add_argument("--json", metavar="OUT", help="write the run's numbers as JSON")
    parser.add_argument("--page", metavar="OUT.md", help="write the docs page from the run (or --from-json's)")
    parser.add_argument("--from-json", metavar="RUN", help="measure nothing: read a run written by --json")
    parser.add_argument("--check", action="store_true", help="with --from-json and --page: exit 1 if the page differs")
    args = parser.parse_args(argv)
    if not 0 <= args.alpha <= 1:
        parser.error(f"--alpha must be in [0, 1], got {args.alpha:g}")
    if args.check and not (args.from_json and args.page):
        parser.error("--check needs --from-json and --page")
    if args.smoke:
        args.batch_sizes, args.memory_batch_sizes, args.rounds = [64], [128], 1

    if args.from_json:
        with open(args.from_json, encoding="utf-8") as f:
            run = json.load(f)
    else:
        run = run_benchmark(args, argv)
        if args.json:
            write_atomic(args.json, json.dumps(run, indent=1) + "\n")
    print_report(run)
    if args.page:
        text = page(run)
        if args.check:
            with open(args.page, encoding="utf-8") as f:
                if f.read() != text:
                    print(f"bench_contrastive_losses: {args.page} is not the page of {args.from_json}: regenerate it "
                          f"with --from-json {args.from_json} --page {args.page}")
                    return 1
        else:
            write_atomic(args.page, text)
    faults = failures(run)
    for fault in faults:
        print(f"bench_contrastive_losses: {fault}")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

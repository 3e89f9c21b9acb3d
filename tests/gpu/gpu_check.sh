#!/usr/bin/env bash
# The GPU check, in one command, on a machine with an NVIDIA GPU and PyTorch with CUDA (torch
# 2.11.0+cu130 is what it was written against) but none of geomsim's Debian packages and no
# network:
#   bash tests/gpu/gpu_check.sh --out DIR [--debs DIR] [--fashion-mnist DIR] [--build DIR]
# It builds geomsim against that machine's own torch (Torch_DIR from `python3 -c 'import torch;
# print(torch.utils.cmake_prefix_path)'`, CUDA on), runs every ctest labelled gpu, the GPU
# benchmark (tests/gpu/gpu_bench.cpp), 30 s of an RLBFGS solve of N = 2 10^4 points in d = 128 on
# the GPU (`geomsim --device cuda`: its iterations a second), the PyTorch peer of its CNN training (eager and compiled,
# tests/benchmarks/pytorch_peers.py), geomsim.torch's losses on the GPU against the CPU
# (tests/gpu/torch_losses_cuda.py, where python3 has pybind11), and data-parallel training over NCCL when the machine has
# several GPUs; it writes DIR/gpu-check.json (everything measured, and each step's status, with
# training_phases: where a training step's time goes, per phase, from the benchmark's training
# rows) and the logs beside it.
#
# --debs DIR: Debian 12 .deb files of the core's build dependencies, which such a machine lacks.
#   Fetch them on any Debian 12 machine with `bash tests/gpu/download_debs.sh DIR`. Each is
#   unpacked with `dpkg -x` (no installation, no root) into BUILD/debian-prefix, which CMake
#   searches first (CMAKE_PREFIX_PATH); the two shared libraries among them (NLopt, Boost
#   iostreams) are found there at run time through the build tree's RPATH.
# --fashion-mnist DIR: the four Fashion-MNIST .gz files, for the full-epoch timing on real
#   images (random images of the same shape otherwise).
set -uo pipefail
cd "$(dirname "$0")/../.."
out="" debs="" fashion="" build="build-gpu"
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --debs) debs="$2"; shift 2 ;;
    --fashion-mnist) fashion="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    *) echo "usage: bash tests/gpu/gpu_check.sh --out DIR [--debs DIR] [--fashion-mnist DIR] [--build DIR]" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] || { echo "gpu_check: --out DIR is required" >&2; exit 2; }
mkdir -p "$out" "$build"
out=$(cd "$out" && pwd)
status="$out/steps.tsv"
: >"$status"
step() {  # step NAME COMMAND...: run, log to $out/NAME.log, record the status and the seconds
  local name=$1 start rc
  shift
  start=$(date +%s%N)
  "$@" >"$out/$name.log" 2>&1
  rc=$?
  local ms=$(( ($(date +%s%N) - start) / 1000000 ))
  printf '%s\t%s\t%d.%03d\n' "$name" "$rc" $((ms / 1000)) $((ms % 1000)) >>"$status"
  echo "gpu_check: $name: exit $rc ($((ms / 1000)) s)"
  return $rc
}

python=$(command -v python3)
torch_cmake=$("$python" -c 'import torch; print(torch.utils.cmake_prefix_path)') || { echo "gpu_check: python3 has no torch" >&2; exit 2; }
{
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  "$python" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "devices", torch.cuda.device_count())'
  nvcc --version | tail -1
  c++ --version | head -1
  cmake --version | head -1
  nproc
} >"$out/machine.txt" 2>&1

prefix_args=()
if [ -n "$debs" ]; then
  prefix="$(cd "$build" && pwd)/debian-prefix"
  rm -rf "$prefix" && mkdir -p "$prefix"
  for deb in "$debs"/*.deb; do dpkg -x "$deb" "$prefix"; done
  # zlib1g-dev's libz.so points at Debian's /lib/x86_64-linux-gnu/libz.so.1.2.13: use this
  # machine's libz.so.1 instead.
  if [ -L "$prefix/usr/lib/x86_64-linux-gnu/libz.so" ] && [ ! -e "$prefix/usr/lib/x86_64-linux-gnu/libz.so" ]; then
    ln -sf "$(ls /lib/x86_64-linux-gnu/libz.so.1 /usr/lib/x86_64-linux-gnu/libz.so.1 2>/dev/null | head -1)" \
      "$prefix/usr/lib/x86_64-linux-gnu/libz.so"
  fi
  prefix_args=(-DCMAKE_PREFIX_PATH="$prefix/usr")
fi
nccl_include=$("$python" -c 'import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], "include"))' 2>/dev/null || true)
[ -n "$nccl_include" ] && export NCCL_INCLUDE_DIR="$nccl_include"
# pip's pybind11 keeps its CMake package inside site-packages, where find_package does not look.
pybind11_args=()
pybind11_dir=$("$python" -m pybind11 --cmakedir 2>/dev/null || true)
[ -n "$pybind11_dir" ] && pybind11_args=(-Dpybind11_DIR="$pybind11_dir")
generator=()
[ -f "$build/CMakeCache.txt" ] || { command -v ninja >/dev/null && generator=(-G Ninja); }
jobs=$(nproc)
# sm_90 (Hopper) and its PTX: what torch's CMake builds CUDA sources for (geomsim has none yet).
export TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-9.0+PTX}"
export CUBLAS_WORKSPACE_CONFIG=:4096:8  # deterministic cuBLAS (train/data/cuda_runtime.hpp)

built=1
if step configure cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "${prefix_args[@]}" \
  -DTorch_DIR="$torch_cmake/Torch" -DGEOMSIM_WITH_TORCH=ON -DGEOMSIM_WITH_CUDA=ON -DGEOMSIM_WITH_PYTHON=AUTO \
  -DPython3_EXECUTABLE="$python" "${pybind11_args[@]}" \
  -DGEOMSIM_BUILD_BENCHMARKS=OFF -DGEOMSIM_TORCH_PYTHON="$python"; then
  keep_going=(-k)  # past a failed file, so that one build shows every error
  [ -f "$build/build.ninja" ] && keep_going=(-k 0)
  targets=(geomsim geomsim-torch geomsim_gpu_tests geomsim_gpu_bench)
  # geomsim.torch, where this machine has pybind11 and Python's headers for its python3.
  torch_ops=0
  grep -q "geomsim.torch, the losses for PyTorch: ON" "$out/configure.log" && torch_ops=1 && targets+=(geomsim_python_package)
  step build cmake --build "$build" -j"$jobs" --target "${targets[@]}" -- "${keep_going[@]}"
  built=$?
fi

if [ $built -eq 0 ]; then
  # The checks first, then the timings, so that a run cut short has checked what it could.
  step gpu_tests ctest --test-dir "$build" -L gpu --verbose --timeout 600
  if [ $torch_ops -eq 1 ]; then
    step torch_losses_cuda env PYTHONPATH="$build/python" "$python" tests/gpu/torch_losses_cuda.py "$out/torch-losses-cuda.json"
  else
    printf 'torch_losses_cuda\tskipped: %s\t0\n' "$(grep -o 'geomsim.torch, the losses for PyTorch: .*' "$out/configure.log")" >>"$status"
  fi
  fashion_args=()
  [ -n "$fashion" ] && fashion_args=(--fashion-mnist "$fashion")
  step gpu_bench "$build/tests/geomsim_gpu_bench" --out "$out/gpu-bench.json" "${fashion_args[@]}"
  # PyTorch side by side (issue 49): the same CNN, L_spread, AdamW, batches and augmentations,
  # eager and through torch.compile, on 16 batches of random images after a warm-up epoch, as
  # gpu_bench's training rows; the report below divides geomsim's rate by each.
  step pytorch_peer "$python" tests/benchmarks/pytorch_peers.py --cnn-peer cuda 256,1024 16 "$out/pytorch-peer.json"
  step solve_n20000_d128 "$build/geomsim" --K 10 --ny 2000 --d 128 --alpha 0.64 --tau 0.5 --seeds 0 --restarts 0 \
    --max-seconds 30 --device cuda --json "$out/solve.json"
  gpus=$("$python" -c 'import torch; print(torch.cuda.device_count())')
  if [ "${gpus:-1}" -ge 2 ] && [ -n "$fashion" ]; then
    step nccl_data_parallel "$build/geomsim" train --nproc-per-node 2 --device cuda --model cnn --epochs 1 \
      --batch-size 256 --train-samples 8192 --test-samples 1000 --data "$fashion" --json "$out/nccl-train.json"
  else
    printf 'nccl_data_parallel\tskipped: %s GPU, Fashion-MNIST %s\t0\n' "$gpus" "${fashion:-not given}" >>"$status"
  fi
fi

# One JSON of everything: the steps, the machine, the benchmark's and the solve's results.
"$python" - "$out" <<'EOF'
import json, os, sys
out = sys.argv[1]
def read(name):
    path = os.path.join(out, name)
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
steps = []
with open(os.path.join(out, "steps.tsv")) as f:
    for line in f:
        name, rc, seconds = line.rstrip("\n").split("\t")
        steps.append({"step": name, "exit": rc, "seconds": float(seconds)})
with open(os.path.join(out, "machine.txt")) as f:
    machine = f.read().splitlines()
solve = read("solve.json")
def pytorch_peer(bench, peer):
    """Per batch size: geomsim's float32 CNN rate (gpu_bench's training rows) over PyTorch's."""
    if not peer:
        return None
    ours = {r["batch"]: r["samples_per_second"] for r in (bench or {}).get("training", [])
            if r.get("model") == "cnn" and r.get("precision") == "float32"}
    rows = []
    for r in peer:
        row = dict(r)
        mine = ours.get(r["batch"])
        row["geomsim_samples_per_second"] = mine
        for form in ("eager", "compiled"):
            theirs = r.get(form + "_samples_per_second")
            row["vs_pytorch_" + form] = mine / theirs if mine and theirs else None
        rows.append(row)
    return rows
def solve_summary(solve, bench):
    """The device solve's loss and pace: iterations a second against one objective + gradient of
    the GPU benchmark at the same N and d (the time the solver itself adds per iteration)."""
    if solve is None:
        return None
    runs = solve["result"]["runs"]
    iterations = sum(r.get("iterations", 0) for r in runs)
    seconds = solve["timing"]["seconds"]
    objective = next((r["objective_and_gradient_seconds"] for r in (bench or {}).get("objective", [])
                      if r.get("N") == solve["parameters"].get("N") and r.get("d") == solve["parameters"].get("d")), None)
    evaluations = sum(r.get("evaluations", 0) for r in runs)
    return {"parameters": solve["parameters"], "loss": solve["result"]["loss"],
            "geometry": solve["result"]["geometry"]["description"], "runs": runs, "seconds": seconds,
            "solver_device": solve["result"].get("solver_device"),
            "iterations_per_second": iterations / seconds if seconds else None,
            "objective_and_gradient_seconds": objective,
            "solver_seconds_per_iteration": (seconds - evaluations * objective) / iterations
            if objective and iterations else None}
def training_phases(bench):
    """gpu_bench's time of a training step by phase (ms per step, CUDA events), one row per run."""
    rows = [dict(r) for r in (bench or {}).get("training", []) if isinstance(r, dict)]
    epoch = (bench or {}).get("epoch")
    if isinstance(epoch, dict):
        rows.append(dict(epoch, model="cnn, full epoch", precision="float32"))
    keep = ("model", "batch", "precision", "samples_per_second", "phases_ms_per_step")
    return [{k: r.get(k) for k in keep} for r in rows if "phases_ms_per_step" in r]
report = {
    "machine": machine,
    "steps": steps,
    "benchmark": read("gpu-bench.json"),
    "solve": solve_summary(solve, read("gpu-bench.json")),
    "pytorch_peer": pytorch_peer(read("gpu-bench.json"), read("pytorch-peer.json")),
    "training_phases": training_phases(read("gpu-bench.json")),
    "nccl_train": read("nccl-train.json"),
    "torch_losses_cuda": read("torch-losses-cuda.json"),
}
with open(os.path.join(out, "gpu-check.json"), "w") as f:
    json.dump(report, f, indent=2)
print(json.dumps({s["step"]: s["exit"] for s in steps}))
EOF

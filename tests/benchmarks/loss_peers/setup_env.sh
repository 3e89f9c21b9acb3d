#!/usr/bin/env bash
# The environment of bench_contrastive_losses.py, made when missing (idempotent), without touching
# CI's torch environment. Prints three lines for the benchmark:
#   python=PATH     the torch 2.11.0 environment's interpreter (.ci/torch-venv: pinned torch, numpy, scipy)
#   site=DIR        pytorch-metric-learning and what its losses import, pinned below, installed with
#                   `pip install --target` into ~/.cache/geomsim/loss-bench-HASH/site (HASH: the pins'),
#                   made once and reused; it goes on PYTHONPATH, the torch environment is not changed
#   geomsim=DIR     the folder that holds the geomsim package (geomsim.torch built against torch 2.11)
#
# Usage: setup_env.sh [--geomsim-build DIR]
#   without it: the Python package as `pip install --no-build-isolation .` builds it (pyproject.toml's
#     settings: the module and the torch operators, portable, no training module, no tests), built
#     with CMake against the torch environment's interpreter into build-loss-bench/ of this checkout
#     ($GEOMSIM_LOSS_BENCH_BUILD), incrementally, through ccache where it is installed;
#   with it: an existing build folder whose python/ holds geomsim with its torch operators for torch
#     2.11 (CI's build-cuda), which is used as it is.
# Logs go to stderr; CMAKE_BUILD_PARALLEL_LEVEL sets the build's jobs (default: every core).
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
# The peers, pinned. pytorch_metric_learning.losses imports tqdm (utils/common_functions.py) and
# scipy (the torch environment has scipy 1.16.3, .ci/torch-venv's pin); it does not import
# scikit-learn, its other declared dependency, so that is left out (--no-deps).
pins=(pytorch-metric-learning==2.9.0 tqdm==4.70.1)

geomsim_build=""
while [ $# -gt 0 ]; do
  case "$1" in
    --geomsim-build) [ $# -ge 2 ] || { echo "setup_env.sh: --geomsim-build needs a folder" >&2; exit 2; }
                     geomsim_build=$2; shift 2 ;;
    *) echo "setup_env.sh: unknown argument '$1' (usage: setup_env.sh [--geomsim-build DIR])" >&2; exit 2 ;;
  esac
done

venv=$(bash "$root/.ci/torch-venv")
python="$venv/bin/python"

hash=$(printf '%s\n' "${pins[@]}" | sha256sum | cut -c1-12)
cache="$HOME/.cache/geomsim/loss-bench-$hash"
site="$cache/site"
if [ ! -e "$cache/complete" ]; then
  start=$(date +%s)
  mkdir -p "$cache"
  rm -rf "$site" "$site.partial"
  "$python" -m pip install -q --disable-pip-version-check --no-deps --target "$site.partial" "${pins[@]}" >&2
  mv "$site.partial" "$site"
  printf '%s\n' "${pins[@]}" >"$cache/complete"
  echo "setup_env.sh: installed ${pins[*]} into $site in $(( $(date +%s) - start )) s" >&2
fi

if [ -n "$geomsim_build" ]; then
  geomsim_build=$(cd "$geomsim_build" && pwd)
else
  geomsim_build=${GEOMSIM_LOSS_BENCH_BUILD:-$root/build-loss-bench}
  start=$(date +%s)
  if [ ! -e "$geomsim_build/CMakeCache.txt" ]; then
    launcher=()
    if [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ] && command -v ccache >/dev/null; then
      launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    fi
    # pyproject.toml's [tool.scikit-build.cmake.define] and build type, for this interpreter.
    cmake -S "$root" -B "$geomsim_build" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
      -DGEOMSIM_WITH_PYTHON=ON -DGEOMSIM_WITH_TORCH=AUTO -DGEOMSIM_BUILD_TRAINING=OFF \
      -DGEOMSIM_BUILD_TESTS=OFF -DGEOMSIM_BUILD_BENCHMARKS=OFF \
      -DPython3_EXECUTABLE="$python" -Dpybind11_DIR="$("$python" -m pybind11 --cmakedir)" >&2
  fi
  cmake --build "$geomsim_build" --target geomsim_python_package -j"${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}" >&2
  echo "setup_env.sh: geomsim's Python package in $geomsim_build/python, built in $(( $(date +%s) - start )) s" >&2
fi
[ -e "$geomsim_build/python/geomsim/_torch_ops.so" ] ||
  { echo "setup_env.sh: $geomsim_build/python/geomsim has no torch operators (_torch_ops.so)" >&2; exit 1; }
# The three import as the benchmark's processes will import them, from outside the checkout.
(cd / && PYTHONPATH="$geomsim_build/python:$site" "$python" -c '
import torch, geomsim.torch, pytorch_metric_learning.losses
assert torch.__version__.split("+")[0] == "2.11.0", torch.__version__
assert pytorch_metric_learning.__version__ == "2.9.0", pytorch_metric_learning.__version__
') || { echo "setup_env.sh: torch, geomsim.torch or pytorch_metric_learning does not import" >&2; exit 1; }
echo "python=$python"
echo "site=$site"
echo "geomsim=$geomsim_build/python"

#!/usr/bin/env bash
# The two ways a Python user installs geomsim (issue 27), each into a fresh virtual environment,
# then the pytest suites of tests/python against the installed package (not the build tree):
#   index   python3 -m venv; `pip wheel .` and `pip install .[test]`: scikit-build-core, pybind11,
#           numpy, pytest and scipy from the package index, at pyproject.toml's pins;
#   debian  Debian's /usr/bin/python3 -m venv --system-site-packages: Debian's numpy, pybind11,
#           pytest and scipy, scikit-build-core (pyproject.toml's pin) from the index, and
#           `pip install --no-build-isolation .` (geomsim.torch against Debian's torch 1.13);
#   cuda-torch-no-nvcc
#           pip's CUDA torch 2.11 (the environment of .ci/torch-venv, seen through a .pth file) in a
#           fresh environment with scikit-build-core and pybind11 at pyproject.toml's pins, and
#           `pip install --no-build-isolation .` with the CUDA toolkit hidden (no nvcc on PATH,
#           CUDA_HOME and CUDACXX pointing nowhere, CMake's CUDA packages disabled): geomsim.torch
#           must build from torch's headers and libraries alone, as on a machine without the
#           toolkit, and its suite must run.
# Usage: tests/package/pip_routes.sh CLI [index|debian|cuda-torch-no-nvcc ...]
#   CLI: a portable geomsim program (the README's build/geomsim), whose JSON the suites compare
#   with bit for bit; the package is built portable too.
# Needs the core's libraries (bash .ci/install-deps), python3-venv and the package index; the last
# route also the torch 2.11 environment that .ci/torch-venv makes (about 4.7 GB, reused).
set -euo pipefail
[ $# -ge 1 ] && [ -x "$1" ] || { echo "usage: $0 CLI [index|debian ...] (CLI: a portable geomsim program)" >&2; exit 2; }
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
routes=("$@")
[ ${#routes[@]} -gt 0 ] || routes=(index debian cuda-torch-no-nvcc)
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Reuse compiled objects where ccache is installed (the CMake of scikit-build-core reads CMAKE_ARGS).
if command -v ccache >/dev/null; then export CMAKE_ARGS="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache ${CMAKE_ARGS:-}"; fi
pip_quiet=(-q --disable-pip-version-check)
# A requirement of pyproject.toml's [build-system], as pinned there.
build_requirement() {
  /usr/bin/python3 - "$root/pyproject.toml" "$1" <<'PY'
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    requires = tomllib.load(f)["build-system"]["requires"]
print(next(r for r in requires if r.split("=")[0].strip() == sys.argv[2]))
PY
}

check_installed() {  # the package imports from the environment, with its metadata's version
  local python=$1 venv=$2
  (cd "$work" && "$python" - "$venv" <<'PY'
import importlib.metadata as metadata, os, sys
import geomsim
venv = os.path.realpath(sys.argv[1])
where = os.path.realpath(geomsim.__file__)
assert where.startswith(venv + os.sep), f"geomsim imported from {where}, not from {venv}"
assert metadata.version("geomsim") == geomsim.__version__, (metadata.version("geomsim"), geomsim.__version__)
print(f"geomsim {metadata.version('geomsim')} from {where}")
PY
  )
}

run_suites() {  # from a folder outside the checkout, so that only the installed package is found
  local python=$1
  (cd "$work" && GEOMSIM_CLI="$cli" PYTHONDONTWRITEBYTECODE=1 "$python" -m pytest -q -p no:cacheprovider "$root/tests/python")
}

for route in "${routes[@]}"; do
  start=$(date +%s)
  venv="$work/$route"
  case "$route" in
    index)
      python3 -m venv "$venv"
      # One CMake build folder for both: `pip install` after `pip wheel` recompiles nothing.
      "$venv/bin/pip" wheel "${pip_quiet[@]}" --no-deps --config-settings=build-dir="$work/index-build" -w "$work/wheels" "$root"
      ls "$work"/wheels/geomsim-*.whl >/dev/null
      echo "pip wheel: $(basename "$work"/wheels/geomsim-*.whl)"
      "$venv/bin/pip" install "${pip_quiet[@]}" --config-settings=build-dir="$work/index-build" "$root[test]"
      ;;
    debian)
      /usr/bin/python3 -m venv --system-site-packages "$venv"
      "$venv/bin/pip" install "${pip_quiet[@]}" "$(build_requirement scikit-build-core)"
      "$venv/bin/pip" install "${pip_quiet[@]}" --no-build-isolation --no-deps "$root"
      ;;
    cuda-torch-no-nvcc)
      torch_venv=$(bash "$root/.ci/torch-venv")
      "$torch_venv/bin/python" -m venv "$venv"
      # A venv made by a venv's python sees the base interpreter's packages, not that venv's:
      # torch, numpy, pytest and scipy come from the torch environment through a .pth file.
      "$torch_venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' \
        >"$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/geomsim-torch-venv.pth"
      # Into this environment even though the torch environment has pybind11: scikit-build-core
      # points CMake at this environment's site-packages only, and Debian's pybind11 2.10 (too old
      # for numpy 2) would be found instead.
      "$venv/bin/pip" install "${pip_quiet[@]}" --ignore-installed "$(build_requirement scikit-build-core)" "$(build_requirement pybind11)"
      # The CUDA toolkit hidden: no PATH folder that holds an nvcc (here /usr/local/cuda/bin and the
      # wrappers in /usr/local/bin), no CUDA_HOME, CUDA_PATH or CUDACXX to follow, and CMake's
      # CUDAToolkit and CUDA packages disabled, so that /usr/local/cuda is not found either.
      hidden_path=""
      IFS=: read -ra path_dirs <<<"$PATH"
      for dir in "${path_dirs[@]}"; do
        [[ -z "$dir" || "$dir" == *cuda* || -e "$dir/nvcc" ]] || hidden_path+="${hidden_path:+:}$dir"
      done
      if PATH="$hidden_path" command -v nvcc >/dev/null; then echo "$0: cannot hide nvcc from PATH" >&2; exit 1; fi
      no_cuda=(env -u LIBRARY_PATH PATH="$hidden_path" CUDA_HOME=/nonexistent CUDA_PATH=/nonexistent CUDACXX=/nonexistent/nvcc
               CMAKE_ARGS="${CMAKE_ARGS:-} --no-warn-unused-cli -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON -DCMAKE_DISABLE_FIND_PACKAGE_CUDA=ON")
      "${no_cuda[@]}" "$venv/bin/pip" install -v --disable-pip-version-check --no-build-isolation --no-deps \
        --config-settings=build-dir="$work/$route-build" "$root" >"$work/$route.log" 2>&1 ||
        { tail -n 60 "$work/$route.log"; echo "$0: pip install against pip's CUDA torch without the CUDA toolkit failed" >&2; exit 1; }
      grep -o "geomsim: geomsim.torch, the losses for PyTorch: .*" "$work/$route.log"
      grep -q "geomsim: geomsim.torch, the losses for PyTorch: ON .*torch.utils.cpp_extension" "$work/$route.log" ||
        { echo "$0: geomsim.torch was not built from the interpreter's torch" >&2; exit 1; }
      # Without the paths, whose names (this route's, a checkout's) may hold the word themselves.
      if sed -e "s|$work/$route||g" -e "s|$root||g" "$work/$route.log" | grep -i nvcc; then
        echo "$0: the build mentions nvcc" >&2; exit 1
      fi
      # The operators link torch's CPU libraries only; libtorch_cuda is in the process through torch.
      ops=$(find "$venv" -name "_torch_ops.so")
      [ -n "$ops" ] || { echo "$0: no _torch_ops.so in $venv" >&2; exit 1; }
      if readelf -d "$ops" | grep -E "NEEDED.*(cuda|cudart)"; then echo "$0: $ops links a CUDA library" >&2; exit 1; fi
      (cd "$work" && "$venv/bin/python" -c 'import torch, geomsim.torch as gt
features = torch.nn.functional.normalize(torch.randn(6, 2, 3, dtype=torch.float64, generator=torch.Generator().manual_seed(0)), dim=-1)
print(f"torch {torch.__version__}: SupConLoss {gt.SupConLoss(temperature=0.1)(features, torch.tensor([0, 0, 1, 1, 2, 2])).item():.12f}")')
      ;;
    *) echo "$0: unknown route $route (index, debian or cuda-torch-no-nvcc)" >&2; exit 2 ;;
  esac
  check_installed "$venv/bin/python" "$venv"
  run_suites "$venv/bin/python"
  echo "the $route route took $(( $(date +%s) - start )) s"
done

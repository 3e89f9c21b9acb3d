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
#           toolkit, and its suite must run;
#   cuda-torch-nvcc
#           the same environment with the toolkit's nvcc (CUDA 13, torch's CUDA major version):
#           geomsim's CUDA kernels compiled (for sm_90 only, to keep CI short) and linked to
#           torch's libc10_cuda and the CUDA runtime, the operators loading beside torch's own
#           (`cuda_kernels_built()`). After cuda-torch-no-nvcc it reuses that route's environment
#           and CMake build folder (the configuration asked again for a CUDA compiler), so that
#           only the kernels and the losses' library compile, and it runs no suite: its C++ is
#           the previous route's, and the kernels need a GPU (tests/gpu/gpu_check.sh runs them).
# Usage: tests/package/pip_routes.sh CLI [index|debian|cuda-torch-no-nvcc|cuda-torch-nvcc ...]
#   CLI: a portable geomsim program (the README's build/geomsim), whose JSON the suites compare
#   with bit for bit; the package is built portable too.
# Needs the core's libraries (bash .ci/install-deps), python3-venv and the package index; the last
# route also the torch 2.11 environment that .ci/torch-venv makes (about 4.7 GB, reused).
set -euo pipefail
[ $# -ge 1 ] && [ -x "$1" ] || { echo "usage: $0 CLI [index|debian ...] (CLI: a portable geomsim program)" >&2; exit 2; }
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
routes=("$@")
[ ${#routes[@]} -gt 0 ] || routes=(index debian cuda-torch-no-nvcc cuda-torch-nvcc)
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

# A fresh environment that sees pip's CUDA torch 2.11 (the environment of .ci/torch-venv).
torch_environment() {
  local venv=$1 torch_venv
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
}

# A SupConLoss of the installed geomsim.torch on the CPU: the operators load beside torch.
supcon_on_cpu() {
  (cd "$work" && "$1" -c 'import torch, geomsim.torch as gt
features = torch.nn.functional.normalize(torch.randn(6, 2, 3, dtype=torch.float64, generator=torch.Generator().manual_seed(0)), dim=-1)
print(f"torch {torch.__version__}: SupConLoss {gt.SupConLoss(temperature=0.1)(features, torch.tensor([0, 0, 1, 1, 2, 2])).item():.12f}, "
      f"CUDA kernels built: {gt.cuda_kernels_built()}")')
}

run_suites() {  # from a folder outside the checkout, so that only the installed package is found
  local python=$1
  (cd "$work" && GEOMSIM_CLI="$cli" PYTHONDONTWRITEBYTECODE=1 "$python" -m pytest -q -p no:cacheprovider "$root/tests/python")
}

for route in "${routes[@]}"; do
  start=$(date +%s)
  venv="$work/$route" build="$work/$route-build"
  case "$route" in cuda-torch-*) venv="$work/cuda-torch" build="$work/cuda-torch-build" ;; esac
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
      [ -d "$venv" ] || torch_environment "$venv"
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
        --config-settings=build-dir="$build" "$root" >"$work/$route.log" 2>&1 ||
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
      supcon_on_cpu "$venv/bin/python" | tee "$work/$route.supcon"
      grep -q "CUDA kernels built: False" "$work/$route.supcon" || { echo "$0: CUDA kernels without nvcc" >&2; exit 1; }
      ;;
    cuda-torch-nvcc)
      command -v nvcc >/dev/null || { echo "$0: the $route route needs nvcc on PATH" >&2; exit 1; }
      [ -d "$venv" ] || torch_environment "$venv"
      # -U: the folder's cache remembers that the route without nvcc found no CUDA compiler.
      CMAKE_ARGS="${CMAKE_ARGS:-} -UCMAKE_CUDA_COMPILER -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=OFF -DCMAKE_DISABLE_FIND_PACKAGE_CUDA=OFF -DGEOMSIM_CUDA_ARCHITECTURES=90" \
        "$venv/bin/pip" install -v --disable-pip-version-check --no-build-isolation --no-deps \
        --config-settings=build-dir="$build" "$root" >"$work/$route.log" 2>&1 ||
        { tail -n 60 "$work/$route.log"; echo "$0: pip install against pip's CUDA torch with nvcc failed" >&2; exit 1; }
      grep -o "geomsim: geomsim's CUDA kernels: .*" "$work/$route.log"
      grep -q "geomsim: geomsim's CUDA kernels: ON" "$work/$route.log" || { echo "$0: no CUDA kernels with nvcc" >&2; exit 1; }
      ops=$(find "$venv" -name "_torch_ops.so")
      for library in libcudart libc10_cuda; do
        readelf -d "$ops" | grep -q "NEEDED.*$library[.]so" || { echo "$0: $ops does not link $library" >&2; exit 1; }
      done
      supcon_on_cpu "$venv/bin/python" | tee "$work/$route.supcon"
      grep -q "CUDA kernels built: True" "$work/$route.supcon" || { echo "$0: the kernels are not in the operators" >&2; exit 1; }
      # The same loss as the route without the kernels, to the last digit printed.
      [ ! -e "$work/cuda-torch-no-nvcc.supcon" ] || [ "$(sed 's/, CUDA.*//' "$work/$route.supcon")" = "$(sed 's/, CUDA.*//' "$work/cuda-torch-no-nvcc.supcon")" ] ||
        { echo "$0: the loss differs from the route without nvcc" >&2; exit 1; }
      ;;
    *) echo "$0: unknown route $route (index, debian, cuda-torch-no-nvcc or cuda-torch-nvcc)" >&2; exit 2 ;;
  esac
  check_installed "$venv/bin/python" "$venv"
  [ "$route" = cuda-torch-nvcc ] || run_suites "$venv/bin/python"
  echo "the $route route took $(( $(date +%s) - start )) s"
done

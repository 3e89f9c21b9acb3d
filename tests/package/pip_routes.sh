#!/usr/bin/env bash
# The two ways a Python user installs geomsim (issue 27), each into a fresh virtual environment,
# then the pytest suites of tests/python against the installed package (not the build tree):
#   index   python3 -m venv; `pip wheel .` and `pip install .[test]`: scikit-build-core, pybind11,
#           numpy, pytest and scipy from the package index, at pyproject.toml's pins;
#   debian  Debian's /usr/bin/python3 -m venv --system-site-packages: Debian's numpy, pybind11,
#           pytest and scipy, scikit-build-core (pyproject.toml's pin) from the index, and
#           `pip install --no-build-isolation .`.
# Usage: tests/package/pip_routes.sh CLI [index|debian ...]
#   CLI: a portable geomsim program (the README's build/geomsim), whose JSON the suites compare
#   with bit for bit; the package is built portable too.
# Needs the core's libraries (bash .ci/install-deps), python3-venv and the package index.
set -euo pipefail
[ $# -ge 1 ] && [ -x "$1" ] || { echo "usage: $0 CLI [index|debian ...] (CLI: a portable geomsim program)" >&2; exit 2; }
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
routes=("$@")
[ ${#routes[@]} -gt 0 ] || routes=(index debian)
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
    *) echo "$0: unknown route $route (index or debian)" >&2; exit 2 ;;
  esac
  check_installed "$venv/bin/python" "$venv"
  run_suites "$venv/bin/python"
  echo "the $route route took $(( $(date +%s) - start )) s"
done

#!/usr/bin/env bash
# Installs the build into a scratch prefix with `cmake --install`, then builds and runs a tiny
# consumer project against it through find_package(geomsim), and, when the Python module was
# built, imports it from the prefix alone (not the build tree) and uses it.
#   install_and_consume.sh BUILD_DIR CONSUMER_SOURCE CXX_COMPILER [PYTHON]
set -euo pipefail
build=$1 consumer=$2 compiler=$3 python=${4:-}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
prefix=$scratch/prefix

cmake --install "$build" --prefix "$prefix" >"$scratch/install.log"
test -f "$prefix/lib/cmake/geomsim/geomsimConfig.cmake"
test -f "$prefix/include/geomsim/metrics/neural_collapse.hpp"
test ! -e "$prefix/include/geomsim/train"  # the training module's headers need libtorch: not installed
test -x "$prefix/bin/geomsim"

cmake -S "$consumer" -B "$scratch/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$compiler" \
      -DCMAKE_PREFIX_PATH="$prefix" >"$scratch/configure.log" || { cat "$scratch/configure.log"; exit 1; }
cmake --build "$scratch/build" -j2 >"$scratch/build.log" || { cat "$scratch/build.log"; exit 1; }
"$scratch/build/consumer" "$scratch/figure"

if [ -n "$python" ]; then
  site=$(find "$prefix" -name '__init__.py' -path '*-packages/geomsim/*' -printf '%h\n' | head -1)
  site=${site%/geomsim}
  test -n "$site" || { echo "the Python module was not installed under $prefix"; exit 1; }
  # From a neutral folder, with only the prefix on the path.
  (cd "$scratch" && PYTHONPATH="$site" "$python" -c '
import geomsim, numpy as np
assert geomsim.__file__.startswith("'"$prefix"'"), geomsim.__file__
r = geomsim.solve(K=2, n_y=4, d=2, alpha=0.6, tau=0.5, seeds=[0, 1])
assert abs(r.loss - (-1.6)) < 1e-9, r.loss
print("ok   installed module:", geomsim.__file__, r)
')
fi
echo "package: installed, found, built, ran"

#!/usr/bin/env bash
# Writes the fuzzers' inputs into OUT (run_fuzzers.sh uses BUILD_DIR/fuzz-inputs):
#   OUT/corpus/HARNESS/       seeds: a few small valid files per parser (seed_corpus.py, and
#                             the sims/ definitions for fuzz_sim_definition)
#   OUT/regressions/HARNESS/  issue 33's hostile files (regression_inputs.py; several are large)
# HARNESS is the harness's name without fuzz_ (npy, idx, ...). Debian's python3 with numpy and
# torch (python3-numpy, python3-torch) writes them; nothing binary is committed for them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: make_corpus.sh OUT}
rm -rf "$out/corpus" "$out/regressions"
mkdir -p "$out/corpus/sim_definition"
/usr/bin/python3 "$here/seed_corpus.py" "$out/corpus"
cp "$here"/../../sims/*.json "$out/corpus/sim_definition/"
/usr/bin/python3 "$here/regression_inputs.py" "$out/regressions"

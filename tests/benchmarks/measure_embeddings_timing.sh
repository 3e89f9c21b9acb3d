#!/bin/bash
# Times of the measures of issue 16 on 10^4 embeddings of d = 128 (10 classes, 20 subclasses):
# measure --embeddings from .npy, CSV and torch.save, with and without the heat map, and the
# Python module's measure() and measures. Usage: bash tests/benchmarks/measure_embeddings_timing.sh [BUILD_DIR]
set -e
B=${1:-build}
W=$(mktemp -d)
/usr/bin/python3 - "$W" <<'PY'
import sys, numpy as np, torch
w = sys.argv[1]
rng = np.random.default_rng(0)
N, d = 10000, 128
sub = rng.integers(0, 20, N); sub[:20] = np.arange(20)
X = rng.normal(size=(20, d))[sub] + 0.8 * rng.normal(size=(N, d))
X /= np.linalg.norm(X, axis=1, keepdims=True)
np.save(f"{w}/z.npy", X); np.save(f"{w}/y.npy", sub // 2); np.save(f"{w}/s.npy", sub)
np.savetxt(f"{w}/z.csv", X, delimiter=",", fmt="%.17g")
torch.save(torch.from_numpy(X), f"{w}/z.pt")
PY
t() { local s=$(date +%s.%N); "$@" > /dev/null; echo "$(echo "$(date +%s.%N) - $s" | bc) s: ${*#$B/}"; }
t $B/geomsim measure --embeddings $W/z.npy --labels $W/y.npy --subclasses $W/s.npy --json $W/a.json -q
t $B/geomsim measure --embeddings $W/z.csv --labels $W/y.npy --subclasses $W/s.npy --json $W/b.json -q
t $B/geomsim measure --embeddings $W/z.pt --labels $W/y.npy --subclasses $W/s.npy --json $W/c.json -q
t $B/geomsim measure --embeddings $W/z.npy --labels $W/y.npy --subclasses $W/s.npy --out $W/heat --json $W/d.json -q
PYTHONPATH=$B/python /usr/bin/python3 - "$W" <<'PY'
import sys, time, numpy as np, geomsim
w = sys.argv[1]
X, y, s = np.load(f"{w}/z.npy"), np.load(f"{w}/y.npy"), np.load(f"{w}/s.npy")
for name, f in [("measure", lambda: geomsim.measure(X, y, s)), ("uniformity", lambda: geomsim.uniformity(X)),
                ("neural_collapse", lambda: geomsim.neural_collapse(X, y)), ("same_class_alignment", lambda: geomsim.same_class_alignment(X, y)),
                ("nearest_class_mean_agreement", lambda: geomsim.nearest_class_mean_agreement(X, y, y))]:
    t = time.perf_counter(); f(); print(f"{time.perf_counter() - t:.3f} s: python geomsim.{name}")
import json
print("python measure == CLI json:", geomsim.measure(X, y, s) == json.load(open(f"{w}/a.json"))["geometry"])
PY
rm -rf "$W"

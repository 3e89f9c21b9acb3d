#!/usr/bin/env bash
# End-to-end checks of the geomsim command: the README's example, every output file,
# thread-count independence, and the bad-input contract (exit 2, the argument named
# with its range, no output file left behind).
set -u
geomsim=${1:?usage: cli_test.sh PATH/TO/geomsim SOURCE_DIR}
source_dir=${2:?usage: cli_test.sh PATH/TO/geomsim SOURCE_DIR [TORCHSCRIPT_FIXTURES_DIR]}
fixtures=${3:-}  # written by tests/train/make_torchscript_fixtures.py; needed when geomsim has libtorch
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

# --- the README's command --------------------------------------------------------
if "$geomsim" --K 3 --alpha 0.64 --tau 0.5 >"$work/out.txt" 2>"$work/err.txt"; then pass; else fail "default command exited $?"; fi
for word in "parameters" "K = 3, n_y = 8, d = 3" "loss" "different-class term" "same-class term" "alignment term" \
            "collapsed simplex loss" "spread s(y)" "geometry" "split into 2 atoms per class" "time"; do
  grep -qF "$word" "$work/out.txt" && pass || fail "default output lacks '$word'"
done
grep -qiE '(^|[^a-z])(nan|inf)([^a-z]|$)' "$work/out.txt" && fail "default output prints a non-finite number" || pass
[ -s "$work/err.txt" ] && fail "default command wrote to stderr: $(cat "$work/err.txt")" || pass

# --- output files ------------------------------------------------------------------
"$geomsim" --K 2 --ny 6 --d 3 --alpha 0.7 --tau 0.5 --seeds 0:2 --json "$work/run.json" \
  --points "$work/points.csv" --cosines "$work/cos.csv" --quiet >"$work/quiet.txt" || fail "run with outputs failed"
[ -s "$work/quiet.txt" ] && fail "--quiet printed on stdout" || pass
python3 - "$work/run.json" "$work/points.csv" "$work/cos.csv" <<'PY' && pass || fail "output files are not as documented"
import csv, json, math, sys
run = json.load(open(sys.argv[1]))
p = run["parameters"]
assert p == {"K": 2, "ny": 6, "d": 3, "N": 12, "alpha": 0.7, "tau": 0.5, "seeds": [0, 1, 2],
             "restarts": 100, "solver": "auto", "device": "cpu", "cluster_tol": 0.001}, p
assert run["solver"]["name"] == "rlbfgs" and run["solver"]["restart_solver"] == "rlbfgs", run["solver"]
assert run["solver"]["restart_gradient_tolerance"] == 1e-4, run["solver"]
assert run["result"]["solver_device"] == "cpu", run["result"]  # the Eigen solver's state, on the host
r = run["result"]
assert math.isclose(sum(r["components"].values()), r["loss"], rel_tol=1e-12)
# N d = 36: the seeds, then the default 100 restarts, numbered, and the run says how many starts;
# each restart that lowered the loss is followed by the seeds' solver's polish of it
starts = [x for x in r["runs"] if not x["polish"]]
assert r["starts"] == 103 and len(starts) == 103 and r["best_seed"] in (0, 1, 2)
assert [x["seed"] for x in starts[:3]] == [0, 1, 2] and all(x["restart"] is None for x in starts[:3])
assert [x["restart"] for x in starts[3:]] == list(range(100))
assert all(b["restart"] == a["restart"] and not a["polish"] for a, b in zip(r["runs"], r["runs"][1:]) if b["polish"])
assert len(r["runs"]) - 103 == r["improvements"], r["improvements"]
assert all(x["converged"] and x["status"] in ("gtol", "ftol", "roundoff") for x in r["runs"][:3]), r["runs"][:3]
assert all(x["converged"] and x["status"] in ("gtol", "ftol", "roundoff") for x in starts[3:])
best = min(x["loss"] for x in r["runs"])
assert math.isclose(best, r["loss"], rel_tol=1e-12, abs_tol=1e-13), (best, r["loss"])
assert r["best_restart"] is None or r["improvements"] >= 1, r
assert r["geometry"]["kind"] in ("collapsed", "atoms", "continuous")
assert "seconds" in run["timing"]
assert run["cpu_level"] in ("baseline", "avx2", "avx512", "build"), run["cpu_level"]
rows = list(csv.reader(open(sys.argv[2])))
assert rows[0] == ["x1", "x2", "x3", "class"] and len(rows) == 13, rows[0]
for row in rows[1:]:
    assert abs(sum(float(v) ** 2 for v in row[:3]) - 1) < 1e-12
cos = list(csv.reader(open(sys.argv[3])))
assert len(cos) == 13 and len(cos[0]) == 14
assert [int(row[1]) for row in cos[1:]] == sorted(int(row[1]) for row in cos[1:])
PY

# --- restarts: the paper's best of seeds with --restarts 0, never worse with them -----
# K = 2, n_y = 8, d = 2, alpha = 0.81: every seed ends in the 4+4 atoms; a restart finds the
# lower 3+3+2 that scipy's SLSQP best of 5 reached (-0.8569060760386937, the peers' sweep).
"$geomsim" --K 2 --ny 8 --d 2 --alpha 0.81 --restarts 0 --json "$work/r0.json" --quiet
"$geomsim" --K 2 --ny 8 --d 2 --alpha 0.81 --json "$work/r100.json" >"$work/r100.txt"
python3 - "$work/r0.json" "$work/r100.json" "$work/r100.txt" <<'PY' && pass || fail "restarts did not reach the lower basin, or the run does not say how many starts it used"
import json, sys
r0, r100 = (json.load(open(f))["result"] for f in sys.argv[1:3])
assert r0["starts"] == 5 and len(r0["runs"]) == 5 and r0["best_restart"] is None
assert r100["starts"] == 105 and r100["best_restart"] is not None and r100["improvements"] >= 1
polished = [x for x in r100["runs"] if x["polish"]]
assert len(r100["runs"]) == 105 + len(polished) and len(polished) == r100["improvements"]
assert polished[-1]["restart"] == r100["best_restart"]
assert r100["loss"] < r0["loss"] - 0.05, (r0["loss"], r100["loss"])
assert abs(r100["loss"] - -0.8569060760386937) < 1e-9, r100["loss"]
text = open(sys.argv[3]).read()
assert "105 starts" in text and "100 restarts by rlbfgs" in text, text
PY

# --- the manifold solver reaches the same optimum as SLSQP ---------------------------
"$geomsim" --K 3 --alpha 0.64 --tau 0.5 --solver rlbfgs --json "$work/rl.json" --quiet
"$geomsim" --K 3 --alpha 0.64 --tau 0.5 --solver slsqp --json "$work/sq.json" --quiet
"$geomsim" --K 3 --alpha 0.64 --tau 0.5 --solver rtr --json "$work/tr.json" --quiet
python3 - "$work/rl.json" "$work/sq.json" "$work/tr.json" <<'PY' && pass || fail "rlbfgs, rtr and slsqp disagree, or the JSON does not name the solver's settings"
import json, sys
rl, sq, tr = (json.load(open(f)) for f in sys.argv[1:])
assert tr["solver"]["name"] == "rtr" and "max_inner_iterations" in tr["solver"], tr["solver"]
assert abs(tr["result"]["loss"] - sq["result"]["loss"]) < 1e-7
assert rl["solver"]["name"] == "rlbfgs" and "gradient_tolerance" in rl["solver"], rl["solver"]
assert sq["solver"]["name"] == "slsqp" and "constraint_tolerance" in sq["solver"], sq["solver"]
assert abs(rl["result"]["loss"] - sq["result"]["loss"]) < 1e-7
assert rl["result"]["geometry"]["description"] == sq["result"]["geometry"]["description"]
PY

# --- a time cap ends a run honestly: status max_time, not converged, its stationarity given
"$geomsim" --K 10 --ny 200 --d 32 --alpha 0.7 --tau 0.5 --seeds 0 --max-seconds 1 --json "$work/cap.json" >"$work/cap.txt"
python3 - "$work/cap.json" "$work/cap.txt" <<'PY' && pass || fail "--max-seconds did not cap the run, or the capped run claims convergence"
import json, math, sys
j = json.load(open(sys.argv[1]))
run = j["result"]["runs"][0]
assert j["solver"]["name"] == "rlbfgs" and j["solver"]["max_seconds"] == 1, j["solver"]
assert run["status"] == "max_time" and run["converged"] is False, run
assert math.isfinite(run["stationarity"]) and run["stationarity"] > 1e-9, run
assert j["timing"]["seconds"] < 30, j["timing"]
assert "max_time" in open(sys.argv[2]).read() and "stationarity" in open(sys.argv[2]).read()
PY

# --- the CPU level the kernels ran at: GEOMSIM_CPU's in a portable x86-64 build ------------
# (refused, exit 2, in a build without dispatch, whose level is "build")
if GEOMSIM_CPU=baseline "$geomsim" --K 2 --ny 4 --d 3 --alpha 0.7 --tau 0.5 --seeds 0 --restarts 0 \
     --json "$work/level.json" --quiet 2>"$work/level_err.txt"; then
  expected=baseline
else
  grep -q "GEOMSIM_CPU" "$work/level_err.txt" && pass || fail "GEOMSIM_CPU=baseline failed without naming GEOMSIM_CPU"
  "$geomsim" --K 2 --ny 4 --d 3 --alpha 0.7 --tau 0.5 --seeds 0 --restarts 0 --json "$work/level.json" --quiet
  expected=build
fi
python3 - "$work/level.json" "$expected" <<'PY' && pass || fail "the JSON's cpu_level is not the level that ran"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["cpu_level"] == sys.argv[2], (j["cpu_level"], sys.argv[2])
PY

# --- identical results for any thread count (everything but "timing") -----------
OMP_NUM_THREADS=1 "$geomsim" --K 3 --alpha 0.64 --tau 0.5 --json "$work/t1.json" --quiet
OMP_NUM_THREADS=2 "$geomsim" --K 3 --alpha 0.64 --tau 0.5 --json "$work/t2.json" --quiet
python3 - "$work/t1.json" "$work/t2.json" <<'PY' && pass || fail "results differ between 1 and 2 threads"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a["timing"]["threads"] == 1 and b["timing"]["threads"] == 2
del a["timing"], b["timing"]
assert a == b
PY

# --- help ----------------------------------------------------------------------------
"$geomsim" --help >"$work/help.txt" && pass || fail "--help exited non-zero"
for flag in --K --ny --d --alpha --tau --seeds --solver --max-seconds --cluster-tol --restarts --certify --json --points --cosines --quiet; do
  grep -qF -- "$flag" "$work/help.txt" && pass || fail "--help does not document $flag"
done

# --- bad input: exit 2, message names the argument, no output file ------------------
echo '{"sentinel": true}' >"$work/existing.json"
expect_rejected() {  # expected-text, then arguments
  local expected=$1
  shift
  "$geomsim" "$@" --json "$work/bad.json" --points "$work/bad.csv" >"$work/out.txt" 2>"$work/err.txt"
  local status=$?
  [ "$status" -eq 2 ] || { fail "'$*' exited $status, expected 2"; return; }
  grep -qF -- "$expected" "$work/err.txt" || { fail "'$*': stderr lacks '$expected': $(cat "$work/err.txt")"; return; }
  [ -e "$work/bad.json" ] || [ -e "$work/bad.csv" ] && { fail "'$*' left an output file"; return; }
  ls "$work" | grep -q '\.tmp\.' && { fail "'$*' left a temporary file"; return; }
  pass
}
expect_rejected "--alpha must be in [0, 1], got 1.5" --alpha 1.5
expect_rejected "--alpha must be in [0, 1], got -0.1" --alpha -0.1
expect_rejected "--alpha must be in [0, 1], got nan" --alpha nan
expect_rejected "--tau must be in [1e-06, 1000], got 0" --tau 0
expect_rejected "--tau must be in [1e-06, 1000], got -1" --tau -1
expect_rejected "--tau must be in [1e-06, 1000], got inf" --tau inf
expect_rejected "--tau must be in [1e-06, 1000], got nan" --tau nan
expect_rejected "--K must be >= 2, got 1" --K 1
expect_rejected "--ny must be >= 1, got 0" --ny 0
expect_rejected "--d must be >= 2, got 1" --d 1
expect_rejected "--K" --K abc
expect_rejected "--alpha" --alpha
expect_rejected "--bogus" --bogus 3
expect_rejected "--seeds must be non-negative whole numbers" --seeds "0-4"
expect_rejected "--seeds needs ranges lo:hi[:step] with lo <= hi" --seeds "4:1"
expect_rejected "--solver must be one of: auto, slsqp, rlbfgs, rtr; got 'newton'" --solver newton
expect_rejected "--cluster-tol must be a finite number > 0, got 0" --cluster-tol 0
expect_rejected "--max-seconds must be a finite number >= 0, got -1" --max-seconds -1
expect_rejected "--restarts must be >= 0, got -1" --restarts -1
expect_rejected "--restarts" --restarts 1.5
expect_rejected "--solver slsqp handles at most" --solver slsqp --K 2 --ny 1000 --d 8
# Sizes that cannot fit are refused from their estimate (experiments/solve_memory.hpp), before
# anything of that size is allocated, naming the size to lower and both byte counts.
expect_rejected "--d would need" --d 100000000
expect_rejected "for N = 24 points in R^100000000" --d 100000000
expect_rejected "--ny would need" --K 100000 --ny 100000
expect_rejected "--ny would need" --K 10 --ny 100000000
# The exact Hessian streams (O(N d): 640 GB at N = 10^9, d = 10), where its stored matrices
# would take 24 N^2 bytes (24 TB already at N = 10^6, which it no longer refuses).
expect_rejected "exact Hessian 640 GB" --K 10 --ny 100000000 --solver rtr
"$geomsim" --K 10 --ny 10000 --d 10 --cosines "$work/huge.csv" >/dev/null 2>"$work/err.txt"
[ $? -eq 2 ] && grep -qF -- "--ny would need" "$work/err.txt" && grep -qF "outputs 3" "$work/err.txt" && [ ! -e "$work/huge.csv" ] &&
  pass || fail "a cosine matrix of 10^5 x 10^5 was not refused by its size: $(cat "$work/err.txt")"

"$geomsim" --K 2 --ny 4 --json "$work/no/such/dir/x.json" >/dev/null 2>"$work/err.txt"
[ $? -eq 2 ] && grep -qF -- "--json cannot write" "$work/err.txt" && pass || fail "unwritable --json not rejected with exit 2"
"$geomsim" --K 2 --alpha 7 --json "$work/existing.json" >/dev/null 2>&1
grep -qF sentinel "$work/existing.json" && pass || fail "a rejected run overwrote an existing output file"

# --- geomsim theory -------------------------------------------------------------------
"$geomsim" theory --tau 0.1:0.3:0.1 --d 2,3,128 --alpha 0.7 --json "$work/theory.json" >"$work/theory.txt" && pass || fail "theory exited non-zero"
grep -qF "exact end" "$work/theory.txt" && pass || fail "theory prints no table"
python3 - "$work/theory.json" <<'PY' && pass || fail "theory JSON is not as documented"
import json, math, sys
t = json.load(open(sys.argv[1]))
assert t["parameters"]["tau"] == [0.1, 0.2, 0.3] and t["parameters"]["d"] == [2, 3, 128], t["parameters"]
assert len(t["rows"]) == 9
for r in t["rows"]:
    assert math.isclose(math.exp(r["log_W"]), r["W"], rel_tol=1e-14)
    assert 2 / 3 < r["c"] <= r["exact_crossover"] + 1e-12 < r["theta_star_existence_bound"]
    assert abs(r["spread"] - math.sin(r["theta_star"])) < 1e-15
    assert r["alpha_region"] == ("window" if 0.7 < r["c"] else "past_exact_end" if 0.7 >= r["exact_crossover"] else "past_relaxed_end"), r
row = [r for r in t["rows"] if r["d"] == 3 and r["tau"] == 0.2][0]
assert abs(row["W"] - 0.1 * (1 - math.exp(-10))) < 1e-15   # d = 3: (tau/2)(1 - e^{-2/tau})
PY
# General K: the symmetric split. At K = 3, alpha = 0.64 its spread equals K = 2's at 0.7
# (the same logit of p*), and d < K has no split.
"$geomsim" theory --K 3 --tau 0.5 --d 2,3,8 --alpha 0.64 --json "$work/theory3.json" >"$work/theory3.txt" && pass || fail "theory --K 3 exited non-zero"
grep -qF "n/a (d < K)" "$work/theory3.txt" && pass || fail "theory --K 3 does not mark d < K"
python3 - "$work/theory3.json" <<'PY' && pass || fail "theory --K 3 JSON is not as documented"
import json, sys
t = json.load(open(sys.argv[1]))
assert t["parameters"]["K"] == 3 and abs(t["threshold"] - 0.6) < 1e-15
low, three, eight = t["rows"]
assert low["spread"] is None and low["c"] is None
assert abs(three["spread"] - 0.2239814141) < 1e-10, three
assert 0.6 < three["c"] <= three["exact_crossover"]
assert "orthogonal_split" in eight and "orthogonal_split" not in three
assert eight["orthogonal_split"]["min_loss"] < eight["min_loss"]
assert low["alpha_region"] is None and three["alpha_region"] == "window", three
PY
# A point outside the window says so in its row, not only below the table: K = 3, alpha = 0.7,
# d = 16 lies past c_K = 0.625 (and its exact end), yet theta* and the spread exist there.
"$geomsim" theory --K 3 --tau 0.5 --d 16 --alpha 0.7 --json "$work/theory16.json" >"$work/theory16.txt" && pass || fail "theory --K 3 --d 16 exited non-zero"
grep -E '^0\.5 +16 .*no: past the end$' "$work/theory16.txt" >/dev/null && pass || fail "theory does not mark alpha past the window in the row: $(cat "$work/theory16.txt")"
python3 - "$work/theory16.json" <<'PY' && pass || fail "theory --d 16 JSON does not mark alpha past the window"
import json, sys
row = json.load(open(sys.argv[1]))["rows"][0]
assert row["c"] < 0.7 and row["exact_crossover"] < 0.7 and row["theta_star"] is not None, row
assert row["alpha_region"] == "past_exact_end", row
PY
# Lists of K and alpha (issue 31): one row per (K, alpha, tau, d), each as the single-K table has it.
"$geomsim" theory --K 2:3 --alpha 0.64,0.7 --tau 0.5 --d 3 --json "$work/theoryK.json" >"$work/theoryK.txt" && pass || fail "theory --K 2:3 exited non-zero"
head -4 "$work/theoryK.txt" | grep -q "^K  alpha  tau" && pass || fail "theory with lists of K and alpha prints no K and alpha columns"
python3 - "$work/theoryK.json" "$work/theory3.json" <<'PY' && pass || fail "theory --K 2:3 --alpha 0.64,0.7 JSON is not as documented"
import json, sys
t = json.load(open(sys.argv[1]))
one = json.load(open(sys.argv[2]))
assert t["parameters"]["K"] == [2, 3] and t["parameters"]["alpha"] == [0.64, 0.7], t["parameters"]
assert [(r["K"], r["alpha"]) for r in t["rows"]] == [(2, 0.64), (2, 0.7), (3, 0.64), (3, 0.7)]
assert abs(t["threshold"][0] - 2 / 3) < 1e-15 and abs(t["threshold"][1] - 0.6) < 1e-15
# K = 3, alpha = 0.64, d = 3 is the row of the single-K table.
same = [r for r in one["rows"] if r["d"] == 3][0]
row = t["rows"][2]
for key in ("W", "c", "exact_crossover", "theta_star", "spread", "min_loss"):
    assert row[key] == same[key], key
PY
# geomsim ARGUMENTS must exit 2 with EXPECTED on stderr and leave no OUTPUT file behind.
expect_refused() {  # expected-text, output file, then the geomsim arguments
  local expected=$1 output=$2
  shift 2
  "$geomsim" "$@" >/dev/null 2>"$work/err.txt"
  local status=$?
  [ "$status" -eq 2 ] && grep -qF -- "$expected" "$work/err.txt" && [ ! -e "$output" ] && pass ||
    fail "geomsim $*: exit $status, stderr: $(cat "$work/err.txt")"
}
expect_theory_rejected() {  # expected-text, then arguments
  local expected=$1
  shift
  expect_refused "$expected" "$work/badtheory.json" theory "$@" --json "$work/badtheory.json"
}
expect_theory_rejected "--tau must be a finite number > 0, got 0" --tau 0
expect_theory_rejected "--tau must be a finite number, got nan" --tau nan
expect_theory_rejected "--d must be whole numbers in [2, 1000000], got 1" --d 1
expect_theory_rejected "--d must be whole numbers in [2, 1000000], got 2.5" --d 2.5
expect_theory_rejected "--alpha must be in [0, 1], got -1" --alpha -1
expect_theory_rejected "--K must be whole numbers in [2, 10000], got 1" --K 1
expect_theory_rejected "--tau needs ranges lo:hi:step" --tau 1:0.5:0.1

# --- geomsim sweep / merge ------------------------------------------------------------
sweep_args=(--K 2 --d 2 --alpha 0.6,0.7,0.8 --tau 0.5 --seeds 0:1)
"$geomsim" sweep "${sweep_args[@]}" --out "$work/full.csv" -q && pass || fail "sweep exited non-zero"
[ "$(wc -l <"$work/full.csv")" -eq 4 ] && head -1 "$work/full.csv" | grep -q '^K,ny,d,alpha,tau,seeds,solver,cluster_tol,loss,spread' && pass ||
  fail "sweep CSV has the wrong shape"
"$geomsim" sweep "${sweep_args[@]}" --out "$work/full.csv" | grep -qF "3 already in" && pass || fail "a rerun did not skip the points already done"
"$geomsim" sweep "${sweep_args[@]}" --shard 0/2 --out "$work/s0.csv" -q && "$geomsim" sweep "${sweep_args[@]}" --shard 1/2 --out "$work/s1.csv" -q &&
  "$geomsim" merge "$work/s1.csv" "$work/s0.csv" --out "$work/merged.csv" >/dev/null && pass || fail "shards or merge exited non-zero"
diff <(cut -d, -f1-22 "$work/full.csv") <(cut -d, -f1-22 "$work/merged.csv") >/dev/null && pass || fail "merged shards differ from the full sweep"
# Integer ranges without a step (issue 31): --K 2:3 is 2,3.
"$geomsim" sweep --K 2:3 --ny 2 --d 3 --alpha 0.7 --seeds 0 --out "$work/krange.csv" -q &&
  [ "$(cut -d, -f1 "$work/krange.csv" | tail -n +2 | tr '\n' ' ')" = "2 3 " ] && pass || fail "sweep --K 2:3 did not solve K = 2 and 3"
# A sweep CSV written before issue 31 names the continuous regime "spread" (the committed CSVs did,
# until regenerated; made so here from figure-6-left.paper-method.csv, the paper's method's own sweep): it is read as "continuous" and written
# back so, every other byte unchanged.
sed '2,$s/,continuous,/,spread,/g' "$source_dir/notebooks-export/figure-6-left.paper-method.csv" >"$work/legacy-in.csv"
"$geomsim" merge "$work/legacy-in.csv" --out "$work/legacy.csv" >/dev/null &&
  grep -q ",spread," <(tail -n +2 "$work/legacy-in.csv") &&
  diff <(sed '2,$s/,spread,/,continuous,/g' "$work/legacy-in.csv") "$work/legacy.csv" >/dev/null && pass ||
  fail "a sweep CSV with the old regime name 'spread' does not read back as 'continuous'"
expect_sweep_rejected() {  # expected-text, then arguments
  local expected=$1
  shift
  expect_refused "$expected" "$work/badsweep.csv" sweep "$@" --out "$work/badsweep.csv"
}
expect_sweep_rejected "--shard must be i/n with 0 <= i < n" --shard 2/2
expect_sweep_rejected "--alpha must be in [0, 1], got 1.5" --alpha 0.5,1.5
expect_sweep_rejected "--K must be whole numbers in [2, 100000], got 1" --K 1
expect_sweep_rejected "--solver must be one of" --solver newton
echo "not,a,sweep" >"$work/corrupt.csv"
"$geomsim" sweep "${sweep_args[@]}" --out "$work/corrupt.csv" >/dev/null 2>"$work/err.txt"
[ $? -eq 2 ] && grep -qF "line 1: is not a geomsim sweep CSV" "$work/err.txt" && grep -qx "not,a,sweep" "$work/corrupt.csv" && pass ||
  fail "a corrupt --out was not refused, or was overwritten"

# --- geomsim report (smoke grids) -------------------------------------------------------
"$geomsim" report --sims "$source_dir/sims" --out "$work/report" --smoke --only figure-4 --only phase-k2 >/dev/null 2>&1 && pass ||
  fail "report --smoke exited non-zero"
for f in figure-4.md figure-4.png figure-4.svg figure-4.csv figure-4.gp phase-k2.md phase-k2.png; do
  [ -s "$work/report/$f" ] && pass || fail "report did not write $f"
done
head -c 8 "$work/report/figure-4.png" | od -An -tx1 | grep -q "89 50 4e 47" && pass || fail "figure-4.png is not a PNG"
ls "$work/report" | grep -q partial && fail "report left a partial file" || pass
[ ! -e "$work/report/README.md" ] && pass || fail "report --only rewrote the index"
"$geomsim" report --sims "$source_dir/sims" --out "$work/report2" --only no-such-figure >/dev/null 2>"$work/err.txt"
[ $? -eq 2 ] && grep -qF -- "--only names no definition" "$work/err.txt" && pass || fail "report --only with an unknown name not refused"
# a definition's restarts are checked like --restarts: refused by name, no page written
mkdir -p "$work/bad-sims"
sed 's/"solver": "slsqp", "restarts": 0/"solver": "slsqp", "restarts": -1/' "$source_dir/sims/figure-4.json" >"$work/bad-sims/figure-4.json"
"$geomsim" report --sims "$work/bad-sims" --out "$work/report3" --smoke >/dev/null 2>"$work/err.txt"
[ $? -eq 2 ] && grep -qF "parameter 'restarts' must be whole numbers in [0, 1000000], got -1" "$work/err.txt" &&
  [ ! -e "$work/report3/figure-4.md" ] && pass || fail "a definition with restarts -1 was not refused: $(cat "$work/err.txt")"

# --- geomsim measure --embeddings, with or without libtorch (issue 27): .npy and CSV give one
# report, and its numbers are numpy's (tests/metrics/measures_numpy.py's dense formulas) ----------
/usr/bin/python3 - "$work" <<'PY' || fail "could not write the embeddings for measure"
import numpy as np, sys
w = sys.argv[1]
rng = np.random.default_rng(7)
s = np.repeat(np.arange(6), 12)  # 3 classes of 2 subclasses
x = rng.normal(size=(6, 5))[s] + 0.5 * rng.normal(size=(72, 5))
z = x / np.linalg.norm(x, axis=1, keepdims=True)
np.save(w + "/mz.npy", z); np.save(w + "/my.npy", s // 2); np.save(w + "/ms.npy", s)
np.savetxt(w + "/mz.csv", z, delimiter=",", fmt="%.17g")  # every double round-trips
with open(w + "/mys.csv", "w") as f:
    f.write("class,subclass\n" + "".join(f"{a},{b}\n" for a, b in zip(s // 2, s)))
PY
"$geomsim" measure --embeddings "$work/mz.npy" --labels "$work/my.npy" --subclasses "$work/ms.npy" --json "$work/m-npy.json" \
  >"$work/m-npy.txt" && pass || fail "measure --embeddings (.npy) exited $?"
"$geomsim" measure --embeddings "$work/mz.csv" --labels "$work/mys.csv" --labels-column class --subclasses "$work/mys.csv" \
  --subclasses-column subclass --json "$work/m-csv.json" >"$work/m-csv.txt" && pass || fail "measure --embeddings (CSV) exited $?"
# The same text but for the file's name.
diff <(sed 's/mz\.npy/mz/' "$work/m-npy.txt") <(sed 's/mz\.csv/mz/' "$work/m-csv.txt") >/dev/null && pass ||
  fail "measure prints other numbers for the CSV copy of the .npy embeddings"
/usr/bin/python3 - "$work" "$source_dir/tests/metrics" <<'PY' && pass || fail "measure --embeddings disagrees with numpy"
import json, sys
import numpy as np
w = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from measures_numpy import numpy_measures
npy, csv = (json.load(open(f"{w}/m-{k}.json")) for k in ("npy", "csv"))
assert npy["geometry"] == csv["geometry"], "the .npy and CSV reports differ"
assert npy["input"]["format"] == "npy" and csv["input"]["format"] == "csv"
z, y, s = np.load(w + "/mz.npy"), np.load(w + "/my.npy"), np.load(w + "/ms.npy")
assert (npy["samples"], npy["embedding_dim"]) == z.shape
g = npy["geometry"]
classes = numpy_measures(z, y, y, np.zeros((1, 2), int), 2.0)
subclasses = numpy_measures(z, s, s, np.zeros((1, 2), int), 2.0)
close = lambda a, b, rel: abs(a - b) <= rel * abs(b)
assert close(g["uniformity"], classes["uniformity"], 1e-12), (g["uniformity"], classes["uniformity"])
assert close(g["alignment_same_class"], classes["same_class_alignment"], 1e-13)
assert close(g["alignment_same_subclass"], subclasses["same_class_alignment"], 1e-13)
assert close(g["neural_collapse_classes"]["nc1"], classes["nc1"], 1e-11)
assert close(g["neural_collapse_subclasses"]["nc1"], subclasses["nc1"], 1e-11)
norms = np.linalg.norm(z, axis=1)
assert close(npy["embedding_norm"]["min"], norms.min(), 1e-15) and close(npy["embedding_norm"]["max"], norms.max(), 1e-15)
assert [c["count"] for c in g["subclasses"]] == [12] * 6 and g["subclass_pairs"] == 6  # (z, z') both ways, 3 classes
PY

# --- geomsim train (when built with libtorch): a tiny run, resume, bad input -------------
if "$geomsim" train --help >/dev/null 2>&1; then
  # The main solve with libtorch's objective (--device auto: the CPU here, a GPU where there is
  # one) reaches the core's optimum: the same loss to 1e-9, the same geometry, the device named.
  "$geomsim" --K 3 --ny 6 --d 3 --alpha 0.7 --tau 0.5 --seeds 0:2 --restarts 0 --json "$work/solve-core.json" -q &&
    "$geomsim" --K 3 --ny 6 --d 3 --alpha 0.7 --tau 0.5 --seeds 0:2 --restarts 0 --device auto --json "$work/solve-device.json" -q &&
    python3 - "$work/solve-core.json" "$work/solve-device.json" <<'PY' && pass || fail "--device auto did not reach the core's optimum"
import json, sys
core, device = (json.load(open(f)) for f in sys.argv[1:])
assert core["parameters"]["device"] == "cpu" and device["parameters"]["device"] in ("cpu", "cuda:0"), device["parameters"]
assert abs(core["result"]["loss"] - device["result"]["loss"]) <= 1e-9, (core["result"]["loss"], device["result"]["loss"])
assert core["result"]["geometry"]["description"] == device["result"]["geometry"]["description"]
PY
  train_args=(--train-samples 256 --test-samples 200 --batch-size 64 --epochs 2 --width 32 --embedding-dim 16)
  "$geomsim" train --model mlp "${train_args[@]}" --stop-after 1 --checkpoint "$work/run.pt" --json "$work/train1.json" -q && pass ||
    fail "train exited non-zero"
  "$geomsim" train --model mlp "${train_args[@]}" --checkpoint "$work/run.pt" --json "$work/train2.json" -q && pass || fail "train resume exited non-zero"
  python3 - "$work/train1.json" "$work/train2.json" <<'PY' && pass || fail "train JSON is not as documented"
import json, math, sys
first, second = (json.load(open(f)) for f in sys.argv[1:])
assert not first["finished"] and len(first["epochs"]) == 1, first
assert second["finished"] and second["resumed_epochs"] == 1 and len(second["epochs"]) == 2, second
assert second["epochs"][0]["loss"] == first["epochs"][0]["loss"]
e = second["evaluation"]
for key in ("coarse_accuracy_linear_probe", "fine_accuracy_linear_probe", "fine_accuracy_mean_classifier"):
    assert 0 <= e[key] <= 1, (key, e)
for key in ("spread", "subclass_sigma", "sigma_over_spread", "subgroup_recovery_f1"):
    assert math.isfinite(e[key]) and e[key] >= 0, (key, e)
assert second["parameters"]["train_samples"] == 256 and second["device"] in ("cpu", "cuda")
# fmnist-2's classes have 6 and 4 subclasses: Theorem 3 needs exactly two, and says so.
assert e["margin_error"] is None and e["subclass_pairs"] == 0 and e["gamma"] == 1.1, e
assert [c["subclasses"] for c in e["theorem3_classes"]] == [6, 4] and all("needs exactly two" in c["reason"] for c in e["theorem3_classes"]), e
PY
  # geomsim eval reads the checkpoint alone and repeats train's evaluation exactly.
  "$geomsim" eval --checkpoint "$work/run.pt" --train-samples 256 --test-samples 200 --json "$work/eval.json" -q && pass ||
    fail "eval exited non-zero"
  python3 - "$work/train2.json" "$work/eval.json" <<'PY' && pass || fail "eval does not repeat train's evaluation"
import json, sys
trained, evaluated = (json.load(open(f)) for f in sys.argv[1:])
assert evaluated["evaluation"] == trained["evaluation"], (evaluated["evaluation"], trained["evaluation"])
assert evaluated["model"]["format"] == "geomsim" and "mlp" in evaluated["model"]["model"], evaluated["model"]
assert evaluated["model"]["hierarchy"] == "fmnist-2" and evaluated["run"]["loss"] == "spread", evaluated
PY
  expect_eval_rejected() {  # expected-text, then arguments
    local expected=$1
    shift
    expect_refused "$expected" "$work/badeval.json" eval "$@" --json "$work/badeval.json"
  }
  expect_eval_rejected "--checkpoint file not found" --checkpoint "$work/missing.pt"
  head -c 300 "$work/run.pt" >"$work/truncated.pt"
  expect_eval_rejected "is neither a geomsim checkpoint nor a TorchScript module" --checkpoint "$work/truncated.pt"
  expect_eval_rejected "--gamma must be a finite number > 1" --checkpoint "$work/run.pt" --gamma 1
  # A user's IDX pair (here Fashion-MNIST's test files): its first half trains, its second half tests.
  fm=/usr/share/datasets/fashion-mnist
  "$geomsim" train --model mlp --images "$fm/t10k-images-idx3-ubyte.gz" --labels "$fm/t10k-labels-idx1-ubyte.gz" \
    --train-samples 128 --test-samples 100 --batch-size 32 --epochs 1 --width 16 --embedding-dim 8 --loss cclk-weak \
    --json "$work/idx.json" -q && python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j['parameters']['data'].endswith('t10k-images-idx3-ubyte.gz'), j['parameters']" "$work/idx.json" &&
    pass || fail "train on a user's IDX pair"
  expect_train_rejected() {  # expected-text, then arguments
    local expected=$1
    shift
    expect_refused "$expected" "$work/badtrain.json" train "${train_args[@]}" "$@" --json "$work/badtrain.json"
  }
  expect_train_rejected "--loss must be one of spread, supcon" --loss quadruplet
  expect_train_rejected "--hierarchy must be one of" --hierarchy cifar
  expect_train_rejected "--hierarchy cifar100-20 is a hierarchy of cifar-100, not of Fashion-MNIST" --hierarchy cifar100-20
  printf '{"0": 0, "1": 0, "1": 1}' >"$work/dup.json"
  expect_train_rejected "key \"1\" appears twice" --hierarchy "$work/dup.json"
  printf 'fine,coarse\n0,0\n1,2\n' >"$work/gap.csv"
  expect_train_rejected "coarse ids must be contiguous from 0, but 1 is unused" --hierarchy "$work/gap.csv"
  printf '0,0\n1,1\n' >"$work/short.csv"
  expect_train_rejected "--labels must be in 0..1 for --hierarchy" --hierarchy "$work/short.csv"
  expect_train_rejected "--model must be mlp, cnn or vit" --model resnet
  expect_train_rejected "--alpha must be in [0, 1]" --alpha 2
  expect_train_rejected "no train-images-idx3-ubyte" --data "$work"
  "$geomsim" train-sweep --model mlp --alphas 0.2,0.8 --train-samples 128 --test-samples 100 --batch-size 32 --epochs 1 \
    --width 16 --embedding-dim 4 --sim-ny 4 --sim-seeds 0:1 --out "$work/tsweep" -q && pass || fail "train-sweep exited non-zero"
  [ "$(wc -l <"$work/tsweep.csv")" -eq 3 ] && [ -s "$work/tsweep.png" ] && [ -s "$work/tsweep.pdf" ] && [ -s "$work/tsweep-2col.pdf" ] && head -1 "$work/tsweep.csv" | grep -q "^alpha,trained_spread" &&
    pass || fail "train-sweep did not write its CSV and PNG"
  expect_refused "--loss must be spread for train-sweep" "$work/tsweep2.csv" train-sweep --alphas 0.5 --loss supcon --out "$work/tsweep2"
  echo "garbage" >"$work/bad.pt"
  expect_train_rejected "is not a readable geomsim checkpoint" --checkpoint "$work/bad.pt"

  # --- geomsim lipschitz and measure: geomsim checkpoints and TorchScript modules -----------
  [ -n "$fixtures" ] && [ -s "$fixtures/expected.json" ] && pass || fail "no TorchScript fixtures given (third argument)"
  "$geomsim" lipschitz --checkpoint "$fixtures/cnn.pt" --pairs 100 --jacobian-points 8 --out "$work/lip" --json "$work/lip.json" -q &&
    pass || fail "lipschitz on a TorchScript CNN exited non-zero"
  python3 - "$work/lip.json" "$fixtures/expected.json" "$work/lip.csv" <<'PY' && pass || fail "lipschitz JSON is not as documented"
import csv, json, sys
out, expected = (json.load(open(f)) for f in sys.argv[1:3])
upper = out["layer_product_upper_bound"]
assert out["model"]["format"] == "torchscript" and upper["certified"], out
assert upper["value"] >= expected["cnn"] and upper["value"] <= 1.02 * expected["cnn"], (upper, expected)
assert abs(upper["layers"][0]["power_iteration_estimate"] - expected["cnn_conv"]) <= 1e-6 * expected["cnn_conv"], upper
for key in ("K_L", "K_aug_min", "K_aug_max"):
    assert 0 < out[key]["constant"] <= upper["value"], (key, out[key])
assert out["K_aug_min"]["constant"] <= out["K_aug_max"]["constant"] and out["K_g"] is None
assert 0 < out["jacobian_lower_bound"]["max"] <= upper["value"], out["jacobian_lower_bound"]
rows = list(csv.DictReader(open(sys.argv[3])))
assert {r["estimate"] for r in rows} == {"encoder", "augmentation-min", "augmentation-max"} and len(rows) == 300, len(rows)
assert max(float(r["ratio"]) for r in rows if r["estimate"] == "encoder") == out["K_L"]["constant"]
PY
  [ -s "$work/lip.png" ] && [ -s "$work/lip.svg" ] && [ -s "$work/lip.gp" ] && [ -s "$work/lip.pdf" ] && [ -s "$work/lip-2col.pdf" ] && pass || fail "lipschitz --out wrote no figure"
  "$geomsim" train --model mlp --loss thanos --train-samples 128 --test-samples 100 --batch-size 32 --epochs 1 --width 16 \
    --embedding-dim 8 --checkpoint "$work/thanos.pt" -q && pass || fail "THANOS training for lipschitz exited non-zero"
  "$geomsim" lipschitz --checkpoint "$work/thanos.pt" --map features --pairs 50 --jacobian-points 4 --json "$work/lip2.json" -q &&
    python3 - "$work/lip2.json" <<'PY' && pass || fail "lipschitz on a THANOS checkpoint"
import json, sys
out = json.load(open(sys.argv[1]))
upper = out["layer_product_upper_bound"]
assert out["model"]["format"] == "geomsim" and out["map"] == "features" and upper["certified"], out
assert out["K_g"]["constant"] > 0 and out["K_g"]["pairs"] == 50, out["K_g"]
assert out["K_L"]["constant"] <= upper["value"] and out["jacobian_lower_bound"]["max"] <= upper["value"], out
PY
  "$geomsim" lipschitz --checkpoint "$work/run.pt" --pairs 20 --jacobian-points 2 --json "$work/lip3.json" -q &&
    python3 -c "import json,sys; u=json.load(open(sys.argv[1]))['layer_product_upper_bound']; assert u['value'] is None and 'L2 normalisation' in u['unsupported'], u" "$work/lip3.json" &&
    pass || fail "lipschitz on the unit embedding must refuse the layer bound, saying why"
  "$geomsim" measure --checkpoint "$fixtures/cnn.pt" --samples 500 --reference-samples 500 --gamma 1.05 --json "$work/measure.json" -q &&
    "$geomsim" measure --checkpoint "$fixtures/cnn.pt" --hierarchy fmnist-pairs --samples 500 --reference-samples 500 --gamma 1.05 \
      --json "$work/measure_pairs.json" -q &&
    python3 - "$work/measure.json" "$work/measure_pairs.json" <<'PY' && pass || fail "measure JSON is not as documented"
import json, math, sys
out, paired = (json.load(open(f)) for f in sys.argv[1:])
g = out["geometry"]
assert out["samples"] == 500 and out["embedding_dim"] == 5 and g["gamma"] == 1.05, out
assert len(g["subclasses"]) == 10 and len(g["class_spread"]) == 2, g
assert all(math.isfinite(g[k]) and g[k] > 0 for k in ("spread", "subclass_sigma", "sigma_over_spread")), g
assert abs(sum(s["sigma"] for s in g["subclasses"]) / 10 - g["subclass_sigma"]) < 1e-12
assert g["sigma_over_spread_max"] == max(s["sigma_over_spread"] for s in g["subclasses"])
# fmnist-2 (6 and 4 subclasses): no Theorem 3, and why.
assert g["subclass_pairs"] == 0 and g["pairs"] == [] and g["margin_error"] is None and g["theorem3_bound"] is None, g
assert all(not c["theorem3_applies"] and "needs exactly two" in c["reason"] for c in g["theorem3_classes"])
# fmnist-pairs: two subclasses per class, 10 ordered pairs.
g = paired["geometry"]
assert paired["model"]["hierarchy"] == "fmnist-pairs" and len(g["class_spread"]) == 5, paired
assert all(c["theorem3_applies"] and c["reason"] is None and c["subclasses"] == 2 for c in g["theorem3_classes"])
assert g["theorem3_bound"] is None or g["theorem3_bound"] > 0
pairs = g["pairs"]
assert len(pairs) == 10 == g["subclass_pairs"] and abs(sum(p["margin_error"] for p in pairs) / 10 - g["margin_error"]) < 1e-12, pairs[:2]
bounded = [p for p in pairs if p["theorem3_bound"] is not None]
assert len(bounded) == g["theorem3_bounded_pairs"] and sum(p["margin_error"] <= p["theorem3_bound"] for p in bounded) == g["theorem3_bound_holds"]
assert all(p["r"] - 2 * math.log(1.05) > 0 for p in bounded) and all(p["r"] - 2 * math.log(1.05) <= 0 for p in pairs if p["theorem3_bound"] is None)
PY
  expect_model_rejected() {  # expected-text, then arguments
    local expected=$1
    shift
    expect_refused "$expected" "$work/badmodel.json" "$@" --json "$work/badmodel.json"
  }
  expect_model_rejected "--checkpoint file not found" measure --checkpoint "$work/none.pt"
  expect_model_rejected "is neither a geomsim checkpoint nor a TorchScript module" lipschitz --checkpoint "$work/bad.pt"
  expect_model_rejected "--flatten gives it N x (H W) rows" measure --checkpoint "$fixtures/flat_mlp.pt" --samples 50

  # --- geomsim measure --embeddings: the same points from numpy and torch.save give the model path's numbers -----
  # 400 Fashion-MNIST test images as a user's IDX pair: the model path embeds the second half (test)
  # and fits the mean classifier on the first half; PyTorch embeds the same halves with the same
  # module and saves them with numpy.save and torch.save.
  /usr/bin/python3 - "$fixtures/cnn.pt" "$work" <<'PY' && pass || fail "could not write the embeddings with numpy and torch"
import gzip, sys, numpy as np, torch
model, work = torch.jit.load(sys.argv[1]), sys.argv[2]
fm = "/usr/share/datasets/fashion-mnist/"
images = np.frombuffer(gzip.open(fm + "t10k-images-idx3-ubyte.gz").read(), np.uint8, offset=16)[: 400 * 784]
labels = np.frombuffer(gzip.open(fm + "t10k-labels-idx1-ubyte.gz").read(), np.uint8, offset=8)[:400]
open(work + "/u_images.idx", "wb").write(bytes([0, 0, 8, 3]) + (400).to_bytes(4, "big") + (28).to_bytes(4, "big") * 2 + images.tobytes())
open(work + "/u_labels.idx", "wb").write(bytes([0, 0, 8, 1]) + (400).to_bytes(4, "big") + labels.tobytes())
pairs = np.array([0, 1, 2, 1, 2, 3, 0, 3, 4, 4])  # fmnist-pairs
x = torch.from_numpy(images.reshape(400, 1, 28, 28).astype(np.float32)) / 255.0
# One batch per half, as the model path embeds them: a float32 convolution's rounding depends on
# the batch's size (400 vs 200 images moved the embeddings by 4e-7), not on its order or threads.
for part, rows in (("test", slice(200, 400)), ("reference", slice(0, 200))):
    with torch.no_grad():
        z = model(x[rows])
    np.save(f"{work}/{part}_z.npy", z.numpy())
    np.save(f"{work}/{part}_fine.npy", labels[rows].astype(np.int64))
    torch.save(z.clone(), f"{work}/{part}_z.pt")
    torch.save(torch.from_numpy(labels[rows].astype(np.int64)), f"{work}/{part}_fine.pt")
np.save(work + "/test_coarse.npy", pairs[labels[200:]].astype(np.int32))
with open(work + "/test_labels.csv", "w") as f:
    f.write("coarse,fine\n" + "".join(f"{pairs[v]},{v}\n" for v in labels[200:]))
PY
  "$geomsim" measure --checkpoint "$fixtures/cnn.pt" --images "$work/u_images.idx" --labels "$work/u_labels.idx" --hierarchy fmnist-pairs \
    --samples 0 --reference-samples 0 --json "$work/m_model.json" -q && pass || fail "measure on the user's IDX pair exited non-zero"
  "$geomsim" measure --embeddings "$work/test_z.npy" --labels "$work/test_coarse.npy" --subclasses "$work/test_fine.npy" \
    --reference-embeddings "$work/reference_z.npy" --reference-subclasses "$work/reference_fine.npy" --out "$work/heat" \
    --json "$work/m_npy.json" -q && pass || fail "measure --embeddings (npy) exited non-zero"
  "$geomsim" measure --embeddings "$work/test_z.pt" --hierarchy fmnist-pairs --subclasses "$work/test_fine.pt" \
    --reference-embeddings "$work/reference_z.pt" --reference-subclasses "$work/reference_fine.pt" --json "$work/m_pt.json" -q &&
    pass || fail "measure --embeddings (torch.save) exited non-zero"
  "$geomsim" measure --embeddings "$work/test_z.npy" --labels "$work/test_labels.csv" --labels-column coarse \
    --subclasses "$work/test_labels.csv" --subclasses-column fine --reference-embeddings "$work/reference_z.npy" \
    --reference-subclasses "$work/reference_fine.npy" --json "$work/m_csv.json" -q && pass || fail "measure --embeddings (CSV labels) exited non-zero"
  python3 - "$work/m_model.json" "$work/m_npy.json" "$work/m_pt.json" "$work/m_csv.json" "$work/heat.csv" <<'PY' && pass || fail "saved embeddings do not give one another's numbers to 1e-12, or the model path's to float32 rounding"
import csv, json, sys
model, *saved = (json.load(open(f))["geometry"] for f in sys.argv[1:5])
# The three files hold the same float32 embeddings, so they give the same numbers (to 1e-12, the
# order of double sums). The model path embeds the images itself: its float32 convolutions may be
# computed by another algorithm than PyTorch's in the script above (oneDNN and the BLAS pick one
# per CPU, batch and thread count), each embedding coordinate then rounding differently by a few
# float32 units (6e-8) over sums of some hundred terms. A measure of the embeddings then moves by
# about that much relative: an AMD EPYC moved .alignment_same_class by 6.6e-9 relative. 1e-5 is
# float32's rounding over such sums (k u with k ~ 150, u = 6e-8), far below any real difference.
# Everything but the k-means F1, whose seeding depends on the order of the points (the model
# path shuffles the test images; the files hold them in file order).
def numbers(g, prefix=""):
    if isinstance(g, dict):
        for k, v in sorted(g.items()):
            if k != "subgroup_recovery_f1":
                yield from numbers(v, prefix + "." + k)
    elif isinstance(g, list):
        for i, v in enumerate(g):
            yield from numbers(v, f"{prefix}[{i}]")
    else:
        yield prefix, g
def agree(reference, g, tolerance):
    values = dict(numbers(g))
    assert values.keys() == reference.keys(), set(values) ^ set(reference)
    for key, v in reference.items():
        if isinstance(v, float):
            assert abs(values[key] - v) <= tolerance * max(1.0, abs(v)), (key, values[key], v, tolerance)
        else:
            assert values[key] == v, (key, values[key], v)
reference = dict(numbers(model))
assert model["subclass_pairs"] == 10 and len(reference) > 100, model
agree(reference, saved[0], 1e-5)
for g in saved[1:]:
    agree(dict(numbers(saved[0])), g, 1e-12)
rows = list(csv.reader(open(sys.argv[5])))
assert len(rows) == 201 and rows[0][:3] == ["index", "class", "subclass"] and len(rows[1]) == 203
keys = [(int(r[1]), int(r[2])) for r in rows[1:]]
assert keys == sorted(keys), "the heat map is sorted by class, then subclass"
PY
  [ -s "$work/heat.png" ] && [ -s "$work/heat.svg" ] && [ -s "$work/heat.gp" ] && [ -s "$work/heat.pdf" ] && [ -s "$work/heat-2col.pdf" ] && pass || fail "measure --out wrote no heat map"
  # Refusals of bad embedding files (exit 2, nothing written).
  /usr/bin/python3 - "$work" <<'PY'
import sys, numpy as np
w = sys.argv[1]
z = np.zeros((4, 3))
np.save(w + "/bad_fortran.npy", np.asfortranarray(np.arange(12.0).reshape(4, 3)))
np.save(w + "/bad_big.npy", z.astype(">f8"))
np.save(w + "/bad_object.npy", np.array([1, "a", None, 2.0], dtype=object), allow_pickle=True)
open(w + "/bad_trunc.npy", "wb").write(open(w + "/test_z.npy", "rb").read()[:-7])
np.save(w + "/bad_labels.npy", np.zeros(5, np.int64))
np.save(w + "/bad_float_labels.npy", np.zeros(200))
PY
  expect_measure_rejected() {  # expected-text, then arguments
    local expected=$1
    shift
    expect_refused "$expected" "$work/badmeasure.json" measure "$@" --json "$work/badmeasure.json"
  }
  sub=(--subclasses "$work/test_fine.npy" --labels "$work/test_coarse.npy")
  expect_measure_rejected "is in Fortran order" --embeddings "$work/bad_fortran.npy" "${sub[@]}"
  expect_measure_rejected "is big-endian" --embeddings "$work/bad_big.npy" "${sub[@]}"
  expect_measure_rejected "holds Python objects" --embeddings "$work/bad_object.npy" "${sub[@]}"
  expect_measure_rejected "is truncated" --embeddings "$work/bad_trunc.npy" "${sub[@]}"
  expect_measure_rejected "--labels holds 5 labels but --embeddings has 200 rows" --embeddings "$work/test_z.npy" \
    --subclasses "$work/test_fine.npy" --labels "$work/bad_labels.npy"
  expect_measure_rejected "labels must be an integer array" --embeddings "$work/test_z.npy" --subclasses "$work/test_fine.npy" \
    --labels "$work/bad_float_labels.npy"
  expect_measure_rejected "--subclasses is required with --embeddings" --embeddings "$work/test_z.npy" --labels "$work/test_coarse.npy"
  expect_measure_rejected "--labels or --hierarchy (not both)" --embeddings "$work/test_z.npy" --subclasses "$work/test_fine.npy"
  expect_measure_rejected "--json names the same file as --embeddings" --embeddings "$work/badmeasure.json" "${sub[@]}"
  expect_measure_rejected "--checkpoint is required, or --embeddings" --samples 10
  expect_model_rejected "must return N x d embeddings" measure --checkpoint "$fixtures/bad_output.pt" --samples 50
  expect_model_rejected "--map features is only for geomsim checkpoints" lipschitz --checkpoint "$fixtures/cnn.pt" --map features
  expect_model_rejected "--map must be embedding or features" lipschitz --checkpoint "$fixtures/cnn.pt" --map logits
  expect_model_rejected "--pairs must be >= 1" lipschitz --checkpoint "$fixtures/cnn.pt" --pairs 0
  "$geomsim" measure --checkpoint "$fixtures/flat_mlp.pt" --flatten --samples 50 --reference-samples 50 -q && pass ||
    fail "measure --flatten on a flat-input TorchScript model"
  # --- geomsim robustness: every method on a tiny spurious set, resume, refusals -----------
  robust_args=(--train-per-subclass 24 --validation-per-subclass 8 --test-per-subclass 8 --width 16
               --embedding-dim 8 --epochs 2 --batch-size 32 --encoder-epochs 1 --encoder-batch-size 32 --jtt-epochs 1
               --max-clusters 3 --threads 1)
  for method in erm jtt george supcon thanos groupdro-oracle cclk-fair; do
    "$geomsim" robustness "${robust_args[@]}" --dataset spurious --method "$method" --json "$work/robust-$method.json" -q && pass ||
      fail "robustness --method $method exited non-zero"
  done
  python3 - "$work" <<'PY' && pass || fail "robustness JSON is not as documented"
import json, math, sys
for method in ("erm", "jtt", "george", "supcon", "thanos", "groupdro-oracle", "cclk-fair"):
    j = json.load(open(f"{sys.argv[1]}/robust-{method}.json"))
    assert j["command"] == "robustness" and j["finished"] and j["parameters"]["method"] == method, j
    groups = j["dataset"]["groups"]
    assert [g["train"] for g in groups] == [114, 6, 6, 114] and [g["test"] for g in groups] == [20] * 4, groups
    t = j["test"]
    accuracies = [g["accuracy"] for g in t["per_group"]]
    assert len(accuracies) == 4 and all(0 <= a <= 1 for a in accuracies), t
    assert t["worst_group_accuracy"] == min(accuracies) and abs(t["average_accuracy"] - sum(accuracies) / 4) < 1e-12, t
    seen = j["labels_seen"]
    assert ("true groups" in seen["model_selection"]) == (method == "groupdro-oracle"), seen
    clustered = method in ("george", "supcon", "thanos", "cclk-fair")
    assert (j["clusters"] is not None) == clustered, j["clusters"]
    assert (j["subgroup_f1"] is not None) == (clustered or method == "jtt"), j["subgroup_f1"]
    if clustered:
        assert all(1 <= c["k"] <= 3 for c in j["clusters"]["per_class"]) and 0 <= j["subgroup_f1"]["train"] <= 1, j
        assert j["selection_groups"] == j["clusters"]["total"]
    assert ("encoder" in j["stages"]) == (method in ("supcon", "thanos", "cclk-fair")), j["stages"].keys()
PY
  "$geomsim" robustness "${robust_args[@]}" --dataset spurious --method supcon --checkpoint "$work/robust.pt" --stop-after 2 --json "$work/rs1.json" -q &&
    "$geomsim" robustness "${robust_args[@]}" --dataset spurious --method supcon --checkpoint "$work/robust.pt" --json "$work/rs2.json" -q && pass ||
    fail "robustness resume exited non-zero"
  python3 - "$work/rs1.json" "$work/rs2.json" "$work/robust-supcon.json" <<'PY' && pass || fail "robustness resume differs from an uninterrupted run"
import json, sys
first, second, whole = (json.load(open(f)) for f in sys.argv[1:])
assert not first["finished"] and first["test"] is None and len(first["stages"]["end_model"]["epochs"]) == 1, first
assert second["finished"] and second["stages"]["end_model"]["resumed_epochs"] == 1, second["stages"]
assert second["stages"]["encoder"]["resumed_epochs"] == 1
assert second["test"] == whole["test"] and second["clusters"] == whole["clusters"], (second["test"], whole["test"])
PY
  expect_robust_rejected() {  # expected-text, then arguments
    local expected=$1
    shift
    expect_refused "$expected" "$work/badrobust.json" robustness "${robust_args[@]}" "$@" --json "$work/badrobust.json"
  }
  expect_robust_rejected "was written by a run with other options (l2 0.01 (now 0.1))" --dataset spurious --method supcon --l2 0.1 --checkpoint "$work/robust.pt"
  expect_robust_rejected "--method must be one of erm, jtt" --dataset spurious --method dro
  expect_robust_rejected "--method cclk-fair conditions on the background attribute" --method cclk-fair --dataset undersampled
  expect_robust_rejected "--dataset must be undersampled or spurious" --method erm --dataset waterbirds
  expect_robust_rejected "--agreement must be in [0.5, 1]" --dataset spurious --method erm --agreement 0.3
  expect_robust_rejected "--min-silhouette must be in [-1, 1]" --dataset spurious --method george --min-silhouette 2
  expect_robust_rejected "--rare-fraction must be in (0, 1], got 0" --dataset undersampled --method erm --rare-fraction 0
  expect_robust_rejected "--checkpoint names the same file as --json" --dataset spurious --method erm --checkpoint "$work/badrobust.json"
  "$geomsim" robustness --dataset undersampled --method jtt --train-per-subclass 40 --validation-per-subclass 8 --test-per-subclass 8 \
    --width 16 --embedding-dim 8 --epochs 1 --jtt-epochs 1 --threads 1 --json "$work/ru.json" -q &&
    python3 - "$work/ru.json" <<'PY' && pass || fail "robustness on the undersampled set"
import json, sys
j = json.load(open(sys.argv[1]))
groups = j["dataset"]["groups"]
assert [g["train"] for g in groups] == [40] * 8 + [2, 40] and j["dataset"]["rare_subclass"] == "Bag", groups
assert len(j["test"]["per_group"]) == 10 and j["jtt_error_set_size"] >= 0
PY
fi

# --- geomsim experiment and report with a training kind (when built with libtorch) -------
if "$geomsim" train --help >/dev/null 2>&1; then
  mkdir -p "$work/sims"
  cat >"$work/sims/tiny.json" <<'JSON'
{"name": "tiny", "title": "A tiny transfer experiment", "kind": "transfer",
 "claims": [{"claim": "L_spread beats SupCon", "source": "test", "metric": "fine_probe", "test": "greater",
             "a": {"method": "spread"}, "b": {"method": "supcon"}}],
 "parameters": {"methods": ["supcon", "spread"], "hierarchies": ["fmnist-2"], "encoders": ["mlp"], "seeds": "0:1",
                "alpha": 0.5, "tau": 0.5, "train_images": 128, "test_images": 100, "epochs": 1, "batch_size": 64,
                "embedding_dim": 8, "width": 16}}
JSON
  "$geomsim" experiment --definition "$work/sims/tiny.json" --out "$work/exp" 2>"$work/exp-err.txt" && pass ||
    fail "experiment exited non-zero: $(tail -3 "$work/exp-err.txt")"
  python3 - "$work/exp/tiny.csv" "$work/exp/tiny.md" <<'PY' && pass || fail "experiment CSV or page is not as documented"
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 4 and sorted((r["method"], r["seed"]) for r in rows) == [("spread", "0"), ("spread", "1"), ("supcon", "0"), ("supcon", "1")]
for r in rows:
    assert r["epochs"] == "1" and r["train_images"] == "128" and r["hierarchy"] == "fmnist-2", r
    assert 0 <= float(r["fine_probe"]) <= 1 and math.isfinite(float(r["seconds"])), r
page = open(sys.argv[2]).read()
for text in ("# A tiny transfer experiment", "Labels each method saw", "± ", "L_spread beats SupCon", "Measured wall time"):
    assert text in page, text
assert any(v in page for v in ("**holds**", "**does not hold**", "**within noise**")), page
PY
  # kTrainingResultsVersion says when the training runs' numbers change (issue 52): in an
  # environment tests/train_experiments/tiny_runs_by_version.csv records, tiny's runs must give
  # the recorded bits at the recorded version; a change that moves them must raise the version
  # (and rerun the pages) and record the new rows, which the failure prints.
  python3 "$source_dir/tests/train_experiments/check_results_version.py" "$work/exp/tiny.csv" \
    "$source_dir/tests/train_experiments/tiny_runs_by_version.csv" >"$work/version.txt" 2>&1 &&
    pass || fail "$(cat "$work/version.txt")"
  # A rerun of a finished experiment trains nothing and leaves its cache as it was.
  expect_cached_rerun() {  # definition, out folder, cache CSV, a copy of it from before, the expected count
    "$geomsim" experiment --definition "$1" --out "$2" 2>"$work/exp-err.txt" && grep -qF "$5" "$work/exp-err.txt" && cmp -s "$3" "$4" &&
      pass || fail "a rerun of $1 trained again or changed the cache: $(cat "$work/exp-err.txt")"
  }
  cp "$work/exp/tiny.csv" "$work/tiny-before.csv"
  expect_cached_rerun "$work/sims/tiny.json" "$work/exp" "$work/exp/tiny.csv" "$work/tiny-before.csv" "4 runs, 4 cached"
  # The same experiment as two data-parallel ranks: rank 0 writes the cache and the page; every
  # run trains on both ranks and ends where the one-process run ends (up to the order of the
  # sums: the final losses to 1e-5; the accuracies on 100 test images, of probes fitted anew on
  # embeddings that differ in their last digits, to three images).
  "$geomsim" experiment --definition "$work/sims/tiny.json" --out "$work/exp-ranks" --nproc-per-node 2 2>"$work/exp-err.txt" &&
    python3 - "$work/exp/tiny.csv" "$work/exp-ranks/tiny.csv" "$work/exp-ranks/tiny.md" <<'PY' && pass || fail "experiment on two ranks: $(tail -3 "$work/exp-err.txt")"
import csv, sys
one = {(r["method"], r["seed"]): r for r in csv.DictReader(open(sys.argv[1]))}
two = {(r["method"], r["seed"]): r for r in csv.DictReader(open(sys.argv[2]))}
assert one.keys() == two.keys(), (one.keys(), two.keys())
for key in one:
    assert one[key]["world_size"] == "1" and two[key]["world_size"] == "2", key
    for metric in ("coarse_accuracy", "fine_probe", "fine_mean"):
        assert abs(float(one[key][metric]) - float(two[key][metric])) <= 0.0301, (key, metric, one[key][metric], two[key][metric])
    assert abs(float(one[key]["final_loss"]) - float(two[key]["final_loss"])) <= 1e-5 * abs(float(one[key]["final_loss"])), key
assert "# A tiny transfer experiment" in open(sys.argv[3]).read()
PY
  # Two shards at once on one cache (as a job array's tasks run): every run lands once, neither
  # shard writes the page, and the experiment without --shard then trains nothing and writes it.
  "$geomsim" experiment --definition "$work/sims/tiny.json" --out "$work/exp-shards" --shard 0/2 2>"$work/shard0.txt" &
  shard0=$!
  "$geomsim" experiment --definition "$work/sims/tiny.json" --out "$work/exp-shards" --shard 1/2 2>"$work/shard1.txt" &
  shard1=$!
  wait "$shard0" && wait "$shard1" && [ ! -e "$work/exp-shards/tiny.md" ] && grep -qF "2 to train in shard 0/2" "$work/shard0.txt" &&
    grep -qF "2 to train in shard 1/2" "$work/shard1.txt" &&
    "$geomsim" experiment --definition "$work/sims/tiny.json" --out "$work/exp-shards" 2>"$work/shards.txt" &&
    grep -qF "4 runs, 4 cached" "$work/shards.txt" && [ -s "$work/exp-shards/tiny.md" ] &&
    python3 - "$work/exp/tiny.csv" "$work/exp-shards/tiny.csv" <<'PY' && pass || fail "two shards at once on one cache: $(cat "$work/shard0.txt" "$work/shard1.txt" "$work/shards.txt")"
import csv, sys
one = sorted((r["method"], r["seed"]) for r in csv.DictReader(open(sys.argv[1])))
shards = sorted((r["method"], r["seed"]) for r in csv.DictReader(open(sys.argv[2])))
assert one == shards and len(shards) == 4, (one, shards)
PY
  # Identical settings, identical numbers (issue 52): a second definition holding one of tiny's
  # runs, in the same folder, trains nothing and takes tiny's row (one computation for both
  # pages); the same run trained afresh at one thread (tiny's ran at all cores) gives the same
  # bits in every result where libtorch promises it. Every row records its results version, run
  # id and environment.
  sed -e 's/"name": "tiny"/"name": "tinyb"/' -e 's/"methods": \["supcon", "spread"\]/"methods": ["spread"]/' \
      -e 's/"seeds": "0:1"/"seeds": 1/' "$work/sims/tiny.json" >"$work/tinyb.json"
  sed -e 's/"name": "tinyb"/"name": "tinyt"/' -e 's/"width": 16/"width": 16, "threads": 1/' "$work/tinyb.json" >"$work/tinyt.json"
  "$geomsim" experiment --definition "$work/tinyb.json" --out "$work/exp" 2>"$work/tinyb.txt" &&
    grep -qF "1 runs, 1 cached in $work/exp/tinyb.csv (1 of them from other pages), 0 to train" "$work/tinyb.txt" &&
    "$geomsim" experiment --definition "$work/tinyt.json" --out "$work/exp-threads" 2>"$work/tinyt.txt" &&
    grep -qF "1 runs, 0 cached" "$work/tinyt.txt" &&
    python3 - "$work/exp/tiny.csv" "$work/exp/tinyb.csv" "$work/exp-threads/tinyt.csv" <<'PY' && pass || fail "identical runs of two definitions or two thread counts differ: $(cat "$work/tinyb.txt" "$work/tinyt.txt")"
import csv, sys
tiny = [r for r in csv.DictReader(open(sys.argv[1])) if r["method"] == "spread" and r["seed"] == "1"]
shared = list(csv.DictReader(open(sys.argv[2])))
fresh = list(csv.DictReader(open(sys.argv[3])))
assert len(tiny) == len(shared) == len(fresh) == 1, (tiny, shared, fresh)
tiny, shared, fresh = tiny[0], shared[0], fresh[0]
assert shared == tiny, "the shared row is not tiny's"
for r in (tiny, fresh):
    assert r["results_version"] and len(r["run_id"]) == 16 and r["libtorch"] and r["blas"] and r["cpu_level"], r
assert fresh["threads"] == "1" and int(tiny["threads"]) >= 1 and fresh["run_id"] == tiny["run_id"], (tiny, fresh)
timing = {"seconds", "train_seconds", "samples_per_second", "threads"}
differ = [c for c in tiny if c not in timing and tiny[c] != fresh[c]]
if tiny["blas"].startswith("generic"):
    # Debian's libtorch 1.13 (BLAS_INFO=generic) multiplies float32 matrices with a last bit that
    # depends on the thread count (torch.mm of 100x784 by 784x16 differs at 1 and 2 threads);
    # the wheel's MKL does not. The training and the scores agree; the geometry of the
    # embeddings to float32's rounding. The row records threads and blas (sims/README.md).
    for c in differ:
        assert c not in ("final_loss", "coarse_accuracy", "fine_probe", "fine_mean", "subgroup_f1"), (c, tiny[c], fresh[c])
        a, b = float(tiny[c]), float(fresh[c])
        assert abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1.0), (c, a, b)
else:
    assert not differ, [(c, tiny[c], fresh[c]) for c in differ]
PY
  # The coreset kind shards whole seeds (each scores its pool once): 4 shards of 4 seeds x 2 runs,
  # one after another, train all 8 runs, none writes the page, and the run without --shard does.
  mkdir -p "$work/coreset-sims"
  echo '{"name": "cs", "title": "Tiny coresets", "kind": "coreset", "paper": "x", "parameters": {"methods": ["random"], "hierarchy": "identity", "encoder": "mlp", "sizes": [0.5, 1], "seeds": "0:3", "alpha": 0.5, "tau": 0.5, "train_images": 256, "test_images": 100, "epochs": 1, "recipe": "paper-transfer", "embedding_dim": 8, "width": 16, "threads": 1, "score_runs": 1, "el2n_epoch": 1, "spread_fractions": [0.5], "spread_samples": 1, "spread_epochs": 1, "probe_labels": 0.1}}' >"$work/coreset-sims/cs.json"
  for shard in 0 1 2 3; do
    "$geomsim" experiment --definition "$work/coreset-sims/cs.json" --out "$work/exp-cs" --shard "$shard/4" 2>>"$work/cs.txt" || break
  done
  [ ! -e "$work/exp-cs/cs.md" ] && python3 - "$work/exp-cs/cs.csv" <<'PY' &&
import csv, sys
rows = sorted((r["seed"], r["size"]) for r in csv.DictReader(open(sys.argv[1])))
assert rows == [(str(s), z) for s in range(4) for z in ("0.5", "1")], rows
PY
    "$geomsim" experiment --definition "$work/coreset-sims/cs.json" --out "$work/exp-cs" 2>>"$work/cs.txt" && [ -s "$work/exp-cs/cs.md" ] &&
    pass || fail "coreset shards: $(cat "$work/cs.txt")"
  sed 's/"epochs": 1/"epochs": 2/' "$work/sims/tiny.json" >"$work/tiny2.json"
  "$geomsim" experiment --definition "$work/tiny2.json" --out "$work/exp" >/dev/null 2>"$work/err.txt"
  [ $? -eq 2 ] && grep -qF "epochs = 2" "$work/err.txt" && grep -qF "epochs = 1" "$work/err.txt" && cmp -s "$work/exp/tiny.csv" "$work/tiny-before.csv" &&
    pass || fail "a cached run with other epochs was not refused: $(cat "$work/err.txt")"
  echo '{"name": "bad", "title": "t", "kind": "transfer", "parameters": {"methods": ["supcon"], "hierarchies": ["fmnist-9"], "encoders": ["mlp"], "seeds": 0, "alpha": 0.5, "tau": 0.5, "train_images": 128, "test_images": 100, "epochs": 1}}' >"$work/sims/bad.json"
  "$geomsim" report --sims "$work/sims" --out "$work/exp-report" >/dev/null 2>"$work/err.txt"
  [ $? -eq 2 ] && grep -qF "definition bad" "$work/err.txt" && [ ! -e "$work/exp-report/bad.md" ] && [ ! -e "$work/exp-report/README.md" ] &&
    pass || fail "report did not name a failing training definition, or wrote its page: $(cat "$work/err.txt")"
  rm "$work/sims/bad.json"
  "$geomsim" report --sims "$work/sims" --out "$work/exp" >/dev/null 2>&1 && grep -qF "[A tiny transfer experiment](tiny.md)" "$work/exp/README.md" &&
    pass || fail "report did not run the training definition into its index"
  expect_refused "--definition" "$work/none.md" experiment --definition "$work/no-such.json" --out "$work/none"
  # The robustness kind (seed 004 Table 4): every run is `geomsim robustness` with the definition's options.
  mkdir -p "$work/rsims"
  cat >"$work/rsims/rob.json" <<'JSON'
{"name": "rob", "title": "A tiny robustness experiment", "kind": "robustness",
 "claims": [{"claim": "THANOS beats ERM's worst group", "source": "test", "metric": "worst_group", "test": "greater",
             "a": {"method": "thanos"}, "b": {"method": "erm"}}],
 "paper_table": {"table": "Table 4", "columns": ["Waterbirds"], "analogue": {"spurious": "Waterbirds"}, "rows": {"thanos": {"worst_group": [88.6]}}},
 "parameters": {"datasets": ["spurious"], "methods": ["erm", "thanos"], "seeds": "0:1", "train_per_subclass": 30,
                "validation_per_subclass": 10, "test_per_subclass": 20, "epochs": 1, "encoder_epochs": 1, "width": 16,
                "embedding_dim": 8, "threads": 1}}
JSON
  "$geomsim" experiment --definition "$work/rsims/rob.json" --out "$work/rob" 2>"$work/rob-err.txt" && pass ||
    fail "robustness experiment exited non-zero: $(tail -3 "$work/rob-err.txt")"
  "$geomsim" robustness --dataset spurious --method thanos --seed 1 --data-seed 1 --train-per-subclass 30 --validation-per-subclass 10 \
    --test-per-subclass 20 --epochs 1 --encoder-epochs 1 --width 16 --embedding-dim 8 --threads 1 --json "$work/rob-thanos1.json" -q &&
    pass || fail "robustness thanos seed 1"
  python3 - "$work/rob/rob.csv" "$work/rob/rob.md" "$work/rob-thanos1.json" <<'PY' && pass || fail "robustness experiment CSV or page is not as documented"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert sorted((r["method"], r["seed"]) for r in rows) == [("erm", "0"), ("erm", "1"), ("thanos", "0"), ("thanos", "1")], rows
# A run of the definition is the command with the same options: the same result.
command = json.load(open(sys.argv[3]))
thanos1 = [r for r in rows if r["method"] == "thanos" and r["seed"] == "1"][0]
assert float(thanos1["worst_group"]) == command["test"]["worst_group_accuracy"], (thanos1["worst_group"], command["test"])
assert float(thanos1["subgroup_f1"]) == command["subgroup_f1"]["train"]
for key, value in command["parameters"].items():
    if isinstance(value, (str, int)):
        assert thanos1[key] == str(value), (key, thanos1[key], value)
assert thanos1["train_per_subclass"] == "30" and thanos1["data_seed"] == "1"
page = open(sys.argv[2]).read()
for text in ("# A tiny robustness experiment", "Labels each method saw", "± ", "Table 4 analogue: spurious (beside the paper's Waterbirds)",
             "88.6 (Waterbirds)", "THANOS beats ERM's worst group [dataset spurious]", "Measured wall time"):
    assert text in page, text
assert any(v in page for v in ("**holds**", "**does not hold**", "**within noise**")), page
PY
  # Two data-parallel ranks: the same runs (the end models' batches split unevenly among them), to
  # one test image of a group of 20 (weights that differ in their last digits may flip one).
  "$geomsim" experiment --definition "$work/rsims/rob.json" --out "$work/rob-ranks" --nproc-per-node 2 2>"$work/rob-err.txt" &&
    python3 - "$work/rob/rob.csv" "$work/rob-ranks/rob.csv" <<'PY' && pass || fail "robustness experiment on two ranks: $(tail -3 "$work/rob-err.txt")"
import csv, sys
one = {(r["method"], r["seed"]): r for r in csv.DictReader(open(sys.argv[1]))}
two = {(r["method"], r["seed"]): r for r in csv.DictReader(open(sys.argv[2]))}
assert one.keys() == two.keys(), (one.keys(), two.keys())
for key in one:
    assert one[key]["world_size"] == "1" and two[key]["world_size"] == "2", key
    for metric in ("worst_group", "average"):
        assert abs(float(one[key][metric]) - float(two[key][metric])) <= 0.0501, (key, metric, one[key][metric], two[key][metric])
PY
  cp "$work/rob/rob.csv" "$work/rob-before.csv"
  expect_cached_rerun "$work/rsims/rob.json" "$work/rob" "$work/rob/rob.csv" "$work/rob-before.csv" "4 runs, 4 cached"
  sed 's/"epochs": 1,/"epochs": 2,/' "$work/rsims/rob.json" >"$work/rob2.json"
  "$geomsim" experiment --definition "$work/rob2.json" --out "$work/rob" >/dev/null 2>"$work/err.txt"
  [ $? -eq 2 ] && grep -qF "epochs = 2" "$work/err.txt" && cmp -s "$work/rob/rob.csv" "$work/rob-before.csv" &&
    pass || fail "a cached robustness run with other epochs was not refused: $(cat "$work/err.txt")"
  sed 's/"epochs": 1,/"epoch": 1,/' "$work/rsims/rob.json" >"$work/rob3.json"
  expect_refused "'epoch', which the robustness kind does not know" "$work/none.md" experiment --definition "$work/rob3.json" --out "$work/none"
  echo '{"name": "k", "title": "t", "kind": "quantum", "parameters": {}}' >"$work/kind.json"
  expect_refused "the kind \"quantum\" is not a training kind" "$work/none.md" experiment --definition "$work/kind.json" --out "$work/none"
fi

finish cli_test

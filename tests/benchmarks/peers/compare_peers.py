#!/usr/bin/env python3
"""geomsim beside its scipy peers, side by side in one run: the core rows of issue 14's table.

  version  `geomsim --version`, whole process (median of 20)
  paper    the paper's problem (`geomsim --K 3 --alpha 0.64 --tau 0.5`), whole process, against
           scipy's SLSQP best of 5 with the analytic gradient and scipy's defaults (our assumption of
           the paper's call: seed 004 names SLSQP, not its settings), whole process
           (scipy_slsqp_sweep.py --scipy-defaults at that one point); medians of 11 and 3
  large    N = 2000, d = 32, K = 10, tau = 0.5 at alpha 0.5, 0.535, 0.6, 0.7, 0.9 (issue 32's
           table): scipy's L-BFGS-B (its defaults, scipy_lbfgsb_large.py) to its own stop or 60 s,
           then geomsim's CLI (one seed, the default solver or --solver, 60 s cap) to its own stop,
           as a whole process, with the load average beside each time. geomsim's time to reach scipy's loss (to
           1e-9) is the whole process time of the first run capped at --max-seconds 1/64 s,
           growing by 2^(1/4), that ends at or below it (or of the uncapped run): an upper bound. The
           ratio is scipy's minimisation time (imports excluded) over that. At alpha 0.6 and 0.7 also
           geomsim capped at 10 s (issue 50's targets: loss <= -1.13496 and <= -1.33450)
  certify  the same problem at alpha 0.7, the default solve capped at 5 s, then `--certify`
           (Lanczos on the exact Hessian, streamed): whole process time and the verdict
  scale    N = 2 10^4, d = 128, K = 10, alpha 0.7, tau 0.5: the default solve (or --solver) to its
           own stop or --scale-cap seconds, whole process, with its peak resident memory
  objective  objective + gradient at N = 10^4 and 5 10^4, d = 128, 2 threads, each size in its
           own geomsim_bench process: seconds, vs one N x N x d GEMM (the BLAS's dgemm, best of
           3, with its GFLOP/s; a ratio below 1 is printed as a measurement fault), peak resident
           memory
  sweep    the 100-point sweep (K = 2, n_y = 8, d = 2 and 5, alpha 0.7 to 0.945, tau 0.5):
           geomsim sweep (the default solve, whole process) against scipy's SLSQP best of 5 in
           its strongest form (ftol 1e-15, restarted while it improves: the reference for
           "never worse", 1e-9) and with scipy's defaults (time only)

Each start is each program's own (geomsim's seeds, numpy's generator). --smoke runs every row
on a tiny problem (for CI: it checks that the comparison runs, not its numbers). Prints a
table; --json FILE writes every number. Timings are wall clock on whatever else the machine
is running: compare rows of one run, not across runs.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = sys.executable


def timed(cmd, env=None):
    """Runs cmd; returns (seconds, stdout). Fails loudly on a non-zero exit."""
    start = time.perf_counter()
    run = subprocess.run(cmd, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    if run.returncode != 0:
        raise SystemExit(f"compare_peers: {' '.join(cmd)} exited {run.returncode}: {run.stderr.strip()}")
    return seconds, run.stdout


def median_time(cmd, repeats):
    return statistics.median(timed(cmd)[0] for _ in range(repeats))


def geomsim_json(geomsim, args, tmp):
    out = os.path.join(tmp, "run.json")
    seconds, _ = timed([geomsim, *args, "--json", out, "--quiet"])
    with open(out) as f:
        return seconds, json.load(f)


def load_average():
    """The 1-minute load average, printed beside every timing (the machine may be shared)."""
    return os.getloadavg()[0]


def solver_args(a):
    return ["--solver", a.solver] if a.solver else []


def timed_peak(cmd):
    """Runs cmd; returns (seconds, stdout, peak resident memory in bytes) of that one process."""
    start = time.perf_counter()
    with tempfile.TemporaryFile(mode="w+") as out, tempfile.TemporaryFile(mode="w+") as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            raise SystemExit(f"compare_peers: {' '.join(cmd)} exited {proc.returncode}: {err.read().strip()}")
        return seconds, out.read(), usage.ru_maxrss * 1024


def row_version(a, results):
    seconds = median_time([a.geomsim, "--version"], 3 if a.smoke else 20)
    results["version"] = {"seconds": seconds, "target_seconds": 0.02}
    print(f"version     geomsim --version, whole process: {seconds:.4f} s (target <= 0.02 s)")


def row_paper(a, results, tmp):
    K, ny, d, alpha = (2, 4, 2, 0.7) if a.smoke else (3, 8, 3, 0.64)
    problem = ["--K", str(K), "--ny", str(ny), "--d", str(d), "--alpha", str(alpha), "--tau", "0.5"]
    # 11 repeats: on this 2-core VM a 2-thread process of ~20 ms has a heavy tail (the idle core
    # comes up slowly; 25 runs: 14.5-57 ms, median 17 ms, one thread 23 ms), so 5 left the median
    # to luck.
    repeats = 1 if a.smoke else 11
    variants = {"default": [], "--restarts 0 (best of seeds 0-4)": ["--restarts", "0"],
                "--solver slsqp --restarts 0 (SLSQP best of 5, as the paper; its settings ours)": ["--solver", "slsqp", "--restarts", "0"]}
    ours = {}
    for name, extra in variants.items():
        times, loss, starts = [], None, None
        for _ in range(repeats):
            seconds, j = geomsim_json(a.geomsim, problem + extra, tmp)
            times.append(seconds)
            loss, starts = j["result"]["loss"], j["result"]["starts"]
        ours[name] = {"seconds": statistics.median(times), "loss": loss, "starts": starts}
    scipy_cmd = [PYTHON, os.path.join(HERE, "scipy_slsqp_sweep.py"), "--K", str(K), "--ny", str(ny), "--d", str(d),
                 "--alpha-start", str(alpha), "--alpha-count", "1", "--scipy-defaults"]
    scipy_times, scipy_loss = [], None
    for _ in range(1 if a.smoke else 3):
        seconds, out = timed(scipy_cmd)
        scipy_times.append(seconds)
        scipy_loss = float(list(csv.DictReader(out.splitlines()))[0]["loss"])
    scipy_seconds = statistics.median(scipy_times)
    results["paper"] = {"geomsim": ours, "scipy_slsqp": {"seconds": scipy_seconds, "loss": scipy_loss},
                        "target_ratio": 20}
    print(f"paper       scipy SLSQP best of 5 + analytic gradient, whole process: {scipy_seconds:.3f} s, "
          f"loss {scipy_loss:.12f}")
    for name, r in ours.items():
        print(f"            geomsim {name}: {r['seconds']:.3f} s ({r['starts']} starts), loss {r['loss']:.12f}, "
              f"{scipy_seconds / r['seconds']:.1f}x (target >= 20x)")


# Issue 50: the loss geomsim reaches within a 10 s cap (whole process, one seed, default solver) at
# N = 2000, d = 32, K = 10, tau = 0.5, by alpha.
CAPPED_SECONDS = 10.0
CAPPED_TARGETS = {0.6: -1.13496, 0.7: -1.33450}


def row_large(a, results, tmp):
    K, ny, d, cap = (4, 25, 8, 10) if a.smoke else (10, 200, 32, 60)
    alphas = [0.7] if a.smoke else [float(x) for x in a.large_alphas.split(",")]
    rows = []
    for alpha in alphas:
        _, out = timed([PYTHON, os.path.join(HERE, "scipy_lbfgsb_large.py"), "--K", str(K), "--ny", str(ny), "--d",
                        str(d), "--alpha", str(alpha), "--max-seconds", str(cap)])
        theirs = json.loads(out)
        scipy_load = load_average()
        problem = ["--K", str(K), "--ny", str(ny), "--d", str(d), "--alpha", str(alpha), "--tau", "0.5", "--seeds", "0",
                   *solver_args(a)]
        target = theirs["loss"] + 1e-9 * max(1.0, abs(theirs["loss"]))
        # The run to its own stop (at most cap seconds): its status and loss.
        seconds, j = geomsim_json(a.geomsim, problem + ["--max-seconds", str(cap)], tmp)
        load = load_average()
        run = j["result"]["runs"][0]
        loss = j["result"]["loss"]
        # The time to reach scipy's loss: the whole process time of the first of the capped runs
        # (--max-seconds 1/64 s, growing by 2^(1/4): a bound within 19 % of the crossing) that
        # ends at or below it, or of the uncapped run.
        reach_seconds = seconds if loss <= target else None
        limit = 1.0 / 64
        while reach_seconds is not None and limit < seconds / 2:
            capped_seconds, capped = geomsim_json(a.geomsim, problem + ["--max-seconds", str(limit)], tmp)
            if capped["result"]["loss"] <= target:
                reach_seconds = min(reach_seconds, capped_seconds)
                break
            limit *= 2 ** 0.25
        r = {"alpha": alpha, "scipy": theirs, "geomsim": {"seconds": seconds, "loss": loss, "status": run["status"],
                                                          "iterations": run["iterations"],
                                                          "stationarity": run["stationarity"],
                                                          "threads": j["timing"]["threads"],
                                                          "solver": j["solver"]["name"],
                                                          "load": load},
             "scipy_load": scipy_load,
             "target_met": run["status"] == "gtol" and seconds <= 10.0,
             "reach_seconds": reach_seconds,
             "ratio": theirs["seconds"] / reach_seconds if reach_seconds else None,
             "cpu_level": j.get("cpu_level")}
        capped_line = ""
        if alpha in CAPPED_TARGETS and not a.smoke:
            capped_seconds, capped = geomsim_json(a.geomsim, problem + ["--max-seconds", str(CAPPED_SECONDS)], tmp)
            r["capped"] = {"max_seconds": CAPPED_SECONDS, "seconds": capped_seconds, "loss": capped["result"]["loss"],
                           "target_loss": CAPPED_TARGETS[alpha],
                           "target_met": capped["result"]["loss"] <= CAPPED_TARGETS[alpha],
                           "load": load_average()}
            c = r["capped"]
            capped_line = (f"\n            capped at {CAPPED_SECONDS:.0f} s: whole process {c['seconds']:.2f} s to "
                           f"{c['loss']:.10f} (target <= {c['target_loss']}: {'met' if c['target_met'] else 'NOT met'}, "
                           f"load {c['load']:.1f})")
        rows.append(r)
        ratio = (f"reaches scipy's loss within {reach_seconds:.2f} s: {r['ratio']:.1f}x" if reach_seconds
                 else "scipy's loss NOT reached")
        print(f"large       N = {K * ny}, d = {d}, K = {K}, alpha = {alpha}: scipy L-BFGS-B {theirs['seconds']:.2f} s "
              f"to {theirs['loss']:.10f} ({theirs['stop']}, load {scipy_load:.1f}); geomsim {r['geomsim']['solver']} "
              f"whole process {seconds:.2f} s to {loss:.10f} "
              f"({run['status']}, {run['iterations']} iterations, stationarity {run['stationarity']:.1e}, "
              f"{j['timing']['threads']} thread{'' if j['timing']['threads'] == 1 else 's'}, load {load:.1f}); {ratio} "
              f"(targets: >= 10x; gtol within 10 s: {'met' if r['target_met'] else 'NOT met'}; kernels "
              f"{r['cpu_level']}){capped_line}")
    results["large"] = rows


def row_certify(a, results, tmp):
    K, ny, d = (4, 25, 8) if a.smoke else (10, 200, 32)
    problem = ["--K", str(K), "--ny", str(ny), "--d", str(d), "--alpha", "0.7", "--tau", "0.5", "--seeds", "0",
               "--max-seconds", "5", *solver_args(a)]
    solve_seconds, _ = geomsim_json(a.geomsim, problem, tmp)
    seconds, j = geomsim_json(a.geomsim, problem + ["--certify"], tmp)
    load = load_average()
    certificate = j["result"].get("certificate", {})
    eigenvalue = "an eigenvalue at most" if certificate.get("smallest_is_bound") else "smallest eigenvalue"
    verdict = (f"{certificate['kind']}, {eigenvalue} {certificate['smallest_eigenvalue']:.2e}, "
               f"{certificate['lanczos_steps']} Lanczos steps")
    results["certify"] = {"seconds": seconds, "solve_seconds": solve_seconds, "certify_seconds": seconds - solve_seconds,
                          "load": load, "certificate": certificate, "target_seconds": 10.0}
    print(f"certify     N = {K * ny}, d = {d}, K = {K}, alpha = 0.7: solve (5 s cap) {solve_seconds:.2f} s, with --certify "
          f"{seconds:.2f} s whole process (the certificate {seconds - solve_seconds:.2f} s, target <= 10 s), load "
          f"{load:.1f}: {verdict}")


def row_scale(a, results, tmp):
    K, ny, d, cap = (4, 25, 8, 5) if a.smoke else (10, 2000, 128, a.scale_cap)
    out = os.path.join(tmp, "scale.json")
    cmd = [a.geomsim, "--K", str(K), "--ny", str(ny), "--d", str(d), "--alpha", "0.7", "--tau", "0.5", "--seeds", "0",
           "--max-seconds", str(cap), *solver_args(a), "--json", out, "--quiet"]
    seconds, _, peak = timed_peak(cmd)
    load = load_average()
    with open(out) as f:
        j = json.load(f)
    run = j["result"]["runs"][0]
    results["scale"] = {"N": K * ny, "d": d, "seconds": seconds, "peak_bytes": peak, "load": load,
                        "status": run["status"], "iterations": run["iterations"], "stationarity": run["stationarity"],
                        "loss": j["result"]["loss"], "threads": j["timing"]["threads"], "target_bytes": 1e9}
    print(f"scale       N = {K * ny}, d = {d}, K = {K}, alpha = 0.7: geomsim whole process {seconds:.1f} s to "
          f"{j['result']['loss']:.10f} ({run['status']}, {run['iterations']} iterations, stationarity "
          f"{run['stationarity']:.1e}, {j['timing']['threads']} threads, load {load:.1f}), peak memory "
          f"{peak / 1e6:.0f} MB (targets: converged, gtol or ftol; <= 1000 MB)")


def row_objective(a, results):
    sizes = [1000] if a.smoke else [1000, 5000]
    rows = []
    for ny in sizes:
        _, out = timed([a.bench, f"--benchmark_filter=ObjectiveAndGradientLarge/{ny}/", "--benchmark_format=json"])
        bench = json.loads(out)["benchmarks"][0]
        r = {k: bench[k] for k in ("N", "seconds", "gemm_seconds", "gemm_gflops", "vs_gemm", "measurement_fault",
                                   "peak_rss_mb", "threads")}
        r["blas"] = bench.get("label", "")
        rows.append(r)
        # The baseline is the BLAS dgemm of the shape, best of 3; a ratio below 1 (the objective
        # faster than one GEMM of its shape) is a fault of the measurement, not a result.
        ratio = (f"MEASUREMENT FAULT (objective {r['vs_gemm']:.2f}x one GEMM: a disturbed run, not a result)"
                 if r["measurement_fault"] else f"{r['vs_gemm']:.2f}x one GEMM")
        print(f"objective   N = {int(r['N'])}, d = 128, {int(r['threads'])} threads: {r['seconds']:.2f} s, "
              f"{ratio} (BLAS dgemm best of 3: {r['gemm_seconds']:.2f} s, {r['gemm_gflops']:.1f} GFLOP/s), "
              f"peak resident {r['peak_rss_mb']:.0f} MB "
              f"(targets: N = 5e4 <= 3x and <= 2 GB; N = 1e4 <= 2.5x and <= 100 MB)")
    results["objective"] = rows


def read_losses(text):
    return {(int(r["d"]), round(float(r["alpha"]), 9)): float(r["loss"]) for r in csv.DictReader(text.splitlines())}


def row_sweep(a, results, tmp):
    d_list, count = ("2", 2) if a.smoke else ("2,5", 50)
    last = 0.7 + 0.005 * (count - 1)
    out_csv = os.path.join(tmp, "sweep.csv")
    ours_seconds, _ = timed([a.geomsim, "sweep", "--K", "2", "--ny", "8", "--d", d_list, "--alpha",
                             f"0.7:{last:.3f}:0.005", "--tau", "0.5", "--out", out_csv, "-q"])
    with open(out_csv) as f:
        table = list(csv.DictReader(f))
    ours = {(int(r["d"]), round(float(r["alpha"]), 9)): float(r["loss"]) for r in table}
    starts = sorted({int(r["runs"]) for r in table})
    peer = [PYTHON, os.path.join(HERE, "scipy_slsqp_sweep.py"), "--d", d_list, "--alpha-count", str(count)]
    strong_seconds, strong_out = timed(peer)
    default_seconds, default_out = timed(peer + ["--scipy-defaults"])
    strong, scipy_defaults = read_losses(strong_out), read_losses(default_out)
    gaps = {k: ours[k] - strong[k] for k in strong}
    worse = sorted((k, g) for k, g in gaps.items() if g > 1e-9)
    worse_defaults = sum(1 for k in scipy_defaults if ours[k] - scipy_defaults[k] > 1e-9)
    results["sweep"] = {"points": len(gaps), "starts_per_point": starts, "geomsim_seconds": ours_seconds,
                        "scipy_strong_seconds": strong_seconds, "scipy_defaults_seconds": default_seconds,
                        "worse_than_scipy_strong": [[k[0], k[1], g] for k, g in worse],
                        "largest_gap": max(gaps.values()), "worse_than_scipy_defaults": worse_defaults}
    print(f"sweep       {len(gaps)} points, geomsim sweep (default solve, {starts} starts per point): "
          f"{ours_seconds:.1f} s whole process")
    print(f"            scipy SLSQP best of 5, strongest form: {strong_seconds:.1f} s ({strong_seconds / ours_seconds:.1f}x); "
          f"geomsim worse at {len(worse)} points by > 1e-9, largest gap geomsim - scipy {max(gaps.values()):.2e}")
    print(f"            scipy SLSQP best of 5, scipy's defaults: {default_seconds:.1f} s "
          f"({default_seconds / ours_seconds:.1f}x); geomsim worse at {worse_defaults} points (target: never worse, >= 3x)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--geomsim", default="build/geomsim")
    ap.add_argument("--bench", default="build/tests/benchmarks/geomsim_bench")
    ap.add_argument("--rows", default="version,paper,large,certify,scale,objective,sweep")
    ap.add_argument("--solver", help="geomsim's --solver for the large, certify and scale rows (default: geomsim's)")
    ap.add_argument("--large-alphas", default="0.5,0.535,0.6,0.7,0.9", help="the large row's alphas")
    ap.add_argument("--scale-cap", type=float, default=600.0, help="the scale row's --max-seconds (default 600)")
    ap.add_argument("--smoke", action="store_true", help="tiny problems: checks that every row runs")
    ap.add_argument("--json", help="write every number to this file")
    a = ap.parse_args()
    results = {"smoke": a.smoke, "omp_num_threads": os.environ.get("OMP_NUM_THREADS"), "nproc": os.cpu_count()}
    rows = a.rows.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        for name in rows:
            if name == "version":
                row_version(a, results)
            elif name == "paper":
                row_paper(a, results, tmp)
            elif name == "large":
                row_large(a, results, tmp)
            elif name == "certify":
                row_certify(a, results, tmp)
            elif name == "scale":
                row_scale(a, results, tmp)
            elif name == "objective":
                row_objective(a, results)
            elif name == "sweep":
                row_sweep(a, results, tmp)
            else:
                raise SystemExit(f"compare_peers: --rows: unknown row '{name}'")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

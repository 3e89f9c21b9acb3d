#!/usr/bin/env python3
"""The cross-page comparison of identical runs (issue 52): every pair of rows, in any two CSV
tables of notebooks-export/, whose settings are all equal must have equal results, to the bit
(the cells are shortest round-trip numbers, so equal bits are equal text).

A table takes part when it has a `seed` or `seeds` column (the run tables of the training pages
and the sweep tables of the simulated ones; heatmaps and point sets have neither). A column is a
result when RESULTS names it or RESULT_PATTERNS matches it; every other column is a setting, so
an unknown column keeps two rows apart rather than pairing them wrongly. A setting missing from
a table counts as an empty cell (a run cache writes optional parameters only where they are set),
and so does `none` (a parameter the run does not read: insufficient-samples writes cond_clusters
none for CCL-K, which no k-means clusters feed, where cclk-kernels leaves the column out).
Columns that say where and how long a run ran (ENVIRONMENT) are neither: they are shown for a
differing pair, never compared.

Usage: compare_identical_runs.py EXPORT_DIR [--verbose]. Prints one line a differing pair
(pages, the run's key, the differing results) and a summary; exit 0 when no pair differs, 1
otherwise, 2 on bad usage.

A CI check (ctest sims.identical_runs) on the committed pages since every training page was rerun
at results_version 2: rows carry results_version (a setting here: rows of two versions never
pair) and are trained again when the code's version changes (train_experiments/run_identity.hpp).
Before that, on 2026-11-29, 42 of 4518 such pairs differed, all between rows that a page's run
cache had computed with different code versions. By hand:
python3 tests/sims/compare_identical_runs.py notebooks-export"""
import csv
import glob
import os
import re
import sys
from collections import defaultdict

# Measured values: what a run computes from its settings.
RESULTS = {
    # training runs (experiment_runs.cpp add_transfer_metrics, the kinds' own metrics)
    "coarse_accuracy", "fine_probe", "fine_mean", "fine_probe_labelled", "spread", "sigma",
    "sigma_over_spread", "sigma_over_spread_max", "subgroup_f1", "subgroup_f1_validation", "colour_mse",
    "head_accuracy", "clean_ece", "corruption_error", "ece_rise", "c2f_mean_loss", "original_mean_loss",
    "lemma1_lambda", "lemma2_lambda", "strata_norm2", "margin_error", "theorem3_bound",
    "theorem3_boundary_pairs", "theorem3_boundary_mean", "final_loss", "easy_share", "filled_classes",
    "K_L", "K_aug_min", "K_aug_max", "jacobian_unit", "K_L_features", "jacobian_features",
    "layer_product_features", "K_L_minus_K_aug_min", "K_L_minus_K_aug_max", "K_g", "K_L_minus_K_g",
    "trained_spread_mean", "trained_spread_sd", "trained_sigma_over_spread_mean", "simulated_spread",
    "simulated_geometry", "sigma_common", "sigma_rare", "rare_minus_common_sigma", "delta_common_rare",
    "delta_rare_rare",
    # robustness runs (experiment_robustness.cpp add_robustness_metrics)
    "worst_group", "average", "average_minus_worst", "worst_group_name", "validation_worst_group",
    "validation_average", "clusters", "selection_groups", "best_epoch", "error_set_f1",
    "error_set_f1_validation", "jtt_error_set",
    # simulated sweeps (sweep CSVs)
    "loss", "geometry", "atoms", "max_atoms", "collapsed_loss", "uniform_loss", "predicted_regime",
    "predicted_spread", "predicted_loss", "threshold", "window_end", "converged_runs", "runs", "best_of",
    "default_solve_loss", "predicted_start_loss", "paper_method_loss", "paper_method_spread",
    "paper_method_geometry", "paper_method_atoms", "paper_method_max_atoms",
}
RESULT_PATTERNS = [re.compile(p) for p in (
    r"test_group_\d+", r"corrupt_accuracy_s\d+", r"ece_s\d+", r"p_z\d+", r"sigma_z\d+", r"delta_z\d+",
    # a run's own head under corruption (evaluate_head_corruptions): the probe's metrics, prefixed
    r"head_(clean_ece|corruption_error|ece_rise|corrupt_accuracy_s\d+|ece_s\d+)")]
# Where and how long: recorded, shown, never compared (timings differ on every run).
# The run id is a digest of the settings and of what the page measured: pages that measured
# different things of one run still pair on the results they share.
ENVIRONMENT = {"seconds", "train_seconds", "samples_per_second", "score_seconds", "lipschitz_seconds",
               "device", "world_size", "threads", "libtorch", "blas", "aten_cpu", "cpu_level", "run_id"}
SHOWN = ("device", "world_size", "threads", "libtorch", "blas", "aten_cpu", "cpu_level")
# A training run's rows have a `loss` setting (the loss's name); a sweep's `loss` is a number.
TRAINING_MARKER = "method"


def is_result(column, training):
    if column == "loss" and training:
        return False  # the loss's name, a setting of a training run
    return column in RESULTS or any(p.fullmatch(column) for p in RESULT_PATTERNS)


def setting(cell):
    return "" if cell in (None, "", "none") else cell


def read_tables(export):
    tables = []
    for path in sorted(glob.glob(os.path.join(export, "*.csv"))):
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            columns = reader.fieldnames or []
            if "seed" not in columns and "seeds" not in columns:
                continue
            rows = list(reader)
        training = TRAINING_MARKER in columns
        settings = [c for c in columns if c not in ENVIRONMENT and not is_result(c, training)]
        results = [c for c in columns if c not in ENVIRONMENT and is_result(c, training)]
        tables.append((os.path.basename(path)[:-4], settings, results, rows))
    return tables


def compare(export, verbose=False):
    tables = read_tables(export)
    all_settings = sorted({c for _, settings, _, _ in tables for c in settings})
    by_settings = defaultdict(list)  # the settings' cells -> [(page, row)]
    for page, settings, _, rows in tables:
        if verbose:
            print(f"{page}: {len(rows)} rows; settings: {' '.join(settings)}")
        for row in rows:
            key = tuple((c, setting(row.get(c))) for c in all_settings)
            by_settings[key].append((page, row))
    pairs, differing, lines = 0, 0, []
    shared = defaultdict(int)  # (page, page) -> pairs of identical settings
    for key, hits in by_settings.items():
        for i in range(len(hits)):
            for j in range(i + 1, len(hits)):
                (pa, ra), (pb, rb) = hits[i], hits[j]
                if pa == pb:
                    continue  # one cache holds one row per run; a page's duplicates are its own check
                pairs += 1
                shared[tuple(sorted((pa, pb)))] += 1
                common = [c for c in ra if c in rb and is_result(c, TRAINING_MARKER in ra)]
                diff = [c for c in common if (ra[c] or "") != (rb[c] or "")]
                if diff:
                    differing += 1
                    run = " ".join(f"{c}={v}" for c, v in key if v and c in ("method", "dataset", "hierarchy", "encoder", "seed", "K", "d", "alpha", "tau"))
                    shown = ", ".join(f"{c} {ra[c] or '-'} vs {rb[c] or '-'}" for c in diff[:4]) + (f" (+{len(diff) - 4} more)" if len(diff) > 4 else "")
                    env = " ".join(f"{c} {ra.get(c) or '-'}/{rb.get(c) or '-'}" for c in SHOWN if c in ra or c in rb)
                    lines.append(f"DIFFER {pa} ~ {pb}: {run}: {shown}" + (f" [{env}]" if env else ""))
    for line in sorted(lines):
        print(line)
    for (pa, pb), n in sorted(shared.items()):
        print(f"shared: {pa} ~ {pb}: {n} runs with identical settings")
    print(f"{len(tables)} tables, {sum(len(t[3]) for t in tables)} rows; {pairs} pairs of rows on two pages with "
          f"identical settings; {differing} differ in a result")
    return differing


def main(argv):
    args = [a for a in argv[1:] if a != "--verbose"]
    if len(args) != 1 or not os.path.isdir(args[0]):
        print(__doc__, file=sys.stderr)
        return 2
    return 1 if compare(args[0], verbose="--verbose" in argv) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Holds kTrainingResultsVersion (include/geomsim/train_experiments/run_identity.hpp) to what it
says: the same results version gives the same numbers.

Usage: check_results_version.py RUNS.csv GOLDEN.csv

RUNS.csv is a run cache of cli_test.sh's tiny transfer experiment; GOLDEN.csv holds, per results
version and environment (libtorch, blas, aten_cpu, cpu_level, threads: what may move the last bits), the
results of those runs. For every run of RUNS.csv whose environment GOLDEN.csv records:
- at a version it records, every result must be equal to the bit (the cells are shortest
  round-trip numbers): else the code changed the runs' numbers without raising the version;
- at a version it does not record, the new rows must be recorded.
Either failure prints the rows to add (exit 1). Runs in an environment GOLDEN.csv does not know
are not checked (exit 0, said on stdout): another libtorch or CPU may differ in the last bits.
Exit 2 on bad usage or unreadable tables."""
import csv
import sys

ENVIRONMENT = ("libtorch", "blas", "aten_cpu", "cpu_level", "threads")
RUN = ("method", "seed")
RESULTS = ("final_loss", "coarse_accuracy", "fine_probe", "fine_mean", "spread", "sigma", "subgroup_f1")
COLUMNS = ("results_version",) + ENVIRONMENT + RUN + RESULTS


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    tables = []
    for path in argv[1:]:
        try:
            with open(path, newline="", encoding="utf-8") as f:
                reader = csv.DictReader(f)
                tables.append(list(reader))
                missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
        except (OSError, csv.Error, UnicodeDecodeError) as e:
            print(f"check_results_version: {e}", file=sys.stderr)
            return 2
        if missing:
            print(f"check_results_version: {path} lacks the columns {' '.join(missing)}", file=sys.stderr)
            return 2
    runs, golden = tables
    known_environments = {tuple(g[c] for c in ENVIRONMENT) for g in golden}
    recorded = {tuple(g[c] for c in ("results_version",) + ENVIRONMENT + RUN): g for g in golden}
    problems, to_record, checked = [], [], 0
    for run in runs:
        environment = tuple(run[c] for c in ENVIRONMENT)
        if environment not in known_environments:
            continue
        checked += 1
        key = tuple(run[c] for c in ("results_version",) + ENVIRONMENT + RUN)
        line = ",".join(run[c] for c in COLUMNS)
        if key not in recorded:
            problems.append(f"{' '.join(RUN)} {run['method']} {run['seed']}: results version {run['results_version']} is not recorded")
            to_record.append(line)
            continue
        differ = [f"{c} {recorded[key][c]} -> {run[c]}" for c in RESULTS if recorded[key][c] != run[c]]
        if differ:
            problems.append(f"method {run['method']} seed {run['seed']} at results version {run['results_version']}: " + ", ".join(differ))
            to_record.append(line)
    if problems:
        print("The training runs' numbers changed, or a new results version is not recorded:")
        for p in problems:
            print("  " + p)
        print("If the change is meant, raise kTrainingResultsVersion (include/geomsim/train_experiments/run_identity.hpp) when "
              "it is still the recorded one, rerun the training pages, and add these rows to " + argv[2] + ":")
        for line in to_record:
            print(line)
        return 1
    if checked == 0:
        print(f"not checked: {argv[2]} records no run in this environment ({', '.join(ENVIRONMENT)} of the runs differ)")
    else:
        print(f"{checked} runs give the recorded bits of their results version")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

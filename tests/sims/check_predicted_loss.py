#!/usr/bin/env python3
"""Every simulated page's committed CSV (notebooks-export/NAME.csv of a sims/NAME.json) against
the configuration the page itself predicts (issue 29): where predicted_regime is the split and
predicted_loss is given, loss <= predicted_loss + 1e-9; where the page holds the paper's method
in columns of its own, loss <= paper_method_loss + 1e-9 (loss is the best known optimum); and a
sweep page (one with predicted_loss) whose definition pins the paper's method ("solver": "slsqp",
"restarts": 0) has those columns.

Usage: check_predicted_loss.py SIMS_DIR EXPORT_DIR. Exit 0 when every row holds, 1 otherwise
(each failing row printed), 2 on bad usage."""
import csv
import glob
import json
import os
import sys

TOLERANCE = 1e-9


def check(sims, export):
    failures, checked = [], 0
    for definition in sorted(glob.glob(os.path.join(sims, "*.json"))):
        with open(definition, encoding="utf-8") as f:
            spec = json.load(f)
        name, parameters = spec["name"], spec.get("parameters", {})
        path = os.path.join(export, name + ".csv")
        if not os.path.isfile(path):
            continue
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            columns = reader.fieldnames or []
            rows = list(reader)
        if "predicted_loss" not in columns:
            continue  # not a sweep page (point_sets, heatmaps, tables)
        pinned = parameters.get("solver") == "slsqp" and parameters.get("restarts") == 0
        if pinned and "paper_method_loss" not in columns:
            failures.append(f"{path}: pins the paper's method but has no paper_method_loss column")
        for line, row in enumerate(rows, start=2):
            checked += 1
            loss = float(row["loss"])
            where = f"{path} line {line} (K={row['K']} d={row['d']} tau={row['tau']} alpha={row['alpha']})"
            if row["predicted_regime"] == "split" and row["predicted_loss"]:
                predicted = float(row["predicted_loss"])
                if loss > predicted + TOLERANCE:
                    failures.append(f"{where}: loss {loss!r} > predicted_loss {predicted!r} + {TOLERANCE} (by {loss - predicted:.3g})")
            if row.get("paper_method_loss"):
                paper = float(row["paper_method_loss"])
                if loss > paper + TOLERANCE:
                    failures.append(f"{where}: loss {loss!r} > paper_method_loss {paper!r} + {TOLERANCE}")
    return failures, checked


def main(argv):
    if len(argv) != 3:
        print("usage: check_predicted_loss.py SIMS_DIR EXPORT_DIR", file=sys.stderr)
        return 2
    failures, checked = check(argv[1], argv[2])
    for failure in failures:
        print(failure)
    print(f"{checked} rows checked, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

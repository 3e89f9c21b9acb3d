#!/usr/bin/env bash
# One sims/ definition on its smoke grid, as CI runs it: `geomsim report --smoke --only NAME`
# into a scratch folder. Fails when the report fails, writes no page, leaves a partial file, or
# prints NaN; a training definition must also have written its run cache with one row per
# planned run and a verdict for each claim.
# Usage: smoke_definition.sh GEOMSIM SIMS_DIR NAME
set -uo pipefail
geomsim=$1 sims=$2 name=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! "$geomsim" report --sims "$sims" --out "$work" --smoke --only "$name" >"$work/stdout.txt" 2>"$work/stderr.txt"; then
  echo "report --smoke --only $name failed:"; tail -20 "$work/stderr.txt"; exit 1
fi
page="$work/$name.md"
if [ ! -e "$page" ] && grep -qF "skipped: it trains" "$work/stderr.txt"; then echo "skipped: this build has no training module"; exit 0; fi
[ -s "$page" ] || { echo "no page $page"; ls "$work"; exit 1; }
ls "$work" | grep -q partial && { echo "a partial file was left behind"; exit 1; }
grep -qiE '(^|[^a-z])nan([^a-z]|$)' "$page" && { echo "$page prints NaN"; exit 1; }
python3 - "$sims/$name.json" "$work" "$name" <<'PY'
import csv, json, os, sys
definition, out, name = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
page = open(os.path.join(out, name + ".md")).read()
assert " --smoke`" in page, "the page does not say it comes from the smoke grid (its regenerate command)"
if definition.get("claims"):
    verdicts = sum(page.count(v) for v in ("**holds**", "**does not hold**", "**within noise**", "**untestable**"))
    assert verdicts >= len(definition["claims"]), f"{verdicts} verdicts for {len(definition['claims'])} claims"
if definition["kind"] == "robustness":
    rows = list(csv.DictReader(open(os.path.join(out, name + ".csv"))))
    p = dict(definition["parameters"], **definition.get("smoke", {}))
    seeds = p["seeds"].split(":") if isinstance(p["seeds"], str) else p["seeds"]
    n_seeds = int(seeds[1]) - int(seeds[0]) + 1 if isinstance(p["seeds"], str) else len(seeds)
    planned = sum(1 for d in p["datasets"] for m in p["methods"] if m != "cclk-fair" or d == "spurious") * n_seeds
    assert len(rows) == planned, f"{len(rows)} rows for {planned} planned runs"
    for r in rows:
        assert 0 <= float(r["worst_group"]) <= float(r["average"]) <= 1, r
        assert r["data_seed"] == r["seed"], r
        if r["method"] in ("george", "supcon", "thanos", "cclk-fair"):
            assert 0 <= float(r["subgroup_f1"]) <= 1 and int(float(r["clusters"])) >= 2, r
    table = definition["paper_table"]["table"]
    for text in ("Labels each method saw", f"{table} analogue: undersampled", f"{table} analogue: spurious", f"The paper's {table}", "± "):
        assert text in page, text
PY

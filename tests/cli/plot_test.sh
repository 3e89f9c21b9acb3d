#!/usr/bin/env bash
# End-to-end check of `geomsim plot` (issue 31): a sweep over K = 2..5 and two dimensions d,
# drawn with one curve per K and one panel per d. The figure's files must all be written, the
# input left as it was, and the saved gnuplot script must hold, for every image it draws, one
# curve per K in each panel and a legend of one entry per K, one for the theory and one for
# the thresholds; then the page-style definitions kinds: curves by K in an alpha_spread.
# Usage: plot_test.sh PATH/TO/geomsim
set -u
geomsim=$(realpath "${1:?usage: plot_test.sh PATH/TO/geomsim}")
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
cd "$work" || exit 1

"$geomsim" sweep --K 2,3,4,5 --ny 4 --d 3,6 --alpha 0.5:0.95:0.05 --tau 0.5 --seeds 0:1 --solver rlbfgs --out sweep.csv -q ||
  fail "the sweep failed"
cp sweep.csv sweep-before.csv
"$geomsim" plot --csv sweep.csv --x alpha --y spread --curves K --facets d --out fig >out.txt 2>err.txt && pass ||
  fail "plot exited $?: $(cat err.txt)"
for f in fig.png fig.svg fig.pdf fig-2col.pdf fig.gp; do [ -s "$f" ] && pass || fail "plot did not write $f"; done
head -c 8 fig.png | od -An -tx1 | grep -q "89 50 4e 47" && pass || fail "fig.png is not a PNG"
head -c 5 fig.pdf | grep -q "%PDF-" && pass || fail "fig.pdf is not a PDF"
head -c 5 fig-2col.pdf | grep -q "%PDF-" && pass || fail "fig-2col.pdf is not a PDF"
cmp -s sweep.csv sweep-before.csv && pass || fail "plot changed its input"
ls | grep -q -e partial -e '\.tmp' && fail "plot left a temporary file" || pass
grep -qF "written to fig.gp, fig.png, fig.svg, fig.pdf and fig-2col.pdf" out.txt && pass || fail "plot's summary: $(cat out.txt)"
[ -s err.txt ] && fail "plot wrote to stderr: $(cat err.txt)" || pass
python3 - fig.gp <<'PY' && pass || fail "the gnuplot script is not one curve per K per panel with one legend"
import re, sys
script = open(sys.argv[1]).read()
terminals = re.split(r"^set terminal ", script, flags=re.M)[1:]
assert [t.split()[0] for t in terminals] == ["pngcairo", "svg", "pdfcairo", "pdfcairo"], [t.split()[0] for t in terminals]
assert "size 3.5in," in terminals[2] and "size 7in," in terminals[3]
for body in terminals:
    plots = [l for l in body.splitlines() if l.startswith("plot ")]
    assert len(plots) == 3, plots  # two panels and the legend
    for panel, d in zip(plots[:2], ("3", "6")):
        styles = re.findall(r"with linespoints lt (\d+)", panel)
        assert sorted(styles) == ["1", "2", "3", "4"], (d, styles)  # one curve per K
        assert "title" not in panel.replace("notitle", ""), panel   # no legend entry in a panel
    assert re.findall(r"set title '(d = \d+)'", body) == ["d = 3", "d = 6"], body
    legend = re.findall(r"title '([^']*)'", plots[2])
    assert legend == ["K = 2", "K = 3", "K = 4", "K = 5", "theory", "α = K/(2K−1)"], legend
    assert "n_y = 4, τ = 0.5" in body  # the fixed parameters, in the subtitle
PY

# The sweep's d = K default: d is fixed per curve, and said so in the legend.
"$geomsim" sweep --K 2,3 --ny 4 --alpha 0.6,0.7,0.8 --tau 0.5 --seeds 0 --solver rlbfgs --out dk.csv -q || fail "the d = K sweep failed"
"$geomsim" plot --csv dk.csv --x alpha --y loss --curves K --out dk >/dev/null 2>err.txt && grep -qF "'K = 3 (d = 3)'" dk.gp && pass ||
  fail "d = K per curve not named in the legend: $(cat err.txt)"
# --where keeps one value of a parameter that would otherwise join curves.
"$geomsim" plot --csv sweep.csv --x alpha --y spread --curves K --where d=6 --out d6 >/dev/null 2>err.txt &&
  grep -qF "n_y = 4, d = 6, τ = 0.5" d6.gp && pass || fail "--where d=6: $(cat err.txt)"
# Any column: x = d, curves by alpha, no theory.
"$geomsim" plot --csv sweep.csv --x d --y loss --curves K --where alpha=0.7 --no-theory --out byd >/dev/null 2>err.txt &&
  ! grep -qF "title 'theory'" byd.gp && pass || fail "x = d with --no-theory: $(cat err.txt)"

# An alpha_spread definition with one curve per K and one panel per d (smoke-sized).
mkdir -p sims
cat >sims/byk.json <<'JSON'
{"name": "byk", "title": "spread by K", "kind": "alpha_spread",
 "parameters": {"K": [2, 3], "ny": 2, "d": [2, 3], "tau": 0.5, "alpha": [0.6, 0.8], "seeds": "0:1", "solver": "slsqp",
                "curves": "K", "facets": "d"}}
JSON
"$geomsim" report --sims sims --out rep >/dev/null 2>err.txt && pass || fail "curves K, facets d refused: $(cat err.txt)"
for f in byk.png byk.pdf byk-2col.pdf byk.md; do [ -s "rep/$f" ] && pass || fail "report did not write $f"; done
grep -qF "| d = 2, K = 2 |" rep/byk.md && pass || fail "the page's table has no column per panel and curve"
# The same plotted from its CSV by geomsim plot gives the same figure.
"$geomsim" plot --csv rep/byk.csv --x alpha --y spread --curves K --facets d --title "spread by K" --out again >/dev/null &&
  diff <(sed 's/again\./byk./; s/again-/byk-/' again.gp) rep/byk.gp >/dev/null && pass || fail "plot and the page drew different scripts"

finish plot_test

#!/usr/bin/env bash
# An interrupted `geomsim report` keeps what it finished and resumes (issue 31): a report of two
# definitions is killed (SIGKILL, as a lost session or an out-of-time job would end it) while the
# second one runs; the first one's files must be there, with the second one's checkpoint of
# finished points. The rerun must keep the first page, solve only the second one's missing points,
# and end with the same data and pages as an uninterrupted report.
#
# Usage: report_resume.sh PATH/TO/geomsim
set -u
geomsim=$(realpath "${1:?usage: report_resume.sh PATH/TO/geomsim}")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
passed=0 failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
cd "$T" || exit 1
mkdir sims
# a: two points (a fraction of a second); b: 31 points (seconds), checkpointed once a second.
cat >sims/a.json <<'JSON'
{"name": "a", "title": "a", "kind": "alpha_spread", "paper": "", "notes": "",
 "parameters": {"K": 2, "ny": 4, "d": 2, "tau": 0.5, "alpha": [0.6, 0.8], "seeds": "0:1", "solver": "slsqp", "restarts": 0}}
JSON
cat >sims/b.json <<'JSON'
{"name": "b", "title": "b", "kind": "alpha_spread", "paper": "", "notes": "",
 "parameters": {"K": 2, "ny": 8, "d": 5, "tau": 0.25, "alpha": "0.5:0.95:0.015", "seeds": "0:4", "solver": "slsqp", "restarts": 0}}
JSON

"$geomsim" report --sims sims --out whole >/dev/null 2>whole.err && pass || fail "the uninterrupted report failed: $(cat whole.err)"

"$geomsim" report --sims sims --out part >/dev/null 2>part.err &
pid=$!
# Until b has checkpointed some of its points (at most 120 s), then the kill.
for _ in $(seq 1 1200); do
  [ -f part/b.partial.csv ] && [ "$(wc -l <part/b.partial.csv)" -ge 3 ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
kill -KILL "$pid" 2>/dev/null && pass || fail "the report ended before it could be interrupted: $(cat part.err)"
wait "$pid" 2>/dev/null
[ -f part/a.md ] && [ -f part/a.csv ] && [ -f part/a.png ] && pass || fail "the interrupted report lost a's finished files: $(ls -a part)"
[ ! -e part/b.md ] && [ ! -e part/b.csv ] && pass || fail "the interrupted report wrote b's page unfinished"
[ -f part/.geomsim-report-progress.json ] && pass || fail "the interrupted report left no progress record"
checkpointed=$(($(wc -l <part/b.partial.csv) - 1))
# Copies of the interrupted folder whose finished page lost a file, or had one cut short, since
# (issue 53): the rerun must run that definition again, not keep a page without its figure.
cp -a part lost && rm lost/a.png
cp -a part cut && head -c 100 part/a.svg >cut/a.svg

"$geomsim" report --sims sims --out part >/dev/null 2>resume.err && pass || fail "the resumed report failed: $(cat resume.err)"
grep -qF "geomsim report: a (alpha_spread) kept: finished by the interrupted report" resume.err && pass ||
  fail "the rerun did not keep a: $(cat resume.err)"
# b pins the paper's method: its 31 points are solved by it and by the default solve (62), each
# cached in its own file (sims/README.md, issue 29).
grep -qE "resumed: ($checkpointed|[0-9]+) of 62 points were in b.paper-method.csv and b.default-solve.csv or b.partial.csv" resume.err && pass ||
  fail "the rerun did not resume b from its checkpoint: $(cat resume.err)"
[ ! -e part/b.partial.csv ] && [ ! -e part/.geomsim-report-progress.json ] && pass ||
  fail "a finished report left its checkpoint or progress record: $(ls -a part)"
# The same data (every column but the seconds of each point) and pages (but the line with the seconds).
for name in a b; do
  diff <(cut -d, -f1-22 "whole/$name.csv") <(cut -d, -f1-22 "part/$name.csv") >/dev/null && pass ||
    fail "$name.csv of the resumed report differs from the uninterrupted one"
  diff <(grep -v "regenerate with" "whole/$name.md") <(grep -v "regenerate with" "part/$name.md") >/dev/null && pass ||
    fail "$name.md of the resumed report differs from the uninterrupted one"
done
diff <(grep -c "^| \[" whole/README.md) <(grep -c "^| \[" part/README.md) >/dev/null && pass || fail "the index lists other pages"

for folder in lost cut; do
  "$geomsim" report --sims sims --out $folder --only a >/dev/null 2>$folder.err && ! grep -q "kept" $folder.err &&
    [ -s $folder/a.png ] && tail -c 16 $folder/a.svg | grep -q "</svg>" && pass ||
    fail "a page whose figure was $folder since was kept: $(cat $folder.err)"
done

# A damaged record or checkpoint (not JSON, not a sweep CSV, a FIFO) costs only the work again.
mkdir bad fifo
printf '{not json' >bad/.geomsim-report-progress.json
printf 'x,y\n1,2\n' >bad/b.partial.csv
mkfifo fifo/b.partial.csv fifo/.geomsim-report-progress.json
for folder in bad fifo; do
  timeout 120 "$geomsim" report --sims sims --out $folder >/dev/null 2>$folder.err && ! grep -qE "kept|resumed" $folder.err &&
    diff <(cut -d, -f1-22 whole/b.csv) <(cut -d, -f1-22 $folder/b.csv) >/dev/null && pass ||
    fail "a damaged record or checkpoint in $folder/ was not ignored: $(cat $folder.err)"
done

# A finished report leaves no record: a rerun regenerates everything (no "kept").
"$geomsim" report --sims sims --out part >/dev/null 2>again.err && ! grep -q "kept" again.err && pass ||
  fail "a rerun of a finished report kept pages: $(cat again.err)"
# A record from an edited definition keeps nothing of it.
"$geomsim" report --sims sims --out edit >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 1200); do
  [ -f edit/.geomsim-report-progress.json ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
sed -i 's/"alpha": \[0.6, 0.8\]/"alpha": [0.6, 0.7]/' sims/a.json
"$geomsim" report --sims sims --out edit --only a >/dev/null 2>edit.err && ! grep -q "kept" edit.err && grep -q "^2,4,2,0.7," edit/a.csv && pass ||
  fail "an edited definition was kept from the record: $(cat edit.err)"

echo "report_resume: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

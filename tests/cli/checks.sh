# Sourced by the CLI's shell tests: a scratch folder ($work, removed on exit) and the counting of
# checks: `pass`, `fail MESSAGE`, and `finish NAME`, which prints the counts and is the exit status.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passes=0
pass() { passes=$((passes + 1)); }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
finish() {
  echo "$1: $passes passed, $failures failed"
  [ "$failures" -eq 0 ]
}

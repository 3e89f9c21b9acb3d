#!/usr/bin/env bash
# The objects of the kernels compiled once per CPU level (CMakeLists.txt: geomsim_cpu_kernel)
# define no global symbol but their level's entry points (geomsim::cpu_LEVEL::...): nothing one
# level compiled (an Eigen or standard-library template) can be folded by the final link into
# another level's calls, where it could run on a CPU that lacks its instructions.
# Usage: kernel_symbols.sh NM OBJECT...   (each OBJECT named geomsim_cpu_kernel_LEVEL.o)
set -u
nm=${1:?usage: kernel_symbols.sh NM OBJECT...}
shift
status=0
for object in "$@"; do
  level=$(basename "$object" .o)
  namespace=cpu_${level#geomsim_cpu_kernel_}
  prefix="_ZN7geomsim${#namespace}${namespace}"
  symbols=$("$nm" -g --defined-only "$object" | awk '{print $NF}') || { echo "$object: $nm failed"; status=1; continue; }
  grep -q "^$prefix" <<<"$symbols" || { echo "$object: no entry point in geomsim::$namespace"; status=1; }
  others=$(grep -v "^$prefix" <<<"$symbols")
  if [ -n "$others" ]; then
    echo "$object: global symbols outside geomsim::$namespace:"
    echo "$others"
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "kernel_symbols: $# objects define only their level's entry points"
exit $status

#!/usr/bin/env bash
# npm test's checks before vitest, side by side (most of a minute one after another on two cores, about half of it
# so): the type checks, lint (Biome, dependency-cruiser) and the schema's staleness. Each one's output is printed
# whole, in this order, once all have finished; any failure fails the run.
set -uo pipefail
names=(typecheck lint codegen:check)
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
pids=()
for name in "${names[@]}"; do
  npm run -s "$name" >"$dir/$name.out" 2>&1 &
  pids+=($!)
done
status=0
for i in "${!names[@]}"; do
  if wait "${pids[$i]}"; then
    cat "$dir/${names[$i]}.out"
  else
    echo "npm run ${names[$i]} failed:" >&2
    cat "$dir/${names[$i]}.out" >&2
    status=1
  fi
done
exit "$status"

#!/usr/bin/env bash
# Runs a command while one busy loop per CPU keeps every core saturated, then stops the loops (also on failure or
# interrupt) and exits with the command's status. Usage: scripts/under_load.sh COMMAND [ARGS...]
set -uo pipefail
if [ "$#" -eq 0 ]; then
  echo "usage: scripts/under_load.sh COMMAND [ARGS...]" >&2
  exit 2
fi
cpus="$(nproc 2>/dev/null || echo 2)"
pids=()
stop_load() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
  pids=()
}
trap stop_load EXIT
trap 'stop_load; exit 130' INT TERM
for _ in $(seq "$cpus"); do
  sh -c 'while :; do :; done' &
  pids+=("$!")
done
echo "under load: ${cpus} busy loops (pids ${pids[*]})"
"$@"
status=$?
stop_load
exit "$status"

#!/usr/bin/env bash
# Where a JFR recording's CPU samples went: the hottest methods counted inclusively (a method counts once per sample
# in which it is anywhere on the stack), optionally only those whose name contains one of the given words.
# Usage: benchmarks/jfr-hot-frames.sh <recording.jfr> [top=40] [word...]
#   e.g. benchmarks/jfr-hot-frames.sh /tmp/rollout.jfr 40 statefulcvm DbEntityManager AcquireJobs
# Record one with the benchmarks' ARGLINE / -DargLine: -XX:StartFlightRecording=filename=/tmp/rollout.jfr,settings=profile
set -euo pipefail
file="$1"; top="${2:-40}"; shift $(( $# >= 2 ? 2 : 1 ))
words="$*"
jfr print --stack-depth 200 --events jdk.ExecutionSample "$file" | awk -v top="$top" -v words="$words" '
  /jdk.ExecutionSample/ { samples++; delete seen; next }
  /line:/ {
    name = $1; sub(/\(.*/, "", name)
    if (!(name in seen)) { seen[name] = 1; count[name]++ }
  }
  END {
    n = split(words, w, " ")
    printf "%d samples\n", samples
    for (m in count) {
      keep = (n == 0)
      for (i = 1; i <= n; i++) if (index(m, w[i]) > 0) keep = 1
      if (keep) printf "%6d %5.1f%% %s\n", count[m], 100 * count[m] / samples, m
    }
  }' | sort -k1,1nr | head -n "$((top + 1))"

#!/usr/bin/env bash
# Issue 31's topology on one machine (apps/server/src/test/topology.ts): a PostgreSQL primary and its streaming
# replica (own clusters on free loopback ports, never the machine's 5432), a redis-server of its own, s3rver,
# two web processes and one worker of the built server, haproxy in front health-checking their readiness.
# Everything under one temporary folder, torn down on Ctrl-C. `--check`: start it, ask haproxy once, stop.
# Needs PostgreSQL's server binaries, redis-server and haproxy (apt-get install -y haproxy); run as root or
# as a user who may run initdb. Builds the server first if its build is stale (under flock /tmp/divan-e2e.lock).
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v haproxy >/dev/null && [ "$(id -u)" = 0 ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null
fi
cd apps/server
exec node --import tsx src/test/topology-cli.ts "$@"

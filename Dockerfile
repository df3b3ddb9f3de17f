# Vote Relay as a container (README "Run it in a container"): built in one stage with every dependency, run from the
# compiled build in another with production dependencies only, as the unprivileged `node` user.
#
#   docker build -t vote-relay .                      (or: podman build --pull=never … from a local base image)
#   docker run -p 3000:3000 -p 8192:8192 -v vote-relay-data:/app/data -e SECRET_KEY=… vote-relay
#
# NODE_IMAGE: a Node.js 20 LTS image on Debian (the default), or one made locally where no registry is reachable.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Native addons build against the image's own Node.js headers (/usr/local/include/node), never a download of them.
ENV npm_config_nodedir=/usr/local
# better-sqlite3 builds its native addon when no prebuilt one fits (python3, make, g++).
RUN if ! command -v g++ >/dev/null; then apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*; fi
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY scripts ./scripts
COPY web ./web
# postinstall generates the Prisma clients and builds the dashboard (web/dist).
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=file:/app/data/vote-relay.db
WORKDIR /app
# The `node` user of the official images; created where the base image has none.
RUN id node >/dev/null 2>&1 || useradd --uid 1000 --create-home --shell /usr/sbin/nologin node
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME /app/data
EXPOSE 3000 8192
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "dist/src/main.js"]

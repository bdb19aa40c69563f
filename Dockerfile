# Hitscope production image.
#
#   docker build -t hitscope .
#   docker run -p 3000:3000 -v hitscope-data:/data -e AUTH_SECRET=… hitscope
#
# Without MONGODB_URI the app starts its embedded database (FerretDB on SQLite, files in /data); with
# MONGODB_URI (see docker-compose.yml) /data stays unused. Everything runs as the unprivileged `node`.

ARG NODE_IMAGE=node:20-bookworm-slim
ARG GO_IMAGE=golang:1.26-bookworm

# ---- 1. The embedded database launcher (Go, FerretDB 1.24 with its SQLite backend) ---------------
FROM ${GO_IMAGE} AS database
WORKDIR /src/database-launcher
# Modules first: this layer is reused until go.mod/go.sum change.
COPY database-launcher/go.mod database-launcher/go.sum ./
RUN go mod download
COPY database-launcher/ ./
# FerretDB with Hitscope's SQLite filter pushdown compiled in (_ferretdb/, docs/database.md), as
# src/database/embedded-database.ts builds it. FerretDB's SQLite driver is pure Go, so the binary
# is static and needs nothing from the runtime image.
RUN go run ./_ferretdb/patch -out /tmp/ferretdb-build \
  && CGO_ENABLED=0 go build -trimpath -modfile /tmp/ferretdb-build/go.mod -o /out/hitscope-db .

# ---- 2. Production bundles (client, SSR, server), then the runtime dependencies only --------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
  && npm prune --omit=dev --no-audit --no-fund

# ---- 3. Runtime -----------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    EMBEDDED_DB_BINARY=/app/bin/hitscope-db
WORKDIR /app
# The app finds its root (and dist/ under it) by walking up to nest-cli.json. Files stay owned by
# root and read-only for the app; only /data is writable. The launcher sources are not needed: the
# prebuilt binary is named by EMBEDDED_DB_BINARY.
COPY --from=build /app/package.json /app/nest-cli.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=database /out/hitscope-db ./bin/hitscope-db
# A named volume mounted on /data starts with this folder's owner, so the app can write to it.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Liveness only (never touches the database); slim images have no curl, so Node's fetch does it.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/live',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# main.ts stops the app and its embedded database on SIGTERM (docker stop).
CMD ["node", "--enable-source-maps", "dist/app/src/main.js"]

# syntax=docker/dockerfile:1
# The tracejudge container image (README, "Container image").
#   docker build -t tracejudge .
#   docker run --rm -v "$PWD/tracejudge.yaml:/etc/tracejudge/tracejudge.yaml:ro" -p 4318:4318 -p 9464:9464 \
#     tracejudge serve -c /etc/tracejudge/tracejudge.yaml
# Two stages: `build` installs every dependency and compiles TypeScript; `runtime` holds the compiled code and
# the production dependencies only, runs as the unprivileged `node` user, with node itself as PID 1 (exec form),
# so SIGTERM from `docker stop` reaches the service directly. scripts/image/verify.sh replays the runtime stage
# without a Docker engine (it reads the COPY, RUN, USER, ENTRYPOINT, CMD and HEALTHCHECK lines below).

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the package's own `prepare` (a build) runs below, once the sources are in.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# The build writes CommonJS twins of the declaration files (scripts/build/cjs-types.mjs).
COPY scripts/build ./scripts/build
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
ARG NODE_IMAGE
ARG VERSION=0.0.0-dev
ARG REVISION=unknown
ARG CREATED=unknown
ARG SOURCE=https://github.com/tracejudge/tracejudge
LABEL org.opencontainers.image.title="tracejudge" \
      org.opencontainers.image.description="Scores LLM agents in production, passively, from their OpenTelemetry traces." \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.base.name="${NODE_IMAGE}"
# In a container the service is reachable only through published ports, so it listens on every address by
# default (the library and `npx tracejudge` keep 127.0.0.1). A host or port key in a mounted config wins.
ENV NODE_ENV=production \
    TRACEJUDGE_HOST=0.0.0.0
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY assets ./assets
# A writable place for the JSON-lines file or the write-ahead log (sources.otlp.wal.dir), owned by the service user.
RUN mkdir -p /var/lib/tracejudge && chown node:node /var/lib/tracejudge
USER node
# OTLP/gRPC, OTLP/HTTP, Prometheus /metrics (+ /healthz, /readyz): TRACEJUDGE_OTLP_GRPC_PORT,
# TRACEJUDGE_OTLP_HTTP_PORT and TRACEJUDGE_METRICS_PORT move them (docs/configuration.md).
EXPOSE 4317 4318 9464
# Ready = started and not shutting down. Needs emit.prometheus enabled (the default); follows
# TRACEJUDGE_METRICS_PORT; a port set in the config file instead: set TRACEJUDGE_HEALTH_URL. No curl: node's fetch.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(process.env.TRACEJUDGE_HEALTH_URL || `http://127.0.0.1:${process.env.TRACEJUDGE_METRICS_PORT || 9464}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "dist/cli/main.js"]
CMD ["serve"]

# syntax=docker/dockerfile:1
# The service image: built in one stage (production dependencies, the embedded store's sqlite3
# compiled, dist/ built), run in another as the unprivileged `node` user with only what it needs.
# Not built on the machine this was written on (no container engine there): see the README's Deploy.
# Node 24, the current LTS line (the service supports 20.19+, 22 and 24).

FROM node:24-bookworm-slim AS build
WORKDIR /app
# onnxruntime-node's install would otherwise try to download CUDA binaries; the CPU ones ship in it.
ENV ONNXRUNTIME_NODE_INSTALL=skip
# sqlite3 (the embedded store) compiles from source on install.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY scripts/prune-platforms.mjs scripts/
# onnxruntime-node carries binaries for macOS, Windows and both Linux architectures (about 290 MB);
# only this platform's is kept.
RUN npm ci --omit=dev --no-audit --no-fund && node scripts/prune-platforms.mjs
COPY . .
RUN node scripts/build.mjs

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data && chmod 0700 /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# Liveness only (GET /health); a balancer should route on GET /ready.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains in-flight requests (DRAIN_TIMEOUT_S, default 25 s) before the pool and the store close.
STOPSIGNAL SIGTERM
CMD ["node", "dist/src/main.js"]

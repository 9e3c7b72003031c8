# Florin: the API, the websocket and the web app in one image (docs/operations.md).
#   docker build -t florin .
#   docker compose up        (compose.yaml: Florin, PostgreSQL and an S3-compatible store)
# Our build machines have no Docker engine: scripts/image-build.sh runs these same steps without one.

# ---- build: install everything, build the web app, then keep only what runs ----
FROM node:20-bookworm-slim AS build
WORKDIR /app
# The manifests first, so a source change does not reinstall the dependencies.
COPY package.json package-lock.json ./
COPY packages/domain/package.json packages/domain/
COPY packages/contracts/package.json packages/contracts/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json tsconfig.json ./
COPY packages packages
COPY apps apps
RUN npm run build \
  && npm prune --omit=dev --no-audit --no-fund \
  && rm -rf apps/web/src apps/web/node_modules/.vite /root/.npm

# ---- runtime: no compilers, no caches, not root ----
FROM node:20-bookworm-slim AS runtime
# NODE_OPTIONS: the server's V8 flags (decision 137, apps/server/src/node-flags.ts).
ENV NODE_ENV=production \
    NODE_OPTIONS=--max-semi-space-size=32 \
    PORT=8080 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
RUN groupadd --system florin && useradd --system --gid florin --home-dir /app florin \
  && mkdir -p /data && chown florin:florin /data
WORKDIR /app
COPY --from=build --chown=root:root /app /app
USER florin
VOLUME ["/data"]
EXPOSE 8080
# The readiness check: the database answers (docs/operations.md, "Health and metrics").
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/api/v1/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# tsx runs the server's TypeScript as it is in the repository; SIGTERM reaches node directly.
CMD ["node", "--import", "tsx", "apps/server/src/main.ts"]

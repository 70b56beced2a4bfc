# One image for every labflow process: the API (default CMD), the Temporal worker and the
# one-shot migration job pick their command in docker-compose.yml.
# Node must be >= 20.19 (package.json "engines").
ARG NODE_IMAGE=node:20.19.5-bookworm-slim

# --- deps: production dependencies only (tsx, the runtime, is a regular dependency) ---------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# patches/: fixes to installed packages, applied by `patch-package` (the postinstall script); see README, Benchmarks.
COPY patches ./patches
# The lockfile pins every package; install scripts are allowed via package.json "allowScripts".
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# --- runtime ------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=8000 \
    PATH=/app/node_modules/.bin:$PATH
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
# Sources stay root-owned (read-only to the app); .dockerignore keeps secrets and build junk out.
COPY . .
# DATA_DIR defaults to ./.data (docker-compose.yml uses the /data volume): the only places the app user may write.
RUN mkdir -p /app/.data /data && chown node:node /app/.data /data
USER node
EXPOSE 8000
# tsx (not `npx tsx`) so that SIGTERM reaches the app without an npm process in between.
# Worker: `tsx worker.ts`; migrations: `tsx db/migrate.ts`. No HEALTHCHECK here: the image is
# shared with the worker, so the API's health check lives in docker-compose.yml.
CMD ["tsx", "api/server.ts"]

# One image for both processes; docker-compose.yml picks `web` or `worker` by command, as the Procfile does.
# Built once here with the dev dependencies (TypeScript), which are then pruned: the image starts dist/ as built.
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts scripts
# npm's prepare step (scripts/build.sh) builds nothing yet: the sources come next, so this layer is
# kept while only they change.
RUN npm ci
COPY tsconfig.json ./
COPY bin bin
COPY cli cli
COPY gateway gateway
COPY workers workers
COPY shared shared
COPY test test
COPY bench bench
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
# Inside a container every interface is the container's own: bind them all for the published port.
ENV HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
USER node
EXPOSE 3000
CMD ["node", "dist/bin/web.js"]

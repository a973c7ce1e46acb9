# One image for both processes; docker-compose.yml picks `web` or `worker` by command, as the Procfile does.
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json ./
COPY bin bin
COPY gateway gateway
COPY workers workers
COPY shared shared
COPY test test
COPY bench bench
RUN npx tsc -p tsconfig.json && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
USER node
EXPOSE 3000
CMD ["node", "dist/bin/web.js"]

/**
 * The baseline server: Koa and @koa/router, as the gateway uses them, answering a small JSON body
 * and doing nothing else. Run as its own process; prints "listening <port>".
 */
import Router from '@koa/router';
import Koa from 'koa';

const app = new Koa();
const router = new Router({ prefix: '/v1' });
router.get('/ping', (ctx) => {
  ctx.body = { success: true, data: { status: 'ok' } };
});
app.use(router.routes());

const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));

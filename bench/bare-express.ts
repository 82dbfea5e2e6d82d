import express from 'express';

/** Context for the health ratio: the same JSON from a bare Express 5 app (the platform Nest runs on). */
const body = { status: 'ok', version: '0.0.0', eventStore: { ready: true, headPosition: 0 } };
const app = express();
app.set('etag', false);
app.get('/', (_req, res) => {
  res.json({ result: { data: { json: body } } });
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`listening ${address.port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));

import { createServer } from 'node:http';

/**
 * The baseline: a bare node:http server answering a health-shaped JSON document, with none
 * of the framework, routing, guard or store reads. Prints its port when listening.
 */
const body = JSON.stringify({
  result: {
    data: {
      json: {
        status: 'ok',
        version: '0.0.0',
        uptimeSeconds: 1,
        eventStore: { ready: true, headPosition: 0 },
        readStore: { ready: true },
        projections: { lag: 0, items: [] },
      },
    },
  },
});

const server = createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`listening ${address.port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));

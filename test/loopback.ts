/** A Koa app of a unit test, listening on a free loopback port. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';

export interface Listening {
  server: Server;
  port: number;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** Closes every connection, then the server. */
  close(): Promise<void>;
}

export async function listen(app: Koa): Promise<Listening> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    base: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

import { Agent, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';

// What the loopback proxies in front of DynamoDB Local (./faults/dynamodb-fault-proxy.ts,
// ./iam/dynamodb-iam-proxy.ts) share: a request they let through goes on to the upstream
// as it came, over kept-alive connections, and the upstream's answer comes back as it is.

/** Forwards a proxy's requests to one upstream (DynamoDB Local's endpoint). */
export class UpstreamForwarder {
  private readonly target: URL;
  private readonly agent = new Agent({ keepAlive: true });

  constructor(upstream: string) {
    this.target = new URL(upstream);
  }

  /** Sends the request on: its body already read (`body`), or else the request itself, streamed. */
  forward(request: IncomingMessage, response: ServerResponse, body?: Buffer): void {
    const sent = httpRequest(
      {
        host: this.target.hostname,
        port: this.target.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
        agent: this.agent,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    // The upstream gone (the runtime stopping): the client sees a dropped connection.
    sent.on('error', () => request.socket.destroy());
    if (body === undefined) request.pipe(sent);
    else sent.end(body);
  }

  /** Closes the kept-alive connections to the upstream. */
  destroy(): void {
    this.agent.destroy();
  }
}

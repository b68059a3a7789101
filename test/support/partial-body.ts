import { request } from 'node:http';

export interface EarlyAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Sends the headers of a request declaring a `declaredBytes` body (chunked when undefined) and only its first
 * KB, then waits for the answer: one that comes can only come from a server that did not wait for the rest.
 * Rejects after 5 s without an answer.
 */
export function answerBeforeBody(url: string, method: string, headers: Record<string, string>, declaredBytes: number | undefined = 50_000_000): Promise<EarlyAnswer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const lengthHeader: Record<string, string> = declaredBytes === undefined ? {} : { 'content-length': String(declaredBytes) };
    const req = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers: { 'content-type': 'application/json', ...lengthHeader, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        req.destroy(); // the rest of the body is never sent
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on('error', () => undefined); // the server closes the connection on the unread body
    req.write('{"items": [' + ' '.repeat(1024));
    setTimeout(() => {
      req.destroy();
      reject(new Error(`${method} ${u.pathname}: no answer within 5 s: the server waited for the body`));
    }, 5000).unref();
  });
}

/**
 * What AWS Lambda's Node 22 response-streaming runtime gives a Netlify
 * function: the `awslambda` global and a response stream. Netlify's
 * generated entry point (`___netlify-entry-point.mjs`) exports a handler
 * for exactly that. Used by the deploy test's warm instances
 * (instance.mjs) and the cold-start benchmark's fresh processes.
 */
import { Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';

class ResponseStream extends Writable {
  chunks = [];
  metadata = undefined;
  _write(chunk, _encoding, callback) {
    this.chunks.push(Buffer.from(chunk));
    callback();
  }
}

export function installAwsLambdaGlobal() {
  globalThis.awslambda = {
    streamifyResponse: (handler) => handler,
    HttpResponseStream: {
      from(stream, metadata) {
        stream.metadata = metadata;
        return stream;
      },
    },
  };
}

/**
 * Invokes the entry point's handler with one event; resolves to { status,
 * headers, body, respondedAt } once the handler has returned. Netlify's
 * bootstrap ends the response stream first and only then awaits the work
 * handed to `context.waitUntil`, so `respondedAt` (performance.now() when
 * the stream ended: the client has the whole response) comes before it.
 */
export async function invokeLambda(handler, event) {
  const stream = new ResponseStream();
  const finished = new Promise((resolve, reject) => {
    stream.on('finish', () => resolve(performance.now()));
    stream.on('error', reject);
  });
  const started = Date.now();
  await handler(event, stream, {
    awsRequestId: randomUUID(),
    getRemainingTimeInMillis: () => 60_000 - (Date.now() - started),
    clientContext: { custom: {} },
    callbackWaitsForEmptyEventLoop: true,
  });
  if (!stream.writableEnded) stream.end();
  const respondedAt = await finished;
  const { statusCode, multiValueHeaders = {}, headers = {} } = stream.metadata ?? {};
  const merged = { ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])), ...multiValueHeaders };
  return { status: statusCode, headers: merged, body: Buffer.concat(stream.chunks).toString('utf8'), respondedAt };
}

/**
 * The event Netlify's proxy sends a function: the request, the client
 * address, and the deploy's context headers its bootstrap turns into
 * `context.deploy` (globalThis.Netlify.context).
 */
export function lambdaEvent({ url, method = 'GET', headers = {}, body, route, functionName, deploy = { context: 'production', id: 'deploy-test' } }) {
  return {
    rawUrl: url.href,
    rawQuery: url.search.slice(1),
    path: url.pathname,
    httpMethod: method,
    headers: {
      host: url.host,
      'x-nf-client-connection-ip': '203.0.113.7',
      'x-nf-deploy-context': deploy.context,
      'x-nf-deploy-id': deploy.id,
      'x-nf-deploy-published': deploy.context === 'production' ? '1' : '0',
      'x-nf-request-id': randomUUID(),
      ...headers,
    },
    body: body === undefined ? '' : Buffer.from(body).toString('base64'),
    isBase64Encoded: true,
    flags: {},
    route,
    invocationMetadata: { function_name: functionName },
  };
}

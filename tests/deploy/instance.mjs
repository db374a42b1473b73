/**
 * One warm function instance (a worker thread with its own module graph,
 * environment and database pool): loads the entry point zip-it-and-ship-it
 * generated (`___netlify-entry-point.mjs`, which exports Netlify's Lambda
 * handler) and invokes it for each event as AWS Lambda's response-streaming
 * runtime would, with the `awslambda` global that runtime provides.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';

class ResponseStream extends Writable {
  chunks = [];
  metadata = undefined;
  _write(chunk, _encoding, callback) {
    this.chunks.push(Buffer.from(chunk));
    callback();
  }
}

globalThis.awslambda = {
  streamifyResponse: (handler) => handler,
  HttpResponseStream: {
    from(stream, metadata) {
      stream.metadata = metadata;
      return stream;
    },
  },
};

const { handler } = await import(pathToFileURL(workerData.entry).href);

parentPort.on('message', async ({ id, event }) => {
  const stream = new ResponseStream();
  const finished = new Promise((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  try {
    const started = Date.now();
    await handler(event, stream, {
      awsRequestId: randomUUID(),
      getRemainingTimeInMillis: () => 60_000 - (Date.now() - started),
      clientContext: { custom: {} },
      callbackWaitsForEmptyEventLoop: true,
    });
    if (!stream.writableEnded) stream.end();
    await finished;
    const { statusCode, multiValueHeaders = {}, headers = {} } = stream.metadata ?? {};
    const merged = { ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])), ...multiValueHeaders };
    parentPort.postMessage({ id, response: { status: statusCode, headers: merged, body: Buffer.concat(stream.chunks).toString('utf8') } });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error?.stack ?? error) });
  }
});
parentPort.postMessage({ ready: true });

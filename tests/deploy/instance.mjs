/**
 * One warm function instance (a worker thread with its own module graph,
 * environment and database pool): loads the entry point zip-it-and-ship-it
 * generated (`___netlify-entry-point.mjs`, which exports Netlify's Lambda
 * handler) and invokes it for each event as AWS Lambda's response-streaming
 * runtime would (tests/deploy/lambda.mjs).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { installAwsLambdaGlobal, invokeLambda } from './lambda.mjs';
import { resolveHosts } from './network.mjs';

if (workerData.hosts) resolveHosts(workerData.hosts);
installAwsLambdaGlobal();
const { handler } = await import(pathToFileURL(workerData.entry).href);

parentPort.on('message', async ({ id, event }) => {
  try {
    parentPort.postMessage({ id, response: await invokeLambda(handler, event) });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error?.stack ?? error) });
  }
});
parentPort.postMessage({ ready: true });

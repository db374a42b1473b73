/**
 * One cold start, in a fresh Node 22 process: imports a function's unzipped
 * bundle through Netlify's generated entry point and answers one request,
 * then prints {status, ms}, ms being the time from this process's start
 * (performance.timeOrigin, so Node's own start counts too) to the end of
 * the response: what the client waits for. Work the function hands to
 * `context.waitUntil` runs after that, as on Netlify, and is not counted.
 *
 * Usage: node cold-start-probe.mjs <entry point> <request as JSON>
 */
import { pathToFileURL } from 'node:url';
import { installAwsLambdaGlobal, invokeLambda, lambdaEvent } from '../tests/deploy/lambda.mjs';

const [entry, requestJson] = process.argv.slice(2);
const request = JSON.parse(requestJson);
installAwsLambdaGlobal();
const { handler } = await import(pathToFileURL(entry).href);
const response = await invokeLambda(handler, lambdaEvent({ ...request, url: new URL(request.url) }));
const ms = response.respondedAt;
// A refusal's problem type and the fields it names (never values), so a benchmark row says why it was refused.
let problem = null;
if (response.status >= 400) {
  try {
    const body = JSON.parse(response.body);
    problem = [body.type, ...Object.keys(body.errors ?? {})].filter(Boolean).join(' ');
  } catch {}
}
process.stdout.write(`${JSON.stringify({ status: response.status, ms, allow: response.headers.allow?.[0] ?? response.headers.Allow?.[0] ?? null, problem })}\n`);
// A pool left open must not keep the process (and the benchmark) waiting.
process.exit(0);

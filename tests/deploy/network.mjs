/**
 * The function host's name resolution in the deploy test: the stand-ins'
 * host names (a Neon endpoint in eu-central-1, Postmark's API) resolve to
 * the stand-ins' loopback address, every other name as usual. Loaded by the
 * harness (instance.mjs) before a function's entry point: it plays the
 * network, and nothing of it is in a bundle.
 */
import dns from 'node:dns';

export function resolveHosts(hosts) {
  const original = dns.lookup;
  dns.lookup = function lookup(hostname, options, callback) {
    if (typeof options === 'function') {
      callback = options;
      options = {};
    }
    const address = hosts[String(hostname).toLowerCase()];
    if (!address) return original.call(this, hostname, options, callback);
    const opts = typeof options === 'number' ? { family: options } : (options ?? {});
    process.nextTick(() => (opts.all ? callback(null, [{ address, family: 4 }]) : callback(null, address, 4)));
  };
}

/**
 * A fresh `npm install` on the machine's Node (package.json engines: 20.19
 * or later) prints no EBADENGINE warning: every package the lockfile
 * installs accepts that Node. The Node-22-only tools (netlify-cli, Netlify's
 * function bundler) are not in the lockfile: scripts/deploy-tools.ts
 * installs them on first use, apart from the project. A dependency that
 * starts to want Node 22 fails here rather than on every install.
 */
import { readFileSync } from 'node:fs';
import satisfies from 'semver/functions/satisfies';
import minVersion from 'semver/ranges/min-version';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { engines?: Record<string, string> | string[]; version?: string }>;
};

describe('the install on the project\'s own Node', () => {
  it('every package in the lockfile accepts the oldest Node the project supports', () => {
    const oldest = minVersion(pkg.engines.node)!.version;
    expect(oldest).toBe('20.19.0');
    const refusing = Object.entries(lock.packages)
      .filter(([name, entry]) => name !== '' && !Array.isArray(entry.engines) && entry.engines?.node)
      .filter(([, entry]) => !satisfies(oldest, (entry.engines as Record<string, string>).node!))
      .map(([name, entry]) => `${name.replace(/^.*node_modules\//, '')}@${entry.version}: node ${(entry.engines as Record<string, string>).node}`);
    expect(refusing).toEqual([]);
  });
});

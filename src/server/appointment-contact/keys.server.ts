/**
 * The key ring that seals appointment contacts (docs/architecture.md,
 * Privacy; first for reminders, docs/decisions/009).
 *
 * DATA_ENCRYPTION_KEY holds one or more 256-bit keys, comma-separated, each
 * written as 64 hex digits or base64/base64url (32 bytes). The first key
 * seals; every key opens. A key's id is the first 16 hex digits of its
 * SHA-256, stored beside each sealed value, so rotating means putting a new
 * key first and keeping the old one after it until the appointments it
 * sealed have ended (at most a year: staff book up to 365 days ahead); then
 * it can be removed (README, Configuration). A contact no configured key
 * opens is deleted when its appointment ends, like any other.
 *
 * Without DATA_ENCRYPTION_KEY, outside production, one key is generated per
 * install into $DATA_DIR/data-encryption.key (mode 0600). In production a
 * missing or malformed key is `not-configured` (503): an online booking is
 * refused before anything is stored.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../lib/errors';
import { dataDirFrom } from '../../../db/settings';
import { notConfigured, readEnv, variables } from '../env.server';

export interface DataKey {
  /** 16 hex digits: the start of the key's SHA-256 (never the key). */
  id: string;
  key: Buffer;
}

export interface KeyRing {
  /** The key that seals new values. */
  current: DataKey;
  /** Every key by id, for opening. */
  byId: ReadonlyMap<string, DataKey>;
}

export class KeyConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyConfigError';
  }
}

export const KEY_FILE_NAME = 'data-encryption.key';

export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

function decodeKey(text: string, position: number): Buffer {
  const value = text.trim();
  let key: Buffer | null = null;
  if (/^[0-9a-fA-F]{64}$/.test(value)) key = Buffer.from(value, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) key = Buffer.from(value.replace(/=$/, ''), 'base64url');
  if (!key || key.length !== 32) {
    // The value itself is a secret: name only its position.
    throw new KeyConfigError(`DATA_ENCRYPTION_KEY: key ${position} is not 32 bytes in hex or base64`);
  }
  return key;
}

/** Parses a comma-separated list of keys; the first one seals. */
export function parseKeyRing(value: string): KeyRing {
  const parts = value.split(',').filter((p) => p.trim() !== '');
  if (parts.length === 0) throw new KeyConfigError('DATA_ENCRYPTION_KEY is empty');
  const keys = parts.map((part, i) => {
    const key = decodeKey(part, i + 1);
    return { id: keyIdOf(key), key };
  });
  return { current: keys[0]!, byId: new Map(keys.map((k) => [k.id, k])) };
}

/** A new random key, base64url (what the local key file holds; also for `DATA_ENCRYPTION_KEY`). */
export function generateKey(): string {
  return randomBytes(32).toString('base64url');
}

/** This process's local key rings by data folder: the file is read once, not on every request. */
const localRings = new Map<string, Promise<KeyRing>>();

/**
 * $DATA_DIR/data-encryption.key: read when it exists, created (0600) only
 * when missing, and kept for the process.
 */
export function localKeyRing(dataDir: string): Promise<KeyRing> {
  const file = path.join(dataDir, KEY_FILE_NAME);
  let ring = localRings.get(file);
  if (!ring) {
    ring = readOrCreateKeyFile(dataDir, file);
    localRings.set(file, ring);
    // A failure (a folder not writable) is not kept: the next request tries again.
    ring.catch(() => localRings.delete(file));
  }
  return ring;
}

async function readOrCreateKeyFile(dataDir: string, file: string): Promise<KeyRing> {
  try {
    return parseKeyRing(await readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  // Written whole under a temporary name, then linked into place: link() fails when the file exists, so
  // two processes creating it at once never overwrite each other's key, and no reader sees a half-written file.
  const draft = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(draft, `${generateKey()}\n`, { flag: 'wx', mode: 0o600 });
  try {
    await chmod(draft, 0o600); // the process umask may have widened nothing, but make sure
    await link(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(draft);
  }
  return parseKeyRing(await readFile(file, 'utf8'));
}

/**
 * The key ring for this process: DATA_ENCRYPTION_KEY when set; otherwise the
 * local key file, outside production only. Throws AppError `not-configured`
 * when no valid key is available.
 */
export async function dataKeyRing(given?: NodeJS.ProcessEnv): Promise<KeyRing> {
  // In production a missing variable is already 503 not-configured here (env.server.ts).
  const { isProduction } = given ? readEnv(given) : readEnv();
  const source = given ?? variables();
  const configured = source.DATA_ENCRYPTION_KEY;
  if (configured && configured.trim() !== '') {
    try {
      return parseKeyRing(configured);
    } catch {
      throw notConfigured(['DATA_ENCRYPTION_KEY']);
    }
  }
  if (isProduction) throw notConfigured(['DATA_ENCRYPTION_KEY']);
  return localKeyRing(dataDirFrom(source));
}

/**
 * The key ring for reading contacts in a staff action, or null when none is
 * configured: the action still happens, the patient is reported as not
 * told (a missing key in production is already logged by its kind).
 */
export async function dataKeyRingIfAny(source?: NodeJS.ProcessEnv): Promise<KeyRing | null> {
  try {
    return await dataKeyRing(source);
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

/**
 * The content editor's backend (POST /api/admin/content): the actions of
 * Decap CMS's proxy backend protocol (`{ action, params }`, as decap-server
 * answers them) that the editor uses, on the files of src/lib/content-files.ts
 * only, with one addition: every entry carries its version (`file.id`, the
 * Git blob SHA) and a save names the version each file was based on.
 *
 * A save (persistEntry) writes only what the editor changed: Decap sends
 * both languages of a page, and a file whose fields and text are the same
 * as the version it was based on is left alone, even when a colleague has
 * saved it since. A changed file whose version is no longer current is a
 * 409 and nothing is written.
 */
import type { Database } from '../../../db/client';
import { AppError } from '../../lib/errors';
import { contentFileAt, contentFileLabel, type ContentFile } from '../../lib/content-files';
import * as z from '../../lib/zod';
import { recordAudit, type AuditActor } from '../audit.server';
import { parseInput } from '../http.server';
import { fieldLabel } from '../../lib/content-fields';
import { PAGE_LABELS, PRACTICE_LABEL } from '../../lib/content-files';
import { checkContent } from './check.server';
import { mergeSave, type FieldPath } from './merge.server';
import { contentSaved } from './published.server';
import { staleVersion, type ContentStore, type FileChange } from './port.server';

const MAX_FILE_CHARS = 200_000;
const path = z.string().check(z.minLength(1), z.maxLength(300));

export const contentRequestSchema = z.object({
  action: z.string().check(z.minLength(1), z.maxLength(64)),
  params: z._default(z.record(z.string(), z.unknown()), {}),
});

const filesParams = z.object({
  files: z.array(z.object({ path, label: z.optional(z.string().check(z.maxLength(200))) })).check(z.minLength(1), z.maxLength(20)),
});
const entryParams = z.object({ path });
const persistParams = z.object({
  dataFiles: z
    .array(
      z.object({
        path,
        raw: z.string().check(z.maxLength(MAX_FILE_CHARS)),
        sha: z.string().check(z.regex(/^[0-9a-f]{40}$/)),
        newPath: z.optional(z.string()),
      }),
    )
    .check(z.minLength(1), z.maxLength(20)),
  assets: z._default(z.array(z.unknown()), []),
});

function editable(filePath: string): ContentFile {
  const file = contentFileAt(filePath);
  if (!file) throw new AppError('forbidden', `Diese Datei kann im Inhalte-Editor nicht bearbeitet werden: ${filePath}`);
  return file;
}

/** Decap's entry: the file's text and, as its id, its version. */
async function entry(store: ContentStore, filePath: string, label?: string) {
  editable(filePath);
  const stored = await store.read(filePath);
  return { data: stored?.content ?? null, file: { path: filePath, label, id: stored?.sha ?? null } };
}

function entityId(file: ContentFile): string {
  return file.kind === 'practice' ? 'practice' : `${file.lang}/${file.page}`;
}

/**
 * The audit label of a save: the page, its language and the fields changed,
 * never their text: "Startseite (de): Kopfbereich › Hauptüberschrift".
 */
export function changeLabel(file: ContentFile, changed: FieldPath[]): string {
  const names: string[] = [];
  for (const path of changed) {
    const keys = path.filter((p): p is string => typeof p === 'string');
    const trail = keys.map((_, i) => fieldLabel(keys.slice(0, i + 1)));
    const name = trail.length === 0 ? 'ganze Datei' : trail.join(' › ');
    if (!names.includes(name)) names.push(name);
  }
  const where = file.kind === 'practice' ? PRACTICE_LABEL : `${PAGE_LABELS[file.page]} (${file.lang})`;
  return `${where}: ${names.join(', ')}`;
}

export interface SaveResult {
  message: string;
  /** The version each file of the save now has, for the editor's next save. */
  files: Array<{ path: string; id: string }>;
}

async function persist(db: Database, store: ContentStore, actor: AuditActor, params: z.infer<typeof persistParams>): Promise<SaveResult> {
  if (params.assets.length > 0) {
    throw new AppError('invalid-input', 'Bilder und andere Dateien können im Inhalte-Editor nicht hochgeladen werden.', { assets: ['content.errors.noUploads'] });
  }
  const files = params.dataFiles.map((dataFile) => {
    const file = editable(dataFile.path);
    if (dataFile.newPath !== undefined && dataFile.newPath !== dataFile.path) {
      throw new AppError('forbidden', 'Seiten können im Inhalte-Editor nicht umbenannt werden.');
    }
    return { ...dataFile, file };
  });
  // Every file is checked before any is written: a mistake never reaches the build.
  for (const { file, raw } of files) checkContent(file, raw);

  const changes: Array<FileChange & { file: ContentFile; changed: FieldPath[] }> = [];
  const versions = new Map<string, string>();
  for (const { path: filePath, raw, sha, file } of files) {
    const current = await store.read(filePath);
    if (!current) throw new AppError('not-found', `Die Datei ${filePath} gibt es nicht (mehr).`);
    if (current.sha === sha) {
      versions.set(filePath, sha);
      // Only the changed fields' lines change; the rest of the file stays as it is.
      const merged = mergeSave(file, current.content, raw);
      if (merged.changed.length > 0) changes.push({ path: filePath, content: merged.content, sha, file, changed: merged.changed });
      continue;
    }
    // A colleague saved this file meanwhile: fine if this editor did not change it.
    const base = await store.readVersion(filePath, sha);
    if (base === null || mergeSave(file, base, raw).changed.length > 0) throw staleVersion(filePath);
    // The editor keeps its version, so a later change of it is still caught.
    versions.set(filePath, sha);
  }
  if (changes.length === 0) return { message: 'nothing changed', files: [...versions].map(([p, id]) => ({ path: p, id })) };

  const labels = changes.map((c) => contentFileLabel(c.file)).join(', ');
  const message = `Inhalte: ${labels} geändert\n\nGespeichert von ${actor.user.email} im Inhalte-Editor (/admin/inhalte).`;
  // The audit rows and the write stand or fall together: the rows are
  // written first in a transaction that a failed write rolls back.
  const written = await db.transaction(async (tx) => {
    for (const change of changes) {
      await recordAudit(tx, actor, { action: 'update', entity: 'page', entityId: entityId(change.file), label: changeLabel(change.file, change.changed) });
    }
    return store.write(
      changes.map(({ file: _file, changed: _changed, ...change }) => change),
      message,
    );
  });
  for (const w of written) versions.set(w.path, w.sha);
  if (store.kind === 'local') contentSaved(written.map((w) => w.path));
  return { message: 'entry persisted', files: [...versions].map(([p, id]) => ({ path: p, id })) };
}

/**
 * For a save the floor under every JSON body refuses (a hidden character in
 * a file): the file's own check, which names the field ("Praxisangaben:
 * Name der Praxis …"), when it refuses too. Checks only; writes nothing.
 */
export function explainRefusedSave(body: unknown): void {
  const request = contentRequestSchema.safeParse(body);
  if (!request.success || request.data.action !== 'persistEntry') return;
  const params = persistParams.safeParse(request.data.params);
  if (!params.success) return;
  for (const dataFile of params.data.dataFiles) {
    const file = contentFileAt(dataFile.path);
    if (file) checkContent(file, dataFile.raw);
  }
}

/** Answers one protocol request; every other action of the protocol is refused. */
export async function contentAction(db: Database, store: ContentStore, actor: AuditActor, body: unknown): Promise<unknown> {
  const { action, params } = parseInput(contentRequestSchema, body);
  switch (action) {
    case 'entriesByFiles': {
      const { files } = parseInput(filesParams, params);
      return Promise.all(files.map((f) => entry(store, f.path, f.label)));
    }
    case 'getEntry':
      return entry(store, parseInput(entryParams, params).path);
    case 'persistEntry':
      return persist(db, store, actor, parseInput(persistParams, params));
    case 'getMedia':
      // No media library: the editor offers no image upload.
      return [];
    default:
      throw new AppError('invalid-input', `Diese Aktion unterstützt der Inhalte-Editor nicht: ${action}`, { action: ['content.errors.unsupportedAction'] });
  }
}

import { randomBytes } from 'node:crypto';
import { rename, writeFile, rm } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';
import { z } from 'zod';
import { AiteError } from '../errors/AiteError.js';
import { FileMutex } from './FileMutex.js';
import { DescriptorSchema, TargetSchema, type Descriptor, type Repair, type Target, withoutHandle } from '../protocol/index.js';
import { bracketDepth, FILE_LIMITS, readBounded } from '../errors/fileLimits.js';
import { UsageError } from '../errors/UsageError.js';
import { makeFolder } from '../system/folders.js';

/** At most this much JSON per entry: a descriptor is a few hundred bytes. */
const MAX_ENTRY_CHARS = 64 * 1024;

// The lock file is input anyone can edit (it is committed): its descriptors are strict, only the
// fields a descriptor has, each bounded, so a crafted entry cannot carry a deep or huge value
// into repair. What a newer extension adds to a descriptor is dropped when it is stored.
const StoredDescriptorSchema = z.strictObject(DescriptorSchema.shape);
const StrippedDescriptorSchema = z.object(DescriptorSchema.shape);

const EntrySchema = z
  .strictObject({
    target: TargetSchema,
    page: z.string().max(2048),
    descriptor: StoredDescriptorSchema,
  })
  .refine((entry) => JSON.stringify(entry).length <= MAX_ENTRY_CHARS, { message: `an entry is at most ${MAX_ENTRY_CHARS / 1024} KB of JSON` });

const LockFileSchema = z.strictObject({
  version: z.literal(1),
  entries: z.record(z.string(), EntrySchema),
});

type Entry = z.infer<typeof EntrySchema>;

/** One change this writer made, and whether it replaces what another writer saved meanwhile. */
interface Change {
  entry: Entry;
  /** A written repair replaces; a first exact success yields to one already on disk. */
  replaces: boolean;
}

/**
 * A repair the run found but did not write: `updateLock` accepts it.
 *
 * @example
 * ```ts
 * import { launch, type LockProposal } from 'aite';
 *
 * const session = await launch({ allow: ['http://127.0.0.1:4173'], lockFile: 'aite.lock.json' });
 * await session.tab.navigate('http://127.0.0.1:4173/');
 * await session.click({ text: 'Send' });
 * await session.close();
 * const proposals: readonly LockProposal[] = session.lock?.proposals ?? [];
 * for (const p of proposals) console.log(`${p.key}: ${p.repair?.changes.join(', ')} (run with updateLock to write it)`);
 * ```
 * @public
 */
export interface LockProposal {
  /** The entry's key: the page's path and the target (see `LockFile.key`). */
  key: string;
  /** The target as the step named it. */
  target: Target;
  /** The page's path. */
  page: string;
  /** The descriptor remembered until now. */
  old: Descriptor;
  /** The descriptor the repair found. */
  descriptor: Descriptor;
  /** The repair's score, runner-up and changes, when the extension sent them. */
  repair: Repair | undefined;
}

/**
 * `aite.lock.json`: the descriptor of every element a script named, keyed by the page's path and
 * the target, so the same target on two pages are two entries. Sorted and pretty so it diffs and
 * merges well; written atomically. A repair never rewrites it silently: it is proposed, and
 * written only with `updateLock`.
 *
 * Several sessions (test-runner workers, parallel scripts) may share one file: {@link LockFile.save}
 * re-reads it under an inter-process lock (`<file>.lock`) and writes this session's changes on
 * top of what the others saved meanwhile, so no writer loses another's entries.
 *
 * @example
 * ```ts
 * import { LockFile } from 'aite';
 *
 * const lock = await LockFile.open('aite.lock.json');
 * const remembered = lock.get({ text: 'Send' }, 'http://127.0.0.1:4173/compose');
 * console.log(remembered?.tag, LockFile.key({ text: 'Send' }, 'http://127.0.0.1:4173/compose'));
 * for (const proposal of lock.proposals) console.log(proposal.key, proposal.repair?.changes);
 * await lock.save();
 * ```
 * @public
 */
export class LockFile {
  readonly #entries: Map<string, Entry>;
  readonly #proposals: LockProposal[] = [];
  /** This writer's changes since it last saved, merged over the file on disk when it saves. */
  readonly #changes = new Map<string, Change>();

  private constructor(
    /** The file's path, as given to `open`. */
    readonly path: string,
    entries: Record<string, Entry>,
    private readonly updateLock: boolean,
  ) {
    this.#entries = new Map(Object.entries(entries));
  }

  /**
   * Opens a lock file, or starts an empty one when it does not exist yet.
   * @param path - the lock file, e.g. `aite.lock.json`
   * @param options - `updateLock: true` writes repairs into the file instead of proposing them
   * @throws {@link AiteError} `unsupported` when the file is not valid JSON or not an aite lock file
   */
  static async open(path: string, options: { updateLock?: boolean } = {}): Promise<LockFile> {
    return new LockFile(path, await readEntries(path), options.updateLock ?? false);
  }

  /**
   * Checks the lock file at `path` before a run starts: a file that does not exist is fine; one
   * that is too big, too deep, not JSON or not an aite lock file is a {@link UsageError} naming it
   * (the CLI exits 2 before any Chrome starts).
   */
  static async check(path: string): Promise<void> {
    const read = await readLockFile(path);
    if ('problem' in read) throw new UsageError('invalid', [{ file: path, message: `this lock file ${read.problem}` }]);
  }

  /** The stable key of a target on a page: the page's path, then the target as sorted JSON. */
  static key(target: Target, pageUrl: string): string {
    return `${pagePath(pageUrl)} ${canonicalJson(target)}`;
  }

  /** The remembered descriptor of a target on a page, if any. */
  get(target: Target, pageUrl: string): Descriptor | undefined {
    return this.#entries.get(LockFile.key(target, pageUrl))?.descriptor;
  }

  /** The first exact success of a target records it. Later exact successes leave it as it is. */
  recordExact(target: Target, pageUrl: string, descriptor: Descriptor): void {
    const key = LockFile.key(target, pageUrl);
    if (this.#entries.has(key)) return;
    const entry = { target, page: pagePath(pageUrl), descriptor: stored(descriptor) };
    this.#entries.set(key, entry);
    this.#changes.set(key, { entry, replaces: false });
  }

  /**
   * Whether an element found for this target now would be written into the file: there is no
   * entry for it yet, or repairs are written (`updateLock`). The runner then asks the page for
   * the fields only the lock file needs (`twins`, `twinPlaces`, `twinIndex`, `peers`).
   *
   * @example
   * ```ts
   * import { LockFile } from 'aite';
   *
   * const lock = await LockFile.open('aite.lock.json');
   * console.log(lock.willRecord({ text: 'Send' }, 'http://localhost:3000/wallet'));
   * ```
   */
  willRecord(target: Target, pageUrl: string): boolean {
    return this.updateLock || !this.#entries.has(LockFile.key(target, pageUrl));
  }

  /** A repair: written only with `updateLock`, otherwise kept as a proposal for the report. */
  proposeRepair(target: Target, pageUrl: string, descriptor: Descriptor, repair: Repair | undefined): LockProposal {
    const key = LockFile.key(target, pageUrl);
    const old = this.#entries.get(key)?.descriptor ?? repair?.old ?? descriptor;
    const proposal: LockProposal = { key, target, page: pagePath(pageUrl), old, descriptor: withoutHandle(descriptor), repair };
    this.#proposals.push(proposal);
    if (this.updateLock) {
      const entry = { target, page: pagePath(pageUrl), descriptor: stored(descriptor) };
      this.#entries.set(key, entry);
      this.#changes.set(key, { entry, replaces: true });
    }
    return proposal;
  }

  /** Repairs found in this run and not written. */
  get proposals(): readonly LockProposal[] {
    return this.updateLock ? [] : this.#proposals;
  }

  /**
   * Writes this session's changes, if any, merged over the file as it is on disk now: under an
   * inter-process lock (`<file>.lock`, created exclusively; a dead holder's is taken over), it
   * re-reads the file, adds the entries this session recorded (an entry another writer recorded
   * first stays), replaces the ones it repaired with `updateLock`, and writes a temp file in the
   * same folder, then renames it over the file. Afterwards {@link LockFile.get} also sees what
   * the other writers saved.
   * @throws {@link AiteError} `unsupported` when the file on disk is no longer a valid lock file;
   * `timeout` when another process holds the lock for more than 15 s
   */
  async save(): Promise<void> {
    if (this.#changes.size === 0) return;
    await makeFolder(dirname(this.path));
    await FileMutex.hold(`${this.path}.lock`, async () => {
      const merged = new Map(Object.entries(await readEntries(this.path)));
      for (const [key, change] of this.#changes) {
        if (change.replaces || !merged.has(key)) merged.set(key, change.entry);
      }
      await writeAtomically(this.path, render(merged));
      this.#entries.clear();
      for (const [key, entry] of merged) this.#entries.set(key, entry);
    });
    this.#changes.clear();
  }
}

async function readEntries(path: string): Promise<Record<string, Entry>> {
  const read = await readLockFile(path);
  if ('problem' in read) throw new AiteError('unsupported', `The lock file ${path} ${read.problem}`);
  return read.entries;
}

/** The entries of the lock file at `path` (none when it does not exist), or what is wrong with it, as a sentence. */
async function readLockFile(path: string): Promise<{ entries: Record<string, Entry> } | { problem: string }> {
  let text: string;
  try {
    const read = await readBounded(path, FILE_LIMITS.lockBytes);
    if ('refused' in read) return { problem: `is not read: ${read.refused}` };
    text = read.text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: {} };
    return { problem: `cannot be read: ${(error as Error).message}.` };
  }
  const fix = 'Fix it or delete it to start again.';
  if (bracketDepth(text, { yaml: false }) > FILE_LIMITS.depth) return { problem: `nests more than ${FILE_LIMITS.depth} levels deep: it is not an aite lock file. ${fix}` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problem: `is not valid JSON (${(error as Error).message}). ${fix}` };
  }
  const parsed = LockFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { problem: `is not a valid aite lock file: ${issue?.path.join('.')}: ${issue?.message}. ${fix}` };
  }
  return { entries: parsed.data.entries };
}

/** The descriptor as the lock file keeps it: no handle, only the fields a descriptor has. */
function stored(descriptor: Descriptor): Descriptor {
  return StrippedDescriptorSchema.parse(withoutHandle(descriptor)) as Descriptor;
}

function render(entries: Map<string, Entry>): string {
  const sorted = Object.fromEntries([...entries.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, sortKeys(v)]));
  return `${JSON.stringify({ version: 1, entries: sorted }, null, 2)}\n`;
}

/** A temp file in the same folder, then a rename: a reader sees the old file or the new one, never half. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temp, text, { flag: 'wx' });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

function pagePath(pageUrl: string): string {
  try {
    return new URL(pageUrl).pathname;
  } catch {
    return pageUrl;
  }
}

function sortKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortKeys) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])])) as T;
  }
  return value;
}

function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

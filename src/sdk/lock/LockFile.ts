import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile, rm } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';
import { z } from 'zod';
import { AiteError } from '../errors/AiteError.js';
import { DescriptorSchema, TargetSchema, type Descriptor, type Repair, type Target } from '../protocol/index.js';

const EntrySchema = z.strictObject({
  target: TargetSchema,
  page: z.string(),
  descriptor: DescriptorSchema,
});

const LockFileSchema = z.strictObject({
  version: z.literal(1),
  entries: z.record(z.string(), EntrySchema),
});

/** A repair the run found but did not write: `updateLock` accepts it. @public */
export interface LockProposal {
  key: string;
  target: Target;
  page: string;
  old: Descriptor;
  descriptor: Descriptor;
  repair: Repair | undefined;
}

/**
 * `aite.lock.json`: the descriptor of every element a script named, keyed by the page's path and
 * the target, so the same target on two pages are two entries. Sorted and pretty so it diffs and
 * merges well; written atomically. A repair never rewrites it silently: it is proposed, and
 * written only with `updateLock`.
 * @public
 */
export class LockFile {
  readonly #entries: Map<string, z.infer<typeof EntrySchema>>;
  readonly #proposals: LockProposal[] = [];
  #dirty = false;

  private constructor(
    readonly path: string,
    entries: Record<string, z.infer<typeof EntrySchema>>,
    private readonly updateLock: boolean,
  ) {
    this.#entries = new Map(Object.entries(entries));
  }

  /** Opens a lock file, or starts an empty one when it does not exist yet. */
  static async open(path: string, options: { updateLock?: boolean } = {}): Promise<LockFile> {
    let text: string | undefined;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (text === undefined) return new LockFile(path, {}, options.updateLock ?? false);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new AiteError('unsupported', `The lock file ${path} is not valid JSON (${(error as Error).message}). Fix it or delete it to start again.`);
    }
    const parsed = LockFileSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AiteError('unsupported', `The lock file ${path} is not a valid aite lock file: ${issue?.path.join('.')}: ${issue?.message}.`);
    }
    return new LockFile(path, parsed.data.entries, options.updateLock ?? false);
  }

  /** The stable key of a target on a page: the page's path, then the target as sorted JSON. */
  static key(target: Target, pageUrl: string): string {
    return `${pagePath(pageUrl)} ${canonicalJson(target)}`;
  }

  get(target: Target, pageUrl: string): Descriptor | undefined {
    return this.#entries.get(LockFile.key(target, pageUrl))?.descriptor;
  }

  /** The first exact success of a target records it. Later exact successes leave it as it is. */
  recordExact(target: Target, pageUrl: string, descriptor: Descriptor): void {
    const key = LockFile.key(target, pageUrl);
    if (this.#entries.has(key)) return;
    this.#entries.set(key, { target, page: pagePath(pageUrl), descriptor: stored(descriptor) });
    this.#dirty = true;
  }

  /** A repair: written only with `updateLock`, otherwise kept as a proposal for the report. */
  proposeRepair(target: Target, pageUrl: string, descriptor: Descriptor, repair: Repair | undefined): LockProposal {
    const key = LockFile.key(target, pageUrl);
    const old = this.#entries.get(key)?.descriptor ?? repair?.old ?? descriptor;
    const proposal: LockProposal = { key, target, page: pagePath(pageUrl), old, descriptor: stored(descriptor), repair };
    this.#proposals.push(proposal);
    if (this.updateLock) {
      this.#entries.set(key, { target, page: pagePath(pageUrl), descriptor: stored(descriptor) });
      this.#dirty = true;
    }
    return proposal;
  }

  /** Repairs found in this run and not written. */
  get proposals(): readonly LockProposal[] {
    return this.updateLock ? [] : this.#proposals;
  }

  /** Writes the file if anything changed: a temp file in the same folder, then a rename. */
  async save(): Promise<void> {
    if (!this.#dirty) return;
    const entries = Object.fromEntries([...this.#entries.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, sortKeys(v)]));
    const text = `${JSON.stringify({ version: 1, entries }, null, 2)}\n`;
    const temp = join(dirname(this.path), `.${basename(this.path)}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      await mkdir(dirname(this.path), { recursive: true });
      await writeFile(temp, text, { flag: 'wx' });
      await rename(temp, this.path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    this.#dirty = false;
  }
}

function pagePath(pageUrl: string): string {
  try {
    return new URL(pageUrl).pathname;
  } catch {
    return pageUrl;
  }
}

/** A descriptor as the lock file keeps it: no runtime handle. */
function stored(descriptor: Descriptor): Descriptor {
  const { handle: _handle, ...rest } = descriptor;
  return rest as Descriptor;
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

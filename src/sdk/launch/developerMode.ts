import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeFolder } from '../system/folders.js';

/**
 * Turns on the profile's extension developer mode before Chrome starts. Chrome loads an unpacked
 * extension over the pipe (or by flag) with developer mode off, but when that extension reloads
 * (`chrome.runtime.reload()`, an update) Chrome checks the mode again and leaves it disabled for
 * good ("unsupported developer extension"): the run would lose its extension. Measured on
 * Chromium 156: with the mode on, a reloaded extension is back and connected in about 1.3 s.
 */
export async function enableDeveloperMode(userDataDir: string): Promise<void> {
  const dir = join(userDataDir, 'Default');
  const file = join(dir, 'Preferences');
  let prefs: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) prefs = parsed as Record<string, unknown>;
  } catch {
    // No profile yet (or an unreadable one, which Chrome would reset anyway): start from nothing.
  }
  const extensions = objectAt(prefs, 'extensions');
  const ui = objectAt(extensions, 'ui');
  if (ui.developer_mode === true) return;
  ui.developer_mode = true;
  await makeFolder(dir, { mode: 0o700 });
  await writeFile(file, JSON.stringify(prefs));
}

function objectAt(parent: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = parent[key];
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  const fresh: Record<string, unknown> = {};
  parent[key] = fresh;
  return fresh;
}

// The field-by-field difference between the remembered element and the repaired one, for the
// report: `changed` names the fields, `changes` says each change readably.
import type { Descriptor } from '../../../sdk/protocol/descriptor.js';

const COMPARED = [
  'tag', 'role', 'name', 'text', 'testid', 'id', 'ariaLabel', 'nameAttr', 'type', 'placeholder', 'href',
  'classes', 'icon', 'label', 'context.heading', 'context.region', 'context.row', 'path',
] as const;

function get(d: Descriptor, field: string): unknown {
  if (field.startsWith('context.')) return d.context?.[field.slice(8) as 'heading' | 'region' | 'row'];
  return (d as Record<string, unknown>)[field];
}

function show(v: unknown): string {
  if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) return '(none)';
  if (Array.isArray(v)) return `[${v.join(' ')}]`;
  const s = String(v);
  return JSON.stringify(s.length > 60 ? s.slice(0, 57) + '...' : s);
}

function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    const x = [...((a as string[] | undefined) ?? [])].sort().join(' ');
    const y = [...((b as string[] | undefined) ?? [])].sort().join(' ');
    return x === y;
  }
  return (a ?? '') === (b ?? '');
}

export function describeChanges(old: Descriptor, now: Descriptor): { changed: string[]; changes: string[] } {
  const changed: string[] = [];
  const changes: string[] = [];
  for (const f of COMPARED) {
    const a = get(old, f);
    const b = get(now, f);
    if (same(a, b)) continue;
    changed.push(f);
    changes.push(`${f} ${show(a)} -> ${show(b)}`);
  }
  return { changed, changes };
}

import { roleFilterWords, shownText, type Target } from '../protocol/target.js';
import { actionOf, type ScriptStep } from './schema.js';

/**
 * A short description of a target: `"Send"`, `button "Review"`, `label "Amount"`.
 * @internal
 */
export function describeTarget(target: string | Target): string {
  if (typeof target === 'string') return JSON.stringify(target);
  const parts: string[] = [];
  if (target.role) parts.push(target.name !== undefined ? `${target.role} ${shownText(target.name)}` : target.role);
  else if (target.name !== undefined) parts.push(`name ${shownText(target.name)}`);
  parts.push(...roleFilterWords(target));
  if (target.text !== undefined) parts.push(parts.length ? `text ${shownText(target.text)}` : shownText(target.text));
  for (const key of ['label', 'placeholder'] as const) {
    const want = target[key];
    if (want !== undefined) parts.push(`${key} ${shownText(want)}`);
  }
  for (const key of ['testid', 'css', 'xpath'] as const) {
    if (target[key] !== undefined) parts.push(`${key} ${JSON.stringify(target[key])}`);
  }
  if (target.exact) parts.push('(exact)');
  if (target.nth !== undefined) parts.push(`#${target.nth}`);
  if (target.frame) parts.push(`in frame ${JSON.stringify(target.frame)}`);
  if (target.ref) parts.push(`ref ${target.ref}`);
  if (target.within !== undefined) parts.push(`within ${describeTarget(target.within)}`);
  return parts.join(' ');
}

/**
 * What a step does, in a few words: `type "1" into label "Amount"`.
 * @internal
 */
export function describeStep(step: ScriptStep): string {
  if (step.name) return step.name;
  const s = step as Record<string, unknown> & ScriptStep;
  const action = actionOf(step);
  const t = (value: unknown): string => describeTarget(value as string | Target);
  switch (action) {
    case 'navigate':
      return `navigate ${String(s.navigate)}`;
    case 'type':
    case 'fill':
      return `${action} ${JSON.stringify(s.text)} into ${t(s[action])}`;
    case 'press':
      return `press ${String(s.press)}${s.target !== undefined ? ` in ${t(s.target)}` : ''}`;
    case 'select':
      return `select ${JSON.stringify(s.option)} in ${t(s.select)}`;
    case 'drag':
      return `drag ${t(s.drag)} to ${t(s.to)}`;
    case 'verify': {
      const v = s.verify as Record<string, unknown>;
      const not = v.negate ? 'not ' : '';
      const within = v.within !== undefined ? ` within ${t(v.within)}` : '';
      switch (v.kind) {
        case 'text':
          return `verify ${not}text ${JSON.stringify(v.value)}${within}`;
        case 'exists':
          return `verify ${t(v.target)} ${not}exists${within}`;
        case 'targetText':
          return `verify ${t(v.target)} ${not}shows ${JSON.stringify(v.value)}${within}`;
        case 'value':
          return `verify ${t(v.target)} ${not}has value ${JSON.stringify(v.value)}`;
        case 'state':
          return `verify ${t(v.target)} is ${not}${String(v.state)}`;
        case 'count':
          return `verify ${not}${String(v.value)} × ${t(v.target)}${within}`;
        case 'url':
        case 'title':
          return `verify ${v.kind} ${not}contains ${JSON.stringify(v.value)}`;
        case 'numberChange':
          return `verify ${t(v.target)} ${not}went from ${String(v.from)} by ${Number(v.by) >= 0 ? '+' : ''}${String(v.by)}`;
        default:
          return `verify ${String(v.kind)}`;
      }
    }
    case 'wait': {
      const w = s.wait as Record<string, unknown>;
      if (w.kind === 'url') return `wait for url containing ${JSON.stringify(w.contains)}`;
      if (w.kind === 'networkIdle') return 'wait for network idle';
      if (w.kind === 'textChanges') return `wait for ${t(w.target)} to change`;
      return `wait for ${t(w.target)} to be ${String(w.kind)}`;
    }
    case 'switchTab': {
      const m = s.switchTab as Record<string, unknown>;
      if (m.new) return 'switch to the new tab';
      if (m.id !== undefined) return `switch to tab ${String(m.id)}`;
      return m.urlContains !== undefined ? `switch to tab with url ${JSON.stringify(m.urlContains)}` : `switch to tab titled ${JSON.stringify(m.titleContains)}`;
    }
    case 'closeTab':
      return 'close the tab';
    case 'back':
    case 'forward':
      return `go ${action}`;
    case 'reload':
      return 'reload the page';
    case 'scroll': {
      const o = s.scroll as { target?: unknown; until?: unknown; deltaY?: number };
      const what = o.target !== undefined ? ` ${t(o.target)}` : '';
      return o.until !== undefined ? `scroll${what} until ${t(o.until)}` : `scroll${what}${o.deltaY !== undefined ? ` by ${o.deltaY} px` : ''}`;
    }
    case 'evaluate': {
      const code = String(s.evaluate);
      return `evaluate ${JSON.stringify(code.length > 60 ? `${code.slice(0, 59)}…` : code)}`;
    }
    case 'dialog': {
      const d = s.dialog as { accept: boolean; promptText?: string };
      return `answer the next dialog ${d.accept ? 'OK' : 'Cancel'}${d.promptText !== undefined ? ` with ${JSON.stringify(d.promptText)}` : ''}`;
    }
    case 'upload': {
      const files = typeof s.files === 'string' ? [s.files] : (s.files as string[]);
      return files.length === 0 ? `clear the files of ${t(s.upload)}` : `upload ${files.join(', ')} into ${t(s.upload)}`;
    }
    case 'click':
      return s.button && s.button !== 'left' ? `${String(s.button)}-click ${t(s.click)}` : `click ${t(s.click)}`;
    case 'screenshot': {
      const shot = s.screenshot;
      return typeof shot === 'string' ? `screenshot ${shot}` : 'screenshot';
    }
    case 'http': {
      const h = s.http as { method?: string; url: string };
      return `${h.method ?? 'GET'} ${h.url}`;
    }
    default:
      return `${action} ${t(s[action])}`;
  }
}

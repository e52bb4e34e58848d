import { roleFilterWords, shownText, type Target } from '../../sdk/protocol/index.js';
import { hoverHolder } from './dom/hoverReveal.js';
import { cut, fold, pageText } from './dom/text.js';

// Sentences for failure messages: what was asked and what was found, in a person's words.

/** A target in words: `role button named "Send" within "Review send"`. */
export function formatTarget(t: Target): string {
  const parts: string[] = [];
  if (t.role !== undefined) parts.push(`role ${t.role}`);
  if (t.name !== undefined) parts.push(t.role !== undefined ? `named ${shownText(t.name)}` : `name ${shownText(t.name)}`);
  parts.push(...roleFilterWords(t));
  if (t.text !== undefined) parts.push(`text ${shownText(t.text)}`);
  if (t.label !== undefined) parts.push(`label ${shownText(t.label)}`);
  if (t.placeholder !== undefined) parts.push(`placeholder ${shownText(t.placeholder)}`);
  if (t.testid !== undefined) parts.push(`testid ${q(t.testid)}`);
  if (t.css !== undefined) parts.push(`css ${q(t.css)}`);
  if (t.xpath !== undefined) parts.push(`xpath ${q(t.xpath)}`);
  if (t.exact) parts.push('(exact)');
  if (t.within !== undefined) parts.push(`within ${typeof t.within === 'string' ? q(t.within) : `(${formatTarget(t.within)})`}`);
  if (t.nth !== undefined) parts.push(`nth ${t.nth}`);
  if (t.frame !== undefined) parts.push(`in frame ${typeof t.frame === 'string' ? q(t.frame) : t.frame.map(q).join(' > ')}`);
  if (t.ref !== undefined) parts.push(`ref ${t.ref}`);
  return parts.join(' ');
}

/** An element in words: `<button#send.primary> "Send"`. */
export function formatElement(el: Element, text?: string): string {
  let head = el.localName;
  if (el.id) head += `#${el.id}`;
  const classes = Array.from(el.classList).slice(0, 2);
  if (classes.length > 0) head += `.${classes.join('.')}`;
  const t = cut(text !== undefined ? fold(text) : pageText(el), 40);
  return t ? `<${head}> ${q(t)}` : `<${head}>`;
}

/**
 * A list of things in words, at most `max` shown. `total`: how many there are when `items` holds
 * only the first of them (the rest are counted from it, not from `items`).
 */
export function listOf(items: string[], max = 3, total = items.length): string {
  const shown = items.slice(0, max).join(', ');
  const more = total - Math.min(max, items.length);
  return more > 0 ? `${shown} and ${more} more` : shown;
}

export function q(s: string): string {
  return JSON.stringify(s);
}

/** Advice for a hidden element a hover rule of the page would show (a row's actions), or ''. */
export function hoverHint(el: Element): string {
  const hover = hoverHolder(el);
  return hover ? ` It shows while the pointer is over ${formatElement(hover.holder)} (a ${hover.by} rule of the page): hover that first.` : '';
}

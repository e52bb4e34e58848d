// Text normalisation and the similarity functions of the repair score (locator-repair.md §3).
// Pure functions: no DOM, so unit tests and the weight fitter run them outside a page (`fold` is
// the page model's own, dom/text.ts, which reads no DOM either).
import { fold } from '../dom/text.js';

/** Lower-cased words of a visible string; punctuation separates words. */
export function words(s: string | undefined): string[] {
  if (!s) return [];
  const out = s.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  return out ?? [];
}

/**
 * Words of an identifier-like value (`sendButton`, `btn-send_2`, `user[email]`):
 * camelCase, digits and any punctuation split it.
 */
export function identWords(s: string | undefined): string[] {
  if (!s) return [];
  return words(s.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/([A-Za-z])(\d)/g, '$1 $2'));
}

/** Weight of a word in a word set: 1, or its inverse document frequency among the candidates. */
export type WordWeight = (t: string) => number;
// Words that carry little: "Create an account" and "Create account" name one thing.
const STOP = new Set(['a', 'an', 'the', 'your', 'my', 'of', 'to', 'for', 'and', 'or', 'in', 'on', 'at', 'with', 'is', 'this']);
const unit: WordWeight = (t) => (STOP.has(t) ? 0.3 : 1);

/** A word weight scaled down for stop words. */
export const withStops = (w: WordWeight): WordWeight => (t) => (STOP.has(t) ? 0.3 : 1) * w(t);

function tokenMatch(a: string, b: string): number {
  if (a === b) return 1;
  const short = a.length < b.length ? a : b;
  const long = a.length < b.length ? b : a;
  // Inflections and abbreviations: "msg"/"message" do not count, "email"/"emails" do.
  if (short.length >= 4 && long.startsWith(short)) return 0.8;
  if (short.length >= 5 && long.length - short.length <= 1 && editDistanceAtMost1(a, b)) return 0.8;
  return 0;
}

function editDistanceAtMost1(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

/**
 * Weighted Dice coefficient of two word sets, where near-equal words count 0.8.
 * Order and repetition are ignored: "Send message" ~ "Message: send" = 1.
 */
export function wordSetSim(a: readonly string[], b: readonly string[], tokenWeight: WordWeight = unit): number {
  if (a.length === 0 && b.length === 0) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const A = [...new Set(a)];
  const B = [...new Set(b)];
  let total = 0;
  for (const t of A) total += tokenWeight(t);
  for (const t of B) total += tokenWeight(t);
  let common = 0;
  // Equal words first; near-equal ones only among the rest, and only while that stays small
  // (a row's 30 words against another's would cost 900 comparisons for little).
  const inB = new Set(B);
  const inA = new Set(A);
  const restA: string[] = [];
  for (const t of A) {
    if (inB.has(t)) common += tokenWeight(t);
    else restA.push(t);
  }
  const restB = B.filter((t) => !inA.has(t));
  if (restA.length > 0 && restB.length > 0 && restA.length * restB.length <= 64) {
    const used = new Set<number>();
    for (const t of restA) {
      let best = 0;
      let bestJ = -1;
      for (let j = 0; j < restB.length; j++) {
        if (used.has(j)) continue;
        const m = tokenMatch(t, restB[j]!);
        if (m > best) {
          best = m;
          bestJ = j;
        }
      }
      if (bestJ >= 0) {
        used.add(bestJ);
        common += best * (tokenWeight(t) + tokenWeight(restB[bestJ]!)) * 0.5;
      }
    }
  }
  return (2 * common) / total;
}

/** Dice coefficient over character bigrams of the text without spaces ("Sign in" ~ "Signin"). */
export function bigramSim(a: string, b: string): number {
  const x = a.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  const y = b.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  if (x === y) return 1;
  if (x.length < 2 || y.length < 2) return 0;
  const grams = new Map<string, number>();
  for (let i = 0; i < x.length - 1; i++) {
    const g = x.slice(i, i + 2);
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  let common = 0;
  for (let i = 0; i < y.length - 1; i++) {
    const g = y.slice(i, i + 2);
    const n = grams.get(g) ?? 0;
    if (n > 0) {
      common++;
      grams.set(g, n - 1);
    }
  }
  return (2 * common) / (x.length - 1 + y.length - 1);
}

/**
 * Similarity of two visible strings: the word-set similarity (words weighted by `weight`, e.g. their
 * rarity among the candidates), or, when the two share almost no word, 0.9 × the bigram similarity
 * (merged or split words: "Sign in"/"Signin") provided both carry the same numbers.
 */
export function textSim(a: string | undefined, b: string | undefined, weight: WordWeight = unit): number {
  const fa = fold(a).toLowerCase();
  const fb = fold(b).toLowerCase();
  if (fa === fb) return 1;
  if (!fa || !fb) return 0;
  // "Bass Max" and "BassMax", "Log in" and "Login", "E-mail" and "Email": the same letters, spaced otherwise.
  const letters = squeeze(fa);
  if (letters !== '' && letters === squeeze(fb)) return SAME_LETTERS;
  const wa = words(fa);
  const wb = words(fb);
  const ws = wordSetSim(wa, wb, weight);
  if (wordSetSim(wa, wb) >= 0.5) return ws;
  const digits = (w: string[]): string => w.filter((t) => /\d/.test(t)).join(' ');
  return digits(wa) === digits(wb) ? Math.max(ws, 0.9 * bigramSim(fa, fb)) : ws;
}

/** Similarity of two texts with the same letters and digits, only spaced or punctuated otherwise. */
const SAME_LETTERS = 0.95;
const squeeze = (s: string): string => s.replace(/[^\p{L}\p{N}]+/gu, '');

/** Similarity of two identifier-like values (ids, test ids, `name` attributes). */
export function identSim(a: string | undefined, b: string | undefined): number {
  if (a === b) return 1;
  if (!a || !b) return 0;
  const wa = identWords(a);
  const wb = identWords(b);
  // "check3" and "check13" are two elements, not one renamed; "radioPrimary1" and
  // "radioPrimary2" are two members of one series: the number is all that names each.
  const digits = (w: string[]): string => w.filter((t) => /\d/.test(t)).join(' ');
  const letters = (w: string[]): string => w.filter((t) => !/\d/.test(t)).join(' ');
  if (digits(wa) && digits(wb) && digits(wa) !== digits(wb) && letters(wa) === letters(wb)) return 0;
  const ws = 0.95 * wordSetSim(wa, wb);
  return digits(wa) === digits(wb) ? Math.max(ws, 0.85 * bigramSim(a, b)) : ws;
}

/**
 * Similarity of two icons' names (`Descriptor.icon`). A set names its icons by family and
 * picture (`social-facebook`, `social-twitter`; `arrow-left`, `arrow-right`): when each name has a
 * word the other lacks, they are two pictures, and the family they share says nothing of which
 * one it is. When one name's words hold the other's, it is a variant of the same picture
 * (`facebook` → `facebook-f`, `folder` → `folder-open`), read as identifiers are.
 */
export function iconSim(a: string | undefined, b: string | undefined): number {
  if (a === b) return 1;
  const wa = new Set(identWords(a));
  const wb = new Set(identWords(b));
  const has = (x: Set<string>, y: Set<string>): boolean => [...y].every((w) => x.has(w));
  return has(wa, wb) || has(wb, wa) ? identSim(a, b) : 0;
}

/** Longest common subsequence length of two sequences. */
export function lcs<T>(a: readonly T[], b: readonly T[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  let prev = new Array<number>(b.length + 1).fill(0);
  let cur = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

/** Healenium-style path similarity: LCS of the tag sequences over the longer length. */
export function pathSim(a: string | undefined, b: string | undefined): number {
  if (a === b) return 1;
  if (!a || !b) return 0;
  const x = a.split('/');
  const y = b.split('/');
  return lcs(x, y) / Math.max(x.length, y.length);
}

/** Jaccard similarity of two class lists, ignoring order. */
export function setSim(a: readonly string[] | undefined, b: readonly string[] | undefined): number {
  const A = new Set(a ?? []);
  const B = new Set(b ?? []);
  if (A.size === 0 && B.size === 0) return 1;
  if (A.size === 0 || B.size === 0) return 0;
  let common = 0;
  for (const x of A) if (B.has(x)) common++;
  return common / (A.size + B.size - common);
}

/**
 * An href that names a destination, or undefined: `#`, `#!`, `javascript:…` and empty hrefs are
 * placeholders (every button-like link has one), as meaningless as a checkbox's "on".
 */
export function meaningfulHref(h: string | undefined): string | undefined {
  if (h === undefined) return undefined;
  const t = h.trim();
  return t === '' || t === '#' || t === '#!' || /^javascript:/i.test(t) ? undefined : t;
}

/** The words of an absolute href's host, without `www.` and the top-level domain ('' for a relative href). */
function hostWords(h: string): string[] {
  const host = /^[a-z][a-z0-9+.-]*:\/\/([^/?#:]+)/i.exec(h)?.[1]?.toLowerCase();
  return host ? identWords(host.replace(/^www\./, '').replace(/\.[a-z]+$/, '')) : [];
}

/**
 * Similarity of two hrefs: same path and query words, ignoring the origin. An href with no words
 * left (`#/`, `/`, another site's root) names its destination by its host, when it has one: then
 * the host's words join the path's on both sides (`http://blog.example.com` is
 * `https://www.example.com/blog`; one site's root is not another's). Without a host it is only
 * like one with the same rest: two empty word sets say nothing alike ("#/" is not
 * "http://todomvc.com").
 */
export function hrefSim(a: string | undefined, b: string | undefined): number {
  if (a === b) return 1;
  if (!a || !b) return 0;
  const strip = (h: string): string => h.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/\/$/, '');
  const wa = identWords(strip(a));
  const wb = identWords(strip(b));
  if (wa.length > 0 && wb.length > 0) return wordSetSim(wa, wb);
  const ha = hostWords(a);
  const hb = hostWords(b);
  if (ha.length > 0 || hb.length > 0) return wordSetSim([...ha, ...wa], [...hb, ...wb]);
  return strip(a) === strip(b) ? 1 : 0;
}

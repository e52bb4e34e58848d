import { AiteError, describeDialog, type DialogAnswer, type DialogRecord, type DownloadRecord, type NetworkEntry, type PageError, type StepResult, type TabInfo } from 'aite';
import { InputError } from './flatten.js';

/** What a tool answers: MCP content blocks, and whether it is a tool error. */
export interface ToolAnswer {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string }>;
  isError?: boolean;
}

/** What a step left beside passing, as the session reports it. */
interface Extras {
  /** Re-sends counted while the tool ran (the session's total before and after). */
  retries: number;
  /** The composed step's result, when the tool ran one. */
  result?: StepResult;
  /**
   * The dialogs answered since the last answer said any: during this call, or between calls (an
   * alert a timer opened, one a new tab opened on load). Each is said once.
   */
  dialogs?: readonly DialogRecord[];
  /** The answers the dialog tool armed that no dialog has used yet. */
  armed?: readonly DialogAnswer[];
  /** The answers taken back unused, by this call's start or its end. */
  unused?: Unused;
  /** What went wrong in the page since the last answer said any: its errors, and requests that failed. */
  trouble?: PageTrouble;
  /** The downloads that started, finished or were canceled since the last answer said them. */
  downloads?: readonly DownloadRecord[];
}

/**
 * A download in one line: an agent cannot see Chrome's download bar, so where the file went (or
 * that it is still coming) is said, as it is when it ends.
 */
export function downloadLine(d: DownloadRecord): string {
  const what = `${JSON.stringify(d.suggestedFilename || '(no name)')} from ${d.url}`;
  if (d.state === 'canceled') return `A download was canceled: ${what}.`;
  if (d.state === 'in-progress') return `A download started: ${what}; it is still in progress (a later answer says where it was saved).`;
  return `A download finished: ${what}, saved at ${d.path ?? '(Chrome did not say where)'}${d.bytes !== undefined ? ` (${d.bytes} bytes)` : ''}.`;
}

/** The page's errors and failed requests an answer has not said yet. */
export interface PageTrouble {
  errors: readonly PageError[];
  failedRequests: readonly NetworkEntry[];
}

/** At most this many of each are said, then how many more. */
const TROUBLE_LISTED = 5;

/** The page's errors and failed requests, one line each: an agent cannot see the console or the network. */
function troubleLines(trouble: PageTrouble | undefined): string[] {
  if (!trouble) return [];
  const listed = <T>(items: readonly T[], line: (item: T) => string, more: string): string[] => [
    ...items.slice(0, TROUBLE_LISTED).map(line),
    ...(items.length > TROUBLE_LISTED ? [`… and ${items.length - TROUBLE_LISTED} more ${more}.`] : []),
  ];
  const firstLine = (text: string): string => {
    const line = text.split('\n')[0]!;
    return line.length > 300 ? `${line.slice(0, 300)}…` : line;
  };
  return [
    ...listed(trouble.errors, (e) => `The page reported an error (${e.kind}): ${firstLine(e.text)}${e.url ? ` on ${e.url}` : ''}`, 'errors'),
    ...listed(trouble.failedRequests, (r) => `A request failed: ${r.method} ${r.url} → ${r.status ?? r.failed ?? 'no answer'}`, 'failed requests'),
  ];
}

/**
 * A passed tool call: the sentence of what happened, then its re-sends, and only when there are
 * any its repair (with what changed), the dialogs that opened and the warnings. Nothing is left
 * out to look tidy, and nothing is said twice.
 */
export function passed(sentence: string, extras: Extras, image?: Uint8Array, body?: string): ToolAnswer {
  const lines = [`${sentence} ${resends(extras.retries)}`];
  const result = extras.result;
  if (result?.repaired && result.repair) {
    const r = result.repair;
    lines.push(`Found by repair (score ${r.score}, next best ${r.runnerUp}): ${r.changes.join('; ') || r.changed.join(', ')}.`);
  }
  if (result?.navigated) lines.push(wentTo(result));
  lines.push(...(extras.dialogs ?? []).map(describeDialog), ...takenBack(extras.unused), ...stillArmed(extras.armed));
  lines.push(...(extras.downloads ?? []).map(downloadLine));
  for (const w of result?.warnings ?? []) lines.push(`Warning (${w.code}): ${w.message}`);
  lines.push(...troubleLines(extras.trouble));
  if (body !== undefined) lines.push(body);
  const content: ToolAnswer['content'] = [{ type: 'text', text: lines.join('\n') }];
  if (image) content.push({ type: 'image', data: Buffer.from(image).toString('base64'), mimeType: 'image/png' });
  return { content };
}

/** How an agent arms an accepting answer: in place of the SDK's `session.dialogs.next(...)`. */
const ARM_WITH_TOOLS = 'call the dialog tool with {"accept": true} (or give click "dialog": {"accept": true})';

/**
 * A failed tool call as an MCP tool error: `[reason] ` and the AiteError's message (its call log
 * included), then `advice` (what the server learnt about the failure, such as a page that no
 * longer answers). A refusal that weighed candidates (drifted, ambiguous) lists them, each with a target
 * that names it; none was acted on.
 */
export function failed(error: unknown, extras: Omit<Extras, 'result'> & { notice?: string; advice?: string }): ToolAnswer {
  const retries = extras.retries;
  let text: string;
  if (error instanceof AiteError) {
    // The SDK's advice on arming a dialog answer names its own call; an agent arms one with a tool.
    const advice = (error.detail as { dialogAdvice?: string }).dialogAdvice;
    text = `[${error.reason}] ${advice ? error.message.replace(advice, ARM_WITH_TOOLS) : error.message}`;
    // The protocol files a page exception under internal; an agent reads internal as "a bug in
    // aite, do not retry", which is wrong for its own expression.
    if ((error.detail as { pageException?: boolean }).pageException) {
      text += "\nThe page's own code threw (not a bug in aite): change the expression, or look at the page first (it may not be in the state the expression expects).";
    }
    text += candidateLines(error);
    if (retries > 0) text += `\n${resends(retries)}`;
  } else if (error instanceof InputError) {
    text = `[usage] ${error.message}`;
  } else {
    text = `[internal] ${error instanceof Error ? error.message : String(error)}`;
  }
  const lines = [
    text,
    ...(extras.advice ? [extras.advice] : []),
    ...(extras.dialogs ?? []).map(describeDialog),
    ...takenBack(extras.unused),
    ...stillArmed(extras.armed),
    ...(extras.downloads ?? []).map(downloadLine),
    ...troubleLines(extras.trouble),
    ...(extras.notice ? [extras.notice] : []),
  ];
  return { content: [{ type: 'text', text: lines.join('\n') }], isError: true };
}

/**
 * How long an armed dialog answer lives: until the next call that can open a dialog ends. An answer
 * armed for an action that then opened none (validation stopped it) must not accept a later,
 * unrelated confirm ("Empty the cart?") that nobody meant it for.
 */
export const ANSWER_LIFETIME =
  'An armed answer holds through the next call that acts on a page (click, type, press, navigate, back, evaluate, …) and until another such call begins: a dialog that opens before then gets it (a tab that call opened may show its dialog after it ended); one unused by then is taken back, and the answer says so. Calls that only look (snapshot, read, verify, wait, tabs, screenshot) keep it armed.';

const answerWords = (a: DialogAnswer): string => `${a.accept ? 'accepted' : 'dismissed'}${a.promptText !== undefined ? ` with ${JSON.stringify(a.promptText)}` : ''}`;

/** Answers armed and still waiting: the next dialog any tab opens gets them, until the second call that acts begins. */
function stillArmed(armed: readonly DialogAnswer[] = []): string[] {
  if (armed.length === 0) return [];
  return [`A dialog answer is still armed: the next ${armed.length === 1 ? 'dialog' : `${armed.length} dialogs`} will be ${armed.map(answerWords).join(', then ')}, until it is taken back (see the dialog tool).`];
}

/** Answers taken back unused: armed for this call (it opened no dialog), or left from before it. */
function takenBack(unused: Unused | undefined): string[] {
  const lines: string[] = [];
  const what = (list: readonly DialogAnswer[]): string => (list.length === 1 ? `The dialog answer (${answerWords(list[0]!)}) was` : `${list.length} dialog answers (${list.map(answerWords).join(', ')}) were`);
  if (unused?.before.length) lines.push(`${what(unused.before)} armed before the last call that acted on a page and not used since: it is taken back before this call, so no dialog of this call gets it.`);
  if (unused?.own.length) lines.push(`${what(unused.own)} not used: no dialog opened during this call. It is taken back, so no later dialog gets it; arm one again right before the action that opens the dialog.`);
  return lines;
}

/** Dialog answers a call took back: its own (armed for it), and those left from before it. */
export interface Unused {
  own: readonly DialogAnswer[];
  before: readonly DialogAnswer[];
}

function resends(n: number): string {
  return n === 0 ? '(no re-sends)' : `(re-sent ${n} time${n === 1 ? '' : 's'}; an action is never sent twice)`;
}

interface Described {
  tag?: string;
  role?: string;
  name?: string;
  text?: string;
  label?: string;
  xpath?: string;
  context?: { heading?: string; row?: string };
}

/** A refusal's detail as the page sends it (protocol.md, locator-repair.md §1 and §4). */
interface RefusalDetail {
  candidate?: Described;
  score?: number;
  runnerUp?: number;
  changes?: string[];
  exact?: boolean;
  better?: Described;
  betterChanges?: string[];
  repair?: boolean;
  candidates?: Array<{ descriptor?: Described; score?: number; changes?: string[] }>;
}

const changed = (changes: readonly string[] | undefined): string => (changes?.length ? `; changed: ${changes.join('; ')}` : '');
/** Where an element stands (its row, else its heading): what tells apart twins that say the same. */
const placeOf = (d: Described): string => {
  const at = d.context?.row ? ` in the row ${JSON.stringify(d.context.row)}` : d.context?.heading ? ` under ${JSON.stringify(d.context.heading)}` : '';
  return at.length > 90 ? `${at.slice(0, 90)}…"` : at;
};
const targetOf = (d: Described): string => (d.xpath ? `: target ${JSON.stringify({ xpath: d.xpath })}` : '');

/**
 * The candidates of a refusal, each with what it is: an element a person may have meant (with
 * the target that names it and what changed against the remembered element), or the element the
 * refusal refused (with why, and no target: acting on it is what was refused). None was acted on.
 */
function candidateLines(error: AiteError): string {
  const detail = error.detail as RefusalDetail;
  if (error.reason === 'drifted' && detail.exact && detail.candidate) {
    // The target's own match, refused: the page now has another element where the target points.
    const refused = `${elementWords(detail.candidate)}${placeOf(detail.candidate)} (score ${detail.score}; refused: what the target finds now, not the remembered element${changed(detail.changes)})`;
    if (!detail.better) {
      return `\nNothing on the page resembles the remembered element; the only element considered was refused (nothing was acted on):\n  - ${refused}`;
    }
    const meant = `${elementWords(detail.better)}${placeOf(detail.better)} (score ${detail.runnerUp}; the element most like the remembered one${changed(detail.betterChanges)})${targetOf(detail.better)}`;
    return `\nCandidates (none was acted on; name the first only if it is the element you mean):\n  1. ${meant}\nRefused (do not act on it):\n  - ${refused}`;
  }
  if (error.reason === 'drifted' && detail.candidate) {
    const closest = `${elementWords(detail.candidate)}${placeOf(detail.candidate)} (score ${detail.score}; the closest to the remembered element, too unlike it to act on${changed(detail.changes)})${targetOf(detail.candidate)}`;
    return `\nCandidates (none was acted on; name it only if it is the element you mean):\n  1. ${closest}`;
  }
  const list = (detail.candidates ?? []).filter((c) => c.descriptor).slice(0, 10);
  if (list.length === 0) return '';
  const lines = list.map((c, i) => `  ${i + 1}. ${elementWords(c.descriptor!)}${c.score !== undefined ? ` (score ${c.score}${changed(c.changes)})` : ''}${targetOf(c.descriptor!)}`);
  return `\nCandidates (none was acted on; name one to act on it):\n${lines.join('\n')}`;
}

/**
 * One tab of a listing: `*` marks the run's; a tab whose page has not said its title yet shows
 * `(loading)` (or `(no title)`) where the title goes, never an empty `""`.
 */
export function tabLine(tab: TabInfo, current: number | null): string {
  const title = tab.title ? JSON.stringify(tab.title) : tab.loading ? '(loading)' : '(no title)';
  return `${tab.id === current ? '*' : ' '} ${tab.id} ${title} ${tab.url || '(no URL yet)'}`;
}

/** An element in a few words: its role (or tag) and what it says, `button "Add to cart"`. */
export function elementWords(d: Described): string {
  const words = d.text ?? d.name ?? d.label;
  return `${d.role ?? d.tag ?? 'element'}${words ? ` ${JSON.stringify(words.length > 80 ? `${words.slice(0, 80)}…` : words)}` : ''}`;
}

/** Where a call's input took the page: a new document, or a single-page app's route within the same one. */
function wentTo(result: StepResult): string {
  if (!result.sameDocument) return `The page went to ${result.navigated}.`;
  return `The page went ${result.navigatedFrom ? `from ${result.navigatedFrom} ` : ''}to ${result.navigated} within its document (no page loaded).`;
}

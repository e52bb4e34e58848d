import type { Page } from 'puppeteer-core';
import { AiteError } from '../../errors/AiteError.js';
import type { ActDispatched } from '../../protocol/index.js';
import type { Dialogs } from './Dialogs.js';

/** How long a page that did not take input is asked what it is doing before it is called busy. */
export const ACTIVITY_PROBE_MS = 250;

/**
 * Trusted input with a deadline: a renderer that does not confirm the input (a script that never
 * returns, a dialog left open, a navigation that holds the page) fails the step within its
 * timeout and {@link ACTIVITY_PROBE_MS}, saying what the page was doing (`activity`), instead of
 * holding the run. The input went out, so the page may still run it: its outcome is unknown, and
 * it is never sent again (`dispatched` tells how much of it the page confirmed).
 */
export async function inputWithDeadline(
  action: string,
  timeoutMs: number,
  input: () => Promise<void>,
  context: { activity: () => Promise<string>; dispatched: () => ActDispatched },
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => resolve('expired'), timeoutMs);
  });
  const work = input();
  try {
    if ((await Promise.race([work, expired])) !== 'expired') return;
  } finally {
    clearTimeout(timer);
  }
  // The input call may still settle later; nothing waits for it.
  work.catch(() => undefined);
  const doing = await context.activity();
  const dispatched = context.dispatched();
  const outcome =
    dispatched === true
      ? 'The page confirmed part of it; the rest may still run once the page is free'
      : 'Its outcome is unknown: the page may still run it once it is free';
  throw new AiteError(
    'timeout',
    `${action} was sent, but the page did not confirm it within ${timeoutMs} ms: ${doing}. ${outcome}. It is not sent again: check the page before repeating it, and look for what holds the page (a long-running script, such as a loop in an event handler).`,
    { command: action, detail: { dispatched, page: doing } },
  );
}

/** What a page that does not answer is doing, in a phrase, found within {@link ACTIVITY_PROBE_MS}. */
export async function pageActivity(page: Page, dialogs: Dialogs): Promise<string> {
  const open = dialogs.openIn(page);
  if (open) return `a ${open.type} dialog is open ("${open.message}")`;
  const probe = (page.evaluate('document.readyState') as Promise<string>).then(
    (state) => (state === 'complete' ? 'the page answers now, but was busy' : `the page is loading (document ${state})`),
    (error: unknown) => `the page could not be asked (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
  );
  let timer: NodeJS.Timeout | undefined;
  const busy = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`the page\u2019s main thread is busy: a script has been running without a break (it answered nothing in ${ACTIVITY_PROBE_MS} ms more)`), ACTIVITY_PROBE_MS);
  });
  try {
    return await Promise.race([probe, busy]);
  } finally {
    clearTimeout(timer);
  }
}

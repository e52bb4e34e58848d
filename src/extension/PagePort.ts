/**
 * The long-lived channel between the worker and a tab's content script (top frame). A port
 * message is one hop each way, where `tabs.sendMessage` opens and closes a channel for every
 * message (measured: about twice the time per command).
 */
export const PAGE_PORT_NAME = 'aite-page';

/** Worker -> page: one page command, numbered by the port. */
export interface PagePortRequest {
  aite: 1;
  seq: number;
  request: unknown;
}

/**
 * Page -> worker: request `seq` arrived (sent first, before it runs), then its answer (an ok
 * answer or a failure; never absent). A request whose document went away before it said it
 * arrived was never received there.
 */
export type PagePortAnswer = { seq: number; received: true } | { seq: number; answer: unknown };

/**
 * Every MUST, answer shape and reason of protocol v1 (spec: protocol-v1.md), with an id.
 * Tests cite the ids they cover in their names (e.g. `it('[PAGE-LOCATE] ...')`), and
 * test/unit/requirements-coverage.test.ts fails when an id has no test.
 */
export const REQUIREMENTS = {
  // Transport and handshake
  'T-URL': 'one websocket per run at ws://127.0.0.1:<port>/ext?token=<run token>; the extension is the client',
  'T-LOOPBACK': 'the bridge listens on 127.0.0.1 only',
  'T-TOKEN': 'a connection with a wrong token is closed (4401)',
  'T-PROFILES': 'one bridge per profile; the runner routes by profile, the bridge and extension never see that key',
  'H-HELLO': 'the extension says hello with extVersion, chrome and profile',
  'H-WELCOME': 'the bridge answers welcome with runId and protocol 1',
  'H-MISMATCH': 'on a protocol mismatch the connection closes with 4426 (and the extension shows an error badge)',

  // Requests and answers
  'RQ-ID': 'every request has a numeric id; the answer carries the same id; exactly one answer per request',
  'RQ-FAILURE': 'a failure is { id, ok: false, reason, detail }',
  'RQ-REASONS': 'reason is one of the fourteen reasons of the spec',
  'RS-EXACT': 'resolve without a descriptor resolves exactly: { descriptor, matches, repaired: false, via: "exact" }',
  'RS-AMBIGUOUS': 'two or more exact matches answer ambiguous with the candidates',
  'RS-NOT-FOUND': 'no match answers not-found',
  'RS-PREPARE': 'beyond v1: resolve with `prepare` readies the element (click: the locate checks; fill: focused, text selected) and answers `point`, so a composed step is one round trip',
  'RS-NO-REPAIR-UNLESS-NOT-FOUND': 'an ambiguous or hidden exact match is never repaired',
  'RS-FIELDS': 'with a descriptor and no exact match, remembered testid, id, aria-label, name are tried in order (via "descriptor")',
  'RS-REPAIR': 'a scored candidate >= 0.85 with no rival within 0.15 answers repaired: true, via "repair", with repair { score, runnerUp, old, changed, changes }',
  'RS-DRIFTED': 'a best candidate between 0.60 and 0.85 answers drifted, never acted on',
  'RS-REPAIR-AMBIGUOUS': 'two candidates within 0.15 answer ambiguous with repair: true and the candidates',
  'RS-RECORD': 'beyond v1: resolve with `record` adds twins and peers to the descriptor (what the lock file keeps for repair)',
  'RS-CHECK-EXACT': 'beyond v1: with checkExact, an exact match that is no longer the remembered element answers drifted with exact: true, never acted on',
  'RS-REPAIR-NOT-FOUND': 'nothing close enough answers not-found with repairTried, bestScore, and a note above 2000 elements',
  'LOC-ANSWER': 'locate answers x, y, rect, tag, editable (kind, checked for checkboxes and radios) in viewport pixels',
  'LOC-CHECKS': 'locate scrolls into view and requires the element visible and enabled',
  'LOC-COVERED': 'locate answers not-visible with coveredBy when the middle of the element hits another element',
  'READ': 'read answers the text of the target',
  'V-EXISTS': 'verify exists',
  'V-TEXT': 'verify text (page or region named by within)',
  'V-TARGET-TEXT': 'verify targetText',
  'V-VALUE': 'verify value',
  'V-STATE': 'verify state',
  'V-COUNT': 'verify count',
  'V-URL': 'verify url',
  'V-TITLE': 'verify title',
  'V-NUMBER-CHANGE': 'verify numberChange',
  'V-NEGATE': 'verify honours negate',
  'V-MISMATCH': 'a failed verify answers mismatch with expected and found',
  'W-VISIBLE': 'wait visible',
  'W-GONE': 'wait gone',
  'W-TEXT-CHANGES': 'wait textChanges',
  'W-URL': 'wait url',
  'W-NETWORK-IDLE': 'wait network-idle is answered by the runner from Chrome network events',
  'ACT-ACTIONS': 'act click, doubleClick, type, press, check, uncheck, drag, select as plain events (select by option label or value)',
  'ACT-PIPE': 'with a pipe the runner sends real mouse and keys at the located point; act is only used without one',
  'OL-DRAW': 'outline draws boxes: tones wanted/candidate/other, at most 10, labels cut to 80 characters, text only',
  'OL-OVERLAY': 'each box is our own div (data-aite-overlay, inline styles, pointer-events none) on the document element; page untouched',
  'OL-REPLACE': 'drawing again replaces the boxes',
  'OL-EXPIRE': 'the page removes the boxes itself after 15 s',
  'OL-CLEAR': 'clear answers removed and remaining',
  'OL-RUNNER': 'the runner outlines only around the screenshot of a failed step, clears right after, and warns (code outline) when drawing failed or boxes remained',

  // Tabs
  'TAB-LIST': 'tabs answers id, url, title, active of every tab',
  'NAV-NEW-TAB': 'navigate without tab opens a new tab, remembers it as the run tab and answers its id',
  'NAV-RUN-TAB': 'page commands without tab go to the run tab (tab-closed if there is none yet)',
  'NAV-LOAD': 'navigate waits for the page to load; timeout after timeoutMs; tab-closed if the tab goes away',
  'NAV-HTTP-ONLY': 'navigate only opens http and https pages',
  'NAV-LOAD-FAILED': 'a page the browser could not load answers load-failed',
  'NAV-RESEND': 'a resolve or verify that dies because the page navigated is sent again to the new page until its own timeoutMs, counted in retries',
  'NAV-ACT-NOT-RESENT': 'an act that dies because the page navigated is never sent again (navigation)',
  'INJECT-ON-DEMAND': 'tabs open before the extension loaded get the content script on demand',
  'ALLOW-LIST': 'a tab whose origin is not in the allow list fails as internal with a message naming the allow list',
  'SW-MATCH': 'switchTab finds a tab by urlContains, titleContains, or new: true (the newest tab that opened by itself, not yet taken)',
  'SW-WAIT': 'switchTab waits until timeoutMs for a matching tab to exist and finish loading',
  'SW-NOT-CURRENT': 'switchTab never counts the tab the run is on',
  'SW-FRONT': 'switchTab brings the tab to the front',
  'SW-AMBIGUOUS': 'two matching tabs answer ambiguous',
  'SW-TIMEOUT': 'no matching tab in time answers timeout with the open tabs\u2019 addresses',
  'CT-BACK': 'closeTab goes back along the tabs the run switched from; tab in the answer is where the run is now, or null',
  'CT-ALREADY': 'closing a tab that is already closed answers alreadyClosed: true',

  // Screenshots
  'SS-PIPE': 'the runner takes screenshots over the pipe: finds the page by url (and title), brings it to the front, captures a PNG',
  'SS-REFUSE': 'a capture that cannot tell the page apart is refused, not guessed',
  'SS-WARNING': 'a picture that cannot be taken is a warning on the step, never a failed step',

  // Events
  'EV-TAB-OPENED': 'event tab-opened { tab, url }',
  'EV-TAB-CLOSED': 'event tab-closed { tab }',
  'EV-NAVIGATED': 'event navigated { tab, url }',
  'EV-CONSOLE': 'event console { tab, level, text } for page errors',

  // Keepalive
  'KA-PING': 'the bridge pings every 15 s and the extension answers pong',
  'KA-RECONNECT': 'a stopped worker reconnects with backoff 0.5, 1, 2, 4, 8 s then every 8 s and hello carries resume',
  'KA-ALARM': 'a chrome.alarms alarm every 30 s wakes the worker',
  'KA-4401': 'after 4401 the extension shows the error badge and keeps retrying (re-reading bridge.json)',
  'KA-4408': 'no hello in time closes 4408',
  'KA-4409': 'a newer connection replaces the older with 4409; the older stops retrying until the worker restarts',
  'KA-4410': 'no answer to pings closes 4410',

  // Delivery
  'DL-RESEND-IDEMPOTENT': 'after a reconnect the bridge re-sends only resolve, verify, locate, read, wait, tabs without an answer',
  'DL-ACT-LOST': 'an act without an answer fails with connection-lost and is never sent again',
  'DL-ACT-STATUS': 'a lost act\u2019s connection-lost failure says whether its input was dispatched (true, false, or "unknown" only when it cannot be known), asked of the extension after it is back (actStatus, beyond v1)',
  'DL-ONE-AT-A-TIME': 'the bridge does not send request N+1 before it has answer N',
  'DL-SIZE': 'the 8 MB message limit is enforced by both ends',
  'RT-FIELD': 'retries is a whole number >= 1, absent when there were none; an act never carries retries',
  'RT-ADD': 'navigation re-sends and reconnect re-sends add up',
  'RT-COUNTED': 'the runner counts retries and shows them; it never hides one',

  // Security
  'SEC-TOKEN': 'the token is 128 random bits, generated per run',
  'SEC-BRIDGE-JSON': 'bridge.json (address, token, profile) is written in the extension folder with mode 600 before Chrome starts, and deleted when the run ends',
  'SEC-REREAD': 'the extension reads bridge.json each time it connects, so a new run\u2019s token is used',
  'SEC-NOT-IN-PAGE': 'the token is never in a URL the page can see; pages cannot reach the bridge or the worker',
  'SEC-HOSTS': 'the extension requests host permissions only for the origins of the allow list',

  // Session steps
  'STEP-OWN-LOG': 'every Session call (composed step, tab, locator, verify) keeps its own call log, warnings and re-sends: calls that overlap never write into each other\u2019s',
  'STEP-PICTURE': 'every Session call that fails, a verify included, throws its error with the call log and, over the pipe, the outlined picture of the page',

  // Real pages: cross-site frames, rows and cards as regions (issue 15, branch h/frames)
  'FR-XSITE-RESOLVE': 'a target\u2019s `frame` reaches a cross-site (out-of-process) iframe, and nested ones as `frame: [outer, inner]`: resolve, read and verify run in the frame\u2019s own content script',
  'FR-XSITE-INPUT': 'click, type and fill in a cross-site frame land there, exactly once: the point is moved into the top viewport frame by frame',
  'FR-XSITE-REFUSE': 'a cross-site frame covered at the point, or drawn with a transform other than a shift, is refused with a reason, never clicked blindly',
  'FR-XSITE-ALLOW': 'a cross-site frame whose origin is outside the allow list is refused, naming the origin and the allow list',
  'FR-XSITE-RELOAD': 'a frame that navigates or reloads while a look-only command runs in it: the command is sent again from the top page, and counted',
  'FR-XSITE-REMOVED': 'a frame removed while a command runs in it: re-sent, then not-found saying the frame is gone, counted',
  'FR-XSITE-NAVIGATED': 'a frame that navigated between resolve and input: locate and act refuse, nothing lands in the new document',
  'FR-SCRIPT': 'script steps take a `frame` path and a row or card `within` as the SDK does',
  'RG-ROW': '`within: "<text>"` names the list item, table row or grid row that says it when no dialog, section, form or landmark has that name (the innermost one in nested lists)',
  'RG-CARD': '`within: "<text>"` names a card (an article, or an element whose class ends in card) by the text in it',
  'RG-AMBIGUOUS': 'two rows or cards that say the within text are refused as ambiguous; a region with that name wins over rows',
  'WG-EDITOR': 'widget suite: in TinyMCE (which edits inside an iframe) a line is typed and made a bulleted list through the toolbar',
  'WG-DATEPICKER': 'widget suite: in flatpickr the calendar is opened, moved a month on, and a day picked',
  'WG-SELECT': 'widget suite: in Tom Select part of a name is typed and the matching option chosen',
  'WG-MODAL': 'widget suite: a SweetAlert2 confirmation dialog opened by a button is confirmed',

  // For agents: aite mcp
  'MCP-TOOLS': 'aite mcp lists the tools API.md names, each with a description and a zod-derived object input schema',
  'MCP-LAZY': 'the browser starts on the first tool call that needs one; a call refused before it runs starts none',
  'MCP-ALLOW': 'a navigate to an origin outside the allow list is refused (unsupported) before anything runs',
  'MCP-RESULT': 'a passed call answers a sentence of what happened with the step\u2019s re-sends, and its repair, dialogs and warnings when there are any',
  'MCP-ERROR': 'a failed call is an MCP tool error (isError) whose text is [reason] and the AiteError message',
  'MCP-TARGET': 'a tool target is a script target, a plain string (its text) or { ref } from the last snapshot',
  'MCP-REFUSE-CANDIDATES': 'an ambiguous or drifted element is returned to the agent with its candidates, each with a target naming it, and never acted on',
  'MCP-IMAGE': 'screenshot answers an image content block (PNG)',
  'MCP-CLOSE': 'closing the connection, SIGINT or SIGTERM closes Chrome and removes the temp profile',
} as const;

export type RequirementId = keyof typeof REQUIREMENTS;

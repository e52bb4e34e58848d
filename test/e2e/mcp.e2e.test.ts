import { execSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/FixtureServer.js';
import { descendants } from './support/listeningPorts.js';
import { connect, textOf, type Answer } from './support/mcp.js';
import { alive, profileDirOf } from './support/processes.js';

// `aite mcp` as a host runs it (support/mcp.ts), against the fixture pages in real Chromium. One
// server process serves the file's tests in order (a session an agent would have); the signal
// test has its own.

/** The Chrome processes below `pid` and the user data dir they were started with. */
function chromeOf(pid: number): { pids: number[]; profile: string | undefined } {
  const pids: number[] = [];
  let profile: string | undefined;
  for (const child of descendants([pid])) {
    if (child === pid) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const dir = profileDirOf(args);
    if (!dir) continue;
    pids.push(child);
    profile ??= dir;
  }
  return { pids, profile };
}


let server: FixtureServer;
let cwd: string;
let client: Client;
let transport: StdioClientTransport;
const page = (path: string): string => new URL(path, server.url).href;
const call = (name: string, args: Record<string, unknown> = {}): Promise<Answer> => client.callTool({ name, arguments: args }) as Promise<Answer>;

beforeAll(async () => {
  server = await startFixtureServer();
  cwd = await mkdtemp(join(tmpdir(), 'aite-mcp-e2e-'));
  // With a lock file, as an agent's own runs heal: what it names is remembered, then repaired or refused.
  ({ client, transport } = await connect(['--allow', server.origin, '--lock', join(cwd, 'aite.lock.json')], cwd));
});

afterAll(async () => {
  await client?.close();
  await server?.close();
  await rm(cwd, { recursive: true, force: true });
});

describe('aite mcp, driven by the MCP SDK client in real Chromium', () => {
  it('[MCP-TOOLS] lists the tools with descriptions and object input schemas; evaluate is not offered without --allow-evaluate', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['navigate', 'click', 'type', 'fill', 'press', 'select', 'check', 'hover', 'drag', 'read', 'verify', 'wait', 'tabs', 'switch_tab', 'close_tab', 'back', 'snapshot', 'upload', 'dialog', 'screenshot']) {
      expect(names).toContain(name);
    }
    expect(names).not.toContain('evaluate');
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(30);
      expect(tool.inputSchema.type, tool.name).toBe('object');
    }
    const verify = tools.find((t) => t.name === 'verify')!.inputSchema as { properties: Record<string, { enum?: string[] }>; required?: string[] };
    expect(verify.properties.kind!.enum).toEqual(expect.arrayContaining(['text', 'exists', 'value', 'count', 'url']));
    expect(verify.required).toEqual(['kind']);
    const click = tools.find((t) => t.name === 'click')!.inputSchema as { required?: string[] };
    expect(click.required).toEqual(['target']);
  });

  it('[MCP-ALLOW] [MCP-LAZY] [MCP-ERROR] a navigate outside the allow list is refused as a tool error before any browser starts', async () => {
    const answer = await call('navigate', { url: 'https://example.com/' });
    expect(answer.isError).toBe(true);
    expect(textOf(answer)).toMatch(/^\[unsupported\] https:\/\/example\.com is not in this server's allow list \(http:\/\/127\.0\.0\.1:\d+\); nothing was opened/);
    expect(chromeOf(transport.pid!).pids).toEqual([]);
  });

  it('[MCP-LAZY] [MCP-RESULT] the first navigate starts Chrome and says where it went', async () => {
    // The pipe's end may reach the server before or after this call does: then this one call fails
    // as connection-lost (it was not sent to a new Chrome behind the agent's back), and the next starts one.
    let answer = await call('navigate', { url: page('agent.html') });
    if (answer.isError) {
      expect(textOf(answer)).toMatch(/^\[connection-lost\] navigate /);
      answer = await call('navigate', { url: page('agent.html') });
    }
    expect(answer.isError, textOf(answer)).toBeFalsy();
    expect(textOf(answer)).toMatch(/^Opened http:\/\/127\.0\.0\.1:\d+\/agent\.html \("Newsletter"\) in tab \d+\. \(no re-sends\)$/);
    expect(chromeOf(transport.pid!).pids.length).toBeGreaterThan(0);
  });

  it('[MCP-TARGET] [MCP-SNAPSHOT] [MCP-RESULT] types by label, checks, selects; a snapshot shows it, and a click by its ref lands; read shows what the page did', async () => {
    const typed = await call('type', { target: { label: 'Email' }, text: 'ada@example.com' });
    expect(textOf(typed)).toBe('Done: type "ada@example.com" into label "Email". (no re-sends)');
    expect((await call('check', { target: { label: 'Weekly digest' } })).isError).toBeFalsy();
    // [SELECT-HOW] an option by index, as Playwright's selectOption takes one; then by its words.
    expect(textOf(await call('select', { target: { label: 'Topic' }, option: { index: 1 } }))).toMatch(/^Done: select \{"index":1\} in label "Topic"/);
    expect(textOf(await call('read', { target: { label: 'Topic' } }))).toMatch(/Technology|tech/);
    expect((await call('select', { target: { label: 'Topic' }, option: 'News' })).isError).toBeFalsy();
    expect((await call('select', { target: { label: 'Topic' }, option: 'Technology' })).isError).toBeFalsy();
    const snapshot = textOf(await call('snapshot'));
    expect(snapshot).toMatch(/^Snapshot of "Newsletter" http:\/\/127\.0\.0\.1:\d+\/agent\.html: \d+ lines, \d+ refs\. \(no re-sends\)\n/);
    expect(snapshot).toMatch(/- textbox "Email" \[ref=e\d+\]: "ada@example\.com"/);
    expect(snapshot).toMatch(/- checkbox "Weekly digest" \[checked\](?: \[\w+\])* \[ref=e\d+\]/);
    const ref = /- button "Subscribe" \[ref=(e\d+)\]/.exec(snapshot)![1]!;
    const clicked = await call('click', { target: { ref } });
    // A ref says nothing in words: the answer names the element it found.
    expect(textOf(clicked)).toBe(`Done: click ref ${ref} (the button "Subscribe"). (no re-sends)`);
    expect(await call('click', { target: { ref: 'e999' } })).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^\[not-found\] .*e999/) }] });
    const read = await call('read', { target: { css: '#status' } });
    expect(textOf(read)).toBe('css "#status" reads: "Subscribed: ada@example.com (tech, weekly)" (no re-sends)');
  });

  it('[MCP-DIALOG] a confirm dialog is answered as armed, and the step that opened it says so', async () => {
    expect(textOf(await call('dialog', { accept: false }))).toMatch(/^The next dialog will be dismissed\. An armed answer holds through the next call that acts on a page .*\(no re-sends\)$/);
    // While it waits, every answer says so, and until when.
    expect(textOf(await call('read', { target: { css: '#status' } }))).toMatch(/\nA dialog answer is still armed: the next dialog will be dismissed, until it is taken back \(see the dialog tool\)\.$/);
    const kept = await call('click', { target: 'Delete draft' });
    expect(textOf(kept)).toBe('Done: click "Delete draft". (no re-sends)\nA confirm dialog opened: "Delete the draft?"; it was dismissed.');
    expect(textOf(await call('read', { target: { css: '#status' } }))).toContain('"Draft kept"');
    // Armed and clicked in one call.
    const deleted = await call('click', { target: { role: 'button', name: 'Delete draft' }, dialog: { accept: true } });
    expect(textOf(deleted)).toBe('Done: click button "Delete draft". (no re-sends)\nA confirm dialog opened: "Delete the draft?"; it was accepted.');
    expect(textOf(await call('read', { target: { css: '#status' } }))).toContain('"Draft deleted"');
  });

  it('[MCP-DIALOG-LIFETIME] an answer armed for a call that opened no dialog is taken back when it ends, said so, and never answers a later confirm', async () => {
    const unused = 'The dialog answer (accepted) was not used: no dialog opened during this call. It is taken back, so no later dialog gets it; arm one again right before the action that opens the dialog.';
    // A click's own answer, unused: said, and taken back (also when the click fails).
    expect(textOf(await call('click', { target: 'Subscribe', dialog: { accept: true } }))).toBe(`Done: click "Subscribe". (no re-sends)\n${unused}`);
    const failedClick = await call('click', { target: 'Nowhere to be found', dialog: { accept: true }, timeoutMs: 300 });
    expect(failedClick.isError).toBe(true);
    expect(textOf(failedClick)).toContain(`\n${unused}`);
    // The dialog tool's answer lives through calls that only look and the next that acts (a tab it
    // opens may show its dialog later), and is taken back when another call that acts begins.
    await call('dialog', { accept: true });
    expect(textOf(await call('read', { target: { css: '#status' } }))).toContain('\nA dialog answer is still armed');
    expect(textOf(await call('click', { target: 'Subscribe' }))).toMatch(/^Done: click "Subscribe"\. \(no re-sends\)\nA dialog answer is still armed: the next dialog will be accepted/);
    // So the destructive confirm a later click opens gets the policy's answer, not the stale one.
    const later = textOf(await call('click', { target: 'Delete draft' }));
    expect(later).toContain('\nA confirm dialog opened: "Delete the draft?"; it was dismissed (no answer was armed).');
    expect(later).toContain('\nThe dialog answer (accepted) was armed before the last call that acted on a page and not used since: it is taken back before this call, so no dialog of this call gets it.');
    expect(later).not.toContain('still armed');
    expect(textOf(await call('read', { target: { css: '#status' } }))).toContain('"Draft kept"');
    await call('click', { target: 'Subscribe' });
  });

  it('[MCP-ERROR] a verify that does not hold is a tool error with reason mismatch and what the page shows', async () => {
    const answer = await call('verify', { kind: 'targetText', target: { css: '#status' }, value: 'Unsubscribed', timeoutMs: 300 });
    expect(answer.isError).toBe(true);
    expect(textOf(answer)).toMatch(/^\[mismatch\] /);
    expect(textOf(answer)).toContain('Subscribed: ada@example.com');
    const passedVerify = await call('verify', { kind: 'text', value: 'Subscribed: ada@example.com' });
    expect(textOf(passedVerify)).toBe('Done: verify text "Subscribed: ada@example.com". (no re-sends)');
  });

  it('[MCP-ERROR] arguments a tool cannot run with are said back, and nothing runs', async () => {
    const answer = await call('verify', { kind: 'count', target: 'Remove', value: 'two' });
    expect(answer.isError).toBe(true);
    expect(textOf(answer)).toMatch(/^\[usage\] verify was not run: value: /);
  });

  it('[MCP-REFUSE-CANDIDATES] an ambiguous target is refused with its candidates, each with a target that names it, and nothing is clicked', async () => {
    const answer = await call('click', { target: 'Remove', timeoutMs: 1000 });
    expect(answer.isError).toBe(true);
    const text = textOf(answer);
    expect(text).toMatch(/^\[ambiguous\] The target text "Remove" matches 2 visible elements/);
    expect(text).toMatch(/Candidates \(none was acted on; name one to act on it\):\n {2}1\. button "Remove": target \{"xpath":"[^"]+"\}\n {2}2\. button "Remove": target \{"xpath":"[^"]+"\}/);
    expect(textOf(await call('read', { target: { css: '#removed' } }))).toContain('"0 removed"');
    // A listed target names exactly one of them.
    const xpath = /target (\{"xpath":"[^"]+"\})/.exec(text)![1]!;
    expect(textOf(await call('click', { target: JSON.parse(xpath) }))).toMatch(/^Done: click xpath /);
    expect(textOf(await call('read', { target: { css: '#removed' } }))).toContain('"1 removed"');
  });

  it('[MCP-REFUSE-CANDIDATES] [MCP-RESULT] with --lock: rows reordered, the remembered row is refused as drifted and its candidate is the remembered row, the refused one said as refused; renamed, it is repaired and the answer says what changed', async () => {
    const deleteOfFirstRow = { xpath: '//tr[1]/td[4]/button[2]' };
    await call('navigate', { url: page('agent-rows.html') });
    expect(textOf(await call('click', { target: deleteOfFirstRow }))).toMatch(/^Done: click xpath/);
    expect(textOf(await call('read', { target: { css: '#deleted' } }))).toContain('"Deleted: A"');

    await call('navigate', { url: page('agent-rows.html?order=GAT') });
    const drifted = await call('click', { target: deleteOfFirstRow, timeoutMs: 2000 });
    expect(drifted.isError).toBe(true);
    const text = textOf(drifted);
    expect(text).toMatch(/^\[drifted\] .*Nothing was done\. The element most like the remembered one is "Delete" in the row "Ada Lovelace/s);
    // The one candidate is Ada's row (where the remembered Delete went), never Grace's that the target finds now.
    expect(text).toMatch(/Candidates \(none was acted on; name the first only if it is the element you mean\):\n {2}1\. button "Delete" in the row "Ada Lovelace[^\n]*\(score [\d.]+; the element most like the remembered one\): target \{"xpath":"[^"]+"\}\nRefused \(do not act on it\):\n {2}- button "Delete" in the row "Grace Hopper[^\n]*; refused: what the target finds now, not the remembered element; changed: context\.row "Ada Lovelace[^\n]*-> "Grace Hopper/);
    expect(text).not.toMatch(/Grace Hopper[^\n]*: target \{/);
    expect(textOf(await call('read', { target: { css: '#deleted' } }))).toContain('"Deleted:"');
    const meant = JSON.parse(/target (\{"xpath":"[^"]+"\})/.exec(text)![1]!) as { xpath: string };
    expect(textOf(await call('click', { target: meant }))).toMatch(/^Done: click xpath/);
    expect(textOf(await call('read', { target: { css: '#deleted' } }))).toContain('"Deleted: A"');

    // Ada's row removed: nothing resembles the remembered Delete, and the refused one is no candidate.
    await call('navigate', { url: page('agent-rows.html?order=GT') });
    const gone = textOf(await call('click', { target: deleteOfFirstRow, timeoutMs: 2000 }));
    expect(gone).toMatch(/^\[drifted\] .*Nothing was done\. Nothing else on the page resembles the remembered element\./s);
    expect(gone).toMatch(/\nNothing on the page resembles the remembered element; the only element considered was refused \(nothing was acted on\):\n {2}- button "Delete" in the row "Grace Hopper[^\n]*refused: what the target finds now/);
    expect(gone).not.toContain('Candidates (');
    expect(gone).not.toMatch(/: target \{/);
    expect(textOf(await call('read', { target: { css: '#deleted' } }))).toContain('"Deleted:"');

    await call('navigate', { url: page('agent-rows.html?renamed=A') });
    const repaired = await call('click', { target: deleteOfFirstRow, timeoutMs: 3000 });
    expect(repaired.isError, textOf(repaired)).toBeFalsy();
    expect(textOf(repaired)).toMatch(/^Done: click xpath .*\nFound by repair \(score [\d.]+, next best [\d.]+\): .*Remove/s);
    expect(textOf(await call('read', { target: { css: '#deleted' } }))).toContain('"Deleted: A"');
    await call('navigate', { url: page('agent.html') });
  });

  it('[MCP-IMAGE] screenshot answers a PNG image block', async () => {
    const answer = await call('screenshot');
    expect(answer.isError, textOf(answer)).toBeFalsy();
    const image = answer.content.find((c) => c.type === 'image')!;
    expect(image.mimeType).toBe('image/png');
    const png = Buffer.from(image.data!, 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBeGreaterThan(100); // width
    expect(textOf(answer)).toMatch(/^Screenshot of tab \d+ \(\d+ bytes of PNG\)\./);
    // One element's picture is the element's size, smaller than the tab's.
    const one = await call('screenshot', { target: { role: 'button', name: 'Subscribe' } });
    const onePng = Buffer.from(one.content.find((c) => c.type === 'image')!.data!, 'base64');
    expect(onePng.readUInt32BE(16)).toBeLessThan(png.readUInt32BE(16));
  });

  it('[MCP-RESULT] [MCP-BACK] tabs lists the run\'s tab; a verify across the navigation a click started passes, its re-sends said', async () => {
    const tabs = textOf(await call('tabs'));
    expect(tabs).toMatch(/^\d+ tabs?; \* is the run's tab\. \(no re-sends\)\n/);
    expect(tabs).toMatch(/\n\* \d+ "Newsletter" http:\/\/127\.0\.0\.1:\d+\/agent\.html/);
    expect((await call('click', { target: { role: 'link', name: 'Counter' } })).isError).toBeFalsy();
    const verified = await call('verify', { kind: 'url', value: 'counter.html' });
    expect(textOf(verified)).toMatch(/^Done: verify url contains "counter\.html"\. \((no re-sends|re-sent \d+ times?; an action is never sent twice)\)$/);
    expect(textOf(await call('verify', { kind: 'title', value: 'Counter' }))).toBe('Done: verify title contains "Counter". (no re-sends)');
    // And back again to where the click came from.
    expect(textOf(await call('back'))).toMatch(/^Went back to .*agent\.html/);
    expect(textOf(await call('verify', { kind: 'title', value: 'Newsletter' }))).toBe('Done: verify title contains "Newsletter". (no re-sends)');
  });

  it('[MCP-CLOSE] a Chrome that exited is cleaned up, and the next call starts a new one and says so', async () => {
    const before = chromeOf(transport.pid!);
    const root = before.pids.find((pid) => !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type='))!;
    process.kill(root, 'SIGKILL');
    // Gone from /proc: the server's Node has reaped it, so it knows Chrome exited.
    await expect.poll(() => existsSync(`/proc/${root}`)).toBe(false);
    const answer = await call('navigate', { url: page('agent.html') });
    expect(answer.isError, textOf(answer)).toBeFalsy();
    expect(textOf(answer)).toMatch(/^Chrome had exited since the last call \(closed or crashed\); this call starts a new one.*\nOpened http:\/\/127\.0\.0\.1:\d+\/agent\.html \("Newsletter"\) in tab \d+\./s);
    expect(existsSync(before.profile!), existsSync(before.profile!) ? execSync(`find ${before.profile} | head -20`).toString() : '').toBe(false);
    expect(chromeOf(transport.pid!).profile).not.toBe(before.profile);
  });

  it('[MCP-CLOSE] closing the client ends Chrome and removes the temp profile', async () => {
    const { pids, profile } = chromeOf(transport.pid!);
    expect(pids.length).toBeGreaterThan(0);
    expect(profile && existsSync(profile)).toBe(true);
    const serverPid = transport.pid!;
    await client.close();
    await expect.poll(() => pids.filter(alive), { timeout: 10_000 }).toEqual([]);
    await expect.poll(() => existsSync(profile!), { timeout: 10_000 }).toBe(false);
    await expect.poll(() => alive(serverPid), { timeout: 10_000 }).toBe(false);
  });
});

describe('aite mcp told to stop', () => {
  it('[MCP-CLOSE] SIGTERM closes Chrome and removes the temp profile', async () => {
    const second = await connect(['--allow', server.origin], cwd);
    try {
      expect((await second.client.callTool({ name: 'navigate', arguments: { url: page('counter.html') } })).isError).toBeFalsy();
      const serverPid = second.transport.pid!;
      const { pids, profile } = chromeOf(serverPid);
      expect(pids.length).toBeGreaterThan(0);
      process.kill(serverPid, 'SIGTERM');
      await expect.poll(() => alive(serverPid), { timeout: 10_000 }).toBe(false);
      expect(pids.filter(alive)).toEqual([]);
      expect(existsSync(profile!)).toBe(false);
    } finally {
      await second.client.close();
    }
  });
});

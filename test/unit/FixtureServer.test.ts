import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/FixtureServer.js';

describe('FixtureServer', () => {
  let server: FixtureServer;

  beforeAll(async () => {
    server = await startFixtureServer();
  });

  afterAll(async () => {
    await server.close();
  });

  it('listens on 127.0.0.1 and names its origin', () => {
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.url).toBe(`${server.origin}/`);
  });

  it('serves a fixture page as uncached HTML', async () => {
    const response = await fetch(`${server.url}buttons.html`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toContain('data-testid="submit"');
  });

  it('serves index.html for /', async () => {
    const response = await fetch(server.url);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('href="buttons.html"');
  });

  it('answers /slow?ms=50 only after the delay', async () => {
    const started = performance.now();
    const response = await fetch(`${server.url}slow?ms=50`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('slow 50 ms');
    // Timers may fire a little early against performance.now(); 45 ms leaves room for that.
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('redirects and answers any status on request', async () => {
    const redirect = await fetch(`${server.url}redirect?to=/pay.html`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('/pay.html');

    const missing = await fetch(`${server.url}status/404`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Status 404');
  });

  it('does not serve files outside the fixture folder', async () => {
    const response = await fetch(`${server.url}..%2F..%2Fpackage.json`);
    expect(response.status).toBe(404);
    expect(await fetch(`${server.url}nope.html`).then((r) => r.status)).toBe(404);
  });

  it('drops a pending slow answer when closed', async () => {
    const other = await startFixtureServer();
    const pending = fetch(`${other.url}slow?ms=10000`).then(
      () => 'answered',
      () => 'dropped',
    );
    // Usually the slow request is waiting on the server by the time this one answers; if it has
    // not arrived yet, closing refuses it instead. Either way it must not be answered or hang.
    await fetch(`${other.url}slow?ms=0`);
    const closing = performance.now();
    await other.close();
    expect(await pending).toBe('dropped');
    expect(performance.now() - closing).toBeLessThan(2000);
  });
});

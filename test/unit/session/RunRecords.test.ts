import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../../src/sdk/protocol/redactUrl.js';
import { isFailedRequest, NETWORK_MAX, PAGE_ERRORS_PER_STEP, RunRecords } from '../../../src/sdk/session/RunRecords.js';

describe('the run\u2019s requests and page errors', () => {
  it('[NET-REDACT] a URL loses its user:password@; other URLs are kept as they are', () => {
    expect(redactUrl('http://ana:hunter2@127.0.0.1:4173/api?x=1')).toBe('http://***@127.0.0.1:4173/api?x=1');
    expect(redactUrl('https://token@shop.example/')).toBe('https://***@shop.example/');
    expect(redactUrl('http://127.0.0.1:4173/a')).toBe('http://127.0.0.1:4173/a');
    expect(redactUrl('not a url')).toBe('not a url');
  });

  it('[NET-FAILED-STEP] keeps at most 1,000 requests, and answers the failed ones since a step began', () => {
    const records = new RunRecords();
    for (let i = 0; i < NETWORK_MAX + 5; i++) records.addRequest({ url: `http://a/${i}`, method: 'GET', status: 200, type: 'fetch' });
    expect(records.network).toHaveLength(NETWORK_MAX);
    expect(records.network[0]!.url).toBe('http://a/5');
    const mark = records.startStep();
    records.addRequest({ url: 'http://a/500', method: 'POST', status: 500, type: 'fetch' });
    records.addRequest({ url: 'http://a/ok', method: 'GET', status: 204, type: 'fetch' });
    records.addRequest({ url: 'http://a/down', method: 'GET', type: 'script', failed: 'net::ERR_CONNECTION_REFUSED' });
    expect(records.failedSince(mark).map((r) => r.url)).toEqual(['http://a/500', 'http://a/down']);
    expect(isFailedRequest({ url: 'x', method: 'GET', status: 404, type: 'image' })).toBe(true);
    expect(isFailedRequest({ url: 'x', method: 'GET', status: 302, type: 'document' })).toBe(false);
  });

  it('[NAV-STATUS] a navigate\'s status is its document\'s, whatever login or fragment either address holds', () => {
    const records = new RunRecords();
    const mark = records.startMark();
    records.addRequest({ url: 'http://***@a/members', method: 'GET', status: 200, type: 'document' });
    expect(records.documentStatus(mark, 'http://aite:secret@a/members')).toBe(200);
    expect(records.documentStatus(mark, 'http://a/members#top')).toBe(200);
    expect(records.documentStatus(mark, 'http://a/other')).toBeUndefined();
  });

  it('[NET-FAVICON] Chrome\u2019s own /favicon.ico fetch answered 404 is no failed request of the page; the page\u2019s own fetch of it, or another icon, is', () => {
    const records = new RunRecords();
    const mark = records.startStep();
    records.addRequest({ url: 'http://a/favicon.ico', method: 'GET', status: 404, type: 'other' });
    records.addRequest({ url: 'http://a/favicon.ico', method: 'GET', status: 404, type: 'fetch' });
    records.addRequest({ url: 'http://a/img/favicon.ico', method: 'GET', status: 404, type: 'other' });
    expect(records.network).toHaveLength(3);
    expect(records.failedSince(mark).map((r) => `${r.type} ${r.url}`)).toEqual(['fetch http://a/favicon.ico', 'other http://a/img/favicon.ico']);
  });

  it('[PERR-CAP] keeps at most 100 page errors per step, with one line saying how many more were left out; the next step starts again', () => {
    const records = new RunRecords();
    records.startStep();
    const kept = Array.from({ length: 150 }, (_, i) => records.addPageError({ kind: 'error', text: `e${i}` })).filter(Boolean);
    expect(kept).toHaveLength(PAGE_ERRORS_PER_STEP + 1);
    // The line counts what was left out: 150 - 100 of them, as they came.
    expect(records.pageErrors.at(-1)!.text).toBe('(more than 100 page errors in this step: 50 more were not kept)');
    const mark = records.startStep();
    records.addPageError({ kind: 'console-error', text: 'next' });
    expect(records.errorsSince(mark)).toEqual([{ kind: 'console-error', text: 'next' }]);
  });
});

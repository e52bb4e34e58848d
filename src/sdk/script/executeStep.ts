import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { AiteError } from '../errors/AiteError.js';
import type { Target } from '../protocol/target.js';
import type { Session } from '../session/Session.js';
import type { StepResult } from '../session/types.js';
import { httpCheck } from './httpCheck.js';
import type { PlannedStep } from './planScript.js';
import type { StepOf } from './schema.js';

/** What running one step produced besides passing. @internal */
export interface StepOutcome {
  /** A composed step's result (retries, repair, warnings). */
  result?: StepResult;
  /** A `screenshot` step's picture. */
  png?: Uint8Array;
}

type TargetInput = string | Target;

/**
 * Maps one script step onto the Session call that does it. Each branch is one call: the
 * Session owns policy (timeouts, retries, outlines); the runner only routes.
 */
export async function executeStep(
  planned: PlannedStep,
  session: (() => Session) | undefined,
  options: { baseUrl?: string; defaultTimeoutMs: number; fetch?: typeof fetch; scriptDir?: string; cwd?: string },
): Promise<StepOutcome> {
  const step = planned.run;
  const timeoutMs = step.timeoutMs;
  const opts = { timeoutMs };
  if ('http' in step) {
    await httpCheck({ ...step.http, url: planned.url ?? step.http.url }, { timeoutMs: timeoutMs ?? options.defaultTimeoutMs, fetch: options.fetch });
    return {};
  }
  const s = session!();
  if ('navigate' in step) {
    await s.tab.navigate(planned.url ?? step.navigate, opts);
    return {};
  }
  if ('click' in step) {
    const { button, modifiers, clickCount, position, delay } = step;
    return { result: await s.click(step.click, { ...opts, button, modifiers, clickCount, position, delay }) };
  }
  if ('doubleClick' in step) {
    const { button, modifiers, position } = step;
    return { result: await s.doubleClick(step.doubleClick, { ...opts, button, modifiers, position }) };
  }
  if ('hover' in step) return { result: await s.hover(step.hover, { ...opts, modifiers: step.modifiers, position: step.position }) };
  if ('type' in step) return { result: await s.type(step.type, step.text, opts) };
  if ('fill' in step) return { result: await s.fill(step.fill, step.text, opts) };
  if ('press' in step) return { result: await s.press(step.press, step.target, opts) };
  if ('select' in step) return { result: await s.select(step.select, step.option, opts) };
  if ('check' in step) return { result: await s.check(step.check, opts) };
  if ('uncheck' in step) return { result: await s.uncheck(step.uncheck, opts) };
  if ('drag' in step) return { result: await s.drag(step.drag, step.to, { ...opts, sourcePosition: step.sourcePosition, targetPosition: step.targetPosition }) };
  if ('verify' in step) {
    await verify(s, step.verify, timeoutMs);
    return {};
  }
  if ('wait' in step) {
    const w = step.wait;
    if (w.kind === 'networkIdle') return { result: await s.waitForNetworkIdle({ idleMs: w.idleMs, timeoutMs }) };
    if (w.kind === 'url') await s.locator.wait('url', { contains: w.contains, timeoutMs });
    else await s.locator.wait(w.kind, { target: w.target, timeoutMs });
    return {};
  }
  if ('switchTab' in step) {
    await s.tab.switchTo(step.switchTab, opts);
    return {};
  }
  if ('closeTab' in step) {
    await s.tab.close();
    return {};
  }
  if ('screenshot' in step) {
    const shot = typeof step.screenshot === 'object' ? step.screenshot : {};
    return { png: await s.screenshot({ ...(shot.target !== undefined ? { target: shot.target } : {}), ...(shot.fullPage ? { fullPage: true } : {}), timeoutMs }) };
  }
  if ('scroll' in step) {
    const { target, ...rest } = step.scroll;
    return { result: await s.scroll(target, { ...rest, timeoutMs }) };
  }
  if ('evaluate' in step) {
    const value = await s.evaluate(step.evaluate, undefined, opts);
    if ('equals' in step && !isDeepStrictEqual(value, step.equals)) {
      throw new AiteError('mismatch', `evaluate ${JSON.stringify(step.evaluate)} gave ${JSON.stringify(value)}, not the expected ${JSON.stringify(step.equals)}.`, {
        command: 'evaluate',
        detail: { expected: step.equals, found: value },
      });
    }
    return {};
  }
  if ('back' in step || 'forward' in step || 'reload' in step) {
    await ('back' in step ? s.tab.back(opts) : 'forward' in step ? s.tab.forward(opts) : s.tab.reload(opts));
    return {};
  }
  if ('dialog' in step) {
    s.dialogs.next(step.dialog);
    return {};
  }
  if ('upload' in step) {
    const files = (typeof step.files === 'string' ? [step.files] : step.files).map((f) => resolve(options.scriptDir ?? '.', f));
    return { result: await s.upload(step.upload, files, opts) };
  }
  if ('download' in step) {
    const { path: _path, suggestedFilename: _name, bytes: _bytes, url: _url, ...result } = await s.download(step.download, { ...opts, ...(step.saveAs ? { saveAs: resolve(options.cwd ?? '.', step.saveAs) } : {}) });
    return { result };
  }
  const never: never = step;
  throw new Error(`unhandled step ${JSON.stringify(never)}`);
}

async function verify(s: Session, v: StepOf<'verify'>['verify'], timeoutMs: number | undefined): Promise<void> {
  const negate = v.negate;
  switch (v.kind) {
    case 'exists':
      await s.verify.exists(v.target as TargetInput, { within: v.within, negate, timeoutMs });
      return;
    case 'text':
      await s.verify.text(v.value, { within: v.within, negate, timeoutMs });
      return;
    case 'targetText':
      await s.verify.targetText(v.target as TargetInput, v.value, { within: v.within, negate, timeoutMs, ...(v.exact ? { exact: true } : {}) });
      return;
    case 'value':
      await s.verify.value(v.target as TargetInput, v.value, { negate, timeoutMs });
      return;
    case 'state':
      await s.verify.state(v.target as TargetInput, v.state, { negate, timeoutMs });
      return;
    case 'count':
      await s.verify.count(v.target as TargetInput, v.value, { within: v.within, negate, timeoutMs });
      return;
    case 'url':
      await s.verify.url(v.value, { negate, timeoutMs });
      return;
    case 'title':
      await s.verify.title(v.value, { negate, timeoutMs });
      return;
    case 'numberChange':
      await s.verify.numberChange(v.target as TargetInput, { from: v.from, by: v.by }, { negate, timeoutMs });
      return;
  }
}

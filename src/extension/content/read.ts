import { type AnswerOf, DEFAULT_TIMEOUT_MS, type RequestOf } from '../../sdk/protocol/index.js';
import { readableText } from './dom/value.js';
import { resolveOne } from './Resolver.js';

/** `read`: the text of the one element the target names (a control's value for inputs); a hidden one when none is visible. */
export async function read(req: RequestOf<'read'>): Promise<AnswerOf<'read'>> {
  const { element } = await resolveOne(req.target, req.timeoutMs ?? DEFAULT_TIMEOUT_MS, undefined, { hidden: true });
  return { id: req.id, ok: true, text: readableText(element) };
}

import type { AnswerOf, RequestOf } from '../../sdk/protocol/index.js';
import { readableText } from './dom/value.js';
import { DEFAULT_TIMEOUT_MS, resolveOne } from './Resolver.js';

/** `read`: the text of the one element the target names (a control's value for inputs). */
export async function read(req: RequestOf<'read'>): Promise<AnswerOf<'read'>> {
  const { element } = await resolveOne(req.target, req.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  return { id: req.id, ok: true, text: readableText(element) };
}

// The extension bundles' `zod`: the protocol's schemas, built with only the parts of zod they use.
// `z` as a namespace object keeps every export of zod alive in a bundle (its 40 locales, JSON
// Schema conversion: 454 KB of the worker's 474 KB); named imports let the bundler drop the rest.
// extensionZodPlugin.ts points the extension bundles' `zod` imports here; types still come from zod.
import { array, boolean, discriminatedUnion, enum as enumOf, literal, looseObject, number, object, record, strictObject, string, union, unknown } from 'zod/v4';

export const z = {
  array,
  boolean,
  discriminatedUnion,
  enum: enumOf,
  literal,
  looseObject,
  number,
  object,
  record,
  strictObject,
  string,
  union,
  unknown,
};

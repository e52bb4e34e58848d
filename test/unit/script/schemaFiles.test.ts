import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configJsonSchema, scriptJsonSchema } from 'aite';

// The shipped schema files are generated from the zod schemas (node schema/generate.mjs after a
// build); this fails when they are stale.
describe('JSON Schema files', () => {
  it('schema/aite-script.schema.json is what the zod schema generates', () => {
    const committed = JSON.parse(readFileSync('schema/aite-script.schema.json', 'utf8')) as unknown;
    expect(committed).toEqual(JSON.parse(JSON.stringify(scriptJsonSchema())));
  });

  it('schema/aite-config.schema.json is what the zod schema generates', () => {
    const committed = JSON.parse(readFileSync('schema/aite-config.schema.json', 'utf8')) as unknown;
    expect(committed).toEqual(JSON.parse(JSON.stringify(configJsonSchema())));
  });

  it('describes each step kind with its own definition, and refuses unknown keys', () => {
    const schema = scriptJsonSchema() as { $defs: Record<string, { additionalProperties?: boolean; required?: string[] }> };
    expect(schema.$defs.typeStep).toMatchObject({ additionalProperties: false, required: ['type', 'text'] });
    expect(schema.$defs.Target).toBeDefined();
  });
});

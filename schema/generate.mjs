// Writes the JSON Schemas of step scripts and aite.config.json from the zod schemas the SDK
// checks them with. Run after a build: `npm run build && node schema/generate.mjs`.
// test/unit/script/schemaFiles.test.ts fails when these files are stale.
import { writeFile } from 'node:fs/promises';
import { configJsonSchema, scriptJsonSchema } from 'aite';

const files = {
  'aite-script.schema.json': scriptJsonSchema(),
  'aite-config.schema.json': configJsonSchema(),
};
for (const [name, schema] of Object.entries(files)) {
  await writeFile(new URL(`./${name}`, import.meta.url), `${JSON.stringify(schema, null, 2)}\n`);
  console.log(`wrote schema/${name}`);
}

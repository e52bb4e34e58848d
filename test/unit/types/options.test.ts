import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { attach, launch, stageExtension, UsageError, type AttachOptions, type ClickOptions, type DoubleClickOptions, type DragOptions, type HoverOptions, type LaunchOptions, type SessionOptions, type StepOptions } from '../../../src/sdk/index.js';
import { AttachOptionsSchema, LaunchOptionsSchema, STEP_OPTIONS } from '../../../src/sdk/session/options.js';

describe('options', () => {
  it('each schema parses to exactly its documented interface, and both share the session options', () => {
    expectTypeOf<z.output<typeof LaunchOptionsSchema>>().toEqualTypeOf<LaunchOptions>();
    expectTypeOf<z.input<typeof LaunchOptionsSchema>>().toEqualTypeOf<LaunchOptions>();
    expectTypeOf<z.output<typeof AttachOptionsSchema>>().toEqualTypeOf<AttachOptions>();
    expectTypeOf<z.input<typeof AttachOptionsSchema>>().toEqualTypeOf<AttachOptions>();
    expectTypeOf<LaunchOptions>().toExtend<SessionOptions>();
    expectTypeOf<AttachOptions>().toExtend<SessionOptions>();
  });

  it('each composed step\'s options schema takes exactly its documented interface', () => {
    expectTypeOf<z.input<typeof STEP_OPTIONS.click>>().toEqualTypeOf<ClickOptions>();
    expectTypeOf<z.input<typeof STEP_OPTIONS.doubleClick>>().toEqualTypeOf<DoubleClickOptions>();
    expectTypeOf<z.input<typeof STEP_OPTIONS.hover>>().toEqualTypeOf<HoverOptions>();
    expectTypeOf<z.input<typeof STEP_OPTIONS.drag>>().toEqualTypeOf<DragOptions>();
    expectTypeOf<z.input<typeof STEP_OPTIONS.type>>().toEqualTypeOf<StepOptions>();
  });

  it('launch and attach refuse the same too-long profile, before anything starts, with the one input error', async () => {
    const profile = 'p'.repeat(201);
    for (const start of [() => launch({ allow: ['http://127.0.0.1:4173'], profile }), () => attach({ extensionDir: 'nowhere', allow: ['http://127.0.0.1:4173'], profile })]) {
      const error = await start().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).code).toBe('invalid');
      expect((error as UsageError).message).toMatch(/^(launch|attach)\(\): profile: .*200/);
    }
  });

  it('a wrong value is quoted back, and a call with no options says so', async () => {
    const messages = await Promise.all(
      [{ allow: ['http://127.0.0.1:4173'], timeoutMs: 0 }, { allow: ['http://127.0.0.1:4173'], timeoutMs: 'x' }, undefined].map((options) =>
        launch(options as unknown as LaunchOptions).then(
          () => '',
          (e: unknown) => (e instanceof UsageError ? e.message : String(e)),
        ),
      ),
    );
    expect(messages[0]).toMatch(/^launch\(\): timeoutMs: must be more than 0, got the number 0\./);
    expect(messages[1]).toMatch(/^launch\(\): timeoutMs: expected a number, got the text "x"\./);
    expect(messages[2]).toMatch(/^launch\(\) takes an options object; it was called with none\./);
  });

  it('a misspelt option is a UsageError naming it and the field meant, for launch, attach and stageExtension alike', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'aite-options-'));
    try {
      const errors = await Promise.all([
        launch({ allow: ['http://127.0.0.1:4173'], timeoutMS: 1 } as unknown as LaunchOptions).catch((e: unknown) => e),
        attach({ extensionDir: dir, allow: ['http://127.0.0.1:4173'], porfile: 'x' } as unknown as AttachOptions).catch((e: unknown) => e),
        stageExtension({ allow: ['http://127.0.0.1:4173'], dir, allowed: [] } as never).catch((e: unknown) => e),
      ]);
      for (const error of errors) expect(error).toBeInstanceOf(UsageError);
      expect(String((errors[0] as Error).message)).toMatch(/launch\(\): .*timeoutMS.*timeoutMs/);
      expect(String((errors[1] as Error).message)).toMatch(/attach\(\): .*porfile.*profile/);
      expect(String((errors[2] as Error).message)).toMatch(/stageExtension\(\): .*allowed/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

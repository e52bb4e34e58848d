import { Command } from 'commander';
import { createRequire } from 'node:module';
import { AiteError, findChrome, launch } from 'aite';

const require = createRequire(import.meta.url);
const { version } = require('../../package.json') as { version: string };

const program = new Command()
  .name('aite')
  .description('Run browser test and automation steps in a real Chrome profile.')
  .version(version)
  .showHelpAfterError();

program
  .command('doctor')
  .description('find Chrome, start a bridge, load the extension and round-trip a command')
  .option('--chrome <path>', 'Chrome executable (else AITE_CHROME, then the usual paths)')
  .action(async (opts: { chrome?: string }) => {
    const say = (ok: boolean, text: string): void => console.log(`${ok ? '\u2713' : '\u2717'} ${text}`);
    let chrome: string;
    try {
      chrome = findChrome(opts.chrome);
      say(true, `Chrome: ${chrome}`);
    } catch (error) {
      say(false, (error as Error).message);
      process.exitCode = 1;
      return;
    }
    const started = Date.now();
    try {
      const session = await launch({ allow: ['http://127.0.0.1'], chrome });
      say(true, `extension connected in ${Date.now() - started} ms (run ${session.runId})`);
      const tabs = await session.tab.list();
      say(true, `round trip: ${tabs.length} tab(s) listed`);
      await session.close();
      say(true, 'closed Chrome and the bridge');
    } catch (error) {
      say(false, error instanceof AiteError ? `${error.reason}: ${error.message}` : String(error));
      process.exitCode = 1;
    }
  });

program
  .command('run')
  .description('run step scripts (JSON or YAML)')
  .argument('<script...>', 'step scripts')
  .action(() => {
    console.error('aite run: step scripts are not implemented in this version yet. Use the SDK (import { launch } from "aite").');
    process.exitCode = 2;
  });

await program.parseAsync();

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { AiteError, UsageError, type LaunchOptions, type Session, type StagedExtension, type StageExtensionOptions } from 'aite';
import { doctorCommand } from './commands/doctor.js';
import { extensionCommand, type ExtensionFlags } from './commands/extension.js';
import { launchCommand } from './commands/launch.js';
import { mcpCommand, type McpFlags } from './commands/mcp.js';
import { mergeReportsCommand } from './commands/mergeReports.js';
import { REPORTERS, runCommand, type RunFlags } from './commands/run.js';
import { colorsFor, processIo, redactingIo, writeLines, type Io } from './Io.js';

export const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
/** The CLI guide as the package ships it (dist/cli/ sits two folders below the package root). */
export const DOCS = fileURLToPath(new URL('../../docs/cli.md', import.meta.url));

/** Exit codes of every command. */
export const ExitCode = { Passed: 0, Failed: 1, Usage: 2, PreState: 3 } as const;

/** What tests replace. */
export interface CliSeams {
  launch?: (options: LaunchOptions) => Promise<Session>;
  stageExtension?: (options: StageExtensionOptions) => Promise<StagedExtension>;
  fetch?: typeof fetch;
  /** Resolves to end `aite launch` (instead of Ctrl+C). */
  until?: Promise<unknown>;
}

/** Runs the CLI with `argv` (without node and the script) and answers the exit code. */
export async function runCli(argv: string[], given: Io = processIo(), seams: CliSeams = {}): Promise<number> {
  const io = redactingIo(given);
  let code: number = ExitCode.Passed;
  const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
  const program = new Command()
    .name('aite')
    .description('Run browser test and automation scripts in a real Chrome profile.')
    .version(VERSION, '-v, --version')
    .showHelpAfterError('(run `aite --help` for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .addHelpText(
      'after',
      `
Exit codes: 0 all passed · 1 a step failed · 2 usage, config or script error · 3 a pre-state check was not met · 130/143/129 stopped by SIGINT/SIGTERM/SIGHUP (the report is still written)

Examples:
  aite run send.aite.json --report out/report      run a script, write report.json and index.html
  aite run scripts/ --shard 2/4 --reporter junit   the second quarter of the scripts under scripts/
  aite doctor                                      check Chrome, the bridge and the extension
  aite extension --out ext --allow http://127.0.0.1:4173   the extension for your own Chrome (attach mode)
  aite mcp --allow http://127.0.0.1:4173           an MCP server on stdio for an AI agent
Docs: ${DOCS}`,
    );

  program
    .command('run')
    .description('run step scripts (JSON or YAML); a folder stands for its *.aite.json/*.aite.yaml files')
    .argument('<script...>', 'step scripts or folders')
    .option('-c, --config <file>', 'config file (default: aite.config.json here or in a folder above)')
    .option('--report <dir>', 'write report.json, index.html and screenshots here')
    .addOption(new Option('--reporter <names>', `output: ${REPORTERS.join(', ')} (comma-separated or repeated)`).argParser(collect).default([] as string[], 'list'))
    .option('--update-lock', 'write proposed repairs into the lock file')
    .option('--lock-file <file>', 'the lock file (overrides the config)')
    .option('--headed', 'show Chrome (needs a display)')
    .option('--chrome <path>', 'Chrome executable (else config, AITE_CHROME, the usual paths)')
    .option('--allow <origin>', 'an origin the extension may touch (repeatable)', collect)
    .option('--base-url <url>', 'relative URLs in scripts resolve against it')
    .option('--timeout <ms>', 'default timeout of each step', (v) => positiveInt(v, '--timeout'))
    .option('--shard <i/n>', 'run the i-th of n deterministic slices of the scripts (CI machines)')
    .option('--no-web-server', "don't start the config's webServer")
    .addOption(new Option('--dialogs <policy>', 'what a native dialog no `dialog` step armed gets (else the config\'s; default dismiss)').choices(['dismiss', 'accept']))
    .action(async (scripts: string[], flags: RunFlags) => {
      code = await runCommand(scripts, { ...flags, reporter: flags.reporter.length ? flags.reporter : ['list'] }, io, {
        launch: seams.launch,
        fetch: seams.fetch,
        version: VERSION,
        argv,
      });
    });

  program
    .command('launch')
    .description('open a headed Chrome with the aite extension, for exploring (needs a display)')
    .option('-p, --profile <name>', 'profile from aite.config.json', 'default')
    .option('-c, --config <file>', 'config file')
    .option('--chrome <path>', 'Chrome executable')
    .option('--allow <origin>', 'an origin the extension may touch (repeatable)', collect)
    .option('--url <url>', 'open this page (its origin is allowed)')
    .option('--headless', 'no window (to check the setup where there is no display)')
    .action(async (flags: Parameters<typeof launchCommand>[0]) => {
      code = await launchCommand(flags, io, { launch: seams.launch, until: seams.until });
    });

  program
    .command('doctor')
    .description('find Chrome, start a bridge, load the extension, round-trip a command, and say what to fix')
    .option('--chrome <path>', 'Chrome executable (else config, AITE_CHROME, the usual paths)')
    .option('-c, --config <file>', 'config file')
    .action(async (flags: { chrome?: string; config?: string }) => {
      code = await doctorCommand(flags, io, { launch: seams.launch });
    });

  program
    .command('extension')
    .description('write the aite extension into a folder, to load in your own Chrome for attach mode')
    .option('-o, --out <dir>', 'the folder to write (new, empty, or an aite extension folder to update; default ~/.aite/extension, where `aite mcp --attach` looks)')
    .option('--allow <origin>', 'an origin the extension may touch (repeatable; added to the config\'s allow list)', collect)
    .option('-p, --profile <name>', "also allow this config profile's origins")
    .option('-c, --config <file>', 'config file')
    .action(async (flags: ExtensionFlags) => {
      code = await extensionCommand(flags, io, { stageExtension: seams.stageExtension });
    });

  program
    .command('mcp')
    .description('serve a browser to an AI agent: a Model Context Protocol server on stdio (docs/agents.md)')
    .option('--allow <origin>', 'an origin the agent may open (repeatable; added to the config\'s)', collect)
    .option('-c, --config <file>', 'config file (default: aite.config.json here or in a folder above)')
    .option('-p, --profile <name>', 'profile from aite.config.json', 'default')
    .option('--headed', 'show Chrome (needs a display)')
    .option('--attach [extensionDir]', 'drive your own Chrome: the folder of the aite extension loaded in it (from `aite extension`; default ~/.aite/extension)')
    .option('--lock <file>', 'the lock file: elements the agent names are remembered and repaired')
    .option('--update-lock', 'write proposed repairs into the lock file')
    .option('--allow-evaluate', 'offer the evaluate tool (script in the page); off by default')
    .option('--chrome <path>', 'Chrome executable (else config, AITE_CHROME, the usual paths)')
    .option('--timeout <ms>', 'default timeout of each step', (v) => positiveInt(v, '--timeout'))
    .action(async (flags: McpFlags) => {
      code = await mcpCommand(flags, io, VERSION);
    });

  program
    .command('merge-reports')
    .description('join the reports of several shards into one')
    .argument('<dirs...>', 'report folders (each with report.json)')
    .option('--report <dir>', 'where to write the merged report', 'aite-report')
    .addOption(new Option('--reporter <names>', 'junit adds junit.xml').argParser(collect).default([] as string[]))
    .action(async (dirs: string[], flags: { report: string; reporter: string[] }) => {
      code = await mergeReportsCommand(dirs, flags, io);
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (error) {
    return handleError(error, io);
  }
}

function handleError(error: unknown, io: Io): number {
  const c = colorsFor(io.stderr, io.env);
  if (error instanceof CommanderError) {
    // Help and version are not errors; commander has already written its message.
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return 0;
    return ExitCode.Usage;
  }
  if (error instanceof UsageError) {
    const paragraphs = error.message.split('\n\n');
    writeLines(io.stderr, ...paragraphs.map((p, i) => `${i > 0 ? '\n' : ''}${c.red('error')} ${p}`));
    return ExitCode.Usage;
  }
  if (error instanceof AiteError) {
    writeLines(io.stderr, `${c.red('error')} ${error.message} ${c.dim(`[${error.reason}]`)}`);
    return ExitCode.Failed;
  }
  writeLines(io.stderr, `${c.red('internal error')} ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`, 'This is a bug in aite; please report it with the command you ran.');
  return ExitCode.Failed;
}

function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError(`${flag} takes a whole number of milliseconds.`);
  return n;
}

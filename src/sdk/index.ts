// The public API of aite. Everything a user may import is named here; nothing else is public.
export { launch } from './session/launch.js';
export { attach } from './session/attach.js';
export type { AttachOptions, BrowserPermission, LaunchOptions, SessionOptions } from './session/options.js';
export { Session, SessionEvent, type SessionEvents } from './session/Session.js';
export type { ResetOptions } from './session/reset.js';
// Internal, for the types of constructors users never call; underscored as api-extractor asks.
export type { SessionParts as _SessionParts } from './session/Session.js';
export type { Send as _Send, ResultSend as _ResultSend } from './session/Channel.js';
export { Tab } from './session/Tab.js';
export { Locator } from './session/Locator.js';
export { Verify, type VerifyOptions, type VerifyState, type Within } from './session/Verify.js';
export { Dialogs, type DialogAnswer, type DialogPolicy, type DialogRecord, type DialogType } from './session/pipe/Dialogs.js';
export type { Modifier } from './session/pipe/keys.js';
export type { Download, DownloadRecord } from './session/pipe/Downloads.js';
export type { ClickOptions, DoubleClickOptions, DragOptions, HoverOptions, NetworkEntry, PageError, RetryCounts, ScrollResult, StepOptions, StepRecord, StepResult, TargetInput, Warning } from './session/types.js';
export { Bridge, type BridgeOptions } from './bridge/Bridge.js';
export type { RequestOptions } from './bridge/BridgeProtocol.js';
export { BridgeEvent, type BridgeEvents, type Rejection, type RetryInfo } from './bridge/BridgeEvents.js';
export type { EventMap, TypedEmitter } from './events/TypedEmitter.js';
export { AiteError, type AiteErrorJson } from './errors/AiteError.js';
export { LockFile, type LockProposal } from './lock/LockFile.js';
export { findChrome } from './launch/findChrome.js';
export { onInterrupt, type InterruptHandler } from './launch/ProcessCleanup.js';
// What the bench needs of launch, from the package rather than a copy (issue 19).
export { CHROME_ARGS as _CHROME_ARGS } from './launch/launchChrome.js';
export { LAUNCH_PHASES_CHANNEL as _LAUNCH_PHASES_CHANNEL } from './session/launch.js';
export { AITE_EXTENSION_ID } from './identity/ExtensionIdentity.js';
export { stageExtension, type StageExtensionOptions, type StagedExtension } from './launch/stageExtension.js';
export { CloseCode, REASONS, type Reason } from './protocol/reasons.js';
export type { Target, TextPattern } from './protocol/target.js';
export type { Descriptor, Rect } from './protocol/descriptor.js';
export type {
  SelectOption,
  AnswerOf,
  ResultOf,
  Command,
  ExtensionEvent,
  Hello,
  OutlineItem,
  Repair,
  RequestInput,
  RequestOf,
  TabInfo,
  TabMatch,
} from './protocol/messages.js';

// script, config, report
export { loadScript, parseScript, type LoadedScript } from './script/parseScript.js';
export type { Position } from './errors/SourceText.js';
export type { RunListener } from './script/runScript.js';
export { runSuite, type RunSuiteOptions, type SuiteRun } from './script/runSuite.js';
export {
  scriptJsonSchema,
  STEP_ACTIONS,
  type Script,
  type ScriptStep,
  type StepAction,
  type StepOf,
} from './script/schema.js';
export type { Shard } from './script/shard.js';
export { UsageError, type UsageErrorCode, type UsageIssue } from './errors/UsageError.js';
// Internal, for tools built on the script format (aite mcp): one step, a step kind's schema, and the words for them.
export { runStep as _runStep, stepSchema as _stepSchema, type StepOutcome as _StepOutcome } from './script/runStep.js';
export { describeStep as _describeStep, describeTarget as _describeTarget } from './script/describeStep.js';
export { isFailedRequest as _isFailedRequest } from './session/RunRecords.js';
// Internal, for aite mcp: the allow list checked before it serves as launch checks it, and the defaults its tools state.
export { allowPatterns as _allowPatterns } from './launch/ExtensionStage.js';
export { DEFAULT_TIMEOUT_MS as _DEFAULT_TIMEOUT_MS, NAVIGATE_TIMEOUT_MS as _NAVIGATE_TIMEOUT_MS } from './protocol/timeouts.js';
export { CONFIG_FILE_NAME, findConfigFile, loadConfig, resolveConfig, type ConfigOverrides } from './config/loadConfig.js';
export { configJsonSchema, type AiteConfig, type AiteConfigFile, type ProfileConfig } from './config/schema.js';
export {
  exitCodeOf,
  type Attachment,
  type RunReport,
  type ScriptReport,
  type ScriptStatus,
  type StepRepair,
  type StepReport,
} from './report/model.js';
export { writeReport, type WrittenReport } from './report/writeReport.js';
export { describeDialog, type DialogFacts } from './report/dialogLine.js';
export { mergeReports } from './report/mergeReports.js';
export { redactSecrets, reportSafe } from './report/redact.js';

// embedding: the runner-agnostic core of aite/vitest, aite/jest, aite/mocha and aite/node-test
export {
  SessionFixture,
  type SessionFixtureOptions,
  type SessionFixtureOptionsInput,
  type TestFailure,
} from './testing/SessionFixture.js';
export { annotateError } from './testing/annotateError.js';
export type { TestDeadline } from './session/TestDeadline.js';

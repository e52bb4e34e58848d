// The wire protocol between bridge and extension (spec: protocol-v1). This folder imports
// neither Node nor `chrome`: the extension bundles it as it is.
export * from './target.js';
export * from './descriptor.js';
export * from './reasons.js';
export * from './messages.js';
export * from './timeouts.js';
export * from './commands.js';
export * from './bridgeConfig.js';
export * from './CommandFailure.js';
export * from './pageErrorChannel.js';
export * from './allowList.js';
export * from './fileInput.js';
export * from './pageWatch.js';
export * from './navigationEvents.js';
export * from './redactUrl.js';
export * from './contentWorld.js';
export * from './permissions.js';
export * from './crashedPage.js';

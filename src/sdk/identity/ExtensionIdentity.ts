import { createHash } from 'node:crypto';

/**
 * The public key in the aite extension's manifest. Chrome derives an unpacked extension's id
 * from this key, so every per-run copy of the extension has the same id, and the bridge can
 * pin the socket's Origin to it. Only the public half exists; nothing is ever signed with it.
 */
export const EXTENSION_PUBLIC_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA4pnzUHx3U+THcpgaDJU+BTo72J0v9G3vgP6QER8ZHxcuQzVbGKpUFibyPoVphV4nVy5ktYRMPXhsLoFXco+wETCGWA3CR4RKj/NPiVD+X0YEKbZhqaKVytyKUYoGMVHP7OCI0wfAHjmRJYGtPSgnRSMNzainVRKR7DJJQELR9mQpwpKbyGv7qjFfSSoZg3mOJrRLV/BlWH2O9VUuSrAIvTesN8glu768jwTe1HoW8ZhaQ04FFD1dN2X6ZFY+tD59E98jxeB1m3gYirTHyXy+N/FoazoCBvonVQiHWmtHjphDmsllNRV6FDUTZOxuniSIe7jPtGuQsFMoUg6J77R8iwIDAQAB';

/** Chrome's id for a key: the first 32 hex digits of sha256(DER key), 0-f mapped to a-p. */
export function extensionIdFromKey(base64Key: string): string {
  const hex = createHash('sha256').update(Buffer.from(base64Key, 'base64')).digest('hex').slice(0, 32);
  return [...hex].map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 16))).join('');
}

/**
 * The aite extension's id, the same in every profile.
 *
 * @example
 * ```ts
 * import { AITE_EXTENSION_ID } from 'aite';
 *
 * // Where to look at the installed extension in your own Chrome:
 * console.log(`chrome://extensions/?id=${AITE_EXTENSION_ID}`);
 * ```
 * @public
 */
export const AITE_EXTENSION_ID = extensionIdFromKey(EXTENSION_PUBLIC_KEY);

/** The extension's name in its manifest; Chrome names the extension's isolated worlds in pages after it. */
export const AITE_EXTENSION_NAME = 'aite';

/** The Origin header the extension's socket carries. */
export const AITE_EXTENSION_ORIGIN = `chrome-extension://${AITE_EXTENSION_ID}`;

// chatrail/client: the browser side of chatrail/server. Browser-safe: no `node:` imports (checked
// by test/server/runtime-imports.test.ts).
export { httpAdapter } from './http-adapter.js'
export type { HttpAdapter, HttpAdapterOptions } from './http-adapter.js'
export { HttpAdapterError } from './http-adapter-error.js'
export { chatRequestBody } from './request-body.js'
export { restoredFailure, restoredMessages } from './restored-messages.js'
export type { RestoredUiMessage } from './restored-messages.js'
export { versionPlaceOf } from './version-places.js'
export type { VersionPlace } from './version-places.js'
export type { VersionPosition, VersionPositions } from '../protocol/version-positions.js'
export type { ChatrailPartData, UiPart } from '../protocol/ui-parts.js'

/**
 * Where the versions of a conversation's places stand (issue #31 item 9), as chatrail/server tells
 * its own client: positions only, never the older versions' content (those stay in the store).
 */

/** Where a message stands among the versions of its place: `index` of `count`, 0-based. */
export interface VersionPosition {
  readonly index: number
  readonly count: number
}

/**
 * The places of a history that have versions, keyed by the user message they belong to (ids the
 * client shares with the server, unlike a streamed reply's): `question` for the user message itself
 * (its edits), `answer` for the first reply after it (its regenerates).
 */
export type VersionPositions = Readonly<Record<string, { readonly question?: VersionPosition; readonly answer?: VersionPosition }>>

/**
 * The tool name agent transitions reserve. A file of its own so that the public entry and lint can
 * name it without pulling agent-transitions.ts, which a session loads only for a definition that
 * turns agent transitions on (a module the entry reaches statically is in every app's initial load).
 */
export const TRANSITION_TOOL = 'chatrail_transition'

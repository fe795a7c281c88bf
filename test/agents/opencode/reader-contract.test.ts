import { createEventLogTail, readEventLog } from '../../../src/agents/opencode/event-log.js'
import { describeReaderContract } from '../../../src/testing/vitest.js'
import { eventLines } from './fixture-files.js'

// OpenCode's run state lives in its server, so the file the contract reads is a recorded event
// stream (one GET /event object per line): the same fold the live watcher runs. The recording is
// a real turn with non-ASCII text (café ✓), so R5 also splits inside multi-byte characters.
describeReaderContract('opencode (recorded event stream)', {
  readChat: (args) => readEventLog({ transcriptPath: args.transcriptPath }),
  openTail: (path) => createEventLogTail(path),
  sampleLines: eventLines('turn-completes'),
})

import { useId, useState, type ReactNode } from 'react'
import type { DevtoolsClient } from './devtools-client.js'

/**
 * Export as a test: the conversation as a `.conv.yaml` file of the testing kit, downloaded. It is
 * fetched (the request carries the token, a plain link could not) and handed to the browser as a
 * file; "Redact user texts" asks the API for placeholders instead of what the user typed.
 */

export function ExportButton({ client, conversationId }: { client: DevtoolsClient; conversationId: string }): ReactNode {
  const id = useId()
  const [redact, setRedact] = useState(false)
  const [status, setStatus] = useState<{ busy: boolean; message?: string }>({ busy: false })
  const download = (): void => {
    setStatus({ busy: true })
    client.exportConversation(conversationId, { redact }).then(
      (file) => {
        const url = URL.createObjectURL(new Blob([file.yaml], { type: 'text/yaml' }))
        const link = document.createElement('a')
        link.href = url
        link.download = file.fileName
        document.body.append(link)
        link.click()
        link.remove()
        setTimeout(() => URL.revokeObjectURL(url), 60_000)
        setStatus({ busy: false, message: `Downloaded ${file.fileName}.` })
      },
      (error: unknown) => setStatus({ busy: false, message: error instanceof Error ? error.message : String(error) }),
    )
  }
  return (
    <div data-devtools-export="">
      <button type="button" onClick={download} disabled={status.busy}>Export as test (.conv.yaml)</button>
      <label htmlFor={`${id}-redact`} data-devtools-inline=""><input id={`${id}-redact`} type="checkbox" checked={redact} onChange={(event) => setRedact(event.target.checked)} /> Redact user texts</label>
      <span role="status">{status.message ?? ''}</span>
    </div>
  )
}

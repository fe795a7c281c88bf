/** An agent reply with a heading, emphasis, a table with one long cell and a fenced block: Ink's markdown tests (in process and on a pty) show it. */
export const MARKDOWN_REPLY = [
  '## Reship options',
  '',
  'Order **#12345** can be reshipped:',
  '',
  '| Option | Days | Cost |',
  '| --- | --- | --- |',
  '| Standard ground shipping with tracking | 5 | free |',
  '| Express | 1 | 9.90 |',
  '',
  '```ts',
  'reship(12345)',
  '```',
].join('\n')

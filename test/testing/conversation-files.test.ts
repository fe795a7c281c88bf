import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findConversationFiles, globToRegExp } from '../../src/testing/conversations/file-search.js'

let root = ''

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'chatrail-glob-'))
  for (const file of ['a.conv.yaml', 'b.conv.yml', 'notes.yaml', 'bot/c.conv.yaml', 'bot/deep/d.conv.yaml', 'node_modules/x/e.conv.yaml', '.hidden/f.conv.yaml']) {
    mkdirSync(join(root, file, '..'), { recursive: true })
    writeFileSync(join(root, file), 'x')
  }
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('findConversationFiles', () => {
  it('expands a directory to every conversation file below it, skipping node_modules and dot-directories', () => {
    expect(findConversationFiles('.', root)).toEqual(['a.conv.yaml', 'b.conv.yml', 'bot/c.conv.yaml', 'bot/deep/d.conv.yaml'].map((file) => join(root, file)))
  })

  it('matches *, ** and {a,b} globs and keeps explicit files as given', () => {
    expect(findConversationFiles('*.conv.yaml', root)).toEqual([join(root, 'a.conv.yaml')])
    expect(findConversationFiles('bot/**/*.conv.yaml', root)).toEqual([join(root, 'bot/c.conv.yaml'), join(root, 'bot/deep/d.conv.yaml')])
    expect(findConversationFiles(['*.conv.{yaml,yml}', 'notes.yaml'], root)).toEqual([join(root, 'a.conv.yaml'), join(root, 'b.conv.yml'), join(root, 'notes.yaml')])
  })

  it('throws a ChatrailError naming a pattern that matches nothing', () => {
    expect(() => findConversationFiles('nowhere/*.conv.yaml', root)).toThrow(/no conversation files match "nowhere\/\*\.conv\.yaml"/)
  })

  it('translates globs segment-aware', () => {
    expect(globToRegExp('**/*.conv.yaml').test('x.conv.yaml')).toBe(true)
    expect(globToRegExp('*.conv.yaml').test('a/x.conv.yaml')).toBe(false)
    expect(globToRegExp('a?c.txt').test('abc.txt')).toBe(true)
    expect(globToRegExp('a.c').test('abc')).toBe(false)
  })
})

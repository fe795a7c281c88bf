import { describe, expect, it } from 'vitest'
import { audioPart, filePart, filterParts, imagePart, normalizeContent, partsToText, textPart, videoPart } from '../../src/index.js'

describe('content part helpers', () => {
  it('construct parts with their options', () => {
    expect(textPart('hi')).toEqual({ type: 'text', text: 'hi' })
    expect(imagePart('a.png', { detail: 'high', mimeType: 'image/png' })).toEqual({ type: 'image', source: 'a.png', detail: 'high', mimeType: 'image/png' })
    expect(audioPart('a.mp3', { durationSec: 3 })).toEqual({ type: 'audio', source: 'a.mp3', durationSec: 3 })
    expect(videoPart('v.mp4')).toEqual({ type: 'video', source: 'v.mp4' })
    expect(filePart('/tmp/x', { filename: 'x.pdf' })).toEqual({ type: 'file', source: '/tmp/x', filename: 'x.pdf' })
  })

  it('projects parts to text: text as-is, media as [kind: source], files by name, newline-joined', () => {
    const parts = [textPart('Look:'), imagePart('cat.png'), filePart('/tmp/123', { filename: 'report.pdf' }), filePart('/tmp/anon')]
    expect(partsToText(parts)).toBe('Look:\n[image: cat.png]\n[file: report.pdf]\n[file: /tmp/anon]')
    expect(partsToText([])).toBe('')
  })

  it('normalizes content and parts into both projections', () => {
    expect(normalizeContent('plain')).toEqual({ text: 'plain', parts: [textPart('plain')] })
    expect(normalizeContent(undefined, [imagePart('a.png')])).toEqual({ text: '[image: a.png]', parts: [imagePart('a.png')] })
    expect(normalizeContent('ignored', [textPart('parts win')]).text).toBe('parts win')
    expect(normalizeContent()).toEqual({ text: '', parts: [] })
  })

  it('filters parts by kind, keeping order', () => {
    const parts = [textPart('a'), imagePart('1.png'), textPart('b'), imagePart('2.png')]
    expect(filterParts(parts, 'image').map((part) => part.source)).toEqual(['1.png', '2.png'])
    expect(filterParts(parts, 'text').map((part) => part.text)).toEqual(['a', 'b'])
    expect(filterParts(parts, 'audio')).toEqual([])
  })
})

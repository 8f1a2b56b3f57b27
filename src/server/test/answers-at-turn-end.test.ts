// The answers of one turn of the event loop go out together at its end; a late answer goes out at once.
import { Agent, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setImmediate as nextTurn } from 'node:timers/promises'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import answersAtTurnEnd, { currentTurn, sendAtTurnEnd } from '../plugins/app/answers-at-turn-end.js'

describe('answers at the turn’s end', () => {
  it('holds the answers ready in their request’s turn and sends them at its end, in order', async () => {
    const turn = currentTurn()
    expect(currentTurn()).toBe(turn)
    const sent: string[] = []
    sendAtTurnEnd(turn, () => sent.push('first'))
    sendAtTurnEnd(turn, () => sent.push('second'))
    await Promise.resolve()
    expect(sent).toEqual([])
    await nextTurn()
    expect(sent).toEqual(['first', 'second'])
    expect(currentTurn()).not.toBe(turn)
  })

  it('ends a turn before what its later requests queue for the check phase (a commit)', async () => {
    const marks: string[] = []
    const turn = currentTurn()
    setImmediate(() => marks.push('commit'))
    sendAtTurnEnd(turn, () => marks.push('read answered'))
    await nextTurn()
    await nextTurn()
    expect(marks).toEqual(['read answered', 'commit'])
  })

  it('answers a read without waiting for the commit of a write that came first in its turn', async () => {
    const app = Fastify()
    await app.register(answersAtTurnEnd)
    const marks: string[] = []
    let read: Promise<unknown> | undefined
    app.post('/w', async () => {
      // A commit, as the SQLite store runs one: in the check phase of the write's turn.
      const committed = new Promise((done) => setImmediate(done))
      // A read that arrives in the same turn, after the write.
      read = app.inject('/r')
      await committed
      marks.push('committed')
      return { ok: true }
    })
    app.get('/r', async () => ({ r: 1 }))
    app.addHook('onResponse', async (request) => {
      marks.push(`sent ${request.url}`)
    })
    await app.ready()
    await app.inject({ method: 'POST', url: '/w' })
    await read
    expect(marks).toEqual(['sent /r', 'committed', 'sent /w'])
    await app.close()
  })

  it('sends at once an answer ready after its request’s turn ended, or without a turn', async () => {
    const turn = currentTurn()
    await nextTurn()
    const sent: string[] = []
    sendAtTurnEnd(turn, () => sent.push('late'))
    sendAtTurnEnd(null, () => sent.push('unstamped'))
    expect(sent).toEqual(['late', 'unstamped'])
  })

  it('writes no answer of a turn before the turn’s end, then every one of them', async () => {
    const app = Fastify()
    await app.register(answersAtTurnEnd)
    const marks: string[] = []
    app.addHook('onResponse', async (request) => {
      marks.push(`sent ${request.url}`)
    })
    app.get('/a', async () => {
      marks.push('handled /a')
      return { a: 1 }
    })
    app.get('/b', async () => {
      marks.push('handled /b')
      return { b: 2 }
    })
    await app.ready()
    // An immediate queued before the requests come runs before their turn's end.
    setImmediate(() => marks.push('check phase'))
    const [a, b] = await Promise.all([app.inject('/a'), app.inject('/b')])
    expect([a.json(), b.json()]).toEqual([{ a: 1 }, { b: 2 }])
    expect(marks).toEqual(['handled /a', 'handled /b', 'check phase', 'sent /a', 'sent /b'])
    await app.close()
  })

  it('answers a write at once: it is answered after its commit, with the rest of the commit', async () => {
    const app = Fastify()
    await app.register(answersAtTurnEnd)
    const marks: string[] = []
    // Marked as the answer is written (the plugin's write ends the response), not at 'finish', which
    // waits for the kernel to take the bytes and so, on a slow machine, for a later turn.
    app.addHook('onRequest', async (_request, reply) => {
      const end = reply.raw.end.bind(reply.raw) as (...args: unknown[]) => unknown
      reply.raw.end = ((...args: unknown[]) => {
        marks.push('sent')
        return end(...args)
      }) as typeof reply.raw.end
    })
    app.post('/w', async () => {
      marks.push('handled')
      return { ok: true }
    })
    await app.ready()
    setImmediate(() => marks.push('check phase'))
    expect((await app.inject({ method: 'POST', url: '/w' })).json()).toEqual({ ok: true })
    // Sent before the turn's end: the immediate queued before the request has not run yet.
    expect(marks).toEqual(['handled', 'sent'])
    await app.close()
  })

  it('sends the answer of a lone request on a kept-open connection at its own turn’s end, before work queued after it', async () => {
    // A client that sends one request at a time: no other request shares its turn, so its answer must
    // leave at that turn's end, before anything its handler queued after the turn had opened (an
    // immediate of its own runs after the turn's end in the same check phase). Not a timer: whether a
    // timer of 0 ms comes first depends on the machine's speed, not on the plugin.
    const app = Fastify()
    await app.register(answersAtTurnEnd)
    const marks: string[] = []
    app.get('/r', async () => {
      setImmediate(() => marks.push('queued after'))
      return { r: 1 }
    })
    // Marked as the answer is written (the plugin's write ends the response), not at 'finish', which
    // waits for the kernel to take the bytes and so, on a slow machine, for a later turn.
    app.addHook('onRequest', async (_request, reply) => {
      const end = reply.raw.end.bind(reply.raw) as (...args: unknown[]) => unknown
      reply.raw.end = ((...args: unknown[]) => {
        marks.push('sent')
        return end(...args)
      }) as typeof reply.raw.end
    })
    await app.listen({ host: '127.0.0.1', port: 0 })
    const { port } = app.server.address() as AddressInfo
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const get = () =>
      new Promise<string>((resolve, reject) => {
        request({ host: '127.0.0.1', port, path: '/r', agent }, (response) => {
          let body = ''
          response.setEncoding('utf8')
          response.on('data', (chunk) => {
            body += chunk
          })
          response.on('end', () => resolve(body))
        })
          .on('error', reject)
          .end()
      })
    for (let i = 0; i < 5; i++) {
      marks.length = 0
      expect(await get()).toBe('{"r":1}')
      // Each answer was written before what its handler queued: it waited for its turn alone.
      expect(marks[0]).toBe('sent')
    }
    agent.destroy()
    await app.close()
  })
})

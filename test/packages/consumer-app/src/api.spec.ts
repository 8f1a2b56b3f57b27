// The app's client against the handlers under jsdom: its '/api' and theirs resolve against jsdom's page
// address, so they meet; handlers on another origin leave the app's requests unanswered.
import { ok, PlantStoreError } from '@plant-store/client'
import { createPlantStoreHandlers } from '@plant-store/msw'
import { expect, it } from 'vitest'
import { api } from './api'
import { plantStore, server } from './mocks/node'

it('reads, pages and creates through the handlers below /api on the page address', async () => {
  expect(location.origin).toBe('http://localhost:5173')
  const basil = ok(await api.GET('/plants/{id}', { params: { path: { id: 1n } } }))
  expect(basil).toEqual({ id: 1n, name: 'Basil', tag: 'herb' })
  const first = await api.page({ limit: 2 })
  expect(first.next).toBeTypeOf('string')
  expect(await api.page({ limit: 2, cursor: first.next })).toEqual({
    plants: [{ id: 3n, name: 'Mint', tag: 'herb' }],
    next: undefined,
  })
  const id = 9007199254740993n
  ok(await api.POST('/plants', { body: { id, name: 'Giant fern' } }))
  expect(ok(await api.GET('/plants/{id}', { params: { path: { id } } })).id).toBe(id)
  const again = api.POST('/plants', { body: { id, name: 'Another fern' } }).then(ok)
  await expect(again).rejects.toBeInstanceOf(PlantStoreError)
})

it('leaves the requests unanswered when the handlers are on an origin other than the page', async () => {
  server.resetHandlers(...createPlantStoreHandlers({ baseUrl: 'http://localhost:3000/api' }).handlers)
  try {
    await expect(api.GET('/plants/{id}', { params: { path: { id: 1n } } })).rejects.toThrow(TypeError)
  } finally {
    server.resetHandlers(...plantStore.handlers)
  }
})

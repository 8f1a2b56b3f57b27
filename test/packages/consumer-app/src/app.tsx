// The plant store app: a plant looked up by its int64 id, every plant a page at a time, and a form that
// adds a plant, showing the store's own message when it refuses one.
import {
  type Error as ErrorBody,
  type NewPlant,
  ok,
  type Plant,
  PlantStoreError,
  type StoredPlant,
} from '@plant-store/client'
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { api } from './api'

const PAGE_SIZE = 2

/** The store's Error body of a refusal, or a message of our own for anything else (a dropped connection). */
function refusal(error: unknown): ErrorBody {
  if (error instanceof PlantStoreError) return error.body
  return { error: 0, message: error instanceof Error ? error.message : String(error) }
}

const label = (plant: Plant) => (plant.tag ? `${plant.name} (${plant.tag})` : plant.name)

function PlantDetails({ id }: { id: bigint }) {
  const plant = useQuery({
    queryKey: ['plant', id],
    queryFn: async () => ok(await api.GET('/plants/{id}', { params: { path: { id } } })),
  })
  if (plant.isPending) return <p>Loading…</p>
  if (plant.isError) return <p data-testid="plant">{refusal(plant.error).message}</p>
  return (
    <p data-testid="plant">
      {plant.data.id.toString()}: {label(plant.data)}
    </p>
  )
}

function PlantList() {
  const list = useInfiniteQuery({
    queryKey: ['plants', { limit: PAGE_SIZE }],
    queryFn: ({ pageParam }) => api.page({ limit: PAGE_SIZE, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next,
  })
  if (list.isPending) return <p>Loading…</p>
  if (list.isError) return <p role="alert">{refusal(list.error).message}</p>
  const plants: StoredPlant[] = list.data.pages.flatMap((page) => page.plants)
  return (
    <>
      <ul data-testid="plants">
        {plants.map((plant) => (
          <li key={plant.id.toString()}>
            {plant.id.toString()}: {label(plant)}
          </li>
        ))}
      </ul>
      <p data-testid="pages">{list.data.pages.length} pages</p>
      {list.hasNextPage && (
        <button type="button" disabled={list.isFetchingNextPage} onClick={() => list.fetchNextPage()}>
          More plants
        </button>
      )}
    </>
  )
}

function AddPlant() {
  const queryClient = useQueryClient()
  const [added, setAdded] = useState<Plant[]>([])
  const create = useMutation({
    mutationFn: async (body: NewPlant) => ok(await api.POST('/plants', { body })),
    onSuccess: (plant, body) => {
      setAdded((shown) => [...shown, plant])
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ['plants'] }),
        queryClient.invalidateQueries({ queryKey: ['plant', body.id] }),
      ])
    },
  })
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const id = String(form.get('id'))
    const tag = String(form.get('tag'))
    if (!/^-?\d+$/.test(id)) return
    create.mutate({ id: BigInt(id), name: String(form.get('name')), ...(tag ? { tag } : {}) })
  }
  return (
    <form onSubmit={submit}>
      <input name="id" aria-label="New plant id" />
      <input name="name" aria-label="New plant name" />
      <input name="tag" aria-label="New plant tag" />
      <button type="submit" disabled={create.isPending}>
        Add plant
      </button>
      {create.isError && <p role="alert">{refusal(create.error).message}</p>}
      <ul data-testid="added">
        {added.map((plant, index) => (
          // A create answers the plant without its id: the order added is its key.
          <li key={index}>{label(plant)}</li>
        ))}
      </ul>
    </form>
  )
}

export function App() {
  const [id, setId] = useState<bigint>()
  function lookUp(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const text = String(new FormData(event.currentTarget).get('id'))
    if (/^-?\d+$/.test(text)) setId(BigInt(text))
  }
  return (
    <main>
      <h1>Plants</h1>
      <form onSubmit={lookUp}>
        <input name="id" aria-label="Plant id" />
        <button type="submit">Look up</button>
      </form>
      {id !== undefined && <PlantDetails id={id} />}
      <PlantList />
      <h2>Add a plant</h2>
      <AddPlant />
    </main>
  )
}

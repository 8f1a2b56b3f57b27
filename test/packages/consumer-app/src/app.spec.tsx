// The app itself under jsdom, against the handlers: it lists the plants a page at a time, looks one up,
// adds plants and shows the store's message when it refuses one, as a user in a browser would see it.
import { QueryClientProvider } from '@tanstack/react-query'
import { createRoot } from 'react-dom/client'
import { afterEach, expect, it } from 'vitest'
import { queryClient } from './api'
import { App } from './app'

const bigId = '9007199254740993' // 2^53 + 1

const container = document.createElement('div')
document.body.append(container)
const root = createRoot(container)
afterEach(() => root.unmount())

const text = (selector: string) => () => container.querySelector(selector)?.textContent ?? ''
const items = (testId: string) => () =>
  [...container.querySelectorAll(`[data-testid="${testId}"] li`)].map((item) => item.textContent)

/** Fills the form whose input has this label and submits it. */
function submit(values: Record<string, string>): void {
  let form: HTMLFormElement | null = null
  for (const [label, value] of Object.entries(values)) {
    const input = container.querySelector<HTMLInputElement>(`input[aria-label="${label}"]`)
    if (!input) throw new Error(`no input labelled ${label}`)
    input.value = value
    form = input.form
  }
  form?.requestSubmit()
}

it('lists, looks up and adds plants, showing a refusal in the store’s words', async () => {
  root.render(
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>,
  )
  await expect.poll(items('plants')).toEqual(['1: Basil (herb)', '2: Fern'])
  container.querySelector('button[type="button"]')?.dispatchEvent(new MouseEvent('click', { bubbles: true }))
  await expect.poll(text('[data-testid="pages"]')).toBe('2 pages')

  submit({ 'Plant id': bigId })
  await expect.poll(text('[data-testid="plant"]')).toBe(`plant ${bigId} not found`)

  submit({ 'New plant id': bigId, 'New plant name': 'Giant fern', 'New plant tag': 'fern' })
  await expect.poll(items('added')).toEqual(['Giant fern (fern)'])
  await expect.poll(text('[data-testid="plant"]')).toBe(`${bigId}: Giant fern (fern)`)

  submit({ 'New plant id': bigId, 'New plant name': 'Another fern', 'New plant tag': '' })
  await expect.poll(text('[role="alert"]')).toBe(`plant ${bigId} already exists`)
})

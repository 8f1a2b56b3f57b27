// The sandbox's --seed: reads a HAR recording once at start and gives each principal it saw the plants
// its store held at the recording's end. A file that cannot be read stops the start with one line.
import { readFile } from 'node:fs/promises'
import { type GivenPlant, type OperationEntry, readRecording } from '@plant-store/core'
import type { FastifyBaseLogger } from 'fastify'
import { sandboxPrincipal } from '../config.js'
import { StoreStartError } from '../repository/migrations.js'

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`

/** Sandbox principal → the plants its store starts with, from the recording at `file`. */
export async function recordedSeeds(
  file: string,
  operations: OperationEntry[],
  log: FastifyBaseLogger,
): Promise<Map<string, GivenPlant[]>> {
  let state: ReturnType<typeof readRecording>
  try {
    state = readRecording(await readFile(file, 'utf8'), operations)
  } catch (error) {
    throw new StoreStartError(`the sandbox cannot seed from ${file}: ${(error as Error).message}`)
  }
  // Said before anything is served: a stand-in never serves what the document forbids.
  for (const { index, method, url, status, reason } of state.skipped)
    log.warn(`seed: exchange ${index + 1} (${method} ${url}, ${status}) is not imported: ${reason}`)
  const seeds = new Map<string, GivenPlant[]>()
  const said: string[] = []
  for (const [token, plants] of state.principals) {
    // A pseudonym such as principal-1 is a token of its own in the sandbox, where any token is one.
    seeds.set(sandboxPrincipal(token), plants)
    said.push(
      `Bearer ${token.length > 24 ? `${token.slice(0, 8)}…` : token} (${count(plants.length, 'plant')})`,
    )
  }
  log.warn(
    `seed: ${file} starts ${count(seeds.size, 'principal')} as the recording left them: ${said.join(', ') || 'none'}; other tokens start with the example plants`,
  )
  return seeds
}

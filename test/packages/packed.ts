// The packages packed once for the whole stage (vitest's globalSetup), into the folder the stage keeps
// its scratch apps in. CI names one folder for its whole run (PLANT_STORE_PACKAGES_DIR): the first Node
// line packs there and installs each scratch app, and the other lines run the same tarballs and apps,
// since neither depends on the Node line (the packages are built JavaScript, and better-sqlite3's binary
// is Node-API, one for every release). Without it, a temporary folder, removed after the stage.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { TestProject } from 'vitest/node'
import { pack } from './scratch.js'

/** The seven workspaces, as `npm pack --workspace` takes them. */
const folders = ['src/core', 'src/msw', 'src/client', 'src/server', 'src/verify', 'src/mock', 'src/broker']

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder the stage keeps its tarballs and scratch apps in. */
    packagesDir: string
    /** Each package's tarball, by its name (`@plant-store/core`). */
    tarballs: Record<string, string>
  }
}

export default async function setup(project: TestProject) {
  const kept = process.env.PLANT_STORE_PACKAGES_DIR
  const dir = kept ? resolve(kept) : await mkdtemp(join(tmpdir(), 'plant-store-packages-'))
  const list = join(dir, 'tarballs', 'packed.json')
  let tarballs: Record<string, string>
  if (existsSync(list)) {
    tarballs = JSON.parse(await readFile(list, 'utf8')) as Record<string, string>
    console.log(`the packages as packed earlier in this run: ${join(dir, 'tarballs')}`)
  } else {
    await mkdir(join(dir, 'tarballs'), { recursive: true })
    tarballs = await pack(join(dir, 'tarballs'), folders)
    await writeFile(list, JSON.stringify(tarballs, null, 2))
  }
  project.provide('packagesDir', dir)
  project.provide('tarballs', tarballs)
  return async () => {
    if (!kept) await rm(dir, { recursive: true, force: true })
  }
}

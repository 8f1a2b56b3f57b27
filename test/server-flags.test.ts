// The server's Node settings are one list (scripts/lib/commands.ts), which the kit's launchers use:
// `npm start`, the command users run, must give the same, or the benchmark measures another server.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { serverCommand, serverNodeFlags, serverScript } from '../scripts/lib/commands.js'

describe("the server's Node settings", () => {
  it('are the ones npm start runs the server with', () => {
    const { scripts } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
    expect(scripts.start).toContain(`node ${serverNodeFlags.join(' ')} src/server/dist/server.js`)
  })

  it("come before the server's script in the kit's own command", () => {
    const { args } = serverCommand(true)
    expect(args.slice(0, serverNodeFlags.length)).toEqual(serverNodeFlags)
    expect(args.at(-1)).toBe(serverScript)
  })
})

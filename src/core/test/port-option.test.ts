// The port option every command of the kit takes (the mock's and the proxy's --port, the verifier's
// --webhook-listen): a whole number from 0 to 65535, or a message that names the option.
import { describe, expect, it } from 'vitest'
import { portOption } from '../lib/port-option.js'

describe('a port option', () => {
  it('is a whole number from 0 (any free port) to 65535, or not given', () => {
    expect(portOption(undefined)).toBeUndefined()
    expect(portOption('0')).toBe(0)
    expect(portOption('4010')).toBe(4010)
    expect(portOption('65535')).toBe(65535)
  })

  it.each(['65536', '-1', '80.5', '', ' 80', '0x50', 'http'])('refuses %j, naming the option', (given) => {
    expect(() => portOption(given, '--webhook-listen')).toThrow(
      `--webhook-listen must be a port number (0-65535), not ${JSON.stringify(given)}`,
    )
  })
})

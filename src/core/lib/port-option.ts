// A command's port option (--port, --webhook-listen): a whole number from 0 (any free port) to 65535,
// said the same way by every command of the kit.

/** The port `value` names, or undefined when the option was not given; throws a message for a person. */
export function portOption(value: string | undefined, option = '--port'): number | undefined {
  if (value === undefined) return undefined
  if (!/^\d+$/.test(value) || Number(value) > 65535)
    throw new Error(`${option} must be a port number (0-65535), not ${JSON.stringify(value)}`)
  return Number(value)
}

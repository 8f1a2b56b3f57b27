// Hosts a plain http:// URL may name: a request in the clear that never leaves this machine.
export const loopback = new Set(['localhost', '127.0.0.1', '[::1]'])

// What a process and everything it started hold, read from Linux's /proc: their pids (with start
// times, so that a reused pid is not taken for a survivor) and the TCP ports they listen on.
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'

export const canReadProcesses = existsSync('/proc/self/stat')

export interface ProcessSeen {
  pid: number
  /** Clock ticks after boot at which it started: with the pid, it names one process. */
  started: string
  command: string
}

function stat(pid: number): { ppid: number; started: string } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // After "pid (command) ": state, ppid, …; the start time is field 22.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
    return { ppid: Number(fields[1]), started: fields[19] ?? '' }
  } catch {
    return undefined
  }
}

function command(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim().slice(0, 200)
  } catch {
    return ''
  }
}

/** The process and all its descendants, as they are now. */
export function processTree(root: number): ProcessSeen[] {
  const children = new Map<number, number[]>()
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    if (!Number.isInteger(pid)) continue
    const ppid = stat(pid)?.ppid
    if (ppid !== undefined) children.set(ppid, [...(children.get(ppid) ?? []), pid])
  }
  const seen: ProcessSeen[] = []
  const queue = [root]
  while (queue.length > 0 && seen.length < 10_000) {
    const pid = queue.shift() as number
    const s = stat(pid)
    if (s) seen.push({ pid, started: s.started, command: command(pid) })
    queue.push(...(children.get(pid) ?? []))
  }
  return seen
}

/** Those of the processes still running (a zombie counts: it is not gone until reaped). */
export function stillRunning(processes: ProcessSeen[]): ProcessSeen[] {
  return processes.filter((p) => stat(p.pid)?.started === p.started)
}

/** The TCP ports the processes listen on. */
export function listeningPorts(processes: ProcessSeen[]): number[] {
  const inodes = new Set<string>()
  for (const { pid } of processes) {
    let fds: string[] = []
    try {
      fds = readdirSync(`/proc/${pid}/fd`)
    } catch {
      continue
    }
    for (const fd of fds) {
      try {
        const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1]
        if (socket) inodes.add(socket)
      } catch {
        // Closed meanwhile.
      }
    }
  }
  return listening()
    .filter((l) => inodes.has(l.inode))
    .map((l) => l.port)
}

/** Every listening TCP socket of this machine's network namespace, by port and inode. */
export function listening(): { port: number; inode: string }[] {
  const sockets: { port: number; inode: string }[] = []
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(file)) continue
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      // local_address is HEX_IP:HEX_PORT; state 0A is LISTEN; the inode is field 10.
      const [local, , state] = [fields[1], fields[2], fields[3]]
      const inode = fields[9]
      if (!local || state !== '0A' || !inode) continue
      sockets.push({ port: Number.parseInt(local.split(':')[1] ?? '', 16), inode })
    }
  }
  return sockets
}

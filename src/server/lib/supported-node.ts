// Stops a start on a Node release the kit does not support, with one line saying so, before anything
// loads the SQLite driver: on Node 20 that driver crashes the process with no message at all.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `The plant store needs Node.js 22.12 or newer (22, 24 or 26); this is Node ${process.versions.node}.`,
  )
  process.exit(1)
}

#!/usr/bin/env node
// The plant-store-mock command: the built CLI. A file of its own, present before any build, so that
// npm links the command in the kit's own repository too (the root's `npm install` builds dist/ after).
import { main } from '../dist/cli.js'

await main(process.argv.slice(2))

#!/usr/bin/env node
// The plant-store-broker command: the built CLI. A file of its own, present before any build, so that
// npm links the command in the kit's own repository too (the root's `npm install` builds dist/ after).
import '../dist/cli.js'

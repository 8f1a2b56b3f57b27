// @plant-store/core/compat: the compatibility judge (every change between two documents, each classed
// by its rule, and what a document no longer serves of a consumer contract), for Node.
export * from './compat/consumers.js'
export * from './compat/diff.js'
export * from './compat/pointer.js'
export * from './compat/rules.js'

// @plant-store/core/contract: recording a consumer contract (the handlers load it only when one is
// recorded, so that a page gets none of it otherwise), and its format, also in @plant-store/core itself.
export * from './lib/consumer-contract.js'
export * from './lib/contract-file.js'
export * from './lib/contract-recorder.js'

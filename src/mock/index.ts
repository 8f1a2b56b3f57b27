// @plant-store/mock: the plant store's Prism mock over HTTP, behind a front that refuses what the real
// server refuses; the plant-store-mock command starts it, and startMock() does from code.
export { type MockOptions, type RunningMock, startMock } from './mock.js'
export type { Listen } from './mock-front.js'

// @plant-store/server as a library: build the app to embed or test it; `plant-store-server` runs it.
export { type AppParts, type BuildOptions, buildApp } from './app.js'
export { type Config, DEV_TOKEN, loadConfig } from './config.js'

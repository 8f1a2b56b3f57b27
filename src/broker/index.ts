// @plant-store/broker: the broker's app, its store and its configuration, for embedding or tests; the
// plant-store-broker command (cli.ts) runs them.
export { type BuildOptions, buildBroker } from './app.js'
export { type BrokerConfig, loadConfig } from './config.js'
export { brokerDocument } from './openapi.js'
export { Broker, type BrokerOptions } from './store/broker.js'
export type { Answer, CanIDeploy, DraftCheck, DraftConsumer, Row } from './store/can-i-deploy.js'
export { type Db, openDb, openPostgres, openSqlite } from './store/db.js'

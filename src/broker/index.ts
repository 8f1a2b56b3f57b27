// @plant-store/broker: the broker's app, its store and its configuration, for embedding or tests; the
// plant-store-broker command (cli.ts) runs them.
export { type BuildOptions, buildBroker } from './app.js'
export { type BrokerConfig, loadConfig } from './config.js'
export { brokerDocument } from './openapi.js'
export {
  type Answer,
  Broker,
  type BrokerOptions,
  type CanIDeploy,
  type DraftCheck,
  type DraftConsumer,
  type Row,
} from './store/broker.js'
export { type Db, openDb, openPostgres, openSqlite } from './store/db.js'

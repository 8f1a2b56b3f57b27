// Security headers on every answer (@fastify/helmet), chosen for a JSON API that browser apps on other
// origins call: nothing in an answer may run, be framed or be sniffed as another type.
import helmet from '@fastify/helmet'
import fp from 'fastify-plugin'

export default fp(async (app) => {
  await app.register(helmet, {
    // A JSON answer loads nothing; the /docs page, which does, turns this off for its own routes.
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
    // Browser apps on other origins are the point of CORS here: their reads must not be blocked.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  })
})

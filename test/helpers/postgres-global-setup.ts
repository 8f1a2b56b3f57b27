// One throwaway PostgreSQL cluster for the API tests that run on PostgreSQL (vitest globalSetup).
import type { TestProject } from 'vitest/node'
import { startCluster } from '../../scripts/lib/postgres.js'

declare module 'vitest' {
  interface ProvidedContext {
    postgresAdminUrl: string
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startCluster()
  project.provide('postgresAdminUrl', cluster.adminUrl)
  return () => cluster.destroy()
}

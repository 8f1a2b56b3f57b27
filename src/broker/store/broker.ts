// The broker's store: what it records (applications and their immutable versions, each with its
// contract or document, verifications, environments, deployments and releases) and what it reads back,
// among it what runs where. Its answers gather those facts and hand them to their rules: can-i-deploy.ts
// (can-i-deploy, the page's states, the draft check), uses.ts (the "who uses this" index) and
// clean-up.ts; judgments.ts judges each pair of contents once.
import { type ConsumerContract, HttpError, parseContract } from '@plant-store/core'
import {
  type CanIDeploy,
  canIDeploy,
  checkDraft,
  consumerState,
  type DraftCheck,
  type Row,
  rowOf,
  storeState,
  type Weighed,
} from './can-i-deploy.js'
import { cleanUp } from './clean-up.js'
import {
  differences,
  documentOf,
  hashOf,
  readContract,
  readDocument,
  short,
  storedContent,
} from './content.js'
import { type Db, isUniqueViolation, type Sql } from './db.js'
import { Judgments } from './judgments.js'
import { usesOf } from './uses.js'
import { type Kind, VERSION_COLUMNS, type VersionRow } from './version-row.js'

export interface BrokerOptions {
  /** Branches whose latest version is judged and kept like a deployed one. */
  mainBranches?: string[]
  /** Clean-up keeps anything younger than this. */
  keepDays?: number
  now?: () => Date
  /** Called once a new version is stored. */
  onPublished?: (event: Published) => void
}

/** What the notify URL is told of a version just published. */
export interface Published {
  event: 'contract-published' | 'document-published'
  application: string
  version: string
  branch: string
  /** The SHA-256 of its contract or document. */
  content: string
}

export class Broker {
  private readonly judgments: Judgments
  readonly mainBranches: string[]
  readonly keepDays: number
  private readonly now: () => Date

  constructor(
    readonly db: Db,
    options: BrokerOptions = {},
  ) {
    this.judgments = new Judgments(db)
    this.mainBranches = options.mainBranches ?? ['main', 'master']
    this.keepDays = options.keepDays ?? 90
    this.now = options.now ?? (() => new Date())
    this.onPublished = options.onPublished
  }

  private readonly onPublished: ((event: Published) => void) | undefined

  private stamp = () => this.now().toISOString()

  // ---- Publishing -------------------------------------------------------------------------------

  /** Publishes a consumer's contract or the store's document as one version; again with the same content, nothing changes. */
  async publish(input: {
    kind: Kind
    application: string
    version: string
    branch: string
    body: string
  }): Promise<{ created: boolean; version: VersionRow }> {
    const { text } = input.kind === 'consumer' ? readContract(input.body) : readDocument(input.body)
    if (input.kind === 'consumer') {
      const named = parseContract(text).consumer
      if (named !== input.application)
        throw new HttpError(
          400,
          `the contract is the consumer ${JSON.stringify(named)}'s, not ${JSON.stringify(input.application)}'s`,
        )
    }
    const hash = hashOf(text)
    const attempt = () =>
      this.db.transaction(async (sql) => {
        const app = await this.ensureApplication(sql, input.application, input.kind)
        const [existing] = await sql.all<VersionRow>(
          `SELECT ${VERSION_COLUMNS} FROM versions v JOIN applications a ON a.id = v.application_id
           WHERE v.application_id = ? AND v.version = ?`,
          [app, input.version],
        )
        if (existing) {
          await this.refuseOtherContent(sql, existing, input.branch, hash, text)
          return { created: false, version: existing }
        }
        const at = this.stamp()
        await sql.run(
          `INSERT INTO contents (hash, kind, body, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING`,
          [hash, input.kind === 'consumer' ? 'contract' : 'document', text, at],
        )
        const [row] = await sql.all<{ id: number }>(
          `INSERT INTO versions (application_id, version, branch, content_hash, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id`,
          [app, input.version, input.branch, hash, at],
        )
        return {
          created: true,
          version: {
            id: Number(row?.id),
            application: input.application,
            kind: input.kind,
            version: input.version,
            branch: input.branch,
            content_hash: hash,
            created_at: at,
          },
        }
      })
    try {
      const published = await attempt()
      if (published.created) {
        const { application, version, branch, content_hash } = published.version
        this.onPublished?.({
          event: input.kind === 'store' ? 'document-published' : 'contract-published',
          application,
          version,
          branch,
          content: content_hash,
        })
        await this.prejudge(published.version)
      }
      return published
    } catch (error) {
      // Another writer published this version (or created the application) meanwhile: judged again
      // against what it wrote, this publish is the same content (200) or a 409 naming the difference.
      if (!isUniqueViolation(error)) throw error
      return attempt()
    }
  }

  private async ensureApplication(sql: Sql, name: string, kind: Kind): Promise<number> {
    const [found] = await sql.all<{ id: number; kind: Kind }>(
      'SELECT id, kind FROM applications WHERE name = ?',
      [name],
    )
    if (found) {
      if (found.kind !== kind)
        throw new HttpError(
          409,
          `${name} is ${found.kind === 'store' ? 'the store' : 'a consumer'}: it publishes ${found.kind === 'store' ? 'documents' : 'contracts'}, not ${kind === 'store' ? 'documents' : 'contracts'}`,
        )
      return Number(found.id)
    }
    const [row] = await sql.all<{ id: number }>(
      'INSERT INTO applications (name, kind, created_at) VALUES (?, ?, ?) RETURNING id',
      [name, kind, this.stamp()],
    )
    return Number(row?.id)
  }

  private async refuseOtherContent(
    sql: Sql,
    existing: VersionRow,
    branch: string,
    hash: string,
    text: string,
  ): Promise<void> {
    const name = `${existing.application} ${existing.version}`
    if (existing.branch !== branch)
      throw new HttpError(
        409,
        `${name} was published from the branch ${existing.branch}, not ${branch}: a version never changes; publish a new one`,
      )
    if (existing.content_hash === hash) return
    const [stored] = await sql.all<{ body: string }>('SELECT body FROM contents WHERE hash = ?', [
      existing.content_hash,
    ])
    const places = differences(JSON.parse(stored?.body ?? '{}'), JSON.parse(text))
    throw new HttpError(
      409,
      `${name} was published with other content (${short(existing.content_hash)}); this one differs at ${places.join(', ')}: a version never changes; publish a new one`,
    )
  }

  async recordVerification(input: { application: string; version: string; report: unknown }) {
    const report = checkReport(input.report)
    const version = await this.version(input.application, input.version)
    if (version.kind !== 'store')
      throw new HttpError(400, `${version.application} is a consumer: only the store's versions are verified`)
    const [row] = await this.db.transaction((sql) =>
      sql.all<{ id: number }>(
        `INSERT INTO verifications (version_id, document_hash, base_url, passed, seed, coverage, promises, verdict, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        [
          version.id,
          version.content_hash,
          report.baseUrl,
          report.passed ? 1 : 0,
          report.seed === undefined ? null : String(report.seed),
          JSON.stringify(report.coverage),
          JSON.stringify(report.promises),
          report.verdict,
          this.stamp(),
        ],
      ),
    )
    return { id: Number(row?.id), passed: report.passed, document: version.content_hash }
  }

  // ---- Environments, deployments, releases ------------------------------------------------------

  async putEnvironment(name: string, production: boolean): Promise<{ created: boolean }> {
    return this.db.transaction(async (sql) => {
      const changed = await sql.run('UPDATE environments SET production = ? WHERE name = ?', [
        production ? 1 : 0,
        name,
      ])
      if (changed) return { created: false }
      await sql.run(
        'INSERT INTO environments (name, production, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
        [name, production ? 1 : 0, this.stamp()],
      )
      return { created: true }
    })
  }

  async environments(): Promise<{ name: string; production: boolean }[]> {
    const rows = await this.db.all<{ name: string; production: number }>(
      'SELECT name, production FROM environments ORDER BY production DESC, name',
    )
    return rows.map((r) => ({ name: r.name, production: Number(r.production) === 1 }))
  }

  private async environment(name: string): Promise<number> {
    const [row] = await this.db.all<{ id: number }>('SELECT id FROM environments WHERE name = ?', [name])
    if (!row)
      throw new HttpError(
        404,
        `there is no environment named ${name}: create it first (PUT /environments/${name})`,
      )
    return Number(row.id)
  }

  /** The version now deployed there; the one it replaced, if any, is no longer live. */
  async recordDeployment(input: { application: string; version: string; environment: string }) {
    const version = await this.version(input.application, input.version)
    const environment = await this.environment(input.environment)
    const attempt = () =>
      this.db.transaction(async (sql) => {
        const at = this.stamp()
        const [live] = await sql.all<{ version_id: number }>(
          'SELECT version_id FROM deployments WHERE application_id = (SELECT application_id FROM versions WHERE id = ?) AND environment_id = ? AND ended_at IS NULL',
          [version.id, environment],
        )
        if (live && Number(live.version_id) === version.id) return { replaced: false }
        await sql.run(
          'UPDATE deployments SET ended_at = ? WHERE application_id = (SELECT application_id FROM versions WHERE id = ?) AND environment_id = ? AND ended_at IS NULL',
          [at, version.id, environment],
        )
        await sql.run(
          'INSERT INTO deployments (application_id, version_id, environment_id, deployed_at) SELECT application_id, id, ?, ? FROM versions WHERE id = ?',
          [environment, at, version.id],
        )
        return { replaced: live !== undefined }
      })
    let recorded: { replaced: boolean }
    try {
      recorded = await attempt()
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      recorded = await attempt()
    }
    await this.prejudge(version)
    return recorded
  }

  async recordRelease(input: { application: string; version: string; environment: string }) {
    const version = await this.version(input.application, input.version)
    const environment = await this.environment(input.environment)
    const recorded = await this.db.transaction(async (sql) => {
      const created = await sql.run(
        `INSERT INTO releases (application_id, version_id, environment_id, released_at)
         SELECT application_id, id, ?, ? FROM versions WHERE id = ?
         ON CONFLICT (version_id, environment_id) WHERE ended_at IS NULL DO NOTHING`,
        [environment, this.stamp(), version.id],
      )
      return { created: created > 0 }
    })
    await this.prejudge(version)
    return recorded
  }

  async recordSupportEnded(input: { application: string; version: string; environment: string }) {
    const version = await this.version(input.application, input.version)
    const environment = await this.environment(input.environment)
    const ended = await this.db.transaction((sql) =>
      sql.run(
        'UPDATE releases SET ended_at = ? WHERE version_id = ? AND environment_id = ? AND ended_at IS NULL',
        [this.stamp(), version.id, environment],
      ),
    )
    if (!ended)
      throw new HttpError(
        404,
        `${input.application} ${input.version} has no live release in ${input.environment}`,
      )
  }

  // ---- Reading ----------------------------------------------------------------------------------

  async applications(): Promise<{ name: string; kind: Kind; versions: number; latest?: string }[]> {
    const rows = await this.db.all<{ name: string; kind: Kind; versions: number; latest: string | null }>(
      `SELECT a.name, a.kind, COUNT(v.id) AS versions,
         (SELECT version FROM versions WHERE application_id = a.id ORDER BY created_at DESC, id DESC LIMIT 1) AS latest
       FROM applications a LEFT JOIN versions v ON v.application_id = a.id GROUP BY a.id, a.name, a.kind ORDER BY a.name`,
    )
    return rows.map((r) => ({
      name: r.name,
      kind: r.kind,
      versions: Number(r.versions),
      ...(r.latest ? { latest: r.latest } : {}),
    }))
  }

  async application(name: string) {
    const [app] = await this.db.all<{ id: number; name: string; kind: Kind; created_at: string }>(
      'SELECT id, name, kind, created_at FROM applications WHERE name = ?',
      [name],
    )
    if (!app) throw new HttpError(404, `there is no application named ${name}: it has published nothing`)
    const versions = await this.db.all<VersionRow>(
      `SELECT ${VERSION_COLUMNS} FROM versions v JOIN applications a ON a.id = v.application_id
       WHERE a.id = ? ORDER BY v.created_at DESC, v.id DESC LIMIT 100`,
      [app.id],
    )
    return {
      name: app.name,
      kind: app.kind,
      createdAt: app.created_at,
      versions: versions.map((v) => ({ version: v.version, branch: v.branch, createdAt: v.created_at })),
    }
  }

  /** One version; 404 naming what is unknown, the application or the version. */
  async version(application: string, version: string): Promise<VersionRow> {
    const [row] = await this.db.all<VersionRow>(
      `SELECT ${VERSION_COLUMNS} FROM versions v JOIN applications a ON a.id = v.application_id
       WHERE a.name = ? AND v.version = ?`,
      [application, version],
    )
    if (row) return { ...row, id: Number(row.id) }
    const [app] = await this.db.all('SELECT id FROM applications WHERE name = ?', [application])
    throw new HttpError(
      404,
      app
        ? `${application} has no version ${version}: publish it first`
        : `there is no application named ${application}: it has published nothing`,
    )
  }

  async versionDetail(application: string, version: string) {
    const row = await this.version(application, version)
    const verifications = await this.db.all<VerificationRow>(
      'SELECT id, base_url, passed, seed, verdict, document_hash, created_at FROM verifications WHERE version_id = ? ORDER BY id DESC LIMIT 20',
      [row.id],
    )
    const deployments = await this.db.all<{
      environment: string
      deployed_at: string
      ended_at: string | null
    }>(
      `SELECT e.name AS environment, d.deployed_at, d.ended_at FROM deployments d JOIN environments e ON e.id = d.environment_id
       WHERE d.version_id = ? ORDER BY d.id DESC`,
      [row.id],
    )
    const releases = await this.db.all<{ environment: string; released_at: string; ended_at: string | null }>(
      `SELECT e.name AS environment, r.released_at, r.ended_at FROM releases r JOIN environments e ON e.id = r.environment_id
       WHERE r.version_id = ? ORDER BY r.id DESC`,
      [row.id],
    )
    return {
      application: row.application,
      kind: row.kind,
      version: row.version,
      branch: row.branch,
      [row.kind === 'store' ? 'document' : 'contract']: row.content_hash,
      createdAt: row.created_at,
      verifications: verifications.map(verificationOf),
      deployments: deployments.map((d) => ({
        environment: d.environment,
        deployedAt: d.deployed_at,
        live: d.ended_at === null,
      })),
      releases: releases.map((r) => ({
        environment: r.environment,
        releasedAt: r.released_at,
        live: r.ended_at === null,
      })),
    }
  }

  /** One verification whole: what the verifier's report said of its coverage and promises too. */
  async verificationDetail(application: string, version: string, id: string) {
    const row = await this.version(application, version)
    const [found] = await this.db.all<VerificationRow & { coverage: string; promises: string }>(
      'SELECT * FROM verifications WHERE version_id = ? AND id = ?',
      [row.id, Number(id) || 0],
    )
    if (!found) throw new HttpError(404, `${application} ${version} has no verification ${id}`)
    const { createdAt, ...rest } = verificationOf(found)
    return {
      ...rest,
      coverage: JSON.parse(found.coverage) as unknown,
      promises: JSON.parse(found.promises) as unknown,
      createdAt,
    }
  }

  async content(hash: string): Promise<{ kind: 'contract' | 'document'; body: string }> {
    return storedContent(this.db, hash)
  }

  // ---- What runs --------------------------------------------------------------------------------

  /** The latest verification of a store version against the document it serves. */
  private async verification(version: VersionRow): Promise<boolean | undefined> {
    const [row] = await this.db.all<{ passed: number }>(
      'SELECT passed FROM verifications WHERE version_id = ? AND document_hash = ? ORDER BY id DESC LIMIT 1',
      [version.id, version.content_hash],
    )
    return row === undefined ? undefined : Number(row.passed) === 1
  }

  /** The versions live in an environment, deployed or released, each saying which (`how`). */
  private async live(environment: number, kind: Kind): Promise<(VersionRow & { how: string })[]> {
    return (
      await this.db.all<VersionRow & { how: string }>(
        `SELECT ${VERSION_COLUMNS}, 'deployed' AS how FROM deployments d JOIN versions v ON v.id = d.version_id
           JOIN applications a ON a.id = v.application_id
         WHERE d.environment_id = ? AND d.ended_at IS NULL AND a.kind = ?
         UNION ALL
         SELECT ${VERSION_COLUMNS}, 'released' AS how FROM releases r JOIN versions v ON v.id = r.version_id
           JOIN applications a ON a.id = v.application_id
         WHERE r.environment_id = ? AND r.ended_at IS NULL AND a.kind = ?
         ORDER BY application, version`,
        [environment, kind, environment, kind],
      )
    ).map((row) => ({ ...row, id: Number(row.id) }))
  }

  /** The consumer versions a draft must serve: deployed or released anywhere, and each main branch's latest. */
  private async runningConsumers(): Promise<(VersionRow & { where: string[] })[]> {
    const live = await this.db.all<VersionRow & { place: string }>(
      `SELECT ${VERSION_COLUMNS}, e.name AS place FROM deployments d JOIN versions v ON v.id = d.version_id
         JOIN applications a ON a.id = v.application_id JOIN environments e ON e.id = d.environment_id
       WHERE d.ended_at IS NULL AND a.kind = 'consumer'
       UNION ALL
       SELECT ${VERSION_COLUMNS}, e.name || ' (released)' AS place FROM releases r JOIN versions v ON v.id = r.version_id
         JOIN applications a ON a.id = v.application_id JOIN environments e ON e.id = r.environment_id
       WHERE r.ended_at IS NULL AND a.kind = 'consumer'`,
    )
    const main = await this.mainLatest('consumer')
    const byVersion = new Map<number, VersionRow & { where: string[] }>()
    for (const row of [
      ...live.map((r) => ({ ...r, where: r.place })),
      ...main.map((r) => ({ ...r, where: r.branch })),
    ]) {
      const id = Number(row.id)
      const seen = byVersion.get(id)
      if (seen) seen.where.push(row.where)
      else byVersion.set(id, { ...row, id, where: [row.where] })
    }
    return [...byVersion.values()].sort(
      (a, b) => a.application.localeCompare(b.application) || a.version.localeCompare(b.version),
    )
  }

  /** The latest version of each application's main branch(es). */
  private async mainLatest(kind: Kind): Promise<VersionRow[]> {
    const marks = this.mainBranches.map(() => '?').join(', ')
    return this.db.all<VersionRow>(
      `SELECT ${VERSION_COLUMNS} FROM versions v JOIN applications a ON a.id = v.application_id
       WHERE a.kind = ? AND v.branch IN (${marks}) AND v.id = (
         SELECT v2.id FROM versions v2 WHERE v2.application_id = v.application_id AND v2.branch = v.branch
         ORDER BY v2.created_at DESC, v2.id DESC LIMIT 1)`,
      [kind, ...this.mainBranches],
    )
  }

  /** The store versions deployed or released anywhere, and each main branch's latest. */
  private async runningStores(): Promise<VersionRow[]> {
    const stores = new Map<number, VersionRow>()
    for (const environment of await this.environments())
      for (const store of await this.live(await this.environment(environment.name), 'store'))
        stores.set(store.id, store)
    for (const store of await this.mainLatest('store'))
      stores.set(Number(store.id), { ...store, id: Number(store.id) })
    return [...stores.values()]
  }

  /** Each consumer version a draft must serve, with its contract. */
  private async runningContracts(): Promise<
    { consumer: VersionRow & { where: string[] }; contract: ConsumerContract }[]
  > {
    const out: { consumer: VersionRow & { where: string[] }; contract: ConsumerContract }[] = []
    for (const consumer of await this.runningConsumers())
      out.push({ consumer, contract: await this.judgments.contract(consumer.content_hash) })
    return out
  }

  /**
   * Judges a version just published or deployed against what it will be asked about: a store version
   * against every running consumer, a consumer version against every running store version. A cache
   * only: what fails here is judged again when asked.
   */
  private async prejudge(version: VersionRow): Promise<void> {
    try {
      if (version.kind === 'store')
        await this.judgments.findingsOf(
          (await this.runningConsumers()).map((c) => ({
            contract: c.content_hash,
            document: version.content_hash,
          })),
        )
      else
        for (const store of await this.runningStores())
          await this.judgments.findings(version.content_hash, store.content_hash)
      await this.judgments.flush()
    } catch {
      this.judgments.discard()
    }
  }

  // ---- Answers: the facts gathered, the rules in can-i-deploy.ts and uses.ts -------------------

  async canIDeploy(application: string, version: string, to: string): Promise<CanIDeploy> {
    const asked = await this.version(application, version)
    const environment = await this.environment(to)
    const stores: Weighed[] = []
    if (asked.kind === 'consumer') {
      for (const store of (await this.live(environment, 'store')).filter((s) => s.how === 'deployed'))
        stores.push({
          store,
          verified: await this.verification(store),
          consumers: [
            {
              consumer: asked,
              findings: await this.judgments.findings(asked.content_hash, store.content_hash),
            },
          ],
        })
    } else {
      // A consumer version both deployed and released there is weighed once.
      const seen = new Set<string>()
      const live = (await this.live(environment, 'consumer')).filter((consumer) => {
        const key = `${consumer.application}\0${consumer.version}`
        if (seen.has(key)) return false
        seen.add(key)
        return true
      })
      const findings = await this.judgments.findingsOf(
        live.map((consumer) => ({ contract: consumer.content_hash, document: asked.content_hash })),
      )
      stores.push({
        store: asked,
        verified: await this.verification(asked),
        consumers: live.map((consumer, i) => ({ consumer, findings: findings[i] ?? [] })),
      })
    }
    await this.judgments.flush()
    return canIDeploy(asked, to, stores)
  }

  /** A draft of the document judged against what runs; nothing is stored. */
  async checkDocument(body: string): Promise<DraftCheck> {
    const { document } = readDocument(body)
    const draft = documentOf(JSON.stringify(document))
    const consumers = await this.runningContracts()
    const verifiedStores: Parameters<typeof checkDraft>[2] = []
    for (const environment of await this.environments()) {
      const id = await this.environment(environment.name)
      for (const store of (await this.live(id, 'store')).filter((s) => s.how === 'deployed'))
        if ((await this.verification(store)) === true)
          verifiedStores.push({
            environment: environment.name,
            store,
            document: await this.judgments.document(store.content_hash),
          })
    }
    return checkDraft(draft, consumers, verifiedStores)
  }

  /** Each running consumer version against each running or main store version. */
  async matrix(): Promise<Row[]> {
    const consumers = await this.runningConsumers()
    const rows: Row[] = []
    for (const store of await this.runningStores()) {
      const verified = (await this.verification(store)) === true
      const findings = await this.judgments.findingsOf(
        consumers.map((c) => ({ contract: c.content_hash, document: store.content_hash })),
      )
      consumers.forEach((consumer, i) => {
        rows.push(rowOf(consumer, store, verified, findings[i] ?? []))
      })
    }
    await this.judgments.flush()
    return rows
  }

  /** Who runs what: each environment's deployed and released versions, each with its state. */
  async byEnvironment() {
    const out: {
      environment: string
      production: boolean
      versions: (VersionRow & { how: string; state: string; ok: boolean | undefined })[]
    }[] = []
    for (const environment of await this.environments()) {
      const id = await this.environment(environment.name)
      const stores = await this.live(id, 'store')
      const deployed = stores.filter((s) => s.how === 'deployed')
      const versions: (VersionRow & { how: string; state: string; ok: boolean | undefined })[] = []
      for (const store of stores) versions.push({ ...store, ...storeState(await this.verification(store)) })
      for (const consumer of await this.live(id, 'consumer')) {
        const beside: Parameters<typeof consumerState>[0] = []
        for (const store of deployed)
          beside.push({
            store,
            findings: await this.judgments.findings(consumer.content_hash, store.content_hash),
          })
        versions.push({ ...consumer, ...consumerState(beside) })
      }
      out.push({ environment: environment.name, production: environment.production, versions })
    }
    await this.judgments.flush()
    return out
  }

  /**
   * "Who uses this" for the store's document: the one deployed in production, else the latest on a
   * main branch.
   */
  async uses(): Promise<{ document?: string; entries: { place: string; users: string[] }[] }> {
    let store: VersionRow | undefined
    for (const environment of await this.environments())
      if (environment.production)
        store ??= (await this.live(await this.environment(environment.name), 'store')).find(
          (s) => s.how === 'deployed',
        )
    store ??= (await this.mainLatest('store'))[0]
    if (!store) return { entries: [] }
    const consumers = await this.runningContracts()
    return usesOf(store, await this.judgments.document(store.content_hash), consumers)
  }

  // ---- Clean-up ---------------------------------------------------------------------------------

  /**
   * Removes every version that is not the latest of a main branch, not deployed or released, and older
   * than keepDays; then the contents and old verifications nothing needs.
   */
  async cleanUp(
    keepDays = this.keepDays,
  ): Promise<{ versions: number; contents: number; verifications: number }> {
    return cleanUp(this.db, new Date(this.now().getTime() - keepDays * 86_400_000), this.mainBranches)
  }
}

/** What a verification report must carry to be recorded: the verifier's --json report. */
function checkReport(value: unknown): {
  baseUrl: string
  passed: boolean
  verdict: string
  seed?: number
  coverage: unknown
  promises: unknown[]
} {
  const wrong = (what: string) =>
    new HttpError(400, `the body is not a report of plant-store-verify --json: ${what}`)
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw wrong('it is not a JSON object')
  const report = value as Record<string, unknown>
  if (report.tool !== 'plant-store-verify') throw wrong(`its "tool" is ${JSON.stringify(report.tool)}`)
  if (typeof report.passed !== 'boolean') throw wrong('"passed" must be true or false')
  if (typeof report.baseUrl !== 'string') throw wrong('"baseUrl" must be the URL it verified')
  if (typeof report.verdict !== 'string') throw wrong('"verdict" must be a string')
  if (report.coverage === null || typeof report.coverage !== 'object')
    throw wrong('"coverage" must be an object')
  if (!Array.isArray(report.promises)) throw wrong('"promises" must be a list')
  if (report.seed !== undefined && typeof report.seed !== 'number') throw wrong('"seed" must be a number')
  return report as never
}

/** A verification as the database keeps it, without its report's coverage and promises. */
interface VerificationRow {
  id: number
  base_url: string
  passed: number
  seed: string | null
  verdict: string
  document_hash: string
  created_at: string
}

/** A verification as the API answers it (the key order is the answer's). */
function verificationOf(v: VerificationRow) {
  return {
    id: Number(v.id),
    baseUrl: v.base_url,
    passed: Number(v.passed) === 1,
    ...(v.seed === null ? {} : { seed: v.seed }),
    verdict: v.verdict,
    document: v.document_hash,
    createdAt: v.created_at,
  }
}

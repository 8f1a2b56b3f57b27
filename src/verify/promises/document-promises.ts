// The document's promises, found in the document itself so that the list changes when it does: each
// sentence of info.description's paragraphs, of each operation's (and webhook's) description and of
// the security scheme's; each parameter's description and schema keyword; each header's description;
// and each keyword of each schema (`Plant.name.maxLength`). With the rules of HTTP the document
// relies on (http-rules.ts), these are what a run's coverage counts by promise.

import { HTTP_RULES } from './http-rules.js'

export interface PromiseSource {
  /** Where the words are: a JSON pointer into the document, or the RFC and its section. */
  where: string
  words: string
}

export interface DocumentPromise {
  id: string
  source: PromiseSource
}

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The schema keywords a client's request or a store's answer is held to, each a promise. */
const KEYWORDS = [
  'maxLength',
  'minLength',
  'minimum',
  'maximum',
  'maxItems',
  'pattern',
  'format',
  'const',
  'enum',
]
const METHODS = ['get', 'put', 'post', 'delete', 'patch']

/** A few words as an id: lower case, letters and digits, joined by hyphens. */
export function slug(text: string, words = 5): string {
  return text
    .replace(/\*\*|`/g, '')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9\s-]/g, ' ')
    .split(/[\s-]+/)
    .filter(Boolean)
    .slice(0, words)
    .join('-')
}

/** Prose as sentences: one ends at `.`, `!` or `?` before white space and a capital, `*`, a backtick or a quote. */
export function sentences(prose: string): string[] {
  return prose
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=[.!?])\s+(?=[A-Z*`"])/)
    .map((s) => s.trim())
    .filter(Boolean)
}

/**
 * A description as promises: its paragraphs (or a paragraph's bold lead, `**Paging (addition).**`)
 * name sections, and each sentence is a promise `<prefix>.<section>.<first words>`.
 */
function prosePromises(prefix: string, where: string, prose: string, firstSection = ''): DocumentPromise[] {
  const out: DocumentPromise[] = []
  const seen = new Set<string>()
  let section = firstSection
  // A list item is a paragraph of its own.
  for (const paragraph of prose.split(/\n\s*\n|\n(?=\s*- )/)) {
    for (const sentence of sentences(paragraph.replace(/^\s*- /, ''))) {
      let words = sentence
      const lead = /^\*\*(.+?)\*\*\s*/.exec(sentence)
      if (lead) {
        section = slug((lead[1] ?? '').replace(/\((addition|addition to 1\.0\.0)\)/i, ''), 3)
        words = sentence.slice(lead[0].length)
        if (!words) continue
      }
      let id = [prefix, section, slug(words)].filter(Boolean).join('.')
      for (let n = 2; seen.has(id); n++)
        id = `${[prefix, section, slug(words)].filter(Boolean).join('.')}-${n}`
      seen.add(id)
      out.push({ id, source: { where, words } })
    }
  }
  return out
}

const pointer = (...tokens: string[]) =>
  `#/${tokens.map((t) => t.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`

function keywordPromises(prefix: string, where: string, schema: unknown, depth = 0): DocumentPromise[] {
  if (!isObject(schema) || depth > 6) return []
  const out: DocumentPromise[] = []
  for (const keyword of KEYWORDS)
    if (keyword in schema)
      out.push({
        id: `${prefix}.${keyword}`,
        source: { where: `${where}/${keyword}`, words: `${keyword}: ${JSON.stringify(schema[keyword])}` },
      })
  if (Array.isArray(schema.required))
    for (const name of schema.required)
      out.push({
        id: `${prefix}.${String(name)}.required`,
        source: { where: `${where}/required`, words: `required: ${String(name)}` },
      })
  for (const [name, property] of Object.entries(isObject(schema.properties) ? schema.properties : {}))
    out.push(...keywordPromises(`${prefix}.${name}`, `${where}/properties/${name}`, property, depth + 1))
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const parts = schema[key]
    // A reference (dereferenced in place) is the referenced schema's own promises: listed once, there.
    if (Array.isArray(parts))
      for (const [i, part] of parts.entries())
        if (isObject(part) && part.$ref === undefined)
          out.push(...keywordPromises(prefix, `${where}/${key}/${i}`, part, depth + 1))
  }
  return out
}

/**
 * Every promise of a raw document (not dereferenced: a shared schema or parameter is listed where the
 * document writes it), then the rules of HTTP it relies on. The kit profile's (`info.x-kit-profile`,
 * and what is marked `x-kit-profile: true`) only with the profile `kit`, its text's ids under `kit.`.
 */
export function documentPromises(
  raw: unknown,
  profile: 'interface' | 'kit' = 'interface',
): DocumentPromise[] {
  const document = isObject(raw) ? raw : {}
  const marked = (node: unknown) => profile !== 'kit' && isObject(node) && node['x-kit-profile'] === true
  const out: DocumentPromise[] = []
  const info = isObject(document.info) ? document.info : {}
  if (typeof info.description === 'string')
    out.push(...prosePromises('', pointer('info', 'description'), info.description, 'interface'))
  const kit = info['x-kit-profile']
  if (profile === 'kit' && typeof kit === 'string')
    out.push(...prosePromises('kit', pointer('info', 'x-kit-profile'), kit))
  const components = isObject(document.components) ? document.components : {}
  for (const [name, scheme] of Object.entries(
    isObject(components.securitySchemes) ? components.securitySchemes : {},
  ))
    if (isObject(scheme) && typeof scheme.description === 'string')
      out.push(
        ...prosePromises(
          name,
          pointer('components', 'securitySchemes', name, 'description'),
          scheme.description,
        ),
      )
  for (const [container, items] of [
    ['paths', document.paths],
    ['webhooks', document.webhooks],
  ] as const) {
    for (const [path, item] of Object.entries(isObject(items) ? items : {})) {
      if (!isObject(item)) continue
      for (const method of METHODS) {
        const operation = item[method]
        if (!isObject(operation) || marked(operation)) continue
        const operationId = String(operation.operationId ?? `${method} ${path}`)
        if (typeof operation.description === 'string')
          out.push(
            ...prosePromises(
              operationId,
              pointer(container, path, method, 'description'),
              operation.description,
            ),
          )
        const parameters = [
          ...(Array.isArray(operation.parameters) ? operation.parameters : []).map((p, i) => ({
            p,
            where: pointer(container, path, method, 'parameters', String(i)),
          })),
        ]
        for (const { p, where } of parameters) {
          if (!isObject(p) || typeof p.name !== 'string') continue
          const prefix = `${operationId}.${p.name}`
          if (typeof p.description === 'string')
            out.push({ id: prefix, source: { where: `${where}/description`, words: oneLine(p.description) } })
          out.push(...keywordPromises(prefix, `${where}/schema`, p.schema))
        }
      }
    }
  }
  for (const [name, parameter] of Object.entries(
    isObject(components.parameters) ? components.parameters : {},
  )) {
    if (!isObject(parameter) || marked(parameter)) continue
    const where = pointer('components', 'parameters', name)
    if (typeof parameter.description === 'string')
      out.push({ id: name, source: { where: `${where}/description`, words: oneLine(parameter.description) } })
    out.push(...keywordPromises(name, `${where}/schema`, parameter.schema))
  }
  for (const [name, header] of Object.entries(isObject(components.headers) ? components.headers : {})) {
    if (!isObject(header) || marked(header) || typeof header.description !== 'string') continue
    out.push({
      id: `header.${name}`,
      source: {
        where: pointer('components', 'headers', name, 'description'),
        words: oneLine(header.description),
      },
    })
  }
  for (const [name, schema] of Object.entries(isObject(components.schemas) ? components.schemas : {}))
    if (!marked(schema)) out.push(...keywordPromises(name, pointer('components', 'schemas', name), schema))
  for (const rule of HTTP_RULES)
    out.push({ id: rule.id, source: { where: `${rule.rfc}, section ${rule.section}`, words: rule.words } })
  return out
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim()

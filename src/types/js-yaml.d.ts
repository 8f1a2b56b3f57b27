// The part of js-yaml 4 the server uses (the package ships no types; swagger-parser reads YAML with it).
declare module 'js-yaml' {
  export const JSON_SCHEMA: unknown
  export function load(text: string, options?: { schema?: unknown }): unknown
}

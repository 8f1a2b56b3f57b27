// The part of Dredd's hooks API that contracts/dredd/hooks.cjs uses, so that file is type-checked.
declare module 'hooks' {
  interface Message {
    uri?: string
    method?: string
    headers: Record<string, string>
    body: string
    bodySchema?: unknown
  }
  export interface Transaction {
    name: string
    id?: string
    fullPath?: string
    fail?: string | boolean
    skip?: boolean
    request: Message
    expected: Partial<Message> & { statusCode?: string }
    real?: Partial<Message> & { statusCode?: number }
  }
  type Done = () => void
  export function beforeEach(hook: (transaction: Transaction, done: Done) => void): void
  export function beforeEachValidation(hook: (transaction: Transaction) => void): void
  export function afterEach(hook: (transaction: Transaction) => void): void
  export function afterAll(hook: (transactions: Transaction[], done: Done) => void): void
}

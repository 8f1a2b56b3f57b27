// The target under test as the sequences' commands see it: one send per request, tagged with its phase.
import type { OperationEntry } from '../document.js'
import type { Answer, RequestSpec } from '../http.js'

export type Phase = 'command' | 'read-back' | 'final check' | 'cleanup'

/** The target under test, seen by the commands: sends a request as one of the principals and records it. */
export interface Real {
  send(principal: number, entry: OperationEntry, request: RequestSpec, phase: Phase): Promise<Answer>
}

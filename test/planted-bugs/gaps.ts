// Where the planted bugs fall short, each with why, so that the lists only shrink: the promises a
// default run exercises that have no bug yet, and the bugs the verifier catches by a check of their
// promise whose failure it does not file under that promise. planted.test.ts fails when a promise
// listed here gets a bug or is gone, and when a listed bug's failure is filed after all.

export const WITHOUT_A_BUG: Readonly<Record<string, string>> = {}

/**
 * The registry counts a request under these promises by the status the store answered (a 404 for a
 * replace of a missing plant, a 204), so an answer with another status, the bug itself, is counted
 * under other promises.
 */
export const JUDGED_NOT_FILED: Readonly<Record<string, string>> = {
  'put-upserts':
    'a replace of a missing plant answered 200 is not counted under the promise, which counts the 404s',
  'delete-answers-200': 'a delete answered 200 is not counted under the rule of 204, which counts the 204s',
}

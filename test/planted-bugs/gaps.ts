// Where the planted bugs fall short, each with why, so that the lists only shrink: the promises a
// default run exercises that have no bug yet, and the bugs the verifier catches by a check of their
// promise whose failure it does not file under that promise. planted.test.ts fails when a promise
// listed here gets a bug or is gone, and when a listed bug's failure is filed after all.

export const WITHOUT_A_BUG: Readonly<Record<string, string>> = {}

/** The bugs a check of their promise catches, whose failure the registry files under other promises. */
export const JUDGED_NOT_FILED: Readonly<Record<string, string>> = {}

// The errors that end a run without a verdict (the command exits 2 on each): a usage error, a server
// that cannot be reached, and a team's own check or hook that threw.

export class VerifyUsageError extends Error {}

/** A team's own check or hook threw: the run ends with its message, whatever it had found. */
export class TeamCodeError extends VerifyUsageError {}

/** Lets a team's own code's failure through a layer's own catch: it ends the run, not the layer. */
export function rethrowTeamCode(error: unknown): void {
  if (error instanceof TeamCodeError) throw error
}

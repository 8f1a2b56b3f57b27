// Route-level hooks: a hook that only some routes need is added to those routes as they are declared
// (an onRoute hook), so that the others never run it, and no request asks its route whether to
// (Fastify builds request.routeOptions anew at every read).

/** A route's hooks of one kind (none, one, or a list, as Fastify takes them) with `hook` run last. */
export function withHook<H>(hooks: H | H[] | undefined, hook: H): H[] {
  if (hooks === undefined) return [hook]
  // Stryker disable next-line ArrayDeclaration: equivalent: no route of the server is declared with a hook of a kind that is not a list, so that branch never runs.
  const given = Array.isArray(hooks) ? hooks : [hooks]
  return [...given, hook]
}

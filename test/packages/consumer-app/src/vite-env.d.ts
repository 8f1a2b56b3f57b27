// The app's own environment variables, typed for import.meta.env.
interface ImportMetaEnv {
  /** The sandbox's address, for calling it directly over CORS (`?store=cors`). */
  readonly VITE_SANDBOX_URL?: string
}

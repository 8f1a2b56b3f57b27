// Vite for the plant store app: React, and /api passed to the plant store (the sandbox) with the prefix
// removed, so that the page calls its own origin and needs no CORS.
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const sandbox = process.env.SANDBOX_URL ?? 'http://127.0.0.1:3000'

export default defineConfig({
  plugins: [react()],
  server: {
    // Loopback and a free port (a team would keep 5173): the kit's test reads the address Vite prints.
    host: '127.0.0.1',
    port: 0,
    proxy: {
      '/api': { target: sandbox, changeOrigin: true, rewrite: (path) => path.replace(/^\/api/, '') },
    },
  },
  preview: { host: '127.0.0.1', port: 0 },
})

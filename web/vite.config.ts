// The dashboard's build: React, bundled into web/dist, which the service serves at / (src/http/dashboard.ts).
// Everything it needs is in the bundle: no font, script or style from another host.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 600 },
});

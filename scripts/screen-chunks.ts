/**
 * A build step: writes `.vite/screens.json`, the scripts and styles each first screen loads beyond the
 * entry's own (the sign-in page, Cases, the case view), for the server to name with the page
 * (server/static-files.ts) so that the browser fetches them beside the entry instead of after it. Vite's
 * manifest cannot say this once a page's module sits in a named chunk group (vite.config.ts): it keys
 * such chunks by their file, not by the page's source.
 */
import type { Plugin } from 'vite';

/** What one screen adds to the entry's scripts: file names under the build's folder. */
export interface ScreenChunks {
  scripts: string[];
  styles: string[];
}

export const SCREENS_FILE = '.vite/screens.json';

export function screenChunks(screens: Record<string, string>): Plugin {
  return {
    name: 'site-admin-screen-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const closure = (file: string, into: Set<string>): Set<string> => {
        if (into.has(file)) return into;
        into.add(file);
        for (const imported of byFile.get(file)?.imports ?? []) closure(imported, into);
        return into;
      };
      const loaded = new Set<string>();
      for (const chunk of chunks) if (chunk.isEntry) closure(chunk.fileName, loaded);
      const found: Record<string, ScreenChunks> = {};
      for (const [screen, source] of Object.entries(screens)) {
        const home = chunks.find((chunk) => chunk.moduleIds.some((id) => id.replace(/\\/g, '/').endsWith(source)));
        if (!home) this.error(`No chunk holds ${source}: the screen "${screen}" cannot be named ahead.`);
        const scripts = [...closure(home.fileName, new Set())].filter((file) => !loaded.has(file));
        const styles = [...new Set(scripts.flatMap((file) => [...(byFile.get(file)?.viteMetadata?.importedCss ?? [])]))];
        found[screen] = { scripts, styles };
      }
      this.emitFile({ type: 'asset', fileName: SCREENS_FILE, source: `${JSON.stringify(found, null, 2)}\n` });
    },
  };
}

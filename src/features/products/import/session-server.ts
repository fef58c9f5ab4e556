/**
 * What an ImportSession asks of our server in the page: server-import.ts's calls, and the product create
 * and update of the fetch layer (an update through the site's record shape).
 */
import { createProduct } from '@/lib/api-client';
import { isNotSignedIn } from '@/lib/own-api-failure';
import { productReadingOf, updateProduct, type ProductReading } from '../product-api';
import type { ImportServer } from './import-session';
import * as serverImport from './server-import';

/** The page's calls, for a site whose products are read (and an update written) as `reading` says. */
export const pageCallsFor = (reading: ProductReading): ImportServer => ({
  listImports: serverImport.listImports,
  readImport: serverImport.readImport,
  createImport: serverImport.createImport,
  saveWork: serverImport.saveWork,
  discardImport: serverImport.discardImport,
  claimRun: serverImport.claimRun,
  releaseRun: serverImport.releaseRun,
  decideProduct: serverImport.decideProduct,
  createProduct: (body, headers) => createProduct(body, undefined, headers),
  updateProduct: (id, body, fingerprint, headers) => updateProduct(id, body, fingerprint, reading, undefined, headers),
});

/**
 * The session's calls to our server, each telling the app when our server answers 401: the run makes them
 * outside the query client, whose error handling shows the sign-in page for every query and change.
 */
export function importServer(onNotSignedIn: () => void, calls: ImportServer = pageCallsFor(productReadingOf(undefined))): ImportServer {
  const reporting =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await call(...args);
      } catch (error) {
        if (isNotSignedIn(error)) onNotSignedIn();
        throw error;
      }
    };
  return {
    listImports: reporting(calls.listImports),
    readImport: reporting(calls.readImport),
    createImport: reporting(calls.createImport),
    saveWork: reporting(calls.saveWork),
    discardImport: reporting(calls.discardImport),
    claimRun: reporting(calls.claimRun),
    releaseRun: reporting(calls.releaseRun),
    decideProduct: reporting(calls.decideProduct),
    createProduct: reporting(calls.createProduct),
    updateProduct: reporting(calls.updateProduct),
  };
}

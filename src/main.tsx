import { StrictMode, Suspense, lazy } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from '@/app/provider';
import { SiteRoot } from '@/app/site-root';
import { INVITE_PAGE } from '@/contract/access';

// A one-time link's page: opened by someone not signed in yet, before (and instead of) any site's pages.
const InvitePage = lazy(() => import('@/app/invite-page'));

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <AppProvider>
      {window.location.pathname === INVITE_PAGE ? (
        <Suspense fallback={null}>
          <InvitePage />
        </Suspense>
      ) : (
        <SiteRoot />
      )}
    </AppProvider>
  </StrictMode>,
);

import { lazy, Suspense } from 'react';
import { Text } from '@mantine/core';
import { PATHS, pathTo } from '@/lib/paths';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from '@/lib/router';
import { NotFoundPage } from './not-found';
import { RequireCapability, RequirePeopleManager } from './require-capability';
import { RouteErrorBoundary } from './route-error';
import { AppShellLayout } from './shell';

// Each page is its own chunk: the first page loads only what it shows.
const CasesPage = lazy(() => import('@/features/cases/cases-page').then((m) => ({ default: m.CasesPage })));
// A form's inbox (its virtual list, calendar and selects) loads when a person opens one, never with Cases.
const InboxPage = lazy(() => import('@/features/cases/inbox').then((m) => ({ default: m.InboxPage })));
const NewProductPage = lazy(() => import('@/features/products/new-product-page').then((m) => ({ default: m.NewProductPage })));
const CreatedProductsPage = lazy(() =>
  import('@/features/products/created-products-page').then((m) => ({ default: m.CreatedProductsPage })),
);
const ImportPage = lazy(() => import('@/features/products/import/import-page').then((m) => ({ default: m.ImportPage })));
const EditImportedPage = lazy(() => import('@/features/products/import/edit-imported-page').then((m) => ({ default: m.EditImportedPage })));
const SettingsPage = lazy(() => import('@/features/settings/settings-page').then((m) => ({ default: m.SettingsPage })));
const AccountPage = lazy(() => import('@/features/account/account-page').then((m) => ({ default: m.AccountPage })));
const PeoplePage = lazy(() => import('@/features/people/people-page').then((m) => ({ default: m.PeoplePage })));
const ActivityPage = lazy(() => import('@/features/activity/activity-page').then((m) => ({ default: m.ActivityPage })));
// The Catalogue (its virtual list, the products' contract) loads when a person opens it, never with the first page.
const CataloguePage = lazy(() => import('@/features/products/catalogue/catalogue-page').then((m) => ({ default: m.CataloguePage })));
const ProductEditPage = lazy(() => import('@/features/products/edit/product-edit-page').then((m) => ({ default: m.ProductEditPage })));
const ApprovalsPage = lazy(() => import('@/features/approvals/approvals-page').then((m) => ({ default: m.ApprovalsPage })));
const ChangePage = lazy(() => import('@/features/approvals/change-page').then((m) => ({ default: m.ChangePage })));
const CreatedProductPage = lazy(() => import('@/features/products/created-product-page').then((m) => ({ default: m.CreatedProductPage })));

function Pages() {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary key={pathname}>
      <Suspense fallback={<Text c="dimmed">Loading…</Text>}>
        <Routes>
          <Route path={PATHS.home} element={<Navigate to={pathTo('cases')} replace />} />
          <Route path={PATHS.cases} element={<CasesPage />} />
          <Route path={PATHS.inbox} element={<InboxPage />} />
          <Route path={PATHS.case} element={<CasesPage />} />
          <Route path={PATHS.products} element={<CreatedProductsPage />} />
          <Route
            path={PATHS.newProduct}
            element={
              <RequireCapability capability="create">
                <NewProductPage />
              </RequireCapability>
            }
          />
          <Route
            path={PATHS.importProducts}
            element={
              <RequireCapability capability="create">
                <ImportPage />
              </RequireCapability>
            }
          />
          <Route
            path={PATHS.editImported}
            element={
              <RequireCapability capability="create">
                <EditImportedPage />
              </RequireCapability>
            }
          />
          <Route path={PATHS.createdProduct} element={<CreatedProductPage />} />
          <Route
            path={PATHS.catalogue}
            element={
              <RequireCapability capability="create">
                <CataloguePage />
              </RequireCapability>
            }
          />
          <Route
            path={PATHS.catalogueProduct}
            element={
              <RequireCapability capability="create">
                <ProductEditPage />
              </RequireCapability>
            }
          />
          <Route path={PATHS.settings} element={<SettingsPage />} />
          <Route path={PATHS.account} element={<AccountPage />} />
          <Route
            path={PATHS.people}
            element={
              <RequirePeopleManager>
                <PeoplePage />
              </RequirePeopleManager>
            }
          />
          <Route path={PATHS.activity} element={<ActivityPage />} />
          <Route path={PATHS.approvals} element={<ApprovalsPage />} />
          <Route path={PATHS.approval} element={<ChangePage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}

export function AppRouter({ basename = '' }: { basename?: string }) {
  return (
    <BrowserRouter basename={basename}>
      <AppShellLayout>
        <Pages />
      </AppShellLayout>
    </BrowserRouter>
  );
}

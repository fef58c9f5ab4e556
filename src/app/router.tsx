import { createBrowserRouter, Navigate } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppShellLayout } from './shell';
import { NotFoundPage } from './not-found';
import { RouteError } from './route-error';

// Each page is its own chunk: the first page loads only what it shows.
const router = createBrowserRouter([
  {
    element: <AppShellLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <Navigate to="/cases" replace /> },
      {
        path: 'cases/:form?/:id?',
        lazy: async () => ({ Component: (await import('@/features/cases/cases-page')).CasesPage }),
      },
      {
        path: 'products',
        lazy: async () => ({ Component: (await import('@/features/products/created-products-page')).CreatedProductsPage }),
      },
      {
        path: 'products/created/:localId',
        lazy: async () => ({ Component: (await import('@/features/products/created-product-page')).CreatedProductPage }),
      },
      {
        path: 'products/new',
        lazy: async () => ({ Component: (await import('@/features/products/new-product-page')).NewProductPage }),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}

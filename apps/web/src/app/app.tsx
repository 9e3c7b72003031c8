import { RouterProvider, type DataRouter } from 'react-router';
import { PageLoader } from '../components/page-loader';
import { AppProviders } from './providers';

/** The app; the page spinner until its router is ready (main.tsx: the first page's chunks are loading). */
export function App({ router }: { router: DataRouter | null }) {
  return <AppProviders>{router ? <RouterProvider router={router} /> : <PageLoader />}</AppProviders>;
}

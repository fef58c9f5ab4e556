import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PATHS, pathTo } from './paths';
import {
  Link,
  MemoryRouter,
  memoryHistory,
  Navigate,
  Route,
  Routes,
  useBlocker,
  useLocation,
  useNavigate,
  usePathParams,
  usePathState,
} from './router';

function Where() {
  const location = useLocation();
  return <output aria-label="where">{location.pathname + location.search}</output>;
}

function Case() {
  const params = usePathParams('case');
  return <p>{`form ${params?.form} case ${params?.id}`}</p>;
}

describe('routing', () => {
  it('renders the first matching route with its typed params, and follows links built from the table', async () => {
    render(
      <MemoryRouter initialEntries={['/cases/a%2Fb/48217']}>
        <Routes>
          <Route path={PATHS.case} element={<Case />} />
          <Route path="*" element={<p>Not found</p>} />
        </Routes>
        <Link to={pathTo('createdProduct', { id: 'x y' })}>Elsewhere</Link>
        <Where />
      </MemoryRouter>,
    );
    expect(screen.getByText('form a/b case 48217')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Elsewhere' })).toHaveAttribute('href', '/products/created/x%20y');
    await userEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(screen.getByText('Not found')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'where' })).toHaveTextContent('/products/created/x%20y');
  });

  it('redirects with Navigate', () => {
    render(
      <MemoryRouter initialEntries={['/']}>
        <Routes>
          <Route path={PATHS.home} element={<Navigate to={pathTo('cases')} replace />} />
          <Route path={PATHS.cases} element={<p>Cases</p>} />
        </Routes>
      </MemoryRouter>,
    );
    expect(screen.getByText('Cases')).toBeInTheDocument();
  });

  it('hands a page the state it was sent with, checked against its schema', async () => {
    function Sender() {
      const navigate = useNavigate();
      return (
        <>
          <button onClick={() => navigate(pathTo('createdProduct', { id: '1' }), { state: { justCreated: true } })}>Created</button>
          <Link to={pathTo('createdProduct', { id: '2' })}>Reopen</Link>
        </>
      );
    }
    function Created() {
      const state = usePathState('createdProduct');
      return <p>{state?.justCreated ? 'Just created' : 'Reopened'}</p>;
    }
    const user = userEvent.setup();
    render(
      <MemoryRouter initialEntries={['/products']}>
        <Routes>
          <Route path={PATHS.products} element={<Sender />} />
          <Route path={PATHS.createdProduct} element={<Created />} />
        </Routes>
        <Back />
      </MemoryRouter>,
    );
    await user.click(screen.getByRole('button', { name: 'Created' }));
    expect(screen.getByText('Just created')).toBeInTheDocument();
    await act(async () => user.click(screen.getByRole('button', { name: 'Back' })));
    await user.click(screen.getByRole('link', { name: 'Reopen' }));
    expect(screen.getByText('Reopened')).toBeInTheDocument();
  });
});

function Guarded() {
  const blocker = useBlocker(({ nextLocation }) => nextLocation.pathname !== '/products/new');
  return (
    <>
      <Link to={pathTo('cases')}>Away</Link>
      {blocker.state === 'blocked' && (
        <div role="dialog" aria-label="Leave?">
          <button onClick={blocker.reset}>Stay</button>
          <button onClick={blocker.proceed}>Leave</button>
        </div>
      )}
      <Where />
    </>
  );
}

describe('useBlocker', () => {
  it('holds a navigation until the user chooses to leave, and stays when asked', async () => {
    const user = userEvent.setup();
    render(
      <MemoryRouter initialEntries={['/products/new']}>
        <Guarded />
      </MemoryRouter>,
    );
    const where = () => screen.getByRole('status', { name: 'where' });
    await user.click(screen.getByRole('link', { name: 'Away' }));
    expect(screen.getByRole('dialog', { name: 'Leave?' })).toBeInTheDocument();
    expect(where()).toHaveTextContent('/products/new');
    await user.click(screen.getByRole('button', { name: 'Stay' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(where()).toHaveTextContent('/products/new');
    await user.click(screen.getByRole('link', { name: 'Away' }));
    await act(async () => user.click(screen.getByRole('button', { name: 'Leave' })));
    expect(where()).toHaveTextContent(/^\/cases$/);
  });
});

function Back() {
  const navigate = useNavigate();
  return <button onClick={() => navigate(-1)}>Back</button>;
}

describe('useBlocker and the Back button', () => {
  it('holds Back until the user chooses to leave, then goes back for good', async () => {
    const user = userEvent.setup();
    function Start() {
      const navigate = useNavigate();
      return <button onClick={() => navigate(pathTo('newProduct'))}>Open editor</button>;
    }
    render(
      <MemoryRouter initialEntries={['/products']}>
        <Routes>
          <Route path={PATHS.products} element={<Start />} />
          <Route
            path={PATHS.newProduct}
            element={
              <>
                <Guarded />
                <Back />
              </>
            }
          />
        </Routes>
        <Where />
      </MemoryRouter>,
    );
    const where = () => screen.getAllByRole('status', { name: 'where' }).at(-1);
    await user.click(screen.getByRole('button', { name: 'Open editor' }));
    expect(where()).toHaveTextContent('/products/new');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('dialog', { name: 'Leave?' })).toBeInTheDocument();
    expect(where()).toHaveTextContent('/products/new');
    await act(async () => user.click(screen.getByRole('button', { name: 'Leave' })));
    expect(where()).toHaveTextContent(/^\/products$/);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('leaves when Leave is chosen before the browser has finished returning to the editor', async () => {
    const user = userEvent.setup();
    const history = memoryHistory('/cases', { held: true });
    function Start() {
      const navigate = useNavigate();
      return <button onClick={() => navigate(pathTo('newProduct'))}>Open editor</button>;
    }
    render(
      <MemoryRouter history={history}>
        <Routes>
          <Route path={PATHS.cases} element={<Start />} />
          <Route path={PATHS.newProduct} element={<Guarded />} />
        </Routes>
        <Where />
      </MemoryRouter>,
    );
    const where = () => screen.getAllByRole('status', { name: 'where' }).at(-1);
    await user.click(screen.getByRole('button', { name: 'Open editor' }));
    // The browser's Back: the address changes first, then the app hears of it.
    act(() => {
      history.go(-1);
      history.finishTraversal();
    });
    expect(screen.getByRole('dialog', { name: 'Leave?' })).toBeInTheDocument();
    expect(where()).toHaveTextContent('/products/new');
    // Leave before the return to the editor has finished: the way out waits for it instead of being dropped.
    await act(async () => user.click(screen.getByRole('button', { name: 'Leave' })));
    act(() => history.finishTraversal());
    act(() => history.finishTraversal());
    expect(where()).toHaveTextContent(/^\/cases$/);
    expect(history.location().pathname).toBe('/cases');
  });
});

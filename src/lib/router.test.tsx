import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Link, matchPath, MemoryRouter, Navigate, Route, Routes, useBlocker, useLocation, useNavigate, useParams } from './router';

describe('matchPath', () => {
  it.each([
    ['cases/:form?/:id?', '/cases', {}],
    ['cases/:form?/:id?', '/cases/3', { form: '3' }],
    ['cases/:form?/:id?', '/cases/3/48217', { form: '3', id: '48217' }],
    ['cases/:form?/:id?', '/cases/a%2Fb/1', { form: 'a/b', id: '1' }],
    ['products/created/:localId', '/products/created/xyz', { localId: 'xyz' }],
    ['/', '/', {}],
    ['*', '/anything/at/all', {}],
  ])('%s matches %s', (pattern, path, params) => {
    expect(matchPath(pattern, path)).toEqual(params);
  });

  it.each([
    ['cases/:form?/:id?', '/cases/3/4/5'],
    ['products', '/products/new'],
    ['products/created/:localId', '/products/created'],
    ['/', '/cases'],
    ['cases/:form', '/cases/%E0%A4%A'],
  ])('%s does not match %s', (pattern, path) => {
    expect(matchPath(pattern, path)).toBeNull();
  });
});

function Where() {
  const location = useLocation();
  return <output aria-label="where">{location.pathname + location.search}</output>;
}

function Case() {
  const { form, id } = useParams();
  return <p>{`form ${form} case ${id}`}</p>;
}

describe('routing', () => {
  it('renders the first matching route with its params, and follows links', async () => {
    render(
      <MemoryRouter initialEntries={['/cases/3/48217']}>
        <Routes>
          <Route path="cases/:form?/:id?" element={<Case />} />
          <Route path="*" element={<p>Not found</p>} />
        </Routes>
        <Link to="/elsewhere?x=1">Elsewhere</Link>
        <Where />
      </MemoryRouter>,
    );
    expect(screen.getByText('form 3 case 48217')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(screen.getByText('Not found')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'where' })).toHaveTextContent('/elsewhere?x=1');
  });

  it('redirects with Navigate', () => {
    render(
      <MemoryRouter initialEntries={['/']}>
        <Routes>
          <Route path="/" element={<Navigate to="/cases" replace />} />
          <Route path="cases" element={<p>Cases</p>} />
        </Routes>
      </MemoryRouter>,
    );
    expect(screen.getByText('Cases')).toBeInTheDocument();
  });
});

function Guarded() {
  const blocker = useBlocker(({ nextLocation }) => nextLocation.pathname !== '/editor');
  return (
    <>
      <Link to="/away">Away</Link>
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
      <MemoryRouter initialEntries={['/editor']}>
        <Guarded />
      </MemoryRouter>,
    );
    const where = () => screen.getByRole('status', { name: 'where' });
    await user.click(screen.getByRole('link', { name: 'Away' }));
    expect(screen.getByRole('dialog', { name: 'Leave?' })).toBeInTheDocument();
    expect(where()).toHaveTextContent('/editor');
    await user.click(screen.getByRole('button', { name: 'Stay' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(where()).toHaveTextContent('/editor');
    await user.click(screen.getByRole('link', { name: 'Away' }));
    await act(async () => user.click(screen.getByRole('button', { name: 'Leave' })));
    expect(where()).toHaveTextContent('/away');
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
      return <button onClick={() => navigate('/editor')}>Open editor</button>;
    }
    render(
      <MemoryRouter initialEntries={['/start']}>
        <Routes>
          <Route path="start" element={<Start />} />
          <Route path="editor" element={<><Guarded /><Back /></>} />
        </Routes>
        <Where />
      </MemoryRouter>,
    );
    const where = () => screen.getAllByRole('status', { name: 'where' }).at(-1);
    await user.click(screen.getByRole('button', { name: 'Open editor' }));
    expect(where()).toHaveTextContent('/editor');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('dialog', { name: 'Leave?' })).toBeInTheDocument();
    expect(where()).toHaveTextContent('/editor');
    await act(async () => user.click(screen.getByRole('button', { name: 'Leave' })));
    expect(where()).toHaveTextContent('/start');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { lazyModule, useLazyModule, type LazyModule } from './lazy-module';

/** An importer whose attempts the test settles by hand. */
function controlledImporter() {
  const attempts: { resolve: (value: { name: string }) => void; reject: (error: Error) => void }[] = [];
  const importer = vi.fn(
    () =>
      new Promise<{ name: string }>((resolve, reject) => {
        attempts.push({ resolve, reject });
      }),
  );
  return { importer, attempts };
}

function Probe({ lazy, wanted }: { lazy: LazyModule<{ name: string }>; wanted: boolean }) {
  const { module, loading, error, load } = useLazyModule(lazy, wanted);
  return (
    <div>
      <p>{module ? `loaded ${module.name}` : loading ? 'loading' : error ? `failed: ${(error as Error).message}` : 'idle'}</p>
      <button type="button" onClick={load}>
        Try again
      </button>
    </div>
  );
}

describe('lazyModule', () => {
  it('imports once, however often it is asked, and keeps the module', async () => {
    const { importer, attempts } = controlledImporter();
    const lazy = lazyModule(importer);
    lazy.load();
    lazy.load();
    expect(importer).toHaveBeenCalledTimes(1);
    expect(lazy.state()).toEqual({ module: null, loading: true, error: null });
    await act(async () => attempts[0]?.resolve({ name: 'view' }));
    lazy.load();
    expect(importer).toHaveBeenCalledTimes(1);
    expect(lazy.state()).toEqual({ module: { name: 'view' }, loading: false, error: null });
  });

  it('tries again after a failure, keeping the failure while the new attempt is under way', async () => {
    const { importer, attempts } = controlledImporter();
    const lazy = lazyModule(importer);
    lazy.load();
    const failure = new Error('Failed to fetch dynamically imported module');
    await act(async () => attempts[0]?.reject(failure));
    expect(lazy.state()).toEqual({ module: null, loading: false, error: failure });
    lazy.load();
    expect(importer).toHaveBeenCalledTimes(2);
    expect(lazy.state()).toEqual({ module: null, loading: true, error: failure });
    await act(async () => attempts[1]?.resolve({ name: 'view' }));
    expect(lazy.state().error).toBeNull();
  });
});

describe('useLazyModule', () => {
  it('loads nothing until wanted, then shows the module; a page mounted afresh has it at once', async () => {
    const { importer, attempts } = controlledImporter();
    const lazy = lazyModule(importer);
    const { rerender, unmount } = render(<Probe lazy={lazy} wanted={false} />);
    expect(screen.getByText('idle')).toBeInTheDocument();
    expect(importer).not.toHaveBeenCalled();
    rerender(<Probe lazy={lazy} wanted />);
    expect(screen.getByText('loading')).toBeInTheDocument();
    await act(async () => attempts[0]?.resolve({ name: 'view' }));
    expect(screen.getByText('loaded view')).toBeInTheDocument();
    unmount();
    render(<Probe lazy={lazy} wanted />);
    expect(screen.getByText('loaded view')).toBeInTheDocument();
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('says why it failed, and load tries again', async () => {
    const { importer, attempts } = controlledImporter();
    render(<Probe lazy={lazyModule(importer)} wanted />);
    await act(async () => attempts[0]?.reject(new Error('offline')));
    expect(screen.getByText('failed: offline')).toBeInTheDocument();
    act(() => screen.getByRole('button', { name: 'Try again' }).click());
    expect(importer).toHaveBeenCalledTimes(2);
    await act(async () => attempts[1]?.resolve({ name: 'view' }));
    expect(screen.getByText('loaded view')).toBeInTheDocument();
  });
});

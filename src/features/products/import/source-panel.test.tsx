import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { render } from '@/test/render';
import { SourcePanel } from './source-panel';

const SAMPLE = 'Café Crème „Größe“ – 5 €;enc-1;4,50';

describe('SourcePanel', () => {
  it.each([
    ['valid-utf-8', /^Read as UTF-8: the file is valid UTF-8\./],
    ['bom', /^Read as UTF-8: the file says so \(a byte order mark\)\./],
  ] as const)('says a UTF-8 file was read as UTF-8 (%s), calmly, with its sample line', (how, said) => {
    render(
      <SourcePanel source={{ kind: 'text', encoding: 'utf-8', how, sample: SAMPLE, unreadable: 0 }} canChoose={false} onChoose={vi.fn()} />,
    );
    const status = screen.getByRole('status', { name: 'How the file was read' });
    expect(status).toHaveTextContent(said);
    expect(screen.getByTestId('sample-line')).toHaveTextContent(SAMPLE, { normalizeWhitespace: false });
    // Nothing in doubt: no warning to check the file.
    expect(screen.queryByText('Check how the file was read')).toBeNull();
  });
});

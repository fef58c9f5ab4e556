import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render } from '@/test/render';
import { GrantsMatrix } from './grants-matrix';
import { grantsFromMatrix, matrixFromGrants } from './grants-matrix-model';

const SITES = [
  { id: 'harbour-linen', name: 'Harbour Linen' },
  { id: 'summit-outfitters', name: 'Summit Outfitters' },
];

function Harness({ onGrants }: { onGrants: (grants: unknown) => void }) {
  const ids = SITES.map((site) => site.id);
  const [matrix, setMatrix] = useState(() => matrixFromGrants([{ siteId: 'harbour-linen', role: 'support' }], ids));
  return (
    <GrantsMatrix
      name="test"
      sites={SITES}
      value={matrix}
      onChange={(next) => {
        setMatrix(next);
        onGrants(grantsFromMatrix(next, ids));
      }}
    />
  );
}

describe('the roles matrix', () => {
  it('shows a row for every site and each site, with the person’s role chosen', () => {
    render(<Harness onGrants={() => undefined} />);
    expect(screen.getByRole('radiogroup', { name: 'Role on every site' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Support on Harbour Linen' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'No role on Summit Outfitters' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'No role on every site' })).toBeChecked();
  });

  it('changes one row by click or by the keyboard, leaving the others', async () => {
    const user = userEvent.setup();
    let grants: unknown = null;
    render(<Harness onGrants={(next) => (grants = next)} />);
    await user.click(screen.getByRole('radio', { name: 'Editor on Summit Outfitters' }));
    expect(grants).toEqual([
      { siteId: 'harbour-linen', role: 'support' },
      { siteId: 'summit-outfitters', role: 'editor' },
    ]);
    // Arrow keys move within the row's group, as in any radio group.
    await user.click(screen.getByRole('radio', { name: 'Support on Harbour Linen' }));
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('radio', { name: 'Editor on Harbour Linen' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Editor on Summit Outfitters' })).toBeChecked();
  });
});

import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { render } from '@/test/render';
import { ProfileCheck } from './profile-check';

const paste = (text: string) =>
  fireEvent.change(screen.getByRole('textbox', { name: /Site profile \(JSON\)/ }), { target: { value: text } });

describe('ProfileCheck', { timeout: 20_000 }, () => {
  it('names every problem by its JSON path, as the server would refuse to start', async () => {
    const user = userEvent.setup();
    render(<ProfileCheck />);
    expect(screen.getByRole('button', { name: 'Check profile' })).toBeDisabled();
    paste(JSON.stringify({ sites: [{ id: 'Bad Id', name: 'X', platform: { sandbox: true, siteId: '1' }, money: { decimals: 3 } }] }));
    await user.click(screen.getByRole('button', { name: 'Check profile' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('2 problems: the server would refuse to start');
    expect(alert).toHaveTextContent('sites[0].id: must be lower-case letters and digits joined by hyphens');
    expect(alert).toHaveTextContent('sites[0].money.decimals: must be one of 2, 4');
  });

  it('says a valid profile is valid, with its sites', async () => {
    const user = userEvent.setup();
    render(<ProfileCheck />);
    paste(JSON.stringify({ sites: [{ id: 'harbour-linen', name: 'Harbour Linen', platform: { sandbox: true, siteId: '1001' } }] }));
    await user.click(screen.getByRole('button', { name: 'Check profile' }));
    expect(await screen.findByRole('status')).toHaveTextContent('1 site: Harbour Linen (harbour-linen)');
  });
});

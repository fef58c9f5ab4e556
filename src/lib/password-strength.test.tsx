import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { render } from '@/test/render';
import { PasswordStrength } from './password-strength';

describe('the password strength meter', () => {
  it('calls a common password very weak, and a long passphrase strong', async () => {
    const { rerender } = render(<PasswordStrength password="password123" userInputs={[]} minLength={15} />);
    const meter = screen.getByRole('meter', { name: 'Password strength' });
    await expect.poll(() => meter.getAttribute('aria-valuetext')).toBe('Very weak');
    rerender(<PasswordStrength password="velvet quarry lantern orchard" userInputs={[]} minLength={15} />);
    await expect.poll(() => meter.getAttribute('aria-valuetext')).toMatch(/^(Strong|Very strong)$/);
    expect(screen.getByText('29 of at least 15 characters')).toBeInTheDocument();
  });

  it('never calls a password shorter than the minimum strong, and counts the person’s own name as a guess', async () => {
    const { rerender } = render(<PasswordStrength password="Zq8#vL2!pR" userInputs={[]} minLength={15} />);
    const meter = screen.getByRole('meter', { name: 'Password strength' });
    await expect.poll(() => meter.getAttribute('aria-valuetext')).toMatch(/^(Very weak|Weak)$/);
    rerender(<PasswordStrength password="margaretthornbury" userInputs={['Margaret Thornbury', 'margaretthornbury']} minLength={15} />);
    await expect.poll(() => meter.getAttribute('aria-valuetext')).toMatch(/^(Very weak|Weak)$/);
  });
});

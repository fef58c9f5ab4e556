import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { render } from '@/test/render';
import { LookupForm } from './lookup-form';

function setup(defaults = { form: '', id: '' }) {
  const onLookup = vi.fn();
  const user = userEvent.setup({ delay: null });
  render(<LookupForm defaultForm={defaults.form} defaultId={defaults.id} pending={false} onLookup={onLookup} />);
  return {
    onLookup,
    user,
    form: screen.getByRole('textbox', { name: 'Form identifier' }),
    id: screen.getByRole('textbox', { name: 'Case identifier' }),
    submit: screen.getByRole('button', { name: 'Look up case' }),
  };
}

describe('LookupForm', () => {
  it('puts the form first, then the case, and looks up on Enter with trimmed identifiers', async () => {
    const { user, form, id, onLookup } = setup();
    await user.tab();
    expect(form).toHaveFocus();
    await user.keyboard('  3 ');
    await user.tab();
    expect(id).toHaveFocus();
    await user.keyboard(' 48217\t{Shift>}{Tab}{/Shift}{Enter}');
    expect(onLookup).toHaveBeenCalledWith('3', '48217');
    expect(form).toHaveValue('3');
  });

  it.each([
    ['https://admin.example.com/cases/3/48217'],
    ['/cases/3/48217'],
    ['3/48217'],
    ['forms/3/cases/48217'],
  ])('fills both fields from a pasted %s', async (link) => {
    const { user, form, id } = setup();
    await user.click(form);
    await user.paste(link);
    expect(form).toHaveValue('3');
    expect(id).toHaveValue('48217');
  });

  it('fills both fields from a link pasted into the case field too', async () => {
    const { user, form, id } = setup();
    await user.click(id);
    await user.paste('/cases/12/48311');
    expect(form).toHaveValue('12');
    expect(id).toHaveValue('48311');
  });

  it('catches empty and impossible identifiers before sending, beside the field', async () => {
    const { user, form, id, submit, onLookup } = setup();
    await user.click(submit);
    expect(onLookup).not.toHaveBeenCalled();
    expect(form).toHaveAttribute('aria-invalid', 'true');
    expect(form).toHaveAccessibleDescription(/The form identifier is empty/);
    expect(id).toHaveAccessibleDescription(/The case identifier is empty/);
    expect(form).toHaveFocus();

    await user.type(form, '3');
    expect(form).not.toHaveAttribute('aria-invalid', 'true');
    await user.type(id, '482 17');
    await user.click(submit);
    expect(id).toHaveAccessibleDescription(/may contain only ASCII letters \(A–Z, a–z\), digits \(0–9\), "_" and "-", not a space/);
    expect(id).toHaveFocus();
    await user.clear(id);
    await user.type(id, 'x'.repeat(65));
    await user.click(submit);
    expect(id).toHaveAccessibleDescription(/longer than 64 characters/);
    expect(onLookup).not.toHaveBeenCalled();
  });

  it('starts from the identifiers of the link it was opened with', () => {
    const { form, id } = setup({ form: '7', id: '48260' });
    expect(form).toHaveValue('7');
    expect(id).toHaveValue('48260');
  });
});

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
    expect(onLookup).toHaveBeenCalledWith({ form: '3', id: '48217', formReadFrom: null });
    expect(form).toHaveValue('3');
  });

  it.each([['https://admin.example.com/cases/3/48217'], ['/cases/3/48217'], ['3/48217'], ['forms/3/cases/48217']])(
    'fills both fields from a pasted %s',
    async (link) => {
      const { user, form, id } = setup();
      await user.click(form);
      await user.paste(link);
      expect(form).toHaveValue('3');
      expect(id).toHaveValue('48217');
    },
  );

  it.each([['a/b'], ['/cases/12/48311'], ['12/48311']])('takes %j in the case box as typed, never as a link', async (text) => {
    const { user, form, id, submit, onLookup } = setup({ form: '3', id: '' });
    await user.click(id);
    await user.paste(text);
    expect(form).toHaveValue('3');
    expect(id).toHaveValue(text);
    await user.click(submit);
    expect(onLookup).not.toHaveBeenCalled();
    expect(id).toHaveAccessibleDescription(/not “\/”\. To look up a case by its link, paste the link into the form identifier box\./);
  });

  it('reads form_3 in the form box as form 3, and says so beside it', async () => {
    const { user, form, id, submit, onLookup } = setup();
    await user.type(form, ' form_3 ');
    await user.type(id, '48217');
    await user.click(submit);
    expect(onLookup).toHaveBeenCalledWith({ form: '3', id: '48217', formReadFrom: 'form_3' });
    expect(form).toHaveValue('3');
    expect(form).toHaveAccessibleDescription(/^“form_3” read as form 3, its number$/);
  });

  it('reads a link with a schema name whole, then the schema name as the number', async () => {
    const { user, form, id, submit, onLookup } = setup();
    await user.click(form);
    await user.paste('https://admin.example.com/cases/form_7/48260');
    expect(id).toHaveValue('48260');
    await user.click(submit);
    expect(onLookup).toHaveBeenCalledWith({ form: '7', id: '48260', formReadFrom: 'form_7' });
  });

  it('tells the page of every edit, with both boxes as they stand', async () => {
    const onEdit = vi.fn();
    const user = userEvent.setup({ delay: null });
    render(<LookupForm defaultForm="3" defaultId="1" pending={false} onLookup={vi.fn()} onEdit={onEdit} />);
    await user.type(screen.getByRole('textbox', { name: 'Case identifier' }), '2');
    expect(onEdit).toHaveBeenLastCalledWith('3', '12');
    await user.click(screen.getByRole('textbox', { name: 'Form identifier' }));
    await user.paste('/cases/7/9');
    expect(onEdit).toHaveBeenLastCalledWith('7', '9');
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
    expect(id).toHaveAttribute('aria-invalid', 'true');
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

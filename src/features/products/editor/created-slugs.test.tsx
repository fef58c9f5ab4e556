import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render } from '@/test/render';
import { settingsForLocale } from '../model/codec';
import { emptyProduct } from '../model/product-form';
import { ProductEditor } from './product-editor';

const AT = Date.UTC(2026, 10, 25, 9, 30);

function renderEditor() {
  render(
    <ProductEditor
      defaultValues={emptyProduct()}
      settings={settingsForLocale('en-US')}
      targetName="Harbour Linen"
      submitting={false}
      onSubmit={vi.fn()}
      onValuesChange={vi.fn()}
      onDirtyChange={vi.fn()}
      createdSlugs={new Map([['linen-throw', { by: 'Olivia Marsh', at: AT }]])}
    />,
  );
  return userEvent.setup();
}

describe('the warning of a slug already created', { timeout: 30_000 }, () => {
  beforeEach(() => {
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  });

  it('names who created the slug on the site and when, as the name suggests it or as it is typed', async () => {
    const user = renderEditor();
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Linen throw');
    const warning = await screen.findByTestId('created-slug-warning');
    expect(warning).toHaveTextContent('“linen-throw” was already created on Harbour Linen by Olivia Marsh');
    expect(warning.querySelector('time')).toHaveAttribute('datetime', new Date(AT).toISOString());

    const slug = screen.getByRole('textbox', { name: 'Slug' });
    await user.clear(slug);
    await user.type(slug, 'linen-throw-2');
    expect(screen.queryByTestId('created-slug-warning')).toBeNull();
    await user.clear(slug);
    await user.type(slug, ' linen-throw ');
    expect(await screen.findByTestId('created-slug-warning')).toHaveTextContent('by Olivia Marsh');
  });
});

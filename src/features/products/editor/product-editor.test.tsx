import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { render } from '@/test/render';
import { encodeProduct, settingsForLocale, type FormProblem, type ProductSettings } from '../model/codec';
import { DATE_REASONS } from '../model/dates';
import { MONEY_REASONS } from '../model/money';
import { emptyProduct, type ProductForm } from '../model/product-form';
import { ProductEditor } from './product-editor';

const SLUG_RULE = 'must be lower-case letters and digits in words joined by single hyphens';

function setup({
  refuse = [],
  defaultValues = emptyProduct(),
  initialStep,
  settings = settingsForLocale('en-US'),
}: { refuse?: FormProblem[]; defaultValues?: ProductForm; initialStep?: number; settings?: ProductSettings } = {}) {
  const user = userEvent.setup();
  const onSubmit = vi.fn<(values: ProductForm) => void>();
  const onValuesChange = vi.fn<(read: () => ProductForm, step: number) => void>();
  const onDirtyChange = vi.fn<(dirty: boolean) => void>();
  /** As a page does: sends the values, and hands back the problems a server named on fields. */
  function Page() {
    const [errors, setErrors] = useState<readonly FormProblem[]>([]);
    const submit = (values: ProductForm) => {
      onSubmit(values);
      if (refuse.length > 0) setErrors(refuse);
    };
    return (
      <ProductEditor
        defaultValues={defaultValues}
        settings={settings}
        targetName="Sandbox"
        initialStep={initialStep}
        submitting={false}
        onSubmit={submit}
        errors={errors}
        onValuesChange={onValuesChange}
        onDirtyChange={onDirtyChange}
      />
    );
  }
  render(<Page />);
  /** What the page would send: the submitted values, encoded once at its boundary. */
  const sent = () => {
    const values = onSubmit.mock.calls[0]?.[0];
    return values && encodeProduct(values, settings).body;
  };
  return { user, onSubmit, sent, onValuesChange, onDirtyChange };
}

const nameInput = () => screen.getByRole('textbox', { name: /^Name/ });
const slugInput = () => screen.getByRole('textbox', { name: 'Slug' });
const nextButton = (label: string) => screen.getByRole('button', { name: `Next: ${label}` });

/** From Basics with a valid name, through the steps (nothing else filled) to the one named. */
async function advance(user: UserEvent, name: string, to: 'pricing' | 'attributes' | 'review') {
  await user.type(nameInput(), name);
  await user.click(nextButton('Placement and details'));
  await user.click(await screen.findByRole('button', { name: 'Next: Pricing and inventory' }));
  if (to === 'pricing') return;
  await user.click(await screen.findByRole('button', { name: 'Next: Attributes and options' }));
  if (to === 'attributes') return;
  await user.click(await screen.findByRole('button', { name: 'Next: Review' }));
}

// Mantine and jsdom are slow to warm up on a busy machine; the first render alone can take seconds.
describe('ProductEditor', { timeout: 30_000 }, () => {
  beforeEach(() => {
    // jsdom does not implement scrolling; the editor scrolls to the top on every step change.
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  });

  it('stays on Basics and marks Name when Next is pressed without a name', async () => {
    const { user } = setup();
    await user.click(nextButton('Placement and details'));
    expect(nameInput()).toHaveAttribute('aria-invalid', 'true');
    expect(nameInput()).toHaveAccessibleDescription('Name is required');
    expect(nextButton('Placement and details')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Categories' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: '1 Basics, has errors' })).toBeInTheDocument();
    await waitFor(() => expect(nameInput()).toHaveFocus());
  });

  it('clears the Name error as soon as a name is typed, then Next advances', async () => {
    const { user } = setup();
    await user.click(nextButton('Placement and details'));
    expect(nameInput()).toHaveAttribute('aria-invalid', 'true');

    await user.type(nameInput(), 'Blue mug');
    expect(nameInput()).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Name is required')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: '1 Basics' })).toBeInTheDocument();

    await user.click(nextButton('Placement and details'));
    expect(await screen.findByRole('heading', { name: 'Catalogue placement' })).toBeInTheDocument();
    expect(nextButton('Pricing and inventory')).toBeInTheDocument();
  });

  it('blocks Next on a slug that is not lower-case words joined by hyphens', async () => {
    const { user } = setup();
    await user.type(nameInput(), 'Blue mug');
    await user.clear(slugInput());
    await user.type(slugInput(), 'Bad Slug');
    await user.click(nextButton('Placement and details'));
    expect(slugInput()).toHaveAttribute('aria-invalid', 'true');
    expect(slugInput()).toHaveAccessibleDescription(expect.stringContaining(SLUG_RULE));
    expect(nextButton('Placement and details')).toBeInTheDocument();
    expect(nameInput()).not.toHaveAttribute('aria-invalid');
  });

  it('suggests a slug from the name until the slug is edited by hand', async () => {
    const { user } = setup();
    await user.type(nameInput(), 'Crème Brûlée & Co');
    expect(slugInput()).toHaveValue('creme-brulee-and-co');

    await user.type(slugInput(), '-2');
    await user.type(nameInput(), ' deluxe');
    expect(slugInput()).toHaveValue('creme-brulee-and-co-2');

    // An emptied slug follows the name again.
    await user.clear(slugInput());
    await user.type(nameInput(), '!');
    expect(slugInput()).toHaveValue('creme-brulee-and-co-deluxe');
  });

  it('blocks Next on the Pricing step while a price cell cannot be read', async () => {
    const { user } = setup();
    await advance(user, 'Blue mug', 'pricing');
    const cell = await screen.findByRole('textbox', { name: 'USD Price' });
    await user.type(cell, 'abc');
    await user.click(nextButton('Attributes and options'));

    expect(screen.getByRole('textbox', { name: 'USD Price' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: 'USD Price' })).toHaveAccessibleDescription(MONEY_REASONS.notANumber);
    expect(nextButton('Attributes and options')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add attribute' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: '3 Pricing and inventory, has errors' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'USD Price' })).toHaveFocus());
  });

  it('lists problems on Review as links that open the field’s step', async () => {
    const { user } = setup();
    await advance(user, 'Blue mug', 'review');
    expect(await screen.findByText('Ready to create')).toBeInTheDocument();

    // Back to Basics to break the name, then straight back to Review from the stepper.
    await user.click(screen.getByRole('button', { name: 'Edit Basics' }));
    await user.clear(nameInput());
    await user.click(screen.getByRole('button', { name: /^5 Review/ }));

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('1 problem to fix before creating')).toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: 'Basics › Name: Name is required' }));

    expect(await screen.findByRole('textbox', { name: /^Name/ })).toHaveAccessibleDescription('Name is required');
    expect(nextButton('Placement and details')).toBeInTheDocument();
    await waitFor(() => expect(nameInput()).toHaveFocus());
  });

  it('submits once on Create product, however fast the clicks, values that encode to the exact wire body', async () => {
    const { user, onSubmit, sent } = setup();
    await user.type(nameInput(), 'Blue mug');
    await user.click(nextButton('Placement and details'));
    await user.click(await screen.findByRole('button', { name: 'Next: Pricing and inventory' }));
    await user.type(await screen.findByRole('textbox', { name: 'USD Price' }), '19.99');
    await user.type(screen.getByRole('textbox', { name: 'EUR Display price (RRP)' }), '1,299.5');
    await user.click(nextButton('Attributes and options'));
    await user.click(await screen.findByRole('button', { name: 'Next: Review' }));

    await user.dblClick(await screen.findByRole('button', { name: 'Create product' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(sent()).toStrictEqual({
      name: 'Blue mug',
      slug: 'blue-mug',
      enabled: 'true',
      'module_field_14/product/price/usd/1': '1999',
      'module_field_14/product/price/eur/2': '129950',
    });
  });

  it('lists the fields the platform refused on Review, each a link, and marks them', async () => {
    const { user, onSubmit } = setup({ refuse: [{ path: 'slug', message: 'is already used' }] });
    await advance(user, 'Blue mug', 'review');
    await user.click(await screen.findByRole('button', { name: 'Create product' }));

    // Visible without going back: the refused field is listed where the person is.
    const link = await screen.findByRole('button', { name: 'Basics › Slug: is already used' });
    expect(screen.queryByText('Ready to create')).not.toBeInTheDocument();
    expect(onSubmit).toHaveBeenCalledTimes(1);
    await user.click(link);
    expect(await screen.findByRole('textbox', { name: 'Slug' })).toHaveAccessibleDescription(expect.stringContaining('is already used'));
    expect(slugInput()).toHaveAttribute('aria-invalid', 'true');
    expect(slugInput()).toHaveValue('blue-mug');
    await waitFor(() => expect(slugInput()).toHaveFocus());
  });

  it('goes to the next step on Ctrl+Enter from any field, and lists the shortcuts on ?', async () => {
    const { user } = setup();
    await waitFor(() => expect(nameInput()).toHaveFocus());
    await user.keyboard('Mug{Control>}{Enter}{/Control}');
    expect(await screen.findByRole('heading', { name: 'Catalogue placement' })).toBeInTheDocument();
    // In a text area Enter is a new line; Ctrl+Enter still moves on.
    await user.click(screen.getByRole('textbox', { name: 'Product field 1' }));
    await user.keyboard('line one{Enter}line two{Control>}{Enter}{/Control}');
    expect(await screen.findByRole('heading', { name: 'Prices' })).toBeInTheDocument();
    await user.click(document.body);
    await user.keyboard('?');
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(help).getByText('Next step; on Review, create the product')).toBeInTheDocument();
  });

  it('marks unnamed attributes and options when Next is pressed on Attributes', async () => {
    const { user } = setup();
    await advance(user, 'Blue mug', 'attributes');
    await user.click(await screen.findByRole('button', { name: 'Add attribute' }));
    await user.click(nextButton('Review'));

    const attribute = screen.getByRole('textbox', { name: /^Attribute name/ });
    const option = screen.getByRole('textbox', { name: /^Option name/ });
    expect(attribute).toHaveAttribute('aria-invalid', 'true');
    expect(attribute).toHaveAccessibleDescription('Attribute name is required');
    expect(option).toHaveAttribute('aria-invalid', 'true');
    expect(option).toHaveAccessibleDescription('Option name is required');
    expect(nextButton('Review')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '4 Attributes and options, has errors' })).toBeInTheDocument();
  });

  it('blocks Next on a half-typed release date instead of leaving it out', async () => {
    const { user } = setup();
    await user.type(nameInput(), 'Blue mug');
    const release = screen.getByRole('textbox', { name: 'Release date' });
    await user.type(release, '2026-03');
    await user.click(nextButton('Placement and details'));
    expect(release).toHaveAttribute('aria-invalid', 'true');
    expect(release).toHaveAccessibleDescription(expect.stringContaining(DATE_REASONS.unreadable));
    expect(nextButton('Placement and details')).toBeInTheDocument();
    await waitFor(() => expect(release).toHaveFocus());

    // A date alone is a whole date: the start of that day.
    await user.type(release, '-01');
    expect(release).not.toHaveAttribute('aria-invalid');
    await user.click(nextButton('Placement and details'));
    expect(await screen.findByRole('heading', { name: 'Catalogue placement' })).toBeInTheDocument();
  });

  it('in de-DE, refuses 1,299 (three decimals) on Next, as its cell shows, and sends 1.299,95 as 129995', async () => {
    const { user, onSubmit, sent } = setup({ settings: settingsForLocale('de-DE') });
    await advance(user, 'Becher', 'pricing');
    const cell = await screen.findByRole('textbox', { name: 'EUR Price' });
    await user.type(cell, '1,299');
    await user.click(nextButton('Attributes and options'));
    expect(cell).toHaveAttribute('aria-invalid', 'true');
    expect(cell).toHaveAccessibleDescription(MONEY_REASONS.tooManyDecimals);
    expect(nextButton('Attributes and options')).toBeInTheDocument();

    await user.clear(cell);
    await user.type(cell, '1.299,95');
    await user.click(nextButton('Attributes and options'));
    await user.click(await screen.findByRole('button', { name: 'Next: Review' }));
    expect(await screen.findByText('Ready to create')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create product' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(sent()).toMatchObject({ 'module_field_14/product/price/eur/1': '129995' });
  });

  it('reports the values as the user types, for the draft autosave', async () => {
    const { user, onValuesChange, onDirtyChange } = setup();
    await user.type(nameInput(), 'Mug');
    const [read, step] = onValuesChange.mock.lastCall ?? [];
    expect(read?.()).toEqual(expect.objectContaining({ name: 'Mug', slug: 'mug' }));
    expect(step).toBe(0);
    expect(onDirtyChange).toHaveBeenLastCalledWith(true);
  });

  it('lists the problems of a product reopened on the Review step', async () => {
    // A draft saved on Review is restored there (initialStep 4); it must not claim to be ready.
    setup({ initialStep: 4 });
    expect(await screen.findByRole('button', { name: 'Create product' })).toBeInTheDocument();
    expect(screen.queryByText('Ready to create')).not.toBeInTheDocument();
    expect(screen.getByText('1 problem to fix before creating')).toBeInTheDocument();
  });
});

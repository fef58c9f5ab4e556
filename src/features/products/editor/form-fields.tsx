/**
 * Inputs bound to the editor's form. Uncontrolled where possible (register), so a keystroke re-renders
 * only the field that changed; each field subscribes to its own error only. `RegistryField` renders the
 * control of any field of the registry by its kind.
 */
import '@mantine/dates/styles.css';
import {
  ActionIcon,
  MultiSelect,
  Popover,
  Select,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  type TextareaProps,
  type TextInputProps,
} from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import { useState } from 'react';
import { Controller, get, useFormContext, useFormState, useWatch, type FieldPath } from 'react-hook-form';
import { describeInstant, localTimeZone, parseDateText, withPickedDay } from '../model/dates';
import type { ProductForm } from '../model/product-form';
import type { FieldDef } from '../model/registry';
import { useMarkChanged } from './change-signal';
import { useProductSettings } from './settings';

export type FormPath = FieldPath<ProductForm>;

/** The error message at one path; re-renders only when that path's error changes. */
export function useFieldError(path: FormPath): string | undefined {
  const { control } = useFormContext<ProductForm>();
  const { errors } = useFormState({ control, name: path, exact: true });
  // react-hook-form's `get` answers `any`: the error at a path, typed here.
  const error: { message?: string } | undefined = get(errors, path);
  return error?.message;
}

/** Clears the error of a field as soon as it is edited, without touching anything else. */
function useClearOnEdit(path: FormPath, error: string | undefined) {
  const { clearErrors } = useFormContext<ProductForm>();
  return error ? () => clearErrors(path) : undefined;
}

type TextFieldProps = Omit<TextInputProps, 'name' | 'error'> & {
  path: FormPath;
  /** Called with the new text on every edit (e.g. to suggest a slug from the name). */
  onEdit?: (value: string) => void;
};

export function TextField({ path, onEdit, ...props }: TextFieldProps) {
  const { register } = useFormContext<ProductForm>();
  const error = useFieldError(path);
  const clear = useClearOnEdit(path, error);
  const onChange =
    clear || onEdit
      ? (event: { target: { value: string } }) => {
          clear?.();
          onEdit?.(event.target.value);
        }
      : undefined;
  return <TextInput {...props} {...register(path, { onChange })} error={error} />;
}

type TextAreaFieldProps = Omit<TextareaProps, 'name' | 'error'> & { path: FormPath };

export function TextAreaField({ path, ...props }: TextAreaFieldProps) {
  const { register } = useFormContext<ProductForm>();
  const error = useFieldError(path);
  const clear = useClearOnEdit(path, error);
  return <Textarea autosize minRows={2} maxRows={10} {...props} {...register(path, { onChange: clear })} error={error} />;
}

export function SwitchField({ path, label, description }: { path: FormPath; label: string; description?: string }) {
  const { control } = useFormContext<ProductForm>();
  return (
    <Controller
      control={control}
      name={path}
      render={({ field, fieldState }) => (
        <Switch
          label={label}
          description={description}
          checked={field.value === true}
          onChange={(event) => field.onChange(event.currentTarget.checked)}
          onBlur={field.onBlur}
          ref={field.ref}
          name={field.name}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

/**
 * What the typed date means, in words, under the field: the person sees how it was read (local time with
 * its zone, and UTC) before anything is sent. Nothing while the text cannot be read: the error says why.
 */
function DateMeaning({ path, blankMeans }: { path: FormPath; blankMeans: string }) {
  const { control } = useFormContext<ProductForm>();
  const { locale } = useProductSettings();
  const text = String(useWatch({ control, name: path }) ?? '');
  const parsed = parseDateText(text, locale);
  if (!parsed.ok) return null;
  if (parsed.epoch === null) return <>Empty: {blankMeans}.</>;
  const { local, utc } = describeInstant(parsed.epoch, locale);
  return (
    <>
      {local}
      {parsed.dateOnly ? ', the start of that day' : ''} · {utc}
    </>
  );
}

function CalendarIcon() {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <rect x="3" y="5" width="18" height="16" rx="2" />
      <path d="M16 3v4M8 3v4M3 10h18" />
    </svg>
  );
}

/**
 * A date as people type it (a date alone, or a date and time, in ISO or the locale's order) or pick it
 * from a calendar. The text is kept as typed: the codec reads it, and what it cannot read is an error on
 * this field, never a silently empty date.
 */
export function DateField({ path, label, hint, blankMeans }: { path: FormPath; label: string; hint?: string; blankMeans: string }) {
  const { register, setValue, getValues } = useFormContext<ProductForm>();
  const markChanged = useMarkChanged();
  const error = useFieldError(path);
  const clear = useClearOnEdit(path, error);
  const [open, setOpen] = useState(false);
  const picked = /^(\d{4}-\d{2}-\d{2})/.exec(String(getValues(path) ?? ''))?.[1] ?? null;
  return (
    <TextInput
      {...register(path, { onChange: clear })}
      label={label}
      // How the text was read goes in Mantine's description, which the input's aria-describedby names
      // (Mantine replaces any aria-describedby of ours): under the input, where it follows the typing.
      description={
        <>
          {`${hint ? `${hint} ` : ''}In your time zone, ${localTimeZone()}.`}
          <Text span inherit display="block" id={`${path}-meaning`} data-testid={`${path}-meaning`}>
            <DateMeaning path={path} blankMeans={blankMeans} />
          </Text>
        </>
      }
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      placeholder="YYYY-MM-DD HH:mm"
      autoComplete="off"
      spellCheck={false}
      error={error}
      rightSectionWidth={40}
      rightSection={
        <Popover opened={open} onChange={setOpen} position="bottom-end" withinPortal trapFocus returnFocus>
          <Popover.Target>
            <ActionIcon variant="subtle" aria-label={`Pick ${label.toLowerCase()} from a calendar`} onClick={() => setOpen((o) => !o)}>
              <CalendarIcon />
            </ActionIcon>
          </Popover.Target>
          <Popover.Dropdown>
            <DatePicker
              value={picked}
              defaultDate={picked ?? undefined}
              onChange={(day) => {
                if (!day) return;
                setValue(path, withPickedDay(String(getValues(path) ?? ''), day), { shouldDirty: true });
                clear?.();
                markChanged();
                setOpen(false);
              }}
            />
          </Popover.Dropdown>
        </Popover>
      }
    />
  );
}

/**
 * A list of identifiers: picked by name, with search, when the site's profile names them; typed as tags
 * otherwise. An id the site's list does not name (from an imported product) is kept and shown as such.
 */
export function ReferencesField({
  path,
  label,
  description,
  named,
}: {
  path: FormPath;
  label: string;
  description?: string;
  named?: readonly { value: string; label: string }[];
}) {
  const { control } = useFormContext<ProductForm>();
  const markChanged = useMarkChanged();
  return (
    <Controller
      control={control}
      name={path}
      render={({ field, fieldState }) => {
        const value = field.value as string[];
        // What both controls share: the field's label, value, error and wiring to the form.
        const common = {
          label,
          description,
          value,
          onChange: (next: string[]) => {
            field.onChange(next.map((v) => v.trim()).filter(Boolean));
            // Removing a tag with its button fires no input event.
            markChanged();
          },
          onBlur: field.onBlur,
          ref: field.ref,
          name: field.name,
          clearable: true,
          error: fieldState.error?.message,
        };
        if (named) {
          const known = new Set(named.map((entry) => entry.value));
          const data = [
            ...named,
            ...value.filter((id) => !known.has(id)).map((id) => ({ value: id, label: `${id} (not in this site’s list)` })),
          ];
          return (
            <MultiSelect
              {...common}
              data={data}
              searchable
              hidePickedOptions
              nothingFoundMessage="No such name in this site’s list"
              placeholder={value.length === 0 ? 'Type to search by name' : undefined}
            />
          );
        }
        return <TagsInput {...common} splitChars={[',', ' ', ';']} acceptValueOnBlur placeholder="Type an identifier and press Enter" />;
      }}
    />
  );
}

function ChoiceField({
  path,
  label,
  description,
  options,
}: {
  path: FormPath;
  label: string;
  description?: string;
  options: readonly { value: string; label: string }[];
}) {
  const { control } = useFormContext<ProductForm>();
  const markChanged = useMarkChanged();
  return (
    <Controller
      control={control}
      name={path}
      render={({ field, fieldState }) => (
        <Select
          label={label}
          description={description}
          data={options.map((o) => ({ value: o.value, label: o.label }))}
          value={(field.value as string) || null}
          onChange={(value) => {
            field.onChange(value ?? '');
            markChanged();
          }}
          onBlur={field.onBlur}
          ref={field.ref}
          name={field.name}
          clearable
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

/** The control of one registry field at `base` + its path (base "" for the product, else `attributes.0.`). */
export function RegistryField({
  def,
  base = '',
  ...rest
}: { def: FieldDef; base?: string } & Pick<TextInputProps, 'withAsterisk' | 'maw'>) {
  const path = `${base}${def.path}` as FormPath;
  switch (def.kind) {
    case 'text':
      return (
        <TextField
          path={path}
          label={def.label}
          description={def.hint}
          autoComplete="off"
          spellCheck={def.trim ? false : undefined}
          withAsterisk={def.required}
          {...rest}
        />
      );
    case 'integer':
      return <TextField path={path} label={def.label} description={def.hint} inputMode="numeric" autoComplete="off" {...rest} />;
    case 'multiline':
      return <TextAreaField path={path} label={def.label} description={def.hint} />;
    case 'boolean':
      return <SwitchField path={path} label={def.label} description={def.hint} />;
    case 'datetime':
      return <DateField path={path} label={def.label} hint={def.hint} blankMeans={def.blankMeans} />;
    case 'references':
      return <ReferencesField path={path} label={def.label} description={def.hint} named={def.named} />;
    case 'choice':
      return <ChoiceField path={path} label={def.label} description={def.hint} options={def.options} />;
    case 'money':
      // Money cells live in their grid (PriceGrid), never alone.
      return null;
  }
}

/**
 * Inputs bound to the editor's form. Uncontrolled where possible (register), so a keystroke re-renders
 * only the field that changed; each field subscribes to its own error only.
 */
import { Switch, Textarea, TextInput, type TextareaProps, type TextInputProps } from '@mantine/core';
import { Controller, get, useFormContext, useFormState, type FieldPath } from 'react-hook-form';
import type { ProductForm } from '../model/product-form';

export type FormPath = FieldPath<ProductForm>;

/** The error message at one path; re-renders only when that path's error changes. */
export function useFieldError(path: FormPath): string | undefined {
  const { control } = useFormContext<ProductForm>();
  const { errors } = useFormState({ control, name: path, exact: true });
  const error = get(errors, path) as { message?: string } | undefined;
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

/** A local date-time, shown by the browser's own date-time input (keyboard-friendly, no extra code). */
export function DateTimeField({ path, label, description }: { path: 'releaseAt' | 'expiryAt'; label: string; description?: string }) {
  const { control } = useFormContext<ProductForm>();
  return (
    <Controller
      control={control}
      name={path}
      render={({ field, fieldState }) => (
        <TextInput
          type="datetime-local"
          step={1}
          label={label}
          description={description}
          value={field.value.replace(' ', 'T')}
          onChange={(event) => {
            const raw = event.currentTarget.value;
            // The input gives "YYYY-MM-DDTHH:mm" or "...:ss"; the model keeps "YYYY-MM-DD HH:mm:ss".
            field.onChange(raw === '' ? '' : `${raw.replace('T', ' ')}${raw.length === 16 ? ':00' : ''}`);
          }}
          onBlur={field.onBlur}
          ref={field.ref}
          name={field.name}
          error={fieldState.error?.message}
        />
      )}
    />
  );
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

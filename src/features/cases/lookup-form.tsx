import { Box, Button, Group, TextInput } from '@mantine/core';
import { useRef, useState, type FormEvent } from 'react';
import { caseIdentifierViolations } from '@/contract/identifiers';
import { parseCaseLink } from './parse-case-link';
import classes from './cases.module.css';

interface LookupFormProps {
  defaultForm: string;
  defaultId: string;
  pending: boolean;
  onLookup: (form: string, id: string) => void;
}

interface FieldErrors {
  form?: string;
  id?: string;
}

/** Form and case identifiers; a pasted link or `form/id` in either box fills both. */
export function LookupForm({ defaultForm, defaultId, pending, onLookup }: LookupFormProps) {
  const [form, setForm] = useState(defaultForm);
  const [id, setId] = useState(defaultId);
  const [errors, setErrors] = useState<FieldErrors>({});
  const formInput = useRef<HTMLInputElement>(null);
  const idInput = useRef<HTMLInputElement>(null);

  const change = (field: 'form' | 'id', value: string) => {
    const link = value.includes('/') ? parseCaseLink(value) : null;
    if (link) {
      setForm(link.form);
      setId(link.id);
      setErrors({});
      return;
    }
    if (field === 'form') setForm(value);
    else setId(value);
    setErrors((was) => ({ ...was, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmedForm = form.trim();
    const trimmedId = id.trim();
    setForm(trimmedForm);
    setId(trimmedId);
    const violations = caseIdentifierViolations(trimmedForm, trimmedId);
    const next: FieldErrors = {};
    for (const violation of violations) {
      if (violation.field === 'form') next.form = violation.message;
      else next.id = violation.message;
    }
    setErrors(next);
    if (next.form) formInput.current?.focus();
    else if (next.id) idInput.current?.focus();
    else onLookup(trimmedForm, trimmedId);
  };

  return (
    <Box component="form" role="search" aria-label="Case lookup" onSubmit={submit} noValidate>
      <Group align="flex-start" gap="sm">
        <TextInput
          ref={formInput}
          label="Form identifier"
          description="e.g. 3, or paste a whole case link"
          value={form}
          onChange={(event) => change('form', event.currentTarget.value)}
          error={errors.form}
          classNames={{ description: classes.muted }}
          autoComplete="off"
          spellCheck={false}
          w={{ base: '100%', xs: 240 }}
        />
        <TextInput
          ref={idInput}
          label="Case identifier"
          description="e.g. 48217"
          value={id}
          onChange={(event) => change('id', event.currentTarget.value)}
          error={errors.id}
          classNames={{ description: classes.muted }}
          autoComplete="off"
          spellCheck={false}
          w={{ base: '100%', xs: 240 }}
        />
        <Button type="submit" loading={pending} mt={{ base: 0, xs: 44 }}>
          Look up case
        </Button>
      </Group>
    </Box>
  );
}

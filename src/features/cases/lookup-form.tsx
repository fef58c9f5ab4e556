import { Box, Button, TextInput } from '@mantine/core';
import { useRef, useState, type FormEvent } from 'react';
import { identifierProblem } from '@/contract/identifiers';
import { parseCaseLink, readFormBox } from './parse-case-link';
import classes from './cases.module.css';

export interface LookupRequest {
  form: string;
  id: string;
  /** What the form box held when it was read as another identifier (`form_3` → `3`). */
  formReadFrom: string | null;
}

interface LookupFormProps {
  defaultForm: string;
  defaultId: string;
  /** What the form box held when the lookup that opened this page read it as `defaultForm`. */
  defaultFormReadFrom?: string | null;
  pending: boolean;
  onLookup: (request: LookupRequest) => void;
  /** Every edit, with both boxes as they stand: the page drops an error about other identifiers. */
  onEdit?: (form: string, id: string) => void;
}

interface FieldErrors {
  form?: string;
  id?: string;
}

const FORM_HINT = 'e.g. 3, or paste a whole case link';

/**
 * Form and case identifiers. Only the form box reads a pasted link or `form/id` (and fills both boxes) or
 * a schema name (`form_3` is form `3`, and it says so); the case box takes what is typed as the case
 * identifier, and says why when it cannot be one.
 */
export function LookupForm({ defaultForm, defaultId, defaultFormReadFrom = null, pending, onLookup, onEdit }: LookupFormProps) {
  const [form, setForm] = useState(defaultForm);
  const [id, setId] = useState(defaultId);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formReadFrom, setFormReadFrom] = useState(defaultFormReadFrom);
  const formInput = useRef<HTMLInputElement>(null);
  const idInput = useRef<HTMLInputElement>(null);

  const changeForm = (value: string) => {
    const link = value.includes('/') ? parseCaseLink(value) : null;
    const next = link ?? { form: value, id };
    setForm(next.form);
    setId(next.id);
    setErrors(link ? {} : (was) => ({ ...was, form: undefined }));
    setFormReadFrom(null);
    onEdit?.(next.form, next.id);
  };

  const changeId = (value: string) => {
    setId(value);
    setErrors((was) => ({ ...was, id: undefined }));
    onEdit?.(form, value);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const reading = readFormBox(form.trim());
    const trimmedId = id.trim();
    setForm(reading.form);
    setId(trimmedId);
    if (reading.readFrom) setFormReadFrom(reading.readFrom);
    const next: FieldErrors = {};
    const formProblem = identifierProblem(reading.form, 'The form identifier');
    if (formProblem) next.form = formProblem;
    const idProblem = identifierProblem(trimmedId, 'The case identifier');
    if (idProblem) {
      // A link typed or pasted here is taken as it is, not re-read: say where a link goes.
      next.id = parseCaseLink(trimmedId)
        ? `${idProblem}. To look up a case by its link, paste the link into the form identifier box.`
        : idProblem;
    }
    setErrors(next);
    if (next.form) formInput.current?.focus();
    else if (next.id) idInput.current?.focus();
    else onLookup({ form: reading.form, id: trimmedId, formReadFrom: reading.readFrom });
  };

  // Short, so the two boxes stay level: the platform identifies a form by its number, and `form_3` is the
  // schema name the case record itself shows.
  const formDescription = formReadFrom ? `“${formReadFrom}” read as form ${form}, its number` : FORM_HINT;

  return (
    <Box component="form" role="search" aria-label="Case lookup" onSubmit={submit} noValidate className={classes.lookup}>
      <div className={classes.lookupRow}>
        <TextInput
          ref={formInput}
          label="Form identifier"
          description={formDescription}
          value={form}
          onChange={(event) => changeForm(event.currentTarget.value)}
          error={errors.form}
          classNames={{ root: classes.lookupField, description: formReadFrom ? classes.note : classes.muted }}
          autoComplete="off"
          spellCheck={false}
        />
        <TextInput
          ref={idInput}
          label="Case identifier"
          description="e.g. 48217"
          value={id}
          onChange={(event) => changeId(event.currentTarget.value)}
          error={errors.id}
          classNames={{ root: classes.lookupField, description: classes.muted }}
          autoComplete="off"
          spellCheck={false}
        />
        <Button type="submit" loading={pending} className={classes.lookupButton}>
          Look up case
        </Button>
      </div>
    </Box>
  );
}

/**
 * The inbox's form and filters: which form, the received date range (Mantine's range picker) and the
 * conditions on the form's fields, each sent to the platform in its `filter` JSON. Presentational: the
 * page owns the address they are kept in.
 */
import { ActionIcon, Button, Chip, Group, Paper, Select, Text, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { CaseFilter, CaseFilterCondition } from '@/contract/case-list';
import { CASE_FILTER_KEY, CASE_FILTER_MAX_VALUE_LENGTH, formIdentifierViolations } from '@/contract/case-list';
import { TEAM_FILTER_LABELS, TEAM_FILTERS, type TeamFilter } from '@/contract/case-work';
import { capabilitiesOf, type SiteInfo } from '@/contract/site-info';
import { formNewText, inboxCountsQuery } from '@/lib/inbox-counts';
import { columnLabel, type FormProfile } from './inbox-columns';
import classes from './inbox.module.css';

/** The form picker: the forms the site profile names, each with its cases new to the person, and any other form identifier typed into it. */
export function FormPicker({ site, form, onPick }: { site: SiteInfo; form: string; onPick: (form: string) => void }) {
  const [search, setSearch] = useState('');
  // The navigation's counts, form by form: the same query as the badge beside Cases, so no request of its own.
  const { data: counts } = useQuery({ ...inboxCountsQuery(site.id), enabled: capabilitiesOf(site).includes('lookup') });
  const named = Object.entries(site.forms ?? {}).map(([id, profile]) => {
    const fresh = formNewText(counts, id);
    return { value: id, label: `${profile.name ? `${profile.name} (form ${id})` : `Form ${id}`}${fresh ? ` · ${fresh}` : ''}` };
  });
  const typed = search.trim();
  const offerTyped =
    typed !== '' &&
    formIdentifierViolations(typed).length === 0 &&
    !named.some((option) => option.value === typed || option.label === search);
  const current = form !== '' && !named.some((option) => option.value === form) ? [{ value: form, label: `Form ${form}` }] : [];
  const data = [...named, ...current, ...(offerTyped && typed !== form ? [{ value: typed, label: `Form ${typed}` }] : [])];
  return (
    <Select
      label="Form"
      placeholder={named.length > 0 ? 'Pick a form, or type its identifier' : 'Type the form’s identifier'}
      description={named.length > 0 ? undefined : 'This site’s profile names no forms: type a form identifier, e.g. 21.'}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      data={data}
      value={form === '' ? null : form}
      onChange={(value) => {
        if (value !== null) onPick(value);
      }}
      nothingFoundMessage="Not a form identifier (letters, digits, _ and -)"
      w={{ base: '100%', xs: 320 }}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

type Operator = 'contains' | 'is';

/** Names for the calendar's arrows, which Mantine leaves unnamed (its headings are named by their text). */
const CALENDAR_LABELS = {
  previousMonth: 'Previous month',
  nextMonth: 'Next month',
  previousYear: 'Previous year',
  nextYear: 'Next year',
  previousDecade: 'Previous decade',
  nextDecade: 'Next decade',
};

/** A condition in words: `Resolution wanted is “Refund”`. */
export function conditionText(key: string, condition: CaseFilterCondition, profile: FormProfile | undefined): string {
  const label = columnLabel(key, profile);
  if (typeof condition === 'object' && 'contains' in condition) return `${label} contains “${condition.contains ?? ''}”`;
  return `${label} is “${String(condition)}”`;
}

interface FiltersProps {
  profile: FormProfile | undefined;
  /** The fields that can be filtered on (the profile's and what the cases hold). */
  fields: readonly string[];
  from: string | null;
  to: string | null;
  where: CaseFilter;
  onChange: (next: { from: string | null; to: string | null; where: CaseFilter }) => void;
}

export function InboxFilters({ profile, fields, from, to, where, onChange }: FiltersProps) {
  const [field, setField] = useState<string | null>(null);
  const [operator, setOperator] = useState<Operator>('contains');
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // The range being picked: its first day is held here until the last is picked too.
  const [picking, setPicking] = useState<[string | null, string | null]>([from, to]);
  const add = (event: FormEvent) => {
    event.preventDefault();
    const text = value.trim();
    if (field === null || !CASE_FILTER_KEY.test(field)) return setProblem('Pick a field first.');
    if (text === '') return setProblem('Type what the field should hold.');
    if (text.length > CASE_FILTER_MAX_VALUE_LENGTH) return setProblem(`At most ${CASE_FILTER_MAX_VALUE_LENGTH} characters.`);
    setProblem(null);
    setValue('');
    onChange({ from, to, where: { ...where, [field]: operator === 'contains' ? { contains: text } : text } });
  };
  const remove = (key: string) => {
    const next = { ...where };
    delete next[key];
    onChange({ from, to, where: next });
  };
  return (
    <>
      <form className={classes.filters} onSubmit={add} aria-label="Filter the cases">
        <DatePickerInput
          type="range"
          label="Received"
          clearable
          clearButtonProps={{ 'aria-label': 'Clear the received days' }}
          allowSingleDateInRange
          value={picking}
          onChange={([start, end]) => {
            setPicking([start, end]);
            // The range is sent once both ends are picked (or both cleared), not at its first click.
            if ((start === null) === (end === null)) onChange({ from: start, to: end, where });
          }}
          maxDate={new Date()}
          ariaLabels={CALENDAR_LABELS}
          w={{ base: '100%', xs: 260 }}
        />
        <Select
          label="Field"
          placeholder="Pick a field"
          data={fields.map((key) => ({ value: key, label: columnLabel(key, profile) }))}
          value={field}
          onChange={setField}
          searchable
          w={{ base: '100%', xs: 200 }}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label="Match"
          data={[
            { value: 'contains', label: 'contains' },
            { value: 'is', label: 'is exactly' },
          ]}
          value={operator}
          onChange={(next) => setOperator(next === 'is' ? 'is' : 'contains')}
          allowDeselect={false}
          w={{ base: '100%', xs: 130 }}
          comboboxProps={{ withinPortal: true }}
        />
        <TextInput
          label="Value"
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          error={problem}
          w={{ base: '100%', xs: 200 }}
        />
        <Button type="submit" variant="default">
          Add filter
        </Button>
      </form>
      {Object.keys(where).length > 0 && (
        <Group gap="xs" aria-label="Filters in use" role="group">
          {Object.entries(where).map(([key, condition]) => (
            <Paper key={key} withBorder radius="xl" px="sm" py={2}>
              <Group gap={4} wrap="nowrap">
                <Text size="sm">{conditionText(key, condition, profile)}</Text>
                <ActionIcon
                  variant="subtle"
                  size="sm"
                  aria-label={`Remove the filter ${conditionText(key, condition, profile)}`}
                  onClick={() => remove(key)}
                >
                  ×
                </ActionIcon>
              </Group>
            </Paper>
          ))}
        </Group>
      )}
    </>
  );
}

/**
 * The team's own filters (assigned to me, not done, new to me): the platform knows nothing of the team's
 * work, so the page applies them to the pages it has read and says how many rows they hide.
 */
export function TeamFilters({ team, onChange }: { team: readonly TeamFilter[]; onChange: (next: TeamFilter[]) => void }) {
  return (
    <Chip.Group multiple value={[...team]} onChange={(values) => onChange(TEAM_FILTERS.filter((filter) => values.includes(filter)))}>
      <Group gap="xs" role="group" aria-label="The team’s filters">
        {TEAM_FILTERS.map((filter) => (
          <Chip key={filter} value={filter} variant="outline" size="sm">
            {TEAM_FILTER_LABELS[filter]}
          </Chip>
        ))}
      </Group>
    </Chip.Group>
  );
}

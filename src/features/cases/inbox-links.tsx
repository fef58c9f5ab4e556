/**
 * The way into the inboxes from Cases: the forms the site profile names, each a link to its inbox, and a
 * box for any other form's identifier. Links only: the inbox's own code loads when one is opened.
 */
import { Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { identifierProblem } from '@/contract/identifiers';
import { pathTo } from '@/lib/paths';
import { Link, useNavigate } from '@/lib/router';
import { useSite } from '@/lib/site-context';
import classes from './cases.module.css';

export function InboxLinks() {
  const { site } = useSite();
  const navigate = useNavigate();
  const forms = Object.entries(site.forms ?? {});
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const open = (event: FormEvent) => {
    event.preventDefault();
    const form = typed.trim();
    const why = form === '' ? 'Type a form identifier, e.g. 21.' : identifierProblem(form, 'The form identifier');
    if (why !== null) return setProblem(why);
    setProblem(null);
    navigate(pathTo('inbox', { form }));
  };
  return (
    <Stack gap="xs" component="section" aria-labelledby="inboxes-title">
      <Title order={2} size="h4" id="inboxes-title">
        Inboxes
      </Title>
      <Text size="sm" className={classes.muted}>
        A form’s cases newest first, with the team’s status, assignee and what is new to you.
      </Text>
      {forms.length > 0 && (
        <Stack component="ul" gap={6} className={classes.plainList}>
          {forms.map(([id, form]) => (
            <li key={id}>
              <Anchor component={Link} to={pathTo('inbox', { form: id })} className={classes.link} size="sm">
                {form.name ?? `Form ${id}`}
              </Anchor>{' '}
              <Text span size="xs" className={classes.muted}>
                form {id}
              </Text>
            </li>
          ))}
        </Stack>
      )}
      <form onSubmit={open} aria-label="Open another form’s inbox">
        <Group gap="xs" align="flex-end">
          <TextInput
            label={forms.length > 0 ? 'Another form' : 'Form'}
            placeholder="e.g. 21"
            size="xs"
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            error={problem}
            w={{ base: '100%', xs: 160 }}
          />
          <Button type="submit" variant="default" size="xs">
            Open its inbox
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
